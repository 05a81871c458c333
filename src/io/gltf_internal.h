/* tendon io: the glTF 2.0 importer's private interface (not installed).
 *
 * The import runs in four steps, one file each:
 *   gltf_document.c   the container (GLB or JSON text), the JSON tree (cJSON), the required
 *                     extensions, the top-level arrays, and typed JSON lookups with JSON paths;
 *   gltf_buffer.c     buffers (GLB BIN chunk, base64 data URIs, external files) and buffer views;
 *   gltf_accessor.c   accessors decoded to floats (every component type, normalization, byte
 *                     strides, sparse substitution), bounds-checked and cached;
 *   gltf_nodes.c      the node hierarchy, rest transforms and unique node names;
 *   gltf_skeleton.c   skins and the skeleton (the chosen skin's joints and their ancestors);
 *   gltf_animation.c  animations as keyed clips (joint tracks and morph-weight float tracks);
 *   gltf_mesh.c       primitives skinned by the chosen skin;
 *   gltf.c            tdn_io__gltf_load (tdn_asset_load's glTF half), which runs them.
 * Every failure is reported once, where it is found, through tdn_io__fail with a JSON path
 * ("animations[1].samplers[0].output") or a byte offset ("byte 1234") as `where`. */
#ifndef TENDON_IO_GLTF_INTERNAL_H
#define TENDON_IO_GLTF_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "asset_internal.h"
#include "file.h"

/* Accessor values (floats) one file may decode in all: this many, plus 4 per byte of its data
 * (the file and the buffers it loads). Real files stay far below (every value comes from at
 * least one byte); more is refused as absurd, so a small hostile file cannot make tendon
 * decode gigabytes of zeros (accessors without a buffer view). */
#define TDN_GLTF_BASE_VALUES ((uint64_t)1 << 22)
#define TDN_GLTF_VALUES_PER_BYTE 4
/* Morph targets one weights channel may animate. */
#define TDN_GLTF_MAX_MORPH_TARGETS 1024

/* A JSON path, for `where` (tdn_error's has room for the file's name before one). */
typedef char tdn_gltf__path[128];

/* One top-level array of the JSON (nodes, accessors, ...) with random access. */
typedef struct tdn_gltf__list {
    const cJSON **items;
    int count;
} tdn_gltf__list;

typedef struct tdn_gltf__buffer {
    const unsigned char *data; /* NULL until first used */
    unsigned char *owned;      /* decoded base64, freed at close */
    tdn_io__file file;         /* an external file's bytes, freed at close */
    char *name;                /* that file's path as its URI gives it, decoded; freed at close */
    uint64_t size;             /* the buffer's byteLength (the data holds at least that) */
} tdn_gltf__buffer;

typedef struct tdn_gltf__decoded {
    float *values; /* count * components floats, NULL until first read */
    int count;
    int components;
    unsigned format; /* TDN_GLTF_FLOAT ... as stored */
} tdn_gltf__decoded;

typedef struct tdn_gltf__doc {
    tdn_error *err;
    cJSON *json;
    const unsigned char *bin; /* the GLB BIN chunk, or NULL */
    uint64_t bin_size;
    const char *base_dir;           /* for external buffers; NULL: none allowed */
    const tdn_file_access *access;  /* how they are read (NULL: the default reader) */
    const tdn_allocator *allocator; /* what their bytes come from (NULL: malloc) */
    int quantized;                  /* KHR_mesh_quantization is used: more mesh attribute types */

    tdn_gltf__list nodes, accessors, buffer_views, buffers, meshes, skins, animations;
    tdn_gltf__buffer *buffer_data; /* buffers.count */
    tdn_gltf__decoded *decoded;    /* accessors.count */
    uint64_t values_left;          /* see TDN_GLTF_BASE_VALUES */
} tdn_gltf__doc;

/* ---- gltf_document.c ---- */

/* Reads the container and the JSON into doc (zeroed here); external buffers will be read from
 * base_dir with the access and allocator given (each may be NULL). On failure doc is closed. */
tdn_result tdn_gltf__open(tdn_gltf__doc *doc, const unsigned char *data, size_t size, const char *base_dir,
                          const tdn_file_access *access, const tdn_allocator *allocator, tdn_error *err);
void tdn_gltf__close(tdn_gltf__doc *doc);
/* Frees every decoded accessor (a step that has copied what it needs calls it, so the values
 * of clips and meshes are not all held at once); they are decoded again if read again. */
void tdn_gltf__drop_values(tdn_gltf__doc *doc);

/* Fails with `code` at `where`; the message is printf-formatted. */
tdn_result tdn_gltf__fail(const tdn_gltf__doc *doc, tdn_result code, const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Adds a warning line to the asset; TDN_ERR_OUT_OF_MEMORY (reported) when it cannot. */
tdn_result tdn_gltf__warn(const tdn_gltf__doc *doc, tdn_asset *asset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* where = path + "." + key (just key when path is empty), cut to fit; where and path must not
 * overlap. */
void tdn_gltf__join(tdn_gltf__path where, const char *path, const char *key);
/* where = path + "." + key + "[index]" (index >= 0), the same way. */
void tdn_gltf__item(tdn_gltf__path where, const char *path, const char *key, int index);

/* Typed lookups of obj[key]; `path` is obj's JSON path. A missing key leaves the output at
 * its "absent" value (given below) and succeeds, unless the lookup says it is required.
 * Wrong JSON types fail with TDN_ERR_PARSE, values out of range with TDN_ERR_INVALID_DATA. */
/* An index into an array of `count` items; absent: -1. */
tdn_result tdn_gltf__index(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, int count, const char *path,
                           int *out);
tdn_result tdn_gltf__required_index(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, int count,
                                    const char *path, int *out);
/* An integer in [min, max]; absent: *out unchanged. */
tdn_result tdn_gltf__integer(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, uint64_t min, uint64_t max,
                             const char *path, uint64_t *out);
tdn_result tdn_gltf__required_integer(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, uint64_t min,
                                      uint64_t max, const char *path, uint64_t *out);
/* Exactly n finite numbers (as floats); absent: out unchanged; *present (may be NULL) says. */
tdn_result tdn_gltf__floats(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, int n, const char *path,
                            float *out, int *present);
/* A string; absent: NULL. */
tdn_result tdn_gltf__string(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, const char *path,
                            const char **out);
/* An array / an object; absent: NULL. */
tdn_result tdn_gltf__array(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, const char *path,
                           const cJSON **out);
tdn_result tdn_gltf__object(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, const char *path,
                            const cJSON **out);

/* ---- gltf_buffer.c ---- */

/* A buffer view's bytes: its buffer's data from the view's byteOffset, `size` bytes long (its
 * byteLength), and its byteStride (0 when absent). `use` names the reference, for errors. */
typedef struct tdn_gltf__view {
    const unsigned char *data;
    uint64_t size;
    uint64_t stride;
} tdn_gltf__view;

tdn_result tdn_gltf__buffer_view(tdn_gltf__doc *doc, int index, tdn_gltf__view *out);

/* ---- gltf_accessor.c ---- */

/* The storage formats a use accepts: component type with or without normalization. */
enum {
    TDN_GLTF_FLOAT = 1 << 0,
    TDN_GLTF_BYTE_NORM = 1 << 1,
    TDN_GLTF_UBYTE_NORM = 1 << 2,
    TDN_GLTF_SHORT_NORM = 1 << 3,
    TDN_GLTF_USHORT_NORM = 1 << 4,
    TDN_GLTF_BYTE = 1 << 5,
    TDN_GLTF_UBYTE = 1 << 6,
    TDN_GLTF_SHORT = 1 << 7,
    TDN_GLTF_USHORT = 1 << 8,
    TDN_GLTF_UINT = 1 << 9 /* decoded exactly up to 2^24; larger values round (indices
                            * are checked against vertex counts kept at or below 2^24) */
};

/* Accessor `index` as floats (normalized integers converted as the spec says, plain integers
 * as their value), checked to have `components` components per element (1, 3, 4 or 16 for
 * MAT4) in one of `formats`, and every value finite. `use` is the JSON path that refers to it
 * (errors about the reference are reported there, errors inside the accessor at
 * "accessors[i]"). The values stay owned by doc (decoded once, shared by every use). */
tdn_result tdn_gltf__read_accessor(tdn_gltf__doc *doc, int index, const char *use, int components, unsigned formats,
                                   const float **values, int *count);

/* ---- gltf_nodes.c ---- */

typedef struct tdn_gltf__node {
    int parent;     /* node index, or -1 */
    int mesh, skin; /* indices, or -1 */
    int has_matrix;
    int joint;          /* skeleton index, or -1 when outside the skeleton */
    tdn_transform rest; /* lengths already multiplied by the import scale */
    char name[TDN_MAX_JOINT_NAME];
} tdn_gltf__node;

typedef struct tdn_gltf__scene {
    float scale;
    int node_count;
    tdn_gltf__node *nodes;
    int skin; /* the chosen skin, or -1 when the file has none */
    int skin_joint_count;
    int *skin_joints; /* skeleton index of each joint of the chosen skin, in its order */
} tdn_gltf__scene;

/* Reads every node: hierarchy (a child with two parents or a cycle is an error), rest
 * transforms (matrices decomposed), and unique names (see gltf_nodes.c). */
tdn_result tdn_gltf__read_nodes(tdn_gltf__doc *doc, tdn_gltf__scene *scene, tdn_asset *asset);
void tdn_gltf__free_scene(tdn_gltf__scene *scene);

/* ---- gltf_skeleton.c ---- */

/* Lists the skins in the asset, picks one by `skin` (name or decimal index; NULL: the first)
 * and builds the asset's skeleton and listed joints; sets each node's `joint`. */
tdn_result tdn_gltf__build_skeleton(tdn_gltf__doc *doc, tdn_gltf__scene *scene, tdn_asset *asset, const char *skin);

/* ---- gltf_animation.c ---- */

tdn_result tdn_gltf__build_clips(tdn_gltf__doc *doc, const tdn_gltf__scene *scene, tdn_asset *asset);

/* ---- gltf_mesh.c ---- */

tdn_result tdn_gltf__build_meshes(tdn_gltf__doc *doc, const tdn_gltf__scene *scene, tdn_asset *asset);

#endif
