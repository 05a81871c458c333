/* tendon CLI: the source clips `tendon retarget` bakes, each frame by frame at its own rate. */
#ifndef TENDON_RETARGET_TAKES_H
#define TENDON_RETARGET_TAKES_H

#include "tendon/tendon_io.h"

/* The most frames one take is baked into (a 9 h take at 30 fps). */
#define RETARGET_MAX_TAKE_FRAMES 1000000

typedef struct retarget_take {
    const tdn_keyed_clip *clip;
    int index;       /* the clip's index in its asset */
    float rate;      /* frames per second */
    int frame_count; /* frame f at f / rate seconds, the last at the clip's duration */
} retarget_take;

/* The take of a clip. Its rate is the one tendon's runtime clip of it takes (tdn_clip_create's
 * default, clip.h): the key rate when the keys are evenly spaced (a BVH's 1 / Frame Time, a
 * glTF export's) times the smallest whole number that reaches 30 fps, otherwise the densest
 * track's key rate kept within 30..240. frame_count is round(duration x rate) + 1. TDN_OK, or
 * the failure with the reason in err (TDN_ERR_ARGUMENT naming the clip for more than
 * RETARGET_MAX_TAKE_FRAMES frames). */
tdn_result retarget_take_of(const tdn_asset *asset, int index, retarget_take *out, tdn_error *err);
/* The time of frame f: f / rate, at most the clip's duration. */
float retarget_take_time(const retarget_take *take, int f);

#endif
