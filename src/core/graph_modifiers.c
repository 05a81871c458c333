/* tendon core: procedural and modifier nodes: their definition (their fields, and the groups a
 * modifier makes: the nodes below it, blended on their own before it changes them) and their run
 * time (a user callback, a rotation spread over joints from a parameter, and joint damping:
 * rotations lagging their animated targets through a critically damped spring). */
#include <stdio.h>

#include "graph_internal.h"
#include "internal.h"
#include "pose_rotation.h"
#include "spring.h"

/* ---- the definition: copied and checked when the graph is created ---- */

tdn_result tdn__graph_copy_modifier(tdn_graph *g, const tdn_node_desc *d, int node, const char *place, int *joint_at,
                                    tdn_error *err)
{
    tdn__node *n = &g->nodes[node];
    n->callback = d->callback;
    n->user = d->user;
    if (d->type == TDN_NODE_PROCEDURAL) {
        g->procedural_count++;
        return d->callback ? TDN_OK : tdn__fail(err, TDN_ERR_ARGUMENT, place, "a procedural node needs its callback");
    }
    if ((int)d->modifier < TDN_MODIFIER_CALLBACK || d->modifier > TDN_MODIFIER_DAMP)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "unknown modifier kind %d", (int)d->modifier);
    n->modifier = d->modifier;
    n->slot = g->modifier_count++;
    if (d->modifier == TDN_MODIFIER_CALLBACK)
        return d->callback ? TDN_OK : tdn__fail(err, TDN_ERR_ARGUMENT, place, "a callback modifier needs its callback");
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
                return tdn__fail(err, TDN_ERR_INVALID_DATA,
                                 place(where, sizeof where, ctx, g->inputs[n->first_input + c]),
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

/* ---- at run time ---- */

/* The rotation vector (axis * angle, angle in [0, pi]) of a unit quaternion, the short way. */
static tdn_vec3 rotation_log(tdn_quat q)
{
    if (q.w < 0.0f)
        q = tdn_quat_negate(q);
    float s = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    float angle = 2.0f * atan2f(s, q.w);
    float k = s > 1e-12f ? angle / s : 2.0f; /* small angles: 2 (sin x ~ x) */
    return tdn_vec3_make(q.x * k, q.y * k, q.z * k);
}

static tdn_quat rotation_exp(tdn_vec3 v)
{
    float angle = tdn_vec3_length(v);
    if (!(angle > 1e-12f))
        return tdn_quat_normalize(tdn_quat_make(0.5f * v.x, 0.5f * v.y, 0.5f * v.z, 1.0f));
    return tdn_quat_from_axis_angle(tdn_vec3_scale(v, 1.0f / angle), angle);
}

/* Each damped joint shows a rotation `shown` = exp(x) * target, x (the rotation from its
 * animated target to what it shows) and its velocity springing to 0. State per joint: the
 * shown quaternion, the velocity, whether it has started. */
static void damp(tdn_graph_instance *in, const tdn__node *n, float dt, tdn_pose *pose)
{
    const tdn_graph *g = in->graph;
    float y = TDN__HALF_LIFE_U / n->half_life;
    for (int k = 0; k < n->joint_count; k++) {
        int j = g->mod_joints[n->first_joint + k];
        float *st = in->mod_state + n->state_offset + 8 * k;
        tdn_quat target = tdn__pose_rotation(pose, j);
        if (st[7] == 0.0f) { /* first frame: nothing to lag behind yet */
            st[0] = target.x, st[1] = target.y, st[2] = target.z, st[3] = target.w;
            st[4] = st[5] = st[6] = 0.0f;
            st[7] = 1.0f;
            continue;
        }
        tdn_quat shown = tdn_quat_make(st[0], st[1], st[2], st[3]);
        tdn_vec3 x = rotation_log(tdn_quat_mul(shown, tdn_quat_conjugate(target)));
        float xs[3] = { x.x, x.y, x.z };
        for (int c = 0; c < 3; c++)
            tdn__spring_step(&xs[c], &st[4 + c], 0.0f, y, dt);
        shown = tdn_quat_normalize(tdn_quat_mul(rotation_exp(tdn_vec3_make(xs[0], xs[1], xs[2])), target));
        st[0] = shown.x, st[1] = shown.y, st[2] = shown.z, st[3] = shown.w;
        tdn__pose_set_rotation(pose, j, shown);
    }
}

void tdn__graph_apply_modifier(tdn_graph_instance *in, int node, float dt, tdn_pose *pose)
{
    const tdn_graph *g = in->graph;
    const tdn__node *n = &g->nodes[node];
    switch (n->modifier) {
    case TDN_MODIFIER_CALLBACK:
        n->callback(n->user, in, node, dt, pose);
        break;
    case TDN_MODIFIER_ROTATE: {
        float angle = tdn__graph_value(in, n->value);
        if (!tdn__finite(angle))
            break;
        for (int k = 0; k < n->joint_count; k++) {
            int j = g->mod_joints[n->first_joint + k];
            tdn_quat turn = tdn_quat_from_axis_angle(n->axis, angle * g->mod_weights[n->first_joint + k]);
            tdn__pose_set_rotation(pose, j, tdn_quat_normalize(tdn_quat_mul(turn, tdn__pose_rotation(pose, j))));
        }
        break;
    }
    case TDN_MODIFIER_DAMP:
        damp(in, n, dt, pose);
        break;
    }
}
