/* Runtime clips: measured against the keyed clip they come from (property), the report's
 * error is real, 16-bit and float storage, constant detection, held steps, additive clips
 * against tdn_additive_apply, float tracks and events, and bad descriptions. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"

/* A chain of JOINTS joints 0.3 apart along y, so rotation errors show up as position errors. */
enum { JOINTS = 6, KEYS = 13 };
static tdn_skeleton *make_chain(void)
{
    static const char *const names[JOINTS] = { "root", "hip", "knee", "ankle", "toe", "tip" };
    int parents[JOINTS];
    tdn_transform rest[JOINTS];
    for (int j = 0; j < JOINTS; j++) {
        parents[j] = j - 1;
        rest[j] = tdn_transform_identity();
        rest[j].t.y = j ? 0.3f : 1.0f;
    }
    tdn_skeleton *skel = NULL;
    tdn_skeleton_create(
        &(tdn_skeleton_desc){ .joint_count = JOINTS, .names = names, .parents = parents, .rest_pose = rest }, &skel,
        NULL, NULL);
    return skel;
}

/* Smooth random linear tracks on every joint (translation, rotation, scale), keys every 0.1 s
 * shifted by `offset` (off the frame grid unless 0). */
typedef struct random_clip {
    float times[KEYS];
    float values[3][JOINTS][KEYS * 4];
    tdn_track_desc tracks[3 * JOINTS];
} random_clip;

static tdn_keyed_clip *make_random(random_clip *rc, const tdn_skeleton *skel, uint64_t seed, float amplitude,
                                   float offset)
{
    check_rng rng = { seed };
    for (int k = 0; k < KEYS; k++)
        rc->times[k] = 0.1f * (float)k + (k ? offset : 0.0f);
    for (int j = 0; j < JOINTS; j++) {
        tdn_vec3 axis = tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1));
        float angle = check_rng_float(&rng, -1, 1), speed = check_rng_float(&rng, -1, 1);
        for (int k = 0; k < KEYS; k++) {
            float *t = &rc->values[0][j][k * 3], *r = &rc->values[1][j][k * 4], *s = &rc->values[2][j][k * 3];
            float phase = rc->times[k] * 3.0f + (float)j;
            t[0] = amplitude * sinf(phase);
            t[1] = (j ? 0.3f : 1.0f) + 0.1f * amplitude * cosf(phase);
            t[2] = 0.05f * (float)j;
            tdn_quat q = tdn_quat_from_axis_angle(axis, angle + speed * amplitude * rc->times[k] * 4.0f);
            if (k % 3 == 1)
                q = tdn_quat_negate(q); /* same rotation, other sign: continuity is the clip's job */
            r[0] = q.x, r[1] = q.y, r[2] = q.z, r[3] = q.w;
            s[0] = 1.0f + 0.2f * amplitude * sinf(phase * 0.5f);
            s[1] = s[2] = 1.0f;
        }
        for (int target = 0; target < 3; target++)
            rc->tracks[j * 3 + target] = (tdn_track_desc){ .joint = j,
                                                           .target = (tdn_track_target)target,
                                                           .interp = TDN_INTERP_LINEAR,
                                                           .key_count = KEYS,
                                                           .times = rc->times,
                                                           .values = rc->values[target][j] };
    }
    tdn_keyed_clip *clip = NULL;
    tdn_keyed_clip_create(
        &(tdn_keyed_clip_desc){ .name = "random", .skeleton = skel, .tracks = rc->tracks, .track_count = 3 * JOINTS },
        &clip, NULL, NULL);
    return clip;
}

/* The largest model-space position and local rotation differences between two poses. */
static void pose_errors(const tdn_skeleton *skel, const tdn_pose *a, const tdn_pose *b, double *position,
                        double *rotation)
{
    tdn_mat4 ma[JOINTS], mb[JOINTS];
    tdn_model_space(skel, a, NULL, ma, NULL);
    tdn_model_space(skel, b, NULL, mb, NULL);
    *position = *rotation = 0;
    for (int j = 0; j < JOINTS; j++) {
        double dx = ma[j].m[12] - mb[j].m[12], dy = ma[j].m[13] - mb[j].m[13], dz = ma[j].m[14] - mb[j].m[14];
        *position = fmax(*position, sqrt(dx * dx + dy * dy + dz * dz));
        *rotation = fmax(*rotation, check_quat_angle(tdn_pose_get(a, j).r, tdn_pose_get(b, j).r));
    }
}

static void runtime_is_within_its_reported_error(void)
{
    tdn_skeleton *skel = make_chain();
    static random_clip rc;
    tdn_keyed_clip *keyed = make_random(&rc, skel, 0x1234567ull, 1.0f, 0.0137f);
    tdn_pose expect, got;
    tdn_pose_create(JOINTS, &expect, NULL, NULL);
    tdn_pose_create(JOINTS, &got, NULL, NULL);
    tdn_clip_storage storages[2] = { TDN_STORAGE_INT16, TDN_STORAGE_FLOAT32 };
    for (int s = 0; s < 2; s++) {
        tdn_clip *clip = NULL;
        tdn_clip_report rep;
        tdn_error err = { 0 };
        tdn_result r = tdn_clip_create(&(tdn_clip_desc){ .source = keyed,
                                                         .storage = storages[s],
                                                         .position_tolerance = 0.05f,
                                                         .rotation_tolerance = 0.05f,
                                                         .report = &rep },
                                       &clip, NULL, &err);
        if (!CHECK_EQ_INT(r, TDN_OK)) {
            fprintf(stderr, "  %s: %s\n", err.where, err.message);
            continue;
        }
        CHECK_EQ_INT(rep.storage, storages[s]);
        CHECK_EQ_INT(rep.frame_count, 38); /* ceil(1.2137 * 30) + 1 */
        CHECK(rep.max_position_error > 0 && rep.max_rotation_error > 0);
        check_rng rng = { 42 };
        double worst_position = 0, worst_rotation = 0;
        for (int i = 0; i < 2000; i++) {
            float t = check_rng_float(&rng, -0.1f, tdn_clip_duration(clip) + 0.1f);
            tdn_keyed_clip_sample(keyed, t, &expect, NULL, NULL);
            tdn_clip_sample(clip, t, &got, NULL);
            double p, q;
            pose_errors(skel, &expect, &got, &p, &q);
            worst_position = fmax(worst_position, p);
            worst_rotation = fmax(worst_rotation, q);
            for (int j = 0; j < JOINTS; j++) { /* rotations come out unit */
                tdn_quat u = tdn_pose_get(&got, j).r;
                CHECK_NEAR(tdn_quat_dot(u, u), 1.0, 2e-6);
            }
        }
        /* Random times never see more than the build measured (float noise aside), and the
         * measurement is not wildly pessimistic either. */
        CHECK(worst_position <= rep.max_position_error * 1.02 + 1e-6);
        CHECK(worst_rotation <= rep.max_rotation_error * 1.02 + 1e-6);
        CHECK(worst_position >= rep.max_position_error * 0.5);
        printf("  %s: %d frames, %d animated, %d constant, %zu bytes; position error %.3g (random %.3g), "
               "rotation %.3g rad (random %.3g), scale %.3g\n",
               s ? "float32" : "int16", rep.frame_count, rep.animated_components, rep.constant_components, rep.bytes,
               rep.max_position_error, worst_position, rep.max_rotation_error, worst_rotation, rep.max_scale_error);
        tdn_clip_destroy(clip);
    }
    tdn_pose_destroy(&expect);
    tdn_pose_destroy(&got);
    tdn_keyed_clip_destroy(keyed);
    tdn_skeleton_destroy(skel);
}

/* One translation track on `joint` with the given keys. */
static tdn_keyed_clip *make_translation_clip(const tdn_skeleton *skel, int joint, tdn_interp interp, int count,
                                             const float *times, const float *values)
{
    tdn_track_desc track = { .joint = joint,
                             .target = TDN_TARGET_TRANSLATION,
                             .interp = interp,
                             .key_count = count,
                             .times = times,
                             .values = values };
    tdn_keyed_clip *clip = NULL;
    tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = skel, .tracks = &track, .track_count = 1 }, &clip, NULL,
                          NULL);
    return clip;
}

/* A 1-unit spike 20 ms wide between frames at 10 Hz: the frames never see it. */
static void report_error_is_real(void)
{
    tdn_skeleton *skel = make_chain();
    const float times[] = { 0.0f, 0.44f, 0.45f, 0.46f, 1.0f };
    const float values[] = { 0, 0.3f, 0, 0, 0.3f, 0, 1, 0.3f, 0, 0, 0.3f, 0, 0, 0.3f, 0 };
    tdn_keyed_clip *keyed = make_translation_clip(skel, 2, TDN_INTERP_LINEAR, 5, times, values);
    tdn_clip *clip = (tdn_clip *)skel;
    tdn_clip_report rep;
    tdn_error err = { 0 };
    tdn_result r = tdn_clip_create(
        &(tdn_clip_desc){ .source = keyed, .sample_rate = 10, .storage = TDN_STORAGE_FLOAT32, .report = &rep }, &clip,
        NULL, &err);
    CHECK_EQ_INT(r, TDN_ERR_TOLERANCE);
    CHECK(clip == NULL);
    /* The key at 0.45 s is measured: keyed 1, runtime 0 there, for the knee and every joint below. */
    CHECK_NEAR(rep.max_position_error, 1.0, 1e-5);
    CHECK_NEAR(rep.position_error_time, 0.45, 1e-6);
    CHECK(rep.position_error_joint >= 2);
    CHECK_EQ_INT(rep.frame_count, 11);
    CHECK(strstr(err.where, "joint") && strstr(err.where, "0.45"));
    printf("  %s: %s\n", err.where, err.message);

    /* Accepted with a loose tolerance, the error is there to see. */
    r = tdn_clip_create(
        &(tdn_clip_desc){ .source = keyed, .sample_rate = 10, .position_tolerance = 1.5f, .report = &rep }, &clip, NULL,
        NULL);
    CHECK_EQ_INT(r, TDN_OK);
    tdn_pose a, b;
    tdn_pose_create(JOINTS, &a, NULL, NULL);
    tdn_pose_create(JOINTS, &b, NULL, NULL);
    tdn_keyed_clip_sample(keyed, 0.45f, &a, NULL, NULL);
    tdn_clip_sample(clip, 0.45f, &b, NULL);
    CHECK_NEAR(tdn_pose_get(&a, 2).t.x - tdn_pose_get(&b, 2).t.x, 1.0, 1e-4);
    /* and at 100 Hz the spike is caught: frames on 0.44, 0.45, 0.46 */
    tdn_clip_destroy(clip);
    r = tdn_clip_create(&(tdn_clip_desc){ .source = keyed, .sample_rate = 100, .report = &rep }, &clip, NULL, NULL);
    CHECK_EQ_INT(r, TDN_OK);
    CHECK(rep.max_position_error < 1e-3f);
    tdn_pose_destroy(&a);
    tdn_pose_destroy(&b);
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(keyed);
    tdn_skeleton_destroy(skel);
}

static void int16_and_float32_are_both_measured(void)
{
    tdn_skeleton *skel = make_chain();
    static random_clip rc;
    tdn_keyed_clip *keyed = make_random(&rc, skel, 99, 1.0f, 0.0f);
    tdn_clip *c16 = NULL, *c32 = NULL, *cauto = NULL;
    tdn_clip_report r16, r32, rauto;
    /* Keys on the frame grid: resampling error is small, so quantization shows. */
    tdn_clip_desc d = { .source = keyed, .sample_rate = 30 };
    d.storage = TDN_STORAGE_INT16;
    d.report = &r16;
    CHECK_EQ_INT(tdn_clip_create(&d, &c16, &counting, NULL), TDN_OK);
    CHECK_EQ_INT((long long)tdn_clip_memory_size(c16), (long long)live_bytes); /* honest: every byte allocated */
    d.storage = TDN_STORAGE_FLOAT32;
    d.report = &r32;
    CHECK_EQ_INT(tdn_clip_create(&d, &c32, &counting, NULL), TDN_OK);
    d.storage = TDN_STORAGE_AUTO;
    d.report = &rauto;
    CHECK_EQ_INT(tdn_clip_create(&d, &cauto, &counting, NULL), TDN_OK);
    if (!c16 || !c32 || !cauto)
        return;
    CHECK_EQ_INT(r16.storage, TDN_STORAGE_INT16);
    CHECK_EQ_INT(r32.storage, TDN_STORAGE_FLOAT32);
    CHECK_EQ_INT(rauto.storage, TDN_STORAGE_INT16); /* within the default 1e-3 */
    CHECK_EQ_INT((long long)r16.bytes, (long long)tdn_clip_memory_size(c16));
    CHECK_EQ_INT((long long)r32.bytes, (long long)tdn_clip_memory_size(c32));
    /* Frame data: 2 bytes against 4 per animated component per frame. */
    long long frame_bytes = (long long)r16.frame_count * r16.animated_components;
    CHECK(r32.bytes - r16.bytes >= (size_t)(2 * frame_bytes - 8 * r16.animated_components - 64));
    CHECK(r32.bytes >= (size_t)(4 * frame_bytes));
    /* 16 bits add error on top of resampling; a rotation component spans at most [-1, 1], so a
     * step of 2 / 65535 bounds each component's rounding. */
    CHECK(r16.max_rotation_error > r32.max_rotation_error);
    CHECK(r16.max_rotation_error < 4 * 2.0 / 65535.0 + r32.max_rotation_error);
    printf(
        "  int16 %zu bytes: position %.3g rotation %.3g scale %.3g; float32 %zu bytes: position %.3g rotation %.3g scale %.3g\n",
        r16.bytes, r16.max_position_error, r16.max_rotation_error, r16.max_scale_error, r32.bytes,
        r32.max_position_error, r32.max_rotation_error, r32.max_scale_error);

    /* A rotation tolerance between the two: AUTO falls back to float32, INT16 refuses. */
    tdn_clip *between = NULL;
    d.rotation_tolerance = 0.5f * (r16.max_rotation_error + r32.max_rotation_error);
    d.report = &rauto;
    CHECK_EQ_INT(tdn_clip_create(&d, &between, &counting, NULL), TDN_OK);
    CHECK_EQ_INT(rauto.storage, TDN_STORAGE_FLOAT32);
    tdn_clip_destroy(between);
    d.storage = TDN_STORAGE_INT16;
    tdn_error err = { 0 };
    d.report = &rauto;
    CHECK_EQ_INT(tdn_clip_create(&d, &between, &counting, &err), TDN_ERR_TOLERANCE);
    CHECK(between == NULL);
    CHECK_NEAR(rauto.max_rotation_error, r16.max_rotation_error, 0);
    CHECK(strstr(err.message, "rotation") != NULL);
    tdn_clip_destroy(c16);
    tdn_clip_destroy(c32);
    tdn_clip_destroy(cauto);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_keyed_clip_destroy(keyed);
    tdn_skeleton_destroy(skel);
}

static void constant_components_are_stored_once(void)
{
    tdn_skeleton *skel = make_chain();
    /* The knee turns about z; the ankle is keyed but never moves; nothing else is keyed. */
    const float times[] = { 0.0f, 1.0f };
    const float turn[] = { 0, 0, 0, 1, 0, 0, 0.5f, 0.8660254f };
    const float still[] = { 0.1f, 0.2f, 0.3f, 0.1f, 0.2f, 0.3f };
    tdn_track_desc tracks[] = {
        { .joint = 2,
          .target = TDN_TARGET_ROTATION,
          .interp = TDN_INTERP_LINEAR,
          .key_count = 2,
          .times = times,
          .values = turn },
        { .joint = 3,
          .target = TDN_TARGET_TRANSLATION,
          .interp = TDN_INTERP_LINEAR,
          .key_count = 2,
          .times = times,
          .values = still },
    };
    tdn_keyed_clip *keyed = NULL;
    tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = skel, .tracks = tracks, .track_count = 2 }, &keyed, NULL,
                          NULL);
    tdn_clip *clip = NULL;
    tdn_clip_report rep;
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed, .report = &rep }, &clip, NULL, NULL), TDN_OK);
    if (!clip)
        return;
    CHECK_EQ_INT(rep.animated_components, 2); /* knee RZ and RW */
    CHECK_EQ_INT(rep.constant_components, 10 * JOINTS - 2);
    CHECK_EQ_INT(rep.frame_count, 31);
    tdn_pose pose;
    tdn_pose_create(JOINTS, &pose, NULL, NULL);
    tdn_clip_sample(clip, 0.5f, &pose, NULL);
    tdn_transform ankle = tdn_pose_get(&pose, 3), root = tdn_pose_get(&pose, 0), knee = tdn_pose_get(&pose, 2);
    CHECK_NEAR(ankle.t.x, 0.1, 1e-7);
    CHECK_NEAR(ankle.t.z, 0.3, 1e-7);
    CHECK_NEAR(root.t.y, 1.0, 1e-7); /* rest */
    CHECK_NEAR(root.s.x, 1.0, 1e-7);
    CHECK_NEAR(knee.t.y, 0.3, 1e-7);
    CHECK_NEAR(check_quat_angle(knee.r, tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), TDN_PI / 6)), 0, 2e-5);
    tdn_pose_destroy(&pose);
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(keyed);
    tdn_skeleton_destroy(skel);
}

/* STEP tracks are held, not lerped: keys on the frame grid come out exact, between frames too. */
static void step_tracks_are_held(void)
{
    tdn_skeleton *skel = make_chain();
    const float times[] = { 0.0f, 1.0f / 3.0f, 0.7f, 1.0f };
    const float values[] = { 0, 0.3f, 0, 1, 0.3f, 0, -2, 0.3f, 0, 5, 0.3f, 0 };
    tdn_keyed_clip *keyed = make_translation_clip(skel, 1, TDN_INTERP_STEP, 4, times, values);
    tdn_clip *clip = NULL;
    tdn_clip_report rep;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed, .position_tolerance = 1e-5f, .report = &rep },
                                 &clip, NULL, &err),
                 TDN_OK);
    if (!clip) {
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
        return;
    }
    CHECK(rep.max_position_error <= 1e-5f);
    tdn_pose pose;
    tdn_pose_create(JOINTS, &pose, NULL, NULL);
    const float at[] = { 0.0f, 0.3f, 1.0f / 3.0f, 0.34f, 0.69f, 0.7f, 0.9999f, 1.0f };
    const float expect[] = { 0, 0, 1, 1, 1, -2, -2, 5 };
    for (int i = 0; i < 8; i++) {
        tdn_clip_sample(clip, at[i], &pose, NULL);
        CHECK_NEAR(tdn_pose_get(&pose, 1).t.x, expect[i], 1e-4);
    }
    tdn_clip_destroy(clip);
    /* Off the grid (10 Hz has no frame at 1/3 s) the late jump is measured and refused. */
    CHECK_EQ_INT(
        tdn_clip_create(&(tdn_clip_desc){ .source = keyed, .sample_rate = 10, .report = &rep }, &clip, NULL, NULL),
        TDN_ERR_TOLERANCE);
    CHECK_NEAR(rep.max_position_error, 1.0, 1e-4);
    tdn_pose_destroy(&pose);
    tdn_keyed_clip_destroy(keyed);
    tdn_skeleton_destroy(skel);
}

/* An additive clip applied to its reference with tdn_additive_apply gives back the source;
 * the same by hand, A = D * R, for one joint. */
static void additive_reproduces_the_source(void)
{
    tdn_skeleton *skel = make_chain();
    static random_clip source_rc, reference_rc;
    tdn_keyed_clip *source = make_random(&source_rc, skel, 7, 1.0f, 0.0f);
    tdn_keyed_clip *reference = make_random(&reference_rc, skel, 8, 0.5f, 0.0f);
    tdn_pose ref_pose, s, r, d, a;
    tdn_pose *poses[] = { &ref_pose, &s, &r, &d, &a };
    for (int i = 0; i < 5; i++)
        tdn_pose_create(JOINTS, poses[i], NULL, NULL);
    tdn_keyed_clip_sample(reference, 0.4f, &ref_pose, NULL, NULL);

    enum { BY_CLIP, BY_POSE, BY_FIRST_FRAME, BY_OWN_FIRST_FRAME };
    for (int mode = 0; mode < 4; mode++) {
        /* D = S * R^-1 of two moving clips is curved between keys: 30 Hz leaves ~1e-3 here. */
        tdn_clip_desc desc = { .source = source, .position_tolerance = 5e-3f };
        if (mode == BY_CLIP || mode == BY_FIRST_FRAME)
            desc.additive_reference_clip = reference;
        if (mode == BY_POSE)
            desc.additive_reference_pose = &ref_pose;
        desc.additive_reference_first_frame = mode >= BY_FIRST_FRAME;
        tdn_clip *clip = NULL;
        tdn_clip_report rep;
        tdn_error err = { 0 };
        desc.report = &rep;
        if (!CHECK_EQ_INT(tdn_clip_create(&desc, &clip, NULL, &err), TDN_OK)) {
            fprintf(stderr, "  mode %d: %s: %s\n", mode, err.where, err.message);
            continue;
        }
        CHECK(tdn_clip_is_additive(clip));
        check_rng rng = { 5 };
        double worst_position = 0, worst_rotation = 0;
        for (int i = 0; i < 300; i++) {
            float t = check_rng_float(&rng, 0.0f, tdn_clip_duration(clip));
            float rt = mode == BY_CLIP ? t : mode == BY_POSE ? -1.0f : 0.0f;
            const tdn_keyed_clip *rclip = mode == BY_OWN_FIRST_FRAME ? source : reference;
            if (rt >= 0)
                tdn_keyed_clip_sample(rclip, rt, &r, NULL, NULL);
            else
                tdn_pose_copy(&r, &ref_pose, NULL);
            tdn_keyed_clip_sample(source, t, &s, NULL, NULL);
            tdn_clip_sample(clip, t, &d, NULL);
            CHECK_EQ_INT(tdn_additive_apply(&r, &d, 1.0f, NULL, &a, NULL), TDN_OK);
            double p, q;
            pose_errors(skel, &s, &a, &p, &q);
            worst_position = fmax(worst_position, p);
            worst_rotation = fmax(worst_rotation, q);
            if (i == 0) { /* by hand for the knee: t = R.t + D.t, r = D.r * R.r, s = R.s * D.s */
                tdn_transform dk = tdn_pose_get(&d, 2), rk = tdn_pose_get(&r, 2), sk = tdn_pose_get(&s, 2);
                CHECK_NEAR(rk.t.x + dk.t.x, sk.t.x, 2e-4);
                CHECK_NEAR(rk.s.x * dk.s.x, sk.s.x, 2e-4);
                CHECK_NEAR(check_quat_angle(tdn_quat_mul(dk.r, rk.r), sk.r), 0, 2e-4);
            }
        }
        CHECK(worst_position <= rep.max_position_error * 1.02 + 1e-5);
        CHECK(worst_rotation <= rep.max_rotation_error * 1.02 + 1e-5);
        CHECK(worst_position < 5e-3);
        /* Against its own first frame the difference at t = 0 is the identity. */
        if (mode == BY_OWN_FIRST_FRAME) {
            tdn_clip_sample(clip, 0.0f, &d, NULL);
            for (int j = 0; j < JOINTS; j++) {
                tdn_transform x = tdn_pose_get(&d, j);
                CHECK_NEAR(x.t.x, 0, 1e-4);
                CHECK_NEAR(x.s.x, 1, 1e-4);
                CHECK_NEAR(check_quat_angle(x.r, tdn_quat_identity()), 0, 1e-4);
            }
        }
        tdn_clip_destroy(clip);
    }
    for (int i = 0; i < 5; i++)
        tdn_pose_destroy(poses[i]);
    tdn_keyed_clip_destroy(source);
    tdn_keyed_clip_destroy(reference);
    tdn_skeleton_destroy(skel);
}

static void float_tracks_and_events_are_copied(void)
{
    tdn_skeleton *skel = make_chain();
    const float times[] = { 0.0f, 1.0f, 2.0f }, values[] = { 0, 0, 0, 1, 0, 0, 0, 0, 0 };
    const float contact[] = { 1.0f, 0.0f, 1.0f };
    tdn_track_desc track = {
        .joint = 0, .target = TDN_TARGET_TRANSLATION, .key_count = 3, .times = times, .values = values
    };
    tdn_float_track_desc curves[] = { { "contact", TDN_INTERP_LINEAR, 3, times, contact },
                                      { "held", TDN_INTERP_STEP, 3, times, values } };
    tdn_event_desc events[] = { { "land", 1.5f }, { "step", 0.5f }, { "step2", 0.5f } };
    tdn_keyed_clip *keyed = NULL;
    CHECK_EQ_INT(tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = skel,
                                                               .tracks = &track,
                                                               .track_count = 1,
                                                               .float_tracks = curves,
                                                               .float_track_count = 2,
                                                               .events = events,
                                                               .event_count = 3 },
                                       &keyed, NULL, NULL),
                 TDN_OK);
    tdn_clip *clip = NULL;
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed }, &clip, &counting, NULL), TDN_OK);
    if (!clip)
        return;
    float expect[20];
    for (int i = 0; i < 20; i++)
        expect[i] = tdn_keyed_clip_sample_float(keyed, 0, 0.11f * (float)i);
    CHECK_EQ_INT((long long)tdn_clip_memory_size(clip), (long long)live_bytes);
    tdn_keyed_clip_destroy(keyed); /* the runtime clip holds its own copy */
    CHECK_EQ_INT(tdn_clip_float_track_count(clip), 2);
    CHECK_EQ_INT(tdn_clip_find_float_track(clip, "held"), 1);
    CHECK_EQ_INT(tdn_clip_find_float_track(clip, "missing"), -1);
    CHECK(strcmp(tdn_clip_float_track_name(clip, 0), "contact") == 0);
    for (int i = 0; i < 20; i++)
        CHECK_NEAR(tdn_clip_sample_float(clip, 0, 0.11f * (float)i), expect[i], 0);
    CHECK_NEAR(tdn_clip_sample_float(clip, 0, 0.5f), 0.5, 1e-7);
    CHECK_NEAR(tdn_clip_sample_float(clip, 1, 1.5f), 0.0, 0);
    CHECK_NEAR(tdn_clip_sample_float(clip, 1, 0.5f), 0.0, 0);
    CHECK_EQ_INT(tdn_clip_event_count(clip), 3);
    CHECK(strcmp(tdn_clip_event_name(clip, 0), "step") == 0);
    CHECK(strcmp(tdn_clip_event_name(clip, 1), "step2") == 0);
    CHECK(strcmp(tdn_clip_event_name(clip, 2), "land") == 0);
    CHECK_NEAR(tdn_clip_event_times(clip)[2], 1.5, 0);
    CHECK_NEAR(tdn_clip_duration(clip), 2.0, 0);
    CHECK_NEAR(tdn_clip_sample_rate(clip), 30.0, 1e-4);
    CHECK_EQ_INT(tdn_clip_joint_count(clip), JOINTS);
    CHECK(strcmp(tdn_clip_name(clip), "clip") == 0);
    tdn_clip_destroy(clip);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_skeleton_destroy(skel);
}

static void zero_length_clips_have_one_frame(void)
{
    tdn_skeleton *skel = make_chain();
    const float times[] = { 0.0f }, values[] = { 4, 5, 6 };
    tdn_keyed_clip *keyed = make_translation_clip(skel, 3, TDN_INTERP_LINEAR, 1, times, values);
    tdn_clip *clip = NULL;
    tdn_clip_report rep;
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed, .report = &rep }, &clip, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(rep.frame_count, 1);
    tdn_pose pose;
    tdn_pose_create(JOINTS, &pose, NULL, NULL);
    const float at[] = { -1.0f, 0.0f, 3.0f, NAN };
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_INT(tdn_clip_sample(clip, at[i], &pose, NULL), TDN_OK);
        CHECK_NEAR(tdn_pose_get(&pose, 3).t.y, 5, 0);
    }
    tdn_pose_destroy(&pose);
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(keyed);
    tdn_skeleton_destroy(skel);
}

static void bad_descriptions_are_named(void)
{
    tdn_skeleton *skel = make_chain();
    const float times[] = { 0.0f, 1.0f }, values[] = { 0, 0, 0, 1, 1, 1 };
    tdn_keyed_clip *keyed = make_translation_clip(skel, 1, TDN_INTERP_LINEAR, 2, times, values);
    tdn_skeleton *other = NULL;
    const int parents[2] = { -1, 0 };
    tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 2, .parents = parents }, &other, NULL, NULL);
    tdn_keyed_clip *other_clip = NULL;
    tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = other }, &other_clip, NULL, NULL);
    tdn_pose small, zero_scale;
    tdn_pose_create(JOINTS - 1, &small, NULL, NULL);
    tdn_pose_create(JOINTS, &zero_scale, NULL, NULL);
    tdn_transform flat = tdn_transform_identity();
    flat.s.y = 0.0f;
    tdn_pose_set(&zero_scale, 4, &flat);

    struct {
        tdn_clip_desc desc;
        tdn_result code;
        const char *where;
    } cases[] = {
        { { .source = NULL }, TDN_ERR_ARGUMENT, "source" },
        { { .source = keyed, .sample_rate = -1 }, TDN_ERR_ARGUMENT, "sample_rate" },
        { { .source = keyed, .sample_rate = NAN }, TDN_ERR_ARGUMENT, "sample_rate" },
        { { .source = keyed, .sample_rate = 1e9f }, TDN_ERR_ARGUMENT, "sample_rate" },
        { { .source = keyed, .position_tolerance = NAN }, TDN_ERR_ARGUMENT, "position_tolerance" },
        { { .source = keyed, .rotation_tolerance = -1 }, TDN_ERR_ARGUMENT, "rotation_tolerance" },
        { { .source = keyed, .storage = (tdn_clip_storage)5 }, TDN_ERR_ARGUMENT, "storage" },
        { { .source = keyed, .additive_reference_pose = &small }, TDN_ERR_ARGUMENT, "additive_reference_pose" },
        { { .source = keyed, .additive_reference_pose = &zero_scale, .additive_reference_clip = keyed },
          TDN_ERR_ARGUMENT,
          "additive_reference_pose" },
        { { .source = keyed, .additive_reference_clip = other_clip }, TDN_ERR_ARGUMENT, "additive_reference_clip" },
        { { .source = keyed, .additive_reference_pose = &zero_scale }, TDN_ERR_INVALID_DATA, "joint 4 ('toe')" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tdn_clip_desc d = cases[i].desc;
        tdn_clip *clip = (tdn_clip *)skel; /* junk that must be overwritten */
        tdn_error err = { 0 };
        tdn_result r = tdn_clip_create(&d, &clip, &counting, &err);
        int ok = r == cases[i].code && clip == NULL && strstr(err.where, cases[i].where) && err.message[0] &&
                 live_blocks == 0;
        if (!ok)
            fprintf(stderr, "  case %zu: got %s, where '%s', message '%s'\n", i, tdn_result_name(r), err.where,
                    err.message);
        CHECK(ok);
    }
    tdn_clip *clip = (tdn_clip *)skel;
    CHECK_EQ_INT(tdn_clip_create(NULL, &clip, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK(clip == NULL);
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed }, NULL, NULL, NULL), TDN_ERR_ARGUMENT);

    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed }, &clip, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_clip_sample(clip, 0.5f, &small, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_clip_sample(NULL, 0.5f, &zero_scale, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_clip_sample(clip, 0.5f, NULL, NULL), TDN_ERR_ARGUMENT);
    tdn_clip_destroy(clip);
    tdn_clip_destroy(NULL);
    tdn_pose_destroy(&small);
    tdn_pose_destroy(&zero_scale);
    tdn_keyed_clip_destroy(other_clip);
    tdn_keyed_clip_destroy(keyed);
    tdn_skeleton_destroy(other);
    tdn_skeleton_destroy(skel);
}

/* With no rate given, an evenly keyed source is resampled on its own grid (43 keys/s here, a
 * rate 30 frames/s cuts across) and sparse keys get at least 30 frames/s. The 30 frames/s build
 * of the same clip shows what the default avoids. */
static void default_rate_follows_the_source_grid(void)
{
    tdn_skeleton *skel = make_chain();
    enum { N = 31 };
    float times[N], rotations[N * 4];
    for (int k = 0; k < N; k++) {
        times[k] = 0.7f * (float)k / (N - 1);
        tdn_quat q = tdn_quat_from_axis_angle(tdn_vec3_make(1, 0, 0), 0.8f * sinf(2 * TDN_PI * (float)k / (N - 1)));
        memcpy(&rotations[k * 4], &q, sizeof q);
    }
    tdn_track_desc track = {
        .joint = 1, .target = TDN_TARGET_ROTATION, .key_count = N, .times = times, .values = rotations
    };
    tdn_keyed_clip *keyed = NULL;
    tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = skel, .tracks = &track, .track_count = 1 }, &keyed, NULL,
                          NULL);
    tdn_clip *clip = NULL;
    tdn_clip_report rep;
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed, .report = &rep }, &clip, NULL, NULL), TDN_OK);
    CHECK_NEAR(tdn_clip_sample_rate(clip), (N - 1) / 0.7, 1e-3);
    CHECK_EQ_INT(rep.frame_count, N);
    CHECK(rep.max_position_error < 1e-4f);
    tdn_clip_destroy(clip);
    clip = NULL;
    CHECK_EQ_INT(
        tdn_clip_create(&(tdn_clip_desc){ .source = keyed, .sample_rate = 30, .report = &rep }, &clip, NULL, NULL),
        TDN_ERR_TOLERANCE);
    CHECK(clip == NULL);
    CHECK(rep.max_position_error > 1e-3f);
    tdn_keyed_clip_destroy(keyed);

    /* Two keys a second apart: 1 key/s times 30. */
    const float two_times[2] = { 0, 1 }, two_rot[8] = { 0, 0, 0, 1, 0, 0, 0.70710678f, 0.70710678f };
    track = (tdn_track_desc){
        .joint = 2, .target = TDN_TARGET_ROTATION, .key_count = 2, .times = two_times, .values = two_rot
    };
    tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = skel, .tracks = &track, .track_count = 1 }, &keyed, NULL,
                          NULL);
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed, .report = &rep }, &clip, NULL, NULL), TDN_OK);
    CHECK_NEAR(tdn_clip_sample_rate(clip), 30, 1e-4);
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(keyed);
    tdn_skeleton_destroy(skel);
}

/* Uneven keys (23 steps of 1/24 s, then one of 0.2 s, as in the Fox's Run): with no rate given
 * the build takes the coarsest grid holding every key, 1/120 s (the 0.2 s step is 24/120), so
 * the frames reproduce the linear keys (error at float rounding), where 30 frames/s cuts the
 * corner at every key. Keys on no grid up to 240 frames/s fall back to 30. */
static void default_rate_holds_uneven_keys(void)
{
    tdn_skeleton *skel = make_chain();
    enum { N = 25 };
    float times[N], positions[N * 3];
    for (int k = 0; k < N; k++) {
        times[k] = k < N - 1 ? (float)k / 24.0f : (float)(N - 2) / 24.0f + 0.2f;
        positions[k * 3] = (k & 1) ? 0.3f : -0.2f; /* a zigzag: every key a corner */
        positions[k * 3 + 1] = 1.0f, positions[k * 3 + 2] = 0.0f;
    }
    tdn_track_desc track = {
        .joint = 1, .target = TDN_TARGET_TRANSLATION, .key_count = N, .times = times, .values = positions
    };
    tdn_keyed_clip *keyed = NULL;
    tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = skel, .tracks = &track, .track_count = 1 }, &keyed, NULL,
                          NULL);
    tdn_clip *clip = NULL;
    tdn_clip_report rep;
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed, .storage = TDN_STORAGE_FLOAT32, .report = &rep },
                                 &clip, NULL, NULL),
                 TDN_OK);
    CHECK_NEAR(tdn_clip_sample_rate(clip), 120.0, 1e-2);
    CHECK_EQ_INT(rep.frame_count, 23 * 5 + 24 + 1);
    CHECK(rep.max_position_error < 1e-5f);
    tdn_clip_destroy(clip);
    clip = NULL;
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed,
                                                   .sample_rate = 30,
                                                   .storage = TDN_STORAGE_FLOAT32,
                                                   .position_tolerance = 10.0f,
                                                   .report = &rep },
                                 &clip, NULL, NULL),
                 TDN_OK);
    CHECK(rep.max_position_error > 0.05f); /* a fifth of the zigzag's corner cut */
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(keyed);

    const float off_grid[3] = { 0.0f, 0.0123f, 1.0f };
    track.key_count = 3, track.times = off_grid;
    tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = skel, .tracks = &track, .track_count = 1 }, &keyed, NULL,
                          NULL);
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed, .position_tolerance = 10.0f }, &clip, NULL, NULL),
                 TDN_OK);
    CHECK_NEAR(tdn_clip_sample_rate(clip), 30, 1e-4);
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(keyed);
    tdn_skeleton_destroy(skel);
}

int main(void)
{
    RUN(runtime_is_within_its_reported_error);
    RUN(report_error_is_real);
    RUN(int16_and_float32_are_both_measured);
    RUN(constant_components_are_stored_once);
    RUN(step_tracks_are_held);
    RUN(additive_reproduces_the_source);
    RUN(float_tracks_and_events_are_copied);
    RUN(zero_length_clips_have_one_frame);
    RUN(bad_descriptions_are_named);
    RUN(default_rate_follows_the_source_grid);
    RUN(default_rate_holds_uneven_keys);
    return check_summary();
}
