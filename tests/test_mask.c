/* Bone masks: fill, feathered subtrees worked by hand, named joints, bad arguments. */
#include <string.h>

#include "check.h"

/* root(0) > spine(1) > chest(2) > neck(3) > head(4); chest > arm(5) > hand(6); root > leg(7) */
static const char *const names[] = { "root", "spine", "chest", "neck", "head", "arm", "hand", "leg" };
static const int parents[] = { -1, 0, 1, 2, 3, 2, 5, 0 };
enum { N = 8 };

static tdn_skeleton *make_skeleton(void)
{
    tdn_skeleton *s = NULL;
    tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = N, .names = names, .parents = parents }, &s, NULL, NULL);
    return s;
}

static void fill_sets_joints_and_zeroes_padding(void)
{
    float mask[16];
    for (int j = 0; j < 16; j++)
        mask[j] = -7.0f;
    tdn_mask_fill(mask, 5, 0.25f);
    for (int j = 0; j < 5; j++)
        CHECK_NEAR(mask[j], 0.25, 0);
    for (int j = 5; j < 8; j++)
        CHECK_NEAR(mask[j], 0, 0);
    CHECK_NEAR(mask[8], -7, 0); /* past the padded length: untouched */
    tdn_mask_fill(mask, 5, 3.0f);
    CHECK_NEAR(mask[4], 1, 0);
    tdn_mask_fill(mask, 5, NAN);
    CHECK_NEAR(mask[0], 0, 0);
    tdn_mask_fill(mask, 0, 1.0f); /* ignored */
    CHECK_NEAR(mask[0], 0, 0);
    tdn_mask_fill(NULL, 5, 1.0f); /* ignored, no crash */
}

static void subtree_feather_by_hand(void)
{
    tdn_skeleton *s = make_skeleton();
    if (!CHECK(s != NULL))
        return;
    float mask[8];
    tdn_mask_fill(mask, N, 0.1f);
    /* from spine, feathered over 2 levels at weight 0.9: spine (d 0) 0.9 * 1/3, chest (d 1)
     * 0.9 * 2/3, everything deeper 0.9; root and leg are outside and keep 0.1 */
    CHECK_EQ_INT(tdn_mask_set_subtree(mask, s, tdn_skeleton_find_joint(s, "spine"), 0.9f, 2, NULL), TDN_OK);
    const double expect[N] = { 0.1, 0.3, 0.6, 0.9, 0.9, 0.9, 0.9, 0.1 };
    for (int j = 0; j < N; j++)
        CHECK_NEAR(mask[tdn_skeleton_find_joint(s, names[j])], expect[j], 1e-6);

    /* blend depth 0: the whole subtree at full weight */
    tdn_mask_fill(mask, N, 0.0f);
    tdn_mask_set_subtree(mask, s, tdn_skeleton_find_joint(s, "chest"), 1.0f, 0, NULL);
    const double flat[N] = { 0, 0, 1, 1, 1, 1, 1, 0 };
    for (int j = 0; j < N; j++)
        CHECK_NEAR(mask[tdn_skeleton_find_joint(s, names[j])], flat[j], 0);

    /* from the arm with depth 1: arm 1/2, hand 1 */
    tdn_mask_fill(mask, N, 0.0f);
    tdn_mask_set_subtree(mask, s, tdn_skeleton_find_joint(s, "arm"), 1.0f, 1, NULL);
    CHECK_NEAR(mask[tdn_skeleton_find_joint(s, "arm")], 0.5, 1e-7);
    CHECK_NEAR(mask[tdn_skeleton_find_joint(s, "hand")], 1.0, 0);
    CHECK_NEAR(mask[tdn_skeleton_find_joint(s, "neck")], 0.0, 0);
    tdn_skeleton_destroy(s);
}

static void named_joints_or_nothing(void)
{
    tdn_skeleton *s = make_skeleton();
    if (!CHECK(s != NULL))
        return;
    float mask[8];
    tdn_mask_fill(mask, N, 0.0f);
    const char *some[] = { "hand", "leg" };
    CHECK_EQ_INT(tdn_mask_set_joints(mask, s, some, 2, 0.75f, NULL), TDN_OK);
    for (int j = 0; j < N; j++) {
        const char *name = tdn_skeleton_joint_name(s, j);
        int named = !strcmp(name, "hand") || !strcmp(name, "leg");
        CHECK_NEAR(mask[j], named ? 0.75 : 0.0, 0);
    }
    /* one unknown name: an error naming it, and the mask is unchanged (hand not set to 1) */
    float before[8];
    memcpy(before, mask, sizeof mask);
    const char *bad[] = { "hand", "tail" };
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_mask_set_joints(mask, s, bad, 2, 1.0f, &err), TDN_ERR_INVALID_DATA);
    CHECK_EQ_INT(err.code, TDN_ERR_INVALID_DATA);
    CHECK(strstr(err.where, "tail") != NULL);
    CHECK(strstr(err.message, "tail") != NULL);
    CHECK(memcmp(before, mask, sizeof mask) == 0);
    tdn_skeleton_destroy(s);
}

static void bad_arguments(void)
{
    tdn_skeleton *s = make_skeleton();
    if (!CHECK(s != NULL))
        return;
    float mask[8] = { 0 }, before[8];
    memcpy(before, mask, sizeof mask);
    CHECK_EQ_INT(tdn_mask_set_subtree(mask, NULL, 0, 1, 0, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_mask_set_subtree(NULL, s, 0, 1, 0, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_mask_set_subtree(mask, s, -1, 1, 0, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_mask_set_subtree(mask, s, N, 1, 0, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_mask_set_subtree(mask, s, 0, 1, -1, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_mask_set_subtree(mask, s, 0, NAN, 0, NULL), TDN_ERR_ARGUMENT);
    const char *one[] = { "hand" }, *null_name[] = { NULL };
    CHECK_EQ_INT(tdn_mask_set_joints(mask, s, NULL, 1, 1, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_mask_set_joints(mask, s, one, -1, 1, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_mask_set_joints(mask, s, one, 1, NAN, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_mask_set_joints(mask, s, null_name, 1, 1, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_mask_set_joints(mask, NULL, one, 1, 1, NULL), TDN_ERR_ARGUMENT);
    CHECK(memcmp(before, mask, sizeof mask) == 0);
    /* weights outside [0, 1] are clamped */
    tdn_mask_set_subtree(mask, s, 0, 5.0f, 0, NULL);
    CHECK_NEAR(mask[3], 1, 0);
    tdn_mask_set_joints(mask, s, one, 1, -2.0f, NULL);
    CHECK_NEAR(mask[tdn_skeleton_find_joint(s, "hand")], 0, 0);
    tdn_skeleton_destroy(s);
}

/* A mask built here drives a cross-fade: only the chest subtree moves to the other pose. */
static void masked_cross_fade_moves_only_the_subtree(void)
{
    tdn_skeleton *s = make_skeleton();
    if (!CHECK(s != NULL))
        return;
    tdn_pose a, b, out;
    tdn_pose_create(N, &a, NULL, NULL), tdn_pose_create(N, &b, NULL, NULL), tdn_pose_create(N, &out, NULL, NULL);
    for (int j = 0; j < N; j++) {
        tdn_transform x = tdn_transform_identity();
        x.t = tdn_vec3_make((float)j, 1, 0);
        tdn_pose_set(&b, j, &x);
    }
    float mask[8];
    tdn_mask_fill(mask, N, 0.0f);
    tdn_mask_set_subtree(mask, s, tdn_skeleton_find_joint(s, "chest"), 1.0f, 1, NULL);
    tdn_blend2(&a, &b, 1.0f, mask, &out, NULL);
    int chest = tdn_skeleton_find_joint(s, "chest");
    for (int j = 0; j < N; j++) {
        double m = !tdn_skeleton_is_in_subtree(s, j, chest) ? 0.0 : (j == chest ? 0.5 : 1.0);
        CHECK_NEAR(tdn_pose_get(&out, j).t.x, m * j, 1e-6);
        CHECK_NEAR(tdn_pose_get(&out, j).t.y, m, 1e-6);
    }
    tdn_pose_destroy(&a), tdn_pose_destroy(&b), tdn_pose_destroy(&out);
    tdn_skeleton_destroy(s);
}

int main(void)
{
    RUN(fill_sets_joints_and_zeroes_padding);
    RUN(subtree_feather_by_hand);
    RUN(named_joints_or_nothing);
    RUN(bad_arguments);
    RUN(masked_cross_fade_moves_only_the_subtree);
    return check_summary();
}
