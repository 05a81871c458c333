/* tendon core: the flat list of (clip, time, weight): clip nodes' global weights, duplicates
 * merged, light entries culled, base weights renormalized. */
#include "graph_internal.h"
#include "internal.h"

/* Entries closer in time than this are one sample. */
#define SAME_TIME 1e-6f

static void add_entry(tdn_graph_instance *in, int clip, int node, float time, float weight, int additive, int mirror)
{
    for (int k = 0; k < in->entry_count; k++) {
        tdn_graph_entry *e = &in->entries[k];
        if (e->clip == clip && e->additive == additive && e->mirror == mirror && fabsf(e->time - time) <= SAME_TIME) {
            e->weight += weight;
            return;
        }
    }
    in->entries[in->entry_count++] = (tdn_graph_entry){ clip, node, time, weight, additive, mirror };
}

/* Drops entries below the threshold (of one kind: base or additive); keeps the heaviest base
 * entry whatever its weight, so a pose always has a source. Returns the kept base weight. */
static float cull(tdn_graph_instance *in, float threshold)
{
    int heaviest = -1;
    for (int k = 0; k < in->entry_count; k++)
        if (!in->entries[k].additive && (heaviest < 0 || in->entries[k].weight > in->entries[heaviest].weight))
            heaviest = k;
    float kept = 0.0f;
    int n = 0;
    for (int k = 0; k < in->entry_count; k++) {
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

void tdn__graph_flatten(tdn_graph_instance *instance)
{
    const tdn_graph *g = instance->graph;
    instance->entry_count = 0;
    instance->culled = 0;
    instance->culled_weight = 0.0f;
    for (int k = 0; k < g->clip_node_count; k++) {
        int i = g->clip_nodes[k];
        const tdn__node *n = &g->nodes[i];
        if (instance->node_weight[i] > 0.0f)
            add_entry(instance, n->clip, i, instance->players[k].time, instance->node_weight[i], n->additive, n->mirror);
    }
    for (int k = 0; k < g->order_count; k++) {
        int i = g->order[k];
        if (g->nodes[i].type == TDN_NODE_REST && instance->node_weight[i] > 0.0f)
            add_entry(instance, -1, i, 0.0f, instance->node_weight[i], 0, 0);
    }
    float threshold = g->cull_threshold > 0.0f ? g->cull_threshold : 0.0f;
    float kept = cull(instance, threshold);
    for (int k = 0; k < instance->entry_count; k++)
        if (!instance->entries[k].additive && kept > 0.0f)
            instance->entries[k].weight /= kept;
}
