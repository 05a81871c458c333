/* tendon core: graph workspaces, the scratch memory an evaluation writes before it reads (graph.h,
 * "workspaces"). */
#include "graph_internal.h"
#include "internal.h"

size_t tdn__graph_workspace_layout(tdn_graph_workspace *ws, char *base, int joint_count, int entry_capacity,
                                   int modifier_count, int model_joints)
{
    size_t at = tdn__align_up(sizeof(tdn_graph_workspace), 64);
#define PLACE(field, count)                    \
  do {                                         \
    at = tdn__align_up(at, 64);                \
    if (base)                                  \
      ws->field = (void *)(base + at);         \
    at += sizeof *ws->field * (size_t)(count); \
  } while (0)
    PLACE(poses, entry_capacity);
    PLACE(group_poses, modifier_count);
    PLACE(layers, entry_capacity);
    PLACE(additives, entry_capacity);
    PLACE(model, model_joints);
    PLACE(batch_model, joint_count);
#undef PLACE
    const size_t pose_bytes = tdn__align_up(tdn_pose_bytes(joint_count), TDN_POSE_ALIGN);
    at = tdn__align_up(at, TDN_POSE_ALIGN);
    if (base) {
        ws->pose_memory = base + at;
        ws->pose_bytes = pose_bytes;
        ws->joint_count = joint_count;
        ws->entry_capacity = entry_capacity;
        ws->modifier_count = modifier_count;
        ws->model_joints = model_joints;
    }
    return at + pose_bytes * (size_t)(entry_capacity + modifier_count + 3);
}

/* The largest of each need of `graphs` (joints, entries, modifiers, model-space joints) and the
 * bytes of a workspace for them; 0 when one is NULL. */
static size_t measure(const tdn_graph *const *graphs, int count, int *needs)
{
    needs[0] = needs[1] = needs[2] = needs[3] = 0;
    for (int k = 0; k < count; k++) {
        const tdn_graph *g = graphs[k];
        if (!g)
            return 0;
        needs[0] = g->joint_count > needs[0] ? g->joint_count : needs[0];
        needs[1] = g->entry_capacity > needs[1] ? g->entry_capacity : needs[1];
        needs[2] = g->modifier_count > needs[2] ? g->modifier_count : needs[2];
        if (g->ik_count > 0 && g->joint_count > needs[3])
            needs[3] = g->joint_count;
    }
    return tdn__graph_workspace_layout(NULL, NULL, needs[0], needs[1], needs[2], needs[3]);
}

static tdn_result check_graphs(const tdn_graph *const *graphs, int count, tdn_error *err)
{
    if (!graphs)
        return tdn__null(err, "graphs");
    if (count < 1)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "graph_count", "%d: a workspace is made for at least one graph", count);
    for (int k = 0; k < count; k++)
        if (!graphs[k])
            return tdn__fail(err, TDN_ERR_ARGUMENT, "graphs", "graphs[%d] is NULL", k);
    return TDN_OK;
}

size_t tdn_graph_workspace_bytes(const tdn_graph *const *graphs, int graph_count)
{
    int needs[4];
    return graphs && graph_count > 0 ? measure(graphs, graph_count, needs) : 0;
}

tdn_result tdn_graph_workspace_init(const tdn_graph *const *graphs, int graph_count, void *memory, size_t bytes,
                                    tdn_graph_workspace **out, tdn_error *err)
{
    if (!out)
        return tdn__null(err, "out");
    *out = NULL;
    if (check_graphs(graphs, graph_count, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    if (!memory)
        return tdn__null(err, "memory");
    int needs[4];
    const size_t need = measure(graphs, graph_count, needs);
    if (((uintptr_t)memory % TDN_GRAPH_WORKSPACE_ALIGN) != 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "memory", "not aligned to %d bytes", TDN_GRAPH_WORKSPACE_ALIGN);
    if (bytes < need)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "bytes",
                         "%zu bytes, the workspace needs %zu (tdn_graph_workspace_bytes)", bytes, need);
    tdn_graph_workspace *ws = memory;
    memset(ws, 0, sizeof *ws);
    tdn__graph_workspace_layout(ws, memory, needs[0], needs[1], needs[2], needs[3]);
    ws->bytes = need;
    *out = ws;
    return TDN_OK;
}

tdn_result tdn_graph_workspace_create(const tdn_graph *const *graphs, int graph_count, tdn_graph_workspace **out,
                                      const tdn_allocator *allocator, tdn_error *err)
{
    if (!out)
        return tdn__null(err, "out");
    *out = NULL;
    if (tdn__check_allocator(allocator, err) != TDN_OK || check_graphs(graphs, graph_count, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    const size_t bytes = tdn_graph_workspace_bytes(graphs, graph_count);
    tdn_allocator a = tdn__allocator_of(allocator);
    void *memory = tdn__alloc(&a, bytes, TDN_GRAPH_WORKSPACE_ALIGN);
    if (!memory)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "no memory for a workspace of %zu bytes", bytes);
    tdn_graph_workspace_init(graphs, graph_count, memory, bytes, out, NULL);
    (*out)->allocator = a;
    (*out)->created = 1;
    return TDN_OK;
}

void tdn_graph_workspace_destroy(tdn_graph_workspace *workspace)
{
    if (workspace && workspace->created) {
        tdn_allocator a = workspace->allocator;
        tdn__free(&a, workspace, workspace->bytes);
    }
}

int tdn__graph_workspace_fits(const tdn_graph_workspace *ws, const tdn_graph *g)
{
    return g->joint_count <= ws->joint_count && g->entry_capacity <= ws->entry_capacity &&
           g->modifier_count <= ws->modifier_count && (g->ik_count == 0 || g->joint_count <= ws->model_joints);
}

tdn_result tdn__graph_workspace_bind(tdn_graph_workspace *ws, const tdn_graph *g, const char *where, tdn_error *err)
{
    if (ws->graph == g)
        return TDN_OK;
    if (!tdn__graph_workspace_fits(ws, g))
        return tdn__fail(err, TDN_ERR_ARGUMENT, where,
                         "made for graphs of up to %d joints, %d entries and %d modifiers%s; this graph has %d, %d "
                         "and %d%s (tdn_graph_workspace_bytes of a set that includes it)",
                         ws->joint_count, ws->entry_capacity, ws->modifier_count,
                         ws->model_joints > 0 ? "" : " without IK", g->joint_count, g->entry_capacity,
                         g->modifier_count, g->ik_count > 0 ? " with IK" : "");
    /* poses of this graph's joint count over the same memory, their padding at identity */
    const int slots = g->entry_capacity + g->modifier_count + 3;
    for (int k = 0; k < slots; k++) {
        tdn_pose *pose = k < g->entry_capacity                       ? &ws->poses[k]
                         : k < g->entry_capacity + g->modifier_count ? &ws->group_poses[k - g->entry_capacity]
                         : k == slots - 3                            ? &ws->layer_pose
                         : k == slots - 2                            ? &ws->spare
                                                                     : &ws->batch_pose;
        tdn_pose_init(g->joint_count, ws->pose_memory + (size_t)k * ws->pose_bytes, ws->pose_bytes, pose, NULL);
    }
    ws->graph = g;
    return TDN_OK;
}

tdn_result tdn__graph_own_workspace(const tdn_graph_instance *instance, const char *with, tdn_graph_workspace **out,
                                    tdn_error *err)
{
    *out = instance ? instance->own : NULL;
    if (instance && !instance->own)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "instance",
                         "placed by tdn_graph_instance_init, it has no workspace of its own: use %s", with);
    return TDN_OK;
}
