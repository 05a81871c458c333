/* tendon_bench: batch timing with clock_gettime(CLOCK_MONOTONIC). */
#define _POSIX_C_SOURCE 200809L
#include "bench_timing.h"

#include <stdlib.h>
#include <time.h>

bench_config bench_config_default(int quick)
{
    bench_config c;
    c.batches = quick ? 5 : 51;
    c.batch_ns = quick ? 3e5 : 3e6;
    c.warmup_ns = quick ? 2e6 : 1e8;
    return c;
}

bench_config bench_config_short(int quick)
{
    bench_config c = bench_config_default(quick);
    if (!quick) {
        c.batches = 101;
        c.batch_ns = 1e6;
        c.warmup_ns = 3e7;
    }
    return c;
}

double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *values, int count)
{
    qsort(values, (size_t)count, sizeof *values, compare_double);
    return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

long bench_iterations_for(const bench_config *config, long probe, double probe_ns)
{
    double per_iteration = probe_ns / (double)probe;
    double n = per_iteration > 0.0 ? config->batch_ns / per_iteration : 1e6;
    return n < 1.0 ? 1 : (long)n;
}

bench_stats bench_measure(const bench_config *config, bench_fn fn, void *ctx, double units_per_iteration)
{
    /* Warm-up doubles as calibration: grow the run until it is long enough to time well. */
    long probe = 1;
    double start = bench_now_ns(), elapsed = 0.0, probe_ns = 0.0;
    do {
        double t0 = bench_now_ns();
        fn(ctx, probe);
        probe_ns = bench_now_ns() - t0;
        elapsed = bench_now_ns() - start;
        if (probe_ns < config->batch_ns / 8.0)
            probe *= 2;
    } while (elapsed < config->warmup_ns || probe_ns < config->batch_ns / 8.0);
    long iterations = bench_iterations_for(config, probe, probe_ns);

    double per_unit[BENCH_MAX_BATCHES];
    int batches = config->batches < BENCH_MAX_BATCHES ? config->batches : BENCH_MAX_BATCHES;
    double min_ns = 0.0;
    for (int b = 0; b < batches; b++) {
        double t0 = bench_now_ns();
        fn(ctx, iterations);
        per_unit[b] = (bench_now_ns() - t0) / ((double)iterations * units_per_iteration);
        if (b == 0 || per_unit[b] < min_ns)
            min_ns = per_unit[b];
    }
    bench_stats s = { bench_median(per_unit, batches), min_ns };
    return s;
}
