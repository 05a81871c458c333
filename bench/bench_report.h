/* tendon_bench: result rows and their two renderings, a human-readable table and JSON lines
 * (docs/benchmarks.md, rows: one object per line with workload, joints,
 * variant, threads, median_ns, min_ns, ns_per_joint, ns_per_vertex, chars_per_s,
 * bytes_per_clip, null where a field does not apply, then the workload's own fields). */
#ifndef TENDON_BENCH_REPORT_H
#define TENDON_BENCH_REPORT_H

#include <stdio.h>

/* Marks a number field that does not apply (printed as null). */
#define BENCH_NONE (-1.0)
#define BENCH_MAX_EXTRA 16

/* A workload-specific field: a number, a string when `text` is set, or a boolean. */
typedef enum bench_extra_kind { BENCH_NUMBER, BENCH_TEXT, BENCH_BOOL } bench_extra_kind;
typedef struct bench_extra {
    const char *key;
    bench_extra_kind kind;
    double number;    /* BENCH_NUMBER; BENCH_BOOL: 0 or 1 */
    const char *text; /* BENCH_TEXT */
} bench_extra;

typedef struct bench_row {
    const char *workload;
    int joints;          /* 0: null */
    const char *variant; /* NULL: null */
    int threads;
    double median_ns, min_ns; /* per operation: one sample, blend, frame, skinning call... */
    double ns_per_joint, ns_per_vertex, chars_per_s, bytes_per_clip; /* BENCH_NONE: null */
    int extra_count;
    bench_extra extra[BENCH_MAX_EXTRA];
} bench_row;

/* A row with every optional figure set to BENCH_NONE and the field "isa". */
bench_row bench_row_make(const char *workload, int joints, const char *variant, int threads);
void bench_row_add_number(bench_row *row, const char *key, double number);
void bench_row_add_text(bench_row *row, const char *key, const char *text);
void bench_row_add_bool(bench_row *row, const char *key, int value);

void bench_print_json(FILE *out, const bench_row *row);
void bench_print_table_header(FILE *out);
void bench_print_table_row(FILE *out, const bench_row *row);

#endif
