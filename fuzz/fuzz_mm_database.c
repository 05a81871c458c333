/* Fuzz target: motion-matching database bytes (tdn_mm_database_load_memory). Any input must load or
 * fail cleanly (the sanitizers catch the rest); a failure must leave no database and name its
 * place; a loaded database must save to exactly the input's bytes (one database, one byte
 * image), and a search with a zero query must give the same cost brute force and accelerated
 * and return a searchable frame or none. A database of clips whose joints the tiny walking rig
 * has (mm_walk_rig.h) then drives a controller over that rig for a few frames, walking and
 * turning: every number the database holds (rate, times, roots, features) is fuzzed through
 * playback, search and root motion, and the character stays on a frame of the database, at a
 * finite place. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mm_walk_rig.h"
#include "tendon/io/asset.h"
#include "tendon/mirror.h"
#include "tendon/mm_controller.h"
#include "tendon/mm_database.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int searchable(const tdn_mm_database *db, int frame)
{
    tdn_mm_frame f;
    return tdn_mm_database_frame(db, frame, &f, NULL) == TDN_OK && f.searchable;
}

static void check_database(const tdn_mm_database *db, const uint8_t *data, size_t size)
{
    const size_t bytes = tdn_mm_database_save_size(db);
    if (bytes != size)
        abort();
    unsigned char *saved = malloc(bytes);
    if (!saved)
        return;
    if (tdn_mm_database_save_memory(db, saved, bytes, NULL) != TDN_OK || memcmp(saved, data, size) != 0)
        abort();
    free(saved);

    const int dims = tdn_mm_database_dimensions(db), frames = tdn_mm_database_frame_count(db);
    if (dims < 1 || dims > TDN_MM_MAX_DIMENSIONS || frames < 1)
        abort();
    static const float zero[TDN_MM_MAX_DIMENSIONS];
    const int currents[2] = { -1, frames / 2 };
    for (int c = 0; c < 2; c++) {
        tdn_mm_match brute, fast;
        if (tdn_mm_search(db, zero, currents[c], 0.05f, TDN_MM_SEARCH_BRUTE, &brute, NULL) != TDN_OK ||
            tdn_mm_search(db, zero, currents[c], 0.05f, TDN_MM_SEARCH_ACCELERATED, &fast, NULL) != TDN_OK)
            abort();
        if (brute.cost != fast.cost || (brute.frame >= 0) != (fast.frame >= 0))
            abort();
        if ((brute.frame >= 0 && !searchable(db, brute.frame)) || (fast.frame >= 0 && !searchable(db, fast.frame)))
            abort();
    }
}

/* The rig, loaded once: its skeleton, its one clip, its mirror table and a pose. */
typedef struct walk_rig {
    tdn_asset *asset;
    int mirror[5];
    tdn_pose pose;
} walk_rig;

static const walk_rig *rig(void)
{
    static walk_rig r;
    static int loaded;
    if (!loaded) {
        const tdn_asset_load_options import = { .scale = 0.01f };
        if (tdn_asset_load_memory(walk_bvh, strlen(walk_bvh), &import, &r.asset, NULL, NULL) != TDN_OK ||
            tdn_mirror_table_from_names(tdn_asset_skeleton(r.asset), r.mirror, NULL) != TDN_OK ||
            tdn_pose_create(tdn_skeleton_joint_count(tdn_asset_skeleton(r.asset)), &r.pose, NULL, NULL) != TDN_OK)
            abort();
        loaded = 1;
    }
    return &r;
}

/* Eight frames at 30 per second: walking ahead, then a sharp turn to the right. */
static void drive_controller(const tdn_mm_database *db)
{
    const walk_rig *r = rig();
    const int clips = tdn_mm_database_clip_count(db);
    if (clips > 4096) /* fine for the library, slow for fuzzing */
        return;
    const tdn_keyed_clip **walk = malloc(sizeof *walk * (size_t)clips);
    if (!walk)
        return;
    for (int c = 0; c < clips; c++)
        walk[c] = tdn_asset_clip(r->asset, 0);
    tdn_mm_controller_desc desc = { 0 };
    desc.database = db;
    desc.skeleton = tdn_asset_skeleton(r->asset);
    desc.clips = walk;
    desc.clip_count = clips;
    desc.mirror_table = r->mirror;
    tdn_mm_controller *c = NULL;
    if (tdn_mm_controller_create(&desc, &c, NULL, NULL) == TDN_OK) {
        tdn_pose pose = r->pose;
        for (int f = 0; f < 8; f++) {
            const tdn_mm_input in = { f < 4 ? tdn_vec3_make(0, 0, 1.4f) : tdn_vec3_make(1.4f, 0, 0),
                                      f < 4 ? 0.0f : 1.5707964f };
            tdn_mm_status status;
            if (tdn_mm_controller_update(c, &in, 1.0f / 30.0f, &pose, &status, NULL) != TDN_OK)
                abort();
            if (status.frame < 0 || status.frame >= tdn_mm_database_frame_count(db) || !isfinite(status.time) ||
                !isfinite(status.position.x) || !isfinite(status.position.z) || !isfinite(status.facing))
                abort();
        }
        tdn_mm_controller_destroy(c);
    }
    free(walk);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tdn_mm_database *db = NULL;
    tdn_error err = { 0 };
    if (tdn_mm_database_load_memory(data, size, &db, NULL, &err) == TDN_OK) {
        check_database(db, data, size);
        drive_controller(db);
        tdn_mm_database_destroy(db);
    } else if (db || err.where[0] == '\0' || err.message[0] == '\0') {
        abort(); /* a failure leaves no database and names its place */
    }
    return 0;
}
