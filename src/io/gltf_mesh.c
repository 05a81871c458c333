/* tendon io glTF: meshes skinned by the chosen skin.
 *
 * Every mesh that a node instantiates with the chosen skin gives one tdn_asset_mesh per
 * primitive that has JOINTS_0 and WEIGHTS_0 (and POSITION), in mesh order, each mesh once;
 * with JOINTS_1 and WEIGHTS_1 its vertices have 8 influences (influence_sets 2). A third set
 * (JOINTS_2) is not read, with a warning: tdn_skin_job takes at most 8.
 * It is named after the mesh ("mesh_<i>" when unnamed), with "_<p>" (the primitive's index)
 * when the mesh has several primitives. Joint indices, which glTF gives into the skin's joint
 * list, become skeleton indices; weights and quantized positions or normals become floats;
 * positions are multiplied by the import scale. Triangles become one list of indices
 * (counter-clockwise, as glTF winds front faces): TRIANGLES as stored, or 0..n-1 without an
 * indices accessor; TRIANGLE_STRIP and TRIANGLE_FAN unrolled by the spec's rules; POINTS and
 * LINES modes keep no indices. Every index is checked against the vertex count; a TRIANGLES
 * count that is not a multiple of 3 (invalid glTF) keeps its whole triangles, with a warning. Morph targets
 * and other attributes are not read. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

typedef struct attribute {
    const char *name;
    int accessor; /* -1: absent */
    const float *values;
    int count;
} attribute;

/* Reads a present attribute (its accessor index already looked up). */
static tdn_result read_attribute(tdn_gltf__doc *doc, const char *where, attribute *a, int components, unsigned formats)
{
    if (a->accessor < 0)
        return TDN_OK;
    tdn_gltf__path use;
    tdn_gltf__join(use, where, a->name);
    return tdn_gltf__read_accessor(doc, a->accessor, use, components, formats, &a->values, &a->count);
}

enum { POSITION, NORMAL, JOINTS_0, WEIGHTS_0, JOINTS_1, WEIGHTS_1, ATTRIBUTES };

enum { TRIANGLES = 4, TRIANGLE_STRIP = 5, TRIANGLE_FAN = 6 };
/* Float-decoded indices are exact below 2^24; more vertices than that is refused. */
#define MAX_INDEXED_VERTICES (1 << 24)

/* The primitive's triangles as a list of indices into its `vertices` vertices, into the
 * asset's memory (*out NULL and *count 0 for point and line modes). */
static tdn_result read_triangles(tdn_gltf__doc *doc, tdn_asset *asset, const char *where, const cJSON *json,
                                 int vertices, uint32_t **out, int *count)
{
    *out = NULL;
    *count = 0;
    uint64_t mode = TRIANGLES;
    int accessor = -1;
    tdn_result r = tdn_gltf__integer(doc, json, "mode", 0, 6, where, &mode);
    if (r == TDN_OK)
        r = tdn_gltf__index(doc, json, "indices", doc->accessors.count, where, &accessor);
    if (r != TDN_OK || mode < TRIANGLES)
        return r;
    tdn_gltf__path use;
    tdn_gltf__join(use, where, accessor >= 0 ? "indices" : "attributes.POSITION");
    if (vertices > MAX_INDEXED_VERTICES)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, use, "%d vertices: tendon takes at most %d in a triangle mesh",
                              vertices, MAX_INDEXED_VERTICES);
    const float *values = NULL;
    int n = vertices;
    if (accessor >= 0 &&
        (r = tdn_gltf__read_accessor(doc, accessor, use, 1, TDN_GLTF_UBYTE | TDN_GLTF_USHORT | TDN_GLTF_UINT, &values,
                                     &n)) != TDN_OK)
        return r;
    for (int i = 0; values && i < n; i++)
        if (values[i] >= (float)vertices)
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, use, "index %d is %.0f but POSITION has %d vertices", i,
                                  (double)values[i], vertices);
    if (mode == TRIANGLES && n % 3 != 0 && /* a documented repair: the loose end is dropped */
        (r = tdn_gltf__warn(doc, asset, "%s: %d %s make %d whole triangles; the last %d are ignored", use, n,
                            values ? "indices" : "vertices", n / 3, n % 3)) != TDN_OK)
        return r;
    const int64_t triangles = mode == TRIANGLES ? n / 3 : n >= 3 ? n - 2 : 0;
    if (triangles * 3 > INT_MAX)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, use, "%lld triangles are too many", (long long)triangles);
    if (triangles == 0)
        return TDN_OK;
    uint32_t *indices = tdn_io__asset_alloc(asset, sizeof(uint32_t) * 3 * (size_t)triangles);
    if (!indices)
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, use, "out of memory for %lld triangles",
                              (long long)triangles);
    for (int64_t t = 0; t < triangles; t++) {
        int64_t corner[3] = { 3 * t, 3 * t + 1, 3 * t + 2 };
        if (mode == TRIANGLE_STRIP) { /* every other triangle flips to keep the winding */
            corner[0] = t, corner[1] = t + 1 + t % 2, corner[2] = t + 2 - t % 2;
        } else if (mode == TRIANGLE_FAN) {
            corner[0] = t + 1, corner[1] = t + 2, corner[2] = 0;
        }
        for (int k = 0; k < 3; k++)
            indices[3 * t + k] = values ? (uint32_t)values[corner[k]] : (uint32_t)corner[k];
    }
    *out = indices;
    *count = (int)(triangles * 3);
    return TDN_OK;
}

static tdn_result read_primitive(tdn_gltf__doc *doc, const tdn_gltf__scene *scene, tdn_asset *asset, int m, int p,
                                 int primitive_count, const char *mesh_name, const cJSON *json)
{
    tdn_gltf__path where, attributes_where;
    snprintf(where, sizeof where, "meshes[%d].primitives[%d]", m, p);
    tdn_gltf__join(attributes_where, where, "attributes");
    const cJSON *attributes = NULL;
    if (!cJSON_IsObject(json))
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "must be a JSON object");
    tdn_result r = tdn_gltf__object(doc, json, "attributes", where, &attributes);
    if (r != TDN_OK)
        return r;
    attribute a[ATTRIBUTES] = {
        { "POSITION", -1, NULL, 0 },  { "NORMAL", -1, NULL, 0 },   { "JOINTS_0", -1, NULL, 0 },
        { "WEIGHTS_0", -1, NULL, 0 }, { "JOINTS_1", -1, NULL, 0 }, { "WEIGHTS_1", -1, NULL, 0 }
    };
    for (int i = 0; i < ATTRIBUTES && r == TDN_OK; i++)
        r = tdn_gltf__index(doc, attributes, a[i].name, doc->accessors.count, attributes_where, &a[i].accessor);
    if (r != TDN_OK)
        return r;
    if (a[JOINTS_0].accessor < 0 && a[WEIGHTS_0].accessor < 0)
        return TDN_OK; /* not skinned */
    for (int set = 0; set < 2; set++)
        if ((a[JOINTS_0 + 2 * set].accessor < 0) != (a[WEIGHTS_0 + 2 * set].accessor < 0))
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, attributes_where, "JOINTS_%d and WEIGHTS_%d come together",
                                  set, set);
    if (a[POSITION].accessor < 0)
        return TDN_OK; /* nothing to skin */
    if (cJSON_GetObjectItemCaseSensitive(attributes, "JOINTS_2") &&
        (r = tdn_gltf__warn(doc, asset,
                            "%s: JOINTS_2 and later influence sets are ignored: tendon skins 8 "
                            "influences per vertex (JOINTS_0 and JOINTS_1)",
                            attributes_where)) != TDN_OK)
        return r;

    const unsigned position_formats = TDN_GLTF_FLOAT |
                                      (doc->quantized ? TDN_GLTF_BYTE | TDN_GLTF_BYTE_NORM | TDN_GLTF_UBYTE |
                                                            TDN_GLTF_UBYTE_NORM | TDN_GLTF_SHORT | TDN_GLTF_SHORT_NORM |
                                                            TDN_GLTF_USHORT | TDN_GLTF_USHORT_NORM
                                                      : 0u);
    const unsigned normal_formats = TDN_GLTF_FLOAT | (doc->quantized ? TDN_GLTF_BYTE_NORM | TDN_GLTF_SHORT_NORM : 0u);
    const unsigned joint_formats = TDN_GLTF_UBYTE | TDN_GLTF_USHORT;
    const unsigned weight_formats = TDN_GLTF_FLOAT | TDN_GLTF_UBYTE_NORM | TDN_GLTF_USHORT_NORM;
    const int sets = a[JOINTS_1].accessor >= 0 ? 2 : 1;
    r = read_attribute(doc, attributes_where, &a[POSITION], 3, position_formats);
    if (r == TDN_OK)
        r = read_attribute(doc, attributes_where, &a[NORMAL], 3, normal_formats);
    for (int set = 0; set < sets && r == TDN_OK; set++) {
        r = read_attribute(doc, attributes_where, &a[JOINTS_0 + 2 * set], 4, joint_formats);
        if (r == TDN_OK)
            r = read_attribute(doc, attributes_where, &a[WEIGHTS_0 + 2 * set], 4, weight_formats);
    }
    if (r != TDN_OK)
        return r;
    const int vertices = a[POSITION].count;
    for (int i = 1; i < ATTRIBUTES; i++)
        if (a[i].values && a[i].count != vertices)
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, attributes_where, "%s has %d elements but POSITION has %d",
                                  a[i].name, a[i].count, vertices);

    uint32_t *indices = NULL;
    int index_count = 0;
    if ((r = read_triangles(doc, asset, where, json, vertices, &indices, &index_count)) != TDN_OK)
        return r;

    tdn_asset_mesh *mesh = &asset->meshes[asset->mesh_count];
    char name[TDN_MAX_JOINT_NAME + 160];
    if (primitive_count > 1)
        snprintf(name, sizeof name, "%s_%d", mesh_name, p);
    else
        snprintf(name, sizeof name, "%s", mesh_name);
    float *positions = tdn_io__asset_alloc(asset, sizeof(float) * 3 * (size_t)vertices);
    float *normals = a[NORMAL].values ? tdn_io__asset_alloc(asset, sizeof(float) * 3 * (size_t)vertices) : NULL;
    uint16_t *joints = tdn_io__asset_alloc(asset, sizeof(uint16_t) * 4 * (size_t)sets * (size_t)vertices);
    float *weights = tdn_io__asset_alloc(asset, sizeof(float) * 4 * (size_t)sets * (size_t)vertices);
    mesh->name = tdn_io__asset_strdup(asset, name);
    if (!positions || (a[NORMAL].values && !normals) || !joints || !weights || !mesh->name)
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, where, "out of memory for %d vertices", vertices);
    for (size_t i = 0; i < (size_t)vertices * 3; i++) {
        if (!tdn_io__within(a[POSITION].values[i], TDN_IO_MAX_LENGTH)) { /* a preview rasterizes them */
            tdn_gltf__path position_where;
            tdn_gltf__join(position_where, attributes_where, "POSITION");
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, position_where,
                                  "POSITION of vertex %zu (%g) is beyond +-%g, the longest length tendon reads", i / 3,
                                  (double)a[POSITION].values[i], (double)TDN_IO_MAX_LENGTH);
        }
        positions[i] = a[POSITION].values[i] * scene->scale;
    }
    if (normals)
        memcpy(normals, a[NORMAL].values, sizeof(float) * 3 * (size_t)vertices);
    for (int v = 0; v < vertices; v++)
        for (int set = 0; set < sets; set++)
            for (int k = 0; k < 4; k++) {
                const size_t at = (size_t)v * 4 + (size_t)k,
                             out = ((size_t)v * (size_t)sets + (size_t)set) * 4 + (size_t)k;
                const float joint = a[JOINTS_0 + 2 * set].values[at];
                if (joint >= (float)scene->skin_joint_count)
                    return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, attributes_where,
                                          "JOINTS_%d of vertex %d names joint %g but the skin has %d joints", set, v,
                                          (double)joint, scene->skin_joint_count);
                joints[out] = (uint16_t)scene->skin_joints[(int)joint];
                weights[out] = a[WEIGHTS_0 + 2 * set].values[at];
            }
    mesh->vertex_count = vertices;
    mesh->influence_sets = sets;
    mesh->positions = positions;
    mesh->normals = normals;
    mesh->joints = joints;
    mesh->weights = weights;
    mesh->indices = indices;
    mesh->index_count = index_count;
    asset->mesh_count++;
    return TDN_OK;
}

tdn_result tdn_gltf__build_meshes(tdn_gltf__doc *doc, const tdn_gltf__scene *scene, tdn_asset *asset)
{
    if (scene->skin < 0)
        return TDN_OK;
    unsigned char *skinned = calloc((size_t)doc->meshes.count + 1, 1);
    if (!skinned)
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, "meshes", "out of memory");
    for (int i = 0; i < scene->node_count; i++)
        if (scene->nodes[i].skin == scene->skin && scene->nodes[i].mesh >= 0)
            skinned[scene->nodes[i].mesh] = 1;
    int primitives_in_all = 0;
    tdn_result r = TDN_OK;
    for (int m = 0; m < doc->meshes.count && r == TDN_OK; m++) {
        const cJSON *primitives = NULL;
        tdn_gltf__path where;
        snprintf(where, sizeof where, "meshes[%d]", m);
        if (skinned[m] && (r = tdn_gltf__array(doc, doc->meshes.items[m], "primitives", where, &primitives)) == TDN_OK)
            primitives_in_all += cJSON_GetArraySize(primitives);
    }
    if (r == TDN_OK) {
        asset->meshes = tdn_io__asset_alloc(asset, sizeof(tdn_asset_mesh) * (size_t)(primitives_in_all + 1));
        if (!asset->meshes)
            r = tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, "meshes", "out of memory");
    }
    for (int m = 0; m < doc->meshes.count && r == TDN_OK; m++) {
        if (!skinned[m])
            continue;
        tdn_gltf__path where;
        snprintf(where, sizeof where, "meshes[%d]", m);
        const cJSON *json = doc->meshes.items[m], *primitives = cJSON_GetObjectItemCaseSensitive(json, "primitives");
        const char *name = NULL;
        if ((r = tdn_gltf__string(doc, json, "name", where, &name)) != TDN_OK)
            break;
        char fallback[32];
        snprintf(fallback, sizeof fallback, "mesh_%d", m);
        const int count = cJSON_GetArraySize(primitives);
        int p = 0;
        const cJSON *primitive;
        cJSON_ArrayForEach(primitive, primitives)
        {
            if ((r = read_primitive(doc, scene, asset, m, p++, count, name && *name ? name : fallback, primitive)) !=
                TDN_OK)
                break;
            tdn_gltf__drop_values(doc); /* copied into the asset */
        }
    }
    free(skinned);
    return r;
}
