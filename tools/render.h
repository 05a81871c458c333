/* tendon CLI: the preview renderer's drawing (tendon run --render): a small deterministic
 * software renderer on an RGB canvas with a depth buffer.
 *
 * Every primitive is ray-cast per pixel through the pixel's centre (camera.h), so depths are
 * exact: the depth buffer holds, per pixel, the depth (metres along the camera's forward axis,
 * camera_project's depth) of the nearest surface drawn so far (INFINITY: none). A primitive covers a pixel
 * when its ray hits it nearer than what is there. Shading is Lambert with one light fixed
 * relative to the camera (from above, behind the viewer's left shoulder) and an ambient term:
 *     colour = albedo x (RENDER_AMBIENT + (1 - RENDER_AMBIENT) max(0, n . light)).
 * After the solids, render_outline darkens the rim of every solid against what lies behind it.
 *
 * The ground (render_ground) is the plane y = 0 under a sky: a pixel whose ray goes down from
 * an eye above the plane sees ground, the others sky, so the horizon is the row where the ray
 * through the pixel centre turns horizontal. Grid lines run along x and z every `spacing`
 * metres, about 1.2 pixels wide whatever their distance (their width is measured with the
 * plane's analytic screen-space derivatives), fading out between fade_start and fade_end
 * metres from the eye and where they would be closer than 4 pixels apart; the ground colour
 * itself hazes towards RENDER_HAZE with distance. */
#ifndef TENDON_RENDER_H
#define TENDON_RENDER_H

#include "camera.h"
#include "image.h"

#define RENDER_AMBIENT 0.38f

/* The renderer's fixed colours (also what the GIF palette is built around). */
extern const rgb RENDER_SKY_TOP, RENDER_SKY_HORIZON, RENDER_GROUND, RENDER_HAZE, RENDER_GRID;

typedef struct render_canvas {
    image_rgb image;
    float *depth;           /* width * height */
    unsigned short *id;     /* per pixel: the solid drawn there (0: none) */
    camera cam;
} render_canvas;

/* A canvas of width x height; 0 when out of memory. */
int render_canvas_create(render_canvas *r, int width, int height);
void render_canvas_destroy(render_canvas *r);
/* Starts a frame seen by `cam` (its size must be the canvas's): every pixel sky or ground
 * (the ground's depth written, so solids under the plane are hidden). */
void render_ground(render_canvas *r, const camera *cam, float spacing, float fade_start, float fade_end);
/* A capsule (the segment a-b swept by a sphere of `radius`), Lambert-shaded; `id` (> 0) names it
 * for the outline. A zero-length segment draws a sphere. */
void render_capsule(render_canvas *r, tdn_vec3 a, tdn_vec3 b, float radius, rgb albedo, unsigned short id);
static inline void render_sphere(render_canvas *r, tdn_vec3 c, float radius, rgb albedo, unsigned short id)
{
    render_capsule(r, c, c, radius, albedo, id);
}
/* A horizontal disc (normal +Y) centred on c, blended with opacity alpha over what is drawn
 * (draw it after the ground and before the solids, which then cover it), with a rim of width
 * radius/6 a third darker; no depth is read or written, so it shows at its place in the
 * picture even under the plane y = 0. */
void render_disc(render_canvas *r, tdn_vec3 c, float radius, rgb colour, float alpha);
/* Darkens by a half each solid's pixel that has a 4-neighbour of another solid (or none) at
 * least `gap` metres farther away. */
void render_outline(render_canvas *r, float gap);

#endif
