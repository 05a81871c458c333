/* tendon tests: the rules every JSON reader of libtendon_io shares (src/io/base/json_text.h), on
 * crafted documents given to each reader: glTF, graph documents and blend-space files refuse
 * repeated keys (named by JSON path), NUL bytes, \u0000, raw control characters and invalid
 * UTF-8 in strings, nesting deeper than 1000 levels and more than 1,000,000 values (named by
 * byte); the limits hold exactly at their boundary. The CLI's own JSON files (timelines, stick
 * paths) are checked by hostile_cli_check.py. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/io/base/json_text.h"
#include "check.h"
#include "tendon/io/blend_space_file.h"
#include "tendon/io/graph_document.h"
#include "tendon/io/asset.h"

typedef enum reader { GLTF, GRAPH, BLEND_SPACE } reader;
static const char *const reader_names[] = { "glTF", "graph document", "blend space" };

/* The document given to one reader; returns its code, err filled, nothing left allocated. */
static tdn_result read_as(reader r, const char *text, size_t size, tdn_error *err)
{
    tdn_result code;
    if (r == GLTF) {
        tdn_asset *asset = NULL;
        code = tdn_asset_load_memory(text, size, NULL, &asset, NULL, err);
        tdn_asset_destroy(asset);
    } else if (r == GRAPH) {
        tdn_graph_document *doc = NULL;
        code = tdn_graph_document_load_memory(text, size, NULL, &doc, NULL, err);
        tdn_graph_document_destroy(doc);
    } else {
        tdn_blend_space_file *f = NULL;
        code = tdn_blend_space_file_load_memory(text, size, &f, NULL, err);
        tdn_blend_space_file_destroy(f);
    }
    return code;
}

/* What a reader names as the place of byte `at`: a glTF "byte N", the others "byte N (line
 * L, column C)" (every document here is one line). */
static void byte_place(reader r, size_t at, char *out, size_t size)
{
    if (r == GLTF)
        snprintf(out, size, "byte %zu", at);
    else
        snprintf(out, size, "byte %zu (line 1, column %zu)", at, at + 1);
}

/* Checks that reader r refuses text (size bytes; SIZE_MAX: up to its zero) with TDN_ERR_PARSE
 * at `where`, saying `says`. */
static void expect_refused(reader r, const char *text, size_t size, const char *where, const char *says)
{
    if (size == SIZE_MAX)
        size = strlen(text);
    tdn_error err = { 0 };
    const tdn_result code = read_as(r, text, size, &err);
    if (!CHECK_EQ_INT(code, TDN_ERR_PARSE) || !CHECK(strcmp(err.where, where) == 0) ||
        !CHECK(strstr(err.message, says) != NULL))
        fprintf(stderr, "  %s: expected '%s' at %s; got %s: %s\n", reader_names[r], says, where, err.where,
                err.message);
}

/* A valid-looking start of each reader's document, for the bad part to follow: after it comes
 * a string, number, array or object value and then closing braces. */
static const char *const openings[] = {
    "{\"asset\":{\"version\":\"2.0\"},\"extras\":",
    "{\"character\":{\"generated\":\"humanoid\"},\"root\":{\"type\":\"rest\"},\"x\":",
    "{\"blend_space\":{\"mode\":\"linear\",\"samples\":[]},\"x\":",
};

/* ---- strings ---- */

static void bad_strings_are_refused_at_their_byte(void)
{
    static const struct {
        const char *value;
        size_t length;
        size_t bad;
        const char *says;
    } cases[] = {
        /* value bytes, its length, the offset of the bad byte in it */
        { "\"ab\0cd\"", 7, 3, "NUL byte" },
        { "\"ab\\u0000cd\"", 12, 3, "\\u0000" },
        { "\"ab\033[31mcd\"", 11, 3, "control character 0x1B" },
        { "\"ab\tcd\"", 7, 3, "control character 0x09" },
        { "\"ab\xC3\x28\"", 6, 3, "invalid UTF-8" },         /* a lead byte without its continuation */
        { "\"ab\xC0\xAF\"", 6, 3, "invalid UTF-8" },         /* an overlong '/' */
        { "\"ab\xED\xA0\x80\"", 7, 3, "invalid UTF-8" },     /* a surrogate written in UTF-8 */
        { "\"ab\xF4\x90\x80\x80\"", 8, 3, "invalid UTF-8" }, /* beyond U+10FFFF */
        { "\"ab\xFF\"", 5, 3, "invalid UTF-8" },
        { "\"ab\\ud800cd\"", 12, 3, "surrogate" },
        { "\"ab\\udc00\"", 10, 3, "surrogate" },
        { "\"ab\\ud800\\Qdc00\"", 16, 3, "surrogate" }, /* a second half needs its \\u */
        { "\"ab\\x\"", 6, 3, "unknown escape" },
        { "01", 2, 0, "not a JSON number" }, /* cJSON reads these two */
        { "1.", 2, 0, "not a JSON number" },
    };
    for (int r = GLTF; r <= BLEND_SPACE; r++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            const size_t prefix = strlen(openings[r]), size = prefix + cases[i].length + 1;
            char *text = malloc(size);
            memcpy(text, openings[r], prefix);
            memcpy(text + prefix, cases[i].value, cases[i].length);
            text[size - 1] = '}';
            char where[64];
            byte_place((reader)r, prefix + cases[i].bad, where, sizeof where);
            expect_refused((reader)r, text, size, where, cases[i].says);
            free(text);
        }
    /* the same characters in valid forms are read: an escaped tab, a 4-byte character, a pair */
    const char
        *fine = "{\"blend_space\":{\"mode\":\"linear\",\"samples\":[{\"clip\":\"a\\tb\xF0\x9F\x98\x80\\ud83d\\ude00\","
                "\"at\":[0]},{\"clip\":\"b\",\"at\":[1]}]}}";
    tdn_blend_space_file *f = NULL;
    tdn_error err = { 0 };
    if (CHECK_EQ_INT(tdn_blend_space_file_load_memory(fine, strlen(fine), &f, NULL, &err), TDN_OK))
        CHECK(strcmp(tdn_blend_space_file_clip_name(f, 0), "a\tb\xF0\x9F\x98\x80\xF0\x9F\x98\x80") == 0);
    tdn_blend_space_file_destroy(f);
}

/* ---- repeated keys ---- */

static void repeated_keys_are_refused_by_path(void)
{
    expect_refused(
        GRAPH, "{\"character\":{\"generated\":\"humanoid\"},\"root\":{\"type\":\"rest\"},\"root\":{\"type\":\"x\"}}",
        SIZE_MAX, "root", "\"root\" appears twice");
    expect_refused(GLTF, "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"nodes\":[{},{}]}", SIZE_MAX, "nodes",
                   "\"nodes\" appears twice");
    expect_refused(GLTF, "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{\"name\":\"a\",\"name\":\"b\"}]}", SIZE_MAX,
                   "nodes[1].name", "\"name\" appears twice");
    expect_refused(BLEND_SPACE,
                   "{\"blend_space\":{\"mode\":\"linear\",\"samples\":[{\"clip\":\"a\",\"at\":[0],\"at\":[1]}]}}",
                   SIZE_MAX, "blend_space.samples[0].at", "\"at\" appears twice");
    /* the same key in different objects is no repeat */
    tdn_asset *asset = NULL;
    const char *fine = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"}]}";
    CHECK_EQ_INT(tdn_asset_load_memory(fine, strlen(fine), NULL, &asset, NULL, NULL), TDN_OK);
    tdn_asset_destroy(asset);
}

/* An object of 40 keys k0..k39 (sorted, not pairwise, when it is this large) where key 30
 * repeats key 5 and key 35 key 2: the first repeat in document order, key 30, is named. */
static void repeated_keys_in_a_large_object(void)
{
    char text[1024];
    size_t at = (size_t)snprintf(text, sizeof text, "{\"x\":[0,{");
    for (int k = 0; k < 40; k++) {
        const int name = k == 30 ? 5 : k == 35 ? 2 : k;
        at += (size_t)snprintf(text + at, sizeof text - at, "%s\"k%d\":%d", k ? "," : "", name, k);
    }
    snprintf(text + at, sizeof text - at, "}]}");
    cJSON *doc = NULL;
    tdn_io__json_problem problem;
    CHECK_EQ_INT(tdn_io__json_parse(text, strlen(text), 0, &doc, &problem), TDN_ERR_PARSE);
    CHECK(doc == NULL && strcmp(problem.path, "x[1].k5") == 0 && strstr(problem.message, "\"k5\"") != NULL);
}

/* ---- nesting and size ---- */

static char *nested(const char *opening, int levels, size_t *size)
{
    const size_t prefix = strlen(opening);
    *size = prefix + 2 * (size_t)levels + 1;
    char *text = malloc(*size);
    memcpy(text, opening, prefix);
    memset(text + prefix, '[', (size_t)levels);
    memset(text + prefix + levels, ']', (size_t)levels);
    text[*size - 1] = '}';
    return text;
}

/* 5,000 levels: the array that would be level 1001 (the document's object is level 1) is
 * named, with the limit; exactly 1000 levels parse. */
static void nesting_deeper_than_1000_levels(void)
{
    for (int r = GLTF; r <= BLEND_SPACE; r++) {
        size_t size;
        char *text = nested(openings[r], 5000, &size);
        char where[64];
        byte_place((reader)r, strlen(openings[r]) + 999, where, sizeof where);
        expect_refused((reader)r, text, size, where, "nesting deeper than 1000 levels");
        free(text);
    }
    for (int levels = 1000; levels <= 1001; levels++) {
        size_t size;
        char *text = nested("", levels, &size);
        cJSON *doc = NULL;
        tdn_io__json_problem problem;
        const tdn_result r = tdn_io__json_parse(text, size - 1, 0, &doc, &problem); /* without the '}' */
        CHECK_EQ_INT(r, levels == 1000 ? TDN_OK : TDN_ERR_PARSE);
        CHECK(levels == 1000 ? doc != NULL : problem.at == 1000);
        cJSON_Delete(doc);
        free(text);
    }
}

/* "[0,0,...,0]": an array of n zeros, n + 1 JSON values. */
static char *zeros(long n, size_t *size)
{
    *size = 2 * (size_t)n + 1;
    char *text = malloc(*size);
    text[0] = '[';
    for (long k = 0; k < n; k++)
        text[1 + 2 * k] = '0', text[2 + 2 * k] = k == n - 1 ? ']' : ',';
    return text;
}

/* 1,000,000 values parse; one more is refused at that value, the limit named. A glTF of
 * zeros in its extras (2 bytes a value, 80 in cJSON's tree) is refused the same way. */
static void more_values_than_the_limit(void)
{
    for (long values = TDN_IO_JSON_MAX_VALUES; values <= TDN_IO_JSON_MAX_VALUES + 1; values++) {
        size_t size;
        char *text = zeros(values - 1, &size);
        cJSON *doc = NULL;
        tdn_io__json_problem problem;
        const tdn_result r = tdn_io__json_parse(text, size, 0, &doc, &problem);
        CHECK_EQ_INT(r, values == TDN_IO_JSON_MAX_VALUES ? TDN_OK : TDN_ERR_PARSE);
        if (r != TDN_OK) /* value k (the array is value 1, zero j value j + 1) starts at byte 2 (k - 1) - 1 */
            CHECK(problem.at == 2 * (size_t)TDN_IO_JSON_MAX_VALUES - 1 && strstr(problem.message, "1000000") != NULL);
        cJSON_Delete(doc);
        free(text);
    }
    const char *opening = "{\"asset\":{\"version\":\"2.0\"},\"extras\":["; /* values 1 to 4 */
    const size_t prefix = strlen(opening), count = 2000000, size = prefix + 2 * count + 1;
    char *text = malloc(size);
    memcpy(text, opening, prefix);
    for (size_t k = 0; k < count; k++)
        text[prefix + 2 * k] = '0', text[prefix + 2 * k + 1] = ',';
    text[size - 2] = ']', text[size - 1] = '}';
    char where[64]; /* value 1,000,001 is zero number 999,997 */
    byte_place(GLTF, prefix + 2 * (size_t)(TDN_IO_JSON_MAX_VALUES + 1 - 4 - 1), where, sizeof where);
    expect_refused(GLTF, text, size, where, "at most 1000000");
    free(text);
}

/* Zeros may follow the value only where they pad (a GLB's JSON chunk), mixed with whitespace. */
static void zeros_only_where_they_pad(void)
{
    const char text[] = "{} \0 \0\n";
    cJSON *doc = NULL;
    tdn_io__json_problem problem;
    CHECK_EQ_INT(tdn_io__json_parse(text, sizeof text - 1, TDN_IO_JSON_ZERO_PADDING, &doc, &problem), TDN_OK);
    cJSON_Delete(doc);
    CHECK_EQ_INT(tdn_io__json_parse(text, sizeof text - 1, 0, &doc, &problem), TDN_ERR_PARSE);
    CHECK(doc == NULL && problem.at == 3 && strstr(problem.message, "after the JSON value") != NULL);
}

int main(void)
{
    RUN(bad_strings_are_refused_at_their_byte);
    RUN(repeated_keys_are_refused_by_path);
    RUN(repeated_keys_in_a_large_object);
    RUN(nesting_deeper_than_1000_levels);
    RUN(more_values_than_the_limit);
    RUN(zeros_only_where_they_pad);
    return check_summary();
}
