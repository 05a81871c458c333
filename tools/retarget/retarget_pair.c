/* tendon CLI: the two characters of tendon retarget (see retarget_pair.h). */
#include "retarget_pair.h"

#include <math.h>
#include <stdlib.h>

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
 * pose). An exit code, having said why. */
static int map_side(retarget_side *s, const char *option, int clip, int frame)
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
    if (code == CLI_OK && (r = tdn_body_map_find(s->skeleton, from, &s->map, &err)) != TDN_OK)
        code = report(s, "body map", r, &err);
    /* Seam for --map MAP.json: a body-map document changes the map found above (either side's)
     * here, before the reference pose is built from it. Its reader is not in this build yet, so
     * tools/cmd_retarget.c refuses --map before anything is loaded. */
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

/* The mean height of the side's ankles (its feet's joints) in its reference pose, model space. */
static double ankle_height(const retarget_side *s)
{
    const int n = tdn_skeleton_joint_count(s->skeleton);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)n);
    if (!model)
        return 0.0;
    tdn_model_space(s->skeleton, &s->reference, NULL, model, NULL);
    const double y = 0.5 * ((double)model[tdn_body_map_joint(&s->map, TDN_BODY_PART_LEFT_FOOT)].m[13] +
                            model[tdn_body_map_joint(&s->map, TDN_BODY_PART_RIGHT_FOOT)].m[13]);
    free(model);
    return y;
}

/* The warning of the top of retarget_pair.h. */
static void warn_heights(const retarget_pair *p)
{
    const double source_legs = retarget_leg_length(p->source.skeleton, &p->source.map);
    const double target_legs = retarget_leg_length(p->target.skeleton, &p->target.map);
    const double source = ankle_height(&p->source), target = ankle_height(&p->target);
    if (!(source_legs > 0.0) || !(target_legs > 0.0))
        return;
    const double off = (target / target_legs - source / source_legs) * target_legs;
    if (fabs(off) <= 0.25 * target_legs)
        return;
    char path[CLI_TEXT_SIZE];
    fprintf(stderr,
            "tendon retarget: warning: %s: the source's reference pose has its ankles at y = %.4g, %.2f leg lengths "
            "%s its ground, the target's at %.2f: the target's ankles will stand about %.4g %s its own (in its "
            "units); --source-reference FRAME builds the source's reference from a frame where it stands\n",
            cli_text(p->source.path, path, sizeof path), source, fabs(source / source_legs),
            source < 0.0 ? "below" : "above", target / target_legs, fabs(off), off > 0.0 ? "above" : "below");
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
    code = map_side(&p->source, "--source-reference", clip, a->source_reference);
    if (code == CLI_OK)
        code = map_side(&p->target, "--target-reference", 0, a->target_reference);
    if (code != CLI_OK)
        return code;
    /* scale 0: the ratio of the leg lengths, which carries the two files' units too */
    const tdn_retarget_desc desc = { { p->source.skeleton, &p->source.map, &p->source.reference },
                                     { p->target.skeleton, &p->target.map, &p->target.reference },
                                     0.0f };
    tdn_error err = { 0 };
    const tdn_result r = tdn_retarget_create(&desc, &p->retarget, NULL, &err);
    if (r != TDN_OK)
        return cli_report("retarget", r, &err);
    warn_heights(p);
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
