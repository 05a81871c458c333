/* tendon CLI: reading a JSON file whole, and checking its objects' keys (see json_file.h). */
#include "json_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* line and column (from 1) of byte `at` */
static void position(const char *text, size_t at, int *line, int *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < at; i++) {
        if (text[i] == '\n') {
            ++*line;
            *column = 1;
        } else {
            ++*column;
        }
    }
}

static int read_file(const char *path, char **text, size_t *size, char *why, size_t why_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, why_size, "%s: cannot open: %s", path, strerror(errno));
        return CLI_BAD_INPUT;
    }
    size_t capacity = 4096, n = 0;
    char *buffer = malloc(capacity + 1);
    while (buffer) {
        n += fread(buffer + n, 1, capacity - n, f);
        if (n < capacity)
            break;
        if (capacity > ((size_t)1 << 30)) {
            free(buffer);
            fclose(f);
            snprintf(why, why_size, "%s: larger than 1 GiB", path);
            return CLI_BAD_INPUT;
        }
        char *bigger = realloc(buffer, 2 * capacity + 1);
        if (!bigger) {
            free(buffer);
            buffer = NULL;
            break;
        }
        buffer = bigger;
        capacity *= 2;
    }
    int error = ferror(f);
    fclose(f);
    if (!buffer) {
        snprintf(why, why_size, "out of memory reading %s", path);
        return CLI_FAILURE;
    }
    if (error) {
        free(buffer);
        snprintf(why, why_size, "%s: read error", path);
        return CLI_BAD_INPUT;
    }
    buffer[n] = '\0';
    *text = buffer;
    *size = n;
    return CLI_OK;
}

int json_text_parse(const char *text, size_t size, const char *name, cJSON **out, char *why, size_t why_size)
{
    const char *end = NULL;
    *out = cJSON_ParseWithLengthOpts(text, size, &end, 0);
    if (*out)
        return CLI_OK;
    size_t at = end && end >= text && end <= text + size ? (size_t)(end - text) : 0;
    int line, column;
    position(text, at, &line, &column);
    snprintf(why, why_size, "%s: byte %zu (line %d, column %d): not valid JSON", name, at, line, column);
    return CLI_BAD_INPUT;
}

int json_file_read(const char *path, cJSON **out, char *why, size_t why_size)
{
    *out = NULL;
    char *text = NULL;
    size_t size = 0;
    int code = read_file(path, &text, &size, why, why_size);
    if (code != CLI_OK)
        return code;
    code = json_text_parse(text, size, path, out, why, why_size);
    free(text);
    return code;
}

int json_check_keys(const cJSON *obj, const char *where, const char *const *allowed, int count, char *why,
                    size_t why_size)
{
    for (const cJSON *c = obj->child; c; c = c->next) {
        int ok = 0;
        for (int i = 0; i < count && !ok; i++)
            ok = strcmp(c->string, allowed[i]) == 0;
        if (!ok) {
            const char *near = tdn_nearest_name(c->string, allowed, count);
            snprintf(why, why_size, "%s: unknown key \"%s\"%s%s%s", where, c->string, near ? "; did you mean \"" : "",
                     near ? near : "", near ? "\"?" : "");
            return CLI_BAD_INPUT;
        }
    }
    return CLI_OK;
}
