/* tendon run: runs a character's graph over time with scripted parameters; writes a per-frame
 * trace (with the pop metric per transition) and the baked motion as glTF (docs/cli.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "ground.h"
#include "preview.h"
#include "run_graph.h"

/* --out and --render keep every frame until the run ends (the bake is one clip; the preview
 * frames the whole run); without them a run streams and is bounded only by the frame counter. */
#define MAX_KEPT_FRAMES 1000000
#define MAX_FRAMES 2147483646

static void usage(FILE *out)
{
    fputs(
        "usage: tendon run GRAPH.json|PACK.tdn [--graph NAME] [--params TIMELINE.json] [--seconds S] [--fps F]\n"
        "                  [--ground SPEC] [--out BAKED.glb] [--trace TRACE.json] [--trace-rotations]\n"
        "                  [--render OUT] [--render-style capsules|mesh] [--render-size WxH] [--sheet N]\n"
        "                  [--camera AZ,EL[,DIST]] [--allow-files DIR]...\n"
        "  GRAPH.json        a graph document (docs/graph-format.md). The files it names are read below its\n"
        "                    folder, the current folder and TENDON_DATA (when set); absolute paths and '..'\n"
        "                    elsewhere are refused\n"
        "  PACK.tdn          a pack holding a graph (tendon pack --graph): its skeleton and clips are the\n"
        "                    pack's, nothing else is read (no mesh to --render-style mesh)\n"
        "  --graph NAME      the pack's graph of that name (default: its first)\n"
        "  --allow-files DIR also allow files below DIR (repeatable, up to 16 folders)\n"
        "  --params FILE     a timeline of parameter changes (docs/timeline.schema.json):\n"
        "                    {\"events\": [{\"time\": 0.5, \"set\": {\"speed\": 1.5, \"move\": [0, 1]}},\n"
        "                                {\"time\": 1, \"ramp\": {\"speed\": 3}, \"duration\": 0.5},\n"
        "                                {\"time\": 2, \"fire\": \"jump\"},\n"
        "                                {\"time\": 3, \"travel\": {\"state_machine\": NODE, \"state\": NAME}}]}\n"
        "  --seconds S       how long to run (default 5). A run streams: the trace is written as it goes and\n"
        "                    the metrics are kept up to date, so memory does not grow with the frames, up to\n"
        "                    2147483646 frames; but --out and --render keep every frame until the end: with\n"
        "                    either, at most 1000000 frames (4 h 37 min at 60 fps; exit 2 beyond)\n"
        "  --fps F           frames per second (default 60). Frame 0 is t = 0 (a zero-length update),\n"
        "                    then one update of 1/F per frame: round(S x F) + 1 frames\n"
        "  --ground SPEC     the ground the graph's foot placement jobs stand on, and the foot skate measures\n"
        "                    heights against (world space, metres, +Y up). The character is placed in it by\n"
        "                    its integrated root motion when the graph extracts it (so it does not climb: its\n"
        "                    root stays at the height the clips give it):\n"
        "                      flat[:HEIGHT]               the plane y = HEIGHT (default 0)\n"
        "                      slope:DEGREES[:AZIMUTH]     a plane through the origin rising DEGREES along the\n"
        "                                                  direction AZIMUTH degrees from +Z towards +X (default +Z)\n"
        "                      step:HEIGHT@DISTANCE        a step up of HEIGHT (down if negative) at z = DISTANCE\n"
        "                      bumps:AMPLITUDE,WAVELENGTH  y = AMPLITUDE cos(2 pi x / WAVELENGTH) sin(2 pi z / WAVELENGTH)\n"
        "                    Without it there is no ground: foot placement does nothing. Ground further than\n"
        "                    the job's rays reach (by default half a leg above or below the animated ankle)\n"
        "                    is not found: the feet then stay on the animation's own ground\n"
        "  --out FILE        bake every frame's pose into one clip named after GRAPH.json, written as\n"
        "                    glTF (.glb or .gltf) with the character's skinned meshes; when the graph\n"
        "                    extracts root motion (\"root_motion\" with \"extract\": true, its default),\n"
        "                    the integrated root transform is put back on the root-motion joint\n"
        "  --trace FILE      per-frame trace as JSON (docs/trace.schema.json): parameters, layers and their\n"
        "                    flat lists, state machines, root motion, events, the feet's world positions and\n"
        "                    contacts; then every transition with its pop metric and the foot skate\n"
        "                    (docs/metrics.md)\n"
        "  --trace-rotations also list every joint's local rotation in every frame of the trace\n",
        out);
    fputs("  --render OUT      a preview of the run, drawn by tendon's software renderer (docs/cli.md): the\n"
          "                    skinned mesh or the skeleton as shaded capsules (left side blue, right orange;\n"
          "                    --render-style) on a ground grid (the --ground, relief and all; without it\n"
          "                    y = 0), feet in contact on green discs, IK targets as red crosses, the\n"
          "                    character placed by its integrated root motion. OUT's extension picks the kind:\n"
          "                      .png  a contact sheet: --sheet frames evenly spaced over the run, their times\n"
          "                            under each\n"
          "                      .gif  an animation (every frame, or every 2nd, 3rd... so that a frame lasts\n"
          "                            at least 1/50 s), looping, in real time\n"
          "                      .mp4  every frame at --fps, encoded by ffmpeg (which must be on PATH)\n"
          "  --render-style capsules|mesh  what stands for the character: the skeleton's bones as capsules,\n"
          "                    or its skinned mesh (CPU-skinned per frame, coloured by its joints' sides).\n"
          "                    Default: mesh when the character has a skinned mesh with triangles (the\n"
          "                    generated humanoid, a glTF with a skin), else capsules\n"
          "  --render-size WxH the size of a frame (default 640x360; a contact sheet's cells 320x180)\n"
          "  --sheet N         frames on the contact sheet (default 12, in 4 columns)\n"
          "  --camera AZ,EL[,DIST]  the camera's azimuth (degrees about +Y from +Z towards +X, default 40),\n"
          "                    elevation (degrees above the horizontal, default 12) and distance in metres\n"
          "                    (default: framing the character; it follows the character when it travels)\n"
          "Prints a summary: frames, seconds, one line per transition (machine, from -> to, start,\n"
          "duration, pop), the worst pop, and the foot skate (docs/metrics.md): per foot and their mean, the\n"
          "mean horizontal speed in cm/s of the foot joint in world space over consecutive frames in which it\n"
          "is in contact (the foot placement job's contact curve >= 0.5; without a job or curve, the foot\n"
          "within 5 cm of the ground above its rest height). The feet are the foot placement jobs' (without\n"
          "one: found by name, as tendon mm build finds them: LeftAnkle, L_Ankle, LeftFoot, foot_l, Foot.L,\n"
          "mixamorig:LeftFoot, Bip01 L Foot...).\n"
          "A character playing in place (clips with no root motion: its centre stays put while its feet slide\n"
          "back in contact, as on a treadmill) is reported as in place instead of a mean (docs/cli.md).\n"
          "With a foot placement job and --ground, the graph is run a second time with foot locking off (same\n"
          "timeline and ground) and both are reported; the baked file and the trace are of the first run, with\n"
          "foot locking.\n"
          "On a terminal, stderr shows a progress bar for each run (and rendering) that takes over 0.25 s.\n"
          "Exit codes: 0 success, 2 bad input (arguments, a missing or malformed graph or timeline, a name\n"
          "the graph does not have, an output that cannot be created), 1 any other failure (ffmpeg missing\n"
          "for an .mp4 included).\n",
          out);
}

/* --render-size WxH */
static int parse_size(const char *text, int *w, int *h)
{
    char *end;
    long a = strtol(text, &end, 10);
    if (end == text || (*end != 'x' && *end != 'X'))
        return 0;
    const char *rest = end + 1;
    long b = strtol(rest, &end, 10);
    if (end == rest || *end || a < 16 || b < 16 || a > 8192 || b > 8192)
        return 0;
    *w = (int)a;
    *h = (int)b;
    return 1;
}

/* --camera AZ,EL[,DIST] */
static int parse_camera(const char *text, preview_options *o)
{
    float v[3] = { 0.0f, 0.0f, 0.0f };
    int n = 0;
    const char *p = text;
    while (n < 3) {
        char *end;
        v[n] = strtof(p, &end);
        if (end == p || !isfinite(v[n]))
            return 0;
        n++;
        if (*end == '\0')
            break;
        if (*end != ',')
            return 0;
        p = end + 1;
    }
    if (n < 2 || *p == '\0' || v[1] <= -90.0f || v[1] >= 90.0f || (n == 3 && !(v[2] > 0.0f)))
        return 0;
    o->azimuth = v[0];
    o->elevation = v[1];
    o->distance = n == 3 ? v[2] : 0.0f;
    return 1;
}

static int parse(int argc, char **argv, run_args *a)
{
    a->seconds = 5.0f;
    a->fps = 60.0f;
    a->render.azimuth = PREVIEW_DEFAULT_AZIMUTH;
    a->render.elevation = PREVIEW_DEFAULT_ELEVATION;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return -1;
        }
        const int files = cli_files_option("run", argc, argv, &i, &a->files);
        if (files < 0)
            return CLI_BAD_INPUT;
        if (files > 0)
            continue;
        int wants_value = strcmp(arg, "--params") == 0 || strcmp(arg, "--seconds") == 0 || strcmp(arg, "--fps") == 0 ||
                          strcmp(arg, "--out") == 0 || strcmp(arg, "--trace") == 0 || strcmp(arg, "--render") == 0 ||
                          strcmp(arg, "--ground") == 0 || strcmp(arg, "--render-size") == 0 ||
                          strcmp(arg, "--sheet") == 0 || strcmp(arg, "--camera") == 0 ||
                          strcmp(arg, "--render-style") == 0 || strcmp(arg, "--graph") == 0;
        if (wants_value && i + 1 >= argc) {
            fprintf(stderr, "tendon run: %s needs a value\n", arg);
            return CLI_BAD_INPUT;
        }
        if (strcmp(arg, "--params") == 0) {
            a->params = argv[++i];
        } else if (strcmp(arg, "--graph") == 0) {
            a->graph_name = argv[++i];
        } else if (strcmp(arg, "--seconds") == 0) {
            if (!cli_parse_float("run", "--seconds", argv[++i], &a->seconds))
                return CLI_BAD_INPUT;
            if (a->seconds < 0.0f) {
                fprintf(stderr, "tendon run: --seconds wants 0 or more, not '%s'\n", argv[i]);
                return CLI_BAD_INPUT;
            }
        } else if (strcmp(arg, "--fps") == 0) {
            if (!cli_parse_float("run", "--fps", argv[++i], &a->fps))
                return CLI_BAD_INPUT;
            if (!(a->fps > 0.0f) || a->fps > 10000.0f) {
                fprintf(stderr, "tendon run: --fps wants a number above 0 and at most 10000, not '%s'\n", argv[i]);
                return CLI_BAD_INPUT;
            }
        } else if (strcmp(arg, "--out") == 0) {
            a->out = argv[++i];
        } else if (strcmp(arg, "--trace") == 0) {
            a->trace = argv[++i];
        } else if (strcmp(arg, "--ground") == 0) {
            char why[256];
            if (!ground_parse(argv[++i], &a->ground, why, sizeof why)) {
                fprintf(stderr, "tendon run: --ground '%s': %s\n", argv[i], why);
                return CLI_BAD_INPUT;
            }
            a->has_ground = 1;
        } else if (strcmp(arg, "--trace-rotations") == 0) {
            a->rotations = 1;
        } else if (strcmp(arg, "--render") == 0) {
            a->render.path = argv[++i];
            if (!preview_kind_of(a->render.path, &a->render.kind)) {
                fprintf(stderr, "tendon run: --render wants a .png (contact sheet), .gif or .mp4 file, not '%s'\n",
                        a->render.path);
                return CLI_BAD_INPUT;
            }
        } else if (strcmp(arg, "--render-size") == 0) {
            if (!parse_size(argv[++i], &a->render.width, &a->render.height)) {
                fprintf(stderr, "tendon run: --render-size wants WIDTHxHEIGHT, each 16 to 8192, not '%s'\n", argv[i]);
                return CLI_BAD_INPUT;
            }
        } else if (strcmp(arg, "--render-style") == 0) {
            const char *style = argv[++i];
            if (strcmp(style, "capsules") == 0) {
                a->render.style = PREVIEW_STYLE_CAPSULES;
            } else if (strcmp(style, "mesh") == 0) {
                a->render.style = PREVIEW_STYLE_MESH;
            } else {
                fprintf(stderr, "tendon run: --render-style wants capsules or mesh, not '%s'\n", style);
                return CLI_BAD_INPUT;
            }
        } else if (strcmp(arg, "--sheet") == 0) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || n < 1 || n > 1000) {
                fprintf(stderr, "tendon run: --sheet wants a number of frames from 1 to 1000, not '%s'\n", argv[i]);
                return CLI_BAD_INPUT;
            }
            a->render.sheet_frames = (int)n;
        } else if (strcmp(arg, "--camera") == 0) {
            if (!parse_camera(argv[++i], &a->render)) {
                fprintf(stderr,
                        "tendon run: --camera wants AZIMUTH,ELEVATION[,DISTANCE] (degrees, elevation between "
                        "-90 and 90, degrees, metres above 0), not '%s'\n",
                        argv[i]);
                return CLI_BAD_INPUT;
            }
        } else if (arg[0] != '-' && !a->graph) {
            a->graph = arg;
        } else {
            fprintf(stderr, "tendon run: unexpected argument '%s'\n", arg);
            usage(stderr);
            return CLI_BAD_INPUT;
        }
    }
    if (!a->graph) {
        fprintf(stderr, "tendon run: a GRAPH.json file is required\n");
        usage(stderr);
        return CLI_BAD_INPUT;
    }
    if (a->graph_name && !cli_is_pack(a->graph)) {
        fprintf(stderr, "tendon run: --graph NAME chooses a pack's graph; %s is not a pack\n", a->graph);
        return CLI_BAD_INPUT;
    }
    const double frames = floor((double)a->seconds * a->fps + 0.5) + 1.0; /* round(S x F) + 1 */
    if ((a->out || a->render.path) && frames > MAX_KEPT_FRAMES) {
        fprintf(stderr,
                "tendon run: %s keeps every frame in memory, at most %d frames: --seconds %g at --fps %g is "
                "%.0f frames (without --out and --render a run of any length streams)\n",
                a->out && a->render.path ? "--out with --render"
                : a->out                 ? "--out"
                                         : "--render",
                MAX_KEPT_FRAMES, (double)a->seconds, (double)a->fps, frames);
        return CLI_BAD_INPUT;
    }
    if (frames > MAX_FRAMES) {
        fprintf(stderr, "tendon run: --seconds %g at --fps %g is %.0f frames, more than %d\n", (double)a->seconds,
                (double)a->fps, frames, MAX_FRAMES);
        return CLI_BAD_INPUT;
    }
    if (a->render.path) {
        char why[512];
        a->render.fps = a->fps;
        const int code = preview_check(&a->render, why, sizeof why);
        if (code != 0) {
            cli_say("run", why);
            return code;
        }
    }
    if (a->out && !cli_is_gltf_path(a->out)) {
        fprintf(stderr, "tendon run: --out wants a .glb or .gltf file, not '%s'\n", a->out);
        return CLI_BAD_INPUT;
    }
    return 0;
}

int cmd_run(int argc, char **argv)
{
    run_args a = { 0 };
    int code = parse(argc, argv, &a);
    if (code != 0)
        return code < 0 ? CLI_OK : code;
    return run_graph(&a, NULL);
}
