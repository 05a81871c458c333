/* tendon CLI: the preview renderer's triangle rasterizer (tendon run --render): the skinned
 * mesh and the relief of a bumpy ground are drawn as triangles seen by a camera (camera.h) into
 * a depth buffer.
 *
 * A triangle (world space) is first clipped in camera space to the near plane (depth
 * RASTER_NEAR metres) and to a guard band RASTER_GUARD pixels either side of the picture's
 * centre, then projected; its vertices are snapped to 1/256 pixel, so that coverage is decided
 * exactly with 64-bit integer edge functions. A pixel is covered when its centre (i + 0.5,
 * j + 0.5) lies inside the projected triangle; a centre exactly on an edge belongs to the
 * triangle only when that edge is a top edge (horizontal, the triangle below it) or a left edge
 * (the triangle to its right): two triangles sharing an edge cover each pixel along it exactly
 * once. Both windings are drawn (no back-face culling), so open meshes show their insides.
 *
 * Depth is perspective-correct: 1 / depth is affine in screen space, so the depth at a pixel
 * centre is 1 / (b0 / z0 + b1 / z1 + b2 / z2) with b the screen-space barycentric weights and z
 * the vertices' depths (metres along the camera's forward axis, camera_project's depth): the
 * depth of the triangle's plane along the ray through that centre. The vertices' attributes
 * (normals, colours) are interpolated the same way, (sum b_i a_i / z_i) / (sum b_i / z_i). A
 * covered pixel nearer than the depth buffer's value gets its depth written and `fragment`
 * called with the interpolated attributes. */
#ifndef TENDON_RASTER_H
#define TENDON_RASTER_H

#include "camera.h"

#define RASTER_MAX_ATTRIBUTES 6
#define RASTER_NEAR 1e-3f
#define RASTER_GUARD 16384.0f

typedef struct raster_vertex {
    tdn_vec3 position;                       /* world space, metres */
    float attributes[RASTER_MAX_ATTRIBUTES]; /* the first attribute_count are interpolated */
} raster_vertex;

/* Called for every pixel (column x, row y) a triangle covers nearer than the depth buffer, after
 * its depth is written. */
typedef void (*raster_fragment)(void *user, int x, int y, float depth, const float *attributes);

typedef struct raster_target {
    const camera *cam;        /* its width x height is the depth buffer's */
    float *depth;             /* width * height, row by row; INFINITY: nothing drawn */
    int attribute_count;      /* 0..RASTER_MAX_ATTRIBUTES */
    raster_fragment fragment; /* may be NULL: depth only */
    void *user;
} raster_target;

void raster_triangle(const raster_target *t, const raster_vertex *a, const raster_vertex *b, const raster_vertex *c);

#endif
