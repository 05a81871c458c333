/* tendon core: a retargeted graph instance's output: the graph's pose, kept in the instance's
 * memory, written on the retarget's target skeleton, and its root motion scaled (graph.h,
 * "retargeted instances"). */
#include "graph_internal.h"
#include "internal.h"
#include "retarget_internal.h"

tdn_result tdn__graph_check_retarget(const tdn_graph *g, const tdn_retarget *retarget, tdn_error *err)
{
    const int joints = tdn__retarget_source_joint_count(retarget);
    if (joints != g->joint_count)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "retarget",
                         "its source skeleton has %d joints, the graph's skeleton %d: the retarget must be made "
                         "from the graph's skeleton",
                         joints, g->joint_count);
    return TDN_OK;
}

size_t tdn__graph_retarget_layout(const tdn_graph *g, tdn_graph_instance *instance, char *base)
{
    const size_t at = tdn__align_up(g->instance_bytes, TDN_POSE_ALIGN), bytes = tdn_pose_bytes(g->joint_count);
    if (base) { /* the instance starts */
        tdn_pose_init(g->joint_count, base + at, bytes, &instance->source, NULL);
        tdn_pose_set_rest(&instance->source, g->skeleton, NULL);
    }
    return at + bytes;
}

void tdn__graph_retarget_root_motion(tdn_graph_instance *instance)
{
    if (!instance->retarget)
        return;
    /* The hips travel scale times as far (tdn_retarget_pose): so does the character. */
    const float scale = tdn_retarget_scale(instance->retarget);
    tdn_root_motion *m = &instance->root_motion;
    m->translation = tdn_vec3_scale(m->translation, scale);
    m->linear_velocity = tdn_vec3_scale(m->linear_velocity, scale);
}

void tdn__graph_retarget_output(tdn_graph_instance *instance, tdn_pose *out)
{
    /* the poses' sizes were checked by tdn_graph_instance_init_retargeted and tdn_graph_evaluate */
    /* No contact fix-up: it needs where the character stands in the world, which the caller
     * keeps (graph.h: tdn_retarget_contacts on `out` with tdn_graph_source_pose). */
    tdn_retarget_pose(instance->retarget, &instance->source, out, NULL);
}

const tdn_retarget *tdn_graph_instance_retarget(const tdn_graph_instance *instance)
{
    return instance ? instance->retarget : NULL;
}

const tdn_pose *tdn_graph_source_pose(const tdn_graph_instance *instance)
{
    return instance && instance->retarget ? &instance->source : NULL;
}
