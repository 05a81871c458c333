/* tendon core: state machine nodes of a graph definition: copying and checking their states,
 * transitions and conditions, and listing each state's clips. */
#include <stdio.h>

#include "graph_internal.h"
#include "internal.h"

static tdn_result copy_condition(tdn_graph *g, const tdn_condition_desc *c, tdn__condition *out, const char *place,
                                 tdn_error *err)
{
    out->param = c->param ? tdn_graph_find_param(g, c->param) : -1;
    if (out->param < 0)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "no parameter named '%.60s'", c->param ? c->param : "(null)");
    if ((int)c->compare < TDN_COMPARE_GREATER || c->compare > TDN_COMPARE_FALSE)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "unknown comparison %d", (int)c->compare);
    tdn_param_type type = g->params[out->param].type;
    int truth = c->compare == TDN_COMPARE_TRUE || c->compare == TDN_COMPARE_FALSE;
    if (type == TDN_PARAM_TRIGGER && c->compare != TDN_COMPARE_TRUE)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "a trigger can only be tested for being fired (true)");
    if (truth && type != TDN_PARAM_BOOL && type != TDN_PARAM_TRIGGER)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "'%s' is not a bool or a trigger", g->params[out->param].name);
    if (!tdn__finite(c->value))
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "the value to compare with is not finite");
    out->compare = c->compare;
    out->value = c->value;
    return TDN_OK;
}

static tdn_result copy_transition(const tdn_state_machine_desc *sm, int t, tdn__transition *out,
                                  const char *node_place, tdn_error *err)
{
    const tdn_transition_desc *d = &sm->transitions[t];
    char place[160];
    snprintf(place, sizeof place, "%s transitions[%d]", node_place, t);
    if (d->from != TDN_ANY_STATE && (d->from < 0 || d->from >= sm->state_count))
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "from %d is not a state (0..%d) or any-state", d->from,
                         sm->state_count - 1);
    if (d->to < 0 || d->to >= sm->state_count)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "to %d is not a state (0..%d)", d->to, sm->state_count - 1);
    if (!tdn__finite(d->exit_time) || d->exit_time < 0.0f || !tdn__finite(d->duration) || d->duration < 0.0f)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "exit time and duration must be finite and >= 0");
    if ((int)d->mode < TDN_TRANSITION_SMOOTH || d->mode > TDN_TRANSITION_INERTIALIZE)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "unknown transition mode %d", (int)d->mode);
    if ((int)d->curve.kind < TDN_EASE_LINEAR || d->curve.kind > TDN_EASE_BEZIER)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "unknown curve kind %d", (int)d->curve.kind);
    if (d->condition_count < 0 || d->condition_count > TDN_MAX_TRANSITION_CONDITIONS ||
        (d->condition_count > 0 && !d->conditions))
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "0..%d conditions, not %d", TDN_MAX_TRANSITION_CONDITIONS,
                         d->condition_count);
    *out = (tdn__transition){ .index = t, .from = d->from, .to = d->to, .exit_time = d->exit_time,
                              .duration = d->duration, .duration_normalized = d->duration_normalized != 0,
                              .curve = d->curve, .mode = d->mode, .uninterruptible = d->uninterruptible != 0,
                              .sync_phase = d->sync_phase != 0 };
    return TDN_OK;
}

int tdn__graph_count_conditions(const tdn_state_machine_desc *sm)
{
    int n = 0;
    for (int t = 0; sm->transitions && t < sm->transition_count; t++)
        n += sm->transitions[t].conditions && sm->transitions[t].condition_count > 0 ? sm->transitions[t].condition_count
                                                                                    : 0;
    return n;
}

tdn_result tdn__graph_copy_machine(tdn_graph *g, const tdn_node_desc *d, int node, const char *place,
                                   int *condition_at, tdn_error *err)
{
    const tdn_state_machine_desc *sm = d->state_machine;
    if (!sm)
        return tdn__fail(err, TDN_ERR_ARGUMENT, place, "a state_machine node needs its description");
    if (sm->state_count != d->input_count || !sm->states)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "%d states named for %d inputs (one state per input)",
                         sm->state_count, d->input_count);
    if (sm->transition_count < 0 || (sm->transition_count > 0 && !sm->transitions))
        return tdn__fail(err, TDN_ERR_ARGUMENT, place, "NULL transitions or a negative count");
    if (sm->initial < 0 || sm->initial >= sm->state_count)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "initial state %d is not one of 0..%d", sm->initial,
                         sm->state_count - 1);
    tdn__machine *m = &g->machines[g->machine_count];
    m->node = node;
    m->state_count = sm->state_count;
    m->first_state = g->state_total;
    m->initial = sm->initial;
    for (int s = 0; s < sm->state_count; s++) {
        const char *name = sm->states[s].name;
        char where[160];
        snprintf(where, sizeof where, "%s states[%d]", place, s);
        if (!name || !name[0] || strlen(name) >= sizeof g->state_names[0])
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "a state needs a name of 1..63 bytes");
        for (int k = 0; k < s; k++)
            if (strcmp(g->state_names[m->first_state + k], name) == 0)
                return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "a second state named '%s'", name);
        memcpy(g->state_names[m->first_state + s], name, strlen(name) + 1);
    }
    /* Transitions sorted by priority, stably (insertion into the sorted run). */
    m->first_transition = 0;
    for (int k = 0; k < g->machine_count; k++)
        m->first_transition += g->machines[k].transition_count;
    for (int t = 0; t < sm->transition_count; t++) {
        tdn__transition copy;
        tdn_result r = copy_transition(sm, t, &copy, place, err);
        if (r != TDN_OK)
            return r;
        copy.first_condition = *condition_at;
        copy.condition_count = sm->transitions[t].condition_count;
        for (int c = 0; c < copy.condition_count; c++) {
            char where[180];
            snprintf(where, sizeof where, "%s transitions[%d].conditions[%d]", place, t, c);
            r = copy_condition(g, &sm->transitions[t].conditions[c], &g->conditions[*condition_at + c], where, err);
            if (r != TDN_OK)
                return r;
        }
        *condition_at += copy.condition_count;
        tdn__transition *run = g->transitions + m->first_transition;
        int at = t;
        while (at > 0 && sm->transitions[run[at - 1].index].priority > sm->transitions[t].priority) {
            run[at] = run[at - 1];
            at--;
        }
        run[at] = copy;
    }
    m->transition_count = sm->transition_count;
    g->state_total += sm->state_count;
    g->nodes[node].machine = g->machine_count++;
    return TDN_OK;
}

/* Appends to `out` the clip nodes reachable from `node` (each once: `seen` marks them). */
static int collect_clips(const tdn_graph *g, int node, unsigned char *seen, int *stack, int *out)
{
    int top = 0, n = 0;
    stack[top++] = node;
    while (top > 0) {
        int i = stack[--top];
        if (seen[i])
            continue;
        seen[i] = 1;
        const tdn__node *nd = &g->nodes[i];
        if (nd->type == TDN_NODE_CLIP)
            out[n++] = i;
        for (int k = 0; k < nd->input_count; k++)
            stack[top++] = g->inputs[nd->first_input + k];
    }
    return n;
}

tdn_result tdn__graph_list_state_clips(tdn_graph *g, tdn_error *err)
{
    size_t nodes = (size_t)g->node_count;
    /* each state can reach at most every clip node; the stack holds at most every input */
    int total_inputs = 0;
    for (int i = 0; i < g->node_count; i++)
        total_inputs += g->nodes[i].input_count;
    g->state_clips_bytes = sizeof(int) * ((size_t)g->state_total * (size_t)g->clip_node_count + 1);
    g->state_clips = tdn__alloc(&g->allocator, g->state_clips_bytes, sizeof(int));
    unsigned char *seen = tdn__alloc(&g->allocator, nodes, 1);
    int *stack = tdn__alloc(&g->allocator, sizeof(int) * ((size_t)total_inputs + 1), sizeof(int));
    tdn_result r = TDN_OK;
    if (!g->state_clips || !seen || !stack) {
        r = tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "tdn_graph_create", "out of memory");
    } else {
        int at = 0;
        for (int m = 0; m < g->machine_count; m++) {
            const tdn__machine *mc = &g->machines[m];
            const tdn__node *nd = &g->nodes[mc->node];
            for (int s = 0; s < mc->state_count; s++) {
                memset(seen, 0, nodes);
                int n = collect_clips(g, g->inputs[nd->first_input + s], seen, stack, g->state_clips + at);
                g->state_clip_first[mc->first_state + s] = at;
                g->state_clip_count[mc->first_state + s] = n;
                at += n;
            }
        }
    }
    tdn__free(&g->allocator, seen, nodes);
    tdn__free(&g->allocator, stack, sizeof(int) * ((size_t)total_inputs + 1));
    return r;
}
