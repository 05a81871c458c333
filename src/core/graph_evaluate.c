/* tendon core: a graph instance's frame: update (parameters, machines, weights, times, the
 * flat list) and evaluate (each layer's entries sampled once and blended once, inertialized
 * where its machines asked, composed onto the layers below; a retargeted instance's output
 * then goes through its retarget, graph_retarget.c). */
#include "graph_internal.h"
#include "graph_joint_lod.h"
#include "half.h"
#include "internal.h"
#include "retarget_internal.h"
#include "tendon/mirror.h"

tdn_result tdn_graph_update(tdn_graph_instance *instance, float dt, tdn_error *err)
{
    if (!instance)
        return tdn__null(err, "instance");
    if (!(dt > 0.0f) || !tdn__finite(dt))
        dt = 0.0f;
    const tdn_graph *g = instance->graph;
    instance->event_count = instance->events_dropped = 0;
    instance->last_dt = dt;
    tdn__graph_params_advance(instance, dt);
    tdn__graph_switches_advance(instance, dt);
    tdn__graph_machines_advance(instance, dt);
    tdn__graph_weights(instance);
    tdn__graph_advance_clips(instance, dt);
    tdn__graph_motion_match_advance(instance, dt);
    tdn__graph_flatten(instance);
    tdn__graph_root_motion(instance, dt);
    tdn__graph_retarget_root_motion(instance);
    for (int m = 0; m < g->machine_count; m++) { /* inertializations start when the layer is evaluated */
        tdn__machine_state *ms = &instance->machines[m];
        int layer = g->nodes[g->machines[m].node].layer;
        if (ms->inertialize >= 0.0f && layer >= 0) {
            tdn__layer_state *ls = &instance->layer_states[layer];
            ls->pending = ms->inertialize > ls->pending ? ms->inertialize : ls->pending;
        }
        ms->inertialize = -1.0f;
    }
    for (int l = 0; l < g->layer_count; l++)
        instance->layer_states[l].unapplied += dt;
    instance->evaluate_dt += dt;
    for (int p = 0; p < g->param_count; p++) {
        tdn__param_state *s = &instance->params[p];
        if (g->params[p].type == TDN_PARAM_TRIGGER && s->fired) {
            s->fired = 0;
            s->target[0] = s->value[0] = 0.0f;
        }
    }
    return TDN_OK;
}

/* The parts of a pose a layer computes: its part (graph_rows.c), cut to the blocks a joint LOD
 * evaluates. */
typedef struct parts {
    int count;
    tdn__part part[TDN_JOINT_LOD_MAX_SPANS];
} parts;

static parts parts_of(const tdn_joint_lod *lod, tdn__part part)
{
    parts p;
    p.count = tdn__joint_lod_parts(lod, part, p.part);
    return p;
}

/* An entry's pose into `pose`: a clip sampled (root motion taken out when the graph extracts
 * it, mirrored when asked: then whole, as mirroring reads each joint's counterpart), the rest
 * pose, a procedural node's callback pose, a modifier's finished group pose, or a
 * motion-matching node's pose (made by the update). */
static void entry_pose(const tdn_graph_instance *in, const tdn_graph_workspace *ws, const tdn_graph_entry *e, float dt,
                       const parts *p, tdn_pose *pose)
{
    const tdn_graph *g = in->graph;
    if (e->clip >= 0) {
        const parts whole = { 1, { tdn__whole(pose) } };
        const parts *sampled = e->mirror ? &whole : p;
        tdn_clip_cache *cache = in->caches[g->nodes[e->node].clip_slot];
        for (int k = 0; k < sampled->count; k++)
            tdn__clip_sample_range(g->clips[e->clip], tdn__clip_cache_packed(cache), e->time, pose,
                                   sampled->part[k].begin, sampled->part[k].end, sampled->part[k].rows);
        if (g->extract_root_motion && g->root_tracks[e->clip])
            tdn_root_motion_remove(g->root_tracks[e->clip], pose, NULL);
    } else if (e->clip == TDN_ENTRY_MODIFIER) {
        tdn_pose_copy(pose, &ws->group_poses[g->nodes[e->node].slot], NULL);
    } else if (e->clip == TDN_ENTRY_MOTION_MATCH) {
        tdn_pose_copy(pose, &in->mm_states[g->nodes[e->node].slot].pose, NULL);
    } else {
        tdn_pose_copy(pose, &g->rest, NULL);
        if (e->clip == TDN_ENTRY_PROCEDURAL)
            g->nodes[e->node].callback(g->nodes[e->node].user, in, e->node, dt, pose);
    }
    if (e->mirror)
        tdn_pose_mirror(pose, g->mirror, pose, NULL);
}

/* The blend of entries [first, first + count) into `out`, the part of it the layer changes
 * (graph_rows.c). In an additive layer every entry is a difference and the result is their blend
 * (a difference too). */
static void blend_entries(tdn_graph_instance *in, tdn_graph_workspace *ws, int first, int count, int additive_layer,
                          float dt, const parts *p, tdn_pose *out)
{
    const tdn_graph_entry *entries = in->entries + first;
    int additive = 0;
    for (int k = 0; k < count && !additive_layer; k++)
        additive += entries[k].additive;
    if (count == 0) {
        tdn_pose_copy(out, &in->graph->rest, NULL);
        return;
    }
    if (count - additive == 1 && additive == 0) { /* one pose and nothing on top: straight into out */
        entry_pose(in, ws, &entries[0], dt, p, out);
        return;
    }
    int nl = 0, na = 0;
    for (int k = 0; k < count; k++) {
        const tdn_graph_entry *e = &entries[k];
        tdn_pose *pose = e->clip == TDN_ENTRY_MODIFIER && !e->mirror
                             ? &ws->group_poses[in->graph->nodes[e->node].slot] /* blended already */
                         : e->clip == TDN_ENTRY_MOTION_MATCH ? &in->mm_states[in->graph->nodes[e->node].slot].pose
                                                             : &ws->poses[first + k];
        if (pose == &ws->poses[first + k])
            entry_pose(in, ws, e, dt, p, pose);
        tdn_blend_input input = { pose, e->weight, NULL };
        if (e->additive && !additive_layer)
            ws->additives[na++] = input;
        else
            ws->layers[nl++] = input;
    }
    tdn_blend_job job = { ws->layers, nl, ws->additives, na, additive_layer ? NULL : &in->graph->rest, out };
    for (int k = 0; k < p->count; k++)
        tdn__blend_part(&job, p->part[k], NULL);
}

/* A layer's pose: its modifiers' groups first, deepest first, each blended then changed; then
 * the layer's own entries. */
static void evaluate_layer(tdn_graph_instance *in, tdn_graph_workspace *ws, int layer, const tdn__layer_state *ls,
                           float dt, const parts *p, tdn_pose *out)
{
    const tdn_graph *g = in->graph;
    int additive_layer = g->layers[layer].mode == TDN_LAYER_ADDITIVE;
    const tdn__layer *L = &g->layers[layer];
    for (int k = 0; k < L->modifier_count; k++) { /* deepest first (graph_flatten.c) */
        const int i = g->layer_modifiers[L->first_modifier + k];
        const tdn__node *n = &g->nodes[i];
        if (!(in->node_weight[i] > 0.0f))
            continue;
        tdn_pose *pose = &ws->group_poses[n->slot];
        const parts whole = { 1, { tdn__whole(pose) } }; /* a modifier may read any joint */
        blend_entries(in, ws, in->group_first[n->slot], in->group_count[n->slot], additive_layer, dt, &whole, pose);
        tdn__graph_apply_modifier(in, i, dt, pose);
    }
    blend_entries(in, ws, ls->base_first, ls->base_count, additive_layer, dt, p, out);
}

/* Starts what the layer's machines asked for (from its last two results: the one before made
 * again in `scratch` from its difference), then carries the offsets on `pose`, and keeps the
 * layer's newest result and its difference from the last. */
static void inertialize(tdn__layer_state *ls, tdn_pose *scratch, tdn_pose *pose)
{
    tdn__layer_inertia *li = ls->inertia;
    const size_t n = (size_t)TDN_POSE_ROWS * (size_t)pose->stride;
    if (ls->pending >= 0.0f && li->frames_shown > 0) {
        if (li->frames_shown > 1)
            for (size_t i = 0; i < n; i++)
                scratch->data[i] = li->shown.data[i] - tdn__half_to_float(li->step[i]);
        tdn_inertializer_start(li->inertializer, &li->shown, li->frames_shown > 1 ? scratch : NULL, li->step_time, pose,
                               ls->pending, TDN_INERTIA_QUINTIC, NULL);
    }
    ls->pending = -1.0f;
    tdn_inertializer_apply(li->inertializer, ls->unapplied, pose, NULL);
    for (size_t i = 0; i < n; i++) {
        li->step[i] = tdn__half_from_float(pose->data[i] - li->shown.data[i]);
        li->shown.data[i] = pose->data[i];
    }
    li->step_time = ls->unapplied;
    li->frames_shown += li->frames_shown < 2;
}

static void compose(tdn_graph_instance *in, tdn_graph_workspace *ws, int layer, const parts *p, const tdn_pose *pose,
                    tdn_pose *out)
{
    const tdn_graph *g = in->graph;
    const tdn__layer *L = &g->layers[layer];
    float w = in->layer_states[layer].weight;
    const tdn_pose *below = layer == 0 ? &g->rest : out;
    if (L->model_space_rotation) {
        tdn__blend2_model_rotations(g->skeleton, below, pose, w, L->mask, &ws->poses[0], &ws->poses[1], out);
        return;
    }
    for (int k = 0; k < p->count; k++)
        if (L->mode == TDN_LAYER_ADDITIVE)
            tdn__additive_apply_part(below, pose, w, L->mask, out, p->part[k], NULL);
        else
            tdn__blend2_part(below, pose, w, L->mask, out, p->part[k], NULL);
}

tdn_result tdn_graph_evaluate(tdn_graph_instance *instance, tdn_pose *out, tdn_error *err)
{
    tdn_graph_workspace *own;
    if (tdn__graph_own_workspace(instance, "tdn_graph_evaluate_with", &own, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    return tdn_graph_evaluate_with(instance, own, out, err);
}

tdn_result tdn_graph_evaluate_with(tdn_graph_instance *instance, tdn_graph_workspace *workspace, tdn_pose *out,
                                   tdn_error *err)
{
    const tdn_graph *g = instance ? instance->graph : NULL;
    if (!instance || !workspace || !out)
        return tdn__null(err, !instance ? "instance" : !workspace ? "workspace" : "out");
    if (instance->retarget) {
        const int joints = tdn__retarget_target_joint_count(instance->retarget);
        if (out->joint_count != joints)
            return tdn__pose_size(err, "out", out->joint_count, joints, "the retarget's target skeleton");
    } else if (out->joint_count != g->joint_count) {
        return tdn__pose_size(err, "out", out->joint_count, g->joint_count, "the graph's skeleton");
    }
    if (tdn__graph_workspace_bind(workspace, g, "workspace", err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    tdn__graph_evaluate(instance, workspace, out);
    return TDN_OK;
}

void tdn__graph_evaluate(tdn_graph_instance *instance, tdn_graph_workspace *ws, tdn_pose *out)
{
    tdn__graph_evaluate_joints(instance, ws, NULL, out);
}

void tdn__graph_evaluate_joints(tdn_graph_instance *instance, tdn_graph_workspace *ws, const tdn_joint_lod *joint_lod,
                                tdn_pose *out)
{
    const tdn_graph *g = instance->graph;
    /* the graph's own pose: `out`, or a retargeted instance's source pose */
    tdn_pose *pose = instance->retarget ? &instance->source : out;
    for (int l = 0; l < g->layer_count; l++) {
        const tdn__layer *L = &g->layers[l];
        tdn__layer_state *ls = &instance->layer_states[l];
        /* A layer at weight 0 is skipped; one that inertializes only while no offset is carried
         * or due (its history then restarts: what it showed no longer reached the screen). */
        int idle = L->inertializes ? ls->pending < 0.0f && !tdn_inertializer_active(ls->inertia->inertializer) : 1;
        if (ls->entry_count == 0 || (ls->weight <= 0.0f && idle && l > 0)) {
            ls->unapplied = 0.0f;
            if (ls->inertia)
                ls->inertia->frames_shown = 0;
            if (l == 0)
                tdn_pose_copy(pose, &g->rest, NULL);
            continue;
        }
        /* The bottom layer at full weight, unmasked, is the pose itself. */
        int direct = l == 0 && L->mode == TDN_LAYER_OVERRIDE && ls->weight >= 1.0f && !L->mask &&
                     !L->model_space_rotation;
        tdn_pose *layer = direct ? pose : &ws->layer_pose;
        const parts p = parts_of(joint_lod, L->part);
        evaluate_layer(instance, ws, l, ls, ls->unapplied, &p, layer);
        if (L->inertializes)
            inertialize(ls, &ws->spare, layer);
        ls->unapplied = 0.0f;
        if (!direct)
            compose(instance, ws, l, &p, layer, pose);
    }
    tdn__graph_run_ik(instance, instance->evaluate_dt, joint_lod, pose, ws->model);
    if (instance->retarget)
        tdn__graph_retarget_output(instance, out);
    instance->evaluate_dt = 0.0f;
}
