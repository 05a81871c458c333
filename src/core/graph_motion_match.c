/* tendon core: motion-matching nodes of a graph: a controller per instance (in the instance's
 * memory), advanced each update from the node's parameters, its pose handed to the flat list
 * with the root joint relative to the character, its character's motion handed to the graph's
 * root motion (see "Motion matching" in graph.h). */
#include <stdio.h>

#include "graph_internal.h"
#include "internal.h"
#include "mm_internal.h"
#include "tendon/mirror.h"

/* Below this desired speed (units per second) a node without a facing parameter keeps the
 * facing it last asked for: the direction of a vanishing velocity means nothing. */
#define STANDING_SPEED 0.001f
/* A controller's world is moved back by whole multiples of this when its character gets this
 * far out (float positions are 3e-5 apart at 256): the shift is exact, relative results are
 * unchanged, and steps keep their precision however far the character walks. */
#define RECENTRE 256.0f

static const tdn_vec3 up = { 0.0f, 1.0f, 0.0f };

/* ---- the definition: copied and checked when the graph is created ---- */

/* The controller's error ("desc.clip_count") under the node's place ("nodes[2] 'mm'"). */
static tdn_result under_node(tdn_result r, const char *place, tdn_error *err)
{
    if (r != TDN_OK && err) {
        char at[sizeof err->where];
        const char *field = strncmp(err->where, "desc.", 5) == 0 ? err->where + 5 : err->where;
        snprintf(at, sizeof at, "%.70s motion_match.%.40s", place, field);
        memcpy(err->where, at, sizeof at);
    }
    return r;
}

/* The graph's root motion must be what the controller's character is: a yaw on the ground
 * about +y, on the database's root joint. */
static tdn_result check_root_motion(const tdn_graph_desc *desc, int root, const char *place, tdn_error *err)
{
    const tdn_root_track_desc *rm = desc->root_motion;
    if (!rm)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place,
                         "a motion_match node moves the character: the graph "
                         "needs root motion (tdn_graph_desc.root_motion, a document's \"root_motion\")");
    const float len = tdn_vec3_length(rm->up);
    const int y_up = len == 0.0f || (rm->up.x == 0.0f && rm->up.z == 0.0f && rm->up.y > 0.0f);
    const int joints = tdn_skeleton_joint_count(desc->skeleton);
    if (rm->joint != root || rm->rotation != TDN_ROOT_YAW || rm->keep_vertical || !y_up)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place,
                         "the graph's root motion must be the database's: on joint "
                         "'%.40s' (not '%.40s'), yaw, +y up, the vertical left in the pose",
                         tdn_skeleton_joint_name(desc->skeleton, root),
                         rm->joint >= 0 && rm->joint < joints ? tdn_skeleton_joint_name(desc->skeleton, rm->joint)
                                                              : "?");
    return TDN_OK;
}

tdn_result tdn__graph_copy_motion_match(tdn_graph *g, const tdn_graph_desc *desc, int node, const char *place,
                                        int *clip_at, int *mirror_at, tdn_error *err)
{
    const tdn_node_desc *d = &desc->nodes[node];
    const tdn_mm_controller_desc *md = d->motion_match;
    if (!md || !md->database || !md->skeleton || !md->clips || md->clip_count < 1)
        return tdn__fail(err, TDN_ERR_ARGUMENT, place,
                         "a motion_match node needs its controller description "
                         "(a database, its skeleton and clips)");
    if (tdn_skeleton_joint_count(md->skeleton) != g->joint_count)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "the clips' skeleton has %d joints, the graph's %d",
                         tdn_skeleton_joint_count(md->skeleton), g->joint_count);
    tdn__motion_match *m = &g->mm[g->mm_count];
    tdn__node *n = &g->nodes[node];
    m->node = node;
    if (!d->velocity)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "a motion_match node needs its velocity (a vec2 parameter)");
    m->velocity = tdn_graph_find_param(g, d->velocity);
    if (m->velocity < 0 || g->params[m->velocity].type != TDN_PARAM_VEC2)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "velocity '%.60s' is not a vec2 parameter", d->velocity);
    m->facing = d->facing ? tdn_graph_find_param(g, d->facing) : -1;
    if (d->facing && (m->facing < 0 || g->params[m->facing].type != TDN_PARAM_FLOAT))
        return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "facing '%.60s' is not a float parameter", d->facing);
    /* the copy points at the graph's own clip list and mirror table */
    m->desc = *md;
    memcpy(g->mm_clips + *clip_at, md->clips, sizeof *g->mm_clips * (size_t)md->clip_count);
    m->desc.clips = g->mm_clips + *clip_at;
    *clip_at += md->clip_count;
    if (md->mirror_table) {
        int *mirror = g->mm_mirror + (size_t)*mirror_at * (size_t)g->joint_count;
        memcpy(mirror, md->mirror_table, sizeof(int) * (size_t)g->joint_count);
        m->desc.mirror_table = mirror;
        (*mirror_at)++;
    }
    /* a controller made and dropped: its own checks, with their messages, now rather than at
     * instance creation (which has no error to give) */
    tdn_mm_controller *probe = NULL;
    tdn_result r = under_node(tdn_mm_controller_create(&m->desc, &probe, &g->allocator, err), place, err);
    tdn_mm_controller_destroy(probe);
    if (r != TDN_OK)
        return r;
    /* after the probe, which refuses a database made from features (it has no root joint) */
    tdn_mm_database_joints(md->database, &m->root, NULL, NULL, NULL, NULL);
    r = check_root_motion(desc, m->root, place, err);
    if (r != TDN_OK)
        return r;
    m->controller_bytes = tdn_mm_controller_bytes(&m->desc);
    n->slot = g->mm_count++;
    return TDN_OK;
}

/* ---- at run time ---- */

size_t tdn__graph_motion_match_layout(const tdn_graph *g, tdn_graph_instance *instance, char *base, size_t at)
{
    const size_t pose_bytes = tdn_pose_bytes(g->joint_count);
    for (int k = 0; k < g->mm_count; k++) {
        tdn__mm_state *s = base ? &instance->mm_states[k] : NULL;
        at = tdn__align_up(at, 64);
        if (s) /* checked when the graph was built */
            tdn_mm_controller_init(&g->mm[k].desc, base + at, g->mm[k].controller_bytes, &s->controller, NULL);
        at += g->mm[k].controller_bytes;
        for (int p = 0; p < 2; p++) {
            at = tdn__align_up(at, TDN_POSE_ALIGN);
            if (s)
                tdn_pose_init(g->joint_count, base + at, pose_bytes, p ? &s->before : &s->pose, NULL);
            at += pose_bytes;
        }
    }
    return at;
}

/* The controller's input from the node's parameters, read in the character's frame as it
 * stands now (the controller's character after the last update). */
static tdn_mm_input input_of(const tdn_graph_instance *in, const tdn__motion_match *m, tdn__mm_state *s)
{
    const float *v = in->params[m->velocity].value;
    const tdn_vec3 local = tdn_vec3_make(v[0], 0.0f, v[1]);
    if (m->facing >= 0)
        s->goal = s->facing + in->params[m->facing].value[0];
    else if (local.x * local.x + local.z * local.z > STANDING_SPEED * STANDING_SPEED)
        s->goal = s->facing + atan2f(local.x, local.z);
    return (tdn_mm_input){ tdn__mm_from_root(local, s->facing), s->goal };
}

/* The pose's root joint from the controller's world to the character's frame. */
static void root_to_character(tdn_pose *pose, int root, tdn_vec3 position, float facing)
{
    tdn_transform x = tdn_pose_get(pose, root);
    x.t = tdn__mm_into_root(tdn_vec3_sub(x.t, position), facing);
    x.r = tdn_quat_normalize(tdn_quat_mul(tdn_quat_from_axis_angle(up, -facing), x.r));
    tdn_pose_set(pose, root, &x);
}

static void advance(tdn_graph_instance *in, const tdn__motion_match *m, tdn__mm_state *s, float dt)
{
    float step = dt * in->node_rate[m->node]; /* time scales and frozen states above it */
    step = step > 0.0f && tdn__finite(step) ? step : 0.0f;
    const tdn_mm_input input = input_of(in, m, s);
    if (step > 0.0f) { /* the newest pose becomes the one before; a zero step keeps the pair */
        tdn_pose kept = s->before;
        s->before = s->pose;
        s->pose = kept;
        s->step = step;
    }
    tdn_mm_status status;
    tdn_root_motion *motion = &s->motion;
    if (tdn_mm_controller_update(s->controller, &input, step, &s->pose, &status, NULL) != TDN_OK) {
        /* parameters are finite (setters refuse others): this does not happen */
        *motion = (tdn_root_motion){ { 0, 0, 0 }, { 0, 0, 0, 1 }, { 0, 0, 0 }, { 0, 0, 0 } };
        return;
    }
    /* the character's motion: translation in its frame at the step's start, then the turn */
    const float turn = tdn__mm_wrap(status.facing - s->facing);
    motion->translation = tdn__mm_into_root(tdn_vec3_sub(status.position, s->position), s->facing);
    motion->rotation = tdn_quat_from_axis_angle(up, turn);
    const float per_second = dt > 0.0f ? 1.0f / dt : 0.0f;
    motion->linear_velocity = tdn_vec3_scale(motion->translation, per_second);
    motion->angular_velocity = tdn_vec3_make(0.0f, turn * per_second, 0.0f);
    root_to_character(&s->pose, m->root, status.position, status.facing);
    s->position = status.position;
    s->facing = status.facing;
    s->frame = status.frame;
    if (fabsf(s->position.x) >= RECENTRE || fabsf(s->position.z) >= RECENTRE) {
        const tdn_vec3 shift = tdn_vec3_make(-RECENTRE * roundf(s->position.x / RECENTRE), 0.0f,
                                             -RECENTRE * roundf(s->position.z / RECENTRE));
        tdn_mm_controller_translate(s->controller, shift, NULL);
        s->position = tdn_vec3_add(s->position, shift);
    }
}

void tdn__graph_motion_match_advance(tdn_graph_instance *instance, float dt)
{
    const tdn_graph *g = instance->graph;
    for (int k = 0; k < g->mm_count; k++)
        if (g->nodes[g->mm[k].node].layer >= 0) /* a node no layer reaches never shows */
            advance(instance, &g->mm[k], &instance->mm_states[k], dt);
}

void tdn__graph_motion_match_velocity(const tdn_graph_instance *instance, int node, tdn_pose *velocity)
{
    const tdn__mm_state *s = &instance->mm_states[instance->graph->nodes[node].slot];
    tdn_pose_velocity(&s->before, &s->pose, s->step, velocity, NULL);
}
