/* COMPRESSED runtime clips: the virtual-vertex error stays under the threshold at frames, midpoints
 * and quarter points (measured here, independently of the build's own planning), the bytes
 * shrink as the threshold grows, held steps and constant tracks stay exact, an additive clip
 * applied to its reference stays within the threshold, sampling a clip of real motion capture
 * does too, and bad thresholds are named. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "tendon/io/asset.h"
#include "test_data.h"

enum { JOINTS = 9, KEYS = 121 }; /* 4 s at 30 keys/s */
static const float SHELL = 0.03f;

/* A branching skeleton in metres: a root, a 4-joint chain up and two 2-joint arms. */
static tdn_skeleton *make_skeleton(void)
{
    static const char *const names[JOINTS] = { "root",  "spine",  "chest", "neck",  "head",
                                               "arm_l", "hand_l", "arm_r", "hand_r" };
    const int parents[JOINTS] = { -1, 0, 1, 2, 3, 2, 5, 2, 7 };
    tdn_transform rest[JOINTS];
    for (int j = 0; j < JOINTS; j++) {
        rest[j] = tdn_transform_identity();
        rest[j].t.y = j ? 0.25f : 1.0f;
    }
    rest[5].t = tdn_vec3_make(0.2f, 0.1f, 0.0f), rest[7].t = tdn_vec3_make(-0.2f, 0.1f, 0.0f);
    /* a joint frame turned half a turn from its parent's, as exported rigs have: its w is near 0 */
    rest[6].r = tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), 3.1f);
    tdn_skeleton *skel = NULL;
    tdn_skeleton_create(
        &(tdn_skeleton_desc){ .joint_count = JOINTS, .names = names, .parents = parents, .rest_pose = rest }, &skel,
        NULL, NULL);
    return skel;
}

/* Smooth motion like motion capture: every joint turns about its own axis with its own tempo, the
 * root walks forward; hand_r's translation is held (STEP) and the head never moves (constant). */
typedef struct motion {
    float times[KEYS];
    float t[JOINTS][KEYS * 3], r[JOINTS][KEYS * 4];
    tdn_track_desc tracks[2 * JOINTS];
} motion;

static tdn_keyed_clip *make_motion(motion *m, const tdn_skeleton *skel, uint64_t seed)
{
    check_rng rng = { seed };
    int n = 0;
    for (int k = 0; k < KEYS; k++)
        m->times[k] = (float)k / 30.0f;
    for (int j = 0; j < JOINTS; j++) {
        const tdn_transform rest = tdn_skeleton_rest(skel, j);
        const tdn_vec3 axis = tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1));
        const float tempo = check_rng_float(&rng, 1.0f, 4.0f),
                    swing = j == 4 ? 0.0f : check_rng_float(&rng, 0.2f, 1.0f);
        for (int k = 0; k < KEYS; k++) {
            const float time = m->times[k];
            const tdn_quat q = tdn_quat_mul(tdn_quat_from_axis_angle(axis, swing * sinf(tempo * time)), rest.r);
            m->r[j][k * 4] = q.x, m->r[j][k * 4 + 1] = q.y, m->r[j][k * 4 + 2] = q.z, m->r[j][k * 4 + 3] = q.w;
            tdn_vec3 p = rest.t;
            if (j == 0)
                p = tdn_vec3_make(0.05f * sinf(3.0f * time), 1.0f + 0.03f * cosf(6.0f * time), 1.4f * time);
            if (j == 8)
                p.x -= 0.01f * (float)(k / 20); /* a step every 20 keys */
            m->t[j][k * 3] = p.x, m->t[j][k * 3 + 1] = p.y, m->t[j][k * 3 + 2] = p.z;
        }
        m->tracks[n++] = (tdn_track_desc){ .joint = j,
                                           .target = TDN_TARGET_ROTATION,
                                           .interp = TDN_INTERP_LINEAR,
                                           .key_count = KEYS,
                                           .times = m->times,
                                           .values = m->r[j] };
        if (j == 0 || j == 8)
            m->tracks[n++] = (tdn_track_desc){ .joint = j,
                                               .target = TDN_TARGET_TRANSLATION,
                                               .interp = j == 8 ? TDN_INTERP_STEP : TDN_INTERP_LINEAR,
                                               .key_count = KEYS,
                                               .times = m->times,
                                               .values = m->t[j] };
    }
    tdn_keyed_clip *clip = NULL;
    CHECK_EQ_INT(
        tdn_keyed_clip_create(
            &(tdn_keyed_clip_desc){ .name = "motion", .skeleton = skel, .tracks = m->tracks, .track_count = n }, &clip,
            NULL, NULL),
        TDN_OK);
    return clip;
}

/* The virtual-vertex error, computed here on its own: the farthest of the 3 vertices at `shell`
 * along a joint's axes between the two model matrices. */
static double vertex_error(const tdn_mat4 *a, const tdn_mat4 *b, float shell)
{
    double worst = 0.0;
    for (int axis = 0; axis < 3; axis++) {
        double d2 = 0.0;
        for (int r = 0; r < 3; r++) {
            const double va = (double)a->m[12 + r] + shell * (double)a->m[4 * axis + r];
            const double vb = (double)b->m[12 + r] + shell * (double)b->m[4 * axis + r];
            d2 += (va - vb) * (va - vb);
        }
        worst = fmax(worst, sqrt(d2));
    }
    return worst;
}

/* The largest virtual-vertex error of `clip` against `source` at its frames and the quarter, half
 * and three-quarter points between them (with an additive reference pose: the clip applied to it). */
static double largest_error(const tdn_clip *clip, const tdn_keyed_clip *source, const tdn_pose *reference)
{
    const tdn_skeleton *skel = tdn_keyed_clip_skeleton(source);
    const int J = tdn_skeleton_joint_count(skel);
    tdn_pose expect, actual, applied;
    tdn_pose_create(J, &expect, NULL, NULL);
    tdn_pose_create(J, &actual, NULL, NULL);
    tdn_pose_create(J, &applied, NULL, NULL);
    tdn_mat4 *me = malloc(sizeof(tdn_mat4) * (size_t)J), *ma = malloc(sizeof(tdn_mat4) * (size_t)J);
    const float rate = tdn_clip_sample_rate(clip), duration = tdn_clip_duration(clip);
    const int frames = (int)lroundf(duration * rate) + 1;
    double worst = 0.0;
    for (int i = 0; i < 4 * (frames - 1) + 1; i++) {
        const float t = fminf(duration, (float)i / (4.0f * rate));
        tdn_keyed_clip_sample(source, t, &expect, NULL, NULL);
        tdn_clip_sample(clip, t, &actual, NULL);
        if (reference)
            tdn_additive_apply(reference, &actual, 1.0f, NULL, &applied, NULL);
        tdn_model_space(skel, &expect, NULL, me, NULL);
        tdn_model_space(skel, reference ? &applied : &actual, NULL, ma, NULL);
        for (int j = 0; j < J; j++)
            worst = fmax(worst, vertex_error(&me[j], &ma[j], SHELL));
    }
    free(me);
    free(ma);
    tdn_pose_destroy(&expect);
    tdn_pose_destroy(&actual);
    tdn_pose_destroy(&applied);
    return worst;
}

static tdn_clip *compressed(const tdn_keyed_clip *source, float threshold, tdn_clip_report *report)
{
    tdn_clip *clip = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = source,
                                                        .storage = TDN_STORAGE_COMPRESSED,
                                                        .error_threshold = threshold,
                                                        .shell_distance = SHELL,
                                                        .report = report },
                                      &clip, NULL, &err),
                      TDN_OK))
        printf("  %s: %s\n", err.where, err.message);
    return clip;
}

static void within_threshold_and_smaller(void)
{
    tdn_skeleton *skel = make_skeleton();
    motion m;
    tdn_keyed_clip *source = make_motion(&m, skel, 7);
    tdn_clip *int16 = NULL;
    CHECK_EQ_INT(
        tdn_clip_create(&(tdn_clip_desc){ .source = source, .storage = TDN_STORAGE_INT16 }, &int16, NULL, NULL),
        TDN_OK);
    const float thresholds[3] = { 1e-5f, 1e-4f, 1e-3f };
    size_t last_bytes = SIZE_MAX;
    for (int i = 0; i < 3; i++) {
        tdn_clip_report report;
        tdn_clip *clip = compressed(source, thresholds[i], &report);
        if (!clip)
            continue;
        const double error = largest_error(clip, source, NULL);
        const size_t bytes = tdn_clip_memory_size(clip);
        printf("  threshold %.0e m: largest error %.3e m (report %.3e), %zu bytes (16-bit: %zu)\n",
               (double)thresholds[i], error, (double)report.max_vertex_error, bytes, tdn_clip_memory_size(int16));
        CHECK(error <= thresholds[i] * 1.001);
        CHECK(fabs(error - report.max_vertex_error) <= 1e-3 * thresholds[i] + 1e-7); /* both at the same times */
        CHECK(bytes < last_bytes);
        if (thresholds[i] >= 1e-4f) /* fast synthetic motion: far less than mocap's 8 to 10 */
            CHECK(40.0 * JOINTS * KEYS / (double)bytes > 4.0);
        last_bytes = bytes;
        tdn_clip_destroy(clip);
    }
    tdn_clip_destroy(int16);
    tdn_keyed_clip_destroy(source);
    tdn_skeleton_destroy(skel);
}

/* hand_r's held translation is the source's at any time, to the bit; the head's constant
 * rotation too. */
static void steps_and_constants_exact(void)
{
    tdn_skeleton *skel = make_skeleton();
    motion m;
    tdn_keyed_clip *source = make_motion(&m, skel, 11);
    tdn_clip *clip = compressed(source, 1e-4f, NULL);
    tdn_pose expect, actual;
    tdn_pose_create(JOINTS, &expect, NULL, NULL);
    tdn_pose_create(JOINTS, &actual, NULL, NULL);
    int differ = 0;
    for (int i = 0; i < 400 && clip; i++) {
        const float t = 4.0f * (float)i / 399.0f;
        tdn_keyed_clip_sample(source, t, &expect, NULL, NULL);
        tdn_clip_sample(clip, t, &actual, NULL);
        const tdn_transform e8 = tdn_pose_get(&expect, 8), a8 = tdn_pose_get(&actual, 8);
        const tdn_transform e4 = tdn_pose_get(&expect, 4), a4 = tdn_pose_get(&actual, 4);
        differ += memcmp(&e8.t, &a8.t, sizeof e8.t) != 0;
        differ += fabsf(tdn_quat_dot(e4.r, a4.r)) < 1.0f - 1e-6f;
    }
    CHECK_EQ_INT(differ, 0);
    tdn_pose_destroy(&expect);
    tdn_pose_destroy(&actual);
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(source);
    tdn_skeleton_destroy(skel);
}

/* An additive clip against the rest pose, applied back to it, shows the source within the
 * threshold. */
static void additive_within_threshold(void)
{
    tdn_skeleton *skel = make_skeleton();
    motion m;
    tdn_keyed_clip *source = make_motion(&m, skel, 13);
    tdn_pose rest;
    tdn_pose_create(JOINTS, &rest, NULL, NULL);
    tdn_pose_set_rest(&rest, skel, NULL);
    tdn_clip *clip = NULL;
    tdn_clip_report report;
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = source,
                                                   .storage = TDN_STORAGE_COMPRESSED,
                                                   .additive_reference_pose = &rest,
                                                   .report = &report },
                                 &clip, NULL, NULL),
                 TDN_OK);
    if (clip) {
        const double error = largest_error(clip, source, &rest);
        printf("  additive: largest error %.3e m (report %.3e), %zu bytes\n", error, (double)report.max_vertex_error,
               tdn_clip_memory_size(clip));
        CHECK(tdn_clip_is_additive(clip));
        CHECK(error <= 1e-4 * 1.001);
    }
    tdn_clip_destroy(clip);
    tdn_pose_destroy(&rest);
    tdn_keyed_clip_destroy(source);
    tdn_skeleton_destroy(skel);
}

/* Two frames a second apart with the root turning 170 degrees between them (its children up to
 * 0.85 m away): the re-timed nlerp alone would miss slerp by 5 mm at the quarter points; the
 * compressed clip slerps turns that large and stays within the threshold. */
static void large_turns_slerped(void)
{
    tdn_skeleton *skel = make_skeleton();
    static const float times[2] = { 0.0f, 1.0f };
    const tdn_quat q = tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), 2.9670597f);
    const float values[8] = { 0, 0, 0, 1, q.x, q.y, q.z, q.w };
    const tdn_track_desc track = { .joint = 0,
                                   .target = TDN_TARGET_ROTATION,
                                   .interp = TDN_INTERP_LINEAR,
                                   .key_count = 2,
                                   .times = times,
                                   .values = values };
    tdn_keyed_clip *source = NULL;
    CHECK_EQ_INT(tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = skel, .tracks = &track, .track_count = 1 },
                                       &source, NULL, NULL),
                 TDN_OK);
    tdn_clip *clip = NULL;
    CHECK_EQ_INT(
        tdn_clip_create(&(tdn_clip_desc){ .source = source, .sample_rate = 1.0f, .storage = TDN_STORAGE_COMPRESSED },
                        &clip, NULL, NULL),
        TDN_OK);
    if (clip) {
        const double error = largest_error(clip, source, NULL);
        printf("  170 degrees in one frame: largest error %.3e m\n", error);
        CHECK(error <= 1e-4 * 1.001);
    }
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(source);
    tdn_skeleton_destroy(skel);
}

/* Sampling never allocates; a build frees all it took. */
static void allocations(void)
{
    tdn_skeleton *skel = make_skeleton();
    motion m;
    tdn_keyed_clip *source = make_motion(&m, skel, 17);
    tdn_clip *clip = NULL;
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = source, .storage = TDN_STORAGE_COMPRESSED }, &clip,
                                 &counting, NULL),
                 TDN_OK);
    tdn_pose pose;
    tdn_pose_create(JOINTS, &pose, NULL, NULL);
    const long before = total_allocations;
    for (int i = 0; i < 100 && clip; i++)
        tdn_clip_sample(clip, 0.041f * (float)i, &pose, NULL);
    CHECK_EQ_INT((int)(total_allocations - before), 0);
    tdn_clip_destroy(clip);
    CHECK_EQ_INT((int)live_bytes, 0);
    tdn_pose_destroy(&pose);
    tdn_keyed_clip_destroy(source);
    tdn_skeleton_destroy(skel);
}

static void bad_thresholds_named(void)
{
    tdn_skeleton *skel = make_skeleton();
    motion m;
    tdn_keyed_clip *source = make_motion(&m, skel, 19);
    tdn_clip *clip = NULL;
    tdn_error err = { 0 };
    const float bad[2] = { -1e-4f, NAN };
    for (int i = 0; i < 2; i++) {
        CHECK_EQ_INT(
            tdn_clip_create(
                &(tdn_clip_desc){ .source = source, .storage = TDN_STORAGE_COMPRESSED, .error_threshold = bad[i] },
                &clip, NULL, &err),
            TDN_ERR_ARGUMENT);
        CHECK(strcmp(err.where, "error_threshold") == 0);
        CHECK_EQ_INT(
            tdn_clip_create(
                &(tdn_clip_desc){ .source = source, .storage = TDN_STORAGE_COMPRESSED, .shell_distance = bad[i] },
                &clip, NULL, &err),
            TDN_ERR_ARGUMENT);
        CHECK(strcmp(err.where, "shell_distance") == 0);
        CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = source,
                                                       .storage = TDN_STORAGE_COMPRESSED,
                                                       .float_track_tolerance = bad[i] },
                                     &clip, NULL, &err),
                     TDN_ERR_ARGUMENT);
        CHECK(strcmp(err.where, "float_track_tolerance") == 0);
    }
    CHECK(clip == NULL);
    tdn_keyed_clip_destroy(source);
    tdn_skeleton_destroy(skel);
}

/* A take of CMU motion capture (31 joints, 344 frames at 120 frames/s, in the file's units of
 * 1/0.056444 m) at the default threshold: within it at every quarter point, and about 8 times
 * smaller than float32 frames. */
static void motion_capture(void)
{
    tdn_asset *asset = test_data_asset("bvh/cmu/cgspeed-mb/walk.bvh", 0.056444f);
    if (!asset)
        return;
    const tdn_keyed_clip *source = tdn_asset_clip(asset, 0);
    tdn_clip_report report;
    tdn_clip *clip = compressed(source, 1e-4f, &report);
    if (clip) {
        const int J = tdn_skeleton_joint_count(tdn_asset_skeleton(asset));
        const double raw = 40.0 * J * report.frame_count, error = largest_error(clip, source, NULL);
        printf("  walk.bvh: %d frames, largest error %.4f cm, ratio %.2f to float32\n", report.frame_count,
               100.0 * error, raw / (double)tdn_clip_memory_size(clip));
        CHECK(error <= 1e-4 * 1.001);
        CHECK(raw / (double)tdn_clip_memory_size(clip) > 6.0);
    }
    tdn_clip_destroy(clip);
    tdn_asset_destroy(asset);
}

/* Float tracks of a compressed clip keep fewer keys within float_track_tolerance: a LINEAR
 * track baked at 30 keys/s (a slow sine with wobbles a tenth of the tolerance) stays within the
 * tolerance at every time, keys and between, and takes less memory than the same clip keeping
 * its keys; a STEP track of repeated values and a CUBIC track sample exactly
 * as the source does. */
static void float_tracks_reduced(void)
{
    tdn_skeleton *skel = make_skeleton();
    enum { N = 91 };
    const float tolerance = 1e-3f;
    float times[N], linear[N], step[N], cubic[3 * N];
    check_rng rng = { 7 };
    for (int k = 0; k < N; k++) {
        times[k] = (float)k / 30.0f;
        const float x = times[k];
        linear[k] = 0.8f * sinf(0.7f * x) + check_rng_float(&rng, -tolerance / 10, tolerance / 10);
        step[k] = (float)((k / 10) % 3);
        cubic[3 * k] = cubic[3 * k + 2] = cosf(x), cubic[3 * k + 1] = sinf(x);
    }
    const tdn_float_track_desc curves[3] = { { "ramp", TDN_INTERP_LINEAR, N, times, linear },
                                             { "foot", TDN_INTERP_STEP, N, times, step },
                                             { "wave", TDN_INTERP_CUBIC, N, times, cubic } };
    const tdn_transform rest = tdn_skeleton_rest(skel, 1);
    const float still[8] = { rest.r.x, rest.r.y, rest.r.z, rest.r.w, rest.r.x, rest.r.y, rest.r.z, rest.r.w };
    const float ends[2] = { 0.0f, 3.0f };
    const tdn_track_desc track = {
        .joint = 1, .target = TDN_TARGET_ROTATION, .key_count = 2, .times = ends, .values = still
    };
    tdn_keyed_clip *keyed = NULL;
    CHECK_EQ_INT(
        tdn_keyed_clip_create(
            &(tdn_keyed_clip_desc){
                .skeleton = skel, .tracks = &track, .track_count = 1, .float_tracks = curves, .float_track_count = 3 },
            &keyed, NULL, NULL),
        TDN_OK);
    tdn_clip *reduced = NULL, *kept = NULL;
    CHECK_EQ_INT(
        tdn_clip_create(
            &(tdn_clip_desc){ .source = keyed, .storage = TDN_STORAGE_COMPRESSED, .float_track_tolerance = tolerance },
            &reduced, NULL, NULL),
        TDN_OK);
    CHECK_EQ_INT(
        tdn_clip_create(
            &(tdn_clip_desc){ .source = keyed, .storage = TDN_STORAGE_COMPRESSED, .float_track_tolerance = 1e-9f },
            &kept, NULL, NULL),
        TDN_OK);
    if (reduced && kept) {
        /* a chord of the sine departs sag = 0.8 * 0.7^2 * h^2 / 8 from it: within 1e-3 for h up to
         * 0.14 s, so at least every other key goes where a tolerance of 1e-9 keeps all 91; 2
         * floats a key (both clips drop the same STEP keys) */
        CHECK(tdn_clip_memory_size(kept) - tdn_clip_memory_size(reduced) >= (size_t)(N / 2) * 2 * sizeof(float));
        double largest = 0.0;
        for (int i = 0; i <= 4 * (N - 1) + 8; i++) {
            const float t = (float)i / 120.0f - 0.02f; /* keys, quarter points, and past both ends */
            const double e = fabs((double)tdn_clip_sample_float(reduced, 0, t) -
                                  tdn_keyed_clip_sample_float(keyed, 0, t));
            largest = e > largest ? e : largest;
            CHECK(tdn_clip_sample_float(reduced, 1, t) == tdn_keyed_clip_sample_float(keyed, 1, t));
            CHECK(tdn_clip_sample_float(reduced, 2, t) == tdn_keyed_clip_sample_float(keyed, 2, t));
        }
        CHECK(largest <= tolerance * 1.0001);
        CHECK(largest > tolerance / 2); /* lines as long as the tolerance allows */
        printf("  float tracks: %zu bytes kept, %zu reduced; largest change %.2e\n", tdn_clip_memory_size(kept),
               tdn_clip_memory_size(reduced), largest);
    }
    tdn_clip_destroy(reduced);
    tdn_clip_destroy(kept);
    tdn_keyed_clip_destroy(keyed);
    tdn_skeleton_destroy(skel);
}

int main(void)
{
    RUN(within_threshold_and_smaller);
    RUN(steps_and_constants_exact);
    RUN(additive_within_threshold);
    RUN(large_turns_slerped);
    RUN(allocations);
    RUN(bad_thresholds_named);
    RUN(motion_capture);
    RUN(float_tracks_reduced);
    return check_summary();
}
