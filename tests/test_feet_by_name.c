/* The CLI's feet and hands found by name (tools/run/feet_by_name.c), which tendon run's foot skate
 * and tendon mm build (its feet, and the arms of a calibration pose) use: tables of naming
 * conventions, each a skeleton whose left and right joints are known, with decoys that must not
 * be taken (toes, fingers, IK controls, the other side). */
#include <string.h>

#include "check.h"
#include "feet_by_name.h"

typedef struct rig_case {
    const char *convention;
    const char *names[8];     /* joints after the root "hips", all its children; NULL ends */
    const char *left, *right; /* the expected joints, NULL: not found */
} rig_case;

static const rig_case foot_cases[] = {
    { "CMU / LAFAN1 BVH",
      { "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase", "RightUpLeg", "RightLeg", "RightFoot" },
      "LeftFoot",
      "RightFoot" },
    { "snake case, side first", { "l_thigh", "l_foot", "l_toe", "r_thigh", "r_foot" }, "l_foot", "r_foot" },
    { "snake case, side last (UE)",
      { "thigh_l", "calf_l", "foot_l", "ball_l", "foot_r", "ball_r" },
      "foot_l",
      "foot_r" },
    { "Blender", { "Thigh.L", "Foot.L", "Toe.L", "Foot.R", "Toe.R" }, "Foot.L", "Foot.R" },
    { "Rigify deform bones",
      { "DEF-thigh.L", "DEF-foot.L", "DEF-toe.L", "DEF-foot.R", "DEF-toe.R" },
      "DEF-foot.L",
      "DEF-foot.R" },
    { "Mixamo",
      { "mixamorig:LeftUpLeg", "mixamorig:LeftFoot", "mixamorig:LeftToeBase", "mixamorig:RightFoot" },
      "mixamorig:LeftFoot",
      "mixamorig:RightFoot" },
    { "3ds Max biped",
      { "Bip01 L Thigh", "Bip01 L Foot", "Bip01 L Toe0", "Bip01 R Foot", "Bip01 R Toe0" },
      "Bip01 L Foot",
      "Bip01 R Foot" },
    { "Character prefix",
      { "Character1_LeftFoot", "Character1_RightFoot" },
      "Character1_LeftFoot",
      "Character1_RightFoot" },
    { "VRM",
      { "J_Bip_L_UpperLeg", "J_Bip_L_Foot", "J_Bip_L_ToeBase", "J_Bip_R_Foot" },
      "J_Bip_L_Foot",
      "J_Bip_R_Foot" },
    { "ankle, camel case", { "LeftKnee", "LeftAnkle", "RightKnee", "RightAnkle" }, "LeftAnkle", "RightAnkle" },
    { "ankle, side letter first", { "lKnee", "lAnkle", "rKnee", "rAnkle" }, "lAnkle", "rAnkle" },
    { "ankle, side letter and underscore", { "L_Knee", "L_Ankle", "R_Knee", "R_Ankle" }, "L_Ankle", "R_Ankle" },
    { "ankle, side last", { "ankle_l", "ankle_r" }, "ankle_l", "ankle_r" },
    { "ankle, Kinect", { "KneeLeft", "AnkleLeft", "KneeRight", "AnkleRight" }, "AnkleLeft", "AnkleRight" },
    /* a rig with ankles and feet (SMPL, Kinect): its foot joints are at the toes, the ankle is
     * the joint the others call the foot */
    { "SMPL", { "L_Knee", "L_Ankle", "L_Foot", "R_Knee", "R_Ankle", "R_Foot" }, "L_Ankle", "R_Ankle" },
    { "Kinect", { "AnkleLeft", "FootLeft", "AnkleRight", "FootRight" }, "AnkleLeft", "AnkleRight" },
    /* decoys: toes, IK controls, other words ending in the letters */
    { "IK controls only", { "LeftFootIK", "RightFootIK", "LeftFootIndex1" }, NULL, NULL },
    { "one side", { "LeftFoot", "LeftToeBase" }, "LeftFoot", NULL },
    { "no feet", { "spine", "neck", "head", "bigfoot" }, NULL, NULL },
};

static const rig_case hand_cases[] = {
    { "CMU / LAFAN1 BVH",
      { "LeftArm", "LeftForeArm", "LeftHand", "LeftHandIndex1", "RightForeArm", "RightHand" },
      "LeftHand",
      "RightHand" },
    { "UE", { "lowerarm_l", "hand_l", "index_01_l", "hand_r" }, "hand_l", "hand_r" },
    { "Mixamo",
      { "mixamorig:LeftHand", "mixamorig:LeftHandThumb1", "mixamorig:RightHand" },
      "mixamorig:LeftHand",
      "mixamorig:RightHand" },
    { "Blender", { "Hand.L", "Hand.R" }, "Hand.L", "Hand.R" },
    { "3ds Max biped", { "Bip01 L Hand", "Bip01 L Finger0", "Bip01 R Hand" }, "Bip01 L Hand", "Bip01 R Hand" },
    /* a wrist first: the CMU 3ds Max rig's LeftWrist has a child lhand, SMPL's L_Wrist an L_Hand */
    { "CMU 3ds Max", { "LeftElbow", "LeftWrist", "lhand", "RightWrist", "rhand" }, "LeftWrist", "RightWrist" },
    { "SMPL", { "L_Elbow", "L_Wrist", "L_Hand", "R_Wrist", "R_Hand" }, "L_Wrist", "R_Wrist" },
    { "games105", { "lElbow", "lWrist", "rWrist" }, "lWrist", "rWrist" },
    { "no hands", { "LeftHandIK", "handle", "RightHandIndex1" }, NULL, NULL },
};

static void check_table(const rig_case *cases, size_t count, int (*find)(const tdn_skeleton *, int *, int *))
{
    for (size_t k = 0; k < count; k++) {
        const rig_case *c = &cases[k];
        const char *names[9] = { "hips" };
        int parents[9] = { -1 }, n = 1;
        for (; n < 9 && c->names[n - 1]; n++) {
            names[n] = c->names[n - 1];
            parents[n] = 0;
        }
        tdn_skeleton_desc desc = { .joint_count = n, .names = names, .parents = parents };
        tdn_skeleton *skel = NULL;
        if (!CHECK(tdn_skeleton_create(&desc, &skel, NULL, NULL) == TDN_OK))
            continue;
        int left = -2, right = -2;
        const int both = find(skel, &left, &right);
        const int want_left = c->left ? tdn_skeleton_find_joint(skel, c->left) : -1;
        const int want_right = c->right ? tdn_skeleton_find_joint(skel, c->right) : -1;
        int ok = CHECK_EQ_INT(left, want_left) & CHECK_EQ_INT(right, want_right);
        ok &= CHECK_EQ_INT(both, c->left && c->right);
        if (!ok)
            fprintf(stderr, "%s: found %s and %s\n", c->convention, left >= 0 ? names[left] : "none",
                    right >= 0 ? names[right] : "none");
        tdn_skeleton_destroy(skel);
    }
}

static void feet(void) { check_table(foot_cases, sizeof foot_cases / sizeof foot_cases[0], feet_by_name); }
static void hands(void) { check_table(hand_cases, sizeof hand_cases / sizeof hand_cases[0], hands_by_name); }

int main(void)
{
    RUN(feet);
    RUN(hands);
    return check_summary();
}
