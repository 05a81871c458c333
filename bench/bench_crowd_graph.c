/* tendon_bench: the `crowd_graph` workload (see bench_crowd_graph.h). */
#include "bench_crowd_graph.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bench_showcase.h"
#include "tendon/io/graph_document.h"

#ifndef TENDON_BLENDMOTION_GRAPH
#  define TENDON_BLENDMOTION_GRAPH "examples/graphs/blendmotion.json"
#endif

#define CG_CHARACTERS 10000
#define CG_CHARACTERS_QUICK 200
#define CG_FRAMES 15 /* measured frames of the whole crowd */
#define CG_WARMUP 3
#define CG_PER_TASK 16

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
        c->characters[k] = (tdn_graph_character){
            in, BENCH_SHOWCASE_DT, &c->poses[k], NULL, c->palettes + (size_t)joints * (size_t)k, NULL, NULL
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

/* One row: the crowd on `threads` threads. */
static tdn_result cg_row(const tdn_graph *graph, const tdn_skeleton *skeleton, int count, int threads, int quick,
                         bench_emit_fn emit, void *user, tdn_error *err)
{
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
    const int frames = quick ? 2 : CG_FRAMES;
    double frame_ns[CG_FRAMES];
    for (int f = -(quick ? 1 : CG_WARMUP); f < frames && res == TDN_OK; f++) {
        const double t0 = bench_now_ns();
        res = tdn_graph_evaluate_batch(&desc, err);
        if (f >= 0)
            frame_ns[f] = bench_now_ns() - t0;
    }
    if (res == TDN_OK) {
        double least = frame_ns[0];
        for (int f = 1; f < frames; f++)
            least = frame_ns[f] < least ? frame_ns[f] : least;
        const double median = bench_median(frame_ns, frames);
        const int joints = tdn_skeleton_joint_count(skeleton);
        bench_row row = bench_row_make("crowd_graph", joints, "full", threads);
        row.median_ns = median / count;
        row.min_ns = least / count;
        row.ns_per_joint = row.median_ns / joints;
        row.chars_per_s = 1e9 * count / median;
        const double memory = (double)c->instance_stride * count + (double)c->workspace_bytes * threads +
                              (double)tdn_pose_bytes(joints) * count + (double)sizeof(tdn_mat4) * joints * count;
        bench_row_add_number(&row, "characters", count);
        bench_row_add_number(&row, "frame_ms", median * 1e-6);
        bench_row_add_number(&row, "memory_bytes", memory);
        bench_row_add_number(&row, "instance_bytes", (double)tdn_graph_instance_bytes(graph));
        bench_row_add_number(&row, "workspace_bytes", (double)c->workspace_bytes);
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
        res = cg_row(tdn_graph_document_graph(doc), tdn_graph_document_skeleton(doc), count, thread_counts[i], quick,
                     emit, user, err);
    tdn_graph_document_destroy(doc);
    return res;
}
