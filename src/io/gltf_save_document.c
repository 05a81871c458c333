/* tendon io: saving glTF, the document (JSON tree and binary buffer).
 *
 * Layout of the one buffer, every block 4-byte aligned (all data is 4-byte floats or 4 x
 * 2-byte joint indices, so nothing needs padding inside, except a list of 2-byte triangle
 * indices, zero-padded after its end): per mesh, one buffer view per vertex attribute (target
 * ARRAY_BUFFER, tightly packed, so no byteStride) and one for its triangle indices (target
 * ELEMENT_ARRAY_BUFFER); then one view holding the
 * inverse bind matrices; then one view holding every clip's times and channel outputs (no
 * target: animation data is not GPU vertex data). Node i is joint i; mesh nodes follow. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset_internal.h"
#include "gltf_save_internal.h"
#include "tendon/version.h"

#define GLTF_FLOAT 5126
#define GLTF_UNSIGNED_SHORT 5123
#define GLTF_UNSIGNED_INT 5125
#define GLTF_ARRAY_BUFFER 34962
#define GLTF_ELEMENT_ARRAY_BUFFER 34963
#define GLTF_POINTS 0
#define GLTF_TRIANGLES 4

typedef struct builder {
    const tdn_gltf_save_desc *desc;
    const tdn_skeleton *skeleton;
    int joints;
    tdn_error *err;
    int oom; /* a cJSON or buffer allocation failed */
    cJSON *root;
    unsigned char *bin;
    size_t size, capacity;
    size_t view_start; /* where the view being filled starts */
} builder;

/* ---- JSON helpers: each records a failed allocation in b->oom ---- */

static cJSON *checked(builder *b, cJSON *item)
{
    if (!item)
        b->oom = 1;
    return item;
}

static cJSON *add_to_array(builder *b, cJSON *array, cJSON *item)
{
    if (!item || !array || !cJSON_AddItemToArray(array, item)) {
        cJSON_Delete(item);
        b->oom = 1;
        return NULL;
    }
    return item;
}

static cJSON *add_to_object(builder *b, cJSON *object, const char *key, cJSON *item)
{
    if (!item || !object || !cJSON_AddItemToObject(object, key, item)) {
        cJSON_Delete(item);
        b->oom = 1;
        return NULL;
    }
    return item;
}

static void add_number(builder *b, cJSON *object, const char *key, double value)
{
    add_to_object(b, object, key, cJSON_CreateNumber(value));
}

static void add_string(builder *b, cJSON *object, const char *key, const char *value)
{
    add_to_object(b, object, key, cJSON_CreateString(value));
}

/* An array of n floats, each written as its exact double value. */
static void add_floats(builder *b, cJSON *object, const char *key, const float *values, int n)
{
    cJSON *array = add_to_object(b, object, key, cJSON_CreateArray());
    for (int i = 0; i < n && array; i++)
        add_to_array(b, array, cJSON_CreateNumber((double)values[i]));
}

/* The top-level array `key`, created on first use. */
static cJSON *top_array(builder *b, const char *key)
{
    cJSON *array = cJSON_GetObjectItemCaseSensitive(b->root, key);
    return array ? array : add_to_object(b, b->root, key, cJSON_CreateArray());
}

/* ---- the buffer ---- */

static size_t append(builder *b, const void *data, size_t bytes)
{
    const size_t at = (b->size + 3) & ~(size_t)3, end = at + ((bytes + 3) & ~(size_t)3);
    if (end > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < end)
            capacity *= 2;
        unsigned char *grown = realloc(b->bin, capacity);
        if (!grown) {
            b->oom = 1;
            return at;
        }
        b->bin = grown;
        b->capacity = capacity;
    }
    memset(b->bin + b->size, 0, end - b->size);
    memcpy(b->bin + at, data, bytes);
    b->size = end;
    return at;
}

static void view_begin(builder *b) { b->view_start = b->size; }

/* Closes the view being filled (when it holds anything); target 0: none. */
static void view_end(builder *b, int target)
{
    if (b->size == b->view_start || b->oom)
        return;
    cJSON *view = add_to_array(b, top_array(b, "bufferViews"), cJSON_CreateObject());
    add_number(b, view, "buffer", 0);
    if (b->view_start > 0)
        add_number(b, view, "byteOffset", (double)b->view_start);
    add_number(b, view, "byteLength", (double)(b->size - b->view_start));
    if (target)
        add_number(b, view, "target", target);
}

/* An accessor over `count` elements of `type` appended to the view being filled; min/max
 * (components floats each) are written when given. Returns its index. */
static int add_accessor(builder *b, int component_type, const char *type, int count, const void *data, size_t bytes,
                        const float *min, const float *max, int components)
{
    const size_t at = append(b, data, bytes);
    cJSON *accessors = top_array(b, "accessors");
    const int index = accessors ? cJSON_GetArraySize(accessors) : 0;
    cJSON *views = cJSON_GetObjectItemCaseSensitive(b->root, "bufferViews");
    cJSON *accessor = add_to_array(b, accessors, cJSON_CreateObject());
    add_number(b, accessor, "bufferView", views ? cJSON_GetArraySize(views) : 0); /* the view being filled */
    if (at > b->view_start)
        add_number(b, accessor, "byteOffset", (double)(at - b->view_start));
    add_number(b, accessor, "componentType", component_type);
    add_number(b, accessor, "count", count);
    add_string(b, accessor, "type", type);
    if (min && max) {
        add_floats(b, accessor, "min", min, components);
        add_floats(b, accessor, "max", max, components);
    }
    return index;
}

/* Per-component bounds of count elements of n floats. */
static void bounds(const float *values, int count, int n, float *min, float *max)
{
    for (int k = 0; k < n; k++)
        min[k] = max[k] = values[k];
    for (int i = 1; i < count; i++)
        for (int k = 0; k < n; k++) {
            const float v = values[(size_t)i * (size_t)n + (size_t)k];
            min[k] = v < min[k] ? v : min[k];
            max[k] = v > max[k] ? v : max[k];
        }
}

/* ---- nodes ---- */

static int is_identity_rotation(tdn_quat q) { return q.x == 0.0f && q.y == 0.0f && q.z == 0.0f && q.w == 1.0f; }

static void write_nodes(builder *b, cJSON **node_json)
{
    cJSON *nodes = top_array(b, "nodes");
    for (int j = 0; j < b->joints; j++) {
        cJSON *node = node_json[j] = add_to_array(b, nodes, cJSON_CreateObject());
        add_string(b, node, "name", tdn_skeleton_joint_name(b->skeleton, j));
        const tdn_transform rest = tdn_skeleton_rest(b->skeleton, j);
        const float t[3] = { rest.t.x, rest.t.y, rest.t.z }, r[4] = { rest.r.x, rest.r.y, rest.r.z, rest.r.w };
        const float s[3] = { rest.s.x, rest.s.y, rest.s.z };
        if (t[0] != 0.0f || t[1] != 0.0f || t[2] != 0.0f)
            add_floats(b, node, "translation", t, 3);
        if (!is_identity_rotation(rest.r))
            add_floats(b, node, "rotation", r, 4);
        if (s[0] != 1.0f || s[1] != 1.0f || s[2] != 1.0f)
            add_floats(b, node, "scale", s, 3);
        const int parent = tdn_skeleton_parent(b->skeleton, j);
        if (parent >= 0 && node_json[parent]) {
            cJSON *children = cJSON_GetObjectItemCaseSensitive(node_json[parent], "children");
            if (!children)
                children = add_to_object(b, node_json[parent], "children", cJSON_CreateArray());
            add_to_array(b, children, cJSON_CreateNumber(j));
        }
    }
}

/* ---- skin and meshes ---- */

static int root_count(const tdn_skeleton *skeleton, int *first_root)
{
    int roots = 0;
    for (int j = 0; j < tdn_skeleton_joint_count(skeleton); j++)
        if (tdn_skeleton_parent(skeleton, j) < 0 && roots++ == 0)
            *first_root = j;
    return roots;
}

static void write_skin(builder *b)
{
    const tdn_mat4 *inverse_bind = tdn_skeleton_inverse_bind(b->skeleton);
    float *matrices = malloc(sizeof(float) * 16 * (size_t)b->joints);
    if (!matrices) {
        b->oom = 1;
        return;
    }
    for (int j = 0; j < b->joints; j++) {
        memcpy(matrices + (size_t)j * 16, inverse_bind[j].m, sizeof(float) * 16);
        /* affine within 1e-5 by the skeleton's contract; the validator wants the row exact */
        matrices[(size_t)j * 16 + 3] = matrices[(size_t)j * 16 + 7] = matrices[(size_t)j * 16 + 11] = 0.0f;
        matrices[(size_t)j * 16 + 15] = 1.0f;
    }
    view_begin(b);
    const int accessor = add_accessor(b, GLTF_FLOAT, "MAT4", b->joints, matrices,
                                      sizeof(float) * 16 * (size_t)b->joints, NULL, NULL, 0);
    view_end(b, 0);
    free(matrices);
    cJSON *skin = add_to_array(b, top_array(b, "skins"), cJSON_CreateObject());
    add_number(b, skin, "inverseBindMatrices", accessor);
    cJSON *joints = add_to_object(b, skin, "joints", cJSON_CreateArray());
    for (int j = 0; j < b->joints && joints; j++)
        add_to_array(b, joints, cJSON_CreateNumber(j));
    int first_root = 0;
    if (root_count(b->skeleton, &first_root) == 1)
        add_number(b, skin, "skeleton", first_root);
}

/* One tightly packed vertex attribute in a view of its own. */
static int vertex_attribute(builder *b, int component_type, const char *type, int count, const void *data, size_t bytes,
                            const float *min, const float *max, int components)
{
    view_begin(b);
    const int accessor = add_accessor(b, component_type, type, count, data, bytes, min, max, components);
    view_end(b, GLTF_ARRAY_BUFFER);
    return accessor;
}

/* The triangles in a view of their own: UNSIGNED_SHORT when every index fits below 65535 (the
 * largest value of a type is glTF's primitive restart, never allowed), else UNSIGNED_INT. */
static int write_indices(builder *b, const tdn_asset_mesh *mesh)
{
    const size_t n = (size_t)mesh->index_count;
    view_begin(b);
    int accessor = -1;
    if (mesh->vertex_count <= 65535) {
        uint16_t *narrow = malloc(sizeof(uint16_t) * n);
        if (!narrow) {
            b->oom = 1;
            return 0;
        }
        for (size_t i = 0; i < n; i++)
            narrow[i] = (uint16_t)mesh->indices[i];
        accessor = add_accessor(b, GLTF_UNSIGNED_SHORT, "SCALAR", mesh->index_count, narrow, sizeof(uint16_t) * n, NULL,
                                NULL, 0);
        free(narrow);
    } else {
        accessor = add_accessor(b, GLTF_UNSIGNED_INT, "SCALAR", mesh->index_count, mesh->indices, sizeof(uint32_t) * n,
                                NULL, NULL, 0);
    }
    view_end(b, GLTF_ELEMENT_ARRAY_BUFFER);
    return accessor;
}

/* What vertex weights (4 per set, `sets` sets) are written times: 1, or 1 / their sum when the
 * Khronos validator would reject that sum (it adds the non-zero ones as float32, each set's
 * first, then each set's second..., and allows 2e-7 per non-zero weight; shipped files such as
 * three.js's Soldier.glb are off by up to 2%). Skinning divides by the sum anyway (tdn_skin_lbs). */
static double weight_factor(const float *weights, int sets)
{
    float sum = 0.0f;
    double exact = 0.0;
    int nonzero = 0;
    for (int k = 0; k < 4; k++)
        for (int set = 0; set < sets; set++) {
            const float w = weights[set * 4 + k];
            if (w != 0.0f) {
                sum += w;
                exact += w;
                nonzero++;
            }
        }
    return nonzero > 0 && fabsf(sum - 1.0f) > 2e-7f * (float)nonzero ? 1.0 / exact : 1.0;
}

static tdn_result write_mesh(builder *b, int m, cJSON *scene_nodes)
{
    const tdn_asset_mesh mesh = tdn_asset_mesh_at(b->desc->source, m);
    if (mesh.vertex_count < 1 || !mesh.positions || !mesh.joints || !mesh.weights)
        return TDN_OK; /* nothing to draw */
    const size_t n = (size_t)mesh.vertex_count;
    const int sets = mesh.influence_sets == 2 ? 2 : 1;
    for (size_t i = 0; i < n * 4 * (size_t)sets; i++)
        if (mesh.weights[i] != 0.0f && mesh.joints[i] >= b->joints) {
            char where[TDN_MAX_JOINT_NAME + 64];
            snprintf(where, sizeof where, "desc.source meshes[%d] (%s)", m, mesh.name ? mesh.name : "");
            return tdn_io__fail(b->err, TDN_ERR_INVALID_DATA, where,
                                "vertex %zu names joint %d but the skeleton has %d joints", i / (4 * (size_t)sets),
                                mesh.joints[i], b->joints);
        }
    if (mesh.indices && mesh.index_count > 0) {
        int bad = mesh.index_count % 3 ? 0 : -1;
        for (int i = 0; i < mesh.index_count && bad < 0; i++)
            if (mesh.indices[i] >= (uint32_t)mesh.vertex_count)
                bad = i;
        if (bad >= 0) {
            char where[TDN_MAX_JOINT_NAME + 64];
            snprintf(where, sizeof where, "desc.source meshes[%d] (%s)", m, mesh.name ? mesh.name : "");
            if (mesh.index_count % 3)
                return tdn_io__fail(b->err, TDN_ERR_INVALID_DATA, where, "%d indices are not whole triangles",
                                    mesh.index_count);
            return tdn_io__fail(b->err, TDN_ERR_INVALID_DATA, where, "index %d is %u but the mesh has %d vertices", bad,
                                mesh.indices[bad], mesh.vertex_count);
        }
    }
    uint16_t *joints = malloc(sizeof(uint16_t) * 4 * n);
    float *weights = malloc(sizeof(float) * 4 * n);
    if (!joints || !weights) {
        free(joints), free(weights);
        b->oom = 1;
        return TDN_OK;
    }
    cJSON *json = add_to_array(b, top_array(b, "meshes"), cJSON_CreateObject());
    char fallback[32];
    snprintf(fallback, sizeof fallback, "mesh_%d", m);
    const char *name = mesh.name && *mesh.name ? mesh.name : fallback;
    add_string(b, json, "name", name);
    cJSON *primitive = add_to_array(b, add_to_object(b, json, "primitives", cJSON_CreateArray()), cJSON_CreateObject());
    cJSON *attributes = add_to_object(b, primitive, "attributes", cJSON_CreateObject());
    if (mesh.indices && mesh.index_count > 0) {
        add_number(b, primitive, "mode", GLTF_TRIANGLES);
        add_number(b, primitive, "indices", write_indices(b, &mesh));
    } else {
        add_number(b, primitive, "mode", GLTF_POINTS); /* a point mesh: nothing to join */
    }
    float min[3], max[3];
    bounds(mesh.positions, mesh.vertex_count, 3, min, max);
    add_number(
        b, attributes, "POSITION",
        vertex_attribute(b, GLTF_FLOAT, "VEC3", mesh.vertex_count, mesh.positions, sizeof(float) * 3 * n, min, max, 3));
    if (mesh.normals)
        add_number(b, attributes, "NORMAL",
                   vertex_attribute(b, GLTF_FLOAT, "VEC3", mesh.vertex_count, mesh.normals, sizeof(float) * 3 * n, NULL,
                                    NULL, 0));
    for (int set = 0; set < sets; set++) {
        for (size_t v = 0; v < n; v++) {
            const double factor = weight_factor(mesh.weights + v * 4 * (size_t)sets, sets);
            for (size_t k = 0; k < 4; k++) {
                const size_t from = (v * (size_t)sets + (size_t)set) * 4 + k;
                /* a joint without weight is 0: the validator warns about any other (its index
                 * means nothing, and the file's own may lie outside the skin) */
                joints[v * 4 + k] = mesh.weights[from] != 0.0f ? mesh.joints[from] : 0;
                weights[v * 4 + k] = factor == 1.0 ? mesh.weights[from] : (float)(mesh.weights[from] * factor);
            }
        }
        const char *joints_key = set ? "JOINTS_1" : "JOINTS_0", *weights_key = set ? "WEIGHTS_1" : "WEIGHTS_0";
        add_number(b, attributes, joints_key,
                   vertex_attribute(b, GLTF_UNSIGNED_SHORT, "VEC4", mesh.vertex_count, joints, sizeof(uint16_t) * 4 * n,
                                    NULL, NULL, 0));
        add_number(
            b, attributes, weights_key,
            vertex_attribute(b, GLTF_FLOAT, "VEC4", mesh.vertex_count, weights, sizeof(float) * 4 * n, NULL, NULL, 0));
    }
    free(joints), free(weights);
    cJSON *nodes = top_array(b, "nodes");
    const int node_index = nodes ? cJSON_GetArraySize(nodes) : 0;
    cJSON *node = add_to_array(b, nodes, cJSON_CreateObject());
    add_string(b, node, "name", name);
    add_number(b, node, "mesh", cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(b->root, "meshes")) - 1);
    add_number(b, node, "skin", 0);
    add_to_array(b, scene_nodes, cJSON_CreateNumber(node_index));
    return TDN_OK;
}

/* ---- animations ---- */

enum { PROP_T, PROP_R, PROP_S, PROPS };
static const char *const prop_names[PROPS] = { "translation", "rotation", "scale" };
static const int prop_width[PROPS] = { 3, 4, 3 };
static const int prop_row[PROPS] = { TDN_TX, TDN_RX, TDN_SX };

/* Joint j's property p over every frame into values (frame_count * width floats): rotations
 * renormalized when off unit length by more than 1e-6 (unit ones keep their bits) and made
 * sign-continuous. */
static void gather(const tdn_baked_clip *clip, int j, int p, float *values)
{
    const int width = prop_width[p];
    for (int f = 0; f < clip->frame_count; f++) {
        const tdn_pose *pose = &clip->frames[f];
        float *v = values + (size_t)f * (size_t)width;
        for (int k = 0; k < width; k++)
            v[k] = tdn_pose_crow(pose, prop_row[p] + k)[j];
        if (p != PROP_R)
            continue;
        const double len2 = (double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2] + (double)v[3] * v[3];
        if (fabs(len2 - 1.0) > 2e-6) {
            const double inv = 1.0 / sqrt(len2);
            for (int k = 0; k < 4; k++)
                v[k] = (float)(v[k] * inv);
        }
        if (f > 0) {
            const float *prev = v - 4;
            const double dot = (double)v[0] * prev[0] + (double)v[1] * prev[1] + (double)v[2] * prev[2] +
                               (double)v[3] * prev[3];
            if (dot < 0.0)
                for (int k = 0; k < 4; k++)
                    v[k] = -v[k];
        }
    }
}

enum { TRACK_REST, TRACK_CONSTANT, TRACK_MOVING };

static int classify(const tdn_baked_clip *clip, const tdn_skeleton *skeleton, int j, int p, const float *values)
{
    const int width = prop_width[p];
    for (int f = 1; f < clip->frame_count; f++) /* by value: -0 and 0 are one place */
        for (int i = 0; i < width; i++)
            if (values[i] != values[(size_t)f * (size_t)width + (size_t)i])
                return TRACK_MOVING;
    const tdn_transform rest = tdn_skeleton_rest(skeleton, j);
    const float *v = values;
    if (p == PROP_T)
        return v[0] == rest.t.x && v[1] == rest.t.y && v[2] == rest.t.z ? TRACK_REST : TRACK_CONSTANT;
    if (p == PROP_S)
        return v[0] == rest.s.x && v[1] == rest.s.y && v[2] == rest.s.z ? TRACK_REST : TRACK_CONSTANT;
    const int same = v[0] == rest.r.x && v[1] == rest.r.y && v[2] == rest.r.z && v[3] == rest.r.w;
    const int opposite = v[0] == -rest.r.x && v[1] == -rest.r.y && v[2] == -rest.r.z && v[3] == -rest.r.w;
    return same || opposite ? TRACK_REST : TRACK_CONSTANT;
}

static void add_channel(builder *b, cJSON *channels, cJSON *samplers, int input, int output, int node, int p)
{
    const int sampler_index = cJSON_GetArraySize(samplers);
    cJSON *sampler = add_to_array(b, samplers, cJSON_CreateObject());
    add_number(b, sampler, "input", input);
    add_string(b, sampler, "interpolation", "LINEAR");
    add_number(b, sampler, "output", output);
    cJSON *channel = add_to_array(b, channels, cJSON_CreateObject());
    add_number(b, channel, "sampler", sampler_index);
    cJSON *target = add_to_object(b, channel, "target", cJSON_CreateObject());
    add_number(b, target, "node", node);
    add_string(b, target, "path", prop_names[p]);
}

static void write_clip(builder *b, int c, float *values, float *times)
{
    const tdn_baked_clip *clip = &b->desc->clips[c];
    const int frames = clip->frame_count;
    cJSON *animation = add_to_array(b, top_array(b, "animations"), cJSON_CreateObject());
    char fallback[32];
    snprintf(fallback, sizeof fallback, "animation_%d", c);
    add_string(b, animation, "name", clip->name && *clip->name ? clip->name : fallback);
    cJSON *channels = add_to_object(b, animation, "channels", cJSON_CreateArray());
    cJSON *samplers = add_to_object(b, animation, "samplers", cJSON_CreateArray());

    int moving = 0;
    for (int j = 0; j < b->joints && moving == 0; j++)
        for (int p = 0; p < PROPS; p++) {
            gather(clip, j, p, values);
            moving += classify(clip, b->skeleton, j, p, values) == TRACK_MOVING;
        }
    for (int f = 0; f < frames; f++)
        times[f] = tdn_gltf_x__frame_time(clip, f);
    const int input = add_accessor(b, GLTF_FLOAT, "SCALAR", frames, times, sizeof(float) * (size_t)frames, &times[0],
                                   &times[frames - 1], 1);
    int one_key_input = frames == 1 ? input : -1;
    for (int j = 0; j < b->joints; j++)
        for (int p = 0; p < PROPS; p++) {
            gather(clip, j, p, values);
            int kind = classify(clip, b->skeleton, j, p, values);
            if (moving == 0 && j == 0 && p == PROP_T)
                kind = TRACK_MOVING; /* keeps the clip's duration (and a channel: at least one is required) */
            if (kind == TRACK_REST)
                continue;
            const int keys = kind == TRACK_MOVING ? frames : 1;
            if (kind == TRACK_CONSTANT && one_key_input < 0) {
                const float zero = 0.0f;
                one_key_input = add_accessor(b, GLTF_FLOAT, "SCALAR", 1, &zero, sizeof zero, &zero, &zero, 1);
            }
            const int output = add_accessor(b, GLTF_FLOAT, p == PROP_R ? "VEC4" : "VEC3", keys, values,
                                            sizeof(float) * (size_t)prop_width[p] * (size_t)keys, NULL, NULL, 0);
            add_channel(b, channels, samplers, kind == TRACK_MOVING ? input : one_key_input, output, j, p);
        }
}

static void write_animations(builder *b)
{
    int most_frames = 1;
    for (int c = 0; c < b->desc->clip_count; c++)
        most_frames = b->desc->clips[c].frame_count > most_frames ? b->desc->clips[c].frame_count : most_frames;
    float *values = malloc(sizeof(float) * 4 * (size_t)most_frames);
    float *times = malloc(sizeof(float) * (size_t)most_frames);
    if (!values || !times) {
        free(values), free(times);
        b->oom = 1;
        return;
    }
    view_begin(b);
    for (int c = 0; c < b->desc->clip_count && !b->oom; c++)
        write_clip(b, c, values, times);
    view_end(b, 0);
    free(values), free(times);
}

/* ---- the document ---- */

float tdn_gltf_x__frame_time(const tdn_baked_clip *clip, int f)
{
    return (float)((double)f / (double)clip->frame_rate);
}

tdn_result tdn_gltf_x__build(const tdn_gltf_save_desc *desc, int with_meshes, tdn_gltf_x__doc *doc, tdn_error *err)
{
    memset(doc, 0, sizeof *doc);
    builder b = {
        .desc = desc, .skeleton = desc->skeleton, .joints = tdn_skeleton_joint_count(desc->skeleton), .err = err
    };
    cJSON **node_json = calloc((size_t)b.joints, sizeof(cJSON *));
    b.root = checked(&b, cJSON_CreateObject());
    if (!node_json || !b.root) {
        free(node_json);
        cJSON_Delete(b.root);
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for the glTF document");
    }
    cJSON *asset = add_to_object(&b, b.root, "asset", cJSON_CreateObject());
    add_string(&b, asset, "generator", "tendon " TDN_VERSION_STRING);
    add_string(&b, asset, "version", "2.0");
    add_number(&b, b.root, "scene", 0);
    cJSON *scene = add_to_array(&b, add_to_object(&b, b.root, "scenes", cJSON_CreateArray()), cJSON_CreateObject());
    cJSON *scene_nodes = add_to_object(&b, scene, "nodes", cJSON_CreateArray());

    write_nodes(&b, node_json);
    free(node_json);
    for (int j = 0; j < b.joints; j++)
        if (tdn_skeleton_parent(b.skeleton, j) < 0)
            add_to_array(&b, scene_nodes, cJSON_CreateNumber(j));
    tdn_result r = TDN_OK;
    if (with_meshes) {
        const int meshes = tdn_asset_mesh_count(desc->source);
        for (int m = 0; m < meshes && r == TDN_OK && !b.oom; m++)
            r = write_mesh(&b, m, scene_nodes);
    }
    /* a skin even without meshes: importers (Blender) make an armature of a skin's joints and
     * loose animated nodes of a file without one */
    if (r == TDN_OK)
        write_skin(&b);
    if (r == TDN_OK)
        write_animations(&b);
    if (r == TDN_OK && b.size > 0) {
        cJSON *buffer = add_to_array(&b, top_array(&b, "buffers"), cJSON_CreateObject());
        add_number(&b, buffer, "byteLength", (double)b.size);
    }
    if (r == TDN_OK && b.oom)
        r = tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for the glTF document");
    if (r != TDN_OK) {
        cJSON_Delete(b.root);
        free(b.bin);
        return r;
    }
    doc->json = b.root;
    doc->bin = b.bin;
    doc->bin_size = b.size;
    return TDN_OK;
}

void tdn_gltf_x__free(tdn_gltf_x__doc *doc)
{
    cJSON_Delete(doc->json);
    free(doc->bin);
    memset(doc, 0, sizeof *doc);
}
