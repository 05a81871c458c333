/* tendon core: cyclic coordinate descent.
 *
 * An iteration starts with forward kinematics of the chain (model rotations and positions of
 * its joints, tdn__ik_chain_positions), then visits the joints from the end back to the root.
 * Turning joint i moves only the joints below it, so the joints still to visit in this pass
 * keep their positions and rotations, and only the end effector has to follow each turn. */
#include "ik_internal.h"
#include "model_frame.h"
#include "tendon/ik_ccd.h"

/* q turned by at most the angle whose half has cosine cos_half and sine sin_half. */
static tdn_quat damp(tdn_quat q, float cos_half, float sin_half)
{
    if (q.w < 0.0f)
        q = tdn_quat_negate(q);
    if (q.w >= cos_half)
        return q;
    float v = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    float s = v > 0.0f ? sin_half / v : 0.0f;
    return tdn_quat_make(q.x * s, q.y * s, q.z * s, v > 0.0f ? cos_half : 1.0f);
}

tdn_result tdn_ik_ccd(const tdn_skeleton *skeleton, const tdn_ik_ccd_job *ik, tdn_pose *pose, tdn_mat4 *model,
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
    if (isnan(ik->weight) || isnan(ik->tolerance) || ik->max_iterations < 0 || !(ik->max_step >= 0.0f))
        return tdn__fail(err, TDN_ERR_ARGUMENT,
                         isnan(ik->weight)        ? "ik.weight"
                         : isnan(ik->tolerance)   ? "ik.tolerance"
                         : ik->max_iterations < 0 ? "ik.max_iterations"
                                                  : "ik.max_step",
                         "NaN or negative");

    const int n = ik->joint_count;
    const tdn_vec3 target = ik->target;
    const float weight = tdn__clamp01(ik->weight);
    const float *end = model[ik->joints[n - 1]].m;
    const tdn_vec3 start_end = tdn_vec3_make(end[12], end[13], end[14]);
    const float start = tdn_vec3_length(tdn_vec3_sub(start_end, target));
    float total = 0.0f;
    for (int i = 1; i < n; i++) {
        const float *a = model[ik->joints[i - 1]].m, *b = model[ik->joints[i]].m;
        total += tdn_vec3_length(tdn_vec3_make(b[12] - a[12], b[13] - a[13], b[14] - a[14]));
    }
    const float tolerance = ik->tolerance > 0.0f ? ik->tolerance : 1e-3f * total;
    if (weight <= 0.0f || start <= tolerance || !(total > 0.0f)) {
        if (result)
            *result = (tdn_ik_result){ 0, start, start <= tolerance };
        return TDN_OK;
    }

    tdn__ik_chain chain;
    tdn__ik_chain_read(&chain, skeleton, pose, model, ik->joints, n);
    tdn__ik_joint_limit limit_storage[TDN_MAX_IK_CHAIN];
    const tdn__ik_joint_limit *limits = tdn__ik_chain_limits(skeleton, &chain, ik->limits, limit_storage);
    const int damped = ik->max_step > 0.0f && ik->max_step < TDN_PI;
    const float cos_half = cosf(0.5f * ik->max_step), sin_half = sinf(0.5f * ik->max_step);
    int max_iterations = ik->max_iterations > 0 ? ik->max_iterations : TDN_CCD_DEFAULT_ITERATIONS;
    const float stall = 1e-7f * total;
    /* Passes stop a little inside the tolerance: the end in model space (matrices, after the
     * rotations are written back) differs from this forward kinematics by rounding, up to 0.5%
     * of the default tolerance on 16 bones. */
    const float inner = TDN__IK_INNER_TOLERANCE * tolerance;

    float x[TDN_MAX_IK_CHAIN], y[TDN_MAX_IK_CHAIN], z[TDN_MAX_IK_CHAIN];
    tdn_quat w[TDN_MAX_IK_CHAIN];
    float error = start;
    int iterations = 0;
    const tdn_vec3 to_target = tdn_vec3_sub(target, chain.root);
    const float reach2 = tdn_vec3_dot(to_target, to_target);
    if (reach2 >= total * total) {
        /* Out of reach: where CCD's passes converge, slowly (the excess distance is second order
         * in the chain's bends), in one pass: every bone along the line to the target, limited
         * root first; with limits the passes go on from there. */
        const tdn_vec3 dir = tdn_vec3_scale(to_target, 1.0f / sqrtf(reach2));
        float along = 0.0f;
        for (int i = 1; i < n; i++) {
            along += chain.length[i - 1];
            x[i] = chain.root.x + dir.x * along, y[i] = chain.root.y + dir.y * along,
            z[i] = chain.root.z + dir.z * along;
        }
        tdn__ik_chain_aim(&chain, x, y, z, limits, x, y, z);
        iterations = 1;
        if (!limits)
            max_iterations = 1;
    }
    tdn__ik_chain_positions(&chain, x, y, z, w);
    while (iterations < max_iterations) {
        tdn_vec3 e = tdn_vec3_make(x[n - 1], y[n - 1], z[n - 1]);
        for (int i = n - 2; i >= 0; i--) {
            const tdn_vec3 p = tdn_vec3_make(x[i], y[i], z[i]);
            const tdn_vec3 to_end = tdn_vec3_sub(e, p);
            tdn_quat turn = tdn__ik_swing(to_end, tdn_vec3_sub(target, p));
            if (damped)
                turn = damp(turn, cos_half, sin_half);
            const tdn_quat parent = tdn__ik_parent_rotation(&chain, i, i > 0 ? w[i - 1] : tdn_quat_identity());
            const tdn_quat turned = tdn_quat_mul(turn, w[i]);
            chain.local[i] = tdn_quat_normalize(tdn_quat_mul(tdn_quat_conjugate(parent), turned));
            if (limits && tdn__ik_limit_rotation(&chain.local[i], &limits[i])) /* the turn it was allowed */
                turn = tdn_quat_mul(tdn_quat_mul(parent, chain.local[i]), tdn_quat_conjugate(w[i]));
            e = tdn_vec3_add(p, tdn_quat_rotate(turn, to_end));
        }
        iterations++;
        tdn__ik_chain_positions(&chain, x, y, z, w); /* the joints below each turn, and no drift */
        const float now = tdn_vec3_length(tdn_vec3_sub(tdn_vec3_make(x[n - 1], y[n - 1], z[n - 1]), target));
        const int stalled = !(now < error - stall);
        error = now;
        if (error <= inner || stalled)
            break;
    }
    tdn__ik_chain_write(&chain, skeleton, pose, model, weight);
    if (result) {
        error = tdn__ik_end_error(model, ik->joints, n, target);
        *result = (tdn_ik_result){ iterations, error, error <= tolerance };
    }
    return TDN_OK;
}
