/* tendon CLI: the two characters of `tendon retarget` and the retarget between them: each file
 * loaded (the source with --scale, each with its --*-skin), its body map found
 * (tdn_body_map_find), its reference pose built (tdn_retarget_reference_pose, from the rest pose
 * or from a --*-reference FRAME), then the retarget definition (tdn_retarget_create, its scale
 * the ratio of the leg lengths).
 *
 * --map MAP.json changes each side's map found by what the document gives for that side
 * (tdn_body_map_file_apply) before its reference pose is built. The contact fix-up judges the
 * source's feet against their lowest heights over the takes the command bakes (`floors`),
 * which the target's hips are measured from too (docs/retarget.md).
 */
#ifndef TENDON_RETARGET_PAIR_H
#define TENDON_RETARGET_PAIR_H

#include "retarget_args.h"
#include "retarget_takes.h"

typedef struct retarget_side {
    const char *path; /* as given */
    const char *role; /* "source" or "target" */
    tdn_asset *asset;
    const tdn_skeleton *skeleton;
    tdn_body_map map;
    tdn_pose reference;           /* the canonical reference pose */
    int reference_frame;          /* the frame it was built from, or -1: the rest pose */
    retarget_take reference_take; /* the take that frame is of (clip NULL for the rest pose) */
} retarget_side;

typedef struct retarget_pair {
    retarget_side source, target;
    tdn_retarget *retarget;
    float floors[2]; /* the source's lowest left and right ankles over the takes, above y = 0 (0: unknown) */
} retarget_pair;

/* Loads both files and makes the retarget, as the top of this file says. An exit code, having
 * printed why: 2 for a file that cannot be read, a --*-skin or --clip it does not have, a FRAME
 * beyond its take, or a skeleton with no usable body map ("tendon retarget: Fox.glb: the target's
 * body map: WHERE: WHAT", WHERE naming the joint). On failure what was made is released by
 * retarget_pair_free all the same. */
int retarget_pair_load(const retarget_args *a, retarget_pair *p);
void retarget_pair_free(retarget_pair *p);

/* A character's leg length at rest: hip to knee plus knee to ankle (the map's thigh, shin and
 * foot joints) in model space, averaged over both legs; what the retarget's scale is the ratio
 * of (tdn_retarget_desc.scale). */
double retarget_leg_length(const tdn_skeleton *skeleton, const tdn_body_map *map);

/* The source clip --clip names, else its first clip (the take --source-reference counts frames
 * in); -1, having printed why, for a --clip the source does not have or a source with no clip. */
int retarget_source_clip(const retarget_args *a, const tdn_asset *source);

#endif
