/* tendon_bench: the `compression` workload: runtime clips stored COMPRESSED (variable bit rates
 * chosen by the virtual-vertex error at the default threshold, 0.01 cm at 3 cm) against the
 * 16-bit storage the other workloads use, on the S67 benchmark clips, and on motion capture from
 * the shared data folder (TENDON_DATA, default ../shared/data) when it is there.
 *
 * Rows (S67): `sample` (clip 0, as the `sample` workload) and `frame` (hot, as the `frame`
 * workload) with variants `int16`, `compressed` and `compressed_cached` (through clip caches),
 * run in turns (rounds interleaved; median of the rounds' medians, least minimum). Fields:
 * `bytes_per_clip` (mean over the 4 base clips), `ratio` (the source's float32 frames, 10 floats
 * per joint per distinct key time, over clip 0's bytes), `max_error_cm` (the largest
 * virtual-vertex error the build measured, clip 0, frames and the quarter, half and
 * three-quarter points between them), `frames`, `cache_bytes`.
 * Rows (the humanoid): `graph_int16` and `graph_compressed_cached`, the `graph` workload's hot
 * character with its document's clips stored 16-bit, and compressed with a clip cache per clip
 * node, in turns likewise.
 * Rows (motion capture): variant = the take's file name (`_cached` through a cache); `sample`
 * of the take's compressed clip, with `ratio` (against the take's own frames), `max_error_cm`
 * and `frames`. */
#ifndef TENDON_BENCH_COMPRESSION_H
#define TENDON_BENCH_COMPRESSION_H

#include "bench_workloads.h"

tdn_result bench_run_compression(int quick, bench_emit_fn emit, void *user, tdn_error *err);

#endif
