/* tendon core: a graph's root motion: each layer's entries' motions over the last update,
 * blended with the entries' weights, then the layers' blended by their weights at the root. */
#include "graph_internal.h"
#include "internal.h"
#include "motion_sum.h"
#include "root_track_internal.h"

/* The track array and, after it, a byte per clip saying whether the graph built that track. */
static size_t root_tracks_bytes(int clip_count)
{
    return sizeof(tdn_root_track *) * (size_t)(clip_count + 1) + (size_t)clip_count;
}

tdn_result tdn__graph_root_tracks_create(tdn_graph *g, const tdn_graph_desc *desc, tdn_error *err)
{
    const size_t bytes = root_tracks_bytes(g->clip_count);
    g->root_tracks = tdn__alloc(&g->allocator, bytes, sizeof(void *));
    if (!g->root_tracks)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "out of memory");
    memset(g->root_tracks, 0, bytes);
    g->root_track_owned = (unsigned char *)(g->root_tracks + g->clip_count + 1);
    for (int c = 0; c < g->clip_count; c++) {
        const tdn_root_track *given = desc->root_tracks ? desc->root_tracks[c] : NULL;
        if (tdn_clip_is_additive(g->clips[c])) { /* a difference has no place to move from */
            if (given)
                return tdn__fail(err, TDN_ERR_ARGUMENT, "root_tracks", "root_tracks[%d]: clip '%s' is additive", c,
                                 tdn_clip_name(g->clips[c]));
            continue;
        }
        if (given) {
            if (!tdn__root_track_fits(given, g->clips[c], desc->root_motion))
                return tdn__fail(err, TDN_ERR_ARGUMENT, "root_tracks",
                                 "root_tracks[%d] was not built of clip '%s' for root_motion", c,
                                 tdn_clip_name(g->clips[c]));
            g->root_tracks[c] = given;
            continue;
        }
        tdn_root_track *built;
        tdn_result r = tdn_root_track_create(g->clips[c], desc->root_motion, &built, &g->allocator, err);
        if (r != TDN_OK)
            return r;
        g->root_tracks[c] = built;
        g->root_track_owned[c] = 1;
    }
    return TDN_OK;
}

void tdn__graph_root_tracks_destroy(tdn_graph *g)
{
    if (!g->root_tracks)
        return;
    for (int c = 0; c < g->clip_count; c++)
        if (g->root_track_owned[c])
            tdn_root_track_destroy((tdn_root_track *)g->root_tracks[c]);
    tdn__free(&g->allocator, g->root_tracks, root_tracks_bytes(g->clip_count));
}

static const tdn_root_motion identity = { { 0, 0, 0 }, { 0, 0, 0, 1 }, { 0, 0, 0 }, { 0, 0, 0 } };

/* A motion mirrored across the x = 0 plane: x of vectors negated, rotations (and angular
 * velocities, axial vectors) keep x and negate y and z. */
static tdn_root_motion reflect(tdn_root_motion m)
{
    m.translation.x = -m.translation.x;
    m.linear_velocity.x = -m.linear_velocity.x;
    m.rotation.y = -m.rotation.y, m.rotation.z = -m.rotation.z;
    m.angular_velocity.y = -m.angular_velocity.y, m.angular_velocity.z = -m.angular_velocity.z;
    return m;
}

/* The weight of a base entry's motion, or -1 for an entry that carries none (additives, and a
 * modifier's result entry: what it changes is the pose, not where the character goes; an entry
 * inside a modifier counts with its weight there times the modifier's). */
static float motion_weight(const tdn_graph_instance *in, const tdn_graph_entry *e)
{
    if (e->additive || e->clip == TDN_ENTRY_MODIFIER)
        return -1.0f;
    return e->weight * (e->group >= 0 ? in->node_weight[e->group] : 1.0f);
}

/* The motion of one layer: its base entries' clips over their last advance, weighted, blended
 * as they are made (their weights' sum first). */
static tdn_root_motion layer_motion(tdn_graph_instance *in, const tdn__layer_state *ls, float dt)
{
    const tdn_graph *g = in->graph;
    const tdn_graph_entry *entries = in->entries + ls->first_entry;
    double total = 0.0;
    for (int k = 0; k < ls->entry_count; k++) {
        const float w = motion_weight(in, &entries[k]);
        total += w < 0.0f ? 0.0 : tdn__motion_weight(w);
    }
    tdn__motion_sum sum;
    tdn__motion_sum_start(&sum, total);
    for (int k = 0; k < ls->entry_count; k++) {
        const tdn_graph_entry *e = &entries[k];
        const float w = motion_weight(in, e);
        if (w < 0.0f)
            continue;
        tdn_root_motion m = identity;
        if (e->clip == TDN_ENTRY_MOTION_MATCH) /* its character's motion over the update */
            m = in->mm_states[g->nodes[e->node].slot].motion;
        if (e->clip >= 0 && g->root_tracks[e->clip])
            tdn_root_track_motion(g->root_tracks[e->clip], &in->players[g->nodes[e->node].clip_slot], dt, &m, NULL);
        if (e->mirror) /* reflected across x = 0, as the pose is */
            m = reflect(m);
        tdn__motion_sum_add(&sum, &m, w);
    }
    tdn_root_motion out = identity;
    if (sum.count > 0)
        tdn__motion_sum_finish(&sum, &out);
    return out;
}

void tdn__graph_root_motion(tdn_graph_instance *in, float dt)
{
    const tdn_graph *g = in->graph;
    in->root_motion = identity;
    if (!g->root_tracks)
        return;
    int joint = g->root_joint;
    for (int l = 0; l < g->layer_count; l++) {
        const tdn__layer *L = &g->layers[l];
        const tdn__layer_state *ls = &in->layer_states[l];
        if (L->mode == TDN_LAYER_ADDITIVE || ls->entry_count == 0)
            continue;
        float w = l == 0 ? 1.0f : ls->weight * (L->mask ? L->mask[joint] : 1.0f);
        if (!(w > 0.0f))
            continue;
        tdn_root_motion pair[2] = { in->root_motion, layer_motion(in, ls, dt) };
        float weights[2] = { 1.0f - w, w };
        tdn_root_motion_blend(pair, weights, 2, &in->root_motion);
    }
}

tdn_result tdn_graph_root_motion(const tdn_graph_instance *instance, tdn_root_motion *out, tdn_error *err)
{
    if (!instance || !out)
        return tdn__null(err, !instance ? "instance" : "out");
    *out = instance->root_motion;
    return TDN_OK;
}
