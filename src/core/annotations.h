/* tendon core: a clip's annotations, its named float tracks and its events, shared by keyed
 * and runtime clips (not installed). Built once from descriptions, copied whole into a runtime
 * clip, immutable afterwards. */
#ifndef TENDON_ANNOTATIONS_H
#define TENDON_ANNOTATIONS_H

#include "curve.h"

typedef struct tdn__float_track {
    const char *name;
    tdn__curve curve;
} tdn__float_track;

typedef struct tdn__annotations {
    tdn_allocator allocator;
    size_t bytes; /* the one allocation holding all of this */
    int float_track_count;
    int event_count;
    int key_count;       /* keys over all float tracks */
    float last_key_time; /* latest float-track key, 0 with none */
    tdn__float_track *float_tracks;
    const char **event_names; /* sorted by time, ties in description order */
    float *event_times;
} tdn__annotations;

/* Validates and copies float tracks and events: names non-NULL, float track names unique,
 * curves as tdn__curve_check, event times finite and >= 0 (the clip checks them against its
 * duration). Errors name "float track <i> ('<name>') key <k>" or "event <i> ('<name>')".
 * On failure nothing stays allocated and *out is NULL. */
tdn_result tdn__annotations_create(const tdn_float_track_desc *tracks, int track_count, const tdn_event_desc *events,
                                   int event_count, const tdn_allocator *allocator, tdn__annotations **out,
                                   tdn_error *err);
/* An independent copy in one allocation through `allocator`. */
tdn_result tdn__annotations_clone(const tdn__annotations *src, const tdn_allocator *allocator, tdn__annotations **out,
                                  tdn_error *err);
/* A copy with fewer float-track keys, for compressed clips: keys a LINEAR track's other keys
 * reproduce within `tolerance` (at every time, not only at keys) are dropped, and STEP keys
 * that hold the value already held; CUBIC tracks and events are copied whole. */
tdn_result tdn__annotations_reduce(const tdn__annotations *src, float tolerance, const tdn_allocator *allocator,
                                   tdn__annotations **out, tdn_error *err);
void tdn__annotations_destroy(tdn__annotations *annotations);

/* Index of the float track called `name`, or -1. */
int tdn__annotations_find(const tdn__annotations *annotations, const char *name);
/* Float track `index` at `time` (keys clamp at the ends); 0 for a bad index. */
float tdn__annotations_sample(const tdn__annotations *annotations, int index, float time);
const char *tdn__annotations_float_track_name(const tdn__annotations *annotations, int index);
const char *tdn__annotations_event_name(const tdn__annotations *annotations, int index);

#endif
