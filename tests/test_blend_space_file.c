/* Blend spaces from JSON (libtendon_io): valid documents of every mode give the space and the
 * clip names; each malformed document gives the right code and a `where` naming its JSON path
 * (or byte and line for bad JSON); the graph loader's entry point prefixes its node's path;
 * truncated documents and failing allocations leave nothing allocated. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/io/blend_space_file_internal.h"
#include "check.h"
#include "counting_allocator.h"
#include "tendon/io/blend_space_file.h"

static tdn_result parse(const char *json, tdn_blend_space_file **out, tdn_error *err)
{
    return tdn_blend_space_file_load_memory(json, strlen(json), out, &counting, err);
}

static void test_valid_documents(void)
{
    static const char *const docs[] = {
        "{\"blend_space\": {\"mode\": \"linear\", \"samples\": [{\"clip\": \"idle\", \"at\": [0]}, "
        "{\"clip\": \"walk\", \"at\": [1]}, {\"clip\": \"run\", \"at\": [3]}]}}",
        "{\"blend_space\": {\"mode\": \"gradient_band\", \"samples\": [{\"clip\": \"idle\", \"at\": [0, 0, 0]}, "
        "{\"clip\": \"walk\", \"at\": [1, 0, 0]}, {\"clip\": \"run\", \"at\": [3, 0, 1]}]}}",
        "{\"blend_space\": {\"mode\": \"polar_gradient_band\", \"samples\": [{\"clip\": \"idle\", \"at\": [0, 0]}, "
        "{\"clip\": \"walk\", \"at\": [0, 1]}, {\"clip\": \"run\", \"at\": [1, 0]}]}}",
        "{\"blend_space\": {\"mode\": \"barycentric\", \"samples\": [{\"clip\": \"idle\", \"at\": [0, 0]}, "
        "{\"clip\": \"walk\", \"at\": [2, 0]}, {\"clip\": \"run\", \"at\": [0, 2]}]}}",
        "{\"blend_space\": {\"mode\": \"grid\", \"samples\": [{\"clip\": \"idle\", \"at\": [0, 0]}, "
        "{\"clip\": \"walk\", \"at\": [1, 0]}, {\"clip\": \"run\", \"at\": [0, 1]}, {\"clip\": \"jog\", \"at\": [1, 1]}]}}",
        "{\"blend_space\": {\"mode\": \"rbf\", \"samples\": [{\"clip\": \"idle\", \"at\": [0]}, "
        "{\"clip\": \"walk\", \"at\": [1]}, {\"clip\": \"run\", \"at\": [3]}]}}",
    };
    static const int dims[] = { 1, 3, 2, 2, 2, 1 }, counts[] = { 3, 3, 3, 3, 4, 3 };
    for (int m = 0; m < 6; m++) {
        tdn_blend_space_file *f = NULL;
        tdn_error err = { 0 };
        if (!CHECK(parse(docs[m], &f, &err) == TDN_OK)) {
            fprintf(stderr, "  mode %d: %s: %s\n", m, err.where, err.message);
            continue;
        }
        const tdn_blend_space *space = tdn_blend_space_file_space(f);
        CHECK_EQ_INT(tdn_blend_space_mode_of(space), m);
        CHECK_EQ_INT(tdn_blend_space_dimensions(space), dims[m]);
        CHECK_EQ_INT(tdn_blend_space_sample_count(space), counts[m]);
        CHECK(strcmp(tdn_blend_space_file_clip_name(f, 0), "idle") == 0);
        CHECK(strcmp(tdn_blend_space_file_clip_name(f, 2), "run") == 0);
        CHECK(tdn_blend_space_file_clip_name(f, counts[m]) == NULL && tdn_blend_space_file_clip_name(f, -1) == NULL);
        CHECK_NEAR(tdn_blend_space_point(space, 1)[0], m == 2 ? 0.0 : m == 3 ? 2.0 : 1.0, 0.0);
        tdn_blend_space_file_destroy(f);
    }
    CHECK_EQ_INT(live_blocks, 0);
}

/* Samples at 0, 1 and 3; at 2 the walk and the run share the weight (hand-worked). */
static void test_linear_weights(void)
{
    const char *json = "{\"blend_space\": {\"mode\": \"linear\", \"samples\": [{\"clip\": \"idle\", \"at\": [0]}, "
                       "{\"clip\": \"walk\", \"at\": [1]}, {\"clip\": \"run\", \"at\": [3]}]}}";
    tdn_blend_space_file *f = NULL;
    if (!CHECK(parse(json, &f, NULL) == TDN_OK))
        return;
    float w[3], at = 2.0f;
    CHECK(tdn_blend_space_weights(tdn_blend_space_file_space(f), &at, w, NULL) == TDN_OK);
    CHECK_NEAR(w[0], 0.0, 1e-6);
    CHECK_NEAR(w[1], 0.5, 1e-6);
    CHECK_NEAR(w[2], 0.5, 1e-6);
    tdn_blend_space_file_destroy(f);
    CHECK_EQ_INT(live_blocks, 0);
}

/* Unknown keys, a byte-order mark, CRLF line ends and JSON numbers of every shape are fine. */
static void test_tolerated(void)
{
    const char
        *json = "\xEF\xBB\xBF{\"version\": 1, \"blend_space\": {\"name\": \"loco\", \"mode\": \"gradient_band\",\r\n"
                "\"samples\": [{\"clip\": \"a\", \"at\": [-0.5e1, 1E+2], \"speed\": 3},\r\n"
                "{\"at\": [0.25, -1e15], \"clip\": \"b\"}]}}\r\n";
    tdn_blend_space_file *f = NULL;
    tdn_error err = { 0 };
    if (!CHECK(parse(json, &f, &err) == TDN_OK)) {
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
        return;
    }
    const float *p = tdn_blend_space_point(tdn_blend_space_file_space(f), 0);
    CHECK_NEAR(p[0], -5.0, 0.0);
    CHECK_NEAR(p[1], 100.0, 0.0);
    CHECK_NEAR(tdn_blend_space_point(tdn_blend_space_file_space(f), 1)[1], -1e15f, 0.0);
    tdn_blend_space_file_destroy(f);
    CHECK_EQ_INT(live_blocks, 0);
}

typedef struct bad_case {
    const char *json;
    tdn_result code;
    const char *where;   /* the error's where starts with this */
    const char *message; /* and its message contains this (NULL: anything) */
} bad_case;

#define SPACE(body) "{\"blend_space\": " body "}"
#define S2(a, b) "{\"clip\": \"" a "\", \"at\": " b "}"

static void test_malformed(void)
{
    static const bad_case cases[] = {
        { "", TDN_ERR_PARSE, "byte 0 (line 1, column 1)", "invalid JSON" },
        { "{\"blend_space\": {\"mode\": \"linear\",\n  \"samples\": [,]}}", TDN_ERR_PARSE,
          "byte 49 (line 2, column 15)", "invalid JSON" },
        { "{\"blend_space\": {}} x", TDN_ERR_PARSE, "byte 20 (line 1, column 21)", "after the JSON" },
        { "[1, 2]", TDN_ERR_PARSE, "byte 0", "must be an object" },
        { "{}", TDN_ERR_PARSE, "blend_space", "missing" },
        { "{\"blend_space\": [1]}", TDN_ERR_PARSE, "blend_space", "object" },
        { SPACE("{\"samples\": []}"), TDN_ERR_PARSE, "blend_space.mode", "missing" },
        { SPACE("{\"mode\": 2, \"samples\": []}"), TDN_ERR_PARSE, "blend_space.mode", "string" },
        { SPACE("{\"mode\": \"Linear\", \"samples\": []}"), TDN_ERR_INVALID_DATA, "blend_space.mode",
          "linear, gradient_band, polar_gradient_band, barycentric, grid, rbf" },
        { SPACE("{\"mode\": \"grid\"}"), TDN_ERR_PARSE, "blend_space.samples", "missing" },
        { SPACE("{\"mode\": \"grid\", \"samples\": {}}"), TDN_ERR_PARSE, "blend_space.samples", "array" },
        { SPACE("{\"mode\": \"grid\", \"samples\": []}"), TDN_ERR_INVALID_DATA, "blend_space.samples", "at least one" },
        { SPACE("{\"mode\": \"grid\", \"samples\": [" S2("a", "[0, 0]") ", 7]}"), TDN_ERR_PARSE,
          "blend_space.samples[1]", "object" },
        { SPACE("{\"mode\": \"grid\", \"samples\": [" S2("a", "[0, 0]") ", {\"at\": [1, 0]}]}"), TDN_ERR_PARSE,
          "blend_space.samples[1].clip", "missing" },
        { SPACE("{\"mode\": \"linear\", \"samples\": [{\"clip\": 3, \"at\": [0]}]}"), TDN_ERR_PARSE,
          "blend_space.samples[0].clip", "string" },
        { SPACE("{\"mode\": \"linear\", \"samples\": [{\"clip\": \"\", \"at\": [0]}]}"), TDN_ERR_INVALID_DATA,
          "blend_space.samples[0].clip", "empty" },
        { SPACE("{\"mode\": \"linear\", \"samples\": [{\"clip\": \"a\"}]}"), TDN_ERR_PARSE, "blend_space.samples[0].at",
          "missing" },
        { SPACE("{\"mode\": \"linear\", \"samples\": [" S2("a", "0") "]}"), TDN_ERR_PARSE, "blend_space.samples[0].at",
          "array" },
        { SPACE("{\"mode\": \"grid\", \"samples\": [" S2("a", "[0, \"1\"]") "]}"), TDN_ERR_PARSE,
          "blend_space.samples[0].at[1]", "number" },
        { SPACE("{\"mode\": \"grid\", \"samples\": [" S2("a", "[0, null]") "]}"), TDN_ERR_PARSE,
          "blend_space.samples[0].at[1]", "number" },
        { SPACE("{\"mode\": \"linear\", \"samples\": [" S2("a", "[0, 1]") "]}"), TDN_ERR_INVALID_DATA,
          "blend_space.samples[0].at", "a linear space takes 1" },
        { SPACE("{\"mode\": \"polar_gradient_band\", \"samples\": [" S2("a", "[0]") "]}"), TDN_ERR_INVALID_DATA,
          "blend_space.samples[0].at", "takes 2" },
        { SPACE("{\"mode\": \"barycentric\", \"samples\": [" S2("a", "[0, 1, 2]") "]}"), TDN_ERR_INVALID_DATA,
          "blend_space.samples[0].at", "takes 2" },
        { SPACE("{\"mode\": \"rbf\", \"samples\": [" S2("a", "[]") "]}"), TDN_ERR_INVALID_DATA,
          "blend_space.samples[0].at", "1 to 8" },
        { SPACE("{\"mode\": \"gradient_band\", \"samples\": [" S2("a", "[1, 2, 3, 4, 5, 6, 7, 8, 9]") "]}"),
          TDN_ERR_INVALID_DATA, "blend_space.samples[0].at", "1 to 8" },
        { SPACE("{\"mode\": \"gradient_band\", \"samples\": [" S2("a", "[0, 0]") ", " S2("b", "[1, 0]") ", " S2(
              "c", "[1, 0, 0]") "]}"),
          TDN_ERR_INVALID_DATA, "blend_space.samples[2].at", "first sample's has 2" },
        { SPACE("{\"mode\": \"gradient_band\", \"samples\": [" S2("a", "[0, 0]") ", " S2("b", "[1, 0]") ", " S2(
              "c", "[1, 1e39]") "]}"),
          TDN_ERR_INVALID_DATA, "blend_space.samples[2].at[1]", "largest coordinate" },
        { SPACE("{\"mode\": \"gradient_band\", \"samples\": [" S2("a", "[-1e400, 0]") "]}"), TDN_ERR_INVALID_DATA,
          "blend_space.samples[0].at[0]", "largest coordinate" },
        { SPACE("{\"mode\": \"gradient_band\", \"samples\": [" S2("a", "[0, 1.5e15]") "]}"), TDN_ERR_INVALID_DATA,
          "blend_space.samples[0].at[1]", "largest coordinate" },
        /* what the core judges: its where gets the path in front */
        { SPACE("{\"mode\": \"gradient_band\", \"samples\": [" S2("a", "[0, 0]") ", " S2("b", "[1, 0]") ", " S2(
              "c", "[0, 0]") "]}"),
          TDN_ERR_INVALID_DATA, "blend_space.samples[", NULL },
        { SPACE("{\"mode\": \"grid\", \"samples\": [" S2("a", "[0, 0]") ", " S2("b", "[1, 0]") ", " S2("c",
                                                                                                       "[0, 1]") "]}"),
          TDN_ERR_INVALID_DATA, "blend_space.samples[", NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        static int dummy;
        tdn_blend_space_file *f = (tdn_blend_space_file *)(void *)&dummy; /* must become NULL */
        tdn_error err = { 0 };
        tdn_result r = parse(cases[i].json, &f, &err);
        int ok = r == cases[i].code && err.code == r && f == NULL &&
                 strncmp(err.where, cases[i].where, strlen(cases[i].where)) == 0 &&
                 (!cases[i].message || strstr(err.message, cases[i].message));
        if (!CHECK(ok))
            fprintf(stderr, "  case %zu: %s -> %s, where '%s', message '%s'\n", i, cases[i].json, tdn_result_name(r),
                    err.where, err.message);
        CHECK_EQ_INT(live_blocks, 0);
    }
}

static void test_too_many_samples(void)
{
    char json[8192];
    size_t at = (size_t)snprintf(json, sizeof json, "{\"blend_space\": {\"mode\": \"linear\", \"samples\": [");
    for (int i = 0; i < TDN_MAX_BLEND_SPACE_SAMPLES + 1; i++)
        at += (size_t)snprintf(json + at, sizeof json - at, "%s{\"clip\": \"c%d\", \"at\": [%d]}", i ? ", " : "", i, i);
    snprintf(json + at, sizeof json - at, "]}}");
    tdn_blend_space_file *f = NULL;
    tdn_error err = { 0 };
    CHECK(parse(json, &f, &err) == TDN_ERR_INVALID_DATA && f == NULL);
    CHECK(strcmp(err.where, "blend_space.samples") == 0 && strstr(err.message, "at most 64"));
    /* 64 is fine */
    char *last = strstr(json, ", {\"clip\": \"c64\"");
    if (CHECK(last != NULL)) {
        strcpy(last, "]}}");
        CHECK(parse(json, &f, &err) == TDN_OK);
        CHECK_EQ_INT(tdn_blend_space_sample_count(tdn_blend_space_file_space(f)), 64);
        tdn_blend_space_file_destroy(f);
    }
    CHECK_EQ_INT(live_blocks, 0);
}

/* The graph loader's entry point: errors carry its node's path ("" for a root node). */
static void test_node_prefix(void)
{
    cJSON *node = cJSON_Parse("{\"type\": \"blend_space\", \"mode\": \"grid\", \"samples\": ["
                              "{\"clip\": \"a\", \"at\": [0, 0]}, {\"clip\": \"b\", \"at\": [true, 0]}]}");
    if (!CHECK(node != NULL))
        return;
    tdn_blend_space_file *f = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_io__blend_space_from_json(node, "nodes[3]", &counting, &f, &err) == TDN_ERR_PARSE && f == NULL);
    CHECK(strcmp(err.where, "nodes[3].samples[1].at[0]") == 0);
    CHECK(tdn_io__blend_space_from_json(node, "", &counting, &f, &err) == TDN_ERR_PARSE);
    CHECK(strcmp(err.where, "samples[1].at[0]") == 0);
    /* (0, 0) and (1, 1) are not a full grid: the core's error, its sample named after the node */
    cJSON *at = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(node, "samples"), 1), "at");
    cJSON_ReplaceItemInArray(at, 0, cJSON_CreateNumber(1));
    cJSON_ReplaceItemInArray(at, 1, cJSON_CreateNumber(1));
    CHECK(tdn_io__blend_space_from_json(node, "nodes[3]", &counting, &f, &err) == TDN_ERR_INVALID_DATA && f == NULL);
    CHECK(strncmp(err.where, "nodes[3].samples[", 17) == 0);
    cJSON_AddItemToArray(cJSON_GetObjectItem(node, "samples"), cJSON_Parse("{\"clip\": \"c\", \"at\": [0, 1]}"));
    cJSON_AddItemToArray(cJSON_GetObjectItem(node, "samples"), cJSON_Parse("{\"clip\": \"d\", \"at\": [1, 0]}"));
    CHECK(tdn_io__blend_space_from_json(node, "nodes[3]", &counting, &f, &err) == TDN_OK && f != NULL);
    CHECK(strcmp(tdn_blend_space_file_clip_name(f, 3), "d") == 0);
    tdn_blend_space_file_destroy(f);
    CHECK(tdn_io__blend_space_from_json(NULL, "nodes[3]", &counting, &f, &err) == TDN_ERR_PARSE && f == NULL);
    CHECK(strcmp(err.where, "nodes[3]") == 0);
    cJSON_Delete(node);
    CHECK_EQ_INT(live_blocks, 0);
}

static const char *const GOOD = "{\"blend_space\": {\"mode\": \"gradient_band\", \"samples\": [\n"
                                "  {\"clip\": \"idle\", \"at\": [0, 0]}, {\"clip\": \"walk\", \"at\": [0, 1.5]},\n"
                                "  {\"clip\": \"strafe\", \"at\": [1.25, 0]}]}}\n";

/* Every prefix of a good document fails cleanly (naming a place) or, with only white space
 * missing, parses. */
static void test_prefixes(void)
{
    const size_t n = strlen(GOOD);
    for (size_t len = 0; len < n; len++) {
        char *copy = malloc(len ? len : 1); /* exactly len bytes: no terminator to lean on */
        memcpy(copy, GOOD, len);
        tdn_blend_space_file *f = NULL;
        tdn_error err = { 0 };
        tdn_result r = tdn_blend_space_file_load_memory(copy, len, &f, &counting, &err);
        if (len < n - 1)
            CHECK(r == TDN_ERR_PARSE && f == NULL && err.where[0] != '\0');
        else
            CHECK(r == TDN_OK);
        tdn_blend_space_file_destroy(f);
        free(copy);
    }
    CHECK_EQ_INT(live_blocks, 0);
}

static void test_failing_allocations(void)
{
    int succeeded = 0;
    for (long fail_at = 0; fail_at < 20 && !succeeded; fail_at++) {
        allocations_before_failure = fail_at;
        tdn_blend_space_file *f = NULL;
        tdn_error err = { 0 };
        tdn_result r = parse(GOOD, &f, &err);
        if (r == TDN_OK) {
            succeeded = 1;
            tdn_blend_space_file_destroy(f);
        } else {
            CHECK(r == TDN_ERR_OUT_OF_MEMORY && f == NULL);
        }
        CHECK_EQ_INT(live_blocks, 0);
    }
    allocations_before_failure = -1;
    CHECK(succeeded);
}

static void test_files(void)
{
    char path[] = "tendon_blend_space_test.json"; /* in the test's working folder */
    FILE *out = fopen(path, "wb");
    if (!CHECK(out != NULL))
        return;
    fputs(GOOD, out);
    fclose(out);
    tdn_blend_space_file *f = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_blend_space_file_load(path, NULL, &f, NULL, &err) == TDN_OK);
    CHECK(strcmp(tdn_blend_space_file_clip_name(f, 2), "strafe") == 0);
    tdn_blend_space_file_destroy(f);
    remove(path);
    f = (tdn_blend_space_file *)path;
    CHECK(tdn_blend_space_file_load(path, NULL, &f, NULL, &err) == TDN_ERR_IO && f == NULL);
    CHECK(strstr(err.where, "tendon_blend_space_") != NULL);
    CHECK(tdn_blend_space_file_load(NULL, NULL, &f, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(tdn_blend_space_file_load_memory(GOOD, strlen(GOOD), NULL, NULL, NULL) == TDN_ERR_ARGUMENT);
    tdn_blend_space_file_destroy(NULL);
    CHECK(tdn_blend_space_file_space(NULL) == NULL && tdn_blend_space_file_clip_name(NULL, 0) == NULL);
}

int main(void)
{
    RUN(test_valid_documents);
    RUN(test_linear_weights);
    RUN(test_tolerated);
    RUN(test_malformed);
    RUN(test_too_many_samples);
    RUN(test_node_prefix);
    RUN(test_prefixes);
    RUN(test_failing_allocations);
    RUN(test_files);
    return check_summary();
}
