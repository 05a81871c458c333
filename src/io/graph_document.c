/* tendon io: graph documents: the character, its clips, parameters and sync groups, and the
 * graph built from the node tree (graph_nodes_json.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset_internal.h"
#include "file.h"
#include "graph_document_internal.h"
#include "json_hint.h"
#include "tendon/io/humanoid.h"
#include "tendon/mirror.h"

void tdn_graph_document_destroy(tdn_graph_document *d)
{
    if (!d)
        return;
    tdn_allocator a = d->allocator;
    if (d->packed) /* it owns the graph */
        tdn_packed_graph_destroy(d->packed);
    else
        tdn_graph_destroy(d->graph);
    tdn_free(d->definition, d->definition_size, &a);
    for (int c = 0; d->root_tracks && c < d->clip_count; c++) /* after the graph, which uses them */
        tdn_root_track_destroy(d->root_tracks[c]);
    tdn_io__free(&a, d->root_tracks, sizeof *d->root_tracks * (size_t)(d->clip_count + 1));
    for (int c = 0; c < d->clip_count; c++) {
        if (!d->pack) /* else the pack's */
            tdn_clip_destroy(d->clips ? d->clips[c] : NULL);
        if (d->clip_names && d->clip_names[c])
            tdn_io__free(&a, d->clip_names[c], strlen(d->clip_names[c]) + 1);
    }
    tdn_io__free(&a, d->clips, sizeof *d->clips * (size_t)(d->clip_count + 1));
    tdn_io__free(&a, d->clip_names, sizeof *d->clip_names * (size_t)(d->clip_count + 1));
    for (int k = 0; k < d->space_count; k++)
        tdn_blend_space_file_destroy(d->spaces[k]);
    tdn_io__free(&a, d->spaces, sizeof *d->spaces * (size_t)(d->space_count + 1));
    for (int k = 0; k < d->database_count; k++) /* after the graph, whose nodes play them */
        tdn_mm_database_destroy(d->databases[k]);
    tdn_io__graph_free_mm_clips(d);
    for (int k = 0; k < d->source_count; k++)
        tdn_asset_destroy(d->sources[k]);
    tdn_retarget_destroy(d->retarget);
    tdn_asset_destroy(d->target);
    tdn_asset_destroy(d->asset);
    tdn_io__free(&a, d, sizeof *d);
}

/* ---- the character ---- */

static const char *const generated_keys[] = { "generated", "height",    "walk_speed",  "walk_cycle",
                                              "run_speed", "run_cycle", "sample_rate", NULL };
static const char *const file_keys[] = { "file", "skin", "scale", NULL };

/* A field of the character object at `path`, for errors: "character.generated". */
static void field_of(char *out, size_t size, const char *path, const char *field)
{
    snprintf(out, size, "%.80s.%.40s", path, field);
}

static tdn_result load_generated(const cJSON *c, const char *path, tdn_graph_document *d, tdn_asset **out,
                                 tdn_error *err)
{
    const char *kind;
    char where[128];
    tdn_result r = tdn_io__json_known_keys(c, path, generated_keys, err);
    if (r == TDN_OK)
        r = tdn_io__json_string(c, "generated", path, 1, &kind, err);
    field_of(where, sizeof where, path, "generated");
    if (r == TDN_OK && strcmp(kind, "humanoid") != 0)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where,
                            "'%.40s' is not a generated character "
                            "(tendon generates \"humanoid\")",
                            kind);
    tdn_humanoid_desc h = { 0 };
    float *fields[] = { &h.height, &h.walk_speed, &h.walk_cycle, &h.run_speed, &h.run_cycle, &h.sample_rate };
    for (int k = 0; k < 6 && r == TDN_OK; k++)
        r = tdn_io__json_float(c, generated_keys[k + 1], path, 0.0f, fields[k], err);
    if (r != TDN_OK)
        return r;
    r = tdn_humanoid_create(&h, out, &d->allocator, err);
    if (r != TDN_OK && err && strncmp(err->where, "desc.", 5) == 0) { /* "desc.walk_speed": the JSON field */
        field_of(where, sizeof where, path, err->where + 5);
        snprintf(err->where, sizeof err->where, "%s", where);
    }
    return r;
}

static tdn_result load_file(const cJSON *c, const char *path, const char *base_dir, tdn_graph_document *d,
                            tdn_asset **out, float *scale, tdn_error *err)
{
    const char *file, *skin = NULL;
    tdn_result r = tdn_io__json_known_keys(c, path, file_keys, err);
    if (r == TDN_OK)
        r = tdn_io__json_string(c, "file", path, 1, &file, err);
    const cJSON *skin_item = cJSON_GetObjectItemCaseSensitive(c, "skin");
    char skin_index[16];
    if (r == TDN_OK && cJSON_IsNumber(skin_item)) {
        snprintf(skin_index, sizeof skin_index, "%d", skin_item->valueint);
        skin = skin_index;
    } else if (r == TDN_OK) {
        r = tdn_io__json_string(c, "skin", path, 0, &skin, err);
    }
    tdn_asset_load_options options = { .skin = skin };
    if (r == TDN_OK)
        r = tdn_io__json_float(c, "scale", path, 0.0f, &options.scale, err);
    if (r != TDN_OK)
        return r;
    *scale = options.scale;
    options.file_access = d->file_access;
    r = tdn_io__asset_load_named(base_dir, file, "the document's", &options, out, &d->allocator, err);
    if (r != TDN_OK) { /* the field and the file, then the file's own place */
        char where[128];
        field_of(where, sizeof where, path, "file");
        tdn_io__where_in(err, where, file);
    }
    return r;
}

tdn_result tdn_io__graph_read_character(const cJSON *c, const char *path, const char *base_dir, tdn_graph_document *d,
                                        tdn_asset **out, float *scale, tdn_error *err)
{
    *scale = 0.0f;
    if (!cJSON_IsObject(c))
        return c ? tdn_io__fail(err, TDN_ERR_PARSE, path, "an object is needed")
                 : tdn_io__fail(err, TDN_ERR_PARSE, path, "the required '%.60s' object is missing", path);
    if (cJSON_GetObjectItemCaseSensitive(c, "generated"))
        return load_generated(c, path, d, out, err);
    return load_file(c, path, base_dir, d, out, scale, err);
}

/* ---- parameters and sync groups ---- */

static const char *const param_keys[] = { "name", "type", "value", "half_life", NULL };
static const char *const param_types[] = { "float", "int", "bool", "trigger", "vec2", "vec3", NULL };

static tdn_result read_param(const cJSON *p, const char *path, tdn_param_desc *out, tdn_error *err)
{
    const char *type = NULL;
    tdn_result r = tdn_io__json_known_keys(p, path, param_keys, err);
    if (r == TDN_OK)
        r = tdn_io__json_string(p, "name", path, 1, &out->name, err);
    if (r == TDN_OK)
        r = tdn_io__json_string(p, "type", path, 0, &type, err);
    if (r == TDN_OK)
        r = tdn_io__json_float(p, "half_life", path, 0.0f, &out->half_life, err);
    if (r != TDN_OK)
        return r;
    tdn_io__path where;
    out->type = TDN_PARAM_FLOAT;
    if (type) {
        tdn_io__json_join(where, path, "type");
        int t = tdn_io__choose(type, param_types, where, "parameter type", err, &r);
        if (t < 0)
            return r;
        out->type = (tdn_param_type)t;
    }
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(p, "value");
    tdn_io__json_join(where, path, "value");
    int components = out->type == TDN_PARAM_VEC2 ? 2 : out->type == TDN_PARAM_VEC3 ? 3 : 1;
    if (!value)
        return TDN_OK;
    if (components == 1 && cJSON_IsBool(value)) {
        out->value[0] = cJSON_IsTrue(value) ? 1.0f : 0.0f;
        return TDN_OK;
    }
    if (components == 1 && cJSON_IsNumber(value))
        return tdn_io__json_float(p, "value", path, 0.0f, &out->value[0], err);
    if (!cJSON_IsArray(value) || cJSON_GetArraySize(value) != components || components == 1)
        return tdn_io__fail(err, TDN_ERR_PARSE, where,
                            components == 1 ? "a number or true/false is needed" : "an array of %d numbers is needed",
                            components);
    for (int c = 0; c < components; c++) {
        const cJSON *v = cJSON_GetArrayItem(value, c);
        tdn_io__path item;
        tdn_io__json_item(item, where, c);
        if (!cJSON_IsNumber(v) || !(v->valuedouble >= -3.4e38 && v->valuedouble <= 3.4e38))
            return tdn_io__fail(err, TDN_ERR_PARSE, item, "a number that fits a float is needed");
        out->value[c] = (float)v->valuedouble;
    }
    return TDN_OK;
}

/* An optional array of objects under `key`: its size through *count (at most `max`). */
static tdn_result optional_array(const cJSON *doc, const char *key, int max, const cJSON **out, int *count,
                                 tdn_error *err)
{
    *out = cJSON_GetObjectItemCaseSensitive(doc, key);
    *count = 0;
    if (!*out)
        return TDN_OK;
    if (!cJSON_IsArray(*out))
        return tdn_io__fail(err, TDN_ERR_PARSE, key, "an array is needed");
    *count = cJSON_GetArraySize(*out);
    if (*count > max)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, key, "more than %d entries", max);
    return TDN_OK;
}

static const char *const group_keys[] = { "name", "markers", NULL };

static tdn_result read_group(const cJSON *g, const char *path, tdn_sync_group_desc *out, const char **names,
                             tdn_error *err)
{
    tdn_result r = tdn_io__json_known_keys(g, path, group_keys, err);
    if (r == TDN_OK)
        r = tdn_io__json_string(g, "name", path, 1, &out->name, err);
    const cJSON *markers = cJSON_GetObjectItemCaseSensitive(g, "markers");
    if (r != TDN_OK || !markers)
        return r;
    tdn_io__path where;
    tdn_io__json_join(where, path, "markers");
    if (!cJSON_IsArray(markers) || cJSON_GetArraySize(markers) > 64)
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "an array of at most 64 event names is needed");
    out->marker_count = cJSON_GetArraySize(markers);
    for (int k = 0; k < out->marker_count; k++) {
        const cJSON *m = cJSON_GetArrayItem(markers, k);
        if (!cJSON_IsString(m)) {
            tdn_io__path item;
            tdn_io__json_item(item, where, k);
            return tdn_io__fail(err, TDN_ERR_PARSE, item, "an event name is needed");
        }
        names[k] = m->valuestring;
    }
    out->markers = names;
    return TDN_OK;
}

/* ---- the document ---- */

static const char *const document_keys[] = { "character", "clips",          "parameters", "sync_groups", "nodes",
                                             "root",      "layers",         "masks",      "root_motion", "ik",
                                             "retarget",  "cull_threshold", "version",    "$schema",     NULL };

/* A core error about a clip node names its runtime clip ("\"aim_left\" is not additive..."), which
 * has its source's name: give the name the document calls it by. */
static void clip_name_in_document(const tdn_io__graph_build *b, int node, tdn_error *err)
{
    const int c = b->nodes[node].type == TDN_NODE_CLIP ? b->nodes[node].clip : -1;
    if (c < 0 || c >= b->document->clip_count || !b->document->clips[c])
        return;
    char quoted[96], rest[sizeof err->message];
    snprintf(quoted, sizeof quoted, "\"%.60s\"", tdn_clip_name(b->document->clips[c]));
    const size_t n = strlen(quoted);
    if (strncmp(err->message, quoted, n) != 0 ||
        strcmp(b->document->clip_names[c], tdn_clip_name(b->document->clips[c])) == 0)
        return;
    snprintf(rest, sizeof rest, "%s", err->message + n);
    snprintf(err->message, sizeof err->message, "\"%.60s\" (source %.62s)%.120s", b->document->clip_names[c], quoted,
             rest);
}

/* Core errors name nodes by index ("nodes[3] ..."), parameters as "params[i] ...": give the
 * JSON path instead. */
static void where_in_document(const tdn_io__graph_build *b, tdn_error *err)
{
    int i, at = 0;
    char rest[128];
    if (!err)
        return;
    if (sscanf(err->where, "nodes[%d]%n", &i, &at) == 1 && i >= 0 && i < b->node_count) {
        clip_name_in_document(b, i, err);
        /* "nodes[3] 'name' transitions[0].conditions[1]": the node's path, then what follows */
        const char *tail = err->where + at;
        if (tail[0] == ' ' && tail[1] == '\'') {
            const char *close = strchr(tail + 2, '\'');
            tail = close ? close + 1 : "";
        }
        tail += tail[0] == ' ';
        snprintf(rest, sizeof rest, "%s", tail);
        tdn_io__json_join(err->where, b->node_paths[i], rest);
        size_t n = strlen(err->where);
        if (!rest[0] && n > 0 && err->where[n - 1] == '.')
            err->where[n - 1] = '\0';
    } else if (sscanf(err->where, "params[%d]%127[^\n]", &i, rest) >= 1) {
        snprintf(err->where, sizeof err->where, "parameters[%d]", i);
    } else if (sscanf(err->where, "clips[%d]", &i) == 1 && i >= 0 && i < b->clip_count) {
        snprintf(err->where, sizeof err->where, "%s", b->clip_paths[i]);
    }
}

static void free_build(tdn_io__graph_build *b)
{
    free(b->nodes);
    free(b->node_paths);
    free(b->inputs);
    free(b->values);
    free(b->axes);
    for (int k = 0; k < b->space_count; k++)
        tdn_blend_space_file_destroy(b->spaces[k]);
    free(b->spaces);
    for (int k = 0; k < b->mm_count; k++)
        free(b->mm_clips[k]);
    for (int k = 0; k < b->database_count; k++)
        tdn_mm_database_destroy(b->databases[k]);
    free(b->mm_mirror);
    free(b->named);
    free(b->clip_names);
    free(b->clip_paths);
    free(b->machines);
    free(b->states);
    free(b->transitions);
    free(b->conditions);
    free(b->mod_joints);
    free(b->mod_weights);
}

/* The pack's clip the document calls `name`, which must animate the document's skeleton, and its
 * index among the pack's clips (`index` may be NULL). The document stores it with its own clips,
 * which a document from a pack does not destroy. */
tdn_result tdn_io__graph_pack_clip(const tdn_graph_document *d, const char *name, const char *use_path,
                                   const tdn_clip **out, int *index, tdn_error *err)
{
    const int i = tdn_pack_find_clip(d->pack, name);
    if (i < 0)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, use_path, "the pack has no clip named \"%.60s\"", name);
    if (tdn_pack_skeleton(d->pack, tdn_pack_clip_skeleton(d->pack, i)) != d->skeleton)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, use_path,
                            "the pack's clip \"%.60s\" animates skeleton %d, not the graph's", name,
                            tdn_pack_clip_skeleton(d->pack, i));
    *out = tdn_pack_clip(d->pack, i);
    if (index)
        *index = i;
    return TDN_OK;
}

tdn_result tdn_io__graph_alloc_clips(tdn_graph_document *d, int count, tdn_error *err)
{
    const size_t bytes = sizeof *d->clips * (size_t)(count + 1),
                 name_bytes = sizeof *d->clip_names * (size_t)(count + 1);
    d->clips = tdn_io__alloc(&d->allocator, bytes);
    d->clip_names = tdn_io__alloc(&d->allocator, name_bytes);
    if (!d->clips || !d->clip_names) {
        tdn_io__free(&d->allocator, d->clips, bytes);
        tdn_io__free(&d->allocator, d->clip_names, name_bytes);
        d->clips = NULL;
        d->clip_names = NULL;
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
    }
    memset(d->clips, 0, bytes);
    memset(d->clip_names, 0, name_bytes);
    d->clip_count = count;
    return TDN_OK;
}

/* The root tracks of the pack's clips whose frames the pack stores, for the graph to use
 * instead of sampling the clips (it builds the others). */
static tdn_result pack_root_tracks(tdn_graph_document *d, const int *pack_index, tdn_error *err)
{
    const size_t bytes = sizeof *d->root_tracks * (size_t)(d->clip_count + 1);
    d->root_tracks = tdn_io__alloc(&d->allocator, bytes);
    if (!d->root_tracks)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
    memset(d->root_tracks, 0, bytes);
    for (int c = 0; c < d->clip_count; c++) {
        if (tdn_clip_is_additive(d->clips[c]) || !tdn_pack_has_root_track(d->pack, pack_index[c], d->root_motion.joint))
            continue;
        tdn_result r = tdn_pack_root_track(d->pack, pack_index[c], &d->root_motion, &d->root_tracks[c], &d->allocator,
                                           err);
        if (r != TDN_OK)
            return r;
    }
    return TDN_OK;
}

/* The graph's definition for packs (tdn_graph_definition_save_memory), its nodes' callbacks named as
 * the options name them. */
static tdn_result save_definition(const tdn_io__graph_build *b, const tdn_graph_desc *gd, tdn_graph_document *d,
                                  tdn_error *err)
{
    const char **names = calloc((size_t)gd->node_count + 1, sizeof *names);
    if (!names)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
    for (int i = 0; i < gd->node_count; i++)
        for (int k = 0; gd->nodes[i].callback && !names[i] && k < b->callback_count; k++)
            if (b->callbacks[k].callback == gd->nodes[i].callback && b->callbacks[k].user == gd->nodes[i].user)
                names[i] = b->callbacks[k].name;
    const tdn_result r = tdn_graph_definition_save_memory(gd, names, &d->definition, &d->definition_size, &d->allocator,
                                                          err);
    free(names);
    return r;
}

static tdn_result build_graph(const cJSON *doc, const char *base_dir, tdn_graph_document *d, tdn_io__graph_build *b,
                              tdn_error *err)
{
    const cJSON *params_json, *groups_json, *item;
    int param_count, group_count, k = 0;
    tdn_result r = optional_array(doc, "parameters", TDN_MAX_GRAPH_PARAMS, &params_json, &param_count, err);
    if (r == TDN_OK)
        r = optional_array(doc, "sync_groups", TDN_MAX_GRAPH_NODES, &groups_json, &group_count, err);
    if (r != TDN_OK)
        return r;
    tdn_param_desc *params = calloc((size_t)param_count + 1, sizeof *params);
    tdn_sync_group_desc *groups = calloc((size_t)group_count + 1, sizeof *groups);
    const char **marker_names = calloc((size_t)group_count * 64 + 1, sizeof *marker_names);
    int *mirror = NULL;
    if (!params || !groups || !marker_names)
        r = tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
    cJSON_ArrayForEach(item, params_json)
    {
        tdn_io__path path;
        tdn_io__json_item(path, "parameters", k);
        if (r == TDN_OK)
            r = read_param(item, path, &params[k], err);
        k++;
    }
    k = 0;
    cJSON_ArrayForEach(item, groups_json)
    {
        tdn_io__path path;
        tdn_io__json_item(path, "sync_groups", k);
        if (r == TDN_OK)
            r = read_group(item, path, &groups[k], marker_names + 64 * k, err);
        k++;
    }
    const tdn_skeleton *skeleton = d->skeleton;
    tdn_io__layers layers = { 0 };
    if (r == TDN_OK)
        r = tdn_io__graph_begin(b, err);
    if (r == TDN_OK)
        r = tdn_io__graph_read_layers(b, skeleton, &layers, err);
    if (r == TDN_OK)
        r = tdn_io__graph_read_root_motion(doc, skeleton, &layers, err);
    tdn_io__ik *ik = calloc(1, sizeof *ik);
    if (r == TDN_OK && !ik)
        r = tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
    if (r == TDN_OK)
        r = tdn_io__graph_read_ik(b, skeleton, ik, err);
    if (r == TDN_OK && !d->pack) /* a pack's clips are built already */
        r = tdn_io__graph_check_clip_definitions(doc, d, base_dir, err);
    /* the runtime clips the nodes use, in order of first use */
    if (r == TDN_OK)
        r = tdn_io__graph_alloc_clips(d, b->clip_count, err);
    int *pack_index = d->pack && r == TDN_OK ? calloc((size_t)b->clip_count + 1, sizeof *pack_index) : NULL;
    if (d->pack && r == TDN_OK && !pack_index)
        r = tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
    for (int c = 0; r == TDN_OK && c < b->clip_count; c++) {
        size_t n = strlen(b->clip_names[c]) + 1;
        d->clip_names[c] = tdn_io__alloc(&d->allocator, n);
        if (!d->clip_names[c]) {
            r = tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
            break;
        }
        memcpy(d->clip_names[c], b->clip_names[c], n);
        r = d->pack ? tdn_io__graph_pack_clip(d, b->clip_names[c], b->clip_paths[c], (const tdn_clip **)&d->clips[c],
                                              &pack_index[c], err) /* never written nor destroyed */
                    : tdn_io__graph_build_clip(doc, d, base_dir, b->clip_names[c], b->clip_paths[c], &d->clips[c], err);
    }
    if (r == TDN_OK && b->uses_mirror) {
        mirror = calloc((size_t)tdn_skeleton_joint_count(skeleton), sizeof *mirror);
        r = mirror ? tdn_mirror_table_from_names(skeleton, mirror, err)
                   : tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
    }
    d->has_root_motion = layers.has_root_motion;
    d->root_motion = layers.root_motion;
    if (r == TDN_OK && d->pack && d->has_root_motion)
        r = pack_root_tracks(d, pack_index, err);
    free(pack_index);
    float cull = 0.0f;
    if (r == TDN_OK)
        r = tdn_io__json_float(doc, "cull_threshold", "", 0.0f, &cull, err);
    if (r == TDN_OK) {
        tdn_graph_desc gd = { .skeleton = skeleton,
                              .clips = (const tdn_clip *const *)d->clips,
                              .clip_count = d->clip_count,
                              .params = params,
                              .param_count = param_count,
                              .nodes = b->nodes,
                              .node_count = b->node_count,
                              .root = layers.root,
                              .layers = layers.layers,
                              .layer_count = layers.count,
                              .sync_groups = groups,
                              .sync_group_count = group_count,
                              .mirror_table = mirror,
                              .cull_threshold = cull,
                              .root_motion = layers.has_root_motion ? &layers.root_motion : NULL,
                              .extract_root_motion = layers.extract,
                              .root_tracks = (const tdn_root_track *const *)d->root_tracks,
                              .ik = ik->descs,
                              .ik_count = ik->count,
                              .clip_caches = d->clip_caches };
        r = tdn_graph_create(&gd, &d->graph, &d->allocator, err);
        if (r != TDN_OK)
            where_in_document(b, err);
        if (r == TDN_OK && !d->pack && b->mm_count == 0 && !d->retarget) /* the others load from a pack's text */
            r = save_definition(b, &gd, d, err);
    }
    /* the blend spaces and the motion-matching databases now belong to the document */
    if (r == TDN_OK) {
        memcpy(d->databases, b->databases, sizeof *d->databases * (size_t)b->database_count);
        memcpy(d->database_paths, b->database_paths, sizeof *d->database_paths * (size_t)b->database_count);
        d->database_count = b->database_count;
        b->database_count = 0;
    }
    if (r == TDN_OK) {
        d->spaces = tdn_io__alloc(&d->allocator, sizeof *d->spaces * (size_t)(b->space_count + 1));
        if (!d->spaces)
            r = tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
        else {
            memcpy(d->spaces, b->spaces, sizeof *d->spaces * (size_t)b->space_count);
            d->space_count = b->space_count;
            b->space_count = 0;
        }
    }
    free(params);
    free(groups);
    free(marker_names);
    free(mirror);
    free(layers.masks);
    free(ik);
    return r;
}

/* A document from JSON text whose character and clip files are read relative to base_dir, or
 * (with `pack`) whose character is the pack's skeleton `skeleton` and clips the pack's. */
static tdn_result load_json(const char *json, size_t size, const char *base_dir, const tdn_pack *pack,
                            const tdn_skeleton *skeleton, const tdn_graph_document_load_options *options,
                            tdn_graph_document **out, const tdn_allocator *allocator, tdn_error *err)
{
    if (!json && size > 0)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "json", "is NULL with a size above 0");
    if (options && options->callback_count > 0 && !options->callbacks)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "options.callbacks", "NULL callbacks with a count of %d",
                            options->callback_count);
    if (tdn_io__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    tdn_allocator a = allocator ? *allocator : (tdn_allocator){ 0 };
    cJSON *doc = NULL;
    tdn_result r = tdn_io__json_parse_object(json, size, "a graph document {\"character\": ..., \"root\": ...}", &doc,
                                             err);
    if (r != TDN_OK)
        return r;
    tdn_graph_document *d = tdn_io__alloc(&a, sizeof *d);
    if (!d) {
        cJSON_Delete(doc);
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
    }
    memset(d, 0, sizeof *d);
    d->allocator = a;
    d->file_access = options ? options->file_access : NULL;
    d->pack = pack;
    d->skeleton = skeleton;
    d->clip_caches = options ? options->clip_caches : 0;
    if (options && !pack) {
        d->clip_storage = options->clip_storage;
        d->error_threshold = options->error_threshold;
        d->shell_distance = options->shell_distance;
    }
    r = tdn_io__json_known_keys(doc, "", document_keys, err);
    if (r == TDN_OK && !pack) { /* clip files are the same rig: at its scale */
        r = tdn_io__graph_read_character(cJSON_GetObjectItemCaseSensitive(doc, "character"), "character", base_dir, d,
                                         &d->asset, &d->scale, err);
        d->skeleton = tdn_asset_skeleton(d->asset);
    }
    if (r == TDN_OK && pack && cJSON_GetObjectItemCaseSensitive(doc, "retarget"))
        r = tdn_io__fail(err, TDN_ERR_INVALID_DATA, "retarget",
                         "a pack's graph cannot drive another character (its file is not in the pack)");
    if (r == TDN_OK && !pack)
        r = tdn_io__graph_read_retarget(doc, base_dir, d, err);
    tdn_io__graph_build b = { .doc = doc,
                              .skeleton = d->skeleton,
                              .allocator = &d->allocator,
                              .document = d,
                              .base_dir = base_dir,
                              .callbacks = options ? options->callbacks : NULL,
                              .callback_count = options ? options->callback_count : 0 };
    if (r == TDN_OK)
        r = build_graph(doc, base_dir, d, &b, err);
    free_build(&b);
    cJSON_Delete(doc);
    d->file_access = NULL; /* the caller's, for the load only */
    if (r != TDN_OK) {
        tdn_graph_document_destroy(d);
        return r;
    }
    *out = d;
    return TDN_OK;
}

tdn_result tdn_graph_document_load_memory(const char *json, size_t size, const tdn_graph_document_load_options *options,
                                          tdn_graph_document **out, const tdn_allocator *allocator, tdn_error *err)
{
    if (!out)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "out", "is NULL");
    *out = NULL;
    return load_json(json, size, options ? options->base_dir : NULL, NULL, NULL, options, out, allocator, err);
}

tdn_result tdn_graph_document_load_pack(const tdn_pack *pack, int graph, const tdn_graph_document_load_options *options,
                                        tdn_graph_document **out, const tdn_allocator *allocator, tdn_error *err)
{
    if (!out)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "out", "is NULL");
    *out = NULL;
    if (!pack)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "pack", "is NULL");
    if (tdn_io__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    if (graph < 0 || graph >= tdn_pack_graph_count(pack))
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "graph", "%d is not a graph of the pack (it has %d)", graph,
                            tdn_pack_graph_count(pack));
    if (tdn_pack_graph_has_definition(pack, graph)) {
        const tdn_result r = tdn_io__graph_load_definition(pack, graph, options, out, allocator, err);
        if (r != TDN_OK)
            tdn_io__where_in(err, tdn_pack_graph_name(pack, graph), NULL);
        return r;
    }
    size_t size = 0;
    const char *json = tdn_pack_graph_json(pack, graph, &size);
    const tdn_skeleton *skeleton = tdn_pack_skeleton(pack, tdn_pack_graph_skeleton(pack, graph));
    /* nothing from files: only the callbacks and the clip caches of the options */
    const tdn_graph_document_load_options only = { .callbacks = options ? options->callbacks : NULL,
                                                   .callback_count = options ? options->callback_count : 0,
                                                   .clip_caches = options ? options->clip_caches : 0 };
    const tdn_result r = load_json(json, size, NULL, pack, skeleton, &only, out, allocator, err);
    if (r != TDN_OK)
        tdn_io__where_in(err, tdn_pack_graph_name(pack, graph), NULL);
    return r;
}

tdn_result tdn_graph_document_load(const char *path, const tdn_graph_document_load_options *options,
                                   tdn_graph_document **out, const tdn_allocator *allocator, tdn_error *err)
{
    if (!out)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "out", "is NULL");
    *out = NULL;
    if (!path)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "path", "is NULL");
    if (tdn_io__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    tdn_io__file file;
    tdn_result r = tdn_io__read_with(options ? options->file_access : NULL, path, allocator, &file, err);
    if (r != TDN_OK)
        return r; /* `where` is the path */
    char dir[4096];
    tdn_io__dir_of(path, dir, sizeof dir);
    r = load_json(file.data, file.size, dir, NULL, NULL, options, out, allocator, err);
    tdn_io__free_file(&file);
    if (r != TDN_OK)
        tdn_io__where_in(err, path, NULL);
    return r;
}

const tdn_graph *tdn_graph_document_graph(const tdn_graph_document *d) { return d ? d->graph : NULL; }
const tdn_asset *tdn_graph_document_asset(const tdn_graph_document *d) { return d ? d->asset : NULL; }
const tdn_skeleton *tdn_graph_document_skeleton(const tdn_graph_document *d) { return d ? d->skeleton : NULL; }
int tdn_graph_document_clip_count(const tdn_graph_document *d) { return d ? d->clip_count : 0; }
const tdn_clip *tdn_graph_document_clip(const tdn_graph_document *d, int clip)
{
    return d && clip >= 0 && clip < d->clip_count ? d->clips[clip] : NULL;
}
const char *tdn_graph_document_clip_name(const tdn_graph_document *d, int clip)
{
    return d && clip >= 0 && clip < d->clip_count ? d->clip_names[clip] : NULL;
}
const tdn_retarget *tdn_graph_document_retarget(const tdn_graph_document *d) { return d ? d->retarget : NULL; }
const tdn_asset *tdn_graph_document_target_asset(const tdn_graph_document *d) { return d ? d->target : NULL; }
const tdn_skeleton *tdn_graph_document_target_skeleton(const tdn_graph_document *d)
{
    return d && d->target ? tdn_asset_skeleton(d->target) : NULL;
}
