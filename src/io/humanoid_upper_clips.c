/* tendon io: the generated humanoid's upper-body clips (see humanoid.h for what they promise):
 * actions (wave, point, reload), aim poses (made additive against aim_center in a graph), hit
 * reactions and hand poses.
 *
 * Every pose is written as a few angles per body part, and each clip is a function from time to
 * those angles:
 *   arm of side s (s = +1 left, -1 right):
 *     upperarm = rotY(-s fwd) rotZ(-s down)      down: degrees below the T-pose's horizontal
 *                                                fwd:  swung forward from there
 *     lowerarm = rotZ(s up) rotY(-s bend)        bend: elbow bent forward, up: forearm raised
 *     hand     = rotZ(s wrist)
 *   spine_01..05 each rotY(yaw / 5) rotX(pitch / 5) rotZ(roll / 5), neck_01, neck_02 and head
 *   their own (yaw, pitch, roll); pitch > 0 bends forward (the face down), roll > 0 bends
 *   towards the character's right, yaw > 0 turns left.
 * The idle arm pose is the idle clip's at t = 0: down 75, bend 10, the rest 0 (exactly the
 * quaternions humanoid_clips.c builds there), the spine and neck at rest. Actions and hit
 * reactions blend their angles away from it and back with a smooth envelope, so they start and
 * end there. */
#include <math.h>
#include <string.h>

#include "humanoid_internal.h"

#define PI_F 3.14159265358979323846f
#define DEG (PI_F / 180.0f)

enum { KIND_BODY, KIND_HAND };

typedef struct arm_angles {
    float down, fwd, bend, up, wrist; /* degrees */
} arm_angles;

typedef struct upper_angles {
    arm_angles arm[2]; /* side 0 left, 1 right */
    float spine[3];    /* yaw, pitch, roll over the whole spine, degrees */
    float neck[3], neck2[3], head[3];
} upper_angles;

static const arm_angles IDLE_ARM = { 75.0f, 0.0f, 10.0f, 0.0f, 0.0f };

static tdn_quat axis_rot(int axis, float angle)
{
    float s = sinf(0.5f * angle), c = cosf(0.5f * angle);
    return tdn_quat_make(axis == 0 ? s : 0.0f, axis == 1 ? s : 0.0f, axis == 2 ? s : 0.0f, c);
}

static tdn_quat qmul(tdn_quat a, tdn_quat b) { return tdn_quat_normalize(tdn_quat_mul(a, b)); }

static tdn_quat ypr(const float a[3])
{
    return qmul(axis_rot(1, a[0] * DEG), qmul(axis_rot(0, a[1] * DEG), axis_rot(2, a[2] * DEG)));
}

static float clamp01(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
static float smoother(float u)
{
    u = clamp01(u);
    return u * u * u * (u * (u * 6.0f - 15.0f) + 10.0f);
}
static float mix(float a, float b, float w) { return a + (b - a) * w; }

/* 0 at t <= 0 and t >= T, 1 on [in, T - out], smooth ramps between. */
static float envelope(float t, float T, float in, float out) { return smoother(t / in) * smoother((T - t) / out); }

static arm_angles arm_mix(arm_angles a, arm_angles b, float w)
{
    return (arm_angles){ mix(a.down, b.down, w), mix(a.fwd, b.fwd, w), mix(a.bend, b.bend, w), mix(a.up, b.up, w),
                         mix(a.wrist, b.wrist, w) };
}

static void scale3(float out[3], float x, float y, float z, float w)
{
    out[0] = x * w;
    out[1] = y * w;
    out[2] = z * w;
}

static upper_angles idle_angles(void)
{
    upper_angles a;
    memset(&a, 0, sizeof a);
    a.arm[0] = a.arm[1] = IDLE_ARM;
    return a;
}

/* ---- the clips ---- */

typedef struct upper_clip {
    const char *name;
    float duration;
    int kind;
    int hold;                                                     /* 1: a held pose, two equal keys */
    void (*pose)(float t, float T, upper_angles *a, float *curl); /* curl: KIND_HAND only */
} upper_clip;

/* The right hand raised beside the head, the forearm waving 2.5 times; the head turns to it. */
static void wave(float t, float T, upper_angles *a, float *curl)
{
    (void)curl;
    const float e = envelope(t, T, 0.5f, 0.5f);
    const arm_angles raised = { -35.0f, 15.0f, 10.0f, 75.0f, 0.0f };
    a->arm[1] = arm_mix(IDLE_ARM, raised, e);
    const float w = sinf(2.0f * PI_F * 2.5f * (t - 0.5f)) * e;
    a->arm[1].up += 22.0f * w;
    a->arm[1].wrist = 12.0f * w;
    scale3(a->spine, -4.0f, 0.0f, -5.0f, e);
    scale3(a->neck, -10.0f, -3.0f, 0.0f, e);
    scale3(a->head, -5.0f, 0.0f, 4.0f, e);
}

/* The right arm straight forward at shoulder height, the torso turned a little towards it. */
static void point(float t, float T, upper_angles *a, float *curl)
{
    (void)curl;
    const float e = envelope(t, T, 0.35f, 0.35f);
    const arm_angles forward = { 5.0f, 80.0f, 5.0f, 0.0f, 0.0f };
    a->arm[1] = arm_mix(IDLE_ARM, forward, e);
    scale3(a->spine, -8.0f, 0.0f, 0.0f, e);
    scale3(a->neck, -6.0f, 0.0f, 0.0f, e);
}

/* The left hand holds a weapon forward; the right goes to the hip for a magazine, then up to
 * the left hand; the head looks down at it. */
static void reload(float t, float T, upper_angles *a, float *curl)
{
    (void)curl;
    const float e = envelope(t, T, 0.3f, 0.3f);
    const arm_angles hold = { 50.0f, 55.0f, 60.0f, 0.0f, 0.0f };
    const arm_angles hip = { 82.0f, -15.0f, 45.0f, 0.0f, -10.0f }, insert = { 50.0f, 70.0f, 100.0f, 0.0f, 15.0f };
    a->arm[0] = arm_mix(IDLE_ARM, hold, e);
    a->arm[1] = arm_mix(IDLE_ARM, arm_mix(hip, insert, smoother((t - 0.55f) / 0.4f)), e);
    scale3(a->spine, 10.0f, 6.0f, 0.0f, e);
    scale3(a->neck, 5.0f, 12.0f, 0.0f, e);
    scale3(a->head, 0.0f, 8.0f, 0.0f, e);
}

/* The aiming stance: both arms forward holding a rifle, the chest and head turned by (yaw,
 * pitch) in all: 0.8 of the yaw and 0.7 of the pitch in the spine, the rest in the neck and head. */
static void aim_stance(upper_angles *a, float yaw, float pitch)
{
    a->arm[0] = (arm_angles){ 45.0f, 70.0f, 40.0f, 0.0f, 0.0f };
    a->arm[1] = (arm_angles){ 55.0f, 60.0f, 70.0f, 0.0f, 0.0f };
    scale3(a->spine, 0.8f * yaw, 0.7f * pitch, 0.0f, 1.0f);
    scale3(a->neck, 0.2f * yaw, 0.2f * pitch, 0.0f, 1.0f);
    scale3(a->head, 0.0f, 0.1f * pitch, 0.0f, 1.0f);
}

static void aim_center(float t, float T, upper_angles *a, float *c)
{
    (void)t, (void)T, (void)c;
    aim_stance(a, 0.0f, 0.0f);
}
static void aim_up(float t, float T, upper_angles *a, float *c)
{
    (void)t, (void)T, (void)c;
    aim_stance(a, 0.0f, -45.0f);
}
static void aim_down(float t, float T, upper_angles *a, float *c)
{
    (void)t, (void)T, (void)c;
    aim_stance(a, 0.0f, 45.0f);
}
static void aim_left(float t, float T, upper_angles *a, float *c)
{
    (void)t, (void)T, (void)c;
    aim_stance(a, 60.0f, 0.0f);
}
static void aim_right(float t, float T, upper_angles *a, float *c)
{
    (void)t, (void)T, (void)c;
    aim_stance(a, -60.0f, 0.0f);
}

/* A jerk: 0 at both ends, its peak 1 at a quarter of the clip, back to 0 with zero slope. */
static float jerk(float t, float T)
{
    const float u = clamp01(t / T), v = 1.0f - u;
    return (256.0f / 27.0f) * u * v * v * v;
}

/* Struck from `dir`: 0 front, 1 back, 2 left, 3 right: the torso and head are thrown away from
 * the blow and come back; the arms flinch. */
static void hit(int dir, float t, float T, upper_angles *a)
{
    const float j = jerk(t, T);
    static const float SPINE[4][3] = { { 0, -24, 0 }, { 0, 22, 0 }, { 10, 0, 20 }, { -10, 0, -20 } };
    static const float NECK[4][3] = { { 0, -14, 0 }, { 0, 14, 0 }, { 4, 0, 10 }, { -4, 0, -10 } };
    static const float HEAD[4][3] = { { 0, -10, 0 }, { 0, 10, 0 }, { 0, 0, 8 }, { 0, 0, -8 } };
    scale3(a->spine, SPINE[dir][0], SPINE[dir][1], SPINE[dir][2], j);
    scale3(a->neck, NECK[dir][0], NECK[dir][1], NECK[dir][2], j);
    scale3(a->head, HEAD[dir][0], HEAD[dir][1], HEAD[dir][2], j);
    for (int side = 0; side < 2; side++) {
        const int struck = (dir == 2 && side == 0) || (dir == 3 && side == 1);
        arm_angles flinch = { 55.0f, dir == 1 ? -15.0f : 20.0f, 40.0f, 0.0f, 0.0f };
        if (struck)
            flinch = (arm_angles){ 65.0f, 35.0f, 80.0f, 0.0f, 0.0f };
        a->arm[side] = arm_mix(IDLE_ARM, flinch, j);
    }
}

static void hit_front(float t, float T, upper_angles *a, float *c)
{
    (void)c;
    hit(0, t, T, a);
}
static void hit_back(float t, float T, upper_angles *a, float *c)
{
    (void)c;
    hit(1, t, T, a);
}
static void hit_left(float t, float T, upper_angles *a, float *c)
{
    (void)c;
    hit(2, t, T, a);
}
static void hit_right(float t, float T, upper_angles *a, float *c)
{
    (void)c;
    hit(3, t, T, a);
}

/* Hand poses: curl[f * 3 + k] is the bend of phalanx k + 1 of finger f (0 thumb, 1 index,
 * 2 middle, 3 ring, 4 pinky) towards the palm, degrees; the metacarpals bend 0.1 of the first. */
static void hand(float *curl, const float thumb[3], const float index[3], const float rest[3])
{
    for (int k = 0; k < 3; k++) {
        curl[k] = thumb[k];
        curl[3 + k] = index[k];
        for (int f = 2; f < 5; f++)
            curl[f * 3 + k] = rest[k];
    }
}

static const float OPEN[3] = { 8.0f, 10.0f, 6.0f }, FIST[3] = { 85.0f, 100.0f, 65.0f };
static const float THUMB_OPEN[3] = { 10.0f, 8.0f, 5.0f }, THUMB_FIST[3] = { 35.0f, 40.0f, 45.0f };
static const float STRAIGHT[3] = { 2.0f, 2.0f, 1.0f };

static void hand_open(float t, float T, upper_angles *a, float *c)
{
    (void)t, (void)T, (void)a;
    hand(c, THUMB_OPEN, OPEN, OPEN);
}
static void hand_fist(float t, float T, upper_angles *a, float *c)
{
    (void)t, (void)T, (void)a;
    hand(c, THUMB_FIST, FIST, FIST);
}
static void hand_point(float t, float T, upper_angles *a, float *c)
{
    (void)t, (void)T, (void)a;
    hand(c, THUMB_FIST, STRAIGHT, FIST);
}

/* Leans, held poses for an additive layer (made additive against lean_center in a graph):
 * lean_center is the idle upper body; lean_left and lean_right bend the spine 16 degrees
 * sideways (roll), the neck and head turning back a little towards upright, the arm on the
 * leaning side hanging away from the body and the other in against it. */
static void lean(int left, upper_angles *a)
{
    const float s = left ? -1.0f : 1.0f; /* roll > 0 bends towards the right */
    scale3(a->spine, 0.0f, 0.0f, 16.0f * s, 1.0f);
    scale3(a->neck, 0.0f, 0.0f, -4.0f * s, 1.0f);
    scale3(a->head, 0.0f, 0.0f, -3.0f * s, 1.0f);
    a->arm[left ? 0 : 1].down = 82.0f;
    a->arm[left ? 1 : 0].down = 70.0f;
}

static void lean_center(float t, float T, upper_angles *a, float *c) { (void)t, (void)T, (void)a, (void)c; }
static void lean_left(float t, float T, upper_angles *a, float *c)
{
    (void)t, (void)T, (void)c;
    lean(1, a);
}
static void lean_right(float t, float T, upper_angles *a, float *c)
{
    (void)t, (void)T, (void)c;
    lean(0, a);
}

static const upper_clip CLIPS[] = {
    { "wave", 2.0f, KIND_BODY, 0, wave },
    { "point", 1.2f, KIND_BODY, 0, point },
    { "reload", 1.5f, KIND_BODY, 0, reload },
    { "aim_center", 1.0f, KIND_BODY, 1, aim_center },
    { "aim_up", 1.0f, KIND_BODY, 1, aim_up },
    { "aim_down", 1.0f, KIND_BODY, 1, aim_down },
    { "aim_left", 1.0f, KIND_BODY, 1, aim_left },
    { "aim_right", 1.0f, KIND_BODY, 1, aim_right },
    { "hit_front", 0.7f, KIND_BODY, 0, hit_front },
    { "hit_back", 0.7f, KIND_BODY, 0, hit_back },
    { "hit_left", 0.7f, KIND_BODY, 0, hit_left },
    { "hit_right", 0.7f, KIND_BODY, 0, hit_right },
    { "hand_open", 1.0f, KIND_HAND, 1, hand_open },
    { "hand_fist", 1.0f, KIND_HAND, 1, hand_fist },
    { "hand_point", 1.0f, KIND_HAND, 1, hand_point },
    { "lean_center", 1.0f, KIND_BODY, 1, lean_center },
    { "lean_left", 1.0f, KIND_BODY, 1, lean_left },
    { "lean_right", 1.0f, KIND_BODY, 1, lean_right },
};
enum { CLIP_COUNT = sizeof CLIPS / sizeof CLIPS[0] };

int tdn_io__humanoid_upper_clip_count(void) { return CLIP_COUNT; }

/* Body clips' tracks: spine_01..05, neck_01, neck_02, head, then per side clavicle, upperarm,
 * lowerarm, hand (rotation). Hand clips': per side the thumb's 3 joints, then per finger its
 * metacarpal and 3 phalanges (rotation). */
enum { BODY_TRACKS = 8 + 2 * 4, HAND_TRACKS = 2 * (3 + 4 * 4), MAX_TRACKS = HAND_TRACKS };

static int track_joints(int kind, int *joints)
{
    int n = 0;
    if (kind == KIND_BODY) {
        for (int k = 0; k < 5; k++)
            joints[n++] = TDN_HU_SPINE_01 + k;
        joints[n++] = TDN_HU_NECK_01;
        joints[n++] = TDN_HU_NECK_02;
        joints[n++] = TDN_HU_HEAD;
        for (int side = 0; side < 2; side++)
            for (int k = 0; k < 4; k++)
                joints[n++] = TDN_HU_ARM + TDN_HU_ARM_JOINTS * side + k;
    } else {
        for (int side = 0; side < 2; side++)
            for (int k = 0; k < 19; k++) /* thumb_01..03, then per finger metacarpal, 01..03 */
                joints[n++] = TDN_HU_ARM + TDN_HU_ARM_JOINTS * side + TDN_HU_HAND + 1 + k;
    }
    return n;
}

static void body_rotations(const upper_angles *a, tdn_quat *q)
{
    float part[3] = { a->spine[0] / 5.0f, a->spine[1] / 5.0f, a->spine[2] / 5.0f };
    const tdn_quat spine = ypr(part);
    int n = 0;
    for (int k = 0; k < 5; k++)
        q[n++] = spine;
    q[n++] = ypr(a->neck);
    q[n++] = ypr(a->neck2);
    q[n++] = ypr(a->head);
    for (int side = 0; side < 2; side++) {
        const float s = side ? -1.0f : 1.0f;
        const arm_angles *m = &a->arm[side];
        q[n++] = tdn_quat_identity();
        q[n++] = qmul(axis_rot(1, -s * m->fwd * DEG), axis_rot(2, -s * m->down * DEG));
        q[n++] = qmul(axis_rot(2, s * m->up * DEG), axis_rot(1, -s * m->bend * DEG));
        q[n++] = axis_rot(2, s * m->wrist * DEG);
    }
}

static void hand_rotations(const float *curl, tdn_quat *q)
{
    int n = 0;
    for (int side = 0; side < 2; side++) {
        const float s = side ? -1.0f : 1.0f;
        for (int k = 0; k < 3; k++) /* the thumb folds across the palm and down */
            q[n++] = qmul(axis_rot(1, s * curl[k] * DEG), axis_rot(2, -s * 0.4f * curl[k] * DEG));
        for (int f = 1; f < 5; f++) {
            q[n++] = axis_rot(2, -s * 0.1f * curl[f * 3] * DEG);
            for (int k = 0; k < 3; k++)
                q[n++] = axis_rot(2, -s * curl[f * 3 + k] * DEG);
        }
    }
}

static tdn_result build(tdn_asset *asset, const tdn_io__humanoid_params *p, const upper_clip *c, tdn_keyed_clip **out,
                        tdn_error *err)
{
    int joints[MAX_TRACKS];
    const int tracks_n = track_joints(c->kind, joints);
    const int intervals = c->hold ? 1 : tdn_io__humanoid_intervals(c->duration, p->sample_rate);
    const size_t keys = (size_t)intervals + 1;
    const size_t bytes = (keys + keys * (size_t)tracks_n * 4) * sizeof(float);
    float *block = tdn_io__alloc(&asset->allocator, bytes);
    if (!block)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, c->name, "out of memory for the %s clip's keys", c->name);
    float *times = block, *rotations = block + keys;
    for (size_t i = 0; i < keys; i++) {
        const float t = i + 1 < keys ? (float)i * c->duration / (float)intervals : c->duration;
        times[i] = t;
        upper_angles a = idle_angles();
        float curl[15] = { 0 };
        c->pose(t, c->duration, &a, curl);
        tdn_quat q[MAX_TRACKS];
        if (c->kind == KIND_BODY)
            body_rotations(&a, q);
        else
            hand_rotations(curl, q);
        for (int k = 0; k < tracks_n; k++) {
            float *v = rotations + ((size_t)k * keys + i) * 4;
            tdn_quat r = q[k];
            r.x += 0.0f, r.y += 0.0f, r.z += 0.0f; /* no -0: a held value stays bit-identical after sampling */
            if (i > 0 && r.x * v[-4] + r.y * v[-3] + r.z * v[-2] + r.w * v[-1] < 0.0f) /* keep a hemisphere */
                r = tdn_quat_negate(r);
            memcpy(v, &r, 4 * sizeof(float));
        }
    }
    tdn_track_desc tracks[MAX_TRACKS];
    for (int k = 0; k < tracks_n; k++)
        tracks[k] = (tdn_track_desc){ .joint = joints[k],
                                      .target = TDN_TARGET_ROTATION,
                                      .interp = TDN_INTERP_LINEAR,
                                      .key_count = (int)keys,
                                      .times = times,
                                      .values = rotations + (size_t)k * keys * 4 };
    tdn_keyed_clip_desc desc = {
        .name = c->name, .skeleton = asset->skeleton, .tracks = tracks, .track_count = tracks_n, .duration = c->duration
    };
    tdn_result r = tdn_keyed_clip_create(&desc, out, &asset->allocator, err);
    tdn_io__free(&asset->allocator, block, bytes);
    return r;
}

tdn_result tdn_io__humanoid_upper_clips(tdn_asset *asset, const tdn_io__humanoid_params *p, tdn_error *err)
{
    for (int c = 0; c < CLIP_COUNT; c++) {
        const int at = asset->clip_count;
        tdn_result r = build(asset, p, &CLIPS[c], &asset->clips[at], err);
        if (r != TDN_OK)
            return r;
        asset->clip_channels[at] = CLIPS[c].kind == KIND_BODY ? BODY_TRACKS : HAND_TRACKS;
        asset->clip_count = at + 1;
    }
    return TDN_OK;
}
