/* Inertialization: the quintic against the polynomial solved from its six boundary conditions
 * (Gaussian elimination in double) and its properties by finite differences; the spring
 * against the damped oscillator integrated with RK4; whole poses (start gives back `current`,
 * the end gives the destination bit for bit, no pop against the pop metric's bound (docs/metrics.md), unit
 * rotations); stacked interruptions; bad arguments; allocation. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"

#define DT (1.0f / 60.0f)
#define RAD2DEG 57.29577951308232

/* ---- the quintic ---- */

/* Solves the 6x6 system for c0..c5 with x(0) = x0, x'(0) = v0, x''(0) = a0, x(t1) = x'(t1) =
 * x''(t1) = 0 (partial pivoting, double). */
static void solve_quintic(double x0, double v0, double a0, double t1, double c[6])
{
    double m[6][7] = { { 0 } };
    m[0][0] = 1;
    m[0][6] = x0;
    m[1][1] = 1;
    m[1][6] = v0;
    m[2][2] = 2;
    m[2][6] = a0;
    for (int n = 0; n < 6; n++) {
        m[3][n] = pow(t1, n);
        m[4][n] = n >= 1 ? n * pow(t1, n - 1) : 0.0;
        m[5][n] = n >= 2 ? n * (n - 1) * pow(t1, n - 2) : 0.0;
    }
    for (int col = 0; col < 6; col++) {
        int piv = col;
        for (int r = col + 1; r < 6; r++)
            if (fabs(m[r][col]) > fabs(m[piv][col]))
                piv = r;
        for (int k = 0; k < 7; k++) {
            double tmp = m[col][k];
            m[col][k] = m[piv][k];
            m[piv][k] = tmp;
        }
        for (int r = 0; r < 6; r++) {
            if (r == col)
                continue;
            double f = m[r][col] / m[col][col];
            for (int k = 0; k < 7; k++)
                m[r][k] -= f * m[col][k];
        }
    }
    for (int n = 0; n < 6; n++)
        c[n] = m[n][6] / m[n][n];
}

/* Bollo's rules, from the talk: the sign taken out, a velocity away from 0 zeroed,
 * t1 = min(T, -5 x0 / v0), a0 = max(0, (-8 v0 t1 - 20 x0) / t1^2). Returns t1; *v0c is the
 * velocity the curve starts with. */
static double bollo_reference(double x0, double v0, double T, double c[6], double *v0c)
{
    double sign = x0 < 0 ? -1.0 : 1.0;
    x0 *= sign;
    v0 *= sign;
    if (v0 > 0)
        v0 = 0;
    double t1 = v0 < 0 && -5 * x0 / v0 < T ? -5 * x0 / v0 : T;
    double a0 = (-8 * v0 * t1 - 20 * x0) / (t1 * t1);
    if (a0 < 0)
        a0 = 0;
    solve_quintic(sign * x0, sign * v0, sign * a0, t1, c);
    *v0c = sign * v0;
    return t1;
}

static double poly(const double c[6], double t)
{
    return c[0] + t * (c[1] + t * (c[2] + t * (c[3] + t * (c[4] + t * c[5]))));
}

/* The closed form as the talk writes it: x(t) = A t^5 + B t^4 + C t^3 + D t^2 + E t + F with
 * A = -(a0 t1^2 + 6 v0 t1 + 12 x0) / (2 t1^5), B = (3 a0 t1^2 + 16 v0 t1 + 30 x0) / (2 t1^4),
 * C = -(3 a0 t1^2 + 12 v0 t1 + 20 x0) / (2 t1^3), D = a0 / 2, E = v0, F = x0 (for x0 >= 0 after
 * the sign is taken out). Not clamped at t1: a polynomial, for finite differences across it. */
static void closed_form(double x0, double v0, double T, double c[6], double *t1_out, double *v0_out)
{
    double sign = x0 < 0 ? -1.0 : 1.0;
    x0 *= sign;
    v0 *= sign;
    if (v0 > 0)
        v0 = 0;
    double t1 = v0 < 0 && -5 * x0 / v0 < T ? -5 * x0 / v0 : T;
    double a0 = (-8 * v0 * t1 - 20 * x0) / (t1 * t1);
    if (a0 < 0)
        a0 = 0;
    c[5] = sign * -(a0 * t1 * t1 + 6 * v0 * t1 + 12 * x0) / (2 * pow(t1, 5));
    c[4] = sign * (3 * a0 * t1 * t1 + 16 * v0 * t1 + 30 * x0) / (2 * pow(t1, 4));
    c[3] = sign * -(3 * a0 * t1 * t1 + 12 * v0 * t1 + 20 * x0) / (2 * pow(t1, 3));
    c[2] = sign * a0 / 2;
    c[1] = sign * v0;
    c[0] = sign * x0;
    *t1_out = t1;
    *v0_out = sign * v0;
}

static double curve(tdn_inertia_curve k, double x0, double v0, double T, double t)
{
    return tdn_inertia_curve_value(k, (float)x0, (float)v0, (float)T, (float)t);
}

static void test_quintic(void)
{
    const double T = 0.5;
    const double x0s[] = { 1.0, -1.0, 0.25, -2.0, 3.0 };
    const double v0s[] = { 0.0, -1.0, -4.0, -12.0, -60.0, 1.0, 6.0, 40.0 }; /* times sign(x0) */
    double worst_solve = 0, worst_props = 0, worst_cross_ref = 0, worst_lib = 0, worst_v0 = 0, worst_cross = 0,
           worst_over = 0;
    for (size_t a = 0; a < sizeof x0s / sizeof x0s[0]; a++) {
        for (size_t b = 0; b < sizeof v0s / sizeof v0s[0]; b++) {
            const double x0 = x0s[a], v0 = v0s[b] * (x0 < 0 ? -1 : 1), scale = fabs(x0);
            double c[6], solved[6], t1, v0c, t1b, v0b;
            closed_form(x0, v0, T, c, &t1, &v0c);
            /* the closed form is the polynomial of the six boundary conditions */
            t1b = bollo_reference(x0, v0, T, solved, &v0b);
            CHECK(t1b == t1 && v0b == v0c);
            for (int i = 0; i <= 100; i++) {
                double t = t1b * i / 100.0, e = fabs(poly(c, t) - poly(solved, t)) / scale;
                worst_solve = e > worst_solve ? e : worst_solve;
            }
            /* its properties by central differences in double: x(0) = x0, x'(0) = v0 (the
             * clamped one), x(t1) = x'(t1) = x''(t1) = 0, in units of x0 and t1 */
            const double h = t1 * 1e-4;
            const double d0 = (poly(c, h) - poly(c, -h)) / (2 * h);
            const double x1 = poly(c, t1), d1 = (poly(c, t1 + h) - poly(c, t1 - h)) / (2 * h),
                         dd1 = (poly(c, t1 + h) - 2 * x1 + poly(c, t1 - h)) / (h * h);
            double props = fabs(poly(c, 0) - x0) / scale + fabs(d0 - v0c) * t1 / (scale + fabs(v0c) * t1) +
                           fabs(x1) / scale + fabs(d1) * t1 / scale + fabs(dd1) * t1 * t1 / scale;
            worst_props = props > worst_props ? props : worst_props;
            CHECK(v0c * x0 <= 0.0 && (v0 * x0 > 0 || v0c == v0)); /* only a velocity away from 0 is dropped */
            for (int i = 0; i <= 4000; i++) {
                double x = poly(c, t1 * i / 4000.0) / x0;
                worst_cross_ref = -x > worst_cross_ref ? -x : worst_cross_ref;
            }
            /* the library against the closed form, and 0 from t1 on */
            for (int i = 0; i <= 400; i++) {
                double t = T * i / 400.0, ref = t < t1 ? poly(c, t) : 0.0;
                double e = fabs(curve(TDN_INERTIA_QUINTIC, x0, v0, T, t) - ref) / scale;
                worst_lib = e > worst_lib ? e : worst_lib;
            }
            CHECK(curve(TDN_INERTIA_QUINTIC, x0, v0, T, 0.0) == (float)x0);
            CHECK(curve(TDN_INERTIA_QUINTIC, x0, v0, T, t1) == 0.0f);
            CHECK(curve(TDN_INERTIA_QUINTIC, x0, v0, T, T + 1) == 0.0f);
            /* its starting slope (one-sided, second order, float values) */
            const double hf = t1 * 1e-3;
            const double lib_d0 = (-3 * curve(TDN_INERTIA_QUINTIC, x0, v0, T, 0) +
                                   4 * curve(TDN_INERTIA_QUINTIC, x0, v0, T, hf) -
                                   curve(TDN_INERTIA_QUINTIC, x0, v0, T, 2 * hf)) /
                                  (2 * hf);
            const double e0 = fabs(lib_d0 - v0c) * t1 / (scale + fabs(v0c) * t1);
            worst_v0 = e0 > worst_v0 ? e0 : worst_v0;
            /* never past 0, never beyond x0 */
            for (int i = 0; i <= 4000; i++) {
                double x = curve(TDN_INERTIA_QUINTIC, x0, v0, T, t1 * i / 4000.0) / x0;
                worst_cross = -x > worst_cross ? -x : worst_cross;
                worst_over = x - 1 > worst_over ? x - 1 : worst_over;
            }
        }
    }
    printf("quintic: closed form vs 6x6 solve %.2g x0; its x(0), x'(0), x(t1), x'(t1), x''(t1) errors sum to %.2g; "
           "below 0 %.2g x0\n  library vs closed form %.2g x0, x'(0) %.2g, below 0 %.2g x0, above x0 %.2g x0\n",
           worst_solve, worst_props, worst_cross_ref, worst_lib, worst_v0, worst_cross, worst_over);
    CHECK(worst_solve < 1e-9);
    CHECK(worst_props < 1e-5);
    CHECK(worst_cross_ref < 1e-12);
    CHECK(worst_lib < 2e-6);
    CHECK(worst_v0 < 5e-4);
    CHECK(worst_cross == 0.0);
    CHECK(worst_over < 1e-6);
    /* v0 = 0: x0 (1 - smootherstep), by hand at the middle: x0 / 2 */
    CHECK_NEAR(curve(TDN_INERTIA_QUINTIC, 2.0, 0.0, 1.0, 0.5), 1.0, 1e-6);
    CHECK_NEAR(curve(TDN_INERTIA_QUINTIC, 2.0, 0.0, 1.0, 0.25),
               2.0 * (1 - (10 * pow(0.25, 3) - 15 * pow(0.25, 4) + 6 * pow(0.25, 5))), 1e-6);
    /* degenerate arguments */
    CHECK(tdn_inertia_curve_value(TDN_INERTIA_QUINTIC, 1.0f, 0.0f, 0.0f, 0.0f) == 0.0f);
    CHECK(tdn_inertia_curve_value(TDN_INERTIA_QUINTIC, NAN, 0.0f, 1.0f, 0.0f) == 0.0f);
    CHECK(tdn_inertia_curve_value((tdn_inertia_curve)7, 1.0f, 0.0f, 1.0f, 0.0f) == 0.0f);
    CHECK(tdn_inertia_curve_value(TDN_INERTIA_QUINTIC, 1.0f, 0.0f, 1.0f, -1.0f) == 1.0f);
    /* a huge velocity: t1 is held at TDN_INERTIA_MIN_TIME */
    CHECK(tdn_inertia_curve_value(TDN_INERTIA_QUINTIC, 1.0f, -1e9f, 1.0f, TDN_INERTIA_MIN_TIME * 0.5f) > 0.0f);
    CHECK(tdn_inertia_curve_value(TDN_INERTIA_QUINTIC, 1.0f, -1e9f, 1.0f, TDN_INERTIA_MIN_TIME) == 0.0f);
}

/* ---- the spring ---- */

/* x'' = -2 y x' - y^2 x integrated with RK4 (20,000 steps per duration), then the documented
 * end correction from the integrated s(T) and s'(T). */
static void spring_reference(double x0, double v0, double T, int n_out, double *out)
{
    const double y = TDN_INERTIA_SPRING_DECAY / T;
    const int steps = 20000;
    const double h = T / steps;
    double *xs = malloc(sizeof(double) * (steps + 1));
    double x = x0, v = v0;
    xs[0] = x;
    for (int i = 0; i < steps; i++) {
#define ACC(px, pv) (-2 * y * (pv)-y * y * (px))
        double k1x = v, k1v = ACC(x, v);
        double k2x = v + 0.5 * h * k1v, k2v = ACC(x + 0.5 * h * k1x, v + 0.5 * h * k1v);
        double k3x = v + 0.5 * h * k2v, k3v = ACC(x + 0.5 * h * k2x, v + 0.5 * h * k2v);
        double k4x = v + h * k3v, k4v = ACC(x + h * k3x, v + h * k3v);
#undef ACC
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
        v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
        xs[i + 1] = x;
    }
    const double sT = x, dsT = v;
    for (int i = 0; i < n_out; i++) {
        int step = i * (steps / (n_out - 1));
        double u = (double)step / steps;
        double hh = u * u * u * (10 - 15 * u + 6 * u * u), g = u * u * u * (u - 1);
        out[i] = xs[step] - sT * hh - T * dsT * g;
    }
    free(xs);
}

static void test_spring(void)
{
    const double T = 0.4;
    const double cases[][2] = { { 1, 0 }, { 1, -3 }, { 1, -20 }, { 1, 4 }, { -0.5, 2 }, { 2, 10 }, { 0, 5 } };
    double worst = 0, worst_v0 = 0, worst_corr = 0;
    enum { N = 201 };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const double x0 = cases[k][0], v0 = cases[k][1], scale = fabs(x0) + fabs(v0) * T;
        double ref[N];
        spring_reference(x0, v0, T, N, ref);
        for (int i = 0; i < N - 1; i++) {
            double e = fabs(curve(TDN_INERTIA_SPRING, x0, v0, T, T * i / (N - 1)) - ref[i]) / scale;
            worst = e > worst ? e : worst;
        }
        /* the correction against the bare closed-form spring: at most 2.7% x0 + 0.4% |v0| T */
        const double y = TDN_INERTIA_SPRING_DECAY / T;
        for (int i = 0; i < N - 1; i++) {
            double t = T * i / (N - 1), bare = exp(-y * t) * (x0 + (v0 + y * x0) * t);
            double corr = fabs(curve(TDN_INERTIA_SPRING, x0, v0, T, t) - bare);
            double e = corr / (0.027 * fabs(x0) + 0.004 * fabs(v0) * T + 1e-6);
            worst_corr = e > worst_corr ? e : worst_corr;
        }
        double h = T * 1e-3;
        double d0 = (-3 * curve(TDN_INERTIA_SPRING, x0, v0, T, 0) + 4 * curve(TDN_INERTIA_SPRING, x0, v0, T, h) -
                     curve(TDN_INERTIA_SPRING, x0, v0, T, 2 * h)) /
                    (2 * h);
        double e0 = fabs(d0 - v0) / (fabs(x0) / T + fabs(v0));
        worst_v0 = e0 > worst_v0 ? e0 : worst_v0;
        CHECK(curve(TDN_INERTIA_SPRING, x0, v0, T, 0) == (float)x0);
        CHECK(fabs(curve(TDN_INERTIA_SPRING, x0, v0, T, T * (1 - 1e-6))) < 1e-6 * scale);
        CHECK(curve(TDN_INERTIA_SPRING, x0, v0, T, T) == 0.0f);
    }
    printf("spring: worst |lib - RK4| %.2g; x'(0) rel err %.2g; correction / its bound %.3f\n", worst, worst_v0,
           worst_corr);
    CHECK(worst < 2e-6);
    CHECK(worst_v0 < 2e-3);
    CHECK(worst_corr <= 1.0);
}

/* ---- poses ---- */

static tdn_quat axis_angle(tdn_vec3 axis, float angle)
{
    return tdn_quat_from_axis_angle(tdn_vec3_normalize(axis), angle);
}

/* A random pose: translations in [-1, 1], rotations uniform, scales in [0.5, 2]. */
static void random_pose(check_rng *rng, tdn_pose *p)
{
    for (int j = 0; j < p->joint_count; j++) {
        tdn_transform x;
        x.t = check_rng_vec3(rng, -1, 1);
        x.r = check_rng_quat(rng);
        x.s = check_rng_vec3(rng, 0.5f, 2.0f);
        tdn_pose_set(p, j, &x);
    }
}

/* A moving pose: base advanced by per-joint velocities over `t` seconds. */
typedef struct motion {
    tdn_pose base;
    tdn_vec3 vt[64], axis[64], vs[64];
    float w[64];
} motion;

static void motion_make(check_rng *rng, int joints, float speed, motion *m)
{
    tdn_pose_create(joints, &m->base, NULL, NULL);
    random_pose(rng, &m->base);
    for (int j = 0; j < joints; j++) {
        m->vt[j] = check_rng_vec3(rng, -speed, speed);
        m->axis[j] = check_rng_vec3(rng, -1, 1);
        m->w[j] = check_rng_float(rng, -3 * speed, 3 * speed);
        m->vs[j] = check_rng_vec3(rng, -0.3f * speed, 0.3f * speed);
    }
}

static void motion_at(const motion *m, float t, tdn_pose *out)
{
    for (int j = 0; j < m->base.joint_count; j++) {
        tdn_transform x = tdn_pose_get(&m->base, j);
        x.t = tdn_vec3_add(x.t, tdn_vec3_scale(m->vt[j], t));
        x.r = tdn_quat_normalize(tdn_quat_mul(axis_angle(m->axis[j], m->w[j] * t), x.r));
        x.s = tdn_vec3_add(x.s, tdn_vec3_scale(m->vs[j], t));
        tdn_pose_set(out, j, &x);
    }
}

/* The largest per-joint differences between two poses: rotation (radians), translation, scale. */
typedef struct diff3 {
    double r, t, s;
} diff3;

static diff3 pose_diff(const tdn_pose *a, const tdn_pose *b)
{
    diff3 d = { 0, 0, 0 };
    for (int j = 0; j < a->joint_count; j++) {
        tdn_transform x = tdn_pose_get(a, j), y = tdn_pose_get(b, j);
        double r = check_quat_angle(x.r, y.r);
        double t = tdn_vec3_length(tdn_vec3_sub(x.t, y.t)), s = tdn_vec3_length(tdn_vec3_sub(x.s, y.s));
        d.r = r > d.r ? r : d.r;
        d.t = t > d.t ? t : d.t;
        d.s = s > d.s ? s : d.s;
    }
    return d;
}

static diff3 diff_max(diff3 a, diff3 b)
{
    diff3 d = { a.r > b.r ? a.r : b.r, a.t > b.t ? a.t : b.t, a.s > b.s ? a.s : b.s };
    return d;
}

static double unit_error(const tdn_pose *p)
{
    double worst = 0;
    for (int j = 0; j < p->joint_count; j++) {
        tdn_quat q = tdn_pose_get(p, j).r;
        double e = fabs(sqrt((double)tdn_quat_dot(q, q)) - 1.0);
        worst = e > worst ? e : worst;
    }
    return worst;
}

static int rows_equal(const tdn_pose *a, const tdn_pose *b)
{
    return memcmp(a->data, b->data, sizeof(float) * TDN_POSE_ROWS * (size_t)a->stride) == 0;
}

/* Start with `current` (a random pose, rotations up to 170 degrees from the destination's, some
 * quaternions on the other hemisphere) moving, the destination moving too; check dt = 0, every
 * frame's change against the pop bound (docs/metrics.md, pop), and the exact end. */
static void whole_pose_case(tdn_inertia_curve kind, double ratio_limit)
{
    enum { J = 40 };
    check_rng rng = { 0x1234567u + (uint64_t)kind };
    const float duration = 0.5f;
    motion src, dst;
    motion_make(&rng, J, 0.5f, &src);
    motion_make(&rng, J, 0.5f, &dst);
    /* the source's rotations: the destination's times up to 170 degrees */
    for (int j = 0; j < J; j++) {
        tdn_transform x = tdn_pose_get(&src.base, j), d = tdn_pose_get(&dst.base, j);
        float angle = check_rng_float(&rng, 0.0f, 170.0f) * TDN_PI / 180.0f;
        x.r = tdn_quat_mul(axis_angle(check_rng_vec3(&rng, -1, 1), angle), d.r);
        if (j % 3 == 0)
            x.r = tdn_quat_negate(x.r);
        tdn_pose_set(&src.base, j, &x);
    }
    tdn_pose current, previous, dest, out, last;
    tdn_pose_create(J, &current, NULL, NULL);
    tdn_pose_create(J, &previous, NULL, NULL);
    tdn_pose_create(J, &dest, NULL, NULL);
    tdn_pose_create(J, &out, NULL, NULL);
    tdn_pose_create(J, &last, NULL, NULL);
    motion_at(&src, 0.0f, &current);
    motion_at(&src, -DT, &previous);
    motion_at(&dst, 0.0f, &dest);
    tdn_inertializer *in = NULL;
    CHECK(tdn_inertializer_create(J, &in, NULL, NULL) == TDN_OK);
    CHECK(tdn_inertializer_start(in, &current, &previous, DT, &dest, duration, kind, NULL) == TDN_OK);
    CHECK(tdn_inertializer_active(in));

    /* dt = 0: current, to float precision */
    tdn_pose_copy(&out, &dest, NULL);
    CHECK(tdn_inertializer_apply(in, 0.0f, &out, NULL) == TDN_OK);
    diff3 at0 = pose_diff(&out, &current);
    printf("%s: apply(dt=0) vs current: rotation %.2g rad, translation %.2g, scale %.2g\n",
           kind == TDN_INERTIA_QUINTIC ? "quintic" : "spring", at0.r, at0.t, at0.s);
    CHECK(at0.r < 1e-6 && at0.t < 1e-6 && at0.s < 1e-6);

    /* docs/metrics.md, pop: the bound is the largest per-frame change within source and destination plus
     * the switch difference spread over the transition's frames */
    tdn_pose a, b;
    tdn_pose_create(J, &a, NULL, NULL);
    tdn_pose_create(J, &b, NULL, NULL);
    diff3 motion_max = { 0, 0, 0 };
    for (int k = -1; k < 40; k++) {
        motion_at(&src, k * DT, &a);
        motion_at(&src, (k + 1) * DT, &b);
        motion_max = diff_max(motion_max, pose_diff(&a, &b));
        motion_at(&dst, k * DT, &a);
        motion_at(&dst, (k + 1) * DT, &b);
        motion_max = diff_max(motion_max, pose_diff(&a, &b));
    }
    const diff3 sw = pose_diff(&current, &dest);
    const double frames = duration / DT;
    tdn_pose_copy(&last, &current, NULL);
    diff3 step_max = { 0, 0, 0 };
    double unit = 0;
    int k = 1, ended = 0;
    for (; k <= 40 && !ended; k++) {
        motion_at(&dst, k * DT, &dest);
        tdn_pose_copy(&out, &dest, NULL);
        CHECK(tdn_inertializer_apply(in, DT, &out, NULL) == TDN_OK);
        step_max = diff_max(step_max, pose_diff(&out, &last));
        unit = fmax(unit, unit_error(&out));
        tdn_pose_copy(&last, &out, NULL);
        if (!tdn_inertializer_active(in)) {
            ended = 1;
            CHECK(rows_equal(&out, &dest)); /* exactly the destination */
        }
    }
    CHECK(ended);
    CHECK(tdn_inertializer_elapsed(in) >= duration - 1e-6f || kind == TDN_INERTIA_QUINTIC);
    CHECK(tdn_inertializer_elapsed(in) <= duration + 1.5f * DT);
    const double ratio_r = step_max.r / (motion_max.r + sw.r / frames);
    const double ratio_t = step_max.t / (motion_max.t + sw.t / frames);
    const double ratio_s = step_max.s / (motion_max.s + sw.s / frames);
    printf("  switch %.1f deg, %.3f, %.3f; largest step %.2f deg/frame (bound %.2f): pop ratio rotation %.2f, "
           "translation %.2f, scale %.2f; ended after %d frames; |q| - 1 <= %.2g\n",
           sw.r * RAD2DEG, sw.t, sw.s, step_max.r * RAD2DEG, (motion_max.r + sw.r / frames) * RAD2DEG, ratio_r, ratio_t,
           ratio_s, k - 1, unit);
    CHECK(ratio_r <= ratio_limit && ratio_t <= ratio_limit && ratio_s <= ratio_limit);
    CHECK(unit < 2e-6);
    /* a hard cut would put the whole switch into one frame */
    CHECK(step_max.r < 0.25 * sw.r);
    /* once over, the pose is left alone */
    motion_at(&dst, 2.0f, &dest);
    tdn_pose_copy(&out, &dest, NULL);
    CHECK(tdn_inertializer_apply(in, DT, &out, NULL) == TDN_OK && rows_equal(&out, &dest));

    tdn_inertializer_destroy(in);
    tdn_pose *poses[] = { &current, &previous, &dest, &out, &last, &a, &b, &src.base, &dst.base };
    for (size_t i = 0; i < sizeof poses / sizeof poses[0]; i++)
        tdn_pose_destroy(poses[i]);
}

static void test_whole_pose(void)
{
    whole_pose_case(TDN_INERTIA_QUINTIC, 1.9);
    whole_pose_case(TDN_INERTIA_SPRING, 2.3);
}

/* One joint: the pose path gives the same numbers as the scalar curve, for a translation along
 * x and a rotation about z, velocity included. */
static void test_one_joint_matches_curve(void)
{
    tdn_inertializer *in = NULL;
    tdn_pose cur, prev, dst, out;
    tdn_pose_create(1, &cur, NULL, NULL);
    tdn_pose_create(1, &prev, NULL, NULL);
    tdn_pose_create(1, &dst, NULL, NULL);
    tdn_pose_create(1, &out, NULL, NULL);
    CHECK(tdn_inertializer_create(1, &in, NULL, NULL) == TDN_OK);
    const tdn_vec3 z = { 0, 0, 1 };
    double worst_t = 0, worst_r = 0;
    for (int kind = 0; kind < 2; kind++) {
        const float x0 = 0.8f, v0 = -2.5f, a0 = 2.5f, w = 4.0f, T = 0.4f, dt = 0.02f;
        tdn_transform c = tdn_transform_identity(), p = c, d = c;
        c.t.x = x0;
        p.t.x = x0 - v0 * dt;
        c.r = tdn_quat_from_axis_angle(z, a0);
        p.r = tdn_quat_from_axis_angle(z, a0 - w * dt);
        tdn_pose_set(&cur, 0, &c);
        tdn_pose_set(&prev, 0, &p);
        tdn_pose_set(&dst, 0, &d);
        for (int i = 0; i <= 25; i++) {
            float t = T * (float)i / 25.0f;
            CHECK(tdn_inertializer_start(in, &cur, &prev, dt, &dst, T, (tdn_inertia_curve)kind, NULL) == TDN_OK);
            tdn_pose_copy(&out, &dst, NULL);
            CHECK(tdn_inertializer_apply(in, t, &out, NULL) == TDN_OK);
            tdn_transform o = tdn_pose_get(&out, 0);
            /* the velocities as the inertializer measures them, in double */
            double vt = (x0 - (double)p.t.x) / dt, vr = (a0 - (a0 - (double)w * dt)) / dt;
            double et = fabs(o.t.x - tdn_inertia_curve_value((tdn_inertia_curve)kind, x0, (float)vt, T, t));
            double angle = 2.0 * atan2(o.r.z, o.r.w);
            double er = fabs(angle - tdn_inertia_curve_value((tdn_inertia_curve)kind, a0, (float)vr, T, t));
            worst_t = fmax(worst_t, et);
            worst_r = fmax(worst_r, er);
            CHECK(o.r.x == 0.0f && o.r.y == 0.0f && o.t.y == 0.0f);
        }
    }
    printf("one joint: pose path vs scalar curve: translation %.2g, rotation angle %.2g rad\n", worst_t, worst_r);
    CHECK(worst_t < 2e-6);
    CHECK(worst_r < 4e-6);
    /* previous NULL: zero velocity; duration 0: a cut */
    CHECK(tdn_inertializer_start(in, &cur, NULL, 0.02f, &dst, 1.0f, TDN_INERTIA_QUINTIC, NULL) == TDN_OK);
    tdn_pose_copy(&out, &dst, NULL);
    CHECK(tdn_inertializer_apply(in, 0.5f, &out, NULL) == TDN_OK);
    CHECK_NEAR(tdn_pose_get(&out, 0).t.x, 0.4, 1e-6);
    CHECK(tdn_inertializer_start(in, &cur, &prev, 0.02f, &dst, 0.0f, TDN_INERTIA_QUINTIC, NULL) == TDN_OK);
    CHECK(!tdn_inertializer_active(in));
    tdn_pose_copy(&out, &dst, NULL);
    CHECK(tdn_inertializer_apply(in, 0.0f, &out, NULL) == TDN_OK && rows_equal(&out, &dst));
    /* current equal to the destination: nothing to do */
    CHECK(tdn_inertializer_start(in, &dst, &prev, 0.02f, &dst, 1.0f, TDN_INERTIA_SPRING, NULL) == TDN_OK);
    CHECK(!tdn_inertializer_active(in));
    tdn_inertializer_destroy(in);
    tdn_pose_destroy(&cur);
    tdn_pose_destroy(&prev);
    tdn_pose_destroy(&dst);
    tdn_pose_destroy(&out);
}

/* Interrupt every 5 frames, 20 times, each time towards a new moving pose: the output's
 * per-frame change stays within a small factor of the bound (the destinations' own motion plus
 * the switch difference spread over a transition) and ends on the last destination. */
static void stacking_case(tdn_inertia_curve kind, double limit)
{
    enum { J = 32, SWITCHES = 20, EVERY = 5 };
    check_rng rng = { 0xfeedbeefu + (uint64_t)kind };
    const float duration = 0.3f;
    motion targets[SWITCHES + 1];
    for (int i = 0; i <= SWITCHES; i++)
        motion_make(&rng, J, 0.5f, &targets[i]);
    tdn_pose shown, before, dest, a, b;
    tdn_pose_create(J, &shown, NULL, NULL);
    tdn_pose_create(J, &before, NULL, NULL);
    tdn_pose_create(J, &dest, NULL, NULL);
    tdn_pose_create(J, &a, NULL, NULL);
    tdn_pose_create(J, &b, NULL, NULL);
    diff3 motion_max = { 0, 0, 0 };
    for (int i = 0; i <= SWITCHES; i++)
        for (int k = 0; k < 200; k++) {
            motion_at(&targets[i], k * DT, &a);
            motion_at(&targets[i], (k + 1) * DT, &b);
            motion_max = diff_max(motion_max, pose_diff(&a, &b));
        }
    tdn_inertializer *in = NULL;
    CHECK(tdn_inertializer_create(J, &in, NULL, NULL) == TDN_OK);
    motion_at(&targets[0], -DT, &before);
    motion_at(&targets[0], 0.0f, &shown);
    diff3 step_max = { 0, 0, 0 }, switch_max = { 0, 0, 0 };
    int target = 0, ended = 0, frame = 1;
    double unit = 0;
    for (; frame < 400 && !ended; frame++) {
        const float t = frame * DT;
        if (frame % EVERY == 0 && target < SWITCHES) {
            target++;
            motion_at(&targets[target], t, &dest);
            switch_max = diff_max(switch_max, pose_diff(&shown, &dest));
            CHECK(tdn_inertializer_start(in, &shown, &before, DT, &dest, duration, kind, NULL) == TDN_OK);
        }
        motion_at(&targets[target], t, &dest);
        tdn_pose_copy(&a, &dest, NULL);
        CHECK(tdn_inertializer_apply(in, DT, &a, NULL) == TDN_OK);
        step_max = diff_max(step_max, pose_diff(&a, &shown));
        unit = fmax(unit, unit_error(&a));
        tdn_pose_copy(&before, &shown, NULL);
        tdn_pose_copy(&shown, &a, NULL);
        if (target == SWITCHES && !tdn_inertializer_active(in)) {
            ended = 1;
            CHECK(rows_equal(&shown, &dest));
        }
    }
    const double frames = duration / DT;
    const double bound_r = motion_max.r + switch_max.r / frames, bound_t = motion_max.t + switch_max.t / frames,
                 bound_s = motion_max.s + switch_max.s / frames;
    printf("%s stacked x%d every %d frames: largest switch %.1f deg; largest step %.2f deg/frame against bound %.2f "
           "(ratio %.2f), translation ratio %.2f, scale ratio %.2f; ended at frame %d; |q| - 1 <= %.2g\n",
           kind == TDN_INERTIA_QUINTIC ? "quintic" : "spring", SWITCHES, EVERY, switch_max.r * RAD2DEG,
           step_max.r * RAD2DEG, bound_r * RAD2DEG, step_max.r / bound_r, step_max.t / bound_t, step_max.s / bound_s,
           frame - 1, unit);
    CHECK(ended);
    CHECK(step_max.r <= limit * bound_r);
    CHECK(step_max.t <= limit * bound_t);
    CHECK(step_max.s <= limit * bound_s);
    CHECK(unit < 2e-6);
    tdn_inertializer_destroy(in);
    for (int i = 0; i <= SWITCHES; i++)
        tdn_pose_destroy(&targets[i].base);
    tdn_pose_destroy(&shown);
    tdn_pose_destroy(&before);
    tdn_pose_destroy(&dest);
    tdn_pose_destroy(&a);
    tdn_pose_destroy(&b);
}

static void test_stacking(void)
{
    stacking_case(TDN_INERTIA_QUINTIC, 1.9);
    stacking_case(TDN_INERTIA_SPRING, 2.3);
}

/* ---- bad arguments, memory ---- */

static void test_bad_arguments(void)
{
    enum { J = 5 };
    const size_t bytes = tdn_inertializer_bytes(J);
    CHECK(bytes > 0);
    CHECK(tdn_inertializer_bytes(0) == 0 && tdn_inertializer_bytes(-1) == 0 &&
          tdn_inertializer_bytes(TDN_MAX_JOINTS + 1) == 0);
    unsigned char *memory = aligned_alloc(TDN_INERTIALIZER_ALIGN, bytes + TDN_INERTIALIZER_ALIGN);
    unsigned char *snapshot = malloc(bytes);
    tdn_inertializer *in = (tdn_inertializer *)1;
    CHECK(tdn_inertializer_init(J, memory + 4, bytes, &in, NULL) == TDN_ERR_ARGUMENT && in == NULL);
    CHECK(tdn_inertializer_init(J, memory, bytes - 1, &in, NULL) == TDN_ERR_OUT_OF_MEMORY);
    CHECK(tdn_inertializer_init(0, memory, bytes, &in, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_inertializer_init(J, NULL, bytes, &in, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_inertializer_init(J, memory, bytes, NULL, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_inertializer_create(0, &in, NULL, NULL) == TDN_ERR_ARGUMENT && in == NULL);
    CHECK(tdn_inertializer_init(J, memory, bytes, &in, NULL) == TDN_OK && (void *)in == (void *)memory);
    CHECK(!tdn_inertializer_active(in) && tdn_inertializer_elapsed(in) == 0.0f);

    check_rng rng = { 99 };
    tdn_pose cur, prev, dst, other, out;
    tdn_pose_create(J, &cur, NULL, NULL);
    tdn_pose_create(J, &prev, NULL, NULL);
    tdn_pose_create(J, &dst, NULL, NULL);
    tdn_pose_create(J + 1, &other, NULL, NULL);
    tdn_pose_create(J, &out, NULL, NULL);
    random_pose(&rng, &cur);
    random_pose(&rng, &prev);
    random_pose(&rng, &dst);
    CHECK(tdn_inertializer_start(in, &cur, &prev, DT, &dst, 0.4f, TDN_INERTIA_QUINTIC, NULL) == TDN_OK);
    tdn_pose_copy(&out, &dst, NULL);
    CHECK(tdn_inertializer_apply(in, DT, &out, NULL) == TDN_OK);
    memcpy(snapshot, memory, bytes);
#define BAD_START(...) \
  CHECK(tdn_inertializer_start(__VA_ARGS__, NULL) == TDN_ERR_ARGUMENT && memcmp(snapshot, memory, bytes) == 0)
    BAD_START(NULL, &cur, &prev, DT, &dst, 0.4f, TDN_INERTIA_QUINTIC);
    BAD_START(in, NULL, &prev, DT, &dst, 0.4f, TDN_INERTIA_QUINTIC);
    BAD_START(in, &cur, &prev, DT, NULL, 0.4f, TDN_INERTIA_QUINTIC);
    BAD_START(in, &other, &prev, DT, &dst, 0.4f, TDN_INERTIA_QUINTIC);
    BAD_START(in, &cur, &other, DT, &dst, 0.4f, TDN_INERTIA_QUINTIC);
    BAD_START(in, &cur, &prev, DT, &other, 0.4f, TDN_INERTIA_QUINTIC);
    BAD_START(in, &cur, &prev, -DT, &dst, 0.4f, TDN_INERTIA_QUINTIC);
    BAD_START(in, &cur, &prev, NAN, &dst, 0.4f, TDN_INERTIA_QUINTIC);
    BAD_START(in, &cur, &prev, INFINITY, &dst, 0.4f, TDN_INERTIA_QUINTIC);
    BAD_START(in, &cur, &prev, DT, &dst, -0.4f, TDN_INERTIA_QUINTIC);
    BAD_START(in, &cur, &prev, DT, &dst, NAN, TDN_INERTIA_QUINTIC);
    BAD_START(in, &cur, &prev, DT, &dst, INFINITY, TDN_INERTIA_QUINTIC);
    BAD_START(in, &cur, &prev, DT, &dst, 0.4f, (tdn_inertia_curve)2);
#undef BAD_START
#define BAD_APPLY(...)                                                                                           \
  CHECK(tdn_inertializer_apply(__VA_ARGS__, NULL) == TDN_ERR_ARGUMENT && memcmp(snapshot, memory, bytes) == 0 && \
        rows_equal(&out, &dst))
    tdn_pose_copy(&out, &dst, NULL);
    BAD_APPLY(NULL, DT, &out);
    BAD_APPLY(in, DT, NULL);
    BAD_APPLY(in, -DT, &out);
    BAD_APPLY(in, NAN, &out);
    BAD_APPLY(in, INFINITY, &out);
    CHECK(tdn_inertializer_apply(in, DT, &other, NULL) == TDN_ERR_ARGUMENT && memcmp(snapshot, memory, bytes) == 0);
#undef BAD_APPLY
    CHECK(!tdn_inertializer_active(NULL) && tdn_inertializer_elapsed(NULL) == 0.0f);
    /* non-finite pose values: no offset for that channel, everything else finite */
    tdn_transform nan_joint = tdn_pose_get(&cur, 2);
    nan_joint.t.x = NAN;
    nan_joint.r.w = INFINITY;
    tdn_pose_set(&cur, 2, &nan_joint);
    CHECK(tdn_inertializer_start(in, &cur, &prev, DT, &dst, 0.4f, TDN_INERTIA_SPRING, NULL) == TDN_OK);
    tdn_pose_copy(&out, &dst, NULL);
    CHECK(tdn_inertializer_apply(in, DT, &out, NULL) == TDN_OK);
    int finite = 1;
    for (size_t i = 0; i < TDN_POSE_ROWS * (size_t)out.stride; i++)
        finite &= isfinite(out.data[i]) != 0;
    CHECK(finite);
    tdn_inertializer_destroy(in); /* from init: left alone */
    CHECK(((tdn_inertializer *)memory) == in && tdn_inertializer_elapsed(in) > 0.0f);
    tdn_inertializer_destroy(NULL);
    tdn_pose_destroy(&cur);
    tdn_pose_destroy(&prev);
    tdn_pose_destroy(&dst);
    tdn_pose_destroy(&other);
    tdn_pose_destroy(&out);
    free(snapshot);
    free(memory);
}

static void test_allocation(void)
{
    enum { J = 67 };
    tdn_inertializer *in = NULL;
    allocations_before_failure = 0;
    CHECK(tdn_inertializer_create(J, &in, &counting, NULL) == TDN_ERR_OUT_OF_MEMORY && in == NULL);
    CHECK(live_blocks == 0);
    allocations_before_failure = -1;
    CHECK(tdn_inertializer_create(J, &in, &counting, NULL) == TDN_OK);
    CHECK_EQ_INT(live_blocks, 1);
    CHECK_EQ_INT((long long)live_bytes, (long long)tdn_inertializer_bytes(J));
    printf("inertializer for %d joints: %zu bytes\n", J, tdn_inertializer_bytes(J));
    /* from here every allocation through the hooks would fail: start and apply make none */
    allocations_before_failure = 0;
    check_rng rng = { 5 };
    tdn_pose cur, dst, out;
    tdn_pose_create(J, &cur, NULL, NULL);
    tdn_pose_create(J, &dst, NULL, NULL);
    tdn_pose_create(J, &out, NULL, NULL);
    random_pose(&rng, &cur);
    random_pose(&rng, &dst);
    int ok = 1;
    for (int i = 0; i < 100; i++) {
        if (i % 10 == 0)
            ok &= tdn_inertializer_start(in, &cur, &cur, DT, &dst, 0.2f, (tdn_inertia_curve)(i / 10 % 2), NULL) ==
                  TDN_OK;
        tdn_pose_copy(&out, &dst, NULL);
        ok &= tdn_inertializer_apply(in, DT, &out, NULL) == TDN_OK;
    }
    CHECK(ok);
    CHECK_EQ_INT(live_blocks, 1);
    allocations_before_failure = -1;
    tdn_inertializer_destroy(in);
    CHECK_EQ_INT(live_blocks, 0);
    CHECK_EQ_INT((long long)live_bytes, 0);
    tdn_pose_destroy(&cur);
    tdn_pose_destroy(&dst);
    tdn_pose_destroy(&out);
}

int main(void)
{
    RUN(test_quintic);
    RUN(test_spring);
    RUN(test_one_joint_matches_curve);
    RUN(test_whole_pose);
    RUN(test_stacking);
    RUN(test_bad_arguments);
    RUN(test_allocation);
    return check_summary();
}
