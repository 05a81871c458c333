/* Writes the seeds of fuzz_pack (fuzz/seeds/pack/) into the folder given:
 *   walk.tdn  the tiny walking rig's skeleton (mm_walk_rig.h: 5 joints), two compressed clips of
 *             it with every part of the format (a moving root, a leg swinging 172 degrees either
 *             way: 4-component rotations, a still foot: the constant pose, a stepping foot: a
 *             held track, frames between keys: key reduction, a linear and a cubic float track, two
 *             events; the second additive), a quad skinned to it (4 vertices, 2 triangles,
 *             normals and uvs, one influence set), a graph playing the clips ('GRPH'), the
 *             root frames of the first clip's root joint ('ROOT') and a section of an unknown
 *             kind ('BSPC', 16 bytes);
 *   two.tdn   that skeleton twice, a mesh of two influence sets without indices and a graph,
 *             both of the second;
 *   mm.tdn    that skeleton, its walk database (mm_walk_rig.h, 'MMDB', as "walk.tdnmm"), the
 *             walk compressed, and a graph whose motion_match node plays them.
 * Not run by the build: the seeds are committed. To regenerate, in a fuzz build:
 *   build/fuzz/bin/seed_pack fuzz/seeds/pack */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mm_walk_rig.h"
#include "tendon/io/asset.h"
#include "tendon/io/pack_file.h"
#include "tendon/packed_graph.h"

static const float positions[12] = { -0.1f, 0.0f, 0.0f, 0.1f, 0.0f, 0.0f, 0.1f, 0.9f, 0.0f, -0.1f, 0.9f, 0.0f };
static const float normals[12] = { 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1 };
static const float uvs[8] = { 0, 0, 1, 0, 1, 1, 0, 1 };
static const uint16_t joints[32] = { 2, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0,
                                     0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0 };
static const float weights[32] = { 1,     0,     0,     0,     1, 0, 0, 0, 0.5f, 0.5f, 0, 0,    1, 0, 0, 0,
                                   0.25f, 0.25f, 0.25f, 0.25f, 0, 0, 0, 1, 0.5f, 0,    0, 0.5f, 1, 0, 0, 0 };
static const uint32_t indices[6] = { 0, 1, 2, 0, 2, 3 };
static const char mm_graph[] =
    "{\"character\": {\"file\": \"walk.bvh\"}, \"parameters\": [{\"name\": \"move\", \"type\": \"vec2\"}], "
    "\"root\": {\"type\": \"motion_match\", \"database\": \"walk.tdnmm\", \"clips\": [\"walk\"], "
    "\"velocity\": \"move\"}}";
static const char graph[] = "{\"character\": {\"file\": \"walk.bvh\"}, \"root\": {\"type\": \"additive\", "
                            "\"base\": {\"type\": \"clip\", \"clip\": \"walk\"}, \"difference\": {\"type\": "
                            "\"clip\", \"clip\": \"walk_add\"}, \"weight\": 0.5}}";

enum { KEYS = 61 }; /* 2 s at 30 keys/s: two segments */

/* The clip of walk.tdn, compressed (additive: against the rest pose); NULL after printing why. */
static tdn_clip *walk_clip(const tdn_skeleton *skeleton, int additive)
{
    static float times[KEYS], hips_t[KEYS * 3], r[4][KEYS * 4], foot_t[KEYS * 3];
    static const float curve_times[3] = { 0.0f, 0.75f, 2.0f }, linear[3] = { 0, 1, 0.5f };
    static const float cubic[9] = { 0, 0, 1, -1, 2, 0, 0.5f, -0.5f, 0 };
    const int turning[4] = { 0, 1, 3, 0 }; /* Hips, LeftUpLeg, RightUpLeg */
    const float swing[4] = { 0.3f, 3.0f, 0.4f, 0.0f }, tempo[4] = { 2.0f, 3.0f, 0.5f, 0.0f };
    tdn_track_desc tracks[5];
    for (int k = 0; k < KEYS; k++) {
        const float t = (float)k / 30.0f;
        times[k] = t;
        hips_t[3 * k] = 0.05f * sinf(3.0f * t), hips_t[3 * k + 1] = 0.9f, hips_t[3 * k + 2] = 1.2f * t;
        for (int i = 0; i < 3; i++) {
            const tdn_quat q = tdn_quat_mul(
                tdn_quat_from_axis_angle(tdn_vec3_make(1, 0, 0), swing[i] * sinf(tempo[i] * t)),
                tdn_skeleton_rest(skeleton, turning[i]).r);
            r[i][4 * k] = q.x, r[i][4 * k + 1] = q.y, r[i][4 * k + 2] = q.z, r[i][4 * k + 3] = q.w;
        }
        const tdn_vec3 foot = tdn_skeleton_rest(skeleton, 4).t;
        foot_t[3 * k] = foot.x, foot_t[3 * k + 1] = foot.y, foot_t[3 * k + 2] = foot.z + 0.02f * (float)(k / 15);
    }
    tracks[0] = (tdn_track_desc){ 0, TDN_TARGET_TRANSLATION, TDN_INTERP_LINEAR, KEYS, times, hips_t };
    for (int i = 0; i < 3; i++)
        tracks[1 + i] = (tdn_track_desc){ turning[i], TDN_TARGET_ROTATION, TDN_INTERP_LINEAR, KEYS, times, r[i] };
    tracks[4] = (tdn_track_desc){ 4, TDN_TARGET_TRANSLATION, TDN_INTERP_STEP, KEYS, times, foot_t };
    const tdn_float_track_desc floats[2] = { { "contact", TDN_INTERP_LINEAR, 3, curve_times, linear },
                                             { "blink", TDN_INTERP_CUBIC, 3, curve_times, cubic } };
    const tdn_event_desc events[2] = { { "step", 0.5f }, { "end", 2.0f } };
    tdn_keyed_clip *keys = NULL;
    tdn_clip *clip = NULL;
    tdn_pose rest;
    tdn_error err = { 0 };
    tdn_result res = tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .name = additive ? "walk_add" : "walk",
                                                                   .skeleton = skeleton,
                                                                   .tracks = tracks,
                                                                   .track_count = 5,
                                                                   .float_tracks = floats,
                                                                   .float_track_count = 2,
                                                                   .events = events,
                                                                   .event_count = 2 },
                                           &keys, NULL, &err);
    if (res == TDN_OK)
        res = tdn_pose_create(tdn_skeleton_joint_count(skeleton), &rest, NULL, &err);
    if (res == TDN_OK) {
        tdn_pose_set_rest(&rest, skeleton, NULL);
        /* two frames a key: the lerped frames between keys let smooth groups keep every other one */
        res = tdn_clip_create(&(tdn_clip_desc){ .source = keys,
                                                .sample_rate = 60.0f,
                                                .storage = TDN_STORAGE_COMPRESSED,
                                                .additive_reference_pose = additive ? &rest : NULL },
                              &clip, NULL, &err);
        tdn_pose_destroy(&rest);
    }
    tdn_keyed_clip_destroy(keys);
    if (res != TDN_OK)
        fprintf(stderr, "seed_pack: the walk clip: %s: %s\n", err.where, err.message);
    return clip;
}

/* A procedural node's pose: left as it is (the node's callback, bound by the name "c"). */
static void still(void *user, const tdn_graph_instance *in, int node, float dt, tdn_pose *pose)
{
    (void)user, (void)in, (void)node, (void)dt, (void)pose;
}

/* walk.tdn's graph as a definition (packed_graph.h) over its two clips: the walk with its
 * difference added by a weight, a 1D blend space of the walk and a procedural node, a state
 * machine between them on a trigger, synced steps, root motion, a two-bone job on a leg and a
 * masked additive layer. */
static tdn_result add_definition(tdn_pack_writer *w, int graph_index, const tdn_skeleton *skeleton, tdn_error *err)
{
    static const tdn_param_desc params[] = { { "w", TDN_PARAM_FLOAT, { 0.5f }, 0.1f },
                                             { "go", TDN_PARAM_TRIGGER, { 0 }, 0 },
                                             { "aim", TDN_PARAM_FLOAT, { 0.25f }, 0 },
                                             { "foot", TDN_PARAM_VEC3, { 0.1f, 0.05f, 0.2f }, 0 } };
    static const int additive_inputs[] = { 0, 1 }, space_inputs[] = { 0, 3 }, states[] = { 2, 4 };
    static const float points[] = { 0.0f, 1.0f };
    static const tdn_condition_desc go = { "go", TDN_COMPARE_TRUE, 0 };
    static const tdn_transition_desc transitions[] = {
        { 0, 1, &go, 1, 0, 0.2f, 0, { TDN_EASE_BEZIER, 0.3f, 0, 0.6f, 1 }, TDN_TRANSITION_SMOOTH, 0, 0, 0 },
        { 1, 0, &go, 1, 0.5f, 0.1f, 0, { TDN_EASE_LINEAR, 0, 0, 0, 0 }, TDN_TRANSITION_INERTIALIZE, 1, 0, 1 }
    };
    static const tdn_state_desc names[] = { { "walk" }, { "blend" } };
    static const tdn_state_machine_desc machine = { names, 2, transitions, 2, 0 };
    static const char *const steps[] = { "step" };
    static const tdn_sync_group_desc group = { "steps", steps, 1 };
    static const tdn_root_track_desc root = { 0, TDN_ROOT_YAW, 0, { 0, 1, 0 } };
    static const float mask[5] = { 0, 1, 1, 0.5f, 0.5f };
    tdn_blend_space *space = NULL;
    const tdn_blend_space_desc line = { TDN_BLEND_SPACE_LINEAR, 1, 2, points };
    tdn_result res = tdn_blend_space_create(&line, &space, NULL, err);
    const tdn_node_desc nodes[] = {
        { .type = TDN_NODE_CLIP, .name = "walk", .clip = 0, .wrap = TDN_WRAP_LOOP, .sync_group = "steps" },
        { .type = TDN_NODE_CLIP, .clip = 1, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_ADDITIVE, .inputs = additive_inputs, .input_count = 2, .value = { "w", 0 } },
        { .type = TDN_NODE_PROCEDURAL, .name = "still", .callback = still },
        { .type = TDN_NODE_BLEND_SPACE, .inputs = space_inputs, .input_count = 2, .space = space, .position = "aim" },
        { .type = TDN_NODE_STATE_MACHINE, .inputs = states, .input_count = 2, .state_machine = &machine },
        { .type = TDN_NODE_CLIP, .clip = 1, .wrap = TDN_WRAP_PINGPONG, .rate = 0.5f },
    };
    const tdn_layer_desc layers[] = { { "base", 5, { NULL, 1 }, TDN_LAYER_OVERRIDE, NULL, 0 },
                                      { "legs", 6, { "w", 0 }, TDN_LAYER_ADDITIVE, mask, 0 } };
    const tdn_graph_ik_desc ik = { .kind = TDN_GRAPH_IK_TWO_BONE, .root = 0, .middle = 1, .end = 2, .target = "foot" };
    const tdn_graph_desc desc = { .skeleton = skeleton,
                                  .clip_count = 2,
                                  .params = params,
                                  .param_count = 4,
                                  .nodes = nodes,
                                  .node_count = 7,
                                  .layers = layers,
                                  .layer_count = 2,
                                  .sync_groups = &group,
                                  .sync_group_count = 1,
                                  .root_motion = &root,
                                  .ik = &ik,
                                  .ik_count = 1 };
    const char *const callback_names[7] = { NULL, NULL, NULL, "c" }; /* fuzz_pack's callback */
    void *definition = NULL;
    size_t size = 0;
    const int clips[2] = { 0, 1 };
    if (res == TDN_OK)
        res = tdn_graph_definition_save_memory(&desc, callback_names, &definition, &size, NULL, err);
    if (res == TDN_OK)
        res = tdn_pack_writer_add_graph_definition(w, graph_index, definition, size, clips, err);
    tdn_free(definition, size, NULL);
    tdn_blend_space_destroy(space);
    return res;
}

static int write(const char *dir, const char *name, const tdn_skeleton *skeleton, int two)
{
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    tdn_result res = tdn_pack_writer_create(&w, NULL, &err);
    if (res == TDN_OK)
        res = tdn_pack_writer_add_skeleton(w, "walk", skeleton, NULL, &err);
    if (res == TDN_OK && two)
        res = tdn_pack_writer_add_skeleton(w, "walk again", skeleton, NULL, &err);
    tdn_pack_mesh quad = { "quad", 0, 4, 1, positions, normals, uvs, joints, weights, indices, 6 };
    if (two) {
        tdn_pack_mesh points = { "points", 1, 2, 2, positions, NULL, NULL, joints, weights, NULL, 0 };
        quad = points;
    }
    for (int additive = 0; additive < 2 && res == TDN_OK && !two; additive++) {
        tdn_clip *clip = walk_clip(skeleton, additive);
        res = clip ? tdn_pack_writer_add_clip(w, clip, 0, NULL, &err) : TDN_ERR_INVALID_DATA;
        if (res == TDN_OK && !additive)
            res = tdn_pack_writer_add_root_track(w, 0, clip, 0, &err);
        tdn_clip_destroy(clip);
    }
    if (res == TDN_OK)
        res = tdn_pack_writer_add_mesh(w, &quad, &err);
    int graph_index = -1;
    if (res == TDN_OK)
        res = tdn_pack_writer_add_graph(w, two ? "again" : "walk", two, graph, sizeof graph - 1, &graph_index, &err);
    if (res == TDN_OK && !two)
        res = add_definition(w, graph_index, skeleton, &err);
    if (res == TDN_OK && !two)
        res = tdn_pack_writer_add_section(w, TDN_PACK_FOURCC('B', 'S', 'P', 'C'), "a later section", 16, 32, &err);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (res == TDN_OK)
        res = tdn_pack_writer_save(w, path, &err);
    tdn_pack_writer_destroy(w);
    if (res != TDN_OK)
        fprintf(stderr, "seed_pack: %s: %s: %s\n", name, err.where, err.message);
    return res == TDN_OK;
}

/* mm.tdn: the walk's skeleton, database, compressed clip and a motion-matching graph. */
static int write_mm(const char *dir, const tdn_asset *asset)
{
    tdn_pack_writer *w = NULL;
    tdn_mm_database *db = NULL;
    tdn_clip *clip = NULL;
    tdn_error err = { 0 };
    tdn_result res = tdn_pack_writer_create(&w, NULL, &err);
    if (res == TDN_OK)
        res = tdn_pack_writer_add_skeleton(w, "walk", tdn_asset_skeleton(asset), NULL, &err);
    if (res == TDN_OK)
        res = walk_database(asset, &db, &err);
    if (res == TDN_OK)
        res = tdn_pack_writer_add_database(w, "walk.tdnmm", 0, db, &err);
    if (res == TDN_OK)
        res = tdn_clip_create(&(tdn_clip_desc){ .source = tdn_asset_clip(asset, 0), .storage = TDN_STORAGE_COMPRESSED },
                              &clip, NULL, &err);
    if (res == TDN_OK)
        res = tdn_pack_writer_add_named_clip(w, "walk", clip, 0, NULL, &err);
    if (res == TDN_OK)
        res = tdn_pack_writer_add_graph(w, "walk", 0, mm_graph, sizeof mm_graph - 1, NULL, &err);
    char path[4096];
    snprintf(path, sizeof path, "%s/mm.tdn", dir);
    if (res == TDN_OK)
        res = tdn_pack_writer_save(w, path, &err);
    tdn_clip_destroy(clip);
    tdn_mm_database_destroy(db);
    tdn_pack_writer_destroy(w);
    if (res != TDN_OK)
        fprintf(stderr, "seed_pack: mm.tdn: %s: %s\n", err.where, err.message);
    return res == TDN_OK;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: seed_pack FOLDER\n");
        return 2;
    }
    const tdn_asset_load_options import = { .scale = 0.01f, .name = "walk" };
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    if (tdn_asset_load_memory(walk_bvh, strlen(walk_bvh), &import, &asset, NULL, &err) != TDN_OK) {
        fprintf(stderr, "seed_pack: walk: %s: %s\n", err.where, err.message);
        return 1;
    }
    const int ok = write(argv[1], "walk.tdn", tdn_asset_skeleton(asset), 0) &&
                   write(argv[1], "two.tdn", tdn_asset_skeleton(asset), 1) && write_mm(argv[1], asset);
    tdn_asset_destroy(asset);
    return ok ? 0 : 1;
}
