/* tendon_bench: the benchmark skeletons (S67, S256). S67 is the generated humanoid's skeleton
 * (libtendon_io), S256 adds joints to it. Rest rotations are identity; each joint's rest
 * translation is its offset from the parent in metres. */
#include "bench_skeletons.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tendon/io/humanoid.h"

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

static int find_joint(const rig *r, const char *name)
{
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->names[i], name) == 0)
            return i;
    return -1;
}

/* S67: the generated humanoid's skeleton at its default height, joint for joint. */
static tdn_result add_humanoid(rig *r, tdn_error *err)
{
    tdn_asset *humanoid = NULL;
    tdn_result res = tdn_humanoid_create(NULL, &humanoid, NULL, err);
    if (res != TDN_OK)
        return res;
    const tdn_skeleton *skeleton = tdn_asset_skeleton(humanoid);
    r->count = tdn_skeleton_joint_count(skeleton);
    for (int j = 0; j < r->count && j < RIG_MAX; j++) {
        snprintf(r->names[j], RIG_NAME, "%s", tdn_skeleton_joint_name(skeleton, j));
        r->parents[j] = tdn_skeleton_parent(skeleton, j);
        r->rest[j] = tdn_skeleton_rest(skeleton, j);
    }
    tdn_asset_destroy(humanoid);
    return TDN_OK;
}

/* `count` chains of `length` joints hanging from `parent`, spread on a ring of `radius`. */
static void add_chains(rig *r, int parent, const char *prefix, int count, int length, float radius, float y0, float arc,
                       float step)
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
    tdn_result res = add_humanoid(r, err);
    if (res != TDN_OK) {
        free(r);
        return res;
    }
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
    res = r->count == joint_count ? tdn_skeleton_create(&desc, out, NULL, err) : TDN_ERR_INVALID_DATA;
    free(r);
    return res;
}
