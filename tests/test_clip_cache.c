/* Clip caches: sampling through a cache gives the bits tdn_clip_sample gives, whatever the order
 * of the times (forward at several rates, backward, jumps, past the ends), on the generated
 * humanoid's compressed clips (one of them, idle, has groups of several key steps), an additive
 * one, a clip animating every component of every joint (translation, rotation and scale, the
 * rotations near half a turn from their parents'), a held rotation beside a packed one, a
 * one-frame clip, motion capture, and clips of the other storages; it never allocates; bad
 * arguments are named. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "tendon/tendon_io.h"
#include "test_data.h"

/* A time sequence: `count` times from `start`, `step` apart, or (step 0) pseudo-random in
 * [-0.1, duration + 0.1]. */
typedef struct sequence {
    const char *name;
    float start, step;
    int count;
} sequence;

static float sequence_time(const sequence *q, int i, float duration, check_rng *rng)
{
    if (q->step == 0.0f)
        return check_rng_float(rng, -0.1f, duration + 0.1f);
    const float t = q->start + q->step * (float)i;
    return duration > 0.0f ? fmodf(fmodf(t, duration) + duration, duration) : t;
}

/* Samples `clip` through a fresh cache and without one along each sequence: the number of times
 * whose poses (every float of them, padding lanes included) differ. */
static int differences(const tdn_clip *clip)
{
    const float duration = tdn_clip_duration(clip), rate = tdn_clip_sample_rate(clip);
    const sequence sequences[] = {
        { "60 Hz forward", 0.0f, 1.0f / 60.0f, 400 },       { "at the clip's rate", 0.0f, 1.0f / rate, 200 },
        { "every 7 frames", 0.01f, 7.0f / rate, 100 },      { "three quarters of a frame on", 0.0f, 0.75f / rate, 300 },
        { "60 Hz backward", duration, -1.0f / 60.0f, 300 }, { "anywhere", 0.0f, 0.0f, 300 },
    };
    const int J = tdn_clip_joint_count(clip);
    tdn_pose plain, cached;
    tdn_pose_create(J, &plain, NULL, NULL);
    tdn_pose_create(J, &cached, NULL, NULL);
    tdn_clip_cache *cache = NULL;
    CHECK_EQ_INT(tdn_clip_cache_create(clip, &cache, NULL, NULL), TDN_OK);
    check_rng rng = { 5 };
    int differ = 0;
    for (size_t k = 0; k < sizeof sequences / sizeof sequences[0] && cache; k++)
        for (int i = 0; i < sequences[k].count; i++) {
            const float t = sequence_time(&sequences[k], i, duration, &rng);
            /* what the pose held before must not matter: both start from different garbage */
            for (int v = 0; v < TDN_POSE_ROWS * plain.stride; v++)
                plain.data[v] = cached.data[v] = (float)(v % 7) - 3.0f;
            tdn_clip_sample(clip, t, &plain, NULL);
            CHECK_EQ_INT(tdn_clip_sample_cached(clip, cache, t, &cached, NULL), TDN_OK);
            if (memcmp(plain.data, cached.data, sizeof(float) * TDN_POSE_ROWS * (size_t)plain.stride) != 0 &&
                differ++ == 0)
                printf("  %s: %s at %.4f s differs\n", tdn_clip_name(clip), sequences[k].name, t);
        }
    tdn_clip_cache_destroy(cache);
    tdn_pose_destroy(&plain);
    tdn_pose_destroy(&cached);
    return differ;
}

static tdn_clip *compressed(const tdn_clip_desc *desc)
{
    tdn_clip_desc d = *desc;
    d.storage = TDN_STORAGE_COMPRESSED;
    tdn_clip *clip = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_clip_create(&d, &clip, NULL, &err), TDN_OK))
        printf("  %s: %s\n", err.where, err.message);
    return clip;
}

/* The tracks made a keyed clip of `skel`, compressed: differences() of it (0 when it cannot be
 * made, a failed check). */
static int tracks_differences(const char *name, const tdn_skeleton *skel, const tdn_track_desc *tracks, int count)
{
    tdn_keyed_clip *source = NULL;
    CHECK_EQ_INT(tdn_keyed_clip_create(
                     &(tdn_keyed_clip_desc){ .name = name, .skeleton = skel, .tracks = tracks, .track_count = count },
                     &source, NULL, NULL),
                 TDN_OK);
    tdn_clip *clip = source ? compressed(&(tdn_clip_desc){ .source = source }) : NULL;
    const int differ = clip ? differences(clip) : 0;
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(source);
    return differ;
}

static void humanoid_clips(void)
{
    tdn_asset *humanoid = NULL;
    CHECK_EQ_INT(tdn_humanoid_create(NULL, &humanoid, NULL, NULL), TDN_OK);
    for (int c = 0; humanoid && c < tdn_asset_clip_count(humanoid); c++) {
        tdn_clip *clip = compressed(&(tdn_clip_desc){ .source = tdn_asset_clip(humanoid, c) });
        if (clip)
            CHECK_EQ_INT(differences(clip), 0);
        tdn_clip_destroy(clip);
    }
    /* an additive clip: its differences from a reference */
    const int aim_up = tdn_asset_find_clip(humanoid, "aim_up"), walk = tdn_asset_find_clip(humanoid, "walk_forward");
    CHECK(aim_up >= 0 && walk >= 0);
    tdn_clip *additive = compressed(&(tdn_clip_desc){ .source = tdn_asset_clip(humanoid, walk),
                                                      .additive_reference_clip = tdn_asset_clip(humanoid, aim_up) });
    if (additive)
        CHECK_EQ_INT(differences(additive), 0);
    tdn_clip_destroy(additive);
    tdn_asset_destroy(humanoid);
}

enum { CHAIN = 13, KEYS = 97 };

/* A chain whose every joint moves in translation, rotation and scale at its own tempo, each
 * joint's frame half a turn from its parent's (stored rotations keep w there); and the same
 * chain holding its first key (a clip of one frame). */
static void dense_and_single_frame(void)
{
    const char *names[CHAIN];
    char storage[CHAIN][8];
    int parents[CHAIN];
    tdn_transform rest[CHAIN];
    for (int j = 0; j < CHAIN; j++) {
        snprintf(storage[j], sizeof storage[j], "j%d", j);
        names[j] = storage[j];
        parents[j] = j - 1;
        rest[j] = tdn_transform_identity();
        rest[j].t.y = 0.2f;
        rest[j].r = tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), 3.1f);
    }
    tdn_skeleton *skel = NULL;
    CHECK_EQ_INT(
        tdn_skeleton_create(
            &(tdn_skeleton_desc){ .joint_count = CHAIN, .names = names, .parents = parents, .rest_pose = rest }, &skel,
            NULL, NULL),
        TDN_OK);
    static float times[KEYS], t[CHAIN][KEYS * 3], r[CHAIN][KEYS * 4], s[CHAIN][KEYS * 3];
    tdn_track_desc tracks[3 * CHAIN];
    check_rng rng = { 11 };
    for (int k = 0; k < KEYS; k++)
        times[k] = (float)k / 30.0f;
    for (int j = 0; j < CHAIN; j++) {
        const tdn_vec3 axis = tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1));
        const float tempo = check_rng_float(&rng, 1.0f, 5.0f);
        for (int k = 0; k < KEYS; k++) {
            const float a = tempo * times[k];
            const tdn_quat q = tdn_quat_mul(tdn_quat_from_axis_angle(axis, 0.8f * sinf(a)), rest[j].r);
            memcpy(&r[j][4 * k], &q, sizeof q);
            t[j][3 * k] = 0.02f * sinf(a), t[j][3 * k + 1] = 0.2f + 0.01f * cosf(a), t[j][3 * k + 2] = 0.0f;
            s[j][3 * k] = s[j][3 * k + 1] = s[j][3 * k + 2] = 1.0f + 0.1f * sinf(0.5f * a);
        }
        const tdn_track_target targets[3] = { TDN_TARGET_TRANSLATION, TDN_TARGET_ROTATION, TDN_TARGET_SCALE };
        const float *values[3] = { t[j], r[j], s[j] };
        for (int x = 0; x < 3; x++)
            tracks[3 * j + x] = (tdn_track_desc){ .joint = j,
                                                  .target = targets[x],
                                                  .interp = TDN_INTERP_LINEAR,
                                                  .key_count = KEYS,
                                                  .times = times,
                                                  .values = values[x] };
    }
    for (int keys = KEYS; keys >= 1; keys -= KEYS - 1) {
        for (int i = 0; i < 3 * CHAIN; i++)
            tracks[i].key_count = keys;
        CHECK_EQ_INT(tracks_differences(keys > 1 ? "dense" : "one frame", skel, tracks, 3 * CHAIN), 0);
    }
    tdn_skeleton_destroy(skel);
}

/* A held (STEP) rotation whose w never changes (120 degrees about x, then y, then z: w = 0.5 at
 * every key, stored once, its x, y and z held) beside a packed rotation in the same block of
 * joints: the cache interpolates only the packed lanes. */
static void held_rotations(void)
{
    const char *names[2] = { "root", "held" };
    const int parents[2] = { -1, 0 };
    tdn_transform rest[2] = { tdn_transform_identity(), tdn_transform_identity() };
    rest[1].t.y = 0.3f;
    tdn_skeleton *skel = NULL;
    CHECK_EQ_INT(tdn_skeleton_create(
                     &(tdn_skeleton_desc){ .joint_count = 2, .names = names, .parents = parents, .rest_pose = rest },
                     &skel, NULL, NULL),
                 TDN_OK);
    enum { K = 31 };
    static float times[K], swing[K * 4], held[K * 4];
    const tdn_vec3 axes[3] = { tdn_vec3_make(1, 0, 0), tdn_vec3_make(0, 1, 0), tdn_vec3_make(0, 0, 1) };
    for (int k = 0; k < K; k++) {
        times[k] = (float)k / 30.0f;
        const tdn_quat q = tdn_quat_from_axis_angle(axes[2], 0.5f * sinf(3.0f * times[k]));
        const tdn_quat h = tdn_quat_from_axis_angle(axes[(k / 10) % 3], 2.0943951f);
        memcpy(&swing[4 * k], &q, sizeof q);
        memcpy(&held[4 * k], &h, sizeof h);
    }
    const tdn_track_desc tracks[2] = {
        { .joint = 0,
          .target = TDN_TARGET_ROTATION,
          .interp = TDN_INTERP_LINEAR,
          .key_count = K,
          .times = times,
          .values = swing },
        { .joint = 1,
          .target = TDN_TARGET_ROTATION,
          .interp = TDN_INTERP_STEP,
          .key_count = K,
          .times = times,
          .values = held },
    };
    CHECK_EQ_INT(tracks_differences("held", skel, tracks, 2), 0);
    tdn_skeleton_destroy(skel);
}

/* Motion capture at 120 frames/s, and the storages whose caches are only a header. */
static void motion_capture_and_other_storages(void)
{
    tdn_asset *asset = test_data_asset("bvh/cmu/cgspeed-mb/walk.bvh", 0.056444f);
    if (!asset)
        return;
    const tdn_clip_storage storages[] = { TDN_STORAGE_COMPRESSED, TDN_STORAGE_INT16, TDN_STORAGE_FLOAT32 };
    for (int k = 0; k < 3; k++) {
        tdn_clip *clip = NULL;
        CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = tdn_asset_clip(asset, 0), .storage = storages[k] },
                                     &clip, NULL, NULL),
                     TDN_OK);
        if (clip)
            CHECK_EQ_INT(differences(clip), 0);
        if (clip && k > 0)
            CHECK(tdn_clip_cache_bytes(clip) <= 256);
        tdn_clip_destroy(clip);
    }
    tdn_asset_destroy(asset);
}

/* A cache in caller memory; sampling through it never allocates; creating one frees what it took. */
static void caller_memory_and_allocations(void)
{
    tdn_asset *humanoid = NULL;
    CHECK_EQ_INT(tdn_humanoid_create(NULL, &humanoid, NULL, NULL), TDN_OK);
    tdn_clip *clip = humanoid ? compressed(&(tdn_clip_desc){
                                    .source = tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, "idle")) })
                              : NULL;
    if (!clip) {
        tdn_asset_destroy(humanoid);
        return;
    }
    const size_t bytes = tdn_clip_cache_bytes(clip);
    CHECK(bytes % TDN_CLIP_CACHE_ALIGN == 0);
    /* two poses of the clip's stride, at least */
    CHECK(bytes >= 2 * TDN_POSE_ROWS * sizeof(float) * (size_t)tdn_pose_stride(tdn_clip_joint_count(clip)));
    void *memory = aligned_alloc(TDN_CLIP_CACHE_ALIGN, bytes);
    tdn_clip_cache *cache = NULL;
    CHECK_EQ_INT(tdn_clip_cache_init(clip, memory, bytes, &cache, NULL), TDN_OK);
    tdn_pose a, b;
    tdn_pose_create(tdn_clip_joint_count(clip), &a, NULL, NULL);
    tdn_pose_create(tdn_clip_joint_count(clip), &b, NULL, NULL);
    const long before = total_allocations;
    for (int i = 0; i < 200 && cache; i++) {
        tdn_clip_sample_cached(clip, cache, 0.013f * (float)i, &a, NULL);
        tdn_clip_sample(clip, 0.013f * (float)i, &b, NULL);
        CHECK(memcmp(a.data, b.data, sizeof(float) * TDN_POSE_ROWS * (size_t)a.stride) == 0);
    }
    CHECK_EQ_INT((int)(total_allocations - before), 0);
    tdn_clip_cache_destroy(cache); /* made in caller memory: left alone */
    free(memory);
    CHECK_EQ_INT(tdn_clip_cache_create(clip, &cache, &counting, NULL), TDN_OK);
    CHECK(live_bytes > 0);
    tdn_clip_cache_destroy(cache);
    CHECK_EQ_INT((int)live_bytes, 0);
    tdn_pose_destroy(&a);
    tdn_pose_destroy(&b);
    tdn_clip_destroy(clip);
    tdn_asset_destroy(humanoid);
}

/* Each bad argument is refused, naming it. */
static void bad_arguments_named(void)
{
    tdn_asset *humanoid = NULL;
    CHECK_EQ_INT(tdn_humanoid_create(NULL, &humanoid, NULL, NULL), TDN_OK);
    if (!humanoid)
        return;
    tdn_clip *idle = compressed(&(tdn_clip_desc){ .source = tdn_asset_clip(humanoid, 0) });
    tdn_clip *walk = compressed(&(tdn_clip_desc){ .source = tdn_asset_clip(humanoid, 1) });
    tdn_clip_cache *cache = NULL;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_clip_cache_create(idle, &cache, NULL, NULL), TDN_OK);
    tdn_pose pose, small;
    tdn_pose_create(tdn_clip_joint_count(idle), &pose, NULL, NULL);
    tdn_pose_create(3, &small, NULL, NULL);
    tdn_error e[5];
    memset(e, 0, sizeof e);
    const tdn_result results[5] = {
        tdn_clip_sample_cached(NULL, cache, 0.0f, &pose, &e[0]),
        tdn_clip_sample_cached(idle, NULL, 0.0f, &pose, &e[1]),
        tdn_clip_sample_cached(walk, cache, 0.0f, &pose, &e[2]),
        tdn_clip_sample_cached(idle, cache, 0.0f, NULL, &e[3]),
        tdn_clip_sample_cached(idle, cache, 0.0f, &small, &e[4]),
    };
    const char *const where[5] = { "clip", "cache", "cache", "pose", "pose" };
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_INT(results[i], TDN_ERR_ARGUMENT);
        if (!CHECK(strncmp(e[i].where, where[i], strlen(where[i])) == 0))
            printf("  case %d: where '%s', message '%s'\n", i, e[i].where, e[i].message);
    }
    const size_t bytes = tdn_clip_cache_bytes(idle);
    unsigned char *memory = aligned_alloc(TDN_CLIP_CACHE_ALIGN, bytes + TDN_CLIP_CACHE_ALIGN);
    tdn_clip_cache *made = (tdn_clip_cache *)1;
    CHECK_EQ_INT(tdn_clip_cache_init(idle, memory + 4, bytes, &made, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "memory") == 0 && made == NULL);
    CHECK_EQ_INT(tdn_clip_cache_init(idle, memory, bytes - 1, &made, &err), TDN_ERR_OUT_OF_MEMORY);
    CHECK(strcmp(err.where, "bytes") == 0);
    CHECK_EQ_INT(tdn_clip_cache_init(NULL, memory, bytes, &made, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "clip") == 0);
    CHECK_EQ_INT(tdn_clip_cache_create(idle, NULL, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "out") == 0);
    CHECK_EQ_INT((int)tdn_clip_cache_bytes(NULL), 0);
    tdn_clip_cache_destroy(NULL);
    free(memory);
    tdn_clip_cache_destroy(cache);
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&small);
    tdn_clip_destroy(idle);
    tdn_clip_destroy(walk);
    tdn_asset_destroy(humanoid);
}

int main(void)
{
    RUN(humanoid_clips);
    RUN(dense_and_single_frame);
    RUN(held_rotations);
    RUN(motion_capture_and_other_storages);
    RUN(caller_memory_and_allocations);
    RUN(bad_arguments_named);
    return check_summary();
}
