/* tendon core: skeletons, stored parent-before-child in depth-first pre-order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "skeleton_internal.h"

/* How far an inverse bind matrix's last row may be from 0 0 0 1 (float rounding in files). */
#define AFFINE_TOLERANCE 1e-5f

/* Names of a description joint, generated when the caller gives none. */
static void desc_name(const tdn_skeleton_desc *desc, int i, char out[TDN_MAX_JOINT_NAME + 16])
{
    if (desc->names)
        snprintf(out, TDN_MAX_JOINT_NAME + 16, "%s", desc->names[i] ? desc->names[i] : "");
    else
        snprintf(out, TDN_MAX_JOINT_NAME + 16, "joint_%d", i);
}

/* Sorts joint indices by name: a stable bottom-up merge sort (qsort has no context pointer
 * in C11, and a global one would make skeleton creation thread-unsafe). */
static void sort_by_name(int *idx, int *scratch, int n, char (*names)[TDN_MAX_JOINT_NAME])
{
    for (int width = 1; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n;
            int hi = lo + 2 * width < n ? lo + 2 * width : n;
            int a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                scratch[o++] = strcmp(names[idx[a]], names[idx[b]]) <= 0 ? idx[a++] : idx[b++];
            while (a < mid)
                scratch[o++] = idx[a++];
            while (b < hi)
                scratch[o++] = idx[b++];
        }
        memcpy(idx, scratch, sizeof(int) * (size_t)n);
    }
}

static tdn_result check_rest(const tdn_transform *x, int i, const char *name, tdn_error *err)
{
    const float v[10] = { x->t.x, x->t.y, x->t.z, x->r.x, x->r.y, x->r.z, x->r.w, x->s.x, x->s.y, x->s.z };
    char where[96];
    snprintf(where, sizeof where, "joint %d '%s' rest pose", i, name);
    for (int k = 0; k < 10; k++)
        if (!tdn__finite(v[k]))
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "rest transform has a non-finite value");
    if (tdn_quat_dot(x->r, x->r) < 1e-12f)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "rest rotation is a zero quaternion");
    if (x->s.x == 0.0f || x->s.y == 0.0f || x->s.z == 0.0f)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "rest scale has a zero component");
    return TDN_OK;
}

/* Depth-first pre-order of the description's joints (roots and children in description
 * order). Returns the number of joints reached: fewer than joint_count means a cycle. */
static int depth_first_order(const int *parents, int n, int *order, int *child_start, int *children, int *stack)
{
    /* Children lists by counting sort on the parent index (stable: description order). */
    memset(child_start, 0, sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        if (parents[i] >= 0)
            child_start[parents[i] + 1]++;
    for (int i = 0; i < n; i++)
        child_start[i + 1] += child_start[i];
    int *fill = order; /* borrowed as a cursor array before order is written */
    for (int i = 0; i < n; i++)
        fill[i] = child_start[i];
    for (int i = 0; i < n; i++)
        if (parents[i] >= 0)
            children[fill[parents[i]]++] = i;

    int count = 0;
    for (int root = n - 1; root >= 0; root--)
        if (parents[root] < 0)
            stack[count++] = root; /* pushed in reverse so the first root comes out first */
    int top = count, written = 0;
    while (top > 0) {
        int j = stack[--top];
        order[written++] = j;
        for (int c = child_start[j + 1] - 1; c >= child_start[j]; c--)
            stack[top++] = children[c];
    }
    return written;
}

tdn_result tdn_skeleton_create(const tdn_skeleton_desc *desc, tdn_skeleton **out, const tdn_allocator *allocator,
                               tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!desc || !out)
        return tdn__null(err, !desc ? "desc" : "out");
    const int n = desc->joint_count;
    if (n < 1 || n > TDN_MAX_JOINTS)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.joint_count", "joint_count %d is outside 1..%d", n,
                         TDN_MAX_JOINTS);
    if (!desc->parents)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.parents", "parents must not be NULL");
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;

    char name[TDN_MAX_JOINT_NAME + 16], where[128];
    for (int i = 0; i < n; i++) {
        desc_name(desc, i, name);
        snprintf(where, sizeof where, "joint %d '%.64s'", i, name);
        if (desc->parents[i] < -1 || desc->parents[i] >= n || desc->parents[i] == i)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where,
                             "parent index %d is not -1 or another joint's index (0..%d)", desc->parents[i], n - 1);
        if (name[0] == '\0')
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "joint name is empty");
        if (strlen(name) >= TDN_MAX_JOINT_NAME)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "joint name is longer than %d bytes",
                             TDN_MAX_JOINT_NAME - 1);
        if (desc->rest_pose) {
            tdn_result r = check_rest(&desc->rest_pose[i], i, name, err);
            if (r != TDN_OK)
                return r;
        }
        if (desc->inverse_bind) {
            const float *m = desc->inverse_bind[i].m;
            for (int k = 0; k < 16; k++)
                if (!tdn__finite(m[k]))
                    return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "inverse bind matrix has a non-finite value");
            /* glTF asks the same of inverseBindMatrices; the palette relies on it */
            if (fabsf(m[3]) > AFFINE_TOLERANCE || fabsf(m[7]) > AFFINE_TOLERANCE || fabsf(m[11]) > AFFINE_TOLERANCE ||
                fabsf(m[15] - 1.0f) > AFFINE_TOLERANCE)
                return tdn__fail(err, TDN_ERR_INVALID_DATA, where,
                                 "inverse bind matrix is not affine: its last row is %g %g %g %g, not 0 0 0 1", m[3],
                                 m[7], m[11], m[15]);
        }
    }

    /* One block for the skeleton and its arrays, one temporary block for the sort. */
    const size_t un = (size_t)n;
    size_t off_parents = tdn__align_up(sizeof(tdn_skeleton), 64);
    size_t off_mats = tdn__align_up(off_parents + un * sizeof(int16_t), 64);
    size_t off_rest = off_mats + un * sizeof(tdn_mat4);
    size_t off_end = tdn__align_up(off_rest + un * sizeof(tdn_transform), sizeof(int));
    size_t off_depth = off_end + un * sizeof(int);
    size_t off_by_name = off_depth + un * sizeof(int);
    size_t off_names = off_by_name + un * sizeof(int);
    size_t total = off_names + un * TDN_MAX_JOINT_NAME;
    size_t temp_bytes = sizeof(int) * (6 * un + 1);

    int *temp = tdn__alloc(allocator, temp_bytes, sizeof(int));
    char *block = temp ? tdn__alloc(allocator, total, 64) : NULL;
    if (!block) {
        tdn__free(allocator, temp, temp_bytes);
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "allocating %zu bytes failed", total);
    }
    int *order = temp, *child_start = temp + un, *children = temp + 2 * un + 1, *stack = temp + 3 * un + 1,
        *new_index = temp + 4 * un + 1;

    tdn_result result = TDN_OK;
    int reached = depth_first_order(desc->parents, n, order, child_start, children, stack);
    if (reached < n) {
        /* Joints never reached from a root lie on a cycle or hang below one. */
        memset(new_index, 0, sizeof(int) * un);
        for (int k = 0; k < reached; k++)
            new_index[order[k]] = 1;
        int bad = 0;
        while (new_index[bad])
            bad++;
        desc_name(desc, bad, name);
        snprintf(where, sizeof where, "joint %d '%.64s'", bad, name);
        result = tdn__fail(err, TDN_ERR_INVALID_DATA, where,
                           "the parent chain of this joint is a cycle (it never reaches a root)");
        goto fail;
    }

    tdn_skeleton *s = (tdn_skeleton *)block;
    memset(s, 0, sizeof *s);
    s->allocator = tdn__allocator_of(allocator);
    s->bytes = total;
    s->joint_count = n;
    s->parents = (int16_t *)(block + off_parents);
    s->inverse_bind = (tdn_mat4 *)(block + off_mats);
    s->rest = (tdn_transform *)(block + off_rest);
    s->subtree_end = (int *)(block + off_end);
    s->depth = (int *)(block + off_depth);
    s->by_name = (int *)(block + off_by_name);
    s->names = (char(*)[TDN_MAX_JOINT_NAME])(block + off_names);

    for (int k = 0; k < n; k++)
        new_index[order[k]] = k;
    for (int k = 0; k < n; k++) {
        int src = order[k];
        int p = desc->parents[src];
        s->parents[k] = (int16_t)(p < 0 ? -1 : new_index[p]);
        s->depth[k] = p < 0 ? 0 : s->depth[s->parents[k]] + 1;
        desc_name(desc, src, name);
        memcpy(s->names[k], name, strlen(name) + 1);
        if (desc->rest_pose) {
            s->rest[k] = desc->rest_pose[src];
            s->rest[k].r = tdn_quat_normalize(s->rest[k].r); /* documented repair */
        } else {
            s->rest[k] = tdn_transform_identity();
        }
    }
    /* Pre-order: a subtree ends at the next joint that is not deeper than its root. */
    for (int k = n - 1; k >= 0; k--) {
        int end = k + 1;
        while (end < n && s->depth[end] > s->depth[k])
            end = s->subtree_end[end];
        s->subtree_end[k] = end;
    }

    for (int k = 0; k < n; k++)
        s->by_name[k] = k;
    sort_by_name(s->by_name, temp + 5 * un + 1, n, s->names);
    for (int k = 1; k < n; k++)
        if (strcmp(s->names[s->by_name[k - 1]], s->names[s->by_name[k]]) == 0) {
            int dup = order[s->by_name[k] > s->by_name[k - 1] ? s->by_name[k] : s->by_name[k - 1]];
            snprintf(where, sizeof where, "joint %d '%.64s'", dup, s->names[s->by_name[k]]);
            result = tdn__fail(err, TDN_ERR_INVALID_DATA, where, "duplicate joint name");
            goto fail;
        }

    if (desc->inverse_bind) {
        for (int k = 0; k < n; k++)
            s->inverse_bind[k] = desc->inverse_bind[order[k]];
    } else {
        /* Model-space rest matrices, then their inverses (parents come first). */
        for (int k = 0; k < n; k++) {
            tdn_mat4 local = tdn_transform_to_mat4(&s->rest[k]);
            s->inverse_bind[k] = s->parents[k] < 0 ? local : tdn_mat4_mul(&s->inverse_bind[s->parents[k]], &local);
        }
        for (int k = n - 1; k >= 0; k--) {
            tdn_mat4 model = s->inverse_bind[k];
            if (!tdn_mat4_invert(&model, &s->inverse_bind[k])) {
                snprintf(where, sizeof where, "joint %d '%.64s'", order[k], s->names[k]);
                result = tdn__fail(err, TDN_ERR_INVALID_DATA, where,
                                   "model-space rest matrix is singular, no inverse bind matrix");
                goto fail;
            }
        }
    }
    /* Affine exactly (given ones were checked within a tolerance, inverses may round). */
    for (int k = 0; k < n; k++) {
        float *m = s->inverse_bind[k].m;
        m[3] = m[7] = m[11] = 0.0f;
        m[15] = 1.0f;
    }

    if (desc->remap)
        for (int i = 0; i < n; i++)
            desc->remap[i] = new_index[i];
    tdn__free(allocator, temp, temp_bytes);
    *out = s;
    return TDN_OK;

fail:
    tdn__free(allocator, block, total);
    tdn__free(allocator, temp, temp_bytes);
    return result;
}

void tdn_skeleton_destroy(tdn_skeleton *skeleton)
{
    if (!skeleton)
        return;
    tdn_allocator allocator = skeleton->allocator;
    tdn__free(&allocator, skeleton, skeleton->bytes);
}

static int valid_joint(const tdn_skeleton *s, int joint) { return s && joint >= 0 && joint < s->joint_count; }

int tdn_skeleton_joint_count(const tdn_skeleton *s) { return s ? s->joint_count : 0; }
int tdn_skeleton_parent(const tdn_skeleton *s, int joint) { return valid_joint(s, joint) ? s->parents[joint] : -1; }
const int16_t *tdn_skeleton_parents(const tdn_skeleton *s) { return s ? s->parents : NULL; }
const char *tdn_skeleton_joint_name(const tdn_skeleton *s, int joint)
{
    return valid_joint(s, joint) ? s->names[joint] : NULL;
}
int tdn_skeleton_depth(const tdn_skeleton *s, int joint) { return valid_joint(s, joint) ? s->depth[joint] : -1; }
int tdn_skeleton_subtree_end(const tdn_skeleton *s, int joint)
{
    return valid_joint(s, joint) ? s->subtree_end[joint] : joint;
}
const tdn_mat4 *tdn_skeleton_inverse_bind(const tdn_skeleton *s) { return s ? s->inverse_bind : NULL; }

int tdn_skeleton_is_in_subtree(const tdn_skeleton *s, int joint, int ancestor)
{
    return valid_joint(s, joint) && valid_joint(s, ancestor) && joint >= ancestor && joint < s->subtree_end[ancestor];
}

tdn_transform tdn_skeleton_rest(const tdn_skeleton *s, int joint)
{
    return valid_joint(s, joint) ? s->rest[joint] : tdn_transform_identity();
}

int tdn_skeleton_find_joint(const tdn_skeleton *s, const char *name)
{
    if (!s || !name)
        return -1;
    int lo = 0, hi = s->joint_count - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        int c = strcmp(name, s->names[s->by_name[mid]]);
        if (c == 0)
            return s->by_name[mid];
        if (c < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return -1;
}
