/* tendon: CPU skinning.
 *
 * Linear blend skinning (LBS): p' = sum_i w_i * palette[j_i] * p, normals by the blended upper
 * 3x3 then renormalized (exact for rotation and uniform scale). Dual-quaternion skinning
 * (DQS): each palette matrix is converted to a unit dual quaternion (rotation + translation;
 * scale is dropped, so a scaled palette skins as if unscaled), the weighted dual quaternions
 * are summed with signs aligned to the first influence and normalized, so rigid twists keep
 * volume where LBS collapses them; normals are rotated (unit normals stay unit).
 *
 * Each vertex has job.influences joints and weights, 1 to TDN_SKIN_MAX_INFLUENCES (8): 4 for
 * one glTF JOINTS_0/WEIGHTS_0 set, 8 with JOINTS_1/WEIGHTS_1 (a tdn_asset_mesh's arrays are
 * laid out this way: influences = 4 * influence_sets). Every influence is blended, weight 0 or
 * not: a count larger than the mesh needs costs time, not accuracy, and 8 influences of which
 * the last 4 weigh 0 give exactly the results of the first 4 alone. Weights need not be
 * normalized (they are divided by their sum; a vertex whose weights sum to <= 0 or NaN is
 * copied unchanged). A blended normal of zero length stays zero. Two job fields trade these
 * guarantees for speed, per job: weights_normalized (the weights were normalized once, by
 * tdn_skin_normalize_weights, so no division per vertex) and raw_normals (normals left as the
 * blended matrix makes them, for a shader that renormalizes). Palette matrices are affine
 * (bottom row 0 0 0 1, as tdn_palette makes them). Results can differ in the last bits between
 * builds for different instruction sets (SSE2, AVX2), never between runs of one build.
 * Thread-safe for distinct outputs; never allocates. */
#ifndef TENDON_SKIN_H
#define TENDON_SKIN_H

#include "base.h"
#include "vecmath.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most influences (joints and weights) per vertex a skin job takes. */
#define TDN_SKIN_MAX_INFLUENCES 8

/* A unit dual quaternion: real part the rotation, dual part 0.5 * (t, 0) * real. */
typedef struct tdn_dual_quat {
    tdn_quat real, dual;
} tdn_dual_quat;

/* One skinning call. Arrays are tightly packed per vertex; outputs must not overlap inputs. */
typedef struct tdn_skin_job {
    int vertex_count;                /* >= 0 */
    int influences;                  /* joints and weights per vertex: 1..TDN_SKIN_MAX_INFLUENCES;
                                      * 0 is refused (there is no default: it says how the arrays
                                      * are laid out) */
    const float *positions;          /* 3 floats per vertex */
    const float *normals;            /* 3 floats per vertex, or NULL */
    const uint16_t *joints;          /* `influences` palette indices per vertex, vertex after vertex
                                      * (all checked, weight 0 or not) */
    const float *weights;            /* `influences` weights per vertex, in the order of joints */
    const tdn_mat4 *palette;         /* palette_count matrices (tdn_palette); DQS: may be NULL when
                                      * dual_quats is given */
    int palette_count;               /* joints[] entries must be below this */
    float *out_positions;            /* 3 floats per vertex */
    float *out_normals;              /* 3 floats per vertex; required when normals are given */
    const tdn_dual_quat *dual_quats; /* DQS only, optional: the palette already converted by
                                      * tdn_dual_quat_palette (once per frame instead of once
                                      * per influence); ignored by LBS */
    int weights_normalized;          /* LBS: 1 promises every vertex's weights sum to 1 (within
                                      * rounding; tdn_skin_normalize_weights makes them so, once per
                                      * mesh): the sum is not divided out and not checked, so a
                                      * vertex whose weights sum to s comes out as s times its
                                      * skinned position (all 0: the origin). 0: divided per vertex.
                                      * DQS ignores it */
    int raw_normals;                 /* LBS: 1 leaves normals as the upper 3x3 of the blended matrix
                                      * (sum w_i M_i divided by the weight sum, or not divided with
                                      * weights_normalized) times n, not renormalized: unit for rigid
                                      * palettes where the influences agree, shorter where they
                                      * disagree. DQS ignores it (its normals are rotated, so unit
                                      * normals stay unit) */
} tdn_skin_job;

/* Skin positions (and normals) with linear blending. TDN_ERR_ARGUMENT for a NULL job or array,
 * a negative vertex count, an influence count outside 1..TDN_SKIN_MAX_INFLUENCES, or a joint
 * index >= palette_count (`where` is "job.joints[i]" and the message names the vertex, i /
 * influences); these are checked before any vertex is written, so on failure the outputs are
 * untouched. */
TDN_API tdn_result tdn_skin_lbs(const tdn_skin_job *job, tdn_error *err);
/* The same with dual-quaternion blending (rigid part of each matrix only). Same errors. */
TDN_API tdn_result tdn_skin_dqs(const tdn_skin_job *job, tdn_error *err);

/* Divides each of vertex_count vertices' `influences` weights (laid out as in tdn_skin_job) by
 * their sum, in place, so that the mesh can be skinned with job.weights_normalized = 1.
 * TDN_ERR_ARGUMENT for NULL weights, a negative count, an influence count outside
 * 1..TDN_SKIN_MAX_INFLUENCES, or a vertex whose weights do not sum to a positive finite number
 * (`where` is "weights[i]", i the vertex's first weight, and the message names the vertex);
 * checked before any weight is written, so on failure the weights are untouched. */
TDN_API tdn_result tdn_skin_normalize_weights(float *weights, int vertex_count, int influences, tdn_error *err);

/* The rigid part of an affine matrix as a unit dual quaternion: the rotation of its column-
 * normalized upper 3x3 (scale dropped; shear and mirroring are not representable) and its
 * translation column. */
TDN_API tdn_dual_quat tdn_dual_quat_from_mat4(const tdn_mat4 *m);
/* out[i] = tdn_dual_quat_from_mat4(&palette[i]) for count matrices. */
TDN_API void tdn_dual_quat_palette(const tdn_mat4 *palette, int count, tdn_dual_quat *out);
/* Rotate p by the real part, then translate (dq must be unit). */
TDN_API tdn_vec3 tdn_dual_quat_transform_point(const tdn_dual_quat *dq, tdn_vec3 p);

#ifdef __cplusplus
}
#endif
#endif
