/* tendon CLI: the timeline of `tendon run --params TIMELINE.json` (docs/timeline.schema.json).
 *
 *   {"events": [{"time": 0.5, "set": {"speed": 1.5, "move": [0, 1], "crouch": true}},
 *               {"time": 1.0, "ramp": {"speed": 3.0}, "duration": 0.5},
 *               {"time": 2.0, "fire": "jump"},
 *               {"time": 3.0, "travel": {"state_machine": "locomotion", "state": "idle"}}]}
 *
 * Events are applied before the update of the first frame whose time is at or after theirs
 * (events of one time in file order), so a `set` shows in that frame's parameters. A ramp moves
 * its parameters linearly from their values when it starts (as last set) to the given ones over
 * `duration` seconds, evaluated at every frame's time; a later set or ramp of a parameter
 * replaces a ramp in progress. Names are checked against the graph when the file is loaded; an
 * error names the JSON path and, for a name that is not there, the nearest one by edit distance. */
#ifndef TENDON_TIMELINE_H
#define TENDON_TIMELINE_H

#include <stddef.h>

#include "tendon/tendon.h"

typedef struct timeline timeline;

/* Loads and checks the file against the graph. Returns an exit code (CLI_OK, or CLI_BAD_INPUT
 * / CLI_FAILURE with the reason, "WHERE: WHAT", in `why`). */
int timeline_load(const char *path, const tdn_graph *graph, timeline **out, char *why, size_t why_size);
/* An empty timeline (no --params); NULL when out of memory. */
timeline *timeline_empty(const tdn_graph *graph);
void timeline_destroy(timeline *tl);
/* Applies what is due at `time` (events at or before it not applied yet, ramps at it) to the
 * instance, before the frame's update. The initial targets are read from the instance at the
 * first call. CLI_OK, or CLI_BAD_INPUT with `why` (a travel to a state no transition reaches). */
int timeline_apply(timeline *tl, tdn_graph_instance *instance, double time, char *why, size_t why_size);
/* The value last set for a parameter by the timeline (or its initial value): components in
 * out[0..2]. For a trigger, 1 when it was fired for the current frame. */
void timeline_target(const timeline *tl, int param, float *out);
/* How many events the file has, and how many of them were applied so far. */
int timeline_event_count(const timeline *tl);
int timeline_applied_count(const timeline *tl);

#endif
