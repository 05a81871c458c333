/* tendon core: the non-inline parts of vecmath.h. */
#include "tendon/vecmath.h"

#include "quat_arc.h"

tdn_quat tdn_quat_from_axis_angle(tdn_vec3 axis, float angle)
{
    tdn_vec3 n = tdn_vec3_normalize(axis);
    float s = sinf(0.5f * angle);
    return tdn_quat_make(n.x * s, n.y * s, n.z * s, cosf(0.5f * angle));
}

void tdn_quat_to_axis_angle(tdn_quat q, tdn_vec3 *axis, float *angle)
{
    if (q.w < 0.0f)
        q = tdn_quat_negate(q);
    float s = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    /* atan2 keeps full precision for small angles, where acos(w) does not. */
    float a = 2.0f * atan2f(s, q.w);
    if (axis)
        *axis = s > 0.0f ? tdn_vec3_make(q.x / s, q.y / s, q.z / s) : tdn_vec3_make(1.0f, 0.0f, 0.0f);
    if (angle)
        *angle = a;
}

tdn_quat tdn_quat_from_to(tdn_vec3 from, tdn_vec3 to)
{
    float d = tdn_vec3_dot(from, to);
    if (d < -0.999999f) {
        /* Opposite vectors: any axis perpendicular to `from` turns it half way round. */
        tdn_vec3 axis = tdn_vec3_cross(tdn_vec3_make(1.0f, 0.0f, 0.0f), from);
        if (tdn_vec3_dot(axis, axis) < 1e-6f)
            axis = tdn_vec3_cross(tdn_vec3_make(0.0f, 1.0f, 0.0f), from);
        return tdn_quat_from_axis_angle(axis, TDN_PI);
    }
    tdn_vec3 c = tdn_vec3_cross(from, to);
    return tdn_quat_normalize(tdn_quat_make(c.x, c.y, c.z, 1.0f + d));
}

float tdn_quat_angle_between(tdn_quat a, tdn_quat b)
{
    tdn_quat d = tdn_quat_mul(tdn_quat_conjugate(a), b);
    float v = sqrtf(d.x * d.x + d.y * d.y + d.z * d.z);
    return 2.0f * atan2f(v, fabsf(d.w));
}

tdn_quat tdn_quat_nlerp(tdn_quat a, tdn_quat b, float t)
{
    if (tdn_quat_dot(a, b) < 0.0f)
        b = tdn_quat_negate(b);
    return tdn_quat_normalize(
        tdn_quat_make(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t));
}

tdn_quat tdn_quat_slerp(tdn_quat a, tdn_quat b, float t)
{
    const tdn__quat_arc arc = tdn__quat_arc_make(a, b);
    return tdn__quat_arc_at(&arc, t);
}

tdn_quat tdn_quat_slerp_fast(tdn_quat a, tdn_quat b, float t)
{
    float d = tdn_quat_dot(a, b);
    if (d < 0.0f) {
        b = tdn_quat_negate(b);
        d = -d;
    }
    /* nlerp runs fast in the middle of the arc; u = t + g(t) * (k(d) + h(t) * m(d)) slows it
     * there to constant speed. g is odd about t = 1/2 and vanishes at 0, 1/2 and 1, so the
     * ends and the midpoint stay exact. k and m are cubics in d fitted by least squares to
     * the exact parameter sin(t th) / (sin(t th) + sin((1-t) th)), th = acos(d). */
    float g = t * (t - 0.5f) * (t - 1.0f);
    float h = (t - 0.5f) * (t - 0.5f);
    float k = 0.8507819f + d * (-1.1014691f + d * (0.3230332f + d * -0.0726980f));
    float m = 1.0391149f + d * (-2.8424043f + d * (2.6670253f + d * -0.8699529f));
    float u = t + g * (k + h * m);
    return tdn_quat_normalize(
        tdn_quat_make(a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.z + (b.z - a.z) * u, a.w + (b.w - a.w) * u));
}

tdn_mat4 tdn_mat4_identity(void)
{
    tdn_mat4 m = { { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 } };
    return m;
}

tdn_mat4 tdn_mat4_from_quat(tdn_quat q)
{
    float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    tdn_mat4 m = { { 1.0f - 2.0f * (yy + zz), 2.0f * (xy + wz), 2.0f * (xz - wy), 0.0f, 2.0f * (xy - wz),
                     1.0f - 2.0f * (xx + zz), 2.0f * (yz + wx), 0.0f, 2.0f * (xz + wy), 2.0f * (yz - wx),
                     1.0f - 2.0f * (xx + yy), 0.0f, 0.0f, 0.0f, 0.0f, 1.0f } };
    return m;
}

tdn_quat tdn_quat_from_mat4(const tdn_mat4 *mat)
{
    const float *m = mat->m;
    float m00 = m[0], m11 = m[5], m22 = m[10];
    float trace = m00 + m11 + m22;
    tdn_quat q;
    /* Take the largest of w, x, y, z first so the division is well conditioned. */
    if (trace > 0.0f) {
        float s = 2.0f * sqrtf(trace + 1.0f);
        q = tdn_quat_make((m[6] - m[9]) / s, (m[8] - m[2]) / s, (m[1] - m[4]) / s, 0.25f * s);
    } else if (m00 > m11 && m00 > m22) {
        float s = 2.0f * sqrtf(1.0f + m00 - m11 - m22);
        q = tdn_quat_make(0.25f * s, (m[4] + m[1]) / s, (m[8] + m[2]) / s, (m[6] - m[9]) / s);
    } else if (m11 > m22) {
        float s = 2.0f * sqrtf(1.0f + m11 - m00 - m22);
        q = tdn_quat_make((m[4] + m[1]) / s, 0.25f * s, (m[9] + m[6]) / s, (m[8] - m[2]) / s);
    } else {
        float s = 2.0f * sqrtf(1.0f + m22 - m00 - m11);
        q = tdn_quat_make((m[8] + m[2]) / s, (m[9] + m[6]) / s, 0.25f * s, (m[1] - m[4]) / s);
    }
    return tdn_quat_normalize(q);
}

tdn_mat4 tdn_mat4_mul(const tdn_mat4 *a, const tdn_mat4 *b)
{
    tdn_mat4 r;
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++)
            r.m[col * 4 + row] = a->m[row] * b->m[col * 4] + a->m[4 + row] * b->m[col * 4 + 1] +
                                 a->m[8 + row] * b->m[col * 4 + 2] + a->m[12 + row] * b->m[col * 4 + 3];
    return r;
}

int tdn_mat4_invert(const tdn_mat4 *mat, tdn_mat4 *out)
{
    /* Cofactor expansion in double precision: inverse bind matrices are computed once and
     * must not lose the precision a chain of float products would. */
    double m[16], inv[16];
    for (int i = 0; i < 16; i++)
        m[i] = mat->m[i];
    inv[0] = m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15] + m[9] * m[7] * m[14] +
             m[13] * m[6] * m[11] - m[13] * m[7] * m[10];
    inv[4] = -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15] - m[8] * m[7] * m[14] -
             m[12] * m[6] * m[11] + m[12] * m[7] * m[10];
    inv[8] = m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15] + m[8] * m[7] * m[13] +
             m[12] * m[5] * m[11] - m[12] * m[7] * m[9];
    inv[12] = -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14] - m[8] * m[6] * m[13] -
              m[12] * m[5] * m[10] + m[12] * m[6] * m[9];
    inv[1] = -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15] - m[9] * m[3] * m[14] -
             m[13] * m[2] * m[11] + m[13] * m[3] * m[10];
    inv[5] = m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15] + m[8] * m[3] * m[14] +
             m[12] * m[2] * m[11] - m[12] * m[3] * m[10];
    inv[9] = -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15] - m[8] * m[3] * m[13] -
             m[12] * m[1] * m[11] + m[12] * m[3] * m[9];
    inv[13] = m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14] + m[8] * m[2] * m[13] +
              m[12] * m[1] * m[10] - m[12] * m[2] * m[9];
    inv[2] = m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15] + m[5] * m[3] * m[14] +
             m[13] * m[2] * m[7] - m[13] * m[3] * m[6];
    inv[6] = -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15] - m[4] * m[3] * m[14] -
             m[12] * m[2] * m[7] + m[12] * m[3] * m[6];
    inv[10] = m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15] + m[4] * m[3] * m[13] +
              m[12] * m[1] * m[7] - m[12] * m[3] * m[5];
    inv[14] = -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14] - m[4] * m[2] * m[13] -
              m[12] * m[1] * m[6] + m[12] * m[2] * m[5];
    inv[3] = -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11] - m[5] * m[3] * m[10] -
             m[9] * m[2] * m[7] + m[9] * m[3] * m[6];
    inv[7] = m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11] + m[4] * m[3] * m[10] +
             m[8] * m[2] * m[7] - m[8] * m[3] * m[6];
    inv[11] = -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11] - m[4] * m[3] * m[9] -
              m[8] * m[1] * m[7] + m[8] * m[3] * m[5];
    inv[15] = m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10] + m[4] * m[2] * m[9] + m[8] * m[1] * m[6] -
              m[8] * m[2] * m[5];
    double det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12];
    double scale = 0.0;
    for (int i = 0; i < 16; i++)
        scale = fabs(m[i]) > scale ? fabs(m[i]) : scale;
    /* Singular relative to the matrix's own magnitude (det scales with the cube of it). */
    if (!(fabs(det) > 1e-12 * scale * scale * scale) || !isfinite(det)) {
        *out = tdn_mat4_identity();
        return 0;
    }
    for (int i = 0; i < 16; i++)
        out->m[i] = (float)(inv[i] / det);
    return 1;
}

tdn_vec3 tdn_mat4_transform_point(const tdn_mat4 *a, tdn_vec3 p)
{
    const float *m = a->m;
    return tdn_vec3_make(m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12], m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13],
                         m[2] * p.x + m[6] * p.y + m[10] * p.z + m[14]);
}

tdn_vec3 tdn_mat4_transform_vector(const tdn_mat4 *a, tdn_vec3 v)
{
    const float *m = a->m;
    return tdn_vec3_make(m[0] * v.x + m[4] * v.y + m[8] * v.z, m[1] * v.x + m[5] * v.y + m[9] * v.z,
                         m[2] * v.x + m[6] * v.y + m[10] * v.z);
}

tdn_mat4 tdn_transform_to_mat4(const tdn_transform *x)
{
    tdn_mat4 m = tdn_mat4_from_quat(x->r);
    const float s[3] = { x->s.x, x->s.y, x->s.z };
    for (int col = 0; col < 3; col++)
        for (int row = 0; row < 3; row++)
            m.m[col * 4 + row] *= s[col];
    m.m[12] = x->t.x;
    m.m[13] = x->t.y;
    m.m[14] = x->t.z;
    return m;
}

tdn_transform tdn_transform_from_mat4(const tdn_mat4 *mat)
{
    const float *m = mat->m;
    tdn_transform x = tdn_transform_identity();
    x.t = tdn_vec3_make(m[12], m[13], m[14]);
    /* Polar decomposition of the upper 3x3 (A = R * S) by the averaging iteration
     * R <- (R + R^-T) / 2, in double: exact in one step without shear, the closest rotation
     * with it. */
    double r[9], a[9];
    for (int col = 0; col < 3; col++)
        for (int row = 0; row < 3; row++)
            a[col * 3 + row] = r[col * 3 + row] = m[col * 4 + row];
    double det = r[0] * (r[4] * r[8] - r[7] * r[5]) - r[3] * (r[1] * r[8] - r[7] * r[2]) +
                 r[6] * (r[1] * r[5] - r[4] * r[2]);
    if (!(fabs(det) > 1e-30)) {
        /* Degenerate (a zero scale): keep the column lengths, no rotation. */
        x.s = tdn_vec3_make(sqrtf(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]),
                            sqrtf(m[4] * m[4] + m[5] * m[5] + m[6] * m[6]),
                            sqrtf(m[8] * m[8] + m[9] * m[9] + m[10] * m[10]));
        return x;
    }
    double sign = det < 0.0 ? -1.0 : 1.0; /* a mirror goes into the x scale */
    for (int i = 0; i < 3; i++)
        r[i] *= sign;
    for (int iter = 0; iter < 32; iter++) {
        double d = r[0] * (r[4] * r[8] - r[7] * r[5]) - r[3] * (r[1] * r[8] - r[7] * r[2]) +
                   r[6] * (r[1] * r[5] - r[4] * r[2]);
        /* inverse transpose = cofactor matrix / det */
        double c[9] = {
            (r[4] * r[8] - r[5] * r[7]) / d, (r[5] * r[6] - r[3] * r[8]) / d, (r[3] * r[7] - r[4] * r[6]) / d,
            (r[2] * r[7] - r[1] * r[8]) / d, (r[0] * r[8] - r[2] * r[6]) / d, (r[1] * r[6] - r[0] * r[7]) / d,
            (r[1] * r[5] - r[2] * r[4]) / d, (r[2] * r[3] - r[0] * r[5]) / d, (r[0] * r[4] - r[1] * r[3]) / d,
        };
        double change = 0.0;
        for (int i = 0; i < 9; i++) {
            double next = 0.5 * (r[i] + c[i]);
            change += fabs(next - r[i]);
            r[i] = next;
        }
        if (change < 1e-12)
            break;
    }
    tdn_mat4 rot = tdn_mat4_identity();
    for (int col = 0; col < 3; col++)
        for (int row = 0; row < 3; row++)
            rot.m[col * 4 + row] = (float)r[col * 3 + row];
    x.r = tdn_quat_from_mat4(&rot);
    /* Scale along each rotated axis: S = R^T A, diagonal. */
    double s[3];
    for (int k = 0; k < 3; k++)
        s[k] = r[k * 3] * a[k * 3] + r[k * 3 + 1] * a[k * 3 + 1] + r[k * 3 + 2] * a[k * 3 + 2];
    x.s = tdn_vec3_make((float)s[0], (float)s[1], (float)s[2]);
    return x;
}

tdn_transform tdn_transform_mul(const tdn_transform *parent, const tdn_transform *child)
{
    tdn_transform x;
    x.t = tdn_vec3_add(parent->t, tdn_quat_rotate(parent->r, tdn_vec3_mul(parent->s, child->t)));
    x.r = tdn_quat_normalize(tdn_quat_mul(parent->r, child->r));
    x.s = tdn_vec3_mul(parent->s, child->s);
    return x;
}

tdn_transform tdn_transform_inverse(const tdn_transform *x)
{
    tdn_transform inv;
    inv.r = tdn_quat_conjugate(x->r);
    inv.s = tdn_vec3_make(1.0f / x->s.x, 1.0f / x->s.y, 1.0f / x->s.z);
    inv.t = tdn_vec3_scale(tdn_vec3_mul(inv.s, tdn_quat_rotate(inv.r, x->t)), -1.0f);
    return inv;
}

tdn_vec3 tdn_transform_point(const tdn_transform *x, tdn_vec3 p)
{
    return tdn_vec3_add(x->t, tdn_quat_rotate(x->r, tdn_vec3_mul(x->s, p)));
}
