/* Fuzz target: blend-space JSON (tdn_blend_space_file_load_memory). Any input must parse or fail
 * cleanly (the sanitizers catch the rest); a failure must leave no result and name its place;
 * a parsed space must name every sample's clip and give weights that are finite, >= 0 and sum
 * to 1 at every sample's point, between samples and far outside them. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tendon/io/blend_space_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_weights(const tdn_blend_space *space, const float *point)
{
    float w[TDN_MAX_BLEND_SPACE_SAMPLES];
    if (tdn_blend_space_weights(space, point, w, NULL) != TDN_OK)
        abort();
    double sum = 0.0;
    for (int s = 0; s < tdn_blend_space_sample_count(space); s++) {
        if (!isfinite(w[s]) || w[s] < 0.0f)
            abort();
        sum += w[s];
    }
    if (fabs(sum - 1.0) > 1e-3)
        abort();
}

static void check_space(const tdn_blend_space_file *f)
{
    const tdn_blend_space *space = tdn_blend_space_file_space(f);
    const int n = tdn_blend_space_sample_count(space), dims = tdn_blend_space_dimensions(space);
    if (!space || n < 1 || n > TDN_MAX_BLEND_SPACE_SAMPLES || dims < 1 || dims > TDN_MAX_BLEND_SPACE_DIMENSIONS ||
        tdn_blend_space_file_clip_name(f, n) != NULL)
        abort();
    float mid[TDN_MAX_BLEND_SPACE_DIMENSIONS] = { 0 }, far[TDN_MAX_BLEND_SPACE_DIMENSIONS];
    for (int s = 0; s < n; s++) {
        const char *clip = tdn_blend_space_file_clip_name(f, s);
        if (!clip || !clip[0])
            abort();
        const float *p = tdn_blend_space_point(space, s);
        check_weights(space, p);
        for (int d = 0; d < dims; d++)
            mid[d] += p[d] / (float)n;
    }
    check_weights(space, mid);
    for (int d = 0; d < dims; d++)
        far[d] = (d % 2 ? -1e14f : 1e14f);
    check_weights(space, far);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tdn_blend_space_file *f = NULL;
    tdn_error err = { 0 };
    if (tdn_blend_space_file_load_memory((const char *)data, size, &f, NULL, &err) == TDN_OK) {
        check_space(f);
        tdn_blend_space_file_destroy(f);
    } else if (f || err.where[0] == '\0' || err.message[0] == '\0') {
        abort(); /* a failure leaves no result and names its place */
    }
    return 0;
}
