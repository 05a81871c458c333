/* tendon core: look-at (aim) IK.
 *
 * One pass from the root joint to the end joint. Each joint's turn is a model-space rotation
 * about its own origin; it carries everything below, so the end joint's position, its axis and
 * the later joints' origins and parent rotations follow from the turns made so far as one rigid
 * motion x -> A x + t, and no model matrix is recomputed until the end (once, for the subtree
 * of the root). A model-space turn R of joint i becomes the local one conj(P') R P' with
 * P' = A P, P its parent's model rotation before the solve: the vector part of conj(A) R A
 * taken into P's frame.
 *
 * The correction each joint sees is the shortest turn from the end axis to the line from the
 * end joint (where it is by then) to the goal, so the last joint, if free, ends the aim exactly
 * whatever the parallax of the joints above it. */
#include <stdio.h>

#include "ik_internal.h"
#include "internal.h"
#include "model_frame.h"
#include "tendon/ik_look_at.h"
#include "tendon/model_space.h"

static float angle_between(tdn_vec3 a, tdn_vec3 b)
{
    return atan2f(tdn_vec3_length(tdn_vec3_cross(a, b)), tdn_vec3_dot(a, b));
}

static tdn_quat turn_about(tdn_vec3 unit_axis, float angle)
{
    float s = sinf(0.5f * angle);
    return tdn_quat_make(unit_axis.x * s, unit_axis.y * s, unit_axis.z * s, cosf(0.5f * angle));
}

/* The same rotation, its angle cut to at most `most` (> 0). */
static tdn_quat cut_to(tdn_quat q, float most)
{
    if (q.w < 0.0f)
        q = tdn_quat_negate(q);
    float s = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    if (2.0f * atan2f(s, q.w) <= most || !(s > 0.0f))
        return q;
    float k = sinf(0.5f * most) / s;
    return tdn_quat_make(q.x * k, q.y * k, q.z * k, cosf(0.5f * most));
}

static float smoothstep(float lo, float hi, float x)
{
    float u = tdn__clamp01((x - lo) / (hi - lo));
    return u * u * (3.0f - 2.0f * u);
}

static tdn_result check_args(const tdn_skeleton *skeleton, const tdn_ik_look_at_job *ik, const tdn_pose *pose,
                             const tdn_mat4 *model, tdn_error *err)
{
    if (!ik || !ik->joints)
        return tdn__null(err, !ik ? "ik" : "ik.joints");
    tdn_result r = tdn__ik_check_pose(skeleton, pose, model, err);
    if (r != TDN_OK)
        return r;
    int n = tdn_skeleton_joint_count(skeleton);
    if (ik->joint_count < 1 || ik->joint_count > TDN_MAX_IK_CHAIN)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "ik.joint_count", "%d joints, not within 1..%d", ik->joint_count,
                         TDN_MAX_IK_CHAIN);
    if (ik->joints[0] < 0 || ik->joints[0] >= n)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "ik.joints[0]", "joint %d is not within 0..%d", ik->joints[0], n - 1);
    char where[32];
    for (int i = 1; i < ik->joint_count; i++)
        if (ik->joints[i] == ik->joints[i - 1] ||
            !tdn_skeleton_is_in_subtree(skeleton, ik->joints[i], ik->joints[i - 1])) {
            snprintf(where, sizeof where, "ik.joints[%d]", i);
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "joint %d is not below ik.joints[%d]", ik->joints[i], i - 1);
        }
    if (tdn__bad_vec3(ik->axis) || !(tdn_vec3_dot(ik->axis, ik->axis) > 0.0f))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "ik.axis", "the axis is zero or not finite");
    if (tdn__bad_vec3(ik->target) || tdn__bad_vec3(ik->up_hint) || isnan(ik->weight))
        return tdn__fail(err, TDN_ERR_ARGUMENT,
                         tdn__bad_vec3(ik->target)    ? "ik.target"
                         : tdn__bad_vec3(ik->up_hint) ? "ik.up_hint"
                                                      : "ik.weight",
                         "not finite");
    for (int i = 0; i < ik->joint_count; i++) {
        if (ik->joint_weights && i < ik->joint_count - 1 &&
            !(ik->joint_weights[i] >= 0.0f && ik->joint_weights[i] <= 1.0f)) {
            snprintf(where, sizeof where, "ik.joint_weights[%d]", i);
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "%g is not within 0..1", (double)ik->joint_weights[i]);
        }
        if (ik->max_angles && (!(ik->max_angles[i] >= 0.0f) || !tdn__finite(ik->max_angles[i]))) {
            snprintf(where, sizeof where, "ik.max_angles[%d]", i);
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "%g is not a finite angle >= 0", (double)ik->max_angles[i]);
        }
    }
    return TDN_OK;
}

tdn_result tdn_ik_look_at(const tdn_skeleton *skeleton, const tdn_ik_look_at_job *ik, tdn_pose *pose, tdn_mat4 *model,
                          float *angle_error, tdn_error *err)
{
    tdn_result checked = check_args(skeleton, ik, pose, model, err);
    if (checked != TDN_OK)
        return checked;
    const int count = ik->joint_count, root = ik->joints[0], end = ik->joints[count - 1];
    const int16_t *parents = tdn_skeleton_parents(skeleton);
    const tdn_vec3 axis = tdn_vec3_normalize(ik->axis);
    const float weight = tdn__clamp01(ik->weight);
    const float quarter = 0.25f * TDN_PI, three_quarters = 0.75f * TDN_PI;

    const tdn_vec3 end0 = tdn__model_position(&model[end]);
    const tdn_vec3 aim0 = tdn_vec3_normalize(tdn_mat4_transform_vector(&model[end], axis));
    const tdn_vec3 to_target = tdn_vec3_sub(ik->target, end0);
    const float distance = tdn_vec3_length(to_target);
    if (weight > 0.0f && tdn_vec3_dot(aim0, aim0) > 0.0f && distance > 0.0f) {
        /* The goal: the target, or for a limited chain a point turned back towards the input
         * aim (by at most the chain's reach, and by less and less behind the character). */
        tdn_vec3 goal = ik->target;
        const tdn_vec3 to0 = tdn_vec3_scale(to_target, 1.0f / distance);
        float left[TDN_MAX_IK_CHAIN + 1]; /* left[i]: what joints i.. can turn; INFINITY with a free one */
        left[count] = 0.0f;
        for (int i = count - 1; i >= 0; i--)
            left[i] = ik->max_angles && ik->max_angles[i] > 0.0f ? left[i + 1] + ik->max_angles[i] : INFINITY;
        if (isfinite(left[0])) {
            float theta = angle_between(aim0, to0), reach = left[0] < three_quarters ? left[0] : three_quarters;
            float asked = theta <= reach ? theta : theta <= three_quarters ? reach : reach * (TDN_PI - theta) / quarter;
            if (asked < theta) {
                tdn_vec3 across = tdn_vec3_sub(to0, tdn_vec3_scale(aim0, tdn_vec3_dot(aim0, to0)));
                float len = tdn_vec3_length(across);
                tdn_vec3 dir = len > 0.0f ? tdn_vec3_add(tdn_vec3_scale(aim0, cosf(asked)),
                                                         tdn_vec3_scale(across, sinf(asked) / len))
                                          : aim0; /* exactly behind: asked is 0 */
                goal = tdn_vec3_add(end0, tdn_vec3_scale(dir, distance));
            }
        }

        /* The root joint's parent frame: the root matrix model space was computed with. */
        tdn_mat4 root_matrix = tdn_mat4_identity();
        if (parents[root] < 0) {
            tdn_transform x = tdn_pose_get(pose, root);
            tdn_mat4 local = tdn_transform_to_mat4(&x), inverse;
            tdn_mat4_invert(&local, &inverse);
            root_matrix = tdn_mat4_mul(&model[root], &inverse);
        }
        tdn_vec3 up = tdn_vec3_normalize(ik->up_hint);
        tdn_quat turns[TDN_MAX_IK_CHAIN];
        tdn_quat moved = tdn_quat_identity(); /* the rigid motion so far: x -> moved x + shift */
        tdn_vec3 shift = tdn_vec3_make(0, 0, 0);
        int solved = 0;
        for (int i = 0; i < count; i++) {
            const int j = ik->joints[i];
            tdn_vec3 pivot = tdn_vec3_add(tdn_quat_rotate(moved, tdn__model_position(&model[j])), shift);
            tdn_vec3 at = tdn_vec3_add(tdn_quat_rotate(moved, end0), shift);
            tdn_vec3 aim = tdn_quat_rotate(moved, aim0);
            tdn_vec3 to = tdn_vec3_normalize(tdn_vec3_sub(goal, at));
            tdn_quat turn = tdn_quat_identity();
            float theta = angle_between(aim, to);
            if (theta > 0.0f) {
                float fraction = i == count - 1      ? 1.0f
                                 : ik->joint_weights ? ik->joint_weights[i]
                                                     : 1.0f / (float)(count - i);
                float take = fraction * theta;
                if (take < theta - left[i + 1])
                    take = theta - left[i + 1]; /* what the joints after this one cannot take */
                float most = ik->max_angles ? ik->max_angles[i] : 0.0f;
                if (most > 0.0f && take > most)
                    take = most;
                tdn_vec3 turn_axis;
                float full;
                tdn_quat_to_axis_angle(tdn_quat_from_to(aim, to), &turn_axis, &full);
                turn = turn_about(turn_axis, take < theta ? take : theta);
            }
            if (i == count - 1 && tdn_vec3_dot(up, up) > 0.0f) {
                /* keep the end joint's roll against `up`: its side (across the aim, level in
                 * the input) turned along with it, then about the final aim back to level */
                tdn_vec3 aim_final = tdn_quat_rotate(turn, aim);
                tdn_vec3 side0 = tdn_vec3_cross(aim0, up), level = tdn_vec3_cross(aim_final, up);
                float s0 = tdn_vec3_length(side0), s1 = tdn_vec3_length(level);
                float fade = smoothstep(0.1f, 0.3f, s0 < s1 ? s0 : s1);
                if (fade > 0.0f) {
                    tdn_vec3 side = tdn_quat_rotate(tdn_quat_mul(turn, moved), tdn_vec3_scale(side0, 1.0f / s0));
                    float roll = atan2f(tdn_vec3_dot(tdn_vec3_cross(side, level), aim_final),
                                        tdn_vec3_dot(side, level));
                    /* past the top (aiming up and over, behind) level would be upside down:
                     * rolls beyond 45 degrees fade out by 90, so the wrap at 180 is never met */
                    fade *= 1.0f - smoothstep(0.25f * TDN_PI, 0.5f * TDN_PI, fabsf(roll));
                    turn = tdn_quat_normalize(tdn_quat_mul(turn_about(aim_final, fade * roll), turn));
                }
                float most = ik->max_angles ? ik->max_angles[i] : 0.0f;
                if (most > 0.0f)
                    turn = cut_to(turn, most);
            }
            /* into the frame of the parent as it is now: conj(moved) turn moved, then P's frame */
            tdn_vec3 v = tdn_quat_rotate(tdn_quat_conjugate(moved), tdn_vec3_make(turn.x, turn.y, turn.z));
            v = tdn__model_into_frame(parents[j] < 0 ? &root_matrix : &model[parents[j]], v);
            turns[i] = tdn_quat_make(v.x, v.y, v.z, turn.w);
            solved = i + 1;
            moved = tdn_quat_normalize(tdn_quat_mul(turn, moved));
            shift = tdn_vec3_add(tdn_quat_rotate(turn, tdn_vec3_sub(shift, pivot)), pivot);
        }
        for (int i = 0; i < solved; i++) {
            tdn_quat local = weight < 1.0f ? tdn_quat_slerp(tdn_quat_identity(), turns[i], weight) : turns[i];
            const int j = ik->joints[i];
            float *x = tdn_pose_row(pose, TDN_RX) + j, *y = tdn_pose_row(pose, TDN_RY) + j;
            float *z = tdn_pose_row(pose, TDN_RZ) + j, *w = tdn_pose_row(pose, TDN_RW) + j;
            tdn_quat r = tdn_quat_normalize(tdn_quat_mul(local, tdn_quat_make(*x, *y, *z, *w)));
            *x = r.x;
            *y = r.y;
            *z = r.z;
            *w = r.w;
        }
        tdn_model_space_range(skeleton, pose, parents[root] < 0 ? &root_matrix : NULL, root,
                              tdn_skeleton_subtree_end(skeleton, root), model, NULL);
    }
    if (angle_error) {
        tdn_vec3 aim = tdn_mat4_transform_vector(&model[end], axis);
        tdn_vec3 to = tdn_vec3_sub(ik->target, tdn__model_position(&model[end]));
        *angle_error = angle_between(aim, to);
    }
    return TDN_OK;
}
