/* tendon_bench: the BlendMotion showcase's timeline, shared by the `graph` and `crowd_graph`
 * workloads (bench_graph.h, bench_crowd_graph.h): examples/graphs/blendmotion.json driven by a
 * scripted 10 s of steady use (examples/blendmotion.c's script extended): move and speed, turn,
 * aiming and aim, hand, the triggers of wave, point, reload and four hits, and the action and hit
 * layers' weights set from their machines' status. */
#ifndef TENDON_BENCH_SHOWCASE_H
#define TENDON_BENCH_SHOWCASE_H

#include "tendon/tendon.h"

#define BENCH_SHOWCASE_FRAMES 600 /* the timeline: 10 s at 60 frames/s */
#define BENCH_SHOWCASE_DT (1.0f / 60.0f)
#define BENCH_SHOWCASE_PHASE 37 /* frames between consecutive characters' places in the timeline */

/* What the timeline sets in one frame. */
typedef struct bench_showcase_controls {
    float move[2], speed, turn, aim[2];
    int aiming, hand;
    int fire; /* index into the triggers (wave, point, reload, hitFront, hitBack, hitLeft, hitRight), or -1 */
} bench_showcase_controls;

/* The showcase's parameters, machines and the two states the layer weights follow. */
typedef struct bench_showcase_handles {
    int move, speed, turn, aiming, aim, hand, upper_weight, hit_weight;
    int triggers[7];
    int machines[5];
    int upper_idle, hit_none;
} bench_showcase_handles;

bench_showcase_controls bench_showcase_script(int frame);
/* The handles, or TDN_ERR_INVALID_DATA when `graph` is not the showcase's. */
tdn_result bench_showcase_handles_find(const tdn_graph *graph, bench_showcase_handles *h, tdn_error *err);
/* One frame's parameter changes on an instance (before its update). */
void bench_showcase_set(const bench_showcase_handles *h, const bench_showcase_controls *s, tdn_graph_instance *in);

#endif
