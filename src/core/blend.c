/* tendon core: blending local poses (weighted layers, cross-fades, additive differences).
 *
 * Every function walks the joints in blocks of TDN_POSE_LANES: a block of each input is read
 * into local arrays, combined there, and written to the output at the end. That is what lets
 * one pass do all the layers and additives of a blend (DESIGN section 6: separate passes
 * rewrite the output once per layer, 5.9 against 1.2 ns/joint), lets the output be one of the
 * inputs, and lets gcc vectorize the lane loops without alias checks: the locals cannot alias
 * the poses. Lane loops are branch-free (tdn__select, never ?: on floats) and padding lanes
 * are computed like any other, which is harmless because padding holds identities. */
#include <float.h>
#include <string.h>

#include "internal.h"
#include "tendon/blend.h"

enum { LANES = TDN_POSE_LANES };

/* Below this total weight a joint takes the fallback: the normalized blend is undefined at 0
 * and needlessly sensitive close to it. */
#define MIN_WEIGHT_SUM 1e-6f

/* One block of joints of a pose, row by row (the same row order as tdn_pose). */
typedef struct block {
    float v[TDN_POSE_ROWS][LANES];
} block;

static const float ones[LANES] = { 1, 1, 1, 1, 1, 1, 1, 1 };

/* A pose the blend loops can run over: data present, rows padded to whole blocks. */
static int pose_ok(const tdn_pose *p, const tdn_pose *like)
{
    return p && p->data && p->joint_count >= 1 && p->stride >= p->joint_count && p->stride % LANES == 0 &&
           (!like || (p->joint_count == like->joint_count && p->stride == like->stride));
}

static void load_block(block *b, const tdn_pose *p, int j0)
{
    for (int row = 0; row < TDN_POSE_ROWS; row++)
        memcpy(b->v[row], tdn_pose_crow(p, row) + j0, sizeof b->v[row]);
}

static void store_block(tdn_pose *p, int j0, const block *b)
{
    for (int row = 0; row < TDN_POSE_ROWS; row++)
        memcpy(tdn_pose_row(p, row) + j0, b->v[row], sizeof b->v[row]);
}

/* A layer or additive weight as used: non-finite or negative counts as 0. */
static float sane_weight(float w) { return (w > 0.0f && w <= FLT_MAX) ? w : 0.0f; }

/* Rotation of lane l of x = a * b (b first, then a). */
static inline void set_rotation_product(block *x, int l, float ax, float ay, float az, float aw, float bx, float by,
                                        float bz, float bw)
{
    x->v[TDN_RX][l] = aw * bx + ax * bw + ay * bz - az * by;
    x->v[TDN_RY][l] = aw * by - ax * bz + ay * bw + az * bx;
    x->v[TDN_RZ][l] = aw * bz + ax * by - ay * bx + az * bw;
    x->v[TDN_RW][l] = aw * bw - ax * bx - ay * by - az * bz;
}

/* Renormalizes the rotations of a block; a zero or non-finite quaternion becomes the identity. */
static void normalize_rotations(block *b)
{
    for (int l = 0; l < LANES; l++) {
        float n = b->v[TDN_RX][l] * b->v[TDN_RX][l] + b->v[TDN_RY][l] * b->v[TDN_RY][l] +
                  b->v[TDN_RZ][l] * b->v[TDN_RZ][l] + b->v[TDN_RW][l] * b->v[TDN_RW][l];
        int ok = (n > 1e-30f) & (n <= FLT_MAX); /* & rather than &&: no branch */
        float inv = 1.0f / sqrtf(tdn__select(ok, n, 1.0f));
        b->v[TDN_RX][l] = tdn__select(ok, b->v[TDN_RX][l] * inv, 0.0f);
        b->v[TDN_RY][l] = tdn__select(ok, b->v[TDN_RY][l] * inv, 0.0f);
        b->v[TDN_RZ][l] = tdn__select(ok, b->v[TDN_RZ][l] * inv, 0.0f);
        b->v[TDN_RW][l] = tdn__select(ok, b->v[TDN_RW][l] * inv, 1.0f);
    }
}

/* weight * mask clamped to [0, 1]; NaN gives 0. */
static inline float lane_weight(float weight, float mask)
{
    float w = weight * mask;
    w = tdn__select(w > 0.0f, w, 0.0f);
    return tdn__select(w < 1.0f, w, 1.0f);
}

/* acc += the layer `in` (weighted sums, with the weight total in `sum`). Each rotation is
 * flipped to agree with the sum so far, so the first contributing input sets the hemisphere;
 * then every term has a non-negative dot with the sum and the sum cannot cancel to zero
 * (|sum|^2 >= the sum of squared weights). `weight` is finite and >= 0 (any size: weights are
 * normalized); mask values are clamped to [0, 1] like everywhere else. */
static void accumulate(block *restrict acc, float *restrict sum, const block *restrict in, float weight,
                       const float *restrict mask)
{
    for (int l = 0; l < LANES; l++) {
        float w = weight * lane_weight(1.0f, mask[l]);
        float dot = acc->v[TDN_RX][l] * in->v[TDN_RX][l] + acc->v[TDN_RY][l] * in->v[TDN_RY][l] +
                    acc->v[TDN_RZ][l] * in->v[TDN_RZ][l] + acc->v[TDN_RW][l] * in->v[TDN_RW][l];
        float wr = tdn__select(dot < 0.0f, -w, w);
        sum[l] += w;
        for (int row = TDN_TX; row <= TDN_TZ; row++)
            acc->v[row][l] += w * in->v[row][l];
        for (int row = TDN_RX; row <= TDN_RW; row++)
            acc->v[row][l] += wr * in->v[row][l];
        for (int row = TDN_SX; row <= TDN_SZ; row++)
            acc->v[row][l] += w * in->v[row][l];
    }
}

/* Turns weighted sums into the blended values, or the fallback where the weights vanish.
 * Rotations are scaled too (not yet normalized) so their length stays near 1 whatever the
 * weights' scale. */
static void resolve(block *restrict acc, const float *restrict sum, const block *restrict fallback)
{
    for (int l = 0; l < LANES; l++) {
        int use = sum[l] > MIN_WEIGHT_SUM;
        float inv = 1.0f / tdn__select(use, sum[l], 1.0f);
        for (int row = 0; row < TDN_POSE_ROWS; row++)
            acc->v[row][l] = tdn__select(use, acc->v[row][l] * inv, fallback->v[row][l]);
    }
}

/* x = (D scaled by w) * x per lane, w = clamp01(weight * mask): t += w D.t,
 * r = nlerp(identity, D.r, w) * r along the short path, s *= lerp(1, D.s, w). The rotation
 * is left unnormalized (one normalization at the end serves every additive: lengths multiply).
 * At w = 1 the factors are exactly D.r (up to sign) and D.s. */
static void add_difference(block *restrict x, const block *restrict d, float weight, const float *restrict mask)
{
    for (int l = 0; l < LANES; l++) {
        float w = lane_weight(weight, mask[l]);
        float keep = 1.0f - w;
        for (int row = TDN_TX; row <= TDN_TZ; row++)
            x->v[row][l] += w * d->v[row][l];
        for (int row = TDN_SX; row <= TDN_SZ; row++)
            x->v[row][l] *= keep + w * d->v[row][l];
        /* (1 - w) identity + w D, D taken with w >= 0 (the short way from the identity) */
        float sw = copysignf(w, d->v[TDN_RW][l]);
        float ax = sw * d->v[TDN_RX][l], ay = sw * d->v[TDN_RY][l], az = sw * d->v[TDN_RZ][l];
        float aw = keep + w * fabsf(d->v[TDN_RW][l]);
        set_rotation_product(x, l, ax, ay, az, aw, x->v[TDN_RX][l], x->v[TDN_RY][l], x->v[TDN_RZ][l], x->v[TDN_RW][l]);
    }
}

tdn_result tdn_blend(const tdn_blend_job *job)
{
    if (!job || !pose_ok(job->out, NULL) || job->layer_count < 0 || job->additive_count < 0 ||
        (job->layer_count > 0 && !job->layers) || (job->additive_count > 0 && !job->additives))
        return TDN_ERR_ARGUMENT;
    tdn_pose *out = job->out;
    for (int i = 0; i < job->layer_count; i++)
        if (!pose_ok(job->layers[i].pose, out))
            return TDN_ERR_ARGUMENT;
    for (int i = 0; i < job->additive_count; i++)
        if (!pose_ok(job->additives[i].pose, out))
            return TDN_ERR_ARGUMENT;
    const tdn_pose *fallback = job->fallback ? job->fallback : (job->layer_count > 0 ? job->layers[0].pose : NULL);
    if (!pose_ok(fallback, out))
        return TDN_ERR_ARGUMENT;

    block acc, in;
    float sum[LANES];
    for (int j0 = 0; j0 < out->stride; j0 += LANES) {
        memset(&acc, 0, sizeof acc);
        memset(sum, 0, sizeof sum);
        for (int i = 0; i < job->layer_count; i++) {
            const tdn_blend_input *layer = &job->layers[i];
            float w = sane_weight(layer->weight);
            if (w == 0.0f)
                continue;
            load_block(&in, layer->pose, j0);
            accumulate(&acc, sum, &in, w, layer->joint_weights ? layer->joint_weights + j0 : ones);
        }
        load_block(&in, fallback, j0);
        resolve(&acc, sum, &in);
        for (int i = 0; i < job->additive_count; i++) {
            const tdn_blend_input *add = &job->additives[i];
            float w = tdn__clamp01(add->weight);
            if (w == 0.0f)
                continue;
            load_block(&in, add->pose, j0);
            add_difference(&acc, &in, w, add->joint_weights ? add->joint_weights + j0 : ones);
        }
        normalize_rotations(&acc);
        store_block(out, j0, &acc);
    }
    return TDN_OK;
}

tdn_result tdn_blend2(const tdn_pose *a, const tdn_pose *b, float w, const float *joint_weights, tdn_pose *out)
{
    if (!pose_ok(out, NULL) || !pose_ok(a, out) || !pose_ok(b, out))
        return TDN_ERR_ARGUMENT;
    w = tdn__clamp01(w);
    block x, y;
    for (int j0 = 0; j0 < out->stride; j0 += LANES) {
        load_block(&x, a, j0);
        load_block(&y, b, j0);
        const float *mask = joint_weights ? joint_weights + j0 : ones;
        for (int l = 0; l < LANES; l++) {
            /* (1 - wb) a + wb b: exactly a at wb = 0 and b at wb = 1 */
            float wb = lane_weight(w, mask[l]);
            float wa = 1.0f - wb;
            float dot = x.v[TDN_RX][l] * y.v[TDN_RX][l] + x.v[TDN_RY][l] * y.v[TDN_RY][l] +
                        x.v[TDN_RZ][l] * y.v[TDN_RZ][l] + x.v[TDN_RW][l] * y.v[TDN_RW][l];
            float wr = tdn__select(dot < 0.0f, -wb, wb);
            for (int row = TDN_TX; row <= TDN_TZ; row++)
                x.v[row][l] = wa * x.v[row][l] + wb * y.v[row][l];
            for (int row = TDN_RX; row <= TDN_RW; row++)
                x.v[row][l] = wa * x.v[row][l] + wr * y.v[row][l];
            for (int row = TDN_SX; row <= TDN_SZ; row++)
                x.v[row][l] = wa * x.v[row][l] + wb * y.v[row][l];
        }
        normalize_rotations(&x);
        store_block(out, j0, &x);
    }
    return TDN_OK;
}

/* out = source * reference^-1 per joint. A zero reference scale gives a scale difference of 1
 * (there is no ratio to take), so the result stays finite. */
tdn_result tdn_additive_make(const tdn_pose *source, const tdn_pose *reference, tdn_pose *out)
{
    if (!pose_ok(out, NULL) || !pose_ok(source, out) || !pose_ok(reference, out))
        return TDN_ERR_ARGUMENT;
    block s, r;
    for (int j0 = 0; j0 < out->stride; j0 += LANES) {
        load_block(&s, source, j0);
        load_block(&r, reference, j0);
        for (int l = 0; l < LANES; l++) {
            for (int row = TDN_TX; row <= TDN_TZ; row++)
                s.v[row][l] -= r.v[row][l];
            for (int row = TDN_SX; row <= TDN_SZ; row++) {
                int ok = r.v[row][l] != 0.0f;
                s.v[row][l] = tdn__select(ok, s.v[row][l], 1.0f) / tdn__select(ok, r.v[row][l], 1.0f);
            }
            /* S.r * conj(R.r) */
            set_rotation_product(&s, l, s.v[TDN_RX][l], s.v[TDN_RY][l], s.v[TDN_RZ][l], s.v[TDN_RW][l],
                                 -r.v[TDN_RX][l], -r.v[TDN_RY][l], -r.v[TDN_RZ][l], r.v[TDN_RW][l]);
        }
        normalize_rotations(&s);
        store_block(out, j0, &s);
    }
    return TDN_OK;
}

tdn_result tdn_additive_apply(const tdn_pose *target, const tdn_pose *difference, float weight,
                              const float *joint_weights, tdn_pose *out)
{
    if (!pose_ok(out, NULL) || !pose_ok(target, out) || !pose_ok(difference, out))
        return TDN_ERR_ARGUMENT;
    weight = tdn__clamp01(weight);
    block x, d;
    for (int j0 = 0; j0 < out->stride; j0 += LANES) {
        load_block(&x, target, j0);
        load_block(&d, difference, j0);
        add_difference(&x, &d, weight, joint_weights ? joint_weights + j0 : ones);
        normalize_rotations(&x);
        store_block(out, j0, &x);
    }
    return TDN_OK;
}

tdn_result tdn_pose_to_delta(const tdn_pose *pose, const tdn_pose *base, tdn_pose *out)
{
    return tdn_additive_make(pose, base, out);
}

/* out = delta * base: the exact inverse of tdn_pose_to_delta (no sign flip, no weight). */
tdn_result tdn_pose_from_delta(const tdn_pose *delta, const tdn_pose *base, tdn_pose *out)
{
    if (!pose_ok(out, NULL) || !pose_ok(delta, out) || !pose_ok(base, out))
        return TDN_ERR_ARGUMENT;
    block d, b;
    for (int j0 = 0; j0 < out->stride; j0 += LANES) {
        load_block(&d, delta, j0);
        load_block(&b, base, j0);
        for (int l = 0; l < LANES; l++) {
            for (int row = TDN_TX; row <= TDN_TZ; row++)
                d.v[row][l] += b.v[row][l];
            for (int row = TDN_SX; row <= TDN_SZ; row++)
                d.v[row][l] *= b.v[row][l];
            set_rotation_product(&d, l, d.v[TDN_RX][l], d.v[TDN_RY][l], d.v[TDN_RZ][l], d.v[TDN_RW][l],
                                 b.v[TDN_RX][l], b.v[TDN_RY][l], b.v[TDN_RZ][l], b.v[TDN_RW][l]);
        }
        normalize_rotations(&d);
        store_block(out, j0, &d);
    }
    return TDN_OK;
}
