/* tendon: CPU skinning.
 *
 * Linear blend skinning (LBS): p' = sum_i w_i * palette[j_i] * p, normals by the palette's
 * upper 3x3 then renormalized (exact for rotation and uniform scale). Dual-quaternion skinning
 * (DQS): each palette matrix is converted to a unit dual quaternion (rotation + translation;
 * scale is dropped), the weighted dual quaternions are summed with signs aligned to the first
 * influence and normalized, so rigid twists keep volume. Up to 4 influences per vertex; weights
 * need not be normalized (they are divided by their sum; an all-zero vertex is left where it
 * is). Thread-safe for distinct outputs; never allocates. */
#ifndef TENDON_SKIN_H
#define TENDON_SKIN_H

#include "base.h"
#include "vecmath.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tdn_skin_job {
    int vertex_count;
    const float *positions;      /* 3 floats per vertex */
    const float *normals;        /* 3 floats per vertex, or NULL */
    const uint16_t *joints;      /* 4 palette indices per vertex */
    const float *weights;        /* 4 weights per vertex */
    const tdn_mat4 *palette;
    int palette_count;           /* joints[] entries must be below this */
    float *out_positions;        /* 3 floats per vertex */
    float *out_normals;          /* 3 floats per vertex; required when normals are given */
} tdn_skin_job;

/* A unit dual quaternion: real part the rotation, dual part 0.5 * (t, 0) * real. */
typedef struct tdn_dual_quat { tdn_quat real, dual; } tdn_dual_quat;

/* TDN_ERR_ARGUMENT for NULL arrays or a joint index outside the palette (checked before any
 * vertex is written). */
TDN_API tdn_result tdn_skin_lbs(const tdn_skin_job *job);
TDN_API tdn_result tdn_skin_dqs(const tdn_skin_job *job);
/* The rigid part of a palette matrix as a dual quaternion. */
TDN_API tdn_dual_quat tdn_dual_quat_from_mat4(const tdn_mat4 *m);
TDN_API tdn_vec3 tdn_dual_quat_transform_point(const tdn_dual_quat *dq, tdn_vec3 p);

#ifdef __cplusplus
}
#endif
#endif
