/* tendon: keyed clips, the exact form of an animation.
 *
 * A keyed clip keeps its source's semantics: per joint, translation, rotation and scale tracks
 * with their own key times and step, linear (slerp for rotations) or cubic-spline
 * interpolation (the glTF 2.0 Hermite spline with in/out tangents scaled by the key interval).
 * Joints without a track keep the skeleton's rest value. It also carries float tracks (user
 * curves such as a foot-contact curve) and events (a name at a time). It is immutable once
 * built and can be shared by any number of threads. Runtime playback uses tdn_clip (clip.h),
 * built from a keyed clip. */
#ifndef TENDON_KEYED_CLIP_H
#define TENDON_KEYED_CLIP_H

#include "base.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tdn_interp {
    TDN_INTERP_LINEAR = 0, /* lerp; slerp (shortest path) for rotations */
    TDN_INTERP_STEP,       /* hold the previous key until the next */
    TDN_INTERP_CUBIC       /* glTF CUBICSPLINE: Hermite with per-key in/out tangents */
} tdn_interp;

typedef enum tdn_track_target {
    TDN_TARGET_TRANSLATION = 0, /* 3 floats per value */
    TDN_TARGET_ROTATION,        /* 4 floats per value: x, y, z, w */
    TDN_TARGET_SCALE            /* 3 floats per value */
} tdn_track_target;

/* One animated property of one joint. `values` holds key_count values of the target's width;
 * for TDN_INTERP_CUBIC it holds key_count triples (in-tangent, value, out-tangent), exactly as
 * a glTF CUBICSPLINE sampler output. Times are seconds, strictly increasing, >= 0. */
typedef struct tdn_track_desc {
    int joint;
    tdn_track_target target;
    tdn_interp interp;
    int key_count;
    const float *times;
    const float *values;
} tdn_track_desc;

/* A named scalar curve; values as for tdn_track_desc with width 1. */
typedef struct tdn_float_track_desc {
    const char *name;
    tdn_interp interp;
    int key_count;
    const float *times;
    const float *values;
} tdn_float_track_desc;

typedef struct tdn_event_desc {
    const char *name;
    float time; /* seconds, within [0, duration] */
} tdn_event_desc;

typedef struct tdn_keyed_clip_desc {
    const char *name;             /* NULL: "clip" */
    const tdn_skeleton *skeleton; /* required: joint count and rest values of absent tracks */
    const tdn_track_desc *tracks;
    int track_count;
    const tdn_float_track_desc *float_tracks;
    int float_track_count;
    const tdn_event_desc *events;
    int event_count;
    float duration; /* 0: the last key time over all tracks */
} tdn_keyed_clip_desc;

typedef struct tdn_keyed_clip tdn_keyed_clip;

/* Copies the description into a new clip, allocated through `allocator` (NULL: malloc). Errors
 * (TDN_ERR_INVALID_DATA, `where` naming the track and key, for example "track 3 (joint 'LeftFoot'
 * rotation) key 7", "float track 1 ('contact') key 2" or "event 4 ('step')"): joint out of range,
 * two tracks for the same joint and target, no keys, times not strictly increasing or negative,
 * non-finite values, zero quaternions, a duplicate float track name, an event outside [0,
 * duration]. TDN_ERR_ARGUMENT: NULL desc, out, skeleton, key arrays or names, an unknown target or
 * interpolation, a negative or non-finite duration. On failure *out is NULL and nothing stays
 * allocated. Non-unit rotation values are renormalized (cubic tangents are kept as given). The
 * skeleton must outlive the clip. */
TDN_API tdn_result tdn_keyed_clip_create(const tdn_keyed_clip_desc *desc, tdn_keyed_clip **out,
                                         const tdn_allocator *allocator, tdn_error *err);
/* Frees the clip; NULL is ignored. */
TDN_API void tdn_keyed_clip_destroy(tdn_keyed_clip *clip);

/* The clip's name (owned by the clip), length in seconds, skeleton (the caller's, given to
 * create) and joint track count; NULL or 0 for a NULL clip. */
TDN_API const char *tdn_keyed_clip_name(const tdn_keyed_clip *clip);
TDN_API float tdn_keyed_clip_duration(const tdn_keyed_clip *clip);
TDN_API const tdn_skeleton *tdn_keyed_clip_skeleton(const tdn_keyed_clip *clip);
TDN_API int tdn_keyed_clip_track_count(const tdn_keyed_clip *clip);
/* Total keys over all joint and float tracks. */
TDN_API int tdn_keyed_clip_key_count(const tdn_keyed_clip *clip);
/* The distinct key times of the joint tracks, ascending, into times[0 .. capacity) (times may be
 * NULL with capacity 0); returns how many there are, also when more than capacity (a BVH take's
 * frames; the frames animation compression counts a glTF clip's raw size by). 0 for NULL. */
TDN_API int tdn_keyed_clip_key_times(const tdn_keyed_clip *clip, float *times, int capacity);
/* Bytes of memory the clip holds. */
TDN_API size_t tdn_keyed_clip_memory_size(const tdn_keyed_clip *clip);

/* Samples every joint at `time` seconds (clamped to [0, duration]) into `pose`, whose joint count
 * must be the skeleton's (tdn_skeleton_joint_count, which for an imported asset can be more than
 * its listed joints: TDN_ERR_ARGUMENT with both counts otherwise). `hints` (optional,
 * tdn_keyed_clip_track_count ints, zeroed before first use) remembers the last key interval of each
 * track so that playing forward or backward finds keys in O(1); without it keys are found by binary
 * search. */
TDN_API tdn_result tdn_keyed_clip_sample(const tdn_keyed_clip *clip, float time, tdn_pose *pose, int *hints,
                                         tdn_error *err);

/* Named float tracks (curves); a track's name is owned by the clip, NULL for a bad index. */
TDN_API int tdn_keyed_clip_float_track_count(const tdn_keyed_clip *clip);
TDN_API const char *tdn_keyed_clip_float_track_name(const tdn_keyed_clip *clip, int index);
/* Index of the float track with this name, or -1. */
TDN_API int tdn_keyed_clip_find_float_track(const tdn_keyed_clip *clip, const char *name);
/* Value of float track `index` at `time` (clamped); 0 for a bad index. */
TDN_API float tdn_keyed_clip_sample_float(const tdn_keyed_clip *clip, int index, float time);

/* Number of events the clip holds. */
TDN_API int tdn_keyed_clip_event_count(const tdn_keyed_clip *clip);
/* Events sorted by time (ties keep the description's order). */
TDN_API const char *tdn_keyed_clip_event_name(const tdn_keyed_clip *clip, int index);
/* Sorted event times (tdn_keyed_clip_event_count of them), for tdn_player_events. */
TDN_API const float *tdn_keyed_clip_event_times(const tdn_keyed_clip *clip);

#ifdef __cplusplus
}
#endif
#endif
