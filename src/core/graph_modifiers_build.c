/* tendon core: procedural and modifier nodes of a graph definition: their fields, and the
 * groups a modifier makes (the nodes below it, blended on their own before it changes them). */
#include <stdio.h>

#include "graph_internal.h"
#include "internal.h"

tdn_result tdn__graph_copy_modifier(tdn_graph *g, const tdn_node_desc *d, int node, const char *place,
                                    int *joint_at, tdn_error *err)
{
    tdn__node *n = &g->nodes[node];
    n->callback = d->callback;
    n->user = d->user;
    if (d->type == TDN_NODE_PROCEDURAL) {
        g->procedural_count++;
        return d->callback ? TDN_OK
                           : tdn__fail(err, TDN_ERR_ARGUMENT, place, "a procedural node needs its callback");
    }
    if ((int)d->modifier < TDN_MODIFIER_CALLBACK || d->modifier > TDN_MODIFIER_DAMP)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "unknown modifier kind %d", (int)d->modifier);
    n->modifier = d->modifier;
    n->slot = g->modifier_count++;
    if (d->modifier == TDN_MODIFIER_CALLBACK)
        return d->callback ? TDN_OK
                           : tdn__fail(err, TDN_ERR_ARGUMENT, place, "a callback modifier needs its callback");
    if (d->joint_count < 1 || d->joint_count > g->joint_count || !d->joints)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "a modifier needs 1..%d joints, not %d", g->joint_count,
                         d->joint_count);
    n->first_joint = *joint_at;
    n->joint_count = d->joint_count;
    for (int k = 0; k < d->joint_count; k++) {
        if (d->joints[k] < 0 || d->joints[k] >= g->joint_count)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "joint %d is not one of the skeleton's 0..%d",
                             d->joints[k], g->joint_count - 1);
        float w = d->joint_weights ? d->joint_weights[k] : 1.0f;
        if (!tdn__finite(w))
            return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "joint weight %d is not finite", k);
        g->mod_joints[*joint_at] = d->joints[k];
        g->mod_weights[(*joint_at)++] = w;
    }
    if (d->modifier == TDN_MODIFIER_ROTATE) {
        float len = tdn_vec3_length(d->axis);
        if (!(len > 1e-6f) || !tdn__finite(len))
            return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "a rotate modifier needs a finite, non-zero axis");
        n->axis = tdn_vec3_scale(d->axis, 1.0f / len);
        return TDN_OK;
    }
    if (!(d->half_life > 0.0f) || !tdn__finite(d->half_life))
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "a damp modifier needs a half-life > 0 seconds");
    n->half_life = d->half_life;
    n->state_offset = g->damp_floats;
    g->damp_floats += 8 * d->joint_count; /* per joint: the shown rotation, the spring's velocity, primed */
    return TDN_OK;
}

tdn_result tdn__graph_assign_groups(tdn_graph *g, const char *(*place)(char *, size_t, const void *, int),
                                    const void *ctx, tdn_error *err)
{
    for (int i = 0; i < g->node_count; i++)
        g->nodes[i].group = -2; /* not reached yet */
    for (int l = 0; l < g->layer_count; l++)
        g->nodes[g->layers[l].root].group = -1;
    for (int k = 0; k < g->order_count; k++) { /* parents first */
        const tdn__node *n = &g->nodes[g->order[k]];
        int below = n->type == TDN_NODE_MODIFIER ? g->order[k] : n->group;
        for (int c = 0; c < n->input_count; c++) {
            tdn__node *child = &g->nodes[g->inputs[n->first_input + c]];
            if (child->group != -2 && child->group != below) {
                char where[96];
                return tdn__fail(err, TDN_ERR_INVALID_DATA, place(where, sizeof where, ctx, g->inputs[n->first_input + c]),
                                 "the node is below two different modifiers (or below one and not)");
            }
            child->group = below;
        }
    }
    for (int i = 0; i < g->node_count; i++)
        if (g->nodes[i].group == -2)
            g->nodes[i].group = -1; /* unreached */
    return TDN_OK;
}
