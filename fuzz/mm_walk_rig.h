/* The tiny walking rig of fuzz_mm_database's seeds (seed_mm_database.c builds clips.mmdb from
 * it, seed_pack.c packs that database) and of the controller fuzz_mm_database drives over each
 * database it loads: a BVH of hips and two legs (Hips, LeftUpLeg, LeftFoot, RightUpLeg,
 * RightFoot), 13 frames at 30 per second, in centimetres. */
#ifndef TENDON_FUZZ_MM_WALK_RIG_H
#define TENDON_FUZZ_MM_WALK_RIG_H

#include <stdio.h>

#include "tendon/io/asset.h"
#include "tendon/mirror.h"
#include "tendon/mm_database.h"

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

/* The database of the rig's walk (the asset imported at scale 0.01) with its mirror image: 2 runs
 * of 13 frames at 30 frames/s, offsets 2 and 4, every feature group, an excluded range. */
static inline tdn_result walk_database(const tdn_asset *asset, tdn_mm_database **db, tdn_error *err)
{
    const tdn_skeleton *skeleton = tdn_asset_skeleton(asset);
    int mirror[5];
    if (tdn_skeleton_joint_count(skeleton) != 5) {
        snprintf(err->message, sizeof err->message, "the walk has %d joints, not 5",
                 tdn_skeleton_joint_count(skeleton));
        return TDN_ERR_INVALID_DATA;
    }
    tdn_result res = tdn_mirror_table_from_names(skeleton, mirror, err);
    if (res != TDN_OK)
        return res;
    const tdn_keyed_clip *clip = tdn_asset_clip(asset, 0);
    const tdn_mm_range excluded = { 0, 0.0f, 0.05f };
    tdn_mm_database_desc desc = { 0 };
    desc.skeleton = skeleton;
    desc.clips = &clip;
    desc.clip_count = 1;
    desc.mirror_table = mirror;
    desc.sample_rate = 30.0f;
    desc.root = 0;
    desc.left_foot = tdn_skeleton_find_joint(skeleton, "LeftFoot");
    desc.right_foot = tdn_skeleton_find_joint(skeleton, "RightFoot");
    desc.offsets[0] = 2;
    desc.offsets[1] = 4;
    desc.offset_count = 2;
    desc.weights[TDN_MM_TRAJECTORY_POSITION] = 1.0f;
    desc.weights[TDN_MM_TRAJECTORY_FACING] = 1.5f;
    desc.weights[TDN_MM_FOOT_POSITION] = 0.75f;
    desc.weights[TDN_MM_FOOT_VELOCITY] = 1.0f;
    desc.weights[TDN_MM_HIP_VELOCITY] = 1.0f;
    desc.excluded = &excluded;
    desc.excluded_count = 1;
    return tdn_mm_database_create(&desc, db, NULL, err);
}

#endif
