/* tendon io: the asset container the importers fill (not installed).
 *
 * Everything an asset holds is allocated through tdn_io__asset_alloc (zeroed, freed together
 * by tdn_asset_destroy), except the skeleton and keyed clips, which it destroys itself. An
 * importer builds into a new asset and destroys it on any failure, so no half-built asset
 * ever reaches the caller. */
#ifndef TENDON_IO_ASSET_INTERNAL_H
#define TENDON_IO_ASSET_INTERNAL_H

#include "fail.h" /* tdn_io__fail, for every io file */
#include "tendon/clip.h"
#include "tendon/io/asset.h"

typedef struct tdn_io__block tdn_io__block;

struct tdn_asset {
    tdn_asset_format format;
    tdn_allocator allocator;
    tdn_io__block *blocks; /* every allocation, freed at destroy */

    tdn_skeleton *skeleton;
    int joint_count;    /* listed joints */
    int *joints;        /* skeleton index of each listed joint */
    int *joint_parents; /* listed index of the nearest listed ancestor, or -1 */

    int clip_count;
    tdn_keyed_clip **clips;
    int *clip_channels;

    int skin_count;
    const char **skin_names;
    int *skin_joint_counts;
    int chosen_skin; /* -1: none */

    int mesh_count;
    tdn_asset_mesh *meshes;

    int warning_count;
    const char **warnings;
};

/* One allocation through the caller's hooks (zeroed hooks: aligned_alloc), 64-byte aligned,
 * and its release (NULL is ignored): for io objects other than assets. */
void *tdn_io__alloc(const tdn_allocator *a, size_t size);
void tdn_io__free(const tdn_allocator *a, void *p, size_t size);

/* A new empty asset allocating through `allocator` (NULL: malloc); NULL when out of memory. */
tdn_asset *tdn_io__asset_new(tdn_asset_format format, const tdn_allocator *allocator);
/* size zeroed bytes owned by the asset (aligned to 64), or NULL when out of memory. */
void *tdn_io__asset_alloc(tdn_asset *asset, size_t size);
/* A copy of s owned by the asset, or NULL when out of memory. */
char *tdn_io__asset_strdup(tdn_asset *asset, const char *s);
/* Adds a printf-formatted warning line; TDN_ERR_OUT_OF_MEMORY when it cannot. */
tdn_result tdn_io__asset_warn(tdn_asset *asset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Sets the listed joints: `listed` skeleton indices in skeleton order (count of them); the
 * parents are derived from the skeleton. */
tdn_result tdn_io__asset_set_listed_joints(tdn_asset *asset, const int *listed, int count);

/* The importers behind tdn_asset_load and tdn_asset_load_memory: glTF JSON or GLB bytes with
 * external buffers read from `base_dir` (NULL: they are an error), and BVH text whose clip is
 * named `clip_name` (NULL: "take"). */
tdn_result tdn_io__gltf_load(const void *data, size_t size, const char *base_dir, const tdn_asset_load_options *options,
                             tdn_asset **out, const tdn_allocator *allocator, tdn_error *err);
/* A runtime pack's bytes (any alignment; copied): its skeleton `options->skin` names (a name
 * or index; NULL: the first), the meshes on it and its clips keyed at their frames (asset_pack.c).
 * A scale other than 1 is refused: a pack is in the units it was packed in. */
tdn_result tdn_io__pack_asset_load(const void *data, size_t size, const tdn_asset_load_options *options,
                                   tdn_asset **out, const tdn_allocator *allocator, tdn_error *err);
/* A pack's clip as a keyed clip of `skeleton` named `name` (asset_pack.c): a translation,
 * rotation and scale track per joint (keyed at every frame of the packed clip where it moves,
 * once where it holds still), a linear float track per float track keyed at the frames, and its
 * events; made through `allocator` (the io allocation: NULL is malloc). */
tdn_result tdn_io__keyed_clip_from_packed(const tdn_clip *clip, const char *name, const tdn_skeleton *skeleton,
                                          const tdn_allocator *allocator, tdn_keyed_clip **out, tdn_error *err);
tdn_result tdn_io__bvh_load(const char *text, size_t size, const char *clip_name, const tdn_asset_load_options *options,
                            tdn_asset **out, const tdn_allocator *allocator, tdn_error *err);

/* The asset in the file `name` names, as a file in folder `dir` does (tdn_io__read_named, with
 * options->file_access; `whose` names the folder in messages): errors' `where` does not name
 * the file (the caller names it with the field that named it). */
tdn_result tdn_io__asset_load_named(const char *dir, const char *name, const char *whose,
                                    const tdn_asset_load_options *options, tdn_asset **out,
                                    const tdn_allocator *allocator, tdn_error *err);

/* Ranges an imported number stays in (docs/import.md): far beyond any real character, near
 * enough that model space, skinning and clip times stay finite in floats. Lengths are in the
 * file's units, before the import scale. */
#define TDN_IO_MAX_LENGTH 1e6f /* |translation|, |OFFSET|, |mesh position|, |inverse bind entry| */
#define TDN_IO_MAX_SCALE 1e6f  /* |scale| (0 is allowed: glTF hides a part so) */
#define TDN_IO_MAX_TIME 1e6f   /* seconds: key times, a take's length (11.6 days) */
#define TDN_IO_MAX_VALUE 1e6f  /* |morph weight|, |BVH rotation in degrees| */
#define TDN_IO_MIN_IMPORT_SCALE 1e-6f
#define TDN_IO_MAX_IMPORT_SCALE 1e6f

/* -limit <= v <= limit (false for NaN). */
static inline int tdn_io__within(float v, float limit) { return v >= -limit && v <= limit; }

/* The scale an importer applies: options->scale, or 1 when it is 0 or options is NULL; it must
 * lie in [TDN_IO_MIN_IMPORT_SCALE, TDN_IO_MAX_IMPORT_SCALE] (TDN_ERR_ARGUMENT otherwise). */
tdn_result tdn_io__import_scale(const tdn_asset_load_options *options, float *scale, tdn_error *err);

#endif
