/* tendon: blending poses in local space.
 *
 * Per joint: translation and scale are lerped, rotations are blended along the shortest path
 * (each input's sign is flipped to agree with the first contributing input, the weighted sum
 * is renormalized: the standard weighted nlerp, exact slerp for two inputs at weights 0 and
 * 1). Per-joint weights (bone masks, feathering) multiply an input's weight joint by joint.
 * Additive poses are differences D = S * R^-1 (translation S.t - R.t, rotation S.r * R.r^-1,
 * scale S.s / R.s) applied to a target T as A = D * T scaled by a weight w: translation
 * T.t + w D.t, rotation slerp(identity, D.r, w) * T.r, scale T.s * lerp(1, D.s, w).
 * All functions are thread-safe for distinct outputs, never allocate, and accept an output
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
 * top, in one pass over the joints. Negative and NaN weights count as 0. Where a joint's
 * weights sum to (almost) zero it takes the first input's value (or `fallback` when given:
 * typically the rest pose). With no layers (layer_count 0) out = fallback. Additive inputs
 * are difference poses; their weight scales the difference. */
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
TDN_API tdn_result tdn_blend(const tdn_blend_job *job);

/* Two-pose cross-fade: out = a at w = 0, b at w = 1 (w clamped to [0, 1]; NaN counts as 0).
 * `joint_weights` (optional) scales w per joint. */
TDN_API tdn_result tdn_blend2(const tdn_pose *a, const tdn_pose *b, float w, const float *joint_weights,
                              tdn_pose *out);

/* The difference pose D = source * reference^-1 per joint. */
TDN_API tdn_result tdn_additive_make(const tdn_pose *source, const tdn_pose *reference, tdn_pose *out);
/* out = D * target with D scaled by weight (0: target, 1: the whole difference); joint_weights
 * optional. */
TDN_API tdn_result tdn_additive_apply(const tdn_pose *target, const tdn_pose *difference, float weight,
                                      const float *joint_weights, tdn_pose *out);

/* Poses as deltas from a base pose (for example the rest pose): the same difference as
 * tdn_additive_make, and its exact inverse. */
TDN_API tdn_result tdn_pose_to_delta(const tdn_pose *pose, const tdn_pose *base, tdn_pose *out);
TDN_API tdn_result tdn_pose_from_delta(const tdn_pose *delta, const tdn_pose *base, tdn_pose *out);

/* Bone masks: tdn_pose_stride(joint_count) floats, one weight per joint, padding 0. */
/* Every joint to `weight`. */
TDN_API void tdn_mask_fill(float *mask, int joint_count, float weight);
/* The subtree of `root` to `weight`, feathered over `blend_depth` levels: a joint d levels
 * below root gets weight * min(1, (d + 1) / (blend_depth + 1)), so 0 gives the whole subtree
 * full weight. Joints outside the subtree are left as they are. */
TDN_API tdn_result tdn_mask_set_subtree(const struct tdn_skeleton *skeleton, int root, float weight,
                                        int blend_depth, float *mask);
/* The named joints to `weight`; an unknown name is TDN_ERR_INVALID_DATA naming it (the mask is
 * then unchanged). */
TDN_API tdn_result tdn_mask_set_joints(const struct tdn_skeleton *skeleton, const char *const *names,
                                       int name_count, float weight, float *mask, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
