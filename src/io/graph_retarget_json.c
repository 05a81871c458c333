/* tendon io: a graph document's "retarget", the character its graph drives:
 *
 *   "retarget": {"to": {"file": "Soldier.glb", "skin": "vanguard", "scale": 1}, "scale": 0}
 *
 * "to" is a character as "character" is (a file below the document's folder, or tendon's
 * generated humanoid). Both skeletons' body maps are found on their rest poses
 * (tdn_body_map_find), the reference poses built from those (tdn_retarget_reference_pose), and
 * "scale" is the retarget's (0, the default: the ratio of the two leg lengths). */
#include <stdio.h>
#include <string.h>

#include "fail.h"
#include "graph_document_internal.h"

static const char *const retarget_keys[] = { "to", "scale", NULL };

/* The body map of a character's skeleton; a skeleton that is no humanoid is an error at the
 * character's field and file, then the joint the body map names. */
static tdn_result find_map(const tdn_asset *asset, const cJSON *character, const char *path, tdn_body_map *map,
                           tdn_error *err)
{
    tdn_result r = tdn_body_map_find(tdn_asset_skeleton(asset), NULL, map, err);
    if (r == TDN_OK || !err)
        return r;
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(character, "file");
    char field[64], message[sizeof err->message];
    snprintf(field, sizeof field, "%s%s", path, cJSON_IsString(file) ? ".file" : "");
    tdn_io__where_in(err, field, cJSON_IsString(file) ? file->valuestring : NULL);
    snprintf(message, sizeof message, "for \"retarget\": %.200s", err->message);
    memcpy(err->message, message, sizeof message);
    return r;
}

tdn_result tdn_io__graph_read_retarget(const cJSON *doc, const char *base_dir, tdn_graph_document *d, tdn_error *err)
{
    const cJSON *json = cJSON_GetObjectItemCaseSensitive(doc, "retarget");
    if (!json)
        return TDN_OK;
    if (!cJSON_IsObject(json))
        return tdn_io__fail(err, TDN_ERR_PARSE, "retarget", "an object is needed: {\"to\": {\"file\": ...}}");
    float scale = 0.0f, file_scale;
    tdn_result r = tdn_io__json_known_keys(json, "retarget", retarget_keys, err);
    if (r == TDN_OK)
        r = tdn_io__json_float(json, "scale", "retarget", 0.0f, &scale, err);
    if (r == TDN_OK && scale < 0.0f)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, "retarget.scale",
                            "%g: a target length per source length is needed (0: the ratio of the leg lengths)",
                            (double)scale);
    const cJSON *to = cJSON_GetObjectItemCaseSensitive(json, "to");
    if (r == TDN_OK)
        r = tdn_io__graph_read_character(to, "retarget.to", base_dir, d, &d->target, &file_scale, err);
    tdn_body_map maps[2];
    if (r == TDN_OK)
        r = find_map(d->asset, cJSON_GetObjectItemCaseSensitive(doc, "character"), "character", &maps[0], err);
    if (r == TDN_OK)
        r = find_map(d->target, to, "retarget.to", &maps[1], err);
    if (r != TDN_OK)
        return r;
    const tdn_retarget_desc desc = { { tdn_asset_skeleton(d->asset), &maps[0], NULL },
                                     { tdn_asset_skeleton(d->target), &maps[1], NULL },
                                     scale };
    r = tdn_retarget_create(&desc, &d->retarget, &d->allocator, err);
    if (r != TDN_OK && err && strcmp(err->where, "desc.scale") == 0) /* legs of no length: the JSON field */
        snprintf(err->where, sizeof err->where, "retarget.scale");
    return r;
}
