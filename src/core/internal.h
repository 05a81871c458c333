/* tendon core: helpers shared by the core's source files (not installed). */
#ifndef TENDON_INTERNAL_H
#define TENDON_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "tendon/base.h"
#include "tendon/vecmath.h"

/* Allocates through the caller's hooks (NULL or zeroed hooks: aligned_alloc). */
void *tdn__alloc(const tdn_allocator *allocator, size_t size, size_t align);
void tdn__free(const tdn_allocator *allocator, void *ptr, size_t size);

/* Fills *err (when not NULL) and returns code. `where` names the place (a joint, a track, a
 * key); the message is printf-formatted. */
tdn_result tdn__fail(tdn_error *err, tdn_result code, const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* A place for messages built on paths that succeed (every object's "clip 3", every node's
 * "nodes[4]"), where snprintf's cost shows: `head`, the decimal `index` and `tail` into buf
 * (size bytes, at least 1), cut where snprintf would cut them. Returns buf. */
char *tdn__place(char *buf, size_t size, const char *head, int index, const char *tail);
/* Appends text to the string in buf (size bytes), cut where snprintf would cut it. Returns buf. */
char *tdn__append(char *buf, size_t size, const char *text);
/* TDN_ERR_ARGUMENT naming `where` (an argument or field) as NULL. */
tdn_result tdn__null(tdn_error *err, const char *where);
/* TDN_ERR_ARGUMENT for a pose (`where`) whose joint count is not `want`, the count of `of`
 * (for example "the clip's skeleton"). */
tdn_result tdn__pose_size(tdn_error *err, const char *where, int have, int want, const char *of);
/* The hooks an object keeps for freeing itself: a copy of `allocator`, zeroed for NULL. */
static inline tdn_allocator tdn__allocator_of(const tdn_allocator *allocator)
{
    tdn_allocator none = { NULL, NULL, NULL };
    return allocator ? *allocator : none;
}
/* TDN_ERR_ARGUMENT (where "pose") for a pose sampled from a clip whose skeleton has `want`
 * joints; the message says how to size it (an imported asset lists fewer joints than its
 * skeleton can have). */
tdn_result tdn__clip_pose_size(tdn_error *err, int have, int want);

/* Row groups of a pose (translation, rotation, scale) a function computes; the others are left as
 * they are, for a caller that knows they hold what they would get (rows at rest in every input). */
enum { TDN__ROWS_T = 1, TDN__ROWS_R = 2, TDN__ROWS_S = 4, TDN__ROWS_ALL = 7 };
/* Whether pose row r (TDN_TX..TDN_SZ) is in the row groups `rows`. */
static inline int tdn__row_in(unsigned rows, int r)
{
    return (r <= 2 ? rows & TDN__ROWS_T : r <= 6 ? rows & TDN__ROWS_R : rows & TDN__ROWS_S) != 0;
}
struct tdn_clip;
struct tdn_pose;
struct tdn_blend_job;
/* The part of a pose a blend computes: the row groups `rows` (rotations always) of joints
 * [begin, end) (multiples of TDN_POSE_LANES, or end the stride); the rest of the output is left
 * as it is, for a caller that knows it holds what it would get. */
typedef struct tdn__part {
    unsigned rows;
    int begin, end;
} tdn__part;
/* Every row group of every joint (nothing for NULL). */
tdn__part tdn__whole(const struct tdn_pose *pose);
/* tdn_blend, tdn_blend2 and tdn_additive_apply computing `part` only. */
tdn_result tdn__blend_part(const struct tdn_blend_job *job, tdn__part part, tdn_error *err);
tdn_result tdn__blend2_part(const struct tdn_pose *a, const struct tdn_pose *b, float w, const float *joint_weights,
                            struct tdn_pose *out, tdn__part part, tdn_error *err);
tdn_result tdn__additive_apply_part(const struct tdn_pose *target_pose, const struct tdn_pose *difference, float weight,
                                    const float *joint_weights, struct tdn_pose *out, tdn__part part, tdn_error *err);
struct tdn__packed_cache;
struct tdn_clip_cache;
/* A clip cache's part for a compressed clip's packed tracks (clip_cache.c), or NULL (a NULL
 * cache, or one of a clip of another storage). */
struct tdn__packed_cache *tdn__clip_cache_packed(struct tdn_clip_cache *cache);
/* tdn_clip_sample of joints [begin, end) only (multiples of TDN_POSE_LANES, or end the pose's
 * stride) and the row groups `rows` (TDN__ROWS_*) into a pose of the clip's joint count,
 * unchecked: the rest of the pose is untouched. Through `cache` (a clip cache's part for this
 * clip's packed tracks, clip_compressed.h) when it is not NULL: the same bits. */
void tdn__clip_sample_range(const struct tdn_clip *clip, struct tdn__packed_cache *cache, float time,
                            struct tdn_pose *pose, int begin, int end, unsigned rows);
/* Marks joints[j] with the row groups (TDN__ROWS_*) in which the clip moves joint j away from
 * `reference` (the rest pose for a clip, the identity for an additive one): a component
 * animated, or constant elsewhere than the reference's value (to 1e-6, relative above 1: the
 * `limits` tdn__clip_rest_limits made of the reference, so that clips against it share them). */
void tdn__clip_moved_rows(const struct tdn_clip *clip, const struct tdn_pose *reference, const float *limits,
                          unsigned char *joints);
/* How far each value of `reference` may be from it at rest, into `limits` (laid out as the
 * reference's data: TDN_POSE_ROWS rows of its stride). */
void tdn__clip_rest_limits(const struct tdn_pose *reference, float *limits);
/* tdn_palette of joints [begin, end) only, unchecked. */
struct tdn_skeleton;
void tdn__palette_range(const struct tdn_skeleton *skeleton, const tdn_mat4 *model, int begin, int end,
                        tdn_mat4 *palette);
/* TDN_ERR_ARGUMENT (where "allocator") for hooks with only one of alloc and free. */
tdn_result tdn__check_allocator(const tdn_allocator *allocator, tdn_error *err);

static inline int tdn__finite(float x) { return isfinite(x); }
static inline float tdn__clamp01(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; } /* NaN -> 0 */
static inline float tdn__clamp_time(float t, float duration)
{
    return t > 0.0f ? (t < duration ? t : duration) : 0.0f;
} /* NaN -> 0 */
static inline size_t tdn__align_up(size_t n, size_t align) { return (n + align - 1) & ~(align - 1); }

/* Ascending order of floats, for qsort. */
static inline int tdn__compare_floats(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* For a function whose loops rely on its restrict-qualified parameters: gcc drops that
 * no-alias promise when it inlines the function into a caller whose pointers it cannot tell
 * apart, and then needs more run-time alias checks than it will emit, so the loop stays scalar.
 * Kept out of line, the loop vectorizes with no checks at all. */
#if defined(__GNUC__)
#  define TDN__KERNEL __attribute__((noinline)) static
#else
#  define TDN__KERNEL static
#endif

/* cond ? a : b as bit operations, for hot loops over joints. gcc keeps a plain ?: as a branch
 * in code it has unrolled, and (under its default -ftrapping-math) moves a division or product
 * used by one arm into that arm, where it can no longer vectorize the loop; this form is plain
 * arithmetic to it, vectorizes to and/andnot/or, and selects exactly (NaN and -0 included). */
static inline float tdn__select(int cond, float a, float b)
{
    uint32_t ua, ub, mask = 0u - (uint32_t)(cond != 0);
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    uint32_t r = (ua & mask) | (ub & ~mask);
    float f;
    memcpy(&f, &r, sizeof f);
    return f;
}

#endif
