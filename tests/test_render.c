/* The preview renderer of `tendon run --render` (tools/camera.c, tools/render.c) against numbers
 * worked another way: a point's projection by hand, the pixels a single bone covers (the rows
 * and columns of its silhouette from the tangent rays' angles, and every pixel from the
 * ray-to-segment distance found by ternary search), its depth and Lambert shade, the ground's
 * horizon row and depths, and where grid lines fall seen from straight above. */
#include <math.h>
#include <stdlib.h>

#include "camera.h"
#include "check.h"
#include "render.h"

static const double PI = 3.14159265358979323846;

static void test_projection(void)
{
    /* eye (0, 1, 5) looking at (0, 1, 0) along -Z: right = +X, up = +Y; a 90 degree field of
     * view on 100 rows makes the focal length 50 pixels */
    camera c;
    camera_look_at(&c, tdn_vec3_make(0, 1, 5), tdn_vec3_make(0, 1, 0), (float)(PI / 2), 200, 100);
    CHECK_NEAR(c.focal, 50.0, 1e-4);
    CHECK_NEAR(c.right.x, 1.0, 1e-6);
    CHECK_NEAR(c.up.y, 1.0, 1e-6);
    float x, y, z;
    /* (1, 1, 0): 1 m right at 5 m deep: x = 100 + 50 x 1/5 = 110, y = 50 */
    CHECK(camera_project(&c, tdn_vec3_make(1, 1, 0), &x, &y, &z));
    CHECK_NEAR(x, 110.0, 1e-4);
    CHECK_NEAR(y, 50.0, 1e-4);
    CHECK_NEAR(z, 5.0, 1e-5);
    /* (0, 0, 3): 1 m down at 2 m deep: y = 50 + 50 x 1/2 = 75 */
    CHECK(camera_project(&c, tdn_vec3_make(0, 0, 3), &x, &y, &z));
    CHECK_NEAR(x, 100.0, 1e-4);
    CHECK_NEAR(y, 75.0, 1e-4);
    CHECK_NEAR(z, 2.0, 1e-5);
    CHECK(!camera_project(&c, tdn_vec3_make(0, 1, 6), &x, &y, &z)); /* behind the eye */
    /* an orbit: azimuth 90 puts the eye on +X */
    camera_orbit(&c, tdn_vec3_make(0, 1, 0), 90.0f, 0.0f, 4.0f, (float)(PI / 2), 200, 100);
    CHECK_NEAR(c.eye.x, 4.0, 1e-5);
    CHECK_NEAR(c.eye.y, 1.0, 1e-5);
    CHECK_NEAR(c.eye.z, 0.0, 1e-5);
}

/* The distance from the line through e along d to the segment a-b (ternary search over the
 * segment: the distance from a point moving along it to a line is convex). */
static double line_segment_distance(const double e[3], const double d[3], const double a[3], const double b[3])
{
    const double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    double lo = 0.0, hi = 1.0;
    double best = 0.0;
    for (int it = 0; it < 200; it++) {
        double m[2] = { lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0 }, f[2];
        for (int q = 0; q < 2; q++) {
            double p[3], w[3];
            for (int k = 0; k < 3; k++)
                p[k] = a[k] + m[q] * (b[k] - a[k]), w[k] = p[k] - e[k];
            const double along = (w[0] * d[0] + w[1] * d[1] + w[2] * d[2]) / dd;
            double r2 = 0.0;
            for (int k = 0; k < 3; k++)
                r2 += (w[k] - along * d[k]) * (w[k] - along * d[k]);
            f[q] = sqrt(r2);
        }
        if (f[0] < f[1])
            hi = m[1];
        else
            lo = m[0];
        best = f[0] < f[1] ? f[0] : f[1];
    }
    return best;
}

static void test_single_bone(void)
{
    /* a bone from (-1, 1, 0) to (1, 1, 0) of radius 0.5 seen from (0, 1, 5), focal 50 */
    render_canvas r;
    CHECK(render_canvas_create(&r, 200, 100));
    camera c;
    camera_look_at(&c, tdn_vec3_make(0, 1, 5), tdn_vec3_make(0, 1, 0), (float)(PI / 2), 200, 100);
    render_ground(&r, &c, NULL, 0.5f, 10.0f, 20.0f);
    const rgb albedo = { 200, 100, 50 };
    render_capsule(&r, tdn_vec3_make(-1, 1, 0), tdn_vec3_make(1, 1, 0), 0.5f, albedo, 7);
    /* column 100 (centre x = 100.5, nearly straight ahead): the cylinder's tangent rays are
     * asin(0.5 / 5) from the axis, tan = 0.1 / sqrt(0.99) = 0.100504, so y = 50 -+ 5.025:
     * rows whose centre j + 0.5 lies in (44.975, 55.025): 45 .. 54 */
    for (int j = 0; j < 100; j++)
        CHECK_EQ_INT(r.id[(size_t)j * 200 + 100] == 7, j >= 45 && j <= 54);
    /* row 49 (centre y = 49.5, 0.01 rad above the axis): the end spheres at (+-1, 1, 0), seen
     * atan(1/5) = 11.310 degrees off the axis, subtend asin(0.5 / sqrt(26)) = 5.6275 degrees:
     * x = 100 +- 50 tan(16.938 degrees) = 100 +- 15.229: columns 85 .. 114 */
    for (int i = 0; i < 200; i++)
        CHECK_EQ_INT(r.id[49 * 200 + (size_t)i] == 7, i >= 85 && i <= 114);
    /* every pixel: covered exactly when its ray passes within 0.5 of the segment (pixels within
     * 1 mm of the boundary not counted) */
    const double e[3] = { 0, 1, 5 }, a[3] = { -1, 1, 0 }, b[3] = { 1, 1, 0 };
    int mismatched = 0, counted = 0;
    for (int j = 0; j < 100; j++)
        for (int i = 0; i < 200; i++) {
            const double d[3] = { (i + 0.5 - 100.0) / 50.0, (50.0 - (j + 0.5)) / 50.0, -1.0 };
            const double dist = line_segment_distance(e, d, a, b);
            if (fabs(dist - 0.5) < 1e-3)
                continue;
            counted++;
            mismatched += (r.id[(size_t)j * 200 + (size_t)i] == 7) != (dist < 0.5);
        }
    CHECK_EQ_INT(mismatched, 0);
    CHECK(counted > 19000);
    /* depth at pixel (100, 49): the ray (0.01, 0.01, -1) meets the cylinder y^2 + z^2 = 0.25
     * where (1 + 0.01 t')^2 ... in view depth z: (0.01 z)^2 + (5 - z)^2 = 0.25 -> z = 4.50050 */
    {
        const double qa = 1.0001, qb = -10.0, qc = 24.75; /* (0.01 z)^2 + (5 - z)^2 - 0.25 */
        const double z = (-qb - sqrt(qb * qb - 4 * qa * qc)) / (2 * qa);
        CHECK_NEAR(r.depth[49 * 200 + 100], z, 1e-4);
        /* Lambert: the normal (0, 0.01 z, 5 - z) / 0.5 against the light -0.45 right + 0.8 up
         * - 0.55 forward, normalized: (-0.45, 0.8, 0.55) / 1.070047 */
        const double n[3] = { 0.0, 0.01 * z / 0.5, (5.0 - z) / 0.5 };
        const double l[3] = { -0.45 / 1.070047, 0.8 / 1.070047, 0.55 / 1.070047 };
        const double lambert = RENDER_AMBIENT + (1.0 - RENDER_AMBIENT) * (n[0] * l[0] + n[1] * l[1] + n[2] * l[2]);
        const unsigned char *p = r.image.pixels + (49 * 200 + 100) * 3;
        CHECK_NEAR(p[0], 200.0 * lambert, 1.0);
        CHECK_NEAR(p[1], 100.0 * lambert, 1.0);
        CHECK_NEAR(p[2], 50.0 * lambert, 1.0);
    }
    /* a bone under the ground is hidden by it */
    render_capsule(&r, tdn_vec3_make(-1, -0.8f, 0), tdn_vec3_make(1, -0.8f, 0), 0.2f, albedo, 9);
    int under = 0;
    for (size_t k = 0; k < 200 * 100; k++)
        under += r.id[k] == 9;
    CHECK_EQ_INT(under, 0);
    render_canvas_destroy(&r);
}

static void test_horizon(void)
{
    /* an orbit 5 m from (0, 1, 0) at 10 degrees elevation, 60 degree field of view on 100 rows:
     * focal = 50 / tan 30 = 86.6025; horizontal rays have v = tan 10 = 0.176327, the row
     * y = 50 - 86.6025 x 0.176327 = 34.730: rows 0..34 are sky, 35..99 ground */
    render_canvas r;
    CHECK(render_canvas_create(&r, 200, 100));
    camera c;
    camera_orbit(&c, tdn_vec3_make(0, 1, 0), 30.0f, 10.0f, 5.0f, (float)(PI / 3), 200, 100);
    render_ground(&r, &c, NULL, 0.5f, 8.0f, 30.0f);
    const double f = 50.0 / tan(PI / 6), el = 10.0 * PI / 180.0;
    CHECK_NEAR(c.focal, f, 1e-3);
    int wrong = 0;
    for (int j = 0; j < 100; j++)
        for (int i = 0; i < 200; i++)
            wrong += isinf(r.depth[(size_t)j * 200 + (size_t)i]) != (j <= 34);
    CHECK_EQ_INT(wrong, 0);
    /* the ground's depth in a row: the eye is 1 + 5 sin 10 above it, the ray through the row's
     * centre falls by -sin 10 + v cos 10 per metre of depth */
    const double eye_y = 1.0 + 5.0 * sin(el);
    const int rows[3] = { 35, 60, 99 };
    for (int q = 0; q < 3; q++) {
        const double v = (50.0 - (rows[q] + 0.5)) / f, fall = -sin(el) + v * cos(el);
        CHECK_NEAR(r.depth[(size_t)rows[q] * 200 + 100] / (eye_y / -fall), 1.0, 1e-3);
    }
    /* the sky above is the sky's colour, the ground below hazed ground: they differ */
    const unsigned char *sky = r.image.pixels + (34 * 200 + 100) * 3, *ground_px = r.image.pixels + (35 * 200 + 100) * 3;
    CHECK(abs(sky[0] - ground_px[0]) + abs(sky[1] - ground_px[1]) + abs(sky[2] - ground_px[2]) > 20);
    render_canvas_destroy(&r);
}

static int luminance(const render_canvas *r, int i, int j)
{
    const unsigned char *p = r->image.pixels + ((size_t)j * (size_t)r->image.width + (size_t)i) * 3;
    return p[0] + p[1] + p[2];
}

static void test_grid_from_above(void)
{
    /* 5 m straight above (0.275, 0, 0.275), 90 degrees on 200 x 200: focal 100, right = -X,
     * up = +Z, so the ground point (x, z) is at column 100 - 20 (x - 0.275), row
     * 100 - 20 (z - 0.275). Lines every 0.5 m: x = 0 is column 105.5, the centre of column
     * 105, then every 10 columns; row 100 (z = 0.25) lies between lines z = 0 and z = 0.5. */
    render_canvas r;
    CHECK(render_canvas_create(&r, 200, 200));
    camera c;
    camera_look_at(&c, tdn_vec3_make(0.275f, 5, 0.275f), tdn_vec3_make(0.275f, 0, 0.275f), (float)(PI / 2), 200, 200);
    render_ground(&r, &c, NULL, 0.5f, 50.0f, 100.0f);
    CHECK_NEAR(c.right.x, -1.0, 1e-6);
    CHECK_NEAR(c.up.z, 1.0, 1e-6);
    for (int i = 10; i < 190; i++) {
        const int on_line = (i % 10) == 5;
        const int here = luminance(&r, i, 100), left = luminance(&r, i - 1, 100), right = luminance(&r, i + 1, 100);
        if (on_line)
            CHECK(here < left - 30 && here < right - 30);
        else
            CHECK(here >= left - 2 || here >= right - 2); /* not a local minimum */
    }
    /* and the same along the column: z lines at rows 105.5 - 10 k */
    for (int j = 10; j < 190; j++) {
        const int on_line = (j % 10) == 5;
        const int here = luminance(&r, 100, j), up = luminance(&r, 100, j - 1), down = luminance(&r, 100, j + 1);
        if (on_line)
            CHECK(here < up - 30 && here < down - 30);
    }
    render_canvas_destroy(&r);
}

int main(void)
{
    RUN(test_projection);
    RUN(test_single_bone);
    RUN(test_horizon);
    RUN(test_grid_from_above);
    return check_summary();
}
