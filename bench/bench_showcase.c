/* tendon_bench: the BlendMotion showcase's timeline (see bench_showcase.h). */
#include "bench_showcase.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#ifndef TENDON_BLENDMOTION_GRAPH
#  define TENDON_BLENDMOTION_GRAPH "examples/graphs/blendmotion.json"
#endif

#define SHOWCASE_LAYERS 5

static const char *const MACHINES[SHOWCASE_LAYERS] = { "locomotion", "upper_body", "aim", "hit_reactions", "hands" };
static const char *const TRIGGERS[] = { "wave", "point", "reload", "hitFront", "hitBack", "hitLeft", "hitRight" };
enum { TRIGGER_COUNT = sizeof TRIGGERS / sizeof TRIGGERS[0] };

/* The showcase's script (examples/blendmotion.c), extended to 10 s of steady use. */
bench_showcase_controls bench_showcase_script(int frame)
{
    const float t = (float)frame / 60.0f;
    bench_showcase_controls c = { { 0, 0 }, 0, 0, { 0, 0 }, 0, 0, -1 };
    if (t >= 1.0f && t < 3.0f)
        c.move[1] = 1.4f;
    else if (t >= 3.0f && t < 6.0f)
        c.move[1] = 3.5f;
    else if (t >= 6.0f && t < 7.5f)
        c.move[0] = 1.4f;
    c.speed = sqrtf(c.move[0] * c.move[0] + c.move[1] * c.move[1]);
    if (t >= 9.0f)
        c.turn = 1.0f;
    if (t >= 5.0f && t < 8.0f) {
        c.aiming = 1;
        const float a = (t - 5.0f) * 2.0f * TDN_PI / 1.5f;
        c.aim[0] = sinf(a);
        c.aim[1] = 0.6f * cosf(a);
    }
    c.hand = t >= 5.5f && t < 8.0f ? 1 : t >= 8.0f && t < 9.5f ? 2 : 0;
    static const int EVENTS[][2] = { { 90, 1 }, { 210, 0 }, { 390, 3 }, { 414, 5 }, { 456, 2 }, { 558, 4 } };
    for (size_t k = 0; k < sizeof EVENTS / sizeof EVENTS[0]; k++)
        if (frame == EVENTS[k][0])
            c.fire = EVENTS[k][1];
    return c;
}

tdn_result bench_showcase_handles_find(const tdn_graph *graph, bench_showcase_handles *h, tdn_error *err)
{
    h->move = tdn_graph_find_param(graph, "move");
    h->speed = tdn_graph_find_param(graph, "speed");
    h->turn = tdn_graph_find_param(graph, "turn");
    h->aiming = tdn_graph_find_param(graph, "aiming");
    h->aim = tdn_graph_find_param(graph, "aim");
    h->hand = tdn_graph_find_param(graph, "hand");
    h->upper_weight = tdn_graph_find_param(graph, "upperWeight");
    h->hit_weight = tdn_graph_find_param(graph, "hitWeight");
    int ok = h->move >= 0 && h->speed >= 0 && h->turn >= 0 && h->aiming >= 0 && h->aim >= 0 && h->hand >= 0 &&
             h->upper_weight >= 0 && h->hit_weight >= 0;
    for (int k = 0; k < TRIGGER_COUNT; k++)
        ok &= (h->triggers[k] = tdn_graph_find_param(graph, TRIGGERS[k])) >= 0;
    for (int l = 0; l < SHOWCASE_LAYERS; l++) {
        h->machines[l] = -1;
        for (int n = 0; n < tdn_graph_node_count(graph); n++)
            if (strcmp(tdn_graph_node_name(graph, n), MACHINES[l]) == 0 && tdn_graph_state_count(graph, n) > 0)
                h->machines[l] = n;
        ok &= h->machines[l] >= 0;
    }
    if (ok) {
        h->upper_idle = tdn_graph_find_state(graph, h->machines[1], "idle");
        h->hit_none = tdn_graph_find_state(graph, h->machines[3], "none");
        ok = h->upper_idle >= 0 && h->hit_none >= 0 && tdn_graph_layer_count(graph) == SHOWCASE_LAYERS;
    }
    if (!ok && err) {
        err->code = TDN_ERR_INVALID_DATA;
        snprintf(err->message, sizeof err->message, "%s: not the showcase's parameters, machines and layers",
                 TENDON_BLENDMOTION_GRAPH);
    }
    return ok ? TDN_OK : TDN_ERR_INVALID_DATA;
}

void bench_showcase_set(const bench_showcase_handles *h, const bench_showcase_controls *s, tdn_graph_instance *in)
{
    tdn_graph_set_vector(in, h->move, s->move, NULL);
    tdn_graph_set_float(in, h->speed, s->speed, NULL);
    tdn_graph_set_float(in, h->turn, s->turn, NULL);
    tdn_graph_set_bool(in, h->aiming, s->aiming, NULL);
    tdn_graph_set_vector(in, h->aim, s->aim, NULL);
    tdn_graph_set_int(in, h->hand, s->hand, NULL);
    if (s->fire >= 0)
        tdn_graph_fire_trigger(in, h->triggers[s->fire], NULL);
    tdn_state_machine_status upper, hit;
    tdn_graph_state_machine_status(in, h->machines[1], &upper, NULL);
    tdn_graph_state_machine_status(in, h->machines[3], &hit, NULL);
    const int hit_fired = s->fire >= 3;
    tdn_graph_set_float(in, h->upper_weight, upper.state != h->upper_idle || (s->fire >= 0 && !hit_fired) ? 1.0f : 0.0f,
                        NULL);
    tdn_graph_set_float(in, h->hit_weight, hit.state != h->hit_none || hit_fired ? 1.0f : 0.0f, NULL);
}
