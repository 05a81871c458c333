/* tendon io: the generated humanoid's pieces shared by humanoid.c, humanoid_clips.c and
 * humanoid_upper_clips.c (not installed). */
#ifndef TENDON_IO_HUMANOID_INTERNAL_H
#define TENDON_IO_HUMANOID_INTERNAL_H

#include "asset_internal.h"
#include "tendon/io/humanoid.h"

/* Joint indices: the skeleton is built in this order, which is already parent-before-child
 * depth-first pre-order, so skeleton indices are these. Arms and legs are per side: side 0 is
 * left (+X), side 1 right (-X). */
enum {
    TDN_HU_ROOT = 0,
    TDN_HU_PELVIS = 1,
    TDN_HU_SPINE_01 = 2, /* .. spine_05 = 6 */
    TDN_HU_NECK_01 = 7,
    TDN_HU_NECK_02 = 8,
    TDN_HU_HEAD = 9,
    TDN_HU_JAW = 10,
    TDN_HU_EYE_L = 11,
    TDN_HU_EYE_R = 12,
    TDN_HU_ARM = 13, /* + 23 * side: clavicle, then the offsets below */
    TDN_HU_ARM_JOINTS = 23,
    TDN_HU_LEG = 59, /* + 4 * side: thigh, calf, foot, toe */
    TDN_HU_LEG_JOINTS = 4,
    TDN_HU_JOINTS = 67
};
enum { TDN_HU_CLAVICLE = 0, TDN_HU_UPPERARM = 1, TDN_HU_LOWERARM = 2, TDN_HU_HAND = 3 };
enum { TDN_HU_THIGH = 0, TDN_HU_CALF = 1, TDN_HU_FOOT = 2, TDN_HU_TOE = 3 };

/* The settled description: defaults applied, checked. */
typedef struct tdn_io__humanoid_params {
    float height, scale; /* scale = height / 1.8 */
    float walk_speed, walk_cycle, run_speed, run_cycle, sample_rate;
} tdn_io__humanoid_params;

/* Builds the 67-joint skeleton into asset->skeleton and lists every joint. */
tdn_result tdn_io__humanoid_skeleton(tdn_asset *asset, float scale, tdn_error *err);

/* Generates the body mesh, its weights and its skin (humanoid_mesh.c) into asset (skeleton
 * already built). */
tdn_result tdn_io__humanoid_mesh(tdn_asset *asset, float scale, tdn_error *err);

/* Generates the clips into asset (skeleton already built): the locomotion clips, the upper-body
 * clips, then the jump. */
tdn_result tdn_io__humanoid_clips(tdn_asset *asset, const tdn_io__humanoid_params *params, tdn_error *err);

/* Appends the upper-body clips (humanoid_upper_clips.c: actions, aim poses, hit reactions,
 * hand poses) after the locomotion clips; asset->clips has room for them. */
int tdn_io__humanoid_upper_clip_count(void);
tdn_result tdn_io__humanoid_upper_clips(tdn_asset *asset, const tdn_io__humanoid_params *params, tdn_error *err);

/* Key intervals of one cycle of `cycle` seconds at `rate` keys/s: the smallest even number at
 * or above cycle * rate (less 1e-5 of it, forgiving float rounding), at least 8. */
int tdn_io__humanoid_intervals(float cycle, float rate);

/* Model transforms of every joint of the humanoid from local ones (parents come first). */
void tdn_io__humanoid_model(const tdn_skeleton *s, const tdn_transform *local, tdn_transform *model);

#endif
