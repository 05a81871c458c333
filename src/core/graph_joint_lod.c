/* tendon core: joint level of detail (graph.h, "joint level of detail"): the runs of joints a LOD
 * keeps, worked out once from the subtrees it drops, and what evaluation, IK and the batch ask of
 * them. */
#include <stdio.h>
#include <string.h>

#include "graph_joint_lod.h"
#include "tendon/skeleton.h"

/* Kept blocks at most this many blocks apart are evaluated as one span: sampling and blending a
 * span more costs more in calls than skipping so few blocks saves (on the showcase humanoid,
 * whose hands leave gaps of 1 and 2 blocks, the split evaluation ran more instructions than the
 * whole one). */
#define MERGED_GAP 2

/* The end of the dropped subtrees that hold joint j (j itself when none does). */
static int dropped_end(const tdn_skeleton *s, const int *roots, int count, int j)
{
    int end = j;
    for (int i = 0; i < count; i++)
        if (roots[i] <= j && j < tdn_skeleton_subtree_end(s, roots[i])) {
            const int e = tdn_skeleton_subtree_end(s, roots[i]);
            end = e > end ? e : end;
        }
    return end;
}

static tdn_result fill(const tdn_skeleton *s, const int *roots, int count, tdn_joint_lod *out, tdn_error *err)
{
    tdn_joint_lod lod;
    memset(&lod, 0, sizeof lod);
    lod.joint_count = tdn_skeleton_joint_count(s);
    for (int j = 0; j < lod.joint_count;) {
        const int end = dropped_end(s, roots, count, j);
        if (end > j) {
            j = end;
            continue;
        }
        if (lod.kept_count > 0 && lod.kept[lod.kept_count - 1].end == j) {
            lod.kept[lod.kept_count - 1].end = j + 1;
        } else {
            if (lod.kept_count == TDN_JOINT_LOD_MAX_SPANS)
                return tdn__fail(err, TDN_ERR_ARGUMENT, "dropped",
                                 "the kept joints fall apart into more than %d runs (TDN_JOINT_LOD_MAX_SPANS)",
                                 TDN_JOINT_LOD_MAX_SPANS);
            lod.kept[lod.kept_count++] = (tdn_joint_span){ j, j + 1 };
        }
        j++;
    }
    const int lanes = TDN_POSE_LANES, stride = tdn_pose_stride(lod.joint_count);
    for (int r = 0; r < lod.kept_count; r++) {
        const int begin = lod.kept[r].begin / lanes * lanes;
        int end = (lod.kept[r].end + lanes - 1) / lanes * lanes;
        end = end < stride ? end : stride;
        if (lod.block_count > 0 && lod.blocks[lod.block_count - 1].end + MERGED_GAP * lanes >= begin)
            lod.blocks[lod.block_count - 1].end = end;
        else
            lod.blocks[lod.block_count++] = (tdn_joint_span){ begin, end };
    }
    *out = lod;
    return TDN_OK;
}

tdn_result tdn_joint_lod_init(const tdn_skeleton *skeleton, const int *dropped, int count, tdn_joint_lod *out,
                              tdn_error *err)
{
    if (!skeleton || !out || (count > 0 && !dropped))
        return tdn__null(err, !skeleton ? "skeleton" : !out ? "out" : "dropped");
    if (count < 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "count", "%d is negative", count);
    const int joints = tdn_skeleton_joint_count(skeleton);
    for (int i = 0; i < count; i++)
        if (dropped[i] < 0 || dropped[i] >= joints) {
            char where[32];
            snprintf(where, sizeof where, "dropped[%d]", i);
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "joint %d is not one of the skeleton's %d", dropped[i],
                             joints);
        }
    return fill(skeleton, dropped, count, out, err);
}

tdn_result tdn_joint_lod_init_names(const tdn_skeleton *skeleton, const char *const *names, int count,
                                    tdn_joint_lod *out, tdn_error *err)
{
    if (!skeleton || !out || (count > 0 && !names))
        return tdn__null(err, !skeleton ? "skeleton" : !out ? "out" : "names");
    if (count < 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "count", "%d is negative", count);
    int roots[TDN_JOINT_LOD_MAX_SPANS * 4];
    const int room = (int)(sizeof roots / sizeof roots[0]);
    if (count > room)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "count", "%d names; at most %d", count, room);
    for (int i = 0; i < count; i++) {
        char where[32];
        snprintf(where, sizeof where, "names[%d]", i);
        if (!names[i])
            return tdn__null(err, where);
        roots[i] = tdn_skeleton_find_joint(skeleton, names[i]);
        if (roots[i] < 0)
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "no joint is named \"%s\"", names[i]);
    }
    return fill(skeleton, roots, count, out, err);
}

int tdn__joint_lod_parts(const tdn_joint_lod *lod, tdn__part part, tdn__part *parts)
{
    if (!lod) {
        parts[0] = part;
        return 1;
    }
    int n = 0;
    for (int b = 0; b < lod->block_count; b++) {
        const int begin = part.begin > lod->blocks[b].begin ? part.begin : lod->blocks[b].begin;
        const int end = part.end < lod->blocks[b].end ? part.end : lod->blocks[b].end;
        if (begin < end)
            parts[n++] = (tdn__part){ part.rows, begin, end };
    }
    return n;
}

int tdn__joint_lod_keeps(const tdn_joint_lod *lod, int joint)
{
    for (int r = 0; lod && r < lod->kept_count; r++)
        if (lod->kept[r].begin <= joint && joint < lod->kept[r].end)
            return 1;
    return !lod;
}

void tdn__joint_lod_copy(const tdn_joint_lod *lod, const tdn_pose *from, tdn_pose *to)
{
    if (!lod) {
        tdn_pose_copy(to, from, NULL);
        return;
    }
    for (int row = 0; row < TDN_POSE_ROWS; row++)
        for (int r = 0; r < lod->kept_count; r++)
            memcpy(to->data + (size_t)row * (size_t)to->stride + lod->kept[r].begin,
                   from->data + (size_t)row * (size_t)from->stride + lod->kept[r].begin,
                   sizeof(float) * (size_t)(lod->kept[r].end - lod->kept[r].begin));
}
