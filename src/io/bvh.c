/* tendon io: BVH import (being written). */
#include "asset_internal.h"

tdn_result tdn_bvh_load_memory(const char *text, size_t size, const char *clip_name, const tdn_import_options *options,
                               tdn_asset **out, tdn_error *err)
{
    (void)text, (void)size, (void)clip_name, (void)options;
    if (out)
        *out = NULL;
    return tdn_io__fail(err, TDN_ERR_UNSUPPORTED, "", "BVH import is not built yet");
}
