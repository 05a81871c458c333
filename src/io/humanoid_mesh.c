/* tendon io: the generated humanoid's skinned mesh and its skin.
 *
 * The body is a set of closed capsules, one per segment (torso with pelvis, neck, head, and per
 * side upper arm, forearm, hand, thumb, thigh, shin, foot), placed on the rest pose in model space.
 * A capsule runs along an axis from A to B with an elliptic cross-section (radii ra along the
 * segment's `hint` direction, rb across it) and half-ellipsoid caps `cap` long at both ends.
 * Capsules overlap at the joints instead of sharing seams: each stays closed however the
 * joints bend, which is all a preview and a baked file need.
 *
 * Weights come from anchors along the axis: (joint, distance along the axis). A vertex between
 * two anchors blends their joints by a smoothstep of its place between them (two influences at
 * most, summing to 1); before the first or after the last it follows that anchor's joint. A
 * limb puts anchors a blend zone either side of its joints, so a segment is rigid in the middle
 * and half its neighbour's exactly at the joint, where the neighbouring capsule, anchored the
 * same way, moves with it. The torso anchors every spine joint at its height, so it bends
 * smoothly along the chain. The hand is a mitten on the hand joint with a thumb of its own; the
 * other fingers' joints do not move the mesh.
 *
 * Bind positions are the rest pose's model space, so the skeleton's inverse binds (the
 * inverted rest pose) are the skin's. Everything is a function of the scale: deterministic. */
#include <math.h>
#include <string.h>

#include "humanoid_internal.h"

#define PI_F 3.14159265358979f

enum { MAX_ANCHORS = 6, CAP_RINGS = 4 };

typedef struct anchor {
    int joint;   /* the joint it binds to (a TDN_HU_ index; per side: see side_joint) */
    int at;      /* the joint whose rest position, projected on the axis, places it */
    float shift; /* metres (at height 1.8) along the axis from there */
} anchor;

typedef struct segment {
    int a, b;                 /* joints whose rest positions (plus the offsets) end the axis */
    float a_off[3], b_off[3]; /* metres at height 1.8, X mirrored for the right side */
    float ra, rb, cap;        /* radii and cap length, metres at height 1.8 */
    float hint[3];            /* the ra direction (made perpendicular to the axis) */
    int around;               /* vertices per ring */
    int anchor_count;
    anchor anchors[MAX_ANCHORS];
} segment;

/* Per-side joints are written as offsets from these bases and resolved by side_joint. */
enum { ARM = 1000, LEG = 2000 };
#define A_(k) (ARM + (k))
#define L_(k) (LEG + (k))

static int side_joint(int j, int side)
{
    if (j >= LEG)
        return TDN_HU_LEG + TDN_HU_LEG_JOINTS * side + (j - LEG);
    if (j >= ARM)
        return TDN_HU_ARM + TDN_HU_ARM_JOINTS * side + (j - ARM);
    return j;
}

enum { THUMB_01 = 4, THUMB_02 = 5, THUMB_03 = 6 }; /* after the hand in each arm's joints */

/* Blend zones either side of a limb joint, metres at height 1.8. */
#define ARM_ZONE 0.04f
#define LEG_ZONE 0.06f

/* The middle segment list (sided ones are written for the left, +X, and mirrored), one segment
 * per entry with its fields on a line or two (kept so by hand). */
/* clang-format off */
static const segment CENTRE[] = {
    /* torso with the pelvis: from below the hips to above the chest, bending along the spine */
    { TDN_HU_PELVIS, TDN_HU_SPINE_01 + 4, { 0, -0.11f, 0 }, { 0, 0, 0 }, 0.155f, 0.105f, 0.08f, { 1, 0, 0 }, 24, 6,
      { { TDN_HU_PELVIS, TDN_HU_PELVIS, 0 }, { TDN_HU_SPINE_01, TDN_HU_SPINE_01, 0 },
        { TDN_HU_SPINE_01 + 1, TDN_HU_SPINE_01 + 1, 0 }, { TDN_HU_SPINE_01 + 2, TDN_HU_SPINE_01 + 2, 0 },
        { TDN_HU_SPINE_01 + 3, TDN_HU_SPINE_01 + 3, 0 }, { TDN_HU_SPINE_01 + 4, TDN_HU_SPINE_01 + 4, 0 } } },
    /* neck */
    { TDN_HU_NECK_01, TDN_HU_HEAD, { 0, -0.02f, 0 }, { 0, 0, 0 }, 0.05f, 0.055f, 0.04f, { 1, 0, 0 }, 12, 4,
      { { TDN_HU_SPINE_01 + 4, TDN_HU_NECK_01, -0.03f }, { TDN_HU_NECK_01, TDN_HU_NECK_01, 0.03f },
        { TDN_HU_NECK_02, TDN_HU_NECK_02, 0 }, { TDN_HU_HEAD, TDN_HU_HEAD, 0 } } },
    /* head: chin to crown (1.8 m at height 1.8) */
    { TDN_HU_HEAD, TDN_HU_HEAD, { 0, 0.02f, 0.02f }, { 0, 0.09f, 0.02f }, 0.08f, 0.095f, 0.08f, { 1, 0, 0 }, 20, 2,
      { { TDN_HU_NECK_02, TDN_HU_HEAD, -0.04f }, { TDN_HU_HEAD, TDN_HU_HEAD, 0.02f } } },
};
/* clang-format on */

/* clang-format off */
static const segment SIDED[] = {
    /* upper arm, shoulder to elbow (the T-pose's arm lies along +X) */
    { A_(TDN_HU_UPPERARM), A_(TDN_HU_LOWERARM), { 0, 0, 0 }, { 0, 0, 0 }, 0.055f, 0.05f, 0.05f, { 0, 0, 1 }, 16, 4,
      { { A_(TDN_HU_CLAVICLE), A_(TDN_HU_UPPERARM), -ARM_ZONE }, { A_(TDN_HU_UPPERARM), A_(TDN_HU_UPPERARM), ARM_ZONE },
        { A_(TDN_HU_UPPERARM), A_(TDN_HU_LOWERARM), -ARM_ZONE }, { A_(TDN_HU_LOWERARM), A_(TDN_HU_LOWERARM), ARM_ZONE } } },
    /* forearm, elbow to wrist */
    { A_(TDN_HU_LOWERARM), A_(TDN_HU_HAND), { 0, 0, 0 }, { 0, 0, 0 }, 0.045f, 0.04f, 0.04f, { 0, 0, 1 }, 16, 4,
      { { A_(TDN_HU_UPPERARM), A_(TDN_HU_LOWERARM), -ARM_ZONE }, { A_(TDN_HU_LOWERARM), A_(TDN_HU_LOWERARM), ARM_ZONE },
        { A_(TDN_HU_LOWERARM), A_(TDN_HU_HAND), -ARM_ZONE }, { A_(TDN_HU_HAND), A_(TDN_HU_HAND), ARM_ZONE } } },
    /* hand, a mitten from the wrist to past the middle finger's tip, wide across the palm */
    { A_(TDN_HU_HAND), A_(TDN_HU_HAND), { 0, 0, 0 }, { 0.15f, 0, 0 }, 0.045f, 0.022f, 0.035f, { 0, 0, 1 }, 12, 2,
      { { A_(TDN_HU_LOWERARM), A_(TDN_HU_HAND), -ARM_ZONE }, { A_(TDN_HU_HAND), A_(TDN_HU_HAND), ARM_ZONE } } },
    /* thumb, its base to past its tip, bending at its three joints */
    { A_(THUMB_01), A_(THUMB_03), { -0.01f, 0, -0.005f }, { 0.02f, 0, 0.005f }, 0.014f, 0.012f, 0.012f, { 0, 1, 0 }, 8,
      6, { { A_(TDN_HU_HAND), A_(THUMB_01), -0.01f }, { A_(THUMB_01), A_(THUMB_01), 0.01f },
           { A_(THUMB_01), A_(THUMB_02), -0.01f }, { A_(THUMB_02), A_(THUMB_02), 0.01f },
           { A_(THUMB_02), A_(THUMB_03), -0.01f }, { A_(THUMB_03), A_(THUMB_03), 0.01f } } },
    /* thigh, hip to knee */
    { L_(TDN_HU_THIGH), L_(TDN_HU_CALF), { 0, 0, 0 }, { 0, 0, 0 }, 0.08f, 0.085f, 0.07f, { 1, 0, 0 }, 16, 4,
      { { TDN_HU_PELVIS, L_(TDN_HU_THIGH), -LEG_ZONE }, { L_(TDN_HU_THIGH), L_(TDN_HU_THIGH), LEG_ZONE },
        { L_(TDN_HU_THIGH), L_(TDN_HU_CALF), -LEG_ZONE }, { L_(TDN_HU_CALF), L_(TDN_HU_CALF), LEG_ZONE } } },
    /* shin, knee to ankle */
    { L_(TDN_HU_CALF), L_(TDN_HU_FOOT), { 0, 0, 0 }, { 0, 0, 0 }, 0.06f, 0.065f, 0.05f, { 1, 0, 0 }, 16, 4,
      { { L_(TDN_HU_THIGH), L_(TDN_HU_CALF), -LEG_ZONE }, { L_(TDN_HU_CALF), L_(TDN_HU_CALF), LEG_ZONE },
        { L_(TDN_HU_CALF), L_(TDN_HU_FOOT), -LEG_ZONE }, { L_(TDN_HU_FOOT), L_(TDN_HU_FOOT), LEG_ZONE } } },
    /* foot, heel to toe tip, its sole about at the ground; the front bends with the toe joint */
    { L_(TDN_HU_FOOT), L_(TDN_HU_TOE), { 0, -0.015f, -0.05f }, { 0, 0.025f, 0.05f }, 0.05f, 0.035f, 0.04f, { 1, 0, 0 },
      12, 2, { { L_(TDN_HU_FOOT), L_(TDN_HU_TOE), -0.03f }, { L_(TDN_HU_TOE), L_(TDN_HU_TOE), 0.03f } } },
};
/* clang-format on */

enum { CENTRE_COUNT = sizeof CENTRE / sizeof CENTRE[0], SIDED_COUNT = sizeof SIDED / sizeof SIDED[0] };

/* Rings along the axis (poles not counted): CAP_RINGS - 1 per cap and body + 1 along it. */
static int body_rings(float length, float scale) { return (int)ceilf(length / (0.05f * scale) - 1e-3f); }

typedef struct placed {
    tdn_vec3 a, axis, u, w; /* start, unit axis, unit ra and rb directions */
    float length, ra, rb, cap;
    int around, body, anchor_count;
    int joints[MAX_ANCHORS];
    float at[MAX_ANCHORS]; /* sorted increasing */
} placed;

static tdn_vec3 offset(const float *o, float mirror, float scale)
{
    return tdn_vec3_make(mirror * o[0] * scale, o[1] * scale, o[2] * scale);
}

/* The segment on the rest pose (`rest` = model-space joint positions). */
static placed place(const segment *s, int side, const tdn_vec3 *rest, float scale)
{
    const float mirror = side ? -1.0f : 1.0f;
    placed p;
    memset(&p, 0, sizeof p);
    p.a = tdn_vec3_add(rest[side_joint(s->a, side)], offset(s->a_off, mirror, scale));
    const tdn_vec3 b = tdn_vec3_add(rest[side_joint(s->b, side)], offset(s->b_off, mirror, scale));
    p.length = tdn_vec3_length(tdn_vec3_sub(b, p.a));
    p.axis = tdn_vec3_normalize(tdn_vec3_sub(b, p.a));
    const tdn_vec3 hint = tdn_vec3_make(s->hint[0], s->hint[1], s->hint[2]);
    p.u = tdn_vec3_normalize(tdn_vec3_sub(hint, tdn_vec3_scale(p.axis, tdn_vec3_dot(hint, p.axis))));
    p.w = tdn_vec3_cross(p.axis, p.u);
    p.ra = s->ra * scale, p.rb = s->rb * scale, p.cap = s->cap * scale;
    p.around = s->around;
    p.body = body_rings(p.length, scale);
    p.anchor_count = s->anchor_count;
    for (int k = 0; k < s->anchor_count; k++) { /* insertion sort by place along the axis */
        const tdn_vec3 at = rest[side_joint(s->anchors[k].at, side)];
        const float d = tdn_vec3_dot(tdn_vec3_sub(at, p.a), p.axis) + s->anchors[k].shift * scale;
        int i = k;
        for (; i > 0 && p.at[i - 1] > d; i--)
            p.at[i] = p.at[i - 1], p.joints[i] = p.joints[i - 1];
        p.at[i] = d;
        p.joints[i] = side_joint(s->anchors[k].joint, side);
    }
    return p;
}

static int ring_count(const placed *p) { return 2 * (CAP_RINGS - 1) + p->body + 1; }
static int vertex_count(const placed *p) { return 2 + ring_count(p) * p->around; }
static int triangle_count(const placed *p) { return 2 * p->around * ring_count(p); }

/* Ring r's place along the axis and its latitude (0 on the body, +-pi/2 at the poles). */
static void ring(const placed *p, int r, float *along, float *theta)
{
    const float step = 0.5f * PI_F / (float)CAP_RINGS;
    if (r < CAP_RINGS - 1) {
        *theta = -0.5f * PI_F + step * (float)(r + 1);
        *along = p->cap * sinf(*theta);
    } else if (r <= CAP_RINGS - 1 + p->body) {
        *theta = 0.0f;
        *along = p->length * (float)(r - (CAP_RINGS - 1)) / (float)p->body;
    } else {
        *theta = step * (float)(r - (CAP_RINGS - 1 + p->body));
        *along = p->length + p->cap * sinf(*theta);
    }
}

/* Joints and weights (4 slots) of a vertex at `along`: between anchors k and k + 1 a smoothstep
 * from k's joint to k + 1's; before the first and after the last, that anchor's joint alone. */
static void weigh(const placed *p, float along, uint16_t *joints, float *weights)
{
    int k = 0;
    while (k + 1 < p->anchor_count && along > p->at[k + 1])
        k++;
    float s = 0.0f;
    if (k + 1 < p->anchor_count && along > p->at[k] && p->joints[k] != p->joints[k + 1]) {
        const float t = (along - p->at[k]) / (p->at[k + 1] - p->at[k]);
        s = t * t * (3.0f - 2.0f * t);
    }
    memset(joints, 0, sizeof(uint16_t) * 4);
    memset(weights, 0, sizeof(float) * 4);
    if (s <= 0.0f || s >= 1.0f) {
        joints[0] = (uint16_t)p->joints[s >= 1.0f ? k + 1 : k];
        weights[0] = 1.0f;
        return;
    }
    const int major = s > 0.5f; /* the larger weight first */
    joints[0] = (uint16_t)p->joints[k + major], weights[0] = major ? s : 1.0f - s;
    joints[1] = (uint16_t)p->joints[k + !major], weights[1] = 1.0f - weights[0];
}

typedef struct mesh_out {
    float *positions, *normals, *weights;
    uint16_t *joints;
    uint32_t *indices;
    int vertices, indices_used;
} mesh_out;

static void emit_vertex(mesh_out *m, const placed *p, tdn_vec3 position, tdn_vec3 normal, float along)
{
    const int v = m->vertices++;
    memcpy(m->positions + 3 * v, &position, sizeof(float) * 3);
    normal = tdn_vec3_normalize(normal);
    memcpy(m->normals + 3 * v, &normal, sizeof(float) * 3);
    weigh(p, along, m->joints + 4 * v, m->weights + 4 * v);
}

static void emit_triangle(mesh_out *m, int a, int b, int c)
{
    m->indices[m->indices_used++] = (uint32_t)a;
    m->indices[m->indices_used++] = (uint32_t)b;
    m->indices[m->indices_used++] = (uint32_t)c;
}

/* One closed capsule: the start pole, the rings, the end pole; triangles counter-clockwise
 * seen from outside. */
static void emit_capsule(mesh_out *m, const placed *p)
{
    const int base = m->vertices, rings = ring_count(p), n = p->around;
    emit_vertex(m, p, tdn_vec3_sub(p->a, tdn_vec3_scale(p->axis, p->cap)), tdn_vec3_scale(p->axis, -1.0f), -p->cap);
    for (int r = 0; r < rings; r++) {
        float along, theta;
        ring(p, r, &along, &theta);
        const tdn_vec3 centre = tdn_vec3_add(p->a, tdn_vec3_scale(p->axis, along));
        for (int j = 0; j < n; j++) {
            const float phi = 2.0f * PI_F * (float)j / (float)n, c = cosf(phi) * cosf(theta),
                        s = sinf(phi) * cosf(theta);
            const tdn_vec3 position = tdn_vec3_add(
                centre, tdn_vec3_add(tdn_vec3_scale(p->u, c * p->ra), tdn_vec3_scale(p->w, s * p->rb)));
            /* the gradient of the ellipsoid (x/ra)^2 + (y/rb)^2 + (z/cap)^2 */
            const tdn_vec3 normal = tdn_vec3_add(
                tdn_vec3_scale(p->axis, sinf(theta) / p->cap),
                tdn_vec3_add(tdn_vec3_scale(p->u, c / p->ra), tdn_vec3_scale(p->w, s / p->rb)));
            emit_vertex(m, p, position, normal, along);
        }
    }
    emit_vertex(m, p, tdn_vec3_add(p->a, tdn_vec3_scale(p->axis, p->length + p->cap)), p->axis, p->length + p->cap);
    const int end = m->vertices - 1;
#define RING(r, j) (base + 1 + (r)*n + ((j) % n))
    for (int j = 0; j < n; j++) {
        emit_triangle(m, base, RING(0, j + 1), RING(0, j));
        for (int r = 0; r + 1 < rings; r++) {
            emit_triangle(m, RING(r, j), RING(r, j + 1), RING(r + 1, j));
            emit_triangle(m, RING(r, j + 1), RING(r + 1, j + 1), RING(r + 1, j));
        }
        emit_triangle(m, RING(rings - 1, j), RING(rings - 1, j + 1), end);
    }
#undef RING
}

tdn_result tdn_io__humanoid_mesh(tdn_asset *asset, float scale, tdn_error *err)
{
    const tdn_skeleton *skel = asset->skeleton;
    tdn_vec3 rest[TDN_HU_JOINTS];
    tdn_transform local[TDN_HU_JOINTS], model[TDN_HU_JOINTS];
    for (int j = 0; j < TDN_HU_JOINTS; j++)
        local[j] = tdn_skeleton_rest(skel, j);
    tdn_io__humanoid_model(skel, local, model);
    for (int j = 0; j < TDN_HU_JOINTS; j++)
        rest[j] = model[j].t;
    placed parts[CENTRE_COUNT + 2 * SIDED_COUNT];
    int count = 0, vertices = 0, triangles = 0;
    for (int i = 0; i < CENTRE_COUNT; i++)
        parts[count++] = place(&CENTRE[i], 0, rest, scale);
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < SIDED_COUNT; i++)
            parts[count++] = place(&SIDED[i], side, rest, scale);
    for (int i = 0; i < count; i++)
        vertices += vertex_count(&parts[i]), triangles += triangle_count(&parts[i]);

    mesh_out m = { 0 };
    m.positions = tdn_io__asset_alloc(asset, sizeof(float) * 3 * (size_t)vertices);
    m.normals = tdn_io__asset_alloc(asset, sizeof(float) * 3 * (size_t)vertices);
    m.weights = tdn_io__asset_alloc(asset, sizeof(float) * 4 * (size_t)vertices);
    m.joints = tdn_io__asset_alloc(asset, sizeof(uint16_t) * 4 * (size_t)vertices);
    m.indices = tdn_io__asset_alloc(asset, sizeof(uint32_t) * 3 * (size_t)triangles);
    tdn_asset_mesh *mesh = tdn_io__asset_alloc(asset, sizeof *mesh);
    const char **skin_names = tdn_io__asset_alloc(asset, sizeof(char *));
    int *skin_joint_counts = tdn_io__asset_alloc(asset, sizeof(int));
    char *mesh_name = tdn_io__asset_strdup(asset, "body"), *skin_name = tdn_io__asset_strdup(asset, "humanoid");
    if (!m.positions || !m.normals || !m.weights || !m.joints || !m.indices || !mesh || !skin_names ||
        !skin_joint_counts || !mesh_name || !skin_name)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for the mesh");
    for (int i = 0; i < count; i++)
        emit_capsule(&m, &parts[i]);
    if (m.vertices != vertices || m.indices_used != 3 * triangles) /* the counts above describe the loops */
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, "body",
                            "generated %d vertices and %d indices, expected %d and %d", m.vertices, m.indices_used,
                            vertices, 3 * triangles);
    *mesh = (tdn_asset_mesh){ .name = mesh_name,
                              .vertex_count = vertices,
                              .influence_sets = 1,
                              .positions = m.positions,
                              .normals = m.normals,
                              .joints = m.joints,
                              .weights = m.weights,
                              .indices = m.indices,
                              .index_count = 3 * triangles };
    asset->meshes = mesh;
    asset->mesh_count = 1;
    skin_names[0] = skin_name;
    skin_joint_counts[0] = TDN_HU_JOINTS;
    asset->skin_names = skin_names;
    asset->skin_joint_counts = skin_joint_counts;
    asset->skin_count = 1;
    asset->chosen_skin = 0;
    return TDN_OK;
}
