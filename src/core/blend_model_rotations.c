/* tendon core: blending two poses with rotations in model space (for layers that must hold a
 * direction in the world, such as an upper-body aim over turning hips): translations and scales
 * lerp in local space as in tdn_blend2; each joint's model-space rotation is the nlerp (short
 * path) of the two poses' model-space rotations by its weight, then turned back into a local
 * rotation against the parent's blended model rotation. */
#include "graph_internal.h"
#include "internal.h"
#include "pose_rotation.h"

/* Replaces a pose's local rotations by model-space ones (parents come first). */
static void to_model_rotations(const int16_t *parents, tdn_pose *p)
{
    for (int j = 0; j < p->joint_count; j++)
        if (parents[j] >= 0)
            tdn__pose_set_rotation(p, j, tdn_quat_mul(tdn__pose_rotation(p, parents[j]), tdn__pose_rotation(p, j)));
}

void tdn__blend2_model_rotations(const tdn_skeleton *skeleton, const tdn_pose *a, const tdn_pose *b, float w,
                                 const float *joint_weights, tdn_pose *scratch_a, tdn_pose *scratch_b, tdn_pose *out)
{
    const int16_t *parents = tdn_skeleton_parents(skeleton);
    tdn_pose_copy(scratch_a, a, NULL);
    tdn_pose_copy(scratch_b, b, NULL);
    to_model_rotations(parents, scratch_a);
    to_model_rotations(parents, scratch_b);
    tdn_blend2(a, b, w, joint_weights, out, NULL); /* translations and scales, and rotations replaced below */
    w = tdn__clamp01(w);
    for (int j = 0; j < out->joint_count; j++) {
        float wj = joint_weights ? w * tdn__clamp01(joint_weights[j]) : w;
        tdn__pose_set_rotation(out, j,
                               tdn_quat_nlerp(tdn__pose_rotation(scratch_a, j), tdn__pose_rotation(scratch_b, j), wj));
    }
    /* Back to local, children first so every parent's model rotation is still there. */
    for (int j = out->joint_count - 1; j >= 0; j--)
        if (parents[j] >= 0)
            tdn__pose_set_rotation(
                out, j,
                tdn_quat_normalize(
                    tdn_quat_mul(tdn_quat_conjugate(tdn__pose_rotation(out, parents[j])), tdn__pose_rotation(out, j))));
}
