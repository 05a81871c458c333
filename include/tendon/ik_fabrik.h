/* tendon: FABRIK, forward and backward reaching inverse kinematics (Aristidou and Lasenby,
 * 2011), for chains of any length.
 *
 * Each iteration places the joints on lines at their bone lengths twice: from the end
 * effector (put on the target) back to the root, then from the root (put back on its anchor)
 * out to the end. The solved positions become local rotations: each chain joint turns by the
 * shortest swing from its bone's current direction to its solved direction (no twist added),
 * so a solve starting from the last frame's answer (a warm start) moves little. Thread-safe
 * for distinct poses; never allocates. */
#ifndef TENDON_IK_FABRIK_H
#define TENDON_IK_FABRIK_H

#include "base.h"
#include "ik_chain.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TDN_FABRIK_DEFAULT_ITERATIONS 32

typedef struct tdn_ik_fabrik_job {
    const int *joints;          /* the chain, root first, each joint below the one before
                                 * (tdn_ik_chain_path); joints in between are carried along */
    int joint_count;            /* 2 .. TDN_MAX_IK_CHAIN joints (joint_count - 1 bones) */
    tdn_vec3 target;            /* model-space position for joints[joint_count - 1] */
    float tolerance;            /* stop when the end is this close (skeleton units); <= 0:
                                 * 1e-3 of the chain's length */
    int max_iterations;         /* forward + backward pass pairs at most; 0:
                                 * TDN_FABRIK_DEFAULT_ITERATIONS */
    const tdn_ik_limit *limits; /* NULL (free), or `joint_count` limits, one per chain joint (the
                                 * last is not used: the end joint is not turned), enforced in
                                 * every backward pass */
    float weight;               /* 0: pose unchanged, 1: fully solved; clamped to [0, 1]; each
                                 * joint's rotation is slerped from its unsolved one */
} tdn_ik_fabrik_job;

/* Turns the chain joints (their local rotations only, the end joint's excepted) so that the
 * end reaches the target, then updates model[] for the subtree of joints[0]. `model` must hold
 * model space of `pose`. The root joint stays where it is and bone lengths never change (the
 * pose is only rotated). A target beyond the chain's reach gives one straight stretch towards
 * it (with limits: as straight as they allow). An end already within the tolerance leaves the
 * pose and model[] untouched (0 iterations). Exact when the scales above the chain joints are
 * uniform. `result` (optional) gets the iterations made, the end-to-target distance after the
 * solve (measured in the updated model[]) and whether it is within the tolerance.
 * TDN_ERR_ARGUMENT (nothing changed) for NULL pointers, a pose whose joint count differs from
 * the skeleton's, a count outside 2 .. TDN_MAX_IK_CHAIN, a joint out of range or not below the
 * one before it, a non-finite target, a NaN weight or tolerance, negative max_iterations, or
 * a limit that is negative or not finite. Never allocates. */
TDN_API tdn_result tdn_ik_fabrik(const tdn_skeleton *skeleton, const tdn_ik_fabrik_job *ik, tdn_pose *pose,
                                 tdn_mat4 *model, tdn_ik_result *result, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
