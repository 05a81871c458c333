/* tendon: runtime clips, the fast form of an animation.
 *
 * A runtime clip is built from a keyed clip by sampling it uniformly at a fixed rate and
 * storing, per frame, only the animated components (joint/property/axis) as one contiguous
 * block, quantized to 16 bits per component with a per-component range when that stays within
 * the caller's tolerance. Components that never change are stored once and cost one copy to
 * sample. Sampling is O(1) in the clip length (no key search): two frame blocks are read and
 * interpolated (lerp; normalized lerp for rotations, whose frames are stored sign-continuous
 * so the short path needs no test). The build measures the largest error against the keyed
 * clip and refuses a clip that exceeds the tolerance. A runtime clip can also be an additive
 * clip: each frame stored as the difference D = S * R^-1 from a reference. Immutable and
 * shareable across threads once built. */
#ifndef TENDON_CLIP_H
#define TENDON_CLIP_H

#include "base.h"
#include "keyed_clip.h"
#include "pose.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tdn_clip_storage {
    TDN_STORAGE_AUTO = 0, /* 16-bit if within tolerance, else 32-bit float */
    TDN_STORAGE_FLOAT32,
    TDN_STORAGE_INT16,
    /* Variable bit rates chosen by error_threshold (below): each animated track quantized within
     * its range over the clip and over each segment of 32 frames, at the fewest bits per segment
     * that keep the virtual-vertex error under the threshold at every frame and between frames
     * (less the error the frames' own interpolation has against the source); rotations stored
     * as their turn from the track's mean in 3 components (4 where they near half a turn);
     * smooth stretches keep only every 2nd, 4th or 8th frame; constant tracks stored once, STEP
     * tracks exact. Sampling never allocates; rotations are nlerped re-timed to follow slerp
     * (slerped when more than 60 degrees apart). */
    TDN_STORAGE_COMPRESSED
} tdn_clip_storage;

typedef struct tdn_clip_desc {
    const tdn_keyed_clip *source; /* required */
    /* Frames per second; 0: on the source's own key grid when its keys are evenly spaced (as in
     * glTF exports and BVH: the key rate times the smallest whole number reaching 30); for
     * uneven keys, the coarsest grid of 30..240 frames/s holding every key time, so that
     * linear keys are reproduced; else the key rate of its densest track kept within
     * 30..240. Frames are evenly
     * spaced from t = 0 to exactly t = duration:
     * frame_count = ceil(duration * sample_rate) + 1, so the spacing is at most 1 / sample_rate. */
    float sample_rate;
    tdn_clip_storage storage;
    float position_tolerance; /* largest model-space joint position error, skeleton units; 0: 1e-3 */
    float rotation_tolerance; /* largest local rotation error, radians; 0: 1e-3 */
    /* Additive clip: store D(t) = S(t) * R^-1. Give at most one reference; none: a plain clip. */
    const tdn_pose *additive_reference_pose;       /* R is this pose */
    const tdn_keyed_clip *additive_reference_clip; /* R(t) is this clip at the same time */
    /* R is the reference clip's pose at t = 0; without a reference clip, the source's own. */
    int additive_reference_first_frame;
    /* Optional out: receives what the build measured (tdn_clip_report, below), also on
     * TDN_ERR_TOLERANCE. */
    struct tdn_clip_report *report;
    /* The virtual-vertex error metric (the Animation Compression Library's): a joint's error is
     * the largest distance between where 3 vertices at shell_distance from it, along its local
     * axes, land in model space in the source and in the clip. COMPRESSED keeps it under
     * error_threshold at every frame (the position and rotation tolerances do not apply to it);
     * every storage reports it. Skeleton units; 0: 1e-4 (0.01 cm) and 0.03 (3 cm), for
     * skeletons in metres. */
    float error_threshold;
    float shell_distance;
    /* COMPRESSED: the float tracks (curves) drop the keys their other keys reproduce within this
     * (a LINEAR track's at every time; a STEP track's keys that hold the value already held;
     * CUBIC tracks keep every key). 0: 1e-4. Other storages copy them whole. */
    float float_track_tolerance;
} tdn_clip_desc;

/* What a build measured. Errors are the maximum over every frame time and the midpoint between
 * frames (where resampling error peaks) and every key time of the source (and of a reference
 * clip); the virtual-vertex error also over the points a quarter and three quarters between
 * frames (where nlerp and slerp part most). An additive clip is measured applied to its
 * reference (A = D * R) against the source, which is what a character playing it at full weight
 * on that reference shows. */
struct tdn_clip_report {
    float max_position_error; /* model space, skeleton units */
    int position_error_joint;
    float position_error_time;
    float max_rotation_error; /* local rotation angle, radians */
    int rotation_error_joint;
    float rotation_error_time;
    float max_scale_error;  /* largest absolute local scale difference */
    float max_vertex_error; /* the virtual-vertex error (tdn_clip_desc.shell_distance) */
    int vertex_error_joint;
    float vertex_error_time;
    tdn_clip_storage storage; /* what the build chose */
    int frame_count;
    int animated_components; /* components stored per frame */
    int constant_components; /* components stored once */
    size_t bytes;            /* all memory the clip holds */
};
typedef struct tdn_clip_report tdn_clip_report;

typedef struct tdn_clip tdn_clip;

/* Builds a runtime clip through `allocator` (NULL: malloc). desc->report (optional) receives
 * the measurements, also on
 * TDN_ERR_TOLERANCE (AUTO reports the float32 attempt then), whose `where` names the joint and
 * time of the worst error. TDN_ERR_ARGUMENT for a NULL source, a bad rate or tolerance, more
 * than one additive reference or a reference of another joint count; TDN_ERR_INVALID_DATA
 * when a difference is not finite (a zero scale in the reference). On failure *out is NULL
 * and nothing stays allocated. Not for the frame loop: it allocates scratch memory. */
TDN_API tdn_result tdn_clip_create(const tdn_clip_desc *desc, tdn_clip **out, const tdn_allocator *allocator,
                                   tdn_error *err);
/* Frees the clip; NULL is ignored. */
TDN_API void tdn_clip_destroy(tdn_clip *clip);

/* The clip's name (owned by the clip) and length in seconds; NULL and 0 for a NULL clip. */
TDN_API const char *tdn_clip_name(const tdn_clip *clip);
TDN_API float tdn_clip_duration(const tdn_clip *clip);
/* Frames per second of the stored frames, (frame_count - 1) / duration: at least the rate
 * asked for (the requested rate for a zero-length clip, which has one frame). */
TDN_API float tdn_clip_sample_rate(const tdn_clip *clip);
TDN_API int tdn_clip_joint_count(const tdn_clip *clip);
TDN_API int tdn_clip_is_additive(const tdn_clip *clip);
TDN_API size_t tdn_clip_memory_size(const tdn_clip *clip);

/* Samples every joint at `time` seconds (clamped to [0, duration]) into `pose`, whose joint
 * count must be the clip's skeleton's (tdn_skeleton_joint_count, which for an imported asset
 * can be more than its listed joints: TDN_ERR_ARGUMENT with both counts otherwise). Never
 * allocates; thread-safe for distinct poses. */
TDN_API tdn_result tdn_clip_sample(const tdn_clip *clip, float time, tdn_pose *pose, tdn_error *err);

/* Float tracks and events are copied from the source keyed clip unchanged (keyed, exact). */
TDN_API int tdn_clip_float_track_count(const tdn_clip *clip);
TDN_API const char *tdn_clip_float_track_name(const tdn_clip *clip, int index);
TDN_API int tdn_clip_find_float_track(const tdn_clip *clip, const char *name);
TDN_API float tdn_clip_sample_float(const tdn_clip *clip, int index, float time);
TDN_API int tdn_clip_event_count(const tdn_clip *clip);
TDN_API const char *tdn_clip_event_name(const tdn_clip *clip, int index);
/* Sorted event times (tdn_clip_event_count of them), for tdn_player_events. */
TDN_API const float *tdn_clip_event_times(const tdn_clip *clip);

#ifdef __cplusplus
}
#endif
#endif
