/* tendon tests: a scripted timeline for any graph's parameters and a parallel-for that splits
 * oddly, for the crowd tests (batch evaluation, level of detail). */
#ifndef TENDON_TEST_GRAPH_DRIVE_H
#define TENDON_TEST_GRAPH_DRIVE_H

#include <math.h>

#include "tendon/tendon.h"

/* What character k's timeline sets at its frame f: every parameter of its graph moves, the
 * triggers fire now and then, so machines transition, hits inertialize and layers fade. */
static void drive(tdn_graph_instance *in, int k, int frame)
{
    const tdn_graph *g = tdn_graph_instance_graph(in);
    const int f = (frame + 37 * k) % 600;
    const float t = (float)f / 60.0f;
    for (int p = 0; p < tdn_graph_param_count(g); p++) {
        const float wave = sinf(t * (0.7f + 0.3f * (float)p) + (float)k);
        switch (tdn_graph_param_type(g, p)) {
        case TDN_PARAM_FLOAT:
            tdn_graph_set_float(in, p, 0.5f + 0.5f * wave, NULL);
            break;
        case TDN_PARAM_INT:
            tdn_graph_set_int(in, p, (f / 50 + p) % 3, NULL);
            break;
        case TDN_PARAM_BOOL:
            tdn_graph_set_bool(in, p, (f / (40 + 7 * p)) & 1, NULL);
            break;
        case TDN_PARAM_TRIGGER:
            if ((f + 13 * p) % 97 == 0)
                tdn_graph_fire_trigger(in, p, NULL);
            break;
        default:
            tdn_graph_set_vector(in, p, (const float[3]){ 2.0f * wave, 3.0f * wave * wave, 0 }, NULL);
            break;
        }
    }
}

/* A parallel-for (graph.h) running every task in reverse order on this thread, the workers
 * (*(const int *)user of them) taken in turn: a split no real pool would make. */
static inline void reversed_for(void *user, int task_count, tdn_graph_task_fn task, void *context)
{
    const int workers = *(const int *)user;
    for (int t = task_count - 1; t >= 0; t--)
        task(context, t, t % workers);
}

#endif
