/* tendon core: batch evaluation (graph.h, "batch evaluation"): every character checked, then
 * updated and evaluated task by task through the caller's parallel-for. A task touches only its
 * characters and its worker's workspace, so results do not depend on the split. */
#include <stdio.h>

#include "graph_internal.h"
#include "graph_joint_lod.h"
#include "graph_lod.h"
#include "internal.h"
#include "retarget_internal.h"
#include "tendon/model_space.h"

#define DEFAULT_CHARACTERS_PER_TASK 16

static tdn_result character_fail(tdn_error *err, int k, const char *field, const char *fmt, const char *what)
{
    char where[64];
    snprintf(where, sizeof where, "characters[%d]%s%s", k, field[0] ? "." : "", field);
    return tdn__fail(err, TDN_ERR_ARGUMENT, where, fmt, what);
}

static tdn_result check_lod(const tdn_graph_character *c, int k, int joints, tdn_error *err)
{
    const tdn_graph_lod *lod = c->lod;
    if (!lod->shown || !lod->target)
        return character_fail(err, k, lod->shown ? "lod.target" : "lod.shown", "%s", "is NULL");
    const tdn_pose *poses[2] = { lod->shown, lod->target };
    for (int i = 0; i < 2; i++)
        if (poses[i]->joint_count != joints) {
            char where[64];
            snprintf(where, sizeof where, "characters[%d].lod.%s", k, i ? "target" : "shown");
            return tdn__pose_size(err, where, poses[i]->joint_count, joints,
                                  c->instance->retarget ? "the retarget's target skeleton" : "the graph's skeleton");
        }
    if (lod->shown->data == lod->target->data)
        return character_fail(err, k, "lod.target", "%s", "is the shown pose: the two must be apart");
    return TDN_OK;
}

static tdn_result check_character(const tdn_graph_batch_desc *d, int k, tdn_error *err)
{
    const tdn_graph_character *c = &d->characters[k];
    if (!c->instance)
        return character_fail(err, k, "instance", "%s", "is NULL");
    const tdn_graph_instance *in = c->instance;
    const int joints = in->retarget ? tdn__retarget_target_joint_count(in->retarget) : in->graph->joint_count;
    if (in->retarget && (!c->pose || !c->model))
        return character_fail(err, k, c->pose ? "model" : "pose", "%s",
                              "is NULL: a retargeted instance's outputs are of its target skeleton, which the "
                              "workspace does not hold: give the pose and model buffers");
    if (c->pose && c->pose->joint_count != joints) {
        char where[64];
        snprintf(where, sizeof where, "characters[%d].pose", k);
        return tdn__pose_size(err, where, c->pose->joint_count, joints,
                              in->retarget ? "the retarget's target skeleton" : "the graph's skeleton");
    }
    if (c->model || c->palette || c->lod) { /* level of detail moves the skeleton's roots */
        const tdn_skeleton *s = c->skeleton ? c->skeleton : in->retarget ? NULL : in->graph->skeleton;
        if (!s)
            return character_fail(err, k, "skeleton", "%s",
                                  "is NULL: a retargeted instance's model space and level of detail need its "
                                  "target skeleton");
        if (tdn_skeleton_joint_count(s) != joints)
            return character_fail(err, k, "skeleton", "%s", "is not of the pose's joint count");
    }
    if (c->lod && check_lod(c, k, joints, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    if (c->joint_lod && in->retarget)
        return character_fail(err, k, "joint_lod", "%s", "is not taken by a retargeted instance yet");
    if (c->joint_lod && c->joint_lod->joint_count != joints)
        return character_fail(err, k, "joint_lod", "%s", "is not of the graph skeleton's joint count");
    for (int w = 0; w < d->worker_count; w++)
        if (!tdn__graph_workspace_fits(d->workspaces[w], in->graph)) {
            char where[64];
            snprintf(where, sizeof where, "workspaces[%d]", w);
            return tdn__fail(err, TDN_ERR_ARGUMENT, where,
                             "too small for characters[%d]'s graph (make it with tdn_graph_workspace_bytes of every "
                             "graph in the batch)",
                             k);
        }
    return TDN_OK;
}

typedef struct batch_run {
    const tdn_graph_batch_desc *desc;
    int per_task;
} batch_run;

static void run_task(void *context, int task, int worker)
{
    const batch_run *run = context;
    const tdn_graph_batch_desc *d = run->desc;
    tdn_graph_workspace *ws = d->workspaces[worker];
    const int begin = task * run->per_task;
    const int end = begin + run->per_task < d->character_count ? begin + run->per_task : d->character_count;
    for (int k = begin; k < end; k++) {
        tdn_graph_character *c = &d->characters[k];
        tdn_graph_instance *in = c->instance;
        if (d->prepare)
            d->prepare(d->prepare_user, k, in);
        if (c->dt >= 0.0f)
            tdn_graph_update(in, c->dt, NULL);
        tdn__graph_workspace_bind(ws, in->graph, "workspace", NULL); /* fits: checked */
        const tdn_skeleton *s = c->skeleton ? c->skeleton : in->graph->skeleton;
        tdn_pose *pose;
        if (c->lod) {
            pose = tdn__graph_lod_frame(c->lod, in, ws, s, c->joint_lod, c->dt >= 0.0f);
            if (c->pose && c->pose->data != pose->data)
                tdn__joint_lod_copy(c->joint_lod, pose, c->pose);
        } else if (c->joint_lod) { /* evaluated in the workspace: the dropped joints' outputs stay as they were */
            pose = &ws->batch_pose;
            tdn__graph_evaluate_joints(in, ws, c->joint_lod, pose);
            if (c->pose)
                tdn__joint_lod_copy(c->joint_lod, pose, c->pose);
        } else {
            pose = c->pose ? c->pose : &ws->batch_pose;
            tdn__graph_evaluate(in, ws, pose);
        }
        if ((c->model || c->palette) && c->joint_lod) {
            tdn_mat4 *model = c->model ? c->model : ws->batch_model;
            for (int r = 0; r < c->joint_lod->kept_count; r++) { /* parents first: ancestors of kept joints are kept */
                const tdn_joint_span kept = c->joint_lod->kept[r];
                tdn_model_space_range(s, pose, NULL, kept.begin, kept.end, model, NULL);
                if (c->palette)
                    tdn__palette_range(s, model, kept.begin, kept.end, c->palette);
            }
        } else if (c->model || c->palette) {
            tdn_mat4 *model = c->model ? c->model : ws->batch_model;
            tdn_model_space(s, pose, NULL, model, NULL);
            if (c->palette)
                tdn_palette(s, model, c->palette, NULL);
        }
    }
}

tdn_result tdn_graph_evaluate_batch(const tdn_graph_batch_desc *desc, tdn_error *err)
{
    if (!desc)
        return tdn__null(err, "desc");
    if (desc->character_count < 0 || (desc->character_count > 0 && !desc->characters))
        return desc->character_count < 0
                   ? tdn__fail(err, TDN_ERR_ARGUMENT, "character_count", "%d is negative", desc->character_count)
                   : tdn__null(err, "characters");
    if (desc->worker_count < 1 || !desc->workspaces)
        return desc->worker_count < 1
                   ? tdn__fail(err, TDN_ERR_ARGUMENT, "worker_count",
                               "%d: a batch needs a workspace per worker, at least one", desc->worker_count)
                   : tdn__null(err, "workspaces");
    if (desc->characters_per_task < 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "characters_per_task", "%d is negative", desc->characters_per_task);
    for (int w = 0; w < desc->worker_count; w++)
        if (!desc->workspaces[w]) {
            char where[32];
            snprintf(where, sizeof where, "workspaces[%d]", w);
            return tdn__null(err, where);
        }
    for (int k = 0; k < desc->character_count; k++)
        if (check_character(desc, k, err) != TDN_OK)
            return TDN_ERR_ARGUMENT;
    if (desc->character_count == 0)
        return TDN_OK;
    const batch_run run = { desc,
                            desc->characters_per_task > 0 ? desc->characters_per_task : DEFAULT_CHARACTERS_PER_TASK };
    const int tasks = (desc->character_count + run.per_task - 1) / run.per_task;
    if (desc->parallel_for)
        desc->parallel_for(desc->parallel_user, tasks, run_task, (void *)&run);
    else
        for (int t = 0; t < tasks; t++)
            run_task((void *)&run, t, 0);
    return TDN_OK;
}
