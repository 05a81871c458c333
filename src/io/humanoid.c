/* tendon io: the generated humanoid (tdn_humanoid_create): its description, its skeleton, and
 * the asset it lands in. The clips are made in humanoid_clips.c.
 *
 * At the default height (1.8 m) the skeleton is the benchmarks' S67: bench/bench_skeletons.c
 * takes it from here. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "humanoid_internal.h"

typedef struct rig {
    int count;
    char names[TDN_HU_JOINTS][32];
    int parents[TDN_HU_JOINTS];
    tdn_transform rest[TDN_HU_JOINTS];
    float scale;
} rig;

/* Adds a joint at offset (x, y, z) * scale from its parent, named by printf format `fmt` with
 * `side` ("l", "r" or ""); returns its index. */
static int add_joint(rig *r, int parent, float x, float y, float z, const char *fmt, const char *side)
{
    int i = r->count++;
    snprintf(r->names[i], sizeof r->names[i], fmt, side);
    r->parents[i] = parent;
    r->rest[i] = tdn_transform_identity();
    r->rest[i].t = tdn_vec3_make(x * r->scale, y * r->scale, z * r->scale);
    return i;
}

typedef struct finger {
    const char *name;
    float z;      /* across the palm */
    float length; /* of the proximal phalanx; the next is 0.62 of it */
} finger;

static const finger FINGERS[4] = {
    { "index", 0.025f, 0.042f }, { "middle", 0.008f, 0.046f }, { "ring", -0.01f, 0.043f }, { "pinky", -0.027f, 0.034f }
};

/* s: +1 for the left side (+X), -1 for the right. */
static void add_arm(rig *r, int chest, const char *side, float s)
{
    int clavicle = add_joint(r, chest, s * 0.03f, 0.04f, 0.02f, "clavicle_%s", side);
    int upper = add_joint(r, clavicle, s * 0.15f, 0.0f, -0.02f, "upperarm_%s", side);
    int lower = add_joint(r, upper, s * 0.28f, 0.0f, 0.0f, "lowerarm_%s", side);
    int hand = add_joint(r, lower, s * 0.26f, 0.0f, 0.0f, "hand_%s", side);
    int t1 = add_joint(r, hand, s * 0.025f, -0.01f, 0.03f, "thumb_01_%s", side);
    int t2 = add_joint(r, t1, s * 0.035f, -0.005f, 0.015f, "thumb_02_%s", side);
    add_joint(r, t2, s * 0.03f, 0.0f, 0.008f, "thumb_03_%s", side);
    for (int f = 0; f < 4; f++) {
        char fmt[32];
        snprintf(fmt, sizeof fmt, "%s_metacarpal_%%s", FINGERS[f].name);
        int parent = add_joint(r, hand, s * 0.03f, 0.0f, FINGERS[f].z, fmt, side);
        const float lengths[3] = { 0.065f, FINGERS[f].length, 0.62f * FINGERS[f].length };
        for (int k = 0; k < 3; k++) {
            snprintf(fmt, sizeof fmt, "%s_%02d_%%s", FINGERS[f].name, k + 1);
            parent = add_joint(r, parent, s * lengths[k], 0.0f, k == 0 ? 0.25f * FINGERS[f].z : 0.0f, fmt, side);
        }
    }
}

static void add_leg(rig *r, int pelvis, const char *side, float s)
{
    int thigh = add_joint(r, pelvis, s * 0.09f, -0.06f, 0.0f, "thigh_%s", side);
    int calf = add_joint(r, thigh, 0.0f, -0.43f, 0.01f, "calf_%s", side);
    int foot = add_joint(r, calf, 0.0f, -0.40f, -0.02f, "foot_%s", side);
    add_joint(r, foot, 0.0f, -0.05f, 0.13f, "toe_%s", side);
}

static void build_rig(rig *r)
{
    int root = add_joint(r, -1, 0.0f, 0.0f, 0.0f, "root", "");
    int pelvis = add_joint(r, root, 0.0f, 0.95f, 0.0f, "pelvis", "");
    const float spine_lengths[5] = { 0.09f, 0.10f, 0.10f, 0.10f, 0.08f };
    int spine = pelvis;
    for (int i = 0; i < 5; i++) {
        char name[32];
        snprintf(name, sizeof name, "spine_%02d", (i + 1) % 100);
        spine = add_joint(r, spine, 0.0f, spine_lengths[i], i < 2 ? 0.01f : -0.005f, "%s", name);
    }
    int neck = add_joint(r, spine, 0.0f, 0.10f, 0.01f, "neck_01", "");
    neck = add_joint(r, neck, 0.0f, 0.05f, 0.01f, "neck_02", "");
    int head = add_joint(r, neck, 0.0f, 0.06f, 0.0f, "head", "");
    add_joint(r, head, 0.0f, 0.01f, 0.03f, "jaw", "");
    add_joint(r, head, 0.032f, 0.07f, 0.08f, "eye_l", "");
    add_joint(r, head, -0.032f, 0.07f, 0.08f, "eye_r", "");
    add_arm(r, spine, "l", 1.0f);
    add_arm(r, spine, "r", -1.0f);
    add_leg(r, pelvis, "l", 1.0f);
    add_leg(r, pelvis, "r", -1.0f);
}

tdn_result tdn_io__humanoid_skeleton(tdn_asset *asset, float scale, tdn_error *err)
{
    rig r;
    memset(&r, 0, sizeof r);
    r.scale = scale;
    build_rig(&r);
    const char *names[TDN_HU_JOINTS];
    int remap[TDN_HU_JOINTS], listed[TDN_HU_JOINTS];
    for (int i = 0; i < TDN_HU_JOINTS; i++) {
        names[i] = r.names[i];
        listed[i] = i;
    }
    tdn_skeleton_desc desc = {
        .joint_count = r.count, .names = names, .parents = r.parents, .rest_pose = r.rest, .remap = remap
    };
    tdn_result res = tdn_skeleton_create(&desc, &asset->skeleton, &asset->allocator, err);
    if (res != TDN_OK)
        return res;
    for (int i = 0; i < TDN_HU_JOINTS; i++) /* the enum in humanoid_internal.h names these indices */
        if (remap[i] != i)
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, r.names[i], "generated joint %d landed at %d", i, remap[i]);
    if (tdn_io__asset_set_listed_joints(asset, listed, TDN_HU_JOINTS) != TDN_OK)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for the listed joints");
    return TDN_OK;
}

int tdn_io__humanoid_intervals(float cycle, float rate)
{
    const double half = (double)cycle * (double)rate / 2.0; /* 0.6f * 120 is 72.0000029: forgive float rounding */
    int n = 2 * (int)ceil(half * (1.0 - 1e-5));
    return n < 8 ? 8 : n;
}

/* Checks one field: finite and >= 0; 0 takes the default; the result must lie in [lo, hi]. */
static tdn_result settle(float value, float fallback, float lo, float hi, const char *field, const char *unit,
                         float *out, tdn_error *err)
{
    char where[64];
    snprintf(where, sizeof where, "desc.%s", field);
    if (!isfinite(value) || value < 0.0f)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, where, "%s is %g; it must be a finite number >= 0 (0: %g %s)", field,
                            (double)value, (double)fallback, unit);
    *out = value == 0.0f ? fallback : value;
    if (*out < lo || *out > hi)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, where, "%s is %g %s; it must lie in [%g, %g]", field, (double)*out,
                            unit, (double)lo, (double)hi);
    return TDN_OK;
}

/* Half the ground a foot covers while in contact must stay within 0.7 leg lengths. */
static tdn_result check_stride(float speed, float cycle, float duty, float leg, int intervals, const char *field,
                               tdn_error *err)
{
    const int stance = (int)lroundf(duty * (float)intervals);
    const float half = 0.5f * speed * cycle * (float)stance / (float)intervals;
    if (half <= 0.7f * leg)
        return TDN_OK;
    char where[64];
    snprintf(where, sizeof where, "desc.%s", field);
    return tdn_io__fail(err, TDN_ERR_ARGUMENT, where,
                        "%s %g m/s over a %g s cycle asks for steps beyond the legs' reach (at most %g m/s)", field,
                        (double)speed, (double)cycle, (double)(speed * 0.7f * leg / half));
}

tdn_result tdn_humanoid_create(const tdn_humanoid_desc *desc, tdn_asset **out, const tdn_allocator *allocator,
                               tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!out)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "out", "out is NULL");
    tdn_humanoid_desc d = { 0 };
    if (desc)
        d = *desc;
    if (tdn_io__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    tdn_io__humanoid_params p;
    tdn_result r;
    if ((r = settle(d.height, 1.8f, 0.01f, 1000.0f, "height", "m", &p.height, err)) != TDN_OK ||
        (r = settle(d.walk_speed, 1.4f, 0.0f, 1e6f, "walk_speed", "m/s", &p.walk_speed, err)) != TDN_OK ||
        (r = settle(d.walk_cycle, 1.0f, 0.01f, 100.0f, "walk_cycle", "s", &p.walk_cycle, err)) != TDN_OK ||
        (r = settle(d.run_speed, 3.5f, 0.0f, 1e6f, "run_speed", "m/s", &p.run_speed, err)) != TDN_OK ||
        (r = settle(d.run_cycle, 0.6f, 0.01f, 100.0f, "run_cycle", "s", &p.run_cycle, err)) != TDN_OK ||
        (r = settle(d.sample_rate, 30.0f, 0.01f, 1000.0f, "sample_rate", "keys/s", &p.sample_rate, err)) != TDN_OK)
        return r;
    p.scale = p.height / 1.8f;
    const float longest = fmaxf(3.0f, fmaxf(p.walk_cycle, p.run_cycle));
    if (longest * p.sample_rate > 10000.0f)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "desc.sample_rate",
                            "sample_rate %g keys/s over a %g s clip makes more than 10000 keys per track",
                            (double)p.sample_rate, (double)longest);
    const float leg = p.scale * (sqrtf(0.43f * 0.43f + 0.01f * 0.01f) + sqrtf(0.40f * 0.40f + 0.02f * 0.02f));
    const int walk_n = tdn_io__humanoid_intervals(p.walk_cycle, p.sample_rate);
    const int run_n = tdn_io__humanoid_intervals(p.run_cycle, p.sample_rate);
    if ((r = check_stride(p.walk_speed, p.walk_cycle, 0.6f, leg, walk_n, "walk_speed", err)) != TDN_OK ||
        (r = check_stride(p.run_speed, p.run_cycle, 0.35f, leg, run_n, "run_speed", err)) != TDN_OK)
        return r;

    tdn_asset *asset = tdn_io__asset_new(TDN_FORMAT_GENERATED, allocator);
    if (!asset)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for the asset");
    r = tdn_io__humanoid_skeleton(asset, p.scale, err);
    if (r == TDN_OK)
        r = tdn_io__humanoid_mesh(asset, p.scale, err);
    if (r == TDN_OK)
        r = tdn_io__humanoid_clips(asset, &p, err);
    if (r != TDN_OK) {
        tdn_asset_destroy(asset);
        return r;
    }
    *out = asset;
    return TDN_OK;
}

int tdn_humanoid_detail_joints(const char *const **names)
{
    static const char *const detail[] = { "jaw",
                                          "eye_l",
                                          "eye_r",
                                          "thumb_01_l",
                                          "index_metacarpal_l",
                                          "middle_metacarpal_l",
                                          "ring_metacarpal_l",
                                          "pinky_metacarpal_l",
                                          "thumb_01_r",
                                          "index_metacarpal_r",
                                          "middle_metacarpal_r",
                                          "ring_metacarpal_r",
                                          "pinky_metacarpal_r" };
    if (names)
        *names = detail;
    return (int)(sizeof detail / sizeof detail[0]);
}
