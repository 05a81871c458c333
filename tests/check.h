/* tendon tests: a minimal assertion harness. Each test program runs its cases with RUN and
 * ends with `return check_summary();`, which prints "N passed, N failed" for its checks. */
#ifndef TENDON_TEST_CHECK_H
#define TENDON_TEST_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "tendon/tendon.h"

static int check_passed_count, check_failed_count;
static const char *check_current_test = "";

static inline int check_record(int ok, const char *what, const char *file, int line)
{
    if (ok) {
        check_passed_count++;
    } else {
        check_failed_count++;
        fprintf(stderr, "%s:%d: [%s] check failed: %s\n", file, line, check_current_test, what);
    }
    return ok;
}

#define CHECK(cond) check_record((cond) ? 1 : 0, #cond, __FILE__, __LINE__)
/* |a - b| <= tol, printing both values when it fails. */
#define CHECK_NEAR(a, b, tol) check_near_at((double)(a), (double)(b), (double)(tol), #a " ~ " #b, __FILE__, __LINE__)
#define CHECK_EQ_INT(a, b) check_eq_int_at((long long)(a), (long long)(b), #a " == " #b, __FILE__, __LINE__)

static inline int check_near_at(double a, double b, double tol, const char *what, const char *file, int line)
{
    int ok = fabs(a - b) <= tol; /* NaN fails */
    if (!ok)
        fprintf(stderr, "%s:%d: [%s] %s: %.9g vs %.9g (tolerance %.3g)\n", file, line, check_current_test, what, a, b,
                tol);
    return check_record(ok, what, file, line);
}

static inline int check_eq_int_at(long long a, long long b, const char *what, const char *file, int line)
{
    if (a != b)
        fprintf(stderr, "%s:%d: [%s] %s: %lld vs %lld\n", file, line, check_current_test, what, a, b);
    return check_record(a == b, what, file, line);
}

#define RUN(test_fn) (check_current_test = #test_fn, test_fn())
/* The same for a test function called with arguments: RUN_ARGS(walks(&fixture, 3)). */
#define RUN_ARGS(call) (check_current_test = #call, call)

static inline int check_summary(void)
{
    printf("%d passed, %d failed\n", check_passed_count, check_failed_count);
    return check_failed_count == 0 ? 0 : 1;
}

/* Deterministic random numbers for property tests (xorshift64*). */
typedef struct check_rng {
    uint64_t state;
} check_rng;
static inline uint32_t check_rng_u32(check_rng *r)
{
    r->state ^= r->state >> 12;
    r->state ^= r->state << 25;
    r->state ^= r->state >> 27;
    return (uint32_t)((r->state * 2685821657736338717ull) >> 32);
}
/* Uniform in [lo, hi). */
static inline float check_rng_float(check_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)(check_rng_u32(r) >> 8) * (1.0f / 16777216.0f);
}
/* One component at a time, the last first (the order in which gcc happened to evaluate the
 * arguments of a call, which C leaves unspecified), so that every compiler draws the same vector. */
static inline tdn_vec3 check_rng_vec3(check_rng *r, float lo, float hi)
{
    float v[3];
    for (int i = 2; i >= 0; i--)
        v[i] = check_rng_float(r, lo, hi);
    return tdn_vec3_make(v[0], v[1], v[2]);
}
/* A uniformly distributed unit quaternion (rejection sampling in the 4-ball). */
static inline tdn_quat check_rng_quat(check_rng *r)
{
    for (;;) {
        float v[4];
        for (int i = 3; i >= 0; i--)
            v[i] = check_rng_float(r, -1, 1);
        tdn_quat q = tdn_quat_make(v[0], v[1], v[2], v[3]);
        float n = tdn_quat_dot(q, q);
        if (n > 0.01f && n <= 1.0f)
            return tdn_quat_normalize(q);
    }
}

/* Angle between two rotations in radians computed in double precision, sign-insensitive. */
static inline double check_quat_angle(tdn_quat a, tdn_quat b)
{
    double d = fabs((double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z + (double)a.w * b.w);
    double na = sqrt((double)a.x * a.x + (double)a.y * a.y + (double)a.z * a.z + (double)a.w * a.w);
    double nb = sqrt((double)b.x * b.x + (double)b.y * b.y + (double)b.z * b.z + (double)b.w * b.w);
    d /= na * nb;
    if (d > 1.0)
        d = 1.0;
    return 2.0 * acos(d);
}

#endif
