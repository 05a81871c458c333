/* tendon core: the virtual-vertex error of a runtime clip against its source.
 *
 * Times: the clip's frame times and the key times of the source (and of a reference clip that
 * varies in time), sorted, times a rounding apart merged, then the points 1/4, 1/2 and 3/4 of
 * the way between each consecutive pair. Between two frames the clip normalizes a lerp of two
 * rotations while the keyed clip slerps them: the two agree at the frames and at the midpoint
 * (by symmetry) and differ most near the quarter points, so a measure of frames and midpoints
 * alone misses the largest part of the interpolation error. Every (joint, time) error is kept
 * in one buffer for the exact 99th percentile. */
#include "tendon/clip_error.h"

#include <float.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "internal.h"
#include "keyed_clip_internal.h"
#include "tendon/blend.h"
#include "tendon/model_space.h"
#include "vertex_error.h"

/* Times closer than this fraction of a frame, or than SAME_TIME_ULPS float steps at their time,
 * are one time: a key time rounded away from its frame (BVH keys are f * frame time in float, a
 * few float steps from the frames' duration * f / (frames - 1) late in a long take) is no
 * interval of its own. */
#define SAME_TIME 1e-3
#define SAME_TIME_ULPS 8

typedef struct measurer {
    const tdn_clip_error_desc *desc;
    const tdn_skeleton *skeleton;
    const tdn_keyed_clip *reference_clip; /* sampled per time, NULL for a reference pose */
    int reference_at_start;               /* 1: the reference clip at t = 0, else at each time */
    int joint_count;
    float *times;
    int time_count;
    float *errors; /* time_count * joint_count, [time][joint] */
    int *hints, *reference_hints;
    tdn_pose expected, actual, reference;
    tdn_mat4 *model_expected, *model_actual;
} measurer;

/* The clip's frame count, as tdn_clip_sample's grid: frames evenly from 0 to the duration. */
static int frame_count(const tdn_clip *clip)
{
    const double duration = tdn_clip_duration(clip);
    return duration > 0.0 ? (int)floor(duration * tdn_clip_sample_rate(clip) + 0.5) + 1 : 1;
}

/* The times of the file comment into m->times (room for 4 * (frames + keys) floats). */
static void collect_times(measurer *m, const tdn_clip *clip)
{
    const double duration = tdn_clip_duration(clip);
    const int frames = frame_count(clip);
    int n = 0;
    for (int f = 0; f < frames; ++f)
        m->times[n++] = frames > 1 ? (float)(duration * f / (frames - 1)) : 0.0f;
    n = tdn__keyed_clip_append_key_times(m->desc->source, (float)duration, m->times, n);
    if (m->reference_clip && !m->reference_at_start)
        n = tdn__keyed_clip_append_key_times(m->reference_clip, (float)duration, m->times, n);
    qsort(m->times, (size_t)n, sizeof(float), tdn__compare_floats);
    /* A run of times that close to its first is one time, the last of the run. */
    const double spacing = frames > 1 ? duration / (frames - 1) : 0.0;
    int unique = 0;
    float run_start = 0.0f;
    for (int i = 0; i < n; ++i) {
        const double same = fmax(SAME_TIME * spacing, SAME_TIME_ULPS * FLT_EPSILON * m->times[i]);
        if (unique > 0 && (double)m->times[i] - run_start <= same) {
            m->times[unique - 1] = m->times[i];
            continue;
        }
        run_start = m->times[i];
        m->times[unique++] = m->times[i];
    }
    /* Spread in place from the back: time i moves to 4 i, its quarter points follow it. */
    for (int i = unique - 1; i >= 0; --i) {
        const double t0 = m->times[i];
        m->times[4 * i] = (float)t0;
        if (i + 1 < unique) {
            const double t1 = m->times[4 * (i + 1)];
            for (int q = 1; q < 4; ++q)
                m->times[4 * i + q] = (float)(t0 + (t1 - t0) * q / 4.0);
        }
    }
    m->time_count = unique > 0 ? 4 * unique - 3 : 0;
}

static tdn_result check_desc(const tdn_clip_error_desc *desc, tdn_error *err)
{
    if (!desc->clip)
        return tdn__null(err, "desc.clip");
    if (!desc->source)
        return tdn__null(err, "desc.source");
    if (!tdn__finite(desc->shell_distance) || desc->shell_distance <= 0.0f)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.shell_distance", "shell distance %g is not finite and > 0",
                         (double)desc->shell_distance);
    const int joints = tdn_clip_joint_count(desc->clip);
    const int source_joints = tdn_skeleton_joint_count(tdn_keyed_clip_skeleton(desc->source));
    if (source_joints != joints)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.source", "the source's skeleton has %d joints, the clip %d",
                         source_joints, joints);
    const tdn_pose *pose = desc->additive_reference_pose;
    const tdn_keyed_clip *ref = desc->additive_reference_clip;
    const int additive = tdn_clip_is_additive(desc->clip);
    if (pose && (ref || desc->additive_reference_first_frame))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.additive_reference_pose",
                         "give one additive reference: a pose, a clip, or a first frame");
    const int has_reference = pose || ref || desc->additive_reference_first_frame;
    if (additive && !has_reference)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.additive_reference_pose",
                         "the clip is additive: give the reference it was built against");
    if (!additive && has_reference)
        return tdn__fail(err, TDN_ERR_ARGUMENT, pose ? "desc.additive_reference_pose" : "desc.additive_reference_clip",
                         "an additive reference for a clip that is not additive");
    if (pose && (!pose->data || pose->joint_count != joints))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.additive_reference_pose",
                         "the reference pose has %d joints, the clip %d", pose->data ? pose->joint_count : 0, joints);
    if (ref && tdn_skeleton_joint_count(tdn_keyed_clip_skeleton(ref)) != joints)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.additive_reference_clip",
                         "the reference clip has %d joints, the clip %d",
                         tdn_skeleton_joint_count(tdn_keyed_clip_skeleton(ref)), joints);
    return TDN_OK;
}

/* Lays the scratch out over `block` (sizes only while its base is NULL). */
static void layout(measurer *m, tdn__block *block, size_t max_times, size_t hint_count)
{
    const size_t joints = (size_t)m->joint_count, pose_bytes = tdn_pose_bytes(m->joint_count);
    m->model_expected = tdn__block_take(block, joints, sizeof(tdn_mat4), TDN_POSE_ALIGN);
    m->model_actual = tdn__block_take(block, joints, sizeof(tdn_mat4), TDN_POSE_ALIGN);
    char *poses = tdn__block_take(block, 3 * pose_bytes, 1, TDN_POSE_ALIGN);
    m->times = tdn__block_take(block, max_times, sizeof(float), alignof(float));
    m->errors = tdn__block_take(block, max_times * joints, sizeof(float), alignof(float));
    m->hints = tdn__block_take(block, hint_count, sizeof(int), alignof(int));
    if (block->base) {
        tdn_pose_init(m->joint_count, poses, pose_bytes, &m->expected, NULL);
        tdn_pose_init(m->joint_count, poses + pose_bytes, pose_bytes, &m->actual, NULL);
        tdn_pose_init(m->joint_count, poses + 2 * pose_bytes, pose_bytes, &m->reference, NULL);
    }
}

/* What the clip shows at t into m->actual: sampled, and applied to its reference when additive. */
static void sample_actual(measurer *m, float t)
{
    const tdn_clip_error_desc *d = m->desc;
    tdn_clip_sample(d->clip, t, &m->actual, NULL);
    if (!tdn_clip_is_additive(d->clip))
        return;
    const tdn_pose *reference = d->additive_reference_pose;
    if (!reference) {
        tdn_keyed_clip_sample(m->reference_clip, m->reference_at_start ? 0.0f : t, &m->reference, m->reference_hints,
                              NULL);
        reference = &m->reference;
    }
    tdn_additive_apply(reference, &m->actual, 1.0f, NULL, &m->actual, NULL);
}

static void measure(measurer *m, tdn_clip_error *out)
{
    const int joints = m->joint_count;
    const float shell = m->desc->shell_distance;
    out->max_joint = -1;
    for (int i = 0; i < m->time_count; ++i) {
        const float t = m->times[i];
        tdn_keyed_clip_sample(m->desc->source, t, &m->expected, m->hints, NULL);
        sample_actual(m, t);
        tdn_model_space(m->skeleton, &m->expected, NULL, m->model_expected, NULL);
        tdn_model_space(m->skeleton, &m->actual, NULL, m->model_actual, NULL);
        float *errors = m->errors + (size_t)i * (size_t)joints;
        for (int j = 0; j < joints; ++j) {
            errors[j] = tdn__vertex_error(&m->model_expected[j], &m->model_actual[j], shell);
            if (errors[j] > out->max_error) {
                out->max_error = errors[j];
                out->max_joint = j;
                out->max_time = t;
            }
        }
    }
    const size_t n = (size_t)m->time_count * (size_t)joints;
    qsort(m->errors, n, sizeof(float), tdn__compare_floats);
    /* nearest rank: the ceil(0.99 n)-th smallest */
    const size_t rank = (size_t)ceil(0.99 * (double)n);
    out->p99_error = n ? m->errors[rank - 1] : 0.0f;
    out->sample_count = (long)n;
    out->time_count = m->time_count;
}

tdn_result tdn_clip_measure_error(const tdn_clip_error_desc *desc, tdn_clip_error *out, const tdn_allocator *allocator,
                                  tdn_error *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!desc)
        return tdn__null(err, "desc");
    if (!out)
        return tdn__null(err, "out");
    tdn_result r = check_desc(desc, err);
    if (r != TDN_OK || (r = tdn__check_allocator(allocator, err)) != TDN_OK)
        return r;

    measurer m = { 0 };
    m.desc = desc;
    m.skeleton = tdn_keyed_clip_skeleton(desc->source);
    m.joint_count = tdn_clip_joint_count(desc->clip);
    if (tdn_clip_is_additive(desc->clip) && !desc->additive_reference_pose) {
        m.reference_clip = desc->additive_reference_clip ? desc->additive_reference_clip : desc->source;
        m.reference_at_start = desc->additive_reference_first_frame != 0;
    }
    const int varying_reference = m.reference_clip && !m.reference_at_start;
    size_t keys = (size_t)tdn_keyed_clip_key_count(desc->source) +
                  (varying_reference ? (size_t)tdn_keyed_clip_key_count(m.reference_clip) : 0);
    size_t max_times = 4 * ((size_t)frame_count(desc->clip) + keys);
    size_t hint_count = (size_t)tdn_keyed_clip_track_count(desc->source) +
                        (m.reference_clip ? (size_t)tdn_keyed_clip_track_count(m.reference_clip) : 0);

    tdn__block block = { NULL, 0 };
    layout(&m, &block, max_times, hint_count);
    const size_t bytes = block.size;
    block = (tdn__block){ tdn__alloc(allocator, bytes, TDN_POSE_ALIGN), 0 };
    if (!block.base)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "out of memory (%zu bytes of scratch)", bytes);
    layout(&m, &block, max_times, hint_count);
    memset(m.hints, 0, hint_count * sizeof(int));
    m.reference_hints = m.hints + tdn_keyed_clip_track_count(desc->source);

    collect_times(&m, desc->clip);
    measure(&m, out);
    tdn__free(allocator, block.base, bytes);
    return TDN_OK;
}
