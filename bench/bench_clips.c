/* tendon_bench: procedural keyed clips. */
#include "bench_clips.h"

#include <stdint.h>
#include <stdlib.h>

/* A deterministic phase in [0, 2 pi) for (variant, joint, channel, harmonic). */
static float phase(int variant, int joint, int channel, int harmonic)
{
    uint32_t h = (uint32_t)variant * 0x9e3779b1u ^ (uint32_t)joint * 0x85ebca6bu ^ (uint32_t)channel * 0xc2b2ae35u ^
                 (uint32_t)harmonic * 0x27d4eb2fu;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return (float)(h >> 8) * (2.0f * TDN_PI / 16777216.0f);
}

/* A smooth curve in about [-1, 1]: three harmonics of the variant's base frequency. */
static float wave(int variant, int joint, int channel, float t)
{
    const float base_hz = 0.5f + 0.25f * (float)(variant % 4);
    float v = 0.0f;
    for (int h = 1; h <= 3; h++)
        v += sinf(2.0f * TDN_PI * base_hz * (float)h * t + phase(variant, joint, channel, h)) / (float)(h + 1);
    return v * (12.0f / 13.0f); /* 1/2 + 1/3 + 1/4 = 13/12 */
}

enum { CH_TX, CH_TY, CH_TZ, CH_RX, CH_RY, CH_RZ, CH_S };

tdn_result bench_keyed_clip_create(const tdn_skeleton *skeleton, int variant, const char *name, tdn_keyed_clip **out,
                                   tdn_error *err)
{
    const int joints = tdn_skeleton_joint_count(skeleton);
    const int keys = (int)(BENCH_CLIP_SECONDS * BENCH_CLIP_KEY_RATE) + 1;
    float *times = malloc(sizeof(float) * (size_t)keys);
    float *values = malloc(sizeof(float) * (size_t)keys * 10 * (size_t)joints); /* 3 + 4 + 3 per key */
    tdn_track_desc *tracks = malloc(sizeof(tdn_track_desc) * 3 * (size_t)joints);
    if (!times || !values || !tracks) {
        free(times);
        free(values);
        free(tracks);
        return TDN_ERR_OUT_OF_MEMORY;
    }
    for (int k = 0; k < keys; k++)
        times[k] = (float)k / BENCH_CLIP_KEY_RATE;
    for (int j = 0; j < joints; j++) {
        tdn_transform rest = tdn_skeleton_rest(skeleton, j);
        float reach = j < 2 ? 0.10f : 0.02f; /* root and pelvis carry the body's motion */
        float *tv = values + (size_t)j * 10 * (size_t)keys, *rv = tv + 3 * keys, *sv = rv + 4 * keys;
        for (int k = 0; k < keys; k++) {
            float t = times[k];
            tv[3 * k + 0] = rest.t.x + reach * wave(variant, j, CH_TX, t);
            tv[3 * k + 1] = rest.t.y + reach * wave(variant, j, CH_TY, t);
            tv[3 * k + 2] = rest.t.z + reach * wave(variant, j, CH_TZ, t);
            tdn_vec3 rotvec = tdn_vec3_make(0.5f * wave(variant, j, CH_RX, t), 0.5f * wave(variant, j, CH_RY, t),
                                            0.5f * wave(variant, j, CH_RZ, t));
            float angle = tdn_vec3_length(rotvec);
            tdn_quat delta = angle > 0.0f ? tdn_quat_from_axis_angle(tdn_vec3_scale(rotvec, 1.0f / angle), angle)
                                          : tdn_quat_identity();
            tdn_quat q = tdn_quat_mul(rest.r, delta);
            rv[4 * k + 0] = q.x;
            rv[4 * k + 1] = q.y;
            rv[4 * k + 2] = q.z;
            rv[4 * k + 3] = q.w;
            float s = 1.0f + 0.05f * wave(variant, j, CH_S, t);
            sv[3 * k + 0] = rest.s.x * s;
            sv[3 * k + 1] = rest.s.y * s;
            sv[3 * k + 2] = rest.s.z * s;
        }
        const float *channel_values[3] = { tv, rv, sv };
        const tdn_track_target targets[3] = { TDN_TARGET_TRANSLATION, TDN_TARGET_ROTATION, TDN_TARGET_SCALE };
        for (int c = 0; c < 3; c++) {
            tdn_track_desc *track = &tracks[3 * j + c];
            track->joint = j;
            track->target = targets[c];
            track->interp = TDN_INTERP_LINEAR;
            track->key_count = keys;
            track->times = times;
            track->values = channel_values[c];
        }
    }
    tdn_keyed_clip_desc desc = { 0 };
    desc.name = name;
    desc.skeleton = skeleton;
    desc.tracks = tracks;
    desc.track_count = 3 * joints;
    tdn_result res = tdn_keyed_clip_create(&desc, out, NULL, err);
    free(times);
    free(values);
    free(tracks);
    return res;
}
