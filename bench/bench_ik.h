/* tendon_bench: the `ik` workload: one solve of each IK solver on chains of 2, 4, 8, 10 and 16
 * bones (the two-bone solver: 2), on a chain of its own under a base joint (varied bone
 * lengths 0.06-0.2 and rest bends up to 0.35 rad, fixed seed).
 *
 * Variants:
 * - `cold`: 256 random reachable targets (the end under random turns of the chain, kept 2% of
 *   the chain's length away from the edges of its reach), each solved from the rest pose: the
 *   rest pose and its model space are copied back before every solve, and that copy, timed on
 *   its own, is taken off (field restore_ns).
 * - `warm`: a target going round a circle through the middle of the reach, 2% of the chain's
 *   length per frame, each solve starting from the previous frame's answer.
 * Every solve asks for 1e-3 of the chain's length with the solver's default iteration limit.
 * Rows: median_ns and min_ns per solve, ns_per_joint (per chain joint), and the fields
 * `solver`, `chain` (bones), `iterations` (median iterations of the solves of the sequence,
 * counted in an untimed run of the same sequence; the two-bone solver: 1), `reached` (the
 * fraction of those solves within the tolerance), `tolerance` and `restore_ns`.
 * The solvers are a table in bench_ik.c: a new solver is one entry (a name, the chain lengths
 * it takes, a solve function). Rows `ref_two_bone`, `ref_fabrik`, `ref_fabrik_passes` (its
 * passes alone) and `ref_ccd` time the textbook solvers of bench_ik_reference.h; their answers
 * are checked in the untimed run, and the workload fails if one is wrong. */
#ifndef TENDON_BENCH_IK_H
#define TENDON_BENCH_IK_H

#include "bench_timing.h"
#include "bench_workloads.h"

tdn_result bench_run_ik(int quick, bench_emit_fn emit, void *user, tdn_error *err);

#endif
