/* tendon_bench: procedural humanoid skeletons (S67, S256). Rest rotations are identity; each
 * joint's rest translation is its offset from the parent in metres. */
#include "bench_skeletons.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RIG_MAX 256
#define RIG_NAME 40

typedef struct rig {
    int count;
    char names[RIG_MAX][RIG_NAME];
    int parents[RIG_MAX];
    tdn_transform rest[RIG_MAX];
} rig;

/* Adds a joint at offset (x, y, z) from its parent; returns its index. */
static int add_joint(rig *r, int parent, float x, float y, float z, const char *name)
{
    int i = r->count++;
    snprintf(r->names[i], RIG_NAME, "%s", name);
    r->parents[i] = parent;
    r->rest[i] = tdn_transform_identity();
    r->rest[i].t = tdn_vec3_make(x, y, z);
    return i;
}

/* "base_side", for example "hand_l". */
static const char *sided(char *buf, const char *base, const char *side)
{
    snprintf(buf, RIG_NAME, "%s_%s", base, side);
    return buf;
}

static int find_joint(const rig *r, const char *name)
{
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->names[i], name) == 0)
            return i;
    return -1;
}

typedef struct finger {
    const char *name;
    float z;      /* across the palm */
    float length; /* of the proximal phalanx; the next two are 0.62 and 0.4 of it */
} finger;

static const finger FINGERS[4] = {
    { "index", 0.025f, 0.042f }, { "middle", 0.008f, 0.046f }, { "ring", -0.01f, 0.043f }, { "pinky", -0.027f, 0.034f }
};

static void add_arm(rig *r, int chest, const char *side, float s)
{
    char name[RIG_NAME];
    int clavicle = add_joint(r, chest, s * 0.03f, 0.04f, 0.02f, sided(name, "clavicle", side));
    int upper = add_joint(r, clavicle, s * 0.15f, 0.0f, -0.02f, sided(name, "upperarm", side));
    int lower = add_joint(r, upper, s * 0.28f, 0.0f, 0.0f, sided(name, "lowerarm", side));
    int hand = add_joint(r, lower, s * 0.26f, 0.0f, 0.0f, sided(name, "hand", side));
    int t1 = add_joint(r, hand, s * 0.025f, -0.01f, 0.03f, sided(name, "thumb_01", side));
    int t2 = add_joint(r, t1, s * 0.035f, -0.005f, 0.015f, sided(name, "thumb_02", side));
    add_joint(r, t2, s * 0.03f, 0.0f, 0.008f, sided(name, "thumb_03", side));
    for (int f = 0; f < 4; f++) {
        snprintf(name, sizeof name, "%s_metacarpal_%s", FINGERS[f].name, side);
        int meta = add_joint(r, hand, s * 0.03f, 0.0f, FINGERS[f].z, name);
        int parent = meta;
        float lengths[3] = { 0.065f, FINGERS[f].length, 0.62f * FINGERS[f].length };
        for (int k = 0; k < 3; k++) {
            snprintf(name, sizeof name, "%s_%02d_%s", FINGERS[f].name, k + 1, side);
            parent = add_joint(r, parent, s * lengths[k], 0.0f, k == 0 ? 0.25f * FINGERS[f].z : 0.0f, name);
        }
    }
}

static void add_leg(rig *r, int pelvis, const char *side, float s)
{
    char name[RIG_NAME];
    int thigh = add_joint(r, pelvis, s * 0.09f, -0.06f, 0.0f, sided(name, "thigh", side));
    int calf = add_joint(r, thigh, 0.0f, -0.43f, 0.01f, sided(name, "calf", side));
    int foot = add_joint(r, calf, 0.0f, -0.40f, -0.02f, sided(name, "foot", side));
    add_joint(r, foot, 0.0f, -0.05f, 0.13f, sided(name, "ball", side));
}

static void add_humanoid(rig *r)
{
    int root = add_joint(r, -1, 0.0f, 0.0f, 0.0f, "root");
    int pelvis = add_joint(r, root, 0.0f, 0.95f, 0.0f, "pelvis");
    const float spine_lengths[5] = { 0.09f, 0.10f, 0.10f, 0.10f, 0.08f };
    int spine = pelvis;
    char name[RIG_NAME];
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "spine_%02d", i + 1);
        spine = add_joint(r, spine, 0.0f, spine_lengths[i], i < 2 ? 0.01f : -0.005f, name);
    }
    int neck = add_joint(r, spine, 0.0f, 0.10f, 0.01f, "neck_01");
    neck = add_joint(r, neck, 0.0f, 0.05f, 0.01f, "neck_02");
    int head = add_joint(r, neck, 0.0f, 0.06f, 0.0f, "head");
    add_joint(r, head, 0.0f, 0.01f, 0.03f, "jaw");
    add_joint(r, head, 0.032f, 0.07f, 0.08f, "eye_l");
    add_joint(r, head, -0.032f, 0.07f, 0.08f, "eye_r");
    add_arm(r, spine, "l", 1.0f);
    add_arm(r, spine, "r", -1.0f);
    add_leg(r, pelvis, "l", 1.0f);
    add_leg(r, pelvis, "r", -1.0f);
}

/* `count` chains of `length` joints hanging from `parent`, spread on a ring of `radius`. */
static void add_chains(rig *r, int parent, const char *prefix, int count, int length, float radius, float y0,
                       float arc, float step)
{
    char name[RIG_NAME];
    for (int c = 0; c < count; c++) {
        float a = arc * ((float)c / (float)(count > 1 ? count - 1 : 1) - 0.5f);
        int j = parent;
        for (int k = 0; k < length; k++) {
            snprintf(name, sizeof name, "%s_%02d_%02d", prefix, c + 1, k + 1);
            if (k == 0)
                j = add_joint(r, j, radius * sinf(a), y0, radius * cosf(a), name);
            else
                j = add_joint(r, j, 0.0f, -step, 0.002f * (float)k, name);
        }
    }
}

static void add_extras(rig *r)
{
    const char *sides[2] = { "l", "r" };
    char name[RIG_NAME];
    for (int s = 0; s < 2; s++) {
        float x = s ? -1.0f : 1.0f;
        const char *bones[4] = { "upperarm", "lowerarm", "thigh", "calf" };
        for (int b = 0; b < 4; b++) {
            snprintf(name, sizeof name, "%s_%s", bones[b], sides[s]);
            int bone = find_joint(r, name);
            for (int k = 1; k <= 2; k++) {
                snprintf(name, sizeof name, "%s_twist_%02d_%s", bones[b], k, sides[s]);
                if (b < 2) /* arm bones run along x */
                    add_joint(r, bone, x * (b == 0 ? 0.09f : 0.085f) * (float)k, 0.0f, 0.0f, name);
                else
                    add_joint(r, bone, 0.0f, -0.14f * (float)k, 0.0f, name);
            }
        }
    }
    /* Face: 36 points over the front of the head, and a tongue chain under the jaw. */
    int head = find_joint(r, "head");
    for (int i = 0; i < 36; i++) {
        float u = (float)(i % 6) / 5.0f - 0.5f, v = (float)(i / 6) / 5.0f;
        snprintf(name, sizeof name, "face_%02d", i + 1);
        add_joint(r, head, 0.12f * u, 0.13f * v - 0.02f, 0.085f - 0.05f * u * u, name);
    }
    add_chains(r, find_joint(r, "jaw"), "tongue", 1, 4, 0.02f, -0.01f, 0.0f, -0.012f);
    add_chains(r, head, "hair", 10, 5, 0.09f, 0.12f, 5.0f, 0.04f);
    add_chains(r, find_joint(r, "pelvis"), "skirt", 8, 6, 0.16f, -0.05f, 6.0f, 0.07f);
    add_chains(r, find_joint(r, "spine_05"), "cape", 5, 6, -0.12f, 0.06f, 1.4f, 0.2f);
    add_joint(r, find_joint(r, "hand_l"), 0.08f, -0.02f, 0.0f, "prop_hand_l");
    add_joint(r, find_joint(r, "hand_r"), -0.08f, -0.02f, 0.0f, "prop_hand_r");
    add_joint(r, find_joint(r, "spine_05"), 0.0f, 0.05f, -0.18f, "prop_back");
    add_joint(r, find_joint(r, "pelvis"), 0.17f, -0.05f, 0.0f, "prop_hip_l");
    add_joint(r, find_joint(r, "pelvis"), -0.17f, -0.05f, 0.0f, "prop_hip_r");
}

tdn_result bench_skeleton_create(int joint_count, tdn_skeleton **out, tdn_error *err)
{
    if (joint_count != BENCH_S67 && joint_count != BENCH_S256) {
        if (err) {
            err->code = TDN_ERR_ARGUMENT;
            snprintf(err->message, sizeof err->message, "no generated skeleton has %d joints (67 or 256)", joint_count);
        }
        return TDN_ERR_ARGUMENT;
    }
    rig *r = calloc(1, sizeof *r);
    if (!r)
        return TDN_ERR_OUT_OF_MEMORY;
    add_humanoid(r);
    if (joint_count == BENCH_S256)
        add_extras(r);
    const char *names[RIG_MAX];
    for (int i = 0; i < r->count; i++)
        names[i] = r->names[i];
    tdn_skeleton_desc desc = { 0 };
    desc.joint_count = r->count;
    desc.names = names;
    desc.parents = r->parents;
    desc.rest_pose = r->rest;
    tdn_result res = r->count == joint_count ? tdn_skeleton_create(&desc, out, NULL, err) : TDN_ERR_INVALID_DATA;
    free(r);
    return res;
}
