/* tendon CLI: running a graph document over time (see run_graph.h). */
#include "run_graph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "baked_frames.h"
#include "cli.h"
#include "foot_skate.h"
#include "graph_extras.h"
#include "pop_metric.h"
#include "progress.h"
#include "tendon/io/graph_document.h"
#include "tendon/io/pack_file.h"
#include "timeline.h"
#include "trace.h"

static int is_identity(const tdn_root_motion *m)
{
    return m->translation.x == 0.0f && m->translation.y == 0.0f && m->translation.z == 0.0f && m->rotation.x == 0.0f &&
           m->rotation.y == 0.0f && m->rotation.z == 0.0f && fabsf(m->rotation.w) == 1.0f;
}

typedef struct run_state {
    tdn_pack_file *pack; /* a->graph when it is a pack: the document's skeleton and clips */
    tdn_graph_document *doc;
    /* the character the run shows: the document's, or the one its graph drives ("retarget":
     * then the instance writes that character's poses, the graph's own is its source pose) */
    const tdn_retarget *retarget;
    const tdn_skeleton *skel;
    const tdn_asset *asset;
    tdn_graph_instance *instance;
    timeline *tl;
    tdn_pose pose;      /* the shown character's */
    baked_frames baked; /* --out: every frame's pose */
    pop_recorder *pop;
    trace_writer trace;  /* --trace (its file NULL when closed) */
    tdn_vec3 *positions; /* --out: the integrated root transform per frame */
    tdn_quat *facings;
    graph_extras extras;
    foot_skate skate;
    int skate_ready;
    ground ground;   /* --ground (what ground_query reads) */
    int second_run;  /* a foot placement job and a ground: run again without foot locking */
    tdn_mat4 *model; /* this frame's model space, placed in the world (one per joint) */
    /* --render: the frames drawn, the skeleton's parents as ints, and the IK jobs' target
     * parameters (and weight: a parameter, or a constant) */
    preview_clip preview;
    int *parents;
    int target_count;
    int target_param[TDN_MAX_GRAPH_IK], weight_param[TDN_MAX_GRAPH_IK];
    float weight_const[TDN_MAX_GRAPH_IK];
    run_report rep; /* timings and the IK error (run_graph's report) */
    double ik_error_sum;
    tdn_mat4 *ik_model; /* when the IK error is measured (a report asked for, a ground): the
                         * character-frame model space it is measured in */
} run_state;

static void release(run_state *s)
{
    baked_frames_free(&s->baked);
    free(s->positions);
    free(s->facings);
    pop_recorder_destroy(s->pop);
    tdn_pose_destroy(&s->pose);
    timeline_destroy(s->tl);
    tdn_graph_instance_destroy(s->instance);
    foot_skate_free(&s->skate); /* also a partly made one */
    preview_clip_free(&s->preview);
    free(s->parents);
    free(s->model);
    free(s->ik_model);
    tdn_graph_document_destroy(s->doc);
    tdn_pack_file_destroy(s->pack); /* after the document, which plays its clips */
    graph_extras_free(&s->extras);
}

/* The character's frame in the world for foot placement and the foot skate: the integrated root
 * motion when the graph extracts it, else the identity (the pose carries its root motion). */
static tdn_mat4 world_of(const run_state *s, tdn_vec3 position, tdn_quat facing)
{
    if (!s->extras.extract)
        return tdn_mat4_identity();
    tdn_transform x = { position, facing, { 1.0f, 1.0f, 1.0f } };
    return tdn_transform_to_mat4(&x);
}

static void print_cm_s(double v)
{
    if (isfinite(v))
        printf("%.4g cm/s", v);
    else
        printf("n/a");
}

static void skate_summary(const run_args *a, const run_state *s)
{
    const foot_skate *k = &s->skate;
    if (k->count == 0) {
        printf("foot skate: none (no foot placement job, and no foot joint found by name)\n");
        return;
    }
    char rule[96], name[CLI_TEXT_SIZE];
    double travel, slide;
    const int in_place = foot_skate_in_place(k, 0, &travel, &slide);
    printf("foot skate (docs/metrics.md: mean horizontal speed of the foot in world space while in contact):\n");
    for (int f = 0; f < k->count; f++) {
        const foot_skate_result *r = &k->results[0][f];
        printf("  %s: ", cli_text(foot_skate_name(k, f), name, sizeof name));
        print_cm_s(r->cm_per_s);
        if (in_place)
            printf(", sliding in place");
        if (s->second_run) {
            printf(" with foot locking, ");
            print_cm_s(k->results[1][f].cm_per_s);
            printf(" without");
        }
        printf(" (%d frames in contact, contact by %s)\n", r->contact_frames,
               foot_skate_contact_rule(k, f, rule, sizeof rule));
    }
    printf("foot skate: ");
    if (in_place) { /* the figure would read as a failure: say what it is */
        printf("n/a, in place (the character's centre stayed within %.3g m of where it started while each foot slid "
               "%.3g m in contact, ",
               travel, slide);
        print_cm_s(foot_skate_mean(k, 0));
        printf(": clips made to play on the spot slide their planted feet by design; ");
    } else {
        print_cm_s(foot_skate_mean(k, 0));
        if (s->second_run) {
            printf(" with foot locking, ");
            print_cm_s(foot_skate_mean(k, 1));
            printf(" without");
        }
        printf(" (");
    }
    printf("%d feet%s, ", k->count, k->by_name ? " found by name" : "");
    if (a->has_ground)
        printf("ground %s%s)\n", a->ground.spec, foot_skate_has_job(k) ? "" : "; no foot placement job");
    else
        printf("no ground%s)\n", foot_skate_has_job(k) ? ": foot placement off" : ", y = 0");
}

/* Whether the integrated root motion goes on `joint` of the shown character: the root-motion
 * joint, in its parent frame, which is the character's frame root motion is in; on a character
 * the graph drives, its roots, whose parent frame is its model frame (the frame of its root
 * motion, scaled). */
static int carries_root_motion(const run_state *s, int joint)
{
    return s->retarget ? tdn_skeleton_parent(s->skel, joint) < 0 : joint == s->extras.root_motion.joint;
}

static int bake(const run_args *a, run_state *s, int frame_count, int apply_root)
{
    for (int joint = 0; apply_root && joint < tdn_skeleton_joint_count(s->skel); joint++) {
        if (!carries_root_motion(s, joint))
            continue;
        for (int f = 0; f < frame_count; f++) {
            tdn_transform world = { s->positions[f], s->facings[f], { 1.0f, 1.0f, 1.0f } };
            tdn_transform root = tdn_pose_get(&s->baked.poses[f], joint);
            tdn_transform placed = tdn_transform_mul(&world, &root);
            tdn_pose_set(&s->baked.poses[f], joint, &placed);
        }
    }
    return baked_frames_write(&s->baked, "run", a->out, a->graph, a->fps, s->skel, s->asset);
}

static void summary(const run_args *a, run_state *s, int frame_count, int any_motion, int apply_root,
                    const tdn_vec3 *position, tdn_quat facing)
{
    const tdn_graph *g = tdn_graph_document_graph(s->doc);
    printf("%s: %d frames, %.6g s at %.6g fps (frame 0 at t = 0)", a->graph, frame_count,
           (double)(frame_count - 1) / a->fps, (double)a->fps);
    if (a->params)
        printf(", %d of %d timeline events applied", timeline_applied_count(s->tl), timeline_event_count(s->tl));
    printf("\n");
    if (s->retarget) {
        const cJSON *to = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(s->extras.json, "retarget"),
                                                           "to");
        const cJSON *file = cJSON_GetObjectItemCaseSensitive(to, "file");
        char shown[CLI_TEXT_SIZE];
        printf("retarget: the graph drives %s (%d joints), root motion and hips' travel scaled by %.4g\n",
               cJSON_IsString(file) ? cli_text(file->valuestring, shown, sizeof shown) : "the generated humanoid",
               tdn_skeleton_joint_count(s->skel), (double)tdn_retarget_scale(s->retarget));
    }
    if (any_motion) {
        double yaw = 2.0 * atan2((double)facing.y, (double)facing.w) * 180.0 / 3.14159265358979323846;
        printf("root motion: ended at (%.4g, %.4g, %.4g), turned %.4g degrees about y\n", (double)position->x,
               (double)position->y, (double)position->z, yaw);
    } else {
        printf("root motion: none reported by the graph\n");
    }
    const pop_transition *t = NULL;
    int count = s->pop ? pop_recorder_transitions(s->pop, &t) : 0;
    int worst = -1;
    char name[32], node[CLI_TEXT_SIZE], from[CLI_TEXT_SIZE], to[CLI_TEXT_SIZE];
    if (count)
        printf("transitions (pop: the largest per-frame rotation change over its bound, docs/metrics.md):\n");
    for (int k = 0; k < count; k++) {
        const pop_transition *x = &t[k];
        /* the document's duration: an inertialization or a cut completes in the update it starts in */
        printf("  %s: %s -> %s  start %.4f s  duration %.4f s  %s%s  pop %.3f\n",
               cli_text(trace_node_name(g, x->machine, name, sizeof name), node, sizeof node),
               x->from >= 0 ? cli_text(tdn_graph_state_name(g, x->machine, x->from), from, sizeof from) : "?",
               x->to >= 0 ? cli_text(tdn_graph_state_name(g, x->machine, x->to), to, sizeof to) : "?",
               x->start_frame / (double)a->fps,
               x->declared_seconds > 0.0 ? x->declared_seconds : (x->end_frame - x->start_frame + 1) / (double)a->fps,
               trace_transition_mode(x),
               x->interrupted ? " (interrupted)"
               : !x->finished ? " (unfinished)"
                              : "",
               x->pop);
        if (worst < 0 || x->pop > t[worst].pop)
            worst = k;
    }
    if (worst >= 0)
        printf("worst pop: %.3f (%s: %s -> %s at %.4f s)\n", t[worst].pop,
               cli_text(trace_node_name(g, t[worst].machine, name, sizeof name), node, sizeof node),
               t[worst].from >= 0
                   ? cli_text(tdn_graph_state_name(g, t[worst].machine, t[worst].from), from, sizeof from)
                   : "?",
               t[worst].to >= 0 ? cli_text(tdn_graph_state_name(g, t[worst].machine, t[worst].to), to, sizeof to) : "?",
               t[worst].start_frame / (double)a->fps);
    else
        printf("worst pop: none (no transitions)\n");
    skate_summary(a, s);
    if (a->trace)
        printf("trace: %s\n", a->trace);
    if (a->out)
        printf("baked: %s (%d frames at %.6g fps%s%s%s)\n", a->out, frame_count, (double)a->fps,
               apply_root ? ", the integrated root motion put back on joint " : "",
               apply_root ? tdn_skeleton_joint_name(s->skel, s->retarget ? 0 : s->extras.root_motion.joint) : "",
               apply_root ? " (the graph extracts it)" : "");
}

/* --render: what frame f shows, in world space. */
static void record_preview(const run_args *a, run_state *s, const tdn_graph_instance *instance, int f,
                           const tdn_mat4 *world)
{
    preview_clip *c = &s->preview;
    preview_clip_set_pose(c, f, s->skel, s->model); /* s->model: this frame's, in the world */
    for (int k = 0; k < c->foot_count; k++) {
        const foot_skate_foot *foot = &s->skate.feet[k];
        const size_t i = (size_t)f * (size_t)c->foot_count + (size_t)k;
        const double y = a->has_ground ? ground_height(&s->ground, foot->prev.x, foot->prev.z, NULL) : 0.0;
        c->feet[i] = tdn_vec3_make(foot->prev.x, (float)y, foot->prev.z);
        c->contact[i] = (unsigned char)(foot->prev_contact != 0);
    }
    for (int t = 0; t < c->target_count; t++) {
        const size_t i = (size_t)f * (size_t)c->target_count + (size_t)t;
        const int p = s->target_param[t];
        const tdn_vec3 model = tdn_vec3_make(tdn_graph_param_value(instance, p, 0),
                                             tdn_graph_param_value(instance, p, 1),
                                             tdn_graph_param_value(instance, p, 2));
        const float weight = s->weight_param[t] >= 0 ? tdn_graph_param_value(instance, s->weight_param[t], 0)
                                                     : s->weight_const[t];
        c->targets[i] = tdn_mat4_transform_point(world, model);
        c->target_on[i] = weight > 0.001f;
    }
}

/* --render: the frames' storage, after the feet are known. 0 when out of memory. */
static int prepare_preview(run_state *s, int frame_count)
{
    const tdn_skeleton *skel = s->skel;
    const int joints = tdn_skeleton_joint_count(skel);
    /* IK targets are in the graph's model space: on a character it drives they would not be */
    s->target_count = s->retarget
                          ? 0
                          : graph_extras_ik_targets(&s->extras, tdn_graph_document_graph(s->doc), TDN_MAX_GRAPH_IK,
                                                    s->target_param, s->weight_param, s->weight_const);
    s->parents = malloc(sizeof(int) * (size_t)(joints + 1));
    const char **names = malloc(sizeof(char *) * (size_t)(joints + 1));
    int ok = s->parents && names;
    for (int j = 0; ok && j < joints; j++) {
        s->parents[j] = tdn_skeleton_parent(skel, j);
        names[j] = tdn_skeleton_joint_name(skel, j);
    }
    ok = ok && preview_clip_init(&s->preview, frame_count, joints, s->parents, names, s->skate.count, s->target_count);
    free(names);
    return ok;
}

static double distance(const float *a, const float *b)
{
    const double dx = (double)a[12] - b[12], dy = (double)a[13] - b[13], dz = (double)a[14] - b[14];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* The IK error (docs/metrics.md) for the foot placement jobs that ran this frame: each ankle's
 * distance from the target the job solved for, and the change of its leg's two bones' lengths
 * (model space) from the rest pose's. */
static void ik_measure(run_state *s, const tdn_graph_instance *instance)
{
    const tdn_graph *g = tdn_graph_document_graph(s->doc);
    const tdn_skeleton *skel = tdn_graph_document_skeleton(s->doc);
    int modelled = 0;
    for (int job = 0; job < tdn_graph_ik_count(g); job++) {
        if (tdn_graph_ik_kind_of(g, job) != TDN_GRAPH_IK_FOOT_PLACEMENT)
            continue;
        for (int leg = 0; leg < tdn_graph_foot_count(g, job); leg++) {
            tdn_vec3 target;
            const int end = tdn_graph_foot_joint(g, job, leg);
            if (end < 0 || !tdn_graph_foot_target(instance, job, leg, &target))
                continue;
            if (!modelled) { /* in the character's frame, as the target: no rounding of world positions */
                tdn_model_space(skel, &s->pose, NULL, s->ik_model, NULL);
                modelled = 1;
            }
            const float t[16] = { [12] = target.x, [13] = target.y, [14] = target.z };
            const double e = distance(s->ik_model[end].m, t);
            s->rep.ik_samples++;
            const int reached = tdn_graph_ik_reached(instance, job);
            s->rep.ik_unreached += !reached;
            if (reached && e > s->rep.ik_error_max_reached)
                s->rep.ik_error_max_reached = e;
            s->ik_error_sum += e;
            if (e > s->rep.ik_error_max)
                s->rep.ik_error_max = e;
            for (int j = end, k = 0; k < 2 && tdn_skeleton_parent(skel, j) >= 0;
                 k++, j = tdn_skeleton_parent(skel, j)) {
                const tdn_transform rest = tdn_skeleton_rest(skel, j);
                const double rest_len = tdn_vec3_length(rest.t);
                const double change = fabs(distance(s->ik_model[j].m, s->ik_model[tdn_skeleton_parent(skel, j)].m) -
                                           rest_len);
                if (change > s->rep.bone_change_max)
                    s->rep.bone_change_max = change;
            }
        }
    }
}

/* One run of the graph over every frame: the first (run != NULL: the pop recorder, the baked
 * frames, the trace, the foot skate with foot locking) or the second (run == NULL: the foot
 * skate alone, on an instance with foot locking off). Returns an exit code. */
static int run_frames(const run_args *a, run_state *s, tdn_graph_instance *instance, timeline *tl, int frame_count,
                      const trace_run *run, tdn_vec3 *position_out, tdn_quat *facing_out, int *any_motion)
{
    char why[2048] = "";
    tdn_vec3 position = { 0.0f, 0.0f, 0.0f };
    tdn_quat facing = tdn_quat_identity();
    int code = CLI_OK;
    foot_skate_begin(&s->skate, run ? 0 : 1);
    progress_bar bar;
    progress_begin(&bar,
                   !run     ? "tendon run: running again without foot locking"
                   : a->out ? "tendon run: running and baking"
                            : "tendon run: running",
                   -1);
    for (int f = 0; f < frame_count; f++) {
        progress_update(&bar, f, frame_count);
        const double time = f / (double)a->fps;
        code = timeline_apply(tl, instance, time, why, sizeof why);
        if (code != CLI_OK) {
            char safe[CLI_TEXT_SIZE];
            fprintf(stderr, "tendon run: %s: %s\n", a->params ? a->params : "timeline",
                    cli_text(why, safe, sizeof safe));
            break;
        }
        const double started = run ? cli_now_ms() : 0.0;
        tdn_result r = tdn_graph_update(instance, f == 0 ? 0.0f : 1.0f / a->fps, NULL);
        tdn_root_motion motion;
        if (r == TDN_OK)
            r = tdn_graph_root_motion(instance, &motion, NULL);
        if (r == TDN_OK && !is_identity(&motion)) {
            *any_motion = 1;
            position = tdn_vec3_add(position, tdn_quat_rotate(facing, motion.translation));
            facing = tdn_quat_normalize(tdn_quat_mul(facing, motion.rotation));
        }
        /* the ground foot placement stands on, and where this frame's motion put the character */
        const tdn_mat4 world = world_of(s, position, facing);
        if (r == TDN_OK && a->has_ground)
            r = tdn_graph_set_ground(instance, ground_query, &s->ground, &world, NULL);
        if (r == TDN_OK)
            r = tdn_graph_evaluate(instance, &s->pose, NULL);
        if (run)
            s->rep.eval_ms += cli_now_ms() - started;
        if (r != TDN_OK) {
            code = cli_report("run", r, NULL);
            break;
        }
        /* model space once, placed in the world: for the foot skate, the IK error and the preview */
        tdn_model_space(s->skel, &s->pose, &world, s->model, NULL);
        foot_skate_frame_model(&s->skate, instance, s->model);
        if (!run)
            continue;
        if (s->ik_model)
            ik_measure(s, instance);
        /* the pop metric and the trace's rotations are the graph's, on its own skeleton */
        const tdn_pose *graph_pose = s->retarget ? tdn_graph_source_pose(instance) : &s->pose;
        if (s->pop && !pop_recorder_frame(s->pop, instance, graph_pose)) {
            fprintf(stderr, "tendon run: out of memory recording frame %d\n", f);
            code = CLI_FAILURE;
            break;
        }
        if (a->out) {
            tdn_pose_copy(&s->baked.poses[f], &s->pose, NULL);
            s->positions[f] = position;
            s->facings[f] = facing;
        }
        if (a->render.path || a->render2.path)
            record_preview(a, s, instance, f, &world);
        if (a->trace) {
            trace_frame fr = { f, time, instance, tl, &motion, position, facing, graph_pose, &s->skate };
            trace_write_frame(&s->trace, run, &fr);
        }
    }
    if (code == CLI_OK)
        progress_update(&bar, frame_count, frame_count);
    progress_end(&bar);
    *position_out = position;
    *facing_out = facing;
    return code;
}

/* The second run for the foot skate without foot locking: a new instance and timeline, the
 * same ground. */
static int run_unlocked(const run_args *a, run_state *s, int frame_count)
{
    const tdn_graph *g = tdn_graph_document_graph(s->doc);
    tdn_graph_instance *instance = NULL;
    timeline *tl = NULL;
    char why[2048] = "";
    int code = CLI_OK;
    if (tdn_graph_instance_create_retargeted(g, s->retarget, &instance, NULL, NULL) != TDN_OK) {
        fprintf(stderr, "tendon run: out of memory\n");
        return CLI_FAILURE;
    }
    tdn_graph_set_foot_locking(instance, 0, NULL);
    if (a->params)
        code = timeline_load(a->params, g, &tl, why, sizeof why);
    else if (!(tl = timeline_empty(g))) {
        code = CLI_FAILURE;
        snprintf(why, sizeof why, "out of memory");
    }
    if (code != CLI_OK) {
        cli_say("run", why);
    } else {
        tdn_vec3 position;
        tdn_quat facing;
        int any_motion = 0;
        code = run_frames(a, s, instance, tl, frame_count, NULL, &position, &facing, &any_motion);
    }
    timeline_destroy(tl);
    tdn_graph_instance_destroy(instance);
    return code;
}

/* The graph document and what a run needs of it before the first frame: the extras, the foot
 * skate, an instance, a pose, the timeline, the pop recorder (with a state machine) and the
 * model-space buffers (measure_ik: also the IK error's). An exit code, having said why. */
/* The graph document of a pack's graph (a->graph_name, or its first) and its extras. */
static int start_from_pack(const run_args *a, run_state *s)
{
    tdn_error err = { 0 };
    tdn_result r = tdn_pack_file_load(a->graph, NULL, &s->pack, NULL, &err);
    if (r != TDN_OK)
        return cli_report("run", r, &err);
    const tdn_pack *p = tdn_pack_file_pack(s->pack);
    const int graph = a->graph_name ? tdn_pack_find_graph(p, a->graph_name) : 0;
    char name[CLI_TEXT_SIZE], path[CLI_TEXT_SIZE];
    if (graph < 0 || graph >= tdn_pack_graph_count(p)) {
        if (a->graph_name)
            fprintf(stderr, "tendon run: %s has no graph named '%s'\n", cli_text(a->graph, path, sizeof path),
                    cli_text(a->graph_name, name, sizeof name));
        else
            fprintf(stderr, "tendon run: %s has no graph (tendon pack --graph GRAPH.json puts one in)\n",
                    cli_text(a->graph, path, sizeof path));
        return CLI_BAD_INPUT;
    }
    /* a pack's clips are compressed: one character plays them forward through clip caches */
    const tdn_graph_document_load_options options = { .clip_caches = 1 };
    r = tdn_graph_document_load_pack(p, graph, &options, &s->doc, NULL, &err);
    if (r != TDN_OK) {
        char where[2 * sizeof err.where]; /* the pack's path, then the graph's name and the JSON path */
        snprintf(where, sizeof where, "%.200s: %s", a->graph, err.where);
        memcpy(err.where, where, sizeof err.where - 1);
        return cli_report("run", r, &err);
    }
    size_t size = 0;
    const char *json = tdn_pack_graph_json(p, graph, &size);
    graph_extras_read_text(json, size, tdn_graph_document_skeleton(s->doc), &s->extras);
    return CLI_OK;
}

static int start(const run_args *a, run_state *s, int measure_ik)
{
    if (cli_is_pack(a->graph)) {
        const int code = start_from_pack(a, s);
        if (code != CLI_OK)
            return code;
    } else {
        tdn_error err = { 0 };
        cli_access access;
        const tdn_graph_document_load_options options = { .file_access = cli_file_access(&access, &a->files,
                                                                                         a->graph) };
        tdn_result r = tdn_graph_document_load(a->graph, &options, &s->doc, NULL, &err);
        if (r != TDN_OK)
            return cli_report("run", r, &err);
        graph_extras_read(a->graph, tdn_graph_document_skeleton(s->doc), &s->extras);
        graph_extras_character_warnings(&s->extras, a->graph, tdn_graph_document_asset(s->doc));
    }
    const tdn_graph *g = tdn_graph_document_graph(s->doc);
    s->retarget = tdn_graph_document_retarget(s->doc);
    s->skel = s->retarget ? tdn_graph_document_target_skeleton(s->doc) : tdn_graph_document_skeleton(s->doc);
    s->asset = s->retarget ? tdn_graph_document_target_asset(s->doc) : tdn_graph_document_asset(s->doc);
    const int joints = tdn_skeleton_joint_count(s->skel);
    s->ground = a->ground;
    s->skate_ready = foot_skate_init(&s->skate, s->doc, s->extras.json, a->has_ground ? &s->ground : NULL, a->fps);
    s->second_run = a->has_ground && foot_skate_has_job(&s->skate);
    if (!s->skate_ready || tdn_graph_instance_create_retargeted(g, s->retarget, &s->instance, NULL, NULL) != TDN_OK ||
        tdn_pose_create(joints, &s->pose, NULL, NULL) != TDN_OK) {
        fprintf(stderr, "tendon run: out of memory\n");
        return CLI_FAILURE;
    }
    if (a->params) {
        char why[2048] = "";
        const int code = timeline_load(a->params, g, &s->tl, why, sizeof why);
        if (code != CLI_OK) {
            cli_say("run", why);
            return code;
        }
    } else if (!(s->tl = timeline_empty(g))) {
        fprintf(stderr, "tendon run: out of memory\n");
        return CLI_FAILURE;
    }
    int machines = 0;
    for (int n = 0; n < tdn_graph_node_count(g); n++)
        machines += tdn_graph_state_count(g, n) > 0;
    if (machines &&
        !pop_recorder_create(g, tdn_skeleton_joint_count(tdn_graph_document_skeleton(s->doc)), a->fps, &s->pop)) {
        fprintf(stderr, "tendon run: out of memory\n");
        return CLI_FAILURE;
    }
    s->model = malloc(sizeof(tdn_mat4) * (size_t)(joints + 1));
    measure_ik = measure_ik && !s->retarget; /* the IK error is measured on the graph's own pose */
    if (measure_ik)
        s->ik_model = malloc(sizeof(tdn_mat4) * (size_t)(joints + 1));
    if (!s->model || (measure_ik && !s->ik_model)) {
        fprintf(stderr, "tendon run: out of memory\n");
        return CLI_FAILURE;
    }
    return CLI_OK;
}

/* What the outputs keep of every frame: the previews' frames (and the skinned mesh they draw),
 * the baked poses and root transforms. An exit code, having said why. */
static int keep_frames(const run_args *a, run_state *s, int frame_count)
{
    if ((a->render.path || a->render2.path) && !prepare_preview(s, frame_count)) {
        fprintf(stderr, "tendon run: out of memory for %d frames to render\n", frame_count);
        return CLI_FAILURE;
    }
    s->preview.ground = a->has_ground ? &s->ground : NULL;
    const int wants_mesh = (a->render.path && a->render.style != PREVIEW_STYLE_CAPSULES) ||
                           (a->render2.path && a->render2.style != PREVIEW_STYLE_CAPSULES);
    if (wants_mesh && !preview_clip_add_mesh(&s->preview, s->asset)) {
        fprintf(stderr, "tendon run: out of memory for the skinned mesh to render\n");
        return CLI_FAILURE;
    }
    if (a->render.path && a->render.style == PREVIEW_STYLE_MESH && s->preview.mesh.triangle_count == 0) {
        fprintf(stderr,
                "tendon run: --render-style mesh: %s: the character has no skinned mesh with triangles "
                "(use --render-style capsules)\n",
                a->graph);
        return CLI_BAD_INPUT;
    }
    if (a->out) {
        const int baked = baked_frames_alloc(&s->baked, frame_count, s->pose.joint_count);
        s->positions = calloc((size_t)frame_count, sizeof *s->positions);
        s->facings = calloc((size_t)frame_count, sizeof *s->facings);
        if (!baked || !s->positions || !s->facings) {
            fprintf(stderr, "tendon run: out of memory for %d baked frames\n", frame_count);
            return CLI_FAILURE;
        }
    }
    return CLI_OK;
}

/* The pop metric of the transitions the run took, once it has ended: each one's declared mode
 * and duration, and the clips' own changes as its bound. An exit code. */
static int finish_pop(const run_args *a, run_state *s)
{
    const tdn_graph *g = tdn_graph_document_graph(s->doc);
    const tdn_skeleton *skel = tdn_graph_document_skeleton(s->doc);
    const int clip_count = tdn_graph_document_clip_count(s->doc);
    int code = CLI_OK, mirror_ok = 0;
    int *mirror = malloc(sizeof(int) * (size_t)(tdn_skeleton_joint_count(skel) + 1));
    const tdn_clip **clips = malloc(sizeof(tdn_clip *) * (size_t)(clip_count + 1));
    if (mirror)
        mirror_ok = tdn_mirror_table_from_names(skel, mirror, NULL) == TDN_OK;
    for (int c = 0; clips && c < clip_count; c++)
        clips[c] = tdn_graph_document_clip(s->doc, c);
    pop_transition *t = NULL;
    int count = pop_recorder_transitions(s->pop, (const pop_transition **)&t);
    for (int k = 0; k < count; k++) {
        const char *mode;
        double seconds;
        int frames;
        graph_extras_transition(&s->extras, g, t[k].machine, t[k].index, a->fps, &mode, &seconds, &frames);
        pop_recorder_declare(s->pop, k, seconds, frames, mode);
    }
    if (!clips || !pop_recorder_finish(s->pop, clips, clip_count, mirror_ok ? mirror : NULL,
                                       s->extras.extract ? &s->extras.root_motion : NULL, a->fps)) {
        fprintf(stderr, "tendon run: out of memory computing the pop metric\n");
        code = CLI_FAILURE;
    }
    free(mirror);
    free(clips);
    return code;
}

/* Ends the open trace with the transitions and the foot skate when the run succeeded (`code`);
 * otherwise drops it, leaving what was at its path as it was: no half-written trace. Returns
 * the exit code. */
static int close_trace(const run_args *a, run_state *s, const trace_run *run, int code)
{
    if (code == CLI_OK) {
        const pop_transition *t = NULL;
        int count = s->pop ? pop_recorder_transitions(s->pop, &t) : 0;
        trace_skate skate = { &s->skate, s->second_run, a->has_ground ? a->ground.spec : NULL };
        return trace_finish(&s->trace, run, t, count, &skate);
    }
    tw_discard(&s->trace);
    return code;
}

/* --render (and a second preview of the same frames, tendon demo's): drawn and written. An exit
 * code; *rendered and *ms_per_frame: the first preview's frames drawn and time per frame. */
static int write_previews(const run_args *a, run_state *s, int *rendered, double *ms_per_frame)
{
    char why[2048] = "";
    int code = CLI_OK;
    if (a->render.path) {
        code = preview_write(&s->preview, &a->render, why, sizeof why, ms_per_frame, rendered);
        if (code != CLI_OK)
            cli_say("run", why);
        s->rep.render_ms[0] = *ms_per_frame;
    }
    if (code == CLI_OK && a->render2.path) {
        int drawn = 0;
        code = preview_write(&s->preview, &a->render2, why, sizeof why, &s->rep.render_ms[1], &drawn);
        if (code != CLI_OK)
            cli_say("run", why);
    }
    return code;
}

int run_graph(run_args *a, run_report *report)
{
    run_state s = { 0 };
    const int steps = (int)lround((double)a->seconds * a->fps), frame_count = steps + 1;
    int code = start(a, &s, report && a->has_ground);
    if (code == CLI_OK)
        code = keep_frames(a, &s, frame_count);
    trace_run run = { a->graph, a->params, s.doc, a->fps, (double)steps / a->fps, frame_count, a->rotations };
    if (code == CLI_OK && a->trace)
        code = trace_open(&s.trace, a->trace, &run);
    if (code != CLI_OK) {
        release(&s);
        return code;
    }
    /* the run, then what it measured and made */
    tdn_vec3 position = { 0.0f, 0.0f, 0.0f };
    tdn_quat facing = tdn_quat_identity();
    int any_motion = 0;
    code = run_frames(a, &s, s.instance, s.tl, frame_count, &run, &position, &facing, &any_motion);
    if (code == CLI_OK && s.pop)
        code = finish_pop(a, &s);
    if (code == CLI_OK && s.second_run)
        code = run_unlocked(a, &s, frame_count);
    if (s.trace.output.file)
        code = close_trace(a, &s, &run, code);
    const int apply_root = s.extras.extract;
    if (code == CLI_OK && a->out)
        code = bake(a, &s, frame_count, apply_root);
    double render_ms = 0.0;
    int rendered = 0;
    if (code == CLI_OK)
        code = write_previews(a, &s, &rendered, &render_ms);
    if (code == CLI_OK && !a->quiet)
        summary(a, &s, frame_count, any_motion, apply_root, &position, facing);
    if (code == CLI_OK && a->render.path && !a->quiet)
        printf("rendered: %s (%d frames drawn, %.3g ms per frame)\n", a->render.path, rendered, render_ms);
    if (report) {
        s.rep.frames = frame_count;
        s.rep.ik_error_mean = s.rep.ik_samples ? s.ik_error_sum / s.rep.ik_samples : 0.0;
        *report = s.rep;
    }
    release(&s);
    return code;
}
