/* tendon CLI: the bake of tendon retarget (see retarget_bake.h). */
#include "retarget_bake.h"

#include <stdlib.h>

#include "progress.h"
#include "retarget_trace.h"

const char *retarget_contacts_text(const retarget_args *a, const retarget_pair *p)
{
    static char text[320];
    if (a->no_contacts)
        return "not fixed up (--no-contacts)";
    const tdn_retarget_contact_desc c = tdn_retarget_contact_settings(p->retarget);
    snprintf(text, sizeof text,
             "fixed up: a source foot is planted within %.4g of its lowest (left %.4g, right %.4g) and slower than "
             "%.4g a second (source units), or by its clip's contact_l/contact_r curves",
             (double)c.height, (double)c.floor[0], (double)c.floor[1], (double)c.speed);
    return text;
}

/* What a bake works in: a pose and a model space for each character, and the source clip's
 * key hints. */
typedef struct bake_scratch {
    tdn_pose source, target;
    tdn_mat4 *source_model, *target_model;
    int *hints;
} bake_scratch;

static void scratch_free(bake_scratch *s)
{
    tdn_pose_destroy(&s->source);
    tdn_pose_destroy(&s->target);
    free(s->source_model);
    free(s->target_model);
    free(s->hints);
}

static int scratch_alloc(bake_scratch *s, const retarget_pair *p, const retarget_take *takes, int take_count)
{
    const int ns = tdn_skeleton_joint_count(p->source.skeleton), nt = tdn_skeleton_joint_count(p->target.skeleton);
    int tracks = 1;
    for (int k = 0; k < take_count; k++)
        if (tdn_keyed_clip_track_count(takes[k].clip) > tracks)
            tracks = tdn_keyed_clip_track_count(takes[k].clip);
    *s = (bake_scratch){ 0 };
    s->source_model = malloc(sizeof(tdn_mat4) * (size_t)ns);
    s->target_model = malloc(sizeof(tdn_mat4) * (size_t)nt);
    s->hints = malloc(sizeof(int) * (size_t)tracks);
    return s->source_model && s->target_model && s->hints && tdn_pose_create(ns, &s->source, NULL, NULL) == TDN_OK &&
           tdn_pose_create(nt, &s->target, NULL, NULL) == TDN_OK;
}

int retarget_bake(const retarget_pair *p, const retarget_take *takes, int take_count, const retarget_outputs *o,
                  double *retarget_ms)
{
    bake_scratch s;
    *retarget_ms = 0.0;
    if (!scratch_alloc(&s, p, takes, take_count)) {
        scratch_free(&s);
        fprintf(stderr, "tendon retarget: out of memory\n");
        return CLI_FAILURE;
    }
    const int hips[2] = { tdn_body_map_joint(&p->source.map, TDN_BODY_PART_HIPS),
                          tdn_body_map_joint(&p->target.map, TDN_BODY_PART_HIPS) };
    long total = 0, done = 0;
    for (int k = 0; k < take_count; k++)
        total += takes[k].frame_count;
    progress_bar bar;
    progress_begin(&bar, "tendon retarget: retargeting", -1);
    int code = CLI_OK;
    for (int k = 0; k < take_count && code == CLI_OK; k++) {
        const retarget_take *take = &takes[k];
        for (int i = 0; i < tdn_keyed_clip_track_count(take->clip); i++)
            s.hints[i] = 0;
        tdn_retarget_state state;
        tdn_retarget_state_reset(&state);
        const int curves[2] = { tdn_keyed_clip_find_float_track(take->clip, "contact_l"),
                                tdn_keyed_clip_find_float_track(take->clip, "contact_r") };
        const int by_curves = curves[0] >= 0 && curves[1] >= 0;
        for (int f = 0; f < take->frame_count; f++, done++) {
            progress_update(&bar, done, total);
            const float time = retarget_take_time(take, f);
            tdn_error err = { 0 };
            tdn_result r = tdn_keyed_clip_sample(take->clip, time, &s.source, s.hints, &err);
            const double started = cli_now_ms();
            if (r == TDN_OK)
                r = tdn_retarget_pose(p->retarget, &s.source, &s.target, &err);
            if (r == TDN_OK && o->contacts) {
                const float planted[TDN_RETARGET_LIMB_COUNT] = {
                    by_curves ? tdn_keyed_clip_sample_float(take->clip, curves[0], time) : 0.0f,
                    by_curves ? tdn_keyed_clip_sample_float(take->clip, curves[1], time) : 0.0f, 0.0f, 0.0f
                };
                r = tdn_retarget_contacts(p->retarget, &state, &s.source, NULL, by_curves ? planted : NULL,
                                          f > 0 ? time - retarget_take_time(take, f - 1) : 0.0f, &s.target, &err);
            }
            *retarget_ms += cli_now_ms() - started;
            if (r != TDN_OK) {
                code = cli_report("retarget", r, &err);
                break;
            }
            tdn_model_space(p->source.skeleton, &s.source, NULL, s.source_model, NULL);
            tdn_model_space(p->target.skeleton, &s.target, NULL, s.target_model, NULL);
            const float *angles = limb_directions_frame(o->limbs, s.source_model, s.target_model, f == 0);
            if (o->baked)
                tdn_pose_copy(&o->baked[done], &s.target, NULL);
            if (o->trace) {
                const float *hs = s.source_model[hips[0]].m, *ht = s.target_model[hips[1]].m;
                retarget_trace_frame(o->trace, k, f, time, tdn_vec3_make(hs[12], hs[13], hs[14]),
                                     tdn_vec3_make(ht[12], ht[13], ht[14]), angles);
            }
            if (o->preview && k == 0)
                retarget_preview_frame(o->preview, p, f, s.source_model, s.target_model, o->azimuth);
        }
    }
    if (code == CLI_OK)
        progress_update(&bar, total, total);
    progress_end(&bar);
    scratch_free(&s);
    return code;
}
