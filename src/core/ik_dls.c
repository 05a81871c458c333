/* tendon core: damped least squares IK.
 *
 * For joint i at p_i and effector t at q_t, a small model-space rotation w_i of joint i moves
 * the effector by w_i x (q_t - p_i) = -[r]x w_i with r = q_t - p_i (when t lies below i), so
 * the Jacobian block is J_ti = -[r_ti]x, and with the weights folded in as sqrt(w_t):
 *     (J J^T)_ts = sum_i sqrt(w_t w_s) ((r_ti . r_si) I - r_si r_ti^T)   (3 x 3 blocks)
 *     w_i        = sum_t sqrt(w_t) r_ti x y_t,   (J J^T + lambda^2 I) y = sqrt(w) e
 * so J itself is never stored: one pass costs O(joints x targets^2) for the small system
 * plus O(targets^3) for its Cholesky factorisation (at most 9 x 9, double precision).
 * The fixed points are where J^T W e = 0: the stationary points of sum w_t |e_t|^2.
 *
 * A pass is kept only if it lowers that sum (so the error never grows); otherwise the joints go
 * back and the pass is tried again with lambda 4 times larger (up to 6 times), and the solve
 * stops when none helps. Each kept pass halves lambda, down to 1/100 of the caller's
 * (Levenberg-Marquardt): heavy damping far away and near singularities, nearly Gauss-Newton
 * close to the target, which took the 2-bone chain's worst case from 200+ passes at a fixed
 * lambda to 9 (tests/test_ik_dls.c). The error vector is scaled down as a whole (never per
 * target, which would change the weighting) to at most 0.4 of the reach, and a pass turns no
 * joint by more than 0.6 rad, so the linearisation stays honest far from the target.
 *
 * During the passes only the joints on the root-to-effector paths get their model matrices
 * (one multiply each); the whole subtree of the root is recomputed once at the end. */
#include <stdio.h>

#include "ik_internal.h"
#include "internal.h"
#include "model_frame.h"
#include "pose_rotation.h"
#include "tendon/ik_dls.h"
#include "tendon/model_space.h"

enum { MAX_T = TDN_DLS_MAX_TARGETS, MAX_PATH = 256, MAX_RETRIES = 6 };
#define MIN_MU 0.01f

/* Swing-twist limit relative to the rest rotation: rel = conj(rest) q = swing * twist, twist
 * about the bone axis b (unit, in the joint's rest frame), swing about an axis across it, whose
 * angle is the angle the bone turned away from its rest direction. Each is clamped to its
 * bound (0: free). A joint with no bone (b zero) has its whole turn clamped by the cone. */
static tdn_quat limit_rotation(tdn_quat q, tdn_quat rest, tdn_vec3 b, tdn_ik_limit limit)
{
    if (!(limit.cone > 0.0f) && !(limit.twist > 0.0f))
        return q;
    tdn_quat rel = tdn_quat_normalize(tdn_quat_mul(tdn_quat_conjugate(rest), q));
    if (rel.w < 0.0f)
        rel = tdn_quat_negate(rel);
    tdn_quat twist = tdn_quat_identity(), swing = rel;
    if (tdn_vec3_dot(b, b) > 0.0f) {
        float along = rel.x * b.x + rel.y * b.y + rel.z * b.z;
        tdn_quat t = tdn_quat_make(b.x * along, b.y * along, b.z * along, rel.w);
        if (tdn_quat_dot(t, t) > 1e-12f) {
            twist = tdn_quat_normalize(t);
            swing = tdn_quat_mul(rel, tdn_quat_conjugate(twist));
        }
        if (limit.twist > 0.0f) {
            float angle = 2.0f * atan2f(twist.x * b.x + twist.y * b.y + twist.z * b.z, twist.w);
            if (angle > limit.twist || angle < -limit.twist)
                twist = tdn_quat_from_axis_angle(b, angle > 0.0f ? limit.twist : -limit.twist);
        }
    }
    if (limit.cone > 0.0f) {
        if (swing.w < 0.0f)
            swing = tdn_quat_negate(swing);
        float s = sqrtf(swing.x * swing.x + swing.y * swing.y + swing.z * swing.z);
        float angle = 2.0f * atan2f(s, swing.w);
        if (angle > limit.cone && s > 0.0f) {
            float k = sinf(0.5f * limit.cone) / s;
            swing = tdn_quat_make(swing.x * k, swing.y * k, swing.z * k, cosf(0.5f * limit.cone));
        }
    }
    return tdn_quat_normalize(tdn_quat_mul(rest, tdn_quat_mul(swing, twist)));
}

typedef struct solver {
    const tdn_skeleton *skeleton;
    const tdn_ik_dls_job *ik;
    tdn_pose *pose;
    tdn_mat4 *model;
    const int16_t *parents;
    int root;
    tdn_mat4 root_matrix;             /* the matrix above a root joint (when parents[root] < 0) */
    int path[MAX_PATH], path_count;   /* root and every joint up from an effector, increasing */
    int moving[TDN_MAX_IK_CHAIN];     /* indices into ik->joints of joints above some effector */
    unsigned masks[TDN_MAX_IK_CHAIN]; /* bit t: joint moving[k] lies above effector t */
    tdn_quat rest[TDN_MAX_IK_CHAIN];  /* their rest rotations and bone axes, for the limits */
    tdn_vec3 bone[TDN_MAX_IK_CHAIN];
    int moving_count;
    int targets[MAX_T];  /* indices into ik->targets with weight > 0 */
    float sqrt_w[MAX_T]; /* their weights over the largest, square-rooted */
    int target_count;
    float reach;
} solver;

static const tdn_mat4 *parent_matrix(const solver *s, int j)
{
    int p = s->parents[j];
    return p < 0 ? &s->root_matrix : &s->model[p];
}

/* Model matrices of the path joints from the pose (parents first), each computed as the
 * final pass over the root's subtree computes it (the same bits), so the errors the passes
 * compare are the errors the caller sees. */
static void path_forward(solver *s)
{
    const tdn_mat4 *root = s->parents[s->root] < 0 ? &s->root_matrix : NULL;
    for (int k = 0; k < s->path_count; k++)
        tdn_model_space_range(s->skeleton, s->pose, root, s->path[k], s->path[k] + 1, s->model, NULL);
}

/* sum w |e|^2 over the weighted targets (weights over the largest), and the largest distance. */
static double objective(const solver *s, double *largest)
{
    double f = 0.0, big = 0.0;
    for (int k = 0; k < s->target_count; k++) {
        const tdn_dls_target *t = &s->ik->targets[s->targets[k]];
        tdn_vec3 e = tdn_vec3_sub(t->position, tdn__model_position(&s->model[t->effector]));
        double d2 = (double)e.x * e.x + (double)e.y * e.y + (double)e.z * e.z;
        f += (double)s->sqrt_w[k] * s->sqrt_w[k] * d2;
        if (d2 > big)
            big = d2;
    }
    *largest = sqrt(big);
    return f;
}

/* Solves a y = b in place for symmetric positive definite a (n x n, row-major) by Cholesky;
 * a pivot that is not positive gets a floor (the damping keeps this from happening). */
static void cholesky_solve(double *a, double *b, int n)
{
    for (int j = 0; j < n; j++) {
        double d = a[j * n + j];
        for (int k = 0; k < j; k++)
            d -= a[j * n + k] * a[j * n + k];
        d = d > 1e-30 ? sqrt(d) : 1e-15;
        a[j * n + j] = d;
        for (int i = j + 1; i < n; i++) {
            double v = a[i * n + j];
            for (int k = 0; k < j; k++)
                v -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = v / d;
        }
    }
    for (int i = 0; i < n; i++) { /* L z = b */
        double v = b[i];
        for (int k = 0; k < i; k++)
            v -= a[i * n + k] * b[k];
        b[i] = v / a[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) { /* L^T y = z */
        double v = b[i];
        for (int k = i + 1; k < n; k++)
            v -= a[k * n + i] * b[k];
        b[i] = v / a[i * n + i];
    }
}

/* The model-space rotation increments of one pass (radians, axis-angle vectors) into step[].
 * Returns the largest angle. */
static float pass_step(const solver *s, float lambda, tdn_vec3 *step)
{
    const int nt = s->target_count, n = 3 * nt;
    tdn_vec3 q[MAX_T];
    double e[3 * MAX_T], a[9 * MAX_T * MAX_T];
    double big = 0.0;
    for (int t = 0; t < nt; t++) {
        const tdn_dls_target *target = &s->ik->targets[s->targets[t]];
        q[t] = tdn__model_position(&s->model[target->effector]);
        tdn_vec3 d = tdn_vec3_sub(target->position, q[t]);
        e[3 * t] = d.x, e[3 * t + 1] = d.y, e[3 * t + 2] = d.z;
        double len = sqrt(e[3 * t] * e[3 * t] + e[3 * t + 1] * e[3 * t + 1] + e[3 * t + 2] * e[3 * t + 2]);
        big = len > big ? len : big;
    }
    /* the whole error vector scaled at once, so the targets keep their weighting */
    double clamp = 0.4 * s->reach, scale = big > clamp ? clamp / big : 1.0;
    for (int t = 0; t < nt; t++)
        for (int c = 0; c < 3; c++)
            e[3 * t + c] *= scale * s->sqrt_w[t];
    for (int i = 0; i < n * n; i++)
        a[i] = 0.0;
    for (int k = 0; k < s->moving_count; k++) {
        tdn_vec3 p = tdn__model_position(&s->model[s->ik->joints[s->moving[k]]]);
        double r[MAX_T][3];
        for (int t = 0; t < nt; t++) {
            double on = (s->masks[k] >> t) & 1u ? s->sqrt_w[t] : 0.0;
            r[t][0] = on * ((double)q[t].x - p.x), r[t][1] = on * ((double)q[t].y - p.y),
            r[t][2] = on * ((double)q[t].z - p.z);
        }
        for (int t = 0; t < nt; t++)
            for (int u = 0; u <= t; u++) { /* block (t, u) += (r_t . r_u) I - r_u r_t^T */
                double dot = r[t][0] * r[u][0] + r[t][1] * r[u][1] + r[t][2] * r[u][2];
                for (int row = 0; row < 3; row++)
                    for (int col = 0; col < 3; col++)
                        a[(3 * t + row) * n + 3 * u + col] += (row == col ? dot : 0.0) - r[u][row] * r[t][col];
            }
    }
    for (int t = 0; t < nt; t++) /* the upper blocks mirror the lower ones */
        for (int u = 0; u < t; u++)
            for (int row = 0; row < 3; row++)
                for (int col = 0; col < 3; col++)
                    a[(3 * u + col) * n + 3 * t + row] = a[(3 * t + row) * n + 3 * u + col];
    double l2 = (double)lambda * lambda;
    for (int i = 0; i < n; i++)
        a[i * n + i] += l2;
    cholesky_solve(a, e, n);
    float largest = 0.0f;
    for (int k = 0; k < s->moving_count; k++) {
        tdn_vec3 p = tdn__model_position(&s->model[s->ik->joints[s->moving[k]]]);
        double w[3] = { 0.0, 0.0, 0.0 };
        for (int t = 0; t < nt; t++) {
            if (!((s->masks[k] >> t) & 1u))
                continue;
            double rx = s->sqrt_w[t] * ((double)q[t].x - p.x), ry = s->sqrt_w[t] * ((double)q[t].y - p.y);
            double rz = s->sqrt_w[t] * ((double)q[t].z - p.z);
            const double *y = &e[3 * t];
            w[0] += ry * y[2] - rz * y[1];
            w[1] += rz * y[0] - rx * y[2];
            w[2] += rx * y[1] - ry * y[0];
        }
        step[k] = tdn_vec3_make((float)w[0], (float)w[1], (float)w[2]);
        float angle = tdn_vec3_length(step[k]);
        largest = angle > largest ? angle : largest;
    }
    return largest;
}

/* The bone axis used for joint j's limit: the rest offset of its first child on the paths. */
static tdn_vec3 bone_axis(const solver *s, int j)
{
    for (int k = 0; k < s->path_count; k++)
        if (s->parents[s->path[k]] == j)
            return tdn_vec3_normalize(tdn_skeleton_rest(s->skeleton, s->path[k]).t);
    return tdn_vec3_make(0, 0, 0);
}

static void apply_limits(const solver *s)
{
    for (int k = 0; k < s->moving_count; k++) {
        int i = s->moving[k], j = s->ik->joints[i];
        tdn_ik_limit limit = s->ik->limits[i];
        if (limit.cone > 0.0f || limit.twist > 0.0f)
            tdn__pose_set_rotation(s->pose, j,
                                   limit_rotation(tdn__pose_rotation(s->pose, j), s->rest[k], s->bone[k], limit));
    }
}

/* The pass's model-space increments as local axes (through each parent's model rotation
 * before the pass; unit) and angles, so that fractions of the pass can be tried. */
static void step_to_local(const solver *s, tdn_vec3 *step, float *angle)
{
    for (int k = 0; k < s->moving_count; k++) {
        int j = s->ik->joints[s->moving[k]];
        angle[k] = tdn_vec3_length(step[k]);
        step[k] = angle[k] > 0.0f ? tdn_vec3_normalize(tdn__model_into_frame(parent_matrix(s, j), step[k])) : step[k];
    }
}

/* Turns every moving joint by alpha times its increment from the rotations in `from`. */
static void apply_step(const solver *s, const tdn_vec3 *axis, const float *angle, float alpha, const tdn_quat *from)
{
    for (int k = 0; k < s->moving_count; k++) {
        int j = s->ik->joints[s->moving[k]];
        float turn = alpha * angle[k];
        tdn_quat local = from[k];
        if (turn > 0.0f && tdn_vec3_dot(axis[k], axis[k]) > 0.0f) {
            float h = 0.5f * turn, sh = sinf(h);
            tdn_quat delta = tdn_quat_make(axis[k].x * sh, axis[k].y * sh, axis[k].z * sh, cosf(h));
            local = tdn_quat_normalize(tdn_quat_mul(delta, local));
        }
        tdn__pose_set_rotation(s->pose, j, local);
    }
    if (s->ik->limits)
        apply_limits(s);
}

static tdn_result check_args(const tdn_skeleton *skeleton, const tdn_ik_dls_job *ik, const tdn_pose *pose,
                             const tdn_mat4 *model, tdn_error *err)
{
    if (!ik || !ik->joints || !ik->targets)
        return tdn__null(err, !ik ? "ik" : !ik->joints ? "ik.joints" : "ik.targets");
    tdn_result r = tdn__ik_check_pose(skeleton, pose, model, err);
    if (r != TDN_OK)
        return r;
    int n = tdn_skeleton_joint_count(skeleton);
    if (ik->joint_count < 1 || ik->joint_count > TDN_MAX_IK_CHAIN)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "ik.joint_count", "%d joints, not within 1..%d", ik->joint_count,
                         TDN_MAX_IK_CHAIN);
    if (ik->target_count < 1 || ik->target_count > MAX_T)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "ik.target_count", "%d targets, not within 1..%d", ik->target_count,
                         MAX_T);
    int root = ik->joints[0];
    if (root < 0 || root >= n)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "ik.joints[0]", "joint %d is not within 0..%d", root, n - 1);
    char where[32];
    for (int i = 1; i < ik->joint_count; i++)
        if (ik->joints[i] <= ik->joints[i - 1] || !tdn_skeleton_is_in_subtree(skeleton, ik->joints[i], root)) {
            snprintf(where, sizeof where, "ik.joints[%d]", i);
            return tdn__fail(err, TDN_ERR_ARGUMENT, where,
                             "joint %d is not after ik.joints[%d] in the subtree of ik.joints[0]", ik->joints[i],
                             i - 1);
        }
    for (int t = 0; t < ik->target_count; t++) {
        const tdn_dls_target *target = &ik->targets[t];
        if (target->effector == root || !tdn_skeleton_is_in_subtree(skeleton, target->effector, root) ||
            tdn__bad_vec3(target->position) || !(target->weight >= 0.0f) || !tdn__finite(target->weight)) {
            snprintf(where, sizeof where, "ik.targets[%d]", t);
            return tdn__fail(
                err, TDN_ERR_ARGUMENT, where,
                "the effector (%d) must lie below ik.joints[0], its position be finite and its weight >= 0",
                target->effector);
        }
    }
    if (!(ik->damping >= 0.0f) || !tdn__finite(ik->damping) || !(ik->tolerance >= 0.0f) ||
        !tdn__finite(ik->tolerance) || ik->max_iterations < 0 || isnan(ik->weight))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "ik",
                         "damping %g, tolerance %g and max_iterations %d must be >= 0 and finite, the weight not NaN",
                         (double)ik->damping, (double)ik->tolerance, ik->max_iterations);
    return tdn__ik_check_limits(ik->limits, ik->joint_count, err);
}

/* The paths from the root to every effector (sorted, without repeats), the joints that move
 * some effector, and the reach. 0 when the paths hold more than MAX_PATH joints. */
static int build(solver *s)
{
    const tdn_ik_dls_job *ik = s->ik;
    s->path_count = 0;
    for (int t = 0; t < ik->target_count; t++)
        for (int j = ik->targets[t].effector; j != s->root; j = s->parents[j]) {
            int at = s->path_count;
            while (at > 0 && s->path[at - 1] > j)
                at--;
            if (at > 0 && s->path[at - 1] == j)
                break; /* the rest of the way up is there already */
            if (s->path_count == MAX_PATH - 1)
                return 0;
            memmove(&s->path[at + 1], &s->path[at], (size_t)(s->path_count - at) * sizeof s->path[0]);
            s->path[at] = j;
            s->path_count++;
        }
    memmove(&s->path[1], &s->path[0], (size_t)s->path_count * sizeof s->path[0]);
    s->path[0] = s->root;
    s->path_count++;

    float biggest = 0.0f;
    s->target_count = 0;
    for (int t = 0; t < ik->target_count; t++)
        biggest = ik->targets[t].weight > biggest ? ik->targets[t].weight : biggest;
    for (int t = 0; t < ik->target_count; t++)
        if (ik->targets[t].weight > 0.0f) {
            s->targets[s->target_count] = t;
            s->sqrt_w[s->target_count++] = sqrtf(ik->targets[t].weight / biggest);
        }
    s->moving_count = 0;
    for (int i = 0; i < ik->joint_count; i++) {
        unsigned mask = 0;
        for (int k = 0; k < s->target_count; k++) {
            int e = ik->targets[s->targets[k]].effector;
            if (e != ik->joints[i] && tdn_skeleton_is_in_subtree(s->skeleton, e, ik->joints[i]))
                mask |= 1u << k;
        }
        if (mask) {
            s->moving[s->moving_count] = i;
            s->rest[s->moving_count] = tdn_skeleton_rest(s->skeleton, ik->joints[i]).r;
            s->bone[s->moving_count] = bone_axis(s, ik->joints[i]);
            s->masks[s->moving_count++] = mask;
        }
    }
    s->reach = 0.0f;
    for (int k = 0; k < s->target_count; k++) {
        float length = 0.0f;
        for (int j = ik->targets[s->targets[k]].effector; j != s->root; j = s->parents[j])
            length += tdn_vec3_length(
                tdn_vec3_sub(tdn__model_position(&s->model[j]), tdn__model_position(parent_matrix(s, j))));
        s->reach = length > s->reach ? length : s->reach;
    }
    return 1;
}

tdn_result tdn_ik_dls(const tdn_skeleton *skeleton, const tdn_ik_dls_job *ik, tdn_pose *pose, tdn_mat4 *model,
                      tdn_ik_result *result, tdn_error *err)
{
    tdn_result checked = check_args(skeleton, ik, pose, model, err);
    if (checked != TDN_OK)
        return checked;
    solver s;
    s.skeleton = skeleton;
    s.ik = ik;
    s.pose = pose;
    s.model = model;
    s.parents = tdn_skeleton_parents(skeleton);
    s.root = ik->joints[0];
    if (s.parents[s.root] < 0) { /* the root matrix model space was computed with */
        tdn_transform x = tdn_pose_get(pose, s.root);
        tdn_mat4 local = tdn_transform_to_mat4(&x), inverse;
        tdn_mat4_invert(&local, &inverse);
        s.root_matrix = tdn_mat4_mul(&model[s.root], &inverse);
    } else {
        s.root_matrix = tdn_mat4_identity();
    }
    if (!build(&s))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "ik.targets",
                         "the paths from ik.joints[0] to the effectors hold more than %d joints", MAX_PATH - 1);

    const float weight = tdn__clamp01(ik->weight);
    const float tolerance = ik->tolerance > 0.0f ? ik->tolerance : 1e-4f * s.reach;
    const float lambda = (ik->damping > 0.0f ? ik->damping : 0.1f) * s.reach;
    const int max_iterations = ik->max_iterations > 0 ? ik->max_iterations : 100;
    double largest;
    double f = objective(&s, &largest);
    int passes = 0;
    if (weight > 0.0f && s.moving_count > 0 && s.reach > 0.0f) {
        tdn_quat input[TDN_MAX_IK_CHAIN], before[TDN_MAX_IK_CHAIN];
        tdn_vec3 step[TDN_MAX_IK_CHAIN];
        float step_angle[TDN_MAX_IK_CHAIN];
        for (int k = 0; k < s.moving_count; k++)
            input[k] = tdn__pose_rotation(pose, ik->joints[s.moving[k]]);
        if (ik->limits) { /* start inside the limits */
            apply_limits(&s);
            path_forward(&s);
            f = objective(&s, &largest);
        }
        float mu = 1.0f; /* the damping's factor: down while passes succeed, up when one fails */
        while (passes < max_iterations && largest > tolerance) {
            passes++;
            for (int k = 0; k < s.moving_count; k++)
                before[k] = tdn__pose_rotation(pose, ik->joints[s.moving[k]]);
            int kept = 0;
            for (int attempt = 0; attempt <= MAX_RETRIES && !kept; attempt++) {
                float angle = pass_step(&s, lambda * mu, step);
                if (!(angle > 1e-6f)) /* converged as far as the damped steps go (or NaN) */
                    break;
                step_to_local(&s, step, step_angle);
                apply_step(&s, step, step_angle, angle > 0.6f ? 0.6f / angle : 1.0f, before);
                path_forward(&s);
                double largest_new, f_new = objective(&s, &largest_new);
                if (f_new <= f) {
                    f = f_new;
                    largest = largest_new;
                    kept = 1;
                    mu = mu > 2.0f * MIN_MU ? 0.5f * mu : MIN_MU;
                } else { /* back to where the pass started, and damp harder */
                    for (int k = 0; k < s.moving_count; k++)
                        tdn__pose_set_rotation(pose, ik->joints[s.moving[k]], before[k]);
                    path_forward(&s);
                    mu *= 4.0f;
                }
            }
            if (!kept)
                break;
        }
        if (weight < 1.0f)
            for (int k = 0; k < s.moving_count; k++) {
                int j = ik->joints[s.moving[k]];
                tdn__pose_set_rotation(pose, j, tdn_quat_slerp(input[k], tdn__pose_rotation(pose, j), weight));
            }
        tdn_model_space_range(skeleton, pose, s.parents[s.root] < 0 ? &s.root_matrix : NULL, s.root,
                              tdn_skeleton_subtree_end(skeleton, s.root), model, NULL);
        objective(&s, &largest);
    }
    if (result) {
        result->iterations = passes;
        result->error = (float)largest;
        result->reached = s.target_count > 0 && largest <= tolerance;
    }
    return TDN_OK;
}
