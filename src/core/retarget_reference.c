/* tendon core: the canonical reference pose a retarget relates two skeletons through (facing +Z,
 * up +Y, legs down, spine up, arms out sideways), built from any pose by turning mapped bones. */
#include "internal.h"
#include "pose_rotation.h"
#include "retarget_internal.h"
#include "tendon/retarget.h"

tdn_transform tdn__retarget_model_transform(const tdn_skeleton *skeleton, const tdn_pose *pose, int joint)
{
    tdn_transform x = tdn_pose_get(pose, joint);
    for (int a = tdn_skeleton_parent(skeleton, joint); a >= 0; a = tdn_skeleton_parent(skeleton, a)) {
        tdn_transform p = tdn_pose_get(pose, a);
        x = tdn_transform_mul(&p, &x);
    }
    return x;
}

static tdn_vec3 model_position(const tdn_skeleton *skeleton, const tdn_pose *pose, int joint)
{
    return tdn__retarget_model_transform(skeleton, pose, joint).t;
}

/* The least rotation taking direction `from` onto `to`; half a turn about `half_turn_axis`
 * (made perpendicular to `from`) when they are (nearly) opposite, where the least rotation has no axis. */
static tdn_quat swing(tdn_vec3 from, tdn_vec3 to, tdn_vec3 half_turn_axis)
{
    from = tdn_vec3_normalize(from);
    to = tdn_vec3_normalize(to);
    if (tdn_vec3_dot(from, to) < -0.9999f) {
        tdn_vec3 axis = tdn_vec3_sub(half_turn_axis, tdn_vec3_scale(from, tdn_vec3_dot(half_turn_axis, from)));
        tdn_quat half = tdn_quat_from_axis_angle(tdn_vec3_normalize(axis), TDN_PI);
        return tdn_quat_mul(tdn_quat_from_to(tdn_quat_rotate(half, from), to), half); /* and the rest of the way */
    }
    return tdn_quat_from_to(from, to);
}

/* Turns joint j in model space by `turn` about its own position (its subtree follows). */
static void turn_joint(const tdn_skeleton *skeleton, tdn_pose *pose, int j, tdn_quat turn)
{
    const int parent = tdn_skeleton_parent(skeleton, j);
    tdn_quat pm = parent >= 0 ? tdn__retarget_model_transform(skeleton, pose, parent).r : tdn_quat_identity();
    tdn_quat local_turn = tdn_quat_mul(tdn_quat_conjugate(pm), tdn_quat_mul(turn, pm));
    tdn__pose_set_rotation(pose, j, tdn_quat_normalize(tdn_quat_mul(local_turn, tdn__pose_rotation(pose, j))));
}

/* Points the bone from joint j to joint `end` along `dir`. An `end` that is not below j (an IK
 * target parented elsewhere, as RobotExpressive's feet) is taken where the rest pose has it in
 * j's frame: where the bone ends. */
static void point_bone(const tdn_skeleton *skeleton, tdn_pose *pose, int j, int end, tdn_vec3 dir,
                       tdn_vec3 half_turn_axis)
{
    if (j < 0 || end < 0)
        return;
    const tdn_transform at = tdn__retarget_model_transform(skeleton, pose, j);
    tdn_vec3 end_at;
    if (tdn_skeleton_is_in_subtree(skeleton, end, j)) {
        end_at = model_position(skeleton, pose, end);
    } else {
        end_at = tdn_transform_point(&at, tdn__retarget_rest_offset(skeleton, j, end));
    }
    tdn_vec3 bone = tdn_vec3_sub(end_at, at.t);
    if (tdn_vec3_length(bone) <= 0.0f)
        return;
    turn_joint(skeleton, pose, j, swing(bone, dir, half_turn_axis));
}

int tdn__retarget_axis(const tdn_body_map *map, int *joints)
{
    int n = 0;
    static const tdn_body_part axis_parts[] = { TDN_BODY_PART_SPINE, TDN_BODY_PART_NECK, TDN_BODY_PART_HEAD };
    for (size_t p = 0; p < sizeof axis_parts / sizeof axis_parts[0]; p++)
        for (int i = 0; i < map->parts[axis_parts[p]].joint_count; i++)
            joints[n++] = map->parts[axis_parts[p]].joints[i];
    return n;
}

/* Stands the hips up (the offset to the first spine, neck or head joint vertical, pointing the
 * way the body's top lies) and then turns them about +Y to face +Z. */
static void face_hips(const tdn_skeleton *skeleton, const tdn_body_map *map, tdn_pose *pose)
{
    const tdn_vec3 x = tdn_vec3_make(1.0f, 0.0f, 0.0f), y = tdn_vec3_make(0.0f, 1.0f, 0.0f);
    const int hips = tdn_body_map_joint(map, TDN_BODY_PART_HIPS);
    int axis[3 * TDN_BODY_MAP_MAX_CHAIN];
    const int n = tdn__retarget_axis(map, axis);
    if (n > 0) {
        tdn_vec3 h = tdn_vec3_sub(model_position(skeleton, pose, axis[0]), model_position(skeleton, pose, hips));
        tdn_vec3 top = tdn_vec3_sub(model_position(skeleton, pose, axis[n - 1]), model_position(skeleton, pose, hips));
        if (tdn_vec3_length(h) < 1e-3f * tdn_vec3_length(top))
            h = top; /* the first joint sits on the hips: the body's top gives the direction */
        else if (tdn_vec3_dot(h, top) < 0.0f)
            h = tdn_vec3_scale(h, -1.0f); /* a first spine joint below the hips (RobotExpressive) */
        if (tdn_vec3_length(h) > 0.0f)
            turn_joint(skeleton, pose, hips, swing(h, y, x));
    }
    tdn_vec3 right = tdn_vec3_sub(model_position(skeleton, pose, tdn_body_map_joint(map, TDN_BODY_PART_RIGHT_THIGH)),
                                  model_position(skeleton, pose, tdn_body_map_joint(map, TDN_BODY_PART_LEFT_THIGH)));
    right.y = 0.0f;
    if (tdn_vec3_length(right) > 0.0f)
        turn_joint(skeleton, pose, hips, swing(tdn_vec3_cross(y, right), tdn_vec3_make(0.0f, 0.0f, 1.0f), y));
}

static void point_arm(const tdn_skeleton *skeleton, const tdn_body_map *map, tdn_pose *pose, tdn_body_part clavicle,
                      float side)
{
    const tdn_vec3 out = tdn_vec3_make(side, 0.0f, 0.0f), y = tdn_vec3_make(0.0f, 1.0f, 0.0f);
    for (int k = 0; k < 3; k++) /* clavicle, upper arm, forearm; each towards the next part */
        point_bone(skeleton, pose, tdn_body_map_joint(map, (tdn_body_part)(clavicle + k)),
                   tdn_body_map_joint(map, (tdn_body_part)(clavicle + k + 1)), out, y);
}

static void point_leg(const tdn_skeleton *skeleton, const tdn_body_map *map, tdn_pose *pose, tdn_body_part thigh)
{
    const tdn_vec3 down = tdn_vec3_make(0.0f, -1.0f, 0.0f), x = tdn_vec3_make(1.0f, 0.0f, 0.0f);
    for (int k = 0; k < 2; k++) /* thigh, shin */
        point_bone(skeleton, pose, tdn_body_map_joint(map, (tdn_body_part)(thigh + k)),
                   tdn_body_map_joint(map, (tdn_body_part)(thigh + k + 1)), down, x);
}

/* Puts a foot (hand) that is not below its shin (forearm) at the end of it, where the rest pose
 * has it in the shin's frame. */
static void place_detached_end(const tdn_skeleton *skeleton, const tdn_body_map *map, tdn_pose *pose,
                               tdn_body_part end_part)
{
    const int end = tdn_body_map_joint(map, end_part), leader = tdn_body_map_joint(map, (tdn_body_part)(end_part - 1));
    if (end < 0 || leader < 0 || tdn_skeleton_is_in_subtree(skeleton, end, leader))
        return;
    const tdn_transform at = tdn__retarget_model_transform(skeleton, pose, leader);
    tdn_vec3 t = tdn_transform_point(&at, tdn__retarget_rest_offset(skeleton, leader, end));
    const int parent = tdn_skeleton_parent(skeleton, end);
    if (parent >= 0) {
        const tdn_transform parent_at = tdn__retarget_model_transform(skeleton, pose, parent);
        const tdn_transform into_parent = tdn_transform_inverse(&parent_at);
        t = tdn_transform_point(&into_parent, t);
    }
    tdn_pose_row(pose, TDN_TX)[end] = t.x;
    tdn_pose_row(pose, TDN_TY)[end] = t.y;
    tdn_pose_row(pose, TDN_TZ)[end] = t.z;
}

tdn_result tdn_retarget_reference_pose(const tdn_skeleton *skeleton, const tdn_body_map *map, const tdn_pose *pose,
                                       tdn_pose *out, tdn_error *err)
{
    if (!skeleton)
        return tdn__null(err, "skeleton");
    if (!map)
        return tdn__null(err, "map");
    if (!out || !out->data)
        return tdn__null(err, "out");
    const int joints = tdn_skeleton_joint_count(skeleton);
    if (out->joint_count != joints)
        return tdn__pose_size(err, "out", out->joint_count, joints, "the skeleton");
    if (pose && pose->joint_count != joints)
        return tdn__pose_size(err, "pose", pose->joint_count, joints, "the skeleton");
    tdn_result r = tdn_body_map_check(skeleton, map, err);
    if (r != TDN_OK)
        return r;
    r = pose ? tdn_pose_copy(out, pose, err) : tdn_pose_set_rest(out, skeleton, err);
    if (r != TDN_OK)
        return r;

    face_hips(skeleton, map, out);
    int axis[3 * TDN_BODY_MAP_MAX_CHAIN];
    const int n = tdn__retarget_axis(map, axis);
    for (int i = 0; i + 1 < n; i++)
        point_bone(skeleton, out, axis[i], axis[i + 1], tdn_vec3_make(0.0f, 1.0f, 0.0f),
                   tdn_vec3_make(1.0f, 0.0f, 0.0f));
    point_arm(skeleton, map, out, TDN_BODY_PART_LEFT_CLAVICLE, 1.0f);
    point_arm(skeleton, map, out, TDN_BODY_PART_RIGHT_CLAVICLE, -1.0f);
    point_leg(skeleton, map, out, TDN_BODY_PART_LEFT_THIGH);
    point_leg(skeleton, map, out, TDN_BODY_PART_RIGHT_THIGH);
    for (int l = 0; l < TDN_RETARGET_LIMB_COUNT; l++)
        place_detached_end(skeleton, map, out, tdn__retarget_limb_end[l]);
    return TDN_OK;
}
