/* tendon tests: files made to harm the reader. Each case writes its crafted file into a
 * scratch folder and checks the result code and that the error names the place: a path that
 * is a directory or a FIFO (refused at once, never waited on), glTF buffer URIs that would
 * reach outside the asset's folder, and glTF numbers beyond the ranges docs/import.md gives
 * (BVH's are in test_bvh). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, mkfifo, fork */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "write_file.h"
#include "test_gltf_builder.h"
#include "tendon/io/asset.h"

static char scratch[64];

/* One load's outcome, as a child process reports it. */
typedef struct outcome {
    tdn_result code;
    char where[256], message[256];
    int hung; /* the child did not answer within its alarm */
} outcome;

/* tdn_asset_load(path) in a child process that an alarm kills after 10 s, so that a load that
 * blocks (on a FIFO, say) fails the test instead of hanging it. */
static outcome load_in_child(const char *path)
{
    outcome o = { .code = TDN_OK, .hung = 1 };
    int fds[2];
    if (!CHECK(pipe(fds) == 0))
        return o;
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        alarm(10);
        outcome mine = { 0 };
        tdn_error err = { 0 };
        tdn_asset *asset = NULL;
        mine.code = tdn_asset_load(path, NULL, &asset, NULL, &err);
        snprintf(mine.where, sizeof mine.where, "%s", err.where);
        snprintf(mine.message, sizeof mine.message, "%s", err.message);
        tdn_asset_destroy(asset);
        _exit(write(fds[1], &mine, sizeof mine) == (ssize_t)sizeof mine ? 0 : 1);
    }
    close(fds[1]);
    outcome got;
    const ssize_t n = pid > 0 ? read(fds[0], &got, sizeof got) : -1;
    close(fds[0]);
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    if (n == (ssize_t)sizeof got && WIFEXITED(status)) {
        o = got;
        o.hung = 0;
    }
    return o;
}

/* ---- paths that are not regular files ---- */

static void a_directory_is_named_as_one(void)
{
    char dir[128];
    snprintf(dir, sizeof dir, "%s/folder.gltf", scratch);
    CHECK(mkdir(dir, 0700) == 0);
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_asset_load(dir, NULL, &asset, NULL, &err), TDN_ERR_IO);
    CHECK(asset == NULL && strcmp(err.where, dir) == 0);
    CHECK(strstr(err.message, "is a directory") != NULL);
    CHECK(strstr(err.message, "bytes") == NULL); /* not a size read from it */
    rmdir(dir);
}

/* A FIFO with no writer, as the file and as the external buffer of a .gltf beside it: both
 * refused at once (a blocking open would wait forever for a writer). */
static void a_fifo_is_refused_without_waiting(void)
{
    char fifo[128], gltf[128];
    snprintf(fifo, sizeof fifo, "%s/pipe.bin", scratch);
    snprintf(gltf, sizeof gltf, "%s/piped.gltf", scratch);
    if (!CHECK(mkfifo(fifo, 0600) == 0))
        return;
    outcome o = load_in_child(fifo);
    CHECK(!o.hung);
    CHECK_EQ_INT(o.code, TDN_ERR_IO);
    CHECK(strcmp(o.where, fifo) == 0 && strstr(o.message, "FIFO") != NULL);

    write_text(gltf,
               "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"a\"}],"
               "\"buffers\":[{\"uri\":\"pipe.bin\",\"byteLength\":16}],"
               "\"bufferViews\":[{\"buffer\":0,\"byteLength\":4},{\"buffer\":0,\"byteOffset\":4,\"byteLength\":12}],"
               "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},"
               "{\"bufferView\":1,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],"
               "\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}],"
               "\"samplers\":[{\"input\":0,\"output\":1}]}]}");
    o = load_in_child(gltf);
    CHECK(!o.hung);
    CHECK_EQ_INT(o.code, TDN_ERR_IO);
    char fifo_where[300];
    snprintf(fifo_where, sizeof fifo_where, "%s: buffers[0] (pipe.bin)", gltf);
    CHECK(strcmp(o.where, fifo_where) == 0 && strstr(o.message, "FIFO") != NULL);
    remove(gltf);
    remove(fifo);
}

/* ---- glTF URIs stay below the asset's folder ---- */

/* A .gltf in scratch/asset/ whose one buffer (16 bytes: a key time and a translation) is named
 * by `uri`; loads it and returns the code, err filled. When it loads, *duration is the clip's:
 * the key time read from the buffer. */
static tdn_result load_with_uri(const char *uri, tdn_error *err, float *duration)
{
    char body[1024], path[160];
    snprintf(body, sizeof body,
             "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"a\"}],"
             "\"buffers\":[{\"uri\":\"%s\",\"byteLength\":16}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteLength\":4},{\"buffer\":0,\"byteOffset\":4,\"byteLength\":12}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\"},"
             "{\"bufferView\":1,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],"
             "\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}],"
             "\"samplers\":[{\"input\":0,\"output\":1}]}]}",
             uri);
    snprintf(path, sizeof path, "%s/asset/uri.gltf", scratch);
    write_text(path, body);
    tdn_asset *asset = NULL;
    tdn_result r = tdn_asset_load(path, NULL, &asset, NULL, err);
    if (r == TDN_OK)
        *duration = tdn_keyed_clip_duration(tdn_asset_clip(asset, 0));
    tdn_asset_destroy(asset);
    remove(path);
    return r;
}

static void uris_that_leave_the_folder_are_refused(void)
{
    const float key[4] = { 1.5f, 1.0f, -2.0f, 0.25f }; /* time 1.5 s, translation (1, -2, 0.25) */
    char asset_dir[128], inside_dir[160], inside[192], outside[128];
    snprintf(asset_dir, sizeof asset_dir, "%s/asset", scratch);
    snprintf(inside_dir, sizeof inside_dir, "%s/sub dir", asset_dir);
    snprintf(inside, sizeof inside, "%s/key.bin", inside_dir);
    snprintf(outside, sizeof outside, "%s/outside.bin", scratch);
    CHECK(mkdir(asset_dir, 0700) == 0 && mkdir(inside_dir, 0700) == 0);
    write_file(inside, key, sizeof key);
    write_file(outside, key, sizeof key);

    /* the control: a relative URI, percent-encoded as the specification says, is read */
    tdn_error err = { 0 };
    float duration = 0.0f;
    CHECK_EQ_INT(load_with_uri("sub%20dir/%6Bey.bin", &err, &duration), TDN_OK);
    CHECK(duration == 1.5f);

    char absolute[192], file_uri[200];
    snprintf(absolute, sizeof absolute, "%s", outside);
    snprintf(file_uri, sizeof file_uri, "file://%s", outside);
    /* the URI's syntax is told at buffers[0].uri, the file it names at buffers[0] (the path) */
    const struct {
        const char *uri;
        tdn_result code;
        const char *where, *says;
    } cases[] = {
        { absolute, TDN_ERR_INVALID_DATA, NULL, "absolute path" }, /* the file exists and is readable */
        { "%2Ftmp%2Fx.bin", TDN_ERR_INVALID_DATA, "buffers[0] (/tmp/x.bin)", "absolute path" },
        { "../outside.bin", TDN_ERR_INVALID_DATA, "buffers[0] (../outside.bin)", "'..'" },
        { "%2e%2e/outside.bin", TDN_ERR_INVALID_DATA, "buffers[0] (../outside.bin)", "'..'" },
        { "sub%20dir/%2E%2E%2F..%2Foutside.bin", TDN_ERR_INVALID_DATA, "buffers[0] (sub dir/../../outside.bin)",
          "'..'" },
        { "sub%20dir/../../asset/sub%20dir/key.bin", TDN_ERR_INVALID_DATA,
          "buffers[0] (sub dir/../../asset/sub dir/key.bin)", "'..'" }, /* out and back in: refused as text */
        { file_uri, TDN_ERR_UNSUPPORTED, "buffers[0].uri", "scheme" },
        { "FILE:outside.bin", TDN_ERR_UNSUPPORTED, "buffers[0].uri", "scheme" },
        { "C:/outside.bin", TDN_ERR_UNSUPPORTED, "buffers[0].uri", "scheme" },
        { "C%3A/outside.bin", TDN_ERR_UNSUPPORTED, "buffers[0] (C:/outside.bin)", "scheme" },
        { "..%5Coutside.bin", TDN_ERR_INVALID_DATA, "buffers[0] (..\\outside.bin)", "backslashes" },
        { "key.bin?x=1", TDN_ERR_UNSUPPORTED, "buffers[0].uri", "query" },
        { "key%2", TDN_ERR_PARSE, "buffers[0].uri", "hexadecimal" },
        { "key%00.bin", TDN_ERR_INVALID_DATA, "buffers[0].uri", "NUL" },
        { "missing.bin", TDN_ERR_IO, "buffers[0] (missing.bin)", "No such file" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err = (tdn_error){ 0 };
        char where[600];
        if (cases[i].where)
            snprintf(where, sizeof where, "%s/asset/uri.gltf: %s", scratch, cases[i].where);
        else
            snprintf(where, sizeof where, "%s/asset/uri.gltf: buffers[0] (%s)", scratch, outside);
        if (!CHECK_EQ_INT(load_with_uri(cases[i].uri, &err, &duration), cases[i].code) ||
            !CHECK(strcmp(err.where, where) == 0 && strstr(err.message, cases[i].says) != NULL))
            fprintf(stderr, "  uri '%s': %s: %s\n", cases[i].uri, err.where, err.message);
    }
    /* a '..' that stays inside is only a longer way to the same file */
    CHECK_EQ_INT(load_with_uri("sub%20dir/../sub%20dir/key.bin", &err, &duration), TDN_OK);
    remove(inside);
    remove(outside);
    rmdir(inside_dir);
    rmdir(asset_dir);
}

/* ---- glTF numbers beyond the documented ranges ---- */

enum { TIMES, FAR_VEC3, FAR_TIMES, FAR_SCALAR, FAR_POSITIONS, JOINTS, WEIGHTS, FAR_MATRIX, POSITIONS, IDENTITY };

/* Accessors in the order of the enum above. */
static void build_values(gltf_builder *b)
{
    const float times[] = { 0, 1 }, far_vec3[] = { 0, 0, 0, 0, 3e38f, 0 }, far_times[] = { 0, 2e6f };
    const float far_scalar[] = { 0, -2e6f }, positions[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    float far_positions[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 },
          identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    float far_matrix[16];
    memcpy(far_matrix, identity, sizeof identity);
    far_matrix[13] = 3e38f;
    far_positions[4] = 3e38f;
    const int joints[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    const float weights[] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
    gb_floats(b, "SCALAR", 2, times);
    gb_floats(b, "VEC3", 2, far_vec3);
    gb_floats(b, "SCALAR", 2, far_times);
    gb_floats(b, "SCALAR", 2, far_scalar);
    gb_floats(b, "VEC3", 3, far_positions);
    gb_ints(b, "VEC4", 3, 5121, 0, joints);
    gb_floats(b, "VEC4", 3, weights);
    gb_floats(b, "MAT4", 1, far_matrix);
    gb_floats(b, "VEC3", 3, positions);
    gb_floats(b, "MAT4", 1, identity);
}

/* Loads the GLB of `body` (nodes and the rest, JSON members) over those accessors; returns the
 * code, err filled. */
static tdn_result load_values(const char *body, float scale, tdn_error *err)
{
    gltf_builder b = { 0 };
    build_values(&b);
    size_t size;
    unsigned char *glb = gb_glb(&b, body, &size);
    tdn_asset *asset = NULL;
    const tdn_result r = tdn_asset_load_memory(glb, size, &(tdn_asset_load_options){ .scale = scale }, &asset, NULL,
                                               err);
    tdn_asset_destroy(asset);
    free(glb);
    gb_free(&b);
    return r;
}

static void gltf_values_beyond_the_ranges_are_refused(void)
{
    char animated[512], skinned[512];
    const struct {
        const char *body;
        tdn_result code;
        const char *where;
    } cases[] = {
        /* a node's scale of 1e38 made "s": [null, null, null] in tendon sample --json */
        { "\"nodes\":[{\"name\":\"N\",\"scale\":[1e38,1,1]}]", TDN_ERR_INVALID_DATA, "nodes[0].scale" },
        { "\"nodes\":[{\"name\":\"N\",\"translation\":[0,-1.0000001e6,0]}]", TDN_ERR_INVALID_DATA,
          "nodes[0].translation" },
        { "\"nodes\":[{\"name\":\"N\",\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,1e7,0,1]}]", TDN_ERR_INVALID_DATA,
          "nodes[0].matrix" },
        /* the bounds themselves are read, and small scales (there is no lower bound) */
        { "\"nodes\":[{\"name\":\"N\",\"translation\":[1e6,-1e6,0],\"scale\":[1e-7,1e6,-1e6]}]", TDN_OK, "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tdn_error err = { 0 };
        if (!CHECK_EQ_INT(load_values(cases[i].body, 1.0f, &err), cases[i].code) ||
            !CHECK(strcmp(err.where, cases[i].where) == 0))
            fprintf(stderr, "  case %zu: %s: %s\n", i, err.where, err.message);
    }
    /* animation outputs (translation, scale, weights) and key times */
    const struct {
        const char *path;
        int input, output;
        const char *where;
    } channels[] = {
        { "translation", TIMES, FAR_VEC3, "animations[0].samplers[0].output" },
        { "scale", TIMES, FAR_VEC3, "animations[0].samplers[0].output" },
        { "weights", TIMES, FAR_SCALAR, "animations[0].samplers[0].output" },
        { "rotation", FAR_TIMES, FAR_VEC3, "animations[0].samplers[0].input" }, /* times are read first */
    };
    for (size_t i = 0; i < sizeof channels / sizeof channels[0]; i++) {
        snprintf(animated, sizeof animated,
                 "\"nodes\":[{\"name\":\"N\"}],\"animations\":[{\"samplers\":[{\"input\":%d,\"output\":%d}],"
                 "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"%s\"}}]}]",
                 channels[i].input, channels[i].output, channels[i].path);
        tdn_error err = { 0 };
        if (!CHECK_EQ_INT(load_values(animated, 1.0f, &err), TDN_ERR_INVALID_DATA) ||
            !CHECK(strcmp(err.where, channels[i].where) == 0 && strstr(err.message, "1e+06") != NULL))
            fprintf(stderr, "  channel %s: %s: %s\n", channels[i].path, err.where, err.message);
    }
    /* a skinned mesh: its positions (a preview rasterizes them) and the inverse binds */
    const struct {
        int positions, binds;
        tdn_result code;
        const char *where;
    } meshes[] = {
        { FAR_POSITIONS, IDENTITY, TDN_ERR_INVALID_DATA, "meshes[0].primitives[0].attributes.POSITION" },
        { POSITIONS, FAR_MATRIX, TDN_ERR_INVALID_DATA, "skins[0].inverseBindMatrices" },
        { POSITIONS, IDENTITY, TDN_OK, "" },
    };
    for (size_t i = 0; i < sizeof meshes / sizeof meshes[0]; i++) {
        snprintf(skinned, sizeof skinned,
                 "\"nodes\":[{\"name\":\"N\"},{\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[0],"
                 "\"inverseBindMatrices\":%d}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":%d,"
                 "\"JOINTS_0\":%d,\"WEIGHTS_0\":%d}}]}]",
                 meshes[i].binds, meshes[i].positions, JOINTS, WEIGHTS);
        tdn_error err = { 0 };
        if (!CHECK_EQ_INT(load_values(skinned, 1.0f, &err), meshes[i].code) ||
            !CHECK(strcmp(err.where, meshes[i].where) == 0))
            fprintf(stderr, "  mesh %zu: %s: %s\n", i, err.where, err.message);
    }
    /* the import scale itself */
    tdn_error err = { 0 };
    CHECK_EQ_INT(load_values("\"nodes\":[{}]", 1e7f, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "options.scale") == 0);
}

int main(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/tendon-hostile-XXXXXX");
    if (!CHECK(mkdtemp(scratch) != NULL))
        return check_summary();
    RUN(a_directory_is_named_as_one);
    RUN(a_fifo_is_refused_without_waiting);
    RUN(uris_that_leave_the_folder_are_refused);
    RUN(gltf_values_beyond_the_ranges_are_refused);
    rmdir(scratch);
    return check_summary();
}
