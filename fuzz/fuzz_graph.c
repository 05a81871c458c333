/* Fuzz target: graph documents (tdn_graph_document_load_memory). Any input must load or fail
 * cleanly (the sanitizers catch the rest); a failure must leave no document and name its place;
 * a loaded document must run: an instance updates and evaluates to finite poses whatever its
 * float parameters are set to (values taken from the input's first bytes). Documents are read
 * from a folder holding mm.tdnmm, a small motion-matching database of the generated humanoid
 * (idle and walk_forward), so "motion_match" nodes load and run too; a document with "retarget"
 * runs a retargeted instance, its poses the driven character's. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tendon/io/graph_document.h"
#include "tendon/io/humanoid.h"
#include "tendon/io/mm_database_file.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char folder[64] = "/tmp/tendon-fuzz-graph-XXXXXX", database[96];

static void remove_database(void)
{
    remove(database);
    remove(folder);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    tdn_asset *humanoid = NULL;
    tdn_mm_database *db = NULL;
    if (!mkdtemp(folder) || tdn_humanoid_create(NULL, &humanoid, NULL, NULL) != TDN_OK)
        abort();
    const tdn_keyed_clip *clips[2] = { tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, "idle")),
                                       tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, "walk_forward")) };
    const tdn_skeleton *skel = tdn_asset_skeleton(humanoid);
    tdn_mm_database_desc desc = { .skeleton = skel,
                                  .clips = clips,
                                  .clip_count = 2,
                                  .sample_rate = 30.0f,
                                  .root = tdn_skeleton_find_joint(skel, "root"),
                                  .left_foot = tdn_skeleton_find_joint(skel, "foot_l"),
                                  .right_foot = tdn_skeleton_find_joint(skel, "foot_r"),
                                  .offsets = { 5, 10, 15 },
                                  .offset_count = 3 };
    snprintf(database, sizeof database, "%s/mm.tdnmm", folder);
    if (tdn_mm_database_create(&desc, &db, NULL, NULL) != TDN_OK || tdn_mm_database_save(db, database, NULL) != TDN_OK)
        abort();
    atexit(remove_database);
    tdn_mm_database_destroy(db);
    tdn_asset_destroy(humanoid);
    return 0;
}

static void run(const tdn_graph_document *d, const uint8_t *data, size_t size)
{
    const tdn_graph *g = tdn_graph_document_graph(d);
    const tdn_retarget *rt = tdn_graph_document_retarget(d); /* "retarget": poses of the driven character */
    const tdn_skeleton *s = rt ? tdn_graph_document_target_skeleton(d) : tdn_graph_document_skeleton(d);
    tdn_graph_instance *in = NULL;
    tdn_pose pose;
    if (!g || !s || tdn_graph_instance_create_retargeted(g, rt, &in, NULL, NULL) != TDN_OK)
        abort();
    if (tdn_pose_create(tdn_skeleton_joint_count(s), &pose, NULL, NULL) != TDN_OK)
        abort();
    for (int frame = 0; frame < 8; frame++) {
        for (int p = 0; p < tdn_graph_param_count(g); p++) {
            uint8_t byte = size ? data[(size_t)(frame * 7 + p) % size] : 0;
            float v = ((float)byte - 96.0f) / 32.0f; /* -3 .. 5 */
            float vector[3] = { v, -v, 0.5f * v };
            tdn_graph_set_float(in, p, v, NULL);
            tdn_graph_set_int(in, p, byte % 5 - 1, NULL);
            tdn_graph_set_bool(in, p, byte & 1, NULL);
            tdn_graph_set_vector(in, p, vector, NULL);
        }
        if (tdn_graph_update(in, 1.0f / 30.0f, NULL) != TDN_OK || tdn_graph_evaluate(in, &pose, NULL) != TDN_OK)
            abort();
        for (int row = 0; row < TDN_POSE_ROWS; row++)
            for (int j = 0; j < pose.joint_count; j++)
                if (!isfinite(tdn_pose_crow(&pose, row)[j]))
                    abort();
    }
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tdn_graph_document *d = NULL;
    tdn_error err = { 0 };
    if (tdn_graph_document_load_memory((const char *)data, size,
                                       &(tdn_graph_document_load_options){ .base_dir = folder }, &d, NULL,
                                       &err) == TDN_OK) {
        run(d, data, size);
        tdn_graph_document_destroy(d);
    } else if (d || err.message[0] == '\0') {
        abort(); /* a failure leaves no document and says why */
    }
    return 0;
}
