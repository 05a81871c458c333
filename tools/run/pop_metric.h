/* tendon CLI: the pop metric (docs/metrics.md), over the transitions a run takes.
 *
 * A pop_recorder is fed every frame of a run (after tdn_graph_update and tdn_graph_evaluate):
 * it opens and closes a transition per state machine from the graph's events and measures each
 * transition's window as the frames come (keeping the last 0.1 s of per-frame rotation changes
 * and, per transition, the clip nodes' weights and times it needs, never the frames: a run of any
 * length takes memory in proportion to its transitions). After the run, pop_recorder_finish
 * computes, per transition (angles in degrees, changes per frame at the run's fps):
 *
 *   window      from 0.1 s (rounded to frames) before the start to 0.1 s after the end;
 *   observed    the largest change of any joint's local rotation between two consecutive
 *               frames of the window;
 *   clip_change the largest change between consecutive samples (1/fps apart) of any joint's
 *               local rotation in the source clip and in the destination clip, each sampled
 *               alone over its whole length (0, 1/fps, ..., its duration);
 *   switch_difference  the largest rotation difference of any joint between the source clip
 *               and the destination clip, sampled at the times they have at the first frame
 *               the destination shows, the start (mirrored when their clip nodes mirror);
 * Clips sampled alone have their root motion removed as the graph does when it extracts root
 * motion (otherwise a turning clip's root would jump back at every loop wrap, which no
 * transition did).
 *   frames      the transition's frames: its declared duration x fps when the caller knows it
 *               (pop_recorder_declare: a cut that replaces a fade of that duration, an
 *               inertialization's decay, a fade's own length), else end - start + 1 (a
 *               transition that completed in the update it started in, CUT, INERTIALIZE or a
 *               zero duration, with no declared duration: 1);
 *   bound       clip_change + switch_difference / frames;
 *   pop         observed / bound (bound at least 1e-3 degrees).
 *
 * start is the first frame that shows the destination (the one whose update took the
 * transition), end the frame whose update finished it (a fade of n frames: start + n - 1; a
 * cut: start), or the last frame before another transition of the same machine interrupted
 * it, or the run's last frame. These are the definitions of tests/test_transitions.c.
 *
 * Which clips a state plays is not public in the graph API, so the source clip is the clip node
 * that lost the most weight from the frame before the start to the end, and the destination the
 * one that gained the most (the heaviest clip node under each state when the states' inner
 * weights hold still); with no such change (a state to itself), the heaviest clip node before
 * the start / at the end. */
#ifndef TENDON_POP_METRIC_H
#define TENDON_POP_METRIC_H

#include "tendon/tendon.h"

typedef struct pop_transition {
    int machine;  /* the state machine's node */
    int index;    /* the transition's index in its machine */
    int from, to; /* states */
    int start_frame, end_frame;
    int cut;      /* started and finished in one update */
    int finished; /* 0: interrupted, or still fading when the run ended */
    int interrupted;
    int from_node, to_node; /* the clip nodes the bound is computed from, or -1 */
    int from_clip, to_clip; /* their clips (graph clip indices), or -1 */
    int frames;
    int declared_frames;     /* 0: not known (pop_recorder_declare) */
    double declared_seconds; /* the document's duration in seconds; 0: none, or normalized */
    const char *mode;        /* "smooth", "frozen", "cut", "inertialize" as declared, or NULL */
    double observed, clip_change, switch_difference, bound, pop; /* degrees/frame; pop: ratio */
    int peak_frame, peak_joint; /* where `observed` was (the later frame of the pair) */
} pop_transition;

typedef struct pop_recorder pop_recorder;

/* fps: the run's frames per second (the window's 0.1 s in frames). 0 when out of memory. */
int pop_recorder_create(const tdn_graph *graph, int joint_count, float fps, pop_recorder **out);
void pop_recorder_destroy(pop_recorder *recorder);
/* Records one frame (frame numbers count from 0 in the order given). 0 when out of memory. */
int pop_recorder_frame(pop_recorder *recorder, const tdn_graph_instance *instance, const tdn_pose *pose);
/* Computes every transition's metric. clips[i] is the graph's clip i (tdn_graph_entry.clip);
 * mirror: the joint mirror table for mirrored clip nodes (NULL: not mirrored). 0 when out of
 * memory. extract: the graph's root-motion settings when it extracts root motion, else NULL. */
int pop_recorder_finish(pop_recorder *recorder, const tdn_clip *const *clips, int clip_count, const int *mirror,
                        const tdn_root_track_desc *extract, float fps);
/* What the graph's document declares for transition k (before pop_recorder_finish): its
 * duration in seconds and in frames (0: unknown) and its mode (a string that outlives the
 * recorder, or NULL). */
void pop_recorder_declare(pop_recorder *recorder, int k, double seconds, int frames, const char *mode);
int pop_recorder_transitions(const pop_recorder *recorder, const pop_transition **out);

/* The building blocks. Angles are of the relative rotation a^-1 b, in degrees, computed in
 * double (2 atan2(|v|, |w|): exact near 0), sign-insensitive. */
double pop_angle_degrees(const float *a, const float *b);
/* The largest angle over `joints` rotations stored x, y, z, w per joint; *joint (optional)
 * receives which. */
double pop_largest_difference(const float *a, const float *b, int joints, int *joint);
/* A clip's largest per-frame change sampled alone at `fps` over its length (see the top), with
 * root motion removed through `track` (NULL: none). The two poses are scratch of the clip's
 * joint count. */
double pop_clip_change(const tdn_clip *clip, const tdn_root_track *track, float fps, tdn_pose *a, tdn_pose *b);
/* A pose's rotations into out (x, y, z, w per joint). */
void pop_pose_rotations(const tdn_pose *pose, float *out);

#endif
