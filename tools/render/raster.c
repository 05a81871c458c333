/* tendon CLI: the preview renderer's triangle rasterizer (see raster.h). */
#include "raster.h"

#include <math.h>
#include <stdint.h>

#define SUBPIXEL 256  /* snapped vertex positions: 1/256 pixel */
#define MAX_POLYGON 9 /* a triangle clipped by 5 planes has at most 8 corners */

/* A vertex in camera space: x along right, y along up, z (the depth) along forward. */
typedef struct clip_vertex {
    float x, y, z;
    float attributes[RASTER_MAX_ATTRIBUTES];
} clip_vertex;

/* A projected vertex: snapped pixel coordinates, 1 / depth, the attributes. */
typedef struct screen_vertex {
    int64_t x, y;
    float inv_z;
    float attributes[RASTER_MAX_ATTRIBUTES];
} screen_vertex;

/* A clip plane: the side where px x + py y + pz z + pw >= 0 is kept. */
typedef struct clip_plane {
    float px, py, pz, pw;
} clip_plane;

static float plane_distance(const clip_plane *p, const clip_vertex *v)
{
    return p->px * v->x + p->py * v->y + p->pz * v->z + p->pw;
}

/* Sutherland-Hodgman against one plane. An edge's crossing is always computed from its inside
 * end, so that two triangles sharing the edge get the same point. */
static int clip_against(const clip_vertex *in, int n, clip_vertex *out, const clip_plane *plane, int attribute_count)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        const clip_vertex *p = &in[i], *q = &in[(i + 1) % n];
        const float dp = plane_distance(plane, p), dq = plane_distance(plane, q);
        if (dp >= 0.0f)
            out[m++] = *p;
        if ((dp >= 0.0f) != (dq >= 0.0f)) {
            const clip_vertex *inside = dp >= 0.0f ? p : q, *outside = dp >= 0.0f ? q : p;
            const float di = dp >= 0.0f ? dp : dq, dout = dp >= 0.0f ? dq : dp;
            const float s = di / (di - dout);
            clip_vertex *v = &out[m++];
            v->x = inside->x + s * (outside->x - inside->x);
            v->y = inside->y + s * (outside->y - inside->y);
            v->z = inside->z + s * (outside->z - inside->z);
            for (int k = 0; k < attribute_count; k++)
                v->attributes[k] = inside->attributes[k] + s * (outside->attributes[k] - inside->attributes[k]);
        }
    }
    return m;
}

/* A projected coordinate within the guard band around [0, size]. Clipping already puts it
 * there; this only catches positions so large (or not finite) that the clipping's rounding
 * cannot, so that the edge functions' int64 products never overflow. NaN goes to the edge. */
static float in_guard_band(float v, float size) { return fminf(fmaxf(v, -RASTER_GUARD), size + RASTER_GUARD); }

static int64_t floor_div(int64_t a, int64_t b)
{
    const int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* The edge function of a -> b at p: twice the signed area of (a, b, p), positive on the
 * triangle's side once the triangle is wound that way. */
static int64_t edge(const screen_vertex *a, const screen_vertex *b, int64_t px, int64_t py)
{
    return (b->x - a->x) * (py - a->y) - (b->y - a->y) * (px - a->x);
}

/* A centre on the edge a -> b is inside when the edge is a top or a left edge. */
static int top_left(const screen_vertex *a, const screen_vertex *b)
{
    const int64_t dx = b->x - a->x, dy = b->y - a->y;
    return dy < 0 || (dy == 0 && dx > 0);
}

static void fill(const raster_target *t, const screen_vertex *v0, const screen_vertex *v1, const screen_vertex *v2)
{
    int64_t area = edge(v0, v1, v2->x, v2->y);
    if (area == 0)
        return;
    if (area < 0) { /* wind it positively: both faces are drawn */
        const screen_vertex *swap = v1;
        v1 = v2;
        v2 = swap;
        area = -area;
    }
    const int w = t->cam->width, h = t->cam->height, n = t->attribute_count;
    int64_t lo_x = v0->x < v1->x ? v0->x : v1->x, hi_x = v0->x > v1->x ? v0->x : v1->x;
    int64_t lo_y = v0->y < v1->y ? v0->y : v1->y, hi_y = v0->y > v1->y ? v0->y : v1->y;
    lo_x = v2->x < lo_x ? v2->x : lo_x, hi_x = v2->x > hi_x ? v2->x : hi_x;
    lo_y = v2->y < lo_y ? v2->y : lo_y, hi_y = v2->y > hi_y ? v2->y : hi_y;
    /* the pixels whose centres (256 i + 128) lie in the bounding box */
    int64_t i0 = -floor_div(-(lo_x - SUBPIXEL / 2), SUBPIXEL), i1 = floor_div(hi_x - SUBPIXEL / 2, SUBPIXEL);
    int64_t j0 = -floor_div(-(lo_y - SUBPIXEL / 2), SUBPIXEL), j1 = floor_div(hi_y - SUBPIXEL / 2, SUBPIXEL);
    i0 = i0 < 0 ? 0 : i0, j0 = j0 < 0 ? 0 : j0;
    i1 = i1 > w - 1 ? w - 1 : i1, j1 = j1 > h - 1 ? h - 1 : j1;
    if (i0 > i1 || j0 > j1)
        return;
    /* w0 weighs v0 (the edge opposite it), and so on; the biases make ties on edges that are
     * not top-left fail the test w >= bias */
    const int64_t bias0 = top_left(v1, v2) ? 0 : 1, bias1 = top_left(v2, v0) ? 0 : 1, bias2 = top_left(v0, v1) ? 0 : 1;
    const int64_t step0 = -(v2->y - v1->y) * SUBPIXEL, step1 = -(v0->y - v2->y) * SUBPIXEL,
                  step2 = -(v1->y - v0->y) * SUBPIXEL;
    const float area_f = (float)area;
    float attributes[RASTER_MAX_ATTRIBUTES];
    for (int64_t j = j0; j <= j1; j++) {
        const int64_t px = i0 * SUBPIXEL + SUBPIXEL / 2, py = j * SUBPIXEL + SUBPIXEL / 2;
        int64_t w0 = edge(v1, v2, px, py), w1 = edge(v2, v0, px, py), w2 = edge(v0, v1, px, py);
        float *depth_row = t->depth + (size_t)j * (size_t)w;
        for (int64_t i = i0; i <= i1; i++, w0 += step0, w1 += step1, w2 += step2) {
            if (w0 < bias0 || w1 < bias1 || w2 < bias2)
                continue;
            const float q0 = (float)w0 * v0->inv_z, q1 = (float)w1 * v1->inv_z, q2 = (float)w2 * v2->inv_z;
            const float inv = q0 + q1 + q2; /* area / depth */
            const float scale = 1.0f / inv, depth = area_f * scale;
            if (!(depth < depth_row[i]))
                continue;
            depth_row[i] = depth;
            if (!t->fragment)
                continue;
            for (int k = 0; k < n; k++)
                attributes[k] = (q0 * v0->attributes[k] + q1 * v1->attributes[k] + q2 * v2->attributes[k]) * scale;
            t->fragment(t->user, (int)i, (int)j, depth, attributes);
        }
    }
}

void raster_triangle(const raster_target *t, const raster_vertex *a, const raster_vertex *b, const raster_vertex *c)
{
    const camera *cam = t->cam;
    const int n = t->attribute_count;
    const raster_vertex *in[3] = { a, b, c };
    clip_vertex poly[2][MAX_POLYGON];
    for (int v = 0; v < 3; v++) {
        const tdn_vec3 d = tdn_vec3_sub(in[v]->position, cam->eye);
        poly[0][v].x = tdn_vec3_dot(d, cam->right);
        poly[0][v].y = tdn_vec3_dot(d, cam->up);
        poly[0][v].z = tdn_vec3_dot(d, cam->forward);
        for (int k = 0; k < n; k++)
            poly[0][v].attributes[k] = in[v]->attributes[k];
    }
    const float f = cam->focal, g = RASTER_GUARD;
    const clip_plane planes[5] = {
        { 0.0f, 0.0f, 1.0f, -RASTER_NEAR },
        { f, 0.0f, g, 0.0f },
        { -f, 0.0f, g, 0.0f },
        { 0.0f, f, g, 0.0f },
        { 0.0f, -f, g, 0.0f },
    };
    int count = 3, cur = 0;
    for (int p = 0; p < 5 && count >= 3; p++) {
        int outside = 0;
        for (int v = 0; v < count; v++)
            outside += plane_distance(&planes[p], &poly[cur][v]) < 0.0f;
        if (outside == 0)
            continue;
        if (outside == count)
            return;
        count = clip_against(poly[cur], count, poly[1 - cur], &planes[p], n);
        cur = 1 - cur;
    }
    if (count < 3)
        return;
    screen_vertex s[MAX_POLYGON];
    const float cx = 0.5f * (float)cam->width, cy = 0.5f * (float)cam->height;
    for (int v = 0; v < count; v++) {
        const clip_vertex *p = &poly[cur][v];
        const float inv_z = 1.0f / p->z;
        s[v].x = (int64_t)lrintf(in_guard_band(cx + f * p->x * inv_z, (float)cam->width) * (float)SUBPIXEL);
        s[v].y = (int64_t)lrintf(in_guard_band(cy - f * p->y * inv_z, (float)cam->height) * (float)SUBPIXEL);
        s[v].inv_z = inv_z;
        for (int k = 0; k < n; k++)
            s[v].attributes[k] = p->attributes[k];
    }
    for (int v = 1; v + 1 < count; v++)
        fill(t, &s[0], &s[v], &s[v + 1]);
}
