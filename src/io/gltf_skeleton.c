/* tendon io glTF: skins and the skeleton.
 *
 * The skeleton holds the chosen skin's joints and every ancestor node of them, so that model
 * space is the scene's world space (a skinned mesh's own node transform is ignored, as the
 * spec says). The skin's joints are the listed joints and keep the file's inverse bind
 * matrices (identity when the skin has none); an ancestor that is not a joint gets the inverse
 * of its rest world matrix, so its palette entry is the identity at rest. A file with no skin
 * makes every node a listed joint. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

/* ---- rest world matrices, in double ---- */

typedef struct dmat4 {
    double m[16];
} dmat4; /* column-major like tdn_mat4 */

static dmat4 dmat4_from_transform(const tdn_transform *x)
{
    const double qx = x->r.x, qy = x->r.y, qz = x->r.z, qw = x->r.w;
    const double r[9] = { 1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy + qz * qw),     2 * (qx * qz - qy * qw),
                          2 * (qx * qy - qz * qw),     1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz + qx * qw),
                          2 * (qx * qz + qy * qw),     2 * (qy * qz - qx * qw),     1 - 2 * (qx * qx + qy * qy) };
    const double s[3] = { x->s.x, x->s.y, x->s.z };
    dmat4 out = { { 0 } };
    for (int col = 0; col < 3; col++)
        for (int row = 0; row < 3; row++)
            out.m[col * 4 + row] = r[col * 3 + row] * s[col];
    out.m[12] = x->t.x, out.m[13] = x->t.y, out.m[14] = x->t.z, out.m[15] = 1.0;
    return out;
}

static dmat4 dmat4_mul(const dmat4 *a, const dmat4 *b)
{
    dmat4 out;
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++) {
            double sum = 0.0;
            for (int k = 0; k < 4; k++)
                sum += a->m[k * 4 + row] * b->m[col * 4 + k];
            out.m[col * 4 + row] = sum;
        }
    return out;
}

/* Inverse of an affine matrix as floats; 0 when it is singular or the result is not finite. */
static int invert_affine(const dmat4 *a, tdn_mat4 *out)
{
    const double *m = a->m;
    const double c[9] = { m[5] * m[10] - m[6] * m[9], m[2] * m[9] - m[1] * m[10], m[1] * m[6] - m[2] * m[5],
                          m[6] * m[8] - m[4] * m[10], m[0] * m[10] - m[2] * m[8], m[2] * m[4] - m[0] * m[6],
                          m[4] * m[9] - m[5] * m[8],  m[1] * m[8] - m[0] * m[9],  m[0] * m[5] - m[1] * m[4] };
    const double det = m[0] * c[0] + m[4] * c[1] + m[8] * c[2];
    if (!(fabs(det) > 0.0))
        return 0;
    *out = tdn_mat4_identity();
    for (int col = 0; col < 3; col++)
        for (int row = 0; row < 3; row++)
            out->m[col * 4 + row] = (float)(c[col * 3 + row] / det); /* adjugate: transposed cofactors */
    for (int row = 0; row < 3; row++) {
        double t = 0.0;
        for (int k = 0; k < 3; k++)
            t -= c[k * 3 + row] / det * m[12 + k];
        out->m[12 + row] = (float)t;
    }
    for (int i = 0; i < 16; i++)
        if (!isfinite(out->m[i]))
            return 0;
    return 1;
}

/* world[i] for node i and its ancestors not yet done, top-down (stack: node_count ints). */
static void rest_world(const tdn_gltf__scene *scene, int i, dmat4 *world, unsigned char *done, int *stack)
{
    int depth = 0;
    for (int j = i; j >= 0 && !done[j]; j = scene->nodes[j].parent)
        stack[depth++] = j;
    while (depth > 0) {
        const int j = stack[--depth], parent = scene->nodes[j].parent;
        const dmat4 local = dmat4_from_transform(&scene->nodes[j].rest);
        world[j] = parent >= 0 ? dmat4_mul(&world[parent], &local) : local;
        done[j] = 1;
    }
}

/* ---- skins ---- */

static tdn_result read_skin_list(tdn_gltf__doc *doc, const tdn_gltf__scene *scene, tdn_asset *asset)
{
    const int n = doc->skins.count;
    asset->skin_count = n;
    asset->skin_names = tdn_io__asset_alloc(asset, sizeof(char *) * (size_t)(n + 1));
    asset->skin_joint_counts = tdn_io__asset_alloc(asset, sizeof(int) * (size_t)(n + 1));
    int *seen = calloc((size_t)scene->node_count + 1, sizeof(int)); /* skin index + 1 that lists node i */
    if (!asset->skin_names || !asset->skin_joint_counts || !seen) {
        free(seen);
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, "skins", "out of memory");
    }
    tdn_result r = TDN_OK;
    for (int s = 0; s < n && r == TDN_OK; s++) {
        tdn_gltf__path where;
        snprintf(where, sizeof where, "skins[%d]", s);
        const cJSON *json = doc->skins.items[s], *joints = NULL, *joint;
        const char *name = NULL;
        int unused;
        r = tdn_gltf__string(doc, json, "name", where, &name);
        if (r == TDN_OK)
            r = tdn_gltf__array(doc, json, "joints", where, &joints);
        if (r == TDN_OK)
            r = tdn_gltf__index(doc, json, "skeleton", scene->node_count, where, &unused);
        if (r == TDN_OK)
            r = tdn_gltf__index(doc, json, "inverseBindMatrices", doc->accessors.count, where, &unused);
        if (r != TDN_OK)
            break;
        char fallback[32];
        snprintf(fallback, sizeof fallback, "skin_%d", s);
        asset->skin_names[s] = tdn_io__asset_strdup(asset, name && *name ? name : fallback);
        if (!asset->skin_names[s]) {
            r = tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, where, "out of memory");
            break;
        }
        int k = 0;
        cJSON_ArrayForEach(joint, joints)
        {
            tdn_gltf__path joint_where;
            snprintf(joint_where, sizeof joint_where, "skins[%d].joints[%d]", s, k);
            if (!cJSON_IsNumber(joint) || joint->valuedouble != floor(joint->valuedouble)) {
                r = tdn_gltf__fail(doc, TDN_ERR_PARSE, joint_where, "a node index must be an integer");
                break;
            }
            if (!(joint->valuedouble >= 0.0 && joint->valuedouble < (double)scene->node_count)) {
                r = tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, joint_where, "node %.17g is out of range (%d nodes)",
                                   joint->valuedouble, scene->node_count);
                break;
            }
            const int node = (int)joint->valuedouble;
            if (seen[node] == s + 1) {
                r = tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, joint_where, "node %d is already a joint of this skin",
                                   node);
                break;
            }
            seen[node] = s + 1;
            k++;
        }
        if (r == TDN_OK && k == 0)
            r = tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where, "a skin needs at least one joint");
        asset->skin_joint_counts[s] = k;
    }
    free(seen);
    return r;
}

static tdn_result choose_skin(tdn_gltf__doc *doc, const tdn_asset *asset, const char *choice, int *chosen)
{
    *chosen = asset->skin_count > 0 ? 0 : -1;
    if (!choice)
        return TDN_OK;
    for (int s = 0; s < asset->skin_count; s++)
        if (strcmp(asset->skin_names[s], choice) == 0) {
            *chosen = s;
            return TDN_OK;
        }
    char *end;
    errno = 0;
    long index = strtol(choice, &end, 10);
    if (*choice >= '0' && *choice <= '9' && *end == '\0' && errno == 0 && index < asset->skin_count) {
        *chosen = (int)index;
        return TDN_OK;
    }
    return tdn_gltf__fail(doc, TDN_ERR_ARGUMENT, "skin", "no skin named or numbered '%.60s' (the file has %d skins)",
                          choice, asset->skin_count);
}

/* The skin's joints (node indices, in its order) and inverse binds (scaled). */
static tdn_result read_chosen_skin(tdn_gltf__doc *doc, const tdn_gltf__scene *scene, int s, int *joints,
                                   tdn_mat4 *inverse_binds)
{
    tdn_gltf__path where, ibm_where;
    snprintf(where, sizeof where, "skins[%d]", s);
    snprintf(ibm_where, sizeof ibm_where, "skins[%d].inverseBindMatrices", s);
    const cJSON *json = doc->skins.items[s], *joint;
    int count = 0, accessor = -1;
    cJSON_ArrayForEach(joint, cJSON_GetObjectItemCaseSensitive(json, "joints"))
        joints[count++] = (int)joint->valuedouble; /* checked by read_skin_list */
    tdn_result r = tdn_gltf__index(doc, json, "inverseBindMatrices", doc->accessors.count, where, &accessor);
    if (r != TDN_OK)
        return r;
    for (int k = 0; k < count; k++)
        inverse_binds[k] = tdn_mat4_identity();
    if (accessor < 0)
        return TDN_OK;
    const float *values = NULL;
    int matrices = 0;
    if ((r = tdn_gltf__read_accessor(doc, accessor, ibm_where, 16, TDN_GLTF_FLOAT, &values, &matrices)) != TDN_OK)
        return r;
    if (matrices < count)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, ibm_where, "accessor %d has %d matrices for %d joints",
                              accessor, matrices, count);
    for (int k = 0; k < count; k++) {
        const float *m = values + (size_t)k * 16;
        if (fabsf(m[3]) > 1e-5f || fabsf(m[7]) > 1e-5f || fabsf(m[11]) > 1e-5f || fabsf(m[15] - 1.0f) > 1e-5f)
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, ibm_where,
                                  "matrix %d (joint node %d) is not affine: last row %g %g %g %g", k, joints[k],
                                  (double)m[3], (double)m[7], (double)m[11], (double)m[15]);
        for (int i = 0; i < 16; i++)
            if (!tdn_io__within(m[i], TDN_IO_MAX_LENGTH))
                return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, ibm_where,
                                      "matrix %d's entry %d (%g) is beyond +-%g, the largest tendon reads", k, i,
                                      (double)m[i], (double)TDN_IO_MAX_LENGTH);
        memcpy(inverse_binds[k].m, m, sizeof inverse_binds[k].m);
        for (int i = 12; i < 15; i++)
            inverse_binds[k].m[i] *= scene->scale;
    }
    return TDN_OK;
}

/* ---- the skeleton ---- */

typedef struct skeleton_work {
    int count;         /* nodes in the skeleton */
    int *desc_of_node; /* description index of each node, or -1 */
    int *node_of_desc;
    const char **names;
    int *parents;
    tdn_transform *rest;
    tdn_mat4 *inverse_bind;
    unsigned char *has_bind; /* by description index: the skin gave its inverse bind */
    int *remap;
    int *skin_nodes; /* chosen skin's joints */
    tdn_mat4 *skin_binds;
    dmat4 *world;
    unsigned char *world_done;
    int *stack;
    unsigned char *is_listed; /* by skeleton index */
    int *listed;
} skeleton_work;

static void free_work(skeleton_work *w)
{
    free(w->desc_of_node), free(w->node_of_desc), free(w->names), free(w->parents), free(w->rest);
    free(w->inverse_bind), free(w->has_bind), free(w->remap), free(w->skin_nodes), free(w->skin_binds);
    free(w->world), free(w->world_done), free(w->stack), free(w->is_listed), free(w->listed);
}

static int alloc_work(skeleton_work *w, int node_count, int skin_joints)
{
    const size_t slots = (size_t)node_count + 1, joints = (size_t)skin_joints + 1;
    w->desc_of_node = malloc(sizeof(int) * slots);
    w->node_of_desc = malloc(sizeof(int) * slots);
    w->names = malloc(sizeof(char *) * slots);
    w->parents = malloc(sizeof(int) * slots);
    w->rest = malloc(sizeof(tdn_transform) * slots);
    w->inverse_bind = malloc(sizeof(tdn_mat4) * slots);
    w->has_bind = calloc(slots, 1);
    w->remap = malloc(sizeof(int) * slots);
    w->skin_nodes = malloc(sizeof(int) * joints);
    w->skin_binds = malloc(sizeof(tdn_mat4) * joints);
    w->world = malloc(sizeof(dmat4) * slots);
    w->world_done = calloc(slots, 1);
    w->stack = malloc(sizeof(int) * slots);
    w->is_listed = calloc(slots, 1);
    w->listed = malloc(sizeof(int) * slots);
    return w->desc_of_node && w->node_of_desc && w->names && w->parents && w->rest && w->inverse_bind && w->has_bind &&
           w->remap && w->skin_nodes && w->skin_binds && w->world && w->world_done && w->stack && w->is_listed &&
           w->listed;
}

static tdn_result check_invertible(tdn_gltf__doc *doc, int node, const tdn_transform *x)
{
    if (x->s.x != 0.0f && x->s.y != 0.0f && x->s.z != 0.0f)
        return TDN_OK;
    tdn_gltf__path where;
    tdn_gltf__item(where, "", "nodes", node);
    return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where,
                          "a skeleton node's scale has a zero component (its transform cannot be inverted)");
}

/* Numbers the skeleton's nodes in node order: the skin's joints and their ancestors, or every
 * node without a skin. */
static tdn_result select_nodes(tdn_gltf__doc *doc, const tdn_gltf__scene *scene, int skin_joints, skeleton_work *w)
{
    const int n = scene->node_count;
    for (int i = 0; i < n; i++)
        w->desc_of_node[i] = scene->skin >= 0 ? -1 : 0; /* 0: in the skeleton, numbered below */
    for (int k = 0; k < skin_joints; k++)
        for (int i = w->skin_nodes[k]; i >= 0 && w->desc_of_node[i] < 0; i = scene->nodes[i].parent)
            w->desc_of_node[i] = 0;
    w->count = 0;
    for (int i = 0; i < n; i++) {
        if (w->desc_of_node[i] < 0)
            continue;
        if (w->count == TDN_MAX_JOINTS)
            return tdn_gltf__fail(doc, TDN_ERR_UNSUPPORTED, "nodes", "the skeleton would have more than %d joints",
                                  TDN_MAX_JOINTS);
        tdn_result r = check_invertible(doc, i, &scene->nodes[i].rest);
        if (r != TDN_OK)
            return r;
        w->desc_of_node[i] = w->count;
        w->node_of_desc[w->count++] = i;
    }
    return TDN_OK;
}

/* Names, parents, rest transforms and inverse binds in description order (ancestors are all
 * included, so every parent has a description index). */
static tdn_result describe_nodes(tdn_gltf__doc *doc, const tdn_gltf__scene *scene, int skin_joints, skeleton_work *w)
{
    for (int k = 0; k < skin_joints; k++) {
        const int d = w->desc_of_node[w->skin_nodes[k]];
        w->inverse_bind[d] = w->skin_binds[k];
        w->has_bind[d] = 1;
    }
    for (int d = 0; d < w->count; d++) {
        const int i = w->node_of_desc[d];
        const tdn_gltf__node *node = &scene->nodes[i];
        w->names[d] = node->name;
        w->parents[d] = node->parent >= 0 ? w->desc_of_node[node->parent] : -1;
        w->rest[d] = node->rest;
        if (w->has_bind[d])
            continue;
        rest_world(scene, i, w->world, w->world_done, w->stack);
        if (!invert_affine(&w->world[i], &w->inverse_bind[d])) {
            tdn_gltf__path where;
            tdn_gltf__item(where, "", "nodes", i);
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where, "the node's rest world matrix cannot be inverted");
        }
    }
    return TDN_OK;
}

/* Each node's skeleton index, the skin's joints as skeleton indices, and the listed joints
 * (the skin's, or all) in skeleton order. */
static tdn_result list_joints(tdn_gltf__doc *doc, tdn_gltf__scene *scene, tdn_asset *asset, skeleton_work *w)
{
    for (int d = 0; d < w->count; d++)
        scene->nodes[w->node_of_desc[d]].joint = w->remap[d];
    for (int k = 0; k < scene->skin_joint_count; k++) {
        scene->skin_joints[k] = scene->nodes[w->skin_nodes[k]].joint;
        w->is_listed[scene->skin_joints[k]] = 1;
    }
    int listed = 0;
    for (int j = 0; j < w->count; j++)
        if (scene->skin < 0 || w->is_listed[j])
            w->listed[listed++] = j;
    if (tdn_io__asset_set_listed_joints(asset, w->listed, listed) != TDN_OK)
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, "skins", "out of memory for the listed joints");
    return TDN_OK;
}

tdn_result tdn_gltf__build_skeleton(tdn_gltf__doc *doc, tdn_gltf__scene *scene, tdn_asset *asset, const char *skin)
{
    tdn_result r = read_skin_list(doc, scene, asset);
    if (r == TDN_OK)
        r = choose_skin(doc, asset, skin, &scene->skin);
    if (r != TDN_OK)
        return r;
    asset->chosen_skin = scene->skin;
    if (scene->node_count == 0)
        return tdn_gltf__fail(doc, TDN_ERR_UNSUPPORTED, "nodes", "the file has no nodes to make a skeleton of");
    const int skin_joints = scene->skin >= 0 ? asset->skin_joint_counts[scene->skin] : 0;
    skeleton_work w = { 0 };
    scene->skin_joints = malloc(sizeof(int) * ((size_t)skin_joints + 1));
    if (!scene->skin_joints || !alloc_work(&w, scene->node_count, skin_joints)) {
        free_work(&w);
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, "nodes", "out of memory for %d nodes", scene->node_count);
    }
    scene->skin_joint_count = skin_joints;
    if (scene->skin >= 0)
        r = read_chosen_skin(doc, scene, scene->skin, w.skin_nodes, w.skin_binds);
    if (r == TDN_OK)
        r = select_nodes(doc, scene, skin_joints, &w);
    if (r == TDN_OK)
        r = describe_nodes(doc, scene, skin_joints, &w);
    if (r == TDN_OK) {
        tdn_skeleton_desc desc = { .joint_count = w.count,
                                   .names = w.names,
                                   .parents = w.parents,
                                   .rest_pose = w.rest,
                                   .inverse_bind = w.inverse_bind,
                                   .remap = w.remap };
        r = tdn_skeleton_create(&desc, &asset->skeleton, &asset->allocator, doc->err);
    }
    if (r == TDN_OK)
        r = list_joints(doc, scene, asset, &w);
    free_work(&w);
    return r;
}
