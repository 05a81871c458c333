/* tendon core: gradient bands in polar space (Johansen 2009, section 6.3), for 2D velocity
 * blend spaces. A pair (i, j) and a query p are compared in (magnitude, angle) coordinates:
 * the pair vector is ((m_j - m_i) / mean, A * angle(i -> j)), the query's vector
 * ((|p| - m_i) / mean, A * angle(i -> p)), mean = (m_i + m_j) / 2, A the angle weight; the
 * band is 1 - (query . pair) / |pair|^2. The sample at the origin, if any, borrows the query's
 * direction (see blend_space.h). */
#include <float.h>

#include "blend_space_internal.h"

#define ANGLE_WEIGHT2 (TDN_BLEND_SPACE_POLAR_ANGLE_WEIGHT * TDN_BLEND_SPACE_POLAR_ANGLE_WEIGHT)
#define PI_F 3.14159265358979323846f

void tdn__bs_polar_layout(tdn_blend_space *s, tdn__bs_carver *c)
{
    const size_t n = (size_t)s->sample_count;
    s->polar_mag = tdn__bs_carve(c, n * sizeof(float), sizeof(float));
    s->polar_dir = tdn__bs_carve(c, 2 * n * sizeof(float), sizeof(float));
    s->polar_angle = tdn__bs_carve(c, n * n * sizeof(float), sizeof(float));
    s->polar_inv_mean = tdn__bs_carve(c, n * n * sizeof(float), sizeof(float));
    s->polar_inv_len2 = tdn__bs_carve(c, n * n * sizeof(float), sizeof(float));
    s->polar_opposite = tdn__bs_carve(c, n * n, 1);
}

/* The signed angle (radians, (-pi, pi]) from unit direction u to point p; 0 for p at the
 * origin. The same expression serves creation and queries, so a query at a sample's point
 * reproduces the stored angles exactly. */
static inline float angle_to(const float *u, const float *p)
{
    float cross = u[0] * p[1] - u[1] * p[0], dot = u[0] * p[0] + u[1] * p[1];
    return cross == 0.0f && dot == 0.0f ? 0.0f : atan2f(cross, dot);
}

static inline float magnitude(const float *p) { return sqrtf(p[0] * p[0] + p[1] * p[1]); }

void tdn__bs_polar_build(tdn_blend_space *s)
{
    const int n = s->sample_count;
    const float *pts = s->points;
    s->polar_origin = -1;
    for (int i = 0; i < n; i++) {
        const float *p = pts + 2 * i;
        float m = magnitude(p);
        s->polar_mag[i] = m;
        if (p[0] == 0.0f && p[1] == 0.0f) {
            s->polar_origin = i; /* at most one: duplicates were rejected */
            s->polar_dir[2 * i] = s->polar_dir[2 * i + 1] = 0.0f;
        } else {
            double dm = sqrt((double)p[0] * p[0] + (double)p[1] * p[1]);
            s->polar_dir[2 * i] = (float)(p[0] / dm);
            s->polar_dir[2 * i + 1] = (float)(p[1] / dm);
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const size_t ij = (size_t)i * (size_t)n + (size_t)j;
            const float *pi = pts + 2 * i, *pj = pts + 2 * j;
            s->polar_inv_mean[ij] = i == j ? 0.0f : 2.0f / (s->polar_mag[i] + s->polar_mag[j]);
            s->polar_angle[ij] = 0.0f;
            s->polar_inv_len2[ij] = 0.0f;
            s->polar_opposite[ij] = 0;
            if (i == j || i == s->polar_origin || j == s->polar_origin)
                continue;
            /* exactly opposite: the cross product of the given coordinates is 0 (products of
             * floats are exact in double) and the dot product negative */
            double cross = (double)pi[0] * pj[1] - (double)pi[1] * pj[0];
            double dot = (double)pi[0] * pj[0] + (double)pi[1] * pj[1];
            float angle = angle_to(s->polar_dir + 2 * i, pj);
            if (cross == 0.0 && dot < 0.0) {
                s->polar_opposite[ij] = 1;
                angle = PI_F;
            }
            float dmag = (s->polar_mag[j] - s->polar_mag[i]) * s->polar_inv_mean[ij];
            float len2 = dmag * dmag + ANGLE_WEIGHT2 * angle * angle;
            s->polar_angle[ij] = angle;
            s->polar_inv_len2[ij] = len2 > 0.0f ? 1.0f / len2 : 0.0f; /* 0: the pair never limits i */
        }
}

void tdn__bs_polar_weights(const tdn_blend_space *s, const float *p, float *raw)
{
    const int n = s->sample_count, origin = s->polar_origin;
    const float mp = magnitude(p);
    float angle_p[TDN_MAX_BLEND_SPACE_SAMPLES]; /* signed angle from sample i's direction to p */
    for (int i = 0; i < n; i++)
        angle_p[i] = i == origin ? 0.0f : angle_to(s->polar_dir + 2 * i, p);
    for (int i = 0; i < n; i++) {
        const float mi = s->polar_mag[i];
        float h = FLT_MAX;
        for (int j = 0; j < n; j++) {
            if (j == i)
                continue;
            const size_t ij = (size_t)i * (size_t)n + (size_t)j;
            const float inv_mean = s->polar_inv_mean[ij];
            const float dmag_ij = (s->polar_mag[j] - mi) * inv_mean, dmag_ip = (mp - mi) * inv_mean;
            float hj;
            if (i == origin) {
                /* i takes p's direction: angle i -> p is 0, angle i -> j is angle p -> j */
                const float a = angle_p[j];
                hj = 1.0f - dmag_ip * dmag_ij / (dmag_ij * dmag_ij + ANGLE_WEIGHT2 * a * a);
            } else if (j == origin) {
                /* j takes p's direction: angle i -> j equals angle i -> p */
                const float a2 = ANGLE_WEIGHT2 * angle_p[i] * angle_p[i];
                hj = 1.0f - (dmag_ip * dmag_ij + a2) / (dmag_ij * dmag_ij + a2);
            } else {
                const float a_ip = s->polar_opposite[ij] ? fabsf(angle_p[i]) : angle_p[i];
                hj = 1.0f - (dmag_ip * dmag_ij + ANGLE_WEIGHT2 * a_ip * s->polar_angle[ij]) * s->polar_inv_len2[ij];
            }
            h = hj < h ? hj : h;
        }
        raw[i] = h;
    }
}
