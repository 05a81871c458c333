/* tendon io glTF: nodes — hierarchy, rest transforms and names.
 *
 * Hierarchy: every node has at most one parent; a node listed as a child twice, or its own
 * ancestor, is TDN_ERR_INVALID_DATA.
 * Transforms: translation/rotation/scale, or a matrix decomposed into them (a matrix with
 * shear keeps its nearest TRS, with a warning); both at once is an error. Rotations are
 * renormalized (a zero quaternion is an error). Translations are multiplied by the import
 * scale.
 * Names: glTF names need not be unique, skeleton joint names must be, so every node gets a
 * unique name, deterministically, in node order: its own name ("node_<i>" when it has none or
 * an empty one), cut to TDN_MAX_JOINT_NAME - 1 bytes at a UTF-8 character boundary; a name an
 * earlier node already has becomes "<name>_<i>" (i = the node's index), then
 * "<name>_<i>_2", "<name>_<i>_3" ... until it is free. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

/* ---- unique names: an open-addressing set of the names given so far ---- */

typedef struct name_set {
    const char **slots;
    size_t mask;
} name_set;

static size_t name_hash(const char *s)
{
    size_t h = 1469598103934665603u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* 1 when name is in the set; otherwise adds it (the set keeps the pointer) and returns 0. */
static int name_set_take(name_set *set, const char *name)
{
    size_t i = name_hash(name) & set->mask;
    for (; set->slots[i]; i = (i + 1) & set->mask)
        if (strcmp(set->slots[i], name) == 0)
            return 1;
    set->slots[i] = name;
    return 0;
}

/* base + suffix in out (TDN_MAX_JOINT_NAME bytes), base cut at a UTF-8 boundary to fit. */
static int fit_name(char *out, const char *base, const char *suffix)
{
    size_t room = TDN_MAX_JOINT_NAME - 1 - strlen(suffix), n = strlen(base);
    int cut = n > room;
    if (cut) {
        n = room;
        while (n > 0 && ((unsigned char)base[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(out, base, n);
    snprintf(out + n, TDN_MAX_JOINT_NAME - n, "%s", suffix);
    return cut;
}

static tdn_result name_nodes(tdn_gltf__doc *doc, tdn_gltf__scene *scene, tdn_asset *asset)
{
    const int n = scene->node_count;
    size_t capacity = 16;
    while (capacity < (size_t)n * 2)
        capacity *= 2;
    name_set set = { calloc(capacity, sizeof(const char *)), capacity - 1 };
    if (!set.slots)
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, "nodes", "out of memory for %d names", n);
    tdn_result r = TDN_OK;
    int renamed = 0;
    for (int i = 0; i < n && r == TDN_OK; i++) {
        tdn_gltf__path where;
        snprintf(where, sizeof where, "nodes[%d]", i);
        const char *given = NULL;
        char unnamed[32];
        if ((r = tdn_gltf__string(doc, doc->nodes.items[i], "name", where, &given)) != TDN_OK)
            break;
        if (!given || !*given) {
            snprintf(unnamed, sizeof unnamed, "node_%d", i);
            given = unnamed;
        }
        char *name = scene->nodes[i].name;
        if (fit_name(name, given, ""))
            r = tdn_gltf__warn(doc, asset, "%s: name cut to %d bytes: '%s'", where, TDN_MAX_JOINT_NAME - 1, name);
        if (r == TDN_OK && name_set_take(&set, name)) {
            char suffix[32];
            snprintf(suffix, sizeof suffix, "_%d", i);
            fit_name(name, given, suffix);
            for (int k = 2; name_set_take(&set, name); k++) {
                snprintf(suffix, sizeof suffix, "_%d_%d", i, k);
                fit_name(name, given, suffix);
            }
            renamed++;
        }
    }
    free(set.slots);
    if (r == TDN_OK && renamed > 0)
        r = tdn_gltf__warn(doc, asset, "nodes: %d node names repeat an earlier one; each became '<name>_<node index>'",
                           renamed);
    return r;
}

/* ---- hierarchy and transforms ---- */

static tdn_result read_children(tdn_gltf__doc *doc, tdn_gltf__scene *scene, int i, const char *where)
{
    const cJSON *children = NULL, *child;
    tdn_result r = tdn_gltf__array(doc, doc->nodes.items[i], "children", where, &children);
    if (r != TDN_OK)
        return r;
    int k = 0;
    cJSON_ArrayForEach(child, children)
    {
        tdn_gltf__path child_where;
        snprintf(child_where, sizeof child_where, "nodes[%d].children[%d]", i, k++);
        if (!cJSON_IsNumber(child) || child->valuedouble != floor(child->valuedouble))
            return tdn_gltf__fail(doc, TDN_ERR_PARSE, child_where, "a node index must be an integer");
        if (!(child->valuedouble >= 0.0 && child->valuedouble < (double)scene->node_count))
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, child_where, "node %.17g is out of range (%d nodes)",
                                  child->valuedouble, scene->node_count);
        const int c = (int)child->valuedouble;
        if (c == i)
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, child_where, "node %d is its own child (a cycle)", i);
        if (scene->nodes[c].parent >= 0)
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, child_where,
                                  "node %d is already a child of node %d (a node has at most one parent)", c,
                                  scene->nodes[c].parent);
        scene->nodes[c].parent = i;
    }
    return TDN_OK;
}

/* The node's local transform from its matrix. */
static tdn_result decompose_matrix(tdn_gltf__doc *doc, const float *m, const char *where, tdn_transform *out,
                                   tdn_asset *asset)
{
    if (fabsf(m[3]) > 1e-5f || fabsf(m[7]) > 1e-5f || fabsf(m[11]) > 1e-5f || fabsf(m[15] - 1.0f) > 1e-5f)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where, "the last row (%g %g %g %g) is not 0 0 0 1",
                              (double)m[3], (double)m[7], (double)m[11], (double)m[15]);
    tdn_mat4 matrix;
    memcpy(matrix.m, m, sizeof matrix.m);
    *out = tdn_transform_from_mat4(&matrix);
    if (out->s.x == 0.0f || out->s.y == 0.0f || out->s.z == 0.0f)
        return TDN_OK; /* a degenerate matrix: refused later if the skeleton needs the node */
    const tdn_mat4 again = tdn_transform_to_mat4(out);
    float largest = 1.0f, error = 0.0f;
    for (int i = 0; i < 12; i++) {
        largest = fmaxf(largest, fabsf(m[i]));
        error = fmaxf(error, fabsf(again.m[i] - m[i]));
    }
    if (error > 1e-4f * largest)
        return tdn_gltf__warn(doc, asset, "%s has shear; its nearest translation, rotation and scale are used", where);
    return TDN_OK;
}

static tdn_result read_transform(tdn_gltf__doc *doc, tdn_gltf__scene *scene, int i, const char *where, tdn_asset *asset)
{
    const cJSON *json = doc->nodes.items[i];
    tdn_gltf__node *node = &scene->nodes[i];
    tdn_transform x = tdn_transform_identity();
    float matrix[16];
    int has_t = 0, has_r = 0, has_s = 0;
    tdn_result r = tdn_gltf__floats(doc, json, "translation", 3, where, &x.t.x, &has_t);
    if (r == TDN_OK)
        r = tdn_gltf__floats(doc, json, "rotation", 4, where, &x.r.x, &has_r);
    if (r == TDN_OK)
        r = tdn_gltf__floats(doc, json, "scale", 3, where, &x.s.x, &has_s);
    if (r == TDN_OK)
        r = tdn_gltf__floats(doc, json, "matrix", 16, where, matrix, &node->has_matrix);
    if (r != TDN_OK)
        return r;
    tdn_gltf__path part;
    if (node->has_matrix) {
        tdn_gltf__join(part, where, "matrix");
        if (has_t || has_r || has_s)
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, part,
                                  "a node has a matrix or translation/rotation/scale, "
                                  "not both");
        if ((r = decompose_matrix(doc, matrix, part, &x, asset)) != TDN_OK)
            return r;
    }
    double len2 = (double)x.r.x * x.r.x + (double)x.r.y * x.r.y + (double)x.r.z * x.r.z + (double)x.r.w * x.r.w;
    if (!(len2 > 1e-12)) {
        tdn_gltf__join(part, where, "rotation");
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, part, "zero quaternion");
    }
    const double inv = 1.0 / sqrt(len2);
    x.r = tdn_quat_make((float)(x.r.x * inv), (float)(x.r.y * inv), (float)(x.r.z * inv), (float)(x.r.w * inv));
    for (int k = 0; k < 6; k++) { /* a matrix's parts too */
        const float v = k < 3 ? (&x.t.x)[k] : (&x.s.x)[k - 3], limit = k < 3 ? TDN_IO_MAX_LENGTH : TDN_IO_MAX_SCALE;
        if (!tdn_io__within(v, limit)) {
            tdn_gltf__join(part, where, node->has_matrix ? "matrix" : k < 3 ? "translation" : "scale");
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, part, "%s %g is beyond +-%g, the largest tendon reads",
                                  k < 3 ? "translation" : "scale", (double)v, (double)limit);
        }
    }
    x.t = tdn_vec3_scale(x.t, scene->scale);
    node->rest = x;
    return TDN_OK;
}

/* Every node reaches a root: walking up from each node never revisits the current walk. */
static tdn_result check_cycles(tdn_gltf__doc *doc, const tdn_gltf__scene *scene)
{
    unsigned char *state = calloc((size_t)scene->node_count + 1, 1); /* 0 new, 1 on this walk, 2 done */
    if (!state)
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, "nodes", "out of memory");
    tdn_result r = TDN_OK;
    for (int i = 0; i < scene->node_count && r == TDN_OK; i++) {
        int j = i;
        while (j >= 0 && state[j] == 0) {
            state[j] = 1;
            j = scene->nodes[j].parent;
        }
        if (j >= 0 && state[j] == 1) {
            tdn_gltf__path where;
            snprintf(where, sizeof where, "nodes[%d]", j);
            r = tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where, "node %d is its own ancestor (a cycle in children)",
                               j);
        }
        for (j = i; j >= 0 && state[j] == 1; j = scene->nodes[j].parent)
            state[j] = 2;
    }
    free(state);
    return r;
}

tdn_result tdn_gltf__read_nodes(tdn_gltf__doc *doc, tdn_gltf__scene *scene, tdn_asset *asset)
{
    const int n = doc->nodes.count;
    scene->node_count = n;
    scene->nodes = calloc((size_t)n + 1, sizeof *scene->nodes);
    if (!scene->nodes)
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, "nodes", "out of memory for %d nodes", n);
    for (int i = 0; i < n; i++) {
        scene->nodes[i].parent = -1;
        scene->nodes[i].joint = -1;
    }
    tdn_result r = TDN_OK;
    for (int i = 0; i < n && r == TDN_OK; i++) {
        tdn_gltf__path where;
        snprintf(where, sizeof where, "nodes[%d]", i);
        const cJSON *json = doc->nodes.items[i];
        r = tdn_gltf__index(doc, json, "mesh", doc->meshes.count, where, &scene->nodes[i].mesh);
        if (r == TDN_OK)
            r = tdn_gltf__index(doc, json, "skin", doc->skins.count, where, &scene->nodes[i].skin);
        if (r == TDN_OK)
            r = read_children(doc, scene, i, where);
        if (r == TDN_OK)
            r = read_transform(doc, scene, i, where, asset);
    }
    if (r == TDN_OK)
        r = check_cycles(doc, scene);
    if (r == TDN_OK)
        r = name_nodes(doc, scene, asset);
    return r;
}

void tdn_gltf__free_scene(tdn_gltf__scene *scene)
{
    free(scene->nodes);
    free(scene->skin_joints);
    memset(scene, 0, sizeof *scene);
}
