/* Model space and palette: against a naive second implementation (tdn_mat4_mul of
 * tdn_transform_to_mat4 along the parent chain), a chain worked by hand, and inverse binds. */
#include <string.h>

#include "check.h"

/* max |a - b| / (1 + |b|) over the 16 entries */
static double mat_error(const tdn_mat4 *a, const tdn_mat4 *b)
{
    double e = 0;
    for (int i = 0; i < 16; i++)
        e = fmax(e, fabs((double)a->m[i] - b->m[i]) / (1.0 + fabs(b->m[i])));
    return e;
}

static tdn_skeleton *random_skeleton(check_rng *rng, int n)
{
    int parents[64];
    for (int i = 0; i < n; i++) /* a few roots, otherwise any earlier joint; the skeleton reorders */
        parents[i] = (i == 0 || check_rng_u32(rng) % 10 == 0) ? -1 : (int)(check_rng_u32(rng) % (uint32_t)i);
    /* shuffle the description order so the skeleton really has to reorder */
    int order[64], inverse[64];
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int k = (int)(check_rng_u32(rng) % (uint32_t)(i + 1)), t = order[i];
        order[i] = order[k], order[k] = t;
    }
    for (int i = 0; i < n; i++)
        inverse[order[i]] = i;
    int shuffled[64];
    for (int i = 0; i < n; i++)
        shuffled[inverse[i]] = parents[i] < 0 ? -1 : inverse[parents[i]];
    tdn_skeleton *s = NULL;
    tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = n, .parents = shuffled }, &s, NULL, NULL);
    return s;
}

static void random_pose(tdn_pose *p, check_rng *rng, int uniform_scale)
{
    for (int j = 0; j < p->joint_count; j++) {
        tdn_transform x;
        x.t = check_rng_vec3(rng, -1.0f, 1.0f);
        x.r = check_rng_quat(rng);
        x.s = check_rng_vec3(rng, 0.6f, 1.5f);
        if (uniform_scale)
            x.s.y = x.s.z = x.s.x;
        else if (check_rng_u32(rng) % 8 == 0)
            x.s.y = -x.s.y; /* a mirror now and then */
        tdn_pose_set(p, j, &x);
    }
}

/* The naive model space: each joint's matrix is its parent's (or the root's) times its local. */
static void naive_model_space(const tdn_skeleton *s, const tdn_pose *p, const tdn_mat4 *root, tdn_mat4 *model)
{
    for (int j = 0; j < tdn_skeleton_joint_count(s); j++) {
        tdn_transform x = tdn_pose_get(p, j);
        tdn_mat4 local = tdn_transform_to_mat4(&x);
        int parent = tdn_skeleton_parent(s, j);
        tdn_mat4 base = parent >= 0 ? model[parent] : (root ? *root : tdn_mat4_identity());
        model[j] = tdn_mat4_mul(&base, &local);
    }
}

static void matches_the_naive_product_over_random_skeletons(void)
{
    check_rng rng = { 2024 };
    double worst = 0;
    for (int round = 0; round < 100; round++) {
        int n = 1 + (int)(check_rng_u32(&rng) % 60);
        tdn_skeleton *s = random_skeleton(&rng, n);
        if (!CHECK(s != NULL))
            return;
        tdn_pose p;
        tdn_pose_create(n, &p, NULL, NULL);
        random_pose(&p, &rng, round % 2);
        tdn_mat4 model[64], naive[64];
        tdn_transform rx = { check_rng_vec3(&rng, -5, 5), check_rng_quat(&rng), { 2, 2, 2 } };
        tdn_mat4 root = tdn_transform_to_mat4(&rx);
        const tdn_mat4 *r = round % 3 ? &root : NULL;
        CHECK_EQ_INT(tdn_model_space(s, &p, r, model, NULL), TDN_OK);
        naive_model_space(s, &p, r, naive);
        for (int j = 0; j < n; j++)
            worst = fmax(worst, mat_error(&model[j], &naive[j]));
        /* the last row stays 0 0 0 1 exactly */
        for (int j = 0; j < n; j++)
            if (model[j].m[3] != 0 || model[j].m[7] != 0 || model[j].m[11] != 0 || model[j].m[15] != 1)
                CHECK(!"last row is not 0 0 0 1");
        tdn_pose_destroy(&p);
        tdn_skeleton_destroy(s);
    }
    CHECK_NEAR(worst, 0, 2e-6);
}

static void three_bones_at_ninety_degrees_by_hand(void)
{
    /* joints 0..3 in a chain; each of 0..2 turns 90 degrees about z, 1..3 sit one unit along
     * their parent's x. Directions turn x -> y -> -x -> -y, so the joints are at (0,0,0),
     * (0,1,0), (-1,1,0), (-1,0,0). */
    const int parents[4] = { -1, 0, 1, 2 };
    tdn_skeleton *s = NULL;
    tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 4, .parents = parents }, &s, NULL, NULL);
    if (!CHECK(s != NULL))
        return;
    tdn_pose p;
    tdn_pose_create(4, &p, NULL, NULL);
    tdn_quat quarter = tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), TDN_PI / 2);
    for (int j = 0; j < 4; j++) {
        tdn_transform x = tdn_transform_identity();
        x.t = j == 0 ? tdn_vec3_make(0, 0, 0) : tdn_vec3_make(1, 0, 0);
        x.r = j < 3 ? quarter : tdn_quat_identity();
        tdn_pose_set(&p, j, &x);
    }
    tdn_mat4 model[4];
    CHECK_EQ_INT(tdn_model_space(s, &p, NULL, model, NULL), TDN_OK);
    const float expect[4][3] = { { 0, 0, 0 }, { 0, 1, 0 }, { -1, 1, 0 }, { -1, 0, 0 } };
    for (int j = 0; j < 4; j++)
        for (int k = 0; k < 3; k++)
            CHECK_NEAR(model[j].m[12 + k], expect[j][k], 1e-6);
    /* the end's x axis points along -y (three quarter turns) */
    CHECK_NEAR(model[3].m[0], 0, 1e-6);
    CHECK_NEAR(model[3].m[1], -1, 1e-6);
    /* with a root placement: everything moves by it, here a translation and a scale of 2 */
    tdn_mat4 root = tdn_mat4_identity();
    root.m[0] = root.m[5] = root.m[10] = 2.0f;
    root.m[12] = 10.0f;
    tdn_model_space(s, &p, &root, model, NULL);
    CHECK_NEAR(model[3].m[12], 10 - 2, 1e-6);
    CHECK_NEAR(model[2].m[13], 2, 1e-6);
    tdn_pose_destroy(&p);
    tdn_skeleton_destroy(s);
}

static void range_recomputes_only_the_range(void)
{
    check_rng rng = { 99 };
    tdn_skeleton *s = random_skeleton(&rng, 40);
    if (!CHECK(s != NULL))
        return;
    tdn_pose p;
    tdn_pose_create(40, &p, NULL, NULL);
    random_pose(&p, &rng, 0);
    tdn_mat4 model[40], full[40], before[40];
    tdn_model_space(s, &p, NULL, model, NULL);
    memcpy(before, model, sizeof model);
    /* change one joint with children, recompute its subtree, compare with a full recompute */
    int joint = 0;
    for (int j = 1; j < 40; j++)
        if (tdn_skeleton_subtree_end(s, j) - j > 2 && tdn_skeleton_parent(s, j) >= 0) {
            joint = j;
            break;
        }
    if (!CHECK(joint > 0))
        return;
    int end = tdn_skeleton_subtree_end(s, joint);
    tdn_transform x = tdn_pose_get(&p, joint);
    x.r = tdn_quat_mul(tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), 0.7f), x.r);
    tdn_pose_set(&p, joint, &x);
    CHECK_EQ_INT(tdn_model_space_range(s, &p, NULL, joint, end, model, NULL), TDN_OK);
    tdn_model_space(s, &p, NULL, full, NULL);
    CHECK(memcmp(model, full, sizeof model) == 0); /* the same arithmetic: the same bits */
    CHECK(memcmp(model, before, sizeof(tdn_mat4) * (size_t)joint) == 0);
    CHECK(memcmp(model + end, before + end, sizeof(tdn_mat4) * (size_t)(40 - end)) == 0);
    CHECK(memcmp(&model[joint], &before[joint], sizeof(tdn_mat4)) != 0); /* it did change */
    /* an empty range is fine and reads and writes nothing, also at the very end (40 joints:
     * no padding after the last row for the sanitizer build to forgive) */
    memcpy(before, model, sizeof model);
    CHECK_EQ_INT(tdn_model_space_range(s, &p, NULL, 5, 5, model, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_model_space_range(s, &p, NULL, 40, 40, model, NULL), TDN_OK);
    CHECK(memcmp(model, before, sizeof model) == 0);
    tdn_pose_destroy(&p);
    tdn_skeleton_destroy(s);
}

static void palette_is_model_times_inverse_bind(void)
{
    check_rng rng = { 7 };
    enum { N = 25 };
    int parents[N];
    tdn_transform rest[N];
    for (int i = 0; i < N; i++) {
        parents[i] = i == 0 ? -1 : (int)(check_rng_u32(&rng) % (uint32_t)i);
        rest[i].t = check_rng_vec3(&rng, -1, 1);
        rest[i].r = check_rng_quat(&rng);
        float sc = check_rng_float(&rng, 0.5f, 2.0f);
        rest[i].s = tdn_vec3_make(sc, sc, sc);
    }
    tdn_skeleton *s = NULL;
    tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = N, .parents = parents, .rest_pose = rest }, &s, NULL,
                        NULL);
    if (!CHECK(s != NULL))
        return;
    tdn_pose p;
    tdn_pose_create(N, &p, NULL, NULL);
    tdn_mat4 model[N], palette[N];
    /* rest pose: every palette matrix is the identity */
    tdn_pose_set_rest(&p, s, NULL);
    tdn_model_space(s, &p, NULL, model, NULL);
    CHECK_EQ_INT(tdn_palette(s, model, palette, NULL), TDN_OK);
    tdn_mat4 id = tdn_mat4_identity();
    double worst = 0;
    for (int j = 0; j < N; j++)
        worst = fmax(worst, mat_error(&palette[j], &id));
    CHECK_NEAR(worst, 0, 1e-5);
    /* any pose: model * inverse bind */
    random_pose(&p, &rng, 0);
    tdn_model_space(s, &p, NULL, model, NULL);
    tdn_palette(s, model, palette, NULL);
    const tdn_mat4 *ib = tdn_skeleton_inverse_bind(s);
    worst = 0;
    for (int j = 0; j < N; j++) {
        tdn_mat4 want = tdn_mat4_mul(&model[j], &ib[j]);
        worst = fmax(worst, mat_error(&palette[j], &want));
    }
    CHECK_NEAR(worst, 0, 1e-6);
    /* in place: palette over the model array */
    tdn_palette(s, model, model, NULL);
    CHECK(memcmp(model, palette, sizeof model) == 0);
    tdn_pose_destroy(&p);
    tdn_skeleton_destroy(s);
}

static void bad_arguments_write_nothing(void)
{
    const int parents[3] = { -1, 0, 1 };
    tdn_skeleton *s = NULL;
    tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 3, .parents = parents }, &s, NULL, NULL);
    if (!CHECK(s != NULL))
        return;
    tdn_pose p, wrong;
    tdn_pose_create(3, &p, NULL, NULL), tdn_pose_create(4, &wrong, NULL, NULL);
    tdn_mat4 model[5], before[5];
    memset(model, 0x5a, sizeof model);
    memcpy(before, model, sizeof model);
    CHECK_EQ_INT(tdn_model_space(NULL, &p, NULL, model, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_model_space(s, NULL, NULL, model, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_model_space(s, &p, NULL, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_model_space(s, &wrong, NULL, model, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_model_space_range(s, &p, NULL, -1, 2, model, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_model_space_range(s, &p, NULL, 0, 4, model, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_model_space_range(s, &p, NULL, 2, 1, model, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_palette(NULL, model, model, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_palette(s, NULL, model, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_palette(s, model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK(memcmp(model, before, sizeof model) == 0);
    /* a good call writes exactly joint_count matrices */
    CHECK_EQ_INT(tdn_model_space(s, &p, NULL, model, NULL), TDN_OK);
    CHECK(memcmp(&model[3], &before[3], 2 * sizeof(tdn_mat4)) == 0);
    tdn_pose_destroy(&p), tdn_pose_destroy(&wrong);
    tdn_skeleton_destroy(s);
}

int main(void)
{
    RUN(matches_the_naive_product_over_random_skeletons);
    RUN(three_bones_at_ninety_degrees_by_hand);
    RUN(range_recomputes_only_the_range);
    RUN(palette_is_model_times_inverse_bind);
    RUN(bad_arguments_write_nothing);
    return check_summary();
}
