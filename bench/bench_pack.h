/* tendon_bench: the `pack_load` workload: how long a shipped game waits for its character. The
 * pack of the generated 67-joint humanoid (its skeleton, its mesh, every one of its clips
 * compressed at the default threshold, and the BlendMotion graph with its clips under the
 * document's names), written to a temporary file, then in each of 11 rounds (3 with --quick),
 * one after another: `read` (open(), read() of the whole file into a buffer aligned to
 * TDN_PACK_ALIGN, close(); the cache warm), `open` (tdn_pack_open on those bytes), `load_graph`
 * (tdn_graph_document_load_pack of the BlendMotion graph on an opened pack) and `open_and_load`
 * (both). Median of the rounds and minimum, per row. Fields: `bytes` (the file's size),
 * `clips`, and on `open_and_load` `ratio_to_read` (its median over read's) and
 * `min_ratio_to_read` (the minimums'): the bar is a ratio of at most 2. */
#ifndef TENDON_BENCH_PACK_H
#define TENDON_BENCH_PACK_H

#include "bench_workloads.h"

tdn_result bench_run_pack_load(int quick, bench_emit_fn emit, void *user, tdn_error *err);

#endif
