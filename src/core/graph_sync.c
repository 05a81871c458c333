/* tendon core: advancing clip times; clips of a sync group share a phase and, with markers,
 * follow their leader marker to marker. */
#include "graph_internal.h"
#include "internal.h"

static float wrap_time(float t, float length)
{
    if (!(length > 0.0f))
        return 0.0f;
    t -= floorf(t / length) * length;
    return t < length ? (t >= 0.0f ? t : 0.0f) : 0.0f; /* rounding can land exactly on length */
}

/* Where a clip node's markers put time t: the segment it lies in (from marker *segment to
 * the next, wrapping round the cycle) and the fraction of it covered. 0 when it has none. */
static int locate(const tdn__marker *m, int count, float length, float t, int *segment, float *fraction)
{
    if (count == 0)
        return 0;
    int s = count - 1;
    for (int k = 0; k < count; k++)
        if (m[k].time <= t)
            s = k;
    float a = m[s].time, b = s + 1 < count ? m[s + 1].time : m[0].time + length;
    float at = t < a ? t + length : t;
    *segment = s;
    *fraction = b > a ? (at - a) / (b - a) : 0.0f;
    if (*fraction > 1.0f)
        *fraction = 1.0f;
    return 1;
}

/* The time of a follower placed at `fraction` of the segment that starts with the same
 * marker (name and occurrence; else the first of that name) as the leader's; -1 when the
 * follower has no such marker. */
static float place(const tdn__marker *m, int count, float length, const tdn__marker *lead, float fraction)
{
    int s = -1;
    for (int k = 0; k < count && s < 0; k++)
        if (m[k].name == lead->name && m[k].occurrence == lead->occurrence)
            s = k;
    for (int k = 0; k < count && s < 0; k++)
        if (m[k].name == lead->name)
            s = k;
    if (s < 0)
        return -1.0f;
    float a = m[s].time, b = s + 1 < count ? m[s + 1].time : m[0].time + length;
    return wrap_time(a + fraction * (b - a), length);
}

static void move_player(tdn_player *p, float t, int forward)
{
    p->last_from = p->time;
    p->last_forward = forward;
    p->last_wraps = forward ? t < p->time : t > p->time;
    p->loops += p->last_wraps;
    p->time = t;
}

static void advance_group(tdn_graph_instance *in, int group, float dt)
{
    const tdn_graph *g = in->graph;
    const tdn__sync_group *grp = &g->groups[group];
    tdn__group_state *state = &in->groups[group];
    float weight = 0.0f, length = 0.0f, rate = 0.0f, plain_length = 0.0f, plain_rate = 0.0f, heaviest = -1.0f;
    int leader = g->members[grp->first_member];
    for (int k = 0; k < grp->member_count; k++) {
        int i = g->members[grp->first_member + k];
        const tdn__node *n = &g->nodes[i];
        float w = in->node_weight[i], L = n->duration, r = n->rate * in->node_rate[i];
        weight += w, length += w * L, rate += w * r;
        plain_length += L, plain_rate += r;
        if (w > heaviest)
            heaviest = w, leader = i;
    }
    /* The weight-averaged cycle; with no weight at all, the plain average keeps it moving. */
    float cycle = weight > 0.0f ? length / weight : plain_length / (float)grp->member_count;
    float group_rate = weight > 0.0f ? rate / weight : plain_rate / (float)grp->member_count;
    const tdn__node *lead = &g->nodes[leader];
    float lead_length = lead->duration;
    if (state->leader != leader) /* start from where the new leader already is */
        state->phase = lead_length > 0.0f ? in->players[lead->clip_slot].time / lead_length : 0.0f;
    state->leader = leader;
    if (cycle > 0.0f)
        state->phase += dt * group_rate / cycle;
    state->phase -= floorf(state->phase);
    float lead_time = wrap_time(state->phase * lead_length, lead_length);
    const tdn__marker *lead_markers = g->markers + lead->first_marker;
    int segment = 0;
    float fraction = 0.0f;
    int by_markers = grp->has_markers &&
                     locate(lead_markers, lead->marker_count, lead_length, lead_time, &segment, &fraction);
    for (int k = 0; k < grp->member_count; k++) {
        int i = g->members[grp->first_member + k];
        const tdn__node *n = &g->nodes[i];
        float L = n->duration;
        float t = i == leader ? lead_time : -1.0f;
        if (t < 0.0f && by_markers)
            t = place(g->markers + n->first_marker, n->marker_count, L, &lead_markers[segment], fraction);
        if (t < 0.0f)
            t = wrap_time((state->phase + n->start - lead->start) * L, L);
        move_player(&in->players[n->clip_slot], t, group_rate >= 0.0f);
    }
}

/* A looping clip with a lead-in or lead-out cycles between them while its state plays, and
 * runs on into its trailer (to its end) while its state fades out. Played backwards it loops
 * plainly. */
static void advance_with_leads(tdn_player *p, const tdn__node *n, float dt, int leaving)
{
    float end = p->duration - n->lead_out, loop = end - n->lead_in, t = p->time + dt * p->rate;
    p->last_from = p->time;
    p->last_wraps = 0;
    p->last_forward = 1;
    if (leaving) {
        t = t < p->duration ? t : p->duration;
    } else {
        while (t >= end && loop > 0.0f) {
            t -= loop;
            p->last_wraps++;
            p->loops++;
        }
    }
    p->time = t;
}

void tdn__graph_advance_clips(tdn_graph_instance *instance, float dt)
{
    const tdn_graph *g = instance->graph;
    for (int k = 0; k < g->clip_node_count; k++) {
        int i = g->clip_nodes[k];
        const tdn__node *n = &g->nodes[i];
        if (n->sync_group >= 0)
            continue;
        tdn_player *p = &instance->players[k];
        p->rate = n->rate * instance->node_rate[i];
        if ((n->lead_in > 0.0f || n->lead_out > 0.0f) && n->wrap == TDN_WRAP_LOOP && p->rate >= 0.0f)
            advance_with_leads(p, n, dt, instance->node_leaving[i]);
        else
            tdn_player_advance(p, dt);
    }
    for (int group = 0; group < g->group_count; group++)
        advance_group(instance, group, dt);
}
