/* tendon: look-at (aim) IK.
 *
 * Turns a chain (for example spine_03, neck_01, head) so that an axis of its end joint points
 * at a target, the correction spread over the joints and each joint kept within a cone of its
 * animated (input) rotation. Thread-safe for distinct poses; never allocates. */
#ifndef TENDON_IK_LOOK_AT_H
#define TENDON_IK_LOOK_AT_H

#include "base.h"
#include "ik_chain.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tdn_ik_look_at_job {
    const int *joints;          /* root first, each an ancestor of the next; the last carries
                                 * the axis (joints in between are carried along) */
    int joint_count;            /* 1 .. TDN_MAX_IK_CHAIN */
    const float *joint_weights; /* NULL, or joint_count - 1 fractions in [0, 1] (a joint_count-long array
                                 * is fine: its last entry is not read): joint i turns by this
                                 * fraction of the correction still left when its turn comes
                                 * (root first); the last joint takes all that is left. NULL: an
                                 * even spread (joint i takes 1/(joint_count - i)) */
    tdn_vec3 axis;              /* in the end joint's local frame (any length > 0), for example
                                 * +Z for tendon's humanoid's head */
    tdn_vec3 up_hint;           /* model space, the "up" that keeps the end joint level: the end
                                 * joint also turns about the aim so that the roll it had against
                                 * this direction in the input is kept (the shortest turns of
                                 * the chain would tilt it when aiming diagonally). Zero: off */
    tdn_vec3 target;            /* model space */
    const float *max_angles;    /* NULL, or `joint_count` radians (0: free): how far each joint may
                                 * turn away from its input rotation */
    float weight;               /* 0: pose unchanged, 1: fully solved; clamped to [0, 1]; each
                                 * joint's turn is slerped from identity by it */
} tdn_ik_look_at_job;

/* Aims the chain's end axis at the target. Joint by joint from the root, the correction left
 * (the shortest turn from the end axis to the line from the end joint to the target) is taken
 * by the joint's fraction, turning about its own origin, but at least what the joints after
 * it cannot take within their limits, and at most its max angle. With no limits on the last
 * joint the axis ends pointing exactly at the target. When every joint has a limit, the
 * correction asked of the whole chain is min(sum of max angles, 3/4 pi) at most, and for a
 * target more than 3/4 pi away from where the end axis points in the input (behind) it
 * shrinks linearly to 0 directly behind: the chain turns back towards its input pose instead
 * of snapping from one side to the other, so the result is continuous as a target circles the
 * character (its rate at most 3 times the target's angular rate). A chain with a free joint
 * aims exactly, so directly behind it must choose a side. The end joint's roll correction
 * (up_hint) counts against its max angle (the aim gives way at the limit); it fades out when
 * the aim comes within 17 degrees of the up direction (gone by 6), where level means nothing,
 * and when the roll asked exceeds 45 degrees (gone by 90: aiming up and over the top, level
 * would be upside down), so it never jumps.
 * `model` must hold model space of `pose`; it is updated for the subtree of joints[0].
 * `angle_error` (optional): the angle in radians between the end axis and the line to the
 * target after the solve. A target on the end joint (or an axis that the end joint's scale
 * collapses) leaves the pose unchanged.
 * TDN_ERR_ARGUMENT (nothing changed) for NULL pointers, a pose whose joint count differs from
 * the skeleton's, a count out of range, joints out of range or not each below the one before,
 * a zero or non-finite axis, a non-finite target or up_hint, a joint weight or max angle that
 * is NaN, negative (or a weight above 1), or a NaN weight. Never allocates. */
TDN_API tdn_result tdn_ik_look_at(const tdn_skeleton *skeleton, const tdn_ik_look_at_job *ik, tdn_pose *pose,
                                  tdn_mat4 *model, float *angle_error, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
