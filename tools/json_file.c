/* tendon CLI: the tool's own JSON files (see json_file.h). */
#include "json_file.h"

#include <stdio.h>

#include "cli.h"
#include "file.h"
#include "json_reader.h"

int json_text_parse(const char *text, size_t size, const char *name, cJSON **out, char *why, size_t why_size)
{
    tdn_error err = { 0 };
    const tdn_result r = tdn_io__json_parse_value(text, size, out, &err);
    if (r == TDN_OK)
        return CLI_OK;
    snprintf(why, why_size, "%s: %s%s%s", name, err.where, err.where[0] ? ": " : "", err.message);
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

int json_check_keys(const cJSON *obj, const char *where, const char *const *allowed, char *why, size_t why_size)
{
    tdn_error err = { 0 };
    if (tdn_io__json_known_keys(obj, "", allowed, &err) == TDN_OK)
        return CLI_OK;
    snprintf(why, why_size, "%s: %s", where, err.message); /* the object's place, as the tool's messages name it */
    return CLI_BAD_INPUT;
}
