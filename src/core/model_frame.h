/* tendon core: reading positions and frames out of model matrices, as the IK solvers and foot
 * placement do (not installed). */
#ifndef TENDON_MODEL_FRAME_H
#define TENDON_MODEL_FRAME_H

#include "internal.h"
#include "tendon/vecmath.h"

static inline tdn_vec3 tdn__model_position(const tdn_mat4 *m) { return tdn_vec3_make(m->m[12], m->m[13], m->m[14]); }

/* 1 when any component is NaN or infinite: such a target or axis is an argument error. */
static inline int tdn__bad_vec3(tdn_vec3 v) { return !tdn__finite(v.x) || !tdn__finite(v.y) || !tdn__finite(v.z); }

/* The vector v in the frame of a model matrix's rotation: R^T v, R being m's columns with the
 * scale divided out and a mirror folded into the sign (exact without shear; the best a TRS
 * parent can give with it). A model-space rotation (v, w) is (R^T v, w) in that frame, which
 * is how a model-space delta becomes a local one: conj(P) Q P without finding P. */
static inline tdn_vec3 tdn__model_into_frame(const tdn_mat4 *m, tdn_vec3 v)
{
    tdn_vec3 col[3];
    float r[3];
    for (int c = 0; c < 3; c++) {
        col[c] = tdn_vec3_make(m->m[c * 4], m->m[c * 4 + 1], m->m[c * 4 + 2]);
        float len2 = tdn_vec3_dot(col[c], col[c]);
        r[c] = len2 > 0.0f ? tdn_vec3_dot(col[c], v) / sqrtf(len2) : 0.0f;
    }
    float mirror = tdn_vec3_dot(tdn_vec3_cross(col[0], col[1]), col[2]) < 0.0f ? -1.0f : 1.0f;
    return tdn_vec3_make(mirror * r[0], mirror * r[1], mirror * r[2]);
}

/* The proper rotation of a model matrix's upper 3x3: columns normalized, all negated when the
 * matrix mirrors (the frame tdn__model_into_frame reads: a child's model matrix is then this
 * rotation times its local rotation, up to the parent's scale). */
static inline tdn_quat tdn__model_rotation(const tdn_mat4 *m)
{
    tdn_vec3 col[3];
    for (int c = 0; c < 3; c++) {
        col[c] = tdn_vec3_make(m->m[c * 4], m->m[c * 4 + 1], m->m[c * 4 + 2]);
        float len2 = tdn_vec3_dot(col[c], col[c]);
        col[c] = tdn_vec3_scale(col[c], len2 > 0.0f ? 1.0f / sqrtf(len2) : 0.0f);
    }
    float mirror = tdn_vec3_dot(tdn_vec3_cross(col[0], col[1]), col[2]) < 0.0f ? -1.0f : 1.0f;
    tdn_mat4 r = tdn_mat4_identity();
    for (int c = 0; c < 3; c++) {
        r.m[c * 4] = mirror * col[c].x;
        r.m[c * 4 + 1] = mirror * col[c].y;
        r.m[c * 4 + 2] = mirror * col[c].z;
    }
    return tdn_quat_from_mat4(&r);
}

#endif
