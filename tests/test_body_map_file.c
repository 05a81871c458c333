/* Body map files (tdn_body_map_file_load, tdn_body_map_file_apply): every refusal gives its code,
 * the JSON path and, for a misspelt part or joint, the nearest name; a refused apply leaves the
 * map as it was. On tendon's humanoid and on real skeletons (a LAFAN1 BVH, Soldier.glb) a
 * document's parts replace the found ones joint by joint and the others stay; a map written
 * out as a document and applied to an empty map gives the found map back. The schema in
 * docs/body-map.schema.json names exactly tdn_body_part_name's parts, as chains or single
 * joints as tendon reads them, and accepts the documents tendon ships (fuzz seeds). */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "counting_allocator.h"
#include "renamed_skeleton.h"
#include "tendon/tendon_io.h"
#include "test_data.h"
#include "write_file.h"

#define SOURCE TDN_BODY_MAP_FILE_SIDE_SOURCE
#define TARGET TDN_BODY_MAP_FILE_SIDE_TARGET

static tdn_asset *humanoid;
static const tdn_skeleton *humanoid_skeleton;
static tdn_body_map humanoid_map; /* as tdn_body_map_find gives it */

static tdn_result load(const char *json, tdn_body_map_file **out, tdn_error *err)
{
    return tdn_body_map_file_load_memory(json, strlen(json), out, &counting, err);
}

/* err's code, where and a piece of its message as expected; prints what came otherwise. */
static void expect(const char *what, tdn_result r, const tdn_error *err, tdn_result code, const char *where,
                   const char *words)
{
    const int ok = r == code && err->code == code && strcmp(err->where, where) == 0 && strstr(err->message, words);
    if (!CHECK(ok))
        fprintf(stderr, "  %s: %s (%s) at '%s': %s\n    wanted %s at '%s': ...%s...\n", what, tdn_result_name(r),
                tdn_result_name(err->code), err->where, err->message, tdn_result_name(code), where, words);
}

/* Documents the loader refuses, whatever the skeleton. */
static void load_errors(void)
{
    static const struct {
        const char *json;
        tdn_result code;
        const char *where, *words;
    } cases[] = {
        { "{\"tendon_body_map\": 1,", TDN_ERR_PARSE, "byte 22 (line 1, column 23)", "" },
        { "[1]", TDN_ERR_PARSE, "byte 0 (line 1, column 1)", "must be an object" },
        { "{\"tendon_body_map\": 1, \"target\": {\"left_thigh\": \"thigh_l\", \"left_thigh\": \"calf_l\"}}",
          TDN_ERR_PARSE, "target.left_thigh", "the key \"left_thigh\" appears twice" },
        { "{\"target\": {\"hips\": \"pelvis\"}}", TDN_ERR_PARSE, "tendon_body_map",
          "the required \"tendon_body_map\": 1 is missing" },
        { "{\"tendon_body_map\": 2, \"target\": {}}", TDN_ERR_UNSUPPORTED, "tendon_body_map",
          "version 2; this tendon reads version 1" },
        { "{\"tendon_body_map\": \"1\", \"target\": {}}", TDN_ERR_PARSE, "tendon_body_map", "a whole number from 1" },
        { "{\"tendon_body_map\": 1.5, \"target\": {}}", TDN_ERR_PARSE, "tendon_body_map", "a whole number from 1" },
        { "{\"tendon_body_map\": 0, \"target\": {}}", TDN_ERR_PARSE, "tendon_body_map", "a whole number from 1" },
        { "{\"tendon_body_map\": 1, \"sorce\": {}}", TDN_ERR_PARSE, "sorce",
          "unknown key \"sorce\"; did you mean \"source\"?" },
        { "{\"\": 1, \"target\": {}}", TDN_ERR_PARSE, "\"\"", "unknown key \"\"" },
        { "{\"\": 1, \"\": 2}", TDN_ERR_PARSE, "\"\"", "the key \"\" appears twice" },
        { "{\"tendon_body_map\": 1, \"target\": {\"\": 1, \"\": 2}}", TDN_ERR_PARSE, "target.\"\"",
          "the key \"\" appears twice" },
        { "{\"tendon_body_map\": 1, \"target\": {\"\": \"pelvis\"}}", TDN_ERR_PARSE, "target.\"\"",
          "unknown part \"\"" },
        { "{\"tendon_body_map\": 1}", TDN_ERR_INVALID_DATA, "source", "neither \"source\" nor \"target\"" },
        { "{\"tendon_body_map\": 1, \"target\": [\"pelvis\"]}", TDN_ERR_PARSE, "target",
          "an object of part names is needed" },
        { "{\"tendon_body_map\": 1, \"target\": {\"thigh_left\": \"thigh_l\"}}", TDN_ERR_PARSE, "target.thigh_left",
          "unknown part \"thigh_left\"; did you mean \"left_thigh\"?" },
        { "{\"tendon_body_map\": 1, \"source\": {\"UpperArmRight\": \"upperarm_r\"}}", TDN_ERR_PARSE,
          "source.UpperArmRight", "unknown part \"UpperArmRight\"; did you mean \"right_upper_arm\"?" },
        { "{\"tendon_body_map\": 1, \"source\": {\"left_thihg\": \"thigh_l\"}}", TDN_ERR_PARSE, "source.left_thihg",
          "unknown part \"left_thihg\"; did you mean \"left_thigh\"?" },
        { "{\"tendon_body_map\": 1, \"source\": {\"tail\": \"tail_01\"}}", TDN_ERR_PARSE, "source.tail",
          "unknown part \"tail\" (parts are named as" },
        /* words longer together than the hint reads: cut, no hint */
        { "{\"tendon_body_map\": 1, \"source\": {\"aaaaaaaaaaaaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbb_cccccccccccccccccccccc_dd\": 1}}",
          TDN_ERR_PARSE, "source.aaaaaaaaaaaaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbb_cccccccccccccccccccccc_dd",
          "unknown part \"aaaaaaaaaaaaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbb_cccccccccccccc\" (parts are named as" },
        { "{\"tendon_body_map\": 1, \"target\": {\"left_thigh\": [\"thigh_l\"]}}", TDN_ERR_PARSE, "target.left_thigh",
          "left_thigh is one joint: a joint name is needed" },
        { "{\"tendon_body_map\": 1, \"target\": {\"head\": 3}}", TDN_ERR_PARSE, "target.head",
          "head is one joint: a joint name or null is needed" },
        { "{\"tendon_body_map\": 1, \"target\": {\"left_hand\": \"\"}}", TDN_ERR_PARSE, "target.left_hand",
          "a joint name (a non-empty string) is needed" },
        { "{\"tendon_body_map\": 1, \"target\": {\"spine\": \"spine_01\"}}", TDN_ERR_PARSE, "target.spine",
          "spine is a chain: an array of 1 to 8 joint names, root-most first, or null is needed" },
        { "{\"tendon_body_map\": 1, \"target\": {\"spine\": [\"spine_01\", 2]}}", TDN_ERR_PARSE, "target.spine[1]",
          "a joint name (a non-empty string) is needed" },
        { "{\"tendon_body_map\": 1, \"target\": {\"neck\": []}}", TDN_ERR_PARSE, "target.neck",
          "neck is an empty chain (null leaves a part out)" },
        { "{\"tendon_body_map\": 1, \"target\": {\"spine\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", "
          "\"i\"]}}",
          TDN_ERR_INVALID_DATA, "target.spine", "spine has 9 joints; a part holds at most 8" },
        { "{\"tendon_body_map\": 1, \"source\": {}, \"target\": {\"right_foot\": null}}", TDN_ERR_INVALID_DATA,
          "target.right_foot", "right_foot cannot be left out" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tdn_body_map_file *f = (tdn_body_map_file *)&f; /* anything but NULL */
        tdn_error err = { 0 };
        tdn_result r = load(cases[k].json, &f, &err);
        expect(cases[k].json, r, &err, cases[k].code, cases[k].where, cases[k].words);
        CHECK(f == NULL);
    }
    CHECK_EQ_INT(live_blocks, 0);
}

/* Documents that load but do not fit tendon's humanoid; the map stays as it was. */
static void apply_errors(void)
{
    static const struct {
        const char *target; /* the "target" object */
        const char *where, *words;
    } cases[] = {
        { "{\"left_thigh\": \"thigh_lf\"}", "target.left_thigh",
          "no joint named \"thigh_lf\"; did you mean \"thigh_l\"?" },
        { "{\"spine\": [\"spine_01\", \"spine_2\"]}", "target.spine[1]",
          "no joint named \"spine_2\"; did you mean \"spine_02\"?" },
        { "{\"left_thigh\": \"calf_l\", \"left_shin\": \"calf_l\"}", "target.left_shin",
          "joint \"calf_l\" is mapped to two parts: target.left_thigh and target.left_shin" },
        { "{\"left_thigh\": \"calf_l\"}", "target.left_thigh",
          "joint \"calf_l\" is mapped to two parts: left_shin (kept from the map, found by name) and left_thigh; "
          "name left_shin in the document too" },
        { "{\"neck\": [\"spine_05\", \"neck_01\"]}", "target.neck[0]",
          "joint \"spine_05\" is mapped to two parts: spine (kept from the map, found by name) and neck" },
        { "{\"spine\": [\"spine_01\", \"spine_01\"]}", "target.spine[1]",
          "joint \"spine_01\" is twice in spine (also at [0])" },
        { "{\"spine\": [\"spine_01\", \"spine_03\"]}", "target.spine[1]",
          "spine has a gap: \"spine_03\" is not a child of \"spine_01\" (its parent is \"spine_02\")" },
        { "{\"left_index\": [\"index_01_l\", \"hand_l\"]}", "target.left_index[1]",
          "joint \"hand_l\" is mapped to two parts: left_hand" },
        { "{\"left_hand\": null, \"left_index\": [\"index_01_l\", \"hand_l\"]}", "target.left_index[1]",
          "left_index has a gap: \"hand_l\" is not a child of \"index_01_l\" (its parent is \"lowerarm_l\")" },
        { "{\"spine\": [\"spine_01\", \"root\"]}", "target.spine[1]",
          "spine has a gap: \"root\" is not a child of \"spine_01\" (its parent is none: it is a root)" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char json[512];
        snprintf(json, sizeof json, "{\"tendon_body_map\": 1, \"target\": %s}", cases[k].target);
        tdn_body_map_file *f = NULL;
        tdn_error err = { 0 };
        if (!CHECK(load(json, &f, &err) == TDN_OK)) {
            fprintf(stderr, "  %s: %s: %s\n", json, err.where, err.message);
            continue;
        }
        tdn_body_map map = humanoid_map;
        expect(cases[k].target, tdn_body_map_file_apply(f, TARGET, humanoid_skeleton, &map, &err), &err,
               TDN_ERR_INVALID_DATA, cases[k].where, cases[k].words);
        CHECK(memcmp(&map, &humanoid_map, sizeof map) == 0);
        tdn_body_map_file_destroy(f);
    }
    CHECK_EQ_INT(live_blocks, 0);
}

/* The arguments, a map of another skeleton, and an empty map the document does not complete. */
static void apply_refusals(void)
{
    tdn_body_map_file *f = NULL;
    tdn_error err = { 0 };
    if (!CHECK(load("{\"tendon_body_map\": 1, \"target\": {\"hips\": \"pelvis\"}}", &f, &err) == TDN_OK))
        return;
    tdn_body_map map = humanoid_map;
    expect("file", tdn_body_map_file_apply(NULL, TARGET, humanoid_skeleton, &map, &err), &err, TDN_ERR_ARGUMENT, "file",
           "NULL");
    expect("skeleton", tdn_body_map_file_apply(f, TARGET, NULL, &map, &err), &err, TDN_ERR_ARGUMENT, "skeleton",
           "NULL");
    expect("map", tdn_body_map_file_apply(f, TARGET, humanoid_skeleton, NULL, &err), &err, TDN_ERR_ARGUMENT, "map",
           "NULL");
    expect("side", tdn_body_map_file_apply(f, (tdn_body_map_file_side)2, humanoid_skeleton, &map, &err), &err,
           TDN_ERR_ARGUMENT, "side", "2 is neither source (0) nor target (1)");
    map.joint_count = 3;
    expect("joint count", tdn_body_map_file_apply(f, TARGET, humanoid_skeleton, &map, &err), &err, TDN_ERR_ARGUMENT,
           "map.joint_count", "the map is for 3 joints, the skeleton has");
    /* broken before: the left foot also in the toes */
    map = humanoid_map;
    map.parts[TDN_BODY_PART_LEFT_TOES].joints[0] = map.parts[TDN_BODY_PART_LEFT_FOOT].joints[0];
    tdn_body_map broken = map;
    expect("broken map", tdn_body_map_file_apply(f, TARGET, humanoid_skeleton, &map, &err), &err, TDN_ERR_INVALID_DATA,
           "map: foot_l", "joint 'foot_l' is in two parts: left_foot and left_toes");
    CHECK(memcmp(&map, &broken, sizeof map) == 0);
    /* an empty map gets only the hips */
    memset(&map, 0, sizeof map);
    expect("empty map", tdn_body_map_file_apply(f, TARGET, humanoid_skeleton, &map, &err), &err, TDN_ERR_INVALID_DATA,
           "target.left_thigh", "the document must give left_thigh");
    CHECK(map.joint_count == 0 && map.parts[TDN_BODY_PART_HIPS].joint_count == 0);
    /* a side the document does not give changes nothing */
    map = humanoid_map;
    CHECK(!tdn_body_map_file_has_side(f, SOURCE) && tdn_body_map_file_has_side(f, TARGET));
    CHECK(!tdn_body_map_file_has_side(f, (tdn_body_map_file_side)2) && !tdn_body_map_file_has_side(NULL, TARGET));
    CHECK_EQ_INT(tdn_body_map_file_apply(f, SOURCE, humanoid_skeleton, &map, &err), TDN_OK);
    CHECK(memcmp(&map, &humanoid_map, sizeof map) == 0);
    tdn_body_map_file_destroy(f);
    CHECK_EQ_INT(live_blocks, 0);
}

/* A part's joint names, space-separated, into buf ("" when absent). */
static const char *part_joints(const tdn_skeleton *skel, const tdn_body_map *map, int part, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < map->parts[part].joint_count; i++) {
        const size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%s", i ? " " : "",
                 tdn_skeleton_joint_name(skel, map->parts[part].joints[i]));
    }
    return buf;
}

/* Each part of `map` is `overridden[part]` (a joint list, "" for none) with evidence caller when
 * the document names it (overridden[part] not NULL), else what `found` had; the map passes its
 * check and no note speaks of a joint now mapped or a part now present. */
static void check_overridden(const char *what, const tdn_skeleton *skel, const tdn_body_map *found,
                             const tdn_body_map *map, const char *const *overridden)
{
    CHECK(tdn_body_map_check(skel, map, NULL) == TDN_OK);
    for (int part = 0; part < TDN_BODY_PART_COUNT; part++) {
        char got[512], want[512];
        part_joints(skel, map, part, got, sizeof got);
        if (overridden[part])
            snprintf(want, sizeof want, "%s", overridden[part]);
        else
            part_joints(skel, found, part, want, sizeof want);
        if (!CHECK(strcmp(got, want) == 0))
            fprintf(stderr, "  %s: %s is '%s', not '%s'\n", what, tdn_body_part_name(part), got, want);
        if (overridden[part])
            CHECK_EQ_INT(map->parts[part].evidence, TDN_BODY_MAP_EVIDENCE_CALLER);
        else
            CHECK_EQ_INT(map->parts[part].evidence, found->parts[part].evidence);
    }
    for (int n = 0; n < map->note_count; n++) {
        const tdn_body_map_note *note = &map->notes[n];
        if (note->joint >= 0)
            for (int part = 0; part < TDN_BODY_PART_COUNT; part++)
                for (int i = 0; i < map->parts[part].joint_count; i++)
                    CHECK(map->parts[part].joints[i] != note->joint);
        else
            CHECK(map->parts[note->part].joint_count == 0);
    }
}

#define P(part) [TDN_BODY_PART_##part]

/* Overrides on tendon's humanoid: a shorter spine with a longer neck, a thumb of two joints, toes
 * left out, the jaw (a helper, in a note) as the head, and the same joint for the hips (evidence
 * caller); applying the document again changes nothing, and another document meets these parts as
 * the caller's. */
static void humanoid_overrides(void)
{
    const char *json = "{\"$schema\": \"body-map.schema.json\", \"tendon_body_map\": 1, \"target\": {"
                       "\"hips\": \"pelvis\", \"spine\": [\"spine_01\", \"spine_02\", \"spine_03\"], "
                       "\"neck\": [\"spine_04\", \"spine_05\", \"neck_01\", \"neck_02\"], \"left_toes\": null, "
                       "\"left_thumb\": [\"thumb_02_l\", \"thumb_03_l\"], \"head\": \"jaw\"}}";
    const char *overridden[TDN_BODY_PART_COUNT] = {
        P(HIPS) = "pelvis", P(SPINE) = "spine_01 spine_02 spine_03", P(NECK) = "spine_04 spine_05 neck_01 neck_02",
        P(LEFT_TOES) = "",  P(LEFT_THUMB) = "thumb_02_l thumb_03_l", P(HEAD) = "jaw",
    };
    tdn_body_map_file *f = NULL;
    tdn_error err = { 0 };
    if (!CHECK(load(json, &f, &err) == TDN_OK)) {
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
        return;
    }
    tdn_body_map map = humanoid_map;
    if (CHECK(tdn_body_map_file_apply(f, TARGET, humanoid_skeleton, &map, &err) == TDN_OK)) {
        check_overridden("humanoid", humanoid_skeleton, &humanoid_map, &map, overridden);
        CHECK_EQ_INT(map.note_count, humanoid_map.note_count - 1); /* the jaw's, a helper's, went */
    } else
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
    /* applied again, the same map */
    tdn_body_map twice = map;
    CHECK(tdn_body_map_file_apply(f, TARGET, humanoid_skeleton, &twice, NULL) == TDN_OK);
    CHECK(memcmp(&twice, &map, sizeof map) == 0);
    tdn_body_map_file_destroy(f);
    /* a second document meets the first one's parts as the map's, given by the caller */
    f = NULL;
    if (CHECK(load("{\"tendon_body_map\": 1, \"target\": {\"head\": \"neck_02\"}}", &f, &err) == TDN_OK))
        expect("a second document", tdn_body_map_file_apply(f, TARGET, humanoid_skeleton, &twice, &err), &err,
               TDN_ERR_INVALID_DATA, "target.head",
               "joint \"neck_02\" is mapped to two parts: neck (kept from the map, given by the caller) and head");
    CHECK(memcmp(&twice, &map, sizeof map) == 0);
    tdn_body_map_file_destroy(f);
    CHECK_EQ_INT(live_blocks, 0);
}

/* ---- a map written out as a document ---- */

/* The "side": {...} of a document giving every part of `map` (null for the absent ones). */
static void write_side(char *out, size_t size, const char *side, const tdn_skeleton *skel, const tdn_body_map *map)
{
    size_t at = (size_t)snprintf(out, size, "\"%s\": {", side);
    for (int part = 0; part < TDN_BODY_PART_COUNT && at < size; part++) {
        const tdn_body_map_part *p = &map->parts[part];
        const int chain = part == TDN_BODY_PART_SPINE || part == TDN_BODY_PART_NECK || part >= TDN_BODY_PART_LEFT_THUMB;
        at += (size_t)snprintf(out + at, size - at, "%s\"%s\": %s", part ? ", " : "", tdn_body_part_name(part),
                               p->joint_count == 0 ? "null"
                               : chain             ? "["
                                                   : "");
        for (int i = 0; i < p->joint_count && at < size; i++) {
            const char *name = tdn_skeleton_joint_name(skel, p->joints[i]);
            CHECK(!strchr(name, '"') && !strchr(name, '\\')); /* written as they are */
            at += (size_t)snprintf(out + at, size - at, "%s\"%s\"", i ? ", " : "", name);
        }
        if (chain && p->joint_count > 0 && at < size)
            at += (size_t)snprintf(out + at, size - at, "]");
    }
    if (at < size)
        snprintf(out + at, size - at, "}");
    CHECK(at < size);
}

typedef struct rig {
    tdn_asset *asset;
    const tdn_skeleton *skel;
    tdn_body_map map;
} rig;

static int load_rig(const char *dir, const char *file, rig *out)
{
    char path[1024];
    tdn_error err = { 0 };
    out->asset = NULL;
    if (!CHECK(tdn_asset_load(test_data_path(path, sizeof path, dir, file), NULL, &out->asset, NULL, &err) == TDN_OK) ||
        !CHECK(tdn_body_map_find(out->skel = tdn_asset_skeleton(out->asset), NULL, &out->map, &err) == TDN_OK)) {
        fprintf(stderr, "  %s: %s: %s\n", file, err.where, err.message);
        tdn_asset_destroy(out->asset);
        out->asset = NULL;
        return 0;
    }
    return 1;
}

static rig lafan, soldier; /* walk4_subject1.bvh and Soldier.glb, when the data is there */

/* The document of every part of `map` on `skel` applied as `side` to an empty map gives the same
 * joints, each given by the caller, and no notes. */
static void round_trip(const char *what, const tdn_skeleton *skel, const tdn_body_map *map, tdn_body_map_file_side side)
{
    static char json[8300], body[8192];
    write_side(body, sizeof body, side == SOURCE ? "source" : "target", skel, map);
    snprintf(json, sizeof json, "{\"tendon_body_map\": 1, %s}", body);
    const char *all[TDN_BODY_PART_COUNT];
    char names[TDN_BODY_PART_COUNT][512];
    for (int part = 0; part < TDN_BODY_PART_COUNT; part++)
        all[part] = part_joints(skel, map, part, names[part], sizeof names[part]);
    tdn_body_map_file *f = NULL;
    tdn_body_map out = { 0 };
    tdn_error err = { 0 };
    if (CHECK(load(json, &f, &err) == TDN_OK) && CHECK(tdn_body_map_file_apply(f, side, skel, &out, &err) == TDN_OK)) {
        check_overridden(what, skel, map, &out, all);
        CHECK_EQ_INT(out.note_count, 0);
    } else {
        fprintf(stderr, "  %s: %s: %s\n", what, err.where, err.message);
    }
    tdn_body_map_file_destroy(f);
}

/* Applies `json`'s source to LAFAN1's found map and its target to Soldier's; each part as
 * expected (NULL: as found), and a retarget accepts the two maps. */
static void lafan_onto_soldier(const char *what, const char *json, const char *const *source_expected,
                               const char *const *target_expected)
{
    tdn_body_map_file *f = NULL;
    tdn_body_map source_map = lafan.map, target_map = soldier.map;
    tdn_error err = { 0 };
    if (CHECK(json != NULL) && CHECK(load(json, &f, &err) == TDN_OK) &&
        CHECK(tdn_body_map_file_apply(f, SOURCE, lafan.skel, &source_map, &err) == TDN_OK) &&
        CHECK(tdn_body_map_file_apply(f, TARGET, soldier.skel, &target_map, &err) == TDN_OK)) {
        check_overridden(what, lafan.skel, &lafan.map, &source_map, source_expected);
        check_overridden(what, soldier.skel, &soldier.map, &target_map, target_expected);
        const tdn_retarget_desc desc = { .source = { .skeleton = lafan.skel, .map = &source_map },
                                         .target = { .skeleton = soldier.skel, .map = &target_map } };
        tdn_retarget *retarget = NULL;
        CHECK(tdn_retarget_create(&desc, &retarget, NULL, &err) == TDN_OK);
        tdn_retarget_destroy(retarget);
    } else {
        fprintf(stderr, "  %s: %s: %s\n", what, err.where, err.message);
    }
    tdn_body_map_file_destroy(f);
}

/* The first ```json block of docs/retarget.md's "Overriding the map", or NULL. */
static char *docs_example(void)
{
    static char text[1 << 17];
    FILE *in = fopen(TENDON_SOURCE_DIR "/docs/retarget.md", "rb");
    const size_t n = in ? fread(text, 1, sizeof text - 1, in) : 0;
    if (in)
        fclose(in);
    text[n] = '\0';
    char *section = strstr(text, "### Overriding the map\n");
    char *start = section ? strstr(section, "```json\n") : NULL;
    char *end = start ? strstr(start + 8, "```") : NULL;
    if (!end)
        return NULL;
    *end = '\0';
    return start + 8;
}

/* LAFAN1 as the source and Soldier as the target: each map written as a document and applied
 * to an empty map gives the found map back, joint by joint; so does LAFAN1 renamed j0..jN, on
 * which tdn_body_map_find fails. Documents that map parts to other joints change just those:
 * one here, and the example of docs/retarget.md as the text there describes it. */
static void real_skeletons(void)
{
    if (!lafan.asset || !soldier.asset)
        return;
    round_trip("LAFAN1", lafan.skel, &lafan.map, SOURCE);
    round_trip("Soldier", soldier.skel, &soldier.map, TARGET);

    static char storage[512][8];
    static const char *names[512];
    const int n = tdn_skeleton_joint_count(lafan.skel);
    for (int j = 0; j < n && j < 512; j++) {
        snprintf(storage[j], sizeof storage[j], "j%d", j);
        names[j] = storage[j];
    }
    tdn_skeleton *plain = skeleton_renamed(lafan.skel, names);
    tdn_body_map none;
    if (CHECK(plain != NULL) && CHECK(tdn_body_map_find(plain, NULL, &none, NULL) == TDN_ERR_INVALID_DATA)) {
        CHECK_EQ_INT(none.joint_count, 0);
        round_trip("LAFAN1 renamed", plain, &lafan.map, SOURCE);
    }
    tdn_skeleton_destroy(plain);

    /* LAFAN1: the neck joint as the head, no neck, no left toes, the same hips, the left hand as a
     * thumb (its thumb's not_found note goes, checked by check_overridden). Soldier: the
     * chest (Spine2) in the neck, a one-joint left thumb from its second joint, no right pinky. */
    const char *overrides = "{\"tendon_body_map\": 1,"
                            " \"source\": {\"head\": \"Neck\", \"neck\": null, \"left_toes\": null, \"hips\": \"Hips\","
                            "             \"left_hand\": null, \"left_thumb\": [\"LeftHand\"]},"
                            " \"target\": {\"spine\": [\"mixamorig:Spine\", \"mixamorig:Spine1\"],"
                            "              \"neck\": [\"mixamorig:Spine2\", \"mixamorig:Neck\"],"
                            "              \"left_thumb\": [\"mixamorig:LeftHandThumb2\"], \"right_pinky\": null}}";
    const char *lafan_expected[TDN_BODY_PART_COUNT] = {
        P(HEAD) = "Neck", P(NECK) = "",      P(LEFT_TOES) = "",
        P(HIPS) = "Hips", P(LEFT_HAND) = "", P(LEFT_THUMB) = "LeftHand"
    };
    const char *soldier_expected[TDN_BODY_PART_COUNT] = { P(SPINE) = "mixamorig:Spine mixamorig:Spine1",
                                                          P(NECK) = "mixamorig:Spine2 mixamorig:Neck",
                                                          P(LEFT_THUMB) = "mixamorig:LeftHandThumb2",
                                                          P(RIGHT_PINKY) = "" };
    lafan_onto_soldier("overrides", overrides, lafan_expected, soldier_expected);

    /* the docs: LAFAN1's toes left out; Soldier's spine and head restated, its left thumb left
     * out and its right thumb shortened to two joints */
    const char *docs_lafan[TDN_BODY_PART_COUNT] = { P(LEFT_TOES) = "", P(RIGHT_TOES) = "" };
    const char *docs_soldier[TDN_BODY_PART_COUNT] = {
        P(SPINE) = "mixamorig:Spine mixamorig:Spine1 mixamorig:Spine2", P(HEAD) = "mixamorig:Head", P(LEFT_THUMB) = "",
        P(RIGHT_THUMB) = "mixamorig:RightHandThumb1 mixamorig:RightHandThumb2"
    };
    lafan_onto_soldier("docs/retarget.md's example", docs_example(), docs_lafan, docs_soldier);
    CHECK_EQ_INT(live_blocks, 0);
}

/* ---- files ---- */

static const char *pack_document = "{\"tendon_body_map\": 1, \"target\": {\"left_toes\": null, \"head\": \"haed\"}}";

static tdn_result pack_read(void *user, const char *path, void **data, size_t *size, const tdn_allocator *allocator,
                            tdn_error *err)
{
    ++*(int *)user;
    if (strcmp(path, "pack/map.json") != 0)
        return tdn_file_read(NULL, path, data, size, allocator, err);
    *size = strlen(pack_document);
    *data = allocator->alloc(*size, 1, allocator->user);
    if (!*data)
        return TDN_ERR_OUT_OF_MEMORY;
    memcpy(*data, pack_document, *size);
    return TDN_OK;
}

/* From a file: load errors and apply errors name the file before the JSON path; a custom
 * reader serves the document; failing allocations leave nothing allocated. */
static void files(void)
{
    char scratch[64] = "/tmp/tendon-body-map-XXXXXX", path[128];
    if (!CHECK(mkdtemp(scratch) != NULL))
        return;
    snprintf(path, sizeof path, "%s/map.json", scratch);
    tdn_body_map_file *f = NULL;
    tdn_error err = { 0 };
    char where[192];
    write_text(path, "{\"tendon_body_map\": 1, \"target\": {\"left_shin\": 7}}");
    snprintf(where, sizeof where, "%s: target.left_shin", path);
    expect("file", tdn_body_map_file_load(path, NULL, &f, &counting, &err), &err, TDN_ERR_PARSE, where,
           "left_shin is one joint");
    CHECK(f == NULL);
    write_text(path, "{\"tendon_body_map\": 1, \"target\": {\"left_shin\": \"calf_\"}}");
    if (CHECK(tdn_body_map_file_load(path, NULL, &f, &counting, &err) == TDN_OK)) {
        tdn_body_map map = humanoid_map;
        expect("apply from a file", tdn_body_map_file_apply(f, TARGET, humanoid_skeleton, &map, &err), &err,
               TDN_ERR_INVALID_DATA, where, "no joint named \"calf_\"; did you mean \"calf_l\"?");
    }
    tdn_body_map_file_destroy(f);
    f = NULL;
    expect("missing", tdn_body_map_file_load(scratch, NULL, &f, NULL, &err), &err, TDN_ERR_IO, scratch, "");
    expect("NULL path", tdn_body_map_file_load(NULL, NULL, &f, NULL, &err), &err, TDN_ERR_ARGUMENT, "path", "NULL");
    CHECK(remove(path) == 0 && rmdir(scratch) == 0);

    int reads = 0;
    const tdn_file_access access = { pack_read, &reads, NULL, 0 };
    const tdn_body_map_file_load_options options = { &access };
    if (CHECK(tdn_body_map_file_load("pack/map.json", &options, &f, &counting, &err) == TDN_OK)) {
        tdn_body_map map = humanoid_map;
        expect("apply from a pack", tdn_body_map_file_apply(f, TARGET, humanoid_skeleton, &map, &err), &err,
               TDN_ERR_INVALID_DATA, "pack/map.json: target.head", "did you mean \"head\"?");
    }
    CHECK_EQ_INT(reads, 1);
    tdn_body_map_file_destroy(f);

    /* every allocation failing in turn: a clean failure, nothing left */
    for (long fail = 0; fail < 8; fail++) {
        allocations_before_failure = fail;
        f = NULL;
        tdn_result r = tdn_body_map_file_load("pack/map.json", &options, &f, &counting, &err);
        allocations_before_failure = -1;
        CHECK((r == TDN_OK) == (f != NULL));
        CHECK(r == TDN_OK || r == TDN_ERR_OUT_OF_MEMORY);
        tdn_body_map_file_destroy(f);
        CHECK_EQ_INT(live_blocks, 0);
    }
}

/* ---- the schema ---- */

/* docs/body-map.schema.json: its side object lists exactly tdn_body_part_name's parts, the
 * chains (spine, neck, fingers) as arrays of 1..8 names, the required parts as a name only, the
 * others as a name or null; and every fuzz seed that is not named bad_* loads. */
static void schema(void)
{
    FILE *in = fopen(TENDON_SOURCE_DIR "/docs/body-map.schema.json", "rb");
    static char text[65536];
    const size_t n = in ? fread(text, 1, sizeof text - 1, in) : 0;
    if (in)
        fclose(in);
    text[n] = '\0';
    cJSON *doc = cJSON_Parse(text);
    const cJSON *side = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "$defs"), "side");
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(side, "properties");
    const cJSON *defs = cJSON_GetObjectItemCaseSensitive(doc, "$defs");
    if (!CHECK(props != NULL) ||
        !CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(side, "additionalProperties")))) {
        cJSON_Delete(doc);
        return;
    }
    CHECK_EQ_INT(cJSON_GetArraySize(props), TDN_BODY_PART_COUNT);
    for (int part = 0; part < TDN_BODY_PART_COUNT; part++) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(props, tdn_body_part_name(part));
        const cJSON *ref = cJSON_GetObjectItemCaseSensitive(p, "$ref");
        const int is_chain = part == TDN_BODY_PART_SPINE || part == TDN_BODY_PART_NECK ||
                             part >= TDN_BODY_PART_LEFT_THUMB;
        const int is_required = part == TDN_BODY_PART_HIPS ||
                                (part >= TDN_BODY_PART_LEFT_THIGH && part <= TDN_BODY_PART_RIGHT_FOOT &&
                                 part != TDN_BODY_PART_LEFT_TOES);
        const char *want = is_chain ? "#/$defs/chain" : is_required ? "#/$defs/joint" : "#/$defs/joint_or_null";
        if (!CHECK(cJSON_IsString(ref) && strcmp(ref->valuestring, want) == 0))
            fprintf(stderr, "  schema: %s should be %s\n", tdn_body_part_name(part), want);
    }
    const cJSON *chain = cJSON_GetObjectItemCaseSensitive(defs, "chain");
    const cJSON *array = NULL, *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(chain, "oneOf"))
    {
        if (cJSON_GetObjectItemCaseSensitive(item, "maxItems"))
            array = item;
    }
    CHECK(array && cJSON_GetObjectItemCaseSensitive(array, "maxItems")->valueint == TDN_BODY_MAP_MAX_CHAIN &&
          cJSON_GetObjectItemCaseSensitive(array, "minItems")->valueint == 1);
    cJSON_Delete(doc);

    DIR *seeds = opendir(TENDON_SOURCE_DIR "/fuzz/seeds/body_map");
    int loaded = 0;
    for (struct dirent *e; seeds && (e = readdir(seeds)) != NULL;) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, "bad_", 4) == 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/fuzz/seeds/body_map/%s", TENDON_SOURCE_DIR, e->d_name);
        tdn_body_map_file *f = NULL;
        tdn_error err = { 0 };
        if (!CHECK(tdn_body_map_file_load(path, NULL, &f, NULL, &err) == TDN_OK))
            fprintf(stderr, "  %s: %s\n", err.where, err.message);
        loaded += f != NULL;
        tdn_body_map_file_destroy(f);
    }
    if (seeds)
        closedir(seeds);
    CHECK(loaded >= 2);
}

int main(void)
{
    if (!CHECK(tdn_humanoid_create(NULL, &humanoid, NULL, NULL) == TDN_OK))
        return check_summary();
    humanoid_skeleton = tdn_asset_skeleton(humanoid);
    CHECK(tdn_body_map_find(humanoid_skeleton, NULL, &humanoid_map, NULL) == TDN_OK);
    RUN(load_errors);
    RUN(apply_errors);
    RUN(apply_refusals);
    RUN(humanoid_overrides);
    const char *dir = test_data_dir();
    if (dir && load_rig(dir, "bvh/lafan1/walk4_subject1.bvh", &lafan) &&
        load_rig(dir, "gltf/threejs/Soldier.glb", &soldier))
        RUN(real_skeletons);
    RUN(files);
    RUN(schema);
    tdn_asset_destroy(lafan.asset);
    tdn_asset_destroy(soldier.asset);
    tdn_asset_destroy(humanoid);
    return check_summary();
}
