/* tendon io: a graph document into a runtime pack (tdn_pack_writer_add_graph_document): its
 * character's skeleton and skinned meshes, its clips under the names the document calls them by,
 * the root motion's frames of those clips, and its JSON text, which tdn_graph_document_load_pack
 * reads back with them. */
#include <string.h>

#include "fail.h"
#include "graph_document_internal.h"
#include "tendon/pack.h"

tdn_result tdn_pack_writer_add_graph_document(tdn_pack_writer *writer, const char *name,
                                              const tdn_graph_document *document, const char *json, size_t size,
                                              tdn_error *err)
{
    if (!writer || !document || !json)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, !writer ? "writer" : !document ? "document" : "json", "is NULL");
    int skeleton = -1;
    tdn_result r = tdn_pack_writer_add_skeleton(writer, name, document->skeleton, &skeleton, err);
    for (int i = 0; r == TDN_OK && i < tdn_asset_mesh_count(document->asset); i++) {
        const tdn_asset_mesh m = tdn_asset_mesh_at(document->asset, i);
        const tdn_pack_mesh p = { m.name, skeleton, m.vertex_count, m.influence_sets, m.positions,  m.normals,
                                  NULL,   m.joints, m.weights,      m.indices,        m.index_count };
        r = tdn_pack_writer_add_mesh(writer, &p, err);
    }
    for (int c = 0; r == TDN_OK && c < document->clip_count; c++) {
        int index = -1;
        r = tdn_pack_writer_add_named_clip(writer, document->clip_names[c], document->clips[c], skeleton, &index, err);
        /* the root motion's frames, which loading the graph would otherwise sample */
        if (r == TDN_OK && document->has_root_motion && !tdn_clip_is_additive(document->clips[c]))
            r = tdn_pack_writer_add_root_track(writer, index, document->clips[c], document->root_motion.joint, err);
    }
    if (r == TDN_OK)
        r = tdn_pack_writer_add_graph(writer, name, skeleton, json, size, err);
    return r;
}
