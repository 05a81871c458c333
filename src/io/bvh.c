/* tendon io: BVH import, tdn_io__bvh_load (tdn_asset_load's BVH half).
 *
 * The asset holds a skeleton of every joint (End Sites are not joints) whose rest translation
 * is the OFFSET times the import scale and whose rest rotation is the identity, all joints
 * listed, and one keyed clip: per frame one LINEAR key (frame f at f * Frame Time, so the take
 * lasts (frames - 1) * Frame Time), a translation track for each joint with position channels
 * and a rotation track for each joint with rotation channels. Its channel count is the number
 * of value columns of the MOTION section. Reading is in bvh_hierarchy.c and bvh_motion.c. */
#include <stdarg.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_internal.h"

tdn_result tdn_io__bvh_fail(const tdn_io__bvh *bvh, tdn_result code, long long line, const char *fmt, ...)
{
    char where[32], message[256];
    snprintf(where, sizeof where, "line %lld", line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return tdn_io__fail(bvh->err, code, where, "%s", message);
}

void *tdn_io__bvh_scratch(const tdn_io__bvh *bvh, size_t size)
{
    if (size == 0)
        return NULL;
    if (bvh->allocator.alloc)
        return bvh->allocator.alloc(size, alignof(max_align_t), bvh->allocator.user);
    return malloc(size);
}

void tdn_io__bvh_scratch_free(const tdn_io__bvh *bvh, void *p, size_t size)
{
    if (!p)
        return;
    if (bvh->allocator.alloc)
        bvh->allocator.free(p, size, bvh->allocator.user);
    else
        free(p);
}

static int by_name_then_line(const void *a, const void *b)
{
    const tdn_io__bvh_joint *x = *(const tdn_io__bvh_joint *const *)a, *y = *(const tdn_io__bvh_joint *const *)b;
    int order = strcmp(x->name, y->name);
    return order ? order : (x->line > y->line) - (x->line < y->line);
}

/* The skeleton refuses duplicate names; this finds them first to name the line. */
static tdn_result check_unique_names(tdn_io__bvh *bvh)
{
    const size_t bytes = sizeof(const tdn_io__bvh_joint *) * (size_t)bvh->joint_count;
    const tdn_io__bvh_joint **sorted = tdn_io__bvh_scratch(bvh, bytes);
    if (!sorted)
        return tdn_io__bvh_fail(bvh, TDN_ERR_OUT_OF_MEMORY, bvh->at.line, "out of memory for joint names");
    for (int j = 0; j < bvh->joint_count; j++)
        sorted[j] = &bvh->joints[j];
    qsort(sorted, (size_t)bvh->joint_count, sizeof *sorted, by_name_then_line);
    tdn_result r = TDN_OK;
    for (int j = 1; j < bvh->joint_count && r == TDN_OK; j++)
        if (strcmp(sorted[j - 1]->name, sorted[j]->name) == 0)
            r = tdn_io__bvh_fail(bvh, TDN_ERR_INVALID_DATA, sorted[j]->line,
                                 "joint name '%s' is already used at line %lld", sorted[j]->name, sorted[j - 1]->line);
    tdn_io__bvh_scratch_free(bvh, sorted, bytes);
    return r;
}

/* The asset's skeleton and listed joints; remap[j] receives file joint j's skeleton index.
 * Rest rotations are identities, so a joint's model-space rest matrix is a translation by the
 * sum of the offsets down to it: the inverse binds are given exactly (the negated sums, added
 * in double precision) rather than inverted. Every OFFSET is within TDN_IO_MAX_LENGTH times the
 * scale, so the sums stay finite however long the chain. */
static tdn_result build_skeleton(tdn_io__bvh *bvh, tdn_asset *asset, int *remap)
{
    const int n = bvh->joint_count;
    const size_t per_joint = sizeof(tdn_mat4) + sizeof(tdn_transform) + 3 * sizeof(double) + sizeof(const char *) +
                             2 * sizeof(int);
    tdn_mat4 *inverse_bind = tdn_io__bvh_scratch(bvh, per_joint * (size_t)n);
    if (!inverse_bind)
        return tdn_io__bvh_fail(bvh, TDN_ERR_OUT_OF_MEMORY, bvh->at.line, "out of memory for %d joints", n);
    tdn_transform *rest = (tdn_transform *)(void *)(inverse_bind + n);
    double(*position)[3] = (double(*)[3])(void *)(rest + n);
    const char **names = (const char **)(void *)(position + n);
    int *parents = (int *)(void *)(names + n), *listed = parents + n;
    for (int j = 0; j < n; j++) {
        const tdn_io__bvh_joint *joint = &bvh->joints[j];
        names[j] = joint->name;
        parents[j] = joint->parent;
        rest[j] = tdn_transform_identity();
        rest[j].t = joint->offset;
        listed[j] = j;                    /* every joint, and skeleton order is sorted */
        const int parent = joint->parent; /* parents come first */
        const double offset[3] = { joint->offset.x, joint->offset.y, joint->offset.z };
        inverse_bind[j] = tdn_mat4_identity();
        for (int i = 0; i < 3; i++) {
            position[j][i] = (parent >= 0 ? position[parent][i] : 0.0) + offset[i];
            inverse_bind[j].m[12 + i] = (float)-position[j][i];
        }
    }
    tdn_skeleton_desc desc = { .joint_count = n,
                               .names = names,
                               .parents = parents,
                               .rest_pose = rest,
                               .inverse_bind = inverse_bind,
                               .remap = remap };
    tdn_result r = tdn_skeleton_create(&desc, &asset->skeleton, &asset->allocator, bvh->err);
    if (r == TDN_OK && tdn_io__asset_set_listed_joints(asset, listed, n) != TDN_OK)
        r = tdn_io__bvh_fail(bvh, TDN_ERR_OUT_OF_MEMORY, bvh->at.line, "out of memory for the listed joints");
    tdn_io__bvh_scratch_free(bvh, inverse_bind, per_joint * (size_t)n);
    return r;
}

/* The asset's one keyed clip from the take. */
static tdn_result build_clip(tdn_io__bvh *bvh, tdn_asset *asset, const tdn_io__bvh_take *take, const int *remap,
                             const char *clip_name)
{
    const double seconds = (double)(take->frame_count - 1) * bvh->frame_time;
    if (!(seconds <= TDN_IO_MAX_TIME))
        return tdn_io__bvh_fail(bvh, TDN_ERR_INVALID_DATA, bvh->frame_time_line,
                                "%d frames of %g s last %g s, longer than tendon reads (%g s)", take->frame_count,
                                bvh->frame_time, seconds, (double)TDN_IO_MAX_TIME);
    const float duration = (float)seconds;
    asset->clips = tdn_io__asset_alloc(asset, sizeof *asset->clips);
    asset->clip_channels = tdn_io__asset_alloc(asset, sizeof *asset->clip_channels);
    const size_t bytes = sizeof(tdn_track_desc) * 2 * (size_t)bvh->joint_count;
    tdn_track_desc *tracks = tdn_io__bvh_scratch(bvh, bytes);
    if (!asset->clips || !asset->clip_channels || !tracks) {
        tdn_io__bvh_scratch_free(bvh, tracks, bytes);
        return tdn_io__bvh_fail(bvh, TDN_ERR_OUT_OF_MEMORY, bvh->at.line, "out of memory for the clip");
    }
    int count = 0;
    for (int j = 0; j < bvh->joint_count; j++) {
        const float *values[2] = { take->translations ? take->translations[j] : NULL,
                                   take->rotations ? take->rotations[j] : NULL };
        const tdn_track_target targets[2] = { TDN_TARGET_TRANSLATION, TDN_TARGET_ROTATION };
        for (int k = 0; k < 2; k++)
            if (values[k])
                tracks[count++] = (tdn_track_desc){ .joint = remap[j],
                                                    .target = targets[k],
                                                    .interp = TDN_INTERP_LINEAR,
                                                    .key_count = take->frame_count,
                                                    .times = take->times,
                                                    .values = values[k] };
    }
    tdn_keyed_clip_desc desc = { .name = clip_name ? clip_name : "take",
                                 .skeleton = asset->skeleton,
                                 .tracks = tracks,
                                 .track_count = count,
                                 .duration = duration };
    tdn_result r = tdn_keyed_clip_create(&desc, &asset->clips[0], &asset->allocator, bvh->err);
    tdn_io__bvh_scratch_free(bvh, tracks, bytes);
    if (r != TDN_OK)
        return r;
    asset->clip_count = 1;
    asset->clip_channels[0] = bvh->column_count;
    return TDN_OK;
}

/* A BVH file is text: a NUL byte would cut a joint name short where C strings end, so it is
 * refused wherever it is, naming its line. */
static tdn_result refuse_nul(const tdn_io__bvh *bvh)
{
    const char *nul = memchr(bvh->at.p, '\0', (size_t)(bvh->at.end - bvh->at.p));
    if (!nul)
        return TDN_OK;
    long long line = 1;
    for (const char *q = bvh->at.begin; q < nul; q++)
        if (*q == '\n' || (*q == '\r' && q[1] != '\n'))
            line++;
    return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, line, "a NUL byte (at byte %lld): a BVH file is text",
                            (long long)(nul - bvh->at.begin));
}

static tdn_result load(tdn_io__bvh *bvh, tdn_asset *asset, const char *clip_name)
{
    tdn_io__bvh_take take = { 0 };
    int *remap = NULL;
    tdn_result r = refuse_nul(bvh);
    if (r == TDN_OK)
        r = tdn_io__bvh_read_hierarchy(bvh);
    if (r == TDN_OK)
        r = check_unique_names(bvh);
    if (r == TDN_OK)
        r = tdn_io__bvh_read_motion_header(bvh);
    if (r == TDN_OK)
        r = tdn_io__bvh_read_frames(bvh, asset, &take);
    if (r == TDN_OK) {
        remap = tdn_io__bvh_scratch(bvh, sizeof(int) * (size_t)bvh->joint_count);
        r = remap ? build_skeleton(bvh, asset, remap)
                  : tdn_io__bvh_fail(bvh, TDN_ERR_OUT_OF_MEMORY, bvh->at.line, "out of memory for the skeleton");
    }
    if (r == TDN_OK)
        r = build_clip(bvh, asset, &take, remap, clip_name);
    tdn_io__bvh_scratch_free(bvh, remap, sizeof(int) * (size_t)bvh->joint_count);
    tdn_io__bvh_take_free(bvh, &take);
    tdn_io__bvh_scratch_free(bvh, bvh->joints, sizeof *bvh->joints * (size_t)bvh->joint_capacity);
    return r;
}

tdn_result tdn_io__bvh_load(const char *text, size_t size, const char *clip_name, const tdn_asset_load_options *options,
                            tdn_asset **out, const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!out || (!text && size > 0))
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, out ? "text" : "out", "is NULL");
    float scale;
    tdn_result r = tdn_io__import_scale(options, &scale, err);
    if (r != TDN_OK)
        return r;
    tdn_asset *asset = tdn_io__asset_new(TDN_FORMAT_BVH, allocator);
    if (!asset)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for the asset");
    if (!text)
        text = ""; /* size is 0: no arithmetic on a null pointer */
    tdn_io__bvh bvh = {
        .at = { text, text, text + size, 1 }, .err = err, .allocator = asset->allocator, .scale = scale
    };
    if (size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) /* a UTF-8 byte-order mark */
        bvh.at.p += 3;
    r = load(&bvh, asset, clip_name);
    if (r != TDN_OK) {
        tdn_asset_destroy(asset);
        return r;
    }
    *out = asset;
    return TDN_OK;
}
