/* Half floats (src/core/half.h, the inertializing layers' step): every half comes back from its
 * float exactly; a float becomes the nearest half (ties to the even one), checked against its two
 * neighbours over a sweep of magnitudes from subnormals to the largest half; past the largest it
 * is infinity, NaN stays NaN, signs are kept. */
#include <math.h>
#include <stdlib.h>

#include "../src/core/half.h"
#include "check.h"

static void every_half_round_trips(void)
{
    int bad = 0;
    for (unsigned h = 0; h < 65536; h++) {
        if (((h >> 10) & 31u) == 31u && (h & 1023u)) /* NaNs: checked below */
            continue;
        bad += tdn__half_from_float(tdn__half_to_float((uint16_t)h)) != h;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(tdn__half_to_float(0x3c00u) == 1.0f && tdn__half_to_float(0x7bffu) == 65504.0f);
    CHECK(tdn__half_to_float(0x0001u) == ldexpf(1.0f, -24) && tdn__half_to_float(0xc000u) == -2.0f);
}

/* The nearest half: no neighbour of the chosen one is closer; at a tie the chosen one is even. */
static void floats_become_the_nearest_half(void)
{
    int bad = 0, ties = 0;
    srand(17);
    for (int k = 0; k < 200000; k++) {
        const double magnitude = ldexp((double)rand() / RAND_MAX, -25 + rand() % 41); /* 2^-25 .. 2^16 */
        const float f = (float)(k & 1 ? -magnitude : magnitude);
        const uint16_t h = tdn__half_from_float(f);
        const float got = tdn__half_to_float(h);
        if (fabsf(f) >= 65520.0f) {
            bad += !isinf(got);
            continue;
        }
        const double err = fabs((double)got - f);
        for (int d = -1; d <= 1; d += 2) {
            const uint16_t other = (uint16_t)(h + d);
            if ((other & 0x7fffu) >= 0x7c00u || ((h ^ other) & 0x8000u)) /* past the largest, or across zero */
                continue;
            const double other_err = fabs((double)tdn__half_to_float(other) - f);
            bad += other_err < err;
            if (other_err == err) {
                ties++;
                bad += (h & 1u) != 0;
            }
        }
        bad += f != 0.0f && signbit(got) != signbit(f);
    }
    CHECK_EQ_INT(bad, 0);
    /* halfway cases by hand: 1 + 2^-11 lies between 1 and 1 + 2^-10 and goes to 1 (even) */
    CHECK(tdn__half_to_float(tdn__half_from_float(1.00048828125f)) == 1.0f);
    CHECK(tdn__half_to_float(tdn__half_from_float(1.000732421875f)) == 1.0009765625f);
    CHECK(isinf(tdn__half_to_float(tdn__half_from_float(65520.0f))));
    CHECK(tdn__half_to_float(tdn__half_from_float(65519.0f)) == 65504.0f);
    CHECK(isnan(tdn__half_to_float(tdn__half_from_float(NAN))));
    CHECK(tdn__half_from_float(-0.0f) == 0x8000u);
    printf("  200000 floats, %d ties\n", ties);
}

int main(void)
{
    RUN(every_half_round_trips);
    RUN(floats_become_the_nearest_half);
    return check_summary();
}
