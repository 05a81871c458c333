/* tendon core: building a graph definition from its description, and checking it. */

#include "graph_internal.h"
#include "internal.h"
#include "tendon/mirror.h"

static const char *const node_type_names[] = { "clip",          "blend2",     "blendN",      "switch",
                                               "additive",      "time_scale", "blend_space", "rest",
                                               "state_machine", "procedural", "modifier",    "motion_match" };

/* "nodes[3] 'walk'" (at most 60 bytes of the name) or "nodes[3]" for messages' where: made for
 * every node as it is copied, so without snprintf. */
static const char *node_place(char *buf, size_t size, const tdn_node_desc *nodes, int i)
{
    const char *name = nodes[i].name;
    if (!name || !name[0])
        return tdn__place(buf, size, "nodes[", i, "]");
    char cut[61] = "";
    tdn__append(tdn__place(buf, size, "nodes[", i, "] '"), size, tdn__append(cut, sizeof cut, name));
    return tdn__append(buf, size, "'");
}

static const char *place_of(char *buf, size_t size, const void *nodes, int i)
{
    return node_place(buf, size, nodes, i);
}

#define FAIL_NODE(code, ...) return tdn__fail(err, code, node_place(where, sizeof where, desc->nodes, i), __VA_ARGS__)

static int find_param(const tdn_graph *g, const char *name)
{
    /* the first bytes compared here: most names differ there, without a call to strcmp */
    for (int p = 0; p < g->param_count; p++)
        if (g->params[p].name[0] == name[0] && strcmp(g->params[p].name, name) == 0)
            return p;
    return -1;
}

/* "params[2] 'speed'" for messages' where (the name is checked: shorter than the place). */
static const char *param_place(char *buf, size_t size, int i, const char *name)
{
    return tdn__append(tdn__append(tdn__place(buf, size, "params[", i, "] '"), size, name), size, "'");
}

static tdn_result copy_params(tdn_graph *g, const tdn_graph_desc *desc, tdn_error *err)
{
    char where[96];
    for (int i = 0; i < desc->param_count; i++) {
        const tdn_param_desc *d = &desc->params[i];
        tdn__param *p = &g->params[i];
        if (!d->name || !d->name[0] || strlen(d->name) >= TDN_MAX_PARAM_NAME)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, tdn__place(where, sizeof where, "params[", i, "]"),
                             "a parameter needs a name of 1..%d bytes", TDN_MAX_PARAM_NAME - 1);
        if (find_param(g, d->name) >= 0)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, param_place(where, sizeof where, i, d->name),
                             "a second parameter named '%s'", d->name);
        if ((int)d->type < TDN_PARAM_FLOAT || d->type > TDN_PARAM_VEC3)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, param_place(where, sizeof where, i, d->name),
                             "unknown parameter type %d", (int)d->type);
        if (!tdn__finite(d->half_life) || d->half_life < 0.0f)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, param_place(where, sizeof where, i, d->name),
                             "half_life %g is not a time >= 0", (double)d->half_life);
        if (d->half_life > 0.0f && d->type != TDN_PARAM_FLOAT && d->type != TDN_PARAM_VEC2 && d->type != TDN_PARAM_VEC3)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, param_place(where, sizeof where, i, d->name),
                             "only float and vector parameters are smoothed");
        memcpy(p->name, d->name, strlen(d->name) + 1);
        p->type = d->type;
        p->components = d->type == TDN_PARAM_VEC2 ? 2 : d->type == TDN_PARAM_VEC3 ? 3 : 1;
        p->half_life = d->half_life;
        for (int c = 0; c < 3; c++) {
            float v = c < p->components ? d->value[c] : 0.0f;
            if (!tdn__finite(v))
                return tdn__fail(err, TDN_ERR_INVALID_DATA, param_place(where, sizeof where, i, d->name),
                                 "initial value %d is not finite", c);
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

static tdn_result check_position(const tdn_graph *g, const tdn_node_desc *d, tdn__node *n, int *axes, const char *place,
                                 tdn_error *err)
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
        int fits = dims == 1
                       ? param->type == TDN_PARAM_FLOAT
                       : (param->type == TDN_PARAM_VEC2 || param->type == TDN_PARAM_VEC3) && param->components == dims;
        if (!fits)
            return tdn__fail(
                err, TDN_ERR_INVALID_DATA, place,
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
    case TDN_NODE_PROCEDURAL:
    case TDN_NODE_MOTION_MATCH:
        return 0;
    case TDN_NODE_TIME_SCALE:
    case TDN_NODE_MODIFIER:
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
    int input_at = 0, value_at = 0, axis_at = 0, condition_at = 0, joint_at = 0, mm_clip_at = 0, mm_mirror_at = 0;
    for (int i = 0; i < desc->node_count; i++) {
        const tdn_node_desc *d = &desc->nodes[i];
        tdn__node *n = &g->nodes[i];
        if ((int)d->type < TDN_NODE_CLIP || d->type > TDN_NODE_MOTION_MATCH)
            FAIL_NODE(TDN_ERR_INVALID_DATA, "unknown node type %d", (int)d->type);
        n->type = d->type;
        tdn__append(n->name, sizeof n->name, d->name ? d->name : ""); /* n is zeroed */
        n->sync_group = -1;
        n->clip_slot = -1;
        n->machine = -1;
        n->layer = -1;
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
        if (d->type != TDN_NODE_CLIP && d->type != TDN_NODE_REST) /* for the checks below that take it */
            node_place(where, sizeof where, desc->nodes, i);
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
        case TDN_NODE_STATE_MACHINE:
            r = tdn__graph_copy_machine(g, d, i, where, &condition_at, err);
            break;
        case TDN_NODE_MODIFIER:
            if (d->modifier == TDN_MODIFIER_ROTATE)
                r = resolve_value(g, &d->value, &n->value, where, err);
            if (r == TDN_OK)
                r = tdn__graph_copy_modifier(g, d, i, where, &joint_at, err);
            break;
        case TDN_NODE_PROCEDURAL:
            r = tdn__graph_copy_modifier(g, d, i, where, &joint_at, err);
            break;
        case TDN_NODE_MOTION_MATCH:
            r = tdn__graph_copy_motion_match(g, desc, i, where, &mm_clip_at, &mm_mirror_at, err);
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
            float duration = tdn_clip_duration(g->clips[d->clip]);
            n->duration = duration;
            n->event_times = tdn_clip_event_times(g->clips[d->clip]);
            n->event_count = tdn_clip_event_count(g->clips[d->clip]);
            if (!tdn__finite(d->lead_in) || !tdn__finite(d->lead_out) || d->lead_in < 0.0f || d->lead_out < 0.0f ||
                ((d->lead_in > 0.0f || d->lead_out > 0.0f) && !(d->lead_in + d->lead_out < duration)))
                FAIL_NODE(TDN_ERR_INVALID_DATA,
                          "lead-in %g and lead-out %g must be >= 0 and leave part of the %g s clip", (double)d->lead_in,
                          (double)d->lead_out, (double)duration);
            n->lead_in = d->lead_in;
            n->lead_out = d->lead_out;
            n->wrap = d->wrap;
            n->mirror = d->mirror != 0;
            if (n->mirror && !desc->mirror_table)
                FAIL_NODE(TDN_ERR_INVALID_DATA, "the clip is mirrored but the graph has no mirror table");
            n->clip_slot = g->clip_node_count;
            g->clip_nodes[g->clip_node_count++] = i;
        }
        g->node_count = i + 1;
    }
    return TDN_OK;
}

/* Orders the nodes each layer reaches, layer by layer, so that every node comes before its
 * inputs (a depth-first post-order, reversed per layer); a cycle, or a node two layers reach,
 * is an error naming the node. */
static tdn_result order_nodes(tdn_graph *g, const tdn_graph_desc *desc, tdn_error *err)
{
    char where[96];
    enum { WHITE, GREY, BLACK };
    /* one allocation: the stack and each node's next input, then its color */
    const size_t bytes = (2 * sizeof(int) + 1) * (size_t)g->node_count;
    int *stack = tdn__alloc(&g->allocator, bytes, sizeof(int));
    if (!stack)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "out of memory");
    int *next_input = stack + g->node_count;
    unsigned char *color = (unsigned char *)(next_input + g->node_count);
    tdn_result r = TDN_OK;
    memset(color, WHITE, (size_t)g->node_count);
    int post = 0;
    for (int layer = 0; layer < g->layer_count; layer++) {
        int root = g->layers[layer].root, top = 0, first = post;
        if (color[root] != WHITE) {
            r = tdn__fail(err, TDN_ERR_INVALID_DATA, node_place(where, sizeof where, desc->nodes, root),
                          "the node belongs to two layers");
            goto done;
        }
        stack[top++] = root;
        color[root] = GREY;
        next_input[root] = 0;
        g->nodes[root].layer = layer;
        while (top > 0) {
            int i = stack[top - 1];
            const tdn__node *n = &g->nodes[i];
            if (next_input[i] < n->input_count) {
                int child = g->inputs[n->first_input + next_input[i]++];
                const char *problem = color[child] == GREY ? "the node is its own input through a cycle"
                                      : color[child] == BLACK && g->nodes[child].layer != layer
                                          ? "the node belongs to two layers"
                                          : NULL;
                if (problem) {
                    r = tdn__fail(err, TDN_ERR_INVALID_DATA, node_place(where, sizeof where, desc->nodes, child), "%s",
                                  problem);
                    goto done;
                }
                if (color[child] == WHITE) {
                    color[child] = GREY;
                    next_input[child] = 0;
                    g->nodes[child].layer = layer;
                    stack[top++] = child;
                }
            } else {
                color[i] = BLACK;
                g->order[post++] = i;
                top--;
            }
        }
        for (int a = first, b = post - 1; a < b; a++, b--) {
            int t = g->order[a];
            g->order[a] = g->order[b];
            g->order[b] = t;
        }
    }
    g->order_count = post;
done:
    tdn__free(&g->allocator, stack, bytes);
    return r;
}

/* Marks what is reached through an ADDITIVE node's difference input (or from an additive
 * layer's root), and checks that additive clips are met there and only there. */
static tdn_result mark_additive(tdn_graph *g, const tdn_graph_desc *desc, tdn_error *err)
{
    char where[96];
    /* 0: unreached, 1: base, 2: difference; order puts parents first. */
    int *reach = tdn__alloc(&g->allocator, sizeof(int) * (size_t)g->node_count, sizeof(int));
    if (!reach)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "out of memory");
    memset(reach, 0, sizeof(int) * (size_t)g->node_count);
    for (int layer = 0; layer < g->layer_count; layer++)
        reach[g->layers[layer].root] = g->layers[layer].mode == TDN_LAYER_ADDITIVE ? 2 : 1;
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
        if (r == TDN_OK && n->type == TDN_NODE_CLIP && tdn_clip_is_additive(g->clips[n->clip]) != (reach[i] == 2)) {
            const char *why = reach[i] == 2 ? "is not additive: an additive difference needs an additive clip"
                                            : "is additive: an additive clip can only be an additive node's difference";
            r = tdn__fail(err, TDN_ERR_INVALID_DATA, node_place(where, sizeof where, desc->nodes, i), "\"%.60s\" %s",
                          tdn_clip_name(g->clips[n->clip]), why);
        }
        if (r == TDN_OK &&
            (n->type == TDN_NODE_REST || n->type == TDN_NODE_PROCEDURAL || n->type == TDN_NODE_MODIFIER ||
             n->type == TDN_NODE_MOTION_MATCH) &&
            reach[i] == 2)
            r = tdn__fail(err, TDN_ERR_INVALID_DATA, node_place(where, sizeof where, desc->nodes, i),
                          "a %s node is not an additive difference", node_type_names[n->type]);
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
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.skeleton", "a graph needs its skeleton");
    if (desc->node_count < 1 || desc->node_count > TDN_MAX_GRAPH_NODES || !desc->nodes)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.nodes", "1..%d nodes are needed, not %d", TDN_MAX_GRAPH_NODES,
                         desc->node_count);
    if (desc->param_count < 0 || desc->param_count > TDN_MAX_GRAPH_PARAMS || (desc->param_count && !desc->params))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.params", "0..%d parameters, not %d", TDN_MAX_GRAPH_PARAMS,
                         desc->param_count);
    if (desc->clip_count < 0 || (desc->clip_count && !desc->clips))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.clips", "NULL clips or a negative count");
    if (desc->sync_group_count < 0 || (desc->sync_group_count && !desc->sync_groups))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.sync_groups", "NULL groups or a negative count");
    if (desc->layer_count < 0 || desc->layer_count > TDN_MAX_LAYERS || (desc->layer_count && !desc->layers))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.layers", "0..%d layers, not %d", TDN_MAX_LAYERS,
                         desc->layer_count);
    if (desc->layer_count == 0 && (desc->root < 0 || desc->root >= desc->node_count))
        return tdn__fail(err, TDN_ERR_INVALID_DATA, "desc.root", "root %d is not one of the nodes", desc->root);
    for (int l = 0; l < desc->layer_count; l++) {
        char where[96];
        const tdn_layer_desc *L = &desc->layers[l];
        tdn__place(where, sizeof where, "layers[", l, "]");
        if (L->root < 0 || L->root >= desc->node_count)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "root %d is not one of the nodes", L->root);
        if ((int)L->mode < TDN_LAYER_OVERRIDE || L->mode > TDN_LAYER_ADDITIVE)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "unknown layer mode %d", (int)L->mode);
        if (L->name && strlen(L->name) >= 64)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "a layer name is at most 63 bytes");
        for (int j = 0, joints = tdn_skeleton_joint_count(desc->skeleton); L->mask && j < joints; j++)
            if (!(L->mask[j] >= 0.0f && L->mask[j] <= 1.0f))
                return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "mask weight %d is not in [0, 1]", j);
    }
    if (isnan(desc->cull_threshold) || desc->cull_threshold >= 1.0f)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, "desc.cull_threshold", "cull threshold %g is not below 1",
                         (double)desc->cull_threshold);
    int joints = tdn_skeleton_joint_count(desc->skeleton);
    for (int c = 0; c < desc->clip_count; c++) {
        if (desc->clips[c] && tdn_clip_joint_count(desc->clips[c]) == joints)
            continue;
        char where[48]; /* made for a refused clip only */
        tdn__place(where, sizeof where, "clips[", c, "]");
        if (!desc->clips[c])
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "the clip is NULL");
        return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "clip '%.60s' has %d joints, the skeleton %d",
                         tdn_clip_name(desc->clips[c]), tdn_clip_joint_count(desc->clips[c]), joints);
    }
    return TDN_OK;
}

/* Places the graph's arrays after the struct in one block; with base NULL only measures it. */
/* The layers (one override layer of `root` when the description has none); the layer's weight
 * parameter is resolved once the parameters are copied (resolve_layer_weights). */
static tdn_result copy_layers(tdn_graph *g, const tdn_graph_desc *desc, tdn_error *err)
{
    (void)err;
    g->layer_count = desc->layer_count > 0 ? desc->layer_count : 1;
    for (int l = 0; l < g->layer_count; l++) {
        tdn__layer *L = &g->layers[l];
        const tdn_layer_desc *d = desc->layer_count > 0 ? &desc->layers[l] : NULL;
        tdn__append(L->name, sizeof L->name, d && d->name ? d->name : (d ? "" : "base")); /* L is zeroed */
        L->root = d ? d->root : desc->root;
        L->mode = d ? d->mode : TDN_LAYER_OVERRIDE;
        L->model_space_rotation = d ? d->model_space_rotation != 0 : 0;
        L->weight = (tdn__value){ -1, 1.0f };
        if (d && d->mask)
            memcpy(L->mask, d->mask, sizeof(float) * (size_t)g->joint_count);
    }
    return TDN_OK;
}

static tdn_result resolve_layer_weights(tdn_graph *g, const tdn_graph_desc *desc, tdn_error *err)
{
    for (int l = 0; l < desc->layer_count; l++) {
        char where[48];
        tdn__place(where, sizeof where, "layers[", l, "].weight");
        tdn__value *w = &g->layers[l].weight;
        tdn_result r = resolve_value(g, &desc->layers[l].weight, w, where, err);
        if (r != TDN_OK)
            return r;
        if (w->param < 0 && w->constant == 0.0f)
            w->constant = 1.0f;
    }
    return TDN_OK;
}

/* What the arrays of a graph count, measured from its description before it is checked. */
typedef struct graph_totals {
    int inputs, values, axes, markers, machines, transitions, conditions, states, layers, mod_joints;
    int state_transitions; /* each machine's states times its transitions */
    int mm, mm_clips, mm_mirrors;
} graph_totals;

static graph_totals count_totals(const tdn_graph_desc *desc)
{
    graph_totals t = { 0 };
    for (int i = 0; i < desc->node_count; i++) {
        const tdn_node_desc *d = &desc->nodes[i];
        int n = d->input_count < 0 || d->input_count > TDN_MAX_NODE_INPUTS ? 0 : d->input_count;
        t.inputs += n;
        t.values += d->type == TDN_NODE_BLENDN ? n : 0;
        t.axes += TDN_MAX_BLEND_SPACE_DIMENSIONS;
        if (d->type == TDN_NODE_MODIFIER && d->joint_count > 0 && d->joint_count <= TDN_MAX_JOINTS)
            t.mod_joints += d->joint_count;
        const tdn_mm_controller_desc *mm = d->type == TDN_NODE_MOTION_MATCH ? d->motion_match : NULL;
        if (mm) {
            t.mm++;
            t.mm_clips += mm->clip_count > 0 ? mm->clip_count : 0;
            t.mm_mirrors += mm->mirror_table != NULL;
        }
        const tdn_state_machine_desc *sm = d->type == TDN_NODE_STATE_MACHINE ? d->state_machine : NULL;
        if (sm && sm->state_count > 0 && sm->state_count <= TDN_MAX_STATES && sm->transition_count >= 0 &&
            sm->transition_count <= TDN_MAX_GRAPH_TRANSITIONS && (sm->transitions || sm->transition_count == 0)) {
            t.machines++;
            t.states += sm->state_count;
            t.transitions += sm->transition_count;
            t.state_transitions += sm->state_count * sm->transition_count;
            t.conditions += tdn__graph_count_conditions(sm);
        }
    }
    t.markers = count_markers(desc);
    t.layers = desc->layer_count > 0 ? desc->layer_count : 1;
    return t;
}

static size_t lay_out(tdn_graph *g, char *base, const tdn_graph_desc *desc, const graph_totals *t)
{
    size_t at = tdn__align_up(sizeof(tdn_graph), 16);
#define PLACE(field, count)                                          \
  do {                                                               \
    if (base)                                                        \
      g->field = (void *)(base + at);                                \
    at = tdn__align_up(at + sizeof *g->field * (size_t)(count), 16); \
  } while (0)
    PLACE(clips, desc->clip_count);
    PLACE(params, desc->param_count);
    PLACE(nodes, desc->node_count);
    PLACE(inputs, t->inputs);
    PLACE(values, t->values);
    PLACE(axes, t->axes);
    PLACE(order, desc->node_count);
    PLACE(clip_nodes, desc->node_count);
    PLACE(groups, desc->node_count);
    PLACE(members, desc->node_count);
    PLACE(markers, t->markers);
    PLACE(mirror, desc->mirror_table ? tdn_skeleton_joint_count(desc->skeleton) : 0);
    PLACE(machines, t->machines);
    PLACE(transitions, t->transitions);
    PLACE(conditions, t->conditions);
    PLACE(state_names, t->states);
    PLACE(state_clip_first, t->states);
    PLACE(state_clip_count, t->states);
    PLACE(layers, t->layers);
    PLACE(mod_joints, t->mod_joints);
    PLACE(mod_weights, t->mod_joints);
    PLACE(mm, t->mm);
    PLACE(mm_clips, t->mm_clips);
    PLACE(mm_mirror, t->mm_mirrors * tdn_skeleton_joint_count(desc->skeleton));
    PLACE(flat_groups, t->layers + desc->node_count);
    PLACE(flat_nodes, desc->node_count);
    PLACE(layer_modifiers, desc->node_count);
    PLACE(state_transition_first, t->states);
    PLACE(state_transition_count, t->states);
    PLACE(state_transitions, t->state_transitions);
    int stride = tdn_pose_stride(tdn_skeleton_joint_count(desc->skeleton));
    for (int l = 0; l < desc->layer_count; l++)
        if (desc->layers[l].mask)
            PLACE(layers[l].mask, stride);
#undef PLACE
    const int joints = tdn_skeleton_joint_count(desc->skeleton);
    at = tdn__align_up(at, TDN_POSE_ALIGN);
    if (base)
        tdn_pose_init(joints, base + at, tdn_pose_bytes(joints), &g->rest, NULL);
    return at + tdn_pose_bytes(joints);
}

size_t tdn__graph_instance_layout(const tdn_graph *g, tdn_graph_instance *instance, char *base);

/* tdn__graph_layer_rows with its scratch from the graph's allocator, in one block: the identity
 * pose, the rest limits of the rest pose and of it, then the byte arrays. */
static tdn_result find_layer_rows(tdn_graph *g, tdn_error *err)
{
    const size_t joints = (size_t)g->joint_count, clips = (size_t)g->clip_count;
    const size_t pose_bytes = tdn_pose_bytes(g->joint_count);
    const size_t bytes = 3 * pose_bytes + 2 * joints + clips + clips * joints;
    unsigned char *block = tdn__alloc(&g->allocator, bytes, TDN_POSE_ALIGN);
    if (!block)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "out of memory");
    tdn_pose identity;
    tdn_pose_init(g->joint_count, block, pose_bytes, &identity, NULL);
    unsigned char *marks = block + 3 * pose_bytes, *clip_done = marks + 2 * joints;
    memset(clip_done, 0, clips);
    tdn__graph_layer_rows(g, &identity, (float *)(void *)(block + pose_bytes), marks, marks + joints, clip_done,
                          clip_done + clips);
    tdn__free(&g->allocator, block, bytes);
    return TDN_OK;
}

tdn_result tdn_graph_create(const tdn_graph_desc *desc, tdn_graph **out, const tdn_allocator *allocator, tdn_error *err)
{
    if (!out)
        return tdn__null(err, "out");
    *out = NULL;
    if (!desc)
        return tdn__null(err, "desc");
    tdn_result r = check_desc(desc, err);
    if (r != TDN_OK || (r = tdn__check_allocator(allocator, err)) != TDN_OK)
        return r;
    graph_totals totals = count_totals(desc);
    tdn_graph probe;
    memset(&probe, 0, sizeof probe);
    size_t bytes = lay_out(&probe, NULL, desc, &totals);
    char *block = tdn__alloc(allocator, bytes, TDN_POSE_ALIGN);
    if (!block)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "out of memory (%zu bytes)", bytes);
    memset(block, 0, bytes);
    tdn_graph *g = (tdn_graph *)block;
    lay_out(g, block, desc, &totals);
    g->allocator = tdn__allocator_of(allocator);
    g->bytes = bytes;
    g->skeleton = desc->skeleton;
    g->joint_count = tdn_skeleton_joint_count(desc->skeleton);
    tdn_pose_set_rest(&g->rest, desc->skeleton, NULL);
    g->clip_count = desc->clip_count;
    if (desc->clip_count > 0) /* a graph of motion matching alone has no clips (and may pass NULL) */
        memcpy((void *)g->clips, desc->clips, sizeof *g->clips * (size_t)desc->clip_count);
    g->root = desc->root;
    g->cull_threshold = desc->cull_threshold == 0.0f ? 0.01f : desc->cull_threshold;
    g->clip_caches = desc->clip_caches != 0;
    if (desc->mirror_table) {
        r = tdn_mirror_table_check(desc->mirror_table, g->joint_count, err);
        memcpy(g->mirror, desc->mirror_table, sizeof(int) * (size_t)g->joint_count);
    } else {
        g->mirror = NULL;
    }
    if (r == TDN_OK)
        r = copy_layers(g, desc, err);
    if (r == TDN_OK)
        r = copy_params(g, desc, err);
    if (r == TDN_OK)
        r = resolve_layer_weights(g, desc, err);
    if (r == TDN_OK)
        r = copy_nodes(g, desc, err);
    if (r == TDN_OK)
        r = order_nodes(g, desc, err);
    if (r == TDN_OK)
        r = tdn__graph_assign_groups(g, place_of, desc->nodes, err);
    if (r == TDN_OK)
        tdn__graph_list_flat_groups(g);
    if (r == TDN_OK)
        r = mark_additive(g, desc, err);
    if (r == TDN_OK)
        r = build_groups(g, desc, err);
    if (r == TDN_OK)
        r = tdn__graph_list_state_clips(g, err);
    for (int m = 0; r == TDN_OK && m < g->machine_count; m++) /* whose layers carry offsets */
        for (int t = 0; t < g->machines[m].transition_count; t++)
            if (g->transitions[g->machines[m].first_transition + t].mode == TDN_TRANSITION_INERTIALIZE &&
                g->nodes[g->machines[m].node].layer >= 0)
                g->layers[g->nodes[g->machines[m].node].layer].inertializes = 1;
    if (r == TDN_OK)
        r = tdn__graph_copy_ik(g, desc, err);
    if (r == TDN_OK && desc->root_motion) {
        g->root_joint = desc->root_motion->joint;
        g->extract_root_motion = desc->extract_root_motion != 0;
        r = tdn__graph_root_tracks_create(g, desc, err);
    }
    if (r == TDN_OK)
        r = find_layer_rows(g, err);
    if (r != TDN_OK) {
        tdn_graph_destroy(g);
        return r;
    }
    /* clips, procedural and motion-matching poses, modifier results, a rest entry per layer and
     * per modifier; at least two: a model-space layer borrows two scratch poses */
    int capacity = g->clip_node_count + g->procedural_count + g->mm_count + 2 * g->modifier_count + g->layer_count;
    g->entry_capacity = capacity > 2 ? capacity : 2;
    g->inertializer_bytes = tdn_inertializer_bytes(g->joint_count);
    g->instance_bytes = tdn__graph_instance_layout(g, NULL, NULL);
    *out = g;
    return TDN_OK;
}

void tdn_graph_destroy(tdn_graph *graph)
{
    if (graph) {
        tdn_allocator allocator = graph->allocator;
        tdn__free(&allocator, graph->state_clips, graph->state_clips_bytes);
        tdn__graph_root_tracks_destroy(graph);
        tdn__graph_free_ik(graph);
        tdn__free(&allocator, graph, graph->bytes);
    }
}

int tdn_graph_node_count(const tdn_graph *graph) { return graph ? graph->node_count : 0; }

const char *tdn_graph_node_name(const tdn_graph *graph, int node)
{
    return graph && node >= 0 && node < graph->node_count ? graph->nodes[node].name : NULL;
}

int tdn_graph_param_count(const tdn_graph *graph) { return graph ? graph->param_count : 0; }

int tdn_graph_layer_count(const tdn_graph *graph) { return graph ? graph->layer_count : 0; }

const char *tdn_graph_layer_name(const tdn_graph *graph, int layer)
{
    return graph && layer >= 0 && layer < graph->layer_count ? graph->layers[layer].name : NULL;
}

static const tdn__machine *machine_of(const tdn_graph *graph, int node)
{
    if (!graph || node < 0 || node >= graph->node_count || graph->nodes[node].machine < 0)
        return NULL;
    return &graph->machines[graph->nodes[node].machine];
}

int tdn_graph_state_count(const tdn_graph *graph, int node)
{
    const tdn__machine *m = machine_of(graph, node);
    return m ? m->state_count : 0;
}

const char *tdn_graph_state_name(const tdn_graph *graph, int node, int state)
{
    const tdn__machine *m = machine_of(graph, node);
    return m && state >= 0 && state < m->state_count ? graph->state_names[m->first_state + state] : NULL;
}

int tdn_graph_find_state(const tdn_graph *graph, int node, const char *name)
{
    const tdn__machine *m = machine_of(graph, node);
    for (int s = 0; m && name && s < m->state_count; s++)
        if (strcmp(graph->state_names[m->first_state + s], name) == 0)
            return s;
    return -1;
}

int tdn_graph_find_param(const tdn_graph *graph, const char *name)
{
    return graph && name ? find_param(graph, name) : -1;
}

const char *tdn_graph_param_name(const tdn_graph *graph, int param)
{
    return graph && param >= 0 && param < graph->param_count ? graph->params[param].name : NULL;
}

tdn_param_type tdn_graph_param_type(const tdn_graph *graph, int param)
{
    return graph && param >= 0 && param < graph->param_count ? graph->params[param].type : TDN_PARAM_FLOAT;
}
