/* tendon core: a pack's skeleton section ('SKEL'): written from a skeleton, checked, and built
 * as a skeleton whose arrays are the section's bytes (the derived ones included, each checked
 * against the parents and names in one pass). */
#include "pack_internal.h"

/* How far a rest rotation's squared length may be from 1 (skeletons store them normalized). */

/* Where each array of a skeleton of n joints starts, by header field. */
static void layout(int n, size_t at[TDN__SKEL_FIELDS], size_t *end)
{
    const size_t un = (size_t)n;
    size_t o = TDN__PACK_SECTION_HEADER_BYTES;
    at[TDN__SKEL_PARENTS] = o;
    o = tdn__align_up(o + un * sizeof(int16_t), TDN__PACK_MIN_ALIGN);
    at[TDN__SKEL_SUBTREE_END] = o;
    o = tdn__align_up(o + un * sizeof(int32_t), TDN__PACK_MIN_ALIGN);
    at[TDN__SKEL_DEPTH] = o;
    o = tdn__align_up(o + un * sizeof(int32_t), TDN__PACK_MIN_ALIGN);
    at[TDN__SKEL_BY_NAME] = o;
    o = tdn__align_up(o + un * sizeof(int32_t), TDN__PACK_MIN_ALIGN);
    at[TDN__SKEL_NAMES] = o;
    o = tdn__align_up(o + un * TDN_MAX_JOINT_NAME, TDN_PACK_ALIGN);
    at[TDN__SKEL_REST] = o;
    o = tdn__align_up(o + un * sizeof(tdn_transform), TDN_PACK_ALIGN);
    at[TDN__SKEL_INVERSE_BIND] = o;
    *end = tdn__align_up(o + un * sizeof(tdn_mat4), TDN_PACK_ALIGN);
}

size_t tdn__pack_skeleton_size(int joint_count)
{
    size_t at[TDN__SKEL_FIELDS], end;
    layout(joint_count, at, &end);
    return end;
}

void tdn__pack_skeleton_write(const tdn_skeleton *s, uint32_t name, unsigned char *out)
{
    const int n = s->joint_count;
    size_t at[TDN__SKEL_FIELDS], end;
    layout(n, at, &end);
    tdn__pack_put_u32(out + 4 * TDN__SKEL_NAME, name);
    tdn__pack_put_u32(out + 4 * TDN__SKEL_JOINT_COUNT, (uint32_t)n);
    for (int f = TDN__SKEL_PARENTS; f < TDN__SKEL_FIELDS; f++)
        tdn__pack_put_u32(out + 4 * f, (uint32_t)at[f]);
    /* the skeleton's own arrays, as they are (a little-endian machine's layout is the file's) */
    const size_t un = (size_t)n;
    memcpy(out + at[TDN__SKEL_PARENTS], s->parents, un * sizeof(int16_t));
    memcpy(out + at[TDN__SKEL_SUBTREE_END], s->subtree_end, un * sizeof(int32_t));
    memcpy(out + at[TDN__SKEL_DEPTH], s->depth, un * sizeof(int32_t));
    memcpy(out + at[TDN__SKEL_BY_NAME], s->by_name, un * sizeof(int32_t));
    for (int j = 0; j < n; j++) /* the name and zeros after it: one skeleton, one byte image */
        strncpy((char *)out + at[TDN__SKEL_NAMES] + (size_t)j * TDN_MAX_JOINT_NAME, s->names[j], TDN_MAX_JOINT_NAME);
    memcpy(out + at[TDN__SKEL_REST], s->rest, un * sizeof(tdn_transform));
    memcpy(out + at[TDN__SKEL_INVERSE_BIND], s->inverse_bind, un * sizeof(tdn_mat4));
}

/* The arrays of a checked section. */
typedef struct arrays {
    const int16_t *parents;
    const int32_t *subtree_end, *depth, *by_name;
    const char (*names)[TDN_MAX_JOINT_NAME];
    const tdn_transform *rest;
    const tdn_mat4 *inverse_bind;
} arrays;

static const void *array(const tdn__pack_view *v, int s, int field, int n, size_t elem, size_t align, const char *what,
                         const char *name)
{
    return tdn__pack_array(v, s, field, (size_t)n, elem, align, what, name);
}

static tdn_result find_arrays(const tdn__pack_view *v, int s, int n, const char *what, arrays *a)
{
    const size_t A = TDN__PACK_MIN_ALIGN;
    a->parents = array(v, s, TDN__SKEL_PARENTS, n, sizeof(int16_t), A, what, "parents");
    a->subtree_end = a->parents ? array(v, s, TDN__SKEL_SUBTREE_END, n, sizeof(int32_t), A, what, "subtree_end") : NULL;
    a->depth = a->subtree_end ? array(v, s, TDN__SKEL_DEPTH, n, sizeof(int32_t), A, what, "depth") : NULL;
    a->by_name = a->depth ? array(v, s, TDN__SKEL_BY_NAME, n, sizeof(int32_t), A, what, "by_name") : NULL;
    a->names = a->by_name ? (const char(*)[TDN_MAX_JOINT_NAME])(uintptr_t)array(v, s, TDN__SKEL_NAMES, n,
                                                                                TDN_MAX_JOINT_NAME, A, what, "names")
                          : NULL;
    a->rest = a->names ? array(v, s, TDN__SKEL_REST, n, sizeof(tdn_transform), TDN_PACK_ALIGN, what, "rest") : NULL;
    a->inverse_bind = a->rest ? array(v, s, TDN__SKEL_INVERSE_BIND, n, sizeof(tdn_mat4), TDN_PACK_ALIGN, what,
                                      "inverse_bind")
                              : NULL;
    return a->inverse_bind ? TDN_OK : TDN_ERR_INVALID_DATA;
}

/* The byte of element j of an array of `elem` bytes that starts at p. */
static size_t byte_of(const tdn__pack_view *v, const void *p, int j, size_t elem)
{
    return (size_t)((const unsigned char *)p - v->bytes) + (size_t)j * elem;
}

/* Parents, depths and subtree ends: each parent before its child, the joints in depth-first
 * pre-order (a joint's parent is the previous joint or one of its ancestors), each depth its
 * parent's plus one, each subtree end the first later joint not deeper. O(n): the walk up from
 * the previous joint and the jumps over child subtrees each add up to n. */
static tdn_result check_hierarchy(const tdn__pack_view *v, const arrays *a, int n, const char *what)
{
    for (int j = 0; j < n; j++) {
        const int p = a->parents[j];
        if (p < -1 || p >= j)
            return tdn__pack_fail(v, byte_of(v, a->parents, j, 2), "%s: parents[%d] = %d is not before joint %d", what,
                                  j, p, j);
        const int d = p < 0 ? 0 : a->depth[p] + 1;
        if (a->depth[j] != d)
            return tdn__pack_fail(v, byte_of(v, a->depth, j, 4), "%s: depth[%d] = %d, but its parent makes it %d", what,
                                  j, a->depth[j], d);
        if (p >= 0) {
            int up = j - 1;
            while (up >= 0 && a->depth[up] > d - 1)
                up = a->parents[up];
            if (up != p)
                return tdn__pack_fail(v, byte_of(v, a->parents, j, 2),
                                      "%s: parents[%d] = %d is not joint %d or one of its ancestors (joints must be "
                                      "in depth-first pre-order)",
                                      what, j, p, j - 1);
        }
    }
    for (int k = n - 1; k >= 0; k--) {
        int end = k + 1;
        while (end < n && a->depth[end] > a->depth[k])
            end = a->subtree_end[end]; /* checked already: later joints come first */
        if (a->subtree_end[k] != end)
            return tdn__pack_fail(v, byte_of(v, a->subtree_end, k, 4),
                                  "%s: subtree_end[%d] = %d, but the depths make it %d", what, k, a->subtree_end[k],
                                  end);
    }
    return TDN_OK;
}

/* Names: each non-empty and ending inside its 64 bytes; by_name lists joints in strictly
 * increasing name order, which makes it a permutation and the names unique. */
static tdn_result check_names(const tdn__pack_view *v, const arrays *a, int n, const char *what)
{
    for (int j = 0; j < n; j++)
        if (a->names[j][0] == '\0' || !memchr(a->names[j], '\0', TDN_MAX_JOINT_NAME))
            return tdn__pack_fail(v, byte_of(v, a->names, j, TDN_MAX_JOINT_NAME), "%s: names[%d] is %s", what, j,
                                  a->names[j][0] ? "not zero-terminated within its 64 bytes" : "empty");
    for (int k = 0; k < n; k++) {
        const int j = a->by_name[k];
        if (j < 0 || j >= n)
            return tdn__pack_fail(v, byte_of(v, a->by_name, k, 4), "%s: by_name[%d] = %d is not a joint (0..%d)", what,
                                  k, j, n - 1);
        if (k > 0 && strcmp(a->names[a->by_name[k - 1]], a->names[j]) >= 0)
            return tdn__pack_fail(v, byte_of(v, a->by_name, k, 4),
                                  "%s: by_name[%d] = %d ('%.64s') does not come after by_name[%d] ('%.64s') in name "
                                  "order (names sorted, each once)",
                                  what, k, j, a->names[j], k - 1, a->names[a->by_name[k - 1]]);
    }
    return TDN_OK;
}

static tdn_result check_transforms(const tdn__pack_view *v, const arrays *a, int n, const char *what)
{
    long bad = tdn__pack_first_nonfinite((const float *)a->rest, (size_t)n * 10);
    if (bad >= 0)
        return tdn__pack_fail(v, byte_of(v, a->rest, (int)bad, 4), "%s: rest[%ld] has a value that is not finite", what,
                              bad / 10);
    bad = tdn__pack_first_nonfinite((const float *)a->inverse_bind, (size_t)n * 16);
    if (bad >= 0)
        return tdn__pack_fail(v, byte_of(v, a->inverse_bind, (int)bad, 4),
                              "%s: inverse_bind[%ld] has a value that is not finite", what, bad / 16);
    for (int j = 0; j < n; j++) {
        const tdn_transform *x = &a->rest[j];
        const float len2 = tdn_quat_dot(x->r, x->r);
        if (fabsf(len2 - 1.0f) > TDN__PACK_UNIT_TOLERANCE)
            return tdn__pack_fail(v, byte_of(v, a->rest, j, sizeof *x) + 12,
                                  "%s: rest[%d]'s rotation has length %g, not 1", what, j, (double)sqrtf(len2));
        if (x->s.x == 0.0f || x->s.y == 0.0f || x->s.z == 0.0f)
            return tdn__pack_fail(v, byte_of(v, a->rest, j, sizeof *x) + 28,
                                  "%s: rest[%d]'s scale has a zero component", what, j);
        const float *m = a->inverse_bind[j].m;
        if (m[3] != 0.0f || m[7] != 0.0f || m[11] != 0.0f || m[15] != 1.0f)
            return tdn__pack_fail(v, byte_of(v, a->inverse_bind, j, sizeof(tdn_mat4)),
                                  "%s: inverse_bind[%d]'s last row is %g %g %g %g, not 0 0 0 1", what, j, (double)m[3],
                                  (double)m[7], (double)m[11], (double)m[15]);
    }
    return TDN_OK;
}

static tdn_result check(const tdn__pack_view *v, int s, int index)
{
    char what[32];
    tdn__place(what, sizeof what, "skeleton ", index, "");
    tdn_result res = tdn__pack_check_header(v, s, TDN__SKEL_FIELDS, TDN__SKEL_NAME, what);
    if (res != TDN_OK)
        return res;
    const uint32_t n = tdn__pack_field(v, s, TDN__SKEL_JOINT_COUNT);
    if (n < 1 || n > TDN_MAX_JOINTS)
        return tdn__pack_fail(v, tdn__pack_section_at(v, s).offset + 4 * TDN__SKEL_JOINT_COUNT,
                              "%s: joint_count %u is outside 1..%d", what, n, TDN_MAX_JOINTS);
    arrays a;
    res = find_arrays(v, s, (int)n, what, &a);
    if (res == TDN_OK)
        res = check_hierarchy(v, &a, (int)n, what);
    if (res == TDN_OK)
        res = check_names(v, &a, (int)n, what);
    if (res == TDN_OK)
        res = check_transforms(v, &a, (int)n, what);
    return res;
}

static void build(const tdn__pack_view *v, int s, void *object, void *extra, const int *object_of_section)
{
    (void)extra;
    (void)object_of_section;
    tdn__pack_skeleton *o = object;
    const char *what = "";
    const int n = (int)tdn__pack_field(v, s, TDN__SKEL_JOINT_COUNT);
    arrays a;
    find_arrays(v, s, n, what, &a);
    o->name = tdn__pack_name(v, s, TDN__SKEL_NAME, what);
    tdn_skeleton *k = &o->skeleton;
    k->joint_count = n;
    /* the skeleton never writes through these: they stay the caller's read-only bytes */
    k->parents = (int16_t *)(uintptr_t)a.parents;
    k->subtree_end = (int *)(uintptr_t)a.subtree_end;
    k->depth = (int *)(uintptr_t)a.depth;
    k->by_name = (int *)(uintptr_t)a.by_name;
    k->names = (char(*)[TDN_MAX_JOINT_NAME])(uintptr_t)a.names;
    k->rest = (tdn_transform *)(uintptr_t)a.rest;
    k->inverse_bind = (tdn_mat4 *)(uintptr_t)a.inverse_bind;
}

const tdn__pack_reader tdn__pack_skeleton_reader = {
    TDN__PACK_SKELETON, sizeof(tdn__pack_skeleton), _Alignof(tdn__pack_skeleton), check, NULL, build
};
