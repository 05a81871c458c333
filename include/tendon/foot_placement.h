/* tendon: foot placement, the feet of an animated character on the ground it stands on.
 *
 * An animation is made for flat ground: the plane through the origin of the character's frame
 * (its model space, the frame the caller places in the world with a matrix), perpendicular to
 * `up`. Foot placement fits the pose to the real ground, once per frame after the pose is
 * evaluated and its model space computed:
 *   1. per leg, a ray straight down (along -up) from above the animated ankle, asked of the
 *      caller's ground callback in world space (the character's world matrix places it);
 *   2. per leg, the ankle's target: the point the ray hit, then along the ground normal (as far
 *      as the foot may tilt, below) by the ankle's animated height above the animation's
 *      ground, so a foot keeps its animated height above the real ground (a planted foot, at its
 *      rest height, stands on it; a swinging foot swings as high above it as animated);
 *   3. the pelvis lowered (never raised) by the most any ankle target lies below its animated
 *      place, so the lowest leg keeps its animated reach and the others bend to reach up;
 *   4. per leg, analytic two-bone IK (tdn_ik_two_bone) plants the ankle at its target, the
 *      knee bending to the side it bends to now (or towards `forward` when the leg is straight);
 *   5. per leg, the foot turned from the animation's up to the ground normal, at most
 *      `max_tilt`, keeping its animated orientation otherwise (heel and ball both on a slope);
 *   6. foot locking: while a foot is in contact (the caller's contact value >= 0.5, from a
 *      clip's contact curve or a parameter), its ankle is held, along the ground, at the world
 *      position where it was planted, until contact ends or the animation has moved on from it
 *      by more than `lock_distance`; this removes foot skate (the animated foot sliding while
 *      it should stand). Along `up` a locked foot still follows the ground.
 * Ground heights, normals and the pelvis offset are smoothed by critically damped springs with
 * an exact half-life (the spring of graph parameters), and a released lock's offset decays
 * with the same spring from the speed it had, so nothing snaps when the ground changes under a
 * foot or a lock lets go. A weight fades everything (0: the pose is left as it is, bit for
 * bit, while the smoothing state keeps following the ground so that fading in does not snap).
 *
 * Instance: one tdn_foot_placement per character, set up once (its legs found, their lengths
 * and the defaults measured from the skeleton's rest pose) in caller memory
 * (tdn_foot_placement_init) or allocated once (tdn_foot_placement_create), like every tendon
 * instance. It refers to the skeleton, which must outlive it. Functions are thread-safe for
 * distinct instances and poses; one instance is used by one thread at a time. Only create
 * allocates; the solve never allocates and calls nothing but libm and the ground callback. */
#ifndef TENDON_FOOT_PLACEMENT_H
#define TENDON_FOOT_PLACEMENT_H

#include "base.h"
#include "pose.h"
#include "skeleton.h"
#include "vecmath.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TDN_FOOT_MAX_LEGS 4
/* Alignment of the memory tdn_foot_placement_init takes. */
#define TDN_FOOT_PLACEMENT_ALIGN 16

/* The ground under a ray, in world space: the first surface point `hit` and its unit `normal`
 * (facing up, against the ray) within max_distance of `from` along unit `direction`. Returns
 * non-zero when it found one, 0 for none (the foot is then placed on the animation's own
 * ground). Called once per leg per solve, from the thread that solves. A hit or normal that is
 * not finite, or a normal that does not face against the ray, counts as none. */
typedef int (*tdn_ground_query)(void *user, tdn_vec3 from, tdn_vec3 direction, float max_distance, tdn_vec3 *hit,
                                tdn_vec3 *normal);

/* One leg: a two-bone chain upper -> middle -> end (hip, knee, ankle), as tdn_ik_two_bone_job. */
typedef struct tdn_foot_leg {
    int upper, middle, end;
} tdn_foot_leg;

/* Zero-initialisable apart from the skeleton and the legs. Lengths are in skeleton units; L below is the
 * longest leg's length at rest (upper to middle plus middle to end). */
typedef struct tdn_foot_placement_desc {
    const tdn_skeleton *skeleton; /* required; must outlive the instance */
    int leg_count;                /* 1..TDN_FOOT_MAX_LEGS */
    tdn_foot_leg legs[TDN_FOOT_MAX_LEGS];
    int pelvis;             /* the joint lowered (its local translation): an
                             * ancestor of every leg's upper joint; 0: the legs'
                             * nearest common ancestor (the humanoid's pelvis);
                             * -1: the pelvis is never moved */
    tdn_vec3 up;            /* model space; 0,0,0: +Y; normalized */
    tdn_vec3 forward;       /* model space, the way a straight leg's knee bends;
                             * 0,0,0: +Z (glTF's facing) */
    float half_life;        /* seconds the feet's springs (ground height and
                             * normal, a released lock) take to cover half of a
                             * change; 0: 0.05 */
    float pelvis_half_life; /* the same for the pelvis; 0: 0.2 */
    float max_tilt;         /* radians a foot may turn from up to the ground
                             * normal; 0: 30 degrees (0.5236); negative: feet
                             * are never turned (and placed straight up) */
    float lock_distance;    /* a locked ankle lets go when the animation has
                             * moved on from it by more than this (along the
                             * ground); 0: 0.1 L; negative: no locking */
    float ray_above;        /* the ray starts this far above the animated
                             * ankle; 0: 0.5 L */
    float ray_below;        /* and reaches this far below it; 0: 0.5 L */
    float soften;           /* tdn_ik_two_bone_job.soften (0: off) */
} tdn_foot_placement_desc;

/* What one solve did, per leg (in the character's frame, model space). */
typedef struct tdn_foot_leg_report {
    int ground_hit;      /* the query found ground this frame */
    int locked;          /* the ankle was held at its lock */
    int reached;         /* the IK put the ankle on its target (tdn_ik_two_bone's reached) */
    float ground_height; /* smoothed ground height under the ankle, along up */
    tdn_vec3 normal;     /* smoothed ground normal, limited to max_tilt: the foot's new up */
    float tilt;          /* angle between up and `normal`, radians (times the weight applied) */
    tdn_vec3 target;     /* the ankle's target (the weight applied) */
} tdn_foot_leg_report;

typedef struct tdn_foot_placement_report {
    float pelvis_offset; /* along up, <= 0 (the weight applied) */
    tdn_foot_leg_report legs[TDN_FOOT_MAX_LEGS];
} tdn_foot_placement_report;

/* Per frame. */
typedef struct tdn_foot_placement_frame {
    float dt;                         /* seconds since the last solve, >= 0 */
    const tdn_mat4 *world;            /* the character's frame in the world (affine,
                                       * invertible); NULL: the identity */
    tdn_ground_query ground;          /* required */
    void *ground_user;                /* passed to ground */
    float contact[TDN_FOOT_MAX_LEGS]; /* per leg, 0..1: in contact (locks) at >= 0.5 */
    float weight;                     /* 0..1 (clamped): 0 leaves the pose untouched */
} tdn_foot_placement_frame;

typedef struct tdn_foot_placement tdn_foot_placement; /* opaque; one per character */

/* Bytes tdn_foot_placement_init needs for this description (its leg count); 0 for NULL or a
 * leg count out of 1..TDN_FOOT_MAX_LEGS. */
TDN_API size_t tdn_foot_placement_bytes(const tdn_foot_placement_desc *desc);
/* Sets up foot placement for desc->skeleton in caller memory (TDN_FOOT_PLACEMENT_ALIGN-aligned,
 * at least tdn_foot_placement_bytes(desc) bytes, owned by the caller; nothing to destroy).
 * TDN_ERR_ARGUMENT, naming the field in err->where ("desc.legs[1].middle"), for NULL
 * pointers, misaligned memory, a leg count out of range, joint indices out of range or not
 * an ancestry upper -> middle -> end, zero-length bones, a pelvis that is not an ancestor of
 * every upper joint (or legs with no common ancestor under the default), a non-finite field,
 * a zero up or forward after normalizing, forward along up, a negative half_life, ray_above
 * or ray_below; TDN_ERR_OUT_OF_MEMORY when `bytes` is too small. *out is NULL on failure. */
TDN_API tdn_result tdn_foot_placement_init(const tdn_foot_placement_desc *desc, void *memory, size_t bytes,
                                           tdn_foot_placement **out, tdn_error *err);
/* The same in memory from `allocator` (NULL or zeroed: malloc); TDN_ERR_OUT_OF_MEMORY when it
 * fails. */
TDN_API tdn_result tdn_foot_placement_create(const tdn_foot_placement_desc *desc, tdn_foot_placement **out,
                                             const tdn_allocator *allocator, tdn_error *err);
/* Frees a created instance; NULL and one from tdn_foot_placement_init are left alone. */
TDN_API void tdn_foot_placement_destroy(tdn_foot_placement *fp);
/* Forgets the smoothing state and the locks (after a teleport or a cut): the next solve starts
 * at its targets with no smoothing. */
TDN_API void tdn_foot_placement_reset(tdn_foot_placement *fp);
/* Moves the world the locks are held in by `offset` (when the caller shifts its world, as
 * tdn_mm_controller_translate does): planted feet stay planted. TDN_ERR_ARGUMENT for NULL or a
 * non-finite offset. */
TDN_API tdn_result tdn_foot_placement_translate(tdn_foot_placement *fp, tdn_vec3 offset, tdn_error *err);
/* The desc with its defaults filled in (measured lengths, the pelvis found, up and forward
 * normalized); a zeroed desc for NULL. */
TDN_API tdn_foot_placement_desc tdn_foot_placement_desc_of(const tdn_foot_placement *fp);

/* One frame: queries the ground, advances the springs and locks by frame->dt, then (weight >
 * 0) changes `pose` (the pelvis's local translation, the legs' upper, middle and end local
 * rotations) and updates `model`, which must hold model space of `pose` computed with no root
 * matrix (the character's frame; frame->world places it). The first solve after init or
 * reset starts the springs at their targets. `report` may be NULL. TDN_ERR_ARGUMENT (nothing
 * changed, the state included) for NULL fp, frame, ground, pose or model, a pose of another
 * joint count than the skeleton's, a negative or non-finite dt, a NaN weight or contact, a
 * world matrix that is not finite or not invertible. Never allocates. */
TDN_API tdn_result tdn_foot_placement_solve(tdn_foot_placement *fp, const tdn_foot_placement_frame *frame,
                                            tdn_pose *pose, tdn_mat4 *model, tdn_foot_placement_report *report,
                                            tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
