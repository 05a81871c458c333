/* tendon core: CPU skinning, linear blend (LBS) and dual quaternion (DQS).
 *
 * LBS blends the influence matrices with the raw weights into one matrix, transforms the point
 * and the normal by it, then divides the point by the weight sum W and the normal by its
 * length, with no branch. A job whose weights were normalized up front and whose normals stay
 * raw skips both in a direct loop that stores each vertex as it is blended (with SSE2 from a
 * per-job copy of the palette laid out for it). The loop exists for 4 and for 8 influences per
 * vertex (8 blends as two groups of 4, added); other counts go through it in blocks copied with
 * the missing influences weighing 0. A vertex whose W is not positive is only flagged in the loop; a
 * second pass copies such vertices, and runs only when one exists. The loop is bound by
 * instruction count, by the divider and by how much latency the out-of-order window can hide
 * (docs/benchmarks.md, skin), so it is written with explicit SIMD: 128-bit SSE2 on every x86-64,
 * 256-bit FMA when the build targets AVX2 (x86-64-v3), plain C elsewhere or when
 * TENDON_NO_SIMD is defined. The plain C path is the reference the others follow (tests
 * compare every path against an independent per-influence sum). */
#include <float.h>
#include <stdio.h>

#include "internal.h"
#include "tendon/skin.h"

#if !defined(TENDON_NO_SIMD) && defined(__AVX2__) && defined(__FMA__)
#  include <immintrin.h>
#  define TDN_SKIN_AVX2 1
#elif !defined(TENDON_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#  include <emmintrin.h>
#  define TDN_SKIN_SSE2 1
#endif

/* Forced inline, the loop and its helpers, so that each call site's constant with_normals and
 * influences specialize the whole loop (gcc otherwise keeps one copy with the tests inside, or
 * calls the helpers out of line once there are several instances). */
#if defined(__GNUC__)
#  define TDN_SKIN_INLINE inline __attribute__((always_inline))
#else
#  define TDN_SKIN_INLINE inline
#endif

/* Cheap argument checks plus one pass over every joint index, so that a bad job fails before
 * any vertex is written. */
static tdn_result check_job(const tdn_skin_job *job, int need_palette, tdn_error *err)
{
    if (!job)
        return tdn__null(err, "job");
    if (job->vertex_count < 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "job.vertex_count", "%d vertices", job->vertex_count);
    if (job->influences < 1 || job->influences > TDN_SKIN_MAX_INFLUENCES)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "job.influences",
                         "%d influences per vertex: the joints and weights arrays hold 1 to %d per vertex (4 per "
                         "glTF JOINTS_n set)",
                         job->influences, TDN_SKIN_MAX_INFLUENCES);
    if (job->vertex_count == 0)
        return TDN_OK;
    if (!job->positions || !job->joints || !job->weights || !job->out_positions)
        return tdn__null(err, !job->positions ? "job.positions"
                              : !job->joints  ? "job.joints"
                              : !job->weights ? "job.weights"
                                              : "job.out_positions");
    if (need_palette && !job->palette)
        return tdn__null(err, "job.palette");
    if (job->normals && !job->out_normals)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "job.out_normals", "job.normals are given and job.out_normals is NULL");
    /* The largest index, as a max reduction the compiler vectorizes; 32 lanes make several
     * independent vector chains instead of one latency-bound accumulator. */
    const uint16_t *joints = job->joints;
    const size_t n = (size_t)job->vertex_count * (size_t)job->influences;
    uint16_t lanes[32] = { 0 };
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 32; k++)
            lanes[k] = joints[i + k] > lanes[k] ? joints[i + k] : lanes[k];
    uint16_t top = 0;
    for (; i < n; i++)
        top = joints[i] > top ? joints[i] : top;
    for (int k = 0; k < 32; k++)
        top = lanes[k] > top ? lanes[k] : top;
    if ((int)top < job->palette_count)
        return TDN_OK;
    for (i = 0; joints[i] != top; i++)
        ;
    char where[48];
    snprintf(where, sizeof where, "job.joints[%zu]", i);
    return tdn__fail(err, TDN_ERR_ARGUMENT, where, "vertex %zu names palette entry %d, the palette has %d",
                     i / (size_t)job->influences, top, job->palette_count);
}

/* The weight sum, added in the order the SIMD paths add it so that every path agrees on which
 * vertices are left unskinned: influences k and k + 4 into lane k, then (w0 + w2) + (w1 + w3)
 * over the lanes. */
static inline float weight_sum(const float *w, int influences)
{
    float lane[4];
    for (int k = 0; k < 4; k++)
        lane[k] = k < influences ? w[k] : 0.0f;
    for (int k = 4; k < influences; k++)
        lane[k - 4] += w[k];
    return (lane[0] + lane[2]) + (lane[1] + lane[3]);
}

/* Copies every vertex whose weights do not sum to a positive number (the rare second pass). */
static void copy_unweighted(const tdn_skin_job *job)
{
    for (int v = 0; v < job->vertex_count; v++) {
        if (weight_sum(job->weights + (size_t)job->influences * (size_t)v, job->influences) > 0.0f)
            continue;
        for (int i = 0; i < 3; i++) {
            job->out_positions[3 * v + i] = job->positions[3 * v + i];
            if (job->normals)
                job->out_normals[3 * v + i] = job->normals[3 * v + i];
        }
    }
}

#if defined(TDN_SKIN_SSE2) || defined(TDN_SKIN_AVX2)

/* Vertices go in pairs for blending (an AVX2 register holds both) and in quads for the
 * division: four vertices share one square root and one division (two with SSE2), the divider
 * being the scarcest unit. Inputs and outputs are read and written 4 floats at a time; the 4th
 * float is the next vertex's, rewritten by it, so the last quad goes through padded copies. */

#  if defined(TDN_SKIN_AVX2)
/* 8 multiply-adds blend 4 influences' matrices as two 256-bit rows: columns 0|1 and 2|3. */
static TDN_SKIN_INLINE void blend_group(const tdn_mat4 *palette, const uint16_t *j, const float *w, __m256 *c01,
                                        __m256 *c23)
{
    const float *m0 = palette[j[0]].m, *m1 = palette[j[1]].m, *m2 = palette[j[2]].m, *m3 = palette[j[3]].m;
    __m256 w0 = _mm256_broadcast_ss(w), w1 = _mm256_broadcast_ss(w + 1);
    __m256 w2 = _mm256_broadcast_ss(w + 2), w3 = _mm256_broadcast_ss(w + 3);
    __m256 a = _mm256_mul_ps(_mm256_loadu_ps(m0), w0), b = _mm256_mul_ps(_mm256_loadu_ps(m0 + 8), w0);
    a = _mm256_fmadd_ps(_mm256_loadu_ps(m1), w1, a);
    b = _mm256_fmadd_ps(_mm256_loadu_ps(m1 + 8), w1, b);
    a = _mm256_fmadd_ps(_mm256_loadu_ps(m2), w2, a);
    b = _mm256_fmadd_ps(_mm256_loadu_ps(m2 + 8), w2, b);
    *c01 = _mm256_fmadd_ps(_mm256_loadu_ps(m3), w3, a);
    *c23 = _mm256_fmadd_ps(_mm256_loadu_ps(m3 + 8), w3, b);
}

/* One vertex's blended matrix; 8 influences as two groups of 4, added (a second group that
 * weighs 0 adds exactly nothing). */
static TDN_SKIN_INLINE void blend_matrix(const tdn_mat4 *palette, const uint16_t *j, const float *w, int influences,
                                         __m256 *c01, __m256 *c23)
{
    blend_group(palette, j, w, c01, c23);
    if (influences == 8) {
        __m256 d01, d23;
        blend_group(palette, j + 4, w + 4, &d01, &d23);
        *c01 = _mm256_add_ps(*c01, d01);
        *c23 = _mm256_add_ps(*c23, d23);
    }
}

/* [vertex a's weights | vertex b's] (w and w + influences), 8 folded to 4 lanes as weight_sum
 * folds them. */
static TDN_SKIN_INLINE __m256 pair_weights(const float *w, int influences)
{
    if (influences == 4)
        return _mm256_loadu_ps(w);
    __m256 a = _mm256_loadu_ps(w), b = _mm256_loadu_ps(w + 8);
    return _mm256_add_ps(_mm256_permute2f128_ps(a, b, 0x20), _mm256_permute2f128_ps(a, b, 0x31));
}

/* [x[0..3] | x[3..6]]: vertex a's and vertex b's 3 floats (and one more) in the two halves. */
static TDN_SKIN_INLINE __m256 load_pair(const float *x)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(x)), _mm_loadu_ps(x + 3), 1);
}

#    define SPLAT8(v, i) _mm256_permute_ps((v), _MM_SHUFFLE(i, i, i, i)) /* lane i of each half */

/* A pair of vertices between the two stages: blended point and normal, not yet divided, and
 * [W, |r|^2] in lanes 0 and 1 of each half. Vertex a is the low half, vertex b the high half,
 * so each step serves both. */
typedef struct lbs_pending {
    __m256 q, r, s;
} lbs_pending;

/* Stage 1 for vertices v and v+1 (the arrays point at vertex v). */
static TDN_SKIN_INLINE lbs_pending lbs_pair_blend(const tdn_mat4 *palette, const uint16_t *j, const float *w,
                                                  int influences, const float *p, const float *n, int with_normals)
{
    __m256 a01, a23, b01, b23;
    blend_matrix(palette, j, w, influences, &a01, &a23);
    blend_matrix(palette, j + influences, w + influences, influences, &b01, &b23);
    __m256 c0 = _mm256_permute2f128_ps(a01, b01, 0x20), c1 = _mm256_permute2f128_ps(a01, b01, 0x31);
    __m256 c2 = _mm256_permute2f128_ps(a23, b23, 0x20), c3 = _mm256_permute2f128_ps(a23, b23, 0x31);
    __m256 pv = load_pair(p);
    lbs_pending out;
    out.q = _mm256_add_ps(_mm256_fmadd_ps(c0, SPLAT8(pv, 0), c3),
                          _mm256_fmadd_ps(c1, SPLAT8(pv, 1), _mm256_mul_ps(c2, SPLAT8(pv, 2))));
    out.r = _mm256_setzero_ps();
    if (with_normals) {
        __m256 nv = load_pair(n);
        out.r = _mm256_fmadd_ps(c0, SPLAT8(nv, 0),
                                _mm256_fmadd_ps(c1, SPLAT8(nv, 1), _mm256_mul_ps(c2, SPLAT8(nv, 2))));
    }
    /* [W, |r|^2] by one transpose of weights and r * r. Lane 3 of r is 0 for affine matrices.
     * W adds as (w0 + w2) + (w1 + w3), like weight_sum. */
    __m256 wv = pair_weights(w, influences), rr = _mm256_mul_ps(out.r, out.r);
    __m256 u = _mm256_add_ps(_mm256_unpacklo_ps(wv, rr), _mm256_unpackhi_ps(wv, rr));
    out.s = _mm256_add_ps(u, _mm256_permute_ps(u, _MM_SHUFFLE(1, 0, 3, 2)));
    return out;
}

static TDN_SKIN_INLINE void store_pair(float *out, __m256 x)
{
    _mm_storeu_ps(out, _mm256_castps256_ps128(x));
    _mm_storeu_ps(out + 3, _mm256_extractf128_ps(x, 1));
}

/* Stage 2: divide (when `divide`), renormalize the normals (when `renormalize`) and store the 4
 * vertices of pairs p0 (vertices v, v+1) and p1 (v+2, v+3); out_* point at vertex v. One square
 * root and one division serve all four. */
static TDN_SKIN_INLINE void lbs_quad_finish(lbs_pending p0, lbs_pending p1, int with_normals, int divide,
                                            int renormalize, float *out_p, float *out_n, __m256 *bad)
{
    renormalize = with_normals && renormalize;
    __m256 inv = _mm256_set1_ps(1.0f);
    if (divide || renormalize) {
        /* [Wa, |ra|^2, Wc, |rc|^2 | Wb, |rb|^2, Wd, |rd|^2] */
        __m256 t = _mm256_shuffle_ps(p0.s, p1.s, _MM_SHUFFLE(1, 0, 1, 0));
        if (divide)
            *bad = _mm256_or_ps(*bad, _mm256_cmp_ps(t, _mm256_setzero_ps(), _CMP_NGT_UQ));
        __m256 d = renormalize ? _mm256_blend_ps(t, _mm256_sqrt_ps(t), 0xaa) : t; /* W, |r| */
        /* The floor keeps a zero normal zero instead of 0 * inf. */
        inv = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_max_ps(d, _mm256_set1_ps(1e-30f)));
    }
    store_pair(out_p, divide ? _mm256_mul_ps(p0.q, SPLAT8(inv, 0)) : p0.q);
    store_pair(out_p + 6, divide ? _mm256_mul_ps(p1.q, SPLAT8(inv, 2)) : p1.q);
    if (with_normals && (divide || renormalize)) {
        /* Renormalized: by 1 / |r|; raw: by 1 / W, as the blended matrix is divided. */
        store_pair(out_n, _mm256_mul_ps(p0.r, renormalize ? SPLAT8(inv, 1) : SPLAT8(inv, 0)));
        store_pair(out_n + 6, _mm256_mul_ps(p1.r, renormalize ? SPLAT8(inv, 3) : SPLAT8(inv, 2)));
    } else if (with_normals) {
        store_pair(out_n, p0.r);
        store_pair(out_n + 6, p1.r);
    }
}

/* Vertices one step of the direct loop (no division, no renormalization) skins: a pair. */
#    define LBS_STEP 2

/* One step of the direct loop: blend and store vertices v and v+1 (the arrays point at v). The
 * palette's rows are an SSE2 layout; here they are always NULL. */
static TDN_SKIN_INLINE void lbs_direct_step(const tdn_mat4 *palette, const float *rows, const uint16_t *j,
                                            const float *w, int influences, const float *p, const float *n,
                                            int with_normals, float *out_p, float *out_n)
{
    (void)rows;
    lbs_pending x = lbs_pair_blend(palette, j, w, influences, p, n, with_normals);
    store_pair(out_p, x.q);
    if (with_normals)
        store_pair(out_n, x.r);
}

typedef __m256 bad_mask;
static inline bad_mask bad_none(void) { return _mm256_setzero_ps(); }
static inline int bad_any(bad_mask m) { return (_mm256_movemask_ps(m) & 0x55) != 0; } /* lanes of W */

#  else /* SSE2 */

/* Lane i in every lane. pshufd rather than shufps: it does not overwrite its source, which
 * saves a register copy per splat in SSE2 code. */
#    define SPLAT(v, i) _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), _MM_SHUFFLE(i, i, i, i)))

/* 4 influences' matrices (into m) and weights, each in every lane (into ws). */
static TDN_SKIN_INLINE void load_group(const tdn_mat4 *palette, const uint16_t *j, const float *w, const float **m,
                                       __m128 *ws)
{
    __m128 wv = _mm_loadu_ps(w);
    m[0] = palette[j[0]].m, m[1] = palette[j[1]].m, m[2] = palette[j[2]].m, m[3] = palette[j[3]].m;
    ws[0] = SPLAT(wv, 0), ws[1] = SPLAT(wv, 1), ws[2] = SPLAT(wv, 2), ws[3] = SPLAT(wv, 3);
}

/* 4 floats; aligned ones let SSE2 fold the load into the multiply that uses it. */
static TDN_SKIN_INLINE __m128 load4(const float *x, int aligned) { return aligned ? _mm_load_ps(x) : _mm_loadu_ps(x); }

/* Register k (a column, or in the rows layout a row) of 4 influences' blend, weighted by the raw
 * weights (pairwise sums: two short chains). */
static TDN_SKIN_INLINE __m128 group_column(const float *const *m, const __m128 *w, int k, int aligned)
{
    __m128 a = _mm_add_ps(_mm_mul_ps(load4(m[0] + 4 * k, aligned), w[0]),
                          _mm_mul_ps(load4(m[1] + 4 * k, aligned), w[1]));
    __m128 b = _mm_add_ps(_mm_mul_ps(load4(m[2] + 4 * k, aligned), w[2]),
                          _mm_mul_ps(load4(m[3] + 4 * k, aligned), w[3]));
    return _mm_add_ps(a, b);
}

/* Register k of the blended matrix; 8 influences as two groups of 4, added (a second group that
 * weighs 0 adds exactly nothing). */
static TDN_SKIN_INLINE __m128 blend_column(const float *const *m, const __m128 *w, int influences, int k, int aligned)
{
    __m128 c = group_column(m, w, k, aligned);
    return influences == 8 ? _mm_add_ps(c, group_column(m + 4, w + 4, k, aligned)) : c;
}

/* One vertex's blended point q = sum w_i M_i p and normal r = sum w_i A_i n, not yet divided.
 * Each column is used as soon as it is blended, which keeps register pressure low (SSE2 has 16
 * registers and the pipelined loop holds a quad's results across the next blend). */
static TDN_SKIN_INLINE void blend_vertex(const tdn_mat4 *palette, const uint16_t *j, const float *w, int influences,
                                         const float *p, const float *n, int with_normals, __m128 *q, __m128 *r)
{
    const float *m[8];
    __m128 ws[8];
    load_group(palette, j, w, m, ws);
    if (influences == 8)
        load_group(palette, j + 4, w + 4, m + 4, ws + 4);
    __m128 pv = _mm_loadu_ps(p), nv = with_normals ? _mm_loadu_ps(n) : _mm_setzero_ps();
    __m128 c = blend_column(m, ws, influences, 0, 0);
    __m128 qs = _mm_mul_ps(c, SPLAT(pv, 0)), rs = _mm_mul_ps(c, SPLAT(nv, 0));
    c = blend_column(m, ws, influences, 1, 0);
    qs = _mm_add_ps(qs, _mm_mul_ps(c, SPLAT(pv, 1)));
    rs = _mm_add_ps(rs, _mm_mul_ps(c, SPLAT(nv, 1)));
    c = blend_column(m, ws, influences, 2, 0);
    qs = _mm_add_ps(qs, _mm_mul_ps(c, SPLAT(pv, 2)));
    rs = _mm_add_ps(rs, _mm_mul_ps(c, SPLAT(nv, 2)));
    *q = _mm_add_ps(qs, blend_column(m, ws, influences, 3, 0));
    *r = with_normals ? rs : _mm_setzero_ps();
}

/* One vertex's weights, 8 folded to 4 lanes as weight_sum folds them. */
static TDN_SKIN_INLINE __m128 vertex_weights(const float *w, int influences)
{
    return influences == 8 ? _mm_add_ps(_mm_loadu_ps(w), _mm_loadu_ps(w + 4)) : _mm_loadu_ps(w);
}

/* A pair of vertices between the two stages: blended points and normals, not yet divided, and
 * [Wa, |ra|^2, Wb, |rb|^2]. */
typedef struct lbs_pending {
    __m128 qa, qb, ra, rb, s;
} lbs_pending;

/* Stage 1 for vertices v and v+1 (the arrays point at vertex v). */
static TDN_SKIN_INLINE lbs_pending lbs_pair_blend(const tdn_mat4 *palette, const uint16_t *j, const float *w,
                                                  int influences, const float *p, const float *n, int with_normals)
{
    lbs_pending out;
    blend_vertex(palette, j, w, influences, p, n, with_normals, &out.qa, &out.ra);
    blend_vertex(palette, j + influences, w + influences, influences, p + 3, with_normals ? n + 3 : NULL, with_normals,
                 &out.qb, &out.rb);
    /* One transpose of weights and r * r. Lane 3 of r is 0 for affine matrices. W adds as
     * (w0 + w2) + (w1 + w3), like weight_sum. */
    __m128 wa = vertex_weights(w, influences), wb = vertex_weights(w + influences, influences);
    __m128 rra = _mm_mul_ps(out.ra, out.ra), rrb = _mm_mul_ps(out.rb, out.rb);
    __m128 ua = _mm_add_ps(_mm_unpacklo_ps(wa, rra), _mm_unpackhi_ps(wa, rra));
    __m128 ub = _mm_add_ps(_mm_unpacklo_ps(wb, rrb), _mm_unpackhi_ps(wb, rrb));
    out.s = _mm_add_ps(_mm_movelh_ps(ua, ub), _mm_movehl_ps(ub, ua));
    return out;
}

/* A quad's 4 vectors (vertices v to v+3, in order) each times its lane of s. */
static TDN_SKIN_INLINE void scale_quad(__m128 *a, __m128 *b, __m128 *c, __m128 *d, __m128 s)
{
    *a = _mm_mul_ps(*a, SPLAT(s, 0));
    *b = _mm_mul_ps(*b, SPLAT(s, 1));
    *c = _mm_mul_ps(*c, SPLAT(s, 2));
    *d = _mm_mul_ps(*d, SPLAT(s, 3));
}

/* Stage 2: divide (when `divide`), renormalize the normals (when `renormalize`) and store the 4
 * vertices of pairs p0 (vertices v, v+1) and p1 (v+2, v+3); out_* point at vertex v. One square
 * root and two divisions serve all four. */
static TDN_SKIN_INLINE void lbs_quad_finish(lbs_pending p0, lbs_pending p1, int with_normals, int divide,
                                            int renormalize, float *out_p, float *out_n, __m128 *bad)
{
    const __m128 one = _mm_set1_ps(1.0f), tiny = _mm_set1_ps(1e-30f);
    if (divide) {
        __m128 w = _mm_shuffle_ps(p0.s, p1.s, _MM_SHUFFLE(2, 0, 2, 0)); /* Wa, Wb, Wc, Wd */
        *bad = _mm_or_ps(*bad, _mm_cmpngt_ps(w, _mm_setzero_ps()));
        __m128 inv_w = _mm_div_ps(one, _mm_max_ps(w, tiny));
        scale_quad(&p0.qa, &p0.qb, &p1.qa, &p1.qb, inv_w);
        if (with_normals && !renormalize) /* raw normals: by the divided blended matrix */
            scale_quad(&p0.ra, &p0.rb, &p1.ra, &p1.rb, inv_w);
    }
    _mm_storeu_ps(out_p, p0.qa);
    _mm_storeu_ps(out_p + 3, p0.qb);
    _mm_storeu_ps(out_p + 6, p1.qa);
    _mm_storeu_ps(out_p + 9, p1.qb);
    if (with_normals) {
        if (renormalize) {
            /* The floor keeps a zero normal zero instead of 0 * inf. */
            __m128 rr = _mm_shuffle_ps(p0.s, p1.s, _MM_SHUFFLE(3, 1, 3, 1));
            __m128 inv_r = _mm_div_ps(one, _mm_max_ps(_mm_sqrt_ps(rr), tiny));
            scale_quad(&p0.ra, &p0.rb, &p1.ra, &p1.rb, inv_r);
        }
        _mm_storeu_ps(out_n, p0.ra);
        _mm_storeu_ps(out_n + 3, p0.rb);
        _mm_storeu_ps(out_n + 6, p1.ra);
        _mm_storeu_ps(out_n + 9, p1.rb);
    }
}

/* Vertices one step of the direct loop (no division, no renormalization) skins: one, stored as
 * soon as it is blended, which holds nothing across steps (no spills with SSE2's 16 registers). */
#    define LBS_STEP 1

/* The rows layout: per joint, 3 registers (m0 m1 m2 m12 | m4 m5 m6 m13 | m8 m9 m10 m14), the
 * upper 3x3 by columns with the translation in the 4th lanes, and 4 floats of padding (a 64-byte
 * stride is one shift from the joint index, 48 bytes two instructions more). Built per job on
 * the stack (tdn_skin_lbs) when the job is large enough to repay it. */
#    define LBS_ROWS_MAX 256
#    define LBS_ROW_FLOATS 16
#    define LBS_HAS_ROWS 1

static void palette_rows(const tdn_mat4 *palette, int count, float *rows)
{
    for (int i = 0; i < count; i++) {
        float *r = rows + LBS_ROW_FLOATS * i;
        for (int col = 0; col < 3; col++) {
            for (int row = 0; row < 3; row++)
                r[4 * col + row] = palette[i].m[4 * col + row];
            r[4 * col + 3] = palette[i].m[12 + col];
        }
        for (int k = 12; k < LBS_ROW_FLOATS; k++)
            r[k] = 0.0f;
    }
}

/* One step of the direct loop: blend and store vertex v (the arrays point at it). With the
 * palette's rows (not NULL), the blend is 3 registers instead of 4 columns, the translation
 * riding in their 4th lanes: 12 loads, 12 multiplies and 9 adds for 4 influences instead of 16,
 * 16 and 12 (SSE2 has no FMA, and the loop is bound by its instruction count). */
static TDN_SKIN_INLINE void lbs_direct_step(const tdn_mat4 *palette, const float *rows, const uint16_t *j,
                                            const float *w, int influences, const float *p, const float *n,
                                            int with_normals, float *out_p, float *out_n)
{
    __m128 q, r;
    if (!rows) {
        blend_vertex(palette, j, w, influences, p, n, with_normals, &q, &r);
    } else {
        const float *m[8];
        __m128 ws[8], wv = _mm_loadu_ps(w);
        for (int k = 0; k < influences; k++)
            m[k] = rows + LBS_ROW_FLOATS * (size_t)j[k];
        ws[0] = SPLAT(wv, 0), ws[1] = SPLAT(wv, 1), ws[2] = SPLAT(wv, 2), ws[3] = SPLAT(wv, 3);
        if (influences == 8) {
            wv = _mm_loadu_ps(w + 4);
            ws[4] = SPLAT(wv, 0), ws[5] = SPLAT(wv, 1), ws[6] = SPLAT(wv, 2), ws[7] = SPLAT(wv, 3);
        }
        __m128 pv = _mm_loadu_ps(p), nv = with_normals ? _mm_loadu_ps(n) : _mm_setzero_ps();
        /* Summed as the columns are, so each blended entry is the column path's to the bit. */
        __m128 a = blend_column(m, ws, influences, 0, 1), b = blend_column(m, ws, influences, 1, 1);
        __m128 c = blend_column(m, ws, influences, 2, 1);
        /* The translation (lanes 3 of a, b, c); lane 3 of q and r is junk, overwritten by the
         * next vertex (the last vertices go through the padded tail). Same order of operations
         * as blend_vertex. */
        __m128 t = _mm_shuffle_ps(_mm_unpackhi_ps(a, b), c, _MM_SHUFFLE(3, 3, 3, 2));
        __m128 qs = _mm_mul_ps(a, SPLAT(pv, 0));
        qs = _mm_add_ps(qs, _mm_mul_ps(b, SPLAT(pv, 1)));
        qs = _mm_add_ps(qs, _mm_mul_ps(c, SPLAT(pv, 2)));
        q = _mm_add_ps(qs, t);
        r = _mm_mul_ps(a, SPLAT(nv, 0));
        r = _mm_add_ps(r, _mm_mul_ps(b, SPLAT(nv, 1)));
        r = _mm_add_ps(r, _mm_mul_ps(c, SPLAT(nv, 2)));
    }
    _mm_storeu_ps(out_p, q);
    if (with_normals)
        _mm_storeu_ps(out_n, r);
}

typedef __m128 bad_mask;
static inline bad_mask bad_none(void) { return _mm_setzero_ps(); }
static inline int bad_any(bad_mask m) { return _mm_movemask_ps(m) != 0; }

#  endif

/* The direct loop (no division, no renormalization) up to the last 1 to 4 vertices, whose
 * 4-float accesses would overrun the arrays; returns the first vertex it left. */
static TDN_SKIN_INLINE int lbs_direct_loop(const tdn_skin_job *job, const float *rows, int with_normals, int influences)
{
    /* In locals: the stores could otherwise alias *job and force reloads every vertex. */
    const int count = job->vertex_count;
    const tdn_mat4 *palette = job->palette;
    const float *pos = job->positions, *nrm = job->normals, *wts = job->weights;
    const uint16_t *jts = job->joints;
    float *out_p = job->out_positions, *out_n = job->out_normals;
    int v = 0;
    for (; v + 4 < count; v += LBS_STEP) {
        const size_t at = (size_t)influences * (size_t)v;
        lbs_direct_step(palette, rows, jts + at, wts + at, influences, pos + 3 * v, with_normals ? nrm + 3 * v : NULL,
                        with_normals, out_p + 3 * v, with_normals ? out_n + 3 * v : NULL);
    }
    return v;
}

/* The loop for 4 or 8 influences, dividing by the weight sum (`divide`) and renormalizing normals
 * (`renormalize`) or not, the direct loop reading the palette's rows when given. Returns 1 if
 * some vertex's weights do not sum to a positive number (only looked at when dividing). */
static TDN_SKIN_INLINE int lbs_run(const tdn_skin_job *job, const float *rows, int with_normals, int influences,
                                   int divide, int renormalize)
{
    const int count = job->vertex_count;
    const tdn_mat4 *palette = job->palette;
    const float *pos = job->positions, *nrm = job->normals, *wts = job->weights;
    const uint16_t *jts = job->joints;
    float *out_p = job->out_positions, *out_n = job->out_normals;
    bad_mask bad = bad_none();
    int v = 0;
    /* Without a division or a square root each vertex is stored as soon as it is blended. With
     * them, vertices go in quads (two pairs), software-pipelined: a quad is divided and stored
     * one iteration after it is blended, so its square root and division overlap the next
     * quad's blend instead of filling the out-of-order window. Both loops leave the last 1 to 4
     * vertices, whose 4-float accesses would overrun the arrays, to the padded tail. */
    if (!divide && !(with_normals && renormalize)) {
        if (rows)
            v = lbs_direct_loop(job, rows, with_normals, influences);
        else
            v = lbs_direct_loop(job, NULL, with_normals, influences);
    } else if (count > 4) {
        lbs_pending a0 = lbs_pair_blend(palette, jts, wts, influences, pos, nrm, with_normals);
        lbs_pending a1 = lbs_pair_blend(palette, jts + 2 * influences, wts + 2 * influences, influences, pos + 6,
                                        with_normals ? nrm + 6 : NULL, with_normals);
        for (v = 4; v + 4 < count; v += 4) {
            const size_t at = (size_t)influences * (size_t)v;
            lbs_pending b0 = lbs_pair_blend(palette, jts + at, wts + at, influences, pos + 3 * v,
                                            with_normals ? nrm + 3 * v : NULL, with_normals);
            lbs_pending b1 = lbs_pair_blend(palette, jts + at + 2 * influences, wts + at + 2 * influences, influences,
                                            pos + 3 * v + 6, with_normals ? nrm + 3 * v + 6 : NULL, with_normals);
            lbs_quad_finish(a0, a1, with_normals, divide, renormalize, out_p + 3 * (v - 4),
                            with_normals ? out_n + 3 * (v - 4) : NULL, &bad);
            a0 = b0;
            a1 = b1;
        }
        lbs_quad_finish(a0, a1, with_normals, divide, renormalize, out_p + 3 * (v - 4),
                        with_normals ? out_n + 3 * (v - 4) : NULL, &bad);
    }
    /* The last 1 to 4 vertices through padded copies (missing ones repeat the last). */
    const int left = count - v;
    uint16_t j[4 * TDN_SKIN_MAX_INFLUENCES];
    float w[4 * TDN_SKIN_MAX_INFLUENCES], p[16] = { 0 }, n[16] = { 0 }, op[16] = { 0 }, on[16] = { 0 };
    for (int k = 0; k < 4; k++) {
        int src = v + (k < left ? k : left - 1);
        for (int i = 0; i < influences; i++) {
            j[influences * k + i] = jts[(size_t)influences * (size_t)src + (size_t)i];
            w[influences * k + i] = wts[(size_t)influences * (size_t)src + (size_t)i];
        }
        for (int i = 0; i < 3; i++) {
            p[3 * k + i] = pos[3 * src + i];
            n[3 * k + i] = with_normals ? nrm[3 * src + i] : 0.0f;
        }
    }
    lbs_quad_finish(
        lbs_pair_blend(palette, j, w, influences, p, n, with_normals),
        lbs_pair_blend(palette, j + 2 * influences, w + 2 * influences, influences, p + 6, n + 6, with_normals),
        with_normals, divide, renormalize, op, on, &bad);
    for (int i = 0; i < 3 * left; i++) {
        out_p[3 * v + i] = op[i];
        if (with_normals)
            out_n[3 * v + i] = on[i];
    }
    return bad_any(bad);
}

#else /* plain C */

static TDN_SKIN_INLINE int lbs_run(const tdn_skin_job *job, const float *rows, int with_normals, int influences,
                                   int divide, int renormalize)
{
    (void)rows;
    int bad = 0;
    for (int v = 0; v < job->vertex_count; v++) {
        const uint16_t *j = job->joints + (size_t)influences * (size_t)v;
        const float *w = job->weights + (size_t)influences * (size_t)v, *p = job->positions + 3 * v;
        float c[12] = { 0 }; /* upper 3 rows of the blended matrix, column-major */
        for (int k = 0; k < influences; k++) {
            const float *m = job->palette[j[k]].m;
            for (int col = 0; col < 4; col++)
                for (int row = 0; row < 3; row++)
                    c[col * 3 + row] += w[k] * m[col * 4 + row];
        }
        float ws = divide ? weight_sum(w, influences) : 1.0f;
        bad |= !(ws > 0.0f);
        for (int row = 0; row < 3; row++) {
            float q = c[row] * p[0] + c[3 + row] * p[1] + c[6 + row] * p[2] + c[9 + row];
            job->out_positions[3 * v + row] = divide ? q / ws : q;
        }
        if (with_normals) {
            const float *n = job->normals + 3 * v;
            float r[3];
            for (int row = 0; row < 3; row++)
                r[row] = c[row] * n[0] + c[3 + row] * n[1] + c[6 + row] * n[2];
            /* Renormalized, or (raw) by the divided blended matrix. */
            float len = renormalize ? sqrtf(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]) : ws;
            float inv = len > 0.0f ? 1.0f / len : 0.0f;
            for (int row = 0; row < 3; row++)
                job->out_normals[3 * v + row] = r[row] * inv;
        }
    }
    return bad;
}

#endif

/* The loop's instances, 4 influences and 8 in functions of their own: one function with all
 * four let gcc allocate the 4-influence loop's registers worse (about 1% more instructions). */
#if defined(__GNUC__)
#  define TDN_SKIN_NOINLINE __attribute__((noinline))
#else
#  define TDN_SKIN_NOINLINE
#endif
/* A job's instance of the loop for its normals and its two options. */
static TDN_SKIN_INLINE int lbs_modes(const tdn_skin_job *job, const float *rows, int influences)
{
    const int divide = !job->weights_normalized, renormalize = !job->raw_normals;
    if (!job->normals)
        return divide ? lbs_run(job, rows, 0, influences, 1, 0) : lbs_run(job, rows, 0, influences, 0, 0);
    if (divide)
        return renormalize ? lbs_run(job, rows, 1, influences, 1, 1) : lbs_run(job, rows, 1, influences, 1, 0);
    return renormalize ? lbs_run(job, rows, 1, influences, 0, 1) : lbs_run(job, rows, 1, influences, 0, 0);
}

static TDN_SKIN_NOINLINE int lbs_four(const tdn_skin_job *job, const float *rows) { return lbs_modes(job, rows, 4); }

static TDN_SKIN_NOINLINE int lbs_eight(const tdn_skin_job *job, const float *rows) { return lbs_modes(job, rows, 8); }

/* A job of 4 or 8 influences through its instance of the loop. */
static int lbs_four_or_eight(const tdn_skin_job *job, const float *rows)
{
    return job->influences == 4 ? lbs_four(job, rows) : lbs_eight(job, rows);
}

/* Vertices per block of a padded job. */
#define PAD_BLOCK 64

/* Any other count as the next of 4 and 8, a block at a time: the missing influences are joint 0
 * (the palette has one, the joints being checked) at weight 0, which adds exactly nothing.
 * Returns 1 if some vertex's weights do not sum to a positive number. */
static int lbs_padded(const tdn_skin_job *job, const float *rows)
{
    const int given = job->influences, padded = given < 4 ? 4 : 8;
    uint16_t joints[PAD_BLOCK * 8];
    float weights[PAD_BLOCK * 8];
    int bad = 0;
    for (int start = 0; start < job->vertex_count; start += PAD_BLOCK) {
        const int count = job->vertex_count - start < PAD_BLOCK ? job->vertex_count - start : PAD_BLOCK;
        for (int v = 0; v < count; v++)
            for (int k = 0; k < padded; k++) {
                const size_t from = (size_t)given * (size_t)(start + v) + (size_t)k;
                joints[padded * v + k] = k < given ? job->joints[from] : 0;
                weights[padded * v + k] = k < given ? job->weights[from] : 0.0f;
            }
        tdn_skin_job block = *job;
        block.vertex_count = count;
        block.influences = padded;
        block.positions += 3 * (size_t)start;
        block.normals = job->normals ? job->normals + 3 * (size_t)start : NULL;
        block.joints = joints;
        block.weights = weights;
        block.out_positions += 3 * (size_t)start;
        block.out_normals = job->normals ? job->out_normals + 3 * (size_t)start : NULL;
        bad |= lbs_four_or_eight(&block, rows);
    }
    return bad;
}

tdn_result tdn_skin_lbs(const tdn_skin_job *job, tdn_error *err)
{
    tdn_result res = check_job(job, 1, err);
    if (res != TDN_OK || job->vertex_count == 0)
        return res;
    const float *rows = NULL;
#if defined(LBS_HAS_ROWS)
    /* Only the direct loop reads rows, and building them (about 20 instructions a joint) repays
     * itself (about 9 a vertex) from about 2 vertices per palette entry. */
    _Alignas(16) float rows_buffer[LBS_ROW_FLOATS * LBS_ROWS_MAX];
    if (job->weights_normalized && (job->raw_normals || !job->normals) && job->palette_count <= LBS_ROWS_MAX &&
        job->vertex_count >= 2 * job->palette_count) {
        palette_rows(job->palette, job->palette_count, rows_buffer);
        rows = rows_buffer;
    }
#endif
    if (job->influences == 4 || job->influences == 8 ? lbs_four_or_eight(job, rows) : lbs_padded(job, rows))
        copy_unweighted(job);
    return TDN_OK;
}

tdn_result tdn_skin_normalize_weights(float *weights, int vertex_count, int influences, tdn_error *err)
{
    if (!weights)
        return tdn__null(err, "weights");
    if (vertex_count < 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "vertex_count", "%d vertices", vertex_count);
    if (influences < 1 || influences > TDN_SKIN_MAX_INFLUENCES)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "influences", "%d influences per vertex: 1 to %d", influences,
                         TDN_SKIN_MAX_INFLUENCES);
    /* Every sum checked before any weight changes; summed in weight_sum's order, as the loop
     * would sum them. */
    for (int v = 0; v < vertex_count; v++) {
        const size_t at = (size_t)influences * (size_t)v;
        const float sum = weight_sum(weights + at, influences);
        if (!(sum > 0.0f && sum <= FLT_MAX)) {
            char where[48];
            snprintf(where, sizeof where, "weights[%zu]", at);
            return tdn__fail(err, TDN_ERR_ARGUMENT, where,
                             "vertex %d's weights sum to %g: a vertex needs a positive finite sum to be normalized", v,
                             (double)sum);
        }
    }
    for (int v = 0; v < vertex_count; v++) {
        float *w = weights + (size_t)influences * (size_t)v;
        const float sum = weight_sum(w, influences);
        for (int k = 0; k < influences; k++)
            w[k] /= sum;
    }
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

/* Rotate p by the unit real part, then add the translation 2 * dual * conj(real). */
static inline tdn_vec3 dq_transform(tdn_quat real, tdn_quat dual, tdn_vec3 p)
{
    tdn_quat t = tdn_quat_mul(dual, tdn_quat_conjugate(real));
    return tdn_vec3_add(tdn_quat_rotate(real, p), tdn_vec3_make(2.0f * t.x, 2.0f * t.y, 2.0f * t.z));
}

tdn_vec3 tdn_dual_quat_transform_point(const tdn_dual_quat *dq, tdn_vec3 p)
{
    return dq_transform(dq->real, dq->dual, p);
}

/* The rigid transform of a blended, not normalized dual quaternion (r, d) as the upper 3 rows
 * of a matrix, column-major, given s = 2 / |r|^2: R = I + s (...) is the rotation of r / |r|
 * and t = s (r.w d.v - d.w r.v + r.v x d.v) the translation of (r, d) / |r|. No square root. */
static inline void dq_to_matrix(const float r[4], const float d[4], float s, float m[12])
{
    const float x = r[0], y = r[1], z = r[2], w = r[3];
    const float xx = s * x * x, yy = s * y * y, zz = s * z * z;
    const float xy = s * x * y, xz = s * x * z, yz = s * y * z, wx = s * w * x, wy = s * w * y, wz = s * w * z;
    m[0] = 1.0f - yy - zz, m[1] = xy + wz, m[2] = xz - wy;
    m[3] = xy - wz, m[4] = 1.0f - xx - zz, m[5] = yz + wx;
    m[6] = xz + wy, m[7] = yz - wx, m[8] = 1.0f - xx - yy;
    m[9] = s * (w * d[0] - d[3] * x + y * d[2] - z * d[1]);
    m[10] = s * (w * d[1] - d[3] * y + z * d[0] - x * d[2]);
    m[11] = s * (w * d[2] - d[3] * z + x * d[1] - y * d[0]);
}

/* Vertices per DQS block. Each block runs in three loops (sum, divide, transform) so that the
 * divisions of a whole block overlap instead of each stalling its vertex's chain. */
#define DQS_BLOCK 16

/* Sums vertex v's influences into acc (8 floats) with signs aligned to the first. */
static inline void dqs_sum(const tdn_skin_job *job, int v, int influences, float acc[8])
{
    const uint16_t *j = job->joints + (size_t)influences * (size_t)v;
    const float *w = job->weights + (size_t)influences * (size_t)v;
    /* The 8 floats (real, dual) of each influence, read in place when given. */
    tdn_dual_quat converted[TDN_SKIN_MAX_INFLUENCES];
    const float *q[TDN_SKIN_MAX_INFLUENCES];
    for (int k = 0; k < influences; k++) {
        if (job->dual_quats) {
            q[k] = &job->dual_quats[j[k]].real.x;
        } else {
            converted[k] = tdn_dual_quat_from_mat4(&job->palette[j[k]]);
            q[k] = &converted[k].real.x;
        }
    }
    for (int i = 0; i < 8; i++)
        acc[i] = w[0] * q[0][i];
    for (int k = 1; k < influences; k++) {
        /* q and -q are the same rotation: take the one on the first influence's side. */
        float dot = q[k][0] * q[0][0] + q[k][1] * q[0][1] + q[k][2] * q[0][2] + q[k][3] * q[0][3];
        float wk = dot < 0.0f ? -w[k] : w[k];
        for (int i = 0; i < 8; i++)
            acc[i] += wk * q[k][i];
    }
}

/* Forced inline so that 4 influences and 8 (one or two glTF sets) get loops of their own. */
static TDN_SKIN_INLINE void dqs_run(const tdn_skin_job *job, int influences)
{
    float acc[DQS_BLOCK][8], s[DQS_BLOCK];
    for (int start = 0; start < job->vertex_count; start += DQS_BLOCK) {
        const int count = job->vertex_count - start < DQS_BLOCK ? job->vertex_count - start : DQS_BLOCK;
        for (int i = 0; i < count; i++)
            dqs_sum(job, start + i, influences, acc[i]);
        for (int i = 0; i < count; i++) {
            float len2 = acc[i][0] * acc[i][0] + acc[i][1] * acc[i][1] + acc[i][2] * acc[i][2] + acc[i][3] * acc[i][3];
            /* 0 marks a vertex left where it is: weights not summing to > 0, or no rotation. */
            const float *w = job->weights + (size_t)influences * (size_t)(start + i);
            s[i] = weight_sum(w, influences) > 0.0f && len2 > 1e-12f ? 2.0f / len2 : 0.0f;
        }
        for (int i = 0; i < count; i++) {
            const int v = start + i;
            const float *p = job->positions + 3 * v, *n = job->normals ? job->normals + 3 * v : NULL;
            float *op = job->out_positions + 3 * v, *on = n ? job->out_normals + 3 * v : NULL;
            if (s[i] == 0.0f) {
                for (int c = 0; c < 3; c++) {
                    op[c] = p[c];
                    if (n)
                        on[c] = n[c];
                }
                continue;
            }
            float m[12];
            dq_to_matrix(acc[i], acc[i] + 4, s[i], m);
            for (int row = 0; row < 3; row++)
                op[row] = m[row] * p[0] + m[3 + row] * p[1] + m[6 + row] * p[2] + m[9 + row];
            if (n)
                for (int row = 0; row < 3; row++)
                    on[row] = m[row] * n[0] + m[3 + row] * n[1] + m[6 + row] * n[2];
        }
    }
}

tdn_result tdn_skin_dqs(const tdn_skin_job *job, tdn_error *err)
{
    tdn_result res = check_job(job, !job || !job->dual_quats, err);
    if (res != TDN_OK)
        return res;
    if (job->influences == 4)
        dqs_run(job, 4);
    else if (job->influences == 8)
        dqs_run(job, 8);
    else
        dqs_run(job, job->influences);
    return TDN_OK;
}
