/* tendon CLI: the takes of tendon retarget (see retarget_takes.h). */
#include "retarget_takes.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

tdn_result retarget_take_of(const tdn_asset *asset, int index, retarget_take *out, tdn_error *err)
{
    const tdn_keyed_clip *clip = tdn_asset_clip(asset, index);
    /* the rate is the runtime clip's own choice; nothing it measures is wanted, so nothing it
     * measures can refuse it */
    const tdn_clip_desc desc = {
        .source = clip, .storage = TDN_STORAGE_FLOAT32, .position_tolerance = FLT_MAX, .rotation_tolerance = FLT_MAX
    };
    tdn_clip *runtime = NULL;
    const tdn_result r = tdn_clip_create(&desc, &runtime, NULL, err);
    if (r != TDN_OK)
        return r;
    const float rate = tdn_clip_sample_rate(runtime);
    tdn_clip_destroy(runtime);
    const double frames = floor((double)tdn_keyed_clip_duration(clip) * rate + 0.5) + 1.0;
    if (frames > RETARGET_MAX_TAKE_FRAMES) {
        if (err) {
            *err = (tdn_error){ .code = TDN_ERR_ARGUMENT };
            snprintf(err->where, sizeof err->where, "clip %d (%s)", index, tdn_keyed_clip_name(clip));
            snprintf(err->message, sizeof err->message, "%.0f frames at %g fps, more than the %d a take may have",
                     frames, (double)rate, RETARGET_MAX_TAKE_FRAMES);
        }
        return TDN_ERR_ARGUMENT;
    }
    *out = (retarget_take){ clip, index, rate, (int)frames };
    return TDN_OK;
}

float retarget_take_time(const retarget_take *take, int f)
{
    const float t = (float)f / take->rate, duration = tdn_keyed_clip_duration(take->clip);
    return t < duration ? t : duration;
}
