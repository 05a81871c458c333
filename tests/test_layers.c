/* Layers: masked override layers leave masked-out joints bit-identical to the layer below;
 * weights and feathered masks equal the core's two-pose blend; additive layers equal
 * tdn_additive_apply; model-space rotation layers hold a direction while the parent turns;
 * per-layer flat lists; a node in two layers is refused. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "graph_fixture.h"

enum { BASE, TOP, DIFF, CLIPS };

typedef struct layered {
    tdn_clip *clips[CLIPS];
    tdn_graph *graph;
    tdn_graph_instance *in;
    float mask[8];
} layered;

/* Layer 0 plays BASE; layer 1 plays TOP (override) or DIFF (additive) with weight parameter
 * "w" and the given mask. */
static int make_layered(layered *l, tdn_layer_mode mode, const float *mask)
{
    l->clips[BASE] = make_clip((clip_spec){ "base", 1, 2, 1.2f, 1.5f, { 0, 1, 0 }, NULL, 0 }, 0);
    l->clips[TOP] = make_clip((clip_spec){ "top", 1, -1, -0.8f, 0.5f, { 1, 0, 0 }, NULL, 0 }, 0);
    l->clips[DIFF] = make_clip((clip_spec){ "diff", 1, 0.5f, 0.7f, 1.3f, { 0, 0, 1 }, NULL, 0 }, 1);
    if (mask)
        memcpy(l->mask, mask, sizeof(float) * JOINTS);
    static const tdn_param_desc params[] = { { .name = "w", .value = { 1 } } };
    tdn_node_desc nodes[2] = {
        { .type = TDN_NODE_CLIP, .clip = BASE, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = mode == TDN_LAYER_ADDITIVE ? DIFF : TOP, .wrap = TDN_WRAP_LOOP }
    };
    tdn_layer_desc layers[2] = {
        { .name = "base", .root = 0 },
        { .name = "top", .root = 1, .weight = { "w", 0 }, .mode = mode, .mask = mask ? l->mask : NULL }
    };
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = (const tdn_clip *const *)l->clips,
                          .clip_count = CLIPS,
                          .params = params,
                          .param_count = 1,
                          .nodes = nodes,
                          .node_count = 2,
                          .layers = layers,
                          .layer_count = 2 };
    tdn_error err = { 0 };
    if (tdn_graph_create(&gd, &l->graph, NULL, &err) != TDN_OK) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return 0;
    }
    return tdn_graph_instance_create(l->graph, &l->in, NULL, NULL) == TDN_OK;
}

static void free_layered(layered *l)
{
    tdn_graph_instance_destroy(l->in);
    tdn_graph_destroy(l->graph);
    for (int i = 0; i < CLIPS; i++)
        tdn_clip_destroy(l->clips[i]);
}

static int same_bits(const tdn_pose *a, const tdn_pose *b, int joint)
{
    for (int r = 0; r < TDN_POSE_ROWS; r++)
        if (memcmp(&tdn_pose_crow(a, r)[joint], &tdn_pose_crow(b, r)[joint], sizeof(float)) != 0)
            return 0;
    return 1;
}

static double transform_gap(tdn_transform a, tdn_transform b)
{
    double d = tdn_vec3_length(tdn_vec3_sub(a.t, b.t)) + tdn_vec3_length(tdn_vec3_sub(a.s, b.s));
    return d + tdn_quat_angle_between(a.r, b.r);
}

static void masked_override(void)
{
    const float mask[TDN_POSE_LANES] = { 0, 1, 0 }; /* only arm_l; padded as the core reads masks */
    layered l;
    if (!CHECK(make_layered(&l, TDN_LAYER_OVERRIDE, mask)))
        return;
    tdn_pose out, base, top, expect;
    tdn_pose *poses[] = { &out, &base, &top, &expect };
    for (int i = 0; i < 4; i++)
        tdn_pose_create(JOINTS, poses[i], NULL, NULL);
    double worst = 0;
    int identical = 1;
    for (int f = 0; f < 50; f++) {
        float w = (float)(f % 10) / 9.0f;
        tdn_graph_set_float(l.in, 0, w, NULL);
        tdn_graph_update(l.in, 0.037f, NULL);
        tdn_graph_evaluate(l.in, &out, NULL);
        float t = tdn_graph_clip_time(l.in, 0);
        tdn_clip_sample(l.clips[BASE], t, &base, NULL);
        tdn_clip_sample(l.clips[TOP], tdn_graph_clip_time(l.in, 1), &top, NULL);
        identical &= same_bits(&out, &base, 0) && same_bits(&out, &base, 2);
        tdn_blend2(&base, &top, w, mask, &expect, NULL);
        worst = fmax(worst, transform_gap(tdn_pose_get(&out, 1), tdn_pose_get(&expect, 1)));
    }
    CHECK(identical); /* masked-out joints are the base layer's, bit for bit */
    CHECK(worst < 1e-6);
    /* each layer has its own flat list */
    const tdn_graph_entry *e;
    CHECK_EQ_INT(tdn_graph_layer_entries(l.in, 0, &e), 1);
    CHECK(e[0].clip == BASE);
    CHECK_EQ_INT(tdn_graph_layer_entries(l.in, 1, &e), 1);
    CHECK(e[0].clip == TOP);
    CHECK_EQ_INT(tdn_graph_layer_count(l.graph), 2);
    CHECK(strcmp(tdn_graph_layer_name(l.graph, 1), "top") == 0);
    /* at weight 0 the layer shows nothing */
    tdn_graph_set_float(l.in, 0, 0, NULL);
    tdn_graph_update(l.in, 0.01f, NULL);
    tdn_graph_evaluate(l.in, &out, NULL);
    tdn_clip_sample(l.clips[BASE], tdn_graph_clip_time(l.in, 0), &base, NULL);
    CHECK(same_bits(&out, &base, 0) && same_bits(&out, &base, 1) && same_bits(&out, &base, 2));
    for (int i = 0; i < 4; i++)
        tdn_pose_destroy(poses[i]);
    free_layered(&l);
}

static void additive_layer(void)
{
    const float mask[TDN_POSE_LANES] = { 1, 0.5f, 0 };
    layered l;
    if (!CHECK(make_layered(&l, TDN_LAYER_ADDITIVE, mask)))
        return;
    tdn_pose out, base, diff, expect;
    tdn_pose *poses[] = { &out, &base, &diff, &expect };
    for (int i = 0; i < 4; i++)
        tdn_pose_create(JOINTS, poses[i], NULL, NULL);
    tdn_graph_set_float(l.in, 0, 0.7f, NULL);
    double worst = 0;
    for (int f = 0; f < 30; f++) {
        tdn_graph_update(l.in, 0.05f, NULL);
        tdn_graph_evaluate(l.in, &out, NULL);
        tdn_clip_sample(l.clips[BASE], tdn_graph_clip_time(l.in, 0), &base, NULL);
        tdn_clip_sample(l.clips[DIFF], tdn_graph_clip_time(l.in, 1), &diff, NULL);
        tdn_additive_apply(&base, &diff, 0.7f, mask, &expect, NULL);
        for (int j = 0; j < JOINTS; j++)
            worst = fmax(worst, transform_gap(tdn_pose_get(&out, j), tdn_pose_get(&expect, j)));
    }
    CHECK(worst < 1e-6);
    for (int i = 0; i < 4; i++)
        tdn_pose_destroy(poses[i]);
    free_layered(&l);
}

/* The model-space rotation of joint j (a child of the root): root * local. */
static tdn_quat model_rotation(const tdn_pose *p, int j)
{
    return tdn_quat_mul(tdn_pose_get(p, 0).r, tdn_pose_get(p, j).r);
}

/* A 1 s clip turning `joint` about `axis` from 0 to `angle`. */
static tdn_clip *turning_clip(int joint, tdn_vec3 axis, float angle)
{
    float times[2] = { 0, 1 };
    tdn_quat q = tdn_quat_from_axis_angle(axis, angle);
    float turn[8] = { 0, 0, 0, 1, q.x, q.y, q.z, q.w };
    tdn_track_desc track = { joint, TDN_TARGET_ROTATION, TDN_INTERP_LINEAR, 2, times, turn };
    tdn_keyed_clip *keys = NULL;
    tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = skeleton, .tracks = &track, .track_count = 1 }, &keys,
                          NULL, NULL);
    tdn_clip *clip = NULL;
    tdn_clip_create(&(tdn_clip_desc){ .source = keys, .storage = TDN_STORAGE_FLOAT32 }, &clip, NULL, NULL);
    tdn_keyed_clip_destroy(keys);
    return clip;
}

/* The base turns the root about y by up to 1.5 rad; the layer (arm_l only, weight 1) raises the
 * arm about z with the root still. In model space the arm keeps the layer's direction whatever
 * the root does; blended locally it turns with the root. */
static void model_space_rotation_holds_direction(void)
{
    tdn_clip *clips[2] = { turning_clip(0, tdn_vec3_make(0, 1, 0), 1.5f),
                           turning_clip(1, tdn_vec3_make(0, 0, 1), 0.8f) };
    const float mask[JOINTS] = { 0, 1, 0 };
    for (int model_space = 0; model_space < 2; model_space++) {
        tdn_node_desc nodes[2] = { { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_CLAMP },
                                   { .type = TDN_NODE_CLIP, .clip = 1, .wrap = TDN_WRAP_CLAMP } };
        tdn_layer_desc layers[2] = { { .root = 0 }, { .root = 1, .mask = mask, .model_space_rotation = model_space } };
        tdn_graph_desc gd = { .skeleton = skeleton,
                              .clips = (const tdn_clip *const *)clips,
                              .clip_count = 2,
                              .nodes = nodes,
                              .node_count = 2,
                              .layers = layers,
                              .layer_count = 2 };
        tdn_graph *g = NULL;
        tdn_graph_instance *in = NULL;
        CHECK(tdn_graph_create(&gd, &g, NULL, NULL) == TDN_OK);
        CHECK(tdn_graph_instance_create(g, &in, NULL, NULL) == TDN_OK);
        tdn_pose out, top;
        tdn_pose_create(JOINTS, &out, NULL, NULL);
        tdn_pose_create(JOINTS, &top, NULL, NULL);
        double worst = 0, turned = 0;
        for (int f = 0; f < 20; f++) {
            tdn_graph_update(in, 0.05f, NULL);
            tdn_graph_evaluate(in, &out, NULL);
            tdn_clip_sample(clips[1], tdn_graph_clip_time(in, 1), &top, NULL);
            worst = fmax(worst, tdn_quat_angle_between(model_rotation(&out, 1), model_rotation(&top, 1)));
            turned = tdn_quat_angle_between(tdn_pose_get(&out, 0).r, tdn_quat_identity());
        }
        CHECK_NEAR(turned, 1.5, 1e-4); /* the root did turn, with the base layer */
        if (model_space)
            CHECK(worst < 1e-5);
        else
            CHECK_NEAR(worst, 1.5, 1e-3); /* locally blended, the arm turned as much as the root */
        tdn_pose_destroy(&out);
        tdn_pose_destroy(&top);
        tdn_graph_instance_destroy(in);
        tdn_graph_destroy(g);
    }
    tdn_clip_destroy(clips[0]);
    tdn_clip_destroy(clips[1]);
}

/* Joint velocities follow the pose's composition: the masked-out joints move as the base clip
 * does, the masked-in joint as a lerp of the two clips' velocities by the layer weight. */
static void velocities_compose_like_poses(void)
{
    const float mask[TDN_POSE_LANES] = { 0, 1, 0 };
    layered l;
    if (!CHECK(make_layered(&l, TDN_LAYER_OVERRIDE, mask)))
        return;
    tdn_pose v, vb, vt, scratch;
    tdn_pose *poses[] = { &v, &vb, &vt, &scratch };
    for (int i = 0; i < 4; i++)
        tdn_pose_create(JOINTS, poses[i], NULL, NULL);
    tdn_graph_set_float(l.in, 0, 0.3f, NULL);
    double worst = 0;
    for (int f = 0; f < 20; f++) {
        tdn_graph_update(l.in, 0.043f, NULL);
        CHECK(tdn_graph_joint_velocities(l.in, &v, NULL) == TDN_OK);
        tdn_clip_sample_velocity(l.clips[BASE], tdn_graph_clip_time(l.in, 0), &scratch, &vb, NULL);
        tdn_clip_sample_velocity(l.clips[TOP], tdn_graph_clip_time(l.in, 1), &scratch, &vt, NULL);
        for (int r = 0; r < TDN_POSE_ROWS; r++)
            for (int j = 0; j < JOINTS; j++) {
                double want = tdn_pose_crow(&vb, r)[j] +
                              (tdn_pose_crow(&vt, r)[j] - tdn_pose_crow(&vb, r)[j]) * 0.3 * mask[j];
                worst = fmax(worst, fabs(tdn_pose_crow(&v, r)[j] - want));
            }
    }
    CHECK(worst < 1e-5);
    /* the base clip moves its root along x at 2 units/s: that is the root's velocity */
    CHECK_NEAR(tdn_pose_crow(&v, TDN_TX)[0], 2.0, 1e-3);
    for (int i = 0; i < 4; i++)
        tdn_pose_destroy(poses[i]);
    free_layered(&l);
}

static void a_node_in_two_layers_is_refused(void)
{
    tdn_clip *clip = make_clip((clip_spec){ "c", 1, 1, 0, 1, { 0, 1, 0 }, NULL, 0 }, 0);
    int inputs[2] = { 0, 0 };
    tdn_node_desc nodes[2] = { { .type = TDN_NODE_CLIP, .wrap = TDN_WRAP_LOOP },
                               { .type = TDN_NODE_BLEND2, .inputs = inputs, .input_count = 2 } };
    tdn_layer_desc layers[2] = { { .root = 1 }, { .root = 0 } };
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = (const tdn_clip *const *)&clip,
                          .clip_count = 1,
                          .nodes = nodes,
                          .node_count = 2,
                          .layers = layers,
                          .layer_count = 2 };
    tdn_graph *g = NULL;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_graph_create(&gd, &g, &counting, &err), TDN_ERR_INVALID_DATA);
    CHECK(strcmp(err.where, "nodes[0]") == 0 && strstr(err.message, "two layers"));
    float bad_mask[JOINTS] = { 0, 2, 0 };
    layers[1] = (tdn_layer_desc){ .root = 0, .mask = bad_mask };
    layers[0].root = 1;
    nodes[1] = (tdn_node_desc){ .type = TDN_NODE_REST };
    CHECK_EQ_INT(tdn_graph_create(&gd, &g, &counting, &err), TDN_ERR_INVALID_DATA);
    CHECK(strcmp(err.where, "layers[1]") == 0);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_clip_destroy(clip);
}

/* A layer above the bottom composes only the row groups (translation, rotation, scale) that it
 * or the layers below can have moved where its mask lets it through; the others are left as the
 * layer below made them. Whatever it leaves, the pose must equal the core's full two-pose blend
 * (or additive) of the sampled clips: here the base slides the root, turns arm_l and scales
 * arm_r, the top clip turns arm_l alone, and the masks either reach the root (where the base's
 * translation must still be blended toward the top's) or not. */
/* The largest gap, over `frames` updates of `dt`, between a two-layer graph on `skel` (clips[0]
 * at the bottom; clips[top] above it, override or additive, at `weight` through `mask`) and the
 * core's whole-pose tdn_blend2 / tdn_additive_apply of the same clips sampled at the nodes'
 * times: what the graph leaves alone must be what composing would give. */
static double gap_to_core_blend(const tdn_skeleton *skel, const tdn_clip *const *clips, int clip_count, int top,
                                int additive, float weight, const float *mask, int frames, float dt)
{
    const int joints = tdn_skeleton_joint_count(skel);
    const tdn_node_desc nodes[2] = { { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP },
                                     { .type = TDN_NODE_CLIP, .clip = top, .wrap = TDN_WRAP_LOOP } };
    const tdn_layer_desc layers[2] = { { .name = "base", .root = 0 },
                                       { .name = "top",
                                         .root = 1,
                                         .weight = { NULL, weight },
                                         .mode = additive ? TDN_LAYER_ADDITIVE : TDN_LAYER_OVERRIDE,
                                         .mask = mask } };
    const tdn_graph_desc gd = { .skeleton = skel,
                                .clips = clips,
                                .clip_count = clip_count,
                                .nodes = nodes,
                                .node_count = 2,
                                .layers = layers,
                                .layer_count = 2 };
    tdn_graph *g = NULL;
    tdn_graph_instance *in = NULL;
    if (!CHECK_EQ_INT(tdn_graph_create(&gd, &g, NULL, NULL), TDN_OK) ||
        !CHECK_EQ_INT(tdn_graph_instance_create(g, &in, NULL, NULL), TDN_OK)) {
        tdn_graph_destroy(g);
        return INFINITY;
    }
    tdn_pose out, a, b, expect;
    tdn_pose *poses[] = { &out, &a, &b, &expect };
    for (int i = 0; i < 4; i++)
        tdn_pose_create(joints, poses[i], NULL, NULL);
    double worst = 0;
    for (int f = 0; f < frames; f++) {
        tdn_graph_update(in, dt, NULL);
        tdn_graph_evaluate(in, &out, NULL);
        tdn_clip_sample(clips[0], tdn_graph_clip_time(in, 0), &a, NULL);
        tdn_clip_sample(clips[top], tdn_graph_clip_time(in, 1), &b, NULL);
        if (additive)
            tdn_additive_apply(&a, &b, weight, mask, &expect, NULL);
        else
            tdn_blend2(&a, &b, weight, mask, &expect, NULL);
        for (int j = 0; j < joints; j++)
            worst = fmax(worst, transform_gap(tdn_pose_get(&out, j), tdn_pose_get(&expect, j)));
    }
    for (int i = 0; i < 4; i++)
        tdn_pose_destroy(poses[i]);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    return worst;
}

static void untouched_rows_are_the_layer_below(void)
{
    tdn_clip *base = make_clip((clip_spec){ "base", 1, 2, 1.2f, 1.5f, { 0, 1, 0 }, NULL, 0 }, 0);
    tdn_clip *turn = make_clip((clip_spec){ "turn", 1, 0, -0.8f, 1, { 1, 0, 0 }, NULL, 0 }, 0);
    tdn_clip *diff = make_clip((clip_spec){ "diff", 1, 0, 0.7f, 1, { 0, 0, 1 }, NULL, 0 }, 1);
    const tdn_clip *clips[3] = { base, turn, diff };
    const float masks[3][TDN_POSE_LANES] = { { 0, 1, 0 }, { 0.5f, 1, 0.25f }, { 0, 0.6f, 0 } };
    for (int m = 0; m < 3; m++)
        for (int additive = 0; additive < 2; additive++) {
            const double worst = gap_to_core_blend(skeleton, clips, 3, 1 + additive, additive, 0.7f, masks[m], 30,
                                                   0.041f);
            if (!CHECK(worst < 1e-6))
                printf("  mask %d, %s: worst gap %g\n", m, additive ? "additive" : "override", worst);
        }
    for (int c = 0; c < 3; c++)
        tdn_clip_destroy((tdn_clip *)clips[c]);
}

/* The joints a layer changes, on a chain of 30 joints (four SIMD blocks): the base turns joints
 * 0..5 and slides the root, the top clip turns joints 17..21 and holds the last joint turned
 * (a constant off the rest, in the last block; its rest elsewhere), an additive clip turns 25..27. Masks reach past
 * those (down to joint 12, up to 29) or fall short of them, feathered; the graph then samples and composes one span of
 * blocks per layer. Every joint must equal the core's whole-pose blend2 / additive of the sampled clips. */
enum { CHAIN = 30 };

static tdn_clip *chain_clip(const tdn_skeleton *chain, const char *name, int first, int last, int slide,
                            int additive_of_rest, int held)
{
    const float times[2] = { 0, 1 };
    float turns[CHAIN][8], move[6] = { 0, 0, 0, 0.7f, 0, 0 }, hold[8] = { 0, 0, 0.6f, 0.8f, 0, 0, 0.6f, 0.8f };
    tdn_track_desc tracks[CHAIN + 2];
    int n = 0;
    for (int j = first; j <= last; j++) {
        const tdn_quat q = tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), 0.1f * (float)(j - first + 1));
        const float keys[8] = { 0, 0, 0, 1, q.x, q.y, q.z, q.w };
        memcpy(turns[j], keys, sizeof keys);
        tracks[n++] = (tdn_track_desc){ j, TDN_TARGET_ROTATION, TDN_INTERP_LINEAR, 2, times, turns[j] };
    }
    if (slide)
        tracks[n++] = (tdn_track_desc){ 0, TDN_TARGET_TRANSLATION, TDN_INTERP_LINEAR, 2, times, move };
    if (held >= 0)
        tracks[n++] = (tdn_track_desc){ held, TDN_TARGET_ROTATION, TDN_INTERP_LINEAR, 2, times, hold };
    tdn_keyed_clip *keys = NULL;
    CHECK_EQ_INT(tdn_keyed_clip_create(
                     &(tdn_keyed_clip_desc){ .name = name, .skeleton = chain, .tracks = tracks, .track_count = n },
                     &keys, NULL, NULL),
                 TDN_OK);
    tdn_pose rest;
    tdn_pose_create(CHAIN, &rest, NULL, NULL);
    tdn_pose_set_rest(&rest, chain, NULL);
    tdn_clip *clip = NULL;
    tdn_clip_desc cd = { .source = keys, .storage = TDN_STORAGE_FLOAT32, .sample_rate = 60 };
    if (additive_of_rest)
        cd.additive_reference_pose = &rest;
    CHECK_EQ_INT(tdn_clip_create(&cd, &clip, NULL, NULL), TDN_OK);
    tdn_pose_destroy(&rest);
    tdn_keyed_clip_destroy(keys);
    return clip;
}

static void layers_change_their_joints_only(void)
{
    char names[CHAIN][8];
    const char *name_of[CHAIN];
    int parents[CHAIN];
    tdn_transform rest[CHAIN];
    for (int j = 0; j < CHAIN; j++) {
        snprintf(names[j], sizeof names[j], "j%d", j);
        name_of[j] = names[j];
        parents[j] = j - 1;
        rest[j] = tdn_transform_identity();
        rest[j].t.y = j ? 0.1f : 1.0f;
    }
    tdn_skeleton *chain = NULL;
    CHECK_EQ_INT(
        tdn_skeleton_create(
            &(tdn_skeleton_desc){ .joint_count = CHAIN, .names = name_of, .parents = parents, .rest_pose = rest },
            &chain, NULL, NULL),
        TDN_OK);
    const tdn_clip *clips[3] = { chain_clip(chain, "base", 0, 5, 1, 0, -1),
                                 chain_clip(chain, "top", 17, 21, 0, 0, CHAIN - 1),
                                 chain_clip(chain, "diff", 25, 27, 0, 1, -1) };
    float masks[3][32] = { { 0 } };  /* stride floats */
    for (int j = 12; j < CHAIN; j++) /* reaching past the top clip's joints, feathered */
        masks[0][j] = j < 16 ? 0.25f * (float)(j - 11) : 1.0f;
    for (int j = 18; j < 21; j++) /* falling short of them */
        masks[1][j] = 0.5f;
    for (int j = 0; j < CHAIN; j++) /* everything: the base's joints too */
        masks[2][j] = 0.8f;
    for (int m = 0; m < 3; m++)
        for (int additive = 0; additive < 2; additive++) {
            const double worst = gap_to_core_blend(chain, clips, 3, 1 + additive, additive, 0.6f, masks[m], 25, 0.043f);
            if (!CHECK(worst < 1e-6))
                printf("  mask %d, %s: worst gap %g\n", m, additive ? "additive" : "override", worst);
        }
    for (int c = 0; c < 3; c++)
        tdn_clip_destroy((tdn_clip *)clips[c]);
    tdn_skeleton_destroy(chain);
}

int main(void)
{
    make_skeleton();
    RUN(masked_override);
    RUN(additive_layer);
    RUN(untouched_rows_are_the_layer_below);
    RUN(layers_change_their_joints_only);
    RUN(model_space_rotation_holds_direction);
    RUN(velocities_compose_like_poses);
    RUN(a_node_in_two_layers_is_refused);
    tdn_skeleton_destroy(skeleton);
    return check_summary();
}
