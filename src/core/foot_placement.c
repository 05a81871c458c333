/* tendon core: foot placement (foot_placement.h).
 *
 * Per frame, in the character's frame (model space, up = U):
 *   a_f   the animated ankle, h_f = a_f . U its height above the animation's ground;
 *   g_f   the ground height under it (the ray's hit . U; 0 without a hit), n_f the ground
 *         normal; both smoothed by springs, n_f then limited to max_tilt from U (n'_f);
 *   o_f = U (g_f - h_f) + n'_f h_f   the ankle's offset: its animated height kept along the
 *         normal above the hit point, so on a plane the ankle is h_f from it (and the ball of
 *         the foot, turned with it, at its own animated height);
 *   p   = min(0, min_f o_f . U)     the pelvis offset (from the unsmoothed offsets, then its
 *         own spring: one lag, not two);
 *   x_f   the lock offset along the ground: while locked the difference between the lock and
 *         a_f + o_f, after release decaying by the spring from the speed it had;
 *   target_f = a_f + w (o_f + x_f), the pelvis moved by w p U, the foot turned by
 *         slerp(1, from_to(U, n'_f), w) on top of its animated model rotation.
 * The spring is graph_params.c's critically damped spring with an exact half-life. */
#include <stdio.h>

#include "internal.h"
#include "model_frame.h"
#include "pose_rotation.h"
#include "spring.h"
#include "tendon/foot_placement.h"
#include "tendon/ik_two_bone.h"
#include "tendon/model_space.h"

typedef struct leg_state {
    float ground, ground_v;       /* smoothed ground height along up, and its rate */
    tdn_vec3 normal, normal_v;    /* smoothed ground normal (not unit), and its rate */
    tdn_vec3 lock_offset, lock_v; /* model space, perpendicular to up */
    tdn_vec3 lock_world;          /* where a locked ankle is held, world space */
    int locked;
    int pad_;
} leg_state;

struct tdn_foot_placement {
    const tdn_skeleton *skeleton;
    tdn_foot_placement_desc desc; /* defaults filled in */
    tdn_allocator allocator;
    int created;             /* 1: from tdn_foot_placement_create */
    int started;             /* 0 until the first solve after init or reset */
    float rate, pelvis_rate; /* the springs' y */
    float pelvis, pelvis_v;
    leg_state legs[];
};

/* The bytes of an instance with leg_count legs (0 for a count out of range). */
static size_t bytes_for(int leg_count)
{
    if (leg_count < 1 || leg_count > TDN_FOOT_MAX_LEGS)
        return 0;
    return tdn__align_up(sizeof(struct tdn_foot_placement) + (size_t)leg_count * sizeof(leg_state),
                         TDN_FOOT_PLACEMENT_ALIGN);
}

size_t tdn_foot_placement_bytes(const tdn_foot_placement_desc *desc) { return desc ? bytes_for(desc->leg_count) : 0; }

/* ---- small helpers ---- */

static void spring_step3(tdn_vec3 *x, tdn_vec3 *v, tdn_vec3 target, float y, float dt)
{
    tdn__spring_step(&x->x, &v->x, target.x, y, dt);
    tdn__spring_step(&x->y, &v->y, target.y, y, dt);
    tdn__spring_step(&x->z, &v->z, target.z, y, dt);
}

/* Unit n limited to `max_tilt` radians from unit up (negative: up itself). */
static tdn_vec3 limit_tilt(tdn_vec3 n, tdn_vec3 up, float max_tilt)
{
    if (max_tilt < 0.0f)
        return up;
    float c = tdn_vec3_dot(n, up);
    if (c >= cosf(max_tilt))
        return n;
    tdn_vec3 side = tdn_vec3_sub(n, tdn_vec3_scale(up, c));
    float len = tdn_vec3_length(side);
    if (!(len > 1e-6f))
        return up; /* straight down: no side to tilt towards */
    side = tdn_vec3_scale(side, 1.0f / len);
    return tdn_vec3_add(tdn_vec3_scale(up, cosf(max_tilt)), tdn_vec3_scale(side, sinf(max_tilt)));
}

/* The joint's model-space position in the skeleton's rest pose. */
static tdn_vec3 rest_position(const tdn_skeleton *skeleton, int joint)
{
    tdn_vec3 p = tdn_vec3_make(0, 0, 0);
    for (int j = joint; j >= 0; j = tdn_skeleton_parent(skeleton, j)) {
        tdn_transform x = tdn_skeleton_rest(skeleton, j);
        p = tdn_transform_point(&x, p);
    }
    return p;
}

/* ---- setup ---- */

static tdn_result bad(tdn_error *err, const char *where, const char *what)
{
    return tdn__fail(err, TDN_ERR_ARGUMENT, where, "%s", what);
}

static int in_range(int j, int n) { return j >= 0 && j < n; }

tdn_result tdn_foot_placement_init(const tdn_foot_placement_desc *desc, void *memory, size_t bytes,
                                   tdn_foot_placement **out, tdn_error *err)
{
    if (!out)
        return bad(err, "out", "NULL");
    *out = NULL;
    if (!desc)
        return bad(err, "desc", "NULL");
    const tdn_skeleton *skeleton = desc->skeleton;
    if (!skeleton)
        return bad(err, "desc.skeleton", "NULL");
    if (!memory)
        return bad(err, "memory", "NULL");
    if ((uintptr_t)memory % TDN_FOOT_PLACEMENT_ALIGN != 0)
        return bad(err, "memory", "not aligned to TDN_FOOT_PLACEMENT_ALIGN");
    if (desc->leg_count < 1 || desc->leg_count > TDN_FOOT_MAX_LEGS)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.leg_count", "%d legs: 1..%d", desc->leg_count, TDN_FOOT_MAX_LEGS);

    tdn_foot_placement_desc d = *desc;
    const int n = tdn_skeleton_joint_count(skeleton);
    char where[64];
    float longest = 0.0f;
    for (int i = 0; i < d.leg_count; i++) {
        const tdn_foot_leg *leg = &d.legs[i];
        const char *what = NULL;
        if (!in_range(leg->upper, n) || !in_range(leg->middle, n) || !in_range(leg->end, n))
            what = "joint index out of range";
        else if (leg->middle == leg->upper || leg->end == leg->middle ||
                 !tdn_skeleton_is_in_subtree(skeleton, leg->middle, leg->upper) ||
                 !tdn_skeleton_is_in_subtree(skeleton, leg->end, leg->middle))
            what = "not a chain upper -> middle -> end (each below the one before)";
        if (what) {
            snprintf(where, sizeof where, "desc.legs[%d]", i);
            return bad(err, where, what);
        }
        tdn_vec3 a = rest_position(skeleton, leg->upper), b = rest_position(skeleton, leg->middle);
        tdn_vec3 c = rest_position(skeleton, leg->end);
        float l1 = tdn_vec3_length(tdn_vec3_sub(b, a)), l2 = tdn_vec3_length(tdn_vec3_sub(c, b));
        if (!(l1 > 0.0f) || !(l2 > 0.0f) || !tdn__finite(l1 + l2)) {
            snprintf(where, sizeof where, "desc.legs[%d]", i);
            return bad(err, where, "a bone of zero length at rest");
        }
        if (l1 + l2 > longest)
            longest = l1 + l2;
    }

    /* The pelvis: given, or the nearest joint above (or at) every upper joint. */
    if (d.pelvis == 0) {
        int p = d.legs[0].upper;
        for (; p >= 0; p = tdn_skeleton_parent(skeleton, p)) {
            int all = 1;
            for (int i = 1; i < d.leg_count; i++)
                all &= tdn_skeleton_is_in_subtree(skeleton, d.legs[i].upper, p);
            if (all)
                break;
        }
        if (p < 0)
            return bad(err, "desc.pelvis", "the legs have no common ancestor (give a pelvis, or -1 for none)");
        d.pelvis = p;
    } else if (d.pelvis != -1) {
        if (!in_range(d.pelvis, n))
            return bad(err, "desc.pelvis", "joint index out of range");
        for (int i = 0; i < d.leg_count; i++)
            if (!tdn_skeleton_is_in_subtree(skeleton, d.legs[i].upper, d.pelvis))
                return bad(err, "desc.pelvis", "not an ancestor of every leg's upper joint");
    }

    if (tdn__bad_vec3(d.up))
        return bad(err, "desc.up", "not finite");
    if (tdn__bad_vec3(d.forward))
        return bad(err, "desc.forward", "not finite");
    if (d.up.x == 0.0f && d.up.y == 0.0f && d.up.z == 0.0f)
        d.up = tdn_vec3_make(0, 1, 0);
    if (d.forward.x == 0.0f && d.forward.y == 0.0f && d.forward.z == 0.0f)
        d.forward = tdn_vec3_make(0, 0, 1);
    float up_len = tdn_vec3_length(d.up), forward_len = tdn_vec3_length(d.forward);
    if (!(up_len > 1e-12f) || !tdn__finite(up_len))
        return bad(err, "desc.up", "zero length");
    if (!(forward_len > 1e-12f) || !tdn__finite(forward_len))
        return bad(err, "desc.forward", "zero length");
    d.up = tdn_vec3_scale(d.up, 1.0f / up_len);
    d.forward = tdn_vec3_scale(d.forward, 1.0f / forward_len);
    if (fabsf(tdn_vec3_dot(d.up, d.forward)) > 0.999f)
        return bad(err, "desc.forward", "along up");

    const struct {
        const char *name;
        float value;
    } fields[] = {
        { "desc.half_life", d.half_life }, { "desc.pelvis_half_life", d.pelvis_half_life },
        { "desc.max_tilt", d.max_tilt },   { "desc.lock_distance", d.lock_distance },
        { "desc.ray_above", d.ray_above }, { "desc.ray_below", d.ray_below },
        { "desc.soften", d.soften },
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (!tdn__finite(fields[i].value))
            return bad(err, fields[i].name, "not finite");
    if (d.half_life < 0.0f)
        return bad(err, "desc.half_life", "negative");
    if (d.pelvis_half_life < 0.0f)
        return bad(err, "desc.pelvis_half_life", "negative");
    if (d.ray_above < 0.0f)
        return bad(err, "desc.ray_above", "negative");
    if (d.ray_below < 0.0f)
        return bad(err, "desc.ray_below", "negative");
    if (d.half_life == 0.0f)
        d.half_life = 0.05f;
    if (d.pelvis_half_life == 0.0f)
        d.pelvis_half_life = 0.2f;
    if (d.max_tilt == 0.0f)
        d.max_tilt = 0.5235988f;
    if (d.max_tilt > TDN_PI)
        d.max_tilt = TDN_PI;
    if (d.lock_distance == 0.0f)
        d.lock_distance = 0.1f * longest;
    if (d.ray_above == 0.0f)
        d.ray_above = 0.5f * longest;
    if (d.ray_below == 0.0f)
        d.ray_below = 0.5f * longest;

    const size_t need = bytes_for(d.leg_count);
    if (bytes < need)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "bytes", "%zu bytes given, %zu needed", bytes, need);
    memset(memory, 0, need);
    tdn_foot_placement *fp = memory;
    fp->skeleton = skeleton;
    fp->desc = d;
    fp->rate = TDN__HALF_LIFE_U / d.half_life;
    fp->pelvis_rate = TDN__HALF_LIFE_U / d.pelvis_half_life;
    *out = fp;
    return TDN_OK;
}

tdn_result tdn_foot_placement_create(const tdn_foot_placement_desc *desc, tdn_foot_placement **out,
                                     const tdn_allocator *allocator, tdn_error *err)
{
    if (!out)
        return bad(err, "out", "NULL");
    *out = NULL;
    if (!desc)
        return bad(err, "desc", "NULL");
    const size_t bytes = bytes_for(desc->leg_count);
    if (bytes == 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.leg_count", "%d legs: 1..%d", desc->leg_count, TDN_FOOT_MAX_LEGS);
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    void *memory = tdn__alloc(allocator, bytes, TDN_FOOT_PLACEMENT_ALIGN);
    if (!memory)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "%zu bytes", bytes);
    tdn_foot_placement *fp = NULL;
    tdn_result r = tdn_foot_placement_init(desc, memory, bytes, &fp, err);
    if (r != TDN_OK) {
        tdn__free(allocator, memory, bytes);
        return r;
    }
    fp->created = 1;
    if (allocator)
        fp->allocator = *allocator;
    *out = fp;
    return TDN_OK;
}

void tdn_foot_placement_destroy(tdn_foot_placement *fp)
{
    if (!fp || !fp->created)
        return;
    tdn_allocator allocator = fp->allocator;
    size_t bytes = bytes_for(fp->desc.leg_count);
    memset(fp, 0, bytes);
    tdn__free(&allocator, fp, bytes);
}

void tdn_foot_placement_reset(tdn_foot_placement *fp)
{
    if (!fp)
        return;
    fp->started = 0;
    fp->pelvis = fp->pelvis_v = 0.0f;
    memset(fp->legs, 0, (size_t)fp->desc.leg_count * sizeof(leg_state));
}

tdn_result tdn_foot_placement_translate(tdn_foot_placement *fp, tdn_vec3 offset, tdn_error *err)
{
    if (!fp)
        return tdn__null(err, "fp");
    if (tdn__bad_vec3(offset))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "offset", "the offset is not finite");
    for (int i = 0; i < fp->desc.leg_count; i++)
        fp->legs[i].lock_world = tdn_vec3_add(fp->legs[i].lock_world, offset);
    return TDN_OK;
}

tdn_foot_placement_desc tdn_foot_placement_desc_of(const tdn_foot_placement *fp)
{
    tdn_foot_placement_desc d;
    memset(&d, 0, sizeof d);
    return fp ? fp->desc : d;
}

/* ---- the solve ---- */

/* What the ground query gave, in the character's frame. */
typedef struct ground_sample {
    int hit;
    float height;    /* along up */
    tdn_vec3 normal; /* unit */
} ground_sample;

static ground_sample query_ground(const tdn_foot_placement *fp, const tdn_foot_placement_frame *frame,
                                  const tdn_mat4 *world, const tdn_mat4 *inverse, tdn_vec3 ankle)
{
    const tdn_vec3 up = fp->desc.up;
    ground_sample g = { 0, 0.0f, up };
    tdn_vec3 from = tdn_mat4_transform_point(world, tdn_vec3_add(ankle, tdn_vec3_scale(up, fp->desc.ray_above)));
    tdn_vec3 down = tdn_mat4_transform_vector(world, tdn_vec3_scale(up, -1.0f));
    float scale = tdn_vec3_length(down);
    if (!(scale > 0.0f) || !tdn__finite(scale))
        return g;
    down = tdn_vec3_scale(down, 1.0f / scale);
    tdn_vec3 hit = from, normal = tdn_vec3_scale(down, -1.0f);
    if (!frame->ground(frame->ground_user, from, down, (fp->desc.ray_above + fp->desc.ray_below) * scale, &hit,
                       &normal))
        return g;
    if (tdn__bad_vec3(hit) || tdn__bad_vec3(normal) || !(tdn_vec3_dot(normal, down) < 0.0f))
        return g;
    /* Points go back through the inverse; normals through the transpose of the world's 3x3
     * (the inverse transpose of the inverse), which keeps them perpendicular to the surface
     * under any affine placement. */
    tdn_vec3 p = tdn_mat4_transform_point(inverse, hit);
    const float *m = world->m;
    tdn_vec3 n = tdn_vec3_make(m[0] * normal.x + m[1] * normal.y + m[2] * normal.z,
                               m[4] * normal.x + m[5] * normal.y + m[6] * normal.z,
                               m[8] * normal.x + m[9] * normal.y + m[10] * normal.z);
    float len = tdn_vec3_length(n);
    if (!(len > 0.0f) || tdn__bad_vec3(p) || !tdn__finite(len))
        return g;
    g.hit = 1;
    g.height = tdn_vec3_dot(p, up);
    g.normal = tdn_vec3_scale(n, 1.0f / len);
    return g;
}

static int bad_matrix(const tdn_mat4 *m)
{
    for (int i = 0; i < 16; i++)
        if (!tdn__finite(m->m[i]))
            return 1;
    return 0;
}

/* Moves joint j by the model-space vector `delta` (its local translation, through its parent's
 * frame) and recomputes model space for its subtree. */
static void move_joint(const tdn_skeleton *skeleton, tdn_pose *pose, tdn_mat4 *model, int j, tdn_vec3 delta)
{
    int parent = tdn_skeleton_parent(skeleton, j);
    if (parent >= 0) {
        tdn_mat4 inverse;
        tdn_mat4_invert(&model[parent], &inverse);
        delta = tdn_mat4_transform_vector(&inverse, delta);
    }
    tdn_pose_row(pose, TDN_TX)[j] += delta.x;
    tdn_pose_row(pose, TDN_TY)[j] += delta.y;
    tdn_pose_row(pose, TDN_TZ)[j] += delta.z;
    tdn_model_space_range(skeleton, pose, NULL, j, tdn_skeleton_subtree_end(skeleton, j), model, NULL);
}

/* Sets joint j's model rotation to `rotation` (its local rotation through its parent's) and
 * recomputes model space for its subtree. */
static void turn_joint_to(const tdn_skeleton *skeleton, tdn_pose *pose, tdn_mat4 *model, int j, tdn_quat rotation)
{
    int parent = tdn_skeleton_parent(skeleton, j);
    tdn_quat local = parent >= 0 ? tdn_quat_mul(tdn_quat_conjugate(tdn__model_rotation(&model[parent])), rotation)
                                 : rotation;
    local = tdn_quat_normalize(local);
    tdn__pose_set_rotation(pose, j, local);
    tdn_model_space_range(skeleton, pose, NULL, j, tdn_skeleton_subtree_end(skeleton, j), model, NULL);
}

tdn_result tdn_foot_placement_solve(tdn_foot_placement *fp, const tdn_foot_placement_frame *frame, tdn_pose *pose,
                                    tdn_mat4 *model, tdn_foot_placement_report *report, tdn_error *err)
{
    if (!fp || !frame || !frame->ground || !pose || !pose->data || !model)
        return tdn__null(err, !fp              ? "fp"
                              : !frame         ? "frame"
                              : !frame->ground ? "frame.ground"
                              : !model         ? "model"
                                               : "pose");
    const tdn_skeleton *skeleton = fp->skeleton;
    const tdn_foot_placement_desc *d = &fp->desc;
    if (pose->joint_count != tdn_skeleton_joint_count(skeleton))
        return tdn__pose_size(err, "pose", pose->joint_count, tdn_skeleton_joint_count(skeleton), "the skeleton");
    if (!tdn__finite(frame->dt) || frame->dt < 0.0f)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "frame.dt", "%g is not a finite time >= 0", (double)frame->dt);
    if (isnan(frame->weight))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "frame.weight", "the weight is NaN");
    for (int i = 0; i < d->leg_count; i++)
        if (isnan(frame->contact[i]))
            return tdn__fail(err, TDN_ERR_ARGUMENT, "frame.contact", "leg %d's contact is NaN", i);
    tdn_mat4 world = frame->world ? *frame->world : tdn_mat4_identity(), inverse;
    if (bad_matrix(&world) || !tdn_mat4_invert(&world, &inverse) || bad_matrix(&inverse))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "frame.world", "the world matrix is not finite or not invertible");

    const tdn_vec3 up = d->up;
    const float weight = tdn__clamp01(frame->weight), dt = frame->dt, y = fp->rate;
    const int legs = d->leg_count, start = !fp->started;

    /* The animated ankles and feet, the ground under them, and the springs. */
    tdn_vec3 ankle[TDN_FOOT_MAX_LEGS], offset[TDN_FOOT_MAX_LEGS], normal[TDN_FOOT_MAX_LEGS];
    tdn_quat foot[TDN_FOOT_MAX_LEGS];
    int hit[TDN_FOOT_MAX_LEGS];
    float pelvis_target = 0.0f;
    for (int i = 0; i < legs; i++) {
        leg_state *s = &fp->legs[i];
        const int end = d->legs[i].end;
        ankle[i] = tdn__model_position(&model[end]);
        foot[i] = tdn__model_rotation(&model[end]);
        const float h = tdn_vec3_dot(ankle[i], up);
        ground_sample g = query_ground(fp, frame, &world, &inverse, ankle[i]);
        hit[i] = g.hit;
        if (start) {
            s->ground = g.height;
            s->normal = g.normal;
            s->ground_v = 0.0f;
            s->normal_v = tdn_vec3_make(0, 0, 0);
        } else {
            tdn__spring_step(&s->ground, &s->ground_v, g.height, y, dt);
            spring_step3(&s->normal, &s->normal_v, g.normal, y, dt);
        }
        float len = tdn_vec3_length(s->normal);
        tdn_vec3 n = len > 1e-6f ? tdn_vec3_scale(s->normal, 1.0f / len) : up;
        normal[i] = limit_tilt(n, up, d->max_tilt);
        offset[i] = tdn_vec3_add(tdn_vec3_scale(up, s->ground - h), tdn_vec3_scale(normal[i], h));
        /* the pelvis follows the unsmoothed offsets through a spring of its own */
        tdn_vec3 raw = tdn_vec3_add(tdn_vec3_scale(up, g.height - h),
                                    tdn_vec3_scale(limit_tilt(g.normal, up, d->max_tilt), h));
        float down = tdn_vec3_dot(raw, up);
        if (down < pelvis_target)
            pelvis_target = down;
    }
    if (d->pelvis < 0)
        pelvis_target = 0.0f;
    if (start) {
        fp->pelvis = pelvis_target;
        fp->pelvis_v = 0.0f;
    } else {
        tdn__spring_step(&fp->pelvis, &fp->pelvis_v, pelvis_target, fp->pelvis_rate, dt);
    }

    /* Locks, along the ground (perpendicular to up). */
    for (int i = 0; i < legs; i++) {
        leg_state *s = &fp->legs[i];
        const tdn_vec3 planted = tdn_vec3_add(ankle[i], offset[i]);
        int held = 0;
        if (d->lock_distance > 0.0f && frame->contact[i] >= 0.5f) {
            if (!s->locked) {
                s->locked = 1;
                s->lock_world = tdn_mat4_transform_point(&world, tdn_vec3_add(planted, s->lock_offset));
            }
            tdn_vec3 want = tdn_vec3_sub(tdn_mat4_transform_point(&inverse, s->lock_world), planted);
            want = tdn_vec3_sub(want, tdn_vec3_scale(up, tdn_vec3_dot(want, up)));
            if (tdn_vec3_length(want) <= d->lock_distance && !tdn__bad_vec3(want)) {
                s->lock_v = !start && dt > 0.0f ? tdn_vec3_scale(tdn_vec3_sub(want, s->lock_offset), 1.0f / dt)
                                                : tdn_vec3_make(0, 0, 0);
                s->lock_offset = want;
                held = 1;
            }
        }
        if (!held) {
            s->locked = 0;
            spring_step3(&s->lock_offset, &s->lock_v, tdn_vec3_make(0, 0, 0), y, dt);
        }
    }
    fp->started = 1;

    if (report) {
        memset(report, 0, sizeof *report);
        report->pelvis_offset = weight * fp->pelvis;
    }
    for (int i = 0; i < legs && report; i++) {
        tdn_foot_leg_report *r = &report->legs[i];
        r->ground_hit = hit[i];
        r->locked = fp->legs[i].locked;
        r->reached = weight == 0.0f;
        r->ground_height = fp->legs[i].ground;
        r->normal = normal[i];
        float c = tdn_vec3_dot(normal[i], up);
        r->tilt = weight * acosf(c < 1.0f ? (c > -1.0f ? c : -1.0f) : 1.0f);
        r->target = tdn_vec3_add(ankle[i], tdn_vec3_scale(tdn_vec3_add(offset[i], fp->legs[i].lock_offset), weight));
    }
    if (weight == 0.0f)
        return TDN_OK;

    /* The pose: pelvis, then each leg's IK, then each foot's turn. */
    if (d->pelvis >= 0 && fp->pelvis != 0.0f)
        move_joint(skeleton, pose, model, d->pelvis, tdn_vec3_scale(up, weight * fp->pelvis));
    for (int i = 0; i < legs; i++) {
        const tdn_foot_leg *leg = &d->legs[i];
        tdn_vec3 a = tdn__model_position(&model[leg->upper]), b = tdn__model_position(&model[leg->middle]);
        tdn_vec3 c = tdn__model_position(&model[leg->end]);
        float l1 = tdn_vec3_length(tdn_vec3_sub(b, a)), l2 = tdn_vec3_length(tdn_vec3_sub(c, b));
        /* The hint: the side the knee is on now, off the hip-ankle line; a straight leg bends
         * towards `forward`. */
        tdn_vec3 line = tdn_vec3_sub(c, a), knee = tdn_vec3_sub(b, a);
        float line_len2 = tdn_vec3_dot(line, line);
        tdn_vec3 side = line_len2 > 0.0f
                            ? tdn_vec3_sub(knee, tdn_vec3_scale(line, tdn_vec3_dot(knee, line) / line_len2))
                            : tdn_vec3_make(0, 0, 0);
        float side_len = tdn_vec3_length(side);
        tdn_vec3 towards = side_len > 1e-3f * (l1 + l2) ? tdn_vec3_scale(side, 1.0f / side_len) : d->forward;
        tdn_ik_two_bone_job ik;
        memset(&ik, 0, sizeof ik);
        ik.upper = leg->upper;
        ik.middle = leg->middle;
        ik.end = leg->end;
        ik.target = tdn_vec3_add(ankle[i], tdn_vec3_scale(tdn_vec3_add(offset[i], fp->legs[i].lock_offset), weight));
        ik.pole = tdn_vec3_add(b, tdn_vec3_scale(towards, l1 + l2));
        ik.use_pole = 1;
        ik.weight = 1.0f;
        ik.soften = d->soften;
        int reached = 0;
        tdn_ik_two_bone(skeleton, &ik, pose, model, &reached, NULL);
        if (report)
            report->legs[i].reached = reached;
        if (d->max_tilt >= 0.0f) {
            tdn_quat tilt = tdn_quat_from_to(up, normal[i]);
            if (weight < 1.0f)
                tilt = tdn_quat_slerp(tdn_quat_identity(), tilt, weight);
            turn_joint_to(skeleton, pose, model, leg->end, tdn_quat_mul(tilt, foot[i]));
        } else {
            turn_joint_to(skeleton, pose, model, leg->end, foot[i]);
        }
    }
    return TDN_OK;
}
