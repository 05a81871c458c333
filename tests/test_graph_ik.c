/* The graph's IK stage on tendon's humanoid: after the layers, jobs in order with targets from
 * parameters: a two-bone arm reaches its target, a look-at points the face, a FABRIK chain
 * reaches, the weight parameter fades a job out to the untouched pose, foot placement plants
 * the feet on raised ground from the clips' contact curves; bad jobs are named. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "tendon/io/humanoid.h"

static tdn_asset *humanoid;
static const tdn_skeleton *skel;
static tdn_clip *idle;

static int joint(const char *name) { return tdn_skeleton_find_joint(skel, name); }

static tdn_vec3 position(const tdn_mat4 *m) { return tdn_vec3_make(m->m[12], m->m[13], m->m[14]); }

static int flat_ground(void *user, tdn_vec3 from, tdn_vec3 dir, float max_distance, tdn_vec3 *hit, tdn_vec3 *normal)
{
    float height = *(const float *)user;
    if (dir.y >= 0.0f || from.y < height)
        return 0;
    float t = (from.y - height) / -dir.y;
    if (t > max_distance)
        return 0;
    *hit = tdn_vec3_add(from, tdn_vec3_scale(dir, t));
    *normal = tdn_vec3_make(0, 1, 0);
    return 1;
}

static tdn_graph *graph_with(const tdn_graph_ik_desc *ik, int ik_count, tdn_graph_instance **in)
{
    static const tdn_param_desc params[] = { { .name = "reach", .type = TDN_PARAM_VEC3 },
                                             { .name = "look", .type = TDN_PARAM_VEC3 },
                                             { .name = "w", .value = { 1 } } };
    tdn_node_desc node = { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP };
    tdn_graph_desc gd = { .skeleton = skel,
                          .clips = (const tdn_clip *const *)&idle,
                          .clip_count = 1,
                          .params = params,
                          .param_count = 3,
                          .nodes = &node,
                          .node_count = 1,
                          .ik = ik,
                          .ik_count = ik_count };
    tdn_graph *g = NULL;
    tdn_error err = { 0 };
    if (tdn_graph_create(&gd, &g, &counting, &err) != TDN_OK) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return NULL;
    }
    CHECK(tdn_graph_instance_create(g, in, &counting, NULL) == TDN_OK);
    return g;
}

static void arm_head_and_chain(void)
{
    /* jobs run in order: the look-at turns spine_05, which carries the arms, so it goes first */
    tdn_graph_ik_desc ik[] = {
        { .kind = TDN_GRAPH_IK_LOOK_AT,
          .root = joint("spine_05"),
          .end = joint("head"),
          .target = "look",
          .axis = { 0, 0, 1 } },
        { .kind = TDN_GRAPH_IK_TWO_BONE,
          .root = joint("upperarm_r"),
          .middle = joint("lowerarm_r"),
          .end = joint("hand_r"),
          .target = "reach",
          .weight = { "w", 0 } },
        { .kind = TDN_GRAPH_IK_FABRIK, .root = joint("clavicle_l"), .end = joint("hand_l"), .target = "reach" },
    };
    tdn_graph_instance *in = NULL;
    tdn_graph *g = graph_with(ik, 3, &in);
    if (!CHECK(g != NULL))
        return;
    int joints = tdn_skeleton_joint_count(skel);
    tdn_pose pose, plain;
    tdn_pose_create(joints, &pose, NULL, NULL);
    tdn_pose_create(joints, &plain, NULL, NULL);
    tdn_mat4 *model = malloc(sizeof *model * (size_t)joints);
    const float reach[3] = { -0.2f, 1.3f, 0.35f }, look[3] = { 0.8f, 1.9f, 2.0f };
    tdn_graph_set_vector(in, 0, reach, NULL);
    tdn_graph_set_vector(in, 1, look, NULL);
    tdn_graph_update(in, 0.5f, NULL);
    CHECK(tdn_graph_evaluate(in, &pose, NULL) == TDN_OK);
    tdn_model_space(skel, &pose, NULL, model, NULL);
    /* the right hand (two-bone) and the left (FABRIK from the clavicle) on the same point */
    tdn_vec3 target = tdn_vec3_make(reach[0], reach[1], reach[2]);
    CHECK(tdn_vec3_length(tdn_vec3_sub(position(&model[joint("hand_r")]), target)) < 1e-4f);
    CHECK(tdn_vec3_length(tdn_vec3_sub(position(&model[joint("hand_l")]), target)) < 2e-3f);
    CHECK(tdn_graph_ik_reached(in, 1));
    /* the head's +z points at the look target */
    tdn_vec3 head = position(&model[joint("head")]);
    tdn_vec3 face = tdn_vec3_normalize(
        tdn_vec3_make(model[joint("head")].m[8], model[joint("head")].m[9], model[joint("head")].m[10]));
    tdn_vec3 to = tdn_vec3_normalize(tdn_vec3_sub(tdn_vec3_make(look[0], look[1], look[2]), head));
    CHECK(acosf(fminf(1.0f, tdn_vec3_dot(face, to))) < 1e-3f);
    /* weight 0 on the arm: the right arm is the clip's own */
    tdn_graph_set_float(in, 2, 0.0f, NULL);
    tdn_graph_update(in, 0.0f, NULL);
    tdn_graph_evaluate(in, &pose, NULL);
    tdn_clip_sample(idle, tdn_graph_clip_time(in, 0), &plain, NULL);
    int arm[3] = { joint("upperarm_r"), joint("lowerarm_r"), joint("hand_r") }, same = 1;
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < TDN_POSE_ROWS; r++)
            same &= tdn_pose_crow(&pose, r)[arm[k]] == tdn_pose_crow(&plain, r)[arm[k]];
    CHECK(same);
    CHECK(!tdn_graph_ik_reached(in, 1));
    free(model);
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&plain);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    CHECK_EQ_INT(live_blocks, 0);
}

static void feet_on_raised_ground(void)
{
    tdn_foot_placement_desc feet = { .leg_count = 2,
                                     .legs = { { joint("thigh_l"), joint("calf_l"), joint("foot_l") },
                                               { joint("thigh_r"), joint("calf_r"), joint("foot_r") } } };
    const char *contacts[2] = { "contact_l", "contact_r" };
    tdn_graph_ik_desc ik[] = { { .kind = TDN_GRAPH_IK_FOOT_PLACEMENT, .feet = &feet, .contact_curves = contacts } };
    tdn_graph_instance *in = NULL;
    tdn_graph *g = graph_with(ik, 1, &in);
    if (!CHECK(g != NULL))
        return;
    int joints = tdn_skeleton_joint_count(skel);
    tdn_pose pose;
    tdn_pose_create(joints, &pose, NULL, NULL);
    tdn_mat4 *model = malloc(sizeof *model * (size_t)joints);
    static float height = 0.08f; /* the ground 8 cm up: both feet must climb */
    CHECK(tdn_graph_set_ground(in, flat_ground, &height, NULL, NULL) == TDN_OK);
    tdn_vec3 target = { -1, -1, -1 };
    CHECK_EQ_INT(tdn_graph_foot_target(in, 0, 0, &target), 0); /* not solved yet */
    CHECK(target.x == -1.0f);
    long blocks = live_blocks;
    for (int f = 0; f < 120; f++) { /* two seconds to settle */
        tdn_graph_update(in, 1.0f / 60.0f, NULL);
        tdn_graph_evaluate(in, &pose, NULL);
    }
    CHECK_EQ_INT(live_blocks, blocks); /* no allocation per frame */
    tdn_model_space(skel, &pose, NULL, model, NULL);
    /* each ankle at its rest height (0.06 m) above the raised ground */
    for (int side = 0; side < 2; side++) {
        float ankle = model[joint(side ? "foot_r" : "foot_l")].m[13];
        CHECK_NEAR(ankle, height + 0.06f, 1e-3);
    }
    CHECK(tdn_graph_ik_reached(in, 0));
    /* the target solved for is where the ankle went */
    for (int side = 0; side < 2; side++) {
        CHECK_EQ_INT(tdn_graph_foot_target(in, 0, side, &target), 1);
        const float *ankle = model[joint(side ? "foot_r" : "foot_l")].m;
        CHECK_NEAR(tdn_vec3_length(tdn_vec3_sub(target, tdn_vec3_make(ankle[12], ankle[13], ankle[14]))), 0, 1e-4);
    }
    /* the legs and the contacts used: idle stands on both feet */
    CHECK_EQ_INT(tdn_graph_foot_count(g, 0), 2);
    CHECK_EQ_INT(tdn_graph_foot_joint(g, 0, 1), joint("foot_r"));
    CHECK_NEAR(tdn_graph_foot_contact(in, 0, 0), 1, 0);
    CHECK(tdn_graph_ik_kind_of(g, 0) == TDN_GRAPH_IK_FOOT_PLACEMENT && tdn_graph_ik_count(g) == 1);
    CHECK(tdn_graph_set_foot_locking(in, 0, NULL) == TDN_OK);
    tdn_graph_update(in, 1.0f / 60.0f, NULL);
    tdn_graph_evaluate(in, &pose, NULL);
    CHECK_NEAR(tdn_graph_foot_contact(in, 0, 1), 1, 0); /* still measured, not passed on */
    /* without a ground the job does not run: no target from an earlier frame */
    CHECK(tdn_graph_set_ground(in, NULL, NULL, NULL, NULL) == TDN_OK);
    tdn_graph_update(in, 1.0f / 60.0f, NULL);
    tdn_graph_evaluate(in, &pose, NULL);
    CHECK_EQ_INT(tdn_graph_foot_target(in, 0, 0, &target), 0);
    free(model);
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
}

static void bad_jobs_are_named(void)
{
    tdn_graph_ik_desc cases[] = {
        { .kind = TDN_GRAPH_IK_TWO_BONE,
          .root = joint("hand_r"),
          .middle = joint("lowerarm_r"),
          .end = joint("upperarm_r"),
          .target = "reach" },
        { .kind = TDN_GRAPH_IK_FABRIK, .root = joint("hand_r"), .end = joint("head"), .target = "reach" },
        { .kind = TDN_GRAPH_IK_LOOK_AT, .root = joint("spine_05"), .end = joint("head"), .target = "w" },
        { .kind = TDN_GRAPH_IK_FOOT_PLACEMENT },
        { .kind = 77 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tdn_graph_instance *in = NULL;
        tdn_param_desc params[] = { { .name = "reach", .type = TDN_PARAM_VEC3 }, { .name = "w" } };
        tdn_node_desc node = { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP };
        tdn_graph_desc gd = { .skeleton = skel,
                              .clips = (const tdn_clip *const *)&idle,
                              .clip_count = 1,
                              .params = params,
                              .param_count = 2,
                              .nodes = &node,
                              .node_count = 1,
                              .ik = &cases[k],
                              .ik_count = 1 };
        tdn_graph *g = NULL;
        tdn_error err = { 0 };
        CHECK(tdn_graph_create(&gd, &g, &counting, &err) != TDN_OK);
        CHECK(g == NULL && strcmp(err.where, "ik[0]") == 0);
        CHECK_EQ_INT(live_blocks, 0);
        (void)in;
    }
}

int main(void)
{
    CHECK(tdn_humanoid_create(NULL, &humanoid, NULL, NULL) == TDN_OK);
    skel = tdn_asset_skeleton(humanoid);
    CHECK(tdn_clip_create(&(tdn_clip_desc){ .source = tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, "idle")) },
                          &idle, NULL, NULL) == TDN_OK);
    RUN(arm_head_and_chain);
    RUN(feet_on_raised_ground);
    RUN(bad_jobs_are_named);
    tdn_clip_destroy(idle);
    tdn_asset_destroy(humanoid);
    return check_summary();
}
