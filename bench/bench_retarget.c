/* tendon_bench: the `retarget` workload (see bench_retarget.h). */
#include "bench_retarget.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tendon/io/asset.h"
#include "tendon/io/humanoid.h"
#include "tendon/retarget.h"

#define RT_SOURCE_JOINTS 22
#define RT_FRAMES 64
#define RT_CYCLE_SECONDS 2.0f
#define RT_COLD_CHARACTERS 1000
#define RT_PI 3.14159265f

/* LAFAN1's skeleton: names and parents in its files' order; offsets from the parent in cm,
 * standing in a T-pose (up +Y, left +X, facing +Z). */
static const char *const rt_names[RT_SOURCE_JOINTS] = {
    "Hips",        "LeftUpLeg", "LeftLeg",       "LeftFoot", "LeftToe",      "RightUpLeg", "RightLeg",     "RightFoot",
    "RightToe",    "Spine",     "Spine1",        "Spine2",   "Neck",         "Head",       "LeftShoulder", "LeftArm",
    "LeftForeArm", "LeftHand",  "RightShoulder", "RightArm", "RightForeArm", "RightHand",
};
static const int rt_parents[RT_SOURCE_JOINTS] = { -1, 0,  1,  2,  3,  0,  5,  6,  7,  0,  9,
                                                  10, 11, 12, 11, 14, 15, 16, 11, 18, 19, 20 };
static const float rt_offsets[RT_SOURCE_JOINTS][3] = {
    { 0, 92.5f, 0 },  { 10, -3, 0 },    { 0, -43.5f, 0 }, { 0, -42.4f, 0 }, { 0, -7, 14 }, { -10, -3, 0 },
    { 0, -43.5f, 0 }, { 0, -42.4f, 0 }, { 0, -7, 14 },    { 0, 7, 0 },      { 0, 12, 0 },  { 0, 12, 0 },
    { 0, 15, 0 },     { 0, 10, 0 },     { 4, 11, 0 },     { 12, 0, 0 },     { 28, 0, 0 },  { 25, 0, 0 },
    { -4, 11, 0 },    { -12, 0, 0 },    { -28, 0, 0 },    { -25, 0, 0 },
};

typedef struct rt_ctx {
    const tdn_retarget *rt;
    tdn_pose *sources;         /* RT_FRAMES, or one per character */
    tdn_pose *targets;         /* 1, or one per character */
    int count, cursor;         /* sources; round-robin position */
    int cold;                  /* 1: target `cursor` too */
    tdn_retarget_state *state; /* the contact fix-up's; NULL: without it */
} rt_ctx;

static void run_pose(void *p, long n)
{
    rt_ctx *c = p;
    for (long i = 0; i < n; i++) {
        tdn_pose *target = &c->targets[c->cold ? c->cursor : 0];
        tdn_retarget_pose(c->rt, &c->sources[c->cursor], target, NULL);
        if (c->state)
            tdn_retarget_contacts(c->rt, c->state, &c->sources[c->cursor], NULL, NULL, RT_CYCLE_SECONDS / RT_FRAMES,
                                  target, NULL);
        if (++c->cursor == c->count)
            c->cursor = 0;
    }
}

static tdn_skeleton *lafan_skeleton(tdn_error *err)
{
    tdn_transform rest[RT_SOURCE_JOINTS];
    for (int j = 0; j < RT_SOURCE_JOINTS; j++)
        rest[j] = (tdn_transform){ tdn_vec3_make(rt_offsets[j][0], rt_offsets[j][1], rt_offsets[j][2]),
                                   tdn_quat_identity(), tdn_vec3_make(1.0f, 1.0f, 1.0f) };
    const tdn_skeleton_desc desc = {
        .joint_count = RT_SOURCE_JOINTS, .names = rt_names, .parents = rt_parents, .rest_pose = rest
    };
    tdn_skeleton *out = NULL;
    return tdn_skeleton_create(&desc, &out, NULL, err) == TDN_OK ? out : NULL;
}

/* The source's pose at `t` seconds into the cycle: each joint's rest turned by a sine about an
 * axis of its own, the hips travelling forward (1.4 m/s) and bobbing. */
static void lafan_pose(const tdn_skeleton *skeleton, float t, tdn_pose *pose)
{
    tdn_pose_set_rest(pose, skeleton, NULL);
    const float phase = 2.0f * RT_PI * t / RT_CYCLE_SECONDS;
    for (int j = 0; j < RT_SOURCE_JOINTS; j++) {
        tdn_transform x = tdn_pose_get(pose, j);
        const tdn_vec3 axis = tdn_vec3_normalize(
            tdn_vec3_make(sinf(1.3f * (float)j + 0.5f), cosf(0.7f * (float)j), sinf(2.1f * (float)j + 1.0f)));
        const float angle = 0.35f * sinf(phase + 0.9f * (float)j);
        x.r = tdn_quat_normalize(tdn_quat_mul(x.r, tdn_quat_from_axis_angle(axis, angle)));
        if (tdn_skeleton_parent(skeleton, j) < 0)
            x.t = tdn_vec3_add(x.t, tdn_vec3_make(0.0f, 2.0f * sinf(2.0f * phase), 140.0f * t));
        tdn_pose_set(pose, j, &x);
    }
}

static void destroy_poses(tdn_pose *poses, int count)
{
    for (int i = 0; poses && i < count; i++)
        tdn_pose_destroy(&poses[i]);
    free(poses);
}

/* `count` poses of `joints` joints (calloc'd so that a partial failure frees cleanly). */
static tdn_pose *create_poses(int count, int joints, tdn_result *res)
{
    tdn_pose *poses = calloc((size_t)count, sizeof *poses);
    *res = poses ? TDN_OK : TDN_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < count && *res == TDN_OK; i++)
        *res = tdn_pose_create(joints, &poses[i], NULL, NULL);
    return poses;
}

/* The target joints in parts the source has: those the retarget turns. */
static int mapped_target_joints(const tdn_body_map *source, const tdn_body_map *target)
{
    int n = 0;
    for (int p = 0; p < TDN_BODY_PART_COUNT; p++)
        if (source->parts[p].joint_count > 0)
            n += target->parts[p].joint_count;
    return n;
}

static void emit_row(const bench_config *cfg, rt_ctx *ctx, const char *variant, int joints, int mapped,
                     bench_emit_fn emit, void *user)
{
    const bench_stats s = bench_measure(cfg, run_pose, ctx, 1.0);
    bench_row row = bench_row_make("retarget", joints, variant, 1);
    row.median_ns = s.median_ns;
    row.min_ns = s.min_ns;
    row.ns_per_joint = s.median_ns / joints;
    row.chars_per_s = 1e9 / s.median_ns;
    bench_row_add_number(&row, "source_joints", RT_SOURCE_JOINTS);
    bench_row_add_number(&row, "mapped_target_joints", mapped);
    bench_row_add_number(&row, "frames", ctx->cold ? 1 : RT_FRAMES);
    bench_row_add_number(&row, "instances", ctx->cold ? ctx->count : 1);
    emit(&row, user);
}

tdn_result bench_run_retarget(int quick, bench_emit_fn emit, void *user, tdn_error *err)
{
    const bench_config cfg = bench_config_default(quick);
    const int cold_count = quick ? 16 : RT_COLD_CHARACTERS;
    tdn_asset *humanoid = NULL;
    tdn_skeleton *source = lafan_skeleton(err);
    tdn_body_map smap, tmap;
    tdn_retarget *rt = NULL;
    tdn_pose *frames = NULL, *target = NULL, *cold_sources = NULL, *cold_targets = NULL;
    tdn_result res = source ? tdn_humanoid_create(NULL, &humanoid, NULL, err) : TDN_ERR_ARGUMENT;
    const tdn_skeleton *ts = humanoid ? tdn_asset_skeleton(humanoid) : NULL;
    const int joints = ts ? tdn_skeleton_joint_count(ts) : 0;
    if (res == TDN_OK)
        res = tdn_body_map_find(source, NULL, &smap, err);
    if (res == TDN_OK)
        res = tdn_body_map_find(ts, NULL, &tmap, err);
    if (res == TDN_OK) {
        const tdn_retarget_desc desc = { .source = { .skeleton = source, .map = &smap },
                                         .target = { .skeleton = ts, .map = &tmap } };
        res = tdn_retarget_create(&desc, &rt, NULL, err);
    }
    if (res == TDN_OK)
        frames = create_poses(RT_FRAMES, RT_SOURCE_JOINTS, &res);
    if (res == TDN_OK)
        target = create_poses(1, joints, &res);
    if (res == TDN_OK)
        cold_sources = create_poses(cold_count, RT_SOURCE_JOINTS, &res);
    if (res == TDN_OK)
        cold_targets = create_poses(cold_count, joints, &res);
    for (int f = 0; f < RT_FRAMES && res == TDN_OK; f++) { /* the untimed check: every frame retargets */
        lafan_pose(source, RT_CYCLE_SECONDS * (float)f / RT_FRAMES, &frames[f]);
        res = tdn_retarget_pose(rt, &frames[f], &target[0], err);
    }
    for (int i = 0; i < cold_count && res == TDN_OK; i++)
        lafan_pose(source, RT_CYCLE_SECONDS * (float)i / (float)cold_count, &cold_sources[i]);
    if (res == TDN_OK) {
        const int mapped = mapped_target_joints(&smap, &tmap);
        rt_ctx hot = { rt, frames, target, RT_FRAMES, 0, 0, NULL };
        emit_row(&cfg, &hot, "pose", joints, mapped, emit, user);
        tdn_retarget_state state;
        tdn_retarget_state_reset(&state);
        rt_ctx planted = { rt, frames, target, RT_FRAMES, 0, 0, &state };
        emit_row(&cfg, &planted, "pose_contacts", joints, mapped, emit, user);
        rt_ctx cold = { rt, cold_sources, cold_targets, cold_count, 0, 1, NULL };
        emit_row(&cfg, &cold, "pose_cold", joints, mapped, emit, user);
    }
    destroy_poses(cold_targets, cold_count);
    destroy_poses(cold_sources, cold_count);
    destroy_poses(target, 1);
    destroy_poses(frames, RT_FRAMES);
    tdn_retarget_destroy(rt);
    tdn_asset_destroy(humanoid);
    tdn_skeleton_destroy(source);
    return res == TDN_OK ? TDN_OK : bench_fail(err, res, "retarget setup");
}
