/* tendon core: which joints and row groups (translation, rotation, scale) each layer of a graph
 * can change, worked out once when the graph is made, so that evaluating samples, blends and
 * composes only those (graph_evaluate.c). A joint of a layer above the bottom, or a row group,
 * is left alone when the mask does not let the layer through there, or when neither its clips
 * (against the rest pose, or the identity for differences) nor the layers below move it:
 * composing would give back what is there. The joints are kept as one span of whole SIMD
 * blocks (TDN_POSE_LANES joints) from the first to the last that can change. Most
 * characters' clips never scale a joint and move translations only at the root, so upper-body,
 * hand and aim layers blend rotations alone. */
#include <string.h>

#include "graph_internal.h"
#include "internal.h"

/* The row groups clip c moves per joint (against the rest pose, or the identity for a
 * difference; limits: the rest limits of each, tdn__clip_rest_limits), worked out once per
 * graph: clip nodes may share a clip. */
static const unsigned char *clip_rows(const tdn_graph *g, int c, const tdn_pose *identity, const float *const limits[2],
                                      unsigned char *done, unsigned char *rows)
{
    unsigned char *of_clip = rows + (size_t)c * (size_t)g->joint_count;
    if (!done[c]) {
        const tdn_clip *clip = g->clips[c];
        const int additive = tdn_clip_is_additive(clip);
        memset(of_clip, 0, (size_t)g->joint_count);
        tdn__clip_moved_rows(clip, additive ? identity : &g->rest, limits[additive], of_clip);
        done[c] = 1;
    }
    return of_clip;
}

/* The row groups layer l's nodes move, per joint, into marks (joint_count bytes); 0 when a node
 * of a kind whose pose is not known before evaluating (procedural, modifier, motion matching,
 * a mirrored clip, the rest pose used as a difference) makes the layer change everything. */
static int layer_marks(const tdn_graph *g, int l, const tdn_pose *identity, const float *const limits[2],
                       unsigned char *marks, unsigned char *clip_done, unsigned char *clip_rows_of)
{
    memset(marks, 0, (size_t)g->joint_count);
    for (int i = 0; i < g->node_count; i++) {
        const tdn__node *n = &g->nodes[i];
        if (n->layer != l)
            continue;
        if (n->type == TDN_NODE_PROCEDURAL || n->type == TDN_NODE_MODIFIER || n->type == TDN_NODE_MOTION_MATCH ||
            (n->type == TDN_NODE_REST && n->additive) || (n->type == TDN_NODE_CLIP && n->mirror))
            return 0;
        if (n->type != TDN_NODE_CLIP)
            continue;
        const unsigned char *moved = clip_rows(g, n->clip, identity, limits, clip_done, clip_rows_of);
        for (int j = 0, joints = g->joint_count; j < joints; j++) /* the count held: marks could alias it */
            marks[j] |= moved[j];
        if (g->extract_root_motion && g->root_tracks && g->root_tracks[n->clip]) /* it rewrites the root */
            marks[g->root_joint] |= TDN__ROWS_T | TDN__ROWS_R;
    }
    return 1;
}

void tdn__graph_layer_rows(tdn_graph *g, const tdn_pose *identity, float *limits, unsigned char *marks,
                           unsigned char *below, unsigned char *clip_done, unsigned char *clip_rows_of)
{
    const float *const limits_of[2] = { limits, limits + TDN_POSE_ROWS * (size_t)identity->stride };
    tdn__clip_rest_limits(&g->rest, limits);
    tdn__clip_rest_limits(identity, limits + TDN_POSE_ROWS * (size_t)identity->stride);
    memset(below, 0, (size_t)g->joint_count); /* what the layers so far may have moved from rest */
    const int stride = tdn_pose_stride(g->joint_count);
    for (int l = 0; l < g->layer_count; l++) {
        tdn__layer *L = &g->layers[l];
        const int known = layer_marks(g, l, identity, limits_of, marks, clip_done, clip_rows_of);
        L->part = (tdn__part){ TDN__ROWS_ALL, 0, stride };
        if (l > 0 && known && !L->inertializes && !L->model_space_rotation) {
            /* the joints where the mask reaches something that can move, their row groups */
            unsigned rows = TDN__ROWS_R;
            int first = g->joint_count, last = -1;
            for (int j = 0; j < g->joint_count; j++) {
                const unsigned moved = marks[j] | (L->mode == TDN_LAYER_OVERRIDE ? below[j] : 0u);
                if ((!L->mask || L->mask[j] > 0.0f) && moved) {
                    rows |= moved;
                    first = j < first ? j : first;
                    last = j;
                }
            }
            const int lanes = TDN_POSE_LANES;
            L->part = last < 0
                          ? (tdn__part){ rows, 0, 0 } /* it changes nothing */
                          : (tdn__part){ rows, first / lanes * lanes,
                                         (last / lanes + 1) * lanes < stride ? (last / lanes + 1) * lanes : stride };
        }
        for (int j = 0; j < g->joint_count; j++)
            if (!known)
                below[j] = TDN__ROWS_ALL;
            else if (!L->mask || L->mask[j] > 0.0f)
                below[j] |= marks[j];
    }
}
