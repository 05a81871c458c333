/* Keyed clips: glTF interpolation rules worked by hand, clamping, rest values, hints against
 * binary search, float tracks, events, and hostile descriptions. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"

/* Hips > Spine > LeftFoot, with a rest pose that is not the identity. */
enum { JOINTS = 3 };
static tdn_skeleton *make_skeleton(void)
{
    static const char *const names[JOINTS] = { "Hips", "Spine", "LeftFoot" };
    static const int parents[JOINTS] = { -1, 0, 1 };
    tdn_transform rest[JOINTS];
    for (int j = 0; j < JOINTS; j++) {
        rest[j] = tdn_transform_identity();
        rest[j].t = tdn_vec3_make(0.1f * (float)j, 1.0f + (float)j, -0.5f);
        rest[j].r = tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), 0.3f * (float)(j + 1));
        rest[j].s = tdn_vec3_make(1.0f, 1.5f + (float)j, 2.0f);
    }
    tdn_skeleton *skel = NULL;
    tdn_skeleton_create(
        &(tdn_skeleton_desc){ .joint_count = JOINTS, .names = names, .parents = parents, .rest_pose = rest }, &skel,
        NULL, NULL);
    return skel;
}

static tdn_keyed_clip *make_clip(const tdn_skeleton *skel, const tdn_track_desc *tracks, int count, float duration)
{
    tdn_keyed_clip *clip = NULL;
    tdn_error err = { 0 };
    tdn_result r = tdn_keyed_clip_create(
        &(tdn_keyed_clip_desc){ .skeleton = skel, .tracks = tracks, .track_count = count, .duration = duration }, &clip,
        NULL, &err);
    if (!CHECK_EQ_INT(r, TDN_OK))
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
    return clip;
}

static void cubic_spline_matches_hand_worked_hermite(void)
{
    tdn_skeleton *skel = make_skeleton();
    /* Keys at t = 1 and t = 3 (dt = 2), triples (in-tangent, value, out-tangent). The first
     * in-tangent and the last out-tangent are never used: they hold junk that must not leak. */
    const float times[] = { 1.0f, 3.0f };
    const float values[] = {
        99, 99, 99, 1, -2, 0.5f, 2,  0,  -1, /* key 0: a0 (unused), v0, b0 */
        -1, 4,  0,  3, 2,  0.5f, 77, 77, 77, /* key 1: a1, v1, b1 (unused) */
    };
    tdn_track_desc track = { .joint = 1,
                             .target = TDN_TARGET_TRANSLATION,
                             .interp = TDN_INTERP_CUBIC,
                             .key_count = 2,
                             .times = times,
                             .values = values };
    tdn_keyed_clip *clip = make_clip(skel, &track, 1, 0.0f);
    tdn_pose pose;
    tdn_pose_create(JOINTS, &pose, NULL, NULL);
    if (!clip)
        return;
    CHECK_NEAR(tdn_keyed_clip_duration(clip), 3.0f, 0);

    /* s = 0.5 (t = 2): h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125, tangents scaled by dt = 2. */
    tdn_keyed_clip_sample(clip, 2.0f, &pose, NULL, NULL);
    tdn_transform x = tdn_pose_get(&pose, 1);
    CHECK_NEAR(x.t.x, 0.5 * 1 + 0.125 * 2 * 2 + 0.5 * 3 + -0.125 * 2 * -1, 1e-6);     /* 2.75 */
    CHECK_NEAR(x.t.y, 0.5 * -2 + 0.125 * 2 * 0 + 0.5 * 2 + -0.125 * 2 * 4, 1e-6);     /* -1.0 */
    CHECK_NEAR(x.t.z, 0.5 * 0.5 + 0.125 * 2 * -1 + 0.5 * 0.5 + -0.125 * 2 * 0, 1e-6); /* 0.25 */
    CHECK_NEAR(x.t.x, 2.75, 1e-6);

    /* s = 0.25 (t = 1.5): h00 = 0.84375, h10 = 0.140625, h01 = 0.15625, h11 = -0.046875. */
    tdn_keyed_clip_sample(clip, 1.5f, &pose, NULL, NULL);
    x = tdn_pose_get(&pose, 1);
    CHECK_NEAR(x.t.x, 0.84375 * 1 + 0.140625 * 2 * 2 + 0.15625 * 3 + -0.046875 * 2 * -1, 1e-6);
    CHECK_NEAR(x.t.y, 0.84375 * -2 + 0.140625 * 2 * 0 + 0.15625 * 2 + -0.046875 * 2 * 4, 1e-6);

    /* Ends: the values themselves, and the values held outside the keys. */
    tdn_keyed_clip_sample(clip, 1.0f, &pose, NULL, NULL);
    CHECK_NEAR(tdn_pose_get(&pose, 1).t.x, 1.0, 0);
    tdn_keyed_clip_sample(clip, 0.25f, &pose, NULL, NULL); /* before the first key */
    CHECK_NEAR(tdn_pose_get(&pose, 1).t.y, -2.0, 0);
    tdn_keyed_clip_sample(clip, 3.0f, &pose, NULL, NULL);
    CHECK_NEAR(tdn_pose_get(&pose, 1).t.x, 3.0, 0);
    tdn_keyed_clip_sample(clip, 50.0f, &pose, NULL, NULL); /* clamped to the duration */
    CHECK_NEAR(tdn_pose_get(&pose, 1).t.z, 0.5, 0);

    tdn_pose_destroy(&pose);
    tdn_keyed_clip_destroy(clip);
    tdn_skeleton_destroy(skel);
}

static void cubic_rotation_is_normalized(void)
{
    tdn_skeleton *skel = make_skeleton();
    /* Zero tangents: the Hermite is the smoothstep blend of two unit quaternions, which is not
     * unit in between; at s = 0.5 it is (q0 + q1) / 2, normalized. */
    const float times[] = { 0.0f, 1.0f };
    const float c = 0.70710678f;
    const float values[] = { 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, c, c, 0, 0, 0, 0 };
    tdn_track_desc track = { .joint = 0,
                             .target = TDN_TARGET_ROTATION,
                             .interp = TDN_INTERP_CUBIC,
                             .key_count = 2,
                             .times = times,
                             .values = values };
    tdn_keyed_clip *clip = make_clip(skel, &track, 1, 0.0f);
    tdn_pose pose;
    tdn_pose_create(JOINTS, &pose, NULL, NULL);
    if (!clip)
        return;
    tdn_keyed_clip_sample(clip, 0.5f, &pose, NULL, NULL);
    tdn_quat q = tdn_pose_get(&pose, 0).r;
    double n = sqrt(0.5 * 0.5 * c * c + (0.5 + 0.5 * c) * (0.5 + 0.5 * c));
    CHECK_NEAR(q.z, 0.5 * c / n, 1e-6);
    CHECK_NEAR(q.w, (0.5 + 0.5 * c) / n, 1e-6);
    CHECK_NEAR(tdn_quat_dot(q, q), 1.0, 1e-6);
    tdn_pose_destroy(&pose);
    tdn_keyed_clip_destroy(clip);
    tdn_skeleton_destroy(skel);
}

static void step_holds_each_key_until_the_next(void)
{
    tdn_skeleton *skel = make_skeleton();
    const float times[] = { 0.0f, 1.0f, 2.0f };
    const float values[] = { 10, 1, 1, 20, 2, 2, 30, 3, 3 };
    tdn_track_desc track = { .joint = 2,
                             .target = TDN_TARGET_SCALE,
                             .interp = TDN_INTERP_STEP,
                             .key_count = 3,
                             .times = times,
                             .values = values };
    tdn_keyed_clip *clip = make_clip(skel, &track, 1, 0.0f);
    tdn_pose pose;
    tdn_pose_create(JOINTS, &pose, NULL, NULL);
    if (!clip)
        return;
    const float at[] = { 0.0f, 0.5f, 0.999f, 1.0f, 1.7f, 2.0f, 9.0f };
    const float expect[] = { 10, 10, 10, 20, 20, 30, 30 };
    for (int i = 0; i < 7; i++) {
        tdn_keyed_clip_sample(clip, at[i], &pose, NULL, NULL);
        CHECK_NEAR(tdn_pose_get(&pose, 2).s.x, expect[i], 0);
    }
    tdn_pose_destroy(&pose);
    tdn_keyed_clip_destroy(clip);
    tdn_skeleton_destroy(skel);
}

static tdn_quat axis_angle(tdn_vec3 axis, double angle)
{
    double s = sin(angle / 2);
    return tdn_quat_make((float)(axis.x * s), (float)(axis.y * s), (float)(axis.z * s), (float)cos(angle / 2));
}

static void linear_rotation_is_shortest_path_slerp(void)
{
    tdn_skeleton *skel = make_skeleton();
    const tdn_vec3 axis = tdn_vec3_make(1.0f / 3, 2.0f / 3, 2.0f / 3);
    const double pi = 3.14159265358979323846;
    tdn_quat q90 = axis_angle(axis, pi / 2);
    const float times[] = { 0.0f, 1.0f };
    /* Key 0 is the identity scaled by 3 (renormalized on build); key 1 is -q90, the same
     * rotation on the far side: the short way is still 90 degrees. */
    const float values[] = { 0, 0, 0, 3, -q90.x, -q90.y, -q90.z, -q90.w };
    tdn_track_desc track = { .joint = 1,
                             .target = TDN_TARGET_ROTATION,
                             .interp = TDN_INTERP_LINEAR,
                             .key_count = 2,
                             .times = times,
                             .values = values };
    tdn_keyed_clip *clip = make_clip(skel, &track, 1, 0.0f);
    tdn_pose pose;
    tdn_pose_create(JOINTS, &pose, NULL, NULL);
    if (!clip)
        return;
    const float at[] = { 0.0f, 0.25f, 0.5f, 0.9f, 1.0f };
    for (int i = 0; i < 5; i++) {
        tdn_keyed_clip_sample(clip, at[i], &pose, NULL, NULL);
        tdn_quat got = tdn_pose_get(&pose, 1).r;
        CHECK_NEAR(check_quat_angle(got, axis_angle(axis, pi / 2 * at[i])), 0, 2e-6);
        CHECK_NEAR(tdn_quat_dot(got, got), 1, 1e-6);
    }
    tdn_keyed_clip_sample(clip, 0.5f, &pose, NULL, NULL); /* 45 degrees, written out */
    tdn_quat half = tdn_pose_get(&pose, 1).r;
    double sign = half.w < 0 ? -1 : 1;
    CHECK_NEAR(sign * half.w, cos(pi / 8), 1e-6);
    CHECK_NEAR(sign * half.y, 2.0 / 3 * sin(pi / 8), 1e-6);
    tdn_pose_destroy(&pose);
    tdn_keyed_clip_destroy(clip);
    tdn_skeleton_destroy(skel);
}

static void linear_translation_and_clamping(void)
{
    tdn_skeleton *skel = make_skeleton();
    const float times[] = { 0.5f, 1.5f };
    const float values[] = { 1, 2, 3, 5, -2, 3 };
    tdn_track_desc track = { .joint = 0,
                             .target = TDN_TARGET_TRANSLATION,
                             .interp = TDN_INTERP_LINEAR,
                             .key_count = 2,
                             .times = times,
                             .values = values };
    tdn_keyed_clip *clip = make_clip(skel, &track, 1, 2.5f); /* explicit duration past the last key */
    tdn_pose pose;
    tdn_pose_create(JOINTS, &pose, NULL, NULL);
    if (!clip)
        return;
    CHECK_NEAR(tdn_keyed_clip_duration(clip), 2.5, 0);
    struct {
        float t, x, y;
    } cases[] = { { -1.0f, 1, 2 }, { 0.2f, 1, 2 },  { 0.5f, 1, 2 },    { 0.75f, 2, 1 }, { 1.0f, 3, 0 },
                  { 1.5f, 5, -2 }, { 2.0f, 5, -2 }, { 100.0f, 5, -2 }, { NAN, 1, 2 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_EQ_INT(tdn_keyed_clip_sample(clip, cases[i].t, &pose, NULL, NULL), TDN_OK);
        tdn_transform x = tdn_pose_get(&pose, 0);
        CHECK_NEAR(x.t.x, cases[i].x, 1e-6);
        CHECK_NEAR(x.t.y, cases[i].y, 1e-6);
        CHECK_NEAR(x.t.z, 3, 0);
    }
    tdn_pose_destroy(&pose);
    tdn_keyed_clip_destroy(clip);
    tdn_skeleton_destroy(skel);
}

static void absent_tracks_keep_rest_values(void)
{
    tdn_skeleton *skel = make_skeleton();
    const float times[] = { 0.0f, 1.0f };
    const float values[] = { 0, 0, 0, 1, 1, 0, 0, 0 };
    tdn_track_desc track = { .joint = 1,
                             .target = TDN_TARGET_ROTATION,
                             .interp = TDN_INTERP_LINEAR,
                             .key_count = 2,
                             .times = times,
                             .values = values };
    tdn_keyed_clip *clip = make_clip(skel, &track, 1, 0.0f);
    tdn_pose pose;
    tdn_pose_create(JOINTS, &pose, NULL, NULL);
    if (!clip)
        return;
    tdn_keyed_clip_sample(clip, 0.4f, &pose, NULL, NULL);
    for (int j = 0; j < JOINTS; j++) {
        tdn_transform got = tdn_pose_get(&pose, j), rest = tdn_skeleton_rest(skel, j);
        CHECK_NEAR(got.t.x, rest.t.x, 0);
        CHECK_NEAR(got.t.y, rest.t.y, 0);
        CHECK_NEAR(got.s.y, rest.s.y, 0);
        if (j != 1)
            CHECK_NEAR(check_quat_angle(got.r, rest.r), 0, 0);
    }
    /* joint 1's rotation is keyed: 0.4 of a half turn about x (72 degrees), not its rest */
    CHECK_NEAR(check_quat_angle(tdn_pose_get(&pose, 1).r, tdn_quat_make(0.587785252f, 0, 0, 0.809016994f)), 0, 2e-6);
    tdn_pose_destroy(&pose);
    tdn_keyed_clip_destroy(clip);
    tdn_skeleton_destroy(skel);
}

/* Many tracks with irregular key times and every interpolation; sampled along random forward,
 * backward and jumping cursors with hints, and without. Same interval, same arithmetic: the
 * poses must be bit-identical. */
static void hints_match_binary_search(void)
{
    tdn_skeleton *skel = make_skeleton();
    check_rng rng = { 0x9e3779b97f4a7c15ull };
    enum { KEYS = 40 };
    static float times[9][KEYS], values[9][KEYS * 12];
    tdn_track_desc tracks[9];
    for (int i = 0; i < 9; i++) {
        float t = check_rng_float(&rng, 0.0f, 0.2f);
        for (int k = 0; k < KEYS; k++) {
            times[i][k] = t;
            t += check_rng_float(&rng, 0.01f, 0.3f);
        }
        for (int k = 0; k < KEYS * 12; k++)
            values[i][k] = check_rng_float(&rng, -1.0f, 1.0f);
        tracks[i] = (tdn_track_desc){ .joint = i / 3,
                                      .target = (tdn_track_target)(i % 3),
                                      .interp = (tdn_interp)(i % 3 == 0   ? 2
                                                             : i % 3 == 1 ? 0
                                                                          : 1),
                                      .key_count = KEYS,
                                      .times = times[i],
                                      .values = values[i] };
        if (i == 4)
            tracks[i].interp = TDN_INTERP_CUBIC; /* a cubic rotation too */
    }
    tdn_keyed_clip *clip = make_clip(skel, tracks, 9, 0.0f);
    tdn_pose a, b;
    tdn_pose_create(JOINTS, &a, NULL, NULL);
    tdn_pose_create(JOINTS, &b, NULL, NULL);
    if (!clip)
        return;
    const float duration = tdn_keyed_clip_duration(clip);
    int hints[9] = { 0, 1000, -5, 0, 0, 0, 0, 0, 0 }; /* junk hints are clamped, not trusted */
    float t = 0.0f;
    int mismatches = 0;
    for (int step = 0; step < 3000; step++) {
        int mode = (int)(check_rng_u32(&rng) % 10);
        if (mode < 5)
            t += check_rng_float(&rng, 0.0f, 0.05f); /* forward, usually within an interval */
        else if (mode < 8)
            t -= check_rng_float(&rng, 0.0f, 0.05f); /* backward */
        else if (mode < 9)
            t = check_rng_float(&rng, -0.5f, duration + 0.5f); /* jump anywhere, outside too */
        else
            t = times[check_rng_u32(&rng) % 9][check_rng_u32(&rng) % KEYS]; /* exactly on a key */
        if (t < -1.0f || t > duration + 1.0f)
            t = 0.5f * duration;
        tdn_keyed_clip_sample(clip, t, &a, hints, NULL);
        tdn_keyed_clip_sample(clip, t, &b, NULL, NULL);
        mismatches += memcmp(a.data, b.data, tdn_pose_bytes(JOINTS)) != 0;
    }
    CHECK_EQ_INT(mismatches, 0);
    tdn_pose_destroy(&a);
    tdn_pose_destroy(&b);
    tdn_keyed_clip_destroy(clip);
    tdn_skeleton_destroy(skel);
}

static void float_tracks_events_and_duration(void)
{
    tdn_skeleton *skel = make_skeleton();
    const float jt[] = { 0.0f, 2.0f }, jv[] = { 0, 0, 0, 1, 1, 1 };
    tdn_track_desc track = { .joint = 0,
                             .target = TDN_TARGET_TRANSLATION,
                             .interp = TDN_INTERP_LINEAR,
                             .key_count = 2,
                             .times = jt,
                             .values = jv };
    const float ct[] = { 0.0f, 1.0f, 3.0f }, cv[] = { 0.0f, 1.0f, 0.0f };
    const float st[] = { 0.5f, 1.5f }, sv[] = { 7.0f, 9.0f };
    const float ht[] = { 0.0f, 2.0f }, hv[] = { 0, 1, 2, 0, 3, 0 }; /* (in, value, out) */
    tdn_float_track_desc curves[] = {
        { "contact", TDN_INTERP_LINEAR, 3, ct, cv },
        { "weapon", TDN_INTERP_STEP, 2, st, sv },
        { "smooth", TDN_INTERP_CUBIC, 2, ht, hv },
    };
    tdn_event_desc events[] = { { "c", 1.0f },  { "a", 0.25f }, { "d", 1.0f },
                                { "b", 0.25f }, { "e", 3.0f },  { "z", 0.0f } };
    tdn_keyed_clip *clip = NULL;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = skel,
                                                               .tracks = &track,
                                                               .track_count = 1,
                                                               .float_tracks = curves,
                                                               .float_track_count = 3,
                                                               .events = events,
                                                               .event_count = 6 },
                                       &clip, NULL, &err),
                 TDN_OK);
    if (!clip)
        return;
    /* The float track's last key (3 s) is later than any joint key (2 s). */
    CHECK_NEAR(tdn_keyed_clip_duration(clip), 3.0, 0);
    CHECK_EQ_INT(tdn_keyed_clip_key_count(clip), 2 + 3 + 2 + 2);
    CHECK_EQ_INT(tdn_keyed_clip_track_count(clip), 1);
    CHECK(strcmp(tdn_keyed_clip_name(clip), "clip") == 0);
    CHECK_EQ_INT(tdn_keyed_clip_float_track_count(clip), 3);
    CHECK_EQ_INT(tdn_keyed_clip_find_float_track(clip, "weapon"), 1);
    CHECK_EQ_INT(tdn_keyed_clip_find_float_track(clip, "nope"), -1);
    CHECK(strcmp(tdn_keyed_clip_float_track_name(clip, 2), "smooth") == 0);
    CHECK(tdn_keyed_clip_float_track_name(clip, 3) == NULL);
    CHECK_NEAR(tdn_keyed_clip_sample_float(clip, 0, 0.25f), 0.25, 1e-7);
    CHECK_NEAR(tdn_keyed_clip_sample_float(clip, 0, 2.0f), 0.5, 1e-7); /* halfway down from 1 to 0 */
    CHECK_NEAR(tdn_keyed_clip_sample_float(clip, 0, 5.0f), 0.0, 0);
    CHECK_NEAR(tdn_keyed_clip_sample_float(clip, 1, 0.0f), 7.0, 0); /* before the first key */
    CHECK_NEAR(tdn_keyed_clip_sample_float(clip, 1, 1.49f), 7.0, 0);
    CHECK_NEAR(tdn_keyed_clip_sample_float(clip, 1, 1.5f), 9.0, 0);
    /* cubic at s = 0.5, dt = 2: 0.5 * 1 + 0.125 * 2 * 2 + 0.5 * 3 - 0.125 * 2 * 0 = 2.5 */
    CHECK_NEAR(tdn_keyed_clip_sample_float(clip, 2, 1.0f), 2.5, 1e-6);
    CHECK_NEAR(tdn_keyed_clip_sample_float(clip, 3, 1.0f), 0.0, 0); /* bad index */

    /* Events by time, ties in description order. */
    const char *order[] = { "z", "a", "b", "c", "d", "e" };
    const float when[] = { 0.0f, 0.25f, 0.25f, 1.0f, 1.0f, 3.0f };
    CHECK_EQ_INT(tdn_keyed_clip_event_count(clip), 6);
    const float *times = tdn_keyed_clip_event_times(clip);
    for (int i = 0; i < 6; i++) {
        CHECK(strcmp(tdn_keyed_clip_event_name(clip, i), order[i]) == 0);
        CHECK_NEAR(times[i], when[i], 0);
    }
    CHECK(tdn_keyed_clip_event_name(clip, 6) == NULL);
    tdn_keyed_clip_destroy(clip);
    tdn_skeleton_destroy(skel);
}

static void memory_is_counted_and_returned(void)
{
    tdn_skeleton *skel = make_skeleton();
    const float t[] = { 0.0f, 1.0f }, v[] = { 0, 0, 0, 1, 1, 1 };
    tdn_track_desc track = { .joint = 0,
                             .target = TDN_TARGET_TRANSLATION,
                             .interp = TDN_INTERP_LINEAR,
                             .key_count = 2,
                             .times = t,
                             .values = v };
    tdn_float_track_desc curve = { "contact", TDN_INTERP_LINEAR, 2, t, v };
    tdn_event_desc event = { "step", 0.5f };
    tdn_keyed_clip *clip = NULL;
    CHECK_EQ_INT(tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .name = "walk",
                                                               .skeleton = skel,
                                                               .tracks = &track,
                                                               .track_count = 1,
                                                               .float_tracks = &curve,
                                                               .float_track_count = 1,
                                                               .events = &event,
                                                               .event_count = 1 },
                                       &clip, &counting, NULL),
                 TDN_OK);
    CHECK(live_blocks > 0);
    CHECK_EQ_INT((long long)tdn_keyed_clip_memory_size(clip), (long long)live_bytes); /* honest: all of it */
    CHECK(strcmp(tdn_keyed_clip_name(clip), "walk") == 0);
    tdn_keyed_clip_destroy(clip);
    CHECK_EQ_INT(live_blocks, 0);
    CHECK_EQ_INT((long long)live_bytes, 0);
    tdn_skeleton_destroy(skel);
}

/* A failing description: the code, a `where` naming the place, *out left NULL and nothing
 * left allocated. */
static void expect_failure(const tdn_keyed_clip_desc *desc, tdn_result code, const char *where, int line)
{
    tdn_keyed_clip_desc d = *desc;
    tdn_keyed_clip *clip = (tdn_keyed_clip *)&d; /* junk that must be overwritten */
    tdn_error err = { 0 };
    tdn_result r = tdn_keyed_clip_create(&d, &clip, &counting, &err);
    int ok = r == code && clip == NULL && strstr(err.where, where) != NULL && err.message[0] != 0 && live_blocks == 0;
    if (!ok)
        fprintf(stderr, "  line %d: got %s, where '%s', message '%s' (wanted %s at '%s')\n", line, tdn_result_name(r),
                err.where, err.message, tdn_result_name(code), where);
    CHECK(ok);
    if (r == TDN_OK && clip != (tdn_keyed_clip *)&d)
        tdn_keyed_clip_destroy(clip);
}

static void bad_descriptions_are_named(void)
{
    tdn_skeleton *skel = make_skeleton();
    const float t2[] = { 0.0f, 1.0f }, unsorted[] = { 0.0f, 2.0f, 1.0f }, dup[] = { 0.0f, 1.0f, 1.0f };
    const float negative[] = { -0.5f, 1.0f }, nan_time[] = { 0.0f, NAN };
    const float v3[] = { 0, 0, 0, 1, 1, 1, 2, 2, 2 }, v3nan[] = { 0, 0, 0, 1, NAN, 1 };
    const float quats[] = { 0, 0, 0, 1, 0, 0, 0, 0 }, quat_inf[] = { 0, 0, 0, 1, INFINITY, 0, 0, 1 };
    tdn_track_desc good = { .joint = 1,
                            .target = TDN_TARGET_TRANSLATION,
                            .interp = TDN_INTERP_LINEAR,
                            .key_count = 2,
                            .times = t2,
                            .values = v3 };
    tdn_track_desc tracks[2];
    tdn_keyed_clip_desc d = { .skeleton = skel, .tracks = tracks, .track_count = 2 };

    /* NULLs */
    tdn_keyed_clip *out = (tdn_keyed_clip *)&d;
    CHECK_EQ_INT(tdn_keyed_clip_create(NULL, &out, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK(out == NULL);
    CHECK_EQ_INT(tdn_keyed_clip_create(&d, NULL, NULL, NULL), TDN_ERR_ARGUMENT);
    expect_failure(&(tdn_keyed_clip_desc){ .tracks = &good, .track_count = 1 }, TDN_ERR_ARGUMENT, "skeleton", __LINE__);
    expect_failure(&(tdn_keyed_clip_desc){ .skeleton = skel, .track_count = 1 }, TDN_ERR_ARGUMENT, "tracks", __LINE__);
    expect_failure(&(tdn_keyed_clip_desc){ .skeleton = skel, .duration = NAN }, TDN_ERR_ARGUMENT, "duration", __LINE__);
    expect_failure(&(tdn_keyed_clip_desc){ .skeleton = skel, .duration = -1 }, TDN_ERR_ARGUMENT, "duration", __LINE__);

    /* Track 1 broken in each way, track 0 fine. */
    struct {
        tdn_track_desc track;
        tdn_result code;
        const char *where;
    } cases[] = {
        { { .joint = 3, .target = TDN_TARGET_TRANSLATION, .key_count = 2, .times = t2, .values = v3 },
          TDN_ERR_INVALID_DATA,
          "track 1" },
        { { .joint = -1, .target = TDN_TARGET_TRANSLATION, .key_count = 2, .times = t2, .values = v3 },
          TDN_ERR_INVALID_DATA,
          "track 1" },
        { { .joint = 2, .target = TDN_TARGET_SCALE, .key_count = 3, .times = unsorted, .values = v3 },
          TDN_ERR_INVALID_DATA,
          "track 1 (joint 'LeftFoot' scale) key 2" },
        { { .joint = 2, .target = TDN_TARGET_SCALE, .key_count = 3, .times = dup, .values = v3 },
          TDN_ERR_INVALID_DATA,
          "track 1 (joint 'LeftFoot' scale) key 2" },
        { { .joint = 2, .target = TDN_TARGET_SCALE, .key_count = 2, .times = negative, .values = v3 },
          TDN_ERR_INVALID_DATA,
          "track 1 (joint 'LeftFoot' scale) key 0" },
        { { .joint = 2, .target = TDN_TARGET_SCALE, .key_count = 2, .times = nan_time, .values = v3 },
          TDN_ERR_INVALID_DATA,
          "track 1 (joint 'LeftFoot' scale) key 1" },
        { { .joint = 0, .target = TDN_TARGET_TRANSLATION, .key_count = 2, .times = t2, .values = v3nan },
          TDN_ERR_INVALID_DATA,
          "track 1 (joint 'Hips' translation) key 1" },
        { { .joint = 0, .target = TDN_TARGET_ROTATION, .key_count = 2, .times = t2, .values = quats },
          TDN_ERR_INVALID_DATA,
          "track 1 (joint 'Hips' rotation) key 1" },
        { { .joint = 0, .target = TDN_TARGET_ROTATION, .key_count = 2, .times = t2, .values = quat_inf },
          TDN_ERR_INVALID_DATA,
          "track 1 (joint 'Hips' rotation) key 1" },
        { { .joint = 1, .target = TDN_TARGET_TRANSLATION, .key_count = 2, .times = t2, .values = v3 },
          TDN_ERR_INVALID_DATA,
          "track 1 (joint 'Spine' translation)" }, /* the same as track 0 */
        { { .joint = 0, .target = TDN_TARGET_SCALE, .key_count = 0, .times = t2, .values = v3 },
          TDN_ERR_INVALID_DATA,
          "track 1 (joint 'Hips' scale)" },
        { { .joint = 0, .target = TDN_TARGET_SCALE, .key_count = 2, .times = NULL, .values = v3 },
          TDN_ERR_ARGUMENT,
          "track 1 (joint 'Hips' scale)" },
        { { .joint = 0, .target = TDN_TARGET_SCALE, .key_count = 2, .times = t2, .values = NULL },
          TDN_ERR_ARGUMENT,
          "track 1 (joint 'Hips' scale)" },
        { { .joint = 0, .target = (tdn_track_target)7, .key_count = 2, .times = t2, .values = v3 },
          TDN_ERR_ARGUMENT,
          "track 1" },
        { { .joint = 0,
            .target = TDN_TARGET_SCALE,
            .interp = (tdn_interp)9,
            .key_count = 2,
            .times = t2,
            .values = v3 },
          TDN_ERR_ARGUMENT,
          "track 1 (joint 'Hips' scale)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tracks[0] = good;
        tracks[1] = cases[i].track;
        expect_failure(&d, cases[i].code, cases[i].where, __LINE__ + (int)i * 1000);
    }

    /* Float tracks and events. */
    tracks[0] = good;
    d.track_count = 1;
    tdn_float_track_desc curves[2] = { { "contact", TDN_INTERP_LINEAR, 2, t2, v3 },
                                       { "contact", TDN_INTERP_LINEAR, 2, t2, v3 } };
    d.float_tracks = curves;
    d.float_track_count = 2;
    expect_failure(&d, TDN_ERR_INVALID_DATA, "float track 1 ('contact')", __LINE__);
    curves[1] = (tdn_float_track_desc){ "other", TDN_INTERP_LINEAR, 3, unsorted, v3 };
    expect_failure(&d, TDN_ERR_INVALID_DATA, "float track 1 ('other') key 2", __LINE__);
    curves[1] = (tdn_float_track_desc){ NULL, TDN_INTERP_LINEAR, 2, t2, v3 };
    expect_failure(&d, TDN_ERR_ARGUMENT, "float track 1", __LINE__);
    const float float_nan[] = { 0.0f, NAN };
    curves[1] = (tdn_float_track_desc){ "other", TDN_INTERP_LINEAR, 2, t2, float_nan };
    expect_failure(&d, TDN_ERR_INVALID_DATA, "float track 1 ('other') key 1", __LINE__);
    d.float_track_count = 1;
    tdn_event_desc events[2] = { { "ok", 0.5f }, { "late", 1.5f } };
    d.events = events;
    d.event_count = 2;
    expect_failure(&d, TDN_ERR_INVALID_DATA, "event 1 ('late')", __LINE__);
    events[1] = (tdn_event_desc){ "early", -0.1f };
    expect_failure(&d, TDN_ERR_INVALID_DATA, "event 1 ('early')", __LINE__);
    events[1] = (tdn_event_desc){ NULL, 0.1f };
    expect_failure(&d, TDN_ERR_ARGUMENT, "event 1", __LINE__);
    events[1] = (tdn_event_desc){ "late", 1.5f };
    d.duration = 2.0f; /* an explicit duration covers it */
    tdn_keyed_clip *clip = NULL;
    CHECK_EQ_INT(tdn_keyed_clip_create(&d, &clip, NULL, NULL), TDN_OK);

    /* Sampling into a pose of another size. */
    tdn_pose small;
    tdn_pose_create(JOINTS - 1, &small, NULL, NULL);
    CHECK_EQ_INT(tdn_keyed_clip_sample(clip, 0.5f, &small, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_keyed_clip_sample(NULL, 0.5f, &small, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_keyed_clip_sample(clip, 0.5f, NULL, NULL, NULL), TDN_ERR_ARGUMENT);
    tdn_pose_destroy(&small);
    tdn_keyed_clip_destroy(clip);
    tdn_skeleton_destroy(skel);
}

/* The distinct key times of two tracks whose keys partly coincide, in order; a short buffer
 * still learns how many there are. */
static void key_times_are_distinct_and_ordered(void)
{
    tdn_skeleton *skel = make_skeleton();
    static const float ta[3] = { 0.0f, 0.5f, 1.0f }, tb[4] = { 0.0f, 0.25f, 0.5f, 1.5f };
    static const float va[3 * 3] = { 0 }, vb[4 * 4] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    const tdn_track_desc tracks[2] = { { .joint = 0,
                                         .target = TDN_TARGET_TRANSLATION,
                                         .interp = TDN_INTERP_LINEAR,
                                         .key_count = 3,
                                         .times = ta,
                                         .values = va },
                                       { .joint = 1,
                                         .target = TDN_TARGET_ROTATION,
                                         .interp = TDN_INTERP_STEP,
                                         .key_count = 4,
                                         .times = tb,
                                         .values = vb } };
    tdn_keyed_clip *clip = NULL;
    CHECK_EQ_INT(tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = skel, .tracks = tracks, .track_count = 2 },
                                       &clip, NULL, NULL),
                 TDN_OK);
    float times[8] = { 0 }, two[2] = { 0 };
    CHECK_EQ_INT(tdn_keyed_clip_key_times(clip, times, 8), 5);
    const float expect[5] = { 0.0f, 0.25f, 0.5f, 1.0f, 1.5f };
    for (int i = 0; i < 5; i++)
        CHECK(times[i] == expect[i]);
    CHECK_EQ_INT(tdn_keyed_clip_key_times(clip, two, 2), 5);
    CHECK(two[0] == 0.0f && two[1] == 0.25f);
    CHECK_EQ_INT(tdn_keyed_clip_key_times(clip, NULL, 0), 5);
    CHECK_EQ_INT(tdn_keyed_clip_key_times(NULL, times, 8), 0);
    tdn_keyed_clip_destroy(clip);
    tdn_skeleton_destroy(skel);
}

int main(void)
{
    RUN(key_times_are_distinct_and_ordered);
    RUN(cubic_spline_matches_hand_worked_hermite);
    RUN(cubic_rotation_is_normalized);
    RUN(step_holds_each_key_until_the_next);
    RUN(linear_rotation_is_shortest_path_slerp);
    RUN(linear_translation_and_clamping);
    RUN(absent_tracks_keep_rest_values);
    RUN(hints_match_binary_search);
    RUN(float_tracks_events_and_duration);
    RUN(memory_is_counted_and_returned);
    RUN(bad_descriptions_are_named);
    return check_summary();
}
