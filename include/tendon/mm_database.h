/* tendon: motion matching (Clavet, "Motion Matching and The Road to Next-Gen Animation",
 * GDC 2016).
 *
 * Instead of authored transitions, the next frame is picked from a database of motion: every
 * frame of some clips (and their mirror images), resampled to one rate, described by a feature
 * vector. A query describes what the character should do (its desired future trajectory from
 * the input, and its current pose); the frame whose features are nearest (weighted squared
 * distance) plays next.
 *
 * The character's frame. Every database frame has a "simulation root": the root joint's
 * model position projected on the ground (y = 0; tendon is y-up) and its facing, the yaw of a
 * chosen local axis of the root joint projected on the ground, both smoothed over time so the
 * gait's sway does not turn the character. Features are measured in that frame: a vector is
 * turned by -facing about y, so that forward becomes +z.
 *
 * Features, per frame, in groups (each normalized by its own spread, then weighted):
 *   TDN_MM_TRAJECTORY_POSITION  ground position of the simulation root `offsets[k]` frames
 *                               ahead (2 floats per offset)
 *   TDN_MM_TRAJECTORY_FACING    its facing direction then (2 floats per offset)
 *   TDN_MM_FOOT_POSITION        both feet's model positions (3 floats each)
 *   TDN_MM_FOOT_VELOCITY        both feet's velocities, m/s (3 floats each)
 *   TDN_MM_HIP_VELOCITY         the root joint's velocity, m/s (3 floats)
 * With the default offsets (20, 40, 60 frames at 60 Hz) that is 27 floats. The database stores
 * them normalized: (raw - mean) * weight / spread, spread being the group's mean standard
 * deviation, so that a plain squared distance is the weighted cost.
 *
 * Frames within the longest offset of a clip's end (their future is unknown) and frames in
 * excluded ranges stay in the database, so playback can run through them, but a search never
 * returns them.
 *
 * Thread-safety: a database is immutable once built or loaded and can be searched from any
 * number of threads. A controller is one character's mutable state. Searches and controller
 * updates never allocate. */
#ifndef TENDON_MM_DATABASE_H
#define TENDON_MM_DATABASE_H

#include "base.h"
#include "keyed_clip.h"
#include "pose.h"
#include "skeleton.h"
#include "vecmath.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TDN_MM_MAX_OFFSETS 8
/* The most floats a feature vector may have. */
#define TDN_MM_MAX_DIMENSIONS 256

typedef enum tdn_mm_group {
    TDN_MM_TRAJECTORY_POSITION = 0,
    TDN_MM_TRAJECTORY_FACING,
    TDN_MM_FOOT_POSITION,
    TDN_MM_FOOT_VELOCITY,
    TDN_MM_HIP_VELOCITY,
    TDN_MM_GROUP_COUNT
} tdn_mm_group;

/* A span of a source clip that a search must never return (a stumble, a T-pose), in the
 * clip's seconds; both its plain and mirrored frames. */
typedef struct tdn_mm_range {
    int clip;
    float start, end;
} tdn_mm_range;

#define TDN_MM_DEFAULT_SMOOTHING 0.1f /* seconds */

typedef struct tdn_mm_database_desc {
    /* The clips and the skeleton they animate; every clip's skeleton must have the same joint
     * count and parents (the same rig loaded from several files). */
    const tdn_skeleton *skeleton;
    const tdn_keyed_clip *const *clips;
    int clip_count;
    const int *mirror_table;         /* NULL: no mirrored copies; else (a checked table, mirror.h) every
                                      * clip is added a second time mirrored */
    float sample_rate;               /* frames per second (0: 60) */
    int root;                        /* the root joint (a root of the skeleton, e.g. the hips) */
    int left_foot, right_foot;       /* joints */
    tdn_vec3 forward;                /* the root joint's local axis that points forward (0: +z) */
    int offsets[TDN_MM_MAX_OFFSETS]; /* trajectory offsets in frames, increasing (all 0: 20, 40, 60) */
    int offset_count;
    float weights[TDN_MM_GROUP_COUNT]; /* per group, each > 0 (features are stored scaled by their
                                        * weight, and the controller reads the feet back), or all
                                        * 0: 2, 2, 1, 1, 1 (the trajectory counts double, see
                                        * docs/motion-matching.md) */
    float smoothing;                   /* seconds: the Gaussian's sigma smoothing the simulation root's
                                        * position and facing (0: TDN_MM_DEFAULT_SMOOTHING; negative: none) */
    const tdn_mm_range *excluded;
    int excluded_count;
    /* Called now and then while building (fraction done in [0, 1]); may be NULL. */
    void (*progress)(void *user, float fraction);
    void *progress_user;
} tdn_mm_database_desc;

typedef struct tdn_mm_database tdn_mm_database;

/* One database frame: where it comes from and where its simulation root is (the source clip's
 * model space, on the ground). */
typedef struct tdn_mm_frame {
    int clip;       /* index into the clips the database was built from */
    int mirrored;   /* 1: the clip's mirror image */
    float time;     /* seconds into the clip */
    int searchable; /* 0: near a clip's end or excluded */
    tdn_vec3 root;  /* simulation root position (y = 0) */
    float facing;   /* its yaw, radians: forward is (sin facing, 0, cos facing) */
} tdn_mm_frame;

/* Builds a database: samples every clip (and its mirror) at the sample rate, computes the
 * features and normalizes them. Allocates once for the result through `allocator` (NULL:
 * malloc; and a few working buffers); calls progress. TDN_ERR_ARGUMENT for NULL, no clips,
 * joints out of range, a root with a parent, offsets not increasing or not positive, weights
 * negative, NaN, or 0 beside others that are not, a clip whose skeleton does not match, a bad
 * mirror table; TDN_ERR_INVALID_DATA when no frame is searchable (clips shorter than the
 * longest offset); TDN_ERR_OUT_OF_MEMORY when the allocator fails. The error names the clip or
 * field. On failure *out is NULL and nothing stays allocated. The database is immutable: any
 * number of threads may search it at once. */
TDN_API tdn_result tdn_mm_database_create(const tdn_mm_database_desc *desc, tdn_mm_database **out,
                                          const tdn_allocator *allocator, tdn_error *err);
/* Frees the database; NULL is ignored. */
TDN_API void tdn_mm_database_destroy(tdn_mm_database *db);

/* Frames the database holds (plain and mirrored); 0 for NULL. */
TDN_API int tdn_mm_database_frame_count(const tdn_mm_database *db);
/* Floats per feature vector. */
TDN_API int tdn_mm_database_dimensions(const tdn_mm_database *db);
TDN_API int tdn_mm_database_clip_count(const tdn_mm_database *db);
TDN_API float tdn_mm_database_sample_rate(const tdn_mm_database *db);
TDN_API int tdn_mm_database_offset_count(const tdn_mm_database *db);
/* Trajectory offset k in frames; 0 for a bad k. */
TDN_API int tdn_mm_database_offset(const tdn_mm_database *db, int k);
/* The joints the database was built with: its root and feet (-1 for a database made from
 * features), and the root's forward axis. */
TDN_API tdn_result tdn_mm_database_joints(const tdn_mm_database *db, int *root, int *left_foot, int *right_foot,
                                          tdn_vec3 *forward, tdn_error *err);
/* Group g's weight (0 for a bad g). */
TDN_API float tdn_mm_database_weight(const tdn_mm_database *db, tdn_mm_group g);
/* The feature index where group g starts and how many floats it has (-1 / 0 for a bad g). */
TDN_API int tdn_mm_database_group_start(const tdn_mm_database *db, tdn_mm_group g);
TDN_API int tdn_mm_database_group_size(const tdn_mm_database *db, tdn_mm_group g);
/* Frame i (TDN_ERR_ARGUMENT for a bad index). */
TDN_API tdn_result tdn_mm_database_frame(const tdn_mm_database *db, int i, tdn_mm_frame *out, tdn_error *err);
/* The first frame of a clip (mirrored or not) and how many it has; -1 / 0 when absent. Frame
 * f of that run is at time f / tdn_mm_database_sample_rate(db). */
TDN_API int tdn_mm_database_clip_first_frame(const tdn_mm_database *db, int clip, int mirrored);
TDN_API int tdn_mm_database_clip_frame_count(const tdn_mm_database *db, int clip, int mirrored);
/* Frame i's normalized features (tdn_mm_database_dimensions floats), or NULL for a bad index. */
TDN_API const float *tdn_mm_database_features(const tdn_mm_database *db, int i);
/* Normalizes raw features (tdn_mm_database_dimensions floats, laid out as above) the way the
 * database's are: out = (raw - mean) * weight / spread; out may be raw. */
TDN_API tdn_result tdn_mm_database_normalize(const tdn_mm_database *db, const float *raw, float *out, tdn_error *err);
/* The inverse: raw features back from normalized ones (a group of weight 0 comes back as its
 * mean). */
TDN_API tdn_result tdn_mm_database_denormalize(const tdn_mm_database *db, const float *normalized, float *out,
                                               tdn_error *err);

/* A database from features made elsewhere (custom features, synthetic data): frame_count
 * vectors of `dimensions` floats, already normalized, copied in. Frames are one clip (index 0)
 * at `sample_rate` (0: 60), with no simulation root; searchable NULL means every frame is. */
typedef struct tdn_mm_features_desc {
    int frame_count, dimensions;
    const float *features;
    const unsigned char *searchable;
    float sample_rate;
} tdn_mm_features_desc;
/* TDN_ERR_ARGUMENT naming the field (desc.frame_count, desc.dimensions, desc.sample_rate) when
 * one is out of range, TDN_ERR_INVALID_DATA for a feature that is not finite, as
 * tdn_mm_database_create otherwise. */
TDN_API tdn_result tdn_mm_database_create_from_features(const tdn_mm_features_desc *desc, tdn_mm_database **out,
                                                        const tdn_allocator *allocator, tdn_error *err);

/* ---- persistence: a database as bytes (the file format of `tendon mm build`) ----
 * Little-endian, versioned, checked on load: the layout, the counts against the size, every
 * number finite, every frame's clip in range, the clips' frame runs contiguous. Saving what was
 * loaded gives the same bytes. */
/* Bytes tdn_mm_database_save_memory needs. */
TDN_API size_t tdn_mm_database_save_size(const tdn_mm_database *db);
/* Writes the database into buffer (capacity bytes; TDN_ERR_OUT_OF_MEMORY when too small).
 * Files: tdn_mm_database_save and tdn_mm_database_load (io/mm_database_file.h). */
TDN_API tdn_result tdn_mm_database_save_memory(const tdn_mm_database *db, void *buffer, size_t capacity,
                                               tdn_error *err);
/* Reads a database from bytes through `allocator` (NULL: malloc; the bytes are copied; the bytes
 * may be freed after). TDN_ERR_PARSE for a wrong magic, version or truncated data,
 * TDN_ERR_INVALID_DATA for inconsistent content; the error names the byte offset or the field. */
TDN_API tdn_result tdn_mm_database_load_memory(const void *bytes, size_t size, tdn_mm_database **out,
                                               const tdn_allocator *allocator, tdn_error *err);

/* ---- search ---- */
typedef enum tdn_mm_search_mode {
    TDN_MM_SEARCH_ACCELERATED = 0, /* bounding boxes over runs of frames, pruned against the best so far */
    TDN_MM_SEARCH_BRUTE            /* every searchable frame: the reference */
} tdn_mm_search_mode;

typedef struct tdn_mm_match {
    int frame;  /* the best searchable frame, -1 when none */
    float cost; /* its squared distance to the query (with the bias when it is `current`) */
} tdn_mm_match;

/* The searchable frame nearest the normalized query (tdn_mm_database_dimensions floats). When
 * `current` is a searchable frame, its cost is lowered by `bias` (>= 0) first, so that another
 * frame must beat continuing by that much (keeps playing the current clip), and it starts the
 * search as the best so far. Both modes compute costs with the same operations in the same order, so the
 * accelerated search returns exactly the brute-force cost (on a tie, either frame). Never
 * allocates. TDN_ERR_ARGUMENT for NULL,
 * a current frame out of range, a negative or NaN bias. */
TDN_API tdn_result tdn_mm_search(const tdn_mm_database *db, const float *query, int current, float bias,
                                 tdn_mm_search_mode mode, tdn_mm_match *out, tdn_error *err);
/* tdn_mm_search with frames [skip_first, skip_end) no candidates (the current frame still
 * starts as the best): a controller skips the frames around the one playing, whose winning
 * would only jump a little back or ahead within the same motion (a stutter), so a search
 * either keeps playing or goes somewhere else. */
TDN_API tdn_result tdn_mm_search_skipping(const tdn_mm_database *db, const float *query, int current, float bias,
                                          int skip_first, int skip_end, tdn_mm_search_mode mode, tdn_mm_match *out,
                                          tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
