/* tendon core: helpers shared by the core's source files (not installed). */
#ifndef TENDON_INTERNAL_H
#define TENDON_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "tendon/base.h"

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

static inline int tdn__finite(float x) { return isfinite(x); }
static inline float tdn__clamp01(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; } /* NaN -> 0 */
static inline float tdn__clamp_time(float t, float duration) { return t > 0.0f ? (t < duration ? t : duration) : 0.0f; } /* NaN -> 0 */
static inline size_t tdn__align_up(size_t n, size_t align) { return (n + align - 1) & ~(align - 1); }

/* For a function whose loops rely on its restrict-qualified parameters: gcc drops that
 * no-alias promise when it inlines the function into a caller whose pointers it cannot tell
 * apart, and then needs more run-time alias checks than it will emit, so the loop stays scalar.
 * Kept out of line, the loop vectorizes with no checks at all. */
#if defined(__GNUC__)
#define TDN__KERNEL __attribute__((noinline)) static
#else
#define TDN__KERNEL static
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
