/* tendon mm run: a motion-matching character driven along a scripted stick path (docs/cli.md);
 * the options here, the run in tools/run/mm_run.c. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "mm_run.h"

static void usage(FILE *out)
{
    fputs("usage: tendon mm run DB.tdnmm FILE... --path PATH.json [--scale S] [--seconds S] [--fps F]\n"
          "                     [--bias B] [--interval S] [--lock-feet] [--out BAKED.glb] [--trace TRACE.json]\n"
          "                     [--json] [--allow-files DIR]...\n"
          "       tendon mm run PACK.tdn [FILE...] [--database NAME] --path PATH.json [...]\n"
          "Drives a motion-matching character (tdn_mm_controller) over the database along a scripted stick\n"
          "path and reports how closely the animated character followed its simulation.\n"
          "  DB.tdnmm          a database from `tendon mm build`\n"
          "  PACK.tdn          a pack holding a database (tendon pack --graph): its only one, or --database NAME;\n"
          "                    without FILEs, the clips are the pack's own (keyed at their frames), in its order\n"
          "  FILE...           the files it was built from, in the same order, with the same --scale/--skin\n"
          "                    (checked: clip count, frames per clip, and the feet against the database)\n"
          "  --allow-files DIR as for tendon info: a glTF's external buffers may also be below DIR (repeatable)\n"
          "  --path PATH.json  the stick input (docs/mm_path.schema.json): segments that follow each other,\n"
          "                    {\"segments\": [{\"duration\": S, \"speed\": M_PER_S, \"heading\": DEGREES,\n"
          "                                   \"facing\": DEGREES (default: the heading)}, ...]};\n"
          "                    angles about +Y from +Z towards +X (0: +Z, 90: +X). The desired velocity and\n"
          "                    facing change at once at each segment's start; after the last: standing\n"
          "  --seconds S       how long to run (default: the path's duration)\n"
          "  --fps F           frames per second (default 60). Frame 0 is t = 0 (a zero-length update),\n"
          "                    then one update of 1/F per frame: round(S x F) + 1 frames\n"
          "  --bias B          the cost another frame must beat continuing by (default 0.05)\n"
          "  --interval S      seconds between searches (default 0.1; sharp input changes search at once)\n"
          "  --lock-feet       foot locking: feet in contact held where they were planted (two-bone IK on\n"
          "                    the legs, flat ground at y = 0)\n"
          "  --out FILE        the baked motion, .glb or .gltf: one clip named after PATH.json\n"
          "  --trace FILE      per-frame JSON: time, input, database frame (clip, time, mirrored), cost, searched,\n"
          "                    switched, the character's and the simulation's position and facing, the feet\n"
          "  --json            the summary as one JSON object\n"
          "Prints a summary: frames, searches, switches (and how many were rewinds: back to a frame of the same\n"
          "clip played at most 1/3 s before, a stutter), the root position error (character against\n"
          "simulation, metres) and facing error (degrees), mean and max from 1 s on, and the foot skate\n"
          "(docs/metrics.md): each foot's mean horizontal speed while in contact, a foot being in contact when it\n"
          "is at most 5 cm above its ground height (the 5th percentile of its height over the clips) and moves\n"
          "at most 0.5 m/s; beside it the same measure of the clips played as they are.\n"
          "On a terminal, stderr shows a progress bar when the run takes over 0.25 s.\n"
          "Exit codes: 0 success, 2 bad input (arguments, a missing or malformed database or path, files that\n"
          "do not match the database, an output that cannot be created), 1 any other failure.\n",
          out);
}

static int parse(int argc, char **argv, mm_run_args *a)
{
    a->fps = 60.0f;
    a->bias = 0.05f;
    a->files = calloc((size_t)argc + 1, sizeof *a->files);
    if (!a->files) {
        fprintf(stderr, "tendon mm run: out of memory\n");
        return CLI_FAILURE;
    }
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return -1;
        }
        int c = cli_common_option("mm run", argc, argv, &i, &a->common);
        if (c < 0)
            return CLI_BAD_INPUT;
        if (c > 0)
            continue;
        int wants_value = strcmp(arg, "--path") == 0 || strcmp(arg, "--seconds") == 0 || strcmp(arg, "--fps") == 0 ||
                          strcmp(arg, "--out") == 0 || strcmp(arg, "--trace") == 0 || strcmp(arg, "--bias") == 0 ||
                          strcmp(arg, "--interval") == 0 || strcmp(arg, "--database") == 0;
        if (wants_value && i + 1 >= argc) {
            fprintf(stderr, "tendon mm run: %s needs a value\n", arg);
            return CLI_BAD_INPUT;
        }
        if (strcmp(arg, "--lock-feet") == 0) {
            a->lock_feet = 1;
        } else if (strcmp(arg, "--path") == 0) {
            a->path = argv[++i];
        } else if (strcmp(arg, "--database") == 0) {
            a->database = argv[++i];
        } else if (strcmp(arg, "--out") == 0) {
            a->out = argv[++i];
        } else if (strcmp(arg, "--trace") == 0) {
            a->trace = argv[++i];
        } else if (strcmp(arg, "--seconds") == 0) {
            if (!cli_parse_float("mm run", "--seconds", argv[++i], &a->seconds))
                return CLI_BAD_INPUT;
            if (a->seconds < 0.0f) {
                fprintf(stderr, "tendon mm run: --seconds wants 0 or more, not '%s'\n", argv[i]);
                return CLI_BAD_INPUT;
            }
            a->has_seconds = 1;
        } else if (strcmp(arg, "--fps") == 0) {
            if (!cli_parse_float("mm run", "--fps", argv[++i], &a->fps))
                return CLI_BAD_INPUT;
            if (!(a->fps > 0.0f) || a->fps > 10000.0f) {
                fprintf(stderr, "tendon mm run: --fps wants a number above 0 and at most 10000, not '%s'\n", argv[i]);
                return CLI_BAD_INPUT;
            }
        } else if (strcmp(arg, "--bias") == 0 || strcmp(arg, "--interval") == 0) {
            float *v = arg[2] == 'b' ? &a->bias : &a->interval;
            if (!cli_parse_float("mm run", arg, argv[++i], v))
                return CLI_BAD_INPUT;
            if (*v < 0.0f || (v == &a->interval && *v > 60.0f)) {
                fprintf(stderr, "tendon mm run: %s wants %s, not '%s'\n", arg,
                        v == &a->bias ? "0 or more" : "seconds from 0 to 60 (0: the default, 0.1)", argv[i]);
                return CLI_BAD_INPUT;
            }
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "tendon mm run: unexpected argument '%s'\n", arg);
            usage(stderr);
            return CLI_BAD_INPUT;
        } else if (!a->db) {
            a->db = arg;
        } else {
            a->files[a->file_count++] = argv[i];
        }
    }
    const int pack = a->db && cli_is_pack(a->db);
    if (pack && a->file_count == 0) /* the pack's own clips */
        a->files[a->file_count++] = (char *)a->db;
    if (a->database && !pack) {
        fprintf(stderr, "tendon mm run: --database chooses a pack's database; %s is not a pack\n", a->db);
        return CLI_BAD_INPUT;
    }
    if (!a->db || a->file_count == 0 || !a->path) {
        fprintf(stderr, "tendon mm run: %s\n",
                !a->db           ? "a DB.tdnmm file is required"
                : !a->file_count ? "the FILEs the database was built from are required"
                                 : "--path PATH.json is required");
        usage(stderr);
        return CLI_BAD_INPUT;
    }
    if (a->out && !cli_is_gltf_path(a->out)) {
        fprintf(stderr, "tendon mm run: --out wants a .glb or .gltf file, not '%s'\n", a->out);
        return CLI_BAD_INPUT;
    }
    return 0;
}

int cmd_mm_run(int argc, char **argv)
{
    mm_run_args a = { 0 };
    int code = parse(argc, argv, &a);
    if (code == 0)
        code = mm_run(&a);
    else if (code < 0)
        code = CLI_OK;
    free(a.files);
    return code;
}
