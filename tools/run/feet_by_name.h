/* tendon CLI: a skeleton's feet (and hands) found by their names, for the commands that measure
 * or match feet without being told which joints they are (tendon run's foot skate, tendon mm
 * build), and find a take's calibration pose by its arms (calibration_pose.h). */
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
/* The hands the same way: a wrist (LeftWrist, lWrist, L_Wrist, wrist_l) else a hand (LeftHand,
 * hand_l, l_hand, Hand.L, mixamorig:LeftHand, Bip01 L Hand, Character1_LeftHand). */
int hands_by_name(const tdn_skeleton *skel, int *left, int *right);

#endif
