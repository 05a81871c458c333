/* tendon core: a character's graph instance: its memory, its start, and setting parameters. */
#include "clip_internal.h"
#include "graph_internal.h"
#include "internal.h"

/* Places the instance's arrays after its struct; with base NULL only measures. */
size_t tdn__graph_instance_layout(const tdn_graph *g, tdn_graph_instance *instance, char *base)
{
    size_t at = tdn__align_up(sizeof(tdn_graph_instance), 64);
#define PLACE(field, count, align)                   \
  do {                                               \
    at = tdn__align_up(at, align);                   \
    if (base)                                        \
      instance->field = (void *)(base + at);         \
    at += sizeof *instance->field * (size_t)(count); \
  } while (0)
    PLACE(params, g->param_count, 16);
    PLACE(node_weight, g->node_count, 16);
    PLACE(node_rate, g->node_count, 16);
    PLACE(node_leaving, g->node_count, 16);
    PLACE(players, g->clip_node_count, 16);
    PLACE(caches, g->clip_node_count, 16);
    PLACE(switch_weights, g->switch_weight_count, 16);
    PLACE(groups, g->group_count, 16);
    PLACE(entries, g->entry_capacity, 16);
    PLACE(machines, g->machine_count, 16);
    PLACE(group_first, g->modifier_count, 16);
    PLACE(group_count, g->modifier_count, 16);
    PLACE(mod_state, g->damp_floats, 16);
    PLACE(ik_reached, g->ik_count, 16);
    PLACE(foot_states, g->ik_count, 16);
    PLACE(foot_contact, g->ik_count, 16);
    PLACE(foot_target, g->ik_count, 16);
    PLACE(foot_solved, g->ik_count, 16);
    PLACE(layer_states, g->layer_count, 16);
    PLACE(mm_states, g->mm_count, 16);
#undef PLACE
    const size_t pose_bytes = tdn_pose_bytes(g->joint_count);
    for (int k = 0; k < g->ik_count; k++) { /* foot placement solver states */
        if (g->ik[k].kind != TDN_GRAPH_IK_FOOT_PLACEMENT)
            continue;
        at = tdn__align_up(at, 64);
        if (base)
            tdn_foot_placement_init(&g->ik[k].feet, base + at, g->ik[k].state_bytes, &instance->foot_states[k], NULL);
        at += g->ik[k].state_bytes;
    }
    for (int l = 0; l < g->layer_count; l++) { /* an inertializing layer's offsets and results */
        if (!g->layers[l].inertializes)
            continue;
        tdn__layer_inertia *li = NULL;
        at = tdn__align_up(at, 16);
        if (base)
            li = instance->layer_states[l].inertia = (tdn__layer_inertia *)(base + at);
        at += sizeof *li;
        at = tdn__align_up(at, TDN_POSE_ALIGN);
        if (li)
            tdn_pose_init(g->joint_count, base + at, pose_bytes, &li->shown, NULL);
        at += pose_bytes;
        const size_t halves = (size_t)TDN_POSE_ROWS * (size_t)tdn_pose_stride(g->joint_count);
        at = tdn__align_up(at, 16);
        if (li)
            li->step = (uint16_t *)(base + at);
        at += halves * sizeof(uint16_t);
        at = tdn__align_up(at, 64);
        if (li)
            tdn_inertializer_init(g->joint_count, base + at, g->inertializer_bytes, &li->inertializer, NULL);
        at += g->inertializer_bytes;
    }
    for (int k = 0; k < g->clip_node_count; k++) { /* clip caches of compressed clips */
        const tdn_clip *clip = g->clips[g->nodes[g->clip_nodes[k]].clip];
        if (base)
            instance->caches[k] = NULL;
        if (!g->clip_caches || clip->storage != TDN_STORAGE_COMPRESSED)
            continue;
        at = tdn__align_up(at, TDN_CLIP_CACHE_ALIGN);
        const size_t bytes = tdn_clip_cache_bytes(clip);
        if (base)
            tdn_clip_cache_init(clip, base + at, bytes, &instance->caches[k], NULL);
        at += bytes;
    }
    return tdn__graph_motion_match_layout(g, instance, base, at);
}

size_t tdn_graph_instance_bytes(const tdn_graph *graph) { return tdn_graph_instance_bytes_retargeted(graph, NULL); }

size_t tdn_graph_instance_bytes_retargeted(const tdn_graph *graph, const tdn_retarget *retarget)
{
    if (!graph)
        return 0;
    return retarget ? tdn__graph_retarget_layout(graph, NULL, NULL) : graph->instance_bytes;
}

static void start(tdn_graph_instance *in)
{
    const tdn_graph *g = in->graph;
    for (int p = 0; p < g->param_count; p++) {
        tdn__param_state *s = &in->params[p];
        for (int c = 0; c < 3; c++) {
            s->target[c] = s->value[c] = g->params[p].initial[c];
            s->velocity[c] = 0.0f;
        }
        s->fired = 0;
    }
    for (int k = 0; k < g->clip_node_count; k++) {
        const tdn__node *n = &g->nodes[g->clip_nodes[k]];
        float duration = tdn_clip_duration(g->clips[n->clip]);
        in->players[k] = tdn_player_make(duration, n->wrap);
        tdn_player_set_time(&in->players[k], n->lead_in > 0.0f ? 0.0f : n->start * duration);
    }
    for (int k = 0; k < g->group_count; k++) {
        in->groups[k].phase = 0.0f;
        in->groups[k].leader = -1;
    }
    for (int l = 0; l < g->layer_count; l++) {
        if (in->layer_states[l].inertia)
            in->layer_states[l].inertia->frames_shown = 0;
        in->layer_states[l].pending = -1.0f;
    }
    tdn__graph_switches_reset(in);
    tdn__graph_machines_reset(in);
    /* The flat list of a zero-length step, so evaluate works before the first update. */
    tdn__graph_weights(in);
    tdn__graph_motion_match_advance(in, 0.0f);
    tdn__graph_flatten(in);
    in->event_count = in->events_dropped = 0;
    in->root_motion = (tdn_root_motion){ { 0, 0, 0 }, { 0, 0, 0, 1 }, { 0, 0, 0 }, { 0, 0, 0 } };
}

tdn_result tdn_graph_instance_init(const tdn_graph *graph, void *memory, size_t bytes, tdn_graph_instance **out,
                                   tdn_error *err)
{
    return tdn_graph_instance_init_retargeted(graph, NULL, memory, bytes, out, err);
}

tdn_result tdn_graph_instance_init_retargeted(const tdn_graph *graph, const tdn_retarget *retarget, void *memory,
                                              size_t bytes, tdn_graph_instance **out, tdn_error *err)
{
    if (!out)
        return tdn__null(err, "out");
    *out = NULL;
    if (!graph || !memory)
        return tdn__null(err, !graph ? "graph" : "memory");
    if (retarget && tdn__graph_check_retarget(graph, retarget, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    if (((uintptr_t)memory % TDN_GRAPH_INSTANCE_ALIGN) != 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "memory", "not aligned to %d bytes", TDN_GRAPH_INSTANCE_ALIGN);
    const size_t need = tdn_graph_instance_bytes_retargeted(graph, retarget);
    if (bytes < need)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "bytes", "%zu bytes, the instance needs %zu (%s)", bytes, need,
                         retarget ? "tdn_graph_instance_bytes_retargeted" : "tdn_graph_instance_bytes");
    memset(memory, 0, need);
    tdn_graph_instance *in = memory;
    tdn__graph_instance_layout(graph, in, memory);
    in->graph = graph;
    in->bytes = need;
    in->retarget = retarget;
    if (retarget)
        tdn__graph_retarget_layout(graph, in, memory);
    start(in);
    *out = in;
    return TDN_OK;
}

tdn_result tdn_graph_instance_create(const tdn_graph *graph, tdn_graph_instance **out, const tdn_allocator *allocator,
                                     tdn_error *err)
{
    return tdn_graph_instance_create_retargeted(graph, NULL, out, allocator, err);
}

tdn_result tdn_graph_instance_create_retargeted(const tdn_graph *graph, const tdn_retarget *retarget,
                                                tdn_graph_instance **out, const tdn_allocator *allocator,
                                                tdn_error *err)
{
    if (!out)
        return tdn__null(err, "out");
    *out = NULL;
    if (!graph)
        return tdn__null(err, "graph");
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    if (retarget && tdn__graph_check_retarget(graph, retarget, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    /* the state, then its own workspace */
    const size_t state = tdn__align_up(tdn_graph_instance_bytes_retargeted(graph, retarget), TDN_GRAPH_WORKSPACE_ALIGN);
    const size_t bytes = state + tdn_graph_workspace_bytes(&graph, 1);
    tdn_allocator a = tdn__allocator_of(allocator);
    char *memory = tdn__alloc(&a, bytes, TDN_GRAPH_INSTANCE_ALIGN);
    if (!memory)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "no memory for an instance of %zu bytes", bytes);
    tdn_result r = tdn_graph_instance_init_retargeted(graph, retarget, memory, state, out, err);
    if (r == TDN_OK)
        r = tdn_graph_workspace_init(&graph, 1, memory + state, bytes - state, &(*out)->own, err);
    if (r != TDN_OK) {
        tdn__free(&a, memory, bytes);
        *out = NULL;
        return r;
    }
    (*out)->bytes = bytes;
    (*out)->allocator = a;
    (*out)->created = 1;
    return TDN_OK;
}

void tdn_graph_instance_destroy(tdn_graph_instance *instance)
{
    if (instance && instance->created) {
        tdn_allocator a = instance->allocator;
        tdn__free(&a, instance, instance->bytes);
    }
}

const tdn_graph *tdn_graph_instance_graph(const tdn_graph_instance *instance)
{
    return instance ? instance->graph : NULL;
}

/* A handle by name, or -1 (which every setter refuses). */
static int handle_of(const tdn_graph_instance *instance, const char *name)
{
    return instance ? tdn_graph_find_param(instance->graph, name) : -1;
}

/* The parameter's state when `param` is a handle of one of `types` (a bit per type). */
static tdn__param_state *settable(tdn_graph_instance *in, int param, unsigned types)
{
    if (!in || param < 0 || param >= in->graph->param_count || !(types & (1u << in->graph->params[param].type)))
        return NULL;
    return &in->params[param];
}

/* Why settable refused `param` (off the per-frame path). */
static tdn_result param_fail(const tdn_graph_instance *in, int param, const char *want, tdn_error *err)
{
    if (!in)
        return tdn__null(err, "instance");
    if (param < 0 || param >= in->graph->param_count)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "param", "%d is not a parameter handle (0..%d; tdn_graph_find_param)",
                         param, in->graph->param_count - 1);
    return tdn__fail(err, TDN_ERR_ARGUMENT, "param", "parameter '%s' is a %s, not a %s", in->graph->params[param].name,
                     tdn_param_type_name(in->graph->params[param].type), want);
}

/* The error of a named setter: the name is unknown, or what the handle's setter said. */
static tdn_result named_fail(const tdn_graph_instance *in, const char *name, tdn_result r, tdn_error *err)
{
    if (in && handle_of(in, name) < 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "name", "the graph has no parameter '%.60s'", name ? name : "(NULL)");
    return r;
}

static void set_scalar(tdn_graph_instance *in, int param, tdn__param_state *s, float v)
{
    s->target[0] = v;
    if (in->graph->params[param].half_life <= 0.0f)
        s->value[0] = v;
}

tdn_result tdn_graph_set_float(tdn_graph_instance *instance, int param, float value, tdn_error *err)
{
    tdn__param_state *s = settable(instance, param, 1u << TDN_PARAM_FLOAT);
    if (!s)
        return param_fail(instance, param, "float", err);
    if (!tdn__finite(value))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "value", "%g is not finite", (double)value);
    set_scalar(instance, param, s, value);
    return TDN_OK;
}

tdn_result tdn_graph_set_int(tdn_graph_instance *instance, int param, int value, tdn_error *err)
{
    tdn__param_state *s = settable(instance, param, 1u << TDN_PARAM_INT);
    if (!s)
        return param_fail(instance, param, "int", err);
    set_scalar(instance, param, s, (float)value);
    return TDN_OK;
}

tdn_result tdn_graph_set_bool(tdn_graph_instance *instance, int param, int value, tdn_error *err)
{
    tdn__param_state *s = settable(instance, param, 1u << TDN_PARAM_BOOL);
    if (!s)
        return param_fail(instance, param, "bool", err);
    set_scalar(instance, param, s, value ? 1.0f : 0.0f);
    return TDN_OK;
}

tdn_result tdn_graph_fire_trigger(tdn_graph_instance *instance, int param, tdn_error *err)
{
    tdn__param_state *s = settable(instance, param, 1u << TDN_PARAM_TRIGGER);
    if (!s)
        return param_fail(instance, param, "trigger", err);
    s->target[0] = s->value[0] = 1.0f;
    s->fired = 1;
    return TDN_OK;
}

tdn_result tdn_graph_set_vector(tdn_graph_instance *instance, int param, const float *value, tdn_error *err)
{
    tdn__param_state *s = settable(instance, param, 1u << TDN_PARAM_VEC2 | 1u << TDN_PARAM_VEC3);
    if (!s)
        return param_fail(instance, param, "vec2 or vec3", err);
    if (!value)
        return tdn__null(err, "value");
    const tdn__param *p = &instance->graph->params[param];
    for (int c = 0; c < p->components; c++)
        if (!tdn__finite(value[c]))
            return tdn__fail(err, TDN_ERR_ARGUMENT, "value", "component %d is not finite", c);
    for (int c = 0; c < p->components; c++) {
        s->target[c] = value[c];
        if (p->half_life <= 0.0f)
            s->value[c] = value[c];
    }
    return TDN_OK;
}

tdn_result tdn_graph_set_float_named(tdn_graph_instance *instance, const char *name, float value, tdn_error *err)
{
    tdn_result r = tdn_graph_set_float(instance, handle_of(instance, name), value, err);
    return r == TDN_OK ? r : named_fail(instance, name, r, err);
}

tdn_result tdn_graph_set_int_named(tdn_graph_instance *instance, const char *name, int value, tdn_error *err)
{
    tdn_result r = tdn_graph_set_int(instance, handle_of(instance, name), value, err);
    return r == TDN_OK ? r : named_fail(instance, name, r, err);
}

tdn_result tdn_graph_set_bool_named(tdn_graph_instance *instance, const char *name, int value, tdn_error *err)
{
    tdn_result r = tdn_graph_set_bool(instance, handle_of(instance, name), value, err);
    return r == TDN_OK ? r : named_fail(instance, name, r, err);
}

tdn_result tdn_graph_fire_trigger_named(tdn_graph_instance *instance, const char *name, tdn_error *err)
{
    tdn_result r = tdn_graph_fire_trigger(instance, handle_of(instance, name), err);
    return r == TDN_OK ? r : named_fail(instance, name, r, err);
}

tdn_result tdn_graph_set_vector_named(tdn_graph_instance *instance, const char *name, const float *value,
                                      tdn_error *err)
{
    tdn_result r = tdn_graph_set_vector(instance, handle_of(instance, name), value, err);
    return r == TDN_OK ? r : named_fail(instance, name, r, err);
}

float tdn_graph_param_value(const tdn_graph_instance *instance, int param, int component)
{
    if (!instance || param < 0 || param >= instance->graph->param_count || component < 0 || component > 2)
        return 0.0f;
    return instance->params[param].value[component];
}

float tdn__graph_value(const tdn_graph_instance *instance, tdn__value v)
{
    return v.param < 0 ? v.constant : instance->params[v.param].value[0];
}

int tdn_graph_entries(const tdn_graph_instance *instance, const tdn_graph_entry **entries)
{
    if (entries)
        *entries = instance ? instance->entries : NULL;
    return instance ? instance->entry_count : 0;
}

int tdn_graph_layer_entries(const tdn_graph_instance *instance, int layer, const tdn_graph_entry **entries)
{
    if (!instance || layer < 0 || layer >= instance->graph->layer_count) {
        if (entries)
            *entries = NULL;
        return 0;
    }
    const tdn__layer_state *ls = &instance->layer_states[layer];
    if (entries)
        *entries = instance->entries + ls->first_entry;
    return ls->entry_count;
}

float tdn_graph_layer_weight(const tdn_graph_instance *instance, int layer)
{
    return instance && layer >= 0 && layer < instance->graph->layer_count ? instance->layer_states[layer].weight : 0.0f;
}

int tdn_graph_events(const tdn_graph_instance *instance, const tdn_graph_event **events, int *dropped)
{
    if (events)
        *events = instance ? instance->events : NULL;
    if (dropped)
        *dropped = instance ? instance->events_dropped : 0;
    return instance ? instance->event_count : 0;
}

int tdn_graph_culled(const tdn_graph_instance *instance, float *culled_weight)
{
    if (culled_weight)
        *culled_weight = instance ? instance->culled_weight : 0.0f;
    return instance ? instance->culled : 0;
}

float tdn_graph_clip_time(const tdn_graph_instance *instance, int node)
{
    if (!instance || node < 0 || node >= instance->graph->node_count || instance->graph->nodes[node].clip_slot < 0)
        return -1.0f;
    return instance->players[instance->graph->nodes[node].clip_slot].time;
}

float tdn_graph_node_weight(const tdn_graph_instance *instance, int node)
{
    return instance && node >= 0 && node < instance->graph->node_count ? instance->node_weight[node] : 0.0f;
}
