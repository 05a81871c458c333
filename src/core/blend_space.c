/* tendon core: blend spaces: creation and validation, accessors, mode names, the linear and
 * gradient-band modes, grids, and the normalization every mode ends with. Polar gradient bands,
 * barycentric (Delaunay) and RBF weights live in their own files. */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "blend_space_internal.h"

static const char *const mode_names[] = {
    "linear", "gradient_band", "polar_gradient_band", "barycentric", "grid", "rbf"
};
enum { MODE_COUNT = (int)(sizeof mode_names / sizeof mode_names[0]) };

const char *tdn_blend_space_mode_name(tdn_blend_space_mode mode)
{
    return (int)mode >= 0 && (int)mode < MODE_COUNT ? mode_names[mode] : NULL;
}

int tdn_blend_space_mode_from_name(const char *name)
{
    if (!name)
        return -1;
    for (int m = 0; m < MODE_COUNT; m++)
        if (!strcmp(name, mode_names[m]))
            return m;
    return -1;
}

/* ---- samples along a line (linear mode, collinear barycentric samples) ---- */

void tdn__bs_line_layout(tdn_blend_space *s, tdn__bs_carver *c)
{
    const size_t n = (size_t)s->sample_count;
    s->line_order = tdn__bs_carve(c, n * sizeof(int), sizeof(int));
    s->line_t = tdn__bs_carve(c, n * sizeof(float), sizeof(float));
    s->line_inv_gap = tdn__bs_carve(c, n * sizeof(float), sizeof(float));
}

float tdn__bs_line_param(const tdn_blend_space *s, const float *p)
{
    float t = 0.0f;
    for (int k = 0; k < s->dimensions && k < 2; k++)
        t += (p[k] - s->line_origin[k]) * s->line_dir[k];
    return t;
}

tdn_result tdn__bs_line_build(tdn_blend_space *s, const float *origin, const float *dir, tdn_error *err)
{
    const int n = s->sample_count, d = s->dimensions;
    s->line_used = 1;
    for (int k = 0; k < 2; k++) {
        s->line_origin[k] = k < d ? origin[k] : 0.0f;
        s->line_dir[k] = k < d ? dir[k] : 0.0f;
    }
    /* insertion sort by parameter (n <= 64) */
    for (int i = 0; i < n; i++) {
        float t = tdn__bs_line_param(s, s->points + (size_t)i * (size_t)d);
        int k = i;
        while (k > 0 && s->line_t[k - 1] > t) {
            s->line_t[k] = s->line_t[k - 1];
            s->line_order[k] = s->line_order[k - 1];
            k--;
        }
        s->line_t[k] = t;
        s->line_order[k] = i;
    }
    for (int k = 0; k + 1 < n; k++) {
        if (!(s->line_t[k + 1] > s->line_t[k])) {
            int a = s->line_order[k] < s->line_order[k + 1] ? s->line_order[k] : s->line_order[k + 1];
            int b = s->line_order[k] ^ s->line_order[k + 1] ^ a;
            char where[64];
            snprintf(where, sizeof where, "samples[%d] and samples[%d]", a, b);
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where,
                             "the samples are collinear and these two land on the same place of their line "
                             "(parameter %g): no triangle can separate them",
                             (double)s->line_t[k]);
        }
        s->line_inv_gap[k] = 1.0f / (s->line_t[k + 1] - s->line_t[k]);
    }
    if (n > 0)
        s->line_inv_gap[n - 1] = 0.0f;
    return TDN_OK;
}

void tdn__bs_line_weights(const tdn_blend_space *s, float t, float *w)
{
    const int n = s->sample_count;
    if (!(t > s->line_t[0])) {
        w[s->line_order[0]] = 1.0f;
        return;
    }
    if (!(t < s->line_t[n - 1])) {
        w[s->line_order[n - 1]] = 1.0f;
        return;
    }
    int lo = 0, hi = n - 1; /* line_t[lo] < t < line_t[hi] */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (s->line_t[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    float f = (t - s->line_t[lo]) * s->line_inv_gap[lo];
    f = f < 1.0f ? f : 1.0f;
    w[s->line_order[lo]] = 1.0f - f;
    w[s->line_order[lo + 1]] = f;
}

/* ---- gradient bands in cartesian space, any dimension ---- */

static void band_layout(tdn_blend_space *s, tdn__bs_carver *c)
{
    const size_t n = (size_t)s->sample_count, d = (size_t)s->dimensions;
    s->band = tdn__bs_carve(c, n * n * d * sizeof(float), 16);
}

static void band_build(tdn_blend_space *s)
{
    const int n = s->sample_count, d = s->dimensions;
    for (int i = 0; i < n; i++) {
        const float *pi = s->points + (size_t)i * (size_t)d;
        for (int j = 0; j < n; j++) {
            float *v = s->band + ((size_t)i * (size_t)n + (size_t)j) * (size_t)d;
            const float *pj = s->points + (size_t)j * (size_t)d;
            double len2 = 0.0;
            for (int k = 0; k < d; k++)
                len2 += ((double)pj[k] - pi[k]) * ((double)pj[k] - pi[k]);
            for (int k = 0; k < d; k++)
                v[k] = i == j ? 0.0f : (float)(((double)pj[k] - pi[k]) / len2);
        }
    }
}

/* h_i = min over j != i of 1 - (p - p_i) . v_ij: n^2 * d multiply-adds, no division. */
static void band_weights(const tdn_blend_space *s, const float *p, float *raw)
{
    const int n = s->sample_count, d = s->dimensions;
    for (int i = 0; i < n; i++) {
        const float *pi = s->points + (size_t)i * (size_t)d;
        float rel[TDN_MAX_BLEND_SPACE_DIMENSIONS];
        for (int k = 0; k < d; k++)
            rel[k] = p[k] - pi[k];
        float h = FLT_MAX;
        const float *v = s->band + (size_t)i * (size_t)n * (size_t)d;
        for (int j = 0; j < n && h > 0.0f; j++, v += d) {
            if (j == i)
                continue;
            float dot = 0.0f;
            for (int k = 0; k < d; k++)
                dot += rel[k] * v[k];
            float hj = 1.0f - dot;
            h = hj < h ? hj : h;
        }
        raw[i] = h;
    }
}

/* ---- grids ---- */

typedef struct grid_shape {
    int nx, ny;
    float x[TDN__BS_MAX_N], y[TDN__BS_MAX_N];
} grid_shape;

/* Adds v to the sorted distinct values vals (count *n) unless present. */
static void insert_distinct(float *vals, int *count, float v)
{
    int k = *count;
    for (int i = 0; i < k; i++)
        if (vals[i] == v)
            return;
    while (k > 0 && vals[k - 1] > v) {
        vals[k] = vals[k - 1];
        k--;
    }
    vals[k] = v;
    (*count)++;
}

static int find_sample(const float *pts, int n, float x, float y)
{
    for (int i = 0; i < n; i++)
        if (pts[2 * i] == x && pts[2 * i + 1] == y)
            return i;
    return -1;
}

/* The samples (distinct points) are a grid when every one of the nx * ny combinations of
 * their distinct x and y values is a sample. */
static tdn_result grid_detect(const float *pts, int n, grid_shape *g, tdn_error *err)
{
    g->nx = g->ny = 0;
    for (int i = 0; i < n; i++) {
        insert_distinct(g->x, &g->nx, pts[2 * i]);
        insert_distinct(g->y, &g->ny, pts[2 * i + 1]);
    }
    if (g->nx * g->ny == n)
        return TDN_OK;
    for (int ix = 0; ix < g->nx; ix++)
        for (int iy = 0; iy < g->ny; iy++) {
            if (find_sample(pts, n, g->x[ix], g->y[iy]) >= 0)
                continue;
            int a = 0, b = 0;
            while (pts[2 * a] != g->x[ix])
                a++;
            while (pts[2 * b + 1] != g->y[iy])
                b++;
            char where[32];
            snprintf(where, sizeof where, "samples[%d]", a);
            return tdn__fail(
                err, TDN_ERR_INVALID_DATA, where,
                "not a grid: no sample at (%g, %g), where the column of samples[%d] (x = %g) meets the row "
                "of samples[%d] (y = %g); %d distinct x and %d distinct y values need %d samples, %d given",
                (double)g->x[ix], (double)g->y[iy], a, (double)g->x[ix], b, (double)g->y[iy], g->nx, g->ny,
                g->nx * g->ny, n);
        }
    return TDN_OK; /* not reached: distinct points fewer than nx * ny leave a combination out */
}

static void grid_layout(tdn_blend_space *s, const grid_shape *g, tdn__bs_carver *c)
{
    s->grid_x = tdn__bs_carve(c, (size_t)g->nx * sizeof(float), sizeof(float));
    s->grid_y = tdn__bs_carve(c, (size_t)g->ny * sizeof(float), sizeof(float));
    s->grid_inv_dx = tdn__bs_carve(c, (size_t)g->nx * sizeof(float), sizeof(float));
    s->grid_inv_dy = tdn__bs_carve(c, (size_t)g->ny * sizeof(float), sizeof(float));
    s->grid_cell = tdn__bs_carve(c, (size_t)g->nx * (size_t)g->ny * sizeof(int), sizeof(int));
}

static void grid_build(tdn_blend_space *s, const grid_shape *g)
{
    s->grid_nx = g->nx;
    s->grid_ny = g->ny;
    for (int k = 0; k < g->nx; k++) {
        s->grid_x[k] = g->x[k];
        s->grid_inv_dx[k] = k + 1 < g->nx ? 1.0f / (g->x[k + 1] - g->x[k]) : 0.0f;
    }
    for (int k = 0; k < g->ny; k++) {
        s->grid_y[k] = g->y[k];
        s->grid_inv_dy[k] = k + 1 < g->ny ? 1.0f / (g->y[k + 1] - g->y[k]) : 0.0f;
    }
    for (int ix = 0; ix < g->nx; ix++)
        for (int iy = 0; iy < g->ny; iy++)
            s->grid_cell[ix * g->ny + iy] = find_sample(s->points, s->sample_count, g->x[ix], g->y[iy]);
}

/* The cell of v along sorted values (count >= 1), clamped, and the fraction across it. */
static int grid_axis(const float *vals, const float *inv_gap, int count, float v, float *frac)
{
    *frac = 0.0f;
    if (count == 1 || !(v > vals[0]))
        return 0;
    if (!(v < vals[count - 1])) {
        *frac = 1.0f;
        return count - 2;
    }
    int lo = 0, hi = count - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (vals[mid] <= v)
            lo = mid;
        else
            hi = mid;
    }
    float f = (v - vals[lo]) * inv_gap[lo];
    *frac = f < 1.0f ? f : 1.0f;
    return lo;
}

static void grid_weights(const tdn_blend_space *s, const float *p, float *w)
{
    float fx, fy;
    const int ny = s->grid_ny;
    int ix = grid_axis(s->grid_x, s->grid_inv_dx, s->grid_nx, p[0], &fx);
    int iy = grid_axis(s->grid_y, s->grid_inv_dy, ny, p[1], &fy);
    int ix1 = s->grid_nx > 1 ? ix + 1 : ix, iy1 = ny > 1 ? iy + 1 : iy;
    /* += so that a single row or column (ix1 == ix) adds its two halves to one sample */
    w[s->grid_cell[ix * ny + iy]] += (1.0f - fx) * (1.0f - fy);
    w[s->grid_cell[ix1 * ny + iy]] += fx * (1.0f - fy);
    w[s->grid_cell[ix * ny + iy1]] += (1.0f - fx) * fy;
    w[s->grid_cell[ix1 * ny + iy1]] += fx * fy;
}

/* ---- creation ---- */

static tdn_result check_points(const float *pts, int n, int d, tdn_error *err)
{
    char where[64];
    for (int i = 0; i < n; i++)
        for (int k = 0; k < d; k++) {
            float v = pts[(size_t)i * (size_t)d + (size_t)k];
            if (!tdn__finite(v) || fabsf(v) > TDN_BLEND_SPACE_MAX_COORDINATE) {
                snprintf(where, sizeof where, "samples[%d]", i);
                return tdn__fail(err, TDN_ERR_INVALID_DATA, where,
                                 "coordinate %d is %g: sample coordinates must be finite and within %g", k, (double)v,
                                 (double)TDN_BLEND_SPACE_MAX_COORDINATE);
            }
        }
    for (int j = 1; j < n; j++)
        for (int i = 0; i < j; i++) {
            int same = 1;
            for (int k = 0; k < d && same; k++)
                same = pts[(size_t)i * (size_t)d + (size_t)k] == pts[(size_t)j * (size_t)d + (size_t)k];
            if (same) {
                snprintf(where, sizeof where, "samples[%d] and samples[%d]", i, j);
                return tdn__fail(
                    err, TDN_ERR_INVALID_DATA, where,
                    "samples[%d] and samples[%d] are at the same point: two samples must not share a point", i, j);
            }
        }
    return TDN_OK;
}

/* Places every array of the object in the carver (NULL base: only counts bytes). */
static void layout(tdn_blend_space *s, const grid_shape *g, const tdn__bs_triangulation *tri, tdn__bs_carver *c)
{
    (void)tdn__bs_carve(c, sizeof *s, 64);
    s->points = tdn__bs_carve(c, (size_t)s->sample_count * (size_t)s->dimensions * sizeof(float), 16);
    switch (s->mode) {
    case TDN_BLEND_SPACE_LINEAR:
        tdn__bs_line_layout(s, c);
        break;
    case TDN_BLEND_SPACE_GRADIENT_BAND:
        band_layout(s, c);
        break;
    case TDN_BLEND_SPACE_POLAR_GRADIENT_BAND:
        tdn__bs_polar_layout(s, c);
        break;
    case TDN_BLEND_SPACE_BARYCENTRIC:
        tdn__bs_barycentric_layout(s, tri, c);
        break;
    case TDN_BLEND_SPACE_GRID:
        grid_layout(s, g, c);
        break;
    case TDN_BLEND_SPACE_RBF:
        tdn__bs_rbf_layout(s, c);
        break;
    }
}

tdn_result tdn_blend_space_create(const tdn_blend_space_desc *desc, tdn_blend_space **out,
                                  const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!desc || !out)
        return tdn__null(err, !desc ? "desc" : "out");
    const int mode = (int)desc->mode, n = desc->sample_count, d = desc->dimensions;
    if (mode < 0 || mode >= MODE_COUNT)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.mode", "mode %d is not a tdn_blend_space_mode", mode);
    if (n < 1 || n > TDN_MAX_BLEND_SPACE_SAMPLES)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.sample_count", "sample_count %d is outside 1..%d", n,
                         TDN_MAX_BLEND_SPACE_SAMPLES);
    if (d < 1 || d > TDN_MAX_BLEND_SPACE_DIMENSIONS)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.dimensions", "dimensions %d is outside 1..%d", d,
                         TDN_MAX_BLEND_SPACE_DIMENSIONS);
    const int need = mode == TDN_BLEND_SPACE_LINEAR                                         ? 1
                     : mode == TDN_BLEND_SPACE_GRADIENT_BAND || mode == TDN_BLEND_SPACE_RBF ? 0
                                                                                            : 2;
    if (need && d != need)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.dimensions", "%s blend spaces have %d dimension%s, not %d",
                         mode_names[mode], need, need == 1 ? "" : "s", d);
    if (!desc->points)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.points", "points must not be NULL");
    tdn_result r = check_points(desc->points, n, d, err);
    if (r != TDN_OK || (r = tdn__check_allocator(allocator, err)) != TDN_OK)
        return r;

    /* Everything that decides the size happens before the allocation, on the stack. */
    grid_shape grid;
    tdn__bs_triangulation tri;
    if (mode == TDN_BLEND_SPACE_GRID && (r = grid_detect(desc->points, n, &grid, err)) != TDN_OK)
        return r;
    if (mode == TDN_BLEND_SPACE_BARYCENTRIC)
        tdn__bs_delaunay(desc->points, n, &tri);

    tdn_blend_space shape;
    memset(&shape, 0, sizeof shape);
    shape.mode = (tdn_blend_space_mode)mode;
    shape.dimensions = d;
    shape.sample_count = n;
    tdn__bs_carver counter = { NULL, 0 };
    layout(&shape, &grid, &tri, &counter);
    const size_t bytes = counter.used;
    unsigned char *block = tdn__alloc(allocator, bytes, 64);
    if (!block)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "the allocator returned NULL for %zu bytes", bytes);
    memset(block, 0, bytes);
    tdn_blend_space *s = (tdn_blend_space *)block;
    *s = shape;
    s->allocator = tdn__allocator_of(allocator);
    s->bytes = bytes;
    s->polar_origin = -1;
    tdn__bs_carver placer = { block, 0 };
    layout(s, &grid, &tri, &placer);
    memcpy(s->points, desc->points, (size_t)n * (size_t)d * sizeof(float));

    static const float zero[1] = { 0.0f }, one[1] = { 1.0f };
    switch (s->mode) {
    case TDN_BLEND_SPACE_LINEAR:
        r = tdn__bs_line_build(s, zero, one, err);
        break;
    case TDN_BLEND_SPACE_GRADIENT_BAND:
        band_build(s);
        break;
    case TDN_BLEND_SPACE_POLAR_GRADIENT_BAND:
        tdn__bs_polar_build(s);
        break;
    case TDN_BLEND_SPACE_BARYCENTRIC:
        r = tdn__bs_barycentric_build(s, &tri, err);
        break;
    case TDN_BLEND_SPACE_GRID:
        grid_build(s, &grid);
        break;
    case TDN_BLEND_SPACE_RBF:
        r = tdn__bs_rbf_build(s, err);
        break;
    }
    if (r != TDN_OK) {
        tdn__free(allocator, block, bytes);
        return r;
    }
    *out = s;
    return TDN_OK;
}

void tdn_blend_space_destroy(tdn_blend_space *space)
{
    if (!space)
        return;
    tdn_allocator allocator = space->allocator;
    tdn__free(&allocator, space, space->bytes);
}

tdn_blend_space_mode tdn_blend_space_mode_of(const tdn_blend_space *space)
{
    return space ? space->mode : TDN_BLEND_SPACE_LINEAR;
}

int tdn_blend_space_dimensions(const tdn_blend_space *space) { return space ? space->dimensions : 0; }
int tdn_blend_space_sample_count(const tdn_blend_space *space) { return space ? space->sample_count : 0; }

const float *tdn_blend_space_point(const tdn_blend_space *space, int sample)
{
    if (!space || sample < 0 || sample >= space->sample_count)
        return NULL;
    return space->points + (size_t)sample * (size_t)space->dimensions;
}

/* ---- weights ---- */

/* Clamps raw influences at 0 (NaN counts as 0) and normalizes them; when they sum to (almost)
 * nothing the sample nearest to p takes weight 1. */
static void normalize(const tdn_blend_space *s, const float *p, float *w)
{
    const int n = s->sample_count, d = s->dimensions;
    float sum = 0.0f;
    for (int i = 0; i < n; i++) {
        w[i] = w[i] > 0.0f ? w[i] : 0.0f;
        sum += w[i];
    }
    if (sum > 1e-12f && sum <= FLT_MAX) {
        const float inv = 1.0f / sum;
        for (int i = 0; i < n; i++)
            w[i] *= inv;
        return;
    }
    int best = 0;
    double best_d2 = -1.0;
    for (int i = 0; i < n; i++) {
        double d2 = 0.0;
        for (int k = 0; k < d; k++) {
            double e = (double)p[k] - s->points[(size_t)i * (size_t)d + (size_t)k];
            d2 += e * e;
        }
        if (best_d2 < 0.0 || d2 < best_d2) {
            best = i;
            best_d2 = d2;
        }
    }
    for (int i = 0; i < n; i++)
        w[i] = i == best ? 1.0f : 0.0f;
}

tdn_result tdn_blend_space_weights(const tdn_blend_space *space, const float *point, float *weights, tdn_error *err)
{
    if (!space)
        return tdn__null(err, "space");
    if (!weights)
        return tdn__null(err, "weights");
    const int n = space->sample_count, d = space->dimensions;
    int finite = point != NULL;
    for (int k = 0; k < d && finite; k++)
        finite = tdn__finite(point[k]);
    for (int i = 0; i < n; i++)
        weights[i] = 0.0f;
    if (!finite) {
        weights[0] = 1.0f;
        return point ? tdn__fail(err, TDN_ERR_ARGUMENT, "point", "a coordinate is NaN or infinite")
                     : tdn__null(err, "point");
    }
    if (n == 1) {
        weights[0] = 1.0f;
        return TDN_OK;
    }
    switch (space->mode) {
    case TDN_BLEND_SPACE_LINEAR:
        tdn__bs_line_weights(space, point[0], weights);
        break;
    case TDN_BLEND_SPACE_GRADIENT_BAND:
        band_weights(space, point, weights);
        break;
    case TDN_BLEND_SPACE_POLAR_GRADIENT_BAND:
        tdn__bs_polar_weights(space, point, weights);
        break;
    case TDN_BLEND_SPACE_BARYCENTRIC:
        tdn__bs_barycentric_weights(space, point, weights);
        break;
    case TDN_BLEND_SPACE_GRID:
        grid_weights(space, point, weights);
        break;
    case TDN_BLEND_SPACE_RBF:
        tdn__bs_rbf_weights(space, point, weights);
        break;
    }
    normalize(space, point, weights);
    return TDN_OK;
}
