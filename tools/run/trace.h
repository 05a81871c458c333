/* tendon CLI: the trace of `tendon run --trace TRACE.json` (docs/trace.schema.json), written as
 * the run goes (trace_writer.h): a header, one line per frame, then the transitions and a
 * summary, so a long run never holds the whole document in memory. */
#ifndef TENDON_TRACE_H
#define TENDON_TRACE_H

#include "foot_skate.h"
#include "pop_metric.h"
#include "tendon/io/graph_document.h"
#include "tendon/tendon.h"
#include "timeline.h"
#include "trace_writer.h"

/* What the header says about the run. */
typedef struct trace_run {
    const char *graph_path;
    const char *timeline_path; /* NULL: none */
    const tdn_graph_document *document;
    float fps;
    double seconds;
    int frame_count;
    int rotations; /* 1: every frame lists every joint's local rotation */
} trace_run;

/* One frame, after its update and evaluation. */
typedef struct trace_frame {
    int frame;
    double time;
    const tdn_graph_instance *instance;
    const timeline *timeline;
    const tdn_root_motion *motion;
    tdn_vec3 root_position; /* the integrated root transform after this frame's motion */
    tdn_quat root_facing;
    const tdn_pose *pose;    /* for the rotations */
    const foot_skate *skate; /* the feet's world positions and contacts this frame, or NULL */
} trace_frame;

/* The foot skate of the run (foot_skate.h): the traced run's (with foot locking), and the
 * second run's without foot locking when there was one. */
typedef struct trace_skate {
    const foot_skate *skate;
    int without_locking; /* results[1] holds the run without foot locking */
    const char *ground;  /* the --ground SPEC, or NULL */
} trace_skate;

/* Opens the file (tw_open: a file at path is replaced only when the trace is finished) and
 * writes the header up to the frames array. CLI_OK or CLI_BAD_INPUT (the file cannot be
 * created; the reason goes to stderr). */
int trace_open(trace_writer *w, const char *path, const trace_run *run);
void trace_write_frame(trace_writer *w, const trace_run *run, const trace_frame *frame);
/* Closes the frames array, writes the transitions, the foot skate and the summary, and closes
 * the file, putting it at its path. CLI_OK, or CLI_FAILURE when writing failed (the reason goes
 * to stderr; what was at the path is as it was). */
int trace_finish(trace_writer *w, const trace_run *run, const pop_transition *transitions, int count,
                 const trace_skate *skate);

/* A node's name for the trace and the summary: its name, or "#INDEX" when it has none. */
const char *trace_node_name(const tdn_graph *graph, int node, char *buffer, size_t size);
/* The mode the document declares ("smooth", "frozen", "cut", "inertialize"); when unknown,
 * "cut" for a transition that completed in the update it started in, else "smooth". */
const char *trace_transition_mode(const pop_transition *t);

#endif
