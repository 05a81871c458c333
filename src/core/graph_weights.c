/* tendon core: switch cross-fades, and every node's global weight and playback rate from the
 * root down (weights multiply down the hierarchy). */
#include "graph_internal.h"
#include "internal.h"

static int switch_selection(const tdn_graph_instance *in, const tdn__node *n)
{
    float x = tdn__graph_value(in, n->value);
    if (!(x > 0.0f))
        return 0; /* NaN too */
    return x >= (float)(n->input_count - 1) ? n->input_count - 1 : (int)lroundf(x);
}

void tdn__graph_switches_reset(tdn_graph_instance *instance)
{
    const tdn_graph *g = instance->graph;
    for (int i = 0; i < g->node_count; i++) {
        const tdn__node *n = &g->nodes[i];
        if (n->type != TDN_NODE_SWITCH)
            continue;
        int selected = switch_selection(instance, n);
        for (int k = 0; k < n->input_count; k++)
            instance->switch_weights[n->switch_slot + k] = k == selected ? 1.0f : 0.0f;
    }
}

/* The selected input gains dt / fade; the others share what is left in their current
 * proportions, so an interrupted fade carries on from where it is and weights sum to 1. */
void tdn__graph_switches_advance(tdn_graph_instance *instance, float dt)
{
    const tdn_graph *g = instance->graph;
    for (int i = 0; i < g->node_count && g->switch_weight_count > 0; i++) {
        const tdn__node *n = &g->nodes[i];
        if (n->type != TDN_NODE_SWITCH)
            continue;
        float *w = instance->switch_weights + n->switch_slot;
        int selected = switch_selection(instance, n);
        float gain = n->fade > 0.0f ? dt / n->fade : 1.0f;
        float target = w[selected] + gain < 1.0f ? w[selected] + gain : 1.0f;
        float others = 0.0f;
        for (int k = 0; k < n->input_count; k++)
            others += k == selected ? 0.0f : w[k];
        float keep = others > 0.0f ? (1.0f - target) / others : 0.0f;
        for (int k = 0; k < n->input_count; k++)
            w[k] = k == selected ? (others > 0.0f ? target : 1.0f) : w[k] * keep;
    }
}

/* Adds a parent's share to an input. The rate kept is the weight-averaged rate over the
 * parents that give it weight; an input with no weight keeps the last parent's rate (its
 * clips still advance). */
static void give(tdn_graph_instance *in, int child, float weight, float rate, int leaving)
{
    in->node_leaving[child] |= (unsigned char)leaving;
    float *w = &in->node_weight[child], *r = &in->node_rate[child];
    if (weight > 0.0f) {
        *r = *w > 0.0f ? *r + weight * rate : weight * rate;
        *w += weight;
    } else if (*w == 0.0f) {
        *r = rate;
    }
}

static int blend_space_point(const tdn_graph_instance *in, const tdn__node *n, float *point)
{
    const tdn_graph *g = in->graph;
    int dims = tdn_blend_space_dimensions(n->space);
    if (n->axis_count == 1) {
        const float *v = in->params[g->axes[n->first_axis]].value;
        for (int d = 0; d < dims; d++)
            point[d] = v[d];
    } else {
        for (int d = 0; d < dims; d++)
            point[d] = in->params[g->axes[n->first_axis + d]].value[0];
    }
    return dims;
}

static void distribute(tdn_graph_instance *in, const tdn__node *n, float w, float r, int leaving)
{
    const tdn_graph *g = in->graph;
    const int *inputs = g->inputs + n->first_input;
    float x,
        share[TDN_MAX_NODE_INPUTS > TDN_MAX_BLEND_SPACE_SAMPLES ? TDN_MAX_NODE_INPUTS : TDN_MAX_BLEND_SPACE_SAMPLES];
    if (!(w > 0.0f) && n->type != TDN_NODE_TIME_SCALE && n->type != TDN_NODE_STATE_MACHINE) {
        /* no weight to share: the inputs only learn the rate and whether they are leaving (a
         * blend space's weights are not worked out) */
        for (int k = 0; k < n->input_count; k++)
            give(in, inputs[k], 0.0f, r, leaving);
        return;
    }
    switch (n->type) {
    case TDN_NODE_BLEND2:
        x = tdn__clamp01(tdn__graph_value(in, n->value));
        give(in, inputs[0], w * (1.0f - x), r, leaving);
        give(in, inputs[1], w * x, r, leaving);
        break;
    case TDN_NODE_BLENDN: {
        float sum = 0.0f;
        for (int k = 0; k < n->input_count; k++) {
            float v = tdn__graph_value(in, g->values[n->first_value + k]);
            share[k] = v > 0.0f && v < INFINITY ? v : 0.0f;
            sum += share[k];
        }
        for (int k = 0; k < n->input_count; k++)
            give(in, inputs[k], sum > 0.0f ? w * share[k] / sum : (k == 0 ? w : 0.0f), r, leaving);
        break;
    }
    case TDN_NODE_SWITCH:
        for (int k = 0; k < n->input_count; k++)
            give(in, inputs[k], w * in->switch_weights[n->switch_slot + k], r, leaving);
        break;
    case TDN_NODE_MODIFIER: /* its input, whole: blended on its own before the change */
        give(in, inputs[0], w, r, leaving);
        break;
    case TDN_NODE_ADDITIVE:
        give(in, inputs[0], w, r, leaving);
        give(in, inputs[1], w * tdn__clamp01(tdn__graph_value(in, n->value)), r, leaving);
        break;
    case TDN_NODE_TIME_SCALE:
        x = tdn__graph_value(in, n->value);
        give(in, inputs[0], w, r * (x > 0.0f && x < INFINITY ? x : 0.0f), leaving);
        break;
    case TDN_NODE_STATE_MACHINE: {
        int frozen[TDN_MAX_STATES];
        tdn__graph_machine_weights(in, n->machine, share, frozen);
        int top = tdn__graph_machine_top(in, n->machine);
        for (int k = 0; k < n->input_count; k++)
            give(in, inputs[k], w * share[k], frozen[k] ? 0.0f : r, leaving || k != top);
        break;
    }
    case TDN_NODE_BLEND_SPACE: {
        float point[TDN_MAX_BLEND_SPACE_DIMENSIONS];
        blend_space_point(in, n, point);
        tdn_blend_space_weights(n->space, point, share, NULL); /* a NaN point: all on sample 0 */
        for (int k = 0; k < n->input_count; k++)
            give(in, inputs[k], w * share[k], r, leaving);
        break;
    }
    default:
        break;
    }
}

void tdn__graph_weights(tdn_graph_instance *instance)
{
    const tdn_graph *g = instance->graph;
    memset(instance->node_weight, 0, sizeof(float) * (size_t)g->node_count);
    memset(instance->node_leaving, 0, (size_t)g->node_count);
    for (int i = 0; i < g->node_count; i++)
        instance->node_rate[i] = 1.0f;
    for (int l = 0; l < g->layer_count; l++)
        instance->node_weight[g->layers[l].root] = 1.0f;
    for (int k = 0; k < g->order_count; k++) {
        int i = g->order[k];
        float w = instance->node_weight[i];
        const tdn__node *n = &g->nodes[i];
        if (w > 0.0f) /* from the weighted sum to the average (a layer's root: 1 / 1) */
            instance->node_rate[i] /= w;
        if (n->input_count > 0)
            distribute(instance, n, w, instance->node_rate[i], instance->node_leaving[i]);
    }
}
