/* Every function that returns a tdn_result takes a tdn_error last (docs/api-conventions.md): on
 * failure it says what is wrong and where (an argument or a field), on success it is left as it
 * was. One representative failure per header group, each with the numbers worked out here, and
 * the case that asked for all this: a pose sized by an imported asset's listed joints (fewer
 * than its skeleton's) handed to a sampler. */
#include <string.h>

#include "check.h"
#include "test_data.h"
#include "tendon/tendon_io.h"

/* A sentinel error: a function that succeeds must leave every byte of it alone. */
static tdn_error sentinel(void)
{
    tdn_error e;
    memset(&e, 0x5a, sizeof e);
    return e;
}

static int untouched(const tdn_error *e)
{
    tdn_error s = sentinel();
    return memcmp(e, &s, sizeof s) == 0;
}

/* The failure filled err with `code`, a `where` equal to `where` and a message holding each of
 * the (up to two) parts. */
static int says(tdn_result r, const tdn_error *e, tdn_result code, const char *where, const char *part1,
                const char *part2)
{
    int ok = CHECK_EQ_INT(r, code);
    ok &= CHECK_EQ_INT(e->code, code);
    ok &= CHECK(strcmp(e->where, where) == 0);
    ok &= CHECK(e->message[0] != '\0');
    if (part1)
        ok &= CHECK(strstr(e->message, part1) != NULL);
    if (part2)
        ok &= CHECK(strstr(e->message, part2) != NULL);
    if (!ok)
        fprintf(stderr, "  got %s at '%s': %s\n", tdn_result_name(e->code), e->where, e->message);
    return ok;
}

/* A three-joint chain (root, a 1 m bone, a 1 m bone along +y) and a keyed clip of it. */
typedef struct rig {
    tdn_skeleton *skeleton;
    tdn_keyed_clip *keyed;
    tdn_clip *clip;
} rig;

static rig make_rig(void)
{
    rig r = { 0 };
    const int parents[] = { -1, 0, 1 };
    tdn_transform rest[3];
    for (int j = 0; j < 3; j++) {
        rest[j] = tdn_transform_identity();
        rest[j].t = tdn_vec3_make(0, j ? 1.0f : 0.0f, 0);
    }
    const float times[] = { 0, 1 }, turn[] = { 0, 0, 0, 1, 0, 0, 0.38268343f, 0.92387953f };
    const tdn_track_desc track = { 1, TDN_TARGET_ROTATION, TDN_INTERP_LINEAR, 2, times, turn };
    CHECK_EQ_INT(tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 3, .parents = parents, .rest_pose = rest },
                                     &r.skeleton, NULL, NULL),
                 TDN_OK);
    CHECK_EQ_INT(
        tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = r.skeleton, .tracks = &track, .track_count = 1 },
                              &r.keyed, NULL, NULL),
        TDN_OK);
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = r.keyed }, &r.clip, NULL, NULL), TDN_OK);
    return r;
}

static void free_rig(rig *r)
{
    tdn_clip_destroy(r->clip);
    tdn_keyed_clip_destroy(r->keyed);
    tdn_skeleton_destroy(r->skeleton);
}

/* Success leaves err alone; failure names the pose and both counts. */
static void pose_and_sample(void)
{
    rig r = make_rig();
    tdn_pose three, five;
    CHECK_EQ_INT(tdn_pose_create(3, &three, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pose_create(5, &five, NULL, NULL), TDN_OK);
    tdn_error e = sentinel();
    CHECK_EQ_INT(tdn_pose_set_rest(&three, r.skeleton, &e), TDN_OK);
    CHECK_EQ_INT(tdn_clip_sample(r.clip, 0.5f, &three, &e), TDN_OK);
    CHECK_EQ_INT(tdn_keyed_clip_sample(r.keyed, 0.5f, &three, NULL, &e), TDN_OK);
    CHECK(untouched(&e));

    says(tdn_pose_set_rest(&five, r.skeleton, &e), &e, TDN_ERR_ARGUMENT, "pose", "5 joints", "skeleton 3");
    says(tdn_pose_copy(&three, &five, &e), &e, TDN_ERR_ARGUMENT, "dst", "3 joints", "5");
    tdn_pose none;
    says(tdn_pose_create(0, &none, NULL, &e), &e, TDN_ERR_ARGUMENT, "joint_count", "0 joints", NULL);
    says(tdn_clip_sample(r.clip, 0.5f, &five, &e), &e, TDN_ERR_ARGUMENT, "pose", "pose has 5 joints", "skeleton 3");
    says(tdn_keyed_clip_sample(r.keyed, 0.5f, &five, NULL, &e), &e, TDN_ERR_ARGUMENT, "pose", "pose has 5 joints",
         "tdn_skeleton_joint_count");
    says(tdn_clip_sample(NULL, 0.5f, &three, &e), &e, TDN_ERR_ARGUMENT, "clip", "NULL", NULL);
    tdn_pose_destroy(&three);
    tdn_pose_destroy(&five);
    free_rig(&r);
}

static void blend_and_model_space(void)
{
    rig r = make_rig();
    tdn_pose a, b, small;
    CHECK_EQ_INT(tdn_pose_create(3, &a, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pose_create(3, &b, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pose_create(2, &small, NULL, NULL), TDN_OK);
    tdn_error e = sentinel();
    CHECK_EQ_INT(tdn_blend2(&a, &b, 0.5f, NULL, &a, &e), TDN_OK);
    tdn_mat4 model[3];
    CHECK_EQ_INT(tdn_model_space(r.skeleton, &a, NULL, model, &e), TDN_OK);
    CHECK(untouched(&e));

    says(tdn_blend2(&a, &small, 0.5f, NULL, &a, &e), &e, TDN_ERR_ARGUMENT, "b", "2 joints", "output 3");
    const tdn_blend_input layers[2] = { { &a, 1.0f, NULL }, { &small, 1.0f, NULL } };
    says(tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = 2, .out = &b }, &e), &e, TDN_ERR_ARGUMENT,
         "job.layers[1].pose", "2 joints", "output 3");
    says(tdn_blend(&(tdn_blend_job){ .out = &b }, &e), &e, TDN_ERR_ARGUMENT, "job", "no layer and no fallback", NULL);
    float mask[8] = { 0 };
    says(tdn_mask_set_subtree(mask, r.skeleton, 3, 1.0f, 0, &e), &e, TDN_ERR_ARGUMENT, "root", "joint 3", "0..2");
    says(tdn_model_space(r.skeleton, &small, NULL, model, &e), &e, TDN_ERR_ARGUMENT, "pose", "2 joints", "skeleton 3");
    says(tdn_model_space_range(r.skeleton, &a, NULL, 2, 1, model, &e), &e, TDN_ERR_ARGUMENT, "begin", "[2, 1)", NULL);
    says(tdn_palette(r.skeleton, NULL, model, &e), &e, TDN_ERR_ARGUMENT, "model", "NULL", NULL);
    tdn_pose_destroy(&a);
    tdn_pose_destroy(&b);
    tdn_pose_destroy(&small);
    free_rig(&r);
}

static void ik(void)
{
    rig r = make_rig();
    tdn_pose pose;
    CHECK_EQ_INT(tdn_pose_create(3, &pose, NULL, NULL), TDN_OK);
    tdn_pose_set_rest(&pose, r.skeleton, NULL);
    tdn_mat4 model[3];
    tdn_model_space(r.skeleton, &pose, NULL, model, NULL);
    tdn_error e = sentinel();
    /* the target 1.2 m from the root, within the 2 m chain's reach */
    tdn_ik_two_bone_job two = { .upper = 0, .middle = 1, .end = 2, .target = tdn_vec3_make(1.2f, 0, 0), .weight = 1 };
    int reached = 0;
    CHECK_EQ_INT(tdn_ik_two_bone(r.skeleton, &two, &pose, model, &reached, &e), TDN_OK);
    CHECK(reached && untouched(&e));

    two.end = 0;
    says(tdn_ik_two_bone(r.skeleton, &two, &pose, model, NULL, &e), &e, TDN_ERR_ARGUMENT, "ik.end",
         "joint 0 is not below ik.middle (1)", NULL);
    const int backwards[] = { 2, 1 };
    tdn_ik_fabrik_job fabrik = { .joints = backwards, .joint_count = 2, .target = tdn_vec3_make(0, 1, 0), .weight = 1 };
    says(tdn_ik_fabrik(r.skeleton, &fabrik, &pose, model, NULL, &e), &e, TDN_ERR_ARGUMENT, "ik.joints[1]", "joint 1",
         "not below joint 2");
    const int chain[] = { 0, 1, 2 };
    const tdn_ik_limit limits[] = { { 0.5f, 0 }, { -1.0f, 0 }, { 0, 0 } };
    tdn_ik_ccd_job ccd = {
        .joints = chain, .joint_count = 3, .target = tdn_vec3_make(0, 1, 0), .limits = limits, .weight = 1
    };
    says(tdn_ik_ccd(r.skeleton, &ccd, &pose, model, NULL, &e), &e, TDN_ERR_ARGUMENT, "ik.limits[1]", "cone -1", NULL);
    tdn_pose_destroy(&pose);
    free_rig(&r);
}

static void graph_instance(void)
{
    rig r = make_rig();
    const tdn_clip *clips[] = { r.clip };
    const tdn_param_desc params[] = { { .name = "speed", .type = TDN_PARAM_FLOAT } };
    const tdn_node_desc node = { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP };
    tdn_graph *graph = NULL;
    tdn_graph_instance *in = NULL;
    CHECK_EQ_INT(tdn_graph_create(&(tdn_graph_desc){ .skeleton = r.skeleton,
                                                     .clips = clips,
                                                     .clip_count = 1,
                                                     .params = params,
                                                     .param_count = 1,
                                                     .nodes = &node,
                                                     .node_count = 1 },
                                  &graph, NULL, NULL),
                 TDN_OK);
    CHECK_EQ_INT(tdn_graph_instance_create(graph, &in, NULL, NULL), TDN_OK);
    tdn_pose pose, wrong;
    CHECK_EQ_INT(tdn_pose_create(3, &pose, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pose_create(4, &wrong, NULL, NULL), TDN_OK);
    tdn_error e = sentinel();
    CHECK_EQ_INT(tdn_graph_set_float(in, 0, 1.5f, &e), TDN_OK);
    CHECK_EQ_INT(tdn_graph_update(in, 1.0f / 60.0f, &e), TDN_OK);
    CHECK_EQ_INT(tdn_graph_evaluate(in, &pose, &e), TDN_OK);
    CHECK(untouched(&e));

    says(tdn_graph_evaluate(in, &wrong, &e), &e, TDN_ERR_ARGUMENT, "out", "4 joints", "skeleton 3");
    says(tdn_graph_set_bool(in, 0, 1, &e), &e, TDN_ERR_ARGUMENT, "param", "'speed' is a float, not a bool", NULL);
    says(tdn_graph_set_float(in, 7, 1.0f, &e), &e, TDN_ERR_ARGUMENT, "param", "7 is not a parameter handle", NULL);
    says(tdn_graph_set_float_named(in, "sped", 1.0f, &e), &e, TDN_ERR_ARGUMENT, "name", "no parameter 'sped'", NULL);
    says(tdn_graph_travel(in, 0, 1, &e), &e, TDN_ERR_ARGUMENT, "node", "node 0 is not a state machine", NULL);
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&wrong);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(graph);
    free_rig(&r);
}

static void inertializer(void)
{
    tdn_inertializer *in = NULL;
    tdn_error e = sentinel();
    CHECK_EQ_INT(tdn_inertializer_create(3, &in, NULL, &e), TDN_OK);
    tdn_pose pose, wrong;
    CHECK_EQ_INT(tdn_pose_create(3, &pose, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pose_create(6, &wrong, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_inertializer_start(in, &pose, NULL, 0.0f, &pose, 0.2f, TDN_INERTIA_QUINTIC, &e), TDN_OK);
    CHECK_EQ_INT(tdn_inertializer_apply(in, 1.0f / 60.0f, &pose, &e), TDN_OK);
    CHECK(untouched(&e));

    says(tdn_inertializer_apply(in, 1.0f / 60.0f, &wrong, &e), &e, TDN_ERR_ARGUMENT, "pose", "6 joints",
         "inertializer 3");
    says(tdn_inertializer_start(in, &pose, NULL, 0.0f, &pose, -1.0f, TDN_INERTIA_QUINTIC, &e), &e, TDN_ERR_ARGUMENT,
         "duration", "-1", NULL);
    _Alignas(TDN_INERTIALIZER_ALIGN) unsigned char memory[64];
    tdn_inertializer *placed = NULL;
    says(tdn_inertializer_init(3, memory, sizeof memory, &placed, &e), &e, TDN_ERR_OUT_OF_MEMORY, "bytes", "64 bytes",
         NULL);
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&wrong);
    tdn_inertializer_destroy(in);
}

static void motion_matching(void)
{
    /* four frames of two features, every frame searchable */
    const float features[] = { 0, 0, 1, 0, 0, 1, 1, 1 };
    tdn_mm_database *db = NULL;
    tdn_error e = sentinel();
    CHECK_EQ_INT(tdn_mm_database_create_from_features(
                     &(tdn_mm_features_desc){ .frame_count = 4, .dimensions = 2, .features = features }, &db, NULL, &e),
                 TDN_OK);
    tdn_mm_match match;
    const float query[2] = { 0.9f, 0.1f };
    CHECK_EQ_INT(tdn_mm_search(db, query, -1, 0.0f, TDN_MM_SEARCH_BRUTE, &match, &e), TDN_OK);
    CHECK(match.frame == 1 && untouched(&e));

    says(tdn_mm_search(db, query, 4, 0.0f, TDN_MM_SEARCH_BRUTE, &match, &e), &e, TDN_ERR_ARGUMENT, "current", "frame 4",
         "0..3");
    says(tdn_mm_search(db, query, -1, -0.5f, TDN_MM_SEARCH_BRUTE, &match, &e), &e, TDN_ERR_ARGUMENT, "bias", "-0.5",
         NULL);
    tdn_mm_frame frame;
    says(tdn_mm_database_frame(db, 9, &frame, &e), &e, TDN_ERR_ARGUMENT, "i", "frame 9", "0..3");
    unsigned char small[16];
    says(tdn_mm_database_save_memory(db, small, sizeof small, &e), &e, TDN_ERR_OUT_OF_MEMORY, "capacity", "16 bytes",
         NULL);
    tdn_mm_database_destroy(db);
}

static void skinning(void)
{
    const float positions[3] = { 0, 1, 0 }, weights[4] = { 1, 0, 0, 0 };
    const uint16_t joints[4] = { 0, 0, 0, 2 }; /* the fourth influence names palette entry 2 */
    const tdn_mat4 palette[2] = { tdn_mat4_identity(), tdn_mat4_identity() };
    float out[3];
    tdn_skin_job job = { .vertex_count = 1,
                         .influences = 4,
                         .positions = positions,
                         .joints = joints,
                         .weights = weights,
                         .palette = palette,
                         .palette_count = 2,
                         .out_positions = out };
    tdn_error e = sentinel();
    says(tdn_skin_lbs(&job, &e), &e, TDN_ERR_ARGUMENT, "job.joints[3]", "vertex 0 names palette entry 2",
         "palette has 2");
    job.palette_count = 3; /* now in range (the palette's third matrix is never read: weight 0) */
    const tdn_mat4 three[3] = { tdn_mat4_identity(), tdn_mat4_identity(), tdn_mat4_identity() };
    job.palette = three;
    e = sentinel();
    CHECK_EQ_INT(tdn_skin_dqs(&job, &e), TDN_OK);
    CHECK(untouched(&e) && out[1] == 1.0f);
    job.out_positions = NULL;
    says(tdn_skin_dqs(&job, &e), &e, TDN_ERR_ARGUMENT, "job.out_positions", "NULL", NULL);
    job.influences = 9;
    says(tdn_skin_lbs(&job, &e), &e, TDN_ERR_ARGUMENT, "job.influences", "9 influences per vertex", "1 to 8");
}

/* The case on a real file: CesiumMan lists 19 joints (its skin's) and its skeleton has
 * 21 (two ancestor nodes that model space depends on). A pose sized by the listed count is
 * refused by both samplers with both counts and the function that sizes it right. */
static void listed_joints_pose_explains_itself(void)
{
    const char *dir = test_data_dir();
    if (!dir)
        return;
    char path[1024];
    test_data_path(path, sizeof path, dir, "gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb");
    tdn_asset *asset = NULL;
    tdn_error e = { 0 };
    if (!CHECK_EQ_INT(tdn_asset_load(path, NULL, &asset, NULL, &e), TDN_OK)) {
        fprintf(stderr, "  %s: %s\n", e.where, e.message);
        return;
    }
    const int listed = tdn_asset_joint_count(asset), joints = tdn_skeleton_joint_count(tdn_asset_skeleton(asset));
    CHECK_EQ_INT(listed, 19);
    CHECK_EQ_INT(joints, 21);
    const tdn_keyed_clip *keyed = tdn_asset_clip(asset, 0);
    tdn_clip *clip = NULL;
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed }, &clip, NULL, NULL), TDN_OK);
    tdn_pose pose;
    CHECK_EQ_INT(tdn_pose_create(listed, &pose, NULL, NULL), TDN_OK);
    char counts[64];
    snprintf(counts, sizeof counts, "the pose has %d joints, the clip's skeleton %d", listed, joints);
    says(tdn_clip_sample(clip, 0.5f, &pose, &e), &e, TDN_ERR_ARGUMENT, "pose", counts, "tdn_skeleton_joint_count");
    says(tdn_keyed_clip_sample(keyed, 0.5f, &pose, NULL, &e), &e, TDN_ERR_ARGUMENT, "pose", counts,
         "tdn_skeleton_joint_count");
    tdn_pose_destroy(&pose);
    /* sized by the skeleton, both sample */
    CHECK_EQ_INT(tdn_pose_create(joints, &pose, NULL, NULL), TDN_OK);
    e = sentinel();
    CHECK_EQ_INT(tdn_clip_sample(clip, 0.5f, &pose, &e), TDN_OK);
    CHECK_EQ_INT(tdn_keyed_clip_sample(keyed, 0.5f, &pose, NULL, &e), TDN_OK);
    CHECK(untouched(&e));
    tdn_pose_destroy(&pose);
    tdn_clip_destroy(clip);
    tdn_asset_destroy(asset);
}

/* `where` is the argument ("out", "desc", "path") or "desc.field", never the function's name
 * nor empty (api-conventions, Failure): one case per place that used to say otherwise. */
static void where_names_the_argument(void)
{
    tdn_error e = sentinel();
    tdn_skeleton *skeleton = NULL;
    says(tdn_skeleton_create(NULL, &skeleton, NULL, &e), &e, TDN_ERR_ARGUMENT, "desc", NULL, NULL);
    says(tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 2 }, &skeleton, NULL, &e), &e, TDN_ERR_ARGUMENT,
         "desc.parents", NULL, NULL);
    says(tdn_graph_create(NULL, NULL, NULL, &e), &e, TDN_ERR_ARGUMENT, "out", NULL, NULL);
    says(tdn_blend_space_create(&(tdn_blend_space_desc){ .mode = TDN_BLEND_SPACE_LINEAR }, NULL, NULL, &e), &e,
         TDN_ERR_ARGUMENT, "out", NULL, NULL);
    tdn_blend_space_file *file = NULL;
    says(tdn_blend_space_file_load(NULL, NULL, &file, NULL, &e), &e, TDN_ERR_ARGUMENT, "path", NULL, NULL);
    tdn_graph_document *document = NULL;
    says(tdn_graph_document_load_memory(NULL, 3, NULL, &document, NULL, &e), &e, TDN_ERR_ARGUMENT, "json", NULL, NULL);
    tdn_asset *asset = NULL;
    says(tdn_asset_load(NULL, NULL, &asset, NULL, &e), &e, TDN_ERR_ARGUMENT, "path", NULL, NULL);
    void *bytes = NULL;
    says(tdn_gltf_save_memory(NULL, &bytes, NULL, NULL, &e), &e, TDN_ERR_ARGUMENT, "size", NULL, NULL);
    tdn_mm_database *db = NULL;
    says(tdn_mm_database_load_memory(NULL, 0, &db, NULL, &e), &e, TDN_ERR_ARGUMENT, "bytes", NULL, NULL);
    says(tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ 0 }, &(tdn_keyed_clip *){ NULL }, NULL, &e), &e,
         TDN_ERR_ARGUMENT, "desc.skeleton", NULL, NULL);
    float mask[8] = { 0 };
    const char *names[] = { NULL };
    rig r = make_rig();
    says(tdn_mask_set_joints(mask, r.skeleton, names, 1, 1.0f, &e), &e, TDN_ERR_ARGUMENT, "names", "name 0", NULL);
    free_rig(&r);
}

int main(void)
{
    RUN(pose_and_sample);
    RUN(blend_and_model_space);
    RUN(ik);
    RUN(graph_instance);
    RUN(inertializer);
    RUN(motion_matching);
    RUN(skinning);
    RUN(listed_joints_pose_explains_itself);
    RUN(where_names_the_argument);
    return check_summary();
}
