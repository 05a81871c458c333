/* Motion matching as a graph node (TDN_NODE_MOTION_MATCH), checked against numbers made
 * another way: a bare tdn_mm_controller driven with the same input (its pose with the root put
 * into the character's frame by hand, its root motion from its own positions and facings),
 * clips sampled and blended by hand, and the same graph without the node. On tendon's generated
 * humanoid (its eight locomotion clips: every fresh clone has them) and, when the shared data is
 * there, on LAFAN1:
 *   (a) a graph that is only the node gives the bare controller's pose frame by frame (joints
 *       other than the root bit for bit, the root relative to the character), its root motion,
 *       and integrating that motion puts the character where the controller's is;
 *   (b) as a state of a machine cross-faded with a clip state, the output is the two poses
 *       (and root motions) blended at the machine's weights, and the node kept simulating while
 *       its state was out;
 *   (c) as a masked override layer over a clip, joints outside the mask and the root motion are
 *       the clip layer's alone, bit for bit;
 *   (d) frames never allocate, an instance in caller memory runs the same as a created one;
 *   (e) graph documents: a "motion_match" node loads its database file and clips and runs like
 *       the graph built in C; bad documents name the JSON path (with did-you-mean hints). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "counting_allocator.h"
#include "mm_fixture.h"
#include "tendon/graph.h"
#include "tendon/io/graph_document.h"
#include "tendon/mm_controller.h"
#include "tendon/io/mm_database_file.h"
#include "tendon/root_motion.h"

#define DT (1.0f / 60.0f)
#define DEG 0.017453292519943295

static const tdn_vec3 up = { 0.0f, 1.0f, 0.0f };

/* ---- a goal in the world, read in the character's frame as a game would ---- */

static const segment humanoid_path[] = {
    { 2, 1.4f, 0, 0 },     { 2, 1.4f, 90, 90 }, { 1.5f, 3.5f, 90, 90 },
    { 1.5f, 0, 90, 90 },   { 2, 1.4f, 0, 90 }, /* strafing */
    { 2, 1.4f, 180, 180 }, { 1, 0, 180, 180 },  { 2, 1.4f, -90, -90 },
};

static const segment lafan1_path[] = {
    { 3, 1.4f, 0, 0 }, { 3, 1.4f, 90, 90 }, { 2, 3.0f, 90, 90 }, { 2, 0, 90, 90 }, { 3, 1.2f, 180, 180 },
};

/* The character the graph's root motion moves, in double. */
typedef struct character {
    double x, z, facing;
} character;

static void character_move(character *c, const tdn_root_motion *m)
{
    const double s = sin(c->facing), co = cos(c->facing), tx = m->translation.x, tz = m->translation.z;
    c->x += co * tx + s * tz;
    c->z += co * tz - s * tx;
    c->facing += 2.0 * atan2(m->rotation.y, m->rotation.w);
}

static double wrap(double a) { return atan2(sin(a), cos(a)); }

/* What a game sets: the world goal at time t turned into the character's frame. */
static void stick(const segment *path, int count, float t, const character *c, float move[2], float *turn)
{
    const segment *s = segment_at(path, count, t);
    const double vx = s->speed * sin(s->heading * DEG), vz = s->speed * cos(s->heading * DEG);
    const double co = cos(c->facing), si = sin(c->facing);
    move[0] = (float)(co * vx - si * vz);
    move[1] = (float)(si * vx + co * vz);
    *turn = (float)wrap(s->facing * DEG - c->facing);
}

/* Sets the motion-matching graphs' parameters (the stick, and "stop" while t is in
 * [3, stop_end)) and steps the instance by DT. */
static void drive(tdn_graph_instance *in, const float move[2], float turn, float t, float stop_end)
{
    tdn_graph_set_vector_named(in, "move", move, NULL);
    tdn_graph_set_float_named(in, "turn", turn, NULL);
    tdn_graph_set_bool_named(in, "stop", t >= 3.0f && t < stop_end, NULL);
    tdn_graph_update(in, DT, NULL);
}

/* ---- a bare controller driven the way the node documents (graph.h, "Motion matching") ---- */

typedef struct bare {
    tdn_mm_controller *c;
    tdn_vec3 position; /* its character after the last update */
    float facing, goal;
    tdn_mm_status status;
    tdn_root_motion motion; /* from its positions and facings, in double */
} bare;

static void bare_update(bare *b, const float move[2], const float *turn, float dt, tdn_pose *pose)
{
    const float co = cosf(b->facing), si = sinf(b->facing), x = move[0], z = move[1];
    if (turn)
        b->goal = b->facing + *turn;
    else if (x * x + z * z > 0.001f * 0.001f)
        b->goal = b->facing + atan2f(x, z);
    const tdn_mm_input in = { tdn_vec3_make(co * x + si * z, 0.0f, co * z - si * x), b->goal };
    CHECK_EQ_INT(tdn_mm_controller_update(b->c, &in, dt, pose, &b->status, NULL), TDN_OK);
    const double dx = (double)b->status.position.x - b->position.x, dz = (double)b->status.position.z - b->position.z;
    const double c0 = cos(b->facing), s0 = sin(b->facing), turned = wrap((double)b->status.facing - b->facing);
    b->motion.translation = tdn_vec3_make((float)(c0 * dx - s0 * dz), 0.0f, (float)(s0 * dx + c0 * dz));
    b->motion.rotation = tdn_quat_make(0.0f, (float)sin(turned / 2), 0.0f, (float)cos(turned / 2));
    b->position = b->status.position;
    b->facing = b->status.facing;
}

static void bare_start(bare *b, const tdn_mm_controller_desc *d)
{
    memset(b, 0, sizeof *b);
    CHECK_EQ_INT(tdn_mm_controller_create(d, &b->c, NULL, NULL), TDN_OK);
}

/* The bare pose's root put into the character's frame with the node's float operations (for
 * blends that must match to the bit), or in double (an independent figure). */
static void root_to_character(tdn_pose *pose, int root, tdn_vec3 position, float facing)
{
    tdn_transform x = tdn_pose_get(pose, root);
    const float c = cosf(facing), s = sinf(facing);
    const tdn_vec3 v = tdn_vec3_sub(x.t, position);
    x.t = tdn_vec3_make(c * v.x - s * v.z, v.y, s * v.x + c * v.z);
    x.r = tdn_quat_normalize(tdn_quat_mul(tdn_quat_from_axis_angle(up, -facing), x.r));
    tdn_pose_set(pose, root, &x);
}

static double root_error(const tdn_pose *graph_pose, const tdn_pose *world_pose, int root, tdn_vec3 position,
                         float facing)
{
    const tdn_transform g = tdn_pose_get(graph_pose, root), w = tdn_pose_get(world_pose, root);
    const double c = cos(facing), s = sin(facing), dx = (double)w.t.x - position.x, dz = (double)w.t.z - position.z;
    const double t[3] = { c * dx - s * dz, w.t.y, s * dx + c * dz };
    /* yaw(-facing) * r in double */
    const double hc = cos(-facing / 2.0), hs = sin(-facing / 2.0);
    const double q[4] = { hc * w.r.x + hs * w.r.z, hc * w.r.y + hs * w.r.w, hc * w.r.z - hs * w.r.x,
                          hc * w.r.w - hs * w.r.y };
    const double dot = q[0] * g.r.x + q[1] * g.r.y + q[2] * g.r.z + q[3] * g.r.w;
    double e = fmax(fmax(fabs(t[0] - g.t.x), fabs(t[1] - g.t.y)), fabs(t[2] - g.t.z));
    return fmax(e, 1.0 - fabs(dot));
}

/* The largest difference of any value of joints other than `skip` (-1: none) where `mask` is
 * NULL or 0 at the joint when `outside` (else where it is 1). */
static double pose_diff(const tdn_pose *a, const tdn_pose *b, int skip, const float *mask, int outside)
{
    double worst = 0;
    for (int r = 0; r < TDN_POSE_ROWS; r++)
        for (int j = 0; j < a->joint_count; j++) {
            if (j == skip || (mask && (outside ? mask[j] != 0.0f : mask[j] != 1.0f)))
                continue;
            worst = fmax(worst, fabs((double)tdn_pose_crow(a, r)[j] - tdn_pose_crow(b, r)[j]));
        }
    return worst;
}

static double motion_diff(const tdn_root_motion *a, const tdn_root_motion *b)
{
    const double dq = fabs(tdn_quat_dot(a->rotation, b->rotation));
    return fmax(tdn_vec3_length(tdn_vec3_sub(a->translation, b->translation)), 1.0 - dq);
}

/* ---- graphs ---- */

static tdn_mm_controller_desc controller_desc(const mm_fixture *f)
{
    return (tdn_mm_controller_desc){ .database = f->db,
                                     .skeleton = f->skeleton,
                                     .clips = f->clips,
                                     .clip_count = f->clip_count,
                                     .mirror_table = f->mirror,
                                     .bias = 0.05f };
}

static const tdn_param_desc params[] = { { .name = "move", .type = TDN_PARAM_VEC2 },
                                         { .name = "turn", .type = TDN_PARAM_FLOAT },
                                         { .name = "stop", .type = TDN_PARAM_BOOL } };

/* The root-motion settings a motion-matching graph needs: its database's root, yaw, on the ground. */
static tdn_root_track_desc root_motion_of(const mm_fixture *f)
{
    return (tdn_root_track_desc){ .joint = f->desc.root };
}

static tdn_clip *runtime_clip(const mm_fixture *f, const char *name)
{
    tdn_clip *clip = NULL;
    for (int i = 0; i < f->clip_count; i++)
        if (strcmp(tdn_keyed_clip_name(f->clips[i]), name) == 0)
            CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = f->clips[i] }, &clip, NULL, NULL), TDN_OK);
    CHECK(clip != NULL);
    return clip;
}

/* (a) ---------------------------------------------------------------------------------------- */

static void node_alone_is_the_controller(const mm_fixture *f, const char *name, const segment *path, int count,
                                         int with_facing)
{
    const tdn_mm_controller_desc mm = controller_desc(f);
    const tdn_node_desc node = { .type = TDN_NODE_MOTION_MATCH,
                                 .name = "mm",
                                 .motion_match = &mm,
                                 .velocity = "move",
                                 .facing = with_facing ? "turn" : NULL };
    const tdn_root_track_desc rm = root_motion_of(f);
    const tdn_graph_desc gd = { .skeleton = f->skeleton,
                                .params = params,
                                .param_count = 3,
                                .nodes = &node,
                                .node_count = 1,
                                .root = 0,
                                .root_motion = &rm,
                                .extract_root_motion = 1 };
    tdn_graph *g = NULL;
    tdn_graph_instance *in = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_graph_create(&gd, &g, NULL, &err), TDN_OK)) {
        printf("%s: %s\n", err.where, err.message);
        return;
    }
    CHECK_EQ_INT(tdn_graph_instance_create(g, &in, NULL, NULL), TDN_OK);
    const int n = tdn_skeleton_joint_count(f->skeleton), root = f->desc.root;
    tdn_pose pg, pc;
    tdn_pose_create(n, &pg, NULL, NULL);
    tdn_pose_create(n, &pc, NULL, NULL);
    bare b;
    bare_start(&b, &mm);
    /* the instance started with a zero-length update at the parameters' initial values */
    const float still[2] = { 0, 0 }, no_turn = 0;
    bare_update(&b, still, with_facing ? &no_turn : NULL, 0.0f, &pc);
    tdn_graph_evaluate(in, &pg, NULL);
    double joints = pose_diff(&pg, &pc, root, NULL, 0), roots = root_error(&pg, &pc, root, b.position, b.facing);
    double motions = 0, frame_mismatch = 0;
    character ch = { 0 };
    int switches = 0;
    const int frames = (int)(path_seconds(path, count) / DT);
    for (int k = 0; k < frames; k++) {
        float move[2], turn;
        stick(path, count, (float)k * DT, &ch, move, &turn);
        tdn_graph_set_vector_named(in, "move", move, NULL);
        tdn_graph_set_float_named(in, "turn", turn, NULL);
        CHECK_EQ_INT(tdn_graph_update(in, DT, NULL), TDN_OK);
        CHECK_EQ_INT(tdn_graph_evaluate(in, &pg, NULL), TDN_OK);
        tdn_root_motion m;
        tdn_graph_root_motion(in, &m, NULL);
        bare_update(&b, move, with_facing ? &turn : NULL, DT, &pc);
        joints = fmax(joints, pose_diff(&pg, &pc, root, NULL, 0));
        roots = fmax(roots, root_error(&pg, &pc, root, b.position, b.facing));
        motions = fmax(motions, motion_diff(&m, &b.motion));
        const tdn_graph_entry *e;
        frame_mismatch += tdn_graph_entries(in, &e) != 1 || e[0].clip != TDN_ENTRY_MOTION_MATCH ||
                          e[0].time != (float)b.status.frame;
        character_move(&ch, &m);
        switches += b.status.switched;
    }
    const double where = hypot(ch.x - b.position.x, ch.z - b.position.z), facing = fabs(wrap(ch.facing - b.facing));
    printf(
        "(a) %s, %s: %d frames, %d switches; joints but the root differ by %.3g, the root (in the character's frame) "
        "by %.3g, root motion by %.3g; the graph's character integrated ends %.3g m and %.3g rad from the "
        "controller's (%.1f m out)\n",
        name, with_facing ? "facing parameter" : "facing where it moves", frames, switches, joints, roots, motions,
        where, facing, hypot(b.position.x, b.position.z));
    CHECK(joints == 0.0);
    CHECK(roots <= 1e-5);
    CHECK(motions <= 1e-6);
    CHECK(frame_mismatch == 0);
    CHECK(where <= 1e-3 && facing <= 1e-4);
    CHECK(switches > 3);
    tdn_mm_controller_destroy(b.c);
    tdn_pose_destroy(&pg);
    tdn_pose_destroy(&pc);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
}

/* (b) and (d): a machine of two states, "move" (the node) and "walk" (the walk clip). ---------- */

typedef struct machine_graph {
    tdn_mm_controller_desc mm;
    tdn_node_desc nodes[3];
    int inputs[2];
    tdn_state_desc states[2];
    tdn_transition_desc transitions[2];
    tdn_condition_desc to_walk, to_move;
    tdn_state_machine_desc sm;
    tdn_root_track_desc rm;
    const tdn_clip *clips[1];
    tdn_graph_desc gd;
} machine_graph;

static void machine_graph_make(machine_graph *m, const mm_fixture *f, const tdn_clip *walk)
{
    memset(m, 0, sizeof *m);
    m->mm = controller_desc(f);
    m->inputs[0] = 1, m->inputs[1] = 2;
    m->states[0] = (tdn_state_desc){ "move" };
    m->states[1] = (tdn_state_desc){ "walk" };
    m->to_walk = (tdn_condition_desc){ .param = "stop", .compare = TDN_COMPARE_TRUE };
    m->to_move = (tdn_condition_desc){ .param = "stop", .compare = TDN_COMPARE_FALSE };
    m->transitions[0] = (tdn_transition_desc){
        .from = 0, .to = 1, .duration = 0.5f, .conditions = &m->to_walk, .condition_count = 1
    };
    m->transitions[1] = (tdn_transition_desc){
        .from = 1, .to = 0, .duration = 0.4f, .conditions = &m->to_move, .condition_count = 1
    };
    m->sm = (tdn_state_machine_desc){ m->states, 2, m->transitions, 2, 0 };
    m->nodes[0] = (tdn_node_desc){
        .type = TDN_NODE_STATE_MACHINE, .inputs = m->inputs, .input_count = 2, .state_machine = &m->sm
    };
    m->nodes[1] = (tdn_node_desc){
        .type = TDN_NODE_MOTION_MATCH, .name = "mm", .motion_match = &m->mm, .velocity = "move", .facing = "turn"
    };
    m->nodes[2] = (tdn_node_desc){ .type = TDN_NODE_CLIP, .name = "walk", .clip = 0, .wrap = TDN_WRAP_LOOP };
    m->rm = root_motion_of(f);
    m->clips[0] = walk;
    m->gd = (tdn_graph_desc){ .skeleton = f->skeleton,
                              .clips = m->clips,
                              .clip_count = 1,
                              .params = params,
                              .param_count = 3,
                              .nodes = m->nodes,
                              .node_count = 3,
                              .root = 0,
                              .root_motion = &m->rm,
                              .extract_root_motion = 1,
                              .cull_threshold = -1.0f };
}

static void cross_fade_with_a_clip_state(const mm_fixture *f)
{
    tdn_clip *walk = runtime_clip(f, "walk_forward");
    machine_graph mg;
    machine_graph_make(&mg, f, walk);
    tdn_graph *g = NULL;
    tdn_graph_instance *in = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_graph_create(&mg.gd, &g, NULL, &err), TDN_OK)) {
        printf("%s: %s\n", err.where, err.message);
        return;
    }
    CHECK_EQ_INT(tdn_graph_instance_create(g, &in, NULL, NULL), TDN_OK);
    const int n = tdn_skeleton_joint_count(f->skeleton), root = f->desc.root;
    tdn_pose pg, pm, pw, expected, rest;
    tdn_pose_create(n, &pg, NULL, NULL);
    tdn_pose_create(n, &pm, NULL, NULL);
    tdn_pose_create(n, &pw, NULL, NULL);
    tdn_pose_create(n, &expected, NULL, NULL);
    tdn_pose_create(n, &rest, NULL, NULL);
    tdn_pose_set_rest(&rest, f->skeleton, NULL);
    tdn_root_track *track = NULL;
    CHECK_EQ_INT(tdn_root_track_create(walk, &mg.rm, &track, NULL, NULL), TDN_OK);
    tdn_player player = tdn_player_make(tdn_clip_duration(walk), TDN_WRAP_LOOP);
    bare b;
    bare_start(&b, &mg.mm);
    const float still[2] = { 0, 0 }, no_turn = 0;
    bare_update(&b, still, &no_turn, 0.0f, &pm);
    double poses = 0, motions = 0, weights = 0, times = 0;
    int fading = 0, only_clip = 0;
    character ch = { 0 };
    const int count = sizeof humanoid_path / sizeof humanoid_path[0];
    for (int k = 0; k < 9 * 60; k++) {
        const float t = (float)k * DT;
        float move[2], turn;
        stick(humanoid_path, count, t, &ch, move, &turn);
        drive(in, move, turn, t, 6.0f);
        tdn_graph_evaluate(in, &pg, NULL);
        tdn_root_motion m;
        tdn_graph_root_motion(in, &m, NULL);
        character_move(&ch, &m);
        /* the same made by hand: the controller (kept running), the clip, the machine's weights */
        bare_update(&b, move, &turn, DT, &pm);
        root_to_character(&pm, root, b.position, b.facing);
        const tdn_graph_event *events;
        const int event_count = tdn_graph_events(in, &events, NULL);
        for (int e = 0; e < event_count; e++) /* entering its state restarts the clip */
            if (events[e].type == TDN_EVENT_TRANSITION_STARTED && events[e].index == 0)
                tdn_player_set_time(&player, 0.0f);
        tdn_player_advance(&player, DT);
        times = fmax(times, fabs(player.time - tdn_graph_clip_time(in, 2)));
        tdn_clip_sample(walk, player.time, &pw, NULL);
        tdn_root_motion_remove(track, &pw, NULL);
        tdn_root_motion walk_motion;
        tdn_root_track_motion(track, &player, DT, &walk_motion, NULL);
        tdn_state_machine_status st;
        tdn_graph_state_machine_status(in, 0, &st, NULL);
        const float w_move = st.state == 0 ? st.transition_weight : 1.0f - st.transition_weight;
        const float w[2] = { 1.0f - w_move, w_move };
        fading += w[0] > 0.0f && w[1] > 0.0f;
        only_clip += w[1] == 0.0f;
        const tdn_blend_input layers[2] = { { &pw, w[0], NULL }, { &pm, w[1], NULL } };
        tdn_blend(&(tdn_blend_job){ layers, 2, NULL, 0, &rest, &expected }, NULL);
        poses = fmax(poses, pose_diff(&pg, &expected, -1, NULL, 0));
        const tdn_root_motion both[2] = { walk_motion, b.motion };
        tdn_root_motion blended;
        tdn_root_motion_blend(both, w, 2, &blended);
        motions = fmax(motions, motion_diff(&m, &blended));
        weights = fmax(weights, fabs(tdn_graph_node_weight(in, 1) - w[1]) + fabs(tdn_graph_node_weight(in, 2) - w[0]));
    }
    printf("(b) state machine: %d frames cross-fading, %d on the clip alone (the node kept simulating); output against "
           "the hand blend %.3g, root motion %.3g, weights %.3g, clip times %.3g\n",
           fading, only_clip, poses, motions, weights, times);
    CHECK(fading >= 50 && only_clip > 60);
    CHECK(poses <= 1e-6);
    CHECK(motions <= 1e-6);
    CHECK(weights <= 1e-6 && times == 0.0);
    tdn_mm_controller_destroy(b.c);
    tdn_root_track_destroy(track);
    tdn_pose_destroy(&pg);
    tdn_pose_destroy(&pm);
    tdn_pose_destroy(&pw);
    tdn_pose_destroy(&expected);
    tdn_pose_destroy(&rest);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    tdn_clip_destroy(walk);
}

/* (c) ---------------------------------------------------------------------------------------- */

static void masked_layer_over_a_clip(const mm_fixture *f)
{
    tdn_clip *walk = runtime_clip(f, "walk_forward");
    const tdn_clip *clips[1] = { walk };
    const int n = tdn_skeleton_joint_count(f->skeleton), root = f->desc.root;
    float *mask = calloc((size_t)tdn_pose_stride(n), sizeof(float));
    CHECK_EQ_INT(
        tdn_mask_set_subtree(mask, f->skeleton, tdn_skeleton_find_joint(f->skeleton, "spine_01"), 1.0f, 0, NULL),
        TDN_OK);
    const tdn_mm_controller_desc mm = controller_desc(f);
    const tdn_node_desc nodes[2] = {
        { .type = TDN_NODE_CLIP, .name = "walk", .clip = 0, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_MOTION_MATCH, .name = "mm", .motion_match = &mm, .velocity = "move", .facing = "turn" }
    };
    const tdn_layer_desc layers[2] = { { .name = "base", .root = 0 }, { .name = "upper", .root = 1, .mask = mask } };
    const tdn_root_track_desc rm = root_motion_of(f);
    tdn_graph_desc gd = { .skeleton = f->skeleton,
                          .clips = clips,
                          .clip_count = 1,
                          .params = params,
                          .param_count = 3,
                          .nodes = nodes,
                          .node_count = 2,
                          .layers = layers,
                          .layer_count = 2,
                          .root_motion = &rm,
                          .extract_root_motion = 1 };
    tdn_graph *g = NULL, *g0 = NULL;
    tdn_graph_instance *in = NULL, *in0 = NULL;
    CHECK_EQ_INT(tdn_graph_create(&gd, &g, NULL, NULL), TDN_OK);
    gd.layer_count = 1; /* the base alone */
    CHECK_EQ_INT(tdn_graph_create(&gd, &g0, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_graph_instance_create(g, &in, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_graph_instance_create(g0, &in0, NULL, NULL), TDN_OK);
    tdn_pose pg, p0, pm;
    tdn_pose_create(n, &pg, NULL, NULL);
    tdn_pose_create(n, &p0, NULL, NULL);
    tdn_pose_create(n, &pm, NULL, NULL);
    bare b;
    bare_start(&b, &mm);
    const float still[2] = { 0, 0 }, no_turn = 0;
    bare_update(&b, still, &no_turn, 0.0f, &pm);
    double outside = 0, inside = 0, motions = 0;
    int masked_out = 0;
    for (int j = 0; j < n; j++)
        masked_out += mask[j] == 0.0f;
    character ch = { 0 };
    const int count = sizeof humanoid_path / sizeof humanoid_path[0];
    for (int k = 0; k < 6 * 60; k++) {
        float move[2], turn;
        stick(humanoid_path, count, (float)k * DT, &ch, move, &turn);
        tdn_graph_set_vector_named(in, "move", move, NULL);
        tdn_graph_set_float_named(in, "turn", turn, NULL);
        tdn_graph_update(in, DT, NULL);
        tdn_graph_update(in0, DT, NULL);
        tdn_graph_evaluate(in, &pg, NULL);
        tdn_graph_evaluate(in0, &p0, NULL);
        tdn_root_motion m, m0;
        tdn_graph_root_motion(in, &m, NULL);
        tdn_graph_root_motion(in0, &m0, NULL);
        character_move(&ch, &m);
        bare_update(&b, move, &turn, DT, &pm);
        root_to_character(&pm, root, b.position, b.facing);
        outside = fmax(outside, pose_diff(&pg, &p0, -1, mask, 1));
        inside = fmax(inside, pose_diff(&pg, &pm, -1, mask, 0));
        motions = fmax(motions, memcmp(&m, &m0, sizeof m) != 0 ? 1.0 : 0.0);
    }
    printf("(c) masked layer: %d of %d joints outside the mask differ from the clip layer alone by %.3g and the root "
           "motion %s; inside, the pose is the controller's to %.3g\n",
           masked_out, n, outside, motions == 0.0 ? "is the same bits" : "differs", inside);
    CHECK(masked_out >= 10 && outside == 0.0 && motions == 0.0);
    CHECK(inside <= 1e-6);
    tdn_mm_controller_destroy(b.c);
    tdn_pose_destroy(&pg);
    tdn_pose_destroy(&p0);
    tdn_pose_destroy(&pm);
    tdn_graph_instance_destroy(in);
    tdn_graph_instance_destroy(in0);
    tdn_graph_destroy(g);
    tdn_graph_destroy(g0);
    free(mask);
    tdn_clip_destroy(walk);
}

/* (d) ---------------------------------------------------------------------------------------- */

static void frames_never_allocate(const mm_fixture *f)
{
    tdn_clip *walk = runtime_clip(f, "walk_forward");
    machine_graph mg;
    machine_graph_make(&mg, f, walk);
    const long blocks = live_blocks;
    tdn_graph *g = NULL;
    tdn_graph_instance *created = NULL, *placed = NULL;
    CHECK_EQ_INT(tdn_graph_create(&mg.gd, &g, &counting, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_graph_instance_create(g, &created, &counting, NULL), TDN_OK);
    const size_t bytes = tdn_graph_instance_bytes(g);
    void *memory = aligned_alloc(TDN_GRAPH_INSTANCE_ALIGN, (bytes + TDN_GRAPH_INSTANCE_ALIGN - 1) /
                                                               TDN_GRAPH_INSTANCE_ALIGN * TDN_GRAPH_INSTANCE_ALIGN);
    CHECK_EQ_INT(tdn_graph_instance_init(g, memory, bytes, &placed, NULL), TDN_OK);
    /* the placed instance has no workspace: one in caller memory too */
    const size_t ws_bytes = tdn_graph_workspace_bytes((const tdn_graph *const[]){ g }, 1);
    void *ws_memory = aligned_alloc(TDN_GRAPH_WORKSPACE_ALIGN, (ws_bytes + 63) / 64 * 64);
    tdn_graph_workspace *ws = NULL;
    CHECK_EQ_INT(tdn_graph_workspace_init((const tdn_graph *const[]){ g }, 1, ws_memory, ws_bytes, &ws, NULL), TDN_OK);
    const int n = tdn_skeleton_joint_count(f->skeleton);
    tdn_pose a, b, va, vb;
    tdn_pose_create(n, &a, NULL, NULL);
    tdn_pose_create(n, &b, NULL, NULL);
    tdn_pose_create(n, &va, NULL, NULL);
    tdn_pose_create(n, &vb, NULL, NULL);
    const long before = total_allocations;
    int same = 1;
    double fastest = 0;
    character ch = { 0 };
    const int count = sizeof humanoid_path / sizeof humanoid_path[0];
    for (int k = 0; k < 10 * 60; k++) {
        const float t = (float)k * DT;
        float move[2], turn;
        stick(humanoid_path, count, t, &ch, move, &turn);
        tdn_graph_instance *both[2] = { created, placed };
        for (int i = 0; i < 2; i++) {
            drive(both[i], move, turn, t, 5.0f);
            if (i) {
                tdn_graph_evaluate_with(placed, ws, &b, NULL);
                tdn_graph_joint_velocities_with(placed, ws, &vb, NULL);
            } else {
                tdn_graph_evaluate(created, &a, NULL);
                tdn_graph_joint_velocities(created, &va, NULL);
            }
        }
        tdn_root_motion m;
        tdn_graph_root_motion(created, &m, NULL);
        character_move(&ch, &m);
        same &= memcmp(a.data, b.data, tdn_pose_bytes(n)) == 0 && memcmp(va.data, vb.data, tdn_pose_bytes(n)) == 0;
        for (int j = 0; j < n; j++) /* the velocities are those of a walking body: finite, bounded */
            fastest = fmax(fastest, fabs(tdn_pose_get(&va, j).t.z));
    }
    printf("(d) 600 frames of two instances (one created, one in caller memory): %ld allocations, the same bits: %s; "
           "fastest joint %.2f m/s\n",
           total_allocations - before, same ? "yes" : "no", fastest);
    CHECK_EQ_INT(total_allocations, before);
    CHECK(same);
    CHECK(fastest > 0.1 && fastest < 20.0);
    tdn_graph_instance_destroy(created);
    tdn_graph_destroy(g);
    CHECK_EQ_INT(live_blocks, blocks); /* the controller lives in the instance's memory */
    free(memory);
    free(ws_memory);
    tdn_pose_destroy(&a);
    tdn_pose_destroy(&b);
    tdn_pose_destroy(&va);
    tdn_pose_destroy(&vb);
    tdn_clip_destroy(walk);
}

/* A controller's world moved towards the origin (what the node does to a character far out) is
 * moved exactly, and plays on as before. */
static void translating_a_controller_is_exact(const mm_fixture *f, int foot_locking)
{
    tdn_mm_controller_desc mm = controller_desc(f);
    mm.foot_locking = foot_locking; /* planted feet must stay planted across the move */
    bare a, b;
    bare_start(&a, &mm);
    bare_start(&b, &mm);
    const tdn_vec3 far = tdn_vec3_make(1000.3f, 0.0f, -700.7f), shift = tdn_vec3_make(-1024.0f, 0.0f, 768.0f);
    const int start = tdn_mm_database_clip_first_frame(f->db, 1, 0); /* walking */
    CHECK_EQ_INT(tdn_mm_controller_reset(a.c, start, far, 0.5f, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_mm_controller_reset(b.c, start, far, 0.5f, NULL), TDN_OK);
    a.position = b.position = far;
    a.facing = b.facing = a.goal = b.goal = 0.5f;
    const int n = tdn_skeleton_joint_count(f->skeleton);
    tdn_pose pa, pb;
    tdn_pose_create(n, &pa, NULL, NULL);
    tdn_pose_create(n, &pb, NULL, NULL);
    const float move[2] = { 0.0f, 1.4f }, turn = 0.0f;
    for (int k = 0; k < 30; k++) {
        bare_update(&a, move, &turn, DT, &pa);
        bare_update(&b, move, &turn, DT, &pb);
    }
    CHECK_EQ_INT(tdn_mm_controller_translate(a.c, shift, NULL), TDN_OK);
    tdn_vec3 ta[TDN_MM_MAX_OFFSETS], tb[TDN_MM_MAX_OFFSETS];
    const int offsets = tdn_mm_controller_trajectory(a.c, ta, NULL, TDN_MM_MAX_OFFSETS);
    tdn_mm_controller_trajectory(b.c, tb, NULL, TDN_MM_MAX_OFFSETS);
    int exact = offsets > 0;
    for (int k = 0; k < offsets; k++)
        exact &= ta[k].x == tb[k].x + shift.x && ta[k].z == tb[k].z + shift.z;
    a.position = tdn_vec3_add(a.position, shift);
    bare_update(&a, move, &turn, DT, &pa);
    bare_update(&b, move, &turn, DT, &pb);
    const double joints = pose_diff(&pa, &pb, f->desc.root, NULL, 0);
    const tdn_vec3 ra = tdn_pose_get(&pa, f->desc.root).t, rb = tdn_pose_get(&pb, f->desc.root).t;
    const double root = fmax(fabs((double)ra.x - shift.x - rb.x), fabs((double)ra.z - shift.z - rb.z));
    printf("translated controller (foot locking %s): trajectory moved exactly: %s; the next frame's joints but the "
           "root differ by %.3g, the root by %.3g m (rounding 1 km out)\n",
           foot_locking ? "on" : "off", exact ? "yes" : "no", joints, root);
    /* with foot locking the locks' world positions round 1 km out (4e-5 measured); a lock let go
     * at the move instead (a reset) turns the legs by 0.08 */
    CHECK(exact && (foot_locking ? joints <= 1e-3 : joints == 0.0) && root <= 2e-4);
    CHECK_EQ_INT(tdn_mm_controller_translate(a.c, tdn_vec3_make(NAN, 0, 0), NULL), TDN_ERR_ARGUMENT);
    tdn_mm_controller_destroy(a.c);
    tdn_mm_controller_destroy(b.c);
    tdn_pose_destroy(&pa);
    tdn_pose_destroy(&pb);
}

/* A character that runs far: the node keeps its controller near the origin (whole multiples of
 * 256 m at a time), so the motion it reports never jumps and keeps its precision. */
static void running_far(const mm_fixture *f)
{
    const tdn_mm_controller_desc mm = controller_desc(f);
    const tdn_node_desc node = { .type = TDN_NODE_MOTION_MATCH, .motion_match = &mm, .velocity = "move" };
    const tdn_root_track_desc rm = root_motion_of(f);
    const tdn_graph_desc gd = { .skeleton = f->skeleton,
                                .params = params,
                                .param_count = 3,
                                .nodes = &node,
                                .node_count = 1,
                                .root_motion = &rm,
                                .extract_root_motion = 1 };
    tdn_graph *g = NULL;
    tdn_graph_instance *in = NULL;
    CHECK_EQ_INT(tdn_graph_create(&gd, &g, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_graph_instance_create(g, &in, NULL, NULL), TDN_OK);
    tdn_pose pose;
    tdn_pose_create(tdn_skeleton_joint_count(f->skeleton), &pose, NULL, NULL);
    const segment run[] = { { 100, 3.5f, 30, 30 } };
    character ch = { 0 };
    double longest = 0, shortest = 1;
    for (int k = 0; k < 100 * 60; k++) {
        float move[2], turn;
        stick(run, 1, (float)k * DT, &ch, move, &turn);
        tdn_graph_set_vector_named(in, "move", move, NULL);
        tdn_graph_update(in, DT, NULL);
        tdn_graph_evaluate(in, &pose, NULL);
        tdn_root_motion m;
        tdn_graph_root_motion(in, &m, NULL);
        character_move(&ch, &m);
        const double step = tdn_vec3_length(m.translation);
        if (k >= 120) { /* running by then */
            longest = fmax(longest, step);
            shortest = fmin(shortest, step);
        }
    }
    const double along = ch.x * sin(30 * DEG) + ch.z * cos(30 * DEG),
                 aside = ch.x * cos(30 * DEG) - ch.z * sin(30 * DEG);
    printf("running 100 s: %.1f m along the heading (%.1f m aside); steps %.4f-%.4f m a frame (3.5 m/s is %.4f)\n",
           along, aside, shortest, longest, 3.5 / 60);
    CHECK(fabs(along - 350.0) < 0.05 * 350.0 && fabs(aside) < 1.0);
    CHECK(longest < 1.5 * 3.5 / 60 && shortest > 0.5 * 3.5 / 60);
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
}

/* Descriptions the core refuses, named by node. */
static void bad_descriptions(const mm_fixture *f)
{
    tdn_mm_controller_desc mm = controller_desc(f);
    tdn_node_desc node = { .type = TDN_NODE_MOTION_MATCH, .name = "mm", .motion_match = &mm, .velocity = "move" };
    tdn_root_track_desc rm = root_motion_of(f);
    tdn_graph_desc gd = { .skeleton = f->skeleton,
                          .params = params,
                          .param_count = 3,
                          .nodes = &node,
                          .node_count = 1,
                          .root_motion = &rm,
                          .extract_root_motion = 1 };
    struct {
        const char *what, *where, *says;
    } cases[] = {
        { "no root motion", "nodes[0] 'mm'", "needs root motion" },
        { "root motion on another joint", "nodes[0] 'mm'", "root motion must be the database's" },
        { "a float velocity", "nodes[0] 'mm'", "velocity 'turn' is not a vec2" },
        { "a vec2 facing", "nodes[0] 'mm'", "facing 'move' is not a float" },
        { "a clip missing", "nodes[0] 'mm' motion_match.clip_count", "clips for a database of" },
        { "no description", "nodes[0] 'mm'", "controller description" },
        { "no velocity", "nodes[0] 'mm'", "needs its velocity" },
        { "a database made from features", "nodes[0] 'mm' motion_match.database", "made from features" },
    };
    const float features[2] = { 0.0f, 1.0f };
    tdn_mm_database *from_features = NULL;
    CHECK_EQ_INT(tdn_mm_database_create_from_features(
                     &(tdn_mm_features_desc){ .frame_count = 2, .dimensions = 1, .features = features }, &from_features,
                     NULL, NULL),
                 TDN_OK);
    for (int k = 0; k < (int)(sizeof cases / sizeof cases[0]); k++) {
        tdn_mm_controller_desc m = mm;
        tdn_node_desc d = node;
        tdn_root_track_desc r = rm;
        tdn_graph_desc g = gd;
        d.motion_match = &m;
        g.nodes = &d;
        g.root_motion = k == 0 ? NULL : &r;
        if (k == 1)
            r.joint = 1;
        if (k == 2)
            d.velocity = "turn";
        if (k == 3)
            d.facing = "move";
        if (k == 4)
            m.clip_count--;
        if (k == 5)
            d.motion_match = NULL;
        if (k == 6)
            d.velocity = NULL;
        if (k == 7)
            m.database = from_features;
        tdn_graph *out = NULL;
        tdn_error err = { 0 };
        const tdn_result result = tdn_graph_create(&g, &out, NULL, &err);
        int ok = CHECK(result != TDN_OK && out == NULL) & CHECK(strcmp(err.where, cases[k].where) == 0) &
                 CHECK(strstr(err.message, cases[k].says) != NULL);
        if (!ok)
            printf("%s: %s: %s\n", cases[k].what, err.where, err.message);
    }
    tdn_mm_database_destroy(from_features);
}

/* (e) ---------------------------------------------------------------------------------------- */

static const char *const mm_clip_list =
    "[\"idle\", \"walk_forward\", \"run_forward\", \"walk_backward\", \"strafe_left\", \"strafe_right\", \"turn_left\", "
    "\"turn_right\"]";

/* A document of the machine above: `mm` is the motion_match node's fields after its type,
 * `extra` more top-level keys (each with its comma). */
static int document(char *out, size_t size, const char *mm, const char *extra)
{
    return snprintf(
        out, size,
        "{\"character\": {\"generated\": \"humanoid\"},\n"
        " \"parameters\": [{\"name\": \"move\", \"type\": \"vec2\"}, {\"name\": \"turn\"},\n"
        "                {\"name\": \"stop\", \"type\": \"bool\"}],\n"
        " %s\n"
        " \"nodes\": {\"mm\": {\"type\": \"motion_match\", %s}},\n"
        " \"root\": {\"type\": \"state_machine\",\n"
        "          \"states\": [{\"name\": \"move\", \"node\": \"mm\"},\n"
        "                     {\"name\": \"walk\", \"node\": {\"type\": \"clip\", \"clip\": \"walk_forward\"}}],\n"
        "          \"transitions\": [{\"from\": \"move\", \"to\": \"walk\", \"duration\": 0.5, \"conditions\": "
        "[{\"param\": \"stop\"}]},\n"
        "                          {\"from\": \"walk\", \"to\": \"move\", \"duration\": 0.4, \"conditions\": "
        "[{\"param\": \"stop\", \"op\": \"false\"}]}]},\n"
        " \"cull_threshold\": -1}\n",
        extra, mm);
}

static void documents(const mm_fixture *f)
{
    char dir[] = "/tmp/tendon_graph_mm_XXXXXX", db_path[256], junk_path[256];
    if (!CHECK(mkdtemp(dir) != NULL))
        return;
    snprintf(db_path, sizeof db_path, "%s/humanoid.tdnmm", dir);
    snprintf(junk_path, sizeof junk_path, "%s/junk.tdnmm", dir);
    CHECK_EQ_INT(tdn_mm_database_save(f->db, db_path, NULL), TDN_OK);
    FILE *junk = fopen(junk_path, "wb");
    fputs("not a database", junk);
    fclose(junk);

    /* the document runs like the graph made in C, bit for bit */
    char mm[1024], text[4096];
    snprintf(mm, sizeof mm,
             "\"database\": \"humanoid.tdnmm\", \"clips\": %s, \"velocity\": \"move\", \"facing\": \"turn\", "
             "\"bias\": 0.05",
             mm_clip_list);
    document(text, sizeof text, mm, "\"root_motion\": {\"joint\": \"root\"},");
    tdn_graph_document *doc = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_graph_document_load_memory(
                          text, strlen(text), &(tdn_graph_document_load_options){ .base_dir = dir }, &doc, NULL, &err),
                      TDN_OK)) {
        printf("%s: %s\n", err.where, err.message);
    } else {
        tdn_clip *walk = runtime_clip(f, "walk_forward");
        machine_graph mg;
        machine_graph_make(&mg, f, walk);
        tdn_graph *g = NULL;
        CHECK_EQ_INT(tdn_graph_create(&mg.gd, &g, NULL, NULL), TDN_OK);
        tdn_graph_instance *a = NULL, *b = NULL;
        CHECK_EQ_INT(tdn_graph_instance_create(tdn_graph_document_graph(doc), &a, NULL, NULL), TDN_OK);
        CHECK_EQ_INT(tdn_graph_instance_create(g, &b, NULL, NULL), TDN_OK);
        const int n = tdn_skeleton_joint_count(f->skeleton);
        tdn_pose pa, pb;
        tdn_pose_create(n, &pa, NULL, NULL);
        tdn_pose_create(n, &pb, NULL, NULL);
        int same = 1;
        character ch = { 0 };
        const int count = sizeof humanoid_path / sizeof humanoid_path[0];
        for (int k = 0; k < 8 * 60; k++) {
            const float t = (float)k * DT;
            float move[2], turn;
            stick(humanoid_path, count, t, &ch, move, &turn);
            tdn_graph_instance *both[2] = { a, b };
            tdn_root_motion m[2];
            for (int i = 0; i < 2; i++) {
                drive(both[i], move, turn, t, 5.0f);
                tdn_graph_evaluate(both[i], i ? &pb : &pa, NULL);
                tdn_graph_root_motion(both[i], &m[i], NULL);
            }
            character_move(&ch, &m[0]);
            same &= memcmp(pa.data, pb.data, tdn_pose_bytes(n)) == 0 && memcmp(&m[0], &m[1], sizeof m[0]) == 0;
        }
        printf("(e) the document's graph and the one built in C: the same bits for 480 frames: %s\n",
               same ? "yes" : "no");
        CHECK(same);
        tdn_pose_destroy(&pa);
        tdn_pose_destroy(&pb);
        tdn_graph_instance_destroy(a);
        tdn_graph_instance_destroy(b);
        tdn_graph_destroy(g);
        tdn_clip_destroy(walk);
        tdn_graph_document_destroy(doc);
    }

    /* the document owns its database: every allocation failing in turn leaves nothing behind */
    {
        const long blocks = live_blocks;
        int failures = 0, clean = 1;
        tdn_result r = TDN_ERR_OUT_OF_MEMORY;
        for (long n = 0; r == TDN_ERR_OUT_OF_MEMORY && n < 10000; n++) {
            allocations_before_failure = n;
            doc = NULL;
            r = tdn_graph_document_load_memory(
                text, strlen(text), &(tdn_graph_document_load_options){ .base_dir = dir }, &doc, &counting, NULL);
            allocations_before_failure = -1;
            failures += r == TDN_ERR_OUT_OF_MEMORY;
            clean &= r == TDN_OK || (doc == NULL && live_blocks == blocks);
        }
        CHECK_EQ_INT(r, TDN_OK);
        tdn_graph_document_destroy(doc);
        printf("(e) %d failing allocations while loading, each cleaned up: %s; all freed after: %s\n", failures,
               clean ? "yes" : "no", live_blocks == blocks ? "yes" : "no");
        CHECK(clean && failures > 10 && live_blocks == blocks);
    }

    /* bad documents: the JSON path, and the nearest name where one was misspelt */
    static const char *const good_root_motion = "\"root_motion\": {\"joint\": \"root\"},";
    struct {
        const char *mm_fields, *extra, *where, *says;
    } cases[] = {
        { "\"database\": \"humanoid.tdnmm\", \"clips\": %s, \"velocty\": \"move\"", NULL, "nodes.mm.velocty",
          "did you mean \"velocity\"" },
        { "\"database\": \"humanoid.tdnmm\", \"clips\": %s, \"velocity\": \"mvoe\"", NULL, "nodes.mm.velocity",
          "did you mean \"move\"" },
        { "\"database\": \"humanoid.tdnmm\", \"clips\": %s, \"velocity\": \"turn\"", NULL, "nodes.mm.velocity",
          "is a float parameter; the velocity is a vec2" },
        { "\"database\": \"humanoid.tdnmm\", \"clips\": %s, \"velocity\": \"move\", \"facing\": \"move\"", NULL,
          "nodes.mm.facing", "is a vec2 parameter; the facing is a float" },
        { "\"clips\": %s, \"velocity\": \"move\"", NULL, "nodes.mm.database", "required field 'database'" },
        { "\"database\": \"missing.tdnmm\", \"clips\": %s, \"velocity\": \"move\"", NULL,
          "nodes.mm.database (missing.tdnmm)", "cannot open" },
        { "\"database\": \"junk.tdnmm\", \"clips\": %s, \"velocity\": \"move\"", NULL,
          "nodes.mm.database (junk.tdnmm): byte 0", "TDNMMDB" },
        { "\"database\": \"../humanoid.tdnmm\", \"clips\": %s, \"velocity\": \"move\"", NULL,
          "nodes.mm.database (../humanoid.tdnmm)", "'..' leads outside the document's folder" },
        { "\"database\": \"humanoid.tdnmm\", \"clips\": [\"idle\"], \"velocity\": \"move\"%.0s", NULL, "nodes.mm.clips",
          "1 clip for a database built from 8" },
        { "\"database\": \"humanoid.tdnmm\", \"clips\": [\"idle\", \"walk_forward\", \"run_froward\", \"walk_backward\", "
          "\"strafe_left\", \"strafe_right\", \"turn_left\", \"turn_right\"], \"velocity\": \"move\"%.0s",
          NULL, "nodes.mm.clips[2]", "did you mean \"run_forward\"" },
        { "\"database\": \"humanoid.tdnmm\", \"clips\": %s, \"velocity\": \"move\", \"curve\": \"quintc\"", NULL,
          "nodes.mm.curve", "did you mean \"quintic\"" },
        { "\"database\": \"humanoid.tdnmm\", \"clips\": %s, \"velocity\": \"move\", \"bias\": -1", NULL,
          "nodes.mm.bias", ">= 0" },
        { "\"database\": \"humanoid.tdnmm\", \"clips\": %s, \"velocity\": \"move\"", "", "nodes.mm",
          "needs root motion" },
        { "\"database\": \"humanoid.tdnmm\", \"clips\": %s, \"velocity\": \"move\"",
          "\"root_motion\": {\"joint\": \"pelvis\"},", "nodes.mm", "root motion must be the database's" },
        { "\"database\": \"humanoid.tdnmm\", \"clips\": %s, \"velocity\": \"move\"",
          "\"clips\": [{\"name\": \"idle\", \"additive\": {\"reference\": \"rest\"}}],", "nodes.mm.clips[0]",
          "made additive" },
    };
    const int case_count = sizeof cases / sizeof cases[0];
    for (int k = 0; k < case_count; k++) {
        snprintf(mm, sizeof mm, cases[k].mm_fields, mm_clip_list);
        document(text, sizeof text, mm, cases[k].extra ? cases[k].extra : good_root_motion);
        doc = NULL;
        memset(&err, 0, sizeof err);
        const tdn_result r = tdn_graph_document_load_memory(
            text, strlen(text), &(tdn_graph_document_load_options){ .base_dir = dir }, &doc, NULL, &err);
        int ok = CHECK(r != TDN_OK && doc == NULL) &
                 CHECK(strncmp(err.where, cases[k].where, strlen(cases[k].where)) == 0) &
                 CHECK(strstr(err.message, cases[k].says) != NULL);
        if (!ok || getenv("VERBOSE"))
            printf("(e) case %d: %s: %s\n", k, err.where, err.message);
    }
    snprintf(mm, sizeof mm, "\"database\": \"humanoid.tdnmm\", \"clips\": %s, \"velocity\": \"move\"", mm_clip_list);
    document(text, sizeof text, mm, good_root_motion);
    memset(&err, 0, sizeof err);
    CHECK(tdn_graph_document_load_memory(text, strlen(text), NULL, &doc, NULL, &err) == TDN_ERR_ARGUMENT &&
          strcmp(err.where, "nodes.mm.database (humanoid.tdnmm)") == 0);
    remove(db_path);
    remove(junk_path);
    rmdir(dir);
}

int main(void)
{
    mm_fixture f;
    if (mm_fixture_humanoid(&f, 1)) {
        const int count = sizeof humanoid_path / sizeof humanoid_path[0];
        RUN_ARGS(node_alone_is_the_controller(&f, "humanoid", humanoid_path, count, 1));
        RUN_ARGS(node_alone_is_the_controller(&f, "humanoid", humanoid_path, count, 0));
        RUN_ARGS(cross_fade_with_a_clip_state(&f));
        RUN_ARGS(masked_layer_over_a_clip(&f));
        RUN_ARGS(frames_never_allocate(&f));
        RUN_ARGS(translating_a_controller_is_exact(&f, 0));
        RUN_ARGS(translating_a_controller_is_exact(&f, 1));
        RUN_ARGS(running_far(&f));
        RUN_ARGS(bad_descriptions(&f));
        RUN_ARGS(documents(&f));
        mm_fixture_free(&f);
    }
    if (mm_fixture_lafan1(&f)) {
        RUN_ARGS(
            node_alone_is_the_controller(&f, "LAFAN1", lafan1_path, sizeof lafan1_path / sizeof lafan1_path[0], 1));
        mm_fixture_free(&f);
    }
    return check_summary();
}
