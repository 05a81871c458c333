/* tendon core: a graph definition (tdn_graph_desc) as bytes, the form a runtime pack stores a
 * graph in (graph_definition.c; the layout is docs/pack-format.md's). Not installed. */
#ifndef TENDON_GRAPH_DEFINITION_INTERNAL_H
#define TENDON_GRAPH_DEFINITION_INTERNAL_H

#include "internal.h"
#include "tendon/graph.h"

/* A definition read back: `desc` with everything but its skeleton, clips, root tracks and clip
 * caches (the caller's to bind: desc.clip_count says how many clips it plays), the callback
 * name each node was saved with (per node; NULL: none) and the blend spaces its nodes use,
 * which it owns. Pointers lie in `memory` and in the image, which must outlive it. */
typedef struct tdn__graph_definition {
    tdn_graph_desc desc;
    const char **callback_names;
    tdn_blend_space **spaces;
    int space_count;
    tdn_allocator allocator;
    void *memory;
    size_t memory_bytes;
} tdn__graph_definition;

/* Reads the `size` bytes at `image` (aligned to 4), checking every offset, count and value
 * before it is used; `image_byte` is where the image starts in the file (errors name the
 * file's byte: "byte 2048") and `skeleton` the one the graph animates (joint counts and chains
 * are checked against it). On failure nothing stays allocated. */
tdn_result tdn__graph_definition_read(const void *image, size_t size, size_t image_byte, const tdn_skeleton *skeleton,
                                      tdn__graph_definition *out, const tdn_allocator *allocator, tdn_error *err);
/* Checks an image's magic, version and size for its header, and gives the clip count it
 * says (errors name the file's byte as above). */
tdn_result tdn__graph_definition_header(const void *image, size_t size, size_t image_byte, uint32_t *clip_count,
                                        tdn_error *err);
void tdn__graph_definition_free(tdn__graph_definition *definition);

#endif
