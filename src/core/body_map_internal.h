/* tendon core: what the body map's files share (not installed). */
#ifndef TENDON_BODY_MAP_INTERNAL_H
#define TENDON_BODY_MAP_INTERNAL_H

#include "tendon/body_map.h"

/* What a joint's name says it is, once normalised (body_map_names.c). */
typedef enum tdn__body_word {
    TDN__WORD_NONE,   /* nothing known */
    TDN__WORD_END,    /* a bone's end marker: *End, *Nub */
    TDN__WORD_HELPER, /* eye, jaw, IK target or pole, twist or roll */
    TDN__WORD_HIPS,   /* hips, pelvis, an unsided hip */
    TDN__WORD_SPINE,  /* spine, chest, abdomen, torso, back */
    TDN__WORD_NECK,
    TDN__WORD_HEAD,
    TDN__WORD_CLAVICLE,  /* clavicle, collar */
    TDN__WORD_SHOULDER,  /* a clavicle or an upper arm: the hierarchy settles it */
    TDN__WORD_UPPER_ARM, /* upper arm, a bare arm, shldr */
    TDN__WORD_FOREARM,   /* forearm, lower arm, elbow */
    TDN__WORD_HAND,      /* hand, wrist */
    TDN__WORD_THIGH,     /* thigh, up leg, upper leg */
    TDN__WORD_SIDED_HIP, /* a sided hip: a thigh or a pelvis bone, the bones' lengths settle it */
    TDN__WORD_SHIN,      /* shin, calf, knee, lower leg, a bare leg */
    TDN__WORD_FOOT,      /* foot, ankle */
    TDN__WORD_TOES,      /* toe, toes, toe base, ball */
    TDN__WORD_THUMB,     /* the fingers, in the order of tdn_body_part's */
    TDN__WORD_INDEX,
    TDN__WORD_MIDDLE,
    TDN__WORD_RING,
    TDN__WORD_PINKY,
    TDN__WORD_FINGERS,   /* a finger base or fingers, not one finger */
    TDN__WORD_ARM_CHAIN, /* a numbered arm joint (arm_joint_L_2): the hierarchy says which */
    TDN__WORD_LEG_CHAIN  /* a numbered leg joint (leg_joint_L_2) */
} tdn__body_word;

/* Side from a name: 0 none, 1 left, 2 right (3: both markers, which counts as none). */
typedef struct tdn__body_name {
    tdn__body_word word;
    int side;
} tdn__body_name;

/* Reads a joint name: normalised, its side marker taken out, its words matched. */
tdn__body_name tdn__body_name_read(const char *name);

#endif
