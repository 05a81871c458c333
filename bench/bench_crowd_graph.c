/* tendon_bench: the `crowd_graph` workload (see bench_crowd_graph.h). */
#include "bench_crowd_graph.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bench_lod_quality.h"
#include "bench_showcase.h"
#include "tendon/io/graph_document.h"
#include "tendon/io/humanoid.h"

#ifndef TENDON_BLENDMOTION_GRAPH
#  define TENDON_BLENDMOTION_GRAPH "examples/graphs/blendmotion.json"
#endif

#define CG_CHARACTERS 10000
#define CG_CHARACTERS_QUICK 200
#define CG_FRAMES 15 /* measured frames of the whole crowd */
#define CG_WARMUP 3
#define CG_PER_TASK 16
#define CG_BUDGET_MS 2.0 /* the LOD rows' budget per frame */
#define CG_SAMPLES 100   /* characters whose motion quality the LOD rows measure */
#define CG_SAMPLES_QUICK 4
#define CG_QUALITY_FRAMES_QUICK 120

/* ---- a parallel-for over a pool of threads started per call (a frame is milliseconds) ---- */

typedef struct cg_pool {
    int threads;
    pthread_mutex_t lock;
    int next, task_count;
    tdn_graph_task_fn task;
    void *context;
} cg_pool;

typedef struct cg_worker {
    cg_pool *pool;
    int index;
} cg_worker;

static void *cg_work(void *p)
{
    const cg_worker *w = p;
    cg_pool *pool = w->pool;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        const int t = pool->next++;
        pthread_mutex_unlock(&pool->lock);
        if (t >= pool->task_count)
            return NULL;
        pool->task(pool->context, t, w->index);
    }
}

static void cg_parallel_for(void *user, int task_count, tdn_graph_task_fn task, void *context)
{
    cg_pool *pool = user;
    pool->next = 0;
    pool->task_count = task_count;
    pool->task = task;
    pool->context = context;
    pthread_t ids[BENCH_MAX_THREADS];
    cg_worker workers[BENCH_MAX_THREADS];
    int started = 1;
    for (; started < pool->threads; started++) {
        workers[started] = (cg_worker){ pool, started };
        if (pthread_create(&ids[started], NULL, cg_work, &workers[started]) != 0)
            break; /* the threads that did start, and this one, do every task */
    }
    workers[0] = (cg_worker){ pool, 0 };
    cg_work(&workers[0]);
    for (int k = 1; k < started; k++)
        pthread_join(ids[k], NULL);
}

/* ---- the crowd ---- */

typedef struct cg_crowd {
    const tdn_graph *graph;
    const tdn_skeleton *skeleton;
    bench_showcase_handles h;
    bench_showcase_controls script[BENCH_SHOWCASE_FRAMES];
    int count;
    size_t instance_stride;
    char *instances; /* count * instance_stride */
    tdn_pose *poses;
    char *pose_data;
    tdn_mat4 *palettes; /* count * joints */
    int *frame;         /* each character's place in the timeline */
    tdn_graph_character *characters;
    tdn_graph_workspace *workspaces[BENCH_MAX_THREADS];
    size_t workspace_bytes;
    /* the LOD rows: each character's level of detail (it shows in its pose), the pose it last
     * evaluated, its importance and the rate the budget mode chose */
    tdn_graph_lod *lods;
    tdn_pose *targets;
    char *target_data;
    float *importance;
    int *rates;
} cg_crowd;

static void cg_prepare(void *user, int k, tdn_graph_instance *in)
{
    cg_crowd *c = user;
    bench_showcase_set(&c->h, &c->script[c->frame[k]], in);
    if (++c->frame[k] == BENCH_SHOWCASE_FRAMES)
        c->frame[k] = 0;
}

static void cg_free(cg_crowd *c)
{
    for (int w = 0; w < BENCH_MAX_THREADS; w++)
        tdn_graph_workspace_destroy(c->workspaces[w]);
    free(c->instances);
    free(c->poses);
    free(c->pose_data);
    free(c->palettes);
    free(c->frame);
    free(c->characters);
    free(c->lods);
    free(c->targets);
    free(c->target_data);
    free(c->importance);
    free(c->rates);
}

/* A character's importance for the budget mode: the inverse of a pseudo-distance from 2 to 200 m,
 * spread evenly over the crowd (the golden ratio's multiples). */
static float cg_importance(int k)
{
    const double f = fmod(k * 0.6180339887498949, 1.0);
    return (float)(1.0 / (2.0 + 198.0 * f));
}

/* Level of detail for every character, at rate 1 until the budget mode chooses; clocks start
 * at the character's index, so that each rate's evaluations spread evenly over the frames. */
static tdn_result cg_make_lod(cg_crowd *c, tdn_error *err)
{
    const int joints = tdn_skeleton_joint_count(c->skeleton);
    const size_t pose_bytes = tdn_pose_bytes(joints);
    c->lods = calloc((size_t)c->count, sizeof *c->lods);
    c->targets = calloc((size_t)c->count, sizeof *c->targets);
    c->target_data = aligned_alloc(TDN_POSE_ALIGN, pose_bytes * (size_t)c->count);
    c->importance = malloc(sizeof(float) * (size_t)c->count);
    c->rates = malloc(sizeof(int) * (size_t)c->count);
    if (!c->lods || !c->targets || !c->target_data || !c->importance || !c->rates)
        return bench_fail(err, TDN_ERR_OUT_OF_MEMORY, "crowd_graph level of detail");
    for (int k = 0; k < c->count; k++) {
        tdn_result res = tdn_pose_init(joints, c->target_data + pose_bytes * (size_t)k, pose_bytes, &c->targets[k],
                                       err);
        if (res != TDN_OK)
            return res;
        c->lods[k] = (tdn_graph_lod){
            .rate = 1, .clock = (unsigned)k, .shown = &c->poses[k], .target = &c->targets[k]
        };
        c->characters[k].lod = &c->lods[k];
        c->characters[k].pose = &c->poses[k]; /* the shown pose, kept between evaluations */
        c->importance[k] = cg_importance(k);
        c->rates[k] = 1;
    }
    return TDN_OK;
}

static tdn_result cg_make(cg_crowd *c, int count, int threads, tdn_error *err)
{
    const int joints = tdn_skeleton_joint_count(c->skeleton);
    const size_t pose_bytes = tdn_pose_bytes(joints);
    c->count = count;
    c->instance_stride = (tdn_graph_instance_bytes(c->graph) + TDN_GRAPH_INSTANCE_ALIGN - 1) /
                         TDN_GRAPH_INSTANCE_ALIGN * TDN_GRAPH_INSTANCE_ALIGN;
    c->instances = aligned_alloc(TDN_GRAPH_INSTANCE_ALIGN, c->instance_stride * (size_t)count);
    c->poses = calloc((size_t)count, sizeof *c->poses);
    c->pose_data = aligned_alloc(TDN_POSE_ALIGN, pose_bytes * (size_t)count);
    c->palettes = aligned_alloc(64, sizeof(tdn_mat4) * (size_t)joints * (size_t)count);
    c->frame = calloc((size_t)count, sizeof *c->frame);
    c->characters = calloc((size_t)count, sizeof *c->characters);
    if (!c->instances || !c->poses || !c->pose_data || !c->palettes || !c->frame || !c->characters)
        return bench_fail(err, TDN_ERR_OUT_OF_MEMORY, "crowd_graph buffers");
    for (int k = 0; k < count; k++) {
        tdn_graph_instance *in = NULL;
        tdn_result res = tdn_graph_instance_init(c->graph, c->instances + c->instance_stride * (size_t)k,
                                                 c->instance_stride, &in, err);
        if (res == TDN_OK)
            res = tdn_pose_init(joints, c->pose_data + pose_bytes * (size_t)k, pose_bytes, &c->poses[k], err);
        if (res != TDN_OK)
            return res;
        c->frame[k] = (k * BENCH_SHOWCASE_PHASE) % BENCH_SHOWCASE_FRAMES;
        /* full rate keeps the palette alone (the pose and model space stay in the workspaces) */
        c->characters[k] = (tdn_graph_character){
            in, BENCH_SHOWCASE_DT, NULL, NULL, c->palettes + (size_t)joints * (size_t)k, NULL, NULL, NULL
        };
    }
    for (int w = 0; w < threads; w++) {
        tdn_result res = tdn_graph_workspace_create(&c->graph, 1, &c->workspaces[w], NULL, err);
        if (res != TDN_OK)
            return res;
    }
    c->workspace_bytes = tdn_graph_workspace_bytes(&c->graph, 1);
    return TDN_OK;
}

static double cg_least(const double *values, int count)
{
    double least = values[0];
    for (int k = 1; k < count; k++)
        least = values[k] < least ? values[k] : least;
    return least;
}

static double cg_memory(const cg_crowd *c, int threads)
{
    const int joints = tdn_skeleton_joint_count(c->skeleton);
    const double poses = c->lods ? (double)tdn_pose_bytes(joints) * c->count * 2 : 0.0; /* shown and target */
    return (double)c->instance_stride * c->count + (double)c->workspace_bytes * threads + poses +
           (double)sizeof(tdn_mat4) * joints * c->count;
}

/* The budget mode's frames: each chooses the rates from the importances and the cost estimates,
 * runs the batch, and corrects the estimate of an interpolated character-frame from the frame's
 * time (the evaluated one is the full-rate frames' of the warm-up). Times are the batch's wall
 * time, per character. frame_ns: the measured frames'. */
static tdn_result cg_budget_frames(cg_crowd *c, const tdn_graph_batch_desc *desc, int warmup, int frames,
                                   double *frame_ns, tdn_graph_lod_budget *budget, tdn_error *err)
{
    double full_ns[CG_WARMUP];
    tdn_result res = TDN_OK;
    for (int f = 0; f < warmup && res == TDN_OK; f++) { /* every character at rate 1 */
        const double t0 = bench_now_ns();
        res = tdn_graph_evaluate_batch(desc, err);
        full_ns[f] = bench_now_ns() - t0;
    }
    if (res != TDN_OK)
        return res;
    *budget = (tdn_graph_lod_budget){ CG_BUDGET_MS * 1e6, bench_median(full_ns, warmup) / c->count, 0.0, 0 };
    budget->interpolated_ns = budget->evaluated_ns / 4.0; /* a first guess, corrected below */
    for (int f = -warmup; f < frames && res == TDN_OK; f++) {
        const double t0 = bench_now_ns();
        res = tdn_graph_lod_choose_rates(c->importance, c->count, budget, c->rates, NULL, err);
        for (int k = 0; k < c->count; k++)
            c->lods[k].rate = c->rates[k];
        if (res == TDN_OK)
            res = tdn_graph_evaluate_batch(desc, err);
        const double took = bench_now_ns() - t0;
        if (f >= 0)
            frame_ns[f] = took;
        /* took = sum of interpolated + (evaluated - interpolated) / rate: solve for interpolated */
        double evaluations = 0.0;
        for (int k = 0; k < c->count; k++)
            evaluations += 1.0 / c->rates[k];
        if (evaluations < c->count - 0.5) {
            const double guess = (took - evaluations * budget->evaluated_ns) / (c->count - evaluations);
            const double lo = 0.05 * budget->evaluated_ns, hi = budget->evaluated_ns;
            budget->interpolated_ns = guess < lo ? lo : guess > hi ? hi : guess;
        }
    }
    return res;
}

/* The LOD row's motion quality: CG_SAMPLES characters spread over the crowd, at the rates chosen
 * in the last frame, against themselves at full rate. */
static tdn_result cg_quality(const cg_crowd *c, const tdn_graph_document *doc, int quick, bench_lod_quality *q,
                             tdn_error *err)
{
    bench_lod_sample samples[CG_SAMPLES];
    const int count = quick ? CG_SAMPLES_QUICK : CG_SAMPLES;
    for (int i = 0; i < count; i++) {
        const int k = (int)(((long)i * c->count + c->count / 2) / count);
        samples[i] = (bench_lod_sample){ (k * BENCH_SHOWCASE_PHASE) % BENCH_SHOWCASE_FRAMES, (unsigned)k, c->rates[k] };
    }
    return bench_lod_quality_measure(doc, TENDON_BLENDMOTION_GRAPH, samples, count,
                                     quick ? CG_QUALITY_FRAMES_QUICK : BENCH_SHOWCASE_FRAMES, q, err);
}

/* One row: the crowd on `threads` threads, at full rate or (lod) in the budget mode; with
 * `joint_lod` (at full rate), every character without the subtrees it drops. */
static tdn_result cg_row(const tdn_graph_document *doc, int count, int threads, int lod, const tdn_joint_lod *joint_lod,
                         int quick, bench_emit_fn emit, void *user, tdn_error *err)
{
    const tdn_graph *graph = tdn_graph_document_graph(doc);
    const tdn_skeleton *skeleton = tdn_graph_document_skeleton(doc);
    cg_crowd *c = calloc(1, sizeof *c);
    if (!c)
        return bench_fail(err, TDN_ERR_OUT_OF_MEMORY, "crowd_graph");
    c->graph = graph;
    c->skeleton = skeleton;
    for (int f = 0; f < BENCH_SHOWCASE_FRAMES; f++)
        c->script[f] = bench_showcase_script(f);
    tdn_result res = bench_showcase_handles_find(graph, &c->h, err);
    if (res == TDN_OK)
        res = cg_make(c, count, threads, err);
    if (res == TDN_OK && lod)
        res = cg_make_lod(c, err);
    for (int k = 0; k < count && res == TDN_OK; k++)
        c->characters[k].joint_lod = joint_lod;
    cg_pool pool = { .threads = threads };
    pthread_mutex_init(&pool.lock, NULL);
    const tdn_graph_batch_desc desc = { .characters = c->characters,
                                        .character_count = count,
                                        .workspaces = c->workspaces,
                                        .worker_count = threads,
                                        .parallel_for = threads > 1 ? cg_parallel_for : NULL,
                                        .parallel_user = &pool,
                                        .characters_per_task = CG_PER_TASK,
                                        .prepare = cg_prepare,
                                        .prepare_user = c };
    const int frames = quick ? 2 : CG_FRAMES, warmup = quick ? 1 : CG_WARMUP;
    double frame_ns[CG_FRAMES];
    tdn_graph_lod_budget budget = { 0 };
    bench_lod_quality quality = { { 0, 0 }, { 0, 0 }, 0 };
    if (res == TDN_OK && lod) {
        res = cg_budget_frames(c, &desc, warmup, frames, frame_ns, &budget, err);
        if (res == TDN_OK)
            res = cg_quality(c, doc, quick, &quality, err);
    }
    for (int f = -warmup; f < frames && res == TDN_OK && !lod; f++) {
        const double t0 = bench_now_ns();
        res = tdn_graph_evaluate_batch(&desc, err);
        if (f >= 0)
            frame_ns[f] = bench_now_ns() - t0;
    }
    if (res == TDN_OK) {
        const double median = bench_median(frame_ns, frames);
        const int joints = tdn_skeleton_joint_count(skeleton);
        bench_row row = bench_row_make("crowd_graph", joints,
                                       lod         ? "budget_2ms"
                                       : joint_lod ? "joint_lod"
                                                   : "full",
                                       threads);
        row.median_ns = median / count;
        row.min_ns = cg_least(frame_ns, frames) / count;
        row.ns_per_joint = row.median_ns / joints;
        row.chars_per_s = 1e9 * count / median;
        bench_row_add_number(&row, "characters", count);
        bench_row_add_number(&row, "frame_ms", median * 1e-6);
        bench_row_add_number(&row, "memory_bytes", cg_memory(c, threads));
        if (!lod) {
            bench_row_add_number(&row, "instance_bytes", (double)tdn_graph_instance_bytes(graph));
            bench_row_add_number(&row, "workspace_bytes", (double)c->workspace_bytes);
            if (joint_lod) {
                int kept = 0;
                for (int r = 0; r < joint_lod->kept_count; r++)
                    kept += joint_lod->kept[r].end - joint_lod->kept[r].begin;
                bench_row_add_number(&row, "kept_joints", kept);
            }
        } else {
            int histogram[4] = { 0, 0, 0, 0 }; /* rates 1, 2, 4, 8 in the last frame */
            for (int k = 0; k < count; k++) {
                int level = 0;
                while (level < 3 && (1 << level) < c->rates[k])
                    level++;
                histogram[level]++;
            }
            static const char *const RATE_FIELDS[4] = { "rate_1", "rate_2", "rate_4", "rate_8" };
            for (int r = 0; r < 4; r++)
                bench_row_add_number(&row, RATE_FIELDS[r], histogram[r]);
            bench_row_add_number(&row, "budget_ms", CG_BUDGET_MS);
            bench_row_add_number(&row, "evaluated_ns", budget.evaluated_ns);
            bench_row_add_number(&row, "interpolated_ns", budget.interpolated_ns);
            bench_row_add_number(&row, "worst_pop", quality.worst_pop[1]);
            bench_row_add_number(&row, "worst_pop_full", quality.worst_pop[0]);
            bench_row_add_number(&row, "mean_foot_skate", quality.mean_skate[1]);
            bench_row_add_number(&row, "mean_foot_skate_full", quality.mean_skate[0]);
        }
        emit(&row, user);
    }
    pthread_mutex_destroy(&pool.lock);
    cg_free(c);
    free(c);
    return res;
}

tdn_result bench_run_crowd_graph(int quick, int threads, bench_emit_fn emit, void *user, tdn_error *err)
{
    tdn_graph_document *doc = NULL;
    tdn_result res = tdn_graph_document_load(TENDON_BLENDMOTION_GRAPH, NULL, &doc, NULL, err);
    if (res != TDN_OK)
        return res;
    const int count = quick ? CG_CHARACTERS_QUICK : CG_CHARACTERS;
    const int every = threads < 1 ? 1 : threads > BENCH_MAX_THREADS ? BENCH_MAX_THREADS : threads;
    const int thread_counts[2] = { 1, every };
    for (int i = 0; i < (every > 1 ? 2 : 1) && res == TDN_OK; i++)
        res = cg_row(doc, count, thread_counts[i], 0, NULL, quick, emit, user, err);
    if (res == TDN_OK)
        res = cg_row(doc, count, every, 1, NULL, quick, emit, user, err);
    const char *const *detail = NULL; /* the humanoid without fingers and face */
    const int details = tdn_humanoid_detail_joints(&detail);
    tdn_joint_lod far;
    if (res == TDN_OK)
        res = tdn_joint_lod_init_names(tdn_graph_document_skeleton(doc), detail, details, &far, err);
    if (res == TDN_OK)
        res = cg_row(doc, count, every, 0, &far, quick, emit, user, err);
    tdn_graph_document_destroy(doc);
    return res;
}
