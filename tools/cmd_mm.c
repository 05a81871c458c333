/* tendon mm: motion matching from the command line. `tendon mm build` makes a database file from
 * clips; `tendon mm run` (cmd_mm_run.c) drives a controller over it along a scripted path. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibration_pose.h"
#include "commands.h"
#include "feet_by_name.h"
#include "mm_source.h"
#include "progress.h"
#include "tendon/io/mm_database_file.h"

static void usage(FILE *out)
{
    fputs("usage: tendon mm build OUT.tdnmm FILE... [options]   build a motion-matching database\n"
          "       tendon mm run DB.tdnmm FILE... --path PATH.json [options]   drive a character along a path\n"
          "(tendon mm build --help, tendon mm run --help for their options)\n",
          out);
}

int cmd_mm(int argc, char **argv)
{
    if (argc < 1) {
        usage(stderr);
        return CLI_BAD_INPUT;
    }
    if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0 || strcmp(argv[0], "help") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[0], "build") == 0)
        return cmd_mm_build(argc - 1, argv + 1);
    if (strcmp(argv[0], "run") == 0)
        return cmd_mm_run(argc - 1, argv + 1);
    fprintf(stderr, "tendon mm: unknown subcommand '%s'\n", argv[0]);
    usage(stderr);
    return CLI_BAD_INPUT;
}

/* ---- tendon mm build ---- */

static void build_usage(FILE *out)
{
    fputs("usage: tendon mm build OUT.tdnmm FILE... [--scale S] [--mirror] [--rate HZ] [--root JOINT]\n"
          "                       [--feet LEFT,RIGHT] [--forward auto|+x|-x|+y|-y|+z|-z] [--offsets 20,40,60]\n"
          "                       [--weights W1,W2,W3,W4,W5] [--exclude CLIP:START-END]... [--keep-calibration]\n"
          "                       [--smoothing SECONDS] [--json] [--allow-files DIR]...\n"
          "Builds a motion-matching database (include/tendon/mm_database.h) from every clip of every FILE\n"
          "(BVH, glTF or runtime packs; all of one rig: the same joint count and parents) and writes it to\n"
          "OUT.tdnmm, the file `tendon mm run` and tdn_mm_database_load load.\n"
          "  --scale S         multiply every length by S (0.01 for BVH in centimetres: the database is in metres)\n"
          "  --skin NAME|INDEX the glTF skin (default: the first)\n"
          "  --allow-files DIR as for tendon info: a glTF's external buffers may also be below DIR (repeatable)\n"
          "  --mirror          also every clip mirrored left to right (joints paired by name: _l/_r, Left/Right...)\n"
          "  --rate HZ         database frames per second (default 60)\n"
          "  --root JOINT      the root joint, a name or index (a joint without a parent, such as the hips;\n"
          "                    default: joint 0)\n"
          "  --feet LEFT,RIGHT the foot joints, names or indices (default: found by name, an ankle before a\n"
          "                    foot: LeftAnkle, L_Ankle, LeftFoot, foot_l, l_foot, mixamorig:LeftFoot, ...)\n"
          "  --forward AXIS    the root joint's local axis that points where the character faces; auto (default):\n"
          "                    the axis whose direction on the ground best agrees with the root's horizontal\n"
          "                    velocity over all clips, weighted by speed\n"
          "  --offsets LIST    trajectory offsets in database frames, increasing, at most 8 (default 20,40,60)\n"
          "  --weights LIST    weights of the 5 feature groups: trajectory position, trajectory facing, foot\n"
          "                    positions, foot velocities, hip velocity, each above 0 (default 2,2,1,1,1)\n"
          "  --exclude CLIP:START-END  never match these seconds of a clip (name or index; repeatable)\n"
          "  --keep-calibration  keep the calibration T-poses searchable: by default a T-pose held, standing\n"
          "                    still, at a take's start or end (arms out level and spread, as LAFAN1's takes\n"
          "                    begin and end) is excluded with the arms going up to it or down from it, and the\n"
          "                    summary says what was excluded (docs/cli.md)\n"
          "  --smoothing S     sigma in seconds of the Gaussian smoothing the simulation root (default 0.1; 0: none)\n"
          "  --json            the summary as one JSON object\n"
          "Prints a summary: files, clips, frames (searchable: not within the longest offset of a clip's end,\n"
          "not excluded), feature dimensions, bytes, the time taken and the forward axis. A progress bar goes\n"
          "to stderr when it is a terminal.\n"
          "Exit codes: 0 success, 2 bad input (arguments, unreadable files, files of different rigs, feet not\n"
          "found, clips too short), 1 any other failure.\n",
          out);
}

typedef struct build_args {
    const char *out;
    char **files;
    int file_count;
    cli_common common;
    int mirror;
    float rate, smoothing;
    int has_smoothing;
    const char *root, *feet, *forward;
    int offsets[TDN_MM_MAX_OFFSETS], offset_count;
    float weights[TDN_MM_GROUP_COUNT];
    int has_weights;
    const char **excludes;
    int exclude_count;
    int keep_calibration;
} build_args;

/* A comma-separated list of at most max numbers into out; the count, or -1 when malformed. */
static int parse_list(const char *text, float *out, int max)
{
    int n = 0;
    const char *p = text;
    for (;;) {
        char *end;
        float v = strtof(p, &end);
        if (end == p || !isfinite(v) || n == max)
            return -1;
        out[n++] = v;
        if (*end == '\0')
            return n;
        if (*end != ',')
            return -1;
        p = end + 1;
    }
}

static int build_parse(int argc, char **argv, build_args *a)
{
    a->files = calloc((size_t)argc + 1, sizeof *a->files);
    a->excludes = calloc((size_t)argc + 1, sizeof *a->excludes);
    if (!a->files || !a->excludes) {
        fprintf(stderr, "tendon mm build: out of memory\n");
        return CLI_FAILURE;
    }
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            build_usage(stdout);
            return -1;
        }
        int c = cli_common_option("mm build", argc, argv, &i, &a->common);
        if (c < 0)
            return CLI_BAD_INPUT;
        if (c > 0)
            continue;
        int wants_value = strcmp(arg, "--rate") == 0 || strcmp(arg, "--root") == 0 || strcmp(arg, "--feet") == 0 ||
                          strcmp(arg, "--forward") == 0 || strcmp(arg, "--offsets") == 0 ||
                          strcmp(arg, "--weights") == 0 || strcmp(arg, "--exclude") == 0 ||
                          strcmp(arg, "--smoothing") == 0;
        if (wants_value && i + 1 >= argc) {
            fprintf(stderr, "tendon mm build: %s needs a value\n", arg);
            return CLI_BAD_INPUT;
        }
        if (strcmp(arg, "--mirror") == 0) {
            a->mirror = 1;
        } else if (strcmp(arg, "--keep-calibration") == 0) {
            a->keep_calibration = 1;
        } else if (strcmp(arg, "--rate") == 0) {
            if (!cli_parse_float("mm build", "--rate", argv[++i], &a->rate))
                return CLI_BAD_INPUT;
            if (!(a->rate > 0.0f) || a->rate > 1000.0f) {
                fprintf(stderr, "tendon mm build: --rate wants a number above 0 and at most 1000, not '%s'\n", argv[i]);
                return CLI_BAD_INPUT;
            }
        } else if (strcmp(arg, "--smoothing") == 0) {
            if (!cli_parse_float("mm build", "--smoothing", argv[++i], &a->smoothing))
                return CLI_BAD_INPUT;
            if (a->smoothing < 0.0f || a->smoothing > 10.0f) {
                fprintf(stderr, "tendon mm build: --smoothing wants seconds from 0 to 10, not '%s'\n", argv[i]);
                return CLI_BAD_INPUT;
            }
            a->has_smoothing = 1;
        } else if (strcmp(arg, "--root") == 0) {
            a->root = argv[++i];
        } else if (strcmp(arg, "--feet") == 0) {
            a->feet = argv[++i];
        } else if (strcmp(arg, "--forward") == 0) {
            a->forward = argv[++i];
            static const char *const axes[] = { "auto", "+x", "-x", "+y", "-y", "+z", "-z", "x", "y", "z" };
            int ok = 0;
            for (int k = 0; k < 10; k++)
                ok |= strcmp(a->forward, axes[k]) == 0;
            if (!ok) {
                fprintf(stderr, "tendon mm build: --forward wants auto, +x, -x, +y, -y, +z or -z, not '%s'\n",
                        a->forward);
                return CLI_BAD_INPUT;
            }
        } else if (strcmp(arg, "--offsets") == 0) {
            float v[TDN_MM_MAX_OFFSETS];
            int n = parse_list(argv[++i], v, TDN_MM_MAX_OFFSETS);
            for (int k = 0; k < n; k++)
                if (v[k] != floorf(v[k]) || v[k] < 1.0f || v[k] > 100000.0f || (k > 0 && v[k] <= v[k - 1]))
                    n = -1;
            if (n < 1) {
                fprintf(stderr,
                        "tendon mm build: --offsets wants 1 to %d whole numbers of frames, positive and increasing, "
                        "separated by commas (20,40,60), not '%s'\n",
                        TDN_MM_MAX_OFFSETS, argv[i]);
                return CLI_BAD_INPUT;
            }
            for (int k = 0; k < n; k++)
                a->offsets[k] = (int)v[k];
            a->offset_count = n;
        } else if (strcmp(arg, "--weights") == 0) {
            int n = parse_list(argv[++i], a->weights, TDN_MM_GROUP_COUNT);
            for (int k = 0; k < n; k++)
                if (!(a->weights[k] > 0.0f))
                    n = -1;
            if (n != TDN_MM_GROUP_COUNT) {
                fprintf(stderr,
                        "tendon mm build: --weights wants %d numbers above 0, separated by commas (trajectory "
                        "position, trajectory facing, foot positions, foot velocities, hip velocity), not '%s'\n",
                        TDN_MM_GROUP_COUNT, argv[i]);
                return CLI_BAD_INPUT;
            }
            a->has_weights = 1;
        } else if (strcmp(arg, "--exclude") == 0) {
            a->excludes[a->exclude_count++] = argv[++i];
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "tendon mm build: unexpected argument '%s'\n", arg);
            build_usage(stderr);
            return CLI_BAD_INPUT;
        } else if (!a->out) {
            a->out = arg;
        } else {
            a->files[a->file_count++] = argv[i];
        }
    }
    if (!a->out || a->file_count == 0) {
        fprintf(stderr, "tendon mm build: %s\n",
                !a->out ? "an OUT.tdnmm file and clips are required"
                        : "at least one FILE of clips is required after OUT.tdnmm");
        build_usage(stderr);
        return CLI_BAD_INPUT;
    }
    static const char *const inputs[] = { ".bvh", ".gltf", ".glb", ".json" };
    for (int k = 0; k < 4; k++)
        if (cli_ends_with(a->out, inputs[k], 1)) {
            fprintf(stderr,
                    "tendon mm build: '%s' would be overwritten: the output (OUT.tdnmm) comes first, then the FILEs\n",
                    a->out);
            return CLI_BAD_INPUT;
        }
    return 0;
}

/* --exclude CLIP:START-END against the clips: CLIP is a clip's name (which must be unique) or its
 * index. Returns an exit code. */
static int parse_exclude(const char *text, const mm_source *src, tdn_mm_range *out)
{
    const char *colon = strrchr(text, ':');
    char clip[256];
    float start = 0.0f, end = 0.0f;
    int ok = colon && (size_t)(colon - text) < sizeof clip && colon > text;
    if (ok) {
        memcpy(clip, text, (size_t)(colon - text));
        clip[colon - text] = '\0';
        char *p;
        start = strtof(colon + 1, &p);
        ok = p != colon + 1 && *p == '-' && isfinite(start) && start >= 0.0f;
        if (ok) {
            const char *q = p + 1;
            end = strtof(q, &p);
            ok = p != q && *p == '\0' && isfinite(end) && end >= start;
        }
    }
    if (!ok) {
        fprintf(stderr,
                "tendon mm build: --exclude wants CLIP:START-END (a clip's name or index, seconds from START to "
                "END >= START), not '%s'\n",
                text);
        return CLI_BAD_INPUT;
    }
    int found = -1, matches = 0;
    for (int c = 0; c < src->clip_count; c++)
        if (strcmp(tdn_keyed_clip_name(src->clips[c]), clip) == 0) {
            found = found < 0 ? c : found;
            matches++;
        }
    if (matches > 1) {
        fprintf(stderr, "tendon mm build: --exclude '%s': %d clips are named \"%s\": give its index (0..%d)\n", text,
                matches, clip, src->clip_count - 1);
        return CLI_BAD_INPUT;
    }
    if (found < 0) {
        char *p;
        long i = strtol(clip, &p, 10);
        if (p != clip && *p == '\0' && i >= 0 && i < src->clip_count)
            found = (int)i;
    }
    if (found < 0) {
        const char **names = malloc(sizeof(char *) * (size_t)(src->clip_count + 1));
        const char *near = NULL;
        if (names) {
            for (int c = 0; c < src->clip_count; c++)
                names[c] = tdn_keyed_clip_name(src->clips[c]);
            near = tdn_nearest_name(clip, names, src->clip_count);
        }
        fprintf(stderr, "tendon mm build: --exclude '%s': no clip named \"%s\"%s%s%s (the clips: ", text, clip,
                near ? "; did you mean \"" : "", near ? near : "", near ? "\"?" : "");
        char name[CLI_TEXT_SIZE];
        for (int c = 0; c < src->clip_count && c < 12; c++)
            fprintf(stderr, "%s%d \"%s\"", c ? ", " : "", c,
                    cli_text(tdn_keyed_clip_name(src->clips[c]), name, sizeof name));
        fprintf(stderr, "%s)\n", src->clip_count > 12 ? ", ..." : "");
        free(names);
        return CLI_BAD_INPUT;
    }
    *out = (tdn_mm_range){ found, start, end };
    return CLI_OK;
}

static const char *const AXIS_NAMES[6] = { "+x", "-x", "+y", "-y", "+z", "-z" };

static tdn_vec3 axis_vector(int k)
{
    float s = (k & 1) ? -1.0f : 1.0f;
    return tdn_vec3_make(k / 2 == 0 ? s : 0.0f, k / 2 == 1 ? s : 0.0f, k / 2 == 2 ? s : 0.0f);
}

/* --forward auto: per local axis of the root, the speed-weighted mean cosine between its
 * direction on the ground and the root's horizontal velocity, over every clip (and its mirror
 * image with --mirror) sampled at the rate. Returns the best axis (0..5), -1 when the root
 * never moves, -2 when out of memory. */
static int auto_forward(const mm_source *src, int root, int mirror, float rate, double agreement[6])
{
    const tdn_skeleton *skel = src->skeleton;
    tdn_pose pose;
    if (tdn_pose_create(tdn_skeleton_joint_count(skel), &pose, NULL, NULL) != TDN_OK)
        return -2;
    double score[6] = { 0 }, total = 0.0;
    for (int run = 0; run < (mirror ? 2 : 1); run++)
        for (int c = 0; c < src->clip_count; c++) {
            const tdn_keyed_clip *clip = src->clips[c];
            const int frames = mm_clip_frames(clip, rate);
            const float duration = tdn_keyed_clip_duration(clip);
            tdn_transform prev = { 0 };
            tdn_vec3 prev_axes[6];
            for (int f = 0; f < frames; f++) {
                const float t = (float)f / rate;
                tdn_keyed_clip_sample(clip, t < duration ? t : duration, &pose, NULL, NULL);
                if (run)
                    tdn_pose_mirror(&pose, src->mirror, &pose, NULL);
                tdn_transform x = tdn_pose_get(&pose, root);
                tdn_vec3 axes[6];
                for (int k = 0; k < 6; k++) {
                    tdn_vec3 a = tdn_quat_rotate(x.r, axis_vector(k));
                    float len = sqrtf(a.x * a.x + a.z * a.z);
                    axes[k] = len > 1e-3f ? tdn_vec3_make(a.x / len, 0.0f, a.z / len) : tdn_vec3_make(0, 0, 0);
                }
                if (f > 0) {
                    /* the velocity between two frames against the axes midway (their mean direction) */
                    const double vx = ((double)x.t.x - prev.t.x) * rate, vz = ((double)x.t.z - prev.t.z) * rate;
                    total += sqrt(vx * vx + vz * vz);
                    for (int k = 0; k < 6; k++) {
                        double ax = (double)axes[k].x + prev_axes[k].x, az = (double)axes[k].z + prev_axes[k].z;
                        double len = sqrt(ax * ax + az * az);
                        if (len > 1e-6)
                            score[k] += (ax * vx + az * vz) / len;
                    }
                }
                prev = x;
                memcpy(prev_axes, axes, sizeof axes);
            }
        }
    tdn_pose_destroy(&pose);
    int best = -1;
    for (int k = 0; k < 6; k++) {
        agreement[k] = total > 0.0 ? score[k] / total : 0.0;
        if (total > 0.0 && (best < 0 || agreement[k] > agreement[best]))
            best = k;
    }
    return best;
}

/* Excluded ranges as JSON: [{"clip", "name", "start", "end"}, ...]. */
static cJSON *ranges_json(const tdn_mm_range *ranges, int count, const mm_source *src)
{
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; i < count; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "clip", ranges[i].clip);
        cJSON_AddStringToObject(e, "name", tdn_keyed_clip_name(src->clips[ranges[i].clip]));
        cJSON_AddItemToObject(e, "start", cli_json_float(ranges[i].start));
        cJSON_AddItemToObject(e, "end", cli_json_float(ranges[i].end));
        cJSON_AddItemToArray(list, e);
    }
    return list;
}

/* The library's build progress (a fraction) onto the bar. */
static void build_progress(void *user, float fraction)
{
    progress_update(user, (long)(fraction * 1000.0f + 0.5f), 1000);
}

static void print_list_int(const int *v, int n)
{
    for (int i = 0; i < n; i++)
        printf("%s%d", i ? "," : "", v[i]);
}

/* What a build makes beside the library's description: the clips, the excluded ranges
 * (--exclude's, then the calibration poses found), the forward axis, the database and the
 * times taken. */
typedef struct build_state {
    mm_source src;
    int src_loaded;
    tdn_mm_range *ranges;
    int calibration_count; /* ranges after the --exclude ones */
    int has_arms;          /* hands found by name: calibration poses looked for */
    int axis, automatic;   /* 0..5 (AXIS_NAMES); automatic: --forward auto */
    double agreement[6];   /* automatic: each axis's agreement with the root's velocity */
    tdn_mm_database *db;
    double load_ms, build_ms, write_ms;
} build_state;

/* --root and --feet (or the feet found by name) into desc, and --mirror's warnings. An exit
 * code, having said why. */
static int choose_joints(const build_args *a, const mm_source *src, tdn_mm_database_desc *desc)
{
    const tdn_skeleton *skel = src->skeleton;
    desc->root = a->root ? mm_find_joint(skel, a->root) : 0;
    if (desc->root < 0) {
        fprintf(stderr, "tendon mm build: --root '%s': no such joint in %s\n", a->root, a->files[0]);
        return CLI_BAD_INPUT;
    }
    if (tdn_skeleton_parent(skel, desc->root) >= 0) {
        fprintf(stderr,
                "tendon mm build: --root '%s': joint %d (%s) has a parent: the root must be a root of the skeleton\n",
                a->root ? a->root : "0", desc->root, tdn_skeleton_joint_name(skel, desc->root));
        return CLI_BAD_INPUT;
    }
    if (a->feet) {
        const char *comma = strchr(a->feet, ',');
        char left[256];
        if (!comma || (size_t)(comma - a->feet) >= sizeof left || strchr(comma + 1, ',')) {
            fprintf(stderr, "tendon mm build: --feet wants LEFT,RIGHT (two joint names or indices), not '%s'\n",
                    a->feet);
            return CLI_BAD_INPUT;
        }
        memcpy(left, a->feet, (size_t)(comma - a->feet));
        left[comma - a->feet] = '\0';
        desc->left_foot = mm_find_joint(skel, left);
        desc->right_foot = mm_find_joint(skel, comma + 1);
        if (desc->left_foot < 0 || desc->right_foot < 0) {
            fprintf(stderr, "tendon mm build: --feet '%s': no joint '%s' in %s\n", a->feet,
                    desc->left_foot < 0 ? left : comma + 1, a->files[0]);
            return CLI_BAD_INPUT;
        }
    } else if (!feet_by_name(skel, &desc->left_foot, &desc->right_foot)) {
        fprintf(stderr,
                "tendon mm build: %s: no %s foot joint found by name (LeftAnkle, LeftFoot, foot_l, l_foot, ...): "
                "name them with --feet LEFT,RIGHT\n",
                a->files[0], desc->left_foot < 0 ? "left" : "right");
        return CLI_BAD_INPUT;
    }
    if (a->mirror) {
        desc->mirror_table = src->mirror;
        if (src->mirror_pairs == 0)
            fprintf(stderr, "tendon mm build: warning: --mirror: no joint has a left/right partner by name, so the "
                            "mirrored clips keep each limb on its side, reflected\n");
        else if (src->mirror[desc->left_foot] != desc->right_foot) {
            char left[CLI_TEXT_SIZE], right[CLI_TEXT_SIZE];
            fprintf(stderr, "tendon mm build: warning: --mirror: the feet %s and %s are not partners by name\n",
                    cli_text(tdn_skeleton_joint_name(skel, desc->left_foot), left, sizeof left),
                    cli_text(tdn_skeleton_joint_name(skel, desc->right_foot), right, sizeof right));
        }
    }
    return CLI_OK;
}

/* The excluded ranges into desc: --exclude's, then (unless --keep-calibration) the calibration
 * poses found at the clips' starts and ends. An exit code, having said why. */
static int exclude_ranges(const build_args *a, build_state *b, float rate, tdn_mm_database_desc *desc)
{
    const mm_source *src = &b->src;
    b->ranges = calloc((size_t)(a->exclude_count + 2 * src->clip_count + 1), sizeof *b->ranges);
    if (!b->ranges) {
        fprintf(stderr, "tendon mm build: out of memory\n");
        return CLI_FAILURE;
    }
    int code;
    for (int i = 0; i < a->exclude_count; i++)
        if ((code = parse_exclude(a->excludes[i], src, &b->ranges[i])) != CLI_OK)
            return code;
    calibration_arms arms;
    b->has_arms = calibration_arms_find(src->skeleton, &arms);
    for (int c = 0; b->has_arms && !a->keep_calibration && c < src->clip_count; c++) {
        tdn_mm_range *found = b->ranges + a->exclude_count + b->calibration_count;
        const int n = calibration_poses(src->clips[c], c, &arms, desc->root, rate, found);
        if (n < 0) {
            fprintf(stderr, "tendon mm build: out of memory\n");
            return CLI_FAILURE;
        }
        b->calibration_count += n;
    }
    desc->excluded = b->ranges;
    desc->excluded_count = a->exclude_count + b->calibration_count;
    return CLI_OK;
}

/* The forward axis into desc: --forward's, or the one --forward auto finds. An exit code,
 * having said why. */
static int choose_forward(const build_args *a, build_state *b, float rate, tdn_mm_database_desc *desc)
{
    b->automatic = !a->forward || strcmp(a->forward, "auto") == 0;
    if (b->automatic) {
        b->axis = auto_forward(&b->src, desc->root, a->mirror, rate, b->agreement);
        if (b->axis == -2) {
            fprintf(stderr, "tendon mm build: out of memory\n");
            return CLI_FAILURE;
        }
        if (b->axis < 0) {
            fprintf(stderr,
                    "tendon mm build: --forward auto: the root (%s) never moves on the ground; give the axis "
                    "with --forward\n",
                    tdn_skeleton_joint_name(b->src.skeleton, desc->root));
            return CLI_BAD_INPUT;
        }
    } else {
        const char *f = a->forward[0] == '+' || a->forward[0] == '-' ? a->forward + 1 : a->forward;
        b->axis = 2 * (f[0] - 'x') + (a->forward[0] == '-');
    }
    desc->forward = axis_vector(b->axis);
    return CLI_OK;
}

/* The database made (with a progress bar) and written to a->out, each timed. An exit code. */
static int create_and_save(const build_args *a, build_state *b, tdn_mm_database_desc *desc)
{
    progress_bar bar;
    progress_begin(&bar, "tendon mm build:", -1);
    desc->progress = build_progress;
    desc->progress_user = &bar;
    tdn_error err = { 0 };
    const double t1 = cli_now_ms();
    tdn_result r = tdn_mm_database_create(desc, &b->db, NULL, &err);
    b->build_ms = cli_now_ms() - t1;
    progress_end(&bar);
    if (r != TDN_OK)
        return cli_report("mm build", r, &err);
    const double t2 = cli_now_ms();
    r = tdn_mm_database_save(b->db, a->out, &err);
    b->write_ms = cli_now_ms() - t2;
    return r == TDN_OK ? CLI_OK : cli_report("mm build", r, &err);
}

/* What the summary reports of the database made. */
typedef struct build_summary {
    int frames, searchable, dims;
    size_t bytes;
    int offsets[TDN_MM_MAX_OFFSETS], offset_count;
    float weights[TDN_MM_GROUP_COUNT];
    float smoothing;
    const char *root, *left, *right;
} build_summary;

static build_summary summarize(const build_args *a, const build_state *b, const tdn_mm_database_desc *desc)
{
    build_summary m;
    m.frames = tdn_mm_database_frame_count(b->db);
    m.dims = tdn_mm_database_dimensions(b->db);
    m.searchable = 0;
    for (int i = 0; i < m.frames; i++) {
        tdn_mm_frame f;
        tdn_mm_database_frame(b->db, i, &f, NULL);
        m.searchable += f.searchable;
    }
    m.bytes = tdn_mm_database_save_size(b->db);
    m.offset_count = tdn_mm_database_offset_count(b->db);
    for (int k = 0; k < m.offset_count; k++)
        m.offsets[k] = tdn_mm_database_offset(b->db, k);
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++)
        m.weights[g] = tdn_mm_database_weight(b->db, (tdn_mm_group)g);
    m.smoothing = !a->has_smoothing ? TDN_MM_DEFAULT_SMOOTHING : a->smoothing;
    m.root = tdn_skeleton_joint_name(b->src.skeleton, desc->root);
    m.left = tdn_skeleton_joint_name(b->src.skeleton, desc->left_foot);
    m.right = tdn_skeleton_joint_name(b->src.skeleton, desc->right_foot);
    return m;
}

/* --json: the summary as one JSON object on stdout. An exit code. */
static int print_summary_json(const build_args *a, const build_state *b, const build_summary *m)
{
    const mm_source *src = &b->src;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "output", a->out);
    cJSON_AddNumberToObject(doc, "files", a->file_count);
    cJSON_AddNumberToObject(doc, "clips", src->clip_count);
    cJSON *list = cJSON_AddArrayToObject(doc, "sources");
    for (int c = 0; c < src->clip_count; c++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "clip", c);
        cJSON_AddStringToObject(o, "name", tdn_keyed_clip_name(src->clips[c]));
        cJSON_AddStringToObject(o, "file", a->files[src->clip_file[c]]);
        cJSON_AddItemToObject(o, "duration", cli_json_float(tdn_keyed_clip_duration(src->clips[c])));
        cJSON_AddNumberToObject(o, "frames", tdn_mm_database_clip_frame_count(b->db, c, 0));
        cJSON_AddItemToArray(list, o);
    }
    cJSON_AddBoolToObject(doc, "mirror", a->mirror);
    cJSON_AddItemToObject(doc, "rate", cli_json_float(tdn_mm_database_sample_rate(b->db)));
    cJSON_AddNumberToObject(doc, "frames", m->frames);
    cJSON_AddNumberToObject(doc, "searchable", m->searchable);
    cJSON_AddNumberToObject(doc, "dims", m->dims);
    cJSON_AddNumberToObject(doc, "bytes", (double)m->bytes);
    cJSON_AddNumberToObject(doc, "load_ms", round(b->load_ms * 10.0) / 10.0);
    cJSON_AddNumberToObject(doc, "build_ms", round(b->build_ms * 10.0) / 10.0);
    cJSON_AddNumberToObject(doc, "write_ms", round(b->write_ms * 10.0) / 10.0);
    cJSON_AddStringToObject(doc, "root", m->root);
    cJSON *feet = cJSON_AddArrayToObject(doc, "feet");
    cJSON_AddItemToArray(feet, cJSON_CreateString(m->left));
    cJSON_AddItemToArray(feet, cJSON_CreateString(m->right));
    cJSON_AddStringToObject(doc, "forward", AXIS_NAMES[b->axis]);
    if (b->automatic) {
        cJSON *agree = cJSON_AddObjectToObject(doc, "forward_agreement");
        for (int k = 0; k < 6; k++)
            cJSON_AddNumberToObject(agree, AXIS_NAMES[k], round(b->agreement[k] * 1e4) / 1e4);
    } else {
        cJSON_AddNullToObject(doc, "forward_agreement");
    }
    cJSON *o = cJSON_AddArrayToObject(doc, "offsets");
    for (int k = 0; k < m->offset_count; k++)
        cJSON_AddItemToArray(o, cJSON_CreateNumber(m->offsets[k]));
    cJSON_AddItemToObject(doc, "weights", cli_json_floats(m->weights, TDN_MM_GROUP_COUNT));
    cJSON_AddItemToObject(doc, "smoothing", cli_json_float(m->smoothing));
    cJSON_AddItemToObject(doc, "excluded", ranges_json(b->ranges, a->exclude_count, src));
    cJSON *cal = cJSON_AddObjectToObject(doc, "calibration");
    cJSON_AddStringToObject(cal, "poses", a->keep_calibration ? "kept" : b->has_arms ? "excluded" : "no hands");
    cJSON_AddItemToObject(cal, "excluded", ranges_json(b->ranges + a->exclude_count, b->calibration_count, src));
    return cli_json_print(doc);
}

/* The summary in words on stdout. */
static void print_summary_text(const build_args *a, const build_state *b, const build_summary *m)
{
    const mm_source *src = &b->src;
    const tdn_mm_range *calibration = b->ranges + a->exclude_count;
    printf("%s: %d frames (%d searchable), %d dims, %zu bytes\n", a->out, m->frames, m->searchable, m->dims, m->bytes);
    printf("  %d file%s, %d clip%s%s at %.6g Hz:\n", a->file_count, a->file_count == 1 ? "" : "s", src->clip_count,
           src->clip_count == 1 ? "" : "s", a->mirror ? " and their mirror images" : "",
           (double)tdn_mm_database_sample_rate(b->db));
    char name[CLI_TEXT_SIZE], left[CLI_TEXT_SIZE], right[CLI_TEXT_SIZE];
    for (int c = 0; c < src->clip_count && c < 20; c++)
        printf("    %d %s: %.4g s, %d frames (%s)\n", c,
               cli_text(tdn_keyed_clip_name(src->clips[c]), name, sizeof name),
               (double)tdn_keyed_clip_duration(src->clips[c]), tdn_mm_database_clip_frame_count(b->db, c, 0),
               a->files[src->clip_file[c]]);
    if (src->clip_count > 20)
        printf("    ... %d more\n", src->clip_count - 20);
    printf("  root %s, feet %s and %s, forward %s", cli_text(m->root, name, sizeof name),
           cli_text(m->left, left, sizeof left), cli_text(m->right, right, sizeof right), AXIS_NAMES[b->axis]);
    if (b->automatic) {
        printf(" (auto: agreement with the root's velocity");
        for (int k = 0; k < 6; k++)
            printf(" %s %.2f", AXIS_NAMES[k], round(b->agreement[k] * 100.0) / 100.0 + 0.0); /* no -0.00 */
        printf(")");
    }
    printf("\n  offsets ");
    print_list_int(m->offsets, m->offset_count);
    printf(" frames, weights %g,%g,%g,%g,%g, smoothing %g s", (double)m->weights[0], (double)m->weights[1],
           (double)m->weights[2], (double)m->weights[3], (double)m->weights[4], (double)m->smoothing);
    if (a->exclude_count)
        printf(", %d excluded range%s", a->exclude_count, a->exclude_count == 1 ? "" : "s");
    printf("\n  calibration poses: ");
    if (a->keep_calibration)
        printf("kept (--keep-calibration)");
    else if (!b->has_arms)
        printf("not looked for: no hands found by name (LeftHand, hand_l, LeftWrist, ...)");
    else if (b->calibration_count == 0)
        printf("none (no T-pose held at a take's start or end)");
    else
        printf("excluded (--keep-calibration keeps them):");
    for (int i = 0; i < b->calibration_count; i++) {
        const int same = i && calibration[i].clip == calibration[i - 1].clip;
        printf("%s %s%s%.4g-%.4g s",
               same ? ","
               : i  ? ";"
                    : "",
               same ? "" : tdn_keyed_clip_name(src->clips[calibration[i].clip]), same ? "" : " ",
               (double)calibration[i].start, (double)calibration[i].end);
    }
    printf("\n  loaded in %.0f ms, built in %.0f ms, written in %.0f ms\n", b->load_ms, b->build_ms, b->write_ms);
}

/* The database's description from the options and the clips: all but the joints, the excluded
 * ranges and the forward axis. */
static tdn_mm_database_desc describe(const build_args *a, const mm_source *src)
{
    tdn_mm_database_desc desc = { 0 };
    desc.skeleton = src->skeleton;
    desc.clips = src->clips;
    desc.clip_count = src->clip_count;
    desc.sample_rate = a->rate;
    desc.smoothing = !a->has_smoothing ? 0.0f : a->smoothing > 0.0f ? a->smoothing : -1.0f;
    memcpy(desc.offsets, a->offsets, sizeof a->offsets);
    desc.offset_count = a->offset_count;
    if (a->has_weights)
        memcpy(desc.weights, a->weights, sizeof a->weights);
    return desc;
}

int cmd_mm_build(int argc, char **argv)
{
    build_args a = { 0 };
    build_state b = { 0 };
    int code = build_parse(argc, argv, &a);
    if (code == 0) {
        const double t0 = cli_now_ms();
        code = mm_source_load("mm build", a.files, a.file_count, &a.common, &b.src);
        b.src_loaded = code == CLI_OK;
        b.load_ms = cli_now_ms() - t0;
    }
    if (code == CLI_OK) {
        const float rate = a.rate > 0.0f ? a.rate : 60.0f;
        tdn_mm_database_desc desc = describe(&a, &b.src);
        if ((code = choose_joints(&a, &b.src, &desc)) == CLI_OK &&
            (code = exclude_ranges(&a, &b, rate, &desc)) == CLI_OK &&
            (code = choose_forward(&a, &b, rate, &desc)) == CLI_OK &&
            (code = create_and_save(&a, &b, &desc)) == CLI_OK) {
            const build_summary m = summarize(&a, &b, &desc);
            if (a.common.json)
                code = print_summary_json(&a, &b, &m);
            else
                print_summary_text(&a, &b, &m);
        }
    }
    tdn_mm_database_destroy(b.db);
    free(b.ranges);
    if (b.src_loaded)
        mm_source_free(&b.src);
    free(a.files);
    free(a.excludes);
    return code < 0 ? CLI_OK : code;
}
