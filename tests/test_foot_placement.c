/* Foot placement (foot_placement.h) on tendon's humanoid: its walk_forward and idle clips
 * sampled from runtime clips, with their contact_l / contact_r curves, root motion taken out of
 * the pose and integrated into the character's world matrix, over grounds given by callbacks
 * whose hits are computed here (planes exactly, height fields by bisection along the ray).
 * What is checked is measured in world space against those grounds: ankle and ball-of-foot
 * distances to the plane, foot tilt against the normal, per-frame motion, and the foot
 * skate of docs/metrics.md (mean horizontal ankle speed while the clip's contact curve says 1, cm/s). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "tendon/io/humanoid.h"
#include "tendon/io/asset.h"

#define DEG (3.14159265358979 / 180.0)

static tdn_asset *humanoid;
static const tdn_skeleton *skel;
static int joint_count;
static int pelvis_j, thigh[2], calf[2], foot_j[2], toe_j[2];
static tdn_clip *walk_clip, *idle_clip;
static tdn_root_track *walk_track;

/* ---- grounds (world space) ---- */

typedef struct plane_ground {
    tdn_vec3 point, normal; /* normal unit, facing up */
    int calls;
} plane_ground;

static int plane_query(void *user, tdn_vec3 from, tdn_vec3 dir, float max_distance, tdn_vec3 *hit, tdn_vec3 *normal)
{
    plane_ground *g = user;
    g->calls++;
    double denom = (double)tdn_vec3_dot(dir, g->normal);
    if (!(denom < 0.0))
        return 0;
    double t = (double)tdn_vec3_dot(tdn_vec3_sub(g->point, from), g->normal) / denom;
    if (t < 0.0 || t > max_distance)
        return 0;
    *hit = tdn_vec3_add(from, tdn_vec3_scale(dir, (float)t));
    *normal = g->normal;
    return 1;
}

/* Height fields y = f(x, z), normal from the gradient; the hit found by bisection along the ray
 * (any direction), so no assumption about the solver's ray is built in. */
typedef double (*height_fn)(const void *self, double x, double z, double *dfdx, double *dfdz);

typedef struct field_ground {
    height_fn f;
    /* sine bumps: amplitude * sin(2 pi x / lx) * sin(2 pi z / lz) */
    double amplitude, lx, lz;
    /* stairs along +z: height steps[i] from z >= edges[i] */
    int step_count;
    double edges[4], heights[4];
    int calls;
} field_ground;

static double sine_height(const void *self, double x, double z, double *dfdx, double *dfdz)
{
    const field_ground *g = self;
    const double kx = 2.0 * 3.14159265358979 / g->lx, kz = 2.0 * 3.14159265358979 / g->lz;
    *dfdx = g->amplitude * kx * cos(kx * x) * sin(kz * z);
    *dfdz = g->amplitude * kz * sin(kx * x) * cos(kz * z);
    return g->amplitude * sin(kx * x) * sin(kz * z);
}

static double stairs_height(const void *self, double x, double z, double *dfdx, double *dfdz)
{
    (void)x;
    const field_ground *g = self;
    double h = 0.0;
    for (int i = 0; i < g->step_count; i++)
        if (z >= g->edges[i])
            h = g->heights[i];
    *dfdx = *dfdz = 0.0;
    return h;
}

static int field_query(void *user, tdn_vec3 from, tdn_vec3 dir, float max_distance, tdn_vec3 *hit, tdn_vec3 *normal)
{
    field_ground *g = user;
    g->calls++;
    double gx, gz;
    double lo = 0.0, hi = max_distance;
#define ABOVE(t) \
  ((double)from.y + (t)*dir.y - g->f(g, (double)from.x + (t)*dir.x, (double)from.z + (t)*dir.z, &gx, &gz))
    if (ABOVE(lo) < 0.0 || ABOVE(hi) > 0.0)
        return 0;
    for (int i = 0; i < 60; i++) {
        double mid = 0.5 * (lo + hi);
        if (ABOVE(mid) > 0.0)
            lo = mid;
        else
            hi = mid;
    }
#undef ABOVE
    double t = 0.5 * (lo + hi);
    double x = from.x + t * dir.x, z = from.z + t * dir.z;
    double y = g->f(g, x, z, &gx, &gz);
    double len = sqrt(gx * gx + 1.0 + gz * gz);
    *hit = tdn_vec3_make((float)x, (float)y, (float)z);
    *normal = tdn_vec3_make((float)(-gx / len), (float)(1.0 / len), (float)(-gz / len));
    return 1;
}

static int no_ground(void *user, tdn_vec3 from, tdn_vec3 dir, float max_distance, tdn_vec3 *hit, tdn_vec3 *normal)
{
    (void)user, (void)from, (void)dir, (void)max_distance, (void)hit, (void)normal;
    return 0;
}

/* ---- the character ---- */

typedef struct character {
    const tdn_clip *clip;
    const tdn_root_track *track; /* NULL: no root motion (idle) */
    tdn_player player;
    tdn_vec3 position;
    tdn_quat facing;
    float scale; /* of the world matrix (uniform) */
    tdn_mat4 world;
    tdn_pose pose;
    tdn_mat4 *model;
    int contact_track[2];
    float contact[2];
} character;

static void character_place(character *c)
{
    tdn_transform x = { c->position, c->facing, { c->scale, c->scale, c->scale } };
    c->world = tdn_transform_to_mat4(&x);
}

static void character_init(character *c, const tdn_clip *clip, const tdn_root_track *track, tdn_vec3 position,
                           float yaw)
{
    memset(c, 0, sizeof *c);
    c->clip = clip;
    c->track = track;
    c->player = tdn_player_make(tdn_clip_duration(clip), TDN_WRAP_LOOP);
    c->position = position;
    c->facing = tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), yaw);
    c->scale = 1.0f;
    tdn_pose_create(joint_count, &c->pose, NULL, NULL);
    c->model = malloc(sizeof *c->model * (size_t)joint_count);
    c->contact_track[0] = tdn_clip_find_float_track(clip, "contact_l");
    c->contact_track[1] = tdn_clip_find_float_track(clip, "contact_r");
    CHECK(c->contact_track[0] >= 0 && c->contact_track[1] >= 0);
}

static void character_free(character *c)
{
    tdn_pose_destroy(&c->pose);
    free(c->model);
}

/* Samples the clip at the player's time, moves the world matrix by the root motion of the
 * last advance (dt > 0) and takes it out of the pose, computes model space. */
static void character_pose(character *c, float dt)
{
    if (dt > 0.0f)
        tdn_player_advance(&c->player, dt);
    tdn_clip_sample(c->clip, c->player.time, &c->pose, NULL);
    if (c->track) {
        if (dt > 0.0f) {
            tdn_root_motion m;
            tdn_root_track_motion(c->track, &c->player, dt, &m, NULL);
            c->position = tdn_vec3_add(c->position,
                                       tdn_vec3_scale(tdn_quat_rotate(c->facing, m.translation), c->scale));
            c->facing = tdn_quat_normalize(tdn_quat_mul(c->facing, m.rotation));
        }
        tdn_root_motion_remove(c->track, &c->pose, NULL);
    }
    character_place(c);
    tdn_model_space(skel, &c->pose, NULL, c->model, NULL);
    for (int f = 0; f < 2; f++)
        c->contact[f] = tdn_clip_sample_float(c->clip, c->contact_track[f], c->player.time);
}

static tdn_vec3 world_of(const character *c, int joint)
{
    tdn_vec3 p = tdn_vec3_make(c->model[joint].m[12], c->model[joint].m[13], c->model[joint].m[14]);
    return tdn_mat4_transform_point(&c->world, p);
}

static tdn_quat model_rotation(const character *c, int joint) { return tdn_transform_from_mat4(&c->model[joint]).r; }

static tdn_foot_placement_desc humanoid_desc(void)
{
    tdn_foot_placement_desc d;
    memset(&d, 0, sizeof d);
    d.skeleton = skel;
    d.leg_count = 2;
    for (int f = 0; f < 2; f++) {
        d.legs[f].upper = thigh[f];
        d.legs[f].middle = calf[f];
        d.legs[f].end = foot_j[f];
    }
    return d;
}

static tdn_foot_placement *make_fp(const tdn_foot_placement_desc *d)
{
    tdn_foot_placement *fp = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_foot_placement_create(d, &fp, NULL, &err), TDN_OK))
        fprintf(stderr, "%s: %s\n", err.where, err.message);
    return fp;
}

static tdn_result solve(tdn_foot_placement *fp, character *c, tdn_ground_query ground, void *user, float dt,
                        float weight, tdn_foot_placement_report *report)
{
    tdn_foot_placement_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.dt = dt;
    frame.world = &c->world;
    frame.ground = ground;
    frame.ground_user = user;
    frame.contact[0] = c->contact[0];
    frame.contact[1] = c->contact[1];
    frame.weight = weight;
    return tdn_foot_placement_solve(fp, &frame, &c->pose, c->model, report, NULL);
}

static double dist_to_plane(tdn_vec3 p, const plane_ground *g)
{
    return (double)tdn_vec3_dot(tdn_vec3_sub(p, g->point), g->normal);
}

static double hdist(tdn_vec3 a, tdn_vec3 b)
{
    double dx = (double)a.x - b.x, dz = (double)a.z - b.z;
    return sqrt(dx * dx + dz * dz);
}

/* ---- tests ---- */

static const float DT = 1.0f / 60.0f;

/* The largest distance between the joints of two model-space arrays. */
static double largest_joint_difference(const tdn_mat4 *a, const tdn_mat4 *b)
{
    double worst = 0.0;
    for (int j = 0; j < joint_count; j++) {
        double d2 = 0.0;
        for (int k = 12; k < 15; k++)
            d2 += ((double)a[j].m[k] - b[j].m[k]) * ((double)a[j].m[k] - b[j].m[k]);
        worst = fmax(worst, sqrt(d2));
    }
    return worst;
}

/* Flat ground at the animation's own ground: the walk already fits, so the solve (locks
 * included) moves no joint by 1 mm or more; without locks by far less. */
static void test_flat_walk_unchanged(void)
{
    for (int lock = 0; lock < 2; lock++) {
        tdn_foot_placement_desc d = humanoid_desc();
        d.lock_distance = lock ? 0.0f : -1.0f;
        tdn_foot_placement *fp = make_fp(&d);
        plane_ground g = { { 0, 0, 0 }, { 0, 1, 0 }, 0 };
        character c;
        character_init(&c, walk_clip, walk_track, tdn_vec3_make(0.5f, 0, -1), 0.6f);
        tdn_mat4 *before = malloc(sizeof *before * (size_t)joint_count);
        double worst = 0.0, worst_pelvis = 0.0;
        int locked_frames = 0, frames = 240;
        for (int i = 0; i < frames; i++) {
            character_pose(&c, i ? DT : 0.0f);
            memcpy(before, c.model, sizeof *before * (size_t)joint_count);
            tdn_foot_placement_report rep;
            CHECK_EQ_INT(solve(fp, &c, plane_query, &g, i ? DT : 0.0f, 1.0f, &rep), TDN_OK);
            worst = fmax(worst, largest_joint_difference(before, c.model));
            worst_pelvis = fmax(worst_pelvis, fabs(rep.pelvis_offset));
            locked_frames += rep.legs[0].locked + rep.legs[1].locked;
        }
        printf("flat walk, locks %s: largest joint change %.4f mm (pelvis offset %.4f mm), %d of %d foot-frames "
               "locked\n",
               lock ? "on " : "off", 1000.0 * worst, 1000.0 * worst_pelvis, locked_frames, 2 * frames);
        CHECK(worst < 1e-3);
        CHECK(worst_pelvis < 1e-3);
        if (!lock)
            CHECK(worst < 1e-4);
        else
            CHECK(locked_frames > frames); /* the duty factor 0.6: 1.2 feet down on average */
        CHECK(g.calls == 2 * frames);
        free(before);
        character_free(&c);
        tdn_foot_placement_destroy(fp);
    }
}

/* The idle pose on a plane (world), the character placed off the origin and turned: settled,
 * each ankle lies its rest height (0.06) from the plane and each ball of the foot its own
 * (0.01), the feet turned from up onto the normal (within the 30 degree limit), the pelvis
 * lowered by what the lower ankle needs and no more. */
static void idle_on_plane(const char *label, tdn_vec3 normal, float max_tilt, double expect_tilt, float scale)
{
    tdn_foot_placement_desc d = humanoid_desc();
    d.max_tilt = max_tilt;
    tdn_foot_placement *fp = make_fp(&d);
    character c;
    character_init(&c, idle_clip, NULL, tdn_vec3_make(2.0f, 0.3f, -1.0f), 35.0f * (float)DEG);
    c.scale = scale;
    plane_ground g = { { 2.0f, 0.3f, -1.0f }, tdn_vec3_normalize(normal), 0 };
    tdn_foot_placement_report rep;
    tdn_quat anim_foot[2];
    tdn_vec3 anim_ankle[2];
    for (int i = 0; i < 120; i++) {
        character_pose(&c, i ? DT : 0.0f);
        for (int f = 0; f < 2; f++) {
            anim_foot[f] = model_rotation(&c, foot_j[f]);
            anim_ankle[f] = world_of(&c, foot_j[f]);
        }
        CHECK_EQ_INT(solve(fp, &c, plane_query, &g, DT, 1.0f, &rep), TDN_OK);
    }
    const double rest_ankle = scale * (tdn_skeleton_rest(skel, foot_j[0]).t.y + tdn_skeleton_rest(skel, calf[0]).t.y +
                                       tdn_skeleton_rest(skel, thigh[0]).t.y + tdn_skeleton_rest(skel, pelvis_j).t.y);
    const double rest_toe = rest_ankle + scale * tdn_skeleton_rest(skel, toe_j[0]).t.y;
    double worst_ankle = 0.0, worst_toe = 0.0, worst_align = 0.0, worst_tilt = 0.0;
    for (int f = 0; f < 2; f++) {
        double ankle = dist_to_plane(world_of(&c, foot_j[f]), &g), toe = dist_to_plane(world_of(&c, toe_j[f]), &g);
        worst_ankle = fmax(worst_ankle, fabs(ankle - rest_ankle));
        worst_toe = fmax(worst_toe, fabs(toe - rest_toe));
        /* The foot's turn in the world: its new model rotation against the animated one. */
        tdn_quat turn = tdn_quat_mul(model_rotation(&c, foot_j[f]), tdn_quat_conjugate(anim_foot[f]));
        tdn_vec3 foot_up = tdn_quat_rotate(c.facing, tdn_quat_rotate(turn, tdn_vec3_make(0, 1, 0)));
        double tilt = acos(fmin(1.0, (double)foot_up.y));
        double to_normal = acos(fmin(1.0, (double)tdn_vec3_dot(foot_up, g.normal)));
        worst_tilt = fmax(worst_tilt, fabs(tilt - expect_tilt));
        worst_align = fmax(worst_align, to_normal);
        CHECK_NEAR(rep.legs[f].tilt, expect_tilt, 1e-4);
        CHECK(rep.legs[f].reached);
        CHECK(rep.legs[f].ground_hit);
        /* along the ground the ankle stays where it was animated, but for the turn */
        CHECK(hdist(world_of(&c, foot_j[f]), anim_ankle[f]) < rest_ankle * sin(expect_tilt) + 1e-3);
        CHECK_NEAR(rest_ankle, scale * 0.06, 1e-6);
    }
    const double slope = acos((double)g.normal.y);
    printf(
        "idle on %s (slope %.2f deg, limit %.1f deg, world scale %.1f): ankle-to-plane minus rest %.4f mm, ball of foot %.4f mm, "
        "foot tilt %.3f deg (off by %.2e), from the normal %.3f deg, pelvis %.2f cm\n",
        label, slope / DEG, max_tilt / DEG, scale, 1000.0 * worst_ankle, 1000.0 * worst_toe, expect_tilt / DEG,
        worst_tilt / DEG, worst_align / DEG, 100.0 * rep.pelvis_offset);
    /* the ankle lies its animated (rest) height from the hit along the limited normal: from the
     * plane that is rest * cos(slope - tilt), the rest height itself when the foot is aligned */
    CHECK(worst_ankle < 1e-3);
    const double slope_ = acos((double)g.normal.y);
    for (int f = 0; f < 2; f++)
        CHECK_NEAR(dist_to_plane(world_of(&c, foot_j[f]), &g), rest_ankle * cos(slope_ - expect_tilt), 1e-4);
    CHECK(worst_tilt < 0.05 * DEG);
    if (expect_tilt >= slope - 1e-6) {
        CHECK(worst_toe < 1e-3); /* the sole lies on the plane */
        CHECK(worst_align < 0.05 * DEG);
    } else {
        CHECK_NEAR(worst_align, slope - expect_tilt, 0.05 * DEG);
    }
    CHECK(rep.pelvis_offset <= 0.0f);
    character_free(&c);
    tdn_foot_placement_destroy(fp);
}

static void test_idle_slopes(void)
{
    /* 10 degrees, falling towards world (1, 0, 2) (across the character's feet and along them) */
    tdn_vec3 dir = tdn_vec3_normalize(tdn_vec3_make(1, 0, 2));
    const float s10 = 10.0f * (float)DEG, s40 = 40.0f * (float)DEG;
    tdn_vec3 n10 = tdn_vec3_add(tdn_vec3_scale(dir, sinf(s10)), tdn_vec3_make(0, cosf(s10), 0));
    tdn_vec3 n40 = tdn_vec3_add(tdn_vec3_scale(dir, sinf(s40)), tdn_vec3_make(0, cosf(s40), 0));
    idle_on_plane("flat", tdn_vec3_make(0, 1, 0), 0.0f, 0.0, 1.0f);
    idle_on_plane("a 10 degree slope", n10, 0.0f, 10.0 * DEG, 1.0f);
    idle_on_plane("a 10 degree slope", n10, 0.0f, 10.0 * DEG, 1.5f); /* a bigger character */
    idle_on_plane("a 40 degree slope", n40, 0.0f, 30.0 * DEG, 1.0f); /* limited to the default 30 */
    idle_on_plane("a 10 degree slope, limit 4", n10, 4.0f * (float)DEG, 4.0 * DEG, 1.0f);
}

/* The idle pose with a 15 cm step between its feet (the step's edge along the character's
 * facing): once settled both ankles stand their rest height above the ground under them; a
 * step up leaves the pelvis where it was animated (it is never raised), a step down lowers it
 * by the step; the raised or kept leg's knee bends forward. */
static void test_idle_step(void)
{
    for (int k = 0; k < 2; k++) {
        const double step = k == 0 ? 0.15 : -0.15;
        tdn_foot_placement_desc d = humanoid_desc();
        tdn_foot_placement *fp = make_fp(&d);
        /* facing +X: the left foot (model +X) at world z < 0, the right at z > 0 */
        field_ground g;
        memset(&g, 0, sizeof g);
        g.f = stairs_height;
        g.step_count = 1;
        g.edges[0] = 0.0;
        g.heights[0] = step;
        character c;
        character_init(&c, idle_clip, NULL, tdn_vec3_make(1.0f, 0.0f, 0.0f), 90.0f * (float)DEG);
        tdn_foot_placement_report rep;
        double anim_pelvis = 0.0;
        for (int i = 0; i < 120; i++) {
            character_pose(&c, i ? DT : 0.0f);
            anim_pelvis = world_of(&c, pelvis_j).y;
            CHECK_EQ_INT(solve(fp, &c, field_query, &g, DT, 1.0f, &rep), TDN_OK);
        }
        double worst = 0.0, knee_forward = 1.0;
        tdn_vec3 facing = tdn_quat_rotate(c.facing, tdn_vec3_make(0, 0, 1));
        for (int f = 0; f < 2; f++) {
            tdn_vec3 ankle = world_of(&c, foot_j[f]);
            double gx, gz, ground = stairs_height(&g, ankle.x, ankle.z, &gx, &gz);
            CHECK((f == 1) == (ground != 0.0)); /* the right foot is the one on the step */
            worst = fmax(worst, fabs(ankle.y - ground - 0.06));
            /* the knee in front of the hip-ankle line */
            tdn_vec3 hip = world_of(&c, thigh[f]), knee = world_of(&c, calf[f]);
            tdn_vec3 line = tdn_vec3_normalize(tdn_vec3_sub(ankle, hip)), to_knee = tdn_vec3_sub(knee, hip);
            tdn_vec3 side = tdn_vec3_sub(to_knee, tdn_vec3_scale(line, tdn_vec3_dot(to_knee, line)));
            knee_forward = fmin(knee_forward, (double)tdn_vec3_dot(side, facing));
        }
        const double pelvis_drop = world_of(&c, pelvis_j).y - anim_pelvis;
        CHECK(rep.legs[0].reached && rep.legs[1].reached);
        printf("idle on a %+.0f cm step: ankles above the ground minus rest %.4f mm, pelvis moved %.3f cm, knees "
               "%.1f cm or more in front of the hip-ankle line\n",
               100.0 * step, 1000.0 * worst, 100.0 * pelvis_drop, 100.0 * knee_forward);
        CHECK(worst < 1e-3);
        CHECK_NEAR(pelvis_drop, step < 0.0 ? step : 0.0, 1e-3);
        CHECK(knee_forward > 0.0);
        character_free(&c);
        tdn_foot_placement_destroy(fp);
    }
}

/* Per-frame motion of a walk: the largest change per frame of the pelvis height and of each
 * ankle's position (world), and the foot skate (docs/metrics.md: mean horizontal ankle speed
 * while the contact curve says 1, both frames of a step in contact), cm/s. */
typedef struct walk_stats {
    double pelvis_step, ankle_step[2];
    double skate_cm_s;
    double ankle_rise[2]; /* largest per-frame change of an ankle's height */
    int unreached;        /* leg-frames in contact whose IK did not reach its target */
    int unreached_air;    /* the same in the air */
    double worst_planted; /* largest |ankle above the field at it - animated height| in contact */
    double worst_turn;    /* largest angle a foot was turned from its animated model rotation */
} walk_stats;

static walk_stats run_walk(const tdn_foot_placement_desc *d, tdn_ground_query ground, void *user, int frames)
{
    walk_stats w;
    memset(&w, 0, sizeof w);
    tdn_foot_placement *fp = d ? make_fp(d) : NULL;
    character c;
    character_init(&c, walk_clip, walk_track, tdn_vec3_make(0.0f, 0.0f, -0.5f), 0.0f);
    tdn_vec3 prev_ankle[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
    double prev_pelvis = 0.0, slide = 0.0, contact_time = 0.0;
    float prev_contact[2] = { 0, 0 };
    for (int i = 0; i < frames; i++) {
        character_pose(&c, i ? DT : 0.0f);
        double anim_height[2];
        tdn_quat anim_foot[2];
        for (int f = 0; f < 2; f++) {
            anim_height[f] = world_of(&c, foot_j[f]).y - c.position.y;
            anim_foot[f] = model_rotation(&c, foot_j[f]);
        }
        tdn_foot_placement_report rep;
        if (fp) {
            CHECK_EQ_INT(solve(fp, &c, ground, user, i ? DT : 0.0f, 1.0f, &rep), TDN_OK);
            for (int f = 0; f < 2; f++) {
                w.worst_turn = fmax(w.worst_turn, check_quat_angle(model_rotation(&c, foot_j[f]), anim_foot[f]));
                if (c.contact[f] == 1.0f)
                    w.unreached += !rep.legs[f].reached;
                else
                    w.unreached_air += !rep.legs[f].reached;
            }
        }
        double pelvis = world_of(&c, pelvis_j).y;
        for (int f = 0; f < 2; f++) {
            tdn_vec3 ankle = world_of(&c, foot_j[f]);
            if (i > 0) {
                w.ankle_step[f] = fmax(w.ankle_step[f], tdn_vec3_length(tdn_vec3_sub(ankle, prev_ankle[f])));
                w.ankle_rise[f] = fmax(w.ankle_rise[f], fabs((double)ankle.y - prev_ankle[f].y));
                if (c.contact[f] == 1.0f && prev_contact[f] == 1.0f) {
                    slide += hdist(ankle, prev_ankle[f]);
                    contact_time += DT;
                }
            }
            if (c.contact[f] == 1.0f && fp && user) {
                const field_ground *fg = user;
                double gx, gz, under = fg->f(fg, ankle.x, ankle.z, &gx, &gz);
                w.worst_planted = fmax(w.worst_planted,
                                       fabs(ankle.y - under - anim_height[f] * sqrt(1.0 + gx * gx + gz * gz)));
            }
            prev_ankle[f] = ankle;
            prev_contact[f] = c.contact[f];
        }
        if (i > 0)
            w.pelvis_step = fmax(w.pelvis_step, fabs(pelvis - prev_pelvis));
        prev_pelvis = pelvis;
    }
    w.skate_cm_s = contact_time > 0.0 ? 100.0 * slide / contact_time : 0.0;
    character_free(&c);
    tdn_foot_placement_destroy(fp);
    return w;
}

/* Walking 5 s (7 m) over a 15 cm step up, back down, and a 15 cm step down. The walk's own
 * largest per-frame changes (on flat ground, no solve) are the yardstick, in the manner of
 * the pop metric's bound (docs/metrics.md, pop): the largest per-frame change over the steps stays within the
 * walk's own plus twice the step spread evenly over one step's frames (half a cycle; easing
 * curves peak at 1.5-1.9x an even spread). Springs with a negligible half-life (a snap) break
 * that bound, which shows it catches jumps. */
static void test_walk_stairs(void)
{
    const int frames = 300;
    walk_stats flat = run_walk(NULL, NULL, NULL, frames);
    field_ground g;
    memset(&g, 0, sizeof g);
    g.f = stairs_height;
    g.step_count = 3;
    g.edges[0] = 1.0, g.heights[0] = 0.15;
    g.edges[1] = 2.6, g.heights[1] = 0.0;
    g.edges[2] = 4.2, g.heights[2] = -0.15;
    tdn_foot_placement_desc d = humanoid_desc();
    walk_stats stairs = run_walk(&d, field_query, &g, frames);
    d.half_life = d.pelvis_half_life = 1e-4f;
    walk_stats snap = run_walk(&d, field_query, &g, frames);
    const double spread = 2.0 * 0.15 / (0.5 / DT); /* twice 15 cm over the 30 frames of a step */
    printf("walk over 15 cm steps, largest per-frame change (mm), flat / steps / snapping springs: pelvis height "
           "%.2f / %.2f / %.2f (bound %.2f); left ankle %.2f / %.2f / %.2f, right %.2f / %.2f / %.2f (bound %.2f); "
           "of that along up %.2f / %.2f / %.2f and %.2f / %.2f / %.2f\n",
           1000.0 * flat.pelvis_step, 1000.0 * stairs.pelvis_step, 1000.0 * snap.pelvis_step,
           1000.0 * (flat.pelvis_step + spread), 1000.0 * flat.ankle_step[0], 1000.0 * stairs.ankle_step[0],
           1000.0 * snap.ankle_step[0], 1000.0 * flat.ankle_step[1], 1000.0 * stairs.ankle_step[1],
           1000.0 * snap.ankle_step[1], 1000.0 * (fmax(flat.ankle_step[0], flat.ankle_step[1]) + spread),
           1000.0 * flat.ankle_rise[0], 1000.0 * stairs.ankle_rise[0], 1000.0 * snap.ankle_rise[0],
           1000.0 * flat.ankle_rise[1], 1000.0 * stairs.ankle_rise[1], 1000.0 * snap.ankle_rise[1]);
    printf("  legs short of their target: %d leg-frames in contact, %d in the air (of %d); a planted ankle's height "
           "off its animated height above the step, at worst %.2f mm (a foot landing just past an edge settles "
           "while planted)\n",
           stairs.unreached, stairs.unreached_air, 2 * frames, 1000.0 * stairs.worst_planted);
    CHECK(stairs.pelvis_step <= flat.pelvis_step + spread);
    CHECK(snap.pelvis_step > flat.pelvis_step + spread);
    const double own = fmax(flat.ankle_step[0], flat.ankle_step[1]);
    for (int f = 0; f < 2; f++) {
        CHECK(stairs.ankle_step[f] <= own + spread);
        CHECK(snap.ankle_step[f] > own + spread);
    }
    CHECK_EQ_INT(stairs.unreached, 0);
}

/* The foot skate (docs/metrics.md) of the walk over sine bumps (5 cm high, 1.7 m by 1.3 m), with
 * and without foot locking; the animation's own on flat ground for comparison. */
static void test_skate(void)
{
    const int frames = 360;
    field_ground g;
    memset(&g, 0, sizeof g);
    g.f = sine_height;
    g.amplitude = 0.05;
    g.lx = 1.7;
    g.lz = 1.3;
    walk_stats flat = run_walk(NULL, NULL, NULL, frames);
    tdn_foot_placement_desc d = humanoid_desc();
    d.lock_distance = -1.0f;
    walk_stats unlocked = run_walk(&d, field_query, &g, frames);
    d.lock_distance = 0.0f;
    walk_stats locked = run_walk(&d, field_query, &g, frames);
    printf("foot skate (cm/s) of the walk: the animation on flat ground %.4f; over sine bumps without locking %.4f, "
           "with locking %.4f\n",
           flat.skate_cm_s, unlocked.skate_cm_s, locked.skate_cm_s);
    CHECK(unlocked.skate_cm_s > 0.3); /* there is skate to remove */
    CHECK(locked.skate_cm_s < 0.05);
    CHECK(locked.skate_cm_s < 0.1 * unlocked.skate_cm_s);
    CHECK_EQ_INT(locked.unreached, 0);
    CHECK(locked.worst_turn < 30.0 * DEG);
    /* a tighter tilt limit holds over the bumps */
    d.max_tilt = 8.0f * (float)DEG;
    walk_stats limited = run_walk(&d, field_query, &g, frames);
    printf("  feet turned at most %.3f deg (limit 30), %.3f deg with a limit of 8; %.4f cm/s skate\n",
           locked.worst_turn / DEG, limited.worst_turn / DEG, limited.skate_cm_s);
    CHECK(limited.worst_turn <= 8.0 * DEG + 1e-4);
    CHECK(limited.worst_turn > 7.9 * DEG); /* the bumps are steeper than that */
    CHECK(locked.worst_turn > limited.worst_turn);
}

/* Weight 0: the pose and model space bit for bit as given, while the springs keep following
 * the ground (so fading in later starts from the ground as it is). Weight 0.5: the pelvis moved
 * half as far, each ankle half way to its full-weight target. */
static void test_weight(void)
{
    field_ground g;
    memset(&g, 0, sizeof g);
    g.f = sine_height;
    g.amplitude = 0.08;
    g.lx = 1.1;
    g.lz = 0.9;
    tdn_foot_placement_desc d = humanoid_desc();
    tdn_foot_placement *fp[3] = { make_fp(&d), make_fp(&d), make_fp(&d) };
    character c;
    character_init(&c, walk_clip, walk_track, tdn_vec3_make(0.2f, 0.0f, 0.0f), 0.3f);
    tdn_pose given;
    tdn_pose_create(joint_count, &given, NULL, NULL);
    tdn_mat4 *model_given = malloc(sizeof *model_given * (size_t)joint_count);
    tdn_mat4 *model_full = malloc(sizeof *model_full * (size_t)joint_count);
    int identical = 1;
    double worst_half = 0.0, worst_pelvis = 0.0;
    for (int i = 0; i < 150; i++) {
        character_pose(&c, i ? DT : 0.0f);
        tdn_pose_copy(&given, &c.pose, NULL);
        memcpy(model_given, c.model, sizeof *model_given * (size_t)joint_count);
        tdn_foot_placement_report rep[3];
        /* weight 0 */
        CHECK_EQ_INT(solve(fp[0], &c, field_query, &g, i ? DT : 0.0f, 0.0f, &rep[0]), TDN_OK);
        identical &= memcmp(given.data, c.pose.data, sizeof(float) * TDN_POSE_ROWS * (size_t)given.stride) == 0;
        identical &= memcmp(model_given, c.model, sizeof *model_given * (size_t)joint_count) == 0;
        /* weight 1 */
        CHECK_EQ_INT(solve(fp[1], &c, field_query, &g, i ? DT : 0.0f, 1.0f, &rep[1]), TDN_OK);
        memcpy(model_full, c.model, sizeof *model_full * (size_t)joint_count);
        /* weight 0.5 from the given pose again */
        tdn_pose_copy(&c.pose, &given, NULL);
        memcpy(c.model, model_given, sizeof *model_given * (size_t)joint_count);
        CHECK_EQ_INT(solve(fp[2], &c, field_query, &g, i ? DT : 0.0f, 0.5f, &rep[2]), TDN_OK);
        worst_pelvis = fmax(worst_pelvis, fabs(c.model[pelvis_j].m[13] - model_given[pelvis_j].m[13] -
                                               0.5 * (model_full[pelvis_j].m[13] - model_given[pelvis_j].m[13])));
        for (int f = 0; f < 2; f++)
            for (int k = 12; k < 15; k++)
                worst_half = fmax(worst_half, fabs(c.model[foot_j[f]].m[k] -
                                                   0.5 * (model_given[foot_j[f]].m[k] + model_full[foot_j[f]].m[k])));
        /* the state does not depend on the weight */
        CHECK_NEAR(rep[0].legs[0].ground_height, rep[1].legs[0].ground_height, 0.0);
        CHECK_NEAR(rep[0].pelvis_offset, 0.0, 0.0);
        CHECK_NEAR(rep[2].pelvis_offset, 0.5 * rep[1].pelvis_offset, 1e-7);
    }
    printf("weight: 0 leaves pose and model space bit-identical (%s); 0.5 puts the ankles %.2e m and the pelvis "
           "%.2e m from half way\n",
           identical ? "yes" : "NO", worst_half, worst_pelvis);
    CHECK(identical);
    CHECK(worst_half < 1e-5);
    CHECK(worst_pelvis < 1e-6);
    free(model_given);
    free(model_full);
    tdn_pose_destroy(&given);
    character_free(&c);
    for (int k = 0; k < 3; k++)
        tdn_foot_placement_destroy(fp[k]);
}

/* The spring in closed form: the ground under both feet of the idle pose rises by 10 cm at
 * once; the reported ground height follows Delta (1 - e^-u (1 + u)), u = 1.67834699 t /
 * half_life, so half way after exactly one half-life; the pelvis (never raised) stays. After a
 * reset the next solve is at the new ground at once. */
static void test_spring_and_reset(void)
{
    tdn_foot_placement_desc d = humanoid_desc();
    d.half_life = 0.08f;
    tdn_foot_placement *fp = make_fp(&d);
    character c;
    character_init(&c, idle_clip, NULL, tdn_vec3_make(0, 0, 0), 0.0f);
    plane_ground g = { { 0, 0, 0 }, { 0, 1, 0 }, 0 };
    tdn_foot_placement_report rep;
    const float dt = 0.08f / 8.0f;
    for (int i = 0; i < 30; i++) {
        character_pose(&c, dt);
        solve(fp, &c, plane_query, &g, dt, 1.0f, &rep);
    }
    CHECK_NEAR(rep.legs[0].ground_height, 0.0, 1e-7);
    g.point.y = 0.1f;
    double worst = 0.0;
    for (int i = 1; i <= 24; i++) {
        character_pose(&c, dt);
        solve(fp, &c, plane_query, &g, dt, 1.0f, &rep);
        double u = 1.67834699 * i * dt / 0.08, expect = 0.1 * (1.0 - exp(-u) * (1.0 + u));
        worst = fmax(worst, fabs(rep.legs[0].ground_height - expect));
        worst = fmax(worst, fabs(rep.legs[1].ground_height - expect));
        if (i == 8)
            CHECK_NEAR(rep.legs[0].ground_height, 0.05, 1e-5);
        CHECK_NEAR(rep.pelvis_offset, 0.0, 0.0);
    }
    printf("spring: ground height against 0.1 (1 - e^-u (1 + u)) within %.2e m over 3 half-lives\n", worst);
    CHECK(worst < 1e-5);
    g.point.y = -0.2f;
    tdn_foot_placement_reset(fp);
    character_pose(&c, dt);
    solve(fp, &c, plane_query, &g, dt, 1.0f, &rep);
    for (int f = 0; f < 2; f++)
        CHECK_NEAR(world_of(&c, foot_j[f]).y, -0.2 + 0.06, 1e-4);
    CHECK_NEAR(rep.pelvis_offset, -0.2, 1e-4);
    character_free(&c);
    tdn_foot_placement_destroy(fp);
}

/* No ground under the feet, or a callback giving non-finite numbers: the animation's own
 * ground, the pose as it was (to IK round-off). */
static int nan_ground(void *user, tdn_vec3 from, tdn_vec3 dir, float max_distance, tdn_vec3 *hit, tdn_vec3 *normal)
{
    (void)user, (void)from, (void)dir, (void)max_distance;
    *hit = tdn_vec3_make(NAN, 0, 0);
    *normal = tdn_vec3_make(0, INFINITY, 0);
    return 1;
}

static void test_no_ground(void)
{
    tdn_ground_query queries[2] = { no_ground, nan_ground };
    for (int q = 0; q < 2; q++) {
        tdn_foot_placement_desc d = humanoid_desc();
        tdn_foot_placement *fp = make_fp(&d);
        character c;
        character_init(&c, walk_clip, walk_track, tdn_vec3_make(0, 5.0f, 0), 0.0f);
        tdn_mat4 *before = malloc(sizeof *before * (size_t)joint_count);
        double worst = 0.0;
        int hits = 0;
        for (int i = 0; i < 60; i++) {
            character_pose(&c, DT);
            memcpy(before, c.model, sizeof *before * (size_t)joint_count);
            tdn_foot_placement_report rep;
            CHECK_EQ_INT(solve(fp, &c, queries[q], NULL, DT, 1.0f, &rep), TDN_OK);
            hits += rep.legs[0].ground_hit + rep.legs[1].ground_hit;
            worst = fmax(worst, largest_joint_difference(before, c.model));
        }
        CHECK_EQ_INT(hits, 0);
        CHECK(worst < 1e-3); /* the locks still hold the feet (sub-millimetre drift between keys) */
        free(before);
        character_free(&c);
        tdn_foot_placement_destroy(fp);
    }
}

static void test_arguments(void)
{
    tdn_foot_placement_desc d = humanoid_desc();
    tdn_foot_placement *fp = NULL;
    tdn_error err = { 0 };
    tdn_foot_placement_desc no_skeleton = d;
    no_skeleton.skeleton = NULL;
    CHECK_EQ_INT(tdn_foot_placement_create(&no_skeleton, &fp, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK(fp == NULL);
    CHECK_EQ_INT(tdn_foot_placement_create(NULL, &fp, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_foot_placement_create(&d, NULL, NULL, &err), TDN_ERR_ARGUMENT);
    tdn_foot_placement_desc b;
#define EXPECT_BAD(edit, where_text)                                                \
  do {                                                                              \
    b = d;                                                                          \
    edit;                                                                           \
    memset(&err, 0, sizeof err);                                                    \
    fp = (tdn_foot_placement *)&b;                                                  \
    CHECK_EQ_INT(tdn_foot_placement_create(&b, &fp, NULL, &err), TDN_ERR_ARGUMENT); \
    CHECK(fp == NULL);                                                              \
    if (!CHECK(strcmp(err.where, where_text) == 0))                                 \
      fprintf(stderr, "  where '%s' (%s)\n", err.where, err.message);               \
  } while (0)
    EXPECT_BAD(b.leg_count = 0, "desc.leg_count");
    EXPECT_BAD(b.leg_count = TDN_FOOT_MAX_LEGS + 1, "desc.leg_count");
    EXPECT_BAD(b.legs[1].middle = joint_count, "desc.legs[1]");
    EXPECT_BAD(b.legs[0].end = -1, "desc.legs[0]");
    EXPECT_BAD(b.legs[1].middle = calf[0], "desc.legs[1]"); /* not below the right thigh */
    EXPECT_BAD(b.legs[0].end = b.legs[0].middle, "desc.legs[0]");
    EXPECT_BAD(b.pelvis = foot_j[0], "desc.pelvis"); /* not above the thighs */
    EXPECT_BAD(b.pelvis = joint_count, "desc.pelvis");
    EXPECT_BAD(b.up = tdn_vec3_make(NAN, 1, 0), "desc.up");
    EXPECT_BAD(b.forward = tdn_vec3_make(0, 2, 0), "desc.forward"); /* along up */
    EXPECT_BAD(b.half_life = -1.0f, "desc.half_life");
    EXPECT_BAD(b.pelvis_half_life = INFINITY, "desc.pelvis_half_life");
    EXPECT_BAD(b.max_tilt = NAN, "desc.max_tilt");
    EXPECT_BAD(b.ray_below = -0.1f, "desc.ray_below");
#undef EXPECT_BAD

    /* The filled-in desc: the pelvis found, lengths from the rest pose (thigh to calf to foot). */
    fp = make_fp(&d);
    tdn_foot_placement_desc got = tdn_foot_placement_desc_of(fp);
    double leg = tdn_vec3_length(tdn_skeleton_rest(skel, calf[0]).t) +
                 tdn_vec3_length(tdn_skeleton_rest(skel, foot_j[0]).t);
    CHECK_EQ_INT(got.pelvis, pelvis_j);
    CHECK_NEAR(got.half_life, 0.05, 1e-7);
    CHECK_NEAR(got.pelvis_half_life, 0.2, 1e-7);
    CHECK_NEAR(got.max_tilt, 30.0 * DEG, 1e-6);
    CHECK_NEAR(got.lock_distance, 0.1 * leg, 1e-6);
    CHECK_NEAR(got.ray_above, 0.5 * leg, 1e-6);
    CHECK_NEAR(got.up.y, 1.0, 0.0);
    CHECK_NEAR(got.forward.z, 1.0, 0.0);
    printf("desc defaults: pelvis '%s', leg %.4f m, lock distance %.4f m, rays %.3f m up and down\n",
           tdn_skeleton_joint_name(skel, got.pelvis), leg, got.lock_distance, got.ray_above);

    /* Solve: bad calls change nothing. */
    character c;
    character_init(&c, idle_clip, NULL, tdn_vec3_make(0, 0, 0), 0.0f);
    character_pose(&c, 0.0f);
    plane_ground g = { { 0, 0.05f, 0 }, { 0, 1, 0 }, 0 };
    tdn_pose given;
    tdn_pose_create(joint_count, &given, NULL, NULL);
    tdn_pose_copy(&given, &c.pose, NULL);
    tdn_foot_placement_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.ground = plane_query;
    frame.ground_user = &g;
    frame.weight = 1.0f;
    tdn_mat4 singular;
    memset(&singular, 0, sizeof singular);
    tdn_mat4 nan_world = tdn_mat4_identity();
    nan_world.m[13] = NAN;
    CHECK_EQ_INT(tdn_foot_placement_solve(NULL, &frame, &c.pose, c.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_foot_placement_translate(NULL, tdn_vec3_make(1, 0, 0), NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_foot_placement_translate(fp, tdn_vec3_make(0, NAN, 0), NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_foot_placement_solve(fp, NULL, &c.pose, c.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_foot_placement_solve(fp, &frame, NULL, c.model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_foot_placement_solve(fp, &frame, &c.pose, NULL, NULL, NULL), TDN_ERR_ARGUMENT);
    tdn_foot_placement_frame bad = frame;
    bad.ground = NULL;
    CHECK_EQ_INT(tdn_foot_placement_solve(fp, &bad, &c.pose, c.model, NULL, NULL), TDN_ERR_ARGUMENT);
    bad = frame;
    bad.dt = -DT;
    CHECK_EQ_INT(tdn_foot_placement_solve(fp, &bad, &c.pose, c.model, NULL, NULL), TDN_ERR_ARGUMENT);
    bad.dt = INFINITY;
    CHECK_EQ_INT(tdn_foot_placement_solve(fp, &bad, &c.pose, c.model, NULL, NULL), TDN_ERR_ARGUMENT);
    bad = frame;
    bad.weight = NAN;
    CHECK_EQ_INT(tdn_foot_placement_solve(fp, &bad, &c.pose, c.model, NULL, NULL), TDN_ERR_ARGUMENT);
    bad = frame;
    bad.contact[1] = NAN;
    CHECK_EQ_INT(tdn_foot_placement_solve(fp, &bad, &c.pose, c.model, NULL, NULL), TDN_ERR_ARGUMENT);
    bad = frame;
    bad.world = &singular;
    CHECK_EQ_INT(tdn_foot_placement_solve(fp, &bad, &c.pose, c.model, NULL, NULL), TDN_ERR_ARGUMENT);
    bad.world = &nan_world;
    CHECK_EQ_INT(tdn_foot_placement_solve(fp, &bad, &c.pose, c.model, NULL, NULL), TDN_ERR_ARGUMENT);
    tdn_pose small;
    tdn_pose_create(3, &small, NULL, NULL);
    CHECK_EQ_INT(tdn_foot_placement_solve(fp, &frame, &small, c.model, NULL, NULL), TDN_ERR_ARGUMENT);
    tdn_pose_destroy(&small);
    CHECK(memcmp(given.data, c.pose.data, sizeof(float) * TDN_POSE_ROWS * (size_t)given.stride) == 0);
    CHECK_EQ_INT(g.calls, 0);
    /* a weight out of range is clamped; the world may be NULL (the identity) */
    frame.weight = 7.0f;
    tdn_foot_placement_report rep;
    CHECK_EQ_INT(tdn_foot_placement_solve(fp, &frame, &c.pose, c.model, &rep, NULL), TDN_OK);
    CHECK_NEAR(world_of(&c, foot_j[0]).y, 0.05 + 0.06, 1e-4);
    tdn_pose_destroy(&given);
    character_free(&c);
    tdn_foot_placement_destroy(fp);
    tdn_foot_placement_destroy(NULL);
    tdn_foot_placement_reset(NULL);
}

/* Memory: caller memory or one allocation at creation, nothing per frame. */
static void test_memory(void)
{
    tdn_foot_placement_desc d = humanoid_desc();
    CHECK_EQ_INT(tdn_foot_placement_bytes(&(tdn_foot_placement_desc){ .leg_count = 0 }), 0);
    CHECK_EQ_INT(tdn_foot_placement_bytes(&(tdn_foot_placement_desc){ .leg_count = TDN_FOOT_MAX_LEGS + 1 }), 0);
    const size_t bytes = tdn_foot_placement_bytes(&(tdn_foot_placement_desc){ .leg_count = 2 });
    CHECK(bytes > 0 && bytes <= 512);
    CHECK(tdn_foot_placement_bytes(&(tdn_foot_placement_desc){ .leg_count = 4 }) > bytes);
    printf("memory: %zu bytes for two legs, %zu for four\n", bytes,
           tdn_foot_placement_bytes(&(tdn_foot_placement_desc){ .leg_count = 4 }));

    _Alignas(TDN_FOOT_PLACEMENT_ALIGN) unsigned char buffer[1024];
    tdn_foot_placement *fp = NULL;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_foot_placement_init(&d, buffer, bytes, &fp, &err), TDN_OK);
    CHECK((void *)fp == (void *)buffer);
    tdn_foot_placement_destroy(fp); /* leaves caller memory alone */
    CHECK_EQ_INT(tdn_foot_placement_init(&d, buffer + 4, bytes, &fp, &err), TDN_ERR_ARGUMENT);
    CHECK(fp == NULL);
    CHECK_EQ_INT(tdn_foot_placement_init(&d, buffer, bytes - 1, &fp, &err), TDN_ERR_OUT_OF_MEMORY);
    CHECK_EQ_INT(tdn_foot_placement_init(&d, NULL, bytes, &fp, &err), TDN_ERR_ARGUMENT);

    /* the counting allocator: one block of the reported size, none per frame */
    CHECK_EQ_INT(tdn_foot_placement_create(&d, &fp, &counting, &err), TDN_OK);
    CHECK_EQ_INT(live_blocks, 1);
    CHECK_EQ_INT((long long)live_bytes, (long long)bytes);
    field_ground g;
    memset(&g, 0, sizeof g);
    g.f = sine_height;
    g.amplitude = 0.05;
    g.lx = 1.7;
    g.lz = 1.3;
    character c;
    character_init(&c, walk_clip, walk_track, tdn_vec3_make(0, 0, 0), 0.0f);
    long most = live_blocks;
    for (int i = 0; i < 240; i++) {
        character_pose(&c, DT);
        CHECK_EQ_INT(solve(fp, &c, field_query, &g, DT, 1.0f, NULL), TDN_OK);
        if (live_blocks > most)
            most = live_blocks;
    }
    CHECK_EQ_INT(most, 1);
    tdn_foot_placement_destroy(fp);
    CHECK_EQ_INT(live_blocks, 0);
    CHECK_EQ_INT((long long)live_bytes, 0);
    /* the allocation failing; a bad desc frees what it took */
    allocations_before_failure = 0;
    fp = (tdn_foot_placement *)&d;
    CHECK_EQ_INT(tdn_foot_placement_create(&d, &fp, &counting, &err), TDN_ERR_OUT_OF_MEMORY);
    CHECK(fp == NULL);
    allocations_before_failure = -1;
    tdn_foot_placement_desc b = d;
    b.legs[1].middle = calf[0];
    CHECK_EQ_INT(tdn_foot_placement_create(&b, &fp, &counting, &err), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_allocator half = { count_alloc, NULL, NULL };
    CHECK_EQ_INT(tdn_foot_placement_create(&d, &fp, &half, &err), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(live_blocks, 0);
    character_free(&c);
}

int main(void)
{
    tdn_error err = { 0 };
    if (tdn_humanoid_create(NULL, &humanoid, NULL, &err) != TDN_OK) {
        fprintf(stderr, "humanoid: %s: %s\n", err.where, err.message);
        return 1;
    }
    skel = tdn_asset_skeleton(humanoid);
    joint_count = tdn_skeleton_joint_count(skel);
    pelvis_j = tdn_skeleton_find_joint(skel, "pelvis");
    const char *side[2] = { "l", "r" };
    for (int f = 0; f < 2; f++) {
        char name[32];
        snprintf(name, sizeof name, "thigh_%s", side[f]);
        thigh[f] = tdn_skeleton_find_joint(skel, name);
        snprintf(name, sizeof name, "calf_%s", side[f]);
        calf[f] = tdn_skeleton_find_joint(skel, name);
        snprintf(name, sizeof name, "foot_%s", side[f]);
        foot_j[f] = tdn_skeleton_find_joint(skel, name);
        snprintf(name, sizeof name, "toe_%s", side[f]);
        toe_j[f] = tdn_skeleton_find_joint(skel, name);
    }
    tdn_clip_desc cd;
    memset(&cd, 0, sizeof cd);
    cd.source = tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, "walk_forward"));
    CHECK_EQ_INT(tdn_clip_create(&cd, &walk_clip, NULL, &err), TDN_OK);
    cd.source = tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, "idle"));
    CHECK_EQ_INT(tdn_clip_create(&cd, &idle_clip, NULL, &err), TDN_OK);
    CHECK_EQ_INT(tdn_root_track_create(walk_clip, NULL, &walk_track, NULL, &err), TDN_OK);

    RUN(test_flat_walk_unchanged);
    RUN(test_idle_slopes);
    RUN(test_idle_step);
    RUN(test_walk_stairs);
    RUN(test_skate);
    RUN(test_weight);
    RUN(test_spring_and_reset);
    RUN(test_no_ground);
    RUN(test_arguments);
    RUN(test_memory);

    tdn_root_track_destroy(walk_track);
    tdn_clip_destroy(walk_clip);
    tdn_clip_destroy(idle_clip);
    tdn_asset_destroy(humanoid);
    return check_summary();
}
