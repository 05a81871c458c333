/* tendon CLI: what the preview renderer's files (render.c, render_ground.c, render_mesh.c)
 * share: colour arithmetic and the light. */
#ifndef TENDON_RENDER_INTERNAL_H
#define TENDON_RENDER_INTERNAL_H

#include <math.h>

#include "render.h"

static inline float render_clamp01(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }

static inline float render_mix(float a, float b, float t) { return a + (b - a) * t; }

/* Pixel k (row-major) set to the colour (0..1 per channel, clamped). */
static inline void render_put(render_canvas *r, size_t k, float cr, float cg, float cb)
{
    unsigned char *p = r->image.pixels + 3 * k;
    p[0] = (unsigned char)lrintf(255.0f * render_clamp01(cr));
    p[1] = (unsigned char)lrintf(255.0f * render_clamp01(cg));
    p[2] = (unsigned char)lrintf(255.0f * render_clamp01(cb));
}

static inline void render_to_float(rgb c, float out[3])
{
    out[0] = (float)c.r / 255.0f;
    out[1] = (float)c.g / 255.0f;
    out[2] = (float)c.b / 255.0f;
}

/* The light's unit direction (towards it): from above, behind the viewer's left shoulder. */
static inline tdn_vec3 render_light(const camera *c)
{
    tdn_vec3 l = tdn_vec3_add(tdn_vec3_scale(c->right, -0.45f),
                              tdn_vec3_add(tdn_vec3_scale(c->up, 0.8f), tdn_vec3_scale(c->forward, -0.55f)));
    return tdn_vec3_normalize(l);
}

/* Lambert with the ambient term: RENDER_AMBIENT + (1 - RENDER_AMBIENT) max(0, n . light). */
static inline float render_lambert(tdn_vec3 n, tdn_vec3 light)
{
    return RENDER_AMBIENT + (1.0f - RENDER_AMBIENT) * fmaxf(0.0f, tdn_vec3_dot(n, light));
}

#endif
