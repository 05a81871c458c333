/* tendon CLI: the preview renderer's drawing (see render.h). */
#include "render.h"

#include <math.h>
#include <stdlib.h>

#include "render_internal.h"

int render_canvas_create(render_canvas *r, int width, int height)
{
    const rgb black = { 0, 0, 0 };
    size_t n = (size_t)width * (size_t)height;
    r->relief_columns = render_relief_columns(width, height);
    r->depth = malloc(n * sizeof *r->depth);
    r->id = malloc(n * sizeof *r->id);
    r->normal = malloc(3 * n * sizeof *r->normal);
    r->relief_rows = malloc(2 * (size_t)r->relief_columns * sizeof *r->relief_rows);
    if (!r->depth || !r->id || !r->normal || !r->relief_rows || !image_create(&r->image, width, height, black)) {
        free(r->depth);
        free(r->id);
        free(r->normal);
        free(r->relief_rows);
        r->image.pixels = NULL;
        return 0;
    }
    return 1;
}

void render_canvas_destroy(render_canvas *r)
{
    image_destroy(&r->image);
    free(r->depth);
    free(r->id);
    free(r->normal);
    free(r->relief_rows);
    r->depth = NULL;
    r->id = NULL;
    r->normal = NULL;
    r->relief_rows = NULL;
}

/* The pixel rectangle [x0, x1) x [y0, y1) that a sphere of radius `radius` around each of a and
 * b covers (generously); the whole canvas when either is not in front of the eye. */
static void bounds(const render_canvas *r, tdn_vec3 a, tdn_vec3 b, float radius, int *x0, int *y0, int *x1, int *y1)
{
    const int w = r->image.width, h = r->image.height;
    float ax, ay, az, bx, by, bz;
    if (!camera_project(&r->cam, a, &ax, &ay, &az) || !camera_project(&r->cam, b, &bx, &by, &bz) ||
        az < 2.0f * radius || bz < 2.0f * radius) {
        *x0 = 0, *y0 = 0, *x1 = w, *y1 = h;
        return;
    }
    const float ra = 1.5f * r->cam.focal * radius / az + 2.0f, rb = 1.5f * r->cam.focal * radius / bz + 2.0f;
    float lo_x = fminf(ax - ra, bx - rb), hi_x = fmaxf(ax + ra, bx + rb);
    float lo_y = fminf(ay - ra, by - rb), hi_y = fmaxf(ay + ra, by + rb);
    /* clamped to the canvas before they are ints (NaN, from positions too large, gives none) */
    *x0 = lo_x > 0.0f ? (lo_x < (float)w ? (int)lo_x : w) : 0;
    *x1 = hi_x > 0.0f ? (hi_x < (float)w ? (int)hi_x + 1 : w) : 0;
    *y0 = lo_y > 0.0f ? (lo_y < (float)h ? (int)lo_y : h) : 0;
    *y1 = hi_y > 0.0f ? (hi_y < (float)h ? (int)hi_y + 1 : h) : 0;
}

void render_capsule(render_canvas *r, tdn_vec3 a, tdn_vec3 b, float radius, rgb albedo, unsigned short id)
{
    if (!(radius > 0.0f))
        return;
    int x0, y0, x1, y1;
    bounds(r, a, b, radius, &x0, &y0, &x1, &y1);
    const int w = r->image.width;
    const tdn_vec3 ba = tdn_vec3_sub(b, a), oa = tdn_vec3_sub(r->cam.eye, a), ob = tdn_vec3_sub(r->cam.eye, b);
    const float baba = tdn_vec3_dot(ba, ba), baoa = tdn_vec3_dot(ba, oa), oaoa = tdn_vec3_dot(oa, oa);
    const float obob = tdn_vec3_dot(ob, ob), rr = radius * radius;
    const tdn_vec3 light = render_light(&r->cam);
    float base[3];
    render_to_float(albedo, base);
    for (int j = y0; j < y1; j++) {
        for (int i = x0; i < x1; i++) {
            const size_t k = (size_t)j * (size_t)w + (size_t)i;
            const tdn_vec3 d = camera_ray(&r->cam, (float)i + 0.5f, (float)j + 0.5f);
            const float inv_len = 1.0f / sqrtf(d.x * d.x + d.y * d.y + d.z * d.z); /* d . F = 1 */
            const tdn_vec3 rd = tdn_vec3_scale(d, inv_len);
            float t = -1.0f;
            /* the ray against the cylinder's body, then against the sphere at the nearer end
             * (Inigo Quilez's capsule intersection) */
            if (baba > 1e-12f) {
                const float bard = tdn_vec3_dot(ba, rd), rdoa = tdn_vec3_dot(rd, oa);
                const float qa = baba - bard * bard, qb = baba * rdoa - baoa * bard,
                            qc = baba * oaoa - baoa * baoa - rr * baba;
                const float disc = qb * qb - qa * qc;
                if (disc >= 0.0f && qa > 1e-12f) {
                    const float tb = (-qb - sqrtf(disc)) / qa, y = baoa + tb * bard;
                    if (y > 0.0f && y < baba) {
                        t = tb;
                    } else {
                        const int at_a = y <= 0.0f;
                        const float sb = at_a ? rdoa : tdn_vec3_dot(rd, ob), sc = (at_a ? oaoa : obob) - rr;
                        const float sd = sb * sb - sc;
                        if (sd > 0.0f)
                            t = -sb - sqrtf(sd);
                    }
                } else if (disc >= 0.0f) { /* the ray along the axis: the nearer end's sphere */
                    const int at_a = oaoa <= obob;
                    const float sb = at_a ? rdoa : tdn_vec3_dot(rd, ob), sc = (at_a ? oaoa : obob) - rr;
                    const float sd = sb * sb - sc;
                    if (sd > 0.0f)
                        t = -sb - sqrtf(sd);
                }
            } else {
                const float sb = tdn_vec3_dot(rd, oa), sd = sb * sb - (oaoa - rr);
                if (sd > 0.0f)
                    t = -sb - sqrtf(sd);
            }
            const float depth = t * inv_len; /* metres along the view axis */
            if (!(t > 0.0f) || !(depth < r->depth[k]))
                continue;
            /* the normal: from the nearest point of the segment to the hit */
            const tdn_vec3 pa = tdn_vec3_add(oa, tdn_vec3_scale(rd, t)); /* hit - a */
            const float s = baba > 1e-12f ? render_clamp01(tdn_vec3_dot(pa, ba) / baba) : 0.0f;
            const tdn_vec3 n = tdn_vec3_scale(tdn_vec3_sub(pa, tdn_vec3_scale(ba, s)), 1.0f / radius);
            const float lambert = render_lambert(n, light);
            r->depth[k] = depth;
            r->id[k] = id;
            render_put(r, k, base[0] * lambert, base[1] * lambert, base[2] * lambert);
        }
    }
}

void render_disc(render_canvas *r, tdn_vec3 c, float radius, rgb colour, float alpha)
{
    if (!(radius > 0.0f))
        return;
    int x0, y0, x1, y1;
    bounds(r, c, c, radius, &x0, &y0, &x1, &y1);
    const tdn_vec3 e = r->cam.eye;
    const rgb rim = { (unsigned char)(colour.r * 2 / 3), (unsigned char)(colour.g * 2 / 3),
                      (unsigned char)(colour.b * 2 / 3) };
    for (int j = y0; j < y1; j++) {
        for (int i = x0; i < x1; i++) {
            const tdn_vec3 d = camera_ray(&r->cam, (float)i + 0.5f, (float)j + 0.5f);
            if (d.y == 0.0f)
                continue;
            const float t = (c.y - e.y) / d.y;
            if (!(t > 0.0f))
                continue;
            const float px = e.x + t * d.x - c.x, pz = e.z + t * d.z - c.z;
            const float d2 = px * px + pz * pz;
            if (d2 > radius * radius)
                continue;
            image_blend(&r->image, i, j, d2 > radius * radius * (25.0f / 36.0f) ? rim : colour, alpha);
        }
    }
}

void render_outline(render_canvas *r, float gap)
{
    const int w = r->image.width, h = r->image.height;
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            const size_t k = (size_t)j * (size_t)w + (size_t)i;
            const unsigned short id = r->id[k];
            if (!id)
                continue;
            const float d = r->depth[k] + gap;
            int edge = 0;
            if (i > 0 && r->id[k - 1] != id && r->depth[k - 1] > d)
                edge = 1;
            else if (i + 1 < w && r->id[k + 1] != id && r->depth[k + 1] > d)
                edge = 1;
            else if (j > 0 && r->id[k - (size_t)w] != id && r->depth[k - (size_t)w] > d)
                edge = 1;
            else if (j + 1 < h && r->id[k + (size_t)w] != id && r->depth[k + (size_t)w] > d)
                edge = 1;
            if (edge) {
                unsigned char *p = r->image.pixels + 3 * k;
                p[0] = (unsigned char)(p[0] / 2);
                p[1] = (unsigned char)(p[1] / 2);
                p[2] = (unsigned char)(p[2] / 2);
            }
        }
    }
}
