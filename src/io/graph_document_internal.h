/* tendon io: what graph_document.c and the graph_*_json.c readers share while a graph document is read
 * (not installed). */
#ifndef TENDON_IO_GRAPH_DOCUMENT_INTERNAL_H
#define TENDON_IO_GRAPH_DOCUMENT_INTERNAL_H

#include "blend_space_file_internal.h"
#include "json_reader.h"
#include "tendon/io/graph_document.h"

#define TDN_IO_MAX_NODE_DEPTH 64

#define TDN_IO_MAX_CLIP_FILES 32

/* Motion-matching nodes a document may have, and database files it may load. */
#define TDN_IO_MAX_MM_NODES 16

/* A keyed clip a motion_match node plays, by the name the document calls it by: the
 * character's or a clip file's, or in a document from a pack made from the pack's clip (then
 * `owned`, which the document destroys). */
typedef struct tdn_io__mm_clip {
    char *name;
    const tdn_keyed_clip *clip;
    tdn_keyed_clip *owned;
} tdn_io__mm_clip;

struct tdn_graph_document {
    tdn_allocator allocator;
    tdn_asset *asset;             /* NULL for a document from a pack */
    const tdn_skeleton *skeleton; /* the asset's, or the pack's */
    /* a document from a pack (tdn_graph_document_load_pack): the pack, which owns the clips */
    const tdn_pack *pack;
    tdn_clip **clips;
    char **clip_names;
    int clip_count;
    tdn_blend_space_file **spaces;
    int space_count;
    tdn_graph *graph;
    /* a document from a pack's graph definition: what built `graph` (which it owns) */
    tdn_packed_graph *packed;
    /* a document from JSON without motion matching: its graph's definition
     * (tdn_graph_definition_save_memory), which tdn_pack_writer_add_graph_document stores */
    void *definition;
    size_t definition_size;
    /* its "root_motion" (has_root_motion 0: none), and from a pack the root tracks built over
     * the pack's frames that the graph uses (per clip; NULL entries: the graph built its own) */
    int has_root_motion;
    tdn_root_track_desc root_motion;
    tdn_root_track **root_tracks;
    /* other files clips come from, each loaded once (the character's own is `asset`), at the
     * character's scale */
    tdn_asset *sources[TDN_IO_MAX_CLIP_FILES];
    char source_paths[TDN_IO_MAX_CLIP_FILES][256];
    int source_count;
    float scale;
    /* motion-matching databases its nodes loaded, and the "database" string that named each */
    tdn_mm_database *databases[TDN_IO_MAX_MM_NODES];
    char database_paths[TDN_IO_MAX_MM_NODES][256];
    int database_count;
    /* the keyed clips its motion_match nodes play, each once */
    tdn_io__mm_clip *mm_clips;
    int mm_clip_count, mm_clip_capacity;
    /* "retarget": the character the graph drives and the retarget onto it (NULL: none) */
    tdn_asset *target;
    tdn_retarget *retarget;
    /* while it is loaded: how the files it names are read (options->file_access), then NULL */
    const tdn_file_access *file_access;
    /* how the clips it builds are stored (options->clip_storage and its threshold) */
    tdn_clip_storage clip_storage;
    int clip_caches; /* options->clip_caches */
    float error_threshold, shell_distance;
};

/* The document's clip and clip name tables, `count` of each, zeroed (clip_count becomes count:
 * the tables are freed by it, their entries by whoever filled them); nothing on failure. */
tdn_result tdn_io__graph_alloc_clips(tdn_graph_document *d, int count, tdn_error *err);
/* A document from graph `graph` of `pack`, which has a definition (graph_document_pack.c): the
 * graph tdn_packed_graph_create builds, with the options' callbacks and clip caches. */
tdn_result tdn_io__graph_load_definition(const tdn_pack *pack, int graph,
                                         const tdn_graph_document_load_options *options, tdn_graph_document **out,
                                         const tdn_allocator *allocator, tdn_error *err);

/* A character object at `path` ("character", "retarget.to"): tendon's generated humanoid or a
 * file relative to base_dir, into *out; *scale is the file's "scale" (0: none). */
tdn_result tdn_io__graph_read_character(const cJSON *c, const char *path, const char *base_dir, tdn_graph_document *d,
                                        tdn_asset **out, float *scale, tdn_error *err);
/* The document's "retarget" (graph_retarget_json.c), when it has one: the character it names
 * loaded into d->target and the retarget from the document's character onto it. */
tdn_result tdn_io__graph_read_retarget(const cJSON *doc, const char *base_dir, tdn_graph_document *d, tdn_error *err);

/* Builds the runtime clip the nodes call `name` (graph_clips_json.c): the document's
 * definition in "clips" (a source clip, maybe from another file, maybe made additive) or the
 * character's clip of that name. `use_path` is where a node first named it. */
tdn_result tdn_io__graph_build_clip(const cJSON *doc, tdn_graph_document *d, const char *base_dir, const char *name,
                                    const char *use_path, tdn_clip **out, tdn_error *err);
/* Checks every definition in the document's "clips", whether or not a node plays it (a typo in
 * an unused one is still a typo): an array of objects with known keys, a unique `name`, a
 * `source` (or the name) that the character or the definition's `file` has, and an additive
 * reference clip that exists; errors name the JSON path and the nearest name. */
tdn_result tdn_io__graph_check_clip_definitions(const cJSON *doc, tdn_graph_document *d, const char *base_dir,
                                                tdn_error *err);
/* The keyed source clip `name` stands for, found the same way (not owned: the character's or a
 * clip file's); a definition that makes it additive is an error at `use_path`. */
tdn_result tdn_io__graph_keyed_clip(const cJSON *doc, tdn_graph_document *d, const char *base_dir, const char *name,
                                    const char *use_path, const tdn_keyed_clip **out, tdn_error *err);

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
    const tdn_skeleton *skeleton; /* the character's */
    const tdn_allocator *allocator;
    tdn_graph_document *document; /* for clip files motion-matching nodes load */
    const char *base_dir;
    /* nodes */
    tdn_node_desc *nodes;
    tdn_io__path *node_paths;
    int node_count, node_capacity;
    int *inputs; /* pools the node descs point into; never reallocated */
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
    /* state machines: their descriptions and what they point to */
    tdn_state_machine_desc *machines;
    int machine_count, machine_capacity;
    tdn_state_desc *states;
    int state_count, state_capacity;
    tdn_transition_desc *transitions;
    int transition_count, transition_capacity;
    tdn_condition_desc *conditions;
    int condition_count, condition_capacity;
    /* the C callbacks procedural nodes and callback modifiers may name */
    const tdn_graph_callback *callbacks;
    int callback_count;
    /* modifiers' joints and weights (pools the node descs point into) */
    int *mod_joints;
    float *mod_weights;
    int mod_joint_count, mod_joint_capacity;
    /* motion-matching nodes: their controller descriptions and clip lists (malloc'ed), the
     * databases they loaded (owned until the document takes them) and the mirror table */
    tdn_mm_controller_desc mm[TDN_IO_MAX_MM_NODES];
    const tdn_keyed_clip **mm_clips[TDN_IO_MAX_MM_NODES];
    int mm_count;
    tdn_mm_database *databases[TDN_IO_MAX_MM_NODES];
    char database_paths[TDN_IO_MAX_MM_NODES][256];
    int database_count;
    int *mm_mirror;
} tdn_io__graph_build;

/* Allocates the build's pools and finds the named nodes (graph_nodes_json.c). */
tdn_result tdn_io__graph_begin(tdn_io__graph_build *build, tdn_error *err);
/* Takes `count` slots of `size` bytes at `slots`, the next of a pool whose count is *used:
 * zeroes them (the pools are not zeroed when allocated) and adds count to *used. */
void *tdn_io__graph_take(void *slots, size_t size, int *used, int count);
/* Reads a node (an object, or a string naming an entry of "nodes") at `path` into
 * build->nodes; *index is its node index. */
tdn_result tdn_io__graph_read_node(tdn_io__graph_build *build, const cJSON *json, const char *path, int depth,
                                   int *index, tdn_error *err);
/* The error for a parameter name the document does not declare, with a did-you-mean hint;
 * tdn_io__graph_has_param says whether it does. */
int tdn_io__graph_has_param(const tdn_io__graph_build *build, const char *name);
tdn_result tdn_io__graph_no_param(const tdn_io__graph_build *build, const char *name, const char *where,
                                  tdn_error *err);
/* A procedural node's or a modifier's fields (graph_modifiers_json.c); a modifier's input is
 * read by the caller. */
tdn_result tdn_io__graph_read_procedural(tdn_io__graph_build *build, int self, const cJSON *json, const char *path,
                                         tdn_error *err);
tdn_result tdn_io__graph_read_modifier(tdn_io__graph_build *build, int self, const cJSON *json, const char *path,
                                       tdn_error *err);
/* A motion-matching node's fields (graph_motion_match_json.c). */
tdn_result tdn_io__graph_read_motion_match(tdn_io__graph_build *build, int self, const cJSON *json, const char *path,
                                           tdn_error *err);
/* Frees the document's motion_match clips (their names and the keyed clips it owns). */
void tdn_io__graph_free_mm_clips(tdn_graph_document *document);
/* The name a pack gives the database a motion_match node's "database" names: the path's file
 * name (after its last '/' or '\\'). */
const char *tdn_io__graph_database_name(const char *path);
/* The pack's clip a document from a pack calls `name`, which must animate the document's
 * skeleton, and its index among the pack's clips (`index` may be NULL); an error at `use_path`
 * otherwise (graph_document.c). */
tdn_result tdn_io__graph_pack_clip(const tdn_graph_document *document, const char *name, const char *use_path,
                                   const tdn_clip **out, int *index, tdn_error *err);
/* A state machine node's fields (graph_machines_json.c). */
tdn_result tdn_io__graph_read_state_machine(tdn_io__graph_build *build, int self, const cJSON *json, const char *path,
                                            int depth, tdn_error *err);
/* A document's layers (or its one "root"), their masks, and its root motion
 * (graph_layers_json.c). */
typedef struct tdn_io__layers {
    tdn_layer_desc layers[TDN_MAX_LAYERS];
    int count; /* 0: the document has one "root" */
    int root;
    float *masks; /* malloc'ed: a pose stride per layer */
    tdn_root_track_desc root_motion;
    int has_root_motion, extract;
} tdn_io__layers;
tdn_result tdn_io__graph_read_layers(tdn_io__graph_build *build, const tdn_skeleton *skeleton, tdn_io__layers *out,
                                     tdn_error *err);
tdn_result tdn_io__graph_read_root_motion(const cJSON *doc, const tdn_skeleton *skeleton, tdn_io__layers *out,
                                          tdn_error *err);

/* A document's IK stage (graph_ik_json.c): the jobs' descriptions and what they point to. */
typedef struct tdn_io__ik_job {
    tdn_graph_ik_desc desc;
    tdn_foot_placement_desc feet;
    const char *contacts[TDN_FOOT_MAX_LEGS];
    tdn_ik_limit limits[TDN_MAX_IK_CHAIN];
    float joint_weights[TDN_MAX_IK_CHAIN], max_angles[TDN_MAX_IK_CHAIN];
} tdn_io__ik_job;
typedef struct tdn_io__ik {
    tdn_io__ik_job jobs[TDN_MAX_GRAPH_IK];
    tdn_graph_ik_desc descs[TDN_MAX_GRAPH_IK];
    int count;
} tdn_io__ik;
tdn_result tdn_io__graph_read_ik(tdn_io__graph_build *build, const tdn_skeleton *skeleton, tdn_io__ik *out,
                                 tdn_error *err);

/* The joint a string item names (its path `where`), or -1 after failing with a did-you-mean
 * hint (graph_layers_json.c). */
int tdn_io__graph_joint(const tdn_skeleton *skeleton, const cJSON *item, const char *where, tdn_error *err,
                        tdn_result *r);

/* "a", "b", "c" for a message: a NULL-terminated list of choices joined with ", ". */
void tdn_io__choices(char *out, size_t size, const char *const *choices);
/* The index of `name` among NULL-terminated `choices`, or -1 after failing with a message that
 * lists them and hints at the nearest. */
int tdn_io__choose(const char *name, const char *const *choices, const char *where, const char *what, tdn_error *err,
                   tdn_result *r);

#endif
