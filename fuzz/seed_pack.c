/* Writes the seeds of fuzz_pack (fuzz/seeds/pack/) into the folder given:
 *   walk.tdn  the tiny walking rig's skeleton (mm_walk_rig.h: 5 joints) and a quad skinned to it
 *             (4 vertices, 2 triangles, normals and uvs, one influence set), and a section of
 *             an unknown kind ('CLIP', 16 bytes);
 *   two.tdn   that skeleton twice and a mesh of two influence sets without indices, skinned to
 *             the second.
 * Not run by the build: the seeds are committed. To regenerate, in a fuzz build:
 *   build/fuzz/bin/seed_pack fuzz/seeds/pack */
#include <stdio.h>
#include <string.h>

#include "mm_walk_rig.h"
#include "tendon/io/asset.h"
#include "tendon/io/pack_file.h"

static const float positions[12] = { -0.1f, 0.0f, 0.0f, 0.1f, 0.0f, 0.0f, 0.1f, 0.9f, 0.0f, -0.1f, 0.9f, 0.0f };
static const float normals[12] = { 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1 };
static const float uvs[8] = { 0, 0, 1, 0, 1, 1, 0, 1 };
static const uint16_t joints[32] = { 2, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0,
                                     0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0 };
static const float weights[32] = { 1,     0,     0,     0,     1, 0, 0, 0, 0.5f, 0.5f, 0, 0,    1, 0, 0, 0,
                                   0.25f, 0.25f, 0.25f, 0.25f, 0, 0, 0, 1, 0.5f, 0,    0, 0.5f, 1, 0, 0, 0 };
static const uint32_t indices[6] = { 0, 1, 2, 0, 2, 3 };

static int write(const char *dir, const char *name, const tdn_skeleton *skeleton, int two)
{
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    tdn_result res = tdn_pack_writer_create(&w, NULL, &err);
    if (res == TDN_OK)
        res = tdn_pack_writer_add_skeleton(w, "walk", skeleton, NULL, &err);
    if (res == TDN_OK && two)
        res = tdn_pack_writer_add_skeleton(w, "walk again", skeleton, NULL, &err);
    tdn_pack_mesh quad = { "quad", 0, 4, 1, positions, normals, uvs, joints, weights, indices, 6 };
    if (two) {
        tdn_pack_mesh points = { "points", 1, 2, 2, positions, NULL, NULL, joints, weights, NULL, 0 };
        quad = points;
    }
    if (res == TDN_OK)
        res = tdn_pack_writer_add_mesh(w, &quad, &err);
    if (res == TDN_OK && !two)
        res = tdn_pack_writer_add_section(w, TDN_PACK_FOURCC('C', 'L', 'I', 'P'), "clips come here", 16, 32, &err);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (res == TDN_OK)
        res = tdn_pack_writer_save(w, path, &err);
    tdn_pack_writer_destroy(w);
    if (res != TDN_OK)
        fprintf(stderr, "seed_pack: %s: %s: %s\n", name, err.where, err.message);
    return res == TDN_OK;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: seed_pack FOLDER\n");
        return 2;
    }
    const tdn_asset_load_options import = { .scale = 0.01f, .name = "walk" };
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    if (tdn_asset_load_memory(walk_bvh, strlen(walk_bvh), &import, &asset, NULL, &err) != TDN_OK) {
        fprintf(stderr, "seed_pack: walk: %s: %s\n", err.where, err.message);
        return 1;
    }
    const int ok = write(argv[1], "walk.tdn", tdn_asset_skeleton(asset), 0) &&
                   write(argv[1], "two.tdn", tdn_asset_skeleton(asset), 1);
    tdn_asset_destroy(asset);
    return ok ? 0 : 1;
}
