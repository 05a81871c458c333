/* tendon io: glTF import (being written). */
#include "asset_internal.h"

tdn_result tdn_gltf_load_memory(const void *data, size_t size, const char *base_dir, const tdn_import_options *options,
                                tdn_asset **out, tdn_error *err)
{
    (void)data, (void)size, (void)base_dir, (void)options;
    if (out)
        *out = NULL;
    return tdn_io__fail(err, TDN_ERR_UNSUPPORTED, "", "glTF import is not built yet");
}
