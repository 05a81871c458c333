/* Compressed clips in runtime packs (the 'CLIP' section, docs/pack-format.md): a clip opened from
 * a pack samples bit-identically to the clip it was written from (at frames, between them and at
 * random times; held, constant, 4-component and key-reduced tracks, additive clips, float curves
 * and events; a real BVH take), opening is one allocation and sampling none; every field the
 * sampler reads, made bad, is refused naming its byte; truncations and random changes are
 * refused or open a clip that samples without fault (the sanitize build runs this too). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "pack_image.h"
#include "tendon/tendon_io.h"
#include "test_data.h"

enum { JOINTS = 9, KEYS = 121 }; /* 4 s at 30 keys/s */

/* ---- the fixture: every kind of track the compressed storage has ---- */

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
    tdn_skeleton *skel = NULL;
    CHECK_EQ_INT(
        tdn_skeleton_create(
            &(tdn_skeleton_desc){ .joint_count = JOINTS, .names = names, .parents = parents, .rest_pose = rest }, &skel,
            NULL, NULL),
        TDN_OK);
    return skel;
}

/* Every joint turns about its own axis; the head not at all (constant), arm_l swings to 172
 * degrees either side of its mean (4-component segments), hand_r's translation steps (held),
 * the root walks; a linear and a cubic float curve, three events. */
typedef struct motion {
    float times[KEYS];
    float t[JOINTS][KEYS * 3], r[JOINTS][KEYS * 4];
    tdn_track_desc tracks[2 * JOINTS];
    float curve_times[3], linear[3], cubic[9];
    tdn_float_track_desc floats[2];
    tdn_event_desc events[3];
} motion;

static tdn_keyed_clip *make_motion(motion *m, const tdn_skeleton *skel, const char *name)
{
    check_rng rng = { 18 };
    int n = 0;
    for (int k = 0; k < KEYS; k++)
        m->times[k] = (float)k / 30.0f;
    for (int j = 0; j < JOINTS; j++) {
        const tdn_transform rest = tdn_skeleton_rest(skel, j);
        const tdn_vec3 axis = tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1));
        const float tempo = check_rng_float(&rng, 1.0f, 4.0f);
        const float swing = j == 4 ? 0.0f : j == 5 ? 3.0f : check_rng_float(&rng, 0.2f, 1.0f);
        for (int k = 0; k < KEYS; k++) {
            const float time = m->times[k];
            const tdn_quat q = tdn_quat_mul(tdn_quat_from_axis_angle(axis, swing * sinf(tempo * time)), rest.r);
            m->r[j][k * 4] = q.x, m->r[j][k * 4 + 1] = q.y, m->r[j][k * 4 + 2] = q.z, m->r[j][k * 4 + 3] = q.w;
            tdn_vec3 p = rest.t;
            if (j == 0)
                p = tdn_vec3_make(0.05f * sinf(3.0f * time), 1.0f + 0.03f * cosf(6.0f * time), 1.4f * time);
            if (j == 8)
                p.x -= 0.01f * (float)(k / 20);
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
    const float curve_times[3] = { 0.0f, 1.5f, 3.25f }, linear[3] = { 0.0f, 1.0f, 0.25f };
    const float cubic[9] = { 0, 0, 1, -1, 2, 0, 0.5f, -0.5f, 0 };
    memcpy(m->curve_times, curve_times, sizeof curve_times);
    memcpy(m->linear, linear, sizeof linear);
    memcpy(m->cubic, cubic, sizeof cubic);
    m->floats[0] = (tdn_float_track_desc){ "contact_l", TDN_INTERP_LINEAR, 3, m->curve_times, m->linear };
    m->floats[1] = (tdn_float_track_desc){ "blink", TDN_INTERP_CUBIC, 3, m->curve_times, m->cubic };
    m->events[0] = (tdn_event_desc){ "step_r", 2.5f };
    m->events[1] = (tdn_event_desc){ "step_l", 0.5f };
    m->events[2] = (tdn_event_desc){ "end", 4.0f };
    tdn_keyed_clip *clip = NULL;
    CHECK_EQ_INT(tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .name = name,
                                                               .skeleton = skel,
                                                               .tracks = m->tracks,
                                                               .track_count = n,
                                                               .float_tracks = m->floats,
                                                               .float_track_count = 2,
                                                               .events = m->events,
                                                               .event_count = 3 },
                                       &clip, NULL, NULL),
                 TDN_OK);
    return clip;
}

/* `rate` 0: the default. */
static tdn_clip *compressed(const tdn_keyed_clip *source, float rate, const tdn_pose *additive_reference)
{
    tdn_clip *clip = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = source,
                                                        .sample_rate = rate,
                                                        .storage = TDN_STORAGE_COMPRESSED,
                                                        .additive_reference_pose = additive_reference },
                                      &clip, NULL, &err),
                      TDN_OK))
        printf("  %s: %s\n", err.where, err.message);
    return clip;
}

/* A pack of the skeleton and the clips (each animating it). */
static image pack_of(const tdn_skeleton *skel, tdn_clip *const *clips, int count)
{
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_skeleton(w, "rig", skel, NULL, &err) == TDN_OK);
    for (int i = 0; i < count; i++) {
        int index = -1;
        CHECK(tdn_pack_writer_add_clip(w, clips[i], 0, &index, &err) == TDN_OK);
        CHECK_EQ_INT(index, i);
    }
    return image_of(w);
}

/* The fixture: the motion compressed, and the same motion as an additive clip on the rest pose. */
typedef struct fixture {
    tdn_skeleton *skel;
    motion m;
    tdn_keyed_clip *source;
    tdn_pose rest;
    tdn_clip *clips[2];
    image im;
} fixture;

static fixture *fixture_make(void)
{
    fixture *f = calloc(1, sizeof *f);
    f->skel = make_skeleton();
    f->source = make_motion(&f->m, f->skel, "walk");
    tdn_pose_create(JOINTS, &f->rest, NULL, NULL);
    tdn_pose_set_rest(&f->rest, f->skel, NULL);
    /* at 4 frames a key the linear keys leave frames a lerp of their neighbours: key reduction */
    f->clips[0] = compressed(f->source, 120.0f, NULL);
    f->clips[1] = compressed(f->source, 0.0f, &f->rest);
    f->im = pack_of(f->skel, f->clips, 2);
    return f;
}

static void fixture_free(fixture *f)
{
    tdn_free(f->im.bytes, f->im.size, NULL);
    tdn_clip_destroy(f->clips[0]);
    tdn_clip_destroy(f->clips[1]);
    tdn_pose_destroy(&f->rest);
    tdn_keyed_clip_destroy(f->source);
    tdn_skeleton_destroy(f->skel);
    free(f);
}

/* ---- reading the file's numbers (the format's, as a reader from docs/pack-format.md would) ---- */

/* The offset of the first section of `kind` (-th of its kind: `nth`), from the table. */
static size_t section_of(const image *im, uint32_t kind, int nth)
{
    const size_t table = u32_at(im->bytes + 24);
    for (uint32_t s = 0; s < u32_at(im->bytes + 32); s++) {
        const unsigned char *e = im->bytes + table + 32 * (size_t)s;
        if (u32_at(e) == kind && nth-- == 0)
            return u32_at(e + 8);
    }
    return 0;
}

/* Header fields of the clip section (docs/pack-format.md, "Clip"). */
enum {
    NAME,
    SKELETON,
    FRAME_COUNT,
    JOINT_COUNT,
    DURATION,
    SAMPLE_RATE,
    ADDITIVE,
    ANIMATED_COUNT,
    HOLD_RUN_COUNT,
    HOLD_RUNS,
    FRAMES,
    CONSTANT_POSE,
    GROUP_COUNT,
    GROUPS,
    SEGMENT_COUNT,
    SEGMENT_RECORD_BYTES,
    RECORDS,
    WORD_COUNT,
    WORDS,
    FLOAT_TRACK_COUNT,
    FLOAT_TRACKS,
    EVENT_COUNT,
    EVENT_NAMES,
    EVENT_TIMES
};
enum {
    GROUP_BYTES = 232,
    G_KIND = 0,
    G_JOINT = 4,
    G_STRIDE = 20,
    G_FIRST = 24,
    G_LAST = 28,
    G_RECORD_OFFSET = 32,
    G_RECORD_COMPONENTS = 36,
    G_MIN = 40,
    G_MEAN = 168
};

static size_t field_at(size_t clip, int field) { return clip + 4 * (size_t)field; }
static uint32_t field(const image *im, size_t clip, int f) { return u32_at(im->bytes + field_at(clip, f)); }
/* Byte of the array at header field f, plus `plus`. */
static size_t array_at(const image *im, size_t clip, int f, size_t plus) { return clip + field(im, clip, f) + plus; }

/* ---- comparing ---- */

static int poses_equal(const tdn_pose *a, const tdn_pose *b)
{
    return memcmp(a->data, b->data, sizeof(float) * TDN_POSE_ROWS * (size_t)a->stride) == 0;
}

/* Both clips at every frame, midpoint and quarter point, at random times and outside the clip:
 * the same bits. Returns the times that differ. */
static int sample_differences(const tdn_clip *a, const tdn_clip *b, uint64_t seed)
{
    const int J = tdn_clip_joint_count(a);
    tdn_pose pa, pb;
    tdn_pose_create(J, &pa, NULL, NULL);
    tdn_pose_create(J, &pb, NULL, NULL);
    const float duration = tdn_clip_duration(a), rate = tdn_clip_sample_rate(a);
    const int steps = 4 * (int)lroundf(duration * rate);
    check_rng rng = { seed };
    int differ = 0;
    for (int i = -2; i <= steps + 2 + 500; i++) {
        const float t = i <= steps + 2 ? (float)i / (4.0f * rate) : check_rng_float(&rng, 0.0f, duration);
        memset(pa.data, 0xff, sizeof(float) * TDN_POSE_ROWS * (size_t)pa.stride); /* NaN: an unwritten value shows */
        memset(pb.data, 0xff, sizeof(float) * TDN_POSE_ROWS * (size_t)pb.stride);
        tdn_clip_sample(a, t, &pa, NULL);
        tdn_clip_sample(b, t, &pb, NULL);
        differ += !poses_equal(&pa, &pb);
    }
    tdn_pose_destroy(&pa);
    tdn_pose_destroy(&pb);
    return differ;
}

static void check_annotations_equal(const tdn_clip *a, const tdn_clip *b)
{
    CHECK_EQ_INT(tdn_clip_float_track_count(b), tdn_clip_float_track_count(a));
    CHECK_EQ_INT(tdn_clip_event_count(b), tdn_clip_event_count(a));
    int differ = 0;
    for (int i = 0; i < tdn_clip_float_track_count(a); i++) {
        differ += strcmp(tdn_clip_float_track_name(a, i), tdn_clip_float_track_name(b, i)) != 0;
        differ += tdn_clip_find_float_track(b, tdn_clip_float_track_name(a, i)) != i;
        for (int k = -4; k <= 200; k++) {
            const float t = 0.021f * (float)k, x = tdn_clip_sample_float(a, i, t), y = tdn_clip_sample_float(b, i, t);
            differ += memcmp(&x, &y, sizeof x) != 0;
        }
    }
    for (int i = 0; i < tdn_clip_event_count(a); i++)
        differ += strcmp(tdn_clip_event_name(a, i), tdn_clip_event_name(b, i)) != 0;
    differ += memcmp(tdn_clip_event_times(a), tdn_clip_event_times(b), sizeof(float) * (size_t)tdn_clip_event_count(a));
    CHECK_EQ_INT(differ, 0);
}

static void check_clips_equal(const tdn_clip *a, const tdn_clip *b, uint64_t seed)
{
    CHECK(strcmp(tdn_clip_name(a), tdn_clip_name(b)) == 0);
    CHECK(tdn_clip_duration(a) == tdn_clip_duration(b));
    CHECK(tdn_clip_sample_rate(a) == tdn_clip_sample_rate(b));
    CHECK_EQ_INT(tdn_clip_joint_count(b), tdn_clip_joint_count(a));
    CHECK_EQ_INT(tdn_clip_is_additive(b), tdn_clip_is_additive(a));
    CHECK_EQ_INT(sample_differences(a, b, seed), 0);
    check_annotations_equal(a, b);
}

/* What the fixture's first clip holds, read from its section: held and constant components,
 * 4-component segments, key reduction. The bit-identity test means something only if it does. */
static void check_fixture_covers_the_layout(const image *im)
{
    const size_t clip = section_of(im, TDN_PACK_FOURCC('C', 'L', 'I', 'P'), 0);
    CHECK(field(im, clip, HOLD_RUN_COUNT) > 0);
    CHECK(field(im, clip, CONSTANT_POSE) != 0);
    int four = 0, reduced = 0;
    const uint32_t groups = field(im, clip, GROUP_COUNT), segments = field(im, clip, SEGMENT_COUNT);
    for (uint32_t s = 0; s < segments; s++)
        for (uint32_t g = 0; g < groups; g++) {
            const size_t offset = u32_at(im->bytes + array_at(im, clip, GROUPS, g * GROUP_BYTES + G_RECORD_OFFSET));
            const unsigned char *record = im->bytes + array_at(im, clip, RECORDS,
                                                               s * field(im, clip, SEGMENT_RECORD_BYTES) + offset);
            four += record[1] == 4;
            reduced += record[2] > 1;
        }
    printf("  fixture: %u groups, %u segments, %d records of 4 components, %d key-reduced\n", groups, segments, four,
           reduced);
    CHECK(four > 0);
    CHECK(reduced > 0);
    CHECK(field(im, clip, FLOAT_TRACK_COUNT) == 2 && field(im, clip, EVENT_COUNT) == 3);
}

/* ---- round trips ---- */

static void round_trip(void)
{
    fixture *f = fixture_make();
    check_fixture_covers_the_layout(&f->im);
    tdn_pack *pack = NULL;
    tdn_error err = { 0 };
    const long before = total_allocations;
    CHECK_EQ_INT(tdn_pack_open(f->im.bytes, f->im.size, &pack, &counting, &err), TDN_OK);
    CHECK_EQ_INT(total_allocations - before, 1); /* opening is one allocation */
    if (!pack) {
        fixture_free(f);
        return;
    }
    CHECK_EQ_INT(tdn_pack_clip_count(pack), 2);
    CHECK(strcmp(tdn_pack_clip_name(pack, 1), "walk") == 0);
    CHECK_EQ_INT(tdn_pack_clip_skeleton(pack, 0), 0);
    CHECK_EQ_INT(tdn_pack_clip_skeleton(pack, 2), -1);
    CHECK_EQ_INT(tdn_pack_find_clip(pack, "walk"), 0);
    CHECK_EQ_INT(tdn_pack_find_clip(pack, "run"), -1);
    CHECK(tdn_pack_clip(pack, 2) == NULL && tdn_pack_clip(pack, -1) == NULL && tdn_pack_clip_name(pack, 2) == NULL);
    CHECK(tdn_clip_is_additive(tdn_pack_clip(pack, 1)));
    for (int i = 0; i < 2; i++)
        check_clips_equal(f->clips[i], tdn_pack_clip(pack, i), 40 + (uint64_t)i);
    /* nothing copied: the clip's events are the caller's bytes */
    const unsigned char *times = (const unsigned char *)tdn_clip_event_times(tdn_pack_clip(pack, 0));
    CHECK(times > f->im.bytes && times < f->im.bytes + f->im.size);
    /* sampling allocates nothing */
    tdn_pose pose;
    tdn_pose_create(JOINTS, &pose, NULL, NULL);
    const long sampled = total_allocations;
    for (int i = 0; i < 200; i++)
        tdn_clip_sample(tdn_pack_clip(pack, i % 2), 0.0213f * (float)i, &pose, NULL);
    CHECK_EQ_INT(total_allocations - sampled, 0);
    tdn_pose_destroy(&pose);
    tdn_pack_destroy(pack);
    CHECK_EQ_INT(live_blocks, 0);
    fixture_free(f);
}

/* One frame, and frame counts that leave a last segment of 1 and of 2 frames. */
static void short_clips(void)
{
    tdn_skeleton *skel = make_skeleton();
    motion m;
    tdn_keyed_clip *source = make_motion(&m, skel, "short");
    const float rates[3] = { 0.1f, 8.0f, 8.25f }; /* 1 frame (0.4 s ends before frame 1), 33, 34 */
    for (int r = 0; r < 3; r++) {
        tdn_clip *clip = NULL;
        CHECK_EQ_INT(
            tdn_clip_create(
                &(tdn_clip_desc){ .source = source, .sample_rate = rates[r], .storage = TDN_STORAGE_COMPRESSED }, &clip,
                NULL, NULL),
            TDN_OK);
        if (!clip)
            continue;
        image im = pack_of(skel, &clip, 1);
        tdn_pack *pack = NULL;
        CHECK_EQ_INT(tdn_pack_open(im.bytes, im.size, &pack, NULL, NULL), TDN_OK);
        if (pack)
            CHECK_EQ_INT(sample_differences(clip, tdn_pack_clip(pack, 0), 7), 0);
        tdn_pack_destroy(pack);
        tdn_free(im.bytes, im.size, NULL);
        tdn_clip_destroy(clip);
    }
    tdn_keyed_clip_destroy(source);
    tdn_skeleton_destroy(skel);
}

static void motion_capture(void)
{
    tdn_asset *asset = test_data_asset("bvh/cmu/cgspeed-mb/walk.bvh", 0.056444f);
    if (!asset)
        return;
    tdn_clip *clip = compressed(tdn_asset_clip(asset, 0), 0.0f, NULL);
    image im = pack_of(tdn_asset_skeleton(asset), &clip, 1);
    tdn_pack *pack = NULL;
    CHECK_EQ_INT(tdn_pack_open(im.bytes, im.size, &pack, NULL, NULL), TDN_OK);
    if (pack && clip) {
        printf("  walk.bvh: %zu bytes in memory, a %zu-byte pack\n", tdn_clip_memory_size(clip), im.size);
        check_clips_equal(clip, tdn_pack_clip(pack, 0), 9);
    }
    tdn_pack_destroy(pack);
    tdn_free(im.bytes, im.size, NULL);
    tdn_clip_destroy(clip);
    tdn_asset_destroy(asset);
}

/* ---- the writer's refusals ---- */

static void writer_refusals(void)
{
    tdn_skeleton *skel = make_skeleton();
    motion m;
    tdn_keyed_clip *source = make_motion(&m, skel, "walk");
    tdn_clip *plain = NULL;
    CHECK_EQ_INT(
        tdn_clip_create(&(tdn_clip_desc){ .source = source, .storage = TDN_STORAGE_FLOAT32 }, &plain, NULL, NULL),
        TDN_OK);
    tdn_clip *packed = compressed(source, 0.0f, NULL);
    static const char *const names[2] = { "a", "b" };
    const int parents[2] = { -1, 0 };
    tdn_skeleton *two = NULL;
    CHECK_EQ_INT(tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 2, .names = names, .parents = parents }, &two,
                                     NULL, NULL),
                 TDN_OK);
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_clip(w, packed, 0, NULL, &err) == TDN_ERR_ARGUMENT && !strcmp(err.where, "skeleton"));
    CHECK(tdn_pack_writer_add_skeleton(w, "rig", skel, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_skeleton(w, "two", two, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_clip(w, plain, 0, NULL, &err) == TDN_ERR_ARGUMENT && !strcmp(err.where, "clip"));
    CHECK(strstr(err.message, "COMPRESSED") != NULL);
    CHECK(tdn_pack_writer_add_clip(w, packed, 1, NULL, &err) == TDN_ERR_ARGUMENT && !strcmp(err.where, "skeleton"));
    CHECK(tdn_pack_writer_add_clip(w, NULL, 0, NULL, &err) == TDN_ERR_ARGUMENT && !strcmp(err.where, "clip"));
    CHECK(tdn_pack_writer_add_section(w, TDN_PACK_FOURCC('C', 'L', 'I', 'P'), "x", 1, 32, &err) == TDN_ERR_ARGUMENT);
    CHECK(tdn_pack_writer_add_clip(w, packed, 0, NULL, &err) == TDN_OK);
    tdn_pack_writer_destroy(w);
    tdn_skeleton_destroy(two);
    tdn_clip_destroy(plain);
    tdn_clip_destroy(packed);
    tdn_keyed_clip_destroy(source);
    tdn_skeleton_destroy(skel);
}

/* ---- corruption ---- */

/* Opens the bytes: refused naming a byte with nothing left allocated, or opened into clips that
 * sample (at frames, between them, outside) and answer their accessors without fault. */
static tdn_result open_checked(const unsigned char *bytes, size_t size, tdn_error *err)
{
    tdn_pack *pack = NULL;
    const tdn_result r = open_counted(bytes, size, &pack, err);
    if (r != TDN_OK)
        return r;
    for (int c = 0; c < tdn_pack_clip_count(pack); c++) {
        const tdn_clip *clip = tdn_pack_clip(pack, c);
        tdn_pose pose;
        tdn_pose_create(tdn_clip_joint_count(clip), &pose, NULL, NULL);
        for (int i = -1; i < 40; i++)
            tdn_clip_sample(clip, tdn_clip_duration(clip) * (float)i / 37.0f, &pose, NULL);
        for (int i = 0; i < tdn_clip_float_track_count(clip); i++)
            (void)tdn_clip_sample_float(clip, i, 0.5f);
        for (int i = 0; i < tdn_clip_event_count(clip); i++)
            CHECK(tdn_clip_event_name(clip, i) != NULL);
        tdn_pose_destroy(&pose);
    }
    tdn_pack_destroy(pack);
    CHECK_EQ_INT(live_blocks, 0);
    return r;
}

/* The value at `at` made `value` (n bytes): refused naming byte `named` (the field at fault:
 * `at` itself but for a value that makes another field wrong), the clip and `says`. */
static void check_refused_at(const image *im, size_t at, const void *value, size_t n, size_t named, const char *says)
{
    unsigned char *c = copy_of(im);
    memcpy(c + at, value, n);
    tdn_error err;
    char where[32];
    snprintf(where, sizeof where, "byte %zu", named);
    const tdn_result r = open_checked(c, im->size, &err);
    const int ok = r == TDN_ERR_INVALID_DATA && strcmp(err.where, where) == 0 && strstr(err.message, "clip 0") &&
                   strstr(err.message, says);
    if (!CHECK(ok))
        printf("  %s (%s): got %s: %s: %s\n", says, where, tdn_result_name(r), err.where, err.message);
    free(c);
}
static void check_refused(const image *im, size_t at, const void *value, size_t n, const char *says)
{
    check_refused_at(im, at, value, n, at, says);
}
static void refused_u32(const image *im, size_t at, uint32_t v, const char *says)
{
    check_refused(im, at, &v, 4, says);
}
static void refused_f32(const image *im, size_t at, float v, const char *says) { check_refused(im, at, &v, 4, says); }

static void fields_checked(void)
{
    fixture *f = fixture_make();
    const image *im = &f->im;
    const size_t clip = section_of(im, TDN_PACK_FOURCC('C', 'L', 'I', 'P'), 0);
    const uint32_t J = field(im, clip, JOINT_COUNT), frames = field(im, clip, FRAME_COUNT);
    const uint32_t animated = field(im, clip, ANIMATED_COUNT), words = field(im, clip, WORD_COUNT);
    const uint32_t segments = field(im, clip, SEGMENT_COUNT), srb = field(im, clip, SEGMENT_RECORD_BYTES);
    const float nan = NAN;
    float duration;
    memcpy(&duration, im->bytes + field_at(clip, DURATION), 4);
    CHECK_EQ_INT(J, JOINTS);
    CHECK_EQ_INT(segments, (frames + 31) / 32);

    /* the header */
    refused_u32(im, field_at(clip, NAME), 1u << 30, "name");
    refused_u32(im, field_at(clip, SKELETON), 1, "skeleton");
    refused_u32(im, field_at(clip, JOINT_COUNT), J + 1, "joint_count");
    refused_f32(im, field_at(clip, DURATION), nan, "duration");
    refused_f32(im, field_at(clip, DURATION), -1.0f, "duration");
    const float twice = 2.0f * duration; /* the frame count no longer matches */
    check_refused_at(im, field_at(clip, DURATION), &twice, 4, field_at(clip, FRAME_COUNT), "frame_count");
    refused_f32(im, field_at(clip, SAMPLE_RATE), 0.0f, "sample_rate");
    refused_f32(im, field_at(clip, SAMPLE_RATE), INFINITY, "sample_rate");
    refused_u32(im, field_at(clip, FRAME_COUNT), frames + 1, "frame_count");
    refused_u32(im, field_at(clip, FRAME_COUNT), 0, "frame_count");
    refused_u32(im, field_at(clip, ADDITIVE), 2, "additive");
    refused_u32(im, field_at(clip, ANIMATED_COUNT), 10 * J + 1, "animated_count");
    refused_u32(im, field_at(clip, ANIMATED_COUNT), 10 * J, "frame values"); /* more than the section holds */
    refused_u32(im, field_at(clip, HOLD_RUN_COUNT), 10 * J + 1, "hold_run_count");
    refused_u32(im, field_at(clip, GROUP_COUNT), 3 * J + 1, "group_count");
    refused_u32(im, field_at(clip, SEGMENT_COUNT), segments + 1, "segment_count");
    refused_u32(im, field_at(clip, SEGMENT_RECORD_BYTES), srb + 1, "segment_record_bytes");
    refused_u32(im, field_at(clip, SEGMENT_RECORD_BYTES), 0xffffffffu, "record bytes");
    refused_u32(im, field_at(clip, WORD_COUNT), 0xfffffff0u, "words");
    refused_u32(im, field_at(clip, FLOAT_TRACK_COUNT), 1u << 30, "float tracks");
    refused_u32(im, field_at(clip, EVENT_COUNT), 1u << 30, "events");
    refused_u32(im, field_at(clip, FRAMES), field(im, clip, FRAMES) + 4, "frames offset");
    refused_u32(im, field_at(clip, CONSTANT_POSE), field(im, clip, CONSTANT_POSE) + 16, "constant_pose offset");
    refused_u32(im, field_at(clip, GROUPS), 0xfffffff0u, "groups offset");
    refused_u32(im, field_at(clip, EVENT_TIMES), 8, "event_times offset"); /* inside the header */
    refused_u32(im, field_at(clip, 24), 1, "reserved");
    refused_u32(im, field_at(clip, 31), 1, "reserved");

    /* hold runs, frames, the constant pose */
    refused_u32(im, array_at(im, clip, HOLD_RUNS, 0), 10, "row");
    refused_u32(im, array_at(im, clip, HOLD_RUNS, 4), (uint32_t)-1, "joints");
    refused_u32(im, array_at(im, clip, HOLD_RUNS, 4), J, "joints");
    refused_u32(im, array_at(im, clip, HOLD_RUNS, 8), animated, "animated_count");
    refused_u32(im, array_at(im, clip, HOLD_RUNS, 8), INT32_MAX, "animated_count"); /* src + count overflows an int */
    refused_u32(im, array_at(im, clip, HOLD_RUNS, 4), INT32_MAX, "joints");
    refused_u32(im, array_at(im, clip, HOLD_RUNS, 12), 0, "count");
    refused_f32(im, array_at(im, clip, FRAMES, 4 * (animated * frames - 1)), nan, "frames[");
    const size_t stride = (size_t)tdn_pose_stride((int)J);
    refused_f32(im, array_at(im, clip, CONSTANT_POSE, 4 * (3 * stride + 2)), INFINITY, "constant_pose[");
    refused_f32(im, array_at(im, clip, CONSTANT_POSE, 4 * (6 * stride + J)), 0.5f, "padding");
    /* the padding's masked compare: its first lane and the last row's last lane are found; -0 is
     * 0, and the last joint's lane is no padding */
    CHECK(stride > J);
    refused_f32(im, array_at(im, clip, CONSTANT_POSE, 4 * J), 1.0f, "row 0 padding lane");
    char last_lane[64];
    snprintf(last_lane, sizeof last_lane, "row 9 padding lane %zu is 0, not 1", stride - 1);
    refused_f32(im, array_at(im, clip, CONSTANT_POSE, 4 * (10 * stride - 1)), 0.0f, last_lane);
    unsigned char *kept = copy_of(im);
    const float minus_zero = -0.0f, joint_value = 5.0f;
    memcpy(kept + array_at(im, clip, CONSTANT_POSE, 4 * (J + 1)), &minus_zero, 4);
    memcpy(kept + array_at(im, clip, CONSTANT_POSE, 4 * (J - 1)), &joint_value, 4);
    tdn_error kept_err;
    CHECK(open_checked(kept, im->size, &kept_err) == TDN_OK);
    free(kept);

    /* the groups: 0 and the first rotation group, and the last */
    const uint32_t groups = field(im, clip, GROUP_COUNT);
    uint32_t rotation = 0;
    while (rotation < groups && u32_at(im->bytes + array_at(im, clip, GROUPS, rotation * GROUP_BYTES)) != 1)
        rotation++;
    CHECK(rotation < groups);
    const size_t g0 = array_at(im, clip, GROUPS, 0), gr = array_at(im, clip, GROUPS, rotation * GROUP_BYTES);
    const size_t gl = array_at(im, clip, GROUPS, (groups - 1) * GROUP_BYTES);
    const uint32_t kind0 = u32_at(im->bytes + g0), stride0 = u32_at(im->bytes + g0 + G_STRIDE);
    refused_u32(im, g0 + G_KIND, 3, "kind");
    refused_u32(im, g0 + G_STRIDE, 0, "stride");
    refused_u32(im, g0 + G_STRIDE, 5, "stride");
    refused_u32(im, g0 + G_JOINT, J, "joint[0]");
    if (stride0 < 4)
        refused_u32(im, g0 + G_JOINT + 4 * stride0, 0, "not -1");
    refused_u32(im, g0 + G_FIRST, u32_at(im->bytes + g0 + G_FIRST) + 1, "first_joint");
    refused_u32(im, g0 + G_LAST, u32_at(im->bytes + g0 + G_LAST) + 1, "last_joint");
    refused_u32(im, g0 + G_RECORD_COMPONENTS, 5, "record_components");
    if (kind0 != 1)
        refused_u32(im, g0 + G_RECORD_COMPONENTS, 4, "record_components");
    refused_u32(im, gl + G_RECORD_OFFSET, u32_at(im->bytes + gl + G_RECORD_OFFSET) + 1, "record_offset");
    refused_f32(im, g0 + G_MIN + 4 * 5, nan, "min[1][1]");
    refused_f32(im, gr + G_MEAN + 4 * 4 * 3, nan, "mean[3][0]");
    refused_f32(im, gr + G_MEAN, 0.5f, "mean rotation"); /* lane 0's x: no longer of unit length */
    /* a later rotation group taking the first one's joint 0 (its first and last joint kept true) */
    uint32_t other = rotation + 1;
    while (other < groups && u32_at(im->bytes + array_at(im, clip, GROUPS, other * GROUP_BYTES)) != 1)
        other++;
    CHECK(other < groups);
    if (other < groups) {
        const size_t go = array_at(im, clip, GROUPS, other * GROUP_BYTES);
        unsigned char *c = copy_of(im);
        const uint32_t taken = u32_at(im->bytes + gr + G_JOINT), n = u32_at(im->bytes + go + G_STRIDE);
        put_u32(c + go + G_JOINT, taken);
        uint32_t lo = taken, hi = taken;
        for (uint32_t i = 1; i < n; i++) {
            const uint32_t j = u32_at(c + go + G_JOINT + 4 * i);
            lo = j < lo ? j : lo;
            hi = j > hi ? j : hi;
        }
        put_u32(c + go + G_FIRST, lo);
        put_u32(c + go + G_LAST, hi);
        tdn_error err;
        char where[32];
        snprintf(where, sizeof where, "byte %zu", go + G_JOINT);
        CHECK_EQ_INT(open_checked(c, im->size, &err), TDN_ERR_INVALID_DATA);
        if (!CHECK(strcmp(err.where, where) == 0 && strstr(err.message, "in an earlier group of its kind")))
            printf("  got %s: %s\n", err.where, err.message);
        free(c);
    }

    /* the records of the last segment (its frame count - 1 decides which steps divide it) */
    const size_t last = array_at(im, clip, RECORDS, (segments - 1) * srb + u32_at(im->bytes + gl + G_RECORD_OFFSET));
    const uint32_t last_frames = frames - 32 * (segments - 1);
    const unsigned char bits = 25, three = 3, five = 5;
    check_refused(im, last, &bits, 1, "bits 25 > 24");
    check_refused(im, last + 1, &five, 1, "components 5");
    check_refused(im, last + 2, &three, 1, "step 3");
    for (unsigned char step = 2; step <= 8; step *= 2)
        if ((last_frames - 1) % step != 0) {
            check_refused(im, last + 2, &step, 1, "dividing");
            break;
        }
    refused_u32(im, last + 4, words, "word_count"); /* its streams start at the end */
    refused_u32(im, array_at(im, clip, WORDS, 4 * (words + 7)), 1, "guard word 7");

    /* float tracks and events */
    const size_t track1 = array_at(im, clip, FLOAT_TRACKS, 32);
    const size_t times1 = clip + u32_at(im->bytes + track1 + 12), values1 = clip + u32_at(im->bytes + track1 + 16);
    refused_u32(im, track1, 1u << 30, "name");
    refused_u32(im, track1 + 4, 3, "interp");
    refused_u32(im, track1 + 8, 0, "key_count");
    refused_u32(im, track1 + 8, 1u << 28, "key_count");
    refused_u32(im, track1 + 12, u32_at(im->bytes + track1 + 12) + 4, "times offset");
    refused_u32(im, track1 + 16, 4, "values offset");
    refused_u32(im, track1 + 28, 1, "reserved");
    refused_f32(im, times1 + 4, nan, "key 1: key time");
    refused_f32(im, times1 + 8, 1.0f, "key 2: key times must be strictly increasing");
    refused_f32(im, values1 + 4 * 3 * 2 + 4, INFINITY, "key 2: value component 1"); /* cubic: 3 floats a key */
    refused_u32(im, array_at(im, clip, EVENT_NAMES, 8), 1u << 30, "event 2");
    refused_f32(im, array_at(im, clip, EVENT_TIMES, 8), duration + 0.5f, "event 2: time");
    refused_f32(im, array_at(im, clip, EVENT_TIMES, 4), nan, "event 1: time");
    refused_f32(im, array_at(im, clip, EVENT_TIMES, 4), 0.25f, "before event 0"); /* sorted by time */
    fixture_free(f);
}

/* Truncated at every 64th length with the header's size made to agree, so that the clip's own
 * checks meet the missing bytes: refused, every one. */
static void truncations(void)
{
    fixture *f = fixture_make();
    unsigned char *c = copy_of(&f->im);
    tdn_error err;
    int tried = 0, refused = 0;
    for (size_t len = 64; len < f->im.size; len += 64) {
        const uint64_t size = len;
        memcpy(c + 16, &size, 8);
        tried++;
        refused += open_checked(c, len, &err) != TDN_OK;
    }
    CHECK_EQ_INT(refused, tried);
    free(c);
    fixture_free(f);
}

/* Random changes to the clip sections' bytes (one to four bytes at a time): refused naming a
 * byte, or opened into clips that sample without fault. */
static void random_changes(void)
{
    fixture *f = fixture_make();
    unsigned char *c = copy_of(&f->im);
    const size_t first = section_of(&f->im, TDN_PACK_FOURCC('C', 'L', 'I', 'P'), 0);
    const size_t end = u32_at(f->im.bytes + 24); /* the strings and the table follow the sections */
    tdn_error err;
    check_rng rng = { 1184 };
    int refused = 0, opened = 0;
    for (int t = 0; t < 3000; t++) {
        size_t at[4];
        const int n = 1 + (int)(check_rng_u32(&rng) % 4);
        for (int i = 0; i < n; i++) {
            at[i] = first + (size_t)check_rng_u32(&rng) % (end - first);
            c[at[i]] = (unsigned char)check_rng_u32(&rng);
        }
        if (open_checked(c, f->im.size, &err) == TDN_OK)
            opened++;
        else
            refused++;
        for (int i = 0; i < n; i++)
            c[at[i]] = f->im.bytes[at[i]];
    }
    printf("  3000 random changes: %d refused, %d opened and sampled\n", refused, opened);
    CHECK(refused > 0 && opened > 0);
    free(c);
    fixture_free(f);
}

int main(void)
{
    RUN(round_trip);
    RUN(short_clips);
    RUN(motion_capture);
    RUN(writer_refusals);
    RUN(fields_checked);
    RUN(truncations);
    RUN(random_changes);
    return check_summary();
}
