/* tendon io: glTF 2.0 export of baked motion (libtendon_io).
 *
 * Writes a skeleton and clips baked at a fixed frame rate (one local pose per frame) as a
 * glTF 2.0 file that viewers (Blender, three.js, ...) play and tendon reads back:
 *   nodes       one per joint, in skeleton order (node i is joint i), named as the joints,
 *               children as the hierarchy, TRS = the rest pose (defaults omitted); the scene
 *               holds the skeleton's root(s);
 *   animations  one per clip. Per joint and property (translation, rotation, scale) a
 *               channel only where the property moves in that clip; a property that stays
 *               constant but differs from the rest pose gets one key at t = 0; constant
 *               properties equal to the rest are dropped. LINEAR samplers; one time accessor
 *               per clip (frame f at f / frame_rate seconds) shared by its channels, with
 *               min/max; rotations normalized and made sign-continuous (a quaternion whose dot
 *               with the previous frame's is negative is negated) so LINEAR slerp takes the
 *               short way. A clip that moves nothing keeps its duration with the first
 *               joint's translation over every frame. "Constant" is exact: every frame's
 *               float bits equal (after the sign rule), so nothing is rounded away.
 *   skin        always: one skin over every joint with the skeleton's inverse binds (with a
 *               single root, that root as its "skeleton"), so that importers such as Blender
 *               build an armature even for a file without meshes (where the validator notes
 *               the skin as unused: an info, not a warning);
 *   meshes      when `source` has skinned meshes (tdn_asset_mesh_count > 0) of a skeleton
 *               with the same joints (count and names, in order): per source mesh one glTF mesh (one
 *               primitive: POSITION with min/max, NORMAL when present, JOINTS_0/_1 as
 *               unsigned short, WEIGHTS_0/_1 as float: a vertex's weights as they are, or
 *               divided by their sum when it is not 1 within what the validator allows, 2e-7
 *               per non-zero weight added as float32; and its triangles as TRIANGLES with
 *               indices, unsigned short below 65535 vertices, else unsigned int) on its own
 *               root node beside the skeleton's root(s). A mesh without triangles
 *               (index_count 0: a source point or line primitive) is written as POINTS. The
 *               generated humanoid (humanoid.h) has such a mesh, so its baked motion opens in
 *               a viewer as a skinned character.
 * The file is valid per the Khronos glTF validator: 4-byte aligned accessors and chunks, GLB
 * chunks padded (JSON with spaces, BIN with zeros), a byteStride nowhere (every vertex
 * attribute has its own buffer view), ARRAY_BUFFER targets on vertex attribute views only,
 * asset.generator "tendon <version>". Numbers are written as the double value of each float,
 * which cJSON prints with up to 17 significant digits, so every float reads back exactly.
 *
 * Failure (nothing is allocated afterwards, *data is NULL): TDN_ERR_ARGUMENT, naming the
 * place in err->where ("desc.skeleton", "clips[1] (walk).frames[12].joint 3 (pelvis)"), for a
 * NULL desc or skeleton, clips missing with clip_count > 0, a frame count < 1, a frame rate
 * that is not finite and > 0, a pose of the wrong joint count or NULL data, a non-finite value
 * or a zero quaternion in a pose, a source whose skeleton differs, an unknown `binary` value
 * or (binary = -1) a path ending neither in .glb nor .gltf; TDN_ERR_INVALID_DATA for a source
 * mesh naming a joint out of range, a triangle index at or beyond its vertex count, an index
 * count that is not a multiple of 3, or too large for the format (4 GiB); TDN_ERR_IO (with the
 * system's reason) when the file cannot be written, in which case what was at `path` is as it
 * was; TDN_ERR_OUT_OF_MEMORY. Thread-safe: the inputs are only read. */
#ifndef TENDON_IO_GLTF_SAVE_H
#define TENDON_IO_GLTF_SAVE_H

#include "../base.h"
#include "../pose.h"
#include "../skeleton.h"
#include "asset.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One clip baked at a fixed rate: frame f is the local pose at f / frame_rate seconds, so the
 * clip lasts (frame_count - 1) / frame_rate seconds. */
typedef struct tdn_baked_clip {
    const char *name;       /* NULL or "": "animation_<i>" (i = index in the clips array) */
    int frame_count;        /* >= 1 */
    float frame_rate;       /* frames per second, finite and > 0 */
    const tdn_pose *frames; /* frame_count local poses of the skeleton's joint count */
} tdn_baked_clip;

/* Output container: by the path's extension (.glb or .gltf, any case; memory export: GLB),
 * binary GLB, or JSON .gltf with the buffer embedded as a base64 data URI. */
typedef enum tdn_gltf_container {
    TDN_GLTF_BY_EXTENSION = -1,
    TDN_GLTF_JSON = 0,
    TDN_GLTF_BINARY = 1
} tdn_gltf_container;

typedef struct tdn_gltf_save_desc {
    const tdn_skeleton *skeleton; /* required: nodes, names, hierarchy, rest pose as node TRS */
    const tdn_baked_clip *clips;  /* clip_count of them (may be NULL when clip_count is 0) */
    int clip_count;
    const tdn_asset *source; /* optional: its skinned meshes and a skin are written too */
    int binary;              /* a tdn_gltf_container: 1 .glb, 0 .gltf, -1 by extension */
} tdn_gltf_save_desc;

/* Writes the file at `path`: a new file beside it, renamed over it only once complete, so that
 * a file there stays until then (a symbolic link stays a link to the replaced file); a device
 * such as /dev/null is written as it is. See the top of this file. */
TDN_API tdn_result tdn_gltf_save(const tdn_gltf_save_desc *desc, const char *path, tdn_error *err);
/* The same file's bytes into *data (*size bytes, allocated through `allocator`, NULL: malloc;
 * release them with tdn_free(*data, *size, allocator)). binary = -1 gives GLB. */
TDN_API tdn_result tdn_gltf_save_memory(const tdn_gltf_save_desc *desc, void **data, size_t *size,
                                        const tdn_allocator *allocator, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
