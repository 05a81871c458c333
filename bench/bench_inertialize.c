/* tendon_bench: the `inertialize` workload (see bench_inertialize.h). */
#include "bench_inertialize.h"

#include <stdio.h>
#include <string.h>

#include "bench_clips.h"

#define IN_DT (1.0f / 60.0f)
#define IN_RESTART 30                      /* frames between transitions */
#define IN_TRANSITION (IN_RESTART * IN_DT) /* 0.5 s: one is under way on every frame */

typedef struct in_ctx {
    const tdn_clip *clips[2];
    tdn_inertializer *in;
    tdn_inertia_curve curve;
    tdn_pose pose, shown, before, other;
    float time;
    int frame, source;
} in_ctx;

static void in_advance(in_ctx *c)
{
    c->time += IN_DT;
    if (c->time >= BENCH_CLIP_SECONDS)
        c->time -= BENCH_CLIP_SECONDS;
    c->frame++;
}

/* One frame: the current source sampled, a transition started on a switch, the offsets added,
 * the result kept as the last shown pose. */
static void in_frame(void *p, long n)
{
    in_ctx *c = p;
    for (long i = 0; i < n; i++) {
        in_advance(c);
        const int restart = c->frame % IN_RESTART == 0;
        c->source ^= restart;
        tdn_clip_sample(c->clips[c->source], c->time, &c->pose, NULL);
        if (restart)
            tdn_inertializer_start(c->in, &c->shown, &c->before, IN_DT, &c->pose, IN_TRANSITION, c->curve, NULL);
        tdn_inertializer_apply(c->in, IN_DT, &c->pose, NULL);
        tdn_pose oldest = c->before;
        c->before = c->shown;
        c->shown = oldest;
        tdn_pose_copy(&c->shown, &c->pose, NULL);
    }
}

/* One frame of a cross-fade: both clips sampled, blended at the weight of this frame. */
static void crossfade_frame(void *p, long n)
{
    in_ctx *c = p;
    for (long i = 0; i < n; i++) {
        in_advance(c);
        const float w = (float)(c->frame % IN_RESTART + 1) / (float)IN_RESTART;
        tdn_clip_sample(c->clips[0], c->time, &c->other, NULL);
        tdn_clip_sample(c->clips[1], c->time, &c->before, NULL);
        tdn_blend2(&c->other, &c->before, w, NULL, &c->pose, NULL);
    }
}

static void sample_only(void *p, long n)
{
    in_ctx *c = p;
    for (long i = 0; i < n; i++) {
        in_advance(c);
        tdn_clip_sample(c->clips[0], c->time, &c->pose, NULL);
    }
}

/* apply alone: the transition never ends (its duration is huge), the pose keeps taking offsets
 * (the work does not depend on the values). */
static void apply_only(void *p, long n)
{
    in_ctx *c = p;
    for (long i = 0; i < n; i++)
        tdn_inertializer_apply(c->in, IN_DT, &c->pose, NULL);
}

static void start_only(void *p, long n)
{
    in_ctx *c = p;
    for (long i = 0; i < n; i++)
        tdn_inertializer_start(c->in, &c->shown, &c->before, IN_DT, &c->other, IN_TRANSITION, c->curve, NULL);
}

static void blend_only(void *p, long n)
{
    in_ctx *c = p;
    for (long i = 0; i < n; i++)
        tdn_blend2(&c->other, &c->before, 0.4f, NULL, &c->pose, NULL);
}

/* Puts the context at the start of a run: clip 0 playing, its last two frames shown, and (for
 * the part measurements) a transition under way towards clip 1. */
static tdn_result in_reset(in_ctx *c, tdn_inertia_curve curve, float duration)
{
    c->curve = curve;
    c->time = 0.0f;
    c->frame = 0;
    c->source = 0;
    tdn_result res = tdn_clip_sample(c->clips[0], BENCH_CLIP_SECONDS - IN_DT, &c->before, NULL);
    if (res == TDN_OK)
        res = tdn_clip_sample(c->clips[0], 0.0f, &c->shown, NULL);
    if (res == TDN_OK)
        res = tdn_clip_sample(c->clips[1], 0.0f, &c->other, NULL);
    if (res == TDN_OK)
        res = tdn_inertializer_start(c->in, &c->shown, &c->before, IN_DT, &c->other, duration, curve, NULL);
    if (res == TDN_OK)
        res = tdn_pose_copy(&c->pose, &c->other, NULL);
    return res;
}

static bench_row in_row(const char *variant, int joints, bench_stats frame)
{
    bench_row row = bench_row_make("inertialize", joints, variant, 1);
    row.median_ns = frame.median_ns;
    row.min_ns = frame.min_ns;
    row.ns_per_joint = frame.median_ns / joints;
    row.chars_per_s = 1e9 / frame.median_ns;
    return row;
}

tdn_result bench_run_inertialize(int quick, const bench_scene *scene, bench_emit_fn emit, void *user, tdn_error *err)
{
    const bench_config cfg = bench_config_short(quick);
    const int joints = scene->joint_count;
    in_ctx c;
    memset(&c, 0, sizeof c);
    c.clips[0] = scene->clips[0];
    c.clips[1] = scene->clips[1];
    tdn_result res = tdn_inertializer_create(joints, &c.in, NULL, err);
    tdn_pose *poses[4] = { &c.pose, &c.shown, &c.before, &c.other };
    for (int i = 0; i < 4 && res == TDN_OK; i++)
        res = tdn_pose_create(joints, poses[i], NULL, err);
    /* The untimed check: every call of a frame succeeds; counts the frames whose apply had a
     * transition under way (the quintic ends joints early where the velocity points to 0). */
    int active[2] = { 0, 0 };
    for (int v = 0; v < 2 && res == TDN_OK; v++) {
        res = in_reset(&c, (tdn_inertia_curve)v, IN_TRANSITION);
        for (int f = 0; f < 10 * IN_RESTART && res == TDN_OK; f++) {
            in_advance(&c);
            const int restart = c.frame % IN_RESTART == 0;
            c.source ^= restart;
            res = tdn_clip_sample(c.clips[c.source], c.time, &c.pose, err);
            if (res == TDN_OK && restart)
                res = tdn_inertializer_start(c.in, &c.shown, &c.before, IN_DT, &c.pose, IN_TRANSITION, c.curve, err);
            if (res == TDN_OK)
                res = tdn_inertializer_apply(c.in, IN_DT, &c.pose, err);
            active[v] += c.frame >= IN_RESTART && tdn_inertializer_active(c.in); /* this apply did work */
            if (res == TDN_OK)
                res = tdn_pose_copy(&c.before, &c.shown, err);
            if (res == TDN_OK)
                res = tdn_pose_copy(&c.shown, &c.pose, err);
        }
    }
    if (res == TDN_OK)
        res = tdn_blend2(&c.other, &c.before, 0.4f, NULL, &c.pose, err);
    if (res != TDN_OK) {
        tdn_inertializer_destroy(c.in);
        for (int i = 0; i < 4; i++)
            tdn_pose_destroy(poses[i]);
        return bench_fail(err, res, "inertialize setup");
    }
    in_reset(&c, TDN_INERTIA_QUINTIC, IN_TRANSITION);
    const double sample_ns = bench_measure(&cfg, sample_only, &c, 1.0).median_ns;
    const char *variants[2] = { "inertialized", "inertialized_spring" };
    const char *curves[2] = { "quintic", "spring" };
    for (int v = 0; v < 2; v++) {
        const tdn_inertia_curve curve = (tdn_inertia_curve)v;
        in_reset(&c, curve, IN_TRANSITION);
        bench_stats frame = bench_measure(&cfg, in_frame, &c, 1.0);
        in_reset(&c, curve, 1e9f);
        const double apply_ns = bench_measure(&cfg, apply_only, &c, 1.0).median_ns;
        in_reset(&c, curve, IN_TRANSITION);
        const double start_ns = bench_measure(&cfg, start_only, &c, 1.0).median_ns;
        bench_row row = in_row(variants[v], joints, frame);
        bench_row_add_text(&row, "curve", curves[v]);
        bench_row_add_number(&row, "restart_frames", IN_RESTART);
        bench_row_add_number(&row, "transition_s", IN_TRANSITION);
        bench_row_add_number(&row, "sample_ns", sample_ns);
        bench_row_add_number(&row, "apply_ns", apply_ns);
        bench_row_add_number(&row, "start_ns", start_ns);
        bench_row_add_number(&row, "blend_ns", BENCH_NONE);
        bench_row_add_number(&row, "active_frames", (double)active[v] / (9 * IN_RESTART));
        emit(&row, user);
    }
    in_reset(&c, TDN_INERTIA_QUINTIC, IN_TRANSITION);
    bench_stats frame = bench_measure(&cfg, crossfade_frame, &c, 1.0);
    const double blend_ns = bench_measure(&cfg, blend_only, &c, 1.0).median_ns;
    bench_row row = in_row("crossfade", joints, frame);
    bench_row_add_text(&row, "curve", NULL);
    bench_row_add_number(&row, "restart_frames", IN_RESTART);
    bench_row_add_number(&row, "transition_s", IN_TRANSITION);
    bench_row_add_number(&row, "sample_ns", sample_ns);
    bench_row_add_number(&row, "apply_ns", BENCH_NONE);
    bench_row_add_number(&row, "start_ns", BENCH_NONE);
    bench_row_add_number(&row, "blend_ns", blend_ns);
    bench_row_add_number(&row, "active_frames", 1.0);
    emit(&row, user);
    tdn_inertializer_destroy(c.in);
    for (int i = 0; i < 4; i++)
        tdn_pose_destroy(poses[i]);
    return TDN_OK;
}
