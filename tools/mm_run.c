/* tendon mm run: a motion-matching controller (include/tendon/mm_controller.h) driven along a
 * scripted stick path; writes the baked motion, a per-frame trace and a summary of how well the
 * character followed its simulation. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "baked_frames.h"
#include "foot_skate.h"
#include "mm_path.h"
#include "mm_source.h"
#include "progress.h"
#include "tendon/mm_controller.h"
#include "tendon/io/mm_database_file.h"
#include "trace.h"

#define MAX_FRAMES 1000000
#define STARTED 1.0            /* seconds: errors count from here on */
#define GROUND_PERCENTILE 0.05 /* a foot's ground height: this quantile of its height over the clips */
#define CONTACT_SPEED 0.5f     /* m/s: a foot faster than this is not in contact */

static void usage(FILE *out)
{
    fputs("usage: tendon mm run DB.tdnmm FILE... --path PATH.json [--scale S] [--seconds S] [--fps F]\n"
          "                     [--bias B] [--interval S] [--lock-feet] [--out BAKED.glb] [--trace TRACE.json]\n"
          "                     [--json] [--allow-files DIR]...\n"
          "Drives a motion-matching character (tdn_mm_controller) over the database along a scripted stick\n"
          "path and reports how closely the animated character followed its simulation.\n"
          "  DB.tdnmm          a database from `tendon mm build`\n"
          "  FILE...           the files it was built from, in the same order, with the same --scale/--skin\n"
          "                    (checked: clip count, frames per clip, and the feet against the database)\n"
          "  --allow-files DIR as for tendon info: a glTF's external buffers may also be below DIR (repeatable)\n"
          "  --path PATH.json  the stick input (docs/mm_path.schema.json): segments that follow each other,\n"
          "                    {\"segments\": [{\"duration\": S, \"speed\": M_PER_S, \"heading\": DEGREES,\n"
          "                                   \"facing\": DEGREES (default: the heading)}, ...]};\n"
          "                    angles about +Y from +Z towards +X (0: +Z, 90: +X). The desired velocity and\n"
          "                    facing change at once at each segment's start; after the last: standing\n"
          "  --seconds S       how long to run (default: the path's duration)\n"
          "  --fps F           frames per second (default 60). Frame 0 is t = 0 (a zero-length update),\n"
          "                    then one update of 1/F per frame: round(S x F) + 1 frames\n"
          "  --bias B          the cost another frame must beat continuing by (default 0.05)\n"
          "  --interval S      seconds between searches (default 0.1; sharp input changes search at once)\n"
          "  --lock-feet       foot locking: feet in contact held where they were planted (two-bone IK on\n"
          "                    the legs, flat ground at y = 0)\n"
          "  --out FILE        the baked motion, .glb or .gltf: one clip named after PATH.json\n"
          "  --trace FILE      per-frame JSON: time, input, database frame (clip, time, mirrored), cost, searched,\n"
          "                    switched, the character's and the simulation's position and facing, the feet\n"
          "  --json            the summary as one JSON object\n"
          "Prints a summary: frames, searches, switches (and how many were rewinds: back to a frame of the same\n"
          "clip played at most 1/3 s before, a stutter), the root position error (character against\n"
          "simulation, metres) and facing error (degrees), mean and max from 1 s on, and the foot skate\n"
          "(docs/metrics.md): each foot's mean horizontal speed while in contact, a foot being in contact when it\n"
          "is at most 5 cm above its ground height (the 5th percentile of its height over the clips) and moves\n"
          "at most 0.5 m/s; beside it the same measure of the clips played as they are.\n"
          "On a terminal, stderr shows a progress bar when the run takes over 0.25 s.\n"
          "Exit codes: 0 success, 2 bad input (arguments, a missing or malformed database or path, files that\n"
          "do not match the database, an output that cannot be created), 1 any other failure.\n",
          out);
}

typedef struct run_args {
    const char *db, *path, *out, *trace;
    char **files;
    int file_count;
    cli_common common;
    float seconds, fps, bias, interval;
    int has_seconds, lock_feet;
} run_args;

static int parse(int argc, char **argv, run_args *a)
{
    a->fps = 60.0f;
    a->bias = 0.05f;
    a->files = calloc((size_t)argc + 1, sizeof *a->files);
    if (!a->files) {
        fprintf(stderr, "tendon mm run: out of memory\n");
        return CLI_FAILURE;
    }
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return -1;
        }
        int c = cli_common_option("mm run", argc, argv, &i, &a->common);
        if (c < 0)
            return CLI_BAD_INPUT;
        if (c > 0)
            continue;
        int wants_value = strcmp(arg, "--path") == 0 || strcmp(arg, "--seconds") == 0 || strcmp(arg, "--fps") == 0 ||
                          strcmp(arg, "--out") == 0 || strcmp(arg, "--trace") == 0 || strcmp(arg, "--bias") == 0 ||
                          strcmp(arg, "--interval") == 0;
        if (wants_value && i + 1 >= argc) {
            fprintf(stderr, "tendon mm run: %s needs a value\n", arg);
            return CLI_BAD_INPUT;
        }
        if (strcmp(arg, "--lock-feet") == 0) {
            a->lock_feet = 1;
        } else if (strcmp(arg, "--path") == 0) {
            a->path = argv[++i];
        } else if (strcmp(arg, "--out") == 0) {
            a->out = argv[++i];
        } else if (strcmp(arg, "--trace") == 0) {
            a->trace = argv[++i];
        } else if (strcmp(arg, "--seconds") == 0) {
            if (!cli_parse_float("mm run", "--seconds", argv[++i], &a->seconds))
                return CLI_BAD_INPUT;
            if (a->seconds < 0.0f) {
                fprintf(stderr, "tendon mm run: --seconds wants 0 or more, not '%s'\n", argv[i]);
                return CLI_BAD_INPUT;
            }
            a->has_seconds = 1;
        } else if (strcmp(arg, "--fps") == 0) {
            if (!cli_parse_float("mm run", "--fps", argv[++i], &a->fps))
                return CLI_BAD_INPUT;
            if (!(a->fps > 0.0f) || a->fps > 10000.0f) {
                fprintf(stderr, "tendon mm run: --fps wants a number above 0 and at most 10000, not '%s'\n", argv[i]);
                return CLI_BAD_INPUT;
            }
        } else if (strcmp(arg, "--bias") == 0 || strcmp(arg, "--interval") == 0) {
            float *v = arg[2] == 'b' ? &a->bias : &a->interval;
            if (!cli_parse_float("mm run", arg, argv[++i], v))
                return CLI_BAD_INPUT;
            if (*v < 0.0f || (v == &a->interval && *v > 60.0f)) {
                fprintf(stderr, "tendon mm run: %s wants %s, not '%s'\n", arg,
                        v == &a->bias ? "0 or more" : "seconds from 0 to 60 (0: the default, 0.1)", argv[i]);
                return CLI_BAD_INPUT;
            }
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "tendon mm run: unexpected argument '%s'\n", arg);
            usage(stderr);
            return CLI_BAD_INPUT;
        } else if (!a->db) {
            a->db = arg;
        } else {
            a->files[a->file_count++] = argv[i];
        }
    }
    if (!a->db || a->file_count == 0 || !a->path) {
        fprintf(stderr, "tendon mm run: %s\n", !a->db           ? "a DB.tdnmm file is required"
                                               : !a->file_count ? "the FILEs the database was built from are required"
                                                                : "--path PATH.json is required");
        usage(stderr);
        return CLI_BAD_INPUT;
    }
    if (a->out && !cli_is_gltf_path(a->out)) {
        fprintf(stderr, "tendon mm run: --out wants a .glb or .gltf file, not '%s'\n", a->out);
        return CLI_BAD_INPUT;
    }
    return 0;
}

/* ---- the files against the database ---- */

/* v turned by -facing about y (mm_database.h: into the frame of a root facing that way). */
static tdn_vec3 into_root(tdn_vec3 v, float facing)
{
    const float c = cosf(facing), s = sinf(facing);
    return tdn_vec3_make(c * v.x - s * v.z, v.y, s * v.x + c * v.z);
}

/* The clips against the database: the count, each clip's frames (plain and mirrored), and the
 * feet of each clip's middle frame recomputed from the clip against the database's features
 * (which catches another --scale, other files of the same lengths, or another order). */
static int match_database(const run_args *a, const tdn_mm_database *db, const mm_source *src, int *mirrored)
{
    const int clips = tdn_mm_database_clip_count(db);
    if (clips != src->clip_count) {
        fprintf(stderr, "tendon mm run: %s has %d clip%s, the FILEs give %d: give the files it was built from, in the "
                        "same order\n", a->db, clips, clips == 1 ? "" : "s", src->clip_count);
        return CLI_BAD_INPUT;
    }
    int root, left, right;
    tdn_vec3 forward;
    tdn_mm_database_joints(db, &root, &left, &right, &forward, NULL);
    const int joints = tdn_skeleton_joint_count(src->skeleton);
    if (root < 0 || root >= joints || left < 0 || left >= joints || right < 0 || right >= joints) {
        fprintf(stderr, "tendon mm run: %s: %s\n", a->db,
                root < 0 ? "a database made from features has no clips to play"
                         : "its root and feet are not joints of the FILEs' skeleton");
        return CLI_BAD_INPUT;
    }
    const float rate = tdn_mm_database_sample_rate(db);
    *mirrored = 0;
    for (int c = 0; c < clips; c++) {
        const int want = mm_clip_frames(src->clips[c], rate), have = tdn_mm_database_clip_frames(db, c, 0);
        const int have_mirrored = tdn_mm_database_clip_frames(db, c, 1);
        if (have != want || (have_mirrored != 0 && have_mirrored != want)) {
            fprintf(stderr, "tendon mm run: clip %d (\"%s\" of %s) has %d frames at %g Hz, the database's clip %d has %d: "
                            "give the files it was built from, in the same order\n",
                    c, tdn_keyed_clip_name(src->clips[c]), a->files[src->clip_file[c]], want, (double)rate, c, have);
            return CLI_BAD_INPUT;
        }
        *mirrored |= have_mirrored > 0;
    }
    /* the feet */
    const int dims = tdn_mm_database_dimensions(db), foot_at = tdn_mm_database_group_start(db, TDN_MM_FOOT_POSITION);
    tdn_pose pose;
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)joints);
    float *raw = malloc(sizeof(float) * (size_t)dims);
    if (!model || !raw || tdn_pose_create(joints, &pose, NULL, NULL) != TDN_OK) {
        free(model);
        free(raw);
        fprintf(stderr, "tendon mm run: out of memory\n");
        return CLI_FAILURE;
    }
    int code = CLI_OK;
    for (int c = 0; c < clips && code == CLI_OK; c++) {
        const int f = tdn_mm_database_clip_frames(db, c, 0) / 2, i = tdn_mm_database_clip_first(db, c, 0) + f;
        const float *normalized = tdn_mm_database_features(db, i);
        int weighted = 0;
        for (int k = 0; k < 6; k++)
            weighted |= normalized[foot_at + k] != 0.0f;
        if (!weighted) /* a foot-position weight of 0 keeps no positions to compare */
            continue;
        tdn_mm_frame frame;
        tdn_mm_database_frame(db, i, &frame, NULL);
        const float duration = tdn_keyed_clip_duration(src->clips[c]), t = (float)f / rate;
        tdn_keyed_clip_sample(src->clips[c], t < duration ? t : duration, &pose, NULL, NULL);
        tdn_model_space(src->skeleton, &pose, NULL, model, NULL);
        tdn_mm_database_denormalize(db, normalized, raw, NULL);
        for (int side = 0; side < 2 && code == CLI_OK; side++) {
            const float *m = model[side ? right : left].m;
            tdn_vec3 p = into_root(tdn_vec3_sub(tdn_vec3_make(m[12], m[13], m[14]), frame.root), frame.facing);
            const float *q = raw + foot_at + 3 * side;
            const float d = sqrtf((p.x - q[0]) * (p.x - q[0]) + (p.y - q[1]) * (p.y - q[1]) + (p.z - q[2]) * (p.z - q[2]));
            const float size = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
            if (!(d <= 1e-3f + 0.01f * size)) {
                fprintf(stderr, "tendon mm run: clip %d (\"%s\" of %s) at %g s: its %s foot is at (%.4g, %.4g, %.4g) "
                                "from the simulation root, in the database at (%.4g, %.4g, %.4g): not the clips the "
                                "database was built from (another --scale, or other files?)\n",
                        c, tdn_keyed_clip_name(src->clips[c]), a->files[src->clip_file[c]], (double)t,
                        side ? "right" : "left", (double)p.x, (double)p.y, (double)p.z, (double)q[0], (double)q[1],
                        (double)q[2]);
                code = CLI_BAD_INPUT;
            }
        }
    }
    tdn_pose_destroy(&pose);
    free(model);
    free(raw);
    return code;
}

/* ---- the feet ---- */

static int by_value(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Each foot's ground height: the GROUND_PERCENTILE quantile of its model-space height over the
 * clips played as they are at the database's rate. */
static int ground_heights(const tdn_mm_database *db, const mm_source *src, const int feet[2], float out[2])
{
    const float rate = tdn_mm_database_sample_rate(db);
    const int joints = tdn_skeleton_joint_count(src->skeleton);
    int total = 0;
    for (int c = 0; c < src->clip_count; c++)
        total += mm_clip_frames(src->clips[c], rate);
    float *heights = malloc(sizeof(float) * 2 * (size_t)total);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)joints);
    tdn_pose pose;
    if (!heights || !model || tdn_pose_create(joints, &pose, NULL, NULL) != TDN_OK) {
        free(heights);
        free(model);
        return 0;
    }
    int n = 0;
    for (int c = 0; c < src->clip_count; c++) {
        const float duration = tdn_keyed_clip_duration(src->clips[c]);
        for (int f = 0; f < mm_clip_frames(src->clips[c], rate); f++, n++) {
            const float t = (float)f / rate;
            tdn_keyed_clip_sample(src->clips[c], t < duration ? t : duration, &pose, NULL, NULL);
            tdn_model_space(src->skeleton, &pose, NULL, model, NULL);
            heights[n] = model[feet[0]].m[13];
            heights[total + n] = model[feet[1]].m[13];
        }
    }
    for (int side = 0; side < 2; side++) {
        qsort(heights + side * total, (size_t)total, sizeof(float), by_value);
        out[side] = heights[side * total + (int)(GROUND_PERCENTILE * (total - 1))];
    }
    tdn_pose_destroy(&pose);
    free(heights);
    free(model);
    return 1;
}

/* The foot skate of the clips themselves, played as they are at fps (run 1 of the metric). */
static int source_skate(foot_skate *skate, const mm_source *src, float fps)
{
    tdn_pose pose;
    if (tdn_pose_create(tdn_skeleton_joint_count(src->skeleton), &pose, NULL, NULL) != TDN_OK)
        return 0;
    foot_skate_begin(skate, 1);
    for (int c = 0; c < src->clip_count; c++) {
        const float duration = tdn_keyed_clip_duration(src->clips[c]);
        foot_skate_cut(skate);
        const int frames = mm_clip_frames(src->clips[c], fps); /* the frames at fps; -1 beyond 2^24: none */
        for (int f = 0; f < frames; f++) {
            const float t = (float)f / fps;
            tdn_keyed_clip_sample(src->clips[c], t < duration ? t : duration, &pose, NULL, NULL);
            foot_skate_frame(skate, NULL, &pose, NULL);
        }
    }
    tdn_pose_destroy(&pose);
    return 1;
}

/* ---- the run ---- */

typedef struct errors {
    double position_sum, position_max, facing_sum, facing_max;
    int count;
} errors;

typedef struct run_state {
    tdn_mm_database *db;
    mm_source src;
    int src_loaded;
    mm_path path;
    tdn_mm_controller *controller;
    tdn_pose pose;
    baked_frames baked;    /* --out: every frame's pose */
    foot_skate skate;
    trace_writer trace;
    int trace_open;
} run_state;

static void release(run_state *s)
{
    if (s->trace_open && s->trace.file)
        fclose(s->trace.file);
    baked_frames_free(&s->baked);
    foot_skate_free(&s->skate);
    tdn_pose_destroy(&s->pose);
    tdn_mm_controller_destroy(s->controller);
    mm_path_free(&s->path);
    if (s->src_loaded)
        mm_source_free(&s->src);
    tdn_mm_database_destroy(s->db);
}

static void tw_vec3(trace_writer *w, const char *key, tdn_vec3 v)
{
    const float f[3] = { v.x, v.y, v.z };
    tw_floats(w, key, f, 3);
}

static void trace_header(run_state *s, const run_args *a, int frame_count, const float grounds[2])
{
    trace_writer *w = &s->trace;
    tw_begin_object(w, NULL);
    tw_string(w, "database", a->db);
    tw_begin_array(w, "files");
    for (int i = 0; i < a->file_count; i++)
        tw_string(w, NULL, a->files[i]);
    tw_end_array(w);
    tw_string(w, "path", a->path);
    tw_float(w, "fps", a->fps);
    tw_double(w, "seconds", (double)(frame_count - 1) / a->fps);
    tw_int(w, "frame_count", frame_count);
    tw_float(w, "rate", tdn_mm_database_sample_rate(s->db));
    tw_float(w, "bias", a->bias);
    tw_float(w, "interval", a->interval > 0.0f ? a->interval : TDN_MM_DEFAULT_SEARCH_INTERVAL);
    tw_bool(w, "lock_feet", a->lock_feet);
    tw_begin_array(w, "clips");
    for (int c = 0; c < s->src.clip_count; c++) {
        tw_begin_object(w, NULL);
        tw_string(w, "name", tdn_keyed_clip_name(s->src.clips[c]));
        tw_string(w, "file", a->files[s->src.clip_file[c]]);
        tw_float(w, "duration", tdn_keyed_clip_duration(s->src.clips[c]));
        tw_end_object(w);
    }
    tw_end_array(w);
    tw_begin_array(w, "feet");
    for (int f = 0; f < s->skate.count; f++) {
        tw_begin_object(w, NULL);
        tw_string(w, "name", foot_skate_name(&s->skate, f));
        tw_float(w, "ground", grounds[f]);
        tw_end_object(w);
    }
    tw_end_array(w);
    tw_newline(w);
    tw_begin_array(w, "frames");
}

static void trace_frame_write(run_state *s, int f, double time, int segment, const tdn_mm_input *in,
                              const tdn_mm_status *st, float position_error, float facing_error)
{
    trace_writer *w = &s->trace;
    tdn_mm_frame db_frame = { 0 };
    tdn_mm_database_frame(s->db, st->frame, &db_frame, NULL);
    tw_newline(w);
    tw_begin_object(w, NULL);
    tw_int(w, "frame", f);
    tw_double(w, "time", time);
    if (segment >= 0)
        tw_int(w, "segment", segment);
    else
        tw_null(w, "segment");
    tw_begin_object(w, "desired");
    tw_vec3(w, "velocity", in->velocity);
    tw_float(w, "facing", mm_degrees(in->facing));
    tw_end_object(w);
    tw_int(w, "database_frame", st->frame);
    tw_string(w, "clip", tdn_keyed_clip_name(s->src.clips[db_frame.clip]));
    tw_int(w, "clip_index", db_frame.clip);
    tw_float(w, "clip_time", db_frame.time);
    tw_bool(w, "mirrored", db_frame.mirrored);
    tw_float(w, "cost", st->cost);
    tw_bool(w, "searched", st->searched);
    tw_bool(w, "switched", st->switched);
    tw_vec3(w, "position", st->position);
    tw_float(w, "facing", mm_degrees(st->facing));
    tw_vec3(w, "simulated", st->simulated);
    tw_float(w, "simulated_facing", mm_degrees(st->simulated_facing));
    tw_float(w, "position_error", position_error);
    tw_float(w, "facing_error", facing_error);
    tw_begin_array(w, "feet");
    for (int k = 0; k < s->skate.count; k++) {
        tw_begin_object(w, NULL);
        tw_vec3(w, "position", s->skate.feet[k].prev);
        tw_bool(w, "contact", s->skate.feet[k].prev_contact);
        tw_end_object(w);
    }
    tw_end_array(w);
    tw_end_object(w);
}

static float wrap_degrees(float radians)
{
    double d = fmod((double)radians, 2.0 * 3.14159265358979323846);
    if (d > 3.14159265358979323846)
        d -= 2.0 * 3.14159265358979323846;
    if (d < -3.14159265358979323846)
        d += 2.0 * 3.14159265358979323846;
    return mm_degrees((float)d);
}

/* The summary as JSON (--json) or in the trace: the same fields. */
static cJSON *summary_json(const run_state *s, const run_args *a, int frame_count, int searches, int switches,
                           int rewinds, const errors *e, double travelled, const float grounds[2])
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "database", a->db);
    cJSON_AddStringToObject(doc, "path", a->path);
    cJSON_AddNumberToObject(doc, "frames", frame_count);
    cJSON_AddItemToObject(doc, "seconds", cli_json_float((float)((double)(frame_count - 1) / a->fps)));
    cJSON_AddItemToObject(doc, "fps", cli_json_float(a->fps));
    cJSON_AddNumberToObject(doc, "searches", searches);
    cJSON_AddNumberToObject(doc, "switches", switches);
    cJSON_AddNumberToObject(doc, "rewinds", rewinds);
    cJSON_AddItemToObject(doc, "travelled", cli_json_float((float)travelled));
    cJSON_AddItemToObject(doc, "errors_from", cli_json_float((float)STARTED));
    cJSON_AddNumberToObject(doc, "error_frames", e->count);
    cJSON *p = cJSON_AddObjectToObject(doc, "position_error");
    cJSON_AddItemToObject(p, "mean", cli_json_float(e->count ? (float)(e->position_sum / e->count) : NAN));
    cJSON_AddItemToObject(p, "max", cli_json_float(e->count ? (float)e->position_max : NAN));
    cJSON *f = cJSON_AddObjectToObject(doc, "facing_error");
    cJSON_AddItemToObject(f, "mean", cli_json_float(e->count ? (float)(e->facing_sum / e->count) : NAN));
    cJSON_AddItemToObject(f, "max", cli_json_float(e->count ? (float)e->facing_max : NAN));
    cJSON *k = cJSON_AddObjectToObject(doc, "foot_skate");
    cJSON_AddItemToObject(k, "mean_cm_per_s", cli_json_float((float)foot_skate_mean(&s->skate, 0)));
    cJSON_AddItemToObject(k, "source_mean_cm_per_s", cli_json_float((float)foot_skate_mean(&s->skate, 1)));
    cJSON_AddItemToObject(k, "contact_height", cli_json_float((float)FOOT_SKATE_CONTACT_HEIGHT));
    cJSON_AddItemToObject(k, "contact_speed", cli_json_float(CONTACT_SPEED));
    cJSON *feet = cJSON_AddArrayToObject(k, "feet");
    for (int i = 0; i < s->skate.count; i++) {
        const foot_skate_result *r = &s->skate.results[0][i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", foot_skate_name(&s->skate, i));
        cJSON_AddItemToObject(o, "ground", cli_json_float(grounds[i]));
        cJSON_AddItemToObject(o, "cm_per_s", cli_json_float((float)r->cm_per_s));
        cJSON_AddNumberToObject(o, "contact_frames", r->contact_frames);
        cJSON_AddNumberToObject(o, "contact_pairs", r->pairs);
        cJSON_AddItemToObject(o, "source_cm_per_s", cli_json_float((float)s->skate.results[1][i].cm_per_s));
        cJSON_AddItemToArray(feet, o);
    }
    if (a->trace)
        cJSON_AddStringToObject(doc, "trace", a->trace);
    else
        cJSON_AddNullToObject(doc, "trace");
    if (a->out)
        cJSON_AddStringToObject(doc, "baked", a->out);
    else
        cJSON_AddNullToObject(doc, "baked");
    return doc;
}

static void print_cm_s(double v)
{
    if (isfinite(v))
        printf("%.3g cm/s", v);
    else
        printf("n/a");
}

static void summary_text(const run_state *s, const run_args *a, int frame_count, int searches, int switches,
                         int rewinds, const errors *e, double travelled, const float grounds[2])
{
    const double seconds = (double)(frame_count - 1) / a->fps;
    printf("%s along %s: %d frames, %.6g s at %.6g fps (frame 0 at t = 0), %.4g m travelled\n", a->db, a->path,
           frame_count, seconds, (double)a->fps, travelled);
    printf("searches: %d, switches: %d (%.3g per second), rewinds: %d (switches back at most 1/3 s in the same clip)\n",
           searches, switches, seconds > 0 ? switches / seconds : 0.0, rewinds);
    if (e->count) {
        printf("root position error (character against simulation, from %g s): mean %.3g m, max %.3g m\n", STARTED,
               e->position_sum / e->count, e->position_max);
        printf("facing error (from %g s): mean %.3g degrees, max %.3g degrees\n", STARTED, e->facing_sum / e->count,
               e->facing_max);
    } else {
        printf("root position and facing errors: none (the run is shorter than %g s)\n", STARTED);
    }
    printf("foot skate (docs/metrics.md: mean horizontal speed while in contact: at most %g cm above its ground, "
           "at most %g m/s):\n",
           100.0 * FOOT_SKATE_CONTACT_HEIGHT, (double)CONTACT_SPEED);
    char name[CLI_TEXT_SIZE];
    for (int i = 0; i < s->skate.count; i++) {
        const foot_skate_result *r = &s->skate.results[0][i];
        printf("  %s: ", cli_text(foot_skate_name(&s->skate, i), name, sizeof name));
        print_cm_s(r->cm_per_s);
        printf(" (%d frames in contact; ground %.3g m; the clips as they are: ", r->contact_frames, (double)grounds[i]);
        print_cm_s(s->skate.results[1][i].cm_per_s);
        printf(")\n");
    }
    printf("foot skate: ");
    print_cm_s(foot_skate_mean(&s->skate, 0));
    printf(" (the clips as they are: ");
    print_cm_s(foot_skate_mean(&s->skate, 1));
    printf(")\n");
    if (a->trace)
        printf("trace: %s\n", a->trace);
    if (a->out)
        printf("baked: %s (%d frames at %.6g fps)\n", a->out, frame_count, (double)a->fps);
}

int cmd_mm_run(int argc, char **argv)
{
    run_args a = { 0 };
    int code = parse(argc, argv, &a);
    if (code != 0) {
        free(a.files);
        return code < 0 ? CLI_OK : code;
    }
    run_state s = { 0 };
    tdn_error err = { 0 };
    tdn_result r = tdn_mm_database_load(a.db, &s.db, NULL, &err);
    if (r != TDN_OK) {
        free(a.files);
        return cli_report("mm run", r, &err);
    }
    char why[2048] = "";
    int mirrored = 0;
    code = mm_source_load("mm run", a.files, a.file_count, &a.common, &s.src);
    s.src_loaded = code == CLI_OK;
    if (code == CLI_OK)
        code = match_database(&a, s.db, &s.src, &mirrored);
    if (code == CLI_OK && (code = mm_path_load(a.path, &s.path, why, sizeof why)) != CLI_OK)
        cli_say("mm run", why);
    if (code != CLI_OK) {
        release(&s);
        free(a.files);
        return code;
    }
    const double seconds = a.has_seconds ? (double)a.seconds : s.path.duration;
    if (seconds * a.fps > MAX_FRAMES) {
        fprintf(stderr, "tendon mm run: %g s at %g fps is more than %d frames\n", seconds, (double)a.fps, MAX_FRAMES);
        release(&s);
        free(a.files);
        return CLI_BAD_INPUT;
    }
    const int steps = (int)lround(seconds * a.fps), frame_count = steps + 1;
    const tdn_skeleton *skel = s.src.skeleton;
    const int joints = tdn_skeleton_joint_count(skel);

    tdn_mm_controller_desc desc = { 0 };
    desc.database = s.db;
    desc.skeleton = skel;
    desc.clips = s.src.clips;
    desc.clip_count = s.src.clip_count;
    desc.mirror_table = mirrored ? s.src.mirror : NULL;
    desc.bias = a.bias;
    desc.search_interval = a.interval;
    desc.foot_locking = a.lock_feet;
    r = tdn_mm_controller_create(&desc, &s.controller, NULL, &err);
    if (r != TDN_OK) {
        code = cli_report("mm run", r, &err);
        release(&s);
        free(a.files);
        return code;
    }
    int root, feet[2];
    tdn_vec3 forward;
    tdn_mm_database_joints(s.db, &root, &feet[0], &feet[1], &forward, NULL);
    float grounds[2];
    if (tdn_pose_create(joints, &s.pose, NULL, NULL) != TDN_OK || !ground_heights(s.db, &s.src, feet, grounds) ||
        !foot_skate_init_feet(&s.skate, skel, feet, grounds, 2, a.fps, CONTACT_SPEED) ||
        !source_skate(&s.skate, &s.src, a.fps)) {
        fprintf(stderr, "tendon mm run: out of memory\n");
        release(&s);
        free(a.files);
        return CLI_FAILURE;
    }
    if (a.out && !baked_frames_alloc(&s.baked, frame_count, joints)) {
        fprintf(stderr, "tendon mm run: out of memory for %d baked frames\n", frame_count);
        release(&s);
        free(a.files);
        return CLI_FAILURE;
    }
    if (a.trace) {
        s.trace.file = fopen(a.trace, "wb");
        if (!s.trace.file) {
            fprintf(stderr, "tendon mm run: %s: cannot create: %s\n", a.trace, strerror(errno));
            release(&s);
            free(a.files);
            return CLI_BAD_INPUT;
        }
        s.trace_open = 1;
        trace_header(&s, &a, frame_count, grounds);
    }

    errors e = { 0 };
    int searches = 0, switches = 0, rewinds = 0, previous = -1;
    const int rewind_frames = (int)lroundf(tdn_mm_database_sample_rate(s.db) / 3.0f);
    double travelled = 0.0;
    tdn_vec3 last = { 0 };
    foot_skate_begin(&s.skate, 0);
    progress_bar bar;
    progress_begin(&bar, a.out ? "tendon mm run: running and baking" : "tendon mm run: running", -1);
    for (int f = 0; f < frame_count && code == CLI_OK; f++) {
        progress_update(&bar, f, frame_count);
        const double time = f / (double)a.fps;
        int segment;
        const tdn_mm_input in = mm_path_input(&s.path, time, &segment);
        tdn_mm_status st;
        r = tdn_mm_controller_update(s.controller, &in, f == 0 ? 0.0f : 1.0f / a.fps, &s.pose, &st, NULL);
        if (r != TDN_OK) {
            code = cli_report("mm run", r, NULL);
            break;
        }
        foot_skate_frame(&s.skate, NULL, &s.pose, NULL);
        searches += st.searched;
        switches += st.switched;
        if (st.switched && previous >= 0) { /* back to a frame of the same run played at most 1/3 s ago */
            tdn_mm_frame was, now;
            tdn_mm_database_frame(s.db, previous, &was, NULL);
            tdn_mm_database_frame(s.db, st.frame, &now, NULL);
            rewinds += was.clip == now.clip && was.mirrored == now.mirrored && st.frame <= previous &&
                       st.frame >= previous - rewind_frames;
        }
        previous = st.frame;
        if (f > 0)
            travelled += sqrt(((double)st.position.x - last.x) * ((double)st.position.x - last.x) +
                              ((double)st.position.z - last.z) * ((double)st.position.z - last.z));
        last = st.position;
        const float dx = st.position.x - st.simulated.x, dz = st.position.z - st.simulated.z;
        const float position_error = sqrtf(dx * dx + dz * dz);
        const float facing_error = fabsf(wrap_degrees(st.facing - st.simulated_facing));
        if (time >= STARTED - 1e-9) {
            e.position_sum += position_error;
            e.facing_sum += facing_error;
            e.position_max = position_error > e.position_max ? position_error : e.position_max;
            e.facing_max = facing_error > e.facing_max ? facing_error : e.facing_max;
            e.count++;
        }
        if (a.out)
            tdn_pose_copy(&s.baked.poses[f], &s.pose, NULL);
        if (a.trace)
            trace_frame_write(&s, f, time, segment, &in, &st, position_error, facing_error);
    }
    progress_update(&bar, frame_count, frame_count);
    progress_end(&bar);
    if (code == CLI_OK && a.trace) {
        trace_writer *w = &s.trace;
        tw_end_array(w);
        tw_newline(w);
        cJSON *summary = summary_json(&s, &a, frame_count, searches, switches, rewinds, &e, travelled, grounds);
        char *text = summary ? cJSON_PrintUnformatted(summary) : NULL;
        cJSON_Delete(summary);
        if (text) {
            fprintf(w->file, ",\"summary\":%s}\n", text);
            cJSON_free(text);
        }
        const int failed = !text || ferror(w->file);
        const int closed = fclose(w->file) == 0;
        s.trace_open = 0;
        if (failed || !closed) {
            fprintf(stderr, "tendon mm run: %s: writing the trace failed\n", a.trace);
            code = CLI_FAILURE;
        }
    }
    if (code != CLI_OK && a.trace) {
        if (s.trace_open && s.trace.file)
            fclose(s.trace.file);
        s.trace_open = 0;
        remove(a.trace); /* no half-written trace */
    }
    if (code == CLI_OK && a.out)
        code = baked_frames_write(&s.baked, "mm run", a.out, a.path, a.fps, skel, s.src.assets[0]);
    if (code == CLI_OK) {
        if (a.common.json)
            code = cli_json_print(summary_json(&s, &a, frame_count, searches, switches, rewinds, &e, travelled, grounds));
        else
            summary_text(&s, &a, frame_count, searches, switches, rewinds, &e, travelled, grounds);
    }
    release(&s);
    free(a.files);
    return code;
}
