/* tendon io: a graph document's procedural nodes and modifiers:
 *
 *   {"type": "procedural", "callback": NAME}
 *   {"type": "modifier", "modify": "callback", "callback": NAME, "input": NODE}
 *   {"type": "modifier", "modify": "rotate", "input": NODE, "joints": [JOINT, ...],
 *    "weights": [0.3, ...], "axis": [0, 1, 0], "angle": VALUE}
 *   {"type": "modifier", "modify": "damp", "input": NODE, "joints": [JOINT, ...], "half_life": 0.15}
 *
 * Callback names are those the loading program registered (tdn_graph_document_load_options). */
#include <stdio.h>
#include <string.h>

#include "asset_internal.h"
#include "graph_document_internal.h"
#include "json_hint.h"

static const char *const procedural_keys[] = { "type", "callback", NULL };
static const char *const modifier_keys[] = { "type",    "modify", "input", "callback",  "joints",
                                             "weights", "axis",   "angle", "half_life", NULL };
static const char *const kinds[] = { "callback", "rotate", "damp", NULL };

static const char *callback_at(const void *ctx, int i) { return ((const tdn_io__graph_build *)ctx)->callbacks[i].name; }

static tdn_result read_callback(tdn_io__graph_build *b, tdn_node_desc *d, const cJSON *json, const char *path,
                                tdn_error *err)
{
    const char *name;
    tdn_result r = tdn_io__json_string(json, "callback", path, 1, &name, err);
    if (r != TDN_OK)
        return r;
    for (int k = 0; k < b->callback_count; k++)
        if (b->callbacks[k].name && strcmp(b->callbacks[k].name, name) == 0) {
            d->callback = b->callbacks[k].callback;
            d->user = b->callbacks[k].user;
            return TDN_OK;
        }
    tdn_io__path where;
    char hint[96];
    tdn_io__json_join(where, path, "callback");
    tdn_io__hint(hint, sizeof hint, name, callback_at, b, b->callback_count);
    return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "no callback named \"%.60s\" was given to the loader%s", name,
                        hint);
}

tdn_result tdn_io__graph_read_procedural(tdn_io__graph_build *b, int self, const cJSON *json, const char *path,
                                         tdn_error *err)
{
    tdn_result r = tdn_io__json_known_keys(json, path, procedural_keys, err);
    return r == TDN_OK ? read_callback(b, &b->nodes[self], json, path, err) : r;
}

/* "joints" (names) and optional "weights" into the build's pools. */
static tdn_result read_joints(tdn_io__graph_build *b, tdn_node_desc *d, const cJSON *json, const char *path,
                              tdn_error *err)
{
    const tdn_skeleton *s = b->skeleton;
    const cJSON *joints = cJSON_GetObjectItemCaseSensitive(json, "joints");
    const cJSON *weights = cJSON_GetObjectItemCaseSensitive(json, "weights");
    tdn_io__path where;
    tdn_io__json_join(where, path, "joints");
    int n = cJSON_GetArraySize(joints);
    if (!cJSON_IsArray(joints) || n < 1 || n > tdn_skeleton_joint_count(s))
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "an array of 1..%d joint names is needed",
                            tdn_skeleton_joint_count(s));
    if (b->mod_joint_count + n > b->mod_joint_capacity)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "more modifier joints than tendon takes");
    int *out = b->mod_joints + b->mod_joint_count;
    float *w = b->mod_weights + b->mod_joint_count;
    tdn_result r = TDN_OK;
    for (int k = 0; k < n && r == TDN_OK; k++) {
        tdn_io__path item;
        tdn_io__json_item(item, where, k);
        out[k] = tdn_io__graph_joint(s, cJSON_GetArrayItem(joints, k), item, err, &r);
        w[k] = 1.0f;
    }
    if (r == TDN_OK && weights) {
        tdn_io__json_join(where, path, "weights");
        r = tdn_io__json_floats(weights, where, n, "joint", w, err);
    }
    if (r != TDN_OK)
        return r;
    b->mod_joint_count += n;
    d->joints = out;
    d->joint_weights = w;
    d->joint_count = n;
    return TDN_OK;
}

static tdn_result read_axis(const cJSON *json, const char *path, tdn_vec3 *axis, tdn_error *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(json, "axis");
    tdn_io__path where;
    tdn_io__json_join(where, path, "axis");
    *axis = tdn_vec3_make(0, 1, 0);
    if (!a)
        return TDN_OK;
    float v[3];
    for (int k = 0; k < 3; k++) {
        const cJSON *c = cJSON_GetArrayItem(a, k);
        if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 3 || !cJSON_IsNumber(c) ||
            !(c->valuedouble >= -1e6 && c->valuedouble <= 1e6))
            return tdn_io__fail(err, TDN_ERR_PARSE, where, "[x, y, z] is needed");
        v[k] = (float)c->valuedouble;
    }
    *axis = tdn_vec3_make(v[0], v[1], v[2]);
    return TDN_OK;
}

tdn_result tdn_io__graph_read_modifier(tdn_io__graph_build *b, int self, const cJSON *json, const char *path,
                                       tdn_error *err)
{
    const char *kind;
    tdn_node_desc *d = &b->nodes[self];
    tdn_result r = tdn_io__json_known_keys(json, path, modifier_keys, err);
    if (r == TDN_OK)
        r = tdn_io__json_string(json, "modify", path, 1, &kind, err);
    if (r != TDN_OK)
        return r;
    tdn_io__path where;
    tdn_io__json_join(where, path, "modify");
    int k = tdn_io__choose(kind, kinds, where, "modifier", err, &r);
    if (k < 0)
        return r;
    d->modifier = (tdn_modifier_kind)k;
    if (d->modifier == TDN_MODIFIER_CALLBACK)
        r = read_callback(b, d, json, path, err);
    else
        r = read_joints(b, d, json, path, err);
    if (r == TDN_OK && d->modifier == TDN_MODIFIER_ROTATE) {
        r = read_axis(json, path, &d->axis, err);
        const cJSON *angle = cJSON_GetObjectItemCaseSensitive(json, "angle");
        tdn_io__json_join(where, path, "angle");
        if (r == TDN_OK && cJSON_IsString(angle)) {
            if (!tdn_io__graph_has_param(b, angle->valuestring))
                return tdn_io__graph_no_param(b, angle->valuestring, where, err);
            d->value.param = angle->valuestring;
        } else if (r == TDN_OK) {
            r = tdn_io__json_float(json, "angle", path, 0.0f, &d->value.constant, err);
        }
    }
    if (r == TDN_OK && d->modifier == TDN_MODIFIER_DAMP)
        r = tdn_io__json_float(json, "half_life", path, 0.0f, &d->half_life, err);
    return r;
}
