/* tendon core: what the retarget's reference poses and its definition share (not installed). */
#ifndef TENDON_RETARGET_INTERNAL_H
#define TENDON_RETARGET_INTERNAL_H

#include "tendon/body_map.h"
#include "tendon/pose.h"
#include "tendon/skeleton.h"

/* Joint j's model transform in `pose`, its ancestors composed (for set-up, not per frame). */
tdn_transform tdn__retarget_model_transform(const tdn_skeleton *skeleton, const tdn_pose *pose, int joint);
/* The body's axis, hips excluded: the spine's, the neck's and the head's joints in order, into
 * `joints` (3 * TDN_BODY_MAP_MAX_CHAIN ints); returns their count. */
int tdn__retarget_axis(const tdn_body_map *map, int *joints);

#endif
