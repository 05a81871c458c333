/* tendon CLI: the skinned mesh a preview draws (see preview_mesh.h). */
#include "preview_mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void preview_mesh_free(preview_mesh *m)
{
    free(m->positions);
    free(m->normals);
    free(m->joints);
    free(m->weights);
    free(m->albedos);
    free(m->indices);
    free(m->ids);
    memset(m, 0, sizeof *m);
}

/* Area-weighted vertex normals of the triangles of vertices [first, first + count). */
static void face_normals(preview_mesh *m, int first, int count, int first_triangle, int triangle_count)
{
    float *n = m->normals + 3 * (size_t)first;
    memset(n, 0, 3 * (size_t)count * sizeof *n);
    for (int t = first_triangle; t < first_triangle + triangle_count; t++) {
        const uint32_t *tri = m->indices + 3 * (size_t)t;
        const float *a = m->positions + 3 * (size_t)tri[0], *b = m->positions + 3 * (size_t)tri[1];
        const float *c = m->positions + 3 * (size_t)tri[2];
        const tdn_vec3 ab = tdn_vec3_make(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
        const tdn_vec3 ac = tdn_vec3_make(c[0] - a[0], c[1] - a[1], c[2] - a[2]);
        const tdn_vec3 face = tdn_vec3_cross(ab, ac); /* twice the area, along the normal */
        for (int k = 0; k < 3; k++) {
            float *v = m->normals + 3 * (size_t)tri[k];
            v[0] += face.x, v[1] += face.y, v[2] += face.z;
        }
    }
    for (int v = 0; v < count; v++, n += 3) {
        const float length = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (length > 0.0f)
            n[0] /= length, n[1] /= length, n[2] /= length;
    }
}

int preview_mesh_init(preview_mesh *m, const tdn_asset *asset, int joint_count, const rgb *joint_colour)
{
    memset(m, 0, sizeof *m);
    const int meshes = asset ? tdn_asset_mesh_count(asset) : 0;
    size_t vertices = 0, triangles = 0;
    int influences = 4;
    for (int i = 0; i < meshes; i++) {
        const tdn_asset_mesh am = tdn_asset_mesh_at(asset, i);
        if (am.indices && am.index_count >= 3) {
            vertices += (size_t)am.vertex_count, triangles += (size_t)am.index_count / 3;
            influences = 4 * am.influence_sets > influences ? 4 * am.influence_sets : influences;
        }
    }
    if (triangles == 0 || vertices > INT32_MAX || triangles > INT32_MAX)
        return 1;
    m->influences = influences;
    m->positions = malloc(3 * vertices * sizeof *m->positions);
    m->normals = malloc(3 * vertices * sizeof *m->normals);
    m->joints = malloc((size_t)influences * vertices * sizeof *m->joints);
    m->weights = malloc((size_t)influences * vertices * sizeof *m->weights);
    m->albedos = malloc(3 * vertices * sizeof *m->albedos);
    m->indices = malloc(3 * triangles * sizeof *m->indices);
    m->ids = malloc(triangles * sizeof *m->ids);
    if (!m->positions || !m->normals || !m->joints || !m->weights || !m->albedos || !m->indices || !m->ids) {
        preview_mesh_free(m);
        return 0;
    }
    for (int i = 0; i < meshes; i++) {
        const tdn_asset_mesh am = tdn_asset_mesh_at(asset, i);
        if (!am.indices || am.index_count < 3)
            continue;
        const int first = m->vertex_count, first_triangle = m->triangle_count, count = am.index_count / 3;
        memcpy(m->positions + 3 * (size_t)first, am.positions, 3 * (size_t)am.vertex_count * sizeof *am.positions);
        const size_t given = 4 * (size_t)am.influence_sets; /* the asset's influences per vertex */
        for (int v = 0; v < am.vertex_count; v++) {
            uint16_t *j = m->joints + (size_t)influences * (size_t)(first + v);
            float *w = m->weights + (size_t)influences * (size_t)(first + v);
            float sum = 0.0f, colour[3] = { 0.0f, 0.0f, 0.0f };
            for (int k = 0; k < influences; k++) {
                j[k] = (size_t)k < given ? am.joints[given * (size_t)v + (size_t)k] : 0;
                w[k] = (size_t)k < given ? am.weights[given * (size_t)v + (size_t)k] : 0.0f;
                if (j[k] >= joint_count) /* not a joint of the skeleton: no influence */
                    j[k] = 0, w[k] = 0.0f;
                if (!(w[k] > 0.0f))
                    continue;
                float c[3] = { joint_colour[j[k]].r / 255.0f, joint_colour[j[k]].g / 255.0f,
                               joint_colour[j[k]].b / 255.0f };
                for (int q = 0; q < 3; q++)
                    colour[q] += w[k] * c[q];
                sum += w[k];
            }
            for (int q = 0; q < 3; q++)
                m->albedos[3 * (size_t)(first + v) + (size_t)q] = sum > 0.0f ? colour[q] / sum : 0.75f;
        }
        for (int t = 0; t < count; t++)
            for (int k = 0; k < 3; k++)
                m->indices[3 * (size_t)(first_triangle + t) + (size_t)k] = (uint32_t)first +
                                                                           am.indices[3 * (size_t)t + (size_t)k];
        m->vertex_count += am.vertex_count;
        m->triangle_count += count;
        if (am.normals)
            memcpy(m->normals + 3 * (size_t)first, am.normals, 3 * (size_t)am.vertex_count * sizeof *am.normals);
        else
            face_normals(m, first, am.vertex_count, first_triangle, count);
    }
    /* each triangle's name: its heaviest joint */
    for (int t = 0; t < m->triangle_count; t++) {
        int best = 0;
        float best_weight = -1.0f;
        for (int k = 0; k < 3; k++) {
            const size_t v = m->indices[3 * (size_t)t + (size_t)k];
            for (int i = 0; i < m->influences; i++) {
                float total = 0.0f;
                const uint16_t joint = m->joints[(size_t)m->influences * v + (size_t)i];
                for (int kk = 0; kk < 3; kk++) {
                    const size_t u = (size_t)m->influences * m->indices[3 * (size_t)t + (size_t)kk];
                    for (int ii = 0; ii < m->influences; ii++)
                        total += m->joints[u + (size_t)ii] == joint ? m->weights[u + (size_t)ii] : 0.0f;
                }
                if (total > best_weight)
                    best_weight = total, best = joint;
            }
        }
        m->ids[t] = (unsigned short)(best + 1);
    }
    return 1;
}

void preview_mesh_draw(const preview_mesh *m, render_canvas *r, const tdn_mat4 *palette, int palette_count,
                       float *scratch)
{
    float *positions = scratch, *normals = scratch + 3 * (size_t)m->vertex_count;
    const tdn_skin_job job = { .vertex_count = m->vertex_count,
                               .influences = m->influences,
                               .positions = m->positions,
                               .normals = m->normals,
                               .joints = m->joints,
                               .weights = m->weights,
                               .palette = palette,
                               .palette_count = palette_count,
                               .out_positions = positions,
                               .out_normals = normals };
    if (tdn_skin_lbs(&job, NULL) != TDN_OK)
        return; /* a joint beyond the palette: nothing to draw */
    const render_mesh draw = { m->triangle_count, m->indices, positions, normals, m->albedos, m->ids };
    render_triangles(r, &draw);
}
