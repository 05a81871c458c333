/* Writes the seeds of fuzz_mm_database (fuzz/seeds/mm_database/) into the folder given:
 *   features.mmdb  a database from made-up features: 6 frames of 5 floats (rows padded to 8),
 *                  frames 4 and 5 not searchable;
 *   clips.mmdb     a database built from a tiny walking BVH (hips, two legs) with its mirror
 *                  image: 2 runs of 13 frames at 30 frames/s, offsets 2 and 4, every feature
 *                  group, an excluded range.
 * Not run by the build: the seeds are committed. To regenerate, in a fuzz build:
 *   build/fuzz/bin/seed_mm_database fuzz/seeds/mm_database */
#include <stdio.h>
#include <string.h>

#include "mm_walk_rig.h"
#include "tendon/io/asset.h"
#include "tendon/io/mm_database_file.h"
#include "tendon/mm_database.h"

static int write_features(const char *dir)
{
    float features[6 * 5];
    for (int i = 0; i < 6 * 5; i++)
        features[i] = (float)((i * 7) % 11) * 0.25f - 1.0f;
    const unsigned char searchable[6] = { 1, 1, 1, 1, 0, 0 };
    tdn_mm_features_desc desc = { 0 };
    desc.frame_count = 6;
    desc.dimensions = 5;
    desc.features = features;
    desc.searchable = searchable;
    desc.sample_rate = 30.0f;
    tdn_mm_database *db = NULL;
    tdn_error err = { 0 };
    char path[4096];
    snprintf(path, sizeof path, "%s/features.mmdb", dir);
    tdn_result res = tdn_mm_database_create_from_features(&desc, &db, NULL, &err);
    if (res == TDN_OK)
        res = tdn_mm_database_save(db, path, &err);
    tdn_mm_database_destroy(db);
    if (res != TDN_OK)
        fprintf(stderr, "seed_mm_database: features: %s: %s\n", err.where, err.message);
    return res == TDN_OK;
}

static int write_clips(const char *dir)
{
    const tdn_asset_load_options import = { .scale = 0.01f, .name = "walk" };
    tdn_asset *asset = NULL;
    tdn_mm_database *db = NULL;
    tdn_error err = { 0 };
    tdn_result res = tdn_asset_load_memory(walk_bvh, strlen(walk_bvh), &import, &asset, NULL, &err);
    if (res == TDN_OK)
        res = walk_database(asset, &db, &err);
    char path[4096];
    snprintf(path, sizeof path, "%s/clips.mmdb", dir);
    if (res == TDN_OK)
        res = tdn_mm_database_save(db, path, &err);
    tdn_mm_database_destroy(db);
    tdn_asset_destroy(asset);
    if (res != TDN_OK)
        fprintf(stderr, "seed_mm_database: clips: %s: %s\n", err.where, err.message);
    return res == TDN_OK;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: seed_mm_database FOLDER\n");
        return 2;
    }
    return write_features(argv[1]) && write_clips(argv[1]) ? 0 : 1;
}
