/* Graph definitions in runtime packs (tdn_graph_definition_save_memory, tdn_pack_writer_add_graph_definition,
 * tdn_packed_graph_create): a desc that sets every field the format holds comes back field for
 * field from a pack, and its graph evaluates bit-identically to the one built in memory; the
 * example documents loaded from packs (through their definitions) evaluate as their JSON does;
 * every word of a stored definition changed is refused naming a byte of the file, or loads;
 * callbacks bind by name; motion matching is refused; loading allocates what it frees, and a
 * failed allocation anywhere leaves nothing behind. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "graph_drive.h"
#include "tendon/tendon_io.h"

static tdn_asset *humanoid;
static const tdn_skeleton *skeleton;

enum { IDLE, WALK, RUN, STRAFE, AIM, CLIP_COUNT };
static const char *const clip_names[CLIP_COUNT] = { "idle", "walk_forward", "run_forward", "strafe_left", "aim_up" };
static tdn_clip *clips[CLIP_COUNT];

static int joint(const char *name) { return tdn_skeleton_find_joint(skeleton, name); }

static void make_clips(void)
{
    tdn_error err = { 0 };
    CHECK(tdn_humanoid_create(&(tdn_humanoid_desc){ .sample_rate = 10 }, &humanoid, NULL, &err) == TDN_OK);
    skeleton = tdn_asset_skeleton(humanoid);
    for (int c = 0; c < CLIP_COUNT; c++) {
        const tdn_clip_desc desc = { .source = tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, clip_names[c])),
                                     .storage = TDN_STORAGE_COMPRESSED,
                                     .additive_reference_first_frame = c == AIM };
        CHECK(tdn_clip_create(&desc, &clips[c], NULL, &err) == TDN_OK);
    }
}

/* ---- a desc with every field ---- */

static void lift(void *user, const tdn_graph_instance *in, int node, float dt, tdn_pose *pose)
{
    (void)in, (void)node, (void)dt;
    const int head = *(const int *)user;
    tdn_transform x = tdn_pose_get(pose, head);
    x.t.y += 0.05f;
    tdn_pose_set(pose, head, &x);
}

static int head_joint;
static const tdn_graph_callback callbacks[] = { { "other", lift, NULL }, { "lift", lift, &head_joint } };

/* Everything the desc points to, so that it stays valid while the test runs. */
typedef struct everything {
    tdn_param_desc params[11];
    tdn_node_desc nodes[15];
    int inputs[32];
    tdn_node_value values[3];
    const char *axes[2];
    tdn_blend_space *space;
    float points[8];
    tdn_state_desc states[2];
    tdn_condition_desc conditions[3];
    tdn_transition_desc transitions[3];
    tdn_state_machine_desc machine;
    int rotate_joints[2], damp_joints[1];
    float rotate_weights[2];
    tdn_layer_desc layers[3];
    float *upper_mask, *head_mask;
    const char *markers[2];
    tdn_sync_group_desc group;
    int *mirror;
    tdn_root_track_desc root_motion;
    tdn_graph_ik_desc ik[5];
    tdn_ik_limit limits[8];
    float look_weights[8], look_angles[8];
    tdn_foot_placement_desc feet;
    const char *contacts[2];
    const char *callback_names[15];
    tdn_graph_desc desc;
} everything;

static int chain_length(int root, int end)
{
    int chain[TDN_MAX_IK_CHAIN];
    return tdn_ik_chain_path(skeleton, root, end, chain, TDN_MAX_IK_CHAIN);
}

static void make_everything(everything *e)
{
    memset(e, 0, sizeof *e);
    head_joint = joint("head");
    const int joints = tdn_skeleton_joint_count(skeleton);
    tdn_param_desc *p = e->params;
    p[0] = (tdn_param_desc){ "speed", TDN_PARAM_FLOAT, { 0.4f }, 0.1f };
    p[1] = (tdn_param_desc){ "dir", TDN_PARAM_VEC2, { 0.5f, -0.25f }, 0.2f };
    p[2] = (tdn_param_desc){ "ax", TDN_PARAM_FLOAT, { 0.1f }, 0 };
    p[3] = (tdn_param_desc){ "ay", TDN_PARAM_FLOAT, { 0.2f }, 0 };
    p[4] = (tdn_param_desc){ "go", TDN_PARAM_TRIGGER, { 0 }, 0 };
    p[5] = (tdn_param_desc){ "flag", TDN_PARAM_BOOL, { 1 }, 0 };
    p[6] = (tdn_param_desc){ "pick", TDN_PARAM_INT, { 1 }, 0 };
    p[7] = (tdn_param_desc){ "reach", TDN_PARAM_VEC3, { -0.2f, 1.3f, 0.35f }, 0 };
    p[8] = (tdn_param_desc){ "look", TDN_PARAM_VEC3, { 0.8f, 1.9f, 2.0f }, 0.05f };
    p[9] = (tdn_param_desc){ "pole", TDN_PARAM_VEC3, { 0, 1, 1 }, 0 };
    p[10] = (tdn_param_desc){ "twist", TDN_PARAM_FLOAT, { 0.3f }, 0 };

    int *in = e->inputs;
    tdn_node_desc *n = e->nodes;
    n[0] = (tdn_node_desc){
        .type = TDN_NODE_CLIP, .name = "idle", .clip = IDLE, .rate = 0.9f, .wrap = TDN_WRAP_PINGPONG, .start = 0.25f
    };
    n[1] = (tdn_node_desc){
        .type = TDN_NODE_CLIP, .name = "walk", .clip = WALK, .wrap = TDN_WRAP_LOOP, .sync_group = "feet"
    };
    n[2] = (tdn_node_desc){ .type = TDN_NODE_CLIP,
                            .clip = RUN,
                            .wrap = TDN_WRAP_LOOP,
                            .sync_group = "feet",
                            .lead_in = 0.05f,
                            .lead_out = 0.1f };
    n[3] = (tdn_node_desc){
        .type = TDN_NODE_CLIP, .name = "mirrored", .clip = STRAFE, .wrap = TDN_WRAP_LOOP, .mirror = 1
    };
    in[0] = 1, in[1] = 2;
    n[4] = (tdn_node_desc){ .type = TDN_NODE_BLEND2, .inputs = in, .input_count = 2, .value = { "speed", 0 } };
    in[2] = 0, in[3] = 4, in[4] = 3;
    e->values[0] = (tdn_node_value){ NULL, 0.2f };
    e->values[1] = (tdn_node_value){ "speed", 0 };
    e->values[2] = (tdn_node_value){ NULL, 0.3f };
    n[5] = (tdn_node_desc){ .type = TDN_NODE_BLENDN, .inputs = in + 2, .input_count = 3, .values = e->values };
    in[5] = 0, in[6] = 5;
    n[6] = (tdn_node_desc){
        .type = TDN_NODE_SWITCH, .inputs = in + 5, .input_count = 2, .value = { "pick", 0 }, .fade = 0.2f
    };
    in[7] = 6;
    n[7] = (tdn_node_desc){ .type = TDN_NODE_TIME_SCALE, .inputs = in + 7, .input_count = 1, .value = { NULL, 1.1f } };
    const float points[8] = { 0, 0, 1, 0, 0, 1, 1, 1 };
    memcpy(e->points, points, sizeof points);
    const tdn_blend_space_desc space = { TDN_BLEND_SPACE_RBF, 2, 4, e->points };
    CHECK(tdn_blend_space_create(&space, &e->space, NULL, NULL) == TDN_OK);
    e->axes[0] = "ax", e->axes[1] = "ay";
    in[8] = 0, in[9] = 1, in[10] = 2, in[11] = 3;
    n[8] = (tdn_node_desc){
        .type = TDN_NODE_BLEND_SPACE, .inputs = in + 8, .input_count = 4, .space = e->space, .axes = e->axes
    };
    e->states[0] = (tdn_state_desc){ "first" };
    e->states[1] = (tdn_state_desc){ "second" };
    e->conditions[0] = (tdn_condition_desc){ "flag", TDN_COMPARE_TRUE, 0 };
    e->conditions[1] = (tdn_condition_desc){ "go", TDN_COMPARE_TRUE, 0 };
    e->conditions[2] = (tdn_condition_desc){ "speed", TDN_COMPARE_GREATER_EQUAL, 0.9f };
    e->transitions[0] = (tdn_transition_desc){ .from = 0,
                                               .to = 1,
                                               .conditions = e->conditions,
                                               .condition_count = 1,
                                               .duration = 0.3f,
                                               .curve = { TDN_EASE_BEZIER, 0.2f, 0.1f, 0.7f, 0.9f },
                                               .mode = TDN_TRANSITION_INERTIALIZE,
                                               .priority = 1 };
    e->transitions[1] = (tdn_transition_desc){ .from = 1,
                                               .to = 0,
                                               .conditions = e->conditions + 1,
                                               .condition_count = 1,
                                               .exit_time = 0.5f,
                                               .duration = 0.25f,
                                               .duration_normalized = 1,
                                               .curve = { TDN_EASE_SMOOTHSTEP, 0, 0, 0, 0 },
                                               .mode = TDN_TRANSITION_FROZEN,
                                               .uninterruptible = 1 };
    e->transitions[2] = (tdn_transition_desc){ .from = TDN_ANY_STATE,
                                               .to = 0,
                                               .conditions = e->conditions + 2,
                                               .condition_count = 1,
                                               .duration = 0.2f,
                                               .priority = 2,
                                               .sync_phase = 1 };
    e->machine = (tdn_state_machine_desc){ e->states, 2, e->transitions, 3, 1 };
    in[12] = 7, in[13] = 8;
    n[9] = (tdn_node_desc){ .type = TDN_NODE_STATE_MACHINE,
                            .name = "machine",
                            .inputs = in + 12,
                            .input_count = 2,
                            .state_machine = &e->machine };
    n[10] = (tdn_node_desc){ .type = TDN_NODE_PROCEDURAL, .name = "procedural", .callback = lift, .user = &head_joint };
    n[11] = (tdn_node_desc){ .type = TDN_NODE_CLIP, .name = "aim", .clip = AIM, .wrap = TDN_WRAP_LOOP };
    e->rotate_joints[0] = joint("spine_01"), e->rotate_joints[1] = joint("spine_02");
    e->rotate_weights[0] = 0.25f, e->rotate_weights[1] = 0.75f;
    in[14] = 9;
    n[12] = (tdn_node_desc){ .type = TDN_NODE_MODIFIER,
                             .inputs = in + 14,
                             .input_count = 1,
                             .modifier = TDN_MODIFIER_ROTATE,
                             .value = { "twist", 0 },
                             .joints = e->rotate_joints,
                             .joint_count = 2,
                             .joint_weights = e->rotate_weights,
                             .axis = { 0, 1, 0 } };
    e->damp_joints[0] = head_joint;
    in[15] = 12;
    n[13] = (tdn_node_desc){ .type = TDN_NODE_MODIFIER,
                             .inputs = in + 15,
                             .input_count = 1,
                             .modifier = TDN_MODIFIER_DAMP,
                             .joints = e->damp_joints,
                             .joint_count = 1,
                             .half_life = 0.08f };
    in[16] = 13;
    n[14] = (tdn_node_desc){ .type = TDN_NODE_MODIFIER,
                             .name = "lifted",
                             .inputs = in + 16,
                             .input_count = 1,
                             .modifier = TDN_MODIFIER_CALLBACK,
                             .callback = lift,
                             .user = &head_joint };
    e->callback_names[10] = "lift", e->callback_names[14] = "lift";

    e->upper_mask = calloc((size_t)joints, sizeof(float));
    e->head_mask = calloc((size_t)joints, sizeof(float));
    for (int j = 0; j < joints; j++) {
        e->upper_mask[j] = tdn_skeleton_is_in_subtree(skeleton, j, joint("spine_01")) ? 1.0f : 0.0f;
        e->head_mask[j] = tdn_skeleton_is_in_subtree(skeleton, j, joint("neck_01")) ? 0.5f : 0.0f;
    }
    e->layers[0] = (tdn_layer_desc){ .name = "base", .root = 14 };
    e->layers[1] = (tdn_layer_desc){
        .name = "aim", .root = 11, .weight = { "ay", 0 }, .mode = TDN_LAYER_ADDITIVE, .mask = e->upper_mask
    };
    e->layers[2] = (tdn_layer_desc){
        .name = "head", .root = 10, .weight = { NULL, 0.6f }, .mask = e->head_mask, .model_space_rotation = 1
    };
    e->markers[0] = "foot_down_l", e->markers[1] = "foot_down_r";
    e->group = (tdn_sync_group_desc){ "feet", e->markers, 2 };
    e->mirror = calloc((size_t)joints, sizeof(int));
    CHECK(tdn_mirror_table_from_names(skeleton, e->mirror, NULL) == TDN_OK);
    e->root_motion = (tdn_root_track_desc){ 0, TDN_ROOT_YAW, 1, { 0, 1, 0 } };

    const int look = chain_length(joint("spine_05"), head_joint);
    const int arm = chain_length(joint("clavicle_l"), joint("hand_l"));
    for (int k = 0; k < 8; k++) {
        e->look_weights[k] = 0.1f * (float)(k + 1);
        e->look_angles[k] = 0.3f + 0.05f * (float)k;
        e->limits[k] = (tdn_ik_limit){ 1.0f + 0.1f * (float)k, 0.5f };
    }
    CHECK(look >= 2 && look <= 8 && arm >= 2 && arm <= 8);
    tdn_graph_ik_desc *ik = e->ik;
    ik[0] = (tdn_graph_ik_desc){ .kind = TDN_GRAPH_IK_LOOK_AT,
                                 .name = "look",
                                 .root = joint("spine_05"),
                                 .end = head_joint,
                                 .target = "look",
                                 .weight = { NULL, 0.8f },
                                 .axis = { 0, 0, 1 },
                                 .up_hint = { 0, 1, 0 },
                                 .joint_weights = e->look_weights,
                                 .max_angles = e->look_angles };
    ik[1] = (tdn_graph_ik_desc){ .kind = TDN_GRAPH_IK_TWO_BONE,
                                 .root = joint("upperarm_r"),
                                 .middle = joint("lowerarm_r"),
                                 .end = joint("hand_r"),
                                 .target = "reach",
                                 .pole = "pole",
                                 .weight = { "speed", 0 },
                                 .soften = 0.1f };
    ik[2] = (tdn_graph_ik_desc){ .kind = TDN_GRAPH_IK_FABRIK,
                                 .root = joint("clavicle_l"),
                                 .end = joint("hand_l"),
                                 .target = "reach",
                                 .tolerance = 1e-3f,
                                 .max_iterations = 20,
                                 .limits = e->limits };
    ik[3] = (tdn_graph_ik_desc){ .kind = TDN_GRAPH_IK_CCD,
                                 .root = joint("clavicle_l"),
                                 .end = joint("hand_l"),
                                 .target = "reach",
                                 .max_step = 0.3f,
                                 .max_iterations = 8 };
    e->feet = (tdn_foot_placement_desc){ .leg_count = 2,
                                         .legs = { { joint("thigh_l"), joint("calf_l"), joint("foot_l") },
                                                   { joint("thigh_r"), joint("calf_r"), joint("foot_r") } },
                                         .pelvis = joint("pelvis"),
                                         .up = { 0, 1, 0 },
                                         .forward = { 0, 0, 1 },
                                         .half_life = 0.06f,
                                         .pelvis_half_life = 0.25f,
                                         .max_tilt = 0.4f,
                                         .lock_distance = 0.12f,
                                         .ray_above = 0.4f,
                                         .ray_below = 0.45f,
                                         .soften = 0.02f };
    e->contacts[0] = "contact_l", e->contacts[1] = "contact_r";
    ik[4] = (tdn_graph_ik_desc){ .kind = TDN_GRAPH_IK_FOOT_PLACEMENT,
                                 .name = "feet",
                                 .weight = { NULL, 1 },
                                 .feet = &e->feet,
                                 .contact_curves = e->contacts };

    /* what the graph does not read, which a definition leaves out */
    ik[1].limits = e->limits;
    n[0].callback = lift;
    e->desc = (tdn_graph_desc){ .skeleton = skeleton,
                                .clips = (const tdn_clip *const *)clips,
                                .clip_count = CLIP_COUNT,
                                .params = e->params,
                                .param_count = 11,
                                .nodes = e->nodes,
                                .node_count = 15,
                                .layers = e->layers,
                                .layer_count = 3,
                                .sync_groups = &e->group,
                                .sync_group_count = 1,
                                .mirror_table = e->mirror,
                                .cull_threshold = 0.02f,
                                .root_motion = &e->root_motion,
                                .extract_root_motion = 1,
                                .ik = e->ik,
                                .ik_count = 5 };
}

static void free_everything(everything *e)
{
    tdn_blend_space_destroy(e->space);
    free(e->upper_mask);
    free(e->head_mask);
    free(e->mirror);
}

/* A pack of the humanoid, its clips, a graph section named "g" and `desc`'s definition. */
static void pack_desc(const tdn_graph_desc *desc, const char *const *names, void **bytes, size_t *size)
{
    tdn_error err = { 0 };
    tdn_pack_writer *w = NULL;
    void *definition = NULL;
    size_t definition_size = 0;
    int graph = -1, indices[CLIP_COUNT];
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_skeleton(w, "humanoid", skeleton, NULL, &err) == TDN_OK);
    for (int c = CLIP_COUNT - 1; c >= 0; c--) /* in another order than the desc's */
        CHECK(tdn_pack_writer_add_named_clip(w, clip_names[c], clips[c], 0, &indices[c], &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_graph(w, "g", 0, "{}", 2, &graph, &err) == TDN_OK && graph == 0);
    CHECK(tdn_graph_definition_save_memory(desc, names, &definition, &definition_size, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_graph_definition(w, graph, definition, definition_size, indices, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_graph_definition(w, graph, definition, definition_size, indices, &err) ==
          TDN_ERR_ARGUMENT); /* one per graph */
    CHECK(tdn_pack_writer_save_memory(w, bytes, size, NULL, &err) == TDN_OK);
    tdn_free(definition, definition_size, NULL);
    tdn_pack_writer_destroy(w);
}

static int ground(void *user, tdn_vec3 from, tdn_vec3 direction, float max_distance, tdn_vec3 *hit, tdn_vec3 *normal)
{
    (void)user, (void)max_distance;
    if (direction.y >= 0)
        return 0;
    const float height = 0.03f * sinf(3.0f * from.x) + 0.02f * from.z; /* bumps on a slope */
    *hit = tdn_vec3_make(from.x, height, from.z);
    *normal = tdn_vec3_make(0, 1, 0);
    return from.y >= height;
}

/* Instances of graphs a and b, driven alike for `frames` frames at 60 Hz: how many frames'
 * poses, model matrices or root motions differ in any bit, and how many frames moved. */
static int differing_frames(const tdn_graph *a, const tdn_graph *b, int frames, int *moving)
{
    const int joints = tdn_skeleton_joint_count(skeleton);
    tdn_graph_instance *ia = NULL, *ib = NULL;
    CHECK(tdn_graph_instance_create(a, &ia, NULL, NULL) == TDN_OK);
    CHECK(tdn_graph_instance_create(b, &ib, NULL, NULL) == TDN_OK);
    tdn_graph_set_ground(ia, ground, NULL, NULL, NULL);
    tdn_graph_set_ground(ib, ground, NULL, NULL, NULL);
    tdn_pose pa, pb, previous;
    tdn_pose_create(joints, &pa, NULL, NULL);
    tdn_pose_create(joints, &pb, NULL, NULL);
    tdn_pose_create(joints, &previous, NULL, NULL);
    tdn_mat4 *ma = malloc(sizeof *ma * (size_t)joints), *mb = malloc(sizeof *mb * (size_t)joints);
    const size_t bytes = sizeof(float) * TDN_POSE_ROWS * (size_t)pa.stride;
    int differing = 0;
    *moving = 0;
    for (int f = 0; ia && ib && f < frames; f++) {
        drive(ia, 0, f);
        drive(ib, 0, f);
        tdn_graph_update(ia, 1.0f / 60.0f, NULL);
        tdn_graph_update(ib, 1.0f / 60.0f, NULL);
        tdn_graph_evaluate(ia, &pa, NULL);
        tdn_graph_evaluate(ib, &pb, NULL);
        tdn_model_space(skeleton, &pa, NULL, ma, NULL);
        tdn_model_space(skeleton, &pb, NULL, mb, NULL);
        tdn_root_motion ra, rb;
        memset(&ra, 0, sizeof ra), memset(&rb, 0, sizeof rb);
        tdn_graph_root_motion(ia, &ra, NULL);
        tdn_graph_root_motion(ib, &rb, NULL);
        differing += memcmp(pa.data, pb.data, bytes) != 0 || memcmp(ma, mb, sizeof *ma * (size_t)joints) != 0 ||
                     memcmp(&ra, &rb, sizeof ra) != 0;
        *moving += memcmp(previous.data, pa.data, bytes) != 0;
        memcpy(previous.data, pa.data, bytes);
    }
    free(ma);
    free(mb);
    tdn_pose_destroy(&pa);
    tdn_pose_destroy(&pb);
    tdn_pose_destroy(&previous);
    tdn_graph_instance_destroy(ia);
    tdn_graph_instance_destroy(ib);
    return differing;
}

static void every_field_round_trips(void)
{
    everything *e = malloc(sizeof *e);
    make_everything(e);
    tdn_error err = { 0 };
    tdn_graph *built = NULL;
    if (!CHECK(tdn_graph_create(&e->desc, &built, NULL, &err) == TDN_OK)) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        free_everything(e);
        free(e);
        return;
    }
    void *bytes = NULL;
    size_t size = 0;
    pack_desc(&e->desc, e->callback_names, &bytes, &size);
    tdn_pack *pack = NULL;
    tdn_packed_graph *packed = NULL;
    CHECK(tdn_pack_open(bytes, size, &pack, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_graph_has_definition(pack, 0) && !tdn_pack_graph_has_definition(pack, 1));
    const tdn_packed_graph_options options = { callbacks, 2, 0 };
    CHECK(tdn_packed_graph_create(pack, 0, &options, &packed, &counting, &err) == TDN_OK);
    if (!packed)
        fprintf(stderr, "%s: %s\n", err.where, err.message);
    const tdn_graph_desc *d = tdn_packed_graph_desc(packed);
    if (d) {
        /* the clips in the desc's order, though packed in reverse */
        for (int c = 0; c < CLIP_COUNT; c++)
            CHECK(tdn_packed_graph_pack_clip(packed, c) == CLIP_COUNT - 1 - c &&
                  d->clips[c] == tdn_pack_clip(pack, CLIP_COUNT - 1 - c));
        CHECK(tdn_packed_graph_pack_clip(packed, CLIP_COUNT) == -1);
        CHECK(d->skeleton == tdn_pack_skeleton(pack, 0) && d->clip_count == CLIP_COUNT);
        CHECK(d->param_count == 11 && strcmp(d->params[1].name, "dir") == 0 && d->params[1].type == TDN_PARAM_VEC2 &&
              d->params[1].value[1] == -0.25f && d->params[1].half_life == 0.2f);
        CHECK(d->params[7].value[0] == -0.2f && d->params[7].value[2] == 0.35f);
        CHECK(d->node_count == 15 && d->root == 0 && d->layer_count == 3 && d->ik_count == 5);
        const tdn_node_desc *n = d->nodes;
        CHECK(n[0].rate == 0.9f && n[0].wrap == TDN_WRAP_PINGPONG && n[0].start == 0.25f && !n[0].inputs);
        CHECK(strcmp(n[1].sync_group, "feet") == 0 && n[2].lead_in == 0.05f && n[2].lead_out == 0.1f && !n[2].name);
        CHECK(n[3].mirror == 1 && n[3].clip == STRAFE && strcmp(n[3].name, "mirrored") == 0);
        CHECK(n[4].input_count == 2 && n[4].inputs[1] == 2 && strcmp(n[4].value.param, "speed") == 0);
        CHECK(n[5].values[0].constant == 0.2f && !n[5].values[0].param && strcmp(n[5].values[1].param, "speed") == 0);
        CHECK(n[6].fade == 0.2f && n[7].value.constant == 1.1f && !n[7].value.param);
        CHECK(tdn_blend_space_mode_of(n[8].space) == TDN_BLEND_SPACE_RBF &&
              tdn_blend_space_sample_count(n[8].space) == 4 && tdn_blend_space_point(n[8].space, 3)[1] == 1.0f &&
              strcmp(n[8].axes[1], "ay") == 0 && !n[8].position);
        const tdn_state_machine_desc *m = n[9].state_machine;
        CHECK(m && m->state_count == 2 && strcmp(m->states[1].name, "second") == 0 && m->initial == 1 &&
              m->transition_count == 3);
        if (m && m->transition_count == 3) {
            CHECK(m->transitions[0].curve.kind == TDN_EASE_BEZIER && m->transitions[0].curve.y2 == 0.9f &&
                  m->transitions[0].mode == TDN_TRANSITION_INERTIALIZE && m->transitions[0].priority == 1);
            CHECK(m->transitions[1].exit_time == 0.5f && m->transitions[1].duration_normalized == 1 &&
                  m->transitions[1].uninterruptible == 1 && m->transitions[1].mode == TDN_TRANSITION_FROZEN);
            CHECK(m->transitions[2].from == TDN_ANY_STATE && m->transitions[2].sync_phase == 1 &&
                  m->transitions[2].conditions[0].compare == TDN_COMPARE_GREATER_EQUAL &&
                  m->transitions[2].conditions[0].value == 0.9f);
        }
        CHECK(n[10].callback == lift && n[10].user == &head_joint && n[14].callback == lift);
        CHECK(n[12].modifier == TDN_MODIFIER_ROTATE && n[12].joint_count == 2 && n[12].joint_weights[1] == 0.75f &&
              n[12].joints[1] == joint("spine_02") && n[12].axis.y == 1.0f);
        CHECK(n[13].modifier == TDN_MODIFIER_DAMP && n[13].half_life == 0.08f && !n[13].joint_weights);
        CHECK(d->layers[1].mode == TDN_LAYER_ADDITIVE && strcmp(d->layers[1].weight.param, "ay") == 0 &&
              d->layers[1].mask[joint("head")] == 1.0f && d->layers[1].mask[joint("thigh_l")] == 0.0f);
        CHECK(d->layers[2].model_space_rotation == 1 && d->layers[2].weight.constant == 0.6f && !d->layers[0].mask);
        CHECK(d->sync_group_count == 1 && d->sync_groups[0].marker_count == 2 &&
              strcmp(d->sync_groups[0].markers[1], "foot_down_r") == 0);
        CHECK(d->mirror_table && d->mirror_table[joint("hand_l")] == joint("hand_r"));
        CHECK(d->cull_threshold == 0.02f && d->extract_root_motion == 1 && d->root_motion &&
              d->root_motion->keep_vertical == 1 && d->root_motion->up.y == 1.0f);
        const tdn_graph_ik_desc *ik = d->ik;
        CHECK(ik[0].kind == TDN_GRAPH_IK_LOOK_AT && ik[0].axis.z == 1.0f && ik[0].up_hint.y == 1.0f &&
              ik[0].joint_weights[1] == e->look_weights[1] && ik[0].max_angles[1] == e->look_angles[1] &&
              ik[0].weight.constant == 0.8f);
        CHECK(strcmp(ik[1].pole, "pole") == 0 && ik[1].middle == joint("lowerarm_r") && ik[1].soften == 0.1f);
        CHECK(!ik[1].limits && !n[0].callback); /* left out: a two-bone job's limits, a clip node's callback */
        CHECK(ik[2].limits && ik[2].limits[2].cone == 1.2f && ik[2].max_iterations == 20 && ik[2].tolerance == 1e-3f);
        CHECK(ik[3].max_step == 0.3f && !ik[3].limits);
        CHECK(ik[4].feet && ik[4].feet->leg_count == 2 && ik[4].feet->legs[1].end == joint("foot_r") &&
              ik[4].feet->ray_below == 0.45f && ik[4].feet->soften == 0.02f &&
              strcmp(ik[4].contact_curves[1], "contact_r") == 0);
        /* saved again, the same bytes */
        void *again = NULL, *first = NULL;
        size_t again_size = 0, first_size = 0;
        const char *names[15] = { 0 };
        names[10] = names[14] = "lift";
        CHECK(tdn_graph_definition_save_memory(&e->desc, e->callback_names, &first, &first_size, NULL, &err) == TDN_OK);
        CHECK(tdn_graph_definition_save_memory(d, names, &again, &again_size, NULL, &err) == TDN_OK);
        CHECK(first_size == again_size && memcmp(first, again, first_size) == 0);
        tdn_free(first, first_size, NULL);
        tdn_free(again, again_size, NULL);
    }
    int moving = 0;
    CHECK_EQ_INT(differing_frames(built, tdn_packed_graph_graph(packed), 300, &moving), 0);
    CHECK(moving > 250);
    tdn_packed_graph_destroy(packed);
    CHECK_EQ_INT(live_blocks, 0);

    /* the callbacks are bound by name: without them the node is named */
    CHECK(tdn_packed_graph_create(pack, 0, NULL, &packed, NULL, &err) == TDN_ERR_INVALID_DATA && !packed);
    CHECK(strcmp(err.where, "nodes[10]") == 0 && strstr(err.message, "'lift'") != NULL);
    CHECK(tdn_packed_graph_create(pack, 1, NULL, &packed, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(tdn_packed_graph_create(NULL, 0, NULL, &packed, NULL, &err) == TDN_ERR_ARGUMENT);

    /* a failed allocation anywhere: an error, nothing left behind */
    for (long k = 0;; k++) {
        allocations_before_failure = k;
        const tdn_result r = tdn_packed_graph_create(pack, 0, &options, &packed, &counting, &err);
        allocations_before_failure = -1;
        if (r == TDN_OK) {
            tdn_packed_graph_destroy(packed);
            CHECK(k > 3);
            break;
        }
        if (!CHECK(r == TDN_ERR_OUT_OF_MEMORY && !packed))
            fprintf(stderr, "  allocation %ld: %s: %s\n", k, err.where, err.message);
        CHECK_EQ_INT(live_blocks, 0);
    }
    tdn_pack_destroy(pack);
    tdn_free(bytes, size, NULL);
    tdn_graph_destroy(built);
    free_everything(e);
    free(e);
}

static void motion_matching_and_missing_names_are_refused(void)
{
    everything *e = malloc(sizeof *e);
    make_everything(e);
    tdn_error err = { 0 };
    void *data = NULL;
    size_t size = 0;
    CHECK(tdn_graph_definition_save_memory(&e->desc, NULL, &data, &size, NULL, &err) == TDN_ERR_ARGUMENT && !data);
    CHECK(strcmp(err.where, "callback_names") == 0 && strstr(err.message, "node 10") != NULL);
    e->nodes[3].type = TDN_NODE_MOTION_MATCH;
    CHECK(tdn_graph_definition_save_memory(&e->desc, e->callback_names, &data, &size, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "desc.nodes") == 0 && strstr(err.message, "node 3") != NULL);
    CHECK(tdn_graph_definition_save_memory(NULL, NULL, &data, &size, NULL, &err) == TDN_ERR_ARGUMENT);
    free_everything(e);
    free(e);
}

/* ---- hostile definitions ---- */

/* The byte of the first word of the pack's definition image, its size and its section's byte. */
static size_t definition_in(const tdn_pack *pack, size_t *image_size, size_t *section_byte, const unsigned char *bytes)
{
    for (int s = 0; s < tdn_pack_section_count(pack); s++)
        if (tdn_pack_section_kind(pack, s) == TDN_PACK_FOURCC('G', 'D', 'E', 'F')) {
            size_t n = 0;
            const unsigned char *section = tdn_pack_section_bytes(pack, s, &n);
            uint32_t size, at;
            memcpy(&size, section + 12, 4);
            memcpy(&at, section + 16, 4);
            *image_size = size;
            *section_byte = (size_t)(section - bytes);
            return (size_t)(section - bytes) + at;
        }
    return 0;
}

static void every_changed_word_is_refused_or_loads(void)
{
    everything *e = malloc(sizeof *e);
    make_everything(e);
    void *bytes = NULL;
    size_t size = 0;
    pack_desc(&e->desc, e->callback_names, &bytes, &size);
    tdn_pack *pack = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_pack_open(bytes, size, &pack, NULL, &err) == TDN_OK);
    size_t image_size = 0, section = 0;
    const size_t image = definition_in(pack, &image_size, &section, bytes);
    tdn_pack_destroy(pack);
    CHECK(image > 0 && image_size > 100);
    unsigned char *copy = aligned_alloc(TDN_PACK_ALIGN, (size + TDN_PACK_ALIGN - 1) / TDN_PACK_ALIGN * TDN_PACK_ALIGN);
    const uint32_t changes[] = { 0xffffffffu, 1u, 0x80000000u, 0x7fc00000u /* NaN */, 3u };
    int refused = 0, loaded = 0, misplaced = 0;
    const tdn_packed_graph_options options = { callbacks, 2, 0 };
    for (size_t w = 0; w < image_size / 4; w++) {
        memcpy(copy, bytes, size);
        uint32_t word;
        memcpy(&word, copy + image + 4 * w, 4);
        word = changes[w % 5] == 1u ? word + 1 : changes[w % 5];
        memcpy(copy + image + 4 * w, &word, 4);
        tdn_packed_graph *packed = NULL;
        tdn_result r = tdn_pack_open(copy, size, &pack, NULL, &err);
        if (r == TDN_OK)
            r = tdn_packed_graph_create(pack, 0, &options, &packed, &counting, &err);
        if (r == TDN_OK) {
            int moving = 0;
            differing_frames(tdn_packed_graph_graph(packed), tdn_packed_graph_graph(packed), 2, &moving);
            loaded++;
        } else {
            refused++;
            size_t byte = 0;
            /* an error of the image names a byte of its section (others name a node or a field) */
            if (sscanf(err.where, "byte %zu", &byte) == 1 && (byte < section || byte >= image + image_size)) {
                fprintf(stderr, "  word %zu: %s: %s (the image: bytes %zu..%zu)\n", w, err.where, err.message, image,
                        image + image_size);
                misplaced++;
            }
        }
        tdn_packed_graph_destroy(packed);
        tdn_pack_destroy(pack);
        pack = NULL;
        CHECK_EQ_INT(live_blocks, 0);
    }
    CHECK(refused > (int)(image_size / 8) && loaded > 0);
    CHECK_EQ_INT(misplaced, 0);

    /* hand-picked: the first node's type out of range, named at its word */
    memcpy(copy, bytes, size);
    CHECK(tdn_pack_open(copy, size, &pack, NULL, &err) == TDN_OK);
    tdn_packed_graph *packed = NULL;
    uint32_t nodes_at;
    memcpy(&nodes_at, copy + image + 8 + 4 * 4, 4); /* after node_count, clip_count, param_count, params */
    const uint32_t bad_type = 40;
    memcpy(copy + image + nodes_at + 4, &bad_type, 4);
    CHECK(tdn_packed_graph_create(pack, 0, &options, &packed, NULL, &err) == TDN_ERR_INVALID_DATA);
    char where[48];
    snprintf(where, sizeof where, "byte %zu", image + nodes_at + 4);
    CHECK(strcmp(err.where, where) == 0 && strstr(err.message, "tdn_node_desc.type: 40 is not one of 0..10") != NULL);
    if (strcmp(err.where, where) != 0)
        fprintf(stderr, "  want %s, got %s: %s\n", where, err.where, err.message);
    tdn_pack_destroy(pack);

    /* two references to one block (the first node's name given to the second): refused, so that
     * no block is read twice */
    memcpy(copy, bytes, size);
    CHECK(tdn_pack_open(copy, size, &pack, NULL, &err) == TDN_OK);
    const size_t node_words = 31, second_name = image + nodes_at + 4 + 4 * node_words + 4;
    uint32_t first_name;
    memcpy(&first_name, copy + image + nodes_at + 4 + 4, 4);
    CHECK(first_name != 0);
    memcpy(copy + second_name, &first_name, 4);
    CHECK(tdn_packed_graph_create(pack, 0, &options, &packed, NULL, &err) == TDN_ERR_INVALID_DATA && !packed);
    snprintf(where, sizeof where, "byte %zu", image + first_name);
    if (!CHECK(strcmp(err.where, where) == 0 && strstr(err.message, "blocks are not shared") != NULL))
        fprintf(stderr, "  want %s, got %s: %s\n", where, err.where, err.message);
    /* a block in the graph record's words */
    memcpy(copy, bytes, size);
    const uint32_t into_header = 12;
    memcpy(copy + image + nodes_at + 4 + 4, &into_header, 4);
    CHECK(tdn_packed_graph_create(pack, 0, &options, &packed, NULL, &err) == TDN_ERR_INVALID_DATA && !packed);
    CHECK(strstr(err.message, "blocks are not shared") != NULL);
    tdn_pack_destroy(pack);

    /* the definition's clip count against its section's */
    memcpy(copy, bytes, size);
    const uint32_t fewer = 4;
    memcpy(copy + image + 12, &fewer, 4);
    CHECK(tdn_pack_open(copy, size, &pack, NULL, &err) == TDN_ERR_INVALID_DATA && !pack);
    CHECK(strstr(err.message, "clip_count 5 is not its image's 4") != NULL);
    free(copy);
    tdn_free(bytes, size, NULL);
    free_everything(e);
    free(e);
}

/* ---- documents through definitions ---- */

static void example_documents(void)
{
    const char *files[] = { TENDON_SOURCE_DIR "/examples/graphs/strafe.json",
                            TENDON_SOURCE_DIR "/examples/graphs/walk_uneven.json" };
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        const tdn_graph_document_load_options compressed = { .clip_storage = TDN_STORAGE_COMPRESSED,
                                                             .error_threshold = 1e-4f };
        tdn_error err = { 0 };
        tdn_graph_document *json = NULL, *from_pack = NULL;
        if (!CHECK(tdn_graph_document_load(files[k], &compressed, &json, NULL, &err) == TDN_OK)) {
            fprintf(stderr, "%s: %s\n", err.where, err.message);
            continue;
        }
        FILE *f = fopen(files[k], "rb");
        char text[16384];
        const size_t n = fread(text, 1, sizeof text, f);
        fclose(f);
        tdn_pack_writer *w = NULL;
        void *bytes = NULL;
        size_t size = 0;
        tdn_pack *pack = NULL;
        CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
        CHECK(tdn_pack_writer_add_graph_document(w, "g", json, text, n, &err) == TDN_OK);
        CHECK(tdn_pack_writer_save_memory(w, &bytes, &size, NULL, &err) == TDN_OK);
        CHECK(tdn_pack_open(bytes, size, &pack, NULL, &err) == TDN_OK);
        CHECK(tdn_pack_graph_has_definition(pack, 0));
        CHECK(tdn_graph_document_load_pack(pack, 0, NULL, &from_pack, &counting, &err) == TDN_OK);
        if (from_pack) {
            skeleton = tdn_graph_document_skeleton(json);
            CHECK_EQ_INT(tdn_graph_document_clip_count(from_pack), tdn_graph_document_clip_count(json));
            for (int c = 0; c < tdn_graph_document_clip_count(json); c++)
                CHECK(strcmp(tdn_graph_document_clip_name(from_pack, c), tdn_graph_document_clip_name(json, c)) == 0);
            int moving = 0;
            CHECK_EQ_INT(
                differing_frames(tdn_graph_document_graph(json), tdn_graph_document_graph(from_pack), 240, &moving), 0);
            CHECK(moving > 200);
            skeleton = tdn_asset_skeleton(humanoid);
        }
        tdn_graph_document_destroy(from_pack);
        CHECK_EQ_INT(live_blocks, 0);
        CHECK_EQ_INT((long long)live_bytes, 0); /* every block freed with the size it was allocated with */
        tdn_pack_destroy(pack);
        tdn_free(bytes, size, NULL);
        tdn_pack_writer_destroy(w);
        tdn_graph_document_destroy(json);
        /* from JSON too, every block freed with its size */
        if (CHECK(tdn_graph_document_load(files[k], &compressed, &json, &counting, &err) == TDN_OK))
            tdn_graph_document_destroy(json);
        CHECK_EQ_INT(live_blocks, 0);
        CHECK_EQ_INT((long long)live_bytes, 0);
    }
}

/* A document that drives another character is packed as its text alone, so loading it from the
 * pack still says why it cannot be (the other character is not in the pack). */
static void retargeting_documents_keep_their_refusal(void)
{
    const char *json = "{\"character\": {\"generated\": \"humanoid\", \"sample_rate\": 10},"
                       " \"retarget\": {\"to\": {\"generated\": \"humanoid\", \"height\": 1.5}},"
                       " \"root\": {\"type\": \"clip\", \"clip\": \"walk_forward\"}}";
    const tdn_graph_document_load_options compressed = { .clip_storage = TDN_STORAGE_COMPRESSED };
    tdn_error err = { 0 };
    tdn_graph_document *d = NULL, *from_pack = NULL;
    if (!CHECK(tdn_graph_document_load_memory(json, strlen(json), &compressed, &d, NULL, &err) == TDN_OK)) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return;
    }
    tdn_pack_writer *w = NULL;
    void *bytes = NULL;
    size_t size = 0;
    tdn_pack *pack = NULL;
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_graph_document(w, "g", d, json, strlen(json), &err) == TDN_OK);
    CHECK(tdn_pack_writer_save_memory(w, &bytes, &size, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_open(bytes, size, &pack, NULL, &err) == TDN_OK);
    CHECK(!tdn_pack_graph_has_definition(pack, 0));
    CHECK(tdn_graph_document_load_pack(pack, 0, NULL, &from_pack, NULL, &err) == TDN_ERR_INVALID_DATA && !from_pack);
    CHECK(strstr(err.message, "cannot drive another character") != NULL);
    tdn_pack_destroy(pack);
    tdn_free(bytes, size, NULL);
    tdn_pack_writer_destroy(w);
    tdn_graph_document_destroy(d);
}

int main(void)
{
    make_clips();
    RUN(every_field_round_trips);
    RUN(motion_matching_and_missing_names_are_refused);
    RUN(every_changed_word_is_refused_or_loads);
    RUN(example_documents);
    RUN(retargeting_documents_keep_their_refusal);
    for (int c = 0; c < CLIP_COUNT; c++)
        tdn_clip_destroy(clips[c]);
    tdn_asset_destroy(humanoid);
    return check_summary();
}
