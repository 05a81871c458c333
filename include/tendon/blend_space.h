/* tendon: blend-space weights.
 *
 * A blend space places animation samples (clips) at points of a parameter space (speed,
 * direction, slope, turn rate, aim angles ...) and turns a query point into one weight per
 * sample: each >= 0, summing to 1, ready for tdn_blend's layers. A sample's own point gives it
 * weight 1 and every other sample 0 (all modes). Coordinates are cartesian, in whatever units
 * the caller uses for its parameters (metres per second, radians ...); modes that measure
 * distances (gradient_band, barycentric, rbf) mix the axes as they are, so give axes comparable
 * scales. A blend space is immutable once created and can be shared by any number of threads.
 *
 * Modes:
 * - linear (1D): samples sorted on the line; between two neighbours the pair is lerped
 *   (1 - t, t); before the first and past the last sample that sample alone has weight 1.
 * - gradient_band (any dimension, Johansen 2009 section 6.3): sample i's influence is
 *   h_i(p) = max(0, min over j != i of 1 - (p - p_i).(p_j - p_i) / |p_j - p_i|^2), then the
 *   influences are normalized. In 1D it equals linear. The nearest sample always has h >= 1/2,
 *   so the sum never vanishes. Pair vectors (p_j - p_i)/|p_j - p_i|^2 are precomputed, so a
 *   query costs about n^2 * d multiply-adds and one division.
 * - polar_gradient_band (2D, Johansen 2009 section 6.3): the same bands measured in
 *   (magnitude, angle) instead of (x, y), for velocities: for a pair (i, j) with magnitudes
 *   m_i, m_j and mean m = (m_i + m_j) / 2, the pair vector is ((m_j - m_i) / m, A * a_ij) and
 *   the query's vector is ((|p| - m_i) / m, A * a_ip), where a_ij and a_ip are the signed angles
 *   (radians, in (-pi, pi]) from sample i's direction to sample j's and to the query's, and
 *   A = TDN_BLEND_SPACE_POLAR_ANGLE_WEIGHT (2: a quarter turn counts as much as a change of
 *   speed of pi times the pair's mean speed). So speeds blend along rays and directions along arcs: a slow sample never
 *   bleeds past a faster sample in its direction, and a diagonal between two runs stays at run
 *   speed. A sample exactly at the origin (an idle) has no direction: in every pair it takes
 *   the query's direction (its angle to the query is 0, its angle to sample j is the query's
 *   angle to j), so it blends with each moving sample along the query's ray, and it alone has
 *   weight 1 at the origin. For a pair of samples in exactly opposite directions the angle
 *   between them is pi and the query's angle from i is taken unsigned (|a_ip|), keeping the
 *   pair symmetric. A query at the origin with no idle sample has no direction: angles to it
 *   count as 0. Weights are continuous wherever the samples' directions leave no gap of half a
 *   turn or more (and at the origin when there is an idle sample).
 * - barycentric (2D): the samples' Delaunay triangulation is built at creation; inside a
 *   triangle the weights are the barycentric coordinates (they reproduce the point:
 *   sum w_i p_i = p); outside the convex hull the point is moved to the nearest point of the
 *   hull and weighted there (the two ends of the nearest hull edge, lerped). Cocircular samples
 *   (a regular grid) get one of their valid Delaunay triangulations. When all samples are
 *   collinear (sines of the angles they make within 1e-6) there is no triangle: the point is
 *   projected on the samples' line and the bracketing pair is lerped, clamped at the ends, as
 *   in linear mode.
 * - grid (2D): the samples must be exactly the nx * ny combinations of nx distinct x values and
 *   ny distinct y values (exact float equality), in any order; bilinear interpolation inside,
 *   coordinates clamped to the grid outside. nx or ny may be 1 (a row or column is lerped).
 * - rbf (any dimension): radial basis function interpolation with the Gaussian kernel
 *   phi(r) = exp(-(r / s)^2), s = the mean over samples of the distance to the nearest other
 *   sample (1 for a single sample), plus a constant term. At creation the (n + 1) x (n + 1)
 *   system [phi(|p_i - p_k|) 1; 1 0] is factored once (LU, Gaussian elimination with partial
 *   pivoting, in double); sample i's raw weight function is the interpolant that is 1 at p_i
 *   and 0 at the other samples, and the raw weights of a point sum to 1 (the constant term).
 *   A query evaluates n kernels and solves with the factors (about 2 n^2 multiply-adds).
 *   Raw weights can be negative and samples far from the point keep some influence (far from
 *   every sample each weight tends to its constant coefficient); tendon clamps them at 0 and
 *   renormalizes. Gradient bands have neither problem: prefer them unless smoothness matters.
 *
 * Weights are always defined: if the clamped weights of a mode ever sum to (almost) nothing,
 * the sample nearest to the point gets weight 1. */
#ifndef TENDON_BLEND_SPACE_H
#define TENDON_BLEND_SPACE_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tdn_blend_space_mode {
    TDN_BLEND_SPACE_LINEAR = 0,          /* 1D */
    TDN_BLEND_SPACE_GRADIENT_BAND,       /* any dimension >= 1 (N-axis) */
    TDN_BLEND_SPACE_POLAR_GRADIENT_BAND, /* 2D */
    TDN_BLEND_SPACE_BARYCENTRIC,         /* 2D */
    TDN_BLEND_SPACE_GRID,                /* 2D */
    TDN_BLEND_SPACE_RBF                  /* any dimension >= 1 */
} tdn_blend_space_mode;

#define TDN_MAX_BLEND_SPACE_SAMPLES 64
#define TDN_MAX_BLEND_SPACE_DIMENSIONS 8
/* The angle weighting constant of polar_gradient_band (Johansen's alpha). */
#define TDN_BLEND_SPACE_POLAR_ANGLE_WEIGHT 2.0f
/* Largest coordinate magnitude accepted for a sample (keeps squared distances finite). */
#define TDN_BLEND_SPACE_MAX_COORDINATE 1e15f

/* Describes a blend space. */
typedef struct tdn_blend_space_desc {
    tdn_blend_space_mode mode;
    int dimensions; /* floats per point */
    int sample_count;
    const float *points; /* sample_count * dimensions, cartesian coordinates */
} tdn_blend_space_desc;

typedef struct tdn_blend_space tdn_blend_space;

/* Builds a blend space with one allocation through `allocator` (NULL: malloc; the points are copied; the
 * caller keeps its array). TDN_ERR_ARGUMENT for NULL desc, out or points, an unknown mode, a
 * sample count outside 1..TDN_MAX_BLEND_SPACE_SAMPLES, dimensions outside
 * 1..TDN_MAX_BLEND_SPACE_DIMENSIONS or not what the mode needs (linear 1; polar_gradient_band,
 * barycentric, grid 2). TDN_ERR_INVALID_DATA, `where` naming the sample ("samples[3]"), for a
 * NaN, infinite or larger than TDN_BLEND_SPACE_MAX_COORDINATE coordinate, two samples at the
 * same point (both named), grid samples that are not a full grid (naming a sample on the
 * column that lacks a point, and the missing point), an RBF system too ill-conditioned to
 * solve (a pivot below 1e-10, or solved weights at the samples' own points more than 1e-6 from
 * 1 and 0: in practice samples within about 1e-6 of the kernel width of each other; the
 * closest pair named), or collinear barycentric samples that land on the same place of their
 * line (both named). TDN_ERR_OUT_OF_MEMORY when the allocator fails. Takes O(n^4) time for
 * barycentric (about 10 ms for 64 samples), O(n^3) for rbf, O(n^2 d) for the others.
 * On failure *out is NULL and nothing stays allocated. */
TDN_API tdn_result tdn_blend_space_create(const tdn_blend_space_desc *desc, tdn_blend_space **out,
                                          const tdn_allocator *allocator, tdn_error *err);
/* Frees a blend space through the allocator it was created with. NULL is ignored. */
TDN_API void tdn_blend_space_destroy(tdn_blend_space *space);

/* The mode, dimension count and sample count given at creation (NULL: linear, 0, 0). */
TDN_API tdn_blend_space_mode tdn_blend_space_mode_of(const tdn_blend_space *space);
TDN_API int tdn_blend_space_dimensions(const tdn_blend_space *space);
TDN_API int tdn_blend_space_sample_count(const tdn_blend_space *space);
/* Sample `sample`'s point (dimensions floats, owned by the space), or NULL when out of range. */
TDN_API const float *tdn_blend_space_point(const tdn_blend_space *space, int sample);

/* weights: sample_count floats written, each >= 0, summing to 1. No allocation, thread-safe.
 * `point` holds `dimensions` floats. Cost for n samples in d dimensions: linear and grid
 * O(log n), barycentric O(n), gradient_band n^2 d multiply-adds, polar_gradient_band n atan2
 * and O(n^2), rbf n exp and 2 n^2 multiply-adds (64 samples: well under 20 microseconds). TDN_ERR_ARGUMENT for a NULL
 * space, point or weights, or a NaN or infinite coordinate in point: the weights (when not NULL) are then all on sample
 * 0. */
TDN_API tdn_result tdn_blend_space_weights(const tdn_blend_space *space, const float *point, float *weights,
                                           tdn_error *err);

/* The mode's name as in the JSON format ("linear", "gradient_band", "polar_gradient_band",
 * "barycentric", "grid", "rbf"; NULL for a value outside the enum) and back (-1 for an
 * unknown name or NULL). Names are matched exactly (lower case). */
TDN_API const char *tdn_blend_space_mode_name(tdn_blend_space_mode mode);
TDN_API int tdn_blend_space_mode_from_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
