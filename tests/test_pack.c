/* Runtime packs (pack.h, io/pack_file.h, docs/pack-format.md): what a pack holds is what was
 * put in, bit for bit (the humanoid, a glTF character of the shared data); an opened skeleton
 * computes model space bit-identically to its source; opening makes one allocation; every
 * corruption of a valid pack (header and table bytes, section header fields, counts, values,
 * truncations, random flips) is refused naming a byte, or opens a pack that still holds only
 * valid values, and never crashes (the sanitize build runs this too). */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "counting_allocator.h"
#include "pack_image.h"
#include "test_data.h"
#include "tendon/tendon_io.h"

/* ---- making packs ---- */

static tdn_pack_mesh mesh_of(const tdn_asset_mesh *m)
{
    tdn_pack_mesh p = { 0 };
    p.name = m->name;
    p.skeleton = 0;
    p.vertex_count = m->vertex_count;
    p.influence_sets = m->influence_sets;
    p.positions = m->positions;
    p.normals = m->normals;
    p.joints = m->joints;
    p.weights = m->weights;
    p.indices = m->indices;
    p.index_count = m->index_count;
    return p;
}

/* The asset's skeleton and meshes as a pack, with an extra section of an unknown kind when
 * `extra` is set. */
static image pack_asset(const tdn_asset *asset, const char *name, int extra)
{
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    int index = -1;
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_skeleton(w, name, tdn_asset_skeleton(asset), &index, &err) == TDN_OK);
    CHECK_EQ_INT(index, 0);
    for (int i = 0; i < tdn_asset_mesh_count(asset); i++) {
        const tdn_asset_mesh m = tdn_asset_mesh_at(asset, i);
        const tdn_pack_mesh p = mesh_of(&m);
        CHECK(tdn_pack_writer_add_mesh(w, &p, &err) == TDN_OK);
    }
    if (extra) {
        const char future[40] = "a section a later tendon reads";
        CHECK(tdn_pack_writer_add_section(w, TDN_PACK_FOURCC('B', 'S', 'P', 'C'), future, sizeof future, 64, &err) ==
              TDN_OK);
    }
    return image_of(w);
}

static tdn_asset *humanoid(void)
{
    tdn_asset *a = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_humanoid_create(NULL, &a, NULL, &err) == TDN_OK);
    return a;
}

/* ---- comparing ---- */

static int same_bytes(const void *a, const void *b, size_t n)
{
    return (a == NULL && b == NULL) || (a && b && memcmp(a, b, n) == 0);
}

static void check_skeletons_equal(const tdn_skeleton *a, const tdn_skeleton *b)
{
    const int n = tdn_skeleton_joint_count(a);
    CHECK_EQ_INT(tdn_skeleton_joint_count(b), n);
    if (tdn_skeleton_joint_count(b) != n)
        return;
    CHECK(same_bytes(tdn_skeleton_parents(a), tdn_skeleton_parents(b), sizeof(int16_t) * (size_t)n));
    CHECK(same_bytes(tdn_skeleton_inverse_bind(a), tdn_skeleton_inverse_bind(b), sizeof(tdn_mat4) * (size_t)n));
    int mismatches = 0;
    for (int j = 0; j < n; j++) {
        const tdn_transform ra = tdn_skeleton_rest(a, j), rb = tdn_skeleton_rest(b, j);
        mismatches += memcmp(&ra, &rb, sizeof ra) != 0;
        mismatches += strcmp(tdn_skeleton_joint_name(a, j), tdn_skeleton_joint_name(b, j)) != 0;
        mismatches += tdn_skeleton_depth(a, j) != tdn_skeleton_depth(b, j);
        mismatches += tdn_skeleton_subtree_end(a, j) != tdn_skeleton_subtree_end(b, j);
        mismatches += tdn_skeleton_find_joint(b, tdn_skeleton_joint_name(a, j)) != j;
    }
    CHECK_EQ_INT(mismatches, 0);
    CHECK_EQ_INT(tdn_skeleton_find_joint(b, "no such joint"), -1);
}

static void check_meshes_equal(const tdn_asset *asset, const tdn_pack *pack)
{
    CHECK_EQ_INT(tdn_pack_mesh_count(pack), tdn_asset_mesh_count(asset));
    for (int i = 0; i < tdn_asset_mesh_count(asset) && i < tdn_pack_mesh_count(pack); i++) {
        const tdn_asset_mesh a = tdn_asset_mesh_at(asset, i);
        const tdn_pack_mesh p = tdn_pack_mesh_at(pack, i);
        const size_t vn = (size_t)a.vertex_count, inf = 4 * (size_t)a.influence_sets * vn;
        CHECK(strcmp(p.name, a.name) == 0);
        CHECK_EQ_INT(p.skeleton, 0);
        CHECK_EQ_INT(p.vertex_count, a.vertex_count);
        CHECK_EQ_INT(p.influence_sets, a.influence_sets);
        CHECK_EQ_INT(p.index_count, a.index_count);
        CHECK(same_bytes(p.positions, a.positions, 12 * vn));
        CHECK(same_bytes(p.normals, a.normals, 12 * vn));
        CHECK(p.uvs == NULL);
        CHECK(same_bytes(p.joints, a.joints, 2 * inf));
        CHECK(same_bytes(p.weights, a.weights, 4 * inf));
        CHECK(same_bytes(p.indices, a.indices, 4 * (size_t)a.index_count));
        CHECK_EQ_INT(tdn_pack_find_mesh(pack, a.name), i);
    }
}

/* Model space of a pose away from rest (every rotation turned, translations moved), with both
 * skeletons: the same bits. */
static void check_model_space_identical(const tdn_skeleton *source, const tdn_skeleton *packed)
{
    const int n = tdn_skeleton_joint_count(source);
    tdn_pose pose;
    CHECK(tdn_pose_create(n, &pose, NULL, NULL) == TDN_OK);
    CHECK(tdn_pose_set_rest(&pose, source, NULL) == TDN_OK);
    check_rng rng = { 18 };
    for (int j = 0; j < n; j++) {
        tdn_transform x = tdn_pose_get(&pose, j);
        x.t.x += check_rng_float(&rng, -0.1f, 0.1f);
        x.r = tdn_quat_normalize(tdn_quat_mul(x.r, check_rng_quat(&rng)));
        tdn_pose_set(&pose, j, &x);
    }
    tdn_mat4 *a = malloc(sizeof(tdn_mat4) * (size_t)n * 4), *b = a + n, *pa = a + 2 * n, *pb = a + 3 * n;
    CHECK(tdn_model_space(source, &pose, NULL, a, NULL) == TDN_OK);
    CHECK(tdn_model_space(packed, &pose, NULL, b, NULL) == TDN_OK);
    CHECK(memcmp(a, b, sizeof(tdn_mat4) * (size_t)n) == 0);
    CHECK(tdn_palette(source, a, pa, NULL) == TDN_OK);
    CHECK(tdn_palette(packed, b, pb, NULL) == TDN_OK);
    CHECK(memcmp(pa, pb, sizeof(tdn_mat4) * (size_t)n) == 0);
    free(a);
    tdn_pose_destroy(&pose);
}

/* ---- round trips ---- */

static void round_trip(const tdn_asset *asset, const char *name)
{
    image im = pack_asset(asset, name, 1);
    tdn_pack *pack = NULL;
    tdn_error err = { 0 };
    const long before = total_allocations;
    CHECK(tdn_pack_open(im.bytes, im.size, &pack, &counting, &err) == TDN_OK);
    CHECK_EQ_INT(total_allocations - before, 1); /* the one allocation, nothing else */
    if (!pack) {
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
        tdn_free(im.bytes, im.size, NULL);
        return;
    }
    CHECK_EQ_INT(tdn_pack_skeleton_count(pack), 1);
    CHECK(strcmp(tdn_pack_skeleton_name(pack, 0), name) == 0);
    CHECK_EQ_INT(tdn_pack_find_skeleton(pack, name), 0);
    CHECK_EQ_INT(tdn_pack_find_skeleton(pack, "elsewhere"), -1);
    CHECK(tdn_pack_skeleton(pack, 1) == NULL);
    check_skeletons_equal(tdn_asset_skeleton(asset), tdn_pack_skeleton(pack, 0));
    check_meshes_equal(asset, pack);
    check_model_space_identical(tdn_asset_skeleton(asset), tdn_pack_skeleton(pack, 0));
    /* the skeleton, the meshes, the unknown section and the string table */
    CHECK_EQ_INT(tdn_pack_section_count(pack), 1 + tdn_asset_mesh_count(asset) + 2);
    const int unknown = 1 + tdn_asset_mesh_count(asset);
    size_t size = 0;
    const char *bytes = tdn_pack_section_bytes(pack, unknown, &size);
    CHECK(tdn_pack_section_kind(pack, unknown) == TDN_PACK_FOURCC('B', 'S', 'P', 'C'));
    CHECK(size == 40 && bytes && strcmp(bytes, "a section a later tendon reads") == 0);
    CHECK((size_t)((const unsigned char *)bytes - im.bytes) % 64 == 0); /* its alignment kept, in the file */
    CHECK(tdn_pack_section_kind(pack, unknown + 5) == 0);
    /* the pointers lead into the caller's bytes: nothing was copied */
    const unsigned char *parents = (const unsigned char *)tdn_skeleton_parents(tdn_pack_skeleton(pack, 0));
    CHECK(parents > im.bytes && parents < im.bytes + im.size);
    tdn_pack_destroy(pack);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_free(im.bytes, im.size, NULL);
}

static void humanoid_round_trip(void)
{
    tdn_asset *a = humanoid();
    round_trip(a, "humanoid");
    tdn_asset_destroy(a);
}

static void gltf_round_trip(void)
{
    const char *dir = test_data_dir();
    if (!dir)
        return;
    char path[1024];
    tdn_asset *a = NULL;
    tdn_error err = { 0 };
    test_data_path(path, sizeof path, dir, "gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb");
    if (access(path, R_OK) != 0) {
        printf("SKIP: %s not found\n", path);
        return;
    }
    CHECK(tdn_asset_load(path, NULL, &a, NULL, &err) == TDN_OK);
    CHECK(tdn_asset_mesh_count(a) >= 1);
    round_trip(a, "CesiumMan");
    tdn_asset_destroy(a);
}

/* ---- corruption ---- */

/* Opens bytes: on failure the error names a byte and nothing stays allocated; on success the
 * pack holds only valid values (every index in range), which are walked. Returns the result. */
static tdn_result open_checked(const unsigned char *bytes, size_t size, tdn_error *err)
{
    tdn_pack *pack = NULL;
    const tdn_result r = open_counted(bytes, size, &pack, err);
    if (r != TDN_OK)
        return r;
    int bad = 0;
    for (int s = 0; s < tdn_pack_skeleton_count(pack); s++) {
        const tdn_skeleton *k = tdn_pack_skeleton(pack, s);
        for (int j = 0; j < tdn_skeleton_joint_count(k); j++)
            bad += tdn_skeleton_parent(k, j) >= j || tdn_skeleton_find_joint(k, tdn_skeleton_joint_name(k, j)) != j;
    }
    for (int m = 0; m < tdn_pack_mesh_count(pack); m++) {
        const tdn_pack_mesh mesh = tdn_pack_mesh_at(pack, m);
        const int joints = tdn_skeleton_joint_count(tdn_pack_skeleton(pack, mesh.skeleton));
        for (int i = 0; i < mesh.index_count; i++)
            bad += mesh.indices[i] >= (uint32_t)mesh.vertex_count;
        for (long i = 0; i < 4L * mesh.influence_sets * mesh.vertex_count; i++)
            bad += mesh.joints[i] >= joints || !(mesh.weights[i] >= 0.0f);
    }
    CHECK_EQ_INT(bad, 0);
    tdn_pack_destroy(pack);
    CHECK_EQ_INT(live_blocks, 0);
    return r;
}

static void header_bytes_flipped(void)
{
    tdn_asset *a = humanoid();
    image im = pack_asset(a, "humanoid", 0);
    unsigned char *c = copy_of(&im);
    tdn_error err;
    int refused = 0;
    for (int k = 0; k < 64; k++) { /* every byte of the header matters: none may go unnoticed */
        c[k] ^= 0xFF;
        refused += open_checked(c, im.size, &err) != TDN_OK;
        c[k] ^= 0xFF;
    }
    CHECK_EQ_INT(refused, 64);
    CHECK(open_checked(c, im.size, &err) == TDN_OK);
    /* the table's entries: a changed alignment, offset's low byte (misaligned) or reserved byte
     * must be refused; a kind, a size or an offset's other bytes may change into something
     * valid (an unknown kind is skipped; a string table moved onto other bytes that end with a
     * zero is one) */
    const size_t table = u32_at(im.bytes + 24);
    const int sections = (int)u32_at(im.bytes + 32);
    int must = 0, refused_must = 0;
    for (int s = 0; s < sections; s++)
        for (int k = 0; k < 32; k++) {
            const size_t at = table + 32 * (size_t)s + (size_t)k;
            const int required = (k >= 4 && k <= 8) || k >= 24;
            c[at] ^= 0xFF;
            const tdn_result r = open_checked(c, im.size, &err);
            must += required;
            refused_must += required && r != TDN_OK;
            if (required && r == TDN_OK)
                fprintf(stderr, "  section %d entry byte %d changed went unnoticed\n", s, k);
            c[at] ^= 0xFF;
        }
    CHECK_EQ_INT(refused_must, must);
    free(c);
    tdn_free(im.bytes, im.size, NULL);
    tdn_asset_destroy(a);
}

/* Every field of every section header set huge, and every count set to the largest its range
 * allows: all refused, naming the field's byte. */
static void section_fields_huge(void)
{
    tdn_asset *a = humanoid();
    image im = pack_asset(a, "humanoid", 0);
    unsigned char *c = copy_of(&im);
    tdn_error err;
    const int sections = (int)u32_at(im.bytes + 32) - 1; /* the skeleton and the meshes */
    const uint32_t huge[3] = { 0xFFFFFFFFu, 0x80000000u, 0x10000000u };
    int tried = 0, refused = 0, named = 0;
    for (int s = 0; s < sections; s++) {
        const size_t base = section_offset(&im, s);
        for (int f = 0; f < 16; f++)
            for (int h = 0; h < 3; h++) {
                char want[32];
                snprintf(want, sizeof want, "byte %zu", base + 4 * (size_t)f);
                const uint32_t keep = u32_at(c + base + 4 * (size_t)f);
                put_u32(c + base + 4 * (size_t)f, huge[h]);
                tried++;
                refused += open_checked(c, im.size, &err) != TDN_OK;
                named += strcmp(err.where, want) == 0;
                put_u32(c + base + 4 * (size_t)f, keep);
            }
    }
    CHECK_EQ_INT(refused, tried);
    CHECK_EQ_INT(named, tried);
    /* counts within their ranges but beyond what the section holds */
    const size_t skel = section_offset(&im, 0), mesh = section_offset(&im, 1);
    put_u32(c + skel + 4, 32767);
    CHECK(open_checked(c, im.size, &err) != TDN_OK);
    put_u32(c + skel + 4, u32_at(im.bytes + skel + 4));
    put_u32(c + mesh + 8, u32_at(im.bytes + mesh + 8) * 2); /* vertex_count */
    CHECK(open_checked(c, im.size, &err) != TDN_OK);
    put_u32(c + mesh + 8, u32_at(im.bytes + mesh + 8));
    put_u32(c + mesh + 12, u32_at(im.bytes + mesh + 12) + 300); /* index_count */
    CHECK(open_checked(c, im.size, &err) != TDN_OK);
    free(c);
    tdn_free(im.bytes, im.size, NULL);
    tdn_asset_destroy(a);
}

/* One value changed: refused at that value's byte, with a message naming the field. */
static void check_value(const image *im, size_t at, const void *value, size_t n, const char *says)
{
    unsigned char *c = copy_of(im);
    memcpy(c + at, value, n);
    tdn_error err;
    char want[32];
    snprintf(want, sizeof want, "byte %zu", at);
    CHECK(open_checked(c, im->size, &err) == TDN_ERR_INVALID_DATA);
    if (!CHECK(strcmp(err.where, want) == 0) || !CHECK(strstr(err.message, says) != NULL))
        fprintf(stderr, "  want %s '%s', got %s: %s\n", want, says, err.where, err.message);
    free(c);
}

static void values_checked(void)
{
    tdn_asset *a = humanoid();
    image im = pack_asset(a, "humanoid", 0);
    const size_t skel = section_offset(&im, 0), mesh = section_offset(&im, 1);
    const size_t parents = skel + u32_at(im.bytes + skel + 8), subtree = skel + u32_at(im.bytes + skel + 12),
                 depth = skel + u32_at(im.bytes + skel + 16), by_name = skel + u32_at(im.bytes + skel + 20),
                 names = skel + u32_at(im.bytes + skel + 24), rest = skel + u32_at(im.bytes + skel + 28),
                 binds = skel + u32_at(im.bytes + skel + 32);
    const int16_t p40 = 40;
    check_value(&im, parents + 2 * 12, &p40, 2, "skeleton 0: parents[12] = 40 is not before joint 12");
    /* a joint's parent moved to an earlier joint of the same depth that is not on its path:
     * the depths still agree, the order is not depth-first pre-order */
    const tdn_skeleton *k = tdn_asset_skeleton(a);
    int moved = -1;
    int16_t other = -1;
    for (int j = 1; j < tdn_skeleton_joint_count(k) && moved < 0; j++) {
        const int p = tdn_skeleton_parent(k, j);
        for (int q = 0; p >= 0 && q < j - 1 && moved < 0; q++)
            if (q != p && tdn_skeleton_depth(k, q) == tdn_skeleton_depth(k, p) &&
                !tdn_skeleton_is_in_subtree(k, j - 1, q)) {
                moved = j;
                other = (int16_t)q;
            }
    }
    if (CHECK(moved > 0)) {
        char says[96];
        snprintf(says, sizeof says, "parents[%d] = %d is not joint %d or one of its ancestors", moved, other,
                 moved - 1);
        check_value(&im, parents + 2 * (size_t)moved, &other, 2, says);
    }
    const int32_t seven = 7, big = 1000;
    check_value(&im, depth + 4 * 5, &seven, 4, "depth[5] = 7");
    check_value(&im, subtree + 4 * 5, &big, 4, "subtree_end[5] = 1000");
    /* a joint twice in name order (so another is missing) */
    const int32_t third = (int32_t)u32_at(im.bytes + by_name + 4 * 3);
    char twice[96];
    snprintf(twice, sizeof twice, "by_name[4] = %d ('%s') does not come after by_name[3]", third,
             tdn_skeleton_joint_name(tdn_asset_skeleton(a), third));
    check_value(&im, by_name + 4 * 4, &third, 4, twice);
    check_value(&im, by_name + 4 * 3, &big, 4, "by_name[3] = 1000 is not a joint");
    char long_name[64];
    memset(long_name, 'x', sizeof long_name);
    check_value(&im, names + 64 * 9, long_name, 64, "names[9] is not zero-terminated");
    check_value(&im, names + 64 * 9, "", 1, "names[9] is empty");
    const float nan = NAN, quarter = 0.25f;
    check_value(&im, rest + 40 * 4 + 8, &nan, 4, "rest[4] has a value that is not finite");
    const tdn_quat two_w = { 0.0f, 0.0f, 0.0f, 2.0f };
    check_value(&im, rest + 40 * 4 + 12, &two_w, 16, "rest[4]'s rotation has length 2");
    unsigned char bind[64];
    memcpy(bind, im.bytes + binds + 64 * 6, 64);
    memcpy(bind + 12, &quarter, 4);
    check_value(&im, binds + 64 * 6, bind, 64, "inverse_bind[6]'s last row is 0.25 0 0 1");
    const size_t positions = mesh + u32_at(im.bytes + mesh + 20), joints = mesh + u32_at(im.bytes + mesh + 32),
                 weights = mesh + u32_at(im.bytes + mesh + 36), indices = mesh + u32_at(im.bytes + mesh + 40);
    const uint32_t vertex_count = u32_at(im.bytes + mesh + 8);
    const uint16_t joint_count = (uint16_t)tdn_skeleton_joint_count(tdn_asset_skeleton(a));
    const float minus = -1.0f, inf = INFINITY;
    check_value(&im, positions + 4 * 11, &inf, 4, "positions[11] is not finite");
    /* the scan goes by blocks of floats and then one by one: the last float, a NaN with its
     * sign bit set, is found too; the largest finite floats are not refused */
    const uint32_t last = 3 * vertex_count - 1, minus_nan_bits = 0xffc00000u;
    float minus_nan;
    memcpy(&minus_nan, &minus_nan_bits, 4);
    char last_says[64];
    snprintf(last_says, sizeof last_says, "positions[%u] is not finite", last);
    check_value(&im, positions + 4 * (size_t)last, &minus_nan, 4, last_says);
    unsigned char *largest = copy_of(&im);
    const float big_floats[2] = { FLT_MAX, -FLT_MAX };
    memcpy(largest + positions + 4 * 17, big_floats, sizeof big_floats);
    memcpy(largest + positions + 4 * (size_t)last, &big_floats[1], 4);
    tdn_error big_err;
    CHECK(open_checked(largest, im.size, &big_err) == TDN_OK);
    free(largest);
    check_value(&im, joints + 2 * 9, &joint_count, 2, "joints[9] = 67 is not a joint");
    check_value(&im, weights + 4 * 9, &minus, 4, "weights[9] = -1");
    /* the weights' scan (compares of four at a time, then a search): the first and the last
     * weight, NaN, infinity and the smallest negative float are found; -0 and FLT_MAX are kept */
    const uint32_t weight_last = 4 * u32_at(im.bytes + mesh + 16) * vertex_count - 1,
                   smallest_negative_bits = 0x80000001u;
    float smallest_negative;
    memcpy(&smallest_negative, &smallest_negative_bits, 4);
    char weight_says[64];
    snprintf(weight_says, sizeof weight_says, "weights[%u] = ", weight_last); /* NaN prints as the C library likes */
    check_value(&im, weights + 4 * (size_t)weight_last, &minus_nan, 4, weight_says);
    check_value(&im, weights, &inf, 4, "weights[0] = inf is not finite and >= 0");
    check_value(&im, weights + 4 * 5, &smallest_negative, 4, "weights[5] = -1.4013e-45 is not finite and >= 0");
    unsigned char *kept = copy_of(&im);
    const float minus_zero = -0.0f;
    memcpy(kept + weights + 4 * 3, &minus_zero, 4);
    memcpy(kept + weights + 4 * (size_t)weight_last, &big_floats[0], 4);
    tdn_error kept_err;
    CHECK(open_checked(kept, im.size, &kept_err) == TDN_OK);
    free(kept);
    check_value(&im, indices + 4 * 30, &vertex_count, 4, "indices[30]");
    /* the scans' extremes: the largest joint and index a field holds */
    const uint16_t joint_max = UINT16_MAX;
    const uint32_t index_max = UINT32_MAX;
    check_value(&im, joints + 2 * 5, &joint_max, 2, "joints[5] = 65535 is not a joint");
    check_value(&im, indices + 4 * 7, &index_max, 4, "indices[7] = 4294967295 is not below vertex_count");
    /* the string table's last byte must end it */
    const size_t strings = section_offset(&im, (int)u32_at(im.bytes + 32) - 1);
    const size_t strings_size = u32_at(im.bytes + u32_at(im.bytes + 24) + 32 * (u32_at(im.bytes + 32) - 1) + 16);
    check_value(&im, strings + strings_size - 1, "x", 1, "does not end with a zero byte");
    tdn_free(im.bytes, im.size, NULL);
    tdn_asset_destroy(a);
}

/* Truncated at every 64th length: refused as it is (the header's size), and refused once the
 * header is made to agree, so that the sections' own checks meet the missing bytes. */
static void truncations(void)
{
    tdn_asset *a = humanoid();
    image im = pack_asset(a, "humanoid", 1);
    unsigned char *c = copy_of(&im);
    tdn_error err;
    int tried = 0, refused = 0, refused_agreeing = 0;
    for (size_t len = 0; len < im.size; len += 64) {
        tried++;
        refused += open_checked(c, len, &err) != TDN_OK;
        if (len >= 64) {
            const uint64_t size = len;
            memcpy(c + 16, &size, 8);
            refused_agreeing += open_checked(c, len, &err) != TDN_OK;
            memcpy(c + 16, im.bytes + 16, 8);
        } else {
            refused_agreeing++;
        }
    }
    CHECK_EQ_INT(refused, tried);
    CHECK_EQ_INT(refused_agreeing, tried);
    free(c);
    tdn_free(im.bytes, im.size, NULL);
    tdn_asset_destroy(a);
}

/* Random single-byte changes anywhere: refused naming a byte, or a pack of valid values. */
static void random_flips(void)
{
    tdn_asset *a = humanoid();
    image im = pack_asset(a, "humanoid", 1);
    unsigned char *c = copy_of(&im);
    tdn_error err;
    check_rng rng = { 1184 };
    int refused = 0;
    for (int t = 0; t < 3000; t++) {
        const size_t at = (size_t)check_rng_u32(&rng) % im.size;
        const unsigned char keep = c[at];
        c[at] = (unsigned char)check_rng_u32(&rng);
        refused += open_checked(c, im.size, &err) != TDN_OK;
        c[at] = keep;
    }
    CHECK(refused > 0);
    free(c);
    tdn_free(im.bytes, im.size, NULL);
    tdn_asset_destroy(a);
}

/* ---- arguments, the writer's checks, files ---- */

static void arguments(void)
{
    tdn_asset *a = humanoid();
    image im = pack_asset(a, "humanoid", 0);
    tdn_pack *pack = (tdn_pack *)1;
    tdn_error err = { 0 };
    CHECK(tdn_pack_open(NULL, im.size, &pack, NULL, &err) == TDN_ERR_ARGUMENT && pack == NULL);
    CHECK(strcmp(err.where, "bytes") == 0);
    unsigned char *shifted = aligned_alloc(TDN_PACK_ALIGN, (im.size / TDN_PACK_ALIGN + 2) * TDN_PACK_ALIGN);
    memcpy(shifted + 16, im.bytes, im.size);
    CHECK(tdn_pack_open(shifted + 16, im.size, &pack, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "bytes") == 0 && strstr(err.message, "32") != NULL);
    free(shifted);
    CHECK(tdn_pack_open(im.bytes, im.size, NULL, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "out") == 0);
    CHECK(tdn_pack_open("TDNPACK", 8, &pack, NULL, &err) == TDN_ERR_ARGUMENT || err.code == TDN_ERR_PARSE);
    CHECK(tdn_pack_skeleton_count(NULL) == 0 && tdn_pack_skeleton(NULL, 0) == NULL && tdn_pack_mesh_count(NULL) == 0 &&
          tdn_pack_mesh_at(NULL, 0).positions == NULL && tdn_pack_find_mesh(NULL, "x") == -1 &&
          tdn_pack_section_count(NULL) == 0);
    tdn_pack_destroy(NULL);

    /* the writer refuses what would not open, naming the field */
    tdn_pack_writer *w = NULL;
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_skeleton(w, "h", tdn_asset_skeleton(a), NULL, &err) == TDN_OK);
    const tdn_asset_mesh m = tdn_asset_mesh_at(a, 0);
    tdn_pack_mesh p = mesh_of(&m);
    uint16_t *joints = malloc(sizeof(uint16_t) * 4 * (size_t)m.vertex_count);
    memcpy(joints, m.joints, sizeof(uint16_t) * 4 * (size_t)m.vertex_count);
    joints[21] = 67;
    p.joints = joints;
    CHECK(tdn_pack_writer_add_mesh(w, &p, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "mesh.joints") == 0);
    p.joints = m.joints;
    p.skeleton = 1;
    CHECK(tdn_pack_writer_add_mesh(w, &p, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "mesh.skeleton") == 0);
    p.skeleton = 0;
    p.index_count = 4;
    CHECK(tdn_pack_writer_add_mesh(w, &p, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "mesh.index_count") == 0);
    free(joints);
    CHECK(tdn_pack_writer_add_section(w, TDN_PACK_FOURCC('S', 'K', 'E', 'L'), "x", 1, 16, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "kind") == 0);
    CHECK(tdn_pack_writer_add_section(w, TDN_PACK_FOURCC('B', 'S', 'P', 'C'), "x", 1, 24, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "align") == 0);
    tdn_pack_writer_destroy(w);
    tdn_free(im.bytes, im.size, NULL);
    tdn_asset_destroy(a);
}

static void files(void)
{
    tdn_asset *a = humanoid();
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_skeleton(w, "humanoid", tdn_asset_skeleton(a), NULL, &err) == TDN_OK);
    char path[] = "/tmp/test_pack_XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    CHECK(tdn_pack_writer_save(w, path, &err) == TDN_OK);
    tdn_pack_file *file = NULL;
    const long before = total_allocations;
    CHECK(tdn_pack_file_load(path, NULL, &file, &counting, &err) == TDN_OK);
    CHECK_EQ_INT(total_allocations - before, 3); /* the bytes, the file, the pack */
    check_skeletons_equal(tdn_asset_skeleton(a), tdn_pack_skeleton(tdn_pack_file_pack(file), 0));
    tdn_pack_file_destroy(file);
    CHECK_EQ_INT(live_blocks, 0);
    /* a corrupt file: the path, then the byte */
    FILE *f = fopen(path, "r+b");
    fseek(f, 40, SEEK_SET);
    fputc(1, f);
    fclose(f);
    CHECK(tdn_pack_file_load(path, NULL, &file, &counting, &err) == TDN_ERR_PARSE && file == NULL);
    char want[96];
    snprintf(want, sizeof want, "%s: byte 40", path);
    CHECK(strcmp(err.where, want) == 0);
    CHECK_EQ_INT(live_blocks, 0);
    /* not a regular file: refused without blocking */
    CHECK(tdn_pack_file_load("/tmp", NULL, &file, NULL, &err) == TDN_ERR_IO && file == NULL);
    CHECK(tdn_pack_file_pack(NULL) == NULL);
    remove(path);
    tdn_pack_writer_destroy(w);
    tdn_asset_destroy(a);
}

int main(void)
{
    RUN(humanoid_round_trip);
    RUN(gltf_round_trip);
    RUN(header_bytes_flipped);
    RUN(section_fields_huge);
    RUN(values_checked);
    RUN(truncations);
    RUN(random_flips);
    RUN(arguments);
    RUN(files);
    return check_summary();
}
