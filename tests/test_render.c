/* The preview renderer of `tendon run --render` (tools/render/camera.c, tools/render/render.c) against numbers
 * worked another way: a point's projection by hand, the pixels a single bone covers (the rows
 * and columns of its silhouette from the tangent rays' angles, and every pixel from the
 * ray-to-segment distance found by ternary search), its depth and Lambert shade, the ground's
 * horizon row and depths, and where grid lines fall seen from straight above; the rasterizer's
 * coverage against an edge-function test in double, its depths and attributes against the ray's
 * hit on the triangle's plane, a shared edge covered once; a skinned mesh under a translation
 * drawn shifted by the projected offset; a glTF mesh with two influence sets gathered with all
 * 8 influences and skinned where the file's numbers put it; a slope's and a step's depths
 * against the closed-form ray-plane hits, and a bumpy ground's drawn points on its height
 * field. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "check.h"
#include "eight_influences_fixture.h"
#include "preview_mesh.h"
#include "raster.h"
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
    const unsigned char *sky = r.image.pixels + (34 * 200 + 100) * 3,
                        *ground_px = r.image.pixels + (35 * 200 + 100) * 3;
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

/* A camera at the origin looking along -Z, 90 degrees on 100 rows: focal 50, right = +X, up = +Y;
 * the world point at depth z seen at pixel coordinates (x, y). */
static void straight_camera(camera *c, int w, int h)
{
    camera_look_at(c, tdn_vec3_make(0, 0, 0), tdn_vec3_make(0, 0, -1), (float)(PI / 2), w, h);
}

static tdn_vec3 at_pixel(const camera *c, double x, double y, double z)
{
    return tdn_vec3_make((float)((x - 0.5 * c->width) / c->focal * z), (float)((0.5 * c->height - y) / c->focal * z),
                         (float)-z);
}

typedef struct coverage {
    int width;
    int *count;
    float *attribute;
} coverage;

static void count_fragment(void *user, int x, int y, float depth, const float *attributes)
{
    (void)depth;
    coverage *c = user;
    c->count[(size_t)y * (size_t)c->width + (size_t)x]++;
    c->attribute[(size_t)y * (size_t)c->width + (size_t)x] = attributes[0];
}

static double edge2(const double *a, const double *b, double px, double py)
{
    return (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
}

static void test_triangle(void)
{
    /* screen corners on 1/256 pixel (so snapping moves nothing) at depths 2, 4 and 3 */
    const int w = 200, h = 100;
    camera c;
    straight_camera(&c, w, h);
    const double s[3][3] = { { 20.25, 10.5, 2.0 }, { 150.75, 30.125, 4.0 }, { 60.5, 90.875, 3.0 } };
    raster_vertex v[3];
    for (int k = 0; k < 3; k++) {
        v[k].position = at_pixel(&c, s[k][0], s[k][1], s[k][2]);
        v[k].attributes[0] = v[k].position.x; /* world x: perspective-correct, it is the hit's x */
    }
    float *depth = malloc(sizeof(float) * w * h);
    coverage cov = { w, calloc((size_t)w * h, sizeof(int)), calloc((size_t)w * h, sizeof(float)) };
    for (int k = 0; k < w * h; k++)
        depth[k] = INFINITY;
    const raster_target t = { &c, depth, 1, count_fragment, &cov };
    raster_triangle(&t, &v[0], &v[1], &v[2]);
    /* the plane through the corners, in double */
    const double a[3] = { v[0].position.x, v[0].position.y, v[0].position.z };
    const double b[3] = { v[1].position.x, v[1].position.y, v[1].position.z };
    const double q[3] = { v[2].position.x, v[2].position.y, v[2].position.z };
    const double ab[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, aq[3] = { q[0] - a[0], q[1] - a[1], q[2] - a[2] };
    const double n[3] = { ab[1] * aq[2] - ab[2] * aq[1], ab[2] * aq[0] - ab[0] * aq[2], ab[0] * aq[1] - ab[1] * aq[0] };
    const double area = edge2(s[0], s[1], s[2][0], s[2][1]);
    int wrong = 0, inside = 0, on_edge = 0, depth_bad = 0, x_bad = 0;
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            const double px = i + 0.5, py = j + 0.5;
            const double e0 = edge2(s[1], s[2], px, py) / area, e1 = edge2(s[2], s[0], px, py) / area;
            const double e2 = edge2(s[0], s[1], px, py) / area;
            on_edge += e0 == 0.0 || e1 == 0.0 || e2 == 0.0;
            const int in = e0 > 0.0 && e1 > 0.0 && e2 > 0.0;
            const size_t k = (size_t)j * w + (size_t)i;
            inside += in;
            wrong += in != (cov.count[k] == 1) || cov.count[k] > 1;
            if (!in || cov.count[k] != 1)
                continue;
            /* the ray through the centre meets the plane n . (p - a) = 0 at r s, s = n.a / n.r */
            const double r[3] = { (px - 100.0) / 50.0, (50.0 - py) / 50.0, -1.0 }; /* r . forward = 1 */
            const double hit = (n[0] * a[0] + n[1] * a[1] + n[2] * a[2]) / (n[0] * r[0] + n[1] * r[1] + n[2] * r[2]);
            depth_bad += fabs(depth[k] / hit - 1.0) > 1e-5;
            x_bad += fabs(cov.attribute[k] - hit * r[0]) > 1e-4;
        }
    }
    CHECK_EQ_INT(on_edge, 0);
    CHECK(inside > 3000);
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(depth_bad, 0);
    CHECK_EQ_INT(x_bad, 0);
    free(depth);
    free(cov.count);
    free(cov.attribute);
}

static void test_shared_edge(void)
{
    /* a square with corners on pixel centres (10.5 .. 60.5) cut along its diagonal, which runs
     * through pixel centres too: each triangle on its own depth buffer, every centre of the
     * half-open square [10.5, 60.5) x [10.5, 60.5) (top and left edges in) covered exactly once */
    const int w = 80, h = 80;
    camera c;
    straight_camera(&c, w, h);
    raster_vertex v[4];
    const double corners[4][2] = { { 10.5, 10.5 }, { 60.5, 10.5 }, { 60.5, 60.5 }, { 10.5, 60.5 } };
    for (int k = 0; k < 4; k++)
        v[k].position = at_pixel(&c, corners[k][0], corners[k][1], 3.0);
    float *depth = malloc(sizeof(float) * w * h);
    int *total = calloc((size_t)w * h, sizeof(int));
    const int tris[2][3] = { { 0, 1, 2 }, { 0, 2, 3 } };
    for (int tri = 0; tri < 2; tri++) {
        coverage cov = { w, calloc((size_t)w * h, sizeof(int)), calloc((size_t)w * h, sizeof(float)) };
        for (int k = 0; k < w * h; k++)
            depth[k] = INFINITY;
        const raster_target t = { &c, depth, 0, count_fragment, &cov };
        raster_triangle(&t, &v[tris[tri][0]], &v[tris[tri][1]], &v[tris[tri][2]]);
        for (int k = 0; k < w * h; k++)
            total[k] += cov.count[k];
        free(cov.count);
        free(cov.attribute);
    }
    int wrong = 0;
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++)
            wrong += total[j * w + i] != (i >= 10 && i < 60 && j >= 10 && j < 60);
    CHECK_EQ_INT(wrong, 0);
    free(depth);
    free(total);
}

/* Vertices no loader lets through (a position of 3e38, infinity, NaN: a mesh of the API's, or
 * skinned far out) against two on the canvas: whatever is drawn lands on the canvas once per
 * pixel at a finite depth, and the rasterizer's arithmetic stays defined (the sanitizer build
 * checks the float-to-int conversions and the edge functions' int64 products). */
static void test_extreme_vertices(void)
{
    const int w = 60, h = 40;
    camera c;
    straight_camera(&c, w, h);
    const float extremes[] = { 3e38f, -3e38f, INFINITY, -INFINITY, NAN, 1e20f };
    float *depth = malloc(sizeof(float) * w * h);
    int drawn_badly = 0;
    for (size_t e = 0; e < sizeof extremes / sizeof extremes[0]; e++)
        for (int axis = 0; axis < 3; axis++) {
            raster_vertex v[3];
            v[0].position = at_pixel(&c, 10.5, 5.5, 3.0);
            v[1].position = at_pixel(&c, 10.5, 35.5, 3.0);
            v[2].position = at_pixel(&c, 40.5, 20.5, 3.0);
            (&v[2].position.x)[axis] = extremes[e];
            for (int k = 0; k < 3; k++)
                v[k].attributes[0] = 1.0f;
            coverage cov = { w, calloc((size_t)w * h, sizeof(int)), calloc((size_t)w * h, sizeof(float)) };
            for (int k = 0; k < w * h; k++)
                depth[k] = INFINITY;
            const raster_target t = { &c, depth, 1, count_fragment, &cov };
            raster_triangle(&t, &v[0], &v[1], &v[2]);
            for (int k = 0; k < w * h; k++)
                drawn_badly += cov.count[k] > 1 || (cov.count[k] == 1 && !(depth[k] > 0.0f && isfinite(depth[k])));
            free(cov.count);
            free(cov.attribute);
        }
    CHECK_EQ_INT(drawn_badly, 0);
    free(depth);
}

static void test_skinned_translation(void)
{
    /* a square facing the camera 4 m deep, skinned on joint 1; translating that joint by
     * (0.4, -0.16, 0) moves it by f dx / z = 50 x 0.4 / 4 = 5 columns and 2 rows down */
    const int w = 200, h = 100;
    camera c;
    straight_camera(&c, w, h);
    float positions[12], normals[12], weights[16] = { 0 }, albedos[12];
    uint16_t joints[16] = { 0 };
    uint32_t indices[6] = { 0, 1, 2, 0, 2, 3 };
    unsigned short ids[2] = { 2, 2 };
    const double corners[4][2] = { { 70.3, 20.6 }, { 120.1, 25.2 }, { 115.7, 70.4 }, { 72.9, 66.8 } };
    for (int k = 0; k < 4; k++) {
        const tdn_vec3 p = at_pixel(&c, corners[k][0], corners[k][1], 4.0);
        positions[3 * k] = p.x, positions[3 * k + 1] = p.y, positions[3 * k + 2] = p.z;
        normals[3 * k] = 0.0f, normals[3 * k + 1] = 0.0f, normals[3 * k + 2] = 1.0f;
        albedos[3 * k] = 0.8f, albedos[3 * k + 1] = 0.5f, albedos[3 * k + 2] = 0.3f;
        joints[4 * k] = 1, weights[4 * k] = 1.0f;
    }
    const preview_mesh mesh = { .vertex_count = 4,
                                .triangle_count = 2,
                                .influences = 4,
                                .positions = positions,
                                .normals = normals,
                                .joints = joints,
                                .weights = weights,
                                .albedos = albedos,
                                .indices = indices,
                                .ids = ids };
    tdn_mat4 palette[2] = { tdn_mat4_identity(), tdn_mat4_identity() };
    float scratch[24];
    render_canvas r[2];
    for (int q = 0; q < 2; q++) {
        CHECK(render_canvas_create(&r[q], w, h));
        for (int k = 0; k < w * h; k++)
            r[q].depth[k] = INFINITY, r[q].id[k] = 0;
        r[q].cam = c;
        palette[1].m[12] = q ? 0.4f : 0.0f;
        palette[1].m[13] = q ? -0.16f : 0.0f;
        preview_mesh_draw(&mesh, &r[q], palette, 2, scratch);
    }
    int covered = 0, wrong = 0, colour = 0;
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            const size_t k = (size_t)j * w + (size_t)i;
            const int before = i >= 5 && j >= 2 && r[0].id[(size_t)(j - 2) * w + (size_t)(i - 5)] == 2;
            covered += r[1].id[k] == 2;
            wrong += (r[1].id[k] == 2) != before;
            if (before && r[1].id[k] == 2)
                colour += memcmp(r[1].image.pixels + 3 * k,
                                 r[0].image.pixels + 3 * ((size_t)(j - 2) * w + (size_t)(i - 5)), 3) != 0;
        }
    }
    CHECK(covered > 1500);
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(colour, 0);
    render_canvas_destroy(&r[0]);
    render_canvas_destroy(&r[1]);
}

/* eight_influences_fixture.h's primitives, one with JOINTS_1/WEIGHTS_1 and one without,
 * gathered: 8 influences per vertex, the file's for the first primitive and its first set then
 * weight 0 for the second; drawn at rest, every vertex skinned where the file's numbers put it
 * (the first four influences alone put vertex 0 elsewhere: test_skin). */
static void test_mesh_with_two_influence_sets(void)
{
    size_t size = 0;
    void *file = eight_influences_gltf(0, 0, &size);
    tdn_asset *asset = NULL;
    CHECK_EQ_INT(tdn_asset_load_memory(file, size, NULL, &asset, NULL, NULL), TDN_OK);
    free(file);
    if (!asset)
        return;
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    const int joints = tdn_skeleton_joint_count(skel);
    rgb colours[EIGHT_SKIN_JOINTS] = { { 200, 100, 50 } };
    preview_mesh m;
    if (!CHECK_EQ_INT(joints, EIGHT_SKIN_JOINTS) || !CHECK(preview_mesh_init(&m, asset, joints, colours))) {
        tdn_asset_destroy(asset);
        return;
    }
    if (!CHECK_EQ_INT(m.influences, 8) || !CHECK_EQ_INT(m.vertex_count, 2 * EIGHT_VERTICES)) {
        preview_mesh_free(&m);
        tdn_asset_destroy(asset);
        return;
    }
    const tdn_asset_mesh both = tdn_asset_mesh_at(asset, 0), first = tdn_asset_mesh_at(asset, 1);
    int gathered = 1;
    for (int v = 0; v < EIGHT_VERTICES; v++)
        for (int k = 0; k < 8; k++) {
            gathered &= m.joints[8 * v + k] == both.joints[8 * v + k];
            gathered &= m.weights[8 * v + k] == both.weights[8 * v + k];
            const size_t at = 8 * (size_t)(EIGHT_VERTICES + v) + (size_t)k;
            gathered &= k < 4 ? m.joints[at] == first.joints[4 * v + k] && m.weights[at] == first.weights[4 * v + k]
                              : m.joints[at] == 0 && m.weights[at] == 0.0f;
        }
    CHECK(gathered);

    tdn_pose pose;
    tdn_mat4 model[EIGHT_SKIN_JOINTS], palette[EIGHT_SKIN_JOINTS];
    tdn_pose_create(joints, &pose, NULL, NULL);
    tdn_pose_set_rest(&pose, skel, NULL);
    tdn_model_space(skel, &pose, NULL, model, NULL);
    tdn_palette(skel, model, palette, NULL);
    render_canvas r;
    CHECK(render_canvas_create(&r, 64, 48));
    for (int k = 0; k < 64 * 48; k++)
        r.depth[k] = INFINITY, r.id[k] = 0;
    straight_camera(&r.cam, 64, 48);
    float scratch[6 * 2 * EIGHT_VERTICES];
    preview_mesh_draw(&m, &r, palette, joints, scratch);
    double worst = 0.0;
    for (int v = 0; v < 2 * EIGHT_VERTICES; v++) {
        double ref[3], normal[3];
        eight_reference(v % EIGHT_VERTICES, v < EIGHT_VERTICES ? 8 : 4, ref, normal);
        for (int i = 0; i < 3; i++)
            worst = fmax(worst, fabs(scratch[3 * v + i] - ref[i]));
    }
    CHECK_NEAR(worst, 0.0, 1e-5);
    render_canvas_destroy(&r);
    tdn_pose_destroy(&pose);
    preview_mesh_free(&m);
    tdn_asset_destroy(asset);
}

static void test_ground_slope_and_step(void)
{
    /* a slope of 20 degrees rising along +Z: y = tan 20 z; the eye 6 m from (0, 1, 0) at
     * azimuth 150 (looking up the slope), elevation 15 */
    const int w = 160, h = 90;
    render_canvas r;
    CHECK(render_canvas_create(&r, w, h));
    camera c;
    camera_orbit(&c, tdn_vec3_make(0, 1, 0), 150.0f, 15.0f, 6.0f, (float)(PI / 4), w, h);
    ground g;
    char why[128];
    CHECK(ground_parse("slope:20", &g, why, sizeof why));
    render_ground(&r, &c, &g, 0.5f, 10.0f, 30.0f);
    const double slope = tan(20.0 * PI / 180.0);
    int checked = 0, bad = 0;
    for (int j = 0; j < h; j += 7) {
        for (int i = 0; i < w; i += 9) {
            /* the ray e + s d (d . forward = 1) meets y = slope z where s = (slope e.z - e.y) / (d.y - slope d.z) */
            const tdn_vec3 d = tdn_vec3_scale(camera_ray(&c, i + 0.5f, j + 0.5f),
                                              1.0f / tdn_vec3_dot(camera_ray(&c, i + 0.5f, j + 0.5f), c.forward));
            const double s = (slope * c.eye.z - c.eye.y) / (d.y - slope * d.z);
            const float got = r.depth[(size_t)j * w + (size_t)i];
            if (!(s > 0.0)) {
                bad += !isinf(got);
                continue;
            }
            checked++;
            bad += fabs(got / s - 1.0) > 1e-4;
        }
    }
    CHECK(checked > 100);
    CHECK_EQ_INT(bad, 0);
    /* a step up of 0.3 m at z = 2, seen from z = -3 (azimuth 180): the lower level y = 0 for
     * z < 2, the face z = 2 for 0 <= y < 0.3, the upper level y = 0.3 beyond */
    CHECK(ground_parse("step:0.3@2", &g, why, sizeof why));
    camera_orbit(&c, tdn_vec3_make(0, 0.5f, 1), 180.0f, 10.0f, 4.0f, (float)(PI / 4), w, h);
    render_ground(&r, &c, &g, 0.5f, 10.0f, 30.0f);
    int seen[3] = { 0, 0, 0 };
    bad = 0;
    for (int j = 0; j < h; j++) {
        const int i = w / 2 + 3;
        const tdn_vec3 ray = camera_ray(&c, i + 0.5f, j + 0.5f);
        const tdn_vec3 d = tdn_vec3_scale(ray, 1.0f / tdn_vec3_dot(ray, c.forward));
        const tdn_vec3 e = c.eye;
        double s = INFINITY;
        int which = -1;
        const double lower = -e.y / d.y, face = (2.0 - e.z) / d.z, upper = (0.3 - e.y) / d.y;
        if (lower > 0.0 && e.z + lower * d.z < 2.0)
            s = lower, which = 0;
        else if (face > 0.0 && e.y + face * d.y >= 0.0 && e.y + face * d.y < 0.3)
            s = face, which = 1;
        else if (upper > 0.0 && e.z + upper * d.z >= 2.0)
            s = upper, which = 2;
        const float got = r.depth[(size_t)j * w + (size_t)i];
        if (which < 0) {
            bad += !isinf(got);
            continue;
        }
        seen[which]++;
        bad += fabs(got / s - 1.0) > 1e-4;
    }
    CHECK(seen[0] > 5 && seen[1] > 2 && seen[2] > 5);
    CHECK_EQ_INT(bad, 0);
    render_canvas_destroy(&r);
}

static void test_ground_bumps(void)
{
    /* every drawn point of bumps:0.1,1.5 less than 7 m deep (so in a cell less than 8 m deep:
     * cells are under 0.3 m) lies on the height field, within the
     * error of linear interpolation over the relief's triangles: A k^2 L^2 / 8 with k = 2 pi /
     * wavelength (A k^2 bounds the height's second derivatives) and L the longest side of a
     * triangle (its cell's diagonal, at most a row's step plus a column's): rows an eighth of a wavelength of depth
     * apart (a pixel's row is less: t^2 / (f eye.y) < 0.13 m), which is |d_h| times that along the ground (d_h: the
     * horizontal part of a ray scaled to d . forward = 1, largest at the picture's corners), columns RENDER_RELIEF_CELL
     * pixels, RENDER_RELIEF_CELL t / f metres */
    const int w = 320, h = 180;
    render_canvas r;
    CHECK(render_canvas_create(&r, w, h));
    camera c;
    camera_orbit(&c, tdn_vec3_make(0, 0.8f, 0), 40.0f, 14.0f, 4.0f, (float)(35.0 * PI / 180.0), w, h);
    ground g;
    char why[128];
    CHECK(ground_parse("bumps:0.1,1.5", &g, why, sizeof why));
    render_ground(&r, &c, &g, 0.5f, 10.0f, 30.0f);
    const tdn_vec3 corner = camera_ray(&c, 0.0f, (float)h);
    const double along = hypot(corner.x, corner.z) / tdn_vec3_dot(corner, c.forward);
    const double k = 2.0 * PI / 1.5, row = along * 1.5 / 8.0, column = RENDER_RELIEF_CELL * 8.0 / c.focal;
    const double bound = 0.1 * k * k * (row + column) * (row + column) / 8.0;
    CHECK(8.0 * 8.0 / (c.focal * c.eye.y) < 1.5 / 8.0);
    int checked = 0, bad = 0, lifted = 0;
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            const float t = r.depth[(size_t)j * w + (size_t)i];
            if (!(t < 7.0f))
                continue;
            const tdn_vec3 ray = camera_ray(&c, i + 0.5f, j + 0.5f);
            const tdn_vec3 p = tdn_vec3_add(c.eye, tdn_vec3_scale(ray, t / tdn_vec3_dot(ray, c.forward)));
            checked++;
            bad += fabs(p.y - ground_height(&g, p.x, p.z, NULL)) > bound;
            lifted += fabs(p.y) > 0.05;
        }
    }
    CHECK(checked > 15000);
    CHECK(lifted > 4000); /* not the plane y = 0 */
    CHECK_EQ_INT(bad, 0);
    render_canvas_destroy(&r);
}

int main(void)
{
    RUN(test_projection);
    RUN(test_single_bone);
    RUN(test_horizon);
    RUN(test_grid_from_above);
    RUN(test_triangle);
    RUN(test_shared_edge);
    RUN(test_extreme_vertices);
    RUN(test_skinned_translation);
    RUN(test_mesh_with_two_influence_sets);
    RUN(test_ground_slope_and_step);
    RUN(test_ground_bumps);
    return check_summary();
}
