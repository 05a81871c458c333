/* tendon core: a root track's frames, which a runtime pack stores precomputed, and tracks built
 * over frames that are not their own (not installed). */
#ifndef TENDON_ROOT_TRACK_INTERNAL_H
#define TENDON_ROOT_TRACK_INTERNAL_H

#include "tendon/root_motion.h"

/* A frame of a root track: the joint's local translation x y z and rotation x y z w. */
#define TDN__ROOT_TRACK_FLOATS 7

/* The frames a root track keeps of a clip of this duration and sample rate: 1 for a duration of
 * 0 (or less), else floor(rate * duration + 0.5) + 1 in double, at least 2 and at most 10^8. */
int tdn__root_track_frame_count(float duration, float sample_rate);
/* The frames of `joint` of `clip`, frame_count of them (tdn__root_track_frame_count) into
 * `frames`: the joint's local translation and rotation sampled at duration * f / (frame_count - 1),
 * each rotation negated when that brings it nearer the previous frame's. A scratch pose comes
 * from `allocator`. */
tdn_result tdn__root_track_frames(const tdn_clip *clip, int joint, int frame_count, float *frames,
                                  const tdn_allocator *allocator, tdn_error *err);
/* tdn_root_track_create over `frames` that tdn__root_track_frames made for this clip and
 * desc->joint (a pack's, which must outlive the track): only the track's header is allocated. */
tdn_result tdn__root_track_create_over(const tdn_clip *clip, const tdn_root_track_desc *desc, const float *frames,
                                       tdn_root_track **out, const tdn_allocator *allocator, tdn_error *err);
/* Whether `track` is one tdn_root_track_create would build of `clip` for `desc` (its desc, its
 * clip's joint count, duration and frame count). */
int tdn__root_track_fits(const tdn_root_track *track, const tdn_clip *clip, const tdn_root_track_desc *desc);

#endif
