/* tendon_bench: textbook IK solvers, the "straightforward unconstrained implementation" the IK
 * issue quotes its reference timings from, timed beside tendon's under the same protocol (the
 * `ik` workload's `ref_*` rows).
 *
 * Each reads the chain from model space (positions, and the model rotation of the root's
 * parent), writes the chain's new local rotations into the pose, and does nothing else: no
 * argument checks, pole, softening, weight, limits, damping or stall test, and no model-space
 * update of joints below the chain. The chain must have unit scale and at most
 * BENCH_IK_REF_MAX_JOINTS joints. */
#ifndef TENDON_BENCH_IK_REFERENCE_H
#define TENDON_BENCH_IK_REFERENCE_H

#include "tendon/pose.h"

#define BENCH_IK_REF_MAX_JOINTS 32

typedef struct bench_ik_ref {
    tdn_pose *pose;
    tdn_mat4 *model;
    int parent;        /* the parent of joints[0] */
    const int *joints; /* the chain, root first, each the parent of the next */
    int count;         /* joints in the chain */
    tdn_vec3 target;
    float tolerance; /* stop when the end is this close */
    int max_iterations;
} bench_ik_ref;

/* Two-bone (count 3): law of cosines for the knee, then the shortest arc from the end to the
 * target for the upper joint. Reads model space only and writes no model matrix. Returns 1
 * when the end is within the tolerance. */
int bench_ik_ref_two_bone(const bench_ik_ref *ik);

/* FABRIK on positions (a square root and a division a step, the root reset every backward
 * pass; out of reach: one straight stretch), then the positions turned into local rotations
 * root first, one shortest arc a joint, and the chain's model matrices rewritten (the next
 * solve starts from them). Returns 1 when the end is within the tolerance. */
int bench_ik_ref_fabrik(const bench_ik_ref *ik, int *iterations);

/* The positions part of bench_ik_ref_fabrik alone: the passes, with the solved positions
 * written into the chain's model translations only (the pose and the model rotations are left
 * as they were). */
int bench_ik_ref_fabrik_passes(const bench_ik_ref *ik, int *iterations);

/* Unconstrained, undamped CCD: every pass turns each joint from the one before the end back to
 * the root so that the end points at the target, moving the joints below it; stops within the
 * tolerance or at the iteration limit. Rewrites the chain's model matrices. */
int bench_ik_ref_ccd(const bench_ik_ref *ik, int *iterations);

#endif
