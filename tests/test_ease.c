/* Ease curves: closed forms, a CSS cubic-bezier against a double-precision bisection done
 * here, exact ends. */
#include "check.h"

/* The reference: y(u) where x(u) = t, u found by 200 bisection steps in double. */
static double bezier_reference(double x1, double y1, double x2, double y2, double t)
{
    double lo = 0, hi = 1, u = 0.5;
    for (int i = 0; i < 200; i++) {
        u = 0.5 * (lo + hi);
        double x = 3 * (1 - u) * (1 - u) * u * x1 + 3 * (1 - u) * u * u * x2 + u * u * u;
        if (x < t)
            lo = u;
        else
            hi = u;
    }
    return 3 * (1 - u) * (1 - u) * u * y1 + 3 * (1 - u) * u * u * y2 + u * u * u;
}

static void ends_are_exact(void)
{
    const tdn_ease curves[] = { { TDN_EASE_LINEAR, 0, 0, 0, 0 },
                                { TDN_EASE_SMOOTHSTEP, 0, 0, 0, 0 },
                                { TDN_EASE_BEZIER, 0.25f, 0.1f, 0.25f, 1.0f },
                                { TDN_EASE_BEZIER, 0.6f, -0.8f, 0.3f, 1.9f },
                                { TDN_EASE_BEZIER, 1.0f, 0.0f, 0.0f, 1.0f } };
    for (int i = 0; i < 5; i++) {
        CHECK(tdn_ease_eval(&curves[i], 0.0f) == 0.0f);
        CHECK(tdn_ease_eval(&curves[i], 1.0f) == 1.0f);
        CHECK(tdn_ease_eval(&curves[i], -0.5f) == 0.0f);
        CHECK(tdn_ease_eval(&curves[i], 7.0f) == 1.0f);
        CHECK(tdn_ease_eval(&curves[i], NAN) == 0.0f);
        CHECK(tdn_ease_eval(&curves[i], INFINITY) == 1.0f);
    }
}

static void linear_and_smoothstep_closed_forms(void)
{
    tdn_ease linear = { TDN_EASE_LINEAR, 0, 0, 0, 0 }, smooth = { TDN_EASE_SMOOTHSTEP, 0, 0, 0, 0 };
    for (int i = 0; i <= 100; i++) {
        double t = i / 100.0;
        CHECK_NEAR(tdn_ease_eval(&linear, (float)t), t, 1e-7);
        CHECK_NEAR(tdn_ease_eval(&smooth, (float)t), 3 * t * t - 2 * t * t * t, 1e-6);
    }
    CHECK_NEAR(tdn_ease_eval(&smooth, 0.5f), 0.5, 0);
    CHECK_NEAR(tdn_ease_eval(&smooth, 0.25f), 0.15625, 1e-7); /* 3/16 - 2/64 */
    CHECK_NEAR(tdn_ease_eval(NULL, 0.3f), 0.3, 1e-7);         /* NULL: linear */
    tdn_ease unknown = { (tdn_ease_kind)42, 0, 0, 0, 0 };
    CHECK_NEAR(tdn_ease_eval(&unknown, 0.3f), 0.3, 1e-7);
}

static void bezier_against_bisection(void)
{
    /* control points (0,0) and (1,1): the straight line */
    tdn_ease straight = { TDN_EASE_BEZIER, 0, 0, 1, 1 };
    for (int i = 0; i <= 100; i++)
        CHECK_NEAR(tdn_ease_eval(&straight, i / 100.0f), i / 100.0, 1e-6);
    /* CSS "ease" and a few others, including overshooting y and flat ends (x1 = 0, x2 = 1) */
    const float c[][4] = { { 0.25f, 0.1f, 0.25f, 1.0f },
                           { 0.42f, 0, 1, 1 },
                           { 0, 0, 0.58f, 1 },
                           { 0.68f, -0.55f, 0.27f, 1.55f },
                           { 0, 0.9f, 1, 0.1f } };
    double worst = 0;
    for (int k = 0; k < 5; k++) {
        tdn_ease e = { TDN_EASE_BEZIER, c[k][0], c[k][1], c[k][2], c[k][3] };
        for (int i = 0; i <= 1000; i++) {
            double t = i / 1000.0;
            double want = bezier_reference(c[k][0], c[k][1], c[k][2], c[k][3], (float)t);
            worst = fmax(worst, fabs(tdn_ease_eval(&e, (float)t) - want));
        }
    }
    CHECK_NEAR(worst, 0, 2e-6);
    /* a hand point of "ease": x(0.5) = 3*.25*.25*.25 + 3*.25*.25*.25... worked via u = 0.5 */
    tdn_ease ease = { TDN_EASE_BEZIER, 0.25f, 0.1f, 0.25f, 1.0f };
    double x_half = 3 * 0.25 * 0.5 * 0.25 + 3 * 0.25 * 0.5 * 0.25 + 0.125; /* 0.3125 */
    double y_half = 3 * 0.25 * 0.5 * 0.1 + 3 * 0.25 * 0.5 * 1.0 + 0.125;   /* 0.5375 */
    CHECK_NEAR(tdn_ease_eval(&ease, (float)x_half), y_half, 1e-6);
    /* (1,0) (0,1): x is flat at u = 1/2, where bisection on x is ill-conditioned; the curve is
     * point-symmetric about (1/2, 1/2) instead: f(1/2) = 1/2 and f(1 - t) = 1 - f(t) */
    tdn_ease s_curve = { TDN_EASE_BEZIER, 1, 0, 0, 1 };
    CHECK_NEAR(tdn_ease_eval(&s_curve, 0.5f), 0.5, 1e-7);
    double asym = 0;
    for (int i = 0; i <= 64; i++)
        asym = fmax(asym, fabs(tdn_ease_eval(&s_curve, i / 64.0f) + tdn_ease_eval(&s_curve, 1.0f - i / 64.0f) - 1.0));
    CHECK_NEAR(asym, 0, 1e-6);
    CHECK_NEAR(tdn_ease_eval(&s_curve, 0.1f), bezier_reference(1, 0, 0, 1, 0.1f), 2e-6);
    /* x control values outside [0, 1] clamp (the curve stays a function) */
    tdn_ease wild = { TDN_EASE_BEZIER, -3, 0.2f, 5, 0.8f }, clamped = { TDN_EASE_BEZIER, 0, 0.2f, 1, 0.8f };
    for (int i = 0; i <= 20; i++)
        CHECK_NEAR(tdn_ease_eval(&wild, i / 20.0f), tdn_ease_eval(&clamped, i / 20.0f), 0);
    /* non-finite control values count as 0: finite results */
    tdn_ease bad = { TDN_EASE_BEZIER, NAN, INFINITY, 0.5f, NAN };
    CHECK(isfinite(tdn_ease_eval(&bad, 0.4f)));
    CHECK_NEAR(tdn_ease_eval(&bad, 0.4f), bezier_reference(0, 0, 0.5, 0, 0.4), 2e-6);
}

static void monotone_when_y_stays_inside(void)
{
    tdn_ease ease = { TDN_EASE_BEZIER, 0.25f, 0.1f, 0.25f, 1.0f };
    float prev = 0;
    int ok = 1;
    for (int i = 1; i <= 1000; i++) {
        float v = tdn_ease_eval(&ease, i / 1000.0f);
        ok &= v >= prev;
        prev = v;
    }
    CHECK(ok);
}

int main(void)
{
    RUN(ends_are_exact);
    RUN(linear_and_smoothstep_closed_forms);
    RUN(bezier_against_bisection);
    RUN(monotone_when_y_stays_inside);
    return check_summary();
}
