/* tendon: two-bone inverse kinematics (arms, legs).
 *
 * Solvers modify the local pose (never replace it) and fade in with a weight. They read
 * model-space matrices computed from the same pose and update them for the joints they move.
 * Thread-safe for distinct poses; never allocate. */
#ifndef TENDON_IK_TWO_BONE_H
#define TENDON_IK_TWO_BONE_H

#include "base.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An analytic two-bone solve (law of cosines) for a chain upper -> middle -> end (for example
 * thigh, knee, ankle), where middle is a descendant of upper and end of middle (joints in
 * between, such as twist joints, are carried along). */
typedef struct tdn_ik_two_bone_job {
    int upper, middle, end; /* joint indices */
    tdn_vec3 target;        /* model-space position for `end` */
    /* Bend hint: the middle joint bends towards the side of the pole point (model space). When
     * use_pole is 0, `pole` is instead a model-space bend axis: the middle joint turns about it
     * by a positive angle (right-hand rule), so the knee goes towards cross(upper-to-target,
     * axis). A hint on the upper-to-target line (or a zero axis) says nothing: the chain keeps
     * the plane it bends in now. */
    tdn_vec3 pole;
    int use_pole;
    float weight; /* 0: pose unchanged, 1: fully solved; clamped to [0, 1]; the
                   * rotation changes are slerped from identity by it */
    float soften; /* 0 (or >= 1): off; else the fraction of full extension where
                   * softening starts (for example 0.97): past it the end
                   * approaches full extension exponentially, avoiding the knee
                   * pop near the limit */
} tdn_ik_two_bone_job;

/* Rotates `upper` and `middle` in `pose` (their local rotations only) so that `end` reaches the
 * target (or points straight at it when out of reach, or folds towards it when too close),
 * then updates model[] for the subtree of upper. The middle joint hinges about the axis it
 * already bends about; the upper joint swings by the shortest rotation and turns about the
 * line to the target only as far as the hint asks, so existing twist is kept. `model` must
 * hold model space of `pose` (with whatever root matrix it was computed with). Exact when the
 * ancestors' scales are uniform; with non-uniform parent scale the result is approximate and
 * `reached` tells. `reached` (optional) is set to 1 when the end lies within 1e-3 of the chain
 * length from the target after the solve. Degenerate chains (zero-length bones, a target on
 * the upper joint, a straight chain with no usable hint) give finite results.
 * TDN_ERR_ARGUMENT (nothing changed) for NULL pointers, a pose whose joint count differs from
 * the skeleton's, joint indices out of range or not in that ancestry, a non-finite target or
 * pole, or a NaN weight or soften. Never allocates. */
TDN_API tdn_result tdn_ik_two_bone(const tdn_skeleton *skeleton, const tdn_ik_two_bone_job *ik, tdn_pose *pose,
                                   tdn_mat4 *model, int *reached, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
