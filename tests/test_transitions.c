/* Motion quality of state-machine transitions on tendon's generated humanoid, and root motion
 * through graphs.
 *
 * 1. The pop metric (docs/metrics.md, pop), computed here from its definition. Every joint's local
 *    rotation is recorded every frame at 60 Hz. Over the window from 0.1 s (6 frames) before a
 *    transition starts to 0.1 s after it ends,
 *      pop = peak / bound,
 *      peak  = the largest per-frame change of any joint's local rotation (degrees per frame),
 *      bound = clips + switch / n,
 *      clips  = the largest per-frame change inside the source and destination clips themselves,
 *               each sampled alone at 60 Hz over its whole length,
 *      switch = the largest joint rotation difference between the source state's pose and the
 *               destination state's pose at the switch (each clip sampled alone at the time the
 *               graph's player has in the frame the transition starts),
 *      n      = the transition's frames (duration x 60: 12, 18, 30).
 *    A transition starts in the frame whose update takes it (S: the first frame that shows any
 *    of the destination) and ends in frame S + n - 1 (its weight reaches 1 on the n-th update).
 *    The graphs extract root motion (root joint 0, yaw), and the clips sampled alone have it
 *    removed the same way (tdn_root_motion_remove): otherwise turn_left's root, turning 90 deg
 *    per lap, would jump back 90 degrees at every loop wrap, which is not a transition's doing.
 *    Why <= 2 is what a good transition gives: a linear fade moves every joint at most by its
 *    clips' own motion plus switch / n per frame (pop <= 1, up to the nlerp's second order);
 *    smoothstep peaks at 1.5 switch / n, the Bezier (0.42, 0, 0.58, 1) (CSS ease-in-out) at
 *    y'(1/2) / x'(1/2) = 1.5 / 0.87 = 1.724 switch / n, the inertializer's quintic with no
 *    velocity at 1.875 switch / n, each added to at most `clips`: (clips + k switch / n) /
 *    (clips + switch / n) < k < 2. A CUT (whose own "frames" are 1) is measured against the
 *    bound of the fade of the same duration it replaces: its peak is the whole difference.
 *    And where the source is held (FROZEN run_forward -> idle, idle nearly still), the largest
 *    change inside the transition matches the ease curve's steepest step through nlerp,
 *    worked out in double (6.99, 10.38, 11.82 deg/frame at 0.2 s: measured 6.95, 10.32, 11.76).
 * 2. Masked layers: joints outside an upper-body mask equal the graph without the layer
 *    bit for bit, while the machine below transitions (smooth and inertialized) and the layer's
 *    weight moves.
 * 3. Root motion through graphs: laps of walk_forward (walk_speed x walk_cycle = 1.4 m each),
 *    a blend of walk_forward and strafe_left, a fade from walk to run (a sum worked by hand),
 *    extract against keep, a mirrored strafe_left moving like strafe_right.
 * 4. A trigger tested by two machines in two layers in the same update fires one transition:
 *    the machine first in node order (not layer order) takes it.
 * 5. No allocation through the graph's allocator over 600 frames of a two-layer graph with an
 *    inertializing machine. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "tendon/io/humanoid.h"
#include "tendon/io/asset.h"

static const double PI = 3.14159265358979323846;
#define FPS 60
static const float DT = 1.0f / FPS;

/* ---- the humanoid and its clips ---- */

enum { IDLE, WALK, RUN, WALK_BACK, STRAFE_L, STRAFE_R, TURN_L, TURN_R, CLIP_COUNT };
static const char *const clip_names[CLIP_COUNT] = { "idle",        "walk_forward", "run_forward", "walk_backward",
                                                    "strafe_left", "strafe_right", "turn_left",   "turn_right" };

static tdn_asset *humanoid;
static const tdn_skeleton *skel;
static int J; /* 67 joints */
static tdn_clip *clips[CLIP_COUNT];
static tdn_root_track *tracks[CLIP_COUNT]; /* default desc: joint 0, yaw, ground plane */
static double clip_change[CLIP_COUNT];     /* largest per-frame change alone, degrees */
/* The defaults, written out: 1.4 m/s, 1 s cycles, 3.5 m/s, 0.6 s runs. */
static const tdn_humanoid_desc hdesc = { .walk_speed = 1.4f, .walk_cycle = 1.0f, .run_speed = 3.5f, .run_cycle = 0.6f };

static double deg(double radians) { return radians * 180.0 / PI; }

/* A clip alone at time t, root motion taken out as the graphs take it out. */
static void sample_extracted(int clip, float t, tdn_pose *pose)
{
    tdn_clip_sample(clips[clip], t, pose, NULL);
    tdn_root_motion_remove(tracks[clip], pose, NULL);
}

/* The largest per-frame change of any joint's local rotation in a clip sampled alone at 60 Hz
 * from 0 to its whole length (the last sample at the duration exactly), degrees. */
static double clip_alone_change(int clip)
{
    float duration = tdn_clip_duration(clips[clip]);
    int frames = (int)ceilf(duration * FPS - 1e-3f);
    tdn_pose a, b;
    tdn_pose_create(J, &a, NULL, NULL);
    tdn_pose_create(J, &b, NULL, NULL);
    double worst = 0;
    sample_extracted(clip, 0.0f, &a);
    for (int k = 1; k <= frames; k++) {
        float t = (float)k / FPS;
        sample_extracted(clip, t < duration ? t : duration, &b);
        for (int j = 0; j < J; j++)
            worst = fmax(worst, check_quat_angle(tdn_pose_get(&a, j).r, tdn_pose_get(&b, j).r));
        tdn_pose_copy(&a, &b, NULL);
    }
    tdn_pose_destroy(&a);
    tdn_pose_destroy(&b);
    return deg(worst);
}

/* The largest joint rotation difference between clip a at ta and clip b at tb, degrees. */
static double switch_difference(int a, float ta, int b, float tb)
{
    tdn_pose pa, pb;
    tdn_pose_create(J, &pa, NULL, NULL);
    tdn_pose_create(J, &pb, NULL, NULL);
    sample_extracted(a, ta, &pa);
    sample_extracted(b, tb, &pb);
    double worst = 0;
    for (int j = 0; j < J; j++)
        worst = fmax(worst, check_quat_angle(tdn_pose_get(&pa, j).r, tdn_pose_get(&pb, j).r));
    tdn_pose_destroy(&pa);
    tdn_pose_destroy(&pb);
    return deg(worst);
}

/* ---- a two-state machine over two clips ---- */

/* nodes[0] plays clip a, nodes[1] clip b (both looping), nodes[2] is the machine: a -> b when
 * the bool "go" is set, b -> a when it is cleared, both with the given mode, duration and
 * curve. Root motion extracted at joint 0. */
static int make_pair(int a, int b, tdn_transition_mode mode, float duration, tdn_ease curve, tdn_graph **g,
                     tdn_graph_instance **in)
{
    static const tdn_param_desc params[] = { { .name = "go", .type = TDN_PARAM_BOOL } };
    static const tdn_state_desc states[2] = { { "a" }, { "b" } };
    static const tdn_condition_desc go[] = { { "go", TDN_COMPARE_TRUE, 0 } };
    static const tdn_condition_desc back[] = { { "go", TDN_COMPARE_FALSE, 0 } };
    static const int inputs[2] = { 0, 1 };
    tdn_transition_desc t[2] = {
        { .from = 0,
          .to = 1,
          .conditions = go,
          .condition_count = 1,
          .duration = duration,
          .curve = curve,
          .mode = mode },
        { .from = 1,
          .to = 0,
          .conditions = back,
          .condition_count = 1,
          .duration = duration,
          .curve = curve,
          .mode = mode },
    };
    tdn_state_machine_desc sm = { states, 2, t, 2, 0 };
    tdn_node_desc nodes[3] = {
        { .type = TDN_NODE_CLIP, .name = clip_names[a], .clip = a, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .name = clip_names[b], .clip = b, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_STATE_MACHINE, .name = "m", .inputs = inputs, .input_count = 2, .state_machine = &sm },
    };
    tdn_root_track_desc rm = { 0 };
    tdn_graph_desc gd = { .skeleton = skel,
                          .clips = (const tdn_clip *const *)clips,
                          .clip_count = CLIP_COUNT,
                          .params = params,
                          .param_count = 1,
                          .nodes = nodes,
                          .node_count = 3,
                          .root = 2,
                          .root_motion = &rm,
                          .extract_root_motion = 1 };
    tdn_error err = { 0 };
    *in = NULL;
    if (tdn_graph_create(&gd, g, &counting, &err) != TDN_OK) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return 0;
    }
    return tdn_graph_instance_create(*g, in, &counting, NULL) == TDN_OK;
}

static int machine_state(const tdn_graph_instance *in, int node)
{
    tdn_state_machine_status s;
    tdn_graph_state_machine_status(in, node, &s, NULL);
    return s.state;
}

/* Every joint's local rotation of frames 0..frames-1 (frame f: after f updates). */
typedef struct recording {
    int frames;
    tdn_quat *r; /* frames x J */
} recording;

static double frame_change(const recording *rec, int f)
{
    double worst = 0;
    for (int j = 0; j < J; j++)
        worst = fmax(worst, check_quat_angle(rec->r[(size_t)(f - 1) * J + j], rec->r[(size_t)f * J + j]));
    return deg(worst);
}

/* The largest per-frame change among frames first..last (the change of frame f: from f - 1). */
static double peak_change(const recording *rec, int first, int last)
{
    double worst = 0;
    for (int f = first; f <= last; f++)
        worst = fmax(worst, frame_change(rec, f));
    return worst;
}

/* Runs the pair's graph for `frames` frames, flipping "go" at each of the switch frames
 * (go = 1 at the first, 0 at the second, ...); records every frame's rotations and, at each
 * switch, the switch difference (a and b sampled alone at the players' times in that frame).
 * Returns the largest switch difference; 0 when a switch did not change the state. */
static double run_pair(tdn_graph_instance *in, int a, int b, const int *switches, int switch_count, recording *rec)
{
    tdn_pose pose;
    tdn_pose_create(J, &pose, NULL, NULL);
    double largest = 0;
    int ok = 1, next = 0;
    for (int f = 1; f < rec->frames; f++) {
        if (next < switch_count && f == switches[next])
            tdn_graph_set_bool(in, 0, next % 2 == 0, NULL);
        tdn_graph_update(in, DT, NULL);
        tdn_graph_evaluate(in, &pose, NULL);
        for (int j = 0; j < J; j++)
            rec->r[(size_t)f * J + j] = tdn_pose_get(&pose, j).r;
        if (next < switch_count && f == switches[next]) {
            ok &= machine_state(in, 2) == (next % 2 == 0 ? 1 : 0);
            largest = fmax(largest, switch_difference(a, tdn_graph_clip_time(in, 0), b, tdn_graph_clip_time(in, 1)));
            next++;
        }
    }
    tdn_pose_destroy(&pose);
    return ok ? largest : 0.0;
}

typedef struct pop_result {
    double peak, inside, clips, sw, bound, pop; /* inside: the peak over the transition's own frames */
} pop_result;

static const char *mode_name(tdn_transition_mode mode)
{
    static const char *const names[] = { "SMOOTH", "FROZEN", "CUT", "INERTIALIZE" };
    return names[mode];
}

static const char *curve_name(tdn_ease curve)
{
    static const char *const names[] = { "linear", "smoothstep", "bezier" };
    return names[curve.kind];
}

/* One transition a -> b starting at frame 42 (0.7 s into a), or with `interruptions` > 1 that
 * many, each at half the previous one (a -> b, b -> a, ...). */
static pop_result measure(int a, int b, tdn_transition_mode mode, float duration, tdn_ease curve, int interruptions)
{
    pop_result res = { 0, 0, 0, 0, 0, 0 };
    tdn_graph *g = NULL;
    tdn_graph_instance *in = NULL;
    if (!CHECK(make_pair(a, b, mode, duration, curve, &g, &in))) {
        tdn_graph_destroy(g);
        return res;
    }
    int n = (int)lroundf(duration * FPS), half = n / 2;
    int switches[16];
    for (int k = 0; k < interruptions; k++)
        switches[k] = 42 + k * half;
    int start = switches[0], end = switches[interruptions - 1] + n - 1;
    recording rec = { end + 6 + 4, NULL };
    rec.r = malloc(sizeof *rec.r * (size_t)rec.frames * (size_t)J);
    res.sw = run_pair(in, a, b, switches, interruptions, &rec);
    CHECK(res.sw > 0);
    /* the window: frames start - 6 .. end + 6, so changes of frames start - 5 .. end + 6 */
    res.peak = peak_change(&rec, start - 5, end + 6);
    res.inside = peak_change(&rec, start, end);
    res.clips = fmax(clip_change[a], clip_change[b]);
    res.bound = res.clips + res.sw / n;
    res.pop = res.peak / res.bound;
    free(rec.r);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    return res;
}

static const tdn_ease curves[3] = { { TDN_EASE_LINEAR, 0, 0, 0, 0 },
                                    { TDN_EASE_SMOOTHSTEP, 0, 0, 0, 0 },
                                    { TDN_EASE_BEZIER, 0.42f, 0.0f, 0.58f, 1.0f } };
static const int pairs[3][2] = { { RUN, IDLE }, { WALK, TURN_L }, { STRAFE_L, WALK_BACK } };
static const float durations[3] = { 0.2f, 0.3f, 0.5f };

static void print_pop(const char *what, int a, int b, tdn_transition_mode mode, const char *curve, float duration,
                      const pop_result *r)
{
    char label[64];
    snprintf(label, sizeof label, "%s->%s", clip_names[a], clip_names[b]);
    printf("pop %-11s %-26s %-11s %-10s %.1f s: peak %6.3f deg/frame (%6.3f inside), bound %6.3f = clips %6.3f +"
           " switch %5.2f / %2d -> pop %.3f\n",
           what, label, mode_name(mode), curve, duration, r->peak, r->inside, r->bound, r->clips, r->sw,
           (int)lroundf(duration * FPS), r->pop);
}

static void pop_of_transitions(void)
{
    double worst_fade = 0, lowest_cut = 1e9, lowest_cut_ratio = 1e9;
    for (int p = 0; p < 3; p++)
        for (int d = 0; d < 3; d++) {
            int a = pairs[p][0], b = pairs[p][1];
            for (int mode = TDN_TRANSITION_SMOOTH; mode <= TDN_TRANSITION_INERTIALIZE; mode++) {
                /* ease curves shape fades; an inertialization has its quintic, a cut nothing */
                int curve_count = mode == TDN_TRANSITION_SMOOTH || mode == TDN_TRANSITION_FROZEN ? 3 : 1;
                for (int c = 0; c < curve_count; c++) {
                    pop_result r = measure(a, b, (tdn_transition_mode)mode, durations[d], curves[c], 1);
                    print_pop("single", a, b, (tdn_transition_mode)mode, curve_count == 1 ? "-" : curve_name(curves[c]),
                              durations[d], &r);
                    /* clearly different clips: tens of degrees apart at the switch */
                    CHECK(r.sw > 10);
                    if (mode == TDN_TRANSITION_CUT) {
                        /* the whole difference in one frame */
                        double ratio = r.peak / r.sw;
                        printf("    cut: peak / switch = %.3f\n", ratio);
                        CHECK(ratio >= 0.9);
                        CHECK(r.pop > 2.5);
                        lowest_cut = fmin(lowest_cut, r.pop);
                        lowest_cut_ratio = fmin(lowest_cut_ratio, ratio);
                    } else {
                        CHECK(r.pop <= 2.0);
                        worst_fade = fmax(worst_fade, r.pop);
                    }
                }
            }
        }
    printf("pop: largest of smooth/frozen/inertialized %.3f; smallest cut pop %.3f, cut peak/switch >= %.3f\n",
           worst_fade, lowest_cut, lowest_cut_ratio);
}

/* The ease curves in double, on their own: linear, 3t^2 - 2t^3, and the cubic Bezier
 * (0.42, 0, 0.58, 1) solved for x(u) = t by bisection. */
static double ease_reference(int kind, double t)
{
    if (kind == TDN_EASE_LINEAR)
        return t;
    if (kind == TDN_EASE_SMOOTHSTEP)
        return t * t * (3 - 2 * t);
    double lo = 0, hi = 1, u = t;
    for (int k = 0; k < 80; k++) {
        u = 0.5 * (lo + hi);
        double x = 3 * (1 - u) * (1 - u) * u * 0.42 + 3 * (1 - u) * u * u * 0.58 + u * u * u;
        if (x < t)
            lo = u;
        else
            hi = u;
    }
    return 3 * (1 - u) * u * u + u * u * u; /* y1 = 0, y2 = 1 */
}

/* The rotation angle of nlerp(a, b, w) from a, for a and b `theta` radians apart: in the plane
 * of the two unit quaternions (half-angle phi = theta / 2 between them) the blend is
 * (1 - w + w cos phi, w sin phi), at angle beta = atan2(w sin phi, 1 - w + w cos phi) from a,
 * a rotation of 2 beta. Its rate at w = 1/2 is 4 tan(theta / 4) per unit of w: 1.043 theta at
 * 80.5 degrees, a little faster than slerp's theta. */
static double nlerp_angle(double theta, double w)
{
    double phi = theta / 2;
    return 2 * atan2(w * sin(phi), 1 - w + w * cos(phi));
}

/* A FROZEN run_forward -> idle holds run's pose while idle (moving at most 0.109 deg/frame)
 * fades in, so inside the transition each frame turns the joint that differs most by
 * nlerp_angle(theta, e(k/n)) - nlerp_angle(theta, e((k-1)/n)): the ease curve's shape shows
 * in the motion, the peak near e'(1/2) switch / n (1, 1.5 and 1.724 times the even spread,
 * a little less on whole frames, times nlerp's 1.043). */
static void ease_curves_shape_the_motion(void)
{
    for (int d = 0; d < 3; d++)
        for (int c = 0; c < 3; c++) {
            pop_result r = measure(RUN, IDLE, TDN_TRANSITION_FROZEN, durations[d], curves[c], 1);
            int n = (int)lroundf(durations[d] * FPS);
            double theta = r.sw * PI / 180, expected = 0;
            for (int k = 1; k <= n; k++)
                expected = fmax(expected, nlerp_angle(theta, ease_reference(curves[c].kind, (double)k / n)) -
                                              nlerp_angle(theta, ease_reference(curves[c].kind, (double)(k - 1) / n)));
            expected = deg(expected);
            printf("frozen run_forward->idle %-10s %.1f s: largest change inside %.3f deg/frame, by the curve %.3f"
                   " (%.3f x switch / n)\n",
                   curve_name(curves[c]), durations[d], r.inside, expected, expected / (r.sw / n));
            CHECK_NEAR(r.inside, expected, 0.15);
        }
}

/* Ten transitions, each interrupting the previous one halfway: a -> b, at half b -> a, ...
 * The bound over the whole sequence: the clips' own largest change + the largest of the ten
 * switch differences (the state left and the state entered, each clip sampled alone at its
 * player's time in the switch frame) spread over one transition's n frames; the window from
 * 0.1 s before the first starts to 0.1 s after the last ends. */
static void pop_of_interruptions(void)
{
    double worst = 0;
    for (int p = 0; p < 3; p++)
        for (int d = 0; d < 3; d++)
            for (int m = 0; m < 2; m++) {
                tdn_transition_mode mode = m == 0 ? TDN_TRANSITION_SMOOTH : TDN_TRANSITION_INERTIALIZE;
                int a = pairs[p][0], b = pairs[p][1];
                pop_result r = measure(a, b, mode, durations[d], curves[0], 10);
                print_pop("interrupted", a, b, mode, m == 0 ? "linear" : "-", durations[d], &r);
                CHECK(r.pop <= 2.0);
                worst = fmax(worst, r.pop);
            }
    printf("pop: largest over ten halfway interruptions %.3f\n", worst);
}

/* ---- 2. masked layers ---- */

static int same_bits(const tdn_pose *a, const tdn_pose *b, int joint)
{
    for (int r = 0; r < TDN_POSE_ROWS; r++)
        if (memcmp(&tdn_pose_crow(a, r)[joint], &tdn_pose_crow(b, r)[joint], sizeof(float)) != 0)
            return 0;
    return 1;
}

/* Locomotion: walk, run, strafe_left. walk -> run smooth 0.3 s on "fast", run -> walk
 * inertialized 0.25 s when "fast" is cleared, walk -> strafe smoothstep 0.4 s on "side",
 * strafe -> walk frozen 0.2 s when it is cleared. */
static const tdn_state_desc loco_states[3] = { { "walk" }, { "run" }, { "strafe" } };
static const tdn_condition_desc fast_on[] = { { "fast", TDN_COMPARE_TRUE, 0 } };
static const tdn_condition_desc fast_off[] = { { "fast", TDN_COMPARE_FALSE, 0 } };
static const tdn_condition_desc side_on[] = { { "side", TDN_COMPARE_TRUE, 0 } };
static const tdn_condition_desc side_off[] = { { "side", TDN_COMPARE_FALSE, 0 } };
static const tdn_transition_desc loco_transitions[4] = {
    { .from = 0, .to = 1, .conditions = fast_on, .condition_count = 1, .duration = 0.3f },
    { .from = 1,
      .to = 0,
      .conditions = fast_off,
      .condition_count = 1,
      .duration = 0.25f,
      .mode = TDN_TRANSITION_INERTIALIZE },
    { .from = 0,
      .to = 2,
      .conditions = side_on,
      .condition_count = 1,
      .duration = 0.4f,
      .curve = { TDN_EASE_SMOOTHSTEP, 0, 0, 0, 0 } },
    { .from = 2,
      .to = 0,
      .conditions = side_off,
      .condition_count = 1,
      .duration = 0.2f,
      .mode = TDN_TRANSITION_FROZEN },
};
static const tdn_param_desc loco_params[] = { { .name = "fast", .type = TDN_PARAM_BOOL },
                                              { .name = "side", .type = TDN_PARAM_BOOL },
                                              { .name = "aim", .value = { 1 } } };

/* nodes 0..2 the locomotion clips, 3 the machine (layer 0); with `layered`, node 4 (idle) in
 * an override layer over `mask` with weight "aim". */
static int make_loco(int layered, const float *mask, const tdn_allocator *allocator, tdn_graph **g,
                     tdn_graph_instance **in)
{
    static const int inputs[3] = { 0, 1, 2 };
    tdn_state_machine_desc sm = { loco_states, 3, loco_transitions, 4, 0 };
    tdn_node_desc nodes[5] = {
        { .type = TDN_NODE_CLIP, .clip = WALK, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = RUN, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = STRAFE_L, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_STATE_MACHINE, .name = "loco", .inputs = inputs, .input_count = 3, .state_machine = &sm },
        { .type = TDN_NODE_CLIP, .clip = IDLE, .wrap = TDN_WRAP_LOOP },
    };
    tdn_layer_desc layers[2] = { { .name = "loco", .root = 3 },
                                 { .name = "upper", .root = 4, .weight = { "aim", 0 }, .mask = mask } };
    tdn_root_track_desc rm = { 0 };
    tdn_graph_desc gd = { .skeleton = skel,
                          .clips = (const tdn_clip *const *)clips,
                          .clip_count = CLIP_COUNT,
                          .params = loco_params,
                          .param_count = 3,
                          .nodes = nodes,
                          .node_count = layered ? 5 : 4,
                          .root = 3,
                          .layers = layered ? layers : NULL,
                          .layer_count = layered ? 2 : 0,
                          .root_motion = &rm,
                          .extract_root_motion = 1 };
    tdn_error err = { 0 };
    *in = NULL;
    if (tdn_graph_create(&gd, g, allocator, &err) != TDN_OK) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return 0;
    }
    return tdn_graph_instance_create(*g, in, allocator, NULL) == TDN_OK;
}

/* The parameters of frame f of a scripted 8 s: fast on 1.0-3.0 s (and off at 2.1 s for 0.1 s:
 * an inertialization interrupting nothing, then smooth again), side on 4.0-5.5 s, aim waving
 * between 0 and 1 (exactly 0 and 1 now and then). */
static void script(tdn_graph_instance *in, int f)
{
    float t = (float)f / FPS;
    tdn_graph_set_bool(in, 0, (t >= 1.0f && t < 3.0f) && !(t >= 2.1f && t < 2.2f), NULL);
    tdn_graph_set_bool(in, 1, t >= 4.0f && t < 5.5f, NULL);
    float w = 0.5f + 0.5f * sinf(1.7f * t); /* "aim": the one-layer graph has it too, unread */
    tdn_graph_set_float(in, 2, f % 97 < 10 ? 0.0f : f % 89 < 8 ? 1.0f : w, NULL);
}

static void masked_layer_leaves_the_rest_bit_identical(void)
{
    float *mask = calloc((size_t)tdn_pose_stride(J), sizeof(float));
    int spine = tdn_skeleton_find_joint(skel, "spine_01");
    CHECK(spine > 0);
    tdn_mask_fill(mask, J, 0.0f);
    CHECK(tdn_mask_set_subtree(mask, skel, spine, 1.0f, 2, NULL) == TDN_OK);
    /* spine_01 at 1/3, spine_02 at 2/3, from spine_03 down 1; the legs, pelvis and root 0 */
    CHECK_NEAR(mask[spine], 1.0 / 3, 1e-6);
    int outside = 0;
    for (int j = 0; j < J; j++)
        outside += mask[j] == 0.0f;
    tdn_graph *g1 = NULL, *g2 = NULL;
    tdn_graph_instance *one = NULL, *two = NULL;
    if (!CHECK(make_loco(0, NULL, &counting, &g1, &one) && make_loco(1, mask, &counting, &g2, &two)))
        goto done;
    tdn_pose p1, p2;
    tdn_pose_create(J, &p1, NULL, NULL);
    tdn_pose_create(J, &p2, NULL, NULL);
    int identical = 1, layer_shows = 0, states_seen = 0, inertialized = 0;
    long joint_frames = 0, rotations_off = 0;
    double worst_rotation = 0;
    for (int f = 1; f <= 8 * FPS; f++) {
        script(one, f);
        script(two, f);
        tdn_graph_update(one, DT, NULL);
        tdn_graph_update(two, DT, NULL);
        tdn_graph_evaluate(one, &p1, NULL);
        tdn_graph_evaluate(two, &p2, NULL);
        for (int j = 0; j < J; j++) {
            if (mask[j] == 0.0f) {
                joint_frames++;
                if (same_bits(&p1, &p2, j))
                    continue;
                rotations_off++;
                tdn_transform x1 = tdn_pose_get(&p1, j), x2 = tdn_pose_get(&p2, j);
                /* translations and scales bit for bit; rotations renormalized at most */
                identical &= memcmp(&x1.t, &x2.t, sizeof x1.t) == 0 && memcmp(&x1.s, &x2.s, sizeof x1.s) == 0;
                worst_rotation = fmax(worst_rotation, check_quat_angle(x1.r, x2.r));
            } else if (!same_bits(&p1, &p2, j)) {
                layer_shows = 1;
            }
        }
        states_seen |= 1 << machine_state(two, 3);
        const tdn_graph_event *e;
        int count = tdn_graph_events(two, &e, NULL);
        for (int k = 0; k < count; k++)
            inertialized |= e[k].type == TDN_EVENT_TRANSITION_STARTED && e[k].index == 1;
    }
    printf("masked layer: %d of %d joints outside the mask over 480 frames: translations and scales bit-identical: %s;"
           " rotations bit-identical in %ld of %ld joint-frames, the others %.3g rad off\n",
           outside, J, identical ? "yes" : "no", joint_frames - rotations_off, joint_frames, worst_rotation);
    CHECK_EQ_INT(outside, 2 + 2 * 4); /* root, pelvis, and thigh, calf, foot, toe per side */
    CHECK(identical);
    CHECK_EQ_INT(rotations_off, 0);
    CHECK(layer_shows);
    CHECK_EQ_INT(states_seen, 7); /* walk, run and strafe all played */
    CHECK(inertialized);          /* run -> walk was taken */
    tdn_pose_destroy(&p1);
    tdn_pose_destroy(&p2);
done:
    tdn_graph_instance_destroy(one);
    tdn_graph_instance_destroy(two);
    tdn_graph_destroy(g1);
    tdn_graph_destroy(g2);
    free(mask);
    CHECK_EQ_INT(live_blocks, 0);
}

/* ---- 3. root motion through graphs ---- */

typedef struct world {
    double p[3];
    double q[4]; /* x y z w */
} world;

static void qrot(const double q[4], const double v[3], double out[3])
{
    double t[3] = { 2 * (q[1] * v[2] - q[2] * v[1]), 2 * (q[2] * v[0] - q[0] * v[2]), 2 * (q[0] * v[1] - q[1] * v[0]) };
    out[0] = v[0] + q[3] * t[0] + (q[1] * t[2] - q[2] * t[1]);
    out[1] = v[1] + q[3] * t[1] + (q[2] * t[0] - q[0] * t[2]);
    out[2] = v[2] + q[3] * t[2] + (q[0] * t[1] - q[1] * t[0]);
}

/* position += rotate(facing, translation); facing = facing * rotation (in double). */
static void world_apply(world *w, const tdn_root_motion *m)
{
    double t[3] = { m->translation.x, m->translation.y, m->translation.z }, d[3];
    qrot(w->q, t, d);
    for (int i = 0; i < 3; i++)
        w->p[i] += d[i];
    double a[4] = { w->q[0], w->q[1], w->q[2], w->q[3] },
           b[4] = { m->rotation.x, m->rotation.y, m->rotation.z, m->rotation.w };
    w->q[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    w->q[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    w->q[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    w->q[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    double n = sqrt(w->q[0] * w->q[0] + w->q[1] * w->q[1] + w->q[2] * w->q[2] + w->q[3] * w->q[3]);
    for (int i = 0; i < 4; i++)
        w->q[i] /= n;
}

static tdn_graph *make_graph(const tdn_node_desc *nodes, int node_count, const tdn_param_desc *params, int param_count,
                             int extract, const int *mirror)
{
    tdn_root_track_desc rm = { .joint = 0 };
    tdn_graph_desc gd = { .skeleton = skel,
                          .clips = (const tdn_clip *const *)clips,
                          .clip_count = CLIP_COUNT,
                          .params = params,
                          .param_count = param_count,
                          .nodes = nodes,
                          .node_count = node_count,
                          .root = node_count - 1,
                          .mirror_table = mirror,
                          .cull_threshold = -1,
                          .root_motion = &rm,
                          .extract_root_motion = extract };
    tdn_graph *g = NULL;
    tdn_error err = { 0 };
    if (!CHECK(tdn_graph_create(&gd, &g, &counting, &err) == TDN_OK))
        fprintf(stderr, "%s: %s\n", err.where, err.message);
    return g;
}

/* Plays `frames` frames of `g` from the start, integrating its root motion. */
static world integrate(tdn_graph *g, int frames, int switch_frame)
{
    world w = { { 0, 0, 0 }, { 0, 0, 0, 1 } };
    tdn_graph_instance *in = NULL;
    if (!g || tdn_graph_instance_create(g, &in, &counting, NULL) != TDN_OK)
        return w;
    for (int f = 1; f <= frames; f++) {
        if (f == switch_frame)
            tdn_graph_set_bool(in, 0, 1, NULL);
        tdn_graph_update(in, DT, NULL);
        tdn_root_motion m;
        tdn_graph_root_motion(in, &m, NULL);
        world_apply(&w, &m);
    }
    tdn_graph_instance_destroy(in);
    return w;
}

static void check_world(const char *what, world w, double x, double z, double rel)
{
    double scale = sqrt(x * x + z * z);
    printf("root motion %-34s (%.6f, %.6f, %.6f), expected (%.6f, 0, %.6f)\n", what, w.p[0], w.p[1], w.p[2], x, z);
    CHECK_NEAR(w.p[0], x, rel * scale);
    CHECK_NEAR(w.p[1], 0, rel * scale);
    CHECK_NEAR(w.p[2], z, rel * scale);
}

static void root_motion_laps_and_blends(void)
{
    const double lap = 1.4 * 1.0; /* walk_speed x walk_cycle, m */
    for (int laps = 1; laps <= 5; laps += 2) {
        char what[64];
        /* walk_forward alone: N x 1.4 m along +Z */
        tdn_node_desc walk[1] = { { .type = TDN_NODE_CLIP, .clip = WALK, .wrap = TDN_WRAP_LOOP } };
        tdn_graph *g = make_graph(walk, 1, NULL, 0, 1, NULL);
        snprintf(what, sizeof what, "walk_forward x %d laps", laps);
        check_world(what, integrate(g, laps * FPS, -1), 0, laps * lap, 1e-4);
        tdn_graph_destroy(g);
        /* a blend2 at 0.5 of walk_forward (+Z) and strafe_left (+X): the average, (0.7, 0, 0.7) per lap */
        for (int synced = 0; synced < 2; synced++) {
            static const int inputs[2] = { 0, 1 };
            tdn_node_desc blend[3] = {
                { .type = TDN_NODE_CLIP, .clip = WALK, .wrap = TDN_WRAP_LOOP, .sync_group = synced ? "feet" : NULL },
                { .type = TDN_NODE_CLIP,
                  .clip = STRAFE_L,
                  .wrap = TDN_WRAP_LOOP,
                  .sync_group = synced ? "feet" : NULL },
                { .type = TDN_NODE_BLEND2, .inputs = inputs, .input_count = 2, .value = { NULL, 0.5f } },
            };
            g = make_graph(blend, 3, NULL, 0, 1, NULL);
            snprintf(what, sizeof what, "walk+strafe_left %s x %d laps", synced ? "synced" : "free", laps);
            check_world(what, integrate(g, laps * FPS, -1), 0.5 * laps * lap, 0.5 * laps * lap, 1e-4);
            tdn_graph_destroy(g);
        }
        /* strafe_left mirrored moves as strafe_right does: N x 1.4 m along -X */
        int mirror[TDN_MAX_JOINTS];
        CHECK(tdn_mirror_table_from_names(skel, mirror, NULL) == TDN_OK);
        tdn_node_desc mirrored[1] = { { .type = TDN_NODE_CLIP, .clip = STRAFE_L, .wrap = TDN_WRAP_LOOP, .mirror = 1 } };
        g = make_graph(mirrored, 1, NULL, 0, 1, mirror);
        snprintf(what, sizeof what, "strafe_left mirrored x %d laps", laps);
        world wm = integrate(g, laps * FPS, -1);
        check_world(what, wm, -laps * lap, 0, 1e-4);
        tdn_graph_destroy(g);
        tdn_node_desc right[1] = { { .type = TDN_NODE_CLIP, .clip = STRAFE_R, .wrap = TDN_WRAP_LOOP } };
        g = make_graph(right, 1, NULL, 0, 1, NULL);
        snprintf(what, sizeof what, "strafe_right x %d laps", laps);
        world wr = integrate(g, laps * FPS, -1);
        check_world(what, wr, -laps * lap, 0, 1e-4);
        for (int i = 0; i < 3; i++)
            CHECK_NEAR(wm.p[i], wr.p[i], 1e-4 * laps * lap);
        tdn_graph_destroy(g);
    }
    CHECK_EQ_INT(live_blocks, 0);
}

/* walk for 1 s, then a linear 0.5 s smooth fade to run, then run to 3 s. The fade's update k
 * (k = 1..30) carries run at weight k/30 (the fade moves on before the weights are taken), the
 * restarted run clip moving 3.5 m/s from its first update, walk 1.4 m/s:
 *   walk 60 frames        1.4 m
 *   fade  (1/60) sum_k (1.4 + 2.1 k / 30) = (42 + 2.1 x 15.5) / 60 = 74.55 / 60 = 1.2425 m
 *   run   90 frames       1.5 x 3.5 = 5.25 m
 * total 7.8925 m, between walking all along (4.2 m) and cutting to run at 1 s (8.4 m). */
static void root_motion_through_a_fade(void)
{
    static const tdn_param_desc params[] = { { .name = "go", .type = TDN_PARAM_BOOL } };
    static const tdn_state_desc states[2] = { { "walk" }, { "run" } };
    static const tdn_condition_desc go[] = { { "go", TDN_COMPARE_TRUE, 0 } };
    static const int inputs[2] = { 0, 1 };
    tdn_transition_desc t[1] = { { .from = 0, .to = 1, .conditions = go, .condition_count = 1, .duration = 0.5f } };
    tdn_state_machine_desc sm = { states, 2, t, 1, 0 };
    tdn_node_desc nodes[3] = {
        { .type = TDN_NODE_CLIP, .clip = WALK, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_CLIP, .clip = RUN, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_STATE_MACHINE, .inputs = inputs, .input_count = 2, .state_machine = &sm },
    };
    tdn_graph *g = make_graph(nodes, 3, params, 1, 1, NULL);
    world w = integrate(g, 3 * FPS, FPS + 1);
    double d = w.p[2];
    printf("root motion walk -> run fade over 3 s: %.6f m (hand sum 7.8925; walking 4.2, cut 8.4)\n", d);
    CHECK(d > 4.2 && d < 8.4);
    CHECK_NEAR(d, 7.8925, 1e-4 * 7.8925);
    CHECK_NEAR(w.p[0], 0, 1e-4);
    tdn_graph_destroy(g);
}

/* Extract keeps the pose's root in place (its ground-plane translation constant, at g(0));
 * keep leaves the clip's root in the pose (and reports the same motion). */
static void extract_and_keep(void)
{
    tdn_node_desc walk[1] = { { .type = TDN_NODE_CLIP, .clip = WALK, .wrap = TDN_WRAP_LOOP } };
    tdn_vec3 g0;
    tdn_root_track_frame(tracks[WALK], 0.0f, &g0, NULL);
    world moved[2];
    for (int extract = 0; extract < 2; extract++) {
        tdn_graph *g = make_graph(walk, 1, NULL, 0, extract, NULL);
        tdn_graph_instance *in = NULL;
        if (!g || tdn_graph_instance_create(g, &in, &counting, NULL) != TDN_OK) {
            tdn_graph_destroy(g);
            return;
        }
        tdn_pose pose, sampled;
        tdn_pose_create(J, &pose, NULL, NULL);
        tdn_pose_create(J, &sampled, NULL, NULL);
        int in_place = 1, as_sampled = 1;
        double z_min = 1e9, z_max = -1e9;
        world w = { { 0, 0, 0 }, { 0, 0, 0, 1 } };
        for (int f = 1; f <= 90; f++) {
            tdn_graph_update(in, DT, NULL);
            tdn_graph_evaluate(in, &pose, NULL);
            tdn_root_motion m;
            tdn_graph_root_motion(in, &m, NULL);
            world_apply(&w, &m);
            tdn_transform root = tdn_pose_get(&pose, 0);
            in_place &= root.t.x == g0.x && root.t.z == g0.z;
            z_min = fmin(z_min, root.t.z);
            z_max = fmax(z_max, root.t.z);
            tdn_clip_sample(clips[WALK], tdn_graph_clip_time(in, 0), &sampled, NULL);
            as_sampled &= same_bits(&pose, &sampled, 0);
        }
        moved[extract] = w;
        printf("root motion %s: pose root z from %.4f to %.4f, moved %.6f m\n", extract ? "extract" : "keep   ", z_min,
               z_max, w.p[2]);
        if (extract) {
            CHECK(in_place);
        } else {
            CHECK(as_sampled);
            /* 1.5 s of walking: the root goes round 0 .. 1.4 m once and half way again */
            CHECK(z_max - z_min > 1.3);
        }
        tdn_pose_destroy(&pose);
        tdn_pose_destroy(&sampled);
        tdn_graph_instance_destroy(in);
        tdn_graph_destroy(g);
    }
    CHECK_NEAR(moved[0].p[2], 1.5 * 1.4, 1e-4 * 2.1);
    CHECK_NEAR(moved[1].p[2], moved[0].p[2], 0);
}

/* ---- 4. a trigger tested by two machines in two layers ---- */

/* Nodes 0, 1 (idle, walk) under machine 4; nodes 2, 3 (idle, walk) under machine 5; both go
 * 0 -> 1 on the trigger "hit". `top_first`: machine 4 is in the top layer (layer 1) and
 * machine 5 at the bottom; otherwise the other way round. */
static void one_trigger_two_machines(void)
{
    static const tdn_param_desc params[] = { { .name = "hit", .type = TDN_PARAM_TRIGGER } };
    static const tdn_state_desc states[2] = { { "idle" }, { "walk" } };
    static const tdn_condition_desc hit[] = { { "hit", TDN_COMPARE_TRUE, 0 } };
    static const int in_a[2] = { 0, 1 }, in_b[2] = { 2, 3 };
    tdn_transition_desc t[1] = { { .from = 0, .to = 1, .conditions = hit, .condition_count = 1, .duration = 0.2f } };
    tdn_state_machine_desc sm = { states, 2, t, 1, 0 };
    for (int top_first = 0; top_first < 2; top_first++) {
        tdn_node_desc nodes[6] = {
            { .type = TDN_NODE_CLIP, .clip = IDLE, .wrap = TDN_WRAP_LOOP },
            { .type = TDN_NODE_CLIP, .clip = WALK, .wrap = TDN_WRAP_LOOP },
            { .type = TDN_NODE_CLIP, .clip = IDLE, .wrap = TDN_WRAP_LOOP },
            { .type = TDN_NODE_CLIP, .clip = WALK, .wrap = TDN_WRAP_LOOP },
            { .type = TDN_NODE_STATE_MACHINE, .name = "first", .inputs = in_a, .input_count = 2, .state_machine = &sm },
            { .type = TDN_NODE_STATE_MACHINE,
              .name = "second",
              .inputs = in_b,
              .input_count = 2,
              .state_machine = &sm },
        };
        tdn_layer_desc layers[2] = { { .name = "bottom", .root = top_first ? 5 : 4 },
                                     { .name = "top", .root = top_first ? 4 : 5, .weight = { NULL, 0.5f } } };
        tdn_graph_desc gd = { .skeleton = skel,
                              .clips = (const tdn_clip *const *)clips,
                              .clip_count = CLIP_COUNT,
                              .params = params,
                              .param_count = 1,
                              .nodes = nodes,
                              .node_count = 6,
                              .layers = layers,
                              .layer_count = 2 };
        tdn_graph *g = NULL;
        tdn_graph_instance *in = NULL;
        tdn_error err = { 0 };
        if (!CHECK(tdn_graph_create(&gd, &g, &counting, &err) == TDN_OK &&
                   tdn_graph_instance_create(g, &in, &counting, NULL) == TDN_OK)) {
            fprintf(stderr, "%s: %s\n", err.where, err.message);
            tdn_graph_destroy(g);
            return;
        }
        tdn_graph_update(in, DT, NULL);
        tdn_graph_fire_trigger(in, 0, NULL);
        tdn_graph_update(in, DT, NULL);
        /* the machine first in node order (node 4) took it, whichever layer it is in */
        CHECK_EQ_INT(machine_state(in, 4), 1);
        CHECK_EQ_INT(machine_state(in, 5), 0);
        const tdn_graph_event *e;
        int count = tdn_graph_events(in, &e, NULL), started = 0;
        for (int k = 0; k < count; k++)
            if (e[k].type == TDN_EVENT_TRANSITION_STARTED) {
                started++;
                CHECK_EQ_INT(e[k].node, 4);
            }
        CHECK_EQ_INT(started, 1);
        CHECK_NEAR(tdn_graph_param_value(in, 0, 0), 0, 0); /* spent */
        for (int f = 0; f < 30; f++)
            tdn_graph_update(in, DT, NULL);
        CHECK_EQ_INT(machine_state(in, 5), 0); /* and it stays spent */
        /* fired again, node 4 has no transition out of walk: node 5 takes this one */
        tdn_graph_fire_trigger(in, 0, NULL);
        tdn_graph_update(in, DT, NULL);
        CHECK_EQ_INT(machine_state(in, 5), 1);
        printf("trigger: one transition, taken by node 4 ('first', the %s layer)\n", top_first ? "top" : "bottom");
        tdn_graph_instance_destroy(in);
        tdn_graph_destroy(g);
    }
    CHECK_EQ_INT(live_blocks, 0);
}

/* ---- 5. no allocation ---- */

static long allocation_calls;
static void *counted_alloc(size_t size, size_t align, void *user)
{
    allocation_calls++;
    return count_alloc(size, align, user);
}
static const tdn_allocator counted = { counted_alloc, count_free, NULL };

static void no_allocation_per_frame(void)
{
    float *mask = calloc((size_t)tdn_pose_stride(J), sizeof(float));
    tdn_mask_set_subtree(mask, skel, tdn_skeleton_find_joint(skel, "spine_01"), 1.0f, 2, NULL);
    tdn_graph *g = NULL;
    tdn_graph_instance *in = NULL;
    if (!CHECK(make_loco(1, mask, &counted, &g, &in))) {
        tdn_graph_destroy(g);
        free(mask);
        return;
    }
    tdn_pose pose;
    tdn_pose_create(J, &pose, NULL, NULL);
    long before = allocation_calls, live = live_blocks;
    int events = 0, inertialized = 0;
    for (int f = 1; f <= 600; f++) {
        script(in, f % (8 * FPS)); /* walk, run, run -> walk inertialized, strafe, with the upper layer moving */
        tdn_graph_update(in, DT, NULL);
        tdn_graph_evaluate(in, &pose, NULL);
        tdn_root_motion m;
        tdn_graph_root_motion(in, &m, NULL);
        const tdn_graph_event *e;
        int count = tdn_graph_events(in, &e, NULL);
        events += count;
        for (int k = 0; k < count; k++)
            inertialized |= e[k].type == TDN_EVENT_TRANSITION_STARTED && e[k].index == 1;
    }
    printf("no allocation: %ld allocation calls over 600 frames (%d events)\n", allocation_calls - before, events);
    CHECK_EQ_INT(allocation_calls - before, 0);
    CHECK_EQ_INT(live_blocks, live);
    CHECK(inertialized);
    CHECK(events > 20);
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    free(mask);
    CHECK_EQ_INT(live_blocks, 0);
}

int main(void)
{
    tdn_error err = { 0 };
    if (tdn_humanoid_create(&hdesc, &humanoid, NULL, &err) != TDN_OK) {
        fprintf(stderr, "humanoid: %s: %s\n", err.where, err.message);
        return 1;
    }
    skel = tdn_asset_skeleton(humanoid);
    J = tdn_skeleton_joint_count(skel);
    for (int c = 0; c < CLIP_COUNT; c++) {
        int k = tdn_asset_find_clip(humanoid, clip_names[c]);
        if (!CHECK(k >= 0) ||
            !CHECK(tdn_clip_create(
                       &(tdn_clip_desc){ .source = tdn_asset_clip(humanoid, k), .storage = TDN_STORAGE_FLOAT32 },
                       &clips[c], NULL, &err) == TDN_OK) ||
            !CHECK(tdn_root_track_create(clips[c], NULL, &tracks[c], NULL, &err) == TDN_OK)) {
            fprintf(stderr, "%s: %s: %s\n", clip_names[c], err.where, err.message);
            return check_summary();
        }
    }
    for (int c = 0; c < CLIP_COUNT; c++) {
        clip_change[c] = clip_alone_change(c);
        printf("clip %-13s %.3f s: largest per-frame change alone %.3f deg/frame\n", clip_names[c],
               tdn_clip_duration(clips[c]), clip_change[c]);
    }
    RUN(pop_of_transitions);
    RUN(ease_curves_shape_the_motion);
    RUN(pop_of_interruptions);
    RUN(masked_layer_leaves_the_rest_bit_identical);
    RUN(root_motion_laps_and_blends);
    RUN(root_motion_through_a_fade);
    RUN(extract_and_keep);
    RUN(one_trigger_two_machines);
    RUN(no_allocation_per_frame);
    for (int c = 0; c < CLIP_COUNT; c++) {
        tdn_root_track_destroy(tracks[c]);
        tdn_clip_destroy(clips[c]);
    }
    tdn_asset_destroy(humanoid);
    return check_summary();
}
