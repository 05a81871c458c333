/* Look-at IK: an unlimited chain aims exactly (the angle recomputed from fresh model space);
 * limits hold joint by joint; the spread and the clamping match hand-worked numbers; a target
 * circling the head (behind it included) moves the head continuously within its limits; the
 * up hint keeps the head level; weights fade; bad arguments change nothing; nothing is
 * allocated. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "tendon/io/humanoid.h"

enum { MAXJ = 80 };
#define DEG (TDN_PI / 180.0f)

static tdn_vec3 position(const tdn_mat4 *m) { return tdn_vec3_make(m->m[12], m->m[13], m->m[14]); }

static double model_mismatch(const tdn_skeleton *s, const tdn_pose *pose, const tdn_mat4 *root, const tdn_mat4 *model)
{
    tdn_mat4 fresh[MAXJ];
    tdn_model_space(s, pose, root, fresh, NULL);
    double e = 0;
    for (int j = 0; j < tdn_skeleton_joint_count(s); j++)
        for (int i = 0; i < 16; i++)
            e = fmax(e, fabs((double)fresh[j].m[i] - model[j].m[i]));
    return e;
}

/* The angle between joint `end`'s local axis and the line to the target, from fresh model
 * space, in double. */
static double aim_error(const tdn_skeleton *s, const tdn_pose *pose, const tdn_mat4 *root, int end, tdn_vec3 axis,
                        tdn_vec3 target)
{
    tdn_mat4 m[MAXJ];
    tdn_model_space(s, pose, root, m, NULL);
    double a[3], d[3];
    for (int r = 0; r < 3; r++) {
        a[r] = (double)m[end].m[r] * axis.x + (double)m[end].m[4 + r] * axis.y + (double)m[end].m[8 + r] * axis.z;
        d[r] = (double)(&target.x)[r] - m[end].m[12 + r];
    }
    double c[3] = { a[1] * d[2] - a[2] * d[1], a[2] * d[0] - a[0] * d[2], a[0] * d[1] - a[1] * d[0] };
    return atan2(sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), a[0] * d[0] + a[1] * d[1] + a[2] * d[2]);
}

static void turn_local(tdn_pose *pose, int j, tdn_quat q)
{
    tdn_transform x = tdn_pose_get(pose, j);
    x.r = tdn_quat_normalize(tdn_quat_mul(q, x.r));
    tdn_pose_set(pose, j, &x);
}

typedef struct humanoid {
    tdn_asset *asset;
    const tdn_skeleton *skel;
    int n, chain[3];
    tdn_pose input; /* rest with the pelvis, spine and neck turned a little */
    tdn_mat4 input_model[MAXJ];
} humanoid;

static int humanoid_init(humanoid *h, check_rng *rng)
{
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_humanoid_create(NULL, &h->asset, NULL, &err), TDN_OK))
        return 0;
    h->skel = tdn_asset_skeleton(h->asset);
    h->n = tdn_skeleton_joint_count(h->skel);
    h->chain[0] = tdn_skeleton_find_joint(h->skel, "spine_03");
    h->chain[1] = tdn_skeleton_find_joint(h->skel, "neck_01");
    h->chain[2] = tdn_skeleton_find_joint(h->skel, "head");
    tdn_pose_create(h->n, &h->input, NULL, NULL);
    tdn_pose_set_rest(&h->input, h->skel, NULL);
    const char *moved[] = { "pelvis", "spine_01", "spine_03", "spine_05", "neck_01", "head" };
    for (size_t i = 0; rng && i < sizeof moved / sizeof moved[0]; i++) {
        const float angle = check_rng_float(rng, 0, 0.15f); /* drawn before the direction, whatever the compiler */
        turn_local(&h->input, tdn_skeleton_find_joint(h->skel, moved[i]),
                   tdn_quat_from_axis_angle(tdn_vec3_normalize(check_rng_vec3(rng, -1, 1)), angle));
    }
    tdn_model_space(h->skel, &h->input, NULL, h->input_model, NULL);
    return CHECK(h->chain[0] >= 0 && h->chain[1] > h->chain[0] && h->chain[2] > h->chain[1]);
}

static void humanoid_free(humanoid *h)
{
    tdn_pose_destroy(&h->input);
    tdn_asset_destroy(h->asset);
}

static void unlimited_chain_aims_exactly(void)
{
    check_rng rng = { 1 };
    humanoid h;
    if (!humanoid_init(&h, &rng))
        return;
    tdn_pose pose;
    tdn_pose_create(h.n, &pose, NULL, NULL);
    tdn_mat4 model[MAXJ];
    tdn_vec3 head = position(&h.input_model[h.chain[2]]);
    double worst = 0, worst_reported = 0, worst_model = 0;
    int others_moved = 0;
    for (int round = 0; round < 500; round++) {
        tdn_pose_copy(&pose, &h.input, NULL);
        memcpy(model, h.input_model, sizeof(tdn_mat4) * (size_t)h.n);
        /* anywhere around the head, behind it too, 0.3 to 3 m away */
        const float distance = check_rng_float(&rng, 0.3f, 3); /* drawn before the direction, whatever the compiler */
        tdn_vec3 target = tdn_vec3_add(head, tdn_vec3_scale(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1)), distance));
        tdn_ik_look_at_job ik = { .joints = h.chain,
                                  .joint_count = 3,
                                  .axis = { 0, 0, 1 },
                                  .target = target,
                                  .weight = 1.0f,
                                  .up_hint = round % 2 ? tdn_vec3_make(0, 1, 0) : tdn_vec3_make(0, 0, 0) };
        float reported = -1;
        CHECK_EQ_INT(tdn_ik_look_at(h.skel, &ik, &pose, model, &reported, NULL), TDN_OK);
        double e = aim_error(h.skel, &pose, NULL, h.chain[2], ik.axis, target);
        worst = fmax(worst, e);
        worst_reported = fmax(worst_reported, fabs(e - reported));
        worst_model = fmax(worst_model, model_mismatch(h.skel, &pose, NULL, model));
        for (int j = 0; j < h.n; j++)
            if (j != h.chain[0] && j != h.chain[1] && j != h.chain[2]) {
                tdn_transform a = tdn_pose_get(&pose, j), b = tdn_pose_get(&h.input, j);
                others_moved += memcmp(&a, &b, sizeof a) != 0;
            }
    }
    printf("look-at unlimited: worst aim error %.2e rad over 500 targets all round the head\n", worst);
    CHECK(worst < 1e-4);
    CHECK(worst_reported < 1e-5);
    CHECK_NEAR(worst_model, 0, 1e-5);
    CHECK_EQ_INT(others_moved, 0);
    tdn_pose_destroy(&pose);
    humanoid_free(&h);
}

static void limits_hold_joint_by_joint(void)
{
    check_rng rng = { 2 };
    humanoid h;
    if (!humanoid_init(&h, &rng))
        return;
    tdn_pose pose;
    tdn_pose_create(h.n, &pose, NULL, NULL);
    tdn_mat4 model[MAXJ];
    tdn_vec3 head = position(&h.input_model[h.chain[2]]);
    const float max_angles[3] = { 0.3f, 0.25f, 0.6f }; /* 1.15 rad, 66 degrees in all */
    double over[3] = { -1, -1, -1 }, worst_inside = 0;
    int inside = 0;
    for (int round = 0; round < 1000; round++) {
        tdn_pose_copy(&pose, &h.input, NULL);
        memcpy(model, h.input_model, sizeof(tdn_mat4) * (size_t)h.n);
        const float distance = check_rng_float(&rng, 0.5f, 3); /* drawn before the direction, whatever the compiler */
        tdn_vec3 target = tdn_vec3_add(head, tdn_vec3_scale(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1)), distance));
        double start = aim_error(h.skel, &h.input, NULL, h.chain[2], tdn_vec3_make(0, 0, 1), target);
        tdn_ik_look_at_job ik = { .joints = h.chain,
                                  .joint_count = 3,
                                  .axis = { 0, 0, 1 },
                                  .target = target,
                                  .weight = 1.0f,
                                  .max_angles = max_angles,
                                  .up_hint = round % 2 ? tdn_vec3_make(0, 1, 0) : tdn_vec3_make(0, 0, 0) };
        float e = 0;
        CHECK_EQ_INT(tdn_ik_look_at(h.skel, &ik, &pose, model, &e, NULL), TDN_OK);
        for (int i = 0; i < 3; i++)
            over[i] = fmax(over[i],
                           check_quat_angle(tdn_pose_get(&pose, h.chain[i]).r, tdn_pose_get(&h.input, h.chain[i]).r) -
                               max_angles[i]);
        if (start < 0.8 * 1.15 && round % 2 == 0) { /* well within reach (no roll to pay for) */
            inside++;
            worst_inside = fmax(worst_inside, e);
        }
    }
    printf("look-at limits: each joint's turn beyond its max angle at most %.1e / %.1e / %.1e rad (0 = at the limit); "
           "%d targets within 0.8 of the reach aimed within %.2e rad\n",
           over[0], over[1], over[2], inside, worst_inside);
    for (int i = 0; i < 3; i++)
        CHECK(over[i] <= 1e-5 && over[i] > -1e-3); /* held, and reached */
    CHECK(inside > 100);
    CHECK(worst_inside < 2e-3);
    tdn_pose_destroy(&pose);
    humanoid_free(&h);
}

/* Three joints stacked on the Y axis at 0, 0.3, 0.6, aiming +Z; targets at the end's height
 * turn them about Y only, with no parallax, so the shares are plain arithmetic. */
static void spread_and_clamps_by_hand(void)
{
    const int parents[4] = { -1, 0, 1, 2 };
    tdn_transform rest[4] = { tdn_transform_identity(), tdn_transform_identity(), tdn_transform_identity(),
                              tdn_transform_identity() };
    rest[1].t = tdn_vec3_make(0, 0.3f, 0);
    rest[2].t = tdn_vec3_make(0, 0.3f, 0);
    rest[3].t = tdn_vec3_make(0, 0.1f, 0.1f);
    tdn_skeleton *s = NULL;
    tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 4, .parents = parents, .rest_pose = rest }, &s, NULL,
                        NULL);
    if (!CHECK(s != NULL))
        return;
    tdn_pose pose;
    tdn_pose_create(4, &pose, NULL, NULL);
    const int chain[3] = { 0, 1, 2 };
    const float half[2] = { 0.5f, 0.5f }, quarter_half[2] = { 0.25f, 0.5f },
                limits[3] = { 25 * DEG, 10 * DEG, 40 * DEG };
    struct {
        float yaw;
        const float *weights, *limits;
        float expect[3]; /* degrees about +Y */
    } cases[] = {
        { 60, NULL, NULL, { 20, 20, 20 } }, /* even spread: 1/3, then 1/2 of the rest, then the rest */
        { 60, half, NULL, { 30, 15, 15 } },
        { 60, quarter_half, NULL, { 15, 22.5f, 22.5f } },
        { -60, half, NULL, { -30, -15, -15 } },
        { 60, half, limits, { 25, 10, 25 } }, /* 30 -> 25; 17.5 -> 10; 25 left */
        { 70, half, limits, { 25, 10, 35 } }, /* 35 -> 25 (not less: 70 - 50 = 20); 22.5 -> 10; 35 */
        { 70, (const float[2]){ 0.1f, 0.1f }, limits, { 20, 10, 40 } }, /* 7 < 70 - 50: the first takes 20 */
        { 100, half, limits, { 25, 10, 40 } },                          /* beyond the 75 degrees in all: held at 75 */
        { 160, half, limits, { 50.0f / 3, 25.0f / 3, 25.0f / 3 } },     /* behind: 75 (180 - 160) / 45 = 33.3 asked */
        { 180, half, limits, { 0, 0, 0 } },                             /* straight behind: back to the input */
        { 120, NULL, (const float[3]){ 1.2f, 1.2f, 1.2f }, { 40, 40, 40 } }, /* 3.6 rad of limits: all of 120 */
        { 150, NULL, (const float[3]){ 1.2f, 1.2f, 1.2f }, { 30, 30, 30 } }, /* 135 (180 - 150) / 45 = 90 asked */
    };
    double worst = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tdn_pose_set_rest(&pose, s, NULL);
        tdn_mat4 model[4];
        tdn_model_space(s, &pose, NULL, model, NULL);
        float yaw = cases[c].yaw * DEG;
        tdn_ik_look_at_job ik = { .joints = chain,
                                  .joint_count = 3,
                                  .joint_weights = cases[c].weights,
                                  .axis = { 0, 0, 2 },
                                  .target = { 3 * sinf(yaw), 0.6f, 3 * cosf(yaw) },
                                  .max_angles = cases[c].limits,
                                  .weight = 1 };
        CHECK_EQ_INT(tdn_ik_look_at(s, &ik, &pose, model, NULL, NULL), TDN_OK);
        for (int i = 0; i < 3; i++) {
            tdn_quat expect = tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), cases[c].expect[i] * DEG);
            double e = check_quat_angle(tdn_pose_get(&pose, i).r, expect);
            worst = fmax(worst, e);
            if (!CHECK(e < 1e-5))
                fprintf(stderr, "  case %zu joint %d: %.4f degrees off\n", c, i, e / DEG);
        }
    }
    printf("look-at hand-worked spreads and clamps: worst joint %.1e rad from the hand-worked turn\n", worst);
    tdn_pose_destroy(&pose);
    tdn_skeleton_destroy(s);
}

/* The largest turn of any chain joint from one frame to the next, and of the head in model
 * space, as a target circles the head at 0.5 degrees per frame. */
static void sweep(const humanoid *h, const float *max_angles, int vertical, tdn_vec3 up, double *largest_step,
                  double *over_limit, double *behind)
{
    tdn_pose pose, prev;
    tdn_pose_create(h->n, &pose, NULL, NULL);
    tdn_pose_create(h->n, &prev, NULL, NULL);
    tdn_mat4 model[MAXJ], prev_model[MAXJ];
    tdn_vec3 head = position(&h->input_model[h->chain[2]]);
    *largest_step = 0, *over_limit = -1, *behind = -1;
    for (int frame = 0; frame <= 720; frame++) {
        float a = (float)frame * 0.5f * DEG;
        tdn_vec3 offset = vertical ? tdn_vec3_make(0, 2 * sinf(a), 2 * cosf(a))
                                   : tdn_vec3_make(2 * sinf(a), 0, 2 * cosf(a));
        tdn_pose_copy(&pose, &h->input, NULL);
        memcpy(model, h->input_model, sizeof(tdn_mat4) * (size_t)h->n);
        tdn_ik_look_at_job ik = { .joints = h->chain,
                                  .joint_count = 3,
                                  .axis = { 0, 0, 1 },
                                  .target = tdn_vec3_add(head, offset),
                                  .max_angles = max_angles,
                                  .up_hint = up,
                                  .weight = 1 };
        tdn_ik_look_at(h->skel, &ik, &pose, model, NULL, NULL);
        for (int i = 0; i < 3; i++) {
            int j = h->chain[i];
            if (frame > 0)
                *largest_step = fmax(*largest_step,
                                     check_quat_angle(tdn_pose_get(&pose, j).r, tdn_pose_get(&prev, j).r));
            *over_limit = fmax(*over_limit, check_quat_angle(tdn_pose_get(&pose, j).r, tdn_pose_get(&h->input, j).r) -
                                                max_angles[i]);
        }
        if (frame > 0) {
            tdn_quat now = tdn_quat_from_mat4(&model[h->chain[2]]),
                     before = tdn_quat_from_mat4(&prev_model[h->chain[2]]);
            *largest_step = fmax(*largest_step, check_quat_angle(now, before));
        }
        if (frame == 360) /* straight behind: every joint back at its input */
            for (int i = 0; i < 3; i++)
                *behind = fmax(*behind, check_quat_angle(tdn_pose_get(&pose, h->chain[i]).r,
                                                         tdn_pose_get(&h->input, h->chain[i]).r));
        tdn_pose_copy(&prev, &pose, NULL);
        memcpy(prev_model, model, sizeof(tdn_mat4) * (size_t)h->n);
    }
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&prev);
}

static void target_circling_behind_moves_the_head_continuously(void)
{
    humanoid h;
    if (!humanoid_init(&h, NULL)) /* the rest pose: looking straight ahead */
        return;
    const float tight[3] = { 0.3f, 0.25f, 0.6f }, wide[3] = { 1.0f, 1.0f, 1.0f };
    const struct {
        const float *limits;
        int vertical;
        tdn_vec3 up;
        const char *name;
        double bound;
    } runs[] = {
        /* 66 degrees in all: at most 66/45 = 1.47 times the target's 0.5 degrees per frame */
        { tight, 0, { 0, 0, 0 }, "around, 66 deg reach", 0.5 * 1.47 },
        { tight, 0, { 0, 1, 0 }, "around, 66 deg reach, up hint", 0.5 * 1.47 },
        { tight, 1, { 0, 0, 0 }, "over the head, 66 deg reach", 0.5 * 1.47 },
        { tight, 1, { 0, 1, 0 }, "over the head, 66 deg reach, up hint", 0.5 * 1.47 },
        /* 172 degrees of limits: 135 asked at most, 3 times the target's rate behind */
        { wide, 0, { 0, 0, 0 }, "around, 172 deg of limits", 0.5 * 3 },
        { wide, 1, { 0, 1, 0 }, "over the head, 172 deg of limits, up hint", 0.5 * 3 },
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        double step, over, behind;
        sweep(&h, runs[r].limits, runs[r].vertical, runs[r].up, &step, &over, &behind);
        printf("look-at sweep %s: largest per-frame turn %.3f deg (target 0.5 deg/frame, bound %.2f), beyond a limit "
               "%.1e rad, straight behind %.1e rad from the input\n",
               runs[r].name, step / DEG, runs[r].bound, over, behind);
        CHECK(step <= runs[r].bound * 1.2 * DEG); /* the bound, and 20% for the parallax of the pivots */
        CHECK(over <= 1e-5);
        CHECK(behind < 1e-4);
    }
    humanoid_free(&h);
}

/* Aiming up and to the left by shortest turns tilts the head; the up hint keeps its side axis
 * (model +X at rest, level) level. */
static void up_hint_keeps_the_head_level(void)
{
    humanoid h;
    if (!humanoid_init(&h, NULL))
        return;
    tdn_pose pose;
    tdn_pose_create(h.n, &pose, NULL, NULL);
    tdn_mat4 model[MAXJ];
    tdn_vec3 head = position(&h.input_model[h.chain[2]]);
    double tilt[2];
    for (int c = 0; c < 2; c++) {
        tdn_pose_copy(&pose, &h.input, NULL);
        memcpy(model, h.input_model, sizeof(tdn_mat4) * (size_t)h.n);
        tdn_ik_look_at_job ik = { .joints = h.chain,
                                  .joint_count = 3,
                                  .axis = { 0, 0, 1 },
                                  .target = tdn_vec3_add(head, tdn_vec3_make(1.5f, 1.2f, 1.0f)),
                                  .up_hint = c ? tdn_vec3_make(0, 2, 0) : tdn_vec3_make(0, 0, 0),
                                  .weight = 1 };
        float e;
        tdn_ik_look_at(h.skel, &ik, &pose, model, &e, NULL);
        CHECK(e < 1e-4);
        tdn_vec3 side = tdn_vec3_normalize(
            tdn_vec3_make(model[h.chain[2]].m[0], model[h.chain[2]].m[1], model[h.chain[2]].m[2]));
        tilt[c] = asin(side.y);
    }
    printf("look-at up hint: the head's side axis %.2f deg off level without it, %.1e deg with it\n", tilt[0] / DEG,
           tilt[1] / DEG);
    CHECK(fabs(tilt[0]) > 2 * DEG);
    CHECK(fabs(tilt[1]) < 1e-4);
    tdn_pose_destroy(&pose);
    humanoid_free(&h);
}

static void weights_fade_the_aim(void)
{
    check_rng rng = { 3 };
    humanoid h;
    if (!humanoid_init(&h, &rng))
        return;
    tdn_pose pose, full;
    tdn_pose_create(h.n, &pose, NULL, NULL);
    tdn_pose_create(h.n, &full, NULL, NULL);
    tdn_mat4 model[MAXJ];
    const float max_angles[3] = { 0.3f, 0.3f, 0.5f };
    tdn_ik_look_at_job ik = { .joints = h.chain,
                              .joint_count = 3,
                              .axis = { 0, 0, 1 },
                              .up_hint = { 0, 1, 0 },
                              .max_angles = max_angles,
                              .target = tdn_vec3_add(position(&h.input_model[h.chain[2]]), tdn_vec3_make(-1, 0.5f, 1)),
                              .weight = 0 };
    tdn_pose_copy(&pose, &h.input, NULL);
    memcpy(model, h.input_model, sizeof(tdn_mat4) * (size_t)h.n);
    float e0 = -1;
    CHECK_EQ_INT(tdn_ik_look_at(h.skel, &ik, &pose, model, &e0, NULL), TDN_OK);
    CHECK(memcmp(pose.data, h.input.data, tdn_pose_bytes(h.n)) == 0);
    CHECK(memcmp(model, h.input_model, sizeof(tdn_mat4) * (size_t)h.n) == 0);
    CHECK_NEAR(e0, aim_error(h.skel, &h.input, NULL, h.chain[2], ik.axis, ik.target), 1e-5);
    ik.weight = -1; /* clamps to 0 */
    tdn_ik_look_at(h.skel, &ik, &pose, model, NULL, NULL);
    CHECK(memcmp(pose.data, h.input.data, tdn_pose_bytes(h.n)) == 0);
    ik.weight = 1;
    tdn_ik_look_at(h.skel, &ik, &pose, model, NULL, NULL);
    tdn_pose_copy(&full, &pose, NULL);
    for (int c = 0; c < 2; c++) {
        float w = c ? 0.3f : 0.5f;
        tdn_pose_copy(&pose, &h.input, NULL);
        memcpy(model, h.input_model, sizeof(tdn_mat4) * (size_t)h.n);
        ik.weight = w;
        tdn_ik_look_at(h.skel, &ik, &pose, model, NULL, NULL);
        for (int i = 0; i < 3; i++) {
            tdn_quat q0 = tdn_pose_get(&h.input, h.chain[i]).r, q1 = tdn_pose_get(&full, h.chain[i]).r,
                     q = tdn_pose_get(&pose, h.chain[i]).r;
            double whole = check_quat_angle(q0, q1);
            CHECK(whole > 0.05);
            CHECK_NEAR(check_quat_angle(q0, q), w * whole, 1e-5);
            CHECK_NEAR(check_quat_angle(q, q1), (1 - w) * whole, 1e-5);
        }
        CHECK_NEAR(model_mismatch(h.skel, &pose, NULL, model), 0, 1e-5);
    }
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&full);
    humanoid_free(&h);
}

static void bad_arguments_change_nothing(void)
{
    humanoid h;
    if (!humanoid_init(&h, NULL))
        return;
    tdn_pose pose, small;
    tdn_pose_create(h.n, &pose, NULL, NULL);
    tdn_pose_create(h.n - 1, &small, NULL, NULL);
    tdn_pose_copy(&pose, &h.input, NULL);
    tdn_mat4 model[MAXJ];
    memcpy(model, h.input_model, sizeof(tdn_mat4) * (size_t)h.n);
    const int reversed[3] = { h.chain[2], h.chain[1], h.chain[0] }, outside[2] = { h.chain[0], 999 };
    const int side[2] = { h.chain[1], tdn_skeleton_find_joint(h.skel, "hand_l") },
              twice[2] = { h.chain[0], h.chain[0] };
    const float nan3[3] = { 0, NAN, 0 }, negative3[3] = { 0, -0.1f, 0 }, big3[3] = { 0, 1.5f, 0 },
                inf3[3] = { 0, INFINITY, 0 };
    const tdn_ik_look_at_job ok = {
        .joints = h.chain, .joint_count = 3, .axis = { 0, 0, 1 }, .target = { 1, 1.6f, 1 }, .weight = 1
    };
    tdn_ik_look_at_job cases[32];
    int count = 0;
    cases[count] = ok, cases[count++].joints = NULL;
    cases[count] = ok, cases[count++].joint_count = 0;
    cases[count] = ok, cases[count++].joint_count = TDN_MAX_IK_CHAIN + 1;
    cases[count] = ok, cases[count++].joints = reversed;
    cases[count] = ok, cases[count].joints = outside, cases[count++].joint_count = 2;
    cases[count] = ok, cases[count].joints = side, cases[count++].joint_count = 2;
    cases[count] = ok, cases[count].joints = twice, cases[count++].joint_count = 2;
    cases[count] = ok, cases[count++].axis = tdn_vec3_make(0, 0, 0);
    cases[count] = ok, cases[count++].axis = tdn_vec3_make(0, NAN, 1);
    cases[count] = ok, cases[count++].target = tdn_vec3_make(INFINITY, 0, 0);
    cases[count] = ok, cases[count++].up_hint = tdn_vec3_make(0, NAN, 0);
    cases[count] = ok, cases[count++].weight = NAN;
    cases[count] = ok, cases[count++].joint_weights = nan3;
    cases[count] = ok, cases[count++].joint_weights = negative3;
    cases[count] = ok, cases[count++].joint_weights = big3;
    cases[count] = ok, cases[count++].max_angles = nan3;
    cases[count] = ok, cases[count++].max_angles = negative3;
    cases[count] = ok, cases[count++].max_angles = inf3;
    for (int i = 0; i < count; i++) {
        float e = 7;
        if (!CHECK_EQ_INT(tdn_ik_look_at(h.skel, &cases[i], &pose, model, &e, NULL), TDN_ERR_ARGUMENT))
            fprintf(stderr, "  case %d\n", i);
        CHECK(e == 7);
    }
    CHECK_EQ_INT(tdn_ik_look_at(NULL, &ok, &pose, model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_look_at(h.skel, NULL, &pose, model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_look_at(h.skel, &ok, NULL, model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_look_at(h.skel, &ok, &pose, NULL, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_look_at(h.skel, &ok, &small, model, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK(memcmp(pose.data, h.input.data, tdn_pose_bytes(h.n)) == 0);
    CHECK(memcmp(model, h.input_model, sizeof(tdn_mat4) * (size_t)h.n) == 0);
    /* a target on the end joint: nothing to aim at, nothing changes */
    tdn_ik_look_at_job on_end = ok;
    on_end.target = position(&h.input_model[h.chain[2]]);
    CHECK_EQ_INT(tdn_ik_look_at(h.skel, &on_end, &pose, model, NULL, NULL), TDN_OK);
    CHECK(memcmp(pose.data, h.input.data, tdn_pose_bytes(h.n)) == 0);
    CHECK_EQ_INT(tdn_ik_look_at(h.skel, &ok, &pose, model, NULL, NULL), TDN_OK);
    CHECK(memcmp(pose.data, h.input.data, tdn_pose_bytes(h.n)) != 0);
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&small);
    humanoid_free(&h);
}

/* A one-joint chain whose joint is a skeleton root, model space computed with a placement. */
static void root_joint_with_a_placement(void)
{
    const int parents[2] = { -1, 0 };
    tdn_transform rest[2] = { tdn_transform_identity(), tdn_transform_identity() };
    rest[1].t = tdn_vec3_make(0, 0, 1);
    tdn_skeleton *s = NULL;
    tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 2, .parents = parents, .rest_pose = rest }, &s, NULL,
                        NULL);
    if (!CHECK(s != NULL))
        return;
    tdn_pose pose;
    tdn_pose_create(2, &pose, NULL, NULL);
    tdn_pose_set_rest(&pose, s, NULL);
    tdn_transform place = { { 3, 1, -2 },
                            tdn_quat_from_axis_angle(tdn_vec3_normalize(tdn_vec3_make(1, 2, 0)), 0.8f),
                            { 1.5f, 1.5f, 1.5f } };
    tdn_mat4 root = tdn_transform_to_mat4(&place), model[2];
    tdn_model_space(s, &pose, &root, model, NULL);
    const int chain[1] = { 0 };
    tdn_ik_look_at_job ik = {
        .joints = chain, .joint_count = 1, .axis = { 1, 0, 0 }, .target = { -4, 5, 2 }, .weight = 1
    };
    float e;
    CHECK_EQ_INT(tdn_ik_look_at(s, &ik, &pose, model, &e, NULL), TDN_OK);
    CHECK(e < 1e-4);
    CHECK(aim_error(s, &pose, &root, 0, ik.axis, ik.target) < 1e-4);
    CHECK_NEAR(model_mismatch(s, &pose, &root, model), 0, 1e-5);
    tdn_pose_destroy(&pose);
    tdn_skeleton_destroy(s);
}

static void solves_never_allocate(void)
{
    const int parents[4] = { -1, 0, 1, 2 };
    tdn_transform rest[4] = { tdn_transform_identity(), tdn_transform_identity(), tdn_transform_identity(),
                              tdn_transform_identity() };
    for (int j = 1; j < 4; j++)
        rest[j].t = tdn_vec3_make(0, 0.3f, 0);
    tdn_skeleton *s = NULL;
    tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 4, .parents = parents, .rest_pose = rest }, &s, &counting,
                        NULL);
    if (!CHECK(s != NULL))
        return;
    tdn_pose pose;
    tdn_pose_create(4, &pose, &counting, NULL);
    tdn_pose_set_rest(&pose, s, NULL);
    tdn_mat4 model[4];
    tdn_model_space(s, &pose, NULL, model, NULL);
    long blocks = live_blocks;
    allocations_before_failure = 0;
    check_rng rng = { 9 };
    const int chain[3] = { 1, 2, 3 };
    const float max_angles[3] = { 0.3f, 0.3f, 0.5f };
    for (int i = 0; i < 100; i++) {
        tdn_ik_look_at_job ik = { .joints = chain,
                                  .joint_count = 3,
                                  .axis = { 0, 0, 1 },
                                  .up_hint = { 0, 1, 0 },
                                  .target = check_rng_vec3(&rng, -3, 3),
                                  .max_angles = i % 2 ? max_angles : NULL,
                                  .weight = 0.8f };
        CHECK_EQ_INT(tdn_ik_look_at(s, &ik, &pose, model, NULL, NULL), TDN_OK);
    }
    allocations_before_failure = -1;
    CHECK_EQ_INT(live_blocks, blocks);
    tdn_pose_destroy(&pose);
    tdn_skeleton_destroy(s);
    CHECK_EQ_INT(live_blocks, 0);
}

int main(void)
{
    RUN(unlimited_chain_aims_exactly);
    RUN(limits_hold_joint_by_joint);
    RUN(spread_and_clamps_by_hand);
    RUN(target_circling_behind_moves_the_head_continuously);
    RUN(up_hint_keeps_the_head_level);
    RUN(weights_fade_the_aim);
    RUN(bad_arguments_change_nothing);
    RUN(root_joint_with_a_placement);
    RUN(solves_never_allocate);
    return check_summary();
}
