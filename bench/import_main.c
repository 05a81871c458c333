/* tendon_bench_import: how long importing a file takes and how much memory it needs, beside
 * the floors of reading it and of reading and parsing its text: every number with strtof for
 * BVH, the JSON (a GLB's JSON chunk) with cJSON, the parser tendon uses, for glTF.
 * Usage: tendon_bench_import [--json] FILE...
 * Times are medians over repeated loads; peak memory is the resident-set high-water mark of a
 * child process that does only that one thing (so the figures include the program itself,
 * the same for all three). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bench_timing.h"
#include "tendon/io/asset.h"

typedef enum step { STEP_READ, STEP_READ_PARSE, STEP_IMPORT } step;

typedef struct job {
    const char *path;
    step what;
    int failed;
} job;

static char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *data = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (data = malloc((size_t)n + 1)))
        if (fread(data, 1, (size_t)n, f) != (size_t)n) {
            free(data);
            data = NULL;
        }
    fclose(f);
    if (data) {
        data[n] = '\0';
        *size = (size_t)n;
    }
    return data;
}

/* Every whitespace-separated token that strtof reads whole, summed (so none is skipped). */
static double strtof_all(const char *text)
{
    double sum = 0.0;
    const char *p = text;
    while (*p) {
        char *end;
        float v = strtof(p, &end);
        if (end != p) {
            sum += v;
            p = end;
        } else {
            p++;
        }
    }
    return sum;
}

/* The JSON text of a glTF file: a GLB's first chunk, or the whole .gltf. */
static const char *gltf_json(const char *data, size_t size, size_t *json_size)
{
    if (size >= 20 && memcmp(data, "glTF", 4) == 0) {
        unsigned char b[4];
        memcpy(b, data + 12, 4);
        size_t length = (size_t)b[0] | (size_t)b[1] << 8 | (size_t)b[2] << 16 | (size_t)b[3] << 24;
        *json_size = length <= size - 20 ? length : size - 20;
        return data + 20;
    }
    *json_size = size;
    return data;
}

static int is_gltf(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot && (strcmp(dot, ".glb") == 0 || strcmp(dot, ".gltf") == 0);
}

/* The parsing floor: cJSON over a glTF's JSON, strtof over a BVH's numbers. 0 on failure. */
static int parse_text(const char *path, const char *data, size_t size)
{
    if (!is_gltf(path))
        return strtof_all(data) == strtof_all(data);
    size_t json_size;
    const char *json = gltf_json(data, size, &json_size);
    cJSON *root = cJSON_ParseWithLength(json, json_size);
    cJSON_Delete(root);
    return root != NULL;
}

static void run_once(job *j)
{
    size_t size = 0;
    char *data = NULL;
    tdn_asset *asset = NULL;
    switch (j->what) {
    case STEP_READ:
        data = read_all(j->path, &size);
        j->failed |= data == NULL;
        break;
    case STEP_READ_PARSE:
        data = read_all(j->path, &size);
        j->failed |= data == NULL || !parse_text(j->path, data, size);
        break;
    case STEP_IMPORT:
        j->failed |= tdn_asset_load(j->path, NULL, &asset, NULL, NULL) != TDN_OK;
        tdn_asset_destroy(asset);
        break;
    }
    free(data);
}

static void run_many(void *ctx, long iterations)
{
    for (long i = 0; i < iterations; i++)
        run_once(ctx);
}

/* Peak resident memory (KiB) of a child that runs the step once. -1 on failure. */
static long peak_kib(job *j)
{
    int pipe_fd[2];
    if (pipe(pipe_fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(pipe_fd[0]);
        run_once(j);
        struct rusage usage;
        getrusage(RUSAGE_SELF, &usage);
        long kib = j->failed ? -1 : usage.ru_maxrss;
        ssize_t written = write(pipe_fd[1], &kib, sizeof kib);
        _exit(written == (ssize_t)sizeof kib ? 0 : 1);
    }
    close(pipe_fd[1]);
    long kib = -1;
    if (pid < 0 || read(pipe_fd[0], &kib, sizeof kib) != (ssize_t)sizeof kib)
        kib = -1;
    close(pipe_fd[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    return kib;
}

static void usage(FILE *out)
{
    fputs("usage: tendon_bench_import [--json] FILE...\n"
          "  import time and peak memory of each glTF or BVH file, beside reading it and\n"
          "  reading and parsing its text (glTF: its JSON with cJSON; BVH: its numbers with strtof)\n",
          out);
}

/* Measures one file and prints its row; returns an exit code. */
static int measure_file(const char *path, int json)
{
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    if (tdn_asset_load(path, NULL, &asset, NULL, &err) != TDN_OK) {
        fprintf(stderr, "tendon_bench_import: %s: %s: %s\n", path, err.where, err.message);
        return 2;
    }
    tdn_asset_destroy(asset);
    bench_config config = bench_config_default(0);
    config.batches = 11;
    config.batch_ns = 50e6;
    double ns[3];
    long kib[3];
    for (int s = 0; s < 3; s++) {
        job j = { path, (step)s, 0 };
        ns[s] = bench_measure(&config, run_many, &j, 1.0).median_ns;
        kib[s] = peak_kib(&j);
        if (j.failed) {
            fprintf(stderr, "tendon_bench_import: %s: a repeated load failed\n", path);
            return 1;
        }
    }
    const char *parser = is_gltf(path) ? "cJSON" : "strtof";
    if (json)
        printf("{\"workload\": \"import\", \"file\": \"%s\", \"median_ns\": %.0f, \"read_ns\": %.0f, "
               "\"read_parse_ns\": %.0f, \"parser\": \"%s\", \"peak_kib\": %ld, \"read_peak_kib\": %ld, "
               "\"read_parse_peak_kib\": %ld}\n",
               path, ns[STEP_IMPORT], ns[STEP_READ], ns[STEP_READ_PARSE], parser, kib[STEP_IMPORT], kib[STEP_READ],
               kib[STEP_READ_PARSE]);
    else
        printf("%s\n  import %.3f ms: %.2fx reading it (%.3f ms), %.2fx reading it and parsing it with %s (%.3f ms);\n"
               "  peak %ld KiB (reading: %ld KiB, reading and parsing: %ld KiB)\n",
               path, ns[STEP_IMPORT] / 1e6, ns[STEP_IMPORT] / ns[STEP_READ], ns[STEP_READ] / 1e6,
               ns[STEP_IMPORT] / ns[STEP_READ_PARSE], parser, ns[STEP_READ_PARSE] / 1e6, kib[STEP_IMPORT],
               kib[STEP_READ], kib[STEP_READ_PARSE]);
    return 0;
}

int main(int argc, char **argv)
{
    int json = 0, files = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (argv[i][0] == '-') {
            usage(stderr);
            return 2;
        }
    }
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-')
            continue;
        files++;
        int code = measure_file(argv[i], json);
        if (code != 0)
            return code;
    }
    if (files == 0) {
        usage(stderr);
        return 2;
    }
    return 0;
}
