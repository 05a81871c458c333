/* tendon CLI: the foot-skate metric (docs/metrics.md) over the frames of `tendon run`.
 *
 * Feet: every leg's foot (end joint) of every foot placement job of the graph; when the graph
 * has none, the feet found by name (feet_by_name.h: LeftAnkle, L_Ankle, LeftFoot/RightFoot,
 * foot_l/foot_r, Foot.L, mixamorig:LeftFoot, Bip01 L Foot...), at most FOOT_SKATE_MAX_FEET. A
 * graph driving another character (a document with "retarget") is measured on that
 * character's feet, found by name.
 *
 * Per frame (after tdn_graph_evaluate) each foot's world position is its model-space position
 * placed by the character's world matrix (the integrated root motion when the graph extracts
 * it, else the identity: the pose carries it), and whether it is in contact:
 *   curve   a foot placement job's leg whose contact curve some clip of the graph has: the
 *           contact the job used, tdn_graph_foot_contact >= 0.5 (with a ground; without one
 *           the job does not run, and the same blend is made here from the flat list: the
 *           bottom layer's non-additive clip entries' curves, weighted by their weights times
 *           their modifier group's weight, clips without the curve counting 0);
 *   height  otherwise: the foot at most 5 cm above the ground under it (the --ground, else
 *           y = 0), measured from its rest height (its model-space height in the skeleton's
 *           rest pose, at least 0: the humanoid's ankle is 6 cm above the ground at rest).
 * Feet may also be given as joints of a skeleton with no graph (foot_skate_init_feet, for
 * `tendon mm run`): contact by height above a given rest height, and optionally no faster than
 * a speed (the foot's horizontal speed since the frame before, at most max_speed m/s).
 * A foot's skate is the mean horizontal (x, z) speed over the pairs of consecutive frames in
 * which it is in contact in both: 100 x (sum of the horizontal distances it moved between
 * them) / (pairs / fps), cm/s; undefined (NaN) with no such pair. The mean over feet is the
 * same ratio over every foot's pairs (the contact-time-weighted mean).
 *
 * In place: clips made to play on the spot (no root motion, as many game characters' walks and
 * runs are) slide their planted feet back as on a treadmill, by design, so their skate measures
 * that and not the animation. A run is in place when its feet slid, on average, at least
 * FOOT_SKATE_IN_PLACE_SLIDE x the character's size in contact (a standing character, whose
 * feet hardly move, stays measured) while the centre of its joints (in world space: moved by the
 * integrated root motion too) never got further from where it started than
 * FOOT_SKATE_IN_PLACE_TRAVEL x the larger of that slide and the size (the body sways on the
 * spot: a tenth of the size covers it in a short run). The size is the largest extent of the
 * rest pose's joints; feet given as joints (no graph) are never in place. */
#ifndef TENDON_FOOT_SKATE_H
#define TENDON_FOOT_SKATE_H

#include "ground.h"
#include "tendon/io/graph_document.h"
#include "tendon/tendon.h"

#include <cjson/cJSON.h>

#define FOOT_SKATE_MAX_FEET 8
#define FOOT_SKATE_CONTACT_HEIGHT 0.05 /* metres above the rest height */
#define FOOT_SKATE_IN_PLACE_SLIDE 0.1  /* of the character's size */
#define FOOT_SKATE_IN_PLACE_TRAVEL 0.1 /* of the feet's mean slide, or of the size when larger */

typedef struct foot_skate_result {
    int contact_frames; /* frames in contact */
    int pairs;          /* consecutive frames both in contact */
    double slide;       /* metres moved horizontally over those pairs */
    double cm_per_s;    /* NaN when pairs == 0 */
} foot_skate_result;

typedef struct foot_skate_foot {
    int joint;
    int job, leg;   /* the foot placement job and its leg, or -1 (found by name) */
    char curve[64]; /* the leg's contact curve ("" for none) */
    int by_curve;   /* 1: contact from the curve; 0: by height */
    float rest_height;
    int *track;       /* per graph clip: the curve's float track, or -1 */
    int prev_contact; /* after foot_skate_frame: this frame's contact and world position */
    tdn_vec3 prev;
} foot_skate_foot;

typedef struct foot_skate {
    const tdn_graph_document *doc; /* NULL: feet given as joints (foot_skate_init_feet) */
    const tdn_skeleton *skel;
    const ground *ground; /* NULL: y = 0 and foot placement off */
    float fps;
    int count;
    int by_name;     /* the feet were found by name (no foot placement job) */
    float max_speed; /* > 0: in contact only when no faster than this (m/s, horizontal) */
    foot_skate_foot feet[FOOT_SKATE_MAX_FEET];
    tdn_mat4 *model; /* scratch, one per joint */
    int run, frame;
    foot_skate_result results[2][FOOT_SKATE_MAX_FEET]; /* run 0: foot locking on; 1: off */
    float size;                                        /* the rest pose's largest extent (0: never in place) */
    tdn_vec3 start;                                    /* the centre of the joints in the run's first frame */
    double travel[2]; /* per run: the largest horizontal distance of the centre from start */
} foot_skate;

/* Finds the feet (`json`: the graph document, for the legs' contact curve names). 0 when out
 * of memory. */
int foot_skate_init(foot_skate *s, const tdn_graph_document *doc, const cJSON *json, const ground *g, float fps);
/* Feet given as skeleton joints (no graph): contact when at most FOOT_SKATE_CONTACT_HEIGHT above
 * rest_heights[f] (the ground being y = 0) and, with max_speed > 0, when the foot's horizontal
 * speed since the frame before is at most max_speed (m/s; the first frame by height alone).
 * 0 when out of memory or for more than FOOT_SKATE_MAX_FEET feet. */
int foot_skate_init_feet(foot_skate *s, const tdn_skeleton *skel, const int *joints, const float *rest_heights,
                         int count, float fps, float max_speed);
void foot_skate_free(foot_skate *s);
/* Starts run 0 or 1 (its results zeroed). */
void foot_skate_begin(foot_skate *s, int run);
/* One frame of the current run, after tdn_graph_evaluate (instance NULL: feet given as joints). */
void foot_skate_frame(foot_skate *s, const tdn_graph_instance *instance, const tdn_pose *pose, const tdn_mat4 *world);
/* The same from the frame's model-space matrices already placed in the world (one per joint). */
void foot_skate_frame_model(foot_skate *s, const tdn_graph_instance *in, const tdn_mat4 *model);
/* The next frame does not follow the one before (another clip starts): no pair spans the cut. */
void foot_skate_cut(foot_skate *s);
/* The contact-time-weighted mean of a run's feet, cm/s (NaN when no foot had a pair). */
double foot_skate_mean(const foot_skate *s, int run);
/* 1 when the run played in place (see the top); *travel and *slide (metres, optional): how far
 * the centre of the joints got from its start, and the feet's mean slide in contact. */
int foot_skate_in_place(const foot_skate *s, int run, double *travel, double *slide);
/* A foot's joint name. */
const char *foot_skate_name(const foot_skate *s, int foot);
/* The graph has a foot placement job (so a run without locking differs when there is ground). */
int foot_skate_has_job(const foot_skate *s);
/* What says a foot is in contact, for the summary and the trace: "curve contact_l" or
 * "height". Written into buf. */
const char *foot_skate_contact_rule(const foot_skate *s, int foot, char *buf, size_t size);

#endif
