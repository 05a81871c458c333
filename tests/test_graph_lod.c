/* Level of detail by update rate (graph.h, "level of detail"):
 *  - the shown pose between evaluations, worked by hand from the full-rate poses of a clip whose
 *    values are closed forms of time: translations and scales a fraction k/n of the way after k
 *    of n steps, rotations the angle that k nlerps give (computed on angles), the root the
 *    full-rate pose rate - 1 frames late;
 *  - on the BlendMotion showcase (root motion extracted, events, transitions): the root motion
 *    and the events of every frame the same bits as at full rate, rate 1 the same bits as no
 *    level of detail, and the shown pose anchored in the world where it was evaluated;
 *  - a crowd at changing rates: every split the same bits as each character alone;
 *  - the budget mode's choices against a hand-worked crowd, and its properties on random ones
 *    (rates fall with importance, the cost fits the budget when it can, a larger budget never
 *    lowers a rate, every character at max_rate when nothing fits);
 *  - bad level-of-detail states and budgets, named.
 * That batch frames with level of detail and the budget mode never allocate is in test_no_alloc. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "graph_drive.h"
#include "graph_fixture.h"
#include "tendon/io/graph_document.h"

#define DT (1.0f / 60.0f)

static const char *const BLENDMOTION = TENDON_SOURCE_DIR "/examples/graphs/blendmotion.json";

static tdn_result run_one(tdn_graph_character *c, tdn_graph_workspace *ws)
{
    const tdn_graph_batch_desc d = { .characters = c, .character_count = 1, .workspaces = &ws, .worker_count = 1 };
    return tdn_graph_evaluate_batch(&d, NULL);
}

/* The angle of a rotation about +z (its axis's z sign taken), in double. */
static double z_angle(tdn_quat q) { return 2.0 * atan2((double)q.z, (double)q.w); }

/* ---- the shown pose between evaluations, by hand ---- */

static void approach_is_worked_by_hand(void)
{
    enum { RATE = 4, FRAMES = 40 };
    make_skeleton();
    /* root x = t (m), joint 1 turns about z by up to 1.2 rad, joint 2 scales 1 -> 2 over 1 s */
    const tdn_clip *clip = make_clip((clip_spec){ "c", 1, 1, 1.2f, 2, { 0, 0, 1 }, NULL, 0 }, 0);
    tdn_node_desc node = { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP };
    tdn_graph_desc gd = { .skeleton = skeleton, .clips = &clip, .clip_count = 1, .nodes = &node, .node_count = 1 };
    tdn_graph *g = NULL;
    CHECK_EQ_INT(tdn_graph_create(&gd, &g, NULL, NULL), TDN_OK);
    tdn_graph_instance *full = NULL, *lodded = NULL;
    tdn_graph_workspace *ws = NULL;
    CHECK_EQ_INT(tdn_graph_instance_create(g, &full, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_graph_instance_create(g, &lodded, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_graph_workspace_create((const tdn_graph *const *)&g, 1, &ws, NULL, NULL), TDN_OK);
    tdn_pose p[FRAMES], shown, target;
    for (int f = 0; f < FRAMES; f++)
        tdn_pose_create(JOINTS, &p[f], NULL, NULL);
    tdn_pose_create(JOINTS, &shown, NULL, NULL);
    tdn_pose_create(JOINTS, &target, NULL, NULL);
    tdn_graph_lod lod = { .rate = RATE, .shown = &shown, .target = &target };
    tdn_graph_character c = { .instance = lodded, .dt = DT, .lod = &lod };
    for (int f = 0; f < FRAMES; f++) {
        tdn_graph_update(full, DT, NULL);
        tdn_graph_evaluate(full, &p[f], NULL);
        CHECK_EQ_INT(run_one(&c, ws), TDN_OK);
        /* The schedule: frame 0 evaluates (the first), frame 1 too (shown has arrived), then
         * every 4th frame. The segment being shown runs from the pose the previous approach
         * reached (a) to the one evaluated last (b), in n steps; this frame took step k. */
        int a, b, n, k;
        if (f == 0)
            a = b = 0, n = k = 1;
        else if (f < RATE)
            a = 0, b = 1, n = RATE - 1, k = f;
        else
            b = f / RATE * RATE, a = b == RATE ? 1 : b - RATE, n = RATE, k = f - b + 1;
        const double frac = (double)k / n;
        for (int j = 0; j < JOINTS; j++) {
            const tdn_transform x = tdn_pose_get(&shown, j), xa = tdn_pose_get(&p[a], j), xb = tdn_pose_get(&p[b], j);
            CHECK_NEAR(x.t.x, xa.t.x + frac * (xb.t.x - xa.t.x), 1e-6);
            CHECK_NEAR(x.s.y, xa.s.y + frac * (xb.s.y - xa.s.y), 1e-6);
        }
        /* joint 1: k nlerps about z, each taking 1/(steps left) of the way from where it is */
        double psi = z_angle(tdn_pose_get(&p[a], 1).r);
        const double phi = z_angle(tdn_pose_get(&p[b], 1).r);
        for (int step = 1; step <= k; step++) {
            const double w = 1.0 / (n - step + 1);
            psi = 2.0 * atan2((1 - w) * sin(psi / 2) + w * sin(phi / 2), (1 - w) * cos(psi / 2) + w * cos(phi / 2));
        }
        CHECK_NEAR(z_angle(tdn_pose_get(&shown, 1).r), psi, 2e-6);
        /* the root slides at 1 m/s: the shown pose is the full-rate one rate - 1 frames late
         * (once the evaluations are rate frames apart: the first segment, frames 1 to 4, is 3) */
        if (f >= 2 * RATE)
            CHECK_NEAR(tdn_pose_get(&shown, 0).t.x, tdn_pose_get(&p[f - (RATE - 1)], 0).t.x, 2e-6);
    }
    CHECK(tdn_pose_get(&shown, 0).t.x > 0.5f); /* it moved */
    for (int f = 0; f < FRAMES; f++)
        tdn_pose_destroy(&p[f]);
    tdn_pose_destroy(&shown);
    tdn_pose_destroy(&target);
    tdn_graph_workspace_destroy(ws);
    tdn_graph_instance_destroy(full);
    tdn_graph_instance_destroy(lodded);
    tdn_graph_destroy(g);
    tdn_clip_destroy((tdn_clip *)clip);
    tdn_skeleton_destroy(skeleton);
}

/* ---- root motion, events and the world on the showcase ---- */

typedef struct world {
    tdn_vec3 position;
    tdn_quat facing;
} world;

static void world_step(world *w, const tdn_root_motion *m)
{
    w->position = tdn_vec3_add(w->position, tdn_quat_rotate(w->facing, m->translation));
    w->facing = tdn_quat_normalize(tdn_quat_mul(w->facing, m->rotation));
}

static void root_motion_and_events_are_full_rate(const tdn_graph_document *doc)
{
    enum { RATE = 4, FRAMES = 600, HISTORY = RATE };
    const tdn_graph *g = tdn_graph_document_graph(doc);
    const int joints = tdn_skeleton_joint_count(tdn_graph_document_skeleton(doc));
    tdn_graph_instance *in[3]; /* full rate, rate 4, rate 1 */
    tdn_pose out[3], shown[2], target[2];
    tdn_graph_lod lod[2];
    tdn_graph_character c[3];
    tdn_graph_workspace *ws = NULL;
    CHECK_EQ_INT(tdn_graph_workspace_create(&g, 1, &ws, NULL, NULL), TDN_OK);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_INT(tdn_graph_instance_create(g, &in[i], NULL, NULL), TDN_OK);
        tdn_pose_create(joints, &out[i], NULL, NULL);
        c[i] = (tdn_graph_character){ .instance = in[i], .dt = DT, .pose = &out[i] };
    }
    for (int i = 0; i < 2; i++) {
        tdn_pose_create(joints, &shown[i], NULL, NULL);
        tdn_pose_create(joints, &target[i], NULL, NULL);
        lod[i] = (tdn_graph_lod){ .rate = i ? 1 : RATE, .shown = &shown[i], .target = &target[i] };
        c[i + 1].lod = &lod[i];
    }
    /* the full-rate character's world and root joint at the last frames: the shown pose at an
     * arrival frame is the one evaluated rate - 1 frames before, where it was evaluated */
    world w = { { 0, 0, 0 }, tdn_quat_identity() };
    world past[HISTORY];
    tdn_transform past_root[HISTORY];
    int root_motion_differs = 0, events_differ = 0, rate_1_differs = 0, lagged = 0, moved = 0;
    double worst_position = 0, worst_angle = 0;
    for (int f = 0; f < FRAMES; f++) {
        for (int i = 0; i < 3; i++) {
            drive(in[i], 0, f);
            CHECK_EQ_INT(run_one(&c[i], ws), TDN_OK);
        }
        tdn_root_motion m[3];
        const tdn_graph_event *e[3];
        int n[3], dropped[3];
        for (int i = 0; i < 3; i++) {
            tdn_graph_root_motion(in[i], &m[i], NULL);
            n[i] = tdn_graph_events(in[i], &e[i], &dropped[i]);
        }
        for (int i = 1; i < 3; i++) {
            root_motion_differs += memcmp(&m[0], &m[i], sizeof m[0]) != 0;
            events_differ += n[0] != n[i] || dropped[0] != dropped[i] ||
                             (n[0] > 0 && memcmp(e[0], e[i], sizeof(tdn_graph_event) * (size_t)n[0]) != 0);
        }
        rate_1_differs += memcmp(out[0].data, out[2].data, tdn_pose_bytes(joints)) != 0;
        lagged += memcmp(out[0].data, out[1].data, tdn_pose_bytes(joints)) != 0;
        world_step(&w, &m[0]);
        moved += tdn_vec3_length(m[0].translation) > 1e-4f;
        past[f % HISTORY] = w;
        past_root[f % HISTORY] = tdn_pose_get(&out[0], 0);
        if (f >= RATE && f % RATE == RATE - 1) { /* arrived: shows frame f - 3's pose */
            const world then = past[(f - (RATE - 1)) % HISTORY];
            const tdn_transform was = past_root[(f - (RATE - 1)) % HISTORY], now = tdn_pose_get(&out[1], 0);
            const tdn_vec3 p0 = tdn_vec3_add(then.position, tdn_quat_rotate(then.facing, was.t));
            const tdn_vec3 p1 = tdn_vec3_add(w.position, tdn_quat_rotate(w.facing, now.t));
            worst_position = fmax(worst_position, tdn_vec3_length(tdn_vec3_sub(p0, p1)));
            worst_angle = fmax(worst_angle,
                               tdn_quat_angle_between(tdn_quat_mul(then.facing, was.r), tdn_quat_mul(w.facing, now.r)));
        }
    }
    printf("  %d frames at rate %d: %d lagged, %d moving; shown pose against where it was evaluated: %.2g m, %.2g "
           "rad\n",
           FRAMES, RATE, lagged, moved, worst_position, worst_angle);
    CHECK_EQ_INT(root_motion_differs, 0);
    CHECK_EQ_INT(events_differ, 0);
    CHECK_EQ_INT(rate_1_differs, 0);
    CHECK(lagged > FRAMES / 2);   /* rate 4 did show other poses */
    CHECK(moved > FRAMES / 4);    /* and the character walked */
    CHECK(worst_position < 1e-4); /* anchored in the world, not in the moving character frame */
    CHECK(worst_angle < 1e-4);
    for (int i = 0; i < 3; i++) {
        tdn_graph_instance_destroy(in[i]);
        tdn_pose_destroy(&out[i]);
    }
    for (int i = 0; i < 2; i++) {
        tdn_pose_destroy(&shown[i]);
        tdn_pose_destroy(&target[i]);
    }
    tdn_graph_workspace_destroy(ws);
}

/* ---- splits ---- */

enum { CROWD = 12, SPLIT_FRAMES = 200, SPLITS = 4 };

typedef struct lod_crowd {
    tdn_graph_instance *in[CROWD];
    tdn_pose pose[CROWD], shown[CROWD], target[CROWD];
    tdn_mat4 *model, *palette; /* CROWD * joints */
    tdn_graph_lod lod[CROWD];
    tdn_graph_character c[CROWD];
} lod_crowd;

static void every_split_is_each_alone(const tdn_graph_document *doc)
{
    const tdn_graph *g = tdn_graph_document_graph(doc);
    const int joints = tdn_skeleton_joint_count(tdn_graph_document_skeleton(doc));
    /* alone (batches of one), serial in tasks of 16, reversed in tasks of 1 on 3 workers and of
     * 5 on 2; the last shows in the character's pose output itself */
    const int per_task[SPLITS] = { 1, 16, 1, 5 }, workers[SPLITS] = { 1, 1, 3, 2 };
    lod_crowd *crowds = calloc(SPLITS, sizeof *crowds);
    tdn_graph_workspace *ws[3];
    for (int w = 0; w < 3; w++)
        CHECK_EQ_INT(tdn_graph_workspace_create(&g, 1, &ws[w], NULL, NULL), TDN_OK);
    for (int s = 0; s < SPLITS; s++) {
        lod_crowd *cr = &crowds[s];
        cr->model = calloc((size_t)CROWD * (size_t)joints, sizeof(tdn_mat4));
        cr->palette = calloc((size_t)CROWD * (size_t)joints, sizeof(tdn_mat4));
        for (int k = 0; k < CROWD; k++) {
            CHECK_EQ_INT(tdn_graph_instance_create(g, &cr->in[k], NULL, NULL), TDN_OK);
            tdn_pose_create(joints, &cr->pose[k], NULL, NULL);
            tdn_pose_create(joints, &cr->shown[k], NULL, NULL);
            tdn_pose_create(joints, &cr->target[k], NULL, NULL);
            cr->lod[k] = (tdn_graph_lod){ .clock = (unsigned)k,
                                          .shown = s == SPLITS - 1 ? &cr->pose[k] : &cr->shown[k],
                                          .target = &cr->target[k] };
            cr->c[k] = (tdn_graph_character){ cr->in[k],
                                              DT,
                                              &cr->pose[k],
                                              cr->model + (size_t)k * (size_t)joints,
                                              cr->palette + (size_t)k * (size_t)joints,
                                              NULL,
                                              &cr->lod[k],
                                              NULL };
        }
    }
    int differing[SPLITS] = { 0 };
    for (int f = 0; f < SPLIT_FRAMES; f++)
        for (int s = 0; s < SPLITS; s++) {
            lod_crowd *cr = &crowds[s];
            for (int k = 0; k < CROWD; k++) {
                drive(cr->in[k], k, f);
                cr->lod[k].rate = 1 << ((k + f / 25) % 4); /* rates change as the frames go */
            }
            if (s == 0) {
                for (int k = 0; k < CROWD; k++)
                    CHECK_EQ_INT(run_one(&cr->c[k], ws[0]), TDN_OK);
                continue;
            }
            const tdn_graph_batch_desc d = { .characters = cr->c,
                                             .character_count = CROWD,
                                             .workspaces = ws,
                                             .worker_count = workers[s],
                                             .parallel_for = workers[s] > 1 ? reversed_for : NULL,
                                             .parallel_user = (void *)&workers[s],
                                             .characters_per_task = per_task[s] };
            CHECK_EQ_INT(tdn_graph_evaluate_batch(&d, NULL), TDN_OK);
            for (int k = 0; k < CROWD; k++) {
                const size_t at = (size_t)k * (size_t)joints, mats = sizeof(tdn_mat4) * (size_t)joints;
                differing[s] += memcmp(cr->pose[k].data, crowds[0].pose[k].data, tdn_pose_bytes(joints)) != 0 ||
                                memcmp(cr->model + at, crowds[0].model + at, mats) != 0 ||
                                memcmp(cr->palette + at, crowds[0].palette + at, mats) != 0;
            }
        }
    for (int s = 1; s < SPLITS; s++)
        CHECK_EQ_INT(differing[s], 0);
    for (int s = 0; s < SPLITS; s++) {
        for (int k = 0; k < CROWD; k++) {
            tdn_graph_instance_destroy(crowds[s].in[k]);
            tdn_pose_destroy(&crowds[s].pose[k]);
            tdn_pose_destroy(&crowds[s].shown[k]);
            tdn_pose_destroy(&crowds[s].target[k]);
        }
        free(crowds[s].model);
        free(crowds[s].palette);
    }
    free(crowds);
    for (int w = 0; w < 3; w++)
        tdn_graph_workspace_destroy(ws[w]);
}

/* ---- bad states ---- */

static void bad_lod_states_are_named(const tdn_graph_document *doc)
{
    const tdn_graph *g = tdn_graph_document_graph(doc);
    const int joints = tdn_skeleton_joint_count(tdn_graph_document_skeleton(doc));
    tdn_graph_instance *in = NULL;
    tdn_graph_workspace *ws = NULL;
    tdn_pose shown, target, small;
    CHECK_EQ_INT(tdn_graph_instance_create(g, &in, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_graph_workspace_create(&g, 1, &ws, NULL, NULL), TDN_OK);
    tdn_pose_create(joints, &shown, NULL, NULL);
    tdn_pose_create(joints, &target, NULL, NULL);
    tdn_pose_create(joints - 1, &small, NULL, NULL);
    tdn_graph_lod good = { .rate = 2, .shown = &shown, .target = &target };
    const tdn_graph_lod bad[4] = { { .rate = 2, .target = &target },
                                   { .rate = 2, .shown = &shown, .target = &small },
                                   { .rate = 2, .shown = &shown, .target = &shown },
                                   { .rate = 2, .shown = &small, .target = &target } };
    const char *const wheres[4] = { "characters[1].lod.shown", "characters[1].lod.target", "characters[1].lod.target",
                                    "characters[1].lod.shown" };
    tdn_graph_lod other = good;
    tdn_graph_character c[2] = { { .instance = in, .dt = DT, .lod = &good },
                                 { .instance = in, .dt = -1, .lod = &other } };
    const tdn_graph_batch_desc d = { .characters = c, .character_count = 2, .workspaces = &ws, .worker_count = 1 };
    for (int i = 0; i < 4; i++) {
        other = bad[i];
        tdn_error err = { 0 };
        CHECK_EQ_INT(tdn_graph_evaluate_batch(&d, &err), TDN_ERR_ARGUMENT);
        if (!CHECK(strcmp(err.where, wheres[i]) == 0))
            printf("  case %d: where '%s', want '%s' (%s)\n", i, err.where, wheres[i], err.message);
        CHECK_EQ_INT(good.primed, 0); /* nothing ran */
    }
    tdn_pose_destroy(&shown);
    tdn_pose_destroy(&target);
    tdn_pose_destroy(&small);
    tdn_graph_workspace_destroy(ws);
    tdn_graph_instance_destroy(in);
}

/* ---- the budget mode ---- */

/* Six characters; a character-frame costs 10 evaluated and 2 interpolated, so a character costs
 * 10 at rate 1, 6 at 2, 4 at 4 and 3 at 8 per frame. Rate r needs r * importance <= s. As the
 * scale s grows: below 0.5 everyone that matters is at rate 1 (the one of importance 0 is at 8):
 * 5 * 10 + 3 = 53; from 0.5 the 0.25 goes to 2 (49); from 1 to 4, with 0.5 at 2 (43); from 2:
 * 0.25 at 8, 0.5 at 4, 1 at 2 (36); from 4: 0.5 at 8, 1 at 4, 2 at 2 (29); the least there is:
 * all at 8, 18. */
static void budget_is_worked_by_hand(void)
{
    const float importance[6] = { 4, 2, 1, 0.5f, 0.25f, 0 };
    const struct {
        double budget, cost;
        int rates[6];
    } cases[] = {
        { 100, 53, { 1, 1, 1, 1, 1, 8 } }, { 53, 53, { 1, 1, 1, 1, 1, 8 } }, { 50, 49, { 1, 1, 1, 1, 2, 8 } },
        { 40, 36, { 1, 1, 2, 4, 8, 8 } },  { 30, 29, { 1, 2, 4, 8, 8, 8 } }, { 10, 18, { 8, 8, 8, 8, 8, 8 } }
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const tdn_graph_lod_budget b = { cases[i].budget, 10, 2, 8 };
        int rates[6];
        double cost = -1;
        CHECK_EQ_INT(tdn_graph_lod_choose_rates(importance, 6, &b, rates, &cost, NULL), TDN_OK);
        CHECK_NEAR(cost, cases[i].cost, 1e-9);
        for (int k = 0; k < 6; k++)
            if (!CHECK_EQ_INT(rates[k], cases[i].rates[k]))
                printf("  budget %g, character %d\n", cases[i].budget, k);
    }
    /* max_rate 2 (10 at rate 1, 6 at 2): from s = 4 only the 4 stays at rate 1, 10 + 5 * 6 = 40 */
    const tdn_graph_lod_budget two = { 40, 10, 2, 2 };
    int rates[6];
    double cost;
    CHECK_EQ_INT(tdn_graph_lod_choose_rates(importance, 6, &two, rates, &cost, NULL), TDN_OK);
    CHECK_NEAR(cost, 40, 1e-9);
    CHECK_EQ_INT(rates[0], 1);
    CHECK_EQ_INT(rates[1], 2);
}

static double crowd_cost(const int *rates, int n, const tdn_graph_lod_budget *b)
{
    double cost = 0;
    for (int k = 0; k < n; k++)
        cost += b->interpolated_ns + (b->evaluated_ns - b->interpolated_ns) / rates[k];
    return cost;
}

static void budget_properties_hold(void)
{
    enum { N = 500 };
    check_rng rng = { 0x10D5EEDull };
    float importance[N];
    int rates[N], more[N];
    int fits = 0, over = 0, monotone_breaks = 0, budget_breaks = 0, levels_seen = 0;
    for (int trial = 0; trial < 200; trial++) {
        const int n = 1 + (int)(check_rng_u32(&rng) % N);
        for (int k = 0; k < n; k++) /* distances from 1 to 200: importance 1 / distance; a few 0 */
            importance[k] = check_rng_u32(&rng) % 50 == 0 ? 0.0f : 1.0f / check_rng_float(&rng, 1, 200);
        const int max_rate = 1 << (check_rng_u32(&rng) % 5);
        tdn_graph_lod_budget b = { 0, check_rng_float(&rng, 2000, 20000), 0, max_rate };
        b.interpolated_ns = b.evaluated_ns * check_rng_float(&rng, 0.05f, 0.5f);
        const double least = n * (b.interpolated_ns + (b.evaluated_ns - b.interpolated_ns) / max_rate);
        b.budget_ns = least * check_rng_float(&rng, 0.8f, 3.0f);
        double cost;
        CHECK_EQ_INT(tdn_graph_lod_choose_rates(importance, n, &b, rates, &cost, NULL), TDN_OK);
        CHECK_NEAR(cost, crowd_cost(rates, n, &b), 1e-6 * cost);
        if (least <= b.budget_ns) {
            fits++;
            CHECK(cost <= b.budget_ns);
        } else {
            over++;
            for (int k = 0; k < n; k++)
                CHECK_EQ_INT(rates[k], max_rate);
        }
        int seen = 0;
        for (int k = 0; k < n; k++) {
            CHECK(rates[k] >= 1 && rates[k] <= max_rate && (rates[k] & (rates[k] - 1)) == 0);
            seen |= rates[k];
            for (int l = 0; l < n; l++)
                monotone_breaks += importance[k] > importance[l] && rates[k] > rates[l];
        }
        levels_seen += seen != 1 && seen != max_rate; /* a mix of rates */
        /* a larger budget never raises a rate */
        b.budget_ns *= 1.25;
        CHECK_EQ_INT(tdn_graph_lod_choose_rates(importance, n, &b, more, NULL, NULL), TDN_OK);
        for (int k = 0; k < n; k++)
            budget_breaks += more[k] > rates[k];
    }
    printf("  200 crowds: %d fit, %d could not; %d chose a mix of rates\n", fits, over, levels_seen);
    CHECK_EQ_INT(monotone_breaks, 0);
    CHECK_EQ_INT(budget_breaks, 0);
    CHECK(fits > 100 && over > 10 && levels_seen > 50);
}

static void bad_budgets_are_named(void)
{
    const float importance[2] = { 1, 2 };
    int rates[2];
    const struct {
        tdn_graph_lod_budget b;
        const char *where;
    } cases[] = { { { -1, 10, 2, 8 }, "budget.budget_ns" },    { { 100, 10, NAN, 8 }, "budget.interpolated_ns" },
                  { { 100, 1, 2, 8 }, "budget.evaluated_ns" }, { { 100, INFINITY, 2, 8 }, "budget.evaluated_ns" },
                  { { 100, 10, 2, 6 }, "budget.max_rate" },    { { 100, 10, 2, -4 }, "budget.max_rate" },
                  { { 100, 10, 2, 2048 }, "budget.max_rate" } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tdn_error err = { 0 };
        CHECK_EQ_INT(tdn_graph_lod_choose_rates(importance, 2, &cases[i].b, rates, NULL, &err), TDN_ERR_ARGUMENT);
        if (!CHECK(strcmp(err.where, cases[i].where) == 0))
            printf("  case %zu: where '%s' (%s)\n", i, err.where, err.message);
    }
    const tdn_graph_lod_budget ok = { 100, 10, 2, 8 };
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_graph_lod_choose_rates(importance, -1, &ok, rates, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "count") == 0);
    CHECK_EQ_INT(tdn_graph_lod_choose_rates(NULL, 2, &ok, rates, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "importance") == 0);
    CHECK_EQ_INT(tdn_graph_lod_choose_rates(importance, 2, &ok, NULL, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "rates") == 0);
    CHECK_EQ_INT(tdn_graph_lod_choose_rates(importance, 0, &ok, NULL, NULL, NULL), TDN_OK); /* nobody */
}

int main(void)
{
    RUN(approach_is_worked_by_hand);
    tdn_graph_document *doc = NULL;
    tdn_error err = { 0 };
    if (CHECK_EQ_INT(tdn_graph_document_load(BLENDMOTION, NULL, &doc, NULL, &err), TDN_OK)) {
        RUN_ARGS(root_motion_and_events_are_full_rate(doc));
        RUN_ARGS(every_split_is_each_alone(doc));
        RUN_ARGS(bad_lod_states_are_named(doc));
        tdn_graph_document_destroy(doc);
    } else {
        printf("%s: %s\n", err.where, err.message);
    }
    RUN(budget_is_worked_by_hand);
    RUN(budget_properties_hold);
    RUN(bad_budgets_are_named);
    return check_summary();
}
