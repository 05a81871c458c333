/* CCD: random reachable targets are reached within the iteration limit without limits (the
 * iteration distribution is printed) with the root anchored and every bone length kept; with
 * joint limits every limit holds (swing and twist measured against the rest rotation, in
 * double precision from the model matrices) and the fraction that still converges is printed;
 * damping bounds each joint's turn per iteration; unreachable targets end in a straight chain
 * pointing at them; weights fade; bad arguments change nothing; nothing is allocated. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "ik_chain_rig.h"

static const int chain_bones[5] = { 2, 4, 8, 10, 16 };
/* Targets keep 2% of the chain's length away from the edges of its reach (see
 * reachable_target); CCD's convergence is linear and slows on long chains, so the property is
 * checked with a generous limit and the share within the default limit is printed. */
enum { ROUNDS = 200, CONVERGE_LIMIT = 2000 };

static void reachable_targets_converge(void)
{
    check_rng rng = { 2024 };
    printf("CCD iterations to 1e-3 of the chain length (limit %d):\n", CONVERGE_LIMIT);
    for (int c = 0; c < 5; c++) {
        int iterations[ROUNDS], reached = 0, rounds = 0, within_default = 0;
        double worst_error = 0, worst_bone = 0, worst_root = 0, worst_model = 0;
        for (int round = 0; round < ROUNDS; round++) {
            rig r;
            if (!CHECK(rig_init(&r, chain_bones[c], &rng, 0.5f, 0, NULL)))
                return;
            turn_chain(&r, &rng, 0.4f);
            tdn_vec3 target = reachable_target(&r, &rng, 1.2f);
            tdn_mat4 before[MAX_JOINTS];
            memcpy(before, r.model, sizeof before);
            tdn_ik_ccd_job ik = { r.joints, r.count, target, 0.0f, CONVERGE_LIMIT, NULL, 0.0f, 1.0f };
            tdn_ik_result res = { -1, -1, -1 };
            CHECK_EQ_INT(tdn_ik_ccd(r.skel, &ik, &r.pose, r.model, &res, NULL), TDN_OK);
            double error = dlen(dsub(position(&r.model[r.joints[r.count - 1]]), dv(target)));
            shape_check s = check_shape(&r, before, NULL);
            worst_error = fmax(worst_error, error / r.total);
            worst_bone = fmax(worst_bone, s.bone);
            worst_root = fmax(worst_root, s.root);
            worst_model = fmax(worst_model, s.model);
            reached += res.reached == 1 && error <= 1e-3 * r.total * (1 + 1e-4);
            CHECK_NEAR(res.error, error, 1e-6);
            iterations[rounds++] = res.iterations;
            within_default += res.iterations <= TDN_CCD_DEFAULT_ITERATIONS;
            rig_free(&r);
        }
        char what[64];
        snprintf(what, sizeof what, "%2d bones, %5.1f%% within %d:", chain_bones[c], 100.0 * within_default / rounds,
                 TDN_CCD_DEFAULT_ITERATIONS);
        print_distribution(what, iterations, rounds);
        CHECK_EQ_INT(reached, rounds);
        CHECK(worst_error <= 1e-3 * (1 + 1e-4));
        CHECK_NEAR(worst_bone, 0, 1e-5);
        CHECK_NEAR(worst_root, 0, 1e-6);
        CHECK_NEAR(worst_model, 0, 2e-5);
    }
}

static void limits_hold(void)
{
    check_rng rng = { 99 };
    printf("CCD with cone 0.35-0.8 rad and twist 0.2-0.5 rad limits on every joint (limit %d iterations):\n",
           TDN_CCD_DEFAULT_ITERATIONS);
    for (int c = 0; c < 5; c++) {
        int iterations[ROUNDS], reached = 0, rounds = 0;
        double worst_swing = -1, worst_twist = -1, worst_bone = 0, worst_root = 0, mean_error = 0;
        for (int round = 0; round < ROUNDS; round++) {
            rig r;
            if (!CHECK(rig_init(&r, chain_bones[c], &rng, 0.5f, 0, NULL)))
                return;
            tdn_ik_limit limits[TDN_MAX_IK_CHAIN];
            for (int i = 0; i < r.count; i++)
                limits[i] = (tdn_ik_limit){ check_rng_float(&rng, 0.35f, 0.8f), check_rng_float(&rng, 0.2f, 0.5f) };
            turn_within(&r, &rng, limits, 0.9f); /* the target: the end under turns within the limits */
            tdn_vec3 target = tdn_vec3_make((float)r.model[r.joints[r.count - 1]].m[12],
                                            (float)r.model[r.joints[r.count - 1]].m[13],
                                            (float)r.model[r.joints[r.count - 1]].m[14]);
            tdn_pose_set_rest(&r.pose, r.skel, NULL);
            turn_within(&r, &rng, limits, 0.3f); /* the start, within the limits too */
            tdn_mat4 before[MAX_JOINTS];
            memcpy(before, r.model, sizeof before);
            tdn_ik_ccd_job ik = { r.joints, r.count, target, 0.0f, 0, limits, 0.0f, 1.0f };
            tdn_ik_result res;
            CHECK_EQ_INT(tdn_ik_ccd(r.skel, &ik, &r.pose, r.model, &res, NULL), TDN_OK);
            for (int i = 0; i + 1 < r.count; i++) {
                double swing, twist;
                measure_limit(&r, i, &swing, &twist);
                worst_swing = fmax(worst_swing, swing - limits[i].cone);
                worst_twist = fmax(worst_twist, fabs(twist) - limits[i].twist);
            }
            shape_check s = check_shape(&r, before, NULL);
            worst_bone = fmax(worst_bone, s.bone);
            worst_root = fmax(worst_root, s.root);
            double error = dlen(dsub(position(&r.model[r.joints[r.count - 1]]), dv(target)));
            reached += error <= 1e-3 * r.total * (1 + 1e-4);
            mean_error += error / r.total / ROUNDS;
            iterations[rounds++] = res.iterations;
            rig_free(&r);
        }
        char what[64];
        snprintf(what, sizeof what, "%2d bones, %3.0f%% converge:", chain_bones[c], 100.0 * reached / rounds);
        print_distribution(what, iterations, rounds);
        printf(
            "     largest swing past its cone %.2e rad, twist past its limit %.2e rad, mean error %.2e of the length\n",
            worst_swing, worst_twist, mean_error);
        CHECK(worst_swing <= 2e-4);
        CHECK(worst_twist <= 2e-4);
        CHECK_NEAR(worst_bone, 0, 1e-5);
        CHECK_NEAR(worst_root, 0, 1e-6);
    }
}

/* One damped iteration turns no joint by more than max_step; damped solves still converge. */
static void damping_bounds_each_turn(void)
{
    check_rng rng = { 31 };
    const float step = 0.05f;
    double worst = 0;
    int iterations[ROUNDS], reached = 0;
    for (int round = 0; round < ROUNDS; round++) {
        rig r;
        if (!CHECK(rig_init(&r, chain_bones[round % 5], &rng, 0.5f, 0, NULL)))
            return;
        tdn_vec3 target = reachable_target(&r, &rng, 1.2f);
        tdn_pose start;
        tdn_pose_create(r.joint_count, &start, NULL, NULL);
        tdn_pose_copy(&start, &r.pose, NULL);
        tdn_mat4 start_model[MAX_JOINTS];
        memcpy(start_model, r.model, sizeof start_model);
        tdn_ik_ccd_job ik = { r.joints, r.count, target, 0.0f, 1, NULL, step, 1.0f };
        tdn_ik_result res;
        CHECK_EQ_INT(tdn_ik_ccd(r.skel, &ik, &r.pose, r.model, &res, NULL), TDN_OK);
        CHECK_EQ_INT(res.iterations, 1);
        for (int i = 0; i + 1 < r.count; i++)
            worst = fmax(worst,
                         check_quat_angle(tdn_pose_get(&start, r.joints[i]).r, tdn_pose_get(&r.pose, r.joints[i]).r));
        tdn_pose_copy(&r.pose, &start, NULL);
        memcpy(r.model, start_model, sizeof start_model);
        ik.max_iterations = CONVERGE_LIMIT;
        tdn_ik_ccd(r.skel, &ik, &r.pose, r.model, &res, NULL);
        iterations[round] = res.iterations;
        reached += res.reached;
        tdn_pose_destroy(&start);
        rig_free(&r);
    }
    printf("CCD damped to 0.05 rad per joint per iteration: largest turn in one iteration %.6f rad\n", worst);
    print_distribution("damped, all chain lengths:", iterations, ROUNDS);
    CHECK(worst <= step + 1e-5);
    CHECK(worst > 0.9 * step);
    CHECK_EQ_INT(reached, ROUNDS);
}

static void unreachable_targets_straighten_the_chain(void)
{
    check_rng rng = { 7 };
    double worst_angle = 0, worst_bone = 0, worst_root = 0, worst_error = 0;
    int iterations[5 * 40], rounds = 0;
    for (int c = 0; c < 5; c++)
        for (int round = 0; round < 40; round++) {
            rig r;
            if (!CHECK(rig_init(&r, chain_bones[c], &rng, 0.5f, 0, NULL)))
                return;
            turn_chain(&r, &rng, 0.6f);
            dvec a = position(&r.model[r.joints[0]]);
            dvec dir = dv(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1)));
            double distance = r.total * check_rng_float(&rng, 1.001f, 3.0f);
            dvec t = { a.x + dir.x * distance, a.y + dir.y * distance, a.z + dir.z * distance };
            tdn_mat4 before[MAX_JOINTS];
            memcpy(before, r.model, sizeof before);
            tdn_ik_ccd_job ik = {
                r.joints, r.count, tdn_vec3_make((float)t.x, (float)t.y, (float)t.z), 0, CONVERGE_LIMIT, NULL, 0, 1
            };
            tdn_ik_result res;
            CHECK_EQ_INT(tdn_ik_ccd(r.skel, &ik, &r.pose, r.model, &res, NULL), TDN_OK);
            CHECK_EQ_INT(res.reached, 0);
            iterations[rounds++] = res.iterations;
            for (int i = 0; i + 1 < r.count; i++) {
                dvec bone = dsub(position(&r.model[r.joints[i + 1]]), position(&r.model[r.joints[i]]));
                double cosine = ddot(bone, dir) / dlen(bone);
                worst_angle = fmax(worst_angle, acos(cosine > 1 ? 1 : cosine));
            }
            shape_check s = check_shape(&r, before, NULL);
            worst_bone = fmax(worst_bone, s.bone);
            worst_root = fmax(worst_root, s.root);
            worst_error = fmax(worst_error, fabs(res.error - (distance - r.total)) / r.total);
            rig_free(&r);
        }
    printf(
        "CCD unreachable: largest bone direction off the root-to-target line %.2e rad, error above the gap %.2e of the length\n",
        worst_angle, worst_error);
    print_distribution("passes until the end stops closing in:", iterations, rounds);
    CHECK(worst_angle <= 1e-3);
    CHECK_NEAR(worst_bone, 0, 1e-5);
    CHECK_NEAR(worst_root, 0, 1e-6);
    CHECK_NEAR(worst_error, 0, 1e-5);
}

static void weights_fade_the_solve(void)
{
    check_rng rng = { 5 };
    rig r;
    if (!CHECK(rig_init(&r, 8, &rng, 0.5f, 0, NULL)))
        return;
    turn_chain(&r, &rng, 0.4f);
    tdn_vec3 target = reachable_target(&r, &rng, 1.2f);
    tdn_pose start, full;
    tdn_pose_create(r.joint_count, &start, NULL, NULL);
    tdn_pose_create(r.joint_count, &full, NULL, NULL);
    tdn_pose_copy(&start, &r.pose, NULL);
    tdn_mat4 start_model[MAX_JOINTS];
    memcpy(start_model, r.model, sizeof start_model);
    const float zero_weights[2] = { 0.0f, -3.0f };
    for (int k = 0; k < 2; k++) {
        tdn_ik_ccd_job ik = { r.joints, r.count, target, 0, 0, NULL, 0, zero_weights[k] };
        tdn_ik_result res = { -1, -1, -1 };
        CHECK_EQ_INT(tdn_ik_ccd(r.skel, &ik, &r.pose, r.model, &res, NULL), TDN_OK);
        CHECK(memcmp(r.pose.data, start.data, tdn_pose_bytes(r.joint_count)) == 0);
        CHECK(memcmp(r.model, start_model, sizeof start_model) == 0);
        CHECK_EQ_INT(res.iterations, 0);
        CHECK_NEAR(res.error, dlen(dsub(position(&start_model[r.joints[r.count - 1]]), dv(target))), 1e-6);
    }
    tdn_ik_ccd_job ik = { r.joints, r.count, target, 0, 0, NULL, 0, 1.0f };
    tdn_ik_ccd(r.skel, &ik, &r.pose, r.model, NULL, NULL);
    tdn_pose_copy(&full, &r.pose, NULL);
    const float fractions[2] = { 0.5f, 0.25f };
    for (int k = 0; k < 2; k++) {
        tdn_pose_copy(&r.pose, &start, NULL);
        memcpy(r.model, start_model, sizeof start_model);
        ik.weight = fractions[k];
        CHECK_EQ_INT(tdn_ik_ccd(r.skel, &ik, &r.pose, r.model, NULL, NULL), TDN_OK);
        double worst = 0, turned = 0;
        for (int i = 0; i + 1 < r.count; i++) {
            tdn_quat q0 = tdn_pose_get(&start, r.joints[i]).r, q1 = tdn_pose_get(&full, r.joints[i]).r;
            tdn_quat qw = tdn_pose_get(&r.pose, r.joints[i]).r;
            double whole = check_quat_angle(q0, q1);
            turned = fmax(turned, whole);
            worst = fmax(worst, fabs(check_quat_angle(q0, qw) - fractions[k] * whole));
            worst = fmax(worst, fabs(check_quat_angle(qw, q1) - (1 - fractions[k]) * whole));
        }
        CHECK(turned > 0.1);
        CHECK_NEAR(worst, 0, 1e-4);
        shape_check s = check_shape(&r, start_model, NULL);
        CHECK_NEAR(s.bone, 0, 1e-5);
        CHECK_NEAR(s.model, 0, 2e-5);
    }
    tdn_pose_destroy(&start);
    tdn_pose_destroy(&full);
    rig_free(&r);
}

static void bad_arguments_change_nothing(void)
{
    check_rng rng = { 17 };
    rig r;
    if (!CHECK(rig_init(&r, 4, &rng, 0.3f, 0, NULL)))
        return;
    tdn_pose before, wrong;
    tdn_pose_create(r.joint_count, &before, NULL, NULL);
    tdn_pose_create(r.joint_count + 1, &wrong, NULL, NULL);
    tdn_pose_copy(&before, &r.pose, NULL);
    tdn_mat4 model_before[MAX_JOINTS];
    memcpy(model_before, r.model, sizeof model_before);
    const tdn_vec3 t = tdn_vec3_make(0.4f, 1.1f, 0.0f);
    const int side = r.joint_count - 1; /* the side joint hangs off joints[2]: not below joints[3] */
    int reversed[5], skipping_side[3] = { r.joints[0], r.joints[3], side },
                     out_of_range[3] = { r.joints[0], r.joints[1], 999 };
    int repeated[3] = { r.joints[0], r.joints[1], r.joints[1] };
    for (int i = 0; i < 5; i++)
        reversed[i] = r.joints[4 - i];
    tdn_ik_limit bad_limits[5] = { { 0.5f, 0 }, { -0.1f, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
    const tdn_ik_ccd_job bad[] = {
        { NULL, 5, t, 0, 0, NULL, 0, 1 },
        { r.joints, 1, t, 0, 0, NULL, 0, 1 },
        { r.joints, TDN_MAX_IK_CHAIN + 1, t, 0, 0, NULL, 0, 1 },
        { reversed, 5, t, 0, 0, NULL, 0, 1 },
        { skipping_side, 3, t, 0, 0, NULL, 0, 1 },
        { out_of_range, 3, t, 0, 0, NULL, 0, 1 },
        { repeated, 3, t, 0, 0, NULL, 0, 1 },
        { r.joints, 5, { NAN, 0, 0 }, 0, 0, NULL, 0, 1 },
        { r.joints, 5, t, NAN, 0, NULL, 0, 1 },
        { r.joints, 5, t, 0, -1, NULL, 0, 1 },
        { r.joints, 5, t, 0, 0, bad_limits, 0, 1 },
        { r.joints, 5, t, 0, 0, NULL, NAN, 1 },
        { r.joints, 5, t, 0, 0, NULL, -0.1f, 1 },
        { r.joints, 5, t, 0, 0, NULL, 0, NAN },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tdn_ik_result res = { 123, 4.5f, 6 };
        CHECK_EQ_INT(tdn_ik_ccd(r.skel, &bad[i], &r.pose, r.model, &res, NULL), TDN_ERR_ARGUMENT);
        CHECK_EQ_INT(res.iterations, 123);
    }
    tdn_ik_ccd_job ok = { r.joints, 5, t, 0, 0, NULL, 0, 1 };
    CHECK_EQ_INT(tdn_ik_ccd(NULL, &ok, &r.pose, r.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_ccd(r.skel, NULL, &r.pose, r.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_ccd(r.skel, &ok, NULL, r.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_ccd(r.skel, &ok, &r.pose, NULL, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_ccd(r.skel, &ok, &wrong, r.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK(memcmp(r.pose.data, before.data, tdn_pose_bytes(r.joint_count)) == 0);
    CHECK(memcmp(r.model, model_before, sizeof model_before) == 0);
    /* degenerate but valid: the target on the root, a zero-length bone; finite */
    tdn_vec3 on_root = tdn_vec3_make(r.model[r.joints[0]].m[12], r.model[r.joints[0]].m[13],
                                     r.model[r.joints[0]].m[14]);
    tdn_transform x = tdn_pose_get(&r.pose, r.joints[2]);
    x.t = tdn_vec3_make(0, 0, 0);
    tdn_pose_set(&r.pose, r.joints[2], &x);
    tdn_model_space(r.skel, &r.pose, NULL, r.model, NULL);
    tdn_ik_limit limits[5] = { { 0.5f, 0.2f }, { 0.5f, 0.2f }, { 0.5f, 0.2f }, { 0.5f, 0.2f }, { 0, 0 } };
    for (int k = 0; k < 2; k++) {
        tdn_ik_ccd_job degenerate = { r.joints, 5, on_root, 0, 0, k ? limits : NULL, 0.1f, 1 };
        CHECK_EQ_INT(tdn_ik_ccd(r.skel, &degenerate, &r.pose, r.model, NULL, NULL), TDN_OK);
        CHECK(all_finite(&r));
    }
    tdn_pose_destroy(&before);
    tdn_pose_destroy(&wrong);
    rig_free(&r);
}

static void solving_never_allocates(void)
{
    check_rng rng = { 21 };
    rig r;
    if (!CHECK(rig_init(&r, 16, &rng, 0.5f, 0, &counting)))
        return;
    tdn_ik_limit limits[17];
    for (int i = 0; i < 17; i++)
        limits[i] = (tdn_ik_limit){ 0.6f, 0.3f };
    const long blocks = live_blocks, calls = malloc_calls;
    for (int k = 0; k < 200; k++) {
        tdn_vec3 t = tdn_vec3_make(check_rng_float(&rng, -2, 2), check_rng_float(&rng, -1, 3),
                                   check_rng_float(&rng, -2, 2));
        tdn_ik_ccd_job ik = { r.joints,           r.count, t, 0, 0, k % 2 ? limits : NULL, k % 4 ? 0.0f : 0.1f,
                              k % 3 ? 1.0f : 0.5f };
        tdn_ik_result res;
        tdn_ik_ccd(r.skel, &ik, &r.pose, r.model, &res, NULL);
    }
    CHECK_EQ_INT(live_blocks, blocks);
    CHECK_EQ_INT(malloc_calls, calls);
    printf("allocations during 200 solves: %ld through the hooks, %ld through malloc (%s)\n", live_blocks - blocks,
           malloc_calls - calls, COUNT_MALLOC ? "counted" : "not counted under AddressSanitizer");
    rig_free(&r);
    CHECK_EQ_INT(live_blocks, 0);
}

int main(void)
{
    RUN(reachable_targets_converge);
    RUN(limits_hold);
    RUN(damping_bounds_each_turn);
    RUN(unreachable_targets_straighten_the_chain);
    RUN(weights_fade_the_solve);
    RUN(bad_arguments_change_nothing);
    RUN(solving_never_allocates);
    return check_summary();
}
