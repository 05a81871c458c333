/* tendon: a motion-matching character controller.
 *
 * Each update:
 *   1. the simulated character moves: its ground velocity follows the desired velocity and
 *      its facing the desired facing, each through a critically damped spring with a
 *      half-life (the spring covers half of a step change in exactly that time);
 *   2. playback advances through the database's current clip, and the character (its root on
 *      the ground and its facing) moves by the clip's own root motion, then is pulled towards
 *      the simulated character with a half-life so the two never drift apart (along the
 *      ground at most half as fast as the clip moves it: a standing character never slides);
 *   3. every `search_interval` seconds, at once when the desired velocity or facing jumps, and
 *      when the clip runs out of searchable frames, the database is searched with the query:
 *      the springs' predicted trajectory at the database's offsets (relative to the simulated
 *      character now) and the pose features of the frame playing now; the frames just around
 *      the playing one are passed over. When another frame wins (by more than `bias`), playback
 *      jumps there and an inertializer hides the switch;
 *   4. the pose is the clip's pose at the playback time with the root joint placed in the
 *      world: its offset from the clip's simulation root turned to the character's facing;
 *   5. with foot locking, the feet in contact are held on the ground where they were planted.
 * The world is y-up, positions in the clips' units (metres with a BVH import scale of 0.01).
 *
 * Memory: everything is allocated at creation, as one block (or placed in caller memory by
 * tdn_mm_controller_init); updates never allocate. A controller is one
 * character's state, used by one thread at a time; the database and clips are shared. */
#ifndef TENDON_MM_CONTROLLER_H
#define TENDON_MM_CONTROLLER_H

#include "base.h"
#include "foot_placement.h"
#include "inertialize.h"
#include "keyed_clip.h"
#include "mm_database.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TDN_MM_DEFAULT_SEARCH_INTERVAL 0.1f /* seconds */

typedef struct tdn_mm_controller_desc {
    const tdn_mm_database *database;    /* built from clips (it knows the root and feet) */
    const tdn_skeleton *skeleton;       /* the clips' skeleton */
    const tdn_keyed_clip *const *clips; /* the database's clips, in the same order */
    int clip_count;
    const int *mirror_table; /* the table the database was built with; needed when it
                              * has mirrored frames */
    float search_interval;   /* seconds between searches (0: TDN_MM_DEFAULT_SEARCH_INTERVAL) */
    float bias;              /* cost another frame must beat continuing by (>= 0) */
    float inertialize_time;  /* seconds a switch is hidden over (0: 0.2) */
    tdn_inertia_curve curve;
    float velocity_half_life; /* of the simulated character's velocity (0: 0.2) */
    float facing_half_life;   /* of its facing (0: 0.2) */
    float adjust_half_life;   /* the character pulled towards the simulation (0: 0.15;
                               * negative: never) */
    float adjust_max_ratio;   /* the pull moves the character along the ground at most
                               * this fraction of the clip's own motion this frame, so
                               * a standing character is never slid (0: 1;
                               * negative: no limit); its facing is pulled freely */
    float skip_window;        /* seconds around the playing frame, in its clip, that a
                               * search passes over (a winner there would only stutter
                               * back or ahead; 0: 0.35; negative: none) */
    float sharp_velocity;     /* a desired-velocity change (m/s) searching at once (0: 1) */
    float sharp_facing;       /* a desired-facing change (radians) searching at once (0: 0.5) */
    /* A foot is in contact (status.contact) while the playing frame has it within
     * contact_height of its ground (the 5th percentile of its height over the database) and
     * slower than contact_speed along the ground (0: 0.05 and 0.5, units of metres). */
    float contact_height, contact_speed;
    /* Foot locking (foot_placement.h): each foot in contact is held where it was planted, by
     * two-bone IK on its leg (the foot's parent and grandparent), on the ground of `ground`
     * (NULL: the plane y = 0), so the pull towards the simulation and the blends of switches
     * do not slide planted feet. */
    int foot_locking;
    tdn_ground_query ground;
    void *ground_user;
} tdn_mm_controller_desc;

/* What the character is asked to do this frame: a ground velocity (world, y ignored, units per
 * second) and a facing (yaw, radians: forward is (sin facing, 0, cos facing)). */
typedef struct tdn_mm_input {
    tdn_vec3 velocity;
    float facing;
} tdn_mm_input;

typedef struct tdn_mm_status {
    int frame;              /* the database frame playing */
    int clip, mirrored;     /* its clip, and whether mirrored */
    float time;             /* seconds into that clip */
    int contact[2];         /* left and right foot in contact (see the desc) */
    int searched, switched; /* this update searched; it jumped to another frame */
    float cost;             /* the last search's best cost */
    tdn_vec3 position;      /* the character: its root on the ground (y = 0) */
    float facing;
    tdn_vec3 simulated; /* the simulated character */
    float simulated_facing;
} tdn_mm_status;

typedef struct tdn_mm_controller tdn_mm_controller;

/* Creates a controller through `allocator` (NULL: malloc). TDN_ERR_ARGUMENT (naming the field)
 * for NULL, a database made from features, clips that do
 * not match the database (count, or a skeleton with another joint count), a missing mirror
 * table for a database with mirrored frames, negative or NaN settings. */
TDN_API tdn_result tdn_mm_controller_create(const tdn_mm_controller_desc *desc, tdn_mm_controller **out,
                                            const tdn_allocator *allocator, tdn_error *err);
/* Frees a created controller; NULL and one from tdn_mm_controller_init are left alone. */
TDN_API void tdn_mm_controller_destroy(tdn_mm_controller *c);

/* Bytes tdn_mm_controller_init needs for this description (0 without a database, skeleton or
 * clips): for a controller inside memory its owner already has (a graph instance's). */
TDN_API size_t tdn_mm_controller_bytes(const tdn_mm_controller_desc *desc);
/* Alignment of the memory tdn_mm_controller_init takes. */
#define TDN_MM_CONTROLLER_ALIGN 64

/* tdn_mm_controller_create in caller memory: TDN_MM_CONTROLLER_ALIGN-aligned, at least
 * tdn_mm_controller_bytes(desc) bytes, used until the caller stops using the controller
 * (nothing to destroy). The same errors as create, and
 * TDN_ERR_OUT_OF_MEMORY when `bytes` is too small. */
TDN_API tdn_result tdn_mm_controller_init(const tdn_mm_controller_desc *desc, void *memory, size_t bytes,
                                          tdn_mm_controller **out, tdn_error *err);

/* Starts over at database frame `frame`, the character and the simulation standing at
 * `position` (y ignored) facing `facing`, at rest. TDN_ERR_ARGUMENT for a bad frame or
 * non-finite numbers. */
TDN_API tdn_result tdn_mm_controller_reset(tdn_mm_controller *c, int frame, tdn_vec3 position, float facing,
                                           tdn_error *err);

/* One frame of dt seconds (>= 0): see the top of this file. Writes the pose (joint count of
 * the skeleton) and, when status is not NULL, what happened. TDN_ERR_ARGUMENT for NULL, a
 * pose of another joint count, non-finite input or dt. Never allocates. */
TDN_API tdn_result tdn_mm_controller_update(tdn_mm_controller *c, const tdn_mm_input *input, float dt, tdn_pose *pose,
                                            tdn_mm_status *status, tdn_error *err);

/* Moves the controller's whole world by `offset` (y ignored): the character, the simulation,
 * its predicted trajectory, the poses it remembers and the feet it holds locked. What it plays and every quantity
 * relative to the character stay as they were. For keeping a long-running character near the
 * origin, where floats are finest: a float position far out (0.5 mm apart at 4 km) rounds
 * every step it takes; a shift by a multiple of a power of two at least as coarse as the
 * positions' spacing is exact. TDN_ERR_ARGUMENT for NULL or a non-finite offset. */
TDN_API tdn_result tdn_mm_controller_translate(tdn_mm_controller *c, tdn_vec3 offset, tdn_error *err);

/* The simulated character's predicted future at the database's trajectory offsets (world
 * positions on the ground and facings), as the last update's query used them; count entries
 * at most (the database's offset count). Returns how many were written. */
TDN_API int tdn_mm_controller_trajectory(const tdn_mm_controller *c, tdn_vec3 *positions, float *facings, int count);

/* The normalized query of the last search (tdn_mm_database_dimensions floats), or NULL before the
 * first search. */
TDN_API const float *tdn_mm_controller_query(const tdn_mm_controller *c);

#ifdef __cplusplus
}
#endif
#endif
