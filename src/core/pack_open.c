/* tendon core: opening a runtime pack (tdn_pack_open): the header and the section table, then
 * each known section through its reader, then one allocation for every object's header. */
#include "pack_internal.h"
#include "root_track_internal.h"
#include "tendon/packed_graph.h"

#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>

/* The readers of the kinds this version knows, in the order they run (a mesh refers to a
 * skeleton). A new kind is one more reader here, and its objects' accessors. */
static const tdn__pack_reader *const READERS[] = { &tdn__pack_skeleton_reader,  &tdn__pack_clip_reader,
                                                   &tdn__pack_mesh_reader,      &tdn__pack_graph_reader,
                                                   &tdn__pack_root_reader,      &tdn__pack_database_reader,
                                                   &tdn__pack_definition_reader };
enum {
    READER_COUNT = sizeof READERS / sizeof READERS[0],
    SKELETONS = 0,
    CLIPS = 1,
    MESHES = 2,
    GRAPHS = 3,
    ROOTS = 4,
    DATABASES = 5,
    DEFINITIONS = 6
};

struct tdn_pack {
    tdn_allocator allocator;
    size_t bytes; /* of this allocation */
    const unsigned char *image;
    int section_count;
    tdn__pack_section *sections;
    int *object_of_section; /* a section's index among its kind's (-1: no reader) */
    int count[READER_COUNT];
    unsigned char *objects[READER_COUNT];
};

/* An error of `code` whose `where` is "byte N". */
static tdn_result fail_at_byte(tdn_error *err, tdn_result code, size_t byte, const char *fmt, va_list args)
{
    char where[48], message[256];
    snprintf(where, sizeof where, "byte %zu", byte);
    vsnprintf(message, sizeof message, fmt, args);
    return tdn__fail(err, code, where, "%s", message);
}

tdn_result tdn__pack_fail(const tdn__pack_view *v, size_t byte, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    const tdn_result r = fail_at_byte(v->err, TDN_ERR_INVALID_DATA, byte, fmt, args);
    va_end(args);
    return r;
}

tdn_result tdn__pack_check_header(const tdn__pack_view *v, int s, int first, int name_field, const char *what)
{
    const tdn__pack_section section = tdn__pack_section_at(v, s), *sec = &section;
    const size_t header = tdn__pack_header_bytes(sec->kind);
    if (sec->size < header)
        return tdn__pack_fail(v, sec->offset, "%s: its section has %zu bytes, less than its %zu-byte header", what,
                              sec->size, header);
    for (int f = first; f < (int)header / 4; f++)
        if (tdn__pack_field(v, s, f) != 0)
            return tdn__pack_fail(v, sec->offset + 4 * (size_t)f, "%s: reserved header field %d is %u, not 0", what, f,
                                  tdn__pack_field(v, s, f));
    return name_field < 0 || tdn__pack_name(v, s, name_field, what) ? TDN_OK : TDN_ERR_INVALID_DATA;
}

const void *tdn__pack_array(const tdn__pack_view *v, int s, int field, size_t count, size_t elem, size_t align,
                            const char *what, const char *array)
{
    return tdn__pack_array_at(v, s, tdn__pack_section_at(v, s).offset + 4 * (size_t)field, tdn__pack_field(v, s, field),
                              count, elem, align, what, array);
}

const void *tdn__pack_array_at(const tdn__pack_view *v, int s, size_t at, size_t offset, size_t count, size_t elem,
                               size_t align, const char *what, const char *array)
{
    const tdn__pack_section section = tdn__pack_section_at(v, s), *sec = &section;
    const size_t header = tdn__pack_header_bytes(sec->kind);
    if (offset < header || offset > sec->size || offset % align != 0) {
        tdn__pack_fail(v, at, "%s: %s offset %zu is not a multiple of %zu in %zu..%zu (the section's bytes)", what,
                       array, offset, align, header, sec->size);
        return NULL;
    }
    if (count > (sec->size - offset) / elem) { /* before count * elem is formed */
        tdn__pack_fail(v, at, "%s: %zu %s of %zu bytes from offset %zu run past the section's %zu bytes", what, count,
                       array, elem, offset, sec->size);
        return NULL;
    }
    return v->bytes + sec->offset + offset;
}

int tdn__pack_section_ref(const tdn__pack_view *v, int s, int field, uint32_t kind, const char *name, const char *what)
{
    const uint32_t ref = tdn__pack_field(v, s, field);
    if (ref < (uint32_t)v->section_count && tdn__pack_section_at(v, (int)ref).kind == kind)
        return (int)ref;
    tdn__pack_fail(v, tdn__pack_section_at(v, s).offset + 4 * (size_t)field,
                   "%s: %s %u is not the index of a %s section", what, name, ref, name);
    return -1;
}

const char *tdn__pack_name(const tdn__pack_view *v, int s, int field, const char *what)
{
    return tdn__pack_string(v, tdn__pack_section_at(v, s).offset + 4 * (size_t)field, tdn__pack_field(v, s, field),
                            what);
}

const char *tdn__pack_string(const tdn__pack_view *v, size_t at, size_t offset, const char *what)
{
    if (!v->strings || offset >= v->strings_size) {
        tdn__pack_fail(v, at, "%s: name offset %zu is outside the string table (%zu bytes)", what, offset,
                       v->strings_size);
        return NULL;
    }
    if (!memchr(v->strings + offset, '\0', v->strings_size - offset)) {
        tdn__pack_fail(v, at, "%s: the name at string offset %zu has no terminating zero", what, offset);
        return NULL;
    }
    return v->strings + offset;
}

/* Bit 31 set when x's exponent is all ones (x is not finite): adding one to the exponent
 * carries into the sign bit only then. */
static inline uint32_t nonfinite_bit(const float *x)
{
    uint32_t bits;
    memcpy(&bits, x, 4);
    return (bits & 0x7f800000u) + 0x00800000u;
}

long tdn__pack_first_nonfinite(const float *p, size_t count)
{
    /* one branch-free pass (memory speed) in blocks of LANES floats, which the compiler makes a
     * few vector operations; the search only on failure */
    enum { LANES = 16 };
    uint32_t lanes[LANES] = { 0 }, any = 0;
    size_t i = 0;
    for (; i + LANES <= count; i += LANES)
        for (int k = 0; k < LANES; k++)
            lanes[k] |= nonfinite_bit(&p[i + (size_t)k]);
    for (; i < count; i++)
        any |= nonfinite_bit(&p[i]);
    for (int k = 0; k < LANES; k++)
        any |= lanes[k];
    if (!(any & 0x80000000u))
        return -1;
    for (i = 0; i < count; i++)
        if (!tdn__finite(p[i]))
            return (long)i;
    return -1;
}

static const tdn__pack_reader *reader_of(uint32_t kind, int *which)
{
    for (int r = 0; r < READER_COUNT; r++)
        if (READERS[r]->kind == kind) {
            *which = r;
            return READERS[r];
        }
    return NULL;
}

static tdn_result parse_fail(tdn_error *err, size_t byte, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    const tdn_result r = fail_at_byte(err, TDN_ERR_PARSE, byte, fmt, args);
    va_end(args);
    return r;
}

/* The header: what makes these bytes a pack of this version, and where its table is. */
static tdn_result check_header(const unsigned char *b, size_t size, size_t *table, int *count, tdn_error *err)
{
    if (size < TDN__PACK_HEADER_BYTES || memcmp(b, TDN__PACK_MAGIC, 8) != 0)
        return parse_fail(err, 0, "not a tendon pack (no \"%s\" header in the first %d bytes)", TDN__PACK_MAGIC,
                          TDN__PACK_HEADER_BYTES);
    const uint32_t version = tdn__pack_u32(b + 8);
    if (version != TDN_PACK_VERSION)
        return parse_fail(err, 8, "pack version %u; this tendon reads version %d", version, TDN_PACK_VERSION);
    uint32_t tag;
    memcpy(&tag, b + 12, 4);
    if (tag != TDN__PACK_ENDIAN_TAG)
        return parse_fail(err, 12,
                          "endianness tag 0x%08x is not 0x%08x: not a little-endian pack read on a "
                          "little-endian machine",
                          (unsigned)tag, (unsigned)TDN__PACK_ENDIAN_TAG);
    const uint64_t file_size = tdn__pack_u64(b + 16);
    if (file_size != size)
        return parse_fail(err, 16, "the header says the file has %llu bytes, but it has %zu (truncated or extended)",
                          (unsigned long long)file_size, size);
    for (int k = 40; k < TDN__PACK_HEADER_BYTES; k++)
        if (b[k] != 0)
            return parse_fail(err, (size_t)k, "reserved header byte %d is %u, not 0", k, b[k]);
    const uint64_t offset = tdn__pack_u64(b + 24), n = tdn__pack_u32(b + 32);
    if (tdn__pack_u32(b + 36) != 0)
        return parse_fail(err, 36, "reserved header field is %u, not 0", tdn__pack_u32(b + 36));
    if (offset < TDN__PACK_HEADER_BYTES || offset > size || offset % TDN__PACK_MIN_ALIGN != 0)
        return parse_fail(err, 24, "section table offset %llu is not a multiple of %d in %d..%zu",
                          (unsigned long long)offset, TDN__PACK_MIN_ALIGN, TDN__PACK_HEADER_BYTES, size);
    if (n > TDN__PACK_MAX_SECTIONS || n > (size - offset) / TDN__PACK_ENTRY_BYTES)
        return parse_fail(err, 32, "%llu sections of %d bytes from byte %llu run past the file's %zu bytes",
                          (unsigned long long)n, TDN__PACK_ENTRY_BYTES, (unsigned long long)offset, size);
    *table = (size_t)offset;
    *count = (int)n;
    return TDN_OK;
}

/* Table entry i: kind, alignment, offset, size, reserved; the section inside the file. */
static tdn_result check_entry(const unsigned char *b, size_t size, size_t at, int i, tdn__pack_section *out,
                              tdn_error *err)
{
    const uint32_t kind = tdn__pack_u32(b + at), align = tdn__pack_u32(b + at + 4);
    const uint64_t offset = tdn__pack_u64(b + at + 8), bytes = tdn__pack_u64(b + at + 16);
    int which = 0;
    const tdn__pack_reader *r = reader_of(kind, &which);
    const uint32_t need = r && kind != TDN__PACK_STRINGS ? TDN_PACK_ALIGN : TDN__PACK_MIN_ALIGN;
    if (kind == 0)
        return parse_fail(err, at, "section %d: kind is 0", i);
    if (align < need || align > TDN__PACK_MAX_ALIGN || (align & (align - 1)) != 0)
        return parse_fail(err, at + 4, "section %d: alignment %u is not a power of two in %u..%d", i, align, need,
                          TDN__PACK_MAX_ALIGN);
    if (offset < TDN__PACK_HEADER_BYTES || offset > size || offset % align != 0)
        return parse_fail(err, at + 8, "section %d: offset %llu is not a multiple of %u in %d..%zu", i,
                          (unsigned long long)offset, align, TDN__PACK_HEADER_BYTES, size);
    if (bytes > size - offset)
        return parse_fail(err, at + 16, "section %d: %llu bytes from byte %llu run past the file's %zu bytes", i,
                          (unsigned long long)bytes, (unsigned long long)offset, size);
    if (tdn__pack_u64(b + at + 24) != 0)
        return parse_fail(err, at + 24, "section %d: reserved field is not 0", i);
    out->kind = kind;
    out->offset = (size_t)offset;
    out->size = (size_t)bytes;
    return TDN_OK;
}

/* The string table: at most one, its last byte a zero (so every name in it ends). */
static tdn_result find_strings(tdn__pack_view *v)
{
    for (int s = 0; s < v->section_count; s++) {
        const tdn__pack_section sec = tdn__pack_section_at(v, s);
        if (sec.kind != TDN__PACK_STRINGS)
            continue;
        if (v->strings)
            return tdn__pack_fail(v, v->table + (size_t)s * TDN__PACK_ENTRY_BYTES, "section %d: a second string table",
                                  s);
        v->strings = (const char *)v->bytes + sec.offset;
        v->strings_size = sec.size;
        if (sec.size == 0 || v->strings[sec.size - 1] != '\0')
            return tdn__pack_fail(v, sec.offset + (sec.size ? sec.size - 1 : 0),
                                  "string table (section %d) does not end with a zero byte", s);
    }
    return TDN_OK;
}

/* Root track objects by clip, joint, then section (the first in the file first). */
static int compare_roots(const void *a, const void *b)
{
    const tdn__pack_root *x = a, *y = b;
    if (x->clip != y->clip)
        return x->clip < y->clip ? -1 : 1;
    if (x->joint != y->joint)
        return x->joint < y->joint ? -1 : 1;
    return (x->section > y->section) - (x->section < y->section);
}

tdn_result tdn_pack_open(const void *bytes, size_t size, tdn_pack **out, const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!bytes || !out)
        return tdn__null(err, !bytes ? "bytes" : "out");
    if ((uintptr_t)bytes % TDN_PACK_ALIGN != 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "bytes",
                         "the pack's bytes are at an address that is not a multiple of %d", TDN_PACK_ALIGN);
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    const unsigned char *b = bytes;
    size_t table = 0;
    int n = 0;
    tdn_result res = check_header(b, size, &table, &n, err);
    if (res != TDN_OK)
        return res;

    /* Everything is checked before anything is allocated: the table, the string table, then
     * each known section by its reader, kind after kind. */
    tdn__pack_view view = { b, size, table, n, NULL, 0, err };
    int count[READER_COUNT] = { 0 };
    for (int s = 0; s < n; s++) {
        tdn__pack_section sec;
        res = check_entry(b, size, table + (size_t)s * TDN__PACK_ENTRY_BYTES, s, &sec, err);
        if (res != TDN_OK)
            return res;
    }
    res = find_strings(&view);
    for (int r = 0; r < READER_COUNT && res == TDN_OK; r++)
        for (int s = 0; s < n && res == TDN_OK; s++)
            if (tdn__pack_section_at(&view, s).kind == READERS[r]->kind)
                res = READERS[r]->check(&view, s, count[r]++);
    if (res != TDN_OK)
        return res;

    /* One allocation: the pack, the sections, their object indices, every kind's objects, then
     * the objects' extra memory. */
    const size_t off_sections = tdn__align_up(sizeof(tdn_pack), 16);
    const size_t off_index = off_sections + (size_t)n * sizeof(tdn__pack_section);
    size_t total = off_index + (size_t)n * sizeof(int), off_objects[READER_COUNT];
    for (int r = 0; r < READER_COUNT; r++) {
        total = tdn__align_up(total, READERS[r]->object_align);
        off_objects[r] = total;
        total += (size_t)count[r] * READERS[r]->object_bytes;
    }
    total = tdn__align_up(total, 16);
    const size_t off_extra = total;
    for (int s = 0; s < n; s++) {
        int r;
        if (reader_of(tdn__pack_section_at(&view, s).kind, &r) && READERS[r]->extra_bytes)
            total += tdn__align_up(READERS[r]->extra_bytes(&view, s), 16);
    }
    unsigned char *block = tdn__alloc(allocator, total, 64);
    if (!block)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "allocating %zu bytes failed", total);
    memset(block, 0, total);
    tdn_pack *pack = (tdn_pack *)block;
    pack->allocator = tdn__allocator_of(allocator);
    pack->bytes = total;
    pack->image = b;
    pack->section_count = n;
    pack->sections = (tdn__pack_section *)(block + off_sections);
    pack->object_of_section = (int *)(block + off_index);
    for (int s = 0; s < n; s++) {
        pack->sections[s] = tdn__pack_section_at(&view, s);
        int r;
        pack->object_of_section[s] = reader_of(pack->sections[s].kind, &r) ? pack->count[r]++ : -1;
    }
    for (int r = 0; r < READER_COUNT; r++)
        pack->objects[r] = block + off_objects[r];
    unsigned char *extra = block + off_extra;
    for (int s = 0; s < n; s++) {
        int r;
        if (!reader_of(pack->sections[s].kind, &r))
            continue;
        READERS[r]->build(&view, s, pack->objects[r] + (size_t)pack->object_of_section[s] * READERS[r]->object_bytes,
                          extra, pack->object_of_section);
        if (READERS[r]->extra_bytes)
            extra += tdn__align_up(READERS[r]->extra_bytes(&view, s), 16);
    }
    /* root tracks by clip and joint, the first in the file first, for finding them by halving */
    qsort(pack->objects[ROOTS], (size_t)pack->count[ROOTS], sizeof(tdn__pack_root), compare_roots);
    *out = pack;
    return TDN_OK;
}

void tdn_pack_destroy(tdn_pack *pack)
{
    if (!pack)
        return;
    tdn_allocator allocator = pack->allocator;
    tdn__free(&allocator, pack, pack->bytes);
}

/* ---- accessors ---- */

static const tdn__pack_skeleton *skeleton_object(const tdn_pack *p, int i)
{
    return p && i >= 0 && i < p->count[SKELETONS] ? (const tdn__pack_skeleton *)p->objects[SKELETONS] + i : NULL;
}

int tdn_pack_skeleton_count(const tdn_pack *pack) { return pack ? pack->count[SKELETONS] : 0; }
const tdn_skeleton *tdn_pack_skeleton(const tdn_pack *pack, int i)
{
    const tdn__pack_skeleton *o = skeleton_object(pack, i);
    return o ? &o->skeleton : NULL;
}
const char *tdn_pack_skeleton_name(const tdn_pack *pack, int i)
{
    const tdn__pack_skeleton *o = skeleton_object(pack, i);
    return o ? o->name : NULL;
}
int tdn_pack_find_skeleton(const tdn_pack *pack, const char *name)
{
    for (int i = 0; name && i < tdn_pack_skeleton_count(pack); i++)
        if (strcmp(skeleton_object(pack, i)->name, name) == 0)
            return i;
    return -1;
}

static const tdn__pack_clip *clip_object(const tdn_pack *p, int i)
{
    return p && i >= 0 && i < p->count[CLIPS] ? (const tdn__pack_clip *)p->objects[CLIPS] + i : NULL;
}

int tdn_pack_clip_count(const tdn_pack *pack) { return pack ? pack->count[CLIPS] : 0; }
const tdn_clip *tdn_pack_clip(const tdn_pack *pack, int i)
{
    const tdn__pack_clip *o = clip_object(pack, i);
    return o ? &o->clip : NULL;
}
const char *tdn_pack_clip_name(const tdn_pack *pack, int i)
{
    const tdn__pack_clip *o = clip_object(pack, i);
    return o ? o->clip.name : NULL;
}
int tdn_pack_clip_skeleton(const tdn_pack *pack, int i)
{
    const tdn__pack_clip *o = clip_object(pack, i);
    return o ? o->skeleton : -1;
}
int tdn_pack_find_clip(const tdn_pack *pack, const char *name)
{
    for (int i = 0; name && i < tdn_pack_clip_count(pack); i++)
        if (strcmp(clip_object(pack, i)->clip.name, name) == 0)
            return i;
    return -1;
}

int tdn_pack_mesh_count(const tdn_pack *pack) { return pack ? pack->count[MESHES] : 0; }
tdn_pack_mesh tdn_pack_mesh_at(const tdn_pack *pack, int i)
{
    tdn_pack_mesh none = { 0 };
    return pack && i >= 0 && i < pack->count[MESHES] ? ((const tdn_pack_mesh *)pack->objects[MESHES])[i] : none;
}
int tdn_pack_find_mesh(const tdn_pack *pack, const char *name)
{
    for (int i = 0; name && i < tdn_pack_mesh_count(pack); i++)
        if (strcmp(((const tdn_pack_mesh *)pack->objects[MESHES])[i].name, name) == 0)
            return i;
    return -1;
}

static const tdn__pack_graph *graph_object(const tdn_pack *p, int i)
{
    return p && i >= 0 && i < p->count[GRAPHS] ? (const tdn__pack_graph *)p->objects[GRAPHS] + i : NULL;
}

int tdn_pack_graph_count(const tdn_pack *pack) { return pack ? pack->count[GRAPHS] : 0; }
const char *tdn_pack_graph_name(const tdn_pack *pack, int i)
{
    const tdn__pack_graph *o = graph_object(pack, i);
    return o ? o->name : NULL;
}
int tdn_pack_graph_skeleton(const tdn_pack *pack, int i)
{
    const tdn__pack_graph *o = graph_object(pack, i);
    return o ? o->skeleton : -1;
}
const char *tdn_pack_graph_json(const tdn_pack *pack, int i, size_t *size)
{
    const tdn__pack_graph *o = graph_object(pack, i);
    if (size)
        *size = o ? o->size : 0;
    return o ? o->json : NULL;
}
int tdn_pack_find_graph(const tdn_pack *pack, const char *name)
{
    for (int i = 0; name && i < tdn_pack_graph_count(pack); i++)
        if (strcmp(graph_object(pack, i)->name, name) == 0)
            return i;
    return -1;
}

const tdn__pack_definition *tdn__pack_definition_of(const tdn_pack *p, int graph)
{
    const tdn__pack_definition *defs = p ? (const tdn__pack_definition *)p->objects[DEFINITIONS] : NULL;
    for (int i = 0; p && i < p->count[DEFINITIONS]; i++)
        if (defs[i].graph == graph)
            return &defs[i];
    return NULL;
}

int tdn_pack_graph_has_definition(const tdn_pack *pack, int graph)
{
    return graph_object(pack, graph) && tdn__pack_definition_of(pack, graph) != NULL;
}

/* The first root track of clip `clip`'s joint `joint` (the roots are sorted: tdn_pack_open). */
static const tdn__pack_root *root_object(const tdn_pack *p, int clip, int joint)
{
    const tdn__pack_root *roots = (const tdn__pack_root *)p->objects[ROOTS];
    int lo = 0, hi = p->count[ROOTS]; /* the first not before (clip, joint) */
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (roots[mid].clip < clip || (roots[mid].clip == clip && roots[mid].joint < joint))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->count[ROOTS] && roots[lo].clip == clip && roots[lo].joint == joint ? &roots[lo] : NULL;
}

int tdn_pack_has_root_track(const tdn_pack *pack, int clip, int joint)
{
    return clip_object(pack, clip) && root_object(pack, clip, joint) != NULL;
}

tdn_result tdn_pack_root_track(const tdn_pack *pack, int clip, const tdn_root_track_desc *desc, tdn_root_track **out,
                               const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!pack || !out)
        return tdn__null(err, !pack ? "pack" : "out");
    const tdn__pack_clip *c = clip_object(pack, clip);
    if (!c)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "clip", "%d is not a clip of the pack (it has %d)", clip,
                         pack->count[CLIPS]);
    const int joint = desc ? desc->joint : 0;
    if (joint < 0 || joint >= c->clip.joint_count)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.joint", "joint %d is not a joint of the clip (0..%d)", joint,
                         c->clip.joint_count - 1);
    const tdn__pack_root *root = root_object(pack, clip, joint);
    if (!root)
        return tdn__fail(err, TDN_ERR_UNSUPPORTED, "clip", "the pack holds no root track of clip %d's joint %d", clip,
                         joint);
    return tdn__root_track_create_over(&c->clip, desc, root->frames, out, allocator, err);
}

static const tdn__pack_database *database_object(const tdn_pack *p, int i)
{
    return p && i >= 0 && i < p->count[DATABASES] ? (const tdn__pack_database *)p->objects[DATABASES] + i : NULL;
}

int tdn_pack_database_count(const tdn_pack *pack) { return pack ? pack->count[DATABASES] : 0; }
const char *tdn_pack_database_name(const tdn_pack *pack, int i)
{
    const tdn__pack_database *o = database_object(pack, i);
    return o ? o->name : NULL;
}
int tdn_pack_database_skeleton(const tdn_pack *pack, int i)
{
    const tdn__pack_database *o = database_object(pack, i);
    return o ? o->skeleton : -1;
}
int tdn_pack_find_database(const tdn_pack *pack, const char *name)
{
    for (int i = 0; name && i < tdn_pack_database_count(pack); i++)
        if (strcmp(database_object(pack, i)->name, name) == 0)
            return i;
    return -1;
}
const void *tdn_pack_database_image(const tdn_pack *pack, int i, size_t *size)
{
    const tdn__pack_database *o = database_object(pack, i);
    if (size)
        *size = o ? o->size : 0;
    return o ? o->image : NULL;
}
tdn_result tdn_pack_database_load(const tdn_pack *pack, int i, tdn_mm_database **out, const tdn_allocator *allocator,
                                  tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!pack || !out)
        return tdn__null(err, !pack ? "pack" : "out");
    const tdn__pack_database *o = database_object(pack, i);
    if (!o)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "i", "%d is not a database of the pack (it has %d)", i,
                         tdn_pack_database_count(pack));
    return tdn_mm_database_load_memory(o->image, o->size, out, allocator, err);
}

int tdn_pack_section_count(const tdn_pack *pack) { return pack ? pack->section_count : 0; }
uint32_t tdn_pack_section_kind(const tdn_pack *pack, int i)
{
    return pack && i >= 0 && i < pack->section_count ? pack->sections[i].kind : 0;
}
const void *tdn_pack_section_bytes(const tdn_pack *pack, int i, size_t *size)
{
    const int ok = pack && i >= 0 && i < pack->section_count;
    if (size)
        *size = ok ? pack->sections[i].size : 0;
    return ok ? pack->image + pack->sections[i].offset : NULL;
}
