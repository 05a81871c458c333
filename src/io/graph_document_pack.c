/* tendon io: a graph document into a runtime pack (tdn_pack_writer_add_graph_document): its
 * character's skeleton and skinned meshes, its clips under the names the document calls them by,
 * the root motion's frames of those clips, its motion_match nodes' databases under their file
 * names and the clips they play, its JSON text and, without motion matching, its graph's
 * definition; and back (tdn_graph_document_load_pack) from the definition, where there is one:
 * nothing is parsed. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "asset_internal.h"
#include "fail.h"
#include "graph_document_internal.h"
#include "tendon/pack.h"

/* The motion_match nodes' databases under their file names (two files of one name are an error
 * at the second's path), and each keyed clip they play that no clip node plays, compressed at the
 * document's threshold under the name the document calls it by. */
static tdn_result add_motion_matching(tdn_pack_writer *writer, const tdn_graph_document *d, int skeleton,
                                      tdn_error *err)
{
    tdn_result r = TDN_OK;
    for (int k = 0; r == TDN_OK && k < d->database_count; k++) {
        const char *name = tdn_io__graph_database_name(d->database_paths[k]);
        for (int other = 0; other < k; other++)
            if (strcmp(tdn_io__graph_database_name(d->database_paths[other]), name) == 0)
                return tdn_io__fail(err, TDN_ERR_INVALID_DATA, d->database_paths[k],
                                    "a pack names a database by its file name, and \"%.60s\" has the name of \"%.60s\"",
                                    d->database_paths[k], d->database_paths[other]);
        r = tdn_pack_writer_add_database(writer, name, skeleton, d->databases[k], err);
    }
    for (int k = 0; r == TDN_OK && k < d->mm_clip_count; k++) {
        int played = 0;
        for (int c = 0; c < d->clip_count; c++)
            played |= strcmp(d->clip_names[c], d->mm_clips[k].name) == 0;
        if (played)
            continue;
        const tdn_clip_desc desc = { .source = d->mm_clips[k].clip,
                                     .storage = TDN_STORAGE_COMPRESSED,
                                     .error_threshold = d->error_threshold,
                                     .shell_distance = d->shell_distance,
                                     .position_tolerance = FLT_MAX,
                                     .rotation_tolerance = FLT_MAX };
        tdn_clip *clip = NULL;
        r = tdn_clip_create(&desc, &clip, &d->allocator, err);
        if (r == TDN_OK)
            r = tdn_pack_writer_add_named_clip(writer, d->mm_clips[k].name, clip, skeleton, NULL, err);
        tdn_clip_destroy(clip);
    }
    return r;
}

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
    int *clips = calloc((size_t)document->clip_count + 1, sizeof *clips);
    if (r == TDN_OK && !clips)
        r = tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
    for (int c = 0; r == TDN_OK && c < document->clip_count; c++) {
        int index = -1;
        r = tdn_pack_writer_add_named_clip(writer, document->clip_names[c], document->clips[c], skeleton, &index, err);
        clips[c] = index;
        /* the root motion's frames, which loading the graph would otherwise sample */
        if (r == TDN_OK && document->has_root_motion && !tdn_clip_is_additive(document->clips[c]))
            r = tdn_pack_writer_add_root_track(writer, index, document->clips[c], document->root_motion.joint, err);
    }
    if (r == TDN_OK)
        r = add_motion_matching(writer, document, skeleton, err);
    int graph = -1;
    if (r == TDN_OK)
        r = tdn_pack_writer_add_graph(writer, name, skeleton, json, size, &graph, err);
    if (r == TDN_OK && document->definition)
        r = tdn_pack_writer_add_graph_definition(writer, graph, document->definition, document->definition_size, clips,
                                                 err);
    free(clips);
    return r;
}

tdn_result tdn_io__graph_load_definition(const tdn_pack *pack, int graph,
                                         const tdn_graph_document_load_options *options, tdn_graph_document **out,
                                         const tdn_allocator *allocator, tdn_error *err)
{
    const tdn_allocator a = allocator ? *allocator : (tdn_allocator){ 0 };
    tdn_graph_document *d = tdn_io__alloc(&a, sizeof *d);
    if (!d)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
    memset(d, 0, sizeof *d);
    d->allocator = a;
    d->pack = pack;
    d->skeleton = tdn_pack_skeleton(pack, tdn_pack_graph_skeleton(pack, graph));
    const tdn_packed_graph_options o = { .callbacks = options ? options->callbacks : NULL,
                                         .callback_count = options ? options->callback_count : 0,
                                         .clip_caches = options ? options->clip_caches : 0 };
    tdn_result r = tdn_packed_graph_create(pack, graph, &o, &d->packed, &d->allocator, err);
    const tdn_graph_desc *desc = tdn_packed_graph_desc(d->packed);
    const int n = desc ? desc->clip_count : 0;
    if (r == TDN_OK) {
        d->graph = (tdn_graph *)tdn_packed_graph_graph(d->packed); /* destroyed through d->packed */
        r = tdn_io__graph_alloc_clips(d, n, err);
    }
    for (int c = 0; r == TDN_OK && c < n; c++) { /* the pack's clips, under the pack's names */
        const int i = tdn_packed_graph_pack_clip(d->packed, c);
        const char *name = tdn_pack_clip_name(pack, i);
        d->clips[c] = (tdn_clip *)desc->clips[c]; /* never destroyed: the pack's */
        d->clip_names[c] = tdn_io__alloc(&a, strlen(name) + 1);
        if (!d->clip_names[c])
            r = tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
        else
            memcpy(d->clip_names[c], name, strlen(name) + 1);
    }
    if (r == TDN_OK && desc->root_motion) {
        d->has_root_motion = 1;
        d->root_motion = *desc->root_motion;
    }
    if (r != TDN_OK) {
        tdn_graph_document_destroy(d);
        return r;
    }
    *out = d;
    return TDN_OK;
}
