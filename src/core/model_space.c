/* tendon core: local to model space, and the skinning palette.
 *
 * One forward pass: joints are stored parent-before-child, so model[parent] is final before
 * any child reads it. The pass is bound by latency along the parent chain (docs/benchmarks.md, ltm),
 * so only the multiply by the parent's matrix sits on that chain; the local matrices are built
 * four joints at a time in vector code, one block ahead of their use.
 * The parent's columns must be read back as the 4-float groups they were stored as, or the
 * loads cannot forward from those stores: left to itself, gcc fully unrolls the column loops
 * and, with AVX, merges stores and loads into 32-byte ones that span two stores (3.0 -> 12
 * ns/joint in the prototype; 4.6 -> 6.5 ns/joint here with x86-64-v3). So on x86 the multiplies
 * are written with 128-bit SSE intrinsics, one load and one store per column; elsewhere (or
 * with TENDON_NO_SIMD) plain C with the column loop kept rolled. */
#include "internal.h"
#include "tendon/model_space.h"

#if !defined(TENDON_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#  include <emmintrin.h>
#  define TDN_MODEL_SPACE_SSE 1
#endif

enum { BLOCK = 4 };

/* The local matrices T * R * S of joints j0 .. j0 + BLOCK - 1, element by element across the
 * block (vector code): l[e][i] is element e of joint j0 + i, elements 0..8 the rotation
 * columns scaled by s, 9..11 the translation. Lanes past the pose's padding are never read:
 * blocks start at multiples of BLOCK and rows are padded to TDN_POSE_LANES. */
static void local_matrices(const float *restrict d, size_t s, int j0, float l[12][BLOCK])
{
    for (int i = 0; i < BLOCK; i++) {
        size_t j = (size_t)j0 + (size_t)i;
        float x = d[TDN_RX * s + j], y = d[TDN_RY * s + j], z = d[TDN_RZ * s + j], w = d[TDN_RW * s + j];
        float sx = d[TDN_SX * s + j], sy = d[TDN_SY * s + j], sz = d[TDN_SZ * s + j];
        float xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y,
              wz = w * z;
        l[0][i] = (1.0f - 2.0f * (yy + zz)) * sx;
        l[1][i] = 2.0f * (xy + wz) * sx;
        l[2][i] = 2.0f * (xz - wy) * sx;
        l[3][i] = 2.0f * (xy - wz) * sy;
        l[4][i] = (1.0f - 2.0f * (xx + zz)) * sy;
        l[5][i] = 2.0f * (yz + wx) * sy;
        l[6][i] = 2.0f * (xz + wy) * sz;
        l[7][i] = 2.0f * (yz - wx) * sz;
        l[8][i] = (1.0f - 2.0f * (xx + yy)) * sz;
        l[9][i] = d[TDN_TX * s + j];
        l[10][i] = d[TDN_TY * s + j];
        l[11][i] = d[TDN_TZ * s + j];
    }
}

/* out = parent * local (local = lane i of l), column by column, each a 4-float group: loaded
 * and stored as exactly those groups, so the child's loads forward from the parent's stores.
 * The sums are paired rather than chained: the multiply sits on the parent-to-child chain. */
#if TDN_MODEL_SPACE_SSE
static inline void multiply_local(const float *p, float l[12][BLOCK], int i, float *out)
{
    const __m128 p0 = _mm_loadu_ps(p), p1 = _mm_loadu_ps(p + 4), p2 = _mm_loadu_ps(p + 8), p3 = _mm_loadu_ps(p + 12);
    for (int c = 0; c < 3; c++) {
        __m128 sum = _mm_add_ps(_mm_mul_ps(p0, _mm_set1_ps(l[c * 3][i])), _mm_mul_ps(p1, _mm_set1_ps(l[c * 3 + 1][i])));
        _mm_storeu_ps(out + c * 4, _mm_add_ps(sum, _mm_mul_ps(p2, _mm_set1_ps(l[c * 3 + 2][i]))));
    }
    __m128 sum = _mm_add_ps(_mm_mul_ps(p0, _mm_set1_ps(l[9][i])), _mm_mul_ps(p1, _mm_set1_ps(l[10][i])));
    _mm_storeu_ps(out + 12, _mm_add_ps(sum, _mm_add_ps(_mm_mul_ps(p2, _mm_set1_ps(l[11][i])), p3)));
}
#else
static inline void multiply_local(const float *restrict p, float l[12][BLOCK], int i, float *restrict out)
{
#  pragma GCC unroll 1 /* kept rolled: see the top of the file (clang reads this pragma too) */
    for (int c = 0; c < 3; c++) {
        const float e0 = l[c * 3][i], e1 = l[c * 3 + 1][i], e2 = l[c * 3 + 2][i];
        for (int r = 0; r < 4; r++)
            out[c * 4 + r] = (p[r] * e0 + p[4 + r] * e1) + p[8 + r] * e2;
    }
    for (int r = 0; r < 4; r++)
        out[12 + r] = (p[r] * l[9][i] + p[4 + r] * l[10][i]) + (p[8 + r] * l[11][i] + p[12 + r]);
}
#endif

static int pose_fits(const tdn_skeleton *skeleton, const tdn_pose *pose)
{
    return skeleton && pose && pose->data && pose->joint_count == tdn_skeleton_joint_count(skeleton) &&
           pose->stride >= pose->joint_count && pose->stride % TDN_POSE_LANES == 0;
}

/* Why tdn_model_space_range refused its arguments (off the per-frame path). */
static tdn_result range_fail(const tdn_skeleton *skeleton, const tdn_pose *pose, int begin, int end,
                             const tdn_mat4 *model, tdn_error *err)
{
    if (!skeleton)
        return tdn__null(err, "skeleton");
    if (!pose || !pose->data)
        return tdn__null(err, "pose");
    if (!model)
        return tdn__null(err, "model");
    if (pose->joint_count != tdn_skeleton_joint_count(skeleton))
        return tdn__pose_size(err, "pose", pose->joint_count, tdn_skeleton_joint_count(skeleton), "the skeleton");
    if (!pose_fits(skeleton, pose))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "pose",
                         "not a pose made by tdn_pose_create or tdn_pose_init (stride %d)", pose->stride);
    return tdn__fail(err, TDN_ERR_ARGUMENT, "begin", "joints [%d, %d) are not a range within 0..%d", begin, end,
                     pose->joint_count);
}

tdn_result tdn_model_space_range(const tdn_skeleton *skeleton, const tdn_pose *pose, const tdn_mat4 *root, int begin,
                                 int end, tdn_mat4 *model, tdn_error *err)
{
    if (!pose_fits(skeleton, pose) || !model || begin < 0 || begin > end || end > pose->joint_count)
        return range_fail(skeleton, pose, begin, end, model, err);
    const int16_t *parents = tdn_skeleton_parents(skeleton);
    const tdn_mat4 identity = tdn_mat4_identity();
    const float *root_matrix = root ? root->m : identity.m;
    const float *d = pose->data;
    const size_t s = (size_t)pose->stride;
    /* Local matrices are built one block ahead of their use, so the multiplies read stores
     * that have reached the cache rather than ones still in flight. */
    float l[2][12][BLOCK];
    int j0 = begin / BLOCK * BLOCK;
    if (begin < end)
        local_matrices(d, s, j0, l[0]);
    for (int b = 0; j0 < end; j0 += BLOCK, b ^= 1) {
        if (j0 + BLOCK < end)
            local_matrices(d, s, j0 + BLOCK, l[b ^ 1]);
        int first = j0 > begin ? j0 : begin, last = j0 + BLOCK < end ? j0 + BLOCK : end;
        for (int j = first; j < last; j++) {
            int parent = parents[j];
            multiply_local(parent >= 0 ? model[parent].m : root_matrix, l[b], j - j0, model[j].m);
        }
    }
    return TDN_OK;
}

tdn_result tdn_model_space(const tdn_skeleton *skeleton, const tdn_pose *pose, const tdn_mat4 *root, tdn_mat4 *model,
                           tdn_error *err)
{
    return tdn_model_space_range(skeleton, pose, root, 0, pose ? pose->joint_count : 0, model, err);
}

/* out = m * b for affine m and b (last rows 0 0 0 1), column by column: each output column is
 * a sum of m's columns weighted by one column of b; the last row comes out 0 0 0 1 by itself.
 * m is read whole before out is written, so out may be m. */
#if TDN_MODEL_SPACE_SSE
static inline void multiply_affine(const float *m, const float *restrict b, float *out)
{
    const __m128 m0 = _mm_loadu_ps(m), m1 = _mm_loadu_ps(m + 4), m2 = _mm_loadu_ps(m + 8), m3 = _mm_loadu_ps(m + 12);
    __m128 col[4];
    for (int c = 0; c < 4; c++) {
        __m128 sum = _mm_add_ps(_mm_mul_ps(m0, _mm_set1_ps(b[c * 4])), _mm_mul_ps(m1, _mm_set1_ps(b[c * 4 + 1])));
        col[c] = _mm_add_ps(sum, _mm_mul_ps(m2, _mm_set1_ps(b[c * 4 + 2])));
    }
    col[3] = _mm_add_ps(col[3], m3);
    for (int c = 0; c < 4; c++)
        _mm_storeu_ps(out + c * 4, col[c]);
}
#else
static inline void multiply_affine(const float *m, const float *restrict b, float *out)
{
    float col[4][4];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            col[c][r] = m[c * 4 + r];
    for (int c = 0; c < 3; c++) {
        const float b0 = b[c * 4], b1 = b[c * 4 + 1], b2 = b[c * 4 + 2];
        for (int r = 0; r < 4; r++)
            out[c * 4 + r] = (col[0][r] * b0 + col[1][r] * b1) + col[2][r] * b2;
    }
    for (int r = 0; r < 4; r++)
        out[12 + r] = (col[0][r] * b[12] + col[1][r] * b[13]) + (col[2][r] * b[14] + col[3][r]);
}
#endif

tdn_result tdn_palette(const tdn_skeleton *skeleton, const tdn_mat4 *model, tdn_mat4 *palette, tdn_error *err)
{
    if (!skeleton || !model || !palette)
        return tdn__null(err, !skeleton ? "skeleton" : !model ? "model" : "palette");
    tdn__palette_range(skeleton, model, 0, tdn_skeleton_joint_count(skeleton), palette);
    return TDN_OK;
}

void tdn__palette_range(const tdn_skeleton *skeleton, const tdn_mat4 *model, int begin, int end, tdn_mat4 *palette)
{
    const tdn_mat4 *inverse_bind = tdn_skeleton_inverse_bind(skeleton);
    for (int j = begin; j < end; j++)
        multiply_affine(model[j].m, inverse_bind[j].m, palette[j].m);
}
