/* tendon io glTF: accessors decoded to floats.
 *
 * Every element is read byte by byte (little-endian, any alignment) after one bounds check:
 * byteOffset + stride * (count - 1) + element size must fit in the buffer view, which must fit
 * in its buffer (gltf_buffer.c); all sums are 64-bit on values capped far below overflow.
 * Normalized integers map to [-1, 1] or [0, 1] as the spec says (signed: max(c / (2^(b-1) - 1),
 * -1)). A sparse accessor starts from its buffer view, or zeros without one, and replaces the
 * elements its strictly increasing indices name. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

enum { BYTE = 5120, UNSIGNED_BYTE = 5121, SHORT = 5122, UNSIGNED_SHORT = 5123, UNSIGNED_INT = 5125, FLOAT = 5126 };

static const char *component_name(int type)
{
    switch (type) {
    case BYTE:
        return "BYTE";
    case UNSIGNED_BYTE:
        return "UNSIGNED_BYTE";
    case SHORT:
        return "SHORT";
    case UNSIGNED_SHORT:
        return "UNSIGNED_SHORT";
    case UNSIGNED_INT:
        return "UNSIGNED_INT";
    case FLOAT:
        return "FLOAT";
    default:
        return NULL;
    }
}

static int component_size(int type)
{
    return type == BYTE || type == UNSIGNED_BYTE ? 1 : type == SHORT || type == UNSIGNED_SHORT ? 2 : 4;
}

/* The format bit of a stored component type, 0 for combinations no use accepts. */
static unsigned format_of(int type, int normalized)
{
    switch (type) {
    case FLOAT:
        return TDN_GLTF_FLOAT;
    case BYTE:
        return normalized ? TDN_GLTF_BYTE_NORM : TDN_GLTF_BYTE;
    case UNSIGNED_BYTE:
        return normalized ? TDN_GLTF_UBYTE_NORM : TDN_GLTF_UBYTE;
    case SHORT:
        return normalized ? TDN_GLTF_SHORT_NORM : TDN_GLTF_SHORT;
    case UNSIGNED_SHORT:
        return normalized ? TDN_GLTF_USHORT_NORM : TDN_GLTF_USHORT;
    case UNSIGNED_INT:
        return normalized ? 0u : TDN_GLTF_UINT;
    default:
        return 0;
    }
}

static const char *type_name(int components)
{
    return components == 1 ? "SCALAR" : components == 3 ? "VEC3" : components == 4 ? "VEC4" : "MAT4";
}

/* "FLOAT, normalized BYTE or normalized SHORT" for an error message. */
static void describe_formats(unsigned formats, char *text, size_t size)
{
    static const char *const names[] = { "FLOAT",
                                         "normalized BYTE",
                                         "normalized UNSIGNED_BYTE",
                                         "normalized SHORT",
                                         "normalized UNSIGNED_SHORT",
                                         "BYTE",
                                         "UNSIGNED_BYTE",
                                         "SHORT",
                                         "UNSIGNED_SHORT",
                                         "UNSIGNED_INT" };
    size_t used = 0;
    text[0] = '\0';
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (formats & (1u << i))
            used += (size_t)snprintf(text + used, used < size ? size - used : 0, "%s%s", used ? " or " : "", names[i]);
}

static float read_component(const unsigned char *p, int type, int normalized)
{
    switch (type) {
    case BYTE: {
        float c = (float)(int8_t)p[0];
        return normalized ? fmaxf(c / 127.0f, -1.0f) : c;
    }
    case UNSIGNED_BYTE:
        return normalized ? (float)p[0] / 255.0f : (float)p[0];
    case SHORT: {
        float c = (float)(int16_t)(uint16_t)(p[0] | p[1] << 8);
        return normalized ? fmaxf(c / 32767.0f, -1.0f) : c;
    }
    case UNSIGNED_SHORT: {
        float c = (float)(uint16_t)(p[0] | p[1] << 8);
        return normalized ? c / 65535.0f : c;
    }
    case UNSIGNED_INT:
        return (float)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
    default: { /* FLOAT */
        uint32_t bits = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    }
}

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
}

/* count elements of `components` components from `data`, `stride` bytes apart. */
static void read_elements(float *out, const unsigned char *data, uint64_t stride, int count, int components, int type,
                          int normalized)
{
    const int size = component_size(type);
    if (type == FLOAT && stride == (uint64_t)(4 * components) && host_is_little_endian()) {
        memcpy(out, data, (size_t)count * (size_t)components * sizeof(float));
        return;
    }
    for (int i = 0; i < count; i++)
        for (int c = 0; c < components; c++)
            out[(size_t)i * components + c] = read_component(data + stride * (uint64_t)i + (uint64_t)(c * size), type,
                                                             normalized);
}

typedef struct accessor_info {
    int index;
    int type; /* component type */
    int normalized;
    int count;
    int components;
    uint64_t element_size;
} accessor_info;

static tdn_result read_sparse(tdn_gltf__doc *doc, const cJSON *sparse, const accessor_info *a, float *values)
{
    tdn_gltf__path where, indices_where, values_where;
    snprintf(where, sizeof where, "accessors[%d].sparse", a->index);
    snprintf(indices_where, sizeof indices_where, "accessors[%d].sparse.indices", a->index);
    snprintf(values_where, sizeof values_where, "accessors[%d].sparse.values", a->index);
    const cJSON *indices = NULL, *replacements = NULL;
    uint64_t count = 0, index_type = 0, indices_offset = 0, values_offset = 0;
    int indices_view = -1, values_view = -1;
    tdn_result r = tdn_gltf__required_integer(doc, sparse, "count", 1, (uint64_t)a->count, where, &count);
    if (r == TDN_OK)
        r = tdn_gltf__object(doc, sparse, "indices", where, &indices);
    if (r == TDN_OK)
        r = tdn_gltf__object(doc, sparse, "values", where, &replacements);
    if (r == TDN_OK && (!indices || !replacements))
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "sparse needs 'indices' and 'values'");
    if (r == TDN_OK)
        r = tdn_gltf__required_index(doc, indices, "bufferView", doc->buffer_views.count, indices_where, &indices_view);
    if (r == TDN_OK)
        r = tdn_gltf__integer(doc, indices, "byteOffset", 0, (uint64_t)1 << 53, indices_where, &indices_offset);
    if (r == TDN_OK)
        r = tdn_gltf__required_integer(doc, indices, "componentType", 0, 65535, indices_where, &index_type);
    if (r == TDN_OK)
        r = tdn_gltf__required_index(doc, replacements, "bufferView", doc->buffer_views.count, values_where,
                                     &values_view);
    if (r == TDN_OK)
        r = tdn_gltf__integer(doc, replacements, "byteOffset", 0, (uint64_t)1 << 53, values_where, &values_offset);
    if (r != TDN_OK)
        return r;
    if (index_type != UNSIGNED_BYTE && index_type != UNSIGNED_SHORT && index_type != UNSIGNED_INT)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, indices_where,
                              "componentType %llu is not UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT",
                              (unsigned long long)index_type);
    tdn_gltf__view iv, vv;
    if ((r = tdn_gltf__buffer_view(doc, indices_view, &iv)) != TDN_OK ||
        (r = tdn_gltf__buffer_view(doc, values_view, &vv)) != TDN_OK)
        return r;
    const uint64_t index_size = (uint64_t)component_size((int)index_type);
    if (indices_offset > iv.size || count * index_size > iv.size - indices_offset)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, indices_where,
                              "%llu indices from byte %llu do not fit in buffer view %d of %llu bytes",
                              (unsigned long long)count, (unsigned long long)indices_offset, indices_view,
                              (unsigned long long)iv.size);
    if (values_offset > vv.size || count * a->element_size > vv.size - values_offset)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, values_where,
                              "%llu elements from byte %llu do not fit in buffer view %d of %llu bytes",
                              (unsigned long long)count, (unsigned long long)values_offset, values_view,
                              (unsigned long long)vv.size);
    const unsigned char *index_data = iv.data + indices_offset;
    uint64_t previous = 0;
    for (uint64_t k = 0; k < count; k++) {
        const unsigned char *p = index_data + k * index_size;
        uint64_t i = index_size == 1 ? p[0]
                     : index_size == 2
                         ? (uint64_t)(p[0] | p[1] << 8)
                         : (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
        if (i >= (uint64_t)a->count)
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, indices_where,
                                  "index %llu is %llu but the accessor has %d elements", (unsigned long long)k,
                                  (unsigned long long)i, a->count);
        if (k > 0 && i <= previous)
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, indices_where,
                                  "index %llu (%llu) does not follow %llu: indices must strictly increase",
                                  (unsigned long long)k, (unsigned long long)i, (unsigned long long)previous);
        previous = i;
        read_elements(values + i * (uint64_t)a->components, vv.data + values_offset + k * a->element_size,
                      a->element_size, 1, a->components, a->type, a->normalized);
    }
    return TDN_OK;
}

/* Decodes accessor a into values (count * components floats). */
static tdn_result decode(tdn_gltf__doc *doc, const cJSON *json, const accessor_info *a, float *values)
{
    tdn_gltf__path where;
    snprintf(where, sizeof where, "accessors[%d]", a->index);
    int view_index = -1;
    uint64_t offset = 0;
    const cJSON *sparse = NULL;
    tdn_result r = tdn_gltf__index(doc, json, "bufferView", doc->buffer_views.count, where, &view_index);
    if (r == TDN_OK)
        r = tdn_gltf__integer(doc, json, "byteOffset", 0, (uint64_t)1 << 53, where, &offset);
    if (r == TDN_OK)
        r = tdn_gltf__object(doc, json, "sparse", where, &sparse);
    if (r != TDN_OK)
        return r;
    if (view_index < 0) {
        memset(values, 0, sizeof(float) * (size_t)a->count * (size_t)a->components);
    } else {
        tdn_gltf__view view;
        if ((r = tdn_gltf__buffer_view(doc, view_index, &view)) != TDN_OK)
            return r;
        const uint64_t stride = view.stride ? view.stride : a->element_size;
        if (stride < a->element_size)
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where,
                                  "buffer view %d's byteStride %llu is less than the element size %llu", view_index,
                                  (unsigned long long)stride, (unsigned long long)a->element_size);
        const uint64_t span = stride * (uint64_t)(a->count - 1) + a->element_size;
        if (offset > view.size || span > view.size - offset)
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where,
                                  "%d elements from byte %llu, %llu bytes apart, need %llu bytes but buffer view %d "
                                  "has %llu",
                                  a->count, (unsigned long long)offset, (unsigned long long)stride,
                                  (unsigned long long)(offset + span), view_index, (unsigned long long)view.size);
        read_elements(values, view.data + offset, stride, a->count, a->components, a->type, a->normalized);
    }
    if (sparse && (r = read_sparse(doc, sparse, a, values)) != TDN_OK)
        return r;
    const size_t n = (size_t)a->count * (size_t)a->components;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(values[i]))
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where, "element %zu component %zu is not finite (%g)",
                                  i / (size_t)a->components, i % (size_t)a->components, (double)values[i]);
    return TDN_OK;
}

tdn_result tdn_gltf__read_accessor(tdn_gltf__doc *doc, int index, const char *use, int components, unsigned formats,
                                   const float **values, int *count)
{
    tdn_gltf__decoded *cached = &doc->decoded[index];
    if (cached->values && cached->components == components && (cached->format & formats)) {
        *values = cached->values; /* read before, for the same kind of use */
        *count = cached->count;
        return TDN_OK;
    }
    const cJSON *json = doc->accessors.items[index];
    tdn_gltf__path where;
    tdn_gltf__item(where, "", "accessors", index);
    uint64_t type = 0, n = 0;
    const char *type_text = NULL;
    tdn_result r = tdn_gltf__required_integer(doc, json, "componentType", 0, 65535, where, &type);
    if (r == TDN_OK)
        r = tdn_gltf__required_integer(doc, json, "count", 1, (uint64_t)1 << 53, where, &n);
    if (r == TDN_OK)
        r = tdn_gltf__string(doc, json, "type", where, &type_text);
    if (r != TDN_OK)
        return r;
    const cJSON *normalized_json = cJSON_GetObjectItemCaseSensitive(json, "normalized");
    if (normalized_json && !cJSON_IsBool(normalized_json))
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "'normalized' must be true or false");
    const int normalized = cJSON_IsTrue(normalized_json);
    if (!type_text)
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "the required 'type' is missing");
    if (!component_name((int)type))
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where, "unknown componentType %llu", (unsigned long long)type);
    if (normalized && (type == FLOAT || type == UNSIGNED_INT))
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where, "a %s accessor cannot be normalized",
                              component_name((int)type));
    if (strcmp(type_text, type_name(components)) != 0 || !(format_of((int)type, normalized) & formats)) {
        char expected[200];
        describe_formats(formats, expected, sizeof expected);
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, use, "accessor %d is %.16s of %s%s; this needs %s of %s",
                              index, type_text, normalized ? "normalized " : "", component_name((int)type),
                              type_name(components), expected);
    }
    if (!cached->values) {
        const uint64_t total = n * (uint64_t)components;
        if (total > doc->values_left)
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where,
                                  "%llu elements exceed what tendon decodes from a file of this size (%llu more "
                                  "values)",
                                  (unsigned long long)n, (unsigned long long)doc->values_left);
        accessor_info a = { index,  (int)type,  normalized,
                            (int)n, components, (uint64_t)component_size((int)type) * (uint64_t)components };
        float *decoded = malloc(sizeof(float) * (size_t)total);
        if (!decoded)
            return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, where, "out of memory for %llu values",
                                  (unsigned long long)total);
        if ((r = decode(doc, json, &a, decoded)) != TDN_OK) {
            free(decoded);
            return r;
        }
        doc->values_left -= total;
        cached->values = decoded;
        cached->count = (int)n;
        cached->components = components;
        cached->format = format_of((int)type, normalized);
    }
    *values = cached->values;
    *count = cached->count;
    return TDN_OK;
}
