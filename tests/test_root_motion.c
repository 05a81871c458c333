/* Root motion and joint velocities against numbers computed another way: the humanoid's
 * walk_speed x walk_cycle per lap and pi/2 rad per turning lap, a circle walked by a clip of our
 * own (root moving +Z at 1 m/s in its own frame while turning at 90 deg/s: radius 2/pi, closed
 * form (r(1 - cos wt), 0, r sin wt)), ping-pong legs worked by hand, finite differences of the
 * keyed clip in double, weighted blends by hand. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "tendon/io/humanoid.h"
#include "tendon/io/asset.h"

static const double PI = 3.14159265358979323846;

/* ---- the humanoid's clips ---- */

static tdn_asset *humanoid;
static tdn_humanoid_desc hdesc = { .walk_speed = 1.4f, .walk_cycle = 1.0f };

static tdn_clip *humanoid_clip(const char *name, tdn_clip_storage storage)
{
    int k = tdn_asset_find_clip(humanoid, name);
    CHECK(k >= 0);
    tdn_clip *clip = NULL;
    tdn_error err = { 0 };
    tdn_result r = tdn_clip_create(&(tdn_clip_desc){ .source = tdn_asset_clip(humanoid, k), .storage = storage }, &clip,
                                   NULL, &err);
    if (!CHECK(r == TDN_OK))
        fprintf(stderr, "%s: %s\n", err.where, err.message);
    return clip;
}

static tdn_root_track *track_of(const tdn_clip *clip, const tdn_root_track_desc *desc)
{
    tdn_root_track *track = NULL;
    tdn_error err = { 0 };
    tdn_result r = tdn_root_track_create(clip, desc, &track, NULL, &err);
    if (!CHECK(r == TDN_OK))
        fprintf(stderr, "%s: %s\n", err.where, err.message);
    return track;
}

/* ---- a character in the world, integrated in double ---- */

typedef struct world {
    double p[3];
    double q[4]; /* x y z w */
} world;

static world world_identity(void)
{
    world w = { { 0, 0, 0 }, { 0, 0, 0, 1 } };
    return w;
}

static void qrot(const double q[4], const double v[3], double out[3])
{
    double t[3] = { 2 * (q[1] * v[2] - q[2] * v[1]), 2 * (q[2] * v[0] - q[0] * v[2]), 2 * (q[0] * v[1] - q[1] * v[0]) };
    out[0] = v[0] + q[3] * t[0] + (q[1] * t[2] - q[2] * t[1]);
    out[1] = v[1] + q[3] * t[1] + (q[2] * t[0] - q[0] * t[2]);
    out[2] = v[2] + q[3] * t[2] + (q[0] * t[1] - q[1] * t[0]);
}

static void qmul(const double a[4], const double b[4], double out[4])
{
    double r[4] = { a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
                    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2] };
    memcpy(out, r, sizeof r);
}

/* position += facing * translation; facing *= rotation. */
static void world_apply(world *w, const tdn_root_motion *m)
{
    double d[3] = { m->translation.x, m->translation.y, m->translation.z }, wd[3];
    double r[4] = { m->rotation.x, m->rotation.y, m->rotation.z, m->rotation.w };
    qrot(w->q, d, wd);
    for (int i = 0; i < 3; ++i)
        w->p[i] += wd[i];
    qmul(w->q, r, w->q);
    double n = sqrt(w->q[0] * w->q[0] + w->q[1] * w->q[1] + w->q[2] * w->q[2] + w->q[3] * w->q[3]);
    for (int i = 0; i < 4; ++i)
        w->q[i] /= n;
}

/* Signed angle about +Y of a rotation that turns about +Y only. */
static double yaw_of(const double q[4]) { return 2.0 * atan2(q[1], q[3]); }

/* Plays `track` with a player for `seconds` of wall time in steps of dt (irregular: random steps
 * of 0.5..2 frames), integrating the motion from the identity. */
static world play(const tdn_root_track *track, tdn_wrap wrap, float rate, float start, double seconds, int irregular,
                  int *steps_out)
{
    tdn_player p = tdn_player_make(tdn_root_track_duration(track), wrap);
    p.rate = rate;
    tdn_player_set_time(&p, start);
    world w = world_identity();
    check_rng rng = { 0x9e3779b97f4a7c15ull };
    double done = 0.0;
    int steps = 0;
    while (done < seconds - 1e-9) {
        double dt = irregular ? check_rng_float(&rng, 0.5f / 60.0f, 2.0f / 60.0f) : 1.0 / 60.0;
        if (done + dt > seconds - 1e-7)
            dt = seconds - done;
        float fdt = (float)dt;
        done += fdt;
        tdn_player_advance(&p, fdt);
        tdn_root_motion m;
        CHECK(tdn_root_track_motion(track, &p, fdt, &m, NULL) == TDN_OK);
        world_apply(&w, &m);
        steps++;
    }
    if (steps_out)
        *steps_out = steps;
    return w;
}

static void test_walk_forward_loops(void)
{
    tdn_clip *clip = humanoid_clip("walk_forward", TDN_STORAGE_AUTO);
    tdn_root_track *track = track_of(clip, NULL);
    const double lap = (double)hdesc.walk_speed * hdesc.walk_cycle; /* 1.4 m */
    const double cycle = hdesc.walk_cycle;
    CHECK_NEAR(tdn_root_track_duration(track), cycle, 1e-6);
    tdn_root_motion l = tdn_root_track_lap(track);
    CHECK_NEAR(l.translation.z, lap, 1e-4 * lap);
    CHECK_NEAR(l.translation.x, 0.0, 1e-4 * lap);
    CHECK_NEAR(l.translation.y, 0.0, 1e-6);
    CHECK_NEAR(check_quat_angle(l.rotation, tdn_quat_identity()), 0.0, 1e-5);

    const double laps[] = { 1.0, 3.0, 7.5 };
    const float rates[] = { 1.0f, -1.0f, 1.7f };
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) {
            for (int irregular = 0; irregular < 2; ++irregular) {
                const double n = laps[i], rate = rates[k];
                const double expect = n * lap * (rate > 0 ? 1.0 : -1.0);
                int steps = 0;
                world w = play(track, TDN_WRAP_LOOP, rates[k], 0.0f, n * cycle / fabs(rate), irregular, &steps);
                CHECK(steps > 20);
                CHECK_NEAR(w.p[2], expect, 1e-4 * fabs(expect));
                CHECK_NEAR(w.p[0], 0.0, 1e-4 * fabs(expect));
                CHECK_NEAR(w.p[1], 0.0, 1e-6);
                CHECK_NEAR(fabs(yaw_of(w.q)), 0.0, 1e-5);
            }
        }
    }

    /* One step over many laps: 7.5 s in one advance wraps 7 times (L^6 by squaring). */
    {
        tdn_player p = tdn_player_make(tdn_clip_duration(clip), TDN_WRAP_LOOP);
        tdn_player_set_time(&p, 0.25f);
        CHECK_EQ_INT(tdn_player_advance(&p, 7.5f), 7);
        tdn_root_motion m;
        CHECK(tdn_root_track_motion(track, &p, 7.5f, &m, NULL) == TDN_OK);
        CHECK_NEAR(m.translation.z, 7.5 * lap, 1e-4 * 7.5 * lap);
        CHECK_NEAR(m.linear_velocity.z, hdesc.walk_speed, 1e-4);
        /* backward, 2.25 s: from 0.25 down through 0 twice, to 0.0 (lands on the start: time D) */
        p.rate = -1.0f;
        tdn_player_set_time(&p, 0.25f);
        tdn_player_advance(&p, 2.25f);
        CHECK(tdn_root_track_motion(track, &p, 2.25f, &m, NULL) == TDN_OK);
        CHECK_NEAR(m.translation.z, -2.25 * lap, 1e-4 * 2.25 * lap);
        CHECK_NEAR(m.linear_velocity.z, -hdesc.walk_speed, 1e-4);
    }

    /* PINGPONG from 0.25 over 3.6 s of clip time: +0.75 to the end, -1, +1, then -0.85 to 0.15.
     * Net: (0.15 - 0.25) laps = -0.14 m; irregular steps too. The cursor ends at 0.15. */
    for (int irregular = 0; irregular < 2; ++irregular) {
        world w = play(track, TDN_WRAP_PINGPONG, 1.0f, 0.25f, 3.6, irregular, NULL);
        CHECK_NEAR(w.p[2], (0.75 - 1.0 + 1.0 - 0.85) * lap, 1e-4 * lap);
        CHECK_NEAR(w.p[2], -0.14, 2e-4);
    }
    /* at rate 2 over 2.3 s: 4.6 s of clip time from 0: +1, -1, +1, -1, +0.6 -> +0.84 m */
    {
        world w = play(track, TDN_WRAP_PINGPONG, 2.0f, 0.0f, 2.3, 0, NULL);
        CHECK_NEAR(w.p[2], 0.6 * lap, 1e-4 * lap);
    }
    /* one PINGPONG advance with 4 turns: 0.25 + 4.5 = clip distance 4.5 -> legs +0.75 -1 +1 -1 +0.75 */
    {
        tdn_player p = tdn_player_make(tdn_clip_duration(clip), TDN_WRAP_PINGPONG);
        tdn_player_set_time(&p, 0.25f);
        CHECK_EQ_INT(tdn_player_advance(&p, 4.5f), 4);
        CHECK_NEAR(p.time, 0.75, 1e-6);
        tdn_root_motion m;
        tdn_root_track_motion(track, &p, 4.5f, &m, NULL);
        CHECK_NEAR(m.translation.z, 0.5 * lap, 1e-4 * lap);
        /* 5 turns: 0.25 + 5.5 -> legs +0.75 -1 +1 -1 +1 -0.75: ends at 0.25 heading back, net 0 */
        tdn_player_set_time(&p, 0.25f);
        CHECK_EQ_INT(tdn_player_advance(&p, 5.5f), 5);
        tdn_root_track_motion(track, &p, 5.5f, &m, NULL);
        CHECK_NEAR(m.translation.z, 0.0, 1e-4 * lap);
    }
    /* CLAMP: 2 s from 0 stops at the end after one lap */
    {
        world w = play(track, TDN_WRAP_CLAMP, 1.0f, 0.0f, 2.0, 0, NULL);
        CHECK_NEAR(w.p[2], lap, 1e-4 * lap);
    }
    /* LOOP with a loop limit of 2: stops at the end of the second lap even given 3.3 s */
    {
        tdn_player p = tdn_player_make(tdn_clip_duration(clip), TDN_WRAP_LOOP);
        p.loop_limit = 2;
        tdn_player_set_time(&p, 0.5f);
        tdn_player_advance(&p, 3.3f);
        CHECK(p.finished);
        tdn_root_motion m;
        tdn_root_track_motion(track, &p, 3.3f, &m, NULL);
        CHECK_NEAR(m.translation.z, 1.5 * lap, 1e-4 * lap);
    }
    /* between: half a lap forward and back are opposite */
    {
        tdn_root_motion a, b;
        tdn_root_track_motion_between(track, 0.2f, 0.7f, &a, NULL);
        tdn_root_track_motion_between(track, 0.7f, 0.2f, &b, NULL);
        CHECK_NEAR(a.translation.z, 0.5 * lap, 1e-4 * lap);
        CHECK_NEAR(b.translation.z, -0.5 * lap, 1e-4 * lap);
        CHECK_NEAR(a.linear_velocity.z, hdesc.walk_speed, 1e-3);
        CHECK_NEAR(b.linear_velocity.z, -hdesc.walk_speed, 1e-3);
    }
    tdn_root_track_destroy(track);
    tdn_clip_destroy(clip);
}

static void test_turn_left(void)
{
    tdn_clip *clip = humanoid_clip("turn_left", TDN_STORAGE_AUTO);
    tdn_root_track *track = track_of(clip, NULL);
    tdn_root_motion l = tdn_root_track_lap(track);
    double q[4] = { l.rotation.x, l.rotation.y, l.rotation.z, l.rotation.w };
    CHECK_NEAR(yaw_of(q), PI / 2 * hdesc.walk_cycle, 1e-4);
    CHECK_NEAR(l.angular_velocity.y, PI / 2, 1e-4);
    CHECK_NEAR(tdn_vec3_length(l.translation), 0.0, 1e-4);
    /* 3 laps at dt = 1/60: facing turned by 3 pi/2 (= -pi/2), no travel; backward: +pi/2 */
    world w = play(track, TDN_WRAP_LOOP, 1.0f, 0.0f, 3.0, 0, NULL);
    CHECK_NEAR(remainder(yaw_of(w.q) + PI / 2, 2 * PI), 0.0, 1e-4);
    CHECK_NEAR(sqrt(w.p[0] * w.p[0] + w.p[2] * w.p[2]), 0.0, 1e-3);
    w = play(track, TDN_WRAP_LOOP, -1.0f, 0.0f, 3.0, 1, NULL);
    CHECK_NEAR(remainder(yaw_of(w.q) - PI / 2, 2 * PI), 0.0, 1e-4);
    /* per step at 60 Hz: the angular velocity is pi/2 about +Y */
    tdn_root_motion m;
    tdn_root_track_motion_between(track, 0.3f, 0.3f + 1.0f / 60.0f, &m, NULL);
    CHECK_NEAR(m.angular_velocity.y, PI / 2, 2e-3);
    CHECK_NEAR(m.angular_velocity.x, 0.0, 1e-5);
    /* NO_ROTATION: nothing turns; FULL_ROTATION: the same turn as YAW for a pure turn */
    tdn_root_track *none = track_of(clip, &(tdn_root_track_desc){ .rotation = TDN_ROOT_NO_ROTATION });
    tdn_root_track *full = track_of(clip, &(tdn_root_track_desc){ .rotation = TDN_ROOT_FULL_ROTATION });
    CHECK_NEAR(check_quat_angle(tdn_root_track_lap(none).rotation, tdn_quat_identity()), 0.0, 1e-6);
    CHECK_NEAR(check_quat_angle(tdn_root_track_lap(full).rotation, l.rotation), 0.0, 1e-5);
    tdn_root_track_destroy(none);
    tdn_root_track_destroy(full);
    tdn_root_track_destroy(track);
    tdn_clip_destroy(clip);
}

/* ---- a clip of our own: the root walks a circle, a child hangs below it ---- */

#define CIRCLE_KEYS 121                                   /* one second, keys every 1/120 s */
static const double OMEGA = 3.14159265358979323846 / 2.0; /* rad/s */
static const double BOB = 0.05;                           /* vertical bob, metres */

static void circle_at(double t, double p[3], double q[4])
{
    const double r = 1.0 / OMEGA; /* 2 / pi */
    p[0] = r * (1.0 - cos(OMEGA * t));
    p[1] = BOB * sin(2.0 * PI * t);
    p[2] = r * sin(OMEGA * t);
    /* yaw w t, then a small constant tilt about the character's own +X (leaning forward) */
    const double tilt = 0.1;
    double yaw[4] = { 0, sin(OMEGA * t / 2), 0, cos(OMEGA * t / 2) }, lean[4] = { sin(tilt / 2), 0, 0, cos(tilt / 2) };
    qmul(yaw, lean, q);
}

typedef struct circle {
    tdn_skeleton *skeleton;
    tdn_keyed_clip *keyed;
    tdn_clip *clip;
} circle;

static circle circle_make(void)
{
    static float times[CIRCLE_KEYS], pos[CIRCLE_KEYS * 3], rot[CIRCLE_KEYS * 4];
    for (int k = 0; k < CIRCLE_KEYS; ++k) {
        double t = k / (double)(CIRCLE_KEYS - 1), p[3], q[4];
        circle_at(t, p, q);
        times[k] = (float)t;
        for (int i = 0; i < 3; ++i)
            pos[k * 3 + i] = (float)p[i];
        for (int i = 0; i < 4; ++i)
            rot[k * 4 + i] = (float)q[i];
    }
    circle c = { 0 };
    const char *names[] = { "root", "foot" };
    const int parents[] = { -1, 0 };
    tdn_transform rest[2] = { tdn_transform_identity(), tdn_transform_identity() };
    rest[1].t = tdn_vec3_make(0.1f, 0.9f, 0.2f);
    CHECK(tdn_skeleton_create(
              &(tdn_skeleton_desc){ .joint_count = 2, .names = names, .parents = parents, .rest_pose = rest },
              &c.skeleton, NULL, NULL) == TDN_OK);
    const tdn_track_desc tracks[] = {
        { 0, TDN_TARGET_TRANSLATION, TDN_INTERP_LINEAR, CIRCLE_KEYS, times, pos },
        { 0, TDN_TARGET_ROTATION, TDN_INTERP_LINEAR, CIRCLE_KEYS, times, rot },
    };
    CHECK(tdn_keyed_clip_create(
              &(tdn_keyed_clip_desc){ .name = "circle", .skeleton = c.skeleton, .tracks = tracks, .track_count = 2 },
              &c.keyed, NULL, NULL) == TDN_OK);
    CHECK(tdn_clip_create(&(tdn_clip_desc){ .source = c.keyed, .storage = TDN_STORAGE_FLOAT32 }, &c.clip, NULL, NULL) ==
          TDN_OK);
    return c;
}

static void circle_free(circle *c)
{
    tdn_clip_destroy(c->clip);
    tdn_keyed_clip_destroy(c->keyed);
    tdn_skeleton_destroy(c->skeleton);
}

static void test_circle(void)
{
    circle c = circle_make();
    tdn_root_track *track = track_of(c.clip, NULL);
    const double r = 2.0 / PI;
    /* whole laps and a half: the world position is on the circle at the total time */
    const double totals[] = { 1.0, 2.5, 4.0, 6.3 };
    for (int i = 0; i < 4; ++i) {
        for (int rate_sign = -1; rate_sign <= 1; rate_sign += 2) {
            const double t = totals[i] * rate_sign;
            world w = play(track, TDN_WRAP_LOOP, (float)rate_sign, 0.0f, totals[i], i % 2, NULL);
            CHECK_NEAR(w.p[0], r * (1.0 - cos(OMEGA * t)), 1e-4);
            CHECK_NEAR(w.p[2], r * sin(OMEGA * t), 1e-4);
            CHECK_NEAR(w.p[1], 0.0, 1e-6); /* the bob is not root motion */
            double expect_yaw = remainder(OMEGA * t, 2.0 * PI);
            CHECK_NEAR(remainder(yaw_of(w.q) - expect_yaw, 2.0 * PI), 0.0, 1e-4);
            CHECK_NEAR(w.q[0], 0.0, 1e-6); /* the lean stays in the pose */
        }
    }
    /* rate 1.7 over 2 s: 3.4 s of clip time */
    {
        world w = play(track, TDN_WRAP_LOOP, 1.7f, 0.0f, 2.0, 1, NULL);
        CHECK_NEAR(w.p[0], r * (1.0 - cos(OMEGA * 3.4)), 1e-4);
        CHECK_NEAR(w.p[2], r * sin(OMEGA * 3.4), 1e-4);
    }
    /* PINGPONG retraces the arc: 3.3 s from 0 goes 0 -> 1 -> 0 -> 1 -> 0.7: on the circle at 0.7 */
    {
        world w = play(track, TDN_WRAP_PINGPONG, 1.0f, 0.0f, 3.3, 0, NULL);
        CHECK_NEAR(w.p[0], r * (1.0 - cos(OMEGA * 0.7)), 1e-4);
        CHECK_NEAR(w.p[2], r * sin(OMEGA * 0.7), 1e-4);
        CHECK_NEAR(yaw_of(w.q), OMEGA * 0.7, 1e-4);
        /* the same in one advance (3 turns) */
        tdn_player p = tdn_player_make(1.0f, TDN_WRAP_PINGPONG);
        CHECK_EQ_INT(tdn_player_advance(&p, 3.3f), 3);
        tdn_root_motion m;
        tdn_root_track_motion(track, &p, 3.3f, &m, NULL);
        CHECK_NEAR(m.translation.x, r * (1.0 - cos(OMEGA * 0.7)), 1e-4);
        CHECK_NEAR(m.translation.z, r * sin(OMEGA * 0.7), 1e-4);
    }
    /* one LOOP advance of 2.5 laps composes the laps' rotations (L^1 then 0.5 more) */
    {
        tdn_player p = tdn_player_make(1.0f, TDN_WRAP_LOOP);
        tdn_player_advance(&p, 2.5f);
        tdn_root_motion m;
        tdn_root_track_motion(track, &p, 2.5f, &m, NULL);
        CHECK_NEAR(m.translation.x, r * (1.0 - cos(OMEGA * 2.5)), 1e-4);
        CHECK_NEAR(m.translation.z, r * sin(OMEGA * 2.5), 1e-4);
        double q[4] = { m.rotation.x, m.rotation.y, m.rotation.z, m.rotation.w };
        CHECK_NEAR(remainder(yaw_of(q) - OMEGA * 2.5, 2 * PI), 0.0, 1e-4);
        /* average velocities over the step: chord / 2.5 s, and 1.25 pi rad / 2.5 s taken the short way
         * (1.25 pi is -0.75 pi: the rotation vector's angle is at most pi) */
        CHECK_NEAR(m.linear_velocity.x, m.translation.x / 2.5, 1e-5);
        CHECK_NEAR(m.angular_velocity.y, -0.75 * PI / 2.5, 1e-4);
    }
    /* keep_vertical: the bob is root motion too */
    {
        tdn_root_track *kv = track_of(c.clip, &(tdn_root_track_desc){ .keep_vertical = 1 });
        tdn_root_motion m;
        tdn_root_track_motion_between(kv, 0.0f, 0.25f, &m, NULL);
        CHECK_NEAR(m.translation.y, BOB, 1e-4);
        tdn_root_track_destroy(kv);
    }
    /* a different up axis: +Z up sees the bob (Y) as ground-plane travel and no yaw about Z */
    {
        tdn_root_track *zup = track_of(c.clip, &(tdn_root_track_desc){ .up = { 0, 0, 2 } });
        CHECK_NEAR(tdn_root_track_desc_of(zup).up.z, 1.0, 1e-7);
        tdn_root_motion m;
        tdn_root_track_motion_between(zup, 0.0f, 0.25f, &m, NULL);
        CHECK_NEAR(m.translation.z, 0.0, 1e-6);
        tdn_root_track_destroy(zup);
    }
    tdn_root_track_destroy(track);
    circle_free(&c);
}

/* ---- remove ---- */

/* Model-space position of `joint` with the root placed at (pos, facing) composed with the pose. */
static tdn_vec3 model_point(const tdn_skeleton *skel, const tdn_pose *pose, const tdn_mat4 *root, int joint,
                            tdn_mat4 *scratch)
{
    tdn_model_space(skel, pose, root, scratch, NULL);
    const float *m = scratch[joint].m;
    return tdn_vec3_make(m[12], m[13], m[14]);
}

static tdn_mat4 world_matrix(const world *w)
{
    tdn_transform x = tdn_transform_identity();
    x.t = tdn_vec3_make((float)w->p[0], (float)w->p[1], (float)w->p[2]);
    x.r = tdn_quat_make((float)w->q[0], (float)w->q[1], (float)w->q[2], (float)w->q[3]);
    return tdn_transform_to_mat4(&x);
}

/* After removal: the root's ground-plane translation and yaw are t = 0's at every sampled time,
 * its vertical and tilt are the sampled ones, and every joint placed by the root motion
 * integrated from t = 0 (F(0) then motion_between(0, t)) lands where the sampled pose has it. */
static void check_remove(const tdn_clip *clip, const tdn_skeleton *skel, const int *joints, int joint_count, double tol)
{
    tdn_root_track *track = track_of(clip, NULL);
    const int n = tdn_clip_joint_count(clip);
    tdn_pose sampled, removed, first;
    tdn_pose_create(n, &sampled, NULL, NULL);
    tdn_pose_create(n, &removed, NULL, NULL);
    tdn_pose_create(n, &first, NULL, NULL);
    tdn_mat4 *scratch = malloc(sizeof(tdn_mat4) * (size_t)n);
    tdn_clip_sample(clip, 0.0f, &first, NULL);
    tdn_transform x0 = tdn_pose_get(&first, 0);
    double q0[4] = { x0.r.x, x0.r.y, x0.r.z, x0.r.w };
    const float duration = tdn_clip_duration(clip);
    for (int s = 0; s <= 24; ++s) {
        const float t = duration * s / 24.0f + (s % 3 == 1 ? 0.0037f : 0.0f);
        tdn_clip_sample(clip, t, &sampled, NULL);
        tdn_pose_copy(&removed, &sampled, NULL);
        CHECK(tdn_root_motion_remove(track, &removed, NULL) == TDN_OK);
        tdn_transform xs = tdn_pose_get(&sampled, 0), xr = tdn_pose_get(&removed, 0);
        CHECK_NEAR(xr.t.x, x0.t.x, 1e-5);
        CHECK_NEAR(xr.t.z, x0.t.z, 1e-5);
        CHECK_NEAR(xr.t.y, xs.t.y, 1e-5); /* the bob stays */
        /* yaw of the removed rotation (its twist about +Y) is t = 0's */
        double qr[4] = { xr.r.x, xr.r.y, xr.r.z, xr.r.w }, qs[4] = { xs.r.x, xs.r.y, xs.r.z, xs.r.w };
        double tw_r = 2 * atan2(qr[1], qr[3]), tw_0 = 2 * atan2(q0[1], q0[3]), tw_s = 2 * atan2(qs[1], qs[3]);
        CHECK_NEAR(remainder(tw_r - tw_0, 2 * PI), 0.0, 1e-5);
        /* the tilt (twist^-1 q) is kept: compare the removed and sampled tilts */
        double inv_r[4] = { 0, -sin(tw_r / 2), 0, cos(tw_r / 2) }, inv_s[4] = { 0, -sin(tw_s / 2), 0, cos(tw_s / 2) };
        double tilt_r[4], tilt_s[4];
        qmul(inv_r, qr, tilt_r);
        qmul(inv_s, qs, tilt_s);
        tdn_quat a = tdn_quat_make((float)tilt_r[0], (float)tilt_r[1], (float)tilt_r[2], (float)tilt_r[3]);
        tdn_quat b = tdn_quat_make((float)tilt_s[0], (float)tilt_s[1], (float)tilt_s[2], (float)tilt_s[3]);
        CHECK_NEAR(check_quat_angle(a, b), 0.0, 1e-3);
        /* placed by integrated root motion: W = F(0) * motion(0 -> t), so W * F(0)^-1 * removed = sampled */
        tdn_vec3 g0;
        tdn_quat h0;
        tdn_root_track_frame(track, 0.0f, &g0, &h0);
        world w = { { g0.x, g0.y, g0.z }, { h0.x, h0.y, h0.z, h0.w } };
        tdn_root_motion m;
        tdn_root_track_motion_between(track, 0.0f, t, &m, NULL);
        world_apply(&w, &m);
        tdn_transform f0 = tdn_transform_identity();
        f0.t = g0;
        f0.r = h0;
        tdn_transform f0i = tdn_transform_inverse(&f0);
        tdn_mat4 wm = world_matrix(&w), f0m = tdn_transform_to_mat4(&f0i);
        tdn_mat4 place = tdn_mat4_mul(&wm, &f0m);
        for (int k = 0; k < joint_count; ++k) {
            tdn_vec3 expect = model_point(skel, &sampled, NULL, joints[k], scratch);
            tdn_vec3 got = model_point(skel, &removed, &place, joints[k], scratch);
            CHECK_NEAR(got.x, expect.x, tol);
            CHECK_NEAR(got.y, expect.y, tol);
            CHECK_NEAR(got.z, expect.z, tol);
            /* and without the placement the removed pose stays near its start */
            tdn_vec3 in_place = model_point(skel, &removed, NULL, joints[k], scratch);
            CHECK(fabsf(in_place.x) < 2.0f && fabsf(in_place.z) < 2.0f);
        }
    }
    free(scratch);
    tdn_pose_destroy(&sampled);
    tdn_pose_destroy(&removed);
    tdn_pose_destroy(&first);
    tdn_root_track_destroy(track);
}

static void test_remove(void)
{
    const tdn_skeleton *skel = tdn_asset_skeleton(humanoid);
    const int feet[] = { tdn_skeleton_find_joint(skel, "foot_l"), tdn_skeleton_find_joint(skel, "foot_r"),
                         tdn_skeleton_find_joint(skel, "head") };
    CHECK(feet[0] > 0 && feet[1] > 0 && feet[2] > 0);
    const char *names[] = { "walk_forward", "turn_left", "strafe_left", "run_forward" };
    for (int i = 0; i < 4; ++i) {
        tdn_clip *clip = humanoid_clip(names[i], TDN_STORAGE_AUTO);
        check_remove(clip, skel, feet, 3, 1e-4);
        tdn_clip_destroy(clip);
    }
    circle c = circle_make();
    const int foot[] = { 1 };
    check_remove(c.clip, c.skeleton, foot, 1, 1e-5);
    /* walk_forward: after removal the foot moves back and forth about a fixed place: its model
     * z spread over a lap is well under a lap's 1.4 m while the sampled foot travels 1.4 m */
    {
        tdn_clip *clip = humanoid_clip("walk_forward", TDN_STORAGE_AUTO);
        tdn_root_track *track = track_of(clip, NULL);
        tdn_pose pose;
        tdn_pose_create(tdn_clip_joint_count(clip), &pose, NULL, NULL);
        tdn_mat4 *scratch = malloc(sizeof(tdn_mat4) * (size_t)pose.joint_count);
        double lo = 1e9, hi = -1e9, first = 0, last = 0, sampled_first = 0, sampled_last = 0;
        for (int s = 0; s <= 60; ++s) {
            tdn_clip_sample(clip, s / 60.0f, &pose, NULL);
            tdn_transform root = tdn_pose_get(&pose, 0);
            CHECK(s == 0 || root.t.z > 0.0f);
            tdn_vec3 fs = model_point(skel, &pose, NULL, feet[0], scratch);
            tdn_root_motion_remove(track, &pose, NULL);
            tdn_vec3 f = model_point(skel, &pose, NULL, feet[0], scratch);
            if (s == 0)
                first = f.z, sampled_first = fs.z;
            last = f.z, sampled_last = fs.z;
            lo = f.z < lo ? f.z : lo;
            hi = f.z > hi ? f.z : hi;
        }
        printf("walk_forward foot_l z after removal: %.4f .. %.4f m\n", lo, hi);
        CHECK_NEAR(sampled_last - sampled_first, 1.4, 1e-4); /* the sampled foot lands a lap ahead */
        CHECK_NEAR(last - first, 0.0, 1e-4);                 /* the removed pose loops in place */
        CHECK(hi - lo < 1.4);
        free(scratch);
        tdn_pose_destroy(&pose);
        tdn_root_track_destroy(track);
        tdn_clip_destroy(clip);
    }
    /* FULL_ROTATION: the root's rotation becomes t = 0's; NO_ROTATION: the rotation stays */
    {
        tdn_root_track *full = track_of(c.clip, &(tdn_root_track_desc){ .rotation = TDN_ROOT_FULL_ROTATION });
        tdn_root_track *none = track_of(c.clip, &(tdn_root_track_desc){ .rotation = TDN_ROOT_NO_ROTATION });
        tdn_pose pose, at0, orig;
        tdn_pose_create(2, &pose, NULL, NULL);
        tdn_pose_create(2, &at0, NULL, NULL);
        tdn_pose_create(2, &orig, NULL, NULL);
        tdn_clip_sample(c.clip, 0.0f, &at0, NULL);
        tdn_clip_sample(c.clip, 0.6f, &orig, NULL);
        tdn_pose_copy(&pose, &orig, NULL);
        tdn_root_motion_remove(full, &pose, NULL);
        CHECK_NEAR(check_quat_angle(tdn_pose_get(&pose, 0).r, tdn_pose_get(&at0, 0).r), 0.0, 1e-5);
        tdn_pose_copy(&pose, &orig, NULL);
        tdn_root_motion_remove(none, &pose, NULL);
        CHECK_NEAR(check_quat_angle(tdn_pose_get(&pose, 0).r, tdn_pose_get(&orig, 0).r), 0.0, 1e-6);
        CHECK_NEAR(tdn_pose_get(&pose, 0).t.x, tdn_pose_get(&at0, 0).t.x, 1e-6);
        CHECK_NEAR(tdn_pose_get(&pose, 0).t.y, tdn_pose_get(&orig, 0).t.y, 1e-6);
        tdn_pose_destroy(&pose);
        tdn_pose_destroy(&at0);
        tdn_pose_destroy(&orig);
        tdn_root_track_destroy(full);
        tdn_root_track_destroy(none);
    }
    circle_free(&c);
}

/* ---- velocities ---- */

static void test_velocity(void)
{
    /* the circle: linear velocity (sin wt, 2 pi BOB cos 2 pi t, cos wt), angular w about +Y
     * (the lean is constant in the yawing frame, so the parent-frame angular velocity is w Y) */
    {
        circle c = circle_make();
        tdn_pose scratch, vel;
        tdn_pose_create(2, &scratch, NULL, NULL);
        tdn_pose_create(2, &vel, NULL, NULL);
        const float times[] = { 0.0f, 0.1f, 0.3337f, 0.5f, 0.9f, 1.0f };
        for (int i = 0; i < 6; ++i) {
            const double t = times[i];
            CHECK(tdn_clip_sample_velocity(c.clip, times[i], &scratch, &vel, NULL) == TDN_OK);
            const double tol = (i == 0 || i == 5) ? 1e-2 : 2e-3; /* one-sided at the ends: O(h) */
            CHECK_NEAR(tdn_pose_row(&vel, TDN_TX)[0], sin(OMEGA * t), tol);
            CHECK_NEAR(tdn_pose_row(&vel, TDN_TZ)[0], cos(OMEGA * t), tol);
            CHECK_NEAR(tdn_pose_row(&vel, TDN_TY)[0], 2 * PI * BOB * cos(2 * PI * t), tol);
            CHECK_NEAR(tdn_pose_row(&vel, TDN_RY)[0], OMEGA, 1e-4);
            CHECK_NEAR(tdn_pose_row(&vel, TDN_RX)[0], 0.0, 1e-4);
            CHECK_NEAR(tdn_pose_row(&vel, TDN_RZ)[0], 0.0, 1e-4);
            CHECK_NEAR(tdn_pose_row(&vel, TDN_RW)[0], 0.0, 0.0);
            CHECK_NEAR(tdn_pose_row(&vel, TDN_SX)[0], 0.0, 1e-6);
            CHECK_NEAR(tdn_pose_row(&vel, TDN_TX)[1], 0.0, 0.0); /* the still child */
            CHECK_NEAR(tdn_pose_row(&vel, TDN_TX)[2], 0.0, 0.0); /* padding */
        }
        tdn_pose_destroy(&scratch);
        tdn_pose_destroy(&vel);
        circle_free(&c);
    }
    /* the humanoid walk, every joint, against differences of the keyed clip in double over the
     * same times (float32 frames on the key grid: the runtime clip is the keyed one at its keys) */
    {
        tdn_clip *clip = humanoid_clip("walk_forward", TDN_STORAGE_FLOAT32);
        const tdn_keyed_clip *keyed = tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, "walk_forward"));
        const int n = tdn_clip_joint_count(clip);
        tdn_pose scratch, vel, ka, kb;
        tdn_pose_create(n, &scratch, NULL, NULL);
        tdn_pose_create(n, &vel, NULL, NULL);
        tdn_pose_create(n, &ka, NULL, NULL);
        tdn_pose_create(n, &kb, NULL, NULL);
        const double h = 1.0 / tdn_clip_sample_rate(clip);
        double worst_lin = 0, worst_ang = 0, root_mean = 0;
        const float times[] = { 0.0f, 0.05f, 0.2f, 1.0f / 3.0f, 0.5f, 0.61f, 0.97f, 1.0f };
        for (int i = 0; i < 8; ++i) {
            CHECK(tdn_clip_sample_velocity(clip, times[i], &scratch, &vel, NULL) == TDN_OK);
            const double a = times[i] - h > 0 ? times[i] - h : 0, b = times[i] + h < 1.0 ? times[i] + h : 1.0;
            tdn_keyed_clip_sample(keyed, (float)a, &ka, NULL, NULL);
            tdn_keyed_clip_sample(keyed, (float)b, &kb, NULL, NULL);
            for (int j = 0; j < n; ++j) {
                tdn_transform xa = tdn_pose_get(&ka, j), xb = tdn_pose_get(&kb, j);
                double lin[3] = { (xb.t.x - (double)xa.t.x) / (b - a), (xb.t.y - (double)xa.t.y) / (b - a),
                                  (xb.t.z - (double)xa.t.z) / (b - a) };
                /* angular: b * a^-1 as an angle about its axis, in double */
                double qa_inv[4] = { -xa.r.x, -xa.r.y, -xa.r.z, xa.r.w }, qb[4] = { xb.r.x, xb.r.y, xb.r.z, xb.r.w },
                       d[4];
                qmul(qb, qa_inv, d);
                if (d[3] < 0)
                    for (int k = 0; k < 4; ++k)
                        d[k] = -d[k];
                double s = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                double k = s > 1e-15 ? 2 * atan2(s, d[3]) / s / (b - a) : 2 / (b - a);
                for (int c3 = 0; c3 < 3; ++c3) {
                    double e = fabs(tdn_pose_row(&vel, TDN_TX + c3)[j] - lin[c3]);
                    worst_lin = e > worst_lin ? e : worst_lin;
                    e = fabs(tdn_pose_row(&vel, TDN_RX + c3)[j] - d[c3] * k);
                    worst_ang = e > worst_ang ? e : worst_ang;
                }
            }
            root_mean += tdn_pose_row(&vel, TDN_TZ)[0] / 8.0;
        }
        printf("walk velocities against the keyed clip: linear %.3g m/s, angular %.3g rad/s\n", worst_lin, worst_ang);
        CHECK(worst_lin < 2e-4);
        CHECK(worst_ang < 2e-3);
        CHECK_NEAR(root_mean, hdesc.walk_speed, 1e-4);
        tdn_pose_destroy(&scratch);
        tdn_pose_destroy(&vel);
        tdn_pose_destroy(&ka);
        tdn_pose_destroy(&kb);
        tdn_clip_destroy(clip);
    }
    /* tdn_pose_velocity by hand: 0.1 rad about Z and (0.3, 0, -0.2) m and scale 1 -> 1.5 in 0.5 s */
    {
        tdn_pose a, b, v;
        tdn_pose_create(3, &a, NULL, NULL);
        tdn_pose_create(3, &b, NULL, NULL);
        tdn_pose_create(3, &v, NULL, NULL);
        tdn_transform x = tdn_transform_identity();
        x.r = tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), 0.3f);
        tdn_pose_set(&a, 1, &x);
        x.r = tdn_quat_negate(tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), 0.4f)); /* the other sign */
        x.t = tdn_vec3_make(0.3f, 0.0f, -0.2f);
        x.s = tdn_vec3_make(1.5f, 1.0f, 1.0f);
        tdn_pose_set(&b, 1, &x);
        CHECK(tdn_pose_velocity(&a, &b, 0.5f, &v, NULL) == TDN_OK);
        CHECK_NEAR(tdn_pose_row(&v, TDN_RZ)[1], 0.2, 1e-5);
        CHECK_NEAR(tdn_pose_row(&v, TDN_TX)[1], 0.6, 1e-6);
        CHECK_NEAR(tdn_pose_row(&v, TDN_TZ)[1], -0.4, 1e-6);
        CHECK_NEAR(tdn_pose_row(&v, TDN_SX)[1], 1.0, 1e-6);
        CHECK_NEAR(tdn_pose_row(&v, TDN_SY)[1], 0.0, 0.0);
        CHECK_NEAR(tdn_pose_row(&v, TDN_RW)[1], 0.0, 0.0);
        CHECK(tdn_pose_velocity(&a, &b, 0.0f, &v, NULL) == TDN_OK); /* no time: zeros */
        CHECK_NEAR(tdn_pose_row(&v, TDN_TX)[1], 0.0, 0.0);
        /* in place (velocity = after) */
        CHECK(tdn_pose_velocity(&a, &b, 0.5f, &b, NULL) == TDN_OK);
        CHECK_NEAR(tdn_pose_row(&b, TDN_RZ)[1], 0.2, 1e-5);

        /* blended like the pose: weights 1 and 3 -> (v1 + 3 v2) / 4; a mask zeroing joint 1 of
         * the second input leaves joint 1 at the first's; all-zero weights take the first */
        tdn_pose v2;
        tdn_pose_create(3, &v2, NULL, NULL);
        for (int r = 0; r < TDN_POSE_ROWS; ++r)
            for (int j = 0; j < 3; ++j) {
                tdn_pose_row(&v, r)[j] = (float)(r + j);
                tdn_pose_row(&v2, r)[j] = (float)(10 * r - j);
            }
        float mask[8] = { 1, 0, 1, 0, 0, 0, 0, 0 };
        tdn_blend_input in[2] = { { &v, 1.0f, NULL }, { &v2, 3.0f, NULL } };
        tdn_pose out;
        tdn_pose_create(3, &out, NULL, NULL);
        CHECK(tdn_velocity_blend(in, 2, &out, NULL) == TDN_OK);
        CHECK_NEAR(tdn_pose_row(&out, TDN_RX)[2], (3.0 + 2.0 + 3.0 * (30.0 - 2.0)) / 4.0, 1e-5);
        CHECK_NEAR(tdn_pose_row(&out, TDN_RW)[0], (6.0 + 3.0 * 60.0) / 4.0, 1e-5); /* w is a plain row too */
        in[1].joint_weights = mask;
        CHECK(tdn_velocity_blend(in, 2, &out, NULL) == TDN_OK);
        CHECK_NEAR(tdn_pose_row(&out, TDN_TY)[1], 2.0, 1e-6);
        CHECK_NEAR(tdn_pose_row(&out, TDN_TY)[0], (1.0 + 30.0) / 4.0, 1e-5);
        in[0].weight = 0.0f;
        in[1].weight = -1.0f;
        CHECK(tdn_velocity_blend(in, 2, &out, NULL) == TDN_OK);
        CHECK_NEAR(tdn_pose_row(&out, TDN_SZ)[2], 11.0, 0.0);
        in[0].weight = 1.0f;
        CHECK(tdn_velocity_blend(in, 2, &v, NULL) == TDN_OK); /* out = an input */
        CHECK_NEAR(tdn_pose_row(&v, TDN_SZ)[2], 11.0, 0.0);
        tdn_pose_destroy(&out);
        tdn_pose_destroy(&v2);
        tdn_pose_destroy(&a);
        tdn_pose_destroy(&b);
        tdn_pose_destroy(&v);
    }
}

/* ---- blend ---- */

static tdn_root_motion motion(float x, float z, float yaw, float vz)
{
    tdn_root_motion m = { tdn_vec3_make(x, 0, z), tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), yaw),
                          tdn_vec3_make(0, 0, vz), tdn_vec3_make(0, yaw * 60.0f, 0) };
    return m;
}

static void test_blend(void)
{
    tdn_root_motion m[3] = { motion(1, 0, 0.2f, 1), motion(0, 2, 0.6f, 3), motion(5, 5, 1.0f, 9) };
    m[1].rotation = tdn_quat_negate(m[1].rotation); /* the same rotation, the other sign */
    const float w[3] = { 1.0f, 3.0f, 0.0f };
    tdn_root_motion out;
    tdn_root_motion_blend(m, w, 3, &out);
    CHECK_NEAR(out.translation.x, 0.25, 1e-6);
    CHECK_NEAR(out.translation.z, 1.5, 1e-6);
    CHECK_NEAR(out.linear_velocity.z, 2.5, 1e-6);
    CHECK_NEAR(out.angular_velocity.y, (0.25 * 0.2 + 0.75 * 0.6) * 60.0, 1e-4);
    /* nlerp by hand: 0.25 (sin .1, cos .1) + 0.75 (sin .3, cos .3), normalized */
    double sy = 0.25 * sin(0.1) + 0.75 * sin(0.3), sw = 0.25 * cos(0.1) + 0.75 * cos(0.3);
    double expect = 2 * atan2(sy, sw);
    double got[4] = { out.rotation.x, out.rotation.y, out.rotation.z, out.rotation.w };
    if (got[3] < 0)
        for (int k = 0; k < 4; ++k)
            got[k] = -got[k];
    CHECK_NEAR(yaw_of(got), expect, 1e-6);
    CHECK_NEAR(tdn_quat_dot(out.rotation, out.rotation), 1.0, 1e-6);
    /* weights need not sum to 1: x 10 gives the same */
    const float w10[3] = { 10.0f, 30.0f, 0.0f };
    tdn_root_motion out10;
    tdn_root_motion_blend(m, w10, 3, &out10);
    CHECK_NEAR(out10.translation.z, 1.5, 1e-6);
    CHECK_NEAR(check_quat_angle(out10.rotation, out.rotation), 0.0, 1e-6);
    /* NULL weights: equal thirds */
    tdn_root_motion_blend(m, NULL, 3, &out);
    CHECK_NEAR(out.translation.x, 2.0, 1e-6);
    CHECK_NEAR(out.translation.z, 7.0 / 3.0, 1e-6);
    /* NaN, negative and zero weights: the first motion */
    const float bad[3] = { NAN, -1.0f, 0.0f };
    tdn_root_motion_blend(m, bad, 3, &out);
    CHECK_NEAR(out.translation.x, 1.0, 0.0);
    CHECK_NEAR(check_quat_angle(out.rotation, m[0].rotation), 0.0, 1e-6);
    /* nothing: the identity */
    tdn_root_motion_blend(m, w, 0, &out);
    CHECK_NEAR(out.translation.x, 0.0, 0.0);
    CHECK_NEAR(out.rotation.w, 1.0, 0.0);
    /* compose: (1,0,0) turned 90 deg, then (1,0,0): (1,0,-1) turned 180 deg */
    tdn_root_motion a = motion(1, 0, (float)(PI / 2), 0), b = motion(1, 0, (float)(PI / 2), 0);
    tdn_root_motion ab = tdn_root_motion_compose(&a, &b, 2.0f);
    CHECK_NEAR(ab.translation.x, 1.0, 1e-6);
    CHECK_NEAR(ab.translation.z, -1.0, 1e-6);
    CHECK_NEAR(fabs(ab.rotation.y), 1.0, 1e-6);
    CHECK_NEAR(ab.linear_velocity.z, -0.5, 1e-6);
}

/* ---- arguments and allocation ---- */

static void test_arguments_and_memory(void)
{
    tdn_clip *clip = humanoid_clip("walk_forward", TDN_STORAGE_AUTO);
    tdn_root_track *track = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_root_track_create(NULL, NULL, &track, NULL, &err) == TDN_ERR_ARGUMENT && !track);
    CHECK(tdn_root_track_create(clip, NULL, NULL, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(tdn_root_track_create(clip, &(tdn_root_track_desc){ .joint = 67 }, &track, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "desc.joint") == 0);
    CHECK(tdn_root_track_create(clip, &(tdn_root_track_desc){ .joint = -1 }, &track, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(tdn_root_track_create(clip, &(tdn_root_track_desc){ .rotation = (tdn_root_rotation)7 }, &track, NULL, &err) ==
          TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "desc.rotation") == 0);
    CHECK(tdn_root_track_create(clip, &(tdn_root_track_desc){ .up = { 0, NAN, 0 } }, &track, NULL, &err) ==
          TDN_ERR_ARGUMENT);
    CHECK(tdn_root_track_create(clip, &(tdn_root_track_desc){ 0 }, &track, &(tdn_allocator){ count_alloc, NULL, NULL },
                                &err) == TDN_ERR_ARGUMENT);
    CHECK(!track);
    /* an additive clip is refused */
    {
        const tdn_keyed_clip *keyed = tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, "walk_forward"));
        tdn_clip *add = NULL;
        CHECK(tdn_clip_create(&(tdn_clip_desc){ .source = keyed, .additive_reference_first_frame = 1 }, &add, NULL,
                              NULL) == TDN_OK);
        CHECK(tdn_root_track_create(add, NULL, &track, NULL, &err) == TDN_ERR_UNSUPPORTED);
        tdn_clip_destroy(add);
    }

    /* built through the counting allocator: the track and a scratch pose while building, then one
     * block; motions, removal, velocities and blends allocate nothing */
    CHECK(tdn_root_track_create(clip, &(tdn_root_track_desc){ 0 }, &track, &counting, &err) == TDN_OK);
    CHECK_EQ_INT(live_blocks, 1);
    tdn_pose pose, scratch, vel;
    tdn_pose_create(tdn_clip_joint_count(clip), &pose, &counting, NULL);
    tdn_pose_create(tdn_clip_joint_count(clip), &scratch, &counting, NULL);
    tdn_pose_create(tdn_clip_joint_count(clip), &vel, &counting, NULL);
    const long blocks = live_blocks;
    allocations_before_failure = 0; /* any allocation would now fail, and be counted */
    tdn_player p = tdn_player_make(tdn_clip_duration(clip), TDN_WRAP_LOOP);
    tdn_root_motion m, ms[2];
    for (int i = 0; i < 200; ++i) {
        tdn_player_advance(&p, 1.0f / 30.0f);
        CHECK(tdn_root_track_motion(track, &p, 1.0f / 30.0f, &m, NULL) == TDN_OK);
        ms[i % 2] = m;
        tdn_clip_sample(clip, p.time, &pose, NULL);
        CHECK(tdn_root_motion_remove(track, &pose, NULL) == TDN_OK);
        CHECK(tdn_clip_sample_velocity(clip, p.time, &scratch, &vel, NULL) == TDN_OK);
    }
    tdn_root_motion_blend(ms, NULL, 2, &m);
    CHECK_EQ_INT(live_blocks, blocks);
    allocations_before_failure = -1;

    /* bad arguments at run time */
    CHECK(tdn_root_track_motion(NULL, &p, 0.1f, &m, NULL) == TDN_ERR_ARGUMENT);
    CHECK_NEAR(m.rotation.w, 1.0, 0.0);
    CHECK(tdn_root_track_motion(track, NULL, 0.1f, &m, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_root_track_motion(track, &p, 0.1f, NULL, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_root_track_motion_between(NULL, 0, 1, &m, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_root_motion_remove(track, NULL, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_root_motion_remove(NULL, &pose, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_clip_sample_velocity(clip, 0.0f, &vel, &vel, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_clip_sample_velocity(NULL, 0.0f, &scratch, &vel, NULL) == TDN_ERR_ARGUMENT);
    CHECK(tdn_velocity_blend(NULL, 1, &vel, NULL) == TDN_ERR_ARGUMENT);
    {
        tdn_pose small;
        tdn_pose_create(2, &small, NULL, NULL);
        CHECK(tdn_root_motion_remove(track, &small, NULL) == TDN_ERR_ARGUMENT);
        CHECK(tdn_clip_sample_velocity(clip, 0.0f, &scratch, &small, NULL) == TDN_ERR_ARGUMENT);
        CHECK(tdn_pose_velocity(&pose, &small, 1.0f, &vel, NULL) == TDN_ERR_ARGUMENT);
        tdn_blend_input in[2] = { { &pose, 1.0f, NULL }, { &small, 1.0f, NULL } };
        CHECK(tdn_velocity_blend(in, 2, &vel, NULL) == TDN_ERR_ARGUMENT);
        CHECK(tdn_velocity_blend(in, 0, &vel, NULL) == TDN_ERR_ARGUMENT);
        tdn_pose_destroy(&small);
    }
    /* non-finite times stay finite: NaN clamps to 0 */
    CHECK(tdn_root_track_motion_between(track, NAN, INFINITY, &m, NULL) == TDN_OK);
    CHECK(isfinite(m.translation.z) && isfinite(m.rotation.w));
    CHECK_NEAR(m.translation.z, 1.4, 1e-3);
    CHECK(tdn_root_track_motion(track, &p, NAN, &m, NULL) == TDN_OK);
    CHECK_NEAR(m.linear_velocity.z, 0.0, 0.0);
    CHECK(tdn_clip_sample_velocity(clip, NAN, &scratch, &vel, NULL) == TDN_OK);
    CHECK(isfinite(tdn_pose_row(&vel, TDN_TZ)[0]));

    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&scratch);
    tdn_pose_destroy(&vel);
    tdn_root_track_destroy(track);
    CHECK_EQ_INT(live_blocks, 0);
    CHECK_EQ_INT(live_bytes, 0);
    /* failing allocations: the track's block, then the scratch pose */
    for (long fail = 0; fail < 2; ++fail) {
        allocations_before_failure = fail;
        track = (tdn_root_track *)1;
        CHECK(tdn_root_track_create(clip, &(tdn_root_track_desc){ 0 }, &track, &counting, &err) ==
              TDN_ERR_OUT_OF_MEMORY);
        CHECK(track == NULL);
        CHECK_EQ_INT(live_blocks, 0);
    }
    allocations_before_failure = -1;
    tdn_root_track_destroy(NULL);
    tdn_clip_destroy(clip);
}

/* A zero-length clip: no motion, zero velocities. */
static void test_zero_length(void)
{
    tdn_skeleton *skel = NULL;
    const int parent[1] = { -1 };
    CHECK(tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 1, .parents = parent }, &skel, NULL, NULL) ==
          TDN_OK);
    const float t[1] = { 0 }, v[3] = { 1, 2, 3 };
    const tdn_track_desc tr = { 0, TDN_TARGET_TRANSLATION, TDN_INTERP_LINEAR, 1, t, v };
    tdn_keyed_clip *keyed = NULL;
    CHECK(tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .skeleton = skel, .tracks = &tr, .track_count = 1 }, &keyed,
                                NULL, NULL) == TDN_OK);
    tdn_clip *clip = NULL;
    CHECK(tdn_clip_create(&(tdn_clip_desc){ .source = keyed }, &clip, NULL, NULL) == TDN_OK);
    tdn_root_track *track = track_of(clip, NULL);
    tdn_player p = tdn_player_make(0.0f, TDN_WRAP_LOOP);
    tdn_player_advance(&p, 0.5f);
    tdn_root_motion m;
    CHECK(tdn_root_track_motion(track, &p, 0.5f, &m, NULL) == TDN_OK);
    CHECK_NEAR(tdn_vec3_length(m.translation), 0.0, 0.0);
    tdn_vec3 g;
    tdn_root_track_frame(track, 0.0f, &g, NULL);
    CHECK_NEAR(g.x, 1.0, 0.0);
    CHECK_NEAR(g.y, 0.0, 0.0); /* the vertical is not root motion */
    tdn_pose s, vel;
    tdn_pose_create(1, &s, NULL, NULL);
    tdn_pose_create(1, &vel, NULL, NULL);
    CHECK(tdn_clip_sample_velocity(clip, 0.0f, &s, &vel, NULL) == TDN_OK);
    CHECK_NEAR(tdn_pose_row(&vel, TDN_TX)[0], 0.0, 0.0);
    tdn_pose_destroy(&s);
    tdn_pose_destroy(&vel);
    tdn_root_track_destroy(track);
    tdn_clip_destroy(clip);
    tdn_keyed_clip_destroy(keyed);
    tdn_skeleton_destroy(skel);
}

int main(void)
{
    tdn_error err = { 0 };
    if (tdn_humanoid_create(&hdesc, &humanoid, NULL, &err) != TDN_OK) {
        fprintf(stderr, "humanoid: %s: %s\n", err.where, err.message);
        return 1;
    }
    RUN(test_walk_forward_loops);
    RUN(test_turn_left);
    RUN(test_circle);
    RUN(test_remove);
    RUN(test_velocity);
    RUN(test_blend);
    RUN(test_arguments_and_memory);
    RUN(test_zero_length);
    tdn_asset_destroy(humanoid);
    return check_summary();
}
