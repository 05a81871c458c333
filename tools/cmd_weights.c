/* tendon weights: the weight of every sample of a blend space at a point, and optionally a
 * picture of each sample's weight field (docs/cli.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "heatmap.h"
#include "tendon/io/blend_space_file.h"

static void usage(FILE *out)
{
    fputs(
        "usage: tendon weights SPACE.json --at X[,Y[,...]] [--json] [--png OUT.png]\n"
        "  SPACE.json       {\"blend_space\": {\"mode\": MODE, \"samples\": [{\"clip\": NAME, \"at\": [x, ...]}, ...]}}\n"
        "                   MODE: linear (1 coordinate), gradient_band, rbf (1 to 8), polar_gradient_band,\n"
        "                   barycentric, grid (2)\n"
        "  --at X[,Y[,...]] the point: as many comma-separated numbers as the space has dimensions\n"
        "  --json           {\"at\": [...], \"weights\": [{\"clip\": NAME, \"weight\": W}, ...]} in sample order\n"
        "  --png OUT.png    also draw each sample's weight field, one panel per sample (160x160 pixels,\n"
        "                   colour from dark violet at 0 to yellow at 1) over the samples' bounding box\n"
        "                   (and the --at point) padded by 15%; the panel's own sample is a bright dot,\n"
        "                   the others dim dots, the --at point a red cross. A 1D space draws weight\n"
        "                   curves over its line; a space of more than 2 dimensions draws the 2D slice\n"
        "                   through its first two axes at the --at point's other coordinates\n"
        "Exit codes: 0 success, 2 bad input (arguments, a missing or malformed SPACE.json, an OUT.png\n"
        "that cannot be created), 1 any other failure.\n",
        out);
}

typedef struct weights_args {
    const char *path, *at_text, *png;
    int json;
} weights_args;

/* 0 with the arguments in *a, or the exit code of a bad command line (-1 for --help). */
static int parse(int argc, char **argv, weights_args *a)
{
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return -1;
        }
        int wants_value = strcmp(arg, "--at") == 0 || strcmp(arg, "--png") == 0;
        if (wants_value && i + 1 >= argc) {
            fprintf(stderr, "tendon weights: %s needs a value\n", arg);
            return CLI_BAD_INPUT;
        }
        if (strcmp(arg, "--json") == 0) {
            a->json = 1;
        } else if (strcmp(arg, "--at") == 0) {
            a->at_text = argv[++i];
        } else if (strcmp(arg, "--png") == 0) {
            a->png = argv[++i];
        } else if (arg[0] != '-' && !a->path) {
            a->path = arg;
        } else {
            fprintf(stderr, "tendon weights: unexpected argument '%s'\n", arg);
            usage(stderr);
            return CLI_BAD_INPUT;
        }
    }
    if (!a->path || !a->at_text) {
        fprintf(stderr, "tendon weights: %s\n",
                !a->path ? "a SPACE.json file is required" : "--at X[,Y...] is required");
        usage(stderr);
        return CLI_BAD_INPUT;
    }
    return 0;
}

/* Reads the comma-separated point; exactly `dims` finite numbers. */
static int parse_at(const char *text, int dims, float *at)
{
    int n = 0;
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char number[64];
        if (len == 0 || len >= sizeof number) {
            fprintf(stderr, "tendon weights: --at wants comma-separated numbers, not '%s'\n", text);
            return 0;
        }
        memcpy(number, p, len);
        number[len] = '\0';
        float v;
        if (!cli_parse_float("weights", "--at", number, &v))
            return 0;
        if (n < TDN_MAX_BLEND_SPACE_DIMENSIONS)
            at[n] = v;
        n++;
        if (!comma)
            break;
        p = comma + 1;
    }
    if (n != dims) {
        fprintf(stderr, "tendon weights: --at has %d coordinate%s but the space has %d dimension%s\n", n,
                n == 1 ? "" : "s", dims, dims == 1 ? "" : "s");
        return 0;
    }
    return 1;
}

static int print_json(const tdn_blend_space_file *file, const float *at, const float *weights)
{
    const tdn_blend_space *space = tdn_blend_space_file_space(file);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddItemToObject(doc, "at", cli_json_floats(at, tdn_blend_space_dimensions(space)));
    cJSON *list = cJSON_AddArrayToObject(doc, "weights");
    for (int s = 0; s < tdn_blend_space_sample_count(space); s++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "clip", tdn_blend_space_file_clip_name(file, s));
        cJSON_AddItemToObject(o, "weight", cli_json_float(weights[s]));
        cJSON_AddItemToArray(list, o);
    }
    return cli_json_print(doc);
}

/* "(x, y, ...)" */
static void format_point(char *out, size_t size, const float *p, int n)
{
    size_t at = (size_t)snprintf(out, size, "(");
    for (int i = 0; i < n && at < size; i++)
        at += (size_t)snprintf(out + at, size - at, "%s%.6g", i ? ", " : "", (double)p[i]);
    if (at < size)
        snprintf(out + at, size - at, ")");
}

static void print_text(const weights_args *a, const tdn_blend_space_file *file, const float *at, const float *weights)
{
    const tdn_blend_space *space = tdn_blend_space_file_space(file);
    const int dims = tdn_blend_space_dimensions(space), n = tdn_blend_space_sample_count(space);
    char point[256], name[CLI_TEXT_SIZE];
    format_point(point, sizeof point, at, dims);
    printf("%s: %s blend space, %d dimension%s, %d sample%s\nweights at %s\n", cli_text(a->path, name, sizeof name),
           tdn_blend_space_mode_name(tdn_blend_space_mode_of(space)), dims, dims == 1 ? "" : "s", n, n == 1 ? "" : "s",
           point);
    printf("  %3s  %-24s %-28s %s\n", "#", "clip", "at", "weight");
    for (int s = 0; s < n; s++) {
        format_point(point, sizeof point, tdn_blend_space_point(space, s), dims);
        printf("  %3d  %-24s %-28s %.6f\n", s, cli_text(tdn_blend_space_file_clip_name(file, s), name, sizeof name),
               point, (double)weights[s]);
    }
}

int cmd_weights(int argc, char **argv)
{
    weights_args a = { 0 };
    int code = parse(argc, argv, &a);
    if (code != 0)
        return code < 0 ? CLI_OK : code;
    tdn_blend_space_file *file;
    tdn_error err = { 0 };
    tdn_result res = tdn_blend_space_file_load(a.path, NULL, &file, NULL, &err);
    if (res != TDN_OK)
        return cli_report("weights", res, &err);
    const tdn_blend_space *space = tdn_blend_space_file_space(file);
    float at[TDN_MAX_BLEND_SPACE_DIMENSIONS], weights[TDN_MAX_BLEND_SPACE_SAMPLES];
    if (!parse_at(a.at_text, tdn_blend_space_dimensions(space), at)) {
        tdn_blend_space_file_destroy(file);
        return CLI_BAD_INPUT;
    }
    res = tdn_blend_space_weights(space, at, weights, NULL);
    if (res != TDN_OK) {
        code = cli_report("weights", res, NULL);
    } else {
        code = a.json ? print_json(file, at, weights) : (print_text(&a, file, at, weights), CLI_OK);
        if (code == CLI_OK && a.png) {
            char why[256];
            code = heatmap_write(file, at, a.png, why, sizeof why);
            if (code != CLI_OK)
                cli_say("weights", why);
        }
    }
    tdn_blend_space_file_destroy(file);
    return code;
}
