/* Math: closed forms and properties over random inputs. */
#include "check.h"

static void check_quat_near(tdn_quat a, tdn_quat b, double tol) { CHECK_NEAR(check_quat_angle(a, b), 0.0, tol); }

static void slerp_midpoint_of_90_degrees_is_45(void)
{
    tdn_quat a = tdn_quat_identity();
    tdn_quat b = tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), TDN_PI / 2);
    tdn_quat m = tdn_quat_slerp(a, b, 0.5f);
    /* 45 degrees about z: (0, 0, sin 22.5deg, cos 22.5deg) */
    CHECK_NEAR(m.x, 0.0, 1e-7);
    CHECK_NEAR(m.y, 0.0, 1e-7);
    CHECK_NEAR(m.z, 0.38268343236, 1e-6);
    CHECK_NEAR(m.w, 0.92387953251, 1e-6);
    /* The same through the negated (equivalent) endpoint: the short way, same rotation. */
    check_quat_near(tdn_quat_slerp(a, tdn_quat_negate(b), 0.5f), m, 1e-6);
    check_quat_near(tdn_quat_nlerp(a, b, 0.5f), m, 1e-6); /* nlerp is exact at the midpoint */
}

static void slerp_is_constant_speed_and_short(void)
{
    check_rng rng = { 1 };
    for (int i = 0; i < 2000; i++) {
        tdn_quat a = check_rng_quat(&rng), b = check_rng_quat(&rng);
        float t = check_rng_float(&rng, 0, 1);
        double total = check_quat_angle(a, b); /* <= pi: the short way */
        tdn_quat q = tdn_quat_slerp(a, b, t);
        CHECK_NEAR(check_quat_angle(a, q), t * total, 2e-4);
        CHECK_NEAR(check_quat_angle(q, b), (1 - t) * total, 2e-4);
        CHECK_NEAR(tdn_quat_dot(q, q), 1.0, 1e-5);
    }
    tdn_quat a = tdn_quat_from_axis_angle(tdn_vec3_make(1, 2, 3), 0.7f);
    tdn_quat b = tdn_quat_from_axis_angle(tdn_vec3_make(-1, 0, 2), 2.1f);
    check_quat_near(tdn_quat_slerp(a, b, 0), a, 1e-6);
    check_quat_near(tdn_quat_slerp(a, b, 1), b, 1e-6);
}

/* Sweeps every arc length and t on a fine grid: the stated bound holds and is tight. */
static void fast_slerp_error_matches_its_stated_bound(void)
{
    double worst = 0.0;
    tdn_quat a = tdn_quat_identity();
    for (int i = 0; i <= 720; i++) {
        float angle = TDN_PI * (float)i / 720.0f; /* rotation angle 0..180 degrees */
        tdn_quat b = tdn_quat_from_axis_angle(tdn_vec3_make(0.3f, -0.5f, 0.8f), angle);
        for (int k = 0; k <= 200; k++) {
            float t = (float)k / 200.0f;
            double e = check_quat_angle(tdn_quat_slerp_fast(a, b, t), tdn_quat_slerp(a, b, t));
            worst = e > worst ? e : worst;
        }
    }
    check_rng rng = { 7 };
    for (int i = 0; i < 20000; i++) {
        tdn_quat p = check_rng_quat(&rng), q = check_rng_quat(&rng);
        float t = check_rng_float(&rng, 0, 1);
        double e = check_quat_angle(tdn_quat_slerp_fast(p, q, t), tdn_quat_slerp(p, q, t));
        worst = e > worst ? e : worst;
    }
    printf("fast slerp: measured max angular error %.3g rad (stated bound %.3g)\n", worst,
           (double)TDN_FAST_SLERP_MAX_ERROR);
    CHECK(worst <= TDN_FAST_SLERP_MAX_ERROR);
    CHECK(worst >= 0.5 * TDN_FAST_SLERP_MAX_ERROR); /* the bound is not padded */
    /* nlerp alone would be far off: the correction matters. */
    tdn_quat b = tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), 3.0f);
    CHECK(check_quat_angle(tdn_quat_nlerp(a, b, 0.25f), tdn_quat_slerp(a, b, 0.25f)) > 0.1);
}

static void quaternions_stay_unit_under_composition(void)
{
    check_rng rng = { 3 };
    tdn_quat q = tdn_quat_identity();
    for (int i = 0; i < 10000; i++) {
        tdn_quat r = check_rng_quat(&rng);
        q = tdn_quat_normalize(tdn_quat_mul(q, r));
        q = tdn_quat_nlerp(q, r, 0.3f);
        q = tdn_quat_slerp(q, check_rng_quat(&rng), 0.6f);
    }
    CHECK_NEAR(tdn_quat_dot(q, q), 1.0, 1e-5);
    CHECK_NEAR(tdn_quat_dot(tdn_quat_normalize(tdn_quat_make(0, 0, 0, 0)), tdn_quat_identity()), 1.0, 0);
}

static void quaternion_matrix_round_trip(void)
{
    check_rng rng = { 11 };
    for (int i = 0; i < 2000; i++) {
        tdn_quat q = check_rng_quat(&rng);
        tdn_mat4 m = tdn_mat4_from_quat(q);
        check_quat_near(tdn_quat_from_mat4(&m), q, 1e-3);
        tdn_vec3 v = check_rng_vec3(&rng, -2, 2);
        tdn_vec3 a = tdn_quat_rotate(q, v), b = tdn_mat4_transform_vector(&m, v);
        CHECK_NEAR(tdn_vec3_length(tdn_vec3_sub(a, b)), 0.0, 1e-5);
    }
    /* 90 degrees about z takes x to y (column-major: first column is the image of x). */
    tdn_mat4 m = tdn_mat4_from_quat(tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), TDN_PI / 2));
    CHECK_NEAR(m.m[0], 0.0, 1e-6);
    CHECK_NEAR(m.m[1], 1.0, 1e-6);
    CHECK_NEAR(m.m[4], -1.0, 1e-6);
}

static void matrix_inverse_and_product(void)
{
    check_rng rng = { 5 };
    for (int i = 0; i < 500; i++) {
        tdn_transform x = { check_rng_vec3(&rng, -5, 5), check_rng_quat(&rng), check_rng_vec3(&rng, 0.2f, 3) };
        tdn_mat4 m = tdn_transform_to_mat4(&x), inv;
        CHECK(tdn_mat4_invert(&m, &inv));
        tdn_mat4 id = tdn_mat4_mul(&m, &inv);
        double err = 0;
        for (int k = 0; k < 16; k++)
            err = fmax(err, fabs(id.m[k] - (k % 5 == 0 ? 1.0 : 0.0)));
        CHECK_NEAR(err, 0.0, 1e-5);
    }
    tdn_mat4 singular = tdn_mat4_identity(), out;
    singular.m[5] = 0.0f;
    CHECK(!tdn_mat4_invert(&singular, &out));
    CHECK_NEAR(out.m[5], 1.0, 0); /* identity written */
}

/* T * R * S applied to a point by hand equals the matrix and the transform helpers. */
static void transform_composition(void)
{
    tdn_transform x = { { 1, 2, 3 }, { 0, 0, 0.70710678f, 0.70710678f }, { 2, 3, 4 } };
    tdn_vec3 p = tdn_vec3_make(1, 1, 1);
    /* scale -> (2,3,4); 90deg about z: (x,y) -> (-y,x) -> (-3,2,4); translate -> (-2,4,7) */
    tdn_mat4 m = tdn_transform_to_mat4(&x);
    tdn_vec3 a = tdn_mat4_transform_point(&m, p), b = tdn_transform_point(&x, p);
    CHECK_NEAR(a.x, -2, 1e-5);
    CHECK_NEAR(a.y, 4, 1e-5);
    CHECK_NEAR(a.z, 7, 1e-5);
    CHECK_NEAR(tdn_vec3_length(tdn_vec3_sub(a, b)), 0, 1e-5);

    check_rng rng = { 9 };
    for (int i = 0; i < 500; i++) {
        float s1 = check_rng_float(&rng, 0.5f, 2), s2 = check_rng_float(&rng, 0.5f, 2);
        tdn_transform p1 = { check_rng_vec3(&rng, -1, 1), check_rng_quat(&rng), { s1, s1, s1 } };
        tdn_transform c1 = { check_rng_vec3(&rng, -1, 1), check_rng_quat(&rng), { s2, s2, s2 } };
        tdn_transform pc = tdn_transform_mul(&p1, &c1);
        tdn_mat4 mp = tdn_transform_to_mat4(&p1), mc = tdn_transform_to_mat4(&c1);
        tdn_mat4 prod = tdn_mat4_mul(&mp, &mc), mpc = tdn_transform_to_mat4(&pc);
        double err = 0;
        for (int k = 0; k < 16; k++)
            err = fmax(err, fabs(prod.m[k] - mpc.m[k]));
        CHECK_NEAR(err, 0, 1e-5);
        tdn_transform inv = tdn_transform_inverse(&pc);
        tdn_vec3 q = check_rng_vec3(&rng, -3, 3);
        tdn_vec3 back = tdn_transform_point(&inv, tdn_transform_point(&pc, q));
        CHECK_NEAR(tdn_vec3_length(tdn_vec3_sub(back, q)), 0, 1e-4);
    }
}

static void matrix_decomposition(void)
{
    check_rng rng = { 13 };
    for (int i = 0; i < 500; i++) {
        tdn_transform x = { check_rng_vec3(&rng, -5, 5), check_rng_quat(&rng), check_rng_vec3(&rng, 0.2f, 3) };
        if (i % 2)
            x.s.x = -x.s.x; /* a mirror: recovered as a negative x scale */
        tdn_mat4 m = tdn_transform_to_mat4(&x);
        tdn_transform y = tdn_transform_from_mat4(&m);
        tdn_mat4 m2 = tdn_transform_to_mat4(&y);
        double err = 0;
        for (int k = 0; k < 16; k++)
            err = fmax(err, fabs(m.m[k] - m2.m[k]));
        CHECK_NEAR(err, 0, 2e-5);
        CHECK_NEAR(y.t.x, x.t.x, 1e-6);
    }
    /* Shear: translation exact, rotation the closest rotation (here the identity for a
     * symmetric shear). */
    tdn_mat4 shear = tdn_mat4_identity();
    shear.m[4] = 0.3f;
    shear.m[1] = 0.3f;
    shear.m[12] = 5;
    tdn_transform y = tdn_transform_from_mat4(&shear);
    CHECK_NEAR(y.t.x, 5, 0);
    check_quat_near(y.r, tdn_quat_identity(), 1e-5);
}

static void axis_angle_and_from_to(void)
{
    check_rng rng = { 17 };
    for (int i = 0; i < 1000; i++) {
        tdn_vec3 axis = tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1));
        float angle = check_rng_float(&rng, 0.001f, TDN_PI - 0.001f);
        tdn_vec3 ax2;
        float an2;
        tdn_quat_to_axis_angle(tdn_quat_from_axis_angle(axis, angle), &ax2, &an2);
        CHECK_NEAR(an2, angle, 1e-4);
        CHECK_NEAR(tdn_vec3_dot(axis, ax2), 1.0, 1e-4);

        tdn_vec3 from = tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1));
        tdn_vec3 to = tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1));
        tdn_vec3 got = tdn_quat_rotate(tdn_quat_from_to(from, to), from);
        CHECK_NEAR(tdn_vec3_length(tdn_vec3_sub(got, to)), 0, 1e-5);
    }
    tdn_vec3 x = tdn_vec3_make(1, 0, 0);
    tdn_vec3 back = tdn_quat_rotate(tdn_quat_from_to(x, tdn_vec3_scale(x, -1)), x);
    CHECK_NEAR(back.x, -1, 1e-6);
    tdn_quat a = tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), 0.5f);
    tdn_quat b = tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), 1.25f);
    CHECK_NEAR(tdn_quat_angle_between(a, tdn_quat_negate(b)), 0.75, 1e-6);
}

static void version_matches_header(void)
{
    CHECK_EQ_INT(tdn_version(), TDN_VERSION);
    CHECK(tdn_version_string()[0] == '0' + TDN_VERSION_MAJOR);
}

int main(void)
{
    RUN(slerp_midpoint_of_90_degrees_is_45);
    RUN(slerp_is_constant_speed_and_short);
    RUN(fast_slerp_error_matches_its_stated_bound);
    RUN(quaternions_stay_unit_under_composition);
    RUN(quaternion_matrix_round_trip);
    RUN(matrix_inverse_and_product);
    RUN(transform_composition);
    RUN(matrix_decomposition);
    RUN(axis_angle_and_from_to);
    RUN(version_matches_header);
    return check_summary();
}
