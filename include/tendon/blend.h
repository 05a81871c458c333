/* tendon: blending poses in local space.
 *
 * Per joint: translation and scale are lerped, rotations are blended along the shortest path
 * (each input's sign is flipped to agree with the weighted sum of the inputs before it, so the
 * first contributing input sets the hemisphere and the sum never cancels; the sum is
 * renormalized: the standard weighted nlerp, equal to slerp at weights 0 and 1 and at the
 * midpoint of two inputs). Per-joint weights (bone masks, feathering) are clamped to [0, 1]
 * and multiply an input's weight joint by joint.
 * Additive poses are differences D = S * R^-1 (translation S.t - R.t, rotation S.r * R.r^-1,
 * scale S.s / R.s) applied to a target T as A = D * T scaled by a weight w: translation
 * T.t + w D.t, rotation nlerp(identity, D.r, w) * T.r (short path), scale T.s * lerp(1, D.s, w),
 * with w clamped to [0, 1]. Output rotations are unit; one that comes out of zero length (from
 * zero input quaternions) is the identity. All functions make one pass over the joints (chunk
 * by chunk: every layer and additive is applied while a chunk is in cache), are thread-safe
 * for distinct outputs, never allocate (they use about 10 KB of stack), and accept an output
 * that is also one of the inputs. */
#ifndef TENDON_BLEND_H
#define TENDON_BLEND_H

#include "base.h"
#include "pose.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tdn_skeleton;

/* One weighted input of a blend. `joint_weights` (optional) holds a weight per joint in [0, 1]
 * (a mask, tdn_pose_stride floats), multiplying `weight`. */
typedef struct tdn_blend_input {
    const tdn_pose *pose;
    float weight;
    const float *joint_weights;
} tdn_blend_input;

/* out = the normalized weighted blend of the inputs, then every additive applied in order on
 * top, in one pass over the joints. Layer weights may have any positive size (they are
 * normalized per joint); negative, NaN and infinite weights count as 0, and a layer whose
 * weight is 0 is not read. Where a joint's weights sum to (almost) zero (below 1e-6) it takes
 * the first input's value (or `fallback` when given: typically the rest pose). With no layers
 * (layer_count 0) out = fallback. Additive inputs are difference poses; their weight, clamped
 * to [0, 1] (NaN: 0), scales the difference. */
typedef struct tdn_blend_job {
    const tdn_blend_input *layers;
    int layer_count;
    const tdn_blend_input *additives;
    int additive_count;
    const tdn_pose *fallback;
    tdn_pose *out;
} tdn_blend_job;

/* Runs a blend job. TDN_ERR_ARGUMENT for NULL poses, mismatched joint counts or no layer and
 * no fallback. */
TDN_API tdn_result tdn_blend(const tdn_blend_job *job, tdn_error *err);

/* Two-pose cross-fade: out = a at w = 0, b at w = 1 (w clamped to [0, 1]; NaN counts as 0).
 * `joint_weights` (optional) scales the clamped w per joint. */
TDN_API tdn_result tdn_blend2(const tdn_pose *a, const tdn_pose *b, float w, const float *joint_weights, tdn_pose *out,
                              tdn_error *err);

/* The difference pose D = source * reference^-1 per joint. Where a reference scale is 0 the
 * scale difference is 1 (there is no ratio to take). */
TDN_API tdn_result tdn_additive_difference(const tdn_pose *source, const tdn_pose *reference, tdn_pose *out,
                                           tdn_error *err);
/* out = D * target with D scaled by weight (0: target, 1: the whole difference; clamped to
 * [0, 1], NaN counts as 0); joint_weights (optional) scales the clamped weight per joint. */
TDN_API tdn_result tdn_additive_apply(const tdn_pose *target, const tdn_pose *difference, float weight,
                                      const float *joint_weights, tdn_pose *out, tdn_error *err);

/* Poses as deltas from a base pose (for example the rest pose): the same difference as
 * tdn_additive_difference, and its exact inverse. */
TDN_API tdn_result tdn_pose_to_delta(const tdn_pose *pose, const tdn_pose *base, tdn_pose *out, tdn_error *err);
TDN_API tdn_result tdn_pose_from_delta(const tdn_pose *delta, const tdn_pose *base, tdn_pose *out, tdn_error *err);

/* Bone masks: tdn_pose_stride(joint_count) floats, one weight per joint, padding 0. Weights
 * written by these functions are clamped to [0, 1]. */
/* Every joint to `weight` (NaN: 0) and the padding to 0. Does nothing for a NULL mask or a
 * joint count out of 1..TDN_MAX_JOINTS. */
TDN_API void tdn_mask_fill(float *mask, int joint_count, float weight);
/* The subtree of `root` to `weight`, feathered over `blend_depth` levels: a joint d levels
 * below root gets weight * min(1, (d + 1) / (blend_depth + 1)), so 0 gives the whole subtree
 * full weight. Joints outside the subtree are left as they are. TDN_ERR_ARGUMENT for NULL, a
 * root out of range, a negative blend_depth or a NaN weight. */
TDN_API tdn_result tdn_mask_set_subtree(float *mask, const struct tdn_skeleton *skeleton, int root, float weight,
                                        int blend_depth, tdn_error *err);
/* The named joints to `weight`; an unknown name is TDN_ERR_INVALID_DATA naming it (the mask is
 * then unchanged). TDN_ERR_ARGUMENT for NULL pointers (a NULL name included), a negative count
 * or a NaN weight. */
TDN_API tdn_result tdn_mask_set_joints(float *mask, const struct tdn_skeleton *skeleton, const char *const *names,
                                       int name_count, float weight, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
