/* tendon core: a batch character's joint level of detail (graph_joint_lod.c), for evaluation,
 * IK and the batch. */
#ifndef TENDON_GRAPH_JOINT_LOD_H
#define TENDON_GRAPH_JOINT_LOD_H

#include "internal.h"
#include "tendon/graph.h"

/* `part` cut to the blocks the LOD evaluates, into parts (TDN_JOINT_LOD_MAX_SPANS of room):
 * `part` itself without a LOD. Returns how many. */
int tdn__joint_lod_parts(const tdn_joint_lod *lod, tdn__part part, tdn__part *parts);
/* Whether the LOD keeps `joint` (every joint without a LOD). */
int tdn__joint_lod_keeps(const tdn_joint_lod *lod, int joint);
/* The kept joints of `from` into `to` (poses of the LOD's joint count; every joint without a
 * LOD). */
void tdn__joint_lod_copy(const tdn_joint_lod *lod, const tdn_pose *from, tdn_pose *to);

#endif
