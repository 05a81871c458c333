/* tendon io: blend spaces from JSON (libtendon_io).
 *
 * The blend-space part of tendon's JSON graph format, alone in a file:
 *
 *     {"blend_space": {"mode": "gradient_band",
 *                      "samples": [{"clip": "idle", "at": [0, 0]},
 *                                  {"clip": "walk_forward", "at": [0, 1.5]}, ...]}}
 *
 * `mode` is one of "linear", "gradient_band", "polar_gradient_band", "barycentric", "grid",
 * "rbf" (see blend_space.h); each sample names the clip it stands for and its point. Every
 * sample's `at` has the same number of coordinates: 1 for linear, 2 for polar_gradient_band,
 * barycentric and grid, 1 to TDN_MAX_BLEND_SPACE_DIMENSIONS for gradient_band and rbf. At most
 * TDN_MAX_BLEND_SPACE_SAMPLES samples. Keys tendon does not know are ignored (a graph node
 * carries more than these two), as is a byte-order mark before the JSON.
 *
 * Failure: TDN_ERR_IO when the file cannot be read; TDN_ERR_PARSE for bad JSON (`where`: "byte
 * N (line L, column C)"), a wrong type or a missing field; TDN_ERR_INVALID_DATA for an unknown
 * mode (the message lists the valid ones), `at` lengths that differ or do not fit the mode, a
 * coordinate larger than TDN_BLEND_SPACE_MAX_COORDINATE either way, no sample or too many, an
 * empty clip name, and what tdn_blend_space_create refuses (two samples at one point, an
 * incomplete grid...), its `where` ("samples[3]") prefixed with the JSON path. `where` names the
 * JSON path, for example "blend_space.samples[2].at[1]", after the file's path for
 * tdn_blend_space_file_load ("run.json: blend_space.samples[2].at[1]"). On failure *out is NULL
 * and nothing stays allocated.
 *
 * Memory: the result (the space, the clip names) is allocated through `allocator` (NULL or
 * zeroed: malloc); the JSON tree that exists while parsing is cJSON's (malloc). The result is
 * immutable: any number of threads may read it at once. */
#ifndef TENDON_IO_BLEND_SPACE_FILE_H
#define TENDON_IO_BLEND_SPACE_FILE_H

#include <stddef.h>

#include "../base.h"
#include "../blend_space.h"
#include "file_access.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A blend space with the clip name of each of its samples. */
typedef struct tdn_blend_space_file tdn_blend_space_file;

/* Zero-initialisable. */
typedef struct tdn_blend_space_file_load_options {
    /* How the file is read (file_access.h). NULL: from the file system (tdn_file_read). */
    const tdn_file_access *file_access;
} tdn_blend_space_file_load_options;

/* Reads a file holding {"blend_space": {...}} (`options` may be NULL). Its bytes are read into
 * memory from `allocator` too while it loads. */
TDN_API tdn_result tdn_blend_space_file_load(const char *path, const tdn_blend_space_file_load_options *options,
                                             tdn_blend_space_file **out, const tdn_allocator *allocator,
                                             tdn_error *err);
/* The same from JSON text of `size` bytes (it need not be zero-terminated). */
TDN_API tdn_result tdn_blend_space_file_load_memory(const char *json, size_t size, tdn_blend_space_file **out,
                                                    const tdn_allocator *allocator, tdn_error *err);
/* Frees everything the file holds, the space included; NULL is ignored. */
TDN_API void tdn_blend_space_file_destroy(tdn_blend_space_file *f);
/* The blend space, owned by f (sample i of the space is samples[i] of the JSON). */
TDN_API const tdn_blend_space *tdn_blend_space_file_space(const tdn_blend_space_file *f);
/* The clip name of a sample, owned by f; NULL when sample is out of range. */
TDN_API const char *tdn_blend_space_file_clip_name(const tdn_blend_space_file *f, int sample);

#ifdef __cplusplus
}
#endif
#endif
