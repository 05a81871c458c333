/* tendon io: a graph document's IK stage, run after the layers:
 *
 *   "ik": [{"kind": "two_bone", "joints": ["upperarm_r", "lowerarm_r", "hand_r"], "target": "reach",
 *           "pole": "elbow_hint", "weight": "reach_weight", "soften": 0.97},
 *          {"kind": "fabrik" | "ccd" | "dls", "root": "clavicle_l", "end": "hand_l", "target": "reach",
 *           "tolerance": 0.001, "max_iterations": 20, "limits": [{"cone": 1.2, "twist": 0.4}, ...],
 *           "max_step": 0.3 (ccd), "damping": 0.1 (dls)},
 *          {"kind": "look_at", "root": "spine_03", "end": "head", "target": "look", "axis": [0, 0, 1],
 *           "up_hint": [0, 1, 0], "joint_weights": [...], "max_angles": [...]},
 *          {"kind": "foot_placement", "legs": [{"upper": "thigh_l", "middle": "calf_l", "end": "foot_l",
 *           "contact": "contact_l"}, ...], "pelvis": "pelvis", "half_life": 0.05, "pelvis_half_life": 0.2,
 *           "max_tilt": 0.52, "lock_distance": 0.1, "soften": 0}]
 *
 * Targets and poles are vec3 parameters (model space); a weight is a number or a float
 * parameter. Lists of per-joint values follow the chain from root to end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset_internal.h"
#include "graph_document_internal.h"
#include "json_hint.h"

static const char *const kinds[] = { "two_bone", "fabrik", "ccd", "dls", "look_at", "foot_placement", NULL };
static const char *const ik_keys[] = { "kind",
                                       "name",
                                       "joints",
                                       "root",
                                       "end",
                                       "target",
                                       "pole",
                                       "weight",
                                       "soften",
                                       "tolerance",
                                       "max_iterations",
                                       "limits",
                                       "max_step",
                                       "damping",
                                       "axis",
                                       "up_hint",
                                       "joint_weights",
                                       "max_angles",
                                       "legs",
                                       "pelvis",
                                       "half_life",
                                       "pelvis_half_life",
                                       "max_tilt",
                                       "lock_distance",
                                       NULL };
static const char *const leg_keys[] = { "upper", "middle", "end", "contact", NULL };
static const char *const limit_keys[] = { "cone", "twist", NULL };

/* The joint named by field `key` of `object`, or -1 after failing. */
static int joint_field(const tdn_skeleton *s, const cJSON *object, const char *key, const char *path, tdn_error *err,
                       tdn_result *r)
{
    tdn_io__path where;
    tdn_io__json_join(where, path, key);
    return tdn_io__graph_joint(s, cJSON_GetObjectItemCaseSensitive(object, key), where, err, r);
}

/* A vec3 parameter's name in field `key` (NULL when absent and not required). */
static tdn_result vec3_param(tdn_io__graph_build *b, const cJSON *json, const char *key, const char *path, int required,
                             const char **out, tdn_error *err)
{
    tdn_result r = tdn_io__json_string(json, key, path, required, out, err);
    if (r == TDN_OK && *out && !tdn_io__graph_has_param(b, *out)) {
        tdn_io__path where;
        tdn_io__json_join(where, path, key);
        return tdn_io__graph_no_param(b, *out, where, err);
    }
    return r;
}

static tdn_result read_vec3(const cJSON *json, const char *key, const char *path, tdn_vec3 *out, tdn_error *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(json, key);
    if (!a)
        return TDN_OK;
    float v[3];
    for (int k = 0; k < 3; k++) {
        const cJSON *c = cJSON_GetArrayItem(a, k);
        if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 3 || !cJSON_IsNumber(c) ||
            !(c->valuedouble >= -1e6 && c->valuedouble <= 1e6)) {
            tdn_io__path where;
            tdn_io__json_join(where, path, key);
            return tdn_io__fail(err, TDN_ERR_PARSE, where, "[x, y, z] is needed");
        }
        v[k] = (float)c->valuedouble;
    }
    *out = tdn_vec3_make(v[0], v[1], v[2]);
    return TDN_OK;
}

/* A list of `count` numbers in field `key` into out; *given says whether it was there. */
static tdn_result read_floats(const cJSON *json, const char *key, const char *path, int count, float *out, int *given,
                              tdn_error *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(json, key);
    *given = a != NULL;
    if (!a)
        return TDN_OK;
    tdn_io__path where;
    tdn_io__json_join(where, path, key);
    return tdn_io__json_floats(a, where, count, "chain joint", out, err);
}

static tdn_result read_limits(const cJSON *json, const char *path, int count, tdn_ik_limit *out, int *given,
                              tdn_error *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(json, "limits");
    *given = a != NULL;
    if (!a)
        return TDN_OK;
    tdn_io__path where;
    tdn_io__json_join(where, path, "limits");
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != count)
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "an array of %d limits (one per chain joint) is needed", count);
    tdn_result r = TDN_OK;
    for (int k = 0; k < count && r == TDN_OK; k++) {
        tdn_io__path item;
        tdn_io__json_item(item, where, k);
        const cJSON *l = cJSON_GetArrayItem(a, k);
        r = cJSON_IsObject(l) ? tdn_io__json_known_keys(l, item, limit_keys, err)
                              : tdn_io__fail(err, TDN_ERR_PARSE, item, "{\"cone\", \"twist\"} is needed");
        if (r == TDN_OK)
            r = tdn_io__json_float(l, "cone", item, 0.0f, &out[k].cone, err);
        if (r == TDN_OK)
            r = tdn_io__json_float(l, "twist", item, 0.0f, &out[k].twist, err);
    }
    return r;
}

static tdn_result read_legs(const tdn_skeleton *s, const cJSON *json, const char *path, tdn_io__ik_job *job,
                            tdn_error *err)
{
    const cJSON *legs = cJSON_GetObjectItemCaseSensitive(json, "legs");
    tdn_io__path where;
    tdn_io__json_join(where, path, "legs");
    int n = cJSON_GetArraySize(legs);
    if (!cJSON_IsArray(legs) || n < 1 || n > TDN_FOOT_MAX_LEGS)
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "an array of 1..%d legs is needed", TDN_FOOT_MAX_LEGS);
    tdn_result r = TDN_OK;
    job->feet.leg_count = n;
    for (int k = 0; k < n && r == TDN_OK; k++) {
        tdn_io__path item;
        tdn_io__json_item(item, where, k);
        const cJSON *leg = cJSON_GetArrayItem(legs, k);
        r = cJSON_IsObject(leg)
                ? tdn_io__json_known_keys(leg, item, leg_keys, err)
                : tdn_io__fail(err, TDN_ERR_PARSE, item, "a leg {\"upper\", \"middle\", \"end\"} is needed");
        if (r == TDN_OK)
            job->feet.legs[k].upper = joint_field(s, leg, "upper", item, err, &r);
        if (r == TDN_OK)
            job->feet.legs[k].middle = joint_field(s, leg, "middle", item, err, &r);
        if (r == TDN_OK)
            job->feet.legs[k].end = joint_field(s, leg, "end", item, err, &r);
        if (r == TDN_OK)
            r = tdn_io__json_string(leg, "contact", item, 0, &job->contacts[k], err);
    }
    if (r == TDN_OK && cJSON_GetObjectItemCaseSensitive(json, "pelvis"))
        job->feet.pelvis = joint_field(s, json, "pelvis", path, err, &r);
    const char *fields[] = { "half_life", "pelvis_half_life", "max_tilt", "lock_distance", "soften" };
    float *values[] = { &job->feet.half_life, &job->feet.pelvis_half_life, &job->feet.max_tilt,
                        &job->feet.lock_distance, &job->feet.soften };
    for (int k = 0; k < 5 && r == TDN_OK; k++)
        r = tdn_io__json_float(json, fields[k], path, 0.0f, values[k], err);
    job->desc.feet = &job->feet;
    job->desc.contact_curves = job->contacts;
    return r;
}

static tdn_result read_job(tdn_io__graph_build *b, const tdn_skeleton *s, const cJSON *json, const char *path,
                           tdn_io__ik_job *job, tdn_error *err)
{
    tdn_graph_ik_desc *d = &job->desc;
    const char *kind;
    tdn_result r = cJSON_IsObject(json) ? tdn_io__json_known_keys(json, path, ik_keys, err)
                                        : tdn_io__fail(err, TDN_ERR_PARSE, path, "an IK job object is needed");
    if (r == TDN_OK)
        r = tdn_io__json_string(json, "kind", path, 1, &kind, err);
    if (r != TDN_OK)
        return r;
    tdn_io__path where;
    tdn_io__json_join(where, path, "kind");
    int k = tdn_io__choose(kind, kinds, where, "IK kind", err, &r);
    if (k < 0)
        return r;
    d->kind = (tdn_graph_ik_kind)k;
    r = tdn_io__json_string(json, "name", path, 0, &d->name, err);
    const cJSON *weight = cJSON_GetObjectItemCaseSensitive(json, "weight");
    tdn_io__json_join(where, path, "weight");
    if (r == TDN_OK && cJSON_IsString(weight)) {
        if (!tdn_io__graph_has_param(b, weight->valuestring))
            return tdn_io__graph_no_param(b, weight->valuestring, where, err);
        d->weight.param = weight->valuestring;
    } else if (r == TDN_OK && weight) {
        r = tdn_io__json_float(json, "weight", path, 1.0f, &d->weight.constant, err);
        if (r == TDN_OK && !(d->weight.constant > 0.0f && d->weight.constant <= 1.0f))
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "a constant weight in (0, 1] is needed");
    }
    if (r != TDN_OK)
        return r;
    if (d->kind == TDN_GRAPH_IK_FOOT_PLACEMENT)
        return read_legs(s, json, path, job, err);
    r = vec3_param(b, json, "target", path, 1, &d->target, err);
    if (r == TDN_OK && d->kind == TDN_GRAPH_IK_TWO_BONE) {
        const cJSON *joints = cJSON_GetObjectItemCaseSensitive(json, "joints");
        tdn_io__json_join(where, path, "joints");
        if (!cJSON_IsArray(joints) || cJSON_GetArraySize(joints) != 3)
            return tdn_io__fail(err, TDN_ERR_PARSE, where, "[upper, middle, end] joint names are needed");
        int *slots[3] = { &d->root, &d->middle, &d->end };
        for (int i = 0; i < 3 && r == TDN_OK; i++) {
            tdn_io__path item;
            tdn_io__json_item(item, where, i);
            *slots[i] = tdn_io__graph_joint(s, cJSON_GetArrayItem(joints, i), item, err, &r);
        }
        if (r == TDN_OK)
            r = vec3_param(b, json, "pole", path, 0, &d->pole, err);
        if (r == TDN_OK)
            r = tdn_io__json_float(json, "soften", path, 0.0f, &d->soften, err);
        return r;
    }
    if (r == TDN_OK)
        d->root = joint_field(s, json, "root", path, err, &r);
    if (r == TDN_OK)
        d->end = joint_field(s, json, "end", path, err, &r);
    int chain[TDN_MAX_IK_CHAIN];
    int count = r == TDN_OK ? tdn_ik_chain_path(s, d->root, d->end, chain, TDN_MAX_IK_CHAIN) : 0;
    if (r == TDN_OK && count < 2) {
        tdn_io__json_join(where, path, "end");
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "\"%.40s\" is not below \"%.40s\"",
                            tdn_skeleton_joint_name(s, d->end), tdn_skeleton_joint_name(s, d->root));
    }
    float iterations = 0.0f;
    int given = 0;
    if (r == TDN_OK)
        r = tdn_io__json_float(json, "tolerance", path, 0.0f, &d->tolerance, err);
    if (r == TDN_OK)
        r = tdn_io__json_float(json, "max_iterations", path, 0.0f, &iterations, err);
    d->max_iterations = iterations > 0.0f && iterations < 1e6f ? (int)iterations : 0;
    if (r == TDN_OK)
        r = read_limits(json, path, count, job->limits, &given, err);
    d->limits = given ? job->limits : NULL;
    if (r == TDN_OK)
        r = tdn_io__json_float(json, "max_step", path, 0.0f, &d->max_step, err);
    if (r == TDN_OK)
        r = tdn_io__json_float(json, "damping", path, 0.0f, &d->damping, err);
    if (r == TDN_OK)
        r = read_vec3(json, "axis", path, &d->axis, err);
    if (r == TDN_OK)
        r = read_vec3(json, "up_hint", path, &d->up_hint, err);
    if (r == TDN_OK)
        r = read_floats(json, "joint_weights", path, count, job->joint_weights, &given, err);
    d->joint_weights = given ? job->joint_weights : NULL;
    if (r == TDN_OK)
        r = read_floats(json, "max_angles", path, count, job->max_angles, &given, err);
    d->max_angles = given ? job->max_angles : NULL;
    if (r == TDN_OK && d->kind == TDN_GRAPH_IK_LOOK_AT && !cJSON_GetObjectItemCaseSensitive(json, "axis"))
        d->axis = tdn_vec3_make(0, 0, 1);
    return r;
}

tdn_result tdn_io__graph_read_ik(tdn_io__graph_build *b, const tdn_skeleton *s, tdn_io__ik *out, tdn_error *err)
{
    const cJSON *ik = cJSON_GetObjectItemCaseSensitive(b->doc, "ik");
    out->count = 0;
    if (!ik)
        return TDN_OK;
    int n = cJSON_GetArraySize(ik);
    if (!cJSON_IsArray(ik) || n > TDN_MAX_GRAPH_IK)
        return tdn_io__fail(err, TDN_ERR_PARSE, "ik", "an array of at most %d IK jobs is needed", TDN_MAX_GRAPH_IK);
    tdn_result r = TDN_OK;
    for (int k = 0; k < n && r == TDN_OK; k++) {
        tdn_io__path path;
        tdn_io__json_item(path, "ik", k);
        memset(&out->jobs[k], 0, sizeof out->jobs[k]);
        r = read_job(b, s, cJSON_GetArrayItem(ik, k), path, &out->jobs[k], err);
        out->descs[k] = out->jobs[k].desc;
        out->count = k + 1;
    }
    return r;
}
