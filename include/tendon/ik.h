/* tendon: inverse kinematics.
 *
 * Solvers modify the local pose (never replace it) and fade in with a weight. They read
 * model-space matrices computed from the same pose and update them for the joints they move.
 * Thread-safe for distinct poses; never allocate. */
#ifndef TENDON_IK_H
#define TENDON_IK_H

#include "base.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An analytic two-bone solve (law of cosines) for a chain upper -> middle -> end (for example
 * thigh, knee, ankle), where middle is a descendant of upper and end of middle. */
typedef struct tdn_two_bone_ik {
    int upper, middle, end;     /* joint indices */
    tdn_vec3 target;            /* model-space position for `end` */
    /* Bend hint: the middle joint bends towards the side of the pole point (model space). When
     * use_pole is 0, `pole` is instead a model-space bend axis: the chain bends about it. */
    tdn_vec3 pole;
    int use_pole;
    float weight;               /* 0: pose unchanged, 1: fully solved; clamped to [0, 1] */
    float soften;               /* 0: off; else the fraction of full extension where softening
                                 * starts (for example 0.97), avoiding the knee pop near the limit */
} tdn_two_bone_ik;

/* Rotates `upper` and `middle` in `pose` so that `end` reaches the target (or points straight
 * at it when out of reach), then updates model[] for the subtree of upper. `model` must hold
 * model space of `pose`. `reached` (optional) is set to 1 when the end lies within 1e-3 of the
 * chain length from the target after the solve. */
TDN_API tdn_result tdn_ik_two_bone(const tdn_skeleton *skeleton, const tdn_two_bone_ik *ik, tdn_pose *pose,
                                   tdn_mat4 *model, int *reached);

#ifdef __cplusplus
}
#endif
#endif
