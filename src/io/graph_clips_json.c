/* tendon io: a graph document's clips: the runtime clip for each name the nodes use, from the
 * document's "clips" definitions (a source clip of the character or of another file, maybe made
 * additive, at a chosen rate) or the character's clip of that name; and the keyed source clips
 * motion-matching nodes play, found the same way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset_internal.h"
#include "graph_document_internal.h"
#include "json_hint.h"

static const char *const clip_def_keys[] = { "name", "source", "file", "additive", "sample_rate", NULL };

/* The document's definition of clip `name` ("clips" entry), or NULL: the asset's clip of that name. */
static const cJSON *clip_definition(const cJSON *doc, const char *name, int *index)
{
    const cJSON *c;
    *index = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "clips"))
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(c, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            return c;
        (*index)++;
    }
    return NULL;
}

static const char *asset_clip_at(const void *ctx, int i) { return tdn_keyed_clip_name(tdn_asset_clip(ctx, i)); }

/* The asset a clip definition's "file" names, loaded once per document; it must have the
 * character's joints, by name and in order (its clips are keyed to them). */
static tdn_result clip_file(tdn_graph_document *d, const char *base_dir, const char *file, const char *where,
                            const tdn_asset **out, tdn_error *err)
{
    if (strlen(file) >= sizeof d->source_paths[0])
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "the path is too long");
    for (int k = 0; k < d->source_count; k++)
        if (strcmp(d->source_paths[k], file) == 0) {
            *out = d->sources[k];
            return TDN_OK;
        }
    if (d->source_count == TDN_IO_MAX_CLIP_FILES)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "clips from more than %d files", TDN_IO_MAX_CLIP_FILES);
    tdn_asset *asset = NULL;
    tdn_asset_load_options options = { .scale = d->scale, .file_access = d->file_access }; /* the character's rig */
    tdn_result r = tdn_io__asset_load_named(base_dir, file, "the document's", &options, &asset, &d->allocator, err);
    if (r != TDN_OK) {
        tdn_io__where_in(err, where, file);
        return r;
    }
    const tdn_skeleton *mine = tdn_asset_skeleton(d->asset), *theirs = tdn_asset_skeleton(asset);
    int joints = tdn_skeleton_joint_count(mine), same = tdn_skeleton_joint_count(theirs) == joints;
    for (int j = 0; same && j < joints; j++)
        same = strcmp(tdn_skeleton_joint_name(mine, j), tdn_skeleton_joint_name(theirs, j)) == 0;
    if (!same) {
        tdn_asset_destroy(asset);
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where,
                            "'%.60s' does not have the character's %d joints in its "
                            "order",
                            file, joints);
    }
    memcpy(d->source_paths[d->source_count], file, strlen(file) + 1);
    d->sources[d->source_count++] = asset;
    *out = asset;
    return TDN_OK;
}

/* The clip named `name` in `asset` (the character's, or a clip file's named `file`), or -1 after
 * failing at `where` with the nearest name; `role` says what it was wanted for ("" or " to be
 * the additive reference"). */
static int asset_clip(const tdn_asset *asset, const char *file, const char *name, const char *where, const char *role,
                      tdn_error *err)
{
    const int clip = tdn_asset_find_clip(asset, name);
    if (clip < 0) {
        char hint[96];
        tdn_io__hint(hint, sizeof hint, name, asset_clip_at, asset, tdn_asset_clip_count(asset));
        if (file)
            tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "'%.60s' has no clip named \"%.60s\"%s%s", file, name, role,
                         hint);
        else
            tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "the character has no clip named \"%.60s\"%s%s", name, role,
                         hint);
    }
    return clip;
}

/* The source clip `name` stands for: its definition in "clips" (its `source` in the character
 * or in `file`) or the character's clip of that name; *def is the definition (NULL: none) and
 * `path` its JSON path. */
static tdn_result find_source(const cJSON *doc, tdn_graph_document *d, const char *base_dir, const char *name,
                              const char *use_path, const cJSON **def, char *path, const tdn_asset **asset_out,
                              int *clip, tdn_error *err)
{
    const tdn_asset *asset = d->asset;
    int index;
    *def = clip_definition(doc, name, &index);
    const char *source = name;
    tdn_io__json_item(path, "clips", index);
    tdn_result r = TDN_OK;
    const char *file = NULL;
    tdn_io__path where;
    snprintf(where, sizeof where, "%s", use_path);
    if (*def) {
        r = tdn_io__json_known_keys(*def, path, clip_def_keys, err);
        if (r == TDN_OK)
            r = tdn_io__json_string(*def, "source", path, 0, &source, err);
        if (r == TDN_OK)
            r = tdn_io__json_string(*def, "file", path, 0, &file, err);
        if (r == TDN_OK && file) {
            tdn_io__json_join(where, path, "file");
            r = clip_file(d, base_dir, file, where, &asset, err);
        }
        tdn_io__json_join(where, path, source ? "source" : "name");
        source = source ? source : name;
    }
    if (r != TDN_OK)
        return r;
    *clip = asset_clip(asset, file, source, where, "", err);
    if (*clip < 0)
        return TDN_ERR_INVALID_DATA;
    *asset_out = asset;
    return TDN_OK;
}

/* An "additive" definition's reference: "rest", "first_frame" or a clip's name (*reference). */
static tdn_result additive_reference(const cJSON *def, const char *path, const char **reference, tdn_error *err)
{
    const cJSON *additive = cJSON_GetObjectItemCaseSensitive(def, "additive");
    *reference = NULL;
    if (!additive)
        return TDN_OK;
    tdn_io__path where;
    tdn_io__json_join(where, path, "additive");
    const cJSON *ref = cJSON_GetObjectItemCaseSensitive(additive, "reference");
    if (!cJSON_IsObject(additive) || !cJSON_IsString(ref))
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "{\"reference\": \"rest\" | \"first_frame\" | CLIP} is needed");
    *reference = ref->valuestring;
    return TDN_OK;
}

static int is_reference_pose(const char *reference)
{
    return strcmp(reference, "rest") == 0 || strcmp(reference, "first_frame") == 0;
}

static const char *definition_name_at(const void *ctx, int i)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ctx, i), "name");
    return cJSON_IsString(n) ? n->valuestring : NULL;
}

tdn_result tdn_io__graph_check_clip_definitions(const cJSON *doc, tdn_graph_document *d, const char *base_dir,
                                                tdn_error *err)
{
    const cJSON *clips = cJSON_GetObjectItemCaseSensitive(doc, "clips");
    if (!clips)
        return TDN_OK;
    if (!cJSON_IsArray(clips))
        return tdn_io__fail(err, TDN_ERR_PARSE, "clips", "an array of clip definitions is needed");
    tdn_result r = TDN_OK;
    for (int i = 0; i < cJSON_GetArraySize(clips) && r == TDN_OK; i++) {
        const cJSON *c = cJSON_GetArrayItem(clips, i);
        tdn_io__path path, where;
        tdn_io__json_item(path, "clips", i);
        const char *name = NULL, *reference = NULL;
        if (!cJSON_IsObject(c))
            return tdn_io__fail(err, TDN_ERR_PARSE, path, "a clip definition {\"name\", \"source\", ...} is needed");
        r = tdn_io__json_known_keys(c, path, clip_def_keys, err);
        if (r == TDN_OK)
            r = tdn_io__json_string(c, "name", path, 1, &name, err);
        for (int k = 0; r == TDN_OK && k < i; k++)
            if (strcmp(definition_name_at(clips, k), name) == 0) {
                tdn_io__json_join(where, path, "name");
                r = tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "a second clip named \"%.60s\" (clips[%d])", name,
                                 k);
            }
        /* the source, in the character or its file, whether or not a node plays it */
        const cJSON *def;
        const tdn_asset *asset;
        int clip;
        tdn_io__path found;
        if (r == TDN_OK)
            r = find_source(doc, d, base_dir, name, path, &def, found, &asset, &clip, err);
        if (r == TDN_OK)
            r = additive_reference(c, path, &reference, err);
        if (r == TDN_OK && reference && !is_reference_pose(reference)) {
            const cJSON *file = cJSON_GetObjectItemCaseSensitive(c, "file");
            tdn_io__json_join(where, path, "additive.reference");
            if (asset_clip(asset, cJSON_IsString(file) ? file->valuestring : NULL, reference, where,
                           " to be the additive reference", err) < 0)
                r = TDN_ERR_INVALID_DATA;
        }
    }
    return r;
}

tdn_result tdn_io__graph_keyed_clip(const cJSON *doc, tdn_graph_document *d, const char *base_dir, const char *name,
                                    const char *use_path, const tdn_keyed_clip **out, tdn_error *err)
{
    const cJSON *def;
    const tdn_asset *asset;
    int clip;
    tdn_io__path path;
    tdn_result r = find_source(doc, d, base_dir, name, use_path, &def, path, &asset, &clip, err);
    if (r != TDN_OK)
        return r;
    if (cJSON_GetObjectItemCaseSensitive(def, "additive")) /* the definition is fine for clip nodes */
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, use_path,
                            "\"%.60s\" is made additive (%.40s); motion "
                            "matching plays source clips as they are",
                            name, path);
    *out = tdn_asset_clip(asset, clip);
    return TDN_OK;
}

tdn_result tdn_io__graph_build_clip(const cJSON *doc, tdn_graph_document *d, const char *base_dir, const char *name,
                                    const char *use_path, tdn_clip **out, tdn_error *err)
{
    const tdn_allocator *allocator = &d->allocator;
    const cJSON *def;
    const tdn_asset *asset;
    int k;
    tdn_io__path path;
    tdn_result r = find_source(doc, d, base_dir, name, use_path, &def, path, &asset, &k, err);
    if (r != TDN_OK)
        return r;
    const char *reference = NULL;
    float sample_rate = 0.0f;
    if (def) {
        r = tdn_io__json_float(def, "sample_rate", path, 0.0f, &sample_rate, err);
        if (r == TDN_OK)
            r = additive_reference(def, path, &reference, err);
    }
    if (r != TDN_OK)
        return r;
    tdn_clip_desc desc = { .source = tdn_asset_clip(asset, k),
                           .sample_rate = sample_rate,
                           .storage = d->clip_storage,
                           .error_threshold = d->error_threshold,
                           .shell_distance = d->shell_distance };
    tdn_pose rest = { 0 };
    if (reference && strcmp(reference, "rest") == 0) {
        r = tdn_pose_create(tdn_skeleton_joint_count(tdn_asset_skeleton(asset)), &rest, allocator, err);
        if (r == TDN_OK)
            r = tdn_pose_set_rest(&rest, tdn_asset_skeleton(asset), err);
        desc.additive_reference_pose = &rest;
    } else if (reference && strcmp(reference, "first_frame") == 0) {
        desc.additive_reference_first_frame = 1;
    } else if (reference) { /* checked by tdn_io__graph_check_clip_definitions */
        desc.additive_reference_clip = tdn_asset_clip(asset, tdn_asset_find_clip(asset, reference));
    }
    if (r == TDN_OK)
        r = tdn_clip_create(&desc, out, allocator, err);
    /* Keys too uneven for the rate chosen from them (Fox's Run): denser frames until the clip is
     * within tolerance, unless the document set the rate. */
    for (float rate = 60.0f; r == TDN_ERR_TOLERANCE && sample_rate == 0.0f && rate <= 240.0f; rate *= 2.0f) {
        desc.sample_rate = rate;
        r = tdn_clip_create(&desc, out, allocator, err);
    }
    tdn_pose_destroy(&rest);
    if (r == TDN_ERR_TOLERANCE && err) { /* the document's data (or its rate) asks for more than frames hold */
        tdn_error why = *err;
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, def ? path : use_path,
                            "clip \"%.40s\" cannot be resampled within tendon's tolerance %s (%.60s: %.100s)", name,
                            sample_rate > 0.0f ? "at its sample_rate" : "at up to 240 frames/s", why.where,
                            why.message);
    }
    return r == TDN_ERR_TOLERANCE ? TDN_ERR_INVALID_DATA : r;
}
