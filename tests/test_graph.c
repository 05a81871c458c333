/* Blend trees: parameters and their smoothing, each node's weights worked by hand, switch
 * cross-fades, the flat list against a recursive evaluation, merging and culling, sync groups
 * by phase and by markers, mirroring, bad graphs, and no allocation per frame. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"

#include "graph_fixture.h"

/* ---- parameters ---- */

static void smoothing_half_life_is_exact(void)
{
    const tdn_clip *clip = make_clip((clip_spec){ "c", 1, 1, 0, 1, { 0, 1, 0 }, NULL, 0 }, 0);
    tdn_param_desc params[] = { { .name = "speed", .type = TDN_PARAM_FLOAT, .half_life = 0.2f },
                                { .name = "raw", .type = TDN_PARAM_FLOAT } };
    tdn_node_desc nodes[] = { { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP } };
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = &clip,
                          .clip_count = 1,
                          .params = params,
                          .param_count = 2,
                          .nodes = nodes,
                          .node_count = 1 };
    tdn_graph *g = NULL;
    CHECK(tdn_graph_create(&gd, &g, NULL, NULL) == TDN_OK);
    tdn_graph_instance *a = NULL, *b = NULL;
    CHECK(tdn_graph_instance_create(g, &a, NULL, NULL) == TDN_OK);
    CHECK(tdn_graph_instance_create(g, &b, NULL, NULL) == TDN_OK);
    int speed = tdn_graph_find_param(g, "speed");
    CHECK_EQ_INT(speed, 0);
    CHECK_EQ_INT(tdn_graph_find_param(g, "nope"), -1);
    tdn_graph_set_float(a, speed, 2.0f, NULL);
    tdn_graph_set_float(b, speed, 2.0f, NULL);
    CHECK_NEAR(tdn_graph_param_value(a, speed, 0), 0.0, 0); /* smoothed: nothing before an update */
    /* One step of a half-life covers half the step, and so do 100 steps of 2 ms: the spring is
     * integrated exactly. After 4 half-lives: e^-4u (1 + 4u) with u = 1.678347 is left. */
    tdn_graph_update(a, 0.2f, NULL);
    for (int i = 0; i < 100; i++)
        tdn_graph_update(b, 0.002f, NULL);
    CHECK_NEAR(tdn_graph_param_value(a, speed, 0), 1.0, 1e-5);
    CHECK_NEAR(tdn_graph_param_value(b, speed, 0), 1.0, 1e-4);
    tdn_graph_instance_destroy(b);
    CHECK(tdn_graph_instance_create(g, &b, NULL, NULL) == TDN_OK);
    tdn_graph_set_float(b, speed, 1.0f, NULL);
    tdn_graph_update(b, 0.8f, NULL);
    double u = 4 * 1.67834699;
    CHECK_NEAR(tdn_graph_param_value(b, speed, 0), 1.0 - exp(-u) * (1 + u), 1e-5);
    /* Unsmoothed parameters take the value at once; bad calls change nothing. */
    int raw = tdn_graph_find_param(g, "raw");
    CHECK(tdn_graph_set_float(a, raw, 3.0f, NULL) == TDN_OK);
    CHECK_NEAR(tdn_graph_param_value(a, raw, 0), 3.0, 0);
    CHECK(tdn_graph_set_float(a, raw, NAN, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_graph_set_int(a, raw, 1, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_graph_set_float(a, 7, 1.0f, NULL) == TDN_ERR_ARGUMENT);
    CHECK_NEAR(tdn_graph_param_value(a, raw, 0), 3.0, 0);
    CHECK(tdn_graph_set_float_named(a, "raw", 4.0f, NULL) == TDN_OK);
    CHECK_NEAR(tdn_graph_param_value(a, raw, 0), 4.0, 0);
    tdn_graph_instance_destroy(a);
    tdn_graph_instance_destroy(b);
    tdn_graph_destroy(g);
    tdn_clip_destroy((tdn_clip *)clip);
}

/* ---- node weights by hand ---- */

static void node_weights_by_hand(void)
{
    tdn_clip *c[4];
    for (int i = 0; i < 4; i++)
        c[i] = make_clip(
            (clip_spec){ "c", 1.0f + 0.25f * (float)i, (float)(i + 1), 0.3f * (float)i, 1, { 0, 0, 1 }, NULL, 0 }, 0);
    tdn_param_desc params[] = { { .name = "x", .type = TDN_PARAM_FLOAT, .value = { 0.25f } },
                                { .name = "a", .type = TDN_PARAM_FLOAT, .value = { 1 } },
                                { .name = "b", .type = TDN_PARAM_FLOAT, .value = { 3 } } };
    /* root = blend2(clip0, blendN(clip1 a, clip2 b, clip3 -1), x) */
    int bn_inputs[] = { 1, 2, 3 }, b2_inputs[] = { 0, 5 };
    tdn_node_value bn_values[] = { { "a", 0 }, { "b", 0 }, { NULL, -1 } };
    tdn_node_desc nodes[] = {
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = 1, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = 2, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = 3, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_BLEND2, .name = "top", .inputs = b2_inputs, .input_count = 2, .value = { "x", 0 } },
        { .type = TDN_NODE_BLENDN, .inputs = bn_inputs, .input_count = 3, .values = bn_values },
    };
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = (const tdn_clip *const *)c,
                          .clip_count = 4,
                          .params = params,
                          .param_count = 3,
                          .nodes = nodes,
                          .node_count = 6,
                          .root = 4,
                          .cull_threshold = -1 };
    tdn_graph *g = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_graph_create(&gd, &g, NULL, &err) == TDN_OK);
    tdn_graph_instance *in = NULL;
    CHECK(tdn_graph_instance_create(g, &in, NULL, NULL) == TDN_OK);
    tdn_graph_update(in, 0.1f, NULL);
    /* clip0: 1 - 0.25; clip1: 0.25 * 1/4; clip2: 0.25 * 3/4; clip3: a negative weight counts 0 */
    float w;
    entry_of_clip(in, 0, &w), CHECK_NEAR(w, 0.75, 1e-6);
    entry_of_clip(in, 1, &w), CHECK_NEAR(w, 0.0625, 1e-6);
    entry_of_clip(in, 2, &w), CHECK_NEAR(w, 0.1875, 1e-6);
    CHECK(entry_of_clip(in, 3, &w) < 0);
    CHECK_NEAR(tdn_graph_node_weight(in, 5), 0.25, 1e-6);
    /* every clip advanced by 0.1 s, the unweighted one too */
    for (int i = 0; i < 4; i++)
        CHECK_NEAR(tdn_graph_clip_time(in, i), 0.1, 1e-6);
    CHECK_NEAR(tdn_graph_clip_time(in, 4), -1, 0);
    /* x beyond 1 clamps; all-zero blendN weights go to its first input */
    tdn_graph_set_float(in, 0, 7.0f, NULL);
    tdn_graph_set_float(in, 1, 0.0f, NULL);
    tdn_graph_set_float(in, 2, 0.0f, NULL);
    tdn_graph_update(in, 0.0f, NULL);
    entry_of_clip(in, 1, &w), CHECK_NEAR(w, 1.0, 1e-6);
    CHECK_EQ_INT(tdn_graph_entries(in, NULL), 1);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    for (int i = 0; i < 4; i++)
        tdn_clip_destroy(c[i]);
}

static void switch_cross_fades(void)
{
    tdn_clip *c[3];
    for (int i = 0; i < 3; i++)
        c[i] = make_clip((clip_spec){ "c", 1, (float)i, 0, 1, { 0, 1, 0 }, NULL, 0 }, 0);
    tdn_param_desc params[] = { { .name = "pick", .type = TDN_PARAM_INT } };
    int inputs[] = { 0, 1, 2 };
    tdn_node_desc nodes[] = {
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = 1, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = 2, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_SWITCH, .inputs = inputs, .input_count = 3, .value = { "pick", 0 }, .fade = 0.4f },
    };
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = (const tdn_clip *const *)c,
                          .clip_count = 3,
                          .params = params,
                          .param_count = 1,
                          .nodes = nodes,
                          .node_count = 4,
                          .root = 3,
                          .cull_threshold = -1 };
    tdn_graph *g = NULL;
    CHECK(tdn_graph_create(&gd, &g, NULL, NULL) == TDN_OK);
    tdn_graph_instance *in = NULL;
    CHECK(tdn_graph_instance_create(g, &in, NULL, NULL) == TDN_OK);
    float w0, w1, w2;
    entry_of_clip(in, 0, &w0), CHECK_NEAR(w0, 1, 0);
    tdn_graph_set_int(in, 0, 1, NULL);
    tdn_graph_update(in, 0.1f, NULL); /* a quarter of the fade */
    entry_of_clip(in, 0, &w0), entry_of_clip(in, 1, &w1);
    CHECK_NEAR(w0, 0.75, 1e-6), CHECK_NEAR(w1, 0.25, 1e-6);
    /* Interrupted: input 2 gains 0.25 per 0.1 s, the others keep their 3:1 proportion. */
    tdn_graph_set_int(in, 0, 2, NULL);
    tdn_graph_update(in, 0.1f, NULL);
    entry_of_clip(in, 0, &w0), entry_of_clip(in, 1, &w1), entry_of_clip(in, 2, &w2);
    CHECK_NEAR(w2, 0.25, 1e-6), CHECK_NEAR(w0, 0.5625, 1e-6), CHECK_NEAR(w1, 0.1875, 1e-6);
    tdn_graph_update(in, 0.3f, NULL);
    entry_of_clip(in, 2, &w2), CHECK_NEAR(w2, 1, 1e-6);
    CHECK_EQ_INT(tdn_graph_entries(in, NULL), 1);
    /* Out-of-range selectors clamp. */
    tdn_graph_set_int(in, 0, -5, NULL);
    tdn_graph_update(in, 1.0f, NULL);
    entry_of_clip(in, 0, &w0), CHECK_NEAR(w0, 1, 1e-6);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    for (int i = 0; i < 3; i++)
        tdn_clip_destroy(c[i]);
}

static void triggers_last_one_update_and_names_set_every_type(void)
{
    tdn_clip *c[2] = { make_clip((clip_spec){ "a", 1, 1, 0, 1, { 0, 1, 0 }, NULL, 0 }, 0),
                       make_clip((clip_spec){ "b", 1, 2, 0, 1, { 0, 1, 0 }, NULL, 0 }, 0) };
    tdn_param_desc params[] = { { .name = "hit", .type = TDN_PARAM_TRIGGER },
                                { .name = "n", .type = TDN_PARAM_INT },
                                { .name = "on", .type = TDN_PARAM_BOOL },
                                { .name = "v", .type = TDN_PARAM_VEC3 } };
    int inputs[] = { 0, 1 };
    tdn_node_desc nodes[] = {
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = 1, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_SWITCH, .inputs = inputs, .input_count = 2, .value = { "hit", 0 } },
    };
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = (const tdn_clip *const *)c,
                          .clip_count = 2,
                          .params = params,
                          .param_count = 4,
                          .nodes = nodes,
                          .node_count = 3,
                          .root = 2 };
    tdn_graph *g = NULL;
    CHECK(tdn_graph_create(&gd, &g, NULL, NULL) == TDN_OK);
    tdn_graph_instance *in = NULL;
    CHECK(tdn_graph_instance_create(g, &in, NULL, NULL) == TDN_OK);
    float w;
    CHECK(tdn_graph_fire_trigger_named(in, "hit", NULL) == TDN_OK);
    tdn_graph_update(in, 0.1f, NULL); /* the fired trigger selects input 1 for this update (a cut: no fade) */
    entry_of_clip(in, 1, &w), CHECK_NEAR(w, 1, 0);
    CHECK_NEAR(tdn_graph_param_value(in, 0, 0), 0, 0); /* and is cleared after it */
    tdn_graph_update(in, 0.1f, NULL);
    entry_of_clip(in, 0, &w), CHECK_NEAR(w, 1, 0);
    /* every type by name; a wrong type or an unknown name changes nothing */
    const float v[3] = { 1, 2, 3 };
    CHECK(tdn_graph_set_int_named(in, "n", 7, NULL) == TDN_OK);
    CHECK(tdn_graph_set_bool_named(in, "on", 5, NULL) == TDN_OK);
    CHECK(tdn_graph_set_vector_named(in, "v", v, NULL) == TDN_OK);
    CHECK_NEAR(tdn_graph_param_value(in, 1, 0), 7, 0);
    CHECK_NEAR(tdn_graph_param_value(in, 2, 0), 1, 0);
    CHECK_NEAR(tdn_graph_param_value(in, 3, 2), 3, 0);
    CHECK(tdn_graph_set_bool_named(in, "n", 1, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_graph_set_int_named(in, "nope", 1, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_graph_fire_trigger_named(in, "on", NULL) == TDN_ERR_ARGUMENT);
    CHECK_NEAR(tdn_graph_param_value(in, 1, 0), 7, 0);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    tdn_clip_destroy(c[0]);
    tdn_clip_destroy(c[1]);
}

/* ---- flattening against a recursive evaluation ---- */

typedef struct recursive_ctx {
    const tdn_node_desc *nodes;
    tdn_clip *const *clips;
    const tdn_graph_instance *in;
    const tdn_blend_space *space;
    const float *point;
} recursive_ctx;

static float value_of(const recursive_ctx *ctx, tdn_node_value v)
{
    if (!v.param)
        return v.constant;
    return tdn_graph_param_value(ctx->in, tdn_graph_find_param(tdn_graph_instance_graph(ctx->in), v.param), 0);
}

/* The pose of node i, blending children's poses node by node with the core's blend calls. */
static void recursive_eval(const recursive_ctx *ctx, int i, tdn_pose *out)
{
    const tdn_node_desc *n = &ctx->nodes[i];
    tdn_pose kids[TDN_MAX_BLEND_SPACE_SAMPLES] = { { 0 } };
    int count = n->type == TDN_NODE_CLIP ? 0 : n->input_count;
    for (int k = 0; k < count; k++) {
        tdn_pose_create(JOINTS, &kids[k], NULL, NULL);
        recursive_eval(ctx, n->inputs[k], &kids[k]);
    }
    float w[TDN_MAX_BLEND_SPACE_SAMPLES];
    tdn_blend_input layers[TDN_MAX_BLEND_SPACE_SAMPLES];
    switch (n->type) {
    case TDN_NODE_CLIP:
        tdn_clip_sample(ctx->clips[n->clip], tdn_graph_clip_time(ctx->in, i), out, NULL);
        break;
    case TDN_NODE_BLEND2:
        tdn_blend2(&kids[0], &kids[1], value_of(ctx, n->value), NULL, out, NULL);
        break;
    case TDN_NODE_ADDITIVE:
        tdn_additive_apply(&kids[0], &kids[1], value_of(ctx, n->value), NULL, out, NULL);
        break;
    case TDN_NODE_TIME_SCALE:
        tdn_pose_copy(out, &kids[0], NULL);
        break;
    case TDN_NODE_BLEND_SPACE:
    case TDN_NODE_BLENDN:
        if (n->type == TDN_NODE_BLEND_SPACE)
            tdn_blend_space_weights(ctx->space, ctx->point, w, NULL);
        for (int k = 0; k < count; k++) {
            float v = n->type == TDN_NODE_BLENDN ? value_of(ctx, n->values[k]) : w[k];
            layers[k] = (tdn_blend_input){ &kids[k], v > 0 ? v : 0, NULL };
        }
        tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = count, .out = out }, NULL);
        break;
    default:
        break;
    }
    for (int k = 0; k < count; k++)
        tdn_pose_destroy(&kids[k]);
}

static void flat_list_matches_recursive_evaluation(void)
{
    /* additive(blend2(blend_space(4 clips at the corners of a square), blendN(clip4, time_scale(clip5)), x), diff6) */
    clip_spec specs[7] = {
        { "a", 1.0f, 1, 0.4f, 1.2f, { 0, 1, 0 }, NULL, 0 },       { "b", 1.3f, 2, -0.3f, 0.9f, { 1, 0, 0 }, NULL, 0 },
        { "c", 0.7f, -1, 0.2f, 1.1f, { 0, 0, 1 }, NULL, 0 },      { "d", 0.9f, 0.5f, 0.5f, 1, { 0, 1, 0 }, NULL, 0 },
        { "e", 1.1f, 3, -0.2f, 1.3f, { 0, 1, 0 }, NULL, 0 },      { "f", 0.8f, -2, 0.3f, 0.8f, { 1, 0, 0 }, NULL, 0 },
        { "diff", 1.0f, 0.3f, 0.6f, 1.5f, { 0, 0, 1 }, NULL, 0 },
    };
    tdn_clip *c[7];
    for (int i = 0; i < 7; i++)
        c[i] = make_clip(specs[i], i == 6);
    float corners[8] = { 0, 0, 1, 0, 0, 1, 1, 1 };
    tdn_blend_space *space = NULL;
    tdn_blend_space_desc sd = {
        .mode = TDN_BLEND_SPACE_GRADIENT_BAND, .dimensions = 2, .sample_count = 4, .points = corners
    };
    CHECK(tdn_blend_space_create(&sd, &space, NULL, NULL) == TDN_OK);
    tdn_param_desc params[] = { { .name = "x", .type = TDN_PARAM_FLOAT, .value = { 0.6f } },
                                { .name = "p", .type = TDN_PARAM_VEC2, .value = { 0.3f, 0.8f } },
                                { .name = "add", .type = TDN_PARAM_FLOAT, .value = { 0.7f } },
                                { .name = "speed", .type = TDN_PARAM_FLOAT, .value = { 1.5f } } };
    int space_in[] = { 0, 1, 2, 3 }, bn_in[] = { 4, 12 }, add_in[] = { 10, 6 }, top_in[] = { 7, 9 }, ts_in[] = { 5 };
    tdn_node_value bn_values[] = { { NULL, 2 }, { NULL, 1 } };
    tdn_node_desc nodes[13] = {
        [0] = { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP },
        [1] = { .type = TDN_NODE_CLIP, .clip = 1, .wrap = TDN_WRAP_LOOP },
        [2] = { .type = TDN_NODE_CLIP, .clip = 2, .wrap = TDN_WRAP_LOOP },
        [3] = { .type = TDN_NODE_CLIP, .clip = 3, .wrap = TDN_WRAP_LOOP, .start = 0.5f },
        [4] = { .type = TDN_NODE_CLIP, .clip = 4, .wrap = TDN_WRAP_PINGPONG, .rate = 0.7f },
        [5] = { .type = TDN_NODE_CLIP, .clip = 5, .wrap = TDN_WRAP_LOOP },
        [6] = { .type = TDN_NODE_CLIP, .clip = 6, .wrap = TDN_WRAP_LOOP },
        [7] = { .type = TDN_NODE_BLEND_SPACE, .inputs = space_in, .input_count = 4, .space = space, .position = "p" },
        [8] = { .type = TDN_NODE_ADDITIVE, .inputs = add_in, .input_count = 2, .value = { "add", 0 } },
        [9] = { .type = TDN_NODE_BLENDN, .inputs = bn_in, .input_count = 2, .values = bn_values },
        [10] = { .type = TDN_NODE_BLEND2, .inputs = top_in, .input_count = 2, .value = { "x", 0 } },
        [11] = { .type = TDN_NODE_REST },
        [12] = { .type = TDN_NODE_TIME_SCALE, .inputs = ts_in, .input_count = 1, .value = { "speed", 0 } },
    };
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = (const tdn_clip *const *)c,
                          .clip_count = 7,
                          .params = params,
                          .param_count = 4,
                          .nodes = nodes,
                          .node_count = 13,
                          .root = 8,
                          .cull_threshold = -1 };
    tdn_graph *g = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_graph_create(&gd, &g, NULL, &err) == TDN_OK);
    if (!g) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return;
    }
    tdn_graph_instance *in = NULL;
    CHECK(tdn_graph_instance_create(g, &in, NULL, NULL) == TDN_OK);
    tdn_pose flat, deep;
    tdn_pose_create(JOINTS, &flat, NULL, NULL);
    tdn_pose_create(JOINTS, &deep, NULL, NULL);
    float point[2];
    recursive_ctx ctx = { nodes, c, in, space, point };
    check_rng rng = { 0x5eed };
    double worst_t = 0, worst_r = 0, worst_s = 0;
    for (int step = 0; step < 200; step++) {
        float p[2] = { check_rng_float(&rng, -0.2f, 1.2f), check_rng_float(&rng, -0.2f, 1.2f) };
        tdn_graph_set_vector(in, 1, p, NULL);
        tdn_graph_set_float(in, 0, check_rng_float(&rng, 0, 1), NULL);
        tdn_graph_set_float(in, 2, check_rng_float(&rng, 0, 1), NULL);
        tdn_graph_update(in, 0.037f, NULL);
        point[0] = p[0], point[1] = p[1];
        CHECK(tdn_graph_evaluate(in, &flat, NULL) == TDN_OK);
        recursive_eval(&ctx, 8, &deep);
        for (int j = 0; j < JOINTS; j++) {
            tdn_transform a = tdn_pose_get(&flat, j), b = tdn_pose_get(&deep, j);
            worst_t = fmax(worst_t, tdn_vec3_length(tdn_vec3_sub(a.t, b.t)));
            worst_s = fmax(worst_s, tdn_vec3_length(tdn_vec3_sub(a.s, b.s)));
            float dot = fabsf(tdn_quat_dot(a.r, b.r));
            worst_r = fmax(worst_r, 2 * acos(dot > 1 ? 1 : dot));
        }
        /* base weights sum to 1 */
        const tdn_graph_entry *e;
        int n = tdn_graph_entries(in, &e);
        double sum = 0;
        for (int k = 0; k < n; k++)
            sum += e[k].additive ? 0 : e[k].weight;
        CHECK_NEAR(sum, 1, 1e-5);
    }
    /* Translations and scales are linear in the weights: equal to rounding. Rotations differ by
     * the renormalization the recursive evaluation makes at each level (second order in the
     * angles between inputs, up to ~1 rad here). */
    printf("flat vs recursive: translation %.2g, rotation %.2g rad, scale %.2g\n", worst_t, worst_r, worst_s);
    CHECK(worst_t < 1e-5);
    CHECK(worst_r < 3e-3);
    CHECK(worst_s < 1e-5);
    /* 200 steps of 0.037 s = 7.4 s: the time-scaled clip (0.8 s) ran at 1.5: 11.1 s, 0.7 into
     * its loop; the ping-pong clip (1.1 s) at 0.7: 5.18 s, 0.78 into its second forward leg;
     * the clip starting halfway (0.9 s): 0.45 + 7.4, 0.65 into its loop. */
    CHECK_NEAR(tdn_graph_clip_time(in, 5), 0.7, 1e-4);
    CHECK_NEAR(tdn_graph_clip_time(in, 4), 0.78, 1e-4);
    CHECK_NEAR(tdn_graph_clip_time(in, 3), 0.65, 1e-4);
    tdn_pose_destroy(&flat);
    tdn_pose_destroy(&deep);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    tdn_blend_space_destroy(space);
    for (int i = 0; i < 7; i++)
        tdn_clip_destroy(c[i]);
}

/* ---- merging and culling ---- */

static void duplicates_merge_and_light_entries_cull(void)
{
    tdn_clip *c[2] = { make_clip((clip_spec){ "a", 1, 1, 0.2f, 1, { 0, 1, 0 }, NULL, 0 }, 0),
                       make_clip((clip_spec){ "b", 2, 2, 0.2f, 1, { 0, 1, 0 }, NULL, 0 }, 0) };
    tdn_param_desc params[] = { { .name = "x", .type = TDN_PARAM_FLOAT, .value = { 0.5f } } };
    /* blend2(blend2(a, b, x), a', 0.5) where a' is a second node on clip a: merges with a */
    int inner[] = { 0, 1 }, outer[] = { 3, 2 };
    tdn_node_desc nodes[] = {
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = 1, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_BLEND2, .inputs = inner, .input_count = 2, .value = { "x", 0 } },
        { .type = TDN_NODE_BLEND2, .inputs = outer, .input_count = 2, .value = { NULL, 0.5f } },
    };
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = (const tdn_clip *const *)c,
                          .clip_count = 2,
                          .params = params,
                          .param_count = 1,
                          .nodes = nodes,
                          .node_count = 5,
                          .root = 4 };
    tdn_graph *g = NULL;
    CHECK(tdn_graph_create(&gd, &g, NULL, NULL) == TDN_OK);
    tdn_graph_instance *in = NULL;
    CHECK(tdn_graph_instance_create(g, &in, NULL, NULL) == TDN_OK);
    tdn_graph_update(in, 0.25f, NULL);
    float w;
    CHECK_EQ_INT(tdn_graph_entries(in, NULL), 2);
    entry_of_clip(in, 0, &w), CHECK_NEAR(w, 0.75, 1e-6); /* 0.5 * 0.5 + 0.5 */
    entry_of_clip(in, 1, &w), CHECK_NEAR(w, 0.25, 1e-6);
    /* x = 0.015: b's weight 0.0075 is under the default 0.01 threshold: culled, a alone at 1. */
    tdn_graph_set_float(in, 0, 0.015f, NULL);
    tdn_graph_update(in, 0.25f, NULL);
    float culled_weight = 0;
    CHECK_EQ_INT(tdn_graph_entries(in, NULL), 1);
    CHECK_EQ_INT(tdn_graph_culled(in, &culled_weight), 1);
    CHECK_NEAR(culled_weight, 0.0075, 1e-6);
    entry_of_clip(in, 0, &w), CHECK_NEAR(w, 1, 1e-6);
    /* the culled clip's time still advanced: 0.5 s in all */
    CHECK_NEAR(tdn_graph_clip_time(in, 1), 0.5, 1e-6);
    /* evaluating the single entry is sampling clip a at its time */
    tdn_pose pose;
    tdn_pose_create(JOINTS, &pose, NULL, NULL);
    tdn_graph_evaluate(in, &pose, NULL);
    CHECK_NEAR(tdn_pose_get(&pose, 0).t.x, sample_root_x(c[0], 0.5f), 1e-6);
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    tdn_clip_destroy(c[0]);
    tdn_clip_destroy(c[1]);
}

/* ---- sync groups ---- */

static tdn_graph *sync_graph(tdn_clip **c, const tdn_sync_group_desc *groups, int group_count, float start1)
{
    static tdn_param_desc params[] = { { .name = "x", .type = TDN_PARAM_FLOAT } };
    static int inputs[] = { 0, 1 };
    tdn_node_desc nodes[] = {
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP, .sync_group = "feet" },
        { .type = TDN_NODE_CLIP, .clip = 1, .wrap = TDN_WRAP_LOOP, .sync_group = "feet", .start = start1 },
        { .type = TDN_NODE_BLEND2, .inputs = inputs, .input_count = 2, .value = { "x", 0 } },
    };
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = (const tdn_clip *const *)c,
                          .clip_count = 2,
                          .params = params,
                          .param_count = 1,
                          .nodes = nodes,
                          .node_count = 3,
                          .root = 2,
                          .sync_groups = groups,
                          .sync_group_count = group_count,
                          .cull_threshold = -1 };
    tdn_graph *g = NULL;
    tdn_error err = { 0 };
    if (tdn_graph_create(&gd, &g, NULL, &err) != TDN_OK)
        fprintf(stderr, "%s: %s\n", err.where, err.message);
    return g;
}

static void sync_by_phase(void)
{
    /* walk 1.0 s and run 0.6 s: at weight x the cycle is (1 - x) 1.0 + x 0.6 seconds */
    tdn_clip *c[2] = { make_clip((clip_spec){ "walk", 1.0f, 1, 0, 1, { 0, 1, 0 }, NULL, 0 }, 0),
                       make_clip((clip_spec){ "run", 0.6f, 2, 0, 1, { 0, 1, 0 }, NULL, 0 }, 0) };
    tdn_graph *g = sync_graph(c, NULL, 0, 0);
    CHECK(g != NULL);
    tdn_graph_instance *in = NULL;
    CHECK(tdn_graph_instance_create(g, &in, NULL, NULL) == TDN_OK);
    double phase = 0;
    for (int step = 0; step < 120; step++) {
        float x = (float)step / 119.0f;
        tdn_graph_set_float(in, 0, x, NULL);
        tdn_graph_update(in, 1.0f / 60.0f, NULL);
        phase += (1.0 / 60.0) / ((1 - x) * 1.0 + x * 0.6);
        phase -= floor(phase);
        float walk = tdn_graph_clip_time(in, 0), run = tdn_graph_clip_time(in, 1);
        CHECK_NEAR(walk / 1.0, run / 0.6, 1e-5); /* one phase */
        CHECK_NEAR(walk, phase, 2e-5);
    }
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    /* A start offset shifts a member's phase against the leader's. */
    g = sync_graph(c, NULL, 0, 0.25f);
    CHECK(tdn_graph_instance_create(g, &in, NULL, NULL) == TDN_OK);
    tdn_graph_set_float(in, 0, 0.0f, NULL);
    tdn_graph_update(in, 0.1f, NULL);
    CHECK_NEAR(tdn_graph_clip_time(in, 0), 0.1, 1e-6);
    CHECK_NEAR(tdn_graph_clip_time(in, 1), (0.1 + 0.25) * 0.6, 1e-6);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    tdn_clip_destroy(c[0]);
    tdn_clip_destroy(c[1]);
}

static void sync_by_markers(void)
{
    /* Walk (1 s): left foot down at 0.1, right at 0.6 (uniform halves). Limp (0.8 s): left at
     * 0.0, right at 0.2: a short step then a long one. The leader (heaviest) is walk at x < 0.5. */
    tdn_event_desc walk_events[] = { { "foot_down_l", 0.1f }, { "foot_down_r", 0.6f } };
    tdn_event_desc limp_events[] = { { "foot_down_l", 0.0f }, { "foot_down_r", 0.2f } };
    tdn_clip *c[2] = { make_clip((clip_spec){ "walk", 1.0f, 1, 0, 1, { 0, 1, 0 }, walk_events, 2 }, 0),
                       make_clip((clip_spec){ "limp", 0.8f, 2, 0, 1, { 0, 1, 0 }, limp_events, 2 }, 0) };
    const char *markers[] = { "foot_down_l", "foot_down_r" };
    tdn_sync_group_desc group = { "feet", markers, 2 };
    tdn_graph *g = sync_graph(c, &group, 1, 0);
    CHECK(g != NULL);
    tdn_graph_instance *in = NULL;
    CHECK(tdn_graph_instance_create(g, &in, NULL, NULL) == TDN_OK);
    tdn_graph_set_float(in, 0, 0.25f, NULL);
    /* cycle 0.75 * 1 + 0.25 * 0.8 = 0.95 s; walk leads at 1 / 0.95 of its speed */
    tdn_graph_update(in, 0.19f, NULL);
    double walk = 0.19 / 0.95;
    CHECK_NEAR(tdn_graph_clip_time(in, 0), walk, 1e-5);
    /* walk at 0.2 is 0.1 / 0.5 = 20% of its left-to-right segment; limp's runs 0.0 -> 0.2 */
    CHECK_NEAR(tdn_graph_clip_time(in, 1), 0.0 + 0.2 * 0.2, 1e-5);
    tdn_graph_update(in, 0.475f, NULL); /* walk + 0.5 s: 0.7, 20% into its right-to-left segment */
    CHECK_NEAR(tdn_graph_clip_time(in, 0), 0.7, 1e-5);
    CHECK_NEAR(tdn_graph_clip_time(in, 1), 0.2 + 0.2 * 0.6, 1e-5);
    /* Limp takes the lead at x = 0.75; walk follows it marker to marker. */
    tdn_graph_set_float(in, 0, 0.75f, NULL);
    tdn_graph_update(in, 0.0f, NULL);
    float limp = tdn_graph_clip_time(in, 1);
    CHECK_NEAR(limp, 0.32, 1e-5);
    CHECK_NEAR(tdn_graph_clip_time(in, 0), 0.6 + (0.32 - 0.2) / 0.6 * 0.5, 1e-5);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    tdn_clip_destroy(c[0]);
    tdn_clip_destroy(c[1]);
}

/* ---- mirroring ---- */

static void mirror_tables_and_poses(void)
{
    int table[JOINTS];
    CHECK(tdn_mirror_table_from_names(skeleton, table, NULL) == TDN_OK);
    CHECK_EQ_INT(table[0], 0);
    CHECK_EQ_INT(table[1], 2);
    CHECK_EQ_INT(table[2], 1);
    CHECK(tdn_mirror_table_check(table, JOINTS, NULL) == TDN_OK);
    int bad[JOINTS] = { 0, 2, 2 };
    tdn_error err = { 0 };
    CHECK(tdn_mirror_table_check(bad, JOINTS, &err) == TDN_ERR_INVALID_DATA);
    CHECK(strcmp(err.where, "mirror[1]") == 0);

    tdn_pose p, m;
    tdn_pose_create(JOINTS, &p, NULL, NULL);
    tdn_pose_create(JOINTS, &m, NULL, NULL);
    tdn_transform left = { { 0.5f, 1, 0.2f }, tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), 0.7f), { 1, 2, 3 } };
    tdn_transform centre = { { 0.3f, 0, 0 }, tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), 0.4f), { 1, 1, 1 } };
    tdn_pose_set(&p, 0, &centre);
    tdn_pose_set(&p, 1, &left);
    CHECK(tdn_pose_mirror(&p, table, &m, NULL) == TDN_OK);
    /* The right arm takes the reflected left arm: x negated, the turn about z reversed. */
    tdn_transform r = tdn_pose_get(&m, 2), c0 = tdn_pose_get(&m, 0), l = tdn_pose_get(&m, 1);
    CHECK_NEAR(r.t.x, -0.5, 1e-7), CHECK_NEAR(r.t.y, 1, 1e-7), CHECK_NEAR(r.t.z, 0.2, 1e-7);
    tdn_quat expect = tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), -0.7f);
    CHECK_NEAR(fabsf(tdn_quat_dot(r.r, expect)), 1, 1e-6);
    CHECK_NEAR(r.s.z, 3, 0);
    /* A turn about the vertical axis reverses; the centre slides to -x; the left arm takes the
     * (identity) right arm. */
    expect = tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), -0.4f);
    CHECK_NEAR(fabsf(tdn_quat_dot(c0.r, expect)), 1, 1e-6);
    CHECK_NEAR(c0.t.x, -0.3, 1e-7);
    CHECK_NEAR(l.r.w, 1, 0);
    /* Reflecting a world point through the mirrored model space gives the reflected point:
     * model-space positions of mirrored poses are reflections of the partner's. */
    tdn_mat4 a[JOINTS], b[JOINTS];
    tdn_model_space(skeleton, &p, NULL, a, NULL);
    tdn_model_space(skeleton, &m, NULL, b, NULL);
    CHECK_NEAR(b[2].m[12], -a[1].m[12], 1e-6), CHECK_NEAR(b[2].m[13], a[1].m[13], 1e-6);
    CHECK_NEAR(b[2].m[14], a[1].m[14], 1e-6);
    /* In place, twice: the original. */
    tdn_pose_mirror(&p, table, &p, NULL);
    tdn_pose_mirror(&p, table, &p, NULL);
    tdn_transform back = tdn_pose_get(&p, 1);
    CHECK_NEAR(back.t.x, 0.5, 1e-7), CHECK_NEAR(back.r.z, left.r.z, 0);
    tdn_pose_destroy(&p);
    tdn_pose_destroy(&m);
}

/* ---- bad graphs ---- */

static void bad_graphs_name_the_place(void)
{
    tdn_clip *plain = make_clip((clip_spec){ "plain", 1, 1, 0, 1, { 0, 1, 0 }, NULL, 0 }, 0);
    tdn_clip *diff = make_clip((clip_spec){ "diff", 1, 1, 0.2f, 1, { 0, 1, 0 }, NULL, 0 }, 1);
    const tdn_clip *clips[2] = { plain, diff };
    tdn_param_desc params[] = { { .name = "x", .type = TDN_PARAM_FLOAT }, { .name = "v", .type = TDN_PARAM_VEC3 } };
    int two[] = { 0, 1 }, self[] = { 2, 0 }, swapped[] = { 1, 0 }, far[] = { 0, 9 };
    struct {
        tdn_node_desc nodes[3];
        int count;
        tdn_result code;
        const char *where;
    } cases[] = {
        { { { .type = TDN_NODE_CLIP, .clip = 5 } }, 1, TDN_ERR_INVALID_DATA, "nodes[0]" },
        { { { .type = TDN_NODE_CLIP },
            { .type = TDN_NODE_CLIP },
            { .type = TDN_NODE_BLEND2, .name = "mix", .inputs = two, .input_count = 2, .value = { "nope", 0 } } },
          3,
          TDN_ERR_INVALID_DATA,
          "nodes[2] 'mix'" },
        { { { .type = TDN_NODE_CLIP },
            { .type = TDN_NODE_CLIP },
            { .type = TDN_NODE_BLEND2, .inputs = two, .input_count = 1 } },
          3,
          TDN_ERR_INVALID_DATA,
          "nodes[2]" },
        { { { .type = TDN_NODE_CLIP },
            { .type = TDN_NODE_CLIP },
            { .type = TDN_NODE_BLEND2, .inputs = self, .input_count = 2 } },
          3,
          TDN_ERR_INVALID_DATA,
          "nodes[2]" },
        { { { .type = TDN_NODE_CLIP },
            { .type = TDN_NODE_CLIP },
            { .type = TDN_NODE_BLEND2, .inputs = far, .input_count = 2 } },
          3,
          TDN_ERR_INVALID_DATA,
          "nodes[2]" },
        /* an additive clip as a pose, a plain clip as a difference (messages below) */
        { { { .type = TDN_NODE_CLIP },
            { .type = TDN_NODE_CLIP, .clip = 1 },
            { .type = TDN_NODE_BLEND2, .inputs = two, .input_count = 2 } },
          3,
          TDN_ERR_INVALID_DATA,
          "nodes[1]" },
        { { { .type = TDN_NODE_CLIP, .clip = 1 },
            { .type = TDN_NODE_CLIP },
            { .type = TDN_NODE_ADDITIVE, .inputs = two, .input_count = 2 } },
          3,
          TDN_ERR_INVALID_DATA,
          "nodes[1]" },
        { { { .type = TDN_NODE_CLIP },
            { .type = TDN_NODE_CLIP, .clip = 1 },
            { .type = TDN_NODE_ADDITIVE, .inputs = swapped, .input_count = 2 } },
          3,
          TDN_ERR_INVALID_DATA,
          "nodes[0]" },
        { { { .type = TDN_NODE_CLIP, .sync_group = "g" } }, 1, TDN_ERR_INVALID_DATA, "nodes[0]" },
        { { { .type = TDN_NODE_CLIP, .mirror = 1, .wrap = TDN_WRAP_LOOP } }, 1, TDN_ERR_INVALID_DATA, "nodes[0]" },
        { { { .type = 42 } }, 1, TDN_ERR_INVALID_DATA, "nodes[0]" },
        { { { .type = TDN_NODE_CLIP, .start = 1.0f } }, 1, TDN_ERR_INVALID_DATA, "nodes[0]" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tdn_graph_desc gd = { .skeleton = skeleton,
                              .clips = clips,
                              .clip_count = 2,
                              .params = params,
                              .param_count = 2,
                              .nodes = cases[k].nodes,
                              .node_count = cases[k].count,
                              .root = cases[k].count - 1 };
        tdn_graph *g = (tdn_graph *)1;
        tdn_error err = { 0 };
        CHECK_EQ_INT(tdn_graph_create(&gd, &g, &counting, &err), cases[k].code);
        CHECK(g == NULL);
        if (!CHECK(strcmp(err.where, cases[k].where) == 0))
            fprintf(stderr, "case %zu: where '%s': %s\n", k, err.where, err.message);
        /* the two additivity cases name the clip that does not fit, not its index */
        const char *message = k == 5
                                  ? "\"diff\" is additive: an additive clip can only be an additive node's difference"
                              : k == 6 ? "\"plain\" is not additive: an additive difference needs an additive clip"
                                       : NULL;
        if (message && !CHECK(strcmp(err.message, message) == 0))
            fprintf(stderr, "case %zu: %s\n", k, err.message);
        CHECK_EQ_INT(live_blocks, 0);
    }
    /* A duplicate parameter, a smoothed bool, a blend space whose position does not fit. */
    float line[3] = { 0, 1, 2 };
    tdn_blend_space *space = NULL;
    CHECK(tdn_blend_space_create(
              &(tdn_blend_space_desc){
                  .mode = TDN_BLEND_SPACE_LINEAR, .dimensions = 1, .sample_count = 3, .points = line },
              &space, NULL, NULL) == TDN_OK);
    int three[] = { 0, 0, 0 };
    tdn_node_desc bs[] = {
        { .type = TDN_NODE_CLIP },
        { .type = TDN_NODE_BLEND_SPACE, .inputs = three, .input_count = 3, .space = space, .position = "v" }
    };
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = clips,
                          .clip_count = 2,
                          .params = params,
                          .param_count = 2,
                          .nodes = bs,
                          .node_count = 2,
                          .root = 1 };
    tdn_graph *g = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_graph_create(&gd, &g, &counting, &err) == TDN_ERR_INVALID_DATA);
    CHECK(strcmp(err.where, "nodes[1]") == 0);
    bs[1].position = "x";
    CHECK(tdn_graph_create(&gd, &g, &counting, &err) == TDN_OK); /* a clip node shared by three samples is fine */
    tdn_graph_destroy(g);
    tdn_param_desc twice[] = { { .name = "x" }, { .name = "x" } };
    gd.params = twice;
    CHECK(tdn_graph_create(&gd, &g, &counting, &err) == TDN_ERR_INVALID_DATA);
    CHECK(strcmp(err.where, "params[1] 'x'") == 0);
    tdn_param_desc smooth_bool[] = { { .name = "b", .type = TDN_PARAM_BOOL, .half_life = 1 } };
    gd.params = smooth_bool;
    gd.param_count = 1;
    CHECK(tdn_graph_create(&gd, &g, &counting, &err) == TDN_ERR_INVALID_DATA);
    /* A NULL clip, first or last, named by its index. */
    const tdn_clip *null_first[2] = { NULL, plain }, *null_last[2] = { plain, NULL };
    const char *const null_where[2] = { "clips[0]", "clips[1]" };
    for (int k = 0; k < 2; k++) {
        gd.clips = k == 0 ? null_first : null_last;
        CHECK(tdn_graph_create(&gd, &g, &counting, &err) == TDN_ERR_ARGUMENT);
        if (!CHECK(strcmp(err.where, null_where[k]) == 0 && strcmp(err.message, "the clip is NULL") == 0))
            fprintf(stderr, "NULL clip %d: %s: %s\n", k, err.where, err.message);
    }
    gd.clips = clips;
    /* Two machines of TDN_MAX_GRAPH_TRANSITIONS / 2 transitions each fit; one more does not. */
    static tdn_transition_desc many[TDN_MAX_GRAPH_TRANSITIONS / 2 + 1];
    for (int t = 0; t < TDN_MAX_GRAPH_TRANSITIONS / 2 + 1; t++)
        many[t] = (tdn_transition_desc){ .from = t % 2, .to = 1 - t % 2, .priority = -t };
    const tdn_state_desc ab[2] = { { "a" }, { "b" } };
    tdn_state_machine_desc half = { ab, 2, many, TDN_MAX_GRAPH_TRANSITIONS / 2, 0 };
    int states[2] = { 0, 0 }, machines[2] = { 1, 2 };
    tdn_node_desc two_machines[] = {
        { .type = TDN_NODE_CLIP },
        { .type = TDN_NODE_STATE_MACHINE, .inputs = states, .input_count = 2, .state_machine = &half },
        { .type = TDN_NODE_STATE_MACHINE, .inputs = states, .input_count = 2, .state_machine = &half },
        { .type = TDN_NODE_BLEND2, .inputs = machines, .input_count = 2, .value = { NULL, 0.5f } },
    };
    gd.params = params;
    gd.param_count = 2;
    gd.nodes = two_machines;
    gd.node_count = 4;
    gd.root = 3;
    CHECK(tdn_graph_create(&gd, &g, &counting, &err) == TDN_OK);
    tdn_graph_destroy(g);
    tdn_state_machine_desc over = half;
    over.transition_count++;
    two_machines[2].state_machine = &over;
    CHECK(tdn_graph_create(&gd, &g, &counting, &err) == TDN_ERR_INVALID_DATA && !g);
    if (!CHECK(strcmp(err.where, "nodes[2]") == 0 && strstr(err.message, "a graph has at most 4096") != NULL))
        fprintf(stderr, "too many transitions: %s: %s\n", err.where, err.message);
    gd.nodes = bs;
    gd.node_count = 2;
    gd.root = 1;
    /* Failing allocations leave nothing behind. */
    gd.params = params;
    gd.param_count = 2;
    bs[1].position = "x";
    allocations_before_failure = 0;
    CHECK(tdn_graph_create(&gd, &g, &counting, &err) == TDN_ERR_OUT_OF_MEMORY);
    allocations_before_failure = -1;
    CHECK_EQ_INT(live_blocks, 0);
    tdn_blend_space_destroy(space);
    tdn_clip_destroy(plain);
    tdn_clip_destroy(diff);
}

/* ---- no allocation per frame; instances in caller memory ---- */

static void frames_never_allocate(void)
{
    tdn_clip *c[2] = { make_clip((clip_spec){ "a", 1, 1, 0.2f, 1, { 0, 1, 0 }, NULL, 0 }, 0),
                       make_clip((clip_spec){ "b", 0.5f, 2, 0.3f, 1, { 0, 1, 0 }, NULL, 0 }, 0) };
    tdn_param_desc params[] = { { .name = "x", .type = TDN_PARAM_FLOAT, .half_life = 0.1f } };
    int inputs[] = { 0, 1 };
    tdn_node_desc nodes[] = {
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP, .sync_group = "s" },
        { .type = TDN_NODE_CLIP, .clip = 1, .wrap = TDN_WRAP_LOOP, .sync_group = "s", .mirror = 1 },
        { .type = TDN_NODE_BLEND2, .inputs = inputs, .input_count = 2, .value = { "x", 0 } },
    };
    int table[JOINTS];
    tdn_mirror_table_from_names(skeleton, table, NULL);
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = (const tdn_clip *const *)c,
                          .clip_count = 2,
                          .params = params,
                          .param_count = 1,
                          .nodes = nodes,
                          .node_count = 3,
                          .root = 2,
                          .mirror_table = table };
    tdn_graph *g = NULL;
    CHECK(tdn_graph_create(&gd, &g, &counting, NULL) == TDN_OK);
    size_t bytes = tdn_graph_instance_bytes(g);
    void *memory = aligned_alloc(TDN_GRAPH_INSTANCE_ALIGN, (bytes + TDN_GRAPH_INSTANCE_ALIGN - 1) /
                                                               TDN_GRAPH_INSTANCE_ALIGN * TDN_GRAPH_INSTANCE_ALIGN);
    tdn_graph_instance *in = NULL;
    CHECK(tdn_graph_instance_init(g, memory, bytes - 1, &in, NULL) == TDN_ERR_OUT_OF_MEMORY);
    CHECK(tdn_graph_instance_init(g, memory, bytes, &in, NULL) == TDN_OK);
    tdn_pose pose;
    tdn_pose_create(JOINTS, &pose, &counting, NULL);
    long blocks = live_blocks;
    size_t live = live_bytes;
    for (int f = 0; f < 300; f++) {
        tdn_graph_set_float(in, 0, (float)(f % 100) / 100.0f, NULL);
        tdn_graph_update(in, 1.0f / 60.0f, NULL);
        tdn_graph_evaluate(in, &pose, NULL);
    }
    CHECK_EQ_INT(live_blocks, blocks);
    CHECK(live_bytes == live);
    tdn_pose_destroy(&pose);
    free(memory);
    tdn_graph_destroy(g);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_clip_destroy(c[0]);
    tdn_clip_destroy(c[1]);
}

int main(void)
{
    make_skeleton();
    RUN(smoothing_half_life_is_exact);
    RUN(node_weights_by_hand);
    RUN(switch_cross_fades);
    RUN(triggers_last_one_update_and_names_set_every_type);
    RUN(flat_list_matches_recursive_evaluation);
    RUN(duplicates_merge_and_light_entries_cull);
    RUN(sync_by_phase);
    RUN(sync_by_markers);
    RUN(mirror_tables_and_poses);
    RUN(bad_graphs_name_the_place);
    RUN(frames_never_allocate);
    tdn_skeleton_destroy(skeleton);
    return check_summary();
}
