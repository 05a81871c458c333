/* tendon io: body map files (tdn_body_map_file_load, tdn_body_map_file_apply).
 *
 * Loading checks what needs no skeleton (the version, keys, part names, JSON types, chain
 * lengths) and keeps each side's parts in document order with their joint names. Applying
 * resolves the names on one skeleton and checks what needs it (joints that exist, chains that
 * run parent to child, no joint in two parts) on a copy of the map, written back only once
 * the whole side is in and tdn_body_map_check accepts it. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset_internal.h"
#include "file.h"
#include "json_hint.h"
#include "json_reader.h"
#include "tendon/io/body_map_file.h"
#include "tendon/nearest_name.h"

#define VERSION 1
#define SIDE_COUNT 2

static const char *const side_keys[SIDE_COUNT] = { "source", "target" };
static const char *const document_keys[] = { "tendon_body_map", "source", "target", "$schema", NULL };

/* One part a side names: its joints by name, root-most first; none for null. */
typedef struct named_part {
    tdn_body_part part;
    int joint_count;
    const char *joints[TDN_BODY_MAP_MAX_CHAIN];
} named_part;

typedef struct side_parts {
    int given;
    int count;                             /* parts named, in document order */
    named_part parts[TDN_BODY_PART_COUNT]; /* a part is named at most once (keys are unique) */
} side_parts;

struct tdn_body_map_file {
    tdn_allocator allocator;
    size_t bytes;     /* of this block: the struct, then the names (and the path) */
    const char *path; /* the file's, for apply's errors; NULL from memory */
    side_parts sides[SIDE_COUNT];
};

/* The parts every map needs (body_map.h). */
static int required(tdn_body_part part)
{
    switch (part) {
    case TDN_BODY_PART_HIPS:
    case TDN_BODY_PART_LEFT_THIGH:
    case TDN_BODY_PART_LEFT_SHIN:
    case TDN_BODY_PART_LEFT_FOOT:
    case TDN_BODY_PART_RIGHT_THIGH:
    case TDN_BODY_PART_RIGHT_SHIN:
    case TDN_BODY_PART_RIGHT_FOOT:
        return 1;
    default:
        return 0;
    }
}

/* The parts that are chains of several joints (body_map.h): the others are one joint. */
static int chain(tdn_body_part part)
{
    return part == TDN_BODY_PART_SPINE || part == TDN_BODY_PART_NECK || part >= TDN_BODY_PART_LEFT_THUMB;
}

/* ---- part names and their hint ---- */

static const char *part_at(const void *ctx, int i)
{
    (void)ctx;
    return tdn_body_part_name((tdn_body_part)i);
}

/* name's words (cut at every non-alphanumeric character and where camel case starts one),
 * lower-cased, sorted and joined with '_': "thigh_left" and "LeftThigh" give "left_thigh". */
static void sorted_words(const char *name, char *out, size_t size)
{
    enum { MAX_WORDS = 8, MAX_WORD = 24 };
    char words[MAX_WORDS][MAX_WORD];
    int count = 0;
    size_t length = 0;
    for (const char *c = name;; c++) {
        const int breaks = !*c || !isalnum((unsigned char)*c) ||
                           (c > name && isupper((unsigned char)*c) && islower((unsigned char)c[-1]));
        if (breaks && length > 0 && count < MAX_WORDS) {
            words[count++][length] = '\0';
            length = 0;
        }
        if (!*c)
            break;
        if (isalnum((unsigned char)*c) && count < MAX_WORDS && length + 1 < MAX_WORD)
            words[count][length++] = (char)tolower((unsigned char)*c);
    }
    for (int i = 1; i < count; i++) /* insertion sort: a handful of words */
        for (int k = i; k > 0 && strcmp(words[k - 1], words[k]) > 0; k--) {
            char swap[MAX_WORD];
            memcpy(swap, words[k], MAX_WORD);
            memcpy(words[k], words[k - 1], MAX_WORD);
            memcpy(words[k - 1], swap, MAX_WORD);
        }
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < count; i++) { /* words that do not fit are left off */
        const int n = snprintf(out + at, size - at, "%s%s", i ? "_" : "", words[i]);
        if (n < 0 || (size_t)n >= size - at)
            break;
        at += (size_t)n;
    }
}

typedef char part_words[TDN_BODY_PART_COUNT][48];

static const char *part_words_at(const void *ctx, int i) { return (*(const part_words *)ctx)[i]; }

/* `; did you mean "PART"?` for a misspelt part name, or one whose words are in another order
 * ("thigh_left", "ThighLeft"); "" when no part is near. */
static void part_hint(char *out, size_t size, const char *name)
{
    tdn_io__hint(out, size, name, part_at, NULL, TDN_BODY_PART_COUNT);
    if (out[0])
        return;
    part_words words;
    char wanted[48];
    for (int i = 0; i < TDN_BODY_PART_COUNT; i++)
        sorted_words(tdn_body_part_name((tdn_body_part)i), words[i], sizeof words[i]);
    sorted_words(name, wanted, sizeof wanted);
    const char *near = tdn_nearest_name_from_callback(wanted, part_words_at, &words, TDN_BODY_PART_COUNT);
    for (int i = 0; near && i < TDN_BODY_PART_COUNT; i++)
        if (near == words[i])
            snprintf(out, size, "; did you mean \"%s\"?", tdn_body_part_name((tdn_body_part)i));
}

static int part_named(const char *name)
{
    for (int i = 0; i < TDN_BODY_PART_COUNT; i++)
        if (strcmp(name, tdn_body_part_name((tdn_body_part)i)) == 0)
            return i;
    return -1;
}

/* ---- loading ---- */

static tdn_result read_version(const cJSON *doc, tdn_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "tendon_body_map");
    if (!v)
        return tdn_io__fail(err, TDN_ERR_PARSE, "tendon_body_map",
                            "the required \"tendon_body_map\": %d is missing (it marks a body map document)", VERSION);
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 1 && v->valuedouble <= 1e9) ||
        v->valuedouble != (double)(int)v->valuedouble)
        return tdn_io__fail(err, TDN_ERR_PARSE, "tendon_body_map",
                            "the version must be a whole number from 1 (this tendon reads version %d)", VERSION);
    if (v->valueint != VERSION)
        return tdn_io__fail(err, TDN_ERR_UNSUPPORTED, "tendon_body_map", "version %d; this tendon reads version %d",
                            v->valueint, VERSION);
    return TDN_OK;
}

/* A joint name at `where`: a non-empty string. */
static tdn_result read_joint_name(const cJSON *item, const char *where, const char **out, tdn_error *err)
{
    if (!cJSON_IsString(item) || !item->valuestring[0])
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "a joint name (a non-empty string) is needed");
    *out = item->valuestring;
    return TDN_OK;
}

static tdn_result read_part(const cJSON *item, tdn_body_part part, const char *where, named_part *out, size_t *text,
                            tdn_error *err)
{
    const char *name = tdn_body_part_name(part);
    out->part = part;
    out->joint_count = 0;
    if (cJSON_IsNull(item)) {
        if (required(part))
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where,
                                "%s cannot be left out: every map needs the hips and each leg's thigh, shin and foot",
                                name);
        return TDN_OK;
    }
    if (!chain(part)) {
        if (!cJSON_IsString(item))
            return tdn_io__fail(err, TDN_ERR_PARSE, where, "%s is one joint: a joint name%s is needed", name,
                                required(part) ? "" : " or null");
        out->joint_count = 1;
        *text += strlen(item->valuestring) + 1;
        return read_joint_name(item, where, &out->joints[0], err);
    }
    if (!cJSON_IsArray(item))
        return tdn_io__fail(err, TDN_ERR_PARSE, where,
                            "%s is a chain: an array of 1 to %d joint names, root-most first, or null is needed", name,
                            TDN_BODY_MAP_MAX_CHAIN);
    const int n = cJSON_GetArraySize(item);
    if (n == 0)
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "%s is an empty chain (null leaves a part out)", name);
    if (n > TDN_BODY_MAP_MAX_CHAIN)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "%s has %d joints; a part holds at most %d", name, n,
                            TDN_BODY_MAP_MAX_CHAIN);
    const cJSON *joint;
    cJSON_ArrayForEach(joint, item)
    {
        tdn_io__path at;
        tdn_io__json_item(at, where, out->joint_count);
        tdn_result r = read_joint_name(joint, at, &out->joints[out->joint_count], err);
        if (r != TDN_OK)
            return r;
        *text += strlen(joint->valuestring) + 1;
        out->joint_count++;
    }
    return TDN_OK;
}

static tdn_result read_side(const cJSON *json, const char *key, side_parts *out, size_t *text, tdn_error *err)
{
    if (!cJSON_IsObject(json))
        return tdn_io__fail(err, TDN_ERR_PARSE, key,
                            "an object of part names is needed ({\"hips\": \"Hips\", \"spine\": [...], ...})");
    out->given = 1;
    const cJSON *item;
    cJSON_ArrayForEach(item, json)
    {
        tdn_io__path where;
        tdn_io__json_join(where, key, item->string[0] ? item->string : "\"\""); /* as json_known_keys names "" */
        const int part = part_named(item->string);
        if (part < 0) {
            char hint[96];
            part_hint(hint, sizeof hint, item->string);
            return tdn_io__fail(err, TDN_ERR_PARSE, where, "unknown part \"%.60s\"%s", item->string,
                                hint[0] ? hint : " (parts are named as \"left_upper_arm\", \"spine\", \"right_toes\")");
        }
        tdn_result r = read_part(item, (tdn_body_part)part, where, &out->parts[out->count++], text, err);
        if (r != TDN_OK)
            return r;
    }
    return TDN_OK;
}

/* Copies name after the text at *cursor; returns the copy. */
static const char *keep(char **cursor, const char *name)
{
    const size_t n = strlen(name) + 1;
    char *copy = *cursor;
    memcpy(copy, name, n);
    *cursor += n;
    return copy;
}

/* The document's sides from its JSON (joint names still in the tree), then one block with
 * the names copied into it. `path` (may be NULL) is kept too. */
static tdn_result read_document(const cJSON *doc, const char *path, const tdn_allocator *allocator,
                                tdn_body_map_file **out, tdn_error *err)
{
    tdn_result r = tdn_io__json_known_keys(doc, "", document_keys, err);
    if (r == TDN_OK)
        r = read_version(doc, err);
    if (r != TDN_OK)
        return r;
    side_parts *sides = calloc(SIDE_COUNT, sizeof *sides);
    if (!sides)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
    size_t text = path ? strlen(path) + 1 : 0;
    for (int s = 0; s < SIDE_COUNT && r == TDN_OK; s++) {
        const cJSON *side = cJSON_GetObjectItemCaseSensitive(doc, side_keys[s]);
        if (side)
            r = read_side(side, side_keys[s], &sides[s], &text, err);
    }
    if (r == TDN_OK && !sides[0].given && !sides[1].given)
        r = tdn_io__fail(err, TDN_ERR_INVALID_DATA, "source",
                         "the document gives neither \"source\" nor \"target\" (it maps at least one of them)");
    const size_t bytes = sizeof(tdn_body_map_file) + text;
    tdn_body_map_file *f = r == TDN_OK ? tdn_io__alloc(allocator, bytes) : NULL;
    if (r == TDN_OK && !f)
        r = tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for %zu bytes", bytes);
    if (r == TDN_OK) {
        memset(f, 0, sizeof *f);
        f->allocator = *allocator;
        f->bytes = bytes;
        char *cursor = (char *)(f + 1);
        f->path = path ? keep(&cursor, path) : NULL;
        for (int s = 0; s < SIDE_COUNT; s++) {
            f->sides[s] = sides[s];
            for (int p = 0; p < sides[s].count; p++)
                for (int i = 0; i < sides[s].parts[p].joint_count; i++)
                    f->sides[s].parts[p].joints[i] = keep(&cursor, sides[s].parts[p].joints[i]);
        }
        *out = f;
    }
    free(sides);
    return r;
}

static tdn_result load_memory(const char *json, size_t size, const char *path, tdn_body_map_file **out,
                              const tdn_allocator *allocator, tdn_error *err)
{
    const tdn_allocator hooks = allocator ? *allocator : (tdn_allocator){ 0 };
    cJSON *doc = NULL;
    tdn_result r = tdn_io__json_parse_object(json, size, "{\"tendon_body_map\": 1, ...}", &doc, err);
    if (r == TDN_OK)
        r = read_document(doc, path, &hooks, out, err);
    cJSON_Delete(doc);
    return r;
}

tdn_result tdn_body_map_file_load_memory(const char *json, size_t size, tdn_body_map_file **out,
                                         const tdn_allocator *allocator, tdn_error *err)
{
    if (!out)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "out", "is NULL");
    *out = NULL;
    if (!json && size > 0)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "json", "is NULL with a size above 0");
    if (tdn_io__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    return load_memory(json, size, NULL, out, allocator, err);
}

tdn_result tdn_body_map_file_load(const char *path, const tdn_body_map_file_load_options *options,
                                  tdn_body_map_file **out, const tdn_allocator *allocator, tdn_error *err)
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
    r = load_memory(file.data, file.size, path, out, allocator, err);
    tdn_io__free_file(&file);
    if (r != TDN_OK)
        tdn_io__where_in(err, path, NULL);
    return r;
}

void tdn_body_map_file_destroy(tdn_body_map_file *file)
{
    if (!file)
        return;
    tdn_allocator allocator = file->allocator;
    tdn_io__free(&allocator, file, file->bytes);
}

int tdn_body_map_file_has_side(const tdn_body_map_file *file, tdn_body_map_file_side side)
{
    return file && (int)side >= 0 && side < SIDE_COUNT && file->sides[side].given;
}

/* ---- applying ---- */

static const char *joint_at(const void *ctx, int i) { return tdn_skeleton_joint_name(ctx, i); }

/* The part other than `except` (-1: any) that holds joint, or -1. */
static int part_holding(const tdn_body_map *map, int joint, int except)
{
    for (int q = 0; q < TDN_BODY_PART_COUNT; q++)
        for (int i = 0; q != except && i < map->parts[q].joint_count; i++)
            if (map->parts[q].joints[i] == joint)
                return q;
    return -1;
}

/* How a kept part came to be in the map, for a message. */
static const char *how_found(tdn_body_map_evidence evidence)
{
    switch (evidence) {
    case TDN_BODY_MAP_EVIDENCE_NAME:
        return "found by name";
    case TDN_BODY_MAP_EVIDENCE_TOPOLOGY:
        return "found by topology";
    case TDN_BODY_MAP_EVIDENCE_GEOMETRY:
        return "found by geometry";
    case TDN_BODY_MAP_EVIDENCE_CALLER:
        return "given by the caller";
    default:
        return "with no evidence";
    }
}

/* Resolves and checks one named part into map->parts[np->part] (which is empty; the parts the
 * document names later are empty too, the ones it does not name are the map's). */
static tdn_result apply_part(const named_part *np, const char *side, const int *named, const tdn_skeleton *skeleton,
                             tdn_body_map *map, tdn_error *err)
{
    const char *name = tdn_body_part_name(np->part);
    tdn_body_map_part *out = &map->parts[np->part];
    tdn_io__path where;
    tdn_io__json_join(where, side, name);
    for (int i = 0; i < np->joint_count; i++) {
        tdn_io__path at;
        tdn_io__json_item(at, where, i);
        const char *place = chain(np->part) ? at : where;
        const int j = tdn_skeleton_find_joint(skeleton, np->joints[i]);
        if (j < 0) {
            char hint[96];
            tdn_io__hint(hint, sizeof hint, np->joints[i], joint_at, skeleton, tdn_skeleton_joint_count(skeleton));
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, place, "no joint named \"%.60s\"%s", np->joints[i], hint);
        }
        int twice = -1;
        for (int k = 0; k < i; k++)
            twice = out->joints[k] == j ? k : twice;
        const int other = part_holding(map, j, np->part);
        if (twice >= 0)
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, place, "joint \"%.60s\" is twice in %s (also at [%d])",
                                np->joints[i], name, twice);
        if (other >= 0 && named[other])
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, place,
                                "joint \"%.60s\" is mapped to two parts: %s.%s and %s.%s", np->joints[i], side,
                                tdn_body_part_name((tdn_body_part)other), side, name);
        if (other >= 0)
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, place,
                                "joint \"%.60s\" is mapped to two parts: %s (kept from the map, %s) and %s; "
                                "name %s in the document too",
                                np->joints[i], tdn_body_part_name((tdn_body_part)other),
                                how_found(map->parts[other].evidence), name, tdn_body_part_name((tdn_body_part)other));
        const int parent = tdn_skeleton_parent(skeleton, j);
        if (i > 0 && parent != out->joints[i - 1]) {
            char parent_name[80] = "none: it is a root";
            if (parent >= 0)
                snprintf(parent_name, sizeof parent_name, "\"%.60s\"", tdn_skeleton_joint_name(skeleton, parent));
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, place,
                                "%s has a gap: \"%.60s\" is not a child of \"%.60s\" (its parent is %s)", name,
                                np->joints[i], np->joints[i - 1], parent_name);
        }
        out->joints[i] = j;
        out->joint_count = i + 1;
    }
    out->evidence = TDN_BODY_MAP_EVIDENCE_CALLER;
    return TDN_OK;
}

/* Drops the notes the document made wrong: a joint left out that is now in a part, a part not
 * found that it gave. */
static void drop_stale_notes(tdn_body_map *map)
{
    int kept = 0;
    for (int n = 0; n < map->note_count; n++) {
        const tdn_body_map_note *note = &map->notes[n];
        int stale;
        if (note->joint >= 0)
            stale = part_holding(map, note->joint, -1) >= 0;
        else
            stale = note->part >= 0 && note->part < TDN_BODY_PART_COUNT && map->parts[note->part].joint_count > 0;
        if (!stale)
            map->notes[kept++] = *note;
    }
    map->note_count = kept;
}

static tdn_result apply_side(const side_parts *doc, const char *side, const tdn_skeleton *skeleton, tdn_body_map *map,
                             tdn_error *err)
{
    int named[TDN_BODY_PART_COUNT] = { 0 };
    for (int p = 0; p < doc->count; p++) {
        named[doc->parts[p].part] = 1;
        map->parts[doc->parts[p].part] = (tdn_body_map_part){ 0 };
    }
    for (int p = 0; p < doc->count; p++) {
        tdn_result r = apply_part(&doc->parts[p], side, named, skeleton, map, err);
        if (r != TDN_OK)
            return r;
    }
    for (int part = 0; part < TDN_BODY_PART_COUNT; part++)
        if (required((tdn_body_part)part) && map->parts[part].joint_count == 0) {
            tdn_io__path where;
            tdn_io__json_join(where, side, tdn_body_part_name((tdn_body_part)part));
            return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where,
                                "the map starts empty (none was found on this skeleton), so the document must give "
                                "%s: every map needs the hips and each leg's thigh, shin and foot",
                                tdn_body_part_name((tdn_body_part)part));
        }
    drop_stale_notes(map);
    tdn_result r = tdn_body_map_check(skeleton, map, err);
    if (r != TDN_OK)
        tdn_io__where_in(err, side, NULL);
    return r;
}

tdn_result tdn_body_map_file_apply(const tdn_body_map_file *file, tdn_body_map_file_side side,
                                   const tdn_skeleton *skeleton, tdn_body_map *map, tdn_error *err)
{
    if (!file)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "file", "is NULL");
    if (!skeleton)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "skeleton", "is NULL");
    if (!map)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "map", "is NULL");
    if ((int)side < 0 || side >= SIDE_COUNT)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "side", "%d is neither source (%d) nor target (%d)", (int)side,
                            TDN_BODY_MAP_FILE_SIDE_SOURCE, TDN_BODY_MAP_FILE_SIDE_TARGET);
    const int n = tdn_skeleton_joint_count(skeleton);
    if (map->joint_count != 0 && map->joint_count != n)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "map.joint_count", "the map is for %d joints, the skeleton has %d",
                            map->joint_count, n);
    if (!file->sides[side].given)
        return TDN_OK;
    tdn_body_map copy = { 0 };
    copy.joint_count = n;
    if (map->joint_count != 0) {
        tdn_result r = tdn_body_map_check(skeleton, map, err);
        if (r != TDN_OK) {
            tdn_io__where_in(err, "map", NULL);
            return r;
        }
        copy = *map;
    }
    tdn_result r = apply_side(&file->sides[side], side_keys[side], skeleton, &copy, err);
    if (r != TDN_OK) {
        if (file->path)
            tdn_io__where_in(err, file->path, NULL);
        return r;
    }
    *map = copy;
    return TDN_OK;
}
