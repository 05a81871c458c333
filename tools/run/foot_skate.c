/* tendon CLI: the foot-skate metric (see foot_skate.h). */
#include "foot_skate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feet_by_name.h"

static int add_foot(foot_skate *s, int joint, int job, int leg)
{
    if (joint < 0 || s->count >= FOOT_SKATE_MAX_FEET)
        return 1;
    for (int f = 0; f < s->count; f++)
        if (s->feet[f].joint == joint && s->feet[f].job == job && s->feet[f].leg == leg)
            return 1;
    foot_skate_foot *foot = &s->feet[s->count];
    memset(foot, 0, sizeof *foot);
    foot->joint = joint;
    foot->job = job;
    foot->leg = leg;
    const int clips = s->doc ? tdn_graph_document_clip_count(s->doc) : 0;
    foot->track = malloc(sizeof(int) * (size_t)(clips + 1));
    if (!foot->track)
        return 0;
    for (int c = 0; c < clips; c++)
        foot->track[c] = -1;
    s->count++;
    return 1;
}

/* The leg's contact curve as the document names it ("ik"[job].legs[leg].contact), checked
 * against the graph's job: the same kind and end joint. */
static void curve_name(const cJSON *json, const tdn_skeleton *skel, int job, int leg, int joint, char *out, size_t size)
{
    out[0] = '\0';
    const cJSON *j = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(json, "ik"), job);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "kind");
    if (!cJSON_IsString(kind) || strcmp(kind->valuestring, "foot_placement") != 0)
        return;
    const cJSON *l = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "legs"), leg);
    const cJSON *end = cJSON_GetObjectItemCaseSensitive(l, "end");
    const cJSON *contact = cJSON_GetObjectItemCaseSensitive(l, "contact");
    int same = cJSON_IsString(end) ? tdn_skeleton_find_joint(skel, end->valuestring) == joint
                                   : cJSON_IsNumber(end) && end->valueint == joint;
    if (same && cJSON_IsString(contact))
        snprintf(out, size, "%s", contact->valuestring);
}

int foot_skate_init(foot_skate *s, const tdn_graph_document *doc, const cJSON *json, const ground *g, float fps)
{
    memset(s, 0, sizeof *s);
    /* a graph driving another character ("retarget"): that character's feet, by name (the
     * graph's foot placement jobs are on its own skeleton) */
    const tdn_skeleton *driven = tdn_graph_document_target_skeleton(doc);
    const tdn_skeleton *skel = driven ? driven : tdn_graph_document_skeleton(doc);
    s->doc = doc;
    s->skel = skel;
    s->ground = g;
    s->fps = fps;
    const tdn_graph *graph = tdn_graph_document_graph(doc);
    const int joints = tdn_skeleton_joint_count(skel);
    for (int k = 0; k < tdn_graph_ik_count(graph) && !driven; k++) {
        if (tdn_graph_ik_kind_of(graph, k) != TDN_GRAPH_IK_FOOT_PLACEMENT)
            continue;
        for (int leg = 0; leg < tdn_graph_foot_count(graph, k); leg++)
            if (!add_foot(s, tdn_graph_foot_joint(graph, k, leg), k, leg))
                return 0;
    }
    if (s->count == 0) {
        s->by_name = 1;
        int feet[2];
        feet_by_name(skel, &feet[0], &feet[1]);
        for (int side = 0; side < 2; side++)
            if (!add_foot(s, feet[side], -1, -1))
                return 0;
    }
    s->model = malloc(sizeof(tdn_mat4) * (size_t)(joints > 0 ? joints : 1));
    tdn_pose rest;
    if (!s->model || tdn_pose_create(joints, &rest, NULL, NULL) != TDN_OK)
        return 0;
    tdn_pose_set_rest(&rest, skel, NULL);
    tdn_model_space(skel, &rest, NULL, s->model, NULL);
    tdn_pose_destroy(&rest);
    for (int axis = 0; axis < 3; axis++) {
        float lo = joints ? s->model[0].m[12 + axis] : 0.0f, hi = lo;
        for (int j = 1; j < joints; j++)
            lo = fminf(lo, s->model[j].m[12 + axis]), hi = fmaxf(hi, s->model[j].m[12 + axis]);
        s->size = fmaxf(s->size, hi - lo);
    }
    for (int f = 0; f < s->count; f++) {
        foot_skate_foot *foot = &s->feet[f];
        float y = s->model[foot->joint].m[13];
        foot->rest_height = y > 0.0f ? y : 0.0f;
        if (foot->job < 0)
            continue;
        curve_name(json, skel, foot->job, foot->leg, foot->joint, foot->curve, sizeof foot->curve);
        for (int c = 0; foot->curve[0] && c < tdn_graph_document_clip_count(doc); c++) {
            foot->track[c] = tdn_clip_find_float_track(tdn_graph_document_clip(doc, c), foot->curve);
            foot->by_curve |= foot->track[c] >= 0;
        }
    }
    return 1;
}

int foot_skate_init_feet(foot_skate *s, const tdn_skeleton *skel, const int *joints, const float *rest_heights,
                         int count, float fps, float max_speed)
{
    memset(s, 0, sizeof *s);
    s->skel = skel;
    s->fps = fps;
    s->max_speed = max_speed > 0.0f ? max_speed : 0.0f;
    s->by_name = 1;
    if (count > FOOT_SKATE_MAX_FEET)
        return 0;
    for (int f = 0; f < count; f++) {
        const int before = s->count;
        if (!add_foot(s, joints[f], -1, -1))
            return 0;
        if (s->count > before) /* not a repeated joint */
            s->feet[before].rest_height = rest_heights[f];
    }
    const int n = tdn_skeleton_joint_count(skel);
    s->model = malloc(sizeof(tdn_mat4) * (size_t)(n > 0 ? n : 1));
    return s->model != NULL;
}

void foot_skate_free(foot_skate *s)
{
    for (int f = 0; f < s->count; f++)
        free(s->feet[f].track);
    free(s->model);
    memset(s, 0, sizeof *s);
}

void foot_skate_begin(foot_skate *s, int run)
{
    s->run = run;
    s->frame = 0;
    s->travel[run] = 0.0;
    memset(s->results[run], 0, sizeof s->results[run]);
}

/* The run's travel: the centre of the joints against the first frame's. */
static void measure_travel(foot_skate *s, const tdn_mat4 *model)
{
    const int n = tdn_skeleton_joint_count(s->skel);
    tdn_vec3 centre = { 0.0f, 0.0f, 0.0f };
    for (int j = 0; j < n; j++)
        centre = tdn_vec3_add(centre, tdn_vec3_make(model[j].m[12], model[j].m[13], model[j].m[14]));
    centre = tdn_vec3_scale(centre, 1.0f / (float)(n > 0 ? n : 1));
    if (s->frame == 0)
        s->start = centre;
    const double dx = (double)centre.x - s->start.x, dz = (double)centre.z - s->start.z;
    s->travel[s->run] = fmax(s->travel[s->run], sqrt(dx * dx + dz * dz));
}

/* The contact the graph's foot placement job makes (graph_ik.c's contact()), from the flat list. */
static float curve_contact(const foot_skate *s, const tdn_graph_instance *in, const foot_skate_foot *foot)
{
    const tdn_graph_entry *e;
    const int n = tdn_graph_layer_entries(in, 0, &e);
    float sum = 0.0f, weight = 0.0f;
    for (int k = 0; k < n; k++) {
        if (e[k].clip < 0 || e[k].additive)
            continue;
        float w = e[k].weight * (e[k].group >= 0 ? tdn_graph_node_weight(in, e[k].group) : 1.0f);
        weight += w;
        if (foot->track[e[k].clip] >= 0)
            sum += w *
                   tdn_clip_sample_float(tdn_graph_document_clip(s->doc, e[k].clip), foot->track[e[k].clip], e[k].time);
    }
    return weight > 0.0f ? sum / weight : 0.0f;
}

void foot_skate_frame(foot_skate *s, const tdn_graph_instance *in, const tdn_pose *pose, const tdn_mat4 *world)
{
    tdn_model_space(s->skel, pose, world, s->model, NULL);
    foot_skate_frame_model(s, in, s->model);
}

void foot_skate_frame_model(foot_skate *s, const tdn_graph_instance *in, const tdn_mat4 *model)
{
    if (s->size > 0.0f)
        measure_travel(s, model);
    for (int f = 0; f < s->count; f++) {
        foot_skate_foot *foot = &s->feet[f];
        foot_skate_result *r = &s->results[s->run][f];
        const float *m = model[foot->joint].m;
        tdn_vec3 p = tdn_vec3_make(m[12], m[13], m[14]);
        int contact;
        if (foot->by_curve && in) {
            float c = s->ground ? tdn_graph_foot_contact(in, foot->job, foot->leg) : curve_contact(s, in, foot);
            contact = c >= 0.5f;
        } else {
            double under = s->ground ? ground_height(s->ground, p.x, p.z, NULL) : 0.0;
            contact = p.y - under - foot->rest_height <= FOOT_SKATE_CONTACT_HEIGHT;
        }
        if (s->max_speed > 0.0f && s->frame > 0) {
            double dx = (double)p.x - foot->prev.x, dz = (double)p.z - foot->prev.z;
            contact = contact && sqrt(dx * dx + dz * dz) * s->fps <= s->max_speed;
        }
        r->contact_frames += contact;
        if (s->frame > 0 && contact && foot->prev_contact) {
            double dx = (double)p.x - foot->prev.x, dz = (double)p.z - foot->prev.z;
            r->slide += sqrt(dx * dx + dz * dz);
            r->pairs++;
        }
        r->cm_per_s = r->pairs ? 100.0 * r->slide * s->fps / r->pairs : NAN;
        foot->prev = p;
        foot->prev_contact = contact;
    }
    s->frame++;
}

void foot_skate_cut(foot_skate *s) { s->frame = 0; }

double foot_skate_mean(const foot_skate *s, int run)
{
    double slide = 0.0;
    int pairs = 0;
    for (int f = 0; f < s->count; f++) {
        slide += s->results[run][f].slide;
        pairs += s->results[run][f].pairs;
    }
    return pairs ? 100.0 * slide * s->fps / pairs : NAN;
}

int foot_skate_in_place(const foot_skate *s, int run, double *travel, double *slide)
{
    double sum = 0.0;
    for (int f = 0; f < s->count; f++)
        sum += s->results[run][f].slide;
    const double mean = s->count ? sum / s->count : 0.0;
    if (travel)
        *travel = s->travel[run];
    if (slide)
        *slide = mean;
    return s->size > 0.0f && mean >= FOOT_SKATE_IN_PLACE_SLIDE * s->size &&
           s->travel[run] <= FOOT_SKATE_IN_PLACE_TRAVEL * fmax(mean, s->size);
}

const char *foot_skate_name(const foot_skate *s, int foot)
{
    return tdn_skeleton_joint_name(s->skel, s->feet[foot].joint);
}

int foot_skate_has_job(const foot_skate *s) { return s->count > 0 && !s->by_name; }

const char *foot_skate_contact_rule(const foot_skate *s, int foot, char *buf, size_t size)
{
    if (s->feet[foot].by_curve)
        snprintf(buf, size, "curve %s", s->feet[foot].curve);
    else
        snprintf(buf, size, "height");
    return buf;
}
