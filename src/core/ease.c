/* tendon core: ease curves for transition weights. */
#include "internal.h"
#include "tendon/ease.h"

/* A cubic Bezier coordinate from 0 to 1 with inner control values p1, p2, in power form:
 * B(u) = ((a u + b) u + c) u. */
typedef struct bezier_axis {
    double a, b, c;
} bezier_axis;

static bezier_axis bezier_axis_make(double p1, double p2)
{
    bezier_axis k;
    k.c = 3.0 * p1;
    k.b = 3.0 * (p2 - p1) - k.c;
    k.a = 1.0 - k.c - k.b;
    return k;
}

static double bezier_at(const bezier_axis *k, double u) { return ((k->a * u + k->b) * u + k->c) * u; }
static double bezier_slope(const bezier_axis *k, double u) { return (3.0 * k->a * u + 2.0 * k->b) * u + k->c; }

/* u in [0, 1] with x(u) = t. x is monotone because x1, x2 lie in [0, 1]. Newton converges in a
 * few steps except where the slope vanishes (x1 or x2 at 0 or 1 flattens an end); bisection
 * then finishes the job, always. */
static double solve_bezier_x(const bezier_axis *x, double t)
{
    const double tolerance = 1e-10; /* in x, well below the documented 1e-6: y can be steeper than x */
    double u = t;
    for (int i = 0; i < 8; i++) {
        double err = bezier_at(x, u) - t;
        if (fabs(err) < tolerance)
            return u;
        double slope = bezier_slope(x, u);
        if (fabs(slope) < 1e-6)
            break;
        u -= err / slope;
        if (u < 0.0 || u > 1.0)
            break;
    }
    double lo = 0.0, hi = 1.0;
    u = t;
    for (int i = 0; i < 64; i++) {
        double xu = bezier_at(x, u);
        if (fabs(xu - t) < tolerance)
            break;
        if (xu < t)
            lo = u;
        else
            hi = u;
        u = 0.5 * (lo + hi);
    }
    return u;
}

/* A control value as used: non-finite counts as 0. */
static double control(float v) { return isfinite(v) ? (double)v : 0.0; }

float tdn_ease_eval(const tdn_ease *curve, float t)
{
    /* The ends are exact whatever the curve (and NaN counts as 0). */
    if (!(t > 0.0f))
        return 0.0f;
    if (t >= 1.0f)
        return 1.0f;
    if (!curve)
        return t;
    switch (curve->kind) {
    case TDN_EASE_SMOOTHSTEP:
        return t * t * (3.0f - 2.0f * t);
    case TDN_EASE_BEZIER: {
        bezier_axis x = bezier_axis_make(tdn__clamp01(curve->x1), tdn__clamp01(curve->x2));
        bezier_axis y = bezier_axis_make(control(curve->y1), control(curve->y2));
        return (float)bezier_at(&y, solve_bezier_x(&x, (double)t));
    }
    case TDN_EASE_LINEAR:
    default:
        return t;
    }
}
