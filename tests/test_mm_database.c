/* Motion-matching database: every frame's features are its clip's own future trajectory, feet
 * and hip motion (recomputed here from sampled poses), normalization gives each group the
 * asked weight, ends and excluded ranges are not searchable, mirrored runs mirror, the bytes
 * round-trip exactly and bad bytes or descriptions are refused with the place named. */
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "mm_fixture.h"
#include "tendon/model_space.h"

/* The simulation root of a clip at time t, recomputed from the sampled pose: the root joint's
 * ground position and the yaw of its forward axis. */
static void root_of_pose(const mm_fixture *f, const tdn_keyed_clip *clip, int mirrored, float t, tdn_pose *pose,
                         tdn_mat4 *model, tdn_vec3 *position, float *facing)
{
    tdn_keyed_clip_sample(clip, t, pose, NULL, NULL);
    if (mirrored)
        tdn_pose_mirror(pose, f->mirror, pose, NULL);
    tdn_model_space(f->skeleton, pose, NULL, model, NULL);
    const float *m = model[f->desc.root].m;
    *position = tdn_vec3_make(m[12], 0.0f, m[14]);
    tdn_vec3 fwd = tdn_vec3_make(m[8], m[9], m[10]); /* forward is the root's +z */
    *facing = atan2f(fwd.x, fwd.z);
}

static tdn_vec3 to_root_frame(tdn_vec3 v, float facing)
{
    return tdn_vec3_make(cosf(facing) * v.x - sinf(facing) * v.z, v.y, sinf(facing) * v.x + cosf(facing) * v.z);
}

static void features_reproduce_the_clips_motion(void)
{
    mm_fixture f;
    if (!mm_fixture_humanoid(&f, 1))
        return;
    const tdn_mm_database *db = f.db;
    const int n = tdn_skeleton_joint_count(f.skeleton), dims = tdn_mm_database_dimensions(db);
    CHECK_EQ_INT(dims, 4 * 3 + 15);
    tdn_pose pose;
    tdn_pose_create(n, &pose, NULL, NULL);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)n);
    float raw[64];
    double worst_trajectory = 0, worst_facing = 0, worst_feet = 0, worst_velocity = 0;
    int frames_seen = 0, expected_frames = 0;
    const int tp = tdn_mm_database_group_start(db, TDN_MM_TRAJECTORY_POSITION);
    const int tf = tdn_mm_database_group_start(db, TDN_MM_TRAJECTORY_FACING);
    const int fp = tdn_mm_database_group_start(db, TDN_MM_FOOT_POSITION);
    const int fv = tdn_mm_database_group_start(db, TDN_MM_FOOT_VELOCITY);
    for (int c = 0; c < f.clip_count; c++)
        for (int mirrored = 0; mirrored < 2; mirrored++) {
            const int first = tdn_mm_database_clip_first_frame(db, c, mirrored);
            const int count = tdn_mm_database_clip_frame_count(db, c, mirrored);
            const int expected = (int)floorf(tdn_keyed_clip_duration(f.clips[c]) * 30.0f + 1e-3f) + 1;
            CHECK_EQ_INT(count, expected);
            expected_frames += expected;
            for (int i = first; i < first + count; i += 3) {
                tdn_mm_frame fr;
                CHECK_EQ_INT(tdn_mm_database_frame(db, i, &fr, NULL), TDN_OK);
                CHECK_EQ_INT(fr.clip, c);
                CHECK_EQ_INT(fr.mirrored, mirrored);
                CHECK_EQ_INT(fr.searchable, i - first + 15 < count);
                tdn_mm_database_denormalize(db, tdn_mm_database_features(db, i), raw, NULL);
                tdn_vec3 here, ahead;
                float facing, ahead_facing;
                root_of_pose(&f, f.clips[c], mirrored, fr.time, &pose, model, &here, &facing);
                CHECK_NEAR(fr.root.x, here.x, 1e-5);
                CHECK_NEAR(fr.root.z, here.z, 1e-5);
                /* feet: model positions in the root's frame; velocity by a central difference */
                for (int foot = 0; foot < 2; foot++) {
                    const float *m = model[foot ? f.desc.right_foot : f.desc.left_foot].m;
                    tdn_vec3 p = to_root_frame(tdn_vec3_sub(tdn_vec3_make(m[12], m[13], m[14]), here), facing);
                    worst_feet = fmax(worst_feet, tdn_vec3_length(tdn_vec3_sub(
                                                      p, tdn_vec3_make(raw[fp + 3 * foot], raw[fp + 3 * foot + 1],
                                                                       raw[fp + 3 * foot + 2]))));
                }
                if (i > first && i + 1 < first + count) {
                    tdn_vec3 before, after;
                    float unused;
                    root_of_pose(&f, f.clips[c], mirrored, fr.time - 1.0f / 30.0f, &pose, model, &before, &unused);
                    const float *m0 = model[f.desc.left_foot].m;
                    tdn_vec3 foot_before = tdn_vec3_make(m0[12], m0[13], m0[14]);
                    root_of_pose(&f, f.clips[c], mirrored, fr.time + 1.0f / 30.0f, &pose, model, &after, &unused);
                    const float *m1 = model[f.desc.left_foot].m;
                    tdn_vec3 v = to_root_frame(
                        tdn_vec3_scale(tdn_vec3_sub(tdn_vec3_make(m1[12], m1[13], m1[14]), foot_before), 15.0f),
                        facing);
                    worst_velocity = fmax(worst_velocity, tdn_vec3_length(tdn_vec3_sub(
                                                              v, tdn_vec3_make(raw[fv], raw[fv + 1], raw[fv + 2]))));
                }
                /* the trajectory: where the clip's root is 5, 10, 15 frames later (the last
                 * frame's where the clip has ended) */
                for (int k = 0; k < 3; k++) {
                    const int j = i - first + 5 * (k + 1) < count ? i - first + 5 * (k + 1) : count - 1;
                    root_of_pose(&f, f.clips[c], mirrored, (float)j / 30.0f, &pose, model, &ahead, &ahead_facing);
                    tdn_vec3 rel = to_root_frame(tdn_vec3_sub(ahead, here), facing);
                    worst_trajectory = fmax(worst_trajectory,
                                            fabs(rel.x - raw[tp + 2 * k]) + fabs(rel.z - raw[tp + 2 * k + 1]));
                    worst_facing = fmax(worst_facing, fabs(sinf(ahead_facing - facing) - raw[tf + 2 * k]) +
                                                          fabs(cosf(ahead_facing - facing) - raw[tf + 2 * k + 1]));
                }
                frames_seen++;
            }
        }
    CHECK_EQ_INT(tdn_mm_database_frame_count(db), expected_frames);
    printf(
        "mm database: %d frames checked; worst trajectory %.2g m, facing %.2g, feet %.2g m, foot velocity %.2g m/s\n",
        frames_seen, worst_trajectory, worst_facing, worst_feet, worst_velocity);
    CHECK(frames_seen > 100);
    CHECK_NEAR(worst_trajectory, 0, 2e-4);
    CHECK_NEAR(worst_facing, 0, 2e-4);
    CHECK_NEAR(worst_feet, 0, 2e-4);
    CHECK_NEAR(worst_velocity, 0, 5e-3);
    free(model);
    tdn_pose_destroy(&pose);
    mm_fixture_free(&f);
}

/* walk_forward moves +z at 1.4 m/s facing +z: its trajectory is (0, 1.4 t) in closed form;
 * turn_left turns at +90 degrees a second in place. */
static void known_clips_give_closed_form_trajectories(void)
{
    mm_fixture f;
    if (!mm_fixture_humanoid(&f, 1))
        return;
    const tdn_mm_database *db = f.db;
    float raw[64];
    const int tp = tdn_mm_database_group_start(db, TDN_MM_TRAJECTORY_POSITION);
    const int tf = tdn_mm_database_group_start(db, TDN_MM_TRAJECTORY_FACING);
    const int walk = tdn_mm_database_clip_first_frame(db, 1, 0), turn = tdn_mm_database_clip_first_frame(db, 6, 0);
    tdn_mm_database_denormalize(db, tdn_mm_database_features(db, walk + 2), raw, NULL);
    for (int k = 0; k < 3; k++) {
        CHECK_NEAR(raw[tp + 2 * k], 0.0, 1e-4);
        CHECK_NEAR(raw[tp + 2 * k + 1], 1.4 * 5 * (k + 1) / 30.0, 1e-4);
        CHECK_NEAR(raw[tf + 2 * k], 0.0, 1e-5);
        CHECK_NEAR(raw[tf + 2 * k + 1], 1.0, 1e-5);
    }
    tdn_mm_database_denormalize(db, tdn_mm_database_features(db, turn + 2), raw, NULL);
    for (int k = 0; k < 3; k++) {
        const double angle = 1.5707963 * 5 * (k + 1) / 30.0;
        CHECK_NEAR(raw[tf + 2 * k], sin(angle), 1e-4);
        CHECK_NEAR(raw[tf + 2 * k + 1], cos(angle), 1e-4);
    }
    /* mirrored strafe_left is strafe_right: the same trajectory (the humanoid's strafes are
     * mirror images), sideways to -x */
    const int left_mirrored = tdn_mm_database_clip_first_frame(db, 4, 1);
    const int right = tdn_mm_database_clip_first_frame(db, 5, 0);
    float other[64];
    tdn_mm_database_denormalize(db, tdn_mm_database_features(db, left_mirrored + 3), raw, NULL);
    tdn_mm_database_denormalize(db, tdn_mm_database_features(db, right + 3), other, NULL);
    for (int d = tp; d < tf + 6; d++)
        CHECK_NEAR(raw[d], other[d], 1e-4);
    CHECK_NEAR(raw[tp + 4], -1.4 * 15 / 30.0, 1e-3);
    mm_fixture_free(&f);
}

static void groups_are_normalized_and_weighted(void)
{
    mm_fixture f;
    if (!mm_fixture_humanoid(&f, 0))
        return;
    const float weights[TDN_MM_GROUP_COUNT] = { 2.0f, 1.0f, 0.5f, 0.25f, 3.0f };
    memcpy(f.desc.weights, weights, sizeof weights);
    f.desc.excluded = &(tdn_mm_range){ .clip = 1, .start = 0.2f, .end = 0.4f };
    f.desc.excluded_count = 1;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_mm_database_create(&f.desc, &f.db, NULL, &err), TDN_OK);
    const tdn_mm_database *db = f.db;
    const int dims = tdn_mm_database_dimensions(db), frames = tdn_mm_database_frame_count(db);
    double sum[64] = { 0 }, sum2[64] = { 0 };
    int count = 0;
    for (int i = 0; i < frames; i++) {
        tdn_mm_frame fr;
        tdn_mm_database_frame(db, i, &fr, NULL);
        if (fr.clip == 1 && fr.time >= 0.2f && fr.time <= 0.4f)
            CHECK(!fr.searchable); /* excluded, mirrored or not */
        if (!fr.searchable)
            continue;
        const float *x = tdn_mm_database_features(db, i);
        for (int d = 0; d < dims; d++)
            sum[d] += x[d], sum2[d] += (double)x[d] * x[d];
        count++;
    }
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++) {
        double spread = 0;
        for (int d = tdn_mm_database_group_start(db, g);
             d < tdn_mm_database_group_start(db, g) + tdn_mm_database_group_size(db, g); d++) {
            CHECK_NEAR(sum[d] / count, 0.0, 1e-4);
            spread += sqrt(fmax(0.0, sum2[d] / count - (sum[d] / count) * (sum[d] / count)));
        }
        CHECK_NEAR(spread / tdn_mm_database_group_size(db, g), weights[g], 1e-3 * weights[g]);
    }
    /* normalize and denormalize are inverses */
    float raw[64], back[64];
    tdn_mm_database_denormalize(db, tdn_mm_database_features(db, 7), raw, NULL);
    tdn_mm_database_normalize(db, raw, back, NULL);
    for (int d = 0; d < dims; d++)
        CHECK_NEAR(back[d], tdn_mm_database_features(db, 7)[d], 1e-5);
    mm_fixture_free(&f);
}

static unsigned char *saved(const tdn_mm_database *db, size_t *size)
{
    *size = tdn_mm_database_save_size(db);
    unsigned char *bytes = malloc(*size);
    CHECK_EQ_INT(tdn_mm_database_save_memory(db, bytes, *size - 1, NULL), TDN_ERR_OUT_OF_MEMORY);
    CHECK_EQ_INT(tdn_mm_database_save_memory(db, bytes, *size, NULL), TDN_OK);
    return bytes;
}

static void bytes_round_trip_and_bad_bytes_are_refused(void)
{
    mm_fixture f;
    if (!mm_fixture_humanoid(&f, 1))
        return;
    size_t size, size2;
    unsigned char *bytes = saved(f.db, &size);
    tdn_mm_database *loaded = NULL;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_mm_database_load_memory(bytes, size, &loaded, &counting, &err), TDN_OK);
    unsigned char *again = saved(loaded, &size2);
    CHECK(size2 == size && memcmp(bytes, again, size) == 0);
    tdn_mm_database_destroy(loaded);
    CHECK_EQ_INT(live_blocks, 0);

    /* every truncation is refused (and leaves nothing allocated) */
    int refused = 0;
    for (size_t cut = 0; cut < size; cut += cut < 256 ? 1 : 997) {
        tdn_mm_database *db = (tdn_mm_database *)1;
        refused += tdn_mm_database_load_memory(bytes, cut, &db, &counting, NULL) == TDN_ERR_PARSE && db == NULL;
        CHECK_EQ_INT(live_blocks, 0);
    }
    CHECK(refused > 256);
    /* a wrong magic, version, a NaN feature, a frame of a clip that does not exist, broken runs */
    struct {
        size_t at;
        uint32_t value;
        tdn_result expected;
        const char *where;
    } edits[] = {
        { 0, 0x58585858u, TDN_ERR_PARSE, "byte 0" },
        { 8, 2u, TDN_ERR_PARSE, "byte 8" },
        { size - 4, 0x7fc00000u, TDN_ERR_INVALID_DATA, "byte" }, /* the last feature */
        { size - 4 * (size_t)(27 * tdn_mm_database_frame_count(f.db)) - 28, 99u, TDN_ERR_INVALID_DATA,
          "byte" }, /* last frame's clip */
        /* the foot positions' group moved to the last feature: not where 3 offsets put it (words:
         * magic 2, counts and rate 6, joints and forward 6, the offsets, then the group starts) */
        { 4 * (14 + TDN_MM_MAX_OFFSETS + TDN_MM_FOOT_POSITION), 26u, TDN_ERR_INVALID_DATA, "byte" },
        /* the first scale 0: the controller could not read that feature back */
        { 4 * (14 + TDN_MM_MAX_OFFSETS + 3 * TDN_MM_GROUP_COUNT + 27), 0u, TDN_ERR_INVALID_DATA, "byte" },
    };
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        unsigned char *copy = malloc(size);
        memcpy(copy, bytes, size);
        for (int b = 0; b < 4; b++)
            copy[edits[e].at + (size_t)b] = (unsigned char)(edits[e].value >> (8 * b));
        tdn_mm_database *db = NULL;
        tdn_error e2 = { 0 };
        CHECK_EQ_INT(tdn_mm_database_load_memory(copy, size, &db, &counting, &e2), edits[e].expected);
        CHECK(db == NULL && strstr(e2.where, edits[e].where) != NULL);
        printf("bad database %zu: %s: %s\n", e, e2.where, e2.message);
        CHECK_EQ_INT(live_blocks, 0);
        free(copy);
    }
    free(again);
    free(bytes);
    mm_fixture_free(&f);
}

static void bad_descriptions_are_refused(void)
{
    mm_fixture f;
    if (!mm_fixture_humanoid(&f, 0))
        return;
    tdn_mm_database *db = (tdn_mm_database *)1;
    tdn_error err = { 0 };
    tdn_mm_database_desc d = f.desc;
    d.root = tdn_skeleton_find_joint(f.skeleton, "pelvis"); /* has a parent */
    CHECK_EQ_INT(tdn_mm_database_create(&d, &db, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK(db == NULL && strcmp(err.where, "desc.root") == 0);
    d = f.desc;
    d.offsets[1] = 5; /* not increasing */
    CHECK_EQ_INT(tdn_mm_database_create(&d, &db, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "desc.offsets") == 0);
    d = f.desc;
    d.weights[2] = NAN;
    CHECK_EQ_INT(tdn_mm_database_create(&d, &db, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "desc.weights") == 0);
    d = f.desc; /* one group at 0 beside others: its stored features would be all 0 */
    d.weights[0] = d.weights[1] = d.weights[3] = d.weights[4] = 1.0f;
    d.weights[2] = 0.0f;
    CHECK_EQ_INT(tdn_mm_database_create(&d, &db, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "desc.weights") == 0);
    d = f.desc;
    d.offsets[2] = 1000; /* longer than every clip: nothing searchable */
    CHECK_EQ_INT(tdn_mm_database_create(&d, &db, NULL, &err), TDN_ERR_INVALID_DATA);
    d = f.desc;
    tdn_asset *other = NULL;
    const char *bvh = "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\n"
                      "End Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n0 0 0\n1 0 0\n";
    CHECK_EQ_INT(
        tdn_asset_load_memory(bvh, strlen(bvh), &(tdn_asset_load_options){ .name = "other" }, &other, NULL, NULL),
        TDN_OK);
    if (other) {
        const tdn_keyed_clip *clips[2] = { f.clips[0], tdn_asset_clip(other, 0) };
        d.clips = clips;
        d.clip_count = 2;
        CHECK_EQ_INT(tdn_mm_database_create(&d, &db, NULL, &err), TDN_ERR_ARGUMENT);
        CHECK(strcmp(err.where, "desc.clips[1]") == 0);
        tdn_asset_destroy(other);
    }
    /* running out of memory at any allocation leaves nothing behind */
    d = f.desc;
    int built = 0;
    for (long fail_at = 0; fail_at < 64 && !built; fail_at++) {
        allocations_before_failure = fail_at;
        tdn_result r = tdn_mm_database_create(&d, &db, &counting, &err);
        allocations_before_failure = -1;
        if (r == TDN_OK) {
            tdn_mm_database_destroy(db);
            built = 1;
            break;
        }
        CHECK_EQ_INT(r, TDN_ERR_OUT_OF_MEMORY);
        CHECK(db == NULL);
        CHECK_EQ_INT(live_blocks, 0);
    }
    CHECK(built); /* every allocation's failure was tried */
    CHECK_EQ_INT(live_blocks, 0);
    /* features made elsewhere */
    const float bad[4] = { 0, 1, NAN, 2 };
    CHECK_EQ_INT(tdn_mm_database_create_from_features(
                     &(tdn_mm_features_desc){ .frame_count = 2, .dimensions = 2, .features = bad }, &db, NULL, &err),
                 TDN_ERR_INVALID_DATA);
    CHECK(strstr(err.message, "frame 1 feature 0") != NULL);
    mm_fixture_free(&f);
}

int main(void)
{
    features_reproduce_the_clips_motion();
    known_clips_give_closed_form_trajectories();
    groups_are_normalized_and_weighted();
    bytes_round_trip_and_bad_bytes_are_refused();
    bad_descriptions_are_refused();
    return check_summary();
}
