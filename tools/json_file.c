/* tendon CLI: reading a JSON file whole, and checking its objects' keys (see json_file.h). */
#include "json_file.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "file.h"      /* libtendon_io's file reading and JSON rules (src/io), shared with the library */
#include "json_text.h"

int json_text_parse(const char *text, size_t size, const char *name, cJSON **out, char *why, size_t why_size)
{
    tdn_io__json_problem problem;
    const tdn_result r = tdn_io__json_parse(text, size, 0, out, &problem);
    if (r == TDN_OK)
        return CLI_OK;
    if (problem.path[0]) {
        snprintf(why, why_size, "%s: %s: %s", name, problem.path, problem.message);
    } else if (r == TDN_ERR_PARSE) {
        char place[128];
        tdn_io__json_text_place(place, sizeof place, text, problem.at);
        snprintf(why, why_size, "%s: %s: %s", name, place, problem.message);
    } else {
        snprintf(why, why_size, "%s: %s", name, problem.message);
    }
    return r == TDN_ERR_OUT_OF_MEMORY ? CLI_FAILURE : CLI_BAD_INPUT;
}

int json_file_read(const char *path, cJSON **out, char *why, size_t why_size)
{
    *out = NULL;
    tdn_io__file file;
    tdn_error err = { 0 };
    const tdn_result r = tdn_io__read_file(path, &file, &err);
    if (r != TDN_OK) {
        snprintf(why, why_size, "%s: %s", err.where, err.message);
        return r == TDN_ERR_OUT_OF_MEMORY ? CLI_FAILURE : CLI_BAD_INPUT;
    }
    const int code = json_text_parse(file.data, file.size, path, out, why, why_size);
    tdn_io__free_file(&file);
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
