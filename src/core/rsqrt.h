/* tendon core: a fast reciprocal square root for normalizations on the per-frame path (not
 * installed). */
#ifndef TENDON_RSQRT_H
#define TENDON_RSQRT_H

#include <math.h>

#if !defined(TENDON_NO_SIMD) && (defined(__SSE__) || defined(_M_X64))
#  include <xmmintrin.h>
#  define TDN__RSQRT 1
#endif

/* An estimate of 1 / sqrt(x) for chains of dependent normalizations (the IK solvers', the
 * retarget's), which refine it by one Newton step, y (1.5 - 0.5 x y^2): on x86 the reciprocal square root
 * estimate (3 cycles of latency on the project's machine; with the step, relative error about
 * 1e-7, the rounding of the square root and division it replaces at 24 cycles: FABRIK 10-18%
 * faster); elsewhere (or with TENDON_NO_SIMD) the exact value, which the step leaves as it is.
 * x = 0 gives a huge finite number (its product with the zero vector that gave it is 0). The
 * estimate's last bits may differ between CPU makers: results are the same bits on one
 * machine, not across vendors. */
static inline float tdn__rsqrt_estimate(float x)
{
#if TDN__RSQRT
#  if defined(__GNUC__) && !defined(__clang__)
    /* x's register taken as it is (only lane 0 is used): gcc zeroes the other lanes of
     * _mm_set_ss through an integer register and broadcasts _mm_set1_ps, 3 cycles with the
     * move between units, on a chain of 23 */
    __m128 v;
    __asm__("" : "=x"(v) : "0"(x));
#  else
    const __m128 v = _mm_set1_ps(x);
#  endif
    return _mm_cvtss_f32(_mm_rsqrt_ss(_mm_max_ss(v, _mm_set1_ps(1e-30f))));
#else
    return 1.0f / sqrtf(x + 1e-30f);
#endif
}

/* scale / sqrt(x) by the estimate and its Newton step, scale * y formed beside the step, not
 * after it. */
static inline float tdn__scaled_rsqrt(float scale, float x)
{
    const float y = tdn__rsqrt_estimate(x);
    return (scale * y) * (1.5f - (0.5f * x) * y * y);
}

#endif
