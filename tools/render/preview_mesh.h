/* tendon CLI: the skinned mesh a preview draws (tendon run --render-style mesh): every mesh
 * primitive with triangles that the character's asset carries (tdn_asset_mesh_at), gathered
 * into one, then per frame skinned on the CPU (tdn_skin_lbs) with that frame's palette (its
 * model-space matrices, the character placed in the world, times the skeleton's inverse binds)
 * and drawn by the preview renderer (render_triangles).
 *
 * Up front: every influence is kept (the gathered mesh has 8 per vertex when a primitive has
 * two influence sets, JOINTS_0 and JOINTS_1, the other primitives' last 4 weighing 0; else 4);
 * a primitive without normals gets each vertex's normal as the sum of its triangles' (area-
 * weighted) face normals, normalized; each vertex's albedo is its joints' colours weighted by
 * their weights, and each triangle is named (for the outline) after the joint with the largest
 * weight summed over its three vertices, plus one (the capsules' names). */
#ifndef TENDON_PREVIEW_MESH_H
#define TENDON_PREVIEW_MESH_H

#include <stddef.h>
#include <stdint.h>

#include "image.h"
#include "render.h"
#include "tendon/io/asset.h"
#include "tendon/tendon.h"

typedef struct preview_mesh {
    int vertex_count, triangle_count;
    int influences;             /* joints and weights per vertex: 4 or 8 */
    float *positions, *normals; /* the bind pose: 3 per vertex */
    uint16_t *joints;           /* `influences` per vertex (skeleton indices) */
    float *weights;             /* `influences` per vertex */
    float *albedos;             /* 3 per vertex, 0..1 */
    uint32_t *indices;          /* 3 per triangle */
    unsigned short *ids;        /* per triangle */
} preview_mesh;

/* Gathers asset's meshes (joint_colour: per skeleton joint, joint_count of them). Returns 1
 * (triangle_count 0 when the asset has no triangles), or 0 when out of memory. */
int preview_mesh_init(preview_mesh *m, const tdn_asset *asset, int joint_count, const rgb *joint_colour);
void preview_mesh_free(preview_mesh *m);
/* Skins the mesh with `palette` (palette_count matrices) into scratch (6 floats per vertex)
 * and draws it on r (after render_ground: r's camera is the frame's). */
void preview_mesh_draw(const preview_mesh *m, render_canvas *r, const tdn_mat4 *palette, int palette_count,
                       float *scratch);

#endif
