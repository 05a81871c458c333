/* tendon core: FABRIK.
 *
 * The passes work on joint positions as structure-of-arrays floats with the bone lengths read
 * once per solve; each step of a pass is one normalization on a chain of dependent steps, so a
 * pass is bound by latency along the chain, not by arithmetic (see reach). Without limits the
 * positions alone iterate and become rotations once at the end (tdn__ik_chain_follow: each
 * joint's shortest swing onto its solved direction, root first, the chain's joints read in the
 * same pass). With limits every backward pass is that same conversion with each joint's
 * rotation limited as it is set (tdn__ik_chain_aim), so the positions the next forward pass
 * starts from are ones the limits allow, and the rotations of the last pass are the answer. */
#include "ik_internal.h"
#include "model_frame.h"
#include "tendon/ik_fabrik.h"

/* One pass: the joints first + step, first + 2 step, ... (count of them) placed in turn, each
 * on the line from the joint placed before it (`start` for the first) towards where it was,
 * at their bone's length apart.
 *
 * The pass is one chain of dependent steps, each a normalization, so it is written for the
 * latency of that chain. With d the vector from the joint just placed to the old position of
 * the next, the next goes to x - r d, r = 1 - len / |d|; the vector after it is then
 * d' = r d + e (e: between the two old positions, fixed during the pass), so that
 * |d'|^2 = r^2 |d|^2 + 2 r (d.e) + |e|^2: the dot products are formed beside the chain and
 * only r is on it (22 cycles a step in theory, 27 measured on the project's machine, against
 * 35-37 for subtract, normalize, scale, add: a pass pair on 11 joints 223 -> 165 ns). Positions
 * differ from double-precision FABRIK by 5e-8 of the chain's length on average (as before),
 * at most 2e-6 over 20,000 random chains. */
static inline void reach(int first, int step, int count, float *restrict x, float *restrict y, float *restrict z,
                         const float *restrict len, tdn_vec3 start)
{
    int j = first + step;
    float dx = x[j] - start.x, dy = y[j] - start.y, dz = z[j] - start.z;
    float q = dx * dx + dy * dy + dz * dz;
    for (int k = 1;; k++) {
        const float l = len[step < 0 ? j : j - 1];
        /* r = 1 - l e (1.5 - 0.5 q e^2), e the estimate of 1 / sqrt(q) and one Newton step,
         * grouped so that three products and a sum follow the estimate */
        const float e = tdn__rsqrt_estimate(q);
        const float r = (1.0f - (1.5f * l) * e) + ((0.5f * l) * q * e) * (e * e);
        const float ox = x[j], oy = y[j], oz = z[j];
        if (k == count) {
            x[j] = ox - r * dx, y[j] = oy - r * dy, z[j] = oz - r * dz;
            break;
        }
        const int placed = j;
        j += step;
        const float ex = x[j] - ox, ey = y[j] - oy, ez = z[j] - oz;
        const float dd = dx * dx + dy * dy + dz * dz, de = dx * ex + dy * ey + dz * ez;
        const float ee = ex * ex + ey * ey + ez * ez;
        q = (r * r) * dd + ((2.0f * de) * r + ee);
        /* written after q: the products on the chain come first in program order, so the
         * scheduler (oldest first) does not put these ahead of them (27.3 -> 26.7 cycles) */
        x[placed] = ox - r * dx, y[placed] = oy - r * dy, z[placed] = oz - r * dz;
        dx = r * dx + ex, dy = r * dy + ey, dz = r * dz + ez;
        /* the sum cancels when the joint just placed is near the next one's old position:
         * then the vector's own length (rare, so the branch is predicted and costs nothing
         * on the chain) */
        if (q < 0.25f * ee)
            q = dx * dx + dy * dy + dz * dz;
    }
}

/* End to root: the end on the target, then the joints back to joint 1 (joint 0 is left alone:
 * the backward pass anchors it). */
static void forward_pass(int n, float *restrict x, float *restrict y, float *restrict z, const float *restrict len,
                         tdn_vec3 target)
{
    x[n - 1] = target.x, y[n - 1] = target.y, z[n - 1] = target.z;
    if (n > 2)
        reach(n - 1, -1, n - 2, x, y, z, len, target);
}

/* Root to end: the root back on its anchor, then every joint out to the end. */
static void backward_pass(int n, float *restrict x, float *restrict y, float *restrict z, const float *restrict len,
                          tdn_vec3 root)
{
    x[0] = root.x, y[0] = root.y, z[0] = root.z;
    reach(0, 1, n - 1, x, y, z, len, root);
}

static float end_distance2(int n, const float *x, const float *y, const float *z, tdn_vec3 t)
{
    float dx = x[n - 1] - t.x, dy = y[n - 1] - t.y, dz = z[n - 1] - t.z;
    return dx * dx + dy * dy + dz * dz;
}

tdn_result tdn_ik_fabrik(const tdn_skeleton *skeleton, const tdn_ik_fabrik_job *ik, tdn_pose *pose, tdn_mat4 *model,
                         tdn_ik_result *result, tdn_error *err)
{
    if (!ik)
        return tdn__null(err, "ik");
    tdn_result r = tdn__ik_check_chain(skeleton, pose, model, ik->joints, ik->joint_count, err);
    if (r == TDN_OK)
        r = tdn__ik_check_limits(ik->limits, ik->joint_count, err);
    if (r != TDN_OK)
        return r;
    if (tdn__bad_vec3(ik->target))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "ik.target", "the target is not finite");
    if (isnan(ik->weight) || isnan(ik->tolerance) || ik->max_iterations < 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT,
                         isnan(ik->weight)      ? "ik.weight"
                         : isnan(ik->tolerance) ? "ik.tolerance"
                                                : "ik.max_iterations",
                         "NaN or negative");

    const int n = ik->joint_count;
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

    /* With limits the chain's rotations are set in every backward pass, so it is read first;
     * without, only the solved positions are turned into rotations, reading the joints as
     * they are (tdn__ik_chain_follow), and only the anchor and frame are read first (their
     * matrix-to-quaternion conversion then runs beside the passes' chain of dependent steps,
     * not ahead of the conversion's). */
    tdn__ik_chain chain;
    tdn__ik_joint_limit limit_storage[TDN_MAX_IK_CHAIN];
    const tdn__ik_joint_limit *limits = NULL;
    if (ik->limits) {
        tdn__ik_chain_read(&chain, skeleton, pose, model, ik->joints, n);
        limits = tdn__ik_chain_limits(skeleton, &chain, ik->limits, limit_storage);
    } else {
        tdn__ik_chain_anchor(&chain, skeleton, pose, model, ik->joints, n);
    }
    const tdn_vec3 root = tdn_vec3_make(x[0], y[0], z[0]);
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
            tdn__ik_chain_follow(&chain, skeleton, pose, model, x, y, z);
        iterations = 1;
    } else if (!limits) {
        /* a little inside the tolerance: see TDN__IK_INNER_TOLERANCE */
        const float tolerance2 = TDN__IK_INNER_TOLERANCE * TDN__IK_INNER_TOLERANCE * tolerance * tolerance;
        do {
            forward_pass(n, x, y, z, len, target);
            backward_pass(n, x, y, z, len, root);
            iterations++;
        } while (iterations < max_iterations && end_distance2(n, x, y, z, target) > tolerance2);
        tdn__ik_chain_follow(&chain, skeleton, pose, model, x, y, z);
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
