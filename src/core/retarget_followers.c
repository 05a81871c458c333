/* tendon core: the retarget's followers, feet (hands) that are not below their shins (forearms)
 * in the target's skeleton, as in rigs whose feet are IK targets parented to the root. Turning
 * the leg moves no such foot: it is put each frame where the rest pose has it in the frame of
 * its shin. */
#include "retarget_internal.h"

const tdn_body_part tdn__retarget_limb_end[TDN_RETARGET_LIMB_COUNT] = {
    TDN_BODY_PART_LEFT_FOOT, TDN_BODY_PART_RIGHT_FOOT, TDN_BODY_PART_LEFT_HAND, TDN_BODY_PART_RIGHT_HAND
};

tdn_vec3 tdn__retarget_rest_offset(const tdn_skeleton *skeleton, int leader, int joint)
{
    /* at rest, where an IK target sits at the end of its limb */
    const tdn_transform at = tdn__retarget_rest_transform(skeleton, leader);
    const tdn_transform into_leader = tdn_transform_inverse(&at);
    return tdn_transform_point(&into_leader, tdn__retarget_rest_transform(skeleton, joint).t);
}

tdn_transform tdn__retarget_along(const tdn_pose *pose, const int *path, int count)
{
    tdn_transform x = tdn_transform_identity();
    for (int i = 0; i < count; i++) {
        const tdn_transform local = tdn_pose_get(pose, path[i]);
        x = i == 0 ? local : tdn_transform_mul(&x, &local);
    }
    return x;
}

int tdn__retarget_fill_followers(tdn_retarget *rt, const tdn_retarget_desc *desc, int used)
{
    const tdn_skeleton *ts = desc->target.skeleton;
    const tdn_body_map *tmap = desc->target.map;
    const int start = used;
    for (int l = 0; l < TDN_RETARGET_LIMB_COUNT; l++) {
        const int joint = tdn_body_map_joint(tmap, tdn__retarget_limb_end[l]);
        const int leader = tdn_body_map_joint(tmap, (tdn_body_part)(tdn__retarget_limb_end[l] - 1));
        if (joint < 0 || leader < 0 || tdn_skeleton_is_in_subtree(ts, joint, leader))
            continue;
        const int parent = tdn_skeleton_parent(ts, joint);
        const int leader_count = tdn__retarget_path(ts, -1, leader, rt ? rt->path + used : NULL);
        const int parent_count = parent < 0
                                     ? 0
                                     : tdn__retarget_path(ts, -1, parent, rt ? rt->path + used + leader_count : NULL);
        if (rt) {
            tdn__retarget_follower *f = &rt->followers[rt->follower_count++];
            f->joint = joint;
            f->leader_path_begin = used;
            f->leader_path_count = leader_count;
            f->parent_path_begin = used + leader_count;
            f->parent_path_count = parent_count;
            f->offset = tdn__retarget_rest_offset(ts, leader, joint);
        }
        used += leader_count + parent_count;
    }
    return used - start;
}

void tdn__retarget_place_followers(const tdn_retarget *rt, tdn_pose *pose)
{
    for (int k = 0; k < rt->follower_count; k++) {
        const tdn__retarget_follower *f = &rt->followers[k];
        const tdn_transform leader = tdn__retarget_along(pose, rt->path + f->leader_path_begin, f->leader_path_count);
        const tdn_transform parent = tdn__retarget_along(pose, rt->path + f->parent_path_begin, f->parent_path_count);
        const tdn_transform into_parent = tdn_transform_inverse(&parent);
        const tdn_vec3 t = tdn_transform_point(&into_parent, tdn_transform_point(&leader, f->offset));
        tdn_pose_row(pose, TDN_TX)[f->joint] = t.x;
        tdn_pose_row(pose, TDN_TY)[f->joint] = t.y;
        tdn_pose_row(pose, TDN_TZ)[f->joint] = t.z;
    }
}
