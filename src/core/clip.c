/* tendon core: runtime clips.
 *
 * Build: the keyed clip is resampled at frame_count uniformly spaced times, frame f at
 * f * duration / (frame_count - 1) with frame_count = ceil(duration * sample_rate) + 1, so the
 * first and last frames sit exactly on the clip's ends and the spacing is at most
 * 1 / sample_rate. Each of the 10 * joint_count pose components (row, joint) is either
 * constant (stored once) or animated (stored per frame). Animated components are packed per
 * frame in pose-row-then-joint order, so a run of neighbouring joints in one row is contiguous
 * both in a frame and in the pose: sampling is a few straight lerp loops over runs, then one
 * renormalization pass over the rotation rows. Rotations are made sign-continuous from frame
 * to frame at build, so the lerp takes the short way without a test. Components of STEP
 * tracks are held, not lerped (a plain copy of the frame at or before the time), so a step
 * whose key times lie on the frame grid is reproduced exactly; off the grid the build's error
 * measurement sees the late jump.
 *
 * Sampling: u = time * frames_per_second, f0 = floor(u) (at most frame_count - 2),
 * a = u - f0; dst = lerp(frame f0, frame f0 + 1, a), dequantizing 16-bit components as
 * offset + scale * q inside the same loop. */
#include "tendon/clip.h"

#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotations.h"
#include "block.h"
#include "clip_internal.h"
#include "internal.h"
#include "keyed_clip_internal.h"
#include "slerp_time.h"
#include "tendon/model_space.h"
#include "vertex_error.h"

/* A time within this fraction of a frame below a frame's time counts as on it, so a step key
 * on the frame grid is held from its own frame even when time * rate rounds down. */
#define CLIP_FRAME_SNAP 1e-4
/* A constant this close to the reference (relative above 1) counts as at rest (tdn__clip_moved_rows). */
#define CLIP_REST_TOLERANCE 1e-6f
/* A component whose values all lie within this (relative) band is stored once. */
#define CLIP_CONSTANT_EPSILON 1e-6f

/* ---- sampling ---- */

static void lerp_f32(float *restrict dst, const float *restrict f0, const float *restrict f1, float a, int n)
{
    for (int i = 0; i < n; ++i)
        dst[i] = f0[i] + (f1[i] - f0[i]) * a;
}

static void lerp_q16(float *restrict dst, const uint16_t *restrict f0, const uint16_t *restrict f1,
                     const float *restrict offset, const float *restrict scale, float a, int n)
{
    for (int i = 0; i < n; ++i) {
        float q0 = (float)f0[i], q1 = (float)f1[i];
        dst[i] = offset[i] + scale[i] * (q0 + (q1 - q0) * a);
    }
}

static void normalize_rotations(float *restrict x, float *restrict y, float *restrict z, float *restrict w, int n)
{
    for (int i = 0; i < n; ++i) {
        float inv = 1.0f / sqrtf(x[i] * x[i] + y[i] * y[i] + z[i] * z[i] + w[i] * w[i]);
        x[i] *= inv;
        y[i] *= inv;
        z[i] *= inv;
        w[i] *= inv;
    }
}

static void dequantize(float *restrict dst, const uint16_t *restrict q, const float *restrict offset,
                       const float *restrict scale, int n)
{
    for (int i = 0; i < n; ++i)
        dst[i] = offset[i] + scale[i] * (float)q[i];
}

/* The part of a run inside joints [begin, end): its first joint and source slot and its length
 * (0: none). */
static int run_part(const tdn__clip_run *run, int begin, int end, int *joint, int *src)
{
    int lo = run->joint > begin ? run->joint : begin;
    int hi = run->joint + run->count < end ? run->joint + run->count : end;
    *joint = lo;
    *src = run->src + (lo - run->joint);
    return hi - lo;
}

static int rotation_run(const tdn__clip_run *run) { return run->row >= TDN_RX && run->row <= TDN_RW; }

/* Whether the float32 runs (held components, or tracks left out of a compressed clip's groups)
 * write some rotation component. */
static int runs_write_rotations(const tdn_clip *clip)
{
    for (int r = 0; r < clip->run_count; ++r)
        if (rotation_run(&clip->runs[r]))
            return 1;
    for (int r = 0; r < clip->hold_run_count; ++r)
        if (rotation_run(&clip->hold_runs[r]))
            return 1;
    return 0;
}

void tdn__clip_sample_range(const tdn_clip *clip, tdn__packed_cache *cache, float time, tdn_pose *pose, int begin,
                            int end, unsigned rows)
{
    const size_t stride = (size_t)pose->stride;
    float *data = pose->data;

    int f0 = 0, f1 = 0, held = 0;
    float a = 0.0f;
    if (clip->frame_count > 1) {
        const double u = (double)tdn__clamp_time(time, clip->duration) * clip->frames_per_second;
        const int last = clip->frame_count - 1;
        f0 = (int)u < last ? (int)u : last - 1;
        f1 = f0 + 1;
        a = (float)(u - f0);
        held = (int)(u + CLIP_FRAME_SNAP) < last ? (int)(u + CLIP_FRAME_SNAP) : last;
    }

    /* through the cache when what it holds is used again (tdn__packed_cache_follows); otherwise
     * decoding straight into the pose costs less */
    const int packed = clip->storage == TDN_STORAGE_COMPRESSED;
    const int through_cache = packed && cache && tdn__packed_cache_follows(cache, f0);
    if (clip->constant_pose && !through_cache) { /* a cache holds the constants itself */
        if (begin == 0 && end == pose->stride && rows == TDN__ROWS_ALL)
            memcpy(data, clip->constant_pose, (size_t)TDN_POSE_ROWS * stride * sizeof(float));
        else
            for (int r = 0; r < TDN_POSE_ROWS; ++r)
                if (tdn__row_in(rows, r))
                    memcpy(data + (size_t)r * stride + (size_t)begin,
                           clip->constant_pose + (size_t)r * stride + (size_t)begin,
                           (size_t)(end - begin) * sizeof(float));
    }
    const size_t n = (size_t)clip->animated_count;
    int joint, src, count;
    const int last_joint = end < clip->joint_count ? end : clip->joint_count;
    const int normalize = clip->animates_rotation && (rows & TDN__ROWS_R) && last_joint > begin;
    int normalized = begin; /* rotations of joints [begin, normalized) are unit already */
    /* through the cache, the interpolation writes every joint up to `limit` (the padding lanes only
     * when they would have had the constants') and normalizes the rotations, unless float32 runs
     * write some after it */
    if (through_cache)
        normalized = tdn__packed_sample_cached(&clip->packed, cache, f0, a, pose, begin, end,
                                               clip->constant_pose || end < clip->joint_count ? end : clip->joint_count,
                                               normalize && !runs_write_rotations(clip) ? last_joint : begin, rows);
    else if (packed)
        tdn__packed_sample(&clip->packed, f0, a, pose, begin, end, rows);
    if (clip->storage == TDN_STORAGE_INT16) {
        const uint16_t *q0 = clip->frames_q16 + (size_t)f0 * n, *q1 = clip->frames_q16 + (size_t)f1 * n;
        for (int r = 0; r < clip->run_count; ++r)
            if (tdn__row_in(rows, clip->runs[r].row) &&
                (count = run_part(&clip->runs[r], begin, end, &joint, &src)) > 0)
                lerp_q16(data + (size_t)clip->runs[r].row * stride + (size_t)joint, q0 + src, q1 + src,
                         clip->offsets + src, clip->scales + src, a, count);
        const uint16_t *qh = clip->frames_q16 + (size_t)held * n;
        for (int r = 0; r < clip->hold_run_count; ++r)
            if (tdn__row_in(rows, clip->hold_runs[r].row) &&
                (count = run_part(&clip->hold_runs[r], begin, end, &joint, &src)) > 0)
                dequantize(data + (size_t)clip->hold_runs[r].row * stride + (size_t)joint, qh + src,
                           clip->offsets + src, clip->scales + src, count);
    } else {
        const float *v0 = clip->frames_f32 + (size_t)f0 * n, *v1 = clip->frames_f32 + (size_t)f1 * n;
        for (int r = 0; r < clip->run_count; ++r)
            if (tdn__row_in(rows, clip->runs[r].row) &&
                (count = run_part(&clip->runs[r], begin, end, &joint, &src)) > 0)
                lerp_f32(data + (size_t)clip->runs[r].row * stride + (size_t)joint, v0 + src, v1 + src, a, count);
        const float *vh = clip->frames_f32 + (size_t)held * n;
        for (int r = 0; r < clip->hold_run_count; ++r)
            if (tdn__row_in(rows, clip->hold_runs[r].row) &&
                (count = run_part(&clip->hold_runs[r], begin, end, &joint, &src)) > 0)
                memcpy(data + (size_t)clip->hold_runs[r].row * stride + (size_t)joint, vh + src,
                       (size_t)count * sizeof(float));
    }
    if (normalize && last_joint > normalized)
        normalize_rotations(data + TDN_RX * stride + normalized, data + TDN_RY * stride + normalized,
                            data + TDN_RZ * stride + normalized, data + TDN_RW * stride + normalized,
                            last_joint - normalized);
}

void tdn__clip_rest_limits(const tdn_pose *reference, float *limits)
{
    /* max(|ref|, 1) compared as bits (non-negative floats order as their bits, NaN above
     * infinity), which vectorizes where a float compare and select do not */
    const size_t n = (size_t)TDN_POSE_ROWS * (size_t)reference->stride;
    const float *ref = tdn_pose_crow(reference, 0);
    const int32_t one = 0x3f800000; /* 1.0f */
    for (size_t i = 0; i < n; i++) {
        const float magnitude = fabsf(ref[i]);
        int32_t bits;
        memcpy(&bits, &magnitude, 4);
        bits = bits > one ? bits : one;
        float larger;
        memcpy(&larger, &bits, 4);
        limits[i] = CLIP_REST_TOLERANCE * larger;
    }
}

/* Marks with `bits` the lanes of moved[0, lanes) where one of rows [first, first + count) of
 * the constant pose c is off the reference by more than its limit (NaN too). A row group at a
 * time: few enough pointers to stay in registers, and the loop vectorizes. */
static inline void mark_off_rows(const float *c, const float *ref, const float *limit, size_t stride, size_t first,
                                 size_t count, int bits, size_t lanes, int *moved)
{
    for (size_t j = 0; j < lanes; j++) {
        int near = -1;
        for (size_t r = first; r < first + count; r++) {
            const size_t at = r * stride + j;
            near &= -(fabsf(c[at] - ref[at]) <= limit[at]);
        }
        moved[j] |= ~near & bits;
    }
}

void tdn__clip_moved_rows(const tdn_clip *clip, const tdn_pose *reference, const float *limits, unsigned char *joints)
{
    const int rows_of[TDN_POSE_ROWS] = { TDN__ROWS_T, TDN__ROWS_T, TDN__ROWS_T, TDN__ROWS_R, TDN__ROWS_R,
                                         TDN__ROWS_R, TDN__ROWS_R, TDN__ROWS_S, TDN__ROWS_S, TDN__ROWS_S };
    const tdn__clip_run *lists[2] = { clip->runs, clip->hold_runs };
    const int counts[2] = { clip->run_count, clip->hold_run_count };
    for (int l = 0; l < 2; l++)
        for (int r = 0; r < counts[l]; r++)
            for (int j = lists[l][r].joint; j < lists[l][r].joint + lists[l][r].count; j++)
                joints[j] |= (unsigned char)rows_of[lists[l][r].row];
    const unsigned char kind_rows[3] = { TDN__ROWS_T, TDN__ROWS_R, TDN__ROWS_S };
    for (int g = 0; g < clip->packed.group_count; g++)
        for (int i = 0; i < clip->packed.groups[g].stride; i++)
            joints[clip->packed.groups[g].joint[i]] |= kind_rows[clip->packed.groups[g].kind];
    if (!clip->constant_pose) /* every component is animated */
        return;
    /* Animated places hold identity: they are marked anyway. Off by more than the limit (NaN
     * too) is off by more than the tolerance and than its product with |ref| (the product is
     * monotone: the same floats). Blocks of BLOCK lanes gather every row's marks as ints, then
     * store the joints' as bytes: the loops vectorize, a block's lanes being a multiple of
     * TDN_POSE_LANES (the last runs on into the rows' padding, inside the stride). */
    enum { BLOCK = 64 };
    const size_t stride = (size_t)reference->stride, joint_count = (size_t)clip->joint_count;
    const float *c = clip->constant_pose, *ref = tdn_pose_crow(reference, 0), *limit = limits;
    for (size_t begin = 0; begin < joint_count; begin += BLOCK) {
        const size_t lanes = stride - begin < BLOCK ? stride - begin : BLOCK;
        int moved[BLOCK] = { 0 };
        const float *cb = c + begin, *refb = ref + begin, *limitb = limit + begin;
        mark_off_rows(cb, refb, limitb, stride, TDN_TX, 3, TDN__ROWS_T, lanes, moved);
        mark_off_rows(cb, refb, limitb, stride, TDN_RX, 4, TDN__ROWS_R, lanes, moved);
        mark_off_rows(cb, refb, limitb, stride, TDN_SX, 3, TDN__ROWS_S, lanes, moved);
        const size_t n = joint_count - begin < BLOCK ? joint_count - begin : BLOCK;
        for (size_t j = 0; j < n; j++)
            joints[begin + j] |= (unsigned char)moved[j];
    }
}

tdn_result tdn_clip_sample(const tdn_clip *clip, float time, tdn_pose *pose, tdn_error *err)
{
    if (!clip)
        return tdn__null(err, "clip");
    if (!pose || !pose->data)
        return tdn__null(err, "pose");
    if (pose->joint_count != clip->joint_count)
        return tdn__clip_pose_size(err, pose->joint_count, clip->joint_count);
    tdn__clip_sample_range(clip, NULL, time, pose, 0, pose->stride, TDN__ROWS_ALL);
    return TDN_OK;
}

/* ---- building ---- */

/* Everything a build needs besides the clip itself, allocated once and freed at the end. */
typedef struct build {
    const tdn_clip_desc *desc;
    const tdn_keyed_clip *source;
    const tdn_skeleton *skeleton;
    const tdn_allocator *allocator;
    int joint_count;
    int frame_count;
    float duration;
    int components; /* 10 * joint_count */
    float *values;  /* frame_count * components, [frame][row * joint_count + joint] */
    float *lo, *hi; /* per component: range over frames */
    float *times;   /* error measurement times, sorted, unique */
    int time_count;
    int *hints; /* source track hints */
    int *reference_hints;
    tdn_pose sample, reference, actual;
    tdn_mat4 *model_expect, *model_actual;
    /* COMPRESSED: an additive clip's reference per frame (laid out as values), and the plan */
    float *reference_values;
    unsigned char *packed_tracks; /* per kind (TDN__PACK_*) and joint: packed */
    float *segment_errors;        /* per segment: the float32 frames' own error against the source */
    tdn__pack_plan pack;
    void *memory;
    size_t memory_bytes;
} build;

static double frame_time(const build *b, int f)
{
    return b->frame_count > 1 ? (double)b->duration * f / (b->frame_count - 1) : 0.0;
}

static const tdn_keyed_clip *reference_clip(const tdn_clip_desc *desc)
{
    if (desc->additive_reference_clip)
        return desc->additive_reference_clip;
    return desc->additive_reference_first_frame ? desc->source : NULL;
}

static int is_additive(const tdn_clip_desc *desc) { return desc->additive_reference_pose || reference_clip(desc); }

/* The additive reference at time t into b->reference. */
static void sample_reference(build *b, float t)
{
    const tdn_clip_desc *d = b->desc;
    if (d->additive_reference_pose) {
        tdn_pose_copy(&b->reference, d->additive_reference_pose, NULL);
        return;
    }
    const tdn_keyed_clip *ref = reference_clip(d);
    tdn_keyed_clip_sample(ref, d->additive_reference_first_frame ? 0.0f : t, &b->reference, b->reference_hints, NULL);
}

static tdn_result build_alloc(build *b, tdn_error *err)
{
    const tdn_keyed_clip *ref = reference_clip(b->desc);
    const size_t frames = (size_t)b->frame_count, comps = (size_t)b->components;
    size_t max_times = 4 * frames + (size_t)tdn_keyed_clip_key_count(b->source) +
                       (ref ? (size_t)tdn_keyed_clip_key_count(ref) : 0);
    size_t hint_count = (size_t)tdn_keyed_clip_track_count(b->source) +
                        (ref ? (size_t)tdn_keyed_clip_track_count(ref) : 0);
    size_t pose_bytes = tdn_pose_bytes(b->joint_count);

    for (int pass = 0; pass < 2; ++pass) {
        tdn__block block = { pass ? b->memory : NULL, 0 };
        b->model_expect = tdn__block_take(&block, (size_t)b->joint_count, sizeof(tdn_mat4), TDN_POSE_ALIGN);
        b->model_actual = tdn__block_take(&block, (size_t)b->joint_count, sizeof(tdn_mat4), TDN_POSE_ALIGN);
        float *poses = tdn__block_take(&block, 3 * pose_bytes, 1, TDN_POSE_ALIGN);
        b->values = tdn__block_take(&block, frames * comps, sizeof(float), alignof(float));
        const int keep_reference = b->desc->storage == TDN_STORAGE_COMPRESSED && is_additive(b->desc);
        b->reference_values = tdn__block_take(&block, keep_reference ? frames * comps : 0, sizeof(float),
                                              alignof(float));
        b->lo = tdn__block_take(&block, comps, sizeof(float), alignof(float));
        b->hi = tdn__block_take(&block, comps, sizeof(float), alignof(float));
        b->times = tdn__block_take(&block, max_times, sizeof(float), alignof(float));
        b->packed_tracks = tdn__block_take(&block, 3 * (size_t)b->joint_count, 1, 1);
        b->segment_errors = tdn__block_take(&block, (frames + TDN__PACK_SEGMENT - 1) / TDN__PACK_SEGMENT + 1,
                                            sizeof(float), alignof(float));
        b->hints = tdn__block_take(&block, hint_count, sizeof(int), alignof(int));
        if (!pass) {
            b->memory_bytes = block.size;
            b->memory = tdn__alloc(b->allocator, block.size, TDN_POSE_ALIGN);
            if (!b->memory)
                return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "clip", "out of memory (%zu bytes of build scratch)",
                                 block.size);
        } else {
            memset(b->hints, 0, hint_count * sizeof(int));
            b->reference_hints = b->hints + tdn_keyed_clip_track_count(b->source);
            tdn_pose_init(b->joint_count, poses, pose_bytes, &b->sample, NULL);
            tdn_pose_init(b->joint_count, (char *)poses + pose_bytes, pose_bytes, &b->reference, NULL);
            tdn_pose_init(b->joint_count, (char *)poses + 2 * pose_bytes, pose_bytes, &b->actual, NULL);
        }
    }
    /* Frame times, the points at a quarter, half and three quarters between them (nlerp and
     * slerp agree at the half, not at the quarters), and every key time of the source and
     * reference. */
    int n = 0;
    for (int f = 0; f < b->frame_count; ++f) {
        b->times[n++] = (float)frame_time(b, f);
        for (int q = 1; q < 4 && f + 1 < b->frame_count; q++)
            b->times[n++] = (float)(frame_time(b, f) + 0.25 * q * (frame_time(b, f + 1) - frame_time(b, f)));
    }
    n = tdn__keyed_clip_append_key_times(b->source, b->duration, b->times, n);
    if (ref && !b->desc->additive_reference_first_frame)
        n = tdn__keyed_clip_append_key_times(ref, b->duration, b->times, n);
    qsort(b->times, (size_t)n, sizeof(float), tdn__compare_floats);
    int unique = 0;
    for (int i = 0; i < n; ++i)
        if (unique == 0 || b->times[i] != b->times[unique - 1])
            b->times[unique++] = b->times[i];
    b->time_count = unique;
    return TDN_OK;
}

/* D = S * R^-1 per joint, written over S. */
static tdn_result make_difference(build *b, float t, tdn_error *err)
{
    for (int j = 0; j < b->joint_count; ++j) {
        tdn_transform s = tdn_pose_get(&b->sample, j), r = tdn_pose_get(&b->reference, j);
        if (r.s.x == 0.0f || r.s.y == 0.0f || r.s.z == 0.0f) {
            char where[128];
            snprintf(where, sizeof where, "joint %d ('%s') at t = %g s", j, tdn_skeleton_joint_name(b->skeleton, j),
                     (double)t);
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "the additive reference has a zero scale");
        }
        tdn_transform d;
        d.t = tdn_vec3_sub(s.t, r.t);
        d.r = tdn_quat_mul(s.r, tdn_quat_conjugate(r.r));
        d.s = tdn_vec3_make(s.s.x / r.s.x, s.s.y / r.s.y, s.s.z / r.s.z);
        tdn_pose_set(&b->sample, j, &d);
    }
    return TDN_OK;
}

/* Resamples the source (as differences for an additive clip) into b->values, rotations
 * sign-continuous across frames, and finds each component's range. */
static tdn_result resample(build *b, tdn_error *err)
{
    const int J = b->joint_count, C = b->components;
    for (int f = 0; f < b->frame_count; ++f) {
        float t = (float)frame_time(b, f);
        tdn_keyed_clip_sample(b->source, t, &b->sample, b->hints, NULL);
        if (is_additive(b->desc)) {
            sample_reference(b, t);
            if (b->desc->storage == TDN_STORAGE_COMPRESSED)
                for (int row = 0; row < TDN_POSE_ROWS; ++row)
                    memcpy(b->reference_values + (size_t)f * (size_t)C + (size_t)row * (size_t)J,
                           tdn_pose_crow(&b->reference, row), (size_t)J * sizeof(float));
            tdn_result r = make_difference(b, t, err);
            if (r != TDN_OK)
                return r;
        }
        float *frame = b->values + (size_t)f * C;
        for (int row = 0; row < TDN_POSE_ROWS; ++row)
            memcpy(frame + row * J, tdn_pose_crow(&b->sample, row), (size_t)J * sizeof(float));
        if (f > 0) {
            const float *prev = frame - C;
            for (int j = 0; j < J; ++j) {
                float dot = 0.0f;
                for (int row = TDN_RX; row <= TDN_RW; ++row)
                    dot += frame[row * J + j] * prev[row * J + j];
                if (dot < 0.0f)
                    for (int row = TDN_RX; row <= TDN_RW; ++row)
                        frame[row * J + j] = -frame[row * J + j];
            }
        }
        for (int c = 0; c < C; ++c) {
            float v = frame[c];
            if (!tdn__finite(v)) {
                char where[128];
                int j = c % J;
                snprintf(where, sizeof where, "joint %d ('%s') at t = %g s", j, tdn_skeleton_joint_name(b->skeleton, j),
                         (double)t);
                return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "the %s difference is not finite",
                                 c / J < TDN_RX   ? "translation"
                                 : c / J < TDN_SX ? "rotation"
                                                  : "scale");
            }
            if (f == 0 || v < b->lo[c])
                b->lo[c] = v;
            if (f == 0 || v > b->hi[c])
                b->hi[c] = v;
        }
    }
    return TDN_OK;
}

enum component_kind { COMPONENT_CONSTANT, COMPONENT_LERP, COMPONENT_HOLD };

static tdn_track_target row_target(int row)
{
    return row < TDN_RX ? TDN_TARGET_TRANSLATION : row < TDN_SX ? TDN_TARGET_ROTATION : TDN_TARGET_SCALE;
}

/* A track is held when it is STEP; for an additive clip against a moving reference, only when
 * the reference's track is STEP too (or absent), since the difference of a step and a curve
 * is a curve. */
static int is_held(const build *b, int joint, tdn_track_target target)
{
    const tdn__curve *track = tdn__keyed_clip_find_track(b->source, joint, target);
    if (!track || track->interp != TDN_INTERP_STEP)
        return 0;
    const tdn_keyed_clip *ref = reference_clip(b->desc);
    if (!ref || b->desc->additive_reference_first_frame)
        return 1;
    const tdn__curve *ref_track = tdn__keyed_clip_find_track(ref, joint, target);
    return !ref_track || ref_track->interp == TDN_INTERP_STEP;
}

static enum component_kind classify(const build *b, int row, int joint)
{
    const int c = row * b->joint_count + joint;
    float lo = b->lo[c], hi = b->hi[c];
    float magnitude = fmaxf(fabsf(lo), fabsf(hi));
    if (hi - lo <= CLIP_CONSTANT_EPSILON * fmaxf(1.0f, magnitude))
        return COMPONENT_CONSTANT;
    return is_held(b, joint, row_target(row)) ? COMPONENT_HOLD : COMPONENT_LERP;
}

/* Collects components into runs: a component extends the last run when it is the next joint of
 * the same row and the next slot of the source. With runs NULL it only counts. */
typedef struct run_builder {
    tdn__clip_run *runs;
    int count;
    tdn__clip_run last;
} run_builder;

static void run_add(run_builder *rb, int row, int joint, int src)
{
    tdn__clip_run *last = &rb->last;
    if (rb->count > 0 && last->row == row && last->joint + last->count == joint && last->src + last->count == src) {
        last->count++;
    } else {
        rb->count++;
        *last = (tdn__clip_run){ row, joint, src, 1 };
    }
    if (rb->runs)
        rb->runs[rb->count - 1] = *last;
}

/* COMPRESSED: which tracks are packed (any of their components lerped) and what the packer reads. */
static tdn__pack_source pack_source(const build *b)
{
    const int J = b->joint_count;
    const int first_row[3] = { TDN_TX, TDN_RX, TDN_SX }, rows[3] = { 3, 4, 3 };
    for (int kind = 0; kind < 3; kind++)
        for (int j = 0; j < J; j++) {
            int lerped = 0;
            for (int r = first_row[kind]; r < first_row[kind] + rows[kind]; r++)
                lerped |= classify(b, r, j) == COMPONENT_LERP;
            b->packed_tracks[kind * J + j] = (unsigned char)lerped;
        }
    const tdn__pack_source src = { b->skeleton,
                                   J,
                                   b->frame_count,
                                   b->values,
                                   b->packed_tracks,
                                   is_additive(b->desc) ? b->reference_values : NULL,
                                   b->segment_errors,
                                   b->desc->error_threshold,
                                   b->desc->shell_distance };
    return src;
}

/* Runs twice (see block.h): sizes first, then fills the clip (counts from count_components). */
static void layout(tdn__block *block, tdn_clip *clip, const build *b, tdn_clip_storage storage, const char *name)
{
    const int J = b->joint_count;
    const size_t frames = (size_t)b->frame_count;
    (void)tdn__block_take(block, 1, sizeof *clip, alignof(tdn_clip)); /* the struct itself, at 0 */
    size_t name_size = strlen(name) + 1;
    char *name_copy = tdn__block_take(block, name_size, 1, 1);
    clip->runs = tdn__block_take(block, (size_t)clip->run_count, sizeof(tdn__clip_run), alignof(tdn__clip_run));
    clip->hold_runs = tdn__block_take(block, (size_t)clip->hold_run_count, sizeof(tdn__clip_run),
                                      alignof(tdn__clip_run));
    const size_t stride = (size_t)tdn_pose_stride(J);
    float *constant_pose = clip->constant_count > 0
                               ? tdn__block_take(block, TDN_POSE_ROWS * stride, sizeof(float), TDN_POSE_ALIGN)
                               : NULL;
    const size_t n = (size_t)clip->animated_count;
    float *offsets = NULL, *scales = NULL, *frames_f32 = NULL;
    uint16_t *frames_q16 = NULL;
    if (storage == TDN_STORAGE_INT16) {
        offsets = tdn__block_take(block, n, sizeof(float), TDN_POSE_ALIGN);
        scales = tdn__block_take(block, n, sizeof(float), TDN_POSE_ALIGN);
        frames_q16 = tdn__block_take(block, frames * n, sizeof(uint16_t), TDN_POSE_ALIGN);
    } else {
        frames_f32 = tdn__block_take(block, frames * n, sizeof(float), TDN_POSE_ALIGN);
    }
    tdn__pack_group *groups = NULL;
    uint32_t *words = NULL;
    uint8_t *records = NULL;
    if (storage == TDN_STORAGE_COMPRESSED) {
        groups = tdn__block_take(block, (size_t)b->pack.group_count, sizeof *groups, alignof(tdn__pack_group));
        records = tdn__block_take(block, b->pack.record_bytes, 1, 1);
        words = tdn__block_take(block, b->pack.word_count, sizeof *words, alignof(uint32_t));
    }
    if (!block->base)
        return;
    if (storage == TDN_STORAGE_COMPRESSED) {
        const tdn__pack_source src = pack_source(b);
        tdn__pack_write(&src, &b->pack, groups, records, words, &clip->packed);
    }

    memcpy(name_copy, name, name_size);
    clip->name = name_copy;
    clip->offsets = offsets;
    clip->scales = scales;
    clip->frames_f32 = frames_f32;
    clip->frames_q16 = frames_q16;
    clip->constant_pose = constant_pose;
    if (constant_pose) { /* identity where nothing constant goes: the padding lanes stay identity */
        tdn_pose identity;
        tdn_pose_init(J, constant_pose, TDN_POSE_ROWS * stride * sizeof(float), &identity, NULL);
    }
    int animated = 0;
    run_builder runs = { clip->runs, 0, { 0, 0, 0, 0 } }, hold_runs = { clip->hold_runs, 0, { 0, 0, 0, 0 } };
    for (int row = 0; row < TDN_POSE_ROWS; ++row) {
        for (int j = 0; j < J; ++j) {
            const int c = row * J + j;
            const enum component_kind kind = classify(b, row, j);
            if (kind == COMPONENT_CONSTANT) {
                constant_pose[(size_t)row * stride + (size_t)j] = 0.5f * (b->lo[c] + b->hi[c]);
                continue;
            }
            if (kind == COMPONENT_LERP && storage == TDN_STORAGE_COMPRESSED)
                continue; /* packed */
            const float lo = b->lo[c], range = b->hi[c] - b->lo[c];
            if (storage == TDN_STORAGE_INT16) {
                offsets[animated] = lo;
                scales[animated] = range / 65535.0f;
            }
            for (size_t f = 0; f < frames; ++f) {
                float v = b->values[f * (size_t)b->components + (size_t)c];
                if (storage == TDN_STORAGE_INT16) {
                    float q = rintf((v - lo) / range * 65535.0f);
                    /* NaN (from values too far apart for their range to be a float) goes to 0 */
                    frames_q16[f * n + (size_t)animated] = (uint16_t)(q > 0.0f ? (q < 65535.0f ? q : 65535.0f) : 0.0f);
                } else {
                    frames_f32[f * n + (size_t)animated] = v;
                }
            }
            run_add(kind == COMPONENT_HOLD ? &hold_runs : &runs, row, j, animated++);
        }
    }
}

/* Counts constant, lerped and held components and their runs. */
static void count_components(tdn_clip *clip, const build *b)
{
    run_builder runs = { NULL, 0, { 0, 0, 0, 0 } }, hold_runs = { NULL, 0, { 0, 0, 0, 0 } };
    for (int row = 0; row < TDN_POSE_ROWS; ++row) {
        for (int j = 0; j < b->joint_count; ++j) {
            const enum component_kind kind = classify(b, row, j);
            if (kind == COMPONENT_CONSTANT) {
                clip->constant_count++;
                continue;
            }
            if (row >= TDN_RX && row <= TDN_RW)
                clip->animates_rotation = 1;
            if (kind == COMPONENT_LERP && b->desc->storage == TDN_STORAGE_COMPRESSED)
                continue; /* packed */
            run_add(kind == COMPONENT_HOLD ? &hold_runs : &runs, row, j, clip->animated_count++);
        }
    }
    clip->run_count = runs.count;
    clip->hold_run_count = hold_runs.count;
}
/* Angle of the rotation between a and b in double precision: 2 atan2(|v|, |w|) of a* b, accurate
 * for tiny angles where acos of a dot product is not. */
static double rotation_error(tdn_quat a, tdn_quat b)
{
    double ax = -a.x, ay = -a.y, az = -a.z, aw = a.w;
    double x = aw * b.x + ax * b.w + ay * b.z - az * b.y;
    double y = aw * b.y - ax * b.z + ay * b.w + az * b.x;
    double z = aw * b.z + ax * b.y - ay * b.x + az * b.w;
    double w = aw * b.w - ax * b.x - ay * b.y - az * b.z;
    return 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w));
}

/* Whether t lies a quarter or three quarters of the way between two frames. Those times serve
 * the virtual-vertex error alone: the position, rotation and scale tolerances keep the times
 * they always had (frames, midpoints, keys), so that no build that passed them fails now. */
static double build_rate(const build *b)
{
    return b->frame_count > 1 ? (b->frame_count - 1) / (double)b->duration : 0.0;
}

static int is_quarter_point(const build *b, float t)
{
    const double u = (double)t * build_rate(b), fraction = u - floor(u);
    return fabs(fraction - 0.25) < 1e-3 || fabs(fraction - 0.75) < 1e-3;
}

/* The local errors at one time into the report (rotation angle, scale). */
static void local_errors(const build *b, float t, tdn_clip_report *rep)
{
    for (int j = 0; j < b->joint_count; ++j) {
        const tdn_transform e = tdn_pose_get(&b->sample, j), a = tdn_pose_get(&b->actual, j);
        const float angle = (float)rotation_error(e.r, a.r);
        if (angle > rep->max_rotation_error) {
            rep->max_rotation_error = angle;
            rep->rotation_error_joint = j;
            rep->rotation_error_time = t;
        }
        const float ds = fmaxf(fabsf(e.s.x - a.s.x), fmaxf(fabsf(e.s.y - a.s.y), fabsf(e.s.z - a.s.z)));
        rep->max_scale_error = fmaxf(rep->max_scale_error, ds);
    }
}

/* The model-space errors at one time: joint positions (unless a quarter point) and the
 * virtual-vertex error, also into segment_errors (when given) at the segment of the frames
 * around t, (16 s, 16 s + 16]. */
static void model_errors(build *b, float t, tdn_clip_report *rep, float *segment_errors)
{
    tdn_model_space(b->skeleton, &b->sample, NULL, b->model_expect, NULL);
    tdn_model_space(b->skeleton, &b->actual, NULL, b->model_actual, NULL);
    const int quarter = is_quarter_point(b, t);
    const int f = (int)ceil((double)t * build_rate(b) - CLIP_FRAME_SNAP) - 1;
    float *segment = segment_errors ? &segment_errors[(f > 0 ? f : 0) / TDN__PACK_SEGMENT] : NULL;
    for (int j = 0; j < b->joint_count; ++j) {
        const float *pe = &b->model_expect[j].m[12], *pa = &b->model_actual[j].m[12];
        const float d = tdn_vec3_length(tdn_vec3_make(pe[0] - pa[0], pe[1] - pa[1], pe[2] - pa[2]));
        if (!quarter && d > rep->max_position_error) {
            rep->max_position_error = d;
            rep->position_error_joint = j;
            rep->position_error_time = t;
        }
        const float v = tdn__vertex_error(&b->model_expect[j], &b->model_actual[j], b->desc->shell_distance);
        if (segment)
            *segment = v > *segment ? v : *segment;
        if (v > rep->max_vertex_error) {
            rep->max_vertex_error = v;
            rep->vertex_error_joint = j;
            rep->vertex_error_time = t;
        }
    }
}

/* Compares the clip with its source at every measurement time. An additive clip is applied to
 * its reference (A = D * R) and compared with the source itself, which is what a character
 * playing it at full weight on that reference would show. */
/* The build's frames at time t as a compressed clip interpolates them: lerped, rotations nlerped
 * the short way re-timed to follow slerp (differences for an additive clip). */
static void sample_frames(const build *b, float t, tdn_pose *out)
{
    const int J = b->joint_count, C = b->components;
    int f0 = 0;
    float a = 0.0f;
    if (b->frame_count > 1) {
        const double u = (double)tdn__clamp_time(t, b->duration) * build_rate(b);
        f0 = (int)u < b->frame_count - 1 ? (int)u : b->frame_count - 2;
        a = (float)(u - f0);
    }
    const float *v0 = b->values + (size_t)f0 * (size_t)C, *v1 = b->frame_count > 1 ? v0 + C : v0;
    for (int row = 0; row < TDN_POSE_ROWS; ++row)
        for (int j = 0; j < J && (row < TDN_RX || row > TDN_RW); ++j)
            tdn_pose_row(out, row)[j] = v0[row * J + j] + (v1[row * J + j] - v0[row * J + j]) * a;
    for (int j = 0; j < J; ++j) {
        float dot = 0.0f, q[4];
        for (int c = 0; c < 4; ++c)
            dot += v0[(TDN_RX + c) * J + j] * v1[(TDN_RX + c) * J + j];
        const float sign = dot < 0.0f ? -1.0f : 1.0f, d = fabsf(dot) < 1.0f ? fabsf(dot) : 1.0f;
        float w0 = 1.0f - tdn__slerp_time(d, a), w1 = 1.0f - w0;
        if (d < TDN__SLERP_DOT)
            tdn__slerp_weights(d, a, &w0, &w1);
        for (int c = 0; c < 4; ++c)
            q[c] = w0 * v0[(TDN_RX + c) * J + j] + w1 * sign * v1[(TDN_RX + c) * J + j];
        const tdn_quat n = tdn_quat_normalize(tdn_quat_make(q[0], q[1], q[2], q[3]));
        tdn_pose_row(out, TDN_RX)[j] = n.x, tdn_pose_row(out, TDN_RY)[j] = n.y;
        tdn_pose_row(out, TDN_RZ)[j] = n.z, tdn_pose_row(out, TDN_RW)[j] = n.w;
    }
}

/* What a measurement samples at time t into b->actual: the clip, or (clip NULL) the build's
 * frames as a compressed clip interpolates them. */
static void sample_actual(const tdn_clip *clip, build *b, float t)
{
    if (clip)
        tdn_clip_sample(clip, t, &b->actual, NULL);
    else
        sample_frames(b, t, &b->actual);
}

static void measure(const tdn_clip *clip, build *b, tdn_clip_report *rep, float *segment_errors)
{
    rep->max_position_error = rep->max_rotation_error = rep->max_scale_error = rep->max_vertex_error = 0.0f;
    rep->position_error_joint = rep->rotation_error_joint = rep->vertex_error_joint = -1;
    rep->position_error_time = rep->rotation_error_time = rep->vertex_error_time = 0.0f;
    for (int i = 0; i < b->time_count; ++i) {
        const float t = b->times[i];
        tdn_keyed_clip_sample(b->source, t, &b->sample, b->hints, NULL);
        sample_actual(clip, b, t);
        if (is_additive(b->desc)) {
            sample_reference(b, t);
            for (int j = 0; j < b->joint_count; ++j) {
                const tdn_transform r = tdn_pose_get(&b->reference, j);
                tdn_transform a = tdn_pose_get(&b->actual, j);
                a.t = tdn_vec3_add(r.t, a.t);
                a.r = tdn_quat_mul(a.r, r.r);
                a.s = tdn_vec3_mul(r.s, a.s);
                tdn_pose_set(&b->actual, j, &a);
            }
        }
        if (!is_quarter_point(b, t))
            local_errors(b, t, rep);
        model_errors(b, t, rep, segment_errors);
    }
}

/* A clip over the build's resampled values in one storage, without annotations. */
static tdn_result make_clip(const build *b, const tdn_clip *plan, tdn_clip_storage storage, tdn_clip **out,
                            tdn_error *err)
{
    const char *name = tdn_keyed_clip_name(b->source);
    tdn_clip clip = *plan;
    clip.storage = storage;
    tdn__block measure_block = { NULL, 0 };
    layout(&measure_block, &clip, b, storage, name);
    tdn__block block = { tdn__alloc(b->allocator, measure_block.size, TDN_POSE_ALIGN), 0 };
    if (!block.base)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "clip", "out of memory (%zu bytes)", measure_block.size);
    layout(&block, &clip, b, storage, name);
    clip.bytes = measure_block.size;
    *out = (tdn_clip *)block.base;
    **out = clip;
    return TDN_OK;
}

static void free_clip_block(tdn_clip *clip)
{
    tdn_allocator allocator = clip->allocator;
    tdn__free(&allocator, clip, clip->bytes);
}

/* COMPRESSED: per segment, the error of the resampled frames themselves against the source,
 * interpolated as the compressed clip will (between frames and at key times off the grid): what
 * no bit rate takes back, so the packer keeps its own error under the threshold less this. */
static void interpolation_errors(build *b)
{
    memset(b->segment_errors, 0,
           sizeof(float) * (size_t)((b->frame_count + TDN__PACK_SEGMENT - 1) / TDN__PACK_SEGMENT + 1));
    tdn_clip_report unused;
    measure(NULL, b, &unused, b->segment_errors);
}

static tdn_result check_desc(const tdn_clip_desc *desc, int joint_count, tdn_error *err)
{
    if (!tdn__finite(desc->sample_rate) || desc->sample_rate < 0.0f)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "sample_rate", "sample rate %g is not a finite rate >= 0",
                         (double)desc->sample_rate);
    if (!tdn__finite(desc->position_tolerance) || desc->position_tolerance < 0.0f)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "position_tolerance", "tolerance %g is not finite and >= 0",
                         (double)desc->position_tolerance);
    if (!tdn__finite(desc->rotation_tolerance) || desc->rotation_tolerance < 0.0f)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "rotation_tolerance", "tolerance %g is not finite and >= 0",
                         (double)desc->rotation_tolerance);
    if (!tdn__finite(desc->error_threshold) || desc->error_threshold < 0.0f)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "error_threshold", "threshold %g is not finite and >= 0",
                         (double)desc->error_threshold);
    if (!tdn__finite(desc->shell_distance) || desc->shell_distance < 0.0f)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "shell_distance", "distance %g is not finite and >= 0",
                         (double)desc->shell_distance);
    if (!tdn__finite(desc->float_track_tolerance) || desc->float_track_tolerance < 0.0f)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "float_track_tolerance", "tolerance %g is not finite and >= 0",
                         (double)desc->float_track_tolerance);
    if ((unsigned)desc->storage > TDN_STORAGE_COMPRESSED)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "storage", "unknown storage %d", (int)desc->storage);
    const tdn_pose *pose = desc->additive_reference_pose;
    if (pose && (desc->additive_reference_clip || desc->additive_reference_first_frame))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "additive_reference_pose",
                         "give one additive reference: a pose, a clip, or a first frame");
    if (pose && (!pose->data || pose->joint_count != joint_count))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "additive_reference_pose",
                         "the reference pose has %d joints, the source's skeleton %d",
                         pose->data ? pose->joint_count : 0, joint_count);
    const tdn_keyed_clip *ref = desc->additive_reference_clip;
    if (ref && tdn_skeleton_joint_count(tdn_keyed_clip_skeleton(ref)) != joint_count)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "additive_reference_clip",
                         "the reference clip has %d joints, the source's skeleton %d",
                         tdn_skeleton_joint_count(tdn_keyed_clip_skeleton(ref)), joint_count);
    return TDN_OK;
}

static void fail_tolerance_message(const build *b, const tdn_clip_report *rep, float position_tolerance,
                                   float rotation_tolerance, tdn_error *err)
{
    const char *storage = rep->storage == TDN_STORAGE_INT16 ? "16-bit" : "float32";
    char where[128];
    int position = rep->max_position_error / position_tolerance >= rep->max_rotation_error / rotation_tolerance;
    int j = position ? rep->position_error_joint : rep->rotation_error_joint;
    float t = position ? rep->position_error_time : rep->rotation_error_time;
    snprintf(where, sizeof where, "joint %d ('%s') at t = %g s", j, tdn_skeleton_joint_name(b->skeleton, j), (double)t);
    if (position)
        tdn__fail(err, TDN_ERR_TOLERANCE, where,
                  "model-space position error %g exceeds the tolerance %g (%s frames at %g frames/s)",
                  (double)rep->max_position_error, (double)position_tolerance, storage, (double)b->desc->sample_rate);
    else
        tdn__fail(err, TDN_ERR_TOLERANCE, where,
                  "local rotation error %g rad exceeds the tolerance %g (%s frames at %g frames/s)",
                  (double)rep->max_rotation_error, (double)rotation_tolerance, storage, (double)b->desc->sample_rate);
}

/* A key time this close to a frame (in frames) counts as on the grid. */
#define CLIP_GRID_TOLERANCE 1e-3

/* The rate of the coarsest grid from t = 0 to the clip's end (frame_count - 1 equal steps, at
 * least 30 and at most 240 a second) on which every key time lies, or 0 when none does: the
 * frames then reproduce linear keys exactly, where any other grid cuts the corners between
 * uneven keys (a step of 0.2 s after steps of 1/24 s lies on the 1/120 grid). Most grids fail
 * at the first keys tried, so the search is about as long as the grids it tries. */
static float grid_holding_keys(const tdn_keyed_clip *source)
{
    const double duration = tdn_keyed_clip_duration(source);
    if (!(duration > 0.0))
        return 0.0f;
    const tdn__curve *tracks = tdn__keyed_clip_tracks(source);
    const int track_count = tdn_keyed_clip_track_count(source);
    for (double steps = ceil(30.0 * duration - 1e-6); steps <= 240.0 * duration + 1e-6; steps += 1.0) {
        int on_grid = 1;
        for (int i = 0; i < track_count && on_grid; i++)
            for (int k = 0; k < tracks[i].key_count && on_grid; k++) {
                const double frame = tracks[i].times[k] * steps / duration;
                on_grid = fabs(frame - nearbyint(frame)) <= CLIP_GRID_TOLERANCE;
            }
        if (on_grid)
            return (float)(steps / duration);
    }
    return 0.0f;
}

/* The rate a build uses when the caller gives none. Resampling linear keys off their own grid
 * cuts the corner at every key, so a source keyed evenly (glTF exports, BVH, mocap) is
 * resampled on its own grid: its key rate times the smallest whole number reaching 30 frames
 * per second (sparse keys need frames between them because frames are nlerped, keys slerped).
 * A source keyed unevenly is resampled on the coarsest grid of at least 30 frames per second
 * holding every one of its key times (grid_holding_keys), when one within 240 does; otherwise
 * at the key rate of its densest track, kept within 30..240 frames per second. */
static float default_sample_rate(const tdn_keyed_clip *source)
{
    const tdn__curve *tracks = tdn__keyed_clip_tracks(source);
    double smallest = INFINITY, largest = 0.0, densest_mean = INFINITY;
    for (int i = 0; i < tdn_keyed_clip_track_count(source); i++) {
        const int n = tracks[i].key_count;
        for (int k = 1; k < n; k++) {
            double step = (double)tracks[i].times[k] - tracks[i].times[k - 1];
            smallest = step < smallest ? step : smallest;
            largest = step > largest ? step : largest;
        }
        if (n > 1) {
            /* the mean step is free of the rounding of single float key times */
            double mean = ((double)tracks[i].times[n - 1] - tracks[i].times[0]) / (n - 1);
            densest_mean = mean < densest_mean ? mean : densest_mean;
        }
    }
    if (!(largest > 0.0))
        return 30.0f;
    double key_rate = 1.0 / densest_mean;
    if (largest - smallest <= 1e-3 * smallest && key_rate <= 240.0)
        return (float)(key_rate * ceil(30.0 / key_rate - 1e-6));
    const float grid_rate = grid_holding_keys(source);
    if (grid_rate > 0.0f)
        return grid_rate;
    return (float)(key_rate < 30.0 ? 30.0 : key_rate > 240.0 ? 240.0 : key_rate);
}

double tdn__clip_frame_count(float duration, float sample_rate)
{
    /* Snapped so that a float duration like 1.2f (1.2000000477) at 30 frames/s gives 37 frames
     * on the 1/30 grid rather than 38 slightly off it. */
    return duration > 0.0f ? ceil((double)duration * sample_rate - CLIP_FRAME_SNAP) + 1.0 : 1.0;
}

tdn_result tdn_clip_create(const tdn_clip_desc *desc, tdn_clip **out, const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    tdn_clip_report *report = desc ? desc->report : NULL;
    tdn_clip_report rep = { 0 };
    rep.position_error_joint = rep.rotation_error_joint = -1;
    if (report)
        *report = rep;
    if (!desc || !out)
        return tdn__fail(err, TDN_ERR_ARGUMENT, desc ? "out" : "desc", "NULL argument");
    if (!desc->source)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "source", "a runtime clip needs a source keyed clip");
    const tdn_skeleton *skeleton = tdn_keyed_clip_skeleton(desc->source);
    const int J = tdn_skeleton_joint_count(skeleton);
    tdn_result r = check_desc(desc, J, err);
    if (r != TDN_OK || (r = tdn__check_allocator(allocator, err)) != TDN_OK)
        return r;

    tdn_clip_desc d = *desc; /* with defaults */
    if (d.sample_rate == 0.0f)
        d.sample_rate = default_sample_rate(d.source);
    if (d.position_tolerance == 0.0f)
        d.position_tolerance = 1e-3f;
    if (d.rotation_tolerance == 0.0f)
        d.rotation_tolerance = 1e-3f;
    if (d.error_threshold == 0.0f)
        d.error_threshold = 1e-4f;
    if (d.shell_distance == 0.0f)
        d.shell_distance = 0.03f;
    if (d.float_track_tolerance == 0.0f)
        d.float_track_tolerance = 1e-4f;
    const float duration = tdn_keyed_clip_duration(d.source);
    const double frames = tdn__clip_frame_count(duration, d.sample_rate);
    if (frames > TDN__CLIP_MAX_FRAMES)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "sample_rate", "%g s at %g frames/s is more than %d frames",
                         (double)duration, (double)d.sample_rate, TDN__CLIP_MAX_FRAMES);

    build b = { 0 };
    b.desc = &d;
    b.source = d.source;
    b.skeleton = skeleton;
    b.allocator = allocator;
    b.joint_count = J;
    b.frame_count = (int)frames;
    b.duration = duration;
    b.components = TDN_POSE_ROWS * J;

    tdn_clip plan = { 0 };
    plan.allocator = tdn__allocator_of(allocator);
    plan.duration = duration;
    plan.sample_rate = d.sample_rate;
    plan.frame_count = b.frame_count;
    plan.frames_per_second = b.frame_count > 1 ? (b.frame_count - 1) / (double)duration : 0.0;
    plan.joint_count = J;
    plan.additive = is_additive(&d);

    tdn_clip *clip = NULL;
    r = build_alloc(&b, err);
    if (r == TDN_OK)
        r = resample(&b, err);
    if (r == TDN_OK) {
        count_components(&plan, &b);
        const tdn__annotations *source_annotations = tdn__keyed_clip_annotations(d.source);
        r = d.storage == TDN_STORAGE_COMPRESSED
                ? tdn__annotations_reduce(source_annotations, d.float_track_tolerance, allocator, &plan.annotations,
                                          err)
                : tdn__annotations_clone(source_annotations, allocator, &plan.annotations, err);
    }
    if (r == TDN_OK && d.storage == TDN_STORAGE_COMPRESSED) {
        interpolation_errors(&b);
        const tdn__pack_source src = pack_source(&b);
        r = tdn__pack_plan_make(&src, allocator, &b.pack, err);
        if (r == TDN_OK)
            r = make_clip(&b, &plan, TDN_STORAGE_COMPRESSED, &clip, err);
        tdn__pack_plan_free(&b.pack, allocator);
        if (r == TDN_OK) {
            measure(clip, &b, &rep, NULL);
            rep.storage = TDN_STORAGE_COMPRESSED;
        }
    } else if (r == TDN_OK) {
        /* AUTO tries 16 bits first and keeps them when they are within tolerance. */
        tdn_clip_storage tries[2] = { TDN_STORAGE_INT16, TDN_STORAGE_FLOAT32 };
        int first = d.storage == TDN_STORAGE_FLOAT32, last = d.storage == TDN_STORAGE_INT16 ? 0 : 1;
        for (int i = first; i <= last && r == TDN_OK; ++i) {
            if (clip)
                free_clip_block(clip);
            clip = NULL;
            r = make_clip(&b, &plan, tries[i], &clip, err);
            if (r != TDN_OK)
                break;
            measure(clip, &b, &rep, NULL);
            rep.storage = tries[i];
            if (rep.max_position_error <= d.position_tolerance && rep.max_rotation_error <= d.rotation_tolerance)
                break;
            if (i == last) {
                fail_tolerance_message(&b, &rep, d.position_tolerance, d.rotation_tolerance, err);
                r = TDN_ERR_TOLERANCE;
            }
        }
    }
    tdn__free(b.allocator, b.memory, b.memory_bytes);

    rep.frame_count = plan.frame_count;
    rep.animated_components = plan.animated_count;
    rep.constant_components = plan.constant_count;
    if (clip)
        rep.bytes = clip->bytes + plan.annotations->bytes;
    if (report)
        *report = rep;
    if (r != TDN_OK) {
        if (clip)
            free_clip_block(clip);
        tdn__annotations_destroy(plan.annotations);
        return r;
    }
    *out = clip;
    return TDN_OK;
}

void tdn_clip_destroy(tdn_clip *clip)
{
    if (!clip)
        return;
    tdn__annotations_destroy(clip->annotations);
    free_clip_block(clip);
}

const char *tdn_clip_name(const tdn_clip *clip) { return clip ? clip->name : NULL; }
float tdn_clip_duration(const tdn_clip *clip) { return clip ? clip->duration : 0.0f; }
float tdn_clip_sample_rate(const tdn_clip *clip)
{
    if (!clip)
        return 0.0f;
    return clip->frame_count > 1 ? (float)clip->frames_per_second : clip->sample_rate;
}
int tdn_clip_joint_count(const tdn_clip *clip) { return clip ? clip->joint_count : 0; }
int tdn_clip_is_additive(const tdn_clip *clip) { return clip ? clip->additive : 0; }
size_t tdn_clip_memory_size(const tdn_clip *clip) { return clip ? clip->bytes + clip->annotations->bytes : 0; }

int tdn_clip_float_track_count(const tdn_clip *clip) { return clip ? clip->annotations->float_track_count : 0; }
const char *tdn_clip_float_track_name(const tdn_clip *clip, int index)
{
    return clip ? tdn__annotations_float_track_name(clip->annotations, index) : NULL;
}
int tdn_clip_find_float_track(const tdn_clip *clip, const char *name)
{
    return clip ? tdn__annotations_find(clip->annotations, name) : -1;
}
float tdn_clip_sample_float(const tdn_clip *clip, int index, float time)
{
    return clip ? tdn__annotations_sample(clip->annotations, index, tdn__clamp_time(time, clip->duration)) : 0.0f;
}
int tdn_clip_event_count(const tdn_clip *clip) { return clip ? clip->annotations->event_count : 0; }
const char *tdn_clip_event_name(const tdn_clip *clip, int index)
{
    return clip ? tdn__annotations_event_name(clip->annotations, index) : NULL;
}
const float *tdn_clip_event_times(const tdn_clip *clip) { return clip ? clip->annotations->event_times : NULL; }
