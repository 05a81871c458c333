/* tendon io: what every JSON reader shares (see json_reader.h). */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fail.h"
#include "json_hint.h"
#include "json_text.h"
#include "json_reader.h"

size_t tdn_io__json_append(tdn_io__path out, size_t at, const char *text)
{
    /* paths are made for every field read (for messages): one copy, not a loop of bytes */
    const size_t room = sizeof(tdn_io__path) - 1 - at, length = strlen(text);
    const size_t n = length < room ? length : room;
    memmove(out + at, text, n); /* text may be out itself */
    out[at + n] = '\0';
    return at + n;
}

void tdn_io__json_join(tdn_io__path out, const char *path, const char *key)
{
    size_t at = tdn_io__json_append(out, 0, path);
    if (at > 0)
        at = tdn_io__json_append(out, at, ".");
    tdn_io__json_append(out, at, key);
}

void tdn_io__json_item(tdn_io__path out, const char *path, int index)
{
    char digits[16];
    int n = 0;
    unsigned v = (unsigned)index;
    do
        digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    size_t at = tdn_io__json_append(out, tdn_io__json_append(out, 0, path), "[");
    while (n > 0) {
        const char digit[2] = { digits[--n], '\0' };
        at = tdn_io__json_append(out, at, digit);
    }
    tdn_io__json_append(out, at, "]");
}

tdn_result tdn_io__json_parse_value(const char *json, size_t size, cJSON **out, tdn_error *err)
{
    tdn_io__json_problem problem;
    tdn_result r = tdn_io__json_parse(json, size, 0, out, &problem);
    if (r != TDN_OK) {
        tdn_io__path where;
        if (problem.path[0])
            tdn_io__json_append(where, 0, problem.path);
        else if (problem.code == TDN_ERR_PARSE)
            tdn_io__json_text_place(where, sizeof where, json, problem.at);
        else
            where[0] = '\0';
        return tdn_io__fail(err, r, where, "%s", problem.message);
    }
    return TDN_OK;
}

tdn_result tdn_io__json_parse_object(const char *json, size_t size, const char *what, cJSON **out, tdn_error *err)
{
    tdn_result r = tdn_io__json_parse_value(json, size, out, err);
    if (r != TDN_OK)
        return r;
    if (!cJSON_IsObject(*out)) {
        cJSON_Delete(*out);
        *out = NULL;
        tdn_io__path where;
        tdn_io__json_text_place(where, sizeof where, json, size >= 3 && memcmp(json, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0);
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "the JSON must be an object: %s", what);
    }
    return TDN_OK;
}

static const char *key_at(const void *ctx, int i) { return ((const char *const *)ctx)[i]; }

tdn_result tdn_io__json_known_keys(const cJSON *json, const char *path, const char *const *allowed, tdn_error *err)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, json)
    {
        int known = 0;
        for (const char *const *a = allowed; *a && !known; a++)
            known = item->string && strcmp(item->string, *a) == 0;
        if (!known) { /* a misspelt setting would otherwise do nothing: the nearest as a hint */
            tdn_io__path where;
            char hint[96];
            /* a key "" is named "" (at the root, the path would be empty) */
            tdn_io__json_join(where, path, item->string && item->string[0] ? item->string : "\"\"");
            int count = 0;
            while (allowed[count])
                count++;
            tdn_io__hint(hint, sizeof hint, item->string ? item->string : "", key_at, allowed, count);
            return tdn_io__fail(err, TDN_ERR_PARSE, where, "unknown key \"%.60s\"%s", item->string ? item->string : "?",
                                hint);
        }
    }
    return TDN_OK;
}

tdn_result tdn_io__json_float(const cJSON *object, const char *key, const char *path, float fallback, float *out,
                              tdn_error *err)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    *out = fallback;
    if (!item)
        return TDN_OK;
    tdn_io__path where;
    tdn_io__json_join(where, path, key);
    if (!cJSON_IsNumber(item))
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "a number is needed");
    double v = item->valuedouble;
    if (!(v >= -FLT_MAX && v <= FLT_MAX))
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, where, "%g does not fit a float", v);
    *out = (float)v;
    return TDN_OK;
}

tdn_result tdn_io__json_string(const cJSON *object, const char *key, const char *path, int required, const char **out,
                               tdn_error *err)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    *out = NULL;
    tdn_io__path where;
    tdn_io__json_join(where, path, key);
    if (!item)
        return required ? tdn_io__fail(err, TDN_ERR_PARSE, where, "the required field '%s' is missing", key) : TDN_OK;
    if (!cJSON_IsString(item) || !item->valuestring[0])
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "a non-empty string is needed");
    *out = item->valuestring;
    return TDN_OK;
}

tdn_result tdn_io__json_bool(const cJSON *object, const char *key, const char *path, int fallback, int *out,
                             tdn_error *err)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    *out = fallback;
    if (!item)
        return TDN_OK;
    if (!cJSON_IsBool(item)) {
        tdn_io__path where;
        tdn_io__json_join(where, path, key);
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "true or false is needed");
    }
    *out = cJSON_IsTrue(item);
    return TDN_OK;
}

tdn_result tdn_io__json_floats(const cJSON *a, const char *where, int count, const char *each, float *out,
                               tdn_error *err)
{
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != count)
        return tdn_io__fail(err, TDN_ERR_PARSE, where, "an array of %d numbers (one per %s) is needed", count, each);
    for (int k = 0; k < count; k++) {
        const cJSON *c = cJSON_GetArrayItem(a, k);
        if (!cJSON_IsNumber(c) || !(c->valuedouble >= -FLT_MAX && c->valuedouble <= FLT_MAX)) {
            tdn_io__path item;
            tdn_io__json_item(item, where, k);
            return tdn_io__fail(err, TDN_ERR_PARSE, item, "a number that fits a float is needed");
        }
        out[k] = (float)c->valuedouble;
    }
    return TDN_OK;
}
