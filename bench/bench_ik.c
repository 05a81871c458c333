/* tendon_bench: the `ik` workload (see bench_ik.h). */
#include "bench_ik.h"
#include "bench_ik_reference.h"

#include "tendon/ik_dls.h"
#include "tendon/ik_look_at.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IK_TARGETS 256
#define IK_WARM_FRAMES 600
#define IK_MAX_BONES 16

/* One chain: a base joint, then bones + 1 chain joints, each the child of the one before. */
typedef struct ik_chain {
    tdn_skeleton *skeleton;
    int bones, joint_count;
    int base; /* the parent of joints[0] */
    int joints[IK_MAX_BONES + 1];
    float length; /* the chain's length */
    tdn_pose pose, rest;
    tdn_mat4 model[IK_MAX_BONES + 2], rest_model[IK_MAX_BONES + 2];
} ik_chain;

/* How the untimed run checks a solver's answers (the references': a broken one must not
 * pass for a fast one): none (the solver's own `reached`), the end and bone lengths of the
 * model space of the pose it wrote, or of the positions it left in the chain's model
 * translations (ref_fabrik_passes, which writes no rotation). */
typedef enum ik_check { IK_CHECK_NONE, IK_CHECK_POSE, IK_CHECK_POSITIONS } ik_check;

/* A solver: name, the one chain length it takes (0: any), and one solve towards target from
 * the chain's current pose; returns 1 when the end is within the tolerance, and the
 * iterations made in *iterations. Checked solvers must reach at least min_reached of the
 * targets of every sequence. */
typedef struct ik_solver {
    const char *name;
    int only_bones;
    int (*solve)(ik_chain *chain, tdn_vec3 target, int *iterations);
    ik_check check;
    double min_reached;
} ik_solver;

static int solve_two_bone(ik_chain *c, tdn_vec3 target, int *iterations)
{
    /* no hint: the knee keeps the plane it bends in */
    tdn_ik_two_bone_job ik = { c->joints[0], c->joints[1], c->joints[2], target, { 0, 0, 0 }, 0, 1.0f, 0.0f };
    int reached = 0;
    tdn_ik_two_bone(c->skeleton, &ik, &c->pose, c->model, &reached, NULL);
    *iterations = 1;
    return reached;
}

static int solve_fabrik(ik_chain *c, tdn_vec3 target, int *iterations)
{
    tdn_ik_fabrik_job ik = { c->joints, c->bones + 1, target, 0.0f, 0, NULL, 1.0f };
    tdn_ik_result res = { 0, 0, 0 };
    tdn_ik_fabrik(c->skeleton, &ik, &c->pose, c->model, &res, NULL);
    *iterations = res.iterations;
    return res.reached;
}

static int solve_ccd(ik_chain *c, tdn_vec3 target, int *iterations)
{
    tdn_ik_ccd_job ik = { c->joints, c->bones + 1, target, 0.0f, 0, NULL, 0.0f, 1.0f };
    tdn_ik_result res = { 0, 0, 0 };
    tdn_ik_ccd(c->skeleton, &ik, &c->pose, c->model, &res, NULL);
    *iterations = res.iterations;
    return res.reached;
}

static int solve_dls(ik_chain *c, tdn_vec3 target, int *iterations)
{
    tdn_dls_target t = { .effector = c->joints[c->bones], .position = target, .weight = 1.0f };
    tdn_ik_dls_job ik = { .joints = c->joints,
                          .joint_count = c->bones + 1,
                          .targets = &t,
                          .target_count = 1,
                          .tolerance = 1e-3f * c->length,
                          .weight = 1.0f };
    tdn_ik_result res = { 0, 0, 0 };
    tdn_ik_dls(c->skeleton, &ik, &c->pose, c->model, &res, NULL);
    *iterations = res.iterations;
    return res.reached;
}

/* The chain's end (its +x, the bone direction of the rest chain) turned to face the target. */
static int solve_look_at(ik_chain *c, tdn_vec3 target, int *iterations)
{
    tdn_ik_look_at_job ik = {
        .joints = c->joints, .joint_count = c->bones + 1, .axis = { 1, 0, 0 }, .target = target, .weight = 1.0f
    };
    float angle_error = 0.0f;
    tdn_ik_look_at(c->skeleton, &ik, &c->pose, c->model, &angle_error, NULL);
    *iterations = 1;
    return angle_error < 1e-3f;
}

/* The textbook solvers of bench_ik_reference.c, under the same tolerance and iteration limits. */
static bench_ik_ref reference_of(ik_chain *c, tdn_vec3 target, int max_iterations)
{
    return (bench_ik_ref){ &c->pose,     c->model, c->base,           c->joints,
                           c->bones + 1, target,   1e-3f * c->length, max_iterations };
}

static int solve_ref_two_bone(ik_chain *c, tdn_vec3 target, int *iterations)
{
    const bench_ik_ref ik = reference_of(c, target, 1);
    *iterations = 1;
    return bench_ik_ref_two_bone(&ik);
}

static int solve_ref_fabrik(ik_chain *c, tdn_vec3 target, int *iterations)
{
    const bench_ik_ref ik = reference_of(c, target, TDN_FABRIK_DEFAULT_ITERATIONS);
    return bench_ik_ref_fabrik(&ik, iterations);
}

static int solve_ref_fabrik_passes(ik_chain *c, tdn_vec3 target, int *iterations)
{
    const bench_ik_ref ik = reference_of(c, target, TDN_FABRIK_DEFAULT_ITERATIONS);
    return bench_ik_ref_fabrik_passes(&ik, iterations);
}

static int solve_ref_ccd(ik_chain *c, tdn_vec3 target, int *iterations)
{
    const bench_ik_ref ik = reference_of(c, target, TDN_CCD_DEFAULT_ITERATIONS);
    return bench_ik_ref_ccd(&ik, iterations);
}

/* The references' min_reached: a little under what they reach on these chains (two-bone:
 * every target; FABRIK 0.98-1; CCD, without a stall test, 0.85-1). */
static const ik_solver solvers[] = {
    { "two_bone", 2, solve_two_bone, IK_CHECK_NONE, 0.0 },
    { "fabrik", 0, solve_fabrik, IK_CHECK_NONE, 0.0 },
    { "ccd", 0, solve_ccd, IK_CHECK_NONE, 0.0 },
    { "dls", 0, solve_dls, IK_CHECK_NONE, 0.0 },
    { "look_at", 0, solve_look_at, IK_CHECK_NONE, 0.0 },
    { "ref_two_bone", 2, solve_ref_two_bone, IK_CHECK_POSE, 0.99 },
    { "ref_fabrik", 0, solve_ref_fabrik, IK_CHECK_POSE, 0.95 },
    { "ref_fabrik_passes", 0, solve_ref_fabrik_passes, IK_CHECK_POSITIONS, 0.95 },
    { "ref_ccd", 0, solve_ref_ccd, IK_CHECK_POSE, 0.8 },
};

static const int chain_bones[] = { 2, 4, 8, 10, 16 };

/* ---- deterministic random numbers (xorshift64*) ---- */
static uint32_t next_u32(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (uint32_t)((*s * 2685821657736338717ull) >> 32);
}
static float uniform(uint64_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)(next_u32(s) >> 8) * (1.0f / 16777216.0f);
}
static tdn_quat random_turn(uint64_t *s, float max_angle)
{
    tdn_vec3 axis = tdn_vec3_normalize(tdn_vec3_make(uniform(s, -1, 1), uniform(s, -1, 1), uniform(s, -1, 1) + 1e-3f));
    return tdn_quat_from_axis_angle(axis, uniform(s, -max_angle, max_angle));
}

static tdn_vec3 position_in(const tdn_mat4 *model, int joint)
{
    const float *m = model[joint].m;
    return tdn_vec3_make(m[12], m[13], m[14]);
}
static tdn_vec3 end_of(const ik_chain *c) { return position_in(c->model, c->joints[c->bones]); }
static tdn_vec3 root_of(const ik_chain *c) { return position_in(c->model, c->joints[0]); }
/* Bone i's length in model space `model`. */
static float bone_length(const ik_chain *c, const tdn_mat4 *model, int i)
{
    return tdn_vec3_length(tdn_vec3_sub(position_in(model, c->joints[i + 1]), position_in(model, c->joints[i])));
}

static void chain_free(ik_chain *c)
{
    tdn_pose_destroy(&c->pose);
    tdn_pose_destroy(&c->rest);
    tdn_skeleton_destroy(c->skeleton);
}

static tdn_result chain_init(ik_chain *c, int bones, uint64_t *rng)
{
    memset(c, 0, sizeof *c);
    tdn_transform rest[IK_MAX_BONES + 2];
    int parents[IK_MAX_BONES + 2];
    const int n = bones + 2;
    rest[0] = tdn_transform_identity();
    rest[0].t = tdn_vec3_make(0.2f, 1.3f, 0.1f);
    rest[0].r = tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), -1.2f);
    parents[0] = -1;
    for (int j = 1; j < n; j++) {
        rest[j] = tdn_transform_identity();
        rest[j].r = j < n - 1 ? random_turn(rng, 0.35f) : tdn_quat_identity();
        rest[j].t = j > 1 ? tdn_vec3_make(0, uniform(rng, 0.06f, 0.2f), 0) : tdn_vec3_make(0.05f, 0, 0);
        parents[j] = j - 1;
    }
    tdn_skeleton_desc desc = { 0 };
    desc.joint_count = n;
    desc.parents = parents;
    desc.rest_pose = rest;
    tdn_result res = tdn_skeleton_create(&desc, &c->skeleton, NULL, NULL);
    if (res == TDN_OK)
        res = tdn_pose_create(n, &c->pose, NULL, NULL);
    if (res == TDN_OK)
        res = tdn_pose_create(n, &c->rest, NULL, NULL);
    if (res == TDN_OK)
        res = tdn_pose_set_rest(&c->rest, c->skeleton, NULL);
    if (res == TDN_OK)
        res = tdn_model_space(c->skeleton, &c->rest, NULL, c->rest_model, NULL);
    if (res != TDN_OK) {
        chain_free(c);
        return res;
    }
    c->bones = bones;
    c->joint_count = n;
    c->base = parents[1];
    c->length = 0.0f;
    for (int i = 0; i <= bones; i++) {
        c->joints[i] = i + 1;
        if (i > 0)
            c->length += rest[i + 1].t.y;
    }
    tdn_pose_copy(&c->pose, &c->rest, NULL);
    memcpy(c->model, c->rest_model, sizeof(tdn_mat4) * (size_t)n);
    return TDN_OK;
}

static void restore(ik_chain *c)
{
    memcpy(c->pose.data, c->rest.data, tdn_pose_bytes(c->joint_count));
    memcpy(c->model, c->rest_model, sizeof(tdn_mat4) * (size_t)c->joint_count);
}

/* The inner edge of the reach: 0 unless one bone outweighs all the others. */
static float inner_reach(const ik_chain *c)
{
    float longest = 0.0f;
    for (int i = 0; i < c->bones; i++) {
        float l = bone_length(c, c->rest_model, i);
        longest = l > longest ? l : longest;
    }
    return 2.0f * longest - c->length > 0.0f ? 2.0f * longest - c->length : 0.0f;
}

/* Reachable targets: the end under random turns of every chain joint (up to 1.2 rad), away
 * from the edges of the reach by 2% of the length. */
static void cold_targets(ik_chain *c, uint64_t *rng, tdn_vec3 *targets)
{
    const tdn_vec3 root = root_of(c);
    const float inner = inner_reach(c), margin = 0.02f * c->length;
    for (int k = 0; k < IK_TARGETS;) {
        tdn_pose_copy(&c->pose, &c->rest, NULL);
        for (int i = 0; i < c->bones; i++) {
            tdn_transform x = tdn_pose_get(&c->pose, c->joints[i]);
            x.r = tdn_quat_mul(x.r, random_turn(rng, 1.2f));
            tdn_pose_set(&c->pose, c->joints[i], &x);
        }
        tdn_model_space(c->skeleton, &c->pose, NULL, c->model, NULL);
        tdn_vec3 t = end_of(c);
        float d = tdn_vec3_length(tdn_vec3_sub(t, root));
        if (d >= inner + margin && d <= c->length - margin)
            targets[k++] = t;
    }
    restore(c);
}

/* The warm path: a circle of radius 0.35 of the reach's depth about its middle, in a plane
 * through the root, 2% of the chain's length per frame. */
static void warm_targets(ik_chain *c, uint64_t *rng, tdn_vec3 *targets)
{
    const tdn_vec3 root = root_of(c);
    const float inner = inner_reach(c);
    tdn_vec3 w = tdn_vec3_normalize(
        tdn_vec3_make(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1) + 1e-3f));
    tdn_vec3 side = tdn_vec3_normalize(tdn_vec3_cross(w, tdn_vec3_make(0.3f, 0.4f, 0.86f)));
    const float radius = 0.35f * (c->length - inner), mid = 0.5f * (inner + c->length);
    const tdn_vec3 centre = tdn_vec3_add(root, tdn_vec3_scale(w, mid));
    const float step = 0.02f * c->length / radius;
    for (int f = 0; f < IK_WARM_FRAMES; f++) {
        float a = step * (float)f;
        targets[f] = tdn_vec3_add(
            centre, tdn_vec3_add(tdn_vec3_scale(w, radius * cosf(a)), tdn_vec3_scale(side, radius * sinf(a))));
    }
}

typedef struct ik_ctx {
    ik_chain *chain;
    const ik_solver *solver;
    const tdn_vec3 *targets;
    int target_count, cursor;
    int cold;
} ik_ctx;

static void run_solves(void *p, long n)
{
    ik_ctx *c = p;
    int iterations;
    for (long i = 0; i < n; i++) {
        if (c->cold)
            restore(c->chain);
        c->solver->solve(c->chain, c->targets[c->cursor], &iterations);
        if (++c->cursor == c->target_count)
            c->cursor = 0;
    }
}

static void run_restores(void *p, long n)
{
    ik_ctx *c = p;
    for (long i = 0; i < n; i++)
        restore(c->chain);
}

static int compare_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* Whether a checked solver's answer holds (see ik_check): every bone its length, and the end
 * within the tolerance, with 2% of it for the rounding of model space through the written
 * rotations. */
static int answer_holds(const ik_chain *c, ik_check check, tdn_vec3 target)
{
    tdn_mat4 solved[IK_MAX_BONES + 2];
    const tdn_mat4 *model = c->model;
    if (check == IK_CHECK_POSE) {
        if (tdn_model_space(c->skeleton, &c->pose, NULL, solved, NULL) != TDN_OK)
            return 0;
        model = solved;
    }
    for (int i = 0; i < c->bones; i++)
        if (fabsf(bone_length(c, model, i) - bone_length(c, c->rest_model, i)) > 1e-5f * c->length)
            return 0;
    tdn_vec3 end = position_in(model, c->joints[c->bones]);
    return tdn_vec3_length(tdn_vec3_sub(end, target)) <= 1.02f * 1e-3f * c->length;
}

/* The untimed run of the sequence: median iterations and the fraction reached. For warm, the
 * first 10 frames (the chain settling from rest onto the path) are not counted. A checked
 * solver fails (TDN_ERR_TOLERANCE, the reason in err) when an answer it calls reached does
 * not hold or when it reaches less than its min_reached. */
static tdn_result sequence_figures(ik_ctx *c, double *median_iterations, double *reached, tdn_error *err)
{
    int counts[IK_WARM_FRAMES > IK_TARGETS ? IK_WARM_FRAMES : IK_TARGETS];
    int n = 0, ok = 0, wrong = 0;
    const ik_check check = c->solver->check;
    restore(c->chain);
    for (int k = 0; k < c->target_count; k++) {
        if (c->cold)
            restore(c->chain);
        int iterations = 0;
        int r = c->solver->solve(c->chain, c->targets[k], &iterations);
        if (r && check != IK_CHECK_NONE && !answer_holds(c->chain, check, c->targets[k]))
            wrong++;
        if (c->cold || k >= 10) {
            counts[n++] = iterations;
            ok += r;
        }
    }
    qsort(counts, (size_t)n, sizeof counts[0], compare_int);
    *median_iterations = n % 2 ? counts[n / 2] : 0.5 * (counts[n / 2 - 1] + counts[n / 2]);
    *reached = (double)ok / n;
    restore(c->chain);
    if (check != IK_CHECK_NONE && (wrong > 0 || *reached < c->solver->min_reached)) {
        if (err) {
            err->code = TDN_ERR_TOLERANCE;
            snprintf(
                err->message, sizeof err->message,
                "ik: %s on %d bones (%s): %d answers called reached are wrong, %.3f reached (at least %.3f expected)",
                c->solver->name, c->chain->bones, c->cold ? "cold" : "warm", wrong, *reached, c->solver->min_reached);
        }
        return TDN_ERR_TOLERANCE;
    }
    return TDN_OK;
}

/* One row, whatever the solver. */
static bench_row ik_row(const char *solver, const ik_chain *chain, const char *variant, bench_stats solve,
                        double restore_ns, double iterations, double reached)
{
    bench_row row = bench_row_make("ik", chain->bones + 1, variant, 1);
    row.median_ns = solve.median_ns - restore_ns;
    row.min_ns = solve.min_ns - restore_ns;
    row.ns_per_joint = row.median_ns / (chain->bones + 1);
    bench_row_add_text(&row, "solver", solver);
    bench_row_add_number(&row, "chain", chain->bones);
    bench_row_add_number(&row, "iterations", iterations);
    bench_row_add_number(&row, "reached", reached);
    bench_row_add_number(&row, "tolerance", 1e-3 * chain->length);
    bench_row_add_number(&row, "restore_ns", restore_ns);
    return row;
}

tdn_result bench_run_ik(int quick, bench_emit_fn emit, void *user, tdn_error *err)
{
    const bench_config cfg = bench_config_short(quick);
    tdn_vec3 *cold = malloc(sizeof(tdn_vec3) * IK_TARGETS), *warm = malloc(sizeof(tdn_vec3) * IK_WARM_FRAMES);
    if (!cold || !warm) {
        free(cold);
        free(warm);
        return bench_fail(err, TDN_ERR_OUT_OF_MEMORY, "ik targets");
    }
    tdn_result res = TDN_OK;
    for (size_t s = 0; s < sizeof solvers / sizeof solvers[0] && res == TDN_OK; s++) {
        for (size_t b = 0; b < sizeof chain_bones / sizeof chain_bones[0] && res == TDN_OK; b++) {
            const int bones = chain_bones[b];
            if (solvers[s].only_bones && solvers[s].only_bones != bones)
                continue;
            uint64_t rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)bones; /* the same chain and targets for every solver */
            ik_chain chain;
            res = chain_init(&chain, bones, &rng);
            if (res != TDN_OK)
                break;
            cold_targets(&chain, &rng, cold);
            warm_targets(&chain, &rng, warm);
            for (int v = 0; v < 2 && res == TDN_OK; v++) {
                ik_ctx ctx = { &chain, &solvers[s], v == 0 ? cold : warm, v == 0 ? IK_TARGETS : IK_WARM_FRAMES,
                               0,      v == 0 };
                double iterations, reached;
                res = sequence_figures(&ctx, &iterations, &reached, err);
                if (res != TDN_OK)
                    break;
                const double restore_ns = ctx.cold ? bench_measure(&cfg, run_restores, &ctx, 1.0).median_ns : 0.0;
                ctx.cursor = 0;
                bench_stats solve = bench_measure(&cfg, run_solves, &ctx, 1.0);
                bench_row row = ik_row(solvers[s].name, &chain, v == 0 ? "cold" : "warm", solve, restore_ns, iterations,
                                       reached);
                emit(&row, user);
            }
            chain_free(&chain);
        }
    }
    free(cold);
    free(warm);
    return res == TDN_OK ? TDN_OK : bench_fail(err, res, "ik setup");
}
