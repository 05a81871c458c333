/* tendon: runtime packs, the file a shipped game loads (docs/pack-format.md).
 *
 * A pack is one little-endian, position-independent binary image holding skeletons, compressed
 * clips, skinned meshes, graph documents with their definitions (their nodes, machines, blend
 * spaces, layers and IK: packed_graph.h) and motion-matching databases: every reference is an
 * offset, every array aligned, so that opening a pack is validating it and pointing into its
 * bytes. tdn_pack_open checks every offset, count and value of the whole image first, then makes
 * one allocation holding the objects' headers, which point into the caller's bytes: nothing is
 * computed or copied. The caller keeps the bytes alive, unchanged and at the same address for as
 * long as the pack lives. libtendon_io reads and writes pack files (io/pack_file.h).
 *
 * A pack is immutable once opened and may be read by any number of threads; so are the
 * skeletons, clips and meshes it hands out. A writer belongs to one thread at a time. */
#ifndef TENDON_PACK_H
#define TENDON_PACK_H

#include "base.h"
#include "clip.h"
#include "root_motion.h"
#include "mm_database.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the format this tendon reads and writes. */
#define TDN_PACK_VERSION 1
/* The alignment tdn_pack_open requires of the bytes' address (TDN_POSE_ALIGN). */
#define TDN_PACK_ALIGN 32
/* A section's kind: four characters, the first in the lowest byte ('SKEL' is
 * TDN_PACK_FOURCC('S', 'K', 'E', 'L')). */
#define TDN_PACK_FOURCC(a, b, c, d) \
  ((uint32_t)(uint8_t)(a) | (uint32_t)(uint8_t)(b) << 8 | (uint32_t)(uint8_t)(c) << 16 | (uint32_t)(uint8_t)(d) << 24)

typedef struct tdn_pack tdn_pack;

/* A skinned mesh of a pack, laid out as tdn_skin_job takes it (skin.h), as tdn_asset_mesh is
 * (io/asset.h). The pointers lead into the pack's bytes. Also the description
 * tdn_pack_writer_add_mesh takes. */
typedef struct tdn_pack_mesh {
    const char *name;        /* never NULL in an opened pack ("" allowed) */
    int skeleton;            /* index of the pack's skeleton it is skinned to */
    int vertex_count;        /* >= 1 */
    int influence_sets;      /* 1 or 2: 4 or 8 influences per vertex */
    const float *positions;  /* 3 per vertex */
    const float *normals;    /* 3 per vertex, or NULL */
    const float *uvs;        /* 2 per vertex, or NULL */
    const uint16_t *joints;  /* 4 * influence_sets per vertex, each < the skeleton's joint count */
    const float *weights;    /* 4 * influence_sets per vertex, finite and >= 0 */
    const uint32_t *indices; /* index_count, 3 per triangle, each < vertex_count; or NULL */
    int index_count;         /* a multiple of 3 */
} tdn_pack_mesh;

/* Opens the pack image of `size` bytes at `bytes`, which must be aligned to TDN_PACK_ALIGN (32)
 * and must outlive the pack unchanged. Validates the whole image before anything is built:
 * TDN_ERR_ARGUMENT for NULL or misaligned bytes ("bytes") or bad allocator hooks;
 * TDN_ERR_PARSE for what is not a pack of this version (magic, version, endianness, size);
 * TDN_ERR_INVALID_DATA for any offset, count, alignment or value out of its range. The error's
 * `where` is the byte offset of the faulty field ("byte 1184") and its message names the
 * object and the field ("skeleton 0: parents[12] = 40 is not before joint 12"). Sections of
 * kinds this version does not know are skipped, after checking that they lie in the file. On
 * success *out holds the pack: one allocation from `allocator` (NULL: malloc). On failure *out
 * is NULL and nothing is allocated. */
TDN_API tdn_result tdn_pack_open(const void *bytes, size_t size, tdn_pack **out, const tdn_allocator *allocator,
                                 tdn_error *err);
/* Frees the pack's headers (not the bytes, which are the caller's); NULL is ignored. */
TDN_API void tdn_pack_destroy(tdn_pack *pack);

/* Skeletons, in the order their sections come in the pack; owned by the pack (never destroy
 * them), NULL for a bad index. They work everywhere a created skeleton does. */
TDN_API int tdn_pack_skeleton_count(const tdn_pack *pack);
TDN_API const tdn_skeleton *tdn_pack_skeleton(const tdn_pack *pack, int i);
/* Skeleton i's name (NULL for a bad index), and the index of the first skeleton with this name
 * (-1 when none). */
TDN_API const char *tdn_pack_skeleton_name(const tdn_pack *pack, int i);
TDN_API int tdn_pack_find_skeleton(const tdn_pack *pack, const char *name);

/* Clips (COMPRESSED runtime clips), in the order their sections come; owned by the pack (never
 * destroy them), NULL for a bad index. They work everywhere a created clip does and sample
 * bit-identically to the clip they were written from; tdn_clip_memory_size is 0 for them (their
 * bytes are the pack's). */
TDN_API int tdn_pack_clip_count(const tdn_pack *pack);
TDN_API const tdn_clip *tdn_pack_clip(const tdn_pack *pack, int i);
/* Clip i's name (tdn_clip_name; NULL for a bad index), the index of the pack's skeleton it
 * animates (-1 for a bad index), and the index of the first clip with this name (-1 when none). */
TDN_API const char *tdn_pack_clip_name(const tdn_pack *pack, int i);
TDN_API int tdn_pack_clip_skeleton(const tdn_pack *pack, int i);
TDN_API int tdn_pack_find_clip(const tdn_pack *pack, const char *name);

/* Meshes, in the order their sections come; a zeroed struct for a bad index. */
TDN_API int tdn_pack_mesh_count(const tdn_pack *pack);
TDN_API tdn_pack_mesh tdn_pack_mesh_at(const tdn_pack *pack, int i);
/* Index of the first mesh with this name, or -1. */
TDN_API int tdn_pack_find_mesh(const tdn_pack *pack, const char *name);

/* Graph documents (their JSON text, which libtendon_io's tdn_graph_document_load_pack builds a
 * graph from, with the pack's skeleton and clips, when the graph has no definition:
 * packed_graph.h), in the order their sections come. The name
 * (NULL for a bad index), the index of the pack's skeleton of its character (-1 for a bad
 * index), the index of the first graph with this name (-1 when none), and the text: `*size`
 * (may be NULL) bytes, followed by a zero byte (NULL and 0 for a bad index). The core checks
 * where the text lies, not that it is JSON. */
TDN_API int tdn_pack_graph_count(const tdn_pack *pack);
TDN_API const char *tdn_pack_graph_name(const tdn_pack *pack, int i);
TDN_API int tdn_pack_graph_skeleton(const tdn_pack *pack, int i);
TDN_API const char *tdn_pack_graph_json(const tdn_pack *pack, int i, size_t *size);
TDN_API int tdn_pack_find_graph(const tdn_pack *pack, const char *name);

/* Root tracks (root_motion.h) whose frames the pack stores ('ROOT' sections: one clip's joint,
 * sampled when the pack was written), so that building one samples nothing. Whether the pack
 * stores clip `clip`'s joint `joint` (0 for a bad index); and the root track of clip `clip` for
 * `desc` (NULL: the defaults) built over the pack's bytes, which must outlive it: only its
 * header is allocated (from `allocator`, NULL: malloc; tdn_root_track_destroy frees it), and it
 * is bit-identical to tdn_root_track_create(tdn_pack_clip(pack, clip), desc, ...).
 * TDN_ERR_ARGUMENT for NULL pack or out, a bad clip index or what tdn_root_track_create refuses;
 * TDN_ERR_UNSUPPORTED when the pack stores no frames of that clip's desc->joint. */
TDN_API int tdn_pack_has_root_track(const tdn_pack *pack, int clip, int joint);
TDN_API tdn_result tdn_pack_root_track(const tdn_pack *pack, int clip, const tdn_root_track_desc *desc,
                                       tdn_root_track **out, const tdn_allocator *allocator, tdn_error *err);
/* Motion-matching databases, in the order their sections come: each a database's image
 * (tdn_mm_database_save_memory) that tdn_pack_open checked as tdn_mm_database_load_memory does,
 * and whose root and feet are joints of its skeleton (the root a root joint). The name (NULL
 * for a bad index; unique among the pack's databases: a graph's motion_match node finds its
 * database by it), the index of the pack's skeleton it was built on (-1 for a bad index), the
 * index of the database with this name (-1 when none), and the image: `*size` (may be NULL)
 * bytes (NULL and 0 for a bad index). */
TDN_API int tdn_pack_database_count(const tdn_pack *pack);
TDN_API const char *tdn_pack_database_name(const tdn_pack *pack, int i);
TDN_API int tdn_pack_database_skeleton(const tdn_pack *pack, int i);
TDN_API int tdn_pack_find_database(const tdn_pack *pack, const char *name);
TDN_API const void *tdn_pack_database_image(const tdn_pack *pack, int i, size_t *size);
/* Database i as a tdn_mm_database (tdn_mm_database_load_memory of its image: a copy, one
 * allocation from `allocator` (NULL: malloc), which the caller destroys with
 * tdn_mm_database_destroy; it may outlive the pack). A search needs its features in rows padded
 * for SIMD and bounding boxes the image does not hold, so a database is built, not pointed to.
 * TDN_ERR_ARGUMENT for a NULL pack or out, a bad index ("i") or bad allocator hooks,
 * TDN_ERR_OUT_OF_MEMORY when the allocator fails; the image itself was checked at open. On
 * failure *out is NULL. */
TDN_API tdn_result tdn_pack_database_load(const tdn_pack *pack, int i, tdn_mm_database **out,
                                          const tdn_allocator *allocator, tdn_error *err);

/* Every section of the pack, known kinds or not: its count, and section i's kind
 * (TDN_PACK_FOURCC; 0 for a bad index), its bytes (NULL for a bad index) and their size. */
TDN_API int tdn_pack_section_count(const tdn_pack *pack);
TDN_API uint32_t tdn_pack_section_kind(const tdn_pack *pack, int i);
TDN_API const void *tdn_pack_section_bytes(const tdn_pack *pack, int i, size_t *size);

/* Writing packs, in memory: a writer collects sections (copying what it is given), then
 * tdn_pack_writer_save_memory lays them out. */
typedef struct tdn_pack_writer tdn_pack_writer;

/* Makes an empty writer through `allocator` (NULL: malloc), which serves everything it holds. */
TDN_API tdn_result tdn_pack_writer_create(tdn_pack_writer **out, const tdn_allocator *allocator, tdn_error *err);
/* Frees the writer and its copies; NULL is ignored. */
TDN_API void tdn_pack_writer_destroy(tdn_pack_writer *writer);
/* Adds a skeleton section copying `skeleton` (its parents, names, rest transforms, inverse
 * binds and derived arrays) under `name` (NULL: ""). *index (may be NULL) receives its
 * skeleton index in the pack, what a mesh's `skeleton` names. */
TDN_API tdn_result tdn_pack_writer_add_skeleton(tdn_pack_writer *writer, const char *name, const tdn_skeleton *skeleton,
                                                int *index, tdn_error *err);
/* Adds a mesh section copying the arrays `mesh` points to; mesh->skeleton is an index
 * tdn_pack_writer_add_skeleton gave. Everything tdn_pack_open checks is checked here
 * (TDN_ERR_ARGUMENT naming the field, "mesh.joints[40]"), so a writer never makes a pack
 * that will not open. */
TDN_API tdn_result tdn_pack_writer_add_mesh(tdn_pack_writer *writer, const tdn_pack_mesh *mesh, tdn_error *err);
/* Adds a clip section copying `clip` (its name, tracks, float tracks and events), animating the
 * skeleton `skeleton` (an index tdn_pack_writer_add_skeleton gave, whose joint count must be the
 * clip's). Only COMPRESSED clips are packed: another storage is TDN_ERR_ARGUMENT ("clip").
 * *index (may be NULL) receives its clip index in the pack. */
TDN_API tdn_result tdn_pack_writer_add_clip(tdn_pack_writer *writer, const tdn_clip *clip, int skeleton, int *index,
                                            tdn_error *err);
/* The same under `name` (NULL: the clip's own name): a graph document's clip is packed under
 * the name the document calls it by. */
TDN_API tdn_result tdn_pack_writer_add_named_clip(tdn_pack_writer *writer, const char *name, const tdn_clip *clip,
                                                  int skeleton, int *index, tdn_error *err);
/* Adds a graph section: `size` bytes of a graph document's JSON text (copied; 1 to UINT32_MAX - 1
 * bytes, no zero byte among them) under `name` (NULL: ""), whose character is the skeleton
 * `skeleton` (an index tdn_pack_writer_add_skeleton gave). The text is not parsed here. *index
 * (may be NULL) receives its graph index in the pack (a definition of the graph,
 * tdn_pack_writer_add_graph_definition in packed_graph.h, names it by that). */
TDN_API tdn_result tdn_pack_writer_add_graph(tdn_pack_writer *writer, const char *name, int skeleton, const char *json,
                                             size_t size, int *index, tdn_error *err);
/* Adds a root track section: the frames tdn_root_track_create samples of joint `joint` of
 * `clip`, which must be the clip this writer added as clip index `index` (its joint count,
 * duration, sample rate and additive flag are checked against that section's; an additive clip
 * has no root track: TDN_ERR_ARGUMENT, "clip"). A frame tdn_pack_open would refuse (not finite,
 * a rotation not of unit length) is TDN_ERR_INVALID_DATA ("clip"). tdn_pack_root_track then
 * builds root tracks of that clip and joint without sampling it. */
TDN_API tdn_result tdn_pack_writer_add_root_track(tdn_pack_writer *writer, int index, const tdn_clip *clip, int joint,
                                                  tdn_error *err);
/* Adds a motion-matching database section: `db`'s image (tdn_mm_database_save_memory) under
 * `name` (not NULL, and not the name of a database added before: TDN_ERR_ARGUMENT, "name"),
 * built on the skeleton `skeleton` (an index tdn_pack_writer_add_skeleton gave), whose joint
 * count must hold the database's root and feet and whose root must be a root joint
 * (TDN_ERR_ARGUMENT, "db"). An image of 4 GiB or more is refused ("db"). */
TDN_API tdn_result tdn_pack_writer_add_database(tdn_pack_writer *writer, const char *name, int skeleton,
                                                const tdn_mm_database *db, tdn_error *err);
/* Adds a section of another kind as `size` bytes (copied), placed at a multiple of `align` (a
 * power of two; at least 16 is used). For kinds a later tendon reads: the kinds
 * above ('SKEL', 'CLIP', 'MESH', 'GRPH', 'ROOT', 'MMDB', 'GDEF', 'STRS') are refused (TDN_ERR_ARGUMENT, "kind"), as is
 * a zero kind. */
TDN_API tdn_result tdn_pack_writer_add_section(tdn_pack_writer *writer, uint32_t kind, const void *bytes, size_t size,
                                               size_t align, tdn_error *err);
/* The pack image of what was added, in memory from `allocator` (NULL: malloc) that the caller
 * releases with tdn_free(*data, *size, allocator); aligned to TDN_PACK_ALIGN, so that it opens
 * as it is. The writer stays usable. */
TDN_API tdn_result tdn_pack_writer_save_memory(const tdn_pack_writer *writer, void **data, size_t *size,
                                               const tdn_allocator *allocator, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
