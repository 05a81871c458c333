/* tendon CLI: what a graph document declares that the graph API does not report, read again
 * from its JSON (tdn_graph_document_load has checked it, and said what is wrong with it):
 * whether the graph extracts root motion and of which joint, a transition's mode and duration,
 * the IK jobs' target parameters, and the character's file. */
#ifndef TENDON_GRAPH_EXTRAS_H
#define TENDON_GRAPH_EXTRAS_H

#include <cjson/cJSON.h>

#include "tendon/io/asset.h"
#include "tendon/tendon.h"

typedef struct graph_extras {
    cJSON *json; /* the document (NULL when it cannot be read again) */
    int extract; /* the graph extracts root motion */
    tdn_root_track_desc root_motion;
} graph_extras;

/* Reads the document at path again; what cannot be read stays 0. */
void graph_extras_read(const char *path, const tdn_skeleton *skeleton, graph_extras *x);
/* The same from a document's text (a pack's graph). */
void graph_extras_read_text(const char *text, size_t size, const tdn_skeleton *skeleton, graph_extras *x);
void graph_extras_free(graph_extras *x);

/* Transition `index` of the state machine node `machine`: its declared mode (NULL: none
 * found), and its duration in seconds and in frames at fps (0: none, or normalized). */
void graph_extras_transition(const graph_extras *x, const tdn_graph *graph, int machine, int index, float fps,
                             const char **mode, double *seconds, int *frames);

/* The IK jobs ("ik" entries) with a vec3 "target" parameter, at most max: each one's target
 * parameter, weight parameter (-1: none) and constant weight (a number, or 1 when absent).
 * Returns how many. */
int graph_extras_ik_targets(const graph_extras *x, const tdn_graph *graph, int max, int *target_param,
                            int *weight_param, float *weight_const);

/* The importer's warnings about the character's file (as info and sample print them), the file
 * named as the document names it, from the document's folder (graph_path's). */
void graph_extras_character_warnings(const graph_extras *x, const char *graph_path, const tdn_asset *asset);

#endif
