/* tendon io: a graph document's layers, bone masks and root motion:
 *
 *   "layers": [{"name": "base", "root": NODE},
 *              {"name": "upper", "root": NODE, "weight": 1 | PARAM, "mode": "override" | "additive",
 *               "mask": MASK | MASK_NAME, "model_space_rotation": false}],
 *   "masks": {"upper_body": MASK},
 *   "root_motion": {"joint": "root", "rotation": "yaw" | "full" | "none", "keep_vertical": false,
 *                   "extract": true}
 *
 * A MASK starts at 0 for every joint and applies, in order, one or a list of
 *   {"subtree": JOINT, "weight": 1, "blend_depth": 0}   the joint and all below it (feathered)
 *   {"joints": {JOINT: weight, ...}}                     single joints
 * A document has "root" (one layer) or "layers", not both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset_internal.h"
#include "graph_document_internal.h"
#include "json_hint.h"
#include "tendon/blend.h"

static const char *const layer_keys[] = { "name", "root", "weight", "mode", "mask", "model_space_rotation", NULL };
static const char *const subtree_keys[] = { "subtree", "weight", "blend_depth", NULL };
static const char *const joints_keys[] = { "joints", NULL };
static const char *const root_motion_keys[] = { "joint", "rotation", "keep_vertical", "extract", NULL };

static const char *joint_at(const void *ctx, int i) { return tdn_skeleton_joint_name(ctx, i); }

int tdn_io__graph_joint(const tdn_skeleton *s, const cJSON *item, const char *where, tdn_error *err, tdn_result *r)
{
    if (!cJSON_IsString(item)) {
        *r = tdn_io__fail(err, TDN_ERR_PARSE, where, "a joint's name is needed");
        return -1;
    }
    int j = tdn_skeleton_find_joint(s, item->valuestring);
    if (j < 0) {
        char hint[96];
        tdn_io__hint(hint, sizeof hint, item->valuestring, joint_at, s, tdn_skeleton_joint_count(s));
        *r = tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "no joint named \"%.60s\"%s", item->valuestring, hint);
    }
    return j;
}

static tdn_result apply_mask_part(const tdn_skeleton *s, const cJSON *part, const char *path, float *mask,
                                  tdn_error *err)
{
    tdn_result r = TDN_OK;
    tdn_io__path where;
    if (!cJSON_IsObject(part))
        return tdn_io__fail(err, TDN_ERR_PARSE, path, "{\"subtree\": JOINT, ...} or {\"joints\": {...}} is needed");
    const cJSON *joints = cJSON_GetObjectItemCaseSensitive(part, "joints");
    if (joints) {
        r = tdn_io__json_known_keys(part, path, joints_keys, err);
        tdn_io__json_join(where, path, "joints");
        if (r == TDN_OK && !cJSON_IsObject(joints))
            return tdn_io__fail(err, TDN_ERR_PARSE, where, "an object of joint names and weights is needed");
        const cJSON *item;
        cJSON_ArrayForEach(item, joints)
        {
            tdn_io__path at;
            tdn_io__json_join(at, where, item->string);
            cJSON name = { .type = cJSON_String, .valuestring = item->string };
            int j = r == TDN_OK ? tdn_io__graph_joint(s, &name, at, err, &r) : -1;
            if (r == TDN_OK && !(cJSON_IsNumber(item) && item->valuedouble >= 0 && item->valuedouble <= 1))
                r = tdn_io__fail(err, TDN_ERR_INVALID_DATA, at, "a weight in [0, 1] is needed");
            if (r == TDN_OK)
                mask[j] = (float)item->valuedouble;
        }
        return r;
    }
    float weight = 1.0f, depth = 0.0f;
    r = tdn_io__json_known_keys(part, path, subtree_keys, err);
    if (r == TDN_OK)
        r = tdn_io__json_float(part, "weight", path, 1.0f, &weight, err);
    if (r == TDN_OK)
        r = tdn_io__json_float(part, "blend_depth", path, 0.0f, &depth, err);
    tdn_io__json_join(where, path, "subtree");
    int root = r == TDN_OK ? tdn_io__graph_joint(s, cJSON_GetObjectItemCaseSensitive(part, "subtree"), where, err, &r)
                           : -1;
    if (r == TDN_OK && (!(weight >= 0.0f && weight <= 1.0f) || !(depth >= 0.0f && depth <= 1000.0f)))
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, path, "weight in [0, 1] and blend_depth in 0..1000 are needed");
    if (r == TDN_OK)
        tdn_mask_set_subtree(mask, s, root, weight, (int)depth, NULL);
    return r;
}

/* A layer's mask (an object, a list, or the name of an entry of "masks") into `mask`. */
static tdn_result read_mask(const cJSON *doc, const tdn_skeleton *s, const cJSON *json, const char *path, float *mask,
                            tdn_error *err)
{
    tdn_io__path own;
    if (cJSON_IsString(json)) {
        const cJSON *named = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "masks"),
                                                              json->valuestring);
        if (!named)
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, path, "no mask named \"%.60s\" in \"masks\"",
                                json->valuestring);
        tdn_io__json_join(own, "masks", json->valuestring);
        path = own;
        json = named;
    }
    tdn_mask_fill(mask, tdn_skeleton_joint_count(s), 0.0f);
    if (!cJSON_IsArray(json))
        return apply_mask_part(s, json, path, mask, err);
    tdn_result r = TDN_OK;
    for (int k = 0; k < cJSON_GetArraySize(json) && r == TDN_OK; k++) {
        tdn_io__path item;
        tdn_io__json_item(item, path, k);
        r = apply_mask_part(s, cJSON_GetArrayItem(json, k), item, mask, err);
    }
    return r;
}

static tdn_result read_layer(tdn_io__graph_build *b, const tdn_skeleton *s, const cJSON *json, const char *path,
                             tdn_layer_desc *layer, float *mask, tdn_error *err)
{
    static const char *const layer_modes[] = { "override", "additive", NULL };
    tdn_result r = cJSON_IsObject(json) ? tdn_io__json_known_keys(json, path, layer_keys, err)
                                        : tdn_io__fail(err, TDN_ERR_PARSE, path, "a layer object is needed");
    const char *mode = NULL;
    if (r == TDN_OK)
        r = tdn_io__json_string(json, "name", path, 0, &layer->name, err);
    if (r == TDN_OK)
        r = tdn_io__json_string(json, "mode", path, 0, &mode, err);
    if (r == TDN_OK && mode) {
        tdn_io__path where;
        tdn_io__json_join(where, path, "mode");
        int k = tdn_io__choose(mode, layer_modes, where, "layer mode", err, &r);
        layer->mode = k == 1 ? TDN_LAYER_ADDITIVE : TDN_LAYER_OVERRIDE;
    }
    const cJSON *weight = cJSON_GetObjectItemCaseSensitive(json, "weight");
    tdn_io__path where;
    tdn_io__json_join(where, path, "weight");
    layer->weight = (tdn_node_value){ NULL, 1.0f };
    if (r == TDN_OK && cJSON_IsString(weight)) {
        if (!tdn_io__graph_has_param(b, weight->valuestring))
            return tdn_io__graph_no_param(b, weight->valuestring, where, err);
        layer->weight.param = weight->valuestring;
    } else if (r == TDN_OK && weight) {
        r = tdn_io__json_float(json, "weight", path, 1.0f, &layer->weight.constant, err);
        if (r == TDN_OK && !(layer->weight.constant > 0.0f && layer->weight.constant <= 1.0f))
            r = tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "a constant weight in (0, 1] is needed");
    }
    if (r == TDN_OK)
        r = tdn_io__json_bool(json, "model_space_rotation", path, 0, &layer->model_space_rotation, err);
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(json, "mask");
    if (r == TDN_OK && m) {
        tdn_io__json_join(where, path, "mask");
        r = read_mask(b->doc, s, m, where, mask, err);
        layer->mask = mask;
    }
    const cJSON *root = cJSON_GetObjectItemCaseSensitive(json, "root");
    tdn_io__json_join(where, path, "root");
    if (r == TDN_OK)
        r = root ? tdn_io__graph_read_node(b, root, where, 0, &layer->root, err)
                 : tdn_io__fail(err, TDN_ERR_PARSE, where, "the layer's root node is missing");
    return r;
}

tdn_result tdn_io__graph_read_layers(tdn_io__graph_build *b, const tdn_skeleton *s, tdn_io__layers *out, tdn_error *err)
{
    const cJSON *layers = cJSON_GetObjectItemCaseSensitive(b->doc, "layers");
    const cJSON *root = cJSON_GetObjectItemCaseSensitive(b->doc, "root");
    const cJSON *masks = cJSON_GetObjectItemCaseSensitive(b->doc, "masks");
    memset(out, 0, sizeof *out);
    if (masks && !cJSON_IsObject(masks))
        return tdn_io__fail(err, TDN_ERR_PARSE, "masks", "an object of named masks is needed");
    if (layers && root)
        return tdn_io__fail(err, TDN_ERR_PARSE, "layers", "give \"root\" (one layer) or \"layers\", not both");
    if (!layers)
        return root ? tdn_io__graph_read_node(b, root, "root", 0, &out->root, err)
                    : tdn_io__fail(err, TDN_ERR_PARSE, "root", "the required 'root' node (or 'layers') is missing");
    int n = cJSON_GetArraySize(layers);
    if (!cJSON_IsArray(layers) || n < 1 || n > TDN_MAX_LAYERS)
        return tdn_io__fail(err, TDN_ERR_PARSE, "layers", "an array of 1..%d layers is needed", TDN_MAX_LAYERS);
    int stride = tdn_pose_stride(tdn_skeleton_joint_count(s));
    out->masks = calloc((size_t)(n * stride), sizeof(float));
    if (!out->masks)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
    out->count = n;
    tdn_result r = TDN_OK;
    for (int k = 0; k < n && r == TDN_OK; k++) {
        tdn_io__path path;
        tdn_io__json_item(path, "layers", k);
        r = read_layer(b, s, cJSON_GetArrayItem(layers, k), path, &out->layers[k], out->masks + k * stride, err);
    }
    return r;
}

tdn_result tdn_io__graph_read_root_motion(const cJSON *doc, const tdn_skeleton *s, tdn_io__layers *out, tdn_error *err)
{
    static const char *const rotations[] = { "yaw", "full", "none", NULL };
    const cJSON *rm = cJSON_GetObjectItemCaseSensitive(doc, "root_motion");
    if (!rm)
        return TDN_OK;
    tdn_result r = cJSON_IsObject(rm) ? tdn_io__json_known_keys(rm, "root_motion", root_motion_keys, err)
                                      : tdn_io__fail(err, TDN_ERR_PARSE, "root_motion", "an object is needed");
    out->has_root_motion = 1;
    const cJSON *joint = cJSON_GetObjectItemCaseSensitive(rm, "joint");
    if (r == TDN_OK && joint)
        out->root_motion.joint = tdn_io__graph_joint(s, joint, "root_motion.joint", err, &r);
    const char *rotation = NULL;
    if (r == TDN_OK)
        r = tdn_io__json_string(rm, "rotation", "root_motion", 0, &rotation, err);
    if (r == TDN_OK && rotation) {
        int k = tdn_io__choose(rotation, rotations, "root_motion.rotation", "root rotation", err, &r);
        out->root_motion.rotation = (tdn_root_rotation)(k < 0 ? 0 : k);
    }
    if (r == TDN_OK)
        r = tdn_io__json_bool(rm, "keep_vertical", "root_motion", 0, &out->root_motion.keep_vertical, err);
    if (r == TDN_OK)
        r = tdn_io__json_bool(rm, "extract", "root_motion", 1, &out->extract, err);
    return r;
}
