/* Allocator hooks with only one of alloc and free (base.h) are refused by every function that
 * takes an allocator, core and io alike: TDN_ERR_ARGUMENT with `where` "allocator", *out NULL,
 * and not one call of the hook that was given (before, some loads used malloc instead and never
 * said so). tdn_free, given such hooks, releases nothing. Each call has valid arguments
 * otherwise, so the hooks are the only thing wrong with it. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "mm_fixture.h"
#include "tendon/tendon_io.h"

/* Each case calls one function with `hooks` and returns its code; *out is where the function
 * puts its object (NULL after a failure), which `destroy` releases. */
typedef struct hooks_case {
    const char *name;
    tdn_result (*call)(const tdn_allocator *hooks, void **out, tdn_error *err);
    void (*destroy)(void *out);
} hooks_case;

/* What the cases are made from: the humanoid's skeleton and clips, a database of its
 * locomotion, and a database made from features saved as bytes. */
static mm_fixture mm;
static const tdn_skeleton *skeleton;
static const tdn_keyed_clip *keyed;
static tdn_clip *clip;
static tdn_blend_space *space;
static tdn_graph *graph;
static tdn_retarget *onto_itself; /* the skeleton's poses onto itself */
static tdn_pose sample_poses[2];
static unsigned char saved[4096];
static size_t saved_size;
static size_t bytes_size;            /* of the bytes the last tdn_file_read or tdn_gltf_save_memory gave */
static tdn_pack_writer *pack_writer; /* holding the skeleton, a compressed clip and its root track */
static void *pack_bytes;             /* its pack */
static size_t pack_size;
static tdn_pack *opened_pack; /* pack_bytes opened */

static const float line_points[] = { 0.0f, 1.0f };
static const float features[] = { 0, 0, 1, 0, 0, 1, 1, 1 };

static tdn_result skeleton_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    const int parents[] = { -1 };
    return tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 1, .parents = parents }, (tdn_skeleton **)out, h,
                               err);
}

static tdn_result keyed_clip_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = skeleton }, (tdn_keyed_clip **)out, h, err);
}

static tdn_result clip_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_clip_create(&(tdn_clip_desc){ .source = keyed }, (tdn_clip **)out, h, err);
}

static tdn_result clip_cache_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_clip_cache_create(clip, (tdn_clip_cache **)out, h, err);
}

/* Not a creation: *out points at the measurement when there is one, so that the harness sees it. */
static tdn_result clip_measure_error(const tdn_allocator *h, void **out, tdn_error *err)
{
    static tdn_clip_error measured;
    *out = NULL;
    const tdn_result r = tdn_clip_measure_error(
        &(tdn_clip_error_desc){ .clip = clip, .source = keyed, .shell_distance = 0.03f }, &measured, h, err);
    if (r == TDN_OK)
        *out = &measured;
    return r;
}

static tdn_result blend_space_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    const tdn_blend_space_desc desc = {
        .mode = TDN_BLEND_SPACE_LINEAR, .dimensions = 1, .sample_count = 2, .points = line_points
    };
    return tdn_blend_space_create(&desc, (tdn_blend_space **)out, h, err);
}

static tdn_result pose_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    static tdn_pose pose;
    *out = NULL;
    const tdn_result r = tdn_pose_create(3, &pose, h, err);
    if (r == TDN_OK)
        *out = &pose;
    return r;
}

static tdn_result inertializer_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_inertializer_create(3, (tdn_inertializer **)out, h, err);
}

static tdn_result retarget_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    static tdn_body_map map;
    tdn_body_map_find(skeleton, NULL, &map, NULL);
    const tdn_retarget_desc desc = { .source = { .skeleton = skeleton, .map = &map },
                                     .target = { .skeleton = skeleton, .map = &map } };
    return tdn_retarget_create(&desc, (tdn_retarget **)out, h, err);
}

static tdn_result foot_placement_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    tdn_foot_placement_desc desc = { .skeleton = skeleton, .leg_count = 1 };
    desc.legs[0].upper = tdn_skeleton_find_joint(skeleton, "thigh_l");
    desc.legs[0].middle = tdn_skeleton_find_joint(skeleton, "calf_l");
    desc.legs[0].end = tdn_skeleton_find_joint(skeleton, "foot_l");
    desc.pelvis = tdn_skeleton_find_joint(skeleton, "pelvis");
    return tdn_foot_placement_create(&desc, (tdn_foot_placement **)out, h, err);
}

static tdn_result graph_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    const tdn_node_desc rest = { .type = TDN_NODE_REST };
    return tdn_graph_create(&(tdn_graph_desc){ .skeleton = skeleton, .nodes = &rest, .node_count = 1 },
                            (tdn_graph **)out, h, err);
}

static tdn_result graph_instance_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_graph_instance_create(graph, (tdn_graph_instance **)out, h, err);
}

static tdn_result graph_instance_create_retargeted(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_graph_instance_create_retargeted(graph, onto_itself, (tdn_graph_instance **)out, h, err);
}

static tdn_result graph_workspace_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_graph_workspace_create((const tdn_graph *const[]){ graph }, 1, (tdn_graph_workspace **)out, h, err);
}

static tdn_result ik_blend_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    const tdn_pose *poses[] = { &sample_poses[0], &sample_poses[1] };
    const tdn_ik_blend_desc desc = {
        .skeleton = skeleton, .space = space, .poses = poses, .effector = tdn_skeleton_find_joint(skeleton, "hand_r")
    };
    return tdn_ik_blend_create(&desc, (tdn_ik_blend **)out, h, err);
}

static tdn_result root_track_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_root_track_create(clip, NULL, (tdn_root_track **)out, h, err);
}

static tdn_result mm_database_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_mm_database_create(&mm.desc, (tdn_mm_database **)out, h, err);
}

static tdn_result mm_database_create_from_features(const tdn_allocator *h, void **out, tdn_error *err)
{
    const tdn_mm_features_desc desc = { .frame_count = 4, .dimensions = 2, .features = features };
    return tdn_mm_database_create_from_features(&desc, (tdn_mm_database **)out, h, err);
}

static tdn_result mm_database_load_memory(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_mm_database_load_memory(saved, saved_size, (tdn_mm_database **)out, h, err);
}

static tdn_result mm_controller_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    const tdn_mm_controller_desc desc = { .database = mm.db,
                                          .skeleton = mm.skeleton,
                                          .clips = mm.clips,
                                          .clip_count = mm.clip_count,
                                          .mirror_table = mm.mirror };
    return tdn_mm_controller_create(&desc, (tdn_mm_controller **)out, h, err);
}

static tdn_result asset_load(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_asset_load(TENDON_SOURCE_DIR "/tests/install/arm.bvh", NULL, (tdn_asset **)out, h, err);
}

static tdn_result asset_load_memory(const tdn_allocator *h, void **out, tdn_error *err)
{
    static const char take[] = "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\n}\n"
                               "MOTION\nFrames: 1\nFrame Time: 0.5\n0 0 0\n";
    return tdn_asset_load_memory(take, sizeof take - 1, NULL, (tdn_asset **)out, h, err);
}

static const char space_json[] =
    "{\"blend_space\": {\"mode\": \"linear\", \"samples\": [{\"clip\": \"a\", \"at\": [0]}]}}";

static tdn_result blend_space_file_load_memory(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_blend_space_file_load_memory(space_json, sizeof space_json - 1, (tdn_blend_space_file **)out, h, err);
}

static tdn_result blend_space_file_load(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_blend_space_file_load("tendon_allocator_hooks.json", NULL, (tdn_blend_space_file **)out, h, err);
}

static const char body_map_json[] = "{\"tendon_body_map\": 1, \"target\": {\"neck\": null}}";

static tdn_result body_map_file_load_memory(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_body_map_file_load_memory(body_map_json, sizeof body_map_json - 1, (tdn_body_map_file **)out, h, err);
}

static tdn_result body_map_file_load(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_body_map_file_load("tendon_allocator_hooks_map.json", NULL, (tdn_body_map_file **)out, h, err);
}

static tdn_result file_read(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_file_read(NULL, TENDON_SOURCE_DIR "/tests/install/arm.bvh", out, &bytes_size, h, err);
}

static tdn_result gltf_save_memory(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_gltf_save_memory(&(tdn_gltf_save_desc){ .skeleton = skeleton }, out, &bytes_size, h, err);
}

static const char document_json[] = "{\"character\": {\"generated\": \"humanoid\"}, \"root\": {\"type\": \"rest\"}}";

static tdn_result graph_document_load_memory(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_graph_document_load_memory(document_json, sizeof document_json - 1, NULL, (tdn_graph_document **)out, h,
                                          err);
}

static tdn_result graph_document_load(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_graph_document_load(TENDON_SOURCE_DIR "/examples/graphs/walk_uneven.json", NULL,
                                   (tdn_graph_document **)out, h, err);
}

static tdn_result humanoid_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_humanoid_create(NULL, (tdn_asset **)out, h, err);
}

static tdn_result mm_database_load(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_mm_database_load("tendon_allocator_hooks.tdnmm", NULL, (tdn_mm_database **)out, h, err);
}

static tdn_result pack_open(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_pack_open(pack_bytes, pack_size, (tdn_pack **)out, h, err);
}

static tdn_result graph_document_load_pack(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_graph_document_load_pack(opened_pack, 0, NULL, (tdn_graph_document **)out, h, err);
}

static tdn_result pack_root_track(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_pack_root_track(opened_pack, 0, NULL, (tdn_root_track **)out, h, err);
}

static tdn_result pack_database_load(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_pack_database_load(opened_pack, 0, (tdn_mm_database **)out, h, err);
}

/* A graph of the rest pose, the definition stored for the pack's graph 0 */
static const tdn_node_desc rest_node = { .type = TDN_NODE_REST };

static tdn_result graph_definition_save(const tdn_allocator *h, void **out, tdn_error *err)
{
    const tdn_graph_desc desc = { .skeleton = skeleton, .nodes = &rest_node, .node_count = 1 };
    return tdn_graph_definition_save_memory(&desc, NULL, out, &bytes_size, h, err);
}

static tdn_result packed_graph_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_packed_graph_create(opened_pack, 0, NULL, (tdn_packed_graph **)out, h, err);
}

static tdn_result pack_writer_create(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_pack_writer_create((tdn_pack_writer **)out, h, err);
}

static tdn_result pack_writer_save_memory(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_pack_writer_save_memory(pack_writer, out, &bytes_size, h, err);
}

static tdn_result pack_file_load(const tdn_allocator *h, void **out, tdn_error *err)
{
    return tdn_pack_file_load("tendon_allocator_hooks.tdn", NULL, (tdn_pack_file **)out, h, err);
}

/* ---- releasing what a successful case made ---- */

static void destroy_skeleton(void *p) { tdn_skeleton_destroy(p); }
static void destroy_keyed_clip(void *p) { tdn_keyed_clip_destroy(p); }
static void destroy_clip(void *p) { tdn_clip_destroy(p); }
static void destroy_clip_cache(void *p) { tdn_clip_cache_destroy(p); }
static void destroy_nothing(void *p) { (void)p; }
static void destroy_blend_space(void *p) { tdn_blend_space_destroy(p); }
static void destroy_pose(void *p) { tdn_pose_destroy(p); }
static void destroy_inertializer(void *p) { tdn_inertializer_destroy(p); }
static void destroy_retarget(void *p) { tdn_retarget_destroy(p); }
static void destroy_foot_placement(void *p) { tdn_foot_placement_destroy(p); }
static void destroy_graph(void *p) { tdn_graph_destroy(p); }
static void destroy_graph_instance(void *p) { tdn_graph_instance_destroy(p); }
static void destroy_graph_workspace(void *p) { tdn_graph_workspace_destroy(p); }
static void destroy_ik_blend(void *p) { tdn_ik_blend_destroy(p); }
static void destroy_root_track(void *p) { tdn_root_track_destroy(p); }
static void destroy_mm_database(void *p) { tdn_mm_database_destroy(p); }
static void destroy_mm_controller(void *p) { tdn_mm_controller_destroy(p); }
static void destroy_asset(void *p) { tdn_asset_destroy(p); }
static void destroy_blend_space_file(void *p) { tdn_blend_space_file_destroy(p); }
static void destroy_body_map_file(void *p) { tdn_body_map_file_destroy(p); }
static void destroy_bytes(void *p) { tdn_free(p, bytes_size, &counting); }
static void destroy_graph_document(void *p) { tdn_graph_document_destroy(p); }
static void destroy_pack(void *p) { tdn_pack_destroy(p); }
static void destroy_packed_graph(void *p) { tdn_packed_graph_destroy(p); }
static void destroy_pack_writer(void *p) { tdn_pack_writer_destroy(p); }
static void destroy_pack_file(void *p) { tdn_pack_file_destroy(p); }

static const hooks_case cases[] = {
    { "tdn_skeleton_create", skeleton_create, destroy_skeleton },
    { "tdn_keyed_clip_create", keyed_clip_create, destroy_keyed_clip },
    { "tdn_clip_create", clip_create, destroy_clip },
    { "tdn_clip_cache_create", clip_cache_create, destroy_clip_cache },
    { "tdn_clip_measure_error", clip_measure_error, destroy_nothing },
    { "tdn_blend_space_create", blend_space_create, destroy_blend_space },
    { "tdn_pose_create", pose_create, destroy_pose },
    { "tdn_inertializer_create", inertializer_create, destroy_inertializer },
    { "tdn_retarget_create", retarget_create, destroy_retarget },
    { "tdn_foot_placement_create", foot_placement_create, destroy_foot_placement },
    { "tdn_graph_create", graph_create, destroy_graph },
    { "tdn_graph_instance_create", graph_instance_create, destroy_graph_instance },
    { "tdn_graph_instance_create_retargeted", graph_instance_create_retargeted, destroy_graph_instance },
    { "tdn_graph_workspace_create", graph_workspace_create, destroy_graph_workspace },
    { "tdn_ik_blend_create", ik_blend_create, destroy_ik_blend },
    { "tdn_root_track_create", root_track_create, destroy_root_track },
    { "tdn_mm_database_create", mm_database_create, destroy_mm_database },
    { "tdn_mm_database_create_from_features", mm_database_create_from_features, destroy_mm_database },
    { "tdn_mm_database_load_memory", mm_database_load_memory, destroy_mm_database },
    { "tdn_mm_controller_create", mm_controller_create, destroy_mm_controller },
    { "tdn_asset_load", asset_load, destroy_asset },
    { "tdn_asset_load_memory", asset_load_memory, destroy_asset },
    { "tdn_blend_space_file_load", blend_space_file_load, destroy_blend_space_file },
    { "tdn_blend_space_file_load_memory", blend_space_file_load_memory, destroy_blend_space_file },
    { "tdn_body_map_file_load", body_map_file_load, destroy_body_map_file },
    { "tdn_body_map_file_load_memory", body_map_file_load_memory, destroy_body_map_file },
    { "tdn_file_read", file_read, destroy_bytes },
    { "tdn_gltf_save_memory", gltf_save_memory, destroy_bytes },
    { "tdn_graph_document_load", graph_document_load, destroy_graph_document },
    { "tdn_graph_document_load_memory", graph_document_load_memory, destroy_graph_document },
    { "tdn_graph_document_load_pack", graph_document_load_pack, destroy_graph_document },
    { "tdn_humanoid_create", humanoid_create, destroy_asset },
    { "tdn_mm_database_load", mm_database_load, destroy_mm_database },
    { "tdn_pack_open", pack_open, destroy_pack },
    { "tdn_pack_root_track", pack_root_track, destroy_root_track },
    { "tdn_graph_definition_save_memory", graph_definition_save, destroy_bytes },
    { "tdn_packed_graph_create", packed_graph_create, destroy_packed_graph },
    { "tdn_pack_database_load", pack_database_load, destroy_mm_database },
    { "tdn_pack_writer_create", pack_writer_create, destroy_pack_writer },
    { "tdn_pack_writer_save_memory", pack_writer_save_memory, destroy_bytes },
    { "tdn_pack_file_load", pack_file_load, destroy_pack_file },
};

static const size_t case_count = sizeof cases / sizeof cases[0];

/* Every case succeeds with the counting hooks, which it calls (so its arguments are valid and
 * its memory comes from them, all of it given back by its destroy), and fails with either half
 * of them without calling the half it was given. */
static void every_function_refuses_half_set_hooks(void)
{
    const tdn_allocator halves[2] = { { count_alloc, NULL, NULL }, { NULL, count_free, NULL } };
    for (size_t c = 0; c < case_count; c++) {
        void *out = NULL;
        tdn_error err = { 0 };
        const long before = total_allocations;
        if (!CHECK_EQ_INT(cases[c].call(&counting, &out, &err), TDN_OK) || !CHECK(out != NULL) ||
            !CHECK(total_allocations > before))
            fprintf(stderr, "  %s with both hooks: %s: %s\n", cases[c].name, err.where, err.message);
        if (out)
            cases[c].destroy(out);
        CHECK_EQ_INT(live_blocks, 0);
        for (int k = 0; k < 2; k++) {
            const long allocations = total_allocations, blocks = live_blocks;
            out = &err;
            err = (tdn_error){ 0 };
            const int ok = CHECK_EQ_INT(cases[c].call(&halves[k], &out, &err), TDN_ERR_ARGUMENT) &
                           CHECK(strcmp(err.where, "allocator") == 0) & CHECK(out == NULL) &
                           CHECK_EQ_INT(total_allocations, allocations) & CHECK_EQ_INT(live_blocks, blocks);
            if (!ok)
                fprintf(stderr, "  %s with only %s: %s: %s\n", cases[c].name, k ? "free" : "alloc", err.where,
                        err.message);
        }
    }
}

/* The names of the public functions that take `const tdn_allocator *allocator`, read from the
 * headers of one folder, each checked to be a case above (tdn_free, which returns nothing, has
 * its own test below). So a new function that takes an allocator fails here until it has a case.
 * Returns how many it found. */
static int check_headers_of(const char *dir)
{
    DIR *d = opendir(dir);
    if (!CHECK(d != NULL))
        return 0;
    int found = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        const size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".h") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!CHECK(f != NULL))
            continue;
        static char text[1 << 16];
        const size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        CHECK(n < sizeof text - 1);
        text[n] = 0;
        for (char *api = strstr(text, "TDN_API "); api; api = strstr(api + 1, "TDN_API ")) {
            char *end = strchr(api, ';'), *open = strchr(api, '(');
            if (!end || !open || open > end)
                continue;
            *end = 0;
            const int takes_allocator = strstr(api, "tdn_allocator *allocator") != NULL;
            *end = ';';
            if (!takes_allocator)
                continue;
            char *name = open;
            while (name > api &&
                   (name[-1] == '_' || (name[-1] >= 'a' && name[-1] <= 'z') || (name[-1] >= '0' && name[-1] <= '9')))
                name--;
            const size_t name_len = (size_t)(open - name);
            if (name_len == strlen("tdn_free") && strncmp(name, "tdn_free", name_len) == 0)
                continue;
            found++;
            int listed = 0;
            for (size_t c = 0; c < case_count; c++)
                listed |= strlen(cases[c].name) == name_len && strncmp(cases[c].name, name, name_len) == 0;
            if (!CHECK(listed))
                fprintf(stderr, "  %.*s (%s) takes an allocator and has no case\n", (int)name_len, name, path);
        }
    }
    closedir(d);
    return found;
}

static void every_function_taking_an_allocator_has_a_case(void)
{
    const int found = check_headers_of(TENDON_SOURCE_DIR "/include/tendon") +
                      check_headers_of(TENDON_SOURCE_DIR "/include/tendon/io");
    CHECK_EQ_INT(found, (int)case_count); /* and no case is for a function the headers lack */
}

static void tdn_free_ignores_half_set_hooks(void)
{
    void *data = NULL;
    size_t size = 0;
    CHECK_EQ_INT(tdn_file_read(NULL, TENDON_SOURCE_DIR "/tests/install/arm.bvh", &data, &size, &counting, NULL),
                 TDN_OK);
    const long blocks = live_blocks;
    tdn_free(data, size, &(tdn_allocator){ count_alloc, NULL, NULL });
    tdn_free(data, size, &(tdn_allocator){ NULL, count_free, NULL });
    CHECK_EQ_INT(live_blocks, blocks);
    tdn_free(data, size, &counting);
    CHECK_EQ_INT(live_blocks, blocks - 1);
}

int main(void)
{
    if (!mm_fixture_humanoid(&mm, 1))
        return check_summary();
    skeleton = mm.skeleton;
    keyed = mm.clips[1];
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed }, &clip, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(blend_space_create(NULL, (void **)&space, NULL), TDN_OK);
    const tdn_graph_desc graph_desc = { .skeleton = skeleton,
                                        .nodes = &(tdn_node_desc){ .type = TDN_NODE_REST },
                                        .node_count = 1 };
    CHECK_EQ_INT(tdn_graph_create(&graph_desc, &graph, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(retarget_create(NULL, (void **)&onto_itself, NULL), TDN_OK);
    for (int i = 0; i < 2; i++) {
        CHECK_EQ_INT(tdn_pose_create(tdn_skeleton_joint_count(skeleton), &sample_poses[i], NULL, NULL), TDN_OK);
        CHECK_EQ_INT(tdn_pose_set_rest(&sample_poses[i], skeleton, NULL), TDN_OK);
    }
    FILE *f = fopen("tendon_allocator_hooks.json", "wb");
    if (CHECK(f != NULL)) {
        fputs(space_json, f);
        fclose(f);
    }
    f = fopen("tendon_allocator_hooks_map.json", "wb");
    if (CHECK(f != NULL)) {
        fputs(body_map_json, f);
        fclose(f);
    }
    tdn_mm_database *features_db = NULL;
    CHECK_EQ_INT(mm_database_create_from_features(NULL, (void **)&features_db, NULL), TDN_OK);
    saved_size = tdn_mm_database_save_size(features_db);
    CHECK(saved_size <= sizeof saved);
    CHECK_EQ_INT(tdn_mm_database_save_memory(features_db, saved, sizeof saved, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_mm_database_save(features_db, "tendon_allocator_hooks.tdnmm", NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pack_writer_create(&pack_writer, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pack_writer_add_skeleton(pack_writer, "humanoid", skeleton, NULL, NULL), TDN_OK);
    tdn_clip *compressed = NULL;
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed, .storage = TDN_STORAGE_COMPRESSED }, &compressed,
                                 NULL, NULL),
                 TDN_OK);
    CHECK_EQ_INT(tdn_pack_writer_add_clip(pack_writer, compressed, 0, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pack_writer_add_root_track(pack_writer, 0, compressed, 0, NULL), TDN_OK);
    tdn_clip_destroy(compressed);
    int rest_graph = -1;
    CHECK_EQ_INT(
        tdn_pack_writer_add_graph(pack_writer, "rest", 0, document_json, sizeof document_json - 1, &rest_graph, NULL),
        TDN_OK);
    void *definition = NULL;
    CHECK_EQ_INT(graph_definition_save(NULL, &definition, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pack_writer_add_graph_definition(pack_writer, rest_graph, definition, bytes_size, NULL, NULL),
                 TDN_OK);
    tdn_free(definition, bytes_size, NULL);
    CHECK_EQ_INT(tdn_pack_writer_add_database(pack_writer, "features", 0, features_db, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pack_writer_save_memory(pack_writer, &pack_bytes, &pack_size, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pack_open(pack_bytes, pack_size, &opened_pack, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pack_writer_save(pack_writer, "tendon_allocator_hooks.tdn", NULL), TDN_OK);

    RUN(every_function_taking_an_allocator_has_a_case);
    RUN(every_function_refuses_half_set_hooks);
    RUN(tdn_free_ignores_half_set_hooks);

    remove("tendon_allocator_hooks.tdnmm");
    remove("tendon_allocator_hooks.tdn");
    tdn_pack_destroy(opened_pack);
    tdn_free(pack_bytes, pack_size, NULL);
    tdn_pack_writer_destroy(pack_writer);
    remove("tendon_allocator_hooks.json");
    remove("tendon_allocator_hooks_map.json");
    tdn_mm_database_destroy(features_db);
    for (int i = 0; i < 2; i++)
        tdn_pose_destroy(&sample_poses[i]);
    tdn_retarget_destroy(onto_itself);
    tdn_graph_destroy(graph);
    tdn_blend_space_destroy(space);
    tdn_clip_destroy(clip);
    mm_fixture_free(&mm);
    return check_summary();
}
