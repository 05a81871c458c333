/* tendon_bench: the `crowd_graph` workload (docs/benchmarks.md): 10,000 characters of the
 * BlendMotion showcase (bench_showcase.h) spread over its timeline (character k starts k * 37
 * frames in), batch-evaluated each frame with tdn_graph_evaluate_batch: parameters set in the
 * batch's prepare callback, update, evaluate, model space and the skinning palette. The caller
 * keeps each character's instance and palette (what a renderer draws; the local pose and model
 * space stay in the workspaces; the level-of-detail row keeps two poses per character too, the
 * one shown and the last evaluated). Rows for 1 thread and for every core (a parallel-for over a pool of threads,
 * tasks of 16 characters): median_ns and min_ns per character-frame (a whole frame of the crowd
 * divided by its characters), chars_per_s, and the fields characters, frame_ms (the crowd's
 * median frame), memory_bytes (instances, workspaces, palettes and any poses kept),
 * instance_bytes and workspace_bytes (one of each). Then the row `budget_2ms` on every core:
 * the crowd with update-rate level of detail, its rates chosen each frame by the budget mode
 * (tdn_graph_lod_choose_rates) for 2 ms a frame from a pseudo-distance per character, with the
 * rate histogram, the cost estimates and the motion quality of 100 sampled characters against
 * full rate (bench_lod_quality.h). --quick runs 200 characters and 4 samples over 2 s. */
#ifndef TENDON_BENCH_CROWD_GRAPH_H
#define TENDON_BENCH_CROWD_GRAPH_H

#include "bench_timing.h"
#include "bench_workloads.h"

tdn_result bench_run_crowd_graph(int quick, int threads, bench_emit_fn emit, void *user, tdn_error *err);

#endif
