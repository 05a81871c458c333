/* tendon core: a pack's graph section ('GRPH'): a graph document's JSON text, its name and the
 * skeleton section of its character. The core has no JSON parser: it checks where the text
 * lies, not what it says (libtendon_io parses it, tdn_graph_document_load_pack). */
#include "pack_internal.h"

size_t tdn__pack_graph_size(size_t json_size)
{
    return tdn__align_up(TDN__PACK_SECTION_HEADER_BYTES + json_size + 1, TDN_PACK_ALIGN);
}

void tdn__pack_graph_write(uint32_t name, uint32_t skeleton_section, const char *json, size_t json_size,
                           unsigned char *out)
{
    const uint32_t header[TDN__GRPH_FIELDS] = { name, skeleton_section, (uint32_t)json_size,
                                                TDN__PACK_SECTION_HEADER_BYTES };
    for (int f = 0; f < TDN__GRPH_FIELDS; f++)
        tdn__pack_put_u32(out + 4 * f, header[f]);
    memcpy(out + TDN__PACK_SECTION_HEADER_BYTES, json, json_size); /* the zero after it: `out` is zeroed */
}

static tdn_result check(const tdn__pack_view *v, int s, int index)
{
    char what[32];
    tdn__place(what, sizeof what, "graph ", index, "");
    tdn_result res = tdn__pack_check_header(v, s, TDN__GRPH_FIELDS, TDN__GRPH_NAME, what);
    if (res != TDN_OK)
        return res;
    const size_t base = tdn__pack_section_at(v, s).offset;
    if (tdn__pack_section_ref(v, s, TDN__GRPH_SKELETON, TDN__PACK_SKELETON, "skeleton", what) < 0)
        return TDN_ERR_INVALID_DATA;
    const uint32_t size = tdn__pack_field(v, s, TDN__GRPH_JSON_SIZE);
    if (size == 0)
        return tdn__pack_fail(v, base + 4 * TDN__GRPH_JSON_SIZE, "%s: json_size is 0 (a graph document is needed)",
                              what);
    /* the text and the zero byte after it, which makes it a C string where it lies */
    const char *json = tdn__pack_array(v, s, TDN__GRPH_JSON, (size_t)size + 1, 1, TDN__PACK_MIN_ALIGN, what, "json");
    if (!json)
        return TDN_ERR_INVALID_DATA;
    const size_t at = (size_t)((const unsigned char *)json - v->bytes);
    const char *zero = memchr(json, '\0', (size_t)size + 1);
    if (!zero)
        return tdn__pack_fail(v, at + size, "%s: the %u bytes of json are not followed by a zero byte", what, size);
    if (zero != json + size)
        return tdn__pack_fail(v, at + (size_t)(zero - json), "%s: json has a zero byte at %zu of its %u bytes", what,
                              (size_t)(zero - json), size);
    return TDN_OK;
}

static void build(const tdn__pack_view *v, int s, void *object, void *extra, const int *object_of_section)
{
    (void)extra;
    tdn__pack_graph *g = object;
    g->name = tdn__pack_name(v, s, TDN__GRPH_NAME, "");
    g->skeleton = object_of_section[tdn__pack_field(v, s, TDN__GRPH_SKELETON)];
    g->size = tdn__pack_field(v, s, TDN__GRPH_JSON_SIZE);
    g->json = (const char *)v->bytes + tdn__pack_section_at(v, s).offset + tdn__pack_field(v, s, TDN__GRPH_JSON);
}

const tdn__pack_reader tdn__pack_graph_reader = {
    TDN__PACK_GRAPH, sizeof(tdn__pack_graph), _Alignof(tdn__pack_graph), check, NULL, build
};
