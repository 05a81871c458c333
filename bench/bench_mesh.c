/* tendon_bench: generated skinned mesh. */
#include "bench_mesh.h"

#include <stdlib.h>
#include <string.h>

static uint32_t next_random(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

static float random_unit(uint32_t *state) { return (float)(next_random(state) >> 8) * (1.0f / 16777216.0f); }

void bench_mesh_destroy(bench_mesh *mesh)
{
    free(mesh->positions);
    free(mesh->normals);
    free(mesh->joints);
    free(mesh->weights);
    free(mesh->out_positions);
    free(mesh->out_normals);
    memset(mesh, 0, sizeof *mesh);
}

tdn_result bench_mesh_create(const tdn_skeleton *skeleton, int vertex_count, bench_mesh *mesh)
{
    memset(mesh, 0, sizeof *mesh);
    const int joints = tdn_skeleton_joint_count(skeleton);
    const size_t n = (size_t)vertex_count;
    mesh->vertex_count = vertex_count;
    mesh->positions = malloc(sizeof(float) * 3 * n);
    mesh->normals = malloc(sizeof(float) * 3 * n);
    mesh->joints = malloc(sizeof(uint16_t) * 4 * n);
    mesh->weights = malloc(sizeof(float) * 4 * n);
    mesh->out_positions = malloc(sizeof(float) * 3 * n);
    mesh->out_normals = malloc(sizeof(float) * 3 * n);
    tdn_vec3 *rest = malloc(sizeof(tdn_vec3) * (size_t)joints);
    if (!mesh->positions || !mesh->normals || !mesh->joints || !mesh->weights || !mesh->out_positions
        || !mesh->out_normals || !rest || joints < 2 || vertex_count < 1) {
        free(rest);
        bench_mesh_destroy(mesh);
        return joints < 2 || vertex_count < 1 ? TDN_ERR_ARGUMENT : TDN_ERR_OUT_OF_MEMORY;
    }
    /* Rest joint positions in model space (parents come first). */
    tdn_transform *model = malloc(sizeof(tdn_transform) * (size_t)joints);
    if (!model) {
        free(rest);
        bench_mesh_destroy(mesh);
        return TDN_ERR_OUT_OF_MEMORY;
    }
    for (int j = 0; j < joints; j++) {
        tdn_transform local = tdn_skeleton_rest(skeleton, j);
        int parent = tdn_skeleton_parent(skeleton, j);
        model[j] = parent < 0 ? local : tdn_transform_mul(&model[parent], &local);
        rest[j] = model[j].t;
    }
    free(model);

    uint32_t seed = 0x12345678u;
    for (int v = 0; v < vertex_count; v++) {
        /* Vertices grouped by bone; every joint but the root gets its share. */
        int bone = 1 + (int)((long long)v * (joints - 1) / vertex_count);
        int parent = tdn_skeleton_parent(skeleton, bone);
        int grandparent = parent > 0 ? tdn_skeleton_parent(skeleton, parent) : -1;
        int child = bone + 1 < joints && tdn_skeleton_parent(skeleton, bone + 1) == bone ? bone + 1 : -1;
        /* The bone segment runs to the first child, or (leaf) on past the joint by half. */
        tdn_vec3 from = rest[bone];
        tdn_vec3 to = child >= 0 ? rest[child]
                                 : tdn_vec3_add(from, tdn_vec3_scale(tdn_vec3_sub(from, rest[parent]), 0.5f));
        tdn_vec3 on_bone = tdn_vec3_lerp(from, to, random_unit(&seed));
        tdn_vec3 out = tdn_vec3_normalize(tdn_vec3_make(random_unit(&seed) - 0.5f, random_unit(&seed) - 0.5f,
                                                        random_unit(&seed) - 0.5f));
        if (tdn_vec3_dot(out, out) == 0.0f)
            out = tdn_vec3_make(0.0f, 0.0f, 1.0f);
        tdn_vec3 p = tdn_vec3_add(on_bone, tdn_vec3_scale(out, 0.02f + 0.06f * random_unit(&seed)));
        memcpy(&mesh->positions[3 * v], &p, sizeof p);
        memcpy(&mesh->normals[3 * v], &out, sizeof out);

        const int influence[4] = { bone, parent, grandparent >= 0 ? grandparent : parent, child >= 0 ? child : bone };
        const float base[4] = { 0.55f, 0.25f, 0.12f, 0.08f };
        float w[4], sum = 0.0f;
        for (int k = 0; k < 4; k++) {
            w[k] = base[k] * (0.7f + 0.6f * random_unit(&seed));
            sum += w[k];
        }
        for (int k = 0; k < 4; k++) {
            mesh->joints[4 * v + k] = (uint16_t)influence[k];
            mesh->weights[4 * v + k] = w[k] / sum;
        }
    }
    free(rest);
    return TDN_OK;
}

tdn_skin_job bench_mesh_job(const bench_mesh *mesh, const tdn_mat4 *palette, int palette_count)
{
    tdn_skin_job job = { 0 };
    job.vertex_count = mesh->vertex_count;
    job.influences = 4;
    job.positions = mesh->positions;
    job.normals = mesh->normals;
    job.joints = mesh->joints;
    job.weights = mesh->weights;
    job.palette = palette;
    job.palette_count = palette_count;
    job.out_positions = mesh->out_positions;
    job.out_normals = mesh->out_normals;
    return job;
}
