/* tendon core: keyed curves, the key search and interpolation shared by the joint tracks of a
 * keyed clip and the float tracks of keyed and runtime clips (not installed). */
#ifndef TENDON_CURVE_H
#define TENDON_CURVE_H

#include "tendon/keyed_clip.h"

/* A curve over borrowed key arrays. Values follow tdn_track_desc: `width` floats per key, or
 * (in-tangent, value, out-tangent) triples for TDN_INTERP_CUBIC. */
typedef struct tdn__curve {
    const float *times; /* key_count strictly increasing seconds */
    const float *values;
    int key_count;
    int width; /* 1 (float track), 3 (translation, scale) or 4 (rotation) */
    tdn_interp interp;
    int rotation; /* 1: values are quaternions: slerp for LINEAR, renormalized CUBIC */
} tdn__curve;

/* Floats one key occupies in `values`. */
static inline int tdn__curve_key_floats(const tdn__curve *curve)
{
    return curve->interp == TDN_INTERP_CUBIC ? 3 * curve->width : curve->width;
}

/* The key interval k holding t (times[k] <= t < times[k + 1]); -1 before the first key (or t
 * NaN), key_count - 1 at or after the last. `hint` (optional) holds the previous answer: the
 * search first looks at that interval and its two neighbours, so a cursor moving forward or
 * backward finds its keys in O(1); otherwise, and on a miss, it is a binary search. */
int tdn__curve_find(const float *times, int key_count, float t, int *hint);

/* Writes the curve's value at t into out[width]: the first value before the first key, the last
 * value after the last key. */
void tdn__curve_eval(const tdn__curve *curve, float t, int *hint, float *out);

/* Checks a curve described by the caller: key count >= 1, times and values present, times
 * finite, >= 0 and strictly increasing, values finite, rotation values not (nearly) zero.
 * Failures are TDN_ERR_ARGUMENT for missing arrays, else TDN_ERR_INVALID_DATA, with `where`
 * being "<place> key <k>" (`place` names the track, for example "track 3 (joint 'LeftFoot'
 * rotation)"). */
tdn_result tdn__curve_check(const tdn__curve *curve, const char *place, tdn_error *err);

#endif
