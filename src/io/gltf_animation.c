/* tendon io glTF: animations as keyed clips.
 *
 * Each animation becomes one keyed clip named after it ("animation_<i>" when unnamed), with
 * the samplers' keys passed as they are: times from t = 0 of the animation (the clip holds the
 * first value before the first key), STEP / LINEAR / CUBICSPLINE exactly as glTF samples them
 * (tendon's keyed clip implements the spec's interpolation, tangents included).
 *   - translation, rotation and scale channels of skeleton nodes become joint tracks;
 *     translations (values and cubic tangents) are multiplied by the import scale; rotations
 *     stored as normalized integers are converted, non-unit ones renormalized by the clip,
 *     zero ones refused;
 *   - "weights" channels (of any node) become float tracks "<node name>.weights[<k>]", one per
 *     morph target;
 *   - channels of nodes outside the skeleton, channels without a target node and paths tendon
 *     does not know (extensions' paths) are ignored.
 * tdn_asset_clip_channel_count gives the animation's channels as the file has them, ignored
 * ones included; the clip lasts until the last key of the tracks it keeps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

enum { PATH_TRANSLATION, PATH_ROTATION, PATH_SCALE, PATH_WEIGHTS, PATH_COUNT };

/* Everything one clip's description points to, freed after the clip is built. */
typedef struct clip_parts {
    tdn_track_desc *tracks;
    int track_count;
    tdn_float_track_desc *floats;
    int float_count, float_capacity;
    void **owned;
    int owned_count, owned_capacity;
} clip_parts;

static void free_parts(clip_parts *p)
{
    for (int i = 0; i < p->owned_count; i++)
        free(p->owned[i]);
    free(p->owned);
    free(p->tracks);
    free(p->floats);
    memset(p, 0, sizeof *p);
}

/* size bytes freed with the parts, or NULL. */
static void *parts_alloc(clip_parts *p, size_t size)
{
    if (p->owned_count == p->owned_capacity) {
        int capacity = p->owned_capacity ? p->owned_capacity * 2 : 16;
        void **grown = realloc(p->owned, sizeof(void *) * (size_t)capacity);
        if (!grown)
            return NULL;
        p->owned = grown;
        p->owned_capacity = capacity;
    }
    void *block = malloc(size ? size : 1);
    if (block)
        p->owned[p->owned_count++] = block;
    return block;
}

typedef struct sampler {
    tdn_interp interp;
    const float *times;
    int key_count;
    int output; /* accessor index */
    char output_where[128];
} sampler;

static tdn_result read_sampler(tdn_gltf__doc *doc, const cJSON *json, const char *where, sampler *out)
{
    int input = -1;
    const char *interpolation = NULL;
    tdn_result r = tdn_gltf__required_index(doc, json, "input", doc->accessors.count, where, &input);
    if (r == TDN_OK)
        r = tdn_gltf__required_index(doc, json, "output", doc->accessors.count, where, &out->output);
    if (r == TDN_OK)
        r = tdn_gltf__string(doc, json, "interpolation", where, &interpolation);
    if (r != TDN_OK)
        return r;
    tdn_gltf__join(out->output_where, where, "output");
    if (!interpolation || strcmp(interpolation, "LINEAR") == 0)
        out->interp = TDN_INTERP_LINEAR;
    else if (strcmp(interpolation, "STEP") == 0)
        out->interp = TDN_INTERP_STEP;
    else if (strcmp(interpolation, "CUBICSPLINE") == 0)
        out->interp = TDN_INTERP_CUBIC;
    else
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, where, "unknown interpolation '%.40s'", interpolation);
    tdn_gltf__path input_where;
    tdn_gltf__join(input_where, where, "input");
    if ((r = tdn_gltf__read_accessor(doc, input, input_where, 1, TDN_GLTF_FLOAT, &out->times, &out->key_count)) !=
        TDN_OK)
        return r;
    for (int k = 0; k < out->key_count; k++) {
        if (out->times[k] < 0.0f || out->times[k] > TDN_IO_MAX_TIME)
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, input_where, "key %d's time %g is not in [0, %g] s", k,
                                  (double)out->times[k], (double)TDN_IO_MAX_TIME);
        if (k > 0 && !(out->times[k] > out->times[k - 1]))
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, input_where,
                                  "key %d's time %g does not follow %g: times must strictly increase", k,
                                  (double)out->times[k], (double)out->times[k - 1]);
    }
    return TDN_OK;
}

/* Morph targets of the node's mesh (its first primitive's), or -1 when it has no mesh. */
static tdn_result mesh_targets(tdn_gltf__doc *doc, int mesh, int *targets)
{
    *targets = -1;
    if (mesh < 0)
        return TDN_OK;
    tdn_gltf__path where;
    snprintf(where, sizeof where, "meshes[%d]", mesh);
    const cJSON *primitives = NULL, *targets_json = NULL;
    tdn_result r = tdn_gltf__array(doc, doc->meshes.items[mesh], "primitives", where, &primitives);
    const cJSON *first = primitives ? primitives->child : NULL;
    if (r == TDN_OK && cJSON_IsObject(first)) {
        snprintf(where, sizeof where, "meshes[%d].primitives[0]", mesh);
        r = tdn_gltf__array(doc, first, "targets", where, &targets_json);
    }
    *targets = targets_json ? cJSON_GetArraySize(targets_json) : 0;
    return r;
}

static tdn_result add_weights(tdn_gltf__doc *doc, const tdn_gltf__node *node, const sampler *s, const float *values,
                              int count, const char *channel_where, clip_parts *parts)
{
    const int per_key = s->interp == TDN_INTERP_CUBIC ? 3 : 1;
    const long long per_target = (long long)s->key_count * per_key;
    const int targets = (int)(count / per_target);
    if (count % per_target != 0)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, s->output_where,
                              "%d weights are not a whole number of morph targets for %d keys%s", count, s->key_count,
                              per_key == 3 ? " of CUBICSPLINE" : "");
    if (targets > TDN_GLTF_MAX_MORPH_TARGETS)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, s->output_where,
                              "%d morph targets; tendon reads at most %d per channel", targets,
                              TDN_GLTF_MAX_MORPH_TARGETS);
    int mesh_target_count;
    tdn_result r = mesh_targets(doc, node->mesh, &mesh_target_count);
    if (r != TDN_OK)
        return r;
    if (mesh_target_count >= 0 && mesh_target_count != targets)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, s->output_where,
                              "%d weights per key but the node's mesh %d has %d morph targets", targets, node->mesh,
                              mesh_target_count);
    if (parts->float_count + targets > parts->float_capacity) {
        int capacity = parts->float_count + targets + 8;
        tdn_float_track_desc *grown = realloc(parts->floats, sizeof *grown * (size_t)capacity);
        if (!grown)
            return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, channel_where, "out of memory");
        parts->floats = grown;
        parts->float_capacity = capacity;
    }
    for (int k = 0; k < targets; k++) {
        /* Output order: per key, (in-tangents of every target, values, out-tangents) for
         * CUBICSPLINE, or the value of every target. */
        char *name = parts_alloc(parts, TDN_MAX_JOINT_NAME + 32);
        float *track = parts_alloc(parts, sizeof(float) * (size_t)per_target);
        if (!name || !track)
            return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, channel_where, "out of memory");
        snprintf(name, TDN_MAX_JOINT_NAME + 32, "%s.weights[%d]", node->name, k);
        for (int key = 0; key < s->key_count; key++)
            for (int part = 0; part < per_key; part++)
                track[key * per_key + part] = values[((size_t)key * per_key + part) * targets + k];
        parts->floats[parts->float_count++] = (tdn_float_track_desc){
            .name = name, .interp = s->interp, .key_count = s->key_count, .times = s->times, .values = track
        };
    }
    return TDN_OK;
}

static tdn_result add_joint_track(tdn_gltf__doc *doc, const tdn_gltf__scene *scene, const tdn_gltf__node *node,
                                  int path, const sampler *s, const float *values, int count, const char *channel_where,
                                  clip_parts *parts)
{
    const int per_key = s->interp == TDN_INTERP_CUBIC ? 3 : 1;
    if ((long long)count != (long long)s->key_count * per_key)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, s->output_where, "%d values for %d keys%s (%lld needed)",
                              count, s->key_count, per_key == 3 ? " of CUBICSPLINE" : "",
                              (long long)s->key_count * per_key);
    if (path == PATH_ROTATION)
        for (int k = 0; k < s->key_count; k++) {
            const float *q = values + ((size_t)k * per_key + (per_key == 3 ? 1 : 0)) * 4;
            double len2 = (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3];
            if (!(len2 > 1e-12))
                return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, s->output_where, "key %d is a zero quaternion", k);
        }
    if (path == PATH_TRANSLATION && scene->scale != 1.0f) {
        float *scaled = parts_alloc(parts, sizeof(float) * (size_t)count * 3);
        if (!scaled)
            return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, channel_where, "out of memory");
        for (size_t i = 0; i < (size_t)count * 3; i++)
            scaled[i] = values[i] * scene->scale;
        values = scaled;
    }
    static const tdn_track_target targets[] = { TDN_TARGET_TRANSLATION, TDN_TARGET_ROTATION, TDN_TARGET_SCALE };
    parts->tracks[parts->track_count++] = (tdn_track_desc){ .joint = node->joint,
                                                            .target = targets[path],
                                                            .interp = s->interp,
                                                            .key_count = s->key_count,
                                                            .times = s->times,
                                                            .values = values };
    return TDN_OK;
}

static int path_of(const char *name)
{
    static const char *const names[PATH_COUNT] = { "translation", "rotation", "scale", "weights" };
    for (int p = 0; p < PATH_COUNT; p++)
        if (strcmp(name, names[p]) == 0)
            return p;
    return -1;
}

typedef struct animation_scratch {
    const cJSON **samplers;
    int *target_used; /* per node and path: 1 + the last animation that animated it */
} animation_scratch;

static tdn_result read_channel(tdn_gltf__doc *doc, const tdn_gltf__scene *scene, int a, const char *animation_where,
                               int c, const cJSON *channel, int sampler_count, animation_scratch *scratch,
                               clip_parts *parts)
{
    tdn_gltf__path where, target_where, sampler_where;
    tdn_gltf__item(where, animation_where, "channels", c);
    tdn_gltf__join(target_where, where, "target");
    if (!cJSON_IsObject(channel))
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "must be a JSON object");
    int sampler_index = -1, node_index = -1;
    const cJSON *target = NULL;
    const char *path_name = NULL;
    tdn_result r = tdn_gltf__required_index(doc, channel, "sampler", sampler_count, where, &sampler_index);
    if (r == TDN_OK)
        r = tdn_gltf__object(doc, channel, "target", where, &target);
    if (r == TDN_OK && !target)
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, target_where, "the required 'target' is missing");
    if (r == TDN_OK)
        r = tdn_gltf__index(doc, target, "node", scene->node_count, target_where, &node_index);
    if (r == TDN_OK)
        r = tdn_gltf__string(doc, target, "path", target_where, &path_name);
    if (r == TDN_OK && !path_name)
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, target_where, "the required 'path' is missing");
    if (r != TDN_OK)
        return r;
    const int path = path_of(path_name);
    if (node_index < 0 || path < 0)
        return TDN_OK; /* a target tendon does not read (an extension's) */
    const tdn_gltf__node *node = &scene->nodes[node_index];
    int *used = &scratch->target_used[(size_t)node_index * PATH_COUNT + (size_t)path];
    if (*used == a + 1)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, target_where,
                              "node %d's %s is already animated by another channel of this animation", node_index,
                              path_name);
    *used = a + 1;
    if (path != PATH_WEIGHTS && node->has_matrix)
        return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, target_where,
                              "node %d has a matrix; only nodes with translation/rotation/scale may be animated",
                              node_index);
    if (path != PATH_WEIGHTS && node->joint < 0)
        return TDN_OK; /* outside the skeleton */

    tdn_gltf__item(sampler_where, animation_where, "samplers", sampler_index);
    sampler s;
    if ((r = read_sampler(doc, scratch->samplers[sampler_index], sampler_where, &s)) != TDN_OK)
        return r;
    static const int components[PATH_COUNT] = { 3, 4, 3, 1 };
    static const unsigned formats[PATH_COUNT] = {
        TDN_GLTF_FLOAT,
        TDN_GLTF_FLOAT | TDN_GLTF_BYTE_NORM | TDN_GLTF_SHORT_NORM,
        TDN_GLTF_FLOAT,
        TDN_GLTF_FLOAT | TDN_GLTF_BYTE_NORM | TDN_GLTF_UBYTE_NORM | TDN_GLTF_SHORT_NORM | TDN_GLTF_USHORT_NORM,
    };
    const float *values = NULL;
    int count = 0;
    if ((r = tdn_gltf__read_accessor(doc, s.output, s.output_where, components[path], formats[path], &values,
                                     &count)) != TDN_OK)
        return r;
    /* tangents too: every value of a translation, scale or weights output (rotations are unit) */
    static const float limits[PATH_COUNT] = { TDN_IO_MAX_LENGTH, 0.0f, TDN_IO_MAX_SCALE, TDN_IO_MAX_VALUE };
    for (size_t i = 0; path != PATH_ROTATION && i < (size_t)count * (size_t)components[path]; i++)
        if (!tdn_io__within(values[i], limits[path]))
            return tdn_gltf__fail(doc, TDN_ERR_INVALID_DATA, s.output_where,
                                  "element %zu component %zu (%g) is beyond +-%g, the largest %s tendon reads",
                                  i / (size_t)components[path], i % (size_t)components[path], (double)values[i],
                                  (double)limits[path], path_name);
    if (path == PATH_WEIGHTS)
        return add_weights(doc, node, &s, values, count, where, parts);
    return add_joint_track(doc, scene, node, path, &s, values, count, where, parts);
}

static tdn_result build_clip(tdn_gltf__doc *doc, const tdn_gltf__scene *scene, tdn_asset *asset, int a,
                             animation_scratch *scratch)
{
    tdn_gltf__path where, sampler_where;
    tdn_gltf__item(where, "", "animations", a);
    const cJSON *json = doc->animations.items[a], *channels = NULL, *samplers = NULL, *item;
    const char *name = NULL;
    tdn_result r = tdn_gltf__string(doc, json, "name", where, &name);
    if (r == TDN_OK)
        r = tdn_gltf__array(doc, json, "channels", where, &channels);
    if (r == TDN_OK)
        r = tdn_gltf__array(doc, json, "samplers", where, &samplers);
    if (r == TDN_OK && (!channels || !samplers))
        return tdn_gltf__fail(doc, TDN_ERR_PARSE, where, "an animation needs 'channels' and 'samplers'");
    if (r != TDN_OK)
        return r;
    int sampler_count = 0, channel_count = 0;
    cJSON_ArrayForEach(item, samplers)
    {
        if (!cJSON_IsObject(item)) {
            tdn_gltf__item(sampler_where, where, "samplers", sampler_count);
            return tdn_gltf__fail(doc, TDN_ERR_PARSE, sampler_where, "must be a JSON object");
        }
        sampler_count++;
    }
    cJSON_ArrayForEach(item, channels) channel_count++;
    clip_parts parts = { 0 };
    scratch->samplers = malloc(sizeof(cJSON *) * (size_t)(sampler_count + 1));
    parts.tracks = malloc(sizeof(tdn_track_desc) * (size_t)(channel_count + 1));
    if (!scratch->samplers || !parts.tracks) {
        free(scratch->samplers);
        free_parts(&parts);
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, where, "out of memory");
    }
    int i = 0;
    cJSON_ArrayForEach(item, samplers) scratch->samplers[i++] = item;
    i = 0;
    cJSON_ArrayForEach(item, channels)
    {
        if ((r = read_channel(doc, scene, a, where, i++, item, sampler_count, scratch, &parts)) != TDN_OK)
            break;
    }
    if (r == TDN_OK) {
        char fallback[32];
        snprintf(fallback, sizeof fallback, "animation_%d", a);
        tdn_keyed_clip_desc desc = { .name = name && *name ? name : fallback,
                                     .skeleton = asset->skeleton,
                                     .tracks = parts.tracks,
                                     .track_count = parts.track_count,
                                     .float_tracks = parts.floats,
                                     .float_track_count = parts.float_count };
        r = tdn_keyed_clip_create(&desc, &asset->clips[a], &asset->allocator, doc->err);
    }
    if (r == TDN_OK) {
        asset->clip_channels[a] = channel_count;
        asset->clip_count = a + 1;
    }
    free(scratch->samplers);
    scratch->samplers = NULL;
    free_parts(&parts);
    return r;
}

tdn_result tdn_gltf__build_clips(tdn_gltf__doc *doc, const tdn_gltf__scene *scene, tdn_asset *asset)
{
    const int n = doc->animations.count;
    asset->clips = tdn_io__asset_alloc(asset, sizeof(tdn_keyed_clip *) * (size_t)(n + 1));
    asset->clip_channels = tdn_io__asset_alloc(asset, sizeof(int) * (size_t)(n + 1));
    animation_scratch scratch = { NULL, calloc((size_t)scene->node_count * PATH_COUNT + 1, sizeof(int)) };
    if (!asset->clips || !asset->clip_channels || !scratch.target_used) {
        free(scratch.target_used);
        return tdn_gltf__fail(doc, TDN_ERR_OUT_OF_MEMORY, "animations", "out of memory");
    }
    tdn_result r = TDN_OK;
    for (int a = 0; a < n && r == TDN_OK; a++)
        r = build_clip(doc, scene, asset, a, &scratch);
    free(scratch.target_used);
    return r;
}
