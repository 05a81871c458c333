/* tendon tests: every error of a file names the file first in `where`: a BVH's line, a GLB's
 * byte, a glTF's buffer file, a graph document's character, clip and database files (the field,
 * the file as the document names it, then the place in it), and the files of the other loaders;
 * long paths keep their ends. Each file is written here into a scratch folder, with the line
 * or byte where it breaks known from how it was made. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "write_file.h"
#include "test_gltf_builder.h"
#include "tendon/io/asset.h"
#include "tendon/io/blend_space_file.h"
#include "tendon/io/graph_document.h"
#include "tendon/io/mm_database_file.h"

static char scratch[64];

/* scratch/name */
static const char *in_scratch(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", scratch, name);
    return out;
}

/* A take whose line 5 is no keyword, and a good one: a root moving along x. */
static const char *const broken_bvh = "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nBOGUS 1\n}\nMOTION\n";
static const char *const good_bvh = "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\n}\n"
                                    "MOTION\nFrames: 2\nFrame Time: 0.5\n0 0 0\n1 0 0\n";
/* The nodes and animation of a one-node glTF over accessors 0 (two key times) and 1 (two
 * translations). */
static const char *const gltf_body = "\"nodes\":[{\"name\":\"a\"}],\"animations\":[{\"name\":\"move\",\"channels\":"
                                     "[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}],"
                                     "\"samplers\":[{\"input\":0,\"output\":1}]}]";

static void build(gltf_builder *b)
{
    const float times[] = { 0, 1 }, moves[] = { 0, 0, 0, 1, 0, 0 };
    gb_floats(b, "SCALAR", 2, times);
    gb_floats(b, "VEC3", 2, moves);
}

/* The GLB of gltf_body cut to `keep` bytes, written as scratch/name; returns its full size. */
static size_t write_cut_glb(const char *name, size_t keep)
{
    gltf_builder b = { 0 };
    build(&b);
    size_t size;
    unsigned char *glb = gb_glb(&b, gltf_body, &size);
    char path[256];
    write_file(in_scratch(path, sizeof path, name), glb, keep < size ? keep : size);
    free(glb);
    gb_free(&b);
    return size;
}

/* The .gltf of gltf_body naming its buffer `uri`, and that buffer's first `bin_bytes` bytes
 * written at scratch/bin_name (none when bin_name is NULL). */
static void write_gltf(const char *name, const char *uri, const char *bin_name, size_t bin_bytes)
{
    gltf_builder b = { 0 };
    build(&b);
    char *json = gb_json(&b, gltf_body, GB_EXTERNAL, uri);
    char path[256];
    write_text(in_scratch(path, sizeof path, name), json);
    if (bin_name)
        write_file(in_scratch(path, sizeof path, bin_name), b.bin, bin_bytes < b.bin_size ? bin_bytes : b.bin_size);
    free(json);
    gb_free(&b);
}

static int expect_where(tdn_result got, tdn_result code, const tdn_error *err, const char *where, const char *says)
{
    const int ok = CHECK_EQ_INT(got, code) & CHECK(strcmp(err->where, where) == 0) &
                   CHECK(strstr(err->message, says) != NULL);
    if (!ok)
        fprintf(stderr, "  got      '%s': %s\n  expected '%s': ...%s...\n", err->where, err->message, where, says);
    return ok;
}

static tdn_result load_asset(const char *path, tdn_error *err)
{
    tdn_asset *asset = NULL;
    *err = (tdn_error){ 0 };
    const tdn_result r = tdn_asset_load(path, NULL, &asset, NULL, err);
    CHECK(r == TDN_OK || asset == NULL);
    tdn_asset_destroy(asset);
    return r;
}

static tdn_result load_document(const char *path, tdn_error *err)
{
    tdn_graph_document *d = NULL;
    *err = (tdn_error){ 0 };
    const tdn_result r = tdn_graph_document_load(path, NULL, &d, NULL, err);
    CHECK(r == TDN_OK || d == NULL);
    tdn_graph_document_destroy(d);
    return r;
}

/* ---- assets ---- */

static void asset_errors_name_the_file(void)
{
    char path[256], where[512];
    tdn_error err;
    /* a BVH: the file, then the line */
    write_text(in_scratch(path, sizeof path, "broken.bvh"), broken_bvh);
    snprintf(where, sizeof where, "%s: line 5", path);
    expect_where(load_asset(path, &err), TDN_ERR_PARSE, &err, where, "unknown keyword 'BOGUS'");

    /* a GLB cut short: the file, then the byte where the data ends */
    const size_t full = write_cut_glb("cut.glb", 60);
    CHECK(full > 60);
    in_scratch(path, sizeof path, "cut.glb");
    snprintf(where, sizeof where, "%s: byte 60", path);
    expect_where(load_asset(path, &err), TDN_ERR_PARSE, &err, where, "bytes but the data has 60");

    /* a .gltf whose buffer file is missing, or shorter than its byteLength (32 bytes: 2 times, 2
     * translations): the .gltf, then the buffer and its file */
    write_gltf("nobin.gltf", "data/missing.bin", NULL, 0);
    snprintf(where, sizeof where, "%s: buffers[0] (data/missing.bin)", in_scratch(path, sizeof path, "nobin.gltf"));
    expect_where(load_asset(path, &err), TDN_ERR_IO, &err, where, "cannot open: No such file");
    write_gltf("short.gltf", "short%20bin.bin", "short bin.bin", 8);
    snprintf(where, sizeof where, "%s: buffers[0] (short bin.bin)", in_scratch(path, sizeof path, "short.gltf"));
    expect_where(load_asset(path, &err), TDN_ERR_INVALID_DATA, &err, where,
                 "byteLength is 32 but the data has 8 bytes");

    /* neither format, and a file that cannot be read: the path alone */
    write_text(in_scratch(path, sizeof path, "neither.txt"), "hello");
    expect_where(load_asset(path, &err), TDN_ERR_PARSE, &err, path, "not a glTF");
    in_scratch(path, sizeof path, "nothing.bvh");
    expect_where(load_asset(path, &err), TDN_ERR_IO, &err, path, "cannot open");

    /* from memory: the name given, or none */
    tdn_asset *asset = NULL;
    err = (tdn_error){ 0 };
    CHECK_EQ_INT(tdn_asset_load_memory(broken_bvh, strlen(broken_bvh), &(tdn_asset_load_options){ .name = "b.bvh" },
                                       &asset, NULL, &err),
                 TDN_ERR_PARSE);
    CHECK(strcmp(err.where, "b.bvh: line 5") == 0);
    err = (tdn_error){ 0 };
    CHECK_EQ_INT(tdn_asset_load_memory(broken_bvh, strlen(broken_bvh), NULL, &asset, NULL, &err), TDN_ERR_PARSE);
    CHECK(strcmp(err.where, "line 5") == 0);
}

/* ---- graph documents ---- */

static void document_errors_name_the_field_and_the_file(void)
{
    char path[256], doc[256], where[512];
    tdn_error err;
    write_text(in_scratch(path, sizeof path, "good.bvh"), good_bvh);
    write_text(in_scratch(path, sizeof path, "broken.bvh"), broken_bvh);
    write_cut_glb("cut.glb", 60);
    write_gltf("nobin.gltf", "data/missing.bin", NULL, 0);
    in_scratch(doc, sizeof doc, "graph.json");
    const struct {
        const char *json;
        tdn_result code;
        const char *where, *says;
    } cases[] = {
        { "{\"character\": {\"file\": \"cut.glb\"}, \"root\": {\"type\": \"rest\"}}", TDN_ERR_PARSE,
          "character.file (cut.glb): byte 60", "bytes but the data has 60" },
        { "{\"character\": {\"file\": \"broken.bvh\"}, \"root\": {\"type\": \"rest\"}}", TDN_ERR_PARSE,
          "character.file (broken.bvh): line 5", "BOGUS" },
        /* a file the character names: the document's field, the character, its buffer */
        { "{\"character\": {\"file\": \"./nobin.gltf\"}, \"root\": {\"type\": \"rest\"}}", TDN_ERR_IO,
          "character.file (./nobin.gltf): buffers[0] (data/missing.bin)", "No such file" },
        { "{\"character\": {\"file\": \"good.bvh\"}, \"clips\": [{\"name\": \"w\", \"file\": \"broken.bvh\"}],"
          " \"root\": {\"type\": \"clip\", \"clip\": \"w\"}}",
          TDN_ERR_PARSE, "clips[0].file (broken.bvh): line 5", "BOGUS" },
        { "{\"character\": {\"file\": \"good.bvh\"}, \"clips\": [{\"name\": \"w\", \"file\": \"gone.bvh\"}],"
          " \"root\": {\"type\": \"clip\", \"clip\": \"w\"}}",
          TDN_ERR_IO, "clips[0].file (gone.bvh)", "cannot open" },
        /* an error of the document itself: its path, then the JSON path */
        { "{\"character\": {\"file\": \"good.bvh\"}, \"root\": {\"type\": \"clip\", \"clip\": \"nope\"}}",
          TDN_ERR_INVALID_DATA, "root.clip", "no clip named \"nope\"" },
        { "{\"character\": ", TDN_ERR_PARSE, "byte 14 (line 1, column 15)", "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_text(doc, cases[i].json);
        snprintf(where, sizeof where, "%s: %s", doc, cases[i].where);
        if (!expect_where(load_document(doc, &err), cases[i].code, &err, where, cases[i].says))
            fprintf(stderr, "  case %zu\n", i);
    }
    /* the control: the same document with the good take loads */
    write_text(doc, "{\"character\": {\"file\": \"good.bvh\"}, \"root\": {\"type\": \"clip\", \"clip\": \"good\"}}");
    CHECK_EQ_INT(load_document(doc, &err), TDN_OK);
    /* from memory: the field and the file, no document path */
    const char *json = "{\"character\": {\"file\": \"broken.bvh\"}, \"root\": {\"type\": \"rest\"}}";
    tdn_graph_document *d = NULL;
    err = (tdn_error){ 0 };
    CHECK_EQ_INT(tdn_graph_document_load_memory(
                     json, strlen(json), &(tdn_graph_document_load_options){ .base_dir = scratch }, &d, NULL, &err),
                 TDN_ERR_PARSE);
    CHECK(strcmp(err.where, "character.file (broken.bvh): line 5") == 0);
}

/* ---- the other file loaders ---- */

static void other_loaders_name_the_file(void)
{
    char path[256], where[512];
    tdn_error err = { 0 };
    tdn_mm_database *db = NULL;
    write_text(in_scratch(path, sizeof path, "junk.tdnmm"), "not a database");
    snprintf(where, sizeof where, "%s: byte 0", path);
    expect_where(tdn_mm_database_load(path, NULL, &db, NULL, &err), TDN_ERR_PARSE, &err, where, "TDNMMDB");
    CHECK(db == NULL);
    tdn_blend_space_file *space = NULL;
    err = (tdn_error){ 0 };
    write_text(in_scratch(path, sizeof path, "space.json"),
               "{\"blend_space\": {\"mode\": \"linaer\", \"samples\": []}}");
    snprintf(where, sizeof where, "%s: blend_space.mode", path);
    expect_where(tdn_blend_space_file_load(path, NULL, &space, NULL, &err), TDN_ERR_INVALID_DATA, &err, where,
                 "linear");
    CHECK(space == NULL);
}

/* ---- long paths ---- */

/* A path longer than `where` keeps its end (the file's name) and the place after it; the start
 * goes, marked "...". */
static void long_paths_keep_their_ends(void)
{
    char folder[1024], path[1200], doc[1200];
    snprintf(folder, sizeof folder, "%s", scratch);
    for (int k = 0; k < 9; k++) { /* 9 folders of 31 characters: about 300 bytes */
        size_t n = strlen(folder);
        snprintf(folder + n, sizeof folder - n, "/folder_%d_with_a_rather_long_name", k);
        CHECK(mkdir(folder, 0700) == 0);
    }
    snprintf(path, sizeof path, "%s/broken.bvh", folder);
    write_text(path, broken_bvh);
    tdn_error err;
    CHECK_EQ_INT(load_asset(path, &err), TDN_ERR_PARSE);
    const size_t n = strlen(err.where), tail = strlen("_long_name/broken.bvh: line 5");
    CHECK(strlen(path) > sizeof err.where && n < sizeof err.where && strncmp(err.where, "...", 3) == 0);
    CHECK(n > tail && strcmp(err.where + n - tail, "_long_name/broken.bvh: line 5") == 0);
    /* what follows "..." up to the line is the end of the path */
    const size_t shown = n - 3 - strlen(": line 5");
    CHECK(strncmp(path + strlen(path) - shown, err.where + 3, shown) == 0);

    /* a document there: its path loses its start; the field, the file and the line stay */
    snprintf(doc, sizeof doc, "%s/graph.json", folder);
    write_text(doc, "{\"character\": {\"file\": \"broken.bvh\"}, \"root\": {\"type\": \"rest\"}}");
    CHECK_EQ_INT(load_document(doc, &err), TDN_ERR_PARSE);
    const char *end = "_long_name/graph.json: character.file (broken.bvh): line 5";
    const size_t m = strlen(err.where);
    if (!CHECK(strncmp(err.where, "...", 3) == 0 && m > strlen(end) && strcmp(err.where + m - strlen(end), end) == 0))
        fprintf(stderr, "  where: %s\n", err.where);
    remove(doc);
    remove(path);
    for (int k = 8; k >= 0; k--) {
        rmdir(folder);
        *strrchr(folder, '/') = '\0';
    }
}

int main(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/tendon-file-errors-XXXXXX");
    if (!CHECK(mkdtemp(scratch) != NULL))
        return check_summary();
    RUN(asset_errors_name_the_file);
    RUN(document_errors_name_the_field_and_the_file);
    RUN(other_loaders_name_the_file);
    RUN(long_paths_keep_their_ends);
    const char *const files[] = { "broken.bvh",    "good.bvh",    "cut.glb",    "nobin.gltf", "short.gltf",
                                  "short bin.bin", "neither.txt", "graph.json", "junk.tdnmm", "space.json" };
    char path[256];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        remove(in_scratch(path, sizeof path, files[i]));
    CHECK(rmdir(scratch) == 0);
    return check_summary();
}
