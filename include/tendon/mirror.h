/* tendon: mirroring poses left to right.
 *
 * A mirror table gives each joint its partner (the joint on the other side; a centre joint is
 * its own partner). Mirroring a pose gives joint j the reflection of its partner's local
 * transform across the x = 0 plane: translation (-x, y, z), rotation (x, -y, -z, w) (the
 * reflected rotation, a proper rotation again), scale unchanged. That is the mirror of the whole
 * character across its x = 0 plane when the skeleton's rest frames are themselves mirror images
 * (left and right joints' local frames reflections of each other, centre joints' frames on
 * the plane), as in tendon's generated humanoid and in rigs built with identity joint
 * orientations. Rigs whose left and right frames are not reflections need a per-joint frame
 * correction that these functions do not make. */
#ifndef TENDON_MIRROR_H
#define TENDON_MIRROR_H

#include "base.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills `table` (joint_count ints) by joint names: a name with a left marker is paired with the
 * same name with the right marker, and back. Markers, matched case-sensitively as whole parts
 * of the name: suffixes "_l"/"_r", "_L"/"_R", ".l"/".r", ".L"/".R"; prefixes "l_"/"r_",
 * "L_"/"R_", "Left"/"Right", "left"/"right"; and "Left"/"Right" anywhere (as in mixamorig:
 * LeftArm). A joint with no partner is its own. TDN_ERR_ARGUMENT for NULL. */
TDN_API tdn_result tdn_mirror_table_from_names(const tdn_skeleton *skeleton, int *table, tdn_error *err);

/* Checks a table: every entry in range and partners paired both ways (table[table[j]] == j).
 * TDN_ERR_INVALID_DATA names the first joint that is not. */
TDN_API tdn_result tdn_mirror_table_check(const int *table, int joint_count, tdn_error *err);

/* out = the mirror of `pose` through `table` (a checked table); out may be pose. Never
 * allocates; thread-safe for distinct outputs. TDN_ERR_ARGUMENT for NULL or mismatched joint
 * counts. */
TDN_API tdn_result tdn_pose_mirror(const tdn_pose *pose, const int *table, tdn_pose *out, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
