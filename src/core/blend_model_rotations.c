/* tendon core: blending two poses with rotations in model space (for layers that must hold a
 * direction in the world, such as an upper-body aim over turning hips): translations and scales
 * lerp in local space as in tdn_blend2; each joint's model-space rotation is the nlerp (short
 * path) of the two poses' model-space rotations by its weight, then turned back into a local
 * rotation against the parent's blended model rotation. */
#include "graph_internal.h"
#include "internal.h"

static tdn_quat row_quat(const tdn_pose *p, int j)
{
    return tdn_quat_make(tdn_pose_crow(p, TDN_RX)[j], tdn_pose_crow(p, TDN_RY)[j], tdn_pose_crow(p, TDN_RZ)[j],
                         tdn_pose_crow(p, TDN_RW)[j]);
}

static void set_row_quat(tdn_pose *p, int j, tdn_quat q)
{
    tdn_pose_row(p, TDN_RX)[j] = q.x, tdn_pose_row(p, TDN_RY)[j] = q.y;
    tdn_pose_row(p, TDN_RZ)[j] = q.z, tdn_pose_row(p, TDN_RW)[j] = q.w;
}

/* Replaces a pose's local rotations by model-space ones (parents come first). */
static void to_model_rotations(const int16_t *parents, tdn_pose *p)
{
    for (int j = 0; j < p->joint_count; j++)
        if (parents[j] >= 0)
            set_row_quat(p, j, tdn_quat_mul(row_quat(p, parents[j]), row_quat(p, j)));
}

void tdn__blend2_model_rotations(const tdn_skeleton *skeleton, const tdn_pose *a, const tdn_pose *b, float w,
                                 const float *joint_weights, tdn_pose *scratch_a, tdn_pose *scratch_b, tdn_pose *out)
{
    const int16_t *parents = tdn_skeleton_parents(skeleton);
    tdn_pose_copy(scratch_a, a);
    tdn_pose_copy(scratch_b, b);
    to_model_rotations(parents, scratch_a);
    to_model_rotations(parents, scratch_b);
    tdn_blend2(a, b, w, joint_weights, out); /* translations and scales, and rotations replaced below */
    w = tdn__clamp01(w);
    for (int j = 0; j < out->joint_count; j++) {
        float wj = joint_weights ? w * tdn__clamp01(joint_weights[j]) : w;
        set_row_quat(out, j, tdn_quat_nlerp(row_quat(scratch_a, j), row_quat(scratch_b, j), wj));
    }
    /* Back to local, children first so every parent's model rotation is still there. */
    for (int j = out->joint_count - 1; j >= 0; j--)
        if (parents[j] >= 0)
            set_row_quat(out, j,
                         tdn_quat_normalize(tdn_quat_mul(tdn_quat_conjugate(row_quat(out, parents[j])), row_quat(out, j))));
}
