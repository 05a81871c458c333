/* tendon io: a graph document's "retarget", the character its graph drives:
 *
 *   "retarget": {"to": {"file": "Soldier.glb", "skin": "vanguard", "scale": 1}, "scale": 0}
 *
 * "to" is a character as "character" is (a file below the document's folder, or tendon's
 * generated humanoid). Both skeletons' body maps are found on their rest poses
 * (tdn_body_map_find), the reference poses built from those (tdn_retarget_reference_pose) with
 * the hips moved over the origin, and "scale" is the retarget's (0, the default: the ratio of
 * the two leg lengths). */
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

/* A character's reference pose (tdn_retarget_reference_pose of its rest pose) with its hips
 * moved over the model's origin. A graph's pose stands in the character's frame, the ground
 * under the character at the origin, and tdn_retarget_pose moves the target's hips by the
 * source's offset from its reference: references over the origin make one character's frame
 * the other's (a take's rest pose stands anywhere: LAFAN1's hips rest 4.4 m from the origin, where
 * the actor stood, and the target would stand that far from where its root motion puts it). */
static tdn_result reference_over_origin(const tdn_skeleton *skel, const tdn_body_map *map, tdn_pose *out,
                                        tdn_error *err)
{
    tdn_result r = tdn_retarget_reference_pose(skel, map, NULL, out, err);
    if (r != TDN_OK)
        return r;
    const int hips = tdn_body_map_joint(map, TDN_BODY_PART_HIPS);
    tdn_transform parent = tdn_transform_identity();
    for (int a = tdn_skeleton_parent(skel, hips); a >= 0; a = tdn_skeleton_parent(skel, a)) {
        const tdn_transform local = tdn_pose_get(out, a);
        parent = tdn_transform_mul(&local, &parent);
    }
    tdn_transform local = tdn_pose_get(out, hips);
    tdn_vec3 model = tdn_transform_point(&parent, local.t);
    model.x = model.z = 0.0f;
    const tdn_transform inverse = tdn_transform_inverse(&parent);
    local.t = tdn_transform_point(&inverse, model);
    tdn_pose_set(out, hips, &local);
    return TDN_OK;
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
    const tdn_skeleton *skeletons[2] = { tdn_asset_skeleton(d->asset), tdn_asset_skeleton(d->target) };
    tdn_pose references[2] = { { 0 }, { 0 } }; /* while loading: malloc'ed */
    for (int k = 0; k < 2 && r == TDN_OK; k++) {
        r = tdn_pose_create(tdn_skeleton_joint_count(skeletons[k]), &references[k], NULL, err);
        if (r == TDN_OK)
            r = reference_over_origin(skeletons[k], &maps[k], &references[k], err);
    }
    const tdn_retarget_desc desc = {
        .source = { .skeleton = skeletons[0], .map = &maps[0], .reference = &references[0] },
        .target = { .skeleton = skeletons[1], .map = &maps[1], .reference = &references[1] },
        .scale = scale
    };
    if (r == TDN_OK)
        r = tdn_retarget_create(&desc, &d->retarget, &d->allocator, err);
    if (r != TDN_OK && err && strcmp(err->where, "desc.scale") == 0) /* legs of no length: the JSON field */
        snprintf(err->where, sizeof err->where, "retarget.scale");
    tdn_pose_destroy(&references[0]);
    tdn_pose_destroy(&references[1]);
    return r;
}
