/* tendon_bench: the `graph` workload (see bench_graph.h). */
#include "bench_graph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tendon/io/graph_document.h"
#include "tendon/io/humanoid.h"

#ifndef TENDON_BLENDMOTION_GRAPH
#  define TENDON_BLENDMOTION_GRAPH "examples/graphs/blendmotion.json"
#endif

#define G_FRAMES 600 /* the timeline: 10 s at 60 frames/s */
#define G_DT (1.0f / 60.0f)
#define G_COLD 1000
#define G_COLD_QUICK 10 /* --quick: the cold path runs, is not measured (each character first laps the timeline) */
#define G_PHASE 37      /* frames between consecutive cold characters' timelines */
#define G_LAYERS 5

static const char *const MACHINES[G_LAYERS] = { "locomotion", "upper_body", "aim", "hit_reactions", "hands" };
static const char *const TRIGGERS[] = { "wave", "point", "reload", "hitFront", "hitBack", "hitLeft", "hitRight" };
enum { TRIGGER_COUNT = sizeof TRIGGERS / sizeof TRIGGERS[0] };

/* What the timeline sets in one frame. */
typedef struct g_controls {
    float move[2], speed, turn, aim[2];
    int aiming, hand;
    int fire; /* index into TRIGGERS, or -1 */
} g_controls;

/* The showcase's script (examples/blendmotion.c), extended to 10 s of steady use. */
static g_controls g_script(int frame)
{
    const float t = (float)frame / 60.0f;
    g_controls c = { { 0, 0 }, 0, 0, { 0, 0 }, 0, 0, -1 };
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

typedef struct g_handles {
    int move, speed, turn, aiming, aim, hand, upper_weight, hit_weight;
    int triggers[TRIGGER_COUNT];
    int machines[G_LAYERS];
    int upper_idle, hit_none;
} g_handles;

typedef struct g_character {
    tdn_graph_instance *instance;
    tdn_pose pose;
    tdn_mat4 *model;
    int frame; /* place in the timeline */
} g_character;

typedef struct g_ctx {
    const tdn_skeleton *skeleton;
    const g_handles *h;
    const g_controls *script; /* G_FRAMES */
    g_character *characters;
    int count, next;
} g_ctx;

/* The parameter changes of one frame, then the update. */
static void g_update(const g_ctx *c, g_character *ch)
{
    const g_handles *h = c->h;
    const g_controls *s = &c->script[ch->frame];
    tdn_graph_instance *in = ch->instance;
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
    tdn_graph_update(in, G_DT, NULL);
    if (++ch->frame == G_FRAMES)
        ch->frame = 0;
}

static g_character *g_next(g_ctx *c)
{
    g_character *ch = &c->characters[c->next];
    if (++c->next == c->count)
        c->next = 0;
    return ch;
}

static void g_frame(void *p, long n)
{
    g_ctx *c = p;
    for (long i = 0; i < n; i++) {
        g_character *ch = g_next(c);
        g_update(c, ch);
        tdn_graph_evaluate(ch->instance, &ch->pose, NULL);
        tdn_model_space(c->skeleton, &ch->pose, NULL, ch->model, NULL);
    }
}

static void g_update_only(void *p, long n)
{
    g_ctx *c = p;
    for (long i = 0; i < n; i++)
        g_update(c, g_next(c));
}

/* Evaluate and model space alone: each call evaluates the last update again (the same work as
 * after a fresh one; inertialization applies no more time). */
static void g_evaluate_only(void *p, long n)
{
    g_ctx *c = p;
    for (long i = 0; i < n; i++) {
        g_character *ch = g_next(c);
        tdn_graph_evaluate(ch->instance, &ch->pose, NULL);
    }
}

static void g_ltm_only(void *p, long n)
{
    g_ctx *c = p;
    for (long i = 0; i < n; i++) {
        g_character *ch = g_next(c);
        tdn_model_space(c->skeleton, &ch->pose, NULL, ch->model, NULL);
    }
}

static tdn_result g_handles_find(const tdn_graph *graph, g_handles *h, tdn_error *err)
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
    for (int l = 0; l < G_LAYERS; l++) {
        h->machines[l] = -1;
        for (int n = 0; n < tdn_graph_node_count(graph); n++)
            if (strcmp(tdn_graph_node_name(graph, n), MACHINES[l]) == 0 && tdn_graph_state_count(graph, n) > 0)
                h->machines[l] = n;
        ok &= h->machines[l] >= 0;
    }
    if (ok) {
        h->upper_idle = tdn_graph_find_state(graph, h->machines[1], "idle");
        h->hit_none = tdn_graph_find_state(graph, h->machines[3], "none");
        ok = h->upper_idle >= 0 && h->hit_none >= 0 && tdn_graph_layer_count(graph) == G_LAYERS;
    }
    if (!ok && err) {
        err->code = TDN_ERR_INVALID_DATA;
        snprintf(err->message, sizeof err->message, "%s: not the showcase's parameters, machines and layers",
                 TENDON_BLENDMOTION_GRAPH);
    }
    return ok ? TDN_OK : TDN_ERR_INVALID_DATA;
}

static void g_free(g_character *chars, int count)
{
    for (int k = 0; k < count; k++) {
        tdn_graph_instance_destroy(chars[k].instance);
        tdn_pose_destroy(&chars[k].pose);
        free(chars[k].model);
    }
    free(chars);
}

/* `count` characters, each with an instance (retargeted when `retarget` is not NULL), a pose and
 * model-space buffers of `joints` joints. */
static g_character *g_make(const tdn_graph *graph, const tdn_retarget *retarget, int joints, int count)
{
    g_character *chars = calloc((size_t)count, sizeof *chars);
    if (!chars)
        return NULL;
    for (int k = 0; k < count; k++) {
        chars[k].model = malloc(sizeof *chars[k].model * (size_t)joints);
        if (!chars[k].model ||
            tdn_graph_instance_create_retargeted(graph, retarget, &chars[k].instance, NULL, NULL) != TDN_OK ||
            tdn_pose_create(joints, &chars[k].pose, NULL, NULL) != TDN_OK) {
            g_free(chars, k + 1);
            return NULL;
        }
        chars[k].frame = (k * G_PHASE) % G_FRAMES;
    }
    return chars;
}

/* The `retargeted` variant's character: the humanoid 1.5 m tall instead of 1.8 m, and the
 * retarget of the showcase's humanoid onto it (both maps found, references from the rest poses,
 * the leg ratio). */
static tdn_result g_retarget_make(const tdn_skeleton *source, tdn_asset **target, tdn_retarget **out, tdn_error *err)
{
    const tdn_humanoid_desc small = { .height = 1.5f };
    tdn_body_map maps[2];
    tdn_result res = tdn_humanoid_create(&small, target, NULL, err);
    if (res == TDN_OK)
        res = tdn_body_map_find(source, NULL, &maps[0], err);
    if (res == TDN_OK)
        res = tdn_body_map_find(tdn_asset_skeleton(*target), NULL, &maps[1], err);
    if (res == TDN_OK) {
        const tdn_retarget_desc desc = { .source = { .skeleton = source, .map = &maps[0] },
                                         .target = { .skeleton = tdn_asset_skeleton(*target), .map = &maps[1] } };
        res = tdn_retarget_create(&desc, out, NULL, err);
    }
    return res;
}

tdn_result bench_run_graph(int quick, bench_emit_fn emit, void *user, tdn_error *err)
{
    tdn_graph_document *doc = NULL;
    tdn_result res = tdn_graph_document_load(TENDON_BLENDMOTION_GRAPH, NULL, &doc, NULL, err);
    if (res != TDN_OK)
        return res;
    const tdn_graph *graph = tdn_graph_document_graph(doc);
    const tdn_skeleton *skel = tdn_graph_document_skeleton(doc);
    const int joints = tdn_skeleton_joint_count(skel);
    tdn_asset *small = NULL;
    tdn_retarget *retarget = NULL;
    res = g_retarget_make(skel, &small, &retarget, err);
    g_handles h;
    static g_controls script[G_FRAMES];
    for (int f = 0; f < G_FRAMES; f++)
        script[f] = g_script(f);
    if (res == TDN_OK)
        res = g_handles_find(graph, &h, err);
    bench_config cfg = bench_config_default(quick);
    if (!quick) {
        cfg.batches = 101;
        cfg.batch_ns = 2e6;
        cfg.warmup_ns = 2e8; /* the cold characters each see every part of the timeline */
    }
    const int counts[3] = { 1, quick ? G_COLD_QUICK : G_COLD, 1 };
    const char *variants[3] = { "hot", "cold", "retargeted" };
    for (int v = 0; v < 3 && res == TDN_OK; v++) {
        /* retargeted: the hot character's frames written on the smaller humanoid (67 joints too) */
        const tdn_retarget *rt = v == 2 ? retarget : NULL;
        const tdn_skeleton *shown = rt ? tdn_asset_skeleton(small) : skel;
        g_ctx ctx = { shown, &h, script, g_make(graph, rt, joints, counts[v]), counts[v], 0 };
        if (!ctx.characters) {
            res = bench_fail(err, TDN_ERR_OUT_OF_MEMORY, "graph characters");
            break;
        }
        /* One untimed lap of the timeline per character: checks the calls, counts the flat list. */
        long entries = 0, frames = 0;
        for (int f = 0; f < G_FRAMES && res == TDN_OK; f++)
            for (int k = 0; k < ctx.count && res == TDN_OK; k++) {
                g_character *ch = &ctx.characters[k];
                g_update(&ctx, ch);
                res = tdn_graph_evaluate(ch->instance, &ch->pose, err);
                if (res == TDN_OK)
                    res = tdn_model_space(shown, &ch->pose, NULL, ch->model, err);
                entries += tdn_graph_entries(ch->instance, NULL);
                frames++;
            }
        if (res == TDN_OK) {
            bench_stats s = bench_measure(&cfg, g_frame, &ctx, 1.0);
            bench_row row = bench_row_make("graph", joints, variants[v], 1);
            row.median_ns = s.median_ns;
            row.min_ns = s.min_ns;
            row.ns_per_joint = s.median_ns / joints;
            row.chars_per_s = 1e9 / s.median_ns;
            bench_row_add_number(&row, "layers", tdn_graph_layer_count(graph));
            bench_row_add_number(&row, "entries", (double)entries / (double)frames);
            bench_row_add_number(&row, "characters", counts[v]);
            bench_row_add_number(&row, "instance_bytes", (double)tdn_graph_instance_bytes_retargeted(graph, rt));
            if (counts[v] == 1) {
                bench_row_add_number(&row, "update_ns", bench_measure(&cfg, g_update_only, &ctx, 1.0).median_ns);
                bench_row_add_number(&row, "evaluate_ns", bench_measure(&cfg, g_evaluate_only, &ctx, 1.0).median_ns);
                bench_row_add_number(&row, "ltm_ns", bench_measure(&cfg, g_ltm_only, &ctx, 1.0).median_ns);
            }
            emit(&row, user);
        } else {
            res = bench_fail(err, res, "graph frame");
        }
        g_free(ctx.characters, ctx.count);
    }
    tdn_retarget_destroy(retarget);
    tdn_asset_destroy(small);
    tdn_graph_document_destroy(doc);
    return res;
}
