/* Fuzz target: runtime pack bytes (tdn_pack_open). Any input must open or fail cleanly (the
 * sanitizers catch the rest); a failure must leave no pack and name a byte; an opened pack must
 * hold only valid values: every skeleton finds each joint by its name and computes model space
 * and a palette from its rest pose, every mesh index and joint is in range, every clip samples
 * (at frames, between them, outside) and answers its annotations, every graph's text is a C string
 * of its size and names a skeleton of the pack, every graph definition builds a graph that
 * updates and evaluates (or is refused naming a place), every stored root track builds a track that
 * reports finite motion, every database loads, saves to its image and answers a search, and
 * what opened packs again
 * through the writer (which checks what it is given as the loader does) and opens with the same
 * contents, its clips sampling to the same bits; and the pack reads as an asset (its clips keyed
 * at their frames) or fails cleanly. The bytes are copied to memory aligned as tdn_pack_open requires
 * (libFuzzer's are not). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tendon/clip.h"
#include "tendon/clip_cache.h"
#include "tendon/io/asset.h"
#include "tendon/mm_database.h"
#include "tendon/model_space.h"
#include "tendon/pack.h"
#include "tendon/packed_graph.h"
#include "tendon/pose.h"
#include "tendon/root_motion.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk_skeleton(const tdn_skeleton *k)
{
    const int n = tdn_skeleton_joint_count(k);
    for (int j = 0; j < n; j++)
        if (tdn_skeleton_parent(k, j) >= j || tdn_skeleton_find_joint(k, tdn_skeleton_joint_name(k, j)) != j ||
            tdn_skeleton_subtree_end(k, j) <= j || tdn_skeleton_subtree_end(k, j) > n)
            abort();
    if (n > 4096) /* fine for the library, slow for fuzzing */
        return;
    tdn_pose pose;
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)n);
    if (!model || tdn_pose_create(n, &pose, NULL, NULL) != TDN_OK) {
        free(model);
        return;
    }
    if (tdn_pose_set_rest(&pose, k, NULL) != TDN_OK || tdn_model_space(k, &pose, NULL, model, NULL) != TDN_OK ||
        tdn_palette(k, model, model, NULL) != TDN_OK)
        abort();
    tdn_pose_destroy(&pose);
    free(model);
}

static void walk_mesh(const tdn_pack *pack, const tdn_pack_mesh *m)
{
    const int joints = tdn_skeleton_joint_count(tdn_pack_skeleton(pack, m->skeleton));
    if (!m->name || m->vertex_count < 1 || joints < 1 || m->index_count % 3 != 0 || !m->positions)
        abort();
    for (int i = 0; i < m->index_count; i++)
        if (m->indices[i] >= (uint32_t)m->vertex_count)
            abort();
    for (long i = 0; i < 4L * m->influence_sets * m->vertex_count; i++)
        if (m->joints[i] >= joints || !(m->weights[i] >= 0.0f))
            abort();
}

/* A clip's poses at a few times (frames, between them, outside), into `poses` (8 poses of
 * 10 x stride floats) when given; sampled through a clip cache too, at those times and playing
 * forward at half a frame a sample, with the same bits. */
enum { CLIP_TIMES = 8, CACHED_TIMES = 24 };
static int sample_clip(const tdn_clip *clip, float *poses)
{
    const int n = tdn_clip_joint_count(clip);
    tdn_pose pose, cached;
    if (n > 4096 || tdn_pose_create(n, &pose, NULL, NULL) != TDN_OK) /* fine for the library, slow here */
        return 0;
    tdn_clip_cache *cache = NULL;
    if (tdn_pose_create(n, &cached, NULL, NULL) != TDN_OK || tdn_clip_cache_create(clip, &cache, NULL, NULL) != TDN_OK)
        abort();
    const size_t floats = (size_t)TDN_POSE_ROWS * (size_t)pose.stride;
    const float half_frame = 0.5f / tdn_clip_sample_rate(clip);
    for (int i = 0; i < CLIP_TIMES + CACHED_TIMES; i++) {
        const float t = i < CLIP_TIMES ? tdn_clip_duration(clip) * ((float)i - 1.0f) / 5.3f
                                       : half_frame * (float)(i - CLIP_TIMES);
        tdn_clip_sample(clip, t, &pose, NULL);
        tdn_clip_sample_cached(clip, cache, t, &cached, NULL);
        if (memcmp(pose.data, cached.data, floats * sizeof(float)) != 0)
            abort();
        if (poses && i < CLIP_TIMES)
            memcpy(poses + (size_t)i * floats, pose.data, floats * sizeof(float));
    }
    tdn_clip_cache_destroy(cache);
    tdn_pose_destroy(&cached);
    for (int i = 0; i < tdn_clip_float_track_count(clip); i++)
        (void)tdn_clip_sample_float(clip, i, 0.4f);
    for (int i = 0; i < tdn_clip_event_count(clip); i++)
        if (!tdn_clip_event_name(clip, i))
            abort();
    tdn_pose_destroy(&pose);
    return 1;
}

static int finite_motion(const tdn_root_motion *m)
{
    const float v[7] = { m->translation.x, m->translation.y, m->translation.z, m->rotation.x,
                         m->rotation.y,    m->rotation.z,    m->rotation.w };
    for (int k = 0; k < 7; k++)
        if (!(v[k] - v[k] == 0.0f))
            return 0;
    return 1;
}

/* Each root track the pack stores (joints of clip i) builds a track over its frames whose
 * motions are finite: the frames are finite with unit rotations. */
static void walk_roots(const tdn_pack *pack, int i)
{
    const int joints = tdn_clip_joint_count(tdn_pack_clip(pack, i));
    const float d = tdn_clip_duration(tdn_pack_clip(pack, i));
    for (int j = 0; j < joints; j++) {
        if (!tdn_pack_has_root_track(pack, i, j))
            continue;
        const tdn_root_track_desc desc = { j, (tdn_root_rotation)(j % 3), j % 2, { 0, 0, 0 } };
        tdn_root_track *track = NULL;
        if (tdn_pack_root_track(pack, i, &desc, &track, NULL, NULL) != TDN_OK)
            abort();
        tdn_root_motion m = tdn_root_track_lap(track);
        if (!finite_motion(&m) || tdn_root_track_motion_between(track, 0.3f * d, -1.0f, &m, NULL) != TDN_OK ||
            !finite_motion(&m))
            abort();
        tdn_root_track_destroy(track);
    }
}

/* Database i: named, of a skeleton of the pack, checked at open so that it loads (memory
 * permitting), saves to the image it was loaded from, and answers a search. */
static void walk_database(const tdn_pack *pack, int i)
{
    const int skeleton = tdn_pack_database_skeleton(pack, i);
    if (!tdn_pack_database_name(pack, i) || skeleton < 0 || skeleton >= tdn_pack_skeleton_count(pack))
        abort();
    size_t size = 0;
    const void *image = tdn_pack_database_image(pack, i, &size);
    if (size > ((size_t)1 << 24)) /* fine for the library, slow for fuzzing */
        return;
    tdn_mm_database *db = NULL;
    tdn_error err = { 0 };
    if (tdn_pack_database_load(pack, i, &db, NULL, &err) != TDN_OK) {
        if (err.code != TDN_ERR_OUT_OF_MEMORY)
            abort();
        return;
    }
    unsigned char *again = malloc(size);
    float query[TDN_MM_MAX_DIMENSIONS] = { 0 };
    tdn_mm_match match;
    if (!again || tdn_mm_database_save_size(db) != size ||
        tdn_mm_database_save_memory(db, again, size, NULL) != TDN_OK || memcmp(again, image, size) != 0 ||
        tdn_mm_search(db, query, -1, 0.0f, TDN_MM_SEARCH_ACCELERATED, &match, NULL) != TDN_OK)
        abort();
    free(again);
    tdn_mm_database_destroy(db);
}

/* Clips a and b sample to the same bits. */
static void same_samples(const tdn_clip *a, const tdn_clip *b)
{
    const size_t floats = (size_t)TDN_POSE_ROWS * (size_t)tdn_pose_stride(tdn_clip_joint_count(a)) * CLIP_TIMES;
    float *pa = malloc(floats * sizeof(float)), *pb = malloc(floats * sizeof(float));
    if (pa && pb && sample_clip(a, pa) && sample_clip(b, pb) && memcmp(pa, pb, floats * sizeof(float)) != 0)
        abort();
    free(pa);
    free(pb);
}

/* The pack's skeletons, clips and meshes through the writer, opened again: the same contents. */
static void repack(const tdn_pack *pack)
{
    tdn_pack_writer *w = NULL;
    if (tdn_pack_writer_create(&w, NULL, NULL) != TDN_OK)
        return;
    for (int s = 0; s < tdn_pack_skeleton_count(pack); s++)
        if (tdn_pack_writer_add_skeleton(w, tdn_pack_skeleton_name(pack, s), tdn_pack_skeleton(pack, s), NULL, NULL) !=
            TDN_OK)
            abort();
    for (int i = 0; i < tdn_pack_clip_count(pack); i++)
        if (tdn_pack_writer_add_clip(w, tdn_pack_clip(pack, i), tdn_pack_clip_skeleton(pack, i), NULL, NULL) != TDN_OK)
            abort();
    /* root tracks sampled again from the clips: the writer refuses only a clip whose joint's
     * rotation samples to no unit quaternion (INVALID_DATA) */
    int roots_added = 1; /* every stored root track written again */
    for (int i = 0; i < tdn_pack_clip_count(pack); i++)
        for (int j = 0; j < tdn_clip_joint_count(tdn_pack_clip(pack, i)) && roots_added; j++) {
            if (!tdn_pack_has_root_track(pack, i, j))
                continue;
            const tdn_result r = tdn_pack_writer_add_root_track(w, i, tdn_pack_clip(pack, i), j, NULL);
            if (r != TDN_OK && r != TDN_ERR_INVALID_DATA)
                abort();
            roots_added = r == TDN_OK;
        }
    for (int i = 0; i < tdn_pack_mesh_count(pack); i++) {
        const tdn_pack_mesh m = tdn_pack_mesh_at(pack, i);
        if (tdn_pack_writer_add_mesh(w, &m, NULL) != TDN_OK)
            abort();
    }
    for (int i = 0; i < tdn_pack_database_count(pack); i++) {
        tdn_mm_database *db = NULL;
        if (tdn_pack_database_load(pack, i, &db, NULL, NULL) != TDN_OK ||
            tdn_pack_writer_add_database(w, tdn_pack_database_name(pack, i), tdn_pack_database_skeleton(pack, i), db,
                                         NULL) != TDN_OK)
            abort();
        tdn_mm_database_destroy(db);
    }
    for (int i = 0; i < tdn_pack_graph_count(pack); i++) {
        size_t n = 0;
        const char *json = tdn_pack_graph_json(pack, i, &n);
        if (tdn_pack_writer_add_graph(w, tdn_pack_graph_name(pack, i), tdn_pack_graph_skeleton(pack, i), json, n, NULL,
                                      NULL) != TDN_OK)
            abort();
    }
    void *bytes = NULL;
    size_t size = 0;
    tdn_pack *again = NULL;
    if (tdn_pack_writer_save_memory(w, &bytes, &size, NULL, NULL) != TDN_OK ||
        tdn_pack_open(bytes, size, &again, NULL, NULL) != TDN_OK)
        abort();
    if (tdn_pack_skeleton_count(again) != tdn_pack_skeleton_count(pack) ||
        tdn_pack_mesh_count(again) != tdn_pack_mesh_count(pack) ||
        tdn_pack_clip_count(again) != tdn_pack_clip_count(pack) ||
        tdn_pack_graph_count(again) != tdn_pack_graph_count(pack) ||
        tdn_pack_database_count(again) != tdn_pack_database_count(pack))
        abort();
    for (int i = 0; i < tdn_pack_database_count(pack); i++) {
        size_t n = 0, m = 0;
        const void *a = tdn_pack_database_image(pack, i, &n), *b = tdn_pack_database_image(again, i, &m);
        if (n != m || memcmp(a, b, n) != 0 ||
            tdn_pack_database_skeleton(again, i) != tdn_pack_database_skeleton(pack, i))
            abort();
    }
    for (int i = 0; i < tdn_pack_graph_count(pack); i++) {
        size_t n = 0, m = 0;
        const char *a = tdn_pack_graph_json(pack, i, &n), *b = tdn_pack_graph_json(again, i, &m);
        if (n != m || memcmp(a, b, n) != 0 || tdn_pack_graph_skeleton(again, i) != tdn_pack_graph_skeleton(pack, i))
            abort();
    }
    for (int i = 0; i < tdn_pack_clip_count(pack); i++) {
        same_samples(tdn_pack_clip(pack, i), tdn_pack_clip(again, i));
        for (int j = 0; j < tdn_clip_joint_count(tdn_pack_clip(pack, i)) && roots_added; j++)
            if (tdn_pack_has_root_track(pack, i, j) != tdn_pack_has_root_track(again, i, j))
                abort();
    }
    for (int s = 0; s < tdn_pack_skeleton_count(pack); s++) {
        const tdn_skeleton *a = tdn_pack_skeleton(pack, s), *b = tdn_pack_skeleton(again, s);
        const int n = tdn_skeleton_joint_count(a);
        if (tdn_skeleton_joint_count(b) != n ||
            memcmp(tdn_skeleton_parents(a), tdn_skeleton_parents(b), sizeof(int16_t) * (size_t)n) != 0 ||
            memcmp(tdn_skeleton_inverse_bind(a), tdn_skeleton_inverse_bind(b), sizeof(tdn_mat4) * (size_t)n) != 0)
            abort();
    }
    tdn_pack_destroy(again);
    tdn_free(bytes, size, NULL);
    tdn_pack_writer_destroy(w);
}

/* The pack read as an asset (tdn_asset_load_memory, which keys each clip at its frames): an
 * asset whose keyed clips match the packed clips' durations, or a clean error (a clip whose
 * frames decode to a zero rotation is refused by the keyed clip). Only for packs of at most a
 * million joint-frames: longer ones are fine for the library, slow for fuzzing. */
static void read_as_asset(const tdn_pack *pack, const void *bytes, size_t size)
{
    long work = 0;
    for (int i = 0; i < tdn_pack_clip_count(pack); i++) {
        const tdn_clip *c = tdn_pack_clip(pack, i);
        work += (long)(tdn_clip_duration(c) * tdn_clip_sample_rate(c) + 2.0f) * tdn_clip_joint_count(c);
        if (work > 1000000)
            return;
    }
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    if (tdn_asset_load_memory(bytes, size, NULL, &asset, NULL, &err) != TDN_OK) {
        if (asset || err.message[0] == '\0' || (tdn_pack_skeleton_count(pack) > 0 && err.code == TDN_ERR_PARSE))
            abort(); /* no asset, a message, and no parse error on bytes that open as a pack */
        return;
    }
    for (int i = 0; i < tdn_asset_clip_count(asset); i++)
        if (!(tdn_keyed_clip_duration(tdn_asset_clip(asset, i)) >= 0.0f))
            abort();
    tdn_asset_destroy(asset);
}

/* The callback definitions may name ("c"): it moves the first joint. */
static void nudge(void *user, const tdn_graph_instance *in, int node, float dt, tdn_pose *pose)
{
    (void)user, (void)in, (void)node, (void)dt;
    tdn_transform x = tdn_pose_get(pose, 0);
    x.t.y += 0.01f;
    tdn_pose_set(pose, 0, &x);
}

/* A graph from the pack's definition: built, or refused naming a place; built, it runs. */
static void walk_definition(const tdn_pack *pack, int i)
{
    static const tdn_graph_callback callbacks[] = { { "c", nudge, NULL } };
    const tdn_packed_graph_options options = { callbacks, 1, 1 };
    tdn_packed_graph *packed = NULL;
    tdn_error err = { 0 };
    if (tdn_packed_graph_create(pack, i, &options, &packed, NULL, &err) != TDN_OK) {
        if (packed || err.where[0] == '\0' || err.message[0] == '\0')
            abort();
        return;
    }
    const tdn_graph *graph = tdn_packed_graph_graph(packed);
    tdn_graph_instance *in = NULL;
    tdn_pose pose;
    const int joints = tdn_skeleton_joint_count(tdn_packed_graph_desc(packed)->skeleton);
    if (tdn_graph_instance_create(graph, &in, NULL, NULL) == TDN_OK &&
        tdn_pose_create(joints, &pose, NULL, NULL) == TDN_OK) {
        for (int f = 0; f < 3; f++) {
            for (int p = 0; p < tdn_graph_param_count(graph); p++)
                if (tdn_graph_param_type(graph, p) == TDN_PARAM_TRIGGER)
                    tdn_graph_fire_trigger(in, p, NULL);
            if (tdn_graph_update(in, 0.25f, NULL) != TDN_OK || tdn_graph_evaluate(in, &pose, NULL) != TDN_OK)
                abort();
        }
        tdn_pose_destroy(&pose);
    }
    tdn_graph_instance_destroy(in);
    tdn_packed_graph_destroy(packed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *bytes = aligned_alloc(TDN_PACK_ALIGN, (size + TDN_PACK_ALIGN) / TDN_PACK_ALIGN * TDN_PACK_ALIGN);
    if (!bytes)
        return 0;
    if (size > 0)
        memcpy(bytes, data, size);
    tdn_pack *pack = NULL;
    tdn_error err = { 0 };
    if (tdn_pack_open(bytes, size, &pack, NULL, &err) == TDN_OK) {
        for (int s = 0; s < tdn_pack_skeleton_count(pack); s++)
            walk_skeleton(tdn_pack_skeleton(pack, s));
        for (int i = 0; i < tdn_pack_mesh_count(pack); i++) {
            const tdn_pack_mesh m = tdn_pack_mesh_at(pack, i);
            walk_mesh(pack, &m);
        }
        for (int i = 0; i < tdn_pack_clip_count(pack); i++) {
            sample_clip(tdn_pack_clip(pack, i), NULL);
            walk_roots(pack, i);
        }
        for (int i = 0; i < tdn_pack_graph_count(pack); i++) {
            size_t n = 0;
            const char *json = tdn_pack_graph_json(pack, i, &n);
            const int skeleton = tdn_pack_graph_skeleton(pack, i);
            if (!json || strlen(json) != n || n == 0 || !tdn_pack_graph_name(pack, i) || skeleton < 0 ||
                skeleton >= tdn_pack_skeleton_count(pack))
                abort();
        }
        for (int i = 0; i < tdn_pack_database_count(pack); i++)
            walk_database(pack, i);
        for (int i = 0; i < tdn_pack_graph_count(pack); i++)
            if (tdn_pack_graph_has_definition(pack, i))
                walk_definition(pack, i);
        repack(pack);
        read_as_asset(pack, bytes, size);
        tdn_pack_destroy(pack);
    } else if (pack || strncmp(err.where, "byte ", 5) != 0 || err.message[0] == '\0') {
        abort(); /* a failure leaves no pack and names a byte */
    }
    free(bytes);
    return 0;
}
