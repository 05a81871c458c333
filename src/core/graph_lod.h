/* tendon core: a batch character's update-rate level of detail (graph_lod.c), for graph_batch.c. */
#ifndef TENDON_GRAPH_LOD_H
#define TENDON_GRAPH_LOD_H

#include "graph_internal.h"

/* One frame of a character with a tdn_graph_lod, after its update (`updated`: 1 when the batch
 * updated it this frame): re-anchors the history by the update's root motion, evaluates when the
 * clock says so, moves the shown pose on, advances the clock. Returns the shown pose. `skeleton`:
 * the output pose's (its parentless joints carry the character's frame). With a joint LOD
 * (NULL: none) only its kept joints are evaluated and moved; the dropped ones of the shown and
 * target poses stay as they were. */
tdn_pose *tdn__graph_lod_frame(tdn_graph_lod *lod, tdn_graph_instance *instance, tdn_graph_workspace *ws,
                               const tdn_skeleton *skeleton, const tdn_joint_lod *joint_lod, int updated);

#endif
