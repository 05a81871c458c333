/* tendon: the error of a runtime clip against the keyed clip it was built from, as animation
 * compression measures it.
 *
 * The metric is the Animation Compression Library's: around each joint, three virtual vertices
 * at `shell_distance` along the joint's local x, y and z axes; a joint's error at a time is the
 * largest distance between where a vertex lands in model space under the keyed clip and under
 * the runtime clip. Model space carries errors through the hierarchy, so a rotation error at
 * the hips moves every vertex of the body in proportion to its distance from them. The clip is
 * sampled at every one of its frame times and every key time of the source (and of a reference
 * clip; times a float rounding apart count once), and at the points 1/4, 1/2 and 3/4 between
 * consecutive times: the midpoint alone is where a normalized lerp and a slerp between the same
 * two rotations agree, the quarter points are near where they differ most. A build-time tool:
 * it allocates. */
#ifndef TENDON_CLIP_ERROR_H
#define TENDON_CLIP_ERROR_H

#include "base.h"
#include "clip.h"
#include "keyed_clip.h"
#include "pose.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tdn_clip_error_desc {
    const tdn_clip *clip;         /* required: the clip measured */
    const tdn_keyed_clip *source; /* required: what it should show, of the clip's joint count */
    float shell_distance;         /* required, > 0, skeleton units (0.03 for a skeleton in metres) */
    /* An additive clip: the reference it was built against, as in tdn_clip_desc. The clip is
     * applied to it (A = D * R) and A compared with the source, as tdn_clip_create measures. */
    const tdn_pose *additive_reference_pose;
    const tdn_keyed_clip *additive_reference_clip;
    int additive_reference_first_frame;
} tdn_clip_error_desc;

typedef struct tdn_clip_error {
    float max_error; /* the largest virtual-vertex error, skeleton units */
    int max_joint;   /* where (-1 when no sample has an error above 0) */
    float max_time;  /* and when, seconds */
    /* The 99th percentile of the errors of every (joint, time) sample, by nearest rank: the
     * smallest error that at least 99% of the samples do not exceed. */
    float p99_error;
    long sample_count; /* joints * time_count */
    int time_count;    /* times sampled */
} tdn_clip_error;

/* Measures `desc->clip` against `desc->source` into *out. TDN_ERR_ARGUMENT, `where` naming the
 * argument or field: NULL desc, out, clip or source; a shell distance not finite and > 0; a
 * source or reference whose skeleton's joint count is not the clip's; more than one additive
 * reference, none for an additive clip or one for a plain clip. TDN_ERR_OUT_OF_MEMORY when its
 * scratch memory (about 4 bytes per sample) cannot be allocated through `allocator` (NULL:
 * malloc). *out is zeroed on failure; nothing stays allocated. */
TDN_API tdn_result tdn_clip_measure_error(const tdn_clip_error_desc *desc, tdn_clip_error *out,
                                          const tdn_allocator *allocator, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
