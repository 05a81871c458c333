/* tendon core: keyed curve evaluation (glTF 2.0 sampler semantics) and key validation. */
#include "curve.h"

#include <stdio.h>

#include "internal.h"

int tdn__curve_find(const float *times, int key_count, float t, int *hint)
{
    int last = key_count - 1;
    int k;
    if (!(t >= times[0])) {
        k = -1;
    } else if (t >= times[last]) {
        k = last;
    } else {
        /* Here key_count >= 2 and the answer lies in [0, last - 1]. */
        k = -1;
        if (hint) {
            int h = *hint < 0 ? 0 : (*hint > last - 1 ? last - 1 : *hint);
            if (times[h] <= t) {
                if (t < times[h + 1])
                    k = h;
                else if (h + 2 <= last && t < times[h + 2])
                    k = h + 1;
            } else if (h > 0 && times[h - 1] <= t) {
                k = h - 1;
            }
        }
        if (k < 0) {
            int lo = 0, hi = last; /* times[lo] <= t < times[hi] */
            while (hi - lo > 1) {
                int mid = lo + (hi - lo) / 2;
                if (times[mid] <= t)
                    lo = mid;
                else
                    hi = mid;
            }
            k = lo;
        }
    }
    if (hint)
        *hint = k;
    return k;
}

static void copy_floats(float *out, const float *in, int n)
{
    for (int i = 0; i < n; ++i)
        out[i] = in[i];
}

static void normalize4(float *q)
{
    tdn_quat n = tdn_quat_normalize(tdn_quat_make(q[0], q[1], q[2], q[3]));
    q[0] = n.x, q[1] = n.y, q[2] = n.z, q[3] = n.w;
}

void tdn__curve_eval(const tdn__curve *curve, float t, int *hint, float *out)
{
    const int w = curve->width;
    const int key_floats = tdn__curve_key_floats(curve);
    const int value_at = curve->interp == TDN_INTERP_CUBIC ? w : 0; /* skip the in-tangent */
    const float *v = curve->values;
    int k = tdn__curve_find(curve->times, curve->key_count, t, hint);

    if (k < 0 || k >= curve->key_count - 1 || curve->interp == TDN_INTERP_STEP) {
        int key = k < 0 ? 0 : k;
        copy_floats(out, v + (size_t)key * key_floats + value_at, w);
        return;
    }
    const float t0 = curve->times[k], t1 = curve->times[k + 1];
    const float dt = t1 - t0;
    const float s = (t - t0) / dt;
    const float *a = v + (size_t)k * key_floats;
    const float *b = a + key_floats;

    if (curve->interp == TDN_INTERP_LINEAR) {
        if (curve->rotation) {
            tdn_quat q = tdn_quat_slerp(tdn_quat_make(a[0], a[1], a[2], a[3]), tdn_quat_make(b[0], b[1], b[2], b[3]),
                                        s);
            out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
        } else {
            for (int i = 0; i < w; ++i)
                out[i] = a[i] + (b[i] - a[i]) * s;
        }
        return;
    }

    /* glTF CUBICSPLINE: key k is (a_k, v_k, b_k) = (in-tangent, value, out-tangent). */
    const float s2 = s * s, s3 = s2 * s;
    const float h00 = 2.0f * s3 - 3.0f * s2 + 1.0f;
    const float h10 = (s3 - 2.0f * s2 + s) * dt;
    const float h01 = -2.0f * s3 + 3.0f * s2;
    const float h11 = (s3 - s2) * dt;
    const float *v0 = a + w, *out_tangent0 = a + 2 * w;
    const float *in_tangent1 = b, *v1 = b + w;
    for (int i = 0; i < w; ++i)
        out[i] = h00 * v0[i] + h10 * out_tangent0[i] + h01 * v1[i] + h11 * in_tangent1[i];
    if (curve->rotation)
        normalize4(out);
}

/* Rotation values shorter than this are treated as zero (their direction is noise). */
#define TDN__MIN_QUAT_LENGTH2 1e-12f

/* The place of key k, formatted only once a key fails (formatting it for every key took a fifth
 * of a glTF import). */
static const char *key_place(char *where, size_t size, const char *place, int k)
{
    snprintf(where, size, "%s key %d", place, k);
    return where;
}

tdn_result tdn__curve_check(const tdn__curve *curve, const char *place, tdn_error *err)
{
    char where[128];
    if (curve->key_count < 1)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "a track needs at least one key (key_count %d)",
                         curve->key_count);
    if (!curve->times || !curve->values)
        return tdn__fail(err, TDN_ERR_ARGUMENT, place, "%s is NULL", curve->times ? "values" : "times");

    const int key_floats = tdn__curve_key_floats(curve);
    const int value_at = curve->interp == TDN_INTERP_CUBIC ? curve->width : 0;
    for (int k = 0; k < curve->key_count; ++k) {
        float t = curve->times[k];
        if (!tdn__finite(t) || t < 0.0f)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, key_place(where, sizeof where, place, k),
                             "key time %g is not a finite time >= 0", (double)t);
        if (k > 0 && !(t > curve->times[k - 1]))
            return tdn__fail(err, TDN_ERR_INVALID_DATA, key_place(where, sizeof where, place, k),
                             "key times must be strictly increasing (%g after %g)", (double)t,
                             (double)curve->times[k - 1]);
        const float *key = curve->values + (size_t)k * key_floats;
        for (int i = 0; i < key_floats; ++i)
            if (!tdn__finite(key[i]))
                return tdn__fail(err, TDN_ERR_INVALID_DATA, key_place(where, sizeof where, place, k),
                                 "value component %d is not finite", i);
        if (curve->rotation) {
            const float *q = key + value_at;
            float len2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
            if (!(len2 > TDN__MIN_QUAT_LENGTH2))
                return tdn__fail(err, TDN_ERR_INVALID_DATA, key_place(where, sizeof where, place, k),
                                 "zero quaternion (%g, %g, %g, %g)", (double)q[0], (double)q[1], (double)q[2],
                                 (double)q[3]);
        }
    }
    return TDN_OK;
}
