/* Evaluating a frame never allocates. Every object is created through counting allocator hooks;
 * in the plain build the program's malloc family is also wrapped at link time
 * (TENDON_WRAP_MALLOC), so an allocation anywhere, library or libc, is counted. Then a whole
 * frame pipeline runs many times and both counters must stay where they were. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tendon/io/graph_document.h"
#include "tendon/io/humanoid.h"

static long hook_calls;
static void *hook_alloc(size_t size, size_t align, void *user)
{
    (void)user;
    hook_calls++;
    return aligned_alloc(align, (size + align - 1) / align * align);
}
static void hook_free(void *ptr, size_t size, void *user)
{
    (void)size;
    (void)user;
    hook_calls++;
    free(ptr);
}
static const tdn_allocator hooks = { hook_alloc, hook_free, NULL };

#ifdef TENDON_WRAP_MALLOC
static long libc_calls;
void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *ptr, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);
void __real_free(void *ptr);
void *__wrap_malloc(size_t size)
{
    libc_calls++;
    return __real_malloc(size);
}
void *__wrap_calloc(size_t n, size_t size)
{
    libc_calls++;
    return __real_calloc(n, size);
}
void *__wrap_realloc(void *ptr, size_t size)
{
    libc_calls++;
    return __real_realloc(ptr, size);
}
void *__wrap_aligned_alloc(size_t align, size_t size)
{
    libc_calls++;
    return __real_aligned_alloc(align, size);
}
void __wrap_free(void *ptr)
{
    libc_calls++;
    __real_free(ptr);
}
static long allocations(void) { return hook_calls + libc_calls; }
#else
static long allocations(void) { return hook_calls; }
#endif

enum { JOINTS = 7 };
/* pelvis > (thigh > shin > foot) x2 */
static const char *const names[JOINTS] = { "pelvis", "thigh_l", "shin_l", "foot_l", "thigh_r", "shin_r", "foot_r" };
static const int parents[JOINTS] = { -1, 0, 1, 2, 0, 4, 5 };

static void frame_pipeline_never_allocates(void)
{
    tdn_transform rest[JOINTS];
    for (int j = 0; j < JOINTS; j++)
        rest[j] = tdn_transform_identity();
    rest[0].t.y = 1.0f;
    rest[1].t.x = 0.1f;
    rest[4].t.x = -0.1f;
    rest[2].t.y = rest[3].t.y = rest[5].t.y = rest[6].t.y = -0.45f;
    tdn_skeleton *skel = NULL;
    CHECK_EQ_INT(
        tdn_skeleton_create(
            &(tdn_skeleton_desc){ .joint_count = JOINTS, .names = names, .parents = parents, .rest_pose = rest }, &skel,
            &hooks, NULL),
        TDN_OK);

    /* Two clips swinging the thighs, with a float curve and events. */
    const float times[] = { 0.0f, 0.5f, 1.0f };
    const float swing[] = { 0, 0, 0.2f, 0.98f, 0, 0, -0.2f, 0.98f, 0, 0, 0.2f, 0.98f };
    const float pelvis[] = { 0, 1, 0, 0, 0.95f, 0, 0, 1, 0 };
    const float contact[] = { 1, 0, 1 };
    tdn_track_desc tracks[] = {
        { .joint = 1,
          .target = TDN_TARGET_ROTATION,
          .interp = TDN_INTERP_LINEAR,
          .key_count = 3,
          .times = times,
          .values = swing },
        { .joint = 4,
          .target = TDN_TARGET_ROTATION,
          .interp = TDN_INTERP_STEP,
          .key_count = 3,
          .times = times,
          .values = swing },
        { .joint = 0,
          .target = TDN_TARGET_TRANSLATION,
          .interp = TDN_INTERP_LINEAR,
          .key_count = 3,
          .times = times,
          .values = pelvis },
    };
    tdn_float_track_desc curve = {
        .name = "contact_l", .interp = TDN_INTERP_LINEAR, .key_count = 3, .times = times, .values = contact
    };
    tdn_event_desc events[] = { { "step_l", 0.25f }, { "step_r", 0.75f } };
    tdn_keyed_clip *keyed = NULL;
    CHECK_EQ_INT(tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .name = "walk",
                                                               .skeleton = skel,
                                                               .tracks = tracks,
                                                               .track_count = 3,
                                                               .float_tracks = &curve,
                                                               .float_track_count = 1,
                                                               .events = events,
                                                               .event_count = 2 },
                                       &keyed, &hooks, NULL),
                 TDN_OK);
    tdn_clip *clip = NULL, *additive = NULL;
    CHECK_EQ_INT(tdn_clip_create(&(tdn_clip_desc){ .source = keyed }, &clip, &hooks, NULL), TDN_OK);
    CHECK_EQ_INT(
        tdn_clip_create(
            &(tdn_clip_desc){ .source = keyed, .additive_reference_clip = keyed, .additive_reference_first_frame = 1 },
            &additive, &hooks, NULL),
        TDN_OK);
    if (!skel || !keyed || !clip || !additive)
        return;

    /* Per-character instance data, created once. */
    tdn_pose a, b, delta, rest_pose, out;
    tdn_pose *poses[] = { &a, &b, &delta, &rest_pose, &out };
    for (int i = 0; i < 5; i++)
        tdn_pose_create(JOINTS, poses[i], &hooks, NULL);
    tdn_pose_set_rest(&rest_pose, skel, NULL);
    float mask[TDN_POSE_LANES];
    tdn_mask_fill(mask, JOINTS, 0.0f);
    tdn_mask_set_subtree(mask, skel, 1, 1.0f, 1, NULL);
    int hints[3] = { 0, 0, 0 };
    tdn_mat4 model[JOINTS], palette[JOINTS];
    float positions[12] = { 0.1f, 0.5f, 0, -0.1f, 0.5f, 0, 0.1f, 0.1f, 0, -0.1f, 0.1f, 0 };
    float normals[12] = { 1, 0, 0, -1, 0, 0, 1, 0, 0, -1, 0, 0 };
    uint16_t joint_ids[16] = { 1, 2, 0, 0, 4, 5, 0, 0, 2, 3, 0, 0, 5, 6, 0, 0 };
    float weights[16] = { 0.5f, 0.5f, 0, 0, 0.5f, 0.5f, 0, 0, 0.7f, 0.3f, 0, 0, 0.7f, 0.3f, 0, 0 };
    float skinned[12], skinned_normals[12];
    tdn_player player = tdn_player_make(tdn_clip_duration(clip), TDN_WRAP_LOOP);
    tdn_player back = tdn_player_make(tdn_clip_duration(clip), TDN_WRAP_PINGPONG);
    back.rate = -1.3f;
    tdn_ease ease = { TDN_EASE_BEZIER, 0.25f, 0.1f, 0.25f, 1.0f };
    int crossed[4], event_total = 0;
    double checksum = 0;

    long before = allocations();
    for (int frame = 0; frame < 600; frame++) {
        tdn_player_advance(&player, 1.0f / 60.0f);
        tdn_player_advance_frames(&back, 0.5f);
        event_total += tdn_player_events(&player, tdn_clip_event_times(clip), tdn_clip_event_count(clip), crossed, 4);
        tdn_clip_sample(clip, player.time, &a, NULL);
        tdn_keyed_clip_sample(keyed, back.time, &b, hints, NULL);
        tdn_clip_sample(additive, player.time, &delta, NULL);
        float fade = tdn_ease_eval(&ease, (float)(frame % 60) / 60.0f);
        tdn_blend_input layers[2] = { { &a, 1.0f - fade, NULL }, { &b, fade, mask } };
        tdn_blend_input adds[1] = { { &delta, 0.5f, NULL } };
        tdn_blend(&(tdn_blend_job){ .layers = layers,
                                    .layer_count = 2,
                                    .additives = adds,
                                    .additive_count = 1,
                                    .fallback = &rest_pose,
                                    .out = &out },
                  NULL);
        tdn_model_space(skel, &out, NULL, model, NULL);
        tdn_ik_two_bone(skel,
                        &(tdn_ik_two_bone_job){ .upper = 1,
                                                .middle = 2,
                                                .end = 3,
                                                .target = { 0.12f, 0.15f, 0.05f },
                                                .pole = { 0.1f, 0.5f, 1.0f },
                                                .use_pole = 1,
                                                .weight = 1.0f,
                                                .soften = 0.97f },
                        &out, model, NULL, NULL);
        tdn_palette(skel, model, palette, NULL);
        tdn_skin_job skin = { .vertex_count = 4,
                              .influences = 4,
                              .positions = positions,
                              .normals = normals,
                              .joints = joint_ids,
                              .weights = weights,
                              .palette = palette,
                              .palette_count = JOINTS,
                              .out_positions = skinned,
                              .out_normals = skinned_normals };
        tdn_skin_lbs(&skin, NULL);
        tdn_skin_dqs(&skin, NULL);
        skin.influences = 3; /* the same arrays read 3 per vertex: the padded path */
        tdn_skin_lbs(&skin, NULL);
        checksum += skinned[1] + tdn_clip_sample_float(clip, 0, player.time);
    }
    long during = allocations() - before;
    CHECK_EQ_INT(during, 0);
    CHECK(isfinite(checksum));
    CHECK(event_total == 20); /* 10 s of a 1 s loop with two events */

    /* The counter does see allocations: the check above could fail. */
    before = allocations();
    tdn_pose spare;
    tdn_pose_create(JOINTS, &spare, NULL, NULL);
    tdn_pose_destroy(&spare);
#ifdef TENDON_WRAP_MALLOC
    CHECK(allocations() - before >= 2);
#endif
    tdn_pose_create(JOINTS, &spare, &hooks, NULL);
    tdn_pose_destroy(&spare);
    CHECK(allocations() - before >= 2);

    for (int i = 0; i < 5; i++)
        tdn_pose_destroy(poses[i]);
    tdn_clip_destroy(additive);
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(keyed);
    tdn_skeleton_destroy(skel);
}

/* A blend tree's frame (the strafing example graph on the generated humanoid: switches fading,
 * smoothed parameters, a sync group with markers, the flat list, sampling and blending) with
 * every parameter moving. */
static void graph_frames_never_allocate(void)
{
    tdn_graph_document *doc = NULL;
    CHECK_EQ_INT(tdn_graph_document_load(TENDON_SOURCE_DIR "/examples/graphs/strafe.json", NULL, &doc, &hooks, NULL),
                 TDN_OK);
    if (!doc)
        return;
    const tdn_graph *graph = tdn_graph_document_graph(doc);
    const tdn_skeleton *skel = tdn_graph_document_skeleton(doc);
    int joints = tdn_skeleton_joint_count(skel);
    tdn_graph_instance *in = NULL;
    tdn_pose pose;
    CHECK_EQ_INT(tdn_graph_instance_create(graph, &in, &hooks, NULL), TDN_OK);
    tdn_pose_create(joints, &pose, &hooks, NULL);
    tdn_mat4 *model = hooks.alloc(sizeof(tdn_mat4) * (size_t)joints, 16, NULL);
    double checksum = 0;
    long before = allocations();
    for (int frame = 0; frame < 600; frame++) {
        float t = (float)frame / 60.0f;
        for (int p = 0; p < tdn_graph_param_count(graph); p++) {
            tdn_graph_set_float(in, p, 0.5f + 0.5f * sinf(t * (float)(p + 1)), NULL);
            tdn_graph_set_bool(in, p, (frame / (40 + 7 * p)) & 1, NULL);
        }
        tdn_graph_update(in, 1.0f / 60.0f, NULL);
        tdn_graph_evaluate(in, &pose, NULL);
        tdn_model_space(skel, &pose, NULL, model, NULL);
        const tdn_graph_entry *entries;
        checksum += model[joints - 1].m[12] + tdn_graph_entries(in, &entries);
    }
    CHECK_EQ_INT(allocations() - before, 0);
    CHECK(isfinite(checksum));
    hooks.free(model, sizeof(tdn_mat4) * (size_t)joints, NULL);
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(in);
    tdn_graph_document_destroy(doc);
}

/* A graph driving another character (graph.h, "retarget"): a state machine of the humanoid's
 * walk, run and strafes on the 1.8 m humanoid, retargeted every frame onto one 1.5 m tall, its
 * scaled root motion read too. */
static void retargeted_graph_frames_never_allocate(void)
{
    static const char json[] =
        "{\"character\": {\"generated\": \"humanoid\"}, \"root_motion\": {\"joint\": \"root\"},\n"
        " \"parameters\": [{\"name\": \"gait\", \"type\": \"int\"}],\n"
        " \"root\": {\"type\": \"switch\", \"select\": \"gait\", \"fade\": 0.3, \"inputs\": [\n"
        "   {\"type\": \"clip\", \"clip\": \"walk_forward\", \"wrap\": \"loop\"},\n"
        "   {\"type\": \"clip\", \"clip\": \"run_forward\", \"wrap\": \"loop\"},\n"
        "   {\"type\": \"clip\", \"clip\": \"strafe_left\", \"wrap\": \"loop\"}]},\n"
        " \"retarget\": {\"to\": {\"generated\": \"humanoid\", \"height\": 1.5}}}";
    tdn_graph_document *doc = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_graph_document_load_memory(json, sizeof json - 1, NULL, &doc, &hooks, &err), TDN_OK)) {
        printf("%s: %s\n", err.where, err.message);
        return;
    }
    const tdn_graph *graph = tdn_graph_document_graph(doc);
    const tdn_skeleton *target = tdn_graph_document_target_skeleton(doc);
    const int joints = tdn_skeleton_joint_count(target);
    tdn_graph_instance *in = NULL;
    tdn_pose pose;
    CHECK_EQ_INT(tdn_graph_instance_create_retargeted(graph, tdn_graph_document_retarget(doc), &in, &hooks, NULL),
                 TDN_OK);
    tdn_pose_create(joints, &pose, &hooks, NULL);
    double travel = 0;
    long before = allocations();
    for (int frame = 0; frame < 600 && in; frame++) {
        tdn_graph_set_int(in, 0, (frame / 100) % 3, NULL);
        tdn_graph_update(in, 1.0f / 60.0f, NULL);
        tdn_graph_evaluate(in, &pose, NULL);
        tdn_root_motion motion;
        tdn_graph_root_motion(in, &motion, NULL);
        travel += tdn_vec3_length(motion.translation);
    }
    CHECK_EQ_INT(allocations() - before, 0);
    CHECK(travel > 5.0); /* 10 s of walking, running and strafing went somewhere */
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(in);
    tdn_graph_document_destroy(doc);
}

/* A batch of the five-layer showcase (graph.h, "batch evaluation"): 32 characters in two
 * workspaces, tasks of 5 handed out by a parallel-for, with model space and palettes. */
static void run_tasks_in_turn(void *user, int task_count, tdn_graph_task_fn task, void *context)
{
    (void)user;
    for (int t = 0; t < task_count; t++)
        task(context, t, t & 1);
}

/* A crowd batch-evaluated through a parallel-for, half of it with level of detail at the rates
 * the budget mode chooses every frame, a quarter without fingers and face (joint LOD). */
static void batch_frames_never_allocate(void)
{
    enum { CROWD = 32 };
    tdn_graph_document *doc = NULL;
    CHECK_EQ_INT(
        tdn_graph_document_load(TENDON_SOURCE_DIR "/examples/graphs/blendmotion.json", NULL, &doc, &hooks, NULL),
        TDN_OK);
    if (!doc)
        return;
    const tdn_graph *graph = tdn_graph_document_graph(doc);
    const int joints = tdn_skeleton_joint_count(tdn_graph_document_skeleton(doc));
    tdn_graph_workspace *ws[2] = { NULL, NULL };
    for (int w = 0; w < 2; w++)
        CHECK_EQ_INT(tdn_graph_workspace_create(&graph, 1, &ws[w], &hooks, NULL), TDN_OK);
    tdn_graph_instance *in[CROWD];
    tdn_pose poses[CROWD];
    tdn_graph_character chars[CROWD];
    tdn_mat4 *mats = hooks.alloc(sizeof(tdn_mat4) * (size_t)joints * 2 * CROWD, 16, NULL);
    /* every other character with level of detail, its rate chosen by the budget mode each frame */
    tdn_graph_lod lods[CROWD];
    tdn_pose history[CROWD];
    float importance[CROWD];
    int rates[CROWD];
    memset(lods, 0, sizeof lods);
    const int speed = tdn_graph_find_param(graph, "speed"), hit = tdn_graph_find_param(graph, "hitFront");
    const char *const *detail = NULL;
    const int details = tdn_humanoid_detail_joints(&detail);
    tdn_joint_lod far;
    CHECK_EQ_INT(tdn_joint_lod_init_names(tdn_graph_document_skeleton(doc), detail, details, &far, NULL), TDN_OK);
    for (int k = 0; k < CROWD; k++) {
        CHECK_EQ_INT(tdn_graph_instance_create(graph, &in[k], &hooks, NULL), TDN_OK);
        tdn_pose_create(joints, &poses[k], &hooks, NULL);
        chars[k] = (tdn_graph_character){ in[k],
                                          1.0f / 60.0f,
                                          &poses[k],
                                          mats + (size_t)(2 * k) * (size_t)joints,
                                          mats + (size_t)(2 * k + 1) * (size_t)joints,
                                          NULL,
                                          NULL,
                                          NULL };
        tdn_pose_create(joints, &history[k], &hooks, NULL);
        lods[k] = (tdn_graph_lod){ .clock = (unsigned)k, .shown = &poses[k], .target = &history[k] };
        chars[k].lod = k % 2 ? &lods[k] : NULL;
        chars[k].joint_lod = k % 3 == 0 ? &far : NULL; /* some with both LODs */
        importance[k] = 1.0f / (float)(1 + k);
    }
    const tdn_graph_lod_budget budget = { 150000.0, 10000.0, 2000.0, 8 }; /* rates 1 to 8 */
    const tdn_graph_batch_desc desc = { .characters = chars,
                                        .character_count = CROWD,
                                        .workspaces = ws,
                                        .worker_count = 2,
                                        .parallel_for = run_tasks_in_turn,
                                        .characters_per_task = 5 };
    double checksum = 0;
    long before = allocations();
    for (int frame = 0; frame < 300; frame++) {
        for (int k = 0; k < CROWD; k++) {
            tdn_graph_set_float(in[k], speed, (float)((frame + 9 * k) % 200) / 50.0f, NULL);
            if ((frame + k) % 70 == 0)
                tdn_graph_fire_trigger(in[k], hit, NULL);
        }
        CHECK_EQ_INT(tdn_graph_lod_choose_rates(importance, CROWD, &budget, rates, NULL, NULL), TDN_OK);
        for (int k = 0; k < CROWD; k++)
            lods[k].rate = rates[k];
        CHECK_EQ_INT(tdn_graph_evaluate_batch(&desc, NULL), TDN_OK);
        checksum += mats[joints - 1].m[12];
    }
    CHECK_EQ_INT(allocations() - before, 0);
    CHECK(isfinite(checksum));
    for (int k = 0; k < CROWD; k++) {
        tdn_pose_destroy(&poses[k]);
        tdn_pose_destroy(&history[k]);
        tdn_graph_instance_destroy(in[k]);
    }
    hooks.free(mats, sizeof(tdn_mat4) * (size_t)joints * 2 * CROWD, NULL);
    for (int w = 0; w < 2; w++)
        tdn_graph_workspace_destroy(ws[w]);
    tdn_graph_document_destroy(doc);
}

int main(void)
{
    RUN(frame_pipeline_never_allocates);
    RUN(graph_frames_never_allocate);
    RUN(retargeted_graph_frames_never_allocate);
    RUN(batch_frames_never_allocate);
    return check_summary();
}
