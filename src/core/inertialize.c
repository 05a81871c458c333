/* tendon core: inertialization (see inertialize.h for the curves and the frame order).
 *
 * State: a 64-byte header, then per channel (translation, rotation, scale) seven rows of
 * `stride` floats: the direction (or rotation axis) X, Y, Z, then four curve rows.
 * Quintic: K0..K2 are the polynomial's first coefficients in the normalized time u = t / t1
 * (x(u) = K0 + K1 u + ... + K5 u^5, so K0 = x0, K1 = v0 t1, K2 = a0 t1^2 / 2: all of the size of
 * x0 whatever t1 is; K3..K5 follow from them) and INV = 1 / t1, 0 where there is no offset
 * (u stays 0, x = K0 = 0).
 * Spring: K0 = x0, K1 = v0 and x(t) = K0 P(t) + K1 Q(t), P and Q being the same for every
 * joint (they depend on t and the duration only), computed once per apply.
 * Padding lanes hold zeros: no offset, so they stay the identity. */
#include <string.h>

#include "internal.h"
#include "tendon/inertialize.h"
#include "tendon/skeleton.h"

enum { CH_DX, CH_DY, CH_DZ, CH_K0, CH_K1, CH_K2, CH_INV, CH_ROWS };
enum { CHANNEL_T, CHANNEL_R, CHANNEL_S, CHANNELS };
#define STATE_ROWS (CHANNELS * CH_ROWS)

struct tdn_inertializer {
    int joint_count;
    int stride;
    tdn_inertia_curve curve;
    int created;    /* 1: from tdn_inertializer_create (destroy frees it) */
    float elapsed;  /* seconds since start */
    float duration; /* of the last start */
    float end;      /* apply changes poses while elapsed < end */
    float pad_;
    tdn_allocator allocator;
    float *rows; /* STATE_ROWS * stride floats, 64-byte aligned, after the header */
};

#define HEADER_BYTES 64
_Static_assert(sizeof(struct tdn_inertializer) <= HEADER_BYTES, "inertializer header");

static float *channel(tdn_inertializer *in, int c) { return in->rows + (size_t)c * CH_ROWS * (size_t)in->stride; }

size_t tdn_inertializer_bytes(int joint_count)
{
    if (joint_count < 1 || joint_count > TDN_MAX_JOINTS)
        return 0;
    /* a whole number of alignments, so that inertializers can be laid out one after another */
    return tdn__align_up(HEADER_BYTES + (size_t)STATE_ROWS * (size_t)tdn_pose_stride(joint_count) * sizeof(float),
                         TDN_INERTIALIZER_ALIGN);
}

tdn_result tdn_inertializer_init(int joint_count, void *memory, size_t bytes, tdn_inertializer **out, tdn_error *err)
{
    if (!out)
        return tdn__null(err, "out");
    *out = NULL;
    if (!memory)
        return tdn__null(err, "memory");
    if (joint_count < 1 || joint_count > TDN_MAX_JOINTS)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "joint_count", "%d joints, not within 1..%d", joint_count,
                         TDN_MAX_JOINTS);
    if (((uintptr_t)memory % TDN_INERTIALIZER_ALIGN) != 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "memory", "not aligned to %d bytes", TDN_INERTIALIZER_ALIGN);
    const size_t need = tdn_inertializer_bytes(joint_count);
    if (bytes < need)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "bytes", "%zu bytes, %d joints need %zu (tdn_inertializer_bytes)",
                         bytes, joint_count, need);
    memset(memory, 0, need);
    tdn_inertializer *in = memory;
    in->joint_count = joint_count;
    in->stride = tdn_pose_stride(joint_count);
    in->curve = TDN_INERTIA_QUINTIC;
    in->rows = (float *)((char *)memory + HEADER_BYTES);
    *out = in;
    return TDN_OK;
}

tdn_result tdn_inertializer_create(int joint_count, tdn_inertializer **out, const tdn_allocator *allocator,
                                   tdn_error *err)
{
    if (!out)
        return tdn__null(err, "out");
    *out = NULL;
    const size_t bytes = tdn_inertializer_bytes(joint_count);
    if (bytes == 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "joint_count", "%d joints, not within 1..%d", joint_count,
                         TDN_MAX_JOINTS);
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    void *memory = tdn__alloc(allocator, bytes, TDN_INERTIALIZER_ALIGN);
    if (!memory)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "no memory for %zu bytes", bytes);
    tdn_inertializer *in = NULL;
    tdn_inertializer_init(joint_count, memory, bytes, &in, NULL);
    in->created = 1;
    if (allocator)
        in->allocator = *allocator;
    *out = in;
    return TDN_OK;
}

void tdn_inertializer_destroy(tdn_inertializer *in)
{
    if (!in || !in->created)
        return;
    tdn_allocator allocator = in->allocator;
    size_t bytes = tdn_inertializer_bytes(in->joint_count);
    memset(in, 0, HEADER_BYTES);
    tdn__free(&allocator, in, bytes);
}

int tdn_inertializer_active(const tdn_inertializer *in) { return in && in->elapsed < in->end; }
float tdn_inertializer_elapsed(const tdn_inertializer *in) { return in ? in->elapsed : 0.0f; }

/* ---- the curves ---- */

/* Bollo's quintic for x0 >= 0 with velocity v0 over `duration`: the four curve rows (K0..K2,
 * INV) and t1 as the return value (0: no offset). K3..K5 follow from K0..K2 (the curve ends at
 * rest: x, x' and x'' are 0 at u = 1) and are worked out where it is evaluated, which keeps the
 * state to seven rows per channel. */
static double quintic_coefficients(double x0, double v0, double duration, float k[4])
{
    memset(k, 0, 4 * sizeof k[0]);
    if (!(x0 > 0.0) || !(duration > 0.0) || !isfinite(x0) || !isfinite(v0) || !isfinite(duration))
        return 0.0;
    if (v0 > 0.0)
        v0 = 0.0; /* moving away from 0: it would overshoot */
    double t1 = duration;
    if (v0 < 0.0 && -5.0 * x0 / v0 < t1)
        t1 = -5.0 * x0 / v0;
    const double t_min = duration < TDN_INERTIA_MIN_TIME ? duration : (double)TDN_INERTIA_MIN_TIME;
    if (t1 < t_min) {
        t1 = t_min;
        v0 = -5.0 * x0 / t1;
    }
    const double v = v0 * t1;
    double acc = -8.0 * v - 20.0 * x0; /* a0 t1^2 */
    if (acc < 0.0)
        acc = 0.0;
    k[0] = (float)x0;
    k[1] = (float)v;
    k[2] = (float)(0.5 * acc);
    k[3] = (float)(1.0 / t1);
    return t1;
}

/* The spring's x(t) = x0 P + v0 Q for 0 <= t < duration (see inertialize.h). */
static void spring_factors(float t, float duration, float *p, float *q)
{
    const double T = duration, K = TDN_INERTIA_SPRING_DECAY, y = K / T;
    const double et = exp(-y * t), eT = exp(-K);
    const double u = t / T, h = u * u * u * (10.0 + u * (-15.0 + 6.0 * u)), g = u * u * u * (u - 1.0);
    *p = (float)(et * (1.0 + y * t) - h * eT * (1.0 + K) + g * K * K * eT);
    *q = (float)(t * et - h * T * eT - g * T * eT * (1.0 - K));
}

/* The quintic at time t from a channel's curve rows (row r of joint j at c[r * s + j]), for
 * x0 >= 0. The polynomial never crosses 0, but its float evaluation can, by ~1e-6 x0 near t1:
 * clamped. */
static inline float quintic_at(const float *restrict c, size_t s, size_t j, float t)
{
    const float u = t * c[(CH_INV - CH_K0) * s + j];
    const float k0 = c[j], k1 = c[s + j], k2 = c[2 * s + j];
    const float k3 = -(3.0f * k2 + 6.0f * k1 + 10.0f * k0), k4 = 3.0f * k2 + 8.0f * k1 + 15.0f * k0,
                k5 = -(k2 + 3.0f * k1 + 6.0f * k0);
    const float x = k0 + u * (k1 + u * (k2 + u * (k3 + u * (k4 + u * k5))));
    return tdn__select((u < 1.0f) & (x > 0.0f), x, 0.0f); /* rounding near t1 must not cross 0 */
}

/* sin and cos of a half angle th, by reduction to [-pi/2, pi/2] and Taylor polynomials to
 * degree 11 and 12 (truncation below 5.7e-8 and 6.4e-9 there). Plain arithmetic, so loops
 * calling it vectorize. */
static inline void half_sincos(float th, float *sn, float *cs)
{
    float n = th * 0.318309886f;
    n = tdn__select(n < 4194304.0f, n, 4194304.0f); /* keeps the conversion to int defined (NaN too) */
    n = tdn__select(n > -4194304.0f, n, -4194304.0f);
    const int k = (int)(n + tdn__select(n >= 0.0f, 0.5f, -0.5f));
    const float kf = (float)k;
    const float r = (th - kf * 3.14159274f) - kf * -8.74227766e-8f;
    const float r2 = r * r;
    const float sgn = (float)(1 - 2 * (k & 1));
    const float sp = r * (1.0f +
                          r2 * (-1.0f / 6.0f +
                                r2 * (1.0f / 120.0f +
                                      r2 * (-1.0f / 5040.0f + r2 * (1.0f / 362880.0f + r2 * (-1.0f / 39916800.0f))))));
    const float cp = 1.0f + r2 * (-0.5f + r2 * (1.0f / 24.0f +
                                                r2 * (-1.0f / 720.0f +
                                                      r2 * (1.0f / 40320.0f +
                                                            r2 * (-1.0f / 3628800.0f + r2 * (1.0f / 479001600.0f))))));
    *sn = sgn * sp;
    *cs = sgn * cp;
}

/* ---- per-frame kernels: the pose rows are written in place ---- */

TDN__KERNEL void add_vector_quintic(float *restrict ox, float *restrict oy, float *restrict oz,
                                    const float *restrict ch, int stride, float t)
{
    const size_t s = (size_t)stride;
    const float *restrict k = ch + CH_K0 * s;
    for (size_t j = 0; j < s; j++) {
        const float x = quintic_at(k, s, j, t);
        ox[j] += ch[j] * x;
        oy[j] += ch[s + j] * x;
        oz[j] += ch[2 * s + j] * x;
    }
}

TDN__KERNEL void add_vector_spring(float *restrict ox, float *restrict oy, float *restrict oz, const float *restrict ch,
                                   int stride, float p, float q)
{
    const size_t s = (size_t)stride;
    for (size_t j = 0; j < s; j++) {
        const float x = ch[CH_K0 * s + j] * p + ch[CH_K1 * s + j] * q;
        ox[j] += ch[j] * x;
        oy[j] += ch[s + j] * x;
        oz[j] += ch[2 * s + j] * x;
    }
}

/* r = axis_angle(axis, x) * r */
static inline void rotate_lane(float *restrict rx, float *restrict ry, float *restrict rz, float *restrict rw,
                               const float *restrict ch, size_t s, size_t j, float x)
{
    float sn, cs;
    half_sincos(0.5f * x, &sn, &cs);
    const float qx = ch[j] * sn, qy = ch[s + j] * sn, qz = ch[2 * s + j] * sn;
    const float dx = rx[j], dy = ry[j], dz = rz[j], dw = rw[j];
    rx[j] = cs * dx + qx * dw + qy * dz - qz * dy;
    ry[j] = cs * dy - qx * dz + qy * dw + qz * dx;
    rz[j] = cs * dz + qx * dy - qy * dx + qz * dw;
    rw[j] = cs * dw - qx * dx - qy * dy - qz * dz;
}

TDN__KERNEL void rotate_quintic(float *restrict rx, float *restrict ry, float *restrict rz, float *restrict rw,
                                const float *restrict ch, int stride, float t)
{
    const size_t s = (size_t)stride;
    const float *restrict k = ch + CH_K0 * s;
    for (size_t j = 0; j < s; j++)
        rotate_lane(rx, ry, rz, rw, ch, s, j, quintic_at(k, s, j, t));
}

TDN__KERNEL void rotate_spring(float *restrict rx, float *restrict ry, float *restrict rz, float *restrict rw,
                               const float *restrict ch, int stride, float p, float q)
{
    const size_t s = (size_t)stride;
    for (size_t j = 0; j < s; j++)
        rotate_lane(rx, ry, rz, rw, ch, s, j, ch[CH_K0 * s + j] * p + ch[CH_K1 * s + j] * q);
}

/* Why pose_matches refused `pose` (`where`). */
static tdn_result pose_fail(const tdn_inertializer *in, const tdn_pose *pose, const char *where, tdn_error *err)
{
    if (!pose || !pose->data)
        return tdn__null(err, where);
    return tdn__pose_size(err, where, pose->joint_count, in->joint_count, "the inertializer");
}

tdn_result tdn_inertializer_apply(tdn_inertializer *in, float dt, tdn_pose *pose, tdn_error *err)
{
    if (!in || !pose || !pose->data || pose->joint_count != in->joint_count || pose->stride != in->stride ||
        !(dt >= 0.0f) || !tdn__finite(dt)) {
        if (!in)
            return tdn__null(err, "in");
        if (!pose || !pose->data || pose->joint_count != in->joint_count || pose->stride != in->stride)
            return pose_fail(in, pose, "pose", err);
        return tdn__fail(err, TDN_ERR_ARGUMENT, "dt", "%g is not a finite time >= 0", (double)dt);
    }
    in->elapsed += dt;
    if (!(in->elapsed < in->end))
        return TDN_OK;
    const float t = in->elapsed;
    const int s = in->stride;
    float p = 0.0f, q = 0.0f;
    const int spring = in->curve == TDN_INERTIA_SPRING;
    if (spring)
        spring_factors(t, in->duration, &p, &q);
    const int rows[2] = { TDN_TX, TDN_SX }, chans[2] = { CHANNEL_T, CHANNEL_S };
    for (int i = 0; i < 2; i++) {
        float *o = tdn_pose_row(pose, rows[i]);
        if (spring)
            add_vector_spring(o, o + s, o + 2 * s, channel(in, chans[i]), s, p, q);
        else
            add_vector_quintic(o, o + s, o + 2 * s, channel(in, chans[i]), s, t);
    }
    float *r = tdn_pose_row(pose, TDN_RX);
    if (spring)
        rotate_spring(r, r + s, r + 2 * s, r + 3 * s, channel(in, CHANNEL_R), s, p, q);
    else
        rotate_quintic(r, r + s, r + 2 * s, r + 3 * s, channel(in, CHANNEL_R), s, t);
    return TDN_OK;
}

/* ---- start ---- */

typedef struct offset1 {
    double dir[3];
    double x0, v0;
} offset1;

/* A vector channel: offset c - d along its unit direction; velocity from p (may be NULL). */
static int vector_offset(const double c[3], const double d[3], const double *p, double inv_dt, offset1 *o)
{
    double e[3] = { c[0] - d[0], c[1] - d[1], c[2] - d[2] };
    o->x0 = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    if (!(o->x0 > 0.0) || !isfinite(o->x0))
        return 0;
    for (int i = 0; i < 3; i++)
        o->dir[i] = e[i] / o->x0;
    o->v0 = 0.0;
    if (p) {
        double prev = (p[0] - d[0]) * o->dir[0] + (p[1] - d[1]) * o->dir[1] + (p[2] - d[2]) * o->dir[2];
        o->v0 = (o->x0 - prev) * inv_dt;
    }
    if (!isfinite(o->v0))
        o->v0 = 0.0;
    return 1;
}

/* q * conj(d) in double */
static void quat_offset(const double q[4], const double d[4], double o[4])
{
    /* (qx,qy,qz,qw) * (-dx,-dy,-dz,dw) */
    o[0] = q[3] * -d[0] + q[0] * d[3] + q[1] * -d[2] - q[2] * -d[1];
    o[1] = q[3] * -d[1] - q[0] * -d[2] + q[1] * d[3] + q[2] * -d[0];
    o[2] = q[3] * -d[2] + q[0] * -d[1] - q[1] * -d[0] + q[2] * d[3];
    o[3] = q[3] * d[3] - q[0] * -d[0] - q[1] * -d[1] - q[2] * -d[2];
}

/* The rotation channel: current * destination^-1 the short way, as axis and angle; the
 * velocity of the angle from the previous offset's twist about that axis. */
static int rotation_offset(const double c[4], const double d[4], const double *p, double inv_dt, offset1 *o)
{
    double off[4];
    quat_offset(c, d, off);
    if (off[3] < 0.0)
        for (int i = 0; i < 4; i++)
            off[i] = -off[i];
    const double sn = sqrt(off[0] * off[0] + off[1] * off[1] + off[2] * off[2]);
    if (!(sn > 0.0) || !isfinite(sn) || !isfinite(off[3]))
        return 0;
    o->x0 = 2.0 * atan2(sn, off[3]);
    for (int i = 0; i < 3; i++)
        o->dir[i] = off[i] / sn;
    o->v0 = 0.0;
    if (p) {
        double prev[4];
        quat_offset(p, d, prev);
        if (prev[0] * off[0] + prev[1] * off[1] + prev[2] * off[2] + prev[3] * off[3] < 0.0)
            for (int i = 0; i < 4; i++)
                prev[i] = -prev[i];
        const double along = prev[0] * o->dir[0] + prev[1] * o->dir[1] + prev[2] * o->dir[2];
        o->v0 = (o->x0 - 2.0 * atan2(along, prev[3])) * inv_dt;
    }
    if (!isfinite(o->v0))
        o->v0 = 0.0;
    return 1;
}

static void load(const tdn_pose *pose, int row, int count, size_t j, double *v)
{
    const float *d = tdn_pose_crow(pose, row);
    for (int i = 0; i < count; i++)
        v[i] = d[(size_t)i * (size_t)pose->stride + j];
}

static int pose_matches(const tdn_inertializer *in, const tdn_pose *pose)
{
    return pose && pose->data && pose->joint_count == in->joint_count && pose->stride == in->stride;
}

tdn_result tdn_inertializer_start(tdn_inertializer *in, const tdn_pose *current, const tdn_pose *previous, float dt,
                                  const tdn_pose *destination, float duration, tdn_inertia_curve curve, tdn_error *err)
{
    if (!in)
        return tdn__null(err, "in");
    if (!pose_matches(in, current))
        return pose_fail(in, current, "current", err);
    if (!pose_matches(in, destination))
        return pose_fail(in, destination, "destination", err);
    if (previous && !pose_matches(in, previous))
        return pose_fail(in, previous, "previous", err);
    if (!(dt >= 0.0f) || !tdn__finite(dt))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "dt", "%g is not a finite time >= 0", (double)dt);
    if (!(duration >= 0.0f) || !tdn__finite(duration))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "duration", "%g is not a finite time >= 0", (double)duration);
    if (curve != TDN_INERTIA_QUINTIC && curve != TDN_INERTIA_SPRING)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "curve", "%d is not a tdn_inertia_curve", (int)curve);
    const size_t s = (size_t)in->stride;
    memset(in->rows, 0, (size_t)STATE_ROWS * s * sizeof(float));
    in->curve = curve;
    in->elapsed = 0.0f;
    in->duration = duration;
    in->end = 0.0f;
    if (duration == 0.0f)
        return TDN_OK; /* a cut */
    if (dt == 0.0f)
        previous = NULL;
    const double inv_dt = previous ? 1.0 / (double)dt : 0.0;
    const int first_row[CHANNELS] = { TDN_TX, TDN_RX, TDN_SX }, width[CHANNELS] = { 3, 4, 3 };
    double end = 0.0;
    for (size_t j = 0; j < (size_t)in->joint_count; j++) {
        for (int c = 0; c < CHANNELS; c++) {
            double cv[4], dv[4], pv[4];
            load(current, first_row[c], width[c], j, cv);
            load(destination, first_row[c], width[c], j, dv);
            if (previous)
                load(previous, first_row[c], width[c], j, pv);
            offset1 o;
            const double *pp = previous ? pv : NULL;
            if (!(c == CHANNEL_R ? rotation_offset(cv, dv, pp, inv_dt, &o) : vector_offset(cv, dv, pp, inv_dt, &o)))
                continue;
            float k[4] = { 0 };
            double t_end = duration;
            if (curve == TDN_INERTIA_QUINTIC) {
                t_end = quintic_coefficients(o.x0, o.v0, duration, k);
            } else {
                k[0] = (float)o.x0;
                k[1] = (float)o.v0;
            }
            float *ch = channel(in, c);
            for (int i = 0; i < 3; i++)
                ch[(size_t)(CH_DX + i) * s + j] = (float)o.dir[i];
            for (int i = 0; i < 4; i++)
                ch[(size_t)(CH_K0 + i) * s + j] = k[i];
            if (t_end > end)
                end = t_end;
        }
    }
    in->end = (float)end;
    return TDN_OK;
}

float tdn_inertia_curve_value(tdn_inertia_curve curve, float x0, float v0, float duration, float t)
{
    if (!tdn__finite(x0) || !tdn__finite(v0) || !tdn__finite(duration) || !(duration > 0.0f) || t != t)
        return 0.0f;
    if (t < 0.0f)
        t = 0.0f;
    if (curve == TDN_INERTIA_SPRING) {
        if (t >= duration)
            return 0.0f;
        float p, q;
        spring_factors(t, duration, &p, &q);
        return x0 * p + v0 * q;
    }
    if (curve != TDN_INERTIA_QUINTIC)
        return 0.0f;
    const float sign = x0 < 0.0f ? -1.0f : 1.0f;
    float k[4];
    quintic_coefficients((double)(sign * x0), (double)(sign * v0), duration, k);
    return sign * quintic_at(k, 1, 0, t);
}
