/* tendon core: blending local poses (weighted layers, cross-fades, additive differences).
 *
 * How the loops are laid out, and why (measured on S67 with baseline SSE2; docs/benchmarks.md, blend):
 * - Everything works on chunks of up to CHUNK joints and finishes a chunk before the next, so
 *   all layers and additives are applied while the chunk's data is in L1 (separate passes over
 *   whole poses cost 5.9 against 1.2 ns/joint for chunks when the two were compared).
 * - Inside a chunk, each loop runs over joints (the vectorized dimension) and touches few rows:
 *   one output row per translation/scale loop, two inputs per rotation loop. A single loop over
 *   every row of every input has ~50 address streams; with 16 registers gcc spills pointers on
 *   every iteration (9.4 against 4.7 ns/joint for this layout when the two were compared).
 * - Weights are per-joint arrays in the chunk (masks, normalization and the fallback are all
 *   folded into them beforehand), so the blend loops have no selects and no divisions. The
 *   chunk is aligned so SSE code takes them as memory operands, costing no instructions.
 *   Building the arrays costs about a fifth of a call, so unmasked layers (the usual case: up
 *   to four that count, a first additive without a mask) take loops with one weight per input
 *   held in registers instead, giving the same bits.
 * - The first additive is applied inside the last group's translation/scale loops and in a
 *   rotation loop before the normalizing one; further additives take passes of their own.
 * - Rotation sums stay unnormalized until the end: one square root per joint serves all layers
 *   and additives (quaternion products multiply lengths). The normalization is a loop of its
 *   own so that many joints' square roots and divisions overlap.
 * - When the output pose overlaps an input, results are staged in the chunk and copied out;
 *   otherwise they go straight to the output rows. Either way every pointer a loop writes is
 *   restrict-correct, so gcc vectorizes without runtime alias checks.
 * Loops use tdn__select rather than ?: on floats (see internal.h). */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "tendon/blend.h"

enum {
    CHUNK = 128, /* joints per chunk: one chunk holds a typical character, and stays in L1 */
    SLOTS = 4    /* inputs blended per group of loops */
};

/* Below this total weight a joint takes the fallback: the normalized blend is undefined at 0
 * and needlessly sensitive close to it. */
#define MIN_WEIGHT_SUM 1e-6f

typedef float lanes[CHUNK];

/* Rotation sums x, y, z, w of a chunk's joints. */
typedef struct sums4 {
    lanes v[4];
} sums4;

/* Working memory for one chunk, on the stack (about 10 KB). Aligned so that SSE code can
 * use the weights as memory operands (with unknown alignment it must load them first). */
typedef struct chunk {
    _Alignas(TDN_POSE_ALIGN) lanes w[SLOTS]; /* per-joint weights of the inputs being blended */
    lanes wd;                                /* per-joint weight of the additive being applied */
    lanes inv;                               /* 1 / total layer weight; 0 where the fallback is taken */
    sums4 rot;                               /* rotation sums */
    lanes staged[TDN_POSE_ROWS];             /* the result, when the output overlaps an input */
} chunk;

/* Where a chunk's results go: the output pose's rows, or the chunk's staging rows. */
typedef struct target {
    float *row[TDN_POSE_ROWS];
    int staged;
} target;

static const lanes ones = {
#define ONES8 1, 1, 1, 1, 1, 1, 1, 1
    ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8, ONES8
#undef ONES8
};

/* A pose the loops can run over: data present, rows padded to whole SIMD blocks. */
static int pose_ok(const tdn_pose *p, const tdn_pose *like)
{
    return p && p->data && p->joint_count >= 1 && p->stride >= p->joint_count && p->stride % TDN_POSE_LANES == 0 &&
           (!like || (p->joint_count == like->joint_count && p->stride == like->stride));
}

/* Why pose_ok refused p (`where` names it, `like` the pose it must match). */
static tdn_result pose_fail(tdn_error *err, const tdn_pose *p, const tdn_pose *like, const char *where)
{
    if (!p || !p->data)
        return tdn__null(err, where);
    if (!like || p->joint_count < 1 || p->stride < p->joint_count || p->stride % TDN_POSE_LANES != 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, where,
                         "not a pose made by tdn_pose_create or tdn_pose_init (%d joints, stride %d)", p->joint_count,
                         p->stride);
    return tdn__pose_size(err, where, p->joint_count, like->joint_count, "the output");
}

/* pose_fail for element i of an array (where "layers[i].pose"). */
static tdn_result pose_fail_at(tdn_error *err, const tdn_pose *p, const tdn_pose *like, const char *array, int i)
{
    char where[48];
    snprintf(where, sizeof where, "%s[%d].pose", array, i);
    return pose_fail(err, p, like, where);
}

static int overlaps(const tdn_pose *a, const tdn_pose *b)
{
    size_t bytes = (size_t)TDN_POSE_ROWS * (size_t)a->stride * sizeof(float);
    const char *pa = (const char *)a->data, *pb = (const char *)b->data;
    return pa < pb + bytes && pb < pa + bytes;
}

static target target_for(tdn_pose *out, int staged, chunk *ck, int c)
{
    target t;
    t.staged = staged;
    for (int r = 0; r < TDN_POSE_ROWS; r++)
        t.row[r] = staged ? ck->staged[r] : tdn_pose_row(out, r) + c;
    return t;
}

static void target_flush(const target *t, tdn_pose *out, int c, int n, unsigned rows)
{
    if (t->staged)
        for (int r = 0; r < TDN_POSE_ROWS; r++)
            if (tdn__row_in(rows, r))
                memcpy(tdn_pose_row(out, r) + c, t->row[r], sizeof(float) * (size_t)n);
}

/* Row r of a pose from joint c on. */
static const float *row_at(const tdn_pose *p, int r, int c) { return tdn_pose_crow(p, r) + c; }

/* x clamped to [0, 1]; NaN gives 0. */
static inline float clamp01_lane(float x)
{
    x = tdn__select(x > 0.0f, x, 0.0f);
    return tdn__select(x < 1.0f, x, 1.0f);
}

/* dst = weight * clamp01(mask) * scale per joint (no mask: weight * scale) */
TDN__KERNEL void lane_weights(float *restrict dst, float weight, const float *restrict mask,
                              const float *restrict scale, int n)
{
    if (mask)
        for (int k = 0; k < n; k++)
            dst[k] = weight * clamp01_lane(mask[k]) * scale[k];
    else
        for (int k = 0; k < n; k++)
            dst[k] = weight * scale[k];
}

/* w >= 0 with the sign of s: s < 0 ? -w : w as two bit operations (s = -0 flips too, which
 * only happens where the choice does not matter). */
static inline float signed_like(float w, float s)
{
    uint32_t uw, us;
    memcpy(&uw, &w, sizeof uw);
    memcpy(&us, &s, sizeof us);
    uw ^= us & 0x80000000u;
    memcpy(&w, &uw, sizeof w);
    return w;
}

/* ---- translation and scale rows: one output row per loop ----
 * Each blends four inputs with the weights ck->w and applies an additive d with weights wd on
 * top (wd all 0 and d any input's row when there is none: an exact no-op). */

/* translation: dst = the weighted sum + wd D.t */
TDN__KERNEL void row_translation(float *restrict dst, const float *restrict x0, const float *restrict x1,
                                 const float *restrict x2, const float *restrict x3, const chunk *restrict ck,
                                 const float *restrict d, const float *restrict wd, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] = (ck->w[0][k] * x0[k] + ck->w[1][k] * x1[k]) + (ck->w[2][k] * x2[k] + ck->w[3][k] * x3[k]) +
                 wd[k] * d[k];
}

/* the same, adding to what dst holds (inputs after the first group of four) */
TDN__KERNEL void row_translation_more(float *restrict dst, const float *restrict x0, const float *restrict x1,
                                      const float *restrict x2, const float *restrict x3, const chunk *restrict ck,
                                      const float *restrict d, const float *restrict wd, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] += (ck->w[0][k] * x0[k] + ck->w[1][k] * x1[k]) + (ck->w[2][k] * x2[k] + ck->w[3][k] * x3[k]) +
                  wd[k] * d[k];
}

/* scale: dst = the weighted sum * ((1 - wd) + wd D.s): exactly D.s times at wd = 1, exactly
 * unchanged at wd = 0 */
TDN__KERNEL void row_scale(float *restrict dst, const float *restrict x0, const float *restrict x1,
                           const float *restrict x2, const float *restrict x3, const chunk *restrict ck,
                           const float *restrict d, const float *restrict wd, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] = ((ck->w[0][k] * x0[k] + ck->w[1][k] * x1[k]) + (ck->w[2][k] * x2[k] + ck->w[3][k] * x3[k])) *
                 ((1.0f - wd[k]) + wd[k] * d[k]);
}

TDN__KERNEL void row_scale_more(float *restrict dst, const float *restrict x0, const float *restrict x1,
                                const float *restrict x2, const float *restrict x3, const chunk *restrict ck,
                                const float *restrict d, const float *restrict wd, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] = (dst[k] + (ck->w[0][k] * x0[k] + ck->w[1][k] * x1[k]) + (ck->w[2][k] * x2[k] + ck->w[3][k] * x3[k])) *
                 ((1.0f - wd[k]) + wd[k] * d[k]);
}

/* a further additive, in place: t += w D.t */
TDN__KERNEL void row_add(float *restrict dst, const float *restrict d, const float *restrict w, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] += w[k] * d[k];
}

/* a further additive, in place: s *= (1 - w) + w D.s */
TDN__KERNEL void row_rescale(float *restrict dst, const float *restrict d, const float *restrict w, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] *= (1.0f - w[k]) + w[k] * d[k];
}

/* ---- rotations: two inputs per loop, sums in the chunk ---- */

/* a += q with weight w, q's sign flipped to agree with the sum so far: the first input that
 * contributes sets the hemisphere, and as every term then has a non-negative dot with the
 * sum, the sum cannot cancel (|sum|^2 >= the sum of squared weights). */
static inline void add_aligned(float a[4], float x, float y, float z, float qw, float w)
{
    float dot = a[0] * x + a[1] * y + a[2] * z + a[3] * qw;
    float ws = signed_like(w, dot);
    a[0] += ws * x;
    a[1] += ws * y;
    a[2] += ws * z;
    a[3] += ws * qw;
}

/* rot = wa qa + wb qb (aligned). qa, qb point at the RX row; RY..RW follow `s` floats apart. */
TDN__KERNEL void rot_pair(sums4 *restrict rot, const float *restrict qa, const float *restrict qb, size_t s,
                          const float *restrict wa, const float *restrict wb, int n)
{
    for (int k = 0; k < n; k++) {
        float a[4] = { wa[k] * qa[k], wa[k] * qa[s + k], wa[k] * qa[2 * s + k], wa[k] * qa[3 * s + k] };
        add_aligned(a, qb[k], qb[s + k], qb[2 * s + k], qb[3 * s + k], wb[k]);
        for (int i = 0; i < 4; i++)
            rot->v[i][k] = a[i];
    }
}

/* rot += wa qa + wb qb (aligned) */
TDN__KERNEL void rot_pair_more(sums4 *restrict rot, const float *restrict qa, const float *restrict qb, size_t s,
                               const float *restrict wa, const float *restrict wb, int n)
{
    for (int k = 0; k < n; k++) {
        float a[4] = { rot->v[0][k], rot->v[1][k], rot->v[2][k], rot->v[3][k] };
        add_aligned(a, qa[k], qa[s + k], qa[2 * s + k], qa[3 * s + k], wa[k]);
        add_aligned(a, qb[k], qb[s + k], qb[2 * s + k], qb[3 * s + k], wb[k]);
        for (int i = 0; i < 4; i++)
            rot->v[i][k] = a[i];
    }
}

/* out = q / |q|; a zero-length q becomes the identity (the bias is 0 for any other q). */
static inline void normalize_into(float *ox, float *oy, float *oz, float *ow, int k, float x, float y, float z, float w)
{
    float len2 = x * x + y * y + z * z + w * w;
    float bias = tdn__select(len2 > 1e-30f, 0.0f, 1.0f);
    float inv = 1.0f / sqrtf(len2 + bias);
    ox[k] = x * inv;
    oy[k] = y * inv;
    oz[k] = z * inv;
    ow[k] = w * inv + bias;
}

TDN__KERNEL void rot_normalize(float *restrict ox, float *restrict oy, float *restrict oz, float *restrict ow,
                               const sums4 *restrict rot, int n)
{
    for (int k = 0; k < n; k++)
        normalize_into(ox, oy, oz, ow, k, rot->v[0][k], rot->v[1][k], rot->v[2][k], rot->v[3][k]);
}

/* rot = nlerp(identity, D, w) * rot, in place, the nlerp along the short way (D taken with
 * w >= 0) and unnormalized: (1 - w) identity + w D. At w = 1 the factor is exactly +-D. Left
 * unnormalized for rot_normalize: a loop of its own keeps each joint's square root and
 * division off this loop's chain, so many joints' overlap (fused, the loop waited on them). */
TDN__KERNEL void rot_add(sums4 *restrict rot, const float *restrict d, size_t s, const float *restrict w, int n)
{
    for (int k = 0; k < n; k++) {
        float dw = d[3 * s + k];
        float sw = copysignf(w[k], dw);
        float ax = sw * d[k], ay = sw * d[s + k], az = sw * d[2 * s + k], aw = (1.0f - w[k]) + w[k] * fabsf(dw);
        float bx = rot->v[0][k], by = rot->v[1][k], bz = rot->v[2][k], bw = rot->v[3][k];
        rot->v[0][k] = aw * bx + ax * bw + ay * bz - az * by;
        rot->v[1][k] = aw * by - ax * bz + ay * bw + az * bx;
        rot->v[2][k] = aw * bz + ax * by - ay * bx + az * bw;
        rot->v[3][k] = aw * bw - ax * bx - ay * by - az * bz;
    }
}

/* ---- unmasked layers: one weight per input for every joint, held in registers ----
 * The same sums in the same order as the kernels above, so the results are the same bits as
 * the per-joint path's with its weight rows all equal (tests compare the two). */

/* translation: dst = the weighted sum of four inputs + wd D.t */
TDN__KERNEL void row_translation_uniform(float *restrict dst, const float *restrict x0, const float *restrict x1,
                                         const float *restrict x2, const float *restrict x3, const float w[SLOTS],
                                         const float *restrict d, float wd, int n)
{
    const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
    for (int k = 0; k < n; k++)
        dst[k] = (w0 * x0[k] + w1 * x1[k]) + (w2 * x2[k] + w3 * x3[k]) + wd * d[k];
}

/* scale: dst = the weighted sum of four inputs * ((1 - wd) + wd D.s) */
TDN__KERNEL void row_scale_uniform(float *restrict dst, const float *restrict x0, const float *restrict x1,
                                   const float *restrict x2, const float *restrict x3, const float w[SLOTS],
                                   const float *restrict d, float wd, int n)
{
    const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];
    for (int k = 0; k < n; k++)
        dst[k] = ((w0 * x0[k] + w1 * x1[k]) + (w2 * x2[k] + w3 * x3[k])) * ((1.0f - wd) + wd * d[k]);
}

/* rot = w0 q0 + w1 q1 + w2 q2 + w3 q3 (aligned as rot_pair and rot_pair_more align them), in two
 * loops of two inputs; the q point at the RX rows, RY..RW follow `s` floats apart. */
TDN__KERNEL void rot_pair_uniform(sums4 *restrict rot, const float *restrict qa, const float *restrict qb, size_t s,
                                  float wa, float wb, int n)
{
    for (int k = 0; k < n; k++) {
        float a[4] = { wa * qa[k], wa * qa[s + k], wa * qa[2 * s + k], wa * qa[3 * s + k] };
        add_aligned(a, qb[k], qb[s + k], qb[2 * s + k], qb[3 * s + k], wb);
        for (int i = 0; i < 4; i++)
            rot->v[i][k] = a[i];
    }
}

TDN__KERNEL void rot_pair_more_uniform(sums4 *restrict rot, const float *restrict qa, const float *restrict qb,
                                       size_t s, float wa, float wb, int n)
{
    for (int k = 0; k < n; k++) {
        float a[4] = { rot->v[0][k], rot->v[1][k], rot->v[2][k], rot->v[3][k] };
        add_aligned(a, qa[k], qa[s + k], qa[2 * s + k], qa[3 * s + k], wa);
        add_aligned(a, qb[k], qb[s + k], qb[2 * s + k], qb[3 * s + k], wb);
        for (int i = 0; i < 4; i++)
            rot->v[i][k] = a[i];
    }
}

/* ---- the blend engine ---- */

static const lanes zeros;

/* Blends `count` (1..SLOTS) poses with the per-joint weights in ck->w into t (translation and
 * scale) and ck->rot (rotation sums), or adds them to what is there (`more`). The slots past
 * `count` read the first pose's rows at weight 0. When `add` is given, its translation and
 * scale are applied on top with the weights ck->wd (its rotation is left to the caller). */
static void blend_group(const tdn_pose *const *in, int count, int more, const tdn_pose *add, chunk *ck, const target *t,
                        int c, int n, unsigned rows)
{
    const tdn_pose *p[SLOTS];
    for (int i = 0; i < SLOTS; i++)
        p[i] = i < count ? in[i] : in[0];
    const tdn_pose *d = add ? add : in[0];
    const float *wd = add ? ck->wd : zeros;
    for (int r = TDN_TX; r <= TDN_TZ && (rows & TDN__ROWS_T); r++)
        (more ? row_translation_more : row_translation)(t->row[r], row_at(p[0], r, c), row_at(p[1], r, c),
                                                        row_at(p[2], r, c), row_at(p[3], r, c), ck, row_at(d, r, c), wd,
                                                        n);
    for (int r = TDN_SX; r <= TDN_SZ && (rows & TDN__ROWS_S); r++)
        (more ? row_scale_more : row_scale)(t->row[r], row_at(p[0], r, c), row_at(p[1], r, c), row_at(p[2], r, c),
                                            row_at(p[3], r, c), ck, row_at(d, r, c), wd, n);
    const size_t s = (size_t)p[0]->stride;
    (more ? rot_pair_more : rot_pair)(&ck->rot, row_at(p[0], TDN_RX, c), row_at(p[1], TDN_RX, c), s, ck->w[0], ck->w[1],
                                      n);
    if (count > 2)
        rot_pair_more(&ck->rot, row_at(p[2], TDN_RX, c), row_at(p[3], TDN_RX, c), s, ck->w[2], ck->w[3], n);
}

/* The rotation sums in ck->rot, normalized into t, with the additive `add` (weights ck->wd)
 * applied first when given. */
static void finish_rotation(const tdn_pose *add, chunk *ck, const target *t, int c, int n)
{
    if (add)
        rot_add(&ck->rot, row_at(add, TDN_RX, c), (size_t)add->stride, ck->wd, n);
    rot_normalize(t->row[TDN_RX], t->row[TDN_RY], t->row[TDN_RZ], t->row[TDN_RW], &ck->rot, n);
}

/* A further additive (weights ck->wd) applied in place to the finished values in t. */
static void apply_additive(const tdn_pose *d, chunk *ck, const target *t, int c, int n, unsigned rows)
{
    for (int r = TDN_TX; r <= TDN_TZ && (rows & TDN__ROWS_T); r++)
        row_add(t->row[r], row_at(d, r, c), ck->wd, n);
    for (int r = TDN_SX; r <= TDN_SZ && (rows & TDN__ROWS_S); r++)
        row_rescale(t->row[r], row_at(d, r, c), ck->wd, n);
    for (int i = 0; i < 4; i++)
        memcpy(ck->rot.v[i], t->row[TDN_RX + i], sizeof(float) * (size_t)n);
    finish_rotation(d, ck, t, c, n);
}

/* ck->wd = weight * clamp01(mask) for an additive whose weight is already in [0, 1] */
static void additive_weights(chunk *ck, float weight, const float *mask, int c, int n)
{
    lane_weights(ck->wd, weight, mask ? mask + c : NULL, ones, n);
}

/* A layer or additive weight as used: non-finite or negative counts as 0. */
static float sane_weight(float w) { return (w > 0.0f && w <= FLT_MAX) ? w : 0.0f; }

/* ck->inv = 1 / (the total layer weight of each joint), 0 where it is below MIN_WEIGHT_SUM;
 * returns whether any joint of the chunk falls back. */
static int layer_totals(const tdn_blend_job *job, chunk *ck, int c, int n)
{
    float constant = 0.0f;
    int masked = 0;
    for (int i = 0; i < job->layer_count; i++) {
        if (job->layers[i].joint_weights)
            masked = 1;
        else
            constant += sane_weight(job->layers[i].weight);
    }
    if (!masked) { /* the same total for every joint */
        int fallback = !(constant > MIN_WEIGHT_SUM);
        float inv = fallback ? 0.0f : 1.0f / constant;
        for (int k = 0; k < n; k++)
            ck->inv[k] = inv;
        return fallback;
    }
    for (int k = 0; k < n; k++)
        ck->inv[k] = constant;
    for (int i = 0; i < job->layer_count; i++) {
        float w = sane_weight(job->layers[i].weight);
        const float *m = job->layers[i].joint_weights;
        if (w > 0.0f && m)
            for (int k = 0; k < n; k++)
                ck->inv[k] += w * clamp01_lane(m[c + k]);
    }
    int fallback = 0;
    for (int k = 0; k < n; k++) {
        int use = ck->inv[k] > MIN_WEIGHT_SUM;
        fallback |= !use;
        ck->inv[k] = tdn__select(use, 1.0f / tdn__select(use, ck->inv[k], 1.0f), 0.0f);
    }
    return fallback;
}

/* One chunk through the per-joint weight rows (masks, the fallback, any number of layers):
 * every layer that has a weight, then the fallback where a joint needs it, blended SLOTS at a
 * time with their normalized per-joint weights into t and ck->rot, the translation and scale
 * of `fused_add` on top. */
static void blend_per_joint(const tdn_blend_job *job, int layers, const tdn_pose *fallback, const tdn_pose *fused_add,
                            chunk *ck, const target *t, int c, int n, unsigned rows)
{
    int use_fallback = layer_totals(job, ck, c, n);
    const int inputs = layers + use_fallback;
    const tdn_pose *group[SLOTS];
    int count = 0, blended = 0;
    for (int i = 0; i <= job->layer_count; i++) {
        if (i < job->layer_count && sane_weight(job->layers[i].weight) > 0.0f) {
            const tdn_blend_input *layer = &job->layers[i];
            lane_weights(ck->w[count], sane_weight(layer->weight),
                         layer->joint_weights ? layer->joint_weights + c : NULL, ck->inv, n);
            group[count++] = layer->pose;
        } else if (i == job->layer_count && use_fallback) {
            for (int k = 0; k < n; k++)
                ck->w[count][k] = tdn__select(ck->inv[k] > 0.0f, 0.0f, 1.0f);
            group[count++] = fallback;
        }
        if (count == SLOTS || (count > 0 && blended + count == inputs)) {
            for (int s = count; s < SLOTS; s++)
                memset(ck->w[s], 0, sizeof(float) * (size_t)n);
            blend_group(group, count, blended > 0, blended + count == inputs ? fused_add : NULL, ck, t, c, n, rows);
            blended += count;
            count = 0;
        }
    }
}

/* The unmasked path's condition and weights: no layer has a mask, at most SLOTS layers have a
 * weight, their total is above MIN_WEIGHT_SUM (no joint falls back) and the first additive that
 * counts (first_add, or none) has no mask. Then `group` holds the layers that count (the first of
 * them again in the slots past them) and `w` their weights normalized exactly as layer_totals and
 * lane_weights normalize them (0 past them); returns 1. Otherwise returns 0. */
static int uniform_weights(const tdn_blend_job *job, int first_add, const tdn_pose *group[SLOTS], float w[SLOTS])
{
    if (first_add >= 0 && job->additives[first_add].joint_weights)
        return 0;
    float total = 0.0f;
    int count = 0;
    for (int i = 0; i < job->layer_count; i++) {
        if (job->layers[i].joint_weights)
            return 0;
        total += sane_weight(job->layers[i].weight);
        if (sane_weight(job->layers[i].weight) > 0.0f && count++ == SLOTS)
            return 0;
    }
    if (!(total > MIN_WEIGHT_SUM))
        return 0;
    const float inv = 1.0f / total;
    count = 0;
    for (int i = 0; i < job->layer_count; i++)
        if (sane_weight(job->layers[i].weight) > 0.0f) {
            w[count] = sane_weight(job->layers[i].weight) * inv;
            group[count++] = job->layers[i].pose;
        }
    for (int i = count; i < SLOTS; i++) {
        w[i] = 0.0f;
        group[i] = group[0];
    }
    return 1;
}

/* One chunk of the unmasked path: the four inputs with the weights w into t and ck->rot, the
 * translation and scale of `add` (weight wd) on top, as blend_group does with weight rows. */
static void blend_uniform(const tdn_pose *const group[SLOTS], const float w[SLOTS], const tdn_pose *add, float wd,
                          chunk *ck, const target *t, int c, int n, unsigned rows)
{
    const tdn_pose *d = add ? add : group[0];
    for (int r = TDN_TX; r <= TDN_TZ && (rows & TDN__ROWS_T); r++)
        row_translation_uniform(t->row[r], row_at(group[0], r, c), row_at(group[1], r, c), row_at(group[2], r, c),
                                row_at(group[3], r, c), w, row_at(d, r, c), wd, n);
    for (int r = TDN_SX; r <= TDN_SZ && (rows & TDN__ROWS_S); r++)
        row_scale_uniform(t->row[r], row_at(group[0], r, c), row_at(group[1], r, c), row_at(group[2], r, c),
                          row_at(group[3], r, c), w, row_at(d, r, c), wd, n);
    const size_t s = (size_t)group[0]->stride;
    rot_pair_uniform(&ck->rot, row_at(group[0], TDN_RX, c), row_at(group[1], TDN_RX, c), s, w[0], w[1], n);
    rot_pair_more_uniform(&ck->rot, row_at(group[2], TDN_RX, c), row_at(group[3], TDN_RX, c), s, w[2], w[3], n);
}

tdn__part tdn__whole(const tdn_pose *pose)
{
    const tdn__part part = { TDN__ROWS_ALL, 0, pose ? pose->stride : 0 };
    return part;
}

tdn_result tdn_blend(const tdn_blend_job *job, tdn_error *err)
{
    return tdn__blend_part(job, tdn__whole(job ? job->out : NULL), err);
}

tdn_result tdn__blend_part(const tdn_blend_job *job, tdn__part part, tdn_error *err)
{
    const unsigned rows = part.rows;
    if (!job)
        return tdn__null(err, "job");
    if (!pose_ok(job->out, NULL))
        return pose_fail(err, job->out, NULL, "job.out");
    if (job->layer_count < 0 || job->additive_count < 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "job", "negative count (%d layers, %d additives)", job->layer_count,
                         job->additive_count);
    if (job->layer_count > 0 && !job->layers)
        return tdn__null(err, "job.layers");
    if (job->additive_count > 0 && !job->additives)
        return tdn__null(err, "job.additives");
    tdn_pose *out = job->out;
    int staged = 0, layers = 0, first_add = -1;
    for (int i = 0; i < job->layer_count; i++) {
        if (!pose_ok(job->layers[i].pose, out))
            return pose_fail_at(err, job->layers[i].pose, out, "job.layers", i);
        staged |= overlaps(job->layers[i].pose, out);
        layers += sane_weight(job->layers[i].weight) > 0.0f;
    }
    for (int i = job->additive_count - 1; i >= 0; i--) {
        if (!pose_ok(job->additives[i].pose, out))
            return pose_fail_at(err, job->additives[i].pose, out, "job.additives", i);
        staged |= overlaps(job->additives[i].pose, out);
        if (tdn__clamp01(job->additives[i].weight) > 0.0f)
            first_add = i;
    }
    const tdn_pose *fallback = job->fallback ? job->fallback : (job->layer_count > 0 ? job->layers[0].pose : NULL);
    if (!pose_ok(fallback, out))
        return fallback ? pose_fail(err, fallback, out, "job.fallback")
                        : tdn__fail(err, TDN_ERR_ARGUMENT, "job", "no layer and no fallback: nothing to blend");
    staged |= overlaps(fallback, out);
    /* the first additive is applied within the last group's loops, any others after */
    const tdn_pose *fused_add = first_add >= 0 ? job->additives[first_add].pose : NULL;

    const tdn_pose *uniform_group[SLOTS];
    float uniform[SLOTS];
    const int uniform_path = uniform_weights(job, first_add, uniform_group, uniform);
    const float fused_weight = fused_add ? tdn__clamp01(job->additives[first_add].weight) : 0.0f;

    chunk ck;
    for (int c = part.begin; c < part.end; c += CHUNK) {
        int n = part.end - c < CHUNK ? part.end - c : CHUNK;
        target t = target_for(out, staged, &ck, c);
        if (fused_add)
            additive_weights(&ck, fused_weight, job->additives[first_add].joint_weights, c, n);
        if (uniform_path)
            blend_uniform(uniform_group, uniform, fused_add, fused_weight, &ck, &t, c, n, rows);
        else
            blend_per_joint(job, layers, fallback, fused_add, &ck, &t, c, n, rows);
        finish_rotation(fused_add, &ck, &t, c, n);
        for (int i = first_add + 1; first_add >= 0 && i < job->additive_count; i++) {
            float w = tdn__clamp01(job->additives[i].weight);
            if (w > 0.0f) {
                additive_weights(&ck, w, job->additives[i].joint_weights, c, n);
                apply_additive(job->additives[i].pose, &ck, &t, c, n, rows);
            }
        }
        target_flush(&t, out, c, n, rows);
    }
    return TDN_OK;
}

/* Rotations at weight 0 and 1 are a's and b's bits: renormalizing a unit quaternion can move
 * its last bit, and a masked-out joint must stay what the layer below made. */
TDN__KERNEL void exact_ends(float *restrict o, const float *restrict pa, const float *restrict pb,
                            const float *restrict wb, int n)
{
    for (int k = 0; k < n; k++)
        o[k] = tdn__select(wb[k] == 0.0f, pa[k], tdn__select(wb[k] == 1.0f, pb[k], o[k]));
}

/* The error for tdn_blend2 and the other two-pose functions: which of the three is wrong. */
static tdn_result pair_fail(tdn_error *err, const tdn_pose *a, const char *a_name, const tdn_pose *b,
                            const char *b_name, const tdn_pose *out)
{
    if (!pose_ok(out, NULL))
        return pose_fail(err, out, NULL, "out");
    return pose_ok(a, out) ? pose_fail(err, b, out, b_name) : pose_fail(err, a, out, a_name);
}

tdn_result tdn_blend2(const tdn_pose *a, const tdn_pose *b, float w, const float *joint_weights, tdn_pose *out,
                      tdn_error *err)
{
    return tdn__blend2_part(a, b, w, joint_weights, out, tdn__whole(out), err);
}

tdn_result tdn__blend2_part(const tdn_pose *a, const tdn_pose *b, float w, const float *joint_weights, tdn_pose *out,
                            tdn__part part, tdn_error *err)
{
    const unsigned rows = part.rows;
    if (!pose_ok(out, NULL) || !pose_ok(a, out) || !pose_ok(b, out))
        return pair_fail(err, a, "a", b, "b", out);
    w = tdn__clamp01(w);
    const tdn_pose *pair[2] = { a, b };
    int staged = overlaps(a, out) || overlaps(b, out);
    chunk ck;
    for (int c = part.begin; c < part.end; c += CHUNK) {
        int n = part.end - c < CHUNK ? part.end - c : CHUNK;
        target t = target_for(out, staged, &ck, c);
        /* (1 - wb) a + wb b: exactly a at wb = 0 and b at wb = 1 */
        lane_weights(ck.w[1], w, joint_weights ? joint_weights + c : NULL, ones, n);
        for (int k = 0; k < n; k++)
            ck.w[0][k] = 1.0f - ck.w[1][k];
        memset(ck.w[2], 0, sizeof(float) * (size_t)n);
        memset(ck.w[3], 0, sizeof(float) * (size_t)n);
        blend_group(pair, 2, 0, NULL, &ck, &t, c, n, rows);
        finish_rotation(NULL, &ck, &t, c, n);
        for (int r = TDN_RX; r <= TDN_RW; r++)
            exact_ends(t.row[r], row_at(a, r, c), row_at(b, r, c), ck.w[1], n);
        target_flush(&t, out, c, n, rows);
    }
    return TDN_OK;
}

tdn_result tdn_additive_apply(const tdn_pose *target_pose, const tdn_pose *difference, float weight,
                              const float *joint_weights, tdn_pose *out, tdn_error *err)
{
    return tdn__additive_apply_part(target_pose, difference, weight, joint_weights, out, tdn__whole(out), err);
}

tdn_result tdn__additive_apply_part(const tdn_pose *target_pose, const tdn_pose *difference, float weight,
                                    const float *joint_weights, tdn_pose *out, tdn__part part, tdn_error *err)
{
    const unsigned rows = part.rows;
    if (!pose_ok(out, NULL) || !pose_ok(target_pose, out) || !pose_ok(difference, out))
        return pair_fail(err, target_pose, "target", difference, "difference", out);
    weight = tdn__clamp01(weight);
    const tdn_pose *one[1] = { target_pose };
    int staged = overlaps(target_pose, out) || overlaps(difference, out);
    chunk ck;
    for (int c = part.begin; c < part.end; c += CHUNK) {
        int n = part.end - c < CHUNK ? part.end - c : CHUNK;
        target t = target_for(out, staged, &ck, c);
        for (int k = 0; k < n; k++)
            ck.w[0][k] = 1.0f;
        for (int s = 1; s < SLOTS; s++)
            memset(ck.w[s], 0, sizeof(float) * (size_t)n);
        additive_weights(&ck, weight, joint_weights, c, n);
        blend_group(one, 1, 0, difference, &ck, &t, c, n, rows);
        finish_rotation(difference, &ck, &t, c, n);
        target_flush(&t, out, c, n, rows);
    }
    return TDN_OK;
}

/* ---- differences: D = S * R^-1 and its inverse D * B ---- */

/* dst rotation = normalize(a * b'), b' = b or conj(b) */
TDN__KERNEL void rot_product(float *restrict ox, float *restrict oy, float *restrict oz, float *restrict ow,
                             const float *restrict a, const float *restrict b, size_t s, int conjugate_b, int n)
{
    const float sign = conjugate_b ? -1.0f : 1.0f;
    for (int k = 0; k < n; k++) {
        float ax = a[k], ay = a[s + k], az = a[2 * s + k], aw = a[3 * s + k];
        float bx = sign * b[k], by = sign * b[s + k], bz = sign * b[2 * s + k], bw = b[3 * s + k];
        normalize_into(ox, oy, oz, ow, k, aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                       aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz);
    }
}

TDN__KERNEL void row_difference(float *restrict dst, const float *restrict a, const float *restrict b, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] = a[k] - b[k];
}

TDN__KERNEL void row_sum(float *restrict dst, const float *restrict a, const float *restrict b, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] = a[k] + b[k];
}

/* a / b, or 1 where b is 0 (no ratio to take); selected before dividing so the loop stays
 * vector code */
TDN__KERNEL void row_ratio(float *restrict dst, const float *restrict a, const float *restrict b, int n)
{
    for (int k = 0; k < n; k++) {
        int ok = b[k] != 0.0f;
        dst[k] = tdn__select(ok, a[k], 1.0f) / tdn__select(ok, b[k], 1.0f);
    }
}

TDN__KERNEL void row_product(float *restrict dst, const float *restrict a, const float *restrict b, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] = a[k] * b[k];
}

/* out = a op b row by row: translations with `t_op`, scales with `s_op`, rotations a * b or
 * a * conj(b). */
static tdn_result combine(const tdn_pose *a, const tdn_pose *b, tdn_pose *out, int conjugate_b,
                          void (*t_op)(float *restrict, const float *restrict, const float *restrict, int),
                          void (*s_op)(float *restrict, const float *restrict, const float *restrict, int),
                          const char *a_name, const char *b_name, tdn_error *err)
{
    if (!pose_ok(out, NULL) || !pose_ok(a, out) || !pose_ok(b, out))
        return pair_fail(err, a, a_name, b, b_name, out);
    int staged = overlaps(a, out) || overlaps(b, out);
    chunk ck;
    for (int c = 0; c < out->stride; c += CHUNK) {
        int n = out->stride - c < CHUNK ? out->stride - c : CHUNK;
        target t = target_for(out, staged, &ck, c);
        for (int r = TDN_TX; r <= TDN_TZ; r++)
            t_op(t.row[r], row_at(a, r, c), row_at(b, r, c), n);
        for (int r = TDN_SX; r <= TDN_SZ; r++)
            s_op(t.row[r], row_at(a, r, c), row_at(b, r, c), n);
        rot_product(t.row[TDN_RX], t.row[TDN_RY], t.row[TDN_RZ], t.row[TDN_RW], row_at(a, TDN_RX, c),
                    row_at(b, TDN_RX, c), (size_t)a->stride, conjugate_b, n);
        target_flush(&t, out, c, n, TDN__ROWS_ALL);
    }
    return TDN_OK;
}

/* out = source * reference^-1 per joint. A zero reference scale gives a scale difference of 1. */
tdn_result tdn_additive_difference(const tdn_pose *source, const tdn_pose *reference, tdn_pose *out, tdn_error *err)
{
    return combine(source, reference, out, 1, row_difference, row_ratio, "source", "reference", err);
}

tdn_result tdn_pose_to_delta(const tdn_pose *pose, const tdn_pose *base, tdn_pose *out, tdn_error *err)
{
    return combine(pose, base, out, 1, row_difference, row_ratio, "pose", "base", err);
}

/* out = delta * base: the exact inverse of tdn_pose_to_delta (no sign flip, no weight). */
tdn_result tdn_pose_from_delta(const tdn_pose *delta, const tdn_pose *base, tdn_pose *out, tdn_error *err)
{
    return combine(delta, base, out, 0, row_sum, row_product, "delta", "base", err);
}
