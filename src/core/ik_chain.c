/* tendon core: joint chains for the iterative IK solvers. */
#include <stdio.h>

#include "internal.h"
#include "tendon/ik_chain.h"

int tdn_ik_chain_path(const tdn_skeleton *skeleton, int root, int end, int *joints, int capacity)
{
    if (!skeleton || !joints || capacity < 2)
        return -1;
    int n = tdn_skeleton_joint_count(skeleton);
    if (root < 0 || root >= n || end < 0 || end >= n || end == root)
        return -1;
    int count = 0;
    for (int j = end; j != root; j = tdn_skeleton_parent(skeleton, j)) {
        if (j < 0 || count == capacity - 1)
            return -1; /* not below root, or too long */
        joints[count++] = j;
    }
    joints[count++] = root;
    for (int a = 0, b = count - 1; a < b; a++, b--) {
        int t = joints[a];
        joints[a] = joints[b];
        joints[b] = t;
    }
    return count;
}

/* ---- what the iterative solvers share (ik_internal.h) ---- */

#include "ik_internal.h"
#include "model_frame.h"
#include "pose_rotation.h"

tdn_result tdn__ik_check_pose(const tdn_skeleton *skeleton, const tdn_pose *pose, const tdn_mat4 *model, tdn_error *err)
{
    if (!skeleton || !pose || !pose->data || !model)
        return tdn__null(err, !skeleton ? "skeleton" : !model ? "model" : "pose");
    const int n = tdn_skeleton_joint_count(skeleton);
    if (pose->joint_count != n)
        return tdn__pose_size(err, "pose", pose->joint_count, n, "the skeleton");
    if (pose->stride < n || pose->stride % TDN_POSE_LANES != 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "pose",
                         "not a pose made by tdn_pose_create or tdn_pose_init (stride %d)", pose->stride);
    return TDN_OK;
}

tdn_result tdn__ik_check_chain(const tdn_skeleton *skeleton, const tdn_pose *pose, const tdn_mat4 *model,
                               const int *joints, int count, tdn_error *err)
{
    tdn_result r = tdn__ik_check_pose(skeleton, pose, model, err);
    if (r != TDN_OK)
        return r;
    if (!joints)
        return tdn__null(err, "ik.joints");
    if (count < 2 || count > TDN_MAX_IK_CHAIN)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "ik.joint_count", "%d joints, not within 2..%d", count,
                         TDN_MAX_IK_CHAIN);
    const int n = tdn_skeleton_joint_count(skeleton);
    char where[32];
    for (int i = 0; i < count; i++) {
        snprintf(where, sizeof where, "ik.joints[%d]", i);
        if (joints[i] < 0 || joints[i] >= n)
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "joint %d is not within 0..%d", joints[i], n - 1);
        /* the subtree of joints[i-1] is the index range (joints[i-1], its subtree end) */
        if (i > 0 && (joints[i] <= joints[i - 1] || joints[i] >= tdn_skeleton_subtree_end(skeleton, joints[i - 1])))
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "joint %d ('%s') is not below joint %d ('%s')", joints[i],
                             tdn_skeleton_joint_name(skeleton, joints[i]), joints[i - 1],
                             tdn_skeleton_joint_name(skeleton, joints[i - 1]));
    }
    return TDN_OK;
}

tdn_result tdn__ik_check_limits(const tdn_ik_limit *limits, int count, tdn_error *err)
{
    if (!limits)
        return TDN_OK;
    for (int i = 0; i < count; i++)
        if (!(tdn__finite(limits[i].cone) && limits[i].cone >= 0.0f && tdn__finite(limits[i].twist) &&
              limits[i].twist >= 0.0f)) {
            char where[32];
            snprintf(where, sizeof where, "ik.limits[%d]", i);
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "cone %g and twist %g must be finite and >= 0",
                             (double)limits[i].cone, (double)limits[i].twist);
        }
    return TDN_OK;
}

/* The root matrix model space was computed with, for a chain rooted at a root of the skeleton:
 * model[joint] * local(joint)^-1. */
static tdn_mat4 root_matrix_of(const tdn_pose *pose, const tdn_mat4 *model, int joint)
{
    tdn_transform local = tdn_pose_get(pose, joint);
    tdn_mat4 matrix = tdn_transform_to_mat4(&local), inverse;
    tdn_mat4_invert(&matrix, &inverse);
    return tdn_mat4_mul(&model[joint], &inverse);
}

void tdn__ik_chain_anchor(tdn__ik_chain *chain, const tdn_skeleton *skeleton, const tdn_pose *pose,
                          const tdn_mat4 *model, const int *joints, int count)
{
    const int16_t *parents = tdn_skeleton_parents(skeleton);
    chain->count = count;
    chain->joints = joints;
    chain->root = tdn__model_position(&model[joints[0]]);
    const int parent = parents[joints[0]];
    chain->is_root = parent < 0;
    if (!chain->is_root) {
        chain->frame = tdn__model_rotation(&model[parent]);
    } else {
        chain->root_matrix = root_matrix_of(pose, model, joints[0]);
        chain->frame = tdn__model_rotation(&chain->root_matrix);
    }
}

/* Joint i's rotation (local, original) and how it hangs from joint i - 1 (direct, carry);
 * *w is the model rotation of joints[i - 1], renormalized when a carry is read. */
static inline void read_joint(tdn__ik_chain *chain, int i, const int16_t *parents, const tdn_pose *pose,
                              const tdn_mat4 *model, tdn_quat *w)
{
    const int j = chain->joints[i];
    chain->local[i] = chain->original[i] = tdn__pose_rotation(pose, j);
    chain->direct[i] = 1;
    chain->carry[i] = tdn_quat_identity();
    if (i == 0)
        return;
    const int previous = chain->joints[i - 1];
    /* the previous joint's rotation is its parent frame's when it is the parent and its scale
     * is uniform (a mirror by -1 on all axes included) */
    const float sx = tdn_pose_crow(pose, TDN_SX)[previous], sy = tdn_pose_crow(pose, TDN_SY)[previous];
    const float sz = tdn_pose_crow(pose, TDN_SZ)[previous];
    if (parents[j] != previous || !(sx == sy && sy == sz)) {
        chain->direct[i] = 0;
        /* renormalized, with w: through a carry the rotation's norm would be squared */
        *w = tdn_quat_normalize(*w);
        chain->carry[i] = tdn_quat_normalize(
            tdn_quat_mul(tdn_quat_conjugate(*w), tdn__model_rotation(&model[parents[j]])));
    }
}

void tdn__ik_chain_read(tdn__ik_chain *chain, const tdn_skeleton *skeleton, const tdn_pose *pose, const tdn_mat4 *model,
                        const int *joints, int count)
{
    const int16_t *parents = tdn_skeleton_parents(skeleton);
    tdn__ik_chain_anchor(chain, skeleton, pose, model, joints, count);
    tdn_quat w = tdn_quat_identity();
    tdn_vec3 p = chain->root;
    for (int i = 0; i < count; i++) {
        read_joint(chain, i, parents, pose, model, &w);
        if (i == count - 1)
            break;
        w = tdn_quat_mul(tdn__ik_parent_rotation(chain, i, w), chain->local[i]);
        tdn_vec3 next = tdn__model_position(&model[joints[i + 1]]), d = tdn_vec3_sub(next, p);
        chain->bone[i] = tdn_quat_rotate(tdn_quat_conjugate(w), d);
        chain->length[i] = tdn_vec3_length(d);
        p = next;
    }
}

void tdn__ik_chain_positions(const tdn__ik_chain *chain, float *x, float *y, float *z, tdn_quat *rotations)
{
    tdn_vec3 p = chain->root;
    tdn_quat w = tdn_quat_identity();
    x[0] = p.x, y[0] = p.y, z[0] = p.z;
    for (int i = 0; i + 1 < chain->count; i++) {
        w = tdn_quat_mul(tdn__ik_parent_rotation(chain, i, w), chain->local[i]);
        if (rotations)
            rotations[i] = w;
        p = tdn_vec3_add(p, tdn_quat_rotate(w, chain->bone[i]));
        x[i + 1] = p.x, y[i + 1] = p.y, z[i + 1] = p.z;
    }
}

tdn_quat tdn__ik_swing(tdn_vec3 from, tdn_vec3 to)
{
    const float ff = tdn_vec3_dot(from, from), tt = tdn_vec3_dot(to, to);
    if (!(ff > 1e-30f && tt > 1e-30f))
        return tdn_quat_identity();
    /* (from x to, |from||to| + from.to) is the rotation scaled by 2 |from||to| cos(angle/2) */
    const float s = sqrtf(ff * tt);
    const tdn_vec3 c = tdn_vec3_cross(from, to);
    tdn_quat q = tdn_quat_make(c.x, c.y, c.z, s + tdn_vec3_dot(from, to));
    const float n2 = tdn_quat_dot(q, q);
    if (!(n2 > 1e-12f * s * s)) { /* opposite: half a turn about any perpendicular */
        tdn_vec3 f = tdn_vec3_scale(from, 1.0f / sqrtf(ff));
        tdn_vec3 other = fabsf(f.x) < 0.6f ? tdn_vec3_make(1, 0, 0) : tdn_vec3_make(0, 1, 0);
        tdn_vec3 axis = tdn_vec3_normalize(tdn_vec3_cross(f, other));
        return tdn_quat_make(axis.x, axis.y, axis.z, 0.0f);
    }
    const float inv = 1.0f / sqrtf(n2);
    return tdn_quat_make(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
}

/* D = S * T with T about `axis`: T (w >= 0, identity when D turns the axis half way round) and
 * S = D * conj(T), also with w >= 0. */
static void split_swing_twist(tdn_quat d, tdn_vec3 axis, tdn_quat *swing, tdn_quat *twist)
{
    float along = d.x * axis.x + d.y * axis.y + d.z * axis.z;
    tdn_quat t = tdn_quat_make(axis.x * along, axis.y * along, axis.z * along, d.w);
    float n2 = tdn_quat_dot(t, t);
    if (n2 > 1e-12f) {
        float inv = (t.w < 0.0f ? -1.0f : 1.0f) / sqrtf(n2);
        t = tdn_quat_make(t.x * inv, t.y * inv, t.z * inv, t.w * inv);
    } else {
        t = tdn_quat_identity();
    }
    tdn_quat s = tdn_quat_mul(d, tdn_quat_conjugate(t));
    *swing = s.w < 0.0f ? tdn_quat_negate(s) : s;
    *twist = t;
}

void tdn__ik_limit_prepare(tdn__ik_joint_limit *out, tdn_quat rest, tdn_vec3 bone, tdn_ik_limit limit)
{
    out->rest = rest;
    float len = tdn_vec3_length(bone);
    out->axis = len > 0.0f ? tdn_vec3_scale(bone, 1.0f / len) : tdn_vec3_make(1, 0, 0);
    out->has_cone = limit.cone > 0.0f && limit.cone < TDN_PI && len > 0.0f;
    out->has_twist = limit.twist > 0.0f && limit.twist < TDN_PI && len > 0.0f;
    out->cone_cos = cosf(0.5f * limit.cone), out->cone_sin = sinf(0.5f * limit.cone);
    out->twist_cos = cosf(0.5f * limit.twist), out->twist_sin = sinf(0.5f * limit.twist);
}

int tdn__ik_limit_rotation(tdn_quat *local, const tdn__ik_joint_limit *limit)
{
    if (!limit->has_cone && !limit->has_twist)
        return 0;
    const tdn_vec3 a = limit->axis;
    tdn_quat swing, twist;
    split_swing_twist(tdn_quat_mul(tdn_quat_conjugate(limit->rest), *local), a, &swing, &twist);
    int changed = 0;
    if (limit->has_twist && twist.w < limit->twist_cos) { /* |twist| > limit: w = cos(angle / 2) */
        float side = twist.x * a.x + twist.y * a.y + twist.z * a.z < 0.0f ? -limit->twist_sin : limit->twist_sin;
        twist = tdn_quat_make(a.x * side, a.y * side, a.z * side, limit->twist_cos);
        changed = 1;
    }
    if (limit->has_cone && swing.w < limit->cone_cos) {
        tdn_vec3 v = tdn_vec3_make(swing.x, swing.y, swing.z);
        float len = tdn_vec3_length(v);
        v = len > 0.0f ? tdn_vec3_scale(v, limit->cone_sin / len) : tdn_vec3_make(0, 0, 0);
        swing = tdn_quat_make(v.x, v.y, v.z, len > 0.0f ? limit->cone_cos : 1.0f);
        changed = 1;
    }
    if (changed)
        *local = tdn_quat_normalize(tdn_quat_mul(limit->rest, tdn_quat_mul(swing, twist)));
    return changed;
}

const tdn__ik_joint_limit *tdn__ik_chain_limits(const tdn_skeleton *skeleton, const tdn__ik_chain *chain,
                                                const tdn_ik_limit *limits, tdn__ik_joint_limit *out)
{
    if (!limits)
        return NULL;
    for (int i = 0; i + 1 < chain->count; i++)
        tdn__ik_limit_prepare(&out[i], tdn_skeleton_rest(skeleton, chain->joints[i]).r, chain->bone[i], limits[i]);
    return out;
}

void tdn__ik_chain_aim(tdn__ik_chain *chain, const float *gx, const float *gy, const float *gz,
                       const tdn__ik_joint_limit *limits, float *x, float *y, float *z)
{
    tdn_vec3 p = chain->root;
    tdn_quat w = tdn_quat_identity();
    x[0] = p.x, y[0] = p.y, z[0] = p.z;
    for (int i = 0; i + 1 < chain->count; i++) {
        const tdn_quat parent = tdn__ik_parent_rotation(chain, i, w);
        const tdn_quat now = tdn_quat_mul(parent, chain->local[i]);
        const tdn_vec3 want = tdn_vec3_make(gx[i + 1] - p.x, gy[i + 1] - p.y, gz[i + 1] - p.z);
        w = tdn_quat_mul(tdn__ik_swing(tdn_quat_rotate(now, chain->bone[i]), want), now);
        /* renormalized: the next joint's parent rotation is made from it */
        chain->local[i] = tdn_quat_normalize(tdn_quat_mul(tdn_quat_conjugate(parent), w));
        if (limits && tdn__ik_limit_rotation(&chain->local[i], &limits[i]))
            w = tdn_quat_mul(parent, chain->local[i]);
        p = tdn_vec3_add(p, tdn_quat_rotate(w, chain->bone[i]));
        x[i + 1] = p.x, y[i + 1] = p.y, z[i + 1] = p.z;
    }
}

static inline tdn_quat quat_scale(tdn_quat q, float s) { return tdn_quat_make(q.x * s, q.y * s, q.z * s, q.w * s); }

void tdn__ik_chain_follow(tdn__ik_chain *chain, const tdn_skeleton *skeleton, const tdn_pose *pose,
                          const tdn_mat4 *model, const float *gx, const float *gy, const float *gz)
{
    const int16_t *parents = tdn_skeleton_parents(skeleton);
    const int *joints = chain->joints, count = chain->count;
    /* was: the model rotation of the joint above before the solve (forward kinematics of the
     * pose, beside the chain of dependent steps); w: the same after the joints above turned */
    tdn_quat was = tdn_quat_identity(), w = tdn_quat_identity();
    tdn_vec3 p = chain->root;
    for (int i = 0; i + 1 < count; i++) {
        read_joint(chain, i, parents, pose, model, &was);
        /* the bone as its joint's parent frame sees it, and its squared length */
        const tdn_quat was_parent = tdn__ik_parent_rotation(chain, i, was);
        was = tdn_quat_mul(was_parent, chain->local[i]);
        const tdn_vec3 next = tdn__model_position(&model[joints[i + 1]]), bone = tdn_vec3_sub(next, p);
        const tdn_vec3 seen = tdn_quat_rotate(tdn_quat_conjugate(was_parent), bone);
        const float l2 = tdn_vec3_dot(bone, bone);
        p = next;

        /* The swing is taken in the parent's frame (after the joints above turned), where
         * the bone is seen and the goal direction is turned into: fewer products per joint
         * than in model space. The parent's rotation drifts from unit by rounding, and the
         * swing takes |want| to be the bone's length: a drift would turn the bone by the
         * wrong angle and grow down the chain (1e-3 rad at the end of 16 bones). One Newton
         * step from 1, folded into the swing's scale (beside the chain of dependent steps,
         * not on it), brings this joint's rotation back to unit to the square of the drift. */
        const tdn_quat parent = tdn__ik_parent_rotation(chain, i, w);
        const float unit = 1.5f - 0.5f * tdn_quat_dot(parent, parent);
        const tdn_vec3 want = tdn_quat_rotate(tdn_quat_conjugate(parent),
                                              tdn_vec3_make(gx[i + 1] - gx[i], gy[i + 1] - gy[i], gz[i + 1] - gz[i]));
        /* |seen| = |want| = the bone's length l: (seen x want, l^2 + seen.want) is the
         * shortest rotation scaled by sqrt(2 l^2 (l^2 + seen.want)) */
        const float k = l2 + tdn_vec3_dot(seen, want);
        tdn_quat swing;
        if (k > 1e-4f * l2) {
            const tdn_vec3 c = tdn_vec3_cross(seen, want);
            const float inv = tdn__scaled_rsqrt(unit, 2.0f * l2 * k);
            swing = tdn_quat_make(c.x * inv, c.y * inv, c.z * inv, k * inv);
        } else { /* nearly opposite, or no bone */
            swing = quat_scale(tdn__ik_swing(seen, want), unit);
        }
        chain->local[i] = tdn_quat_mul(swing, chain->local[i]);
        w = tdn_quat_mul(parent, chain->local[i]);
    }
}

void tdn__ik_chain_write(const tdn__ik_chain *chain, const tdn_skeleton *skeleton, tdn_pose *pose, tdn_mat4 *model,
                         float weight)
{
    const int j0 = chain->joints[0];
    for (int i = 0; i + 1 < chain->count; i++)
        tdn__pose_set_rotation(pose, chain->joints[i],
                               weight < 1.0f ? tdn_quat_slerp(chain->original[i], chain->local[i], weight)
                                             : tdn_quat_normalize(chain->local[i]));
    tdn_model_space_range(skeleton, pose, chain->is_root ? &chain->root_matrix : NULL, j0,
                          tdn_skeleton_subtree_end(skeleton, j0), model, NULL);
}

float tdn__ik_end_error(const tdn_mat4 *model, const int *joints, int count, tdn_vec3 target)
{
    return tdn_vec3_length(tdn_vec3_sub(tdn__model_position(&model[joints[count - 1]]), target));
}
