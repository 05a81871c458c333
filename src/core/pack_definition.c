/* tendon core: a pack's graph definition section ('GDEF'): a graph definition's image
 * (graph_definition.c) for a graph section, with the pack's clips it plays. Opening checks
 * where it lies, its header and its clips; tdn_packed_graph_create reads what it says. */
#include "graph_definition.h"
#include "pack_internal.h"

size_t tdn__pack_definition_size(int clip_count, size_t image_size)
{
    const size_t clips = tdn__align_up((size_t)clip_count * 4, TDN__PACK_MIN_ALIGN);
    return tdn__align_up(TDN__PACK_SECTION_HEADER_BYTES + clips + image_size, TDN_PACK_ALIGN);
}

void tdn__pack_definition_write(uint32_t graph_section, int clip_count, const uint32_t *clip_sections,
                                const void *image, size_t image_size, unsigned char *out)
{
    const size_t clips_at = TDN__PACK_SECTION_HEADER_BYTES;
    const size_t image_at = clips_at + tdn__align_up((size_t)clip_count * 4, TDN__PACK_MIN_ALIGN);
    const uint32_t header[TDN__GDEF_FIELDS] = { graph_section, (uint32_t)clip_count, (uint32_t)clips_at,
                                                (uint32_t)image_size, (uint32_t)image_at };
    for (int f = 0; f < TDN__GDEF_FIELDS; f++)
        tdn__pack_put_u32(out + 4 * f, header[f]);
    for (int c = 0; c < clip_count; c++)
        tdn__pack_put_u32(out + clips_at + 4 * (size_t)c, clip_sections[c]);
    memcpy(out + image_at, image, image_size);
}

static tdn_result check(const tdn__pack_view *v, int s, int index)
{
    char what[40];
    tdn__place(what, sizeof what, "graph definition ", index, "");
    tdn_result res = tdn__pack_check_header(v, s, TDN__GDEF_FIELDS, -1, what);
    if (res != TDN_OK)
        return res;
    const size_t base = tdn__pack_section_at(v, s).offset;
    const int graph = tdn__pack_section_ref(v, s, TDN__GDEF_GRAPH, TDN__PACK_GRAPH, "graph", what);
    if (graph < 0)
        return TDN_ERR_INVALID_DATA;
    const uint32_t skeleton = tdn__pack_field(v, graph, TDN__GRPH_SKELETON); /* checked: a graph's */
    const uint32_t clip_count = tdn__pack_field(v, s, TDN__GDEF_CLIP_COUNT);
    const unsigned char *clips = tdn__pack_array(v, s, TDN__GDEF_CLIPS, clip_count, 4, 4, what, "clips");
    if (!clips)
        return TDN_ERR_INVALID_DATA;
    for (uint32_t c = 0; c < clip_count; c++) {
        const uint32_t clip = tdn__pack_u32(clips + 4 * (size_t)c);
        const size_t at = (size_t)(clips - v->bytes) + 4 * (size_t)c;
        if (clip >= (uint32_t)v->section_count || tdn__pack_section_at(v, (int)clip).kind != TDN__PACK_CLIP)
            return tdn__pack_fail(v, at, "%s: clips[%u] = %u is not the index of a clip section", what, c, clip);
        if (tdn__pack_field(v, (int)clip, TDN__CLIP_SKELETON) != skeleton)
            return tdn__pack_fail(v, at, "%s: clips[%u] = %u animates skeleton section %u, not the graph's %u", what, c,
                                  clip, tdn__pack_field(v, (int)clip, TDN__CLIP_SKELETON), skeleton);
    }
    const uint32_t size = tdn__pack_field(v, s, TDN__GDEF_SIZE);
    const unsigned char *image = tdn__pack_array(v, s, TDN__GDEF_IMAGE, size, 1, TDN__PACK_MIN_ALIGN, what, "image");
    if (!image)
        return TDN_ERR_INVALID_DATA;
    uint32_t image_clips = 0;
    res = tdn__graph_definition_header(image, size, (size_t)(image - v->bytes), &image_clips, v->err);
    if (res == TDN_OK && image_clips != clip_count)
        return tdn__pack_fail(v, base + 4 * TDN__GDEF_CLIP_COUNT, "%s: clip_count %u is not its image's %u", what,
                              clip_count, image_clips);
    return res;
}

static size_t extra_bytes(const tdn__pack_view *v, int s)
{
    return sizeof(int) * tdn__pack_field(v, s, TDN__GDEF_CLIP_COUNT);
}

static void build(const tdn__pack_view *v, int s, void *object, void *extra, const int *object_of_section)
{
    tdn__pack_definition *o = object;
    const size_t base = tdn__pack_section_at(v, s).offset;
    int *clips = extra;
    o->graph = object_of_section[tdn__pack_field(v, s, TDN__GDEF_GRAPH)];
    o->clip_count = (int)tdn__pack_field(v, s, TDN__GDEF_CLIP_COUNT);
    for (int c = 0; c < o->clip_count; c++)
        clips[c] =
            object_of_section[tdn__pack_u32(v->bytes + base + tdn__pack_field(v, s, TDN__GDEF_CLIPS) + 4 * (size_t)c)];
    o->clips = clips;
    o->image_byte = base + tdn__pack_field(v, s, TDN__GDEF_IMAGE);
    o->image = v->bytes + o->image_byte;
    o->size = tdn__pack_field(v, s, TDN__GDEF_SIZE);
}

const tdn__pack_reader tdn__pack_definition_reader = {
    TDN__PACK_DEFINITION, sizeof(tdn__pack_definition), _Alignof(tdn__pack_definition), check, extra_bytes, build
};
