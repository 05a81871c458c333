/* tendon retarget: one character's motion played on another's skeleton, baked to glTF
 * (docs/cli.md); the options here, the pieces in tools/retarget/. */
#include <stdlib.h>
#include <string.h>

#include "baked_frames.h"
#include "cli.h"
#include "commands.h"
#include "retarget_args.h"
#include "retarget_bake.h"
#include "retarget_explain.h"
#include "retarget_pair.h"
#include "retarget_preview.h"
#include "retarget_trace.h"

static void usage(FILE *out)
{
    fputs(
        "usage: tendon retarget SOURCE --to TARGET [--clip NAME|INDEX] [--source-skin NAME|INDEX]\n"
        "                       [--target-skin NAME|INDEX] [--map MAP.json] [--source-reference FRAME]\n"
        "                       [--target-reference FRAME] [--scale S] [--no-contacts] [--explain]\n"
        "                       --out OUT.glb [--trace TRACE.json] [--render OUT] [--allow-files DIR]...\n"
        "Plays SOURCE's motion on TARGET's character: each of TARGET's bones points where the matching bone\n"
        "of SOURCE points, whatever the two skeletons' names, proportions, rest poses and units\n"
        "(docs/retarget.md), and writes TARGET with the motion as glTF.\n"
        "  SOURCE, TARGET    BVH, glTF or pack files, any humanoid: its hips, legs (thigh, shin, foot) and what else\n"
        "                    it has (spine, neck, head, arms, toes, fingers) are found by the joints' names,\n"
        "                    then the hierarchy, then the rest pose (--explain shows how)\n"
        "  --to TARGET       the character that gets the motion (required)\n"
        "  --clip NAME|INDEX retarget this clip of SOURCE (default: every clip, each baked to a clip of its\n"
        "                    name)\n"
        "  --source-skin NAME|INDEX, --target-skin NAME|INDEX\n"
        "                    the glTF skin whose skeleton is used (default: the first skin)\n"
        "  --map MAP.json    a body-map document overriding the joints found, for either side (docs/retarget.md)\n"
        "  --source-reference FRAME\n"
        "                    build the source's reference pose (legs down, spine up, arms out, facing +Z)\n"
        "                    from this frame of the retargeted clip (--clip, else the first) instead of its\n"
        "                    rest pose (frame f at f / rate), for a rest pose that is no stance (a BVH zero\n"
        "                    pose); the body map is then found on that frame too\n"
        "  --target-reference FRAME\n"
        "                    the same for TARGET, from this frame of its first clip (its rest pose when it\n"
        "                    has no clip)\n"
        "  --scale S         multiply SOURCE's lengths by S at import (0.01 for a BVH in centimetres), as the\n"
        "                    other commands do. TARGET keeps its own units: the motion's hips height and\n"
        "                    travel scale by the ratio of the two characters' leg lengths, which carries the\n"
        "                    units, so S changes what the trace and --explain show of SOURCE, not the motion\n"
        "  --no-contacts     no contact fix-up. By default, where SOURCE's foot is planted (its ankle within\n"
        "                    2.5% of its leg length of its lowest in the takes and slower than 18.75% of it\n"
        "                    a second, or by the clip's contact_l/contact_r curves), TARGET's is held where\n"
        "                    it landed at its rest height (docs/retarget.md)\n"
        "  --explain         print both body maps (part, joints, how each was found), what was left out and\n"
        "                    why, the reference poses and the scale; alone (no --out, --trace or --render) it\n"
        "                    stops there\n"
        "  --out OUT.glb     TARGET's skeleton, skin and meshes with the motion, .glb or .gltf: every clip\n"
        "                    retargeted frame by frame at SOURCE's rate (a BVH's 1 / Frame Time; the rate\n"
        "                    tendon's runtime clip of it takes: its key rate when its keys are evenly spaced,\n"
        "                    times the smallest whole number reaching 30 fps)\n"
        "  --trace TRACE.json  per frame: the clip, frame and time, both hips (model space), the limb\n"
        "                    directions; then their statistics and the hips' travel\n"
        "  --render OUT      SOURCE (left, scaled to TARGET's leg length) beside TARGET (right), the first\n"
        "                    clip retargeted, drawn as tendon run --render draws: .png a contact sheet of 12\n"
        "                    frames, .gif an animation, .mp4 a video through ffmpeg\n"
        "  --allow-files DIR as for tendon info: a glTF's external buffers may also be below DIR (repeatable)\n",
        out);
    fputs("Prints a summary: the clips and their frames, the scale, and how closely TARGET's bones follow\n"
          "SOURCE's: per limb (thighs, shins, upper arms, forearms, the spine from the hips to the neck) the\n"
          "angle between the two bones, each in its own character's facing frame, median, 99th percentile and\n"
          "largest over the frames, in degrees; the hips' travel against SOURCE's times the scale.\n"
          "On a terminal, stderr shows a progress bar when retargeting or rendering takes over 0.25 s.\n"
          "Exit codes: 0 success, 2 bad input (arguments, a missing or malformed file, a skin, clip or frame the\n"
          "file does not have, a skeleton that is no humanoid: no hips, no legs, a chain mapped twice, named\n"
          "by its joint; an output that cannot be created), 1 any other failure (ffmpeg missing for an .mp4).\n",
          out);
}

/* FRAME: a whole number from 0 on. */
static int parse_frame(const char *option, const char *text, int *out)
{
    char *end;
    const long v = strtol(text, &end, 10);
    if (end == text || *end || v < 0 || v >= RETARGET_MAX_TAKE_FRAMES) {
        fprintf(stderr, "tendon retarget: %s wants a frame number from 0 to %d, not '%s'\n", option,
                RETARGET_MAX_TAKE_FRAMES - 1, text);
        return 0;
    }
    *out = (int)v;
    return 1;
}

/* 0 with the options in *a, -1 for --help, or the exit code of a bad command line. */
static int parse(int argc, char **argv, retarget_args *a)
{
    a->source_reference = a->target_reference = -1;
    a->render.azimuth = PREVIEW_DEFAULT_AZIMUTH;
    a->render.elevation = PREVIEW_DEFAULT_ELEVATION;
    a->render.command = "retarget";
    static const char *const with_value[] = { "--to",
                                              "--clip",
                                              "--source-skin",
                                              "--target-skin",
                                              "--map",
                                              "--scale",
                                              "--source-reference",
                                              "--target-reference",
                                              "--out",
                                              "--trace",
                                              "--render" };
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return -1;
        }
        const int files = cli_files_option("retarget", argc, argv, &i, &a->files);
        if (files < 0)
            return CLI_BAD_INPUT;
        if (files > 0)
            continue;
        int wants_value = 0;
        for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
            wants_value |= strcmp(arg, with_value[k]) == 0;
        if (wants_value && i + 1 >= argc) {
            fprintf(stderr, "tendon retarget: %s needs a value\n", arg);
            return CLI_BAD_INPUT;
        }
        const char *value = wants_value ? argv[++i] : NULL;
        if (strcmp(arg, "--to") == 0) {
            a->target = value;
        } else if (strcmp(arg, "--clip") == 0) {
            a->clip = value;
        } else if (strcmp(arg, "--source-skin") == 0) {
            a->source_skin = value;
        } else if (strcmp(arg, "--target-skin") == 0) {
            a->target_skin = value;
        } else if (strcmp(arg, "--map") == 0) {
            a->map = value;
        } else if (strcmp(arg, "--scale") == 0) {
            if (!cli_parse_float("retarget", "--scale", value, &a->scale))
                return CLI_BAD_INPUT;
            if (!(a->scale > 0.0f)) {
                fprintf(stderr, "tendon retarget: --scale wants a positive number, not '%s'\n", value);
                return CLI_BAD_INPUT;
            }
        } else if (strcmp(arg, "--source-reference") == 0) {
            if (!parse_frame(arg, value, &a->source_reference))
                return CLI_BAD_INPUT;
        } else if (strcmp(arg, "--target-reference") == 0) {
            if (!parse_frame(arg, value, &a->target_reference))
                return CLI_BAD_INPUT;
        } else if (strcmp(arg, "--out") == 0) {
            a->out = value;
        } else if (strcmp(arg, "--trace") == 0) {
            a->trace = value;
        } else if (strcmp(arg, "--render") == 0) {
            a->render.path = value;
            if (!preview_kind_of(value, &a->render.kind)) {
                fprintf(stderr, "tendon retarget: --render wants a .png (contact sheet), .gif or .mp4 file, not '%s'\n",
                        value);
                return CLI_BAD_INPUT;
            }
        } else if (strcmp(arg, "--no-contacts") == 0) {
            a->no_contacts = 1;
        } else if (strcmp(arg, "--explain") == 0) {
            a->explain = 1;
        } else if (strcmp(arg, "--skin") == 0) {
            fprintf(stderr, "tendon retarget: --skin: say whose: --source-skin or --target-skin\n");
            return CLI_BAD_INPUT;
        } else if (arg[0] != '-' && !a->source) {
            a->source = arg;
        } else {
            fprintf(stderr, "tendon retarget: unexpected argument '%s'\n", arg);
            usage(stderr);
            return CLI_BAD_INPUT;
        }
    }
    if (!a->source || !a->target || (!a->out && !a->trace && !a->render.path && !a->explain)) {
        fprintf(stderr, "tendon retarget: %s\n",
                !a->source   ? "a SOURCE file is required"
                : !a->target ? "--to TARGET is required"
                             : "--out OUT.glb is required (--explain alone prints the body maps)");
        usage(stderr);
        return CLI_BAD_INPUT;
    }
    if (a->out && !cli_is_gltf_path(a->out)) {
        fprintf(stderr, "tendon retarget: --out wants a .glb or .gltf file, not '%s'\n", a->out);
        return CLI_BAD_INPUT;
    }
    char why[512];
    const int code = a->render.path ? preview_check(&a->render, why, sizeof why) : 0;
    if (code)
        cli_say("retarget", why);
    return code;
}

/* Everything a retarget holds besides the pair. */
typedef struct retarget_run {
    retarget_take *takes;
    int take_count, frame_count; /* frames over every take */
    baked_frames baked;
    limb_directions limbs;
    retarget_preview preview;
    trace_writer trace;
} retarget_run;

static void release(retarget_run *r)
{
    free(r->takes);
    baked_frames_free(&r->baked);
    limb_directions_free(&r->limbs);
    retarget_preview_free(&r->preview);
}

/* The takes (--clip's, else every clip of the source) and the room every output needs. An exit
 * code, having said why. */
static int prepare(const retarget_args *a, const retarget_pair *p, retarget_run *r)
{
    const int clips = tdn_asset_clip_count(p->source.asset);
    const int first = retarget_source_clip(a, p->source.asset);
    if (first < 0)
        return CLI_BAD_INPUT;
    r->take_count = a->clip ? 1 : clips;
    r->takes = calloc((size_t)r->take_count, sizeof *r->takes);
    if (!r->takes) {
        fprintf(stderr, "tendon retarget: out of memory\n");
        return CLI_FAILURE;
    }
    for (int k = 0; k < r->take_count; k++) {
        tdn_error err = { 0 };
        const tdn_result res = retarget_take_of(p->source.asset, a->clip ? first : k, &r->takes[k], &err);
        if (res != TDN_OK) {
            char path[CLI_TEXT_SIZE], where[CLI_TEXT_SIZE];
            fprintf(stderr, "tendon retarget: %s: %s: %s\n", cli_text(a->source, path, sizeof path),
                    cli_text(err.where, where, sizeof where), err.message);
            return cli_exit_code(res);
        }
        if (r->frame_count > RETARGET_MAX_TAKE_FRAMES - r->takes[k].frame_count) {
            fprintf(stderr,
                    "tendon retarget: %s: its clips have more than %d frames together; retarget them one by one "
                    "(--clip)\n",
                    a->source, RETARGET_MAX_TAKE_FRAMES);
            return CLI_BAD_INPUT;
        }
        r->frame_count += r->takes[k].frame_count;
    }
    const tdn_skeleton *target = p->target.skeleton;
    if (!limb_directions_init(&r->limbs, &p->source.map, &p->target.map, r->frame_count) ||
        (a->out && !baked_frames_alloc(&r->baked, r->frame_count, tdn_skeleton_joint_count(target))) ||
        (a->render.path && !retarget_preview_init(&r->preview, p, r->takes[0].frame_count))) {
        fprintf(stderr, "tendon retarget: out of memory for %d frames\n", r->frame_count);
        return CLI_FAILURE;
    }
    return a->trace ? retarget_trace_open(&r->trace, a->trace, a, p, r->takes, r->take_count) : CLI_OK;
}

/* --out: one clip per take, named as the source's clip. */
static int write_baked(const retarget_args *a, const retarget_pair *p, const retarget_run *r)
{
    tdn_baked_clip *clips = calloc((size_t)r->take_count, sizeof *clips);
    if (!clips) {
        fprintf(stderr, "tendon retarget: out of memory\n");
        return CLI_FAILURE;
    }
    for (int k = 0, at = 0; k < r->take_count; at += r->takes[k++].frame_count)
        clips[k] = (tdn_baked_clip){ tdn_keyed_clip_name(r->takes[k].clip), r->takes[k].frame_count, r->takes[k].rate,
                                     r->baked.poses + at };
    const int code = baked_clips_write(clips, r->take_count, "retarget", a->out, p->target.skeleton, p->target.asset);
    free(clips);
    return code;
}

static void summary(const retarget_args *a, const retarget_pair *p, const retarget_run *r, double retarget_ms,
                    double bake_ms)
{
    char source[CLI_TEXT_SIZE], target[CLI_TEXT_SIZE], name[CLI_TEXT_SIZE];
    printf("%s -> %s: %d clip%s, %d frames\n", cli_text(a->source, source, sizeof source),
           cli_text(a->target, target, sizeof target), r->take_count, r->take_count == 1 ? "" : "s", r->frame_count);
    for (int k = 0; k < r->take_count; k++)
        printf("  %s: %d frames at %.6g fps (%.6g s)\n",
               cli_text(tdn_keyed_clip_name(r->takes[k].clip), name, sizeof name), r->takes[k].frame_count,
               (double)r->takes[k].rate, (double)tdn_keyed_clip_duration(r->takes[k].clip));
    const double scale = tdn_retarget_scale(p->retarget);
    printf("scale: %.6g (the ratio of the leg lengths, target over source)\n", scale);
    printf("contacts: %s\n", retarget_contacts_text(a, p));
    printf("limb directions (degrees between the source's and the target's bone, each in its own facing frame):\n");
    for (int k = 0; k < LIMB_COUNT; k++) {
        double median = 0.0, p99 = 0.0, max = 0.0;
        if (limb_directions_stats(&r->limbs, k, &median, &p99, &max) > 0)
            printf("  %-16s median %.3g, p99 %.3g, max %.3g\n", limb_name(k), median, p99, max);
        else
            printf("  %-16s n/a (not on both)\n", limb_name(k));
    }
    const double expected = r->limbs.travel[0] * scale, travel = r->limbs.travel[1];
    printf("hips travel: %.6g (the source's %.6g x the scale: %.6g", travel, r->limbs.travel[0], expected);
    if (expected > 0.0)
        printf(", %.3g%% off)\n", 100.0 * (travel - expected) / expected);
    else
        printf(")\n");
    printf("retargeted %d frames in %.3g ms (%.3g us a frame; with sampling and measuring %.3g ms)\n", r->frame_count,
           retarget_ms, 1e3 * retarget_ms / (r->frame_count > 0 ? r->frame_count : 1), bake_ms);
}

static int run(const retarget_args *a)
{
    retarget_pair p = { 0 };
    retarget_run r = { 0 };
    int code = retarget_pair_load(a, &p);
    if (code == CLI_OK && a->explain)
        retarget_explain(a, &p);
    if (code != CLI_OK || (!a->out && !a->trace && !a->render.path)) {
        retarget_pair_free(&p);
        return code;
    }
    code = prepare(a, &p, &r);
    double retarget_ms = 0.0, bake_ms = cli_now_ms();
    if (code == CLI_OK) {
        const retarget_outputs outputs = { a->out ? r.baked.poses : NULL,
                                           a->trace ? &r.trace : NULL,
                                           a->render.path ? &r.preview : NULL,
                                           a->render.azimuth,
                                           &r.limbs,
                                           !a->no_contacts };
        code = retarget_bake(&p, r.takes, r.take_count, &outputs, &retarget_ms);
    }
    bake_ms = cli_now_ms() - bake_ms;
    if (a->trace && r.trace.output.file && code == CLI_OK)
        code = retarget_trace_finish(&r.trace, &p, &r.limbs);
    else if (a->trace && r.trace.output.file)
        tw_discard(&r.trace); /* no half-written trace */
    if (code == CLI_OK && a->out)
        code = write_baked(a, &p, &r);
    double render_ms = 0.0;
    int rendered = 0;
    if (code == CLI_OK && a->render.path) {
        preview_options o = a->render;
        o.fps = r.takes[0].rate;
        const preview_clip *clips[2] = { &r.preview.clips[0], &r.preview.clips[1] };
        char why[2048];
        code = preview_write_many(clips, 2, &o, why, sizeof why, &render_ms, &rendered);
        if (code != CLI_OK)
            cli_say("retarget", why);
    }
    if (code == CLI_OK) {
        summary(a, &p, &r, retarget_ms, bake_ms);
        if (a->out)
            printf("baked: %s (%s's skeleton and skin%s, %d clip%s)\n", a->out, cli_base_name(a->target),
                   tdn_asset_mesh_count(p.target.asset) > 0 ? " and meshes" : "", r.take_count,
                   r.take_count == 1 ? "" : "s");
        if (a->trace)
            printf("trace: %s\n", a->trace);
        if (a->render.path)
            printf("rendered: %s (%d frames drawn, %.3g ms per frame)\n", a->render.path, rendered, render_ms);
    }
    release(&r);
    retarget_pair_free(&p);
    return code;
}

int cmd_retarget(int argc, char **argv)
{
    retarget_args a = { 0 };
    const int code = parse(argc, argv, &a);
    if (code != 0)
        return code < 0 ? CLI_OK : code;
    return run(&a);
}
