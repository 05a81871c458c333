/* The generated humanoid's jump clip (humanoid.h): key layout and phases worked out here from
 * the description, the pelvis against the ballistic parabola of g = 9.81 m/s^2 during flight
 * (h = g t^2 / 8), contact curves and events, feet on the ground while in contact, unit
 * rotations, first and last poses equal; and the clips before it unchanged (their names, key
 * counts and a checksum of sampled model-space poses, recorded before the jump was added). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "humanoid_sampler.h"

#define G 9.81

/* The documented phases, in key intervals of dt. */
typedef struct jump_spec {
    int n; /* key intervals over 1.5 s */
    double dt;
    int take_off, land;    /* keys */
    double flight, height; /* s, m */
} jump_spec;

static jump_spec spec_of(double height, double rate)
{
    jump_spec j;
    j.n = intervals_of(1.5, rate);
    j.dt = 1.5 / j.n;
    j.take_off = (int)lround(0.6 / j.dt);
    int nf = (int)lround(0.45 * sqrt(height / 1.8) / j.dt);
    j.land = j.take_off + (nf < 2 ? 2 : nf);
    j.flight = (j.land - j.take_off) * j.dt;
    j.height = G * j.flight * j.flight / 8.0;
    return j;
}

static void check_jump(const tdn_humanoid_desc *desc, double height, double rate, int print)
{
    tdn_asset *asset = create_ok(desc);
    if (!asset)
        return;
    const int c = tdn_asset_find_clip(asset, "jump");
    CHECK_EQ_INT(c, 26); /* after the 8 locomotion and 18 upper-body clips */
    CHECK_EQ_INT(tdn_asset_clip_count(asset), 27);
    if (c < 0) {
        tdn_asset_destroy(asset);
        return;
    }
    sampler s = sampler_make(asset, "jump");
    const jump_spec j = spec_of(height, rate);
    CHECK_NEAR(tdn_keyed_clip_duration(s.clip), 1.5, 1e-6);
    CHECK_EQ_INT(tdn_keyed_clip_key_count(s.clip), 20 * (j.n + 1) + 2 * 4); /* 20 tracks; contacts 1, 0, 1, 1 */
    CHECK_EQ_INT(tdn_asset_clip_channel_count(asset, c), 20);

    /* events */
    CHECK_EQ_INT(tdn_keyed_clip_event_count(s.clip), 2);
    if (tdn_keyed_clip_event_count(s.clip) == 2) {
        CHECK(strcmp(tdn_keyed_clip_event_name(s.clip, 0), "take_off") == 0);
        CHECK(strcmp(tdn_keyed_clip_event_name(s.clip, 1), "land") == 0);
        CHECK_NEAR(tdn_keyed_clip_event_times(s.clip)[0], j.take_off * j.dt, 1e-5);
        CHECK_NEAR(tdn_keyed_clip_event_times(s.clip)[1], j.land * j.dt, 1e-5);
    }
    const int cl = tdn_keyed_clip_find_float_track(s.clip, "contact_l");
    const int cr = tdn_keyed_clip_find_float_track(s.clip, "contact_r");
    CHECK(cl >= 0 && cr >= 0);
    if (tdn_keyed_clip_event_count(s.clip) == 2)
        for (int f = 0; f < 2; f++) { /* the contacts switch exactly at the events */
            const int track = f ? cr : cl;
            const float up = tdn_keyed_clip_event_times(s.clip)[0], down = tdn_keyed_clip_event_times(s.clip)[1];
            CHECK(tdn_keyed_clip_sample_float(s.clip, track, nextafterf(up, 0.0f)) == 1.0f);
            CHECK(tdn_keyed_clip_sample_float(s.clip, track, up) == 0.0f);
            CHECK(tdn_keyed_clip_sample_float(s.clip, track, nextafterf(down, 0.0f)) == 0.0f);
            CHECK(tdn_keyed_clip_sample_float(s.clip, track, down) == 1.0f);
            CHECK(tdn_keyed_clip_sample_float(s.clip, track, 0.0f) == 1.0f);
            CHECK(tdn_keyed_clip_sample_float(s.clip, track, 1.5f) == 1.0f);
        }

    const tdn_skeleton *skel = s.skel;
    const int pelvis = tdn_skeleton_find_joint(skel, "pelvis"), root = tdn_skeleton_find_joint(skel, "root");
    const int foot[2] = { tdn_skeleton_find_joint(skel, "foot_l"), tdn_skeleton_find_joint(skel, "foot_r") };
    /* rest ankle positions */
    tdn_vec3 rest_foot[2];
    for (int f = 0; f < 2; f++) {
        double p[3] = { 0, 0, 0 };
        for (int k = foot[f]; k >= 0; k = tdn_skeleton_parent(skel, k)) {
            tdn_transform r = tdn_skeleton_rest(skel, k);
            p[0] += r.t.x, p[1] += r.t.y, p[2] += r.t.z;
        }
        rest_foot[f] = tdn_vec3_make((float)p[0], (float)p[1], (float)p[2]);
    }

    /* The pelvis at take-off, from the key there. */
    const double t0 = j.take_off * j.dt, t1 = j.land * j.dt;
    sample(&s, t0);
    const double y0 = pos(&s, pelvis).y;
    sample(&s, t1);
    CHECK_NEAR(pos(&s, pelvis).y, y0, 1e-4); /* lands at the take-off height */
    const double v0 = G * j.flight / 2.0;

    /* Dense samples: parabola in flight, contacts, feet, unit rotations. */
    const int steps = 20 * j.n;
    const double interp = G * j.dt * j.dt / 8.0; /* linear keys' error on a parabola */
    double worst_parabola = 0.0, worst_key_parabola = 0.0, apex = 0.0, worst_key_foot = 0.0, worst_unit = 0.0;
    double worst_foot = 0.0;
    for (int i = 0; i <= steps; i++) {
        const double t = 1.5 * i / steps;
        const int at_key = i % 20 == 0;
        sample(&s, t);
        const double lc = tdn_keyed_clip_sample_float(s.clip, cl, (float)t);
        const double rc = tdn_keyed_clip_sample_float(s.clip, cr, (float)t);
        const int in_flight = t >= t0 + 1e-6 && t < t1 - 1e-6;
        if (fabs(t - t0) < 1e-5 || fabs(t - t1) < 1e-5) {
            /* at the switches themselves: checked at the events' float times below */
        } else if (t < t0 || t > t1) {
            CHECK(lc == 1.0 && rc == 1.0);
        } else {
            CHECK(lc == 0.0 && rc == 0.0);
        }
        const double py = pos(&s, pelvis).y;
        CHECK(fabs(pos(&s, root).y) < 1e-6 && fabs(pos(&s, root).x) < 1e-6 && fabs(pos(&s, root).z) < 1e-6);
        if (in_flight || (at_key && (i / 20 == j.take_off || i / 20 == j.land))) {
            const double tau = t - t0;
            const double want = y0 + v0 * tau - 0.5 * G * tau * tau;
            worst_parabola = fmax(worst_parabola, fabs(py - want));
            if (at_key)
                worst_key_parabola = fmax(worst_key_parabola, fabs(py - want));
            apex = fmax(apex, py - y0);
            /* feet off the ground in flight */
            if (in_flight && at_key)
                for (int f = 0; f < 2; f++)
                    CHECK(pos(&s, foot[f]).y > rest_foot[f].y + 1e-3);
        }
        /* in contact (or at the key where contact ends) the ankle is at its rest position */
        if (!in_flight) {
            for (int f = 0; f < 2; f++) {
                const double d = sqrt(pow(pos(&s, foot[f]).x - rest_foot[f].x, 2) +
                                      pow(pos(&s, foot[f]).y - rest_foot[f].y, 2) +
                                      pow(pos(&s, foot[f]).z - rest_foot[f].z, 2));
                worst_foot = fmax(worst_foot, d);
                if (at_key)
                    worst_key_foot = fmax(worst_key_foot, d);
            }
        }
        for (int k = 0; k < 67; k++) {
            tdn_quat r = tdn_pose_get(&s.pose, k).r;
            worst_unit = fmax(
                worst_unit,
                fabs(sqrt((double)r.x * r.x + (double)r.y * r.y + (double)r.z * r.z + (double)r.w * r.w) - 1.0));
        }
    }
    CHECK(worst_key_parabola < 1e-4);      /* exact at the keys */
    CHECK(worst_parabola < interp + 1e-4); /* and within a chord's sag between them */
    CHECK(fabs(apex - j.height) < interp + 1e-4);
    CHECK(worst_key_foot < 1e-3); /* feet exactly planted at the keys */
    CHECK(worst_foot < 0.01);     /* and within a centimetre between them */
    CHECK(worst_unit < 1e-5);
    /* Starts and ends in the same standing pose; loops seamlessly. */
    tdn_mat4 first[67];
    sample(&s, 0.0);
    memcpy(first, s.model, sizeof first);
    sample(&s, 1.5);
    double seam = 0.0;
    for (int k = 0; k < 67; k++)
        for (int e = 0; e < 16; e++)
            seam = fmax(seam, fabs(first[k].m[e] - s.model[k].m[e]));
    CHECK(seam < 1e-5);
    /* The arms swing up for take-off: the hands above the shoulders at take-off. */
    sample(&s, t0);
    for (int side = 0; side < 2; side++) {
        const int hand = tdn_skeleton_find_joint(skel, side ? "hand_r" : "hand_l");
        const int shoulder = tdn_skeleton_find_joint(skel, side ? "upperarm_r" : "upperarm_l");
        CHECK(pos(&s, hand).y > pos(&s, shoulder).y);
    }
    if (print)
        printf("  jump (height %.2f, %g keys/s): %d intervals, take-off %.4f s, land %.4f s, flight %.4f s, "
               "height %.4f m (measured %.4f), pelvis vs parabola %.2f mm (keys %.4f mm, bound %.2f mm), "
               "ankle in contact %.3f mm at keys, %.2f mm between\n",
               height, rate, j.n, t0, t1, j.flight, j.height, apex, 1000 * worst_parabola, 1000 * worst_key_parabola,
               1000 * interp, 1000 * worst_key_foot, 1000 * worst_foot);
    sampler_free(&s);
    tdn_asset_destroy(asset);
}

static void test_jump(void)
{
    check_jump(NULL, 1.8, 30, 1);
    tdn_humanoid_desc d = { .sample_rate = 60 };
    check_jump(&d, 1.8, 60, 1);
    tdn_humanoid_desc small = { .height = 1.2, .sample_rate = 24, .walk_speed = 0.9, .run_speed = 2.5 };
    check_jump(&small, 1.2, 24, 1);
}

/* The clips before the jump keep their order, key counts and values: a checksum of model-space
 * poses sampled at 11 times each, recorded before the jump was added (tolerance for libm). */
static void test_existing_clips_unchanged(void)
{
    static const struct {
        const char *name;
        int keys;
        double sum;
    } WANT[26] = {
        { "idle", 1824, 12056.712365 },       { "walk_forward", 627, 13701.675855 },
        { "run_forward", 387, 14996.469380 }, { "walk_backward", 627, 9856.616232 },
        { "strafe_left", 627, 13894.955547 }, { "strafe_right", 627, 9752.625592 },
        { "turn_left", 627, 11317.229342 },   { "turn_right", 627, 9296.448950 },
        { "wave", 976, 12115.678952 },        { "point", 592, 12979.485800 },
        { "reload", 752, 11994.603938 },      { "aim_center", 32, 11699.111393 },
        { "aim_up", 32, 10783.436262 },       { "aim_down", 32, 11135.118453 },
        { "aim_left", 32, 13533.559885 },     { "aim_right", 32, 8846.460918 },
        { "hit_front", 368, 12958.628958 },   { "hit_back", 368, 12696.505489 },
        { "hit_left", 368, 12762.302905 },    { "hit_right", 368, 12665.968139 },
        { "hand_open", 76, 15510.983941 },    { "hand_fist", 76, 12029.195000 },
        { "hand_point", 76, 12750.510436 },   { "lean_center", 32, 12105.519745 },
        { "lean_left", 32, 11857.661703 },    { "lean_right", 32, 12120.012131 },
    };
    tdn_asset *asset = create_ok(NULL);
    if (!asset)
        return;
    sampler s = sampler_make(asset, "idle"); /* then each clip in turn */
    int print = getenv("TDN_PRINT_SUMS") != NULL;
    for (int c = 0; c < 26 && c < tdn_asset_clip_count(asset); c++) {
        s.clip = tdn_asset_clip(asset, c);
        double sum = 0.0;
        for (int i = 0; i <= 10; i++) {
            sample(&s, tdn_keyed_clip_duration(s.clip) * i / 10.0);
            for (int k = 0; k < 67; k++)
                for (int e = 0; e < 16; e++)
                    sum += s.model[k].m[e] * (1 + (k + e + i) % 7);
        }
        if (print)
            printf("        { \"%s\", %d, %.6f },\n", tdn_keyed_clip_name(s.clip), tdn_keyed_clip_key_count(s.clip),
                   sum);
        CHECK(strcmp(tdn_keyed_clip_name(s.clip), WANT[c].name) == 0);
        CHECK_EQ_INT(tdn_keyed_clip_key_count(s.clip), WANT[c].keys);
        CHECK_NEAR(sum, WANT[c].sum, 1e-3);
    }
    sampler_free(&s);
    tdn_asset_destroy(asset);
}

int main(void)
{
    RUN(test_existing_clips_unchanged);
    RUN(test_jump);
    return check_summary();
}
