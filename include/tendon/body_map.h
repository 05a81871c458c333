/* tendon: the body map, the humanoid parts found on one skeleton.
 *
 * A body map says which joints of a skeleton are its hips, spine, neck, head, clavicles, arms,
 * hands, legs, feet, toes and fingers, so that motion made for one skeleton can be carried to
 * another (retargeting). Every part is a chain of 0..TDN_BODY_MAP_MAX_CHAIN joints, root-most
 * first: a single-joint part (a thigh) holds 0 or 1 joint, the spine, the neck and the fingers
 * hold several. The map is a plain value in caller memory (no allocation, nothing to free);
 * for each part it records how the part was found, and it lists what was left out and why.
 * docs/retarget.md ("The body map") gives the rules. Finding a map is thread-safe: it reads the
 * skeleton and the reference pose and writes only `out`. */
#ifndef TENDON_BODY_MAP_H
#define TENDON_BODY_MAP_H

#include "base.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most joints in one part (the spine's chain, a finger's). */
#define TDN_BODY_MAP_MAX_CHAIN 8
/* Most notes a map keeps on what was left out; further ones are counted in notes_left_off. */
#define TDN_BODY_MAP_MAX_NOTES 32

/* The humanoid parts. Left and right are the character's own. Chains (SPINE, NECK, fingers)
 * run from the hips outwards. */
typedef enum tdn_body_part {
    TDN_BODY_PART_HIPS,  /* the lowest common ancestor of the two thighs (required) */
    TDN_BODY_PART_SPINE, /* every joint from the hips' child to the chest, where the arms branch */
    TDN_BODY_PART_NECK,  /* the joints between the chest and the head; may be empty */
    TDN_BODY_PART_HEAD,
    TDN_BODY_PART_LEFT_CLAVICLE, /* optional */
    TDN_BODY_PART_LEFT_UPPER_ARM,
    TDN_BODY_PART_LEFT_FOREARM,
    TDN_BODY_PART_LEFT_HAND,
    TDN_BODY_PART_RIGHT_CLAVICLE, /* optional */
    TDN_BODY_PART_RIGHT_UPPER_ARM,
    TDN_BODY_PART_RIGHT_FOREARM,
    TDN_BODY_PART_RIGHT_HAND,
    TDN_BODY_PART_LEFT_THIGH, /* the legs' thigh, shin and foot are required */
    TDN_BODY_PART_LEFT_SHIN,
    TDN_BODY_PART_LEFT_FOOT,
    TDN_BODY_PART_LEFT_TOES, /* optional */
    TDN_BODY_PART_RIGHT_THIGH,
    TDN_BODY_PART_RIGHT_SHIN,
    TDN_BODY_PART_RIGHT_FOOT,
    TDN_BODY_PART_RIGHT_TOES,  /* optional */
    TDN_BODY_PART_LEFT_THUMB,  /* fingers: optional chains of 2..4 joints (a metacarpal, */
    TDN_BODY_PART_LEFT_INDEX,  /* the phalanges, a tip), found only by their names */
    TDN_BODY_PART_LEFT_MIDDLE, /* (thumb, index, middle, ring, pinky or little) */
    TDN_BODY_PART_LEFT_RING,
    TDN_BODY_PART_LEFT_PINKY,
    TDN_BODY_PART_RIGHT_THUMB,
    TDN_BODY_PART_RIGHT_INDEX,
    TDN_BODY_PART_RIGHT_MIDDLE,
    TDN_BODY_PART_RIGHT_RING,
    TDN_BODY_PART_RIGHT_PINKY,
    TDN_BODY_PART_COUNT /* the number of parts, not a part */
} tdn_body_part;

/* How a part's joints were found. */
typedef enum tdn_body_map_evidence {
    TDN_BODY_MAP_EVIDENCE_NONE,     /* the part is absent */
    TDN_BODY_MAP_EVIDENCE_NAME,     /* the joint's name says what it is */
    TDN_BODY_MAP_EVIDENCE_TOPOLOGY, /* its place in the hierarchy (a chain's order, a branch point) */
    TDN_BODY_MAP_EVIDENCE_GEOMETRY, /* the reference pose (bone lengths, which side is left) */
    TDN_BODY_MAP_EVIDENCE_CALLER    /* given by the caller (by hand, or by a body map file: io/body_map_file.h);
                                     * with no joints, the caller left the part out */
} tdn_body_map_evidence;

/* Why a note's joint (or part) was left out of the map. */
typedef enum tdn_body_map_reason {
    TDN_BODY_MAP_REASON_NOT_FOUND,      /* an optional part with no joint (note.joint is -1) */
    TDN_BODY_MAP_REASON_ABOVE_HIPS,     /* an ancestor of the hips: a root or root-motion joint */
    TDN_BODY_MAP_REASON_END,            /* a leaf marking a bone's end (named *End or *Nub, or of length 0) */
    TDN_BODY_MAP_REASON_HELPER,         /* named as an eye, jaw, IK target or pole, twist or roll helper */
    TDN_BODY_MAP_REASON_SHORT_BONE,     /* a short bone between the hips and the thigh (CMU's LHipJoint) */
    TDN_BODY_MAP_REASON_FINGERS,        /* finger joints that do not make named chains of 2..4 joints
                                         * on a hand with at least 3 of them */
    TDN_BODY_MAP_REASON_SIDES_DISAGREE, /* the names' left is the geometry's right (note.joint: the
                                         * left thigh); the names were kept */
    TDN_BODY_MAP_REASON_BEYOND_CHAIN,   /* a joint past the end of a part's chain (past the toes, past
                                         * the head, a finger's fifth joint) */
    TDN_BODY_MAP_REASON_OTHER           /* a branch that is no part (a tail, a prop) */
} tdn_body_map_reason;

/* One thing left out: a joint and the subtree below it that holds no part, or a part not found. */
typedef struct tdn_body_map_note {
    int joint; /* the joint, -1 for a part not found */
    int part;  /* the tdn_body_part concerned, -1 when none */
    tdn_body_map_reason reason;
} tdn_body_map_note;

/* The joints of one part, root-most first, and how they were found. */
typedef struct tdn_body_map_part {
    int joint_count; /* 0 (absent) ..TDN_BODY_MAP_MAX_CHAIN */
    int joints[TDN_BODY_MAP_MAX_CHAIN];
    tdn_body_map_evidence evidence;
} tdn_body_map_part;

/* A skeleton's body map: zero-initialisable plain data, filled by tdn_body_map_find (or by hand,
 * then checked with tdn_body_map_check). */
typedef struct tdn_body_map {
    int joint_count; /* the skeleton's joint count */
    tdn_body_map_part parts[TDN_BODY_PART_COUNT];
    int note_count;     /* 0..TDN_BODY_MAP_MAX_NOTES */
    int notes_left_off; /* notes beyond TDN_BODY_MAP_MAX_NOTES, counted only */
    tdn_body_map_note notes[TDN_BODY_MAP_MAX_NOTES];
} tdn_body_map;

/* Finds the humanoid parts of `skeleton` into *out, judging geometry on `reference` (a local
 * pose of the skeleton; NULL: its rest pose). Names first (after the last ':' or '|', without
 * prefixes such as mixamorig, Bip01, DEF-, Skeleton_, b_, case-folded, with side markers such as
 * Left/Right, L/R, _l/_r, .L/.R, an l/r prefix or _L_1), then the hierarchy (the hips are the
 * lowest common ancestor of the two legs, the chest the spine joint the arms branch from), then
 * the reference pose (a thigh is the first long bone of its leg, a three-joint arm starts with a
 * clavicle when its first bone is short, left is the side of +up x forward where the names give
 * no side). Fails with TDN_ERR_ARGUMENT for a NULL skeleton or out (`where` "skeleton", "out")
 * or a reference of another joint count (`where` "reference"), and with TDN_ERR_INVALID_DATA,
 * `where` naming the joint and the message what is missing or doubled, when the skeleton is no
 * humanoid: no two legs below a common joint, a leg without thigh, shin or foot, a joint in two
 * parts, sides that neither names nor geometry tell apart, a chain longer than
 * TDN_BODY_MAP_MAX_CHAIN, or a spine that runs at 45-135 degrees to the legs (a quadruped such
 * as glTF's Fox). Arms, clavicles, neck, head, toes and fingers are optional: one not found is
 * a TDN_BODY_MAP_REASON_NOT_FOUND note. On failure *out is zeroed. Never allocates. */
TDN_API tdn_result tdn_body_map_find(const tdn_skeleton *skeleton, const tdn_pose *reference, tdn_body_map *out,
                                     tdn_error *err);

/* Checks a map against a skeleton (one found, or edited by hand): the joint count, every joint
 * index in range, every chain a path down the hierarchy (each joint below the one before it),
 * the hips and each leg's thigh, shin and foot present, no joint in two parts, counts within
 * their limits. TDN_ERR_ARGUMENT for NULL; TDN_ERR_INVALID_DATA naming the first joint (or the
 * part, for a missing one) at fault. */
TDN_API tdn_result tdn_body_map_check(const tdn_skeleton *skeleton, const tdn_body_map *map, tdn_error *err);

/* The part's first joint, or -1 when the part is absent, the map NULL or `part` out of range. */
TDN_API int tdn_body_map_joint(const tdn_body_map *map, tdn_body_part part);

/* A part's name in lower case with underscores ("hips", "left_upper_arm"); NULL outside the enum. */
TDN_API const char *tdn_body_part_name(tdn_body_part part);
/* The evidence's name ("name", "topology", "geometry", "caller", "none"); NULL outside the enum. */
TDN_API const char *tdn_body_map_evidence_name(tdn_body_map_evidence evidence);
/* The reason's name ("not_found", "end", ...); NULL outside the enum. */
TDN_API const char *tdn_body_map_reason_name(tdn_body_map_reason reason);

#ifdef __cplusplus
}
#endif
#endif
