/* tendon core: CPU skinning, linear blend (LBS) and dual quaternion (DQS).
 *
 * LBS blends the 4 influence matrices with the raw weights into one matrix, transforms the
 * point and the normal by it, then divides the point by the weight sum and the normal by its
 * length: one division and one square root per vertex and no branch. This loop is bound by
 * instruction count (DESIGN section 6), so it is written with explicit SIMD: 128-bit SSE2 on
 * every x86-64, 256-bit FMA when the build targets AVX2 (x86-64-v3), plain C elsewhere or when
 * TENDON_NO_SIMD is defined. The plain C path is the reference the others follow. */
#include "internal.h"
#include "tendon/skin.h"

#if !defined(TENDON_NO_SIMD) && defined(__AVX2__) && defined(__FMA__)
#  include <immintrin.h>
#  define TDN_SKIN_AVX2 1
#elif !defined(TENDON_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#  include <emmintrin.h>
#  define TDN_SKIN_SSE2 1
#endif

/* Cheap argument checks plus one pass over every joint index, so that a bad job fails before
 * any vertex is written. */
static tdn_result check_job(const tdn_skin_job *job, int need_palette)
{
    if (!job || job->vertex_count < 0)
        return TDN_ERR_ARGUMENT;
    if (job->vertex_count == 0)
        return TDN_OK;
    if (!job->positions || !job->joints || !job->weights || !job->out_positions
        || (need_palette && !job->palette) || (job->normals && !job->out_normals))
        return TDN_ERR_ARGUMENT;
    /* The largest index, as a max reduction the compiler vectorizes. */
    const uint16_t *joints = job->joints;
    size_t n = (size_t)job->vertex_count * 4;
    uint16_t top = 0;
    for (size_t i = 0; i < n; i++)
        top = joints[i] > top ? joints[i] : top;
    return (int)top < job->palette_count ? TDN_OK : TDN_ERR_ARGUMENT;
}

#if defined(TDN_SKIN_SSE2) || defined(TDN_SKIN_AVX2)

#define SPLAT(v, i) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(i, i, i, i))

/* Lanes of `keep` set: a, else b. */
static inline __m128 select_ps(__m128 keep, __m128 a, __m128 b)
{
    return _mm_or_ps(_mm_and_ps(keep, a), _mm_andnot_ps(keep, b));
}

/* The 3 floats at p in lanes 0..2 (reads exactly 3 floats). */
static inline __m128 load3(const float *p)
{
    __m128 xy = _mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(const void *)p);
    return _mm_movelh_ps(xy, _mm_load_ss(p + 2));
}

static inline void store3(float *dst, __m128 v)
{
    _mm_storel_pi((__m64 *)(void *)dst, v);
    _mm_store_ss(dst + 2, _mm_movehl_ps(v, v));
}

/* One vertex: the blended columns c0..c3 (weighted by the raw weights) are computed by the
 * ISA-specific part below; this finishes the vertex. ws holds the weight sum in every lane. */
static inline void lbs_finish(__m128 c0, __m128 c1, __m128 c2, __m128 c3, __m128 ws, const float *p,
                              const float *n, int with_normals, __m128 *out_p, __m128 *out_n)
{
    __m128 keep = _mm_cmpgt_ps(ws, _mm_setzero_ps()); /* false for a sum <= 0 or NaN */
    __m128 pv = load3(p);
    __m128 q = _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, SPLAT(pv, 0)), _mm_mul_ps(c1, SPLAT(pv, 1))),
                          _mm_add_ps(_mm_mul_ps(c2, SPLAT(pv, 2)), c3));
    if (!with_normals) {
        /* times 1/W as below, so positions have the same bits with or without normals */
        *out_p = select_ps(keep, _mm_mul_ps(q, _mm_div_ps(_mm_set1_ps(1.0f), ws)), pv);
        return;
    }
    __m128 nv = load3(n);
    __m128 r = _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, SPLAT(nv, 0)), _mm_mul_ps(c1, SPLAT(nv, 1))),
                          _mm_mul_ps(c2, SPLAT(nv, 2)));
    __m128 rr = _mm_mul_ps(r, r);
    /* Lanes 0..2 only: lane 3 carries the matrices' bottom row. The floor keeps a zero normal
     * zero instead of 0 * inf. */
    __m128 len2 = _mm_max_ps(_mm_add_ps(_mm_add_ps(SPLAT(rr, 0), SPLAT(rr, 1)), SPLAT(rr, 2)),
                             _mm_set1_ps(1e-30f));
    /* One division for both reciprocals: [1/W, 1/|r|, ...]. */
    __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), _mm_unpacklo_ps(ws, _mm_sqrt_ps(len2)));
    *out_p = select_ps(keep, _mm_mul_ps(q, SPLAT(inv, 0)), pv);
    *out_n = select_ps(keep, _mm_mul_ps(r, SPLAT(inv, 1)), nv);
}

#if defined(TDN_SKIN_AVX2)
/* Columns 0|1 and 2|3 of each matrix as two 256-bit rows: 8 FMAs blend the whole matrix. */
static inline void lbs_vertex(const tdn_mat4 *palette, const uint16_t *j, const float *w, const float *p,
                              const float *n, int with_normals, __m128 *out_p, __m128 *out_n)
{
    const float *m0 = palette[j[0]].m, *m1 = palette[j[1]].m, *m2 = palette[j[2]].m, *m3 = palette[j[3]].m;
    __m256 w0 = _mm256_broadcast_ss(w), w1 = _mm256_broadcast_ss(w + 1);
    __m256 w2 = _mm256_broadcast_ss(w + 2), w3 = _mm256_broadcast_ss(w + 3);
    __m256 c01 = _mm256_mul_ps(_mm256_loadu_ps(m0), w0);
    __m256 c23 = _mm256_mul_ps(_mm256_loadu_ps(m0 + 8), w0);
    c01 = _mm256_fmadd_ps(_mm256_loadu_ps(m1), w1, c01);
    c23 = _mm256_fmadd_ps(_mm256_loadu_ps(m1 + 8), w1, c23);
    c01 = _mm256_fmadd_ps(_mm256_loadu_ps(m2), w2, c01);
    c23 = _mm256_fmadd_ps(_mm256_loadu_ps(m2 + 8), w2, c23);
    c01 = _mm256_fmadd_ps(_mm256_loadu_ps(m3), w3, c01);
    c23 = _mm256_fmadd_ps(_mm256_loadu_ps(m3 + 8), w3, c23);
    __m128 wv = _mm_loadu_ps(w);
    __m128 ws = _mm_add_ps(wv, _mm_shuffle_ps(wv, wv, _MM_SHUFFLE(2, 3, 0, 1)));
    ws = _mm_add_ps(ws, _mm_shuffle_ps(ws, ws, _MM_SHUFFLE(1, 0, 3, 2)));
    lbs_finish(_mm256_castps256_ps128(c01), _mm256_extractf128_ps(c01, 1), _mm256_castps256_ps128(c23),
               _mm256_extractf128_ps(c23, 1), ws, p, n, with_normals, out_p, out_n);
}
#else
static inline void lbs_vertex(const tdn_mat4 *palette, const uint16_t *j, const float *w, const float *p,
                              const float *n, int with_normals, __m128 *out_p, __m128 *out_n)
{
    const float *m0 = palette[j[0]].m, *m1 = palette[j[1]].m, *m2 = palette[j[2]].m, *m3 = palette[j[3]].m;
    __m128 wv = _mm_loadu_ps(w);
    __m128 w0 = SPLAT(wv, 0), w1 = SPLAT(wv, 1), w2 = SPLAT(wv, 2), w3 = SPLAT(wv, 3);
    __m128 c[4];
    for (int k = 0; k < 4; k++) /* pairwise sums: two short dependency chains per column */
        c[k] = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_loadu_ps(m0 + 4 * k), w0), _mm_mul_ps(_mm_loadu_ps(m1 + 4 * k), w1)),
                          _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(m2 + 4 * k), w2), _mm_mul_ps(_mm_loadu_ps(m3 + 4 * k), w3)));
    __m128 ws = _mm_add_ps(wv, _mm_shuffle_ps(wv, wv, _MM_SHUFFLE(2, 3, 0, 1)));
    ws = _mm_add_ps(ws, _mm_shuffle_ps(ws, ws, _MM_SHUFFLE(1, 0, 3, 2)));
    lbs_finish(c[0], c[1], c[2], c[3], ws, p, n, with_normals, out_p, out_n);
}
#endif

/* with_normals is a constant at each call site, so each loop is specialized. Every vertex but
 * the last stores 4 lanes (the 4th is overwritten by the next vertex): one store, not three. */
static inline void lbs_run(const tdn_skin_job *job, int with_normals)
{
    const int count = job->vertex_count;
    const float *pos = job->positions, *nrm = job->normals, *wts = job->weights;
    const uint16_t *jts = job->joints;
    float *out_p = job->out_positions, *out_n = job->out_normals;
    __m128 p, n = _mm_setzero_ps();
    for (int v = 0; v < count - 1; v++) {
        lbs_vertex(job->palette, jts + 4 * v, wts + 4 * v, pos + 3 * v, with_normals ? nrm + 3 * v : NULL,
                   with_normals, &p, &n);
        _mm_storeu_ps(out_p + 3 * v, p);
        if (with_normals)
            _mm_storeu_ps(out_n + 3 * v, n);
    }
    int last = count - 1;
    lbs_vertex(job->palette, jts + 4 * last, wts + 4 * last, pos + 3 * last,
               with_normals ? nrm + 3 * last : NULL, with_normals, &p, &n);
    store3(out_p + 3 * last, p);
    if (with_normals)
        store3(out_n + 3 * last, n);
}

#else /* plain C */

static inline void lbs_run(const tdn_skin_job *job, int with_normals)
{
    for (int v = 0; v < job->vertex_count; v++) {
        const uint16_t *j = job->joints + 4 * v;
        const float *w = job->weights + 4 * v, *p = job->positions + 3 * v;
        float *op = job->out_positions + 3 * v;
        float c[12] = { 0 }; /* upper 3 rows of the blended matrix, column-major */
        for (int k = 0; k < 4; k++) {
            const float *m = job->palette[j[k]].m;
            for (int col = 0; col < 4; col++)
                for (int row = 0; row < 3; row++)
                    c[col * 3 + row] += w[k] * m[col * 4 + row];
        }
        float ws = w[0] + w[1] + w[2] + w[3];
        if (!(ws > 0.0f)) { /* left where it is */
            for (int i = 0; i < 3; i++) {
                op[i] = p[i];
                if (with_normals)
                    job->out_normals[3 * v + i] = job->normals[3 * v + i];
            }
            continue;
        }
        for (int row = 0; row < 3; row++)
            op[row] = (c[row] * p[0] + c[3 + row] * p[1] + c[6 + row] * p[2] + c[9 + row]) / ws;
        if (with_normals) {
            const float *n = job->normals + 3 * v;
            float r[3];
            for (int row = 0; row < 3; row++)
                r[row] = c[row] * n[0] + c[3 + row] * n[1] + c[6 + row] * n[2];
            float len = sqrtf(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
            float inv = len > 0.0f ? 1.0f / len : 0.0f;
            for (int row = 0; row < 3; row++)
                job->out_normals[3 * v + row] = r[row] * inv;
        }
    }
}

#endif

tdn_result tdn_skin_lbs(const tdn_skin_job *job)
{
    tdn_result res = check_job(job, 1);
    if (res != TDN_OK || job->vertex_count == 0)
        return res;
    if (job->normals)
        lbs_run(job, 1);
    else
        lbs_run(job, 0);
    return TDN_OK;
}

/* ---- dual quaternions ---- */

tdn_dual_quat tdn_dual_quat_from_mat4(const tdn_mat4 *m)
{
    /* Normalizing the columns removes scale (uniform or not) and leaves the rotation. */
    tdn_mat4 rot = tdn_mat4_identity();
    for (int col = 0; col < 3; col++) {
        tdn_vec3 axis = tdn_vec3_normalize(tdn_vec3_make(m->m[col * 4], m->m[col * 4 + 1], m->m[col * 4 + 2]));
        rot.m[col * 4] = axis.x;
        rot.m[col * 4 + 1] = axis.y;
        rot.m[col * 4 + 2] = axis.z;
    }
    tdn_dual_quat dq;
    dq.real = tdn_quat_normalize(tdn_quat_from_mat4(&rot));
    tdn_quat t = tdn_quat_make(0.5f * m->m[12], 0.5f * m->m[13], 0.5f * m->m[14], 0.0f);
    dq.dual = tdn_quat_mul(t, dq.real);
    return dq;
}

void tdn_dual_quat_palette(const tdn_mat4 *palette, int count, tdn_dual_quat *out)
{
    if (!palette || !out)
        return;
    for (int i = 0; i < count; i++)
        out[i] = tdn_dual_quat_from_mat4(&palette[i]);
}

/* Translation of a unit dual quaternion: 2 * dual * conj(real). */
static tdn_vec3 dq_translation(const tdn_dual_quat *dq)
{
    tdn_quat t = tdn_quat_mul(dq->dual, tdn_quat_conjugate(dq->real));
    return tdn_vec3_make(2.0f * t.x, 2.0f * t.y, 2.0f * t.z);
}

tdn_vec3 tdn_dual_quat_transform_point(const tdn_dual_quat *dq, tdn_vec3 p)
{
    return tdn_vec3_add(tdn_quat_rotate(dq->real, p), dq_translation(dq));
}

static inline tdn_dual_quat dq_influence(const tdn_skin_job *job, int joint)
{
    return job->dual_quats ? job->dual_quats[joint] : tdn_dual_quat_from_mat4(&job->palette[joint]);
}

static inline void quat_axpy(tdn_quat *acc, float w, tdn_quat q)
{
    acc->x += w * q.x;
    acc->y += w * q.y;
    acc->z += w * q.z;
    acc->w += w * q.w;
}

tdn_result tdn_skin_dqs(const tdn_skin_job *job)
{
    tdn_result res = check_job(job, !job || !job->dual_quats);
    if (res != TDN_OK)
        return res;
    for (int v = 0; v < job->vertex_count; v++) {
        const uint16_t *j = job->joints + 4 * v;
        const float *w = job->weights + 4 * v;
        tdn_vec3 p = tdn_vec3_make(job->positions[3 * v], job->positions[3 * v + 1], job->positions[3 * v + 2]);
        tdn_vec3 n = { 0.0f, 0.0f, 0.0f };
        if (job->normals)
            n = tdn_vec3_make(job->normals[3 * v], job->normals[3 * v + 1], job->normals[3 * v + 2]);
        tdn_dual_quat first = dq_influence(job, j[0]);
        tdn_dual_quat sum = { { 0.0f, 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.0f, 0.0f } };
        quat_axpy(&sum.real, w[0], first.real);
        quat_axpy(&sum.dual, w[0], first.dual);
        for (int k = 1; k < 4; k++) {
            tdn_dual_quat dq = dq_influence(job, j[k]);
            /* q and -q are the same rotation: take the one on the first influence's side. */
            float wk = tdn_quat_dot(dq.real, first.real) < 0.0f ? -w[k] : w[k];
            quat_axpy(&sum.real, wk, dq.real);
            quat_axpy(&sum.dual, wk, dq.dual);
        }
        float ws = w[0] + w[1] + w[2] + w[3];
        float len2 = tdn_quat_dot(sum.real, sum.real);
        if (ws > 0.0f && len2 > 1e-12f) { /* else: left where it is */
            float inv = 1.0f / sqrtf(len2);
            sum.real = tdn_quat_make(sum.real.x * inv, sum.real.y * inv, sum.real.z * inv, sum.real.w * inv);
            sum.dual = tdn_quat_make(sum.dual.x * inv, sum.dual.y * inv, sum.dual.z * inv, sum.dual.w * inv);
            p = tdn_dual_quat_transform_point(&sum, p);
            n = tdn_quat_rotate(sum.real, n);
        }
        job->out_positions[3 * v] = p.x;
        job->out_positions[3 * v + 1] = p.y;
        job->out_positions[3 * v + 2] = p.z;
        if (job->normals) {
            job->out_normals[3 * v] = n.x;
            job->out_normals[3 * v + 1] = n.y;
            job->out_normals[3 * v + 2] = n.z;
        }
    }
    return TDN_OK;
}
