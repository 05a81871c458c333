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
 * boxes are rebuilt on load. tdn__mm_database_check_memory makes the same checks allocating
 * nothing (how a pack checks the databases it holds at open). */
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

/* The byte where the image's clip runs start (clip_first, then clip_frames) and where its
 * frame records start (FRAME_WORDS words each). */
static size_t runs_at(int dims) { return 4 * ((size_t)HEADER_WORDS + 2 * (size_t)dims); }
static size_t frames_at(int dims, int clip_count) { return runs_at(dims) + 16 * (size_t)clip_count; }
static int32_t word_at(const unsigned char *bytes, size_t at)
{
    reader r = { bytes, bytes + at };
    return get_i32(&r);
}

/* Frame runs, read where they lie in the image (so they are checked before anything is
 * allocated): each present run inside the frames, of its clip and mirror, the runs covering
 * every frame once. */
static tdn_result check_runs(const unsigned char *bytes, int frame_count, int dims, int clip_count, tdn_error *err)
{
    long covered = 0;
    const size_t runs = runs_at(dims), frames = frames_at(dims, clip_count);
    for (int run = 0; run < 2 * clip_count; run++) {
        const size_t at = runs + 4 * (size_t)run;
        const int first = word_at(bytes, at), count = word_at(bytes, at + 8 * (size_t)clip_count);
        const reader here = { bytes, bytes + at + 4 };
        if (first == -1 && count == 0)
            continue;
        if (first < 0 || count < 1 || first > frame_count - count)
            return bad(err, &here, 4, "clip runs: %s %ld has %ld frames, or starts outside the frames", "run", run,
                       count);
        for (int i = first; i < first + count; i++) {
            const size_t frame = frames + 4 * (size_t)FRAME_WORDS * (size_t)i;
            const int clip = word_at(bytes, frame), mirrored = word_at(bytes, frame + 4) & 1;
            if (clip != run / 2 || mirrored != run % 2) {
                const reader there = { bytes, bytes + frame + 4 };
                return bad(err, &there, 4, "clip runs: %s %ld is not the clip and mirror its run (%ld) says", "frame",
                           i, run);
            }
        }
        covered += count;
    }
    if (covered != frame_count) {
        const reader here = { bytes, bytes + runs };
        return bad(err, &here, 0, "clip runs: %s cover %ld frames of %ld", "runs", covered, frame_count);
    }
    return TDN_OK;
}

/* The image's magic, version and counts (frames, dims, clips, offsets), checked, and its size
 * against them. */
static tdn_result read_counts(const unsigned char *bytes, size_t size, int counts[4], tdn_error *err)
{
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
    counts[0] = frame_count, counts[1] = dims, counts[2] = clip_count, counts[3] = offset_count;
    return TDN_OK;
}

/* Reads the image of `size` bytes, checking every field in order; into `db` (allocated for its
 * counts), or with db NULL only checks, allocating nothing. */
static tdn_result read_image(const unsigned char *bytes, size_t size, tdn_mm_database *db, tdn_error *err)
{
    int counts[4];
    const tdn_result counted = read_counts(bytes, size, counts, err);
    if (counted != TDN_OK)
        return counted;
    const int frame_count = counts[0], dims = counts[1], clip_count = counts[2], offset_count = counts[3];
    reader r = { bytes, bytes + 28 };                       /* after the counts */
    tdn_mm_database header = { 0 }, *h = db ? db : &header; /* the scalars; the arrays only into db */
    h->offset_count = offset_count;
    h->rate = get_f32(&r);
    if (!(h->rate > 0.0f && h->rate <= TDN__MM_MAX_RATE))
        return bad(err, &r, 4, "%s must be above %ld and at most %ld frames a second", "rate", 0,
                   (long)TDN__MM_MAX_RATE);
    h->root = get_i32(&r);
    h->left_foot = get_i32(&r);
    h->right_foot = get_i32(&r);
    if (h->root < -1 || h->left_foot < -1 || h->right_foot < -1 || h->root >= TDN_MAX_JOINTS ||
        h->left_foot >= TDN_MAX_JOINTS || h->right_foot >= TDN_MAX_JOINTS)
        return bad(err, &r, 12, "%s: joints %ld.. out of range (%ld)", "root and feet", h->root, TDN_MAX_JOINTS);
    h->forward.x = get_f32(&r);
    h->forward.y = get_f32(&r);
    h->forward.z = get_f32(&r);
    if (!tdn__mm_within(h->forward.x, TDN__MM_MAX_VALUE) || !tdn__mm_within(h->forward.y, TDN__MM_MAX_VALUE) ||
        !tdn__mm_within(h->forward.z, TDN__MM_MAX_VALUE))
        return bad(err, &r, 12, "%s is not within +-%ld", "forward", (long)TDN__MM_MAX_VALUE, 0);
    for (int k = 0; k < TDN_MM_MAX_OFFSETS; k++) {
        h->offsets[k] = get_i32(&r);
        int ok = k < offset_count ? h->offsets[k] > (k > 0 ? h->offsets[k - 1] : 0) : h->offsets[k] == 0;
        if (!ok)
            return bad(err, &r, 4, "%s %ld is %ld: offsets increase from 1, unused ones are 0", "offset", k,
                       h->offsets[k]);
    }
    /* the groups are derived data, stored for readers of the file: a database built from clips
     * has the layout its offsets give (what the controller reads its feet and trajectory
     * from), one made from features none */
    int layout_start[TDN_MM_GROUP_COUNT], layout_size[TDN_MM_GROUP_COUNT];
    const int layout_dims = tdn__mm_clip_layout(offset_count, layout_start, layout_size);
    if (h->root >= 0 && dims != layout_dims)
        return bad(err, &r, 0, "%s: %ld features, but %ld offsets make a layout of another size", "dims", dims,
                   offset_count);
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++)
        h->group_start[g] = get_i32(&r);
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++) {
        h->group_size[g] = get_i32(&r);
        const int start = h->group_start[g], count = h->group_size[g];
        const int ok = h->root >= 0 ? start == layout_start[g] && count == layout_size[g] : start == -1 && count == 0;
        if (!ok)
            return bad(err, &r, 4, "%s %ld (size %ld) is not where the database's offsets put it", "group", g, count);
    }
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++) {
        h->weights[g] = get_f32(&r);
        if (!(h->weights[g] >= 0.0f && h->weights[g] <= TDN__MM_MAX_VALUE))
            return bad(err, &r, 4, "%s %ld is not in [0, %ld]", "weight", g, (long)TDN__MM_MAX_VALUE);
    }
    for (int d = 0; d < 2 * dims; d++) {
        float v = get_f32(&r);
        if (db)
            (d < dims ? db->mean : db->scale)[d % dims] = v;
        if (d < dims ? !tdn__mm_within(v, TDN__MM_MAX_VALUE) : !(v >= TDN__MM_MIN_SCALE && v <= TDN__MM_MAX_SCALE))
            return d < dims
                       ? bad(err, &r, 4, "%s %ld is not within +-%ld", "mean", d, (long)TDN__MM_MAX_VALUE)
                       : bad(err, &r, 4, "%s %ld is not in [1e-6, %ld]", "scale", d - dims, (long)TDN__MM_MAX_SCALE);
    }
    for (int i = 0; i < 4 * clip_count; i++) { /* the runs, checked below where they lie */
        const int v = get_i32(&r);
        if (db)
            (i < 2 * clip_count ? db->clip_first : db->clip_frames)[i % (2 * clip_count)] = v;
    }
    for (int i = 0; i < frame_count; i++) {
        tdn_mm_frame frame, *f = db ? &db->frames[i] : &frame;
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
            !tdn__mm_within(f->root.z, TDN__MM_MAX_VALUE) || !tdn__mm_within(f->facing, TDN__MM_MAX_FACING))
            return bad(err, &r, 28,
                       "%s %ld: a clip out of range (%ld), unknown flags, or a time, root or facing beyond "
                       "the database's ranges",
                       "frame", i, f->clip);
    }
    for (int i = 0; i < frame_count; i++)
        for (int d = 0; d < dims; d++) {
            float v = get_f32(&r);
            if (!tdn__mm_within(v, TDN__MM_MAX_VALUE))
                return bad(err, &r, 4,
                           "%s of frame %ld, feature %ld, is not within +-1e6 (every cost would be infinite)", "value",
                           i, d);
            if (db)
                tdn__mm_row(db, i)[d] = v;
        }
    return check_runs(bytes, frame_count, dims, clip_count, err);
}

tdn_result tdn__mm_database_check_memory(const void *bytes, size_t size, tdn_error *err)
{
    return read_image(bytes, size, NULL, err);
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
    /* the counts say what to allocate; then one pass reads and checks the rest into it */
    int counts[4];
    tdn_result res = read_counts(bytes, size, counts, err);
    if (res != TDN_OK)
        return res;
    tdn_mm_database *db = tdn__mm_database_alloc(allocator, counts[0], counts[1], counts[2]);
    if (!db)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "database", "no memory for %d frames of %d features", counts[0],
                         counts[1]);
    res = read_image(bytes, size, db, err);
    if (res != TDN_OK) {
        tdn_mm_database_destroy(db);
        return res;
    }
    tdn__mm_database_boxes(db);
    *out = db;
    return TDN_OK;
}
