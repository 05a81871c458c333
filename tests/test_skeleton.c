/* Skeletons: ordering, remap, validation, rest pose, inverse binds, queries. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"

/* A small body given child-first: its depth-first order is hips, spine, head, arm, hand, leg. */
static const char *const body_names[] = { "hand", "head", "arm", "spine", "leg", "hips" };
static const int body_parents[] = { 2, 3, 3, 5, 5, -1 };

static void builds_parent_first_from_any_order(void)
{
    int remap[6];
    tdn_skeleton_desc d = { .joint_count = 6, .names = body_names, .parents = body_parents, .remap = remap };
    tdn_skeleton *s = NULL;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_skeleton_create(&d, &s, NULL, &err), TDN_OK);
    const char *expect[] = { "hips", "spine", "head", "arm", "hand", "leg" };
    for (int j = 0; j < 6; j++) {
        CHECK(strcmp(tdn_skeleton_joint_name(s, j), expect[j]) == 0);
        CHECK(tdn_skeleton_parent(s, j) < j);
    }
    for (int i = 0; i < 6; i++) {
        CHECK(strcmp(tdn_skeleton_joint_name(s, remap[i]), body_names[i]) == 0);
        int p = body_parents[i];
        CHECK_EQ_INT(tdn_skeleton_parent(s, remap[i]), p < 0 ? -1 : remap[p]);
    }
    CHECK_EQ_INT(tdn_skeleton_find_joint(s, "arm"), 3);
    CHECK_EQ_INT(tdn_skeleton_find_joint(s, "tail"), -1);
    CHECK_EQ_INT(tdn_skeleton_depth(s, 4), 3);       /* hand: hips > spine > arm > hand */
    CHECK_EQ_INT(tdn_skeleton_subtree_end(s, 1), 5); /* spine: spine, head, arm, hand */
    CHECK_EQ_INT(tdn_skeleton_subtree_end(s, 0), 6);
    CHECK_EQ_INT(tdn_skeleton_subtree_end(s, 5), 6);
    CHECK(tdn_skeleton_is_in_subtree(s, 4, 1));
    CHECK(!tdn_skeleton_is_in_subtree(s, 5, 1));
    tdn_skeleton_destroy(s);
}

/* Random forests, shuffled: every subtree range equals the descendants found by walking parents. */
static void subtree_ranges_match_parent_walks(void)
{
    check_rng rng = { 21 };
    enum { N = 200 };
    for (int round = 0; round < 20; round++) {
        int parents[N], perm[N], shuffled_parents[N], remap[N];
        for (int i = 0; i < N; i++)
            parents[i] = (i == 0 || check_rng_u32(&rng) % 10 == 0) ? -1 : (int)(check_rng_u32(&rng) % (unsigned)i);
        for (int i = 0; i < N; i++)
            perm[i] = i;
        for (int i = N - 1; i > 0; i--) {
            int k = (int)(check_rng_u32(&rng) % (unsigned)(i + 1)), t = perm[i];
            perm[i] = perm[k];
            perm[k] = t;
        }
        /* joint perm[i] of the original is given at position i */
        int where[N];
        for (int i = 0; i < N; i++)
            where[perm[i]] = i;
        for (int i = 0; i < N; i++)
            shuffled_parents[i] = parents[perm[i]] < 0 ? -1 : where[parents[perm[i]]];
        tdn_skeleton_desc d = { .joint_count = N, .parents = shuffled_parents, .remap = remap };
        tdn_skeleton *s = NULL;
        if (!CHECK_EQ_INT(tdn_skeleton_create(&d, &s, NULL, NULL), TDN_OK))
            return;
        int ok = 1;
        for (int j = 0; j < N; j++) {
            ok &= tdn_skeleton_parent(s, j) < j;
            for (int k = 0; k < N; k++) {
                int a = k, below = 0;
                while (a >= 0 && !below) {
                    below = a == j;
                    a = tdn_skeleton_parent(s, a);
                }
                ok &= below == tdn_skeleton_is_in_subtree(s, k, j);
            }
        }
        CHECK(ok);
        tdn_skeleton_destroy(s);
    }
}

static void expect_invalid(const tdn_skeleton_desc *d, tdn_result code, const char *where_part)
{
    tdn_skeleton *s = (tdn_skeleton *)&s; /* must be reset to NULL */
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_skeleton_create(d, &s, NULL, &err), code);
    CHECK(s == NULL);
    CHECK(err.code == code);
    CHECK(err.message[0] != '\0');
    if (!CHECK(strstr(err.where, where_part) != NULL))
        fprintf(stderr, "  where = '%s', wanted '%s'\n", err.where, where_part);
}

static void rejects_bad_hierarchies(void)
{
    const char *names[] = { "a", "b", "c", "d" };
    int cycle[] = { -1, 2, 3, 1 }; /* b -> c -> d -> b */
    expect_invalid(&(tdn_skeleton_desc){ .joint_count = 4, .names = names, .parents = cycle }, TDN_ERR_INVALID_DATA,
                   "'b'");
    int self[] = { -1, 1, 0, 0 };
    expect_invalid(&(tdn_skeleton_desc){ .joint_count = 4, .names = names, .parents = self }, TDN_ERR_INVALID_DATA,
                   "'b'");
    int out_of_range[] = { -1, 0, 7, 0 };
    expect_invalid(&(tdn_skeleton_desc){ .joint_count = 4, .names = names, .parents = out_of_range },
                   TDN_ERR_INVALID_DATA, "'c'");
    int fine[] = { -1, 0, 0, 1 };
    const char *dup[] = { "a", "b", "a", "d" };
    expect_invalid(&(tdn_skeleton_desc){ .joint_count = 4, .names = dup, .parents = fine }, TDN_ERR_INVALID_DATA,
                   "'a'");
    const char *empty[] = { "a", "", "c", "d" };
    expect_invalid(&(tdn_skeleton_desc){ .joint_count = 4, .names = empty, .parents = fine }, TDN_ERR_INVALID_DATA,
                   "joint 1");
    char long_name[100];
    memset(long_name, 'x', 99);
    long_name[99] = 0;
    const char *longn[] = { "a", "b", long_name, "d" };
    expect_invalid(&(tdn_skeleton_desc){ .joint_count = 4, .names = longn, .parents = fine }, TDN_ERR_INVALID_DATA,
                   "joint 2");
    expect_invalid(&(tdn_skeleton_desc){ .joint_count = 0, .parents = fine }, TDN_ERR_ARGUMENT, "joint_count");
    expect_invalid(&(tdn_skeleton_desc){ .joint_count = 4 }, TDN_ERR_ARGUMENT, "parents");
    tdn_skeleton *s;
    CHECK_EQ_INT(tdn_skeleton_create(NULL, &s, NULL, NULL), TDN_ERR_ARGUMENT);

    tdn_transform rest[4];
    for (int i = 0; i < 4; i++)
        rest[i] = tdn_transform_identity();
    rest[3].r = tdn_quat_make(0, 0, 0, 0);
    expect_invalid(&(tdn_skeleton_desc){ .joint_count = 4, .names = names, .parents = fine, .rest_pose = rest },
                   TDN_ERR_INVALID_DATA, "'d'");
    rest[3] = tdn_transform_identity();
    rest[2].t.y = NAN;
    expect_invalid(&(tdn_skeleton_desc){ .joint_count = 4, .names = names, .parents = fine, .rest_pose = rest },
                   TDN_ERR_INVALID_DATA, "'c'");
    rest[2] = tdn_transform_identity();
    rest[1].s.z = 0;
    expect_invalid(&(tdn_skeleton_desc){ .joint_count = 4, .names = names, .parents = fine, .rest_pose = rest },
                   TDN_ERR_INVALID_DATA, "'b'");

    /* inverse binds: finite, and affine (last row 0 0 0 1, as glTF requires) */
    tdn_mat4 ib[4] = { tdn_mat4_identity(), tdn_mat4_identity(), tdn_mat4_identity(), tdn_mat4_identity() };
    ib[2].m[7] = 0.5f; /* a projective term in the last row */
    expect_invalid(&(tdn_skeleton_desc){ .joint_count = 4, .names = names, .parents = fine, .inverse_bind = ib },
                   TDN_ERR_INVALID_DATA, "'c'");
    ib[2] = tdn_mat4_identity();
    ib[3].m[15] = 2.0f;
    expect_invalid(&(tdn_skeleton_desc){ .joint_count = 4, .names = names, .parents = fine, .inverse_bind = ib },
                   TDN_ERR_INVALID_DATA, "'d'");
    ib[3] = tdn_mat4_identity();
    ib[1].m[5] = INFINITY;
    expect_invalid(&(tdn_skeleton_desc){ .joint_count = 4, .names = names, .parents = fine, .inverse_bind = ib },
                   TDN_ERR_INVALID_DATA, "'b'");
    /* float rounding in the last row is accepted and stored exact */
    ib[1] = tdn_mat4_identity();
    ib[1].m[3] = 3e-6f;
    ib[1].m[15] = 1.0f - 4e-6f;
    tdn_skeleton *kept;
    CHECK_EQ_INT(tdn_skeleton_create(
                     &(tdn_skeleton_desc){ .joint_count = 4, .names = names, .parents = fine, .inverse_bind = ib },
                     &kept, NULL, NULL),
                 TDN_OK);
    CHECK(tdn_skeleton_inverse_bind(kept)[1].m[3] == 0.0f && tdn_skeleton_inverse_bind(kept)[1].m[15] == 1.0f);
    tdn_skeleton_destroy(kept);
}

/* A chain of three joints along y with known angles: inverse binds invert the rest FK. */
static void rest_pose_and_inverse_binds(void)
{
    const char *names[] = { "root", "mid", "tip" };
    int parents[] = { -1, 0, 1 };
    tdn_transform rest[3] = { tdn_transform_identity(), tdn_transform_identity(), tdn_transform_identity() };
    rest[0].t = tdn_vec3_make(0, 1, 0);
    rest[1].t = tdn_vec3_make(0, 2, 0);
    rest[1].r = tdn_quat_make(0, 0, 2.0f * 0.70710678f, 2.0f * 0.70710678f); /* 90deg about z, length 2: renormalized */
    rest[2].t = tdn_vec3_make(0, 3, 0);
    tdn_skeleton *s = NULL;
    CHECK_EQ_INT(tdn_skeleton_create(
                     &(tdn_skeleton_desc){ .joint_count = 3, .names = names, .parents = parents, .rest_pose = rest },
                     &s, NULL, NULL),
                 TDN_OK);
    tdn_transform mid = tdn_skeleton_rest(s, 1);
    CHECK_NEAR(tdn_quat_dot(mid.r, mid.r), 1.0, 1e-6);
    /* tip in model space: root (0,1,0) + mid (0,2,0) + rotate_z90 (0,3,0) = (-3, 3, 0). Its
     * inverse bind maps that point to the origin. */
    const tdn_mat4 *ibm = tdn_skeleton_inverse_bind(s);
    tdn_vec3 o = tdn_mat4_transform_point(&ibm[2], tdn_vec3_make(-3, 3, 0));
    CHECK_NEAR(tdn_vec3_length(o), 0, 1e-5);
    /* and the tip's x axis, rotated to +y in model space, back to +x */
    tdn_vec3 ax = tdn_mat4_transform_vector(&ibm[2], tdn_vec3_make(0, 1, 0));
    CHECK_NEAR(ax.x, 1, 1e-5);
    tdn_skeleton_destroy(s);

    /* Given inverse binds are kept (and follow the remap). */
    tdn_mat4 given[2] = { tdn_mat4_identity(), tdn_mat4_identity() };
    given[0].m[12] = 42; /* joint 0 of the description is the child */
    int child_first[] = { 1, -1 };
    int remap[2];
    CHECK_EQ_INT(
        tdn_skeleton_create(
            &(tdn_skeleton_desc){ .joint_count = 2, .parents = child_first, .inverse_bind = given, .remap = remap }, &s,
            NULL, NULL),
        TDN_OK);
    CHECK_EQ_INT(remap[0], 1);
    CHECK_NEAR(tdn_skeleton_inverse_bind(s)[1].m[12], 42, 0);
    CHECK(strcmp(tdn_skeleton_joint_name(s, 1), "joint_0") == 0);
    tdn_skeleton_destroy(s);
}

static void allocator_hooks_balance_and_failures_leave_nothing(void)
{
    tdn_skeleton_desc d = { .joint_count = 6, .names = body_names, .parents = body_parents };
    tdn_skeleton *s = NULL;
    CHECK_EQ_INT(tdn_skeleton_create(&d, &s, &counting, NULL), TDN_OK);
    CHECK(live_blocks > 0);
    tdn_skeleton_destroy(s);
    CHECK_EQ_INT(live_blocks, 0);
    CHECK_EQ_INT((long long)live_bytes, 0);
    for (long fail = 0; fail < 2; fail++) {
        allocations_before_failure = fail;
        tdn_error err = { 0 };
        CHECK_EQ_INT(tdn_skeleton_create(&d, &s, &counting, &err), TDN_ERR_OUT_OF_MEMORY);
        CHECK(s == NULL);
        CHECK_EQ_INT(live_blocks, 0);
    }
    allocations_before_failure = -1;
    /* An error after allocation (duplicate name) frees everything too. */
    const char *dup[] = { "x", "y", "x", "z", "w", "v" };
    d.names = dup;
    CHECK_EQ_INT(tdn_skeleton_create(&d, &s, &counting, NULL), TDN_ERR_INVALID_DATA);
    CHECK_EQ_INT(live_blocks, 0);
    CHECK_EQ_INT((long long)live_bytes, 0);
}

int main(void)
{
    RUN(builds_parent_first_from_any_order);
    RUN(subtree_ranges_match_parent_walks);
    RUN(rejects_bad_hierarchies);
    RUN(rest_pose_and_inverse_binds);
    RUN(allocator_hooks_balance_and_failures_leave_nothing);
    return check_summary();
}
