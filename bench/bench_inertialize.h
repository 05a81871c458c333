/* tendon_bench: the `inertialize` workload: a character frame during a transition on S67, two
 * ways, with the scene's base clips 0 and 1 (2 s loops) and 1/60 s frames.
 *
 * Variants:
 * - `inertialized` (quintic) and `inertialized_spring`: one clip sampled, then
 *   tdn_inertializer_apply, then the result kept as the last shown pose (one tdn_pose_copy and
 *   a swap: start needs the last two); every 30 frames the source switches to the other clip
 *   and a 0.5 s transition restarts (tdn_inertializer_start from the last two shown poses), so
 *   a transition is under way on every frame.
 * - `crossfade`: both clips sampled and blended with tdn_blend2, the weight ramping over 30
 *   frames and restarting, as a cross-fade does for the whole of its transition.
 * Rows: median_ns per frame, ns_per_joint, chars_per_s, and the fields curve, restart_frames,
 * transition_s, sample_ns (one tdn_clip_sample), apply_ns (tdn_inertializer_apply alone on an
 * active transition), start_ns (one tdn_inertializer_start with a previous pose), blend_ns
 * (tdn_blend2 alone), active_frames (the fraction of frames whose apply found a transition
 * under way: the quintic ends a joint early where its velocity points to 0, and apply then
 * skips the whole pose once every joint has ended); fields that do not apply are null. */
#ifndef TENDON_BENCH_INERTIALIZE_H
#define TENDON_BENCH_INERTIALIZE_H

#include "bench_scene.h"
#include "bench_timing.h"
#include "bench_workloads.h"

tdn_result bench_run_inertialize(int quick, const bench_scene *scene, bench_emit_fn emit, void *user, tdn_error *err);

#endif
