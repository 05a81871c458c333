/* tendon: model space and the matrix palette.
 *
 * Model space is computed in one forward pass over the parent-first joints:
 * model[j] = model[parent(j)] * local(j), with local(j) = T * R * S of the pose's joint j and
 * roots multiplied by an optional root matrix (the character's placement in the world).
 * The palette is model[j] * inverse_bind[j], the matrices a skinning shader wants. Matrices are
 * tdn_mat4, column-major. Thread-safe for distinct outputs; never allocates. */
#ifndef TENDON_MODEL_SPACE_H
#define TENDON_MODEL_SPACE_H

#include "base.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* model (joint_count matrices) from a local pose. `root` (affine) may be NULL (identity).
 * These functions never allocate; each returns TDN_ERR_ARGUMENT (nothing written) for a NULL
 * skeleton, pose or matrix array, or a pose whose joint count is not the skeleton's, and
 * tdn_model_space_range for a range that is not within the joints. */
TDN_API tdn_result tdn_model_space(const tdn_skeleton *skeleton, const tdn_pose *pose, const tdn_mat4 *root,
                                   tdn_mat4 *model, tdn_error *err);
/* Recomputes model[begin..end) only, reading model[] of their parents, for example one
 * subtree [j, tdn_skeleton_subtree_end(j)) after IK changed j. */
TDN_API tdn_result tdn_model_space_range(const tdn_skeleton *skeleton, const tdn_pose *pose, const tdn_mat4 *root,
                                         int begin, int end, tdn_mat4 *model, tdn_error *err);
/* palette[j] = model[j] * inverse_bind[j] for every joint. Both are taken as affine (last row
 * 0 0 0 1), as model space from an affine root and a skeleton's inverse binds always are;
 * palette may be model itself (computed in place). */
TDN_API tdn_result tdn_palette(const tdn_skeleton *skeleton, const tdn_mat4 *model, tdn_mat4 *palette, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
