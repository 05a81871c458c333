/* glTF import, feature by feature, on small files built here (test_gltf_builder.h), against
 * values worked by hand: each interpolation per path (CUBICSPLINE as the spec's Hermite form
 * with tangents scaled by the key interval), time before the first key, normalized integer
 * rotations and weights, integer joints, sparse accessors, byte strides, the three buffer
 * forms, out-of-order skin joints, non-joint ancestors, matrix nodes, two skins, morph
 * weights, default and repeated names, ignored channels, the import scale, quantized
 * positions, and allocation failures at every step. */
#define _XOPEN_SOURCE 700
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "counting_allocator.h"
#include "test_gltf_builder.h"
#include "tendon/io/asset.h"

enum { BYTE = 5120, UBYTE = 5121, SHORT = 5122, USHORT = 5123, FLOAT = 5126 };

static tdn_asset *load_json(const char *json, const tdn_asset_load_options *options)
{
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_asset_load_memory(json, strlen(json), options, &asset, NULL, &err), TDN_OK))
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
    return asset;
}

static tdn_asset *build_and_load(const gltf_builder *b, const char *body, const tdn_asset_load_options *options)
{
    char *json = gb_json(b, body, GB_EMBEDDED, NULL);
    tdn_asset *asset = load_json(json, options);
    free(json);
    return asset;
}

/* Local transform of the named joint in clip `clip` at time t. */
static tdn_transform local_at(const tdn_asset *asset, int clip, const char *joint, float t)
{
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    tdn_pose pose;
    tdn_pose_create(tdn_skeleton_joint_count(skel), &pose, NULL, NULL);
    tdn_keyed_clip_sample(tdn_asset_clip(asset, clip), t, &pose, NULL, NULL);
    tdn_transform x = tdn_pose_get(&pose, tdn_skeleton_find_joint(skel, joint));
    tdn_pose_destroy(&pose);
    return x;
}

/* Model-space (world) matrix of the named joint at rest. */
static tdn_mat4 model_at_rest(const tdn_asset *asset, const char *joint)
{
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    const int n = tdn_skeleton_joint_count(skel);
    tdn_pose pose;
    tdn_pose_create(n, &pose, NULL, NULL);
    tdn_pose_set_rest(&pose, skel, NULL);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)n);
    tdn_model_space(skel, &pose, NULL, model, NULL);
    tdn_mat4 m = model[tdn_skeleton_find_joint(skel, joint)];
    free(model);
    tdn_pose_destroy(&pose);
    return m;
}

#define CHECK_VEC3(v, ex, ey, ez, tol) \
  do {                                 \
    const tdn_vec3 v_ = (v);           \
    CHECK_NEAR(v_.x, ex, tol);         \
    CHECK_NEAR(v_.y, ey, tol);         \
    CHECK_NEAR(v_.z, ez, tol);         \
  } while (0)
#define CHECK_QUAT(q, ex, ey, ez, ew, tol) \
  do {                                     \
    const tdn_quat q_ = (q);               \
    CHECK_NEAR(q_.x, ex, tol);             \
    CHECK_NEAR(q_.y, ey, tol);             \
    CHECK_NEAR(q_.z, ez, tol);             \
    CHECK_NEAR(q_.w, ew, tol);             \
  } while (0)

/* ---- interpolation ---- */

/* Hermite basis at s (the spec's CUBICSPLINE), worked out for s = 0.5 and 0.25. */
typedef struct hermite {
    double h00, h10, h01, h11;
} hermite;
static const hermite at_half = { 0.5, 0.125, 0.5, -0.125 };
static const hermite at_quarter = { 0.84375, 0.140625, 0.15625, -0.046875 };

/* One node "N"; nine animations: {STEP, LINEAR, CUBICSPLINE} x {translation, rotation, scale},
 * keys at t = 1 and t = 3 (dt = 2). */
static void every_interpolation_on_every_path(void)
{
    gltf_builder b = { 0 };
    const float times[] = { 1, 3 };
    const float r = sqrtf(0.5f);
    const float translation[] = { 1, 2, 3, 5, -2, 7 };
    const float translation_cubic[] = { 9,  9, 9, 1, 2,  3, 2, 0, -1,  /* a0 (unused), v0, b0 */
                                        -1, 4, 0, 5, -2, 7, 8, 8, 8 }; /* a1, v1, b1 (unused) */
    const float rotation[] = { 0, 0, 0, 1, 0, 0, r, r };
    const float rotation_cubic[] = { 9, 9, 9, 9, 0, 0, 0, 1, 0, 0, 0.4f, 0, 0, 0, 0, 0, 0, 0, r, r, 9, 9, 9, 9 };
    const float scale[] = { 1, 1, 1, 3, 5, 0.5f };
    const float scale_cubic[] = { 9, 9, 9, 1, 1, 1, 1, 0, 0, 0, 2, 0, 3, 5, 0.5f, 9, 9, 9 };
    int input = gb_floats(&b, "SCALAR", 2, times);
    int outputs[3][2] = {
        { gb_floats(&b, "VEC3", 2, translation), gb_floats(&b, "VEC3", 6, translation_cubic) },
        { gb_floats(&b, "VEC4", 2, rotation), gb_floats(&b, "VEC4", 6, rotation_cubic) },
        { gb_floats(&b, "VEC3", 2, scale), gb_floats(&b, "VEC3", 6, scale_cubic) },
    };
    static const char *const paths[] = { "translation", "rotation", "scale" };
    static const char *const modes[] = { "STEP", "LINEAR", "CUBICSPLINE" };
    text_buf body = { 0 };
    text_add(&body, "\"nodes\":[{\"name\":\"N\"}],\"animations\":[");
    for (int p = 0; p < 3; p++)
        for (int m = 0; m < 3; m++)
            text_add(&body,
                     "%s{\"name\":\"%s %s\",\"samplers\":[{\"input\":%d,\"output\":%d,\"interpolation\":\"%s\"}],"
                     "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"%s\"}}]}",
                     p + m ? "," : "", modes[m], paths[p], input, outputs[p][m == 2], modes[m], paths[p]);
    text_add(&body, "]");
    tdn_asset *asset = build_and_load(&b, body.s, NULL);
    free(body.s);
    gb_free(&b);
    if (!asset)
        return;
    CHECK_EQ_INT(tdn_asset_clip_count(asset), 9);
    CHECK_EQ_INT(tdn_asset_joint_count(asset), 1);
    for (int c = 0; c < 9; c++) {
        CHECK_NEAR(tdn_keyed_clip_duration(tdn_asset_clip(asset, c)), 3.0, 0);
        CHECK_EQ_INT(tdn_asset_clip_channel_count(asset, c), 1);
    }
    CHECK(tdn_asset_find_clip(asset, "CUBICSPLINE rotation") == 5);

    /* translation: STEP holds, LINEAR lerps, CUBIC = h00 v0 + h10 dt b0 + h01 v1 + h11 dt a1 */
    CHECK_VEC3(local_at(asset, 0, "N", 2.9f).t, 1, 2, 3, 0);
    CHECK_VEC3(local_at(asset, 0, "N", 3.0f).t, 5, -2, 7, 0);
    CHECK_VEC3(local_at(asset, 1, "N", 2.0f).t, 3, 0, 5, 1e-6);
    const hermite h[2] = { at_half, at_quarter };
    const float t_of[2] = { 2.0f, 1.5f };
    for (int i = 0; i < 2; i++) {
        tdn_vec3 t = local_at(asset, 2, "N", t_of[i]).t;
        CHECK_NEAR(t.x, h[i].h00 * 1 + h[i].h10 * 2 * 2 + h[i].h01 * 5 + h[i].h11 * 2 * -1, 1e-5);
        CHECK_NEAR(t.y, h[i].h00 * 2 + h[i].h10 * 2 * 0 + h[i].h01 * -2 + h[i].h11 * 2 * 4, 1e-5);
        CHECK_NEAR(t.z, h[i].h00 * 3 + h[i].h10 * 2 * -1 + h[i].h01 * 7 + h[i].h11 * 2 * 0, 1e-5);
    }
    CHECK_VEC3(local_at(asset, 2, "N", 2.0f).t, 3.75, -1.0, 4.75, 1e-5); /* the same, summed by hand */
    /* before the first key every mode holds the first value; after the last, the last */
    for (int m = 0; m < 3; m++) {
        CHECK_VEC3(local_at(asset, m, "N", 0.0f).t, 1, 2, 3, 0);
        CHECK_VEC3(local_at(asset, m, "N", 0.5f).t, 1, 2, 3, 0);
        CHECK_VEC3(local_at(asset, m, "N", 10.0f).t, 5, -2, 7, 0);
    }

    /* rotation: identity to 90 degrees about z */
    const double s8 = sin(M_PI / 8), c8 = cos(M_PI / 8);
    CHECK_QUAT(local_at(asset, 3, "N", 2.9f).r, 0, 0, 0, 1, 0);
    CHECK_QUAT(local_at(asset, 4, "N", 2.0f).r, 0, 0, s8, c8, 1e-6); /* slerp: 45 degrees */
    tdn_quat q = local_at(asset, 4, "N", 1.5f).r;                    /* slerp: 22.5 degrees */
    CHECK_QUAT(q, 0, 0, sin(M_PI / 16), cos(M_PI / 16), 1e-6);
    {
        const double z = 0.5 * 0 + 0.125 * 2 * 0.4 + 0.5 * sqrt(0.5) - 0.125 * 2 * 0;
        const double w = 0.5 * 1 + 0.125 * 2 * 0 + 0.5 * sqrt(0.5) - 0.125 * 2 * 0;
        const double len = sqrt(z * z + w * w);
        CHECK_QUAT(local_at(asset, 5, "N", 2.0f).r, 0, 0, z / len, w / len, 1e-6); /* Hermite, normalized */
    }
    CHECK_QUAT(local_at(asset, 5, "N", 0.25f).r, 0, 0, 0, 1, 0);

    /* scale */
    CHECK_VEC3(local_at(asset, 6, "N", 1.0f).s, 1, 1, 1, 0);
    CHECK_VEC3(local_at(asset, 6, "N", 2.99f).s, 1, 1, 1, 0);
    CHECK_VEC3(local_at(asset, 7, "N", 2.0f).s, 2, 3, 0.75, 1e-6);
    CHECK_VEC3(local_at(asset, 8, "N", 2.0f).s, 0.5 + 0.125 * 2 * 1 + 1.5, 0.5 + 2.5 - 0.125 * 2 * 2, 0.5 + 0.25, 1e-5);
    tdn_asset_destroy(asset);
}

/* ---- component types ---- */

static void normalized_integer_rotations(void)
{
    gltf_builder b = { 0 };
    const float times[] = { 0, 1 };
    const int bytes[] = { 0, 0, 127, 127, 0, 0, -128, 127 }; /* -128 clamps to -1 */
    const int shorts[] = { 0, 0, 32767, 32767, 0, -32768, 0, 32767 };
    const float unnormalized[] = { 0, 0, 0, 2, 0, 3, 0, 0 }; /* renormalized */
    int input = gb_floats(&b, "SCALAR", 2, times);
    int as_byte = gb_ints(&b, "VEC4", 2, BYTE, 1, bytes);
    int as_short = gb_ints(&b, "VEC4", 2, SHORT, 1, shorts);
    int as_float = gb_floats(&b, "VEC4", 2, unnormalized);
    char body[1024];
    snprintf(body, sizeof body,
             "\"nodes\":[{\"name\":\"A\"},{\"name\":\"B\"},{\"name\":\"C\"}],\"animations\":[{\"samplers\":["
             "{\"input\":%d,\"output\":%d},{\"input\":%d,\"output\":%d},{\"input\":%d,\"output\":%d}],\"channels\":["
             "{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}},"
             "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"rotation\"}},"
             "{\"sampler\":2,\"target\":{\"node\":2,\"path\":\"rotation\"}}]}]",
             input, as_byte, input, as_short, input, as_float);
    tdn_asset *asset = build_and_load(&b, body, NULL);
    gb_free(&b);
    if (!asset)
        return;
    const double r = sqrt(0.5);
    CHECK_QUAT(local_at(asset, 0, "A", 0).r, 0, 0, r, r, 1e-6);
    CHECK_QUAT(local_at(asset, 0, "A", 1).r, 0, 0, -r, r, 1e-6);
    CHECK_QUAT(local_at(asset, 0, "B", 0).r, 0, 0, r, r, 1e-6);
    CHECK_QUAT(local_at(asset, 0, "B", 1).r, 0, -r, 0, r, 1e-6);
    CHECK_QUAT(local_at(asset, 0, "C", 0).r, 0, 0, 0, 1, 0);
    CHECK_QUAT(local_at(asset, 0, "C", 1).r, 0, 1, 0, 0, 0);
    tdn_asset_destroy(asset);
}

/* A skin of nodes 1..3 under a non-joint armature node 0 (turned 90 degrees about x, scaled by
 * 0.01, moved by (1, 0, 0)); the skin lists its joints out of order (Head, Hips, Spine). A
 * mesh with two primitives: joints as UNSIGNED_BYTE and UNSIGNED_SHORT, weights as
 * normalized UNSIGNED_BYTE and UNSIGNED_SHORT, positions and normals interleaved (stride 24). */
static int skinned_document(gltf_builder *b, char *body, size_t size)
{
    const float ibm[48] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, -2, -3, 1,   /* Head */
                            2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0,  0,  0,  1,   /* Hips */
                            1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0,  5,  0,  1 }; /* Spine */
    const float interleaved[] = { 1, 2, 3, 0, 1, 0,                              /* position, normal of vertex 0 */
                                  4, 5, 6, 0, 0, 1 };
    const int joints[] = { 0, 1, 2, 0, 2, 2, 1, 1 };
    const int weights_ubyte[] = { 255, 0, 0, 0, 128, 127, 0, 0 };
    const int weights_ushort[] = { 65535, 0, 0, 0, 0, 32768, 32767, 0 };
    int ibm_accessor = gb_floats(b, "MAT4", 3, ibm);
    int vertices = gb_view(b, interleaved, sizeof interleaved, 24);
    int positions = gb_accessor(b, vertices, 0, FLOAT, 0, 2, "VEC3", "");
    int normals = gb_accessor(b, vertices, 12, FLOAT, 0, 2, "VEC3", "");
    int joints_ubyte = gb_ints(b, "VEC4", 2, UBYTE, 0, joints);
    int joints_ushort = gb_ints(b, "VEC4", 2, USHORT, 0, joints);
    int w_ubyte = gb_ints(b, "VEC4", 2, UBYTE, 1, weights_ubyte);
    int w_ushort = gb_ints(b, "VEC4", 2, USHORT, 1, weights_ushort);
    const float r = sqrtf(0.5f);
    return snprintf(body, size,
                    "\"nodes\":[{\"name\":\"Armature\",\"translation\":[1,0,0],\"rotation\":[%.9g,0,0,%.9g],"
                    "\"scale\":[0.01,0.01,0.01],\"children\":[1]},"
                    "{\"name\":\"Hips\",\"translation\":[0,100,0],\"children\":[2]},"
                    "{\"name\":\"Spine\",\"translation\":[0,50,0],\"children\":[3]},"
                    "{\"name\":\"Head\",\"translation\":[0,20,0]},"
                    "{\"name\":\"Body\",\"mesh\":0,\"skin\":0}],"
                    "\"skins\":[{\"name\":\"body\",\"joints\":[3,1,2],\"inverseBindMatrices\":%d,\"skeleton\":1}],"
                    "\"meshes\":[{\"name\":\"Body\",\"primitives\":["
                    "{\"attributes\":{\"POSITION\":%d,\"NORMAL\":%d,\"JOINTS_0\":%d,\"WEIGHTS_0\":%d}},"
                    "{\"attributes\":{\"POSITION\":%d,\"JOINTS_0\":%d,\"WEIGHTS_0\":%d}}]}]",
                    (double)r, (double)r, ibm_accessor, positions, normals, joints_ubyte, w_ubyte, positions,
                    joints_ushort, w_ushort);
}

static void skin_with_ancestors_and_out_of_order_joints(void)
{
    gltf_builder b = { 0 };
    char body[4096];
    skinned_document(&b, body, sizeof body);
    tdn_asset *asset = build_and_load(&b, body, NULL);
    gb_free(&b);
    if (!asset)
        return;
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    CHECK_EQ_INT(tdn_skeleton_joint_count(skel), 4);                 /* Armature is a joint of the skeleton ... */
    CHECK_EQ_INT(tdn_asset_joint_count(asset), 3);                   /* ... but not listed */
    static const char *const listed[] = { "Hips", "Spine", "Head" }; /* skeleton order */
    for (int i = 0; i < 3; i++) {
        CHECK(strcmp(tdn_skeleton_joint_name(skel, tdn_asset_joint(asset, i)), listed[i]) == 0);
        CHECK_EQ_INT(tdn_asset_joint_parent(asset, i), i - 1);
    }
    CHECK_EQ_INT(tdn_skeleton_find_joint(skel, "Armature"), 0);
    CHECK(tdn_skeleton_find_joint(skel, "Body") < 0); /* the mesh node is not part of the skeleton */
    CHECK_EQ_INT(tdn_asset_skin_count(asset), 1);
    CHECK(strcmp(tdn_asset_skin_name(asset, 0), "body") == 0);
    CHECK_EQ_INT(tdn_asset_skin_joint_count(asset, 0), 3);

    /* Head at rest in world space: (1,0,0) + Rx(90) * 0.01 * (0, 170, 0) = (1, 0, 1.7) */
    tdn_mat4 head = model_at_rest(asset, "Head");
    CHECK_NEAR(head.m[12], 1.0, 1e-6);
    CHECK_NEAR(head.m[13], 0.0, 1e-6);
    CHECK_NEAR(head.m[14], 1.7, 1e-6);
    /* inverse binds: the file's for skin joints, the inverted rest world for the ancestor */
    const tdn_mat4 *ibm = tdn_skeleton_inverse_bind(skel);
    CHECK_NEAR(ibm[tdn_skeleton_find_joint(skel, "Head")].m[12], -1, 0);
    CHECK_NEAR(ibm[tdn_skeleton_find_joint(skel, "Hips")].m[0], 2, 0);
    CHECK_NEAR(ibm[tdn_skeleton_find_joint(skel, "Spine")].m[13], 5, 0);
    tdn_mat4 armature = model_at_rest(asset, "Armature");
    tdn_mat4 product = tdn_mat4_mul(&armature, &ibm[0]);
    for (int e = 0; e < 16; e++)
        CHECK_NEAR(product.m[e], e % 5 == 0 ? 1 : 0, 1e-6);

    /* meshes: joints remapped to skeleton indices (skin joint 0 = Head, 1 = Hips, 2 = Spine) */
    CHECK_EQ_INT(tdn_asset_mesh_count(asset), 2);
    const int head_j = tdn_skeleton_find_joint(skel, "Head"), hips_j = tdn_skeleton_find_joint(skel, "Hips"),
              spine_j = tdn_skeleton_find_joint(skel, "Spine");
    const int expected_joints[] = { head_j, hips_j, spine_j, head_j, spine_j, spine_j, hips_j, hips_j };
    for (int m = 0; m < 2; m++) {
        tdn_asset_mesh mesh = tdn_asset_mesh_at(asset, m);
        CHECK(strcmp(mesh.name, m ? "Body_1" : "Body_0") == 0);
        CHECK_EQ_INT(mesh.vertex_count, 2);
        CHECK_EQ_INT(mesh.influence_sets, 1);
        for (int k = 0; k < 8; k++)
            CHECK_EQ_INT(mesh.joints[k], expected_joints[k]);
        CHECK_VEC3(tdn_vec3_make(mesh.positions[3], mesh.positions[4], mesh.positions[5]), 4, 5, 6, 0);
    }
    tdn_asset_mesh first = tdn_asset_mesh_at(asset, 0), second = tdn_asset_mesh_at(asset, 1);
    CHECK(first.normals && !second.normals);
    CHECK_VEC3(tdn_vec3_make(first.normals[3], first.normals[4], first.normals[5]), 0, 0, 1, 0);
    CHECK_NEAR(first.weights[0], 1.0, 0);
    CHECK_NEAR(first.weights[4], 128.0 / 255.0, 1e-7);
    CHECK_NEAR(first.weights[5], 127.0 / 255.0, 1e-7);
    CHECK_NEAR(second.weights[0], 1.0, 0);
    CHECK_NEAR(second.weights[5], 32768.0 / 65535.0, 1e-7);
    CHECK_NEAR(second.weights[6], 32767.0 / 65535.0, 1e-7);
    CHECK(tdn_asset_mesh_at(asset, 2).name == NULL);
    tdn_asset_destroy(asset);
}

/* The import scale multiplies translations (rest and keys, cubic tangents too), inverse bind
 * translations and positions; nothing else. */
static void scale_multiplies_lengths_only(void)
{
    gltf_builder b = { 0 };
    char body[4096];
    int n = skinned_document(&b, body, sizeof body);
    const float times[] = { 1, 3 };
    const float cubic[] = { 9, 9, 9, 1, 2, 3, 2, 0, -1, -1, 4, 0, 5, -2, 7, 8, 8, 8 };
    int input = gb_floats(&b, "SCALAR", 2, times);
    int output = gb_floats(&b, "VEC3", 6, cubic);
    snprintf(body + n, sizeof body - (size_t)n,
             ",\"animations\":[{\"samplers\":[{\"input\":%d,\"output\":%d,\"interpolation\":\"CUBICSPLINE\"}],"
             "\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"translation\"}}]}]",
             input, output);
    tdn_asset *one = build_and_load(&b, body, NULL);
    tdn_asset *half = build_and_load(&b, body, &(tdn_asset_load_options){ .scale = 0.5f });
    gb_free(&b);
    if (!one || !half) {
        tdn_asset_destroy(one);
        tdn_asset_destroy(half);
        return;
    }
    for (int j = 0; j < 4; j++) {
        tdn_transform a = tdn_skeleton_rest(tdn_asset_skeleton(one), j),
                      h = tdn_skeleton_rest(tdn_asset_skeleton(half), j);
        CHECK_VEC3(h.t, a.t.x * 0.5, a.t.y * 0.5, a.t.z * 0.5, 1e-6);
        CHECK_QUAT(h.r, a.r.x, a.r.y, a.r.z, a.r.w, 0);
        CHECK_VEC3(h.s, a.s.x, a.s.y, a.s.z, 0);
        for (int e = 0; e < 16; e++)
            CHECK_NEAR(tdn_skeleton_inverse_bind(tdn_asset_skeleton(half))[j].m[e],
                       tdn_skeleton_inverse_bind(tdn_asset_skeleton(one))[j].m[e] * (e >= 12 && e < 15 ? 0.5 : 1),
                       1e-6);
    }
    for (float t = 0.0f; t < 3.5f; t += 0.25f) {
        tdn_vec3 a = local_at(one, 0, "Spine", t).t, h = local_at(half, 0, "Spine", t).t;
        CHECK_VEC3(h, a.x * 0.5, a.y * 0.5, a.z * 0.5, 1e-6);
    }
    tdn_asset_mesh a = tdn_asset_mesh_at(one, 0), h = tdn_asset_mesh_at(half, 0);
    for (int i = 0; i < 6; i++) {
        CHECK_NEAR(h.positions[i], a.positions[i] * 0.5, 0);
        CHECK_NEAR(h.normals[i], a.normals[i], 0);
    }
    tdn_asset_destroy(one);
    tdn_asset_destroy(half);
}

/* ---- buffers ---- */

/* The same document from base64, from a GLB and from an external file gives the same asset;
 * from memory without a folder, the external buffer is an I/O error naming the buffer. */
static void embedded_glb_and_external_buffers_agree(void)
{
    gltf_builder b = { 0 };
    char body[4096];
    skinned_document(&b, body, sizeof body);
    char *embedded = gb_json(&b, body, GB_EMBEDDED, NULL);
    char *external = gb_json(&b, body, GB_EXTERNAL, "data/skin.bin");
    size_t glb_size;
    unsigned char *glb = gb_glb(&b, body, &glb_size);

    char dir[] = "/tmp/tendon-gltf-XXXXXX", path[256], bin_path[256], data_dir[256];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/skin.gltf", dir);
    snprintf(data_dir, sizeof data_dir, "%s/data", dir);
    snprintf(bin_path, sizeof bin_path, "%s/data/skin.bin", dir);
    mkdir(data_dir, 0700);
    FILE *f = fopen(path, "wb");
    fputs(external, f);
    fclose(f);
    f = fopen(bin_path, "wb");
    fwrite(b.bin, 1, b.bin_size, f);
    fclose(f);

    tdn_asset *assets[3] = { NULL, NULL, NULL };
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_asset_load_memory(embedded, strlen(embedded), NULL, &assets[0], NULL, &err), TDN_OK);
    CHECK_EQ_INT(tdn_asset_load_memory(glb, glb_size, NULL, &assets[1], NULL, &err), TDN_OK);
    if (!CHECK_EQ_INT(tdn_asset_load(path, NULL, &assets[2], NULL, &err), TDN_OK))
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
    for (int i = 1; i < 3; i++) {
        if (!assets[0] || !assets[i])
            continue;
        const tdn_skeleton *s0 = tdn_asset_skeleton(assets[0]), *si = tdn_asset_skeleton(assets[i]);
        CHECK_EQ_INT(tdn_skeleton_joint_count(si), tdn_skeleton_joint_count(s0));
        CHECK(memcmp(tdn_skeleton_inverse_bind(si), tdn_skeleton_inverse_bind(s0),
                     sizeof(tdn_mat4) * (size_t)tdn_skeleton_joint_count(s0)) == 0);
        tdn_asset_mesh m0 = tdn_asset_mesh_at(assets[0], 1), mi = tdn_asset_mesh_at(assets[i], 1);
        CHECK(memcmp(m0.weights, mi.weights, sizeof(float) * 8) == 0);
        CHECK(memcmp(m0.joints, mi.joints, sizeof(uint16_t) * 8) == 0);
    }
    for (int i = 0; i < 3; i++)
        tdn_asset_destroy(assets[i]);

    tdn_asset *asset = NULL;
    CHECK_EQ_INT(tdn_asset_load_memory(external, strlen(external), NULL, &asset, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK(asset == NULL && strcmp(err.where, "buffers[0] (data/skin.bin)") == 0);
    CHECK_EQ_INT(tdn_asset_load_memory(external, strlen(external), &(tdn_asset_load_options){ .base_dir = dir }, &asset,
                                       NULL, &err),
                 TDN_OK);
    tdn_asset_destroy(asset);

    remove(bin_path);
    rmdir(data_dir);
    remove(path);
    rmdir(dir);
    free(embedded);
    free(external);
    free(glb);
    gb_free(&b);
}

/* Sparse accessors: on top of a buffer view, and on zeros; UNSIGNED_BYTE and UNSIGNED_SHORT
 * indices. */
static void sparse_accessors_replace_elements(void)
{
    gltf_builder b = { 0 };
    const float times[] = { 0, 1, 2 };
    const float base[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3 };
    const float replacement[] = { 9, 8, 7 }, on_zeros[] = { 4, 5, 6, -1, -2, -3 };
    const unsigned char index_byte[] = { 1 };
    const unsigned char index_short[] = { 0, 0, 2, 0 }; /* 0 and 2, little-endian */
    int input = gb_floats(&b, "SCALAR", 3, times);
    int base_view = gb_view(&b, base, sizeof base, 0);
    int iv = gb_view(&b, index_byte, 1, 0), vv = gb_view(&b, replacement, sizeof replacement, 0);
    int iv2 = gb_view(&b, index_short, 4, 0), vv2 = gb_view(&b, on_zeros, sizeof on_zeros, 0);
    char sparse[256];
    snprintf(sparse, sizeof sparse,
             ",\"sparse\":{\"count\":1,\"indices\":{\"bufferView\":%d,\"componentType\":5121},"
             "\"values\":{\"bufferView\":%d}}",
             iv, vv);
    int over_view = gb_accessor(&b, base_view, 0, FLOAT, 0, 3, "VEC3", sparse);
    snprintf(sparse, sizeof sparse,
             ",\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":%d,\"componentType\":5123},"
             "\"values\":{\"bufferView\":%d}}",
             iv2, vv2);
    int over_zeros = gb_accessor(&b, -1, 0, FLOAT, 0, 3, "VEC3", sparse);
    char body[1024];
    snprintf(body, sizeof body,
             "\"nodes\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"animations\":[{\"samplers\":["
             "{\"input\":%d,\"output\":%d,\"interpolation\":\"STEP\"},{\"input\":%d,\"output\":%d,\"interpolation\":"
             "\"STEP\"}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
             "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"scale\"}}]}]",
             input, over_view, input, over_zeros);
    tdn_asset *asset = build_and_load(&b, body, NULL);
    gb_free(&b);
    if (!asset)
        return;
    CHECK_VEC3(local_at(asset, 0, "A", 0).t, 1, 1, 1, 0);
    CHECK_VEC3(local_at(asset, 0, "A", 1).t, 9, 8, 7, 0);
    CHECK_VEC3(local_at(asset, 0, "A", 2).t, 3, 3, 3, 0);
    CHECK_VEC3(local_at(asset, 0, "B", 0).s, 4, 5, 6, 0);
    CHECK_VEC3(local_at(asset, 0, "B", 1).s, 0, 0, 0, 0);
    CHECK_VEC3(local_at(asset, 0, "B", 2).s, -1, -2, -3, 0);
    tdn_asset_destroy(asset);
}

/* ---- nodes and skins ---- */

/* A matrix node's rest transform is its decomposition: T(1,2,3) Rz(90) S(2); a sheared one
 * keeps its nearest TRS and warns. */
static void matrix_nodes_are_decomposed(void)
{
    const char *json = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":["
                       "{\"name\":\"M\",\"matrix\":[0,2,0,0, -2,0,0,0, 0,0,2,0, 1,2,3,1]},"
                       "{\"name\":\"Sheared\",\"matrix\":[1,0,0,0, 0.5,1,0,0, 0,0,1,0, 0,0,0,1]}]}";
    tdn_asset *asset = load_json(json, NULL);
    if (!asset)
        return;
    tdn_transform m = tdn_skeleton_rest(tdn_asset_skeleton(asset),
                                        tdn_skeleton_find_joint(tdn_asset_skeleton(asset), "M"));
    CHECK_VEC3(m.t, 1, 2, 3, 0);
    CHECK_NEAR(fabs(m.r.z), sqrt(0.5), 1e-6);
    CHECK_NEAR(m.r.z * m.r.w, 0.5, 1e-6); /* +90 degrees about z (q or -q) */
    CHECK_VEC3(m.s, 2, 2, 2, 1e-6);
    CHECK_EQ_INT(tdn_asset_warning_count(asset), 1);
    CHECK(strstr(tdn_asset_warning(asset, 0), "nodes[1].matrix") != NULL);
    tdn_asset_destroy(asset);
}

/* Two skins: the first by default, either by name or by index; unknown ones are refused. */
static void two_skins_chosen_by_name_or_index(void)
{
    const char *json = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"Root\",\"children\":[1,2]},"
                       "{\"name\":\"L\"},{\"name\":\"R\"}],\"skins\":[{\"name\":\"both\",\"joints\":[1,2]},"
                       "{\"joints\":[2]}]}";
    static const struct {
        const char *choice;
        int skin, listed;
    } cases[] = {
        { NULL, 0, 2 }, { "both", 0, 2 }, { "skin_1", 1, 1 }, { "1", 1, 1 }, { "0", 0, 2 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tdn_asset *asset = load_json(json, &(tdn_asset_load_options){ .skin = cases[i].choice });
        if (!asset)
            continue;
        CHECK_EQ_INT(tdn_asset_chosen_skin(asset), cases[i].skin);
        CHECK_EQ_INT(tdn_asset_joint_count(asset), cases[i].listed);
        CHECK_EQ_INT(tdn_skeleton_joint_count(tdn_asset_skeleton(asset)), cases[i].listed + 1); /* + Root */
        CHECK(strcmp(tdn_asset_skin_name(asset, 1), "skin_1") == 0);
        CHECK_EQ_INT(tdn_asset_skin_joint_count(asset, 0), 2);
        CHECK_EQ_INT(tdn_asset_skin_joint_count(asset, 1), 1);
        tdn_asset_destroy(asset);
    }
    static const char *const bad[] = { "2", "nope", "-1", "1x", "" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tdn_asset *asset = NULL;
        tdn_error err = { 0 };
        CHECK_EQ_INT(
            tdn_asset_load_memory(json, strlen(json), &(tdn_asset_load_options){ .skin = bad[i] }, &asset, NULL, &err),
            TDN_ERR_ARGUMENT);
        CHECK(asset == NULL && strcmp(err.where, "skin") == 0);
    }
}

/* Unnamed nodes, skins, meshes and animations get "<kind>_<i>"; repeated node names become
 * unique by the documented rule; over-long names are cut with a warning. */
static void default_and_repeated_names(void)
{
    const char *json =
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"Bone\"},{\"name\":\"Bone\"},{\"name\":\"Bone_1\"},"
        "{},{\"name\":\"\"},{\"name\":\"node_3\"},"
        "{\"name\":\"a_very_long_name_that_goes_on_and_on_past_the_sixty_three_bytes_joint_names_keep\"}],"
        "\"animations\":[{\"samplers\":[],\"channels\":[]}]}";
    tdn_asset *asset = load_json(json, NULL);
    if (!asset)
        return;
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    static const char *const names[] = { "Bone",
                                         "Bone_1",
                                         "Bone_1_2",
                                         "node_3",
                                         "node_4",
                                         "node_3_5",
                                         "a_very_long_name_that_goes_on_and_on_past_the_sixty_three_bytes" };
    CHECK_EQ_INT(tdn_skeleton_joint_count(skel), 7);
    for (int i = 0; i < 7; i++)
        if (!CHECK(tdn_skeleton_find_joint(skel, names[i]) == i))
            fprintf(stderr, "  joint %d is '%s'\n", i, tdn_skeleton_joint_name(skel, i));
    CHECK(strcmp(tdn_keyed_clip_name(tdn_asset_clip(asset, 0)), "animation_0") == 0);
    CHECK_NEAR(tdn_keyed_clip_duration(tdn_asset_clip(asset, 0)), 0, 0);
    CHECK_EQ_INT(tdn_asset_warning_count(asset), 2); /* the cut name and the repeats */
    tdn_asset_destroy(asset);
}

/* Morph weights become float tracks "<node>.weights[<k>]" (LINEAR and CUBICSPLINE, one value
 * per target per key, normalized integers converted), counted in the clip's duration; the
 * weights node need not be in the skeleton. */
static void morph_weights_become_float_tracks(void)
{
    gltf_builder b = { 0 };
    const float times[] = { 0, 2 }, later[] = { 0, 4 };
    const float linear[] = { 0, 1, 1, 0.5f };
    const float cubic[] = { 9, 9,  0, 1,    1, 0, /* key 0: in-tangents, values, out-tangents of both targets */
                            0, -1, 1, 0.5f, 9, 9 };
    const int ubytes[] = { 0, 255, 51, 102 };
    const float target_positions[6] = { 0 };
    int input = gb_floats(&b, "SCALAR", 2, times), input4 = gb_floats(&b, "SCALAR", 2, later);
    int w_linear = gb_floats(&b, "SCALAR", 4, linear), w_cubic = gb_floats(&b, "SCALAR", 12, cubic);
    int w_ubyte = gb_ints(&b, "SCALAR", 4, UBYTE, 1, ubytes);
    int target = gb_floats(&b, "VEC3", 2, target_positions);
    char body[2048];
    snprintf(body, sizeof body,
             "\"nodes\":[{\"name\":\"J\"},{\"name\":\"Face\",\"mesh\":0}],\"skins\":[{\"joints\":[0]}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":%d},"
             "\"targets\":[{\"POSITION\":%d},{\"POSITION\":%d}]}]}],"
             "\"animations\":[{\"name\":\"lin\",\"samplers\":[{\"input\":%d,\"output\":%d}],\"channels\":"
             "[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"weights\"}}]},"
             "{\"name\":\"cub\",\"samplers\":[{\"input\":%d,\"output\":%d,\"interpolation\":\"CUBICSPLINE\"}],"
             "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"weights\"}}]},"
             "{\"name\":\"int\",\"samplers\":[{\"input\":%d,\"output\":%d}],\"channels\":"
             "[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"weights\"}}]}]",
             target, target, target, input, w_linear, input, w_cubic, input4, w_ubyte);
    tdn_asset *asset = build_and_load(&b, body, NULL);
    gb_free(&b);
    if (!asset)
        return;
    CHECK(tdn_skeleton_find_joint(tdn_asset_skeleton(asset), "Face") < 0);
    const tdn_keyed_clip *lin = tdn_asset_clip(asset, 0), *cub = tdn_asset_clip(asset, 1),
                         *ints = tdn_asset_clip(asset, 2);
    CHECK_EQ_INT(tdn_keyed_clip_float_track_count(lin), 2);
    CHECK_EQ_INT(tdn_keyed_clip_track_count(lin), 0);
    CHECK_NEAR(tdn_keyed_clip_duration(lin), 2, 0);
    CHECK_NEAR(tdn_keyed_clip_duration(ints), 4, 0);
    int w0 = tdn_keyed_clip_find_float_track(lin, "Face.weights[0]"),
        w1 = tdn_keyed_clip_find_float_track(lin, "Face.weights[1]");
    CHECK(w0 >= 0 && w1 >= 0);
    CHECK_NEAR(tdn_keyed_clip_sample_float(lin, w0, 1), 0.5, 1e-6);
    CHECK_NEAR(tdn_keyed_clip_sample_float(lin, w1, 1), 0.75, 1e-6);
    /* cubic at s = 0.5, dt = 2: w0 = 0.5*0 + 0.125*2*1 + 0.5*1 - 0.125*2*0 = 0.75,
     * w1 = 0.5*1 + 0.125*2*0 + 0.5*0.5 - 0.125*2*(-1) = 1.0 */
    CHECK_NEAR(tdn_keyed_clip_sample_float(cub, tdn_keyed_clip_find_float_track(cub, "Face.weights[0]"), 1), 0.75,
               1e-6);
    CHECK_NEAR(tdn_keyed_clip_sample_float(cub, tdn_keyed_clip_find_float_track(cub, "Face.weights[1]"), 1), 1.0, 1e-6);
    /* normalized UNSIGNED_BYTE: 255 -> 1, 51 -> 0.2, 102 -> 0.4 */
    const int i0 = tdn_keyed_clip_find_float_track(ints, "Face.weights[0]"),
              i1 = tdn_keyed_clip_find_float_track(ints, "Face.weights[1]");
    CHECK_NEAR(tdn_keyed_clip_sample_float(ints, i1, 0), 1.0, 0);
    CHECK_NEAR(tdn_keyed_clip_sample_float(ints, i0, 4), 0.2, 1e-6);
    CHECK_NEAR(tdn_keyed_clip_sample_float(ints, i1, 2), 0.5 * 1.0 + 0.5 * 0.4, 1e-6);
    tdn_asset_destroy(asset);
}

/* Channels on nodes outside the skeleton are counted but not kept, and do not lengthen the
 * clip; channels without a node or with an extension's path are ignored the same way. */
static void channels_outside_the_skeleton_are_ignored(void)
{
    gltf_builder b = { 0 };
    char body[4096];
    int n = skinned_document(&b, body, sizeof body);
    const float short_times[] = { 0, 1 }, long_times[] = { 0, 9 };
    const float values[] = { 0, 0, 0, 1, 1, 1 };
    int t1 = gb_floats(&b, "SCALAR", 2, short_times), t9 = gb_floats(&b, "SCALAR", 2, long_times);
    int v = gb_floats(&b, "VEC3", 2, values);
    snprintf(body + n, sizeof body - (size_t)n,
             ",\"animations\":[{\"samplers\":[{\"input\":%d,\"output\":%d},{\"input\":%d,\"output\":%d}],"
             "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
             "{\"sampler\":1,\"target\":{\"node\":4,\"path\":\"translation\"}},"
             "{\"sampler\":1,\"target\":{\"path\":\"translation\"}},"
             "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"pointer\"}}]}]",
             t1, v, t9, v);
    tdn_asset *asset = build_and_load(&b, body, NULL);
    gb_free(&b);
    if (!asset)
        return;
    CHECK_EQ_INT(tdn_asset_clip_channel_count(asset, 0), 4);
    CHECK_EQ_INT(tdn_keyed_clip_track_count(tdn_asset_clip(asset, 0)), 1); /* the armature's, an ancestor */
    CHECK_NEAR(tdn_keyed_clip_duration(tdn_asset_clip(asset, 0)), 1, 0);
    CHECK_VEC3(local_at(asset, 0, "Armature", 0.5f).t, 0.5, 0.5, 0.5, 1e-6);
    tdn_asset_destroy(asset);
}

/* KHR_mesh_quantization: positions as SHORT (plain integers) and normals as normalized BYTE. */
static void quantized_positions_with_the_extension(void)
{
    gltf_builder b = { 0 };
    const int positions[] = { 100, -200, 300 }, normals[] = { 0, 127, 0 }, joints[] = { 0, 0, 0, 0 };
    const float weights[] = { 1, 0, 0, 0 };
    int p = gb_ints(&b, "VEC3", 1, SHORT, 0, positions), nrm = gb_ints(&b, "VEC3", 1, BYTE, 1, normals);
    int j = gb_ints(&b, "VEC4", 1, UBYTE, 0, joints), w = gb_floats(&b, "VEC4", 1, weights);
    char body[1024];
    snprintf(body, sizeof body,
             "\"extensionsUsed\":[\"KHR_mesh_quantization\"],\"extensionsRequired\":[\"KHR_mesh_quantization\"],"
             "\"nodes\":[{\"name\":\"J\"},{\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[0]}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":%d,\"NORMAL\":%d,\"JOINTS_0\":%d,"
             "\"WEIGHTS_0\":%d}}]}]",
             p, nrm, j, w);
    tdn_asset *asset = build_and_load(&b, body, NULL);
    gb_free(&b);
    if (!asset)
        return;
    tdn_asset_mesh mesh = tdn_asset_mesh_at(asset, 0);
    CHECK(strcmp(mesh.name, "mesh_0") == 0);
    CHECK_VEC3(tdn_vec3_make(mesh.positions[0], mesh.positions[1], mesh.positions[2]), 100, -200, 300, 0);
    CHECK_VEC3(tdn_vec3_make(mesh.normals[0], mesh.normals[1], mesh.normals[2]), 0, 1, 0, 0);
    tdn_asset_destroy(asset);
}

/* Triangles from every mode and index type, worked by hand on 5 vertices: TRIANGLES indexed
 * as UNSIGNED_BYTE, UNSIGNED_SHORT and UNSIGNED_INT; TRIANGLES without indices (5 vertices: one
 * whole triangle, the loose 2 dropped with a warning); a strip and a fan unrolled by the spec's
 * rules (every other strip triangle flipped); POINTS keeps no indices. */
static void triangles_in_every_mode(void)
{
    gltf_builder b = { 0 };
    const float positions[15] = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.5f, 2, 0 };
    const int joints[20] = { 0 }, quad[6] = { 0, 1, 2, 2, 3, 0 }, strip[5] = { 0, 1, 2, 3, 4 };
    const float weights[20] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
    const uint32_t quad32[6] = { 0, 1, 2, 2, 3, 0 };
    int p = gb_floats(&b, "VEC3", 5, positions), j = gb_ints(&b, "VEC4", 5, UBYTE, 0, joints);
    int w = gb_floats(&b, "VEC4", 5, weights);
    int i8 = gb_ints(&b, "SCALAR", 6, UBYTE, 0, quad), i16 = gb_ints(&b, "SCALAR", 6, USHORT, 0, quad);
    int i32 = gb_accessor(&b, gb_view(&b, quad32, sizeof quad32, 0), 0, 5125, 0, 6, "SCALAR", "");
    int s8 = gb_ints(&b, "SCALAR", 5, UBYTE, 0, strip);
    char attributes[128], body[2048];
    snprintf(attributes, sizeof attributes, "\"attributes\":{\"POSITION\":%d,\"JOINTS_0\":%d,\"WEIGHTS_0\":%d}", p, j,
             w);
    snprintf(
        body, sizeof body,
        "\"nodes\":[{\"name\":\"J\"},{\"mesh\":0,\"skin\":0}],\"skins\":[{\"joints\":[0]}],"
        "\"meshes\":[{\"name\":\"M\",\"primitives\":[{%s,\"indices\":%d},{%s,\"indices\":%d,\"mode\":4},"
        "{%s,\"indices\":%d},{%s},{%s,\"indices\":%d,\"mode\":5},{%s,\"mode\":6},{%s,\"indices\":%d,\"mode\":0}]}]",
        attributes, i8, attributes, i16, attributes, i32, attributes, attributes, s8, attributes, attributes, i8);
    tdn_asset *asset = build_and_load(&b, body, NULL);
    gb_free(&b);
    if (!asset)
        return;
    static const uint32_t expected_strip[9] = { 0, 1, 2, 1, 3, 2, 2, 3, 4 },
                          expected_fan[9] = { 1, 2, 0, 2, 3, 0, 3, 4, 0 };
    static const uint32_t expected_plain[3] = { 0, 1, 2 };
    const struct {
        int count;
        const uint32_t *indices;
    } expected[7] = { { 6, quad32 },         { 6, quad32 },       { 6, quad32 }, { 3, expected_plain },
                      { 9, expected_strip }, { 9, expected_fan }, { 0, NULL } };
    if (CHECK_EQ_INT(tdn_asset_mesh_count(asset), 7))
        for (int m = 0; m < 7; m++) {
            tdn_asset_mesh mesh = tdn_asset_mesh_at(asset, m);
            CHECK_EQ_INT(mesh.vertex_count, 5);
            CHECK_EQ_INT(mesh.index_count, expected[m].count);
            CHECK((mesh.indices == NULL) == (expected[m].count == 0));
            for (int k = 0; k < expected[m].count && k < mesh.index_count; k++)
                CHECK_EQ_INT((int)mesh.indices[k], (int)expected[m].indices[k]);
        }
    /* the non-indexed TRIANGLES primitive's loose 2 vertices */
    CHECK_EQ_INT(tdn_asset_warning_count(asset), 1);
    CHECK(tdn_asset_warning(asset, 0) && strstr(tdn_asset_warning(asset, 0), "meshes[0].primitives[3]"));
    tdn_asset_destroy(asset);
}

/* Every allocation of the asset can fail: the answer is TDN_ERR_OUT_OF_MEMORY and nothing
 * stays allocated; with enough memory the load succeeds and everything comes back. */
static void allocation_failures_leave_nothing(void)
{
    gltf_builder b = { 0 };
    char body[4096];
    int n = skinned_document(&b, body, sizeof body);
    const float times[] = { 0, 1 }, values[] = { 0, 0, 0, 1, 1, 1 };
    int t = gb_floats(&b, "SCALAR", 2, times), v = gb_floats(&b, "VEC3", 2, values);
    snprintf(body + n, sizeof body - (size_t)n,
             ",\"animations\":[{\"samplers\":[{\"input\":%d,\"output\":%d}],"
             "\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"scale\"}}]}]",
             t, v);
    char *json = gb_json(&b, body, GB_EMBEDDED, NULL);
    gb_free(&b);
    tdn_asset_load_options options = { 0 };
    int failures = 0;
    for (long k = 0;; k++) {
        allocations_before_failure = k;
        tdn_asset *asset = NULL;
        tdn_error err = { 0 };
        tdn_result r = tdn_asset_load_memory(json, strlen(json), &options, &asset, &counting, &err);
        allocations_before_failure = -1;
        tdn_asset_destroy(asset);
        CHECK_EQ_INT(live_blocks, 0);
        if (r == TDN_OK)
            break;
        failures++;
        if (!CHECK_EQ_INT(r, TDN_ERR_OUT_OF_MEMORY) || !CHECK(asset == NULL) || k > 1000)
            break;
    }
    CHECK(failures > 10);
    free(json);
}

int main(void)
{
    RUN(every_interpolation_on_every_path);
    RUN(normalized_integer_rotations);
    RUN(skin_with_ancestors_and_out_of_order_joints);
    RUN(scale_multiplies_lengths_only);
    RUN(embedded_glb_and_external_buffers_agree);
    RUN(sparse_accessors_replace_elements);
    RUN(matrix_nodes_are_decomposed);
    RUN(two_skins_chosen_by_name_or_index);
    RUN(default_and_repeated_names);
    RUN(morph_weights_become_float_tracks);
    RUN(channels_outside_the_skeleton_are_ignored);
    RUN(quantized_positions_with_the_extension);
    RUN(triangles_in_every_mode);
    RUN(allocation_failures_leave_nothing);
    return check_summary();
}
