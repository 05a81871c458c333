/* tendon core: a pack's mesh section ('MESH'): a skinned mesh written, checked against the
 * skeleton section it names, and built as a tdn_pack_mesh pointing into the section. */
#include "pack_internal.h"

#include <float.h>

/* Where each array of `mesh` starts, by header field (0: absent). */
static void layout(const tdn_pack_mesh *m, size_t at[TDN__MESH_FIELDS], size_t *end)
{
    const size_t vn = (size_t)m->vertex_count, influences = 4 * (size_t)m->influence_sets;
    const size_t A = TDN__PACK_MIN_ALIGN;
    size_t o = TDN__PACK_SECTION_HEADER_BYTES;
    at[TDN__MESH_POSITIONS] = o;
    o = tdn__align_up(o + vn * 3 * sizeof(float), A);
    at[TDN__MESH_NORMALS] = m->normals ? o : 0;
    o = m->normals ? tdn__align_up(o + vn * 3 * sizeof(float), A) : o;
    at[TDN__MESH_UVS] = m->uvs ? o : 0;
    o = m->uvs ? tdn__align_up(o + vn * 2 * sizeof(float), A) : o;
    at[TDN__MESH_JOINTS] = o;
    o = tdn__align_up(o + vn * influences * sizeof(uint16_t), A);
    at[TDN__MESH_WEIGHTS] = o;
    o = tdn__align_up(o + vn * influences * sizeof(float), A);
    at[TDN__MESH_INDICES] = m->index_count > 0 ? o : 0;
    o = tdn__align_up(o + (size_t)m->index_count * sizeof(uint32_t), A);
    *end = tdn__align_up(o, TDN_PACK_ALIGN);
}

size_t tdn__pack_mesh_size(const tdn_pack_mesh *mesh)
{
    size_t at[TDN__MESH_FIELDS], end;
    layout(mesh, at, &end);
    return end;
}

void tdn__pack_mesh_write(const tdn_pack_mesh *m, uint32_t name, uint32_t skeleton_section, unsigned char *out)
{
    size_t at[TDN__MESH_FIELDS], end;
    layout(m, at, &end);
    const uint32_t header[TDN__MESH_POSITIONS] = { name, skeleton_section, (uint32_t)m->vertex_count,
                                                   (uint32_t)m->index_count, (uint32_t)m->influence_sets };
    for (int f = 0; f < TDN__MESH_FIELDS; f++)
        tdn__pack_put_u32(out + 4 * f, f < TDN__MESH_POSITIONS ? header[f] : (uint32_t)at[f]);
    const size_t vn = (size_t)m->vertex_count, influences = 4 * (size_t)m->influence_sets;
    memcpy(out + at[TDN__MESH_POSITIONS], m->positions, vn * 3 * sizeof(float));
    if (m->normals)
        memcpy(out + at[TDN__MESH_NORMALS], m->normals, vn * 3 * sizeof(float));
    if (m->uvs)
        memcpy(out + at[TDN__MESH_UVS], m->uvs, vn * 2 * sizeof(float));
    memcpy(out + at[TDN__MESH_JOINTS], m->joints, vn * influences * sizeof(uint16_t));
    memcpy(out + at[TDN__MESH_WEIGHTS], m->weights, vn * influences * sizeof(float));
    if (m->index_count > 0)
        memcpy(out + at[TDN__MESH_INDICES], m->indices, (size_t)m->index_count * sizeof(uint32_t));
}

/* An optional array: absent when its offset is 0. */
static const void *optional(const tdn__pack_view *v, int s, int field, size_t count, size_t elem, const char *what,
                            const char *name, int *failed)
{
    if (tdn__pack_field(v, s, field) == 0)
        return NULL;
    const void *p = tdn__pack_array(v, s, field, count, elem, TDN__PACK_MIN_ALIGN, what, name);
    *failed |= p == NULL;
    return p;
}

/* The arrays of section s into m (counts checked); TDN_OK or the failure, reported. */
static tdn_result find_arrays(const tdn__pack_view *v, int s, const char *what, tdn_pack_mesh *m)
{
    const size_t vn = tdn__pack_field(v, s, TDN__MESH_VERTEX_COUNT);
    const size_t influences = 4 * (size_t)tdn__pack_field(v, s, TDN__MESH_INFLUENCE_SETS);
    const size_t A = TDN__PACK_MIN_ALIGN;
    int failed = 0;
    /* vn and influences are bounded (checked first), so the products below cannot overflow */
    m->positions = tdn__pack_array(v, s, TDN__MESH_POSITIONS, vn * 3, sizeof(float), A, what, "positions");
    failed |= !m->positions;
    m->normals = failed ? NULL : optional(v, s, TDN__MESH_NORMALS, vn * 3, sizeof(float), what, "normals", &failed);
    m->uvs = failed ? NULL : optional(v, s, TDN__MESH_UVS, vn * 2, sizeof(float), what, "uvs", &failed);
    m->joints = failed ? NULL
                       : tdn__pack_array(v, s, TDN__MESH_JOINTS, vn * influences, sizeof(uint16_t), A, what, "joints");
    failed |= !m->joints;
    m->weights = failed ? NULL
                        : tdn__pack_array(v, s, TDN__MESH_WEIGHTS, vn * influences, sizeof(float), A, what, "weights");
    failed |= !m->weights;
    const size_t index_count = tdn__pack_field(v, s, TDN__MESH_INDEX_COUNT);
    if (!failed && (index_count > 0 || tdn__pack_field(v, s, TDN__MESH_INDICES) != 0)) {
        m->indices = tdn__pack_array(v, s, TDN__MESH_INDICES, index_count, sizeof(uint32_t), A, what, "indices");
        failed |= !m->indices;
    }
    return failed ? TDN_ERR_INVALID_DATA : TDN_OK;
}

static size_t byte_of(const tdn__pack_view *v, const void *p, size_t i, size_t elem)
{
    return (size_t)((const unsigned char *)p - v->bytes) + i * elem;
}

static tdn_result check_floats(const tdn__pack_view *v, const float *p, size_t count, const char *what,
                               const char *name)
{
    const long bad = p ? tdn__pack_first_nonfinite(p, count) : -1;
    return bad < 0 ? TDN_OK
                   : tdn__pack_fail(v, byte_of(v, p, (size_t)bad, 4), "%s: %s[%ld] is not finite", what, name, bad);
}

/* Whole-array tests written as integer reductions, which the compiler vectorizes (the joints'
 * as a maximum: two operations per 8 joints, where comparing each widens it to 32 bits). */
static int any_joint_at_or_above(const uint16_t *joints, size_t n, uint32_t limit)
{
    uint16_t most = 0;
    for (size_t i = 0; i < n; i++)
        most = joints[i] > most ? joints[i] : most;
    return n > 0 && most >= limit;
}
/* For limit in 1..INT32_MAX: an index is below it when neither the index nor limit - 1 - index
 * has its top bit set. */
static int any_index_at_or_above(const uint32_t *indices, size_t n, uint32_t limit)
{
    uint32_t any = 0;
    for (size_t i = 0; i < n; i++)
        any |= indices[i] | (limit - 1 - indices[i]);
    return any >> 31 != 0;
}
/* A float is finite and >= 0 when its bits are at most the largest finite positive float's,
 * or are -0. */
static int any_negative_or_nonfinite(const float *weights, size_t n)
{
    uint32_t any = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t bits;
        memcpy(&bits, &weights[i], 4);
        any |= (uint32_t)(bits > 0x7f7fffffu) & (uint32_t)(bits != 0x80000000u);
    }
    return any != 0;
}

static tdn_result check(const tdn__pack_view *v, int s, int index)
{
    char what[32];
    tdn__place(what, sizeof what, "mesh ", index, "");
    tdn_result res = tdn__pack_check_header(v, s, TDN__MESH_FIELDS, TDN__MESH_NAME, what);
    if (res != TDN_OK)
        return res;
    const size_t base = tdn__pack_section_at(v, s).offset, size = tdn__pack_section_at(v, s).size;
    const int skeleton = tdn__pack_section_ref(v, s, TDN__MESH_SKELETON, TDN__PACK_SKELETON, "skeleton", what);
    if (skeleton < 0)
        return TDN_ERR_INVALID_DATA;
    const uint32_t vn = tdn__pack_field(v, s, TDN__MESH_VERTEX_COUNT),
                   sets = tdn__pack_field(v, s, TDN__MESH_INFLUENCE_SETS);
    const uint32_t index_count = tdn__pack_field(v, s, TDN__MESH_INDEX_COUNT);
    /* every vertex takes more than 12 bytes of the section: a count beyond that is false */
    if (vn < 1 || vn > size / 12 || vn > INT32_MAX)
        return tdn__pack_fail(v, base + 4 * TDN__MESH_VERTEX_COUNT,
                              "%s: vertex_count %u is outside 1..%zu (what its section holds)", what, vn, size / 12);
    if (index_count % 3 != 0 || index_count > size / 4 || index_count > INT32_MAX)
        return tdn__pack_fail(v, base + 4 * TDN__MESH_INDEX_COUNT,
                              "%s: index_count %u is not a multiple of 3 within what its section holds", what,
                              index_count);
    if (sets < 1 || sets > 2)
        return tdn__pack_fail(v, base + 4 * TDN__MESH_INFLUENCE_SETS, "%s: influence_sets %u is not 1 or 2", what,
                              sets);
    tdn_pack_mesh m = { 0 };
    res = find_arrays(v, s, what, &m);
    if (res == TDN_OK)
        res = check_floats(v, m.positions, 3 * (size_t)vn, what, "positions");
    if (res == TDN_OK)
        res = check_floats(v, m.normals, 3 * (size_t)vn, what, "normals");
    if (res == TDN_OK)
        res = check_floats(v, m.uvs, 2 * (size_t)vn, what, "uvs");
    if (res != TDN_OK)
        return res;
    const size_t influences = 4 * (size_t)sets * vn;
    const uint32_t joint_count = tdn__pack_field(v, (int)skeleton, TDN__SKEL_JOINT_COUNT); /* checked: a skeleton's */
    /* branch-free passes (memory speed); the first offender is searched for only on failure */
    if (any_joint_at_or_above(m.joints, influences, joint_count))
        for (size_t i = 0;; i++)
            if (m.joints[i] >= joint_count)
                return tdn__pack_fail(v, byte_of(v, m.joints, i, 2),
                                      "%s: joints[%zu] = %u is not a joint of skeleton section %u (%u joints)", what, i,
                                      m.joints[i], skeleton, joint_count);
    if (any_negative_or_nonfinite(m.weights, influences))
        for (size_t i = 0;; i++)
            if (!(m.weights[i] >= 0.0f && m.weights[i] <= FLT_MAX))
                return tdn__pack_fail(v, byte_of(v, m.weights, i, 4), "%s: weights[%zu] = %g is not finite and >= 0",
                                      what, i, (double)m.weights[i]);
    if (m.indices && any_index_at_or_above(m.indices, index_count, vn))
        for (size_t i = 0;; i++)
            if (m.indices[i] >= vn)
                return tdn__pack_fail(v, byte_of(v, m.indices, i, 4),
                                      "%s: indices[%zu] = %u is not below vertex_count %u", what, i, m.indices[i], vn);
    return TDN_OK;
}

static void build(const tdn__pack_view *v, int s, void *object, void *extra, const int *object_of_section)
{
    (void)extra;
    tdn_pack_mesh *m = object;
    find_arrays(v, s, "", m);
    m->name = tdn__pack_name(v, s, TDN__MESH_NAME, "");
    m->skeleton = object_of_section[tdn__pack_field(v, s, TDN__MESH_SKELETON)];
    m->vertex_count = (int)tdn__pack_field(v, s, TDN__MESH_VERTEX_COUNT);
    m->influence_sets = (int)tdn__pack_field(v, s, TDN__MESH_INFLUENCE_SETS);
    m->index_count = (int)tdn__pack_field(v, s, TDN__MESH_INDEX_COUNT);
    if (m->index_count == 0)
        m->indices = NULL;
}

const tdn__pack_reader tdn__pack_mesh_reader = {
    TDN__PACK_MESH, sizeof(tdn_pack_mesh), _Alignof(tdn_pack_mesh), check, NULL, build
};
