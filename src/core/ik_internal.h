/* tendon core: what the iterative IK solvers share (not installed).
 *
 * A chain is read once per solve from the pose and its model space into a form the solvers can
 * run forward kinematics on without matrices: the anchor (model position of the chain's root),
 * the model rotation of the root's parent, for every chain joint its local rotation and its
 * bone (the vector to the next chain joint in the joint's own rotated frame, model units), and
 * between consecutive chain joints the rotation carried by the joints in between (twist
 * joints). The model position of joint i+1 is then p[i] + W[i] bone[i], with
 *     W[0] = frame * local[0],   W[i] = W[i-1] * carry[i] * local[i],
 * exact when the scales above the chain joints are uniform (mirrors included). Solvers change
 * local[] only; tdn__ik_chain_write puts the rotations back into the pose (faded by a weight)
 * and recomputes model space for the chain root's subtree. */
#ifndef TENDON_IK_INTERNAL_H
#define TENDON_IK_INTERNAL_H

#include "internal.h"
#include "rsqrt.h"
#include "tendon/ik_chain.h"
#include "tendon/ik_two_bone.h"
#include "tendon/model_space.h"

/* Iterations stop when the solver's own positions are within this fraction of the tolerance:
 * the end in model space (matrices, computed after the rotations are written back) differs
 * from them by rounding, measured up to 0.5% of a tolerance of 1e-3 of the chain's length on
 * 16 bones, so that `reached` (judged in model space) agrees with the solver's stop. */
#define TDN__IK_INNER_TOLERANCE 0.98f

typedef struct tdn__ik_chain {
    int count;                              /* chain joints, 2 .. TDN_MAX_IK_CHAIN */
    const int *joints;                      /* skeleton indices, root first */
    tdn_vec3 root;                          /* model position of joints[0]: the anchor */
    tdn_quat frame;                         /* model rotation (scale and mirror divided out) of joints[0]'s parent,
                                             * or of the root matrix model space was computed with */
    unsigned char direct[TDN_MAX_IK_CHAIN]; /* 1: carry[i] is the identity (parent is joints[i-1], unscaled) */
    tdn_quat carry[TDN_MAX_IK_CHAIN];       /* [i >= 1]: from joints[i-1]'s rotation to joints[i]'s parent's */
    tdn_quat local[TDN_MAX_IK_CHAIN];       /* current local rotations (what the solver changes) */
    tdn_quat original[TDN_MAX_IK_CHAIN];    /* the pose's local rotations before the solve */
    tdn_vec3 bone[TDN_MAX_IK_CHAIN];        /* [i < count-1]: joints[i] to joints[i+1] in joints[i]'s frame */
    float length[TDN_MAX_IK_CHAIN];         /* [i < count-1]: |bone[i]| */
    int is_root;                            /* joints[0] is a root of the skeleton: */
    tdn_mat4 root_matrix;                   /* the root matrix model space was computed with */
} tdn__ik_chain;

/* 1 when the pose fits the skeleton and joints[0..count) is a chain: 2 <= count <=
 * TDN_MAX_IK_CHAIN, every index in range, each joint strictly below the one before it. */
tdn_result tdn__ik_check_chain(const tdn_skeleton *skeleton, const tdn_pose *pose, const tdn_mat4 *model,
                               const int *joints, int count, tdn_error *err);

/* 1 when limits is NULL or its count entries are finite and non-negative. */
tdn_result tdn__ik_check_limits(const tdn_ik_limit *limits, int count, tdn_error *err);
/* TDN_ERR_ARGUMENT for a pose that is not the skeleton's (NULL, another joint count). */
tdn_result tdn__ik_check_pose(const tdn_skeleton *skeleton, const tdn_pose *pose, const tdn_mat4 *model,
                              tdn_error *err);

/* Reads the chain's joints (checked with tdn__ik_chain_valid), anchor and frame (count,
 * joints, root, frame, is_root, root_matrix) from pose and model. */
void tdn__ik_chain_anchor(tdn__ik_chain *chain, const tdn_skeleton *skeleton, const tdn_pose *pose,
                          const tdn_mat4 *model, const int *joints, int count);

/* Reads the whole chain (tdn__ik_chain_anchor and every joint) from pose and model. */
void tdn__ik_chain_read(tdn__ik_chain *chain, const tdn_skeleton *skeleton, const tdn_pose *pose, const tdn_mat4 *model,
                        const int *joints, int count);

/* The model rotation of joints[i]'s parent given W[i-1] (the model rotation of joints[i-1];
 * ignored for i = 0). */
static inline tdn_quat tdn__ik_parent_rotation(const tdn__ik_chain *chain, int i, tdn_quat previous)
{
    return i == 0 ? chain->frame : chain->direct[i] ? previous : tdn_quat_mul(previous, chain->carry[i]);
}

/* Forward kinematics of local[]: positions of the chain joints into x, y, z (count entries)
 * and, when `rotations` is not NULL, the model rotations W[0 .. count-2]. */
void tdn__ik_chain_positions(const tdn__ik_chain *chain, float *x, float *y, float *z, tdn_quat *rotations);

/* The shortest rotation turning direction `from` into direction `to` (any lengths); the
 * identity when either is (nearly) zero; half a turn about a perpendicular when opposite. */
tdn_quat tdn__ik_swing(tdn_vec3 from, tdn_vec3 to);

/* One joint's limit made ready for repeated use: its rest rotation, the unit bone direction
 * in its frame, and the half-angle cosines and sines of the cone and twist. */
typedef struct tdn__ik_joint_limit {
    tdn_quat rest;
    tdn_vec3 axis;
    int has_cone, has_twist; /* 0 when free (0, or >= pi) */
    float cone_cos, cone_sin, twist_cos, twist_sin;
} tdn__ik_joint_limit;

void tdn__ik_limit_prepare(tdn__ik_joint_limit *out, tdn_quat rest, tdn_vec3 bone, tdn_ik_limit limit);

/* The chain's limits (count - 1 entries: the end joint is not turned) from limits[] and the
 * skeleton's rest rotations, written into out and returned; NULL when limits is NULL. */
const tdn__ik_joint_limit *tdn__ik_chain_limits(const tdn_skeleton *skeleton, const tdn__ik_chain *chain,
                                                const tdn_ik_limit *limits, tdn__ik_joint_limit *out);

/* Limits a local rotation relative to the rest rotation: with local = rest * D and D = S * T
 * (T a twist about the bone axis, S a swing about an axis perpendicular to it), the swing
 * angle is clamped to the cone and the twist angle to +-twist. Returns 1 when it changed
 * *local, 0 when it was within the limit (then *local is untouched). */
int tdn__ik_limit_rotation(tdn_quat *local, const tdn__ik_joint_limit *limit);

/* Turns the chain joints, root first, each by the shortest swing that points its bone from
 * where forward kinematics puts its start towards goal i+1 (gx, gy, gz: count entries, [0]
 * unused), then limits it when limits is not NULL. Writes the positions reached into x, y, z
 * (count entries; may be the goal arrays). Adds no twist of its own. */
void tdn__ik_chain_aim(tdn__ik_chain *chain, const float *gx, const float *gy, const float *gz,
                       const tdn__ik_joint_limit *limits, float *x, float *y, float *z);

/* For a chain whose anchor is read (tdn__ik_chain_anchor): the rest of tdn__ik_chain_read
 * and tdn__ik_chain_aim without limits in one pass over the joints, for goals that are the
 * chain's own joint positions (goal 0 the root, consecutive goals a bone's length apart, as
 * FABRIK's passes leave them): each joint's bone turned from its current direction onto
 * goal i -> goal i+1 by the shortest swing, keeping each joint's twist. Fills what
 * tdn__ik_chain_write uses (bone and length are not read). */
void tdn__ik_chain_follow(tdn__ik_chain *chain, const tdn_skeleton *skeleton, const tdn_pose *pose,
                          const tdn_mat4 *model, const float *gx, const float *gy, const float *gz);

/* Writes local[] into the pose's rotations of the chain joints, each slerped from original[]
 * by weight (in (0, 1]), and recomputes model[] for the subtree of joints[0] (with the root
 * matrix model space was computed with when joints[0] is a root of the skeleton). */
void tdn__ik_chain_write(const tdn__ik_chain *chain, const tdn_skeleton *skeleton, tdn_pose *pose, tdn_mat4 *model,
                         float weight);

/* Distance from joints[count-1] in model[] to the target. */
float tdn__ik_end_error(const tdn_mat4 *model, const int *joints, int count, tdn_vec3 target);

/* The model-space rotations of a two-bone solve (tdn_ik_two_bone) for a chain at a -> b -> c
 * with bones l1 and l2 long: `hinge` turns the middle joint about b, `swing` then turns the
 * upper joint (and all below it) about a. Reads ik's target, pole, use_pole and soften. */
void tdn__ik_two_bone_solve(const tdn_ik_two_bone_job *ik, tdn_vec3 a, tdn_vec3 b, tdn_vec3 c, float l1, float l2,
                            tdn_quat *hinge, tdn_quat *swing);

#endif
