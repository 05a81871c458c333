/* The generated humanoid's skinned mesh (humanoid.h, src/io/humanoid_mesh.c), through the
 * public asset API only: one skin over the 67 joints and one mesh; weights non-negative and
 * summing to 1 on at most 4 joints; indices in range; every edge shared by exactly two
 * triangles wound opposite ways (closed, consistently oriented surfaces); vertex normals unit
 * and agreeing with the faces; every bone's midpoint enclosed (winding number >= 1/2); the
 * rest pose skinned by tdn_skin_lbs gives the bind positions back; walking keeps every vertex
 * near its bone; positions scale with the height; generation is deterministic. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "humanoid_sampler.h"
#include "tendon/tendon.h"

#define PI 3.14159265358979323846

static tdn_vec3 vertex(const tdn_asset_mesh *m, uint32_t i)
{
    return tdn_vec3_make(m->positions[3 * i], m->positions[3 * i + 1], m->positions[3 * i + 2]);
}

static tdn_vec3 translation(const tdn_mat4 *m) { return tdn_vec3_make(m->m[12], m->m[13], m->m[14]); }

static void test_skin_and_counts(void)
{
    tdn_asset *asset = create_ok(NULL);
    if (!asset)
        return;
    CHECK_EQ_INT(tdn_asset_skin_count(asset), 1);
    CHECK(strcmp(tdn_asset_skin_name(asset, 0), "humanoid") == 0);
    CHECK_EQ_INT(tdn_asset_skin_joint_count(asset, 0), 67);
    CHECK_EQ_INT(tdn_asset_chosen_skin(asset), 0);
    CHECK_EQ_INT(tdn_asset_mesh_count(asset), 1);
    const tdn_asset_mesh m = tdn_asset_mesh_at(asset, 0);
    CHECK(strcmp(m.name, "body") == 0);
    CHECK_EQ_INT(m.influence_sets, 1);
    CHECK(m.normals != NULL && m.indices != NULL);
    CHECK_EQ_INT(m.index_count % 3, 0);
    CHECK(m.index_count / 3 >= 2000 && m.index_count / 3 <= 10000); /* "a few thousand" */
    printf("body: %d vertices, %d triangles\n", m.vertex_count, m.index_count / 3);

    int bad_weights = 0, bad_joints = 0, bad_indices = 0, bad_normals = 0, max_influences = 0;
    double worst_sum = 0;
    for (int v = 0; v < m.vertex_count; v++) {
        double sum = 0;
        int influences = 0;
        for (int k = 0; k < 4; k++) {
            const float w = m.weights[4 * v + k];
            bad_weights += !(w >= 0.0f && w <= 1.0f);
            bad_joints += m.joints[4 * v + k] >= 67;
            sum += w;
            influences += w > 0.0f;
        }
        worst_sum = fmax(worst_sum, fabs(sum - 1.0));
        max_influences = influences > max_influences ? influences : max_influences;
        const double n = sqrt((double)m.normals[3 * v] * m.normals[3 * v] +
                              (double)m.normals[3 * v + 1] * m.normals[3 * v + 1] +
                              (double)m.normals[3 * v + 2] * m.normals[3 * v + 2]);
        bad_normals += fabs(n - 1.0) > 1e-5;
    }
    for (int i = 0; i < m.index_count; i++)
        bad_indices += m.indices[i] >= (uint32_t)m.vertex_count;
    CHECK_EQ_INT(bad_weights, 0);
    CHECK_EQ_INT(bad_joints, 0);
    CHECK_EQ_INT(bad_indices, 0);
    CHECK_EQ_INT(bad_normals, 0);
    CHECK(worst_sum <= 1e-6);
    CHECK(max_influences >= 1 && max_influences <= 4);
    printf("weights: sums within %.2g of 1, at most %d influences\n", worst_sum, max_influences);
    tdn_asset_destroy(asset);
}

static int compare_edges(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Closed and consistently wound: each directed edge (a, b) appears once and (b, a) once. Face
 * normals agree with the vertex normals. */
static void test_closed_surfaces(void)
{
    tdn_asset *asset = create_ok(NULL);
    if (!asset)
        return;
    const tdn_asset_mesh m = tdn_asset_mesh_at(asset, 0);
    const int edges = m.index_count;
    uint64_t *directed = malloc(sizeof(uint64_t) * (size_t)edges);
    int against_normals = 0, degenerate = 0;
    for (int t = 0; t < m.index_count / 3; t++) {
        const uint32_t *c = m.indices + 3 * t;
        for (int k = 0; k < 3; k++)
            directed[3 * t + k] = (uint64_t)c[k] << 32 | c[(k + 1) % 3];
        const tdn_vec3 a = vertex(&m, c[0]), b = vertex(&m, c[1]), d = vertex(&m, c[2]);
        const tdn_vec3 face = tdn_vec3_cross(tdn_vec3_sub(b, a), tdn_vec3_sub(d, a));
        degenerate += tdn_vec3_length(face) < 1e-9f;
        tdn_vec3 normals = tdn_vec3_make(0, 0, 0);
        for (int k = 0; k < 3; k++)
            normals = tdn_vec3_add(
                normals, tdn_vec3_make(m.normals[3 * c[k]], m.normals[3 * c[k] + 1], m.normals[3 * c[k] + 2]));
        against_normals += tdn_vec3_dot(face, normals) <= 0.0f;
    }
    qsort(directed, (size_t)edges, sizeof *directed, compare_edges);
    int repeated = 0, unmatched = 0;
    for (int e = 0; e < edges; e++) {
        repeated += e > 0 && directed[e] == directed[e - 1];
        const uint64_t reverse = directed[e] << 32 | directed[e] >> 32;
        unmatched += !bsearch(&reverse, directed, (size_t)edges, sizeof *directed, compare_edges);
    }
    CHECK_EQ_INT(repeated, 0);
    CHECK_EQ_INT(unmatched, 0);
    CHECK_EQ_INT(degenerate, 0);
    CHECK_EQ_INT(against_normals, 0);
    free(directed);
    tdn_asset_destroy(asset);
}

/* Generalized winding number of point p (the sum of the triangles' solid angles / 4 pi): the
 * number of closed surfaces around it, wound outward. */
static double winding(const tdn_asset_mesh *m, tdn_vec3 p)
{
    double total = 0;
    for (int t = 0; t < m->index_count / 3; t++) {
        double v[3][3];
        for (int k = 0; k < 3; k++) {
            const tdn_vec3 q = vertex(m, m->indices[3 * t + k]);
            v[k][0] = (double)q.x - p.x, v[k][1] = (double)q.y - p.y, v[k][2] = (double)q.z - p.z;
        }
        double len[3], dots[3];
        for (int k = 0; k < 3; k++)
            len[k] = sqrt(v[k][0] * v[k][0] + v[k][1] * v[k][1] + v[k][2] * v[k][2]);
        for (int k = 0; k < 3; k++) {
            const double *x = v[k], *y = v[(k + 1) % 3];
            dots[k] = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
        }
        const double det = v[0][0] * (v[1][1] * v[2][2] - v[1][2] * v[2][1]) -
                           v[0][1] * (v[1][0] * v[2][2] - v[1][2] * v[2][0]) +
                           v[0][2] * (v[1][0] * v[2][1] - v[1][1] * v[2][0]);
        total += 2 * atan2(det, len[0] * len[1] * len[2] + dots[0] * len[2] + dots[2] * len[1] + dots[1] * len[0]);
    }
    return total / (4 * PI);
}

/* Every bone (joint to child) but root-pelvis (the root is on the ground between the feet) has
 * its midpoint inside the body. */
static void test_encloses_skeleton(void)
{
    tdn_asset *asset = create_ok(NULL);
    if (!asset)
        return;
    const tdn_asset_mesh m = tdn_asset_mesh_at(asset, 0);
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    const int n = tdn_skeleton_joint_count(skel);
    const tdn_mat4 *inverse_bind = tdn_skeleton_inverse_bind(skel);
    int outside = 0, bones = 0;
    double least = 1e9;
    for (int j = 0; j < n; j++) {
        const int parent = tdn_skeleton_parent(skel, j);
        if (parent <= 0)
            continue;
        tdn_mat4 a, b;
        tdn_mat4_invert(&inverse_bind[parent], &a);
        tdn_mat4_invert(&inverse_bind[j], &b);
        const tdn_vec3 mid = tdn_vec3_scale(tdn_vec3_add(translation(&a), translation(&b)), 0.5f);
        const double w = winding(&m, mid);
        bones++;
        least = fmin(least, w);
        outside += w < 0.5;
        if (!CHECK(w >= 0.5))
            fprintf(stderr, "  bone %s-%s: midpoint winding number %.3f\n", tdn_skeleton_joint_name(skel, parent),
                    tdn_skeleton_joint_name(skel, j), w);
    }
    /* far outside: nothing around */
    CHECK(fabs(winding(&m, tdn_vec3_make(0, 0.9f, 1.0f))) < 1e-6);
    CHECK(fabs(winding(&m, tdn_vec3_make(0, 0.45f, 0))) < 0.5); /* between the knees */
    printf("enclosed: %d bone midpoints, least winding number %.3f, %d outside\n", bones, least, outside);
    tdn_asset_destroy(asset);
}

/* Skins a mesh by the pose's palette. */
static void skin_pose(const tdn_asset *asset, const tdn_pose *pose, const tdn_asset_mesh *m, float *out,
                      float *out_normals, tdn_mat4 *model)
{
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    const int n = tdn_skeleton_joint_count(skel);
    tdn_mat4 *palette = malloc(sizeof *palette * (size_t)n);
    tdn_model_space(skel, pose, NULL, model, NULL);
    CHECK_EQ_INT(tdn_palette(skel, model, palette, NULL), TDN_OK);
    tdn_skin_job job = { .vertex_count = m->vertex_count,
                         .influences = 4 * m->influence_sets,
                         .positions = m->positions,
                         .normals = m->normals,
                         .joints = m->joints,
                         .weights = m->weights,
                         .palette = palette,
                         .palette_count = n,
                         .out_positions = out,
                         .out_normals = out_normals };
    CHECK_EQ_INT(tdn_skin_lbs(&job, NULL), TDN_OK);
    free(palette);
}

/* The vertex's joint of largest weight. */
static int major_joint(const tdn_asset_mesh *m, int v)
{
    int best = 0;
    for (int k = 1; k < 4; k++)
        if (m->weights[4 * v + k] > m->weights[4 * v + best])
            best = k;
    return m->joints[4 * v + best];
}

static void test_rest_and_walk(void)
{
    tdn_asset *asset = create_ok(NULL);
    if (!asset)
        return;
    const tdn_asset_mesh m = tdn_asset_mesh_at(asset, 0);
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    const int n = tdn_skeleton_joint_count(skel);
    tdn_pose pose;
    tdn_pose_create(n, &pose, NULL, NULL);
    tdn_mat4 *model = malloc(sizeof *model * (size_t)n), *rest_model = malloc(sizeof *rest_model * (size_t)n);
    float *out = malloc(sizeof(float) * 3 * (size_t)m.vertex_count),
          *normals = malloc(sizeof(float) * 3 * (size_t)m.vertex_count);

    /* the rest pose gives the bind positions and normals back */
    CHECK_EQ_INT(tdn_pose_set_rest(&pose, skel, NULL), TDN_OK);
    skin_pose(asset, &pose, &m, out, normals, rest_model);
    double worst = 0, worst_normal = 0;
    for (int i = 0; i < 3 * m.vertex_count; i++) {
        worst = fmax(worst, fabs((double)out[i] - m.positions[i]));
        worst_normal = fmax(worst_normal, fabs((double)normals[i] - m.normals[i]));
    }
    CHECK(worst <= 1e-6);
    CHECK(worst_normal <= 1e-6);
    printf("rest pose skinned: positions within %.3g m, normals within %.3g of the bind\n", worst, worst_normal);

    /* walking: a vertex stays as near its main joint as at rest: no farther by more than 4 cm,
     * no nearer by more than 5 (LBS pulls blended vertices in at bent joints) */
    const tdn_keyed_clip *walk = tdn_asset_clip(asset, tdn_asset_find_clip(asset, "walk_forward"));
    double worst_growth = 0, worst_shrink = 0;
    for (int f = 0; f < 8; f++) {
        tdn_keyed_clip_sample(walk, tdn_keyed_clip_duration(walk) * (float)f / 8.0f, &pose, NULL, NULL);
        skin_pose(asset, &pose, &m, out, normals, model);
        for (int v = 0; v < m.vertex_count; v++) {
            const int j = major_joint(&m, v);
            const double at_rest = tdn_vec3_length(tdn_vec3_sub(vertex(&m, (uint32_t)v), translation(&rest_model[j])));
            const double now = tdn_vec3_length(
                tdn_vec3_sub(tdn_vec3_make(out[3 * v], out[3 * v + 1], out[3 * v + 2]), translation(&model[j])));
            worst_growth = fmax(worst_growth, now - at_rest);
            worst_shrink = fmax(worst_shrink, at_rest - now);
        }
    }
    CHECK(worst_growth <= 0.04);
    CHECK(worst_shrink <= 0.05);
    printf("walking (8 frames): a vertex's distance to its main joint grows by at most %.4f m, shrinks by at most "
           "%.4f m\n",
           worst_growth, worst_shrink);
    tdn_pose_destroy(&pose);
    free(model), free(rest_model), free(out), free(normals);
    tdn_asset_destroy(asset);
}

static void test_scale_and_determinism(void)
{
    tdn_asset *a = create_ok(NULL), *b = create_ok(NULL), *twice = create_ok(&(tdn_humanoid_desc){ .height = 3.6f });
    if (a && b && twice) {
        const tdn_asset_mesh ma = tdn_asset_mesh_at(a, 0), mb = tdn_asset_mesh_at(b, 0),
                             mt = tdn_asset_mesh_at(twice, 0);
        CHECK_EQ_INT(ma.vertex_count, mb.vertex_count);
        CHECK_EQ_INT(ma.index_count, mb.index_count);
        CHECK(memcmp(ma.positions, mb.positions, sizeof(float) * 3 * (size_t)ma.vertex_count) == 0);
        CHECK(memcmp(ma.weights, mb.weights, sizeof(float) * 4 * (size_t)ma.vertex_count) == 0);
        CHECK(memcmp(ma.indices, mb.indices, sizeof(uint32_t) * (size_t)ma.index_count) == 0);
        if (CHECK_EQ_INT(mt.vertex_count, ma.vertex_count)) {
            double worst = 0;
            for (int i = 0; i < 3 * ma.vertex_count; i++)
                worst = fmax(worst, fabs(mt.positions[i] - 2.0 * ma.positions[i]));
            CHECK(worst <= 2e-6);
        }
    }
    tdn_asset_destroy(a);
    tdn_asset_destroy(b);
    tdn_asset_destroy(twice);
}

int main(void)
{
    RUN(test_skin_and_counts);
    RUN(test_closed_surfaces);
    RUN(test_encloses_skeleton);
    RUN(test_rest_and_walk);
    RUN(test_scale_and_determinism);
    return check_summary();
}
