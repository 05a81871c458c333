/* Blending: weighted layers, cross-fades, additive differences, against hand-worked values and
 * a plain double-precision reference blend written here, joint by joint. */
#include <float.h>
#include <string.h>

#include "check.h"

#define PI_D 3.14159265358979323846
enum { N = 13 }; /* not a multiple of the SIMD width: padding lanes exist */

static tdn_transform random_transform(check_rng *rng)
{
    tdn_transform x;
    x.t = check_rng_vec3(rng, -2.0f, 2.0f);
    x.r = check_rng_quat(rng);
    x.s = check_rng_vec3(rng, 0.5f, 2.0f);
    return x;
}

static void random_pose(tdn_pose *p, check_rng *rng)
{
    for (int j = 0; j < p->joint_count; j++) {
        tdn_transform x = random_transform(rng);
        tdn_pose_set(p, j, &x);
    }
}

/* Same rotation (either sign), translations and scales within tol. */
static int transform_near(tdn_transform a, tdn_transform b, double tol)
{
    return fabs(a.t.x - b.t.x) <= tol && fabs(a.t.y - b.t.y) <= tol && fabs(a.t.z - b.t.z) <= tol &&
           fabs(a.s.x - b.s.x) <= tol && fabs(a.s.y - b.s.y) <= tol && fabs(a.s.z - b.s.z) <= tol &&
           check_quat_angle(a.r, b.r) <= 2.0 * tol;
}

static int pose_near(const tdn_pose *a, const tdn_pose *b, double tol)
{
    for (int j = 0; j < a->joint_count; j++)
        if (!transform_near(tdn_pose_get(a, j), tdn_pose_get(b, j), tol)) {
            fprintf(stderr, "  joint %d differs\n", j);
            return 0;
        }
    return 1;
}

static int pose_bits_equal(const tdn_pose *a, const tdn_pose *b)
{
    return memcmp(a->data, b->data, tdn_pose_bytes(a->joint_count)) == 0;
}

static double quat_length(tdn_quat q)
{
    return sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
}

/* The reference: per joint, in double, weights w_i * mask_i (negative, NaN
 * and infinite layer weights as 0; masks clamped to [0, 1]), each rotation's sign chosen against the running sum,
 * normalized; a total below 1e-6 takes the fallback; then each additive
 * t += w D.t, r = normalize((1-w) I + w D') * r (D' = D with D'.w >= 0), s *= (1-w) + w D.s. */
static tdn_transform reference_blend(const tdn_blend_input *layers, int layer_count, const tdn_blend_input *adds,
                                     int add_count, tdn_transform fallback, int j)
{
    double sum = 0, t[3] = { 0 }, r[4] = { 0 }, s[3] = { 0 };
    for (int i = 0; i < layer_count; i++) {
        double w = layers[i].weight;
        if (!(w > 0) || !(w <= FLT_MAX))
            w = 0;
        double m = layers[i].joint_weights ? layers[i].joint_weights[j] : 1.0;
        w *= m > 0 ? (m < 1 ? m : 1) : 0;
        tdn_transform x = tdn_pose_get(layers[i].pose, j);
        double q[4] = { x.r.x, x.r.y, x.r.z, x.r.w };
        double dot = r[0] * q[0] + r[1] * q[1] + r[2] * q[2] + r[3] * q[3];
        double wr = dot < 0 ? -w : w;
        sum += w;
        t[0] += w * x.t.x, t[1] += w * x.t.y, t[2] += w * x.t.z;
        s[0] += w * x.s.x, s[1] += w * x.s.y, s[2] += w * x.s.z;
        for (int k = 0; k < 4; k++)
            r[k] += wr * q[k];
    }
    double out_t[3], out_r[4], out_s[3];
    if (sum > 1e-6) {
        for (int k = 0; k < 3; k++)
            out_t[k] = t[k] / sum, out_s[k] = s[k] / sum;
        for (int k = 0; k < 4; k++)
            out_r[k] = r[k];
    } else {
        double ft[3] = { fallback.t.x, fallback.t.y, fallback.t.z },
               fr[4] = { fallback.r.x, fallback.r.y, fallback.r.z, fallback.r.w };
        double fs[3] = { fallback.s.x, fallback.s.y, fallback.s.z };
        memcpy(out_t, ft, sizeof ft), memcpy(out_r, fr, sizeof fr), memcpy(out_s, fs, sizeof fs);
    }
    double len = sqrt(out_r[0] * out_r[0] + out_r[1] * out_r[1] + out_r[2] * out_r[2] + out_r[3] * out_r[3]);
    for (int k = 0; k < 4; k++)
        out_r[k] /= len;
    for (int i = 0; i < add_count; i++) {
        double w = adds[i].weight;
        w = w > 0 ? (w < 1 ? w : 1) : 0;
        double m = adds[i].joint_weights ? adds[i].joint_weights[j] : 1.0;
        w *= m > 0 ? (m < 1 ? m : 1) : 0;
        tdn_transform d = tdn_pose_get(adds[i].pose, j);
        double dq[4] = { d.r.x, d.r.y, d.r.z, d.r.w };
        if (dq[3] < 0)
            for (int k = 0; k < 4; k++)
                dq[k] = -dq[k];
        double a[4] = { w * dq[0], w * dq[1], w * dq[2], 1 - w + w * dq[3] };
        double al = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
        for (int k = 0; k < 4; k++)
            a[k] /= al;
        double b[4];
        memcpy(b, out_r, sizeof b);
        out_r[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
        out_r[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
        out_r[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
        out_r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
        double dt[3] = { d.t.x, d.t.y, d.t.z }, ds[3] = { d.s.x, d.s.y, d.s.z };
        for (int k = 0; k < 3; k++) {
            out_t[k] += w * dt[k];
            out_s[k] *= 1 - w + w * ds[k];
        }
    }
    tdn_transform x = { { (float)out_t[0], (float)out_t[1], (float)out_t[2] },
                        { (float)out_r[0], (float)out_r[1], (float)out_r[2], (float)out_r[3] },
                        { (float)out_s[0], (float)out_s[1], (float)out_s[2] } };
    return x;
}

static void weights_0_and_1_give_the_inputs(void)
{
    check_rng rng = { 11 };
    tdn_pose a, b, out;
    tdn_pose_create(N, &a, NULL, NULL), tdn_pose_create(N, &b, NULL, NULL), tdn_pose_create(N, &out, NULL, NULL);
    random_pose(&a, &rng), random_pose(&b, &rng);
    CHECK_EQ_INT(tdn_blend2(&a, &b, 0.0f, NULL, &out, NULL), TDN_OK);
    /* bit for bit: a masked-out joint keeps what the layer below made */
    CHECK(memcmp(out.data, a.data, sizeof(float) * TDN_POSE_ROWS * (size_t)a.stride) == 0);
    CHECK_EQ_INT(tdn_blend2(&a, &b, 1.0f, NULL, &out, NULL), TDN_OK);
    CHECK(memcmp(out.data, b.data, sizeof(float) * TDN_POSE_ROWS * (size_t)b.stride) == 0);
    float half[64] = { 0 };
    for (int j = 0; j < N; j++)
        half[j] = (float)(j % 2);
    tdn_blend2(&a, &b, 1.0f, half, &out, NULL);
    int exact = 1;
    for (int r = 0; r < TDN_POSE_ROWS; r++)
        for (int j = 0; j < N; j++)
            exact &= tdn_pose_crow(&out, r)[j] == tdn_pose_crow(j % 2 ? &b : &a, r)[j];
    CHECK(exact);
    /* weights outside [0, 1] clamp */
    tdn_blend2(&a, &b, -3.0f, NULL, &out, NULL);
    CHECK(pose_near(&out, &a, 1e-6));
    tdn_blend2(&a, &b, 7.0f, NULL, &out, NULL);
    CHECK(pose_near(&out, &b, 1e-6));

    tdn_blend_input layers[2] = { { &a, 1.0f, NULL }, { &b, 0.0f, NULL } };
    CHECK_EQ_INT(tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = 2, .out = &out }, NULL), TDN_OK);
    CHECK(pose_near(&out, &a, 1e-6));
    layers[0].weight = 0.0f, layers[1].weight = 0.25f; /* one input: its weight normalizes to 1 */
    CHECK_EQ_INT(tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = 2, .out = &out }, NULL), TDN_OK);
    CHECK(pose_near(&out, &b, 1e-6));
    tdn_pose_destroy(&a), tdn_pose_destroy(&b), tdn_pose_destroy(&out);
}

static void ninety_degree_midpoint_is_the_slerp_midpoint(void)
{
    tdn_pose a, b, out;
    tdn_pose_create(1, &a, NULL, NULL), tdn_pose_create(1, &b, NULL, NULL), tdn_pose_create(1, &out, NULL, NULL);
    tdn_transform xb = { { 2, 0, -4 }, { 0, 0, sinf(TDN_PI / 4), cosf(TDN_PI / 4) }, { 3, 1, 0.5f } };
    tdn_pose_set(&b, 0, &xb);
    CHECK_EQ_INT(tdn_blend2(&a, &b, 0.5f, NULL, &out, NULL), TDN_OK);
    tdn_transform m = tdn_pose_get(&out, 0);
    /* 45 degrees about z */
    CHECK_NEAR(m.r.x, 0, 1e-7);
    CHECK_NEAR(m.r.y, 0, 1e-7);
    CHECK_NEAR(m.r.z, sin(PI_D / 8), 1e-6);
    CHECK_NEAR(m.r.w, cos(PI_D / 8), 1e-6);
    CHECK_NEAR(m.t.x, 1, 1e-6);
    CHECK_NEAR(m.t.z, -2, 1e-6);
    CHECK_NEAR(m.s.x, 2, 1e-6);
    CHECK_NEAR(m.s.z, 0.75, 1e-6);
    /* At a quarter, weighted nlerp is not constant speed: the angle is
     * 2 atan2(0.25 sin 45, 0.75 + 0.25 cos 45), not 22.5 degrees. */
    tdn_blend2(&a, &b, 0.25f, NULL, &out, NULL);
    m = tdn_pose_get(&out, 0);
    double expected = 2.0 * atan2(0.25 * sin(PI_D / 4), 0.75 + 0.25 * cos(PI_D / 4));
    CHECK_NEAR(2.0 * atan2(m.r.z, m.r.w), expected, 1e-6);
    CHECK(fabs(expected - PI_D / 8) > 1e-3); /* the two really differ */
    tdn_pose_destroy(&a), tdn_pose_destroy(&b), tdn_pose_destroy(&out);
}

static void weighted_sums_by_hand(void)
{
    enum { K = 4 };
    tdn_pose p[K], out;
    tdn_blend_input layers[K];
    const float weights[K] = { 4, 3, 2, 1 }; /* 0.4/0.3/0.2/0.1 before normalization */
    const float angles[K] = { 0.1f, 0.5f, -0.3f, 1.2f };
    for (int i = 0; i < K; i++) {
        tdn_pose_create(N, &p[i], NULL, NULL);
        for (int j = 0; j < N; j++) {
            tdn_transform x = { { (float)(i + j), (float)(i * i), -1.0f * (float)i },
                                { 0, 0, sinf(angles[i] / 2), cosf(angles[i] / 2) },
                                { 1.0f + (float)i, 1, 1 } };
            tdn_pose_set(&p[i], j, &x);
        }
        layers[i] = (tdn_blend_input){ &p[i], weights[i], NULL };
    }
    tdn_pose_create(N, &out, NULL, NULL);
    CHECK_EQ_INT(tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = K, .out = &out }, NULL), TDN_OK);
    double ty = (4 * 0 + 3 * 1 + 2 * 4 + 1 * 9) / 10.0; /* 2.0 */
    double tz = (4 * 0 - 3 * 1 - 2 * 2 - 1 * 3) / 10.0; /* -1.0 */
    double sx = (4 * 1 + 3 * 2 + 2 * 3 + 1 * 4) / 10.0; /* 2.0 */
    double sz = 0, cz = 0;
    for (int i = 0; i < K; i++)
        sz += weights[i] * sin(angles[i] / 2), cz += weights[i] * cos(angles[i] / 2);
    for (int j = 0; j < N; j++) {
        tdn_transform x = tdn_pose_get(&out, j);
        CHECK_NEAR(x.t.x, (4 * (0 + j) + 3 * (1 + j) + 2 * (2 + j) + 1 * (3 + j)) / 10.0, 1e-5);
        CHECK_NEAR(x.t.y, ty, 1e-6);
        CHECK_NEAR(x.t.z, tz, 1e-6);
        CHECK_NEAR(x.s.x, sx, 1e-6);
        CHECK_NEAR(x.s.y, 1, 1e-6);
        /* same axis: the weighted nlerp angle is 2 atan2(sum w sin, sum w cos) */
        CHECK_NEAR(2.0 * atan2(x.r.z, x.r.w), 2.0 * atan2(sz, cz), 1e-6);
        CHECK_NEAR(x.r.x, 0, 0);
    }

    /* N identical inputs give that input, whatever the weights */
    for (int i = 0; i < K; i++)
        tdn_pose_copy(&p[i], &p[2], NULL);
    tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = K, .out = &out }, NULL);
    CHECK(pose_near(&out, &p[2], 1e-6));
    for (int i = 0; i < K; i++)
        tdn_pose_destroy(&p[i]);
    tdn_pose_destroy(&out);
}

static void opposite_signs_blend_the_short_way(void)
{
    tdn_pose a, b, c, out;
    tdn_pose_create(1, &a, NULL, NULL), tdn_pose_create(1, &b, NULL, NULL), tdn_pose_create(1, &c, NULL, NULL),
        tdn_pose_create(1, &out, NULL, NULL);
    tdn_vec3 axis = tdn_vec3_normalize(tdn_vec3_make(1, 2, 3));
    tdn_transform xa = tdn_transform_identity(), xb = xa, xc = xa;
    xa.r = tdn_quat_from_axis_angle(axis, 0.2f);
    xb.r = tdn_quat_negate(tdn_quat_from_axis_angle(axis, 0.6f)); /* the same rotation, other sign */
    xc.r = tdn_quat_from_axis_angle(axis, 0.4f);
    tdn_pose_set(&a, 0, &xa), tdn_pose_set(&b, 0, &xb), tdn_pose_set(&c, 0, &xc);

    tdn_blend2(&a, &b, 0.5f, NULL, &out, NULL);
    CHECK_NEAR(check_quat_angle(tdn_pose_get(&out, 0).r, tdn_quat_from_axis_angle(axis, 0.4f)), 0, 1e-5);
    /* 3 inputs: a (+), b (-), c (+); and b first so the others flip against it */
    tdn_blend_input layers[3] = { { &b, 1, NULL }, { &a, 1, NULL }, { &c, 1, NULL } };
    tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = 3, .out = &out }, NULL);
    CHECK_NEAR(check_quat_angle(tdn_pose_get(&out, 0).r, tdn_quat_from_axis_angle(axis, 0.4f)), 0, 1e-5);
    CHECK_NEAR(quat_length(tdn_pose_get(&out, 0).r), 1, 1e-6);
    tdn_pose_destroy(&a), tdn_pose_destroy(&b), tdn_pose_destroy(&c), tdn_pose_destroy(&out);
}

static void zero_and_nan_weights_fall_back(void)
{
    check_rng rng = { 5 };
    tdn_pose a, b, rest, out;
    tdn_pose_create(N, &a, NULL, NULL), tdn_pose_create(N, &b, NULL, NULL), tdn_pose_create(N, &rest, NULL, NULL),
        tdn_pose_create(N, &out, NULL, NULL);
    random_pose(&a, &rng), random_pose(&b, &rng), random_pose(&rest, &rng);
    tdn_blend_input layers[2] = { { &a, 0.0f, NULL }, { &b, 0.0f, NULL } };

    /* all zero: the first input, or the fallback when given */
    CHECK_EQ_INT(tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = 2, .out = &out }, NULL), TDN_OK);
    CHECK(pose_near(&out, &a, 1e-6));
    CHECK_EQ_INT(
        tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = 2, .fallback = &rest, .out = &out }, NULL),
        TDN_OK);
    CHECK(pose_near(&out, &rest, 1e-6));
    /* NaN, negative and infinite weights count as 0 */
    layers[0].weight = NAN, layers[1].weight = -1.0f;
    tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = 2, .fallback = &rest, .out = &out }, NULL);
    CHECK(pose_near(&out, &rest, 1e-6));
    layers[0].weight = INFINITY, layers[1].weight = 0.5f;
    tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = 2, .fallback = &rest, .out = &out }, NULL);
    CHECK(pose_near(&out, &b, 1e-6));
    layers[0].weight = NAN, layers[1].weight = 0.5f;
    tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = 2, .fallback = &rest, .out = &out }, NULL);
    CHECK(pose_near(&out, &b, 1e-6));
    /* almost zero counts as zero: 1e-7 + 1e-7 is below the threshold */
    layers[0].weight = 1e-7f, layers[1].weight = 1e-7f;
    tdn_blend(&(tdn_blend_job){ .layers = layers, .layer_count = 2, .fallback = &rest, .out = &out }, NULL);
    CHECK(pose_near(&out, &rest, 1e-6));
    /* no layers: the fallback */
    CHECK_EQ_INT(tdn_blend(&(tdn_blend_job){ .fallback = &rest, .out = &out }, NULL), TDN_OK);
    CHECK(pose_near(&out, &rest, 1e-6));
    /* NaN cross-fade weight: a */
    tdn_blend2(&a, &b, NAN, NULL, &out, NULL);
    CHECK(pose_near(&out, &a, 1e-6));

    /* per joint: a mask that zeroes joint 3 of the only weighted layer sends it to the fallback */
    float mask[16];
    tdn_mask_fill(mask, N, 1.0f);
    mask[3] = 0.0f;
    tdn_blend_input one[1] = { { &b, 1.0f, mask } };
    tdn_blend(&(tdn_blend_job){ .layers = one, .layer_count = 1, .fallback = &rest, .out = &out }, NULL);
    CHECK(transform_near(tdn_pose_get(&out, 3), tdn_pose_get(&rest, 3), 1e-6));
    CHECK(transform_near(tdn_pose_get(&out, 4), tdn_pose_get(&b, 4), 1e-6));
    tdn_pose_destroy(&a), tdn_pose_destroy(&b), tdn_pose_destroy(&rest), tdn_pose_destroy(&out);
}

static void masks_blend_only_their_joints(void)
{
    check_rng rng = { 8 };
    tdn_pose a, b, out;
    tdn_pose_create(N, &a, NULL, NULL), tdn_pose_create(N, &b, NULL, NULL), tdn_pose_create(N, &out, NULL, NULL);
    random_pose(&a, &rng), random_pose(&b, &rng);
    float mask[16];
    tdn_mask_fill(mask, N, 0.0f);
    mask[2] = 1.0f, mask[5] = 0.5f, mask[12] = 1.0f;
    CHECK_EQ_INT(tdn_blend2(&a, &b, 1.0f, mask, &out, NULL), TDN_OK);
    for (int j = 0; j < N; j++) {
        tdn_transform x = tdn_pose_get(&out, j);
        if (j == 2 || j == 12)
            CHECK(transform_near(x, tdn_pose_get(&b, j), 1e-6));
        else if (j == 5)
            CHECK(transform_near(x,
                                 reference_blend((tdn_blend_input[]){ { &a, 0.5f, NULL }, { &b, 0.5f, NULL } }, 2, NULL,
                                                 0, tdn_pose_get(&a, j), j),
                                 1e-5));
        else
            CHECK(transform_near(x, tdn_pose_get(&a, j), 1e-6));
    }
    /* the cross-fade weight scales the mask: w 0.5 on a mask of 0.5 is a quarter of b */
    tdn_blend2(&a, &b, 0.5f, mask, &out, NULL);
    CHECK(transform_near(tdn_pose_get(&out, 5),
                         reference_blend((tdn_blend_input[]){ { &a, 0.75f, NULL }, { &b, 0.25f, NULL } }, 2, NULL, 0,
                                         tdn_pose_get(&a, 5), 5),
                         1e-5));
    /* the weight is clamped before the mask scales it: 7 on a mask of 0.5 is half of b */
    tdn_blend2(&a, &b, 7.0f, mask, &out, NULL);
    CHECK(transform_near(tdn_pose_get(&out, 5),
                         reference_blend((tdn_blend_input[]){ { &a, 0.5f, NULL }, { &b, 0.5f, NULL } }, 2, NULL, 0,
                                         tdn_pose_get(&a, 5), 5),
                         1e-5));
    tdn_pose_destroy(&a), tdn_pose_destroy(&b), tdn_pose_destroy(&out);
}

/* Four masked layers and two additives, fused, against the reference over random poses. */
static void fused_blend_matches_the_reference(void)
{
    check_rng rng = { 77 };
    enum { K = 4, A = 2 };
    tdn_pose p[K], d[A], rest, out;
    float masks[K][16], add_masks[A][16];
    for (int i = 0; i < K; i++)
        tdn_pose_create(N, &p[i], NULL, NULL);
    for (int i = 0; i < A; i++)
        tdn_pose_create(N, &d[i], NULL, NULL);
    tdn_pose_create(N, &rest, NULL, NULL), tdn_pose_create(N, &out, NULL, NULL);
    double worst = 0;
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < K; i++) {
            random_pose(&p[i], &rng);
            tdn_mask_fill(masks[i], N, 1.0f);
            for (int j = 0; j < N; j++)
                masks[i][j] = check_rng_float(&rng, -0.2f, 1.2f) < 0.1f ? 0.0f : check_rng_float(&rng, 0, 1);
        }
        for (int i = 0; i < A; i++) {
            random_pose(&d[i], &rng);
            tdn_mask_fill(add_masks[i], N, 1.0f);
            add_masks[i][round % N] = 0.3f;
        }
        random_pose(&rest, &rng);
        tdn_blend_input layers[K], adds[A];
        for (int i = 0; i < K; i++)
            layers[i] = (tdn_blend_input){ &p[i], check_rng_float(&rng, 0, 1), round % 3 ? masks[i] : NULL };
        for (int i = 0; i < A; i++)
            adds[i] = (tdn_blend_input){ &d[i], check_rng_float(&rng, 0, 1.2f), add_masks[i] };
        CHECK_EQ_INT(tdn_blend(&(tdn_blend_job){ .layers = layers,
                                                 .layer_count = K,
                                                 .additives = adds,
                                                 .additive_count = A,
                                                 .fallback = &rest,
                                                 .out = &out },
                               NULL),
                     TDN_OK);
        for (int j = 0; j < N; j++) {
            tdn_transform got = tdn_pose_get(&out, j);
            tdn_transform want = reference_blend(layers, K, adds, A, tdn_pose_get(&rest, j), j);
            double e = check_quat_angle(got.r, want.r);
            e = fmax(e, fabs(got.t.x - want.t.x) + fabs(got.t.y - want.t.y) + fabs(got.t.z - want.t.z));
            e = fmax(e, fabs(got.s.x - want.s.x) + fabs(got.s.y - want.s.y) + fabs(got.s.z - want.s.z));
            worst = fmax(worst, e);
            if (fabs(quat_length(got.r) - 1.0) > 1e-6)
                CHECK_NEAR(quat_length(got.r), 1, 1e-6);
        }
    }
    CHECK_NEAR(worst, 0, 2e-5);
    /* padding lanes stay identities */
    for (int j = N; j < out.stride; j++) {
        CHECK_NEAR(tdn_pose_row(&out, TDN_RW)[j], 1, 0);
        CHECK_NEAR(tdn_pose_row(&out, TDN_TX)[j], 0, 0);
        CHECK_NEAR(tdn_pose_row(&out, TDN_SY)[j], 1, 0);
    }
    for (int i = 0; i < K; i++)
        tdn_pose_destroy(&p[i]);
    for (int i = 0; i < A; i++)
        tdn_pose_destroy(&d[i]);
    tdn_pose_destroy(&rest), tdn_pose_destroy(&out);
}

/* More layers than one group of loops takes, more joints than one chunk, masks that send some
 * joints to the fallback, and the output aliasing a late layer or the fallback. */
static void many_layers_and_joints_match_the_reference(void)
{
    check_rng rng = { 4242 };
    enum { J = 300, K = 7, A = 2 };
    static float masks[K][304], add_masks[A][304];
    tdn_pose p[K], d[A], rest, out, copy;
    for (int i = 0; i < K; i++)
        tdn_pose_create(J, &p[i], NULL, NULL), random_pose(&p[i], &rng);
    for (int i = 0; i < A; i++)
        tdn_pose_create(J, &d[i], NULL, NULL), random_pose(&d[i], &rng);
    tdn_pose_create(J, &rest, NULL, NULL), tdn_pose_create(J, &out, NULL, NULL), tdn_pose_create(J, &copy, NULL, NULL);
    random_pose(&rest, &rng);
    tdn_blend_input layers[K], adds[A];
    for (int i = 0; i < K; i++) {
        tdn_mask_fill(masks[i], J, 1.0f);
        for (int j = 0; j < J; j++) /* every 10th joint masked out of every layer: fallback */
            masks[i][j] = j % 10 == 3 ? 0.0f : check_rng_float(&rng, 0, 1);
        layers[i] = (tdn_blend_input){ &p[i], check_rng_float(&rng, 0.1f, 2.0f), i % 2 ? masks[i] : NULL };
    }
    for (int j = 3; j < J; j += 10) /* the unmasked layers too, by a zero mask on them as well */
        for (int i = 0; i < K; i++)
            layers[i].joint_weights = masks[i];
    for (int i = 0; i < A; i++) {
        tdn_mask_fill(add_masks[i], J, 0.7f);
        adds[i] = (tdn_blend_input){ &d[i], 0.9f, add_masks[i] };
    }
    tdn_blend_job job = { layers, K, adds, A, &rest, &out };
    double worst = 0;
    for (int variant = 0; variant < 3; variant++) {
        tdn_pose *aliased = variant == 1 ? &p[5] : variant == 2 ? &rest : NULL;
        tdn_pose saved;
        tdn_pose_create(J, &saved, NULL, NULL);
        if (aliased) {
            tdn_pose_copy(&saved, aliased, NULL); /* the reference reads the inputs as they were */
            job.out = aliased;
        } else {
            job.out = &out;
        }
        tdn_pose_copy(&copy, aliased ? aliased : &p[5], NULL);
        tdn_blend_input ref_layers[K];
        memcpy(ref_layers, layers, sizeof layers);
        if (variant == 1)
            ref_layers[5].pose = &saved;
        CHECK_EQ_INT(tdn_blend(&job, NULL), TDN_OK);
        for (int j = 0; j < J; j++) {
            tdn_transform fb = tdn_pose_get(variant == 2 ? &saved : &rest, j);
            tdn_transform want = reference_blend(ref_layers, K, adds, A, fb, j);
            tdn_transform got = tdn_pose_get(job.out, j);
            double e = check_quat_angle(got.r, want.r);
            e = fmax(e, fabs(got.t.x - want.t.x) + fabs(got.t.y - want.t.y) + fabs(got.t.z - want.t.z));
            e = fmax(e, fabs(got.s.x - want.s.x) + fabs(got.s.y - want.s.y) + fabs(got.s.z - want.s.z));
            worst = fmax(worst, e);
        }
        if (aliased)
            tdn_pose_copy(aliased, &saved, NULL);
        tdn_pose_destroy(&saved);
    }
    CHECK_NEAR(worst, 0, 2e-5);
    for (int i = 0; i < K; i++)
        tdn_pose_destroy(&p[i]);
    for (int i = 0; i < A; i++)
        tdn_pose_destroy(&d[i]);
    tdn_pose_destroy(&rest), tdn_pose_destroy(&out), tdn_pose_destroy(&copy);
}

static void additive_round_trips(void)
{
    check_rng rng = { 3 };
    tdn_pose s, r, t, d, out, back;
    tdn_pose *all[] = { &s, &r, &t, &d, &out, &back };
    for (int i = 0; i < 6; i++)
        tdn_pose_create(N, all[i], NULL, NULL);
    for (int round = 0; round < 50; round++) {
        random_pose(&s, &rng), random_pose(&r, &rng), random_pose(&t, &rng);
        for (int j = 0; j < N; j++) { /* uniform positive scales */
            tdn_transform x = tdn_pose_get(&s, j), y = tdn_pose_get(&r, j);
            x.s.y = x.s.z = x.s.x, y.s.y = y.s.z = y.s.x;
            tdn_pose_set(&s, j, &x), tdn_pose_set(&r, j, &y);
        }
        CHECK_EQ_INT(tdn_additive_difference(&s, &r, &d, NULL), TDN_OK);
        /* D applied to R at weight 1 is S; at weight 0 any target is unchanged */
        CHECK_EQ_INT(tdn_additive_apply(&r, &d, 1.0f, NULL, &out, NULL), TDN_OK);
        CHECK(pose_near(&out, &s, 5e-6));
        tdn_additive_apply(&t, &d, 0.0f, NULL, &out, NULL);
        CHECK(pose_near(&out, &t, 1e-6));
        /* the same through the fused job: T at weight 1 plus D at weight 1 */
        tdn_blend_input layer = { &r, 1.0f, NULL }, add = { &d, 1.0f, NULL };
        tdn_blend(
            &(tdn_blend_job){ .layers = &layer, .layer_count = 1, .additives = &add, .additive_count = 1, .out = &out },
            NULL);
        CHECK(pose_near(&out, &s, 5e-6));
        /* deltas: to and from are exact inverses */
        CHECK_EQ_INT(tdn_pose_to_delta(&s, &r, &d, NULL), TDN_OK);
        CHECK_EQ_INT(tdn_pose_from_delta(&d, &r, &back, NULL), TDN_OK);
        CHECK(pose_near(&back, &s, 5e-6));
    }
    for (int i = 0; i < 6; i++)
        tdn_pose_destroy(all[i]);
}

static void additive_by_hand(void)
{
    tdn_pose t, d, out;
    tdn_pose_create(1, &t, NULL, NULL), tdn_pose_create(1, &d, NULL, NULL), tdn_pose_create(1, &out, NULL, NULL);
    tdn_transform xt = { { 1, 2, 3 }, { 0, 0, 0, 1 }, { 2, 2, 2 } };
    /* 90 degrees about z stored with a negative w: the short way is still +90 */
    tdn_transform xd = { { 0.5f, 0, -1 }, { 0, 0, -sinf(TDN_PI / 4), -cosf(TDN_PI / 4) }, { 3, 1, 0.5f } };
    tdn_pose_set(&t, 0, &xt), tdn_pose_set(&d, 0, &xd);
    float mask[8] = { 0.5f };
    CHECK_EQ_INT(tdn_additive_apply(&t, &d, 1.0f, mask, &out, NULL), TDN_OK); /* w = 1 * 0.5 */
    tdn_transform x = tdn_pose_get(&out, 0);
    CHECK_NEAR(x.t.x, 1.25, 1e-6);
    CHECK_NEAR(x.t.z, 2.5, 1e-6);
    CHECK_NEAR(x.s.x, 2 * (1 + 0.5 * (3 - 1)), 1e-6);   /* 4 */
    CHECK_NEAR(x.s.z, 2 * (1 + 0.5 * (0.5 - 1)), 1e-6); /* 1.5 */
    CHECK_NEAR(check_quat_angle(x.r, tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), TDN_PI / 4)), 0, 1e-6);
    /* weight above 1 clamps to 1, before the mask scales it */
    tdn_additive_apply(&t, &d, 3.0f, NULL, &out, NULL);
    x = tdn_pose_get(&out, 0);
    CHECK_NEAR(x.s.x, 6, 1e-6);
    CHECK_NEAR(check_quat_angle(x.r, tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), TDN_PI / 2)), 0, 1e-6);
    tdn_additive_apply(&t, &d, 3.0f, mask, &out, NULL);
    CHECK_NEAR(tdn_pose_get(&out, 0).s.x, 4, 1e-6);
    /* a zero reference scale: ratio 1, finite */
    tdn_transform zero = tdn_transform_identity();
    zero.s.y = 0.0f;
    tdn_pose_set(&t, 0, &zero);
    tdn_additive_difference(&d, &t, &out, NULL);
    CHECK_NEAR(tdn_pose_get(&out, 0).s.y, 1, 0);
    CHECK_NEAR(tdn_pose_get(&out, 0).s.x, 3, 1e-6);
    tdn_pose_destroy(&t), tdn_pose_destroy(&d), tdn_pose_destroy(&out);
}

static void output_may_be_an_input(void)
{
    check_rng rng = { 19 };
    tdn_pose a, b, d, expect, work;
    tdn_pose *all[] = { &a, &b, &d, &expect, &work };
    for (int i = 0; i < 5; i++)
        tdn_pose_create(N, all[i], NULL, NULL);
    random_pose(&a, &rng), random_pose(&b, &rng), random_pose(&d, &rng);

    tdn_blend_input layers[2] = { { &a, 0.3f, NULL }, { &b, 0.7f, NULL } }, add = { &d, 0.6f, NULL };
    tdn_blend(
        &(tdn_blend_job){ .layers = layers, .layer_count = 2, .additives = &add, .additive_count = 1, .out = &expect },
        NULL);
    tdn_pose_copy(&work, &b, NULL);
    layers[1].pose = &work;
    tdn_blend(
        &(tdn_blend_job){ .layers = layers, .layer_count = 2, .additives = &add, .additive_count = 1, .out = &work },
        NULL);
    CHECK(pose_bits_equal(&work, &expect));

    tdn_blend2(&a, &b, 0.4f, NULL, &expect, NULL);
    tdn_pose_copy(&work, &a, NULL);
    tdn_blend2(&work, &b, 0.4f, NULL, &work, NULL);
    CHECK(pose_bits_equal(&work, &expect));

    tdn_additive_apply(&a, &d, 0.8f, NULL, &expect, NULL);
    tdn_pose_copy(&work, &a, NULL);
    tdn_additive_apply(&work, &d, 0.8f, NULL, &work, NULL);
    CHECK(pose_bits_equal(&work, &expect));
    for (int i = 0; i < 5; i++)
        tdn_pose_destroy(all[i]);
}

static void bad_arguments_write_nothing(void)
{
    check_rng rng = { 23 };
    tdn_pose a, b, small, out, before;
    tdn_pose_create(N, &a, NULL, NULL), tdn_pose_create(N, &b, NULL, NULL), tdn_pose_create(3, &small, NULL, NULL);
    tdn_pose_create(N, &out, NULL, NULL), tdn_pose_create(N, &before, NULL, NULL);
    random_pose(&a, &rng), random_pose(&out, &rng);
    tdn_pose_copy(&before, &out, NULL);
    tdn_blend_input ok[1] = { { &a, 1, NULL } }, mismatched[2] = { { &a, 1, NULL }, { &small, 1, NULL } };
    tdn_blend_input null_pose[1] = { { NULL, 1, NULL } };

    CHECK_EQ_INT(tdn_blend(NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_blend(&(tdn_blend_job){ .layers = ok, .layer_count = 1 }, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_blend(&(tdn_blend_job){ .layers = mismatched, .layer_count = 2, .out = &out }, NULL),
                 TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_blend(&(tdn_blend_job){ .layers = null_pose, .layer_count = 1, .out = &out }, NULL),
                 TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_blend(&(tdn_blend_job){ .layers = NULL, .layer_count = 2, .out = &out }, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_blend(&(tdn_blend_job){ .layers = ok, .layer_count = -1, .out = &out }, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_blend(&(tdn_blend_job){ .out = &out }, NULL), TDN_ERR_ARGUMENT); /* no layer, no fallback */
    CHECK_EQ_INT(tdn_blend(&(tdn_blend_job){ .layers = ok, .layer_count = 1, .fallback = &small, .out = &out }, NULL),
                 TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(
        tdn_blend(
            &(tdn_blend_job){
                .layers = ok, .layer_count = 1, .additives = mismatched + 1, .additive_count = 1, .out = &out },
            NULL),
        TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(
        tdn_blend(
            &(tdn_blend_job){ .layers = ok, .layer_count = 1, .additives = NULL, .additive_count = 1, .out = &out },
            NULL),
        TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_blend2(&a, &small, 0.5f, NULL, &out, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_blend2(NULL, &b, 0.5f, NULL, &out, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_blend2(&a, &b, 0.5f, NULL, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_additive_difference(&a, &small, &out, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_additive_apply(&a, NULL, 1, NULL, &out, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_pose_to_delta(&small, &a, &out, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_pose_from_delta(&a, &b, &small, NULL), TDN_ERR_ARGUMENT);
    tdn_pose no_data = a;
    no_data.data = NULL;
    CHECK_EQ_INT(tdn_blend2(&no_data, &b, 0.5f, NULL, &out, NULL), TDN_ERR_ARGUMENT);
    CHECK(pose_bits_equal(&out, &before));
    tdn_pose_destroy(&a), tdn_pose_destroy(&b), tdn_pose_destroy(&small), tdn_pose_destroy(&out),
        tdn_pose_destroy(&before);
}

/* Layers and a first additive without masks take a path with one weight per input; with
 * all-ones masks the same job takes the per-joint path. The two give the same bits, and match the
 * reference: 1 to 4 layers that count (zero and negative weights among them), 0 to 2 additives
 * (a second one masked), over one chunk and several, with the output one of the inputs. */
static void unmasked_blend_equals_the_per_joint_path(void)
{
    check_rng rng = { 1717 };
    enum { K = 5, A = 2, J = 300 };        /* J: more joints than one chunk holds */
    static float ones[J + TDN_POSE_LANES]; /* all ones, the padding lanes too (tdn_mask_fill zeroes them) */
    for (int j = 0; j < J + TDN_POSE_LANES; j++)
        ones[j] = 1.0f;
    const int sizes[2] = { N, J };
    for (int size = 0; size < 2; size++) {
        const int joints = sizes[size];
        tdn_pose p[K], d[A], fast, slow;
        for (int i = 0; i < K; i++)
            tdn_pose_create(joints, &p[i], NULL, NULL);
        for (int i = 0; i < A; i++)
            tdn_pose_create(joints, &d[i], NULL, NULL);
        tdn_pose_create(joints, &fast, NULL, NULL), tdn_pose_create(joints, &slow, NULL, NULL);
        float add_mask[J + TDN_POSE_LANES];
        for (int round = 0; round < 60; round++) {
            for (int i = 0; i < K; i++)
                random_pose(&p[i], &rng);
            for (int i = 0; i < A; i++)
                random_pose(&d[i], &rng);
            for (int j = 0; j < J + TDN_POSE_LANES; j++)
                add_mask[j] = check_rng_float(&rng, 0, 1);
            /* at most 4 of the 5 layers count: one is weightless (0 or negative) */
            tdn_blend_input layers[K], masked[K], adds[A], masked_adds[A];
            const int weightless = round % K;
            for (int i = 0; i < K; i++) {
                float w = check_rng_float(&rng, 0.05f, 2.0f);
                if (i == weightless)
                    w = round % 2 ? 0.0f : -1.0f;
                else if (round % 7 == 0 && i != (weightless + 1) % K)
                    w = 0.0f; /* a single layer counts */
                layers[i] = (tdn_blend_input){ &p[i], w, NULL };
                masked[i] = (tdn_blend_input){ &p[i], w, ones };
            }
            for (int i = 0; i < A; i++) {
                float w = check_rng_float(&rng, 0, 1.2f);
                adds[i] = (tdn_blend_input){ &d[i], w, i == 0 ? NULL : add_mask };
                masked_adds[i] = (tdn_blend_input){ &d[i], w, i == 0 ? ones : add_mask };
            }
            const int add_count = round % 3;
            tdn_blend_job job = {
                .layers = layers, .layer_count = K, .additives = adds, .additive_count = add_count, .out = &fast
            };
            CHECK_EQ_INT(tdn_blend(&job, NULL), TDN_OK);
            tdn_blend_job general = job;
            general.layers = masked, general.additives = masked_adds, general.out = &slow;
            CHECK_EQ_INT(tdn_blend(&general, NULL), TDN_OK);
            CHECK(pose_bits_equal(&fast, &slow));
            double worst = 0;
            for (int j = 0; j < joints; j++) {
                tdn_transform got = tdn_pose_get(&fast, j);
                tdn_transform want = reference_blend(layers, K, adds, add_count, tdn_pose_get(&p[0], j), j);
                double e = check_quat_angle(got.r, want.r);
                e = fmax(e, fabs(got.t.x - want.t.x) + fabs(got.t.y - want.t.y) + fabs(got.t.z - want.t.z));
                e = fmax(e, fabs(got.s.x - want.s.x) + fabs(got.s.y - want.s.y) + fabs(got.s.z - want.s.z));
                worst = fmax(worst, e);
            }
            CHECK_NEAR(worst, 0, 5e-5);
            /* the output one of the inputs (staged): the same bits again */
            tdn_pose_copy(&slow, &p[(weightless + 1) % K], NULL);
            tdn_pose_copy(&fast, &p[(weightless + 1) % K], NULL);
            layers[(weightless + 1) % K].pose = &fast;
            masked[(weightless + 1) % K].pose = &slow;
            CHECK_EQ_INT(tdn_blend(&job, NULL), TDN_OK);
            CHECK_EQ_INT(tdn_blend(&general, NULL), TDN_OK);
            CHECK(pose_bits_equal(&fast, &slow));
        }
        for (int i = 0; i < K; i++)
            tdn_pose_destroy(&p[i]);
        for (int i = 0; i < A; i++)
            tdn_pose_destroy(&d[i]);
        tdn_pose_destroy(&fast), tdn_pose_destroy(&slow);
    }
}

/* Garbage in (a zero quaternion) stays finite: the identity rotation. */
static void zero_quaternions_become_identity(void)
{
    tdn_pose a, out;
    tdn_pose_create(2, &a, NULL, NULL), tdn_pose_create(2, &out, NULL, NULL);
    tdn_transform zero = tdn_transform_identity();
    zero.r = tdn_quat_make(0, 0, 0, 0);
    tdn_pose_set(&a, 1, &zero);
    tdn_blend_input one = { &a, 1.0f, NULL };
    tdn_blend(&(tdn_blend_job){ .layers = &one, .layer_count = 1, .out = &out }, NULL);
    tdn_quat r = tdn_pose_get(&out, 1).r;
    CHECK(r.x == 0 && r.y == 0 && r.z == 0 && r.w == 1);
    tdn_pose_destroy(&a), tdn_pose_destroy(&out);
}

int main(void)
{
    RUN(weights_0_and_1_give_the_inputs);
    RUN(ninety_degree_midpoint_is_the_slerp_midpoint);
    RUN(weighted_sums_by_hand);
    RUN(opposite_signs_blend_the_short_way);
    RUN(zero_and_nan_weights_fall_back);
    RUN(masks_blend_only_their_joints);
    RUN(fused_blend_matches_the_reference);
    RUN(many_layers_and_joints_match_the_reference);
    RUN(additive_round_trips);
    RUN(additive_by_hand);
    RUN(output_may_be_an_input);
    RUN(bad_arguments_write_nothing);
    RUN(zero_quaternions_become_identity);
    RUN(unmasked_blend_equals_the_per_joint_path);
    return check_summary();
}
