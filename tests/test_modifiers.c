/* Procedural and modifier nodes: a callback's pose blends like a clip; a callback modifier over
 * a blend changes the blended pose and then blends on like any input (before, between or after
 * blends); a rotation spread over joints from a parameter; joint damping that lags by an exact
 * half-life; nested modifiers; bad graphs; no allocation per frame. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "graph_fixture.h"

static int calls;
static float last_dt;

/* A procedural pose: the root at (1, 2, 3). */
static void place_root(void *user, const tdn_graph_instance *in, int node, float dt, tdn_pose *pose)
{
    (void)user, (void)in, (void)node;
    calls++;
    last_dt = dt;
    tdn_transform x = tdn_pose_get(pose, 0);
    x.t = tdn_vec3_make(1, 2, 3);
    tdn_pose_set(pose, 0, &x);
}

/* A modifier: lifts the root by *user. */
static void lift_root(void *user, const tdn_graph_instance *in, int node, float dt, tdn_pose *pose)
{
    (void)in, (void)node, (void)dt;
    tdn_transform x = tdn_pose_get(pose, 0);
    x.t.y += *(const float *)user;
    tdn_pose_set(pose, 0, &x);
}

static tdn_graph *make(tdn_clip **clips, int clip_count, const tdn_node_desc *nodes, int count, int root,
                       const tdn_param_desc *params, int param_count, tdn_graph_instance **in)
{
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = (const tdn_clip *const *)clips,
                          .clip_count = clip_count,
                          .params = params,
                          .param_count = param_count,
                          .nodes = nodes,
                          .node_count = count,
                          .root = root,
                          .cull_threshold = -1 };
    tdn_graph *g = NULL;
    tdn_error err = { 0 };
    if (tdn_graph_create(&gd, &g, &counting, &err) != TDN_OK) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return NULL;
    }
    CHECK(tdn_graph_instance_create(g, in, &counting, NULL) == TDN_OK);
    return g;
}

static void procedural_poses_blend_like_clips(void)
{
    tdn_clip *clip = make_clip((clip_spec){ "slide", 1, 4, 0, 1, { 0, 1, 0 }, NULL, 0 }, 0);
    int inputs[2] = { 0, 1 };
    tdn_node_desc nodes[] = {
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_PROCEDURAL, .callback = place_root },
        { .type = TDN_NODE_BLEND2, .inputs = inputs, .input_count = 2, .value = { NULL, 0.25f } },
    };
    tdn_graph_instance *in = NULL;
    tdn_graph *g = make(&clip, 1, nodes, 3, 2, NULL, 0, &in);
    if (!CHECK(g != NULL))
        return;
    tdn_pose out;
    tdn_pose_create(JOINTS, &out, NULL, NULL);
    tdn_graph_update(in, 0.5f, NULL); /* the clip's root at x = 2 */
    calls = 0;
    tdn_graph_evaluate(in, &out, NULL);
    CHECK_EQ_INT(calls, 1);
    CHECK_NEAR(last_dt, 0.5, 0);
    tdn_vec3 t = tdn_pose_get(&out, 0).t;
    CHECK_NEAR(t.x, 0.75 * 2 + 0.25 * 1, 1e-6);
    CHECK_NEAR(t.y, 0.25 * 2, 1e-6);
    CHECK_NEAR(t.z, 0.25 * 3, 1e-6);
    const tdn_graph_entry *e;
    int n = tdn_graph_entries(in, &e);
    CHECK_EQ_INT(n, 2);
    CHECK(n == 2 && e[1].clip == TDN_ENTRY_PROCEDURAL && e[1].node == 1 && e[1].group == -1);
    tdn_pose_destroy(&out);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    tdn_clip_destroy(clip);
    CHECK_EQ_INT(live_blocks, 0);
}

/* blend2(modifier(blend2(a, b, 0.5)), c, 0.3): the modifier lifts the blend of a and b, and the
 * lifted pose then blends with c like any input. */
static void modifiers_change_a_blend_then_blend_on(void)
{
    tdn_clip *clips[3] = { make_clip((clip_spec){ "a", 1, 2, 0.4f, 1.5f, { 0, 1, 0 }, NULL, 0 }, 0),
                           make_clip((clip_spec){ "b", 1, -2, 0.2f, 1, { 1, 0, 0 }, NULL, 0 }, 0),
                           make_clip((clip_spec){ "c", 1, 6, -0.3f, 0.5f, { 0, 0, 1 }, NULL, 0 }, 0) };
    static float lift = 0.8f;
    int inner[2] = { 0, 1 }, lifted[1] = { 3 }, outer[2] = { 4, 2 };
    tdn_node_desc nodes[] = {
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = 1, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = 2, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_BLEND2, .inputs = inner, .input_count = 2, .value = { NULL, 0.5f } },
        { .type = TDN_NODE_MODIFIER,
          .inputs = lifted,
          .input_count = 1,
          .modifier = TDN_MODIFIER_CALLBACK,
          .callback = lift_root,
          .user = &lift },
        { .type = TDN_NODE_BLEND2, .inputs = outer, .input_count = 2, .value = { NULL, 0.3f } },
    };
    tdn_graph_instance *in = NULL;
    tdn_graph *g = make(clips, 3, nodes, 6, 5, NULL, 0, &in);
    if (!CHECK(g != NULL))
        return;
    tdn_pose out, pa, pb, pc, ab;
    tdn_pose *poses[] = { &out, &pa, &pb, &pc, &ab };
    for (int i = 0; i < 5; i++)
        tdn_pose_create(JOINTS, poses[i], NULL, NULL);
    double worst = 0;
    for (int f = 0; f < 12; f++) {
        tdn_graph_update(in, 0.07f, NULL);
        tdn_graph_evaluate(in, &out, NULL);
        tdn_clip_sample(clips[0], tdn_graph_clip_time(in, 0), &pa, NULL);
        tdn_clip_sample(clips[1], tdn_graph_clip_time(in, 1), &pb, NULL);
        tdn_clip_sample(clips[2], tdn_graph_clip_time(in, 2), &pc, NULL);
        tdn_blend2(&pa, &pb, 0.5f, NULL, &ab, NULL);
        lift_root(&lift, in, 4, 0.07f, &ab);
        tdn_blend2(&ab, &pc, 0.3f, NULL, &pa, NULL);
        for (int j = 0; j < JOINTS; j++) {
            tdn_transform x = tdn_pose_get(&out, j), y = tdn_pose_get(&pa, j);
            worst = fmax(worst, tdn_vec3_length(tdn_vec3_sub(x.t, y.t)) + tdn_vec3_length(tdn_vec3_sub(x.s, y.s)) +
                                    tdn_quat_angle_between(x.r, y.r));
        }
    }
    CHECK(worst < 2e-6); /* node by node: the modifier needs its input blended on its own */
    /* the flat list: a, b in the modifier's group (0.5 each), the modifier's result and c above */
    const tdn_graph_entry *e;
    int n = tdn_graph_entries(in, &e), in_group = 0, result = 0;
    for (int k = 0; k < n; k++) {
        in_group += e[k].group == 4 && e[k].clip >= 0 && fabsf(e[k].weight - 0.5f) < 1e-6f;
        result += e[k].clip == TDN_ENTRY_MODIFIER && e[k].node == 4 && fabsf(e[k].weight - 0.7f) < 1e-6f;
    }
    CHECK_EQ_INT(in_group, 2);
    CHECK_EQ_INT(result, 1);
    for (int i = 0; i < 5; i++)
        tdn_pose_destroy(poses[i]);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    for (int i = 0; i < 3; i++)
        tdn_clip_destroy(clips[i]);
}

/* Two layers, each with a modifier over a blend, their clip nodes listed across the layers out
 * of order: every layer's flat list holds its modifier's group (its input's entries, weights
 * relative to the modifier's), then its own entries (clips by clip node, then the rest pose and
 * modifier results in node order), whatever the other layer holds. */
static void each_layer_flattens_its_own_groups(void)
{
    tdn_clip *clips[3] = { make_clip((clip_spec){ "a", 1, 2, 0.4f, 1.5f, { 0, 1, 0 }, NULL, 0 }, 0),
                           make_clip((clip_spec){ "b", 1, -2, 0.2f, 1, { 1, 0, 0 }, NULL, 0 }, 0),
                           make_clip((clip_spec){ "c", 1, 6, -0.3f, 0.5f, { 0, 0, 1 }, NULL, 0 }, 0) };
    static float lift = 0.5f;
    /* layer 0: modifier 4 over blend2(a 1, b 3) at 0.25; layer 1: blend2(modifier 7 over
     * blend2(c 0, rest 5) at 0.6, a 2) at 0.5 */
    int ab[2] = { 1, 3 }, m0[1] = { 6 }, c_rest[2] = { 0, 5 }, m1[1] = { 8 }, top[2] = { 7, 2 };
    tdn_node_desc nodes[] = {
        { .type = TDN_NODE_CLIP, .clip = 2, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP, .start = 0.5f },
        { .type = TDN_NODE_CLIP, .clip = 1, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_MODIFIER,
          .inputs = m0,
          .input_count = 1,
          .modifier = TDN_MODIFIER_CALLBACK,
          .callback = lift_root,
          .user = &lift },
        { .type = TDN_NODE_REST },
        { .type = TDN_NODE_BLEND2, .inputs = ab, .input_count = 2, .value = { NULL, 0.25f } },
        { .type = TDN_NODE_MODIFIER,
          .inputs = m1,
          .input_count = 1,
          .modifier = TDN_MODIFIER_CALLBACK,
          .callback = lift_root,
          .user = &lift },
        { .type = TDN_NODE_BLEND2, .inputs = c_rest, .input_count = 2, .value = { NULL, 0.6f } },
        { .type = TDN_NODE_BLEND2, .inputs = top, .input_count = 2, .value = { NULL, 0.5f } },
    };
    tdn_layer_desc layers[2] = { { .name = "base", .root = 4 }, { .name = "over", .root = 9 } };
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = (const tdn_clip *const *)clips,
                          .clip_count = 3,
                          .nodes = nodes,
                          .node_count = 10,
                          .layers = layers,
                          .layer_count = 2,
                          .cull_threshold = -1 };
    tdn_graph *g = NULL;
    tdn_graph_instance *in = NULL;
    if (!CHECK(tdn_graph_create(&gd, &g, &counting, NULL) == TDN_OK) ||
        !CHECK(tdn_graph_instance_create(g, &in, &counting, NULL) == TDN_OK))
        return;
    tdn_graph_update(in, 0.1f, NULL);
    /* {clip, node, group, weight} in the order each layer's list must hold them */
    static const struct {
        int clip, node, group;
        float weight;
    } want[2][5] = {
        { { 0, 1, 4, 0.75f }, { 1, 3, 4, 0.25f }, { TDN_ENTRY_MODIFIER, 4, -1, 1.0f } },
        { { 2, 0, 7, 0.4f }, { TDN_ENTRY_REST, 5, 7, 0.6f }, { 0, 2, -1, 0.5f }, { TDN_ENTRY_MODIFIER, 7, -1, 0.5f } }
    };
    static const int want_count[2] = { 3, 4 };
    for (int l = 0; l < 2; l++) {
        const tdn_graph_entry *e;
        int n = tdn_graph_layer_entries(in, l, &e);
        CHECK_EQ_INT(n, want_count[l]);
        for (int k = 0; k < n && k < want_count[l]; k++) {
            CHECK_EQ_INT(e[k].clip, want[l][k].clip);
            CHECK_EQ_INT(e[k].node, want[l][k].node);
            CHECK_EQ_INT(e[k].group, want[l][k].group);
            CHECK_NEAR(e[k].weight, want[l][k].weight, 1e-6);
        }
    }
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    for (int i = 0; i < 3; i++)
        tdn_clip_destroy(clips[i]);
}

static void rotations_spread_from_a_parameter(void)
{
    tdn_clip *clip = make_clip((clip_spec){ "a", 1, 1, 0.5f, 1, { 1, 0, 0 }, NULL, 0 }, 0);
    tdn_param_desc params[] = { { .name = "twist", .value = { 0.6f } } };
    int input[1] = { 0 }, joints[2] = { 0, 1 };
    float weights[2] = { 0.25f, 0.75f };
    tdn_node_desc nodes[] = {
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_MODIFIER,
          .inputs = input,
          .input_count = 1,
          .modifier = TDN_MODIFIER_ROTATE,
          .value = { "twist", 0 },
          .joints = joints,
          .joint_count = 2,
          .joint_weights = weights,
          .axis = { 0, 2, 0 } },
    };
    tdn_graph_instance *in = NULL;
    tdn_graph *g = make(&clip, 1, nodes, 2, 1, params, 1, &in);
    if (!CHECK(g != NULL))
        return;
    tdn_pose out, anim;
    tdn_pose_create(JOINTS, &out, NULL, NULL);
    tdn_pose_create(JOINTS, &anim, NULL, NULL);
    tdn_graph_update(in, 0.3f, NULL);
    tdn_graph_evaluate(in, &out, NULL);
    tdn_clip_sample(clip, 0.3f, &anim, NULL);
    /* each joint turned about +y (in its parent's frame) by 0.6 x its share */
    for (int k = 0; k < 2; k++) {
        tdn_quat want = tdn_quat_mul(tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), 0.6f * weights[k]),
                                     tdn_pose_get(&anim, joints[k]).r);
        CHECK_NEAR(tdn_quat_angle_between(tdn_pose_get(&out, joints[k]).r, want), 0, 1e-6);
    }
    CHECK_NEAR(tdn_quat_angle_between(tdn_pose_get(&out, 2).r, tdn_pose_get(&anim, 2).r), 0, 0); /* untouched */
    tdn_pose_destroy(&out);
    tdn_pose_destroy(&anim);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    tdn_clip_destroy(clip);
}

/* A joint whose animation snaps from 0 to 90 degrees (a STEP clip) lags through the spring: it
 * has covered half the turn after exactly one half-life, and the rest after a few. */
static void damping_lags_by_its_half_life(void)
{
    float times[2] = { 0, 0.1f };
    tdn_quat q = tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), TDN_PI / 2);
    float turn[8] = { 0, 0, 0, 1, q.x, q.y, q.z, q.w };
    tdn_track_desc track = { 1, TDN_TARGET_ROTATION, TDN_INTERP_STEP, 2, times, turn };
    tdn_keyed_clip *keys = NULL;
    tdn_keyed_clip_create(
        &(tdn_keyed_clip_desc){ .skeleton = skeleton, .tracks = &track, .track_count = 1, .duration = 10 }, &keys, NULL,
        NULL);
    tdn_clip *clip = NULL;
    tdn_clip_create(&(tdn_clip_desc){ .source = keys, .storage = TDN_STORAGE_FLOAT32 }, &clip, NULL, NULL);
    int input[1] = { 0 }, joints[1] = { 1 };
    tdn_node_desc nodes[] = {
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_CLAMP },
        { .type = TDN_NODE_MODIFIER,
          .inputs = input,
          .input_count = 1,
          .modifier = TDN_MODIFIER_DAMP,
          .joints = joints,
          .joint_count = 1,
          .half_life = 0.2f },
    };
    tdn_graph_instance *in = NULL;
    tdn_graph *g = make(&clip, 1, nodes, 2, 1, NULL, 0, &in);
    if (!CHECK(g != NULL))
        return;
    tdn_pose out;
    tdn_pose_create(JOINTS, &out, NULL, NULL);
    tdn_graph_evaluate(in, &out, NULL); /* primes the spring at 0 degrees */
    /* the clip steps to 90 degrees at 0.1 s; updates of 1 ms */
    for (int f = 0; f < 100; f++) {
        tdn_graph_update(in, 0.001f, NULL);
        tdn_graph_evaluate(in, &out, NULL);
    }
    float angle = tdn_quat_angle_between(tdn_pose_get(&out, 1).r, tdn_quat_identity());
    CHECK(angle < 0.05f);           /* the step has just come */
    for (int f = 0; f < 200; f++) { /* one half-life after the step */
        tdn_graph_update(in, 0.001f, NULL);
        tdn_graph_evaluate(in, &out, NULL);
    }
    angle = tdn_quat_angle_between(tdn_pose_get(&out, 1).r, tdn_quat_identity());
    CHECK_NEAR(angle, TDN_PI / 4, 0.02); /* half of 90 degrees (one frame of the step's timing) */
    long blocks = live_blocks;
    for (int f = 0; f < 1500; f++) {
        tdn_graph_update(in, 0.001f, NULL);
        tdn_graph_evaluate(in, &out, NULL);
    }
    CHECK_EQ_INT(live_blocks, blocks); /* no allocation per frame */
    angle = tdn_quat_angle_between(tdn_pose_get(&out, 1).r, tdn_quat_identity());
    CHECK_NEAR(angle, TDN_PI / 2, 1e-3);
    tdn_pose_destroy(&out);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(keys);
}

static void bad_modifiers_name_the_place(void)
{
    tdn_clip *clip = make_clip((clip_spec){ "a", 1, 1, 0, 1, { 0, 1, 0 }, NULL, 0 }, 0);
    int zero[1] = { 0 }, one[1] = { 1 }, both[2] = { 1, 2 }, far[1] = { 9 };
    struct {
        tdn_node_desc nodes[4];
        int count;
        tdn_result code;
        const char *where;
    } cases[] = {
        { { { .type = TDN_NODE_PROCEDURAL } }, 1, TDN_ERR_ARGUMENT, "nodes[0]" },
        { { { .type = TDN_NODE_CLIP, .wrap = TDN_WRAP_LOOP },
            { .type = TDN_NODE_MODIFIER, .inputs = zero, .input_count = 1, .modifier = TDN_MODIFIER_CALLBACK } },
          2,
          TDN_ERR_ARGUMENT,
          "nodes[1]" },
        { { { .type = TDN_NODE_CLIP, .wrap = TDN_WRAP_LOOP },
            { .type = TDN_NODE_MODIFIER,
              .inputs = zero,
              .input_count = 1,
              .modifier = TDN_MODIFIER_DAMP,
              .joints = far,
              .joint_count = 1,
              .half_life = 1 } },
          2,
          TDN_ERR_INVALID_DATA,
          "nodes[1]" },
        { { { .type = TDN_NODE_CLIP, .wrap = TDN_WRAP_LOOP },
            { .type = TDN_NODE_MODIFIER,
              .inputs = zero,
              .input_count = 1,
              .modifier = TDN_MODIFIER_DAMP,
              .joints = zero,
              .joint_count = 1 } },
          2,
          TDN_ERR_INVALID_DATA,
          "nodes[1]" },
        /* the clip is below the modifier and, through the blend, beside it */
        { { { .type = TDN_NODE_CLIP, .wrap = TDN_WRAP_LOOP },
            { .type = TDN_NODE_MODIFIER,
              .inputs = zero,
              .input_count = 1,
              .modifier = TDN_MODIFIER_ROTATE,
              .joints = zero,
              .joint_count = 1,
              .axis = { 0, 1, 0 } },
            { .type = TDN_NODE_BLEND2, .inputs = (int[]){ 1, 0 }, .input_count = 2 } },
          3,
          TDN_ERR_INVALID_DATA,
          "nodes[0]" },
        { { { .type = TDN_NODE_CLIP, .wrap = TDN_WRAP_LOOP },
            { .type = TDN_NODE_MODIFIER,
              .inputs = zero,
              .input_count = 1,
              .modifier = TDN_MODIFIER_ROTATE,
              .joints = zero,
              .joint_count = 1 } },
          2,
          TDN_ERR_INVALID_DATA,
          "nodes[1]" },
    };
    (void)one, (void)both;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tdn_graph_desc gd = { .skeleton = skeleton,
                              .clips = (const tdn_clip *const *)&clip,
                              .clip_count = 1,
                              .nodes = cases[k].nodes,
                              .node_count = cases[k].count,
                              .root = cases[k].count - 1 };
        tdn_graph *g = NULL;
        tdn_error err = { 0 };
        CHECK_EQ_INT(tdn_graph_create(&gd, &g, &counting, &err), cases[k].code);
        if (!CHECK(strcmp(err.where, cases[k].where) == 0))
            fprintf(stderr, "case %zu: %s: %s\n", k, err.where, err.message);
        CHECK(g == NULL);
        CHECK_EQ_INT(live_blocks, 0);
    }
    tdn_clip_destroy(clip);
}

int main(void)
{
    make_skeleton();
    RUN(procedural_poses_blend_like_clips);
    RUN(modifiers_change_a_blend_then_blend_on);
    RUN(each_layer_flattens_its_own_groups);
    RUN(rotations_spread_from_a_parameter);
    RUN(damping_lags_by_its_half_life);
    RUN(bad_modifiers_name_the_place);
    tdn_skeleton_destroy(skeleton);
    return check_summary();
}
