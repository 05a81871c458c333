/* tendon io: the generated humanoid's clips (see humanoid.h for what they promise).
 *
 * Each clip is one gait: root motion M(t) (a constant velocity along the ground, or a constant
 * turn rate about +Y), and per foot a path in model space: fixed at M(t_mid) * neutral while in
 * contact (t_mid the middle of that contact, neutral the foot's rest position under the hip),
 * a smooth arc to the next footfall while in the air. The pelvis height has one constant
 * offset below its rest height, the largest that lets both legs reach their feet at 98% of
 * their length in every frame, plus the gait's bob. Legs are solved onto the paths by analytic
 * two-bone IK (law of cosines) with the knee in the plane of hip, ankle and the foot's forward
 * direction; thigh and calf then share their hinge axis, so the knee is a pure hinge. Frames
 * are computed at key times only; between keys the clip interpolates. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "humanoid_internal.h"

#define PI_F 3.14159265358979323846f
#define DEG (PI_F / 180.0f)

typedef struct gait {
    const char *name;
    int idle;        /* no steps: both feet stay put, no events */
    float cycle;     /* s */
    float vx, vz;    /* root velocity along the ground, m/s */
    float turn;      /* root turn rate about +Y, rad/s */
    float duty;      /* contact fraction of the cycle */
    float lift;      /* swing arc height, m at height 1.8 */
    float bob;       /* pelvis bob, m at 1.8: > 0 highest at mid-contact (walk), < 0 lowest (run) */
    float sway;      /* pelvis sway towards the foot in contact, m at 1.8 */
    float twist;     /* pelvis yaw amplitude, rad: > 0 turns the hip of the leading leg forward */
    float roll;      /* pelvis roll amplitude, rad: the side of the swinging leg drops */
    float lean;      /* forward lean of the spine, rad */
    float arm_swing; /* rad, forward when the opposite leg is forward */
    float elbow;     /* forearm bend, rad */
    float foot_z;    /* left foot's neutral position moved along +Z (the right's along -Z), m at 1.8 */
    float head_lead; /* head turned ahead of the root, s of turn */
} gait;

/* Tracks: translation for root and pelvis, rotation for these. */
static const int ROTATED[] = { TDN_HU_ROOT,
                               TDN_HU_PELVIS,
                               TDN_HU_SPINE_01,
                               TDN_HU_SPINE_01 + 1,
                               TDN_HU_SPINE_01 + 2,
                               TDN_HU_SPINE_01 + 3,
                               TDN_HU_SPINE_01 + 4,
                               TDN_HU_NECK_01,
                               TDN_HU_ARM + TDN_HU_UPPERARM,
                               TDN_HU_ARM + TDN_HU_LOWERARM,
                               TDN_HU_ARM + TDN_HU_ARM_JOINTS + TDN_HU_UPPERARM,
                               TDN_HU_ARM + TDN_HU_ARM_JOINTS + TDN_HU_LOWERARM,
                               TDN_HU_LEG + TDN_HU_THIGH,
                               TDN_HU_LEG + TDN_HU_CALF,
                               TDN_HU_LEG + TDN_HU_FOOT,
                               TDN_HU_LEG + TDN_HU_LEG_JOINTS + TDN_HU_THIGH,
                               TDN_HU_LEG + TDN_HU_LEG_JOINTS + TDN_HU_CALF,
                               TDN_HU_LEG + TDN_HU_LEG_JOINTS + TDN_HU_FOOT };
enum { ROTATED_COUNT = sizeof ROTATED / sizeof ROTATED[0], TRACK_COUNT = ROTATED_COUNT + 2 };

/* Key i (of `keys`) of the body tracks from a local pose: the root's and pelvis's translations,
 * then the ROTATED joints' rotations, each kept in the hemisphere of its key before so that
 * LINEAR keys turn the short way. Track k's keys are consecutive. */
static void store_body_key(const tdn_transform *local, size_t i, size_t keys, float *translations, float *rotations)
{
    const int moved[2] = { TDN_HU_ROOT, TDN_HU_PELVIS };
    for (int k = 0; k < 2; k++)
        memcpy(translations + (k * keys + i) * 3, &local[moved[k]].t, 3 * sizeof(float));
    for (int k = 0; k < ROTATED_COUNT; k++) {
        tdn_quat q = local[ROTATED[k]].r;
        float *v = rotations + (k * keys + i) * 4;
        if (i > 0 && q.x * v[-4] + q.y * v[-3] + q.z * v[-2] + q.w * v[-1] < 0.0f)
            q = tdn_quat_negate(q);
        memcpy(v, &q, 4 * sizeof(float));
    }
}

/* The body tracks' descriptions (LINEAR) over the keys store_body_key wrote. */
static void body_tracks(tdn_track_desc tracks[TRACK_COUNT], size_t keys, const float *times, const float *translations,
                        const float *rotations)
{
    for (int k = 0; k < 2; k++)
        tracks[k] = (tdn_track_desc){ .joint = k ? TDN_HU_PELVIS : TDN_HU_ROOT,
                                      .target = TDN_TARGET_TRANSLATION,
                                      .interp = TDN_INTERP_LINEAR,
                                      .key_count = (int)keys,
                                      .times = times,
                                      .values = translations + k * keys * 3 };
    for (int k = 0; k < ROTATED_COUNT; k++)
        tracks[2 + k] = (tdn_track_desc){ .joint = ROTATED[k],
                                          .target = TDN_TARGET_ROTATION,
                                          .interp = TDN_INTERP_LINEAR,
                                          .key_count = (int)keys,
                                          .times = times,
                                          .values = rotations + k * keys * 4 };
}

/* ---- small rotation helpers ---- */

static tdn_quat axis_rot(int axis, float angle)
{
    float s = sinf(0.5f * angle), c = cosf(0.5f * angle);
    return tdn_quat_make(axis == 0 ? s : 0.0f, axis == 1 ? s : 0.0f, axis == 2 ? s : 0.0f, c);
}

static tdn_quat qmul(tdn_quat a, tdn_quat b) { return tdn_quat_normalize(tdn_quat_mul(a, b)); }
static tdn_quat qinv(tdn_quat q) { return tdn_quat_conjugate(q); }

/* Columns x, y, z of a frame whose -y runs along `bone` and whose x is `hinge` made
 * orthogonal to it. */
static void bone_frame(tdn_vec3 bone, tdn_vec3 hinge, tdn_vec3 f[3])
{
    f[1] = tdn_vec3_scale(tdn_vec3_normalize(bone), -1.0f);
    f[0] = tdn_vec3_normalize(tdn_vec3_sub(hinge, tdn_vec3_scale(f[1], tdn_vec3_dot(hinge, f[1]))));
    f[2] = tdn_vec3_cross(f[0], f[1]);
}

/* The rotation taking frame `from` onto frame `to` (both orthonormal, right-handed). */
static tdn_quat frame_rotation(const tdn_vec3 from[3], const tdn_vec3 to[3])
{
    tdn_mat4 m = tdn_mat4_identity();
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            float v = 0.0f; /* (to * from^T)[r][c] */
            for (int k = 0; k < 3; k++) {
                const float *t = &to[k].x, *f = &from[k].x;
                v += t[r] * f[c];
            }
            m.m[c * 4 + r] = v;
        }
    return tdn_quat_normalize(tdn_quat_from_mat4(&m));
}

/* ---- one clip ---- */

typedef struct builder {
    const tdn_skeleton *skeleton;
    const gait *g;
    float scale;
    int intervals, stance; /* key intervals per cycle; of them in contact */
    float dt;              /* seconds per interval */
    tdn_transform rest[TDN_HU_JOINTS];
    tdn_vec3 neutral[2]; /* foot rest positions in root space */
    float thigh_len, calf_len;
    float pelvis_drop; /* the constant offset below rest height */
} builder;

/* Root motion at time t. */
static tdn_transform root_at(const builder *b, float t)
{
    tdn_transform m = tdn_transform_identity();
    m.t = tdn_vec3_make(b->g->vx * t, 0.0f, b->g->vz * t);
    m.r = axis_rot(1, b->g->turn * t);
    return m;
}

/* Phase of the cycle at key interval i of side s (left lands at 0, right at half): k in
 * [0, intervals); contact while k < stance. */
static int foot_phase(const builder *b, int i, int side)
{
    int k = (i - side * (b->intervals / 2)) % b->intervals;
    return k < 0 ? k + b->intervals : k;
}

static float smoother(float u) { return u * u * u * (u * (u * 6.0f - 15.0f) + 10.0f); }

/* Model-space ankle target and heading of foot `side` at key i. */
static void foot_target(const builder *b, int i, int side, tdn_vec3 *pos, float *yaw)
{
    const gait *g = b->g;
    if (g->idle) {
        *pos = b->neutral[side];
        *yaw = 0.0f;
        return;
    }
    const int k = foot_phase(b, i, side);
    const float mid0 = (float)(i - k) * b->dt + 0.5f * (float)b->stance * b->dt; /* this contact's middle */
    tdn_transform m0 = root_at(b, mid0);
    tdn_vec3 p0 = tdn_transform_point(&m0, b->neutral[side]);
    if (k < b->stance) {
        *pos = p0;
        *yaw = g->turn * mid0;
        return;
    }
    const float mid1 = mid0 + (float)b->intervals * b->dt;
    tdn_transform m1 = root_at(b, mid1);
    tdn_vec3 p1 = tdn_transform_point(&m1, b->neutral[side]);
    const float u = (float)(k - b->stance) / (float)(b->intervals - b->stance);
    const float s = smoother(u);
    *pos = tdn_vec3_lerp(p0, p1, s);
    pos->y += g->lift * b->scale * 16.0f * u * u * (1.0f - u) * (1.0f - u);
    *yaw = g->turn * (mid0 + s * (mid1 - mid0));
}

/* Pelvis local transform at key i without the constant drop. */
static tdn_transform pelvis_at(const builder *b, int i)
{
    const gait *g = b->g;
    const float phi = (float)i / (float)b->intervals;
    const float mid = 0.5f * (float)b->stance / (float)b->intervals; /* the left foot's mid-contact */
    tdn_transform x = b->rest[TDN_HU_PELVIS];
    float yaw, roll, sway;
    if (g->idle) {
        sway = g->sway * sinf(2.0f * PI_F * phi);
        roll = g->roll * sinf(2.0f * PI_F * phi);
        yaw = g->twist * sinf(2.0f * PI_F * phi);
    } else {
        const float c = cosf(2.0f * PI_F * (phi - mid));
        sway = g->sway * c;
        roll = g->roll * c;
        yaw = -g->twist * cosf(2.0f * PI_F * phi);
        x.t.y += g->bob * b->scale * cosf(4.0f * PI_F * (phi - mid));
    }
    x.t.x += sway * b->scale;
    x.r = qmul(axis_rot(1, yaw), axis_rot(2, roll));
    return x;
}

void tdn_io__humanoid_model(const tdn_skeleton *s, const tdn_transform *local, tdn_transform *model)
{
    for (int j = 0; j < TDN_HU_JOINTS; j++) {
        int p = tdn_skeleton_parent(s, j);
        model[j] = p >= 0 ? tdn_transform_mul(&model[p], &local[j]) : local[j];
    }
}

/* A builder for gait g's keys: the rest pose, its key intervals (one cycle at the sample rate),
 * the feet's neutral places (the rest's, moved along z by the gait's foot_z) and the legs'
 * bone lengths. */
static void builder_init(builder *b, const tdn_skeleton *skeleton, const gait *g, const tdn_io__humanoid_params *p)
{
    memset(b, 0, sizeof *b);
    b->skeleton = skeleton;
    b->g = g;
    b->scale = p->scale;
    b->intervals = tdn_io__humanoid_intervals(g->cycle, p->sample_rate);
    b->dt = g->cycle / (float)b->intervals;
    for (int j = 0; j < TDN_HU_JOINTS; j++)
        b->rest[j] = tdn_skeleton_rest(skeleton, j);
    tdn_transform rest_model[TDN_HU_JOINTS];
    tdn_io__humanoid_model(skeleton, b->rest, rest_model);
    for (int side = 0; side < 2; side++) {
        b->neutral[side] = rest_model[TDN_HU_LEG + TDN_HU_LEG_JOINTS * side + TDN_HU_FOOT].t;
        b->neutral[side].z += (side ? -1.0f : 1.0f) * g->foot_z * p->scale;
    }
    b->thigh_len = tdn_vec3_length(b->rest[TDN_HU_LEG + TDN_HU_CALF].t);
    b->calf_len = tdn_vec3_length(b->rest[TDN_HU_LEG + TDN_HU_FOOT].t);
}

/* The constant pelvis drop: the largest offset <= 0 letting every frame's legs reach at 98%. */
static tdn_result find_pelvis_drop(builder *b, tdn_error *err)
{
    const float reach = 0.98f * (b->thigh_len + b->calf_len);
    float drop = 0.0f;
    for (int i = 0; i < b->intervals; i++) {
        tdn_transform root = root_at(b, (float)i * b->dt), pelvis = pelvis_at(b, i);
        tdn_transform pelvis_model = tdn_transform_mul(&root, &pelvis);
        for (int side = 0; side < 2; side++) {
            tdn_vec3 hip = tdn_transform_point(&pelvis_model, b->rest[TDN_HU_LEG + TDN_HU_LEG_JOINTS * side].t);
            tdn_vec3 foot;
            float yaw;
            foot_target(b, i, side, &foot, &yaw);
            const float dx = foot.x - hip.x, dz = foot.z - hip.z, h2 = dx * dx + dz * dz;
            if (!(h2 < reach * reach))
                return tdn_io__fail(err, TDN_ERR_ARGUMENT, b->g->name,
                                    "steps of the %s clip are beyond the legs' reach", b->g->name);
            const float allowed = foot.y + sqrtf(reach * reach - h2) - hip.y;
            if (allowed < drop)
                drop = allowed;
        }
    }
    b->pelvis_drop = drop;
    return TDN_OK;
}

/* Two-bone IK of leg `side`: sets thigh, calf and foot local rotations. */
static void solve_leg(const builder *b, int side, tdn_vec3 target, float yaw, tdn_transform *local,
                      const tdn_transform *model)
{
    const int thigh = TDN_HU_LEG + TDN_HU_LEG_JOINTS * side, calf = thigh + 1, foot = thigh + 2;
    const float l1 = b->thigh_len, l2 = b->calf_len;
    const tdn_vec3 hip = model[thigh].t;
    const tdn_quat heading = axis_rot(1, yaw);
    const tdn_vec3 forward_dir = tdn_quat_rotate(heading, tdn_vec3_make(0.0f, 0.0f, 1.0f));
    tdn_vec3 d = tdn_vec3_sub(target, hip);
    float dist = tdn_vec3_length(d);
    const tdn_vec3 dn = tdn_vec3_scale(d, 1.0f / dist);
    const float lo = fabsf(l1 - l2) + 1e-6f * b->scale, hi = l1 + l2;
    dist = dist < lo ? lo : dist > hi ? hi : dist;
    tdn_vec3 m = tdn_vec3_sub(forward_dir, tdn_vec3_scale(dn, tdn_vec3_dot(forward_dir, dn)));
    m = tdn_vec3_normalize(m);
    const float a = (l1 * l1 - l2 * l2 + dist * dist) / (2.0f * dist);
    const float h = sqrtf(fmaxf(0.0f, l1 * l1 - a * a));
    const tdn_vec3 knee = tdn_vec3_add(hip, tdn_vec3_add(tdn_vec3_scale(dn, a), tdn_vec3_scale(m, h)));
    const tdn_vec3 hinge = tdn_vec3_cross(m, dn);
    const tdn_vec3 x_axis = tdn_vec3_make(1.0f, 0.0f, 0.0f);
    tdn_vec3 rest1[3], rest2[3], now1[3], now2[3];
    bone_frame(b->rest[calf].t, x_axis, rest1);
    bone_frame(b->rest[foot].t, x_axis, rest2);
    bone_frame(tdn_vec3_sub(knee, hip), hinge, now1);
    bone_frame(tdn_vec3_sub(target, knee), hinge, now2);
    const tdn_quat r1 = frame_rotation(rest1, now1), r2 = frame_rotation(rest2, now2);
    local[thigh].r = qmul(qinv(model[TDN_HU_PELVIS].r), r1);
    local[calf].r = qmul(qinv(r1), r2);
    local[foot].r = qmul(qinv(r2), heading);
}

/* Local transforms of every joint at key i (i < intervals). */
static void pose_at(const builder *b, int i, tdn_transform *local, tdn_transform *model)
{
    const gait *g = b->g;
    const float phi = (float)i / (float)b->intervals, t = (float)i * b->dt;
    memcpy(local, b->rest, sizeof b->rest);
    local[TDN_HU_ROOT] = root_at(b, t);
    local[TDN_HU_PELVIS] = pelvis_at(b, i);
    local[TDN_HU_PELVIS].t.y += b->pelvis_drop;
    /* Spine: undo most of the pelvis roll, twist the shoulders against the hips, lean; breathe. */
    float pelvis_yaw, pelvis_roll;
    {
        const float mid = 0.5f * (float)b->stance / (float)b->intervals;
        const float c = g->idle ? sinf(2.0f * PI_F * phi) : cosf(2.0f * PI_F * (phi - mid));
        pelvis_roll = g->roll * c;
        pelvis_yaw = g->idle ? g->twist * sinf(2.0f * PI_F * phi) : -g->twist * cosf(2.0f * PI_F * phi);
    }
    const float breath = g->idle ? 1.0f * DEG * sinf(2.0f * PI_F * phi) : 0.0f;
    for (int k = 0; k < 5; k++) {
        tdn_quat q = qmul(axis_rot(1, -1.6f * pelvis_yaw / 5.0f), axis_rot(2, -pelvis_roll / 5.0f));
        float pitch = (k == 0 ? g->lean : 0.0f) - (k >= 2 ? breath : 0.0f);
        local[TDN_HU_SPINE_01 + k].r = qmul(q, axis_rot(0, pitch));
    }
    tdn_io__humanoid_model(b->skeleton, local, model);
    /* The head looks where the root goes (ahead of it when turning). */
    const tdn_quat look = qmul(local[TDN_HU_ROOT].r, axis_rot(1, g->turn * g->head_lead));
    local[TDN_HU_NECK_01].r = qmul(qinv(model[TDN_HU_SPINE_01 + 4].r), look);
    /* Arms hang 75 degrees down from the T-pose and swing against the legs. */
    for (int side = 0; side < 2; side++) {
        const float s = side ? -1.0f : 1.0f;
        const float swing = g->idle ? 0.5f * breath : (side ? 1.0f : -1.0f) * g->arm_swing * cosf(2.0f * PI_F * phi);
        const int arm = TDN_HU_ARM + TDN_HU_ARM_JOINTS * side;
        local[arm + TDN_HU_UPPERARM].r = qmul(axis_rot(0, -swing), axis_rot(2, -s * 75.0f * DEG));
        local[arm + TDN_HU_LOWERARM].r = axis_rot(1, -s * g->elbow);
    }
    tdn_io__humanoid_model(b->skeleton, local, model);
    for (int side = 0; side < 2; side++) {
        tdn_vec3 target;
        float yaw;
        foot_target(b, i, side, &target, &yaw);
        solve_leg(b, side, target, yaw, local, model);
    }
}

/* Contact of `side` at key i (1 or 0). */
static float contact(const builder *b, int i, int side)
{
    return b->g->idle || foot_phase(b, i % b->intervals, side) < b->stance ? 1.0f : 0.0f;
}

static tdn_result build_clip(tdn_asset *asset, const tdn_io__humanoid_params *p, const gait *g, tdn_keyed_clip **out,
                             tdn_error *err)
{
    builder b;
    builder_init(&b, asset->skeleton, g, p);
    b.stance = (int)lroundf(g->duty * (float)b.intervals);
    if (b.stance < 1)
        b.stance = 1;
    if (b.stance > b.intervals - 1)
        b.stance = b.intervals - 1;
    tdn_transform local[TDN_HU_JOINTS], model[TDN_HU_JOINTS];
    tdn_result r = find_pelvis_drop(&b, err);
    if (r != TDN_OK)
        return r;

    /* One scratch block: key times, contact keys, then per track its values. */
    const size_t keys = (size_t)b.intervals + 1;
    const size_t floats = keys + 2 * 2 * keys + keys * (2 * 3 + ROTATED_COUNT * 4);
    const size_t bytes = floats * sizeof(float);
    float *block = tdn_io__alloc(&asset->allocator, bytes);
    if (!block)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, g->name, "out of memory for the %s clip's keys", g->name);
    float *times = block, *contact_times = times + keys, *contact_values = contact_times + 2 * keys;
    float *translations = contact_values + 2 * keys, *rotations = translations + 2 * 3 * keys;
    for (size_t i = 0; i < keys; i++) {
        const int frame = (int)i < b.intervals ? (int)i : 0;
        times[i] = i + 1 < keys ? (float)i * b.dt : g->cycle;
        pose_at(&b, frame, local, model);
        if ((int)i == b.intervals) /* the first pose, one cycle on */
            local[TDN_HU_ROOT] = root_at(&b, g->cycle);
        store_body_key(local, i, keys, translations, rotations);
    }
    /* Contact curves: STEP keys where the value changes, and at both ends. */
    tdn_float_track_desc floats_desc[2];
    static const char *const CONTACT_NAMES[2] = { "contact_l", "contact_r" };
    for (int side = 0; side < 2; side++) {
        float *ct = contact_times + side * keys, *cv = contact_values + side * keys;
        int n = 0;
        for (size_t i = 0; i < keys; i++) {
            const float c = contact(&b, (int)i, side);
            if (i == 0 || i + 1 == keys || c != cv[n - 1]) {
                ct[n] = times[i];
                cv[n++] = c;
            }
        }
        floats_desc[side] = (tdn_float_track_desc){
            .name = CONTACT_NAMES[side], .interp = TDN_INTERP_STEP, .key_count = n, .times = ct, .values = cv
        };
    }
    tdn_track_desc tracks[TRACK_COUNT];
    body_tracks(tracks, keys, times, translations, rotations);
    const tdn_event_desc events[2] = { { "foot_down_l", 0.0f }, { "foot_down_r", (float)(b.intervals / 2) * b.dt } };
    tdn_keyed_clip_desc desc = { .name = g->name,
                                 .skeleton = asset->skeleton,
                                 .tracks = tracks,
                                 .track_count = TRACK_COUNT,
                                 .float_tracks = floats_desc,
                                 .float_track_count = 2,
                                 .events = events,
                                 .event_count = g->idle ? 0 : 2,
                                 .duration = g->cycle };
    r = tdn_keyed_clip_create(&desc, out, &asset->allocator, err);
    tdn_io__free(&asset->allocator, block, bytes);
    return r;
}

/* ---- the jump ---- */

#define JUMP_DURATION 1.5f
#define JUMP_G 9.81f

/* Phases of the jump in key intervals, and the pelvis heights (see humanoid.h). */
typedef struct jump_plan {
    int crouch0, crouch1, take_off, land, absorb, recover; /* keys */
    float top;         /* pelvis local height standing and at take-off / landing (legs at 98%) */
    float crouch, low; /* pelvis local height at the bottom of the crouch and of the landing */
    float v0;          /* take-off speed, m/s: g * flight / 2 */
} jump_plan;

static int key_at(float t, float dt) { return (int)lroundf(t / dt); }

/* Cubic Hermite from (y0, v0) to (y1, v1) over `span` seconds at u in [0, 1]. */
static float hermite(float y0, float v0, float y1, float v1, float span, float u)
{
    const float u2 = u * u, u3 = u2 * u;
    return (2 * u3 - 3 * u2 + 1) * y0 + (u3 - 2 * u2 + u) * span * v0 + (-2 * u3 + 3 * u2) * y1 + (u3 - u2) * span * v1;
}

/* Pelvis local height at key i. */
static float jump_pelvis_y(const builder *b, const jump_plan *j, int i)
{
    const float dt = b->dt;
    if (i <= j->crouch0 || i >= j->recover)
        return j->top;
    if (i <= j->crouch1)
        return j->top + (j->crouch - j->top) * smoother((float)(i - j->crouch0) / (float)(j->crouch1 - j->crouch0));
    if (i <= j->take_off) {
        const float span = (float)(j->take_off - j->crouch1) * dt;
        return hermite(j->crouch, 0.0f, j->top, j->v0, span,
                       (float)(i - j->crouch1) / (float)(j->take_off - j->crouch1));
    }
    if (i <= j->land) {
        const float tau = (float)(i - j->take_off) * dt;
        return j->top + j->v0 * tau - 0.5f * JUMP_G * tau * tau;
    }
    if (i <= j->absorb) {
        const float span = (float)(j->absorb - j->land) * dt;
        return hermite(j->top, -j->v0, j->low, 0.0f, span, (float)(i - j->land) / (float)(j->absorb - j->land));
    }
    return j->low + (j->top - j->low) * smoother((float)(i - j->absorb) / (float)(j->recover - j->absorb));
}

/* Arm swing (forward, degrees), elbow bend (degrees) and forward lean (degrees) at key i: eased
 * between stations at the phase boundaries. */
static void jump_angles(const jump_plan *j, int i, float out[3])
{
    const int at[8] = { 0,       j->crouch0, j->crouch1, j->take_off, (j->take_off + j->land) / 2,
                        j->land, j->absorb,  j->recover };
    static const float value[8][3] = { { 0, 10, 0 },   { 0, 10, 0 },  { -50, 25, 30 }, { 150, 15, 6 },
                                       { 165, 15, 0 }, { 70, 20, 8 }, { 25, 30, 24 },  { 0, 10, 0 } };
    int k = 0;
    while (k < 7 && i >= at[k + 1])
        k++;
    if (k == 7 || at[k + 1] == at[k]) {
        memcpy(out, value[k], sizeof value[k]);
        return;
    }
    const float w = smoother((float)(i - at[k]) / (float)(at[k + 1] - at[k]));
    for (int c = 0; c < 3; c++)
        out[c] = value[k][c] + (value[k + 1][c] - value[k][c]) * w;
}

/* Local and model transforms at key i of the jump. */
static void jump_pose(const builder *b, const jump_plan *j, int i, tdn_transform *local, tdn_transform *model)
{
    float a[3];
    jump_angles(j, i, a);
    const float lean = a[2] * DEG;
    memcpy(local, b->rest, sizeof b->rest);
    local[TDN_HU_PELVIS].t.y = jump_pelvis_y(b, j, i);
    local[TDN_HU_PELVIS].r = axis_rot(0, 0.4f * lean);
    local[TDN_HU_SPINE_01].r = axis_rot(0, 0.35f * lean);
    local[TDN_HU_SPINE_01 + 1].r = axis_rot(0, 0.25f * lean);
    tdn_io__humanoid_model(b->skeleton, local, model);
    local[TDN_HU_NECK_01].r = qinv(model[TDN_HU_SPINE_01 + 4].r); /* the head stays level */
    for (int side = 0; side < 2; side++) {
        const float s = side ? -1.0f : 1.0f;
        const int arm = TDN_HU_ARM + TDN_HU_ARM_JOINTS * side;
        local[arm + TDN_HU_UPPERARM].r = qmul(axis_rot(0, -a[0] * DEG), axis_rot(2, -s * 75.0f * DEG));
        local[arm + TDN_HU_LOWERARM].r = axis_rot(1, -s * a[1] * DEG);
    }
    tdn_io__humanoid_model(b->skeleton, local, model);
    for (int side = 0; side < 2; side++) {
        tdn_vec3 target = b->neutral[side];
        if (i > j->take_off && i < j->land) { /* the feet rise with the pelvis, tucked up */
            const float u = (float)(i - j->take_off) / (float)(j->land - j->take_off), su = sinf(PI_F * u);
            target.y += local[TDN_HU_PELVIS].t.y - j->top + 0.12f * b->scale * su * su;
        }
        solve_leg(b, side, target, 0.0f, local, model);
    }
}

static tdn_result build_jump(tdn_asset *asset, const tdn_io__humanoid_params *p, tdn_keyed_clip **out, tdn_error *err)
{
    static const gait JUMP = { .name = "jump", .idle = 1, .cycle = JUMP_DURATION };
    builder b;
    builder_init(&b, asset->skeleton, &JUMP, p);
    tdn_transform local[TDN_HU_JOINTS], model[TDN_HU_JOINTS];

    /* Phases: the flight the whole number of intervals nearest 0.45 s x sqrt(scale) (so its
     * height scales with the character), at most 0.6 s, at least 2 intervals. */
    jump_plan j;
    const float dt = b.dt;
    const int n = b.intervals;
    int flight = key_at(fminf(0.45f * sqrtf(p->scale), 0.6f), dt);
    if (flight < 2)
        flight = 2;
    j.take_off = key_at(0.6f, dt);
    j.land = j.take_off + flight;
    j.crouch0 = key_at(0.1f, dt);
    j.crouch1 = key_at(0.42f, dt);
    j.absorb = j.land + key_at(0.2f, dt);
    j.recover = key_at(1.4f, dt);
    if (j.crouch1 >= j.take_off) /* coarse keys: keep every phase at least one interval */
        j.crouch1 = j.take_off - 1;
    if (j.crouch0 >= j.crouch1)
        j.crouch0 = j.crouch1 - 1;
    if (j.crouch0 < 0)
        j.crouch0 = 0;
    if (j.absorb <= j.land)
        j.absorb = j.land + 1;
    if (j.recover <= j.absorb)
        j.recover = j.absorb + 1;
    if (j.recover > n || j.crouch1 <= j.crouch0) /* not reached: N >= 8 leaves room for every phase */
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "desc.sample_rate", "too few keys for the jump clip's phases");
    j.v0 = 0.5f * JUMP_G * (float)flight * dt;
    { /* standing: the legs at 98% of their length, or the rest height if lower */
        const float reach = 0.98f * (b.thigh_len + b.calf_len);
        tdn_transform rest_model[TDN_HU_JOINTS];
        tdn_io__humanoid_model(b.skeleton, b.rest, rest_model);
        const tdn_vec3 hip = rest_model[TDN_HU_LEG].t, foot = b.neutral[0];
        const float dx = foot.x - hip.x, dz = foot.z - hip.z;
        const float allowed = foot.y + sqrtf(reach * reach - dx * dx - dz * dz) - hip.y;
        j.top = b.rest[TDN_HU_PELVIS].t.y + (allowed < 0.0f ? allowed : 0.0f);
    }
    /* The crouches are deep enough that the cubic pushing off (or absorbing the landing) at v0
     * stays monotonic: depth at least v0 x span / 2.5. */
    {
        const float push = (float)(j.take_off - j.crouch1) * dt, absorb = (float)(j.absorb - j.land) * dt;
        j.crouch = j.top - fmaxf(0.2f * b.scale, j.v0 * push / 2.5f);
        j.low = j.top - fmaxf(0.17f * b.scale, j.v0 * absorb / 2.5f);
    }

    const size_t keys = (size_t)n + 1;
    const size_t floats = keys + 2 * 2 * 4 + keys * (2 * 3 + ROTATED_COUNT * 4);
    const size_t bytes = floats * sizeof(float);
    float *block = tdn_io__alloc(&asset->allocator, bytes);
    if (!block)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "jump", "out of memory for the jump clip's keys");
    float *times = block, *contact_times = times + keys, *contact_values = contact_times + 2 * 4;
    float *translations = contact_values + 2 * 4, *rotations = translations + 2 * 3 * keys;
    for (size_t i = 0; i < keys; i++) {
        times[i] = i + 1 < keys ? (float)i * dt : JUMP_DURATION;
        jump_pose(&b, &j, (int)i, local, model);
        store_body_key(local, i, keys, translations, rotations);
    }
    /* Contacts: 1 until take-off, 0 in the air, 1 from landing (STEP). */
    tdn_float_track_desc floats_desc[2];
    static const char *const CONTACT_NAMES[2] = { "contact_l", "contact_r" };
    for (int side = 0; side < 2; side++) {
        float *ct = contact_times + side * 4, *cv = contact_values + side * 4;
        ct[0] = 0.0f, cv[0] = 1.0f;
        ct[1] = times[j.take_off], cv[1] = 0.0f;
        ct[2] = times[j.land], cv[2] = 1.0f;
        ct[3] = JUMP_DURATION, cv[3] = 1.0f;
        floats_desc[side] = (tdn_float_track_desc){
            .name = CONTACT_NAMES[side], .interp = TDN_INTERP_STEP, .key_count = 4, .times = ct, .values = cv
        };
    }
    tdn_track_desc tracks[TRACK_COUNT];
    body_tracks(tracks, keys, times, translations, rotations);
    const tdn_event_desc events[2] = { { "take_off", times[j.take_off] }, { "land", times[j.land] } };
    tdn_keyed_clip_desc desc = { .name = "jump",
                                 .skeleton = asset->skeleton,
                                 .tracks = tracks,
                                 .track_count = TRACK_COUNT,
                                 .float_tracks = floats_desc,
                                 .float_track_count = 2,
                                 .events = events,
                                 .event_count = 2,
                                 .duration = JUMP_DURATION };
    tdn_result r = tdn_keyed_clip_create(&desc, out, &asset->allocator, err);
    tdn_io__free(&asset->allocator, block, bytes);
    return r;
}

tdn_result tdn_io__humanoid_clips(tdn_asset *asset, const tdn_io__humanoid_params *p, tdn_error *err)
{
    const float wv = p->walk_speed, wc = p->walk_cycle, turn = 90.0f * DEG;
    /* Walking gaits share walk_speed and walk_cycle; lengths are at height 1.8. */
    const gait walk = { .cycle = wc, .duty = 0.6f, .lift = 0.08f, .bob = 0.015f, .roll = 2 * DEG, .elbow = 15 * DEG };
    gait gaits[8];
    gaits[0] = (gait){ .name = "idle",
                       .idle = 1,
                       .cycle = 3.0f,
                       .duty = 1.0f,
                       .sway = 0.012f,
                       .twist = 1.5f * DEG,
                       .roll = 1.5f * DEG,
                       .elbow = 10 * DEG };
    gaits[1] = walk;
    gaits[1].name = "walk_forward";
    gaits[1].vz = wv;
    gaits[1].lift = 0.09f;
    gaits[1].bob = 0.02f;
    gaits[1].sway = 0.025f;
    gaits[1].twist = 5 * DEG;
    gaits[1].roll = 4 * DEG;
    gaits[1].lean = 3 * DEG;
    gaits[1].arm_swing = 18 * DEG;
    gaits[2] = (gait){ .name = "run_forward",
                       .cycle = p->run_cycle,
                       .vz = p->run_speed,
                       .duty = 0.35f,
                       .lift = 0.14f,
                       .bob = -0.03f,
                       .sway = 0.01f,
                       .twist = 6 * DEG,
                       .roll = 3 * DEG,
                       .lean = 8 * DEG,
                       .arm_swing = 30 * DEG,
                       .elbow = 85 * DEG };
    gaits[3] = walk;
    gaits[3].name = "walk_backward";
    gaits[3].vz = -wv;
    gaits[3].sway = 0.02f;
    gaits[3].twist = -5 * DEG; /* the leading leg is the one behind */
    gaits[3].roll = 3 * DEG;
    gaits[3].lean = -2 * DEG;
    gaits[3].arm_swing = -12 * DEG;
    for (int side = 0; side < 2; side++) { /* the legs cross: the left foot ahead when going left */
        gait *g = &gaits[4 + side];
        *g = walk;
        g->name = side ? "strafe_right" : "strafe_left";
        g->vx = side ? -wv : wv;
        g->arm_swing = 3 * DEG;
        g->foot_z = side ? -0.07f : 0.07f;
    }
    for (int side = 0; side < 2; side++) {
        gait *g = &gaits[6 + side];
        *g = walk;
        g->name = side ? "turn_right" : "turn_left";
        g->turn = side ? -turn : turn;
        g->lift = 0.07f;
        g->bob = 0.01f;
        g->sway = 0.015f;
        g->arm_swing = 4 * DEG;
        g->head_lead = 0.2f;
    }
    const int count = (int)(sizeof gaits / sizeof gaits[0]);
    const int total = count + tdn_io__humanoid_upper_clip_count() + 1; /* the upper-body clips and the jump follow */
    asset->clips = tdn_io__asset_alloc(asset, sizeof *asset->clips * (size_t)total);
    asset->clip_channels = tdn_io__asset_alloc(asset, sizeof *asset->clip_channels * (size_t)total);
    if (!asset->clips || !asset->clip_channels)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for the clip list");
    for (int c = 0; c < count; c++) {
        tdn_result r = build_clip(asset, p, &gaits[c], &asset->clips[c], err);
        if (r != TDN_OK)
            return r;
        asset->clip_channels[c] = TRACK_COUNT;
        asset->clip_count = c + 1;
    }
    tdn_result r = tdn_io__humanoid_upper_clips(asset, p, err);
    if (r != TDN_OK)
        return r;
    const int at = asset->clip_count;
    r = build_jump(asset, p, &asset->clips[at], err);
    if (r != TDN_OK)
        return r;
    asset->clip_channels[at] = TRACK_COUNT;
    asset->clip_count = at + 1;
    return TDN_OK;
}
