/* tendon_bench: the workloads of docs/benchmarks.md, shared by the tendon_bench executable and
 * `tendon bench`.
 *
 * Each runs on the S67 and S256 scenes (skin: a 5,000-vertex mesh on the S67 palette;
 * blend_space: S67 alone, see bench_blend_space.h) and reports rows (bench_report.h). median_ns
 * and min_ns are per operation: one clip sample, one blend, one model-space pass, one character
 * frame, one skinning call; the per-unit figure divides them by the joints or vertices. For
 * `crowd`, median_ns is wall time per character-frame over all threads together, so
 * chars_per_s = 1e9 / median_ns. */
#ifndef TENDON_BENCH_WORKLOADS_H
#define TENDON_BENCH_WORKLOADS_H

#include "bench_report.h"
#include "tendon/tendon.h"

/* The most threads a crowd row runs (--threads is capped to it). */
#define BENCH_MAX_THREADS 256

typedef struct bench_options {
    int quick;            /* few short batches: a smoke test, not a measurement */
    const char *workload; /* run only this one; NULL: all */
    int threads;          /* `crowd`'s "every core" thread count; 0: the online CPUs */
} bench_options;

typedef void (*bench_emit_fn)(const bench_row *row, void *user);

/* The workload names in run order, NULL-terminated. */
extern const char *const bench_workload_names[];
/* 1 if `name` is a workload. */
int bench_workload_exists(const char *name);

/* Runs the selected workloads, handing each row to `emit` as soon as it is measured.
 * TDN_ERR_ARGUMENT for an unknown workload name; a library failure during setup is returned
 * with its message in err. */
tdn_result bench_run(const bench_options *options, bench_emit_fn emit, void *user, tdn_error *err);

/* Fills err (unless a failed call already did) with "WHAT failed: CODE" and returns code. */
tdn_result bench_fail(tdn_error *err, tdn_result code, const char *what);

#endif
