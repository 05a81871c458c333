/* tendon_bench: the `retarget` workload: tdn_retarget_pose of a LAFAN1-like 22-joint source
 * onto tendon's 67-joint generated humanoid (tdn_humanoid_create), without contacts.
 *
 * The source is built here from LAFAN1's joint names and tree (Hips, legs to the toes, three
 * spine joints, neck, head, shoulders to the hands) with plausible offsets in centimetres,
 * standing in a T-pose (LAFAN1's own files are not needed). Its poses are made procedurally: 64
 * frames of a 2 s cycle in which every joint turns by a sine about an axis of its own (up to
 * 0.35 rad) and the hips travel forward and bob. Both body maps are found from the names
 * (tdn_body_map_find), the references are built from the rest poses and the scale is the leg
 * ratio, as tdn_retarget_create does by default.
 *
 * Variants:
 * - `pose`: one tdn_retarget_pose per frame, one target pose, the source cycling through the
 *   64 frames (everything in cache).
 * - `pose_cold`: 1000 characters sharing the definition, each with a source pose (the cycle at
 *   its own phase) and a target pose of its own, one retarget per character, round-robin (the
 *   poses come from memory, as in a crowd).
 * Rows: median_ns and min_ns per frame (one retargeted pose), ns_per_joint per target joint
 * (67), chars_per_s, and the fields source_joints, mapped_target_joints (the target joints in
 * parts the source has: those the retarget turns), frames and instances. */
#ifndef TENDON_BENCH_RETARGET_H
#define TENDON_BENCH_RETARGET_H

#include "bench_timing.h"
#include "bench_workloads.h"

tdn_result bench_run_retarget(int quick, bench_emit_fn emit, void *user, tdn_error *err);

#endif
