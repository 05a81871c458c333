/* tendon CLI: the preview renderer's drawing (tendon run --render): a small deterministic
 * software renderer on an RGB canvas with a depth buffer.
 *
 * Capsules, spheres, discs and the ground's planes are ray-cast per pixel through the pixel's
 * centre (camera.h), so depths are exact; triangles are rasterized (raster.h) with
 * perspective-correct depth, exact at pixel centres up to the vertices' snapping to 1/256
 * pixel. The depth buffer holds, per pixel, the depth (metres along the camera's forward axis,
 * camera_project's depth) of the nearest surface drawn so far (INFINITY: none). A primitive covers a pixel
 * when its ray hits it nearer than what is there. Shading is Lambert with one light fixed
 * relative to the camera (from above, behind the viewer's left shoulder) and an ambient term:
 *     colour = albedo x (RENDER_AMBIENT + (1 - RENDER_AMBIENT) max(0, n . light)).
 * After the solids, render_outline darkens the rim of every solid against what lies behind it.
 *
 * The ground (render_ground) is the plane y = 0 or a ground of `tendon run --ground` (ground.h)
 * under a sky: a pixel whose ray through its centre meets the ground sees it, the others sky.
 * The plane y = 0, flat:HEIGHT and slopes are met in closed form per pixel (the ray against
 * the plane n . p = c), a step by ground_query per pixel (its faces in closed form); bumps
 * are drawn as a mesh of triangles (raster.h) on a grid of rays about RENDER_RELIEF_CELL
 * pixels apart in the picture (a margin around it for the relief's reach), each ray meeting
 * the plane y = 0 and lifted to the height field there with its analytic normal, rows closer
 * together (down to a pixel) where a row's step along the ground would exceed an eighth of the
 * wavelength, out to where the amplitude is under a pixel (f A metres deep, f the focal length
 * in pixels); beyond, the plane y = 0. The ground is lit by its normal, relative to level ground
 * (which keeps RENDER_GROUND): colour x lambert(n) / lambert(+Y), lambert as above. Grid lines
 * run where one of the two world axes other than the one the normal leans most towards (x and
 * z on ground less steep than 45 degrees, x and y on a step's face) is a multiple of `spacing`
 * metres, so they follow the surface, about 1.2 pixels wide whatever their distance
 * (their width is measured with the tangent plane's analytic screen-space derivatives), fading
 * out between fade_start and fade_end metres from the eye and where they would be closer than 4
 * pixels apart; the ground colour itself hazes towards RENDER_HAZE with distance.
 *
 * A triangle mesh (render_triangles) is rasterized (raster.h) and Lambert-shaded per pixel
 * with its vertices' normals and albedos interpolated; a face seen from behind is lit by its
 * flipped normal. */
#ifndef TENDON_RENDER_H
#define TENDON_RENDER_H

#include <stdint.h>

#include "camera.h"
#include "ground.h"
#include "image.h"
#include "raster.h"

#define RENDER_AMBIENT 0.38f
#define RENDER_RELIEF_CELL 6

/* The renderer's fixed colours (also what the GIF palette is built around). */
extern const rgb RENDER_SKY_TOP, RENDER_SKY_HORIZON, RENDER_GROUND, RENDER_HAZE, RENDER_GRID;

typedef struct render_canvas {
    image_rgb image;
    float *depth;               /* width * height */
    unsigned short *id;         /* per pixel: the solid drawn there (0: none) */
    float *normal;              /* 3 per pixel: the ground's unit normal where a relief mesh is drawn */
    raster_vertex *relief_rows; /* two rows of the relief mesh's grid */
    int relief_columns;         /* the most vertices a row of that grid holds */
    camera cam;
} render_canvas;

/* The relief grid's columns for a width x height canvas (its margin is at most the height). */
static inline int render_relief_columns(int width, int height) { return (width + 2 * height) / RENDER_RELIEF_CELL + 3; }

/* A triangle mesh in world space (render_triangles). */
typedef struct render_mesh {
    int triangle_count;
    const uint32_t *indices;   /* 3 per triangle */
    const float *positions;    /* 3 per vertex, metres */
    const float *normals;      /* 3 per vertex, unit */
    const float *albedos;      /* 3 per vertex, 0..1 */
    const unsigned short *ids; /* per triangle (> 0): names it for the outline */
} render_mesh;

/* A canvas of width x height; 0 when out of memory. */
int render_canvas_create(render_canvas *r, int width, int height);
void render_canvas_destroy(render_canvas *r);
/* Starts a frame seen by `cam` (its size must be the canvas's): every pixel sky or ground
 * (the ground's depth written, so solids under it are hidden). `g`: the ground, or NULL for
 * the plane y = 0. */
void render_ground(render_canvas *r, const camera *cam, const ground *g, float spacing, float fade_start,
                   float fade_end);
/* Draws a mesh over what is drawn, depth-tested (see the top of this file). */
void render_triangles(render_canvas *r, const render_mesh *m);
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
