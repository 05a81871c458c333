/* tendon CLI: the trace of tendon retarget (see retarget_trace.h). */
#include "retarget_trace.h"

#include "retarget_bake.h"

int retarget_trace_open(trace_writer *w, const char *path, const retarget_args *a, const retarget_pair *p,
                        const retarget_take *takes, int take_count)
{
    tdn_error err = { 0 };
    const tdn_result r = tw_open(w, path, &err);
    if (r != TDN_OK)
        return cli_report("retarget", r, &err);
    tw_begin_object(w, NULL);
    tw_int(w, "trace_version", 1);
    tw_string(w, "source", a->source);
    tw_string(w, "target", a->target);
    tw_float(w, "scale", tdn_retarget_scale(p->retarget));
    tw_float(w, "source_import_scale", a->scale > 0.0f ? a->scale : 1.0f);
    tw_string(w, "contacts", retarget_contacts_text(a, p));
    tw_begin_array(w, "limbs");
    for (int k = 0; k < LIMB_COUNT; k++)
        tw_string(w, NULL, limb_name(k));
    tw_end_array(w);
    tw_newline(w);
    tw_begin_array(w, "takes");
    for (int k = 0; k < take_count; k++) {
        tw_begin_object(w, NULL);
        tw_string(w, "clip", tdn_keyed_clip_name(takes[k].clip));
        tw_int(w, "index", takes[k].index);
        tw_float(w, "fps", takes[k].rate);
        tw_int(w, "frame_count", takes[k].frame_count);
        tw_end_object(w);
    }
    tw_end_array(w);
    tw_newline(w);
    tw_begin_array(w, "frames");
    tw_newline(w);
    return CLI_OK;
}

void retarget_trace_frame(trace_writer *w, int take, int frame, float time, tdn_vec3 source_hips, tdn_vec3 target_hips,
                          const float *angles)
{
    tw_begin_object(w, NULL);
    tw_int(w, "take", take);
    tw_int(w, "frame", frame);
    tw_float(w, "time", time);
    tw_floats(w, "source_hips", &source_hips.x, 3);
    tw_floats(w, "target_hips", &target_hips.x, 3);
    tw_floats(w, "directions", angles, LIMB_COUNT);
    tw_end_object(w);
    tw_newline(w);
}

int retarget_trace_finish(trace_writer *w, const retarget_pair *p, const limb_directions *d)
{
    tw_end_array(w);
    tw_newline(w);
    tw_begin_object(w, "summary");
    tw_int(w, "frames", d->frame_count);
    tw_begin_object(w, "directions");
    for (int k = 0; k < LIMB_COUNT; k++) {
        double median = 0.0, p99 = 0.0, max = 0.0;
        const int n = limb_directions_stats(d, k, &median, &p99, &max);
        if (n == 0) {
            tw_null(w, limb_name(k));
            continue;
        }
        tw_begin_object(w, limb_name(k));
        tw_int(w, "frames", n);
        tw_double(w, "median", median);
        tw_double(w, "p99", p99);
        tw_double(w, "max", max);
        tw_end_object(w);
    }
    tw_end_object(w);
    tw_begin_object(w, "travel");
    tw_double(w, "source", d->travel[0]);
    tw_double(w, "target", d->travel[1]);
    tw_double(w, "source_times_scale", d->travel[0] * tdn_retarget_scale(p->retarget));
    tw_end_object(w);
    tw_end_object(w);
    tw_end_object(w);
    tw_newline(w);
    tdn_error err = { 0 };
    const tdn_result r = tw_close(w, &err);
    if (r == TDN_OK)
        return CLI_OK;
    cli_report("retarget", r, &err);
    return CLI_FAILURE;
}
