/* tendon CLI: a skeleton's feet found by their names, for the commands that measure or match
 * feet without being told which joints they are (tendon run's foot skate, tendon mm build). */
#ifndef TENDON_FEET_BY_NAME_H
#define TENDON_FEET_BY_NAME_H

#include "tendon/tendon.h"

/* The feet by name, case and separators ignored and anything up to a ':' dropped: an ankle
 * (LeftAnkle, lAnkle, L_Ankle, ankle_l, AnkleLeft) else a foot (LeftFoot, left_foot, foot_l,
 * l_foot, Foot.L, mixamorig:LeftFoot), each by the whole name, else by its end (Bip01 L Foot,
 * Character1_LeftFoot, DEF-foot.L); a rig naming both calls its toes the foot. The first match
 * in skeleton order of the first kind found into *left and *right (-1 when none); 1 when both
 * are found. */
int feet_by_name(const tdn_skeleton *skel, int *left, int *right);

#endif
