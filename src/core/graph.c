/* tendon core: building a graph definition from its description, and checking it. */
#include <stdio.h>

#include "graph_internal.h"
#include "internal.h"
#include "tendon/mirror.h"

static const char *const node_type_names[] = { "clip", "blend2", "blendN", "switch", "additive", "time_scale",
                                               "blend_space", "rest" };

/* "nodes[3] 'walk'" or "nodes[3]" for messages' where. */
static const char *node_place(char *buf, size_t size, const tdn_node_desc *nodes, int i)
{
    if (nodes[i].name && nodes[i].name[0])
        snprintf(buf, size, "nodes[%d] '%.60s'", i, nodes[i].name);
    else
        snprintf(buf, size, "nodes[%d]", i);
    return buf;
}

#define FAIL_NODE(code, ...) \
    return tdn__fail(err, code, node_place(where, sizeof where, desc->nodes, i), __VA_ARGS__)

static int find_param(const tdn_graph *g, const char *name)
{
    for (int p = 0; p < g->param_count; p++)
        if (strcmp(g->params[p].name, name) == 0)
            return p;
    return -1;
}

static tdn_result copy_params(tdn_graph *g, const tdn_graph_desc *desc, tdn_error *err)
{
    char where[96];
    for (int i = 0; i < desc->param_count; i++) {
        const tdn_param_desc *d = &desc->params[i];
        tdn__param *p = &g->params[i];
        snprintf(where, sizeof where, "params[%d]", i);
        if (!d->name || !d->name[0] || strlen(d->name) >= TDN_MAX_PARAM_NAME)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "a parameter needs a name of 1..%d bytes",
                             TDN_MAX_PARAM_NAME - 1);
        snprintf(where, sizeof where, "params[%d] '%s'", i, d->name);
        if (find_param(g, d->name) >= 0)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "a second parameter named '%s'", d->name);
        if ((int)d->type < TDN_PARAM_FLOAT || d->type > TDN_PARAM_VEC3)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "unknown parameter type %d", (int)d->type);
        if (!tdn__finite(d->half_life) || d->half_life < 0.0f)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "half_life %g is not a time >= 0", (double)d->half_life);
        if (d->half_life > 0.0f && d->type != TDN_PARAM_FLOAT && d->type != TDN_PARAM_VEC2 && d->type != TDN_PARAM_VEC3)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "only float and vector parameters are smoothed");
        memcpy(p->name, d->name, strlen(d->name) + 1);
        p->type = d->type;
        p->components = d->type == TDN_PARAM_VEC2 ? 2 : d->type == TDN_PARAM_VEC3 ? 3 : 1;
        p->half_life = d->half_life;
        for (int c = 0; c < 3; c++) {
            float v = c < p->components ? d->value[c] : 0.0f;
            if (!tdn__finite(v))
                return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "initial value %d is not finite", c);
            if (d->type == TDN_PARAM_INT || d->type == TDN_PARAM_BOOL || d->type == TDN_PARAM_TRIGGER)
                v = d->type == TDN_PARAM_INT ? roundf(v) : (float)(v != 0.0f);
            p->initial[c] = v;
        }
        if (d->type == TDN_PARAM_TRIGGER)
            p->initial[0] = 0.0f; /* a trigger starts unfired */
        g->param_count = i + 1;
    }
    return TDN_OK;
}

static tdn_result resolve_value(const tdn_graph *g, const tdn_node_value *v, tdn__value *out, const char *place,
                                tdn_error *err)
{
    out->param = -1;
    out->constant = v->constant;
    if (!v->param) {
        if (!tdn__finite(v->constant))
            return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "the constant is not finite");
        return TDN_OK;
    }
    out->param = find_param(g, v->param);
    if (out->param < 0)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "no parameter named '%.60s'", v->param);
    return TDN_OK;
}

static tdn_result check_position(const tdn_graph *g, const tdn_node_desc *d, tdn__node *n, int *axes,
                                 const char *place, tdn_error *err)
{
    int dims = tdn_blend_space_dimensions(d->space);
    if (d->input_count != tdn_blend_space_sample_count(d->space))
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "%d inputs for a blend space of %d samples", d->input_count,
                         tdn_blend_space_sample_count(d->space));
    if ((d->position != NULL) == (d->axes != NULL))
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "give the position as one parameter or as axes, not %s",
                         d->position ? "both" : "neither");
    if (d->position) {
        int p = find_param(g, d->position);
        if (p < 0)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "no parameter named '%.60s'", d->position);
        const tdn__param *param = &g->params[p];
        int fits = dims == 1 ? param->type == TDN_PARAM_FLOAT
                             : (param->type == TDN_PARAM_VEC2 || param->type == TDN_PARAM_VEC3) && param->components == dims;
        if (!fits)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, place,
                             "position '%s' does not fit a %d-dimensional space (a float for 1, a vec2 or vec3 for 2 or 3)",
                             param->name, dims);
        axes[0] = p;
        n->axis_count = 1;
        return TDN_OK;
    }
    for (int a = 0; a < dims; a++) {
        int p = d->axes[a] ? find_param(g, d->axes[a]) : -1;
        if (p < 0 || g->params[p].type != TDN_PARAM_FLOAT)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "axis %d is not the name of a float parameter", a);
        axes[a] = p;
    }
    n->axis_count = dims;
    return TDN_OK;
}

/* Input counts each node type takes: exact, or 1..TDN_MAX_NODE_INPUTS (-1). */
static int inputs_needed(tdn_node_type type)
{
    switch (type) {
    case TDN_NODE_CLIP:
    case TDN_NODE_REST:
        return 0;
    case TDN_NODE_TIME_SCALE:
        return 1;
    case TDN_NODE_BLEND2:
    case TDN_NODE_ADDITIVE:
        return 2;
    default:
        return -1;
    }
}

static tdn_result copy_nodes(tdn_graph *g, const tdn_graph_desc *desc, tdn_error *err)
{
    char where[96];
    int input_at = 0, value_at = 0, axis_at = 0;
    for (int i = 0; i < desc->node_count; i++) {
        const tdn_node_desc *d = &desc->nodes[i];
        tdn__node *n = &g->nodes[i];
        node_place(where, sizeof where, desc->nodes, i);
        if ((int)d->type < TDN_NODE_CLIP || d->type > TDN_NODE_REST)
            FAIL_NODE(TDN_ERR_INVALID_DATA, "unknown node type %d", (int)d->type);
        n->type = d->type;
        snprintf(n->name, sizeof n->name, "%s", d->name ? d->name : "");
        n->sync_group = -1;
        n->clip_slot = -1;
        int needed = inputs_needed(d->type);
        if (needed >= 0 ? d->input_count != needed : d->input_count < 1 || d->input_count > TDN_MAX_NODE_INPUTS)
            FAIL_NODE(TDN_ERR_INVALID_DATA, "a %s node takes %s%d inputs, not %d", node_type_names[d->type],
                      needed >= 0 ? "" : "1..", needed >= 0 ? needed : TDN_MAX_NODE_INPUTS, d->input_count);
        if (d->input_count > 0 && !d->inputs)
            FAIL_NODE(TDN_ERR_ARGUMENT, "inputs is NULL");
        n->first_input = input_at;
        n->input_count = d->input_count;
        for (int k = 0; k < d->input_count; k++) {
            if (d->inputs[k] < 0 || d->inputs[k] >= desc->node_count)
                FAIL_NODE(TDN_ERR_INVALID_DATA, "input %d is node %d, not one of 0..%d", k, d->inputs[k],
                          desc->node_count - 1);
            g->inputs[input_at++] = d->inputs[k];
        }
        tdn_result r = TDN_OK;
        switch (d->type) {
        case TDN_NODE_BLEND2:
        case TDN_NODE_SWITCH:
        case TDN_NODE_ADDITIVE:
        case TDN_NODE_TIME_SCALE:
            r = resolve_value(g, &d->value, &n->value, where, err);
            break;
        case TDN_NODE_BLENDN:
            if (!d->values)
                FAIL_NODE(TDN_ERR_ARGUMENT, "a blendN node needs one value per input");
            n->first_value = value_at;
            for (int k = 0; k < d->input_count && r == TDN_OK; k++)
                r = resolve_value(g, &d->values[k], &g->values[value_at++], where, err);
            break;
        case TDN_NODE_BLEND_SPACE:
            if (!d->space)
                FAIL_NODE(TDN_ERR_ARGUMENT, "a blend_space node needs its space");
            n->space = d->space;
            n->first_axis = axis_at;
            r = check_position(g, d, n, g->axes + axis_at, where, err);
            axis_at += n->axis_count;
            break;
        default:
            break;
        }
        if (r != TDN_OK)
            return r;
        if (d->type == TDN_NODE_SWITCH) {
            if (!tdn__finite(d->fade) || d->fade < 0.0f)
                FAIL_NODE(TDN_ERR_INVALID_DATA, "fade %g is not a time >= 0", (double)d->fade);
            n->fade = d->fade;
            n->switch_slot = g->switch_weight_count;
            g->switch_weight_count += d->input_count;
        }
        if (d->type == TDN_NODE_CLIP) {
            if (d->clip < 0 || d->clip >= g->clip_count)
                FAIL_NODE(TDN_ERR_INVALID_DATA, "clip %d is not one of the %d clips", d->clip, g->clip_count);
            if (!tdn__finite(d->rate) || !tdn__finite(d->start) || d->start < 0.0f || d->start >= 1.0f)
                FAIL_NODE(TDN_ERR_INVALID_DATA, "rate must be finite and start in [0, 1)");
            if ((int)d->wrap < TDN_WRAP_CLAMP || d->wrap > TDN_WRAP_PINGPONG)
                FAIL_NODE(TDN_ERR_INVALID_DATA, "unknown wrap %d", (int)d->wrap);
            n->clip = d->clip;
            n->rate = d->rate == 0.0f ? 1.0f : d->rate;
            n->start = d->start;
            n->wrap = d->wrap;
            n->mirror = d->mirror != 0;
            if (n->mirror && !desc->mirror)
                FAIL_NODE(TDN_ERR_INVALID_DATA, "the clip is mirrored but the graph has no mirror table");
            n->clip_slot = g->clip_node_count;
            g->clip_nodes[g->clip_node_count++] = i;
        }
        g->node_count = i + 1;
    }
    return TDN_OK;
}

/* Orders the nodes reachable from the root so that every node comes before its inputs (a
 * depth-first post-order, reversed); a cycle is an error naming a node on it. */
static tdn_result order_nodes(tdn_graph *g, const tdn_graph_desc *desc, tdn_error *err)
{
    char where[96];
    enum { WHITE, GREY, BLACK };
    unsigned char *color = tdn__alloc(&g->allocator, (size_t)g->node_count, 1);
    int *stack = tdn__alloc(&g->allocator, sizeof(int) * (size_t)g->node_count, sizeof(int));
    int *next_input = tdn__alloc(&g->allocator, sizeof(int) * (size_t)g->node_count, sizeof(int));
    tdn_result r = TDN_OK;
    if (!color || !stack || !next_input) {
        r = tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "tdn_graph_create", "out of memory");
        goto done;
    }
    memset(color, WHITE, (size_t)g->node_count);
    int top = 0, post = 0;
    stack[top++] = g->root;
    color[g->root] = GREY;
    next_input[g->root] = 0;
    while (top > 0) {
        int i = stack[top - 1];
        const tdn__node *n = &g->nodes[i];
        if (next_input[i] < n->input_count) {
            int child = g->inputs[n->first_input + next_input[i]++];
            if (color[child] == GREY) {
                r = tdn__fail(err, TDN_ERR_INVALID_DATA, node_place(where, sizeof where, desc->nodes, child),
                              "the node is its own input through a cycle");
                goto done;
            }
            if (color[child] == WHITE) {
                color[child] = GREY;
                next_input[child] = 0;
                stack[top++] = child;
            }
        } else {
            color[i] = BLACK;
            g->order[post++] = i;
            top--;
        }
    }
    g->order_count = post;
    for (int a = 0, b = post - 1; a < b; a++, b--) {
        int t = g->order[a];
        g->order[a] = g->order[b];
        g->order[b] = t;
    }
done:
    tdn__free(&g->allocator, color, (size_t)g->node_count);
    tdn__free(&g->allocator, stack, sizeof(int) * (size_t)g->node_count);
    tdn__free(&g->allocator, next_input, sizeof(int) * (size_t)g->node_count);
    return r;
}

/* Marks what is reached through an ADDITIVE node's difference input, and checks that additive
 * clips are met there and only there. */
static tdn_result mark_additive(tdn_graph *g, const tdn_graph_desc *desc, tdn_error *err)
{
    char where[96];
    /* 0: unreached, 1: base, 2: difference; order puts parents first. */
    int *reach = tdn__alloc(&g->allocator, sizeof(int) * (size_t)g->node_count, sizeof(int));
    if (!reach)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "tdn_graph_create", "out of memory");
    memset(reach, 0, sizeof(int) * (size_t)g->node_count);
    reach[g->root] = 1;
    tdn_result r = TDN_OK;
    for (int k = 0; k < g->order_count && r == TDN_OK; k++) {
        int i = g->order[k];
        tdn__node *n = &g->nodes[i];
        n->additive = reach[i] == 2;
        for (int c = 0; c < n->input_count; c++) {
            int child = g->inputs[n->first_input + c];
            int as = n->type == TDN_NODE_ADDITIVE && c == 1 ? 2 : reach[i];
            if (reach[child] && reach[child] != as)
                r = tdn__fail(err, TDN_ERR_INVALID_DATA, node_place(where, sizeof where, desc->nodes, child),
                              "the node is reached both as a pose and as an additive difference");
            reach[child] = as;
        }
        if (r == TDN_OK && n->type == TDN_NODE_CLIP &&
            tdn_clip_is_additive(g->clips[n->clip]) != (reach[i] == 2)) {
            const char *why = reach[i] == 2 ? "an additive difference needs an additive clip"
                                            : "an additive clip can only be an additive node's difference";
            r = tdn__fail(err, TDN_ERR_INVALID_DATA, node_place(where, sizeof where, desc->nodes, i), "%s (clip %d)",
                          why, n->clip);
        }
        if (r == TDN_OK && n->type == TDN_NODE_REST && reach[i] == 2)
            r = tdn__fail(err, TDN_ERR_INVALID_DATA, node_place(where, sizeof where, desc->nodes, i),
                          "the rest pose is not an additive difference");
    }
    tdn__free(&g->allocator, reach, sizeof(int) * (size_t)g->node_count);
    return r;
}

static int find_group(const tdn_graph *g, const char *name)
{
    for (int k = 0; k < g->group_count; k++)
        if (strcmp(g->groups[k].name, name) == 0)
            return k;
    return -1;
}

static const tdn_sync_group_desc *group_desc(const tdn_graph_desc *desc, const char *name)
{
    for (int k = 0; k < desc->sync_group_count; k++)
        if (desc->sync_groups[k].name && strcmp(desc->sync_groups[k].name, name) == 0)
            return &desc->sync_groups[k];
    return NULL;
}

/* Sync groups in order of first mention, their members, and each member's markers. */
static tdn_result build_groups(tdn_graph *g, const tdn_graph_desc *desc, tdn_error *err)
{
    char where[96];
    for (int i = 0; i < g->node_count; i++) {
        const char *name = desc->nodes[i].sync_group;
        if (g->nodes[i].type != TDN_NODE_CLIP || !name)
            continue;
        if (!name[0] || strlen(name) >= sizeof g->groups[0].name)
            FAIL_NODE(TDN_ERR_INVALID_DATA, "a sync group needs a name of 1..63 bytes");
        if (g->nodes[i].wrap != TDN_WRAP_LOOP)
            FAIL_NODE(TDN_ERR_INVALID_DATA, "a clip in sync group '%s' must loop", name);
        int k = find_group(g, name);
        if (k < 0) {
            k = g->group_count++;
            memcpy(g->groups[k].name, name, strlen(name) + 1);
        }
        g->nodes[i].sync_group = k;
        g->groups[k].member_count++;
    }
    int at = 0;
    for (int k = 0; k < g->group_count; k++) {
        g->groups[k].first_member = at;
        at += g->groups[k].member_count;
        g->groups[k].member_count = 0;
    }
    int marker_at = 0;
    for (int i = 0; i < g->node_count; i++) {
        tdn__node *n = &g->nodes[i];
        if (n->sync_group < 0)
            continue;
        tdn__sync_group *grp = &g->groups[n->sync_group];
        g->members[grp->first_member + grp->member_count++] = i;
        const tdn_sync_group_desc *gd = group_desc(desc, grp->name);
        n->first_marker = marker_at;
        if (!gd)
            continue;
        const tdn_clip *clip = g->clips[n->clip];
        const float *times = tdn_clip_event_times(clip);
        for (int e = 0; e < tdn_clip_event_count(clip); e++) {
            for (int m = 0; m < gd->marker_count; m++) {
                if (!gd->markers || !gd->markers[m] || strcmp(gd->markers[m], tdn_clip_event_name(clip, e)) != 0)
                    continue;
                tdn__marker *mk = &g->markers[marker_at++];
                mk->time = times[e];
                mk->name = m;
                mk->occurrence = 0;
                for (int q = n->first_marker; q < marker_at - 1; q++)
                    mk->occurrence += g->markers[q].name == m;
                break;
            }
        }
        n->marker_count = marker_at - n->first_marker;
        grp->has_markers |= n->marker_count > 0;
    }
    return TDN_OK;
}

static int count_markers(const tdn_graph_desc *desc)
{
    int total = 0;
    for (int i = 0; i < desc->node_count; i++)
        if (desc->nodes[i].type == TDN_NODE_CLIP && desc->nodes[i].sync_group && desc->nodes[i].clip >= 0 &&
            desc->nodes[i].clip < desc->clip_count && desc->clips[desc->nodes[i].clip])
            total += tdn_clip_event_count(desc->clips[desc->nodes[i].clip]);
    return total;
}

static tdn_result check_desc(const tdn_graph_desc *desc, tdn_error *err)
{
    if (!desc->skeleton)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "tdn_graph_desc.skeleton", "a graph needs its skeleton");
    if (desc->node_count < 1 || desc->node_count > TDN_MAX_GRAPH_NODES || !desc->nodes)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "tdn_graph_desc.nodes", "1..%d nodes are needed, not %d",
                         TDN_MAX_GRAPH_NODES, desc->node_count);
    if (desc->param_count < 0 || desc->param_count > TDN_MAX_GRAPH_PARAMS || (desc->param_count && !desc->params))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "tdn_graph_desc.params", "0..%d parameters, not %d",
                         TDN_MAX_GRAPH_PARAMS, desc->param_count);
    if (desc->clip_count < 0 || (desc->clip_count && !desc->clips))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "tdn_graph_desc.clips", "NULL clips or a negative count");
    if (desc->sync_group_count < 0 || (desc->sync_group_count && !desc->sync_groups))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "tdn_graph_desc.sync_groups", "NULL groups or a negative count");
    if (desc->root < 0 || desc->root >= desc->node_count)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, "tdn_graph_desc.root", "root %d is not one of the nodes", desc->root);
    if (isnan(desc->cull_threshold) || desc->cull_threshold >= 1.0f)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, "tdn_graph_desc.cull_threshold", "cull threshold %g is not below 1",
                         (double)desc->cull_threshold);
    int joints = tdn_skeleton_joint_count(desc->skeleton);
    for (int c = 0; c < desc->clip_count; c++) {
        char where[48];
        snprintf(where, sizeof where, "clips[%d]", c);
        if (!desc->clips[c])
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "the clip is NULL");
        if (tdn_clip_joint_count(desc->clips[c]) != joints)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "clip '%.60s' has %d joints, the skeleton %d",
                             tdn_clip_name(desc->clips[c]), tdn_clip_joint_count(desc->clips[c]), joints);
    }
    return TDN_OK;
}

/* Places the graph's arrays after the struct in one block; with base NULL only measures it. */
static size_t lay_out(tdn_graph *g, char *base, const tdn_graph_desc *desc, int total_inputs, int total_values,
                      int total_axes, int total_markers)
{
    size_t at = tdn__align_up(sizeof(tdn_graph), 16);
#define PLACE(field, count)                                                    \
    do {                                                                       \
        if (base)                                                              \
            g->field = (void *)(base + at);                                    \
        at = tdn__align_up(at + sizeof *g->field * (size_t)(count), 16);      \
    } while (0)
    PLACE(clips, desc->clip_count);
    PLACE(params, desc->param_count);
    PLACE(nodes, desc->node_count);
    PLACE(inputs, total_inputs);
    PLACE(values, total_values);
    PLACE(axes, total_axes);
    PLACE(order, desc->node_count);
    PLACE(clip_nodes, desc->node_count);
    PLACE(groups, desc->node_count);
    PLACE(members, desc->node_count);
    PLACE(markers, total_markers);
    PLACE(mirror, desc->mirror ? tdn_skeleton_joint_count(desc->skeleton) : 0);
#undef PLACE
    return at;
}

size_t tdn__graph_instance_layout(const tdn_graph *g, tdn_graph_instance *instance, char *base);

tdn_result tdn_graph_create(const tdn_graph_desc *desc, tdn_graph **out, tdn_error *err)
{
    if (!out)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "tdn_graph_create", "out must not be NULL");
    *out = NULL;
    if (!desc)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "tdn_graph_create", "desc must not be NULL");
    tdn_result r = check_desc(desc, err);
    if (r != TDN_OK)
        return r;
    int total_inputs = 0, total_values = 0;
    for (int i = 0; i < desc->node_count; i++) {
        int n = desc->nodes[i].input_count;
        n = n < 0 || n > TDN_MAX_NODE_INPUTS ? 0 : n; /* reported by copy_nodes */
        total_inputs += n;
        total_values += desc->nodes[i].type == TDN_NODE_BLENDN ? n : 0;
    }
    int total_axes = desc->node_count * TDN_MAX_BLEND_SPACE_DIMENSIONS, total_markers = count_markers(desc);
    tdn_graph probe;
    size_t bytes = lay_out(&probe, NULL, desc, total_inputs, total_values, total_axes, total_markers);
    tdn_allocator allocator = desc->allocator;
    char *block = tdn__alloc(&allocator, bytes, 16);
    if (!block)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "tdn_graph_create", "out of memory (%zu bytes)", bytes);
    memset(block, 0, bytes);
    tdn_graph *g = (tdn_graph *)block;
    lay_out(g, block, desc, total_inputs, total_values, total_axes, total_markers);
    g->allocator = allocator;
    g->bytes = bytes;
    g->skeleton = desc->skeleton;
    g->joint_count = tdn_skeleton_joint_count(desc->skeleton);
    g->clip_count = desc->clip_count;
    memcpy((void *)g->clips, desc->clips, sizeof *g->clips * (size_t)desc->clip_count);
    g->root = desc->root;
    g->cull_threshold = desc->cull_threshold == 0.0f ? 0.01f : desc->cull_threshold;
    if (desc->mirror) {
        r = tdn_mirror_table_check(desc->mirror, g->joint_count, err);
        memcpy(g->mirror, desc->mirror, sizeof(int) * (size_t)g->joint_count);
    } else {
        g->mirror = NULL;
    }
    if (r == TDN_OK)
        r = copy_params(g, desc, err);
    if (r == TDN_OK)
        r = copy_nodes(g, desc, err);
    if (r == TDN_OK)
        r = order_nodes(g, desc, err);
    if (r == TDN_OK)
        r = mark_additive(g, desc, err);
    if (r == TDN_OK)
        r = build_groups(g, desc, err);
    if (r != TDN_OK) {
        tdn__free(&allocator, block, bytes);
        return r;
    }
    g->entry_capacity = g->clip_node_count + 1;
    g->instance_bytes = tdn__graph_instance_layout(g, NULL, NULL);
    *out = g;
    return TDN_OK;
}

void tdn_graph_destroy(tdn_graph *graph)
{
    if (graph) {
        tdn_allocator allocator = graph->allocator;
        tdn__free(&allocator, graph, graph->bytes);
    }
}

int tdn_graph_node_count(const tdn_graph *graph) { return graph ? graph->node_count : 0; }

const char *tdn_graph_node_name(const tdn_graph *graph, int node)
{
    return graph && node >= 0 && node < graph->node_count ? graph->nodes[node].name : "";
}

int tdn_graph_param_count(const tdn_graph *graph) { return graph ? graph->param_count : 0; }

int tdn_graph_param_find(const tdn_graph *graph, const char *name) { return graph && name ? find_param(graph, name) : -1; }

const char *tdn_graph_param_name(const tdn_graph *graph, int param)
{
    return graph && param >= 0 && param < graph->param_count ? graph->params[param].name : "";
}

tdn_param_type tdn_graph_param_type(const tdn_graph *graph, int param)
{
    return graph && param >= 0 && param < graph->param_count ? graph->params[param].type : TDN_PARAM_FLOAT;
}
