/* tendon tests: motion-matching databases to test against. One made from tendon's generated
 * humanoid (its eight looping locomotion clips, mirrored; every fresh clone has it), one from
 * the three LAFAN1 takes of the shared data when they are there. */
#ifndef TENDON_TEST_MM_FIXTURE_H
#define TENDON_TEST_MM_FIXTURE_H

#include <stdlib.h>

#include "check.h"
#include "test_data.h"
#include "tendon/io/humanoid.h"
#include "tendon/io/asset.h"
#include "tendon/mirror.h"
#include "tendon/mm_database.h"

#define MM_FIXTURE_MAX_CLIPS 8

typedef struct mm_fixture {
    tdn_asset *assets[MM_FIXTURE_MAX_CLIPS];
    int asset_count;
    const tdn_skeleton *skeleton;
    const tdn_keyed_clip *clips[MM_FIXTURE_MAX_CLIPS];
    int clip_count;
    int *mirror;
    tdn_mm_database_desc desc;
    tdn_mm_database *db;
} mm_fixture;

static const char *const mm_humanoid_clips[] = { "idle",        "walk_forward", "run_forward", "walk_backward",
                                                 "strafe_left", "strafe_right", "turn_left",   "turn_right" };

static inline void mm_fixture_free(mm_fixture *f)
{
    tdn_mm_database_destroy(f->db);
    free(f->mirror);
    for (int i = 0; i < f->asset_count; i++)
        tdn_asset_destroy(f->assets[i]);
    memset(f, 0, sizeof *f);
}

static inline void mm_fixture_finish(mm_fixture *f)
{
    const int n = tdn_skeleton_joint_count(f->skeleton);
    f->mirror = malloc(sizeof(int) * (size_t)n);
    CHECK_EQ_INT(tdn_mirror_table_from_names(f->skeleton, f->mirror, NULL), TDN_OK);
    f->desc.skeleton = f->skeleton;
    f->desc.clips = f->clips;
    f->desc.clip_count = f->clip_count;
    f->desc.mirror_table = f->mirror;
}

/* The humanoid's locomotion clips at 30 frames per second with offsets 5, 10, 15 frames (its
 * cycles last 0.6-3 s, shorter than the default second ahead); smoothing off, so features are
 * exactly the clips' own motion; the trajectory weighs most. The database is built unless
 * `build` is 0. */
static inline int mm_fixture_humanoid(mm_fixture *f, int build)
{
    memset(f, 0, sizeof *f);
    tdn_error err = { 0 };
    if (tdn_humanoid_create(NULL, &f->assets[0], NULL, &err) != TDN_OK) {
        CHECK(!"humanoid");
        return 0;
    }
    f->asset_count = 1;
    f->skeleton = tdn_asset_skeleton(f->assets[0]);
    for (int i = 0; i < 8; i++)
        f->clips[f->clip_count++] = tdn_asset_clip(f->assets[0],
                                                   tdn_asset_find_clip(f->assets[0], mm_humanoid_clips[i]));
    mm_fixture_finish(f);
    f->desc.sample_rate = 30.0f;
    f->desc.offsets[0] = 5, f->desc.offsets[1] = 10, f->desc.offsets[2] = 15;
    f->desc.offset_count = 3;
    f->desc.smoothing = -1.0f;
    /* its clips are separate loops with no steps between them (no start or stop), so leaving
     * one always breaks the feet's motion: the trajectory must outweigh that */
    const float weights[TDN_MM_GROUP_COUNT] = { 2.0f, 2.0f, 0.5f, 0.25f, 0.5f };
    memcpy(f->desc.weights, weights, sizeof weights);
    f->desc.root = tdn_skeleton_find_joint(f->skeleton, "root");
    f->desc.left_foot = tdn_skeleton_find_joint(f->skeleton, "foot_l");
    f->desc.right_foot = tdn_skeleton_find_joint(f->skeleton, "foot_r");
    f->desc.forward = tdn_vec3_make(0, 0, 1);
    if (build && tdn_mm_database_create(&f->desc, &f->db, NULL, &err) != TDN_OK) {
        printf("humanoid database: %s: %s\n", err.where, err.message);
        CHECK(!"humanoid database");
        return 0;
    }
    return 1;
}

/* The three LAFAN1 takes (centimetres, so scale 0.01), mirrored, at the defaults: 60 Hz,
 * offsets 20, 40, 60; the hips face their local +y. 0 (after test_data_dir's skip) without
 * the shared data. */
static inline int mm_fixture_lafan1(mm_fixture *f)
{
    memset(f, 0, sizeof *f);
    const char *dir = test_data_dir();
    if (!dir)
        return 0;
    static const char *const takes[] = { "bvh/lafan1/walk4_subject1.bvh", "bvh/lafan1/multipleActions1_subject1.bvh",
                                         "bvh/lafan1/push1_subject2.bvh" };
    tdn_asset_load_options options = { .scale = 0.01f };
    for (int i = 0; i < 3; i++) {
        char path[512];
        tdn_error err = { 0 };
        if (tdn_asset_load(test_data_path(path, sizeof path, dir, takes[i]), &options, &f->assets[i], NULL, &err) !=
            TDN_OK) {
            printf("%s: %s: %s\n", path, err.where, err.message);
            CHECK(!"LAFAN1 take");
            mm_fixture_free(f);
            return 0;
        }
        f->asset_count++;
        f->clips[f->clip_count++] = tdn_asset_clip(f->assets[i], 0);
    }
    f->skeleton = tdn_asset_skeleton(f->assets[0]);
    mm_fixture_finish(f);
    f->desc.root = 0;
    f->desc.left_foot = tdn_skeleton_find_joint(f->skeleton, "LeftFoot");
    f->desc.right_foot = tdn_skeleton_find_joint(f->skeleton, "RightFoot");
    f->desc.forward = tdn_vec3_make(0, 1, 0);
    tdn_error err = { 0 };
    if (tdn_mm_database_create(&f->desc, &f->db, NULL, &err) != TDN_OK) {
        printf("LAFAN1 database: %s: %s\n", err.where, err.message);
        CHECK(!"LAFAN1 database");
        mm_fixture_free(f);
        return 0;
    }
    return 1;
}

/* ---- stick paths: what a game asks the character to do ---- */

/* Segments of (seconds, speed, heading, facing), degrees about +Y from +Z towards +X. */
typedef struct segment {
    float seconds, speed, heading, facing;
} segment;

static inline float path_seconds(const segment *path, int count)
{
    float total = 0;
    for (int s = 0; s < count; s++)
        total += path[s].seconds;
    return total;
}

/* The segment playing at time t (the last one from its start on). */
static inline const segment *segment_at(const segment *path, int count, float t)
{
    int s = 0;
    while (s + 1 < count && t >= path[s].seconds)
        t -= path[s++].seconds;
    return &path[s];
}

#endif
