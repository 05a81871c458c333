/* tendon_bench: the `graph` workload (docs/benchmarks.md): the five-layer character of the
 * BlendMotion showcase, examples/graphs/blendmotion.json, on the generated humanoid (67 joints):
 * locomotion (a state machine over a 2D blend space, synced), upper-body actions (override,
 * masked), an additive aim offset (a 2D blend space of additive poses), hit reactions
 * (override, masked, inertialized) and a hand layer (masked to the fingers), root motion
 * extracted.
 *
 * One character-frame: the parameter changes of a scripted 10 s timeline (600 frames: move and
 * speed, turn, aiming and aim, hand, the triggers of wave, point, reload and four hits, and the
 * action and hit layers' weights set from their machines' status, as examples/blendmotion.c
 * does), tdn_graph_update (1/60 s), tdn_graph_evaluate_with (one workspace for every
 * character, as one thread of a crowd has) and tdn_model_space. Variants: `hot`, one character
 * in a loop; `cold`, 1,000 characters round-robin, each with its own instance (placed in memory
 * of its own), pose and model-space buffers, at its own place in the timeline (character k starts k * 37
 * frames in), the document shared; `retargeted`, the hot character driving the humanoid made
 * 1.5 m tall (a retargeted instance, graph.h: evaluate writes tdn_retarget_pose of the graph's
 * pose, model space is the smaller humanoid's). Rows: median_ns per character-frame,
 * ns_per_joint, chars_per_s, and the fields layers (5), entries (mean flat-list length over the
 * timeline), instance_bytes (a character's state) and workspace_bytes (the scratch memory one
 * thread reuses for every character; created instances carry one each); the hot and retargeted rows add update_ns
 * (parameters + update), evaluate_ns and ltm_ns (model space), each timed alone over the same timeline. */
#ifndef TENDON_BENCH_GRAPH_H
#define TENDON_BENCH_GRAPH_H

#include "bench_timing.h"
#include "bench_workloads.h"
#include "tendon/io/graph_document.h"

tdn_result bench_run_graph(int quick, bench_emit_fn emit, void *user, tdn_error *err);

/* The `hot` character alone, its document loaded with `options` (the clips' storage, caches):
 * for other workloads to time it beside their own rows. bench_graph_hot_frame is a
 * bench_measure body (one character-frame per step). */
typedef struct bench_graph_hot bench_graph_hot;
tdn_result bench_graph_hot_create(const tdn_graph_document_load_options *options, bench_graph_hot **out,
                                  tdn_error *err);
void bench_graph_hot_frame(void *hot, long n);
int bench_graph_hot_joint_count(const bench_graph_hot *hot);
void bench_graph_hot_destroy(bench_graph_hot *hot);

#endif
