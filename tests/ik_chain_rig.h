/* tendon tests: the chain rigs the FABRIK and CCD tests solve on, and the double-precision
 * measures they check the solves with (bone lengths, anchoring, limits, iteration counts).
 * Included by one test program each: it defines the program's malloc hooks. */
#ifndef TENDON_TEST_IK_CHAIN_RIG_H
#define TENDON_TEST_IK_CHAIN_RIG_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

/* ---- allocation counting: every malloc of the program (not under AddressSanitizer, which
 * owns the allocator; then the counting allocator hooks alone tell). gcc says so with
 * __SANITIZE_ADDRESS__, clang with __has_feature. ---- */
#if defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define TENDON_TEST_ASAN 1
#  endif
#endif
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(TENDON_TEST_ASAN)
#  define COUNT_MALLOC 1
static long malloc_calls;
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *ptr);
void *malloc(size_t size)
{
    malloc_calls++;
    return __libc_malloc(size);
}
void *calloc(size_t n, size_t size)
{
    malloc_calls++;
    return __libc_calloc(n, size);
}
void *realloc(void *ptr, size_t size)
{
    malloc_calls++;
    return __libc_realloc(ptr, size);
}
void *aligned_alloc(size_t align, size_t size)
{
    malloc_calls++;
    return __libc_memalign(align, size);
}
void free(void *ptr) { __libc_free(ptr); }
#else
#  define COUNT_MALLOC 0
static long malloc_calls;
#endif

#define PI_D 3.14159265358979323846

/* ---- double-precision helpers (the reference side of the checks) ---- */
typedef struct dvec {
    double x, y, z;
} dvec;
typedef struct dquat {
    double x, y, z, w;
} dquat;

static dvec dv(tdn_vec3 v) { return (dvec){ v.x, v.y, v.z }; }
static dvec dsub(dvec a, dvec b) { return (dvec){ a.x - b.x, a.y - b.y, a.z - b.z }; }
static double ddot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static double dlen(dvec a) { return sqrt(ddot(a, a)); }
static dvec dscale(dvec a, double s) { return (dvec){ a.x * s, a.y * s, a.z * s }; }
static dvec dcross(dvec a, dvec b)
{
    return (dvec){ a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
}
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
            tdn_vec3 along = tdn_vec3_make(check_rng_float(rng, -0.2f, 0.2f) * length, length,
                                           check_rng_float(rng, -0.2f, 0.2f) * length);
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
    tdn_error err = { 0 };
    if (tdn_skeleton_create(&desc, &r->skel, allocator, &err) != TDN_OK) {
        fprintf(stderr, "skeleton: %s: %s\n", err.where, err.message);
        return 0;
    }
    r->joint_count = n;
    /* the chain leaves the twist joints out (tdn_ik_chain_path would list them) */
    r->count = bones + 1;
    for (int b = 0; b <= bones; b++)
        r->joints[b] = tdn_skeleton_find_joint(r->skel, names[chain[b]]);
    if (tdn_pose_create(n, &r->pose, allocator, NULL) != TDN_OK)
        return 0;
    tdn_pose_set_rest(&r->pose, r->skel, NULL);
    tdn_model_space(r->skel, &r->pose, NULL, r->model, NULL);
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
    tdn_model_space(r->skel, &r->pose, NULL, r->model, NULL);
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
    tdn_pose_create(r->joint_count, &keep, NULL, NULL);
    tdn_pose_copy(&keep, &r->pose, NULL);
    const double inner = inner_reach(r), margin = 0.02 * r->total;
    const dvec a = position(&r->model[r->joints[0]]);
    dvec t;
    double d;
    do {
        tdn_pose_copy(&r->pose, &keep, NULL);
        turn_chain(r, rng, max_angle);
        t = position(&r->model[r->joints[r->count - 1]]);
        d = dlen(dsub(t, a));
    } while (d < inner + margin || d > r->total - margin);
    tdn_pose_copy(&r->pose, &keep, NULL);
    tdn_model_space(r->skel, &r->pose, NULL, r->model, NULL);
    tdn_pose_destroy(&keep);
    return tdn_vec3_make((float)t.x, (float)t.y, (float)t.z);
}

/* Largest relative change of a bone length against `before` (model positions), the root's
 * move, and the largest difference between model[] and model space recomputed from the pose. */
typedef struct shape_check {
    double bone, root, model;
} shape_check;
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
    tdn_model_space(r->skel, &r->pose, root_matrix, fresh, NULL);
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
    tdn_model_space(r->skel, &r->pose, NULL, r->model, NULL);
    for (int i = 0; i + 1 < r->count; i++) {
        const int j = r->joints[i];
        tdn_mat4 inverse;
        tdn_mat4_invert(&r->model[j], &inverse);
        dvec p = position(&r->model[r->joints[i + 1]]);
        tdn_vec3 b = tdn_vec3_normalize(
            tdn_mat4_transform_point(&inverse, tdn_vec3_make((float)p.x, (float)p.y, (float)p.z)));
        tdn_vec3 perp = tdn_vec3_normalize(tdn_vec3_cross(b, tdn_vec3_normalize(check_rng_vec3(rng, -1, 1))));
        tdn_quat swing = tdn_quat_from_axis_angle(perp, check_rng_float(rng, 0, fraction * limits[i].cone));
        tdn_quat twist = tdn_quat_from_axis_angle(b, check_rng_float(rng, -fraction, fraction) * limits[i].twist);
        tdn_transform x = tdn_pose_get(&r->pose, j);
        x.r = tdn_quat_normalize(tdn_quat_mul(tdn_skeleton_rest(r->skel, j).r, tdn_quat_mul(swing, twist)));
        tdn_pose_set(&r->pose, j, &x);
        tdn_model_space(r->skel, &r->pose, NULL, r->model, NULL);
    }
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

#endif
