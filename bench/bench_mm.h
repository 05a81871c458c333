/* tendon_bench: the `mm` workload: one motion-matching query (tdn_mm_search), variant `brute`
 * (every searchable frame) and `accelerated` (the bounding boxes), on three databases:
 *
 * - `lafan1`: the three LAFAN1 takes of the shared data (TENDON_DATA, default ../shared/data
 *   beside the repository), imported at scale 0.01, built at 60 frames/s with their mirror
 *   images (mirror table from the joint names), root joint 0 (Hips), feet LeftFoot/RightFoot,
 *   forward axis +y, default offsets and weights: about 50,000 frames of 27 features. The
 *   queries are the ones a tdn_mm_controller makes following a scripted stick (stand, walk
 *   1.4 m/s, run 3.5 m/s, 90-degree turns every few seconds, stops), each searched with the
 *   frame playing then as `current` and the controller's bias (0.05). Skipped, with a note on
 *   stderr, when the data is absent.
 * - `synthetic` 100,000 and 1,000,000 frames of 27 features (tdn_mm_database_create_from_features):
 *   runs of 200-600 frames; within a run each feature is a smooth random walk (a damped spring
 *   driven by noise, its period 40 to 400 frames depending on the feature, so it moves about
 *   7% of its spread a frame, as LAFAN1's features do), and between runs it jumps (the walk
 *   goes on unseen for 200 frames); every feature then scaled to zero mean and unit variance;
 *   a run's last 60 frames are not searchable, as a clip's end. The features are independent
 *   of each other (real ones are not). The queries are random searchable frames' features
 *   plus noise (sigma 0.05), with the next frame as `current` and bias 0.05.
 * --quick runs 6 s of the stick script and 25 synthetic queries, and skips the 1,000,000-frame
 * database.
 *
 * Every search is timed on its own (clock_gettime around one call), in passes over the whole
 * query sequence in order, after one untimed warm-up pass. median_ns is the median over passes
 * of each pass's median over queries; min_ns the least of those pass medians; mean_ns and
 * p95_ns the pass medians of the mean and 95th percentile over queries. `exact` is true when
 * every timed search of the row returned exactly the cost of an untimed brute-force search of
 * the same query (compared after the timing). Other fields: `database`, `frames`, `dims`,
 * `queries`, `bias`, and for lafan1 `build_ms` (building the database once). */
#ifndef TENDON_BENCH_MM_H
#define TENDON_BENCH_MM_H

#include "bench_timing.h"
#include "bench_workloads.h"

tdn_result bench_run_mm(int quick, bench_emit_fn emit, void *user, tdn_error *err);

#endif
