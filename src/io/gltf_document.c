/* tendon io glTF: the container and the JSON document.
 *
 * A GLB is a 12-byte header (magic "glTF", version 2, total length), a JSON chunk and an
 * optional BIN chunk; every chunk is an 8-byte header (length, type) and data padded to 4
 * bytes. Chunks of unknown types are skipped as the spec asks. Errors in the container name
 * the byte offset; errors in the JSON name the JSON path. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"
#include "json_text.h"
#include "json_reader.h"

#define GLB_MAGIC 0x46546C67u      /* "glTF" */
#define GLB_CHUNK_JSON 0x4E4F534Au /* "JSON" */
#define GLB_CHUNK_BIN 0x004E4942u  /* "BIN\0" */

tdn_result tdn_gltf__fail(const tdn_gltf__doc *doc, tdn_result code, const char *where, const char *fmt, ...)
{
    char message[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return tdn_io__fail(doc->err, code, where, "%s", message);
}

tdn_result tdn_gltf__warn(const tdn_gltf__doc *doc, tdn_asset *asset, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (tdn_io__asset_warn(asset, "%s", line) != TDN_OK)
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for a warning");
    return TDN_OK;
}

static uint32_t read_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static tdn_result fail_at_byte(const tdn_gltf__doc *doc, tdn_result code, uint64_t byte, const char *fmt,
                               const char *detail)
{
    char where[64];
    snprintf(where, sizeof where, "byte %llu", (unsigned long long)byte);
    return tdn_gltf__fail(doc, code, where, fmt, detail);
}

/* Finds the JSON text and the BIN chunk of a GLB. */
static tdn_result read_glb(tdn_gltf__doc *doc, const unsigned char *data, size_t size, const unsigned char **json,
                           size_t *json_size)
{
    char detail[160];
    if (size < 12) {
        snprintf(detail, sizeof detail, "a GLB header is 12 bytes; the data has %zu", size);
        return fail_at_byte(doc, TDN_ERR_PARSE, size, "truncated GLB: %s", detail);
    }
    uint32_t version = read_u32(data + 4), length = read_u32(data + 8);
    if (version != 2) {
        snprintf(detail, sizeof detail, "%u", version);
        return fail_at_byte(doc, TDN_ERR_UNSUPPORTED, 4, "GLB version %s (tendon reads version 2)", detail);
    }
    if (length != size) {
        snprintf(detail, sizeof detail, "the header's length is %u bytes but the data has %zu", length, size);
        return fail_at_byte(doc, TDN_ERR_PARSE, length < size ? 8 : size, "%s", detail);
    }
    int chunk_index = 0;
    for (uint64_t at = 12; at < size; chunk_index++) {
        if (size - at < 8) {
            snprintf(detail, sizeof detail, "a chunk header needs 8 bytes; %llu are left",
                     (unsigned long long)(size - at));
            return fail_at_byte(doc, TDN_ERR_PARSE, at, "truncated GLB: %s", detail);
        }
        uint64_t chunk_length = read_u32(data + at), type = read_u32(data + at + 4);
        if (chunk_length % 4 != 0) {
            snprintf(detail, sizeof detail, "%llu", (unsigned long long)chunk_length);
            return fail_at_byte(doc, TDN_ERR_PARSE, at, "GLB chunk length %s is not a multiple of 4", detail);
        }
        if (chunk_length > size - at - 8) {
            snprintf(detail, sizeof detail, "chunk of %llu bytes but %llu are left", (unsigned long long)chunk_length,
                     (unsigned long long)(size - at - 8));
            return fail_at_byte(doc, TDN_ERR_PARSE, at, "truncated GLB: %s", detail);
        }
        const unsigned char *chunk = data + at + 8;
        if (chunk_index == 0) {
            if (type != GLB_CHUNK_JSON)
                return fail_at_byte(doc, TDN_ERR_PARSE, at + 4, "%s", "the first GLB chunk must be JSON");
            *json = chunk;
            *json_size = (size_t)chunk_length;
        } else if (type == GLB_CHUNK_JSON) {
            return fail_at_byte(doc, TDN_ERR_PARSE, at + 4, "%s", "a second JSON chunk");
        } else if (type == GLB_CHUNK_BIN) {
            if (chunk_index != 1)
                return fail_at_byte(doc, TDN_ERR_PARSE, at + 4, "%s", "the BIN chunk must follow the JSON chunk");
            doc->bin = chunk;
            doc->bin_size = chunk_length;
        }
        at += 8 + chunk_length;
    }
    if (chunk_index == 0)
        return fail_at_byte(doc, TDN_ERR_PARSE, 12, "%s", "truncated GLB: no JSON chunk");
    return TDN_OK;
}

/* Extensions tendon knows it can ignore when required: they change only materials, textures
 * or lights, none of which it reads. */
static int extension_is_harmless(const char *name)
{
    static const char *const prefixes[] = { "KHR_materials_", "KHR_texture_", "EXT_texture_", "KHR_lights_" };
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

static tdn_result read_extensions(tdn_gltf__doc *doc)
{
    const cJSON *used = NULL, *required = NULL, *item;
    tdn_result r = tdn_gltf__array(doc, doc->json, "extensionsUsed", "", &used);
    if (r == TDN_OK)
        r = tdn_gltf__array(doc, doc->json, "extensionsRequired", "", &required);
    if (r != TDN_OK)
        return r;
    cJSON_ArrayForEach(item, used) if (cJSON_IsString(item) && strcmp(item->valuestring, "KHR_mesh_quantization") == 0)
        doc->quantized = 1;
    int i = 0;
    cJSON_ArrayForEach(item, required)
    {
        tdn_gltf__path where;
        snprintf(where, sizeof where, "extensionsRequired[%d]", i++);
        if (!cJSON_IsString(item))
            return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "an extension name must be a string");
        if (strcmp(item->valuestring, "KHR_mesh_quantization") == 0)
            doc->quantized = 1;
        else if (!extension_is_harmless(item->valuestring))
            return tdn_gltf__fail(doc, TDN_ERR_UNSUPPORTED, where, "required extension '%s' is not supported",
                                  item->valuestring);
    }
    return TDN_OK;
}

/* asset.version must be 2.x and asset.minVersion (when given) at most 2.0. */
static tdn_result read_version(tdn_gltf__doc *doc)
{
    const cJSON *asset = NULL;
    const char *version = NULL, *min_version = NULL;
    tdn_result r = tdn_gltf__object(doc, doc->json, "asset", "", &asset);
    if (r == TDN_OK && !asset)
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, "asset", "the required 'asset' object is missing");
    if (r == TDN_OK)
        r = tdn_gltf__string(doc, asset, "version", "asset", &version);
    if (r == TDN_OK)
        r = tdn_gltf__string(doc, asset, "minVersion", "asset", &min_version);
    if (r != TDN_OK)
        return r;
    if (!version)
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, "asset.version", "the required version is missing");
    if (strncmp(version, "2.", 2) != 0)
        return tdn_gltf__fail(doc, TDN_ERR_UNSUPPORTED, "asset.version", "glTF version '%s' (tendon reads 2.x)",
                              version);
    if (min_version && strcmp(min_version, "2.0") != 0)
        return tdn_gltf__fail(doc, TDN_ERR_UNSUPPORTED, "asset.minVersion",
                              "the file needs glTF '%s' (tendon reads 2.0)", min_version);
    return TDN_OK;
}

static tdn_result read_list(tdn_gltf__doc *doc, const char *key, tdn_gltf__list *list)
{
    const cJSON *array = NULL, *item;
    tdn_result r = tdn_gltf__array(doc, doc->json, key, "", &array);
    if (r != TDN_OK || !array)
        return r;
    int count = 0;
    cJSON_ArrayForEach(item, array) count++;
    list->items = malloc(sizeof *list->items * (size_t)(count > 0 ? count : 1));
    if (!list->items)
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, key, "out of memory for %d items", count);
    int i = 0;
    cJSON_ArrayForEach(item, array)
    {
        if (!cJSON_IsObject(item)) {
            tdn_gltf__path where;
            snprintf(where, sizeof where, "%s[%d]", key, i);
            return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "must be a JSON object");
        }
        list->items[i++] = item;
    }
    list->count = count;
    return TDN_OK;
}

static tdn_result parse_json(tdn_gltf__doc *doc, const unsigned char *text, size_t size, uint64_t file_offset)
{
    /* the zeros some writers pad GLB JSON chunks with may follow the value */
    tdn_io__json_problem problem;
    tdn_result r = tdn_io__json_parse((const char *)text, size, TDN_IO_JSON_ZERO_PADDING, &doc->json, &problem);
    if (r != TDN_OK && problem.path[0])
        return tdn_gltf__fail(doc, r, problem.path, "%s", problem.message);
    if (r != TDN_OK)
        return fail_at_byte(doc, r, file_offset + problem.at, "%s", problem.message);
    if (!cJSON_IsObject(doc->json)) {
        const size_t bom = size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
        return fail_at_byte(doc, TDN_ERR_PARSE, file_offset + bom, "%s", "the JSON must be an object");
    }
    return TDN_OK;
}

tdn_result tdn_gltf__open(tdn_gltf__doc *doc, const unsigned char *data, size_t size, const char *base_dir,
                          const tdn_file_access *access, const tdn_allocator *allocator, tdn_error *err)
{
    memset(doc, 0, sizeof *doc);
    doc->err = err;
    doc->base_dir = base_dir;
    doc->access = access;
    doc->allocator = allocator;
    doc->values_left = TDN_GLTF_BASE_VALUES + TDN_GLTF_VALUES_PER_BYTE * (uint64_t)size;
    const unsigned char *json = data;
    size_t json_size = size;
    tdn_result r = TDN_OK;
    if (size >= 4 && read_u32(data) == GLB_MAGIC)
        r = read_glb(doc, data, size, &json, &json_size);
    if (r == TDN_OK)
        r = parse_json(doc, json, json_size, (uint64_t)(json - data));
    if (r == TDN_OK)
        r = read_version(doc);
    if (r == TDN_OK)
        r = read_extensions(doc);
    static const struct {
        const char *key;
        size_t offset;
    } lists[] = {
        { "nodes", offsetof(tdn_gltf__doc, nodes) },
        { "accessors", offsetof(tdn_gltf__doc, accessors) },
        { "bufferViews", offsetof(tdn_gltf__doc, buffer_views) },
        { "buffers", offsetof(tdn_gltf__doc, buffers) },
        { "meshes", offsetof(tdn_gltf__doc, meshes) },
        { "skins", offsetof(tdn_gltf__doc, skins) },
        { "animations", offsetof(tdn_gltf__doc, animations) },
    };
    for (size_t i = 0; r == TDN_OK && i < sizeof lists / sizeof lists[0]; i++)
        r = read_list(doc, lists[i].key, (tdn_gltf__list *)(void *)((char *)doc + lists[i].offset));
    if (r == TDN_OK) {
        doc->buffer_data = calloc((size_t)doc->buffers.count + 1, sizeof *doc->buffer_data);
        doc->decoded = calloc((size_t)doc->accessors.count + 1, sizeof *doc->decoded);
        if (!doc->buffer_data || !doc->decoded)
            r = tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
    }
    if (r != TDN_OK)
        tdn_gltf__close(doc);
    return r;
}

void tdn_gltf__drop_values(tdn_gltf__doc *doc)
{
    for (int i = 0; doc->decoded && i < doc->accessors.count; i++) {
        free(doc->decoded[i].values);
        doc->decoded[i].values = NULL;
    }
}

void tdn_gltf__close(tdn_gltf__doc *doc)
{
    for (int i = 0; doc->buffer_data && i < doc->buffers.count; i++) {
        free(doc->buffer_data[i].owned);
        tdn_io__free_file(&doc->buffer_data[i].file);
        free(doc->buffer_data[i].name);
    }
    tdn_gltf__drop_values(doc);
    free(doc->buffer_data);
    free(doc->decoded);
    free(doc->nodes.items);
    free(doc->accessors.items);
    free(doc->buffer_views.items);
    free(doc->buffers.items);
    free(doc->meshes.items);
    free(doc->skins.items);
    free(doc->animations.items);
    cJSON_Delete(doc->json);
    memset(doc, 0, sizeof *doc);
}

/* ---- typed lookups ---- */

/* Paths are built for every channel, sampler and accessor, so they are appended by hand
 * (json_reader.c): snprintf took a fifth of the import time. */
void tdn_gltf__join(tdn_gltf__path where, const char *path, const char *key) { tdn_io__json_join(where, path, key); }

void tdn_gltf__item(tdn_gltf__path where, const char *path, const char *key, int index)
{
    tdn_gltf__path joined;
    tdn_io__json_join(joined, path, key);
    tdn_io__json_item(where, joined, index);
}

tdn_result tdn_gltf__integer(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, uint64_t min, uint64_t max,
                             const char *path, uint64_t *out)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item)
        return TDN_OK;
    tdn_gltf__path where;
    tdn_gltf__join(where, path, key);
    if (!cJSON_IsNumber(item) || item->valuedouble != floor(item->valuedouble))
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "must be an integer");
    if (!(item->valuedouble >= (double)min && item->valuedouble <= (double)max))
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where, "%.17g is out of range [%llu, %llu]", item->valuedouble,
                              (unsigned long long)min, (unsigned long long)max);
    *out = (uint64_t)item->valuedouble;
    return TDN_OK;
}

tdn_result tdn_gltf__required_integer(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, uint64_t min,
                                      uint64_t max, const char *path, uint64_t *out)
{
    if (!cJSON_GetObjectItemCaseSensitive(obj, key)) {
        tdn_gltf__path where;
        tdn_gltf__join(where, path, key);
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "the required '%s' is missing", key);
    }
    return tdn_gltf__integer(doc, obj, key, min, max, path, out);
}

tdn_result tdn_gltf__index(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, int count, const char *path,
                           int *out)
{
    *out = -1;
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item)
        return TDN_OK;
    tdn_gltf__path where;
    tdn_gltf__join(where, path, key);
    if (!cJSON_IsNumber(item) || item->valuedouble != floor(item->valuedouble))
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "an index must be an integer");
    if (!(item->valuedouble >= 0.0 && item->valuedouble < (double)count))
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where, "index %.17g is out of range (%d items)",
                              item->valuedouble, count);
    *out = (int)item->valuedouble;
    return TDN_OK;
}

tdn_result tdn_gltf__required_index(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, int count,
                                    const char *path, int *out)
{
    tdn_result r = tdn_gltf__index(doc, obj, key, count, path, out);
    if (r == TDN_OK && *out < 0) {
        tdn_gltf__path where;
        tdn_gltf__join(where, path, key);
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "the required '%s' is missing", key);
    }
    return r;
}

tdn_result tdn_gltf__floats(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, int n, const char *path,
                            float *out, int *present)
{
    if (present)
        *present = 0;
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item)
        return TDN_OK;
    tdn_gltf__path where;
    tdn_gltf__join(where, path, key);
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != n)
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "must be an array of %d numbers", n);
    float values[16];
    int i = 0;
    const cJSON *number;
    cJSON_ArrayForEach(number, item)
    {
        if (!cJSON_IsNumber(number))
            return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "element %d is not a number", i);
        values[i] = (float)number->valuedouble;
        if (!isfinite(values[i]))
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where, "element %d (%g) is not a finite float", i,
                                  number->valuedouble);
        i++;
    }
    memcpy(out, values, sizeof(float) * (size_t)n);
    if (present)
        *present = 1;
    return TDN_OK;
}

tdn_result tdn_gltf__string(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, const char *path,
                            const char **out)
{
    *out = NULL;
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item)
        return TDN_OK;
    if (!cJSON_IsString(item)) {
        tdn_gltf__path where;
        tdn_gltf__join(where, path, key);
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "must be a string");
    }
    *out = item->valuestring;
    return TDN_OK;
}

tdn_result tdn_gltf__array(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, const char *path,
                           const cJSON **out)
{
    *out = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (*out && !cJSON_IsArray(*out)) {
        tdn_gltf__path where;
        tdn_gltf__join(where, path, key);
        *out = NULL;
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "must be an array");
    }
    return TDN_OK;
}

tdn_result tdn_gltf__object(const tdn_gltf__doc *doc, const cJSON *obj, const char *key, const char *path,
                            const cJSON **out)
{
    *out = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (*out && !cJSON_IsObject(*out)) {
        tdn_gltf__path where;
        tdn_gltf__join(where, path, key);
        *out = NULL;
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "must be an object");
    }
    return TDN_OK;
}
