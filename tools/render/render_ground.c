/* tendon CLI: the preview renderer's ground and sky (see render.h). */
#include <float.h>
#include <math.h>

#include "render_internal.h"

const rgb RENDER_SKY_TOP = { 176, 196, 222 };
const rgb RENDER_SKY_HORIZON = { 226, 232, 238 };
const rgb RENDER_GROUND = { 186, 180, 168 };
const rgb RENDER_HAZE = { 206, 204, 198 };
const rgb RENDER_GRID = { 110, 106, 98 };

/* ---- the relief of bumps: a mesh on a grid of rays ---- */

static void relief_fragment(void *user, int x, int y, float depth, const float *attributes)
{
    (void)depth;
    render_canvas *r = user;
    float *n = r->normal + 3 * ((size_t)y * (size_t)r->image.width + (size_t)x);
    n[0] = attributes[0], n[1] = attributes[1], n[2] = attributes[2];
}

/* The grid vertex on the ray through (x, y): where the ray meets y = 0, lifted to the height
 * field; its x is NaN when the ray does not go down to the plane. */
static void relief_vertex(const camera *cam, const ground *g, float x, float y, raster_vertex *v)
{
    const tdn_vec3 d = camera_ray(cam, x, y), e = cam->eye;
    if (!(d.y < 0.0f)) {
        v->position.x = NAN;
        return;
    }
    const float t = -e.y / d.y;
    const double px = e.x + t * d.x, pz = e.z + t * d.z;
    tdn_vec3 n;
    const double h = ground_height(g, px, pz, &n);
    v->position = tdn_vec3_make((float)px, (float)h, (float)pz);
    v->attributes[0] = n.x, v->attributes[1] = n.y, v->attributes[2] = n.z;
}

/* Rasterizes the relief (depth into r->depth, normals into r->normal) from the picture's
 * bottom (less a margin) up to f A metres deep. */
static void draw_relief(render_canvas *r, const camera *cam, const ground *g)
{
    const int w = cam->width, h = cam->height, cell = RENDER_RELIEF_CELL;
    const float f = cam->focal, eye_y = cam->eye.y;
    const double t_max = (double)f * g->amplitude;
    const tdn_vec3 bottom = camera_ray(cam, 0.5f * (float)w, (float)h);
    if (!(eye_y > 0.0f) || !(bottom.y < 0.0f))
        return;
    /* the margin: how far the relief can shift a vertex in the picture, at the nearest row */
    const float reach = f * (float)g->amplitude / (-eye_y / bottom.y);
    const int margin = (int)fminf((float)h, (float)cell + ceilf(reach));
    const int columns = (w + 2 * margin) / cell + 2;
    raster_vertex *rows[2] = { r->relief_rows, r->relief_rows + r->relief_columns };
    if (columns > r->relief_columns)
        return;
    const raster_target target = { cam, r->depth, 3, relief_fragment, r };
    const float up_y = fabsf(cam->up.y), step_length = (float)g->wavelength / 8.0f;
    float y = (float)(h + margin);
    for (int row = 0, cur = 0; row < 8192 && y >= (float)-margin; row++, cur = 1 - cur) {
        for (int c = 0; c < columns; c++)
            relief_vertex(cam, g, (float)(c * cell - margin), y, &rows[cur][c]);
        if (row > 0) {
            for (int c = 0; c + 1 < columns; c++) {
                const raster_vertex *a = &rows[1 - cur][c], *b = &rows[1 - cur][c + 1];
                const raster_vertex *p = &rows[cur][c + 1], *q = &rows[cur][c];
                if (!isnan(a->position.x) && !isnan(b->position.x) && !isnan(p->position.x) && !isnan(q->position.x)) {
                    raster_triangle(&target, a, b, p);
                    raster_triangle(&target, a, p, q);
                }
            }
        }
        /* the next row up: CELL pixels, or less (down to one) where that would step more than an
         * eighth of a wavelength along the ground (a row at depth t moves t^2 |up.y| / (f eye.y) metres per
         * pixel) */
        const tdn_vec3 d = camera_ray(cam, 0.5f * (float)w, y);
        if (!(d.y < 0.0f))
            break;
        const float t = -eye_y / d.y;
        if ((double)t > t_max)
            break;
        const float metres_per_pixel = t * t * up_y / (f * eye_y);
        float step = metres_per_pixel > 0.0f ? step_length / metres_per_pixel : (float)cell;
        step = fminf(fmaxf(step, 1.0f), (float)cell);
        y -= step;
    }
}

/* ---- the ground's pixels ---- */

void render_ground(render_canvas *r, const camera *cam, const ground *g, float spacing, float fade_start,
                   float fade_end)
{
    r->cam = *cam;
    const int w = r->image.width, h = r->image.height;
    const tdn_vec3 E = cam->eye, F = cam->forward, R = cam->right, U = cam->up;
    const float f = cam->focal;
    float top[3], horizon[3], ground_colour[3], haze[3], grid[3];
    render_to_float(RENDER_SKY_TOP, top);
    render_to_float(RENDER_SKY_HORIZON, horizon);
    render_to_float(RENDER_GROUND, ground_colour);
    render_to_float(RENDER_HAZE, haze);
    render_to_float(RENDER_GRID, grid);
    const float fade_span = fade_end > fade_start ? fade_end - fade_start : 1e-3f;
    const float fog_scale = fade_end > 0.0f ? fade_end : 1.0f, inv_spacing = 1.0f / spacing;
    const float inv_f = 1.0f / f, inv_fade_span = 1.0f / fade_span;
    const tdn_vec3 light = render_light(cam), level = tdn_vec3_make(0.0f, 1.0f, 0.0f);
    const float inv_lambert_level = 1.0f / render_lambert(level, light);
    /* a plane n . p = c: y = 0, flat:HEIGHT, a slope, and what lies beyond a relief's mesh */
    tdn_vec3 plane_n = level;
    float plane_c = 0.0f;
    if (g && (g->kind == GROUND_FLAT || g->kind == GROUND_SLOPE))
        plane_c = (float)ground_height(g, 0.0, 0.0, &plane_n) * plane_n.y;
    const int relief = g && g->kind == GROUND_BUMPS && g->amplitude > 0.0;
    const int step = g && g->kind == GROUND_STEP;
    if (relief) {
        for (size_t k = 0; k < (size_t)w * (size_t)h; k++)
            r->depth[k] = INFINITY;
        draw_relief(r, cam, g);
    }
    const float plane_above = tdn_vec3_dot(plane_n, E) - plane_c;
    for (int j = 0; j < h; j++) {
        const float v = (0.5f * (float)h - ((float)j + 0.5f)) * inv_f;
        /* the sky by the row's elevation at the picture's centre line */
        const float cy = F.y + v * U.y, cl = sqrtf(1.0f + v * v);
        const float sky = render_clamp01(cy / cl * (1.0f / 0.6f));
        unsigned char sky_rgb[3];
        for (int q = 0; q < 3; q++)
            sky_rgb[q] = (unsigned char)lrintf(255.0f * render_mix(horizon[q], top[q], sky));
        for (int i = 0; i < w; i++) {
            const size_t k = (size_t)j * (size_t)w + (size_t)i;
            const float u = ((float)i + 0.5f - 0.5f * (float)w) * inv_f;
            /* the ray through the pixel centre, unnormalized: d = F + u R + v U, so d . F = 1 and a
             * point at d x t is t metres deep */
            const tdn_vec3 d = { F.x + u * R.x + v * U.x, F.y + u * R.y + v * U.y, F.z + u * R.z + v * U.z };
            r->id[k] = 0;
            float t = 0.0f;
            tdn_vec3 n = plane_n;
            int hit;
            if (relief && r->depth[k] < INFINITY) {
                t = r->depth[k];
                const float *m = r->normal + 3 * k;
                n = tdn_vec3_normalize(tdn_vec3_make(m[0], m[1], m[2]));
                hit = 1;
            } else if (step) {
                tdn_vec3 p;
                hit = ground_query((void *)g, E, d, FLT_MAX, &p, &n);
                t = tdn_vec3_dot(tdn_vec3_sub(p, E), F);
            } else {
                const float toward = tdn_vec3_dot(plane_n, d);
                hit = plane_above > 0.0f && toward < 0.0f;
                t = -plane_above / toward;
            }
            if (!hit || !(t > 0.0f)) {
                unsigned char *p = r->image.pixels + 3 * k;
                p[0] = sky_rgb[0], p[1] = sky_rgb[1], p[2] = sky_rgb[2];
                r->depth[k] = INFINITY;
                continue;
            }
            r->depth[k] = t;
            const float fog = t / (t + fog_scale), shade = render_lambert(n, light) * inv_lambert_level;
            float c[3];
            for (int q = 0; q < 3; q++)
                c[q] = render_mix(ground_colour[q] * shade, haze[q], fog);
            const float fade = render_clamp01((fade_end - t) * inv_fade_span);
            const float dn = tdn_vec3_dot(d, n);
            if (fade > 0.0f && dn < 0.0f) {
                /* the ground point, and its change per pixel on the tangent plane:
                 * dp/du = t (R - d (R . n) / (d . n)) / f, likewise for v */
                const float tf = t * inv_f, inv_dn = 1.0f / dn;
                const float rn = tdn_vec3_dot(R, n) * inv_dn, un = tdn_vec3_dot(U, n) * inv_dn;
                const float p[3] = { E.x + t * d.x, E.y + t * d.y, E.z + t * d.z };
                const float du[3] = { tf * (R.x - d.x * rn), tf * (R.y - d.y * rn), tf * (R.z - d.z * rn) };
                const float dv[3] = { tf * (U.x - d.x * un), tf * (U.y - d.y * un), tf * (U.z - d.z * un) };
                /* the two axes other than the one the normal leans most towards */
                const float ax = fabsf(n.x), ay = fabsf(n.y), az = fabsf(n.z);
                const int drop = ay >= ax && ay >= az ? 1 : az >= ax ? 2 : 0;
                float line = 0.0f;
                for (int a = 0; a < 3; a++) {
                    if (a == drop)
                        continue;
                    /* pixels per metre along axis a */
                    const float per_metre = 1.0f / (sqrtf(du[a] * du[a] + dv[a] * dv[a]) + 1e-9f);
                    const float off = fabsf(p[a] - spacing * floorf(p[a] * inv_spacing + 0.5f)) * per_metre;
                    const float on = render_clamp01(1.1f - off) * render_clamp01((spacing * per_metre - 4.0f) * 0.125f);
                    line = on > line ? on : line;
                }
                line *= fade * 0.75f;
                for (int q = 0; q < 3; q++)
                    c[q] = render_mix(c[q], grid[q], line);
            }
            render_put(r, k, c[0], c[1], c[2]);
        }
    }
}
