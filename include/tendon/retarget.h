/* tendon: retargeting, one skeleton's poses played on another's.
 *
 * Both skeletons are given with their body maps (tendon/body_map.h) and a reference pose each:
 * a local pose in which the character faces +Z with +Y up, its legs straight down, its spine and
 * neck straight up and its arms straight out sideways (tdn_retarget_reference_pose builds one
 * from any pose). A retarget definition (tdn_retarget) is made once from the two; it turns each
 * mapped target bone in model space by the rotation its source bone made away from the source's
 * reference, so that every mapped bone of the target points where the source's does. The
 * definition is immutable once created and may be shared by any number of threads;
 * tdn_retarget_pose writes only the target pose it is given and never allocates.
 * docs/retarget.md ("Reference poses", "Retargeting a pose") gives the math. */
#ifndef TENDON_RETARGET_H
#define TENDON_RETARGET_H

#include "base.h"
#include "body_map.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes into `out` the canonical reference pose of `skeleton` built from `pose` (NULL: the
 * skeleton's rest pose): the hips turned about themselves so that the hips-to-spine offset is
 * vertical and the facing is +Z (right = the horizontal direction from the left thigh to the
 * right thigh, up = +Y, forward = up x right, so left is +X), then, root-most first, each mapped
 * bone turned by the least rotation that points it the canonical way: the spine and neck joints
 * up (each towards the next joint of spine, neck and head), the clavicles, upper arms and
 * forearms out sideways (left +X, right -X), the thighs and shins down (-Y). The hands, head,
 * feet, toes, fingers and unmapped joints keep their local rotations; translations and scales
 * are kept (the hips stay at their height). A bone whose next joint is not below it (an IK
 * target parented elsewhere) is left as it is. `out` may be `pose`. The result is its own
 * reference pose (to float precision). TDN_ERR_ARGUMENT for NULL or a pose of another joint
 * count; the map's errors (tdn_body_map_check) as they are. Thread-safe: reads the skeleton,
 * the map and `pose`, writes only `out`. */
TDN_API tdn_result tdn_retarget_reference_pose(const tdn_skeleton *skeleton, const tdn_body_map *map,
                                               const tdn_pose *pose, tdn_pose *out, tdn_error *err);

/* One side of a retarget: a skeleton, its body map and its reference pose. */
typedef struct tdn_retarget_character {
    const tdn_skeleton *skeleton;
    const tdn_body_map *map;   /* found by tdn_body_map_find, or written by hand */
    const tdn_pose *reference; /* a canonical reference pose (tdn_retarget_reference_pose);
                                * NULL: the one built from the rest pose */
} tdn_retarget_character;

/* What a retarget is made from. Zero-initialisable. Nothing is kept by pointer: the skeletons,
 * maps and poses may go once tdn_retarget_create returns. */
typedef struct tdn_retarget_desc {
    tdn_retarget_character source;
    tdn_retarget_character target;
    /* Target length per source length, for the hips' travel. 0: the ratio of the two leg
     * lengths (hip to knee plus knee to ankle, in model space at the rest pose, averaged over
     * both legs), target over source. */
    float scale;
} tdn_retarget_desc;

/* A retarget definition (immutable, shareable across threads). */
typedef struct tdn_retarget tdn_retarget;

/* Makes a retarget from `desc`: checks both maps (tdn_body_map_check) and reference poses
 * (their joint counts), builds a missing reference, and precomputes per mapped target joint
 * what a frame needs. TDN_ERR_ARGUMENT naming the field (`desc.source.map`, `desc.scale`...)
 * for NULL, a pose of the wrong size or a scale that is negative or not finite (or 0 with legs
 * of length 0); TDN_ERR_OUT_OF_MEMORY. On failure *out is NULL and nothing stays allocated. */
TDN_API tdn_result tdn_retarget_create(const tdn_retarget_desc *desc, tdn_retarget **out,
                                       const tdn_allocator *allocator, tdn_error *err);
/* Frees a retarget; NULL is ignored. */
TDN_API void tdn_retarget_destroy(tdn_retarget *retarget);

/* The scale the retarget uses (desc.scale, or the leg ratio it stood for); 0 for NULL. */
TDN_API float tdn_retarget_scale(const tdn_retarget *retarget);

/* Retargets one local pose of the source skeleton onto `target_pose` (the target skeleton's
 * joint count). Per mapped bone b: D = Qs_model(b) * Qs_reference_model(b)^-1 and
 * Qt_model(b) = D * Qt_reference_model(b), written as a local rotation under the target's
 * parent. Chains (spine, neck, fingers) of equal joint counts map joint to joint; of different
 * counts, the rotation from the chain's parent to its last joint is spread over the target's
 * joints by their cumulative length. Then the target's spine joints turn together about the
 * first of them so that its hips-to-neck direction (the neck's first joint, else the head) is
 * the source's, whatever the proportions of the two spines' bones. Unmapped target joints, and target parts the source
 * lacks, keep the reference pose's local transforms. The hips move by the source hips' model
 * offset from their reference position times the scale. Never allocates: the scratch (about
 * 9 KB) is on the stack. TDN_ERR_ARGUMENT for NULL or a pose of the wrong size. Thread-safe
 * for distinct target poses. */
TDN_API tdn_result tdn_retarget_pose(const tdn_retarget *retarget, const tdn_pose *source_pose, tdn_pose *target_pose,
                                     tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
