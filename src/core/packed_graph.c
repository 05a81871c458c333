/* tendon core: a graph built from a pack's definition (tdn_packed_graph): the definition read
 * back over the pack's bytes, bound to the pack's skeleton, clips and root tracks and to the
 * caller's callbacks by name, then tdn_graph_create. */
#include "graph_definition.h"
#include "pack_internal.h"
#include "tendon/packed_graph.h"

#include <stdio.h>

struct tdn_packed_graph {
    tdn_allocator allocator;
    size_t bytes; /* of this allocation: the struct, clips, pack clip indices, root tracks */
    tdn__graph_definition definition;
    const tdn_clip **clips;
    int *pack_clips;
    tdn_root_track **root_tracks;
    int clip_count;
    tdn_graph *graph;
};

void tdn_packed_graph_destroy(tdn_packed_graph *p)
{
    if (!p)
        return;
    const tdn_allocator a = p->allocator;
    tdn_graph_destroy(p->graph);
    for (int c = 0; p->root_tracks && c < p->clip_count; c++) /* after the graph, which uses them */
        tdn_root_track_destroy(p->root_tracks[c]);
    tdn__graph_definition_free(&p->definition);
    tdn__free(&a, p, p->bytes);
}

/* Each node's callback from the options by the name it was saved with. */
static tdn_result bind_callbacks(tdn_packed_graph *p, const tdn_packed_graph_options *o, tdn_error *err)
{
    tdn_node_desc *nodes = (tdn_node_desc *)p->definition.desc.nodes; /* the definition's memory */
    for (int i = 0; i < p->definition.desc.node_count; i++) {
        const char *name = p->definition.callback_names[i];
        if (!name)
            continue;
        int k = 0;
        while (k < o->callback_count && !(o->callbacks[k].name && strcmp(o->callbacks[k].name, name) == 0))
            k++;
        if (k == o->callback_count) {
            char where[32];
            snprintf(where, sizeof where, "nodes[%d]", i);
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "no callback named '%.60s' (options.callbacks)", name);
        }
        nodes[i].callback = o->callbacks[k].callback;
        nodes[i].user = o->callbacks[k].user;
    }
    return TDN_OK;
}

/* The pack's root tracks of the clips for the definition's root motion (NULL entries: the
 * graph builds them). */
static tdn_result root_tracks(tdn_packed_graph *p, const tdn_pack *pack, tdn_error *err)
{
    const tdn_root_track_desc *desc = p->definition.desc.root_motion;
    for (int c = 0; desc && c < p->clip_count; c++) {
        if (tdn_clip_is_additive(p->clips[c]) || !tdn_pack_has_root_track(pack, p->pack_clips[c], desc->joint))
            continue;
        const tdn_result r = tdn_pack_root_track(pack, p->pack_clips[c], desc, &p->root_tracks[c], &p->allocator, err);
        if (r != TDN_OK)
            return r;
    }
    return TDN_OK;
}

tdn_result tdn_packed_graph_create(const tdn_pack *pack, int graph, const tdn_packed_graph_options *options,
                                   tdn_packed_graph **out, const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!pack || !out)
        return tdn__null(err, !pack ? "pack" : "out");
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    if (graph < 0 || graph >= tdn_pack_graph_count(pack))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "graph", "%d is not a graph of the pack (it has %d)", graph,
                         tdn_pack_graph_count(pack));
    const tdn_packed_graph_options none = { 0 }, *o = options ? options : &none;
    if (o->callback_count < 0 || (o->callback_count > 0 && !o->callbacks))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "options.callbacks", "%d callbacks at %p", o->callback_count,
                         (const void *)o->callbacks);
    const tdn__pack_definition *def = tdn__pack_definition_of(pack, graph);
    if (!def)
        return tdn__fail(err, TDN_ERR_UNSUPPORTED, "graph", "graph %d ('%s') has no definition in the pack", graph,
                         tdn_pack_graph_name(pack, graph));
    const int n = def->clip_count;
    const size_t bytes = sizeof(tdn_packed_graph) + (sizeof(tdn_clip *) + sizeof(tdn_root_track *)) * (size_t)(n + 1) +
                         sizeof(int) * (size_t)(n + 1);
    const tdn_allocator a = tdn__allocator_of(allocator);
    tdn_packed_graph *p = tdn__alloc(&a, bytes, 16);
    if (!p)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "allocating %zu bytes failed", bytes);
    memset(p, 0, bytes);
    p->allocator = a;
    p->bytes = bytes;
    p->clip_count = n;
    p->clips = (const tdn_clip **)(p + 1);
    p->root_tracks = (tdn_root_track **)(p->clips + n + 1);
    p->pack_clips = (int *)(p->root_tracks + n + 1);
    for (int c = 0; c < n; c++) {
        p->pack_clips[c] = def->clips[c];
        p->clips[c] = tdn_pack_clip(pack, def->clips[c]);
    }
    const tdn_skeleton *skeleton = tdn_pack_skeleton(pack, tdn_pack_graph_skeleton(pack, graph));
    tdn_result r = tdn__graph_definition_read(def->image, def->size, def->image_byte, skeleton, &p->definition, &a,
                                              err);
    if (r == TDN_OK)
        r = bind_callbacks(p, o, err);
    if (r == TDN_OK)
        r = root_tracks(p, pack, err);
    if (r == TDN_OK) {
        tdn_graph_desc *desc = &p->definition.desc;
        desc->clips = p->clips;
        desc->root_tracks = (const tdn_root_track *const *)p->root_tracks;
        desc->clip_caches = o->clip_caches;
        r = tdn_graph_create(desc, &p->graph, &a, err);
    }
    if (r != TDN_OK) {
        tdn_packed_graph_destroy(p);
        return r;
    }
    *out = p;
    return TDN_OK;
}

const tdn_graph *tdn_packed_graph_graph(const tdn_packed_graph *p) { return p ? p->graph : NULL; }
const tdn_graph_desc *tdn_packed_graph_desc(const tdn_packed_graph *p) { return p ? &p->definition.desc : NULL; }
int tdn_packed_graph_pack_clip(const tdn_packed_graph *p, int clip)
{
    return p && clip >= 0 && clip < p->clip_count ? p->pack_clips[clip] : -1;
}
