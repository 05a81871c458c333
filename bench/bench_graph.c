/* tendon_bench: the `graph` workload (see bench_graph.h). */
#include "bench_graph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_showcase.h"
#include "tendon/io/graph_document.h"
#include "tendon/io/humanoid.h"

#ifndef TENDON_BLENDMOTION_GRAPH
#  define TENDON_BLENDMOTION_GRAPH "examples/graphs/blendmotion.json"
#endif

#define G_FRAMES BENCH_SHOWCASE_FRAMES
#define G_DT BENCH_SHOWCASE_DT
#define G_COLD 1000
#define G_COLD_QUICK 10 /* --quick: the cold path runs, is not measured (each character first laps the timeline) */
#define G_PHASE BENCH_SHOWCASE_PHASE

typedef struct g_character {
    tdn_graph_instance *instance;
    tdn_pose pose;
    tdn_mat4 *model;
    int frame; /* place in the timeline */
} g_character;

typedef struct g_ctx {
    const tdn_skeleton *skeleton;
    const bench_showcase_handles *h;
    const bench_showcase_controls *script; /* G_FRAMES */
    g_character *characters;
    int count, next;
    tdn_graph_workspace *ws; /* one, shared by every character, as a thread of a crowd does */
} g_ctx;

/* The parameter changes of one frame, then the update. */
static void g_update(const g_ctx *c, g_character *ch)
{
    bench_showcase_set(c->h, &c->script[ch->frame], ch->instance);
    tdn_graph_update(ch->instance, G_DT, NULL);
    if (++ch->frame == G_FRAMES)
        ch->frame = 0;
}

static g_character *g_next(g_ctx *c)
{
    g_character *ch = &c->characters[c->next];
    if (++c->next == c->count)
        c->next = 0;
    return ch;
}

static void g_frame(void *p, long n)
{
    g_ctx *c = p;
    for (long i = 0; i < n; i++) {
        g_character *ch = g_next(c);
        g_update(c, ch);
        tdn_graph_evaluate_with(ch->instance, c->ws, &ch->pose, NULL);
        tdn_model_space(c->skeleton, &ch->pose, NULL, ch->model, NULL);
    }
}

static void g_update_only(void *p, long n)
{
    g_ctx *c = p;
    for (long i = 0; i < n; i++)
        g_update(c, g_next(c));
}

/* Evaluate and model space alone: each call evaluates the last update again (the same work as
 * after a fresh one; inertialization applies no more time). */
static void g_evaluate_only(void *p, long n)
{
    g_ctx *c = p;
    for (long i = 0; i < n; i++) {
        g_character *ch = g_next(c);
        tdn_graph_evaluate_with(ch->instance, c->ws, &ch->pose, NULL);
    }
}

static void g_ltm_only(void *p, long n)
{
    g_ctx *c = p;
    for (long i = 0; i < n; i++) {
        g_character *ch = g_next(c);
        tdn_model_space(c->skeleton, &ch->pose, NULL, ch->model, NULL);
    }
}

static void g_free(g_character *chars, int count)
{
    for (int k = 0; k < count; k++) {
        free(chars[k].instance); /* placed at the start of its memory */
        tdn_pose_destroy(&chars[k].pose);
        free(chars[k].model);
    }
    free(chars);
}

/* `count` characters, each with an instance in memory of its own (its state alone: retargeted
 * when `retarget` is not NULL), a pose and model-space buffers of `joints` joints. */
static g_character *g_make(const tdn_graph *graph, const tdn_retarget *retarget, int joints, int count)
{
    g_character *chars = calloc((size_t)count, sizeof *chars);
    if (!chars)
        return NULL;
    for (int k = 0; k < count; k++) {
        const size_t bytes = (tdn_graph_instance_bytes_retargeted(graph, retarget) + TDN_GRAPH_INSTANCE_ALIGN - 1) /
                             TDN_GRAPH_INSTANCE_ALIGN * TDN_GRAPH_INSTANCE_ALIGN;
        void *memory = aligned_alloc(TDN_GRAPH_INSTANCE_ALIGN, bytes);
        chars[k].model = malloc(sizeof *chars[k].model * (size_t)joints);
        if (!memory || !chars[k].model ||
            tdn_graph_instance_init_retargeted(graph, retarget, memory, bytes, &chars[k].instance, NULL) != TDN_OK ||
            tdn_pose_create(joints, &chars[k].pose, NULL, NULL) != TDN_OK) {
            if (!chars[k].instance)
                free(memory);
            g_free(chars, k + 1);
            return NULL;
        }
        chars[k].frame = (k * G_PHASE) % G_FRAMES;
    }
    return chars;
}

/* The `retargeted` variant's character: the humanoid 1.5 m tall instead of 1.8 m, and the
 * retarget of the showcase's humanoid onto it (both maps found, references from the rest poses,
 * the leg ratio). */
static tdn_result g_retarget_make(const tdn_skeleton *source, tdn_asset **target, tdn_retarget **out, tdn_error *err)
{
    const tdn_humanoid_desc small = { .height = 1.5f };
    tdn_body_map maps[2];
    tdn_result res = tdn_humanoid_create(&small, target, NULL, err);
    if (res == TDN_OK)
        res = tdn_body_map_find(source, NULL, &maps[0], err);
    if (res == TDN_OK)
        res = tdn_body_map_find(tdn_asset_skeleton(*target), NULL, &maps[1], err);
    if (res == TDN_OK) {
        const tdn_retarget_desc desc = { .source = { .skeleton = source, .map = &maps[0] },
                                         .target = { .skeleton = tdn_asset_skeleton(*target), .map = &maps[1] } };
        res = tdn_retarget_create(&desc, out, NULL, err);
    }
    return res;
}

/* The scripted timeline's parameter changes, made once. */
static const bench_showcase_controls *g_script(void)
{
    static bench_showcase_controls script[G_FRAMES];
    static int made;
    if (!made)
        for (int f = 0; f < G_FRAMES; f++)
            script[f] = bench_showcase_script(f);
    made = 1;
    return script;
}

struct bench_graph_hot {
    tdn_graph_document *doc;
    tdn_graph_workspace *workspace;
    bench_showcase_handles handles;
    g_ctx ctx;
};

void bench_graph_hot_destroy(bench_graph_hot *hot)
{
    if (!hot)
        return;
    if (hot->ctx.characters)
        g_free(hot->ctx.characters, hot->ctx.count);
    tdn_graph_workspace_destroy(hot->workspace);
    tdn_graph_document_destroy(hot->doc);
    free(hot);
}

tdn_result bench_graph_hot_create(const tdn_graph_document_load_options *options, bench_graph_hot **out, tdn_error *err)
{
    *out = NULL;
    bench_graph_hot *hot = calloc(1, sizeof *hot);
    if (!hot)
        return bench_fail(err, TDN_ERR_OUT_OF_MEMORY, "graph character");
    tdn_result res = tdn_graph_document_load(TENDON_BLENDMOTION_GRAPH, options, &hot->doc, NULL, err);
    const tdn_graph *graph = res == TDN_OK ? tdn_graph_document_graph(hot->doc) : NULL;
    if (res == TDN_OK)
        res = tdn_graph_workspace_create(&graph, 1, &hot->workspace, NULL, err);
    if (res == TDN_OK)
        res = bench_showcase_handles_find(graph, &hot->handles, err);
    if (res == TDN_OK) {
        const tdn_skeleton *skel = tdn_graph_document_skeleton(hot->doc);
        const g_ctx ctx = { skel, &hot->handles, g_script(), g_make(graph, NULL, tdn_skeleton_joint_count(skel), 1), 1,
                            0,    hot->workspace };
        hot->ctx = ctx;
        if (!ctx.characters)
            res = bench_fail(err, TDN_ERR_OUT_OF_MEMORY, "graph character");
    }
    if (res != TDN_OK) {
        bench_graph_hot_destroy(hot);
        return res;
    }
    g_frame(&hot->ctx, G_FRAMES); /* one lap of the timeline before any timing */
    *out = hot;
    return TDN_OK;
}

void bench_graph_hot_frame(void *hot, long n) { g_frame(&((bench_graph_hot *)hot)->ctx, n); }

int bench_graph_hot_joint_count(const bench_graph_hot *hot) { return tdn_skeleton_joint_count(hot->ctx.skeleton); }

tdn_result bench_run_graph(int quick, bench_emit_fn emit, void *user, tdn_error *err)
{
    tdn_graph_document *doc = NULL;
    tdn_result res = tdn_graph_document_load(TENDON_BLENDMOTION_GRAPH, NULL, &doc, NULL, err);
    if (res != TDN_OK)
        return res;
    const tdn_graph *graph = tdn_graph_document_graph(doc);
    const tdn_skeleton *skel = tdn_graph_document_skeleton(doc);
    const int joints = tdn_skeleton_joint_count(skel);
    tdn_asset *small = NULL;
    tdn_retarget *retarget = NULL;
    res = g_retarget_make(skel, &small, &retarget, err);
    tdn_graph_workspace *workspace = NULL;
    if (res == TDN_OK)
        res = tdn_graph_workspace_create(&graph, 1, &workspace, NULL, err);
    bench_showcase_handles h;
    const bench_showcase_controls *script = g_script();
    if (res == TDN_OK)
        res = bench_showcase_handles_find(graph, &h, err);
    bench_config cfg = bench_config_default(quick);
    if (!quick) {
        cfg.batches = 101;
        cfg.batch_ns = 2e6;
        cfg.warmup_ns = 2e8; /* the cold characters each see every part of the timeline */
    }
    const int counts[3] = { 1, quick ? G_COLD_QUICK : G_COLD, 1 };
    const char *variants[3] = { "hot", "cold", "retargeted" };
    for (int v = 0; v < 3 && res == TDN_OK; v++) {
        /* retargeted: the hot character's frames written on the smaller humanoid (67 joints too) */
        const tdn_retarget *rt = v == 2 ? retarget : NULL;
        const tdn_skeleton *shown = rt ? tdn_asset_skeleton(small) : skel;
        g_ctx ctx = { shown, &h, script, g_make(graph, rt, joints, counts[v]), counts[v], 0, workspace };
        if (!ctx.characters) {
            res = bench_fail(err, TDN_ERR_OUT_OF_MEMORY, "graph characters");
            break;
        }
        /* One untimed lap of the timeline per character: checks the calls, counts the flat list. */
        long entries = 0, frames = 0;
        for (int f = 0; f < G_FRAMES && res == TDN_OK; f++)
            for (int k = 0; k < ctx.count && res == TDN_OK; k++) {
                g_character *ch = &ctx.characters[k];
                g_update(&ctx, ch);
                res = tdn_graph_evaluate_with(ch->instance, workspace, &ch->pose, err);
                if (res == TDN_OK)
                    res = tdn_model_space(shown, &ch->pose, NULL, ch->model, err);
                entries += tdn_graph_entries(ch->instance, NULL);
                frames++;
            }
        if (res == TDN_OK) {
            bench_stats s = bench_measure(&cfg, g_frame, &ctx, 1.0);
            bench_row row = bench_row_make("graph", joints, variants[v], 1);
            row.median_ns = s.median_ns;
            row.min_ns = s.min_ns;
            row.ns_per_joint = s.median_ns / joints;
            row.chars_per_s = 1e9 / s.median_ns;
            bench_row_add_number(&row, "layers", tdn_graph_layer_count(graph));
            bench_row_add_number(&row, "entries", (double)entries / (double)frames);
            bench_row_add_number(&row, "characters", counts[v]);
            bench_row_add_number(&row, "instance_bytes", (double)tdn_graph_instance_bytes_retargeted(graph, rt));
            bench_row_add_number(&row, "workspace_bytes", (double)tdn_graph_workspace_bytes(&graph, 1));
            if (counts[v] == 1) {
                bench_row_add_number(&row, "update_ns", bench_measure(&cfg, g_update_only, &ctx, 1.0).median_ns);
                bench_row_add_number(&row, "evaluate_ns", bench_measure(&cfg, g_evaluate_only, &ctx, 1.0).median_ns);
                bench_row_add_number(&row, "ltm_ns", bench_measure(&cfg, g_ltm_only, &ctx, 1.0).median_ns);
            }
            emit(&row, user);
        } else {
            res = bench_fail(err, res, "graph frame");
        }
        g_free(ctx.characters, ctx.count);
    }
    tdn_graph_workspace_destroy(workspace);
    tdn_retarget_destroy(retarget);
    tdn_asset_destroy(small);
    tdn_graph_document_destroy(doc);
    return res;
}
