/* tendon io glTF: buffers and buffer views.
 *
 * A buffer is the GLB's BIN chunk (buffer 0 without a uri), a base64 data URI, or an external
 * file named by a relative URI, percent-decoded as the glTF specification's URIs are (RFC 3986)
 * and then read as file_access.h says: below the asset's folder or an allowed root, checked
 * after decoding (so "%2e%2e/" is caught). Other schemes ("file:", "http:", a drive letter) are
 * refused. Buffers are read on first use, so files whose unused buffers are missing (images,
 * for example) still load. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "gltf_internal.h"

/* 2^53: larger integers are not exact in JSON numbers. */
#define MAX_JSON_SIZE ((uint64_t)1 << 53)

static int base64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

static tdn_result decode_base64(const tdn_gltf__doc *doc, const char *text, const char *where, tdn_gltf__buffer *out,
                                uint64_t *size)
{
    size_t length = strlen(text);
    while (length > 0 && text[length - 1] == '=')
        length--;
    unsigned char *bytes = malloc(length / 4 * 3 + 3);
    if (!bytes)
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, where, "out of memory for %zu bytes", length / 4 * 3 + 3);
    size_t n = 0;
    uint32_t bits = 0;
    int bit_count = 0;
    for (size_t i = 0; i < length; i++) {
        int v = base64_value((unsigned char)text[i]);
        if (v < 0) {
            free(bytes);
            return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "invalid base64 character at offset %zu of the data", i);
        }
        bits = bits << 6 | (uint32_t)v;
        bit_count += 6;
        if (bit_count >= 8) {
            bit_count -= 8;
            bytes[n++] = (unsigned char)(bits >> bit_count);
        }
    }
    out->owned = bytes;
    out->data = bytes;
    *size = n;
    return TDN_OK;
}

/* Data URI: "data:[<media type>];base64,<data>". */
static tdn_result read_data_uri(const tdn_gltf__doc *doc, const char *uri, const char *where, tdn_gltf__buffer *out,
                                uint64_t *size)
{
    const char *comma = strchr(uri, ',');
    if (!comma || comma - uri < 12 || memcmp(comma - 7, ";base64", 7) != 0)
        return tdn_gltf__fail(doc, TDN_ERR_UNSUPPORTED, where, "only base64 data URIs are supported");
    return decode_base64(doc, comma + 1, where, out, size);
}

/* An RFC 3986 scheme ("file:", "http:"; a Windows drive letter "C:" reads as one too) before
 * the first '/', '?' or '#'. */
static int has_scheme(const char *uri)
{
    size_t n = 0;
    while (uri[n] && !strchr(":/?#", uri[n]))
        n++;
    return uri[n] == ':' && n > 0;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* The path a relative URI stands for: *out (malloc'ed) = the URI percent-decoded, or an error
 * naming the URI. */
static tdn_result decode_uri(const tdn_gltf__doc *doc, const char *uri, const char *where, char **out)
{
    *out = NULL;
    if (has_scheme(uri))
        return tdn_gltf__fail(doc, TDN_ERR_UNSUPPORTED, where,
                              "URI '%.80s' is not a relative path or a data: URI (tendon reads no other scheme)", uri);
    if (strpbrk(uri, "?#"))
        return tdn_gltf__fail(
            doc, TDN_ERR_UNSUPPORTED, where,
            "URI '%.80s' has a query or a fragment (a '?' or '#' in a file name is written %%3F, %%23)", uri);
    const size_t length = strlen(uri);
    char *decoded = malloc(length + 1);
    if (!decoded)
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, where, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < length; i++) {
        if (uri[i] != '%') {
            decoded[n++] = uri[i];
            continue;
        }
        /* the URI ends with a zero, which is no digit: nothing is read past it */
        const int hi = hex_digit(uri[i + 1]), lo = hi >= 0 ? hex_digit(uri[i + 2]) : -1;
        if (lo < 0) {
            free(decoded);
            return tdn_gltf__fail(doc, TDN_ERR_PARSE, where,
                                  "URI '%.80s': '%%' at character %zu is not followed by two hexadecimal digits", uri,
                                  i);
        }
        if (hi == 0 && lo == 0) {
            free(decoded);
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where, "URI '%.80s' holds %%00 (a NUL character)", uri);
        }
        decoded[n++] = (char)(hi * 16 + lo);
        i += 2;
    }
    decoded[n] = '\0';
    *out = decoded;
    return TDN_OK;
}

/* The external file a URI names, read below the asset's folder (or an allowed root); errors
 * about the file are at "buffers[i] (the file)". */
static tdn_result read_external(const tdn_gltf__doc *doc, int index, const char *uri, const char *uri_where,
                                tdn_gltf__buffer *out, uint64_t *size)
{
    char *path;
    tdn_result r = decode_uri(doc, uri, uri_where, &path);
    if (r != TDN_OK)
        return r;
    out->name = path;
    r = tdn_io__read_named(doc->access, doc->base_dir, path, "the asset's", doc->allocator, &out->file, NULL, doc->err);
    if (r != TDN_OK) {
        char field[32];
        snprintf(field, sizeof field, "buffers[%d]", index);
        tdn_io__where_in(doc->err, field, path);
        return r;
    }
    out->data = (const unsigned char *)out->file.data;
    *size = out->file.size;
    return TDN_OK;
}

static tdn_result load_buffer(tdn_gltf__doc *doc, int index)
{
    tdn_gltf__buffer *buffer = &doc->buffer_data[index];
    const cJSON *json = doc->buffers.items[index];
    tdn_gltf__path where, uri_where;
    snprintf(where, sizeof where, "buffers[%d]", index);
    snprintf(uri_where, sizeof uri_where, "buffers[%d].uri", index);
    uint64_t length = 0, available = 0;
    const char *uri = NULL;
    tdn_result r = tdn_gltf__required_integer(doc, json, "byteLength", 1, MAX_JSON_SIZE, where, &length);
    if (r == TDN_OK)
        r = tdn_gltf__string(doc, json, "uri", where, &uri);
    if (r != TDN_OK)
        return r;
    if (!uri) {
        if (index != 0 || !doc->bin)
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where,
                                  "a buffer without a uri must be buffer 0 of a GLB with a BIN chunk");
        buffer->data = doc->bin;
        available = doc->bin_size;
    } else if (strncmp(uri, "data:", 5) == 0) {
        r = read_data_uri(doc, uri, uri_where, buffer, &available);
    } else {
        r = read_external(doc, index, uri, uri_where, buffer, &available);
    }
    if (r != TDN_OK)
        return r;
    if (available < length) {
        buffer->data = NULL;
        r = tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, "", "byteLength is %llu but the data has %llu bytes",
                           (unsigned long long)length, (unsigned long long)available);
        tdn_io__where_in(doc->err, where, buffer->name);
        return r;
    }
    buffer->size = length;
    if (buffer->owned || buffer->file.data) /* decoded or read here: more data, more values it may hold */
        doc->values_left += TDN_GLTF_VALUES_PER_BYTE * available;
    return TDN_OK;
}

tdn_result tdn_gltf__buffer_view(tdn_gltf__doc *doc, int index, tdn_gltf__view *out)
{
    const cJSON *json = doc->buffer_views.items[index];
    tdn_gltf__path where;
    snprintf(where, sizeof where, "bufferViews[%d]", index);
    int buffer = -1;
    uint64_t offset = 0, length = 0, stride = 0;
    tdn_result r = tdn_gltf__required_index(doc, json, "buffer", doc->buffers.count, where, &buffer);
    if (r == TDN_OK)
        r = tdn_gltf__integer(doc, json, "byteOffset", 0, MAX_JSON_SIZE, where, &offset);
    if (r == TDN_OK)
        r = tdn_gltf__required_integer(doc, json, "byteLength", 1, MAX_JSON_SIZE, where, &length);
    if (r == TDN_OK)
        r = tdn_gltf__integer(doc, json, "byteStride", 4, 252, where, &stride);
    if (r != TDN_OK)
        return r;
    if (stride % 4 != 0)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where, "byteStride %llu is not a multiple of 4",
                              (unsigned long long)stride);
    if (!doc->buffer_data[buffer].data && (r = load_buffer(doc, buffer)) != TDN_OK)
        return r;
    const tdn_gltf__buffer *b = &doc->buffer_data[buffer];
    if (offset > b->size || length > b->size - offset)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where,
                              "bytes [%llu, %llu) lie outside buffer %d of %llu bytes", (unsigned long long)offset,
                              (unsigned long long)(offset + length), buffer, (unsigned long long)b->size);
    out->data = b->data + offset;
    out->size = length;
    out->stride = stride;
    return TDN_OK;
}
