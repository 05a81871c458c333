/* tendon CLI: the trace of `tendon run` (see trace.h). */
#include "trace.h"

#include <math.h>
#include <stdio.h>

#include "cli.h"

const char *trace_node_name(const tdn_graph *graph, int node, char *buffer, size_t size)
{
    const char *name = tdn_graph_node_name(graph, node);
    if (name && name[0])
        return name;
    snprintf(buffer, size, "#%d", node);
    return buffer;
}

const char *trace_transition_mode(const pop_transition *t) { return t->mode ? t->mode : t->cut ? "cut" : "smooth"; }

static int components(tdn_param_type t) { return t == TDN_PARAM_VEC2 ? 2 : t == TDN_PARAM_VEC3 ? 3 : 1; }

/* A parameter's value as its type reads: a number, true/false, or an array. */
static void param_value(trace_writer *w, const char *key, tdn_param_type type, const float *v)
{
    if (type == TDN_PARAM_BOOL || type == TDN_PARAM_TRIGGER)
        tw_bool(w, key, v[0] != 0.0f);
    else if (type == TDN_PARAM_INT)
        tw_int(w, key, (long long)lroundf(v[0]));
    else if (components(type) > 1)
        tw_floats(w, key, v, components(type));
    else
        tw_float(w, key, v[0]);
}

int trace_open(trace_writer *w, const char *path, const trace_run *run)
{
    tdn_error err = { 0 };
    const tdn_result r = tw_open(w, path, &err);
    if (r != TDN_OK)
        return cli_report("run", r, &err);
    const tdn_graph *g = tdn_graph_document_graph(run->document);
    const tdn_skeleton *skel = tdn_graph_document_skeleton(run->document);
    char name[32];
    tw_begin_object(w, NULL);
    tw_int(w, "trace_version", 1);
    tw_string(w, "graph", run->graph_path);
    tw_string(w, "timeline", run->timeline_path);
    tw_float(w, "fps", run->fps);
    tw_double(w, "seconds", run->seconds);
    tw_int(w, "frame_count", run->frame_count);
    tw_newline(w);
    tw_begin_array(w, "joints");
    for (int j = 0; j < tdn_skeleton_joint_count(skel); j++) {
        tw_begin_object(w, NULL);
        tw_string(w, "name", tdn_skeleton_joint_name(skel, j));
        tw_int(w, "parent", tdn_skeleton_parent(skel, j));
        tw_end_object(w);
    }
    tw_end_array(w);
    tw_newline(w);
    tw_begin_array(w, "clips");
    for (int c = 0; c < tdn_graph_document_clip_count(run->document); c++) {
        const tdn_clip *clip = tdn_graph_document_clip(run->document, c);
        tw_begin_object(w, NULL);
        tw_string(w, "name", tdn_graph_document_clip_name(run->document, c));
        tw_float(w, "duration", tdn_clip_duration(clip));
        tw_bool(w, "additive", tdn_clip_is_additive(clip));
        tw_end_object(w);
    }
    tw_end_array(w);
    tw_begin_array(w, "parameters");
    for (int p = 0; p < tdn_graph_param_count(g); p++) {
        tw_begin_object(w, NULL);
        tw_string(w, "name", tdn_graph_param_name(g, p));
        tw_string(w, "type", tdn_param_type_name(tdn_graph_param_type(g, p)));
        tw_end_object(w);
    }
    tw_end_array(w);
    tw_begin_array(w, "layers");
    for (int l = 0; l < tdn_graph_layer_count(g); l++)
        tw_string(w, NULL, tdn_graph_layer_name(g, l));
    tw_end_array(w);
    tw_begin_array(w, "state_machines");
    for (int n = 0; n < tdn_graph_node_count(g); n++) {
        if (tdn_graph_state_count(g, n) <= 0)
            continue;
        tw_begin_object(w, NULL);
        tw_string(w, "node", trace_node_name(g, n, name, sizeof name));
        tw_begin_array(w, "states");
        for (int s = 0; s < tdn_graph_state_count(g, n); s++)
            tw_string(w, NULL, tdn_graph_state_name(g, n, s));
        tw_end_array(w);
        tw_end_object(w);
    }
    tw_end_array(w);
    tw_newline(w);
    tw_begin_array(w, "frames");
    tw_newline(w);
    return CLI_OK;
}

static void write_entries(trace_writer *w, const tdn_graph_document *doc, const tdn_graph_entry *e, int n)
{
    const tdn_graph *g = tdn_graph_document_graph(doc);
    char name[32];
    tw_begin_array(w, "entries");
    for (int i = 0; i < n; i++) {
        tw_begin_object(w, NULL);
        tw_string(w, "clip", e[i].clip >= 0 ? tdn_graph_document_clip_name(doc, e[i].clip) : NULL);
        tw_string(w, "node", e[i].node >= 0 ? trace_node_name(g, e[i].node, name, sizeof name) : NULL);
        tw_float(w, "time", e[i].time);
        tw_float(w, "weight", e[i].weight);
        tw_bool(w, "additive", e[i].additive);
        tw_bool(w, "mirror", e[i].mirror);
        tw_end_object(w);
    }
    tw_end_array(w);
}

static const char *event_type_name(tdn_graph_event_type t)
{
    switch (t) {
    case TDN_EVENT_STATE_ENTERED:
        return "state_entered";
    case TDN_EVENT_STATE_EXITED:
        return "state_exited";
    case TDN_EVENT_TRANSITION_STARTED:
        return "transition_started";
    case TDN_EVENT_TRANSITION_FINISHED:
        return "transition_finished";
    case TDN_EVENT_CLIP:
        return "clip";
    }
    return "?";
}

/* "parameters": what the nodes read (smoothed); "targets": what was last set. */
static void write_parameters(trace_writer *w, const tdn_graph *g, const trace_frame *fr)
{
    tw_begin_object(w, "parameters");
    for (int p = 0; p < tdn_graph_param_count(g); p++) {
        tdn_param_type type = tdn_graph_param_type(g, p);
        float v[3];
        if (type == TDN_PARAM_TRIGGER) {
            timeline_target(fr->timeline, p, v); /* cleared by the update: shown as fired for it */
        } else {
            for (int c = 0; c < 3; c++)
                v[c] = tdn_graph_param_value(fr->instance, p, c);
        }
        param_value(w, tdn_graph_param_name(g, p), type, v);
    }
    tw_end_object(w);
    tw_begin_object(w, "targets");
    for (int p = 0; p < tdn_graph_param_count(g); p++) {
        float v[3];
        timeline_target(fr->timeline, p, v);
        param_value(w, tdn_graph_param_name(g, p), tdn_graph_param_type(g, p), v);
    }
    tw_end_object(w);
}

/* "layers" with their entries, and what the flat list culled. */
static void write_layers(trace_writer *w, const tdn_graph_document *doc, const tdn_graph_instance *in)
{
    const tdn_graph *g = tdn_graph_document_graph(doc);
    tw_begin_array(w, "layers");
    for (int l = 0; l < tdn_graph_layer_count(g); l++) {
        const tdn_graph_entry *entries;
        int n = tdn_graph_layer_entries(in, l, &entries);
        tw_begin_object(w, NULL);
        tw_string(w, "name", tdn_graph_layer_name(g, l));
        tw_float(w, "weight", tdn_graph_layer_weight(in, l));
        write_entries(w, doc, entries, n);
        tw_end_object(w);
    }
    tw_end_array(w);
    float culled_weight = 0.0f;
    int culled = tdn_graph_culled(in, &culled_weight);
    tw_begin_object(w, "culled");
    tw_int(w, "entries", culled);
    tw_float(w, "weight", culled_weight);
    tw_end_object(w);
}

static void write_state_machines(trace_writer *w, const tdn_graph *g, const tdn_graph_instance *in)
{
    char name[32];
    tw_begin_array(w, "state_machines");
    for (int n = 0; n < tdn_graph_node_count(g); n++) {
        tdn_state_machine_status st;
        if (tdn_graph_state_count(g, n) <= 0 || tdn_graph_state_machine_status(in, n, &st, NULL) != TDN_OK)
            continue;
        tw_begin_object(w, NULL);
        tw_string(w, "node", trace_node_name(g, n, name, sizeof name));
        tw_string(w, "state", tdn_graph_state_name(g, n, st.state));
        if (st.transition >= 0)
            tw_int(w, "transition", st.transition);
        else
            tw_null(w, "transition");
        tw_float(w, "weight", st.transition_weight);
        tw_float(w, "time_in_state", st.time_in_state);
        tw_float(w, "normalized_time", st.normalized_time);
        tw_string(w, "previous", st.previous_state >= 0 ? tdn_graph_state_name(g, n, st.previous_state) : NULL);
        tw_end_object(w);
    }
    tw_end_array(w);
}

/* "events" of the update, and how many did not fit. */
static void write_events(trace_writer *w, const tdn_graph_document *doc, const tdn_graph_instance *in)
{
    const tdn_graph *g = tdn_graph_document_graph(doc);
    char name[32];
    const tdn_graph_event *events;
    int dropped = 0, count = tdn_graph_events(in, &events, &dropped);
    tw_begin_array(w, "events");
    for (int e = 0; e < count; e++) {
        const tdn_graph_event *ev = &events[e];
        tw_begin_object(w, NULL);
        tw_string(w, "type", event_type_name(ev->type));
        tw_string(w, "node", ev->node >= 0 ? trace_node_name(g, ev->node, name, sizeof name) : NULL);
        switch (ev->type) {
        case TDN_EVENT_STATE_ENTERED:
        case TDN_EVENT_STATE_EXITED:
            tw_string(w, "state", tdn_graph_state_name(g, ev->node, ev->index));
            break;
        case TDN_EVENT_TRANSITION_STARTED:
        case TDN_EVENT_TRANSITION_FINISHED:
            tw_int(w, "transition", ev->index);
            break;
        case TDN_EVENT_CLIP: {
            const tdn_clip *clip = ev->clip >= 0 && ev->clip < tdn_graph_document_clip_count(doc)
                                       ? tdn_graph_document_clip(doc, ev->clip)
                                       : NULL;
            tw_string(w, "clip", clip ? tdn_graph_document_clip_name(doc, ev->clip) : NULL);
            tw_string(w, "event",
                      clip && ev->index >= 0 && ev->index < tdn_clip_event_count(clip)
                          ? tdn_clip_event_name(clip, ev->index)
                          : NULL);
            tw_float(w, "weight", ev->weight);
            break;
        }
        }
        tw_end_object(w);
    }
    tw_end_array(w);
    if (dropped)
        tw_int(w, "events_dropped", dropped);
}

void trace_write_frame(trace_writer *w, const trace_run *run, const trace_frame *fr)
{
    const tdn_graph_document *doc = run->document;
    const tdn_graph *g = tdn_graph_document_graph(doc);
    tw_begin_object(w, NULL);
    tw_int(w, "frame", fr->frame);
    tw_double(w, "time", fr->time);
    write_parameters(w, g, fr);
    write_layers(w, doc, fr->instance);
    write_state_machines(w, g, fr->instance);
    const tdn_root_motion *m = fr->motion;
    tw_begin_object(w, "root_motion");
    tw_floats(w, "translation", &m->translation.x, 3);
    tw_floats(w, "rotation", &m->rotation.x, 4);
    tw_floats(w, "linear_velocity", &m->linear_velocity.x, 3);
    tw_floats(w, "angular_velocity", &m->angular_velocity.x, 3);
    tw_end_object(w);
    tw_begin_object(w, "root");
    tw_floats(w, "translation", &fr->root_position.x, 3);
    tw_floats(w, "rotation", &fr->root_facing.x, 4);
    tw_end_object(w);
    write_events(w, doc, fr->instance);
    if (fr->skate && fr->skate->count > 0) {
        const foot_skate *k = fr->skate;
        tw_begin_object(w, "feet");
        for (int f = 0; f < k->count; f++) {
            tw_begin_object(w, foot_skate_name(k, f));
            tw_floats(w, "position", &k->feet[f].prev.x, 3);
            tw_bool(w, "in_contact", k->feet[f].prev_contact);
            tw_end_object(w);
        }
        tw_end_object(w);
    }
    if (run->rotations && fr->pose) {
        const tdn_pose *pose = fr->pose;
        tw_begin_array(w, "rotations");
        for (int j = 0; j < pose->joint_count; j++) {
            float q[4] = { tdn_pose_crow(pose, TDN_RX)[j], tdn_pose_crow(pose, TDN_RY)[j],
                           tdn_pose_crow(pose, TDN_RZ)[j], tdn_pose_crow(pose, TDN_RW)[j] };
            tw_floats(w, NULL, q, 4);
        }
        tw_end_array(w);
    }
    tw_end_object(w);
    tw_newline(w);
}

static void skate_feet(trace_writer *w, const foot_skate *k, int run, int rules)
{
    char rule[96];
    tw_begin_object(w, "feet");
    for (int f = 0; f < k->count; f++) {
        const foot_skate_result *r = &k->results[run][f];
        tw_begin_object(w, foot_skate_name(k, f));
        if (rules) {
            tw_string(w, "contact", foot_skate_contact_rule(k, f, rule, sizeof rule));
            if (k->feet[f].job >= 0) {
                tw_int(w, "job", k->feet[f].job);
                tw_int(w, "leg", k->feet[f].leg);
            } else {
                tw_null(w, "job");
                tw_null(w, "leg");
            }
        }
        tw_double(w, "cm_per_s", r->cm_per_s);
        tw_int(w, "contact_frames", r->contact_frames);
        tw_int(w, "contact_pairs", r->pairs);
        tw_end_object(w);
    }
    tw_end_object(w);
    tw_double(w, "mean_cm_per_s", foot_skate_mean(k, run));
}

static void write_skate(trace_writer *w, const trace_skate *ts)
{
    const foot_skate *k = ts->skate;
    int curves = 0;
    for (int f = 0; f < k->count; f++)
        curves += k->feet[f].by_curve;
    tw_begin_object(w, "foot_skate");
    tw_string(w, "method",
              "docs/metrics.md, foot skate: per foot, the mean horizontal (x, z) speed of the foot joint in world "
              "space (model space placed by the integrated root motion) over the pairs of consecutive frames in which "
              "it is in contact in both, cm/s; mean_cm_per_s is the same ratio over every foot's pairs");
    tw_string(w, "contact", curves == k->count && curves ? "curve" : curves ? "curve or height" : "height");
    tw_string(w, "contact_rule",
              curves == k->count && curves
                  ? "the foot placement job's contact curve, blended with the bottom layer's weights "
                    "(tdn_graph_foot_contact), >= 0.5"
                  : "the foot placement job's contact curve >= 0.5 where a clip has it, otherwise the foot joint at "
                    "most 0.05 m above the ground under it (--ground, else y = 0), measured from its rest height");
    tw_string(w, "feet_from", k->count == 0 ? NULL : k->by_name ? "names" : "foot_placement");
    double travel, slide;
    if (foot_skate_in_place(k, 0, &travel, &slide)) {
        tw_begin_object(w, "in_place");
        tw_double(w, "travel", travel);
        tw_double(w, "slide", slide);
        tw_end_object(w);
    } else {
        tw_null(w, "in_place");
    }
    tw_string(w, "ground", ts->ground);
    tw_bool(w, "foot_locking", ts->without_locking);
    skate_feet(w, k, 0, 1);
    if (ts->without_locking) {
        tw_begin_object(w, "without_locking");
        skate_feet(w, k, 1, 0);
        tw_end_object(w);
    } else {
        tw_null(w, "without_locking");
    }
    tw_end_object(w);
    tw_newline(w);
}

int trace_finish(trace_writer *w, const trace_run *run, const pop_transition *t, int count, const trace_skate *skate)
{
    const tdn_graph *g = tdn_graph_document_graph(run->document);
    const tdn_skeleton *skel = tdn_graph_document_skeleton(run->document);
    char name[32];
    tw_end_array(w);
    tw_newline(w);
    double worst = -1.0;
    int worst_at = -1;
    tw_begin_array(w, "transitions");
    tw_newline(w);
    for (int k = 0; k < count; k++) {
        const pop_transition *x = &t[k];
        const double dt = 1.0 / run->fps;
        tw_begin_object(w, NULL);
        tw_string(w, "machine", trace_node_name(g, x->machine, name, sizeof name));
        tw_int(w, "transition", x->index);
        tw_string(w, "from", x->from >= 0 ? tdn_graph_state_name(g, x->machine, x->from) : NULL);
        tw_string(w, "to", x->to >= 0 ? tdn_graph_state_name(g, x->machine, x->to) : NULL);
        tw_double(w, "start", x->start_frame * dt);
        tw_double(w, "end", x->end_frame * dt);
        tw_double(w, "duration", (x->end_frame - x->start_frame + 1) * dt);
        if (x->declared_seconds > 0.0)
            tw_double(w, "declared_duration", x->declared_seconds);
        else
            tw_null(w, "declared_duration");
        tw_int(w, "start_frame", x->start_frame);
        tw_int(w, "end_frame", x->end_frame);
        tw_string(w, "mode", trace_transition_mode(x));
        tw_bool(w, "completed_at_once", x->cut);
        tw_bool(w, "finished", x->finished);
        tw_bool(w, "interrupted", x->interrupted);
        tw_begin_object(w, "pop");
        tw_double(w, "pop", x->pop);
        tw_double(w, "observed", x->observed);
        tw_int(w, "peak_frame", x->peak_frame);
        tw_string(w, "peak_joint", x->peak_joint >= 0 ? tdn_skeleton_joint_name(skel, x->peak_joint) : NULL);
        tw_double(w, "bound", x->bound);
        tw_double(w, "clip_change", x->clip_change);
        tw_double(w, "switch_difference", x->switch_difference);
        tw_int(w, "frames", x->frames);
        tw_string(w, "from_clip", x->from_clip >= 0 ? tdn_graph_document_clip_name(run->document, x->from_clip) : NULL);
        tw_string(w, "to_clip", x->to_clip >= 0 ? tdn_graph_document_clip_name(run->document, x->to_clip) : NULL);
        tw_end_object(w);
        tw_end_object(w);
        tw_newline(w);
        if (x->pop > worst) {
            worst = x->pop;
            worst_at = k;
        }
    }
    tw_end_array(w);
    tw_newline(w);
    if (skate && skate->skate)
        write_skate(w, skate);
    tw_begin_object(w, "summary");
    tw_int(w, "frames", run->frame_count);
    tw_double(w, "seconds", run->seconds);
    tw_int(w, "transitions", count);
    if (worst_at >= 0) {
        tw_double(w, "worst_pop", worst);
        tw_int(w, "worst_transition", worst_at);
    } else {
        tw_null(w, "worst_pop");
        tw_null(w, "worst_transition");
    }
    tw_end_object(w);
    tw_end_object(w);
    tw_newline(w);
    tdn_error err = { 0 };
    const tdn_result r = tw_close(w, &err);
    if (r == TDN_OK)
        return CLI_OK;
    cli_report("run", r, &err);
    return CLI_FAILURE; /* the run went well: writing it failed */
}
