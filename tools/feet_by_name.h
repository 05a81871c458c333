/* tendon CLI: a skeleton's feet found by their names, for the commands that measure or match
 * feet without being told which joints they are (tendon run's foot skate, tendon mm build). */
#ifndef TENDON_FEET_BY_NAME_H
#define TENDON_FEET_BY_NAME_H

#include "tendon/tendon.h"

/* The feet by name: LeftFoot/RightFoot, left_foot/right_foot, foot_l/foot_r, l_foot, Foot.L,
 * L_Foot... (case and separators ignored, anything up to a ':' dropped: mixamorig:LeftFoot),
 * else a name ending so (Bip01 L Foot, Character1_LeftFoot). The first
 * match in skeleton order into *left and *right (-1 when none); 1 when both are found. */
int feet_by_name(const tdn_skeleton *skel, int *left, int *right);

#endif
