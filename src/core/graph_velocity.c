/* tendon core: every joint's velocity blended like the pose: each layer's entries' clip
 * velocities by the entries' weights, then composed layer over layer as the poses are. */
#include "graph_internal.h"
#include "internal.h"
#include "tendon/mirror.h"

/* out = below + (layer - below) * w * mask[j], row by row (an override layer). */
static void lerp_rows(tdn_pose *out, const tdn_pose *layer, float w, const float *mask)
{
    for (int r = 0; r < TDN_POSE_ROWS; r++) {
        float *o = tdn_pose_row(out, r);
        const float *l = tdn_pose_crow(layer, r);
        for (int j = 0; j < out->joint_count; j++) {
            float wj = mask ? w * mask[j] : w;
            o[j] += (l[j] - o[j]) * wj;
        }
    }
}

/* out += layer * w * mask[j] for translation and rotation rows (an additive layer adds its
 * difference's motion; scale rates multiply, to first order they add too). */
static void add_rows(tdn_pose *out, const tdn_pose *layer, float w, const float *mask)
{
    for (int r = 0; r < TDN_POSE_ROWS; r++) {
        float *o = tdn_pose_row(out, r);
        const float *l = tdn_pose_crow(layer, r);
        for (int j = 0; j < out->joint_count; j++)
            o[j] += l[j] * (mask ? w * mask[j] : w);
    }
}

/* A layer's velocity: its entries' clip velocities blended with the entries' weights (an entry
 * inside a modifier by its weight there times the modifier's; what modifiers change is not in
 * it). */
static void layer_velocity(tdn_graph_instance *in, tdn_graph_workspace *ws, const tdn__layer_state *ls, tdn_pose *out)
{
    const tdn_graph *g = in->graph;
    int n = 0;
    for (int k = 0; k < ls->entry_count; k++) {
        const tdn_graph_entry *e = &in->entries[ls->first_entry + k];
        tdn_pose *v = &ws->poses[ls->first_entry + k];
        if (e->clip == TDN_ENTRY_MODIFIER)
            continue;
        if (e->clip == TDN_ENTRY_MOTION_MATCH) {
            tdn__graph_motion_match_velocity(in, e->node, v);
        } else if (e->clip < 0) { /* the rest pose and procedural poses do not move */
            for (int r = 0; r < TDN_POSE_ROWS; r++)
                memset(tdn_pose_row(v, r), 0, sizeof(float) * (size_t)v->stride);
        } else {
            tdn_clip_sample_velocity(g->clips[e->clip], e->time, &ws->layer_pose, v, NULL);
            if (e->mirror)
                tdn_pose_mirror(v, g->mirror, v, NULL);
        }
        ws->layers[n++] = (tdn_blend_input){ v, e->weight * (e->group >= 0 ? in->node_weight[e->group] : 1.0f), NULL };
    }
    tdn_velocity_blend(ws->layers, n, out, NULL);
}

tdn_result tdn_graph_joint_velocities(tdn_graph_instance *instance, tdn_pose *velocity, tdn_error *err)
{
    tdn_graph_workspace *own;
    if (tdn__graph_own_workspace(instance, "tdn_graph_joint_velocities_with", &own, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    return tdn_graph_joint_velocities_with(instance, own, velocity, err);
}

tdn_result tdn_graph_joint_velocities_with(tdn_graph_instance *instance, tdn_graph_workspace *ws, tdn_pose *velocity,
                                           tdn_error *err)
{
    const tdn_graph *g = instance ? instance->graph : NULL;
    if (!instance || !ws || !velocity)
        return tdn__null(err, !instance ? "instance" : !ws ? "workspace" : "velocity");
    if (velocity->joint_count != g->joint_count)
        return tdn__pose_size(err, "velocity", velocity->joint_count, g->joint_count, "the graph's skeleton");
    if (tdn__graph_workspace_bind(ws, g, "workspace", err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    for (int r = 0; r < TDN_POSE_ROWS; r++)
        memset(tdn_pose_row(velocity, r), 0, sizeof(float) * (size_t)velocity->stride);
    tdn_pose *layer = &ws->spare;
    for (int l = 0; l < g->layer_count; l++) {
        const tdn__layer *L = &g->layers[l];
        const tdn__layer_state *ls = &instance->layer_states[l];
        if (ls->entry_count == 0 || (ls->weight <= 0.0f && l > 0))
            continue;
        int direct = l == 0 && L->mode == TDN_LAYER_OVERRIDE;
        tdn_pose *target = direct ? velocity : layer;
        layer_velocity(instance, ws, ls, target);
        if (direct) {
            if (ls->weight < 1.0f || L->mask) /* the rest pose below does not move */
                for (int r = 0; r < TDN_POSE_ROWS; r++)
                    for (int j = 0; j < velocity->joint_count; j++)
                        tdn_pose_row(velocity, r)[j] *= L->mask ? ls->weight * L->mask[j] : ls->weight;
        } else if (L->mode == TDN_LAYER_ADDITIVE) {
            add_rows(velocity, layer, ls->weight, L->mask);
        } else {
            lerp_rows(velocity, layer, ls->weight, L->mask);
        }
    }
    return TDN_OK;
}
