/* Retargeted graph instances (graph.h, "retargeted instances"): graphs on tendon's humanoid
 * driving the humanoid made 1.5 m tall instead of 1.8 m, and a rig of legs alone.
 *   (a) a retargeted instance's pose is tdn_retarget_pose of the graph's own pose: a plain
 *       instance of the same graph, run side by side, is retargeted by hand and compared joint
 *       by joint (exactly), and tdn_graph_source_pose is that plain pose; its root motion is the
 *       plain one with translation and velocity times tdn_retarget_scale, which is 1.5 / 1.8
 *       (every length of the humanoid scales with its height); its frames allocate nothing;
 *   (b) motion matching steered along a path with turns drives the smaller humanoid: placed in
 *       the world by its own integrated root motion, every joint below its root is where the
 *       source's is, scaled by 1.5 / 1.8 about the world's origin (a copy at another scale
 *       moves as a scaled copy);
 *   (c) an instance in caller memory: its size, too little memory, and the same frames as a
 *       created one;
 *   (d) refusals: a retarget made from another skeleton names `retarget`, an output pose of the
 *       graph's skeleton names `out`;
 *   (e) graph documents with "retarget": the character they drive, the scale given or the leg
 *       ratio, the same frames as a graph built by hand; every mistake named by its JSON path
 *       (and file), nothing left allocated. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "mm_fixture.h"
#include "tendon/io/graph_document.h"
#include "tendon/io/humanoid.h"
#include "write_file.h"

enum { FRAMES = 240 };
static const float DT = 1.0f / 60.0f;

/* A humanoid `height` m tall and its body map. */
typedef struct character {
    tdn_asset *asset;
    const tdn_skeleton *skel;
    tdn_body_map map;
} character;

static int character_make(float height, character *c)
{
    tdn_humanoid_desc desc = { .height = height };
    memset(c, 0, sizeof *c);
    if (!CHECK_EQ_INT(tdn_humanoid_create(&desc, &c->asset, NULL, NULL), TDN_OK))
        return 0;
    c->skel = tdn_asset_skeleton(c->asset);
    return CHECK_EQ_INT(tdn_body_map_find(c->skel, NULL, &c->map, NULL), TDN_OK);
}

static tdn_retarget *retarget_make(const character *from, const character *to, const tdn_allocator *allocator)
{
    const tdn_retarget_desc desc = { .source = { .skeleton = from->skel, .map = &from->map },
                                     .target = { .skeleton = to->skel, .map = &to->map } };
    tdn_retarget *rt = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_retarget_create(&desc, &rt, allocator, &err), TDN_OK))
        printf("retarget: %s: %s\n", err.where, err.message);
    return rt;
}

/* The largest difference between two poses' values. */
static double pose_diff(const tdn_pose *a, const tdn_pose *b)
{
    double worst = 0;
    for (int r = 0; r < TDN_POSE_ROWS; r++)
        for (int j = 0; j < a->joint_count; j++)
            worst = fmax(worst, fabs((double)tdn_pose_crow(a, r)[j] - tdn_pose_crow(b, r)[j]));
    return worst;
}

static tdn_clip *runtime_clip(const tdn_asset *asset, const char *name)
{
    tdn_clip *clip = NULL;
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = tdn_asset_clip(asset, tdn_asset_find_clip(asset, name)) },
                                 &clip, NULL, NULL),
                 TDN_OK);
    return clip;
}

/* A walk fading into a run by "speed", the root's motion extracted. */
typedef struct walk_run {
    tdn_clip *clips[2];
    tdn_graph *graph;
} walk_run;

static int walk_run_make(const character *c, walk_run *w)
{
    w->clips[0] = runtime_clip(c->asset, "walk_forward");
    w->clips[1] = runtime_clip(c->asset, "run_forward");
    const tdn_param_desc param = { .name = "speed", .half_life = 0.2f };
    const int inputs[2] = { 0, 1 };
    const tdn_node_desc nodes[3] = {
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP, .sync_group = "feet" },
        { .type = TDN_NODE_CLIP, .clip = 1, .wrap = TDN_WRAP_LOOP, .sync_group = "feet" },
        { .type = TDN_NODE_BLEND2, .inputs = inputs, .input_count = 2, .value = { .param = "speed" } }
    };
    const tdn_root_track_desc rm = { .joint = tdn_skeleton_find_joint(c->skel, "root") };
    const tdn_graph_desc gd = { .skeleton = c->skel,
                                .clips = (const tdn_clip *const *)w->clips,
                                .clip_count = 2,
                                .params = &param,
                                .param_count = 1,
                                .nodes = nodes,
                                .node_count = 3,
                                .root = 2,
                                .root_motion = &rm,
                                .extract_root_motion = 1 };
    return CHECK_EQ_INT(tdn_graph_create(&gd, &w->graph, NULL, NULL), TDN_OK);
}

static void walk_run_free(walk_run *w)
{
    tdn_graph_destroy(w->graph);
    tdn_clip_destroy(w->clips[0]);
    tdn_clip_destroy(w->clips[1]);
}

/* (a) ---------------------------------------------------------------------------------------- */

static void side_by_side(const character *big, const character *small)
{
    walk_run w = { 0 };
    tdn_retarget *rt = retarget_make(big, small, NULL);
    if (!rt || !walk_run_make(big, &w)) {
        tdn_retarget_destroy(rt);
        walk_run_free(&w);
        return;
    }
    const float scale = tdn_retarget_scale(rt);
    CHECK_NEAR(scale, 1.5 / 1.8, 1e-5);
    tdn_graph_instance *plain = NULL, *retargeted = NULL;
    tdn_pose source, expected, out;
    const int ns = tdn_skeleton_joint_count(big->skel), nt = tdn_skeleton_joint_count(small->skel);
    CHECK_EQ_INT(tdn_graph_instance_create(w.graph, &plain, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_graph_instance_create_retargeted(w.graph, rt, &retargeted, &counting, NULL), TDN_OK);
    tdn_pose_create(ns, &source, NULL, NULL);
    tdn_pose_create(nt, &expected, NULL, NULL);
    tdn_pose_create(nt, &out, NULL, NULL);
    CHECK(tdn_graph_instance_retarget(retargeted) == rt && tdn_graph_instance_retarget(plain) == NULL);
    CHECK(tdn_graph_source_pose(plain) == NULL);
    const tdn_pose *kept = tdn_graph_source_pose(retargeted);
    CHECK(kept != NULL && kept->joint_count == ns);

    const long allocations = total_allocations;
    double poses = 0, sources = 0, motions = 0, travel[2] = { 0, 0 };
    int evaluated = 1;
    for (int f = 0; f < FRAMES && evaluated; f++) {
        const float speed = f < FRAMES / 3 ? 0.0f : 1.0f; /* walk, then run */
        tdn_graph_instance *both[2] = { plain, retargeted };
        tdn_root_motion m[2];
        for (int k = 0; k < 2; k++) {
            tdn_graph_set_float(both[k], 0, speed, NULL);
            evaluated &= CHECK_EQ_INT(tdn_graph_update(both[k], f ? DT : 0.0f, NULL), TDN_OK);
            evaluated &= CHECK_EQ_INT(tdn_graph_evaluate(both[k], k ? &out : &source, NULL), TDN_OK);
            tdn_graph_root_motion(both[k], &m[k], NULL);
            travel[k] += tdn_vec3_length(m[k].translation);
        }
        tdn_retarget_pose(rt, &source, &expected, NULL);
        poses = fmax(poses, pose_diff(&out, &expected));
        sources = fmax(sources, pose_diff(kept, &source));
        const tdn_vec3 t = tdn_vec3_scale(m[0].translation, scale), v = tdn_vec3_scale(m[0].linear_velocity, scale);
        motions = fmax(motions, tdn_vec3_length(tdn_vec3_sub(m[1].translation, t)));
        motions = fmax(motions, tdn_vec3_length(tdn_vec3_sub(m[1].linear_velocity, v)));
        motions = fmax(motions, tdn_vec3_length(tdn_vec3_sub(m[1].angular_velocity, m[0].angular_velocity)));
        motions = fmax(motions, 1.0 - fabs(tdn_quat_dot(m[1].rotation, m[0].rotation)));
    }
    printf("(a) walk then run, %d frames: the retargeted pose differs from tdn_retarget_pose of the plain one by %.3g, "
           "its source pose by %.3g, root motion from the plain one's scaled (%.4f) by %.3g; travelled %.3f m vs %.3f "
           "m\n",
           FRAMES, poses, sources, (double)scale, motions, travel[1], travel[0]);
    CHECK(evaluated);
    CHECK(poses == 0.0);
    CHECK(sources == 0.0);
    CHECK(motions == 0.0);
    CHECK(travel[0] > 3.0);                       /* it went somewhere: the run is 3.5 m/s */
    CHECK_EQ_INT(total_allocations, allocations); /* no allocation in any frame */
    tdn_graph_instance_destroy(retargeted);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_graph_instance_destroy(plain);
    tdn_pose_destroy(&source);
    tdn_pose_destroy(&expected);
    tdn_pose_destroy(&out);
    walk_run_free(&w);
    tdn_retarget_destroy(rt);
}

/* (b) ---------------------------------------------------------------------------------------- */

/* Where the character stands: its position on the ground and its facing (a yaw). */
typedef struct placed {
    tdn_vec3 position;
    tdn_quat facing;
} placed;

static void place_move(placed *p, const tdn_root_motion *m)
{
    p->position = tdn_vec3_add(p->position, tdn_quat_rotate(p->facing, m->translation));
    p->facing = tdn_quat_normalize(tdn_quat_mul(p->facing, m->rotation));
}

/* Joint positions in the world: model space placed where the character stands. */
static void world_joints(const tdn_skeleton *skel, const tdn_pose *pose, const placed *p, tdn_mat4 *model)
{
    const tdn_transform x = { p->position, p->facing, { 1, 1, 1 } };
    const tdn_mat4 world = tdn_transform_to_mat4(&x);
    tdn_model_space(skel, pose, &world, model, NULL);
}

static void motion_matching_scaled(const mm_fixture *f, const character *big, const character *small)
{
    tdn_retarget *rt = retarget_make(big, small, NULL);
    const tdn_mm_controller_desc mm = { .database = f->db,
                                        .skeleton = f->skeleton,
                                        .clips = f->clips,
                                        .clip_count = f->clip_count,
                                        .mirror_table = f->mirror,
                                        .bias = 0.05f };
    const tdn_param_desc params[] = { { .name = "move", .type = TDN_PARAM_VEC2 } };
    const tdn_node_desc node = { .type = TDN_NODE_MOTION_MATCH, .motion_match = &mm, .velocity = "move" };
    const tdn_root_track_desc rm = { .joint = f->desc.root };
    const tdn_graph_desc gd = { .skeleton = f->skeleton,
                                .params = params,
                                .param_count = 1,
                                .nodes = &node,
                                .node_count = 1,
                                .root_motion = &rm,
                                .extract_root_motion = 1 };
    tdn_graph *g = NULL;
    tdn_graph_instance *in = NULL;
    const int ns = tdn_skeleton_joint_count(big->skel), nt = tdn_skeleton_joint_count(small->skel);
    tdn_mat4 *ms = malloc(sizeof(tdn_mat4) * (size_t)ns), *mt = malloc(sizeof(tdn_mat4) * (size_t)nt);
    tdn_pose out;
    tdn_pose_create(nt, &out, NULL, NULL);
    if (rt && ms && mt && CHECK_EQ_INT(tdn_graph_create(&gd, &g, NULL, NULL), TDN_OK) &&
        CHECK_EQ_INT(tdn_graph_instance_create_retargeted(g, rt, &in, &counting, NULL), TDN_OK)) {
        const float scale = tdn_retarget_scale(rt);
        const int root = f->desc.root;
        placed source = { { 0, 0, 0 }, { 0, 0, 0, 1 } }, target = source;
        double worst = 0, reach = 0;
        int turns = 0;
        const long allocations = total_allocations;
        for (int k = 0; k < 7 * 60; k++) {
            /* forward, then a stick held to the left and back: the character turns */
            const float move[2] = { k < 180 ? 0.0f : k < 300 ? 1.2f : -0.8f, k < 180 ? 1.4f : k < 300 ? 0.4f : -1.0f };
            tdn_graph_set_vector(in, 0, move, NULL);
            tdn_graph_update(in, DT, NULL);
            tdn_graph_evaluate(in, &out, NULL);
            tdn_root_motion m;
            tdn_graph_root_motion(in, &m, NULL);
            place_move(&target, &m);
            /* the source stands where the unscaled motion takes it */
            m.translation = tdn_vec3_scale(m.translation, 1.0f / scale);
            place_move(&source, &m);
            turns += fabsf(m.rotation.y) > 1e-3f;
            world_joints(big->skel, tdn_graph_source_pose(in), &source, ms);
            world_joints(small->skel, &out, &target, mt);
            for (int j = 0; j < nt; j++) {
                if (j == root) /* the root keeps the target's reference: the hips carry the motion */
                    continue;
                const tdn_vec3 s = { ms[j].m[12], ms[j].m[13], ms[j].m[14] },
                               t = { mt[j].m[12], mt[j].m[13], mt[j].m[14] };
                worst = fmax(worst, tdn_vec3_length(tdn_vec3_sub(t, tdn_vec3_scale(s, scale))));
            }
            reach = fmax(reach, tdn_vec3_length(source.position));
        }
        CHECK_EQ_INT(total_allocations, allocations);
        printf("(b) motion matching, 7 s with turns (%d frames turning), %.2f m from the start at most: the smaller "
               "humanoid's joints in the world are the source's scaled by %.4f within %.3g m\n",
               turns, reach, (double)scale, worst);
        CHECK(turns > 60 && reach > 3.0);
        CHECK(worst <= 1e-3);
    }
    tdn_graph_instance_destroy(in);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_graph_destroy(g);
    tdn_pose_destroy(&out);
    free(ms);
    free(mt);
    tdn_retarget_destroy(rt);
}

/* (c) ---------------------------------------------------------------------------------------- */

static void caller_memory(const character *big, const character *small)
{
    walk_run w = { 0 };
    tdn_retarget *rt = retarget_make(big, small, NULL);
    if (!rt || !walk_run_make(big, &w)) {
        tdn_retarget_destroy(rt);
        walk_run_free(&w);
        return;
    }
    const size_t plain = tdn_graph_instance_bytes(w.graph), bytes = tdn_graph_instance_bytes_retargeted(w.graph, rt);
    const int ns = tdn_skeleton_joint_count(big->skel), nt = tdn_skeleton_joint_count(small->skel);
    CHECK_EQ_INT(tdn_graph_instance_bytes_retargeted(w.graph, NULL), plain);
    CHECK_EQ_INT(tdn_graph_instance_bytes_retargeted(NULL, rt), 0);
    CHECK(bytes >= plain + tdn_pose_bytes(ns));                                     /* room for the graph's own pose */
    void *memory = aligned_alloc(TDN_GRAPH_INSTANCE_ALIGN, (bytes + 63) / 64 * 64); /* a whole number of 64s */
    tdn_graph_instance *in = NULL, *created = NULL;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_graph_instance_init_retargeted(w.graph, rt, memory, bytes - 1, &in, &err), TDN_ERR_OUT_OF_MEMORY);
    CHECK(in == NULL && strcmp(err.where, "bytes") == 0 && strstr(err.message, "tdn_graph_instance_bytes_retargeted"));
    CHECK_EQ_INT(tdn_graph_instance_init_retargeted(w.graph, rt, (char *)memory + 8, bytes - 64, &in, &err),
                 TDN_ERR_ARGUMENT);
    CHECK(in == NULL && strcmp(err.where, "memory") == 0);
    CHECK_EQ_INT(tdn_graph_instance_init_retargeted(w.graph, rt, memory, bytes, &in, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_graph_instance_create_retargeted(w.graph, rt, &created, NULL, NULL), TDN_OK);
    tdn_pose a, b;
    tdn_pose_create(nt, &a, NULL, NULL);
    tdn_pose_create(nt, &b, NULL, NULL);
    /* a placed instance evaluates in a workspace (it has none of its own) */
    CHECK_EQ_INT(tdn_graph_evaluate(in, &a, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "instance") == 0 && strstr(err.message, "tdn_graph_evaluate_with"));
    tdn_graph_workspace *ws = NULL;
    CHECK_EQ_INT(tdn_graph_workspace_create((const tdn_graph *const[]){ w.graph }, 1, &ws, NULL, NULL), TDN_OK);
    double worst = in && created && ws ? 0.0 : 1.0;
    for (int f = 0; f < 60 && in && created && ws; f++) {
        tdn_graph_update(in, DT, NULL);
        tdn_graph_update(created, DT, NULL);
        tdn_graph_evaluate_with(in, ws, &a, NULL);
        tdn_graph_evaluate(created, &b, NULL);
        worst = fmax(worst, pose_diff(&a, &b));
    }
    CHECK(worst == 0.0);
    tdn_graph_workspace_destroy(ws);
    tdn_graph_instance_destroy(created);
    tdn_graph_instance_destroy(in); /* in caller memory: nothing to free */
    free(memory);
    tdn_pose_destroy(&a);
    tdn_pose_destroy(&b);
    walk_run_free(&w);
    tdn_retarget_destroy(rt);
}

/* (d) ---------------------------------------------------------------------------------------- */

/* pelvis > (thigh > shin > foot) x2, legs down: the smallest skeleton a retarget takes. */
static tdn_skeleton *legs_make(void)
{
    static const char *const names[7] = { "pelvis", "thigh_l", "shin_l", "foot_l", "thigh_r", "shin_r", "foot_r" };
    static const int parents[7] = { -1, 0, 1, 2, 0, 4, 5 };
    tdn_transform rest[7];
    for (int j = 0; j < 7; j++)
        rest[j] = tdn_transform_identity();
    rest[0].t.y = 0.9f;
    rest[1].t.x = 0.1f;
    rest[4].t.x = -0.1f;
    rest[2].t.y = rest[3].t.y = rest[5].t.y = rest[6].t.y = -0.42f;
    rest[3].t.z = rest[6].t.z = 0.02f;
    tdn_skeleton *skel = NULL;
    CHECK_EQ_INT(tdn_skeleton_create(
                     &(tdn_skeleton_desc){ .joint_count = 7, .names = names, .parents = parents, .rest_pose = rest },
                     &skel, NULL, NULL),
                 TDN_OK);
    return skel;
}

static void refusals(const character *big)
{
    walk_run w = { 0 };
    character legs = { 0 };
    legs.skel = legs_make();
    if (!legs.skel || !CHECK_EQ_INT(tdn_body_map_find(legs.skel, NULL, &legs.map, NULL), TDN_OK) ||
        !walk_run_make(big, &w)) {
        tdn_skeleton_destroy((tdn_skeleton *)legs.skel);
        walk_run_free(&w);
        return;
    }
    tdn_retarget *from_legs = retarget_make(&legs, big, NULL), *onto_legs = retarget_make(big, &legs, NULL);
    tdn_graph_instance *in = (tdn_graph_instance *)&w;
    tdn_error err = { 0 };
    /* a retarget whose source is not the graph's skeleton */
    CHECK_EQ_INT(tdn_graph_instance_create_retargeted(w.graph, from_legs, &in, &counting, &err), TDN_ERR_ARGUMENT);
    CHECK(in == NULL && strcmp(err.where, "retarget") == 0 && strstr(err.message, "7 joints") &&
          strstr(err.message, "67"));
    CHECK_EQ_INT(live_blocks, 0);
    _Alignas(64) char memory[64];
    err = (tdn_error){ 0 };
    in = (tdn_graph_instance *)&w;
    CHECK_EQ_INT(tdn_graph_instance_init_retargeted(w.graph, from_legs, memory, sizeof memory, &in, &err),
                 TDN_ERR_ARGUMENT);
    CHECK(in == NULL && strcmp(err.where, "retarget") == 0);
    printf("(d) %s: %s\n", err.where, err.message);
    /* onto the legs: the output has their 7 joints, not the graph's */
    tdn_pose graph_sized, legs_sized;
    tdn_pose_create(tdn_skeleton_joint_count(big->skel), &graph_sized, NULL, NULL);
    tdn_pose_create(7, &legs_sized, NULL, NULL);
    if (CHECK_EQ_INT(tdn_graph_instance_create_retargeted(w.graph, onto_legs, &in, NULL, NULL), TDN_OK)) {
        tdn_graph_update(in, DT, NULL);
        err = (tdn_error){ 0 };
        CHECK_EQ_INT(tdn_graph_evaluate(in, &graph_sized, &err), TDN_ERR_ARGUMENT);
        CHECK(strcmp(err.where, "out") == 0 && strstr(err.message, "target"));
        printf("(d) %s: %s\n", err.where, err.message);
        CHECK_EQ_INT(tdn_graph_evaluate(in, &legs_sized, NULL), TDN_OK);
        /* the legs' thighs follow the walk's: not their rest any more */
        CHECK(fabsf(tdn_pose_get(&legs_sized, 1).r.w) < 0.9999f);
        tdn_graph_instance_destroy(in);
    }
    tdn_pose_destroy(&graph_sized);
    tdn_pose_destroy(&legs_sized);
    tdn_retarget_destroy(from_legs);
    tdn_retarget_destroy(onto_legs);
    tdn_skeleton_destroy((tdn_skeleton *)legs.skel);
    walk_run_free(&w);
}

/* (e) ---------------------------------------------------------------------------------------- */

/* A document of `who` (the "character" object) walking, with `retarget` (a JSON value). */
static void document_text(char *out, size_t size, const char *who, const char *retarget)
{
    snprintf(out, size,
             "{\"character\": %s, \"root_motion\": {\"joint\": \"root\"},\n"
             " \"root\": {\"type\": \"clip\", \"clip\": \"walk_forward\", \"wrap\": \"loop\"},\n"
             " \"retarget\": %s}",
             who, retarget);
}

static tdn_result load(const char *who, const char *retarget, tdn_graph_document **doc, tdn_error *err)
{
    char json[1024];
    document_text(json, sizeof json, who, retarget);
    const tdn_graph_document_load_options options = { .base_dir = TENDON_SOURCE_DIR "/tests/install" };
    *err = (tdn_error){ 0 };
    return tdn_graph_document_load_memory(json, strlen(json), &options, doc, &counting, err);
}

static void documents(const character *big, const character *small)
{
    static const char *const humanoid = "{\"generated\": \"humanoid\"}";
    tdn_graph_document *doc = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(load(humanoid, "{\"to\": {\"generated\": \"humanoid\", \"height\": 1.5}}", &doc, &err), TDN_OK)) {
        printf("%s: %s\n", err.where, err.message);
        return;
    }
    const tdn_retarget *rt = tdn_graph_document_retarget(doc);
    const tdn_skeleton *target = tdn_graph_document_target_skeleton(doc);
    CHECK(rt != NULL && tdn_graph_document_target_asset(doc) != NULL);
    CHECK_EQ_INT(tdn_skeleton_joint_count(target), tdn_skeleton_joint_count(small->skel));
    CHECK_NEAR(tdn_retarget_scale(rt), 1.5 / 1.8, 1e-5);
    /* the 1.5 m humanoid's hips at rest, as the one made by hand */
    const int hips = tdn_body_map_joint(&small->map, TDN_BODY_PART_HIPS);
    CHECK_NEAR(tdn_skeleton_rest(target, hips).t.y, tdn_skeleton_rest(small->skel, hips).t.y, 1e-6);

    /* its frames are those of the walk retargeted by hand with a retarget of the same two */
    tdn_retarget *by_hand = retarget_make(big, small, NULL);
    tdn_graph_instance *in = NULL, *plain = NULL;
    const tdn_graph *g = tdn_graph_document_graph(doc);
    tdn_pose source, out, expected;
    tdn_pose_create(tdn_skeleton_joint_count(big->skel), &source, NULL, NULL);
    tdn_pose_create(tdn_skeleton_joint_count(target), &out, NULL, NULL);
    tdn_pose_create(tdn_skeleton_joint_count(target), &expected, NULL, NULL);
    double worst = 1.0;
    if (by_hand && CHECK_EQ_INT(tdn_graph_instance_create_retargeted(g, rt, &in, NULL, NULL), TDN_OK) &&
        CHECK_EQ_INT(tdn_graph_instance_create(g, &plain, NULL, NULL), TDN_OK)) {
        worst = 0.0;
        for (int f = 0; f < 90; f++) {
            tdn_graph_update(in, DT, NULL);
            tdn_graph_update(plain, DT, NULL);
            tdn_graph_evaluate(in, &out, NULL);
            tdn_graph_evaluate(plain, &source, NULL);
            tdn_retarget_pose(by_hand, &source, &expected, NULL);
            worst = fmax(worst, pose_diff(&out, &expected));
        }
    }
    printf("(e) a document's retargeted walk differs from the walk retargeted by hand by %.3g\n", worst);
    CHECK(worst <= 1e-6);
    tdn_graph_instance_destroy(in);
    tdn_graph_instance_destroy(plain);
    tdn_pose_destroy(&source);
    tdn_pose_destroy(&out);
    tdn_pose_destroy(&expected);
    tdn_retarget_destroy(by_hand);
    tdn_graph_document_destroy(doc);
    CHECK_EQ_INT(live_blocks, 0);

    /* a scale given is the scale; a document without "retarget" has none */
    CHECK_EQ_INT(load(humanoid, "{\"to\": {\"generated\": \"humanoid\"}, \"scale\": 0.5}", &doc, &err), TDN_OK);
    CHECK_NEAR(tdn_retarget_scale(tdn_graph_document_retarget(doc)), 0.5, 0.0);
    tdn_graph_document_destroy(doc);
    const char *plain_json = "{\"character\": {\"generated\": \"humanoid\"}, \"root\": {\"type\": \"rest\"}}";
    CHECK_EQ_INT(tdn_graph_document_load_memory(plain_json, strlen(plain_json), NULL, &doc, NULL, NULL), TDN_OK);
    CHECK(tdn_graph_document_retarget(doc) == NULL && tdn_graph_document_target_asset(doc) == NULL &&
          tdn_graph_document_target_skeleton(doc) == NULL);
    tdn_graph_document_destroy(doc);

    static const struct {
        const char *character, *retarget, *where, *message;
    } bad[] = {
        { NULL, "3", "retarget", "an object is needed" },
        { NULL, "{}", "retarget.to", "missing" },
        { NULL, "{\"to\": {\"generated\": \"humanoid\"}, \"scael\": 1}", "retarget.scael", "scale" },
        { NULL, "{\"to\": {\"generated\": \"humanoid\", \"heigth\": 1.5}}", "retarget.to.heigth", "height" },
        { NULL, "{\"to\": {\"generated\": \"robot\"}}", "retarget.to.generated", "humanoid" },
        { NULL, "{\"to\": {\"generated\": \"humanoid\", \"height\": -1}}", "retarget.to.height", "" },
        { NULL, "{\"to\": {\"generated\": \"humanoid\"}, \"scale\": -1}", "retarget.scale", "0: the ratio" },
        { NULL, "{\"to\": {\"generated\": \"humanoid\"}, \"scale\": \"big\"}", "retarget.scale", "number" },
        { NULL, "{\"to\": {\"file\": \"missing.glb\"}}", "retarget.to.file (missing.glb)", "cannot open" },
        { NULL, "{\"to\": {\"file\": \"../hero.glb\"}}", "retarget.to.file (../hero.glb)", "leads outside" },
        /* two joints make no humanoid, as the character or as the one it drives */
        { NULL, "{\"to\": {\"file\": \"arm.bvh\"}}", "retarget.to.file (arm.bvh): hips",
          "for \"retarget\": not a humanoid" },
        { "{\"file\": \"arm.bvh\"}", "{\"to\": {\"generated\": \"humanoid\"}}", "character.file (arm.bvh): hips",
          "for \"retarget\": not a humanoid" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        doc = (tdn_graph_document *)&err;
        const tdn_result r = load(bad[k].character ? bad[k].character : humanoid, bad[k].retarget, &doc, &err);
        const int ok = CHECK(r != TDN_OK) & CHECK(doc == NULL) &
                       CHECK(strncmp(err.where, bad[k].where, strlen(bad[k].where)) == 0) &
                       CHECK(strstr(err.message, bad[k].message) != NULL) & CHECK_EQ_INT(live_blocks, 0);
        printf("(e) %s: %s\n", err.where, err.message);
        if (!ok)
            printf("    expected %s: ...%s...\n", bad[k].where, bad[k].message);
    }

    /* a take whose rest pose stands 3.6 m from the origin (where the actor stood: LAFAN1's do),
     * its hips' motion extracted (they stay where the take starts, tdn_root_motion_remove): the
     * driven humanoid stands where it stands in the character's frame, scaled (measured from the
     * two rest poses instead, it would stand at the origin, 3.6 m away) */
    write_text("tendon_graph_retarget_off.bvh",
               "HIERARCHY\nROOT Hips\n{\n  OFFSET 300 90 -200\n  CHANNELS 6 Xposition Yposition Zposition Zrotation "
               "Xrotation Yrotation\n"
               "  JOINT LeftUpLeg\n  {\n    OFFSET 10 0 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
               "    JOINT LeftLeg\n    {\n      OFFSET 0 -42 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
               "      JOINT LeftFoot\n      {\n        OFFSET 0 -42 0\n        CHANNELS 3 Zrotation Xrotation "
               "Yrotation\n        End Site\n        {\n          OFFSET 0 -5 12\n        }\n      }\n    }\n  }\n"
               "  JOINT RightUpLeg\n  {\n    OFFSET -10 0 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
               "    JOINT RightLeg\n    {\n      OFFSET 0 -42 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
               "      JOINT RightFoot\n      {\n        OFFSET 0 -42 0\n        CHANNELS 3 Zrotation Xrotation "
               "Yrotation\n        End Site\n        {\n          OFFSET 0 -5 12\n        }\n      }\n    }\n  }\n"
               "  JOINT Spine\n  {\n    OFFSET 0 10 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
               "    JOINT Head\n    {\n      OFFSET 0 50 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
               "      End Site\n      {\n        OFFSET 0 15 0\n      }\n    }\n  }\n}\n"
               "MOTION\nFrames: 2\nFrame Time: 1\n"
               "300 90 -200 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
               "300 90 -100 0 0 0 0 20 0 0 0 0 0 0 0 0 -20 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
    static const char off[] = "{\"character\": {\"file\": \"tendon_graph_retarget_off.bvh\", \"scale\": 0.01},\n"
                              " \"root_motion\": {\"joint\": \"Hips\"},\n"
                              " \"root\": {\"type\": \"clip\", \"clip\": \"tendon_graph_retarget_off\"},\n"
                              " \"retarget\": {\"to\": {\"generated\": \"humanoid\"}}}";
    const tdn_graph_document_load_options here = { .base_dir = "." };
    if (CHECK_EQ_INT(tdn_graph_document_load_memory(off, sizeof off - 1, &here, &doc, NULL, &err), TDN_OK)) {
        const tdn_skeleton *ts = tdn_graph_document_target_skeleton(doc);
        const int nt = tdn_skeleton_joint_count(ts), hips_t = tdn_body_map_joint(&small->map, TDN_BODY_PART_HIPS);
        tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)nt);
        tdn_pose_create(nt, &out, NULL, NULL);
        if (model && CHECK_EQ_INT(tdn_graph_instance_create_retargeted(
                                      tdn_graph_document_graph(doc), tdn_graph_document_retarget(doc), &in, NULL, NULL),
                                  TDN_OK)) {
            tdn_graph_update(in, 0.5f, NULL);
            tdn_graph_evaluate(in, &out, NULL);
            tdn_model_space(ts, &out, NULL, model, NULL);
            const tdn_transform source_hips = tdn_pose_get(tdn_graph_source_pose(in), 0);
            const float scale = tdn_retarget_scale(tdn_graph_document_retarget(doc));
            printf("(e) a take at (3, -2) m: its hips at (%.3g, %.3g), the driven humanoid's at (%.4g, %.4g), "
                   "scale %.4f\n",
                   (double)source_hips.t.x, (double)source_hips.t.z, (double)model[hips_t].m[12],
                   (double)model[hips_t].m[14], (double)scale);
            CHECK_NEAR(source_hips.t.x, 3.0, 1e-5);
            CHECK_NEAR(source_hips.t.z, -2.0, 1e-5);
            CHECK_NEAR(model[hips_t].m[12], 3.0 * scale, 1e-4);
            CHECK_NEAR(model[hips_t].m[14], -2.0 * scale, 1e-4);
            tdn_graph_instance_destroy(in);
        }
        free(model);
        tdn_pose_destroy(&out);
        tdn_graph_document_destroy(doc);
    } else {
        printf("%s: %s\n", err.where, err.message);
    }
    remove("tendon_graph_retarget_off.bvh");

    /* from a file, the document's own path comes first */
    char json[1024];
    document_text(json, sizeof json, humanoid, "{\"to\": {\"file\": \"missing.glb\"}}");
    write_text("tendon_graph_retarget.json", json);
    CHECK(tdn_graph_document_load("tendon_graph_retarget.json", NULL, &doc, &counting, &err) == TDN_ERR_IO);
    CHECK(strcmp(err.where, "tendon_graph_retarget.json: retarget.to.file (missing.glb)") == 0);
    printf("(e) %s: %s\n", err.where, err.message);
    remove("tendon_graph_retarget.json");
    CHECK_EQ_INT(live_blocks, 0);
}

int main(void)
{
    character big, small;
    mm_fixture f;
    if (!character_make(1.8f, &big) || !character_make(1.5f, &small) || !mm_fixture_humanoid(&f, 1))
        return check_summary();
    RUN_ARGS(side_by_side(&big, &small));
    RUN_ARGS(motion_matching_scaled(&f, &big, &small));
    RUN_ARGS(caller_memory(&big, &small));
    RUN_ARGS(refusals(&big));
    RUN_ARGS(documents(&big, &small));
    mm_fixture_free(&f);
    tdn_asset_destroy(big.asset);
    tdn_asset_destroy(small.asset);
    return check_summary();
}
