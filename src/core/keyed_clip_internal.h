/* tendon core: what runtime clips read from a keyed clip beyond its public API (not installed). */
#ifndef TENDON_KEYED_CLIP_INTERNAL_H
#define TENDON_KEYED_CLIP_INTERNAL_H

#include "annotations.h"
#include "curve.h"

/* The joint tracks in description order (tdn_keyed_clip_track_count of them). */
const tdn__curve *tdn__keyed_clip_tracks(const tdn_keyed_clip *clip);
const tdn__annotations *tdn__keyed_clip_annotations(const tdn_keyed_clip *clip);
/* Appends the distinct key times of the joint tracks up to `until` to times[0 .. n) (room for
 * tdn_keyed_clip_key_count more) and returns the new count. */
int tdn__keyed_clip_append_key_times(const tdn_keyed_clip *clip, float until, float *times, int n);
/* The track animating (joint, target), or NULL when the joint keeps its rest value there. */
const tdn__curve *tdn__keyed_clip_find_track(const tdn_keyed_clip *clip, int joint, tdn_track_target target);

#endif
