/* The body map (tdn_body_map_find): on every humanoid of the shared data, each part's joints
 * are the ones the survey of those files names (written here by hand, per convention); the
 * non-humanoids (the Fox, two- and four-joint rigs, skinless scenes) are refused with a message
 * naming a joint. Properties that need no files: a rig renamed j0..jN is still found by its
 * hierarchy and reference pose, swapping the left and right names swaps the sides, a leg
 * without a shin is refused naming the leg, and tdn_body_map_check refuses a joint in two parts. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "renamed_skeleton.h"
#include "tendon/tendon_io.h"
#include "test_data.h"

/* Expected joints per part, space-separated, root-most first; NULL: the part is absent. */
typedef struct rig_case {
    const char *files[3]; /* relative to the data folder; the first NULL ends */
    const char *expect[TDN_BODY_PART_COUNT];
} rig_case;

#define P(part) [TDN_BODY_PART_##part]
#define SIDES(part, left, right) P(LEFT_##part) = left, P(RIGHT_##part) = right

/* Mixamo's names (LAFAN1, Geno, CMU cgspeed-mb, the Mixamo BVH, Soldier) with prefix `m`. */
#define MIXAMO_LIMBS(m)                                                                              \
  SIDES(CLAVICLE, m "LeftShoulder", m "RightShoulder"), SIDES(UPPER_ARM, m "LeftArm", m "RightArm"), \
      SIDES(FOREARM, m "LeftForeArm", m "RightForeArm"), SIDES(HAND, m "LeftHand", m "RightHand"),   \
      SIDES(THIGH, m "LeftUpLeg", m "RightUpLeg"), SIDES(SHIN, m "LeftLeg", m "RightLeg"),           \
      SIDES(FOOT, m "LeftFoot", m "RightFoot"), P(HIPS) = m "Hips", P(HEAD) = m "Head"
#define MIXAMO_FINGER(m, side, finger, n) m side "Hand" finger "1 " m side "Hand" finger "2" n
#define N3(m, side, finger) " " m side "Hand" finger "3"

static const rig_case rigs[] = {
    { /* LAFAN1: no fingers, the toe is *Toe */
      { "bvh/lafan1/walk4_subject1.bvh", "bvh/lafan1/multipleActions1_subject1.bvh", "bvh/lafan1/push1_subject2.bvh" },
      { MIXAMO_LIMBS(""), P(SPINE) = "Spine Spine1 Spine2", P(NECK) = "Neck", SIDES(TOES, "LeftToe", "RightToe") } },
    { /* Geno: four spine joints, two neck joints, fingers of four (the fourth a tip), *End helpers */
      { "bvh/lafan1-resolved/Geno_bind.bvh" },
      { MIXAMO_LIMBS(""), P(SPINE) = "Spine Spine1 Spine2 Spine3", P(NECK) = "Neck Neck1",
        SIDES(TOES, "LeftToeBase", "RightToeBase"),
        SIDES(THUMB, "LeftHandThumb1 LeftHandThumb2 LeftHandThumb3 LeftHandThumb4",
              "RightHandThumb1 RightHandThumb2 RightHandThumb3 RightHandThumb4"),
        SIDES(INDEX, "LeftHandIndex1 LeftHandIndex2 LeftHandIndex3 LeftHandIndex4",
              "RightHandIndex1 RightHandIndex2 RightHandIndex3 RightHandIndex4"),
        SIDES(MIDDLE, "LeftHandMiddle1 LeftHandMiddle2 LeftHandMiddle3 LeftHandMiddle4",
              "RightHandMiddle1 RightHandMiddle2 RightHandMiddle3 RightHandMiddle4"),
        SIDES(RING, "LeftHandRing1 LeftHandRing2 LeftHandRing3 LeftHandRing4",
              "RightHandRing1 RightHandRing2 RightHandRing3 RightHandRing4"),
        SIDES(PINKY, "LeftHandPinky1 LeftHandPinky2 LeftHandPinky3 LeftHandPinky4",
              "RightHandPinky1 RightHandPinky2 RightHandPinky3 RightHandPinky4") } },
    { /* CMU cgspeed-mb: LHipJoint skipped, LowerBack in the spine, finger stubs left out */
      { "bvh/cmu/cgspeed-mb/walk.bvh", "bvh/cmu/cgspeed-mb/01_01.bvh" },
      { MIXAMO_LIMBS(""), P(SPINE) = "LowerBack Spine Spine1", P(NECK) = "Neck Neck1",
        SIDES(TOES, "LeftToeBase", "RightToeBase") } },
    { /* CMU cgspeed-3dsmax: joint names; the Shoulder is the upper arm, the Hip the thigh */
      { "bvh/cmu/cgspeed-3dsmax/131_01.bvh" },
      { P(HIPS) = "Hips", P(SPINE) = "lowerback Chest Chest2", P(NECK) = "lowerneck Neck", P(HEAD) = "Head",
        SIDES(CLAVICLE, "LeftCollar", "RightCollar"), SIDES(UPPER_ARM, "LeftShoulder", "RightShoulder"),
        SIDES(FOREARM, "LeftElbow", "RightElbow"), SIDES(HAND, "LeftWrist", "RightWrist"),
        SIDES(THIGH, "LeftHip", "RightHip"), SIDES(SHIN, "LeftKnee", "RightKnee"),
        SIDES(FOOT, "LeftAnkle", "RightAnkle"), SIDES(TOES, "LeftToe", "RightToe") } },
    { /* CMU cgspeed-DAZ and the pirouette: l/r prefixes, Buttock skipped, no toes, fingers of two */
      { "bvh/cmu/cgspeed-daz/02_03.bvh", "bvh/misc/pirouette.bvh" },
      { P(HIPS) = "hip", P(SPINE) = "abdomen chest", P(NECK) = "neck", P(HEAD) = "head",
        SIDES(CLAVICLE, "lCollar", "rCollar"), SIDES(UPPER_ARM, "lShldr", "rShldr"),
        SIDES(FOREARM, "lForeArm", "rForeArm"), SIDES(HAND, "lHand", "rHand"), SIDES(THIGH, "lThigh", "rThigh"),
        SIDES(SHIN, "lShin", "rShin"), SIDES(FOOT, "lFoot", "rFoot"),
        SIDES(THUMB, "lThumb1 lThumb2", "rThumb1 rThumb2"), SIDES(INDEX, "lIndex1 lIndex2", "rIndex1 rIndex2"),
        SIDES(MIDDLE, "lMid1 lMid2", "rMid1 rMid2"), SIDES(RING, "lRing1 lRing2", "rRing1 rRing2"),
        SIDES(PINKY, "lPinky1 lPinky2", "rPinky1 rPinky2") } },
    { /* GAMES-105: no neck, torso_head is the head; run_forward lists the joints in another order */
      { "bvh/games105/walk_forward.bvh", "bvh/games105/run_forward.bvh", "bvh/games105/idle.bvh" },
      { P(HIPS) = "RootJoint", P(SPINE) = "pelvis_lowerback lowerback_torso", P(HEAD) = "torso_head",
        SIDES(CLAVICLE, "lTorso_Clavicle", "rTorso_Clavicle"), SIDES(UPPER_ARM, "lShoulder", "rShoulder"),
        SIDES(FOREARM, "lElbow", "rElbow"), SIDES(HAND, "lWrist", "rWrist"), SIDES(THIGH, "lHip", "rHip"),
        SIDES(SHIN, "lKnee", "rKnee"), SIDES(FOOT, "lAnkle", "rAnkle"), SIDES(TOES, "lToeJoint", "rToeJoint") } },
    { /* the Mixamo BVH: prefixed names, fingers of three, HeadTop_End and eyes left out */
      { "bvh/misc/test_freebvh.bvh" },
      { MIXAMO_LIMBS("mixamorig:"), P(SPINE) = "mixamorig:Spine mixamorig:Spine1 mixamorig:Spine2",
        P(NECK) = "mixamorig:Neck", SIDES(TOES, "mixamorig:LeftToeBase", "mixamorig:RightToeBase"),
        SIDES(THUMB, MIXAMO_FINGER("mixamorig:", "Left", "Thumb", N3("mixamorig:", "Left", "Thumb")),
              MIXAMO_FINGER("mixamorig:", "Right", "Thumb", N3("mixamorig:", "Right", "Thumb"))),
        SIDES(INDEX, MIXAMO_FINGER("mixamorig:", "Left", "Index", N3("mixamorig:", "Left", "Index")),
              MIXAMO_FINGER("mixamorig:", "Right", "Index", N3("mixamorig:", "Right", "Index"))),
        SIDES(MIDDLE, MIXAMO_FINGER("mixamorig:", "Left", "Middle", N3("mixamorig:", "Left", "Middle")),
              MIXAMO_FINGER("mixamorig:", "Right", "Middle", N3("mixamorig:", "Right", "Middle"))),
        SIDES(RING, MIXAMO_FINGER("mixamorig:", "Left", "Ring", N3("mixamorig:", "Left", "Ring")),
              MIXAMO_FINGER("mixamorig:", "Right", "Ring", N3("mixamorig:", "Right", "Ring"))),
        SIDES(PINKY, MIXAMO_FINGER("mixamorig:", "Left", "Pinky", N3("mixamorig:", "Left", "Pinky")),
              MIXAMO_FINGER("mixamorig:", "Right", "Pinky", N3("mixamorig:", "Right", "Pinky"))) } },
    { /* Soldier: asymmetric fingers (left thumb 2, right thumb 3, pinkies 2) */
      { "gltf/threejs/Soldier.glb" },
      { MIXAMO_LIMBS("mixamorig:"), P(SPINE) = "mixamorig:Spine mixamorig:Spine1 mixamorig:Spine2",
        P(NECK) = "mixamorig:Neck", SIDES(TOES, "mixamorig:LeftToeBase", "mixamorig:RightToeBase"),
        SIDES(THUMB, MIXAMO_FINGER("mixamorig:", "Left", "Thumb", ""),
              MIXAMO_FINGER("mixamorig:", "Right", "Thumb", N3("mixamorig:", "Right", "Thumb"))),
        SIDES(INDEX, MIXAMO_FINGER("mixamorig:", "Left", "Index", N3("mixamorig:", "Left", "Index")),
              MIXAMO_FINGER("mixamorig:", "Right", "Index", N3("mixamorig:", "Right", "Index"))),
        SIDES(MIDDLE, MIXAMO_FINGER("mixamorig:", "Left", "Middle", N3("mixamorig:", "Left", "Middle")),
              MIXAMO_FINGER("mixamorig:", "Right", "Middle", N3("mixamorig:", "Right", "Middle"))),
        SIDES(RING, MIXAMO_FINGER("mixamorig:", "Left", "Ring", N3("mixamorig:", "Left", "Ring")),
              MIXAMO_FINGER("mixamorig:", "Right", "Ring", N3("mixamorig:", "Right", "Ring"))),
        SIDES(PINKY, MIXAMO_FINGER("mixamorig:", "Left", "Pinky", ""),
              MIXAMO_FINGER("mixamorig:", "Right", "Pinky", "")) } },
    { /* RobotExpressive: the hips are Body (Hips is the first spine joint), no hand joint (the
       * palms hang off the forearm), feet that are IK targets under the root, no toes, no pinky */
      { "gltf/threejs/RobotExpressive/RobotExpressive.glb" },
      { P(HIPS) = "Body", P(SPINE) = "Hips Abdomen Torso_10", P(NECK) = "Neck", P(HEAD) = "Head",
        SIDES(CLAVICLE, "Shoulder.L", "Shoulder.R"), SIDES(UPPER_ARM, "UpperArm.L", "UpperArm.R"),
        SIDES(FOREARM, "LowerArm.L", "LowerArm.R"), SIDES(THIGH, "UpperLeg.L", "UpperLeg.R"),
        SIDES(SHIN, "LowerLeg.L", "LowerLeg.R"), SIDES(FOOT, "Foot.L", "Foot.R"),
        SIDES(THUMB, "Thumb.L Thumb2.L", "Thumb.R Thumb2.R"),
        SIDES(INDEX, "Palm1.L Index.L Index2.L", "Palm1.R Index.R Index2.R"),
        SIDES(MIDDLE, "Palm2.L Middle1.L Middle2.L", "Palm2.R Middle1.R Middle2.R"),
        SIDES(RING, "Palm3.L Ring1.L Ring2.L", "Palm3.R Ring1.R Ring2.R") } },
    { /* CesiumMan: numbered chains, a partial Skeleton_ prefix, the left arm numbered downwards,
       * no clavicles, the head named neck_joint_2 */
      { "gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb" },
      { P(HIPS) = "Skeleton_torso_joint_1", P(SPINE) = "Skeleton_torso_joint_2 torso_joint_3",
        P(NECK) = "Skeleton_neck_joint_1", P(HEAD) = "Skeleton_neck_joint_2",
        SIDES(UPPER_ARM, "Skeleton_arm_joint_L__4_", "Skeleton_arm_joint_R"),
        SIDES(FOREARM, "Skeleton_arm_joint_L__3_", "Skeleton_arm_joint_R__2_"),
        SIDES(HAND, "Skeleton_arm_joint_L__2_", "Skeleton_arm_joint_R__3_"),
        SIDES(THIGH, "leg_joint_L_1", "leg_joint_R_1"), SIDES(SHIN, "leg_joint_L_2", "leg_joint_R_2"),
        SIDES(FOOT, "leg_joint_L_3", "leg_joint_R_3"), SIDES(TOES, "leg_joint_L_5", "leg_joint_R_5") } },
    { /* RiggedFigure: CesiumMan's skeleton with clean names */
      { "gltf/khronos/RiggedFigure/glTF-Binary/RiggedFigure.glb", "gltf/khronos/RiggedFigure/glTF/RiggedFigure.gltf" },
      { P(HIPS) = "torso_joint_1", P(SPINE) = "torso_joint_2 torso_joint_3", P(NECK) = "neck_joint_1",
        P(HEAD) = "neck_joint_2", SIDES(UPPER_ARM, "arm_joint_L_1", "arm_joint_R_1"),
        SIDES(FOREARM, "arm_joint_L_2", "arm_joint_R_2"), SIDES(HAND, "arm_joint_L_3", "arm_joint_R_3"),
        SIDES(THIGH, "leg_joint_L_1", "leg_joint_R_1"), SIDES(SHIN, "leg_joint_L_2", "leg_joint_R_2"),
        SIDES(FOOT, "leg_joint_L_3", "leg_joint_R_3"), SIDES(TOES, "leg_joint_L_5", "leg_joint_R_5") } },
};

/* tendon's generated humanoid (tdn_humanoid_create): UE-like names, metacarpals on four fingers */
static const rig_case humanoid_case = {
    { NULL },
    { P(HIPS) = "pelvis", P(SPINE) = "spine_01 spine_02 spine_03 spine_04 spine_05", P(NECK) = "neck_01 neck_02",
      P(HEAD) = "head", SIDES(CLAVICLE, "clavicle_l", "clavicle_r"), SIDES(UPPER_ARM, "upperarm_l", "upperarm_r"),
      SIDES(FOREARM, "lowerarm_l", "lowerarm_r"), SIDES(HAND, "hand_l", "hand_r"), SIDES(THIGH, "thigh_l", "thigh_r"),
      SIDES(SHIN, "calf_l", "calf_r"), SIDES(FOOT, "foot_l", "foot_r"), SIDES(TOES, "toe_l", "toe_r"),
      SIDES(THUMB, "thumb_01_l thumb_02_l thumb_03_l", "thumb_01_r thumb_02_r thumb_03_r"),
      SIDES(INDEX, "index_metacarpal_l index_01_l index_02_l index_03_l",
            "index_metacarpal_r index_01_r index_02_r index_03_r"),
      SIDES(MIDDLE, "middle_metacarpal_l middle_01_l middle_02_l middle_03_l",
            "middle_metacarpal_r middle_01_r middle_02_r middle_03_r"),
      SIDES(RING, "ring_metacarpal_l ring_01_l ring_02_l ring_03_l", "ring_metacarpal_r ring_01_r ring_02_r ring_03_r"),
      SIDES(PINKY, "pinky_metacarpal_l pinky_01_l pinky_02_l pinky_03_l",
            "pinky_metacarpal_r pinky_01_r pinky_02_r pinky_03_r") }
};

/* The part's joint names, space-separated, into buf ("" when absent). */
static const char *part_joints(const tdn_skeleton *skel, const tdn_body_map *map, int part, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < map->parts[part].joint_count; i++) {
        const size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%s", i ? " " : "",
                 tdn_skeleton_joint_name(skel, map->parts[part].joints[i]));
    }
    return buf;
}

/* Every part as expected, each found one with an evidence, the map accepted by its check. */
static void check_map(const char *what, const tdn_skeleton *skel, const rig_case *c)
{
    tdn_body_map map;
    tdn_error err = { 0 };
    if (!CHECK(tdn_body_map_find(skel, NULL, &map, &err) == TDN_OK)) {
        fprintf(stderr, "%s: %s: %s\n", what, err.where, err.message);
        return;
    }
    for (int part = 0; part < TDN_BODY_PART_COUNT; part++) {
        char found[512];
        const char *want = c->expect[part] ? c->expect[part] : "";
        part_joints(skel, &map, part, found, sizeof found);
        if (!CHECK(strcmp(found, want) == 0))
            fprintf(stderr, "%s: %s is '%s', the survey says '%s'\n", what, tdn_body_part_name(part), found, want);
        CHECK((map.parts[part].evidence == TDN_BODY_MAP_EVIDENCE_NONE) == (*want == '\0'));
    }
    CHECK(tdn_body_map_check(skel, &map, NULL) == TDN_OK);
}

static void humanoids(void)
{
    const char *dir = test_data_dir();
    if (!dir)
        return;
    for (size_t k = 0; k < sizeof rigs / sizeof rigs[0]; k++)
        for (int i = 0; i < 3 && rigs[k].files[i]; i++) {
            char path[1024];
            tdn_asset *asset = NULL;
            tdn_error err = { 0 };
            if (!CHECK(tdn_asset_load(test_data_path(path, sizeof path, dir, rigs[k].files[i]), NULL, &asset, NULL,
                                      &err) == TDN_OK)) {
                fprintf(stderr, "%s: %s\n", path, err.message);
                continue;
            }
            check_map(rigs[k].files[i], tdn_asset_skeleton(asset), &rigs[k]);
            tdn_asset_destroy(asset);
        }
}

static void generated_humanoid(void)
{
    tdn_asset *asset = NULL;
    if (!CHECK(tdn_humanoid_create(NULL, &asset, NULL, NULL) == TDN_OK))
        return;
    check_map("humanoid", tdn_asset_skeleton(asset), &humanoid_case);
    tdn_asset_destroy(asset);
}

static int note_of(const tdn_body_map *map, int joint, tdn_body_map_reason *reason)
{
    for (int i = 0; i < map->note_count; i++)
        if (map->notes[i].joint == joint) {
            *reason = map->notes[i].reason;
            return 1;
        }
    return 0;
}

/* How parts were found and why joints were left out, on rigs where the survey says which rule
 * applies: CMU's LHipJoint is a short bone and its thigh found by length; Geno's *End joints
 * are end markers; RobotExpressive's hips are found by the hierarchy, its poles are helpers and
 * its root is above the hips. */
static void evidence_and_notes(void)
{
    const char *dir = test_data_dir();
    if (!dir)
        return;
    static const struct {
        const char *file, *joint;
        int part;                       /* -1: the joint must be in a note with `reason` */
        tdn_body_map_evidence evidence; /* for a part */
        tdn_body_map_reason reason;     /* for a note */
    } cases[] = {
        { "bvh/cmu/cgspeed-mb/walk.bvh", "LHipJoint", -1, 0, TDN_BODY_MAP_REASON_SHORT_BONE },
        { "bvh/cmu/cgspeed-3dsmax/131_01.bvh", "LeftHip", TDN_BODY_PART_LEFT_THIGH, TDN_BODY_MAP_EVIDENCE_GEOMETRY, 0 },
        { "bvh/cmu/cgspeed-3dsmax/131_01.bvh", "LHipJoint", -1, 0, TDN_BODY_MAP_REASON_SHORT_BONE },
        { "bvh/cmu/cgspeed-daz/02_03.bvh", "lButtock", -1, 0, TDN_BODY_MAP_REASON_SHORT_BONE },
        { "bvh/lafan1-resolved/Geno_bind.bvh", "LeftArmEnd", -1, 0, TDN_BODY_MAP_REASON_END },
        { "bvh/lafan1-resolved/Geno_bind.bvh", "LeftUpLegEnd", -1, 0, TDN_BODY_MAP_REASON_END },
        { "bvh/lafan1/walk4_subject1.bvh", "LeftUpLeg", TDN_BODY_PART_LEFT_THIGH, TDN_BODY_MAP_EVIDENCE_NAME, 0 },
        { "bvh/misc/test_freebvh.bvh", "mixamorig:LeftEye", -1, 0, TDN_BODY_MAP_REASON_HELPER },
        { "gltf/threejs/RobotExpressive/RobotExpressive.glb", "Body", TDN_BODY_PART_HIPS,
          TDN_BODY_MAP_EVIDENCE_TOPOLOGY, 0 },
        { "gltf/threejs/RobotExpressive/RobotExpressive.glb", "PoleTarget.L", -1, 0, TDN_BODY_MAP_REASON_HELPER },
        { "gltf/threejs/RobotExpressive/RobotExpressive.glb", "Bone", -1, 0, TDN_BODY_MAP_REASON_ABOVE_HIPS },
        { "gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb", "Skeleton_arm_joint_L__4_", TDN_BODY_PART_LEFT_UPPER_ARM,
          TDN_BODY_MAP_EVIDENCE_GEOMETRY, 0 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char path[1024];
        tdn_asset *asset = NULL;
        if (!CHECK(tdn_asset_load(test_data_path(path, sizeof path, dir, cases[k].file), NULL, &asset, NULL, NULL) ==
                   TDN_OK))
            continue;
        const tdn_skeleton *skel = tdn_asset_skeleton(asset);
        const int joint = tdn_skeleton_find_joint(skel, cases[k].joint);
        tdn_body_map map;
        CHECK(joint >= 0);
        if (CHECK(tdn_body_map_find(skel, NULL, &map, NULL) == TDN_OK)) {
            if (cases[k].part >= 0) {
                CHECK_EQ_INT(tdn_body_map_joint(&map, cases[k].part), joint);
                CHECK_EQ_INT(map.parts[cases[k].part].evidence, cases[k].evidence);
            } else {
                tdn_body_map_reason reason = TDN_BODY_MAP_REASON_OTHER;
                if (CHECK(note_of(&map, joint, &reason)))
                    CHECK_EQ_INT(reason, cases[k].reason);
            }
        }
        tdn_asset_destroy(asset);
    }
}

/* The Fox names itself like a humanoid but its spine runs along its legs' normal; the small
 * rigs have no legs. Each refusal names a joint of the skeleton and leaves the map zeroed. */
static void non_humanoids(void)
{
    const char *dir = test_data_dir();
    if (!dir)
        return;
    static const struct {
        const char *file, *where, *words;
    } cases[] = {
        { "gltf/khronos/Fox/glTF-Binary/Fox.glb", "b_Hip_01", "degrees to the legs" },
        { "gltf/khronos/RiggedSimple/glTF-Binary/RiggedSimple.glb", NULL, "no hips" },
        { "gltf/khronos/SimpleSkin/glTF/SimpleSkin.gltf", NULL, "no hips" },
        { "bvh/misc/sinusoidal.bvh", "base", "no hips" },
        { "gltf/khronos/BoxAnimated/glTF-Binary/BoxAnimated.glb", NULL, "no hips" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char path[1024];
        tdn_asset *asset = NULL;
        if (!CHECK(tdn_asset_load(test_data_path(path, sizeof path, dir, cases[k].file), NULL, &asset, NULL, NULL) ==
                   TDN_OK))
            continue;
        const tdn_skeleton *skel = tdn_asset_skeleton(asset);
        tdn_body_map map;
        memset(&map, 0xab, sizeof map);
        tdn_error err = { 0 };
        CHECK(tdn_body_map_find(skel, NULL, &map, &err) == TDN_ERR_INVALID_DATA);
        CHECK(err.code == TDN_ERR_INVALID_DATA);
        CHECK(tdn_skeleton_find_joint(skel, err.where) >= 0);
        if (cases[k].where)
            CHECK(strcmp(err.where, cases[k].where) == 0);
        if (!CHECK(strstr(err.message, cases[k].words) != NULL))
            fprintf(stderr, "%s: '%s'\n", cases[k].file, err.message);
        CHECK(map.joint_count == 0 && map.note_count == 0 && map.parts[0].joint_count == 0);
        tdn_asset_destroy(asset);
    }
}

static int same_part(const tdn_body_map *a, int part_a, const tdn_body_map *b, int part_b)
{
    if (a->parts[part_a].joint_count != b->parts[part_b].joint_count)
        return 0;
    for (int i = 0; i < a->parts[part_a].joint_count; i++)
        if (a->parts[part_a].joints[i] != b->parts[part_b].joints[i])
            return 0;
    return 1;
}

typedef struct loaded {
    tdn_asset *asset;
    const tdn_skeleton *skel;
} loaded;

static loaded load(const char *dir, const char *file)
{
    loaded l = { NULL, NULL };
    char path[1024];
    if (!file)
        tdn_humanoid_create(NULL, &l.asset, NULL, NULL);
    else
        tdn_asset_load(test_data_path(path, sizeof path, dir, file), NULL, &l.asset, NULL, NULL);
    l.skel = tdn_asset_skeleton(l.asset);
    return l;
}

/* Renamed j0..jN, the T-pose rigs keep their hips, spine, head, legs and arms: found by the
 * hierarchy (two legs alike below one joint, arms alike where the spine branches) and the rest
 * pose (thighs by length, left where up x forward points, forward being where the toes point).
 * The map of the named rig, checked against the survey above, is the expectation. */
static void without_names(void)
{
    const char *dir = test_data_dir();
    static const char *const files[] = { NULL /* the humanoid */, "bvh/games105/walk_forward.bvh",
                                         "gltf/threejs/Soldier.glb", "bvh/misc/test_freebvh.bvh" };
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        if (files[k] && !dir)
            continue;
        loaded l = load(dir, files[k]);
        if (!CHECK(l.skel != NULL))
            continue;
        static char storage[512][8];
        static const char *names[512];
        const int n = tdn_skeleton_joint_count(l.skel);
        for (int j = 0; j < n && j < 512; j++) {
            snprintf(storage[j], sizeof storage[j], "j%d", j);
            names[j] = storage[j];
        }
        tdn_skeleton *plain = skeleton_renamed(l.skel, names);
        tdn_body_map named, nameless;
        tdn_error err = { 0 };
        if (CHECK(plain != NULL) && CHECK(tdn_body_map_find(l.skel, NULL, &named, NULL) == TDN_OK) &&
            CHECK(tdn_body_map_find(plain, NULL, &nameless, &err) == TDN_OK)) {
            for (int part = TDN_BODY_PART_HIPS; part < TDN_BODY_PART_LEFT_THUMB; part++)
                if (!CHECK(same_part(&named, part, &nameless, part)))
                    fprintf(stderr, "%s: %s differs without names\n", files[k] ? files[k] : "humanoid",
                            tdn_body_part_name(part));
            CHECK_EQ_INT(nameless.parts[TDN_BODY_PART_LEFT_THIGH].evidence, TDN_BODY_MAP_EVIDENCE_GEOMETRY);
            CHECK_EQ_INT(nameless.parts[TDN_BODY_PART_LEFT_THUMB].joint_count, 0); /* fingers need names */
        } else if (err.message[0]) {
            fprintf(stderr, "%s: %s: %s\n", files[k] ? files[k] : "humanoid", err.where, err.message);
        }
        tdn_skeleton_destroy(plain);
        tdn_asset_destroy(l.asset);
    }
}

/* The same part on the other side (the centre parts are their own). */
static int other_side(int part)
{
    if (part >= TDN_BODY_PART_LEFT_THUMB)
        return part < TDN_BODY_PART_RIGHT_THUMB ? part + 5 : part - 5;
    if (part >= TDN_BODY_PART_LEFT_CLAVICLE)
        return (part - TDN_BODY_PART_LEFT_CLAVICLE) % 8 < 4 ? part + 4 : part - 4;
    return part;
}

/* Left and right names swapped (through the mirror table of mirror.h): every left part is the
 * former right one and back, the centre unchanged; where the rest pose tells left from right
 * (toes forward) a note says the names and the geometry disagree. */
static void mirrored_names(void)
{
    const char *dir = test_data_dir();
    static const struct {
        const char *file;
        int geometry_tells; /* LAFAN1's zero pose cannot tell */
    } cases[] = { { NULL, 1 }, { "gltf/threejs/Soldier.glb", 1 }, { "bvh/lafan1/walk4_subject1.bvh", 0 } };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        if (cases[k].file && !dir)
            continue;
        loaded l = load(dir, cases[k].file);
        if (!CHECK(l.skel != NULL))
            continue;
        const int n = tdn_skeleton_joint_count(l.skel);
        static int partner[512];
        static const char *names[512];
        CHECK(n <= 512 && tdn_mirror_table_from_names(l.skel, partner, NULL) == TDN_OK);
        for (int j = 0; j < n; j++)
            names[j] = tdn_skeleton_joint_name(l.skel, partner[j]);
        tdn_skeleton *swapped = skeleton_renamed(l.skel, names);
        tdn_body_map map, mirror;
        if (CHECK(swapped != NULL) && CHECK(tdn_body_map_find(l.skel, NULL, &map, NULL) == TDN_OK) &&
            CHECK(tdn_body_map_find(swapped, NULL, &mirror, NULL) == TDN_OK)) {
            for (int part = 0; part < TDN_BODY_PART_COUNT; part++)
                if (!CHECK(same_part(&map, part, &mirror, other_side(part))))
                    fprintf(stderr, "%s: %s not swapped\n", cases[k].file ? cases[k].file : "humanoid",
                            tdn_body_part_name(part));
            tdn_body_map_reason reason = TDN_BODY_MAP_REASON_OTHER;
            const int left_thigh = tdn_body_map_joint(&mirror, TDN_BODY_PART_LEFT_THIGH);
            CHECK_EQ_INT(note_of(&mirror, left_thigh, &reason) && reason == TDN_BODY_MAP_REASON_SIDES_DISAGREE,
                         cases[k].geometry_tells);
            CHECK(!note_of(&map, tdn_body_map_joint(&map, TDN_BODY_PART_LEFT_THIGH), &reason));
        }
        tdn_skeleton_destroy(swapped);
        tdn_asset_destroy(l.asset);
    }
}

/* The humanoid without its left shin: with the foot hung on the thigh (its rest composed with
 * the shin's, so the foot stays where it was) the names tell no shin is left; with the leg cut
 * below the thigh there is nothing to be one. Both refusals name the leg and its thigh. */
static void missing_shin(void)
{
    loaded l = load(NULL, NULL);
    if (!CHECK(l.skel != NULL))
        return;
    const tdn_skeleton *skel = l.skel;
    const int n = tdn_skeleton_joint_count(skel), calf = tdn_skeleton_find_joint(skel, "calf_l");
    const int calf_end = tdn_skeleton_subtree_end(skel, calf);
    CHECK(calf >= 0 && n <= 128);
    for (int cut = 0; cut < 2; cut++) {
        const char *names[128];
        int parents[128], index_of[128], count = 0;
        tdn_transform rest[128];
        for (int j = 0; j < n; j++) {
            index_of[j] = -1;
            if (j == calf || (cut && j > calf && j < calf_end))
                continue;
            index_of[j] = count;
            names[count] = tdn_skeleton_joint_name(skel, j);
            rest[count] = tdn_skeleton_rest(skel, j);
            int parent = tdn_skeleton_parent(skel, j);
            if (parent == calf) {
                const tdn_transform shin = tdn_skeleton_rest(skel, calf);
                rest[count] = tdn_transform_mul(&shin, &rest[count]);
                parent = tdn_skeleton_parent(skel, calf);
            }
            parents[count++] = parent >= 0 ? index_of[parent] : -1;
        }
        tdn_skeleton_desc desc = { .joint_count = count, .names = names, .parents = parents, .rest_pose = rest };
        tdn_skeleton *short_leg = NULL;
        tdn_body_map map;
        tdn_error err = { 0 };
        if (CHECK(tdn_skeleton_create(&desc, &short_leg, NULL, NULL) == TDN_OK)) {
            CHECK(tdn_body_map_find(short_leg, NULL, &map, &err) == TDN_ERR_INVALID_DATA);
            CHECK(strcmp(err.where, "thigh_l") == 0);
            if (!CHECK(strstr(err.message, "left leg has no shin") != NULL))
                fprintf(stderr, "%s\n", err.message);
        }
        tdn_skeleton_destroy(short_leg);
    }
    tdn_asset_destroy(l.asset);
}

/* tdn_body_map_check on maps edited by hand: a joint in two parts, a broken chain, a missing
 * leg part, indices out of range; and the arguments and the names' limits. */
static void check_and_names(void)
{
    loaded l = load(NULL, NULL);
    if (!CHECK(l.skel != NULL))
        return;
    tdn_body_map map, edited;
    tdn_error err = { 0 };
    CHECK(tdn_body_map_find(l.skel, NULL, &map, NULL) == TDN_OK);
    edited = map;
    edited.parts[TDN_BODY_PART_LEFT_FOOT] = edited.parts[TDN_BODY_PART_RIGHT_FOOT];
    CHECK(tdn_body_map_check(l.skel, &edited, &err) == TDN_ERR_INVALID_DATA);
    CHECK(strcmp(err.where, "foot_r") == 0 && strstr(err.message, "two parts") != NULL);
    edited = map;
    edited.parts[TDN_BODY_PART_SPINE].joints[1] = tdn_skeleton_find_joint(l.skel, "thigh_l");
    CHECK(tdn_body_map_check(l.skel, &edited, &err) == TDN_ERR_INVALID_DATA);
    CHECK(strcmp(err.where, "thigh_l") == 0 && strstr(err.message, "broken") != NULL);
    edited = map;
    edited.parts[TDN_BODY_PART_RIGHT_SHIN].joint_count = 0;
    CHECK(tdn_body_map_check(l.skel, &edited, &err) == TDN_ERR_INVALID_DATA);
    CHECK(strcmp(err.where, "right_shin") == 0);
    edited = map;
    edited.parts[TDN_BODY_PART_HEAD].joints[0] = 9999;
    CHECK(tdn_body_map_check(l.skel, &edited, &err) == TDN_ERR_INVALID_DATA);
    edited.joint_count = 3;
    CHECK(tdn_body_map_check(l.skel, &edited, &err) == TDN_ERR_INVALID_DATA);

    tdn_pose small;
    CHECK(tdn_pose_create(3, &small, NULL, NULL) == TDN_OK);
    CHECK(tdn_body_map_find(l.skel, &small, &map, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "reference") == 0);
    tdn_pose_destroy(&small);
    CHECK(tdn_body_map_find(NULL, NULL, &map, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "skeleton") == 0);
    CHECK(tdn_body_map_find(l.skel, NULL, NULL, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "out") == 0);
    CHECK(tdn_body_map_check(l.skel, NULL, NULL) == TDN_ERR_ARGUMENT);

    CHECK(strcmp(tdn_body_part_name(TDN_BODY_PART_HIPS), "hips") == 0);
    CHECK(strcmp(tdn_body_part_name(TDN_BODY_PART_RIGHT_PINKY), "right_pinky") == 0);
    CHECK(tdn_body_part_name(TDN_BODY_PART_COUNT) == NULL && tdn_body_part_name((tdn_body_part)-1) == NULL);
    for (int a = 0; a < TDN_BODY_PART_COUNT; a++)
        for (int b = a + 1; b < TDN_BODY_PART_COUNT; b++)
            CHECK(strcmp(tdn_body_part_name(a), tdn_body_part_name(b)) != 0);
    CHECK(strcmp(tdn_body_map_evidence_name(TDN_BODY_MAP_EVIDENCE_CALLER), "caller") == 0);
    CHECK(tdn_body_map_evidence_name((tdn_body_map_evidence)5) == NULL);
    CHECK(strcmp(tdn_body_map_reason_name(TDN_BODY_MAP_REASON_OTHER), "other") == 0);
    CHECK(tdn_body_map_reason_name((tdn_body_map_reason)(TDN_BODY_MAP_REASON_OTHER + 1)) == NULL);
    CHECK_EQ_INT(tdn_body_map_joint(NULL, TDN_BODY_PART_HIPS), -1);
    CHECK_EQ_INT(tdn_body_map_joint(&map, TDN_BODY_PART_COUNT), -1);
    tdn_asset_destroy(l.asset);
}

/* A reference pose other than the rest: LAFAN1's rest lies along +X, its first frame is an
 * upright T; the map is the same either way, and a zero pose's sides are not judged. */
static void reference_pose(void)
{
    const char *dir = test_data_dir();
    if (!dir)
        return;
    loaded l = load(dir, "bvh/lafan1/walk4_subject1.bvh");
    if (!CHECK(l.skel != NULL))
        return;
    tdn_pose frame0;
    tdn_body_map at_rest, at_frame0;
    CHECK(tdn_pose_create(tdn_skeleton_joint_count(l.skel), &frame0, NULL, NULL) == TDN_OK);
    CHECK(tdn_keyed_clip_sample(tdn_asset_clip(l.asset, 0), 0.0f, &frame0, NULL, NULL) == TDN_OK);
    if (CHECK(tdn_body_map_find(l.skel, NULL, &at_rest, NULL) == TDN_OK) &&
        CHECK(tdn_body_map_find(l.skel, &frame0, &at_frame0, NULL) == TDN_OK))
        for (int part = 0; part < TDN_BODY_PART_COUNT; part++)
            CHECK(same_part(&at_rest, part, &at_frame0, part));
    tdn_pose_destroy(&frame0);
    tdn_asset_destroy(l.asset);
}

int main(void)
{
    RUN(humanoids);
    RUN(generated_humanoid);
    RUN(evidence_and_notes);
    RUN(non_humanoids);
    RUN(without_names);
    RUN(mirrored_names);
    RUN(missing_shin);
    RUN(check_and_names);
    RUN(reference_pose);
    return check_summary();
}
