/* Fuzz target: runtime pack bytes (tdn_pack_open). Any input must open or fail cleanly (the
 * sanitizers catch the rest); a failure must leave no pack and name a byte; an opened pack must
 * hold only valid values: every skeleton finds each joint by its name and computes model space
 * and a palette from its rest pose, every mesh index and joint is in range, and what opened
 * packs again through the writer (which checks what it is given as the loader does) and opens
 * with the same contents. The bytes are copied to memory aligned as tdn_pack_open requires
 * (libFuzzer's are not). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tendon/model_space.h"
#include "tendon/pack.h"
#include "tendon/pose.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk_skeleton(const tdn_skeleton *k)
{
    const int n = tdn_skeleton_joint_count(k);
    for (int j = 0; j < n; j++)
        if (tdn_skeleton_parent(k, j) >= j || tdn_skeleton_find_joint(k, tdn_skeleton_joint_name(k, j)) != j ||
            tdn_skeleton_subtree_end(k, j) <= j || tdn_skeleton_subtree_end(k, j) > n)
            abort();
    if (n > 4096) /* fine for the library, slow for fuzzing */
        return;
    tdn_pose pose;
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)n);
    if (!model || tdn_pose_create(n, &pose, NULL, NULL) != TDN_OK) {
        free(model);
        return;
    }
    if (tdn_pose_set_rest(&pose, k, NULL) != TDN_OK || tdn_model_space(k, &pose, NULL, model, NULL) != TDN_OK ||
        tdn_palette(k, model, model, NULL) != TDN_OK)
        abort();
    tdn_pose_destroy(&pose);
    free(model);
}

static void walk_mesh(const tdn_pack *pack, const tdn_pack_mesh *m)
{
    const int joints = tdn_skeleton_joint_count(tdn_pack_skeleton(pack, m->skeleton));
    if (!m->name || m->vertex_count < 1 || joints < 1 || m->index_count % 3 != 0 || !m->positions)
        abort();
    for (int i = 0; i < m->index_count; i++)
        if (m->indices[i] >= (uint32_t)m->vertex_count)
            abort();
    for (long i = 0; i < 4L * m->influence_sets * m->vertex_count; i++)
        if (m->joints[i] >= joints || !(m->weights[i] >= 0.0f))
            abort();
}

/* The pack's skeletons and meshes through the writer, opened again: the same contents. */
static void repack(const tdn_pack *pack)
{
    tdn_pack_writer *w = NULL;
    if (tdn_pack_writer_create(&w, NULL, NULL) != TDN_OK)
        return;
    for (int s = 0; s < tdn_pack_skeleton_count(pack); s++)
        if (tdn_pack_writer_add_skeleton(w, tdn_pack_skeleton_name(pack, s), tdn_pack_skeleton(pack, s), NULL, NULL) !=
            TDN_OK)
            abort();
    for (int i = 0; i < tdn_pack_mesh_count(pack); i++) {
        const tdn_pack_mesh m = tdn_pack_mesh_at(pack, i);
        if (tdn_pack_writer_add_mesh(w, &m, NULL) != TDN_OK)
            abort();
    }
    void *bytes = NULL;
    size_t size = 0;
    tdn_pack *again = NULL;
    if (tdn_pack_writer_save_memory(w, &bytes, &size, NULL, NULL) != TDN_OK ||
        tdn_pack_open(bytes, size, &again, NULL, NULL) != TDN_OK)
        abort();
    if (tdn_pack_skeleton_count(again) != tdn_pack_skeleton_count(pack) ||
        tdn_pack_mesh_count(again) != tdn_pack_mesh_count(pack))
        abort();
    for (int s = 0; s < tdn_pack_skeleton_count(pack); s++) {
        const tdn_skeleton *a = tdn_pack_skeleton(pack, s), *b = tdn_pack_skeleton(again, s);
        const int n = tdn_skeleton_joint_count(a);
        if (tdn_skeleton_joint_count(b) != n ||
            memcmp(tdn_skeleton_parents(a), tdn_skeleton_parents(b), sizeof(int16_t) * (size_t)n) != 0 ||
            memcmp(tdn_skeleton_inverse_bind(a), tdn_skeleton_inverse_bind(b), sizeof(tdn_mat4) * (size_t)n) != 0)
            abort();
    }
    tdn_pack_destroy(again);
    tdn_free(bytes, size, NULL);
    tdn_pack_writer_destroy(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *bytes = aligned_alloc(TDN_PACK_ALIGN, (size + TDN_PACK_ALIGN) / TDN_PACK_ALIGN * TDN_PACK_ALIGN);
    if (!bytes)
        return 0;
    if (size > 0)
        memcpy(bytes, data, size);
    tdn_pack *pack = NULL;
    tdn_error err = { 0 };
    if (tdn_pack_open(bytes, size, &pack, NULL, &err) == TDN_OK) {
        for (int s = 0; s < tdn_pack_skeleton_count(pack); s++)
            walk_skeleton(tdn_pack_skeleton(pack, s));
        for (int i = 0; i < tdn_pack_mesh_count(pack); i++) {
            const tdn_pack_mesh m = tdn_pack_mesh_at(pack, i);
            walk_mesh(pack, &m);
        }
        repack(pack);
        tdn_pack_destroy(pack);
    } else if (pack || strncmp(err.where, "byte ", 5) != 0 || err.message[0] == '\0') {
        abort(); /* a failure leaves no pack and names a byte */
    }
    free(bytes);
    return 0;
}
