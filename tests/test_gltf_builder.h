/* tendon tests: small glTF files built in memory — binary data appended to one buffer,
 * buffer views and accessors over it, and the document as JSON with the buffer embedded as
 * base64, as a GLB BIN chunk, or named by a URI for an external file. The test writes the
 * rest of the JSON (nodes, skins, animations, meshes) itself. */
#ifndef TENDON_TEST_GLTF_BUILDER_H
#define TENDON_TEST_GLTF_BUILDER_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing string. */
typedef struct text_buf {
    char *s;
    size_t length, capacity;
} text_buf;

static inline void text_add(text_buf *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static inline void text_add(text_buf *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->length + (size_t)n + 1 > t->capacity) {
        t->capacity = (t->length + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->capacity);
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->length, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->length += (size_t)n;
}

typedef struct gltf_builder {
    unsigned char *bin;
    size_t bin_size, bin_capacity;
    text_buf views, accessors;
    int view_count, accessor_count;
} gltf_builder;

static inline void gb_free(gltf_builder *b)
{
    free(b->bin);
    free(b->views.s);
    free(b->accessors.s);
    memset(b, 0, sizeof *b);
}

/* Appends bytes (at a 4-byte aligned offset) as a new buffer view; stride 0: none. */
static inline int gb_view(gltf_builder *b, const void *bytes, size_t size, int stride)
{
    const size_t start = (b->bin_size + 3) / 4 * 4;
    if (start + size > b->bin_capacity) {
        b->bin_capacity = (start + size) * 2 + 64;
        b->bin = realloc(b->bin, b->bin_capacity);
    }
    memset(b->bin + b->bin_size, 0, start - b->bin_size);
    memcpy(b->bin + start, bytes, size);
    text_add(&b->views, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu", b->view_count ? "," : "", start, size);
    if (stride)
        text_add(&b->views, ",\"byteStride\":%d", stride);
    text_add(&b->views, "}");
    b->bin_size = start + size;
    return b->view_count++;
}

/* An accessor; view < 0 for none; `more` is extra JSON members (",\"sparse\":{...}") or "". */
static inline int gb_accessor(gltf_builder *b, int view, int offset, int component_type, int normalized, int count,
                              const char *type, const char *more)
{
    text_add(&b->accessors, "%s{\"componentType\":%d,\"count\":%d,\"type\":\"%s\"%s", b->accessor_count ? "," : "",
             component_type, count, type, normalized ? ",\"normalized\":true" : "");
    if (view >= 0)
        text_add(&b->accessors, ",\"bufferView\":%d,\"byteOffset\":%d", view, offset);
    text_add(&b->accessors, "%s}", more);
    return b->accessor_count++;
}

static inline int gb_components(const char *type)
{
    return !strcmp(type, "SCALAR") ? 1 : !strcmp(type, "VEC3") ? 3 : !strcmp(type, "VEC4") ? 4 : 16;
}

/* count elements of floats as a FLOAT accessor of `type` on a view of its own. */
static inline int gb_floats(gltf_builder *b, const char *type, int count, const float *values)
{
    int view = gb_view(b, values, sizeof(float) * (size_t)count * (size_t)gb_components(type), 0);
    return gb_accessor(b, view, 0, 5126, 0, count, type, "");
}

/* Integers (one per component) stored as component_type (5120 byte .. 5123 unsigned short). */
static inline int gb_ints(gltf_builder *b, const char *type, int count, int component_type, int normalized,
                          const int *values)
{
    const int n = count * gb_components(type), size = component_type <= 5121 ? 1 : 2;
    unsigned char *bytes = malloc((size_t)n * 2 + 4);
    for (int i = 0; i < n; i++) {
        bytes[i * size] = (unsigned char)(values[i] & 0xff);
        if (size == 2)
            bytes[i * size + 1] = (unsigned char)((values[i] >> 8) & 0xff);
    }
    int view = gb_view(b, bytes, (size_t)n * (size_t)size, 0);
    free(bytes);
    return gb_accessor(b, view, 0, component_type, normalized, count, type, "");
}

static inline char *gb_base64(const unsigned char *data, size_t size)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(size / 3 * 4 + 8);
    size_t k = 0;
    for (size_t i = 0; i < size; i += 3) {
        unsigned v = (unsigned)data[i] << 16 | (i + 1 < size ? (unsigned)data[i + 1] << 8 : 0) |
                     (i + 2 < size ? data[i + 2] : 0);
        out[k++] = alphabet[v >> 18 & 63];
        out[k++] = alphabet[v >> 12 & 63];
        out[k++] = i + 1 < size ? alphabet[v >> 6 & 63] : '=';
        out[k++] = i + 2 < size ? alphabet[v & 63] : '=';
    }
    out[k] = 0;
    return out;
}

typedef enum gb_form { GB_EMBEDDED, GB_GLB, GB_EXTERNAL } gb_form;

/* The JSON text around `body` (JSON members, no braces; may be ""), the buffer as the form
 * says (GB_EXTERNAL: named `uri`). */
static inline char *gb_json(const gltf_builder *b, const char *body, gb_form form, const char *uri)
{
    text_buf t = { 0 };
    text_add(&t, "{\"asset\":{\"version\":\"2.0\"}%s%s", *body ? "," : "", body);
    if (b->bin_size) {
        text_add(&t, ",\"buffers\":[{\"byteLength\":%zu", b->bin_size);
        if (form == GB_EMBEDDED) {
            char *data = gb_base64(b->bin, b->bin_size);
            text_add(&t, ",\"uri\":\"data:application/octet-stream;base64,%s\"", data);
            free(data);
        } else if (form == GB_EXTERNAL) {
            text_add(&t, ",\"uri\":\"%s\"", uri);
        }
        text_add(&t, "}],\"bufferViews\":[%s],\"accessors\":[%s]", b->views.s ? b->views.s : "",
                 b->accessors.s ? b->accessors.s : "");
    }
    text_add(&t, "}");
    return t.s;
}

static inline void put32(unsigned char *p, size_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16),
    p[3] = (unsigned char)(v >> 24);
}

/* A GLB of the document: header, JSON chunk (space-padded), BIN chunk (zero-padded). */
static inline unsigned char *gb_glb(const gltf_builder *b, const char *body, size_t *size)
{
    char *json = gb_json(b, body, GB_GLB, NULL);
    const size_t json_length = (strlen(json) + 3) / 4 * 4, bin_length = (b->bin_size + 3) / 4 * 4;
    *size = 12 + 8 + json_length + (b->bin_size ? 8 + bin_length : 0);
    unsigned char *out = calloc(*size, 1);
    memcpy(out, "glTF", 4);
    put32(out + 4, 2);
    put32(out + 8, *size);
    put32(out + 12, json_length);
    memcpy(out + 16, "JSON", 4);
    memset(out + 20, ' ', json_length);
    memcpy(out + 20, json, strlen(json));
    if (b->bin_size) {
        unsigned char *chunk = out + 20 + json_length;
        put32(chunk, bin_length);
        memcpy(chunk + 4, "BIN", 4);
        memcpy(chunk + 8, b->bin, b->bin_size);
    }
    free(json);
    return out;
}

#endif
