/* tendon: retargeting, one skeleton's poses played on another's.
 *
 * Both skeletons are given with their body maps (tendon/body_map.h) and a reference pose each:
 * a local pose in which the character faces +Z with +Y up, its legs straight down, its spine and
 * neck straight up and its arms straight out sideways (tdn_retarget_reference_pose builds one
 * from any pose). A retarget definition (tdn_retarget) is made once from the two; it turns each
 * mapped target bone in model space by the rotation its source bone made away from the source's
 * reference, so that every mapped bone of the target points where the source's does. The
 * definition is immutable once created and may be shared by any number of threads;
 * tdn_retarget_pose writes only the target pose it is given and never allocates.
 * docs/retarget.md ("Reference poses", "Retargeting a pose") gives the math. */
#ifndef TENDON_RETARGET_H
#define TENDON_RETARGET_H

#include "base.h"
#include "body_map.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes into `out` the canonical reference pose of `skeleton` built from `pose` (NULL: the
 * skeleton's rest pose): the hips turned about themselves so that the hips-to-spine offset is
 * vertical and the facing is +Z (right = the horizontal direction from the left thigh to the
 * right thigh, up = +Y, forward = up x right, so left is +X), then, root-most first, each mapped
 * bone turned by the least rotation that points it the canonical way: the spine and neck joints
 * up (each towards the next joint of spine, neck and head), the clavicles, upper arms and
 * forearms out sideways (left +X, right -X), the thighs and shins down (-Y). The hands, head,
 * feet, toes, fingers and unmapped joints keep their local rotations; translations and scales
 * are kept (the hips stay at their height). A shin (forearm) whose foot (hand) is not below it
 * (an IK target parented elsewhere) is pointed at where the rest pose has that foot in its
 * frame, and the foot is put there. `out` may be `pose`. The result is its own
 * reference pose (to float precision). TDN_ERR_ARGUMENT for NULL or a pose of another joint
 * count; the map's errors (tdn_body_map_check) as they are. Thread-safe: reads the skeleton,
 * the map and `pose`, writes only `out`. */
TDN_API tdn_result tdn_retarget_reference_pose(const tdn_skeleton *skeleton, const tdn_body_map *map,
                                               const tdn_pose *pose, tdn_pose *out, tdn_error *err);

/* One side of a retarget: a skeleton, its body map and its reference pose. */
typedef struct tdn_retarget_character {
    const tdn_skeleton *skeleton;
    const tdn_body_map *map;   /* found by tdn_body_map_find, or written by hand */
    const tdn_pose *reference; /* a canonical reference pose (tdn_retarget_reference_pose);
                                * NULL: the one built from the rest pose */
    float ground;              /* the floor's height (y) in the skeleton's model space: 0 for a character that
                                * stands on y = 0, as glTF characters and motion capture files mostly do */
} tdn_retarget_character;

/* The contact fix-up's settings (tdn_retarget_contacts). Zero-initialisable: 0 takes the default. */
typedef struct tdn_retarget_contact_desc {
    /* A source foot is planted while its ankle is within `height` of its floor and slower than
     * `speed` (source units, per second). Defaults: 2.5% of the source's leg length and 18.75%
     * of it per second (2 cm and 15 cm/s for legs of 80 cm). */
    float height, speed;
    /* The planted left and right ankles' heights above the source's ground: the take's lowest,
     * when the whole take is known. Given (both > 0), the target's hips stand so that a planted
     * source ankle puts the target's at its rest height, and contacts are judged against them.
     * 0: contacts are judged against the lowest the state has seen of each ankle (its running
     * minimum since tdn_retarget_state_reset), and the hips stand at their height above the
     * ground scaled. */
    float floor[2];
    /* Seconds the fix-up takes to let go of a lifted foot (0: 0.1). */
    float blend;
    /* Also plant the hands (wrists against the lowest the state has seen of each), for motion
     * on all fours. Off: the feet only. */
    int hands;
} tdn_retarget_contact_desc;

/* What a retarget is made from. Zero-initialisable. Nothing is kept by pointer: the skeletons,
 * maps and poses may go once tdn_retarget_create returns. */
typedef struct tdn_retarget_desc {
    tdn_retarget_character source;
    tdn_retarget_character target;
    /* Target length per source length, for the hips' travel. 0: the ratio of the two leg
     * lengths (hip to knee plus knee to ankle, in model space at the rest pose, averaged over
     * both legs), target over source. */
    float scale;
    tdn_retarget_contact_desc contacts;
} tdn_retarget_desc;

/* A retarget definition (immutable, shareable across threads). */
typedef struct tdn_retarget tdn_retarget;

/* Makes a retarget from `desc`: checks both maps (tdn_body_map_check) and reference poses
 * (their joint counts), builds a missing reference, and precomputes per mapped target joint
 * what a frame needs. TDN_ERR_ARGUMENT naming the field (`desc.source.map`, `desc.scale`...)
 * for NULL, a pose of the wrong size or a scale that is negative or not finite (or 0 with legs
 * of length 0); TDN_ERR_OUT_OF_MEMORY. On failure *out is NULL and nothing stays allocated. */
TDN_API tdn_result tdn_retarget_create(const tdn_retarget_desc *desc, tdn_retarget **out,
                                       const tdn_allocator *allocator, tdn_error *err);
/* Frees a retarget; NULL is ignored. */
TDN_API void tdn_retarget_destroy(tdn_retarget *retarget);

/* The scale the retarget uses (desc.scale, or the leg ratio it stood for); 0 for NULL. */
TDN_API float tdn_retarget_scale(const tdn_retarget *retarget);
/* The contact settings the retarget uses: desc.contacts with its defaults filled in (height,
 * speed and blend as they stood for); zeros for NULL. */
TDN_API tdn_retarget_contact_desc tdn_retarget_contact_settings(const tdn_retarget *retarget);

/* Retargets one local pose of the source skeleton onto `target_pose` (the target skeleton's
 * joint count). Per mapped bone b: D = Qs_model(b) * Qs_reference_model(b)^-1 and
 * Qt_model(b) = D * Qt_reference_model(b), written as a local rotation under the target's
 * parent. Chains (spine, neck, fingers) of equal joint counts map joint to joint; of different
 * counts, the rotation from the chain's parent to its last joint is spread over the target's
 * joints by their cumulative length. Then the target's spine joints turn together about the
 * first of them so that its hips-to-neck direction (the neck's first joint, else the head) is
 * the source's, whatever the proportions of the two spines' bones. Unmapped target joints, and
 * target parts the source lacks, keep the reference pose's local transforms. The hips move
 * across by the source hips' horizontal model offset from their reference position times the
 * scale; they stand at the source hips' height above its ground times the scale above the
 * target's ground, or, given the source's planted ankle heights (desc.contacts.floor), at their
 * height above those times the scale above the target's ankles at rest. Never allocates: the scratch (about
 * 9 KB) is on the stack. TDN_ERR_ARGUMENT for NULL or a pose of the wrong size. Thread-safe
 * for distinct target poses. */
TDN_API tdn_result tdn_retarget_pose(const tdn_retarget *retarget, const tdn_pose *source_pose, tdn_pose *target_pose,
                                     tdn_error *err);

/* The limbs the contact fix-up plants. */
typedef enum tdn_retarget_limb {
    TDN_RETARGET_LEFT_FOOT,
    TDN_RETARGET_RIGHT_FOOT,
    TDN_RETARGET_LEFT_HAND,
    TDN_RETARGET_RIGHT_HAND,
    TDN_RETARGET_LIMB_COUNT
} tdn_retarget_limb;

/* What the contact fix-up carries from frame to frame for one character: caller memory, one
 * per retargeted character, set by tdn_retarget_state_reset. The fields may be read (a trace,
 * a debug view); only tdn_retarget_contacts writes them. */
typedef struct tdn_retarget_limb_state {
    int planted;          /* the source's end is planted this frame */
    float weight;         /* 1 while planted, then down to 0 as the fix-up lets go */
    tdn_vec3 lock;        /* where the target's end is held (world: the target's root applied) */
    tdn_vec3 offset;      /* the correction last applied to it (target model space) */
    tdn_vec3 source_last; /* the source's end last frame (world) */
    int has_last;
} tdn_retarget_limb_state;

typedef struct tdn_retarget_state {
    tdn_retarget_limb_state limbs[TDN_RETARGET_LIMB_COUNT];
    float floor[TDN_RETARGET_LIMB_COUNT]; /* each end's lowest height seen (above the source's ground) */
} tdn_retarget_state;

/* Starts a state afresh (nothing planted, no floor seen): at the start of a take, and after a
 * jump in time or place. NULL is ignored. */
TDN_API void tdn_retarget_state_reset(tdn_retarget_state *state);

/* The contact fix-up, after tdn_retarget_pose made `target_pose` from the same `source_pose`:
 * where the source's feet (and, with desc.contacts.hands, hands) are planted, the target's are
 * planted too: held where they landed, at the height of the target's ankle (wrist) in its
 * reference pose, by a two-bone solve of thigh, shin and foot (upper arm, forearm, hand) that
 * keeps the knee's side and the foot's model rotation. A limb lifted again is let go over
 * desc.contacts.blend seconds. `source_root` is where the source character stands in the world
 * this frame (its accumulated root motion; NULL: the identity, the motion being in the pose);
 * the target's root is the same with its translation times the scale. `contacts` (NULL: detect
 * them) gives per tdn_retarget_limb whether the source's end is planted (>= 0.5), for a clip
 * with contact curves. `dt` is the time since the previous frame (>= 0, seconds). Limbs either
 * map lacks are skipped. Never allocates. TDN_ERR_ARGUMENT for NULL, poses of the wrong size
 * or a negative or non-finite dt. Thread-safe for distinct states and target poses. */
TDN_API tdn_result tdn_retarget_contacts(const tdn_retarget *retarget, tdn_retarget_state *state,
                                         const tdn_pose *source_pose, const tdn_transform *source_root,
                                         const float *contacts, float dt, tdn_pose *target_pose, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
