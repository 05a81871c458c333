/* tendon: cyclic coordinate descent (CCD) inverse kinematics.
 *
 * Each iteration visits the chain joints from the end back to the root and turns each by the
 * shortest rotation that points the end effector (as it is now) at the target, damped to a
 * largest turn per joint and limited against the joint's rest rotation. Simple and robust
 * with limits; the joints near the end move first and most. Thread-safe for distinct poses;
 * never allocates. */
#ifndef TENDON_IK_CCD_H
#define TENDON_IK_CCD_H

#include "base.h"
#include "ik_chain.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TDN_CCD_DEFAULT_ITERATIONS 64

typedef struct tdn_ik_ccd_job {
    const int *joints;          /* the chain, root first, each joint below the one before
                                 * (tdn_ik_chain_path); joints in between are carried along */
    int joint_count;            /* 2 .. TDN_MAX_IK_CHAIN joints (joint_count - 1 bones) */
    tdn_vec3 target;            /* model-space position for joints[joint_count - 1] */
    float tolerance;            /* stop when the end is this close (skeleton units); <= 0:
                                 * 1e-3 of the chain's length */
    int max_iterations;         /* passes over the chain at most; 0: TDN_CCD_DEFAULT_ITERATIONS */
    const tdn_ik_limit *limits; /* NULL (free), or `joint_count` limits, one per chain joint (the
                                 * last is not used: the end joint is not turned) */
    float max_step;             /* damping: the largest turn of one joint in one iteration,
                                 * radians; 0 (or >= pi): undamped */
    float weight;               /* 0: pose unchanged, 1: fully solved; clamped to [0, 1]; each
                                 * joint's rotation is slerped from its unsolved one */
} tdn_ik_ccd_job;

/* Turns the chain joints (their local rotations only, the end joint's excepted) so that the
 * end approaches the target, then updates model[] for the subtree of joints[0]. `model` must
 * hold model space of `pose`. The root joint stays where it is and bone lengths never change.
 * Iterations stop at the tolerance, at max_iterations, or when a pass no longer brings the end
 * closer (by 1e-7 of the chain's length). A target beyond the chain's reach gives the answer
 * CCD's passes converge to (slowly), in one pass: the chain straight towards it (with limits:
 * as straight as they allow, root first, then passes as usual). An end already within the
 * tolerance leaves the pose and model[] untouched. `result` (optional): iterations made, the
 * end-to-target distance after the solve (measured in the updated model[]), whether it is
 * within the tolerance.
 * TDN_ERR_ARGUMENT (nothing changed) for what tdn_ik_fabrik refuses and a NaN or negative
 * max_step. Never allocates. */
TDN_API tdn_result tdn_ik_ccd(const tdn_skeleton *skeleton, const tdn_ik_ccd_job *ik, tdn_pose *pose, tdn_mat4 *model,
                              tdn_ik_result *result, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
