/* tendon tests: the ranges a motion-matching database keeps (docs/motion-matching.md). The
 * humanoid's database, saved, then one number at a time set beyond its range in the bytes: the
 * loader refuses each at the byte the layout puts it (once, a rate of 3e38 overflowed the frame
 * a time falls on, and features of 3e38 made every search cost infinite). The builders refuse
 * what would make such a database, and a controller over a database at the edges of the ranges
 * stays on its frames at finite places. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "mm_fixture.h"
#include "tendon/mm_controller.h"

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static void beyond_the_ranges_bytes_are_refused(const mm_fixture *f)
{
    const size_t size = tdn_mm_database_save_size(f->db);
    unsigned char *bytes = malloc(size);
    if (!CHECK(bytes && tdn_mm_database_save_memory(f->db, bytes, size, NULL) == TDN_OK))
        return;
    /* the layout (src/core/mm_database_memory.c): 8 bytes of magic, then 4-byte words: version, 4 counts,
     * rate, 3 joints, forward x y z, the offsets, 5 group starts, 5 group sizes, 5 weights, the
     * means and scales (dims each), 4 words a clip for its runs, 7 words a frame (clip, flags,
     * time, root x y z, facing), the features */
    const int dims = tdn_mm_database_dimensions(f->db), frames = tdn_mm_database_frame_count(f->db);
    const size_t weights = 4 * (size_t)(2 + 6 + 6 + TDN_MM_MAX_OFFSETS + 2 * TDN_MM_GROUP_COUNT);
    const size_t means = weights + 4 * TDN_MM_GROUP_COUNT, scales = means + 4 * (size_t)dims;
    const size_t frame0 = scales + 4 * (size_t)dims + 16 * (size_t)tdn_mm_database_clip_count(f->db);
    const size_t features = frame0 + 28 * (size_t)frames;
    CHECK(features + 4 * (size_t)frames * (size_t)dims == size);
    const struct {
        size_t at;
        float value;
        size_t named;
    } edits[] = {
        { 28, 3e38f, 28 }, /* the rate */
        { 28, 1000.5f, 28 },
        { 44, 2e6f, 44 },                     /* forward x (named where the axis starts) */
        { weights + 8, 1.5e6f, weights + 8 }, /* a weight */
        { means + 4, -2e6f, means + 4 },      /* a mean */
        { scales, 1e11f, scales },            /* a scale, too large and too small */
        { scales + 8, 5e-7f, scales + 8 },
        { frame0 + 8, 3e38f, frame0 }, /* frame 0's time, named where the frame starts */
        { frame0 + 8, 1.0000001e6f, frame0 },
        { frame0 + 28 + 12, 3e38f, frame0 + 28 }, /* frame 1's root x */
        { frame0 + 28 + 24, 7.0f, frame0 + 28 },  /* its facing, beyond 2 pi */
        { features + 4 * 5, 3e38f, features + 4 * 5 },
        { size - 4, -1.0000001e6f, size - 4 },
    };
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        unsigned char *copy = malloc(size);
        memcpy(copy, bytes, size);
        const uint32_t v = bits_of(edits[e].value);
        for (int b = 0; b < 4; b++)
            copy[edits[e].at + (size_t)b] = (unsigned char)(v >> (8 * b));
        tdn_mm_database *db = NULL;
        tdn_error err = { 0 };
        char where[32];
        snprintf(where, sizeof where, "byte %zu", edits[e].named);
        if (!CHECK_EQ_INT(tdn_mm_database_load_memory(copy, size, &db, NULL, &err), TDN_ERR_INVALID_DATA) ||
            !CHECK(db == NULL && strcmp(err.where, where) == 0))
            fprintf(stderr, "  edit %zu (%g at byte %zu): %s: %s\n", e, (double)edits[e].value, edits[e].at, err.where,
                    err.message);
        tdn_mm_database_destroy(db);
        free(copy);
    }
    /* the limits themselves load: the rate 1000, a weight and a feature of exactly 1e6 */
    unsigned char *copy = malloc(size);
    memcpy(copy, bytes, size);
    const struct {
        size_t at;
        float value;
    } edges[] = { { 28, 1000.0f }, { weights, 1e6f }, { size - 4, 1e6f } };
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
        for (int b = 0; b < 4; b++)
            copy[edges[e].at + (size_t)b] = (unsigned char)(bits_of(edges[e].value) >> (8 * b));
    tdn_mm_database *db = NULL;
    CHECK_EQ_INT(tdn_mm_database_load_memory(copy, size, &db, NULL, NULL), TDN_OK);
    tdn_mm_database_destroy(db);
    free(copy);
    free(bytes);
}

static void builders_refuse_what_a_loader_would(const mm_fixture *f)
{
    tdn_mm_database *db = (tdn_mm_database *)1;
    tdn_error err = { 0 };
    tdn_mm_database_desc d = f->desc;
    d.sample_rate = 1001.0f;
    CHECK_EQ_INT(tdn_mm_database_create(&d, &db, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK(db == NULL && strcmp(err.where, "desc.sample_rate") == 0);
    d = f->desc;
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++)
        d.weights[g] = g == 3 ? 2e6f : 1.0f;
    CHECK_EQ_INT(tdn_mm_database_create(&d, &db, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "desc.weights") == 0);
    /* a clip of 1e9 s: its frame count, 6e10 at 60 Hz, is refused as a float, before it is an int */
    const float times[2] = { 0.0f, 1e9f }, values[8] = { 0, 0, 0, 1, 0, 0, 0, 1 };
    const tdn_track_desc track = { .joint = 0,
                                   .target = TDN_TARGET_ROTATION,
                                   .interp = TDN_INTERP_LINEAR,
                                   .key_count = 2,
                                   .times = times,
                                   .values = values };
    const tdn_keyed_clip_desc long_desc = {
        .name = "long", .skeleton = f->skeleton, .tracks = &track, .track_count = 1, .duration = 1e9f
    };
    tdn_keyed_clip *long_clip = NULL;
    if (CHECK_EQ_INT(tdn_keyed_clip_create(&long_desc, &long_clip, NULL, NULL), TDN_OK)) {
        const tdn_keyed_clip *clips[1] = { long_clip };
        d = f->desc;
        d.clips = clips;
        d.clip_count = 1;
        d.mirror_table = NULL;
        CHECK_EQ_INT(tdn_mm_database_create(&d, &db, NULL, &err), TDN_ERR_ARGUMENT);
        CHECK(strcmp(err.where, "desc.clips[0]") == 0 && strstr(err.message, "too many frames") != NULL);
    }
    tdn_keyed_clip_destroy(long_clip);
    /* features made elsewhere: a feature of 3e38, a rate of 3e38, 2 frames at 1e-7 Hz (1e7 s) */
    const float far[4] = { 0, 1, 3e38f, 2 }, near[4] = { 0, 1, 2, 3 };
    CHECK_EQ_INT(tdn_mm_database_create_from_features(
                     &(tdn_mm_features_desc){ .frame_count = 2, .dimensions = 2, .features = far }, &db, NULL, &err),
                 TDN_ERR_INVALID_DATA);
    CHECK(strstr(err.message, "frame 1 feature 0") != NULL);
    CHECK_EQ_INT(
        tdn_mm_database_create_from_features(
            &(tdn_mm_features_desc){ .frame_count = 2, .dimensions = 2, .features = near, .sample_rate = 3e38f }, &db,
            NULL, &err),
        TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(
        tdn_mm_database_create_from_features(
            &(tdn_mm_features_desc){ .frame_count = 2, .dimensions = 2, .features = near, .sample_rate = 1e-7f }, &db,
            NULL, &err),
        TDN_ERR_ARGUMENT);
    CHECK(db == NULL);
}

/* The controller's float-to-int conversions (the frame a time falls on, the skip window, the
 * feet's ground bins) hold for any time and setting: a second of updates with a skip window of
 * 3e38 s and one update of 1e30 s land on frames of the database at finite places. */
static void a_controller_at_the_edges_stays_on_its_frames(const mm_fixture *f)
{
    tdn_mm_controller_desc desc = { 0 };
    desc.database = f->db;
    desc.skeleton = f->skeleton;
    desc.clips = f->clips;
    desc.clip_count = f->clip_count;
    desc.mirror_table = f->mirror;
    desc.skip_window = 3e38f;
    tdn_mm_controller *c = NULL;
    tdn_pose pose = { 0 };
    if (!CHECK_EQ_INT(tdn_mm_controller_create(&desc, &c, NULL, NULL), TDN_OK) ||
        !CHECK_EQ_INT(tdn_pose_create(tdn_skeleton_joint_count(f->skeleton), &pose, NULL, NULL), TDN_OK)) {
        tdn_mm_controller_destroy(c);
        return;
    }
    int off = 0;
    for (int k = 0; k <= 60; k++) {
        const tdn_mm_input in = { tdn_vec3_make(k < 30 ? 0.0f : 1.4f, 0, 0), k < 30 ? 0.0f : 1.5707964f };
        tdn_mm_status s;
        const float dt = k == 60 ? 1e30f : 1.0f / 60.0f;
        CHECK_EQ_INT(tdn_mm_controller_update(c, &in, dt, &pose, &s, NULL), TDN_OK);
        off += s.frame < 0 || s.frame >= tdn_mm_database_frame_count(f->db) || !isfinite(s.time) ||
               !isfinite(s.position.x) || !isfinite(s.position.z);
    }
    CHECK_EQ_INT(off, 0);
    tdn_pose_destroy(&pose);
    tdn_mm_controller_destroy(c);
}

int main(void)
{
    mm_fixture f;
    if (!CHECK(mm_fixture_humanoid(&f, 1)))
        return check_summary();
    RUN_ARGS(beyond_the_ranges_bytes_are_refused(&f));
    RUN_ARGS(builders_refuse_what_a_loader_would(&f));
    RUN_ARGS(a_controller_at_the_edges_stays_on_its_frames(&f));
    mm_fixture_free(&f);
    return check_summary();
}
