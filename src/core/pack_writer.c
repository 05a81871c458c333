/* tendon core: writing a runtime pack in memory (tdn_pack_writer): sections collected as
 * bytes, then laid out after the header with the string table and the section table last. */
#include "graph_definition.h"
#include "mm_internal.h"
#include "pack_internal.h"
#include "root_track_internal.h"
#include "tendon/packed_graph.h"

#include <float.h>
#include <stdio.h>

typedef struct section {
    uint32_t kind;
    size_t align, size;
    unsigned char *bytes;
} section;

struct tdn_pack_writer {
    tdn_allocator allocator;
    section *sections;
    int section_count, section_capacity;
    /* per skeleton added: its section and joint count, for the meshes skinned to it */
    struct added_skeleton {
        int section, joints;
    } * skeletons;
    int skeleton_count, skeleton_capacity;
    int clip_count, graph_count;
    char *strings;
    size_t strings_size, strings_capacity;
};

/* Grows *array (of `elem`-byte items, *capacity of them) to hold `need`; 0 when out of memory. */
static int grow(const tdn_allocator *a, void **array, int *capacity, int need, size_t elem)
{
    if (need <= *capacity)
        return 1;
    const int cap = *capacity ? 2 * *capacity : 8;
    void *bigger = tdn__alloc(a, (size_t)cap * elem, 16);
    if (!bigger)
        return 0;
    if (*array)
        memcpy(bigger, *array, (size_t)*capacity * elem);
    tdn__free(a, *array, (size_t)*capacity * elem);
    *array = bigger;
    *capacity = cap;
    return 1;
}

static tdn_result no_memory(tdn_error *err, size_t bytes)
{
    return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "allocating %zu bytes failed", bytes);
}

/* TDN_ERR_ARGUMENT at `where` unless `skeleton` is an index tdn_pack_writer_add_skeleton gave. */
static tdn_result check_skeleton(const tdn_pack_writer *w, int skeleton, const char *where, tdn_error *err)
{
    if (skeleton >= 0 && skeleton < w->skeleton_count)
        return TDN_OK;
    return tdn__fail(err, TDN_ERR_ARGUMENT, where, "%d is not a skeleton added to this writer (0..%d)", skeleton,
                     w->skeleton_count - 1);
}

tdn_result tdn_pack_writer_create(tdn_pack_writer **out, const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!out)
        return tdn__null(err, "out");
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    tdn_pack_writer *w = tdn__alloc(allocator, sizeof *w, 16);
    if (!w)
        return no_memory(err, sizeof *w);
    memset(w, 0, sizeof *w);
    w->allocator = tdn__allocator_of(allocator);
    *out = w;
    return TDN_OK;
}

void tdn_pack_writer_destroy(tdn_pack_writer *w)
{
    if (!w)
        return;
    const tdn_allocator a = w->allocator;
    for (int s = 0; s < w->section_count; s++)
        tdn__free(&a, w->sections[s].bytes, w->sections[s].size);
    tdn__free(&a, w->sections, (size_t)w->section_capacity * sizeof(section));
    tdn__free(&a, w->skeletons, (size_t)w->skeleton_capacity * sizeof *w->skeletons);
    tdn__free(&a, w->strings, w->strings_capacity);
    tdn__free(&a, w, sizeof *w);
}

/* The string table offset of `name` (added; the table starts with the empty string). */
static tdn_result add_string(tdn_pack_writer *w, const char *name, uint32_t *offset, tdn_error *err)
{
    const size_t n = strlen(name ? name : "") + 1, start = w->strings_size ? w->strings_size : 1;
    if (start + n > UINT32_MAX)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "name", "the string table would pass 4 GiB");
    if (start + n > w->strings_capacity) {
        size_t cap = w->strings_capacity ? w->strings_capacity : 256;
        while (cap < start + n)
            cap *= 2;
        char *bigger = tdn__alloc(&w->allocator, cap, 16);
        if (!bigger)
            return no_memory(err, cap);
        memset(bigger, 0, cap);
        if (w->strings)
            memcpy(bigger, w->strings, w->strings_size);
        tdn__free(&w->allocator, w->strings, w->strings_capacity);
        w->strings = bigger;
        w->strings_capacity = cap;
    }
    if (n == 1) { /* the empty string at offset 0 */
        w->strings_size = start;
        *offset = 0;
        return TDN_OK;
    }
    memcpy(w->strings + start, name, n);
    w->strings_size = start + n;
    *offset = (uint32_t)start;
    return TDN_OK;
}

/* A new section of `size` zeroed bytes; NULL (reported) when out of memory. */
static unsigned char *new_section(tdn_pack_writer *w, uint32_t kind, size_t size, size_t align, tdn_error *err)
{
    if (!grow(&w->allocator, (void **)&w->sections, &w->section_capacity, w->section_count + 1, sizeof(section))) {
        no_memory(err, sizeof(section));
        return NULL;
    }
    unsigned char *bytes = tdn__alloc(&w->allocator, size, 16);
    if (!bytes) {
        no_memory(err, size);
        return NULL;
    }
    memset(bytes, 0, size);
    const section s = { kind, align, size, bytes };
    w->sections[w->section_count++] = s;
    return bytes;
}

tdn_result tdn_pack_writer_add_skeleton(tdn_pack_writer *w, const char *name, const tdn_skeleton *skeleton, int *index,
                                        tdn_error *err)
{
    if (!w || !skeleton)
        return tdn__null(err, !w ? "writer" : "skeleton");
    if (w->skeleton_count >= TDN__PACK_MAX_SECTIONS / 2)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "skeleton", "a pack holds at most %d skeletons",
                         TDN__PACK_MAX_SECTIONS / 2);
    if (!grow(&w->allocator, (void **)&w->skeletons, &w->skeleton_capacity, w->skeleton_count + 1,
              sizeof *w->skeletons))
        return no_memory(err, sizeof *w->skeletons);
    uint32_t name_at;
    tdn_result res = add_string(w, name, &name_at, err);
    if (res != TDN_OK)
        return res;
    const size_t size = tdn__pack_skeleton_size(skeleton->joint_count);
    unsigned char *bytes = new_section(w, TDN__PACK_SKELETON, size, TDN_PACK_ALIGN, err);
    if (!bytes)
        return TDN_ERR_OUT_OF_MEMORY;
    tdn__pack_skeleton_write(skeleton, name_at, bytes);
    w->skeletons[w->skeleton_count].section = w->section_count - 1;
    w->skeletons[w->skeleton_count].joints = skeleton->joint_count;
    if (index)
        *index = w->skeleton_count;
    w->skeleton_count++;
    return TDN_OK;
}

/* What tdn_pack_open will check of a mesh, checked on the description. */
static tdn_result check_mesh(const tdn_pack_writer *w, const tdn_pack_mesh *m, tdn_error *err)
{
    if (check_skeleton(w, m->skeleton, "mesh.skeleton", err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    if (m->vertex_count < 1 || m->vertex_count > INT32_MAX / 64)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "mesh.vertex_count", "%d is outside 1..%d", m->vertex_count,
                         INT32_MAX / 64);
    if (m->influence_sets < 1 || m->influence_sets > 2)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "mesh.influence_sets", "%d is not 1 or 2", m->influence_sets);
    if (m->index_count < 0 || m->index_count % 3 != 0 || m->index_count > INT32_MAX / 4 ||
        (m->index_count > 0 && !m->indices))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "mesh.index_count",
                         "%d is not a multiple of 3 from 0 (with indices when above 0)", m->index_count);
    if (!m->positions || !m->joints || !m->weights)
        return tdn__null(err, !m->positions ? "mesh.positions" : !m->joints ? "mesh.joints" : "mesh.weights");
    const size_t vn = (size_t)m->vertex_count, influences = 4 * (size_t)m->influence_sets * vn;
    const float *floats[3] = { m->positions, m->normals, m->uvs };
    const size_t counts[3] = { 3 * vn, 3 * vn, 2 * vn };
    const char *names[3] = { "mesh.positions", "mesh.normals", "mesh.uvs" };
    for (int k = 0; k < 3; k++) {
        const long bad = floats[k] ? tdn__pack_first_nonfinite(floats[k], counts[k]) : -1;
        if (bad >= 0)
            return tdn__fail(err, TDN_ERR_ARGUMENT, names[k], "value %ld is not finite", bad);
    }
    const int joints = w->skeletons[m->skeleton].joints;
    for (size_t i = 0; i < influences; i++) {
        if (m->joints[i] >= joints)
            return tdn__fail(err, TDN_ERR_ARGUMENT, "mesh.joints", "joints[%zu] = %u is not below the skeleton's %d", i,
                             m->joints[i], joints);
        if (!(m->weights[i] >= 0.0f && m->weights[i] <= FLT_MAX))
            return tdn__fail(err, TDN_ERR_ARGUMENT, "mesh.weights", "weights[%zu] = %g is not finite and >= 0", i,
                             (double)m->weights[i]);
    }
    for (int i = 0; i < m->index_count; i++)
        if (m->indices[i] >= (uint32_t)m->vertex_count)
            return tdn__fail(err, TDN_ERR_ARGUMENT, "mesh.indices", "indices[%d] = %u is not below vertex_count %d", i,
                             m->indices[i], m->vertex_count);
    return TDN_OK;
}

tdn_result tdn_pack_writer_add_mesh(tdn_pack_writer *w, const tdn_pack_mesh *mesh, tdn_error *err)
{
    if (!w || !mesh)
        return tdn__null(err, !w ? "writer" : "mesh");
    tdn_result res = check_mesh(w, mesh, err);
    uint32_t name_at = 0;
    if (res == TDN_OK)
        res = add_string(w, mesh->name, &name_at, err);
    if (res != TDN_OK)
        return res;
    unsigned char *bytes = new_section(w, TDN__PACK_MESH, tdn__pack_mesh_size(mesh), TDN_PACK_ALIGN, err);
    if (!bytes)
        return TDN_ERR_OUT_OF_MEMORY;
    tdn__pack_mesh_write(mesh, name_at, (uint32_t)w->skeletons[mesh->skeleton].section, bytes);
    return TDN_OK;
}

tdn_result tdn_pack_writer_add_clip(tdn_pack_writer *w, const tdn_clip *clip, int skeleton, int *index, tdn_error *err)
{
    return tdn_pack_writer_add_named_clip(w, NULL, clip, skeleton, index, err);
}

tdn_result tdn_pack_writer_add_named_clip(tdn_pack_writer *w, const char *name, const tdn_clip *clip, int skeleton,
                                          int *index, tdn_error *err)
{
    if (!w || !clip)
        return tdn__null(err, !w ? "writer" : "clip");
    if (check_skeleton(w, skeleton, "skeleton", err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    if (clip->storage != TDN_STORAGE_COMPRESSED)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "clip",
                         "clip '%s' is not COMPRESSED: a pack holds compressed clips only (tdn_clip_desc.storage)",
                         clip->name);
    if (clip->joint_count != w->skeletons[skeleton].joints)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "skeleton", "clip '%s' has %d joints, skeleton %d has %d", clip->name,
                         clip->joint_count, skeleton, w->skeletons[skeleton].joints);
    const size_t size = tdn__pack_clip_size(clip);
    if (size > UINT32_MAX)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "clip", "clip '%s' would take %zu bytes, more than 4 GiB", clip->name,
                         size);
    /* its name, then its float tracks' and events' names */
    const tdn__annotations *a = clip->annotations;
    const int n = tdn__pack_clip_string_count(clip);
    uint32_t *strings = tdn__alloc(&w->allocator, (size_t)n * sizeof *strings, 16);
    if (!strings)
        return no_memory(err, (size_t)n * sizeof *strings);
    tdn_result res = add_string(w, name ? name : clip->name, &strings[0], err);
    for (int i = 0; i < a->float_track_count && res == TDN_OK; i++)
        res = add_string(w, a->float_tracks[i].name, &strings[1 + i], err);
    for (int i = 0; i < a->event_count && res == TDN_OK; i++)
        res = add_string(w, a->event_names[i], &strings[1 + a->float_track_count + i], err);
    unsigned char *bytes = res == TDN_OK ? new_section(w, TDN__PACK_CLIP, size, TDN_PACK_ALIGN, err) : NULL;
    if (bytes) {
        tdn__pack_clip_write(clip, strings, (uint32_t)w->skeletons[skeleton].section, bytes);
        if (index)
            *index = w->clip_count;
        w->clip_count++;
    }
    tdn__free(&w->allocator, strings, (size_t)n * sizeof *strings);
    return bytes ? TDN_OK : res != TDN_OK ? res : TDN_ERR_OUT_OF_MEMORY;
}

tdn_result tdn_pack_writer_add_graph(tdn_pack_writer *w, const char *name, int skeleton, const char *json, size_t size,
                                     int *index, tdn_error *err)
{
    if (!w || !json)
        return tdn__null(err, !w ? "writer" : "json");
    if (check_skeleton(w, skeleton, "skeleton", err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    if (size == 0 || size >= UINT32_MAX)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "size", "%zu is outside 1..%u", size, UINT32_MAX - 1);
    const char *zero = memchr(json, '\0', size);
    if (zero)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "json", "has a zero byte at %zu of its %zu bytes",
                         (size_t)(zero - json), size);
    uint32_t name_at;
    tdn_result res = add_string(w, name, &name_at, err);
    if (res != TDN_OK)
        return res;
    unsigned char *bytes = new_section(w, TDN__PACK_GRAPH, tdn__pack_graph_size(size), TDN_PACK_ALIGN, err);
    if (!bytes)
        return TDN_ERR_OUT_OF_MEMORY;
    tdn__pack_graph_write(name_at, (uint32_t)w->skeletons[skeleton].section, json, size, bytes);
    if (index)
        *index = w->graph_count;
    w->graph_count++;
    return TDN_OK;
}

/* The section of the `index`th section of `kind`, or -1. */
static int section_of(const tdn_pack_writer *w, uint32_t kind, int index)
{
    for (int s = 0, n = 0; s < w->section_count; s++)
        if (w->sections[s].kind == kind && n++ == index)
            return s;
    return -1;
}

static int clip_section(const tdn_pack_writer *w, int index) { return section_of(w, TDN__PACK_CLIP, index); }

tdn_result tdn_pack_writer_add_graph_definition(tdn_pack_writer *w, int graph, const void *definition, size_t size,
                                                const int *clips, tdn_error *err)
{
    if (!w || !definition)
        return tdn__null(err, !w ? "writer" : "definition");
    const int g = section_of(w, TDN__PACK_GRAPH, graph);
    if (g < 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "graph", "%d is not a graph added to this writer (0..%d)", graph,
                         w->graph_count - 1);
    for (int s = 0; s < w->section_count; s++)
        if (w->sections[s].kind == TDN__PACK_DEFINITION && tdn__pack_u32(w->sections[s].bytes) == (uint32_t)g)
            return tdn__fail(err, TDN_ERR_ARGUMENT, "graph", "graph %d has a definition already", graph);
    if (size >= UINT32_MAX)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "size", "%zu is 4 GiB or more", size);
    uint32_t clip_count = 0;
    tdn_result res = tdn__graph_definition_header(definition, size, 0, &clip_count, err);
    if (res != TDN_OK)
        return res;
    if (clip_count > 0 && !clips)
        return tdn__null(err, "clips");
    if (clip_count > TDN__PACK_MAX_SECTIONS) /* a clip may be played twice, but a pack holds so many sections */
        return tdn__fail(err, TDN_ERR_ARGUMENT, "definition", "plays %u clips, more than a pack's %d sections",
                         clip_count, TDN__PACK_MAX_SECTIONS);
    uint32_t *sections = tdn__alloc(&w->allocator, sizeof *sections * (clip_count + 1), 16);
    if (!sections)
        return no_memory(err, sizeof *sections * (clip_count + 1));
    const uint32_t skeleton = tdn__pack_u32(w->sections[g].bytes + 4 * TDN__GRPH_SKELETON);
    for (uint32_t c = 0; res == TDN_OK && c < clip_count; c++) {
        const int s = clip_section(w, clips[c]);
        if (s < 0)
            res = tdn__fail(err, TDN_ERR_ARGUMENT, "clips", "clips[%u] = %d is not a clip added to this writer (0..%d)",
                            c, clips[c], w->clip_count - 1);
        else if (tdn__pack_u32(w->sections[s].bytes + 4 * TDN__CLIP_SKELETON) != skeleton)
            res = tdn__fail(err, TDN_ERR_ARGUMENT, "clips", "clips[%u] = %d animates another skeleton than the graph's",
                            c, clips[c]);
        else
            sections[c] = (uint32_t)s;
    }
    unsigned char *out = res == TDN_OK
                             ? new_section(w, TDN__PACK_DEFINITION, tdn__pack_definition_size((int)clip_count, size),
                                           TDN_PACK_ALIGN, err)
                             : NULL;
    if (out)
        tdn__pack_definition_write((uint32_t)g, (int)clip_count, sections, definition, size, out);
    tdn__free(&w->allocator, sections, sizeof *sections * (clip_count + 1));
    return out ? TDN_OK : res != TDN_OK ? res : TDN_ERR_OUT_OF_MEMORY;
}

tdn_result tdn_pack_writer_add_root_track(tdn_pack_writer *w, int index, const tdn_clip *clip, int joint,
                                          tdn_error *err)
{
    if (!w || !clip)
        return tdn__null(err, !w ? "writer" : "clip");
    const int s = clip_section(w, index);
    if (s < 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "index", "%d is not a clip added to this writer (0..%d)", index,
                         w->clip_count - 1);
    /* the clip the section was written from, as far as its header tells */
    const unsigned char *h = w->sections[s].bytes;
    if (tdn__pack_u32(h + 4 * TDN__CLIP_JOINT_COUNT) != (uint32_t)clip->joint_count ||
        memcmp(h + 4 * TDN__CLIP_DURATION, &clip->duration, 4) != 0 ||
        memcmp(h + 4 * TDN__CLIP_SAMPLE_RATE, &clip->sample_rate, 4) != 0 ||
        tdn__pack_u32(h + 4 * TDN__CLIP_ADDITIVE) != (uint32_t)(clip->additive != 0))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "clip", "clip '%s' is not the clip added as %d", clip->name, index);
    if (clip->additive)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "clip", "clip '%s' is additive: its root is a difference", clip->name);
    if (joint < 0 || joint >= clip->joint_count)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "joint", "%d is not a joint of clip '%s' (0..%d)", joint, clip->name,
                         clip->joint_count - 1);
    const int frame_count = tdn__root_track_frame_count(clip->duration, clip->sample_rate);
    const size_t bytes = (size_t)frame_count * TDN__ROOT_TRACK_FLOATS * sizeof(float);
    float *frames = tdn__alloc(&w->allocator, bytes, 16);
    if (!frames)
        return no_memory(err, bytes);
    tdn_result res = tdn__root_track_frames(clip, joint, frame_count, frames, &w->allocator, err);
    const long bad = res == TDN_OK ? tdn__pack_root_bad_frame(frames, frame_count) : -1;
    if (bad >= 0)
        res = tdn__fail(err, TDN_ERR_INVALID_DATA, "clip",
                        "clip '%s': joint %d at frame %ld is not finite or its rotation not of unit length", clip->name,
                        joint, bad);
    unsigned char *out = res == TDN_OK
                             ? new_section(w, TDN__PACK_ROOT, tdn__pack_root_size(frame_count), TDN_PACK_ALIGN, err)
                             : NULL;
    if (out)
        tdn__pack_root_write((uint32_t)s, joint, frame_count, frames, out);
    tdn__free(&w->allocator, frames, bytes);
    return out ? TDN_OK : res != TDN_OK ? res : TDN_ERR_OUT_OF_MEMORY;
}

tdn_result tdn_pack_writer_add_database(tdn_pack_writer *w, const char *name, int skeleton, const tdn_mm_database *db,
                                        tdn_error *err)
{
    if (!w || !name || !db)
        return tdn__null(err, !w ? "writer" : !name ? "name" : "db");
    if (check_skeleton(w, skeleton, "skeleton", err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    for (int s = 0, i = 0; s < w->section_count; s++) { /* names are unique among databases */
        if (w->sections[s].kind != TDN__PACK_DATABASE)
            continue;
        if (strcmp(w->strings + tdn__pack_u32(w->sections[s].bytes + 4 * TDN__MMDB_NAME), name) == 0)
            return tdn__fail(err, TDN_ERR_ARGUMENT, "name", "\"%.60s\" is the name of database %d already", name, i);
        i++;
    }
    const size_t image = tdn_mm_database_save_size(db);
    if (image >= UINT32_MAX)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "db", "its image would take %zu bytes, 4 GiB or more", image);
    const int joints[3] = { db->root, db->left_foot, db->right_foot };
    const int skeleton_section = w->skeletons[skeleton].section;
    const int misfit = tdn__pack_database_joint_misfit(w->sections[skeleton_section].bytes, joints);
    if (misfit >= 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "db", "its %s, joint %d, is not %s of skeleton %d (%d joints)",
                         misfit == 0   ? "root"
                         : misfit == 1 ? "left foot"
                                       : "right foot",
                         joints[misfit], misfit == 0 ? "a root joint" : "a joint", skeleton,
                         w->skeletons[skeleton].joints);
    uint32_t name_at;
    tdn_result res = add_string(w, name, &name_at, err);
    if (res != TDN_OK)
        return res;
    unsigned char *bytes = new_section(w, TDN__PACK_DATABASE, tdn__pack_database_size(image), TDN_PACK_ALIGN, err);
    if (!bytes)
        return TDN_ERR_OUT_OF_MEMORY;
    tdn__pack_database_write(name_at, (uint32_t)skeleton_section, db, image, bytes);
    return TDN_OK;
}

tdn_result tdn_pack_writer_add_section(tdn_pack_writer *w, uint32_t kind, const void *bytes, size_t size, size_t align,
                                       tdn_error *err)
{
    if (!w || (!bytes && size > 0))
        return tdn__null(err, !w ? "writer" : "bytes");
    if (kind == 0 || kind == TDN__PACK_SKELETON || kind == TDN__PACK_MESH || kind == TDN__PACK_CLIP ||
        kind == TDN__PACK_GRAPH || kind == TDN__PACK_ROOT || kind == TDN__PACK_DATABASE || kind == TDN__PACK_STRINGS ||
        kind == TDN__PACK_DEFINITION)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "kind",
                         "0x%08x is 0 or a kind the writer makes itself (add_skeleton, add_mesh, add_clip, add_graph, "
                         "add_database)",
                         (unsigned)kind);
    if (align == 0 || (align & (align - 1)) != 0 || align > TDN__PACK_MAX_ALIGN)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "align", "%zu is not a power of two up to %d", align,
                         TDN__PACK_MAX_ALIGN);
    unsigned char *copy = new_section(w, kind, size, align < TDN__PACK_MIN_ALIGN ? TDN__PACK_MIN_ALIGN : align, err);
    if (!copy)
        return TDN_ERR_OUT_OF_MEMORY;
    if (size > 0)
        memcpy(copy, bytes, size);
    return TDN_OK;
}

tdn_result tdn_pack_writer_save_memory(const tdn_pack_writer *w, void **data, size_t *size,
                                       const tdn_allocator *allocator, tdn_error *err)
{
    if (data)
        *data = NULL;
    if (size)
        *size = 0;
    if (!w || !data || !size)
        return tdn__null(err, !w ? "writer" : !data ? "data" : "size");
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    /* the header, the sections in the order they were added, the string table, the table */
    const int n = w->section_count + 1;
    const size_t strings = w->strings_size ? tdn__align_up(w->strings_size, TDN__PACK_MIN_ALIGN) : TDN__PACK_MIN_ALIGN;
    size_t at = TDN__PACK_HEADER_BYTES;
    for (int s = 0; s < w->section_count; s++)
        at = tdn__align_up(at, w->sections[s].align) + w->sections[s].size;
    const size_t strings_at = tdn__align_up(at, TDN__PACK_MIN_ALIGN);
    const size_t table = strings_at + strings;
    const size_t total = tdn__align_up(table + (size_t)n * TDN__PACK_ENTRY_BYTES, TDN__PACK_MIN_ALIGN);
    unsigned char *b = tdn__alloc(allocator, total, TDN_PACK_ALIGN);
    if (!b)
        return no_memory(err, total);
    memset(b, 0, total);
    memcpy(b, TDN__PACK_MAGIC, 8);
    tdn__pack_put_u32(b + 8, TDN_PACK_VERSION);
    tdn__pack_put_u32(b + 12, TDN__PACK_ENDIAN_TAG);
    tdn__pack_put_u32(b + 16, (uint32_t)total);
    tdn__pack_put_u32(b + 20, (uint32_t)((uint64_t)total >> 32));
    tdn__pack_put_u32(b + 24, (uint32_t)table);
    tdn__pack_put_u32(b + 28, (uint32_t)((uint64_t)table >> 32));
    tdn__pack_put_u32(b + 32, (uint32_t)n);
    at = TDN__PACK_HEADER_BYTES;
    for (int s = 0; s < n; s++) {
        const int is_strings = s == w->section_count;
        const section text = { TDN__PACK_STRINGS, TDN__PACK_MIN_ALIGN, strings, NULL };
        const section *sec = is_strings ? &text : &w->sections[s];
        at = is_strings ? strings_at : tdn__align_up(at, sec->align);
        if (is_strings && w->strings)
            memcpy(b + at, w->strings, w->strings_size);
        else if (!is_strings && sec->size > 0)
            memcpy(b + at, sec->bytes, sec->size);
        unsigned char *e = b + table + (size_t)s * TDN__PACK_ENTRY_BYTES;
        tdn__pack_put_u32(e, sec->kind);
        tdn__pack_put_u32(e + 4, (uint32_t)sec->align);
        tdn__pack_put_u32(e + 8, (uint32_t)at);
        tdn__pack_put_u32(e + 12, (uint32_t)((uint64_t)at >> 32));
        tdn__pack_put_u32(e + 16, (uint32_t)sec->size);
        tdn__pack_put_u32(e + 20, (uint32_t)((uint64_t)sec->size >> 32));
        at += sec->size;
    }
    *data = b;
    *size = total;
    return TDN_OK;
}
