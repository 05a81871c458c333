/* tendon io: blend space files (tdn_blend_space_file_load), and blend spaces from JSON.
 *
 * The JSON is checked here, where its paths are known: types, required fields, the mode's
 * name, the number of coordinates, the float range. What only the blend space itself can judge
 * (duplicate points, degenerate layouts) is left to tdn_blend_space_create, whose error is passed
 * on with the JSON path in front. */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset_internal.h"
#include "blend_space_file_internal.h"
#include "file.h"
#include "json_reader.h"

struct tdn_blend_space_file {
    tdn_allocator allocator;
    size_t bytes; /* of this block: the struct, the name pointers and the names */
    tdn_blend_space *space;
    int sample_count;
    char **clips;
};

/* The number of coordinates a mode takes; 0: any from 1 to TDN_MAX_BLEND_SPACE_DIMENSIONS. */
static int mode_dimensions(tdn_blend_space_mode mode)
{
    switch (mode) {
    case TDN_BLEND_SPACE_LINEAR:
        return 1;
    case TDN_BLEND_SPACE_POLAR_GRADIENT_BAND:
    case TDN_BLEND_SPACE_BARYCENTRIC:
    case TDN_BLEND_SPACE_GRID:
        return 2;
    default:
        return 0;
    }
}

static tdn_result read_mode(const cJSON *node, const char *path, tdn_blend_space_mode *mode, tdn_error *err)
{
    tdn_io__path where;
    tdn_io__json_join(where, path, "mode");
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(node, "mode");
    if (!value)
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "the required 'mode' is missing");
    if (!cJSON_IsString(value) || !value->valuestring)
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "must be a string");
    int m = tdn_blend_space_mode_from_name(value->valuestring);
    if (m < 0) {
        char valid[160] = "";
        size_t at = 0;
        for (int i = TDN_BLEND_SPACE_LINEAR; i <= TDN_BLEND_SPACE_RBF; i++)
            at += (size_t)snprintf(valid + at, sizeof valid - at, "%s%s", i ? ", " : "",
                                   tdn_blend_space_mode_name((tdn_blend_space_mode)i));
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "unknown mode '%.40s' (valid: %s)", value->valuestring,
                            valid);
    }
    *mode = (tdn_blend_space_mode)m;
    return TDN_OK;
}

/* Reads samples[index].at into point; *dimensions is set by the first sample and checked
 * against by the others. */
static tdn_result read_point(const cJSON *sample, const char *sample_path, int index, tdn_blend_space_mode mode,
                             int *dimensions, float *point, tdn_error *err)
{
    tdn_io__path where;
    tdn_io__json_join(where, sample_path, "at");
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(sample, "at");
    if (!at)
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "the required 'at' (the sample's point) is missing");
    if (!cJSON_IsArray(at))
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "must be an array of numbers");
    const int n = cJSON_GetArraySize(at);
    const int wanted = mode_dimensions(mode);
    const char *mode_name = tdn_blend_space_mode_name(mode);
    if (index == 0) {
        if (wanted && n != wanted)
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "has %d coordinates; a %s space takes %d", n,
                                mode_name, wanted);
        if (n < 1 || n > TDN_MAX_BLEND_SPACE_DIMENSIONS)
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "has %d coordinates; a %s space takes 1 to %d", n,
                                mode_name, TDN_MAX_BLEND_SPACE_DIMENSIONS);
        *dimensions = n;
    } else if (n != *dimensions) {
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where,
                            "has %d coordinates but the first sample's has %d (every sample's must have as many)", n,
                            *dimensions);
    }
    int i = 0;
    const cJSON *value;
    cJSON_ArrayForEach(value, at)
    {
        tdn_io__path coordinate;
        tdn_io__json_item(coordinate, where, i);
        if (!cJSON_IsNumber(value))
            return tdn_io__fail(err, TDN_ERR_PARSE, coordinate, "must be a number");
        /* judged as the float it becomes (only converted once it is known to fit one) */
        const double v = value->valuedouble;
        const float f = fabs(v) <= (double)FLT_MAX ? (float)v : INFINITY;
        if (!(fabsf(f) <= TDN_BLEND_SPACE_MAX_COORDINATE))
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, coordinate,
                                "%.6g is beyond the largest coordinate a blend space takes (%g either way)", v,
                                (double)TDN_BLEND_SPACE_MAX_COORDINATE);
        point[i++] = f;
    }
    return TDN_OK;
}

/* `where` for an error of tdn_blend_space_create: the core names samples as "samples[3]"
 * (both, for a duplicate): each gets the JSON path in front. */
static void core_where(tdn_io__path out, const char *path, const char *core)
{
    size_t at = 0;
    const size_t room = sizeof(tdn_io__path) - 1;
    if (!strstr(core, "samples[")) { /* not a sample: the node and the core's place */
        at = tdn_io__json_append(out, 0, path);
        if (core[0])
            tdn_io__json_append(out, tdn_io__json_append(out, tdn_io__json_append(out, at, at ? " (" : ""), core),
                                at ? ")" : "");
        return;
    }
    for (size_t i = 0; core[i] && at < room; i++) {
        const int starts = strncmp(core + i, "samples[", 8) == 0 &&
                           (i == 0 ||
                            !(isalnum((unsigned char)core[i - 1]) || core[i - 1] == '_' || core[i - 1] == '.'));
        for (size_t k = 0; starts && path[0] && k <= strlen(path) && at < room; k++)
            out[at++] = path[k] ? path[k] : '.';
        if (at < room)
            out[at++] = core[i];
    }
    out[at] = '\0';
}

/* One block for the struct, the name pointers and the names. */
static tdn_result make_file(const tdn_allocator *allocator, const cJSON *const *names, int count, const char *path,
                            tdn_blend_space_file **out, tdn_error *err)
{
    size_t bytes = sizeof(tdn_blend_space_file) + sizeof(char *) * (size_t)count;
    for (int i = 0; i < count; i++)
        bytes += strlen(names[i]->valuestring) + 1;
    tdn_blend_space_file *f = tdn_io__alloc(allocator, bytes);
    if (!f)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, path, "out of memory for %zu bytes", bytes);
    memset(f, 0, sizeof *f);
    f->allocator = *allocator;
    f->bytes = bytes;
    f->sample_count = count;
    f->clips = (char **)(void *)(f + 1);
    char *text = (char *)(f->clips + count);
    for (int i = 0; i < count; i++) {
        size_t n = strlen(names[i]->valuestring) + 1;
        memcpy(text, names[i]->valuestring, n);
        f->clips[i] = text;
        text += n;
    }
    *out = f;
    return TDN_OK;
}

tdn_result tdn_io__blend_space_from_json(const cJSON *node, const char *path, const tdn_allocator *allocator,
                                         tdn_blend_space_file **out, tdn_error *err)
{
    if (!out)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "out", "is NULL");
    *out = NULL;
    if (!path)
        path = "";
    const tdn_allocator hooks = allocator ? *allocator : (tdn_allocator){ 0 }; /* checked by the caller */
    if (!cJSON_IsObject(node))
        return tdn_io__fail(err, TDN_ERR_PARSE, path[0] ? path : "byte 0", "a blend space must be a JSON object");

    tdn_blend_space_mode mode = TDN_BLEND_SPACE_LINEAR;
    tdn_result r = read_mode(node, path, &mode, err);
    if (r != TDN_OK)
        return r;

    tdn_io__path samples_path;
    tdn_io__json_join(samples_path, path, "samples");
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(node, "samples");
    if (!samples)
        return tdn_io__fail(err, TDN_ERR_PARSE, samples_path, "the required 'samples' is missing");
    if (!cJSON_IsArray(samples))
        return tdn_io__fail(err, TDN_ERR_PARSE, samples_path, "must be an array of {\"clip\", \"at\"} objects");
    const int count = cJSON_GetArraySize(samples);
    if (count < 1)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, samples_path, "a blend space needs at least one sample");
    if (count > TDN_MAX_BLEND_SPACE_SAMPLES)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, samples_path, "%d samples; a blend space holds at most %d",
                            count, TDN_MAX_BLEND_SPACE_SAMPLES);

    /* Sample i's point goes at i * dimensions (the first sample sets dimensions, at offset 0). */
    float coords[TDN_MAX_BLEND_SPACE_SAMPLES * TDN_MAX_BLEND_SPACE_DIMENSIONS];
    const cJSON *names[TDN_MAX_BLEND_SPACE_SAMPLES];
    int dimensions = 0, i = 0;
    const cJSON *sample;
    cJSON_ArrayForEach(sample, samples)
    {
        tdn_io__path sample_path, where;
        tdn_io__json_item(sample_path, samples_path, i);
        if (!cJSON_IsObject(sample))
            return tdn_io__fail(err, TDN_ERR_PARSE, sample_path,
                                "must be an object {\"clip\": NAME, \"at\": [x, ...]}");
        tdn_io__json_join(where, sample_path, "clip");
        const cJSON *clip = cJSON_GetObjectItemCaseSensitive(sample, "clip");
        if (!clip)
            return tdn_io__fail(err, TDN_ERR_PARSE, where, "the required 'clip' (the sample's clip name) is missing");
        if (!cJSON_IsString(clip) || !clip->valuestring)
            return tdn_io__fail(err, TDN_ERR_PARSE, where, "must be a string (a clip name)");
        if (!clip->valuestring[0])
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "a clip name must not be empty");
        names[i] = clip;
        r = read_point(sample, sample_path, i, mode, &dimensions, coords + (size_t)i * (size_t)dimensions, err);
        if (r != TDN_OK)
            return r;
        i++;
    }

    tdn_blend_space_file *f = NULL;
    r = make_file(&hooks, names, count, path, &f, err);
    if (r != TDN_OK)
        return r;
    tdn_blend_space_desc desc = { 0 };
    desc.mode = mode;
    desc.dimensions = dimensions;
    desc.sample_count = count;
    desc.points = coords;
    tdn_error core = { 0 };
    r = tdn_blend_space_create(&desc, &f->space, &hooks, &core);
    if (r != TDN_OK) {
        tdn_blend_space_file_destroy(f);
        tdn_io__path where;
        core_where(where, path, core.where);
        return tdn_io__fail(err, r, where, "%s", core.message[0] ? core.message : tdn_result_name(r));
    }
    *out = f;
    return TDN_OK;
}

/* ---- documents ---- */

tdn_result tdn_blend_space_file_load_memory(const char *json, size_t size, tdn_blend_space_file **out,
                                            const tdn_allocator *allocator, tdn_error *err)
{
    if (!out)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "out", "is NULL");
    *out = NULL;
    if (!json && size > 0)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "json", "is NULL with a size above 0");
    if (tdn_io__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    cJSON *doc = NULL;
    tdn_result r = tdn_io__json_parse_object(json, size, "{\"blend_space\": {...}}", &doc, err);
    if (r == TDN_OK) {
        const cJSON *space = cJSON_GetObjectItemCaseSensitive(doc, "blend_space");
        if (!space)
            r = tdn_io__fail(err, TDN_ERR_PARSE, "blend_space", "the required 'blend_space' object is missing");
        else
            r = tdn_io__blend_space_from_json(space, "blend_space", allocator, out, err);
    }
    cJSON_Delete(doc);
    return r;
}

tdn_result tdn_blend_space_file_load(const char *path, const tdn_blend_space_file_load_options *options,
                                     tdn_blend_space_file **out, const tdn_allocator *allocator, tdn_error *err)
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
        return r;
    r = tdn_blend_space_file_load_memory(file.data, file.size, out, allocator, err);
    tdn_io__free_file(&file);
    if (r != TDN_OK)
        tdn_io__where_in(err, path, NULL);
    return r;
}

void tdn_blend_space_file_destroy(tdn_blend_space_file *f)
{
    if (!f)
        return;
    tdn_blend_space_destroy(f->space);
    tdn_allocator allocator = f->allocator;
    tdn_io__free(&allocator, f, f->bytes);
}

const tdn_blend_space *tdn_blend_space_file_space(const tdn_blend_space_file *f) { return f ? f->space : NULL; }

const char *tdn_blend_space_file_clip_name(const tdn_blend_space_file *f, int sample)
{
    if (!f || sample < 0 || sample >= f->sample_count)
        return NULL;
    return f->clips[sample];
}
