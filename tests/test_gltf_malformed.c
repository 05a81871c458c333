/* glTF import of hostile input: every malformed file fails with the right code, a `where`
 * naming the place (a JSON path, or "byte N" in a GLB), no asset, and nothing left allocated
 * (the asset's allocations are counted here; scratch memory is checked by the sanitizer
 * build). Truncated GLBs at every length, wrong chunk lengths, bad JSON, accessors outside
 * their buffers, indices out of range, cycles, NaN and infinity, unknown required
 * extensions, wrong accessor types and counts, and random corruption of valid files. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "test_gltf_builder.h"
#include "tendon/io/asset.h"

enum { BYTE = 5120, UBYTE = 5121, SHORT = 5122, USHORT = 5123, FLOAT = 5126 };

/* Loads data with the counting allocator; checks the code, the exact `where` (NULL: any
 * "byte N"), no asset and no leak. */
static void expect_failure_at(const void *data, size_t size, const char *base_dir, tdn_result code, const char *where,
                              const char *message_part, int line)
{
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    tdn_asset_load_options options = { .base_dir = base_dir };
    tdn_result r = tdn_asset_load_memory(data, size, &options, &asset, &counting, &err);
    int ok = CHECK_EQ_INT(r, code);
    ok &= CHECK(asset == NULL);
    ok &= where ? CHECK(strcmp(err.where, where) == 0) : CHECK(strncmp(err.where, "byte ", 5) == 0);
    if (message_part)
        ok &= CHECK(strstr(err.message, message_part) != NULL);
    ok &= CHECK_EQ_INT(live_blocks, 0);
    if (!ok)
        fprintf(stderr, "  line %d: got %s at '%s': %s\n", line, tdn_result_name(r), err.where, err.message);
    tdn_asset_destroy(asset);
}
#define EXPECT_FAILURE(data, size, code, where) expect_failure_at(data, size, NULL, code, where, NULL, __LINE__)
#define EXPECT_JSON_FAILURE(json, code, where) expect_failure_at(json, strlen(json), NULL, code, where, NULL, __LINE__)

/* ---- a document with one of everything the cases below refer to ---- */

enum {
    TIMES,          /* SCALAR [0, 1] */
    TRANSLATIONS,   /* VEC3 x 2 */
    ROTATIONS,      /* VEC4 x 2 */
    THREE_VEC3,     /* VEC3 x 3: a wrong count for 2 keys */
    NAN_VEC3,       /* VEC3 x 2 with a NaN */
    DECREASING,     /* SCALAR [1, 0.5] */
    ZERO_QUATS,     /* VEC4 x 2, the second all zero */
    BYTE_VEC3,      /* normalized BYTE VEC3 x 2: not allowed for translations */
    OUT_OF_VIEW,    /* VEC3 x 100 on a 24-byte view */
    SPARSE_BEYOND,  /* sparse index 7 in a 2-element accessor */
    SPARSE_REPEAT,  /* sparse indices 1, 1 */
    HUGE_ZEROS,     /* 10^9 elements, no buffer view */
    NEGATIVE_TIMES, /* SCALAR [-1, 0] */
    NAN_MATRIX,     /* MAT4 with a NaN */
    JOINT_5,        /* JOINTS_0 VEC4 UNSIGNED_BYTE (5, 0, 0, 0) */
    WEIGHTS,        /* VEC4 float (1, 0, 0, 0) */
    POSITION,       /* VEC3 float */
    SHORT_POSITION, /* VEC3 SHORT: needs KHR_mesh_quantization */
    SHORT_STRIDE,   /* VEC3 float on a view of byteStride 4 */
    SPARSE_SHORT,   /* sparse values view shorter than its count */
    OFFSET_BEYOND,  /* byteOffset past the end of its view */
    THREE_WEIGHTS,  /* SCALAR x 3: not a whole number of targets for 2 keys */
    INF_TIMES,      /* SCALAR [0, inf] */
    MANY_WEIGHTS,   /* SCALAR x 2050 zeros: 1025 morph targets for 2 keys */
    INDEX_5         /* SCALAR UNSIGNED_BYTE (0, 5, 0): a triangle naming vertex 5 */
};

static void add_sparse(gltf_builder *b, int count, const unsigned char *indices, int index_count, int values_bytes)
{
    const float values[12] = { 0 };
    int iv = gb_view(b, indices, (size_t)index_count, 0), vv = gb_view(b, values, (size_t)values_bytes, 0);
    char sparse[256];
    snprintf(sparse, sizeof sparse,
             ",\"sparse\":{\"count\":%d,\"indices\":{\"bufferView\":%d,\"componentType\":5121},"
             "\"values\":{\"bufferView\":%d}}",
             index_count, iv, vv);
    gb_accessor(b, -1, 0, FLOAT, 0, count, "VEC3", sparse);
}

static void build_everything(gltf_builder *b)
{
    const float times[] = { 0, 1 }, vec3[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, quats[] = { 0, 0, 0, 1, 0, 0, 1, 0 };
    const float nan3[] = { 0, NAN, 0, 1, 1, 1 }, decreasing[] = { 1, 0.5f }, zero_quats[] = { 0, 0, 0, 1, 0, 0, 0, 0 };
    const float negative[] = { -1, 0 }, inf_times[] = { 0, INFINITY };
    const int bytes[] = { 1, 2, 3, 4, 5, 6 }, joint5[] = { 5, 0, 0, 0 }, short_position[] = { 1, 2, 3 };
    float nan_matrix[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    nan_matrix[13] = NAN;
    const float weights[] = { 1, 0, 0, 0 };
    gb_floats(b, "SCALAR", 2, times);
    gb_floats(b, "VEC3", 2, vec3);
    gb_floats(b, "VEC4", 2, quats);
    gb_floats(b, "VEC3", 3, vec3);
    gb_floats(b, "VEC3", 2, nan3);
    gb_floats(b, "SCALAR", 2, decreasing);
    gb_floats(b, "VEC4", 2, zero_quats);
    gb_ints(b, "VEC3", 2, BYTE, 1, bytes);
    gb_accessor(b, gb_view(b, vec3, 24, 0), 0, FLOAT, 0, 100, "VEC3", "");
    const unsigned char beyond[] = { 7 }, repeat[] = { 1, 1 };
    add_sparse(b, 2, beyond, 1, 12);
    add_sparse(b, 2, repeat, 2, 24);
    gb_accessor(b, -1, 0, FLOAT, 0, 1000000000, "VEC3", "");
    gb_floats(b, "SCALAR", 2, negative);
    gb_floats(b, "MAT4", 1, nan_matrix);
    gb_ints(b, "VEC4", 1, UBYTE, 0, joint5);
    gb_floats(b, "VEC4", 1, weights);
    gb_floats(b, "VEC3", 1, vec3);
    gb_ints(b, "VEC3", 1, SHORT, 0, short_position);
    gb_accessor(b, gb_view(b, vec3, 36, 4), 0, FLOAT, 0, 2, "VEC3", "");
    add_sparse(b, 2, repeat, 2, 12);
    gb_accessor(b, gb_view(b, vec3, 24, 0), 28, FLOAT, 0, 1, "VEC3", "");
    gb_floats(b, "SCALAR", 3, vec3);
    gb_floats(b, "SCALAR", 2, inf_times);
    gb_accessor(b, -1, 0, FLOAT, 0, 2050, "SCALAR", "");
    const int index5[] = { 0, 5, 0 };
    gb_ints(b, "SCALAR", 3, UBYTE, 0, index5);
}

/* The document with `body` (nodes, animations ...) as base64 JSON; caller frees. */
static char *document(const char *body)
{
    gltf_builder b = { 0 };
    build_everything(&b);
    char *json = gb_json(&b, body, GB_EMBEDDED, NULL);
    gb_free(&b);
    return json;
}

/* One animation of node 0 ("N", or a matrix node when asked) with one sampler. */
static void expect_channel_failure(const char *path, int input, int output, const char *interpolation, tdn_result code,
                                   const char *where, int line)
{
    char body[512];
    snprintf(body, sizeof body,
             "\"nodes\":[{\"name\":\"N\"}],\"animations\":[{\"samplers\":[{\"input\":%d,\"output\":%d,"
             "\"interpolation\":\"%s\"}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"%s\"}}]}]",
             input, output, interpolation, path);
    char *json = document(body);
    expect_failure_at(json, strlen(json), NULL, code, where, NULL, line);
    free(json);
}
#define EXPECT_CHANNEL_FAILURE(path, input, output, interpolation, code, where) \
  expect_channel_failure(path, input, output, interpolation, code, where, __LINE__)

/* ---- GLB container ---- */

static unsigned char *valid_glb(size_t *size)
{
    gltf_builder b = { 0 };
    build_everything(&b);
    unsigned char *glb = gb_glb(
        &b,
        "\"nodes\":[{\"name\":\"N\"}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]",
        size);
    gb_free(&b);
    return glb;
}

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16),
    p[3] = (unsigned char)(v >> 24);
}

static void truncated_glb_at_every_length(void)
{
    size_t size;
    unsigned char *glb = valid_glb(&size);
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_asset_load_memory(glb, size, NULL, &asset, NULL, &err), TDN_OK); /* the whole file loads */
    tdn_asset_destroy(asset);
    for (size_t n = 0; n < size; n++) {
        unsigned char *copy = malloc(n + 1); /* exactly n bytes readable (+1 for malloc(0)) */
        memcpy(copy, glb, n);
        /* no bytes at all are not a GLB yet: tdn_asset_load_memory reads them as an empty BVH text */
        EXPECT_FAILURE(copy, n, TDN_ERR_PARSE, n == 0 ? "line 1" : NULL);
        /* the header's length matching the cut, so the chunks themselves are truncated */
        if (n >= 12) {
            put_u32(copy + 8, (uint32_t)n);
            const uint32_t json_length = (uint32_t)(glb[12] | glb[13] << 8 | glb[14] << 16 | (uint32_t)glb[15] << 24);
            if (n == 20 + json_length) /* a whole GLB without its BIN chunk */
                EXPECT_FAILURE(copy, n, TDN_ERR_INVALID_DATA, "buffers[0]");
            else
                EXPECT_FAILURE(copy, n, TDN_ERR_PARSE, NULL);
        }
        free(copy);
    }
    free(glb);
}

static void wrong_glb_headers_and_chunk_lengths(void)
{
    size_t size;
    unsigned char *glb = valid_glb(&size);
    unsigned char *copy = malloc(size);
    const uint32_t json_length = (uint32_t)(glb[12] | glb[13] << 8 | glb[14] << 16 | (uint32_t)glb[15] << 24);
    const size_t bin_header = 20 + json_length;
    struct {
        size_t at;
        uint32_t value;
        tdn_result code;
        const char *where;
    } cases[] = {
        { 4, 1, TDN_ERR_UNSUPPORTED, "byte 4" },                             /* version 1 */
        { 8, (uint32_t)size + 4, TDN_ERR_PARSE, NULL },                      /* longer than the data */
        { 8, (uint32_t)size - 4, TDN_ERR_PARSE, "byte 8" },                  /* shorter than the data */
        { 12, json_length - 1, TDN_ERR_PARSE, "byte 12" },                   /* not a multiple of 4 */
        { 12, json_length + 4 * 1000, TDN_ERR_PARSE, "byte 12" },            /* past the end */
        { 12, 0xFFFFFFFCu, TDN_ERR_PARSE, "byte 12" },                       /* absurd */
        { 16, 0x004E4942u, TDN_ERR_PARSE, "byte 16" },                       /* BIN first */
        { bin_header, (uint32_t)(size - bin_header), TDN_ERR_PARSE, NULL },  /* BIN past the end */
        { bin_header + 4, 0x4E4F534Au, TDN_ERR_PARSE, NULL },                /* a second JSON chunk */
        { bin_header + 4, 0x12345678u, TDN_ERR_INVALID_DATA, "buffers[0]" }, /* unknown chunk: no BIN */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(copy, glb, size);
        put_u32(copy + cases[i].at, cases[i].value);
        expect_failure_at(copy, size, NULL, cases[i].code, cases[i].where, NULL, (int)(1000 + i));
    }
    /* buffer 0 claims more bytes than the BIN chunk has */
    gltf_builder b = { 0 };
    const float times[] = { 0, 1 };
    gb_floats(&b, "SCALAR", 2, times);
    size_t small_size;
    unsigned char *small = gb_glb(&b,
                                  "\"nodes\":[{}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":0}],"
                                  "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}]}]",
                                  &small_size);
    char *json_at = (char *)small + 20;
    char *length = strstr(json_at, "\"byteLength\":8}]");
    if (CHECK(length != NULL)) {
        memcpy(length, "\"byteLength\":9}]", 16);
        EXPECT_FAILURE(small, small_size, TDN_ERR_INVALID_DATA, "buffers[0]");
    }
    free(small);
    gb_free(&b);
    free(copy);
    free(glb);
}

/* ---- JSON ---- */

static void bad_json_and_versions(void)
{
    EXPECT_JSON_FAILURE("", TDN_ERR_PARSE, "line 1"); /* no JSON at all: read as an empty BVH text */
    EXPECT_JSON_FAILURE("{\"asset\":", TDN_ERR_PARSE, NULL);
    /* the unexpected ']' itself, at byte 37 */
    EXPECT_JSON_FAILURE("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{]}", TDN_ERR_PARSE, "byte 37");
    EXPECT_JSON_FAILURE("{\"asset\":{\"version\":\"2.0\"}} trailing", TDN_ERR_PARSE, "byte 28");
    EXPECT_JSON_FAILURE("[1, 2]", TDN_ERR_PARSE, "byte 0");
    EXPECT_JSON_FAILURE("{\"nodes\":[{}]}", TDN_ERR_PARSE, "asset");
    EXPECT_JSON_FAILURE("{\"asset\":{},\"nodes\":[{}]}", TDN_ERR_PARSE, "asset.version");
    EXPECT_JSON_FAILURE("{\"asset\":{\"version\":\"1.0\"},\"nodes\":{}}", TDN_ERR_UNSUPPORTED, "asset.version");
    EXPECT_JSON_FAILURE("{\"asset\":{\"version\":\"2.0\",\"minVersion\":\"2.1\"}}", TDN_ERR_UNSUPPORTED,
                        "asset.minVersion");
    EXPECT_JSON_FAILURE("{\"asset\":{\"version\":\"2.0\"},\"nodes\":{}}", TDN_ERR_PARSE, "nodes");
    EXPECT_JSON_FAILURE("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[1]}", TDN_ERR_PARSE, "nodes[0]");
    EXPECT_JSON_FAILURE("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":7}]}", TDN_ERR_PARSE, "nodes[0].name");
    EXPECT_JSON_FAILURE("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"translation\":[1,2]}]}", TDN_ERR_PARSE,
                        "nodes[0].translation");
    EXPECT_JSON_FAILURE("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":0.5}]}", TDN_ERR_PARSE, "nodes[0].mesh");
    EXPECT_JSON_FAILURE("{\"asset\":{\"version\":\"2.0\"}}", TDN_ERR_UNSUPPORTED, "nodes"); /* nothing to import */
    /* nesting deeper than cJSON's limit */
    char deep[4200];
    memset(deep, '[', 2100);
    memset(deep + 2100, ']', 2099);
    deep[4199] = 0;
    EXPECT_JSON_FAILURE(deep, TDN_ERR_PARSE, NULL);
    /* a byte-order mark is tolerated, and so are a GLB's padding spaces */
    const char *bom = "\xEF\xBB\xBF{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}]}   ";
    tdn_asset *asset = NULL;
    CHECK_EQ_INT(tdn_asset_load_memory(bom, strlen(bom), NULL, &asset, NULL, NULL), TDN_OK);
    tdn_asset_destroy(asset);
}

static void unknown_required_extension(void)
{
    const char *draco = "{\"asset\":{\"version\":\"2.0\"},\"extensionsRequired\":[\"KHR_draco_mesh_compression\"],"
                        "\"nodes\":[{}]}";
    expect_failure_at(draco, strlen(draco), NULL, TDN_ERR_UNSUPPORTED, "extensionsRequired[0]",
                      "KHR_draco_mesh_compression", __LINE__);
    EXPECT_JSON_FAILURE("{\"asset\":{\"version\":\"2.0\"},\"extensionsRequired\":[\"KHR_materials_unlit\",\"EXT_x\"],"
                        "\"nodes\":[{}]}",
                        TDN_ERR_UNSUPPORTED, "extensionsRequired[1]");
    /* extensions that only touch materials, textures or lights do not stop the import */
    const char *json = "{\"asset\":{\"version\":\"2.0\"},\"extensionsRequired\":[\"KHR_texture_transform\","
                       "\"KHR_materials_unlit\"],\"nodes\":[{}]}";
    tdn_asset *asset = NULL;
    CHECK_EQ_INT(tdn_asset_load_memory(json, strlen(json), NULL, &asset, NULL, NULL), TDN_OK);
    tdn_asset_destroy(asset);
}

/* ---- buffers and accessors ---- */

static void accessors_and_views_out_of_bounds(void)
{
    EXPECT_CHANNEL_FAILURE("translation", TIMES, OUT_OF_VIEW, "LINEAR", TDN_ERR_INVALID_DATA, "accessors[8]");
    EXPECT_CHANNEL_FAILURE("translation", TIMES, OFFSET_BEYOND, "LINEAR", TDN_ERR_INVALID_DATA, "accessors[20]");
    EXPECT_CHANNEL_FAILURE("translation", TIMES, SHORT_STRIDE, "LINEAR", TDN_ERR_INVALID_DATA, "accessors[18]");
    EXPECT_CHANNEL_FAILURE("translation", TIMES, SPARSE_BEYOND, "LINEAR", TDN_ERR_INVALID_DATA,
                           "accessors[9].sparse.indices");
    EXPECT_CHANNEL_FAILURE("translation", TIMES, SPARSE_REPEAT, "LINEAR", TDN_ERR_INVALID_DATA,
                           "accessors[10].sparse.indices");
    EXPECT_CHANNEL_FAILURE("translation", TIMES, SPARSE_SHORT, "LINEAR", TDN_ERR_INVALID_DATA,
                           "accessors[19].sparse.values");
    EXPECT_CHANNEL_FAILURE("translation", TIMES, HUGE_ZEROS, "LINEAR", TDN_ERR_INVALID_DATA, "accessors[11]");
    /* a buffer view past its buffer; bad base64; URIs that leave the folder, name a scheme, or
     * a missing file */
    static const struct {
        const char *uri;
        int offset;
        const char *base_dir;
        tdn_result code;
        const char *where;
    } uris[] = {
        { "data:application/octet-stream;base64,AAAAAA==", 2, NULL, TDN_ERR_INVALID_DATA, "bufferViews[0]" },
        { "data:application/octet-stream;base64,AA*AAA==", 0, NULL, TDN_ERR_PARSE, "buffers[0].uri" },
        { "data:application/octet-stream,AAAAAA==", 0, NULL, TDN_ERR_UNSUPPORTED, "buffers[0].uri" },
        { "../../../../etc/passwd", 0, NULL, TDN_ERR_INVALID_DATA, "buffers[0] (../../../../etc/passwd)" },
        { "a/../../b.bin", 0, "/tmp", TDN_ERR_INVALID_DATA, "buffers[0] (a/../../b.bin)" },
        { "http://example.com/b.bin", 0, "/tmp", TDN_ERR_UNSUPPORTED, "buffers[0].uri" },
        { "missing.bin", 0, "/nonexistent-folder", TDN_ERR_IO, "buffers[0] (missing.bin)" },
        { "missing.bin", 0, NULL, TDN_ERR_ARGUMENT, "buffers[0] (missing.bin)" }, /* no folder given */
    };
    for (size_t i = 0; i < sizeof uris / sizeof uris[0]; i++) {
        char json[1024];
        snprintf(json, sizeof json,
                 "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"N\"}],\"buffers\":[{\"byteLength\":4,"
                 "\"uri\":\"%s\"}],\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%d,\"byteLength\":4}],"
                 "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"}],"
                 "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":0}],\"channels\":[{\"sampler\":0,"
                 "\"target\":{\"node\":0,\"path\":\"weights\"}}]}]}",
                 uris[i].uri, uris[i].offset);
        expect_failure_at(json, strlen(json), uris[i].base_dir, uris[i].code, uris[i].where, NULL, (int)(3000 + i));
    }
    EXPECT_JSON_FAILURE("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"buffers\":[{\"byteLength\":4}],"
                        "\"bufferViews\":[{\"buffer\":0,\"byteLength\":4}],\"accessors\":[{\"bufferView\":0,"
                        "\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"}],\"animations\":[{\"samplers\":"
                        "[{\"input\":0,\"output\":0}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":"
                        "\"weights\"}}]}]}",
                        TDN_ERR_INVALID_DATA, "buffers[0]");
}

static void wrong_accessor_types_counts_and_values(void)
{
    EXPECT_CHANNEL_FAILURE("rotation", TIMES, TRANSLATIONS, "LINEAR", TDN_ERR_INVALID_DATA,
                           "animations[0].samplers[0].output");
    EXPECT_CHANNEL_FAILURE("translation", TIMES, BYTE_VEC3, "LINEAR", TDN_ERR_INVALID_DATA,
                           "animations[0].samplers[0].output");
    EXPECT_CHANNEL_FAILURE("translation", TIMES, THREE_VEC3, "LINEAR", TDN_ERR_INVALID_DATA,
                           "animations[0].samplers[0].output");
    EXPECT_CHANNEL_FAILURE("translation", TIMES, TRANSLATIONS, "CUBICSPLINE", TDN_ERR_INVALID_DATA,
                           "animations[0].samplers[0].output"); /* cubic needs 3 values per key */
    EXPECT_CHANNEL_FAILURE("weights", TIMES, THREE_WEIGHTS, "LINEAR", TDN_ERR_INVALID_DATA,
                           "animations[0].samplers[0].output");
    EXPECT_CHANNEL_FAILURE("translation", TRANSLATIONS, TRANSLATIONS, "LINEAR", TDN_ERR_INVALID_DATA,
                           "animations[0].samplers[0].input");
    EXPECT_CHANNEL_FAILURE("translation", DECREASING, TRANSLATIONS, "LINEAR", TDN_ERR_INVALID_DATA,
                           "animations[0].samplers[0].input");
    EXPECT_CHANNEL_FAILURE("translation", NEGATIVE_TIMES, TRANSLATIONS, "LINEAR", TDN_ERR_INVALID_DATA,
                           "animations[0].samplers[0].input");
    EXPECT_CHANNEL_FAILURE("translation", TIMES, TRANSLATIONS, "QUADRATIC", TDN_ERR_INVALID_DATA,
                           "animations[0].samplers[0]");
    EXPECT_CHANNEL_FAILURE("rotation", TIMES, ZERO_QUATS, "STEP", TDN_ERR_INVALID_DATA,
                           "animations[0].samplers[0].output");
    EXPECT_CHANNEL_FAILURE("translation", TIMES, NAN_VEC3, "LINEAR", TDN_ERR_INVALID_DATA, "accessors[4]");
    EXPECT_CHANNEL_FAILURE("translation", INF_TIMES, TRANSLATIONS, "LINEAR", TDN_ERR_INVALID_DATA, "accessors[22]");
    EXPECT_CHANNEL_FAILURE("weights", TIMES, MANY_WEIGHTS, "LINEAR", TDN_ERR_INVALID_DATA,
                           "animations[0].samplers[0].output");
    EXPECT_CHANNEL_FAILURE("translation", TIMES, 99, "LINEAR", TDN_ERR_INVALID_DATA,
                           "animations[0].samplers[0].output");
}

/* ---- structure ---- */

static void indices_out_of_range_cycles_and_bad_nodes(void)
{
    static const struct {
        const char *body;
        tdn_result code;
        const char *where;
    } cases[] = {
        { "\"nodes\":[{\"children\":[1]},{\"children\":[0]}]", TDN_ERR_INVALID_DATA, "nodes[0]" },
        { "\"nodes\":[{\"children\":[1]},{\"children\":[2]},{\"children\":[1]}]", TDN_ERR_INVALID_DATA,
          "nodes[2].children[0]" },
        { "\"nodes\":[{\"children\":[0]}]", TDN_ERR_INVALID_DATA, "nodes[0].children[0]" },
        { "\"nodes\":[{\"children\":[1]},{},{\"children\":[1]}]", TDN_ERR_INVALID_DATA, "nodes[2].children[0]" },
        { "\"nodes\":[{\"children\":[9]}]", TDN_ERR_INVALID_DATA, "nodes[0].children[0]" },
        { "\"nodes\":[{\"children\":[-1]}]", TDN_ERR_INVALID_DATA, "nodes[0].children[0]" },
        { "\"nodes\":[{\"mesh\":3}]", TDN_ERR_INVALID_DATA, "nodes[0].mesh" },
        { "\"nodes\":[{\"skin\":0}]", TDN_ERR_INVALID_DATA, "nodes[0].skin" },
        { "\"nodes\":[{\"translation\":[0,1e39,0]}]", TDN_ERR_INVALID_DATA, "nodes[0].translation" },
        { "\"nodes\":[{\"translation\":[0,1e999,0]}]", TDN_ERR_INVALID_DATA, "nodes[0].translation" },
        { "\"nodes\":[{\"rotation\":[0,0,0,0]}]", TDN_ERR_INVALID_DATA, "nodes[0].rotation" },
        { "\"nodes\":[{\"scale\":[1,0,1]}]", TDN_ERR_INVALID_DATA, "nodes[0]" },
        { "\"nodes\":[{\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],\"scale\":[1,1,1]}]", TDN_ERR_INVALID_DATA,
          "nodes[0].matrix" },
        { "\"nodes\":[{\"matrix\":[1,0,0,1,0,1,0,0,0,0,1,0,0,0,0,1]}]", TDN_ERR_INVALID_DATA, "nodes[0].matrix" },
        { "\"nodes\":[{}],\"skins\":[{\"joints\":[]}]", TDN_ERR_INVALID_DATA, "skins[0]" },
        { "\"nodes\":[{}],\"skins\":[{\"joints\":[1]}]", TDN_ERR_INVALID_DATA, "skins[0].joints[0]" },
        { "\"nodes\":[{}],\"skins\":[{\"joints\":[0,0]}]", TDN_ERR_INVALID_DATA, "skins[0].joints[1]" },
        { "\"nodes\":[{}],\"skins\":[{\"joints\":[0],\"skeleton\":4}]", TDN_ERR_INVALID_DATA, "skins[0].skeleton" },
        { "\"nodes\":[{}],\"skins\":[{\"joints\":[0],\"inverseBindMatrices\":13}]", TDN_ERR_INVALID_DATA,
          "accessors[13]" },
        { "\"nodes\":[{}],\"skins\":[{\"joints\":[0],\"inverseBindMatrices\":1}]", TDN_ERR_INVALID_DATA,
          "skins[0].inverseBindMatrices" },
        { "\"nodes\":[{\"name\":\"N\"}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":"
          "[{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]",
          TDN_ERR_INVALID_DATA, "animations[0].channels[0].sampler" },
        { "\"nodes\":[{\"name\":\"N\"}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":"
          "[{\"sampler\":0,\"target\":{\"node\":7,\"path\":\"translation\"}}]}]",
          TDN_ERR_INVALID_DATA, "animations[0].channels[0].target.node" },
        { "\"nodes\":[{\"name\":\"N\"}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":"
          "[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
          "{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]",
          TDN_ERR_INVALID_DATA, "animations[0].channels[1].target" },
        { "\"nodes\":[{\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}],\"animations\":[{\"samplers\":[{\"input\":0,"
          "\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}]",
          TDN_ERR_INVALID_DATA, "animations[0].channels[0].target" },
        { "\"nodes\":[{}],\"animations\":[{\"samplers\":[]}]", TDN_ERR_PARSE, "animations[0]" },
        { "\"nodes\":[{}],\"animations\":[{\"samplers\":[{\"input\":0}],\"channels\":[{\"sampler\":0,"
          "\"target\":{\"node\":0,\"path\":\"scale\"}}]}]",
          TDN_ERR_PARSE, "animations[0].samplers[0].output" },
        { "\"nodes\":[{}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0}]}]",
          TDN_ERR_PARSE, "animations[0].channels[0].target" },
        /* mesh data */
        { "\"nodes\":[{},{\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[0]}],\"meshes\":[{\"primitives\":"
          "[{\"attributes\":{\"POSITION\":16,\"JOINTS_0\":14,\"WEIGHTS_0\":15}}]}]",
          TDN_ERR_INVALID_DATA, "meshes[0].primitives[0].attributes" },
        { "\"nodes\":[{},{\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[0]}],\"meshes\":[{\"primitives\":"
          "[{\"attributes\":{\"POSITION\":16,\"JOINTS_0\":14}}]}]",
          TDN_ERR_INVALID_DATA, "meshes[0].primitives[0].attributes" },
        { "\"nodes\":[{},{\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[0]}],\"meshes\":[{\"primitives\":"
          "[{\"attributes\":{\"POSITION\":17,\"JOINTS_0\":14,\"WEIGHTS_0\":15}}]}]",
          TDN_ERR_INVALID_DATA, "meshes[0].primitives[0].attributes.POSITION" },
        { "\"nodes\":[{},{\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[0]}],\"meshes\":[{\"primitives\":"
          "[{\"attributes\":{\"POSITION\":1,\"JOINTS_0\":14,\"WEIGHTS_0\":15}}]}]",
          TDN_ERR_INVALID_DATA, "meshes[0].primitives[0].attributes" },
        { "\"nodes\":[{},{\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[0]}],\"meshes\":[{\"primitives\":"
          "[{\"attributes\":{\"POSITION\":16,\"JOINTS_0\":15,\"WEIGHTS_0\":15}}]}]",
          TDN_ERR_INVALID_DATA, "meshes[0].primitives[0].attributes.JOINTS_0" },
        /* triangles: an index beyond POSITION's one vertex, indices as FLOAT, an unknown mode */
        { "\"nodes\":[{},{\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[0]}],\"meshes\":[{\"primitives\":"
          "[{\"attributes\":{\"POSITION\":16,\"JOINTS_0\":14,\"WEIGHTS_0\":15},\"indices\":24}]}]",
          TDN_ERR_INVALID_DATA, "meshes[0].primitives[0].indices" },
        { "\"nodes\":[{},{\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[0]}],\"meshes\":[{\"primitives\":"
          "[{\"attributes\":{\"POSITION\":16,\"JOINTS_0\":14,\"WEIGHTS_0\":15},\"indices\":0}]}]",
          TDN_ERR_INVALID_DATA, "meshes[0].primitives[0].indices" },
        { "\"nodes\":[{},{\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[0]}],\"meshes\":[{\"primitives\":"
          "[{\"attributes\":{\"POSITION\":16,\"JOINTS_0\":14,\"WEIGHTS_0\":15},\"mode\":7}]}]",
          TDN_ERR_INVALID_DATA, "meshes[0].primitives[0].mode" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *json = document(cases[i].body);
        expect_failure_at(json, strlen(json), NULL, cases[i].code, cases[i].where, NULL, (int)(2000 + i));
        free(json);
    }
    /* an inverse bind matrix with a NaN */
    char *json = document("\"nodes\":[{}],\"skins\":[{\"joints\":[0],\"inverseBindMatrices\":13}]");
    expect_failure_at(json, strlen(json), NULL, TDN_ERR_INVALID_DATA, "accessors[13]", "not finite", __LINE__);
    free(json);
}

/* Random corruption of valid files (bytes overwritten, runs deleted): whatever happens, no
 * crash, no leak, an asset or an error with a place. */
static void random_corruption_never_crashes(void)
{
    size_t size;
    unsigned char *glb = valid_glb(&size);
    char *json = document(
        "\"nodes\":[{\"name\":\"N\",\"children\":[1]},{\"name\":\"M\"}],\"skins\":[{\"joints\":[0,1]}],"
        "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":2,\"interpolation\":\"STEP\"}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}}]}]");
    const size_t json_size = strlen(json);
    unsigned char *copy = malloc(size > json_size ? size : json_size);
    check_rng rng = { 0x9e3779b97f4a7c15ull };
    int loaded = 0, failed = 0;
    for (int round = 0; round < 4000; round++) {
        const int is_glb = round % 2 == 0;
        const unsigned char *original = is_glb ? glb : (const unsigned char *)json;
        size_t n = is_glb ? size : json_size;
        memcpy(copy, original, n);
        const int edits = 1 + (int)(check_rng_u32(&rng) % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = check_rng_u32(&rng) % n;
            if (check_rng_u32(&rng) % 4 == 0 && n > 8) { /* delete a run */
                size_t run = 1 + check_rng_u32(&rng) % 8;
                if (at + run > n)
                    run = n - at;
                memmove(copy + at, copy + at + run, n - at - run);
                n -= run;
            } else {
                copy[at] = (unsigned char)check_rng_u32(&rng);
            }
        }
        tdn_asset *asset = NULL;
        tdn_error err = { 0 };
        tdn_asset_load_options options = { 0 };
        if (tdn_asset_load_memory(copy, n, &options, &asset, &counting, &err) == TDN_OK) {
            loaded++;
        } else {
            failed++;
            if (!CHECK(asset == NULL && err.code != TDN_OK && err.message[0]))
                break;
        }
        tdn_asset_destroy(asset);
        if (!CHECK_EQ_INT(live_blocks, 0))
            break;
    }
    printf("corruption: %d loaded, %d failed cleanly\n", loaded, failed);
    CHECK(failed > 1000);
    free(copy);
    free(json);
    free(glb);
}

static void bad_arguments(void)
{
    tdn_asset *asset = (tdn_asset *)&asset;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_asset_load_memory(NULL, 4, NULL, &asset, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK(asset == NULL);
    CHECK_EQ_INT(tdn_asset_load_memory("{}", 2, NULL, NULL, NULL, &err), TDN_ERR_ARGUMENT);
    const char *json = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}]}";
    CHECK_EQ_INT(
        tdn_asset_load_memory(json, strlen(json), &(tdn_asset_load_options){ .scale = -1 }, &asset, NULL, &err),
        TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(
        tdn_asset_load_memory(json, strlen(json), &(tdn_asset_load_options){ .scale = NAN }, &asset, NULL, &err),
        TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(
        tdn_asset_load_memory(json, strlen(json), &(tdn_asset_load_options){ .skin = "0" }, &asset, NULL, &err),
        TDN_ERR_ARGUMENT); /* no skins at all */
}

int main(void)
{
    RUN(truncated_glb_at_every_length);
    RUN(wrong_glb_headers_and_chunk_lengths);
    RUN(bad_json_and_versions);
    RUN(unknown_required_extension);
    RUN(accessors_and_views_out_of_bounds);
    RUN(wrong_accessor_types_counts_and_values);
    RUN(indices_out_of_range_cycles_and_bad_nodes);
    RUN(random_corruption_never_crashes);
    RUN(bad_arguments);
    return check_summary();
}
