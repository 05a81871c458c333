/* tendon_bench: timing by repeated batches, reported per unit of work as the median and the
 * minimum over the batches (the median resists interruptions, the minimum shows the floor). */
#ifndef TENDON_BENCH_TIMING_H
#define TENDON_BENCH_TIMING_H

/* Most batches one measurement keeps. */
#define BENCH_MAX_BATCHES 1001

typedef struct bench_config {
    int batches;      /* timed batches (at most BENCH_MAX_BATCHES); odd, so the median is one of them */
    double batch_ns;  /* wall time one batch aims at */
    double warmup_ns; /* untimed running before the first batch (caches, branch predictors, clock) */
} bench_config;

/* 51 batches of ~3 ms after 100 ms of warm-up; quick: 5 batches of ~0.3 ms for a smoke test. */
bench_config bench_config_default(int quick);
/* For workloads of many rows that must stay within seconds: 101 batches of ~1 ms after 30 ms of
 * warm-up; quick as bench_config_default. */
bench_config bench_config_short(int quick);

typedef struct bench_stats {
    double median_ns, min_ns; /* per unit */
} bench_stats;

/* Runs `iterations` iterations of the measured work. */
typedef void (*bench_fn)(void *ctx, long iterations);

/* Warms up, picks an iteration count that fills a batch, then times `batches` batches. Each
 * iteration is `units_per_iteration` units (for example joints, vertices or frames). */
bench_stats bench_measure(const bench_config *config, bench_fn fn, void *ctx, double units_per_iteration);

/* Monotonic clock, nanoseconds. */
double bench_now_ns(void);
/* Median of `count` values (sorts them in place). */
double bench_median(double *values, int count);
/* The iteration count that makes a batch last about batch_ns, from one timed run of `probe`
 * iterations that took probe_ns. At least 1. */
long bench_iterations_for(const bench_config *config, long probe, double probe_ns);

#endif
