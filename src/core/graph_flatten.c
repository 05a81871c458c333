/* tendon core: the flat list of (clip, time, weight), layer by layer and, inside a layer,
 * modifier by modifier: clip nodes' global weights, duplicates merged, light entries culled,
 * base weights renormalized; and the clip events the weighted clips crossed. */
#include "graph_internal.h"
#include "internal.h"

/* Entries closer in time than this are one sample. */
#define SAME_TIME 1e-6f
/* Clip events reported per clip node and update (a step crossing more is a huge step). */
#define EVENTS_PER_CLIP 16

static void add_entry(tdn_graph_instance *in, int first, int clip, int node, float time, float weight, int additive,
                      int mirror, int group)
{
    for (int k = first; k < in->entry_count && clip != TDN_ENTRY_PROCEDURAL && clip != TDN_ENTRY_MODIFIER &&
                        clip != TDN_ENTRY_MOTION_MATCH;
         k++) {
        tdn_graph_entry *e = &in->entries[k];
        if (e->clip == clip && e->additive == additive && e->mirror == mirror && fabsf(e->time - time) <= SAME_TIME) {
            e->weight += weight;
            return;
        }
    }
    in->entries[in->entry_count++] = (tdn_graph_entry){ clip, node, time, weight, additive, mirror, group };
}

/* Drops the layer's entries (from `first`) below the threshold; keeps its heaviest base entry
 * whatever its weight, so a pose always has a source. Returns the kept base weight. */
static float cull(tdn_graph_instance *in, int first, float threshold)
{
    int heaviest = -1;
    for (int k = first; k < in->entry_count; k++)
        if (!in->entries[k].additive && (heaviest < 0 || in->entries[k].weight > in->entries[heaviest].weight))
            heaviest = k;
    float kept = 0.0f;
    int n = first;
    for (int k = first; k < in->entry_count; k++) {
        tdn_graph_entry e = in->entries[k];
        if (e.weight < threshold && k != heaviest) {
            in->culled++;
            in->culled_weight += e.weight;
            continue;
        }
        kept += e.additive ? 0.0f : e.weight;
        in->entries[n++] = e;
    }
    in->entry_count = n;
    return kept;
}

static void clip_events(tdn_graph_instance *in, int node, const tdn_player *p, int clip, float weight)
{
    const tdn_clip *c = in->graph->clips[clip];
    int crossed[EVENTS_PER_CLIP];
    int n = tdn_player_events(p, tdn_clip_event_times(c), tdn_clip_event_count(c), crossed, EVENTS_PER_CLIP);
    for (int k = 0; k < n && k < EVENTS_PER_CLIP; k++)
        tdn__graph_event(in, TDN_EVENT_CLIP, node, crossed[k], clip, weight);
}

/* The entries of one group: the clips, procedural and motion-matching nodes, rest poses and
 * modifier results directly in it (`group` is a modifier node, or -1 for the layer). Inside a
 * modifier the weights are made relative to the modifier's (its input blends on its own). */
static void flatten_group(tdn_graph_instance *in, int layer, int group, float threshold)
{
    const tdn_graph *g = in->graph;
    int first = in->entry_count;
    float scale = group >= 0 && in->node_weight[group] > 0.0f ? 1.0f / in->node_weight[group] : 1.0f;
    for (int k = 0; k < g->clip_node_count; k++) {
        int i = g->clip_nodes[k];
        const tdn__node *n = &g->nodes[i];
        float weight = in->node_weight[i];
        if (n->layer != layer || n->group != group || !(weight > 0.0f))
            continue;
        add_entry(in, first, n->clip, i, in->players[k].time, weight * scale, n->additive, n->mirror, group);
        clip_events(in, i, &in->players[k], n->clip, weight);
    }
    for (int k = 0; k < g->order_count; k++) {
        int i = g->order[k];
        const tdn__node *n = &g->nodes[i];
        float weight = in->node_weight[i] * scale;
        if (n->layer != layer || n->group != group || !(weight > 0.0f))
            continue;
        if (n->type == TDN_NODE_REST)
            add_entry(in, first, TDN_ENTRY_REST, i, 0.0f, weight, 0, 0, group);
        else if (n->type == TDN_NODE_PROCEDURAL)
            add_entry(in, first, TDN_ENTRY_PROCEDURAL, i, 0.0f, weight, 0, 0, group);
        else if (n->type == TDN_NODE_MODIFIER)
            add_entry(in, first, TDN_ENTRY_MODIFIER, i, 0.0f, weight, 0, 0, group);
        else if (n->type == TDN_NODE_MOTION_MATCH) /* its time: the database frame it plays */
            add_entry(in, first, TDN_ENTRY_MOTION_MATCH, i, (float)in->mm_states[n->slot].frame, weight, 0, 0, group);
    }
    float kept = cull(in, first, threshold);
    for (int k = first; k < in->entry_count; k++)
        if (!in->entries[k].additive && kept > 0.0f)
            in->entries[k].weight /= kept;
    if (group >= 0) {
        in->group_first[g->nodes[group].slot] = first;
        in->group_count[g->nodes[group].slot] = in->entry_count - first;
    }
}

/* A layer's groups, the deepest modifiers first (their results are inputs of the groups
 * above), the layer's own last. */
static void flatten_layer(tdn_graph_instance *in, int layer, float threshold)
{
    const tdn_graph *g = in->graph;
    tdn__layer_state *ls = &in->layer_states[layer];
    float w = tdn__graph_value(in, g->layers[layer].weight);
    ls->weight = tdn__clamp01(w);
    ls->first_entry = in->entry_count;
    for (int k = g->order_count - 1; k >= 0; k--) { /* children come after parents in order */
        int i = g->order[k];
        if (g->nodes[i].type == TDN_NODE_MODIFIER && g->nodes[i].layer == layer) {
            if (in->node_weight[i] > 0.0f)
                flatten_group(in, layer, i, threshold);
            else
                in->group_count[g->nodes[i].slot] = 0;
        }
    }
    ls->base_first = in->entry_count;
    flatten_group(in, layer, -1, threshold);
    ls->base_count = in->entry_count - ls->base_first;
    ls->entry_count = in->entry_count - ls->first_entry;
}

void tdn__graph_flatten(tdn_graph_instance *instance)
{
    const tdn_graph *g = instance->graph;
    instance->entry_count = 0;
    instance->culled = 0;
    instance->culled_weight = 0.0f;
    float threshold = g->cull_threshold > 0.0f ? g->cull_threshold : 0.0f;
    for (int layer = 0; layer < g->layer_count; layer++)
        flatten_layer(instance, layer, threshold);
}
