/* tendon: skeletons.
 *
 * A skeleton is an immutable hierarchy of named joints with a rest (bind) pose and inverse bind
 * matrices. Joints are stored parent-before-child in depth-first pre-order (children in the
 * order they were given), so the subtree of any joint is the contiguous index range
 * [joint, tdn_skeleton_subtree_end(joint)) and model space is one forward pass. A skeleton is
 * shared read-only by any number of characters and threads. */
#ifndef TENDON_SKELETON_H
#define TENDON_SKELETON_H

#include "base.h"
#include "vecmath.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tdn_skeleton tdn_skeleton;

/* Longest joint name kept, including the terminating zero; longer names are an error. */
#define TDN_MAX_JOINT_NAME 64
/* Upper limit on joints per skeleton (keeps every index an int16 and every buffer sane). */
#define TDN_MAX_JOINTS 32767

/* Describes a skeleton in any joint order. Fields left zero get defaults. */
typedef struct tdn_skeleton_desc {
    int joint_count;                /* 1..TDN_MAX_JOINTS */
    const char *const *names;       /* joint_count unique, non-empty names; NULL: "joint_<i>" */
    const int *parents;             /* joint_count parent indices into this array, -1 for a root */
    const tdn_transform *rest_pose; /* local rest transforms; NULL: identity for every joint */
    const tdn_mat4 *inverse_bind;   /* per joint, affine (last row 0 0 0 1 within 1e-5, stored
                                     * exact); NULL: inverted model-space rest pose */
    int *remap;                     /* optional out: joint_count ints, receiving for each joint
                                     * index of the description its index in the skeleton */
} tdn_skeleton_desc;

/* Builds a skeleton through `allocator` (NULL: malloc). Fails with TDN_ERR_ARGUMENT for bad counts or
 * NULL, TDN_ERR_INVALID_DATA (naming the joint) for a parent out of range, a cycle, a duplicate
 * or over-long name, a non-finite or degenerate rest transform (zero scale, zero quaternion), a
 * non-finite or non-affine inverse bind matrix;
 * non-unit rest rotations are renormalized. On failure nothing is allocated and *out is NULL. */
TDN_API tdn_result tdn_skeleton_create(const tdn_skeleton_desc *desc, tdn_skeleton **out,
                                       const tdn_allocator *allocator, tdn_error *err);
/* Frees the skeleton; NULL is ignored. */
TDN_API void tdn_skeleton_destroy(tdn_skeleton *skeleton);

/* Number of joints; 0 for NULL. */
TDN_API int tdn_skeleton_joint_count(const tdn_skeleton *skeleton);
/* Parent of joint i (always < i), or -1 for a root. */
TDN_API int tdn_skeleton_parent(const tdn_skeleton *skeleton, int joint);
/* All parents as one array of joint_count int16_t (for hot loops), owned by the skeleton. */
TDN_API const int16_t *tdn_skeleton_parents(const tdn_skeleton *skeleton);
TDN_API const char *tdn_skeleton_joint_name(const tdn_skeleton *skeleton, int joint);
/* Index of the joint with this exact name, or -1. O(log n). */
TDN_API int tdn_skeleton_find_joint(const tdn_skeleton *skeleton, const char *name);
/* Number of edges between joint and its root (a root has depth 0). */
TDN_API int tdn_skeleton_depth(const tdn_skeleton *skeleton, int joint);
/* One past the last joint of joint's subtree: the subtree is [joint, end). */
TDN_API int tdn_skeleton_subtree_end(const tdn_skeleton *skeleton, int joint);
/* 1 if `joint` is `ancestor` or lies below it, else 0. */
TDN_API int tdn_skeleton_is_in_subtree(const tdn_skeleton *skeleton, int joint, int ancestor);
/* Joint's local rest transform (the identity for a bad index). */
TDN_API tdn_transform tdn_skeleton_rest(const tdn_skeleton *skeleton, int joint);
/* The inverse bind matrices, tdn_skeleton_joint_count of them in joint order, owned by the
 * skeleton (they live as long as it does); NULL for a NULL skeleton. */
TDN_API const tdn_mat4 *tdn_skeleton_inverse_bind(const tdn_skeleton *skeleton);

#ifdef __cplusplus
}
#endif
#endif
