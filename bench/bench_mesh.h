/* tendon_bench: a generated skinned mesh for the `skin` workload: vertices scattered around
 * the bones of a skeleton's rest pose (grouped by bone, as exported meshes are), each with 4 or
 * 8 influences on its bone and the bones around it (4: weights about 0.55/0.25/0.12/0.08; 8:
 * about 0.40/0.20/0.12/0.08/0.07/0.05/0.045/0.035; jittered and normalized) and a unit normal
 * pointing away from the bone. */
#ifndef TENDON_BENCH_MESH_H
#define TENDON_BENCH_MESH_H

#include "tendon/tendon.h"

typedef struct bench_mesh {
    int vertex_count;
    float *positions; /* 3 per vertex */
    float *normals;   /* 3 per vertex */
    int influences;   /* 4 or 8 */
    uint16_t *joints; /* influences per vertex */
    float *weights;   /* influences per vertex */
    float *out_positions, *out_normals;
} bench_mesh;

tdn_result bench_mesh_create(const tdn_skeleton *skeleton, int vertex_count, int influences, bench_mesh *mesh);
void bench_mesh_destroy(bench_mesh *mesh);

/* A skin job over the mesh and a palette. */
tdn_skin_job bench_mesh_job(const bench_mesh *mesh, const tdn_mat4 *palette, int palette_count);

#endif
