/* tendon core: bone masks (a weight per joint, multiplying a blend input's weight). */
#include <stdio.h>

#include "internal.h"
#include "tendon/blend.h"
#include "tendon/skeleton.h"

void tdn_mask_fill(float *mask, int joint_count, float weight)
{
    if (!mask || joint_count < 1 || joint_count > TDN_MAX_JOINTS)
        return;
    weight = tdn__clamp01(weight);
    int stride = tdn_pose_stride(joint_count);
    for (int j = 0; j < stride; j++)
        mask[j] = j < joint_count ? weight : 0.0f;
}

tdn_result tdn_mask_set_subtree(float *mask, const tdn_skeleton *skeleton, int root, float weight, int blend_depth,
                                tdn_error *err)
{
    if (!skeleton)
        return tdn__null(err, "skeleton");
    if (!mask)
        return tdn__null(err, "mask");
    if (root < 0 || root >= tdn_skeleton_joint_count(skeleton))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "root", "joint %d is not within 0..%d", root,
                         tdn_skeleton_joint_count(skeleton) - 1);
    if (blend_depth < 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "blend_depth", "%d is negative", blend_depth);
    if (isnan(weight))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "weight", "the weight is NaN");
    weight = tdn__clamp01(weight);
    int end = tdn_skeleton_subtree_end(skeleton, root);
    int root_depth = tdn_skeleton_depth(skeleton, root);
    for (int j = root; j < end; j++) {
        int d = tdn_skeleton_depth(skeleton, j) - root_depth;
        /* the ramp reaches full weight at d = blend_depth */
        mask[j] = d >= blend_depth ? weight : weight * (float)(d + 1) / (float)(blend_depth + 1);
    }
    return TDN_OK;
}

tdn_result tdn_mask_set_joints(float *mask, const tdn_skeleton *skeleton, const char *const *names, int name_count,
                               float weight, tdn_error *err)
{
    if (!mask || !skeleton || (name_count > 0 && !names))
        return tdn__null(err, !mask ? "mask" : !skeleton ? "skeleton" : "names");
    if (name_count < 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "name_count", "%d is negative", name_count);
    if (isnan(weight))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "weight", "is NaN");
    /* Every name is checked before anything is written, so a failure leaves the mask as it was. */
    for (int i = 0; i < name_count; i++) {
        if (!names[i])
            return tdn__fail(err, TDN_ERR_ARGUMENT, "names", "name %d is NULL", i);
        if (tdn_skeleton_find_joint(skeleton, names[i]) < 0) {
            char where[96];
            snprintf(where, sizeof where, "mask name %d '%.60s'", i, names[i]);
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "no joint named '%.60s' in the skeleton", names[i]);
        }
    }
    weight = tdn__clamp01(weight);
    for (int i = 0; i < name_count; i++)
        mask[tdn_skeleton_find_joint(skeleton, names[i])] = weight;
    return TDN_OK;
}
