/* tendon_bench and `tendon bench`: the benchmark command line (options, table or JSON rows). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_command.h"
#include "bench_workloads.h"

static void usage(FILE *out, const char *program)
{
    fprintf(out, "usage: %s [--json] [--workload NAME] [--threads N] [--quick] [--help]\n", program);
    fputs("  --json           one JSON object per row and line (docs/benchmarks.md)\n"
          "  --workload NAME  run one workload:",
          out);
    for (int i = 0; bench_workload_names[i]; i++)
        fprintf(out, " %s", bench_workload_names[i]);
    fputs("\n"
          "  --threads N      threads for the many-thread crowd rows (default: every online CPU)\n"
          "  --quick          few short batches: checks that everything runs, not a measurement\n"
          "Figures are the median and minimum over batches of repeated runs, per operation and per\n"
          "joint, vertex or character.\n",
          out);
}

static void emit_json(const bench_row *row, void *user)
{
    (void)user;
    bench_print_json(stdout, row);
}

static void emit_table(const bench_row *row, void *user)
{
    (void)user;
    bench_print_table_row(stdout, row);
}

int bench_command(const char *program, int argc, char **argv)
{
    bench_options options = { 0 };
    int json = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--quick") == 0) {
            options.quick = 1;
        } else if (strcmp(argv[i], "--workload") == 0 && i + 1 < argc) {
            options.workload = argv[++i];
            if (!bench_workload_exists(options.workload)) {
                fprintf(stderr, "%s: unknown workload '%s'\n", program, options.workload);
                usage(stderr, program);
                return 2;
            }
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 256) {
                fprintf(stderr, "%s: --threads wants a count from 1 to 256, not '%s'\n", program, argv[i]);
                return 2;
            }
            options.threads = (int)n;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout, program);
            return 0;
        } else {
            fprintf(stderr, "%s: unknown option '%s'\n", program, argv[i]);
            usage(stderr, program);
            return 2;
        }
    }
    if (!json)
        bench_print_table_header(stdout);
    tdn_error err = { 0 };
    tdn_result res = bench_run(&options, json ? emit_json : emit_table, NULL, &err);
    if (res != TDN_OK) {
        fprintf(stderr, "%s: %s%s%s\n", program, err.where, err.where[0] ? ": " : "", err.message);
        return res == TDN_ERR_ARGUMENT ? 2 : 1;
    }
    return 0;
}
