/* tendon io: JSON text into a cJSON tree under tendon's rules, for every JSON reader (glTF,
 * graph documents, blend spaces, and the CLI's timeline and stick-path files) (not installed).
 *
 * cJSON accepts more than JSON and nothing bounds what it allocates, so the text is checked
 * first, in one pass that stops at the first problem and names its byte:
 *   - the grammar of RFC 8259 (cJSON also takes numbers such as 01 or 1.);
 *   - strings: valid UTF-8, no raw control characters (JSON needs them escaped), no NUL at all
 *     (raw or \u0000: C strings end there, so a name would be cut short), no lone UTF-16
 *     surrogate;
 *   - nesting at most TDN_IO_JSON_MAX_DEPTH levels (cJSON's own limit, said as such);
 *   - at most TDN_IO_JSON_MAX_BYTES of text and TDN_IO_JSON_MAX_VALUES values: cJSON takes
 *     about 80 bytes for each value, so a document of "0,0,0,..." would cost 40 times its
 *     size.
 * Then the tree is walked for keys that appear twice in one object (cJSON would answer the
 * first and ignore the other), named by JSON path. docs/import.md states the limits. */
#ifndef TENDON_IO_JSON_TEXT_H
#define TENDON_IO_JSON_TEXT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "tendon/base.h"

#define TDN_IO_JSON_MAX_BYTES ((size_t)256 << 20)
#define TDN_IO_JSON_MAX_VALUES 1000000
#define TDN_IO_JSON_MAX_DEPTH CJSON_NESTING_LIMIT

/* Flags of tdn_io__json_parse. */
enum {
    TDN_IO_JSON_ZERO_PADDING = 1 /* NUL bytes may follow the value (a GLB pads its JSON chunk so) */
};

/* What was wrong and where: a byte of the text (path[0] == '\0'), or a JSON path. */
typedef struct tdn_io__json_problem {
    tdn_result code; /* TDN_ERR_PARSE, or TDN_ERR_OUT_OF_MEMORY */
    size_t at;       /* byte offset into the text given, a byte-order mark counted */
    char path[128];  /* "nodes[2].name", as long as tdn_error's `where` */
    char message[160];
} tdn_io__json_problem;

/* Parses `size` bytes of JSON text (a leading UTF-8 byte-order mark is skipped; only
 * whitespace may follow the value) into *out, for cJSON_Delete. On failure *out is NULL and
 * *problem says what and where. */
tdn_result tdn_io__json_parse(const char *text, size_t size, unsigned flags, cJSON **out,
                              tdn_io__json_problem *problem);

/* Bytes of the UTF-8 sequence at s (RFC 3629: shortest forms, no surrogates, at most
 * U+10FFFF; `left` bytes readable), or 0 when s does not start one. ASCII is 1. */
size_t tdn_io__utf8_length(const unsigned char *s, size_t left);

/* "byte N (line L, column C)" for byte `at` of text (lines end at LF). */
void tdn_io__json_text_place(char *out, size_t out_size, const char *text, size_t at);

#endif
