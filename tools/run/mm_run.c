/* tendon CLI: the machinery of `tendon mm run` (see mm_run.h). */
#include "mm_run.h"

#include <math.h>
#include <stdlib.h>

#include "baked_frames.h"
#include "foot_skate.h"
#include "mm_path.h"
#include "mm_source.h"
#include "progress.h"
#include "tendon/mm_controller.h"
#include "tendon/io/mm_database_file.h"
#include "tendon/io/pack_file.h"
#include "trace_writer.h"

#define MAX_FRAMES 1000000
#define STARTED 1.0            /* seconds: errors count from here on */
#define GROUND_PERCENTILE 0.05 /* a foot's ground height: this quantile of its height over the clips */
#define CONTACT_SPEED 0.5f     /* m/s: a foot faster than this is not in contact */

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
static int match_database(const mm_run_args *a, const tdn_mm_database *db, const mm_source *src, int *mirrored)
{
    const int clips = tdn_mm_database_clip_count(db);
    if (clips != src->clip_count) {
        fprintf(stderr,
                "tendon mm run: %s has %d clip%s, the FILEs give %d: give the files it was built from, in the "
                "same order\n",
                a->db, clips, clips == 1 ? "" : "s", src->clip_count);
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
        const int want = mm_clip_frames(src->clips[c], rate), have = tdn_mm_database_clip_frame_count(db, c, 0);
        const int have_mirrored = tdn_mm_database_clip_frame_count(db, c, 1);
        if (have != want || (have_mirrored != 0 && have_mirrored != want)) {
            fprintf(stderr,
                    "tendon mm run: clip %d (\"%s\" of %s) has %d frames at %g Hz, the database's clip %d has %d: "
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
        const int f = tdn_mm_database_clip_frame_count(db, c, 0) / 2;
        const int i = tdn_mm_database_clip_first_frame(db, c, 0) + f;
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
            const float d = sqrtf((p.x - q[0]) * (p.x - q[0]) + (p.y - q[1]) * (p.y - q[1]) +
                                  (p.z - q[2]) * (p.z - q[2]));
            const float size = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
            if (!(d <= 1e-3f + 0.01f * size)) {
                fprintf(stderr,
                        "tendon mm run: clip %d (\"%s\" of %s) at %g s: its %s foot is at (%.4g, %.4g, %.4g) "
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

/* What a run measures as it goes, for the summary. */
typedef struct measures {
    int searches, switches, rewinds; /* rewinds: switches back at most 1/3 s in the same run of a clip */
    double travelled;                /* metres, on the ground */
    /* the root position (metres) and facing (degrees) errors, from STARTED on */
    double position_sum, position_max, facing_sum, facing_max;
    int count;
} measures;

typedef struct run_state {
    tdn_mm_database *db;
    mm_source src;
    int src_loaded;
    mm_path path;
    tdn_mm_controller *controller;
    tdn_pose pose;
    baked_frames baked; /* --out: every frame's pose */
    foot_skate skate;
    float grounds[2];   /* each foot's ground height */
    trace_writer trace; /* --trace (its file NULL when closed) */
    measures m;
} run_state;

static void release(run_state *s)
{
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

static void trace_header(run_state *s, const mm_run_args *a, int frame_count)
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
        tw_float(w, "ground", s->grounds[f]);
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
static cJSON *summary_json(const run_state *s, const mm_run_args *a, int frame_count)
{
    const measures *e = &s->m;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "database", a->db);
    cJSON_AddStringToObject(doc, "path", a->path);
    cJSON_AddNumberToObject(doc, "frames", frame_count);
    cJSON_AddItemToObject(doc, "seconds", cli_json_float((float)((double)(frame_count - 1) / a->fps)));
    cJSON_AddItemToObject(doc, "fps", cli_json_float(a->fps));
    cJSON_AddNumberToObject(doc, "searches", e->searches);
    cJSON_AddNumberToObject(doc, "switches", e->switches);
    cJSON_AddNumberToObject(doc, "rewinds", e->rewinds);
    cJSON_AddItemToObject(doc, "travelled", cli_json_float((float)e->travelled));
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
        cJSON_AddItemToObject(o, "ground", cli_json_float(s->grounds[i]));
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

static void summary_text(const run_state *s, const mm_run_args *a, int frame_count)
{
    const measures *e = &s->m;
    const int switches = e->switches;
    const double seconds = (double)(frame_count - 1) / a->fps;
    printf("%s along %s: %d frames, %.6g s at %.6g fps (frame 0 at t = 0), %.4g m travelled\n", a->db, a->path,
           frame_count, seconds, (double)a->fps, e->travelled);
    printf("searches: %d, switches: %d (%.3g per second), rewinds: %d (switches back at most 1/3 s in the same clip)\n",
           e->searches, switches, seconds > 0 ? switches / seconds : 0.0, e->rewinds);
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
        printf(" (%d frames in contact; ground %.3g m; the clips as they are: ", r->contact_frames,
               (double)s->grounds[i]);
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

/* The database of the pack a->db: the one --database names, or its only one. An exit code,
 * having said why. */
static int pack_database(const mm_run_args *a, tdn_mm_database **out)
{
    cli_access access;
    tdn_pack_file_load_options options = { 0 };
    options.file_access = cli_file_access(&access, &a->common.files, a->db);
    tdn_pack_file *file = NULL;
    tdn_error err = { 0 };
    tdn_result r = tdn_pack_file_load(a->db, &options, &file, NULL, &err);
    if (r != TDN_OK)
        return cli_report("mm run", r, &err);
    const tdn_pack *pack = tdn_pack_file_pack(file);
    const int count = tdn_pack_database_count(pack);
    const int i = a->database ? tdn_pack_find_database(pack, a->database) : count == 1 ? 0 : -1;
    int code = CLI_OK;
    char name[CLI_TEXT_SIZE];
    if (i >= 0) {
        r = tdn_pack_database_load(pack, i, out, NULL, &err);
        code = r == TDN_OK ? CLI_OK : cli_report("mm run", r, &err);
    } else if (a->database) {
        fprintf(stderr, "tendon mm run: %s: the pack has no database named '%s' (tendon info lists them)\n",
                cli_text(a->db, name, sizeof name), a->database);
        code = CLI_BAD_INPUT;
    } else {
        fprintf(stderr, "tendon mm run: %s: the pack holds %d databases: %s\n", cli_text(a->db, name, sizeof name),
                count, count ? "--database NAME chooses one (tendon info lists them)" : "nothing to run");
        code = CLI_BAD_INPUT;
    }
    tdn_pack_file_destroy(file);
    return code;
}

/* The database, the clips checked against it, and the path. An exit code, having said why;
 * *mirrored: the database has the clips' mirror images. */
static int load(const mm_run_args *a, run_state *s, int *mirrored)
{
    tdn_error err = { 0 };
    int code = CLI_OK;
    if (cli_is_pack(a->db)) {
        code = pack_database(a, &s->db);
    } else {
        const tdn_result r = tdn_mm_database_load(a->db, NULL, &s->db, NULL, &err);
        code = r == TDN_OK ? CLI_OK : cli_report("mm run", r, &err);
    }
    if (code != CLI_OK)
        return code;
    code = mm_source_load("mm run", a->files, a->file_count, &a->common, &s->src);
    s->src_loaded = code == CLI_OK;
    if (code == CLI_OK)
        code = match_database(a, s->db, &s->src, mirrored);
    char why[2048] = "";
    if (code == CLI_OK && (code = mm_path_load(a->path, &s->path, why, sizeof why)) != CLI_OK)
        cli_say("mm run", why);
    return code;
}

/* The controller, the feet (their ground heights, and the foot skate of the clips played as
 * they are) and the outputs: the baked frames, the trace's header. An exit code, having said
 * why. */
static int prepare(const mm_run_args *a, run_state *s, int mirrored, int frame_count)
{
    const tdn_skeleton *skel = s->src.skeleton;
    tdn_mm_controller_desc desc = { 0 };
    desc.database = s->db;
    desc.skeleton = skel;
    desc.clips = s->src.clips;
    desc.clip_count = s->src.clip_count;
    desc.mirror_table = mirrored ? s->src.mirror : NULL;
    desc.bias = a->bias;
    desc.search_interval = a->interval;
    desc.foot_locking = a->lock_feet;
    tdn_error err = { 0 };
    tdn_result r = tdn_mm_controller_create(&desc, &s->controller, NULL, &err);
    if (r != TDN_OK)
        return cli_report("mm run", r, &err);
    int root, feet[2];
    tdn_vec3 forward;
    tdn_mm_database_joints(s->db, &root, &feet[0], &feet[1], &forward, NULL);
    const int joints = tdn_skeleton_joint_count(skel);
    if (tdn_pose_create(joints, &s->pose, NULL, NULL) != TDN_OK || !ground_heights(s->db, &s->src, feet, s->grounds) ||
        !foot_skate_init_feet(&s->skate, skel, feet, s->grounds, 2, a->fps, CONTACT_SPEED) ||
        !source_skate(&s->skate, &s->src, a->fps)) {
        fprintf(stderr, "tendon mm run: out of memory\n");
        return CLI_FAILURE;
    }
    if (a->out && !baked_frames_alloc(&s->baked, frame_count, joints)) {
        fprintf(stderr, "tendon mm run: out of memory for %d baked frames\n", frame_count);
        return CLI_FAILURE;
    }
    if (a->trace) {
        r = tw_open(&s->trace, a->trace, &err);
        if (r != TDN_OK)
            return cli_report("mm run", r, &err);
        trace_header(s, a, frame_count);
    }
    return CLI_OK;
}

/* Frame f's measures: searches, switches and rewinds, the distance travelled, the errors. */
static void measure(run_state *s, const tdn_mm_status *st, double time, int *previous, tdn_vec3 *last, int f,
                    float *position_error, float *facing_error)
{
    measures *m = &s->m;
    m->searches += st->searched;
    m->switches += st->switched;
    if (st->switched && *previous >= 0) { /* back to a frame of the same run played at most 1/3 s ago */
        const int rewind_frames = (int)lroundf(tdn_mm_database_sample_rate(s->db) / 3.0f);
        tdn_mm_frame was, now;
        tdn_mm_database_frame(s->db, *previous, &was, NULL);
        tdn_mm_database_frame(s->db, st->frame, &now, NULL);
        m->rewinds += was.clip == now.clip && was.mirrored == now.mirrored && st->frame <= *previous &&
                      st->frame >= *previous - rewind_frames;
    }
    *previous = st->frame;
    if (f > 0)
        m->travelled += sqrt(((double)st->position.x - last->x) * ((double)st->position.x - last->x) +
                             ((double)st->position.z - last->z) * ((double)st->position.z - last->z));
    *last = st->position;
    const float dx = st->position.x - st->simulated.x, dz = st->position.z - st->simulated.z;
    *position_error = sqrtf(dx * dx + dz * dz);
    *facing_error = fabsf(wrap_degrees(st->facing - st->simulated_facing));
    if (time >= STARTED - 1e-9) {
        m->position_sum += *position_error;
        m->facing_sum += *facing_error;
        m->position_max = *position_error > m->position_max ? *position_error : m->position_max;
        m->facing_max = *facing_error > m->facing_max ? *facing_error : m->facing_max;
        m->count++;
    }
}

/* Every frame: the path's input, the controller's update, the foot skate, the measures, the
 * baked pose and the trace's line. An exit code. */
static int run_frames(const mm_run_args *a, run_state *s, int frame_count)
{
    int code = CLI_OK, previous = -1;
    tdn_vec3 last = { 0 };
    foot_skate_begin(&s->skate, 0);
    progress_bar bar;
    progress_begin(&bar, a->out ? "tendon mm run: running and baking" : "tendon mm run: running", -1);
    for (int f = 0; f < frame_count; f++) {
        progress_update(&bar, f, frame_count);
        const double time = f / (double)a->fps;
        int segment;
        const tdn_mm_input in = mm_path_input(&s->path, time, &segment);
        tdn_mm_status st;
        const tdn_result r = tdn_mm_controller_update(s->controller, &in, f == 0 ? 0.0f : 1.0f / a->fps, &s->pose, &st,
                                                      NULL);
        if (r != TDN_OK) {
            code = cli_report("mm run", r, NULL);
            break;
        }
        foot_skate_frame(&s->skate, NULL, &s->pose, NULL);
        float position_error, facing_error;
        measure(s, &st, time, &previous, &last, f, &position_error, &facing_error);
        if (a->out)
            tdn_pose_copy(&s->baked.poses[f], &s->pose, NULL);
        if (a->trace)
            trace_frame_write(s, f, time, segment, &in, &st, position_error, facing_error);
    }
    progress_update(&bar, frame_count, frame_count);
    progress_end(&bar);
    return code;
}

/* Ends the open trace with the summary when the run succeeded (`code`); otherwise, or when that
 * fails, drops it, leaving what was at its path as it was: no half-written trace. Returns the
 * exit code. */
static int close_trace(const mm_run_args *a, run_state *s, int frame_count, int code)
{
    if (code == CLI_OK) {
        trace_writer *w = &s->trace;
        tw_end_array(w);
        tw_newline(w);
        cJSON *summary = summary_json(s, a, frame_count);
        char *text = summary ? cJSON_PrintUnformatted(summary) : NULL;
        cJSON_Delete(summary);
        if (!text) {
            fprintf(stderr, "tendon mm run: %s: out of memory for the trace's summary\n", a->trace);
            code = CLI_FAILURE;
        } else {
            fprintf(w->output.file, ",\"summary\":%s}\n", text);
            cJSON_free(text);
            tdn_error err = { 0 };
            const tdn_result r = tw_close(w, &err);
            if (r != TDN_OK) {
                cli_report("mm run", r, &err);
                code = CLI_FAILURE;
            }
        }
    }
    if (code != CLI_OK)
        tw_discard(&s->trace);
    return code;
}

int mm_run(const mm_run_args *a)
{
    run_state s = { 0 };
    int mirrored = 0;
    int code = load(a, &s, &mirrored);
    const double seconds = code == CLI_OK && !a->has_seconds ? s.path.duration : (double)a->seconds;
    if (code == CLI_OK && seconds * a->fps > MAX_FRAMES) {
        fprintf(stderr, "tendon mm run: %g s at %g fps is more than %d frames\n", seconds, (double)a->fps, MAX_FRAMES);
        code = CLI_BAD_INPUT;
    }
    const int frame_count = code == CLI_OK ? (int)lround(seconds * a->fps) + 1 : 0;
    if (code == CLI_OK)
        code = prepare(a, &s, mirrored, frame_count);
    if (code == CLI_OK)
        code = run_frames(a, &s, frame_count);
    if (s.trace.output.file)
        code = close_trace(a, &s, frame_count, code);
    if (code == CLI_OK && a->out)
        code = baked_frames_write(&s.baked, "mm run", a->out, a->path, a->fps, s.src.skeleton, s.src.assets[0]);
    if (code == CLI_OK) {
        if (a->common.json)
            code = cli_json_print(summary_json(&s, a, frame_count));
        else
            summary_text(&s, a, frame_count);
    }
    release(&s);
    return code;
}
