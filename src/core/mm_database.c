/* tendon core: the motion-matching database: its memory, accessors, normalization and the
 * search's bounding boxes. Creating one from clips is mm_database_create.c; its bytes are mm_database_memory.c. */
#include "mm_internal.h"

#include <string.h>

static int box_count(int frames, int size) { return (frames + size - 1) / size; }

tdn_mm_database *tdn__mm_database_alloc(const tdn_allocator *allocator, int frame_count, int dims, int clip_count)
{
    if (frame_count < 1 || dims < 1 || clip_count < 1 || frame_count > TDN__MM_MAX_FRAMES ||
        dims > TDN_MM_MAX_DIMENSIONS || clip_count > (1 << 20))
        return NULL;
    const int stride = (dims + 3) & ~3;
    const int small = box_count(frame_count, TDN__MM_SMALL_BOX), large = box_count(frame_count, TDN__MM_LARGE_BOX);
    const size_t row = sizeof(float) * (size_t)stride;
    size_t at = tdn__align_up(sizeof(tdn_mm_database), 64);
    const size_t mean_at = at;
    at = tdn__align_up(at + 2 * row, 64);
    const size_t clips_at = at;
    at = tdn__align_up(at + sizeof(int) * 4 * (size_t)clip_count, 64);
    const size_t frames_at = at;
    at = tdn__align_up(at + sizeof(tdn_mm_frame) * (size_t)frame_count, 64);
    const size_t features_at = at;
    at += row * (size_t)frame_count;
    const size_t boxes_at = at;
    at += row * 2 * (size_t)(small + large);

    tdn_mm_database *db = tdn__alloc(allocator, at, 64);
    if (!db)
        return NULL;
    memset(db, 0, at);
    char *base = (char *)db;
    if (allocator)
        db->allocator = *allocator;
    db->bytes = at;
    db->frame_count = frame_count;
    db->dims = dims;
    db->stride = stride;
    db->clip_count = clip_count;
    db->rate = 60.0f;
    db->root = db->left_foot = db->right_foot = -1;
    db->forward = tdn_vec3_make(0, 0, 1);
    db->mean = (float *)(base + mean_at);
    db->scale = db->mean + stride;
    db->clip_first = (int *)(base + clips_at);
    db->clip_frames = db->clip_first + 2 * clip_count;
    for (int i = 0; i < 2 * clip_count; i++)
        db->clip_first[i] = -1;
    db->frames = (tdn_mm_frame *)(base + frames_at);
    db->features = (float *)(base + features_at);
    db->small_count = small;
    db->large_count = large;
    db->small_boxes = (float *)(base + boxes_at);
    db->large_boxes = db->small_boxes + 2 * (size_t)stride * (size_t)small;
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++)
        db->group_start[g] = -1;
    for (int d = 0; d < dims; d++)
        db->scale[d] = 1.0f;
    return db;
}

/* One level of boxes: for every run of `size` frames the least and greatest of each feature
 * over its searchable frames (least > greatest when it has none). */
static void boxes_of(const tdn_mm_database *db, int size, int count, float *boxes)
{
    const int stride = db->stride;
    for (int b = 0; b < count; b++) {
        float *mn = boxes + 2 * (size_t)b * (size_t)stride, *mx = mn + stride;
        for (int d = 0; d < stride; d++)
            mn[d] = INFINITY, mx[d] = -INFINITY;
        const int end = (b + 1) * size < db->frame_count ? (b + 1) * size : db->frame_count;
        for (int i = b * size; i < end; i++) {
            if (!db->frames[i].searchable)
                continue;
            const float *f = tdn__mm_row(db, i);
            for (int d = 0; d < stride; d++) {
                mn[d] = f[d] < mn[d] ? f[d] : mn[d];
                mx[d] = f[d] > mx[d] ? f[d] : mx[d];
            }
        }
    }
}

void tdn__mm_database_boxes(tdn_mm_database *db)
{
    boxes_of(db, TDN__MM_SMALL_BOX, db->small_count, db->small_boxes);
    boxes_of(db, TDN__MM_LARGE_BOX, db->large_count, db->large_boxes);
}

int tdn__mm_clip_layout(int offset_count, int group_start[TDN_MM_GROUP_COUNT], int group_size[TDN_MM_GROUP_COUNT])
{
    const int sizes[TDN_MM_GROUP_COUNT] = { 2 * offset_count, 2 * offset_count, 6, 6, 3 };
    int at = 0;
    for (int g = 0; g < TDN_MM_GROUP_COUNT; at += sizes[g], g++)
        group_start[g] = at, group_size[g] = sizes[g];
    return at;
}

void tdn__mm_trajectory_features(const tdn_mm_database *db, tdn_vec3 here, float facing, const tdn_vec3 *ahead,
                                 const float *ahead_facing, float *raw)
{
    float *position = raw + db->group_start[TDN_MM_TRAJECTORY_POSITION],
          *direction = raw + db->group_start[TDN_MM_TRAJECTORY_FACING];
    for (int k = 0; k < db->offset_count; k++) {
        tdn_vec3 p = tdn__mm_into_root(tdn_vec3_sub(ahead[k], here), facing);
        position[2 * k] = p.x;
        position[2 * k + 1] = p.z;
        direction[2 * k] = sinf(ahead_facing[k] - facing);
        direction[2 * k + 1] = cosf(ahead_facing[k] - facing);
    }
}

tdn_result tdn__mm_database_check_ranges(const tdn_mm_database *db, tdn_error *err)
{
    for (int d = 0; d < db->dims; d++)
        if (!tdn__mm_within(db->mean[d], TDN__MM_MAX_VALUE) ||
            !(db->scale[d] >= TDN__MM_MIN_SCALE && db->scale[d] <= TDN__MM_MAX_SCALE))
            return tdn__fail(err, TDN_ERR_INVALID_DATA, "features",
                             "feature %d's mean %g or scale %g is beyond the "
                             "ranges a database keeps (|mean| <= %g, scale in [%g, %g])",
                             d, (double)db->mean[d], (double)db->scale[d], (double)TDN__MM_MAX_VALUE,
                             (double)TDN__MM_MIN_SCALE, (double)TDN__MM_MAX_SCALE);
    for (int i = 0; i < db->frame_count; i++) {
        const tdn_mm_frame *f = &db->frames[i];
        if (!(f->time >= 0.0f && f->time <= TDN__MM_MAX_TIME) || !tdn__mm_within(f->root.x, TDN__MM_MAX_VALUE) ||
            !tdn__mm_within(f->root.y, TDN__MM_MAX_VALUE) || !tdn__mm_within(f->root.z, TDN__MM_MAX_VALUE) ||
            !tdn__mm_within(f->facing, TDN__MM_MAX_FACING))
            return tdn__fail(err, TDN_ERR_INVALID_DATA, "frames",
                             "frame %d: time %g s, root (%g, %g, %g) or facing %g "
                             "beyond the ranges a database keeps (%g s, %g m)",
                             i, (double)f->time, (double)f->root.x, (double)f->root.y, (double)f->root.z,
                             (double)f->facing, (double)TDN__MM_MAX_TIME, (double)TDN__MM_MAX_VALUE);
        const float *row = tdn__mm_row(db, i);
        for (int d = 0; d < db->dims; d++)
            if (!tdn__mm_within(row[d], TDN__MM_MAX_VALUE))
                return tdn__fail(err, TDN_ERR_INVALID_DATA, "features",
                                 "frame %d, feature %d is %g: beyond +-%g, "
                                 "where every search cost would be infinite",
                                 i, d, (double)row[d], (double)TDN__MM_MAX_VALUE);
    }
    return TDN_OK;
}

void tdn_mm_database_destroy(tdn_mm_database *db)
{
    if (db) {
        tdn_allocator allocator = db->allocator;
        tdn__free(&allocator, db, db->bytes);
    }
}

tdn_result tdn_mm_database_create_from_features(const tdn_mm_features_desc *desc, tdn_mm_database **out,
                                                const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!desc || !out || !desc->features)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc", "a NULL description, output or feature array");
    if (desc->frame_count < 1 || desc->frame_count > TDN__MM_MAX_FRAMES)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.frame_count", "%d is not in 1 to %d", desc->frame_count,
                         TDN__MM_MAX_FRAMES);
    if (desc->dimensions < 1 || desc->dimensions > TDN_MM_MAX_DIMENSIONS)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.dimensions", "%d is not in 1 to %d", desc->dimensions,
                         TDN_MM_MAX_DIMENSIONS);
    if (!(desc->sample_rate >= 0.0f && desc->sample_rate <= TDN__MM_MAX_RATE))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.sample_rate", "%g is not in [0, %g]", (double)desc->sample_rate,
                         (double)TDN__MM_MAX_RATE);
    if ((double)(desc->frame_count - 1) / (desc->sample_rate > 0.0f ? desc->sample_rate : 60.0f) > TDN__MM_MAX_TIME)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.sample_rate", "%d frames at %g Hz last longer than %g s",
                         desc->frame_count, (double)desc->sample_rate, (double)TDN__MM_MAX_TIME);
    for (size_t i = 0; i < (size_t)desc->frame_count * (size_t)desc->dimensions; i++)
        if (!tdn__mm_within(desc->features[i], TDN__MM_MAX_VALUE))
            return tdn__fail(err, TDN_ERR_INVALID_DATA, "desc.features",
                             "frame %zu feature %zu (%g) is not finite "
                             "and within +-%g",
                             i / (size_t)desc->dimensions, i % (size_t)desc->dimensions, (double)desc->features[i],
                             (double)TDN__MM_MAX_VALUE);
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    tdn_mm_database *db = tdn__mm_database_alloc(allocator, desc->frame_count, desc->dimensions, 1);
    if (!db)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "database", "no memory for %d frames of %d features",
                         desc->frame_count, desc->dimensions);
    db->rate = desc->sample_rate > 0.0f ? desc->sample_rate : 60.0f;
    db->clip_first[0] = 0;
    db->clip_frames[0] = desc->frame_count;
    for (int i = 0; i < desc->frame_count; i++) {
        db->frames[i] = (tdn_mm_frame){ .clip = 0,
                                        .time = (float)i / db->rate,
                                        .searchable = desc->searchable ? desc->searchable[i] != 0 : 1 };
        memcpy(tdn__mm_row(db, i), desc->features + (size_t)i * (size_t)desc->dimensions,
               sizeof(float) * (size_t)desc->dimensions);
    }
    tdn__mm_database_boxes(db);
    *out = db;
    return TDN_OK;
}

int tdn_mm_database_frame_count(const tdn_mm_database *db) { return db ? db->frame_count : 0; }
int tdn_mm_database_dimensions(const tdn_mm_database *db) { return db ? db->dims : 0; }
int tdn_mm_database_clip_count(const tdn_mm_database *db) { return db ? db->clip_count : 0; }
float tdn_mm_database_sample_rate(const tdn_mm_database *db) { return db ? db->rate : 0.0f; }
int tdn_mm_database_offset_count(const tdn_mm_database *db) { return db ? db->offset_count : 0; }

int tdn_mm_database_offset(const tdn_mm_database *db, int k)
{
    return db && k >= 0 && k < db->offset_count ? db->offsets[k] : 0;
}

tdn_result tdn_mm_database_joints(const tdn_mm_database *db, int *root, int *left_foot, int *right_foot,
                                  tdn_vec3 *forward, tdn_error *err)
{
    if (!db)
        return tdn__null(err, "db");
    if (root)
        *root = db->root;
    if (left_foot)
        *left_foot = db->left_foot;
    if (right_foot)
        *right_foot = db->right_foot;
    if (forward)
        *forward = db->forward;
    return TDN_OK;
}

float tdn_mm_database_weight(const tdn_mm_database *db, tdn_mm_group g)
{
    return db && (int)g >= 0 && g < TDN_MM_GROUP_COUNT ? db->weights[g] : 0.0f;
}

int tdn_mm_database_group_start(const tdn_mm_database *db, tdn_mm_group g)
{
    return db && (int)g >= 0 && g < TDN_MM_GROUP_COUNT ? db->group_start[g] : -1;
}

int tdn_mm_database_group_size(const tdn_mm_database *db, tdn_mm_group g)
{
    return db && (int)g >= 0 && g < TDN_MM_GROUP_COUNT ? db->group_size[g] : 0;
}

tdn_result tdn_mm_database_frame(const tdn_mm_database *db, int i, tdn_mm_frame *out, tdn_error *err)
{
    if (!db || !out)
        return tdn__null(err, !db ? "db" : "out");
    if (i < 0 || i >= db->frame_count)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "i", "frame %d is not within 0..%d", i, db->frame_count - 1);
    *out = db->frames[i];
    return TDN_OK;
}

static int run_index(const tdn_mm_database *db, int clip, int mirrored)
{
    return db && clip >= 0 && clip < db->clip_count && (mirrored == 0 || mirrored == 1) ? clip * 2 + mirrored : -1;
}

int tdn_mm_database_clip_first_frame(const tdn_mm_database *db, int clip, int mirrored)
{
    int r = run_index(db, clip, mirrored);
    return r < 0 ? -1 : db->clip_first[r];
}

int tdn_mm_database_clip_frame_count(const tdn_mm_database *db, int clip, int mirrored)
{
    int r = run_index(db, clip, mirrored);
    return r < 0 ? 0 : db->clip_frames[r];
}

const float *tdn_mm_database_features(const tdn_mm_database *db, int i)
{
    return db && i >= 0 && i < db->frame_count ? tdn__mm_row(db, i) : NULL;
}

tdn_result tdn_mm_database_normalize(const tdn_mm_database *db, const float *raw, float *out, tdn_error *err)
{
    if (!db || !raw || !out)
        return tdn__null(err, !db ? "db" : !raw ? "raw" : "out");
    for (int d = 0; d < db->dims; d++)
        out[d] = (raw[d] - db->mean[d]) * db->scale[d];
    return TDN_OK;
}

tdn_result tdn_mm_database_denormalize(const tdn_mm_database *db, const float *normalized, float *out, tdn_error *err)
{
    if (!db || !normalized || !out)
        return tdn__null(err, !db ? "db" : !normalized ? "normalized" : "out");
    for (int d = 0; d < db->dims; d++)
        out[d] = db->scale[d] != 0.0f ? normalized[d] / db->scale[d] + db->mean[d] : db->mean[d];
    return TDN_OK;
}
