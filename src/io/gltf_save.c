/* tendon io: saving glTF (tdn_gltf_save), the public functions. Checks the whole description
 * first (so a bad one fails before anything is built or written), builds the document
 * (gltf_save_document.c), wraps it as GLB or as JSON with the buffer in a base64 data URI, and
 * writes the file. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset_internal.h"
#include "gltf_save_internal.h"
#include "output_file.h"

#define GLB_MAGIC 0x46546C67u      /* "glTF" */
#define GLB_CHUNK_JSON 0x4E4F534Au /* "JSON" */
#define GLB_CHUNK_BIN 0x004E4942u  /* "BIN\0" */

/* ---- checking the description ---- */

/* "clips[i] (name)" into where. */
static void clip_where(char *where, size_t size, const tdn_baked_clip *clip, int i)
{
    snprintf(where, size, "clips[%d] (%s)", i, clip->name ? clip->name : "");
}

static tdn_result check_frame(const tdn_skeleton *skeleton, const tdn_baked_clip *clip, int c, int f, tdn_error *err)
{
    const tdn_pose *pose = &clip->frames[f];
    const int joints = tdn_skeleton_joint_count(skeleton);
    char where[TDN_MAX_JOINT_NAME * 2 + 96], clip_at[TDN_MAX_JOINT_NAME + 48];
    clip_where(clip_at, sizeof clip_at, clip, c);
    if (pose->joint_count != joints || !pose->data || pose->stride < pose->joint_count) {
        snprintf(where, sizeof where, "%s.frames[%d]", clip_at, f);
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, where,
                            "the pose has %d joints (stride %d%s) but the skeleton has %d", pose->joint_count,
                            pose->stride, pose->data ? "" : ", no data", joints);
    }
    for (int j = 0; j < joints; j++) {
        float v[TDN_POSE_ROWS];
        for (int row = 0; row < TDN_POSE_ROWS; row++)
            v[row] = tdn_pose_crow(pose, row)[j];
        const char *problem = NULL;
        for (int row = 0; row < TDN_POSE_ROWS && !problem; row++)
            if (!isfinite(v[row]))
                problem = row < TDN_RX ? "translation" : row < TDN_SX ? "rotation" : "scale";
        const double len2 = (double)v[TDN_RX] * v[TDN_RX] + (double)v[TDN_RY] * v[TDN_RY] +
                            (double)v[TDN_RZ] * v[TDN_RZ] + (double)v[TDN_RW] * v[TDN_RW];
        if (problem || !(len2 > 1e-12)) {
            snprintf(where, sizeof where, "%s.frames[%d].joint %d (%s)", clip_at, f, j,
                     tdn_skeleton_joint_name(skeleton, j));
            if (problem)
                return tdn_io__fail(err, TDN_ERR_ARGUMENT, where, "the %s is not finite", problem);
            return tdn_io__fail(err, TDN_ERR_ARGUMENT, where, "the rotation is a zero quaternion");
        }
    }
    return TDN_OK;
}

static tdn_result check_clip(const tdn_skeleton *skeleton, const tdn_baked_clip *clip, int c, tdn_error *err)
{
    char where[TDN_MAX_JOINT_NAME + 48];
    clip_where(where, sizeof where, clip, c);
    if (clip->frame_count < 1)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, where, "frame_count is %d; a clip needs at least 1 frame",
                            clip->frame_count);
    if (!isfinite(clip->frame_rate) || !(clip->frame_rate > 0.0f))
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, where, "frame_rate %g is not a finite number > 0",
                            (double)clip->frame_rate);
    if (!clip->frames)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, where, "frames is NULL");
    for (int f = 1; f < clip->frame_count; f++)
        if (!(tdn_gltf_x__frame_time(clip, f) > tdn_gltf_x__frame_time(clip, f - 1)) ||
            !isfinite(tdn_gltf_x__frame_time(clip, f)))
            return tdn_io__fail(err, TDN_ERR_ARGUMENT, where,
                                "frames %d and %d fall at the same float time at %g frames/s (or past float range)",
                                f - 1, f, (double)clip->frame_rate);
    for (int f = 0; f < clip->frame_count; f++) {
        tdn_result r = check_frame(skeleton, clip, c, f, err);
        if (r != TDN_OK)
            return r;
    }
    return TDN_OK;
}

/* 1 when the source has meshes to write; TDN_ERR_ARGUMENT when its skeleton has other joints. */
static tdn_result check_source(const tdn_gltf_save_desc *desc, int *with_meshes, tdn_error *err)
{
    *with_meshes = 0;
    if (!desc->source || tdn_asset_mesh_count(desc->source) == 0)
        return TDN_OK;
    const tdn_skeleton *theirs = tdn_asset_skeleton(desc->source), *ours = desc->skeleton;
    const int joints = tdn_skeleton_joint_count(ours);
    if (!theirs || tdn_skeleton_joint_count(theirs) != joints)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "desc.source",
                            "the source's skeleton has %d joints, desc.skeleton %d: its meshes skin another skeleton",
                            theirs ? tdn_skeleton_joint_count(theirs) : 0, joints);
    for (int j = 0; j < joints; j++)
        if (strcmp(tdn_skeleton_joint_name(theirs, j), tdn_skeleton_joint_name(ours, j)) != 0)
            return tdn_io__fail(err, TDN_ERR_ARGUMENT, "desc.source",
                                "joint %d is '%s' in the source's skeleton but '%s' in desc.skeleton", j,
                                tdn_skeleton_joint_name(theirs, j), tdn_skeleton_joint_name(ours, j));
    *with_meshes = 1;
    return TDN_OK;
}

static tdn_result check_desc(const tdn_gltf_save_desc *desc, int *with_meshes, tdn_error *err)
{
    if (!desc)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "desc", "desc is required");
    if (!desc->skeleton)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "desc.skeleton", "a skeleton is required");
    if (desc->clip_count < 0 || (desc->clip_count > 0 && !desc->clips))
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "desc.clips", "%d clips but clips is %s", desc->clip_count,
                            desc->clips ? "given" : "NULL");
    if (desc->binary < TDN_GLTF_BY_EXTENSION || desc->binary > TDN_GLTF_BINARY)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "desc.binary", "%d is not 1 (.glb), 0 (.gltf) or -1 (by extension)",
                            desc->binary);
    for (int c = 0; c < desc->clip_count; c++) {
        tdn_result r = check_clip(desc->skeleton, &desc->clips[c], c, err);
        if (r != TDN_OK)
            return r;
    }
    return check_source(desc, with_meshes, err);
}

/* ---- containers ---- */

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static tdn_result wrap_glb(const tdn_gltf_x__doc *doc, const char *json, const tdn_allocator *hooks, void **data,
                           size_t *size, tdn_error *err)
{
    const size_t json_size = strlen(json), json_padded = (json_size + 3) & ~(size_t)3;
    const size_t bin_padded = (doc->bin_size + 3) & ~(size_t)3;
    const size_t total = 12 + 8 + json_padded + (doc->bin_size ? 8 + bin_padded : 0);
    if (json_size > UINT32_MAX / 2 || doc->bin_size > UINT32_MAX / 2 || total > UINT32_MAX)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, "", "the GLB would be %zu bytes; the format holds 4 GiB", total);
    unsigned char *out = tdn_io__alloc(hooks, total);
    if (!out)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for %zu bytes of GLB", total);
    put_u32(out, GLB_MAGIC);
    put_u32(out + 4, 2);
    put_u32(out + 8, (uint32_t)total);
    put_u32(out + 12, (uint32_t)json_padded);
    put_u32(out + 16, GLB_CHUNK_JSON);
    memcpy(out + 20, json, json_size);
    memset(out + 20 + json_size, ' ', json_padded - json_size); /* the JSON chunk pads with spaces */
    if (doc->bin_size) {
        unsigned char *bin = out + 20 + json_padded;
        put_u32(bin, (uint32_t)bin_padded);
        put_u32(bin + 4, GLB_CHUNK_BIN);
        memcpy(bin + 8, doc->bin, doc->bin_size);
        memset(bin + 8 + doc->bin_size, 0, bin_padded - doc->bin_size); /* the BIN chunk with zeros */
    }
    *data = out;
    *size = total;
    return TDN_OK;
}

static char *base64_uri(const unsigned char *data, size_t size)
{
    static const char prefix[] = "data:application/octet-stream;base64,";
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(sizeof prefix + (size + 2) / 3 * 4);
    if (!out)
        return NULL;
    memcpy(out, prefix, sizeof prefix - 1);
    char *p = out + sizeof prefix - 1;
    for (size_t i = 0; i < size; i += 3) {
        const uint32_t v = (uint32_t)data[i] << 16 | (i + 1 < size ? (uint32_t)data[i + 1] << 8 : 0u) |
                           (i + 2 < size ? (uint32_t)data[i + 2] : 0u);
        *p++ = digits[v >> 18 & 63];
        *p++ = digits[v >> 12 & 63];
        *p++ = i + 1 < size ? digits[v >> 6 & 63] : '=';
        *p++ = i + 2 < size ? digits[v & 63] : '=';
    }
    *p = '\0';
    return out;
}

/* The file's bytes into *data, allocated through `hooks` (zeroed: malloc). */
static tdn_result export_memory(const tdn_gltf_save_desc *desc, int binary, const tdn_allocator *hooks, void **data,
                                size_t *size, tdn_error *err)
{
    int with_meshes = 0;
    tdn_result r = check_desc(desc, &with_meshes, err);
    if (r != TDN_OK)
        return r;
    tdn_gltf_x__doc doc;
    if ((r = tdn_gltf_x__build(desc, with_meshes, &doc, err)) != TDN_OK)
        return r;
    if (!binary && doc.bin_size) {
        cJSON *buffer = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc.json, "buffers"), 0);
        char *uri = base64_uri(doc.bin, doc.bin_size);
        cJSON *item = uri ? cJSON_CreateString(uri) : NULL;
        free(uri);
        if (!item || !cJSON_AddItemToObject(buffer, "uri", item)) {
            cJSON_Delete(item);
            tdn_gltf_x__free(&doc);
            return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for the base64 buffer");
        }
    }
    char *json = binary ? cJSON_PrintUnformatted(doc.json) : cJSON_Print(doc.json);
    if (!json) {
        tdn_gltf_x__free(&doc);
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for the glTF JSON text");
    }
    if (binary) {
        r = wrap_glb(&doc, json, hooks, data, size, err);
    } else {
        const size_t n = strlen(json);
        char *text = tdn_io__alloc(hooks, n + 1);
        if (text) {
            memcpy(text, json, n);
            text[n] = '\n';
            *data = text;
            *size = n + 1;
        } else {
            r = tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for %zu bytes of JSON", n + 1);
        }
    }
    cJSON_free(json);
    tdn_gltf_x__free(&doc);
    return r;
}

tdn_result tdn_gltf_save_memory(const tdn_gltf_save_desc *desc, void **data, size_t *size,
                                const tdn_allocator *allocator, tdn_error *err)
{
    if (data)
        *data = NULL;
    if (size)
        *size = 0;
    if (!data || !size)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, !data ? "data" : "size", "is NULL");
    if (tdn_io__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    const tdn_allocator hooks = allocator ? *allocator : (tdn_allocator){ 0 };
    return export_memory(desc, !desc || desc->binary != TDN_GLTF_JSON, &hooks, data, size, err);
}

/* ---- files ---- */

static int ends_with(const char *s, const char *suffix)
{
    const size_t n = strlen(s), k = strlen(suffix);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++) {
        char c = s[n - k + i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != suffix[i])
            return 0;
    }
    return 1;
}

tdn_result tdn_gltf_save(const tdn_gltf_save_desc *desc, const char *path, tdn_error *err)
{
    if (!path || !*path)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "path", "a file path is required");
    int binary = desc ? desc->binary : TDN_GLTF_BINARY;
    if (binary == TDN_GLTF_BY_EXTENSION) {
        if (ends_with(path, ".glb"))
            binary = TDN_GLTF_BINARY;
        else if (ends_with(path, ".gltf"))
            binary = TDN_GLTF_JSON;
        else
            return tdn_io__fail(err, TDN_ERR_ARGUMENT, path,
                                "the file name ends neither in .glb nor .gltf; set desc.binary to 1 or 0");
    }
    void *data = NULL;
    size_t size = 0;
    const tdn_allocator hooks = { 0 };
    tdn_result r = export_memory(desc, binary, &hooks, &data, &size, err);
    if (r != TDN_OK)
        return r;
    r = tdn_io__write_file(path, data, size, err);
    tdn_io__free(&hooks, data, size);
    return r;
}
