/* tendon io glTF: the entry point. Opens the document, then builds the asset's skeleton,
 * clips and meshes (see gltf_internal.h for the files that do each step). The asset is built
 * into a new container that is destroyed on any failure, so the caller gets a whole asset or
 * none. */
#include "gltf_internal.h"

tdn_result tdn_io__gltf_load(const void *data, size_t size, const char *base_dir, const tdn_asset_load_options *options,
                             tdn_asset **out, const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!out || (!data && size > 0))
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, out ? "data" : "out", "is NULL");
    float scale;
    tdn_result r = tdn_io__import_scale(options, &scale, err);
    if (r != TDN_OK)
        return r;
    tdn_gltf__doc doc;
    r = tdn_gltf__open(&doc, data ? data : "", size, base_dir, options ? options->file_access : NULL, allocator, err);
    if (r != TDN_OK)
        return r;
    tdn_asset *asset = tdn_io__asset_new(TDN_FORMAT_GLTF, allocator);
    tdn_gltf__scene scene = { .scale = scale };
    if (!asset)
        r = tdn_gltf__fail(&doc, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for the asset");
    if (r == TDN_OK)
        r = tdn_gltf__read_nodes(&doc, &scene, asset);
    if (r == TDN_OK)
        r = tdn_gltf__build_skeleton(&doc, &scene, asset, options ? options->skin : NULL);
    if (r == TDN_OK)
        r = tdn_gltf__build_clips(&doc, &scene, asset);
    tdn_gltf__drop_values(&doc);
    if (r == TDN_OK)
        r = tdn_gltf__build_meshes(&doc, &scene, asset);
    tdn_gltf__free_scene(&scene);
    tdn_gltf__close(&doc);
    if (r != TDN_OK) {
        tdn_asset_destroy(asset);
        return r;
    }
    *out = asset;
    return TDN_OK;
}
