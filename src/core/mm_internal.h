/* tendon core: the motion-matching database's layout (not installed).
 *
 * One allocation holds the struct and its arrays. Features are rows of `stride` floats (dims
 * rounded up to 4, the padding 0), 16-byte aligned, in frame order, so a cost is whole
 * 4-float groups. The search's bounding boxes (Holden's, from his motion-matching demo) cover
 * runs of consecutive frames, which move smoothly, so a box is tight in every feature at
 * once: small boxes of TDN__MM_SMALL_BOX frames inside large ones of TDN__MM_LARGE_BOX. A box
 * holds its searchable frames only (one with none has least > greatest and is never entered).
 * Boxes are derived data, rebuilt on load rather than stored. */
#ifndef TENDON_MM_INTERNAL_H
#define TENDON_MM_INTERNAL_H

#include "internal.h"
#include "tendon/mm_database.h"

#define TDN__MM_SMALL_BOX 16
#define TDN__MM_LARGE_BOX 64
#define TDN__MM_MAX_FRAMES (1 << 26)

/* Ranges a database's numbers keep, built, made from features or loaded
 * (docs/motion-matching.md): far beyond real motion, near enough that times, frame indices and
 * search costs stay finite and fit an int. */
#define TDN__MM_MAX_RATE 1000.0f       /* frames per second */
#define TDN__MM_MAX_TIME 1e6f          /* seconds into a clip */
#define TDN__MM_MAX_VALUE 1e6f         /* |feature|, |mean|, |root coordinate|, weight, |forward| */
#define TDN__MM_MIN_SCALE 1e-6f        /* a normalization scale, and at most its inverse... */
#define TDN__MM_MAX_SCALE 1e10f        /* ...times the largest weight over the least spread (1e-4) */
#define TDN__MM_MAX_FACING 6.28318531f /* |facing|, radians */

/* -limit <= v <= limit (false for NaN). */
static inline int tdn__mm_within(float v, float limit) { return v >= -limit && v <= limit; }

struct tdn_mm_database {
    tdn_allocator allocator;
    size_t bytes; /* of the allocation */
    int frame_count, dims, stride, clip_count;
    float rate;
    int root, left_foot, right_foot; /* joints (-1: made from features) */
    tdn_vec3 forward;
    int offset_count;
    int offsets[TDN_MM_MAX_OFFSETS];
    int group_start[TDN_MM_GROUP_COUNT], group_size[TDN_MM_GROUP_COUNT];
    float weights[TDN_MM_GROUP_COUNT];
    float *mean, *scale;           /* dims each: normalized = (raw - mean) * scale */
    int *clip_first, *clip_frames; /* [clip * 2 + mirrored]; -1 / 0 when absent */
    tdn_mm_frame *frames;
    float *features; /* frame_count rows of stride floats */
    int small_count, large_count;
    float *small_boxes, *large_boxes; /* per box two rows of stride floats: least, greatest */
};

/* Frame i's row of features. */
static inline float *tdn__mm_row(const tdn_mm_database *db, int frame)
{
    return db->features + (size_t)frame * (size_t)db->stride;
}

/* v turned by -facing about y: into the frame of a simulation root facing that way. */
static inline tdn_vec3 tdn__mm_into_root(tdn_vec3 v, float facing)
{
    const float c = cosf(facing), s = sinf(facing);
    return tdn_vec3_make(c * v.x - s * v.z, v.y, s * v.x + c * v.z);
}

/* The inverse: v in a root's frame turned by facing about y, into the world. */
static inline tdn_vec3 tdn__mm_from_root(tdn_vec3 v, float facing)
{
    const float c = cosf(facing), s = sinf(facing);
    return tdn_vec3_make(c * v.x + s * v.z, v.y, c * v.z - s * v.x);
}

/* An angle difference wrapped into [-pi, pi]. */
static inline float tdn__mm_wrap(float a) { return a - 6.28318531f * floorf(a / 6.28318531f + 0.5f); }

/* The raw trajectory features (both trajectory groups) of a root at `here` facing `facing`
 * whose future, at the database's offsets, is at ahead[k] facing ahead_facing[k]. */
void tdn__mm_trajectory_features(const tdn_mm_database *db, tdn_vec3 here, float facing, const tdn_vec3 *ahead,
                                 const float *ahead_facing, float *raw);

/* The feature layout of a database built from clips, from its offset_count: trajectory
 * positions and facings (2 floats an offset each), foot positions and velocities (6 each), hip
 * velocity (3), in that order. Returns the number of features. */
int tdn__mm_clip_layout(int offset_count, int group_start[TDN_MM_GROUP_COUNT], int group_size[TDN_MM_GROUP_COUNT]);

/* Feature d of frame row `row` in its raw units (a built database's scales are all > 0). */
static inline float tdn__mm_raw(const tdn_mm_database *db, const float *row, int d)
{
    return row[d] / db->scale[d] + db->mean[d];
}

/* Allocates a database for these counts with every array in place (features zeroed, clip runs
 * absent, no boxes yet); NULL when the allocator fails or the sizes overflow. */
tdn_mm_database *tdn__mm_database_alloc(const tdn_allocator *allocator, int frame_count, int dims, int clip_count);

/* Fills the bounding boxes from the features and the frames' searchable flags. */
void tdn__mm_database_boxes(tdn_mm_database *db);
/* Bytes of a database's image (mm_database_memory.c) where its root, left foot and right foot
 * are, three i32, and where its frame and feature counts are, two i32. */
#define TDN__MM_IMAGE_JOINTS 32
/* Every check tdn_mm_database_load_memory makes of an image, allocating nothing: TDN_OK when
 * it would load (memory permitting), else its error ("byte N" of the image, or "size"). */
tdn_result tdn__mm_database_check_memory(const void *bytes, size_t size, tdn_error *err);

/* TDN_ERR_INVALID_DATA naming the first number of db outside the ranges above (the loader
 * checks each as it reads it, naming its byte), or TDN_OK: what the builders check they made. */
tdn_result tdn__mm_database_check_ranges(const tdn_mm_database *db, tdn_error *err);

#endif
