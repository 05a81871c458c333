/* tendon CLI: the timeline of `tendon run` (see timeline.h). */
#include "timeline.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "json_file.h"

typedef enum { EV_SET, EV_RAMP, EV_FIRE, EV_TRAVEL } event_kind;

typedef struct tl_item {
    int param;
    float value[3];
} tl_item;

typedef struct tl_event {
    double time, duration;
    event_kind kind;
    int first, count; /* SET, RAMP, FIRE: items[first .. first + count) */
    int node, state;  /* TRAVEL */
    int order;        /* index in the file */
} tl_event;

typedef struct tl_ramp {
    int active;
    double start, duration;
    float from[3], to[3];
} tl_ramp;

struct timeline {
    const tdn_graph *graph;
    tl_event *events;
    int count, next;
    tl_item *items;
    int item_count;
    float (*target)[3];
    int *fired;
    tl_ramp *ramps;
    int started;
};

/* ---- names ---- */

/* ---- errors ---- */

typedef struct loader {
    const tdn_graph *graph;
    timeline *tl;
    char *why;
    size_t why_size;
    int item_capacity;
    const char **param_names; /* the graph's parameters */
    int param_count;
    const char **machine_names; /* the graph's state machine nodes */
    int *machines, machine_count;
} loader;

static int fail(loader *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->why, l->why_size, fmt, ap);
    va_end(ap);
    return CLI_BAD_INPUT;
}

/* "; did you mean "x"?" or "; the graph's NOUNs: a, b, c" or "; the graph has no NOUN". */
static void hint(char *out, size_t size, const char *name, const char *const *names, int count, const char *noun)
{
    const char *near = tdn_nearest_name(name, names, count);
    if (near) {
        snprintf(out, size, "; did you mean \"%s\"?", near);
        return;
    }
    int listed = 0;
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < count && at + 1 < size; i++) {
        if (!names[i] || !names[i][0])
            continue;
        if (listed == 12) {
            snprintf(out + at, size - at, ", ...");
            break;
        }
        int w = snprintf(out + at, size - at, "%s\"%s\"", listed ? ", " : "", names[i]);
        if (w < 0)
            break;
        at += (size_t)w;
        listed++;
    }
    if (listed == 0) {
        snprintf(out, size, "; the graph has no %s", noun);
    } else {
        char list[768];
        snprintf(list, sizeof list, "%s", out);
        snprintf(out, size, " (the graph's %ss: %s)", noun, list);
    }
}

static int add_item(loader *l, int param, const float *value)
{
    timeline *tl = l->tl;
    if (tl->item_count == l->item_capacity) {
        int c = l->item_capacity ? 2 * l->item_capacity : 16;
        tl_item *p = realloc(tl->items, sizeof *p * (size_t)c);
        if (!p) {
            snprintf(l->why, l->why_size, "out of memory");
            return CLI_FAILURE;
        }
        tl->items = p;
        l->item_capacity = c;
    }
    tl_item *it = &tl->items[tl->item_count++];
    it->param = param;
    memcpy(it->value, value, sizeof it->value);
    return CLI_OK;
}

static int find_param(loader *l, const char *name, const char *path)
{
    int p = tdn_graph_find_param(l->graph, name);
    if (p < 0) {
        char h[1024];
        hint(h, sizeof h, name, l->param_names, l->param_count, "parameter");
        fail(l, "%s: no parameter named \"%s\"%s", path, name, h);
    }
    return p;
}

/* The members of a "set" or "ramp" object. */
static int read_values(loader *l, const cJSON *obj, const char *path, int ramp, tl_event *ev)
{
    if (!cJSON_IsObject(obj))
        return fail(l, "%s: must be an object of parameter names and values", path);
    ev->first = l->tl->item_count;
    for (const cJSON *c = obj->child; c; c = c->next) {
        char where[512];
        snprintf(where, sizeof where, "%s.%s", path, c->string);
        int p = find_param(l, c->string, where);
        if (p < 0)
            return CLI_BAD_INPUT;
        tdn_param_type type = tdn_graph_param_type(l->graph, p);
        float v[3] = { 0, 0, 0 };
        if (type == TDN_PARAM_TRIGGER)
            return fail(l, "%s: \"%s\" is a trigger: fire it ({\"time\": T, \"fire\": \"%s\"})", where, c->string,
                        c->string);
        if (type == TDN_PARAM_BOOL) {
            if (ramp)
                return fail(l, "%s: \"%s\" is a bool, which cannot ramp: set it", where, c->string);
            if (!cJSON_IsBool(c))
                return fail(l, "%s: \"%s\" is a bool: true or false", where, c->string);
            v[0] = cJSON_IsTrue(c) ? 1.0f : 0.0f;
        } else if (type == TDN_PARAM_VEC2 || type == TDN_PARAM_VEC3) {
            int n = type == TDN_PARAM_VEC2 ? 2 : 3;
            if (!cJSON_IsArray(c) || cJSON_GetArraySize(c) != n)
                return fail(l, "%s: \"%s\" is a %s: an array of %d numbers", where, c->string,
                            tdn_param_type_name(type), n);
            for (int i = 0; i < n; i++) {
                const cJSON *x = cJSON_GetArrayItem(c, i);
                if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble) || fabs(x->valuedouble) > 3.4e38)
                    return fail(l, "%s[%d]: must be a finite number", where, i);
                v[i] = (float)x->valuedouble;
            }
        } else {
            if (!cJSON_IsNumber(c) || !isfinite(c->valuedouble) || fabs(c->valuedouble) > 3.4e38)
                return fail(l, "%s: \"%s\" is a%s %s: a finite number", where, c->string,
                            type == TDN_PARAM_INT ? "n" : "", tdn_param_type_name(type));
            if (type == TDN_PARAM_INT && (c->valuedouble != floor(c->valuedouble) || fabs(c->valuedouble) > 16777216.0))
                return fail(l, "%s: \"%s\" is an int: a whole number (at most 2^24 in size)", where, c->string);
            v[0] = (float)c->valuedouble;
        }
        int code = add_item(l, p, v);
        if (code != CLI_OK)
            return code;
    }
    ev->count = l->tl->item_count - ev->first;
    return CLI_OK;
}

static int read_fire(loader *l, const cJSON *fire, const char *path, tl_event *ev)
{
    ev->first = l->tl->item_count;
    int n = cJSON_IsArray(fire) ? cJSON_GetArraySize(fire) : 1;
    if (!cJSON_IsArray(fire) && !cJSON_IsString(fire))
        return fail(l, "%s: must be a trigger's name, or an array of names", path);
    for (int i = 0; i < n; i++) {
        const cJSON *c = cJSON_IsArray(fire) ? cJSON_GetArrayItem(fire, i) : fire;
        char where[512];
        if (cJSON_IsArray(fire))
            snprintf(where, sizeof where, "%s[%d]", path, i);
        else
            snprintf(where, sizeof where, "%s", path);
        if (!cJSON_IsString(c))
            return fail(l, "%s: must be a trigger's name", where);
        int p = find_param(l, c->valuestring, where);
        if (p < 0)
            return CLI_BAD_INPUT;
        if (tdn_graph_param_type(l->graph, p) != TDN_PARAM_TRIGGER)
            return fail(l, "%s: \"%s\" is a %s, not a trigger: set it ({\"time\": T, \"set\": {\"%s\": ...}})", where,
                        c->valuestring, tdn_param_type_name(tdn_graph_param_type(l->graph, p)), c->valuestring);
        float one[3] = { 1, 0, 0 };
        int code = add_item(l, p, one);
        if (code != CLI_OK)
            return code;
    }
    ev->count = l->tl->item_count - ev->first;
    return CLI_OK;
}

static int read_travel(loader *l, const cJSON *travel, const char *path, tl_event *ev)
{
    static const char *const keys[] = { "state_machine", "state", NULL };
    if (!cJSON_IsObject(travel))
        return fail(l, "%s: must be {\"state_machine\": NODE, \"state\": NAME}", path);
    int code = json_check_keys(travel, path, keys, l->why, l->why_size);
    if (code != CLI_OK)
        return code;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(travel, "state_machine");
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(travel, "state");
    if (!cJSON_IsString(m))
        return fail(l, "%s.state_machine: required: the name of a state machine node", path);
    if (!cJSON_IsString(s))
        return fail(l, "%s.state: required: the name of a state", path);
    ev->node = -1;
    for (int i = 0; i < l->machine_count; i++)
        if (strcmp(l->machine_names[i], m->valuestring) == 0)
            ev->node = l->machines[i];
    if (ev->node < 0) {
        char h[1024];
        hint(h, sizeof h, m->valuestring, l->machine_names, l->machine_count, "state machine");
        return fail(l, "%s.state_machine: no state machine named \"%s\"%s", path, m->valuestring, h);
    }
    ev->state = tdn_graph_find_state(l->graph, ev->node, s->valuestring);
    if (ev->state < 0) {
        int n = tdn_graph_state_count(l->graph, ev->node);
        const char **names = malloc(sizeof(char *) * (size_t)(n + 1));
        char h[1024] = "";
        if (names) {
            for (int i = 0; i < n; i++)
                names[i] = tdn_graph_state_name(l->graph, ev->node, i);
            hint(h, sizeof h, s->valuestring, names, n, "state");
            free(names);
        }
        return fail(l, "%s.state: \"%s\" has no state named \"%s\"%s", path, m->valuestring, s->valuestring, h);
    }
    return CLI_OK;
}

static int read_event(loader *l, const cJSON *e, int index, tl_event *ev)
{
    static const char *const keys[] = { "time", "set", "ramp", "duration", "fire", "travel", "description", NULL };
    char path[64];
    snprintf(path, sizeof path, "events[%d]", index);
    if (!cJSON_IsObject(e))
        return fail(l, "%s: must be an object such as {\"time\": 1.5, \"set\": {\"speed\": 2}}", path);
    int code = json_check_keys(e, path, keys, l->why, l->why_size);
    if (code != CLI_OK)
        return code;
    memset(ev, 0, sizeof *ev);
    ev->order = index;
    const cJSON *time = cJSON_GetObjectItemCaseSensitive(e, "time");
    if (!time)
        return fail(l, "%s.time: required: the event's time in seconds from the start", path);
    if (!cJSON_IsNumber(time) || !isfinite(time->valuedouble) || time->valuedouble < 0.0)
        return fail(l, "%s.time: must be a number of seconds, 0 or more", path);
    ev->time = time->valuedouble;
    const char *actions[] = { "set", "ramp", "fire", "travel" };
    int found = -1;
    for (int a = 0; a < 4; a++)
        if (cJSON_GetObjectItemCaseSensitive(e, actions[a])) {
            if (found >= 0)
                return fail(l, "%s: one action per event: \"%s\" and \"%s\" (split them into two events)", path,
                            actions[found], actions[a]);
            found = a;
        }
    if (found < 0)
        return fail(l, "%s: no action: give one of \"set\", \"ramp\", \"fire\", \"travel\"", path);
    ev->kind = (event_kind)found;
    const cJSON *duration = cJSON_GetObjectItemCaseSensitive(e, "duration");
    char where[96];
    snprintf(where, sizeof where, "%s.%s", path, actions[found]);
    if (ev->kind == EV_RAMP) {
        if (!duration)
            return fail(l, "%s.duration: required for a ramp: its length in seconds", path);
        if (!cJSON_IsNumber(duration) || !isfinite(duration->valuedouble) || duration->valuedouble < 0.0)
            return fail(l, "%s.duration: must be a number of seconds, 0 or more", path);
        ev->duration = duration->valuedouble;
    } else if (duration) {
        return fail(l, "%s.duration: only a ramp has a duration", path);
    }
    const cJSON *action = cJSON_GetObjectItemCaseSensitive(e, actions[found]);
    switch (ev->kind) {
    case EV_SET:
        return read_values(l, action, where, 0, ev);
    case EV_RAMP:
        return read_values(l, action, where, 1, ev);
    case EV_FIRE:
        return read_fire(l, action, where, ev);
    case EV_TRAVEL:
        return read_travel(l, action, where, ev);
    }
    return CLI_OK;
}

static int by_time(const void *a, const void *b)
{
    const tl_event *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->order - y->order;
}

timeline *timeline_empty(const tdn_graph *graph)
{
    timeline *tl = calloc(1, sizeof *tl);
    int n = tdn_graph_param_count(graph);
    if (!tl)
        return NULL;
    tl->graph = graph;
    tl->target = calloc((size_t)n + 1, sizeof *tl->target);
    tl->fired = calloc((size_t)n + 1, sizeof *tl->fired);
    tl->ramps = calloc((size_t)n + 1, sizeof *tl->ramps);
    if (!tl->target || !tl->fired || !tl->ramps) {
        timeline_destroy(tl);
        return NULL;
    }
    return tl;
}

void timeline_destroy(timeline *tl)
{
    if (!tl)
        return;
    free(tl->events);
    free(tl->items);
    free(tl->target);
    free(tl->fired);
    free(tl->ramps);
    free(tl);
}

int timeline_load(const char *path, const tdn_graph *graph, timeline **out, char *why, size_t why_size)
{
    *out = NULL;
    cJSON *doc = NULL;
    int code = json_file_read(path, &doc, why, why_size);
    if (code != CLI_OK)
        return code;
    loader l = { .graph = graph, .why = why, .why_size = why_size };
    l.tl = timeline_empty(graph);
    l.param_count = tdn_graph_param_count(graph);
    int nodes = tdn_graph_node_count(graph);
    l.param_names = malloc(sizeof(char *) * (size_t)(l.param_count + 1));
    l.machine_names = malloc(sizeof(char *) * (size_t)(nodes + 1));
    l.machines = malloc(sizeof(int) * (size_t)(nodes + 1));
    if (!l.tl || !l.param_names || !l.machine_names || !l.machines) {
        snprintf(why, why_size, "out of memory");
        code = CLI_FAILURE;
        goto done;
    }
    for (int p = 0; p < l.param_count; p++)
        l.param_names[p] = tdn_graph_param_name(graph, p);
    for (int n = 0; n < nodes; n++)
        if (tdn_graph_state_count(graph, n) > 0) {
            l.machine_names[l.machine_count] = tdn_graph_node_name(graph, n);
            l.machines[l.machine_count++] = n;
        }
    static const char *const keys[] = { "events", "$schema", "description", NULL };
    if (!cJSON_IsObject(doc)) {
        code = fail(&l, "the timeline must be an object: {\"events\": [...]}");
        goto done;
    }
    code = json_check_keys(doc, "(top level)", keys, l.why, l.why_size);
    if (code != CLI_OK)
        goto done;
    const cJSON *events = cJSON_GetObjectItemCaseSensitive(doc, "events");
    if (!cJSON_IsArray(events)) {
        code = fail(&l, "events: %s", events ? "must be an array of events" : "required: an array of events");
        goto done;
    }
    int count = cJSON_GetArraySize(events);
    l.tl->events = calloc((size_t)count + 1, sizeof(tl_event));
    if (!l.tl->events) {
        code = fail(&l, "out of memory");
        code = CLI_FAILURE;
        goto done;
    }
    int i = 0;
    for (const cJSON *e = events->child; e; e = e->next, i++) {
        code = read_event(&l, e, i, &l.tl->events[i]);
        if (code != CLI_OK)
            goto done;
    }
    l.tl->count = count;
    qsort(l.tl->events, (size_t)count, sizeof(tl_event), by_time);
done:
    cJSON_Delete(doc);
    free(l.param_names);
    free(l.machine_names);
    free(l.machines);
    if (code != CLI_OK) {
        timeline_destroy(l.tl);
        /* the path of the file before the JSON path */
        if (code == CLI_BAD_INPUT) {
            char copy[1024];
            snprintf(copy, sizeof copy, "%s", why);
            snprintf(why, why_size, "%s: %s", path, copy);
        }
        return code;
    }
    *out = l.tl;
    return CLI_OK;
}

static int set_value(tdn_graph_instance *in, int p, const float *v)
{
    switch (tdn_graph_param_type(tdn_graph_instance_graph(in), p)) {
    case TDN_PARAM_FLOAT:
        return tdn_graph_set_float(in, p, v[0], NULL) == TDN_OK;
    case TDN_PARAM_INT:
        return tdn_graph_set_int(in, p, (int)lroundf(v[0]), NULL) == TDN_OK;
    case TDN_PARAM_BOOL:
        return tdn_graph_set_bool(in, p, v[0] != 0.0f, NULL) == TDN_OK;
    case TDN_PARAM_TRIGGER:
        return v[0] == 0.0f || tdn_graph_fire_trigger(in, p, NULL) == TDN_OK;
    case TDN_PARAM_VEC2:
    case TDN_PARAM_VEC3:
        return tdn_graph_set_vector(in, p, v, NULL) == TDN_OK;
    }
    return 0;
}

int timeline_apply(timeline *tl, tdn_graph_instance *in, double time, char *why, size_t why_size)
{
    const tdn_graph *g = tl->graph;
    const int params = tdn_graph_param_count(g);
    if (!tl->started) {
        for (int p = 0; p < params; p++)
            for (int c = 0; c < 3; c++)
                tl->target[p][c] = tdn_graph_param_type(g, p) == TDN_PARAM_TRIGGER ? 0.0f
                                                                                   : tdn_graph_param_value(in, p, c);
        tl->started = 1;
    }
    for (int p = 0; p < params; p++)
        tl->fired[p] = 0;
    const double due = time + 1e-6; /* an event at a frame's time, give or take rounding */
    for (; tl->next < tl->count && tl->events[tl->next].time <= due; tl->next++) {
        const tl_event *ev = &tl->events[tl->next];
        if (ev->kind == EV_TRAVEL) {
            tdn_result r = tdn_graph_travel(in, ev->node, ev->state, NULL);
            if (r != TDN_OK) {
                snprintf(why, why_size,
                         "events[%d].travel: at %.4g s no chain of transitions of \"%s\" leads to \"%s\"", ev->order,
                         time, tdn_graph_node_name(g, ev->node), tdn_graph_state_name(g, ev->node, ev->state));
                return r == TDN_ERR_INVALID_DATA ? CLI_BAD_INPUT : CLI_FAILURE;
            }
            continue;
        }
        for (int k = ev->first; k < ev->first + ev->count; k++) {
            const tl_item *it = &tl->items[k];
            tl_ramp *ramp = &tl->ramps[it->param];
            if (ev->kind == EV_FIRE) {
                tl->fired[it->param] = 1;
                if (tdn_graph_fire_trigger(in, it->param, NULL) != TDN_OK)
                    goto refused;
            } else if (ev->kind == EV_SET || ev->duration <= 0.0) {
                ramp->active = 0;
                memcpy(tl->target[it->param], it->value, sizeof it->value);
                if (!set_value(in, it->param, it->value))
                    goto refused;
            } else {
                ramp->active = 1;
                ramp->start = ev->time;
                ramp->duration = ev->duration;
                memcpy(ramp->from, tl->target[it->param], sizeof ramp->from);
                memcpy(ramp->to, it->value, sizeof ramp->to);
            }
            continue;
        refused:
            snprintf(why, why_size, "events[%d]: the graph refused the value of \"%s\"", ev->order,
                     tdn_graph_param_name(g, it->param));
            return CLI_FAILURE;
        }
    }
    for (int p = 0; p < params; p++) {
        tl_ramp *ramp = &tl->ramps[p];
        if (!ramp->active)
            continue;
        double u = (time - ramp->start) / ramp->duration;
        if (u >= 1.0 - 1e-9) {
            u = 1.0;
            ramp->active = 0;
        }
        if (u < 0.0)
            u = 0.0;
        for (int c = 0; c < 3; c++)
            tl->target[p][c] = (float)(ramp->from[c] + (ramp->to[c] - (double)ramp->from[c]) * u);
        if (tdn_graph_param_type(g, p) == TDN_PARAM_INT)
            tl->target[p][0] = roundf(tl->target[p][0]);
        if (!set_value(in, p, tl->target[p])) {
            snprintf(why, why_size, "a ramp of \"%s\": the graph refused the value", tdn_graph_param_name(g, p));
            return CLI_FAILURE;
        }
    }
    return CLI_OK;
}

void timeline_target(const timeline *tl, int param, float *out)
{
    if (tdn_graph_param_type(tl->graph, param) == TDN_PARAM_TRIGGER) {
        out[0] = (float)tl->fired[param];
        out[1] = out[2] = 0.0f;
        return;
    }
    memcpy(out, tl->target[param], sizeof tl->target[param]);
}

int timeline_event_count(const timeline *tl) { return tl->count; }
int timeline_applied_count(const timeline *tl) { return tl->next; }
