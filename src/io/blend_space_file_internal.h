/* tendon io: a blend space from a cJSON node, for blend_space_file.c and the graph loader
 * (not installed). */
#ifndef TENDON_IO_BLEND_SPACE_FILE_INTERNAL_H
#define TENDON_IO_BLEND_SPACE_FILE_INTERNAL_H

#include <cjson/cJSON.h>

#include "tendon/io/blend_space_file.h"

/* Builds a blend space from `node`, an object {"mode": ..., "samples": [{"clip", "at"}, ...]}
 * (other keys are ignored). `path` is node's JSON path ("blend_space", "nodes[3]"; "" for a
 * document's root) and prefixes every `where` of a failure, as "nodes[3].samples[1].at[0]".
 * `allocator` (NULL: malloc) is checked by the caller (tdn_io__check_allocator). On failure *out
 * is NULL and nothing stays allocated. */
tdn_result tdn_io__blend_space_from_json(const cJSON *node, const char *path, const tdn_allocator *allocator,
                                         tdn_blend_space_file **out, tdn_error *err);

#endif
