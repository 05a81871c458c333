/* tendon core: radial basis function blend spaces (any dimension).
 *
 * Kernel phi(r) = exp(-(r / s)^2) with s the mean nearest-neighbour distance of the samples,
 * plus a constant term. Sample i's weight function w_i(p) = sum_k c_ki phi(|p - p_k|) + a_i
 * interpolates 1 at p_i and 0 at every other sample, with sum_k c_ki = 0. Stacking the
 * conditions for all i gives A X = [I; 0] with the symmetric A = [Phi 1; 1^T 0], so the raw
 * weights at p are the first n entries of A^-1 b(p), b = (phi(|p - p_k|)..., 1). Creation
 * factors A once (Gaussian elimination with partial pivoting, in double); a query solves with
 * the factors. The last entry of b makes the raw weights sum to exactly 1 (in exact
 * arithmetic) anywhere. */
#include <stdio.h>

#include "blend_space_internal.h"

/* A pivot below this (the matrix's entries are at most 1) means the kernel cannot tell two
 * samples apart: weights would be noise. */
#define SINGULAR_PIVOT 1e-10
/* Largest error of the solved weights at the samples' own points (1 and 0) accepted. */
#define REPRODUCTION_TOLERANCE 1e-6

void tdn__bs_rbf_layout(tdn_blend_space *s, tdn__bs_carver *c)
{
    const size_t m = (size_t)s->sample_count + 1;
    s->rbf_lu = tdn__bs_carve(c, m * m * sizeof(double), 16);
    s->rbf_inv_diag = tdn__bs_carve(c, m * sizeof(double), 16);
    s->rbf_pivot = tdn__bs_carve(c, m * sizeof(int), sizeof(int));
}

static double distance2(const float *a, const float *b, int d)
{
    double sum = 0.0;
    for (int k = 0; k < d; k++)
        sum += ((double)a[k] - b[k]) * ((double)a[k] - b[k]);
    return sum;
}

/* b <- A^-1 b with the factors (b has n + 1 entries). */
static void solve(const tdn_blend_space *s, double *b)
{
    const int m = s->sample_count + 1;
    const double *a = s->rbf_lu;
    for (int k = 0; k < m; k++) {
        int r = s->rbf_pivot[k];
        double t = b[k];
        b[k] = b[r];
        b[r] = t;
    }
    for (int i = 1; i < m; i++) {
        const double *row = a + (size_t)i * (size_t)m;
        double sum = b[i];
        for (int j = 0; j < i; j++)
            sum -= row[j] * b[j];
        b[i] = sum;
    }
    for (int i = m - 1; i >= 0; i--) {
        const double *row = a + (size_t)i * (size_t)m;
        double sum = b[i];
        for (int j = i + 1; j < m; j++)
            sum -= row[j] * b[j];
        b[i] = sum * s->rbf_inv_diag[i];
    }
}

/* The kernel values at p and the constant term's 1: the right-hand side of a query. */
static void kernel_row(const tdn_blend_space *s, const float *p, double *b)
{
    const int n = s->sample_count, d = s->dimensions;
    for (int k = 0; k < n; k++)
        b[k] = exp(-distance2(p, s->points + (size_t)k * (size_t)d, d) * s->rbf_inv_width2);
    b[n] = 1.0;
}

static tdn_result singular(const tdn_blend_space *s, double width, const char *what, double value, tdn_error *err)
{
    const int n = s->sample_count, d = s->dimensions;
    const float *pts = s->points;
    int ci = 0, cj = 1;
    double closest = -1.0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double d2 = distance2(pts + (size_t)i * (size_t)d, pts + (size_t)j * (size_t)d, d);
            if (closest < 0.0 || d2 < closest) {
                ci = i;
                cj = j;
                closest = d2;
            }
        }
    char where[64];
    snprintf(where, sizeof where, "samples[%d] and samples[%d]", ci, cj);
    return tdn__fail(err, TDN_ERR_INVALID_DATA, where,
                     "the RBF system is singular (%s %.3g): samples[%d] and samples[%d] are %.3g apart for a kernel "
                     "width of %.3g; move them apart or use gradient_band",
                     what, value, ci, cj, sqrt(closest), width);
}

tdn_result tdn__bs_rbf_build(tdn_blend_space *s, tdn_error *err)
{
    const int n = s->sample_count, d = s->dimensions, m = n + 1;
    const float *pts = s->points;
    /* kernel width: mean distance to the nearest other sample */
    double width = 1.0;
    if (n > 1) {
        double total = 0.0;
        for (int i = 0; i < n; i++) {
            double nearest = -1.0;
            for (int j = 0; j < n; j++) {
                if (j == i)
                    continue;
                double d2 = distance2(pts + (size_t)i * (size_t)d, pts + (size_t)j * (size_t)d, d);
                if (nearest < 0.0 || d2 < nearest)
                    nearest = d2;
            }
            total += sqrt(nearest);
        }
        width = total / n;
    }
    s->rbf_inv_width2 = 1.0 / (width * width);

    double *a = s->rbf_lu;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            double v;
            if (i < n && j < n)
                v = exp(-distance2(pts + (size_t)i * (size_t)d, pts + (size_t)j * (size_t)d, d) * s->rbf_inv_width2);
            else
                v = i == j ? 0.0 : 1.0;
            a[(size_t)i * (size_t)m + (size_t)j] = v;
        }
    for (int k = 0; k < m; k++) {
        int r = k;
        for (int i = k + 1; i < m; i++)
            if (fabs(a[(size_t)i * (size_t)m + (size_t)k]) > fabs(a[(size_t)r * (size_t)m + (size_t)k]))
                r = i;
        const double pivot = a[(size_t)r * (size_t)m + (size_t)k];
        if (!(fabs(pivot) > SINGULAR_PIVOT))
            return singular(s, width, "pivot", fabs(pivot), err);
        s->rbf_pivot[k] = r;
        if (r != k)
            for (int j = 0; j < m; j++) {
                double t = a[(size_t)k * (size_t)m + (size_t)j];
                a[(size_t)k * (size_t)m + (size_t)j] = a[(size_t)r * (size_t)m + (size_t)j];
                a[(size_t)r * (size_t)m + (size_t)j] = t;
            }
        s->rbf_inv_diag[k] = 1.0 / pivot;
        for (int i = k + 1; i < m; i++) {
            double *row = a + (size_t)i * (size_t)m;
            const double *top = a + (size_t)k * (size_t)m;
            double f = row[k] * s->rbf_inv_diag[k];
            row[k] = f;
            for (int j = k + 1; j < m; j++)
                row[j] -= f * top[j];
        }
    }
    /* The factors must give back what they were made for: at each sample's own point its
     * weight 1 and every other 0. */
    double b[TDN_MAX_BLEND_SPACE_SAMPLES + 1], worst = 0.0;
    for (int i = 0; i < n; i++) {
        kernel_row(s, pts + (size_t)i * (size_t)d, b);
        solve(s, b);
        for (int j = 0; j < n; j++)
            worst = fmax(worst, fabs(b[j] - (i == j ? 1.0 : 0.0)));
    }
    if (!(worst <= REPRODUCTION_TOLERANCE))
        return singular(s, width, "error at the samples", worst, err);
    return TDN_OK;
}

void tdn__bs_rbf_weights(const tdn_blend_space *s, const float *p, float *raw)
{
    double b[TDN_MAX_BLEND_SPACE_SAMPLES + 1];
    kernel_row(s, p, b);
    solve(s, b);
    for (int i = 0; i < s->sample_count; i++)
        raw[i] = (float)b[i];
}
