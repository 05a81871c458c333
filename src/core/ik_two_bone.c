/* tendon core: analytic two-bone IK.
 *
 * The solve works on model-space positions and turns its answer into two rotation deltas:
 *   1. the middle joint hinges about its current bend axis (the normal of the plane of the
 *      two bones) until the law of cosines gives the distance to the target: the knee stays
 *      a hinge about the axis it already bends about;
 *   2. the upper joint swings by the shortest rotation that points the chain at the target
 *      (so it adds no twist of its own);
 *   3. the upper joint turns about the upper-to-target line until the hinge axis lies where
 *      the hint wants it (the knee on the pole's side): the only twist added, and only as much
 *      as the hint asks.
 * A model-space delta Q becomes a local one as conj(P) Q P, P being the parent's model
 * rotation (exact when the parent's scale is uniform). Model space is then recomputed for the
 * subtree of the upper joint.
 * The solve is a chain of dependent normalizations: each scales by tdn__scaled_rsqrt (an
 * estimate and a Newton step, about 1e-7 relative) rather than dividing by a square root. */
#include "internal.h"
#include "ik_internal.h"
#include "model_frame.h"
#include "pose_rotation.h"
#include "tendon/ik_two_bone.h"
#include "tendon/model_space.h"

/* A unit vector perpendicular to unit v (any: used only when nothing better is known). */
static tdn_vec3 any_perpendicular(tdn_vec3 v)
{
    tdn_vec3 other = fabsf(v.x) < 0.6f ? tdn_vec3_make(1, 0, 0) : tdn_vec3_make(0, 1, 0);
    return tdn_vec3_normalize(tdn_vec3_cross(v, other));
}

/* The hinge axis the hint asks for when the chain points along unit `line` from the upper
 * joint at `a`: perpendicular to the line, such that the middle joint bends positively about
 * it (the knee then lies on the side cross(line, axis)). 0 when the hint says nothing (the
 * pole on the line, or an axis along it). */
static int hinted_axis(const tdn_ik_two_bone_job *ik, tdn_vec3 a, tdn_vec3 line, float length_scale, tdn_vec3 *axis)
{
    /* lengths compared squared: no square root before the one normalization */
    if (ik->use_pole) {
        tdn_vec3 to_pole = tdn_vec3_sub(ik->pole, a);
        tdn_vec3 side = tdn_vec3_sub(to_pole, tdn_vec3_scale(line, tdn_vec3_dot(to_pole, line)));
        float pole_distance2 = tdn_vec3_dot(to_pole, to_pole), scale2 = length_scale * length_scale;
        if (!(tdn_vec3_dot(side, side) > 1e-10f * (pole_distance2 > scale2 ? pole_distance2 : scale2)))
            return 0;
        /* side is perpendicular to the unit line: the cross product is as long as side */
        tdn_vec3 normal = tdn_vec3_cross(side, line);
        *axis = tdn_vec3_scale(normal, tdn__scaled_rsqrt(1.0f, tdn_vec3_dot(normal, normal)));
        return 1;
    }
    if (!(tdn_vec3_dot(ik->pole, ik->pole) > 0.0f)) /* no hint: skip the projection (the test below agrees) */
        return 0;
    tdn_vec3 perp = tdn_vec3_sub(ik->pole, tdn_vec3_scale(line, tdn_vec3_dot(ik->pole, line)));
    float len2 = tdn_vec3_dot(perp, perp);
    if (!(len2 > 1e-10f * tdn_vec3_dot(ik->pole, ik->pole)))
        return 0;
    *axis = tdn_vec3_scale(perp, tdn__scaled_rsqrt(1.0f, len2));
    return 1;
}

/* The distance from the upper joint the end will aim for: the target's, pulled in smoothly
 * past `soften` of full extension (an exponential approach to full length whose slope is 1
 * where it starts, so there is no kink and no knee snap). */
static float softened(float d, float full, float soften)
{
    if (soften > 0.0f && soften < 1.0f) {
        float start = soften * full, span = full - start;
        if (d > start)
            d = start + span * (1.0f - expf(-(d - start) / span));
    }
    return d;
}

/* The half of the angle at the middle joint between bones of lengths l1 and l2 whose ends are
 * d apart (beyond |l1 - l2| .. l1 + l2: the nearest of folded or straight), as its cosine and
 * sine times a common positive factor (2 sqrt(l1 l2) within reach; beyond it one of the two is
 * 0, and the caller normalizes the turn they make), by the law of cosines in its half-angle
 * form: cos^2(a/2) = (l1 + l2 - d)(l1 + l2 + d) / (4 l1 l2) and sin^2(a/2) = (d - |l1 - l2|)
 * (d + |l1 - l2|) / (4 l1 l2). Unlike acos of the cosine it stays accurate near straight and
 * folded, so an out-of-reach target gives an exactly straight chain. */
static void knee_half_angle(float l1, float l2, float d, float *cos_half, float *sin_half)
{
    float full = l1 + l2, gap = fabsf(l1 - l2);
    float c2 = (full - d) * (full + d), s2 = (d - gap) * (d + gap);
    *cos_half = sqrtf(c2 > 0.0f ? c2 : 0.0f);
    *sin_half = sqrtf(s2 > 0.0f ? s2 : 0.0f);
}

/* q (of squared length n2 > 0) scaled to unit length. */
static tdn_quat unit_quat(tdn_quat q, float n2)
{
    float s = tdn__scaled_rsqrt(1.0f, n2);
    return tdn_quat_make(q.x * s, q.y * s, q.z * s, q.w * s);
}

/* The rotation about unit `axis` that takes `from` to `to` (both perpendicular to it, any
 * length): (axis sin t, 1 + cos t) is (axis sin(t/2), cos(t/2)) scaled by 2 cos(t/2), so no
 * angle is ever formed; half a turn when they are opposite. */
static tdn_quat turn_about(tdn_vec3 axis, tdn_vec3 from, tdn_vec3 to)
{
    float scale = sqrtf(tdn_vec3_dot(from, from) * tdn_vec3_dot(to, to));
    float sin_t = tdn_vec3_dot(tdn_vec3_cross(from, to), axis), cos_t = tdn_vec3_dot(from, to);
    tdn_quat q = tdn_quat_make(axis.x * sin_t, axis.y * sin_t, axis.z * sin_t, scale + cos_t);
    float n2 = tdn_quat_dot(q, q);
    if (!(n2 > 1e-12f * scale * scale))
        return tdn_quat_make(axis.x, axis.y, axis.z, 0.0f);
    return unit_quat(q, n2);
}

void tdn__ik_two_bone_solve(const tdn_ik_two_bone_job *ik, tdn_vec3 a, tdn_vec3 b, tdn_vec3 c, float l1, float l2,
                            tdn_quat *hinge, tdn_quat *swing)
{
    const float full = l1 + l2;
    const float tiny = 1e-6f * full;
    const tdn_vec3 e1 = tdn_vec3_sub(b, a), e2 = tdn_vec3_sub(c, b);
    /* Where the end should go: along the line to the target (or, with the target on the upper
     * joint, where the chain points now). */
    tdn_vec3 to_target = tdn_vec3_sub(ik->target, a);
    float dd = tdn_vec3_dot(to_target, to_target), d = sqrtf(dd);
    tdn_vec3 dir = d > tiny ? tdn_vec3_scale(to_target, tdn__scaled_rsqrt(1.0f, dd)) : tdn_vec3_sub(c, a);
    if (!(d > tiny))
        dir = tdn_vec3_length(dir) > tiny ? tdn_vec3_normalize(dir) : tdn_vec3_normalize(l1 > tiny ? e1 : e2);

    /* 1. hinge the middle joint (only two real bones have an angle to set) by the half angle
     * it has now less the half angle it needs. With u, v the unit bones from the middle joint,
     * |u + v| / 2 and |u - v| / 2 are the cosine and sine of the half angle between them:
     * here |l1 e2 - l2 e1| and |l2 e1 + l1 e2|, both scaled by 2 l1 l2. */
    *hinge = tdn_quat_identity();
    tdn_vec3 axis = tdn_vec3_make(0, 0, 0);
    int has_axis = l1 > tiny && l2 > tiny;
    if (has_axis) {
        tdn_vec3 normal = tdn_vec3_cross(e1, e2);
        float normal2 = tdn_vec3_dot(normal, normal), least = 1e-4f * l1 * l2;
        if (normal2 > least * least) {
            axis = tdn_vec3_scale(normal, tdn__scaled_rsqrt(1.0f, normal2));
        } else {
            /* straight or folded: no plane yet; bend the way the hint wants, or any way */
            tdn_vec3 line = tdn_vec3_scale(e1, 1.0f / l1);
            if (!hinted_axis(ik, a, line, full, &axis))
                axis = any_perpendicular(line);
        }
        float cos_now = tdn_vec3_length(tdn_vec3_sub(tdn_vec3_scale(e2, l1), tdn_vec3_scale(e1, l2)));
        float sin_now = tdn_vec3_length(tdn_vec3_add(tdn_vec3_scale(e1, l2), tdn_vec3_scale(e2, l1)));
        float cos_wanted, sin_wanted;
        knee_half_angle(l1, l2, softened(d, full, tdn__clamp01(ik->soften)), &cos_wanted, &sin_wanted);
        float cos_turn = cos_now * cos_wanted + sin_now * sin_wanted;
        float sin_turn = sin_now * cos_wanted - cos_now * sin_wanted;
        tdn_quat turn = tdn_quat_make(axis.x * sin_turn, axis.y * sin_turn, axis.z * sin_turn, cos_turn);
        float turn2 = tdn_quat_dot(turn, turn);
        *hinge = turn2 > 0.0f ? unit_quat(turn, turn2) : tdn_quat_identity();
    }

    /* 2. swing the upper joint to point the chain at the target */
    const tdn_vec3 to_bent = tdn_vec3_add(e1, tdn_quat_rotate(*hinge, e2));
    *swing = tdn_vec3_dot(to_bent, to_bent) > tiny * tiny ? tdn__ik_swing(to_bent, dir) : tdn_quat_identity();

    /* 3. turn about the line to the target until the hinge axis is where the hint wants it */
    tdn_vec3 wanted;
    if (has_axis && hinted_axis(ik, a, dir, full, &wanted))
        *swing = tdn_quat_mul(turn_about(dir, tdn_quat_rotate(*swing, axis), wanted), *swing);
}

/* Turns joint j's local rotation by the model-space rotation `delta`, expressed in the frame
 * of its parent's model matrix. Only the rotation rows are touched. */
static void turn_joint(tdn_pose *pose, int j, const tdn_mat4 *parent, tdn_quat delta)
{
    tdn_vec3 v = tdn__model_into_frame(parent, tdn_vec3_make(delta.x, delta.y, delta.z));
    tdn_quat r = tdn_quat_mul(tdn_quat_make(v.x, v.y, v.z, delta.w), tdn__pose_rotation(pose, j));
    float s = tdn__scaled_rsqrt(1.0f, tdn_quat_dot(r, r));
    tdn__pose_set_rotation(pose, j, tdn_quat_make(r.x * s, r.y * s, r.z * s, r.w * s));
}

tdn_result tdn_ik_two_bone(const tdn_skeleton *skeleton, const tdn_ik_two_bone_job *ik, tdn_pose *pose, tdn_mat4 *model,
                           int *reached, tdn_error *err)
{
    if (!ik)
        return tdn__null(err, "ik");
    tdn_result r = tdn__ik_check_pose(skeleton, pose, model, err);
    if (r != TDN_OK)
        return r;
    int n = tdn_skeleton_joint_count(skeleton);
    if (ik->upper < 0 || ik->upper >= n || ik->middle < 0 || ik->middle >= n || ik->end < 0 || ik->end >= n)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "ik", "joints %d, %d, %d are not all within 0..%d", ik->upper,
                         ik->middle, ik->end, n - 1);
    /* the joints below j are the index range (j, its subtree end) */
    const int upper_end = tdn_skeleton_subtree_end(skeleton, ik->upper);
    if (ik->middle <= ik->upper || ik->middle >= upper_end)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "ik.middle", "joint %d is not below ik.upper (%d)", ik->middle,
                         ik->upper);
    if (ik->end <= ik->middle || ik->end >= tdn_skeleton_subtree_end(skeleton, ik->middle))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "ik.end", "joint %d is not below ik.middle (%d)", ik->end, ik->middle);
    if (tdn__bad_vec3(ik->target) || tdn__bad_vec3(ik->pole))
        return tdn__fail(err, TDN_ERR_ARGUMENT, tdn__bad_vec3(ik->target) ? "ik.target" : "ik.pole", "not finite");
    if (isnan(ik->weight) || isnan(ik->soften))
        return tdn__fail(err, TDN_ERR_ARGUMENT, isnan(ik->weight) ? "ik.weight" : "ik.soften", "NaN");

    const tdn_vec3 a = tdn__model_position(&model[ik->upper]), b = tdn__model_position(&model[ik->middle]);
    const tdn_vec3 c = tdn__model_position(&model[ik->end]);
    const float l1 = tdn_vec3_length(tdn_vec3_sub(b, a)), l2 = tdn_vec3_length(tdn_vec3_sub(c, b)), full = l1 + l2;
    const float weight = tdn__clamp01(ik->weight);
    if (weight > 0.0f && full > 0.0f) {
        tdn_quat hinge, swing;
        tdn__ik_two_bone_solve(ik, a, b, c, l1, l2, &hinge, &swing);
        if (weight < 1.0f) { /* conj(P) Q P commutes with slerping Q from the identity */
            hinge = tdn_quat_slerp(tdn_quat_identity(), hinge, weight);
            swing = tdn_quat_slerp(tdn_quat_identity(), swing, weight);
        }
        /* Model-space rotations to local ones, through the parents' model rotations as they
         * were. A root upper joint's parent is the root matrix model space was computed with,
         * recovered as model[upper] * local(upper)^-1. */
        const int16_t *parents = tdn_skeleton_parents(skeleton);
        const int upper_parent = parents[ik->upper];
        tdn_mat4 root;
        if (upper_parent < 0) {
            tdn_transform upper_local = tdn_pose_get(pose, ik->upper);
            tdn_mat4 local = tdn_transform_to_mat4(&upper_local), inverse;
            tdn_mat4_invert(&local, &inverse);
            root = tdn_mat4_mul(&model[ik->upper], &inverse);
        }
        turn_joint(pose, ik->upper, upper_parent < 0 ? &root : &model[upper_parent], swing);
        turn_joint(pose, ik->middle, &model[parents[ik->middle]], hinge);
        tdn_model_space_range(skeleton, pose, upper_parent < 0 ? &root : NULL, ik->upper, upper_end, model, NULL);
    }
    if (reached)
        *reached = tdn_vec3_length(tdn_vec3_sub(tdn__model_position(&model[ik->end]), ik->target)) <= 1e-3f * full;
    return TDN_OK;
}
