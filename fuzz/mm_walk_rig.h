/* The tiny walking rig of fuzz_mm_database's seeds (seed_mm_database.c builds clips.mmdb from
 * it) and of the controller fuzz_mm_database drives over each database it loads: a BVH of hips
 * and two legs (Hips, LeftUpLeg, LeftFoot, RightUpLeg, RightFoot), 13 frames at 30 per
 * second, in centimetres. */
#ifndef TENDON_FUZZ_MM_WALK_RIG_H
#define TENDON_FUZZ_MM_WALK_RIG_H

static const char walk_bvh[] =
    "HIERARCHY\n"
    "ROOT Hips\n{\n  OFFSET 0 90 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    "  JOINT LeftUpLeg\n  {\n    OFFSET 10 0 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "    JOINT LeftFoot\n    {\n      OFFSET 0 -85 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "      End Site\n      {\n        OFFSET 0 0 12\n      }\n    }\n  }\n"
    "  JOINT RightUpLeg\n  {\n    OFFSET -10 0 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "    JOINT RightFoot\n    {\n      OFFSET 0 -85 0\n      CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "      End Site\n      {\n        OFFSET 0 0 12\n      }\n    }\n  }\n}\n"
    "MOTION\nFrames: 13\nFrame Time: 0.0333333\n"
    "0 90 0 0 0 0 0 20 0 0 0 0 0 -20 0 0 0 0\n"
    "1 91 4 0 0 2 0 14 0 0 0 0 0 -14 0 0 5 0\n"
    "2 92 8 0 0 4 0 7 0 0 0 0 0 -7 0 0 10 0\n"
    "3 91 12 0 0 6 0 0 0 0 0 0 0 0 0 0 5 0\n"
    "3 90 16 0 0 8 0 -7 0 0 5 0 0 7 0 0 0 0\n"
    "2 89 20 0 0 10 0 -14 0 0 10 0 0 14 0 0 0 0\n"
    "1 90 24 0 0 12 0 -20 0 0 5 0 0 20 0 0 0 0\n"
    "0 91 28 0 0 14 0 -14 0 0 0 0 0 14 0 0 0 0\n"
    "-1 92 32 0 0 16 0 -7 0 0 0 0 0 7 0 0 5 0\n"
    "-2 91 36 0 0 18 0 0 0 0 0 0 0 0 0 0 10 0\n"
    "-3 90 40 0 0 20 0 7 0 0 0 0 0 -7 0 0 5 0\n"
    "-2 89 44 0 0 22 0 14 0 0 5 0 0 -14 0 0 0 0\n"
    "-1 90 48 0 0 24 0 20 0 0 10 0 0 -20 0 0 0 0\n";

#endif
