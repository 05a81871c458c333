/* A pack's graph sections ('GRPH', pack.h, docs/pack-format.md): the text, name and skeleton
 * put in are read back where they lie in the pack's bytes, zero-terminated; the writer refuses
 * what would not open; every field of a graph section made bad is refused naming its byte. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "pack_image.h"
#include "tendon/tendon_io.h"

static const char JSON[] = "{\"character\": {\"generated\": \"humanoid\"}, \"root\": {\"type\": \"rest\"}}";
#define JSON_SIZE (sizeof JSON - 1)

/* A pack of the humanoid's skeleton twice (section 0 and 1), a clip-less graph of skeleton 1
 * named "standing", and a second graph of skeleton 0 named "a". */
static image make_pack(void)
{
    tdn_asset *a = NULL;
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_humanoid_create(NULL, &a, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    int first = -1, second = -1;
    CHECK(tdn_pack_writer_add_skeleton(w, "one", tdn_asset_skeleton(a), &first, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_skeleton(w, "two", tdn_asset_skeleton(a), &second, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_graph(w, "standing", second, JSON, JSON_SIZE, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_graph(w, "a", first, "{}", 2, NULL, &err) == TDN_OK);
    const image im = image_of(w);
    tdn_asset_destroy(a);
    return im;
}

static void round_trip(void)
{
    image im = make_pack();
    tdn_pack *pack = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_pack_open(im.bytes, im.size, &pack, &counting, &err) == TDN_OK);
    CHECK_EQ_INT(tdn_pack_graph_count(pack), 2);
    CHECK(strcmp(tdn_pack_graph_name(pack, 0), "standing") == 0);
    CHECK(strcmp(tdn_pack_graph_name(pack, 1), "a") == 0);
    CHECK_EQ_INT(tdn_pack_graph_skeleton(pack, 0), 1);
    CHECK_EQ_INT(tdn_pack_graph_skeleton(pack, 1), 0);
    size_t size = 0;
    const char *json = tdn_pack_graph_json(pack, 0, &size);
    CHECK(size == JSON_SIZE && json && memcmp(json, JSON, size) == 0 && json[size] == '\0');
    /* where it lies: in the caller's bytes, after the section's 64-byte header (section 2) */
    CHECK((const unsigned char *)json == im.bytes + section_offset(&im, 2) + 64);
    json = tdn_pack_graph_json(pack, 1, NULL);
    CHECK(json && strcmp(json, "{}") == 0);
    CHECK_EQ_INT(tdn_pack_find_graph(pack, "a"), 1);
    CHECK_EQ_INT(tdn_pack_find_graph(pack, "standing"), 0);
    CHECK_EQ_INT(tdn_pack_find_graph(pack, "b"), -1);
    CHECK_EQ_INT(tdn_pack_find_graph(pack, NULL), -1);
    /* bad indices */
    size = 7;
    CHECK(tdn_pack_graph_json(pack, 2, &size) == NULL && size == 0);
    CHECK(tdn_pack_graph_name(pack, -1) == NULL);
    CHECK_EQ_INT(tdn_pack_graph_skeleton(pack, 2), -1);
    CHECK_EQ_INT(tdn_pack_graph_count(NULL), 0);
    CHECK(tdn_pack_section_kind(pack, 2) == TDN_PACK_FOURCC('G', 'R', 'P', 'H'));
    tdn_pack_destroy(pack);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_free(im.bytes, im.size, NULL);
}

static void writer_refusals(void)
{
    tdn_asset *a = NULL;
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_humanoid_create(NULL, &a, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_graph(w, "g", 0, "{}", 2, NULL, &err) == TDN_ERR_ARGUMENT); /* no skeleton yet */
    CHECK(strcmp(err.where, "skeleton") == 0);
    CHECK(tdn_pack_writer_add_skeleton(w, "s", tdn_asset_skeleton(a), NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_graph(w, "g", 0, "{}", 0, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "size") == 0);
    CHECK(tdn_pack_writer_add_graph(w, "g", 0, "{}", 3, NULL, &err) == TDN_ERR_ARGUMENT); /* its zero byte included */
    CHECK(strcmp(err.where, "json") == 0 && strstr(err.message, "at 2") != NULL);
    CHECK(tdn_pack_writer_add_graph(w, "g", 0, NULL, 2, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(tdn_pack_writer_add_section(w, TDN_PACK_FOURCC('G', 'R', 'P', 'H'), "{}", 2, 16, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "kind") == 0);
    /* nothing refused was added: the pack has no graph */
    void *data = NULL;
    size_t size = 0;
    tdn_pack *pack = reopened(w, &data, &size);
    CHECK_EQ_INT(tdn_pack_graph_count(pack), 0);
    tdn_pack_destroy(pack);
    tdn_free(data, size, NULL);
    tdn_pack_writer_destroy(w);
    tdn_asset_destroy(a);
}

static void check_refused(const image *im, size_t at, const void *value, size_t n, size_t want, const char *says)
{
    check_refused_at_byte(im, at, value, n, want, "", says);
}

static void fields_checked(void)
{
    image im = make_pack();
    const size_t g = section_offset(&im, 2), json = g + 64;
    const uint32_t huge = 0xfffffff0u, zero = 0, graph_section = 2, no_section = 40, odd = 72;
    const unsigned char nul = 0, x = 'x';
    check_refused(&im, g + 0, &huge, 4, g + 0, "outside the string table");    /* name */
    check_refused(&im, g + 4, &no_section, 4, g + 4, "skeleton 40");           /* skeleton: no section */
    check_refused(&im, g + 4, &graph_section, 4, g + 4, "not the index of a"); /* skeleton: a graph */
    check_refused(&im, g + 8, &zero, 4, g + 8, "json_size is 0");
    check_refused(&im, g + 8, &huge, 4, g + 12, "run past");           /* json_size beyond the section */
    check_refused(&im, g + 12, &odd, 4, g + 12, "not a multiple of");  /* json offset misaligned */
    check_refused(&im, g + 12, &zero, 4, g + 12, "not a multiple of"); /* json offset inside the header */
    for (int f = 4; f < 16; f++)                                       /* reserved */
        check_refused(&im, g + 4 * (size_t)f, &huge, 4, g + 4 * (size_t)f, "reserved");
    check_refused(&im, json + 10, &nul, 1, json + 10, "zero byte at 10");          /* inside the text */
    check_refused(&im, json + JSON_SIZE, &x, 1, json + JSON_SIZE, "not followed"); /* its terminator */
    /* a graph section aligned to 16 only: refused in the table (a known kind needs 32) */
    const size_t entry = u32_at(im.bytes + 24) + 32 * 2;
    const uint32_t sixteen = 16;
    unsigned char *c = aligned_alloc(TDN_PACK_ALIGN, (im.size + 31) / 32 * 32);
    memcpy(c, im.bytes, im.size);
    put_u32(c + entry + 4, sixteen);
    tdn_pack *pack = NULL;
    tdn_error err = { 0 };
    char want[32];
    snprintf(want, sizeof want, "byte %zu", entry + 4);
    CHECK(tdn_pack_open(c, im.size, &pack, NULL, &err) == TDN_ERR_PARSE && strcmp(err.where, want) == 0);
    free(c);
    tdn_free(im.bytes, im.size, NULL);
}

int main(void)
{
    RUN(round_trip);
    RUN(writer_refusals);
    RUN(fields_checked);
    return check_summary();
}
