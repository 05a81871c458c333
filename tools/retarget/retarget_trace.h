/* tendon CLI: the trace of `tendon retarget --trace TRACE.json` (docs/cli.md), written as the
 * bake goes (trace_writer.h): a header (the files, the scale, the limbs, the takes), one line
 * per frame (its take, frame and time, both characters' hips in model space, the limb
 * directions), then a summary (per limb the median, 99th percentile and largest angle; the
 * hips' travel). */
#ifndef TENDON_RETARGET_TRACE_H
#define TENDON_RETARGET_TRACE_H

#include "limb_directions.h"
#include "retarget_pair.h"
#include "trace_writer.h"

/* Opens the file (a file at path is replaced only when the trace is finished) and writes the
 * header up to the frames array. CLI_OK, or CLI_BAD_INPUT when the file cannot be created (the
 * reason goes to stderr). */
int retarget_trace_open(trace_writer *w, const char *path, const retarget_args *a, const retarget_pair *p,
                        const retarget_take *takes, int take_count);
/* One frame: take index, frame in it, time; the hips (model space, each character's units); the
 * limb angles (LIMB_COUNT, degrees, NaN written as null). */
void retarget_trace_frame(trace_writer *w, int take, int frame, float time, tdn_vec3 source_hips, tdn_vec3 target_hips,
                          const float *angles);
/* Closes the frames, writes the summary and puts the file at its path: CLI_OK, or CLI_FAILURE
 * when writing failed (the reason goes to stderr; what was at the path is as it was). */
int retarget_trace_finish(trace_writer *w, const retarget_pair *p, const limb_directions *d);

#endif
