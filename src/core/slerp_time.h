/* tendon core: nlerp re-timed to follow slerp (not installed). */
#ifndef TENDON_SLERP_TIME_H
#define TENDON_SLERP_TIME_H

#include <math.h>

/* The time at which nlerp between two unit quaternions with dot d (0 <= d <= 1, signs aligned)
 * points where slerp points at t: nlerp sweeps the angle fast at the ends and slow in the
 * middle, so t moves by c t (t - 1/2) (t - 1), with c = (1 - d) (2/3 + (1 - d) / 5) fitted to the
 * angle between them (exact at 0, 1/2 and 1). The largest angle error between two rotations 20
 * degrees apart falls from nlerp's 1.7e-4 rad to 1.6e-7, 40 degrees apart from 1.4e-3 to 4.7e-6,
 * 60 degrees apart from 4.7e-3 to 3.3e-5. */
static inline float tdn__slerp_time(float d, float t)
{
    const float e = 1.0f - d, c = e * (0.6666667f + 0.2f * e);
    return t + c * t * (t - 0.5f) * (t - 1.0f);
}

/* Rotations further apart than 60 degrees (|dot| below cos 30 degrees) take slerp's own weights,
 * w0 q0 + w1 q1: past 60 degrees the re-timed nlerp's error (3.3e-5 rad there, 1.2e-3 at 120)
 * outgrows what a compressed clip's threshold leaves it (a joint turning that far in one frame:
 * a flip in the capture, or a sparse key). Rare, so the sine and arc cosine cost little. */
#define TDN__SLERP_DOT 0.8660254f

/* slerp's weights at t between two unit quaternions with dot d (0 <= d < TDN__SLERP_DOT, signs
 * aligned). */
static inline void tdn__slerp_weights(float d, float t, float *w0, float *w1)
{
    const float theta = acosf(d), inverse = 1.0f / sinf(theta);
    *w0 = sinf((1.0f - t) * theta) * inverse;
    *w1 = sinf(t * theta) * inverse;
}

#endif
