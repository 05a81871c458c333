/* tendon core: the motion-matching character controller (see mm_controller.h).
 *
 * The simulated character's ground velocity is a critically damped spring towards the desired
 * velocity: with e = v - v_desired, e(t) = (j0 + j1 t) e^(-y t), j0 = e(0), j1 = a(0) + y j0,
 * so its position has the closed form x(t) = x0 + v_desired t + j0 / y + j1 / y^2
 * - e^(-y t) ((j0 + j1 t) / y + j1 / y^2), used both to step it and to predict the trajectory
 * at any offset without stepping. The facing is the same spring on the angle (tdn__spring_step
 * with the target taken the short way round). */
#include "mm_internal.h"
#include "spring.h"
#include "tendon/mirror.h"
#include "tendon/mm_controller.h"
#include "tendon/model_space.h"

#include <stdio.h>
#include <string.h>

#define DEFAULT_INERTIALIZE 0.2f
#define DEFAULT_HALF_LIFE 0.2f
#define DEFAULT_ADJUST 0.15f
#define DEFAULT_SHARP_VELOCITY 1.0f
#define DEFAULT_SHARP_FACING 0.5f
#define DEFAULT_ADJUST_RATIO 1.0f
#define DEFAULT_SKIP 0.35f
#define DEFAULT_CONTACT_HEIGHT 0.05f
#define DEFAULT_CONTACT_SPEED 0.5f

/* The simulated character: ground position, velocity and acceleration (y unused), facing and
 * its rate. */
typedef struct simulation {
    tdn_vec3 position, velocity, acceleration;
    float facing, turn_rate;
} simulation;

struct tdn_mm_controller {
    tdn_mm_controller_desc desc; /* with defaults applied */
    const tdn_mm_database *db;
    size_t bytes;               /* of its memory */
    int created;                /* 1: tdn_mm_controller_create allocated it (destroy frees it) */
    tdn_allocator allocator;    /* what create allocated it with */
    float velocity_y, facing_y; /* spring rates */
    int joint_count, root;
    /* playback */
    int run_first, run_frames, clip, mirrored;
    float time;
    int *hints; /* for the playing clip's sampling */
    int hint_count;
    /* the character and the simulation */
    tdn_vec3 position;
    float facing;
    simulation sim;
    tdn_mm_input last_search_input;
    float since_search, last_cost, previous_dt;
    int searched_once, shown_frames;
    tdn_inertializer *inertializer;
    tdn_pose shown[2];  /* the last two poses shown: [0] the last */
    float *query, *raw; /* dims floats each */
    tdn_vec3 ahead[TDN_MM_MAX_OFFSETS];
    float ahead_facing[TDN_MM_MAX_OFFSETS];
    float ground[2];          /* each foot's ground height in the database (5th percentile) */
    tdn_foot_placement *feet; /* foot locking, or NULL */
    tdn_mat4 *model;          /* joint_count matrices for it */
};

static float or_default(float v, float fallback) { return v > 0.0f ? v : fallback; }

static int bad_setting(float v) { return !(v >= 0.0f) || !tdn__finite(v); }

void tdn_mm_controller_destroy(tdn_mm_controller *c)
{
    if (c && c->created) {
        tdn_allocator allocator = c->allocator;
        tdn__free(&allocator, c, c->bytes);
    }
}

/* The most tracks a clip of the description has (for the sampling hints). */
static int most_tracks(const tdn_mm_controller_desc *desc)
{
    int most = 0;
    for (int i = 0; i < desc->clip_count; i++) {
        const int tracks = desc->clips[i] ? tdn_keyed_clip_track_count(desc->clips[i]) : 0;
        most = tracks > most ? tracks : most;
    }
    return most;
}

/* One block: the struct, the hints, the query and raw features, the two shown poses, the
 * inertializer and, with foot locking, model matrices and the foot placement. With base NULL
 * only measures; else points the fields into it. */
static size_t lay_out(tdn_mm_controller *c, char *base, int joint_count, int hint_count, int dims, int foot_locking)
{
    size_t at = tdn__align_up(sizeof(tdn_mm_controller), 64);
    const size_t hints = at;
    at = tdn__align_up(at + sizeof(int) * (size_t)(hint_count + 1), 64);
    const size_t query = at;
    at = tdn__align_up(at + sizeof(float) * 2 * (size_t)dims, TDN_POSE_ALIGN);
    const size_t pose_bytes = tdn_pose_bytes(joint_count), shown = at;
    at = tdn__align_up(at + 2 * tdn__align_up(pose_bytes, TDN_POSE_ALIGN), TDN_INERTIALIZER_ALIGN);
    const size_t inertializer = at;
    at = tdn__align_up(at + tdn_inertializer_bytes(joint_count), 64);
    const size_t model = at, feet = tdn__align_up(at + sizeof(tdn_mat4) * (size_t)joint_count, 64);
    if (foot_locking)
        at = feet + tdn_foot_placement_bytes(&(tdn_foot_placement_desc){ .leg_count = 2 });
    if (base) {
        c->hints = (int *)(base + hints);
        c->query = (float *)(base + query);
        c->raw = c->query + dims;
        for (int k = 0; k < 2; k++)
            tdn_pose_init(joint_count, base + shown + (size_t)k * tdn__align_up(pose_bytes, TDN_POSE_ALIGN), pose_bytes,
                          &c->shown[k], NULL);
        tdn_inertializer_init(joint_count, base + inertializer, tdn_inertializer_bytes(joint_count), &c->inertializer,
                              NULL);
        c->model = foot_locking ? (tdn_mat4 *)(base + model) : NULL;
    }
    return at;
}

/* The feet's legs: each foot, its parent and grandparent. */
static tdn_foot_placement_desc legs_of(const tdn_skeleton *skeleton, const tdn_mm_database *db)
{
    const int16_t *parents = tdn_skeleton_parents(skeleton);
    tdn_foot_placement_desc d = { .skeleton = skeleton, .leg_count = 2 };
    for (int k = 0; k < 2; k++) {
        const int end = k == 0 ? db->left_foot : db->right_foot, middle = end >= 0 ? parents[end] : -1;
        d.legs[k] = (tdn_foot_leg){ middle >= 0 ? parents[middle] : -1, middle, end };
    }
    return d;
}

/* The ground of the plane y = 0, for foot locking without a ground of the caller's. */
static int flat_ground(void *user, tdn_vec3 from, tdn_vec3 direction, float max_distance, tdn_vec3 *hit,
                       tdn_vec3 *normal)
{
    (void)user;
    if (!(direction.y < 0.0f) || from.y < 0.0f || from.y > -direction.y * max_distance)
        return 0;
    *hit = tdn_vec3_add(from, tdn_vec3_scale(direction, from.y / -direction.y));
    *normal = tdn_vec3_make(0, 1, 0);
    return 1;
}

size_t tdn_mm_controller_bytes(const tdn_mm_controller_desc *desc)
{
    if (!desc || !desc->database || !desc->skeleton || !desc->clips || desc->clip_count < 0)
        return 0;
    return lay_out(NULL, NULL, tdn_skeleton_joint_count(desc->skeleton), most_tracks(desc), desc->database->dims,
                   desc->foot_locking);
}

/* Each foot's ground: the 5th percentile of its height in the database's searchable frames, by
 * a histogram between the lowest and highest (no memory needed; a bin's width of error). */
static void feet_ground(const tdn_mm_database *db, float ground[2])
{
    enum { BINS = 512 };
    for (int foot = 0; foot < 2; foot++) {
        const int d = db->group_start[TDN_MM_FOOT_POSITION] + 3 * foot + 1;
        float lo = INFINITY, hi = -INFINITY;
        int count = 0;
        for (int i = 0; i < db->frame_count; i++)
            if (db->frames[i].searchable) {
                const float h = tdn__mm_raw(db, tdn__mm_row(db, i), d);
                lo = h < lo ? h : lo, hi = h > hi ? h : hi;
                count++;
            }
        ground[foot] = count > 0 ? lo : 0.0f;
        if (!(hi > lo))
            continue;
        int bins[BINS] = { 0 };
        for (int i = 0; i < db->frame_count; i++)
            if (db->frames[i].searchable) {
                const float h = tdn__mm_raw(db, tdn__mm_row(db, i), d);
                const float at = (h - lo) / (hi - lo) * (BINS - 1); /* in range before it is an int */
                bins[at > 0.0f ? (at < (float)(BINS - 1) ? (int)at : BINS - 1) : 0]++;
            }
        for (int b = 0, seen = 0; b < BINS; b++) {
            seen += bins[b];
            if (seen * 20 >= count) {
                ground[foot] = lo + (hi - lo) * ((float)b + 0.5f) / (BINS - 1);
                break;
            }
        }
    }
}

/* Whether the playing frame has each foot in contact: low and slow (see the desc). */
static void contacts(const tdn_mm_controller *c, int frame, int contact[2])
{
    const tdn_mm_database *db = c->db;
    const float *row = tdn__mm_row(db, frame);
    for (int foot = 0; foot < 2; foot++) {
        const int p = db->group_start[TDN_MM_FOOT_POSITION] + 3 * foot,
                  v = db->group_start[TDN_MM_FOOT_VELOCITY] + 3 * foot;
        const float height = tdn__mm_raw(db, row, p + 1);
        const float vx = tdn__mm_raw(db, row, v), vz = tdn__mm_raw(db, row, v + 2);
        contact[foot] = height <= c->ground[foot] + c->desc.contact_height &&
                        vx * vx + vz * vz <= c->desc.contact_speed * c->desc.contact_speed;
    }
}

/* What create and init refuse (see mm_controller.h). */
static tdn_result check_desc(const tdn_mm_controller_desc *desc, tdn_error *err)
{
    if (!desc || !desc->database || !desc->skeleton || !desc->clips)
        return tdn__null(err, "out");
    const tdn_mm_database *db = desc->database;
    if (db->root < 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.database", "a database made from features has no clips to play");
    const int n = tdn_skeleton_joint_count(desc->skeleton);
    if (desc->clip_count != db->clip_count)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.clip_count", "%d clips for a database of %d", desc->clip_count,
                         db->clip_count);
    if (db->root >= n || db->left_foot >= n || db->right_foot >= n)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.skeleton", "the database's joints are not in this skeleton");
    for (int i = 0; i < desc->clip_count; i++) {
        char where[32];
        snprintf(where, sizeof where, "desc.clips[%d]", i);
        if (!desc->clips[i] || tdn_skeleton_joint_count(tdn_keyed_clip_skeleton(desc->clips[i])) != n)
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "a missing clip or one of another skeleton");
        if (db->clip_frames[2 * i + 1] > 0 && !desc->mirror_table)
            return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.mirror_table", "the database has mirrored frames of clip %d",
                             i);
    }
    if (desc->mirror_table && tdn_mirror_table_check(desc->mirror_table, n, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    if (bad_setting(desc->search_interval) || bad_setting(desc->bias) || bad_setting(desc->inertialize_time) ||
        bad_setting(desc->velocity_half_life) || bad_setting(desc->facing_half_life) ||
        !tdn__finite(desc->adjust_half_life) || bad_setting(desc->sharp_velocity) || bad_setting(desc->sharp_facing) ||
        !tdn__finite(desc->adjust_max_ratio) || !tdn__finite(desc->skip_window) || bad_setting(desc->contact_height) ||
        bad_setting(desc->contact_speed) || (desc->curve != TDN_INERTIA_QUINTIC && desc->curve != TDN_INERTIA_SPRING))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc",
                         "times, bias and thresholds must be finite and >= 0, the curve known");
    return TDN_OK;
}

tdn_result tdn_mm_controller_init(const tdn_mm_controller_desc *desc, void *memory, size_t bytes,
                                  tdn_mm_controller **out, tdn_error *err)
{
    if (out)
        *out = NULL;
    tdn_result r = check_desc(desc, err);
    if (r != TDN_OK)
        return r;
    if (!out || !memory)
        return tdn__null(err, !out ? "out" : "memory");
    if (((uintptr_t)memory % TDN_MM_CONTROLLER_ALIGN) != 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "memory", "not aligned to %d bytes", TDN_MM_CONTROLLER_ALIGN);
    const tdn_mm_database *db = desc->database;
    const int n = tdn_skeleton_joint_count(desc->skeleton), hint_count = most_tracks(desc);
    const size_t needed = lay_out(NULL, NULL, n, hint_count, db->dims, desc->foot_locking);
    if (bytes < needed)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "bytes", "%zu bytes for a controller that needs %zu", bytes,
                         needed);
    tdn_mm_controller *c = memory;
    memset(c, 0, sizeof *c);
    lay_out(c, memory, n, hint_count, db->dims, desc->foot_locking);
    if (desc->foot_locking) {
        const tdn_foot_placement_desc legs = legs_of(desc->skeleton, db);
        const size_t feet_at = needed - tdn_foot_placement_bytes(&legs);
        r = tdn_foot_placement_init(&legs, (char *)memory + feet_at, tdn_foot_placement_bytes(&legs), &c->feet, err);
        if (r != TDN_OK)
            return r;
    }
    c->bytes = needed;
    c->desc = *desc;
    c->db = db;
    c->desc.search_interval = or_default(desc->search_interval, TDN_MM_DEFAULT_SEARCH_INTERVAL);
    c->desc.inertialize_time = or_default(desc->inertialize_time, DEFAULT_INERTIALIZE);
    c->desc.velocity_half_life = or_default(desc->velocity_half_life, DEFAULT_HALF_LIFE);
    c->desc.facing_half_life = or_default(desc->facing_half_life, DEFAULT_HALF_LIFE);
    c->desc.adjust_half_life = desc->adjust_half_life == 0.0f ? DEFAULT_ADJUST : desc->adjust_half_life;
    c->desc.sharp_velocity = or_default(desc->sharp_velocity, DEFAULT_SHARP_VELOCITY);
    c->desc.sharp_facing = or_default(desc->sharp_facing, DEFAULT_SHARP_FACING);
    c->desc.adjust_max_ratio = desc->adjust_max_ratio == 0.0f ? DEFAULT_ADJUST_RATIO : desc->adjust_max_ratio;
    c->desc.skip_window = desc->skip_window == 0.0f ? DEFAULT_SKIP : desc->skip_window;
    c->desc.contact_height = or_default(desc->contact_height, DEFAULT_CONTACT_HEIGHT);
    c->desc.contact_speed = or_default(desc->contact_speed, DEFAULT_CONTACT_SPEED);
    feet_ground(db, c->ground);
    c->velocity_y = TDN__HALF_LIFE_U / c->desc.velocity_half_life;
    c->facing_y = TDN__HALF_LIFE_U / c->desc.facing_half_life;
    c->joint_count = n;
    c->root = db->root;
    c->hint_count = hint_count;
    int start = 0;
    while (start < db->frame_count && !db->frames[start].searchable)
        start++;
    tdn_mm_controller_reset(c, start < db->frame_count ? start : 0, tdn_vec3_make(0, 0, 0), 0.0f, NULL);
    *out = c;
    return TDN_OK;
}

tdn_result tdn_mm_controller_create(const tdn_mm_controller_desc *desc, tdn_mm_controller **out,
                                    const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    tdn_result r = check_desc(desc, err);
    if (r != TDN_OK || (r = tdn__check_allocator(allocator, err)) != TDN_OK)
        return r;
    if (!out)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc", "a database, skeleton, clips and an output are needed");
    const size_t bytes = tdn_mm_controller_bytes(desc);
    void *memory = tdn__alloc(allocator, bytes, TDN_MM_CONTROLLER_ALIGN);
    if (!memory)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "no memory for the controller's %zu bytes", bytes);
    r = tdn_mm_controller_init(desc, memory, bytes, out, err);
    if (r != TDN_OK) {
        tdn__free(allocator, memory, bytes);
        return r;
    }
    (*out)->created = 1;
    (*out)->allocator = tdn__allocator_of(allocator);
    return TDN_OK;
}

static void play_frame(tdn_mm_controller *c, int frame)
{
    const tdn_mm_frame *f = &c->db->frames[frame];
    c->clip = f->clip;
    c->mirrored = f->mirrored;
    c->run_first = c->db->clip_first[2 * f->clip + f->mirrored];
    c->run_frames = c->db->clip_frames[2 * f->clip + f->mirrored];
    c->time = f->time;
    memset(c->hints, 0, sizeof(int) * (size_t)c->hint_count);
}

tdn_result tdn_mm_controller_reset(tdn_mm_controller *c, int frame, tdn_vec3 position, float facing, tdn_error *err)
{
    if (!c)
        return tdn__null(err, "c");
    if (frame < 0 || frame >= c->db->frame_count)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "frame", "frame %d is not within 0..%d", frame, c->db->frame_count - 1);
    if (!tdn__finite(position.x) || !tdn__finite(position.z) || !tdn__finite(facing))
        return tdn__fail(err, TDN_ERR_ARGUMENT, tdn__finite(facing) ? "position" : "facing", "not finite");
    play_frame(c, frame);
    c->position = tdn_vec3_make(position.x, 0.0f, position.z);
    c->facing = facing;
    c->sim = (simulation){ .position = c->position, .facing = facing };
    c->since_search = c->desc.search_interval; /* search on the first update */
    c->searched_once = 0;
    c->shown_frames = 0;
    c->last_cost = 0.0f;
    c->previous_dt = 0.0f;
    tdn_inertializer_start(c->inertializer, &c->shown[0], NULL, 0.0f, &c->shown[0], 0.0f, c->desc.curve, NULL);
    if (c->feet)
        tdn_foot_placement_reset(c->feet);
    return TDN_OK;
}

/* The playing frame (nearest the playback time) as a database index. */
static int playing_frame(const tdn_mm_controller *c)
{
    const float f = floorf(c->time * c->db->rate + 0.5f); /* clamped before it is an int */
    return c->run_first + (f > 0.0f ? (f < (float)(c->run_frames - 1) ? (int)f : c->run_frames - 1) : 0);
}

/* The run's simulation root at time t (interpolated between its frames). */
static void root_at(const tdn_mm_controller *c, float t, tdn_vec3 *position, float *facing)
{
    float x = t * c->db->rate;
    const float below = floorf(x), last = (float)(c->run_frames > 1 ? c->run_frames - 2 : 0);
    const int i = below > 0.0f ? (below < last ? (int)below : (int)last) : 0; /* clamped before it is an int */
    const tdn_mm_frame *a = &c->db->frames[c->run_first + i];
    const tdn_mm_frame *b = &c->db->frames[c->run_first + (c->run_frames > 1 ? i + 1 : i)];
    float u = x - (float)i;
    u = u < 0.0f ? 0.0f : u > 1.0f ? 1.0f : u;
    *position = tdn_vec3_lerp(a->root, b->root, u);
    *facing = a->facing + u * tdn__mm_wrap(b->facing - a->facing);
}

/* Position of the velocity spring's character after t seconds from `s` (see the top). */
/* One ground axis of it: from x0 moving at v0, accelerating at a0, towards velocity goal. */
static float spring_position(float x0, float v0, float a0, float goal, float y, float t, float decay)
{
    const float j0 = v0 - goal, j1 = a0 + j0 * y;
    return x0 + goal * t + j0 / y + j1 / (y * y) - decay * ((j0 + j1 * t) / y + j1 / (y * y));
}

static tdn_vec3 predicted_position(const simulation *s, tdn_vec3 goal, float y, float t)
{
    const float decay = expf(-y * t);
    return tdn_vec3_make(spring_position(s->position.x, s->velocity.x, s->acceleration.x, goal.x, y, t, decay), 0.0f,
                         spring_position(s->position.z, s->velocity.z, s->acceleration.z, goal.z, y, t, decay));
}

static float predicted_facing(const simulation *s, float goal, float y, float t)
{
    float facing = s->facing, rate = s->turn_rate;
    tdn__spring_step(&facing, &rate, s->facing + tdn__mm_wrap(goal - s->facing), y, t);
    return facing;
}

static void simulate(tdn_mm_controller *c, const tdn_mm_input *in, float dt)
{
    simulation *s = &c->sim;
    const tdn_vec3 goal = tdn_vec3_make(in->velocity.x, 0.0f, in->velocity.z);
    s->position = predicted_position(s, goal, c->velocity_y, dt);
    tdn__spring_step(&s->velocity.x, &s->acceleration.x, goal.x, c->velocity_y, dt);
    tdn__spring_step(&s->velocity.z, &s->acceleration.z, goal.z, c->velocity_y, dt);
    tdn__spring_step(&s->facing, &s->turn_rate, s->facing + tdn__mm_wrap(in->facing - s->facing), c->facing_y, dt);
}

/* The query: the predicted trajectory (normalized) and the playing frame's pose features. */
static void make_query(tdn_mm_controller *c, const tdn_mm_input *in, int frame)
{
    const tdn_mm_database *db = c->db;
    const tdn_vec3 goal = tdn_vec3_make(in->velocity.x, 0.0f, in->velocity.z);
    for (int k = 0; k < db->offset_count; k++) {
        const float t = (float)db->offsets[k] / db->rate;
        c->ahead[k] = predicted_position(&c->sim, goal, c->velocity_y, t);
        c->ahead_facing[k] = predicted_facing(&c->sim, in->facing, c->facing_y, t);
    }
    tdn__mm_trajectory_features(db, c->sim.position, c->sim.facing, c->ahead, c->ahead_facing, c->raw);
    for (int g = TDN_MM_TRAJECTORY_POSITION; g <= TDN_MM_TRAJECTORY_FACING; g++)
        for (int d = db->group_start[g]; d < db->group_start[g] + db->group_size[g]; d++)
            c->query[d] = (c->raw[d] - db->mean[d]) * db->scale[d];
    const float *playing = tdn__mm_row(db, frame);
    for (int g = TDN_MM_FOOT_POSITION; g < TDN_MM_GROUP_COUNT; g++)
        memcpy(c->query + db->group_start[g], playing + db->group_start[g], sizeof(float) * (size_t)db->group_size[g]);
}

static int wants_search(const tdn_mm_controller *c, const tdn_mm_input *in, int frame)
{
    if (!c->searched_once || c->since_search >= c->desc.search_interval || !c->db->frames[frame].searchable)
        return 1;
    const tdn_vec3 dv = tdn_vec3_sub(in->velocity, c->last_search_input.velocity);
    return sqrtf(dv.x * dv.x + dv.z * dv.z) > c->desc.sharp_velocity ||
           fabsf(tdn__mm_wrap(in->facing - c->last_search_input.facing)) > c->desc.sharp_facing;
}

/* The clip's pose at the playback time, the root joint placed on the character. */
static void sample_placed(tdn_mm_controller *c, tdn_pose *pose)
{
    const tdn_keyed_clip *clip = c->desc.clips[c->clip];
    const float duration = tdn_keyed_clip_duration(clip);
    tdn_keyed_clip_sample(clip, c->time < duration ? c->time : duration, pose, c->hints, NULL);
    if (c->mirrored)
        tdn_pose_mirror(pose, c->desc.mirror_table, pose, NULL);
    tdn_vec3 root;
    float root_facing;
    root_at(c, c->time, &root, &root_facing);
    tdn_transform x = tdn_pose_get(pose, c->root);
    const tdn_vec3 offset = tdn__mm_into_root(tdn_vec3_sub(x.t, root), root_facing);
    x.t = tdn_vec3_add(c->position, tdn__mm_from_root(offset, c->facing));
    x.r = tdn_quat_normalize(
        tdn_quat_mul(tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), c->facing - root_facing), x.r));
    tdn_pose_set(pose, c->root, &x);
}

tdn_result tdn_mm_controller_update(tdn_mm_controller *c, const tdn_mm_input *in, float dt, tdn_pose *pose,
                                    tdn_mm_status *status, tdn_error *err)
{
    if (!c || !in || !pose || pose->joint_count != c->joint_count || !(dt >= 0.0f) || !tdn__finite(dt) ||
        !tdn__finite(in->velocity.x) || !tdn__finite(in->velocity.z) || !tdn__finite(in->facing)) {
        if (!c || !in || !pose)
            return tdn__null(err, !c ? "c" : !in ? "input" : "pose");
        if (pose->joint_count != c->joint_count)
            return tdn__pose_size(err, "pose", pose->joint_count, c->joint_count, "the controller's skeleton");
        if (!(dt >= 0.0f) || !tdn__finite(dt))
            return tdn__fail(err, TDN_ERR_ARGUMENT, "dt", "%g is not a finite time >= 0", (double)dt);
        return tdn__fail(err, TDN_ERR_ARGUMENT, "input", "the velocity or facing is not finite");
    }
    const tdn_mm_database *db = c->db;
    simulate(c, in, dt);

    /* playback and the clip's root motion, turned from the clip's root frame to the character's */
    tdn_vec3 before, after;
    float facing_before, facing_after;
    root_at(c, c->time, &before, &facing_before);
    const float last_time = (float)(c->run_frames - 1) / db->rate;
    c->time = c->time + dt < last_time ? c->time + dt : last_time;
    root_at(c, c->time, &after, &facing_after);
    const tdn_vec3 moved = tdn__mm_from_root(tdn__mm_into_root(tdn_vec3_sub(after, before), facing_before), c->facing);
    const float turned = tdn__mm_wrap(facing_after - facing_before);
    c->position = tdn_vec3_add(c->position, moved);
    c->facing += turned;
    if (c->desc.adjust_half_life > 0.0f) {
        /* the pull towards the simulation: a half-life, and along the ground at most a fraction
         * of the clip's own motion (Holden's clamp: a character standing still is not slid) */
        const float pull = 1.0f - exp2f(-dt / c->desc.adjust_half_life);
        tdn_vec3 step = tdn_vec3_scale(tdn_vec3_sub(c->sim.position, c->position), pull);
        const float turn = pull * tdn__mm_wrap(c->sim.facing - c->facing);
        if (c->desc.adjust_max_ratio >= 0.0f) {
            const float most = c->desc.adjust_max_ratio * tdn_vec3_length(moved), length = tdn_vec3_length(step);
            if (length > most)
                step = tdn_vec3_scale(step, most / length);
        }
        c->position = tdn_vec3_add(c->position, step);
        c->facing += turn;
    }
    c->facing = tdn__mm_wrap(c->facing);
    c->sim.facing = tdn__mm_wrap(c->sim.facing);

    /* search */
    int frame = playing_frame(c), searched = 0, switched = 0;
    c->since_search += dt;
    if (wants_search(c, in, frame)) {
        make_query(c, in, frame);
        tdn_mm_match m;
        const float window = c->desc.skip_window * db->rate; /* frames, clamped before it is an int */
        const int skip = window > 0.0f ? (window < (float)db->frame_count ? (int)window : db->frame_count) : 0;
        const int skip_first = frame - skip > c->run_first ? frame - skip : c->run_first;
        const int skip_end = frame + skip + 1 < c->run_first + c->run_frames ? frame + skip + 1
                                                                             : c->run_first + c->run_frames;
        tdn_mm_search_skipping(db, c->query, frame, c->desc.bias, skip_first, skip_end, TDN_MM_SEARCH_ACCELERATED, &m,
                               NULL);
        searched = 1;
        c->searched_once = 1;
        c->since_search = 0.0f;
        c->last_search_input = *in;
        c->last_cost = m.cost;
        if (m.frame >= 0 && m.frame != frame) {
            play_frame(c, m.frame);
            frame = m.frame;
            switched = 1;
        }
    }

    sample_placed(c, pose);
    if (switched && c->shown_frames > 0)
        tdn_inertializer_start(c->inertializer, &c->shown[0], c->shown_frames > 1 ? &c->shown[1] : NULL, c->previous_dt,
                               pose, c->desc.inertialize_time, c->desc.curve, NULL);
    tdn_inertializer_apply(c->inertializer, dt, pose, NULL);
    tdn_pose_copy(&c->shown[1], &c->shown[0], NULL);
    tdn_pose_copy(&c->shown[0], pose, NULL);
    c->shown_frames += c->shown_frames < 2;
    c->previous_dt = dt;

    int contact[2];
    contacts(c, frame, contact);
    if (c->feet) {
        tdn_model_space(c->desc.skeleton, pose, NULL, c->model, NULL);
        tdn_foot_placement_frame feet = { .dt = dt,
                                          .ground = c->desc.ground ? c->desc.ground : flat_ground,
                                          .ground_user = c->desc.ground_user,
                                          .contact = { (float)contact[0], (float)contact[1] },
                                          .weight = 1.0f };
        tdn_foot_placement_solve(c->feet, &feet, pose, c->model, NULL, NULL);
    }
    if (status) {
        *status = (tdn_mm_status){ .frame = frame,
                                   .clip = c->clip,
                                   .mirrored = c->mirrored,
                                   .time = c->time,
                                   .searched = searched,
                                   .switched = switched,
                                   .cost = c->last_cost,
                                   .position = c->position,
                                   .facing = c->facing,
                                   .simulated = c->sim.position,
                                   .simulated_facing = c->sim.facing };
        status->contact[0] = contact[0], status->contact[1] = contact[1];
    }
    return TDN_OK;
}

tdn_result tdn_mm_controller_translate(tdn_mm_controller *c, tdn_vec3 offset, tdn_error *err)
{
    if (!c)
        return tdn__null(err, "c");
    if (!tdn__finite(offset.x) || !tdn__finite(offset.z))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "offset", "the offset is not finite");
    const tdn_vec3 d = tdn_vec3_make(offset.x, 0.0f, offset.z);
    c->position = tdn_vec3_add(c->position, d);
    c->sim.position = tdn_vec3_add(c->sim.position, d);
    for (int k = 0; k < TDN_MM_MAX_OFFSETS; k++)
        c->ahead[k] = tdn_vec3_add(c->ahead[k], d);
    /* the poses shown keep their place on the character: the next switch's offsets (shown
     * minus destination) are differences, the same after the move */
    for (int k = 0; k < 2; k++) {
        tdn_transform x = tdn_pose_get(&c->shown[k], c->root);
        x.t = tdn_vec3_add(x.t, d);
        tdn_pose_set(&c->shown[k], c->root, &x);
    }
    if (c->feet) /* its locks hold world positions: they move with the world */
        tdn_foot_placement_translate(c->feet, d, NULL);
    return TDN_OK;
}

int tdn_mm_controller_trajectory(const tdn_mm_controller *c, tdn_vec3 *positions, float *facings, int count)
{
    if (!c || count <= 0)
        return 0;
    const int n = count < c->db->offset_count ? count : c->db->offset_count;
    for (int k = 0; k < n; k++) {
        if (positions)
            positions[k] = c->ahead[k];
        if (facings)
            facings[k] = c->ahead_facing[k];
    }
    return n;
}

const float *tdn_mm_controller_query(const tdn_mm_controller *c) { return c && c->searched_once ? c->query : NULL; }
