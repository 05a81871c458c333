/* tendon CLI: running a graph document over time with scripted parameters, the machinery of
 * `tendon run` shared with `tendon demo`: the baked glTF, the trace, the previews, the pop
 * metric and foot skate (docs/metrics.md), and what `tendon demo` reports besides. */
#ifndef TENDON_RUN_GRAPH_H
#define TENDON_RUN_GRAPH_H
#include "cli.h"
#include "ground.h"
#include "preview.h"

typedef struct run_args {
    const char *graph, *params, *out, *trace;
    const char *graph_name; /* --graph NAME: the pack's graph a->graph (a pack) runs (NULL: its first) */
    float seconds, fps;
    int rotations;
    int has_ground;
    ground ground;
    preview_options render;  /* render.path: --render */
    preview_options render2; /* a second preview of the same frames (render2.path; tendon demo) */
    int quiet;               /* no summary on stdout */
    cli_files files;         /* --allow-files DIR */
} run_args;

/* What a run measured besides the trace (run_graph's report, optional). */
typedef struct run_report {
    int frames;
    double eval_ms;                     /* total wall time of tdn_graph_update + set_ground + evaluate, first run */
    int ik_samples;                     /* foot placement legs x frames the job ran on a ground */
    int ik_unreached;                   /* of those, frames the job said it did not reach */
    double ik_error_mean, ik_error_max; /* metres: the ankle's distance from its target */
    double ik_error_max_reached;        /* the largest over the frames the job reached */
    double bone_change_max;             /* metres: the legs' bone lengths against the rest pose */
    double render_ms[2];                /* ms per drawn frame of render and render2 */
} run_report;

/* Runs a->graph as `tendon run` does (a parsed and checked). Returns an exit code; prints the
 * summary unless a->quiet. */
int run_graph(run_args *a, run_report *report);

#endif
