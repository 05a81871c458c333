/* tendon: joint chains for the iterative IK solvers (FABRIK, CCD, damped least squares,
 * look-at), and what they share: per-joint limits and what a solve reports.
 *
 * A chain lists joints from its root down to its end effector, each an ancestor of the next
 * (joints in between, such as twist joints, are carried along by their parents). Solvers move
 * only the listed joints' local rotations, read model space from a `model` array computed from
 * the same pose, and update it for the subtree they moved. */
#ifndef TENDON_IK_CHAIN_H
#define TENDON_IK_CHAIN_H

#include "base.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TDN_MAX_IK_CHAIN 64

/* Per-joint limits, relative to the joint's rest rotation (its local rotation in the
 * skeleton's rest pose): `cone` bounds the swing (the angle the bone's direction may turn away
 * from its rest direction), `twist` the turn about the bone; radians, 0 means free. */
typedef struct tdn_ik_limit {
    float cone;
    float twist;
} tdn_ik_limit;

/* What an iterative solve did. */
typedef struct tdn_ik_result {
    int iterations; /* passes made */
    float error;    /* end effector to target distance after the solve (skeleton units) */
    int reached;    /* error within the tolerance */
} tdn_ik_result;

/* The joints from `root` down to `end` into joints[] (at most `capacity`, root first).
 * Returns the count (>= 2), or -1 when end is not below root, an index is out of range or the
 * chain is longer than capacity. */
TDN_API int tdn_ik_chain_path(const tdn_skeleton *skeleton, int root, int end, int *joints, int capacity);

#ifdef __cplusplus
}
#endif
#endif
