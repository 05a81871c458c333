/* Two-bone IK: reachable targets are reached, bone lengths kept, the knee on the pole's side,
 * unreachable targets give a straight chain pointing at them, weights fade, degenerate chains
 * stay finite, bad arguments are refused. */
#include <string.h>

#include "check.h"

/* root(0) > hip(1) > thigh(2) > twist(3) > shin(4) > foot(5) > toe(6); root > spine(7)
 * The chain is thigh (upper) > shin (middle) > foot (end), with a twist joint in between. */
enum { N = 8, UPPER = 2, MIDDLE = 4, END = 5 };
static const int parents[N] = { -1, 0, 1, 2, 3, 4, 5, 0 };

static tdn_vec3 position(const tdn_mat4 *m) { return tdn_vec3_make(m->m[12], m->m[13], m->m[14]); }
static double distance(tdn_vec3 a, tdn_vec3 b) { return tdn_vec3_length(tdn_vec3_sub(a, b)); }

static tdn_skeleton *make_skeleton(float root_scale)
{
    tdn_transform rest[N];
    for (int i = 0; i < N; i++)
        rest[i] = tdn_transform_identity();
    rest[0].t = tdn_vec3_make(0.3f, 1.0f, -0.2f);
    rest[0].s = tdn_vec3_make(root_scale, root_scale, root_scale);
    rest[0].r = tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), 0.4f);
    rest[1].t = tdn_vec3_make(0.1f, -0.05f, 0);
    rest[2].t = tdn_vec3_make(0, -0.02f, 0.01f);
    rest[3].t = tdn_vec3_make(0, -0.2f, 0); /* twist halfway down the thigh */
    rest[4].t = tdn_vec3_make(0, -0.25f, 0.03f);
    rest[5].t = tdn_vec3_make(0, -0.42f, -0.02f);
    rest[6].t = tdn_vec3_make(0, -0.05f, 0.12f);
    rest[7].t = tdn_vec3_make(0, 0.2f, 0);
    rest[4].r = tdn_quat_from_axis_angle(tdn_vec3_make(1, 0, 0), -0.3f); /* a slightly bent knee */
    tdn_skeleton *s = NULL;
    tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = N, .parents = parents, .rest_pose = rest }, &s, NULL,
                        NULL);
    return s;
}

typedef struct rig {
    tdn_skeleton *skel;
    tdn_pose pose;
    tdn_mat4 model[N];
} rig;

static int rig_init(rig *r, float root_scale, check_rng *rng)
{
    r->skel = make_skeleton(root_scale);
    if (!r->skel)
        return 0;
    tdn_pose_create(N, &r->pose, NULL, NULL);
    tdn_pose_set_rest(&r->pose, r->skel, NULL);
    if (rng) /* some random rotation everywhere, so no axis is special */
        for (int j = 0; j < N; j++) {
            tdn_transform x = tdn_pose_get(&r->pose, j);
            tdn_vec3 axis = tdn_vec3_normalize(check_rng_vec3(rng, -1, 1));
            x.r = tdn_quat_mul(tdn_quat_from_axis_angle(axis, check_rng_float(rng, -0.6f, 0.6f)), x.r);
            tdn_pose_set(&r->pose, j, &x);
        }
    tdn_model_space(r->skel, &r->pose, NULL, r->model, NULL);
    return 1;
}

static void rig_free(rig *r)
{
    tdn_pose_destroy(&r->pose);
    tdn_skeleton_destroy(r->skel);
}

/* Model space recomputed from the pose agrees with what the solver left in model[]. */
static double model_mismatch(const rig *r, const tdn_mat4 *root)
{
    tdn_mat4 fresh[N];
    tdn_model_space(r->skel, &r->pose, root, fresh, NULL);
    double e = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < 16; i++)
            e = fmax(e, fabs((double)fresh[j].m[i] - r->model[j].m[i]));
    return e;
}

/* Signed side of the knee: positive when it lies on the pole's side of the hip-target line. */
static double knee_side(tdn_vec3 a, tdn_vec3 b, tdn_vec3 t, tdn_vec3 pole)
{
    tdn_vec3 dir = tdn_vec3_normalize(tdn_vec3_sub(t, a));
    tdn_vec3 kb = tdn_vec3_sub(b, a), kp = tdn_vec3_sub(pole, a);
    kb = tdn_vec3_sub(kb, tdn_vec3_scale(dir, tdn_vec3_dot(kb, dir)));
    kp = tdn_vec3_sub(kp, tdn_vec3_scale(dir, tdn_vec3_dot(kp, dir)));
    return tdn_vec3_dot(kb, tdn_vec3_normalize(kp));
}

static void reachable_targets_are_reached(void)
{
    check_rng rng = { 31337 };
    double worst_error = 0, worst_metres = 0, worst_length = 0, worst_model = 0, min_side = 1e9;
    int reached_all = 1, rounds = 0;
    for (int round = 0; round < 500; round++) {
        rig r;
        if (!rig_init(&r, round % 2 ? 1.0f : 1.7f, &rng))
            return;
        tdn_vec3 a = position(&r.model[UPPER]), b = position(&r.model[MIDDLE]), c = position(&r.model[END]);
        double l1 = distance(a, b), l2 = distance(b, c), full = l1 + l2;
        /* a target at a random distance strictly inside the reachable shell */
        double lo = fabs(l1 - l2), d = lo + (full - lo) * check_rng_float(&rng, 0.02f, 0.98f);
        tdn_vec3 dir = tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1));
        tdn_vec3 target = tdn_vec3_add(a, tdn_vec3_scale(dir, (float)d));
        tdn_vec3 off = tdn_vec3_scale(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1)), 0.5f);
        tdn_vec3 pole = tdn_vec3_add(tdn_vec3_scale(tdn_vec3_add(a, target), 0.5f), off);
        if (fabs(tdn_vec3_dot(tdn_vec3_normalize(tdn_vec3_sub(pole, a)), dir)) >
            0.95) { /* keep the pole off the line */
            rig_free(&r);
            continue;
        }
        int reached = -1;
        tdn_ik_two_bone_job ik = { UPPER, MIDDLE, END, target, pole, 1, 1.0f, 0.0f };
        CHECK_EQ_INT(tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, &reached, NULL), TDN_OK);
        tdn_vec3 a2 = position(&r.model[UPPER]), b2 = position(&r.model[MIDDLE]), c2 = position(&r.model[END]);
        worst_error = fmax(worst_error, distance(c2, target) / full);
        worst_metres = fmax(worst_metres, distance(c2, target));
        worst_length = fmax(worst_length, fmax(fabs(distance(a2, b2) - l1), fabs(distance(b2, c2) - l2)) / full);
        worst_model = fmax(worst_model, model_mismatch(&r, NULL));
        if (d > lo + 0.05 * (full - lo) && d < full - 0.05 * (full - lo)) /* the knee is visibly bent */
            min_side = fmin(min_side, knee_side(a2, b2, target, pole) / full);
        reached_all &= reached == 1;
        CHECK_NEAR(distance(a2, a), 0, 1e-6); /* the upper joint does not move */
        rounds++;
        rig_free(&r);
    }
    CHECK(rounds > 300);
    printf("two-bone: %d reachable targets, worst end error %.3g m (%.3g of the chain), worst bone length change "
           "%.3g of the chain\n",
           rounds, worst_metres, worst_error, worst_length);
    CHECK_NEAR(worst_metres, 0, 1e-5); /* the bars: 1e-5 m, lengths to 1e-6 relative */
    CHECK_NEAR(worst_length, 0, 1e-6);
    CHECK_NEAR(worst_model, 0, 1e-5);
    CHECK(min_side > 0.0);
    CHECK(reached_all);
}

static void unreachable_targets_straighten_the_chain_towards_them(void)
{
    check_rng rng = { 77 };
    for (int round = 0; round < 50; round++) {
        rig r;
        if (!rig_init(&r, 1.0f, &rng))
            return;
        tdn_vec3 a = position(&r.model[UPPER]), b = position(&r.model[MIDDLE]), c = position(&r.model[END]);
        double l1 = distance(a, b), l2 = distance(b, c), full = l1 + l2;
        tdn_vec3 dir = tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1));
        tdn_vec3 target = tdn_vec3_add(a, tdn_vec3_scale(dir, (float)(full * check_rng_float(&rng, 1.05f, 3.0f))));
        int reached = -1;
        tdn_ik_two_bone_job ik = { UPPER, MIDDLE, END, target, tdn_vec3_add(a, tdn_vec3_make(0, 0, 1)), 1, 1.0f, 0.0f };
        tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, &reached, NULL);
        tdn_vec3 b2 = position(&r.model[MIDDLE]), c2 = position(&r.model[END]);
        CHECK_NEAR(distance(c2, a), full, 1e-5 * full); /* fully extended */
        CHECK_NEAR(distance(b2, tdn_vec3_add(a, tdn_vec3_scale(dir, (float)l1))), 0,
                   1e-4 * full); /* knee on the line */
        CHECK_NEAR(distance(c2, tdn_vec3_add(a, tdn_vec3_scale(dir, (float)full))), 0, 1e-4 * full);
        CHECK_EQ_INT(reached, 0);
        rig_free(&r);
    }
}

/* A target closer than |l1 - l2|: the chain folds fully and points at it. */
static void too_close_targets_fold_the_chain_towards_them(void)
{
    check_rng rng = { 78 };
    rig r;
    if (!rig_init(&r, 1.0f, &rng))
        return;
    tdn_vec3 a = position(&r.model[UPPER]), b = position(&r.model[MIDDLE]), c = position(&r.model[END]);
    double l1 = distance(a, b), l2 = distance(b, c), gap = fabs(l1 - l2);
    tdn_vec3 dir = tdn_vec3_normalize(tdn_vec3_make(0.3f, -0.8f, 0.4f));
    tdn_ik_two_bone_job ik = { UPPER,
                               MIDDLE,
                               END,
                               tdn_vec3_add(a, tdn_vec3_scale(dir, (float)(0.4 * gap))),
                               tdn_vec3_add(a, tdn_vec3_make(0, 0, 1)),
                               1,
                               1.0f,
                               0.0f };
    tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, NULL, NULL);
    tdn_vec3 c2 = position(&r.model[END]);
    CHECK_NEAR(distance(c2, a), gap, 1e-5);
    CHECK_NEAR(tdn_vec3_dot(tdn_vec3_normalize(tdn_vec3_sub(c2, a)), dir), 1.0, 1e-5); /* the end as close as it gets */
    rig_free(&r);
}

static void weights_fade_the_solve(void)
{
    check_rng rng = { 5 };
    rig r, before;
    if (!rig_init(&r, 1.0f, &rng))
        return;
    before = r;
    tdn_pose_create(N, &before.pose, NULL, NULL);
    tdn_pose_copy(&before.pose, &r.pose, NULL);
    tdn_vec3 a = position(&r.model[UPPER]);
    tdn_vec3 target = tdn_vec3_add(a, tdn_vec3_make(0.2f, -0.5f, 0.3f));
    tdn_vec3 pole = tdn_vec3_add(a, tdn_vec3_make(0, 0, 1));

    /* weight 0: the pose and the model matrices are bit-identical */
    tdn_ik_two_bone_job ik = { UPPER, MIDDLE, END, target, pole, 1, 0.0f, 0.0f };
    int reached = -1;
    CHECK_EQ_INT(tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, &reached, NULL), TDN_OK);
    CHECK(memcmp(r.pose.data, before.pose.data, tdn_pose_bytes(N)) == 0);
    CHECK(memcmp(r.model, before.model, sizeof r.model) == 0);
    CHECK_EQ_INT(reached, 0);
    /* negative weights clamp to 0 */
    ik.weight = -2.0f;
    tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, NULL, NULL);
    CHECK(memcmp(r.pose.data, before.pose.data, tdn_pose_bytes(N)) == 0);

    /* weight 1 and weight 0.5 from the same start: the half solve's rotations lie half way */
    tdn_pose full;
    tdn_pose_create(N, &full, NULL, NULL);
    ik.weight = 1.0f;
    tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, NULL, NULL);
    tdn_pose_copy(&full, &r.pose, NULL);
    tdn_pose_copy(&r.pose, &before.pose, NULL);
    memcpy(r.model, before.model, sizeof r.model);
    ik.weight = 0.5f;
    tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, NULL, NULL);
    int joints[2] = { UPPER, MIDDLE };
    for (int i = 0; i < 2; i++) {
        tdn_quat q0 = tdn_pose_get(&before.pose, joints[i]).r, qh = tdn_pose_get(&r.pose, joints[i]).r;
        tdn_quat q1 = tdn_pose_get(&full, joints[i]).r;
        double whole = check_quat_angle(q0, q1);
        CHECK(whole > 0.05); /* the solve really turned this joint */
        CHECK_NEAR(check_quat_angle(q0, qh), 0.5 * whole, 1e-4);
        CHECK_NEAR(check_quat_angle(qh, q1), 0.5 * whole, 1e-4);
    }
    /* a quarter is a quarter of the angle (slerp, not nlerp, of the rotation deltas) */
    tdn_pose_copy(&r.pose, &before.pose, NULL);
    memcpy(r.model, before.model, sizeof r.model);
    ik.weight = 0.25f;
    tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, NULL, NULL);
    for (int i = 0; i < 2; i++) {
        tdn_quat q0 = tdn_pose_get(&before.pose, joints[i]).r, qq = tdn_pose_get(&r.pose, joints[i]).r;
        tdn_quat q1 = tdn_pose_get(&full, joints[i]).r;
        CHECK_NEAR(check_quat_angle(q0, qq), 0.25 * check_quat_angle(q0, q1), 1e-4);
    }
    tdn_pose_copy(&r.pose, &before.pose, NULL);
    memcpy(r.model, before.model, sizeof r.model);
    ik.weight = 0.5f;
    tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, NULL, NULL);
    /* the half-solved end lies between the start and the target */
    double start = distance(position(&before.model[END]), target), half = distance(position(&r.model[END]), target);
    CHECK(half < start && half > 1e-3);
    /* untouched joints keep their local transforms bit for bit */
    for (int j = 0; j < N; j++)
        if (j != UPPER && j != MIDDLE) {
            tdn_transform x = tdn_pose_get(&r.pose, j), y = tdn_pose_get(&before.pose, j);
            CHECK(memcmp(&x, &y, sizeof x) == 0);
        }
    tdn_pose_destroy(&full);
    tdn_pose_destroy(&before.pose);
    rig_free(&r);
}

/* A solved pose solved again for the same target stays put: the solver adds no twist of its
 * own, and the bend axis given as a hint is honoured. */
static void solved_pose_is_a_fixed_point_and_axis_hint_bends_about_it(void)
{
    check_rng rng = { 12 };
    rig r;
    if (!rig_init(&r, 1.0f, &rng))
        return;
    tdn_vec3 a = position(&r.model[UPPER]);
    tdn_vec3 target = tdn_vec3_add(a, tdn_vec3_make(0.1f, -0.55f, 0.15f));
    tdn_vec3 axis = tdn_vec3_make(1, 0, 0); /* bend about +x: the knee goes towards cross(dir, x) */
    tdn_ik_two_bone_job ik = { UPPER, MIDDLE, END, target, axis, 0, 1.0f, 0.0f };
    tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, NULL, NULL);
    tdn_vec3 b = position(&r.model[MIDDLE]), c = position(&r.model[END]);
    CHECK_NEAR(distance(c, target), 0, 1e-5);
    tdn_vec3 dir = tdn_vec3_normalize(tdn_vec3_sub(target, a));
    tdn_vec3 side = tdn_vec3_cross(dir, axis);
    CHECK(knee_side(a, b, target, tdn_vec3_add(a, side)) > 0.01);
    /* the plane of the chain is perpendicular to the axis */
    tdn_vec3 n = tdn_vec3_normalize(tdn_vec3_cross(tdn_vec3_sub(b, a), tdn_vec3_sub(c, b)));
    CHECK_NEAR(
        fabs(tdn_vec3_dot(n, tdn_vec3_normalize(tdn_vec3_sub(axis, tdn_vec3_scale(dir, tdn_vec3_dot(axis, dir)))))), 1,
        1e-4);

    tdn_pose solved;
    tdn_pose_create(N, &solved, NULL, NULL);
    tdn_pose_copy(&solved, &r.pose, NULL);
    tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, NULL, NULL);
    for (int j = 0; j < N; j++)
        CHECK_NEAR(check_quat_angle(tdn_pose_get(&r.pose, j).r, tdn_pose_get(&solved, j).r), 0, 2e-3);
    tdn_pose_destroy(&solved);
    rig_free(&r);
}

static void softening_pulls_in_near_full_extension(void)
{
    check_rng rng = { 99 };
    rig r;
    if (!rig_init(&r, 1.0f, &rng))
        return;
    tdn_vec3 a = position(&r.model[UPPER]), b = position(&r.model[MIDDLE]), c = position(&r.model[END]);
    double l1 = distance(a, b), l2 = distance(b, c), full = l1 + l2;
    tdn_pose start;
    tdn_pose_create(N, &start, NULL, NULL);
    tdn_pose_copy(&start, &r.pose, NULL);
    tdn_mat4 start_model[N];
    memcpy(start_model, r.model, sizeof start_model);
    tdn_vec3 dir = tdn_vec3_normalize(tdn_vec3_make(0.2f, -1, 0.1f));
    double prev = 0;
    int monotone = 1;
    for (int i = 0; i <= 40; i++) {
        double d = full * (0.9 + 0.01 * i); /* 0.9 .. 1.3 of full length */
        tdn_pose_copy(&r.pose, &start, NULL);
        memcpy(r.model, start_model, sizeof start_model);
        tdn_ik_two_bone_job ik = { UPPER,
                                   MIDDLE,
                                   END,
                                   tdn_vec3_add(a, tdn_vec3_scale(dir, (float)d)),
                                   tdn_vec3_add(a, tdn_vec3_make(0, 0, 1)),
                                   1,
                                   1.0f,
                                   0.95f };
        tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, NULL, NULL);
        double reach = distance(position(&r.model[END]), a);
        if (d <= 0.949 * full)
            CHECK_NEAR(reach, d, 1e-5 * full); /* below the softening start: exact */
        else if (d >= 0.96 * full)
            CHECK(reach < d - 1e-4 * full && reach < full); /* above: pulled in, never fully straight */
        monotone &= reach >= prev - 1e-7;
        prev = reach;
    }
    CHECK(monotone);
    /* the soft distance by hand at d = full: start + span (1 - e^-1), span = 0.05 full */
    tdn_pose_copy(&r.pose, &start, NULL);
    memcpy(r.model, start_model, sizeof start_model);
    tdn_ik_two_bone_job ik = {
        UPPER, MIDDLE, END,  tdn_vec3_add(a, tdn_vec3_scale(dir, (float)full)), tdn_vec3_add(a, tdn_vec3_make(0, 0, 1)),
        1,     1.0f,   0.95f
    };
    tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, NULL, NULL);
    CHECK_NEAR(distance(position(&r.model[END]), a), full * (0.95 + 0.05 * (1 - exp(-1.0))), 2e-5 * full);
    tdn_pose_destroy(&start);
    rig_free(&r);
}

/* The upper joint as a root of the skeleton, model space computed with a root placement. */
static void root_upper_joint_with_a_placement(void)
{
    const int p3[3] = { -1, 0, 1 };
    tdn_transform rest[3] = { tdn_transform_identity(), tdn_transform_identity(), tdn_transform_identity() };
    rest[1].t = tdn_vec3_make(1, 0, 0);
    rest[2].t = tdn_vec3_make(1, 0, 0);
    tdn_skeleton *s = NULL;
    tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 3, .parents = p3, .rest_pose = rest }, &s, NULL, NULL);
    if (!CHECK(s != NULL))
        return;
    tdn_pose pose;
    tdn_pose_create(3, &pose, NULL, NULL);
    tdn_pose_set_rest(&pose, s, NULL);
    tdn_transform place = { { 5, 0, 1 },
                            tdn_quat_from_axis_angle(tdn_vec3_normalize(tdn_vec3_make(1, 1, 0)), 0.7f),
                            { 2, 2, 2 } };
    tdn_mat4 root = tdn_transform_to_mat4(&place), model[3];
    tdn_model_space(s, &pose, &root, model, NULL);
    tdn_vec3 a = position(&model[0]);
    tdn_vec3 target = tdn_vec3_add(a, tdn_vec3_make(0.5f, 2.5f, 1.0f)); /* |.| = 2.78 < 4 (scaled chain) */
    int reached = -1;
    tdn_ik_two_bone_job ik = { 0, 1, 2, target, tdn_vec3_add(a, tdn_vec3_make(0, 0, -3)), 1, 1.0f, 0.0f };
    CHECK_EQ_INT(tdn_ik_two_bone(s, &ik, &pose, model, &reached, NULL), TDN_OK);
    CHECK_EQ_INT(reached, 1);
    CHECK_NEAR(distance(position(&model[2]), target), 0, 1e-4 * 4);
    tdn_mat4 fresh[3];
    tdn_model_space(s, &pose, &root, fresh, NULL);
    double e = 0;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 16; i++)
            e = fmax(e, fabs((double)fresh[j].m[i] - model[j].m[i]));
    CHECK_NEAR(e, 0, 1e-5);
    tdn_pose_destroy(&pose);
    tdn_skeleton_destroy(s);
}

static int all_finite(const tdn_pose *p, const tdn_mat4 *model, int n)
{
    for (int j = 0; j < n; j++) {
        tdn_transform x = tdn_pose_get(p, j);
        const float *v = &x.t.x;
        for (int k = 0; k < 10; k++)
            if (!isfinite(v[k]))
                return 0;
        for (int k = 0; k < 16; k++)
            if (!isfinite(model[j].m[k]))
                return 0;
    }
    return 1;
}

static void degenerate_chains_stay_finite(void)
{
    check_rng rng = { 8 };
    rig r;
    if (!rig_init(&r, 1.0f, &rng))
        return;
    tdn_vec3 a = position(&r.model[UPPER]), b = position(&r.model[MIDDLE]);
    tdn_pose start;
    tdn_pose_create(N, &start, NULL, NULL);
    tdn_pose_copy(&start, &r.pose, NULL);
    tdn_mat4 start_model[N];
    memcpy(start_model, r.model, sizeof start_model);
    struct {
        tdn_vec3 target, pole;
        int use_pole;
    } cases[] = {
        { a, tdn_vec3_add(a, tdn_vec3_make(0, 0, 1)), 1 }, /* target on the upper joint */
        { tdn_vec3_add(a, tdn_vec3_make(0, -0.5f, 0)), tdn_vec3_add(a, tdn_vec3_make(0, -1, 0)),
          1 },                                                                      /* pole on the line */
        { tdn_vec3_add(a, tdn_vec3_make(0, -0.5f, 0)), a, 1 },                      /* pole on the upper joint */
        { tdn_vec3_add(a, tdn_vec3_make(0, -0.5f, 0)), tdn_vec3_make(0, 1, 0), 0 }, /* axis along the line */
        { tdn_vec3_add(a, tdn_vec3_make(0, -0.5f, 0)), tdn_vec3_make(0, 0, 0), 0 }, /* zero axis */
        { b, b, 1 },                                                                /* target and pole on the knee */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tdn_pose_copy(&r.pose, &start, NULL);
        memcpy(r.model, start_model, sizeof start_model);
        tdn_ik_two_bone_job ik = { UPPER, MIDDLE, END, cases[i].target, cases[i].pole, cases[i].use_pole, 1.0f, 0.5f };
        CHECK_EQ_INT(tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, NULL, NULL), TDN_OK);
        CHECK(all_finite(&r.pose, r.model, N));
    }
    /* a pole on the line still reaches a reachable target */
    tdn_pose_copy(&r.pose, &start, NULL);
    memcpy(r.model, start_model, sizeof start_model);
    tdn_ik_two_bone_job ik = { UPPER, MIDDLE, END, cases[1].target, cases[1].pole, 1, 1.0f, 0.0f };
    tdn_ik_two_bone(r.skel, &ik, &r.pose, r.model, NULL, NULL);
    CHECK_NEAR(distance(position(&r.model[END]), cases[1].target), 0, 1e-5);

    /* a fully straight chain bends towards the pole */
    tdn_pose_set_rest(&r.pose, r.skel, NULL);
    tdn_transform knee = tdn_pose_get(&r.pose, MIDDLE);
    knee.r = tdn_quat_identity();
    knee.t = tdn_vec3_make(0, -0.25f, 0);
    tdn_pose_set(&r.pose, MIDDLE, &knee);
    tdn_transform foot = tdn_pose_get(&r.pose, END);
    foot.t = tdn_vec3_make(0, -0.42f, 0);
    tdn_pose_set(&r.pose, END, &foot);
    tdn_transform thigh = tdn_pose_get(&r.pose, UPPER);
    thigh.t = tdn_vec3_make(0, -0.02f, 0); /* the thigh's offset to the twist joint is (0,-0.2,0) */
    tdn_pose_set(&r.pose, UPPER, &thigh);
    tdn_model_space(r.skel, &r.pose, NULL, r.model, NULL);
    a = position(&r.model[UPPER]);
    tdn_vec3 target = tdn_vec3_add(a, tdn_vec3_make(0, -0.6f, 0));
    tdn_vec3 pole = tdn_vec3_add(a, tdn_vec3_make(0, -0.3f, 1));
    tdn_ik_two_bone_job straight = { UPPER, MIDDLE, END, target, pole, 1, 1.0f, 0.0f };
    tdn_ik_two_bone(r.skel, &straight, &r.pose, r.model, NULL, NULL);
    CHECK(all_finite(&r.pose, r.model, N));
    CHECK_NEAR(distance(position(&r.model[END]), target), 0, 1e-5);
    CHECK(knee_side(a, position(&r.model[MIDDLE]), target, pole) > 0.01);

    /* zero-length bones: the knee on the hip */
    rig z;
    if (rig_init(&z, 1.0f, NULL)) {
        tdn_transform x = tdn_pose_get(&z.pose, 3);
        x.t = tdn_vec3_make(0, 0, 0);
        tdn_pose_set(&z.pose, 3, &x);
        x = tdn_pose_get(&z.pose, MIDDLE);
        x.t = tdn_vec3_make(0, 0, 0);
        tdn_pose_set(&z.pose, MIDDLE, &x);
        tdn_model_space(z.skel, &z.pose, NULL, z.model, NULL);
        tdn_ik_two_bone_job zi = { UPPER,
                                   MIDDLE,
                                   END,
                                   tdn_vec3_add(position(&z.model[UPPER]), tdn_vec3_make(0.3f, -0.1f, 0)),
                                   tdn_vec3_make(0, 0, 1),
                                   1,
                                   1.0f,
                                   0.9f };
        CHECK_EQ_INT(tdn_ik_two_bone(z.skel, &zi, &z.pose, z.model, NULL, NULL), TDN_OK);
        CHECK(all_finite(&z.pose, z.model, N));
        /* the one real bone points at the target */
        tdn_vec3 to_end = tdn_vec3_normalize(tdn_vec3_sub(position(&z.model[END]), position(&z.model[UPPER])));
        CHECK_NEAR(tdn_vec3_dot(to_end, tdn_vec3_normalize(tdn_vec3_make(0.3f, -0.1f, 0))), 1, 1e-5);
        rig_free(&z);
    }
    tdn_pose_destroy(&start);
    rig_free(&r);
}

static void bad_arguments_change_nothing(void)
{
    rig r;
    if (!rig_init(&r, 1.0f, NULL))
        return;
    tdn_pose before, wrong;
    tdn_pose_create(N, &before, NULL, NULL), tdn_pose_create(N + 1, &wrong, NULL, NULL);
    tdn_pose_copy(&before, &r.pose, NULL);
    tdn_mat4 model_before[N];
    memcpy(model_before, r.model, sizeof model_before);
    tdn_vec3 t = tdn_vec3_make(0, 0, 0), p = tdn_vec3_make(0, 0, 1);
    const tdn_ik_two_bone_job bad[] = {
        { -1, MIDDLE, END, t, p, 1, 1, 0 },
        { UPPER, N, END, t, p, 1, 1, 0 },
        { UPPER, MIDDLE, N + 3, t, p, 1, 1, 0 },
        { UPPER, UPPER, END, t, p, 1, 1, 0 },
        { UPPER, MIDDLE, MIDDLE, t, p, 1, 1, 0 },
        { MIDDLE, UPPER, END, t, p, 1, 1, 0 }, /* middle is not below upper */
        { UPPER, MIDDLE, 7, t, p, 1, 1, 0 },   /* end (the spine) is not below middle */
        { UPPER, MIDDLE, END, { NAN, 0, 0 }, p, 1, 1, 0 },
        { UPPER, MIDDLE, END, t, { 0, INFINITY, 0 }, 1, 1, 0 },
        { UPPER, MIDDLE, END, t, p, 1, NAN, 0 },
        { UPPER, MIDDLE, END, t, p, 1, 1, NAN },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ_INT(tdn_ik_two_bone(r.skel, &bad[i], &r.pose, r.model, NULL, NULL), TDN_ERR_ARGUMENT);
    tdn_ik_two_bone_job ok = { UPPER, MIDDLE, END, t, p, 1, 1, 0 };
    CHECK_EQ_INT(tdn_ik_two_bone(NULL, &ok, &r.pose, r.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_two_bone(r.skel, NULL, &r.pose, r.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_two_bone(r.skel, &ok, NULL, r.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_two_bone(r.skel, &ok, &r.pose, NULL, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_two_bone(r.skel, &ok, &wrong, r.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK(memcmp(r.pose.data, before.data, tdn_pose_bytes(N)) == 0);
    CHECK(memcmp(r.model, model_before, sizeof model_before) == 0);
    tdn_pose_destroy(&before), tdn_pose_destroy(&wrong);
    rig_free(&r);
}

int main(void)
{
    RUN(reachable_targets_are_reached);
    RUN(unreachable_targets_straighten_the_chain_towards_them);
    RUN(too_close_targets_fold_the_chain_towards_them);
    RUN(weights_fade_the_solve);
    RUN(solved_pose_is_a_fixed_point_and_axis_hint_bends_about_it);
    RUN(softening_pulls_in_near_full_extension);
    RUN(root_upper_joint_with_a_placement);
    RUN(degenerate_chains_stay_finite);
    RUN(bad_arguments_change_nothing);
    return check_summary();
}
