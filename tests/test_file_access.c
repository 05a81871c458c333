/* tendon tests: the files a file may name (tendon/io/file_access.h). A graph document's
 * character and clip files and a glTF's buffers must stay below the naming file's folder: an
 * absolute path or a '..' out of it is refused with the JSON path and the reason, and allowed
 * through a root; a symbolic link is followed to where it really leads, and refused when that
 * is outside; a reader of the caller's serves every file (the document, its character, a
 * glTF's buffer, a blend-space file, a database file) from memory, checked as text. */
#define _XOPEN_SOURCE 700 /* mkdtemp, symlink, realpath */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "write_file.h"
#include "counting_allocator.h"
#include "test_gltf_builder.h"
#include "tendon/io/asset.h"
#include "tendon/io/blend_space_file.h"
#include "tendon/io/file_access.h"
#include "tendon/io/graph_document.h"
#include "tendon/io/mm_database_file.h"

static char scratch[64];

/* scratch/name */
static char *at(char *out, const char *name)
{
    snprintf(out, 256, "%s/%s", scratch, name);
    return out;
}

/* A take of one root joint named `joint`, two frames. */
static void take_text(char *out, size_t size, const char *joint)
{
    snprintf(out, size,
             "HIERARCHY\nROOT %s\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\n}\nMOTION\n"
             "Frames: 2\nFrame Time: 0.5\n0 0 0\n1 0 0\n",
             joint);
}

static void write_take(const char *name, const char *joint)
{
    char path[256], text[256];
    take_text(text, sizeof text, joint);
    write_text(at(path, name), text);
}

/* Loads docs/graph.json holding {"character": {"file": CHARACTER}, "clips": CLIPS, ...} with the
 * roots given; returns the code, err filled, and the character's root joint name in `joint`. */
static tdn_result load_doc(const char *character, const char *clips, const char *const *roots, int root_count,
                           tdn_error *err, char *joint)
{
    char path[256], json[1024];
    snprintf(json, sizeof json, "{\"character\": {\"file\": \"%s\"}, \"clips\": %s, \"root\": {\"type\": \"rest\"}}",
             character, clips ? clips : "[]");
    write_text(at(path, "docs/graph.json"), json);
    const tdn_file_access access = { .roots = roots, .root_count = root_count };
    const tdn_graph_document_load_options options = { .file_access = &access };
    tdn_graph_document *d = NULL;
    *err = (tdn_error){ 0 };
    const tdn_result r = tdn_graph_document_load(path, &options, &d, NULL, err);
    joint[0] = '\0';
    if (d)
        snprintf(joint, 64, "%s", tdn_skeleton_joint_name(tdn_graph_document_skeleton(d), 0));
    CHECK(r == TDN_OK || d == NULL);
    tdn_graph_document_destroy(d);
    return r;
}

static int expect(tdn_result got, tdn_result code, const tdn_error *err, const char *where_end, const char *says)
{
    const size_t n = strlen(err->where), m = strlen(where_end);
    const int ok = CHECK_EQ_INT(got, code) & CHECK(n >= m && strcmp(err->where + n - m, where_end) == 0) &
                   CHECK(strstr(err->message, says) != NULL);
    if (!ok)
        fprintf(stderr, "  got '%s': %s\n  expected '...%s': ...%s...\n", err->where, err->message, where_end, says);
    return ok;
}

/* ---- names outside the document's folder, and roots ---- */

static void names_outside_the_folder_need_a_root(void)
{
    char outside[256], docs[256], abs_take[256], where[512], joint[64];
    write_take("outside/far.bvh", "Far");
    write_take("docs/near.bvh", "Near");
    at(outside, "outside");
    at(docs, "docs");
    at(abs_take, "outside/far.bvh");
    tdn_error err;

    /* the control: a file beside the document */
    CHECK_EQ_INT(load_doc("near.bvh", NULL, NULL, 0, &err, joint), TDN_OK);
    CHECK(strcmp(joint, "Near") == 0);
    /* a '..' that stays inside the folder is only a longer name */
    CHECK_EQ_INT(load_doc("sub/../near.bvh", NULL, NULL, 0, &err, joint), TDN_OK);

    /* an absolute path and a '..' out: refused, naming the field, the file and why */
    snprintf(where, sizeof where, "graph.json: character.file (%s)", abs_take);
    expect(load_doc(abs_take, NULL, NULL, 0, &err, joint), TDN_ERR_INVALID_DATA, &err, where,
           "an absolute path, outside the document's folder and the allowed roots");
    expect(load_doc("../outside/far.bvh", NULL, NULL, 0, &err, joint), TDN_ERR_INVALID_DATA, &err,
           "graph.json: character.file (../outside/far.bvh)", "its '..' leads outside the document's folder");
    expect(load_doc("near.bvh", "[{\"name\": \"w\", \"file\": \"../outside/far.bvh\"}]", NULL, 0, &err, joint),
           TDN_ERR_INVALID_DATA, &err, "graph.json: clips[0].file (../outside/far.bvh)", "'..'");
    expect(load_doc("file:near.bvh", NULL, NULL, 0, &err, joint), TDN_ERR_UNSUPPORTED, &err,
           "graph.json: character.file (file:near.bvh)", "scheme");
    expect(load_doc("..\\\\outside\\\\far.bvh", NULL, NULL, 0, &err, joint), TDN_ERR_INVALID_DATA, &err,
           "graph.json: character.file (..\\outside\\far.bvh)", "backslashes");

    /* allowed through a root: the folder itself, a folder above it, written with '..' */
    const char *exact[] = { outside }, *above[] = { scratch }, *dotted[2] = { docs, NULL };
    char up[300];
    snprintf(up, sizeof up, "%s/../outside", docs);
    dotted[1] = up;
    CHECK_EQ_INT(load_doc(abs_take, NULL, exact, 1, &err, joint), TDN_OK);
    CHECK(strcmp(joint, "Far") == 0);
    CHECK_EQ_INT(load_doc("../outside/far.bvh", NULL, above, 1, &err, joint), TDN_OK);
    CHECK(strcmp(joint, "Far") == 0);
    CHECK_EQ_INT(load_doc("../outside/far.bvh", NULL, dotted, 2, &err, joint), TDN_OK);
    /* a root is a folder, not a prefix of names: "outside" does not allow "outside_too" */
    write_take("outside_too/x.bvh", "X");
    expect(load_doc("../outside_too/x.bvh", NULL, exact, 1, &err, joint), TDN_ERR_INVALID_DATA, &err,
           "graph.json: character.file (../outside_too/x.bvh)", "'..'");
    /* a clip file through a root: the character's joints, so the clip plays */
    write_take("outside/walk.bvh", "Near");
    CHECK_EQ_INT(load_doc("near.bvh", "[{\"name\": \"w\", \"file\": \"../outside/walk.bvh\", \"source\": \"walk\"}]",
                          exact, 1, &err, joint),
                 TDN_OK);
}

/* ---- symbolic links ---- */

static void symbolic_links_are_followed_to_where_they_lead(void)
{
    char path[256], target[256], joint[64], where[512];
    tdn_error err;
    /* docs/link.bvh -> outside/far.bvh; docs/alias.bvh -> docs/near.bvh; docs/shared -> outside/ */
    CHECK(symlink(at(target, "outside/far.bvh"), at(path, "docs/link.bvh")) == 0);
    CHECK(symlink("near.bvh", at(path, "docs/alias.bvh")) == 0);
    CHECK(symlink(at(target, "outside"), at(path, "docs/shared")) == 0);
    char real[256];
    char *resolved = realpath(at(target, "outside/far.bvh"), NULL);
    snprintf(real, sizeof real, "%s", resolved ? resolved : "?");
    free(resolved);

    /* a link inside pointing inside: read */
    CHECK_EQ_INT(load_doc("alias.bvh", NULL, NULL, 0, &err, joint), TDN_OK);
    CHECK(strcmp(joint, "Near") == 0);
    /* a link inside pointing outside, as a file or a folder on the way: refused, naming the target */
    snprintf(where, sizeof where, "a symbolic link on the way leads to '%s', outside the document's folder", real);
    expect(load_doc("link.bvh", NULL, NULL, 0, &err, joint), TDN_ERR_INVALID_DATA, &err,
           "graph.json: character.file (link.bvh)", where);
    expect(load_doc("shared/far.bvh", NULL, NULL, 0, &err, joint), TDN_ERR_INVALID_DATA, &err,
           "graph.json: character.file (shared/far.bvh)", where);
    /* ... unless the target lies below a root */
    char outside[256];
    const char *roots[] = { at(outside, "outside") };
    CHECK_EQ_INT(load_doc("link.bvh", NULL, roots, 1, &err, joint), TDN_OK);
    CHECK(strcmp(joint, "Far") == 0);
    CHECK_EQ_INT(load_doc("shared/far.bvh", NULL, roots, 1, &err, joint), TDN_OK);

    /* a glTF buffer that is a link to a file outside the asset's folder */
    gltf_builder b = { 0 };
    const float times[] = { 0, 1 }, moves[] = { 0, 0, 0, 1, 0, 0 };
    gb_floats(&b, "SCALAR", 2, times);
    gb_floats(&b, "VEC3", 2, moves);
    char *json = gb_json(&b,
                         "\"nodes\":[{\"name\":\"a\"}],\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":"
                         "{\"node\":0,\"path\":\"translation\"}}],\"samplers\":[{\"input\":0,\"output\":1}]}]",
                         GB_EXTERNAL, "moves.bin");
    write_text(at(path, "docs/moves.gltf"), json);
    FILE *f = fopen(at(target, "outside/moves.bin"), "wb");
    CHECK(f && fwrite(b.bin, 1, b.bin_size, f) == b.bin_size);
    if (f)
        fclose(f);
    CHECK(symlink(target, at(path, "docs/moves.bin")) == 0);
    tdn_asset *asset = NULL;
    err = (tdn_error){ 0 };
    expect(tdn_asset_load(at(path, "docs/moves.gltf"), NULL, &asset, NULL, &err), TDN_ERR_INVALID_DATA, &err,
           "moves.gltf: buffers[0] (moves.bin)", "a symbolic link on the way leads to");
    const tdn_file_access access = { .roots = roots, .root_count = 1 };
    CHECK_EQ_INT(tdn_asset_load(path, &(tdn_asset_load_options){ .file_access = &access }, &asset, NULL, &err), TDN_OK);
    CHECK(asset && tdn_keyed_clip_duration(tdn_asset_clip(asset, 0)) == 1.0f); /* the key time read through it */
    tdn_asset_destroy(asset);
    free(json);
    gb_free(&b);
    const char *const links[] = { "docs/link.bvh",  "docs/alias.bvh",  "docs/shared",
                                  "docs/moves.bin", "docs/moves.gltf", "outside/moves.bin" };
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++)
        remove(at(path, links[i]));
}

/* ---- a reader of the caller's ---- */

/* Files in memory, as a game's pack would hold them. */
typedef struct pack {
    const char *names[4];
    const char *texts[4];
    size_t sizes[4];
    int count;
    char asked[8][128]; /* the paths it was asked for */
    int asked_count;
    int bad_allocator; /* set when a read came without both allocator hooks */
    int counted_reads; /* reads into the counting allocator's memory */
} pack;

static tdn_result pack_read(void *user, const char *path, void **data, size_t *size, const tdn_allocator *allocator,
                            tdn_error *err)
{
    pack *p = user;
    if (p->asked_count < 8)
        snprintf(p->asked[p->asked_count++], sizeof p->asked[0], "%s", path);
    p->bad_allocator |= !allocator || !allocator->alloc || !allocator->free;
    p->counted_reads += allocator && allocator->alloc == count_alloc;
    for (int i = 0; i < p->count; i++)
        if (strcmp(p->names[i], path) == 0) {
            *data = allocator->alloc(p->sizes[i], 1, allocator->user);
            if (!*data)
                return TDN_ERR_OUT_OF_MEMORY;
            memcpy(*data, p->texts[i], p->sizes[i]);
            *size = p->sizes[i];
            return TDN_OK;
        }
    snprintf(err->message, sizeof err->message, "not in the pack");
    return TDN_ERR_IO;
}

static void a_reader_serves_files_from_memory(void)
{
    char hero[256], other[256], far[256];
    take_text(hero, sizeof hero, "PackHero");
    take_text(other, sizeof other, "PackHero"); /* the clip file: the character's rig */
    take_text(far, sizeof far, "Far");
    const char *doc =
        "{\"character\": {\"file\": \"chars/hero.bvh\"}, \"clips\": [{\"name\": \"w\", "
        "\"file\": \"moves/../moves/walk.bvh\", \"source\": \"walk\"}], \"root\": {\"type\": \"clip\", \"clip\": \"w\"}}";
    pack p = { .names = { "pack/graph.json", "pack/chars/hero.bvh", "pack/moves/walk.bvh", "/far.bvh" },
               .texts = { doc, hero, other, far },
               .count = 4 };
    for (int i = 0; i < p.count; i++)
        p.sizes[i] = strlen(p.texts[i]);
    const tdn_file_access access = { .read = pack_read, .user = &p };
    const tdn_graph_document_load_options options = { .file_access = &access };
    tdn_graph_document *d = NULL;
    tdn_error err = { 0 };
    const long blocks = live_blocks;
    if (!CHECK_EQ_INT(tdn_graph_document_load("pack/graph.json", &options, &d, &counting, &err), TDN_OK))
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
    CHECK(d && strcmp(tdn_skeleton_joint_name(tdn_graph_document_skeleton(d), 0), "PackHero") == 0);
    CHECK(d && tdn_graph_document_clip_count(d) == 1 && tdn_clip_duration(tdn_graph_document_clip(d, 0)) == 0.5f);
    /* the document, its character and its clip file, each asked for once, by its normalized path */
    CHECK_EQ_INT(p.asked_count, 3);
    CHECK(strcmp(p.asked[0], "pack/graph.json") == 0 && strcmp(p.asked[1], "pack/chars/hero.bvh") == 0 &&
          strcmp(p.asked[2], "pack/moves/walk.bvh") == 0);
    CHECK(!p.bad_allocator);
    tdn_graph_document_destroy(d);
    CHECK_EQ_INT(live_blocks, blocks); /* the files' bytes went back to the allocator */

    /* a file the reader does not have: its reason, tendon's place */
    p.texts[0] = "{\"character\": {\"file\": \"chars/villain.bvh\"}, \"root\": {\"type\": \"rest\"}}";
    p.sizes[0] = strlen(p.texts[0]);
    err = (tdn_error){ 0 };
    CHECK_EQ_INT(tdn_graph_document_load("pack/graph.json", &options, &d, NULL, &err), TDN_ERR_IO);
    CHECK(strcmp(err.where, "pack/graph.json: character.file (chars/villain.bvh)") == 0 &&
          strcmp(err.message, "not in the pack") == 0);
    err = (tdn_error){ 0 };
    CHECK_EQ_INT(tdn_graph_document_load("pack/nothing.json", &options, &d, NULL, &err), TDN_ERR_IO);
    CHECK(strcmp(err.where, "pack/nothing.json") == 0 && strcmp(err.message, "not in the pack") == 0);
    /* names are checked as text before the reader sees them; a root allows them */
    p.texts[0] = "{\"character\": {\"file\": \"/far.bvh\"}, \"root\": {\"type\": \"rest\"}}";
    p.sizes[0] = strlen(p.texts[0]);
    p.asked_count = 0;
    err = (tdn_error){ 0 };
    CHECK_EQ_INT(tdn_graph_document_load("pack/graph.json", &options, &d, NULL, &err), TDN_ERR_INVALID_DATA);
    CHECK(strstr(err.message, "absolute path") != NULL && p.asked_count == 1);
    const char *roots[] = { "/" };
    const tdn_file_access rooted = { .read = pack_read, .user = &p, .roots = roots, .root_count = 1 };
    CHECK_EQ_INT(tdn_graph_document_load("pack/graph.json",
                                         &(tdn_graph_document_load_options){ .file_access = &rooted }, &d, NULL, &err),
                 TDN_OK);
    CHECK(d && strcmp(tdn_skeleton_joint_name(tdn_graph_document_skeleton(d), 0), "Far") == 0);
    tdn_graph_document_destroy(d);

    /* a glTF and its buffer, both from the reader */
    gltf_builder b = { 0 };
    const float times[] = { 0, 2 }, moves[] = { 0, 0, 0, 1, 0, 0 };
    gb_floats(&b, "SCALAR", 2, times);
    gb_floats(&b, "VEC3", 2, moves);
    char *json = gb_json(&b,
                         "\"nodes\":[{\"name\":\"a\"}],\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":"
                         "{\"node\":0,\"path\":\"translation\"}}],\"samplers\":[{\"input\":0,\"output\":1}]}]",
                         GB_EXTERNAL, "data/a%20b.bin");
    pack g = { .names = { "pack/hero.gltf", "pack/data/a b.bin" },
               .texts = { json, (const char *)b.bin },
               .sizes = { strlen(json), b.bin_size },
               .count = 2 };
    const tdn_file_access gltf_access = { .read = pack_read, .user = &g };
    tdn_asset *asset = NULL;
    err = (tdn_error){ 0 };
    CHECK_EQ_INT(
        tdn_asset_load("pack/hero.gltf", &(tdn_asset_load_options){ .file_access = &gltf_access }, &asset, NULL, &err),
        TDN_OK);
    CHECK(asset && tdn_keyed_clip_duration(tdn_asset_clip(asset, 0)) == 2.0f);
    CHECK(g.asked_count == 2 && strcmp(g.asked[1], "pack/data/a b.bin") == 0 && !g.bad_allocator);
    tdn_asset_destroy(asset);
    free(json);
    gb_free(&b);
}

/* A blend-space file and a database file, each read by the reader into the load's allocator. */
static void a_reader_serves_blend_spaces_and_databases(void)
{
    static const float features[] = { 0, 0, 1, 0, 0, 1, 1, 1, 2, 2 };
    tdn_mm_database *made = NULL;
    const tdn_mm_features_desc desc = { .frame_count = 5, .dimensions = 2, .features = features };
    CHECK_EQ_INT(tdn_mm_database_create_from_features(&desc, &made, NULL, NULL), TDN_OK);
    static char saved[4096];
    const size_t saved_size = tdn_mm_database_save_size(made);
    CHECK(saved_size <= sizeof saved);
    CHECK_EQ_INT(tdn_mm_database_save_memory(made, saved, sizeof saved, NULL), TDN_OK);
    tdn_mm_database_destroy(made);
    const char *space = "{\"blend_space\": {\"mode\": \"linear\", \"samples\": [{\"clip\": \"slow\", \"at\": [0]}, "
                        "{\"clip\": \"fast\", \"at\": [1]}]}}";
    pack p = { .names = { "pack/moves.json", "pack/moves.tdnmm" },
               .texts = { space, saved },
               .sizes = { strlen(space), saved_size },
               .count = 2 };
    const tdn_file_access access = { .read = pack_read, .user = &p };
    const long blocks = live_blocks;
    tdn_error err = { 0 };
    tdn_blend_space_file *f = NULL;
    CHECK_EQ_INT(tdn_blend_space_file_load("pack/moves.json",
                                           &(tdn_blend_space_file_load_options){ .file_access = &access }, &f,
                                           &counting, &err),
                 TDN_OK);
    CHECK(f && strcmp(tdn_blend_space_file_clip_name(f, 1), "fast") == 0);
    tdn_mm_database *db = NULL;
    CHECK_EQ_INT(tdn_mm_database_load("pack/moves.tdnmm", &(tdn_mm_database_load_options){ .file_access = &access },
                                      &db, &counting, &err),
                 TDN_OK);
    CHECK(db && tdn_mm_database_frame_count(db) == 5 && tdn_mm_database_features(db, 4)[1] == 2.0f);
    CHECK_EQ_INT(p.asked_count, 2);
    CHECK(strcmp(p.asked[0], "pack/moves.json") == 0 && strcmp(p.asked[1], "pack/moves.tdnmm") == 0);
    CHECK_EQ_INT(p.counted_reads, 2);
    CHECK(!p.bad_allocator);
    tdn_blend_space_file_destroy(f);
    tdn_mm_database_destroy(db);
    CHECK_EQ_INT(live_blocks, blocks); /* the files' bytes went back to the allocator */
    /* a file the reader does not have: its reason, the path */
    err = (tdn_error){ 0 };
    CHECK_EQ_INT(tdn_mm_database_load("pack/other.tdnmm", &(tdn_mm_database_load_options){ .file_access = &access },
                                      &db, NULL, &err),
                 TDN_ERR_IO);
    CHECK(db == NULL && strcmp(err.where, "pack/other.tdnmm") == 0 && strcmp(err.message, "not in the pack") == 0);
}

/* ---- the default reader, called directly ---- */

static void the_default_reader_can_be_called(void)
{
    char path[256];
    write_text(at(path, "docs/hello.txt"), "hello");
    void *data = NULL;
    size_t size = 0;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_file_read(NULL, path, &data, &size, NULL, &err), TDN_OK);
    CHECK(size == 5 && data && memcmp(data, "hello", 5) == 0);
    tdn_free(data, size, NULL);
    const long blocks = live_blocks;
    CHECK_EQ_INT(tdn_file_read(NULL, path, &data, &size, &counting, &err), TDN_OK);
    CHECK_EQ_INT(live_blocks, blocks + 1);
    tdn_free(data, size, &counting);
    CHECK_EQ_INT(live_blocks, blocks);
    CHECK_EQ_INT(tdn_file_read(NULL, at(path, "docs"), &data, &size, NULL, &err), TDN_ERR_IO);
    CHECK(strcmp(err.where, path) == 0 && strstr(err.message, "is a directory") != NULL && data == NULL);
    remove(at(path, "docs/hello.txt"));
}

int main(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/tendon-file-access-XXXXXX");
    if (!CHECK(mkdtemp(scratch) != NULL))
        return check_summary();
    char path[256];
    CHECK(mkdir(at(path, "docs"), 0700) == 0 && mkdir(at(path, "outside"), 0700) == 0 &&
          mkdir(at(path, "outside_too"), 0700) == 0);
    RUN(names_outside_the_folder_need_a_root);
    RUN(symbolic_links_are_followed_to_where_they_lead);
    RUN(a_reader_serves_files_from_memory);
    RUN(a_reader_serves_blend_spaces_and_databases);
    RUN(the_default_reader_can_be_called);
    const char *const files[] = { "docs/graph.json",   "docs/near.bvh", "outside/far.bvh", "outside/walk.bvh",
                                  "outside_too/x.bvh", "docs",          "outside",         "outside_too" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        remove(at(path, files[i]));
    CHECK(rmdir(scratch) == 0);
    return check_summary();
}
