/* tendon_bench: the `blend_space` workload (see bench_blend_space.h). */
#include "bench_blend_space.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_clips.h"

#define BS_SAMPLES 9
#define BS_PATH 240 /* positions per cycle of the path: 4 s at 60 frames/s */
#define BS_DT (1.0f / 60.0f)
#define BS_NEAR 0.004f /* near_sample: distance from the sample, in sample spacings */
#define BS_PARAM "move"

typedef struct bs_layout {
    tdn_blend_space_mode mode;
    float points[2 * BS_SAMPLES];
    float radius;  /* between: a circle about the origin */
    int near;      /* near_sample: this sample */
    float spacing; /* distance from `near` to the nearest other sample */
    const char *between_text, *near_text;
} bs_layout;

static const bs_layout LAYOUTS[2] = {
    /* idle; walks forward, right, back, left at 1; runs at 2.5. Between walk and run radii. */
    { TDN_BLEND_SPACE_POLAR_GRADIENT_BAND,
      { 0, 0, 0, 1, 1, 0, 0, -1, -1, 0, 0, 2.5f, 2.5f, 0, 0, -2.5f, -2.5f, 0 },
      1.7f,
      1,
      1.0f,
      "circle r=1.7 about (0,0)",
      "circle r=0.004 about (0,1)" },
    /* the 3x3 grid; the circle passes midway between the centre and the edge samples. */
    { TDN_BLEND_SPACE_GRADIENT_BAND,
      { -1, -1, 0, -1, 1, -1, -1, 0, 0, 0, 1, 0, -1, 1, 0, 1, 1, 1 },
      0.6f,
      4,
      1.0f,
      "circle r=0.6 about (0,0)",
      "circle r=0.004 about (0,0)" },
};

static const char *const CLIP_NAMES[BS_SAMPLES] = { "idle",  "walk_f", "walk_r", "walk_b", "walk_l",
                                                    "run_f", "run_r",  "run_b",  "run_l" };

typedef struct bs_ctx {
    tdn_graph_instance *instance;
    const tdn_blend_space *space;
    int param;
    float path[BS_PATH][2];
    int cursor;
    tdn_pose pose;
    float weights[BS_SAMPLES];
    tdn_clip *const *clips;
    float time;
} bs_ctx;

static void bs_frame(void *p, long n)
{
    bs_ctx *c = p;
    for (long i = 0; i < n; i++) {
        tdn_graph_set_vector(c->instance, c->param, c->path[c->cursor], NULL);
        tdn_graph_update(c->instance, BS_DT, NULL);
        tdn_graph_evaluate(c->instance, &c->pose, NULL);
        if (++c->cursor == BS_PATH)
            c->cursor = 0;
    }
}

static void bs_update(void *p, long n)
{
    bs_ctx *c = p;
    for (long i = 0; i < n; i++) {
        tdn_graph_set_vector(c->instance, c->param, c->path[c->cursor], NULL);
        tdn_graph_update(c->instance, BS_DT, NULL);
        if (++c->cursor == BS_PATH)
            c->cursor = 0;
    }
}

static void bs_weights(void *p, long n)
{
    bs_ctx *c = p;
    for (long i = 0; i < n; i++) {
        tdn_blend_space_weights(c->space, c->path[c->cursor], c->weights, NULL);
        if (++c->cursor == BS_PATH)
            c->cursor = 0;
    }
}

/* One clip sampled per iteration, the clips in turn, time advancing a frame per round. */
static void bs_sample(void *p, long n)
{
    bs_ctx *c = p;
    for (long i = 0; i < n; i++) {
        tdn_clip_sample(c->clips[c->cursor], c->time, &c->pose, NULL);
        if (++c->cursor == BS_SAMPLES) {
            c->cursor = 0;
            c->time += BS_DT;
            if (c->time >= BENCH_CLIP_SECONDS)
                c->time -= BENCH_CLIP_SECONDS;
        }
    }
}

static tdn_graph *bs_graph(const bench_scene *scene, tdn_clip *const *clips, const tdn_blend_space *space, float cull,
                           tdn_error *err)
{
    tdn_node_desc nodes[BS_SAMPLES + 1];
    int inputs[BS_SAMPLES];
    memset(nodes, 0, sizeof nodes);
    for (int i = 0; i < BS_SAMPLES; i++) {
        nodes[i].type = TDN_NODE_CLIP;
        nodes[i].name = CLIP_NAMES[i];
        nodes[i].clip = i;
        nodes[i].wrap = TDN_WRAP_LOOP;
        nodes[i].sync_group = "loco";
        inputs[i] = i;
    }
    nodes[BS_SAMPLES].type = TDN_NODE_BLEND_SPACE;
    nodes[BS_SAMPLES].name = "locomotion";
    nodes[BS_SAMPLES].inputs = inputs;
    nodes[BS_SAMPLES].input_count = BS_SAMPLES;
    nodes[BS_SAMPLES].space = space;
    nodes[BS_SAMPLES].position = BS_PARAM;
    tdn_param_desc param = { BS_PARAM, TDN_PARAM_VEC2, { 0.0f, 0.0f, 0.0f }, 0.0f };
    tdn_graph_desc desc = { 0 };
    desc.skeleton = scene->skeleton;
    desc.clips = (const tdn_clip *const *)clips;
    desc.clip_count = BS_SAMPLES;
    desc.params = &param;
    desc.param_count = 1;
    desc.nodes = nodes;
    desc.node_count = BS_SAMPLES + 1;
    desc.root = BS_SAMPLES;
    desc.cull_threshold = cull;
    tdn_graph *graph = NULL;
    tdn_graph_create(&desc, &graph, NULL, err);
    return graph;
}

/* One row: a graph over `space` with culling `cull` (0: the default 0.01; -1: off). */
static tdn_result bs_row(const bench_config *cfg, const bench_scene *scene, tdn_clip *const *clips,
                         const tdn_blend_space *space, const bs_layout *layout, int near, float cull,
                         const char *variant, double sample_ns, bench_emit_fn emit, void *user, tdn_error *err)
{
    tdn_graph *graph = bs_graph(scene, clips, space, cull, err);
    if (!graph)
        return bench_fail(err, TDN_ERR_INVALID_DATA, "blend_space graph");
    bs_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.space = space;
    ctx.param = tdn_graph_find_param(graph, BS_PARAM);
    tdn_result res = tdn_graph_instance_create(graph, &ctx.instance, NULL, err);
    if (res == TDN_OK)
        res = tdn_pose_create(scene->joint_count, &ctx.pose, NULL, err);
    if (res != TDN_OK) {
        tdn_graph_instance_destroy(ctx.instance);
        tdn_graph_destroy(graph);
        return bench_fail(err, res, "blend_space instance");
    }
    const float *centre = near ? &layout->points[2 * layout->near] : NULL;
    const float r = near ? BS_NEAR * layout->spacing : layout->radius;
    for (int k = 0; k < BS_PATH; k++) {
        float a = 2.0f * TDN_PI * (float)k / (float)BS_PATH;
        ctx.path[k][0] = (centre ? centre[0] : 0.0f) + r * sinf(a);
        ctx.path[k][1] = (centre ? centre[1] : 0.0f) + r * cosf(a);
    }
    /* One untimed cycle: checks every call and counts the flat list. */
    long entries = 0;
    for (int k = 0; k < BS_PATH && res == TDN_OK; k++) {
        res = tdn_graph_set_vector(ctx.instance, ctx.param, ctx.path[k], err);
        if (res == TDN_OK)
            res = tdn_graph_update(ctx.instance, BS_DT, err);
        if (res == TDN_OK)
            res = tdn_graph_evaluate(ctx.instance, &ctx.pose, err);
        if (res == TDN_OK)
            res = tdn_blend_space_weights(space, ctx.path[k], ctx.weights, err);
        entries += tdn_graph_entries(ctx.instance, NULL);
    }
    if (res == TDN_OK) {
        bench_stats frame = bench_measure(cfg, bs_frame, &ctx, 1.0);
        ctx.cursor = 0;
        bench_stats weights = bench_measure(cfg, bs_weights, &ctx, 1.0);
        ctx.cursor = 0;
        bench_stats update = bench_measure(cfg, bs_update, &ctx, 1.0);
        bench_row row = bench_row_make("blend_space", scene->joint_count, variant, 1);
        row.median_ns = frame.median_ns;
        row.min_ns = frame.min_ns;
        row.ns_per_joint = frame.median_ns / scene->joint_count;
        row.chars_per_s = 1e9 / frame.median_ns;
        bench_row_add_text(&row, "mode", tdn_blend_space_mode_name(layout->mode));
        bench_row_add_number(&row, "samples", BS_SAMPLES);
        bench_row_add_number(&row, "entries", (double)entries / BS_PATH);
        bench_row_add_number(&row, "cull", cull > 0.0f ? cull : cull == 0.0f ? 0.01 : 0.0);
        bench_row_add_text(&row, "position", near ? layout->near_text : layout->between_text);
        bench_row_add_number(&row, "weights_ns", weights.median_ns);
        bench_row_add_number(&row, "update_ns", update.median_ns);
        bench_row_add_number(&row, "sample_ns", sample_ns);
        emit(&row, user);
    }
    tdn_pose_destroy(&ctx.pose);
    tdn_graph_instance_destroy(ctx.instance);
    tdn_graph_destroy(graph);
    return res == TDN_OK ? TDN_OK : bench_fail(err, res, "blend_space frame");
}

tdn_result bench_run_blend_space(int quick, const bench_scene *scene, bench_emit_fn emit, void *user, tdn_error *err)
{
    const bench_config cfg = bench_config_short(quick);
    tdn_keyed_clip *keyed[BS_SAMPLES] = { 0 };
    tdn_clip *clips[BS_SAMPLES] = { 0 };
    tdn_result res = TDN_OK;
    for (int i = 0; i < BS_SAMPLES && res == TDN_OK; i++) {
        res = bench_keyed_clip_create(scene->skeleton, i, CLIP_NAMES[i], &keyed[i], err);
        if (res == TDN_OK) {
            tdn_clip_desc desc = { 0 };
            desc.source = keyed[i];
            res = tdn_clip_create(&desc, &clips[i], NULL, err);
        }
    }
    double sample_ns = 0.0;
    if (res == TDN_OK) {
        bs_ctx sampler;
        memset(&sampler, 0, sizeof sampler);
        sampler.clips = clips;
        res = tdn_pose_create(scene->joint_count, &sampler.pose, NULL, err);
        if (res == TDN_OK) {
            sample_ns = bench_measure(&cfg, bs_sample, &sampler, 1.0).median_ns;
            tdn_pose_destroy(&sampler.pose);
        }
    }
    for (int l = 0; l < 2 && res == TDN_OK; l++) {
        tdn_blend_space *space = NULL;
        tdn_blend_space_desc sd = { 0 };
        sd.mode = LAYOUTS[l].mode;
        sd.dimensions = 2;
        sd.sample_count = BS_SAMPLES;
        sd.points = LAYOUTS[l].points;
        res = tdn_blend_space_create(&sd, &space, NULL, err);
        if (res != TDN_OK)
            break;
        res = bs_row(&cfg, scene, clips, space, &LAYOUTS[l], 0, 0.0f, "between", sample_ns, emit, user, err);
        if (res == TDN_OK)
            res = bs_row(&cfg, scene, clips, space, &LAYOUTS[l], 1, 0.0f, "near_sample", sample_ns, emit, user, err);
        if (res == TDN_OK)
            res = bs_row(&cfg, scene, clips, space, &LAYOUTS[l], 1, -1.0f, "near_sample_nocull", sample_ns, emit, user,
                         err);
        tdn_blend_space_destroy(space);
    }
    for (int i = 0; i < BS_SAMPLES; i++) {
        tdn_clip_destroy(clips[i]);
        tdn_keyed_clip_destroy(keyed[i]);
    }
    return res;
}
