/* tendon core: what the retarget's reference poses, its definition and the graph instances that
 * retarget their output share (not installed). */
#ifndef TENDON_RETARGET_INTERNAL_H
#define TENDON_RETARGET_INTERNAL_H

#include "internal.h"
#include "tendon/body_map.h"
#include "tendon/pose.h"
#include "tendon/retarget.h"
#include "tendon/skeleton.h"

/* Joint j's model transform in `pose`, its ancestors composed (for set-up, not per frame). */
tdn_transform tdn__retarget_model_transform(const tdn_skeleton *skeleton, const tdn_pose *pose, int joint);
/* Joint j's model transform at the skeleton's rest. */
tdn_transform tdn__retarget_rest_transform(const tdn_skeleton *skeleton, int joint);
/* Joints from the one below `stop` (-1: the root) down to `joint`, into path (root-most first,
 * when path is not NULL); returns their count. */
int tdn__retarget_path(const tdn_skeleton *skeleton, int stop, int joint, int *path);
/* The body's axis, hips excluded: the spine's, the neck's and the head's joints in order, into
 * `joints` (3 * TDN_BODY_MAP_MAX_CHAIN ints); returns their count. */
int tdn__retarget_axis(const tdn_body_map *map, int *joints);

/* A limb the contact fix-up plants: the source's end (ankle, wrist), and the target's upper,
 * middle and end joints (thigh, shin, foot; upper arm, forearm, hand), each side reached by a
 * path of joints from its skeleton's root, kept in tdn_retarget.path. */
typedef struct tdn__retarget_limb {
    tdn_retarget_limb which;
    int source_path_begin, source_path_count; /* the root down to the source's end */
    int target_path_begin, target_path_count; /* the root down to the target's end */
    int upper, middle;                        /* their places in the target's path */
    int follower;                             /* the end's follower, whose path ends at the middle joint; -1: the
                                               * end is below the middle joint and last on the path */
    int hips;                                 /* the target's hips' place in it */
    float end_height;                         /* feet: the target's ankle at rest (model y); hands: -1 */
} tdn__retarget_limb;

/* A target foot (hand) that is not below its shin (forearm), as in rigs whose feet are IK
 * targets parented to the root: placed each frame where the rest pose has it in the frame of
 * its leader, the shin (forearm). */
typedef struct tdn__retarget_follower {
    int joint;
    int leader_path_begin, leader_path_count; /* the root down to the leader */
    int parent_path_begin, parent_path_count; /* the root down to the joint's parent (0: it is a root) */
    tdn_vec3 offset;                          /* its position in the leader's frame, at rest */
} tdn__retarget_follower;

/* The most joints the parts of one map can hold: the per-frame scratch's bound. */
#define TDN__RETARGET_MAX_BONES (TDN_BODY_PART_COUNT * TDN_BODY_MAP_MAX_CHAIN)

/* A mapped source joint. Its model rotation is its anchor's (the nearest mapped ancestor's, or
 * the identity) times the local rotations of the path's joints, the anchor's child down to it. */
typedef struct tdn__retarget_source_bone {
    int joint;
    int anchor;
    int path_begin, path_count; /* in tdn_retarget.path, root-most first */
    tdn_quat reference_inverse; /* the inverse of its model rotation in the source's reference */
} tdn__retarget_source_bone;

/* A mapped target joint: its model rotation is D * reference, D being the source's turn
 * slerp(D[base], D[last], weight) (base -1: the identity), written under its parent, whose model
 * rotation is its anchor's (or the identity) times `above` (the reference's locals between).
 * The joints of a spread chain share their (base, last): their arc, set up once a frame. A joint
 * whose D is D[last] keeps in `after` the source reference's inverse times its reference, so
 * that its model rotation is the source's model rotation of `last` times `after`. */
typedef struct tdn__retarget_target_bone {
    int joint;
    int anchor;
    tdn_quat above;
    int above_identity; /* the anchor is the parent */
    tdn_quat after;     /* D[last] is the turn: reference_inverse(last) * reference; else reference */
    int base, last;
    float weight;
    int arc; /* in tdn_retarget.arcs; -1: D is D[last] */
} tdn__retarget_target_bone;

struct tdn_retarget {
    tdn_allocator allocator;
    size_t bytes;
    float scale;
    int source_joints;
    int source_count, target_count;
    int source_hips;                                       /* its source bone; its path runs from the skeleton's root */
    int target_hips;                                       /* the joint */
    tdn_vec3 source_hips_reference, target_hips_reference; /* model positions */
    int target_hips_parent;                                /* -1: the hips are the root */
    tdn_transform target_hips_parent_inverse;              /* the parent's model transform, inverted */
    tdn__retarget_source_bone *source;
    tdn__retarget_target_bone *target;
    int arc_count;
    struct {
        int base, last;
    } arcs[TDN_BODY_PART_COUNT]; /* one per spread chain: a chain's joints share base and last */
    int *path;
    tdn_pose reference; /* the target's reference pose */
    /* The spine's lean (spine_lean), when both skeletons have a spine and a neck or head. */
    struct {
        int on;
        int source_path_begin, source_path_count; /* the source's hips' child down to its top, in path */
        int hips;                                 /* the target bone of the hips */
        tdn_vec3 hips_offset;                     /* hips to the first spine joint, in the hips' frame */
        int count;                                /* the target's spine joints: */
        int bones[TDN_BODY_MAP_MAX_CHAIN];        /* their target bones */
        tdn_vec3 offsets[TDN_BODY_MAP_MAX_CHAIN]; /* to the next spine joint or the top, in their frames */
    } lean;
    /* The contact fix-up's limbs (retarget_contacts.c). */
    tdn_retarget_contact_desc contacts; /* defaults resolved */
    int limb_count;
    tdn__retarget_limb limbs[TDN_RETARGET_LIMB_COUNT];
    tdn_vec3 hips_forward; /* the target's facing (+Z in its reference) in its hips' frame */
    int follower_count;
    tdn__retarget_follower followers[TDN_RETARGET_LIMB_COUNT];
    float source_ground, target_ground;
    /* The target hips' height: hips_ground + (source hips' height - source_ground - hips_floor)
     * * scale (the target's ground and 0, or its ankles at rest and the source's planted ankles). */
    float hips_ground, hips_floor;
    /* The height is measured at the thighs, whose drop below the hips differs from rig to rig:
     * the source's thighs through their paths from the hips (in path), the target's midpoint
     * of them from its hips in the hips' frame (at the reference), its hips' target bone. */
    int thigh_path_begin[2], thigh_path_count[2];
    tdn_vec3 target_thighs;
    int target_hips_bone;
};

/* The body part that ends each tdn_retarget_limb (a foot, a hand); the two before it in
 * tdn_body_part are its upper and middle parts (thigh and shin, upper arm and forearm). */
extern const tdn_body_part tdn__retarget_limb_end[TDN_RETARGET_LIMB_COUNT];
/* Joint `joint`'s position in `leader`'s frame at the skeleton's rest: where a foot (hand) that
 * is not below its shin (forearm) ends it. */
tdn_vec3 tdn__retarget_rest_offset(const tdn_skeleton *skeleton, int leader, int joint);
/* The arguments every per-frame call checks: the retarget and both poses, of its skeletons'
 * joint counts (TDN_ERR_ARGUMENT naming `retarget`, `source_pose` or `target_pose`). */
tdn_result tdn__retarget_check_poses(const tdn_retarget *retarget, const tdn_pose *source_pose,
                                     const tdn_pose *target_pose, tdn_error *err);
/* The model transform of the last joint of a path from the root (the identity for none). */
tdn_transform tdn__retarget_along(const tdn_pose *pose, const int *path, int count);
/* Sets up the followers (rt NULL: counts the path they need); returns the path's length. */
int tdn__retarget_fill_followers(tdn_retarget *rt, const tdn_retarget_desc *desc, int used);
/* Puts the followers where their leaders have them in `pose`. */
void tdn__retarget_place_followers(const tdn_retarget *rt, tdn_pose *pose);
/* Sets up the contact fix-up's limbs (rt NULL: counts the path they need from `used` on);
 * returns the path's length. */
int tdn__retarget_fill_limbs(tdn_retarget *rt, const tdn_retarget_desc *desc, int used);
/* The joint counts of the poses a retarget reads and writes (its source's and its target's
 * skeleton), for the graph instances that retarget their output (graph_retarget.c). */
int tdn__retarget_source_joint_count(const tdn_retarget *retarget);
int tdn__retarget_target_joint_count(const tdn_retarget *retarget);

#endif
