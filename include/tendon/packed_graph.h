/* tendon: graphs stored in runtime packs as definitions, built without parsing anything.
 *
 * A graph definition is a tdn_graph_desc as bytes (tdn_graph_definition_save_memory): its parameters,
 * nodes, blend spaces, state machines, layers and masks, sync groups, root motion and IK jobs,
 * with the number of clips it plays; not the skeleton, the clips or callbacks, which are bound
 * when it is loaded. A pack stores one beside a graph section (tdn_pack_writer_add_graph_definition,
 * naming the pack's clips it plays), and tdn_packed_graph_create builds that graph from the pack:
 * the pack's skeleton, clips and root tracks, callbacks found by the names they were saved
 * with. libtendon_io's tdn_graph_document_load_pack uses it when a graph has a definition
 * (tdn_pack_writer_add_graph_document stores one for every document without motion matching or a
 * retarget).
 *
 * tdn_pack_open checks where a definition lies and the clips it names; what it says (every
 * offset, count and value) is checked by tdn_packed_graph_create before it is used, with errors
 * naming the file's byte ("byte 2048"), and then by tdn_graph_create as any desc is. */
#ifndef TENDON_PACKED_GRAPH_H
#define TENDON_PACKED_GRAPH_H

#include "base.h"
#include "graph.h"
#include "pack.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the definition format this tendon reads and writes. */
#define TDN_GRAPH_DEFINITION_VERSION 1

/* A C callback that procedural nodes and callback modifiers name. */
typedef struct tdn_graph_callback {
    const char *name;
    tdn_pose_callback callback;
    void *user;
} tdn_graph_callback;

/* `desc` as a definition, in memory from `allocator` (NULL: malloc) that the caller releases
 * with tdn_free(*data, *size, allocator). `callback_names` (per node; may be NULL when no node
 * has a callback) names each node's callback for binding when loaded; the `user` pointers are
 * not saved. desc->skeleton is required (chains and masks are measured on it); its clips,
 * root tracks and clip_caches are not saved. Motion-matching nodes, whose database and clips a
 * definition does not hold, are TDN_ERR_ARGUMENT ("desc.nodes"), as are a procedural node or
 * callback modifier without a name ("callback_names") and an array longer than the format
 * holds (docs/pack-format.md). What the graph does not read is left out (limits of a two-bone
 * job, a callback on a clip node). The desc is not otherwise checked: save descs that
 * tdn_graph_create accepts. */
TDN_API tdn_result tdn_graph_definition_save_memory(const tdn_graph_desc *desc, const char *const *callback_names,
                                                    void **data, size_t *size, const tdn_allocator *allocator,
                                                    tdn_error *err);

/* Adds a definition section: the `size` bytes of a definition (copied) of the graph this writer
 * added as graph index `graph` (tdn_pack_writer_add_graph's), playing the clips this writer
 * added as clip indices clips[0..n), n being the definition's clip count, each animating the
 * graph's skeleton (a clip may be named twice). A writer adds one definition per graph (a
 * reader uses the first it finds). The definition's header (magic, version, size, clip count)
 * is checked here; what it says is checked when it is loaded. */
TDN_API tdn_result tdn_pack_writer_add_graph_definition(tdn_pack_writer *writer, int graph, const void *definition,
                                                        size_t size, const int *clips, tdn_error *err);
/* Whether graph `graph` of the pack has a definition (0 for a bad index). */
TDN_API int tdn_pack_graph_has_definition(const tdn_pack *pack, int graph);

/* Zero-initialisable. */
typedef struct tdn_packed_graph_options {
    const tdn_graph_callback *callbacks; /* what the definition's nodes may name */
    int callback_count;
    int clip_caches; /* tdn_graph_desc.clip_caches */
} tdn_packed_graph_options;

/* A graph built from a pack's definition, with what it uses that is not the pack's (its blend
 * spaces, root tracks). The pack must outlive it. */
typedef struct tdn_packed_graph tdn_packed_graph;

/* Builds graph `graph` of `pack` from its definition. TDN_ERR_ARGUMENT for NULL pack or out, a
 * bad graph index or bad options; TDN_ERR_UNSUPPORTED when the graph has no definition;
 * TDN_ERR_INVALID_DATA for a definition that is not one (naming the byte and the field), a
 * callback name the options do not have ("nodes[2]"), or what tdn_graph_create refuses. On
 * failure *out is NULL and nothing stays allocated. Allocates through `allocator` (NULL:
 * malloc). */
TDN_API tdn_result tdn_packed_graph_create(const tdn_pack *pack, int graph, const tdn_packed_graph_options *options,
                                           tdn_packed_graph **out, const tdn_allocator *allocator, tdn_error *err);
/* Frees the graph and what it owns; NULL is ignored. Destroy its instances first. */
TDN_API void tdn_packed_graph_destroy(tdn_packed_graph *packed);
/* The graph (owned by `packed`); NULL for NULL. */
TDN_API const tdn_graph *tdn_packed_graph_graph(const tdn_packed_graph *packed);
/* The desc it was built from: its clips are the pack's, its strings and arrays in the pack's
 * bytes or `packed`'s memory; NULL for NULL. */
TDN_API const tdn_graph_desc *tdn_packed_graph_desc(const tdn_packed_graph *packed);
/* The pack's clip index of the graph's clip `clip` (-1 for a bad index). */
TDN_API int tdn_packed_graph_pack_clip(const tdn_packed_graph *packed, int clip);

#ifdef __cplusplus
}
#endif
#endif
