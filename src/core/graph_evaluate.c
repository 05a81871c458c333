/* tendon core: a graph instance's frame: update (parameters, weights, times, flat list) and
 * evaluate (each entry sampled once, everything blended once). */
#include "graph_internal.h"
#include "internal.h"
#include "tendon/mirror.h"

tdn_result tdn_graph_update(tdn_graph_instance *instance, float dt)
{
    if (!instance)
        return TDN_ERR_ARGUMENT;
    if (!(dt > 0.0f) || !tdn__finite(dt))
        dt = 0.0f;
    tdn__graph_params_advance(instance, dt);
    tdn__graph_switches_advance(instance, dt);
    tdn__graph_weights(instance);
    tdn__graph_advance_clips(instance, dt);
    tdn__graph_flatten(instance);
    const tdn_graph *g = instance->graph;
    for (int p = 0; p < g->param_count; p++) {
        tdn__param_state *s = &instance->params[p];
        if (g->params[p].type == TDN_PARAM_TRIGGER && s->fired) {
            s->fired = 0;
            s->target[0] = s->value[0] = 0.0f;
        }
    }
    return TDN_OK;
}

static void sample_entry(const tdn_graph_instance *in, const tdn_graph_entry *e, tdn_pose *pose)
{
    const tdn_graph *g = in->graph;
    if (e->clip < 0)
        tdn_pose_copy(pose, &in->rest);
    else
        tdn_clip_sample(g->clips[e->clip], e->time, pose);
    if (e->mirror)
        tdn_pose_mirror(pose, g->mirror, pose);
}

tdn_result tdn_graph_evaluate(tdn_graph_instance *instance, tdn_pose *out)
{
    if (!instance || !out || out->joint_count != instance->graph->joint_count)
        return TDN_ERR_ARGUMENT;
    int base = 0, additive = 0;
    for (int k = 0; k < instance->entry_count; k++)
        additive += instance->entries[k].additive;
    base = instance->entry_count - additive;
    /* One pose and nothing on top (a clip alone, or all others culled): straight into out. */
    if (base == 1 && additive == 0) {
        sample_entry(instance, &instance->entries[0], out);
        return TDN_OK;
    }
    int nl = 0, na = 0;
    for (int k = 0; k < instance->entry_count; k++) {
        const tdn_graph_entry *e = &instance->entries[k];
        sample_entry(instance, e, &instance->poses[k]);
        tdn_blend_input input = { &instance->poses[k], e->weight, NULL };
        if (e->additive)
            instance->additives[na++] = input;
        else
            instance->layers[nl++] = input;
    }
    tdn_blend_job job = { instance->layers, nl, instance->additives, na, &instance->rest, out };
    return tdn_blend(&job);
}
