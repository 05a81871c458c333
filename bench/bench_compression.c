/* tendon_bench: the `compression` workload (bench_compression.h). */
#include "bench_compression.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_character.h"
#include "bench_data.h"
#include "bench_graph.h"
#include "bench_report.h"
#include "bench_scene.h"
#include "bench_timing.h"
#include "tendon/io/asset.h"

#define ROUNDS 3
#define FRAME_DT (1.0f / 60.0f)

typedef struct sampling {
    const tdn_clip *clip;
    tdn_clip_cache *cache; /* NULL: sampled without */
    tdn_pose *pose;
    float time;
} sampling;

static void run_sample(void *p, long n)
{
    sampling *s = p;
    const float duration = tdn_clip_duration(s->clip);
    for (long i = 0; i < n; i++) {
        s->time += FRAME_DT;
        if (s->time > duration)
            s->time -= duration;
        if (s->cache)
            tdn_clip_sample_cached(s->clip, s->cache, s->time, s->pose, NULL);
        else
            tdn_clip_sample(s->clip, s->time, s->pose, NULL);
    }
}

typedef struct framing {
    bench_character *character;
    const bench_scene *scene;
} framing;

static void run_frame(void *p, long n)
{
    framing *f = p;
    for (long i = 0; i < n; i++)
        bench_character_frame(f->character, f->scene, FRAME_DT);
}

/* float32 frames of the source (10 floats per joint per distinct key time) over the clip's bytes */
static double clip_ratio(const tdn_clip *clip, const tdn_keyed_clip *source, int joints)
{
    return 40.0 * joints * tdn_keyed_clip_key_times(source, NULL, 0) / (double)tdn_clip_memory_size(clip);
}

/* S67 in both storages, the compressed one also through clip caches: sample and frame rows,
 * rounds interleaved. */
enum { VARIANTS = 3 };
static tdn_result run_benchmark_clips(const bench_config *cfg, int rounds, bench_emit_fn emit, void *user,
                                      tdn_error *err)
{
    bench_scene scenes[2];
    memset(scenes, 0, sizeof scenes);
    const tdn_clip_storage storages[2] = { TDN_STORAGE_INT16, TDN_STORAGE_COMPRESSED };
    const char *storage_names[2] = { "int16", "compressed" };
    const int scene_of[VARIANTS] = { 0, 1, 1 }, cached[VARIANTS] = { 0, 0, 1 };
    const char *const variant_names[2][VARIANTS] = {
        { "sample_int16", "sample_compressed", "sample_compressed_cached" },
        { "frame_int16", "frame_compressed", "frame_compressed_cached" },
    };
    tdn_result res = TDN_OK;
    for (int v = 0; v < 2 && res == TDN_OK; v++)
        res = bench_scene_create_stored(67, storages[v], &scenes[v], err);
    bench_character characters[VARIANTS];
    tdn_pose poses[VARIANTS];
    tdn_clip_cache *caches[VARIANTS] = { NULL, NULL, NULL };
    memset(characters, 0, sizeof characters);
    memset(poses, 0, sizeof poses);
    for (int v = 0; v < VARIANTS && res == TDN_OK; v++) {
        const bench_scene *scene = &scenes[scene_of[v]];
        res = bench_character_init(&characters[v], scene, 0.3f);
        if (res == TDN_OK)
            res = tdn_pose_create(scene->joint_count, &poses[v], NULL, err);
        if (res == TDN_OK && cached[v])
            res = tdn_clip_cache_create(scene->clips[0], &caches[v], NULL, err);
        if (res == TDN_OK && cached[v])
            res = bench_character_cache(&characters[v], scene);
    }
    double medians[2][VARIANTS][ROUNDS], minimums[2][VARIANTS];
    for (int w = 0; w < 2; w++)
        for (int v = 0; v < VARIANTS; v++)
            minimums[w][v] = 1e300;
    for (int r = 0; r < rounds && res == TDN_OK; r++)
        for (int w = 0; w < 2; w++)
            for (int v = 0; v < VARIANTS; v++) {
                const bench_scene *scene = &scenes[scene_of[v]];
                sampling s = { scene->clips[0], caches[v], &poses[v], 0.0f };
                framing f = { &characters[v], scene };
                const bench_stats st = w == 0 ? bench_measure(cfg, run_sample, &s, 1.0)
                                              : bench_measure(cfg, run_frame, &f, 1.0);
                medians[w][v][r] = st.median_ns;
                minimums[w][v] = st.min_ns < minimums[w][v] ? st.min_ns : minimums[w][v];
            }
    for (int w = 0; w < 2 && res == TDN_OK; w++)
        for (int v = 0; v < VARIANTS; v++) {
            const bench_scene *scene = &scenes[scene_of[v]];
            bench_row row = bench_row_make("compression", scene->joint_count, variant_names[w][v], 1);
            row.median_ns = bench_median(medians[w][v], rounds);
            row.min_ns = minimums[w][v];
            row.ns_per_joint = row.median_ns / scene->joint_count;
            row.bytes_per_clip = bench_scene_bytes_per_clip(scene);
            bench_row_add_text(&row, "storage", storage_names[scene_of[v]]);
            bench_row_add_number(&row, "ratio", clip_ratio(scene->clips[0], scene->keyed[0], scene->joint_count));
            bench_row_add_number(&row, "max_error_cm", 100.0 * scene->reports[0].max_vertex_error);
            bench_row_add_number(&row, "frames", scene->reports[0].frame_count);
            bench_row_add_number(&row, "cache_bytes", (double)tdn_clip_cache_bytes(scene->clips[0]) * cached[v]);
            emit(&row, user);
        }
    for (int v = 0; v < VARIANTS; v++) {
        bench_character_free(&characters[v]);
        tdn_pose_destroy(&poses[v]);
        tdn_clip_cache_destroy(caches[v]);
    }
    for (int v = 0; v < 2; v++)
        if (scenes[v].skeleton)
            bench_scene_destroy(&scenes[v]);
    return res;
}

/* Motion capture takes of the shared data, in metres after their scale. */
static const struct take {
    const char *path;
    float scale;
} TAKES[] = { { "bvh/cmu/cgspeed-mb/01_01.bvh", 0.056444f },
              { "bvh/lafan1/walk4_subject1.bvh", 0.01f },
              { "bvh/misc/pirouette.bvh", 0.01f }, /* a DAZ rig, 149 units tall */
              { "bvh/games105/walk_forward.bvh", 1.0f } };

static tdn_result run_takes(const bench_config *cfg, int quick, bench_emit_fn emit, void *user, tdn_error *err)
{
    const char *dir = bench_data_dir();
    for (size_t i = 0; dir && i < (quick ? 1 : sizeof TAKES / sizeof TAKES[0]); i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, TAKES[i].path);
        tdn_asset *asset = NULL;
        if (tdn_asset_load(path, &(tdn_asset_load_options){ .scale = TAKES[i].scale }, &asset, NULL, NULL) != TDN_OK)
            continue; /* a take the folder does not have */
        tdn_clip_report report;
        tdn_clip *clip = NULL;
        const tdn_clip_desc desc = { .source = tdn_asset_clip(asset, 0),
                                     .storage = TDN_STORAGE_COMPRESSED,
                                     .report = &report };
        tdn_result res = tdn_clip_create(&desc, &clip, NULL, err);
        const int joints = tdn_skeleton_joint_count(tdn_asset_skeleton(asset));
        tdn_pose pose = { 0 };
        if (res == TDN_OK)
            res = tdn_pose_create(joints, &pose, NULL, err);
        tdn_clip_cache *cache = NULL;
        if (res == TDN_OK)
            res = tdn_clip_cache_create(clip, &cache, NULL, err);
        for (int cached = 0; cached < 2 && res == TDN_OK; cached++) {
            sampling s = { clip, cached ? cache : NULL, &pose, 0.0f };
            const bench_stats st = bench_measure(cfg, run_sample, &s, 1.0);
            char name[96];
            snprintf(name, sizeof name, "%s%s", strrchr(TAKES[i].path, '/') + 1, cached ? "_cached" : "");
            bench_row row = bench_row_make("compression", joints, name, 1);
            row.median_ns = st.median_ns;
            row.min_ns = st.min_ns;
            row.ns_per_joint = st.median_ns / joints;
            row.bytes_per_clip = (double)tdn_clip_memory_size(clip);
            bench_row_add_text(&row, "storage", "compressed");
            bench_row_add_number(&row, "ratio", clip_ratio(clip, desc.source, joints));
            bench_row_add_number(&row, "max_error_cm", 100.0 * report.max_vertex_error);
            bench_row_add_number(&row, "frames", report.frame_count);
            emit(&row, user);
        }
        tdn_pose_destroy(&pose);
        tdn_clip_cache_destroy(cache);
        tdn_clip_destroy(clip);
        tdn_asset_destroy(asset);
        if (res != TDN_OK)
            return bench_fail(err, res, "compressing a take");
    }
    return TDN_OK;
}

/* The `graph` workload's hot character with its clips 16-bit and compressed (with clip caches),
 * rounds interleaved. */
static tdn_result run_graph_frames(const bench_config *cfg, int rounds, bench_emit_fn emit, void *user, tdn_error *err)
{
    const tdn_graph_document_load_options options[2] = {
        { .clip_storage = TDN_STORAGE_INT16 },
        { .clip_storage = TDN_STORAGE_COMPRESSED, .clip_caches = 1 },
    };
    const char *names[2] = { "graph_int16", "graph_compressed_cached" }, *storages[2] = { "int16", "compressed" };
    bench_graph_hot *hot[2] = { NULL, NULL };
    tdn_result res = TDN_OK;
    for (int v = 0; v < 2 && res == TDN_OK; v++)
        res = bench_graph_hot_create(&options[v], &hot[v], err);
    double medians[2][ROUNDS], minimums[2] = { 1e300, 1e300 };
    for (int r = 0; r < rounds && res == TDN_OK; r++)
        for (int v = 0; v < 2; v++) {
            const bench_stats st = bench_measure(cfg, bench_graph_hot_frame, hot[v], 1.0);
            medians[v][r] = st.median_ns;
            minimums[v] = st.min_ns < minimums[v] ? st.min_ns : minimums[v];
        }
    for (int v = 0; v < 2 && res == TDN_OK; v++) {
        const int joints = bench_graph_hot_joint_count(hot[v]);
        bench_row row = bench_row_make("compression", joints, names[v], 1);
        row.median_ns = bench_median(medians[v], rounds);
        row.min_ns = minimums[v];
        row.ns_per_joint = row.median_ns / joints;
        row.chars_per_s = 1e9 / row.median_ns;
        bench_row_add_text(&row, "storage", storages[v]);
        emit(&row, user);
    }
    for (int v = 0; v < 2; v++)
        bench_graph_hot_destroy(hot[v]);
    return res == TDN_OK ? TDN_OK : bench_fail(err, res, "graph frames");
}

tdn_result bench_run_compression(int quick, bench_emit_fn emit, void *user, tdn_error *err)
{
    const bench_config cfg = bench_config_default(quick);
    tdn_result res = run_benchmark_clips(&cfg, quick ? 1 : ROUNDS, emit, user, err);
    if (res == TDN_OK)
        res = run_graph_frames(&cfg, quick ? 1 : ROUNDS, emit, user, err);
    if (res == TDN_OK)
        res = run_takes(&cfg, quick, emit, user, err);
    return res;
}
