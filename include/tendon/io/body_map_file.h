/* tendon io: body map files, JSON documents that override the body maps tendon finds
 * (libtendon_io). docs/retarget.md ("Overriding the map") is the reference and
 * docs/body-map.schema.json its JSON Schema; in short:
 *
 *     {"tendon_body_map": 1,
 *      "source": {"spine": ["Spine", "Spine1"], "neck": ["Spine2", "Neck"], "left_toes": null},
 *      "target": {"left_thigh": "thigh_l", "left_thumb": ["thumb_01_l", "thumb_02_l"]}}
 *
 * "source" and "target" (one or both) are the maps of the two characters of a retarget. Each
 * is an object whose keys are part names as tdn_body_part_name gives them ("hips",
 * "left_upper_arm") and whose values are a joint name for the single-joint parts, an array of 1
 * to TDN_BODY_MAP_MAX_CHAIN joint names, root-most first, each the child of the one before, for
 * the chains (spine, neck and the ten fingers), or null to leave the part out (not the hips nor
 * a leg's thigh, shin or foot, which every map needs). Parts the document does not name keep
 * what the map had. "$schema" is allowed at the top, for editors.
 *
 * Loading checks the document's shape; applying a side to a skeleton's map checks its joint
 * names against the skeleton. Failures of loading: TDN_ERR_IO when the file cannot be read;
 * TDN_ERR_PARSE for bad JSON (`where` "byte N (line L, column C)"), a key that appears twice,
 * a missing or malformed "tendon_body_map" version, an unknown key or part name (with the
 * nearest part name as a hint, also for words in another order: "thigh_left"), a side that is
 * no object, a part of the wrong JSON type, an empty name or chain; TDN_ERR_UNSUPPORTED for a
 * version above 1; TDN_ERR_INVALID_DATA for a chain longer than TDN_BODY_MAP_MAX_CHAIN, null
 * for a required part, or a document with neither side. `where` is the JSON path
 * ("target.left_thigh", "source.spine[2]"), after the file's path for tdn_body_map_file_load
 * ("map.json: target.left_thigh"). On failure *out is NULL and nothing stays allocated.
 *
 * Memory: the document (its joint names) is one block from `allocator` (NULL or zeroed:
 * malloc); the JSON tree that exists while loading is cJSON's (malloc). The document is
 * immutable: any number of threads may read and apply it at once. */
#ifndef TENDON_IO_BODY_MAP_FILE_H
#define TENDON_IO_BODY_MAP_FILE_H

#include <stddef.h>

#include "../base.h"
#include "../body_map.h"
#include "../skeleton.h"
#include "file_access.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A loaded body map document: its "source" and "target" overrides, by joint name. */
typedef struct tdn_body_map_file tdn_body_map_file;

/* Which of the document's two maps. */
typedef enum tdn_body_map_file_side {
    TDN_BODY_MAP_FILE_SIDE_SOURCE, /* "source": the character the motion comes from */
    TDN_BODY_MAP_FILE_SIDE_TARGET  /* "target": the character it is played on */
} tdn_body_map_file_side;

/* Zero-initialisable. */
typedef struct tdn_body_map_file_load_options {
    /* How the file is read (file_access.h). NULL: from the file system (tdn_file_read). */
    const tdn_file_access *file_access;
} tdn_body_map_file_load_options;

/* Reads a body map document file (`options` may be NULL). Its bytes are read into memory from
 * `allocator` too while it loads; the path is kept, to name the file in apply's errors. */
TDN_API tdn_result tdn_body_map_file_load(const char *path, const tdn_body_map_file_load_options *options,
                                          tdn_body_map_file **out, const tdn_allocator *allocator, tdn_error *err);
/* The same from JSON text of `size` bytes (it need not be zero-terminated). */
TDN_API tdn_result tdn_body_map_file_load_memory(const char *json, size_t size, tdn_body_map_file **out,
                                                 const tdn_allocator *allocator, tdn_error *err);
/* Frees the document; NULL is ignored. */
TDN_API void tdn_body_map_file_destroy(tdn_body_map_file *file);

/* 1 when the document gives `side` ("source" or "target"), else 0 (also for NULL or a value
 * outside the enum). */
TDN_API int tdn_body_map_file_has_side(const tdn_body_map_file *file, tdn_body_map_file_side side);

/* Overrides the parts of *map (a map of `skeleton`, as tdn_body_map_find gives it) that the
 * document's `side` names: each gets the joints named, or none for null, with evidence
 * TDN_BODY_MAP_EVIDENCE_CALLER; the other parts stay as they are. Notes the change makes wrong
 * go (a joint now mapped, a part no longer missing). A map whose joint_count is 0 (a zeroed
 * one, or what a failed tdn_body_map_find leaves) starts empty: the document must then give the
 * hips and both legs' thigh, shin and foot. A side the document does not give leaves the map as
 * it is. The result passes tdn_body_map_check; on any failure *map is left as it was.
 * TDN_ERR_ARGUMENT for NULL (`where` "file", "skeleton", "map"), a side outside the enum
 * ("side") or a map of another joint count ("map.joint_count"); TDN_ERR_INVALID_DATA, `where`
 * the JSON path after the file's path when it was loaded from one ("map.json:
 * target.spine[1]"), for a joint the skeleton does not have (with the nearest joint name as a
 * hint), a joint in two parts (the document's, or one it names and one it keeps), a chain whose
 * joint is not the child of the one before it, and a required part an empty map does not get;
 * the errors of tdn_body_map_check for a map that was broken before, `where` after "map: ".
 * Never allocates; thread-safe (reads the document and the skeleton, writes only *map). */
TDN_API tdn_result tdn_body_map_file_apply(const tdn_body_map_file *file, tdn_body_map_file_side side,
                                           const tdn_skeleton *skeleton, tdn_body_map *map, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
