/* tendon CLI: what the commands share. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "json_text.h" /* tdn_io__utf8_length */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

int cli_exit_code(tdn_result res)
{
    switch (res) {
    case TDN_OK:
        return CLI_OK;
    case TDN_ERR_ARGUMENT:
    case TDN_ERR_INVALID_DATA:
    case TDN_ERR_PARSE:
    case TDN_ERR_UNSUPPORTED:
    case TDN_ERR_IO: /* a missing or unreadable file is the user's input too */
        return CLI_BAD_INPUT;
    default:
        return CLI_FAILURE;
    }
}

const char *cli_text(const char *s, char *out, size_t size)
{
    const unsigned char *p = (const unsigned char *)s;
    const size_t n = strlen(s);
    size_t at = 0;
    for (size_t i = 0; i < n;) {
        const size_t length = tdn_io__utf8_length(p + i, n - i), taken = length ? length : 1;
        const int control = p[i] < 0x20 || p[i] == 0x7F || (p[i] == 0xC2 && length == 2 && p[i + 1] < 0xA0);
        const size_t need = control || !length ? 4 * taken : taken;
        if (at + need + 1 > size)
            break;
        for (size_t k = 0; k < taken; k++) {
            if (control || !length)
                snprintf(out + at, 5, "\\x%02X", p[i + k]), at += 4;
            else
                out[at++] = (char)p[i + k];
        }
        i += taken;
    }
    if (size > 0)
        out[at < size ? at : size - 1] = '\0';
    return out;
}

void cli_say(const char *command, const char *text)
{
    char safe[CLI_TEXT_SIZE];
    fprintf(stderr, "tendon %s: %s\n", command, cli_text(text, safe, sizeof safe));
}

int cli_report(const char *command, tdn_result res, const tdn_error *err)
{
    char where[CLI_TEXT_SIZE], message[CLI_TEXT_SIZE];
    if (err && err->message[0])
        fprintf(stderr, "tendon %s: %s%s%s\n", command, cli_text(err->where, where, sizeof where),
                err->where[0] ? ": " : "", cli_text(err->message, message, sizeof message));
    else
        fprintf(stderr, "tendon %s: %s\n", command, tdn_result_name(res));
    if (err && strstr(err->message, "the allowed roots")) /* a file named outside what may be read */
        fprintf(stderr, "tendon %s: --allow-files DIR allows the files below DIR\n", command);
    return cli_exit_code(res);
}

int cli_parse_float(const char *command, const char *option, const char *text, float *out)
{
    char *end;
    float v = strtof(text, &end);
    if (end == text || *end != '\0' || !isfinite(v)) {
        fprintf(stderr, "tendon %s: %s wants a number, not '%s'\n", command, option, text);
        return 0;
    }
    *out = v;
    return 1;
}

int cli_files_option(const char *command, int argc, char **argv, int *i, cli_files *files)
{
    if (strcmp(argv[*i], "--allow-files") != 0)
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "tendon %s: --allow-files needs a folder\n", command);
        return -1;
    }
    if (files->allowed_count == CLI_MAX_ALLOWED_FOLDERS) {
        fprintf(stderr, "tendon %s: --allow-files: at most %d folders\n", command, CLI_MAX_ALLOWED_FOLDERS);
        return -1;
    }
    files->allowed[files->allowed_count++] = argv[++*i];
    return 1;
}

const tdn_file_access *cli_file_access(cli_access *out, const cli_files *files, const char *path)
{
    memset(out, 0, sizeof *out);
    const size_t folder = (size_t)(cli_base_name(path) - path); /* up to and with the last separator */
    snprintf(out->folder, sizeof out->folder, "%.*s", (int)(folder ? folder : 1), folder ? path : ".");
    int n = 0;
    out->roots[n++] = out->folder;
    out->roots[n++] = ".";
    const char *data = getenv("TENDON_DATA");
    if (data && data[0])
        out->roots[n++] = data;
    for (int k = 0; files && k < files->allowed_count; k++)
        out->roots[n++] = files->allowed[k];
    out->access.roots = out->roots;
    out->access.root_count = n;
    return &out->access;
}

int cli_common_option(const char *command, int argc, char **argv, int *i, cli_common *common)
{
    const int files = cli_files_option(command, argc, argv, i, &common->files);
    if (files != 0)
        return files;
    const char *arg = argv[*i];
    if (strcmp(arg, "--json") == 0) {
        common->json = 1;
        return 1;
    }
    int is_skin = strcmp(arg, "--skin") == 0, is_scale = strcmp(arg, "--scale") == 0;
    if (!is_skin && !is_scale)
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "tendon %s: %s needs a value\n", command, arg);
        return -1;
    }
    const char *value = argv[++*i];
    if (is_skin) {
        common->skin = value;
        return 1;
    }
    if (!cli_parse_float(command, "--scale", value, &common->scale))
        return -1;
    if (!(common->scale > 0.0f)) {
        fprintf(stderr, "tendon %s: --scale wants a positive number, not '%s'\n", command, value);
        return -1;
    }
    return 1;
}

int cli_load(const char *command, const char *path, const cli_common *common, tdn_asset **out)
{
    cli_access access;
    tdn_asset_load_options options = { 0 };
    options.skin = common->skin;
    options.scale = common->scale;
    options.file_access = cli_file_access(&access, &common->files, path);
    tdn_error err = { 0 };
    tdn_result res = tdn_asset_load(path, &options, out, NULL, &err);
    if (res != TDN_OK)
        return cli_report(command, res, &err);
    cli_print_warnings(command, path, *out);
    return CLI_OK;
}

int cli_no_clip(const char *command, const char *path, const char *option, const char *name, const tdn_asset *asset)
{
    const int count = tdn_asset_clip_count(asset);
    const char **names = malloc(sizeof(char *) * (size_t)(count + 1));
    const char *near = NULL;
    if (names) {
        for (int c = 0; c < count; c++)
            names[c] = tdn_keyed_clip_name(tdn_asset_clip(asset, c));
        near = tdn_nearest_name(name, names, count);
    }
    char safe_path[CLI_TEXT_SIZE], safe_name[CLI_TEXT_SIZE], safe_near[CLI_TEXT_SIZE];
    fprintf(stderr, "tendon %s: %s: %s: no clip named \"%s\"%s%s%s (tendon info lists the %d clip%s)\n", command,
            cli_text(path, safe_path, sizeof safe_path), option, cli_text(name, safe_name, sizeof safe_name),
            near ? "; did you mean \"" : "", near ? cli_text(near, safe_near, sizeof safe_near) : "", near ? "\"?" : "",
            count, count == 1 ? "" : "s");
    free(names);
    return CLI_BAD_INPUT;
}

void cli_print_warnings(const char *command, const char *path, const tdn_asset *asset)
{
    char warning[CLI_TEXT_SIZE];
    for (int i = 0; i < tdn_asset_warning_count(asset); i++)
        fprintf(stderr, "tendon %s: warning: %s: %s\n", command, path,
                cli_text(tdn_asset_warning(asset, i), warning, sizeof warning));
}

cJSON *cli_json_float(float f)
{
    if (!isfinite(f))
        return cJSON_CreateNull();
    char text[32];
    for (int digits = 1; digits <= 9; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, (double)f);
        if (strtof(text, NULL) == f)
            break;
    }
    return cJSON_CreateNumber(strtod(text, NULL));
}

cJSON *cli_json_floats(const float *v, int n)
{
    cJSON *array = cJSON_CreateArray();
    for (int i = 0; array && i < n; i++)
        cJSON_AddItemToArray(array, cli_json_float(v[i]));
    return array;
}

const char *cli_base_name(const char *path)
{
    const char *base = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    return base;
}

void cli_file_stem(const char *path, char *out, size_t size)
{
    snprintf(out, size, "%s", cli_base_name(path));
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = '\0';
}

int cli_ends_with(const char *s, const char *suffix, int ignore_case)
{
    const size_t n = strlen(s), m = strlen(suffix);
    return n >= m && (ignore_case ? strcasecmp(s + n - m, suffix) : strcmp(s + n - m, suffix)) == 0;
}

int cli_is_gltf_path(const char *path) { return cli_ends_with(path, ".glb", 1) || cli_ends_with(path, ".gltf", 1); }

int cli_is_pack(const char *path)
{
    void *data = NULL;
    size_t size = 0;
    if (tdn_file_read(NULL, path, &data, &size, NULL, NULL) != TDN_OK)
        return 0;
    const int pack = size >= 8 && memcmp(data, "TDNPACK", 8) == 0;
    tdn_free(data, size, NULL);
    return pack;
}

int cli_json_print(cJSON *doc)
{
    char *text = doc ? cJSON_PrintUnformatted(doc) : NULL;
    cJSON_Delete(doc);
    if (!text) {
        fprintf(stderr, "tendon: out of memory writing JSON\n");
        return CLI_FAILURE;
    }
    puts(text);
    cJSON_free(text);
    return CLI_OK;
}

double cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
