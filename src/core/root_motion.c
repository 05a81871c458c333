/* tendon core: root motion (root_motion.h).
 *
 * A root track keeps the chosen joint's local translation and rotation at every frame of the
 * runtime clip (sampled once at build through tdn_clip_sample, rotations made sign-continuous)
 * and interpolates them like tdn_clip_sample: u = t * frames_per_second, lerp between frames
 * floor(u) and floor(u) + 1, the rotation renormalized. Everything after that is done in
 * double: the reference frame F(t) = (g(t), H(t)), steps between two times of a lap, the whole
 * lap L = step(0 -> duration) (precomputed), and their composition across a player's wraps:
 *   LOOP forward, k wraps:   step(from -> D) . L^(k-1) . step(0 -> to)
 *   LOOP backward, k wraps:  step(from -> 0) . L^-(k-1) . step(D -> to)
 *   PINGPONG, k turns:       step(from -> E1) . [step(E1 -> E0) if k - 1 is odd] . step(Ek -> to)
 * with E1 the end the cursor headed for, E0 the other, Ek the end of the k-th turn (E1 for odd
 * k). Whole ping-pong legs come in pairs L^-1 . L that cancel, so only the parity of k - 1
 * matters; L^n is computed by squaring (O(log n) for any wrap count). The composition of steps
 * (d1, r1) . (d2, r2) = (d1 + r1 d2, r1 r2): the later step is expressed in the frame the
 * earlier one leaves. */
#include "tendon/root_motion.h"

#include <float.h>
#include <stdlib.h>

#include "internal.h"
#include "motion_sum.h"
#include "root_track_internal.h"

/* ---- double-precision vectors and quaternions ---- */

typedef struct dvec {
    double x, y, z;
} dvec;
typedef struct dquat {
    double x, y, z, w;
} dquat;
typedef struct dmotion {
    dvec d;
    dquat r;
} dmotion;

static dvec dv(double x, double y, double z)
{
    dvec v = { x, y, z };
    return v;
}
static dvec dv_add(dvec a, dvec b) { return dv(a.x + b.x, a.y + b.y, a.z + b.z); }
static dvec dv_sub(dvec a, dvec b) { return dv(a.x - b.x, a.y - b.y, a.z - b.z); }
static dvec dv_scale(dvec a, double s) { return dv(a.x * s, a.y * s, a.z * s); }
static double dv_dot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static dvec dv_cross(dvec a, dvec b) { return dv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static dvec dv_from(tdn_vec3 v) { return dv(v.x, v.y, v.z); }
static tdn_vec3 dv_to(dvec v) { return tdn_vec3_make((float)v.x, (float)v.y, (float)v.z); }

static dquat dq(double x, double y, double z, double w)
{
    dquat q = { x, y, z, w };
    return q;
}
static const dquat dq_identity = { 0.0, 0.0, 0.0, 1.0 };
static dquat dq_conj(dquat q) { return dq(-q.x, -q.y, -q.z, q.w); }
static double dq_dot(dquat a, dquat b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
static dquat dq_mul(dquat a, dquat b)
{
    return dq(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
              a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}
static dquat dq_normalize(dquat q)
{
    double n = sqrt(dq_dot(q, q));
    return n > 1e-300 && isfinite(n) ? dq(q.x / n, q.y / n, q.z / n, q.w / n) : dq_identity;
}
static dvec dq_rotate(dquat q, dvec v)
{
    dvec u = dv(q.x, q.y, q.z);
    dvec t = dv_scale(dv_cross(u, v), 2.0);
    return dv_add(dv_add(v, dv_scale(t, q.w)), dv_cross(u, t));
}
static dquat dq_from(tdn_quat q) { return dq(q.x, q.y, q.z, q.w); }
static tdn_quat dq_to(dquat q) { return tdn_quat_make((float)q.x, (float)q.y, (float)q.z, (float)q.w); }

/* Rotation vector (axis * angle, angle in [0, pi]) of unit q, the short way. */
static dvec dq_log2(dquat q)
{
    if (q.w < 0.0)
        q = dq(-q.x, -q.y, -q.z, -q.w);
    dvec v = dv(q.x, q.y, q.z);
    double s = sqrt(dv_dot(v, v));
    if (s < 1e-12)
        return dv_scale(v, 2.0); /* first order: angle ~ 2 s */
    return dv_scale(v, 2.0 * atan2(s, q.w) / s);
}

/* The twist of q about unit axis `up`: the rotation about up such that q = twist * tilt with
 * tilt free of any turn about up (swing-twist). Identity when q turns up upside down (the
 * projection vanishes: no twist is defined). */
static dquat twist_about(dquat q, dvec up)
{
    double p = q.x * up.x + q.y * up.y + q.z * up.z;
    dquat t = dq(up.x * p, up.y * p, up.z * p, q.w);
    double n = sqrt(dq_dot(t, t));
    if (!(n > 1e-9))
        return dq_identity;
    return dq(t.x / n, t.y / n, t.z / n, t.w / n);
}

static dmotion motion_identity(void)
{
    dmotion m = { { 0.0, 0.0, 0.0 }, { 0.0, 0.0, 0.0, 1.0 } };
    return m;
}
/* a then b. */
static dmotion motion_compose(dmotion a, dmotion b)
{
    dmotion m = { dv_add(a.d, dq_rotate(a.r, b.d)), dq_normalize(dq_mul(a.r, b.r)) };
    return m;
}
static dmotion motion_inverse(dmotion a)
{
    dquat ri = dq_conj(a.r);
    dmotion m = { dv_scale(dq_rotate(ri, a.d), -1.0), ri };
    return m;
}
/* a composed with itself n times (n >= 0), by squaring. */
static dmotion motion_power(dmotion a, long long n)
{
    dmotion result = motion_identity();
    while (n > 0) {
        if (n & 1)
            result = motion_compose(result, a);
        a = motion_compose(a, a);
        n >>= 1;
    }
    return result;
}

/* ---- the track ---- */

struct tdn_root_track {
    tdn_allocator allocator;
    size_t bytes;
    tdn_root_track_desc desc; /* up normalized */
    dvec up;
    float duration;
    double frames_per_second; /* (frame_count - 1) / duration; 0 for one frame */
    int frame_count;
    int joint_count;     /* the clip's */
    dmotion lap;         /* step(0 -> duration) */
    const float *frames; /* frame_count * TDN__ROOT_TRACK_FLOATS: after the header, or a pack's */
};

/* The joint's local translation and rotation at clip time t, as tdn_clip_sample computes them. */
static void track_sample(const tdn_root_track *tr, float time, dvec *p, dquat *q)
{
    const float *f0 = tr->frames, *f1 = tr->frames;
    float a = 0.0f;
    if (tr->frame_count > 1) {
        const double u = (double)tdn__clamp_time(time, tr->duration) * tr->frames_per_second;
        const int last = tr->frame_count - 1;
        const int i = (int)u < last ? (int)u : last - 1;
        f0 = tr->frames + (size_t)i * TDN__ROOT_TRACK_FLOATS;
        f1 = f0 + TDN__ROOT_TRACK_FLOATS;
        a = (float)(u - i);
    }
    float v[TDN__ROOT_TRACK_FLOATS];
    for (int k = 0; k < TDN__ROOT_TRACK_FLOATS; ++k)
        v[k] = f0[k] + (f1[k] - f0[k]) * a;
    const float inv = 1.0f / sqrtf(v[3] * v[3] + v[4] * v[4] + v[5] * v[5] + v[6] * v[6]);
    *p = dv(v[0], v[1], v[2]);
    *q = dq((double)(v[3] * inv), (double)(v[4] * inv), (double)(v[5] * inv), (double)(v[6] * inv));
}

/* F = (g, H) from a local (p, q). */
static void reference_of(const tdn_root_track *tr, dvec p, dquat q, dvec *g, dquat *h)
{
    *g = tr->desc.keep_vertical ? p : dv_sub(p, dv_scale(tr->up, dv_dot(p, tr->up)));
    switch (tr->desc.rotation) {
    case TDN_ROOT_FULL_ROTATION:
        *h = dq_normalize(q);
        break;
    case TDN_ROOT_NO_ROTATION:
        *h = dq_identity;
        break;
    default:
        *h = twist_about(q, tr->up);
        break;
    }
}

static void frame_at(const tdn_root_track *tr, float t, dvec *g, dquat *h)
{
    dvec p;
    dquat q;
    track_sample(tr, t, &p, &q);
    reference_of(tr, p, q, g, h);
}

/* step(a -> b) within a lap: (H(a)^-1 (g(b) - g(a)), H(a)^-1 H(b)). */
static dmotion step_between(const tdn_root_track *tr, float a, float b)
{
    dvec ga, gb;
    dquat ha, hb;
    frame_at(tr, a, &ga, &ha);
    frame_at(tr, b, &gb, &hb);
    const dquat hai = dq_conj(ha);
    dmotion m = { dq_rotate(hai, dv_sub(gb, ga)), dq_normalize(dq_mul(hai, hb)) };
    return m;
}

int tdn__root_track_frame_count(float duration, float sample_rate)
{
    if (!(duration > 0.0f))
        return 1;
    const double frames = floor((double)sample_rate * duration + 0.5) + 1.0;
    return frames > 2.0 ? (frames < 1e8 ? (int)frames : 100000000) : 2;
}

tdn_result tdn__root_track_frames(const tdn_clip *clip, int joint, int frame_count, float *frames,
                                  const tdn_allocator *allocator, tdn_error *err)
{
    tdn_pose scratch;
    if (tdn_pose_create(tdn_clip_joint_count(clip), &scratch, allocator, err) != TDN_OK)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "tdn_root_track_create", "a scratch pose of %d joints",
                         tdn_clip_joint_count(clip));
    const float duration = tdn_clip_duration(clip) > 0.0f ? tdn_clip_duration(clip) : 0.0f;
    /* only the lanes of the root joint's translation and rotation: what a full sample gives it */
    const int begin = joint / TDN_POSE_LANES * TDN_POSE_LANES;
    const int end = begin + TDN_POSE_LANES < scratch.stride ? begin + TDN_POSE_LANES : scratch.stride;
    for (int f = 0; f < frame_count; ++f) {
        const float t = frame_count > 1 ? (float)((double)duration * f / (frame_count - 1)) : 0.0f;
        tdn__clip_sample_range(clip, NULL, t, &scratch, begin, end, TDN__ROWS_T | TDN__ROWS_R);
        tdn_transform x = tdn_pose_get(&scratch, joint);
        float *v = frames + (size_t)f * TDN__ROOT_TRACK_FLOATS;
        if (f > 0 && tdn_quat_dot(x.r, tdn_quat_make(v[-4], v[-3], v[-2], v[-1])) < 0.0f)
            x.r = tdn_quat_negate(x.r); /* sign-continuous, so the lerp takes the short way */
        v[0] = x.t.x, v[1] = x.t.y, v[2] = x.t.z;
        v[3] = x.r.x, v[4] = x.r.y, v[5] = x.r.z, v[6] = x.r.w;
    }
    tdn_pose_destroy(&scratch);
    return TDN_OK;
}

/* `desc` (NULL: the defaults) checked against `clip`, with `up` normalized (+Y for a zero up). */
static tdn_result normalized_desc(const tdn_clip *clip, const tdn_root_track_desc *desc, tdn_root_track_desc *out,
                                  dvec *up_out, tdn_error *err)
{
    tdn_root_track_desc d = desc ? *desc : (tdn_root_track_desc){ 0 };
    const int joint_count = tdn_clip_joint_count(clip);
    if (d.joint < 0 || d.joint >= joint_count)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.joint", "joint %d is not a joint of the clip (0..%d)", d.joint,
                         joint_count - 1);
    if (d.rotation != TDN_ROOT_YAW && d.rotation != TDN_ROOT_FULL_ROTATION && d.rotation != TDN_ROOT_NO_ROTATION)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.rotation", "unknown rotation mode %d", (int)d.rotation);
    if (!isfinite(d.up.x) || !isfinite(d.up.y) || !isfinite(d.up.z))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.up", "up must be finite");
    dvec up = dv(d.up.x, d.up.y, d.up.z);
    double len = sqrt(dv_dot(up, up));
    up = len > 1e-30 && isfinite(len) ? dv_scale(up, 1.0 / len) : dv(0.0, 1.0, 0.0);
    d.up = dv_to(up);
    d.keep_vertical = d.keep_vertical != 0;
    *out = d;
    *up_out = up;
    return TDN_OK;
}

/* A track of `clip` for `desc` whose frames are `frames`, or (frames NULL) its own, uninitialized,
 * after the header; the lap is the caller's to compute once the frames are there. */
static tdn_result track_begin(const tdn_clip *clip, const tdn_root_track_desc *desc, const float *frames,
                              const tdn_allocator *allocator, tdn_root_track **out, tdn_error *err)
{
    static const char *where = "tdn_root_track_create";
    *out = NULL;
    tdn_root_track_desc d;
    dvec up;
    tdn_result r = normalized_desc(clip, desc, &d, &up, err);
    if (r != TDN_OK)
        return r;
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    if (tdn_clip_is_additive(clip))
        return tdn__fail(err, TDN_ERR_UNSUPPORTED, where, "clip '%s' is additive: its root is a difference",
                         tdn_clip_name(clip));
    const float duration = tdn_clip_duration(clip);
    const int frame_count = tdn__root_track_frame_count(duration, tdn_clip_sample_rate(clip));
    const size_t header = tdn__align_up(sizeof(tdn_root_track), 32);
    const size_t bytes = header + (frames ? 0 : (size_t)frame_count * TDN__ROOT_TRACK_FLOATS * sizeof(float));
    tdn_root_track *tr = tdn__alloc(allocator, bytes, 32);
    if (!tr)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, where, "%zu bytes for the track", bytes);
    memset(tr, 0, sizeof *tr);
    tr->allocator = tdn__allocator_of(allocator);
    tr->bytes = bytes;
    tr->desc = d;
    tr->up = up;
    tr->duration = duration > 0.0f ? duration : 0.0f;
    tr->frame_count = frame_count;
    tr->joint_count = tdn_clip_joint_count(clip);
    tr->frames_per_second = frame_count > 1 ? (double)(frame_count - 1) / tr->duration : 0.0;
    tr->frames = frames ? frames : (const float *)((char *)tr + header);
    *out = tr;
    return TDN_OK;
}

tdn_result tdn_root_track_create(const tdn_clip *clip, const tdn_root_track_desc *desc, tdn_root_track **out,
                                 const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!clip || !out)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "tdn_root_track_create", "clip and out must not be NULL");
    tdn_root_track *tr;
    tdn_result r = track_begin(clip, desc, NULL, allocator, &tr, err);
    if (r != TDN_OK)
        return r;
    /* its own frames, after the header: written once, here */
    r = tdn__root_track_frames(clip, tr->desc.joint, tr->frame_count, (float *)tr->frames, allocator, err);
    if (r != TDN_OK) {
        tdn_root_track_destroy(tr);
        return r;
    }
    tr->lap = step_between(tr, 0.0f, tr->duration);
    *out = tr;
    return TDN_OK;
}

tdn_result tdn__root_track_create_over(const tdn_clip *clip, const tdn_root_track_desc *desc, const float *frames,
                                       tdn_root_track **out, const tdn_allocator *allocator, tdn_error *err)
{
    tdn_root_track *tr;
    tdn_result r = track_begin(clip, desc, frames, allocator, &tr, err);
    if (r != TDN_OK)
        return r;
    tr->lap = step_between(tr, 0.0f, tr->duration);
    *out = tr;
    return TDN_OK;
}

int tdn__root_track_fits(const tdn_root_track *track, const tdn_clip *clip, const tdn_root_track_desc *desc)
{
    tdn_root_track_desc d = { 0 };
    dvec up = { 0.0, 0.0, 0.0 };
    if (normalized_desc(clip, desc, &d, &up, NULL) != TDN_OK)
        return 0;
    const tdn_root_track_desc *t = &track->desc;
    const float duration = tdn_clip_duration(clip) > 0.0f ? tdn_clip_duration(clip) : 0.0f;
    return t->joint == d.joint && t->rotation == d.rotation && t->keep_vertical == d.keep_vertical &&
           memcmp(&t->up, &d.up, sizeof d.up) == 0 && track->joint_count == tdn_clip_joint_count(clip) &&
           track->duration == duration &&
           track->frame_count == tdn__root_track_frame_count(tdn_clip_duration(clip), tdn_clip_sample_rate(clip));
}

void tdn_root_track_destroy(tdn_root_track *track)
{
    if (track) {
        tdn_allocator a = track->allocator;
        tdn__free(&a, track, track->bytes);
    }
}

float tdn_root_track_duration(const tdn_root_track *track) { return track ? track->duration : 0.0f; }

tdn_root_track_desc tdn_root_track_desc_of(const tdn_root_track *track)
{
    tdn_root_track_desc d = { 0 };
    return track ? track->desc : d;
}

void tdn_root_track_frame(const tdn_root_track *track, float time, tdn_vec3 *position, tdn_quat *facing)
{
    dvec g = dv(0.0, 0.0, 0.0);
    dquat h = dq_identity;
    if (track)
        frame_at(track, time, &g, &h);
    if (position)
        *position = dv_to(g);
    if (facing)
        *facing = dq_to(h);
}

/* ---- motions ---- */

static void finish(dmotion m, double seconds, tdn_root_motion *out)
{
    out->translation = dv_to(m.d);
    out->rotation = dq_to(m.r);
    if (seconds > 0.0 && isfinite(seconds)) {
        out->linear_velocity = dv_to(dv_scale(m.d, 1.0 / seconds));
        out->angular_velocity = dv_to(dv_scale(dq_log2(m.r), 1.0 / seconds));
    } else {
        out->linear_velocity = out->angular_velocity = tdn_vec3_make(0.0f, 0.0f, 0.0f);
    }
}

static void identity_out(tdn_root_motion *out)
{
    if (out)
        finish(motion_identity(), 0.0, out);
}

tdn_result tdn_root_track_motion_between(const tdn_root_track *track, float from, float to, tdn_root_motion *out,
                                         tdn_error *err)
{
    if (!track || !out) {
        identity_out(out);
        return tdn__null(err, !track ? "track" : "out");
    }
    const float a = tdn__clamp_time(from, track->duration), b = tdn__clamp_time(to, track->duration);
    finish(step_between(track, a, b), fabs((double)b - (double)a), out);
    return TDN_OK;
}

tdn_root_motion tdn_root_track_lap(const tdn_root_track *track)
{
    tdn_root_motion m;
    finish(track ? track->lap : motion_identity(), track ? track->duration : 0.0, &m);
    return m;
}

tdn_result tdn_root_track_motion(const tdn_root_track *track, const tdn_player *player, float dt, tdn_root_motion *out,
                                 tdn_error *err)
{
    if (!track || !player || !out) {
        identity_out(out);
        return tdn__null(err, !track ? "track" : !player ? "player" : "out");
    }
    const float d = track->duration;
    const float from = tdn__clamp_time(player->last_from, d), to = tdn__clamp_time(player->time, d);
    const long long wraps = player->last_wraps > 0 ? player->last_wraps : 0;
    const int forward = player->last_forward != 0;
    dmotion m;
    if (wraps == 0 || d <= 0.0f || player->wrap == TDN_WRAP_CLAMP) {
        m = step_between(track, from, to);
    } else if (player->wrap == TDN_WRAP_LOOP) {
        /* To the end, whole laps landing on the start, the last lap from the start. */
        const dmotion lap = forward ? track->lap : motion_inverse(track->lap);
        m = step_between(track, from, forward ? d : 0.0f);
        m = motion_compose(m, motion_power(lap, wraps - 1));
        m = motion_compose(m, step_between(track, forward ? 0.0f : d, to));
    } else {
        /* PINGPONG: to the first end E1, whole legs alternating (pairs cancel), then away from
         * the last turn. */
        const float e1 = forward ? d : 0.0f, e0 = forward ? 0.0f : d;
        m = step_between(track, from, e1);
        if ((wraps - 1) % 2 == 1)
            m = motion_compose(m, step_between(track, e1, e0));
        m = motion_compose(m, step_between(track, wraps % 2 == 1 ? e1 : e0, to));
    }
    finish(m, (double)dt, out);
    return TDN_OK;
}

tdn_root_motion tdn_root_motion_compose(const tdn_root_motion *a, const tdn_root_motion *b, float seconds)
{
    dmotion ma = motion_identity(), mb = motion_identity();
    if (a) {
        ma.d = dv_from(a->translation);
        ma.r = dq_normalize(dq_from(a->rotation));
    }
    if (b) {
        mb.d = dv_from(b->translation);
        mb.r = dq_normalize(dq_from(b->rotation));
    }
    tdn_root_motion out;
    finish(motion_compose(ma, mb), (double)seconds, &out);
    return out;
}

static double clean_weight(float w) { return w > 0.0f && isfinite(w) ? (double)w : 0.0; }

void tdn__motion_sum_start(tdn__motion_sum *sum, double total)
{
    memset(sum, 0, sizeof *sum);
    sum->total = total;
}

double tdn__motion_weight(float w) { return clean_weight(w); }

void tdn__motion_sum_add(tdn__motion_sum *sum, const tdn_root_motion *m, float weight)
{
    if (sum->count++ == 0)
        sum->first = *m;
    if (!(sum->total >= 1e-6))
        return;
    const double w = clean_weight(weight) / sum->total;
    if (w == 0.0)
        return;
    const tdn_vec3 *v[3] = { &m->translation, &m->linear_velocity, &m->angular_velocity };
    double *acc[3] = { sum->t, sum->lv, sum->av };
    for (int i = 0; i < 3; i++) {
        acc[i][0] += (double)v[i]->x * w;
        acc[i][1] += (double)v[i]->y * w;
        acc[i][2] += (double)v[i]->z * w;
    }
    const dquat r = dq(sum->r[0], sum->r[1], sum->r[2], sum->r[3]), q = dq_from(m->rotation);
    const double s = dq_dot(r, q) < 0.0 ? -w : w; /* agree with the sum so far: the short way */
    sum->r[0] = r.x + q.x * s;
    sum->r[1] = r.y + q.y * s;
    sum->r[2] = r.z + q.z * s;
    sum->r[3] = r.w + q.w * s;
}

void tdn__motion_sum_finish(const tdn__motion_sum *sum, tdn_root_motion *out)
{
    if (sum->count == 0) {
        identity_out(out);
        return;
    }
    if (!(sum->total >= 1e-6)) {
        *out = sum->first;
        out->rotation = dq_to(dq_normalize(dq_from(out->rotation)));
        return;
    }
    out->translation = dv_to(dv(sum->t[0], sum->t[1], sum->t[2]));
    out->rotation = dq_to(dq_normalize(dq(sum->r[0], sum->r[1], sum->r[2], sum->r[3])));
    out->linear_velocity = dv_to(dv(sum->lv[0], sum->lv[1], sum->lv[2]));
    out->angular_velocity = dv_to(dv(sum->av[0], sum->av[1], sum->av[2]));
}

void tdn_root_motion_blend(const tdn_root_motion *motions, const float *weights, int count, tdn_root_motion *out)
{
    if (!out)
        return;
    if (!motions || count <= 0) {
        identity_out(out);
        return;
    }
    double total = 0.0;
    for (int i = 0; i < count; ++i)
        total += weights ? clean_weight(weights[i]) : 1.0;
    tdn__motion_sum sum;
    tdn__motion_sum_start(&sum, total);
    for (int i = 0; i < count; ++i)
        tdn__motion_sum_add(&sum, &motions[i], weights ? weights[i] : 1.0f);
    tdn__motion_sum_finish(&sum, out);
}

tdn_result tdn_root_motion_remove(const tdn_root_track *track, tdn_pose *pose, tdn_error *err)
{
    if (!track || !pose || !pose->data)
        return tdn__null(err, !track ? "track" : "pose");
    if (pose->joint_count != track->joint_count)
        return tdn__pose_size(err, "pose", pose->joint_count, track->joint_count, "the track's clip");
    /* removed = F(0) * F(t)^-1 * sampled, F(t) read from the sampled pose itself. */
    tdn_transform x = tdn_pose_get(pose, track->desc.joint);
    const dvec p = dv_from(x.t);
    const dquat q = dq_normalize(dq_from(x.r));
    dvec g, g0;
    dquat h, h0;
    reference_of(track, p, q, &g, &h);
    frame_at(track, 0.0f, &g0, &h0);
    const dquat turn = dq_normalize(dq_mul(h0, dq_conj(h))); /* H(0) H(t)^-1 */
    x.t = dv_to(dv_add(g0, dq_rotate(turn, dv_sub(p, g))));
    x.r = dq_to(dq_normalize(dq_mul(turn, q)));
    tdn_pose_set(pose, track->desc.joint, &x);
    return TDN_OK;
}
