/* tendon core: IEEE 754 half-precision floats (binary16) in 16 bits, for state kept small whose
 * precision matters little: round to nearest even, overflow to infinity, subnormals kept
 * (not installed). */
#ifndef TENDON_HALF_H
#define TENDON_HALF_H

#include <stdint.h>
#include <string.h>

static inline uint16_t tdn__half_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    const uint32_t magnitude = x & 0x7fffffffu;
    if (magnitude >= 0x7f800000u) /* infinity stays, NaN stays a NaN */
        return (uint16_t)(sign | 0x7c00u | (magnitude > 0x7f800000u ? 0x200u : 0u));
    if (magnitude >= 0x477ff000u) /* rounds to 65520 or above: infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (magnitude < 0x38800000u) {   /* below 2^-14: a subnormal half (or zero) */
        if (magnitude < 0x33000000u) /* below half the smallest subnormal: zero */
            return sign;
        const uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
        const int shift = 126 - (int)(magnitude >> 23); /* 14..24 */
        uint32_t h = mantissa >> shift;
        const uint32_t rest = mantissa & ((1u << shift) - 1u), half = 1u << (shift - 1);
        h += rest > half || (rest == half && (h & 1u));
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((magnitude - 0x38000000u) >> 13); /* rebias the exponent, drop 13 bits */
    const uint32_t rest = magnitude & 0x1fffu;
    h += rest > 0x1000u || (rest == 0x1000u && (h & 1u));
    return (uint16_t)(sign | h);
}

static inline float tdn__half_to_float(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
    uint32_t x;
    if (exponent == 0x1fu) {
        x = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent != 0) {
        x = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    } else { /* zero or subnormal: mantissa * 2^-24 */
        const float m = (float)mantissa * 5.9604644775390625e-8f;
        memcpy(&x, &m, sizeof x);
        x |= sign;
    }
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

#endif
