/* Retargeting (tdn_retarget_reference_pose, tdn_retarget_create, tdn_retarget_pose). Every figure
 * is measured here from model-space positions (tdn_model_space), not from the code under test:
 * - the reference pose of every humanoid of the shared data points its legs down, its arms out
 *   sideways and its spine up, faces +Z, and is its own reference;
 * - a skeleton retargeted onto itself, or onto a copy with its joints renamed, gets the source's
 *   local rotations back;
 * - on real pairs (GAMES-105 onto tendon's humanoid; LAFAN1 and CMU onto Soldier, CesiumMan and
 *   RobotExpressive; RiggedFigure and Soldier onto CesiumMan), over every frame of a take, the angle between the
 * source's and the target's bone directions, each in its own character's facing frame (right = the horizontal direction
 * from the left thigh to the right thigh, up = +Y, forward = up x right): median <= 3 degrees, 99th percentile <= 10;
 * the hips' horizontal travel is the source's times the scale within 2%;
 * - no pops: the largest per-frame change of a mapped joint's local rotation on the target is
 *   within 1.2 times the source's own over the same frames;
 * - with the contact fix-up, during the source's heel contacts (its ankle within 2 cm of its
 *   lowest height and slower than 15 cm/s), the target's ankle slides at most 1 cm/s and stays
 *   within 1 cm of its rest height (in the source's scale: target lengths over the scale);
 * - a planted hand (contacts on hands) is held where it landed while the target's hips move
 *   further than the source's, and slides as far as they do without the fix-up;
 * - retargeting a pose, contacts and all, allocates nothing (counting allocator). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "renamed_skeleton.h"
#include "counting_allocator.h"
#include "tendon/tendon_io.h"
#include "test_data.h"

#define DEG (180.0 / 3.14159265358979323846)

typedef struct character {
    tdn_asset *asset;
    const tdn_skeleton *skel;
    tdn_body_map map;
} character;

static int load_character(const char *dir, const char *file, character *c)
{
    char path[1024];
    tdn_error err = { 0 };
    memset(c, 0, sizeof *c);
    tdn_result r = file ? tdn_asset_load(test_data_path(path, sizeof path, dir, file), NULL, &c->asset, NULL, &err)
                        : tdn_humanoid_create(NULL, &c->asset, NULL, &err);
    if (!CHECK(r == TDN_OK)) {
        fprintf(stderr, "%s: %s\n", file ? file : "humanoid", err.message);
        return 0;
    }
    c->skel = tdn_asset_skeleton(c->asset);
    if (!CHECK(tdn_body_map_find(c->skel, NULL, &c->map, &err) == TDN_OK)) {
        fprintf(stderr, "%s: %s: %s\n", file ? file : "humanoid", err.where, err.message);
        tdn_asset_destroy(c->asset);
        return 0;
    }
    return 1;
}

static tdn_vec3 position(const tdn_mat4 *model, int j)
{
    return tdn_vec3_make(model[j].m[12], model[j].m[13], model[j].m[14]);
}

static double angle_deg(tdn_vec3 a, tdn_vec3 b)
{
    double la = tdn_vec3_length(a), lb = tdn_vec3_length(b);
    double c = tdn_vec3_dot(a, b) / (la * lb);
    return acos(c > 1.0 ? 1.0 : (c < -1.0 ? -1.0 : c)) * DEG;
}

static int part(const tdn_body_map *map, tdn_body_part p) { return tdn_body_map_joint(map, p); }

/* The joint that ends the spine's direction: the first neck joint, else the head. */
static int neck_of(const tdn_body_map *map)
{
    int neck = part(map, TDN_BODY_PART_NECK);
    return neck >= 0 ? neck : part(map, TDN_BODY_PART_HEAD);
}

/* The facing frame's forward (up x right, right = horizontal left thigh -> right thigh). */
static tdn_vec3 forward_of(const tdn_body_map *map, const tdn_mat4 *model)
{
    tdn_vec3 right = tdn_vec3_sub(position(model, part(map, TDN_BODY_PART_RIGHT_THIGH)),
                                  position(model, part(map, TDN_BODY_PART_LEFT_THIGH)));
    right.y = 0.0f;
    return tdn_vec3_normalize(tdn_vec3_cross(tdn_vec3_make(0.0f, 1.0f, 0.0f), tdn_vec3_normalize(right)));
}

/* The limbs the metric measures: bone from `from` to `to` (parts), and the reference direction. */
typedef struct limb {
    tdn_body_part from, to;
    float x, y, z;
} limb;
static const limb limbs[] = {
    { TDN_BODY_PART_LEFT_THIGH, TDN_BODY_PART_LEFT_SHIN, 0, -1, 0 },
    { TDN_BODY_PART_LEFT_SHIN, TDN_BODY_PART_LEFT_FOOT, 0, -1, 0 },
    { TDN_BODY_PART_RIGHT_THIGH, TDN_BODY_PART_RIGHT_SHIN, 0, -1, 0 },
    { TDN_BODY_PART_RIGHT_SHIN, TDN_BODY_PART_RIGHT_FOOT, 0, -1, 0 },
    { TDN_BODY_PART_LEFT_UPPER_ARM, TDN_BODY_PART_LEFT_FOREARM, 1, 0, 0 },
    { TDN_BODY_PART_LEFT_FOREARM, TDN_BODY_PART_LEFT_HAND, 1, 0, 0 },
    { TDN_BODY_PART_RIGHT_UPPER_ARM, TDN_BODY_PART_RIGHT_FOREARM, -1, 0, 0 },
    { TDN_BODY_PART_RIGHT_FOREARM, TDN_BODY_PART_RIGHT_HAND, -1, 0, 0 },
    { TDN_BODY_PART_HIPS, TDN_BODY_PART_NECK, 0, 1, 0 }, /* NECK: the neck, else the head */
};
#define LIMB_COUNT (int)(sizeof limbs / sizeof limbs[0])

static int limb_ends(const character *c, int k, int *a, int *b)
{
    *a = part(&c->map, limbs[k].from);
    *b = limbs[k].to == TDN_BODY_PART_NECK ? neck_of(&c->map) : part(&c->map, limbs[k].to);
    return *a >= 0 && *b >= 0;
}

static int same_rotation(tdn_quat a, tdn_quat b, float tol)
{
    float d = fabsf(tdn_quat_dot(a, b));
    return 1.0f - d <= tol;
}

static tdn_quat rotation_of(const tdn_pose *p, int j) { return tdn_pose_get(p, j).r; }

/* The reference pose from `pose` (NULL: rest): limbs canonical within 0.5 degrees, facing +Z,
 * its own reference within 1e-5. */
static void check_reference(const char *what, const character *c, const tdn_pose *pose)
{
    const int n = tdn_skeleton_joint_count(c->skel);
    tdn_pose ref, again;
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)n);
    tdn_error err = { 0 };
    if (!CHECK(model && tdn_pose_create(n, &ref, NULL, NULL) == TDN_OK &&
               tdn_pose_create(n, &again, NULL, NULL) == TDN_OK))
        return;
    if (CHECK(tdn_retarget_reference_pose(c->skel, &c->map, pose, &ref, &err) == TDN_OK) &&
        CHECK(tdn_model_space(c->skel, &ref, NULL, model, NULL) == TDN_OK)) {
        for (int k = 0; k < LIMB_COUNT; k++) {
            int a, b;
            if (!limb_ends(c, k, &a, &b))
                continue; /* RobotExpressive: no hand joint */
            double off = angle_deg(tdn_vec3_sub(position(model, b), position(model, a)),
                                   tdn_vec3_make(limbs[k].x, limbs[k].y, limbs[k].z));
            if (!CHECK(off <= 0.5))
                fprintf(stderr, "%s: %s is %.2f degrees off\n", what, tdn_body_part_name(limbs[k].from), off);
        }
        double facing = angle_deg(forward_of(&c->map, model), tdn_vec3_make(0.0f, 0.0f, 1.0f));
        if (!CHECK(facing <= 0.5))
            fprintf(stderr, "%s: faces %.2f degrees away from +Z\n", what, facing);
        CHECK(tdn_retarget_reference_pose(c->skel, &c->map, &ref, &again, NULL) == TDN_OK);
        int same = 1;
        for (int j = 0; j < n; j++)
            same &= same_rotation(rotation_of(&ref, j), rotation_of(&again, j), 1e-5f);
        if (!CHECK(same))
            fprintf(stderr, "%s: the reference of the reference differs\n", what);
    } else
        fprintf(stderr, "%s: %s: %s\n", what, err.where, err.message);
    free(model);
    tdn_pose_destroy(&ref);
    tdn_pose_destroy(&again);
}

static void reference_poses(void)
{
    character h;
    if (load_character(NULL, NULL, &h)) {
        check_reference("humanoid", &h, NULL);
        tdn_asset_destroy(h.asset);
    }
    const char *dir = test_data_dir();
    if (!dir)
        return;
    static const char *const files[] = {
        "bvh/lafan1/walk4_subject1.bvh",
        "bvh/lafan1-resolved/Geno_bind.bvh",
        "bvh/cmu/cgspeed-mb/walk.bvh",
        "bvh/cmu/cgspeed-3dsmax/131_01.bvh",
        "bvh/cmu/cgspeed-daz/02_03.bvh",
        "bvh/games105/walk_forward.bvh",
        "bvh/games105/idle.bvh",
        "bvh/misc/test_freebvh.bvh",
        "gltf/threejs/Soldier.glb",
        "gltf/threejs/RobotExpressive/RobotExpressive.glb",
        "gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb",
        "gltf/khronos/RiggedFigure/glTF-Binary/RiggedFigure.glb",
    };
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        character c;
        if (!load_character(dir, files[k], &c))
            continue;
        check_reference(files[k], &c, NULL);
        /* from the take's first frame too (LAFAN1's actor stance, GAMES-105's idle facing -X) */
        const tdn_keyed_clip *clip = tdn_asset_clip_count(c.asset) > 0 ? tdn_asset_clip(c.asset, 0) : NULL;
        tdn_pose frame;
        if (clip && CHECK(tdn_pose_create(tdn_skeleton_joint_count(c.skel), &frame, NULL, NULL) == TDN_OK)) {
            if (CHECK(tdn_keyed_clip_sample(clip, 0.0f, &frame, NULL, NULL) == TDN_OK))
                check_reference(files[k], &c, &frame);
            tdn_pose_destroy(&frame);
        }
        tdn_asset_destroy(c.asset);
    }
}

/* A pose with every mapped joint turned (the rest of the skeleton at its reference) and the
 * hips moved: what a source can do that a target must reproduce exactly on itself. */
static void posed(const character *c, const tdn_pose *reference, tdn_pose *pose, unsigned seed)
{
    tdn_pose_copy(pose, reference, NULL);
    for (int p = 0; p < TDN_BODY_PART_COUNT; p++)
        for (int i = 0; i < c->map.parts[p].joint_count; i++) {
            seed = seed * 1103515245u + 12345u;
            tdn_vec3 axis = tdn_vec3_make((float)(seed % 97) - 48.0f, (float)(seed / 97 % 89) - 44.0f, 7.0f);
            tdn_transform x = tdn_pose_get(pose, c->map.parts[p].joints[i]);
            x.r = tdn_quat_mul(x.r,
                               tdn_quat_from_axis_angle(tdn_vec3_normalize(axis), 0.1f + (float)(seed % 13) * 0.1f));
            if (p == TDN_BODY_PART_HIPS)
                x.t = tdn_vec3_add(x.t, tdn_vec3_make(0.3f, -0.1f, 0.7f));
            tdn_pose_set(pose, c->map.parts[p].joints[i], &x);
        }
}

/* Retargets `source` through a retarget made from source and target, and checks every joint
 * mapped on both (by joint, as the target's map names them) against the source's locals. */
static void check_onto_itself(const char *what, const character *source, const character *target)
{
    const int n = tdn_skeleton_joint_count(source->skel);
    tdn_retarget_desc desc = { .source = { .skeleton = source->skel, .map = &source->map },
                               .target = { .skeleton = target->skel, .map = &target->map } };
    tdn_retarget *rt = NULL;
    tdn_pose reference, in, out;
    tdn_error err = { 0 };
    if (!CHECK(tdn_retarget_create(&desc, &rt, NULL, &err) == TDN_OK)) {
        fprintf(stderr, "%s: %s: %s\n", what, err.where, err.message);
        return;
    }
    CHECK_NEAR(tdn_retarget_scale(rt), 1.0, 1e-6);
    tdn_pose_create(n, &reference, NULL, NULL);
    tdn_pose_create(n, &in, NULL, NULL);
    tdn_pose_create(n, &out, NULL, NULL);
    tdn_retarget_reference_pose(source->skel, &source->map, NULL, &reference, NULL);
    for (unsigned trial = 0; trial < 4; trial++) {
        posed(source, &reference, &in, trial + 1u);
        if (!CHECK(tdn_retarget_pose(rt, &in, &out, NULL) == TDN_OK))
            break;
        int same = 1;
        for (int p = 0; p < TDN_BODY_PART_COUNT; p++)
            for (int i = 0; i < target->map.parts[p].joint_count && source->map.parts[p].joint_count; i++) {
                int j = target->map.parts[p].joints[i];
                same &= same_rotation(rotation_of(&in, j), rotation_of(&out, j), 1e-5f);
            }
        int hips = part(&source->map, TDN_BODY_PART_HIPS);
        tdn_vec3 d = tdn_vec3_sub(tdn_pose_get(&in, hips).t, tdn_pose_get(&out, hips).t);
        if (!CHECK(same) || !CHECK(tdn_vec3_length(d) < 1e-5f))
            fprintf(stderr, "%s: trial %u differs from the source\n", what, trial);
    }
    tdn_pose_destroy(&reference);
    tdn_pose_destroy(&in);
    tdn_pose_destroy(&out);
    tdn_retarget_destroy(rt);
}

static void identity_and_renames(void)
{
    character h;
    if (!load_character(NULL, NULL, &h))
        return;
    check_onto_itself("humanoid onto itself", &h, &h);
    const int n = tdn_skeleton_joint_count(h.skel);
    char(*names)[16] = malloc(sizeof *names * (size_t)n);
    const char **ptrs = malloc(sizeof *ptrs * (size_t)n);
    character plain = { NULL, NULL, { 0 } };
    if (names && ptrs)
        for (int j = 0; j < n; j++) {
            snprintf(names[j], 16, "j%d", j);
            ptrs[j] = names[j];
        }
    plain.skel = names && ptrs ? skeleton_renamed(h.skel, ptrs) : NULL;
    if (CHECK(plain.skel != NULL) && CHECK(tdn_body_map_find(plain.skel, NULL, &plain.map, NULL) == TDN_OK)) {
        check_onto_itself("humanoid onto its renamed copy", &h, &plain);
        check_onto_itself("renamed copy onto the humanoid", &plain, &h);
    }
    tdn_skeleton_destroy((tdn_skeleton *)plain.skel);
    free(names);
    free(ptrs);
    tdn_asset_destroy(h.asset);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A pair of the shared data: the source's first clip sampled at `rate`, its lengths in units of
 * `meter` per metre (for the contact thresholds, which are real distances). */
typedef struct pair {
    const char *source, *target;
    float rate, meter;
    int first; /* the take's first frame (CMU's cgspeed takes start with a frame of T-pose) */
} pair;

/* The two feet's ankles: the foot parts' joints. */
static const tdn_body_part feet[2] = { TDN_BODY_PART_LEFT_FOOT, TDN_BODY_PART_RIGHT_FOOT };

/* The source's heel contacts over the take, per frame and foot: the ankle within 2 cm of its
 * lowest height and slower than 15 cm/s (from the previous frame; the first frame from the
 * next). `lowest` gets each ankle's lowest height. */
static unsigned char *source_contacts(const character *s, const tdn_keyed_clip *clip, int frames, const pair *p,
                                      float *lowest)
{
    const int n = tdn_skeleton_joint_count(s->skel);
    unsigned char *planted = calloc((size_t)frames * 2, 1);
    tdn_vec3 *ankles = malloc(sizeof(tdn_vec3) * (size_t)frames * 2);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)n);
    tdn_pose pose;
    if (!CHECK(planted && ankles && model) || !CHECK(tdn_pose_create(n, &pose, NULL, NULL) == TDN_OK)) {
        free(ankles);
        free(model);
        return planted;
    }
    lowest[0] = lowest[1] = 1e30f;
    for (int f = 0; f < frames; f++) {
        tdn_keyed_clip_sample(clip, (float)(f + p->first) / p->rate, &pose, NULL, NULL);
        tdn_model_space(s->skel, &pose, NULL, model, NULL);
        for (int k = 0; k < 2; k++) {
            ankles[f * 2 + k] = position(model, part(&s->map, feet[k]));
            lowest[k] = fminf(lowest[k], ankles[f * 2 + k].y);
        }
    }
    for (int f = 0; f < frames && frames > 1; f++)
        for (int k = 0; k < 2; k++) {
            const int g = f > 0 ? f - 1 : 1;
            const double speed = tdn_vec3_length(tdn_vec3_sub(ankles[f * 2 + k], ankles[g * 2 + k])) * p->rate;
            planted[f * 2 + k] = ankles[f * 2 + k].y <= lowest[k] + 0.02f * p->meter && speed < 0.15 * p->meter;
        }
    tdn_pose_destroy(&pose);
    free(ankles);
    free(model);
    return planted;
}

/* The largest change of a mapped joint's local rotation between two poses, in degrees. */
static double largest_turn(const tdn_body_map *map, const tdn_pose *a, const tdn_pose *b)
{
    double most = 0.0;
    for (int p = 0; p < TDN_BODY_PART_COUNT; p++)
        for (int i = 0; i < map->parts[p].joint_count; i++) {
            const int j = map->parts[p].joints[i];
            const double d = fabs(
                tdn_quat_dot(tdn_quat_normalize(rotation_of(a, j)), tdn_quat_normalize(rotation_of(b, j))));
            most = fmax(most, 2.0 * acos(d > 1.0 ? 1.0 : d) * DEG);
        }
    return most;
}

/* What one run over a take measures on the target. */
typedef struct run_figures {
    double source_travel, target_travel;
    double source_pop, target_pop;              /* degrees per frame, the largest */
    double slide_mean, slide_max, height_error; /* cm/s and cm in the source's scale, during contacts */
    int contact_frames;
} run_figures;

/* The limb-direction metric (without contacts), the root path, the pops and the contacts (with
 * and without the fix-up) over every frame of the source's first clip. */
static void check_pair(const char *dir, const pair *p)
{
    character s, t;
    if (!load_character(dir, p->source, &s))
        return;
    if (!load_character(dir, p->target, &t)) {
        tdn_asset_destroy(s.asset);
        return;
    }
    const char *source_name = p->source ? p->source : "humanoid", *target_name = p->target ? p->target : "humanoid";
    const int ns = tdn_skeleton_joint_count(s.skel), nt = tdn_skeleton_joint_count(t.skel);
    const tdn_keyed_clip *clip = tdn_asset_clip(s.asset, 0);
    const int frames = clip ? (int)floorf(tdn_keyed_clip_duration(clip) * p->rate + 0.5f) + 1 - p->first : 0;
    float lowest[2] = { 0.0f };
    unsigned char *planted = clip ? source_contacts(&s, clip, frames, p, lowest) : NULL;
    /* the contacts the fix-up keeps are the metric's (the take's lowest ankles, 2 cm, 15 cm/s) */
    tdn_retarget_desc desc = {
        .source = { .skeleton = s.skel, .map = &s.map },
        .target = { .skeleton = t.skel, .map = &t.map },
        .contacts = { .height = 0.02f * p->meter, .speed = 0.15f * p->meter, .floor = { lowest[0], lowest[1] } }
    };
    tdn_retarget *rt = NULL;
    tdn_retarget_state state;
    tdn_retarget_state_reset(&state);
    tdn_error err = { 0 };
    tdn_pose sp, tp, tc, last_sp, last_tp, last_tc; /* source, target, target with contacts; their last frames */
    tdn_mat4 *sm = malloc(sizeof(tdn_mat4) * (size_t)ns), *tm = malloc(sizeof(tdn_mat4) * (size_t)nt);
    tdn_mat4 *cm = malloc(sizeof(tdn_mat4) * (size_t)nt);
    double *angles = malloc(sizeof(double) * (size_t)(frames * LIMB_COUNT + 1)); /* per limb, per frame */
    int counts[LIMB_COUNT] = { 0 };
    run_figures fig = { 0 };
    if (CHECK(clip && planted && sm && tm && cm && angles) &&
        CHECK(tdn_retarget_create(&desc, &rt, &counting, &err) == TDN_OK) &&
        CHECK(tdn_pose_create(ns, &sp, NULL, NULL) == TDN_OK) &&
        CHECK(tdn_pose_create(ns, &last_sp, NULL, NULL) == TDN_OK) &&
        CHECK(tdn_pose_create(nt, &tp, NULL, NULL) == TDN_OK) &&
        CHECK(tdn_pose_create(nt, &last_tp, NULL, NULL) == TDN_OK) &&
        CHECK(tdn_pose_create(nt, &tc, NULL, NULL) == TDN_OK) &&
        CHECK(tdn_pose_create(nt, &last_tc, NULL, NULL) == TDN_OK)) {
        const double scale = tdn_retarget_scale(rt), cm_per_unit = 100.0 / p->meter;
        double contact_pop = 0.0, slide_sum = 0.0;
        int slides = 0;
        tdn_vec3 last_s = { 0 }, last_t = { 0 }, last_ankle[2] = { { 0 } };
        float rest_ankle[2];
        {
            tdn_pose rest;
            tdn_pose_create(nt, &rest, NULL, NULL);
            tdn_pose_set_rest(&rest, t.skel, NULL);
            tdn_model_space(t.skel, &rest, NULL, tm, NULL);
            for (int k = 0; k < 2; k++)
                rest_ankle[k] = position(tm, part(&t.map, feet[k])).y;
            tdn_pose_destroy(&rest);
        }
        const long allocations = total_allocations;
        for (int f = 0; f < frames; f++) {
            tdn_keyed_clip_sample(clip, (float)(f + p->first) / p->rate, &sp, NULL, NULL);
            if (!CHECK(tdn_retarget_pose(rt, &sp, &tp, &err) == TDN_OK))
                break;
            tdn_pose_copy(&tc, &tp, NULL);
            if (!CHECK(tdn_retarget_contacts(rt, &state, &sp, NULL, NULL, f > 0 ? 1.0f / p->rate : 0.0f, &tc, &err) ==
                       TDN_OK))
                break;
            tdn_model_space(s.skel, &sp, NULL, sm, NULL);
            tdn_model_space(t.skel, &tp, NULL, tm, NULL);
            tdn_model_space(t.skel, &tc, NULL, cm, NULL);
            /* each character's facing frame: right, up, forward */
            tdn_vec3 fs = forward_of(&s.map, sm), ft = forward_of(&t.map, tm), up = tdn_vec3_make(0.0f, 1.0f, 0.0f);
            tdn_vec3 rs = tdn_vec3_cross(fs, up), rt_ = tdn_vec3_cross(ft, up);
            for (int k = 0; k < LIMB_COUNT; k++) {
                int sa, sb, ta, tb;
                if (!limb_ends(&s, k, &sa, &sb) || !limb_ends(&t, k, &ta, &tb))
                    continue;
                tdn_vec3 ds = tdn_vec3_sub(position(sm, sb), position(sm, sa));
                tdn_vec3 dt = tdn_vec3_sub(position(tm, tb), position(tm, ta));
                tdn_vec3 ls = tdn_vec3_make(tdn_vec3_dot(ds, rs), ds.y, tdn_vec3_dot(ds, fs));
                tdn_vec3 lt = tdn_vec3_make(tdn_vec3_dot(dt, rt_), dt.y, tdn_vec3_dot(dt, ft));
                angles[k * frames + counts[k]++] = angle_deg(ls, lt);
            }
            tdn_vec3 hs = position(sm, part(&s.map, TDN_BODY_PART_HIPS)),
                     ht = position(tm, part(&t.map, TDN_BODY_PART_HIPS));
            for (int k = 0; k < 2; k++) {
                const tdn_vec3 ankle = position(cm, part(&t.map, feet[k]));
                if (planted[f * 2 + k]) {
                    fig.contact_frames++;
                    fig.height_error = fmax(fig.height_error, fabs(ankle.y - rest_ankle[k]) / scale * cm_per_unit);
                }
                if (f > 0 && planted[f * 2 + k] && planted[(f - 1) * 2 + k]) {
                    const double slide = hypot(ankle.x - last_ankle[k].x, ankle.z - last_ankle[k].z) * p->rate / scale *
                                         cm_per_unit;
                    fig.slide_max = fmax(fig.slide_max, slide);
                    slide_sum += slide, slides++;
                }
                last_ankle[k] = ankle;
            }
            if (f > 0) {
                fig.source_travel += hypot(hs.x - last_s.x, hs.z - last_s.z);
                fig.target_travel += hypot(ht.x - last_t.x, ht.z - last_t.z);
                fig.source_pop = fmax(fig.source_pop, largest_turn(&s.map, &sp, &last_sp));
                fig.target_pop = fmax(fig.target_pop, largest_turn(&t.map, &tp, &last_tp));
                contact_pop = fmax(contact_pop, largest_turn(&t.map, &tc, &last_tc));
            }
            last_s = hs, last_t = ht;
            tdn_pose_copy(&last_sp, &sp, NULL);
            tdn_pose_copy(&last_tp, &tp, NULL);
            tdn_pose_copy(&last_tc, &tc, NULL);
        }
        CHECK_EQ_INT(total_allocations, allocations); /* retargeting a pose, contacts and all, allocates nothing */
        fig.slide_mean = slides ? slide_sum / slides : 0.0;
        const double travel = fig.source_travel * scale;
        const double path_error = travel > 0.0 ? 100.0 * fabs(fig.target_travel - travel) / travel : 0.0;
        printf("%s -> %s: %d frames, scale %.5f, hips travel %.4f vs the source's x scale %.4f (%.3f%%)\n", source_name,
               target_name, frames, scale, fig.target_travel, travel, path_error);
        printf("  pops: source %.2f, target %.2f (%.3fx), with contacts %.2f (%.3fx) degrees per frame\n",
               fig.source_pop, fig.target_pop, fig.target_pop / fig.source_pop, contact_pop,
               contact_pop / fig.source_pop);
        printf("  contacts: %d foot-frames, slide mean %.3f max %.3f cm/s, ankle height within %.3f cm\n",
               fig.contact_frames, fig.slide_mean, fig.slide_max, fig.height_error);
        for (int k = 0; k < LIMB_COUNT; k++) {
            double *a = angles + k * frames;
            if (counts[k] == 0)
                continue;
            qsort(a, (size_t)counts[k], sizeof *a, compare_doubles);
            const double median = a[counts[k] / 2], p99 = a[(int)(0.99 * (counts[k] - 1))], max = a[counts[k] - 1];
            printf("  %-16s median %.3f, p99 %.3f, max %.3f degrees\n",
                   k == LIMB_COUNT - 1 ? "spine" : tdn_body_part_name(limbs[k].from), median, p99, max);
            CHECK(median <= 3.0);
            CHECK(p99 <= 10.0);
        }
        CHECK_EQ_INT(counts[0], frames); /* every frame measured (thighs present on both) */
        CHECK_EQ_INT(counts[LIMB_COUNT - 1], frames);
        CHECK(fabs(fig.target_travel - travel) <= 0.02 * travel + 1e-4); /* a take in place: no travel */
        CHECK(fig.target_pop <= 1.2 * fig.source_pop);
        CHECK(contact_pop <= 1.2 * fig.source_pop);
        CHECK(fig.slide_max <= 1.0);
        CHECK(fig.height_error <= 1.0);
        tdn_pose_destroy(&sp), tdn_pose_destroy(&last_sp);
        tdn_pose_destroy(&tp), tdn_pose_destroy(&last_tp);
        tdn_pose_destroy(&tc), tdn_pose_destroy(&last_tc);
    } else if (err.code != TDN_OK)
        fprintf(stderr, "%s: %s: %s\n", source_name, err.where, err.message);
    tdn_retarget_destroy(rt);
    CHECK_EQ_INT(live_blocks, 0);
    free(planted);
    free(sm);
    free(tm);
    free(cm);
    free(angles);
    tdn_asset_destroy(s.asset);
    tdn_asset_destroy(t.asset);
}

static void real_pairs(void)
{
    const char *dir = test_data_dir();
    if (!dir)
        return;
    /* CMU's unit is 1/0.45 inch (5.644 cm); LAFAN1's the centimetre; the others' the metre */
    static const pair pairs[] = {
        { "bvh/games105/walk_forward.bvh", NULL, 100.0f, 1.0f, 0 },
        { "bvh/lafan1/walk4_subject1.bvh", "gltf/threejs/Soldier.glb", 30.0f, 100.0f, 0 },
        { "bvh/lafan1/walk4_subject1.bvh", "gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb", 30.0f, 100.0f, 0 },
        { "bvh/lafan1/walk4_subject1.bvh", "gltf/threejs/RobotExpressive/RobotExpressive.glb", 30.0f, 100.0f, 0 },
        { "bvh/cmu/cgspeed-mb/walk.bvh", "gltf/threejs/Soldier.glb", 120.0f, 17.7165f, 1 },
        { "bvh/cmu/cgspeed-mb/walk.bvh", "gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb", 120.0f, 17.7165f, 1 },
        { "bvh/cmu/cgspeed-mb/walk.bvh", "gltf/threejs/RobotExpressive/RobotExpressive.glb", 120.0f, 17.7165f, 1 },
        { "gltf/khronos/RiggedFigure/glTF-Binary/RiggedFigure.glb", "gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb",
          30.0f, 1.0f, 0 },
        { "gltf/threejs/Soldier.glb", "gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb", 30.0f, 1.0f, 0 },
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
        check_pair(dir, &pairs[k]);
}

/* A planted hand, hands on: the humanoid onto itself at a scale of 1.2, the source's hips moving
 * 5 cm along +X over 11 frames while a two-bone solve holds its left hand at one point, low and
 * in front. The
 * target's hips move 1.2 times as far with the same arm rotations, so without the fix-up its
 * hand slides 1 cm (0.2 x 5 cm); with it the hand stays within 0.1 mm of where it landed, at
 * the source's planted height (the hand's, still) times the scale. */
static void planted_hand(void)
{
    character h;
    if (!load_character(NULL, NULL, &h))
        return;
    const int n = tdn_skeleton_joint_count(h.skel);
    const int hips = part(&h.map, TDN_BODY_PART_HIPS), hand = part(&h.map, TDN_BODY_PART_LEFT_HAND);
    const int upper = part(&h.map, TDN_BODY_PART_LEFT_UPPER_ARM), fore = part(&h.map, TDN_BODY_PART_LEFT_FOREARM);
    tdn_retarget_desc desc = { .source = { .skeleton = h.skel, .map = &h.map },
                               .target = { .skeleton = h.skel, .map = &h.map },
                               .scale = 1.2f,
                               .contacts = { .hands = 1 } };
    tdn_retarget *rt = NULL;
    tdn_pose source, free_target, held_target;
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)n);
    if (!CHECK(model && tdn_retarget_create(&desc, &rt, NULL, NULL) == TDN_OK) ||
        !CHECK(tdn_pose_create(n, &source, NULL, NULL) == TDN_OK &&
               tdn_pose_create(n, &free_target, NULL, NULL) == TDN_OK &&
               tdn_pose_create(n, &held_target, NULL, NULL) == TDN_OK)) {
        free(model);
        tdn_retarget_destroy(rt);
        tdn_asset_destroy(h.asset);
        return;
    }
    tdn_retarget_state state;
    tdn_retarget_state_reset(&state);
    tdn_pose_set_rest(&source, h.skel, NULL);
    tdn_model_space(h.skel, &source, NULL, model, NULL);
    /* the hand low, in front, the elbow bent (so that the target's arm has room) */
    const tdn_vec3 shoulder = position(model, upper);
    const tdn_vec3 source_hand = tdn_vec3_make(shoulder.x + 0.1f, position(model, hips).y + 0.15f, shoulder.z + 0.15f);
    tdn_vec3 first_free = { 0 }, first_held = { 0 };
    double free_slide = 0.0, held_slide = 0.0, source_slide = 0.0, held_height = 0.0;
    for (int f = 0; f <= 10; f++) {
        tdn_pose_set_rest(&source, h.skel, NULL);
        tdn_transform x = tdn_pose_get(&source, hips);
        x.t.x += 0.005f * (float)f;
        tdn_pose_set(&source, hips, &x);
        tdn_model_space(h.skel, &source, NULL, model, NULL);
        /* the source's hand held there, its elbow bending back */
        const tdn_ik_two_bone_job ik = { .upper = upper,
                                         .middle = fore,
                                         .end = hand,
                                         .target = source_hand,
                                         .pole = tdn_vec3_add(position(model, fore), tdn_vec3_make(0, 0, -0.3f)),
                                         .use_pole = 1,
                                         .weight = 1.0f };
        CHECK(tdn_ik_two_bone(h.skel, &ik, &source, model, NULL, NULL) == TDN_OK);
        source_slide = fmax(source_slide, tdn_vec3_length(tdn_vec3_sub(position(model, hand), source_hand)));
        CHECK(tdn_retarget_pose(rt, &source, &free_target, NULL) == TDN_OK);
        tdn_pose_copy(&held_target, &free_target, NULL);
        CHECK(tdn_retarget_contacts(rt, &state, &source, NULL, NULL, f > 0 ? 1.0f / 30.0f : 0.0f, &held_target, NULL) ==
              TDN_OK);
        CHECK(state.limbs[TDN_RETARGET_LEFT_HAND].planted == 1);
        tdn_model_space(h.skel, &free_target, NULL, model, NULL);
        const tdn_vec3 free_hand = position(model, hand);
        tdn_model_space(h.skel, &held_target, NULL, model, NULL);
        const tdn_vec3 held_hand = position(model, hand);
        if (f == 0)
            first_free = free_hand, first_held = held_hand;
        free_slide = fmax(free_slide, hypot(free_hand.x - first_free.x, free_hand.z - first_free.z));
        held_slide = fmax(held_slide, hypot(held_hand.x - first_held.x, held_hand.z - first_held.z));
        /* held at the source's planted height (its lowest, this one) times the scale */
        held_height = fmax(held_height, fabs(held_hand.y - 1.2 * source_hand.y));
    }
    printf("planted hand: the source's moved %.2g m, the target's slid %.4f m without the fix-up, %.2g m with it "
           "(height within %.2g m)\n",
           source_slide, free_slide, held_slide, held_height);
    CHECK(source_slide <= 1e-4);
    CHECK_NEAR(free_slide, 0.2 * 0.05, 1e-3);
    CHECK(held_slide <= 1e-4);
    CHECK(held_height <= 1e-4);
    tdn_pose_destroy(&source);
    tdn_pose_destroy(&free_target);
    tdn_pose_destroy(&held_target);
    free(model);
    tdn_retarget_destroy(rt);
    tdn_asset_destroy(h.asset);
}

/* Bad arguments are refused naming the argument or field. */
static void refusals(void)
{
    character h;
    if (!load_character(NULL, NULL, &h))
        return;
    tdn_retarget *rt = (tdn_retarget *)&h;
    tdn_error err = { 0 };
    tdn_retarget_desc desc = { .source = { .skeleton = h.skel, .map = &h.map },
                               .target = { .skeleton = h.skel, .map = NULL } };
    CHECK(tdn_retarget_create(&desc, &rt, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(rt == NULL);
    CHECK(strcmp(err.where, "desc.target.map") == 0);
    desc.target.map = &h.map;
    desc.scale = -1.0f;
    CHECK(tdn_retarget_create(&desc, &rt, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "desc.scale") == 0);
    desc.scale = 2.0f;
    tdn_pose small, big;
    tdn_pose_create(3, &small, NULL, NULL);
    tdn_pose_create(tdn_skeleton_joint_count(h.skel), &big, NULL, NULL);
    if (CHECK(tdn_retarget_create(&desc, &rt, NULL, NULL) == TDN_OK)) {
        CHECK_NEAR(tdn_retarget_scale(rt), 2.0, 0.0);
        CHECK(tdn_retarget_pose(rt, &small, &big, &err) == TDN_ERR_ARGUMENT);
        CHECK(strcmp(err.where, "source_pose") == 0);
        CHECK(tdn_retarget_pose(rt, &big, &small, &err) == TDN_ERR_ARGUMENT);
        CHECK(strcmp(err.where, "target_pose") == 0);
    }
    tdn_retarget_state state;
    tdn_retarget_state_reset(&state);
    tdn_retarget_state_reset(NULL);
    CHECK(state.floor[0] > 1e30f && state.limbs[0].weight == 0.0f); /* nothing seen, nothing held */
    if (rt) {
        CHECK(tdn_retarget_contacts(rt, NULL, &big, NULL, NULL, 0.0f, &big, &err) == TDN_ERR_ARGUMENT);
        CHECK(strcmp(err.where, "state") == 0);
        CHECK(tdn_retarget_contacts(rt, &state, &big, NULL, NULL, -1.0f, &big, &err) == TDN_ERR_ARGUMENT);
        CHECK(strcmp(err.where, "dt") == 0);
        CHECK(tdn_retarget_contacts(rt, &state, &big, NULL, NULL, NAN, &big, &err) == TDN_ERR_ARGUMENT);
        CHECK(tdn_retarget_contacts(rt, &state, &big, NULL, NULL, 0.0f, &small, &err) == TDN_ERR_ARGUMENT);
        CHECK(strcmp(err.where, "target_pose") == 0);
    }
    tdn_retarget *none = NULL;
    desc.contacts.floor[1] = -0.1f;
    CHECK(tdn_retarget_create(&desc, &none, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "desc.contacts.floor[1]") == 0 && none == NULL);
    desc.contacts.floor[1] = 0.0f;
    desc.target.ground = INFINITY;
    CHECK(tdn_retarget_create(&desc, &none, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "desc.target.ground") == 0 && none == NULL);
    CHECK(tdn_retarget_reference_pose(h.skel, &h.map, NULL, &small, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "out") == 0);
    CHECK(tdn_retarget_scale(NULL) == 0.0f);
    CHECK(tdn_retarget_contact_settings(NULL).height == 0.0f && tdn_retarget_contact_settings(NULL).blend == 0.0f);
    {
        /* the defaults: 2.5% and 18.75% a second of the leg (hip to knee to ankle at rest), 0.1 s */
        const int n = tdn_skeleton_joint_count(h.skel);
        tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)n);
        tdn_pose rest;
        tdn_retarget *plain = NULL;
        const tdn_retarget_desc defaults = { .source = { .skeleton = h.skel, .map = &h.map },
                                             .target = { .skeleton = h.skel, .map = &h.map },
                                             .contacts = { .floor = { 0.05f, 0.06f } } };
        if (CHECK(model != NULL) && CHECK(tdn_pose_create(n, &rest, NULL, NULL) == TDN_OK)) {
            tdn_pose_set_rest(&rest, h.skel, NULL);
            tdn_model_space(h.skel, &rest, NULL, model, NULL);
            double leg = 0.0;
            for (int side = 0; side < 2; side++) {
                const tdn_body_part thigh = side ? TDN_BODY_PART_RIGHT_THIGH : TDN_BODY_PART_LEFT_THIGH;
                for (int k = 0; k < 2; k++)
                    leg += 0.5 *
                           tdn_vec3_length(tdn_vec3_sub(position(model, part(&h.map, (tdn_body_part)(thigh + k + 1))),
                                                        position(model, part(&h.map, (tdn_body_part)(thigh + k)))));
            }
            if (CHECK(tdn_retarget_create(&defaults, &plain, NULL, NULL) == TDN_OK)) {
                const tdn_retarget_contact_desc c = tdn_retarget_contact_settings(plain);
                CHECK_NEAR(c.height, 0.025 * leg, 1e-6);
                CHECK_NEAR(c.speed, 0.1875 * leg, 1e-6);
                CHECK(c.blend == 0.1f);
                CHECK(c.floor[0] == 0.05f && c.floor[1] == 0.06f && c.hands == 0);
            }
            tdn_retarget_destroy(plain);
            tdn_pose_destroy(&rest);
        }
        free(model);
    }
    tdn_retarget_destroy(NULL);
    tdn_retarget_destroy(rt);
    tdn_pose_destroy(&small);
    tdn_pose_destroy(&big);
    tdn_asset_destroy(h.asset);
}

int main(void)
{
    RUN(reference_poses);
    RUN(identity_and_renames);
    RUN(real_pairs);
    RUN(planted_hand);
    RUN(refusals);
    return check_summary();
}
