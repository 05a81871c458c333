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

static void clip_events(tdn_graph_instance *in, int node, const tdn_player *p, float weight)
{
    const tdn__node *n = &in->graph->nodes[node];
    int crossed[EVENTS_PER_CLIP];
    int count = tdn_player_events(p, n->event_times, n->event_count, crossed, EVENTS_PER_CLIP);
    for (int k = 0; k < count && k < EVENTS_PER_CLIP; k++)
        tdn__graph_event(in, TDN_EVENT_CLIP, node, crossed[k], n->clip, weight);
}

/* The entries of one group: the clips, procedural and motion-matching nodes, rest poses and
 * modifier results directly in it (`group` is a modifier node, or -1 for the layer). Inside a
 * modifier the weights are made relative to the modifier's (its input blends on its own). */
static void flatten_group(tdn_graph_instance *in, const tdn__flat_group *fg, int group, float threshold)
{
    const tdn_graph *g = in->graph;
    int first = in->entry_count;
    float scale = group >= 0 && in->node_weight[group] > 0.0f ? 1.0f / in->node_weight[group] : 1.0f;
    const int *nodes = g->flat_nodes + fg->first;
    for (int k = 0; k < fg->clip_count; k++) {
        int i = nodes[k];
        float weight = in->node_weight[i];
        if (!(weight > 0.0f))
            continue;
        const tdn__node *n = &g->nodes[i];
        const tdn_player *p = &in->players[n->clip_slot];
        add_entry(in, first, n->clip, i, p->time, weight * scale, n->additive, n->mirror, group);
        if (n->event_count > 0)
            clip_events(in, i, p, weight);
    }
    for (int k = fg->clip_count; k < fg->clip_count + fg->other_count; k++) {
        int i = nodes[k];
        float weight = in->node_weight[i] * scale;
        if (!(weight > 0.0f))
            continue;
        const tdn__node *n = &g->nodes[i];
        if (n->type == TDN_NODE_REST)
            add_entry(in, first, TDN_ENTRY_REST, i, 0.0f, weight, 0, 0, group);
        else if (n->type == TDN_NODE_PROCEDURAL)
            add_entry(in, first, TDN_ENTRY_PROCEDURAL, i, 0.0f, weight, 0, 0, group);
        else if (n->type == TDN_NODE_MODIFIER)
            add_entry(in, first, TDN_ENTRY_MODIFIER, i, 0.0f, weight, 0, 0, group);
        else /* a motion-matching node; its time: the database frame it plays */
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
    const tdn__layer *L = &g->layers[layer];
    tdn__layer_state *ls = &in->layer_states[layer];
    float w = tdn__graph_value(in, L->weight);
    ls->weight = tdn__clamp01(w);
    ls->first_entry = in->entry_count;
    for (int k = 0; k < L->modifier_count; k++) {
        int i = g->layer_modifiers[L->first_modifier + k];
        int slot = g->nodes[i].slot;
        if (in->node_weight[i] > 0.0f)
            flatten_group(in, &g->flat_groups[g->layer_count + slot], i, threshold);
        else
            in->group_count[slot] = 0;
    }
    ls->base_first = in->entry_count;
    flatten_group(in, &g->flat_groups[layer], -1, threshold);
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

/* The flat group a node's entries go to: its layer's own, or its modifier's. */
static tdn__flat_group *flat_group_of(tdn_graph *g, const tdn__node *n)
{
    return &g->flat_groups[n->group >= 0 ? g->layer_count + g->nodes[n->group].slot : n->layer];
}

static int makes_entries(const tdn__node *n)
{
    return n->type == TDN_NODE_REST || n->type == TDN_NODE_PROCEDURAL || n->type == TDN_NODE_MODIFIER ||
           n->type == TDN_NODE_MOTION_MATCH;
}

void tdn__graph_list_flat_groups(tdn_graph *g)
{
    int groups = g->layer_count + g->modifier_count;
    for (int k = 0; k < groups; k++)
        g->flat_groups[k] = (tdn__flat_group){ 0, 0, 0 };
    /* Count, then give each group its run, then fill the runs in the order flatten reads them. */
    for (int k = 0; k < g->clip_node_count; k++) {
        const tdn__node *n = &g->nodes[g->clip_nodes[k]];
        if (n->layer >= 0)
            flat_group_of(g, n)->clip_count++;
    }
    for (int k = 0; k < g->order_count; k++) {
        const tdn__node *n = &g->nodes[g->order[k]];
        if (makes_entries(n))
            flat_group_of(g, n)->other_count++;
    }
    int at = 0;
    for (int k = 0; k < groups; k++) {
        g->flat_groups[k].first = at;
        at += g->flat_groups[k].clip_count + g->flat_groups[k].other_count;
        g->flat_groups[k].clip_count = g->flat_groups[k].other_count = 0;
    }
    for (int k = 0; k < g->clip_node_count; k++) {
        const tdn__node *n = &g->nodes[g->clip_nodes[k]];
        if (n->layer < 0)
            continue;
        tdn__flat_group *fg = flat_group_of(g, n);
        g->flat_nodes[fg->first + fg->clip_count++] = g->clip_nodes[k];
    }
    for (int k = 0; k < g->order_count; k++) {
        const tdn__node *n = &g->nodes[g->order[k]];
        if (!makes_entries(n))
            continue;
        tdn__flat_group *fg = flat_group_of(g, n);
        g->flat_nodes[fg->first + fg->clip_count + fg->other_count++] = g->order[k];
    }
    /* each layer's modifiers, deepest first: children come after their parents in order */
    at = 0;
    for (int l = 0; l < g->layer_count; l++) {
        tdn__layer *L = &g->layers[l];
        L->first_modifier = at;
        for (int k = g->order_count - 1; k >= 0; k--)
            if (g->nodes[g->order[k]].type == TDN_NODE_MODIFIER && g->nodes[g->order[k]].layer == l)
                g->layer_modifiers[at++] = g->order[k];
        L->modifier_count = at - L->first_modifier;
    }
}
