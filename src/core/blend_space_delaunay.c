/* tendon core: barycentric blend spaces over the samples' Delaunay triangulation.
 *
 * The triangulation is made by brute force, fine for at most 64 samples: every
 * non-degenerate triple whose circumcircle holds no other sample strictly inside is a
 * Delaunay triangle of some Delaunay triangulation. Where four or more samples are cocircular
 * (a grid's cells) several such triangles overlap; triples are visited in a fixed order and a
 * candidate that overlaps a triangle already taken is skipped. The candidates of one
 * cocircular group are all the triangles on a convex polygon's vertices, so the triangles taken
 * never cross and leave no gap: the result is one valid Delaunay triangulation. Predicates run
 * in double on float inputs with a relative tolerance (a sample within rounding of a
 * circumcircle counts as on it). */
#include <float.h>

#include "blend_space_internal.h"

/* Twice the signed area of (a, b, c): positive when counter-clockwise. */
static double orient(const float *a, const float *b, const float *c)
{
    return ((double)b[0] - a[0]) * ((double)c[1] - a[1]) - ((double)b[1] - a[1]) * ((double)c[0] - a[0]);
}

/* Three samples collinear to float rounding: twice the area at most 1e-6 times the longest
 * edge squared (the triangle's height is at most 5e-7 of its longest edge). */
static int degenerate(const float *a, const float *b, const float *c)
{
    double e[3] = {
        ((double)b[0] - a[0]) * ((double)b[0] - a[0]) + ((double)b[1] - a[1]) * ((double)b[1] - a[1]),
        ((double)c[0] - b[0]) * ((double)c[0] - b[0]) + ((double)c[1] - b[1]) * ((double)c[1] - b[1]),
        ((double)a[0] - c[0]) * ((double)a[0] - c[0]) + ((double)a[1] - c[1]) * ((double)a[1] - c[1]),
    };
    double longest = e[0] > e[1] ? (e[0] > e[2] ? e[0] : e[2]) : (e[1] > e[2] ? e[1] : e[2]);
    return fabs(orient(a, b, c)) <= 1e-6 * longest;
}

/* 1 when d lies strictly inside the circle through the counter-clockwise a, b, c (beyond the
 * rounding error of the determinant, bounded by the sum of its terms' magnitudes). */
static int in_circle(const float *a, const float *b, const float *c, const float *d)
{
    double adx = (double)a[0] - d[0], ady = (double)a[1] - d[1];
    double bdx = (double)b[0] - d[0], bdy = (double)b[1] - d[1];
    double cdx = (double)c[0] - d[0], cdy = (double)c[1] - d[1];
    double al = adx * adx + ady * ady, bl = bdx * bdx + bdy * bdy, cl = cdx * cdx + cdy * cdy;
    double det = al * (bdx * cdy - cdx * bdy) + bl * (cdx * ady - adx * cdy) + cl * (adx * bdy - bdx * ady);
    double bound = al * (fabs(bdx * cdy) + fabs(cdx * bdy)) + bl * (fabs(cdx * ady) + fabs(adx * cdy)) +
                   cl * (fabs(adx * bdy) + fabs(bdx * ady));
    return det > 1e-10 * bound;
}

static int sign_of(double v) { return (v > 0.0) - (v < 0.0); }

/* Segments pq and rs cross at a point interior to both. */
static int proper_cross(const float *p, const float *q, const float *r, const float *s)
{
    int o1 = sign_of(orient(p, q, r)), o2 = sign_of(orient(p, q, s));
    int o3 = sign_of(orient(r, s, p)), o4 = sign_of(orient(r, s, q));
    return o1 * o2 < 0 && o3 * o4 < 0;
}

/* Point x strictly inside the counter-clockwise triangle (a, b, c). */
static int strictly_inside(const float *a, const float *b, const float *c, const float *x)
{
    return orient(a, b, x) > 0.0 && orient(b, c, x) > 0.0 && orient(c, a, x) > 0.0;
}

/* Do the interiors of counter-clockwise triangles t and u (sample indices) intersect? */
static int overlap(const float *pts, const int *t, const int *u)
{
    int shared = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            shared += t[a] == u[b];
    if (shared == 3)
        return 1;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            if (proper_cross(pts + 2 * t[a], pts + 2 * t[(a + 1) % 3], pts + 2 * u[b], pts + 2 * u[(b + 1) % 3]))
                return 1;
    for (int a = 0; a < 3; a++) {
        if (strictly_inside(pts + 2 * u[0], pts + 2 * u[1], pts + 2 * u[2], pts + 2 * t[a]) ||
            strictly_inside(pts + 2 * t[0], pts + 2 * t[1], pts + 2 * t[2], pts + 2 * u[a]))
            return 1;
    }
    /* a shared edge with both third vertices on the same side */
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            int t0 = t[a], t1 = t[(a + 1) % 3], u0 = u[b], u1 = u[(b + 1) % 3];
            if ((t0 == u0 && t1 == u1) || (t0 == u1 && t1 == u0)) {
                int tc = t[(a + 2) % 3], uc = u[(b + 2) % 3];
                if (sign_of(orient(pts + 2 * t0, pts + 2 * t1, pts + 2 * tc)) *
                        sign_of(orient(pts + 2 * t0, pts + 2 * t1, pts + 2 * uc)) >
                    0)
                    return 1;
            }
        }
    return 0;
}

void tdn__bs_delaunay(const float *pts, int n, tdn__bs_triangulation *out)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            for (int k = j + 1; k < n && count < TDN__BS_MAX_TRIANGLES; k++) {
                const float *a = pts + 2 * i, *b = pts + 2 * j, *c = pts + 2 * k;
                if (degenerate(a, b, c))
                    continue;
                int t[3] = { i, j, k };
                if (orient(a, b, c) < 0.0) {
                    t[1] = k;
                    t[2] = j;
                }
                int empty = 1;
                for (int m = 0; m < n && empty; m++)
                    if (m != i && m != j && m != k)
                        empty = !in_circle(pts + 2 * t[0], pts + 2 * t[1], pts + 2 * t[2], pts + 2 * m);
                for (int u = 0; u < count && empty; u++)
                    empty = !overlap(pts, t, out->triangles + 3 * u);
                if (!empty)
                    continue;
                for (int e = 0; e < 3; e++)
                    out->triangles[3 * count + e] = t[e];
                count++;
            }
    out->triangle_count = count;
    /* hull edges: directed edges whose reverse belongs to no triangle */
    int edges = 0;
    for (int u = 0; u < count; u++)
        for (int e = 0; e < 3; e++) {
            int a = out->triangles[3 * u + e], b = out->triangles[3 * u + (e + 1) % 3], twin = 0;
            for (int v = 0; v < count && !twin; v++)
                for (int f = 0; f < 3 && !twin; f++)
                    twin = out->triangles[3 * v + f] == b && out->triangles[3 * v + (f + 1) % 3] == a;
            if (!twin && edges < TDN__BS_MAX_TRIANGLES) {
                out->hull_edges[2 * edges] = a;
                out->hull_edges[2 * edges + 1] = b;
                edges++;
            }
        }
    out->hull_edge_count = edges;
}

void tdn__bs_barycentric_layout(tdn_blend_space *s, const tdn__bs_triangulation *t, tdn__bs_carver *c)
{
    if (t->triangle_count == 0) {
        tdn__bs_line_layout(s, c);
        return;
    }
    s->triangles = tdn__bs_carve(c, 3 * (size_t)t->triangle_count * sizeof(int), sizeof(int));
    s->triangle_frames = tdn__bs_carve(c, 6 * (size_t)t->triangle_count * sizeof(float), 16);
    s->hull_edges = tdn__bs_carve(c, 2 * (size_t)t->hull_edge_count * sizeof(int), sizeof(int));
}

tdn_result tdn__bs_barycentric_build(tdn_blend_space *s, const tdn__bs_triangulation *t, tdn_error *err)
{
    const int n = s->sample_count;
    const float *pts = s->points;
    if (t->triangle_count == 0) {
        /* collinear samples: along the line from sample 0 towards the sample farthest from it */
        int far = 0;
        double far_d2 = 0.0;
        for (int i = 1; i < n; i++) {
            double dx = (double)pts[2 * i] - pts[0], dy = (double)pts[2 * i + 1] - pts[1], d2 = dx * dx + dy * dy;
            if (d2 > far_d2) {
                far = i;
                far_d2 = d2;
            }
        }
        float dir[2] = { 1.0f, 0.0f };
        if (far_d2 > 0.0) {
            double len = sqrt(far_d2);
            dir[0] = (float)(((double)pts[2 * far] - pts[0]) / len);
            dir[1] = (float)(((double)pts[2 * far + 1] - pts[1]) / len);
        }
        return tdn__bs_line_build(s, pts, dir, err);
    }
    s->triangle_count = t->triangle_count;
    s->hull_edge_count = t->hull_edge_count;
    for (int u = 0; u < t->triangle_count; u++) {
        const int *v = t->triangles + 3 * u;
        for (int e = 0; e < 3; e++)
            s->triangles[3 * u + e] = v[e];
        const float *a = pts + 2 * v[0], *b = pts + 2 * v[1], *c = pts + 2 * v[2];
        double e1x = (double)b[0] - a[0], e1y = (double)b[1] - a[1], e2x = (double)c[0] - a[0],
               e2y = (double)c[1] - a[1];
        double inv_det = 1.0 / (e1x * e2y - e2x * e1y);
        float *f = s->triangle_frames + 6 * u;
        f[0] = a[0];
        f[1] = a[1];
        /* [lambda_b, lambda_c] = inverse([e1 e2]) (p - a) */
        f[2] = (float)(e2y * inv_det);
        f[3] = (float)(-e2x * inv_det);
        f[4] = (float)(-e1y * inv_det);
        f[5] = (float)(e1x * inv_det);
    }
    for (int e = 0; e < 2 * t->hull_edge_count; e++)
        s->hull_edges[e] = t->hull_edges[e];
    return TDN_OK;
}

void tdn__bs_barycentric_weights(const tdn_blend_space *s, const float *p, float *w)
{
    if (s->line_used) {
        tdn__bs_line_weights(s, tdn__bs_line_param(s, p), w);
        return;
    }
    /* the triangle that holds p, or failing that the one p is least outside of */
    int best = 0;
    float best_min = -FLT_MAX, best_l[3] = { 1.0f, 0.0f, 0.0f };
    for (int u = 0; u < s->triangle_count; u++) {
        const float *f = s->triangle_frames + 6 * u;
        float rx = p[0] - f[0], ry = p[1] - f[1];
        float lb = f[2] * rx + f[3] * ry, lc = f[4] * rx + f[5] * ry, la = 1.0f - lb - lc;
        float lo = la < lb ? (la < lc ? la : lc) : (lb < lc ? lb : lc);
        if (lo > best_min) {
            best = u;
            best_min = lo;
            best_l[0] = la;
            best_l[1] = lb;
            best_l[2] = lc;
            if (lo >= 0.0f)
                break;
        }
    }
    if (best_min >= -1e-6f) { /* inside, to rounding: the clamped barycentric coordinates */
        for (int e = 0; e < 3; e++)
            w[s->triangles[3 * best + e]] = best_l[e];
        return;
    }
    /* outside the hull: the nearest point of the nearest hull edge */
    const float *pts = s->points;
    int edge = 0;
    float edge_t = 0.0f, edge_d2 = FLT_MAX;
    for (int e = 0; e < s->hull_edge_count; e++) {
        const float *a = pts + 2 * s->hull_edges[2 * e], *b = pts + 2 * s->hull_edges[2 * e + 1];
        float ex = b[0] - a[0], ey = b[1] - a[1], rx = p[0] - a[0], ry = p[1] - a[1];
        float len2 = ex * ex + ey * ey;
        float t = len2 > 0.0f ? (rx * ex + ry * ey) / len2 : 0.0f;
        t = t > 0.0f ? (t < 1.0f ? t : 1.0f) : 0.0f;
        float dx = rx - t * ex, dy = ry - t * ey, d2 = dx * dx + dy * dy;
        if (d2 < edge_d2) {
            edge = e;
            edge_t = t;
            edge_d2 = d2;
        }
    }
    w[s->hull_edges[2 * edge]] += 1.0f - edge_t;
    w[s->hull_edges[2 * edge + 1]] += edge_t;
}
