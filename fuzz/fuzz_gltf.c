/* Fuzz target: glTF import from memory (JSON or GLB), with no folder for external buffers. Any
 * input must load or fail cleanly. */
#include <stddef.h>
#include <stdint.h>

#include "tendon/io/asset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    if (tdn_asset_load_memory(data, size, NULL, &asset, NULL, &err) == TDN_OK)
        tdn_asset_destroy(asset);
    return 0;
}
