/* tendon core: blend-driven IK (ik_blend.h has the method).
 *
 * An evaluation works on chain-shaped data only: the samples' chain joints copied at creation
 * into compact poses (chain_count joints each) and a skeleton whose joint k is chain[k] with
 * parent k - 1, so tdn_blend and tdn_model_space run on chain_count joints with the very same
 * per-joint arithmetic as on the whole skeleton. The final full-pose blend uses the same
 * layers in the same order, so the chain's joints, and the effector, come out bit-identical to
 * the last evaluation. */
#include <stdio.h>

#include "internal.h"
#include "model_frame.h"
#include "tendon/blend.h"
#include "tendon/ik_two_bone.h"
#include "tendon/ik_blend.h"
#include "tendon/model_space.h"

enum {
    MAX_SAMPLES = TDN_MAX_BLEND_SPACE_SAMPLES,
    MAX_DIMS = TDN_MAX_BLEND_SPACE_DIMENSIONS,
    MAX_CHAIN = TDN_IK_BLEND_MAX_CHAIN,
    MAX_REJECTS = 8,
    DEFAULT_ITERATIONS = 10
};

struct tdn_ik_blend {
    tdn_allocator allocator;
    size_t bytes;
    const tdn_skeleton *skeleton;
    const tdn_blend_space *space;
    tdn_skeleton *chain_skeleton; /* owned */
    int joint_count, sample_count, dims, chain_count, effector;
    tdn_ik_blend_correction correction;
    int upper, middle;
    float spread;                   /* largest distance between two samples' effectors */
    int *chain;                     /* chain_count joints, root first */
    tdn_pose *chain_samples;        /* sample_count compact poses */
    float *chain_mask, *chain_keep; /* stride(chain_count) each, NULL without a mask */
    float *mask, *keep;             /* stride(joint_count) each: mask and 1 - mask, or NULL */
    const tdn_pose **poses;         /* sample_count: the owned copies or the caller's poses */
    tdn_vec3 *sample_effector;      /* sample_count: each sample's effector, alone, unplaced */
    float *lo, *hi;                 /* dims each: the samples' bounding box */
};

static size_t take(size_t *offset, size_t bytes, size_t align)
{
    size_t at = tdn__align_up(*offset, align);
    *offset = at + bytes;
    return at;
}

static int pose_fits(const tdn_pose *pose, int joint_count)
{
    return pose && pose->data && pose->joint_count == joint_count && pose->stride >= joint_count &&
           pose->stride % TDN_POSE_LANES == 0;
}

static int is_proper_ancestor(const tdn_skeleton *skeleton, int ancestor, int joint)
{
    return ancestor != joint && tdn_skeleton_is_in_subtree(skeleton, joint, ancestor);
}

/* ---- one evaluation ---- */

/* The blend's layers at weights w (only samples with a positive weight: tdn_blend would not
 * read the others anyway), over `poses` (compact or full), with the caller's pose first where
 * there is a mask. `scale` multiplies the samples' weights (the solve's weight); the caller's
 * pose then also gets 1 - scale everywhere. Returns the layer count. */
static int make_layers(const tdn_ik_blend *ik, const float *w, const tdn_pose *samples, const tdn_pose *const *full,
                       const tdn_pose *input, const float *mask, const float *keep, float scale,
                       tdn_blend_input *layers)
{
    int k = 0;
    if (input && scale < 1.0f)
        layers[k++] = (tdn_blend_input){ input, 1.0f - scale, NULL };
    if (input && keep)
        layers[k++] = (tdn_blend_input){ input, scale, keep };
    for (int i = 0; i < ik->sample_count; i++)
        if (w[i] > 0.0f)
            layers[k++] = (tdn_blend_input){ samples ? &samples[i] : full[i], scale * w[i], mask };
    return k;
}

/* The chain's blend at params into `chain_pose` and the effector's model-space position. */
static tdn_vec3 evaluate(const tdn_ik_blend *ik, const float *params, const tdn_pose *input_chain, const tdn_mat4 *root,
                         tdn_pose *chain_pose, tdn_mat4 *chain_model)
{
    float w[MAX_SAMPLES];
    tdn_blend_input layers[MAX_SAMPLES + 2];
    tdn_blend_space_weights(ik->space, params, w, NULL);
    int count = make_layers(ik, w, ik->chain_samples, NULL, ik->chain_mask ? input_chain : NULL, ik->chain_mask,
                            ik->chain_keep, 1.0f, layers);
    tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = count, .out = chain_pose }, NULL);
    tdn_model_space(ik->chain_skeleton, chain_pose, root, chain_model, NULL);
    return tdn__model_position(&chain_model[ik->chain_count - 1]);
}

/* A compact pose over caller memory holding `chain` joints of `src`. */
static void extract_chain(const tdn_ik_blend *ik, const tdn_pose *src, tdn_pose *dst)
{
    for (int k = 0; k < ik->chain_count; k++) {
        tdn_transform x = tdn_pose_get(src, ik->chain[k]);
        tdn_pose_set(dst, k, &x);
    }
}

/* ---- creation ---- */

void tdn_ik_blend_destroy(tdn_ik_blend *ik)
{
    if (!ik)
        return;
    tdn_allocator a = ik->allocator;
    tdn_skeleton_destroy(ik->chain_skeleton);
    tdn__free(&a, ik, ik->bytes);
}

size_t tdn_ik_blend_memory_size(const tdn_ik_blend *ik) { return ik ? ik->bytes : 0; }

int tdn_ik_blend_chain(const tdn_ik_blend *ik, const int **joints)
{
    if (joints)
        *joints = ik ? ik->chain : NULL;
    return ik ? ik->chain_count : 0;
}

tdn_result tdn_ik_blend_create(const tdn_ik_blend_desc *desc, tdn_ik_blend **out, const tdn_allocator *allocator,
                               tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!desc || !out)
        return tdn__fail(err, TDN_ERR_ARGUMENT, desc ? "out" : "desc", "a NULL argument");
    if (!desc->skeleton || !desc->space || !desc->poses)
        return tdn__fail(err, TDN_ERR_ARGUMENT,
                         !desc->skeleton ? "desc.skeleton"
                         : !desc->space  ? "desc.space"
                                         : "desc.poses",
                         "is NULL");
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    const tdn_skeleton *skel = desc->skeleton;
    const int n = tdn_skeleton_joint_count(skel), samples = tdn_blend_space_sample_count(desc->space);
    const int dims = tdn_blend_space_dimensions(desc->space);
    for (int i = 0; i < samples; i++)
        if (!pose_fits(desc->poses[i], n)) {
            char where[64];
            snprintf(where, sizeof where, "desc.poses[%d]", i);
            return tdn__fail(err, TDN_ERR_ARGUMENT, where,
                             desc->poses[i] ? "has %d joints, the skeleton %d" : "is NULL",
                             desc->poses[i] ? desc->poses[i]->joint_count : 0, n);
        }
    if (desc->effector < 0 || desc->effector >= n)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.effector", "joint %d out of range (%d joints)", desc->effector,
                         n);
    int chain[MAX_CHAIN], m = 0;
    for (int j = desc->effector; j >= 0; j = tdn_skeleton_parent(skel, j)) {
        if (m == MAX_CHAIN)
            return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.effector", "more than %d joints from the root", MAX_CHAIN);
        chain[m++] = j;
    }
    for (int a = 0, b = m - 1; a < b; a++, b--) {
        int t = chain[a];
        chain[a] = chain[b];
        chain[b] = t;
    }
    switch (desc->correction) {
    case TDN_IK_BLEND_CORRECT_NONE:
        break;
    case TDN_IK_BLEND_CORRECT_TWO_BONE:
        if (desc->upper < 0 || desc->upper >= n || desc->middle < 0 || desc->middle >= n ||
            !is_proper_ancestor(skel, desc->middle, desc->effector) ||
            !is_proper_ancestor(skel, desc->upper, desc->middle))
            return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.upper",
                             "two_bone needs upper above middle above the effector");
        break;
    case TDN_IK_BLEND_CORRECT_ROTATE:
        if (desc->upper < 0 || desc->upper >= n || !is_proper_ancestor(skel, desc->upper, desc->effector))
            return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.upper", "rotate needs upper above the effector");
        break;
    default:
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.correction", "unknown correction %d", (int)desc->correction);
    }
    if (desc->joint_weights)
        for (int j = 0; j < n; j++)
            if (isnan(desc->joint_weights[j])) {
                char where[64];
                snprintf(where, sizeof where, "desc.joint_weights[%d]", j);
                return tdn__fail(err, TDN_ERR_ARGUMENT, where, "is NaN");
            }

    /* the layout of the one block */
    const int cs = tdn_pose_stride(m), fs = tdn_pose_stride(n);
    const int copy = !desc->borrow_poses, masked = desc->joint_weights != NULL;
    size_t size = sizeof(tdn_ik_blend);
    size_t o_chain = take(&size, sizeof(int) * (size_t)m, sizeof(int));
    size_t o_cposes = take(&size, sizeof(tdn_pose) * (size_t)samples, sizeof(void *));
    size_t o_cdata = take(&size, tdn_pose_bytes(m) * (size_t)samples, TDN_POSE_ALIGN);
    size_t o_cmask = masked ? take(&size, sizeof(float) * 2 * (size_t)cs, TDN_POSE_ALIGN) : 0;
    size_t o_mask = masked ? take(&size, sizeof(float) * 2 * (size_t)fs, TDN_POSE_ALIGN) : 0;
    size_t o_ptrs = take(&size, sizeof(tdn_pose *) * (size_t)samples, sizeof(void *));
    size_t o_owned = copy ? take(&size, sizeof(tdn_pose) * (size_t)samples, sizeof(void *)) : 0;
    size_t o_odata = copy ? take(&size, tdn_pose_bytes(n) * (size_t)samples, TDN_POSE_ALIGN) : 0;
    size_t o_eff = take(&size, sizeof(tdn_vec3) * (size_t)samples, sizeof(float));
    size_t o_box = take(&size, sizeof(float) * 2 * (size_t)dims, sizeof(float));

    /* the chain-shaped skeleton */
    int parents[MAX_CHAIN];
    tdn_transform rest[MAX_CHAIN];
    for (int k = 0; k < m; k++) {
        parents[k] = k - 1;
        rest[k] = tdn_skeleton_rest(skel, chain[k]);
    }
    tdn_skeleton *chain_skel = NULL;
    tdn_result r = tdn_skeleton_create(
        &(tdn_skeleton_desc){
            .joint_count = m,
            .parents = parents,
            .rest_pose = rest,
        },
        &chain_skel, allocator, err);
    if (r != TDN_OK)
        return r;
    char *block = tdn__alloc(allocator, size, 64);
    if (!block) {
        tdn_skeleton_destroy(chain_skel);
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "allocating %zu bytes", size);
    }
    memset(block, 0, size);
    tdn_ik_blend *ik = (tdn_ik_blend *)block;
    ik->allocator = tdn__allocator_of(allocator);
    ik->bytes = size;
    ik->skeleton = skel;
    ik->space = desc->space;
    ik->chain_skeleton = chain_skel;
    ik->joint_count = n;
    ik->sample_count = samples;
    ik->dims = dims;
    ik->chain_count = m;
    ik->effector = desc->effector;
    ik->correction = desc->correction;
    ik->upper = desc->upper;
    ik->middle = desc->middle;
    ik->chain = (int *)(block + o_chain);
    memcpy(ik->chain, chain, sizeof(int) * (size_t)m);
    ik->chain_samples = (tdn_pose *)(block + o_cposes);
    ik->poses = (const tdn_pose **)(block + o_ptrs);
    tdn_pose *owned = copy ? (tdn_pose *)(block + o_owned) : NULL;
    for (int i = 0; i < samples; i++) {
        tdn_pose_init(m, block + o_cdata + tdn_pose_bytes(m) * (size_t)i, tdn_pose_bytes(m), &ik->chain_samples[i],
                      NULL);
        extract_chain(ik, desc->poses[i], &ik->chain_samples[i]);
        if (copy) {
            tdn_pose_init(n, block + o_odata + tdn_pose_bytes(n) * (size_t)i, tdn_pose_bytes(n), &owned[i], NULL);
            tdn_pose_copy(&owned[i], desc->poses[i], NULL);
            ik->poses[i] = &owned[i];
        } else {
            ik->poses[i] = desc->poses[i];
        }
    }
    if (masked) {
        ik->chain_mask = (float *)(block + o_cmask);
        ik->chain_keep = ik->chain_mask + cs;
        ik->mask = (float *)(block + o_mask);
        ik->keep = ik->mask + fs;
        for (int j = 0; j < n; j++) {
            ik->mask[j] = tdn__clamp01(desc->joint_weights[j]);
            ik->keep[j] = 1.0f - ik->mask[j];
        }
        for (int k = 0; k < m; k++) {
            ik->chain_mask[k] = ik->mask[chain[k]];
            ik->chain_keep[k] = ik->keep[chain[k]];
        }
    }
    /* each sample's effector alone (for the cold start and the default tolerance) */
    ik->sample_effector = (tdn_vec3 *)(block + o_eff);
    ik->lo = (float *)(block + o_box);
    ik->hi = ik->lo + dims;
    {
        tdn_mat4 chain_model[MAX_CHAIN];
        for (int i = 0; i < samples; i++) {
            tdn_model_space(chain_skel, &ik->chain_samples[i], NULL, chain_model, NULL);
            ik->sample_effector[i] = tdn__model_position(&chain_model[m - 1]);
        }
    }
    float spread = 0.0f;
    for (int i = 0; i < samples; i++)
        for (int k = i + 1; k < samples; k++) {
            float d = tdn_vec3_length(tdn_vec3_sub(ik->sample_effector[i], ik->sample_effector[k]));
            spread = d > spread ? d : spread;
        }
    ik->spread = spread;
    for (int d = 0; d < dims; d++) {
        ik->lo[d] = ik->hi[d] = tdn_blend_space_point(desc->space, 0)[d];
        for (int i = 1; i < samples; i++) {
            float v = tdn_blend_space_point(desc->space, i)[d];
            ik->lo[d] = v < ik->lo[d] ? v : ik->lo[d];
            ik->hi[d] = v > ik->hi[d] ? v : ik->hi[d];
        }
    }
    *out = ik;
    return TDN_OK;
}

/* ---- solving ---- */

/* Solves (A + lambda diag(A)) x = b for a symmetric positive semi-definite d x d A (Cholesky in
 * double; a floor on the diagonal keeps a zero column of J from making it singular).
 * Returns 0 when it fails anyway. */
static int damped_solve(int d, const double *A, const double *b, double lambda, double *x)
{
    double L[MAX_DIMS * MAX_DIMS], trace = 0.0;
    for (int i = 0; i < d; i++)
        trace += A[i * d + i];
    double floor = 1e-12 * (trace > 0.0 ? trace : 1.0);
    for (int i = 0; i < d; i++)
        for (int j = 0; j <= i; j++) {
            double s = A[i * d + j];
            if (i == j)
                s += lambda * (A[i * d + i] > floor ? A[i * d + i] : floor) + floor;
            for (int k = 0; k < j; k++)
                s -= L[i * d + k] * L[j * d + k];
            if (i == j) {
                if (!(s > 0.0))
                    return 0;
                L[i * d + i] = sqrt(s);
            } else {
                L[i * d + j] = s / L[j * d + j];
            }
        }
    double y[MAX_DIMS];
    for (int i = 0; i < d; i++) {
        double s = b[i];
        for (int k = 0; k < i; k++)
            s -= L[i * d + k] * y[k];
        y[i] = s / L[i * d + i];
    }
    for (int i = d - 1; i >= 0; i--) {
        double s = y[i];
        for (int k = i + 1; k < d; k++)
            s -= L[k * d + i] * x[k];
        x[i] = s / L[i * d + i];
    }
    return 1;
}

static float clamp_to(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* The damped step with the box's active set: a parameter on a face of the box whose step
 * would leave it is held there and the step solved again over the others (at most once per
 * parameter), so on a face the iteration keeps Gauss-Newton's speed along it instead of
 * crawling by projections. Steps of held parameters are 0. Returns 0 when the system fails. */
static int box_step(int dims, const double *A, const double *g, double lambda, const float *p, const float *lo,
                    const float *hi, double *step)
{
    int held[MAX_DIMS] = { 0 };
    for (int pass = 0; pass <= dims; pass++) {
        int free_idx[MAX_DIMS], m = 0;
        for (int d = 0; d < dims; d++)
            if (!held[d])
                free_idx[m++] = d;
        for (int d = 0; d < dims; d++)
            step[d] = 0.0;
        if (m == 0)
            return 1;
        double Ar[MAX_DIMS * MAX_DIMS], gr[MAX_DIMS], x[MAX_DIMS];
        for (int a = 0; a < m; a++) {
            gr[a] = g[free_idx[a]];
            for (int b = 0; b < m; b++)
                Ar[a * m + b] = A[free_idx[a] * dims + free_idx[b]];
        }
        if (!damped_solve(m, Ar, gr, lambda, x))
            return 0;
        int newly_held = 0;
        for (int a = 0; a < m; a++) {
            int d = free_idx[a];
            step[d] = x[a];
            if ((p[d] <= lo[d] && x[a] < 0.0) || (p[d] >= hi[d] && x[a] > 0.0)) {
                held[d] = 1;
                newly_held = 1;
            }
        }
        if (!newly_held)
            return 1;
    }
    return 1;
}

/* Why a pose (`where`) does not fit the definition's skeleton. */
static tdn_result input_fail(const tdn_ik_blend *ik, const tdn_pose *pose, const char *where, tdn_error *err)
{
    if (!pose || !pose->data)
        return tdn__null(err, where);
    return tdn__pose_size(err, where, pose->joint_count, ik->joint_count, "the definition's skeleton");
}

tdn_result tdn_ik_blend_effector(const tdn_ik_blend *ik, const float *params, const tdn_pose *input,
                                 const tdn_mat4 *root, tdn_vec3 *out, tdn_error *err)
{
    if (!ik || !params || !out)
        return tdn__null(err, !ik ? "ik" : !params ? "params" : "out");
    if (ik->mask && !pose_fits(input, ik->joint_count))
        return input_fail(ik, input, "input", err);
    for (int d = 0; d < ik->dims; d++)
        if (!tdn__finite(params[d]))
            return tdn__fail(err, TDN_ERR_ARGUMENT, "params", "params[%d] is not finite", d);
    _Alignas(TDN_POSE_ALIGN) float chain_data[2][TDN_POSE_ROWS * MAX_CHAIN];
    tdn_pose chain_pose, input_chain;
    tdn_pose_init(ik->chain_count, chain_data[0], sizeof chain_data[0], &chain_pose, NULL);
    tdn_pose_init(ik->chain_count, chain_data[1], sizeof chain_data[1], &input_chain, NULL);
    if (ik->mask)
        extract_chain(ik, input, &input_chain);
    tdn_mat4 chain_model[MAX_CHAIN];
    *out = evaluate(ik, params, &input_chain, root, &chain_pose, chain_model);
    return TDN_OK;
}

/* Turns joint j (local rotation) so that the effector's direction from it becomes the
 * target's, slerped from identity by weight; model space is then redone for j's subtree. */
static void rotate_correction(const tdn_ik_blend *ik, tdn_vec3 target, const tdn_mat4 *root, float weight,
                              tdn_pose *pose, tdn_mat4 *model)
{
    int j = ik->upper, parent = tdn_skeleton_parent(ik->skeleton, j);
    tdn_vec3 pivot = tdn__model_position(&model[j]);
    tdn_vec3 from = tdn_vec3_sub(tdn__model_position(&model[ik->effector]), pivot), to = tdn_vec3_sub(target, pivot);
    float scale = tdn_vec3_length(from) * tdn_vec3_length(to);
    if (!(scale > 0.0f))
        return;
    tdn_quat delta = tdn_quat_from_to(tdn_vec3_normalize(from), tdn_vec3_normalize(to));
    if (weight < 1.0f)
        delta = tdn_quat_slerp(tdn_quat_identity(), delta, weight);
    tdn_mat4 pm = parent >= 0 ? model[parent] : (root ? *root : tdn_mat4_identity());
    for (int c = 0; c < 3; c++) { /* the parent's rotation alone: columns unit, no mirror */
        tdn_vec3 col = tdn_vec3_normalize(tdn_vec3_make(pm.m[c * 4], pm.m[c * 4 + 1], pm.m[c * 4 + 2]));
        pm.m[c * 4] = col.x;
        pm.m[c * 4 + 1] = col.y;
        pm.m[c * 4 + 2] = col.z;
    }
    tdn_quat p = tdn_quat_from_mat4(&pm);
    tdn_quat local_delta = tdn_quat_mul(tdn_quat_conjugate(p), tdn_quat_mul(delta, p));
    tdn_transform x = tdn_pose_get(pose, j);
    x.r = tdn_quat_normalize(tdn_quat_mul(local_delta, x.r));
    tdn_pose_set(pose, j, &x);
    tdn_model_space_range(ik->skeleton, pose, root, j, tdn_skeleton_subtree_end(ik->skeleton, j), model, NULL);
}

tdn_result tdn_ik_blend_solve(const tdn_ik_blend *ik, const tdn_ik_blend_job *req, tdn_pose *pose, tdn_mat4 *model,
                              float *params, tdn_ik_blend_result *result, tdn_error *err)
{
    if (!ik || !req || !model || !params)
        return tdn__null(err, !ik ? "ik" : !req ? "req" : !model ? "model" : "params");
    if (!pose_fits(pose, ik->joint_count))
        return input_fail(ik, pose, "pose", err);
    if (tdn__bad_vec3(req->target))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "req.target", "the target is not finite");
    if (!(req->tolerance >= 0.0f) || req->max_iterations < 0 || isnan(req->weight))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "req",
                         "tolerance %g and max_iterations %d must be >= 0, the weight not NaN", (double)req->tolerance,
                         req->max_iterations);
    const int dims = ik->dims;
    if (req->start)
        for (int d = 0; d < dims; d++)
            if (!tdn__finite(req->start[d]))
                return tdn__fail(err, TDN_ERR_ARGUMENT, "req.start", "start[%d] is not finite", d);
    if (req->root)
        for (int i = 0; i < 16; i++)
            if (!tdn__finite(req->root->m[i]))
                return tdn__fail(err, TDN_ERR_ARGUMENT, "req.root", "the root matrix is not finite");

    const tdn_vec3 target = req->target;
    const float tolerance = req->tolerance > 0.0f ? req->tolerance : (ik->spread > 0.0f ? 1e-3f * ik->spread : 1e-3f);
    const int max_iterations = req->max_iterations > 0 ? req->max_iterations : DEFAULT_ITERATIONS;
    const float weight = tdn__clamp01(req->weight);

    _Alignas(TDN_POSE_ALIGN) float chain_data[3][TDN_POSE_ROWS * MAX_CHAIN];
    tdn_pose input_chain, current, trial;
    tdn_pose_init(ik->chain_count, chain_data[0], sizeof chain_data[0], &input_chain, NULL);
    tdn_pose_init(ik->chain_count, chain_data[1], sizeof chain_data[1], &current, NULL);
    tdn_pose_init(ik->chain_count, chain_data[2], sizeof chain_data[2], &trial, NULL);
    if (ik->mask)
        extract_chain(ik, pose, &input_chain);
    tdn_mat4 chain_model[MAX_CHAIN];
    int evaluations = 0, iterations = 0;

    /* the start */
    float p[MAX_DIMS];
    if (req->start) {
        for (int d = 0; d < dims; d++)
            p[d] = clamp_to(req->start[d], ik->lo[d], ik->hi[d]);
    } else {
        /* the sample whose own effector is nearest (placed by root) */
        int best = 0;
        float best_d = INFINITY;
        for (int i = 0; i < ik->sample_count; i++) {
            tdn_vec3 e = req->root ? tdn_mat4_transform_point(req->root, ik->sample_effector[i])
                                   : ik->sample_effector[i];
            float dd = tdn_vec3_length(tdn_vec3_sub(e, target));
            if (dd < best_d) {
                best_d = dd;
                best = i;
            }
        }
        memcpy(p, tdn_blend_space_point(ik->space, best), sizeof(float) * (size_t)dims);
    }
    tdn_vec3 f = evaluate(ik, p, &input_chain, req->root, &current, chain_model);
    evaluations++;
    tdn_vec3 res = tdn_vec3_sub(f, target);
    float miss = tdn_vec3_length(res);
    const float start_error = miss;

    double lambda = 1e-3;
    while (miss > tolerance && iterations < max_iterations) {
        /* forward-difference Jacobian, stepping into the box */
        double J[3][MAX_DIMS];
        iterations++;
        for (int d = 0; d < dims; d++) {
            float extent = ik->hi[d] - ik->lo[d];
            float h = 1e-3f * (extent > 0.0f ? extent : 1.0f);
            if (p[d] + h > ik->hi[d])
                h = -h;
            float q[MAX_DIMS];
            memcpy(q, p, sizeof q);
            q[d] = p[d] + h;
            double hd = (double)q[d] - (double)p[d];
            tdn_vec3 fq = evaluate(ik, q, &input_chain, req->root, &trial, chain_model);
            evaluations++;
            J[0][d] = ((double)fq.x - f.x) / hd;
            J[1][d] = ((double)fq.y - f.y) / hd;
            J[2][d] = ((double)fq.z - f.z) / hd;
        }
        double A[MAX_DIMS * MAX_DIMS], g[MAX_DIMS];
        const double rv[3] = { res.x, res.y, res.z };
        for (int a = 0; a < dims; a++) {
            g[a] = -(J[0][a] * rv[0] + J[1][a] * rv[1] + J[2][a] * rv[2]);
            for (int b = 0; b < dims; b++)
                A[a * dims + b] = J[0][a] * J[0][b] + J[1][a] * J[1][b] + J[2][a] * J[2][b];
        }
        int accepted = 0, big_step = 0;
        for (int attempt = 0; attempt < MAX_REJECTS && !accepted; attempt++) {
            double step[MAX_DIMS];
            if (!box_step(dims, A, g, lambda, p, ik->lo, ik->hi, step))
                break;
            float q[MAX_DIMS];
            int moved = 0;
            for (int d = 0; d < dims; d++) {
                q[d] = clamp_to((float)(p[d] + step[d]), ik->lo[d], ik->hi[d]);
                moved |= q[d] != p[d];
            }
            if (!moved)
                break; /* the box stops every move: nothing left to do from here */
            tdn_vec3 fq = evaluate(ik, q, &input_chain, req->root, &trial, chain_model);
            evaluations++;
            tdn_vec3 rq = tdn_vec3_sub(fq, target);
            float eq = tdn_vec3_length(rq);
            if (eq < miss) {
                for (int d = 0; d < dims; d++) {
                    float extent = ik->hi[d] - ik->lo[d];
                    if (fabsf(q[d] - p[d]) > 1e-3f * (extent > 0.0f ? extent : 1.0f))
                        big_step = 1;
                }
                memcpy(p, q, sizeof(float) * (size_t)dims);
                f = fq;
                res = rq;
                miss = eq;
                tdn_pose current_swap = current;
                current = trial;
                trial = current_swap;
                lambda = lambda * 0.25 > 1e-7 ? lambda * 0.25 : 1e-7;
                accepted = 1;
            } else {
                lambda *= 8.0;
            }
        }
        if (!accepted || !big_step)
            break; /* no descent, or steps below the Jacobian's resolution (the difference step,
                    * 1e-3 of the box): a minimum of the blend's error, on the box or inside */
    }
    const float blend_error = miss;

    /* the whole pose, once: the same layers as the evaluation, at the solve's weight (0: the
     * pose is left as it is, bit for bit) */
    if (weight > 0.0f) {
        float w[MAX_SAMPLES];
        tdn_blend_input layers[MAX_SAMPLES + 2];
        tdn_blend_space_weights(ik->space, p, w, NULL);
        int count = make_layers(ik, w, NULL, ik->poses, (ik->mask || weight < 1.0f) ? pose : NULL, ik->mask, ik->keep,
                                weight, layers);
        tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = count, .out = pose }, NULL);
    }
    tdn_model_space(ik->skeleton, pose, req->root, model, NULL);

    if (weight > 0.0f && ik->correction == TDN_IK_BLEND_CORRECT_TWO_BONE) {
        tdn_ik_two_bone_job tb = {
            ik->upper, ik->middle, ik->effector, target, tdn_vec3_make(0, 0, 0), 0, weight, 0.0f
        };
        tdn_ik_two_bone(ik->skeleton, &tb, pose, model, NULL, NULL);
    } else if (weight > 0.0f && ik->correction == TDN_IK_BLEND_CORRECT_ROTATE) {
        rotate_correction(ik, target, req->root, weight, pose, model);
    }
    const float final_error = tdn_vec3_length(tdn_vec3_sub(tdn__model_position(&model[ik->effector]), target));

    memcpy(params, p, sizeof(float) * (size_t)dims);
    if (result) {
        result->iterations = iterations;
        result->evaluations = evaluations;
        result->start_error = start_error;
        result->blend_error = blend_error;
        result->error = final_error;
        result->reached = final_error <= tolerance;
    }
    return TDN_OK;
}
