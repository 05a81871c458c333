/* FABRIK: random reachable targets are reached within the iteration limit (the iteration
 * distribution is printed) with the root anchored and every bone length kept; with joint
 * limits every limit holds (swing and twist measured against the rest rotation, in double
 * precision from the model matrices) and the fraction that still converges is printed;
 * unreachable targets give a straight chain pointing at them; weights fade; warm starts;
 * a chain rooted at the skeleton's root under a placement; bad arguments change nothing;
 * nothing is allocated. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"

/* ---- allocation counting: every malloc of the program (not under AddressSanitizer, which
 * owns the allocator; then the counting allocator hooks alone tell) ---- */
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#define COUNT_MALLOC 1
static long malloc_calls;
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *ptr);
void *malloc(size_t size) { malloc_calls++; return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { malloc_calls++; return __libc_calloc(n, size); }
void *realloc(void *ptr, size_t size) { malloc_calls++; return __libc_realloc(ptr, size); }
void *aligned_alloc(size_t align, size_t size) { malloc_calls++; return __libc_memalign(align, size); }
void free(void *ptr) { __libc_free(ptr); }
#else
#define COUNT_MALLOC 0
static long malloc_calls;
#endif

#define PI_D 3.14159265358979323846

/* ---- double-precision helpers (the reference side of the checks) ---- */
typedef struct dvec { double x, y, z; } dvec;
typedef struct dquat { double x, y, z, w; } dquat;

static dvec dv(tdn_vec3 v) { return (dvec){ v.x, v.y, v.z }; }
static dvec dsub(dvec a, dvec b) { return (dvec){ a.x - b.x, a.y - b.y, a.z - b.z }; }
static double ddot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static double dlen(dvec a) { return sqrt(ddot(a, a)); }
static dvec dscale(dvec a, double s) { return (dvec){ a.x * s, a.y * s, a.z * s }; }
static dvec dcross(dvec a, dvec b) { return (dvec){ a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x }; }
static dquat dq(tdn_quat q)
{
    double n = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    return (dquat){ q.x / n, q.y / n, q.z / n, q.w / n };
}
static dquat dqmul(dquat a, dquat b)
{
    return (dquat){ a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                    a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z };
}
static dquat dqconj(dquat q) { return (dquat){ -q.x, -q.y, -q.z, q.w }; }
static dvec dqrot(dquat q, dvec v)
{
    dvec u = { q.x, q.y, q.z };
    dvec t = dscale(dcross(u, v), 2.0);
    dvec r = dcross(u, t);
    return (dvec){ v.x + q.w * t.x + r.x, v.y + q.w * t.y + r.y, v.z + q.w * t.z + r.z };
}

static dvec position(const tdn_mat4 *m) { return (dvec){ m->m[12], m->m[13], m->m[14] }; }

/* ---- chains: a base joint, then `bones` bones of varied lengths and bends; a twist joint
 * halfway along every third bone (carried along, not in the chain) and a side joint on the
 * middle chain joint (moved with it) ---- */
#define MAX_BONES 16
#define MAX_JOINTS (2 * MAX_BONES + 4)

typedef struct rig {
    tdn_skeleton *skel;
    tdn_pose pose;
    tdn_mat4 model[MAX_JOINTS];
    int joint_count;
    int joints[TDN_MAX_IK_CHAIN];
    int count;
    double total;
    double base_scale;
} rig;

static tdn_quat random_rotation(check_rng *rng, float max_angle)
{
    tdn_vec3 axis = tdn_vec3_normalize(check_rng_vec3(rng, -1, 1));
    return tdn_quat_from_axis_angle(axis, check_rng_float(rng, -max_angle, max_angle));
}

/* The chain's rest pose is bent by up to `bend` radians per joint. */
static int rig_init(rig *r, int bones, check_rng *rng, float bend, int chain_at_root, const tdn_allocator *allocator)
{
    memset(r, 0, sizeof *r);
    tdn_transform rest[MAX_JOINTS];
    int parents[MAX_JOINTS];
    char names[MAX_JOINTS][16];
    const char *name_ptrs[MAX_JOINTS];
    int n = 0, chain[MAX_BONES + 1];
    r->base_scale = chain_at_root ? 1.0 : (bones % 2 ? 1.0 : 1.5);
    if (!chain_at_root) { /* the base, placed and turned */
        rest[n] = tdn_transform_identity();
        rest[n].t = tdn_vec3_make(0.3f, 1.0f, -0.2f);
        rest[n].r = tdn_quat_from_axis_angle(tdn_vec3_normalize(tdn_vec3_make(0.2f, 1, 0.1f)), 0.7f);
        rest[n].s = tdn_vec3_make((float)r->base_scale, (float)r->base_scale, (float)r->base_scale);
        parents[n] = -1;
        n++;
    }
    int previous = chain_at_root ? -1 : 0;
    for (int b = 0; b <= bones; b++) {
        chain[b] = n;
        rest[n] = tdn_transform_identity();
        rest[n].r = b < bones ? random_rotation(rng, bend) : tdn_quat_identity();
        parents[n] = previous;
        if (b > 0) {
            float length = check_rng_float(rng, 0.05f, 0.25f);
            tdn_vec3 along = tdn_vec3_make(check_rng_float(rng, -0.2f, 0.2f) * length, length, check_rng_float(rng, -0.2f, 0.2f) * length);
            if (parents[n] != chain[b - 1]) { /* through a twist joint halfway */
                rest[n - 1].t = tdn_vec3_scale(along, 0.5f);
                rest[n].t = tdn_quat_rotate(tdn_quat_conjugate(rest[n - 1].r), tdn_vec3_scale(along, 0.5f));
            } else {
                rest[n].t = along;
            }
        }
        previous = n++;
        if (b < bones && b % 3 == 1) { /* a twist joint inside the next bone */
            rest[n] = tdn_transform_identity();
            rest[n].r = random_rotation(rng, 0.4f);
            parents[n] = previous;
            previous = n++;
        }
    }
    /* the side joint, after the chain in depth-first order */
    rest[n] = tdn_transform_identity();
    rest[n].t = tdn_vec3_make(0.05f, 0.02f, 0.0f);
    parents[n] = chain[bones / 2];
    n++;
    for (int j = 0; j < n; j++) {
        snprintf(names[j], sizeof names[j], "j%d", j);
        name_ptrs[j] = names[j];
    }
    tdn_skeleton_desc desc = { 0 };
    desc.joint_count = n;
    desc.parents = parents;
    desc.rest_pose = rest;
    desc.names = name_ptrs;
    if (allocator)
        desc.allocator = *allocator;
    tdn_error err = { 0 };
    if (tdn_skeleton_create(&desc, &r->skel, NULL, &err) != TDN_OK) {
        fprintf(stderr, "skeleton: %s: %s\n", err.where, err.message);
        return 0;
    }
    r->joint_count = n;
    /* the chain leaves the twist joints out (tdn_ik_chain_path would list them) */
    r->count = bones + 1;
    for (int b = 0; b <= bones; b++)
        r->joints[b] = tdn_skeleton_find(r->skel, names[chain[b]]);
    if (tdn_pose_create(&r->pose, n, allocator) != TDN_OK)
        return 0;
    tdn_pose_set_rest(&r->pose, r->skel);
    tdn_model_space(r->skel, &r->pose, NULL, r->model);
    r->total = 0;
    for (int i = 0; i + 1 < r->count; i++)
        r->total += dlen(dsub(position(&r->model[r->joints[i + 1]]), position(&r->model[r->joints[i]])));
    return 1;
}

static void rig_free(rig *r)
{
    tdn_pose_destroy(&r->pose);
    tdn_skeleton_destroy(r->skel);
}

static void turn_chain(rig *r, check_rng *rng, float max_angle)
{
    for (int i = 0; i + 1 < r->count; i++) {
        tdn_transform x = tdn_pose_get(&r->pose, r->joints[i]);
        x.r = tdn_quat_mul(x.r, random_rotation(rng, max_angle));
        tdn_pose_set(&r->pose, r->joints[i], &x);
    }
    tdn_model_space(r->skel, &r->pose, NULL, r->model);
}

/* The chain's reach: the shell between `inner` (0 unless one bone is longer than all the others
 * together) and the chain's length, from its root. */
static double inner_reach(const rig *r)
{
    double longest = 0;
    for (int i = 0; i + 1 < r->count; i++)
        longest = fmax(longest, dlen(dsub(position(&r->model[r->joints[i + 1]]), position(&r->model[r->joints[i]]))));
    return fmax(0.0, 2 * longest - r->total);
}

/* A reachable target: where the end goes when the chain is turned at random (the pose is put
 * back afterwards), drawn again while it lies within 2% of the chain's length of the edges of
 * its reach (where FABRIK's linear convergence slows without bound). */
static tdn_vec3 reachable_target(rig *r, check_rng *rng, float max_angle)
{
    tdn_pose keep;
    tdn_pose_create(&keep, r->joint_count, NULL);
    tdn_pose_copy(&keep, &r->pose);
    const double inner = inner_reach(r), margin = 0.02 * r->total;
    const dvec a = position(&r->model[r->joints[0]]);
    dvec t;
    double d;
    do {
        tdn_pose_copy(&r->pose, &keep);
        turn_chain(r, rng, max_angle);
        t = position(&r->model[r->joints[r->count - 1]]);
        d = dlen(dsub(t, a));
    } while (d < inner + margin || d > r->total - margin);
    tdn_pose_copy(&r->pose, &keep);
    tdn_model_space(r->skel, &r->pose, NULL, r->model);
    tdn_pose_destroy(&keep);
    return tdn_vec3_make((float)t.x, (float)t.y, (float)t.z);
}

/* Largest relative change of a bone length against `before` (model positions), the root's
 * move, and the largest difference between model[] and model space recomputed from the pose. */
typedef struct shape_check { double bone, root, model; } shape_check;
static shape_check check_shape(const rig *r, const tdn_mat4 *before, const tdn_mat4 *root_matrix)
{
    shape_check c = { 0, 0, 0 };
    for (int i = 0; i + 1 < r->count; i++) {
        double l0 = dlen(dsub(position(&before[r->joints[i + 1]]), position(&before[r->joints[i]])));
        double l1 = dlen(dsub(position(&r->model[r->joints[i + 1]]), position(&r->model[r->joints[i]])));
        c.bone = fmax(c.bone, fabs(l1 - l0) / l0);
    }
    c.root = dlen(dsub(position(&r->model[r->joints[0]]), position(&before[r->joints[0]])));
    tdn_mat4 fresh[MAX_JOINTS];
    tdn_model_space(r->skel, &r->pose, root_matrix, fresh);
    for (int j = 0; j < r->joint_count; j++)
        for (int k = 0; k < 16; k++)
            c.model = fmax(c.model, fabs((double)fresh[j].m[k] - r->model[j].m[k]));
    return c;
}

static int compare_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* min / median / 95th percentile / max of counts (sorted in place) */
static void print_distribution(const char *what, int *values, int n)
{
    qsort(values, (size_t)n, sizeof *values, compare_int);
    printf("  %-34s min %2d  median %2d  95th %2d  max %2d  (%d solves)\n", what, values[0], values[n / 2],
           values[(95 * n) / 100 < n ? (95 * n) / 100 : n - 1], values[n - 1], n);
}

static const int chain_bones[5] = { 2, 4, 8, 10, 16 };
/* FABRIK's convergence is linear; on two bones it is slow where the target nears the inner
 * edge of the reachable shell (a plain double-precision FABRIK written separately needed up
 * to 117 iterations there, median 11), so the property is checked with a generous limit and
 * the share within the default limit is printed. */
enum { ROUNDS = 200, CONVERGE_LIMIT = 256 };

static void reachable_targets_converge(void)
{
    check_rng rng = { 2024 };
    printf("FABRIK iterations to 1e-3 of the chain length (limit %d):\n", CONVERGE_LIMIT);
    for (int c = 0; c < 5; c++) {
        int iterations[ROUNDS], reached = 0, rounds = 0, within_default = 0;
        double worst_error = 0, worst_bone = 0, worst_root = 0, worst_model = 0;
        for (int round = 0; round < ROUNDS; round++) {
            rig r;
            if (!CHECK(rig_init(&r, chain_bones[c], &rng, 0.5f, 0, NULL)))
                return;
            turn_chain(&r, &rng, 0.4f);
            tdn_vec3 target = reachable_target(&r, &rng, 1.2f);
            tdn_mat4 before[MAX_JOINTS];
            memcpy(before, r.model, sizeof before);
            tdn_fabrik_ik ik = { r.joints, r.count, target, 0.0f, CONVERGE_LIMIT, NULL, 1.0f };
            tdn_ik_result res = { -1, -1, -1 };
            CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res), TDN_OK);
            double error = dlen(dsub(position(&r.model[r.joints[r.count - 1]]), dv(target)));
            shape_check s = check_shape(&r, before, NULL);
            worst_error = fmax(worst_error, error / r.total);
            worst_bone = fmax(worst_bone, s.bone);
            worst_root = fmax(worst_root, s.root);
            worst_model = fmax(worst_model, s.model);
            reached += res.reached == 1 && error <= 1e-3 * r.total * (1 + 1e-4);
            CHECK_NEAR(res.error, error, 1e-6);
            iterations[rounds++] = res.iterations;
            within_default += res.iterations <= TDN_FABRIK_DEFAULT_ITERATIONS;
            rig_free(&r);
        }
        char what[64];
        snprintf(what, sizeof what, "%2d bones, %5.1f%% within %d:", chain_bones[c], 100.0 * within_default / rounds,
                 TDN_FABRIK_DEFAULT_ITERATIONS);
        print_distribution(what, iterations, rounds);
        CHECK_EQ_INT(reached, rounds);
        CHECK(worst_error <= 1e-3 * (1 + 1e-4));
        CHECK_NEAR(worst_bone, 0, 1e-5);
        CHECK_NEAR(worst_root, 0, 1e-6);
        CHECK_NEAR(worst_model, 0, 2e-5);
    }
}

/* ---- limits ---- */

/* Swing and twist (radians) of a chain joint's local rotation against its rest rotation, the
 * bone being the direction to the next chain joint in the joint's frame (from the inverse of
 * its model matrix); the twist is what is left after the shortest swing is taken out. */
static void measure_limit(const rig *r, int i, double *swing, double *twist)
{
    const int j = r->joints[i];
    tdn_mat4 inverse;
    tdn_mat4_invert(&r->model[j], &inverse);
    dvec p = position(&r->model[r->joints[i + 1]]);
    tdn_vec3 local = tdn_mat4_transform_point(&inverse, tdn_vec3_make((float)p.x, (float)p.y, (float)p.z));
    dvec b = dv(local);
    b = dscale(b, 1.0 / dlen(b));
    dquat d = dqmul(dqconj(dq(tdn_skeleton_rest(r->skel, j).r)), dq(tdn_pose_get(&r->pose, j).r));
    dvec db = dqrot(d, b);
    double c = ddot(db, b);
    *swing = acos(c > 1 ? 1 : c < -1 ? -1 : c);
    dvec axis = dcross(b, db);
    double an = dlen(axis);
    dquat s = { 0, 0, 0, 1 };
    if (an > 1e-12) {
        double half = 0.5 * *swing;
        s = (dquat){ axis.x / an * sin(half), axis.y / an * sin(half), axis.z / an * sin(half), cos(half) };
    }
    dquat t = dqmul(dqconj(s), d);
    *twist = 2.0 * atan2(t.x * b.x + t.y * b.y + t.z * b.z, t.w);
    if (*twist > PI_D)
        *twist -= 2 * PI_D;
    if (*twist < -PI_D)
        *twist += 2 * PI_D;
}

/* A rotation with the given swing (about an axis perpendicular to the bone) and twist. */
static void turn_within(rig *r, check_rng *rng, const tdn_ik_limit *limits, float fraction)
{
    tdn_model_space(r->skel, &r->pose, NULL, r->model);
    for (int i = 0; i + 1 < r->count; i++) {
        const int j = r->joints[i];
        tdn_mat4 inverse;
        tdn_mat4_invert(&r->model[j], &inverse);
        dvec p = position(&r->model[r->joints[i + 1]]);
        tdn_vec3 b = tdn_vec3_normalize(tdn_mat4_transform_point(&inverse, tdn_vec3_make((float)p.x, (float)p.y, (float)p.z)));
        tdn_vec3 perp = tdn_vec3_normalize(tdn_vec3_cross(b, tdn_vec3_normalize(check_rng_vec3(rng, -1, 1))));
        tdn_quat swing = tdn_quat_from_axis_angle(perp, check_rng_float(rng, 0, fraction * limits[i].cone));
        tdn_quat twist = tdn_quat_from_axis_angle(b, check_rng_float(rng, -fraction, fraction) * limits[i].twist);
        tdn_transform x = tdn_pose_get(&r->pose, j);
        x.r = tdn_quat_normalize(tdn_quat_mul(tdn_skeleton_rest(r->skel, j).r, tdn_quat_mul(swing, twist)));
        tdn_pose_set(&r->pose, j, &x);
        tdn_model_space(r->skel, &r->pose, NULL, r->model);
    }
}

static void limits_hold(void)
{
    check_rng rng = { 99 };
    printf("FABRIK with cone 0.35-0.8 rad and twist 0.2-0.5 rad limits on every joint (limit %d iterations):\n",
           TDN_FABRIK_DEFAULT_ITERATIONS);
    for (int c = 0; c < 5; c++) {
        int iterations[ROUNDS], reached = 0, rounds = 0;
        double worst_swing = -1, worst_twist = -1, worst_bone = 0, worst_root = 0, mean_error = 0;
        for (int round = 0; round < ROUNDS; round++) {
            rig r;
            if (!CHECK(rig_init(&r, chain_bones[c], &rng, 0.5f, 0, NULL)))
                return;
            tdn_ik_limit limits[TDN_MAX_IK_CHAIN];
            for (int i = 0; i < r.count; i++)
                limits[i] = (tdn_ik_limit){ check_rng_float(&rng, 0.35f, 0.8f), check_rng_float(&rng, 0.2f, 0.5f) };
            /* the target: where the end is under rotations within the limits */
            turn_within(&r, &rng, limits, 0.9f);
            tdn_vec3 target = tdn_vec3_make((float)r.model[r.joints[r.count - 1]].m[12],
                                            (float)r.model[r.joints[r.count - 1]].m[13],
                                            (float)r.model[r.joints[r.count - 1]].m[14]);
            tdn_pose_set_rest(&r.pose, r.skel);
            turn_within(&r, &rng, limits, 0.3f); /* the start, within the limits too */
            tdn_mat4 before[MAX_JOINTS];
            memcpy(before, r.model, sizeof before);
            tdn_fabrik_ik ik = { r.joints, r.count, target, 0.0f, 0, limits, 1.0f };
            tdn_ik_result res;
            CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res), TDN_OK);
            for (int i = 0; i + 1 < r.count; i++) {
                double swing, twist;
                measure_limit(&r, i, &swing, &twist);
                worst_swing = fmax(worst_swing, swing - limits[i].cone);
                worst_twist = fmax(worst_twist, fabs(twist) - limits[i].twist);
            }
            shape_check s = check_shape(&r, before, NULL);
            worst_bone = fmax(worst_bone, s.bone);
            worst_root = fmax(worst_root, s.root);
            double error = dlen(dsub(position(&r.model[r.joints[r.count - 1]]), dv(target)));
            reached += error <= 1e-3 * r.total * (1 + 1e-4);
            CHECK_EQ_INT(res.reached, error <= res.error * (1 + 1e-5) && res.error <= 1e-3f * (float)r.total);
            mean_error += error / r.total / ROUNDS;
            iterations[rounds++] = res.iterations;
            rig_free(&r);
        }
        char what[64];
        snprintf(what, sizeof what, "%2d bones, %3.0f%% converge:", chain_bones[c], 100.0 * reached / rounds);
        print_distribution(what, iterations, rounds);
        printf("     largest swing past its cone %.2e rad, twist past its limit %.2e rad, mean error %.2e of the length\n",
               worst_swing, worst_twist, mean_error);
        CHECK(worst_swing <= 2e-4);
        CHECK(worst_twist <= 2e-4);
        CHECK_NEAR(worst_bone, 0, 1e-5);
        CHECK_NEAR(worst_root, 0, 1e-6);
        CHECK(reached >= rounds / 2); /* most converge; the fraction is printed above */
    }
}

static void unreachable_targets_straighten_the_chain(void)
{
    check_rng rng = { 7 };
    double worst_angle = 0, worst_bone = 0, worst_root = 0, worst_error = 0;
    for (int c = 0; c < 5; c++)
        for (int round = 0; round < 40; round++) {
            rig r;
            if (!CHECK(rig_init(&r, chain_bones[c], &rng, 0.5f, 0, NULL)))
                return;
            turn_chain(&r, &rng, 0.6f);
            dvec a = position(&r.model[r.joints[0]]);
            dvec dir = dv(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1)));
            double distance = r.total * check_rng_float(&rng, 1.001f, 3.0f);
            dvec t = { a.x + dir.x * distance, a.y + dir.y * distance, a.z + dir.z * distance };
            tdn_mat4 before[MAX_JOINTS];
            memcpy(before, r.model, sizeof before);
            tdn_fabrik_ik ik = { r.joints, r.count, tdn_vec3_make((float)t.x, (float)t.y, (float)t.z), 0, 0, NULL, 1 };
            tdn_ik_result res;
            CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res), TDN_OK);
            CHECK_EQ_INT(res.iterations, 1);
            CHECK_EQ_INT(res.reached, 0);
            for (int i = 0; i + 1 < r.count; i++) {
                dvec bone = dsub(position(&r.model[r.joints[i + 1]]), position(&r.model[r.joints[i]]));
                double cosine = ddot(bone, dir) / dlen(bone);
                worst_angle = fmax(worst_angle, acos(cosine > 1 ? 1 : cosine));
            }
            shape_check s = check_shape(&r, before, NULL);
            worst_bone = fmax(worst_bone, s.bone);
            worst_root = fmax(worst_root, s.root);
            worst_error = fmax(worst_error, fabs(res.error - (distance - r.total)) / r.total);
            rig_free(&r);
        }
    printf("unreachable: largest bone direction off the root-to-target line %.2e rad\n", worst_angle);
    CHECK(worst_angle <= 1e-3);
    CHECK_NEAR(worst_bone, 0, 1e-5);
    CHECK_NEAR(worst_root, 0, 1e-6);
    CHECK_NEAR(worst_error, 0, 1e-5);
}

static void weights_fade_the_solve(void)
{
    check_rng rng = { 5 };
    rig r;
    if (!CHECK(rig_init(&r, 8, &rng, 0.5f, 0, NULL)))
        return;
    turn_chain(&r, &rng, 0.4f);
    tdn_vec3 target = reachable_target(&r, &rng, 1.2f);
    tdn_pose start, full;
    tdn_pose_create(&start, r.joint_count, NULL);
    tdn_pose_create(&full, r.joint_count, NULL);
    tdn_pose_copy(&start, &r.pose);
    tdn_mat4 start_model[MAX_JOINTS];
    memcpy(start_model, r.model, sizeof start_model);

    /* 0 (and below): bit-identical, with the result still reported */
    const float zero_weights[2] = { 0.0f, -3.0f };
    for (int k = 0; k < 2; k++) {
        tdn_fabrik_ik ik = { r.joints, r.count, target, 0, 0, NULL, zero_weights[k] };
        tdn_ik_result res = { -1, -1, -1 };
        CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res), TDN_OK);
        CHECK(memcmp(r.pose.data, start.data, tdn_pose_bytes(r.joint_count)) == 0);
        CHECK(memcmp(r.model, start_model, sizeof start_model) == 0);
        CHECK_EQ_INT(res.iterations, 0);
        CHECK_EQ_INT(res.reached, 0);
        CHECK_NEAR(res.error, dlen(dsub(position(&start_model[r.joints[r.count - 1]]), dv(target))), 1e-6);
    }
    tdn_fabrik_ik ik = { r.joints, r.count, target, 0, 0, NULL, 1.0f };
    tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, NULL);
    tdn_pose_copy(&full, &r.pose);
    const float fractions[2] = { 0.5f, 0.25f };
    for (int k = 0; k < 2; k++) {
        tdn_pose_copy(&r.pose, &start);
        memcpy(r.model, start_model, sizeof start_model);
        ik.weight = fractions[k];
        CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, NULL), TDN_OK);
        double worst = 0, turned = 0;
        for (int i = 0; i + 1 < r.count; i++) {
            tdn_quat q0 = tdn_pose_get(&start, r.joints[i]).r, q1 = tdn_pose_get(&full, r.joints[i]).r;
            tdn_quat qw = tdn_pose_get(&r.pose, r.joints[i]).r;
            double whole = check_quat_angle(q0, q1);
            turned = fmax(turned, whole);
            worst = fmax(worst, fabs(check_quat_angle(q0, qw) - fractions[k] * whole));
            worst = fmax(worst, fabs(check_quat_angle(qw, q1) - (1 - fractions[k]) * whole));
        }
        CHECK(turned > 0.1);
        CHECK_NEAR(worst, 0, 1e-4);
        /* joints outside the chain keep their local transforms bit for bit */
        for (int j = 0; j < r.joint_count; j++) {
            int in_chain = 0;
            for (int i = 0; i + 1 < r.count; i++)
                in_chain |= r.joints[i] == j;
            tdn_transform a = tdn_pose_get(&r.pose, j), b = tdn_pose_get(&start, j);
            if (!in_chain)
                CHECK(memcmp(&a, &b, sizeof a) == 0);
        }
        shape_check s = check_shape(&r, start_model, NULL);
        CHECK_NEAR(s.bone, 0, 1e-5);
        CHECK_NEAR(s.model, 0, 2e-5);
    }
    tdn_pose_destroy(&start);
    tdn_pose_destroy(&full);
    rig_free(&r);
}

/* A solved pose solved again stays bit for bit; a target moving 2% of the chain length per
 * frame is followed from the previous answer in few iterations. */
static void warm_starts(void)
{
    check_rng rng = { 11 };
    printf("FABRIK warm, target moving 2%% of the chain length per frame:\n");
    for (int c = 0; c < 5; c++) {
        rig r;
        if (!CHECK(rig_init(&r, chain_bones[c], &rng, 0.5f, 0, NULL)))
            return;
        /* a circle through the reach shell's middle, in a plane through the root, staying
         * 15% of the shell's depth away from its edges */
        const dvec a = position(&r.model[r.joints[0]]);
        const double inner = inner_reach(&r);
        const dvec w = dv(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1)));
        dvec side = dcross(w, dv(tdn_vec3_normalize(check_rng_vec3(&rng, -1, 1))));
        side = dscale(side, 1.0 / dlen(side));
        const double radius = 0.35 * (r.total - inner), mid = 0.5 * (inner + r.total);
        const dvec centre = { a.x + w.x * mid, a.y + w.y * mid, a.z + w.z * mid };
        const dvec u = dscale(w, radius), v = dscale(side, radius);
        const double step = 0.02 * r.total / radius; /* radians per frame: 2% of the length */
        int iterations[300], reached = 0;
        for (int f = 0; f < 300; f++) {
            double angle = f * step;
            dvec t = { centre.x + u.x * cos(angle) + v.x * sin(angle), centre.y + u.y * cos(angle) + v.y * sin(angle),
                       centre.z + u.z * cos(angle) + v.z * sin(angle) };
            tdn_fabrik_ik ik = { r.joints, r.count, tdn_vec3_make((float)t.x, (float)t.y, (float)t.z), 0, CONVERGE_LIMIT,
                                 NULL, 1 };
            tdn_ik_result res;
            tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res);
            iterations[f] = res.iterations;
            reached += res.reached;
            if (f == 299) { /* the same target again: nothing to do */
                tdn_pose again;
                tdn_pose_create(&again, r.joint_count, NULL);
                tdn_pose_copy(&again, &r.pose);
                tdn_mat4 model_again[MAX_JOINTS];
                memcpy(model_again, r.model, sizeof model_again);
                tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res);
                CHECK_EQ_INT(res.iterations, 0);
                CHECK(memcmp(again.data, r.pose.data, tdn_pose_bytes(r.joint_count)) == 0);
                CHECK(memcmp(model_again, r.model, sizeof model_again) == 0);
                tdn_pose_destroy(&again);
            }
        }
        char what[64];
        snprintf(what, sizeof what, "%2d bones (frames 1-299):", chain_bones[c]);
        print_distribution(what, iterations + 1, 299);
        CHECK(reached >= 299);
        CHECK(iterations[150] <= iterations[0] || iterations[0] <= 3); /* warm is not slower than cold */
        rig_free(&r);
    }
}

/* The chain's root is the skeleton's root, model space under a scaled, turned placement. */
static void chain_at_the_skeleton_root(void)
{
    check_rng rng = { 3 };
    rig r;
    if (!CHECK(rig_init(&r, 6, &rng, 0.4f, 1, NULL)))
        return;
    tdn_transform place = { { 5, 0, 1 }, tdn_quat_from_axis_angle(tdn_vec3_normalize(tdn_vec3_make(1, 1, 0)), 0.7f), { 2, 2, 2 } };
    tdn_mat4 root = tdn_transform_to_mat4(&place);
    tdn_model_space(r.skel, &r.pose, &root, r.model);
    r.total *= 2;
    /* a reachable target: the end under random turns, in the placed model space */
    tdn_pose keep;
    tdn_pose_create(&keep, r.joint_count, NULL);
    tdn_pose_copy(&keep, &r.pose);
    turn_chain(&r, &rng, 1.0f);
    tdn_model_space(r.skel, &r.pose, &root, r.model);
    dvec t = position(&r.model[r.joints[r.count - 1]]);
    tdn_pose_copy(&r.pose, &keep);
    tdn_model_space(r.skel, &r.pose, &root, r.model);
    tdn_mat4 before[MAX_JOINTS];
    memcpy(before, r.model, sizeof before);
    tdn_fabrik_ik ik = { r.joints, r.count, tdn_vec3_make((float)t.x, (float)t.y, (float)t.z), 0, 0, NULL, 1 };
    tdn_ik_result res;
    CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res), TDN_OK);
    CHECK_EQ_INT(res.reached, 1);
    CHECK(dlen(dsub(position(&r.model[r.joints[r.count - 1]]), t)) <= 1e-3 * r.total * 1.0001);
    shape_check s = check_shape(&r, before, &root);
    CHECK_NEAR(s.bone, 0, 1e-5);
    CHECK_NEAR(s.root, 0, 1e-5);
    CHECK_NEAR(s.model, 0, 5e-5);
    tdn_pose_destroy(&keep);
    rig_free(&r);
}

static int all_finite(const rig *r)
{
    for (int j = 0; j < r->joint_count; j++) {
        tdn_transform x = tdn_pose_get(&r->pose, j);
        const float *v = &x.t.x;
        for (int k = 0; k < 10; k++)
            if (!isfinite(v[k]))
                return 0;
        for (int k = 0; k < 16; k++)
            if (!isfinite(r->model[j].m[k]))
                return 0;
    }
    return 1;
}

static void degenerate_cases_stay_finite(void)
{
    check_rng rng = { 13 };
    rig r;
    if (!CHECK(rig_init(&r, 4, &rng, 0.3f, 0, NULL)))
        return;
    /* the target on the root, on a middle joint; then a zero-length bone */
    tdn_vec3 on_root = tdn_vec3_make(r.model[r.joints[0]].m[12], r.model[r.joints[0]].m[13], r.model[r.joints[0]].m[14]);
    tdn_vec3 on_middle = tdn_vec3_make(r.model[r.joints[2]].m[12], r.model[r.joints[2]].m[13], r.model[r.joints[2]].m[14]);
    tdn_fabrik_ik ik = { r.joints, r.count, on_root, 0, 0, NULL, 1 };
    CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, NULL), TDN_OK);
    CHECK(all_finite(&r));
    ik.target = on_middle;
    CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, NULL), TDN_OK);
    CHECK(all_finite(&r));
    tdn_transform x = tdn_pose_get(&r.pose, r.joints[2]);
    x.t = tdn_vec3_make(0, 0, 0); /* joints[1] and joints[2] coincide */
    tdn_pose_set(&r.pose, r.joints[2], &x);
    tdn_model_space(r.skel, &r.pose, NULL, r.model);
    ik.target = tdn_vec3_add(on_root, tdn_vec3_make(0.1f, 0.05f, 0.0f));
    tdn_ik_limit limits[5] = { { 0.5f, 0.2f }, { 0.5f, 0.2f }, { 0.5f, 0.2f }, { 0.5f, 0.2f }, { 0, 0 } };
    for (int k = 0; k < 2; k++) {
        ik.limits = k ? limits : NULL;
        CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, NULL), TDN_OK);
        CHECK(all_finite(&r));
    }
    rig_free(&r);
}

static void bad_arguments_change_nothing(void)
{
    check_rng rng = { 17 };
    rig r;
    if (!CHECK(rig_init(&r, 4, &rng, 0.3f, 0, NULL)))
        return;
    tdn_pose before, wrong;
    tdn_pose_create(&before, r.joint_count, NULL);
    tdn_pose_create(&wrong, r.joint_count + 1, NULL);
    tdn_pose_copy(&before, &r.pose);
    tdn_mat4 model_before[MAX_JOINTS];
    memcpy(model_before, r.model, sizeof model_before);
    const tdn_vec3 t = tdn_vec3_make(0.4f, 1.1f, 0.0f);
    const int side = r.joint_count - 1; /* the side joint: not below the chain's end */
    int reversed[5], skipping_side[3] = { r.joints[0], r.joints[3], side }, out_of_range[3] = { r.joints[0], r.joints[1], 999 };
    int repeated[3] = { r.joints[0], r.joints[1], r.joints[1] }, negative[2] = { -1, r.joints[1] };
    for (int i = 0; i < 5; i++)
        reversed[i] = r.joints[4 - i];
    tdn_ik_limit bad_limits[5] = { { 0.5f, 0 }, { -0.1f, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
    tdn_ik_limit nan_limits[5] = { { 0, NAN }, { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
    const tdn_fabrik_ik bad[] = {
        { NULL, 5, t, 0, 0, NULL, 1 },
        { r.joints, 1, t, 0, 0, NULL, 1 },
        { r.joints, 0, t, 0, 0, NULL, 1 },
        { r.joints, TDN_MAX_IK_CHAIN + 1, t, 0, 0, NULL, 1 },
        { reversed, 5, t, 0, 0, NULL, 1 },
        { skipping_side, 3, t, 0, 0, NULL, 1 },
        { out_of_range, 3, t, 0, 0, NULL, 1 },
        { repeated, 3, t, 0, 0, NULL, 1 },
        { negative, 2, t, 0, 0, NULL, 1 },
        { r.joints, 5, { NAN, 0, 0 }, 0, 0, NULL, 1 },
        { r.joints, 5, { 0, INFINITY, 0 }, 0, 0, NULL, 1 },
        { r.joints, 5, t, NAN, 0, NULL, 1 },
        { r.joints, 5, t, 0, -1, NULL, 1 },
        { r.joints, 5, t, 0, 0, bad_limits, 1 },
        { r.joints, 5, t, 0, 0, nan_limits, 1 },
        { r.joints, 5, t, 0, 0, NULL, NAN },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tdn_ik_result res = { 123, 4.5f, 6 };
        CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &bad[i], &r.pose, r.model, &res), TDN_ERR_ARGUMENT);
        CHECK_EQ_INT(res.iterations, 123); /* the result is not written either */
    }
    tdn_fabrik_ik ok = { r.joints, 5, t, 0, 0, NULL, 1 };
    CHECK_EQ_INT(tdn_ik_fabrik(NULL, &ok, &r.pose, r.model, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_fabrik(r.skel, NULL, &r.pose, r.model, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ok, NULL, r.model, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ok, &r.pose, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_ik_fabrik(r.skel, &ok, &wrong, r.model, NULL), TDN_ERR_ARGUMENT);
    CHECK(memcmp(r.pose.data, before.data, tdn_pose_bytes(r.joint_count)) == 0);
    CHECK(memcmp(r.model, model_before, sizeof model_before) == 0);
    tdn_pose_destroy(&before);
    tdn_pose_destroy(&wrong);
    rig_free(&r);
}

static void solving_never_allocates(void)
{
    check_rng rng = { 21 };
    rig r;
    if (!CHECK(rig_init(&r, 16, &rng, 0.5f, 0, &counting)))
        return;
    tdn_ik_limit limits[17];
    for (int i = 0; i < 17; i++)
        limits[i] = (tdn_ik_limit){ 0.6f, 0.3f };
    const long blocks = live_blocks, calls = malloc_calls;
    for (int k = 0; k < 200; k++) {
        tdn_vec3 t = tdn_vec3_make(check_rng_float(&rng, -2, 2), check_rng_float(&rng, -1, 3), check_rng_float(&rng, -2, 2));
        tdn_fabrik_ik ik = { r.joints, r.count, t, 0, 0, k % 2 ? limits : NULL, k % 3 ? 1.0f : 0.5f };
        tdn_ik_result res;
        tdn_ik_fabrik(r.skel, &ik, &r.pose, r.model, &res);
    }
    CHECK_EQ_INT(live_blocks, blocks);
    CHECK_EQ_INT(malloc_calls, calls);
    printf("allocations during 200 solves: %ld through the hooks, %ld through malloc (%s)\n", live_blocks - blocks,
           malloc_calls - calls, COUNT_MALLOC ? "counted" : "not counted under AddressSanitizer");
    rig_free(&r);
    CHECK_EQ_INT(live_blocks, 0);
}

int main(void)
{
    RUN(reachable_targets_converge);
    RUN(limits_hold);
    RUN(unreachable_targets_straighten_the_chain);
    RUN(weights_fade_the_solve);
    RUN(warm_starts);
    RUN(chain_at_the_skeleton_root);
    RUN(degenerate_cases_stay_finite);
    RUN(bad_arguments_change_nothing);
    RUN(solving_never_allocates);
    return check_summary();
}
