/* tendon core: structure-of-arrays poses. */
#include <string.h>

#include "internal.h"
#include "tendon/pose.h"
#include "tendon/skeleton.h"

int tdn_pose_stride(int joint_count)
{
    if (joint_count < 0)
        return 0;
    return (joint_count + TDN_POSE_LANES - 1) / TDN_POSE_LANES * TDN_POSE_LANES;
}

size_t tdn_pose_bytes(int joint_count)
{
    return (size_t)TDN_POSE_ROWS * (size_t)tdn_pose_stride(joint_count) * sizeof(float);
}

/* Identity in every lane, padding included, so vector loops over whole rows stay finite. */
void tdn_pose_set_identity(tdn_pose *pose)
{
    if (!pose || !pose->data)
        return;
    const size_t stride = (size_t)pose->stride;
    memset(pose->data, 0, (size_t)TDN_POSE_ROWS * stride * sizeof(float));
    float *rw = tdn_pose_row(pose, TDN_RW), *sx = tdn_pose_row(pose, TDN_SX);
    for (size_t j = 0; j < stride; j++)
        rw[j] = 1.0f;
    for (size_t j = 0; j < 3 * stride; j++) /* SX, SY and SZ rows are adjacent */
        sx[j] = 1.0f;
}

tdn_result tdn_pose_init(int joint_count, void *memory, size_t bytes, tdn_pose *pose, tdn_error *err)
{
    if (!pose)
        return tdn__null(err, "pose");
    if (!memory)
        return tdn__null(err, "memory");
    if (joint_count < 1 || joint_count > TDN_MAX_JOINTS)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "joint_count", "%d joints, not within 1..%d", joint_count,
                         TDN_MAX_JOINTS);
    if (((uintptr_t)memory % TDN_POSE_ALIGN) != 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "memory", "not aligned to %d bytes", TDN_POSE_ALIGN);
    if (bytes < tdn_pose_bytes(joint_count))
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "bytes", "%zu bytes, %d joints need %zu (tdn_pose_bytes)", bytes,
                         joint_count, tdn_pose_bytes(joint_count));
    memset(pose, 0, sizeof *pose);
    pose->joint_count = joint_count;
    pose->stride = tdn_pose_stride(joint_count);
    pose->data = memory;
    tdn_pose_set_identity(pose);
    return TDN_OK;
}

tdn_result tdn_pose_create(int joint_count, tdn_pose *pose, const tdn_allocator *allocator, tdn_error *err)
{
    if (!pose)
        return tdn__null(err, "pose");
    memset(pose, 0, sizeof *pose);
    if (joint_count < 1 || joint_count > TDN_MAX_JOINTS)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "joint_count", "%d joints, not within 1..%d", joint_count,
                         TDN_MAX_JOINTS);
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    size_t bytes = tdn_pose_bytes(joint_count);
    void *memory = tdn__alloc(allocator, bytes, TDN_POSE_ALIGN);
    if (!memory)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "no memory for a pose of %d joints (%zu bytes)",
                         joint_count, bytes);
    tdn_pose_init(joint_count, memory, bytes, pose, NULL);
    if (allocator)
        pose->allocator = *allocator;
    pose->owns_data = 1;
    return TDN_OK;
}

void tdn_pose_destroy(tdn_pose *pose)
{
    if (!pose)
        return;
    if (pose->owns_data)
        tdn__free(&pose->allocator, pose->data, tdn_pose_bytes(pose->joint_count));
    memset(pose, 0, sizeof *pose);
}

tdn_transform tdn_pose_get(const tdn_pose *pose, int joint)
{
    if (!pose || !pose->data || joint < 0 || joint >= pose->joint_count)
        return tdn_transform_identity();
    const float *d = pose->data;
    const size_t s = (size_t)pose->stride, j = (size_t)joint;
    tdn_transform x = { { d[TDN_TX * s + j], d[TDN_TY * s + j], d[TDN_TZ * s + j] },
                        { d[TDN_RX * s + j], d[TDN_RY * s + j], d[TDN_RZ * s + j], d[TDN_RW * s + j] },
                        { d[TDN_SX * s + j], d[TDN_SY * s + j], d[TDN_SZ * s + j] } };
    return x;
}

void tdn_pose_set(tdn_pose *pose, int joint, const tdn_transform *x)
{
    if (!pose || !pose->data || !x || joint < 0 || joint >= pose->joint_count)
        return;
    float *d = pose->data;
    const size_t s = (size_t)pose->stride, j = (size_t)joint;
    d[TDN_TX * s + j] = x->t.x;
    d[TDN_TY * s + j] = x->t.y;
    d[TDN_TZ * s + j] = x->t.z;
    d[TDN_RX * s + j] = x->r.x;
    d[TDN_RY * s + j] = x->r.y;
    d[TDN_RZ * s + j] = x->r.z;
    d[TDN_RW * s + j] = x->r.w;
    d[TDN_SX * s + j] = x->s.x;
    d[TDN_SY * s + j] = x->s.y;
    d[TDN_SZ * s + j] = x->s.z;
}

tdn_result tdn_pose_set_rest(tdn_pose *pose, const tdn_skeleton *skeleton, tdn_error *err)
{
    if (!pose || !pose->data)
        return tdn__null(err, "pose");
    if (!skeleton)
        return tdn__null(err, "skeleton");
    if (tdn_skeleton_joint_count(skeleton) != pose->joint_count)
        return tdn__pose_size(err, "pose", pose->joint_count, tdn_skeleton_joint_count(skeleton), "the skeleton");
    for (int j = 0; j < pose->joint_count; j++) {
        tdn_transform rest = tdn_skeleton_rest(skeleton, j);
        tdn_pose_set(pose, j, &rest);
    }
    return TDN_OK;
}

tdn_result tdn_pose_copy(tdn_pose *dst, const tdn_pose *src, tdn_error *err)
{
    if (!dst || !dst->data)
        return tdn__null(err, "dst");
    if (!src || !src->data)
        return tdn__null(err, "src");
    if (dst->joint_count != src->joint_count)
        return tdn__pose_size(err, "dst", dst->joint_count, src->joint_count, "src");
    if (dst->data != src->data)
        memcpy(dst->data, src->data, tdn_pose_bytes(src->joint_count));
    return TDN_OK;
}
