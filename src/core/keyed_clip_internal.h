/* tendon core: what runtime clips read from a keyed clip beyond its public API (not installed). */
#ifndef TENDON_KEYED_CLIP_INTERNAL_H
#define TENDON_KEYED_CLIP_INTERNAL_H

#include "annotations.h"
#include "curve.h"

/* The joint tracks in description order (tdn_keyed_clip_track_count of them). */
const tdn__curve *tdn__keyed_clip_tracks(const tdn_keyed_clip *clip);
const tdn__annotations *tdn__keyed_clip_annotations(const tdn_keyed_clip *clip);

#endif
