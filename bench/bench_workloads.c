/* tendon_bench: workload definitions and the multi-threaded crowd driver. */
#define _POSIX_C_SOURCE 200809L
#include "bench_workloads.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_blend_space.h"
#include "bench_character.h"
#include "bench_crowd_graph.h"
#include "bench_graph.h"
#include "bench_ik.h"
#include "bench_inertialize.h"
#include "bench_mesh.h"
#include "bench_mm.h"
#include "bench_retarget.h"
#include "bench_compression.h"
#include "bench_pack.h"
#include "bench_scene.h"
#include "bench_timing.h"

#define FRAME_DT (1.0f / 60.0f)
#define COLD_CHARACTERS 1000
#define SKIN_VERTICES 5000

const char *const bench_workload_names[] = { "sample",      "blend",       "ltm",       "frame",       "crowd", "skin",
                                             "blend_space", "inertialize", "graph",     "crowd_graph", "ik",    "mm",
                                             "retarget",    "compression", "pack_load", NULL };

int bench_workload_exists(const char *name)
{
    for (int i = 0; bench_workload_names[i]; i++)
        if (strcmp(name, bench_workload_names[i]) == 0)
            return 1;
    return 0;
}

tdn_result bench_fail(tdn_error *err, tdn_result code, const char *what)
{
    if (err && err->message[0] == '\0') { /* keep a more precise message from the call that failed */
        err->code = code;
        snprintf(err->message, sizeof err->message, "%s failed: %s", what, tdn_result_name(code));
    }
    return code;
}

/* What the timed functions work on. Iterations ignore return codes: each operation is run and
 * checked once before timing. */
typedef struct run_ctx {
    const bench_scene *scene;
    bench_character *characters;
    int character_count;
    int cursor;
    float time;
    tdn_skin_job skin;
    tdn_dual_quat *dual_quats;
    tdn_ik_two_bone_job legs[2];
} run_ctx;

static void run_sample(void *p, long n)
{
    run_ctx *c = p;
    const tdn_clip *clip = c->scene->clips[0];
    float duration = tdn_clip_duration(clip);
    for (long i = 0; i < n; i++) {
        c->time += FRAME_DT;
        if (c->time > duration)
            c->time -= duration;
        tdn_clip_sample(clip, c->time, &c->characters->sampled[0], NULL);
    }
}

static void run_blend(void *p, long n)
{
    run_ctx *c = p;
    for (long i = 0; i < n; i++)
        tdn_blend(&c->characters->blend, NULL);
}

static void run_ltm(void *p, long n)
{
    run_ctx *c = p;
    for (long i = 0; i < n; i++)
        tdn_model_space(c->scene->skeleton, &c->characters->blended, NULL, c->characters->model, NULL);
}

/* The steps of a frame one at a time, on the first character (the `frame hot` breakdown). */
static void run_sample_all(void *p, long n)
{
    run_ctx *c = p;
    for (long i = 0; i < n; i++)
        bench_character_sample(c->characters, c->scene);
}

static void run_legs(void *p, long n)
{
    run_ctx *c = p;
    for (long i = 0; i < n; i++)
        bench_character_solve_legs(c->characters, c->scene, c->legs);
}

static void run_palette(void *p, long n)
{
    run_ctx *c = p;
    for (long i = 0; i < n; i++)
        tdn_palette(c->scene->skeleton, c->characters->model, c->characters->palette, NULL);
}

/* One character per iteration, round-robin over the context's characters (one: hot). */
static void run_frames(void *p, long n)
{
    run_ctx *c = p;
    for (long i = 0; i < n; i++) {
        bench_character_frame(&c->characters[c->cursor], c->scene, FRAME_DT);
        if (++c->cursor == c->character_count)
            c->cursor = 0;
    }
}

static void run_lbs(void *p, long n)
{
    run_ctx *c = p;
    for (long i = 0; i < n; i++)
        tdn_skin_lbs(&c->skin, NULL);
}

/* DQS per frame includes converting the palette once. */
static void run_dqs(void *p, long n)
{
    run_ctx *c = p;
    for (long i = 0; i < n; i++) {
        tdn_dual_quat_palette(c->skin.palette, c->skin.palette_count, c->dual_quats);
        tdn_skin_dqs(&c->skin, NULL);
    }
}

static bench_row measured_row(const bench_config *cfg, bench_fn fn, run_ctx *ctx, const char *workload,
                              const char *variant)
{
    bench_stats s = bench_measure(cfg, fn, ctx, 1.0);
    bench_row row = bench_row_make(workload, ctx->scene->joint_count, variant, 1);
    row.median_ns = s.median_ns;
    row.min_ns = s.min_ns;
    return row;
}

static const char *storage_name(tdn_clip_storage storage)
{
    return storage == TDN_STORAGE_INT16 ? "int16" : storage == TDN_STORAGE_FLOAT32 ? "float32" : "auto";
}

/* sample, blend, ltm: the pipeline's steps one at a time, on one character. */
static tdn_result run_steps(const char *workload, const bench_config *cfg, const bench_scene *scene, bench_emit_fn emit,
                            void *user, tdn_error *err)
{
    bench_character ch;
    tdn_result res = bench_character_init(&ch, scene, 0.3f);
    if (res != TDN_OK)
        return bench_fail(err, res, "character setup");
    run_ctx ctx = { 0 };
    ctx.scene = scene;
    ctx.characters = &ch;
    const int joints = scene->joint_count;
    bench_row row;
    if (strcmp(workload, "sample") == 0) {
        row = measured_row(cfg, run_sample, &ctx, workload, NULL);
        row.bytes_per_clip = bench_scene_bytes_per_clip(scene);
        bench_row_add_text(&row, "storage", storage_name(scene->reports[0].storage));
        bench_row_add_number(&row, "frames", scene->reports[0].frame_count);
        bench_row_add_number(&row, "keyed_bytes_per_clip", (double)tdn_keyed_clip_memory_size(scene->keyed[0]));
    } else if (strcmp(workload, "blend") == 0) {
        row = measured_row(cfg, run_blend, &ctx, workload, NULL);
        bench_row_add_number(&row, "layers", BENCH_BASE_CLIPS);
        bench_row_add_number(&row, "additives", 1);
    } else {
        row = measured_row(cfg, run_ltm, &ctx, workload, NULL);
    }
    row.ns_per_joint = row.median_ns / joints;
    emit(&row, user);
    bench_character_free(&ch);
    return TDN_OK;
}

static void free_characters(bench_character *chars, int count)
{
    for (int i = 0; i < count; i++)
        bench_character_free(&chars[i]);
    free(chars);
}

/* `count` characters at spread-out phases; NULL on failure (res says why). */
static bench_character *make_characters(const bench_scene *scene, int count, tdn_result *res)
{
    bench_character *chars = calloc((size_t)count, sizeof *chars);
    *res = chars ? TDN_OK : TDN_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < count && *res == TDN_OK; i++) {
        *res = bench_character_init(&chars[i], scene, (float)i / (float)count);
        if (*res != TDN_OK)
            free_characters(chars, i);
    }
    return *res == TDN_OK ? chars : NULL;
}

static void add_frame_fields(bench_row *row, int instances)
{
    row->chars_per_s = 1e9 / row->median_ns;
    bench_row_add_number(row, "instances", instances);
    bench_row_add_number(row, "clips", BENCH_CLIPS);
}

/* Median of each step of the hot frame on its own, ns: where the frame's time goes. The IK
 * step re-solves fixed targets (already reached after the first call, the same work). */
static void add_frame_steps(const bench_config *cfg, run_ctx *ctx, bench_row *row)
{
    bench_character_leg_targets(ctx->characters, ctx->scene, ctx->legs);
    const bench_fn steps[5] = { run_sample_all, run_blend, run_ltm, run_legs, run_palette };
    const char *keys[5] = { "sample_ns", "blend_ns", "ltm_ns", "ik_ns", "palette_ns" };
    for (int i = 0; i < 5; i++)
        bench_row_add_number(row, keys[i], bench_measure(cfg, steps[i], ctx, 1.0).median_ns);
}

static tdn_result run_frame(const bench_config *cfg, const bench_scene *scene, bench_emit_fn emit, void *user,
                            tdn_error *err)
{
    const int counts[2] = { 1, COLD_CHARACTERS };
    const char *variants[2] = { "hot", "cold" };
    for (int v = 0; v < 2; v++) {
        tdn_result res;
        run_ctx ctx = { 0 };
        ctx.scene = scene;
        ctx.character_count = counts[v];
        ctx.characters = make_characters(scene, counts[v], &res);
        if (!ctx.characters)
            return bench_fail(err, res, "character setup");
        bench_row row = measured_row(cfg, run_frames, &ctx, "frame", variants[v]);
        add_frame_fields(&row, counts[v]);
        if (v == 0)
            add_frame_steps(cfg, &ctx, &row);
        emit(&row, user);
        free_characters(ctx.characters, counts[v]);
    }
    return TDN_OK;
}

/* ---- crowd: `frame` cold on several threads, batches started and ended together ---- */

typedef struct crowd {
    const bench_scene *scene;
    const bench_config *cfg;
    int threads;
    long frames_per_batch; /* per thread */
    int warmup_batches;
    pthread_barrier_t barrier;
    double *batch_ns;   /* cfg->batches entries, written by thread 0 */
    tdn_result failure; /* any thread's setup failure */
    pthread_mutex_t lock;
} crowd;

typedef struct crowd_thread {
    crowd *crowd;
    int index;
} crowd_thread;

static void *crowd_worker(void *p)
{
    crowd_thread *self = p;
    crowd *cr = self->crowd;
    pthread_mutex_lock(&cr->lock); /* the gate: opens once the barrier is set up */
    pthread_mutex_unlock(&cr->lock);
    tdn_result res;
    run_ctx ctx = { 0 };
    ctx.scene = cr->scene;
    ctx.character_count = COLD_CHARACTERS;
    ctx.characters = make_characters(cr->scene, COLD_CHARACTERS, &res); /* each thread its own */
    if (!ctx.characters) {
        pthread_mutex_lock(&cr->lock);
        cr->failure = res;
        pthread_mutex_unlock(&cr->lock);
    }
    pthread_barrier_wait(&cr->barrier); /* everyone set up */
    pthread_mutex_lock(&cr->lock);
    int failed = cr->failure != TDN_OK;
    pthread_mutex_unlock(&cr->lock);
    for (int b = -cr->warmup_batches; b < cr->cfg->batches && !failed; b++) {
        pthread_barrier_wait(&cr->barrier);
        double t0 = bench_now_ns();
        if (ctx.characters)
            run_frames(&ctx, cr->frames_per_batch);
        pthread_barrier_wait(&cr->barrier);
        if (self->index == 0 && b >= 0)
            cr->batch_ns[b] = bench_now_ns() - t0; /* start to the last thread's end */
    }
    if (ctx.characters)
        free_characters(ctx.characters, COLD_CHARACTERS);
    return NULL;
}

static tdn_result run_crowd_threads(crowd *cr, bench_row *row, tdn_error *err)
{
    pthread_t ids[BENCH_MAX_THREADS];
    crowd_thread args[BENCH_MAX_THREADS];
    double batch_ns[BENCH_MAX_BATCHES];
    if (cr->threads > BENCH_MAX_THREADS || cr->cfg->batches > BENCH_MAX_BATCHES)
        return bench_fail(err, TDN_ERR_ARGUMENT, "crowd size");
    cr->batch_ns = batch_ns;
    cr->failure = TDN_OK;
    pthread_mutex_init(&cr->lock, NULL);
    /* Workers wait on the lock until the barrier exists, sized for the threads that did start. */
    pthread_mutex_lock(&cr->lock);
    int count = 1;
    for (; count < cr->threads; count++) {
        args[count] = (crowd_thread){ cr, count };
        if (pthread_create(&ids[count], NULL, crowd_worker, &args[count]) != 0) {
            cr->failure = TDN_ERR_OUT_OF_MEMORY;
            break;
        }
    }
    pthread_barrier_init(&cr->barrier, NULL, (unsigned)count);
    pthread_mutex_unlock(&cr->lock);
    args[0] = (crowd_thread){ cr, 0 };
    crowd_worker(&args[0]);
    for (int t = 1; t < count; t++)
        pthread_join(ids[t], NULL);
    pthread_barrier_destroy(&cr->barrier);
    pthread_mutex_destroy(&cr->lock);
    if (cr->failure != TDN_OK)
        return bench_fail(err, cr->failure, "crowd setup");
    double per_char = 1.0 / ((double)cr->frames_per_batch * cr->threads), min_ns = 0.0;
    for (int b = 0; b < cr->cfg->batches; b++) {
        batch_ns[b] *= per_char;
        min_ns = b == 0 || batch_ns[b] < min_ns ? batch_ns[b] : min_ns;
    }
    row->median_ns = bench_median(batch_ns, cr->cfg->batches);
    row->min_ns = min_ns;
    return TDN_OK;
}

static int online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > BENCH_MAX_THREADS ? BENCH_MAX_THREADS : (int)n;
}

static tdn_result run_crowd(const bench_config *cfg, const bench_options *options, const bench_scene *scene,
                            bench_emit_fn emit, void *user, tdn_error *err)
{
    /* Frames per batch from a quick single-thread probe of the cold frame. */
    tdn_result res;
    run_ctx probe = { 0 };
    probe.scene = scene;
    probe.character_count = COLD_CHARACTERS;
    probe.characters = make_characters(scene, COLD_CHARACTERS, &res);
    if (!probe.characters)
        return bench_fail(err, res, "character setup");
    run_frames(&probe, COLD_CHARACTERS);
    double t0 = bench_now_ns();
    run_frames(&probe, COLD_CHARACTERS);
    long frames = bench_iterations_for(cfg, COLD_CHARACTERS, bench_now_ns() - t0);
    free_characters(probe.characters, COLD_CHARACTERS);

    const int every = options->threads > 0 ? options->threads : online_cpus();
    const int thread_counts[2] = { 1, every };
    for (int i = 0; i < (every > 1 ? 2 : 1); i++) {
        crowd cr;
        memset(&cr, 0, sizeof cr);
        cr.scene = scene;
        cr.cfg = cfg;
        cr.threads = thread_counts[i];
        cr.frames_per_batch = frames;
        cr.warmup_batches = 1 + (int)(cfg->warmup_ns / cfg->batch_ns);
        bench_row row = bench_row_make("crowd", scene->joint_count, "cold", cr.threads);
        res = run_crowd_threads(&cr, &row, err);
        if (res != TDN_OK)
            return res;
        add_frame_fields(&row, COLD_CHARACTERS);
        bench_row_add_number(&row, "frames_per_batch", (double)frames * cr.threads);
        emit(&row, user);
    }
    return TDN_OK;
}

/* The rows of one mesh: LBS and DQS, 4 influences per vertex (variants lbs, dqs) or 8 (lbs_8,
 * dqs_8); with 4 also LBS of weights normalized up front and normals left to the shader
 * (lbs_normalized: the job's weights_normalized and raw_normals, the work ozz-animation's
 * SkinningJob does). */
static tdn_result run_skin_mesh(const bench_config *cfg, const bench_scene *scene, const tdn_mat4 *palette,
                                int influences, bench_emit_fn emit, void *user, tdn_error *err)
{
    bench_mesh mesh;
    tdn_result res = bench_mesh_create(scene->skeleton, SKIN_VERTICES, influences, &mesh);
    run_ctx ctx = { 0 };
    ctx.scene = scene;
    ctx.dual_quats = malloc(sizeof(tdn_dual_quat) * (size_t)scene->joint_count);
    if (res == TDN_OK && !ctx.dual_quats)
        res = TDN_ERR_OUT_OF_MEMORY;
    ctx.skin = bench_mesh_job(&mesh, palette, scene->joint_count);
    if (res == TDN_OK)
        res = tdn_skin_lbs(&ctx.skin, err);
    ctx.skin.dual_quats = ctx.dual_quats;
    if (res == TDN_OK) {
        tdn_dual_quat_palette(palette, scene->joint_count, ctx.dual_quats);
        res = tdn_skin_dqs(&ctx.skin, err);
    }
    if (res == TDN_OK)
        res = tdn_skin_normalize_weights(mesh.weights, mesh.vertex_count, influences, err);
    for (int method = 0; method < (influences == 4 ? 3 : 2) && res == TDN_OK; method++) {
        const char *variant = method == 2       ? "lbs_normalized"
                              : method          ? influences == 4 ? "dqs" : "dqs_8"
                              : influences == 4 ? "lbs"
                                                : "lbs_8";
        ctx.skin.weights_normalized = ctx.skin.raw_normals = method == 2;
        bench_row row = measured_row(cfg, method == 1 ? run_dqs : run_lbs, &ctx, "skin", variant);
        row.ns_per_vertex = row.median_ns / SKIN_VERTICES;
        bench_row_add_number(&row, "vertices", SKIN_VERTICES);
        bench_row_add_number(&row, "influences", influences);
        bench_row_add_bool(&row, "normals", 1);
        emit(&row, user);
    }
    free(ctx.dual_quats);
    bench_mesh_destroy(&mesh);
    return res;
}

static tdn_result run_skin(const bench_config *cfg, const bench_scene *scene, bench_emit_fn emit, void *user,
                           tdn_error *err)
{
    bench_character ch;
    tdn_result res = bench_character_init(&ch, scene, 0.3f); /* a posed palette */
    if (res != TDN_OK)
        return bench_fail(err, res, "character setup");
    for (int influences = 4; influences <= 8 && res == TDN_OK; influences += 4)
        res = run_skin_mesh(cfg, scene, ch.palette, influences, emit, user, err);
    bench_character_free(&ch);
    return res == TDN_OK ? TDN_OK : bench_fail(err, res, "skin setup");
}

tdn_result bench_run(const bench_options *options, bench_emit_fn emit, void *user, tdn_error *err)
{
    if (options->workload && !bench_workload_exists(options->workload))
        return bench_fail(err, TDN_ERR_ARGUMENT, "workload name");
    const bench_config cfg = bench_config_default(options->quick);
    const int sizes[2] = { 67, 256 };
    bench_scene scenes[2];
    memset(scenes, 0, sizeof scenes);
    tdn_result res = TDN_OK;
    /* skin, blend_space, inertialize, graph (on its own humanoid), ik, mm and retarget run once
     * (on S67, or on skeletons of their own): build S256 only when another workload needs it. */
    int s67_only = options->workload &&
                   (strcmp(options->workload, "skin") == 0 || strcmp(options->workload, "blend_space") == 0 ||
                    strcmp(options->workload, "inertialize") == 0 || strcmp(options->workload, "graph") == 0 ||
                    strcmp(options->workload, "crowd_graph") == 0 || strcmp(options->workload, "ik") == 0 ||
                    strcmp(options->workload, "mm") == 0 || strcmp(options->workload, "retarget") == 0 ||
                    strcmp(options->workload, "compression") == 0 || strcmp(options->workload, "pack_load") == 0);
    for (int s = 0; s < (s67_only ? 1 : 2) && res == TDN_OK; s++)
        res = bench_scene_create(sizes[s], &scenes[s], err);
    for (int w = 0; bench_workload_names[w] && res == TDN_OK; w++) {
        const char *name = bench_workload_names[w];
        if (options->workload && strcmp(options->workload, name) != 0)
            continue;
        for (int s = 0; s < 2 && res == TDN_OK; s++) {
            const bench_scene *scene = &scenes[s];
            if (strcmp(name, "skin") == 0) {
                if (s == 0) /* the 67-joint palette */
                    res = run_skin(&cfg, scene, emit, user, err);
            } else if (strcmp(name, "blend_space") == 0) {
                if (s == 0)
                    res = bench_run_blend_space(options->quick, scene, emit, user, err);
            } else if (strcmp(name, "inertialize") == 0) {
                if (s == 0)
                    res = bench_run_inertialize(options->quick, scene, emit, user, err);
            } else if (strcmp(name, "ik") == 0) {
                if (s == 0) /* chains of their own */
                    res = bench_run_ik(options->quick, emit, user, err);
            } else if (strcmp(name, "mm") == 0) {
                if (s == 0) /* databases of its own */
                    res = bench_run_mm(options->quick, emit, user, err);
            } else if (strcmp(name, "retarget") == 0) {
                if (s == 0) /* skeletons of its own */
                    res = bench_run_retarget(options->quick, emit, user, err);
            } else if (strcmp(name, "compression") == 0) {
                if (s == 0) /* S67 in two storages of its own, and takes of motion capture */
                    res = bench_run_compression(options->quick, emit, user, err);
            } else if (strcmp(name, "pack_load") == 0) {
                if (s == 0) /* the humanoid's pack of its own */
                    res = bench_run_pack_load(options->quick, emit, user, err);
            } else if (strcmp(name, "graph") == 0) {
                if (s == 0)
                    res = bench_run_graph(options->quick, emit, user, err);
            } else if (strcmp(name, "crowd_graph") == 0) {
                if (s == 0) /* the showcase's own character */
                    res = bench_run_crowd_graph(options->quick, options->threads > 0 ? options->threads : online_cpus(),
                                                emit, user, err);
            } else if (strcmp(name, "frame") == 0) {
                res = run_frame(&cfg, scene, emit, user, err);
            } else if (strcmp(name, "crowd") == 0) {
                res = run_crowd(&cfg, options, scene, emit, user, err);
            } else {
                res = run_steps(name, &cfg, scene, emit, user, err);
            }
        }
    }
    for (int s = 0; s < 2; s++)
        if (scenes[s].skeleton)
            bench_scene_destroy(&scenes[s]);
    return res;
}
