/* tendon core: FABRIK.
 *
 * The passes work on joint positions as structure-of-arrays floats with the bone lengths read
 * once per solve; each step of a pass is one normalization (a square root and a division) on
 * a chain of dependent steps, so a pass is bound by latency along the chain, not by arithmetic.
 * Without limits the positions alone iterate and become rotations once at the end
 * (tdn__ik_chain_aim: each joint's shortest swing onto its solved direction, root first). With
 * limits every backward pass is that same conversion with each joint's rotation limited as it
 * is set, so the positions the next forward pass starts from are ones the limits allow, and the
 * rotations of the last pass are the answer. */
#include "ik_internal.h"
#include "model_frame.h"
#include "tendon/ik_fabrik.h"

/* End to root: the end on the target, each joint on the line to where it was, at its bone's
 * length from the joint after it. Joint 0 is left alone (the backward pass anchors it). */
static void forward_pass(int n, float *restrict x, float *restrict y, float *restrict z, const float *restrict len,
                         tdn_vec3 target)
{
    /* the joint just placed stays in registers: stored and read back, each step would wait
     * for the store to forward */
    float px = target.x, py = target.y, pz = target.z;
    x[n - 1] = px, y[n - 1] = py, z[n - 1] = pz;
    for (int i = n - 2; i > 0; i--) {
        const float dx = x[i] - px, dy = y[i] - py, dz = z[i] - pz;
        const float s = tdn__ik_scaled_rsqrt(len[i], dx * dx + dy * dy + dz * dz);
        px += dx * s, py += dy * s, pz += dz * s;
        x[i] = px, y[i] = py, z[i] = pz;
    }
}

/* Root to end: the root back on its anchor, each joint on the line towards where it was, at
 * its bone's length from the joint before it. */
static void backward_pass(int n, float *restrict x, float *restrict y, float *restrict z, const float *restrict len,
                          tdn_vec3 root)
{
    float px = root.x, py = root.y, pz = root.z;
    x[0] = px, y[0] = py, z[0] = pz;
    for (int i = 0; i + 1 < n; i++) {
        const float dx = x[i + 1] - px, dy = y[i + 1] - py, dz = z[i + 1] - pz;
        const float s = tdn__ik_scaled_rsqrt(len[i], dx * dx + dy * dy + dz * dz);
        px += dx * s, py += dy * s, pz += dz * s;
        x[i + 1] = px, y[i + 1] = py, z[i + 1] = pz;
    }
}

static float end_distance2(int n, const float *x, const float *y, const float *z, tdn_vec3 t)
{
    float dx = x[n - 1] - t.x, dy = y[n - 1] - t.y, dz = z[n - 1] - t.z;
    return dx * dx + dy * dy + dz * dz;
}

tdn_result tdn_ik_fabrik(const tdn_skeleton *skeleton, const tdn_fabrik_ik *ik, tdn_pose *pose, tdn_mat4 *model,
                         tdn_ik_result *result)
{
    if (!skeleton || !ik || !pose || !model || !tdn__ik_chain_valid(skeleton, pose, ik->joints, ik->count) ||
        tdn__bad_vec3(ik->target) || isnan(ik->weight) || isnan(ik->tolerance) || ik->max_iterations < 0 ||
        !tdn__ik_limits_valid(ik->limits, ik->count))
        return TDN_ERR_ARGUMENT;

    const int n = ik->count;
    const tdn_vec3 target = ik->target;
    float x[TDN_MAX_IK_CHAIN], y[TDN_MAX_IK_CHAIN], z[TDN_MAX_IK_CHAIN], len[TDN_MAX_IK_CHAIN];
    float total = 0.0f;
    for (int i = 0; i < n; i++) {
        const float *m = model[ik->joints[i]].m;
        x[i] = m[12], y[i] = m[13], z[i] = m[14];
        if (i > 0) {
            float dx = x[i] - x[i - 1], dy = y[i] - y[i - 1], dz = z[i] - z[i - 1];
            len[i - 1] = sqrtf(dx * dx + dy * dy + dz * dz);
            total += len[i - 1];
        }
    }
    const float tolerance = ik->tolerance > 0.0f ? ik->tolerance : 1e-3f * total;
    const float weight = tdn__clamp01(ik->weight);
    const float start2 = end_distance2(n, x, y, z, target);
    if (weight <= 0.0f || start2 <= tolerance * tolerance || !(total > 0.0f)) {
        if (result)
            *result = (tdn_ik_result){ 0, sqrtf(start2), start2 <= tolerance * tolerance };
        return TDN_OK;
    }

    tdn__ik_chain chain;
    tdn__ik_chain_read(&chain, skeleton, pose, model, ik->joints, n);
    tdn__ik_joint_limit limit_storage[TDN_MAX_IK_CHAIN];
    const tdn__ik_joint_limit *limits = tdn__ik_chain_limits(skeleton, &chain, ik->limits, limit_storage);
    const tdn_vec3 root = chain.root;
    const int max_iterations = ik->max_iterations > 0 ? ik->max_iterations : TDN_FABRIK_DEFAULT_ITERATIONS;
    int iterations = 0;
    const tdn_vec3 to_target = tdn_vec3_sub(target, root);
    const float reach2 = tdn_vec3_dot(to_target, to_target);
    if (reach2 >= total * total) {
        /* out of reach: one straight stretch towards the target */
        const tdn_vec3 dir = tdn_vec3_scale(to_target, 1.0f / sqrtf(reach2));
        float along = 0.0f;
        for (int i = 1; i < n; i++) {
            along += len[i - 1];
            x[i] = root.x + dir.x * along, y[i] = root.y + dir.y * along, z[i] = root.z + dir.z * along;
        }
        if (limits)
            tdn__ik_chain_aim(&chain, x, y, z, limits, x, y, z);
        else
            tdn__ik_chain_follow(&chain, x, y, z);
        iterations = 1;
    } else if (!limits) {
        /* a little inside the tolerance: see TDN__IK_INNER_TOLERANCE */
        const float tolerance2 = TDN__IK_INNER_TOLERANCE * TDN__IK_INNER_TOLERANCE * tolerance * tolerance;
        do {
            forward_pass(n, x, y, z, len, target);
            backward_pass(n, x, y, z, len, root);
            iterations++;
        } while (iterations < max_iterations && end_distance2(n, x, y, z, target) > tolerance2);
        tdn__ik_chain_follow(&chain, x, y, z);
    } else {
        const float tolerance2 = TDN__IK_INNER_TOLERANCE * TDN__IK_INNER_TOLERANCE * tolerance * tolerance;
        do {
            forward_pass(n, x, y, z, len, target);
            tdn__ik_chain_aim(&chain, x, y, z, limits, x, y, z);
            iterations++;
        } while (iterations < max_iterations && end_distance2(n, x, y, z, target) > tolerance2);
    }
    tdn__ik_chain_write(&chain, skeleton, pose, model, weight);
    if (result) {
        const float error = tdn__ik_end_error(model, ik->joints, n, target);
        *result = (tdn_ik_result){ iterations, error, error <= tolerance };
    }
    return TDN_OK;
}
