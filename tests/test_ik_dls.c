/* Damped least squares IK: reachable targets (made by posing the chain at random and reading
 * where its effector went) are reached; the error never grows from one pass to the next; two
 * hands on one spine reach two targets, or settle where the weighted squared error is
 * stationary (its gradient measured by finite differences); limits hold (swing and twist
 * measured another way); weights fade; bad arguments change nothing; nothing is allocated. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "tendon/io/humanoid.h"

enum { MAXJ = 80 };

static tdn_vec3 position(const tdn_mat4 *m) { return tdn_vec3_make(m->m[12], m->m[13], m->m[14]); }
static double distance(tdn_vec3 a, tdn_vec3 b) { return tdn_vec3_length(tdn_vec3_sub(a, b)); }

/* A chain of `bones` bones (joints 0..bones), each 1/bones long with a slight random bend,
 * plus a side joint (bones + 1) hanging off joint 1 that nothing should move, and a placement
 * root above it all when `placed` (joint 0 is then a skeleton root moved by a root matrix). */
static tdn_skeleton *make_chain(int bones, check_rng *rng, const tdn_allocator *allocator)
{
    int n = bones + 2, parents[MAXJ];
    tdn_transform rest[MAXJ];
    for (int j = 0; j < n; j++) {
        parents[j] = j - 1;
        rest[j] = tdn_transform_identity();
        if (j > 0 && j <= bones) {
            rest[j].t = tdn_vec3_scale(
                tdn_vec3_normalize(tdn_vec3_add(tdn_vec3_make(0, 1, 0), check_rng_vec3(rng, -0.3f, 0.3f))),
                1.0f / (float)bones);
            rest[j].r = tdn_quat_from_axis_angle(tdn_vec3_normalize(check_rng_vec3(rng, -1, 1)),
                                                 check_rng_float(rng, 0, 0.3f));
        }
    }
    parents[bones + 1] = 1;
    rest[bones + 1].t = tdn_vec3_make(0.1f, 0, 0);
    tdn_skeleton *s = NULL;
    tdn_skeleton_desc desc = { .joint_count = n, .parents = parents, .rest_pose = rest };
    tdn_skeleton_create(&desc, &s, allocator, NULL);
    return s;
}

static double model_mismatch(const tdn_skeleton *s, const tdn_pose *pose, const tdn_mat4 *root, const tdn_mat4 *model)
{
    tdn_mat4 fresh[MAXJ];
    int n = tdn_skeleton_joint_count(s);
    tdn_model_space(s, pose, root, fresh, NULL);
    double e = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < 16; i++)
            e = fmax(e, fabs((double)fresh[j].m[i] - model[j].m[i]));
    return e;
}

static void turn_local(tdn_pose *pose, int j, tdn_quat q)
{
    tdn_transform x = tdn_pose_get(pose, j);
    x.r = tdn_quat_normalize(tdn_quat_mul(q, x.r));
    tdn_pose_set(pose, j, &x);
}

static int compare_ints(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* Random reachable targets: pose the chain at random, read the effector, go back, solve. */
static void reachable_single_targets_converge(void)
{
    check_rng rng = { 4242 };
    const int sizes[] = { 2, 4, 8, 16 };
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        int bones = sizes[c], n = bones + 2, joints[MAXJ], iters[400];
        tdn_skeleton *s = make_chain(bones, &rng, NULL);
        if (!CHECK(s != NULL))
            return;
        for (int j = 0; j <= bones; j++)
            joints[j] = j;
        tdn_pose pose, start;
        tdn_pose_create(n, &pose, NULL, NULL);
        tdn_pose_create(n, &start, NULL, NULL);
        tdn_transform place = { { 0.5f, 0.2f, -1.0f },
                                tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), 0.7f),
                                { 1, 1, 1 } };
        tdn_mat4 root = tdn_transform_to_mat4(&place), model[MAXJ], before[MAXJ];
        int rounds = 400, reached = 0;
        double worst = 0, worst_model = 0, worst_length = 0, worst_still = 0;
        for (int round = 0; round < rounds; round++) {
            tdn_pose_set_rest(&start, s, NULL);
            for (int j = 0; j <= bones; j++) /* a random start */
                turn_local(&start, j,
                           tdn_quat_from_axis_angle(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1)),
                                                    check_rng_float(&rng, 0, 0.5f)));
            tdn_pose_copy(&pose, &start, NULL);
            for (int j = 0; j < bones; j++) /* the chain posed elsewhere: the target */
                turn_local(&pose, j,
                           tdn_quat_from_axis_angle(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1)),
                                                    check_rng_float(&rng, 0, 1.2f)));
            tdn_model_space(s, &pose, &root, model, NULL);
            tdn_dls_target target = { bones, position(&model[bones]), 1.0f };
            tdn_pose_copy(&pose, &start, NULL);
            tdn_model_space(s, &pose, &root, model, NULL);
            memcpy(before, model, sizeof(tdn_mat4) * (size_t)n);
            tdn_ik_dls_job ik = { .joints = joints,
                                  .joint_count = bones,
                                  .targets = &target,
                                  .target_count = 1,
                                  .weight = 1.0f,
                                  .tolerance = 1e-5f,
                                  .max_iterations = 200 };
            tdn_ik_result result = { -1, -1, -1 };
            CHECK_EQ_INT(tdn_ik_dls(s, &ik, &pose, model, &result, NULL), TDN_OK);
            double err = distance(position(&model[bones]), target.position);
            CHECK_NEAR(result.error, err, 1e-6);
            reached += result.reached;
            worst = fmax(worst, err);
            iters[round] = result.iterations;
            worst_model = fmax(worst_model, model_mismatch(s, &pose, &root, model));
            for (int j = 1; j < n; j++) {
                int p = tdn_skeleton_parent(s, j);
                worst_length = fmax(worst_length, fabs(distance(position(&model[j]), position(&model[p])) -
                                                       distance(position(&before[j]), position(&before[p]))));
            }
            /* the effector and the side joint keep their local rotations bit for bit */
            tdn_transform a = tdn_pose_get(&pose, bones), b = tdn_pose_get(&start, bones);
            tdn_transform a2 = tdn_pose_get(&pose, bones + 1), b2 = tdn_pose_get(&start, bones + 1);
            worst_still = fmax(worst_still, (memcmp(&a, &b, sizeof a) != 0) + (memcmp(&a2, &b2, sizeof a2) != 0));
        }
        qsort(iters, (size_t)rounds, sizeof iters[0], compare_ints);
        printf(
            "dls %2d bones: %d/%d reached (tolerance 1e-5, chain length 1), worst error %.2e; iterations min %d median %d "
            "p90 %d p99 %d max %d\n",
            bones, reached, rounds, worst, iters[0], iters[rounds / 2], iters[rounds * 9 / 10],
            iters[rounds * 99 / 100], iters[rounds - 1]);
        CHECK_EQ_INT(reached, rounds);
        CHECK(worst <= 1e-5);
        CHECK_NEAR(worst_model, 0, 1e-5);
        CHECK_NEAR(worst_length, 0, 1e-5);
        CHECK(worst_still == 0);
        tdn_pose_destroy(&pose);
        tdn_pose_destroy(&start);
        tdn_skeleton_destroy(s);
    }
}

/* max_iterations = k for k = 1, 2, ...: the error after k passes never exceeds that after k - 1
 * (reachable and unreachable targets, with the default damping). */
static void error_never_grows_pass_by_pass(void)
{
    check_rng rng = { 17 };
    int bones = 6, n = bones + 2, joints[MAXJ], sequences = 0, worst_rise_count = 0;
    tdn_skeleton *s = make_chain(bones, &rng, NULL);
    if (!CHECK(s != NULL))
        return;
    for (int j = 0; j < bones; j++)
        joints[j] = j;
    tdn_pose pose, start;
    tdn_pose_create(n, &pose, NULL, NULL);
    tdn_pose_create(n, &start, NULL, NULL);
    tdn_mat4 model[MAXJ], start_model[MAXJ];
    double ratio_sum = 0;
    for (int round = 0; round < 40; round++) {
        tdn_pose_set_rest(&start, s, NULL);
        for (int j = 0; j < bones; j++)
            turn_local(&start, j,
                       tdn_quat_from_axis_angle(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1)),
                                                check_rng_float(&rng, 0, 0.6f)));
        tdn_model_space(s, &start, NULL, start_model, NULL);
        /* anywhere within 1.5 chain lengths of the root: a third out of reach */
        tdn_vec3 dir = tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1));
        tdn_dls_target target = { bones, tdn_vec3_scale(dir, check_rng_float(&rng, 0.1f, 1.5f)), 1.0f };
        double prev = distance(position(&start_model[bones]), target.position), first = prev;
        int rises = 0;
        for (int k = 1; k <= 40; k++) {
            tdn_pose_copy(&pose, &start, NULL);
            memcpy(model, start_model, sizeof(tdn_mat4) * (size_t)n);
            tdn_ik_dls_job ik = { .joints = joints,
                                  .joint_count = bones,
                                  .targets = &target,
                                  .target_count = 1,
                                  .weight = 1.0f,
                                  .tolerance = 1e-7f,
                                  .max_iterations = k };
            tdn_ik_result r;
            tdn_ik_dls(s, &ik, &pose, model, &r, NULL);
            CHECK(r.iterations <= k);
            rises += r.error > prev;
            prev = r.error;
        }
        ratio_sum += prev / first;
        worst_rise_count += rises;
        sequences++;
    }
    printf("dls monotone: %d sequences of 40 passes, %d rises; mean error after 40 passes %.3f of the start's\n",
           sequences, worst_rise_count, ratio_sum / sequences);
    CHECK_EQ_INT(worst_rise_count, 0);
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&start);
    tdn_skeleton_destroy(s);
}

typedef struct humanoid {
    tdn_asset *asset;
    const tdn_skeleton *skel;
    int n, joints[32], count, hand_l, hand_r;
} humanoid;

static int humanoid_init(humanoid *h)
{
    tdn_error err = { 0 };
    h->asset = NULL;
    if (!CHECK_EQ_INT(tdn_humanoid_create(NULL, &h->asset, NULL, &err), TDN_OK))
        return 0;
    h->skel = tdn_asset_skeleton(h->asset);
    h->n = tdn_skeleton_joint_count(h->skel);
    const char *names[] = { "spine_01",   "spine_02",   "spine_03",   "spine_04",   "spine_05",  "clavicle_l",
                            "upperarm_l", "lowerarm_l", "clavicle_r", "upperarm_r", "lowerarm_r" };
    h->count = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        h->joints[h->count++] = tdn_skeleton_find_joint(h->skel, names[i]);
    qsort(h->joints, (size_t)h->count, sizeof(int), compare_ints);
    h->hand_l = tdn_skeleton_find_joint(h->skel, "hand_l");
    h->hand_r = tdn_skeleton_find_joint(h->skel, "hand_r");
    for (int i = 0; i < h->count; i++)
        if (!CHECK(h->joints[i] >= 0))
            return 0;
    return CHECK(h->hand_l >= 0 && h->hand_r >= 0);
}

static double weighted_objective(const humanoid *h, const tdn_pose *pose, const tdn_dls_target *t)
{
    tdn_mat4 m[MAXJ];
    tdn_model_space(h->skel, pose, NULL, m, NULL);
    double f = 0;
    for (int k = 0; k < 2; k++) {
        double d = distance(position(&m[t[k].effector]), t[k].position);
        f += t[k].weight * d * d;
    }
    return f;
}

/* The gradient of sum w |e|^2 over the listed joints' rotations (three local axes each), by
 * central differences in double. */
static double gradient_norm(const humanoid *h, const tdn_pose *pose, const tdn_dls_target *t)
{
    tdn_pose p;
    tdn_pose_create(h->n, &p, NULL, NULL);
    double g2 = 0, step = 1e-3;
    for (int i = 0; i < h->count; i++)
        for (int a = 0; a < 3; a++) {
            tdn_vec3 axis = tdn_vec3_make(a == 0, a == 1, a == 2);
            tdn_pose_copy(&p, pose, NULL);
            turn_local(&p, h->joints[i], tdn_quat_from_axis_angle(axis, (float)step));
            double fp = weighted_objective(h, &p, t);
            tdn_pose_copy(&p, pose, NULL);
            turn_local(&p, h->joints[i], tdn_quat_from_axis_angle(axis, (float)-step));
            double fm = weighted_objective(h, &p, t);
            double g = (fp - fm) / (2 * step);
            g2 += g * g;
        }
    tdn_pose_destroy(&p);
    return sqrt(g2);
}

static void two_hands_on_one_spine(void)
{
    humanoid h;
    if (!humanoid_init(&h))
        return;
    check_rng rng = { 99 };
    tdn_pose pose, rest;
    tdn_pose_create(h.n, &pose, NULL, NULL);
    tdn_pose_create(h.n, &rest, NULL, NULL);
    tdn_pose_set_rest(&rest, h.skel, NULL);
    tdn_mat4 model[MAXJ], rest_model[MAXJ];
    tdn_model_space(h.skel, &rest, NULL, rest_model, NULL);
    /* reachable pairs: both arms and the spine posed at random */
    int reached = 0, rounds = 100;
    double worst = 0;
    for (int round = 0; round < rounds; round++) {
        tdn_pose_copy(&pose, &rest, NULL);
        for (int i = 0; i < h.count; i++)
            turn_local(&pose, h.joints[i],
                       tdn_quat_from_axis_angle(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1)),
                                                check_rng_float(&rng, 0, i < 5 ? 0.3f : 1.0f)));
        tdn_model_space(h.skel, &pose, NULL, model, NULL);
        tdn_dls_target targets[2] = { { h.hand_l, position(&model[h.hand_l]), 1.0f },
                                      { h.hand_r, position(&model[h.hand_r]), 1.0f } };
        tdn_pose_copy(&pose, &rest, NULL);
        memcpy(model, rest_model, sizeof(tdn_mat4) * (size_t)h.n);
        tdn_ik_dls_job ik = { .joints = h.joints,
                              .joint_count = h.count,
                              .targets = targets,
                              .target_count = 2,
                              .weight = 1.0f,
                              .tolerance = 1e-4f,
                              .max_iterations = 200 };
        tdn_ik_result r;
        CHECK_EQ_INT(tdn_ik_dls(h.skel, &ik, &pose, model, &r, NULL), TDN_OK);
        reached += r.reached;
        for (int k = 0; k < 2; k++)
            worst = fmax(worst, distance(position(&model[targets[k].effector]), targets[k].position));
        CHECK_NEAR(model_mismatch(h.skel, &pose, NULL, model), 0, 1e-5);
    }
    printf("dls two hands on the spine: %d/%d reachable pairs reached, worst hand error %.2e m\n", reached, rounds,
           worst);
    CHECK_EQ_INT(reached, rounds);
    CHECK(worst <= 1e-4);

    /* out of reach: the hands pulled 1.5 m apart each way at chest height, and ahead */
    const float weights[][2] = { { 1, 1 }, { 4, 1 }, { 1, 4 } };
    double err[3][2];
    for (int c = 0; c < 3; c++) {
        tdn_dls_target targets[2] = { { h.hand_l, tdn_vec3_make(1.5f, 1.3f, 0.6f), weights[c][0] },
                                      { h.hand_r, tdn_vec3_make(-1.5f, 1.5f, 0.6f), weights[c][1] } };
        tdn_pose_copy(&pose, &rest, NULL);
        memcpy(model, rest_model, sizeof(tdn_mat4) * (size_t)h.n);
        double g0 = gradient_norm(&h, &pose, targets);
        tdn_ik_dls_job ik = { .joints = h.joints,
                              .joint_count = h.count,
                              .targets = targets,
                              .target_count = 2,
                              .weight = 1.0f,
                              .max_iterations = 1000 };
        tdn_ik_result r;
        CHECK_EQ_INT(tdn_ik_dls(h.skel, &ik, &pose, model, &r, NULL), TDN_OK);
        double g1 = gradient_norm(&h, &pose, targets);
        for (int k = 0; k < 2; k++)
            err[c][k] = distance(position(&model[targets[k].effector]), targets[k].position);
        printf("dls unreachable pair, weights %g:%g: hand errors %.4f / %.4f m after %d passes; weighted squared error "
               "gradient %.2e (start %.2e)\n",
               weights[c][0], weights[c][1], err[c][0], err[c][1], r.iterations, g1, g0);
        CHECK_EQ_INT(r.reached, 0);
        CHECK(g1 < 1e-3 * g0); /* a stationary point of sum w |e|^2 */
    }
    CHECK(err[1][0] < err[0][0] && err[1][1] > err[0][1]); /* the heavier hand gets closer */
    CHECK(err[2][1] < err[0][1] && err[2][0] > err[0][0]);
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&rest);
    tdn_asset_destroy(h.asset);
}

/* Swing (bone direction against rest) and twist (about the bone), measured from the bone's
 * rest offset b and a vector across it, without a swing-twist decomposition. */
static void measure_limit(tdn_quat rest, tdn_quat q, tdn_vec3 b, double *swing, double *twist)
{
    tdn_quat rel = tdn_quat_mul(tdn_quat_conjugate(rest), q);
    tdn_vec3 u = tdn_vec3_normalize(b), moved = tdn_quat_rotate(rel, u);
    *swing = atan2(tdn_vec3_length(tdn_vec3_cross(u, moved)), tdn_vec3_dot(u, moved));
    /* undo the swing by the shortest turn back, then see how far a vector across the bone went */
    tdn_vec3 across = tdn_vec3_normalize(
        tdn_vec3_cross(u, fabsf(u.x) < 0.6f ? tdn_vec3_make(1, 0, 0) : tdn_vec3_make(0, 1, 0)));
    tdn_vec3 v = tdn_quat_rotate(tdn_quat_from_to(moved, u), tdn_quat_rotate(rel, across));
    *twist = fabs(atan2(tdn_vec3_dot(tdn_vec3_cross(across, v), u), tdn_vec3_dot(across, v)));
}

static void limits_are_respected(void)
{
    check_rng rng = { 7 };
    int bones = 5, n = bones + 2, joints[MAXJ];
    tdn_skeleton *s = make_chain(bones, &rng, NULL);
    if (!CHECK(s != NULL))
        return;
    tdn_ik_limit limits[MAXJ];
    for (int j = 0; j < bones; j++) {
        joints[j] = j;
        limits[j] = (tdn_ik_limit){ 0.35f + 0.05f * (float)j, j % 2 ? 0.2f : 0.0f };
    }
    limits[2].cone = 0; /* twist only */
    tdn_pose pose;
    tdn_pose_create(n, &pose, NULL, NULL);
    tdn_mat4 model[MAXJ];
    double worst_cone = -1, worst_twist = -1, mean_error = 0, biggest_swing = 0;
    int rounds = 200;
    for (int round = 0; round < rounds; round++) {
        tdn_pose_set_rest(&pose, s, NULL);
        for (int j = 0; j < bones; j++) /* inputs partly outside the limits */
            turn_local(&pose, j,
                       tdn_quat_from_axis_angle(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1)),
                                                check_rng_float(&rng, 0, 0.8f)));
        tdn_model_space(s, &pose, NULL, model, NULL);
        tdn_dls_target target = {
            bones, tdn_vec3_scale(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1)), check_rng_float(&rng, 0.3f, 1.0f)), 1
        };
        tdn_ik_dls_job ik = { .joints = joints,
                              .joint_count = bones,
                              .targets = &target,
                              .target_count = 1,
                              .weight = 1.0f,
                              .limits = limits };
        tdn_ik_result r;
        CHECK_EQ_INT(tdn_ik_dls(s, &ik, &pose, model, &r, NULL), TDN_OK);
        mean_error += r.error / rounds;
        for (int j = 0; j < bones; j++) {
            double swing, twist;
            measure_limit(tdn_skeleton_rest(s, j).r, tdn_pose_get(&pose, j).r, tdn_skeleton_rest(s, j + 1).t, &swing,
                          &twist);
            if (limits[j].cone > 0)
                worst_cone = fmax(worst_cone, swing - limits[j].cone);
            if (limits[j].twist > 0)
                worst_twist = fmax(worst_twist, twist - limits[j].twist);
            biggest_swing = fmax(biggest_swing, swing);
        }
        CHECK_NEAR(model_mismatch(s, &pose, NULL, model), 0, 1e-5);
    }
    printf("dls limits: swing beyond its cone at most %.2e rad, twist beyond its bound at most %.2e rad (0 = at the "
           "limit); largest swing %.3f rad; mean error %.4f (chain length 1)\n",
           worst_cone, worst_twist, biggest_swing, mean_error);
    CHECK(worst_cone <= 1e-5 && worst_cone > -0.05); /* held, and reached */
    CHECK(worst_twist <= 1e-5);
    tdn_pose_destroy(&pose);
    tdn_skeleton_destroy(s);
}

static void weights_fade_the_solve(void)
{
    check_rng rng = { 5 };
    int bones = 4, n = bones + 2, joints[MAXJ] = { 0, 1, 2, 3 };
    tdn_skeleton *s = make_chain(bones, &rng, NULL);
    if (!CHECK(s != NULL))
        return;
    tdn_pose pose, input, full;
    tdn_pose_create(n, &pose, NULL, NULL);
    tdn_pose_create(n, &input, NULL, NULL);
    tdn_pose_create(n, &full, NULL, NULL);
    tdn_pose_set_rest(&input, s, NULL);
    tdn_mat4 model[MAXJ], input_model[MAXJ];
    tdn_model_space(s, &input, NULL, input_model, NULL);
    tdn_dls_target target = { bones, tdn_vec3_make(0.4f, 0.5f, 0.3f), 1 };
    tdn_ik_dls_job ik = {
        .joints = joints, .joint_count = bones, .targets = &target, .target_count = 1, .weight = 0.0f
    };
    tdn_pose_copy(&pose, &input, NULL);
    memcpy(model, input_model, sizeof(tdn_mat4) * (size_t)n);
    tdn_ik_result r;
    CHECK_EQ_INT(tdn_ik_dls(s, &ik, &pose, model, &r, NULL), TDN_OK);
    CHECK(memcmp(pose.data, input.data, tdn_pose_bytes(n)) == 0);
    CHECK(memcmp(model, input_model, sizeof(tdn_mat4) * (size_t)n) == 0);
    CHECK_EQ_INT(r.iterations, 0);
    CHECK_NEAR(r.error, distance(position(&input_model[bones]), target.position), 1e-6);
    ik.weight = 1.0f;
    tdn_ik_dls(s, &ik, &pose, model, &r, NULL);
    CHECK(r.reached);
    tdn_pose_copy(&full, &pose, NULL);
    for (int c = 0; c < 2; c++) {
        float w = c ? 0.25f : 0.5f;
        tdn_pose_copy(&pose, &input, NULL);
        memcpy(model, input_model, sizeof(tdn_mat4) * (size_t)n);
        ik.weight = w;
        tdn_ik_dls(s, &ik, &pose, model, &r, NULL);
        for (int j = 0; j < bones; j++) {
            double whole = check_quat_angle(tdn_pose_get(&input, j).r, tdn_pose_get(&full, j).r);
            CHECK(whole > 0.01);
            CHECK_NEAR(check_quat_angle(tdn_pose_get(&input, j).r, tdn_pose_get(&pose, j).r), w * whole, 1e-4);
            CHECK_NEAR(check_quat_angle(tdn_pose_get(&pose, j).r, tdn_pose_get(&full, j).r), (1 - w) * whole, 1e-4);
        }
        CHECK_NEAR(model_mismatch(s, &pose, NULL, model), 0, 1e-5);
    }
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&input);
    tdn_pose_destroy(&full);
    tdn_skeleton_destroy(s);
}

static void bad_arguments_change_nothing(void)
{
    check_rng rng = { 3 };
    int bones = 3, n = bones + 2;
    tdn_skeleton *s = make_chain(bones, &rng, NULL);
    if (!CHECK(s != NULL))
        return;
    tdn_pose pose, input, small;
    tdn_pose_create(n, &pose, NULL, NULL);
    tdn_pose_create(n, &input, NULL, NULL);
    tdn_pose_create(n - 1, &small, NULL, NULL);
    tdn_pose_set_rest(&input, s, NULL);
    tdn_pose_copy(&pose, &input, NULL);
    tdn_mat4 model[MAXJ], input_model[MAXJ];
    tdn_model_space(s, &input, NULL, input_model, NULL);
    memcpy(model, input_model, sizeof(tdn_mat4) * (size_t)n);
    const int good[3] = { 0, 1, 2 }, unsorted[3] = { 0, 2, 1 }, repeated[3] = { 0, 1, 1 }, outside[3] = { 0, 1, 9 };
    const int side[2] = { 2, 4 }; /* joint 4 hangs off joint 1, not below joint 2 */
    tdn_dls_target t = { 3, tdn_vec3_make(0.2f, 0.6f, 0.1f), 1 };
    const tdn_ik_dls_job ok = { .joints = good, .joint_count = 3, .targets = &t, .target_count = 1, .weight = 1.0f };
    tdn_ik_limit bad_limit[3] = { { 0, 0 }, { -0.1f, 0 }, { 0, 0 } }, nan_limit[3] = { { 0, 0 }, { 0, NAN }, { 0, 0 } };
    tdn_dls_target bad_targets[][1] = {
        { { 9, t.position, 1 } },
        { { -1, t.position, 1 } },
        { { 0, t.position, 1 } },
        { { 3, tdn_vec3_make(NAN, 0, 0), 1 } },
        { { 3, tdn_vec3_make(0, INFINITY, 0), 1 } },
        { { 3, t.position, -1 } },
        { { 3, t.position, NAN } },
    };
    tdn_dls_target four[4] = { t, t, t, t };
    tdn_ik_dls_job cases[32];
    int count = 0;
    for (int i = 0; i < 7; i++) {
        cases[count] = ok;
        cases[count++].targets = bad_targets[i];
    }
    cases[count] = ok, cases[count++].joints = unsorted;
    cases[count] = ok, cases[count++].joints = repeated;
    cases[count] = ok, cases[count++].joints = outside;
    cases[count] = ok, cases[count].joints = side, cases[count++].joint_count = 2;
    cases[count] = ok, cases[count++].joints = NULL;
    cases[count] = ok, cases[count++].joint_count = 0;
    cases[count] = ok, cases[count++].joint_count = TDN_MAX_IK_CHAIN + 1;
    cases[count] = ok, cases[count++].targets = NULL;
    cases[count] = ok, cases[count++].target_count = 0;
    cases[count] = ok, cases[count].targets = four, cases[count++].target_count = 4;
    cases[count] = ok, cases[count++].damping = -0.1f;
    cases[count] = ok, cases[count++].damping = NAN;
    cases[count] = ok, cases[count++].tolerance = -1;
    cases[count] = ok, cases[count++].tolerance = NAN;
    cases[count] = ok, cases[count++].max_iterations = -1;
    cases[count] = ok, cases[count++].weight = NAN;
    cases[count] = ok, cases[count++].limits = bad_limit;
    cases[count] = ok, cases[count++].limits = nan_limit;
    for (int i = 0; i < count; i++) {
        tdn_ik_result r = { 7, 7, 7 };
        if (!CHECK_EQ_INT(tdn_ik_dls(s, &cases[i], &pose, model, &r, NULL), TDN_ERR_ARGUMENT))
            fprintf(stderr, "  case %d\n", i);
        CHECK(r.iterations == 7 && r.error == 7 && r.reached == 7);
    }
    CHECK_EQ_INT(tdn_ik_dls(NULL, &ok, &pose, model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_dls(s, NULL, &pose, model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_dls(s, &ok, NULL, model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_dls(s, &ok, &pose, NULL, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_dls(s, &ok, &small, model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK(memcmp(pose.data, input.data, tdn_pose_bytes(n)) == 0);
    CHECK(memcmp(model, input_model, sizeof(tdn_mat4) * (size_t)n) == 0);
    /* and the good description does work */
    CHECK_EQ_INT(tdn_ik_dls(s, &ok, &pose, model, NULL, NULL), TDN_OK);
    CHECK(memcmp(pose.data, input.data, tdn_pose_bytes(n)) != 0);
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&input);
    tdn_pose_destroy(&small);
    tdn_skeleton_destroy(s);
}

/* The skeleton and poses through counting hooks that refuse every allocation during the
 * solves: the solves succeed and nothing is taken. */
static void solves_never_allocate(void)
{
    check_rng rng = { 11 };
    int bones = 8, n = bones + 2, joints[MAXJ];
    tdn_skeleton *s = make_chain(bones, &rng, &counting);
    if (!CHECK(s != NULL))
        return;
    for (int j = 0; j < bones; j++)
        joints[j] = j;
    tdn_pose pose;
    tdn_pose_create(n, &pose, &counting, NULL);
    tdn_pose_set_rest(&pose, s, NULL);
    tdn_mat4 model[MAXJ];
    tdn_model_space(s, &pose, NULL, model, NULL);
    long blocks = live_blocks;
    allocations_before_failure = 0;
    tdn_ik_limit limits[MAXJ] = { { 0.5f, 0.3f } };
    for (int i = 0; i < 50; i++) {
        tdn_dls_target t = { bones, tdn_vec3_scale(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1)), 0.8f), 1 };
        tdn_ik_dls_job ik = { .joints = joints,
                              .joint_count = bones,
                              .targets = &t,
                              .target_count = 1,
                              .weight = 1.0f,
                              .limits = i % 2 ? limits : NULL };
        CHECK_EQ_INT(tdn_ik_dls(s, &ik, &pose, model, NULL, NULL), TDN_OK);
    }
    allocations_before_failure = -1;
    CHECK_EQ_INT(live_blocks, blocks);
    tdn_pose_destroy(&pose);
    tdn_skeleton_destroy(s);
    CHECK_EQ_INT(live_blocks, 0);
}

int main(void)
{
    RUN(reachable_single_targets_converge);
    RUN(error_never_grows_pass_by_pass);
    RUN(two_hands_on_one_spine);
    RUN(limits_are_respected);
    RUN(weights_fade_the_solve);
    RUN(bad_arguments_change_nothing);
    RUN(solves_never_allocate);
    return check_summary();
}
