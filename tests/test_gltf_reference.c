/* glTF import of every real file in the shared data against a reference evaluator written
 * here from the glTF 2.0 specification, in double precision, with cJSON directly (it does not
 * call the importer): GLB chunks, buffers (BIN, base64, external), accessors (normalized
 * integers, strides, sparse), node matrices kept as matrices, samplers (STEP, LINEAR with
 * slerp, CUBICSPLINE with tangents scaled by the key interval), and world matrices by the
 * node hierarchy. For each file, each skin and each clip, at every key, between keys, before
 * the first key and after the end, the world positions of the skin's joints must agree with
 * tendon's model space (tdn_keyed_clip_sample + tdn_model_space) within 1e-5 of the
 * skeleton's size (the largest extent of its joints' positions over the samples); morph weights, durations, channel
 * counts, inverse binds and mesh joint indices are checked too. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "test_data.h"
#include "tendon/io/asset.h"

/* ---- reading the file ---- */

static unsigned char *read_whole(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)n + 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    if (data) {
        data[n] = 0;
        *size = (size_t)n;
    }
    return data;
}

static unsigned le32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (unsigned)p[3] << 24; }

typedef struct ref_doc {
    unsigned char *file;
    cJSON *json;
    int buffer_count;
    unsigned char **buffers; /* owned copies */
} ref_doc;

static int b64(int c)
{
    const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *p = c ? strchr(alphabet, c) : NULL;
    return p ? (int)(p - alphabet) : -1;
}

static unsigned char *decode_data_uri(const char *uri)
{
    const char *data = strstr(uri, ";base64,") + 8;
    size_t n = strlen(data);
    unsigned char *out = malloc(n);
    size_t k = 0;
    for (size_t i = 0; i + 3 < n + 3 && i < n; i += 4) {
        int v[4];
        for (int j = 0; j < 4; j++)
            v[j] = i + j < n ? b64(data[i + j]) : -1;
        out[k++] = (unsigned char)(v[0] << 2 | v[1] >> 4);
        if (v[2] >= 0)
            out[k++] = (unsigned char)((v[1] & 15) << 4 | v[2] >> 2);
        if (v[3] >= 0)
            out[k++] = (unsigned char)((v[2] & 3) << 6 | v[3]);
    }
    return out;
}

static int ref_open(ref_doc *d, const char *path)
{
    memset(d, 0, sizeof *d);
    size_t size = 0;
    d->file = read_whole(path, &size);
    if (!d->file)
        return 0;
    const unsigned char *bin = NULL;
    if (size >= 20 && memcmp(d->file, "glTF", 4) == 0) {
        unsigned json_length = le32(d->file + 12);
        d->json = cJSON_ParseWithLength((const char *)d->file + 20, json_length);
        if (20 + json_length + 8 <= size)
            bin = d->file + 20 + json_length + 8;
    } else {
        d->json = cJSON_ParseWithLength((const char *)d->file, size);
    }
    if (!d->json)
        return 0;
    const cJSON *buffers = cJSON_GetObjectItem(d->json, "buffers");
    d->buffer_count = cJSON_GetArraySize(buffers);
    d->buffers = calloc((size_t)d->buffer_count + 1, sizeof *d->buffers);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = 0;
    for (int i = 0; i < d->buffer_count; i++) {
        const cJSON *uri = cJSON_GetObjectItem(cJSON_GetArrayItem(buffers, i), "uri");
        if (!uri) {
            size_t n = (size_t)cJSON_GetObjectItem(cJSON_GetArrayItem(buffers, i), "byteLength")->valuedouble;
            d->buffers[i] = malloc(n);
            memcpy(d->buffers[i], bin, n);
        } else if (strncmp(uri->valuestring, "data:", 5) == 0) {
            d->buffers[i] = decode_data_uri(uri->valuestring);
        } else {
            char full[2048];
            size_t n;
            snprintf(full, sizeof full, "%s/%s", dir, uri->valuestring);
            d->buffers[i] = read_whole(full, &n);
        }
    }
    return 1;
}

static void ref_close(ref_doc *d)
{
    for (int i = 0; i < d->buffer_count; i++)
        free(d->buffers[i]);
    free(d->buffers);
    cJSON_Delete(d->json);
    free(d->file);
}

static const cJSON *item(const cJSON *json, const char *key, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItem(json, key), i);
}

static double number(const cJSON *json, const char *key, double fallback)
{
    const cJSON *v = cJSON_GetObjectItem(json, key);
    return v ? v->valuedouble : fallback;
}

/* One component as the spec reads it. */
static double component(const unsigned char *p, int type, int normalized)
{
    switch (type) {
    case 5120:
        return normalized ? fmax((signed char)p[0] / 127.0, -1.0) : (signed char)p[0];
    case 5121:
        return normalized ? p[0] / 255.0 : p[0];
    case 5122: {
        short v = (short)(p[0] | p[1] << 8);
        return normalized ? fmax(v / 32767.0, -1.0) : v;
    }
    case 5123: {
        unsigned v = p[0] | p[1] << 8;
        return normalized ? v / 65535.0 : v;
    }
    case 5125:
        return le32(p);
    default: {
        unsigned bits = le32(p);
        float f;
        memcpy(&f, &bits, 4);
        return f;
    }
    }
}

static int type_components(const char *type)
{
    return !strcmp(type, "SCALAR")                          ? 1
           : !strcmp(type, "VEC2")                          ? 2
           : !strcmp(type, "VEC3")                          ? 3
           : !strcmp(type, "VEC4") || !strcmp(type, "MAT2") ? 4
           : !strcmp(type, "MAT3")                          ? 9
                                                            : 16;
}

static int component_bytes(int type) { return type == 5120 || type == 5121 ? 1 : type == 5122 || type == 5123 ? 2 : 4; }

/* Bytes of buffer view v and its stride. */
static const unsigned char *view_bytes(const ref_doc *d, int v, int *stride)
{
    const cJSON *view = item(d->json, "bufferViews", v);
    *stride = (int)number(view, "byteStride", 0);
    return d->buffers[(int)number(view, "buffer", 0)] + (size_t)number(view, "byteOffset", 0);
}

/* Accessor i as doubles (count * components), sparse applied; caller frees. */
static double *ref_accessor(const ref_doc *d, int index, int *count, int *components)
{
    const cJSON *a = item(d->json, "accessors", index);
    const int type = (int)number(a, "componentType", 5126);
    const int normalized = cJSON_IsTrue(cJSON_GetObjectItem(a, "normalized"));
    *count = (int)number(a, "count", 0);
    *components = type_components(cJSON_GetObjectItem(a, "type")->valuestring);
    const int element = component_bytes(type) * *components;
    double *out = calloc((size_t)*count * (size_t)*components + 1, sizeof(double));
    if (cJSON_GetObjectItem(a, "bufferView")) {
        int stride;
        const unsigned char *base = view_bytes(d, (int)number(a, "bufferView", 0), &stride) +
                                    (size_t)number(a, "byteOffset", 0);
        if (!stride)
            stride = element;
        for (int i = 0; i < *count; i++)
            for (int c = 0; c < *components; c++)
                out[i * *components + c] = component(base + (size_t)i * stride + c * component_bytes(type), type,
                                                     normalized);
    }
    const cJSON *sparse = cJSON_GetObjectItem(a, "sparse");
    if (sparse) {
        const cJSON *indices = cJSON_GetObjectItem(sparse, "indices"), *values = cJSON_GetObjectItem(sparse, "values");
        int stride;
        const int index_type = (int)number(indices, "componentType", 5125);
        const unsigned char *ip = view_bytes(d, (int)number(indices, "bufferView", 0), &stride) +
                                  (size_t)number(indices, "byteOffset", 0);
        const unsigned char *vp = view_bytes(d, (int)number(values, "bufferView", 0), &stride) +
                                  (size_t)number(values, "byteOffset", 0);
        for (int k = 0; k < (int)number(sparse, "count", 0); k++) {
            int at = (int)component(ip + k * component_bytes(index_type), index_type, 0);
            for (int c = 0; c < *components; c++)
                out[at * *components + c] = component(vp + (size_t)k * element + c * component_bytes(type), type,
                                                      normalized);
        }
    }
    return out;
}

/* ---- the scene ---- */

typedef struct ref_node {
    double t[3], r[4], s[3], m[16];
    int has_matrix, parent;
    char name[64];
} ref_node;

static void mat_mul(const double *a, const double *b, double *out)
{
    double r[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            r[c * 4 + row] = 0;
            for (int k = 0; k < 4; k++)
                r[c * 4 + row] += a[k * 4 + row] * b[c * 4 + k];
        }
    memcpy(out, r, sizeof r);
}

static void local_matrix(const ref_node *n, double *m)
{
    if (n->has_matrix) {
        memcpy(m, n->m, sizeof n->m);
        return;
    }
    const double len = sqrt(n->r[0] * n->r[0] + n->r[1] * n->r[1] + n->r[2] * n->r[2] + n->r[3] * n->r[3]);
    const double x = n->r[0] / len, y = n->r[1] / len, z = n->r[2] / len, w = n->r[3] / len;
    const double r[9] = { 1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
                          2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                          2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y) };
    memset(m, 0, 16 * sizeof(double));
    for (int c = 0; c < 3; c++)
        for (int row = 0; row < 3; row++)
            m[c * 4 + row] = r[c * 3 + row] * n->s[c];
    m[12] = n->t[0], m[13] = n->t[1], m[14] = n->t[2], m[15] = 1;
}

static void world_matrix(const ref_node *nodes, int i, double *m)
{
    local_matrix(&nodes[i], m);
    for (int p = nodes[i].parent; p >= 0; p = nodes[p].parent) {
        double parent[16];
        local_matrix(&nodes[p], parent);
        mat_mul(parent, m, m);
    }
}

/* Nodes at rest, with the names tendon documents: unnamed "node_<i>", a repeated name
 * "<name>_<i>" (the data has no deeper collisions). */
static ref_node *ref_nodes(const ref_doc *d, int *count)
{
    const cJSON *nodes = cJSON_GetObjectItem(d->json, "nodes");
    *count = cJSON_GetArraySize(nodes);
    ref_node *out = calloc((size_t)*count + 1, sizeof *out);
    for (int i = 0; i < *count; i++)
        out[i].parent = -1;
    for (int i = 0; i < *count; i++) {
        const cJSON *n = cJSON_GetArrayItem(nodes, i), *v;
        ref_node *r = &out[i];
        r->r[3] = 1, r->s[0] = r->s[1] = r->s[2] = 1;
        const char *keys[] = { "translation", "rotation", "scale", "matrix" };
        double *dst[] = { r->t, r->r, r->s, r->m };
        for (int k = 0; k < 4; k++) {
            int j = 0;
            cJSON_ArrayForEach(v, cJSON_GetObjectItem(n, keys[k])) dst[k][j++] = v->valuedouble;
        }
        r->has_matrix = cJSON_GetObjectItem(n, "matrix") != NULL;
        cJSON_ArrayForEach(v, cJSON_GetObjectItem(n, "children")) out[(int)v->valuedouble].parent = i;
        const cJSON *name = cJSON_GetObjectItem(n, "name");
        if (name && *name->valuestring)
            snprintf(r->name, sizeof r->name, "%s", name->valuestring);
        else
            snprintf(r->name, sizeof r->name, "node_%d", i);
        for (int j = 0; j < i; j++)
            if (strcmp(out[j].name, r->name) == 0) {
                char base[64];
                snprintf(base, sizeof base, "%s", r->name);
                snprintf(r->name, sizeof r->name, "%.50s_%d", base, i);
                break;
            }
    }
    return out;
}

/* ---- samplers ---- */

typedef struct ref_channel {
    int node, path; /* 0 translation, 1 rotation, 2 scale, 3 weights */
    int interp;     /* 0 linear, 1 step, 2 cubic */
    int keys, width;
    double *times, *values;
} ref_channel;

static void slerp(const double *a, const double *b0, double s, double *out)
{
    double b[4], dot = 0;
    for (int i = 0; i < 4; i++)
        dot += a[i] * b0[i];
    for (int i = 0; i < 4; i++)
        b[i] = dot < 0 ? -b0[i] : b0[i];
    dot = fabs(dot);
    double wa = 1 - s, wb = s;
    if (dot < 1 - 1e-12) {
        const double theta = acos(dot > 1 ? 1 : dot);
        wa = sin((1 - s) * theta) / sin(theta);
        wb = sin(s * theta) / sin(theta);
    }
    double len = 0;
    for (int i = 0; i < 4; i++) {
        out[i] = wa * a[i] + wb * b[i];
        len += out[i] * out[i];
    }
    for (int i = 0; i < 4; i++)
        out[i] /= sqrt(len);
}

/* The channel's value at t, by the spec: clamped outside the keys. */
static void sample(const ref_channel *c, double t, double *out)
{
    const int w = c->width, per_key = c->interp == 2 ? 3 : 1, at = c->interp == 2 ? w : 0;
    int k = 0;
    while (k + 1 < c->keys && c->times[k + 1] <= t)
        k++;
    if (t <= c->times[0] || k == c->keys - 1 || c->interp == 1) {
        memcpy(out, c->values + (size_t)k * per_key * w + at, sizeof(double) * (size_t)w);
        return;
    }
    const double dt = c->times[k + 1] - c->times[k], s = (t - c->times[k]) / dt;
    const double *v0 = c->values + (size_t)k * per_key * w + at, *v1 = c->values + (size_t)(k + 1) * per_key * w + at;
    if (c->interp == 0) {
        if (c->path == 1)
            slerp(v0, v1, s, out);
        else
            for (int i = 0; i < w; i++)
                out[i] = v0[i] + (v1[i] - v0[i]) * s;
        return;
    }
    const double *b0 = v0 + w, *a1 = v1 - w;
    const double s2 = s * s, s3 = s2 * s;
    for (int i = 0; i < w; i++)
        out[i] = (2 * s3 - 3 * s2 + 1) * v0[i] + (s3 - 2 * s2 + s) * dt * b0[i] + (-2 * s3 + 3 * s2) * v1[i] +
                 (s3 - s2) * dt * a1[i];
    if (c->path == 1) {
        double len = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; i++)
            out[i] /= len;
    }
}

/* Channels of animation a (weights channels split per target, width 1). */
static ref_channel *ref_channels(const ref_doc *d, int a, int *count)
{
    const cJSON *anim = item(d->json, "animations", a), *ch;
    /* room for up to 64 morph targets per channel */
    ref_channel *out = calloc((size_t)cJSON_GetArraySize(cJSON_GetObjectItem(anim, "channels")) * 64 + 1, sizeof *out);
    *count = 0;
    cJSON_ArrayForEach(ch, cJSON_GetObjectItem(anim, "channels"))
    {
        const cJSON *target = cJSON_GetObjectItem(ch, "target");
        const cJSON *sampler = item(anim, "samplers", (int)number(ch, "sampler", 0));
        const char *path = cJSON_GetObjectItem(target, "path")->valuestring;
        const cJSON *interp = cJSON_GetObjectItem(sampler, "interpolation");
        ref_channel c = { (int)number(target, "node", -1),
                          !strcmp(path, "translation") ? 0
                          : !strcmp(path, "rotation")  ? 1
                          : !strcmp(path, "scale")     ? 2
                                                       : 3,
                          !interp || !strcmp(interp->valuestring, "LINEAR") ? 0
                          : !strcmp(interp->valuestring, "STEP")            ? 1
                                                                            : 2,
                          0,
                          0,
                          NULL,
                          NULL };
        int comps, n;
        c.times = ref_accessor(d, (int)number(sampler, "input", 0), &c.keys, &comps);
        double *values = ref_accessor(d, (int)number(sampler, "output", 0), &n, &c.width);
        const int per_key = c.interp == 2 ? 3 : 1;
        if (c.path == 1) /* tendon renormalizes rotation values (not tangents); so does this */
            for (int k = 0; k < c.keys; k++) {
                double *q = values + ((size_t)k * per_key + (per_key == 3)) * 4;
                double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
                for (int i = 0; i < 4; i++)
                    q[i] /= len;
            }
        if (c.path != 3) {
            c.values = values;
            out[(*count)++] = c;
            continue;
        }
        const int targets = n / (c.keys * per_key);
        for (int k = 0; k < targets; k++) {
            ref_channel w = c;
            w.width = 1;
            w.path = 3 + k; /* weights of target k */
            w.values = malloc(sizeof(double) * (size_t)c.keys * per_key);
            w.times = malloc(sizeof(double) * (size_t)c.keys);
            memcpy(w.times, c.times, sizeof(double) * (size_t)c.keys);
            for (int key = 0; key < c.keys * per_key; key++)
                w.values[key] = values[key * targets + k];
            out[(*count)++] = w;
        }
        free(values);
        free(c.times);
    }
    return out;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* ---- the comparison ---- */

typedef struct file_totals {
    int files, clips, samples, triangles;
    double worst_relative;
} file_totals;
static file_totals totals;

static int node_of_name(const ref_node *nodes, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(nodes[i].name, name) == 0)
            return i;
    return -1;
}

static void check_file(const char *path, int skin, int skin_count, float scale)
{
    char skin_text[16];
    snprintf(skin_text, sizeof skin_text, "%d", skin);
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    tdn_asset_load_options options = { .skin = skin_count ? skin_text : NULL, .scale = scale };
    if (!CHECK_EQ_INT(tdn_asset_load(path, &options, &asset, NULL, &err), TDN_OK)) {
        fprintf(stderr, "  %s: %s: %s\n", path, err.where, err.message);
        return;
    }
    ref_doc d;
    if (!CHECK(ref_open(&d, path))) {
        tdn_asset_destroy(asset);
        return;
    }
    totals.files++;
    int node_count;
    ref_node *nodes = ref_nodes(&d, &node_count);
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    const int joints = tdn_skeleton_joint_count(skel);

    /* Listed joints: the skin's joints (or every node), found by name. */
    const cJSON *skin_json = item(d.json, "skins", skin), *v;
    int skin_joints = skin_count ? cJSON_GetArraySize(cJSON_GetObjectItem(skin_json, "joints")) : node_count;
    CHECK_EQ_INT(tdn_asset_joint_count(asset), skin_joints);
    CHECK_EQ_INT(tdn_asset_skin_count(asset), skin_count);
    CHECK_EQ_INT(tdn_asset_chosen_skin(asset), skin_count ? skin : -1);
    int *listed_node = malloc(sizeof(int) * (size_t)(joints + 1));
    for (int i = 0; i < tdn_asset_joint_count(asset); i++) {
        listed_node[i] = node_of_name(nodes, node_count, tdn_skeleton_joint_name(skel, tdn_asset_joint(asset, i)));
        CHECK(listed_node[i] >= 0);
    }
    if (skin_count) {
        /* every skin joint is listed, with the file's inverse bind (translation scaled) */
        int k = 0, ibm_count = 0, comps = 0;
        double *ibm = cJSON_GetObjectItem(skin_json, "inverseBindMatrices")
                          ? ref_accessor(&d, (int)number(skin_json, "inverseBindMatrices", 0), &ibm_count, &comps)
                          : NULL;
        cJSON_ArrayForEach(v, cJSON_GetObjectItem(skin_json, "joints"))
        {
            int j = tdn_skeleton_find_joint(skel, nodes[(int)v->valuedouble].name);
            CHECK(j >= 0);
            for (int e = 0; ibm && j >= 0 && e < 16; e++)
                CHECK_NEAR(tdn_skeleton_inverse_bind(skel)[j].m[e], ibm[k * 16 + e] * (e >= 12 && e < 15 ? scale : 1),
                           1e-5 * (1 + fabs(ibm[k * 16 + e])));
            k++;
        }
        free(ibm);
    }

    tdn_pose pose;
    tdn_pose_create(joints, &pose, NULL, NULL);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)joints);
    /* Ancestors that the skin does not list get the inverted rest world as inverse bind: their
     * palette entry at rest is the identity. */
    tdn_pose_set_rest(&pose, skel, NULL);
    tdn_model_space(skel, &pose, NULL, model, NULL);
    for (int j = 0; j < joints; j++) {
        int is_listed = 0;
        for (int i = 0; i < tdn_asset_joint_count(asset); i++)
            is_listed |= tdn_asset_joint(asset, i) == j;
        tdn_mat4 palette = tdn_mat4_mul(&model[j], &tdn_skeleton_inverse_bind(skel)[j]);
        for (int e = 0; !is_listed && e < 16; e++)
            CHECK_NEAR(palette.m[e], e % 5 == 0,
                       1e-4 * (1 + fabs(model[j].m[12]) + fabs(model[j].m[13]) + fabs(model[j].m[14])));
    }
    for (int a = 0; a < tdn_asset_clip_count(asset); a++) {
        const tdn_keyed_clip *clip = tdn_asset_clip(asset, a);
        const cJSON *anim = item(d.json, "animations", a);
        CHECK_EQ_INT(tdn_asset_clip_channel_count(asset, a), cJSON_GetArraySize(cJSON_GetObjectItem(anim, "channels")));
        int channel_count;
        ref_channel *channels = ref_channels(&d, a, &channel_count);
        /* sample times: keys, midpoints, t = 0, half the first key, after the end */
        int time_count = 0;
        double last_key = 0;
        double *times = malloc(sizeof(double) * 16);
        size_t capacity = 16;
        for (int c = 0; c < channel_count; c++) {
            int in_skeleton = channels[c].path >= 3 || tdn_skeleton_find_joint(skel, nodes[channels[c].node].name) >= 0;
            for (int k = 0; k < channels[c].keys; k++) {
                if (in_skeleton && channels[c].times[k] > last_key)
                    last_key = channels[c].times[k];
                if ((size_t)time_count + 4 > capacity)
                    times = realloc(times, sizeof(double) * (capacity *= 2));
                times[time_count++] = channels[c].times[k];
                if (k + 1 < channels[c].keys)
                    times[time_count++] = 0.5 * (channels[c].times[k] + channels[c].times[k + 1]);
                else
                    times[time_count++] = channels[c].times[k] + 0.5;
                if (k == 0)
                    times[time_count++] = 0.5 * channels[c].times[0];
            }
        }
        times[time_count++] = 0;
        qsort(times, (size_t)time_count, sizeof(double), compare_doubles);
        CHECK_NEAR(tdn_keyed_clip_duration(clip), last_key, 1e-6);

        /* size of the skeleton: extent of its joints over the samples */
        const int step = time_count > 240 ? time_count / 240 : 1;
        double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
        double *expected = malloc(sizeof(double) * 3 * (size_t)(joints + 1) * (size_t)(time_count / step + 2));
        float *got = malloc(sizeof(float) * 3 * (size_t)(joints + 1) * (size_t)(time_count / step + 2));
        int samples = 0;
        for (int ti = 0; ti < time_count; ti += step, samples++) {
            const float t = (float)times[ti];
            ref_node *posed = malloc(sizeof(ref_node) * (size_t)node_count);
            memcpy(posed, nodes, sizeof(ref_node) * (size_t)node_count);
            for (int c = 0; c < channel_count; c++) {
                double value[4];
                sample(&channels[c], t, value);
                if (channels[c].path >= 3) {
                    char name[160];
                    snprintf(name, sizeof name, "%s.weights[%d]", nodes[channels[c].node].name, channels[c].path - 3);
                    int f = tdn_keyed_clip_find_float_track(clip, name);
                    if (CHECK(f >= 0))
                        CHECK_NEAR(tdn_keyed_clip_sample_float(clip, f, t), value[0], 1e-5);
                    continue;
                }
                double *dst = channels[c].path == 0   ? posed[channels[c].node].t
                              : channels[c].path == 1 ? posed[channels[c].node].r
                                                      : posed[channels[c].node].s;
                memcpy(dst, value, sizeof(double) * (size_t)channels[c].width);
            }
            tdn_keyed_clip_sample(clip, t, &pose, NULL, NULL);
            tdn_model_space(skel, &pose, NULL, model, NULL);
            for (int i = 0; i < tdn_asset_joint_count(asset); i++) {
                double world[16];
                world_matrix(posed, listed_node[i] >= 0 ? listed_node[i] : 0, world);
                for (int k = 0; k < 3; k++) {
                    double e = world[12 + k] * scale;
                    expected[((size_t)samples * joints + i) * 3 + k] = e;
                    got[((size_t)samples * joints + i) * 3 + k] = model[tdn_asset_joint(asset, i)].m[12 + k];
                }
            }
            for (int j = 0; j < joints; j++) { /* the size counts every skeleton joint */
                double world[16];
                int node = node_of_name(nodes, node_count, tdn_skeleton_joint_name(skel, j));
                world_matrix(posed, node >= 0 ? node : 0, world);
                for (int k = 0; k < 3; k++)
                    lo[k] = fmin(lo[k], world[12 + k] * scale), hi[k] = fmax(hi[k], world[12 + k] * scale);
            }
            free(posed);
        }
        double size = fmax(fmax(hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]);
        if (!(size > 0))
            size = 1; /* one joint: its own units */
        double worst = 0;
        for (size_t i = 0; i < (size_t)samples * joints * 3; i++)
            if ((i / 3) % (size_t)joints < (size_t)tdn_asset_joint_count(asset))
                worst = fmax(worst, fabs(got[i] - expected[i]));
        if (!CHECK(worst <= 1e-5 * size))
            fprintf(stderr, "  %s skin %d clip %d '%s': worst %.3g, size %.3g\n", path, skin, a,
                    tdn_keyed_clip_name(clip), worst, size);
        totals.worst_relative = fmax(totals.worst_relative, worst / size);
        totals.clips++;
        totals.samples += samples;
        free(expected);
        free(got);
        free(times);
        for (int c = 0; c < channel_count; c++) {
            free(channels[c].times);
            free(channels[c].values);
        }
        free(channels);
    }

    /* Meshes: every primitive with JOINTS_0 of a mesh a node skins with this skin, in mesh
     * order; positions scaled, weights as stored, joints naming the skin's joint nodes. */
    int m_out = 0;
    for (int mi = 0; skin_count && mi < cJSON_GetArraySize(cJSON_GetObjectItem(d.json, "meshes")); mi++) {
        int used = 0;
        for (int i = 0; i < node_count; i++) {
            const cJSON *n = item(d.json, "nodes", i);
            used |= number(n, "mesh", -1) == mi && number(n, "skin", -1) == skin;
        }
        const cJSON *primitive,
            *primitives = used ? cJSON_GetObjectItem(item(d.json, "meshes", mi), "primitives") : NULL;
        cJSON_ArrayForEach(primitive, primitives)
        {
            const cJSON *attributes = cJSON_GetObjectItem(primitive, "attributes");
            if (!cJSON_GetObjectItem(attributes, "JOINTS_0") || !cJSON_GetObjectItem(attributes, "POSITION"))
                continue;
            tdn_asset_mesh mesh = tdn_asset_mesh_at(asset, m_out++);
            int count, comps, wcount, jcount;
            double *positions = ref_accessor(&d, (int)number(attributes, "POSITION", 0), &count, &comps);
            double *weights = ref_accessor(&d, (int)number(attributes, "WEIGHTS_0", 0), &wcount, &comps);
            double *file_joints = ref_accessor(&d, (int)number(attributes, "JOINTS_0", 0), &jcount, &comps);
            if (CHECK_EQ_INT(mesh.vertex_count, count) && CHECK_EQ_INT(mesh.influence_sets, 1)) {
                int bad = 0;
                for (int e = 0; e < count * 3; e++)
                    bad += fabs(mesh.positions[e] - positions[e] * scale) > 1e-6 * (1 + fabs(positions[e] * scale));
                for (int e = 0; e < count * 4; e++) {
                    const cJSON *node = cJSON_GetArrayItem(cJSON_GetObjectItem(skin_json, "joints"),
                                                           (int)file_joints[e]);
                    bad += fabs(mesh.weights[e] - weights[e]) > 1e-7;
                    bad += mesh.joints[e] != tdn_skeleton_find_joint(skel, nodes[(int)node->valuedouble].name);
                }
                CHECK_EQ_INT(bad, 0);
            }
            /* Triangles: the file's list (TRIANGLES, the default mode), or 0..n-1 without one */
            const int mode = (int)number(primitive, "mode", 4);
            int expected_count = 0, icount = 0;
            double *file_indices = NULL;
            if (cJSON_GetObjectItem(primitive, "indices"))
                file_indices = ref_accessor(&d, (int)number(primitive, "indices", 0), &icount, &comps);
            else
                icount = count;
            if (mode == 4)
                expected_count = icount / 3 * 3;
            else if (mode == 5 || mode == 6)
                expected_count = icount >= 3 ? 3 * (icount - 2) : 0;
            if (CHECK_EQ_INT(mesh.index_count, expected_count) && mode == 4) {
                int bad = 0;
                for (int k = 0; k < expected_count; k++)
                    bad += mesh.indices[k] != (file_indices ? (uint32_t)file_indices[k] : (uint32_t)k);
                CHECK_EQ_INT(bad, 0);
            }
            totals.triangles += mesh.index_count / 3;
            free(file_indices);
            free(positions);
            free(weights);
            free(file_joints);
        }
    }
    CHECK_EQ_INT(tdn_asset_mesh_count(asset), m_out);
    free(model);
    tdn_pose_destroy(&pose);
    free(listed_node);
    free(nodes);
    ref_close(&d);
    tdn_asset_destroy(asset);
}

/* ---- every file of the data folder ---- */

typedef struct path_list {
    char **paths;
    int count, capacity;
} path_list;

static void find_files(const char *dir, path_list *out)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char full[2048];
        snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(full, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            find_files(full, out);
            continue;
        }
        const char *dot = strrchr(e->d_name, '.');
        if (!dot || (strcmp(dot, ".gltf") != 0 && strcmp(dot, ".glb") != 0))
            continue;
        if (out->count == out->capacity)
            out->paths = realloc(out->paths, sizeof(char *) * (size_t)(out->capacity = out->capacity * 2 + 8));
        out->paths[out->count++] = strdup(full);
    }
    closedir(d);
}

static int compare_paths(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int skins_in(const char *path)
{
    ref_doc d;
    int n = ref_open(&d, path) ? cJSON_GetArraySize(cJSON_GetObjectItem(d.json, "skins")) : 0;
    ref_close(&d);
    return n;
}

static void every_file_matches_the_reference(void)
{
    const char *data = test_data_dir();
    if (!data)
        return;
    char root[1024];
    path_list files = { 0 };
    find_files(test_data_path(root, sizeof root, data, "gltf"), &files);
    qsort(files.paths, (size_t)files.count, sizeof(char *), compare_paths);
    CHECK(files.count >= 13);
    for (int i = 0; i < files.count; i++) {
        const int skins = skins_in(files.paths[i]);
        for (int s = 0; s < (skins ? skins : 1); s++)
            check_file(files.paths[i], s, skins, 1.0f);
        free(files.paths[i]);
    }
    free(files.paths);
    printf("reference: %d file/skin loads, %d clips, %d sample times, %d skinned triangles; worst |tendon - "
           "reference| = %.3g of the skeleton's size\n",
           totals.files, totals.clips, totals.samples, totals.triangles, totals.worst_relative);
}

/* The import scale multiplies every length: the reference scaled by 0.01. */
static void scale_multiplies_every_length(void)
{
    const char *data = test_data_dir();
    if (!data)
        return;
    char path[1024];
    check_file(test_data_path(path, sizeof path, data, "gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb"), 0, 1,
               0.01f);
    check_file(test_data_path(path, sizeof path, data, "gltf/threejs/Soldier.glb"), 0, 2, 2.5f);
}

/* Triangle counts worked from each file's JSON: the indices accessor's count / 3 (RiggedSimple
 * 564 UNSIGNED_SHORT indices, CesiumMan 14016, RiggedFigure 768) or, without indices, the
 * POSITION count / 3 (Fox: 1728 vertices). */
static void triangle_counts_by_hand(void)
{
    const char *data = test_data_dir();
    if (!data)
        return;
    static const struct {
        const char *file;
        int vertices, triangles;
    } known[] = {
        { "gltf/khronos/RiggedSimple/glTF-Embedded/RiggedSimple.gltf", 160, 188 },
        { "gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb", 3273, 4672 },
        { "gltf/khronos/RiggedFigure/glTF-Binary/RiggedFigure.glb", 370, 256 },
        { "gltf/khronos/Fox/glTF-Binary/Fox.glb", 1728, 576 },
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        char path[1024];
        tdn_asset *asset = NULL;
        tdn_error err = { 0 };
        if (!CHECK_EQ_INT(
                tdn_asset_load(test_data_path(path, sizeof path, data, known[i].file), NULL, &asset, NULL, &err),
                TDN_OK)) {
            fprintf(stderr, "  %s: %s: %s\n", known[i].file, err.where, err.message);
            continue;
        }
        tdn_asset_mesh mesh = tdn_asset_mesh_at(asset, 0);
        CHECK_EQ_INT(tdn_asset_mesh_count(asset), 1);
        CHECK_EQ_INT(mesh.vertex_count, known[i].vertices);
        CHECK_EQ_INT(mesh.index_count, 3 * known[i].triangles);
        int out_of_range = 0;
        for (int k = 0; k < mesh.index_count; k++)
            out_of_range += mesh.indices[k] >= (uint32_t)mesh.vertex_count;
        CHECK_EQ_INT(out_of_range, 0);
        tdn_asset_destroy(asset);
    }
}

int main(void)
{
    RUN(every_file_matches_the_reference);
    RUN(scale_multiplies_every_length);
    RUN(triangle_counts_by_hand);
    return check_summary();
}
