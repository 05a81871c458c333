/* tendon io: a character of tendon's own (libtendon_io).
 *
 * tdn_humanoid_create generates a humanoid skeleton, a set of looping locomotion clips whose
 * properties are known exactly, and upper-body actions, aim poses, hit reactions and hand
 * poses, so that examples, tests and graph documents have a character on every fresh clone,
 * with no asset files. The result is an ordinary tdn_asset (format
 * TDN_FORMAT_GENERATED, every joint listed, one keyed clip per motion, one skin and one skinned
 * mesh): everything that works on a loaded file works on it. Generation is deterministic (same desc,
 * same bits on the same build) and every value is finite, every rotation a unit quaternion.
 *
 * Conventions (glTF's): metres and seconds, +Y up, the character faces +Z, right-handed, so its
 * left is +X and its right -X. A rotation by a positive angle about +Y turns the character to
 * its left (counterclockwise seen from above).
 *
 * Skeleton: 67 joints, rest rotations all identity, rest translations the offsets from the
 * parent (a T-pose: arms along +-X, legs nearly straight down), left/right joints mirror images
 * across the x = 0 plane. At height 1.8 it is the benchmarks' S67 (docs/benchmarks.md); every
 * length scales with height / 1.8. Parent-before-child order:
 *   root                          on the ground at the origin; carries the root motion
 *   pelvis                        0.95 m up (at height 1.8)
 *   spine_01 .. spine_05, neck_01, neck_02, head, jaw, eye_l, eye_r
 *   per side s in l, r:  clavicle_s, upperarm_s, lowerarm_s, hand_s,
 *                        thumb_01_s, thumb_02_s, thumb_03_s,
 *                        F_metacarpal_s, F_01_s, F_02_s, F_03_s  for F in index, middle, ring, pinky
 *   per side s in l, r:  thigh_s, calf_s, foot_s (the ankle, 0.06 m above the ground at rest),
 *                        toe_s (the ball of the foot, 0.01 m above the ground)
 *
 * Clips (keyed, LINEAR keys evenly spaced: N key intervals per cycle, N the smallest even
 * number at or above cycle * sample_rate (forgiving float rounding), at least 8; the last key
 * is the first pose with the root advanced by one cycle, so each clip loops):
 *   idle            3 s, breathing and a slight sway, no root motion
 *   walk_forward    walk_cycle, root moves +Z at walk_speed
 *   run_forward     run_cycle,  root moves +Z at run_speed
 *   walk_backward   walk_cycle, root moves -Z at walk_speed
 *   strafe_left     walk_cycle, root moves +X at walk_speed (facing stays +Z)
 *   strafe_right    walk_cycle, root moves -X at walk_speed
 *   turn_left       walk_cycle, in place, root turns about +Y at +90 degrees/s (+pi/2 rad/s)
 *   turn_right      walk_cycle, in place, root turns about +Y at -90 degrees/s
 * Root motion lives in the root joint's own tracks (translation along the ground, rotation
 * about +Y), so model space from tdn_model_space already includes it. Gait: the left foot
 * lands at t = 0, the right at half a cycle; each foot is in contact for a duty factor of 0.6
 * of the cycle when walking (double support) and 0.35 when running (a flight phase), rounded
 * to whole key intervals. While in contact a foot is fixed in model space (its ankle at rest
 * height, sole flat, turned with the root at mid-contact); in the air it follows a smooth arc
 * to the next footfall. Legs are solved by analytic two-bone IK onto those paths with the
 * knees bending forward; the pelvis bobs and sways, the spine counter-twists and the arms swing
 * in counter-phase with the legs. With the sole flat all through a contact the legs reach the
 * long steps by bending: the pelvis sits lower than at rest (at the defaults 0.79-0.83 m
 * walking, 0.74-0.80 m running, against 0.95 m). The feet are exactly still at the keys;
 * between keys interpolation lets a foot in contact drift, at the defaults by a mean of about
 * 0.6 cm/s walking and 4.9 cm/s running (proportional to the key interval). Strafing crosses
 * the legs, the left foot's path 7 cm forward and the right's 7 cm back (strafe_right mirrors
 * it). The arms hang 75 degrees down from the T-pose. Animated: root and pelvis (translation
 * and rotation), spine_01..05, neck_01, upperarm, lowerarm, thigh, calf and foot of both sides
 * (rotation): 20 tracks; the other joints keep their rest transforms.
 * These eight clips (idle included) have STEP float tracks "contact_l" and "contact_r" (1 while
 * that foot is in contact, else 0); locomotion and turn clips have events "foot_down_l" (at 0)
 * and "foot_down_r" (at half the cycle), the footfalls, usable as sync markers.
 *
 * Upper-body clips follow them, in this order (no root motion, no float tracks, no events;
 * rotations only, every other joint at rest; meant for masked and additive layers):
 *   wave            2 s    the right hand raised beside the head, the forearm waving 2.5 times
 *   point           1.2 s  the right arm straight ahead at shoulder height, held 0.35-0.85 s
 *   reload          1.5 s  the left hand forward holding a weapon, the right to the hip and up
 *                          to the left hand, the head looking down at it
 *   aim_center      1 s    held: both arms forward in a rifle stance, spine and neck at rest
 *   aim_up          1 s    held: the same arms, the spine, neck and head pitched 45 degrees up (31.5 in the spine)
 *   aim_down        1 s    held: pitched 45 degrees down
 *   aim_left        1 s    held: turned 60 degrees to the left (+X; 48 in the spine, 12 in the neck)
 *   aim_right       1 s    held: turned 60 degrees to the right
 *   hit_front       0.7 s  struck from the front: torso and head thrown back, arms flinch
 *   hit_back        0.7 s  struck from behind: thrown forward
 *   hit_left        0.7 s  struck on the left: thrown to the right and turned, the left arm in
 *   hit_right       0.7 s  struck on the right: the mirror image
 *   hand_open       1 s    held: both hands' fingers relaxed, nearly straight
 *   hand_fist       1 s    held: every finger curled, the thumb across
 *   hand_point      1 s    held: the index straight, the other fingers curled
 *   lean_center     1 s    held: the idle upper body (arms hanging, spine at rest), a reference
 *   lean_left       1 s    held: the spine bent 16 degrees to the left (roll), neck and head
 *                          back 7 degrees towards upright, the left arm hanging away (82 degrees
 *                          down) and the right in (70)
 *   lean_right      1 s    held: the mirror image
 * Actions and hit reactions start and end exactly at the idle clip's upper-body pose at t = 0
 * (arms hanging 75 degrees down, elbows bent 10 degrees, spine and neck at rest), easing in and
 * out (actions over 0.3-0.5 s); a hit's jerk peaks at a quarter of the clip and returns with
 * zero slope. Their keys are evenly spaced like the cycles' (the smallest even number of
 * intervals at or above duration * sample_rate, at least 8); held poses have two equal keys, at
 * 0 and 1 s. Actions, aim and hit clips have 16 rotation tracks: spine_01..05, neck_01, neck_02,
 * head, and clavicle, upperarm, lowerarm, hand of both sides. The aim poses differ from
 * aim_center only in the spine, neck and head: made additive against aim_center (a graph
 * document's "additive": {"reference": "aim_center"}) they turn the chest and head of any pose
 * by up to 45 degrees in pitch and 60 in yaw. lean_left and lean_right, made additive against
 * lean_center, bend any pose's upper body sideways (leaning into a turn). Hand poses have 38 rotation tracks, the
 * fingers and thumbs of both hands (not the wrists), left and right mirror images: a layer masked to the fingers sets
 * the hands' shape over anything else.
 *
 * Last comes "jump" (1.5 s, a standing jump in place, no root motion; the same 20 tracks, key
 * layout, IK and contact curves as the locomotion clips). Its keys are evenly spaced, N key
 * intervals of dt = 1.5 / N (N as for a 1.5 s cycle: 46 at the defaults, dt = 32.6 ms); the
 * phases fall on keys: stand to 0.1 s, crouch (pelvis 0.2 m down at height 1.8, arms swung 50
 * degrees back, leaning 30 degrees forward) to 0.42 s, push off to take-off at the key nearest
 * 0.6 s (the pelvis back at standing height rising at v0, the arms swung forward and up over
 * the head), flight, landing, a 0.17 m landing crouch over the next 0.2 s and recovery to the
 * standing pose by 1.4 s, held to the end. The flight lasts the whole number of key intervals
 * nearest min(0.45 s x sqrt(height / 1.8), 0.6 s) (at least 2), t; in it the pelvis follows the ballistic
 * parabola of g = 9.81 m/s^2 exactly at the keys, y = y0 + v0 tau - g tau^2 / 2 with v0 = g t / 2,
 * rising h = g t^2 / 8 above its take-off height y0 (standing, the legs at 98% of their length)
 * and landing back there. At the defaults: take-off 18 dt = 0.587 s, landing 32 dt = 1.043 s,
 * t = 0.457 s, v0 = 2.24 m/s, h = 0.256 m (at 60 keys/s: 0.6 s, 1.05 s, t = 0.45 s, h = 0.248 m).
 * The feet rise with the pelvis and tuck up 0.12 m more at the apex. Events "take_off" and
 * "land" at those keys; STEP contact_l and contact_r are 1 before take-off, 0 from take-off up
 * to landing, 1 from landing on. While in contact the ankles are exactly at their rest positions
 * at the keys (between keys, within 7 mm at the defaults). The clip starts and ends in the same
 * standing pose (its first and last keys are equal), so it loops seamlessly, but it is meant to be
 * played once (wrap CLAMP) or triggered.
 * Clip channel counts (tdn_asset_clip_channel_count) are the joint tracks of each clip.
 *
 * Body: one skin, "humanoid", over all 67 joints (the chosen skin; its inverse binds are the
 * skeleton's, the inverted rest pose), and one mesh, "body" (tdn_asset_mesh_at(asset, 0)): a
 * mannequin of 17 closed capsules with elliptic cross-sections, one per segment (torso with the
 * pelvis, neck, head, and per side upper arm, forearm, hand, thumb, thigh, shin, foot),
 * overlapping at the joints, placed on the rest pose in model space (the T-pose: a skin at rest
 * gives the bind positions back). At the defaults: 3334 vertices, 6600 triangles (counter-
 * clockwise outside), unit normals, one influence set with at most 2 non-zero weights summing
 * to 1. Each limb segment is rigid on its joint in the middle and blends with its neighbour
 * (smoothstep) within 4 cm (arms) or 6 cm (legs) of each end joint, half-and-half at the joint;
 * the torso blends pelvis..spine_05 by height. The hand is a mitten on the hand joint, plus the
 * thumb; the other fingers, the jaw and the eyes move no vertex. The mesh scales with height. */
#ifndef TENDON_IO_HUMANOID_H
#define TENDON_IO_HUMANOID_H

#include "../base.h"
#include "asset.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fields left 0 take the default shown. */
typedef struct tdn_humanoid_desc {
    float height;      /* metres to the top of the head, 0: 1.8; all lengths scale with it */
    float walk_speed;  /* m/s, 0: 1.4 (walk, walk_backward, strafes) */
    float walk_cycle;  /* seconds per full cycle (two steps), 0: 1.0 (walk, strafes, turns) */
    float run_speed;   /* m/s, 0: 3.5 */
    float run_cycle;   /* seconds per full cycle, 0: 0.6 */
    float sample_rate; /* keys per second, 0: 30 (rounded per clip as described above) */
} tdn_humanoid_desc;

/* Generates the humanoid asset into *out (destroy it with tdn_asset_destroy) through
 * `allocator` (NULL: malloc; for everything the asset holds and for scratch). `desc` may be
 * NULL (all defaults). TDN_ERR_ARGUMENT, naming the field in err->where (for example
 * "desc.walk_speed"), for NULL out, a negative or non-finite field, a field outside its range
 * (height 0.01 to 1000 m, walk_cycle and run_cycle 0.01 to 100 s, sample_rate 0.01 to 1000 keys
 * a second, speeds at most 1e6 m/s), an allocator with only one of alloc/free, more than 10000
 * keys per cycle, or a speed whose steps are longer than the legs reach (half a contact's travel
 * beyond 0.7 leg lengths: at height 1.8 and the default cycles, walk_speed above about 1.9 m/s
 * or run_speed above about 5.8 m/s). TDN_ERR_OUT_OF_MEMORY when an allocation fails. On failure
 * *out is NULL and nothing stays allocated. Thread-safe: calls share nothing, and the asset is
 * immutable like a loaded one. */
TDN_API tdn_result tdn_humanoid_create(const tdn_humanoid_desc *desc, tdn_asset **out, const tdn_allocator *allocator,
                                       tdn_error *err);

/* The roots of the humanoid's fine subtrees, for a far joint level of detail
 * (tdn_joint_lod_init_names, tendon/graph.h): each hand's thumb and four fingers, the jaw and the
 * eyes: 13 names, whose subtrees are 41 of its 67 joints. Returns the count; *names (may be
 * NULL) receives the list, static. The mesh moves the thumbs: pair such a LOD with a mesh that
 * does not use them. */
TDN_API int tdn_humanoid_detail_joints(const char *const **names);

#ifdef __cplusplus
}
#endif
#endif
