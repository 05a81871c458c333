/* tendon io: importing characters and motion (libtendon_io).
 *
 * An asset is what one file gives: a skeleton, its keyed clips (the source's exact semantics),
 * and for glTF the skins and skinned meshes. Loading is the only place tendon reads files; the
 * result is immutable and can be shared by any number of threads.
 *
 * Joints. The asset's skeleton holds every node model space depends on, in tendon's
 * parent-before-child order. For glTF that is the chosen skin's joints and their ancestor
 * nodes (whose transforms, animated or not, are part of model space, which is the scene's
 * world space); for a glTF file with no skin, every node; for BVH, every joint (End Sites are
 * not joints). The *listed* joints are the skin's joints (BVH: all joints), in skeleton order:
 * tdn_asset_joint maps a listed joint to its skeleton index, and mesh joint indices are
 * skeleton indices, so a palette from tdn_palette over the whole skeleton skins the meshes.
 *
 * Naming: unnamed glTF nodes, skins, meshes and animations are "node_<i>", "skin_<i>",
 * "mesh_<i>", "animation_<i>" (i = index in the file's array); a BVH file's clip is named
 * after the file (without folder and extension).
 *
 * Failure: TDN_ERR_IO when the file cannot be read, TDN_ERR_PARSE for malformed syntax or
 * structure (a truncated GLB, bad JSON, a BVH missing a brace), TDN_ERR_INVALID_DATA for
 * inconsistent content (an index out of range, a cycle, NaN); the error's `where` names the
 * file (the path given, or options->name), then the place: a JSON path such as
 * "hero.gltf: animations[0].channels[3]", a byte offset ("hero.glb: byte 1500000"), or
 * "walk.bvh: line 12"; for an external buffer, the buffer and its file ("hero.gltf: buffers[0]
 * (hero.bin): cannot open: ..."). TDN_ERR_UNSUPPORTED for a required glTF extension tendon does not
 * know, TDN_ERR_ARGUMENT for bad arguments (such as a skin that does not exist). On failure
 * *out is NULL and nothing stays allocated. Repairs (documented, not errors): non-unit
 * quaternions are renormalized (zero ones are errors); BVH motion with fewer complete frames
 * than declared keeps the complete ones and adds a warning. */
#ifndef TENDON_IO_ASSET_H
#define TENDON_IO_ASSET_H

#include "../base.h"
#include "../keyed_clip.h"
#include "../skeleton.h"
#include "file_access.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TDN_FORMAT_GENERATED: made by a generator rather than read from a file (tdn_humanoid_create,
 * humanoid.h). */
typedef enum tdn_asset_format {
    TDN_FORMAT_GLTF = 1,
    TDN_FORMAT_BVH = 2,
    TDN_FORMAT_GENERATED = 3,
    TDN_FORMAT_PACK = 4 /* a runtime pack (pack.h): a skeleton, its meshes, its clips keyed at their frames */
} tdn_asset_format;

/* Zero-initialisable. */
typedef struct tdn_asset_load_options {
    const char *skin; /* glTF: a skin's name or decimal index; NULL: the first skin */
    float scale;      /* every length is multiplied by it (0: 1), e.g. 0.01 for cm */
    /* tdn_asset_load_memory only: the folder external glTF buffers are read from (NULL:
     * external buffers are an error; tdn_asset_load reads them beside the file) */
    const char *base_dir;
    /* tdn_asset_load_memory only: the name of the bytes, used as the BVH clip's name and in
     * errors' `where` (NULL: "take" for a BVH clip; errors name no file) */
    const char *name;
    /* How the file and the files it names (external glTF buffers) are read, and which names
     * are allowed (file_access.h); NULL: from the file system, below the asset's folder. */
    const tdn_file_access *file_access;
} tdn_asset_load_options;

typedef struct tdn_asset tdn_asset;

/* Loads a .gltf, .glb or .bvh file or a runtime pack (pack.h), recognized by its content (the
 * GLB magic, "HIERARCHY", a JSON object or array, or the pack magic). From a pack
 * (TDN_FORMAT_PACK): the skeleton options->skin names (a name or an index; NULL: the first),
 * the meshes skinned to it, and its clips as keyed clips keyed at every frame of each packed
 * clip (one key where a track holds still), with their float tracks and events; additive clips
 * are left out with a warning, and a scale other than 1 is refused (a pack is in its own
 * units). `options` may be NULL. External glTF buffers are read relative to
 * the file's folder, as options->file_access allows (file_access.h). Everything the asset holds
 * is allocated through `allocator` (NULL: malloc), and the file's bytes while it is read. */
TDN_API tdn_result tdn_asset_load(const char *path, const tdn_asset_load_options *options, tdn_asset **out,
                                  const tdn_allocator *allocator, tdn_error *err);
/* The same from `size` bytes in memory, recognized by content as tdn_asset_load does (the GLB
 * magic or a JSON object or array is glTF, the pack magic a pack; other bytes are read as BVH, whose errors name the
 * line where they stop being one), with options->base_dir for external glTF buffers and options->name for
 * a BVH clip's name; with a name, errors' `where` starts with it ("walk.bvh: line 12"). */
TDN_API tdn_result tdn_asset_load_memory(const void *data, size_t size, const tdn_asset_load_options *options,
                                         tdn_asset **out, const tdn_allocator *allocator, tdn_error *err);
/* Frees the asset and everything it holds (its skeleton, clips and meshes); NULL is ignored. */
TDN_API void tdn_asset_destroy(tdn_asset *asset);

/* What the asset was read from, and its skeleton. The skeleton, the clips and the meshes below
 * are owned by the asset and live as long as it does; never destroy them. */
TDN_API tdn_asset_format tdn_asset_format_of(const tdn_asset *asset);
TDN_API const tdn_skeleton *tdn_asset_skeleton(const tdn_asset *asset);

/* Listed joints (see the top of this file). */
TDN_API int tdn_asset_joint_count(const tdn_asset *asset);
/* Skeleton index of listed joint i, or -1 for a bad index. */
TDN_API int tdn_asset_joint(const tdn_asset *asset, int i);
/* Listed index of listed joint i's nearest listed ancestor, or -1. */
TDN_API int tdn_asset_joint_parent(const tdn_asset *asset, int i);

/* The asset's clips, each animating tdn_asset_skeleton; NULL for a bad index. */
TDN_API int tdn_asset_clip_count(const tdn_asset *asset);
TDN_API const tdn_keyed_clip *tdn_asset_clip(const tdn_asset *asset, int i);
/* Index of the clip with this name, or a decimal index; -1 when there is none. */
TDN_API int tdn_asset_find_clip(const tdn_asset *asset, const char *name_or_index);
/* Animated channels of clip i (glTF: channels; BVH: channel columns of the MOTION section). */
TDN_API int tdn_asset_clip_channel_count(const tdn_asset *asset, int i);

/* Skins in the file (glTF; BVH has none), and which one the skeleton was built from (-1: none). */
TDN_API int tdn_asset_skin_count(const tdn_asset *asset);
TDN_API const char *tdn_asset_skin_name(const tdn_asset *asset, int i);
TDN_API int tdn_asset_skin_joint_count(const tdn_asset *asset, int i);
TDN_API int tdn_asset_chosen_skin(const tdn_asset *asset);

/* A mesh primitive skinned by the chosen skin. Arrays are vertex_count long (joints and
 * weights 4 per vertex per influence set, vertex after vertex, JOINTS_0's 4 then JOINTS_1's;
 * influence_sets is 1 or 2 for JOINTS_0/_1); joint indices are skeleton indices; normals may
 * be NULL. Weights are as stored (normalized integer types converted to float). Triangles:
 * index_count indices (3 per triangle, counter-clockwise seen from outside, each <
 * vertex_count), whatever the source's triangle mode (glTF TRIANGLES indexed or not,
 * TRIANGLE_STRIP, TRIANGLE_FAN); a point or line primitive has indices NULL and index_count 0
 * (its vertices are still there, skinned).
 *
 * The arrays are laid out as tdn_skin_job takes them (skin.h), so they go in as they are:
 *     tdn_skin_job job = { .vertex_count = mesh.vertex_count, .influences = 4 * mesh.influence_sets,
 *                          .positions = mesh.positions, .normals = mesh.normals,
 *                          .joints = mesh.joints, .weights = mesh.weights,
 *                          .palette = palette, .palette_count = joint_count, ... };
 * with palette the tdn_palette of tdn_asset_skeleton(asset) (joint_count =
 * tdn_skeleton_joint_count of it, which every joint index is below). */
typedef struct tdn_asset_mesh {
    const char *name;
    int vertex_count;
    int influence_sets;
    const float *positions;  /* 3 per vertex */
    const float *normals;    /* 3 per vertex, or NULL */
    const uint16_t *joints;  /* 4 * influence_sets per vertex */
    const float *weights;    /* 4 * influence_sets per vertex */
    const uint32_t *indices; /* index_count, 3 per triangle, or NULL */
    int index_count;
} tdn_asset_mesh;

/* Skinned meshes the asset holds (glTF only). */
TDN_API int tdn_asset_mesh_count(const tdn_asset *asset);
/* Mesh i, or a zeroed struct for a bad index. */
TDN_API tdn_asset_mesh tdn_asset_mesh_at(const tdn_asset *asset, int i);

/* Warnings of repairs made while loading (for example a BVH frame count), one line each. */
TDN_API int tdn_asset_warning_count(const tdn_asset *asset);
TDN_API const char *tdn_asset_warning(const tdn_asset *asset, int i);

#ifdef __cplusplus
}
#endif
#endif
