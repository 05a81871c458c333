/* Blend-driven IK on poses tendon generates: the humanoid's idle pose with the right arm put by
 * two-bone IK on a 3 x 3 x 3 grid of points in front of the character gives 27 reach poses, the
 * samples of a 3D gradient-band space whose coordinates are the grid points themselves. Targets
 * between the grid points: the pure blend at the parameters the solver finds against the naive
 * "use the target's coordinates as the blend point", and the two-bone correction landing the
 * hand exactly. Then a moving target (warm starts, parameters moving smoothly), a reach layered
 * over a walk by a mask, weights, the rotate correction, a foot on slopes (a 1D space with a 3D
 * target), bad arguments, and no allocation per solve. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "tendon/io/humanoid.h"
#include "tendon/ik_blend.h"
#include "tendon/io/asset.h"
#include "tendon/keyed_clip.h"

enum { G = 3, SAMPLES = G * G * G, QUERIES = 400 };
static const double PI = 3.14159265358979323846;

static tdn_vec3 position(const tdn_mat4 *m) { return tdn_vec3_make(m->m[12], m->m[13], m->m[14]); }
static double distance(tdn_vec3 a, tdn_vec3 b) { return tdn_vec3_length(tdn_vec3_sub(a, b)); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
static double maximum(const double *v, int n)
{
    double m = -INFINITY;
    for (int i = 0; i < n; i++)
        m = fmax(m, v[i]);
    return m;
}

/* The humanoid, its idle pose at t = 0 and the 27 reach poses. */
typedef struct fixture {
    tdn_asset *asset;
    const tdn_skeleton *skel;
    int n, clavicle, upper, middle, hand;
    tdn_pose idle;
    tdn_pose reach[SAMPLES];
    const tdn_pose *reach_ptr[SAMPLES];
    float points[SAMPLES * 3];
    tdn_vec3 lo, hi; /* the grid's box */
    float arm;       /* upper arm + forearm length */
    tdn_blend_space *space;
    tdn_mat4 *model; /* n matrices of scratch */
} fixture;

static int sample_clip(const fixture *f, const char *name, float time, tdn_pose *out)
{
    int c = tdn_asset_find_clip(f->asset, name);
    return c >= 0 && tdn_keyed_clip_sample(tdn_asset_clip(f->asset, c), time, out, NULL, NULL) == TDN_OK;
}

static int fixture_init(fixture *f)
{
    memset(f, 0, sizeof *f);
    if (!CHECK(tdn_humanoid_create(NULL, &f->asset, NULL, NULL) == TDN_OK))
        return 0;
    f->skel = tdn_asset_skeleton(f->asset);
    f->n = tdn_skeleton_joint_count(f->skel);
    f->clavicle = tdn_skeleton_find_joint(f->skel, "clavicle_r");
    f->upper = tdn_skeleton_find_joint(f->skel, "upperarm_r");
    f->middle = tdn_skeleton_find_joint(f->skel, "lowerarm_r");
    f->hand = tdn_skeleton_find_joint(f->skel, "hand_r");
    CHECK(f->clavicle >= 0 && f->upper >= 0 && f->middle >= 0 && f->hand >= 0);
    f->model = malloc(sizeof(tdn_mat4) * (size_t)f->n);
    tdn_pose_create(f->n, &f->idle, NULL, NULL);
    if (!CHECK(sample_clip(f, "idle", 0.0f, &f->idle)))
        return 0;
    tdn_model_space(f->skel, &f->idle, NULL, f->model, NULL);
    tdn_vec3 shoulder = position(&f->model[f->upper]);
    f->arm = (float)(distance(shoulder, position(&f->model[f->middle])) +
                     distance(position(&f->model[f->middle]), position(&f->model[f->hand])));
    /* in front of the right shoulder (right is -X, forward +Z): a box 0.44 arm lengths wide,
     * from 0.28 to 0.72 arm lengths ahead; every point within 0.84 of the arm's reach */
    const float L = f->arm, h = 0.22f * L;
    tdn_vec3 c = tdn_vec3_add(shoulder, tdn_vec3_make(0.05f * L, -0.1f * L, 0.5f * L));
    f->lo = tdn_vec3_sub(c, tdn_vec3_make(h, h, h));
    f->hi = tdn_vec3_add(c, tdn_vec3_make(h, h, h));
    /* the elbow down, out to the right and a little back */
    tdn_vec3 pole = tdn_vec3_add(shoulder, tdn_vec3_make(-0.5f * L, -1.0f * L, -0.2f * L));
    int reached_all = 1;
    double worst = 0;
    for (int i = 0; i < SAMPLES; i++) {
        int ix = i % G, iy = (i / G) % G, iz = i / (G * G);
        tdn_vec3 t = tdn_vec3_add(f->lo, tdn_vec3_make(h * (float)ix, h * (float)iy, h * (float)iz));
        f->points[i * 3] = t.x;
        f->points[i * 3 + 1] = t.y;
        f->points[i * 3 + 2] = t.z;
        tdn_pose_create(f->n, &f->reach[i], NULL, NULL);
        tdn_pose_copy(&f->reach[i], &f->idle, NULL);
        tdn_model_space(f->skel, &f->reach[i], NULL, f->model, NULL);
        tdn_ik_two_bone_job ik = { f->upper, f->middle, f->hand, t, pole, 1, 1.0f, 0.0f };
        int reached = 0;
        CHECK(tdn_ik_two_bone(f->skel, &ik, &f->reach[i], f->model, &reached, NULL) == TDN_OK);
        reached_all &= reached;
        worst = fmax(worst, distance(position(&f->model[f->hand]), t));
        f->reach_ptr[i] = &f->reach[i];
    }
    CHECK(reached_all);
    CHECK_NEAR(worst, 0, 1e-5);
    tdn_blend_space_desc sd = { TDN_BLEND_SPACE_GRADIENT_BAND, 3, SAMPLES, f->points };
    return CHECK(tdn_blend_space_create(&sd, &f->space, NULL, NULL) == TDN_OK);
}

static void fixture_free(fixture *f)
{
    for (int i = 0; i < SAMPLES; i++)
        tdn_pose_destroy(&f->reach[i]);
    tdn_pose_destroy(&f->idle);
    tdn_blend_space_destroy(f->space);
    tdn_asset_destroy(f->asset);
    free(f->model);
}

static tdn_ik_blend *make_ik(fixture *f, tdn_ik_blend_correction correction, int upper, const float *mask,
                             const tdn_allocator *allocator)
{
    tdn_ik_blend_desc d = { 0 };
    d.skeleton = f->skel;
    d.space = f->space;
    d.poses = f->reach_ptr;
    d.effector = f->hand;
    d.joint_weights = mask;
    d.correction = correction;
    d.upper = upper;
    d.middle = f->middle;
    tdn_ik_blend *ik = NULL;
    tdn_error err = { 0 };
    if (tdn_ik_blend_create(&d, &ik, allocator, &err) != TDN_OK && allocations_before_failure < 0)
        fprintf(stderr, "tdn_ik_blend_create: %s: %s\n", err.where, err.message);
    return ik;
}

static tdn_vec3 random_target(const fixture *f, check_rng *rng)
{
    return tdn_vec3_make(check_rng_float(rng, f->lo.x, f->hi.x), check_rng_float(rng, f->lo.y, f->hi.y),
                         check_rng_float(rng, f->lo.z, f->hi.z));
}

/* The effector of the whole skeleton's blend at params, computed without the definition:
 * tdn_blend_space_weights, tdn_blend of the full poses, tdn_model_space. */
static tdn_vec3 reference_effector(fixture *f, const float *params, tdn_pose *scratch)
{
    float w[SAMPLES];
    tdn_blend_input layers[SAMPLES];
    tdn_blend_space_weights(f->space, params, w, NULL);
    for (int i = 0; i < SAMPLES; i++)
        layers[i] = (tdn_blend_input){ &f->reach[i], w[i], NULL };
    tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = SAMPLES, .out = scratch }, NULL);
    tdn_model_space(f->skel, scratch, NULL, f->model, NULL);
    return position(&f->model[f->hand]);
}

static void reach_grid_solved_against_naive(void)
{
    fixture f;
    if (!fixture_init(&f))
        return;
    tdn_ik_blend *ik = make_ik(&f, TDN_IK_BLEND_CORRECT_TWO_BONE, f.upper, NULL, NULL);
    if (!CHECK(ik != NULL))
        return;
    const int *chain = NULL;
    int chain_count = tdn_ik_blend_chain(ik, &chain);
    CHECK(chain_count == tdn_skeleton_depth(f.skel, f.hand) + 1);
    CHECK(chain[0] == 0 && chain[chain_count - 1] == f.hand);

    /* each sample's own point gives its own reach exactly */
    double own = 0;
    for (int i = 0; i < SAMPLES; i++) {
        tdn_vec3 e;
        CHECK(tdn_ik_blend_effector(ik, &f.points[i * 3], NULL, NULL, &e, NULL) == TDN_OK);
        own = fmax(own, distance(e, tdn_vec3_make(f.points[i * 3], f.points[i * 3 + 1], f.points[i * 3 + 2])));
    }
    CHECK_NEAR(own, 0, 1e-5);

    tdn_pose pose, scratch;
    tdn_pose_create(f.n, &pose, NULL, NULL);
    tdn_pose_create(f.n, &scratch, NULL, NULL);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)f.n);
    static double naive[QUERIES], solved[QUERIES], corrected[QUERIES], iters[QUERIES], evals[QUERIES];
    int worse_than_naive = 0, unreached = 0, unreached_on_face = 0;
    double unreached_depth = 0;
    double chain_vs_full = 0, reported_vs_model = 0, blend_vs_reference = 0, max_outside_box = 0;
    check_rng rng = { 2024 };
    for (int q = 0; q < QUERIES; q++) {
        tdn_vec3 t = random_target(&f, &rng);
        float naive_params[3] = { t.x, t.y, t.z };
        tdn_vec3 e;
        CHECK(tdn_ik_blend_effector(ik, naive_params, NULL, NULL, &e, NULL) == TDN_OK);
        naive[q] = distance(e, t);
        chain_vs_full = fmax(chain_vs_full, distance(e, reference_effector(&f, naive_params, &scratch)));

        float params[3];
        tdn_ik_blend_result r;
        tdn_ik_blend_job req = { .target = t, .weight = 1.0f };
        tdn_pose_copy(&pose, &f.idle, NULL);
        CHECK(tdn_ik_blend_solve(ik, &req, &pose, model, params, &r, NULL) == TDN_OK);
        solved[q] = r.blend_error;
        worse_than_naive += r.blend_error > naive[q] + 1e-6;
        if (r.blend_error > 1e-3) { /* where the pure blend cannot reach: how far into the box, on which face */
            unreached++;
            unreached_depth = fmax(unreached_depth, (t.z - f.lo.z) / (f.hi.z - f.lo.z));
            unreached_on_face += params[2] == f.lo.z;
        }
        corrected[q] = r.error;
        iters[q] = r.iterations;
        evals[q] = r.evaluations;
        reported_vs_model = fmax(reported_vs_model, fabs(distance(position(&model[f.hand]), t) - r.error));
        blend_vs_reference = fmax(blend_vs_reference,
                                  fabs(distance(reference_effector(&f, params, &scratch), t) - r.blend_error));
        const float lo[3] = { f.lo.x, f.lo.y, f.lo.z }, hi[3] = { f.hi.x, f.hi.y, f.hi.z };
        for (int d = 0; d < 3; d++)
            max_outside_box = fmax(max_outside_box, fmax(lo[d] - params[d], params[d] - hi[d]));
        /* the model matrices are the pose's */
        tdn_mat4 *fresh = f.model;
        tdn_model_space(f.skel, &pose, NULL, fresh, NULL);
        CHECK_NEAR(distance(position(&fresh[f.hand]), position(&model[f.hand])), 0, 1e-6);
    }
    double naive_max = maximum(naive, QUERIES), solved_max = maximum(solved, QUERIES);
    double corrected_max = maximum(corrected, QUERIES), iter_max = maximum(iters, QUERIES),
           eval_max = maximum(evals, QUERIES);
    double naive_med = median(naive, QUERIES), solved_med = median(solved, QUERIES); /* sorts them */
    double naive_p90 = naive[QUERIES * 9 / 10], solved_p90 = solved[QUERIES * 9 / 10];
    double corrected_med = median(corrected, QUERIES), iter_med = median(iters, QUERIES),
           eval_med = median(evals, QUERIES);
    printf("reach grid (arm %.3f m, box %.3f m, %d targets between the 27 grid points, cold starts):\n", f.arm,
           f.hi.x - f.lo.x, QUERIES);
    printf("  naive (target as blend point): median %.2f mm, 90%% %.2f mm, max %.2f mm\n", naive_med * 1e3,
           naive_p90 * 1e3, naive_max * 1e3);
    printf("  solved pure blend:             median %.4f mm, 90%% %.4f mm, max %.4f mm\n", solved_med * 1e3,
           solved_p90 * 1e3, solved_max * 1e3);
    printf("  %d targets beyond the blend's reach (pure blend > 1 mm off): all within %.1f%% of the box's near face, "
           "%d with the parameters held on that face\n",
           unreached, unreached_depth * 100, unreached_on_face);
    printf("  after two-bone correction:     median %.2e m, max %.2e m\n", corrected_med, corrected_max);
    printf("  iterations median %.0f max %.0f, evaluations median %.0f max %.0f\n", iter_med, iter_max, eval_med,
           eval_max);
    CHECK_NEAR(chain_vs_full, 0, 1e-6); /* the chain's evaluation is the whole skeleton's */
    CHECK_NEAR(blend_vs_reference, 0, 1e-6);
    CHECK_NEAR(reported_vs_model, 0, 1e-6);
    CHECK(max_outside_box <= 0.0);
    CHECK(corrected_max <= 1e-4);
    CHECK(solved_med * 20 < naive_med); /* the solver beats the naive mapping by far */
    CHECK(solved_p90 * 20 < naive_p90);
    CHECK(solved_max < naive_max);
    CHECK_EQ_INT(worse_than_naive, 0); /* never worse than the naive blend point */
    CHECK(unreached < QUERIES / 10 && unreached_depth < 0.1 && unreached_on_face == unreached);
    CHECK(naive_med > 5e-3); /* and the naive mapping is visibly off */
    CHECK(iter_max <= 10);
    free(model);
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&scratch);
    tdn_ik_blend_destroy(ik);
    fixture_free(&f);
}

/* A target moving smoothly through the grid (a Lissajous curve, 600 frames): warm started from
 * the previous frame, the parameters move smoothly, the correction lands every frame. */
static void moving_target_moves_parameters_smoothly(void)
{
    fixture f;
    if (!fixture_init(&f))
        return;
    tdn_ik_blend *ik = make_ik(&f, TDN_IK_BLEND_CORRECT_TWO_BONE, f.upper, NULL, NULL);
    if (!CHECK(ik != NULL))
        return;
    tdn_pose pose;
    tdn_pose_create(f.n, &pose, NULL, NULL);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)f.n);
    tdn_vec3 c = tdn_vec3_scale(tdn_vec3_add(f.lo, f.hi), 0.5f), half = tdn_vec3_scale(tdn_vec3_sub(f.hi, f.lo), 0.45f);
    float params[3], prev_params[3];
    tdn_vec3 prev_t = c;
    double worst_ratio = 0, worst_error = 0, worst_blend = 0, worst_step = 0, worst_pose_step = 0;
    static double iters[600];
    int total = 600;
    tdn_quat prev_upper = tdn_quat_identity(), prev_lower = tdn_quat_identity();
    for (int frame = 0; frame < total; frame++) {
        double s = frame / 60.0;
        tdn_vec3 t = tdn_vec3_add(c, tdn_vec3_make(half.x * (float)sin(1.3 * s), half.y * (float)sin(0.9 * s + 0.5),
                                                   half.z * (float)sin(0.7 * s + 1.0)));
        tdn_ik_blend_job req = { .target = t, .start = frame ? params : NULL, .weight = 1.0f };
        tdn_ik_blend_result r;
        tdn_pose_copy(&pose, &f.idle, NULL);
        memcpy(prev_params, params, sizeof params);
        CHECK(tdn_ik_blend_solve(ik, &req, &pose, model, params, &r, NULL) == TDN_OK);
        iters[frame] = r.iterations;
        worst_error = fmax(worst_error, r.error);
        worst_blend = fmax(worst_blend, r.blend_error);
        tdn_quat up = tdn_pose_get(&pose, f.upper).r, low = tdn_pose_get(&pose, f.middle).r;
        if (frame) {
            double moved = distance(t, prev_t);
            double dp = sqrt(pow(params[0] - prev_params[0], 2) + pow(params[1] - prev_params[1], 2) +
                             pow(params[2] - prev_params[2], 2));
            worst_ratio = fmax(worst_ratio, dp / moved);
            worst_step = fmax(worst_step, dp);
            worst_pose_step = fmax(worst_pose_step,
                                   fmax(check_quat_angle(up, prev_upper), check_quat_angle(low, prev_lower)));
        }
        prev_upper = up;
        prev_lower = low;
        prev_t = t;
    }
    double iter_med = median(iters, total), iter_max = maximum(iters, total);
    printf(
        "moving target (600 frames, warm starts): iterations median %.0f max %.0f, parameter step <= %.2f x the "
        "target's step (<= %.2f mm/frame), arm rotations <= %.3f deg/frame, blend error <= %.4f mm, corrected <= %.1e m\n",
        iter_med, iter_max, worst_ratio, worst_step * 1e3, worst_pose_step * 180 / PI, worst_blend * 1e3, worst_error);
    CHECK(worst_ratio < 3.0);
    CHECK(worst_pose_step < 2.0 * PI / 180.0);
    CHECK(worst_error <= 1e-4);
    CHECK(iter_med <= 2);
    free(model);
    tdn_pose_destroy(&pose);
    tdn_ik_blend_destroy(ik);
    fixture_free(&f);
}

/* A reach layered over a walk: the mask takes the right arm (clavicle_r's subtree) from the
 * blend and everything else from the walking pose passed in, whose shoulder has moved; the
 * targets move with it. */
static void masked_reach_over_a_walk(void)
{
    fixture f;
    if (!fixture_init(&f))
        return;
    int stride = tdn_pose_stride(f.n);
    float *mask = calloc((size_t)stride, sizeof(float));
    tdn_mask_fill(mask, f.n, 0.0f);
    CHECK(tdn_mask_set_subtree(mask, f.skel, f.clavicle, 1.0f, 0, NULL) == TDN_OK);
    tdn_ik_blend *ik = make_ik(&f, TDN_IK_BLEND_CORRECT_TWO_BONE, f.upper, mask, NULL);
    if (!CHECK(ik != NULL))
        return;
    tdn_pose walk, pose, reference;
    tdn_pose_create(f.n, &walk, NULL, NULL);
    tdn_pose_create(f.n, &pose, NULL, NULL);
    tdn_pose_create(f.n, &reference, NULL, NULL);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)f.n);
    tdn_model_space(f.skel, &f.idle, NULL, f.model, NULL);
    tdn_vec3 shoulder_idle = position(&f.model[f.upper]);
    check_rng rng = { 99 };
    double worst = 0, worst_outside = 0, worst_arm = 0, naive_sum = 0, solved_sum = 0;
    int rounds = 0;
    for (int k = 0; k < 40; k++) {
        CHECK(sample_clip(&f, "walk_forward", 0.025f * (float)k, &walk));
        tdn_model_space(f.skel, &walk, NULL, f.model, NULL);
        tdn_vec3 shift = tdn_vec3_sub(position(&f.model[f.upper]), shoulder_idle);
        tdn_vec3 t = tdn_vec3_add(random_target(&f, &rng), shift);
        float naive_params[3] = { t.x - shift.x, t.y - shift.y, t.z - shift.z }, params[3];
        tdn_vec3 e;
        CHECK(tdn_ik_blend_effector(ik, naive_params, &walk, NULL, &e, NULL) == TDN_OK);
        naive_sum += distance(e, t);
        tdn_pose_copy(&pose, &walk, NULL);
        tdn_ik_blend_job req = { .target = t, .weight = 1.0f };
        tdn_ik_blend_result r;
        CHECK(tdn_ik_blend_solve(ik, &req, &pose, model, params, &r, NULL) == TDN_OK);
        solved_sum += r.blend_error;
        worst = fmax(worst, r.error);
        /* outside the mask: the walk; inside, away from the corrected joints: the samples' blend */
        float w[SAMPLES];
        tdn_blend_input layers[SAMPLES];
        tdn_blend_space_weights(f.space, params, w, NULL);
        for (int i = 0; i < SAMPLES; i++)
            layers[i] = (tdn_blend_input){ &f.reach[i], w[i], NULL };
        tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = SAMPLES, .out = &reference }, NULL);
        for (int j = 0; j < f.n; j++) {
            tdn_transform a = tdn_pose_get(&pose, j);
            if (!tdn_skeleton_is_in_subtree(f.skel, j, f.clavicle)) {
                tdn_transform b = tdn_pose_get(&walk, j);
                worst_outside = fmax(worst_outside, fmax(check_quat_angle(a.r, b.r), distance(a.t, b.t)));
            } else if (j != f.upper && j != f.middle) {
                tdn_transform b = tdn_pose_get(&reference, j);
                worst_arm = fmax(worst_arm, fmax(check_quat_angle(a.r, b.r), distance(a.t, b.t)));
            }
        }
        rounds++;
    }
    printf(
        "masked reach over walk_forward (40 frames): naive mean %.2f mm, solved pure blend mean %.4f mm, corrected <= %.1e m\n",
        naive_sum / rounds * 1e3, solved_sum / rounds * 1e3, worst);
    CHECK(worst <= 1e-4);
    CHECK_NEAR(worst_outside, 0, 1e-6);
    CHECK_NEAR(worst_arm, 0, 1e-6);
    CHECK(solved_sum * 10 < naive_sum);
    free(model);
    free(mask);
    tdn_pose_destroy(&walk);
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&reference);
    tdn_ik_blend_destroy(ik);
    fixture_free(&f);
}

/* Weight 0 leaves the pose bit for bit; 0.5 lands half-way-ish; the parameters do not depend on
 * it. The rotate correction points the hand at the target from the shoulder. Borrowed poses
 * give the same bits as copied ones, in a smaller definition. */
static void weights_rotate_and_borrowed_poses(void)
{
    fixture f;
    if (!fixture_init(&f))
        return;
    tdn_ik_blend *ik = make_ik(&f, TDN_IK_BLEND_CORRECT_TWO_BONE, f.upper, NULL, NULL);
    tdn_ik_blend *rot = make_ik(&f, TDN_IK_BLEND_CORRECT_ROTATE, f.upper, NULL, NULL);
    tdn_ik_blend_desc bd = { .skeleton = f.skel,
                             .space = f.space,
                             .poses = f.reach_ptr,
                             .borrow_poses = 1,
                             .effector = f.hand,
                             .correction = TDN_IK_BLEND_CORRECT_TWO_BONE,
                             .upper = f.upper,
                             .middle = f.middle };
    tdn_ik_blend *borrowed = NULL;
    CHECK(tdn_ik_blend_create(&bd, &borrowed, NULL, NULL) == TDN_OK);
    if (!CHECK(ik && rot && borrowed))
        return;
    CHECK(tdn_ik_blend_memory_size(borrowed) + SAMPLES * tdn_pose_bytes(f.n) <= tdn_ik_blend_memory_size(ik));
    tdn_pose a, b;
    tdn_pose_create(f.n, &a, NULL, NULL);
    tdn_pose_create(f.n, &b, NULL, NULL);
    tdn_mat4 *ma = malloc(sizeof(tdn_mat4) * (size_t)f.n), *mb = malloc(sizeof(tdn_mat4) * (size_t)f.n);
    check_rng rng = { 5 };
    double worst_dir = 0, worst_rot_gain = -1;
    for (int k = 0; k < 50; k++) {
        tdn_vec3 t = random_target(&f, &rng);
        float p1[3], p0[3], ph[3], pb[3], pr[3];
        tdn_ik_blend_result r1, r0, rh, rb, rr;
        tdn_ik_blend_job req = { .target = t, .weight = 1.0f };
        tdn_pose_copy(&a, &f.idle, NULL);
        CHECK(tdn_ik_blend_solve(ik, &req, &a, ma, p1, &r1, NULL) == TDN_OK);
        tdn_pose_copy(&b, &f.idle, NULL);
        CHECK(tdn_ik_blend_solve(borrowed, &req, &b, mb, pb, &rb, NULL) == TDN_OK);
        CHECK(memcmp(a.data, b.data, tdn_pose_bytes(f.n)) == 0 && memcmp(p1, pb, sizeof p1) == 0);
        req.weight = 0.0f;
        tdn_pose_copy(&b, &f.idle, NULL);
        CHECK(tdn_ik_blend_solve(ik, &req, &b, mb, p0, &r0, NULL) == TDN_OK);
        CHECK(memcmp(b.data, f.idle.data, tdn_pose_bytes(f.n)) == 0);
        CHECK(memcmp(p0, p1, sizeof p1) == 0);
        tdn_model_space(f.skel, &f.idle, NULL, f.model, NULL);
        CHECK_NEAR(r0.error, distance(position(&f.model[f.hand]), t), 1e-6);
        req.weight = 0.5f;
        tdn_pose_copy(&b, &f.idle, NULL);
        CHECK(tdn_ik_blend_solve(ik, &req, &b, mb, ph, &rh, NULL) == TDN_OK);
        CHECK(memcmp(ph, p1, sizeof p1) == 0);
        CHECK(rh.error < r0.error && rh.error > r1.error);
        /* rotate: the direction from the shoulder is the target's; the distance stays the blend's */
        req.weight = 1.0f;
        tdn_pose_copy(&b, &f.idle, NULL);
        CHECK(tdn_ik_blend_solve(rot, &req, &b, mb, pr, &rr, NULL) == TDN_OK);
        tdn_vec3 s = position(&mb[f.upper]), e = position(&mb[f.hand]);
        tdn_vec3 de = tdn_vec3_normalize(tdn_vec3_sub(e, s)), dt = tdn_vec3_normalize(tdn_vec3_sub(t, s));
        worst_dir = fmax(worst_dir, tdn_vec3_length(tdn_vec3_sub(de, dt)));
        CHECK(rr.error <= rr.blend_error + 1e-6);
        worst_rot_gain = fmax(worst_rot_gain, rr.error - fabs(distance(t, s) - distance(e, s)));
    }
    CHECK_NEAR(worst_dir, 0, 2e-6);
    CHECK_NEAR(worst_rot_gain, 0, 1e-6); /* what is left is only the difference of distances */
    free(ma);
    free(mb);
    tdn_pose_destroy(&a);
    tdn_pose_destroy(&b);
    tdn_ik_blend_destroy(ik);
    tdn_ik_blend_destroy(rot);
    tdn_ik_blend_destroy(borrowed);
    fixture_free(&f);
}

/* Feet on side slopes: the ground a plane through the origin rising towards +X (the
 * character's left) by -20..20 degrees. Five samples (every 10 degrees) plant the left foot on
 * it: the sole rolled with the ground, the ankle put by two-bone IK above the point under it,
 * the pelvis 6 cm lower so the downhill foot can reach. A 1D space on the slope (radians), a 3D
 * target (the ankle on a slope in between): the solver finds the slope, the correction lands. */
static void foot_on_slopes(void)
{
    fixture f;
    if (!fixture_init(&f))
        return;
    enum { SLOPES = 5 };
    int thigh = tdn_skeleton_find_joint(f.skel, "thigh_l"), calf = tdn_skeleton_find_joint(f.skel, "calf_l");
    int foot = tdn_skeleton_find_joint(f.skel, "foot_l"), pelvis = tdn_skeleton_find_joint(f.skel, "pelvis");
    if (!CHECK(thigh >= 0 && calf >= 0 && foot >= 0 && pelvis >= 0))
        return;
    tdn_pose base, samples[SLOPES];
    const tdn_pose *ptr[SLOPES];
    tdn_pose_create(f.n, &base, NULL, NULL);
    tdn_pose_copy(&base, &f.idle, NULL);
    tdn_transform px = tdn_pose_get(&base, pelvis);
    px.t.y -= 0.06f;
    tdn_pose_set(&base, pelvis, &px);
    tdn_model_space(f.skel, &base, NULL, f.model, NULL);
    const tdn_vec3 ankle0 = position(&f.model[foot]);
    const tdn_quat foot0 = tdn_quat_from_mat4(&f.model[foot]);
    const tdn_vec3 knee0 = position(&f.model[calf]);
    const float ankle_height = 0.06f * (1.8f / 1.8f);
    /* where the ankle goes on a slope, and how the foot turns */
#define SLOPE_ANKLE(theta)                                               \
  tdn_vec3_add(tdn_vec3_make(ankle0.x, ankle0.x *tanf(theta), ankle0.z), \
               tdn_vec3_make(-sinf(theta) * ankle_height, cosf(theta) * ankle_height, 0.0f))
    float points[SLOPES];
    int reached_all = 1;
    for (int i = 0; i < SLOPES; i++) {
        float theta = (-20.0f + 10.0f * (float)i) * (float)PI / 180.0f;
        points[i] = theta;
        tdn_pose_create(f.n, &samples[i], NULL, NULL);
        tdn_pose_copy(&samples[i], &base, NULL);
        tdn_model_space(f.skel, &samples[i], NULL, f.model, NULL);
        tdn_ik_two_bone_job leg = { thigh, calf, foot, SLOPE_ANKLE(theta), tdn_vec3_add(knee0, tdn_vec3_make(0, 0, 1)),
                                    1,     1.0f, 0.0f };
        int reached = 0;
        CHECK(tdn_ik_two_bone(f.skel, &leg, &samples[i], f.model, &reached, NULL) == TDN_OK);
        reached_all &= reached;
        /* the sole rolled with the ground: model rotation R_z(theta) * foot0 */
        tdn_quat want = tdn_quat_mul(tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), theta), foot0);
        tdn_quat parent = tdn_quat_from_mat4(&f.model[calf]);
        tdn_transform fx = tdn_pose_get(&samples[i], foot);
        fx.r = tdn_quat_normalize(tdn_quat_mul(tdn_quat_conjugate(parent), want));
        tdn_pose_set(&samples[i], foot, &fx);
        ptr[i] = &samples[i];
    }
    CHECK(reached_all);
    tdn_blend_space *space = NULL;
    CHECK(tdn_blend_space_create(&(tdn_blend_space_desc){ TDN_BLEND_SPACE_LINEAR, 1, SLOPES, points }, &space, NULL,
                                 NULL) == TDN_OK);
    tdn_ik_blend *ik = NULL;
    CHECK(tdn_ik_blend_create(&(tdn_ik_blend_desc){ .skeleton = f.skel,
                                                    .space = space,
                                                    .poses = ptr,
                                                    .effector = foot,
                                                    .correction = TDN_IK_BLEND_CORRECT_TWO_BONE,
                                                    .upper = thigh,
                                                    .middle = calf },
                              &ik, NULL, NULL) == TDN_OK);
    if (!CHECK(ik != NULL))
        return;
    tdn_pose pose;
    tdn_pose_create(f.n, &pose, NULL, NULL);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)f.n);
    double naive_max = 0, solved_max = 0, corrected_max = 0, slope_err = 0, sole_err = 0, naive_sum = 0, solved_sum = 0;
    int count = 0, iter_max = 0;
    for (int deg10 = -195; deg10 <= 195; deg10 += 10) { /* -19.5 .. 19.5 degrees, between the samples */
        float theta = (float)deg10 * 0.1f * (float)PI / 180.0f;
        tdn_vec3 t = SLOPE_ANKLE(theta), e;
        CHECK(tdn_ik_blend_effector(ik, &theta, NULL, NULL, &e, NULL) == TDN_OK);
        double naive = distance(e, t);
        float found;
        tdn_ik_blend_result r;
        tdn_pose_copy(&pose, &base, NULL);
        CHECK(tdn_ik_blend_solve(ik, &(tdn_ik_blend_job){ .target = t, .weight = 1.0f, .tolerance = 1e-5f }, &pose,
                                 model, &found, &r, NULL) == TDN_OK);
        naive_max = fmax(naive_max, naive);
        naive_sum += naive;
        solved_max = fmax(solved_max, r.blend_error);
        solved_sum += r.blend_error;
        corrected_max = fmax(corrected_max, r.error);
        slope_err = fmax(slope_err, fabs(found - theta));
        iter_max = r.iterations > iter_max ? r.iterations : iter_max;
        tdn_quat want = tdn_quat_mul(tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), theta), foot0);
        sole_err = fmax(sole_err, check_quat_angle(tdn_quat_from_mat4(&model[foot]), want));
        CHECK(r.blend_error <= naive + 1e-6);
        count++;
    }
    printf(
        "foot on side slopes (-19.5..19.5 deg, %d targets, samples every 10 deg): naive (slope as parameter) mean %.3f "
        "max %.3f mm, solved pure blend mean %.3f max %.3f mm, iterations <= %d, slope found within %.2f deg, "
        "corrected <= %.1e m, sole off the slope by <= %.2f deg\n",
        count, naive_sum / count * 1e3, naive_max * 1e3, solved_sum / count * 1e3, solved_max * 1e3, iter_max,
        slope_err * 180 / PI, corrected_max, sole_err * 180 / PI);
    CHECK(corrected_max <= 1e-4);
    CHECK(solved_sum < naive_sum);
    CHECK(slope_err < 2.0 * PI / 180);
    CHECK(sole_err < 2.0 * PI / 180);
#undef SLOPE_ANKLE
    free(model);
    tdn_pose_destroy(&pose);
    for (int i = 0; i < SLOPES; i++)
        tdn_pose_destroy(&samples[i]);
    tdn_pose_destroy(&base);
    tdn_ik_blend_destroy(ik);
    tdn_blend_space_destroy(space);
    fixture_free(&f);
}

static void bad_arguments(void)
{
    fixture f;
    if (!fixture_init(&f))
        return;
    tdn_ik_blend *ik = (tdn_ik_blend *)&f; /* must come back NULL */
    tdn_error err = { 0 };
    tdn_ik_blend_desc good = { .skeleton = f.skel,
                               .space = f.space,
                               .poses = f.reach_ptr,
                               .effector = f.hand,
                               .correction = TDN_IK_BLEND_CORRECT_TWO_BONE,
                               .upper = f.upper,
                               .middle = f.middle };
    CHECK(tdn_ik_blend_create(NULL, &ik, NULL, &err) == TDN_ERR_ARGUMENT && ik == NULL);
    CHECK(tdn_ik_blend_create(&good, NULL, NULL, &err) == TDN_ERR_ARGUMENT);
    tdn_ik_blend_desc d = good;
    d.skeleton = NULL;
    CHECK(tdn_ik_blend_create(&d, &ik, NULL, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "desc.skeleton") == 0);
    d = good;
    d.space = NULL;
    CHECK(tdn_ik_blend_create(&d, &ik, NULL, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "desc.space") == 0);
    d = good;
    d.poses = NULL;
    CHECK(tdn_ik_blend_create(&d, &ik, NULL, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "desc.poses") == 0);
    const tdn_pose *holes[SAMPLES];
    memcpy(holes, f.reach_ptr, sizeof holes);
    holes[3] = NULL;
    d = good;
    d.poses = holes;
    CHECK(tdn_ik_blend_create(&d, &ik, NULL, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "desc.poses[3]") == 0);
    tdn_pose small;
    tdn_pose_create(5, &small, NULL, NULL);
    holes[3] = &small;
    CHECK(tdn_ik_blend_create(&d, &ik, NULL, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "desc.poses[3]") == 0);
    d = good;
    d.effector = f.n;
    CHECK(tdn_ik_blend_create(&d, &ik, NULL, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "desc.effector") == 0);
    d.effector = -1;
    CHECK(tdn_ik_blend_create(&d, &ik, NULL, &err) == TDN_ERR_ARGUMENT);
    d = good;
    d.correction = (tdn_ik_blend_correction)7;
    CHECK(tdn_ik_blend_create(&d, &ik, NULL, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "desc.correction") == 0);
    d = good;
    d.upper = f.middle; /* upper below... middle itself */
    CHECK(tdn_ik_blend_create(&d, &ik, NULL, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "desc.upper") == 0);
    d = good;
    d.middle = tdn_skeleton_find_joint(f.skel, "lowerarm_l"); /* not on the chain */
    CHECK(tdn_ik_blend_create(&d, &ik, NULL, &err) == TDN_ERR_ARGUMENT);
    d = good;
    d.correction = TDN_IK_BLEND_CORRECT_ROTATE;
    d.upper = f.hand;
    CHECK(tdn_ik_blend_create(&d, &ik, NULL, &err) == TDN_ERR_ARGUMENT);
    float *mask = calloc((size_t)f.n, sizeof(float));
    mask[7] = NAN;
    d = good;
    d.joint_weights = mask;
    CHECK(tdn_ik_blend_create(&d, &ik, NULL, &err) == TDN_ERR_ARGUMENT &&
          strcmp(err.where, "desc.joint_weights[7]") == 0);
    d = good;
    const tdn_allocator alloc_only = { counting.alloc, NULL, NULL };
    CHECK(tdn_ik_blend_create(&d, &ik, &alloc_only, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "allocator") == 0);
    CHECK(ik == NULL);

    /* solve and effector */
    CHECK(tdn_ik_blend_create(&good, &ik, NULL, &err) == TDN_OK);
    d = good;
    mask[7] = 1.0f;
    d.joint_weights = mask;
    tdn_ik_blend *masked = NULL;
    CHECK(tdn_ik_blend_create(&d, &masked, NULL, &err) == TDN_OK);
    tdn_pose pose;
    tdn_pose_create(f.n, &pose, NULL, NULL);
    tdn_pose_copy(&pose, &f.idle, NULL);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)f.n);
    float params[3] = { 0, 0, 0 }, nan_params[3] = { 0, NAN, 0 };
    tdn_vec3 t = tdn_vec3_scale(tdn_vec3_add(f.lo, f.hi), 0.5f), e;
    tdn_ik_blend_job req = { .target = t, .weight = 1.0f };
    CHECK(tdn_ik_blend_solve(NULL, &req, &pose, model, params, NULL, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_ik_blend_solve(ik, NULL, &pose, model, params, NULL, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_ik_blend_solve(ik, &req, NULL, model, params, NULL, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_ik_blend_solve(ik, &req, &pose, NULL, params, NULL, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_ik_blend_solve(ik, &req, &pose, model, NULL, NULL, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_ik_blend_solve(ik, &req, &small, model, params, NULL, NULL) == TDN_ERR_ARGUMENT);
    tdn_ik_blend_job bad = req;
    bad.target.y = NAN;
    CHECK(tdn_ik_blend_solve(ik, &bad, &pose, model, params, NULL, NULL) == TDN_ERR_ARGUMENT);
    bad = req;
    bad.target.x = INFINITY;
    CHECK(tdn_ik_blend_solve(ik, &bad, &pose, model, params, NULL, NULL) == TDN_ERR_ARGUMENT);
    bad = req;
    bad.start = nan_params;
    CHECK(tdn_ik_blend_solve(ik, &bad, &pose, model, params, NULL, NULL) == TDN_ERR_ARGUMENT);
    bad = req;
    bad.tolerance = -1.0f;
    CHECK(tdn_ik_blend_solve(ik, &bad, &pose, model, params, NULL, NULL) == TDN_ERR_ARGUMENT);
    bad.tolerance = NAN;
    CHECK(tdn_ik_blend_solve(ik, &bad, &pose, model, params, NULL, NULL) == TDN_ERR_ARGUMENT);
    bad = req;
    bad.max_iterations = -1;
    CHECK(tdn_ik_blend_solve(ik, &bad, &pose, model, params, NULL, NULL) == TDN_ERR_ARGUMENT);
    bad = req;
    bad.weight = NAN;
    CHECK(tdn_ik_blend_solve(ik, &bad, &pose, model, params, NULL, NULL) == TDN_ERR_ARGUMENT);
    tdn_mat4 nan_root = tdn_mat4_identity();
    nan_root.m[13] = NAN;
    bad = req;
    bad.root = &nan_root;
    CHECK(tdn_ik_blend_solve(ik, &bad, &pose, model, params, NULL, NULL) == TDN_ERR_ARGUMENT);
    CHECK(memcmp(pose.data, f.idle.data, tdn_pose_bytes(f.n)) == 0); /* nothing written */
    CHECK(tdn_ik_blend_effector(NULL, params, NULL, NULL, &e, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_ik_blend_effector(ik, NULL, NULL, NULL, &e, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_ik_blend_effector(ik, params, NULL, NULL, NULL, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_ik_blend_effector(ik, nan_params, NULL, NULL, &e, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_ik_blend_effector(masked, params, NULL, NULL, &e, NULL) == TDN_ERR_ARGUMENT); /* a mask needs the input */
    CHECK(tdn_ik_blend_effector(masked, params, &f.idle, NULL, &e, NULL) == TDN_OK);
    /* a target out of reach: finite, the blend's best, then the arm straight at it */
    req.target = tdn_vec3_make(5, 5, 5);
    tdn_ik_blend_result r;
    CHECK(tdn_ik_blend_solve(ik, &req, &pose, model, params, &r, NULL) == TDN_OK);
    CHECK(isfinite(r.error) && r.error <= r.blend_error && !r.reached);
    /* a root placement: the same answer, moved */
    tdn_mat4 root = tdn_mat4_from_quat(tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), 0.7f));
    root.m[12] = 3.0f;
    root.m[14] = -2.0f;
    req.target = tdn_mat4_transform_point(&root, t);
    req.root = &root;
    CHECK(tdn_ik_blend_solve(ik, &req, &pose, model, params, &r, NULL) == TDN_OK);
    CHECK(r.error <= 1e-4);
    CHECK(tdn_ik_blend_chain(NULL, NULL) == 0 && tdn_ik_blend_memory_size(NULL) == 0);
    tdn_ik_blend_destroy(NULL);
    free(model);
    free(mask);
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&small);
    tdn_ik_blend_destroy(ik);
    tdn_ik_blend_destroy(masked);
    fixture_free(&f);
}

/* Creation: two allocations through the caller's hooks, every one of them failing cleanly;
 * solving: none (every allocation fails during 200 solves, and they all succeed). */
static void no_allocation_per_solve(void)
{
    fixture f;
    if (!fixture_init(&f))
        return;
    for (long fail_at = 0; fail_at < 2; fail_at++) {
        allocations_before_failure = fail_at;
        tdn_ik_blend *ik = NULL;
        CHECK(make_ik(&f, TDN_IK_BLEND_CORRECT_TWO_BONE, f.upper, NULL, &counting) == NULL);
        CHECK(live_blocks == 0 && live_bytes == 0);
        (void)ik;
    }
    allocations_before_failure = -1;
    tdn_ik_blend *ik = make_ik(&f, TDN_IK_BLEND_CORRECT_TWO_BONE, f.upper, NULL, &counting);
    if (!CHECK(ik != NULL))
        return;
    CHECK_EQ_INT(live_blocks, 2);
    CHECK(live_bytes >= tdn_ik_blend_memory_size(ik));
    printf("definition: %zu bytes (+ a %zu-byte chain skeleton) for 27 samples of 67 joints (copied poses)\n",
           tdn_ik_blend_memory_size(ik), live_bytes - tdn_ik_blend_memory_size(ik));
    tdn_pose pose;
    tdn_pose_create(f.n, &pose, NULL, NULL);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)f.n);
    check_rng rng = { 8 };
    allocations_before_failure = 0;
    float params[3];
    int ok = 1;
    for (int k = 0; k < 200; k++) {
        tdn_ik_blend_job req = { .target = random_target(&f, &rng), .start = k % 2 ? params : NULL, .weight = 1.0f };
        tdn_ik_blend_result r;
        ok &= tdn_ik_blend_solve(ik, &req, &pose, model, params, &r, NULL) == TDN_OK && r.error <= 1e-4;
    }
    allocations_before_failure = -1;
    CHECK(ok);
    CHECK_EQ_INT(live_blocks, 2);
    tdn_ik_blend_destroy(ik);
    CHECK(live_blocks == 0 && live_bytes == 0);
    free(model);
    tdn_pose_destroy(&pose);
    fixture_free(&f);
}

int main(void)
{
    RUN(reach_grid_solved_against_naive);
    RUN(moving_target_moves_parameters_smoothly);
    RUN(masked_reach_over_a_walk);
    RUN(weights_rotate_and_borrowed_poses);
    RUN(foot_on_slopes);
    RUN(bad_arguments);
    RUN(no_allocation_per_solve);
    return check_summary();
}
