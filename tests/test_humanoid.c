/* The generated humanoid (tdn_humanoid_create): skeleton layout, mirror symmetry and scaling
 * checked against offsets summed here in double precision; every clip sampled through the
 * public keyed-clip API and model space, and its promises measured: loop, root displacement
 * and turn angle against speed x cycle, feet still while in contact (foot skate, reported in
 * mm per sample and cm/s as in docs/metrics.md), at ground height, events on contact
 * onsets, alternating feet, flight and double support, bone lengths kept, knees forward,
 * left/right mirror images half a cycle apart; the upper-body clips (actions and hit reactions
 * start and end at the idle pose, aim and hand poses move only their joints, each does what its
 * name says in model space); bad descriptions and failing allocations. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "humanoid_sampler.h"

#define PI 3.14159265358979323846

static int joint(const tdn_asset *asset, const char *name)
{
    int j = tdn_skeleton_find_joint(tdn_asset_skeleton(asset), name);
    if (!CHECK(j >= 0))
        fprintf(stderr, "  no joint '%s'\n", name);
    return j;
}

static double dist(tdn_vec3 a, tdn_vec3 b)
{
    double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* Rest model-space positions by summing offsets along the parent chain in double precision
 * (rest rotations are identity, which test_skeleton_layout checks). */
static void rest_positions(const tdn_skeleton *skel, double (*p)[3])
{
    for (int j = 0; j < tdn_skeleton_joint_count(skel); j++) {
        tdn_transform r = tdn_skeleton_rest(skel, j);
        int parent = tdn_skeleton_parent(skel, j);
        p[j][0] = (parent >= 0 ? p[parent][0] : 0.0) + r.t.x;
        p[j][1] = (parent >= 0 ? p[parent][1] : 0.0) + r.t.y;
        p[j][2] = (parent >= 0 ? p[parent][2] : 0.0) + r.t.z;
    }
}

/* The name with _l and _r swapped, or the name itself. */
static void mirror_name(const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s", name);
    size_t n = strlen(out);
    if (n > 2 && out[n - 2] == '_' && (out[n - 1] == 'l' || out[n - 1] == 'r'))
        out[n - 1] = out[n - 1] == 'l' ? 'r' : 'l';
}

static void test_skeleton_layout(void)
{
    tdn_asset *asset = create_ok(NULL);
    if (!asset)
        return;
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    const int n = tdn_skeleton_joint_count(skel);
    CHECK_EQ_INT(n, 67);
    CHECK_EQ_INT(tdn_asset_format_of(asset), TDN_FORMAT_GENERATED);
    CHECK_EQ_INT(tdn_asset_joint_count(asset), 67);
    CHECK_EQ_INT(tdn_asset_skin_count(asset), 1); /* the body: test_humanoid_mesh.c */
    CHECK_EQ_INT(tdn_asset_mesh_count(asset), 1);
    CHECK_EQ_INT(tdn_asset_chosen_skin(asset), 0);
    CHECK_EQ_INT(tdn_asset_clip_count(asset), 8 + 18 + 1); /* the jump: test_humanoid_jump.c */
    for (int i = 0; i < tdn_asset_joint_count(asset); i++) {
        CHECK_EQ_INT(tdn_asset_joint(asset, i), i);
        CHECK_EQ_INT(tdn_asset_joint_parent(asset, i), tdn_skeleton_parent(skel, i));
    }
    CHECK(strcmp(tdn_skeleton_joint_name(skel, 0), "root") == 0);
    CHECK(strcmp(tdn_skeleton_joint_name(skel, 1), "pelvis") == 0);
    CHECK_EQ_INT(tdn_skeleton_parent(skel, 0), -1);
    CHECK_EQ_INT(tdn_skeleton_parent(skel, 1), 0);
    int roots = 0, sided = 0;
    for (int j = 0; j < n; j++) {
        int p = tdn_skeleton_parent(skel, j);
        roots += p < 0;
        CHECK(p < j);
        for (int k = 0; k < j; k++)
            CHECK(strcmp(tdn_skeleton_joint_name(skel, j), tdn_skeleton_joint_name(skel, k)) != 0);
        tdn_transform r = tdn_skeleton_rest(skel, j);
        CHECK(r.r.x == 0.0f && r.r.y == 0.0f && r.r.z == 0.0f && r.r.w == 1.0f);
        CHECK(r.s.x == 1.0f && r.s.y == 1.0f && r.s.z == 1.0f);
        char m[64];
        mirror_name(tdn_skeleton_joint_name(skel, j), m, sizeof m);
        sided += strcmp(m, tdn_skeleton_joint_name(skel, j)) != 0;
    }
    CHECK_EQ_INT(roots, 1);
    CHECK_EQ_INT(sided, 2 + 2 * 23 + 2 * 4); /* eyes, arms, legs */
    /* The named parts of the brief and the benchmarks. */
    const char *required[] = { "spine_01",   "spine_05",   "neck_01",    "neck_02", "head",       "jaw",
                               "clavicle_l", "upperarm_l", "lowerarm_r", "hand_r",  "thumb_03_l", "index_metacarpal_l",
                               "pinky_03_r", "thigh_l",    "calf_r",     "foot_l",  "foot_r",     "toe_l",
                               "toe_r" };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        joint(asset, required[i]);
    CHECK_EQ_INT(tdn_skeleton_parent(skel, joint(asset, "toe_l")), joint(asset, "foot_l"));
    CHECK_EQ_INT(tdn_skeleton_parent(skel, joint(asset, "foot_l")), joint(asset, "calf_l"));
    CHECK_EQ_INT(tdn_skeleton_parent(skel, joint(asset, "calf_l")), joint(asset, "thigh_l"));
    CHECK_EQ_INT(tdn_skeleton_parent(skel, joint(asset, "thigh_l")), 1);

    /* Mirror images across x = 0, positions summed here; the parent of a mirror is the
     * mirror of the parent. Left is +X. */
    double p[67][3];
    rest_positions(skel, p);
    for (int j = 0; j < n; j++) {
        char m[64];
        mirror_name(tdn_skeleton_joint_name(skel, j), m, sizeof m);
        int k = tdn_skeleton_find_joint(skel, m);
        if (!CHECK(k >= 0))
            continue;
        CHECK_NEAR(p[j][0], -p[k][0], 1e-6);
        CHECK_NEAR(p[j][1], p[k][1], 1e-6);
        CHECK_NEAR(p[j][2], p[k][2], 1e-6);
        int pj = tdn_skeleton_parent(skel, j), pk = tdn_skeleton_parent(skel, k);
        if (pj >= 0 && CHECK(pk >= 0)) {
            mirror_name(tdn_skeleton_joint_name(skel, pj), m, sizeof m);
            CHECK(strcmp(m, tdn_skeleton_joint_name(skel, pk)) == 0);
        }
        size_t len = strlen(tdn_skeleton_joint_name(skel, j));
        if (tdn_skeleton_joint_name(skel, j)[len - 1] == 'l' && k != j)
            CHECK(p[j][0] > 0.0);
    }
    /* Heights of the benchmarks' S67 at 1.8 m, worked from bench_skeletons.c's offsets. */
    CHECK_NEAR(p[0][1], 0.0, 1e-9);
    CHECK_NEAR(p[1][1], 0.95, 1e-6);
    CHECK_NEAR(p[joint(asset, "head")][1], 0.95 + 0.09 + 0.10 * 3 + 0.08 + 0.10 + 0.05 + 0.06, 1e-5);
    CHECK_NEAR(p[joint(asset, "foot_l")][1], 0.95 - 0.06 - 0.43 - 0.40, 1e-5);
    CHECK_NEAR(p[joint(asset, "toe_l")][1], 0.01, 1e-5);
    CHECK_NEAR(p[joint(asset, "foot_l")][0], 0.09, 1e-6);
    CHECK_NEAR(p[joint(asset, "hand_l")][0], 0.03 + 0.15 + 0.28 + 0.26, 1e-5);
    tdn_asset_destroy(asset);
}

static void test_scaling(void)
{
    tdn_asset *base = create_ok(NULL);
    const float heights[3] = { 0.9f, 1.8f, 2.5f };
    for (int h = 0; h < 3 && base; h++) {
        /* half-size legs need half-speed steps */
        tdn_humanoid_desc desc = { .height = heights[h], .walk_speed = 0.7f, .run_speed = 1.7f };
        tdn_asset *asset = create_ok(&desc);
        if (!asset)
            continue;
        const tdn_skeleton *a = tdn_asset_skeleton(base), *b = tdn_asset_skeleton(asset);
        const double ratio = heights[h] / 1.8;
        for (int j = 0; j < 67; j++) {
            tdn_vec3 ta = tdn_skeleton_rest(a, j).t, tb = tdn_skeleton_rest(b, j).t;
            CHECK_NEAR(dist(tb, tdn_vec3_make(0, 0, 0)), ratio * dist(ta, tdn_vec3_make(0, 0, 0)), 2e-7);
            CHECK(strcmp(tdn_skeleton_joint_name(a, j), tdn_skeleton_joint_name(b, j)) == 0);
        }
        int calf = joint(asset, "calf_l");
        CHECK_NEAR(dist(tdn_skeleton_rest(b, calf).t, tdn_vec3_make(0, 0, 0)), ratio * sqrt(0.43 * 0.43 + 0.01 * 0.01),
                   1e-6);
        tdn_asset_destroy(asset);
    }
    tdn_asset_destroy(base);
}

/* What each clip promises, worked from the description. */
typedef struct clip_spec {
    const char *name;
    double duration;
    double vx, vz; /* m/s */
    double turn;   /* rad/s */
    int steps;     /* 1: locomotion with footfalls */
    double duty;   /* contact fraction */
} clip_spec;

static int specs(const tdn_humanoid_desc *d, clip_spec *out)
{
    const double wv = d->walk_speed ? d->walk_speed : 1.4, wc = d->walk_cycle ? d->walk_cycle : 1.0;
    const double rv = d->run_speed ? d->run_speed : 3.5, rc = d->run_cycle ? d->run_cycle : 0.6;
    const clip_spec all[8] = {
        { "idle", 3.0, 0, 0, 0, 0, 1.0 },          { "walk_forward", wc, 0, wv, 0, 1, 0.6 },
        { "run_forward", rc, 0, rv, 0, 1, 0.35 },  { "walk_backward", wc, 0, -wv, 0, 1, 0.6 },
        { "strafe_left", wc, wv, 0, 0, 1, 0.6 },   { "strafe_right", wc, -wv, 0, 0, 1, 0.6 },
        { "turn_left", wc, 0, 0, PI / 2, 1, 0.6 }, { "turn_right", wc, 0, 0, -PI / 2, 1, 0.6 },
    };
    memcpy(out, all, sizeof all);
    return 8;
}

/* The yaw (rotation about +Y) of a model matrix, from where it sends +Z. */
static double yaw_of(const tdn_mat4 *m) { return atan2(m->m[8], m->m[10]); }

static double wrap_angle(double a)
{
    while (a > PI)
        a -= 2 * PI;
    while (a < -PI)
        a += 2 * PI;
    return a;
}

static double last_key_skate_mm, worst_key_skate_mm, worst_skate_mm, worst_skate_cm_s, worst_height_cm;
static double worst_seam_ratio;

/* At the key times, where the clip holds the generator's exact poses: a foot in contact (at
 * both ends of an interval) moves less than 1 mm, and sits at its rest height. */
static void check_keys(sampler *s, const int *foot, const int *contact, double T, int n, double rest_y)
{
    double worst = 0.0, height = 0.0;
    tdn_vec3 prev[2];
    double prev_c[2] = { -1, -1 };
    for (int i = 0; i <= n; i++) {
        const double t = T * i / n;
        sample(s, t);
        for (int f = 0; f < 2; f++) {
            tdn_vec3 p = pos(s, foot[f]);
            double c = tdn_keyed_clip_sample_float(s->clip, contact[f], (float)t);
            /* a contact that ends at this key still holds the foot here */
            double c_before = i > 0 ? tdn_keyed_clip_sample_float(s->clip, contact[f], (float)(t - 0.5 * T / n)) : 0.0;
            if (c == 1.0 || c_before == 1.0)
                height = fmax(height, fabs(p.y - rest_y));
            if (prev_c[f] == 1.0 && c_before == 1.0)
                worst = fmax(worst, dist(p, prev[f]));
            prev[f] = p;
            prev_c[f] = c;
        }
    }
    worst_key_skate_mm = fmax(worst_key_skate_mm, 1000.0 * worst);
    last_key_skate_mm = 1000.0 * worst;
    CHECK(worst < 1e-3);
    CHECK(height < 1e-3);
}

/* rate: the description's sample rate; skate_bound: the largest foot skate (cm/s,
 * docs/metrics.md) allowed between keys, where interpolating joint rotations lets the foot drift. */
static void check_clip(const tdn_asset *asset, const clip_spec *spec, const char *label, double rate,
                       double skate_bound)
{
    sampler s = sampler_make(asset, spec->name);
    if (!s.clip) {
        sampler_free(&s);
        return;
    }
    const double T = spec->duration;
    CHECK_NEAR(tdn_keyed_clip_duration(s.clip), T, 1e-6);
    CHECK_EQ_INT(tdn_keyed_clip_track_count(s.clip), 20);
    const int foot[2] = { joint(asset, "foot_l"), joint(asset, "foot_r") };
    const int thigh[2] = { joint(asset, "thigh_l"), joint(asset, "thigh_r") };
    const int calf[2] = { joint(asset, "calf_l"), joint(asset, "calf_r") };
    const int contact[2] = { tdn_keyed_clip_find_float_track(s.clip, "contact_l"),
                             tdn_keyed_clip_find_float_track(s.clip, "contact_r") };
    CHECK(contact[0] >= 0 && contact[1] >= 0);
    double rest[67][3];
    rest_positions(s.skel, rest);
    const double rest_foot_y = rest[foot[0]][1];
    const double l_thigh = dist(tdn_skeleton_rest(s.skel, calf[0]).t, tdn_vec3_make(0, 0, 0));
    const double l_calf = dist(tdn_skeleton_rest(s.skel, foot[0]).t, tdn_vec3_make(0, 0, 0));

    /* Root motion: displacement over the cycle and at its middle, turn angle. */
    sample(&s, 0.0);
    tdn_vec3 root0 = pos(&s, 0);
    double yaw0 = yaw_of(&s.model[0]);
    tdn_pose first;
    tdn_pose_create(s.n, &first, NULL, NULL);
    tdn_pose_copy(&first, &s.pose, NULL);
    sample(&s, T);
    tdn_vec3 root1 = pos(&s, 0);
    CHECK_NEAR(root1.x - root0.x, spec->vx * T, 1e-5);
    CHECK_NEAR(root1.y - root0.y, 0.0, 1e-6);
    CHECK_NEAR(root1.z - root0.z, spec->vz * T, 1e-5);
    CHECK_NEAR(wrap_angle(yaw_of(&s.model[0]) - yaw0 - spec->turn * T), 0.0, 1e-5);
    /* The loop: every joint's local transform at T equals the one at 0, the root excepted. */
    for (int j = 1; j < s.n; j++) {
        tdn_transform a = tdn_pose_get(&first, j), b = tdn_pose_get(&s.pose, j);
        CHECK(check_quat_angle(a.r, b.r) < 1e-5);
        CHECK(dist(a.t, b.t) < 1e-6);
    }
    sample(&s, 0.5 * T);
    CHECK_NEAR(pos(&s, 0).x - root0.x, spec->vx * T / 2, 1e-5);
    CHECK_NEAR(pos(&s, 0).z - root0.z, spec->vz * T / 2, 1e-5);
    CHECK_NEAR(wrap_angle(yaw_of(&s.model[0]) - yaw0 - spec->turn * T / 2), 0.0, 1e-5);

    check_keys(&s, foot, contact, T, intervals_of(T, rate), rest_foot_y);

    /* Fine sampling: 8 samples per 1/30 s. */
    const int steps = (int)ceil(T * 240.0);
    double prev_c[2] = { -1, -1 };
    tdn_vec3 prev_p[2];
    int both_down = 0, both_up = 0, onsets[2] = { 0, 0 }, contact_samples[2] = { 0, 0 };
    double skate_max = 0.0, skate_sum[2] = { 0, 0 }, contact_time[2] = { 0, 0 }, height_dev = 0.0;
    double lift_max[2] = { 0, 0 }, max_change_seam = 0.0, max_change_inside = 0.0;
    tdn_pose prev_pose;
    tdn_pose_create(s.n, &prev_pose, NULL, NULL);
    int finite = 1, unit = 1, lengths = 1, knees = 1;
    for (int i = 0; i <= steps; i++) {
        const double t = T * i / steps;
        sample(&s, t);
        /* Every value finite, every rotation unit. */
        for (int j = 0; j < s.n; j++) {
            tdn_transform x = tdn_pose_get(&s.pose, j);
            const float *v = &x.t.x;
            for (int k = 0; k < 10; k++)
                finite &= isfinite(v[k]) != 0;
            unit &= fabs(sqrt((double)x.r.x * x.r.x + (double)x.r.y * x.r.y + (double)x.r.z * x.r.z +
                              (double)x.r.w * x.r.w) -
                         1.0) < 1e-5;
        }
        /* Largest change of any non-root local rotation between samples, at the seam (the last
         * 1/30 s and the first) and inside. */
        if (i > 0) {
            double change = 0.0;
            for (int j = 1; j < s.n; j++)
                change = fmax(change, check_quat_angle(tdn_pose_get(&prev_pose, j).r, tdn_pose_get(&s.pose, j).r));
            if (t > T - 1.0 / 30 || t <= 1.0 / 30)
                max_change_seam = fmax(max_change_seam, change);
            else
                max_change_inside = fmax(max_change_inside, change);
        }
        tdn_pose_copy(&prev_pose, &s.pose, NULL);
        double c[2];
        for (int f = 0; f < 2; f++) {
            c[f] = tdn_keyed_clip_sample_float(s.clip, contact[f], (float)t);
            CHECK(c[f] == 0.0 || c[f] == 1.0);
            tdn_vec3 p = pos(&s, foot[f]);
            /* Bones keep their lengths; knees bend forward (towards the root's heading). */
            lengths &= fabs(dist(pos(&s, thigh[f]), pos(&s, calf[f])) - l_thigh) < 1e-5 &&
                       fabs(dist(pos(&s, calf[f]), p) - l_calf) < 1e-5;
            if (spec->turn == 0.0) {
                tdn_vec3 h = pos(&s, thigh[f]), k = pos(&s, calf[f]);
                /* the knee's offset from the hip-ankle line, along +Z */
                double u = ((double)(k.y - h.y)) / (double)(p.y - h.y);
                knees &= (double)k.z - (h.z + u * (p.z - h.z)) > -1e-4;
            }
            if (c[f] == 1.0) {
                contact_samples[f]++;
                height_dev = fmax(height_dev, fabs(p.y - rest_foot_y));
                if (prev_c[f] == 1.0) {
                    double d = dist(p, prev_p[f]);
                    skate_max = fmax(skate_max, d);
                    skate_sum[f] += sqrt(((double)p.x - prev_p[f].x) * ((double)p.x - prev_p[f].x) +
                                         ((double)p.z - prev_p[f].z) * ((double)p.z - prev_p[f].z));
                    contact_time[f] += T / steps;
                }
            } else {
                lift_max[f] = fmax(lift_max[f], p.y - rest_foot_y);
            }
            if (prev_c[f] == 0.0 && c[f] == 1.0)
                onsets[f]++;
            prev_c[f] = c[f];
            prev_p[f] = p;
        }
        both_down += c[0] == 1.0 && c[1] == 1.0;
        both_up += c[0] == 0.0 && c[1] == 0.0;
    }
    CHECK(finite);
    CHECK(unit);
    CHECK(lengths);
    CHECK(knees);
    /* No pop where the loop closes: changes there no larger than inside (plus a little). */
    if (spec->steps) {
        const double ratio = max_change_seam / max_change_inside;
        worst_seam_ratio = fmax(worst_seam_ratio, ratio);
        CHECK(ratio < 1.2);
    }
    /* Between keys: the mean horizontal speed of a foot in contact, and its height. */
    const double cm_s = 100.0 * (skate_sum[0] + skate_sum[1]) / (contact_time[0] + contact_time[1]);
    printf("%-6s %-14s skate at keys %.5f mm/interval; between keys %.4f mm/sample, mean %.4f cm/s, ankle height off "
           "by %.4f mm; swing lift %.1f cm\n",
           label, spec->name, last_key_skate_mm, 1000.0 * skate_max, cm_s, 1000.0 * height_dev,
           100.0 * fmin(lift_max[0], lift_max[1]));
    worst_skate_mm = fmax(worst_skate_mm, 1000.0 * skate_max);
    worst_skate_cm_s = fmax(worst_skate_cm_s, cm_s);
    worst_height_cm = fmax(worst_height_cm, 100.0 * height_dev);
    CHECK(cm_s < skate_bound);
    CHECK(height_dev < 0.01);

    const int events = tdn_keyed_clip_event_count(s.clip);
    if (!spec->steps) {
        CHECK_EQ_INT(events, 0);
        CHECK_EQ_INT(contact_samples[0], steps + 1);
        CHECK_EQ_INT(contact_samples[1], steps + 1);
    } else {
        /* The duty factor, to within a key interval (1/30 s). */
        for (int f = 0; f < 2; f++) {
            CHECK_NEAR((double)contact_samples[f] / (steps + 1), spec->duty, 1.0 / (30 * T) + 0.01);
            CHECK(lift_max[f] > 0.03 * (tdn_skeleton_rest(s.skel, 1).t.y / 0.95)); /* swing clears the ground */
        }
        if (spec->duty < 0.5) {
            CHECK(both_up > 0);
            CHECK_EQ_INT(both_down, 0);
        } else {
            CHECK(both_down > 0);
            CHECK_EQ_INT(both_up, 0);
        }
        /* One footfall per foot per cycle (the left one at the loop's seam), each an onset of
         * its contact curve, half a cycle apart. */
        CHECK_EQ_INT(events, 2);
        CHECK_EQ_INT(onsets[0], 1); /* the left one at T, which is 0 again */
        CHECK_EQ_INT(onsets[1], 1);
        const float *times = tdn_keyed_clip_event_times(s.clip);
        double when[2] = { -1, -1 };
        for (int e = 0; e < events; e++) {
            const char *name = tdn_keyed_clip_event_name(s.clip, e);
            int f = strcmp(name, "foot_down_l") == 0 ? 0 : strcmp(name, "foot_down_r") == 0 ? 1 : -1;
            if (!CHECK(f >= 0))
                continue;
            when[f] = times[e];
            const double before = fmod(times[e] - 1e-3 + T, T);
            CHECK_EQ_INT((int)tdn_keyed_clip_sample_float(s.clip, contact[f], times[e]), 1);
            CHECK_EQ_INT((int)tdn_keyed_clip_sample_float(s.clip, contact[f], (float)before), 0);
        }
        CHECK_NEAR(fabs(when[1] - when[0]), T / 2, 1e-6);
    }
    tdn_pose_destroy(&prev_pose);
    tdn_pose_destroy(&first);
    sampler_free(&s);
}

static void check_all_clips(const tdn_humanoid_desc *desc, const char *label, double walk_skate, double run_skate)
{
    tdn_asset *asset = create_ok(desc);
    if (!asset)
        return;
    clip_spec all[8];
    int n = specs(desc, all);
    for (int c = 0; c < n; c++) {
        CHECK(strcmp(tdn_keyed_clip_name(tdn_asset_clip(asset, c)), all[c].name) == 0);
        CHECK_EQ_INT(tdn_asset_clip_channel_count(asset, c), 20);
        check_clip(asset, &all[c], label, desc->sample_rate ? desc->sample_rate : 30.0,
                   strcmp(all[c].name, "run_forward") == 0 ? run_skate : walk_skate);
    }
    tdn_asset_destroy(asset);
}

static void test_clips_default(void)
{
    tdn_humanoid_desc desc = { 0 };
    check_all_clips(&desc, "1.8m", 1.0, 6.0);
}

static void test_clips_dense(void)
{
    /* Skate between keys is interpolation error: positions are off by the square of the key
     * interval, so the drift speed goes with the interval: 4x the keys, 1/4 of the skate
     * (measured 0.58 -> 0.15 cm/s walking, 4.9 -> 1.2 running). */
    tdn_humanoid_desc desc = { .sample_rate = 120.0f };
    check_all_clips(&desc, "120/s", 0.25, 1.5);
}

static void test_clips_varied(void)
{
    /* A short character, slower cycles, an odd sample rate. */
    tdn_humanoid_desc desc = { .height = 1.2f,
                               .walk_speed = 0.9f,
                               .walk_cycle = 1.3f,
                               .run_speed = 2.5f,
                               .run_cycle = 0.7f,
                               .sample_rate = 47.0f };
    check_all_clips(&desc, "1.2m", 1.0, 3.0);
}

/* Left/right mirror images half a cycle apart: joint positions in the root's frame of
 * clip `b` at t + T/2 equal those of clip `a` at t mirrored across x = 0 (names swapped). */
static void check_mirror(const tdn_asset *asset, const char *a_name, const char *b_name)
{
    sampler a = sampler_make(asset, a_name), b = sampler_make(asset, b_name);
    const double T = tdn_keyed_clip_duration(a.clip);
    int mirror[67];
    for (int j = 0; j < a.n; j++) {
        char m[64];
        mirror_name(tdn_skeleton_joint_name(a.skel, j), m, sizeof m);
        mirror[j] = tdn_skeleton_find_joint(a.skel, m);
    }
    double worst = 0.0;
    for (int i = 0; i < 30; i++) {
        const double t = T * i / 30.0;
        sample(&a, t);
        sample(&b, fmod(t + T / 2, T));
        tdn_mat4 inv_a, inv_b;
        tdn_mat4_invert(&a.model[0], &inv_a);
        tdn_mat4_invert(&b.model[0], &inv_b);
        for (int j = 0; j < a.n; j++) {
            tdn_vec3 pa = tdn_mat4_transform_point(&inv_a, pos(&a, j));
            tdn_vec3 pb = tdn_mat4_transform_point(&inv_b, pos(&b, mirror[j]));
            worst = fmax(worst, dist(tdn_vec3_make(-pa.x, pa.y, pa.z), pb));
        }
    }
    printf("mirror %s / %s: largest joint difference %.4f mm\n", a_name, b_name, 1000.0 * worst);
    CHECK(worst < 1e-4);
    sampler_free(&a);
    sampler_free(&b);
}

static void test_mirror_clips(void)
{
    tdn_asset *asset = create_ok(NULL);
    if (!asset)
        return;
    check_mirror(asset, "walk_forward", "walk_forward");
    check_mirror(asset, "run_forward", "run_forward");
    check_mirror(asset, "walk_backward", "walk_backward");
    check_mirror(asset, "strafe_left", "strafe_right");
    check_mirror(asset, "turn_left", "turn_right");
    tdn_asset_destroy(asset);
}

/* ---- the upper-body clips ---- */

typedef struct upper_spec {
    const char *name;
    double duration;
    int channels;
    int kind; /* 0 action, 1 aim, 2 hit, 3 hand */
} upper_spec;

static const upper_spec UPPER[15] = {
    { "wave", 2.0, 16, 0 },       { "point", 1.2, 16, 0 },     { "reload", 1.5, 16, 0 },
    { "aim_center", 1.0, 16, 1 }, { "aim_up", 1.0, 16, 1 },    { "aim_down", 1.0, 16, 1 },
    { "aim_left", 1.0, 16, 1 },   { "aim_right", 1.0, 16, 1 }, { "hit_front", 0.7, 16, 2 },
    { "hit_back", 0.7, 16, 2 },   { "hit_left", 0.7, 16, 2 },  { "hit_right", 0.7, 16, 2 },
    { "hand_open", 1.0, 38, 3 },  { "hand_fist", 1.0, 38, 3 }, { "hand_point", 1.0, 38, 3 },
};

/* Which part a joint is: 0 root/pelvis/legs, 1 spine, neck, head (jaw and eyes excluded),
 * 2 clavicle..hand, 3 fingers (thumb, metacarpals, phalanges), 4 jaw and eyes. */
static int part_of(const char *name)
{
    if (strncmp(name, "spine_", 6) == 0 || strncmp(name, "neck_", 5) == 0 || strcmp(name, "head") == 0)
        return 1;
    if (strncmp(name, "clavicle_", 9) == 0 || strncmp(name, "upperarm_", 9) == 0 ||
        strncmp(name, "lowerarm_", 9) == 0 || strncmp(name, "hand_", 5) == 0)
        return 2;
    if (strncmp(name, "thumb_", 6) == 0 || strncmp(name, "index_", 6) == 0 || strncmp(name, "middle_", 7) == 0 ||
        strncmp(name, "ring_", 5) == 0 || strncmp(name, "pinky_", 6) == 0)
        return 3;
    if (strcmp(name, "jaw") == 0 || strncmp(name, "eye_", 4) == 0)
        return 4;
    return 0;
}

/* Largest rotation angle of any joint of `part` (-1: any) between two poses. */
static double largest_angle(const tdn_skeleton *skel, const tdn_pose *a, const tdn_pose *b, int part)
{
    double worst = 0.0;
    for (int j = 0; j < tdn_skeleton_joint_count(skel); j++)
        if (part < 0 || part_of(tdn_skeleton_joint_name(skel, j)) == part)
            worst = fmax(worst, check_quat_angle(tdn_pose_get(a, j).r, tdn_pose_get(b, j).r));
    return worst;
}

/* A model-space direction (a column of the rotation). */
static tdn_vec3 axis_of(const sampler *s, int j, int column)
{
    const float *m = &s->model[j].m[column * 4];
    return tdn_vec3_make(m[0], m[1], m[2]);
}

static void test_upper_clips(void)
{
    tdn_asset *asset = create_ok(NULL);
    if (!asset)
        return;
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    const int n = tdn_skeleton_joint_count(skel);
    /* The idle pose at t = 0: the pose actions and hit reactions start and end in. */
    sampler idle = sampler_make(asset, "idle");
    sample(&idle, 0.0);
    double worst_ends = 0.0, worst_hit_return = 0.0, moved[15];
    for (int c = 0; c < 15; c++) {
        const upper_spec *u = &UPPER[c];
        const int index = 8 + c;
        if (!CHECK(strcmp(tdn_keyed_clip_name(tdn_asset_clip(asset, index)), u->name) == 0))
            continue;
        CHECK_EQ_INT(tdn_asset_clip_channel_count(asset, index), u->channels);
        sampler s = sampler_make(asset, u->name);
        CHECK_EQ_INT(tdn_keyed_clip_track_count(s.clip), u->channels);
        CHECK_NEAR(tdn_keyed_clip_duration(s.clip), u->duration, 1e-6);
        CHECK_EQ_INT(tdn_keyed_clip_event_count(s.clip), 0);
        tdn_pose first;
        tdn_pose_create(n, &first, NULL, NULL);
        sample(&s, 0.0);
        tdn_pose_copy(&first, &s.pose, NULL);
        /* Every sample: finite, unit, translations and scales at rest; the joints each kind
         * moves, and only those (against the rest pose, or the idle pose for arms). */
        int finite = 1, unit = 1, still = 1, only = 1;
        double most = 0.0;
        const int steps = (int)ceil(u->duration * 240.0);
        for (int i = 0; i <= steps; i++) {
            sample(&s, u->duration * i / steps);
            for (int j = 0; j < n; j++) {
                tdn_transform x = tdn_pose_get(&s.pose, j), r = tdn_skeleton_rest(skel, j);
                const float *v = &x.t.x;
                for (int k = 0; k < 10; k++)
                    finite &= isfinite(v[k]) != 0;
                unit &= fabs(sqrt((double)x.r.x * x.r.x + (double)x.r.y * x.r.y + (double)x.r.z * x.r.z +
                                  (double)x.r.w * x.r.w) -
                             1.0) < 1e-5;
                still &= memcmp(&x.t, &r.t, sizeof x.t) == 0 && memcmp(&x.s, &r.s, sizeof x.s) == 0;
                const int part = part_of(tdn_skeleton_joint_name(skel, j));
                const int allowed = u->kind == 3 ? part == 3 : part == 1 || part == 2;
                if (!allowed)
                    only &= check_quat_angle(x.r, r.r) == 0.0;
            }
            most = fmax(most, largest_angle(skel, &s.pose, &first, -1));
        }
        CHECK(finite);
        CHECK(unit);
        CHECK(still);
        if (!CHECK(only))
            fprintf(stderr, "  %s moves joints it should not\n", u->name);
        moved[c] = most;
        if (u->kind == 0 || u->kind == 2) {
            /* Start and end at the idle pose's upper body (spine, neck, head, arms; the legs
             * are not theirs), within float rounding. */
            double ends = fmax(largest_angle(skel, &first, &idle.pose, 1), largest_angle(skel, &first, &idle.pose, 2));
            sample(&s, u->duration);
            ends = fmax(ends,
                        fmax(largest_angle(skel, &s.pose, &idle.pose, 1), largest_angle(skel, &s.pose, &idle.pose, 2)));
            worst_ends = fmax(worst_ends, ends);
            if (!CHECK(ends < 1e-5))
                fprintf(stderr, "  %s ends %.3g rad off the idle pose\n", u->name, ends);
            CHECK(most > 20.0 * PI / 180.0); /* and does something in between */
            if (u->kind == 2)
                worst_hit_return = fmax(worst_hit_return, largest_angle(skel, &s.pose, &first, -1));
        }
        if (u->kind == 1 || u->kind == 3)
            CHECK(most < 1e-6); /* held */
        tdn_pose_destroy(&first);
        sampler_free(&s);
    }
    printf("upper-body clips: actions and hit reactions end within %.3g rad of the idle pose, hits return within "
           "%.3g rad; largest excursions: wave %.0f, point %.0f, reload %.0f, hits %.0f/%.0f/%.0f/%.0f degrees\n",
           worst_ends, worst_hit_return, moved[0] * 180 / PI, moved[1] * 180 / PI, moved[2] * 180 / PI,
           moved[8] * 180 / PI, moved[9] * 180 / PI, moved[10] * 180 / PI, moved[11] * 180 / PI);
    CHECK(worst_hit_return < 1e-5);

    /* What each does in model space. */
    const int head = joint(asset, "head"), hand_r = joint(asset, "hand_r"), upperarm_r = joint(asset, "upperarm_r");
    const int spine5 = joint(asset, "spine_05");
    {
        sampler s = sampler_make(asset, "wave");
        sample(&s, 1.0);
        CHECK(pos(&s, hand_r).y > pos(&s, head).y - 0.1f); /* the hand up beside the head */
        CHECK(pos(&s, hand_r).x < pos(&s, upperarm_r).x);  /* on the right side */
        sampler_free(&s);
        s = sampler_make(asset, "point");
        sample(&s, 0.6);
        CHECK(pos(&s, hand_r).z - pos(&s, upperarm_r).z > 0.45f); /* straight ahead */
        CHECK(fabsf(pos(&s, hand_r).y - pos(&s, upperarm_r).y) < 0.15f);
        sampler_free(&s);
        s = sampler_make(asset, "reload");
        sample(&s, 1.0);
        const int hand_l = joint(asset, "hand_l");
        CHECK(dist(pos(&s, hand_r), pos(&s, hand_l)) < dist(pos(&idle, hand_r), pos(&idle, hand_l)) - 0.3);
        sampler_free(&s);
    }
    /* Hit reactions throw the head away from the blow at a quarter of the clip. */
    {
        const char *names[4] = { "hit_front", "hit_back", "hit_left", "hit_right" };
        const tdn_vec3 away[4] = { { 0, 0, -1 }, { 0, 0, 1 }, { -1, 0, 0 }, { 1, 0, 0 } };
        for (int k = 0; k < 4; k++) {
            sampler s = sampler_make(asset, names[k]);
            sample(&s, 0.25 * 0.7);
            tdn_vec3 d = tdn_vec3_sub(pos(&s, head), pos(&idle, head));
            if (!CHECK(tdn_vec3_dot(d, away[k]) > 0.05f))
                fprintf(stderr, "  %s moves the head by (%.3f %.3f %.3f)\n", names[k], d.x, d.y, d.z);
            sampler_free(&s);
        }
    }
    /* Aim poses: the arms hold the same local pose, the spine and neck turn the chest and head:
     * up and down pitch, left (+X) and right yaw, by 45 and 60 degrees in all. */
    {
        sampler c = sampler_make(asset, "aim_center");
        sample(&c, 0.0);
        const char *names[4] = { "aim_up", "aim_down", "aim_left", "aim_right" };
        for (int k = 0; k < 4; k++) {
            sampler s = sampler_make(asset, names[k]);
            sample(&s, 0.5);
            CHECK(largest_angle(skel, &s.pose, &c.pose, 2) < 1e-6); /* arms as in aim_center */
            CHECK(largest_angle(skel, &s.pose, &c.pose, 1) > 5.0 * PI / 180.0);
            tdn_vec3 f = axis_of(&s, head, 2), chest = axis_of(&s, spine5, 2);
            if (k == 0)
                CHECK(f.y > 0.6f && chest.y > 0.45f);
            else if (k == 1)
                CHECK(f.y < -0.6f && chest.y < -0.45f);
            else
                CHECK((k == 2 ? f.x : -f.x) > 0.8f && (k == 2 ? chest.x : -chest.x) > 0.7f);
            sampler_free(&s);
        }
        sampler_free(&c);
    }
    /* Hand poses: fingers only, mirror images left and right; the fist curls every finger, the
     * point all but the index, the open hand hardly any. */
    {
        const char *names[3] = { "hand_open", "hand_fist", "hand_point" };
        const int tip = joint(asset, "index_03_l"), knuckle = joint(asset, "index_metacarpal_l");
        const int ring_tip = joint(asset, "ring_03_l"), ring_knuckle = joint(asset, "ring_metacarpal_l");
        const int hand_l = joint(asset, "hand_l");
        double reach[3][2];
        for (int k = 0; k < 3; k++) {
            sampler s = sampler_make(asset, names[k]);
            sample(&s, 0.0);
            for (int j = 0; j < n; j++) {
                char m[64];
                mirror_name(tdn_skeleton_joint_name(skel, j), m, sizeof m);
                tdn_vec3 a = pos(&s, j), b = pos(&s, tdn_skeleton_find_joint(skel, m));
                CHECK(dist(tdn_vec3_make(-a.x, a.y, a.z), b) < 1e-5);
            }
            reach[k][0] = dist(pos(&s, tip), pos(&s, hand_l)) / dist(pos(&s, knuckle), pos(&s, hand_l));
            reach[k][1] = dist(pos(&s, ring_tip), pos(&s, hand_l)) / dist(pos(&s, ring_knuckle), pos(&s, hand_l));
            sampler_free(&s);
        }
        printf("hand poses: index tip / knuckle distance from the wrist open %.2f fist %.2f point %.2f; ring "
               "%.2f %.2f %.2f\n",
               reach[0][0], reach[1][0], reach[2][0], reach[0][1], reach[1][1], reach[2][1]);
        CHECK(reach[0][0] > 4.0 && reach[0][1] > 5.0); /* straight: 4.4 and 5.3 */
        CHECK(reach[1][0] < 0.6 * reach[0][0] && reach[1][1] < 0.6 * reach[0][1]);
        CHECK(reach[2][0] > 0.95 * reach[0][0] && reach[2][1] < 0.6 * reach[0][1]);
    }
    sampler_free(&idle);
    tdn_asset_destroy(asset);
}

static void test_deterministic(void)
{
    tdn_asset *a = create_ok(NULL), *b = create_ok(NULL);
    if (a && b) {
        for (int c = 0; c < tdn_asset_clip_count(a); c++) {
            const tdn_keyed_clip *ca = tdn_asset_clip(a, c), *cb = tdn_asset_clip(b, c);
            CHECK_EQ_INT(tdn_keyed_clip_key_count(ca), tdn_keyed_clip_key_count(cb));
            tdn_pose pa, pb;
            tdn_pose_create(67, &pa, NULL, NULL);
            tdn_pose_create(67, &pb, NULL, NULL);
            for (int i = 0; i <= 10; i++) {
                float t = tdn_keyed_clip_duration(ca) * (float)i / 10.0f;
                tdn_keyed_clip_sample(ca, t, &pa, NULL, NULL);
                tdn_keyed_clip_sample(cb, t, &pb, NULL, NULL);
                CHECK(memcmp(pa.data, pb.data, sizeof(float) * TDN_POSE_ROWS * (size_t)pa.stride) == 0);
            }
            tdn_pose_destroy(&pa);
            tdn_pose_destroy(&pb);
        }
    }
    tdn_asset_destroy(a);
    tdn_asset_destroy(b);
}

static void expect_argument_with(const tdn_humanoid_desc *desc, const tdn_allocator *allocator, const char *where)
{
    tdn_asset *asset = (tdn_asset *)(uintptr_t)1;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_humanoid_create(desc, &asset, allocator, &err), TDN_ERR_ARGUMENT);
    CHECK(asset == NULL);
    CHECK_EQ_INT(err.code, TDN_ERR_ARGUMENT);
    if (!CHECK(strcmp(err.where, where) == 0))
        fprintf(stderr, "  where '%s' (expected '%s'): %s\n", err.where, where, err.message);
    CHECK(err.message[0] != '\0');
}

static void expect_argument(const tdn_humanoid_desc *desc, const char *where)
{
    expect_argument_with(desc, NULL, where);
}

static void test_bad_desc(void)
{
    const char *fields[6] = { "desc.height",    "desc.walk_speed", "desc.walk_cycle",
                              "desc.run_speed", "desc.run_cycle",  "desc.sample_rate" };
    const float bad[4] = { -1.0f, NAN, INFINITY, -INFINITY };
    for (int f = 0; f < 6; f++)
        for (int b = 0; b < 4; b++) {
            tdn_humanoid_desc desc = { 0 };
            float *field[6] = { &desc.height,    &desc.walk_speed, &desc.walk_cycle,
                                &desc.run_speed, &desc.run_cycle,  &desc.sample_rate };
            *field[f] = bad[b];
            expect_argument(&desc, fields[f]);
        }
    tdn_humanoid_desc fast = { .walk_speed = 10.0f };
    expect_argument(&fast, "desc.walk_speed");
    tdn_humanoid_desc sprint = { .run_speed = 12.0f };
    expect_argument(&sprint, "desc.run_speed");
    tdn_humanoid_desc dense = { .sample_rate = 5000.0f };
    expect_argument(&dense, "desc.sample_rate");
    const tdn_allocator half = { count_alloc, NULL, NULL };
    expect_argument_with(NULL, &half, "allocator");
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_humanoid_create(NULL, NULL, NULL, &err), TDN_ERR_ARGUMENT);
    /* The fastest walk the legs allow (0.7 leg lengths each way over 0.6 of a 1 s cycle). */
    const double leg = sqrt(0.43 * 0.43 + 0.01 * 0.01) + sqrt(0.40 * 0.40 + 0.02 * 0.02);
    tdn_humanoid_desc edge = { .walk_speed = (float)(0.99 * 2 * 0.7 * leg / 0.6) };
    tdn_asset *asset = create_ok(&edge);
    tdn_asset_destroy(asset);
    edge.walk_speed = (float)(1.01 * 2 * 0.7 * leg / 0.6);
    expect_argument(&edge, "desc.walk_speed");
}

static void test_failing_allocations(void)
{
    tdn_humanoid_desc desc = { 0 };
    int failures = 0;
    for (long n = 0;; n++) {
        allocations_before_failure = n;
        tdn_asset *asset = NULL;
        tdn_error err = { 0 };
        tdn_result r = tdn_humanoid_create(&desc, &asset, &counting, &err);
        allocations_before_failure = -1;
        if (r == TDN_OK) {
            CHECK(asset != NULL);
            CHECK(live_blocks > 0);
            tdn_asset_destroy(asset);
            CHECK_EQ_INT(live_blocks, 0);
            CHECK_EQ_INT(live_bytes, 0);
            printf("failing allocations: succeeded with %ld allocations after %d failures\n", n, failures);
            break;
        }
        failures++;
        CHECK_EQ_INT(r, TDN_ERR_OUT_OF_MEMORY);
        CHECK(asset == NULL);
        CHECK_EQ_INT(live_blocks, 0);
        CHECK_EQ_INT(live_bytes, 0);
        if (n > 100000) {
            CHECK(0);
            break;
        }
    }
    CHECK(failures > 10);
}

int main(void)
{
    RUN(test_skeleton_layout);
    RUN(test_scaling);
    RUN(test_clips_default);
    RUN(test_clips_dense);
    RUN(test_clips_varied);
    RUN(test_mirror_clips);
    RUN(test_upper_clips);
    RUN(test_deterministic);
    RUN(test_bad_desc);
    RUN(test_failing_allocations);
    printf("worst: skate at keys %.5f mm/interval; between keys %.4f mm/sample, %.4f cm/s; ankle height %.4f cm; "
           "seam/inside rotation change %.3f\n",
           worst_key_skate_mm, worst_skate_mm, worst_skate_cm_s, worst_height_cm, worst_seam_ratio);
    return check_summary();
}
