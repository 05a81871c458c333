/* tendon io: a graph document's node tree into the core's node descriptions. Nodes are read
 * depth first from "root"; a string names an entry of "nodes", read once and shared. Every
 * field is checked where its JSON path is known. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset_internal.h"
#include "graph_document_internal.h"
#include "json_hint.h"

static tdn_result out_of_memory(tdn_error *err)
{
    return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory while reading the graph");
}

/* A pool of node inputs, weights or axes is full: the document is larger than tendon takes. */
static tdn_result too_large(const char *path, tdn_error *err)
{
    return tdn_io__fail(err, TDN_ERR_INVALID_DATA, path,
                        "the graph has more nodes, inputs or blend spaces than "
                        "tendon takes (%d nodes)",
                        TDN_MAX_GRAPH_NODES);
}

/* Reserves `count` slots of a pool whose capacity was fixed at the start (so pointers into it
 * stay valid), zeroed; NULL when it is full. */
#define POOL_TAKE(pool, used, capacity, count) \
  ((used) + (count) <= (capacity) ? tdn_io__graph_take((pool) + (used), sizeof *(pool), &(used), (count)) : NULL)

void *tdn_io__graph_take(void *slots, size_t size, int *used, int count)
{
    *used += count;
    return memset(slots, 0, size * (size_t)count);
}

static int new_node(tdn_io__graph_build *b, const char *path)
{
    if (b->node_count == b->node_capacity)
        return -1;
    int i = b->node_count++;
    memset(&b->nodes[i], 0, sizeof b->nodes[i]);
    tdn_io__json_append(b->node_paths[i], 0, path);
    b->nodes[i].name = b->node_paths[i];
    return i;
}

/* The clip index of a clip the nodes use, added on first use. */
static tdn_result use_clip(tdn_io__graph_build *b, const char *name, const char *path, int *index, tdn_error *err)
{
    for (int c = 0; c < b->clip_count; c++)
        if (strcmp(b->clip_names[c], name) == 0) {
            *index = c;
            return TDN_OK;
        }
    if (b->clip_count == b->clip_capacity) /* a clip per node at most: cannot happen */
        return too_large(path, err);
    *index = b->clip_count;
    b->clip_names[b->clip_count] = name;
    tdn_io__json_append(b->clip_paths[b->clip_count], 0, path);
    b->clip_count++;
    return TDN_OK;
}

/* The name of the i-th declared parameter (for hints). */
static const char *param_name_at(const void *ctx, int i)
{
    const cJSON *p = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(ctx, "parameters"), i);
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(p, "name");
    return cJSON_IsString(n) ? n->valuestring : NULL;
}

int tdn_io__graph_has_param(const tdn_io__graph_build *b, const char *name)
{
    int count = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(b->doc, "parameters"));
    for (int i = 0; i < count; i++) {
        const char *n = param_name_at(b->doc, i);
        if (n && strcmp(n, name) == 0)
            return 1;
    }
    return 0;
}

tdn_result tdn_io__graph_no_param(const tdn_io__graph_build *b, const char *name, const char *where, tdn_error *err)
{
    char hint[96];
    tdn_io__hint(hint, sizeof hint, name, param_name_at, b->doc,
                 cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(b->doc, "parameters")));
    return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "no parameter named \"%.60s\"%s", name, hint);
}

static const char *choice_at(const void *ctx, int i) { return ((const char *const *)ctx)[i]; }

void tdn_io__choices(char *out, size_t size, const char *const *choices)
{
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; choices[i] && at + 1 < size; i++) {
        int n = snprintf(out + at, size - at, "%s%s", i ? ", " : "", choices[i]);
        at = n > 0 ? at + (size_t)n : at;
    }
}

int tdn_io__choose(const char *name, const char *const *choices, const char *where, const char *what, tdn_error *err,
                   tdn_result *r)
{
    int count = 0;
    while (choices[count])
        count++;
    for (int i = 0; i < count; i++)
        if (strcmp(choices[i], name) == 0)
            return i;
    char list[160], hint[96];
    tdn_io__choices(list, sizeof list, choices);
    tdn_io__hint(hint, sizeof hint, name, choice_at, choices, count);
    *r = tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "\"%.40s\" is not a %s (%s)%s", name, what, list, hint);
    return -1;
}

/* A number a node reads, from a JSON item at `where`: a number, or the name of a parameter. */
static tdn_result read_value_item(const tdn_io__graph_build *b, const cJSON *item, const char *where,
                                  tdn_node_value *out, tdn_error *err)
{
    out->param = NULL;
    if (cJSON_IsString(item)) {
        if (!tdn_io__graph_has_param(b, item->valuestring))
            return tdn_io__graph_no_param(b, item->valuestring, where, err);
        out->param = item->valuestring;
        return TDN_OK;
    }
    if (!cJSON_IsNumber(item))
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "a number or a parameter's name is needed");
    if (!(item->valuedouble >= -FLT_MAX && item->valuedouble <= FLT_MAX))
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "%g does not fit a float", item->valuedouble);
    out->constant = (float)item->valuedouble;
    return TDN_OK;
}

/* The same for field `key` of a node; absent: `fallback`. */
static tdn_result read_value(const tdn_io__graph_build *b, const cJSON *node, const char *key, const char *path,
                             float fallback, tdn_node_value *out, tdn_error *err)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(node, key);
    out->param = NULL;
    out->constant = fallback;
    if (!item)
        return TDN_OK;
    tdn_io__path where;
    tdn_io__json_join(where, path, key);
    return read_value_item(b, item, where, out, err);
}

/* A list of child nodes under `key` (an array of 1..TDN_MAX_NODE_INPUTS nodes, or exactly
 * `exact` when it is not 0) into the node's inputs. */
static tdn_result read_inputs(tdn_io__graph_build *b, int self, const cJSON *json, const char *key, const char *path,
                              int exact, int depth, tdn_error *err)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(json, key);
    tdn_io__path where;
    tdn_io__json_join(where, path, key);
    int n = cJSON_GetArraySize(list);
    if (!cJSON_IsArray(list) || n < 1 || n > TDN_MAX_NODE_INPUTS || (exact && n != exact))
        return tdn_io__fail(err, TDN_ERR_PARSE, where,
                            exact == 2 ? "an array of two nodes is needed" : "an array of 1..%d nodes is needed",
                            TDN_MAX_NODE_INPUTS);
    int *inputs = POOL_TAKE(b->inputs, b->input_count, b->input_capacity, n);
    if (!inputs)
        return too_large(where, err);
    for (int k = 0; k < n; k++) {
        tdn_io__path child;
        tdn_io__json_item(child, where, k);
        tdn_result r = tdn_io__graph_read_node(b, cJSON_GetArrayItem(list, k), child, depth + 1, &inputs[k], err);
        if (r != TDN_OK)
            return r;
    }
    b->nodes[self].inputs = inputs;
    b->nodes[self].input_count = n;
    return TDN_OK;
}

/* Child nodes given as separate fields (additive: base and difference; time_scale: input). */
static tdn_result read_named_inputs(tdn_io__graph_build *b, int self, const cJSON *json, const char *path,
                                    const char *const *keys, int n, int depth, tdn_error *err)
{
    int *inputs = POOL_TAKE(b->inputs, b->input_count, b->input_capacity, n);
    if (!inputs)
        return too_large(path, err);
    for (int k = 0; k < n; k++) {
        tdn_io__path child;
        tdn_io__json_join(child, path, keys[k]);
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(json, keys[k]);
        if (!item)
            return tdn_io__fail(err, TDN_ERR_PARSE, child, "the required node '%s' is missing", keys[k]);
        tdn_result r = tdn_io__graph_read_node(b, item, child, depth + 1, &inputs[k], err);
        if (r != TDN_OK)
            return r;
    }
    b->nodes[self].inputs = inputs;
    b->nodes[self].input_count = n;
    return TDN_OK;
}

static tdn_result read_wrap(const cJSON *json, const char *path, tdn_wrap *wrap, tdn_error *err)
{
    static const char *const wraps[] = { "clamp", "loop", "pingpong", NULL };
    const char *name;
    tdn_result r = tdn_io__json_string(json, "wrap", path, 0, &name, err);
    *wrap = TDN_WRAP_LOOP; /* in documents clips loop unless told */
    if (r != TDN_OK || !name)
        return r;
    tdn_io__path where;
    tdn_io__json_join(where, path, "wrap");
    int k = tdn_io__choose(name, wraps, where, "wrap mode", err, &r);
    if (k >= 0)
        *wrap = (tdn_wrap)k;
    return r;
}

/* What clip nodes and blend-space samples share: rate, wrap, start, mirror, sync. */
static tdn_result read_playback(tdn_io__graph_build *b, tdn_node_desc *d, const cJSON *json, const char *path,
                                tdn_error *err)
{
    tdn_result r = tdn_io__json_float(json, "rate", path, 1.0f, &d->rate, err);
    if (r == TDN_OK)
        r = read_wrap(json, path, &d->wrap, err);
    if (r == TDN_OK)
        r = tdn_io__json_float(json, "start", path, 0.0f, &d->start, err);
    if (r == TDN_OK)
        r = tdn_io__json_bool(json, "mirror", path, 0, &d->mirror, err);
    if (r == TDN_OK)
        r = tdn_io__json_string(json, "sync", path, 0, &d->sync_group, err);
    b->uses_mirror |= d->mirror;
    return r;
}

static const char *const clip_keys[] = { "type",   "clip", "rate",    "wrap",     "start",
                                         "mirror", "sync", "lead_in", "lead_out", NULL };
static const char *const blend2_keys[] = { "type", "inputs", "weight", NULL };
static const char *const blendn_keys[] = { "type", "inputs", "weights", NULL };
static const char *const switch_keys[] = { "type", "inputs", "select", "fade", NULL };
static const char *const additive_keys[] = { "type", "base", "difference", "weight", NULL };
static const char *const time_scale_keys[] = { "type", "input", "scale", NULL };
static const char *const blend_space_keys[] = { "type", "mode",  "samples", "position", "axes", "rate",
                                                "wrap", "start", "mirror",  "sync",     NULL };
static const char *const rest_keys[] = { "type", NULL };

static tdn_result read_blendn(tdn_io__graph_build *b, int self, const cJSON *json, const char *path, int depth,
                              tdn_error *err)
{
    tdn_result r = read_inputs(b, self, json, "inputs", path, 0, depth, err);
    if (r != TDN_OK)
        return r;
    int n = b->nodes[self].input_count;
    const cJSON *weights = cJSON_GetObjectItemCaseSensitive(json, "weights");
    tdn_io__path where;
    tdn_io__json_join(where, path, "weights");
    if (!cJSON_IsArray(weights) || cJSON_GetArraySize(weights) != n)
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "an array of %d weights (one per input) is needed", n);
    tdn_node_value *values = POOL_TAKE(b->values, b->value_count, b->value_capacity, n);
    if (!values)
        return too_large(where, err);
    for (int k = 0; k < n && r == TDN_OK; k++) {
        tdn_io__path item;
        tdn_io__json_item(item, where, k);
        r = read_value_item(b, cJSON_GetArrayItem(weights, k), item, &values[k], err);
    }
    b->nodes[self].values = values;
    return r;
}

static tdn_result read_blend_space(tdn_io__graph_build *b, int self, const cJSON *json, const char *path, int depth,
                                   tdn_error *err)
{
    (void)depth;
    if (b->space_count == b->space_capacity)
        return too_large(path, err);
    tdn_blend_space_file *file = NULL;
    tdn_result r = tdn_io__blend_space_from_json(json, path, b->allocator, &file, err);
    if (r != TDN_OK)
        return r;
    b->spaces[b->space_count++] = file;
    tdn_node_desc *d = &b->nodes[self];
    d->space = tdn_blend_space_file_space(file);
    int n = tdn_blend_space_sample_count(d->space);
    tdn_node_desc playback = { 0 };
    r = read_playback(b, &playback, json, path, err);
    if (r != TDN_OK)
        return r;
    const cJSON *axes = cJSON_GetObjectItemCaseSensitive(json, "axes");
    r = tdn_io__json_string(json, "position", path, 0, &d->position, err);
    if (r == TDN_OK && !d->position && !axes) {
        tdn_io__path where;
        tdn_io__json_join(where, path, "position");
        r = tdn_io__fail(err, TDN_ERR_PARSE, where, "a blend space needs its 'position' parameter (or 'axes')");
    }
    if (r == TDN_OK && d->position && !tdn_io__graph_has_param(b, d->position)) {
        tdn_io__path where;
        tdn_io__json_join(where, path, "position");
        r = tdn_io__graph_no_param(b, d->position, where, err);
    }
    if (r == TDN_OK && axes) {
        tdn_io__path where;
        tdn_io__json_join(where, path, "axes");
        int count = cJSON_GetArraySize(axes);
        const char **names = POOL_TAKE(b->axes, b->axis_count, b->axis_capacity, count);
        if (!cJSON_IsArray(axes) || count != tdn_blend_space_dimensions(d->space))
            return tdn_io__fail(err, TDN_ERR_PARSE, where, "an array of %d parameter names (one per axis) is needed",
                                tdn_blend_space_dimensions(d->space));
        if (!names)
            return too_large(where, err);
        for (int k = 0; k < count; k++) {
            const cJSON *a = cJSON_GetArrayItem(axes, k);
            tdn_io__path item;
            tdn_io__json_item(item, where, k);
            if (!cJSON_IsString(a))
                return tdn_io__fail(err, TDN_ERR_PARSE, item, "the name of a float parameter is needed");
            if (!tdn_io__graph_has_param(b, a->valuestring))
                return tdn_io__graph_no_param(b, a->valuestring, item, err);
            names[k] = a->valuestring;
        }
        d->axes = names;
    }
    if (r != TDN_OK)
        return r;
    /* each sample is a clip node playing as the blend space says */
    int *inputs = POOL_TAKE(b->inputs, b->input_count, b->input_capacity, n);
    if (!inputs)
        return too_large(path, err);
    tdn_io__path samples;
    tdn_io__json_join(samples, path, "samples");
    for (int k = 0; k < n && r == TDN_OK; k++) {
        tdn_io__path sample;
        tdn_io__json_item(sample, samples, k);
        inputs[k] = new_node(b, sample);
        if (inputs[k] < 0)
            return too_large(sample, err);
        tdn_node_desc *s = &b->nodes[inputs[k]];
        tdn_node_desc keep = *s;
        *s = playback;
        s->name = keep.name;
        s->type = TDN_NODE_CLIP;
        tdn_io__path clip_path;
        tdn_io__json_join(clip_path, sample, "clip");
        r = use_clip(b, tdn_blend_space_file_clip_name(file, k), clip_path, &s->clip, err);
    }
    b->nodes[self].inputs = inputs;
    b->nodes[self].input_count = n;
    return r;
}

static tdn_result read_object(tdn_io__graph_build *b, const cJSON *json, const char *path, int depth, int self,
                              tdn_error *err)
{
    const char *type;
    tdn_result r = tdn_io__json_string(json, "type", path, 1, &type, err);
    if (r != TDN_OK)
        return r;
    tdn_node_desc *d = &b->nodes[self];
    static const char *const both[] = { "base", "difference" }, *const one[] = { "input" };
    if (strcmp(type, "clip") == 0) {
        d->type = TDN_NODE_CLIP;
        const char *clip;
        r = tdn_io__json_known_keys(json, path, clip_keys, err);
        if (r == TDN_OK)
            r = tdn_io__json_string(json, "clip", path, 1, &clip, err);
        if (r == TDN_OK)
            r = read_playback(b, d, json, path, err);
        if (r == TDN_OK)
            r = tdn_io__json_float(json, "lead_in", path, 0.0f, &d->lead_in, err);
        if (r == TDN_OK)
            r = tdn_io__json_float(json, "lead_out", path, 0.0f, &d->lead_out, err);
        if (r == TDN_OK) {
            tdn_io__path where;
            tdn_io__json_join(where, path, "clip");
            r = use_clip(b, clip, where, &b->nodes[self].clip, err);
        }
    } else if (strcmp(type, "blend2") == 0) {
        d->type = TDN_NODE_BLEND2;
        r = tdn_io__json_known_keys(json, path, blend2_keys, err);
        if (r == TDN_OK)
            r = read_value(b, json, "weight", path, 0.0f, &d->value, err);
        if (r == TDN_OK)
            r = read_inputs(b, self, json, "inputs", path, 2, depth, err);
    } else if (strcmp(type, "blendN") == 0) {
        d->type = TDN_NODE_BLENDN;
        r = tdn_io__json_known_keys(json, path, blendn_keys, err);
        if (r == TDN_OK)
            r = read_blendn(b, self, json, path, depth, err);
    } else if (strcmp(type, "switch") == 0) {
        d->type = TDN_NODE_SWITCH;
        r = tdn_io__json_known_keys(json, path, switch_keys, err);
        if (r == TDN_OK)
            r = read_value(b, json, "select", path, 0.0f, &d->value, err);
        if (r == TDN_OK)
            r = tdn_io__json_float(json, "fade", path, 0.0f, &d->fade, err);
        if (r == TDN_OK)
            r = read_inputs(b, self, json, "inputs", path, 0, depth, err);
    } else if (strcmp(type, "additive") == 0) {
        d->type = TDN_NODE_ADDITIVE;
        r = tdn_io__json_known_keys(json, path, additive_keys, err);
        if (r == TDN_OK)
            r = read_value(b, json, "weight", path, 1.0f, &d->value, err);
        if (r == TDN_OK)
            r = read_named_inputs(b, self, json, path, both, 2, depth, err);
    } else if (strcmp(type, "time_scale") == 0) {
        d->type = TDN_NODE_TIME_SCALE;
        r = tdn_io__json_known_keys(json, path, time_scale_keys, err);
        if (r == TDN_OK)
            r = read_value(b, json, "scale", path, 1.0f, &d->value, err);
        if (r == TDN_OK)
            r = read_named_inputs(b, self, json, path, one, 1, depth, err);
    } else if (strcmp(type, "blend_space") == 0) {
        d->type = TDN_NODE_BLEND_SPACE;
        r = tdn_io__json_known_keys(json, path, blend_space_keys, err);
        if (r == TDN_OK)
            r = read_blend_space(b, self, json, path, depth, err);
    } else if (strcmp(type, "rest") == 0) {
        d->type = TDN_NODE_REST;
        r = tdn_io__json_known_keys(json, path, rest_keys, err);
    } else if (strcmp(type, "state_machine") == 0) {
        d->type = TDN_NODE_STATE_MACHINE;
        r = tdn_io__graph_read_state_machine(b, self, json, path, depth, err);
    } else if (strcmp(type, "procedural") == 0) {
        d->type = TDN_NODE_PROCEDURAL;
        r = tdn_io__graph_read_procedural(b, self, json, path, err);
    } else if (strcmp(type, "modifier") == 0) {
        d->type = TDN_NODE_MODIFIER;
        r = tdn_io__graph_read_modifier(b, self, json, path, err);
        if (r == TDN_OK)
            r = read_named_inputs(b, self, json, path, one, 1, depth, err);
    } else if (strcmp(type, "motion_match") == 0) {
        d->type = TDN_NODE_MOTION_MATCH;
        r = tdn_io__graph_read_motion_match(b, self, json, path, err);
    } else {
        static const char *const types[] = { "clip",       "blend2",       "blendN", "switch",        "additive",
                                             "time_scale", "blend_space",  "rest",   "state_machine", "procedural",
                                             "modifier",   "motion_match", NULL };
        tdn_io__path where;
        tdn_io__json_join(where, path, "type");
        tdn_io__choose(type, types, where, "node type", err, &r);
    }
    return r;
}

static const char *named_at(const void *ctx, int i)
{
    return ((const tdn_io__graph_build *)ctx)->named[i].json->string;
}

static tdn_result read_named(tdn_io__graph_build *b, const char *name, const char *path, int depth, int *index,
                             tdn_error *err)
{
    for (int k = 0; k < b->named_count; k++) {
        tdn_io__named_node *n = &b->named[k];
        if (strcmp(n->json->string, name) != 0)
            continue;
        if (n->state == 1)
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, path, "node '%.60s' refers back to itself", name);
        if (n->state == 0) {
            tdn_io__path own;
            tdn_io__json_join(own, "nodes", name);
            n->state = 1;
            tdn_result r = tdn_io__graph_read_node(b, n->json, own, depth, &n->index, err);
            if (r != TDN_OK)
                return r;
            n->state = 2;
            /* a named node shows its name in the flat list and in errors */
            b->nodes[n->index].name = n->json->string;
        }
        *index = n->index;
        return TDN_OK;
    }
    char hint[96];
    tdn_io__hint(hint, sizeof hint, name, named_at, b, b->named_count);
    return tdn_io__fail(err, TDN_ERR_INVALID_DATA, path, "no node named \"%.60s\" in \"nodes\"%s", name, hint);
}

tdn_result tdn_io__graph_read_node(tdn_io__graph_build *b, const cJSON *json, const char *path, int depth, int *index,
                                   tdn_error *err)
{
    if (depth > TDN_IO_MAX_NODE_DEPTH)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, path, "nodes nest deeper than %d", TDN_IO_MAX_NODE_DEPTH);
    if (cJSON_IsString(json))
        return read_named(b, json->valuestring, path, depth + 1, index, err);
    if (!cJSON_IsObject(json))
        return tdn_io__fail(err, TDN_ERR_PARSE, path, "a node object or the name of a node is needed");
    *index = new_node(b, path);
    if (*index < 0)
        return too_large(path, err);
    return read_object(b, json, path, depth, *index, err);
}

tdn_result tdn_io__graph_begin(tdn_io__graph_build *b, tdn_error *err)
{
    const cJSON *named = cJSON_GetObjectItemCaseSensitive(b->doc, "nodes");
    if (named && !cJSON_IsObject(named))
        return tdn_io__fail(err, TDN_ERR_PARSE, "nodes", "an object of named nodes is needed");
    b->named_count = cJSON_GetArraySize(named);
    /* the pools hold what the largest graph may need (pointers into them must stay valid), so
     * they are not zeroed here: each slot is as it is taken (tdn_io__graph_take) */
    b->node_capacity = TDN_MAX_GRAPH_NODES;
    b->input_capacity = b->value_capacity = TDN_MAX_GRAPH_NODES * 8;
    b->axis_capacity = TDN_MAX_GRAPH_NODES;
    b->space_capacity = TDN_MAX_GRAPH_NODES;
    b->clip_capacity = TDN_MAX_GRAPH_NODES;
    b->machine_capacity = TDN_MAX_GRAPH_NODES;
    b->state_capacity = TDN_MAX_GRAPH_NODES * 4;
    b->transition_capacity = TDN_MAX_GRAPH_TRANSITIONS;
    b->condition_capacity = TDN_MAX_GRAPH_NODES * 8;
    b->nodes = malloc((size_t)b->node_capacity * sizeof *b->nodes);
    b->node_paths = malloc((size_t)b->node_capacity * sizeof *b->node_paths);
    b->inputs = malloc((size_t)b->input_capacity * sizeof *b->inputs);
    b->values = malloc((size_t)b->value_capacity * sizeof *b->values);
    b->axes = malloc((size_t)b->axis_capacity * sizeof *b->axes);
    b->spaces = malloc((size_t)b->space_capacity * sizeof *b->spaces);
    b->named = calloc((size_t)b->named_count + 1, sizeof *b->named);
    b->clip_names = malloc((size_t)b->clip_capacity * sizeof *b->clip_names);
    b->clip_paths = malloc((size_t)b->clip_capacity * sizeof *b->clip_paths);
    b->machines = malloc((size_t)b->machine_capacity * sizeof *b->machines);
    b->states = malloc((size_t)b->state_capacity * sizeof *b->states);
    b->transitions = malloc((size_t)b->transition_capacity * sizeof *b->transitions);
    b->conditions = malloc((size_t)b->condition_capacity * sizeof *b->conditions);
    b->mod_joint_capacity = TDN_MAX_GRAPH_NODES * 8;
    b->mod_joints = malloc((size_t)b->mod_joint_capacity * sizeof *b->mod_joints);
    b->mod_weights = malloc((size_t)b->mod_joint_capacity * sizeof *b->mod_weights);
    if (!b->nodes || !b->node_paths || !b->inputs || !b->values || !b->axes || !b->spaces || !b->named ||
        !b->clip_names || !b->clip_paths || !b->machines || !b->states || !b->transitions || !b->conditions ||
        !b->mod_joints || !b->mod_weights)
        return out_of_memory(err);
    const cJSON *item;
    int k = 0;
    cJSON_ArrayForEach(item, named) b->named[k++].json = item;
    return TDN_OK;
}
