/* tendon: damped least squares IK (Levenberg-Marquardt on joint rotations).
 *
 * One chain, or a tree of joints sharing one root (a spine with both arms), pulled by up to
 * TDN_DLS_MAX_TARGETS effector targets at once. Every listed joint turns with three rotational
 * degrees of freedom about its own origin; each pass solves
 *     dtheta = J^T (J J^T + lambda^2 I)^-1 e
 * (J the 3 x 3-per-joint Jacobian of the effectors' positions, e the weighted errors, the
 * small 3T x 3T system in double precision on the stack), turns the joints by the model-space
 * axis-angle increments dtheta converted to local rotations, and keeps the pass only if it
 * lowered sum(w_t |e_t|^2): the error never grows from one pass to the next. A pass that would
 * raise it is retried with 4 times the damping; each kept pass halves the damping, down to
 * 1/100 of the caller's (Levenberg-Marquardt), so steps are cautious far away and near
 * singularities (a straight arm) and nearly Gauss-Newton close to the target.
 * Thread-safe for distinct poses; never allocates. */
#ifndef TENDON_IK_DLS_H
#define TENDON_IK_DLS_H

#include "base.h"
#include "ik_chain.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TDN_DLS_MAX_TARGETS 3

/* An effector joint (its origin) and where it should go. */
typedef struct tdn_dls_target {
    int effector;      /* joint index: below the chain's root (a listed joint or a descendant of one) */
    tdn_vec3 position; /* model space */
    float weight;      /* relative importance, >= 0 (only ratios matter; 0: ignored). When the
                        * targets cannot all be reached the solve settles where
                        * sum(weight_t |effector_t - position_t|^2) is stationary */
} tdn_dls_target;

/* Fields left 0 take the default shown, except `weight`. */
typedef struct tdn_ik_dls_job {
    const int *joints; /* the joints that turn, in skeleton order (strictly increasing index,
                        * so parents come first); joints[0] is the root and every other lies in
                        * its subtree. For two hands on a spine: the spine joints, then one
                        * arm's, then the other's (the union of the root-to-effector paths).
                        * Joints in between that are not listed (twist joints) are carried
                        * along; listed joints above no effector are left alone */
    int joint_count;   /* 1 .. TDN_MAX_IK_CHAIN */
    const tdn_dls_target *targets;
    int target_count;           /* 1 .. TDN_DLS_MAX_TARGETS */
    float damping;              /* the starting lambda as a fraction of the reach (the longest
                                 * root-to-effector path length): 0: 0.1. Larger is steadier and slower */
    float tolerance;            /* skeleton units: stop when every weighted effector is this close; 0:
                                 * 1e-4 of the reach */
    int max_iterations;         /* passes at most; 0: 100 */
    const tdn_ik_limit *limits; /* NULL, or `joint_count` limits (one per joint, 0 fields free). The
                                 * swing is measured along the bone to the joint's first child on an
                                 * effector path (its rest offset). The pose is moved inside the limits
                                 * before the first pass, and every pass is clamped to them */
    float weight;               /* 0: pose unchanged, 1: fully solved; clamped to [0, 1]; each joint's
                                 * solved rotation is slerped from its input rotation by it */
} tdn_ik_dls_job;

/* Turns the listed joints' local rotations (nothing else) so the effectors approach their
 * targets, then updates model[] for the subtree of joints[0]. `model` must hold model space of
 * `pose` (with whatever root matrix it was computed with). `result` (optional) gets the passes
 * made, the largest distance of an effector with weight > 0 from its target after the solve,
 * and whether that is within the tolerance. Stops early when reached, when a pass turns no
 * joint by more than 1e-6 rad, or when no damping tried lowers the error. Unreachable
 * targets are approached (the chain stretches towards them), never exploded.
 * TDN_ERR_ARGUMENT (nothing changed) for NULL pointers, a pose whose joint count differs from
 * the skeleton's, counts out of range, joints out of range, not increasing or not below
 * joints[0], an effector out of range, not below joints[0] or equal to it, more than 256
 * joints on the root-to-effector paths, a non-finite target position, a negative or NaN
 * target weight, damping, tolerance or limit, negative max_iterations or a NaN weight.
 * Never allocates. */
TDN_API tdn_result tdn_ik_dls(const tdn_skeleton *skeleton, const tdn_ik_dls_job *ik, tdn_pose *pose, tdn_mat4 *model,
                              tdn_ik_result *result, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
