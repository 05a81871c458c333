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

tdn_result bench_mesh_create(const tdn_skeleton *skeleton, int vertex_count, int influences, bench_mesh *mesh)
{
    memset(mesh, 0, sizeof *mesh);
    const int joints = tdn_skeleton_joint_count(skeleton);
    const size_t n = (size_t)vertex_count;
    const int valid = joints >= 2 && vertex_count >= 1 && (influences == 4 || influences == 8);
    mesh->vertex_count = vertex_count;
    mesh->influences = influences;
    mesh->positions = malloc(sizeof(float) * 3 * n);
    mesh->normals = malloc(sizeof(float) * 3 * n);
    mesh->joints = malloc(sizeof(uint16_t) * 8 * n);
    mesh->weights = malloc(sizeof(float) * 8 * n);
    mesh->out_positions = malloc(sizeof(float) * 3 * n);
    mesh->out_normals = malloc(sizeof(float) * 3 * n);
    tdn_vec3 *rest = malloc(sizeof(tdn_vec3) * (size_t)joints);
    if (!mesh->positions || !mesh->normals || !mesh->joints || !mesh->weights || !mesh->out_positions ||
        !mesh->out_normals || !rest || !valid) {
        free(rest);
        bench_mesh_destroy(mesh);
        return !valid ? TDN_ERR_ARGUMENT : TDN_ERR_OUT_OF_MEMORY;
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
        tdn_vec3 out = tdn_vec3_normalize(
            tdn_vec3_make(random_unit(&seed) - 0.5f, random_unit(&seed) - 0.5f, random_unit(&seed) - 0.5f));
        if (tdn_vec3_dot(out, out) == 0.0f)
            out = tdn_vec3_make(0.0f, 0.0f, 1.0f);
        tdn_vec3 p = tdn_vec3_add(on_bone, tdn_vec3_scale(out, 0.02f + 0.06f * random_unit(&seed)));
        memcpy(&mesh->positions[3 * v], &p, sizeof p);
        memcpy(&mesh->normals[3 * v], &out, sizeof out);

        /* 8 influences add the joints one step further along the chain (the parent or the bone
         * when there is none), and the root. */
        const int up = grandparent > 0 ? tdn_skeleton_parent(skeleton, grandparent) : -1;
        const int down = child >= 0 && child + 1 < joints && tdn_skeleton_parent(skeleton, child + 1) == child
                             ? child + 1
                             : -1;
        const int influence[8] = { bone,
                                   parent,
                                   grandparent >= 0 ? grandparent : parent,
                                   child >= 0 ? child : bone,
                                   up >= 0 ? up : parent,
                                   down >= 0 ? down : bone,
                                   0,
                                   parent };
        static const float base4[4] = { 0.55f, 0.25f, 0.12f, 0.08f };
        static const float base8[8] = { 0.40f, 0.20f, 0.12f, 0.08f, 0.07f, 0.05f, 0.045f, 0.035f };
        const float *base = influences == 4 ? base4 : base8;
        float w[8], sum = 0.0f;
        for (int k = 0; k < influences; k++) {
            w[k] = base[k] * (0.7f + 0.6f * random_unit(&seed));
            sum += w[k];
        }
        for (int k = 0; k < influences; k++) {
            mesh->joints[influences * v + k] = (uint16_t)influence[k];
            mesh->weights[influences * v + k] = w[k] / sum;
        }
    }
    free(rest);
    return TDN_OK;
}

tdn_skin_job bench_mesh_job(const bench_mesh *mesh, const tdn_mat4 *palette, int palette_count)
{
    tdn_skin_job job = { 0 };
    job.vertex_count = mesh->vertex_count;
    job.influences = mesh->influences;
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
