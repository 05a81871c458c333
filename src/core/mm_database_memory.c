/* tendon core: a motion-matching database as bytes in memory (tdn_mm_database_save_memory,
 * tdn_mm_database_load_memory).
 *
 * Layout (little-endian; every field 4 bytes unless said):
 *   "TDNMMDB\0" (8 bytes), version, frame_count, dims, clip_count, offset_count, rate (f32),
 *   root, left_foot, right_foot, forward x, y, z (f32),
 *   offsets[TDN_MM_MAX_OFFSETS], group_start[5], group_size[5], weights[5] (f32),
 *   mean[dims] (f32), scale[dims] (f32), clip_first[2 clip_count], clip_frames[2 clip_count],
 *   per frame: clip, flags (bit 0 mirrored, bit 1 searchable), time, root x, y, z, facing (f32),
 *   features[frame_count][dims] (f32).
 * Nothing is optional and nothing is padding, so the size follows from the counts and one
 * database has one byte image: saving what was loaded gives the same bytes. The bounding
 * boxes are rebuilt on load. */
#include "mm_internal.h"

#include <stdio.h>
#include <string.h>

#define MAGIC "TDNMMDB"
#define VERSION 1u
#define HEADER_WORDS (2 + 6 + 6 + TDN_MM_MAX_OFFSETS + 3 * TDN_MM_GROUP_COUNT)
#define FRAME_WORDS 7

static size_t image_size(int frame_count, int dims, int clip_count)
{
    return 4 * ((size_t)HEADER_WORDS + 2 * (size_t)dims + 4 * (size_t)clip_count +
                (size_t)frame_count * ((size_t)FRAME_WORDS + (size_t)dims));
}

size_t tdn_mm_database_save_size(const tdn_mm_database *db)
{
    return db ? image_size(db->frame_count, db->dims, db->clip_count) : 0;
}

/* ---- writing ---- */
typedef struct writer {
    unsigned char *at;
} writer;

static void put_u32(writer *w, uint32_t v)
{
    for (int b = 0; b < 4; b++)
        *w->at++ = (unsigned char)(v >> (8 * b));
}
static void put_i32(writer *w, int v) { put_u32(w, (uint32_t)v); }
static void put_f32(writer *w, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    put_u32(w, v);
}

tdn_result tdn_mm_database_save_memory(const tdn_mm_database *db, void *buffer, size_t capacity, tdn_error *err)
{
    if (!db || !buffer)
        return tdn__null(err, !db ? "db" : "buffer");
    if (capacity < tdn_mm_database_save_size(db))
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "capacity",
                         "%zu bytes, the database needs %zu (tdn_mm_database_save_size)", capacity,
                         tdn_mm_database_save_size(db));
    writer w = { buffer };
    memcpy(w.at, MAGIC, 8);
    w.at += 8;
    put_u32(&w, VERSION);
    put_i32(&w, db->frame_count);
    put_i32(&w, db->dims);
    put_i32(&w, db->clip_count);
    put_i32(&w, db->offset_count);
    put_f32(&w, db->rate);
    put_i32(&w, db->root);
    put_i32(&w, db->left_foot);
    put_i32(&w, db->right_foot);
    put_f32(&w, db->forward.x);
    put_f32(&w, db->forward.y);
    put_f32(&w, db->forward.z);
    for (int k = 0; k < TDN_MM_MAX_OFFSETS; k++)
        put_i32(&w, db->offsets[k]);
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++)
        put_i32(&w, db->group_start[g]);
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++)
        put_i32(&w, db->group_size[g]);
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++)
        put_f32(&w, db->weights[g]);
    for (int d = 0; d < db->dims; d++)
        put_f32(&w, db->mean[d]);
    for (int d = 0; d < db->dims; d++)
        put_f32(&w, db->scale[d]);
    for (int r = 0; r < 2 * db->clip_count; r++)
        put_i32(&w, db->clip_first[r]);
    for (int r = 0; r < 2 * db->clip_count; r++)
        put_i32(&w, db->clip_frames[r]);
    for (int i = 0; i < db->frame_count; i++) {
        const tdn_mm_frame *f = &db->frames[i];
        put_i32(&w, f->clip);
        put_u32(&w, (uint32_t)(f->mirrored ? 1 : 0) | (uint32_t)(f->searchable ? 2 : 0));
        put_f32(&w, f->time);
        put_f32(&w, f->root.x);
        put_f32(&w, f->root.y);
        put_f32(&w, f->root.z);
        put_f32(&w, f->facing);
    }
    for (int i = 0; i < db->frame_count; i++)
        for (int d = 0; d < db->dims; d++)
            put_f32(&w, tdn__mm_row(db, i)[d]);
    return TDN_OK;
}

/* ---- reading ---- */
typedef struct reader {
    const unsigned char *start, *at;
} reader;

static uint32_t get_u32(reader *r)
{
    uint32_t v = 0;
    for (int b = 0; b < 4; b++)
        v |= (uint32_t)r->at[b] << (8 * b);
    r->at += 4;
    return v;
}
static int get_i32(reader *r) { return (int)(int32_t)get_u32(r); }
static float get_f32(reader *r)
{
    uint32_t v = get_u32(r);
    float f;
    memcpy(&f, &v, 4);
    return f;
}

/* An error at the field that ends where the reader is and began `back` bytes before. */
static tdn_result bad(tdn_error *err, const reader *r, long back, const char *fmt, const char *what, long a, long b)
{
    char where[48];
    snprintf(where, sizeof where, "byte %ld", (long)(r->at - r->start) - back);
    return tdn__fail(err, TDN_ERR_INVALID_DATA, where, fmt, what, a, b);
}

/* Frame runs: each present run inside the frames, of its clip and mirror, the runs covering
 * every frame once. */
static tdn_result check_runs(const tdn_mm_database *db, tdn_error *err)
{
    long covered = 0;
    for (int run = 0; run < 2 * db->clip_count; run++) {
        const int first = db->clip_first[run], count = db->clip_frames[run];
        if (first == -1 && count == 0)
            continue;
        if (first < 0 || count < 1 || first > db->frame_count - count)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, "clip runs",
                             "run %d (clip %d%s) has %d frames from frame %d, out of the %d frames", run, run / 2,
                             run % 2 ? " mirrored" : "", count, first, db->frame_count);
        for (int i = first; i < first + count; i++)
            if (db->frames[i].clip != run / 2 || db->frames[i].mirrored != run % 2)
                return tdn__fail(err, TDN_ERR_INVALID_DATA, "clip runs", "frame %d is not clip %d%s as its run says", i,
                                 run / 2, run % 2 ? " mirrored" : "");
        covered += count;
    }
    if (covered != db->frame_count)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, "clip runs", "runs cover %ld frames of %d", covered,
                         db->frame_count);
    return TDN_OK;
}

tdn_result tdn_mm_database_load_memory(const void *bytes, size_t size, tdn_mm_database **out,
                                       const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!bytes || !out)
        return tdn__null(err, !bytes ? "bytes" : "out");
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    reader r = { bytes, bytes };
    if (size < 4 * (size_t)HEADER_WORDS || memcmp(bytes, MAGIC, 8) != 0)
        return tdn__fail(err, TDN_ERR_PARSE, "byte 0", "not a tendon motion-matching database (no \"%s\" header)",
                         MAGIC);
    r.at += 8;
    const uint32_t version = get_u32(&r);
    if (version != VERSION)
        return tdn__fail(err, TDN_ERR_PARSE, "byte 8", "database version %u; this tendon reads version %u", version,
                         VERSION);
    const int frame_count = get_i32(&r), dims = get_i32(&r), clip_count = get_i32(&r), offset_count = get_i32(&r);
    if (frame_count < 1 || frame_count > (1 << 26) || dims < 1 || dims > TDN_MM_MAX_DIMENSIONS || clip_count < 1 ||
        clip_count > (1 << 20) || offset_count < 0 || offset_count > TDN_MM_MAX_OFFSETS)
        return tdn__fail(err, TDN_ERR_PARSE, "byte 12", "counts out of range: %d frames, %d dims, %d clips, %d offsets",
                         frame_count, dims, clip_count, offset_count);
    const size_t expected = image_size(frame_count, dims, clip_count);
    if (size != expected)
        return tdn__fail(err, TDN_ERR_PARSE, "size", "%zu bytes; %d frames of %d features and %d clips make %zu", size,
                         frame_count, dims, clip_count, expected);
    tdn_mm_database *db = tdn__mm_database_alloc(allocator, frame_count, dims, clip_count);
    if (!db)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "database", "no memory for %d frames of %d features", frame_count,
                         dims);
    tdn_result res = TDN_OK;
    db->offset_count = offset_count;
    db->rate = get_f32(&r);
    if (!(db->rate > 0.0f && db->rate <= TDN__MM_MAX_RATE)) {
        res = bad(err, &r, 4, "%s must be above %ld and at most %ld frames a second", "rate", 0,
                  (long)TDN__MM_MAX_RATE);
        goto fail;
    }
    db->root = get_i32(&r);
    db->left_foot = get_i32(&r);
    db->right_foot = get_i32(&r);
    if (db->root < -1 || db->left_foot < -1 || db->right_foot < -1 || db->root >= TDN_MAX_JOINTS ||
        db->left_foot >= TDN_MAX_JOINTS || db->right_foot >= TDN_MAX_JOINTS) {
        res = bad(err, &r, 12, "%s: joints %ld.. out of range (%ld)", "root and feet", db->root, TDN_MAX_JOINTS);
        goto fail;
    }
    db->forward.x = get_f32(&r);
    db->forward.y = get_f32(&r);
    db->forward.z = get_f32(&r);
    if (!tdn__mm_within(db->forward.x, TDN__MM_MAX_VALUE) || !tdn__mm_within(db->forward.y, TDN__MM_MAX_VALUE) ||
        !tdn__mm_within(db->forward.z, TDN__MM_MAX_VALUE)) {
        res = bad(err, &r, 12, "%s is not within +-%ld", "forward", (long)TDN__MM_MAX_VALUE, 0);
        goto fail;
    }
    for (int k = 0; k < TDN_MM_MAX_OFFSETS; k++) {
        db->offsets[k] = get_i32(&r);
        int ok = k < offset_count ? db->offsets[k] > (k > 0 ? db->offsets[k - 1] : 0) : db->offsets[k] == 0;
        if (!ok) {
            res = bad(err, &r, 4, "%s %ld is %ld: offsets increase from 1, unused ones are 0", "offset", k,
                      db->offsets[k]);
            goto fail;
        }
    }
    /* the groups are derived data, stored for readers of the file: a database built from clips
     * has the layout its offsets give (what the controller reads its feet and trajectory
     * from), one made from features none */
    int layout_start[TDN_MM_GROUP_COUNT], layout_size[TDN_MM_GROUP_COUNT];
    const int layout_dims = tdn__mm_clip_layout(offset_count, layout_start, layout_size);
    if (db->root >= 0 && dims != layout_dims) {
        res = bad(err, &r, 0, "%s: %ld features, but %ld offsets make a layout of another size", "dims", dims,
                  offset_count);
        goto fail;
    }
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++)
        db->group_start[g] = get_i32(&r);
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++) {
        db->group_size[g] = get_i32(&r);
        const int start = db->group_start[g], count = db->group_size[g];
        const int ok = db->root >= 0 ? start == layout_start[g] && count == layout_size[g] : start == -1 && count == 0;
        if (!ok) {
            res = bad(err, &r, 4, "%s %ld (size %ld) is not where the database's offsets put it", "group", g, count);
            goto fail;
        }
    }
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++) {
        db->weights[g] = get_f32(&r);
        if (!(db->weights[g] >= 0.0f && db->weights[g] <= TDN__MM_MAX_VALUE)) {
            res = bad(err, &r, 4, "%s %ld is not in [0, %ld]", "weight", g, (long)TDN__MM_MAX_VALUE);
            goto fail;
        }
    }
    for (int d = 0; d < 2 * dims; d++) {
        float v = get_f32(&r);
        (d < dims ? db->mean : db->scale)[d % dims] = v;
        if (d < dims ? !tdn__mm_within(v, TDN__MM_MAX_VALUE) : !(v >= TDN__MM_MIN_SCALE && v <= TDN__MM_MAX_SCALE)) {
            res = d < dims
                      ? bad(err, &r, 4, "%s %ld is not within +-%ld", "mean", d, (long)TDN__MM_MAX_VALUE)
                      : bad(err, &r, 4, "%s %ld is not in [1e-6, %ld]", "scale", d - dims, (long)TDN__MM_MAX_SCALE);
            goto fail;
        }
    }
    for (int i = 0; i < 2 * clip_count; i++)
        db->clip_first[i] = get_i32(&r);
    for (int i = 0; i < 2 * clip_count; i++)
        db->clip_frames[i] = get_i32(&r);
    for (int i = 0; i < frame_count; i++) {
        tdn_mm_frame *f = &db->frames[i];
        f->clip = get_i32(&r);
        const uint32_t flags = get_u32(&r);
        f->mirrored = (int)(flags & 1u);
        f->searchable = (int)((flags >> 1) & 1u);
        f->time = get_f32(&r);
        f->root.x = get_f32(&r);
        f->root.y = get_f32(&r);
        f->root.z = get_f32(&r);
        f->facing = get_f32(&r);
        if (f->clip < 0 || f->clip >= clip_count || flags > 3u || !(f->time >= 0.0f && f->time <= TDN__MM_MAX_TIME) ||
            !tdn__mm_within(f->root.x, TDN__MM_MAX_VALUE) || !tdn__mm_within(f->root.y, TDN__MM_MAX_VALUE) ||
            !tdn__mm_within(f->root.z, TDN__MM_MAX_VALUE) || !tdn__mm_within(f->facing, TDN__MM_MAX_FACING)) {
            res = bad(err, &r, 28,
                      "%s %ld: a clip out of range (%ld), unknown flags, or a time, root or facing beyond "
                      "the database's ranges",
                      "frame", i, f->clip);
            goto fail;
        }
    }
    for (int i = 0; i < frame_count; i++)
        for (int d = 0; d < dims; d++) {
            float v = get_f32(&r);
            if (!tdn__mm_within(v, TDN__MM_MAX_VALUE)) {
                res = bad(err, &r, 4,
                          "%s of frame %ld, feature %ld, is not within +-1e6 (every cost would be infinite)", "value",
                          i, d);
                goto fail;
            }
            tdn__mm_row(db, i)[d] = v;
        }
    res = check_runs(db, err);
    if (res != TDN_OK)
        goto fail;
    tdn__mm_database_boxes(db);
    *out = db;
    return TDN_OK;
fail:
    tdn_mm_database_destroy(db);
    return res;
}
