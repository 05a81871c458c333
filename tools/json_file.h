/* tendon CLI: the tool's own JSON files (timelines, stick paths, a graph document's extras, a
 * trace read back), read and checked by the io library's base (src/io/base: whole files, JSON
 * under tendon's rules, keys against the known ones), with errors worded for the tool: they
 * name the file and the place. */
#ifndef TENDON_CLI_JSON_FILE_H
#define TENDON_CLI_JSON_FILE_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Parses the file at path into *out (cJSON_Delete it). On failure *out is NULL and `why` says
 * what and where ("PATH: cannot open: ...", "PATH: byte B (line L, column C): invalid JSON:
 * ...", "PATH: a.b: the key ..."); returns CLI_OK, CLI_BAD_INPUT (unreadable or invalid), or
 * CLI_FAILURE (no memory). */
int json_file_read(const char *path, cJSON **out, char *why, size_t why_size);
/* The same for `size` bytes of text already in memory, `name` standing for the path. */
int json_text_parse(const char *text, size_t size, const char *name, cJSON **out, char *why, size_t why_size);

/* CLI_OK when every key of the object obj is one of `allowed` (NULL-terminated); else
 * CLI_BAD_INPUT with `why` naming the first other one at `where` and the nearest allowed key
 * as a hint ("WHERE: unknown key "spede"; did you mean "speed"?"). */
int json_check_keys(const cJSON *obj, const char *where, const char *const *allowed, char *why, size_t why_size);

#endif
