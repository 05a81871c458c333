/* tendon: poses.
 *
 * A pose holds the local transform of every joint of a skeleton as structure-of-arrays: ten
 * rows of `stride` floats (TX TY TZ, RX RY RZ RW, SX SY SZ), stride being the joint count
 * rounded up to TDN_POSE_LANES so that loops over joints run on whole SIMD registers. Padding
 * lanes hold the identity transform. Rows are 32-byte aligned. A pose is plain data owned by
 * one character; functions that write a pose are thread-safe for distinct poses. */
#ifndef TENDON_POSE_H
#define TENDON_POSE_H

#include "base.h"
#include "vecmath.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tdn_skeleton;

#define TDN_POSE_LANES 8
#define TDN_POSE_ALIGN 32

enum { TDN_TX, TDN_TY, TDN_TZ, TDN_RX, TDN_RY, TDN_RZ, TDN_RW, TDN_SX, TDN_SY, TDN_SZ, TDN_POSE_ROWS };

typedef struct tdn_pose {
    int joint_count;
    int stride;              /* floats per row: joint_count rounded up to TDN_POSE_LANES */
    float *data;             /* TDN_POSE_ROWS * stride floats */
    tdn_allocator allocator; /* how data was allocated by tdn_pose_create; unused by tdn_pose_init */
    int owns_data;
} tdn_pose;

/* Row r (TDN_TX..TDN_SZ) of a pose. */
static inline float *tdn_pose_row(tdn_pose *pose, int row) { return pose->data + (size_t)row * (size_t)pose->stride; }
static inline const float *tdn_pose_crow(const tdn_pose *pose, int row)
{
    return pose->data + (size_t)row * (size_t)pose->stride;
}

/* Padded row length for joint_count joints. */
TDN_API int tdn_pose_stride(int joint_count);
/* Bytes of pose data a caller must provide to tdn_pose_init (aligned to TDN_POSE_ALIGN). */
TDN_API size_t tdn_pose_bytes(int joint_count);
/* Sets up `pose` over caller memory (TDN_POSE_ALIGN-aligned, at least tdn_pose_bytes bytes)
 * and fills it with identity transforms. TDN_ERR_ARGUMENT for NULL, a joint count out of
 * 1..TDN_MAX_JOINTS or misaligned memory; TDN_ERR_OUT_OF_MEMORY (`where` "bytes") when `bytes`
 * is too small, as for every init. */
TDN_API tdn_result tdn_pose_init(int joint_count, void *memory, size_t bytes, tdn_pose *pose, tdn_error *err);
/* Allocates pose data through `allocator` (NULL: malloc) and fills it with identities.
 * TDN_ERR_ARGUMENT for a NULL pose, a joint count out of 1..TDN_MAX_JOINTS or half-set
 * allocator hooks, TDN_ERR_OUT_OF_MEMORY when the allocator fails (the pose is then empty). */
TDN_API tdn_result tdn_pose_create(int joint_count, tdn_pose *pose, const tdn_allocator *allocator, tdn_error *err);
/* Frees what tdn_pose_create allocated; a pose from tdn_pose_init is only cleared. */
TDN_API void tdn_pose_destroy(tdn_pose *pose);

/* One joint's transform, read from or written into the pose's rows. A NULL pose or a joint out
 * of range gives the identity (get) or changes nothing (set). */
TDN_API tdn_transform tdn_pose_get(const tdn_pose *pose, int joint);
TDN_API void tdn_pose_set(tdn_pose *pose, int joint, const tdn_transform *x);
/* Every joint to identity (t = 0, r = identity, s = 1). */
TDN_API void tdn_pose_set_identity(tdn_pose *pose);
/* Every joint to the skeleton's rest pose; TDN_ERR_ARGUMENT if the joint counts differ. */
TDN_API tdn_result tdn_pose_set_rest(tdn_pose *pose, const struct tdn_skeleton *skeleton, tdn_error *err);
/* dst = src; TDN_ERR_ARGUMENT if the joint counts differ. */
TDN_API tdn_result tdn_pose_copy(tdn_pose *dst, const tdn_pose *src, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
