/* tendon core: joint velocities (root_motion.h).
 *
 * A velocity pose has the rows of a pose: translation rows hold linear velocity, rotation rows
 * x, y, z the angular velocity (axis * rad/s, from after * before^-1 taken the short way, so in
 * the joint's parent frame) with w = 0, scale rows the rate of change of scale. Each joint's
 * ten values are read before any is written, so an output may alias an input. */
#include <stdio.h>

#include "tendon/root_motion.h"

#include "internal.h"

/* Angular velocity of the rotation taking a to b over `inv_seconds`^-1, into w[0..2]. */
static void angular(double ax, double ay, double az, double aw, double bx, double by, double bz, double bw,
                    double inv_seconds, double w[3])
{
    /* d = b * conj(a) */
    double dx = -bw * ax + bx * aw - by * az + bz * ay;
    double dy = -bw * ay + bx * az + by * aw - bz * ax;
    double dz = -bw * az - bx * ay + by * ax + bz * aw;
    double dw = bw * aw + bx * ax + by * ay + bz * az;
    if (dw < 0.0)
        dx = -dx, dy = -dy, dz = -dz, dw = -dw;
    const double s = sqrt(dx * dx + dy * dy + dz * dz);
    const double k = (s < 1e-12 ? 2.0 : 2.0 * atan2(s, dw) / s) * inv_seconds;
    w[0] = dx * k, w[1] = dy * k, w[2] = dz * k;
}

static void zero_padding(tdn_pose *v)
{
    for (int r = 0; r < TDN_POSE_ROWS; ++r)
        for (int j = v->joint_count; j < v->stride; ++j)
            tdn_pose_row(v, r)[j] = 0.0f;
}

static tdn_result difference(const tdn_pose *before, const tdn_pose *after, double seconds, tdn_pose *velocity)
{
    const int n = velocity->joint_count;
    const double inv = seconds > 0.0 && isfinite(seconds) ? 1.0 / seconds : 0.0;
    const size_t sb = (size_t)before->stride, sa = (size_t)after->stride, sv = (size_t)velocity->stride;
    for (int j = 0; j < n; ++j) {
        double a[TDN_POSE_ROWS], b[TDN_POSE_ROWS], v[TDN_POSE_ROWS];
        for (int r = 0; r < TDN_POSE_ROWS; ++r) {
            a[r] = before->data[(size_t)r * sb + (size_t)j];
            b[r] = after->data[(size_t)r * sa + (size_t)j];
        }
        for (int r = TDN_TX; r <= TDN_TZ; ++r)
            v[r] = (b[r] - a[r]) * inv;
        for (int r = TDN_SX; r <= TDN_SZ; ++r)
            v[r] = (b[r] - a[r]) * inv;
        if (inv > 0.0)
            angular(a[TDN_RX], a[TDN_RY], a[TDN_RZ], a[TDN_RW], b[TDN_RX], b[TDN_RY], b[TDN_RZ], b[TDN_RW], inv,
                    &v[TDN_RX]);
        else
            v[TDN_RX] = v[TDN_RY] = v[TDN_RZ] = 0.0;
        v[TDN_RW] = 0.0;
        for (int r = 0; r < TDN_POSE_ROWS; ++r)
            velocity->data[(size_t)r * sv + (size_t)j] = isfinite(v[r]) ? (float)v[r] : 0.0f;
    }
    zero_padding(velocity);
    return TDN_OK;
}

tdn_result tdn_pose_velocity(const tdn_pose *before, const tdn_pose *after, float seconds, tdn_pose *velocity,
                             tdn_error *err)
{
    if (!before || !after || !velocity || !before->data || !after->data || !velocity->data)
        return tdn__null(err, !velocity || !velocity->data ? "velocity"
                              : !before || !before->data   ? "before"
                                                           : "after");
    if (before->joint_count != velocity->joint_count || after->joint_count != velocity->joint_count)
        return tdn__pose_size(err, before->joint_count != velocity->joint_count ? "before" : "after",
                              before->joint_count != velocity->joint_count ? before->joint_count : after->joint_count,
                              velocity->joint_count, "the velocity");
    return difference(before, after, (double)seconds, velocity);
}

tdn_result tdn_clip_sample_velocity(const tdn_clip *clip, float time, tdn_pose *scratch, tdn_pose *velocity,
                                    tdn_error *err)
{
    if (!clip || !scratch || !velocity || !scratch->data || !velocity->data)
        return tdn__null(err, !clip ? "clip" : !scratch || !scratch->data ? "scratch" : "velocity");
    if (scratch == velocity || scratch->data == velocity->data)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "scratch", "scratch and velocity are the same pose");
    if (scratch->joint_count != tdn_clip_joint_count(clip))
        return tdn__pose_size(err, "scratch", scratch->joint_count, tdn_clip_joint_count(clip), "the clip's skeleton");
    if (velocity->joint_count != scratch->joint_count)
        return tdn__pose_size(err, "velocity", velocity->joint_count, tdn_clip_joint_count(clip),
                              "the clip's skeleton");
    const float duration = tdn_clip_duration(clip), rate = tdn_clip_sample_rate(clip);
    if (!(duration > 0.0f) || !(rate > 0.0f)) {
        for (int r = 0; r < TDN_POSE_ROWS; ++r)
            memset(tdn_pose_row(velocity, r), 0, (size_t)velocity->stride * sizeof(float));
        return TDN_OK;
    }
    const double h = 1.0 / rate;
    const double t = time > 0.0f ? (time < duration ? (double)time : (double)duration) : 0.0; /* NaN -> 0 */
    const float a = (float)(t - h > 0.0 ? t - h : 0.0);
    const float b = (float)(t + h < duration ? t + h : (double)duration);
    tdn_clip_sample(clip, a, scratch, NULL);
    tdn_clip_sample(clip, b, velocity, NULL);
    return difference(scratch, velocity, (double)b - (double)a, velocity);
}

tdn_result tdn_velocity_blend(const tdn_blend_input *layers, int layer_count, tdn_pose *out, tdn_error *err)
{
    if (!layers || !out || !out->data)
        return tdn__null(err, !layers ? "layers" : "out");
    if (layer_count <= 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "layer_count", "%d layers: nothing to blend", layer_count);
    for (int i = 0; i < layer_count; ++i)
        if (!layers[i].pose || !layers[i].pose->data || layers[i].pose->joint_count != out->joint_count) {
            char where[32];
            snprintf(where, sizeof where, "layers[%d].pose", i);
            if (!layers[i].pose || !layers[i].pose->data)
                return tdn__null(err, where);
            return tdn__pose_size(err, where, layers[i].pose->joint_count, out->joint_count, "the output");
        }
    const int n = out->joint_count;
    for (int j = 0; j < n; ++j) {
        double sum[TDN_POSE_ROWS] = { 0 }, total = 0.0;
        for (int i = 0; i < layer_count; ++i) {
            const float lw = layers[i].weight;
            double w = lw > 0.0f && isfinite(lw) ? (double)lw : 0.0;
            if (w > 0.0 && layers[i].joint_weights)
                w *= (double)tdn__clamp01(layers[i].joint_weights[j]);
            if (!(w > 0.0))
                continue;
            total += w;
            for (int r = 0; r < TDN_POSE_ROWS; ++r)
                sum[r] += w * tdn_pose_crow(layers[i].pose, r)[j];
        }
        if (total < 1e-6) {
            for (int r = 0; r < TDN_POSE_ROWS; ++r)
                sum[r] = tdn_pose_crow(layers[0].pose, r)[j];
            total = 1.0;
        }
        for (int r = 0; r < TDN_POSE_ROWS; ++r)
            tdn_pose_row(out, r)[j] = (float)(sum[r] / total);
    }
    zero_padding(out);
    return TDN_OK;
}
