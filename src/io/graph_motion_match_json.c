/* tendon io: a graph document's motion-matching nodes:
 *
 *   {"type": "motion_match", "database": "locomotion.tdnmm",
 *    "clips": ["idle", "walk_forward", ...], "velocity": "move", "facing": "turn",
 *    "search_interval": 0.1, "bias": 0.05, "inertialize_time": 0.2, "curve": "quintic",
 *    "velocity_half_life": 0.2, "facing_half_life": 0.2, "adjust_half_life": 0.15,
 *    "sharp_velocity": 1, "sharp_facing": 0.5}
 *
 * The database is a file of `tendon mm build` (relative to the document), loaded once however
 * many nodes name it; the clips are the ones it was built from, in its order, named as clip
 * nodes name theirs (the document's "clips" or the character's own). The document keeps the
 * databases; the keyed clips belong to the character or to the clip files. In a document from a
 * pack, the database is the pack's of the path's file name and each clip the pack's clip of that
 * name keyed at its frames (as a pack read as an asset keys it), which the document keeps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset_internal.h"
#include "file.h"
#include "graph_document_internal.h"
#include "json_hint.h"
#include "tendon/mirror.h"
#include "tendon/io/mm_database_file.h"

static const char *const mm_keys[] = {
    "type",           "database",         "clips", "velocity",           "facing",           "search_interval",
    "bias",           "inertialize_time", "curve", "velocity_half_life", "facing_half_life", "adjust_half_life",
    "sharp_velocity", "sharp_facing",     NULL
};
static const char *const curves[] = { "quintic", "spring", NULL };

const char *tdn_io__graph_database_name(const char *path)
{
    const char *name = path;
    for (const char *c = path; *c; c++)
        if (*c == '/' || *c == '\\')
            name = c + 1;
    return name;
}

/* The database `file` names: the file (relative to the document's folder) or, in a document from
 * a pack, the pack's database of its file name, which must be of the document's skeleton. */
static tdn_result read_database(const tdn_io__graph_build *b, const char *file, const char *where,
                                tdn_mm_database **out, tdn_error *err)
{
    const tdn_pack *pack = b->document->pack;
    if (pack) {
        const char *name = tdn_io__graph_database_name(file);
        const int i = tdn_pack_find_database(pack, name);
        if (i < 0)
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "the pack has no database named \"%.60s\"", name);
        if (tdn_pack_skeleton(pack, tdn_pack_database_skeleton(pack, i)) != b->skeleton)
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where,
                                "the pack's database \"%.60s\" was built on skeleton %d, not the graph's", name,
                                tdn_pack_database_skeleton(pack, i));
        return tdn_pack_database_load(pack, i, out, b->allocator, err);
    }
    tdn_io__file bytes;
    tdn_result r = tdn_io__read_named(b->document->file_access, b->base_dir, file, "the document's", b->allocator,
                                      &bytes, NULL, err);
    if (r == TDN_OK) {
        r = tdn_mm_database_load_memory(bytes.data, bytes.size, out, b->allocator, err);
        tdn_io__free_file(&bytes);
    }
    if (r != TDN_OK) /* the field and the file first, then the file's own place */
        tdn_io__where_in(err, where, file);
    return r;
}

/* The database `file` names, loaded once per document. */
static tdn_result load_database(tdn_io__graph_build *b, const char *file, const char *where,
                                const tdn_mm_database **out, tdn_error *err)
{
    for (int k = 0; k < b->database_count; k++)
        if (strcmp(b->database_paths[k], file) == 0) {
            *out = b->databases[k];
            return TDN_OK;
        }
    if (b->database_count == TDN_IO_MAX_MM_NODES)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "databases from more than %d files", TDN_IO_MAX_MM_NODES);
    if (strlen(file) >= sizeof b->database_paths[0])
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "the path is too long");
    tdn_mm_database *db = NULL;
    const tdn_result r = read_database(b, file, where, &db, err);
    if (r != TDN_OK)
        return r;
    memcpy(b->database_paths[b->database_count], file, strlen(file) + 1);
    b->databases[b->database_count++] = db;
    *out = db;
    return TDN_OK;
}

void tdn_io__graph_free_mm_clips(tdn_graph_document *d)
{
    for (int k = 0; k < d->mm_clip_count; k++) {
        tdn_io__free(&d->allocator, d->mm_clips[k].name, strlen(d->mm_clips[k].name) + 1);
        tdn_keyed_clip_destroy(d->mm_clips[k].owned);
    }
    tdn_io__free(&d->allocator, d->mm_clips, sizeof *d->mm_clips * (size_t)d->mm_clip_capacity);
    d->mm_clips = NULL;
    d->mm_clip_count = d->mm_clip_capacity = 0;
}

/* The keyed clip the document calls `name` (its JSON path `where`), found or made once per
 * document and listed in its motion_match clips. */
static tdn_result mm_clip(tdn_io__graph_build *b, const char *name, const char *where, const tdn_keyed_clip **out,
                          tdn_error *err)
{
    tdn_graph_document *d = b->document;
    for (int k = 0; k < d->mm_clip_count; k++)
        if (strcmp(d->mm_clips[k].name, name) == 0) {
            *out = d->mm_clips[k].clip;
            return TDN_OK;
        }
    if (d->mm_clip_count == d->mm_clip_capacity) {
        const int capacity = d->mm_clip_capacity ? 2 * d->mm_clip_capacity : 8;
        tdn_io__mm_clip *bigger = tdn_io__alloc(&d->allocator, sizeof *bigger * (size_t)capacity);
        if (!bigger)
            return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, where, "out of memory");
        if (d->mm_clip_count)
            memcpy(bigger, d->mm_clips, sizeof *bigger * (size_t)d->mm_clip_count);
        tdn_io__free(&d->allocator, d->mm_clips, sizeof *d->mm_clips * (size_t)d->mm_clip_capacity);
        d->mm_clips = bigger;
        d->mm_clip_capacity = capacity;
    }
    tdn_io__mm_clip entry = { NULL, NULL, NULL };
    tdn_result r = TDN_OK;
    if (d->pack) {
        const tdn_clip *packed = NULL;
        r = tdn_io__graph_pack_clip(d, name, where, &packed, NULL, err);
        if (r == TDN_OK)
            r = tdn_io__keyed_clip_from_packed(packed, name, b->skeleton, &d->allocator, &entry.owned, err);
        entry.clip = entry.owned;
    } else {
        r = tdn_io__graph_keyed_clip(b->doc, d, b->base_dir, name, where, &entry.clip, err);
    }
    const size_t n = strlen(name) + 1;
    if (r == TDN_OK && !(entry.name = tdn_io__alloc(&d->allocator, n)))
        r = tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, where, "out of memory");
    if (r != TDN_OK) {
        tdn_keyed_clip_destroy(entry.owned);
        return r;
    }
    memcpy(entry.name, name, n);
    d->mm_clips[d->mm_clip_count++] = entry;
    *out = entry.clip;
    return TDN_OK;
}

/* A parameter name field: declared in "parameters" with the type `type` ("vec2", "float"). */
static tdn_result read_param(tdn_io__graph_build *b, const cJSON *json, const char *key, const char *path, int required,
                             const char *type, const char **out, tdn_error *err)
{
    tdn_result r = tdn_io__json_string(json, key, path, required, out, err);
    if (r != TDN_OK || !*out)
        return r;
    tdn_io__path where;
    tdn_io__json_join(where, path, key);
    if (!tdn_io__graph_has_param(b, *out))
        return tdn_io__graph_no_param(b, *out, where, err);
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(b->doc, "parameters"))
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(p, "name"),
                    *t = cJSON_GetObjectItemCaseSensitive(p, "type");
        const char *declared = cJSON_IsString(t) ? t->valuestring : "float";
        if (cJSON_IsString(name) && strcmp(name->valuestring, *out) == 0 && strcmp(declared, type) != 0)
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "\"%.60s\" is a %.10s parameter; the %s is a %s",
                                *out, declared, key, type);
    }
    return TDN_OK;
}

/* "clips": the database's clips in its order, each found as clip nodes' clips are. */
static tdn_result read_clips(tdn_io__graph_build *b, const cJSON *json, const char *path, const tdn_mm_database *db,
                             tdn_mm_controller_desc *d, tdn_error *err)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(json, "clips");
    tdn_io__path where;
    tdn_io__json_join(where, path, "clips");
    const int want = tdn_mm_database_clip_count(db), n = cJSON_GetArraySize(list);
    if (!cJSON_IsArray(list))
        return tdn_io__fail(err, TDN_ERR_PARSE, where,
                            list ? "an array of clip names is needed"
                                 : "the required clips (the database's, in its order) are missing");
    if (n != want)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where,
                            "%d clip%s for a database built from %d (its clips, in "
                            "its order)",
                            n, n == 1 ? "" : "s", want);
    const tdn_keyed_clip **clips = calloc((size_t)n + 1, sizeof *clips);
    if (!clips)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, where, "out of memory");
    b->mm_clips[b->mm_count] = clips;
    for (int k = 0; k < n; k++) {
        const cJSON *item = cJSON_GetArrayItem(list, k);
        tdn_io__path at;
        tdn_io__json_item(at, where, k);
        if (!cJSON_IsString(item))
            return tdn_io__fail(err, TDN_ERR_PARSE, at, "a clip name is needed");
        tdn_result r = mm_clip(b, item->valuestring, at, &clips[k], err);
        if (r != TDN_OK)
            return r;
    }
    d->clips = clips;
    d->clip_count = n;
    return TDN_OK;
}

/* The settings: numbers >= 0 (adjust_half_life may be negative: never pull) and the curve. */
static tdn_result read_settings(const cJSON *json, const char *path, tdn_mm_controller_desc *d, tdn_error *err)
{
    static const char *const keys[] = { "search_interval",  "bias",           "inertialize_time", "velocity_half_life",
                                        "facing_half_life", "sharp_velocity", "sharp_facing",     "adjust_half_life" };
    float *fields[] = { &d->search_interval,  &d->bias,           &d->inertialize_time, &d->velocity_half_life,
                        &d->facing_half_life, &d->sharp_velocity, &d->sharp_facing,     &d->adjust_half_life };
    tdn_result r = TDN_OK;
    for (int k = 0; k < 8 && r == TDN_OK; k++) {
        r = tdn_io__json_float(json, keys[k], path, 0.0f, fields[k], err);
        if (r == TDN_OK && *fields[k] < 0.0f && k < 7) {
            tdn_io__path where;
            tdn_io__json_join(where, path, keys[k]);
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "a number >= 0 is needed (0: the default)");
        }
    }
    const char *curve = NULL;
    if (r == TDN_OK)
        r = tdn_io__json_string(json, "curve", path, 0, &curve, err);
    if (r == TDN_OK && curve) {
        tdn_io__path where;
        tdn_io__json_join(where, path, "curve");
        int k = tdn_io__choose(curve, curves, where, "curve", err, &r);
        d->curve = k == 1 ? TDN_INERTIA_SPRING : TDN_INERTIA_QUINTIC;
    }
    return r;
}

/* The mirror table a database with mirrored frames plays them with: the character's joints
 * paired by name, made once. */
static tdn_result mirror_table(tdn_io__graph_build *b, const tdn_mm_database *db, const char *where,
                               tdn_mm_controller_desc *d, tdn_error *err)
{
    int mirrored = 0;
    for (int c = 0; c < tdn_mm_database_clip_count(db); c++)
        mirrored |= tdn_mm_database_clip_frame_count(db, c, 1) > 0;
    if (!mirrored)
        return TDN_OK;
    const tdn_skeleton *skeleton = b->skeleton;
    if (!b->mm_mirror) {
        b->mm_mirror = calloc((size_t)tdn_skeleton_joint_count(skeleton), sizeof *b->mm_mirror);
        if (!b->mm_mirror)
            return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, where, "out of memory");
        tdn_error inner = { 0 };
        if (tdn_mirror_table_from_names(skeleton, b->mm_mirror, &inner) != TDN_OK) {
            free(b->mm_mirror);
            b->mm_mirror = NULL;
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where,
                                "the database has mirrored frames, but the "
                                "character's joints do not pair by name: %.150s",
                                inner.message);
        }
    }
    d->mirror_table = b->mm_mirror;
    return TDN_OK;
}

tdn_result tdn_io__graph_read_motion_match(tdn_io__graph_build *b, int self, const cJSON *json, const char *path,
                                           tdn_error *err)
{
    tdn_node_desc *node = &b->nodes[self];
    if (b->mm_count == TDN_IO_MAX_MM_NODES)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, path, "more than %d motion_match nodes", TDN_IO_MAX_MM_NODES);
    tdn_mm_controller_desc *d = &b->mm[b->mm_count];
    memset(d, 0, sizeof *d);
    const char *file = NULL;
    tdn_result r = tdn_io__json_known_keys(json, path, mm_keys, err);
    if (r == TDN_OK)
        r = read_param(b, json, "velocity", path, 1, "vec2", &node->velocity, err);
    if (r == TDN_OK)
        r = read_param(b, json, "facing", path, 0, "float", &node->facing, err);
    if (r == TDN_OK)
        r = read_settings(json, path, d, err);
    if (r == TDN_OK)
        r = tdn_io__json_string(json, "database", path, 1, &file, err);
    tdn_io__path where;
    tdn_io__json_join(where, path, "database");
    if (r == TDN_OK)
        r = load_database(b, file, where, &d->database, err);
    if (r == TDN_OK)
        r = read_clips(b, json, path, d->database, d, err);
    b->mm_count += b->mm_clips[b->mm_count] != NULL; /* its clip list is freed with the build */
    if (r == TDN_OK)
        r = mirror_table(b, d->database, where, d, err);
    if (r != TDN_OK)
        return r;
    d->skeleton = b->skeleton;
    node->motion_match = d;
    return TDN_OK;
}
