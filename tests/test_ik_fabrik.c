/* FABRIK: random reachable targets are reached within the iteration limit (the iteration
 * distribution is printed) with the root anchored and every bone length kept; with joint
 * limits every limit holds (swing and twist measured against the rest rotation, in double
 * precision from the model matrices) and the fraction that still converges is printed;
 * unreachable targets give a straight chain pointing at them; weights fade; warm starts;
 * a chain rooted at the skeleton's root under a placement; bad arguments change nothing;
 * nothing is allocated. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "ik_chain_rig.h"

static const int chain_bones[5] = { 2, 4, 8, 10, 16 };
/* FABRIK's convergence is linear; on two bones it is slow where the target nears the inner
 * edge of the reachable shell (a plain double-precision FABRIK written separately needed up
 * to 117 iterations there, median 11), so the property is checked with a generous limit and
 * the share within the default limit is printed. */
enum { ROUNDS = 200, CONVERGE_LIMIT = 256 };

static void reachable_targets_converge(void)
{
    check_rng rng = { 2024 };
    printf("FABRIK iterations to 1e-3 of the chain length (limit %d):\n", CONVERGE_LIMIT);
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
            tdn_ik_fabrik_job ik = { r.joints, r.count, target, 0.0f, CONVERGE_LIMIT, NULL, 1.0f };
            tdn_ik_result res = { -1, -1, -1 };
            CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res, NULL), TDN_OK);
            double error = dlen(dsub(position(&r.model[r.joints[r.count - 1]]), dv(target)));
            shape_check s = check_shape(&r, before, NULL);
            worst_error = fmax(worst_error, error / r.total);
            worst_bone = fmax(worst_bone, s.bone);
            worst_root = fmax(worst_root, s.root);
            worst_model = fmax(worst_model, s.model);
            reached += res.reached == 1 && error <= 1e-3 * r.total * (1 + 1e-4);
            CHECK_NEAR(res.error, error, 1e-6);
            iterations[rounds++] = res.iterations;
            within_default += res.iterations <= TDN_FABRIK_DEFAULT_ITERATIONS;
            rig_free(&r);
        }
        char what[64];
        snprintf(what, sizeof what, "%2d bones, %5.1f%% within %d:", chain_bones[c], 100.0 * within_default / rounds,
                 TDN_FABRIK_DEFAULT_ITERATIONS);
        print_distribution(what, iterations, rounds);
        CHECK_EQ_INT(reached, rounds);
        CHECK(worst_error <= 1e-3 * (1 + 1e-4));
        CHECK_NEAR(worst_bone, 0, 1e-5);
        CHECK_NEAR(worst_root, 0, 1e-6);
        CHECK_NEAR(worst_model, 0, 2e-5);
    }
}

/* ---- limits ---- */

static void limits_hold(void)
{
    check_rng rng = { 99 };
    printf("FABRIK with cone 0.35-0.8 rad and twist 0.2-0.5 rad limits on every joint (limit %d iterations):\n",
           TDN_FABRIK_DEFAULT_ITERATIONS);
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
            /* the target: where the end is under rotations within the limits */
            turn_within(&r, &rng, limits, 0.9f);
            tdn_vec3 target = tdn_vec3_make((float)r.model[r.joints[r.count - 1]].m[12],
                                            (float)r.model[r.joints[r.count - 1]].m[13],
                                            (float)r.model[r.joints[r.count - 1]].m[14]);
            tdn_pose_set_rest(&r.pose, r.skel, NULL);
            turn_within(&r, &rng, limits, 0.3f); /* the start, within the limits too */
            tdn_mat4 before[MAX_JOINTS];
            memcpy(before, r.model, sizeof before);
            tdn_ik_fabrik_job ik = { r.joints, r.count, target, 0.0f, 0, limits, 1.0f };
            tdn_ik_result res;
            CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res, NULL), TDN_OK);
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
            CHECK_EQ_INT(res.reached, error <= res.error * (1 + 1e-5) && res.error <= 1e-3f * (float)r.total);
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
        CHECK(reached >= rounds / 2); /* most converge; the fraction is printed above */
    }
}

static void unreachable_targets_straighten_the_chain(void)
{
    check_rng rng = { 7 };
    double worst_angle = 0, worst_bone = 0, worst_root = 0, worst_error = 0;
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
            tdn_ik_fabrik_job ik = {
                r.joints, r.count, tdn_vec3_make((float)t.x, (float)t.y, (float)t.z), 0, 0, NULL, 1
            };
            tdn_ik_result res;
            CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res, NULL), TDN_OK);
            CHECK_EQ_INT(res.iterations, 1);
            CHECK_EQ_INT(res.reached, 0);
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
    printf("unreachable: largest bone direction off the root-to-target line %.2e rad\n", worst_angle);
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

    /* 0 (and below): bit-identical, with the result still reported */
    const float zero_weights[2] = { 0.0f, -3.0f };
    for (int k = 0; k < 2; k++) {
        tdn_ik_fabrik_job ik = { r.joints, r.count, target, 0, 0, NULL, zero_weights[k] };
        tdn_ik_result res = { -1, -1, -1 };
        CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res, NULL), TDN_OK);
        CHECK(memcmp(r.pose.data, start.data, tdn_pose_bytes(r.joint_count)) == 0);
        CHECK(memcmp(r.model, start_model, sizeof start_model) == 0);
        CHECK_EQ_INT(res.iterations, 0);
        CHECK_EQ_INT(res.reached, 0);
        CHECK_NEAR(res.error, dlen(dsub(position(&start_model[r.joints[r.count - 1]]), dv(target))), 1e-6);
    }
    tdn_ik_fabrik_job ik = { r.joints, r.count, target, 0, 0, NULL, 1.0f };
    tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, NULL, NULL);
    tdn_pose_copy(&full, &r.pose, NULL);
    const float fractions[2] = { 0.5f, 0.25f };
    for (int k = 0; k < 2; k++) {
        tdn_pose_copy(&r.pose, &start, NULL);
        memcpy(r.model, start_model, sizeof start_model);
        ik.weight = fractions[k];
        CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, NULL, NULL), TDN_OK);
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
        /* joints outside the chain keep their local transforms bit for bit */
        for (int j = 0; j < r.joint_count; j++) {
            int in_chain = 0;
            for (int i = 0; i + 1 < r.count; i++)
                in_chain |= r.joints[i] == j;
            tdn_transform a = tdn_pose_get(&r.pose, j), b = tdn_pose_get(&start, j);
            if (!in_chain)
                CHECK(memcmp(&a, &b, sizeof a) == 0);
        }
        shape_check s = check_shape(&r, start_model, NULL);
        CHECK_NEAR(s.bone, 0, 1e-5);
        CHECK_NEAR(s.model, 0, 2e-5);
    }
    tdn_pose_destroy(&start);
    tdn_pose_destroy(&full);
    rig_free(&r);
}

/* A solved pose solved again stays bit for bit; a target moving 2% of the chain length per
 * frame is followed from the previous answer in few iterations. */
static void warm_starts(void)
{
    check_rng rng = { 11 };
    printf("FABRIK warm, target moving 2%% of the chain length per frame:\n");
    for (int c = 0; c < 5; c++) {
        rig r;
        if (!CHECK(rig_init(&r, chain_bones[c], &rng, 0.5f, 0, NULL)))
            return;
        /* a circle through the reach shell's middle, in a plane through the root, staying
         * 15% of the shell's depth away from its edges */
        const dvec a = position(&r.model[r.joints[0]]);
        const double inner = inner_reach(&r);
        const dvec w = dv(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1)));
        dvec side = dcross(w, dv(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1))));
        side = dscale(side, 1.0 / dlen(side));
        const double radius = 0.35 * (r.total - inner), mid = 0.5 * (inner + r.total);
        const dvec centre = { a.x + w.x * mid, a.y + w.y * mid, a.z + w.z * mid };
        const dvec u = dscale(w, radius), v = dscale(side, radius);
        const double step = 0.02 * r.total / radius; /* radians per frame: 2% of the length */
        int iterations[300], reached = 0;
        for (int f = 0; f < 300; f++) {
            double angle = f * step;
            dvec t = { centre.x + u.x * cos(angle) + v.x * sin(angle), centre.y + u.y * cos(angle) + v.y * sin(angle),
                       centre.z + u.z * cos(angle) + v.z * sin(angle) };
            tdn_ik_fabrik_job ik = { r.joints, r.count,        tdn_vec3_make((float)t.x, (float)t.y, (float)t.z),
                                     0,        CONVERGE_LIMIT, NULL,
                                     1 };
            tdn_ik_result res;
            tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res, NULL);
            iterations[f] = res.iterations;
            reached += res.reached;
            if (f == 299) { /* the same target again: nothing to do */
                tdn_pose again;
                tdn_pose_create(r.joint_count, &again, NULL, NULL);
                tdn_pose_copy(&again, &r.pose, NULL);
                tdn_mat4 model_again[MAX_JOINTS];
                memcpy(model_again, r.model, sizeof model_again);
                tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res, NULL);
                CHECK_EQ_INT(res.iterations, 0);
                CHECK(memcmp(again.data, r.pose.data, tdn_pose_bytes(r.joint_count)) == 0);
                CHECK(memcmp(model_again, r.model, sizeof model_again) == 0);
                tdn_pose_destroy(&again);
            }
        }
        char what[64];
        snprintf(what, sizeof what, "%2d bones (frames 1-299):", chain_bones[c]);
        print_distribution(what, iterations + 1, 299);
        CHECK(reached >= 299);
        CHECK(iterations[150] <= iterations[0] || iterations[0] <= 3); /* warm is not slower than cold */
        rig_free(&r);
    }
}

/* The chain's root is the skeleton's root, model space under a scaled, turned placement. */
static void chain_at_the_skeleton_root(void)
{
    check_rng rng = { 3 };
    rig r;
    if (!CHECK(rig_init(&r, 6, &rng, 0.4f, 1, NULL)))
        return;
    tdn_transform place = { { 5, 0, 1 },
                            tdn_quat_from_axis_angle(tdn_vec3_normalize(tdn_vec3_make(1, 1, 0)), 0.7f),
                            { 2, 2, 2 } };
    tdn_mat4 root = tdn_transform_to_mat4(&place);
    tdn_model_space(r.skel, &r.pose, &root, r.model, NULL);
    r.total *= 2;
    /* a reachable target: the end under random turns, in the placed model space */
    tdn_pose keep;
    tdn_pose_create(r.joint_count, &keep, NULL, NULL);
    tdn_pose_copy(&keep, &r.pose, NULL);
    turn_chain(&r, &rng, 1.0f);
    tdn_model_space(r.skel, &r.pose, &root, r.model, NULL);
    dvec t = position(&r.model[r.joints[r.count - 1]]);
    tdn_pose_copy(&r.pose, &keep, NULL);
    tdn_model_space(r.skel, &r.pose, &root, r.model, NULL);
    tdn_mat4 before[MAX_JOINTS];
    memcpy(before, r.model, sizeof before);
    tdn_ik_fabrik_job ik = { r.joints, r.count, tdn_vec3_make((float)t.x, (float)t.y, (float)t.z), 0, 0, NULL, 1 };
    tdn_ik_result res;
    CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res, NULL), TDN_OK);
    CHECK_EQ_INT(res.reached, 1);
    CHECK(dlen(dsub(position(&r.model[r.joints[r.count - 1]]), t)) <= 1e-3 * r.total * 1.0001);
    shape_check s = check_shape(&r, before, &root);
    CHECK_NEAR(s.bone, 0, 1e-5);
    CHECK_NEAR(s.root, 0, 1e-5);
    CHECK_NEAR(s.model, 0, 5e-5);
    tdn_pose_destroy(&keep);
    rig_free(&r);
}

static void degenerate_cases_stay_finite(void)
{
    check_rng rng = { 13 };
    rig r;
    if (!CHECK(rig_init(&r, 4, &rng, 0.3f, 0, NULL)))
        return;
    /* the target on the root, on a middle joint; then a zero-length bone */
    tdn_vec3 on_root = tdn_vec3_make(r.model[r.joints[0]].m[12], r.model[r.joints[0]].m[13],
                                     r.model[r.joints[0]].m[14]);
    tdn_vec3 on_middle = tdn_vec3_make(r.model[r.joints[2]].m[12], r.model[r.joints[2]].m[13],
                                       r.model[r.joints[2]].m[14]);
    tdn_ik_fabrik_job ik = { r.joints, r.count, on_root, 0, 0, NULL, 1 };
    CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, NULL, NULL), TDN_OK);
    CHECK(all_finite(&r));
    ik.target = on_middle;
    CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, NULL, NULL), TDN_OK);
    CHECK(all_finite(&r));
    tdn_transform x = tdn_pose_get(&r.pose, r.joints[2]);
    x.t = tdn_vec3_make(0, 0, 0); /* joints[1] and joints[2] coincide */
    tdn_pose_set(&r.pose, r.joints[2], &x);
    tdn_model_space(r.skel, &r.pose, NULL, r.model, NULL);
    ik.target = tdn_vec3_add(on_root, tdn_vec3_make(0.1f, 0.05f, 0.0f));
    tdn_ik_limit limits[5] = { { 0.5f, 0.2f }, { 0.5f, 0.2f }, { 0.5f, 0.2f }, { 0.5f, 0.2f }, { 0, 0 } };
    for (int k = 0; k < 2; k++) {
        ik.limits = k ? limits : NULL;
        CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, NULL, NULL), TDN_OK);
        CHECK(all_finite(&r));
    }
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
    const int side = r.joint_count - 1; /* the side joint: not below the chain's end */
    int reversed[5], skipping_side[3] = { r.joints[0], r.joints[3], side },
                     out_of_range[3] = { r.joints[0], r.joints[1], 999 };
    int repeated[3] = { r.joints[0], r.joints[1], r.joints[1] }, negative[2] = { -1, r.joints[1] };
    for (int i = 0; i < 5; i++)
        reversed[i] = r.joints[4 - i];
    tdn_ik_limit bad_limits[5] = { { 0.5f, 0 }, { -0.1f, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
    tdn_ik_limit nan_limits[5] = { { 0, NAN }, { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
    const tdn_ik_fabrik_job bad[] = {
        { NULL, 5, t, 0, 0, NULL, 1 },
        { r.joints, 1, t, 0, 0, NULL, 1 },
        { r.joints, 0, t, 0, 0, NULL, 1 },
        { r.joints, TDN_MAX_IK_CHAIN + 1, t, 0, 0, NULL, 1 },
        { reversed, 5, t, 0, 0, NULL, 1 },
        { skipping_side, 3, t, 0, 0, NULL, 1 },
        { out_of_range, 3, t, 0, 0, NULL, 1 },
        { repeated, 3, t, 0, 0, NULL, 1 },
        { negative, 2, t, 0, 0, NULL, 1 },
        { r.joints, 5, { NAN, 0, 0 }, 0, 0, NULL, 1 },
        { r.joints, 5, { 0, INFINITY, 0 }, 0, 0, NULL, 1 },
        { r.joints, 5, t, NAN, 0, NULL, 1 },
        { r.joints, 5, t, 0, -1, NULL, 1 },
        { r.joints, 5, t, 0, 0, bad_limits, 1 },
        { r.joints, 5, t, 0, 0, nan_limits, 1 },
        { r.joints, 5, t, 0, 0, NULL, NAN },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tdn_ik_result res = { 123, 4.5f, 6 };
        CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &bad[i], &r.pose, r.model, &res, NULL), TDN_ERR_ARGUMENT);
        CHECK_EQ_INT(res.iterations, 123); /* the result is not written either */
    }
    tdn_ik_fabrik_job ok = { r.joints, 5, t, 0, 0, NULL, 1 };
    CHECK_EQ_INT(tdn_ik_fabrik(NULL, &ok, &r.pose, r.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_fabrik(r.skel, NULL, &r.pose, r.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ok, NULL, r.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ok, &r.pose, NULL, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ok, &wrong, r.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK(memcmp(r.pose.data, before.data, tdn_pose_bytes(r.joint_count)) == 0);
    CHECK(memcmp(r.model, model_before, sizeof model_before) == 0);
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
        tdn_ik_fabrik_job ik = { r.joints, r.count, t, 0, 0, k % 2 ? limits : NULL, k % 3 ? 1.0f : 0.5f };
        tdn_ik_result res;
        tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res, NULL);
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
    RUN(unreachable_targets_straighten_the_chain);
    RUN(weights_fade_the_solve);
    RUN(warm_starts);
    RUN(chain_at_the_skeleton_root);
    RUN(degenerate_cases_stay_finite);
    RUN(bad_arguments_change_nothing);
    RUN(solving_never_allocates);
    return check_summary();
}
