/* The virtual-vertex error of a runtime clip against a keyed clip (tdn_clip_measure_error),
 * against closed forms: a clip of linear keys on its own frame grid (no error), a constant
 * rotation and a constant offset at the root, the 99th percentile of an error at one key, a key
 * between frames, the normalized lerp against the slerp between two rotation keys (largest at
 * the quarter points, zero at the midpoint), additive clips, and bad arguments. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"

#define PI 3.14159265358979323846
#define BONE 0.5f   /* child joints sit this far along their parent's x */
#define SHELL 0.03f /* virtual vertices at 3 cm */
enum { MAX_KEYS = 64, JOINTS = 3 };

/* A chain of `joints` joints, each BONE along its parent's x axis; the root at the origin. */
static tdn_skeleton *make_chain(int joints)
{
    static const char *const names[JOINTS] = { "root", "child", "grandchild" };
    int parents[JOINTS];
    tdn_transform rest[JOINTS];
    for (int j = 0; j < joints; j++) {
        parents[j] = j - 1;
        rest[j] = tdn_transform_identity();
        rest[j].t.x = j ? BONE : 0.0f;
    }
    tdn_skeleton *skel = NULL;
    tdn_skeleton_create(
        &(tdn_skeleton_desc){ .joint_count = joints, .names = names, .parents = parents, .rest_pose = rest }, &skel,
        NULL, NULL);
    return skel;
}

/* Keys every 0.1 s, on the frame grid of a clip at 10 frames per second: in float arithmetic,
 * which rounds some of them a float step away from the frames (0.1f * 9 is 0.900000036, the frame
 * 0.899999976), and the measure takes those for the same time. */
static void grid_times(float *times, int keys)
{
    for (int k = 0; k < keys; k++)
        times[k] = 0.1f * (float)k;
}

/* A wandering root translation: values[k] for key k. */
static void wander(float *values, int keys)
{
    for (int k = 0; k < keys; k++) {
        values[3 * k] = 0.3f * sinf((float)k);
        values[3 * k + 1] = 0.05f * (float)k;
        values[3 * k + 2] = 0.2f * cosf(2.0f * (float)k);
    }
}

static tdn_track_desc linear(int joint, tdn_track_target target, int keys, const float *times, const float *values)
{
    return (tdn_track_desc){ .joint = joint,
                             .target = target,
                             .interp = TDN_INTERP_LINEAR,
                             .key_count = keys,
                             .times = times,
                             .values = values };
}

static tdn_keyed_clip *keyed(const tdn_skeleton *skel, const tdn_track_desc *tracks, int track_count)
{
    tdn_keyed_clip *clip = NULL;
    tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = skel, .tracks = tracks, .track_count = track_count },
                          &clip, NULL, NULL);
    return clip;
}

/* A FLOAT32 runtime clip of `source` at `rate` frames per second, tolerances wide enough that the
 * build's own measurement never refuses it. */
static tdn_clip *runtime(const tdn_keyed_clip *source, float rate)
{
    tdn_clip *clip = NULL;
    tdn_clip_create(&(tdn_clip_desc){ .source = source,
                                      .sample_rate = rate,
                                      .storage = TDN_STORAGE_FLOAT32,
                                      .position_tolerance = 1.0f,
                                      .rotation_tolerance = 1.0f },
                    &clip, NULL, NULL);
    return clip;
}

static tdn_clip_error measure(const tdn_clip *clip, const tdn_keyed_clip *source)
{
    tdn_clip_error e;
    tdn_error err = { 0 };
    CHECK(tdn_clip_measure_error(&(tdn_clip_error_desc){ .clip = clip, .source = source, .shell_distance = SHELL }, &e,
                                 NULL, &err) == TDN_OK);
    return e;
}

static void rotation_z(float *q, double angle)
{
    q[0] = q[1] = 0.0f;
    q[2] = (float)sin(angle / 2);
    q[3] = (float)cos(angle / 2);
}

/* Linear translation keys on the frame grid: the clip's lerp between frames is the keyed clip's
 * lerp between keys, so nothing differs but rounding. */
static void linear_keys_on_the_grid_show_no_error(void)
{
    enum { KEYS = 11 };
    tdn_skeleton *skel = make_chain(JOINTS);
    float times[KEYS], values[JOINTS][KEYS * 3];
    tdn_track_desc tracks[JOINTS];
    grid_times(times, KEYS);
    for (int j = 0; j < JOINTS; j++) {
        wander(values[j], KEYS);
        for (int k = 0; k < KEYS && j; k++)
            values[j][3 * k] += BONE;
        tracks[j] = linear(j, TDN_TARGET_TRANSLATION, KEYS, times, values[j]);
    }
    tdn_keyed_clip *source = keyed(skel, tracks, JOINTS);
    tdn_clip *clip = runtime(source, 10.0f);
    tdn_clip_error e = measure(clip, source);
    CHECK(e.max_error <= 1e-6f);
    CHECK(e.p99_error <= e.max_error);
    CHECK_EQ_INT(e.time_count, 4 * KEYS - 3); /* 11 frames (the keys), 3 quarter points between each pair */
    CHECK_EQ_INT(e.sample_count, JOINTS * (4 * KEYS - 3));
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(source);
    tdn_skeleton_destroy(skel);
}

/* The clip shows A, the source B is A turned by delta about z at the root. A's root turns about z
 * too (constantly, so that its own clip is exact), so every vertex stays in the plane z = 0 or
 * above it, and a vertex at distance r from the z axis moves by the chord 2 r sin(delta / 2).
 * The farthest is the child's x vertex, at BONE + SHELL. */
static void a_root_rotation_moves_the_farthest_vertex_by_its_chord(void)
{
    enum { KEYS = 11 };
    const double delta = 0.1, base = PI / 6;
    tdn_skeleton *skel = make_chain(2);
    float times[KEYS], translations[KEYS * 3], turned_a[4], turned_b[4];
    grid_times(times, KEYS);
    wander(translations, KEYS);
    rotation_z(turned_a, base);
    rotation_z(turned_b, base + delta);
    tdn_track_desc a[2] = { linear(0, TDN_TARGET_TRANSLATION, KEYS, times, translations),
                            linear(0, TDN_TARGET_ROTATION, 1, times, turned_a) };
    tdn_track_desc b[2] = { a[0], linear(0, TDN_TARGET_ROTATION, 1, times, turned_b) };
    tdn_keyed_clip *clip_a = keyed(skel, a, 2), *clip_b = keyed(skel, b, 2);
    tdn_clip *clip = runtime(clip_a, 10.0f);
    tdn_clip_error e = measure(clip, clip_b);
    const double chord = 2.0 * (BONE + SHELL) * sin(delta / 2);
    CHECK_NEAR(e.max_error, chord, 1e-6);
    CHECK_EQ_INT(e.max_joint, 1);
    CHECK_NEAR(e.p99_error, chord, 1e-6); /* the same at every time */
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(clip_a);
    tdn_keyed_clip_destroy(clip_b);
    tdn_skeleton_destroy(skel);
}

/* B is A moved by a constant offset d at the root: every vertex of every joint moves by |d|. */
static void a_root_offset_moves_every_vertex_by_its_length(void)
{
    enum { KEYS = 11 };
    const tdn_vec3 d = { 0.01f, -0.02f, 0.005f };
    tdn_skeleton *skel = make_chain(JOINTS);
    float times[KEYS], a_values[KEYS * 3], b_values[KEYS * 3], turns[KEYS * 4];
    grid_times(times, KEYS);
    wander(a_values, KEYS);
    for (int k = 0; k < KEYS; k++) {
        b_values[3 * k] = a_values[3 * k] + d.x;
        b_values[3 * k + 1] = a_values[3 * k + 1] + d.y;
        b_values[3 * k + 2] = a_values[3 * k + 2] + d.z;
        tdn_quat q = tdn_quat_from_axis_angle(tdn_vec3_normalize(tdn_vec3_make(1, 2, 3)), 0.1f * (float)k);
        memcpy(&turns[4 * k], &q, sizeof q);
    }
    /* the child turns too: an offset at the root moves its vertices all the same */
    tdn_track_desc a[2] = { linear(0, TDN_TARGET_TRANSLATION, KEYS, times, a_values),
                            linear(1, TDN_TARGET_ROTATION, KEYS, times, turns) };
    tdn_track_desc b[2] = { linear(0, TDN_TARGET_TRANSLATION, KEYS, times, b_values), a[1] };
    tdn_keyed_clip *clip_a = keyed(skel, a, 2), *clip_b = keyed(skel, b, 2);
    tdn_clip *clip = runtime(clip_b, 10.0f);
    /* the clip of B against A: B's own interpolation error is below 1e-5 at these speeds */
    tdn_clip_error e = measure(clip, clip_a);
    const double length = sqrt((double)d.x * d.x + (double)d.y * d.y + (double)d.z * d.z);
    CHECK_NEAR(e.max_error, length, 1e-5);
    CHECK_NEAR(e.p99_error, length, 1e-5);
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(clip_a);
    tdn_keyed_clip_destroy(clip_b);
    tdn_skeleton_destroy(skel);
}

/* One joint; B differs from A by d at t = 2 s and by d / 2 at 2.1 s (keys every 0.1 s over 4 s):
 * the error rises linearly from 0 at 1.9 s to |d| at 2 s, falls to |d| / 2 at 2.1 s and to 0 at
 * 2.2 s. The times are 41 keys + 3 * 40 quarter points = 161 samples; the largest are |d| (2 s),
 * 0.875 |d| (2.025 s) and 0.75 |d| (1.975 s and 2.05 s). The nearest rank of the 99th percentile
 * is ceil(0.99 * 161) = 160: the second largest, 0.875 |d|. */
static void one_bad_key_stays_out_of_the_99th_percentile(void)
{
    enum { KEYS = 41, BAD = 20 };
    const float d = 0.02f;
    tdn_skeleton *skel = make_chain(1);
    float times[KEYS], a_values[KEYS * 3], b_values[KEYS * 3];
    grid_times(times, KEYS);
    wander(a_values, KEYS);
    memcpy(b_values, a_values, sizeof b_values);
    b_values[3 * BAD + 1] += d;
    b_values[3 * (BAD + 1) + 1] += 0.5f * d;
    tdn_track_desc a = linear(0, TDN_TARGET_TRANSLATION, KEYS, times, a_values);
    tdn_track_desc b = linear(0, TDN_TARGET_TRANSLATION, KEYS, times, b_values);
    tdn_keyed_clip *clip_a = keyed(skel, &a, 1), *clip_b = keyed(skel, &b, 1);
    tdn_clip *clip = runtime(clip_a, 10.0f);
    tdn_clip_error e = measure(clip, clip_b);
    CHECK_EQ_INT(e.time_count, 161);
    CHECK_EQ_INT(e.sample_count, 161);
    CHECK_NEAR(e.max_error, d, 1e-6);
    CHECK_NEAR(e.max_time, 2.0, 1e-6);
    CHECK_NEAR(e.p99_error, 0.875 * d, 1e-6);
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(clip_a);
    tdn_keyed_clip_destroy(clip_b);
    tdn_skeleton_destroy(skel);
}

/* A source key between two frames is a measured time: B has one more key than A, at 0.03 s
 * between the frames at 0 and 0.1 s, |d| off A there. The quarter points of the frames alone
 * would see at most 0.025 / 0.03 of it. */
static void key_times_between_frames_are_measured(void)
{
    const float d = 0.01f;
    tdn_skeleton *skel = make_chain(1);
    float a_times[2] = { 0.0f, 0.1f }, a_values[6] = { 0, 0, 0, 0.1f, 0, 0 };
    float b_times[3] = { 0.0f, 0.03f, 0.1f }, b_values[9] = { 0, 0, 0, 0.03f, d, 0, 0.1f, 0, 0 };
    tdn_track_desc a = linear(0, TDN_TARGET_TRANSLATION, 2, a_times, a_values);
    tdn_track_desc b = linear(0, TDN_TARGET_TRANSLATION, 3, b_times, b_values);
    tdn_keyed_clip *clip_a = keyed(skel, &a, 1), *clip_b = keyed(skel, &b, 1);
    tdn_clip *clip = runtime(clip_a, 10.0f);
    tdn_clip_error e = measure(clip, clip_b);
    CHECK_EQ_INT(e.time_count, 9); /* 0, 0.03 and 0.1 s and the quarter points between them */
    CHECK_NEAR(e.max_error, d, 1e-6);
    CHECK(e.max_time == 0.03f);
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(clip_a);
    tdn_keyed_clip_destroy(clip_b);
    tdn_skeleton_destroy(skel);
}

/* Two rotation keys 120 degrees apart about z over 1 s at the root, a clip of 2 frames: the clip
 * normalizes the lerp of the two quaternions, whose half-angle at t is atan2(t sin h, 1 - t +
 * t cos h) for the keys' half-angle h, where the keyed clip slerps to t h. They agree at 0, 1/2
 * and 1 and differ most near the quarter points, where the child's x vertex (BONE + SHELL from
 * the root) moves by the chord of twice the difference. */
static void quarter_points_see_what_the_midpoint_misses(void)
{
    const double h = PI / 3;
    tdn_skeleton *skel = make_chain(2);
    float times[2] = { 0.0f, 1.0f }, turns[8];
    rotation_z(turns, 0.0);
    rotation_z(turns + 4, 2 * h);
    tdn_track_desc track = linear(0, TDN_TARGET_ROTATION, 2, times, turns);
    tdn_keyed_clip *source = keyed(skel, &track, 1);
    tdn_clip *clip = runtime(source, 1.0f);
    CHECK(clip != NULL);
    tdn_clip_error e = measure(clip, source);
    const double t = 0.25, nlerp = atan2(t * sin(h), 1 - t + t * cos(h)), slerp = t * h;
    const double chord = 2.0 * (BONE + SHELL) * sin(fabs(slerp - nlerp)); /* sin(2 |diff| / 2) */
    CHECK_EQ_INT(e.time_count, 5);
    CHECK_NEAR(e.max_error, chord, 1e-6);
    CHECK(chord > 1e-3); /* the case is not vacuous: 2.04 cm */
    CHECK_EQ_INT(e.max_joint, 1);
    CHECK(e.max_time == 0.25f || e.max_time == 0.75f);
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(source);
    tdn_skeleton_destroy(skel);
}

/* An additive clip is applied to the reference it was built against and compared with its source;
 * measured against a reference moved by d at the root, every vertex is |d| off. */
static void additive_clips_are_measured_applied_to_their_reference(void)
{
    enum { KEYS = 11 };
    const float d = 0.04f;
    tdn_skeleton *skel = make_chain(2);
    float times[KEYS], values[KEYS * 3];
    grid_times(times, KEYS);
    wander(values, KEYS);
    tdn_track_desc track = linear(0, TDN_TARGET_TRANSLATION, KEYS, times, values);
    tdn_keyed_clip *source = keyed(skel, &track, 1);
    tdn_pose reference, moved;
    tdn_pose_create(2, &reference, NULL, NULL);
    tdn_pose_create(2, &moved, NULL, NULL);
    tdn_pose_set_rest(&reference, skel, NULL);
    tdn_transform root = tdn_pose_get(&reference, 0);
    root.r = tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), 0.7f);
    tdn_pose_set(&reference, 0, &root);
    tdn_pose_copy(&moved, &reference, NULL);
    root.t.z += d;
    tdn_pose_set(&moved, 0, &root);
    tdn_clip *clip = NULL;
    CHECK(tdn_clip_create(&(tdn_clip_desc){ .source = source,
                                            .sample_rate = 10.0f,
                                            .storage = TDN_STORAGE_FLOAT32,
                                            .additive_reference_pose = &reference },
                          &clip, NULL, NULL) == TDN_OK);
    tdn_clip_error e;
    CHECK(tdn_clip_measure_error(
              &(tdn_clip_error_desc){
                  .clip = clip, .source = source, .shell_distance = SHELL, .additive_reference_pose = &reference },
              &e, NULL, NULL) == TDN_OK);
    CHECK(e.max_error <= 1e-6f);
    CHECK(tdn_clip_measure_error(
              &(tdn_clip_error_desc){
                  .clip = clip, .source = source, .shell_distance = SHELL, .additive_reference_pose = &moved },
              &e, NULL, NULL) == TDN_OK);
    CHECK_NEAR(e.max_error, d, 1e-6);
    CHECK_NEAR(e.p99_error, d, 1e-6);
    tdn_clip_destroy(clip);
    tdn_pose_destroy(&reference);
    tdn_pose_destroy(&moved);
    tdn_keyed_clip_destroy(source);
    tdn_skeleton_destroy(skel);
}

/* The same with a reference clip (sampled at each time) and with the source's first frame. */
static void additive_clips_against_a_reference_clip_or_the_first_frame(void)
{
    enum { KEYS = 11 };
    const float d = 0.03f;
    tdn_skeleton *skel = make_chain(2);
    float times[KEYS], values[KEYS * 3], reference_values[KEYS * 3], moved_values[KEYS * 3];
    grid_times(times, KEYS);
    wander(values, KEYS);
    for (int k = 0; k < 3 * KEYS; k++) {
        reference_values[k] = 0.5f * values[(k + 5) % (3 * KEYS)];
        moved_values[k] = reference_values[k] + (k % 3 == 0 ? d : 0.0f);
    }
    tdn_track_desc track = linear(0, TDN_TARGET_TRANSLATION, KEYS, times, values);
    tdn_track_desc reference_track = linear(0, TDN_TARGET_TRANSLATION, KEYS, times, reference_values);
    tdn_track_desc moved_track = linear(0, TDN_TARGET_TRANSLATION, KEYS, times, moved_values);
    tdn_keyed_clip *source = keyed(skel, &track, 1), *reference = keyed(skel, &reference_track, 1),
                   *moved = keyed(skel, &moved_track, 1);
    tdn_clip *against_clip = NULL, *against_start = NULL;
    tdn_clip_create(&(tdn_clip_desc){ .source = source,
                                      .sample_rate = 10.0f,
                                      .storage = TDN_STORAGE_FLOAT32,
                                      .additive_reference_clip = reference },
                    &against_clip, NULL, NULL);
    tdn_clip_create(&(tdn_clip_desc){ .source = source,
                                      .sample_rate = 10.0f,
                                      .storage = TDN_STORAGE_FLOAT32,
                                      .additive_reference_first_frame = 1 },
                    &against_start, NULL, NULL);
    tdn_clip_error e;
    tdn_clip_error_desc desc = { .clip = against_clip, .source = source, .shell_distance = SHELL };
    desc.additive_reference_clip = reference;
    CHECK(tdn_clip_measure_error(&desc, &e, NULL, NULL) == TDN_OK);
    CHECK(e.max_error <= 1e-6f);
    desc.additive_reference_clip = moved;
    CHECK(tdn_clip_measure_error(&desc, &e, NULL, NULL) == TDN_OK);
    CHECK_NEAR(e.max_error, d, 1e-6);
    CHECK_NEAR(e.p99_error, d, 1e-6);
    desc = (tdn_clip_error_desc){
        .clip = against_start, .source = source, .shell_distance = SHELL, .additive_reference_first_frame = 1
    };
    CHECK(tdn_clip_measure_error(&desc, &e, NULL, NULL) == TDN_OK);
    CHECK(e.max_error <= 1e-6f);
    desc.additive_reference_first_frame = 0, desc.additive_reference_clip = source; /* at each time: D + S(t) */
    CHECK(tdn_clip_measure_error(&desc, &e, NULL, NULL) == TDN_OK);
    CHECK(e.max_error > 0.1f);
    tdn_clip_destroy(against_clip);
    tdn_clip_destroy(against_start);
    tdn_keyed_clip_destroy(source);
    tdn_keyed_clip_destroy(reference);
    tdn_keyed_clip_destroy(moved);
    tdn_skeleton_destroy(skel);
}

static void expect_refused(const tdn_clip_error_desc *desc, const char *where)
{
    tdn_clip_error e;
    memset(&e, 0x55, sizeof e);
    tdn_error err = { 0 };
    CHECK(tdn_clip_measure_error(desc, &e, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(err.code == TDN_ERR_ARGUMENT);
    if (!CHECK(strcmp(err.where, where) == 0))
        fprintf(stderr, "  where '%s', expected '%s'\n", err.where, where);
    CHECK(e.max_error == 0.0f && e.sample_count == 0 && e.time_count == 0);
}

static void bad_arguments_name_their_field(void)
{
    enum { KEYS = 3 };
    tdn_skeleton *two = make_chain(2), *three = make_chain(3);
    float times[KEYS], values[KEYS * 3];
    grid_times(times, KEYS);
    wander(values, KEYS);
    tdn_track_desc track = linear(0, TDN_TARGET_TRANSLATION, KEYS, times, values);
    tdn_keyed_clip *source = keyed(two, &track, 1), *other = keyed(three, &track, 1);
    tdn_clip *clip = runtime(source, 10.0f);
    tdn_pose pose;
    tdn_pose_create(2, &pose, NULL, NULL);
    const tdn_clip_error_desc good = { .clip = clip, .source = source, .shell_distance = SHELL };

    tdn_error err = { 0 };
    tdn_clip_error e;
    CHECK(tdn_clip_measure_error(NULL, &e, NULL, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "desc") == 0);
    CHECK(tdn_clip_measure_error(&good, NULL, NULL, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "out") == 0);
    tdn_clip_error_desc d = good;
    d.clip = NULL;
    expect_refused(&d, "desc.clip");
    d = good, d.source = NULL;
    expect_refused(&d, "desc.source");
    d = good, d.source = other; /* 3 joints against the clip's 2 */
    expect_refused(&d, "desc.source");
    const float shells[] = { 0.0f, -0.03f, NAN, INFINITY };
    for (int i = 0; i < 4; i++) {
        d = good, d.shell_distance = shells[i];
        expect_refused(&d, "desc.shell_distance");
    }
    d = good, d.additive_reference_pose = &pose, d.additive_reference_clip = source;
    expect_refused(&d, "desc.additive_reference_pose"); /* two references */
    d = good, d.additive_reference_clip = source;
    expect_refused(&d, "desc.additive_reference_clip"); /* the clip is not additive */

    tdn_clip *additive = NULL;
    tdn_clip_create(&(tdn_clip_desc){ .source = source, .additive_reference_pose = &pose }, &additive, NULL, NULL);
    d = good, d.clip = additive;
    expect_refused(&d, "desc.additive_reference_pose"); /* no reference for an additive clip */
    tdn_pose wrong;
    tdn_pose_create(3, &wrong, NULL, NULL);
    d.additive_reference_pose = &wrong;
    expect_refused(&d, "desc.additive_reference_pose");
    d.additive_reference_pose = NULL, d.additive_reference_clip = other;
    expect_refused(&d, "desc.additive_reference_clip");

    /* its scratch comes from the allocator, and all of it goes back */
    allocations_before_failure = 0;
    CHECK(tdn_clip_measure_error(&good, &e, &counting, &err) == TDN_ERR_OUT_OF_MEMORY);
    allocations_before_failure = -1;
    CHECK(tdn_clip_measure_error(&good, &e, &counting, &err) == TDN_OK);
    CHECK(total_allocations > 0);
    CHECK_EQ_INT(live_blocks, 0);

    tdn_pose_destroy(&wrong);
    tdn_pose_destroy(&pose);
    tdn_clip_destroy(additive);
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(source);
    tdn_keyed_clip_destroy(other);
    tdn_skeleton_destroy(two);
    tdn_skeleton_destroy(three);
}

int main(void)
{
    RUN(linear_keys_on_the_grid_show_no_error);
    RUN(a_root_rotation_moves_the_farthest_vertex_by_its_chord);
    RUN(a_root_offset_moves_every_vertex_by_its_length);
    RUN(one_bad_key_stays_out_of_the_99th_percentile);
    RUN(key_times_between_frames_are_measured);
    RUN(quarter_points_see_what_the_midpoint_misses);
    RUN(additive_clips_are_measured_applied_to_their_reference);
    RUN(additive_clips_against_a_reference_clip_or_the_first_frame);
    RUN(bad_arguments_name_their_field);
    return check_summary();
}
