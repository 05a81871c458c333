/* tendon core: what the retarget's reference poses, its definition and the graph instances that
 * retarget their output share (not installed). */
#ifndef TENDON_RETARGET_INTERNAL_H
#define TENDON_RETARGET_INTERNAL_H

#include "tendon/body_map.h"
#include "tendon/pose.h"
#include "tendon/retarget.h"
#include "tendon/skeleton.h"

/* Joint j's model transform in `pose`, its ancestors composed (for set-up, not per frame). */
tdn_transform tdn__retarget_model_transform(const tdn_skeleton *skeleton, const tdn_pose *pose, int joint);
/* The body's axis, hips excluded: the spine's, the neck's and the head's joints in order, into
 * `joints` (3 * TDN_BODY_MAP_MAX_CHAIN ints); returns their count. */
int tdn__retarget_axis(const tdn_body_map *map, int *joints);

/* The joint counts of the poses a retarget reads and writes (its source's and its target's
 * skeleton), for the graph instances that retarget their output (graph_retarget.c). */
int tdn__retarget_source_joint_count(const tdn_retarget *retarget);
int tdn__retarget_target_joint_count(const tdn_retarget *retarget);

#endif
