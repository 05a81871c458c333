/* tendon: 3-vectors, quaternions, transforms and 4x4 matrices.
 *
 * Conventions: quaternions are (x, y, z, w) with w the scalar part, unit length for rotations,
 * and rotate vectors as q v q*. Matrices are 4x4, column-major as in glTF (m[col * 4 + row]),
 * acting on column vectors: p' = M p. A transform is translation, rotation and scale applied
 * to a point as T * R * S (scale first), like a glTF node. All angles are radians.
 * Small functions are inline here; the rest live in vecmath.c. Everything is thread-safe
 * (pure functions). */
#ifndef TENDON_VECMATH_H
#define TENDON_VECMATH_H

#include <math.h>
#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tdn_vec3 {
    float x, y, z;
} tdn_vec3;
typedef struct tdn_quat {
    float x, y, z, w;
} tdn_quat;
typedef struct tdn_transform {
    tdn_vec3 t;
    tdn_quat r;
    tdn_vec3 s;
} tdn_transform;
typedef struct tdn_mat4 {
    float m[16];
} tdn_mat4;

#define TDN_PI 3.14159265358979323846f

static inline tdn_vec3 tdn_vec3_make(float x, float y, float z)
{
    tdn_vec3 v = { x, y, z };
    return v;
}
static inline tdn_vec3 tdn_vec3_add(tdn_vec3 a, tdn_vec3 b) { return tdn_vec3_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline tdn_vec3 tdn_vec3_sub(tdn_vec3 a, tdn_vec3 b) { return tdn_vec3_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline tdn_vec3 tdn_vec3_scale(tdn_vec3 a, float s) { return tdn_vec3_make(a.x * s, a.y * s, a.z * s); }
static inline tdn_vec3 tdn_vec3_mul(tdn_vec3 a, tdn_vec3 b) { return tdn_vec3_make(a.x * b.x, a.y * b.y, a.z * b.z); }
static inline float tdn_vec3_dot(tdn_vec3 a, tdn_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline tdn_vec3 tdn_vec3_cross(tdn_vec3 a, tdn_vec3 b)
{
    return tdn_vec3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline float tdn_vec3_length(tdn_vec3 a) { return sqrtf(tdn_vec3_dot(a, a)); }
static inline tdn_vec3 tdn_vec3_lerp(tdn_vec3 a, tdn_vec3 b, float t)
{
    return tdn_vec3_make(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
}
/* Unit vector along a; the zero vector stays zero. */
static inline tdn_vec3 tdn_vec3_normalize(tdn_vec3 a)
{
    float len = tdn_vec3_length(a);
    return len > 0.0f ? tdn_vec3_scale(a, 1.0f / len) : a;
}

static inline tdn_quat tdn_quat_make(float x, float y, float z, float w)
{
    tdn_quat q = { x, y, z, w };
    return q;
}
static inline tdn_quat tdn_quat_identity(void) { return tdn_quat_make(0.0f, 0.0f, 0.0f, 1.0f); }
static inline float tdn_quat_dot(tdn_quat a, tdn_quat b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
/* The inverse of a unit quaternion. */
static inline tdn_quat tdn_quat_conjugate(tdn_quat q) { return tdn_quat_make(-q.x, -q.y, -q.z, q.w); }
static inline tdn_quat tdn_quat_negate(tdn_quat q) { return tdn_quat_make(-q.x, -q.y, -q.z, -q.w); }
/* a * b: the rotation b followed by a. */
static inline tdn_quat tdn_quat_mul(tdn_quat a, tdn_quat b)
{
    return tdn_quat_make(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                         a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}
/* Unit quaternion along q; a zero quaternion becomes the identity. */
static inline tdn_quat tdn_quat_normalize(tdn_quat q)
{
    float len2 = tdn_quat_dot(q, q);
    if (!(len2 > 0.0f))
        return tdn_quat_identity();
    float inv = 1.0f / sqrtf(len2);
    return tdn_quat_make(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
}
/* Rotate v by unit quaternion q. */
static inline tdn_vec3 tdn_quat_rotate(tdn_quat q, tdn_vec3 v)
{
    tdn_vec3 u = tdn_vec3_make(q.x, q.y, q.z);
    tdn_vec3 t = tdn_vec3_scale(tdn_vec3_cross(u, v), 2.0f);
    return tdn_vec3_add(tdn_vec3_add(v, tdn_vec3_scale(t, q.w)), tdn_vec3_cross(u, t));
}

static inline tdn_transform tdn_transform_identity(void)
{
    tdn_transform x = { { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.0f, 1.0f }, { 1.0f, 1.0f, 1.0f } };
    return x;
}

/* Rotation of `angle` radians about unit `axis`. */
TDN_API tdn_quat tdn_quat_from_axis_angle(tdn_vec3 axis, float angle);
/* Axis and angle (in [0, pi]) of unit q; the identity gives axis (1,0,0), angle 0. */
TDN_API void tdn_quat_to_axis_angle(tdn_quat q, tdn_vec3 *axis, float *angle);
/* The shortest rotation taking unit vector `from` to unit vector `to`. */
TDN_API tdn_quat tdn_quat_from_to(tdn_vec3 from, tdn_vec3 to);
/* Angle in radians, in [0, pi], of the rotation from a to b (sign-insensitive: q and -q are
 * the same rotation). */
TDN_API float tdn_quat_angle_between(tdn_quat a, tdn_quat b);
/* Spherical linear interpolation along the shorter arc; t = 0 gives a, t = 1 gives +-b. */
TDN_API tdn_quat tdn_quat_slerp(tdn_quat a, tdn_quat b, float t);
/* Normalized linear interpolation along the shorter arc (not constant speed). */
TDN_API tdn_quat tdn_quat_nlerp(tdn_quat a, tdn_quat b, float t);
/* Constant-speed slerp approximated without trigonometry: nlerp at a corrected parameter
 * u = t + c(t, dot) fitted to the exact arc. Its largest angular error against tdn_quat_slerp,
 * measured over unit inputs at every angle and t in [0, 1], is 6.4e-4 rad (0.037 degrees);
 * TDN_FAST_SLERP_MAX_ERROR states that bound and tests/test_vecmath.c re-measures it. */
TDN_API tdn_quat tdn_quat_slerp_fast(tdn_quat a, tdn_quat b, float t);
#define TDN_FAST_SLERP_MAX_ERROR 7.0e-4f

/* Rotation part of a matrix whose upper 3x3 is a pure rotation (orthonormal). */
TDN_API tdn_quat tdn_quat_from_mat4(const tdn_mat4 *m);
TDN_API tdn_mat4 tdn_mat4_from_quat(tdn_quat q);

/* The 4x4 identity matrix. */
TDN_API tdn_mat4 tdn_mat4_identity(void);
/* a * b (apply b first). */
TDN_API tdn_mat4 tdn_mat4_mul(const tdn_mat4 *a, const tdn_mat4 *b);
/* General inverse; returns 0 (and writes the identity) when m is singular, 1 otherwise. */
TDN_API int tdn_mat4_invert(const tdn_mat4 *m, tdn_mat4 *out);
TDN_API tdn_vec3 tdn_mat4_transform_point(const tdn_mat4 *m, tdn_vec3 p);
TDN_API tdn_vec3 tdn_mat4_transform_vector(const tdn_mat4 *m, tdn_vec3 v);

/* T * R * S as a matrix. */
TDN_API tdn_mat4 tdn_transform_to_mat4(const tdn_transform *x);
/* Decompose an affine matrix into translation, rotation and positive-or-negative scale; exact
 * for matrices without shear, a best fit (polar rotation) otherwise. */
TDN_API tdn_transform tdn_transform_from_mat4(const tdn_mat4 *m);
/* parent * child as transforms (exact when scales are uniform, as for matrices otherwise up to
 * shear, which a TRS transform cannot hold). */
TDN_API tdn_transform tdn_transform_mul(const tdn_transform *parent, const tdn_transform *child);
/* The inverse transform (exact for uniform scale). */
TDN_API tdn_transform tdn_transform_inverse(const tdn_transform *x);
TDN_API tdn_vec3 tdn_transform_point(const tdn_transform *x, tdn_vec3 p);

#ifdef __cplusplus
}
#endif
#endif
