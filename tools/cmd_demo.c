/* tendon demo: the whole pipeline on tendon's own generated humanoid, no asset files: a graph
 * document and timeline built in (written to --out for reading), run by run_graph (the machinery
 * of `tendon run`) on generated uneven ground, then a plot of the run's transition weights, blend
 * weights and root speed, and a summary with timings and the motion-quality figures of
 * docs/metrics.md, each against its target. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "json_file.h"
#include "commands.h"
#include "image.h"
#include "output_file.h"
#include "plot.h"
#include "png_write.h"
#include "run_graph.h"

#include <cjson/cJSON.h>

/* The targets the summary holds the run to (docs/metrics.md, the demo's targets). */
#define TARGET_POP 2.0 /* observed / bound: easing curves peak at 1.5-1.9 */
#define TARGET_SKATE                                                       \
  5.0 /* cm/s, feet in contact, with foot locking (what is left comes from \
       * blends whose clips disagree about contact: walk/run while the     \
       * speed changes, idle/walk cross-fades) */
#define TARGET_IK_MM                                                                            \
  0.1                         /* mm, the ankle's largest distance from its target where the job \
                               * reached it (the solver's accuracy) */
#define TARGET_UNREACHED 0.02 /* the share of leg-frames whose target was out of the leg's reach */
#define TARGET_BONE_MM 0.1    /* mm, the legs' bones' largest length change */

#define DEMO_SECONDS_TEXT "17.5" /* the run's length, in the help text too */
#define DEMO_GROUND "bumps:0.04,2.5"

static const char *const GRAPH[] = {
    "{\n",
    "  \"character\": {\"generated\": \"humanoid\"},\n",
    "  \"clips\": [\n",
    "    {\"name\": \"idle\"}, {\"name\": \"walk_forward\"}, {\"name\": \"run_forward\"}, {\"name\": \"walk_backward\"},\n",
    "    {\"name\": \"strafe_left\"}, {\"name\": \"strafe_right\"}, {\"name\": \"turn_left\"}, {\"name\": \"turn_right\"},\n",
    "    {\"name\": \"wave\"}, {\"name\": \"aim_center\"}, {\"name\": \"jump\"},\n",
    "    {\"name\": \"aim_center_add\", \"source\": \"aim_center\", \"additive\": {\"reference\": \"aim_center\"}},\n",
    "    {\"name\": \"aim_up_add\", \"source\": \"aim_up\", \"additive\": {\"reference\": \"aim_center\"}},\n",
    "    {\"name\": \"aim_down_add\", \"source\": \"aim_down\", \"additive\": {\"reference\": \"aim_center\"}},\n",
    "    {\"name\": \"aim_left_add\", \"source\": \"aim_left\", \"additive\": {\"reference\": \"aim_center\"}},\n",
    "    {\"name\": \"aim_right_add\", \"source\": \"aim_right\", \"additive\": {\"reference\": \"aim_center\"}},\n",
    "    {\"name\": \"lean_center_add\", \"source\": \"lean_center\", \"additive\": {\"reference\": \"lean_center\"}},\n",
    "    {\"name\": \"lean_left_add\", \"source\": \"lean_left\", \"additive\": {\"reference\": \"lean_center\"}},\n",
    "    {\"name\": \"lean_right_add\", \"source\": \"lean_right\", \"additive\": {\"reference\": \"lean_center\"}}\n",
    "  ],\n",
    "  \"parameters\": [\n",
    "    {\"name\": \"move\", \"type\": \"vec2\", \"half_life\": 0.15},\n",
    "    {\"name\": \"speed\", \"type\": \"float\"},\n",
    "    {\"name\": \"turn\", \"type\": \"float\"},\n",
    "    {\"name\": \"upperWeight\", \"type\": \"float\", \"half_life\": 0.08},\n",
    "    {\"name\": \"wave\", \"type\": \"trigger\"},\n",
    "    {\"name\": \"jump\", \"type\": \"trigger\"},\n",
    "    {\"name\": \"aiming\", \"type\": \"bool\"},\n",
    "    {\"name\": \"aim\", \"type\": \"vec2\", \"half_life\": 0.1},\n",
    "    {\"name\": \"lean\", \"type\": \"float\", \"half_life\": 0.2},\n",
    "    {\"name\": \"placement\", \"type\": \"float\", \"value\": 1}\n",
    "  ],\n",
    "  \"sync_groups\": [{\"name\": \"feet\", \"markers\": [\"foot_down_l\", \"foot_down_r\"]}],\n",
    "  \"masks\": {\"upper_body\": {\"subtree\": \"spine_01\", \"blend_depth\": 2}},\n",
    "  \"root_motion\": {\"joint\": \"root\", \"rotation\": \"yaw\", \"extract\": true},\n",
    "  \"nodes\": {\n",
    "    \"moving\": {\"type\": \"blend_space\", \"mode\": \"polar_gradient_band\", \"position\": \"move\", \"sync\": \"feet\",\n",
    "               \"samples\": [{\"clip\": \"walk_forward\", \"at\": [0, 1.4]}, {\"clip\": \"run_forward\", \"at\": [0, 3.5]},\n",
    "                           {\"clip\": \"walk_backward\", \"at\": [0, -1.4]},\n",
    "                           {\"clip\": \"strafe_left\", \"at\": [1.4, 0]}, {\"clip\": \"strafe_right\", \"at\": [-1.4, 0]}]},\n",
    "    \"aim_offset\": {\"type\": \"blend_space\", \"mode\": \"gradient_band\", \"position\": \"aim\",\n",
    "                   \"samples\": [{\"clip\": \"aim_center_add\", \"at\": [0, 0]},\n",
    "                               {\"clip\": \"aim_up_add\", \"at\": [0, 1]}, {\"clip\": \"aim_down_add\", \"at\": [0, -1]},\n",
    "                               {\"clip\": \"aim_left_add\", \"at\": [1, 0]}, {\"clip\": \"aim_right_add\", \"at\": [-1, 0]}]},\n",
    "    \"leaning\": {\"type\": \"blend_space\", \"mode\": \"linear\", \"position\": \"lean\",\n",
    "                \"samples\": [{\"clip\": \"lean_right_add\", \"at\": [-1]}, {\"clip\": \"lean_center_add\", \"at\": [0]},\n",
    "                            {\"clip\": \"lean_left_add\", \"at\": [1]}]},\n",
    "    \"locomotion\": {\"type\": \"state_machine\", \"initial\": \"idle\",\n",
    "        \"states\": [\n",
    "          {\"name\": \"idle\", \"node\": {\"type\": \"clip\", \"clip\": \"idle\"}},\n",
    "          {\"name\": \"move\", \"node\": \"moving\"},\n",
    "          {\"name\": \"turn_left\", \"node\": {\"type\": \"clip\", \"clip\": \"turn_left\"}},\n",
    "          {\"name\": \"turn_right\", \"node\": {\"type\": \"clip\", \"clip\": \"turn_right\"}},\n",
    "          {\"name\": \"jump\", \"node\": {\"type\": \"clip\", \"clip\": \"jump\", \"wrap\": \"clamp\"}}],\n",
    "        \"transitions\": [\n",
    "          {\"from\": \"idle\", \"to\": \"move\", \"conditions\": [{\"param\": \"speed\", \"op\": \">\", \"value\": 0.1}], \"duration\": 0.25, \"curve\": \"smoothstep\"},\n",
    "          {\"from\": \"turn_left\", \"to\": \"move\", \"conditions\": [{\"param\": \"speed\", \"op\": \">\", \"value\": 0.1}], \"duration\": 0.25, \"curve\": \"smoothstep\"},\n",
    "          {\"from\": \"turn_right\", \"to\": \"move\", \"conditions\": [{\"param\": \"speed\", \"op\": \">\", \"value\": 0.1}], \"duration\": 0.25, \"curve\": \"smoothstep\"},\n",
    "          {\"from\": \"move\", \"to\": \"idle\", \"conditions\": [{\"param\": \"speed\", \"op\": \"<\", \"value\": 0.05}], \"duration\": 0.35, \"curve\": \"smoothstep\"},\n",
    "          {\"from\": \"idle\", \"to\": \"turn_left\", \"conditions\": [{\"param\": \"turn\", \"op\": \">\", \"value\": 0.5}], \"duration\": 0.25, \"curve\": \"smoothstep\"},\n",
    "          {\"from\": \"idle\", \"to\": \"turn_right\", \"conditions\": [{\"param\": \"turn\", \"op\": \"<\", \"value\": -0.5}], \"duration\": 0.25, \"curve\": \"smoothstep\"},\n",
    "          {\"from\": \"turn_left\", \"to\": \"idle\", \"conditions\": [{\"param\": \"turn\", \"op\": \"<\", \"value\": 0.2}], \"duration\": 0.3, \"curve\": \"smoothstep\"},\n",
    "          {\"from\": \"turn_right\", \"to\": \"idle\", \"conditions\": [{\"param\": \"turn\", \"op\": \">\", \"value\": -0.2}], \"duration\": 0.3, \"curve\": \"smoothstep\"},\n",
    "          {\"from\": \"idle\", \"to\": \"jump\", \"conditions\": [{\"param\": \"jump\"}], \"duration\": 0.2, \"curve\": \"smoothstep\"},\n",
    "          {\"from\": \"jump\", \"to\": \"idle\", \"exit_time\": 0.85, \"duration\": 0.25, \"curve\": \"smoothstep\"}]},\n",
    "    \"upper_body\": {\"type\": \"state_machine\", \"initial\": \"idle\",\n",
    "        \"states\": [\n",
    "          {\"name\": \"idle\", \"node\": {\"type\": \"clip\", \"clip\": \"idle\"}},\n",
    "          {\"name\": \"wave\", \"node\": {\"type\": \"clip\", \"clip\": \"wave\", \"wrap\": \"clamp\"}},\n",
    "          {\"name\": \"aim\", \"node\": {\"type\": \"clip\", \"clip\": \"aim_center\"}}],\n",
    "        \"transitions\": [\n",
    "          {\"from\": \"idle\", \"to\": \"wave\", \"conditions\": [{\"param\": \"wave\"}], \"duration\": 0.2, \"curve\": \"smoothstep\"},\n",
    "          {\"from\": \"wave\", \"to\": \"idle\", \"exit_time\": 0.85, \"duration\": 0.3, \"curve\": \"smoothstep\"},\n",
    "          {\"from\": \"idle\", \"to\": \"aim\", \"conditions\": [{\"param\": \"aiming\"}], \"duration\": 0.3, \"curve\": \"smoothstep\"},\n",
    "          {\"from\": \"aim\", \"to\": \"idle\", \"conditions\": [{\"param\": \"aiming\", \"op\": \"false\"}], \"duration\": 0.4, \"curve\": \"smoothstep\"}]},\n",
    "    \"aim\": {\"type\": \"state_machine\", \"initial\": \"relaxed\",\n",
    "        \"states\": [\n",
    "          {\"name\": \"relaxed\", \"node\": {\"type\": \"clip\", \"clip\": \"aim_center_add\"}},\n",
    "          {\"name\": \"aiming\", \"node\": \"aim_offset\"}],\n",
    "        \"transitions\": [\n",
    "          {\"from\": \"relaxed\", \"to\": \"aiming\", \"conditions\": [{\"param\": \"aiming\"}], \"duration\": 0.3, \"curve\": \"smoothstep\"},\n",
    "          {\"from\": \"aiming\", \"to\": \"relaxed\", \"conditions\": [{\"param\": \"aiming\", \"op\": \"false\"}], \"duration\": 0.4, \"curve\": \"smoothstep\"}]}\n",
    "  },\n",
    "  \"layers\": [\n",
    "    {\"name\": \"locomotion\", \"root\": \"locomotion\"},\n",
    "    {\"name\": \"upper_body\", \"weight\": \"upperWeight\", \"mask\": \"upper_body\", \"root\": \"upper_body\"},\n",
    "    {\"name\": \"aim\", \"mode\": \"additive\", \"root\": \"aim\"},\n",
    "    {\"name\": \"lean\", \"mode\": \"additive\", \"root\": \"leaning\"}\n",
    "  ],\n",
    "  \"ik\": [\n",
    "    {\"kind\": \"foot_placement\", \"name\": \"feet\", \"weight\": \"placement\", \"lock_distance\": 0.12,\n",
    "     \"legs\": [{\"upper\": \"thigh_l\", \"middle\": \"calf_l\", \"end\": \"foot_l\", \"contact\": \"contact_l\"},\n",
    "              {\"upper\": \"thigh_r\", \"middle\": \"calf_r\", \"end\": \"foot_r\", \"contact\": \"contact_r\"}]}\n",
    "  ]\n",
    "}\n",
    NULL
};

/* walk, wave while walking, run leaning into a curve, slow down, stop, turn in place, walk on
 * aiming left and right, stop, jump. */
static const char *const TIMELINE[] = {
    "{\"events\": [\n",
    "  {\"time\": 1.0, \"set\": {\"speed\": 1.4, \"move\": [0, 1.4]}},\n",
    "  {\"time\": 2.5, \"set\": {\"upperWeight\": 1}},\n",
    "  {\"time\": 2.5, \"fire\": \"wave\"},\n",
    "  {\"time\": 4.6, \"set\": {\"upperWeight\": 0}},\n",
    "  {\"time\": 5.0, \"set\": {\"speed\": 3.5, \"move\": [0, 3.5]}},\n",
    "  {\"time\": 5.5, \"ramp\": {\"lean\": 1}, \"duration\": 0.6},\n",
    "  {\"time\": 7.0, \"ramp\": {\"lean\": 0}, \"duration\": 0.6},\n",
    "  {\"time\": 7.5, \"set\": {\"speed\": 1.4, \"move\": [0, 1.4]}},\n",
    "  {\"time\": 8.5, \"set\": {\"speed\": 0, \"move\": [0, 0]}},\n",
    "  {\"time\": 9.3, \"set\": {\"turn\": 1}},\n",
    "  {\"time\": 10.5, \"set\": {\"turn\": 0}},\n",
    "  {\"time\": 11.2, \"set\": {\"speed\": 1.4, \"move\": [0, 1.4], \"aiming\": true, \"upperWeight\": 1}},\n",
    "  {\"time\": 12.0, \"ramp\": {\"aim\": [1, 0]}, \"duration\": 0.6},\n",
    "  {\"time\": 13.0, \"ramp\": {\"aim\": [-1, 0.4]}, \"duration\": 1.0},\n",
    "  {\"time\": 14.2, \"ramp\": {\"aim\": [0, 0]}, \"duration\": 0.5},\n",
    "  {\"time\": 14.5, \"set\": {\"speed\": 0, \"move\": [0, 0], \"aiming\": false}},\n",
    "  {\"time\": 15.1, \"set\": {\"upperWeight\": 0}},\n",
    "  {\"time\": 15.4, \"fire\": \"jump\"}\n",
    "]}\n",
    NULL
};

static void usage(FILE *out)
{
    fputs("usage: tendon demo [--out DIR]\n"
          "  Runs the whole pipeline on tendon's own generated humanoid, with no asset files: a graph\n"
          "  of four layers (a locomotion state machine over a 2D blend space of walk, run, back and\n"
          "  strafe clips, with turns in place and a jump; an upper-body wave/aim layer; an additive\n"
          "  aim offset; an additive lean), root motion, and foot placement on generated uneven ground\n"
          "  (" DEMO_GROUND "), driven for " DEMO_SECONDS_TEXT " s by a built-in timeline (walk, wave, run leaning,\n"
          "  stop, turn, walk aiming, stop, jump).\n"
          "  --out DIR   where to write (default demo-out/, created if missing):\n"
          "                demo_graph.json, demo_timeline.json   the graph and timeline run\n"
          "                demo.glb       the baked motion with the humanoid's skinned mesh\n"
          "                demo_sheet.png a contact sheet; demo.gif an animation (the preview renderer)\n"
          "                demo_plot.png  transition weights, blend weights and root speed over time\n"
          "                demo_trace.json the per-frame trace (docs/trace.schema.json)\n"
          "                summary.txt    timings and the motion-quality figures of docs/metrics.md\n"
          "                               (pop per transition, foot skate, IK error) against their targets\n"
          "                               (also printed)\n"
          "Exit codes: 0 success (every figure within its target), 1 a figure outside its target or\n"
          "another failure, 2 bad arguments or an output that cannot be created.\n",
          out);
}

/* The lines one after another as the file at path (output_file.h). An exit code; the reason goes
 * to stderr. */
static int write_lines(const char *path, const char *const *lines)
{
    tdn_io__output out;
    tdn_error err = { 0 };
    tdn_result r = tdn_io__output_open(&out, path, &err);
    if (r == TDN_OK) {
        for (int i = 0; lines[i]; i++)
            fputs(lines[i], out.file); /* a failure shows in the commit */
        r = tdn_io__output_commit(&out, &err);
    }
    return r == TDN_OK ? CLI_OK : cli_report("demo", r, &err);
}

static int write_text(const char *path, const char *text)
{
    const char *lines[2] = { text, NULL };
    return write_lines(path, lines);
}

/* ---- the plot ---- */

enum { PLOT_W = 1000, PLOT_H = 760 };

/* Transition weights (per state machine: the weight of the state it is in or going to, 1 when
 * settled), the locomotion layer's blend weights per clip, and the root's horizontal speed. */
static int plot(const cJSON *trace, const char *path, char *why, size_t why_size)
{
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(trace, "frames");
    const int n = cJSON_GetArraySize(frames);
    const double fps = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(trace, "fps"));
    if (n < 2 || !(fps > 0.0)) {
        snprintf(why, why_size, "the trace has no frames");
        return 0;
    }
    plot_curve tw[PLOT_MAX_CURVES], bw[PLOT_MAX_CURVES], sp[1];
    int ntw = 0, nbw = 0, nsp = 0;
    plot_curve *speed = plot_curve_add(sp, &nsp, "root speed", n);
    double top_speed = 1.0;
    int f = 0;
    const cJSON *fr;
    cJSON_ArrayForEach(fr, frames)
    {
        const cJSON *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(fr, "state_machines"))
        {
            const char *node = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "node"));
            plot_curve *c = node ? plot_curve_add(tw, &ntw, node, n) : NULL;
            if (c)
                c->v[f] = (float)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(m, "weight"));
        }
        const cJSON *layer0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(fr, "layers"), 0), *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(layer0, "entries"))
        {
            const char *clip = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "clip"));
            plot_curve *c = clip ? plot_curve_add(bw, &nbw, clip, n) : NULL;
            if (c)
                c->v[f] = (isnan(c->v[f]) ? 0.0f : c->v[f]) +
                          (float)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "weight"));
        }
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(fr, "root_motion"),
                                                          "linear_velocity");
        if (speed && cJSON_GetArraySize(v) == 3) {
            const double x = cJSON_GetNumberValue(cJSON_GetArrayItem(v, 0)),
                         z = cJSON_GetNumberValue(cJSON_GetArrayItem(v, 2));
            speed->v[f] = (float)sqrt(x * x + z * z);
            if (speed->v[f] > top_speed)
                top_speed = speed->v[f];
        }
        f++;
    }
    for (int k = 0; k < nbw; k++) /* a clip absent from a frame has weight 0 there */
        for (int i = 0; i < n; i++)
            if (isnan(bw[k].v[i]))
                bw[k].v[i] = 0.0f;
    image_rgb im;
    int ok = image_create(&im, PLOT_W, PLOT_H, (rgb){ 255, 255, 255 });
    if (ok) {
        image_text(&im, 70, 10, "TENDON DEMO: THE RUN OVER TIME (SECONDS)", (rgb){ 0, 0, 0 });
        plot_panel(&im, 50, 170, "STATE WEIGHT PER STATE MACHINE (DIPS: TRANSITIONS FADING IN)", "W", tw, ntw, n, fps,
                   0.0, 1.0);
        plot_panel(&im, 290, 200, "LOCOMOTION LAYER: BLEND WEIGHT PER CLIP", "W", bw, nbw, n, fps, 0.0, 1.0);
        if (speed)
            speed->color = (rgb){ 20, 20, 20 };
        plot_panel(&im, 560, 170, "ROOT SPEED (HORIZONTAL, FROM ROOT MOTION)", "M/S", sp, nsp, n, fps, 0.0,
                   ceil(top_speed));
        ok = png_write_rgb(path, &im, why, why_size) == 0;
        image_destroy(&im);
    } else {
        snprintf(why, why_size, "out of memory for the plot");
    }
    plot_curves_free(tw, ntw);
    plot_curves_free(bw, nbw);
    plot_curves_free(sp, nsp);
    return ok;
}

/* ---- the summary ---- */

typedef struct text {
    char *s;
    size_t n, cap;
} text;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
say(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[1024];
    int k = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    size_t len = strlen(buf);
    if (t->n + len + 1 > t->cap) {
        size_t cap = 2 * t->cap + len + 4096;
        char *bigger = realloc(t->s, cap);
        if (!bigger)
            return;
        t->s = bigger;
        t->cap = cap;
    }
    memcpy(t->s + t->n, buf, len + 1);
    t->n += len;
}

static const char *verdict(int ok) { return ok ? "within target" : "OUTSIDE TARGET"; }

/* Writes the summary into t; returns how many figures were outside their targets. */
static int summarize(text *t, const cJSON *trace, const run_report *rep, const char *dir, double total_ms)
{
    int outside = 0;
    const double fps = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(trace, "fps"));
    say(t, "tendon demo: the generated humanoid (no asset files), a 4-layer graph with foot placement on %s\n",
        DEMO_GROUND);
    say(t,
        "run: %d frames, %.3g s at %.3g fps, driven by the built-in timeline (walk, wave, run leaning, stop, turn, "
        "walk aiming, stop, jump)\n",
        rep->frames, (rep->frames - 1) / fps, fps);
    say(t, "\ntimings:\n");
    say(t, "  evaluation: %.4f ms per frame (graph update + evaluate with foot placement), %.1f ms for all %d frames\n",
        rep->eval_ms / rep->frames, rep->eval_ms, rep->frames);
    say(t, "  preview: %.3g ms per drawn frame (sheet), %.3g ms (GIF)\n", rep->render_ms[0], rep->render_ms[1]);
    say(t, "  total: %.0f ms (the whole command: run, trace, bake, previews, plot)\n", total_ms);
    say(t, "\nmotion quality (docs/metrics.md):\n");
    say(t, "  pop per transition (largest per-frame rotation change / its bound; target <= %.1f):\n", TARGET_POP);
    const cJSON *x;
    int count = 0;
    double worst = 0.0;
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(trace, "transitions"))
    {
        const double pop = cJSON_GetNumberValue(
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(x, "pop"), "pop"));
        const int ok = isfinite(pop) && pop <= TARGET_POP;
        outside += !ok;
        if (pop > worst)
            worst = pop;
        count++;
        say(t, "    %-11s %-10s -> %-10s at %6.3f s  pop %.3f  %s\n",
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "machine")),
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "from")),
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "to")),
            cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(x, "start")), pop, verdict(ok));
    }
    say(t, "  pop: %d transitions, worst %.3f (target <= %.1f: %s)\n", count, worst, TARGET_POP,
        verdict(count > 0 && worst <= TARGET_POP));
    outside += count == 0;
    const cJSON *skate = cJSON_GetObjectItemCaseSensitive(trace, "foot_skate");
    const double locked = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(skate, "mean_cm_per_s"));
    const double unlocked = cJSON_GetNumberValue(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(skate, "without_locking"), "mean_cm_per_s"));
    const int skate_ok = isfinite(locked) && locked <= TARGET_SKATE;
    outside += !skate_ok;
    say(t,
        "  foot skate: %.4f cm/s with foot locking (target <= %.1f cm/s: %s); %.3f cm/s without locking, for "
        "comparison\n",
        locked, TARGET_SKATE, verdict(skate_ok), unlocked);
    const int ik_ok = rep->ik_samples > 0 && rep->ik_error_max_reached * 1e3 <= TARGET_IK_MM;
    const double unreached = rep->ik_samples ? (double)rep->ik_unreached / rep->ik_samples : 1.0;
    const int reach_ok = unreached <= TARGET_UNREACHED;
    outside += !ik_ok + !reach_ok;
    say(t,
        "  IK error: ankle to its foot placement target over %d leg-frames: max %.5f mm where reached (target <= "
        "%.1f mm: %s), mean %.4f mm over all\n",
        rep->ik_samples, rep->ik_error_max_reached * 1e3, TARGET_IK_MM, verdict(ik_ok), rep->ik_error_mean * 1e3);
    say(t,
        "  IK reach: %d leg-frames (%.2f%%) with the target out of the leg's reach, their error up to %.2f mm "
        "(target <= %.0f%%: %s)\n",
        rep->ik_unreached, 100.0 * unreached, rep->ik_error_max * 1e3, 100.0 * TARGET_UNREACHED, verdict(reach_ok));
    const int bone_ok = rep->ik_samples > 0 && rep->bone_change_max * 1e3 <= TARGET_BONE_MM;
    outside += !bone_ok;
    say(t, "  IK bone-length change: max %.5f mm (thigh, calf; target <= %.1f mm: %s)\n", rep->bone_change_max * 1e3,
        TARGET_BONE_MM, verdict(bone_ok));
    say(t, "\nfiles in %s:\n", dir);
    say(t, "  demo.glb (baked motion, skinned mesh)  demo_sheet.png  demo.gif  demo_plot.png  demo_trace.json\n"
           "  demo_graph.json  demo_timeline.json  summary.txt\n");
    say(t, "%s\n",
        outside ? "RESULT: some figures are outside their targets" : "RESULT: every figure within its target");
    return outside;
}

/* The files the demo writes into its folder. */
typedef struct demo_files {
    char graph[4096], timeline[4096], glb[4096], sheet[4096], gif[4096], trace[4096], plot[4096], summary[4096];
} demo_files;

static void name_files(const char *dir, demo_files *f)
{
    snprintf(f->graph, sizeof f->graph, "%s/demo_graph.json", dir);
    snprintf(f->timeline, sizeof f->timeline, "%s/demo_timeline.json", dir);
    snprintf(f->glb, sizeof f->glb, "%s/demo.glb", dir);
    snprintf(f->sheet, sizeof f->sheet, "%s/demo_sheet.png", dir);
    snprintf(f->gif, sizeof f->gif, "%s/demo.gif", dir);
    snprintf(f->trace, sizeof f->trace, "%s/demo_trace.json", dir);
    snprintf(f->plot, sizeof f->plot, "%s/demo_plot.png", dir);
    snprintf(f->summary, sizeof f->summary, "%s/summary.txt", dir);
}

/* The run: the built-in graph and timeline on DEMO_GROUND, baked, traced, and previewed as a
 * contact sheet and a GIF. An exit code, having said why. */
static int run_options(const demo_files *f, run_args *a)
{
    memset(a, 0, sizeof *a);
    a->graph = f->graph;
    a->params = f->timeline;
    a->out = f->glb;
    a->trace = f->trace;
    a->seconds = strtof(DEMO_SECONDS_TEXT, NULL);
    a->fps = 60.0f;
    a->quiet = 1;
    char why[512];
    if (!ground_parse(DEMO_GROUND, &a->ground, why, sizeof why)) {
        cli_say("demo", why);
        return CLI_FAILURE;
    }
    a->has_ground = 1;
    preview_options *r[2] = { &a->render, &a->render2 };
    for (int k = 0; k < 2; k++) {
        r[k]->path = k == 0 ? f->sheet : f->gif;
        r[k]->kind = k == 0 ? PREVIEW_PNG : PREVIEW_GIF;
        r[k]->azimuth = 60.0f;
        r[k]->elevation = 15.0f;
        r[k]->fps = a->fps;
    }
    a->render.sheet_frames = 16;
    a->render2.width = 480;
    a->render2.height = 270;
    return CLI_OK;
}

/* From the trace the run wrote: the plot, then the summary (printed and written). An exit
 * code: 1 when a figure is outside its target. */
static int plot_and_summarize(const demo_files *f, const char *dir, const run_report *rep, double started)
{
    char why[512];
    cJSON *json = NULL;
    if (json_file_read(f->trace, &json, why, sizeof why) != CLI_OK) {
        fprintf(stderr, "tendon demo: reading back the trace: %s\n", why);
        return CLI_FAILURE;
    }
    if (!plot(json, f->plot, why, sizeof why)) {
        fprintf(stderr, "tendon demo: %s: %s\n", f->plot, why);
        cJSON_Delete(json);
        return CLI_FAILURE;
    }
    text t = { 0 };
    const int outside = summarize(&t, json, rep, dir, cli_now_ms() - started);
    cJSON_Delete(json);
    if (!t.s) {
        fprintf(stderr, "tendon demo: out of memory\n");
        return CLI_FAILURE;
    }
    fputs(t.s, stdout);
    const int code = write_text(f->summary, t.s);
    free(t.s);
    return code != CLI_OK ? code : outside ? CLI_FAILURE : CLI_OK;
}

int cmd_demo(int argc, char **argv)
{
    const char *dir = "demo-out";
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return CLI_OK;
        } else if (strcmp(argv[i], "--out") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "tendon demo: --out needs a value\n");
                return CLI_BAD_INPUT;
            }
            dir = argv[++i];
        } else {
            fprintf(stderr, "tendon demo: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return CLI_BAD_INPUT;
        }
    }
    const double started = cli_now_ms();
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "tendon demo: cannot create %s: %s\n", dir, strerror(errno));
        return CLI_BAD_INPUT;
    }
    demo_files f;
    name_files(dir, &f);
    int code = write_lines(f.graph, GRAPH);
    if (code == CLI_OK)
        code = write_lines(f.timeline, TIMELINE);
    if (code != CLI_OK)
        return code;
    run_args a;
    code = run_options(&f, &a);
    if (code != CLI_OK)
        return code;
    printf("tendon demo: running the generated humanoid for " DEMO_SECONDS_TEXT " s into %s/ ...\n", dir);
    fflush(stdout);
    run_report rep;
    code = run_graph(&a, &rep);
    return code == CLI_OK ? plot_and_summarize(&f, dir, &rep, started) : code;
}
