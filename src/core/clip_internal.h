/* tendon core: what a runtime clip holds (not installed), for clip.c and for the pack reader,
 * which builds clips over a pack's bytes instead of through tdn_clip_create. */
#ifndef TENDON_CLIP_INTERNAL_H
#define TENDON_CLIP_INTERNAL_H

#include "annotations.h"
#include "clip_compressed.h"
#include "tendon/clip.h"

/* Contiguous joints [joint, joint + count) of one pose row, at `src` in a frame. */
typedef struct tdn__clip_run {
    int row;
    int joint;
    int src;
    int count;
} tdn__clip_run;

/* Largest frame count a build accepts (an hour at 30 Hz is 108,001). */
#define TDN__CLIP_MAX_FRAMES 10000000

/* The frames tdn_clip_create resamples `duration` seconds at `sample_rate` to (it may pass
 * TDN__CLIP_MAX_FRAMES); frames_per_second is then (frames - 1) / (double)duration, 0 for one. */
double tdn__clip_frame_count(float duration, float sample_rate);

struct tdn_clip {
    tdn_allocator allocator;
    size_t bytes; /* this block; the annotations count separately */
    const char *name;
    float duration;
    float sample_rate;        /* as asked */
    double frames_per_second; /* (frame_count - 1) / duration, 0 for a single frame */
    int frame_count;
    int joint_count;
    int additive;
    tdn_clip_storage storage; /* FLOAT32, INT16 or COMPRESSED */
    int animated_count;       /* components per frame (COMPRESSED: the held ones) */
    int constant_count;
    int run_count;         /* lerped runs */
    int hold_run_count;    /* held (STEP) runs */
    int animates_rotation; /* 1 if a rotation row has an animated component */
    tdn__clip_run *runs;
    tdn__clip_run *hold_runs;
    /* The constant components in the pose's own layout (TDN_POSE_ROWS rows of `stride` floats,
     * the animated components' places and the padding lanes at identity), NULL when there are
     * none: a sample copies it whole (a row slice each for a joint range), then writes the
     * animated runs over it. One copy instead of one per constant run, which cost more than the
     * interpolation on clips with many short runs of constant joints. */
    float *constant_pose;
    const float *frames_f32;    /* FLOAT32: frame_count * animated_count */
    const uint16_t *frames_q16; /* INT16: the same, quantized */
    const float *offsets;       /* INT16: per animated component, value = offset + scale * q */
    const float *scales;
    tdn__packed packed; /* COMPRESSED: the lerped tracks (held ones are frames_f32) */
    tdn__annotations *annotations;
};

#endif
