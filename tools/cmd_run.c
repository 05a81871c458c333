/* tendon run: runs a character's graph over time with scripted parameters; writes a per-frame
 * trace (with the pop metric per transition) and the baked motion as glTF (docs/cli.md). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "baked_frames.h"
#include "cli.h"
#include "json_file.h"
#include "commands.h"
#include "foot_skate.h"
#include "ground.h"
#include "pop_metric.h"
#include "preview.h"
#include "progress.h"
#include "run_graph.h"
#include "tendon/io/graph_document.h"
#include "timeline.h"
#include "trace.h"


/* --out and --render keep every frame until the run ends (the bake is one clip; the preview
 * frames the whole run); without them a run streams and is bounded only by the frame counter. */
#define MAX_KEPT_FRAMES 1000000
#define MAX_FRAMES 2147483646

static void usage(FILE *out)
{
    fputs("usage: tendon run GRAPH.json [--params TIMELINE.json] [--seconds S] [--fps F] [--ground SPEC]\n"
          "                  [--out BAKED.glb] [--trace TRACE.json] [--trace-rotations]\n"
          "                  [--render OUT] [--render-style capsules|mesh] [--render-size WxH] [--sheet N]\n"
          "                  [--camera AZ,EL[,DIST]] [--allow-files DIR]...\n"
          "  GRAPH.json        a graph document (docs/graph-format.md). The files it names are read below its\n"
          "                    folder, the current folder and TENDON_DATA (when set); absolute paths and '..'\n"
          "                    elsewhere are refused\n"
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
          "  --trace-rotations also list every joint's local rotation in every frame of the trace\n"
          , out);
    fputs(          "  --render OUT      a preview of the run, drawn by tendon's software renderer (docs/cli.md): the\n"
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
        int wants_value = strcmp(arg, "--params") == 0 || strcmp(arg, "--seconds") == 0 ||
                          strcmp(arg, "--fps") == 0 || strcmp(arg, "--out") == 0 || strcmp(arg, "--trace") == 0 ||
                          strcmp(arg, "--render") == 0 || strcmp(arg, "--ground") == 0 ||
                          strcmp(arg, "--render-size") == 0 || strcmp(arg, "--sheet") == 0 ||
                          strcmp(arg, "--camera") == 0 || strcmp(arg, "--render-style") == 0;
        if (wants_value && i + 1 >= argc) {
            fprintf(stderr, "tendon run: %s needs a value\n", arg);
            return CLI_BAD_INPUT;
        }
        if (strcmp(arg, "--params") == 0) {
            a->params = argv[++i];
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
                fprintf(stderr, "tendon run: --camera wants AZIMUTH,ELEVATION[,DISTANCE] (degrees, elevation between "
                                "-90 and 90, degrees, metres above 0), not '%s'\n", argv[i]);
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
    const double frames = floor((double)a->seconds * a->fps + 0.5) + 1.0; /* round(S x F) + 1 */
    if ((a->out || a->render.path) && frames > MAX_KEPT_FRAMES) {
        fprintf(stderr, "tendon run: %s keeps every frame in memory, at most %d frames: --seconds %g at --fps %g is "
                        "%.0f frames (without --out and --render a run of any length streams)\n",
                a->out && a->render.path ? "--out with --render" : a->out ? "--out" : "--render", MAX_KEPT_FRAMES,
                (double)a->seconds, (double)a->fps, frames);
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

/* ---- what the graph document declares that the graph API does not report: whether root
 * motion is extracted (and of which joint), and each transition's mode and duration. The
 * document was checked by tdn_graph_document_load; this reads those few fields again. ---- */

typedef struct doc_extras {
    cJSON *json;
    int extract;                   /* the graph extracts root motion */
    tdn_root_motion_desc root_motion;
} doc_extras;

static void read_extras(const char *path, const tdn_skeleton *skel, doc_extras *x)
{
    memset(x, 0, sizeof *x);
    char why[256];
    json_file_read(path, &x->json, why, sizeof why); /* the graph loader has already said what is wrong with it */
    const cJSON *rm = cJSON_GetObjectItemCaseSensitive(x->json, "root_motion");
    if (!cJSON_IsObject(rm))
        return;
    const cJSON *extract = cJSON_GetObjectItemCaseSensitive(rm, "extract");
    x->extract = !cJSON_IsFalse(extract); /* the format's default: extract */
    const cJSON *joint = cJSON_GetObjectItemCaseSensitive(rm, "joint");
    if (cJSON_IsString(joint))
        x->root_motion.joint = tdn_skeleton_find_joint(skel, joint->valuestring);
    else if (cJSON_IsNumber(joint))
        x->root_motion.joint = joint->valueint;
    if (x->root_motion.joint < 0 || x->root_motion.joint >= tdn_skeleton_joint_count(skel))
        x->root_motion.joint = 0;
    const cJSON *rotation = cJSON_GetObjectItemCaseSensitive(rm, "rotation");
    if (cJSON_IsString(rotation))
        x->root_motion.rotation = strcmp(rotation->valuestring, "full") == 0   ? TDN_ROOT_FULL_ROTATION
                                  : strcmp(rotation->valuestring, "none") == 0 ? TDN_ROOT_NO_ROTATION
                                                                               : TDN_ROOT_YAW;
    x->root_motion.keep_vertical = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rm, "keep_vertical"));
}

/* The JSON of a node from its name: a key of "nodes", or the JSON path the loader names
 * unnamed nodes by ("layers[0].root", "nodes.loco.states[1].node"). A node given as a string
 * is followed to the named node. NULL when not found. */
static const cJSON *node_json(const cJSON *doc, const char *name)
{
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(doc, "nodes");
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(nodes, name);
    if (!at) {
        at = doc;
        char key[256];
        for (const char *p = name; at && *p;) {
            size_t n = strcspn(p, ".[");
            if (n >= sizeof key)
                return NULL;
            if (n > 0) {
                memcpy(key, p, n);
                key[n] = '\0';
                at = cJSON_GetObjectItemCaseSensitive(at, key);
                p += n;
            }
            while (at && *p == '[') {
                char *end;
                long i = strtol(p + 1, &end, 10);
                if (*end != ']')
                    return NULL;
                at = cJSON_GetArrayItem(at, (int)i);
                p = end + 1;
            }
            if (*p == '.')
                p++;
        }
    }
    for (int hops = 0; cJSON_IsString(at) && hops < 64; hops++)
        at = cJSON_GetObjectItemCaseSensitive(nodes, at->valuestring);
    return cJSON_IsObject(at) ? at : NULL;
}

/* A transition's declared mode and duration in seconds and in frames (0: none, or normalized). */
static void declared(const cJSON *doc, const tdn_graph *g, int machine, int index, float fps, const char **mode,
                     double *seconds, int *frames)
{
    static const char *const modes[] = { "smooth", "frozen", "cut", "inertialize" };
    *mode = NULL;
    *seconds = 0.0;
    *frames = 0;
    const cJSON *m = doc ? node_json(doc, tdn_graph_node_name(g, machine)) : NULL;
    const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(m, "transitions"), index);
    if (!cJSON_IsObject(t))
        return;
    const cJSON *mj = cJSON_GetObjectItemCaseSensitive(t, "mode");
    *mode = modes[0];
    for (int k = 0; k < 4; k++)
        if (cJSON_IsString(mj) && strcmp(mj->valuestring, modes[k]) == 0)
            *mode = modes[k];
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(t, "duration");
    if (cJSON_IsNumber(d) && d->valuedouble > 0.0) { /* counted as a double, capped, then made an int */
        *seconds = d->valuedouble;
        *frames = d->valuedouble * fps < 1e9 ? (int)lround(d->valuedouble * fps) : 1000000000;
    }
}

/* The importer's warnings about the character's file (as info and sample print them), the file
 * named as the document names it, from the document's folder. */
static void character_warnings(const char *graph, const cJSON *doc, const tdn_asset *asset)
{
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "character"), "file");
    if (!cJSON_IsString(file) || tdn_asset_warning_count(asset) == 0)
        return;
    const size_t folder = (size_t)(cli_base_name(graph) - graph); /* up to and with the last separator */
    char path[4096];
    if (file->valuestring[0] == '/' || folder == 0)
        snprintf(path, sizeof path, "%s", file->valuestring);
    else
        snprintf(path, sizeof path, "%.*s%s", (int)folder, graph, file->valuestring);
    cli_print_warnings("run", path, asset);
}

static int is_identity(const tdn_root_motion *m)
{
    return m->translation.x == 0.0f && m->translation.y == 0.0f && m->translation.z == 0.0f && m->rotation.x == 0.0f &&
           m->rotation.y == 0.0f && m->rotation.z == 0.0f && fabsf(m->rotation.w) == 1.0f;
}

typedef struct run_state {
    tdn_graph_document *doc;
    tdn_graph_instance *instance;
    timeline *tl;
    tdn_pose pose;
    baked_frames baked;    /* --out: every frame's pose */
    pop_recorder *pop;
    trace_writer trace;
    int trace_open;
    tdn_vec3 *positions;   /* --out: the integrated root transform per frame */
    tdn_quat *facings;
    doc_extras extras;
    foot_skate skate;
    int skate_ready;
    ground ground;         /* --ground (what ground_query reads) */
    int second_run;        /* a foot placement job and a ground: run again without foot locking */
    tdn_mat4 *model;       /* this frame's model space, placed in the world (one per joint) */
    /* --render: the frames drawn, the skeleton's parents as ints, and the IK jobs' target
     * parameters (and weight: a parameter, or a constant) */
    preview_clip preview;
    int *parents;
    int target_count;
    int target_param[TDN_MAX_GRAPH_IK], weight_param[TDN_MAX_GRAPH_IK];
    float weight_const[TDN_MAX_GRAPH_IK];
    run_report rep;        /* timings and the IK error (run_graph's report) */
    double ik_error_sum;
    tdn_mat4 *ik_model;    /* when the IK error is measured (a report asked for, a ground): the
                            * character-frame model space it is measured in */
} run_state;

static void release(run_state *s)
{
    if (s->trace_open && s->trace.file)
        fclose(s->trace.file);
    baked_frames_free(&s->baked);
    free(s->positions);
    free(s->facings);
    pop_recorder_destroy(s->pop);
    tdn_pose_destroy(&s->pose);
    timeline_destroy(s->tl);
    tdn_graph_instance_destroy(s->instance);
    foot_skate_free(&s->skate); /* also a partly made one */
    preview_clip_free(&s->preview);
    free(s->parents);
    free(s->model);
    free(s->ik_model);
    tdn_graph_document_destroy(s->doc);
    cJSON_Delete(s->extras.json);
}

/* The character's frame in the world for foot placement and the foot skate: the integrated root
 * motion when the graph extracts it, else the identity (the pose carries its root motion). */
static tdn_mat4 world_of(const run_state *s, tdn_vec3 position, tdn_quat facing)
{
    if (!s->extras.extract)
        return tdn_mat4_identity();
    tdn_transform x = { position, facing, { 1.0f, 1.0f, 1.0f } };
    return tdn_transform_to_mat4(&x);
}

static void print_cm_s(double v)
{
    if (isfinite(v))
        printf("%.4g cm/s", v);
    else
        printf("n/a");
}

static void skate_summary(const run_args *a, const run_state *s)
{
    const foot_skate *k = &s->skate;
    if (k->count == 0) {
        printf("foot skate: none (no foot placement job, and no foot joint found by name)\n");
        return;
    }
    char rule[96], name[CLI_TEXT_SIZE];
    double travel, slide;
    const int in_place = foot_skate_in_place(k, 0, &travel, &slide);
    printf("foot skate (docs/metrics.md: mean horizontal speed of the foot in world space while in contact):\n");
    for (int f = 0; f < k->count; f++) {
        const foot_skate_result *r = &k->results[0][f];
        printf("  %s: ", cli_text(foot_skate_name(k, f), name, sizeof name));
        print_cm_s(r->cm_per_s);
        if (in_place)
            printf(", sliding in place");
        if (s->second_run) {
            printf(" with foot locking, ");
            print_cm_s(k->results[1][f].cm_per_s);
            printf(" without");
        }
        printf(" (%d frames in contact, contact by %s)\n", r->contact_frames, foot_skate_contact_rule(k, f, rule, sizeof rule));
    }
    printf("foot skate: ");
    if (in_place) { /* the figure would read as a failure: say what it is */
        printf("n/a, in place (the character's centre stayed within %.3g m of where it started while each foot slid "
               "%.3g m in contact, ", travel, slide);
        print_cm_s(foot_skate_mean(k, 0));
        printf(": clips made to play on the spot slide their planted feet by design; ");
    } else {
        print_cm_s(foot_skate_mean(k, 0));
        if (s->second_run) {
            printf(" with foot locking, ");
            print_cm_s(foot_skate_mean(k, 1));
            printf(" without");
        }
        printf(" (");
    }
    printf("%d feet%s, ", k->count, k->by_name ? " found by name" : "");
    if (a->has_ground)
        printf("ground %s%s)\n", a->ground.spec, foot_skate_has_job(k) ? "" : "; no foot placement job");
    else
        printf("no ground%s)\n", foot_skate_has_job(k) ? ": foot placement off" : ", y = 0");
}

static int bake(const run_args *a, run_state *s, int frame_count, int apply_root)
{
    const tdn_skeleton *skel = tdn_graph_document_skeleton(s->doc);
    const int joint = s->extras.root_motion.joint;
    if (apply_root && joint < tdn_skeleton_joint_count(skel)) {
        /* in the joint's parent frame, which is the character's frame root motion is in */
        for (int f = 0; f < frame_count; f++) {
            tdn_transform world = { s->positions[f], s->facings[f], { 1.0f, 1.0f, 1.0f } };
            tdn_transform root = tdn_pose_get(&s->baked.poses[f], joint);
            tdn_transform placed = tdn_transform_mul(&world, &root);
            tdn_pose_set(&s->baked.poses[f], joint, &placed);
        }
    }
    return baked_frames_write(&s->baked, "run", a->out, a->graph, a->fps, skel, tdn_graph_document_asset(s->doc));
}

static void summary(const run_args *a, run_state *s, int frame_count, int any_motion, int apply_root,
                    const tdn_vec3 *position, tdn_quat facing)
{
    const tdn_graph *g = tdn_graph_document_graph(s->doc);
    printf("%s: %d frames, %.6g s at %.6g fps (frame 0 at t = 0)", a->graph, frame_count, (double)(frame_count - 1) / a->fps,
           (double)a->fps);
    if (a->params)
        printf(", %d of %d timeline events applied", timeline_applied_count(s->tl), timeline_event_count(s->tl));
    printf("\n");
    if (any_motion) {
        double yaw = 2.0 * atan2((double)facing.y, (double)facing.w) * 180.0 / 3.14159265358979323846;
        printf("root motion: ended at (%.4g, %.4g, %.4g), turned %.4g degrees about y\n", (double)position->x,
               (double)position->y, (double)position->z, yaw);
    } else {
        printf("root motion: none reported by the graph\n");
    }
    const pop_transition *t = NULL;
    int count = s->pop ? pop_recorder_transitions(s->pop, &t) : 0;
    int worst = -1;
    char name[32], node[CLI_TEXT_SIZE], from[CLI_TEXT_SIZE], to[CLI_TEXT_SIZE];
    if (count)
        printf("transitions (pop: the largest per-frame rotation change over its bound, docs/metrics.md):\n");
    for (int k = 0; k < count; k++) {
        const pop_transition *x = &t[k];
        /* the document's duration: an inertialization or a cut completes in the update it starts in */
        printf("  %s: %s -> %s  start %.4f s  duration %.4f s  %s%s  pop %.3f\n",
               cli_text(trace_node_name(g, x->machine, name, sizeof name), node, sizeof node),
               x->from >= 0 ? cli_text(tdn_graph_state_name(g, x->machine, x->from), from, sizeof from) : "?",
               x->to >= 0 ? cli_text(tdn_graph_state_name(g, x->machine, x->to), to, sizeof to) : "?",
               x->start_frame / (double)a->fps,
               x->declared_seconds > 0.0 ? x->declared_seconds : (x->end_frame - x->start_frame + 1) / (double)a->fps,
               trace_transition_mode(x),
               x->interrupted ? " (interrupted)" : !x->finished ? " (unfinished)" : "", x->pop);
        if (worst < 0 || x->pop > t[worst].pop)
            worst = k;
    }
    if (worst >= 0)
        printf("worst pop: %.3f (%s: %s -> %s at %.4f s)\n", t[worst].pop,
               cli_text(trace_node_name(g, t[worst].machine, name, sizeof name), node, sizeof node),
               t[worst].from >= 0 ? cli_text(tdn_graph_state_name(g, t[worst].machine, t[worst].from), from, sizeof from) : "?",
               t[worst].to >= 0 ? cli_text(tdn_graph_state_name(g, t[worst].machine, t[worst].to), to, sizeof to) : "?",
               t[worst].start_frame / (double)a->fps);
    else
        printf("worst pop: none (no transitions)\n");
    skate_summary(a, s);
    if (a->trace)
        printf("trace: %s\n", a->trace);
    if (a->out)
        printf("baked: %s (%d frames at %.6g fps%s%s%s)\n", a->out, frame_count, (double)a->fps,
               apply_root ? ", the integrated root motion put back on joint " : "",
               apply_root ? tdn_skeleton_joint_name(tdn_graph_document_skeleton(s->doc), s->extras.root_motion.joint) : "",
               apply_root ? " (the graph extracts it)" : "");
}

/* --render: what frame f shows, in world space. */
static void record_preview(const run_args *a, run_state *s, const tdn_graph_instance *instance, int f,
                           const tdn_mat4 *world)
{
    preview_clip *c = &s->preview;
    const tdn_skeleton *skel = tdn_graph_document_skeleton(s->doc);
    for (int j = 0; j < c->joint_count; j++) { /* s->model: this frame's, in the world */
        const float *m = s->model[j].m;
        c->joints[(size_t)f * (size_t)c->joint_count + (size_t)j] = tdn_vec3_make(m[12], m[13], m[14]);
    }
    if (c->palettes)
        tdn_palette(skel, s->model, c->palettes + (size_t)f * (size_t)c->joint_count, NULL);
    for (int k = 0; k < c->foot_count; k++) {
        const foot_skate_foot *foot = &s->skate.feet[k];
        const size_t i = (size_t)f * (size_t)c->foot_count + (size_t)k;
        const double y = a->has_ground ? ground_height(&s->ground, foot->prev.x, foot->prev.z, NULL) : 0.0;
        c->feet[i] = tdn_vec3_make(foot->prev.x, (float)y, foot->prev.z);
        c->contact[i] = (unsigned char)(foot->prev_contact != 0);
    }
    for (int t = 0; t < c->target_count; t++) {
        const size_t i = (size_t)f * (size_t)c->target_count + (size_t)t;
        const int p = s->target_param[t];
        const tdn_vec3 model = tdn_vec3_make(tdn_graph_param_value(instance, p, 0), tdn_graph_param_value(instance, p, 1),
                                             tdn_graph_param_value(instance, p, 2));
        const float weight = s->weight_param[t] >= 0 ? tdn_graph_param_value(instance, s->weight_param[t], 0)
                                                     : s->weight_const[t];
        c->targets[i] = tdn_mat4_transform_point(world, model);
        c->target_on[i] = weight > 0.001f;
    }
}

/* --render: the IK jobs' targets (the document's "ik" entries with a "target" parameter). */
static void find_targets(run_state *s)
{
    const tdn_graph *g = tdn_graph_document_graph(s->doc);
    const cJSON *ik = cJSON_GetObjectItemCaseSensitive(s->extras.json, "ik");
    const cJSON *job;
    cJSON_ArrayForEach(job, ik)
    {
        const cJSON *target = cJSON_GetObjectItemCaseSensitive(job, "target");
        const cJSON *weight = cJSON_GetObjectItemCaseSensitive(job, "weight");
        const int p = cJSON_IsString(target) ? tdn_graph_find_param(g, target->valuestring) : -1;
        if (p < 0 || tdn_graph_param_type(g, p) != TDN_PARAM_VEC3 || s->target_count >= TDN_MAX_GRAPH_IK)
            continue;
        s->target_param[s->target_count] = p;
        s->weight_param[s->target_count] = cJSON_IsString(weight) ? tdn_graph_find_param(g, weight->valuestring) : -1;
        s->weight_const[s->target_count] = cJSON_IsNumber(weight) ? (float)weight->valuedouble : 1.0f; /* absent: 1 */
        s->target_count++;
    }
}

/* --render: the frames' storage, after the feet are known. 0 when out of memory. */
static int prepare_preview(run_state *s, int frame_count)
{
    const tdn_skeleton *skel = tdn_graph_document_skeleton(s->doc);
    const int joints = tdn_skeleton_joint_count(skel);
    find_targets(s);
    s->parents = malloc(sizeof(int) * (size_t)(joints + 1));
    const char **names = malloc(sizeof(char *) * (size_t)(joints + 1));
    int ok = s->parents && names;
    for (int j = 0; ok && j < joints; j++) {
        s->parents[j] = tdn_skeleton_parent(skel, j);
        names[j] = tdn_skeleton_joint_name(skel, j);
    }
    ok = ok && preview_clip_init(&s->preview, frame_count, joints, s->parents, names, s->skate.count, s->target_count);
    free(names);
    return ok;
}

static double distance(const float *a, const float *b)
{
    const double dx = (double)a[12] - b[12], dy = (double)a[13] - b[13], dz = (double)a[14] - b[14];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* The IK error (docs/metrics.md) for the foot placement jobs that ran this frame: each ankle's
 * distance from the target the job solved for, and the change of its leg's two bones' lengths
 * (model space) from the rest pose's. */
static void ik_measure(run_state *s, const tdn_graph_instance *instance)
{
    const tdn_graph *g = tdn_graph_document_graph(s->doc);
    const tdn_skeleton *skel = tdn_graph_document_skeleton(s->doc);
    int modelled = 0;
    for (int job = 0; job < tdn_graph_ik_count(g); job++) {
        if (tdn_graph_ik_kind_of(g, job) != TDN_GRAPH_IK_FOOT_PLACEMENT)
            continue;
        for (int leg = 0; leg < tdn_graph_foot_count(g, job); leg++) {
            tdn_vec3 target;
            const int end = tdn_graph_foot_joint(g, job, leg);
            if (end < 0 || !tdn_graph_foot_target(instance, job, leg, &target))
                continue;
            if (!modelled) { /* in the character's frame, as the target: no rounding of world positions */
                tdn_model_space(skel, &s->pose, NULL, s->ik_model, NULL);
                modelled = 1;
            }
            const float t[16] = { [12] = target.x, [13] = target.y, [14] = target.z };
            const double e = distance(s->ik_model[end].m, t);
            s->rep.ik_samples++;
            const int reached = tdn_graph_ik_reached(instance, job);
            s->rep.ik_unreached += !reached;
            if (reached && e > s->rep.ik_error_max_reached)
                s->rep.ik_error_max_reached = e;
            s->ik_error_sum += e;
            if (e > s->rep.ik_error_max)
                s->rep.ik_error_max = e;
            for (int j = end, k = 0; k < 2 && tdn_skeleton_parent(skel, j) >= 0; k++, j = tdn_skeleton_parent(skel, j)) {
                const tdn_transform rest = tdn_skeleton_rest(skel, j);
                const double rest_len = tdn_vec3_length(rest.t);
                const double change = fabs(distance(s->ik_model[j].m, s->ik_model[tdn_skeleton_parent(skel, j)].m) - rest_len);
                if (change > s->rep.bone_change_max)
                    s->rep.bone_change_max = change;
            }
        }
    }
}

/* One run of the graph over every frame: the first (run != NULL: the pop recorder, the baked
 * frames, the trace, the foot skate with foot locking) or the second (run == NULL: the foot
 * skate alone, on an instance with foot locking off). Returns an exit code. */
static int run_frames(const run_args *a, run_state *s, tdn_graph_instance *instance, timeline *tl, int frame_count,
                      const trace_run *run, tdn_vec3 *position_out, tdn_quat *facing_out, int *any_motion)
{
    char why[2048] = "";
    tdn_vec3 position = { 0.0f, 0.0f, 0.0f };
    tdn_quat facing = tdn_quat_identity();
    int code = CLI_OK;
    foot_skate_begin(&s->skate, run ? 0 : 1);
    progress_bar bar;
    progress_begin(&bar,
                   !run         ? "tendon run: running again without foot locking"
                   : a->out     ? "tendon run: running and baking"
                                : "tendon run: running",
                   -1);
    for (int f = 0; f < frame_count; f++) {
        progress_update(&bar, f, frame_count);
        const double time = f / (double)a->fps;
        code = timeline_apply(tl, instance, time, why, sizeof why);
        if (code != CLI_OK) {
            char safe[CLI_TEXT_SIZE];
            fprintf(stderr, "tendon run: %s: %s\n", a->params ? a->params : "timeline", cli_text(why, safe, sizeof safe));
            break;
        }
        const double started = run ? cli_now_ms() : 0.0;
        tdn_result r = tdn_graph_update(instance, f == 0 ? 0.0f : 1.0f / a->fps, NULL);
        tdn_root_motion motion;
        if (r == TDN_OK)
            r = tdn_graph_root_motion(instance, &motion, NULL);
        if (r == TDN_OK && !is_identity(&motion)) {
            *any_motion = 1;
            position = tdn_vec3_add(position, tdn_quat_rotate(facing, motion.translation));
            facing = tdn_quat_normalize(tdn_quat_mul(facing, motion.rotation));
        }
        /* the ground foot placement stands on, and where this frame's motion put the character */
        const tdn_mat4 world = world_of(s, position, facing);
        if (r == TDN_OK && a->has_ground)
            r = tdn_graph_set_ground(instance, ground_query, &s->ground, &world, NULL);
        if (r == TDN_OK)
            r = tdn_graph_evaluate(instance, &s->pose, NULL);
        if (run)
            s->rep.eval_ms += cli_now_ms() - started;
        if (r != TDN_OK) {
            code = cli_report("run", r, NULL);
            break;
        }
        /* model space once, placed in the world: for the foot skate, the IK error and the preview */
        tdn_model_space(tdn_graph_document_skeleton(s->doc), &s->pose, &world, s->model, NULL);
        foot_skate_frame_model(&s->skate, instance, s->model);
        if (!run)
            continue;
        if (s->ik_model)
            ik_measure(s, instance);
        if (s->pop && !pop_recorder_frame(s->pop, instance, &s->pose)) {
            fprintf(stderr, "tendon run: out of memory recording frame %d\n", f);
            code = CLI_FAILURE;
            break;
        }
        if (a->out) {
            tdn_pose_copy(&s->baked.poses[f], &s->pose, NULL);
            s->positions[f] = position;
            s->facings[f] = facing;
        }
        if (a->render.path || a->render2.path)
            record_preview(a, s, instance, f, &world);
        if (a->trace) {
            trace_frame fr = { f, time, instance, tl, &motion, position, facing, &s->pose, &s->skate };
            trace_write_frame(&s->trace, run, &fr);
        }
    }
    if (code == CLI_OK)
        progress_update(&bar, frame_count, frame_count);
    progress_end(&bar);
    *position_out = position;
    *facing_out = facing;
    return code;
}

/* The second run for the foot skate without foot locking: a new instance and timeline, the
 * same ground. */
static int run_unlocked(const run_args *a, run_state *s, int frame_count)
{
    const tdn_graph *g = tdn_graph_document_graph(s->doc);
    tdn_graph_instance *instance = NULL;
    timeline *tl = NULL;
    char why[2048] = "";
    int code = CLI_OK;
    if (tdn_graph_instance_create(g, &instance, NULL, NULL) != TDN_OK) {
        fprintf(stderr, "tendon run: out of memory\n");
        return CLI_FAILURE;
    }
    tdn_graph_set_foot_locking(instance, 0, NULL);
    if (a->params)
        code = timeline_load(a->params, g, &tl, why, sizeof why);
    else if (!(tl = timeline_empty(g))) {
        code = CLI_FAILURE;
        snprintf(why, sizeof why, "out of memory");
    }
    if (code != CLI_OK) {
        cli_say("run", why);
    } else {
        tdn_vec3 position;
        tdn_quat facing;
        int any_motion = 0;
        code = run_frames(a, s, instance, tl, frame_count, NULL, &position, &facing, &any_motion);
    }
    timeline_destroy(tl);
    tdn_graph_instance_destroy(instance);
    return code;
}

int cmd_run(int argc, char **argv)
{
    run_args a = { 0 };
    int code = parse(argc, argv, &a);
    if (code != 0)
        return code < 0 ? CLI_OK : code;
    return run_graph(&a, NULL);
}

int run_graph(run_args *ap, run_report *report)
{
    run_args a = *ap;
    int code = CLI_OK;
    run_state s = { 0 };
    tdn_error err = { 0 };
    cli_access access;
    const tdn_graph_document_load_options options = { .file_access = cli_file_access(&access, &a.files, a.graph) };
    tdn_result r = tdn_graph_document_load(a.graph, &options, &s.doc, NULL, &err);
    if (r != TDN_OK)
        return cli_report("run", r, &err);
    const tdn_graph *g = tdn_graph_document_graph(s.doc);
    const tdn_skeleton *skel = tdn_graph_document_skeleton(s.doc);
    const int joints = tdn_skeleton_joint_count(skel);
    const int steps = (int)lround((double)a.seconds * a.fps), frame_count = steps + 1;
    char why[2048] = "";
    read_extras(a.graph, skel, &s.extras);
    character_warnings(a.graph, s.extras.json, tdn_graph_document_asset(s.doc));
    s.ground = a.ground;
    s.skate_ready = foot_skate_init(&s.skate, s.doc, s.extras.json, a.has_ground ? &s.ground : NULL, a.fps);
    s.second_run = a.has_ground && foot_skate_has_job(&s.skate);
    if (!s.skate_ready || tdn_graph_instance_create(g, &s.instance, NULL, NULL) != TDN_OK ||
        tdn_pose_create(joints, &s.pose, NULL, NULL) != TDN_OK) {
        fprintf(stderr, "tendon run: out of memory\n");
        release(&s);
        return CLI_FAILURE;
    }
    if (a.params) {
        code = timeline_load(a.params, g, &s.tl, why, sizeof why);
        if (code != CLI_OK) {
            cli_say("run", why);
            release(&s);
            return code;
        }
    } else if (!(s.tl = timeline_empty(g))) {
        fprintf(stderr, "tendon run: out of memory\n");
        release(&s);
        return CLI_FAILURE;
    }
    int machines = 0;
    for (int n = 0; n < tdn_graph_node_count(g); n++)
        machines += tdn_graph_state_count(g, n) > 0;
    if (machines && !pop_recorder_create(g, joints, a.fps, &s.pop)) {
        fprintf(stderr, "tendon run: out of memory\n");
        release(&s);
        return CLI_FAILURE;
    }
    s.model = malloc(sizeof(tdn_mat4) * (size_t)(joints + 1));
    if (report && a.has_ground)
        s.ik_model = malloc(sizeof(tdn_mat4) * (size_t)(joints + 1));
    if (!s.model || (report && a.has_ground && !s.ik_model)) {
        fprintf(stderr, "tendon run: out of memory\n");
        release(&s);
        return CLI_FAILURE;
    }
    if ((a.render.path || a.render2.path) && !prepare_preview(&s, frame_count)) {
        fprintf(stderr, "tendon run: out of memory for %d frames to render\n", frame_count);
        release(&s);
        return CLI_FAILURE;
    }
    s.preview.ground = a.has_ground ? &s.ground : NULL;
    const int wants_mesh = (a.render.path && a.render.style != PREVIEW_STYLE_CAPSULES) ||
                           (a.render2.path && a.render2.style != PREVIEW_STYLE_CAPSULES);
    if (wants_mesh && !preview_clip_add_mesh(&s.preview, tdn_graph_document_asset(s.doc))) {
        fprintf(stderr, "tendon run: out of memory for the skinned mesh to render\n");
        release(&s);
        return CLI_FAILURE;
    }
    if (a.render.path && a.render.style == PREVIEW_STYLE_MESH && s.preview.mesh.triangle_count == 0) {
        fprintf(stderr, "tendon run: --render-style mesh: %s: the character has no skinned mesh with triangles "
                        "(use --render-style capsules)\n", a.graph);
        release(&s);
        return CLI_BAD_INPUT;
    }
    if (a.out) {
        const int baked = baked_frames_alloc(&s.baked, frame_count, s.pose.joint_count);
        s.positions = calloc((size_t)frame_count, sizeof *s.positions);
        s.facings = calloc((size_t)frame_count, sizeof *s.facings);
        if (!baked || !s.positions || !s.facings) {
            fprintf(stderr, "tendon run: out of memory for %d baked frames\n", frame_count);
            release(&s);
            return CLI_FAILURE;
        }
    }
    trace_run run = { a.graph, a.params, s.doc, a.fps, (double)steps / a.fps, frame_count, a.rotations };
    if (a.trace) {
        code = trace_open(&s.trace, a.trace, &run);
        if (code != CLI_OK) {
            release(&s);
            return code;
        }
        s.trace_open = 1;
    }
    tdn_vec3 position = { 0.0f, 0.0f, 0.0f };
    tdn_quat facing = tdn_quat_identity();
    int any_motion = 0;
    code = run_frames(&a, &s, s.instance, s.tl, frame_count, &run, &position, &facing, &any_motion);
    if (code == CLI_OK && s.pop) {
        int mirror_ok = 0;
        int *mirror = malloc(sizeof(int) * (size_t)(joints + 1));
        const tdn_clip **clips = malloc(sizeof(tdn_clip *) * (size_t)(tdn_graph_document_clip_count(s.doc) + 1));
        if (mirror)
            mirror_ok = tdn_mirror_table_from_names(skel, mirror, NULL) == TDN_OK;
        for (int c = 0; clips && c < tdn_graph_document_clip_count(s.doc); c++)
            clips[c] = tdn_graph_document_clip(s.doc, c);
        pop_transition *t = NULL;
        int count = pop_recorder_transitions(s.pop, (const pop_transition **)&t);
        for (int k = 0; k < count; k++) {
            const char *mode;
            double seconds;
            int frames;
            declared(s.extras.json, g, t[k].machine, t[k].index, a.fps, &mode, &seconds, &frames);
            pop_recorder_declare(s.pop, k, seconds, frames, mode);
        }
        if (!clips || !pop_recorder_finish(s.pop, clips, tdn_graph_document_clip_count(s.doc), mirror_ok ? mirror : NULL,
                                           s.extras.extract ? &s.extras.root_motion : NULL, a.fps)) {
            fprintf(stderr, "tendon run: out of memory computing the pop metric\n");
            code = CLI_FAILURE;
        }
        free(mirror);
        free(clips);
    }
    if (code == CLI_OK && s.second_run)
        code = run_unlocked(&a, &s, frame_count);
    if (code == CLI_OK && a.trace) {
        const pop_transition *t = NULL;
        int count = s.pop ? pop_recorder_transitions(s.pop, &t) : 0;
        s.trace_open = 0;
        trace_skate skate = { &s.skate, s.second_run, a.has_ground ? a.ground.spec : NULL };
        code = trace_finish(&s.trace, &run, t, count, &skate);
        if (code != CLI_OK)
            fprintf(stderr, "tendon run: %s: writing the trace failed\n", a.trace);
    }
    if (code != CLI_OK && a.trace) {
        if (s.trace_open && s.trace.file)
            fclose(s.trace.file);
        s.trace_open = 0;
        remove(a.trace); /* no half-written trace */
    }
    const int apply_root = s.extras.extract;
    if (code == CLI_OK && a.out)
        code = bake(&a, &s, frame_count, apply_root);
    double render_ms = 0.0;
    int rendered = 0;
    if (code == CLI_OK && a.render.path) {
        code = preview_write(&s.preview, &a.render, why, sizeof why, &render_ms, &rendered);
        if (code != CLI_OK)
            cli_say("run", why);
        s.rep.render_ms[0] = render_ms;
    }
    if (code == CLI_OK && a.render2.path) {
        int drawn = 0;
        code = preview_write(&s.preview, &a.render2, why, sizeof why, &s.rep.render_ms[1], &drawn);
        if (code != CLI_OK)
            cli_say("run", why);
    }
    if (code == CLI_OK && !a.quiet)
        summary(&a, &s, frame_count, any_motion, apply_root, &position, facing);
    if (code == CLI_OK && a.render.path && !a.quiet)
        printf("rendered: %s (%d frames drawn, %.3g ms per frame)\n", a.render.path, rendered, render_ms);
    if (report) {
        s.rep.frames = frame_count;
        s.rep.ik_error_mean = s.rep.ik_samples ? s.ik_error_sum / s.rep.ik_samples : 0.0;
        *report = s.rep;
    }
    release(&s);
    return code;
}
