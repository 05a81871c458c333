/* tendon core: a graph's IK stage: jobs copied and checked when the graph is built, run in
 * order on the composed pose after the layers, targets from parameters. */
#include <stdio.h>

#include "graph_internal.h"
#include "graph_joint_lod.h"
#include "internal.h"
#include "tendon/ik_two_bone.h"
#include "tendon/ik_ccd.h"
#include "tendon/ik_dls.h"
#include "tendon/ik_fabrik.h"
#include "tendon/ik_look_at.h"
#include "tendon/model_space.h"

/* ---- the definition: copied and checked when the graph is created ---- */

/* The parameter's index; -1 when there is none of that name, -2 when it has another type. */
static int find_param(const tdn_graph *g, const char *name, tdn_param_type type)
{
    int p = tdn_graph_find_param(g, name);
    return p < 0 ? -1 : g->params[p].type == type ? p : -2;
}

static tdn_result copy_job(tdn_graph *g, const tdn_graph_ik_desc *d, tdn__ik *job, const char *place, tdn_error *err)
{
    if ((int)d->kind < TDN_GRAPH_IK_TWO_BONE || d->kind > TDN_GRAPH_IK_FOOT_PLACEMENT)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "unknown IK kind %d", (int)d->kind);
    job->kind = d->kind;
    job->pole = -1;
    if (d->kind != TDN_GRAPH_IK_FOOT_PLACEMENT) {
        job->target = find_param(g, d->target, TDN_PARAM_VEC3);
        if (job->target < 0)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "target '%.60s' is not a vec3 parameter",
                             d->target ? d->target : "(none)");
    }
    if (d->pole && (job->pole = find_param(g, d->pole, TDN_PARAM_VEC3)) < 0)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "pole '%.60s' is not a vec3 parameter", d->pole);
    job->weight = (tdn__value){ -1, 1.0f };
    if (d->weight.param) {
        job->weight.param = find_param(g, d->weight.param, TDN_PARAM_FLOAT);
        if (job->weight.param < 0)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "weight '%.60s' is not a float parameter",
                             d->weight.param);
    } else if (d->weight.constant != 0.0f) {
        job->weight.constant = d->weight.constant;
    }
    job->soften = d->soften;
    job->tolerance = d->tolerance;
    job->max_iterations = d->max_iterations;
    job->max_step = d->max_step;
    job->damping = d->damping;
    job->axis = d->axis;
    job->up_hint = d->up_hint;
    if (d->kind == TDN_GRAPH_IK_FOOT_PLACEMENT) {
        if (!d->feet)
            return tdn__fail(err, TDN_ERR_ARGUMENT, place, "foot placement needs its legs (feet)");
        job->feet = *d->feet;
        job->feet.skeleton = g->skeleton; /* the graph's, whatever the desc says */
        return TDN_OK;
    }
    if (d->kind == TDN_GRAPH_IK_TWO_BONE) {
        int ok = d->root >= 0 && d->middle >= 0 && d->end >= 0 && d->root < g->joint_count &&
                 d->middle < g->joint_count && d->end < g->joint_count &&
                 tdn_skeleton_is_in_subtree(g->skeleton, d->middle, d->root) &&
                 tdn_skeleton_is_in_subtree(g->skeleton, d->end, d->middle) && d->root != d->middle &&
                 d->middle != d->end;
        if (!ok)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "joints %d, %d, %d are not a chain upper > middle > end",
                             d->root, d->middle, d->end);
        job->chain[0] = d->root, job->chain[1] = d->middle, job->chain[2] = d->end;
        job->count = 3;
        return TDN_OK;
    }
    job->count = tdn_ik_chain_path(g->skeleton, d->root, d->end, job->chain, TDN_MAX_IK_CHAIN);
    if (job->count < 2)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place,
                         "joint %d is not below joint %d (or the chain is longer "
                         "than %d)",
                         d->end, d->root, TDN_MAX_IK_CHAIN);
    for (int k = 0; k < job->count; k++) {
        job->limits[k] = d->limits ? d->limits[k] : (tdn_ik_limit){ 0, 0 };
        job->joint_weights[k] = d->joint_weights ? d->joint_weights[k] : 0.0f;
        job->max_angles[k] = d->max_angles ? d->max_angles[k] : 0.0f;
    }
    job->has_limits = d->limits != NULL;
    job->has_joint_weights = d->joint_weights != NULL;
    job->has_max_angles = d->max_angles != NULL;
    return TDN_OK;
}

/* Per clip and leg, the float track that says a foot is in contact (-1: none). */
static tdn_result contact_tracks(tdn_graph *g, const tdn_graph_ik_desc *d, tdn__ik *job)
{
    for (int c = 0; c < g->clip_count; c++)
        for (int leg = 0; leg < TDN_FOOT_MAX_LEGS; leg++) {
            const char *name = d->contact_curves && leg < job->feet.leg_count ? d->contact_curves[leg] : NULL;
            job->contact_track[c * TDN_FOOT_MAX_LEGS + leg] = name ? tdn_clip_find_float_track(g->clips[c], name) : -1;
        }
    return TDN_OK;
}

tdn_result tdn__graph_copy_ik(tdn_graph *g, const tdn_graph_desc *desc, tdn_error *err)
{
    if (desc->ik_count < 0 || desc->ik_count > TDN_MAX_GRAPH_IK || (desc->ik_count > 0 && !desc->ik))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.ik", "0..%d IK jobs, not %d", TDN_MAX_GRAPH_IK, desc->ik_count);
    if (desc->ik_count == 0)
        return TDN_OK;
    size_t contacts = sizeof(int) * (size_t)(g->clip_count + 1) * TDN_FOOT_MAX_LEGS;
    g->ik_bytes = sizeof(tdn__ik) * (size_t)desc->ik_count;
    g->ik = tdn__alloc(&g->allocator, g->ik_bytes, 16);
    if (!g->ik)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "out of memory");
    memset(g->ik, 0, g->ik_bytes);
    g->ik_count = desc->ik_count;
    for (int k = 0; k < desc->ik_count; k++) {
        char place[96];
        snprintf(place, sizeof place, "ik[%d]", k);
        g->ik[k].contact_track = NULL;
        tdn_result r = copy_job(g, &desc->ik[k], &g->ik[k], place, err);
        if (r == TDN_OK && desc->ik[k].kind == TDN_GRAPH_IK_FOOT_PLACEMENT) {
            g->ik[k].contact_track = tdn__alloc(&g->allocator, contacts, sizeof(int));
            r = g->ik[k].contact_track ? contact_tracks(g, &desc->ik[k], &g->ik[k])
                                       : tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "out of memory");
            g->ik[k].state_bytes = tdn_foot_placement_bytes(&g->ik[k].feet);
            /* the legs and settings are checked now, on scratch memory, so instances cannot fail */
            if (r == TDN_OK) {
                void *probe = tdn__alloc(&g->allocator, g->ik[k].state_bytes, 64);
                tdn_foot_placement *fp = NULL;
                r = probe ? tdn_foot_placement_init(&g->ik[k].feet, probe, g->ik[k].state_bytes, &fp, err)
                          : tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "out of memory");
                tdn__free(&g->allocator, probe, g->ik[k].state_bytes);
                if (r != TDN_OK && err)
                    snprintf(err->where, sizeof err->where, "%s", place);
            }
        }
        if (r != TDN_OK)
            return r;
    }
    return TDN_OK;
}

void tdn__graph_free_ik(tdn_graph *g)
{
    if (!g->ik)
        return;
    size_t contacts = sizeof(int) * (size_t)(g->clip_count + 1) * TDN_FOOT_MAX_LEGS;
    for (int k = 0; k < g->ik_count; k++)
        tdn__free(&g->allocator, g->ik[k].contact_track, contacts);
    tdn__free(&g->allocator, g->ik, g->ik_bytes);
}

/* ---- at run time, and what the graph reports of its jobs ---- */

tdn_result tdn_graph_set_ground(tdn_graph_instance *instance, tdn_ground_query ground, void *user,
                                const tdn_mat4 *world, tdn_error *err)
{
    if (!instance)
        return tdn__null(err, "instance");
    instance->ground = ground;
    instance->ground_user = user;
    instance->has_world = world != NULL;
    if (world)
        instance->world = *world;
    return TDN_OK;
}

int tdn_graph_ik_reached(const tdn_graph_instance *instance, int job)
{
    return instance && job >= 0 && job < instance->graph->ik_count ? instance->ik_reached[job] : 0;
}

int tdn_graph_ik_count(const tdn_graph *graph) { return graph ? graph->ik_count : 0; }

tdn_graph_ik_kind tdn_graph_ik_kind_of(const tdn_graph *graph, int job)
{
    return graph && job >= 0 && job < graph->ik_count ? graph->ik[job].kind : TDN_GRAPH_IK_TWO_BONE;
}

int tdn_graph_foot_count(const tdn_graph *graph, int job)
{
    return graph && job >= 0 && job < graph->ik_count && graph->ik[job].kind == TDN_GRAPH_IK_FOOT_PLACEMENT
               ? graph->ik[job].feet.leg_count
               : 0;
}

int tdn_graph_foot_joint(const tdn_graph *graph, int job, int leg)
{
    return leg >= 0 && leg < tdn_graph_foot_count(graph, job) ? graph->ik[job].feet.legs[leg].end : -1;
}

float tdn_graph_foot_contact(const tdn_graph_instance *instance, int job, int leg)
{
    return instance && leg >= 0 && leg < tdn_graph_foot_count(instance->graph, job) ? instance->foot_contact[job][leg]
                                                                                    : 0.0f;
}

int tdn_graph_foot_target(const tdn_graph_instance *instance, int job, int leg, tdn_vec3 *target)
{
    if (!instance || !target || leg < 0 || leg >= tdn_graph_foot_count(instance->graph, job) ||
        !instance->foot_solved[job])
        return 0;
    *target = instance->foot_target[job][leg];
    return 1;
}

tdn_result tdn_graph_set_foot_locking(tdn_graph_instance *instance, int enabled, tdn_error *err)
{
    if (!instance)
        return tdn__null(err, "instance");
    instance->no_foot_lock = !enabled;
    return TDN_OK;
}

static tdn_vec3 param_vec3(const tdn_graph_instance *in, int param)
{
    const float *v = in->params[param].value;
    return tdn_vec3_make(v[0], v[1], v[2]);
}

/* A leg's contact: the bottom layer's clips' contact curves, blended with their weights. */
static float contact(const tdn_graph_instance *in, const tdn__ik *job, int leg)
{
    const tdn_graph *g = in->graph;
    const tdn__layer_state *ls = &in->layer_states[0];
    float sum = 0.0f, weight = 0.0f;
    for (int k = 0; k < ls->entry_count; k++) {
        const tdn_graph_entry *e = &in->entries[ls->first_entry + k];
        if (e->clip < 0 || e->additive)
            continue;
        float w = e->weight * (e->group >= 0 ? in->node_weight[e->group] : 1.0f);
        int track = job->contact_track[e->clip * TDN_FOOT_MAX_LEGS + leg];
        sum += track >= 0 ? w * tdn_clip_sample_float(g->clips[e->clip], track, e->time) : 0.0f;
        weight += w;
    }
    return weight > 0.0f ? sum / weight : 0.0f;
}

static int run_job(tdn_graph_instance *in, int k, float weight, float dt, tdn_pose *pose, tdn_mat4 *model)
{
    const tdn_graph *g = in->graph;
    const tdn__ik *job = &g->ik[k];
    const tdn_skeleton *s = g->skeleton;
    int reached = 0;
    tdn_ik_result result = { 0, 0.0f, 0 };
    tdn_vec3 target = job->kind == TDN_GRAPH_IK_FOOT_PLACEMENT ? tdn_vec3_make(0, 0, 0) : param_vec3(in, job->target);
    const tdn_ik_limit *limits = job->has_limits ? job->limits : NULL;
    switch (job->kind) {
    case TDN_GRAPH_IK_TWO_BONE: {
        tdn_ik_two_bone_job ik = { .upper = job->chain[0],
                                   .middle = job->chain[1],
                                   .end = job->chain[2],
                                   .target = target,
                                   .pole = job->pole >= 0 ? param_vec3(in, job->pole) : tdn_vec3_make(0, 0, 0),
                                   .use_pole = job->pole >= 0,
                                   .weight = weight,
                                   .soften = job->soften };
        tdn_ik_two_bone(s, &ik, pose, model, &reached, NULL);
        return reached;
    }
    case TDN_GRAPH_IK_FABRIK: {
        tdn_ik_fabrik_job ik = { .joints = job->chain,
                                 .joint_count = job->count,
                                 .target = target,
                                 .tolerance = job->tolerance,
                                 .max_iterations = job->max_iterations,
                                 .limits = limits,
                                 .weight = weight };
        tdn_ik_fabrik(s, &ik, pose, model, &result, NULL);
        return result.reached;
    }
    case TDN_GRAPH_IK_CCD: {
        tdn_ik_ccd_job ik = { .joints = job->chain,
                              .joint_count = job->count,
                              .target = target,
                              .tolerance = job->tolerance,
                              .max_iterations = job->max_iterations,
                              .limits = limits,
                              .max_step = job->max_step,
                              .weight = weight };
        tdn_ik_ccd(s, &ik, pose, model, &result, NULL);
        return result.reached;
    }
    case TDN_GRAPH_IK_DLS: {
        tdn_dls_target t = { .effector = job->chain[job->count - 1], .position = target, .weight = 1.0f };
        tdn_ik_dls_job ik = { .joints = job->chain,
                              .joint_count = job->count,
                              .targets = &t,
                              .target_count = 1,
                              .damping = job->damping,
                              .tolerance = job->tolerance,
                              .max_iterations = job->max_iterations,
                              .limits = limits,
                              .weight = weight };
        tdn_ik_dls(s, &ik, pose, model, &result, NULL);
        return result.reached;
    }
    case TDN_GRAPH_IK_LOOK_AT: {
        tdn_ik_look_at_job ik = { .joints = job->chain,
                                  .joint_count = job->count,
                                  .joint_weights = job->has_joint_weights ? job->joint_weights : NULL,
                                  .axis = job->axis,
                                  .up_hint = job->up_hint,
                                  .target = target,
                                  .max_angles = job->has_max_angles ? job->max_angles : NULL,
                                  .weight = weight };
        float angle_error = 0.0f;
        return tdn_ik_look_at(s, &ik, pose, model, &angle_error, NULL) == TDN_OK && angle_error < 1e-3f;
    }
    case TDN_GRAPH_IK_FOOT_PLACEMENT: {
        if (!in->ground)
            return 0;
        tdn_foot_placement_frame frame = { .dt = dt,
                                           .world = in->has_world ? &in->world : NULL,
                                           .ground = in->ground,
                                           .ground_user = in->ground_user,
                                           .weight = weight };
        for (int leg = 0; leg < job->feet.leg_count; leg++) {
            in->foot_contact[k][leg] = contact(in, job, leg);
            frame.contact[leg] = in->no_foot_lock ? 0.0f : in->foot_contact[k][leg]; /* contact drives locking */
        }
        tdn_foot_placement_report report;
        tdn_foot_placement *fp = in->foot_states[k];
        if (tdn_foot_placement_solve(fp, &frame, pose, model, &report, NULL) != TDN_OK)
            return 0;
        in->foot_solved[k] = 1;
        reached = 1;
        for (int leg = 0; leg < job->feet.leg_count; leg++) {
            reached &= report.legs[leg].reached;
            in->foot_target[k][leg] = report.legs[leg].target;
        }
        return reached;
    }
    }
    return 0;
}

/* Whether a joint LOD keeps every joint job k moves (its chain, or its legs). */
static int job_kept(const tdn_graph *g, int k, const tdn_joint_lod *joint_lod)
{
    const tdn__ik *job = &g->ik[k];
    int kept = 1;
    if (job->kind == TDN_GRAPH_IK_FOOT_PLACEMENT)
        for (int leg = 0; leg < job->feet.leg_count; leg++)
            kept &= tdn__joint_lod_keeps(joint_lod, job->feet.legs[leg].upper) &
                    tdn__joint_lod_keeps(joint_lod, job->feet.legs[leg].middle) &
                    tdn__joint_lod_keeps(joint_lod, job->feet.legs[leg].end);
    else
        for (int i = 0; i < job->count; i++)
            kept &= tdn__joint_lod_keeps(joint_lod, job->chain[i]);
    return kept;
}

void tdn__graph_run_ik(tdn_graph_instance *in, float dt, const tdn_joint_lod *joint_lod, tdn_pose *pose,
                       tdn_mat4 *model)
{
    const tdn_graph *g = in->graph;
    if (g->ik_count == 0)
        return;
    if (joint_lod) /* kept joints' ancestors are kept: the runs in order see their parents done */
        for (int r = 0; r < joint_lod->kept_count; r++)
            tdn_model_space_range(g->skeleton, pose, NULL, joint_lod->kept[r].begin, joint_lod->kept[r].end, model,
                                  NULL);
    else
        tdn_model_space(g->skeleton, pose, NULL, model, NULL);
    for (int k = 0; k < g->ik_count; k++) {
        in->foot_solved[k] = 0;
        float w = tdn__clamp01(tdn__graph_value(in, g->ik[k].weight));
        in->ik_reached[k] = w > 0.0f && job_kept(g, k, joint_lod) ? run_job(in, k, w, dt, pose, model) : 0;
    }
}
