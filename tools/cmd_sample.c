/* tendon sample: the pose of every listed joint of a clip at a time (docs/cli.md). */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_compress.h"
#include "commands.h"
#include "tendon/io/pack_file.h"

static void usage(FILE *out)
{
    fputs("usage: tendon sample FILE --time SECONDS [--clip NAME|INDEX] [--space local|model]\n"
          "                     [--runtime] [--compressed [--error CM] [--shell CM]] [--json]\n"
          "                     [--skin NAME|INDEX] [--scale S] [--allow-files DIR]...\n"
          "  --time SECONDS   when; times outside the clip clamp to its ends. glTF time counts\n"
          "                   from the animation's t = 0; BVH frame f is at f x Frame Time\n"
          "  --clip NAME|INDEX  which clip (default: the first; a file with no clip: the rest pose)\n"
          "  --space local    each joint relative to its parent (the default)\n"
          "  --space model    each joint in the file's world space (glTF: ancestor nodes of the\n"
          "                   skeleton included), with its 4x4 column-major matrix; under non-uniform\n"
          "                   scale with rotation the matrix is exact and r, s are a best fit\n"
          "  --runtime        sample the fast runtime clip built from the file's clip (resampled,\n"
          "                   16-bit) instead of the exact keyed clip; prints its measured error\n"
          "  --compressed     the same with the runtime clip compressed: variable bit rates chosen\n"
          "                   so that vertices --shell CM (default 3) from every joint move at most\n"
          "                   --error CM (default 0.01) in model space, lengths in metres after\n"
          "                   --scale; prints its size, its ratio to float32 frames of the source\n"
          "                   and its largest and 99th-percentile error, between frames included\n"
          "  --json           {\"clip\", \"time\", \"space\", \"joints\": [{\"name\", \"parent\", \"t\", \"r\",\n"
          "                   \"s\"[, \"matrix\"]}]}\n"
          "  --skin, --scale, --allow-files  as for tendon info\n"
          "FILE may be a pack (tendon pack): its clips are compressed runtime clips already and are\n"
          "sampled as they are, in the skeleton each animates (--runtime, --compressed, --error,\n"
          "--shell, --scale and --skin do not apply: a pack holds its files' lengths as scaled).\n",
          out);
}

typedef struct sample_args {
    cli_common common;
    const char *path, *clip;
    float time;
    int has_time, model_space, runtime, compressed;
    cli_compress compress; /* --error, --shell */
} sample_args;

/* 0 with the arguments in *a, or the exit code of a bad command line (-1 for --help). */
static int parse(int argc, char **argv, sample_args *a)
{
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return -1;
        }
        int taken = cli_common_option("sample", argc, argv, &i, &a->common);
        if (!taken)
            taken = cli_compress_option("sample", argc, argv, &i, &a->compress);
        if (taken < 0)
            return CLI_BAD_INPUT;
        if (taken)
            continue;
        int wants_value = strcmp(arg, "--time") == 0 || strcmp(arg, "--clip") == 0 || strcmp(arg, "--space") == 0;
        if (wants_value && i + 1 >= argc) {
            fprintf(stderr, "tendon sample: %s needs a value\n", arg);
            return CLI_BAD_INPUT;
        }
        if (strcmp(arg, "--time") == 0) {
            if (!cli_parse_float("sample", "--time", argv[++i], &a->time))
                return CLI_BAD_INPUT;
            a->has_time = 1;
        } else if (strcmp(arg, "--clip") == 0) {
            a->clip = argv[++i];
        } else if (strcmp(arg, "--space") == 0) {
            const char *space = argv[++i];
            if (strcmp(space, "local") != 0 && strcmp(space, "model") != 0) {
                fprintf(stderr, "tendon sample: --space is local or model, not '%s'\n", space);
                return CLI_BAD_INPUT;
            }
            a->model_space = strcmp(space, "model") == 0;
        } else if (strcmp(arg, "--runtime") == 0) {
            a->runtime = 1;
        } else if (strcmp(arg, "--compressed") == 0) {
            a->runtime = a->compressed = 1;
        } else if (arg[0] != '-' && !a->path) {
            a->path = arg;
        } else {
            fprintf(stderr, "tendon sample: unexpected argument '%s'\n", arg);
            usage(stderr);
            return CLI_BAD_INPUT;
        }
    }
    if ((a->compress.error_cm > 0.0f || a->compress.shell_cm > 0.0f) && !a->compressed) {
        fprintf(stderr, "tendon sample: --error and --shell are options of --compressed\n");
        return CLI_BAD_INPUT;
    }
    if (!a->path || !a->has_time) {
        fprintf(stderr, "tendon sample: %s\n", !a->path ? "a FILE is required" : "--time SECONDS is required");
        usage(stderr);
        return CLI_BAD_INPUT;
    }
    return 0;
}

/* The joints printed, in order: an asset's listing, or (asset NULL: a pack's) the skeleton's. */
typedef struct listing {
    const tdn_skeleton *skeleton;
    const tdn_asset *asset;
} listing;

static int listed_count(const listing *l)
{
    return l->asset ? tdn_asset_joint_count(l->asset) : tdn_skeleton_joint_count(l->skeleton);
}
static int listed_joint(const listing *l, int i) { return l->asset ? tdn_asset_joint(l->asset, i) : i; }
static int listed_parent(const listing *l, int i)
{
    return l->asset ? tdn_asset_joint_parent(l->asset, i) : tdn_skeleton_parent(l->skeleton, i);
}

/* The joint's transform in the chosen space (model: decomposed from its matrix). */
static tdn_transform joint_transform(const sample_args *a, const tdn_pose *pose, const tdn_mat4 *model, int joint)
{
    return a->model_space ? tdn_transform_from_mat4(&model[joint]) : tdn_pose_get(pose, joint);
}

static int print_json(const sample_args *a, const listing *l, const char *clip_name, const tdn_pose *pose,
                      const tdn_mat4 *model)
{
    const tdn_skeleton *skel = l->skeleton;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddItemToObject(doc, "clip", clip_name ? cJSON_CreateString(clip_name) : cJSON_CreateNull());
    cJSON_AddItemToObject(doc, "time", cli_json_float(a->time));
    cJSON_AddStringToObject(doc, "space", a->model_space ? "model" : "local");
    cJSON *joints = cJSON_AddArrayToObject(doc, "joints");
    for (int i = 0; i < listed_count(l); i++) {
        int j = listed_joint(l, i);
        tdn_transform x = joint_transform(a, pose, model, j);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", tdn_skeleton_joint_name(skel, j));
        cJSON_AddNumberToObject(o, "parent", listed_parent(l, i));
        cJSON_AddItemToObject(o, "t", cli_json_floats(&x.t.x, 3));
        cJSON_AddItemToObject(o, "r", cli_json_floats(&x.r.x, 4));
        cJSON_AddItemToObject(o, "s", cli_json_floats(&x.s.x, 3));
        if (a->model_space)
            cJSON_AddItemToObject(o, "matrix", cli_json_floats(model[j].m, 16));
        cJSON_AddItemToArray(joints, o);
    }
    return cli_json_print(doc);
}

static void print_text(const sample_args *a, const listing *l, const char *clip_name, const tdn_pose *pose,
                       const tdn_mat4 *model)
{
    const tdn_skeleton *skel = l->skeleton;
    char name[CLI_TEXT_SIZE];
    printf("%s at %.6g s, %s space%s\n", clip_name ? cli_text(clip_name, name, sizeof name) : "rest pose",
           (double)a->time, a->model_space ? "model" : "local", a->runtime ? ", runtime clip" : "");
    printf("  %4s  %-32s %6s  %-34s  %-43s  %s\n", "#", "joint", "parent", "t", "r (x y z w)", "s");
    for (int i = 0; i < listed_count(l); i++) {
        int j = listed_joint(l, i);
        tdn_transform x = joint_transform(a, pose, model, j);
        printf("  %4d  %-32s %6d  %10.5f %10.5f %10.5f  %10.6f %10.6f %10.6f %10.6f  %.5g %.5g %.5g\n", i,
               cli_text(tdn_skeleton_joint_name(skel, j), name, sizeof name), listed_parent(l, i), (double)x.t.x,
               (double)x.t.y, (double)x.t.z, (double)x.r.x, (double)x.r.y, (double)x.r.z, (double)x.r.w, (double)x.s.x,
               (double)x.s.y, (double)x.s.z);
    }
}

/* A compressed clip's size against the source's float32 frames (10 floats per joint per distinct
 * key time) and its error measured as animation compression does, on stderr. */
static void report_compression(const tdn_keyed_clip *keys, const tdn_clip *clip, float shell)
{
    const cli_compression c = cli_compression_of(keys, clip, shell);
    const tdn_clip_error *e = &c.error;
    if (!c.measured) {
        fprintf(stderr, "tendon sample: compressed clip: %zu bytes (%.2f:1); its error could not be measured\n",
                c.bytes, c.raw / (double)c.bytes);
        return;
    }
    fprintf(stderr,
            "tendon sample: compressed clip: %zu bytes, %.2f:1 against float32 frames (%.0f bytes); largest error"
            " %.4g cm at '%s', t = %.4g s; 99th percentile %.4g cm (vertices %.3g cm from each joint)\n",
            c.bytes, c.raw / (double)c.bytes, c.raw, 100.0 * e->max_error,
            tdn_skeleton_joint_name(tdn_keyed_clip_skeleton(keys), e->max_joint), (double)e->max_time,
            100.0 * e->p99_error, 100.0 * shell);
}

/* Samples the keyed clip, or the runtime clip built from it, into pose. */
static int sample_clip(const sample_args *a, const tdn_keyed_clip *keys, tdn_pose *pose)
{
    tdn_error err = { 0 };
    if (!a->runtime) {
        tdn_result res = tdn_keyed_clip_sample(keys, a->time, pose, NULL, NULL);
        return res == TDN_OK ? CLI_OK : cli_report("sample", res, &err);
    }
    /* Any error is accepted so that the runtime clip can be looked at; it is reported. */
    tdn_clip_desc desc = { .source = keys, .position_tolerance = FLT_MAX, .rotation_tolerance = FLT_MAX };
    if (a->compressed)
        desc = cli_compress_desc(&a->compress, keys);
    tdn_clip *clip;
    tdn_clip_report report;
    desc.report = &report;
    tdn_result res = tdn_clip_create(&desc, &clip, NULL, &err);
    if (res != TDN_OK)
        return cli_report("sample", res, &err);
    if (a->compressed)
        report_compression(keys, clip, desc.shell_distance);
    else
        fprintf(stderr,
                "tendon sample: runtime clip: %d frames at %.6g/s, %zu bytes, max error %.3g (position, file units),"
                " %.3g rad (rotation)\n",
                report.frame_count, (double)tdn_clip_sample_rate(clip), report.bytes, (double)report.max_position_error,
                (double)report.max_rotation_error);
    res = tdn_clip_sample(clip, a->time, pose, NULL);
    tdn_clip_destroy(clip);
    return res == TDN_OK ? CLI_OK : cli_report("sample", res, &err);
}

static int run(const sample_args *a, const tdn_asset *asset, tdn_pose *pose, tdn_mat4 *model)
{
    const tdn_keyed_clip *keys = NULL;
    if (a->clip || tdn_asset_clip_count(asset) > 0) {
        int index = a->clip ? tdn_asset_find_clip(asset, a->clip) : 0;
        if (index < 0)
            return cli_no_clip("sample", a->path, "--clip", a->clip, asset);
        keys = tdn_asset_clip(asset, index);
        int code = sample_clip(a, keys, pose);
        if (code != CLI_OK)
            return code;
    } else {
        for (int j = 0; j < pose->joint_count; j++) {
            tdn_transform rest = tdn_skeleton_rest(tdn_asset_skeleton(asset), j);
            tdn_pose_set(pose, j, &rest);
        }
    }
    tdn_result res = tdn_model_space(tdn_asset_skeleton(asset), pose, NULL, model, NULL);
    if (res != TDN_OK)
        return cli_report("sample", res, NULL);
    const char *clip_name = keys ? tdn_keyed_clip_name(keys) : NULL;
    const listing l = { tdn_asset_skeleton(asset), asset };
    if (a->common.json)
        return print_json(a, &l, clip_name, pose, model);
    print_text(a, &l, clip_name, pose, model);
    return CLI_OK;
}

/* ---- packs ---- */

/* The pack's clip named `name` (a name, else an index), or -1. */
static int find_pack_clip(const tdn_pack *pack, const char *name)
{
    const int by_name = tdn_pack_find_clip(pack, name);
    if (by_name >= 0)
        return by_name;
    char *end = NULL;
    const long i = strtol(name, &end, 10);
    return *name && !*end && i >= 0 && i < tdn_pack_clip_count(pack) ? (int)i : -1;
}

static int sample_pack_clip(const sample_args *a, const tdn_pack *pack)
{
    if (tdn_pack_clip_count(pack) == 0) {
        fprintf(stderr, "tendon sample: %s: the pack holds no clip\n", a->path);
        return CLI_BAD_INPUT;
    }
    const int c = a->clip ? find_pack_clip(pack, a->clip) : 0;
    if (c < 0) {
        fprintf(stderr, "tendon sample: %s: --clip: no clip named \"%s\" (tendon info lists the pack's %d)\n", a->path,
                a->clip, tdn_pack_clip_count(pack));
        return CLI_BAD_INPUT;
    }
    const tdn_clip *clip = tdn_pack_clip(pack, c);
    const listing l = { tdn_pack_skeleton(pack, tdn_pack_clip_skeleton(pack, c)), NULL };
    const int joints = tdn_clip_joint_count(clip);
    tdn_pose pose;
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)joints);
    tdn_result res = model ? tdn_pose_create(joints, &pose, NULL, NULL) : TDN_ERR_OUT_OF_MEMORY;
    if (res != TDN_OK) {
        free(model);
        return cli_report("sample", res, NULL);
    }
    tdn_clip_sample(clip, a->time, &pose, NULL);
    res = tdn_model_space(l.skeleton, &pose, NULL, model, NULL);
    int code = res == TDN_OK ? CLI_OK : cli_report("sample", res, NULL);
    if (code == CLI_OK && a->common.json)
        code = print_json(a, &l, tdn_clip_name(clip), &pose, model);
    else if (code == CLI_OK)
        print_text(a, &l, tdn_clip_name(clip), &pose, model);
    tdn_pose_destroy(&pose);
    free(model);
    return code;
}

static int sample_pack(const sample_args *a)
{
    if (a->runtime || a->common.scale > 0.0f || a->common.skin) {
        fprintf(stderr,
                "tendon sample: %s is a pack: its clips are compressed runtime clips in the units they were "
                "packed in (--runtime, --compressed, --scale and --skin do not apply)\n",
                a->path);
        return CLI_BAD_INPUT;
    }
    cli_access access;
    tdn_pack_file_load_options options = { 0 };
    options.file_access = cli_file_access(&access, &a->common.files, a->path);
    tdn_pack_file *file = NULL;
    tdn_error err = { 0 };
    const tdn_result res = tdn_pack_file_load(a->path, &options, &file, NULL, &err);
    if (res != TDN_OK)
        return cli_report("sample", res, &err);
    const int code = sample_pack_clip(a, tdn_pack_file_pack(file));
    tdn_pack_file_destroy(file);
    return code;
}

int cmd_sample(int argc, char **argv)
{
    sample_args a = { 0 };
    int code = parse(argc, argv, &a);
    if (code != 0)
        return code < 0 ? CLI_OK : code;
    if (cli_is_pack(a.path))
        return sample_pack(&a);
    tdn_asset *asset;
    code = cli_load("sample", a.path, &a.common, &asset);
    if (code != CLI_OK)
        return code;
    const int joints = tdn_skeleton_joint_count(tdn_asset_skeleton(asset));
    tdn_pose pose;
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)joints);
    tdn_result res = model ? tdn_pose_create(joints, &pose, NULL, NULL) : TDN_ERR_OUT_OF_MEMORY;
    if (res == TDN_OK) {
        code = run(&a, asset, &pose, model);
        tdn_pose_destroy(&pose);
    } else {
        code = cli_report("sample", res, NULL);
    }
    free(model);
    tdn_asset_destroy(asset);
    return code;
}
