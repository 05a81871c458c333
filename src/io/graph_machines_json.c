/* tendon io: a graph document's state machine nodes:
 *
 *   {"type": "state_machine", "initial": "idle",
 *    "states": [{"name": "idle", "node": NODE}, ...],
 *    "transitions": [{"from": "idle" | "any", "to": "walk",
 *                     "conditions": [{"param": "speed", "op": ">", "value": 0.1}, {"param": "jump"}],
 *                     "exit_time": 0.9, "duration": 0.25 | "normalized_duration": 0.5,
 *                     "curve": "linear" | "smoothstep" | [x1, y1, x2, y2],
 *                     "mode": "smooth" | "frozen" | "cut" | "inertialize",
 *                     "priority": 0, "interruptible": true, "sync_phase": false}]}
 *
 * State names are checked here, with their JSON paths and did-you-mean hints; what the core
 * checks (conditions against parameter types) comes back mapped to the node's path. A
 * transition from a state to itself that would be taken on every update (no exit_time, and no
 * condition or only conditions that hold for every value their parameters can take) is refused:
 * it would restart the state on every update (or, uninterruptible, whenever its fade ends),
 * which no animation wants; a state that should restart does so on a condition or an exit_time. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "asset_internal.h"
#include "graph_document_internal.h"
#include "json_hint.h"

static const char *const machine_keys[] = { "type", "initial", "states", "transitions", NULL };
static const char *const state_keys[] = { "name", "node", NULL };
static const char *const transition_keys[] = { "from",          "to",         "conditions",
                                               "exit_time",     "duration",   "normalized_duration",
                                               "curve",         "mode",       "priority",
                                               "interruptible", "sync_phase", NULL };
static const char *const condition_keys[] = { "param", "op", "value", NULL };
static const char *const ops[] = { ">", "<", ">=", "<=", "==", "!=", "true", "false", NULL };
static const char *const modes[] = { "smooth", "frozen", "cut", "inertialize", NULL };
static const char *const curves[] = { "linear", "smoothstep", NULL };

typedef struct machine_names {
    const tdn_state_desc *states;
    int count;
} machine_names;

static const char *state_at(const void *ctx, int i) { return ((const machine_names *)ctx)->states[i].name; }

/* The index of the state named by field `key` of `json` (or TDN_ANY_STATE for "any" when
 * allowed); -2 after failing. */
static int state_index(const machine_names *names, const cJSON *json, const char *key, const char *path, int any,
                       tdn_error *err, tdn_result *r)
{
    const char *name;
    *r = tdn_io__json_string(json, key, path, 1, &name, err);
    if (*r != TDN_OK)
        return -2;
    if (any && strcmp(name, "any") == 0)
        return TDN_ANY_STATE;
    for (int s = 0; s < names->count; s++)
        if (strcmp(names->states[s].name, name) == 0)
            return s;
    tdn_io__path where;
    char hint[96];
    tdn_io__json_join(where, path, key);
    tdn_io__hint(hint, sizeof hint, name, state_at, names, names->count);
    *r = tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "no state \"%.60s\"%s", name, hint);
    return -2;
}

static tdn_result read_int(const cJSON *json, const char *key, const char *path, int *out, tdn_error *err)
{
    float v;
    tdn_result r = tdn_io__json_float(json, key, path, 0.0f, &v, err);
    if (r == TDN_OK && (v != floorf(v) || v < -1e6f || v > 1e6f)) {
        tdn_io__path where;
        tdn_io__json_join(where, path, key);
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "a whole number is needed");
    }
    *out = (int)v;
    return r;
}

static tdn_result read_condition(tdn_io__graph_build *b, const cJSON *json, const char *path, tdn_condition_desc *out,
                                 tdn_error *err)
{
    const char *op = NULL;
    tdn_result r = tdn_io__json_known_keys(json, path, condition_keys, err);
    if (r == TDN_OK)
        r = tdn_io__json_string(json, "param", path, 1, &out->param, err);
    if (r == TDN_OK && !tdn_io__graph_has_param(b, out->param)) {
        tdn_io__path where;
        tdn_io__json_join(where, path, "param");
        return tdn_io__graph_no_param(b, out->param, where, err);
    }
    if (r == TDN_OK)
        r = tdn_io__json_string(json, "op", path, 0, &op, err);
    if (r == TDN_OK)
        r = tdn_io__json_float(json, "value", path, 0.0f, &out->value, err);
    if (r != TDN_OK)
        return r;
    out->compare = TDN_COMPARE_TRUE; /* a bool or trigger alone: it is set */
    if (op) {
        tdn_io__path where;
        tdn_io__json_join(where, path, "op");
        int k = tdn_io__choose(op, ops, where, "comparison", err, &r);
        out->compare = (tdn_compare)(k < 0 ? 0 : k);
    }
    return r;
}

/* 1 when condition c holds whatever value its parameter takes: a float's (or a vector's first
 * component's) are the finite floats, an int's the whole numbers of an int, a bool's 0 and 1; a
 * trigger and a test for true or false can always fail. *type: the parameter's type. */
static int always_holds(const tdn_io__graph_build *b, const tdn_condition_desc *c, const char **type_out)
{
    const char *type = "float";
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(b->doc, "parameters"))
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(p, "name"),
                    *t = cJSON_GetObjectItemCaseSensitive(p, "type");
        if (cJSON_IsString(name) && strcmp(name->valuestring, c->param) == 0 && cJSON_IsString(t))
            type = t->valuestring;
    }
    *type_out = type;
    const int is_bool = strcmp(type, "bool") == 0, is_int = strcmp(type, "int") == 0;
    if (strcmp(type, "trigger") == 0)
        return 0;
    const double lo = is_bool ? 0.0 : is_int ? (double)INT_MIN : -(double)FLT_MAX;
    const double hi = is_bool ? 1.0 : is_int ? (double)INT_MAX : (double)FLT_MAX;
    const double v = c->value;
    switch (c->compare) {
    case TDN_COMPARE_GREATER:
        return lo > v;
    case TDN_COMPARE_GREATER_EQUAL:
        return lo >= v;
    case TDN_COMPARE_LESS:
        return hi < v;
    case TDN_COMPARE_LESS_EQUAL:
        return hi <= v;
    case TDN_COMPARE_NOT_EQUAL:
        return v < lo || v > hi || ((is_bool || is_int) && v != floor(v));
    default:
        return 0; /* ==, true, false */
    }
}

/* A transition from a state to itself that every update would take (see the top). */
static tdn_result refuse_restart_every_update(const tdn_io__graph_build *b, const machine_names *names,
                                              const tdn_transition_desc *t, const char *path, tdn_error *err)
{
    if (t->from != t->to || t->from < 0 || t->exit_time > 0.0f)
        return TDN_OK;
    const char *type = NULL;
    for (int k = 0; k < t->condition_count; k++)
        if (!always_holds(b, &t->conditions[k], &type))
            return TDN_OK;
    char conditions[160] = "no condition";
    if (t->condition_count) /* the first, as an example */
        snprintf(conditions, sizeof conditions, "conditions that always hold (\"%.40s\" %s %g holds for every %s)",
                 t->conditions[0].param, ops[t->conditions[0].compare], (double)t->conditions[0].value, type);
    return tdn_io__fail(err, TDN_ERR_INVALID_DATA, path,
                        "a transition from \"%.40s\" to itself with %s and no "
                        "exit_time would be taken on every update, restarting the state each time; give it a condition "
                        "that can fail or an exit_time",
                        names->states[t->from].name, conditions);
}

static tdn_result read_curve(const cJSON *json, const char *path, tdn_ease *curve, tdn_error *err)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(json, "curve");
    tdn_io__path where;
    tdn_io__json_join(where, path, "curve");
    *curve = (tdn_ease){ TDN_EASE_LINEAR, 0, 0, 0, 0 };
    if (!item)
        return TDN_OK;
    tdn_result r = TDN_OK;
    if (cJSON_IsString(item)) {
        int k = tdn_io__choose(item->valuestring, curves, where, "curve (or [x1, y1, x2, y2])", err, &r);
        curve->kind = k == 1 ? TDN_EASE_SMOOTHSTEP : TDN_EASE_LINEAR;
        return r;
    }
    float v[4];
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 4)
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "\"linear\", \"smoothstep\" or [x1, y1, x2, y2] is needed");
    for (int k = 0; k < 4; k++) {
        const cJSON *c = cJSON_GetArrayItem(item, k);
        if (!cJSON_IsNumber(c) || !(c->valuedouble >= -100 && c->valuedouble <= 100))
            return tdn_io__fail(err, TDN_ERR_PARSE, where, "Bezier control values are numbers in [-100, 100]");
        v[k] = (float)c->valuedouble;
    }
    *curve = (tdn_ease){ TDN_EASE_BEZIER, v[0], v[1], v[2], v[3] };
    return TDN_OK;
}

static tdn_result read_transition(tdn_io__graph_build *b, const machine_names *names, const cJSON *json,
                                  const char *path, tdn_transition_desc *t, tdn_error *err)
{
    tdn_result r = tdn_io__json_known_keys(json, path, transition_keys, err);
    if (r != TDN_OK)
        return r;
    t->from = state_index(names, json, "from", path, 1, err, &r);
    if (r == TDN_OK)
        t->to = state_index(names, json, "to", path, 0, err, &r);
    const cJSON *seconds = cJSON_GetObjectItemCaseSensitive(json, "duration");
    const cJSON *fraction = cJSON_GetObjectItemCaseSensitive(json, "normalized_duration");
    if (r == TDN_OK && seconds && fraction)
        return tdn_io__fail(err, TDN_ERR_PARSE, path, "give duration (seconds) or normalized_duration, not both");
    t->duration_normalized = fraction != NULL;
    if (r == TDN_OK)
        r = tdn_io__json_float(json, fraction ? "normalized_duration" : "duration", path, 0.0f, &t->duration, err);
    if (r == TDN_OK)
        r = tdn_io__json_float(json, "exit_time", path, 0.0f, &t->exit_time, err);
    if (r == TDN_OK)
        r = read_curve(json, path, &t->curve, err);
    if (r == TDN_OK)
        r = read_int(json, "priority", path, &t->priority, err);
    int interruptible = 1;
    if (r == TDN_OK)
        r = tdn_io__json_bool(json, "interruptible", path, 1, &interruptible, err);
    t->uninterruptible = !interruptible;
    if (r == TDN_OK)
        r = tdn_io__json_bool(json, "sync_phase", path, 0, &t->sync_phase, err);
    const char *mode = NULL;
    if (r == TDN_OK)
        r = tdn_io__json_string(json, "mode", path, 0, &mode, err);
    if (r == TDN_OK && mode) {
        tdn_io__path where;
        tdn_io__json_join(where, path, "mode");
        int k = tdn_io__choose(mode, modes, where, "transition mode", err, &r);
        t->mode = (tdn_transition_mode)(k < 0 ? 0 : k);
    }
    const cJSON *conditions = cJSON_GetObjectItemCaseSensitive(json, "conditions");
    if (r != TDN_OK)
        return r;
    if (!conditions)
        return refuse_restart_every_update(b, names, t, path, err);
    tdn_io__path where;
    tdn_io__json_join(where, path, "conditions");
    int n = cJSON_GetArraySize(conditions);
    if (!cJSON_IsArray(conditions) || n > TDN_MAX_TRANSITION_CONDITIONS)
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "an array of at most %d conditions is needed",
                            TDN_MAX_TRANSITION_CONDITIONS);
    if (b->condition_count + n > b->condition_capacity)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "too many conditions in the graph");
    tdn_condition_desc *c = tdn_io__graph_take(b->conditions + b->condition_count, sizeof *c, &b->condition_count, n);
    for (int k = 0; k < n && r == TDN_OK; k++) {
        tdn_io__path item;
        tdn_io__json_item(item, where, k);
        r = read_condition(b, cJSON_GetArrayItem(conditions, k), item, &c[k], err);
    }
    t->conditions = c;
    t->condition_count = n;
    return r == TDN_OK ? refuse_restart_every_update(b, names, t, path, err) : r;
}

tdn_result tdn_io__graph_read_state_machine(tdn_io__graph_build *b, int self, const cJSON *json, const char *path,
                                            int depth, tdn_error *err)
{
    tdn_result r = tdn_io__json_known_keys(json, path, machine_keys, err);
    if (r != TDN_OK)
        return r;
    const cJSON *states = cJSON_GetObjectItemCaseSensitive(json, "states");
    const cJSON *transitions = cJSON_GetObjectItemCaseSensitive(json, "transitions");
    tdn_io__path states_path, transitions_path;
    tdn_io__json_join(states_path, path, "states");
    tdn_io__json_join(transitions_path, path, "transitions");
    int ns = cJSON_GetArraySize(states), nt = cJSON_GetArraySize(transitions);
    if (!cJSON_IsArray(states) || ns < 1 || ns > TDN_MAX_STATES)
        return tdn_io__fail(err, TDN_ERR_PARSE, states_path, "an array of 1..%d states is needed", TDN_MAX_STATES);
    if (transitions && !cJSON_IsArray(transitions))
        return tdn_io__fail(err, TDN_ERR_PARSE, transitions_path, "an array of transitions is needed");
    if (b->machine_count == b->machine_capacity || b->state_count + ns > b->state_capacity ||
        b->transition_count + nt > b->transition_capacity || b->input_count + ns > b->input_capacity)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, path,
                            "the graph has more states or transitions than tendon takes");
    tdn_state_machine_desc *sm = &b->machines[b->machine_count++];
    tdn_state_desc *st = tdn_io__graph_take(b->states + b->state_count, sizeof *st, &b->state_count, ns);
    tdn_transition_desc *tr = tdn_io__graph_take(b->transitions + b->transition_count, sizeof *tr, &b->transition_count,
                                                 nt);
    int *inputs = tdn_io__graph_take(b->inputs + b->input_count, sizeof *inputs, &b->input_count, ns);
    *sm = (tdn_state_machine_desc){ st, ns, tr, nt, 0 };
    b->nodes[self].state_machine = sm;
    b->nodes[self].inputs = inputs;
    b->nodes[self].input_count = ns;
    for (int s = 0; s < ns && r == TDN_OK; s++) { /* names first: transitions and nested nodes need them */
        const cJSON *state = cJSON_GetArrayItem(states, s);
        tdn_io__path item;
        tdn_io__json_item(item, states_path, s);
        r = cJSON_IsObject(state) ? tdn_io__json_known_keys(state, item, state_keys, err)
                                  : tdn_io__fail(err, TDN_ERR_PARSE, item, "a state {\"name\", \"node\"} is needed");
        if (r == TDN_OK)
            r = tdn_io__json_string(state, "name", item, 1, &st[s].name, err);
        for (int k = 0; k < s && r == TDN_OK; k++)
            if (strcmp(st[k].name, st[s].name) == 0)
                r = tdn_io__fail(err, TDN_ERR_INVALID_DATA, item, "a second state named \"%.60s\"", st[s].name);
    }
    for (int s = 0; s < ns && r == TDN_OK; s++) {
        const cJSON *state = cJSON_GetArrayItem(states, s);
        tdn_io__path item, node;
        tdn_io__json_item(item, states_path, s);
        tdn_io__json_join(node, item, "node");
        const cJSON *child = cJSON_GetObjectItemCaseSensitive(state, "node");
        r = child ? tdn_io__graph_read_node(b, child, node, depth + 1, &inputs[s], err)
                  : tdn_io__fail(err, TDN_ERR_PARSE, node, "the state's node is missing");
    }
    machine_names names = { st, ns };
    if (r == TDN_OK && cJSON_GetObjectItemCaseSensitive(json, "initial"))
        sm->initial = state_index(&names, json, "initial", path, 0, err, &r);
    for (int k = 0; k < nt && r == TDN_OK; k++) {
        tdn_io__path item;
        tdn_io__json_item(item, transitions_path, k);
        const cJSON *t = cJSON_GetArrayItem(transitions, k);
        r = cJSON_IsObject(t) ? read_transition(b, &names, t, item, &tr[k], err)
                              : tdn_io__fail(err, TDN_ERR_PARSE, item, "a transition object is needed");
    }
    return r;
}
