/* tendon core: the runtime pack's layout and its section readers (not installed). The format
 * is docs/pack-format.md; the numbers here are its tables'. */
#ifndef TENDON_PACK_INTERNAL_H
#define TENDON_PACK_INTERNAL_H

#include "internal.h"
#include "clip_internal.h"
#include "skeleton_internal.h"
#include "tendon/pack.h"

#define TDN__PACK_MAGIC "TDNPACK" /* and its terminating zero: 8 bytes */
#define TDN__PACK_ENDIAN_TAG 0x01020304u
#define TDN__PACK_HEADER_BYTES 64
#define TDN__PACK_ENTRY_BYTES 32 /* one section table entry */
#define TDN__PACK_MIN_ALIGN 16   /* every section and array */
#define TDN__PACK_MAX_ALIGN 4096 /* a section's alignment */
#define TDN__PACK_MAX_SECTIONS (1 << 20)

#define TDN__PACK_STRINGS TDN_PACK_FOURCC('S', 'T', 'R', 'S')
#define TDN__PACK_SKELETON TDN_PACK_FOURCC('S', 'K', 'E', 'L')
#define TDN__PACK_MESH TDN_PACK_FOURCC('M', 'E', 'S', 'H')
#define TDN__PACK_CLIP TDN_PACK_FOURCC('C', 'L', 'I', 'P')
#define TDN__PACK_GRAPH TDN_PACK_FOURCC('G', 'R', 'P', 'H')
#define TDN__PACK_ROOT TDN_PACK_FOURCC('R', 'O', 'O', 'T')
#define TDN__PACK_DATABASE TDN_PACK_FOURCC('M', 'M', 'D', 'B')
#define TDN__PACK_DEFINITION TDN_PACK_FOURCC('G', 'D', 'E', 'F')

/* A section's header is 64 bytes of little-endian u32 fields, the last ones reserved (zero);
 * a clip's, which has more arrays, is 128 bytes. */
#define TDN__PACK_SECTION_HEADER_BYTES 64
#define TDN__PACK_CLIP_HEADER_BYTES 128
static inline size_t tdn__pack_header_bytes(uint32_t kind)
{
    return kind == TDN__PACK_CLIP ? TDN__PACK_CLIP_HEADER_BYTES : TDN__PACK_SECTION_HEADER_BYTES;
}
enum {
    /* skeleton section: fields by index (byte = 4 * index) */
    TDN__SKEL_NAME,
    TDN__SKEL_JOINT_COUNT,
    TDN__SKEL_PARENTS,
    TDN__SKEL_SUBTREE_END,
    TDN__SKEL_DEPTH,
    TDN__SKEL_BY_NAME,
    TDN__SKEL_NAMES,
    TDN__SKEL_REST,
    TDN__SKEL_INVERSE_BIND,
    TDN__SKEL_FIELDS
};
enum {
    /* mesh section */
    TDN__MESH_NAME,
    TDN__MESH_SKELETON,
    TDN__MESH_VERTEX_COUNT,
    TDN__MESH_INDEX_COUNT,
    TDN__MESH_INFLUENCE_SETS,
    TDN__MESH_POSITIONS,
    TDN__MESH_NORMALS,
    TDN__MESH_UVS,
    TDN__MESH_JOINTS,
    TDN__MESH_WEIGHTS,
    TDN__MESH_INDICES,
    TDN__MESH_FIELDS
};
enum {
    /* graph section */
    TDN__GRPH_NAME,
    TDN__GRPH_SKELETON,
    TDN__GRPH_JSON_SIZE,
    TDN__GRPH_JSON,
    TDN__GRPH_FIELDS
};
enum {
    /* root track section */
    TDN__ROOT_CLIP,
    TDN__ROOT_JOINT,
    TDN__ROOT_FRAME_COUNT,
    TDN__ROOT_FRAMES,
    TDN__ROOT_FIELDS
};
enum {
    /* motion-matching database section */
    TDN__MMDB_NAME,
    TDN__MMDB_SKELETON,
    TDN__MMDB_SIZE,
    TDN__MMDB_IMAGE,
    TDN__MMDB_FIELDS
};
enum {
    /* graph definition section */
    TDN__GDEF_GRAPH,
    TDN__GDEF_CLIP_COUNT,
    TDN__GDEF_CLIPS,
    TDN__GDEF_SIZE,
    TDN__GDEF_IMAGE,
    TDN__GDEF_FIELDS
};
enum {
    /* clip section (a 128-byte header) */
    TDN__CLIP_NAME,
    TDN__CLIP_SKELETON,
    TDN__CLIP_FRAME_COUNT,
    TDN__CLIP_JOINT_COUNT,
    TDN__CLIP_DURATION,
    TDN__CLIP_SAMPLE_RATE,
    TDN__CLIP_ADDITIVE,
    TDN__CLIP_ANIMATED_COUNT,
    TDN__CLIP_HOLD_RUN_COUNT,
    TDN__CLIP_HOLD_RUNS,
    TDN__CLIP_FRAMES,
    TDN__CLIP_CONSTANT_POSE,
    TDN__CLIP_GROUP_COUNT,
    TDN__CLIP_GROUPS,
    TDN__CLIP_SEGMENT_COUNT,
    TDN__CLIP_SEGMENT_RECORD_BYTES,
    TDN__CLIP_RECORDS,
    TDN__CLIP_WORD_COUNT,
    TDN__CLIP_WORDS,
    TDN__CLIP_FLOAT_TRACK_COUNT,
    TDN__CLIP_FLOAT_TRACKS,
    TDN__CLIP_EVENT_COUNT,
    TDN__CLIP_EVENT_NAMES,
    TDN__CLIP_EVENT_TIMES,
    TDN__CLIP_FIELDS
};
/* A clip's float track table: 32 bytes per track, u32 fields, the last three reserved. */
#define TDN__PACK_FLOAT_TRACK_BYTES 32
enum {
    TDN__TRACK_NAME,
    TDN__TRACK_INTERP,
    TDN__TRACK_KEY_COUNT,
    TDN__TRACK_TIMES,
    TDN__TRACK_VALUES,
    TDN__TRACK_FIELDS
};

static inline uint32_t tdn__pack_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t tdn__pack_u64(const unsigned char *p)
{
    return (uint64_t)tdn__pack_u32(p) | (uint64_t)tdn__pack_u32(p + 4) << 32;
}
static inline void tdn__pack_put_u32(unsigned char *p, uint32_t v)
{
    for (int b = 0; b < 4; b++)
        p[b] = (unsigned char)(v >> (8 * b));
}

/* One section as the table gives it, checked to lie in the file. */
typedef struct tdn__pack_section {
    uint32_t kind;
    size_t offset, size;
} tdn__pack_section;

/* The image while it is checked: its bytes, its sections and the string table, with the error
 * to fill. */
typedef struct tdn__pack_view {
    const unsigned char *bytes;
    size_t size;
    size_t table; /* the section table's offset; its entries are checked before any reader runs */
    int section_count;
    const char *strings; /* the 'STRS' section, or NULL */
    size_t strings_size;
    tdn_error *err;
} tdn__pack_view;

/* TDN_ERR_INVALID_DATA at `byte` of the image ("byte 1184"), with the message. */
tdn_result tdn__pack_fail(const tdn__pack_view *v, size_t byte, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Section s as its (checked) table entry gives it. */
static inline tdn__pack_section tdn__pack_section_at(const tdn__pack_view *v, int s)
{
    const unsigned char *e = v->bytes + v->table + (size_t)s * TDN__PACK_ENTRY_BYTES;
    tdn__pack_section sec = { tdn__pack_u32(e), (size_t)tdn__pack_u64(e + 8), (size_t)tdn__pack_u64(e + 16) };
    return sec;
}
/* Field `field` (an index of the section's header) of section s. */
static inline uint32_t tdn__pack_field(const tdn__pack_view *v, int s, int field)
{
    return tdn__pack_u32(v->bytes + tdn__pack_section_at(v, s).offset + 4 * (size_t)field);
}
/* The same field read as an f32. */
static inline float tdn__pack_field_float(const tdn__pack_view *v, int s, int field)
{
    float x;
    memcpy(&x, v->bytes + tdn__pack_section_at(v, s).offset + 4 * (size_t)field, 4);
    return x;
}
/* How far from 1 a stored unit quaternion's squared length may be. */
#define TDN__PACK_UNIT_TOLERANCE 1e-4f
/* Checks that the section holds its header, that the header's reserved fields [first, end) are
 * zero and that field `name_field` (-1: none) is a name (tdn__pack_name); `what` names the
 * object ("skeleton 0"). */
tdn_result tdn__pack_check_header(const tdn__pack_view *v, int s, int first, int name_field, const char *what);
/* The array at header field `field` of section s: `count` elements of `elem` bytes at a
 * multiple of `align` inside the section, checked before any product is formed. NULL after
 * failing (naming `what` and `array`). */
const void *tdn__pack_array(const tdn__pack_view *v, int s, int field, size_t count, size_t elem, size_t align,
                            const char *what, const char *array);
/* The same for an offset that is not in the section's header: `offset` read from file byte `at`. */
const void *tdn__pack_array_at(const tdn__pack_view *v, int s, size_t at, size_t offset, size_t count, size_t elem,
                               size_t align, const char *what, const char *array);
/* Header field `field` of section s, the index of a section of `kind` (`name` names the field
 * and the kind: "skeleton"); -1 after failing ("clip 3: skeleton 9 is not the index of a
 * skeleton section"). */
int tdn__pack_section_ref(const tdn__pack_view *v, int s, int field, uint32_t kind, const char *name, const char *what);
/* The name at header field `field` of section s: a NUL-terminated string of the string table.
 * NULL after failing. */
const char *tdn__pack_name(const tdn__pack_view *v, int s, int field, const char *what);
/* The same for a string offset read from file byte `at`. */
const char *tdn__pack_string(const tdn__pack_view *v, size_t at, size_t offset, const char *what);
/* The index of the first of `count` floats at p that is not finite, or -1 when all are. */
long tdn__pack_first_nonfinite(const float *p, size_t count);

/* A reader of one section kind: `check` validates section s (every offset, count and value;
 * `index` is the section's index among its kind's, for messages), `build` fills that section's
 * object (object_bytes, zeroed) from the checked bytes, `object_of_section` giving each
 * section's index among its kind's (for an object that refers to another: a mesh to its
 * skeleton). An object that needs memory of a size the section decides (a clip's tables of
 * pointers) says how much with `extra_bytes` (NULL: none) and gets it, zeroed and aligned to
 * 16, as `extra`. Readers check kind by kind in the order of pack_open.c's table, so a kind may
 * rely on those before it being checked. */
typedef struct tdn__pack_reader {
    uint32_t kind;
    size_t object_bytes;
    size_t object_align;
    tdn_result (*check)(const tdn__pack_view *v, int s, int index);
    size_t (*extra_bytes)(const tdn__pack_view *v, int s);
    void (*build)(const tdn__pack_view *v, int s, void *object, void *extra, const int *object_of_section);
} tdn__pack_reader;

/* The section readers (pack_skeleton.c, pack_mesh.c, pack_clip.c, pack_graph.c, pack_root.c,
 * pack_database.c, pack_definition.c). */
extern const tdn__pack_reader tdn__pack_skeleton_reader;
extern const tdn__pack_reader tdn__pack_mesh_reader;
extern const tdn__pack_reader tdn__pack_clip_reader;
extern const tdn__pack_reader tdn__pack_graph_reader;
extern const tdn__pack_reader tdn__pack_root_reader;
extern const tdn__pack_reader tdn__pack_database_reader;
extern const tdn__pack_reader tdn__pack_definition_reader;

/* A pack's skeleton object: the skeleton over the pack's bytes, and its name. */
typedef struct tdn__pack_skeleton {
    struct tdn_skeleton skeleton;
    const char *name;
} tdn__pack_skeleton;

/* A pack's clip object: the clip over the pack's bytes, its skeleton's index among the pack's
 * skeletons, and its annotations (whose pointer tables are the object's extra memory). */
typedef struct tdn__pack_clip {
    struct tdn_clip clip;
    int skeleton;
    tdn__annotations annotations;
} tdn__pack_clip;

/* A pack's graph object: its name, its skeleton's index among the pack's skeletons, and its
 * JSON text (zero-terminated in the pack's bytes). */
typedef struct tdn__pack_graph {
    const char *name;
    int skeleton;
    const char *json;
    size_t size;
} tdn__pack_graph;

/* A pack's root track object: its clip's index among the pack's clips, the joint, and the
 * frames (tdn__root_track_frames) in the pack's bytes. */
typedef struct tdn__pack_root {
    int clip, joint, frame_count;
    int section; /* its section's index (the first of a clip's joint in the file is used) */
    const float *frames;
} tdn__pack_root;
/* A pack's database object: its name, its skeleton's index among the pack's skeletons, and
 * its image (what tdn_mm_database_load_memory reads) in the pack's bytes. */
typedef struct tdn__pack_database {
    const char *name;
    int skeleton;
    const unsigned char *image;
    size_t size;
} tdn__pack_database;

/* A pack's graph definition object: its graph's index among the pack's graphs, the pack clip
 * index of each clip it plays, and its image (graph_definition.h) in the pack's bytes, at
 * image_byte of the file. */
typedef struct tdn__pack_definition {
    int graph;
    int clip_count;
    const int *clips;
    const unsigned char *image;
    size_t size, image_byte;
} tdn__pack_definition;

/* Graph `graph`'s definition in an opened pack, or NULL. */
const tdn__pack_definition *tdn__pack_definition_of(const tdn_pack *pack, int graph);

/* Writing (pack_writer.c): a section's bytes, laid out at offset 0 of `out` (zeroed, at least
 * the size the first function gives), its names already in the string table at the offsets
 * given. */
size_t tdn__pack_skeleton_size(int joint_count);
void tdn__pack_skeleton_write(const tdn_skeleton *skeleton, uint32_t name, unsigned char *out);
size_t tdn__pack_mesh_size(const tdn_pack_mesh *mesh);
void tdn__pack_mesh_write(const tdn_pack_mesh *mesh, uint32_t name, uint32_t skeleton_section, unsigned char *out);
/* A clip's section: `strings` holds the string offsets of its name, then its float tracks'
 * names, then its events' names (tdn__pack_clip_string_count of them). */
int tdn__pack_clip_string_count(const tdn_clip *clip);
size_t tdn__pack_clip_size(const tdn_clip *clip);
void tdn__pack_clip_write(const tdn_clip *clip, const uint32_t *strings, uint32_t skeleton_section, unsigned char *out);
/* A graph's section: its header, then the JSON text and a zero byte. */
size_t tdn__pack_graph_size(size_t json_size);
void tdn__pack_graph_write(uint32_t name, uint32_t skeleton_section, const char *json, size_t json_size,
                           unsigned char *out);
/* A root track's section: its header, then the frame_count frames. */
size_t tdn__pack_root_size(int frame_count);
void tdn__pack_root_write(uint32_t clip_section, int joint, int frame_count, const float *frames, unsigned char *out);
/* The first of frame_count root track frames that is not finite or whose rotation is not of
 * unit length (within tdn_pack_open's tolerance), or -1: what tdn_pack_open refuses. */
long tdn__pack_root_bad_frame(const float *frames, int frame_count);

/* A definition's section: its header, the clip_count clip section indices, then its image. */
size_t tdn__pack_definition_size(int clip_count, size_t image_size);
void tdn__pack_definition_write(uint32_t graph_section, int clip_count, const uint32_t *clip_sections,
                                const void *image, size_t image_size, unsigned char *out);

/* A database's section: its header, then its image (tdn_mm_database_save_memory, image_size
 * bytes). */
size_t tdn__pack_database_size(size_t image_size);
void tdn__pack_database_write(uint32_t name, uint32_t skeleton_section, const tdn_mm_database *db, size_t image_size,
                              unsigned char *out);
/* Which of a database's joints (root, left foot, right foot; -1 for none) does not fit the
 * skeleton whose section bytes (checked) are at `skeleton_section`: 0, 1 or 2 for a joint not
 * below its joint count or a root joint (0) with a parent; -1 when they all fit. */
int tdn__pack_database_joint_misfit(const unsigned char *skeleton_section, const int joints[3]);

#endif
