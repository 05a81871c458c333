/* tendon tests: a small glTF character with 8 influences per vertex (JOINTS_0/WEIGHTS_0 and
 * JOINTS_1/WEIGHTS_1), built in memory, and where its vertices go at rest worked out in double
 * from the numbers written into the file, without tendon.
 *
 * Nodes: "Root" (a translation) with eight children "J1".."J8", each a translation and a
 * rotation about its own axis; "Body" carries the mesh with the skin. The skin lists the nine
 * joints out of node order, and each joint's inverse bind is a translation by -bind[s], so
 * that at rest joint s moves a point p to root + t + R (p - bind[s]) (the node's translation t
 * and rotation R; the root's own: root + p - bind[s]). The mesh has two primitives over the
 * same 7 vertices and 3 triangles: primitive 0 with both influence sets (JOINTS_0 unsigned
 * byte, WEIGHTS_0 float, JOINTS_1 unsigned short, WEIGHTS_1 normalized unsigned byte),
 * primitive 1 with the first set alone. Vertex 1's second set weighs 0 and vertex 2's first
 * set weighs 0; weights are not normalized. On request primitive 0 also has a third set
 * (JOINTS_2/WEIGHTS_2, a copy of the first), which tendon does not read. */
#ifndef TENDON_TEST_EIGHT_INFLUENCES_FIXTURE_H
#define TENDON_TEST_EIGHT_INFLUENCES_FIXTURE_H

#include <math.h>

#include "test_gltf_builder.h"

enum { EIGHT_VERTICES = 7, EIGHT_SKIN_JOINTS = 9 };

static const double eight_root[3] = { 0.5, 0.25, -0.125 };
/* Children J1..J8 (nodes 1..8): translation, rotation axis (not unit) and angle. */
static const double eight_translation[8][3] = { { 0.1, 0.9, 0.0 }, { -0.4, 0.3, 0.2 },  { 0.7, -0.2, 0.1 },
                                                { 0.0, 0.0, 1.1 }, { -0.6, -0.5, 0.3 }, { 0.2, 0.4, -0.8 },
                                                { 1.0, 0.1, 0.5 }, { -0.3, 1.2, -0.4 } };
static const double eight_axis[8][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 1, 1, 0 },
                                         { 0, 1, 1 }, { 1, 0, 1 }, { 1, 2, 3 }, { -2, 1, 1 } };
static const double eight_angle[8] = { 0.3, -0.7, 1.1, 0.5, -1.4, 0.9, 2.0, -0.2 };
/* Skin joint s is node eight_skin_nodes[s] (0: Root); its bind position. */
static const int eight_skin_nodes[EIGHT_SKIN_JOINTS] = { 4, 0, 7, 2, 8, 1, 6, 3, 5 };
static const double eight_bind[EIGHT_SKIN_JOINTS][3] = { { 0.1, 0.2, 0.3 },   { 0, 0, 0 },        { -0.5, 0.1, 0.0 },
                                                         { 0.3, -0.3, 0.6 },  { 0.9, 0.0, -0.2 }, { 0.0, 0.4, 0.4 },
                                                         { -0.1, -0.6, 0.2 }, { 0.5, 0.5, 0.5 },  { 0.2, -0.1, -0.7 } };

static const float eight_positions[EIGHT_VERTICES][3] = { { 0.1f, 0.2f, 0.3f },   { -0.4f, 0.5f, 0.1f },
                                                          { 0.6f, -0.3f, 0.2f },  { 0.0f, 0.9f, -0.5f },
                                                          { -0.7f, -0.1f, 0.4f }, { 0.3f, 0.3f, -0.3f },
                                                          { 0.8f, 0.6f, 0.7f } };
static const float eight_normals[EIGHT_VERTICES][3] = { { 0, 1, 0 },       { 1, 0, 0 },        { 0, 0, 1 },
                                                        { 0.6f, 0.8f, 0 }, { 0, -0.8f, 0.6f }, { -1, 0, 0 },
                                                        { 0, 0.6f, -0.8f } };
/* Skin joint indices and weights: the first set, then the second (weights as bytes / 255). */
static const int eight_joints[EIGHT_VERTICES][8] = {
    { 0, 1, 2, 3, 4, 5, 6, 7 }, { 8, 2, 4, 6, 1, 3, 5, 7 }, { 0, 0, 0, 0, 3, 6, 8, 1 }, { 5, 4, 3, 2, 1, 0, 8, 7 },
    { 7, 8, 0, 1, 2, 6, 4, 3 }, { 2, 2, 5, 5, 8, 8, 0, 0 }, { 6, 1, 7, 4, 2, 0, 3, 5 },
};
static const float eight_weights_0[EIGHT_VERTICES][4] = {
    { 0.2f, 0.15f, 0.1f, 0.05f },   { 0.5f, 0.3f, 0.15f, 0.05f }, { 0, 0, 0, 0 },
    { 0.1f, 0.1f, 0.1f, 0.1f },     { 0.3f, 0.05f, 0.05f, 0.1f }, { 0.25f, 0.0f, 0.25f, 0.1f },
    { 0.05f, 0.05f, 0.05f, 0.05f },
};
static const int eight_weights_1[EIGHT_VERTICES][4] = {
    { 51, 51, 38, 64 }, { 0, 0, 0, 0 },    { 100, 80, 50, 25 }, { 26, 51, 77, 0 },
    { 64, 64, 0, 0 },   { 38, 38, 38, 0 }, { 204, 0, 13, 0 },
};
static const int eight_triangles[9] = { 0, 1, 2, 2, 3, 4, 4, 5, 6 };

/* The weight of vertex v's influence k (0..7), as the file gives it. */
static inline double eight_weight(int v, int k)
{
    return k < 4 ? (double)eight_weights_0[v][k] : eight_weights_1[v][k - 4] / 255.0;
}

/* R x for the rotation of child c (Rodrigues' formula with the unit axis). */
static inline void eight_rotate(int c, const double x[3], double out[3])
{
    const double *a = eight_axis[c];
    const double length = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    const double k[3] = { a[0] / length, a[1] / length, a[2] / length }, co = cos(eight_angle[c]),
                 si = sin(eight_angle[c]);
    const double dot = k[0] * x[0] + k[1] * x[1] + k[2] * x[2];
    const double cross[3] = { k[1] * x[2] - k[2] * x[1], k[2] * x[0] - k[0] * x[2], k[0] * x[1] - k[1] * x[0] };
    for (int i = 0; i < 3; i++)
        out[i] = x[i] * co + cross[i] * si + k[i] * dot * (1.0 - co);
}

/* Where vertex v goes at rest with its first `influences` (4 or 8): the weighted mean of its
 * joints' moves, and its normal rotated the same way, normalized (weights summing to 0: where
 * it is, as tendon's skinning leaves such a vertex). */
static inline void eight_reference(int v, int influences, double position[3], double normal[3])
{
    double sum = 0.0, p[3] = { 0, 0, 0 }, n[3] = { 0, 0, 0 };
    for (int k = 0; k < influences; k++) {
        const int s = eight_joints[v][k], node = eight_skin_nodes[s];
        const double w = eight_weight(v, k);
        double local[3], moved[3], turned[3];
        const double nv[3] = { eight_normals[v][0], eight_normals[v][1], eight_normals[v][2] };
        for (int i = 0; i < 3; i++)
            local[i] = eight_positions[v][i] - eight_bind[s][i];
        if (node == 0) {
            for (int i = 0; i < 3; i++)
                moved[i] = eight_root[i] + local[i], turned[i] = nv[i];
        } else {
            eight_rotate(node - 1, local, moved);
            eight_rotate(node - 1, nv, turned);
            for (int i = 0; i < 3; i++)
                moved[i] += eight_root[i] + eight_translation[node - 1][i];
        }
        for (int i = 0; i < 3; i++)
            p[i] += w * moved[i], n[i] += w * turned[i];
        sum += w;
    }
    const double length = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int i = 0; i < 3; i++) {
        position[i] = sum > 0.0 ? p[i] / sum : eight_positions[v][i];
        normal[i] = sum > 0.0 ? n[i] / length : eight_normals[v][i];
    }
}

/* The file (free it): a GLB, or glTF JSON with its buffer embedded; *size its bytes. */
static inline void *eight_influences_gltf(int binary, int third_set, size_t *size)
{
    gltf_builder b = { 0 };
    float ibm[EIGHT_SKIN_JOINTS][16];
    for (int s = 0; s < EIGHT_SKIN_JOINTS; s++) {
        for (int e = 0; e < 16; e++)
            ibm[s][e] = e % 5 == 0 ? 1.0f : 0.0f;
        for (int i = 0; i < 3; i++)
            ibm[s][12 + i] = (float)-eight_bind[s][i];
    }
    int sets[2][EIGHT_VERTICES * 4], weights_1[EIGHT_VERTICES * 4];
    for (int v = 0; v < EIGHT_VERTICES; v++)
        for (int k = 0; k < 4; k++) {
            sets[0][4 * v + k] = eight_joints[v][k];
            sets[1][4 * v + k] = eight_joints[v][4 + k];
            weights_1[4 * v + k] = eight_weights_1[v][k];
        }
    const int ibm_accessor = gb_floats(&b, "MAT4", EIGHT_SKIN_JOINTS, &ibm[0][0]);
    const int positions = gb_floats(&b, "VEC3", EIGHT_VERTICES, &eight_positions[0][0]);
    const int normals = gb_floats(&b, "VEC3", EIGHT_VERTICES, &eight_normals[0][0]);
    const int joints_0 = gb_ints(&b, "VEC4", EIGHT_VERTICES, 5121, 0, sets[0]);
    const int weights_0 = gb_floats(&b, "VEC4", EIGHT_VERTICES, &eight_weights_0[0][0]);
    const int joints_1 = gb_ints(&b, "VEC4", EIGHT_VERTICES, 5123, 0, sets[1]);
    const int weights_1_accessor = gb_ints(&b, "VEC4", EIGHT_VERTICES, 5121, 1, weights_1);
    const int indices = gb_ints(&b, "SCALAR", 9, 5123, 0, eight_triangles);

    text_buf body = { 0 };
    text_add(
        &body,
        "\"scene\":0,\"scenes\":[{\"nodes\":[0,9]}],\"nodes\":[{\"name\":\"Root\",\"translation\":[%.17g,%.17g,%.17g],"
        "\"children\":[1,2,3,4,5,6,7,8]}",
        eight_root[0], eight_root[1], eight_root[2]);
    for (int c = 0; c < 8; c++) {
        const double *a = eight_axis[c], length = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        const double s = sin(0.5 * eight_angle[c]) / length;
        text_add(&body,
                 ",{\"name\":\"J%d\",\"translation\":[%.17g,%.17g,%.17g],\"rotation\":[%.17g,%.17g,%.17g,%.17g]}",
                 c + 1, eight_translation[c][0], eight_translation[c][1], eight_translation[c][2], a[0] * s, a[1] * s,
                 a[2] * s, cos(0.5 * eight_angle[c]));
    }
    text_add(&body, ",{\"name\":\"Body\",\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[");
    for (int s = 0; s < EIGHT_SKIN_JOINTS; s++)
        text_add(&body, "%s%d", s ? "," : "", eight_skin_nodes[s]);
    text_add(&body,
             "],\"inverseBindMatrices\":%d}],\"meshes\":[{\"name\":\"Body\",\"primitives\":["
             "{\"attributes\":{\"POSITION\":%d,\"NORMAL\":%d,\"JOINTS_0\":%d,\"WEIGHTS_0\":%d,\"JOINTS_1\":%d,"
             "\"WEIGHTS_1\":%d",
             ibm_accessor, positions, normals, joints_0, weights_0, joints_1, weights_1_accessor);
    if (third_set)
        text_add(&body, ",\"JOINTS_2\":%d,\"WEIGHTS_2\":%d", joints_0, weights_0);
    text_add(&body,
             "},\"indices\":%d},"
             "{\"attributes\":{\"POSITION\":%d,\"NORMAL\":%d,\"JOINTS_0\":%d,\"WEIGHTS_0\":%d},\"indices\":%d}]}]",
             indices, positions, normals, joints_0, weights_0, indices);
    void *file = NULL;
    if (binary) {
        file = gb_glb(&b, body.s, size);
    } else {
        file = gb_json(&b, body.s, GB_EMBEDDED, NULL);
        *size = strlen(file);
    }
    free(body.s);
    gb_free(&b);
    return file;
}

#endif
