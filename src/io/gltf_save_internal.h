/* tendon io: tdn_gltf_save's private interface (not installed).
 *
 * A save runs in two steps, one file each:
 *   gltf_save.c           the public functions: checking the description, the container (GLB
 *                         or JSON with a base64 data URI) and writing the file;
 *   gltf_save_document.c  the document: the JSON tree (cJSON) and the one binary buffer it
 *                         refers to (nodes, skin, meshes, animations). */
#ifndef TENDON_IO_GLTF_SAVE_INTERNAL_H
#define TENDON_IO_GLTF_SAVE_INTERNAL_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "tendon/io/gltf_save.h"

typedef struct tdn_gltf_x__doc {
    cJSON *json;        /* the glTF document; buffers[0] has no uri yet */
    unsigned char *bin; /* the buffer's bytes (a multiple of 4 long), NULL when there is none */
    size_t bin_size;
} tdn_gltf_x__doc;

/* Builds the document of a description that passed the public functions' checks. Fails with
 * TDN_ERR_INVALID_DATA for a source mesh naming a joint out of range or with a bad triangle
 * list, TDN_ERR_OUT_OF_MEMORY.
 * On failure doc is empty. */
tdn_result tdn_gltf_x__build(const tdn_gltf_save_desc *desc, int with_meshes, tdn_gltf_x__doc *doc, tdn_error *err);
void tdn_gltf_x__free(tdn_gltf_x__doc *doc);

/* Frame f's time in seconds, as written (f / frame_rate rounded to float). */
float tdn_gltf_x__frame_time(const tdn_baked_clip *clip, int f);

#endif
