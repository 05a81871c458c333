/* tendon CLI: the two characters of tendon retarget (see retarget_pair.h). */
#include "retarget_pair.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int retarget_source_clip(const retarget_args *a, const tdn_asset *source)
{
    if (tdn_asset_clip_count(source) == 0) {
        char path[CLI_TEXT_SIZE];
        fprintf(stderr, "tendon retarget: %s: the source has no clip to retarget (tendon info lists what it holds)\n",
                cli_text(a->source, path, sizeof path));
        return -1;
    }
    if (!a->clip)
        return 0;
    const int index = tdn_asset_find_clip(source, a->clip);
    if (index < 0)
        cli_no_clip("retarget", a->source, "--clip", a->clip, source);
    return index;
}

static int load_side(const retarget_args *a, retarget_side *s, const char *path, const char *role, const char *skin,
                     float scale)
{
    s->path = path;
    s->role = role;
    s->reference_frame = -1;
    const cli_common common = { .skin = skin, .scale = scale, .files = a->files };
    const int code = cli_load("retarget", path, &common, &s->asset);
    if (code != CLI_OK)
        return code;
    s->skeleton = tdn_asset_skeleton(s->asset);
    if (tdn_pose_create(tdn_skeleton_joint_count(s->skeleton), &s->reference, NULL, NULL) != TDN_OK) {
        fprintf(stderr, "tendon retarget: out of memory\n");
        return CLI_FAILURE;
    }
    return CLI_OK;
}

/* "tendon retarget: PATH: the ROLE's WHAT: WHERE: MESSAGE"; the exit code for r. */
static int report(const retarget_side *s, const char *what, tdn_result r, const tdn_error *err)
{
    char path[CLI_TEXT_SIZE], where[CLI_TEXT_SIZE], message[CLI_TEXT_SIZE];
    fprintf(stderr, "tendon retarget: %s: the %s's %s: %s%s%s\n", cli_text(s->path, path, sizeof path), s->role, what,
            cli_text(err->where, where, sizeof where), err->where[0] ? ": " : "",
            err->message[0] ? cli_text(err->message, message, sizeof message) : tdn_result_name(r));
    return cli_exit_code(r);
}

/* Frame `frame` of the side's clip `clip` into *pose (the side's take for it kept), or, for a
 * side without clips, its rest pose. An exit code, having said why. */
static int frame_pose(retarget_side *s, const char *option, int clip, int frame, tdn_pose *pose)
{
    char path[CLI_TEXT_SIZE], name[CLI_TEXT_SIZE];
    if (tdn_asset_clip_count(s->asset) == 0) {
        fprintf(stderr, "tendon retarget: warning: %s: %s %d: the %s has no clip: its rest pose is used\n",
                cli_text(s->path, path, sizeof path), option, frame, s->role);
        tdn_pose_set_rest(pose, s->skeleton, NULL);
        return CLI_OK;
    }
    tdn_error err = { 0 };
    tdn_result r = retarget_take_of(s->asset, clip, &s->reference_take, &err);
    if (r != TDN_OK)
        return report(s, "clip", r, &err);
    const retarget_take *take = &s->reference_take;
    if (frame >= take->frame_count) {
        fprintf(stderr, "tendon retarget: %s: %s %d: the %s's clip \"%s\" has %d frames (0 to %d at %g fps)\n",
                cli_text(s->path, path, sizeof path), option, frame, s->role,
                cli_text(tdn_keyed_clip_name(take->clip), name, sizeof name), take->frame_count, take->frame_count - 1,
                (double)take->rate);
        return CLI_BAD_INPUT;
    }
    r = tdn_keyed_clip_sample(take->clip, retarget_take_time(take, frame), pose, NULL, &err);
    if (r != TDN_OK)
        return report(s, "clip", r, &err);
    s->reference_frame = frame;
    return CLI_OK;
}

/* The side's body map and reference pose, judged on frame `frame` of clip `clip` (-1: the rest
 * pose), the map changed by `map_file`'s side when given. An exit code, having said why. */
static int map_side(retarget_side *s, const char *option, int clip, int frame, const tdn_body_map_file *map_file,
                    tdn_body_map_file_side side)
{
    tdn_pose posed = { 0 };
    int code = CLI_OK;
    if (frame >= 0) {
        if (tdn_pose_create(tdn_skeleton_joint_count(s->skeleton), &posed, NULL, NULL) != TDN_OK) {
            fprintf(stderr, "tendon retarget: out of memory\n");
            return CLI_FAILURE;
        }
        code = frame_pose(s, option, clip, frame, &posed);
    }
    const tdn_pose *from = frame >= 0 ? &posed : NULL;
    tdn_error err = { 0 };
    tdn_result r;
    if (code == CLI_OK) {
        r = tdn_body_map_find(s->skeleton, from, &s->map, &err);
        /* a document giving this side may complete a map the names could not find: it starts empty */
        const int from_document = map_file && tdn_body_map_file_has_side(map_file, side);
        if (r != TDN_OK && from_document)
            memset(&s->map, 0, sizeof s->map);
        else if (r != TDN_OK)
            code = report(s, "body map", r, &err);
        if (code == CLI_OK && from_document &&
            (r = tdn_body_map_file_apply(map_file, side, s->skeleton, &s->map, &err)) != TDN_OK)
            code = report(s, "body map (--map)", r, &err);
    }
    if (code == CLI_OK && (r = tdn_retarget_reference_pose(s->skeleton, &s->map, from, &s->reference, &err)) != TDN_OK)
        code = report(s, "reference pose", r, &err);
    if (frame >= 0)
        tdn_pose_destroy(&posed);
    return code;
}

double retarget_leg_length(const tdn_skeleton *skeleton, const tdn_body_map *map)
{
    const int n = tdn_skeleton_joint_count(skeleton);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)n);
    tdn_pose rest;
    double sum = 0.0;
    if (model && tdn_pose_create(n, &rest, NULL, NULL) == TDN_OK) {
        tdn_pose_set_rest(&rest, skeleton, NULL);
        tdn_model_space(skeleton, &rest, NULL, model, NULL);
        static const tdn_body_part legs[2][3] = {
            { TDN_BODY_PART_LEFT_THIGH, TDN_BODY_PART_LEFT_SHIN, TDN_BODY_PART_LEFT_FOOT },
            { TDN_BODY_PART_RIGHT_THIGH, TDN_BODY_PART_RIGHT_SHIN, TDN_BODY_PART_RIGHT_FOOT },
        };
        for (int side = 0; side < 2; side++)
            for (int k = 0; k < 2; k++) {
                const float *a = model[tdn_body_map_joint(map, legs[side][k])].m;
                const float *b = model[tdn_body_map_joint(map, legs[side][k + 1])].m;
                sum += tdn_vec3_length(tdn_vec3_make(b[12] - a[12], b[13] - a[13], b[14] - a[14]));
            }
        tdn_pose_destroy(&rest);
    }
    free(model);
    return 0.5 * sum;
}

/* The source's lowest left and right ankle heights over the takes the command bakes (--clip's,
 * else every clip), above its ground (y = 0); 0 for an ankle that goes below it. */
static void lowest_ankles(const retarget_args *a, retarget_pair *p, int first_clip)
{
    const retarget_side *s = &p->source;
    const int n = tdn_skeleton_joint_count(s->skeleton);
    const int feet[2] = { tdn_body_map_joint(&s->map, TDN_BODY_PART_LEFT_FOOT),
                          tdn_body_map_joint(&s->map, TDN_BODY_PART_RIGHT_FOOT) };
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)n);
    tdn_pose pose;
    float lowest[2] = { INFINITY, INFINITY };
    if (model && tdn_pose_create(n, &pose, NULL, NULL) == TDN_OK) {
        const int clips = a->clip ? 1 : tdn_asset_clip_count(s->asset);
        for (int k = 0; k < clips; k++) {
            retarget_take take;
            if (retarget_take_of(s->asset, a->clip ? first_clip : k, &take, NULL) != TDN_OK)
                continue; /* the bake says why */
            for (int f = 0; f < take.frame_count; f++) {
                tdn_keyed_clip_sample(take.clip, retarget_take_time(&take, f), &pose, NULL, NULL);
                tdn_model_space(s->skeleton, &pose, NULL, model, NULL);
                for (int side = 0; side < 2; side++)
                    lowest[side] = fminf(lowest[side], model[feet[side]].m[13]);
            }
        }
        tdn_pose_destroy(&pose);
    }
    free(model);
    for (int side = 0; side < 2; side++)
        p->floors[side] = lowest[side] > 0.0f && isfinite(lowest[side]) ? lowest[side] : 0.0f;
}

/* --map: the body-map document (NULL without it). An exit code, having said why. */
static int load_map_file(const retarget_args *a, tdn_body_map_file **out)
{
    *out = NULL;
    if (!a->map)
        return CLI_OK;
    cli_access access;
    const tdn_body_map_file_load_options options = { cli_file_access(&access, &a->files, a->map) };
    tdn_error err = { 0 };
    const tdn_result r = tdn_body_map_file_load(a->map, &options, out, NULL, &err);
    if (r == TDN_OK)
        return CLI_OK;
    char path[CLI_TEXT_SIZE], where[CLI_TEXT_SIZE], message[CLI_TEXT_SIZE];
    fprintf(stderr, "tendon retarget: --map %s: %s%s%s\n", cli_text(a->map, path, sizeof path),
            cli_text(err.where, where, sizeof where), err.where[0] ? ": " : "",
            cli_text(err.message, message, sizeof message));
    return cli_exit_code(r);
}

int retarget_pair_load(const retarget_args *a, retarget_pair *p)
{
    int code = load_side(a, &p->source, a->source, "source", a->source_skin, a->scale);
    if (code == CLI_OK)
        code = load_side(a, &p->target, a->target, "target", a->target_skin, 0.0f);
    if (code != CLI_OK)
        return code;
    const int clip = retarget_source_clip(a, p->source.asset);
    if (clip < 0)
        return CLI_BAD_INPUT;
    tdn_body_map_file *map_file = NULL;
    code = load_map_file(a, &map_file);
    if (code == CLI_OK)
        code = map_side(&p->source, "--source-reference", clip, a->source_reference, map_file,
                        TDN_BODY_MAP_FILE_SIDE_SOURCE);
    if (code == CLI_OK)
        code = map_side(&p->target, "--target-reference", 0, a->target_reference, map_file,
                        TDN_BODY_MAP_FILE_SIDE_TARGET);
    tdn_body_map_file_destroy(map_file);
    if (code != CLI_OK)
        return code;
    lowest_ankles(a, p, clip);
    /* scale 0: the ratio of the leg lengths, which carries the two files' units too */
    const tdn_retarget_desc desc = {
        .source = { .skeleton = p->source.skeleton, .map = &p->source.map, .reference = &p->source.reference },
        .target = { .skeleton = p->target.skeleton, .map = &p->target.map, .reference = &p->target.reference },
        .contacts = { .floor = { p->floors[0], p->floors[1] } }, /* the height and speed by default */
    };
    tdn_error err = { 0 };
    const tdn_result r = tdn_retarget_create(&desc, &p->retarget, NULL, &err);
    if (r != TDN_OK)
        return cli_report("retarget", r, &err);
    return CLI_OK;
}

void retarget_pair_free(retarget_pair *p)
{
    tdn_retarget_destroy(p->retarget);
    retarget_side *sides[2] = { &p->source, &p->target };
    for (int k = 0; k < 2; k++) {
        tdn_pose_destroy(&sides[k]->reference);
        tdn_asset_destroy(sides[k]->asset);
    }
    *p = (retarget_pair){ 0 };
}
