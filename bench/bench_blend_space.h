/* tendon_bench: the `blend_space` workload: one character frame of a 9-sample 2D blend space
 * through the graph runtime (tdn_graph_set_vector, tdn_graph_update(1/60 s), tdn_graph_evaluate)
 * on S67: a BLEND_SPACE node over 9 CLIP nodes (9 different 2 s bench clips, all in the sync
 * group "loco"), its position a VEC2 parameter.
 *
 * Layouts: polar_gradient_band over a locomotion set (idle at the origin, walks at distance 1
 * and runs at 2.5 in 4 directions) and gradient_band over the 3x3 grid {-1, 0, 1}^2. Variants:
 * `between` (the position circles through the directions away from every sample),
 * `near_sample` (a circle of 0.4% of the sample spacing around one sample, default culling:
 * the flat list collapses to one entry) and `near_sample_nocull` (the same with culling off).
 * Rows: median_ns per frame, ns_per_joint, chars_per_s, and the fields mode, samples, entries
 * (average flat-list length over the path), cull (the effective threshold; 0: nothing culled),
 * position, weights_ns (tdn_blend_space_weights alone over the same path), update_ns
 * (set_vector + update) and sample_ns (one tdn_clip_sample of one of the clips). */
#ifndef TENDON_BENCH_BLEND_SPACE_H
#define TENDON_BENCH_BLEND_SPACE_H

#include "bench_scene.h"
#include "bench_timing.h"
#include "bench_workloads.h"

tdn_result bench_run_blend_space(int quick, const bench_scene *scene, bench_emit_fn emit, void *user, tdn_error *err);

#endif
