/* tendon: blend-driven IK (MechWarrior 4's IK by blending artist-made poses).
 *
 * A blend space whose samples are poses reaching different places (an arm reaching a grid of
 * points, a foot on slopes of several angles) covers a set of effector positions. The solver
 * finds the blend parameters (a point of the blend space) whose blended pose puts an effector
 * joint on a target, then an optional analytic correction removes what the blend could not
 * reach, so the artist's poses do the work and the effector still lands exactly.
 *
 * One evaluation of parameters p: weights from tdn_blend_space_weights, tdn_blend of the
 * samples' local transforms, model space of the effector and its ancestors only (the chain,
 * root to effector: the only joints the effector's position depends on). The definition keeps
 * a compact copy of the chain's joints of every sample and a chain-shaped skeleton, so an
 * evaluation blends and runs tdn_model_space on chain-length poses, not whole skeletons. The
 * solve is a box-constrained Levenberg-Marquardt iteration (Gauss-Newton damped by lambda * diag(J^T J), Marquardt's
 * scaling, so axes in different units need no care) on r(p) = effector(p) - target, J the 3 x d forward-difference
 * Jacobian (d + 1 evaluations per iteration), parameters kept in the samples' bounding box (outside it the weights stop
 * changing and J vanishes) by an active set: a parameter on a face whose step would leave the box is held there and the
 * step solved again over the others. A rejected step raises lambda eightfold and is retried (one evaluation each, at
 * most 8 times); an accepted one divides it by 4. The iteration stops at the tolerance, at the iteration limit, when no
 * damped step descends, or after an accepted step smaller than the difference step (1e-3 of the box on every axis): a
 * minimum of the blend's error, where the correction takes over (targets the blend cannot reach end there, typically on
 * a face of the box). The damping also keeps an under-determined space (more than 3 axes) near its start: with a warm
 * start, the parameters move as little as the target asks, so they follow a moving target smoothly. The space's weights
 * are piecewise rational in p (gradient bands have kinks where a band's minimum switches partner) and the blend is a
 * normalized lerp of rotations, so the effector is only piecewise smooth: a forward difference straddling a kink gives
 * a slightly wrong J, which the damping and the descent test absorb.
 *
 * Then the whole pose is blended once at the parameters found (the chain's joints are
 * bit-identical to the last evaluation: same layers, same per-joint arithmetic), model space is
 * computed for the whole skeleton, and the correction runs:
 *   - TDN_IK_BLEND_CORRECT_NONE: the blend as it is;
 *   - TDN_IK_BLEND_CORRECT_TWO_BONE: tdn_ik_two_bone on upper -> middle -> effector, with no
 *     hint (the bend plane the blend gave is kept), so the limb lands exactly wherever it can
 *     reach, by the smallest change of its two rotations;
 *   - TDN_IK_BLEND_CORRECT_ROTATE: the `upper` joint turns by the shortest rotation taking the
 *     effector's direction from it to the target's: exact when the target lies as far from that
 *     joint as the effector does, otherwise only the part across that line is removed.
 *
 * Memory: a definition is two allocations through the allocator given to create: the
 * chain-shaped skeleton, and one block (tdn_ik_blend_memory_size) holding the chain's joint
 * list, a compact copy of the chain's joints of each sample, the mask and its complement, the samples' effector
 * positions, and the sample poses themselves when they are copied (borrow_poses 0: about sample_count *
 * tdn_pose_bytes(joint_count)). It is immutable once built and can be shared by any number of threads. A solve
 * allocates nothing: besides the caller's pose, model matrices and parameter array it uses stack arrays bounded by
 * TDN_MAX_BLEND_SPACE_SAMPLES and TDN_IK_BLEND_MAX_CHAIN (about 24 KB at most, with tdn_blend's
 * own 10 KB), so it is thread-safe for distinct poses. */
#ifndef TENDON_IK_BLEND_H
#define TENDON_IK_BLEND_H

#include "base.h"
#include "blend_space.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest chain (effector and its ancestors, the root included) a definition accepts. */
#define TDN_IK_BLEND_MAX_CHAIN 64

typedef enum tdn_ik_blend_correction {
    TDN_IK_BLEND_CORRECT_NONE = 0,
    TDN_IK_BLEND_CORRECT_TWO_BONE, /* upper -> middle -> effector, analytic, bend plane kept */
    TDN_IK_BLEND_CORRECT_ROTATE    /* upper turns the effector towards the target */
} tdn_ik_blend_correction;

/* Describes a blend-driven IK definition. Fields left 0 get the defaults shown. */
typedef struct tdn_ik_blend_desc {
    const tdn_skeleton *skeleton; /* borrowed: must outlive the definition */
    const tdn_blend_space *space; /* borrowed: must outlive the definition; any mode, any
                                   * number of dimensions */
    /* One pose per sample of the space, in the space's sample order, each with the skeleton's
     * joint count. Copied into the definition unless borrow_poses is 1, in which case the
     * pointers are kept and the poses must stay alive and unchanged (the definition's compact
     * copies of the chain's joints are taken at creation either way). */
    const tdn_pose *const *poses;
    int borrow_poses;
    int effector; /* the joint to put on the target (a hand, an ankle) */
    /* Optional, joint_count floats in [0, 1] (clamped; copied): where the blend applies. Joints
     * at 1 take the blend, joints at 0 keep the pose passed to the solve (a reach layered over
     * locomotion), in between a per-joint weighted nlerp of both. NULL: 1 everywhere. The solve
     * accounts for it: the chain is evaluated with the caller's pose where the mask is < 1. */
    const float *joint_weights;
    tdn_ik_blend_correction correction;
    int upper, middle; /* correction joints: two_bone uses both (upper an ancestor
                        * of middle, middle of the effector); rotate uses upper
                        * only (a proper ancestor of the effector) */
} tdn_ik_blend_desc;

typedef struct tdn_ik_blend tdn_ik_blend;

/* Builds a definition through `allocator` (NULL: malloc). TDN_ERR_ARGUMENT (err->where naming the field, for example
 * "desc.poses[3]") for NULL desc, out, skeleton, space or poses, a NULL pose or one whose joint
 * count differs from the skeleton's, an effector out of range, a chain longer than
 * TDN_IK_BLEND_MAX_CHAIN, an unknown correction, correction joints out of range or not in the
 * effector's ancestry as the correction needs, a NaN mask weight, or an allocator with only one
 * of alloc/free (`where` "allocator"). TDN_ERR_OUT_OF_MEMORY when the allocator fails. On failure *out is NULL and
 * nothing stays allocated. */
TDN_API tdn_result tdn_ik_blend_create(const tdn_ik_blend_desc *desc, tdn_ik_blend **out,
                                       const tdn_allocator *allocator, tdn_error *err);
/* Frees a definition through the allocator it was created with. NULL is ignored. */
TDN_API void tdn_ik_blend_destroy(tdn_ik_blend *ik);
/* Bytes the definition holds (its one allocation); 0 for NULL. */
TDN_API size_t tdn_ik_blend_memory_size(const tdn_ik_blend *ik);
/* The chain, root first and the effector last, and its length (0 and NULL for NULL). */
TDN_API int tdn_ik_blend_chain(const tdn_ik_blend *ik, const int **joints);

/* The effector's model-space position (placed by `root`, NULL: identity) of the blend at
 * `params` (the space's dimensions floats, used as given: no clamping), the mask taking the
 * rest from `input` (required only when the definition has a mask). This is one evaluation of
 * the solve; with params = a target's own coordinates it is what a game gets without a solver.
 * TDN_ERR_ARGUMENT for NULL pointers, non-finite params, or an input of the wrong joint count. */
TDN_API tdn_result tdn_ik_blend_effector(const tdn_ik_blend *ik, const float *params, const tdn_pose *input,
                                         const tdn_mat4 *root, tdn_vec3 *out, tdn_error *err);

/* A per-frame request. */
typedef struct tdn_ik_blend_job {
    tdn_vec3 target;      /* model space (the space of `model`, placed by `root`) */
    const float *start;   /* warm start: dimensions floats (last frame's parameters), clamped
                           * to the samples' box; NULL: cold start at the point of the sample
                           * whose own effector lies nearest the target */
    const tdn_mat4 *root; /* the character's placement for model space; NULL: identity */
    float tolerance;      /* stop once the pure blend is this close (skeleton units);
                           * 0: 1e-3 of the spread of the samples' effector positions (the
                           * largest distance between two of them; 1e-3 if they coincide) */
    int max_iterations;   /* Jacobians formed at most; 0: 10 */
    float weight;         /* 0: pose unchanged, 1: the blend and correction in full;
                           * clamped to [0, 1] */
} tdn_ik_blend_job;

/* What a solve did. */
typedef struct tdn_ik_blend_result {
    int iterations;    /* Jacobians formed (iterations of the solver) */
    int evaluations;   /* blend + chain model-space evaluations, Jacobian columns and
                        * rejected steps included */
    float start_error; /* effector to target at the starting parameters */
    float blend_error; /* effector to target of the pure blend at the parameters found */
    float error;       /* after the weighted blend and correction: what `model` shows */
    int reached;       /* error <= tolerance */
} tdn_ik_blend_result;

/* Solves for the parameters that put the effector on req->target and writes the result:
 * `pose` holds the caller's pose on entry (only read where the mask is below 1 or the weight
 * below 1; otherwise any content) and the answer on exit: the per-joint weighted nlerp of it
 * (1 - weight * mask) and the samples blended at the parameters (weight * mask), then the
 * correction at that weight. `model` (joint_count matrices) receives its model space (placed by
 * req->root). `params` (dimensions floats; may be req->start itself) receives the parameters
 * found, and `result` (optional) the report. Parameters found are always inside the samples'
 * box. Never allocates; deterministic. TDN_ERR_ARGUMENT (nothing written) for NULL ik, req,
 * pose, model or params, a pose of the wrong joint count, a non-finite target, start or root,
 * a negative or NaN tolerance, a negative max_iterations or a NaN weight. */
TDN_API tdn_result tdn_ik_blend_solve(const tdn_ik_blend *ik, const tdn_ik_blend_job *req, tdn_pose *pose,
                                      tdn_mat4 *model, float *params, tdn_ik_blend_result *result, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
