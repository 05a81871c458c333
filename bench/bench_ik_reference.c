/* tendon_bench: textbook IK solvers (see bench_ik_reference.h). Written the plain way on
 * purpose, with tendon's vector maths: they measure what a straightforward solve costs. */
#include "bench_ik_reference.h"

#include <math.h>

static tdn_vec3 position_of(const tdn_mat4 *m) { return tdn_vec3_make(m->m[12], m->m[13], m->m[14]); }

static float distance2(tdn_vec3 a, tdn_vec3 b)
{
    tdn_vec3 d = tdn_vec3_sub(a, b);
    return tdn_vec3_dot(d, d);
}

static tdn_quat local_rotation(const tdn_pose *pose, int joint)
{
    return tdn_quat_make(tdn_pose_crow(pose, TDN_RX)[joint], tdn_pose_crow(pose, TDN_RY)[joint],
                         tdn_pose_crow(pose, TDN_RZ)[joint], tdn_pose_crow(pose, TDN_RW)[joint]);
}

static tdn_vec3 local_translation(const tdn_pose *pose, int joint)
{
    return tdn_vec3_make(tdn_pose_crow(pose, TDN_TX)[joint], tdn_pose_crow(pose, TDN_TY)[joint],
                         tdn_pose_crow(pose, TDN_TZ)[joint]);
}

static void set_local_rotation(tdn_pose *pose, int joint, tdn_quat q)
{
    tdn_pose_row(pose, TDN_RX)[joint] = q.x;
    tdn_pose_row(pose, TDN_RY)[joint] = q.y;
    tdn_pose_row(pose, TDN_RZ)[joint] = q.z;
    tdn_pose_row(pose, TDN_RW)[joint] = q.w;
}

/* A chain joint's model matrix (unit scale). */
static void set_model(tdn_mat4 *m, tdn_quat rotation, tdn_vec3 position)
{
    *m = tdn_mat4_from_quat(rotation);
    m->m[12] = position.x, m->m[13] = position.y, m->m[14] = position.z;
}

static tdn_quat arc(tdn_vec3 from, tdn_vec3 to)
{
    return tdn_quat_from_to(tdn_vec3_normalize(from), tdn_vec3_normalize(to));
}

static float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

int bench_ik_ref_two_bone(const bench_ik_ref *ik)
{
    const int upper = ik->joints[0], middle = ik->joints[1];
    const tdn_vec3 a = position_of(&ik->model[upper]), b = position_of(&ik->model[middle]);
    const tdn_vec3 c = position_of(&ik->model[ik->joints[2]]), t = ik->target;
    const float l1 = tdn_vec3_length(tdn_vec3_sub(b, a)), l2 = tdn_vec3_length(tdn_vec3_sub(c, b));
    const float reach = clampf(tdn_vec3_length(tdn_vec3_sub(t, a)), fabsf(l1 - l2), l1 + l2);

    /* the knee: from its angle now to the one the law of cosines gives for that reach, about
     * the normal of the plane it bends in */
    const tdn_vec3 ba = tdn_vec3_sub(a, b), bc = tdn_vec3_sub(c, b);
    const float now = acosf(clampf(tdn_vec3_dot(tdn_vec3_normalize(ba), tdn_vec3_normalize(bc)), -1.0f, 1.0f));
    const float wanted = acosf(clampf((l1 * l1 + l2 * l2 - reach * reach) / (2.0f * l1 * l2), -1.0f, 1.0f));
    const tdn_quat knee = tdn_quat_from_axis_angle(tdn_vec3_cross(ba, bc), wanted - now);
    const tdn_vec3 end = tdn_vec3_add(b, tdn_quat_rotate(knee, bc));
    /* the upper joint: the end onto the line to the target */
    const tdn_quat swing = arc(tdn_vec3_sub(end, a), tdn_vec3_sub(t, a));

    /* Model-space turns to local rotations. The joints' model rotations come from the matrices,
     * not from the pose: this solver writes no model matrix, so a pose it changed before may no
     * longer match them. */
    const tdn_quat parent = tdn_quat_from_mat4(&ik->model[ik->parent]);
    const tdn_quat upper_model = tdn_quat_from_mat4(&ik->model[upper]);
    const tdn_quat middle_model = tdn_quat_from_mat4(&ik->model[middle]);
    set_local_rotation(ik->pose, upper, tdn_quat_mul(tdn_quat_conjugate(parent), tdn_quat_mul(swing, upper_model)));
    set_local_rotation(ik->pose, middle,
                       tdn_quat_mul(tdn_quat_conjugate(upper_model), tdn_quat_mul(knee, middle_model)));
    const tdn_vec3 solved = tdn_vec3_add(a, tdn_quat_rotate(swing, tdn_vec3_sub(end, a)));
    return distance2(solved, t) <= ik->tolerance * ik->tolerance;
}

/* The FABRIK passes over p (read from the chain's model translations). */
static int fabrik_positions(const bench_ik_ref *ik, tdn_vec3 *p, int *iterations)
{
    const int n = ik->count - 1; /* the end */
    float length[BENCH_IK_REF_MAX_JOINTS];
    float total = 0.0f;
    for (int i = 0; i <= n; i++)
        p[i] = position_of(&ik->model[ik->joints[i]]);
    for (int i = 0; i < n; i++) {
        length[i] = tdn_vec3_length(tdn_vec3_sub(p[i + 1], p[i]));
        total += length[i];
    }
    const tdn_vec3 root = p[0], t = ik->target;
    const float tolerance2 = ik->tolerance * ik->tolerance;
    if (distance2(t, root) >= total * total) {
        const tdn_vec3 dir = tdn_vec3_normalize(tdn_vec3_sub(t, root));
        for (int i = 1; i <= n; i++)
            p[i] = tdn_vec3_add(p[i - 1], tdn_vec3_scale(dir, length[i - 1]));
        *iterations = 1;
        return distance2(p[n], t) <= tolerance2;
    }
    int k = 0;
    for (; k < ik->max_iterations && distance2(p[n], t) > tolerance2; k++) {
        p[n] = t;
        for (int i = n - 1; i >= 0; i--) {
            const tdn_vec3 d = tdn_vec3_sub(p[i], p[i + 1]);
            p[i] = tdn_vec3_add(p[i + 1], tdn_vec3_scale(d, length[i] / sqrtf(tdn_vec3_dot(d, d))));
        }
        p[0] = root;
        for (int i = 1; i <= n; i++) {
            const tdn_vec3 d = tdn_vec3_sub(p[i], p[i - 1]);
            p[i] = tdn_vec3_add(p[i - 1], tdn_vec3_scale(d, length[i - 1] / sqrtf(tdn_vec3_dot(d, d))));
        }
    }
    *iterations = k;
    return distance2(p[n], t) <= tolerance2;
}

int bench_ik_ref_fabrik_passes(const bench_ik_ref *ik, int *iterations)
{
    tdn_vec3 p[BENCH_IK_REF_MAX_JOINTS];
    const int reached = fabrik_positions(ik, p, iterations);
    for (int i = 0; i < ik->count; i++) {
        float *m = ik->model[ik->joints[i]].m;
        m[12] = p[i].x, m[13] = p[i].y, m[14] = p[i].z;
    }
    return reached;
}

int bench_ik_ref_fabrik(const bench_ik_ref *ik, int *iterations)
{
    tdn_vec3 p[BENCH_IK_REF_MAX_JOINTS];
    fabrik_positions(ik, p, iterations);
    /* Root first, each joint's bone (its child's offset, turned by the joint's model rotation
     * under its already turned parent) swung from where the joint now is onto the solved next
     * position. The model matrices get the positions the rotations give, not the solved
     * ones, so that the next solve starts from what the pose says. */
    tdn_quat frame = tdn_quat_from_mat4(&ik->model[ik->parent]);
    tdn_vec3 at = p[0];
    for (int i = 0; i < ik->count - 1; i++) {
        const int j = ik->joints[i];
        const tdn_quat model = tdn_quat_mul(frame, local_rotation(ik->pose, j));
        const tdn_vec3 offset = local_translation(ik->pose, ik->joints[i + 1]);
        const tdn_quat turned = tdn_quat_mul(arc(tdn_quat_rotate(model, offset), tdn_vec3_sub(p[i + 1], at)), model);
        set_local_rotation(ik->pose, j, tdn_quat_normalize(tdn_quat_mul(tdn_quat_conjugate(frame), turned)));
        set_model(&ik->model[j], turned, at);
        at = tdn_vec3_add(at, tdn_quat_rotate(turned, offset));
        frame = turned;
    }
    const int end = ik->joints[ik->count - 1];
    set_model(&ik->model[end], tdn_quat_mul(frame, local_rotation(ik->pose, end)), at);
    return distance2(at, ik->target) <= ik->tolerance * ik->tolerance;
}

int bench_ik_ref_ccd(const bench_ik_ref *ik, int *iterations)
{
    const int n = ik->count - 1; /* the end */
    tdn_vec3 p[BENCH_IK_REF_MAX_JOINTS];
    tdn_quat q[BENCH_IK_REF_MAX_JOINTS]; /* model rotations */
    const tdn_quat parent = tdn_quat_from_mat4(&ik->model[ik->parent]);
    for (int i = 0; i <= n; i++) {
        p[i] = position_of(&ik->model[ik->joints[i]]);
        q[i] = tdn_quat_mul(i > 0 ? q[i - 1] : parent, local_rotation(ik->pose, ik->joints[i]));
    }
    const tdn_vec3 t = ik->target;
    const float tolerance2 = ik->tolerance * ik->tolerance;
    int k = 0;
    for (; k < ik->max_iterations && distance2(p[n], t) > tolerance2; k++) {
        for (int i = n - 1; i >= 0; i--) {
            const tdn_quat turn = arc(tdn_vec3_sub(p[n], p[i]), tdn_vec3_sub(t, p[i]));
            for (int m = i + 1; m <= n; m++)
                p[m] = tdn_vec3_add(p[i], tdn_quat_rotate(turn, tdn_vec3_sub(p[m], p[i])));
            for (int m = i; m <= n; m++)
                q[m] = tdn_quat_mul(turn, q[m]);
        }
    }
    *iterations = k;
    /* The model matrices get the positions the rotations give, not the turned ones, which
     * drift by rounding over the passes: the next solve starts from what the pose says. */
    tdn_vec3 at = p[0];
    for (int i = 0; i <= n; i++) {
        q[i] = tdn_quat_normalize(q[i]);
        set_model(&ik->model[ik->joints[i]], q[i], at);
        if (i < n) { /* the end's local rotation does not change */
            set_local_rotation(ik->pose, ik->joints[i],
                               tdn_quat_mul(tdn_quat_conjugate(i > 0 ? q[i - 1] : parent), q[i]));
            at = tdn_vec3_add(at, tdn_quat_rotate(q[i], local_translation(ik->pose, ik->joints[i + 1])));
        }
    }
    return distance2(at, t) <= tolerance2;
}
