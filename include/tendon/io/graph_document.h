/* tendon io: graph documents, tendon's JSON format for a character's animation graph
 * (libtendon_io). docs/graph-format.md is the reference; in short:
 *
 *     {"character": {"generated": "humanoid"},          or {"file": "hero.glb", "skin": ..., "scale": ...}
 *      "clips": [{"name": "walk", "source": "walk_forward"}, ...],   optional: default, every clip
 *      "parameters": [{"name": "move", "type": "vec2", "half_life": 0.15}, ...],
 *      "sync_groups": [{"name": "feet", "markers": ["foot_down_l", "foot_down_r"]}],
 *      "nodes": {"locomotion": NODE, ...},                optional: named nodes, shared by name
 *      "root": NODE,
 *      "retarget": {"to": {"file": "soldier.glb"}}}       optional: the graph drives this character
 *
 * A NODE is an object with a "type" ("clip", "blend2", "blendN", "switch", "additive",
 * "time_scale", "blend_space", "rest", "state_machine", "procedural", "modifier",
 * "motion_match") and its fields, or a string naming an entry of "nodes" (docs/graph-format.md
 * has every type's fields).
 * Numbers a node reads ("weight", "select", "scale") are a number or a parameter's name.
 *
 * Loading reads the character (a file the document names, or tendon's generated humanoid),
 * builds a runtime clip for every clip the nodes use, the blend spaces, and the graph. The
 * files a document names (character.file, clips[].file, a motion_match node's database,
 * retarget.to.file) are read below the document's folder, or below a root
 * options->file_access allows (file_access.h): an absolute path or a ".." out of the folder is
 * refused otherwise.
 * Everything is checked: unknown or missing fields, wrong types, unknown clips, parameters and
 * node names, cycles through named nodes, what the core refuses; the error's `where` is the
 * JSON path ("root.inputs[1].weight", "nodes.walk.clip") or, for bad JSON, the byte, line and
 * column; tdn_graph_document_load puts the document's path before it. An error in a file the
 * document names gives the field, the file as the document names it, and the place in that
 * file: "graph.json: character.file (hero.glb): byte 1500000". On failure *out is NULL and
 * nothing stays allocated. The document is immutable once loaded: any number of threads may
 * share it, each character with its own tdn_graph_instance. */
#ifndef TENDON_IO_GRAPH_DOCUMENT_H
#define TENDON_IO_GRAPH_DOCUMENT_H

#include <stddef.h>

#include "../base.h"
#include "../clip.h"
#include "../graph.h"
#include "../pack.h"
#include "../packed_graph.h"
#include "asset.h"
#include "file_access.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tdn_graph_document tdn_graph_document;

/* The C callbacks a document's "procedural" nodes and "callback" modifiers name: tdn_graph_callback
 * (tendon/packed_graph.h). */

/* Zero-initialisable. */
typedef struct tdn_graph_document_load_options {
    const tdn_graph_callback *callbacks; /* what documents may name; copied */
    int callback_count;
    /* tdn_graph_document_load_memory only: the folder of the files the document names (NULL:
     * naming a file is an error; tdn_graph_document_load reads them from the document's) */
    const char *base_dir;
    /* How the document and the files it names are read, and which names are allowed
     * (file_access.h); passed on to the assets it loads. NULL: from the file system, below the
     * document's folder. */
    const tdn_file_access *file_access;
    /* How the runtime clips the document builds are stored (tdn_clip_desc.storage), and, for
     * TDN_STORAGE_COMPRESSED, their error_threshold and shell_distance (skeleton units; 0: the
     * defaults tdn_clip_desc gives). 0 (AUTO): 16-bit clips, or float32 where 16 bits are not
     * within tolerance. Ignored by tdn_graph_document_load_pack (a pack's clips are built). */
    tdn_clip_storage clip_storage;
    float error_threshold;
    float shell_distance;
    /* The graph's tdn_graph_desc.clip_caches: 1 gives each instance a clip cache per clip node
     * that plays a compressed clip (a pack's, or with clip_storage COMPRESSED). */
    int clip_caches;
} tdn_graph_document_load_options;

/* Loads a graph document file (`options` may be NULL). `allocator` (NULL: malloc) serves
 * everything the document keeps, and the bytes of files while they are read; the JSON tree is
 * read with malloc while loading. */
TDN_API tdn_result tdn_graph_document_load(const char *path, const tdn_graph_document_load_options *options,
                                           tdn_graph_document **out, const tdn_allocator *allocator, tdn_error *err);
/* The same from `size` bytes of JSON text; the files it names are read from options->base_dir.
 * Errors' `where` is the JSON path, without a file. */
TDN_API tdn_result tdn_graph_document_load_memory(const char *json, size_t size,
                                                  const tdn_graph_document_load_options *options,
                                                  tdn_graph_document **out, const tdn_allocator *allocator,
                                                  tdn_error *err);
/* The same from graph `graph` of a runtime pack. When the graph has its definition
 * (tdn_pack_graph_has_definition), the graph is tdn_packed_graph_create's (packed_graph.h):
 * nothing is parsed, callbacks bind by name from options->callbacks, the clips are the pack's
 * under its names; errors name the file's byte or the node, after the graph's name. Otherwise
 * its JSON text (tdn_pack_graph_json) is read as a document's, with the pack's skeleton tdn_pack_graph_skeleton gives
 * as its character (the document's "character" is not read) and, for every clip its nodes play, the pack's clip of the
 * name the document calls it by (tdn_pack_find_clip; the pack holds it built, made additive
 * where the document says so, so its "clips" entries are not read), with the root tracks the
 * pack stores for them. A motion_match node's database is the pack's database of its file name
 * (tdn_pack_find_database), its clips the pack's clips as keyed clips. Nothing is read from
 * files: "retarget" is refused, as are a clip or database the pack lacks and a clip animating
 * another skeleton (errors name the JSON path, after the graph's name:
 * "blendmotion: nodes.moving.samples[1].clip"). The document does not own the pack, whose clips
 * and skeleton it uses: the pack must outlive it. Its asset is NULL. Only options->callbacks and
 * options->clip_caches are used. */
TDN_API tdn_result tdn_graph_document_load_pack(const tdn_pack *pack, int graph,
                                                const tdn_graph_document_load_options *options,
                                                tdn_graph_document **out, const tdn_allocator *allocator,
                                                tdn_error *err);
/* Adds `document` to a pack writer as tdn_graph_document_load_pack reads it back: its
 * character's skeleton under `name`, the character's skinned meshes, every clip of the document
 * (tdn_graph_document_clip) under the name the document calls it by with the root tracks of
 * the plain ones at the document's root-motion joint, each motion_match node's database under
 * its file name and the clips it plays (compressed at the document's threshold), and `size`
 * bytes of `json` (the document's text, which the caller keeps: a document does not) as a graph
 * section named `name`, with the graph's definition when the document has no motion_match node nor retarget
 * (a document loaded from JSON keeps its definition for this: tdn_graph_definition_save_memory). The clips must be
 * COMPRESSED (load the document with options->clip_storage TDN_STORAGE_COMPRESSED): another storage is TDN_ERR_ARGUMENT
 * naming the clip, as the writer's other refusals are passed on; the writer then holds what was added before (destroy
 * it). */
TDN_API tdn_result tdn_pack_writer_add_graph_document(tdn_pack_writer *writer, const char *name,
                                                      const tdn_graph_document *document, const char *json, size_t size,
                                                      tdn_error *err);
/* Frees the document and everything it holds (graph, asset, clips); NULL is ignored. */
TDN_API void tdn_graph_document_destroy(tdn_graph_document *document);

/* What the document holds: its graph, its character's asset (NULL for a document from a pack)
 * and skeleton, and its clips (NULL for a NULL document or a bad index). Each is owned by the document and lives as
 * long as it: never destroy them, and destroy the document only when nothing uses them. */
TDN_API const tdn_graph *tdn_graph_document_graph(const tdn_graph_document *document);
TDN_API const tdn_asset *tdn_graph_document_asset(const tdn_graph_document *document);
TDN_API const tdn_skeleton *tdn_graph_document_skeleton(const tdn_graph_document *document);
/* The runtime clips the graph plays, in the order of its clip indices (tdn_graph_entry.clip). */
TDN_API int tdn_graph_document_clip_count(const tdn_graph_document *document);
TDN_API const tdn_clip *tdn_graph_document_clip(const tdn_graph_document *document, int clip);
/* A clip's name as the document gives it; NULL for a bad index. */
TDN_API const char *tdn_graph_document_clip_name(const tdn_graph_document *document, int clip);

/* A document with "retarget" drives another character with its graph: the retarget from the
 * document's character onto retarget.to (both body maps found on the rest poses), for
 * tdn_graph_instance_create_retargeted, and that character's asset and skeleton, which the
 * instance's output poses are of. NULL for a document without "retarget" (or NULL). Owned by the
 * document, as above. */
TDN_API const tdn_retarget *tdn_graph_document_retarget(const tdn_graph_document *document);
TDN_API const tdn_asset *tdn_graph_document_target_asset(const tdn_graph_document *document);
TDN_API const tdn_skeleton *tdn_graph_document_target_skeleton(const tdn_graph_document *document);

#ifdef __cplusplus
}
#endif
#endif
