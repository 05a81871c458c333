/* tendon_bench: the motion quality of level of detail (see bench_lod_quality.h). */
#include "bench_lod_quality.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_showcase.h"
#include "bench_workloads.h"

#ifdef TENDON_BENCH_MOTION_METRICS
#  include "foot_skate.h"
#  include "graph_extras.h"
#  include "pop_metric.h"

#  define FPS 60.0f

/* What one run of a character measured. */
typedef struct run_figures {
    double worst_pop, skate;
    int transitions;
} run_figures;

/* The pop of every transition, as `tendon run` computes it (tools/run/run_graph.c). */
static int finish_pop(pop_recorder *pop, const tdn_graph_document *doc, const graph_extras *extras, double *worst,
                      int *count)
{
    const tdn_graph *g = tdn_graph_document_graph(doc);
    const tdn_skeleton *skel = tdn_graph_document_skeleton(doc);
    const int clip_count = tdn_graph_document_clip_count(doc);
    int *mirror = malloc(sizeof(int) * (size_t)(tdn_skeleton_joint_count(skel) + 1));
    const tdn_clip **clips = malloc(sizeof(tdn_clip *) * (size_t)(clip_count + 1));
    int ok = mirror && clips;
    const int mirror_ok = ok && tdn_mirror_table_from_names(skel, mirror, NULL) == TDN_OK;
    for (int c = 0; ok && c < clip_count; c++)
        clips[c] = tdn_graph_document_clip(doc, c);
    const pop_transition *t = NULL;
    *count = pop_recorder_transitions(pop, &t);
    for (int k = 0; ok && k < *count; k++) {
        const char *mode;
        double seconds;
        int frames;
        graph_extras_transition(extras, g, t[k].machine, t[k].index, FPS, &mode, &seconds, &frames);
        pop_recorder_declare(pop, k, seconds, frames, mode);
    }
    ok = ok && pop_recorder_finish(pop, clips, clip_count, mirror_ok ? mirror : NULL,
                                   extras->extract ? &extras->root_motion : NULL, FPS);
    *worst = 0.0;
    /* transitions the metric finds no bound for (neither clip moves nor differs: clips of another
     * layer than the motion it observes) have the 1e-3 degree floor, and a pop of thousands at
     * any rate: left out */
    for (int k = 0; ok && k < *count; k++)
        if (t[k].clip_change + t[k].switch_difference > 0.0)
            *worst = fmax(*worst, t[k].pop);
    free(mirror);
    free(clips);
    return ok;
}

/* One character over `frames` frames of the timeline from its start, at full rate (lod NULL) or
 * with level of detail. The pop recorder reads the transitions from a second instance, updated
 * alone, `lag` frames behind the one shown (rate - 1 frames with level of detail, which shows its
 * pose that late: aligned so, the transitions' windows see the motion they caused). */
static tdn_result run_character(const tdn_graph_document *doc, const graph_extras *extras,
                                const bench_showcase_handles *h, const bench_lod_sample *sample, int frames,
                                int with_lod, run_figures *out, tdn_error *err)
{
    const tdn_graph *g = tdn_graph_document_graph(doc);
    const int joints = tdn_skeleton_joint_count(tdn_graph_document_skeleton(doc));
    const int lag = with_lod && sample->rate > 1 ? sample->rate - 1 : 0;
    tdn_graph_instance *in = NULL, *tracker = NULL;
    tdn_graph_workspace *ws = NULL;
    tdn_pose pose = { 0 }, target = { 0 };
    pop_recorder *pop = NULL;
    foot_skate skate;
    memset(&skate, 0, sizeof skate);
    tdn_result res = tdn_graph_instance_create(g, &in, NULL, err);
    if (res == TDN_OK)
        res = tdn_graph_instance_create(g, &tracker, NULL, err);
    if (res == TDN_OK)
        res = tdn_graph_workspace_create(&g, 1, &ws, NULL, err);
    if (res == TDN_OK)
        res = tdn_pose_create(joints, &pose, NULL, err);
    if (res == TDN_OK)
        res = tdn_pose_create(joints, &target, NULL, err);
    if (res == TDN_OK && (!pop_recorder_create(g, joints, FPS, &pop) || !foot_skate_init(&skate, doc, NULL, NULL, FPS)))
        res = bench_fail(err, TDN_ERR_OUT_OF_MEMORY, "level-of-detail quality");
    tdn_graph_lod lod = { .rate = sample->rate, .clock = sample->clock, .shown = &pose, .target = &target };
    tdn_graph_character c = { .instance = in, .dt = BENCH_SHOWCASE_DT, .pose = &pose, .lod = with_lod ? &lod : NULL };
    const tdn_graph_batch_desc desc = { .characters = &c, .character_count = 1, .workspaces = &ws, .worker_count = 1 };
    tdn_vec3 position = { 0.0f, 0.0f, 0.0f };
    tdn_quat facing = tdn_quat_identity();
    foot_skate_begin(&skate, 0);
    for (int f = 0; f < frames + lag && res == TDN_OK; f++) {
        const bench_showcase_controls s = bench_showcase_script((sample->start + f) % BENCH_SHOWCASE_FRAMES);
        bench_showcase_set(h, &s, in);
        res = tdn_graph_evaluate_batch(&desc, err);
        tdn_root_motion m;
        tdn_graph_root_motion(in, &m, NULL);
        position = tdn_vec3_add(position, tdn_quat_rotate(facing, m.translation));
        facing = tdn_quat_normalize(tdn_quat_mul(facing, m.rotation));
        const tdn_transform placed = { position, facing, { 1.0f, 1.0f, 1.0f } };
        const tdn_mat4 world = extras->extract ? tdn_transform_to_mat4(&placed) : tdn_mat4_identity();
        if (f < frames)
            foot_skate_frame(&skate, in, &pose, &world);
        if (f < lag)
            continue;
        const tdn_graph_instance *transitions = in;
        if (lag) {
            const bench_showcase_controls then = bench_showcase_script((sample->start + f - lag) %
                                                                       BENCH_SHOWCASE_FRAMES);
            bench_showcase_set(h, &then, tracker);
            tdn_graph_update(tracker, BENCH_SHOWCASE_DT, NULL);
            transitions = tracker;
        }
        if (!pop_recorder_frame(pop, transitions, &pose))
            res = bench_fail(err, TDN_ERR_OUT_OF_MEMORY, "level-of-detail quality");
    }
    if (res == TDN_OK && !finish_pop(pop, doc, extras, &out->worst_pop, &out->transitions))
        res = bench_fail(err, TDN_ERR_OUT_OF_MEMORY, "level-of-detail quality");
    out->skate = foot_skate_mean(&skate, 0);
    foot_skate_free(&skate);
    pop_recorder_destroy(pop);
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&target);
    tdn_graph_workspace_destroy(ws);
    tdn_graph_instance_destroy(in);
    tdn_graph_instance_destroy(tracker);
    return res;
}

tdn_result bench_lod_quality_measure(const tdn_graph_document *doc, const char *path, const bench_lod_sample *samples,
                                     int count, int frames, bench_lod_quality *out, tdn_error *err)
{
    memset(out, 0, sizeof *out);
    bench_showcase_handles h;
    tdn_result res = bench_showcase_handles_find(tdn_graph_document_graph(doc), &h, err);
    graph_extras extras;
    memset(&extras, 0, sizeof extras);
    graph_extras_read(path, tdn_graph_document_skeleton(doc), &extras);
    int skated[2] = { 0, 0 };
    for (int i = 0; i < count && res == TDN_OK; i++)
        for (int lod = 0; lod < 2 && res == TDN_OK; lod++) {
            run_figures r;
            res = run_character(doc, &extras, &h, &samples[i], frames, lod, &r, err);
            out->worst_pop[lod] = fmax(out->worst_pop[lod], r.worst_pop);
            if (isfinite(r.skate)) {
                out->mean_skate[lod] += r.skate;
                skated[lod]++;
            }
            if (!lod)
                out->transitions += r.transitions;
        }
    for (int lod = 0; lod < 2; lod++)
        out->mean_skate[lod] = skated[lod] ? out->mean_skate[lod] / skated[lod] : NAN;
    graph_extras_free(&extras);
    return res;
}

#else

tdn_result bench_lod_quality_measure(const tdn_graph_document *doc, const char *path, const bench_lod_sample *samples,
                                     int count, int frames, bench_lod_quality *out, tdn_error *err)
{
    (void)doc, (void)path, (void)samples, (void)count, (void)frames, (void)err;
    *out = (bench_lod_quality){ { NAN, NAN }, { NAN, NAN }, 0 };
    return TDN_OK;
}

#endif
