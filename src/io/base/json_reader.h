/* tendon io: what every JSON reader of libtendon_io, and of the tendon tool, shares: text parsed
 * into a cJSON tree with errors that name a byte, line and column; JSON paths for errors; keys
 * checked against the known ones; typed fields (not installed). */
#ifndef TENDON_IO_JSON_READER_H
#define TENDON_IO_JSON_READER_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "tendon/base.h"

typedef char tdn_io__path[128]; /* a JSON path (tdn_error's `where` has room for a file before one) */

/* Parses `size` bytes of JSON under tdn_io__json_parse's rules (json_text.h) into *out, for
 * cJSON_Delete. TDN_ERR_PARSE with "byte N (line L, column C)" (or the JSON path of a key that
 * appears twice) as `where` otherwise, TDN_ERR_OUT_OF_MEMORY with no place. */
tdn_result tdn_io__json_parse_value(const char *json, size_t size, cJSON **out, tdn_error *err);
/* The same for a document that must be an object; `what` names it in the message when it is
 * not. */
tdn_result tdn_io__json_parse_object(const char *json, size_t size, const char *what, cJSON **out, tdn_error *err);

/* Appends text at out[at] (cut to fit, always terminated); returns the new length. Paths are
 * built by hand: snprintf into a fixed buffer draws truncation warnings. */
size_t tdn_io__json_append(tdn_io__path out, size_t at, const char *text);
/* out = path + "." + key (just key when path is empty), cut to fit. */
void tdn_io__json_join(tdn_io__path out, const char *path, const char *key);
/* out = path + "[index]". */
void tdn_io__json_item(tdn_io__path out, const char *path, int index);

/* Checks that object `json` at `path` has no keys outside `allowed` (NULL-terminated); another
 * is TDN_ERR_PARSE at path.KEY, 'unknown key "KEY"' with the nearest allowed key as a hint. */
tdn_result tdn_io__json_known_keys(const cJSON *json, const char *path, const char *const *allowed, tdn_error *err);

/* A number field: absent gives `fallback`; otherwise it must be a finite float. */
tdn_result tdn_io__json_float(const cJSON *object, const char *key, const char *path, float fallback, float *out,
                              tdn_error *err);
/* A true/false field: absent gives `fallback`. */
tdn_result tdn_io__json_bool(const cJSON *object, const char *key, const char *path, int fallback, int *out,
                             tdn_error *err);
/* Array item `a` (its path `where`) of exactly `count` numbers that fit a float into out; `each`
 * says what one entry stands for in the message ("chain joint"). */
tdn_result tdn_io__json_floats(const cJSON *a, const char *where, int count, const char *each, float *out,
                               tdn_error *err);
/* A string field: absent gives NULL (or an error when `required`). */
tdn_result tdn_io__json_string(const cJSON *object, const char *key, const char *path, int required, const char **out,
                               tdn_error *err);

#endif
