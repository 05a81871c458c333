/* tendon core: state machine nodes: their definition (states, transitions and conditions,
 * copied and checked when the graph is created, and each state's clips listed) and their run
 * time (checking and taking transitions, the stack of fading states and the weights it gives,
 * travel, and what a machine reports). */
#include <stdio.h>

#include "graph_internal.h"
#include "internal.h"

_Static_assert(TDN_MAX_STATES <= 256, "a travel keeps its states in bytes");

/* ---- the definition: copied and checked when the graph is created ---- */

/* The part of a machine a check is about, for a failure's where: the node's place, then
 * " states[s]", " transitions[t]" or " transitions[t].conditions[c]" (-1: not that part),
 * formatted only when a check fails. */
typedef struct part {
    const char *node;
    int state, transition, condition;
    char text[180];
} part;

static const char *part_place(part *p)
{
    if (p->state >= 0)
        snprintf(p->text, sizeof p->text, "%s states[%d]", p->node, p->state);
    else if (p->condition >= 0)
        snprintf(p->text, sizeof p->text, "%s transitions[%d].conditions[%d]", p->node, p->transition, p->condition);
    else
        snprintf(p->text, sizeof p->text, "%s transitions[%d]", p->node, p->transition);
    return p->text;
}

static tdn_result copy_condition(tdn_graph *g, const tdn_condition_desc *c, tdn__condition *out, part *place,
                                 tdn_error *err)
{
    out->param = c->param ? tdn_graph_find_param(g, c->param) : -1;
    if (out->param < 0)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, part_place(place), "no parameter named '%.60s'",
                         c->param ? c->param : "(null)");
    if ((int)c->compare < TDN_COMPARE_GREATER || c->compare > TDN_COMPARE_FALSE)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, part_place(place), "unknown comparison %d", (int)c->compare);
    tdn_param_type type = g->params[out->param].type;
    int truth = c->compare == TDN_COMPARE_TRUE || c->compare == TDN_COMPARE_FALSE;
    if (type == TDN_PARAM_TRIGGER && c->compare != TDN_COMPARE_TRUE)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, part_place(place),
                         "a trigger can only be tested for being fired (true)");
    if (truth && type != TDN_PARAM_BOOL && type != TDN_PARAM_TRIGGER)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, part_place(place), "'%s' is not a bool or a trigger",
                         g->params[out->param].name);
    if (!tdn__finite(c->value))
        return tdn__fail(err, TDN_ERR_INVALID_DATA, part_place(place), "the value to compare with is not finite");
    out->compare = c->compare;
    out->value = c->value;
    return TDN_OK;
}

static tdn_result copy_transition(const tdn_state_machine_desc *sm, int t, tdn__transition *out, const char *node_place,
                                  tdn_error *err)
{
    const tdn_transition_desc *d = &sm->transitions[t];
    part at = { node_place, -1, t, -1, { 0 } }, *place = &at;
    if (d->from != TDN_ANY_STATE && (d->from < 0 || d->from >= sm->state_count))
        return tdn__fail(err, TDN_ERR_INVALID_DATA, part_place(place), "from %d is not a state (0..%d) or any-state",
                         d->from, sm->state_count - 1);
    if (d->to < 0 || d->to >= sm->state_count)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, part_place(place), "to %d is not a state (0..%d)", d->to,
                         sm->state_count - 1);
    if (!tdn__finite(d->exit_time) || d->exit_time < 0.0f || !tdn__finite(d->duration) || d->duration < 0.0f)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, part_place(place),
                         "exit time and duration must be finite and >= 0");
    if ((int)d->mode < TDN_TRANSITION_SMOOTH || d->mode > TDN_TRANSITION_INERTIALIZE)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, part_place(place), "unknown transition mode %d", (int)d->mode);
    if ((int)d->curve.kind < TDN_EASE_LINEAR || d->curve.kind > TDN_EASE_BEZIER)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, part_place(place), "unknown curve kind %d", (int)d->curve.kind);
    if (d->condition_count < 0 || d->condition_count > TDN_MAX_TRANSITION_CONDITIONS ||
        (d->condition_count > 0 && !d->conditions))
        return tdn__fail(err, TDN_ERR_INVALID_DATA, part_place(place), "0..%d conditions, not %d",
                         TDN_MAX_TRANSITION_CONDITIONS, d->condition_count);
    *out = (tdn__transition){ .index = t,
                              .from = d->from,
                              .to = d->to,
                              .exit_time = d->exit_time,
                              .duration = d->duration,
                              .duration_normalized = d->duration_normalized != 0,
                              .curve = d->curve,
                              .mode = d->mode,
                              .uninterruptible = d->uninterruptible != 0,
                              .sync_phase = d->sync_phase != 0 };
    return TDN_OK;
}

int tdn__graph_count_conditions(const tdn_state_machine_desc *sm)
{
    int n = 0;
    for (int t = 0; sm->transitions && t < sm->transition_count; t++)
        n += sm->transitions[t].conditions && sm->transitions[t].condition_count > 0
                 ? sm->transitions[t].condition_count
                 : 0;
    return n;
}

tdn_result tdn__graph_copy_machine(tdn_graph *g, const tdn_node_desc *d, int node, const char *place, int *condition_at,
                                   tdn_error *err)
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
    int before = 0; /* the transitions of the machines so far */
    for (int k = 0; k < g->machine_count; k++)
        before += g->machines[k].transition_count;
    if (sm->transition_count > TDN_MAX_GRAPH_TRANSITIONS - before)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place,
                         "%d transitions after %d in other machines: a graph has at most %d", sm->transition_count,
                         before, TDN_MAX_GRAPH_TRANSITIONS);
    tdn__machine *m = &g->machines[g->machine_count];
    m->node = node;
    m->state_count = sm->state_count;
    m->first_state = g->state_total;
    m->initial = sm->initial;
    for (int s = 0; s < sm->state_count; s++) {
        const char *name = sm->states[s].name;
        part where = { place, s, -1, -1, { 0 } };
        if (!name || !name[0] || strlen(name) >= sizeof g->state_names[0])
            return tdn__fail(err, TDN_ERR_INVALID_DATA, part_place(&where), "a state needs a name of 1..63 bytes");
        for (int k = 0; k < s; k++)
            if (strcmp(g->state_names[m->first_state + k], name) == 0)
                return tdn__fail(err, TDN_ERR_INVALID_DATA, part_place(&where), "a second state named '%s'", name);
        memcpy(g->state_names[m->first_state + s], name, strlen(name) + 1);
    }
    /* Transitions sorted by priority, stably (insertion into the sorted run). */
    m->first_transition = before;
    for (int t = 0; t < sm->transition_count; t++) {
        tdn__transition copy;
        tdn_result r = copy_transition(sm, t, &copy, place, err);
        if (r != TDN_OK)
            return r;
        copy.first_condition = *condition_at;
        copy.condition_count = sm->transitions[t].condition_count;
        for (int c = 0; c < copy.condition_count; c++) {
            part where = { place, -1, t, c, { 0 } };
            r = copy_condition(g, &sm->transitions[t].conditions[c], &g->conditions[*condition_at + c], &where, err);
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
    /* each state's way out: the transitions from it or from any other state, in priority order */
    int at = m->first_state > 0
                 ? g->state_transition_first[m->first_state - 1] + g->state_transition_count[m->first_state - 1]
                 : 0;
    for (int s = 0; s < m->state_count; s++) {
        g->state_transition_first[m->first_state + s] = at;
        for (int k = 0; k < m->transition_count; k++) {
            const tdn__transition *t = &g->transitions[m->first_transition + k];
            if (t->from == s || (t->from == TDN_ANY_STATE && t->to != s))
                g->state_transitions[at++] = m->first_transition + k;
        }
        g->state_transition_count[m->first_state + s] = at - g->state_transition_first[m->first_state + s];
    }
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
        r = tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "out of memory");
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

/* ---- at run time ---- */

static const tdn__machine *machine_at(const tdn_graph *g, int node)
{
    if (node < 0 || node >= g->node_count || g->nodes[node].machine < 0)
        return NULL;
    return &g->machines[g->nodes[node].machine];
}

void tdn__graph_event(tdn_graph_instance *in, tdn_graph_event_type type, int node, int index, int clip, float weight)
{
    if (in->event_count == TDN_MAX_GRAPH_EVENTS) {
        in->events_dropped++;
        return;
    }
    in->events[in->event_count++] = (tdn_graph_event){ type, node, index, clip, weight };
}

/* The clip node that stands for a state's time: its heaviest clip in the last update (the
 * first one when none had weight); -1 for a state without clips. */
static int leading_clip(const tdn_graph_instance *in, const tdn__machine *m, int state)
{
    const tdn_graph *g = in->graph;
    int first = g->state_clip_first[m->first_state + state], count = g->state_clip_count[m->first_state + state];
    int best = -1;
    for (int k = 0; k < count; k++) {
        int node = g->state_clips[first + k];
        if (best < 0 || in->node_weight[node] > in->node_weight[best])
            best = node;
    }
    return best;
}

/* Laps of a state's leading clip since the state was entered; its length through *length. */
static float normalized_time(const tdn_graph_instance *in, const tdn__machine *m, int state, float *length)
{
    int node = leading_clip(in, m, state);
    *length = 0.0f;
    if (node < 0)
        return 0.0f;
    const tdn_player *p = &in->players[in->graph->nodes[node].clip_slot];
    *length = p->duration;
    return p->duration > 0.0f ? (float)p->loops + p->time / p->duration : 0.0f;
}

static int holds(const tdn_graph_instance *in, const tdn__condition *c)
{
    float v = in->params[c->param].value[0];
    switch (c->compare) {
    case TDN_COMPARE_GREATER:
        return v > c->value;
    case TDN_COMPARE_LESS:
        return v < c->value;
    case TDN_COMPARE_GREATER_EQUAL:
        return v >= c->value;
    case TDN_COMPARE_LESS_EQUAL:
        return v <= c->value;
    case TDN_COMPARE_EQUAL:
        return v == c->value;
    case TDN_COMPARE_NOT_EQUAL:
        return v != c->value;
    case TDN_COMPARE_TRUE:
        return v != 0.0f;
    default:
        return v == 0.0f;
    }
}

/* A state whose clamped clip has played to its end (a one-shot fired again while it fades out
 * must play again, not hand its finished clip to its exit). */
static int played_out(const tdn_graph_instance *in, const tdn__machine *m, int state)
{
    const tdn_graph *g = in->graph;
    int first = g->state_clip_first[m->first_state + state], count = g->state_clip_count[m->first_state + state];
    for (int k = 0; k < count; k++) {
        const tdn__node *n = &g->nodes[g->state_clips[first + k]];
        const tdn_player *p = &in->players[n->clip_slot];
        if (n->wrap == TDN_WRAP_CLAMP && p->time >= p->duration)
            return 1;
    }
    return 0;
}

static int in_stack(const tdn__machine_state *ms, int state)
{
    for (int k = 0; k < ms->depth; k++)
        if (ms->stack[k].state == state)
            return 1;
    return 0;
}

/* Restarts a state's clips at their start offsets (at 0 for a clip with a lead-in: its
 * header plays), or at `phase` (a fraction of each clip's loop). */
static void restart_clips(tdn_graph_instance *in, const tdn__machine *m, int state, float phase)
{
    const tdn_graph *g = in->graph;
    int first = g->state_clip_first[m->first_state + state], count = g->state_clip_count[m->first_state + state];
    for (int k = 0; k < count; k++) {
        const tdn__node *n = &g->nodes[g->state_clips[first + k]];
        tdn_player *p = &in->players[n->clip_slot];
        float loop = p->duration - n->lead_in - n->lead_out;
        float t = phase >= 0.0f ? n->lead_in + phase * loop : (n->lead_in > 0.0f ? 0.0f : n->start * p->duration);
        tdn_player_set_time(p, t);
    }
}

/* The longest lead-in (in = 1) or lead-out of a state's clips. */
static float longest_lead(const tdn_graph *g, const tdn__machine *m, int state, int in)
{
    int first = g->state_clip_first[m->first_state + state], count = g->state_clip_count[m->first_state + state];
    float longest = 0.0f;
    for (int k = 0; k < count; k++) {
        const tdn__node *n = &g->nodes[g->state_clips[first + k]];
        float lead = in ? n->lead_in : n->lead_out;
        longest = lead > longest ? lead : longest;
    }
    return longest;
}

int tdn__graph_machine_top(const tdn_graph_instance *in, int machine)
{
    const tdn__machine_state *ms = &in->machines[machine];
    return ms->stack[ms->depth - 1].state;
}

/* Drops stack entries below `keep` (their fades are over), reporting the states that left. */
static void drop_below(tdn_graph_instance *in, const tdn__machine *m, tdn__machine_state *ms, int keep)
{
    for (int k = 0; k < keep; k++)
        if (ms->stack[k].state != ms->stack[ms->depth - 1].state)
            tdn__graph_event(in, TDN_EVENT_STATE_EXITED, m->node, ms->stack[k].state, -1, 0.0f);
    for (int k = keep; k < ms->depth; k++)
        ms->stack[k - keep] = ms->stack[k];
    ms->depth -= keep;
    ms->stack[0].transition = -1;
}

static void take(tdn_graph_instance *in, const tdn__machine *m, tdn__machine_state *ms, const tdn__transition *t)
{
    const tdn_graph *g = in->graph;
    int from = ms->stack[ms->depth - 1].state;
    float length, laps = normalized_time(in, m, from, &length);
    float duration = t->duration_normalized ? t->duration * length : t->duration;
    /* a header or trailer gives even a cut frames to blend over */
    float lead = fmaxf(longest_lead(g, m, from, 0), longest_lead(g, m, t->to, 1));
    tdn_transition_mode mode = t->mode == TDN_TRANSITION_CUT && lead > 0.0f ? TDN_TRANSITION_SMOOTH : t->mode;
    duration = mode != TDN_TRANSITION_INERTIALIZE && lead > duration ? lead : duration;
    for (int c = 0; c < t->condition_count; c++) { /* a trigger fires one transition */
        const tdn__condition *cond = &g->conditions[t->first_condition + c];
        if (g->params[cond->param].type == TDN_PARAM_TRIGGER) {
            in->params[cond->param].value[0] = in->params[cond->param].target[0] = 0.0f;
            in->params[cond->param].fired = 0;
        }
    }
    /* a state still fading out carries on where it is (its pose is part of the current blend),
     * unless it is a one-shot that has played out */
    if (!in_stack(ms, t->to) || played_out(in, m, t->to))
        restart_clips(in, m, t->to, t->sync_phase ? laps - floorf(laps) : -1.0f);
    int tn = (int)(t - g->transitions);
    tdn__graph_event(in, TDN_EVENT_TRANSITION_STARTED, m->node, t->index, -1, 0.0f);
    tdn__graph_event(in, TDN_EVENT_STATE_ENTERED, m->node, t->to, -1, 0.0f);
    ms->previous = from;
    ms->time_in_state = 0.0f;
    if (ms->depth == TDN_MAX_FADE_STACK) /* the oldest fade gives way */
        drop_below(in, m, ms, 1);
    if (mode == TDN_TRANSITION_CUT || mode == TDN_TRANSITION_INERTIALIZE || !(duration > 0.0f)) {
        ms->stack[ms->depth++] = (tdn__fade){ t->to, tn, 0.0f, 0.0f, 0 };
        drop_below(in, m, ms, ms->depth - 1);
        tdn__graph_event(in, TDN_EVENT_TRANSITION_FINISHED, m->node, t->index, -1, 0.0f);
        if (mode == TDN_TRANSITION_INERTIALIZE && duration > 0.0f)
            ms->inertialize = duration;
        return;
    }
    ms->stack[ms->depth++] = (tdn__fade){ t->to, tn, 0.0f, duration, mode == TDN_TRANSITION_FROZEN };
}

/* The transition the machine takes now, or NULL: travel first, then by priority. */
static const tdn__transition *choose(tdn_graph_instance *in, const tdn__machine *m, tdn__machine_state *ms,
                                     int *travelling)
{
    const tdn_graph *g = in->graph;
    const tdn__fade *top = &ms->stack[ms->depth - 1];
    int current = top->state;
    int fading = ms->depth > 1;
    *travelling = ms->travel_at < ms->travel_count;
    if (*travelling && fading)
        return NULL; /* each step of a travel waits for the fade before it */
    if (fading && g->transitions[top->transition].uninterruptible)
        return NULL;
    float length, laps = 0.0f;
    int timed = 0; /* laps worked out (for the first exit time met) */
    const int *ways = g->state_transitions + g->state_transition_first[m->first_state + current];
    for (int k = 0; k < g->state_transition_count[m->first_state + current]; k++) {
        const tdn__transition *t = &g->transitions[ways[k]];
        if (*travelling && t->to != ms->travel[ms->travel_at])
            continue;
        if (t->exit_time > 0.0f && !timed) {
            laps = normalized_time(in, m, current, &length);
            timed = 1;
        }
        if (t->exit_time > 0.0f && laps < t->exit_time)
            continue;
        int ok = 1;
        for (int c = 0; c < t->condition_count && ok && !*travelling; c++)
            ok = holds(in, &g->conditions[t->first_condition + c]);
        if (ok)
            return t;
    }
    return NULL;
}

void tdn__graph_machines_advance(tdn_graph_instance *in, float dt)
{
    const tdn_graph *g = in->graph;
    for (int mi = 0; mi < g->machine_count; mi++) {
        const tdn__machine *m = &g->machines[mi];
        tdn__machine_state *ms = &in->machines[mi];
        int travelling;
        const tdn__transition *t = choose(in, m, ms, &travelling);
        if (t) {
            if (travelling)
                ms->travel_at++;
            else
                ms->travel_at = ms->travel_count = 0; /* conditions overrule a travel */
            take(in, m, ms, t);
        }
        ms->time_in_state += dt;
        /* Fades move on; once one completes, everything under it is gone. */
        int keep = 0;
        for (int k = 1; k < ms->depth; k++) {
            tdn__fade *f = &ms->stack[k];
            f->elapsed += dt;
            if (f->elapsed >= f->duration)
                keep = k;
        }
        if (keep > 0) {
            int finished = ms->stack[keep].transition;
            drop_below(in, m, ms, keep);
            tdn__graph_event(in, TDN_EVENT_TRANSITION_FINISHED, m->node, g->transitions[finished].index, -1, 0.0f);
        }
    }
}

void tdn__graph_machines_reset(tdn_graph_instance *in)
{
    const tdn_graph *g = in->graph;
    for (int mi = 0; mi < g->machine_count; mi++) {
        tdn__machine_state *ms = &in->machines[mi];
        memset(ms, 0, sizeof *ms);
        ms->stack[0] = (tdn__fade){ g->machines[mi].initial, -1, 0.0f, 0.0f, 0 };
        ms->depth = 1;
        ms->previous = -1;
        ms->inertialize = -1.0f;
    }
}

/* The share of stack entry k before what the entries above it take: its fade's progress eased
 * by its transition's curve (the bottom entry takes all that is left). */
static float fade_share(const tdn_graph *g, const tdn__machine_state *ms, int k)
{
    const tdn__fade *f = &ms->stack[k];
    return k == 0 ? 1.0f
                  : tdn_ease_eval(&g->transitions[f->transition].curve,
                                  f->duration > 0.0f ? f->elapsed / f->duration : 1.0f);
}

void tdn__graph_machine_weights(const tdn_graph_instance *in, int machine, float *weights, int *frozen)
{
    const tdn__machine *m = &in->graph->machines[machine];
    const tdn__machine_state *ms = &in->machines[machine];
    for (int s = 0; s < m->state_count; s++)
        weights[s] = 0.0f, frozen[s] = 0;
    /* The top fade's weight, the rest shared below in their proportions; a state under a
     * frozen fade holds (unless it is also the state fading in). */
    float remaining = 1.0f;
    int held = 0, top = ms->stack[ms->depth - 1].state;
    for (int k = ms->depth - 1; k >= 0; k--) {
        const tdn__fade *f = &ms->stack[k];
        float w = fade_share(in->graph, ms, k);
        weights[f->state] += remaining * w;
        remaining -= remaining * w;
        frozen[f->state] |= held && f->state != top;
        held |= f->frozen;
    }
}

/* The weight tdn__graph_machine_weights gives the top state, without the other states'. */
static float top_weight(const tdn_graph *g, const tdn__machine_state *ms)
{
    float weight = 0.0f, remaining = 1.0f;
    int top = ms->stack[ms->depth - 1].state;
    for (int k = ms->depth - 1; k >= 0; k--) {
        float w = fade_share(g, ms, k);
        if (ms->stack[k].state == top)
            weight += remaining * w;
        remaining -= remaining * w;
    }
    return weight;
}

tdn_result tdn_graph_state_machine_status(const tdn_graph_instance *in, int node, tdn_state_machine_status *out,
                                          tdn_error *err)
{
    if (!in || !out)
        return tdn__null(err, !in ? "instance" : "out");
    const tdn__machine *m = machine_at(in->graph, node);
    if (!m)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "node", "node %d is not a state machine", node);
    int mi = in->graph->nodes[node].machine;
    const tdn__machine_state *ms = &in->machines[mi];
    const tdn__fade *top = &ms->stack[ms->depth - 1];
    float length;
    out->state = top->state;
    out->time_in_state = ms->time_in_state;
    out->normalized_time = normalized_time(in, m, top->state, &length);
    out->transition = ms->depth > 1 ? in->graph->transitions[top->transition].index : -1;
    out->transition_weight = top_weight(in->graph, ms);
    out->previous_state = ms->previous;
    return TDN_OK;
}

tdn_result tdn_graph_travel(tdn_graph_instance *in, int node, int state, tdn_error *err)
{
    if (!in)
        return tdn__null(err, "instance");
    const tdn__machine *m = machine_at(in->graph, node);
    if (!m)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "node", "node %d is not a state machine", node);
    if (state < 0 || state >= m->state_count)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "state", "state %d is not within 0..%d", state, m->state_count - 1);
    const tdn_graph *g = in->graph;
    tdn__machine_state *ms = &in->machines[g->nodes[node].machine];
    int start = ms->stack[ms->depth - 1].state;
    ms->travel_count = ms->travel_at = 0;
    if (start == state)
        return TDN_OK;
    /* Breadth-first over the transitions: the fewest steps. */
    int came_from[TDN_MAX_STATES], queue[TDN_MAX_STATES], head = 0, tail = 0;
    for (int s = 0; s < m->state_count; s++)
        came_from[s] = -2;
    came_from[start] = -1;
    queue[tail++] = start;
    while (head < tail && came_from[state] == -2) {
        int s = queue[head++];
        for (int k = 0; k < m->transition_count; k++) {
            const tdn__transition *t = &g->transitions[m->first_transition + k];
            if ((t->from == s || t->from == TDN_ANY_STATE) && came_from[t->to] == -2) {
                came_from[t->to] = s;
                queue[tail++] = t->to;
            }
        }
    }
    if (came_from[state] == -2)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, "state", "no chain of transitions leads from state %d to state %d",
                         start, state);
    int n = 0;
    for (int s = state; s != start; s = came_from[s])
        ms->travel[n++] = (unsigned char)s;
    for (int a = 0, b = n - 1; a < b; a++, b--) {
        unsigned char t = ms->travel[a];
        ms->travel[a] = ms->travel[b];
        ms->travel[b] = t;
    }
    ms->travel_count = n;
    return TDN_OK;
}
