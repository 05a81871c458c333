/* tendon io: what graph_document.c and graph_nodes.c share while a graph document is read
 * (not installed). */
#ifndef TENDON_IO_GRAPH_DOCUMENT_INTERNAL_H
#define TENDON_IO_GRAPH_DOCUMENT_INTERNAL_H

#include "blend_space_json.h"
#include "json_util.h"
#include "tendon/graph_io.h"

#define TDN_IO_MAX_NODE_DEPTH 64

/* A named node's state while the tree is read: unread, being read (a reference to it now is a
 * cycle), or read into node `index`. */
typedef struct tdn_io__named_node {
    const cJSON *json;
    int state; /* 0 unread, 1 reading, 2 read */
    int index;
} tdn_io__named_node;

/* Everything gathered from the document before the graph is built; arrays are malloc'ed and
 * freed once the graph exists. */
typedef struct tdn_io__graph_build {
    const cJSON *doc;
    const tdn_asset *asset;
    const tdn_allocator *allocator;
    /* nodes */
    tdn_node_desc *nodes;
    tdn_io__path *node_paths;
    int node_count, node_capacity;
    int *inputs;                   /* pools the node descs point into; never reallocated */
    int input_count, input_capacity;
    tdn_node_value *values;
    int value_count, value_capacity;
    const char **axes;
    int axis_count, axis_capacity;
    tdn_io__named_node *named;
    int named_count;
    /* blend spaces read from nodes (owned until the document takes them) */
    tdn_blend_space_file **spaces;
    int space_count, space_capacity;
    /* clips the nodes use, in order of first use: the name in the document's "clips" list (or
     * the asset's clip name) and where the first use was */
    const char **clip_names;
    tdn_io__path *clip_paths;
    int clip_count, clip_capacity;
    int uses_mirror;
} tdn_io__graph_build;

/* Reads the "root" node tree (and the named nodes it reaches) into build->nodes; sets *root. */
tdn_result tdn_io__graph_read_nodes(tdn_io__graph_build *build, int *root, tdn_error *err);

#endif
