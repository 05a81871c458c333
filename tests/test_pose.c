/* Poses: layout, padding, accessors, caller memory. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void layout_is_padded_structure_of_arrays(void)
{
    CHECK_EQ_INT(tdn_pose_stride(1), 8);
    CHECK_EQ_INT(tdn_pose_stride(8), 8);
    CHECK_EQ_INT(tdn_pose_stride(67), 72);
    CHECK_EQ_INT((long long)tdn_pose_bytes(67), 10 * 72 * 4);
    tdn_pose p;
    CHECK_EQ_INT(tdn_pose_create(67, &p, NULL, NULL), TDN_OK);
    CHECK(((uintptr_t)p.data % TDN_POSE_ALIGN) == 0);
    /* identity everywhere, padding lanes included */
    for (int j = 0; j < p.stride; j++) {
        CHECK_NEAR(tdn_pose_row(&p, TDN_TX)[j], 0, 0);
        CHECK_NEAR(tdn_pose_row(&p, TDN_RW)[j], 1, 0);
        CHECK_NEAR(tdn_pose_row(&p, TDN_RZ)[j], 0, 0);
        CHECK_NEAR(tdn_pose_row(&p, TDN_SZ)[j], 1, 0);
    }
    tdn_transform x = { { 1, 2, 3 }, { 0.5f, 0.5f, 0.5f, 0.5f }, { 4, 5, 6 } };
    tdn_pose_set(&p, 66, &x);
    CHECK_NEAR(tdn_pose_row(&p, TDN_TY)[66], 2, 0);
    CHECK_NEAR(tdn_pose_row(&p, TDN_SZ)[66], 6, 0);
    tdn_transform y = tdn_pose_get(&p, 66);
    CHECK(memcmp(&x, &y, sizeof x) == 0);
    tdn_pose_set(&p, 67, &x); /* out of range: ignored, padding untouched */
    CHECK_NEAR(tdn_pose_row(&p, TDN_TX)[67], 0, 0);
    tdn_pose_destroy(&p);
    CHECK(p.data == NULL);
}

static void caller_memory_and_bad_arguments(void)
{
    size_t bytes = tdn_pose_bytes(5);
    void *memory = aligned_alloc(TDN_POSE_ALIGN, bytes + TDN_POSE_ALIGN);
    tdn_pose p;
    CHECK_EQ_INT(tdn_pose_init(5, memory, bytes, &p, NULL), TDN_OK);
    CHECK(p.data == memory);
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_pose_init(5, memory, bytes - 4, &p, &err), TDN_ERR_OUT_OF_MEMORY); /* as every init */
    CHECK(strcmp(err.where, "bytes") == 0);
    CHECK_EQ_INT(tdn_pose_init(5, (char *)memory + 4, bytes, &p, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_pose_init(0, memory, bytes, &p, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_pose_init(5, memory, bytes, NULL, NULL), TDN_ERR_ARGUMENT);
    tdn_pose_init(5, memory, bytes, &p, NULL);
    tdn_pose_destroy(&p); /* caller memory is not freed by the pose */
    free(memory);

    tdn_pose a, b;
    tdn_pose_create(3, &a, NULL, NULL);
    tdn_pose_create(4, &b, NULL, NULL);
    CHECK_EQ_INT(tdn_pose_copy(&a, &b, NULL), TDN_ERR_ARGUMENT);
    tdn_pose_destroy(&a);
    tdn_pose_destroy(&b);
    CHECK_EQ_INT(tdn_pose_create(-1, &a, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK(a.data == NULL);
}

static void rest_and_copy(void)
{
    int parents[] = { -1, 0 };
    tdn_transform rest[2] = { tdn_transform_identity(), tdn_transform_identity() };
    rest[1].t = tdn_vec3_make(0, 0.5f, 0);
    rest[1].s = tdn_vec3_make(2, 2, 2);
    tdn_skeleton *s;
    tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 2, .parents = parents, .rest_pose = rest }, &s, NULL,
                        NULL);
    tdn_pose a, b, c;
    tdn_pose_create(2, &a, NULL, NULL);
    tdn_pose_create(2, &b, NULL, NULL);
    tdn_pose_create(3, &c, NULL, NULL);
    CHECK_EQ_INT(tdn_pose_set_rest(&a, s, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pose_set_rest(&c, s, NULL), TDN_ERR_ARGUMENT);
    CHECK_NEAR(tdn_pose_get(&a, 1).t.y, 0.5, 0);
    CHECK_NEAR(tdn_pose_get(&a, 1).s.x, 2, 0);
    CHECK_EQ_INT(tdn_pose_copy(&b, &a, NULL), TDN_OK);
    CHECK(memcmp(a.data, b.data, tdn_pose_bytes(2)) == 0);
    tdn_pose_destroy(&a);
    tdn_pose_destroy(&b);
    tdn_pose_destroy(&c);
    tdn_skeleton_destroy(s);
}

int main(void)
{
    RUN(layout_is_padded_structure_of_arrays);
    RUN(caller_memory_and_bad_arguments);
    RUN(rest_and_copy);
    return check_summary();
}
