/* tendon core: the blend space object shared by blend_space*.c (not installed). */
#ifndef TENDON_BLEND_SPACE_INTERNAL_H
#define TENDON_BLEND_SPACE_INTERNAL_H

#include "internal.h"
#include "tendon/blend_space.h"

/* Upper bounds used to size the single allocation and the stack arrays. A triangulation of n
 * points has at most 2n - 5 triangles and its hull at most n edges. */
#define TDN__BS_MAX_N TDN_MAX_BLEND_SPACE_SAMPLES
#define TDN__BS_MAX_TRIANGLES (2 * TDN__BS_MAX_N)

struct tdn_blend_space {
    tdn_allocator allocator;
    size_t bytes;
    tdn_blend_space_mode mode;
    int dimensions;
    int sample_count;
    float *points; /* sample_count * dimensions */

    /* linear, and barycentric over collinear samples: samples sorted along a line. A point's
     * line parameter is (p - line_origin) . line_dir. */
    int line_used;
    int *line_order;     /* sample indices by increasing parameter */
    float *line_t;       /* their parameters */
    float *line_inv_gap; /* 1 / (line_t[k + 1] - line_t[k]) */
    float line_origin[2], line_dir[2];

    /* gradient_band: for i != j, (p_j - p_i) / |p_j - p_i|^2 at band[(i * n + j) * d] */
    float *band;

    /* polar_gradient_band */
    int polar_origin;              /* index of the sample at (0, 0), or -1 */
    float *polar_mag;              /* n magnitudes */
    float *polar_dir;              /* n unit directions (0, 0 for the origin sample) */
    float *polar_angle;            /* n * n signed angles from i's direction to j's (pi when opposite) */
    float *polar_inv_mean;         /* n * n: 2 / (m_i + m_j) */
    float *polar_inv_len2;         /* n * n: 1 / |pair vector|^2 (pairs without the origin sample) */
    unsigned char *polar_opposite; /* n * n: 1 when i and j point in exactly opposite directions */

    /* barycentric */
    int triangle_count;
    int *triangles;         /* 3 sample indices per triangle, counter-clockwise */
    float *triangle_frames; /* per triangle: a.x, a.y, then the inverse of [b - a, c - a] (4) */
    int hull_edge_count;
    int *hull_edges; /* 2 sample indices per edge */

    /* grid */
    int grid_nx, grid_ny;
    float *grid_x, *grid_y;           /* sorted distinct values */
    float *grid_inv_dx, *grid_inv_dy; /* reciprocal cell sizes */
    int *grid_cell;                   /* sample at (ix, iy): grid_cell[ix * ny + iy] */

    /* rbf */
    double *rbf_lu;        /* (n + 1)^2, LU factors row-major, unit lower part implicit */
    double *rbf_inv_diag;  /* n + 1 reciprocals of U's diagonal */
    int *rbf_pivot;        /* n + 1 row permutation */
    double rbf_inv_width2; /* 1 / s^2 */
};

/* Creation lays the object out twice with the same calls: once with a NULL base to add up the
 * bytes, once on the allocated block to place each array (`*_layout` functions). Each mode's
 * `*_build` then fills its arrays from the copied points; builders fail only with
 * TDN_ERR_INVALID_DATA (through tdn__fail). */
typedef struct tdn__bs_carver {
    unsigned char *base;
    size_t used;
} tdn__bs_carver;

static inline void *tdn__bs_carve(tdn__bs_carver *c, size_t size, size_t align)
{
    c->used = tdn__align_up(c->used, align);
    void *p = c->base ? c->base + c->used : NULL;
    c->used += size;
    return p;
}

/* Polar gradient bands (blend_space_polar.c). */
void tdn__bs_polar_layout(tdn_blend_space *s, tdn__bs_carver *c);
void tdn__bs_polar_build(tdn_blend_space *s);
void tdn__bs_polar_weights(const tdn_blend_space *s, const float *p, float *raw);

/* Delaunay triangulation and barycentric weights (blend_space_delaunay.c). The triangulation
 * is made before the allocation (on the stack) so the block holds exactly what it needs. */
typedef struct tdn__bs_triangulation {
    int triangle_count;                       /* 0: every triple degenerate (collinear samples) */
    int triangles[3 * TDN__BS_MAX_TRIANGLES]; /* counter-clockwise */
    int hull_edge_count;
    int hull_edges[2 * TDN__BS_MAX_TRIANGLES];
} tdn__bs_triangulation;
/* Triangulates pts (n points, 2 floats each). */
void tdn__bs_delaunay(const float *pts, int n, tdn__bs_triangulation *out);
void tdn__bs_barycentric_layout(tdn_blend_space *s, const tdn__bs_triangulation *t, tdn__bs_carver *c);
tdn_result tdn__bs_barycentric_build(tdn_blend_space *s, const tdn__bs_triangulation *t, tdn_error *err);
void tdn__bs_barycentric_weights(const tdn_blend_space *s, const float *p, float *w);

/* Radial basis functions (blend_space_rbf.c). */
void tdn__bs_rbf_layout(tdn_blend_space *s, tdn__bs_carver *c);
tdn_result tdn__bs_rbf_build(tdn_blend_space *s, tdn_error *err);
void tdn__bs_rbf_weights(const tdn_blend_space *s, const float *p, float *raw);

/* Samples sorted along a line (blend_space.c). line_layout reserves the arrays; line_build
 * sorts the samples by (p - origin) . dir (d <= 2 floats each) and fails with
 * TDN_ERR_INVALID_DATA when two land on the same place; line_param is a point's parameter;
 * line_weights writes the bracketing pair's weights (clamped at the ends; others untouched). */
void tdn__bs_line_layout(tdn_blend_space *s, tdn__bs_carver *c);
tdn_result tdn__bs_line_build(tdn_blend_space *s, const float *origin, const float *dir, tdn_error *err);
float tdn__bs_line_param(const tdn_blend_space *s, const float *p);
void tdn__bs_line_weights(const tdn_blend_space *s, float t, float *w);

#endif
