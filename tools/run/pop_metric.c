/* tendon CLI: the pop metric (see pop_metric.h). */
#include "pop_metric.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Frames are not kept: a transition's window is the only span the metric looks at, so the
 * recorder keeps the largest rotation change of the last `margin` frame pairs (for windows that
 * open 0.1 s before a start), adds each new pair to the windows still open, and snapshots the
 * clip nodes' weights and times at the frames pick_node and the switch difference read (the frame
 * before the start, the start, the end). Memory grows with the transitions, not the frames. */
typedef struct pop_pair {
    double change; /* the largest joint rotation change from the frame before */
    int joint;
} pop_pair;

struct pop_recorder {
    const tdn_graph *graph;
    int joints;
    int margin;          /* 0.1 s in frames */
    int frames;          /* recorded so far, the one being recorded included */
    float *rotations[2]; /* joints x 4: the frame before and this frame */
    pop_pair *pairs;     /* ring of margin + 1: pair f (frames f - 1, f) at f % (margin + 1) */
    int *clip_nodes, clip_node_count;
    float *weights[2], *times[2]; /* clip_node_count: the frame before and this frame */
    int *node_clip, *node_mirror; /* per graph node, from the flat lists (-1: not seen) */
    pop_transition *transitions;
    int transition_count, transition_capacity;
    float *snapshots; /* per transition: weights before the start, times at the start, weights at the end */
    int snapshot_capacity;
    int *windows, window_count, window_capacity; /* transitions whose window may still take pairs */
    int *open;                                   /* per graph node: the open transition of that machine, or -1 */
};

int pop_recorder_create(const tdn_graph *graph, int joint_count, float fps, pop_recorder **out)
{
    *out = NULL;
    pop_recorder *r = calloc(1, sizeof *r);
    int nodes = tdn_graph_node_count(graph);
    if (!r)
        return 0;
    r->graph = graph;
    r->joints = joint_count;
    r->margin = (int)lround(0.1 * fps);
    r->clip_node_count = -1; /* found at the first frame */
    const size_t rotations = sizeof(float) * 4 * (size_t)(joint_count + 1),
                 per_node = sizeof(float) * (size_t)(nodes + 1);
    r->rotations[0] = malloc(rotations);
    r->rotations[1] = malloc(rotations);
    r->pairs = calloc((size_t)r->margin + 1, sizeof *r->pairs);
    r->weights[0] = malloc(per_node);
    r->weights[1] = malloc(per_node);
    r->times[0] = malloc(per_node);
    r->times[1] = malloc(per_node);
    r->clip_nodes = malloc(sizeof(int) * (size_t)(nodes + 1));
    r->node_clip = malloc(sizeof(int) * (size_t)(nodes + 1));
    r->node_mirror = calloc((size_t)nodes + 1, sizeof(int));
    r->open = malloc(sizeof(int) * (size_t)(nodes + 1));
    if (!r->rotations[0] || !r->rotations[1] || !r->pairs || !r->weights[0] || !r->weights[1] || !r->times[0] ||
        !r->times[1] || !r->clip_nodes || !r->node_clip || !r->node_mirror || !r->open) {
        pop_recorder_destroy(r);
        return 0;
    }
    for (int n = 0; n < nodes; n++)
        r->node_clip[n] = r->open[n] = -1;
    *out = r;
    return 1;
}

void pop_recorder_destroy(pop_recorder *r)
{
    if (!r)
        return;
    for (int k = 0; k < 2; k++) {
        free(r->rotations[k]);
        free(r->weights[k]);
        free(r->times[k]);
    }
    free(r->pairs);
    free(r->clip_nodes);
    free(r->node_clip);
    free(r->node_mirror);
    free(r->transitions);
    free(r->snapshots);
    free(r->windows);
    free(r->open);
    free(r);
}

void pop_pose_rotations(const tdn_pose *pose, float *out)
{
    const float *x = tdn_pose_crow(pose, TDN_RX), *y = tdn_pose_crow(pose, TDN_RY);
    const float *z = tdn_pose_crow(pose, TDN_RZ), *w = tdn_pose_crow(pose, TDN_RW);
    for (int j = 0; j < pose->joint_count; j++) {
        out[4 * j + 0] = x[j];
        out[4 * j + 1] = y[j];
        out[4 * j + 2] = z[j];
        out[4 * j + 3] = w[j];
    }
}

double pop_angle_degrees(const float *a, const float *b)
{
    /* r = conj(a) * b */
    double ax = -(double)a[0], ay = -(double)a[1], az = -(double)a[2], aw = a[3];
    double bx = b[0], by = b[1], bz = b[2], bw = b[3];
    double rx = aw * bx + ax * bw + ay * bz - az * by;
    double ry = aw * by - ax * bz + ay * bw + az * bx;
    double rz = aw * bz + ax * by - ay * bx + az * bw;
    double rw = aw * bw - ax * bx - ay * by - az * bz;
    double v = sqrt(rx * rx + ry * ry + rz * rz);
    return 2.0 * atan2(v, fabs(rw)) * (180.0 / 3.14159265358979323846);
}

double pop_largest_difference(const float *a, const float *b, int joints, int *joint)
{
    double best = 0.0;
    int at = 0;
    for (int j = 0; j < joints; j++) {
        double d = pop_angle_degrees(a + 4 * j, b + 4 * j);
        if (d > best) {
            best = d;
            at = j;
        }
    }
    if (joint)
        *joint = at;
    return best;
}

static int grow(void **p, int *capacity, int needed, size_t item)
{
    if (needed <= *capacity)
        return 1;
    int c = *capacity ? *capacity : 64;
    while (c < needed)
        c *= 2;
    void *q = realloc(*p, item * (size_t)c);
    if (!q)
        return 0;
    *p = q;
    *capacity = c;
    return 1;
}

enum { SNAP_BEFORE, SNAP_SHOW, SNAP_END };

/* Transition k's snapshot `which` (clip_node_count values, in a slot of clip_node_count + 1). */
static float *snapshot(const pop_recorder *r, int k, int which)
{
    return r->snapshots + ((size_t)k * 3 + (size_t)which) * (size_t)(r->clip_node_count + 1);
}

/* The clip nodes' weights at frame f, which is the latest frame or the one before. */
static const float *weights_at(const pop_recorder *r, int f) { return r->weights[f == r->frames - 1 ? 1 : 0]; }

static void swap(float **a, float **b)
{
    float *t = *a;
    *a = *b;
    *b = t;
}

static void close_open(pop_recorder *r, int machine, int end_frame, int finished)
{
    int k = r->open[machine];
    if (k < 0)
        return;
    pop_transition *t = &r->transitions[k];
    t->end_frame = end_frame > t->start_frame ? end_frame : t->start_frame;
    t->finished = finished;
    t->interrupted = !finished;
    r->open[machine] = -1;
    memcpy(snapshot(r, k, SNAP_END), weights_at(r, t->end_frame), sizeof(float) * (size_t)r->clip_node_count);
}

/* Pair f into transition t's window: the first largest change in frame order, as a scan would. */
static void window_take(pop_transition *t, int f, const pop_pair *p)
{
    if (p->change > t->observed || t->peak_frame < 0) {
        t->observed = p->change;
        t->peak_frame = f;
        t->peak_joint = p->joint;
    }
}

static int start_transition(pop_recorder *r, const tdn_graph_instance *in, const tdn_graph_event *ev)
{
    const int f = r->frames - 1;
    close_open(r, ev->node, f - 1, 0); /* interrupted: its last frame was the one before */
    void *p = r->transitions, *q = r->snapshots, *w = r->windows;
    const size_t snap = sizeof(float) * 3 * (size_t)(r->clip_node_count + 1);
    const int grown = grow(&p, &r->transition_capacity, r->transition_count + 1, sizeof(pop_transition));
    r->transitions = p;
    const int snapped = grown && grow(&q, &r->snapshot_capacity, r->transition_count + 1, snap);
    r->snapshots = q;
    const int windowed = snapped && grow(&w, &r->window_capacity, r->window_count + 1, sizeof(int));
    r->windows = w;
    if (!windowed)
        return 0;
    tdn_state_machine_status status;
    const int k = r->transition_count++;
    pop_transition *t = &r->transitions[k];
    memset(t, 0, sizeof *t);
    t->machine = ev->node;
    t->index = ev->index;
    t->from = t->to = -1;
    if (tdn_graph_state_machine_status(in, ev->node, &status, NULL) == TDN_OK) {
        t->from = status.previous_state;
        t->to = status.state;
    }
    t->start_frame = t->end_frame = f;
    t->from_node = t->to_node = t->from_clip = t->to_clip = t->peak_frame = t->peak_joint = -1;
    const size_t n = sizeof(float) * (size_t)r->clip_node_count;
    memcpy(snapshot(r, k, SNAP_BEFORE), weights_at(r, f > 0 ? f - 1 : 0), n); /* the source alone */
    memcpy(snapshot(r, k, SNAP_SHOW), r->times[1], n);
    memcpy(snapshot(r, k, SNAP_END), r->weights[1], n);
    r->open[ev->node] = k;
    /* the window opens 0.1 s before the start: the pairs already seen */
    const int first = f - r->margin > 0 ? f - r->margin : 0;
    for (int g = first + 1; g < f; g++)
        window_take(t, g, &r->pairs[g % (r->margin + 1)]);
    r->windows[r->window_count++] = k;
    return 1;
}

int pop_recorder_frame(pop_recorder *r, const tdn_graph_instance *in, const tdn_pose *pose)
{
    const int f = r->frames++, nodes = tdn_graph_node_count(r->graph);
    if (r->clip_node_count < 0) {
        r->clip_node_count = 0;
        for (int n = 0; n < nodes; n++)
            if (tdn_graph_clip_time(in, n) >= 0.0f)
                r->clip_nodes[r->clip_node_count++] = n;
    }
    /* this frame goes into [1], the one before moves to [0] */
    swap(&r->rotations[0], &r->rotations[1]);
    swap(&r->weights[0], &r->weights[1]);
    swap(&r->times[0], &r->times[1]);
    pop_pose_rotations(pose, r->rotations[1]);
    for (int k = 0; k < r->clip_node_count; k++) {
        r->weights[1][k] = tdn_graph_node_weight(in, r->clip_nodes[k]);
        r->times[1][k] = tdn_graph_clip_time(in, r->clip_nodes[k]);
    }
    pop_pair *pair = &r->pairs[f % (r->margin + 1)];
    if (f > 0)
        pair->change = pop_largest_difference(r->rotations[0], r->rotations[1], r->joints, &pair->joint);
    const tdn_graph_entry *entries;
    int n = tdn_graph_entries(in, &entries);
    for (int e = 0; e < n; e++)
        if (entries[e].node >= 0 && entries[e].node < nodes && entries[e].clip >= 0) {
            r->node_clip[entries[e].node] = entries[e].clip;
            r->node_mirror[entries[e].node] = entries[e].mirror;
        }
    const tdn_graph_event *events;
    int count = tdn_graph_events(in, &events, NULL);
    for (int e = 0; e < count; e++) {
        const tdn_graph_event *ev = &events[e];
        if (ev->node < 0 || ev->node >= nodes)
            continue;
        if (ev->type == TDN_EVENT_TRANSITION_STARTED) {
            if (!start_transition(r, in, ev))
                return 0;
        } else if (ev->type == TDN_EVENT_TRANSITION_FINISHED) {
            int k = r->open[ev->node];
            if (k >= 0 && r->transitions[k].index == ev->index) {
                /* finished in the update it started in: nothing of a fade ever showed */
                r->transitions[k].cut = r->transitions[k].start_frame == f;
                close_open(r, ev->node, f, 1);
            }
        }
    }
    /* this frame's pair into the windows it falls in (from 0.1 s before the start to 0.1 s after
     * the end); a window whose transition has ended is dropped after its last pair */
    int kept = 0;
    for (int w = 0; w < r->window_count; w++) {
        pop_transition *t = &r->transitions[r->windows[w]];
        const int ended = r->open[t->machine] != r->windows[w];
        if (f > 0 && f > t->start_frame - r->margin && (!ended || f <= t->end_frame + r->margin))
            window_take(t, f, pair);
        if (!ended || f < t->end_frame + r->margin)
            r->windows[kept++] = r->windows[w];
    }
    r->window_count = kept;
    return 1;
}

static void sample(const tdn_clip *clip, const tdn_root_track *track, float time, tdn_pose *pose)
{
    tdn_clip_sample(clip, time, pose, NULL);
    if (track)
        tdn_root_motion_remove(track, pose, NULL);
}

double pop_clip_change(const tdn_clip *clip, const tdn_root_track *track, float fps, tdn_pose *a, tdn_pose *b)
{
    const int joints = tdn_clip_joint_count(clip);
    float *base = malloc(sizeof(float) * 8 * (size_t)(joints ? joints : 1));
    if (!base)
        return 0.0;
    float *qa = base, *qb = base + 4 * joints;
    double duration = tdn_clip_duration(clip), best = 0.0;
    sample(clip, track, 0.0f, a);
    pop_pose_rotations(a, qa);
    for (int k = 1;; k++) {
        double t = k / (double)fps;
        if (t > duration)
            t = duration;
        sample(clip, track, (float)t, b);
        pop_pose_rotations(b, qb);
        double d = pop_largest_difference(qa, qb, joints, NULL);
        if (d > best)
            best = d;
        if (t >= duration)
            break;
        float *swap = qa;
        qa = qb;
        qb = swap;
    }
    free(base);
    return best;
}

/* The clip node (an index into clip_nodes) whose weight changed most from weights a to b in
 * the direction `sign` (+1 gained, -1 lost), else the heaviest in `fallback`; -1 when none plays
 * a known clip. */
static int pick_node(const pop_recorder *r, const float *a, const float *b, int sign, const float *fallback)
{
    int best = -1;
    double most = 1e-4;
    for (int k = 0; k < r->clip_node_count; k++) {
        if (r->node_clip[r->clip_nodes[k]] < 0)
            continue;
        double change = sign * ((double)b[k] - a[k]);
        if (change > most) {
            most = change;
            best = k;
        }
    }
    if (best >= 0)
        return best;
    double heaviest = 0.0;
    for (int k = 0; k < r->clip_node_count; k++)
        if (r->node_clip[r->clip_nodes[k]] >= 0 && fallback[k] > heaviest) {
            heaviest = fallback[k];
            best = k;
        }
    return best;
}

void pop_recorder_declare(pop_recorder *r, int k, double seconds, int frames, const char *mode)
{
    if (k >= 0 && k < r->transition_count) {
        r->transitions[k].declared_seconds = seconds > 0.0 ? seconds : 0.0;
        r->transitions[k].declared_frames = frames > 0 ? frames : 0;
        r->transitions[k].mode = mode;
    }
}

int pop_recorder_finish(pop_recorder *r, const tdn_clip *const *clips, int clip_count, const int *mirror,
                        const tdn_root_track_desc *extract, float fps)
{
    if (r->frames == 0)
        return 1;
    const int last = r->frames - 1, joints = r->joints;
    for (int m = 0; m < tdn_graph_node_count(r->graph); m++)
        close_open(r, m, last, 0);
    /* still fading at the end is not an interruption */
    for (int k = 0; k < r->transition_count; k++)
        if (!r->transitions[k].finished && r->transitions[k].end_frame >= last)
            r->transitions[k].interrupted = 0;
    double *clip_change = malloc(sizeof(double) * (size_t)(clip_count + 1));
    tdn_root_track **tracks = calloc((size_t)clip_count + 1, sizeof *tracks);
    float *qa = malloc(sizeof(float) * 8 * (size_t)(joints + 1));
    tdn_pose a = { 0 }, b = { 0 };
    int ok = clip_change && tracks && qa && tdn_pose_create(joints, &a, NULL, NULL) == TDN_OK &&
             tdn_pose_create(joints, &b, NULL, NULL) == TDN_OK;
    for (int c = 0; ok && c < clip_count; c++)
        clip_change[c] = -1.0; /* not computed yet */
    for (int k = 0; ok && k < r->transition_count; k++) {
        pop_transition *t = &r->transitions[k];
        const float *before = snapshot(r, k, SNAP_BEFORE), *end = snapshot(r, k, SNAP_END);
        int src = pick_node(r, before, end, -1, before);
        int dst = pick_node(r, before, end, +1, end);
        t->from_node = src >= 0 ? r->clip_nodes[src] : -1;
        t->to_node = dst >= 0 ? r->clip_nodes[dst] : -1;
        t->from_clip = src >= 0 ? r->node_clip[t->from_node] : -1;
        t->to_clip = dst >= 0 ? r->node_clip[t->to_node] : -1;
        t->clip_change = 0.0;
        t->switch_difference = 0.0;
        const int pick[2] = { src, dst };
        float *q[2] = { qa, qa + 4 * joints };
        int sampled = 0;
        for (int s = 0; s < 2; s++) {
            int node = s == 0 ? t->from_node : t->to_node, clip = s == 0 ? t->from_clip : t->to_clip;
            if (clip < 0 || clip >= clip_count || !clips[clip] || tdn_clip_joint_count(clips[clip]) != joints ||
                tdn_clip_is_additive(clips[clip]))
                continue;
            if (clip_change[clip] < 0.0) {
                /* no track (an error building it) leaves the clip's root motion in */
                if (extract)
                    tdn_root_track_create(clips[clip], extract, &tracks[clip], NULL, NULL);
                clip_change[clip] = pop_clip_change(clips[clip], tracks[clip], fps, &a, &b);
            }
            if (clip_change[clip] > t->clip_change)
                t->clip_change = clip_change[clip];
            float time = snapshot(r, k, SNAP_SHOW)[pick[s]];
            sample(clips[clip], tracks[clip], time, &a);
            if (mirror && r->node_mirror[node])
                tdn_pose_mirror(&a, mirror, &a, NULL);
            pop_pose_rotations(&a, q[s]);
            sampled++;
        }
        if (sampled == 2)
            t->switch_difference = pop_largest_difference(q[0], q[1], joints, NULL);
        t->frames = t->declared_frames > 0 ? t->declared_frames : t->end_frame - t->start_frame + 1;
        if (t->frames < 1)
            t->frames = 1;
        t->bound = t->clip_change + t->switch_difference / t->frames;
        t->pop = t->observed / (t->bound > 1e-3 ? t->bound : 1e-3);
    }
    tdn_pose_destroy(&a);
    tdn_pose_destroy(&b);
    for (int c = 0; tracks && c < clip_count; c++)
        tdn_root_track_destroy(tracks[c]);
    free(tracks);
    free(clip_change);
    free(qa);
    return ok;
}

int pop_recorder_transitions(const pop_recorder *r, const pop_transition **out)
{
    *out = r->transitions;
    return r->transition_count;
}
