/* tendon_bench: the motion quality of update-rate level of detail (graph.h, "level of detail")
 * for the `crowd_graph` LOD rows: sampled characters of the crowd, each run over the showcase's
 * whole timeline from its own place twice, at full rate and at its level-of-detail rate (the
 * batch with a tdn_graph_lod, its clock where the crowd's was), measured with the pop and
 * foot-skate metrics of `tendon run` (docs/metrics.md; tools/run/pop_metric.c and foot_skate.c:
 * every transition's pop, with the durations the document declares; the feet found by name, in
 * contact by height, placed in the world by the integrated root motion). Needs the tendon tool's
 * run library; built without it, the figures are NaN. */
#ifndef TENDON_BENCH_LOD_QUALITY_H
#define TENDON_BENCH_LOD_QUALITY_H

#include "tendon/tendon_io.h"

typedef struct bench_lod_sample {
    int start;      /* the character's first frame in the timeline */
    unsigned clock; /* its level-of-detail clock at that frame */
    int rate;
} bench_lod_sample;

typedef struct bench_lod_quality {
    double worst_pop[2];  /* the largest pop of any sampled character's transitions: full rate, level of detail */
    double mean_skate[2]; /* the mean over the sampled characters of their feet's mean skate, cm/s */
    int transitions;      /* at full rate, over the samples */
} bench_lod_quality;

/* `path`: the document's file (its declared transition durations are read again from it). */
tdn_result bench_lod_quality_measure(const tdn_graph_document *doc, const char *path, const bench_lod_sample *samples,
                                     int count, int frames, bench_lod_quality *out, tdn_error *err);

#endif
