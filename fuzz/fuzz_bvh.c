/* Fuzz target: BVH import from memory. Any input must load or fail cleanly (the sanitizers
 * catch the rest), a failure must leave no asset, and a loaded asset must sample to finite
 * model-space poses at its start, middle and end. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tendon/io/asset.h"
#include "tendon/model_space.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_finite_poses(const tdn_asset *asset)
{
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    const tdn_keyed_clip *clip = tdn_asset_clip(asset, 0);
    const int n = tdn_skeleton_joint_count(skel);
    tdn_pose pose;
    tdn_mat4 *model = malloc(sizeof *model * (size_t)n);
    if (!model || tdn_pose_create(n, &pose, NULL, NULL) != TDN_OK) {
        free(model);
        return;
    }
    const float duration = tdn_keyed_clip_duration(clip);
    for (int i = 0; i < 3; i++) {
        if (tdn_keyed_clip_sample(clip, duration * 0.5f * (float)i, &pose, NULL, NULL) != TDN_OK ||
            tdn_model_space(skel, &pose, NULL, model, NULL) != TDN_OK)
            abort();
        for (int j = 0; j < n; j++)
            for (int k = 0; k < 16; k++)
                if (!isfinite(model[j].m[k]))
                    abort();
    }
    tdn_pose_destroy(&pose);
    free(model);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    if (tdn_asset_load_memory(data, size, NULL, &asset, NULL, &err) == TDN_OK) {
        check_finite_poses(asset);
        tdn_asset_destroy(asset);
    } else if (asset || err.where[0] == '\0') {
        abort(); /* a failure leaves no asset and names its line */
    }
    return 0;
}
