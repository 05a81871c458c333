/* tendon: ease curves that shape a weight over a transition's normalized time. */
#ifndef TENDON_EASE_H
#define TENDON_EASE_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tdn_ease_kind {
    TDN_EASE_LINEAR = 0,
    TDN_EASE_SMOOTHSTEP, /* 3t^2 - 2t^3 */
    TDN_EASE_BEZIER      /* cubic Bezier from (0,0) to (1,1) with control points (x1,y1), (x2,y2) */
} tdn_ease_kind;

/* A curve mapping t in [0, 1] to a weight. For BEZIER, x1 and x2 are clamped to [0, 1] so the
 * curve is a function of t (as CSS cubic-bezier); y1 and y2 may overshoot. */
typedef struct tdn_ease {
    tdn_ease_kind kind;
    float x1, y1, x2, y2;
} tdn_ease;

/* The curve's value at t (t clamped to [0, 1]; NaN counts as 0). Curves start at 0 and end at
 * 1 exactly. BEZIER solves x(u) = t by Newton steps with a bisection fallback, to 1e-6;
 * non-finite control values count as 0. A NULL curve or an unknown kind is LINEAR.
 * Thread-safe; never allocates. */
TDN_API float tdn_ease_eval(const tdn_ease *curve, float t);

#ifdef __cplusplus
}
#endif
#endif
