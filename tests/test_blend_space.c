/* Blend spaces: every mode against weights worked out by hand, properties on seeded random
 * points (own point weight 1, weights >= 0 summing to 1, continuity along paths), the polar
 * no-bleed property, gradient bands against naive per-axis blending, Delaunay triangles with
 * empty circumcircles, grids against the bilinear closed form, RBF against a second
 * implementation (and where it goes wrong), bad input, allocation. */
#include <float.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"

#define SQRT1_2 0.70710678118654752440

static tdn_blend_space *make(tdn_blend_space_mode mode, int dimensions, int count, const float *points)
{
    tdn_blend_space *s = NULL;
    tdn_error err = { 0 };
    tdn_blend_space_desc desc = { .mode = mode, .dimensions = dimensions, .sample_count = count, .points = points };
    tdn_result r = tdn_blend_space_create(&desc, &s, &counting, &err);
    if (r != TDN_OK)
        fprintf(stderr, "create %s: %s: %s: %s\n", tdn_blend_space_mode_name(mode), tdn_result_name(r), err.where,
                err.message);
    CHECK_EQ_INT(r, TDN_OK);
    return s;
}

/* Weights at (x, y) (2D spaces). */
static void at2(const tdn_blend_space *s, float x, float y, float *w)
{
    const float p[2] = { x, y };
    CHECK_EQ_INT(tdn_blend_space_weights(s, p, w, NULL), TDN_OK);
}

static void at1(const tdn_blend_space *s, float x, float *w)
{
    CHECK_EQ_INT(tdn_blend_space_weights(s, &x, w, NULL), TDN_OK);
}

/* Weights are >= 0 and sum to 1 within 1e-6. */
static int valid_weights(const float *w, int n)
{
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        if (!(w[i] >= 0.0f))
            return 0;
        sum += w[i];
    }
    return fabs(sum - 1.0) <= 1e-6;
}

/* The properties every mode has, on seeded random points in [lo, hi] (per axis, widened by
 * half its size so points outside the samples are covered): each sample's own point gives it
 * weight 1, every weight set is valid, and along a path through random waypoints in steps of
 * 1e-3 no weight changes by more than max_step. Returns the largest change seen. */
static double properties(const tdn_blend_space *s, const float *lo, const float *hi, uint64_t seed, double max_step)
{
    const int n = tdn_blend_space_sample_count(s), d = tdn_blend_space_dimensions(s);
    float w[TDN_MAX_BLEND_SPACE_SAMPLES], prev[TDN_MAX_BLEND_SPACE_SAMPLES];
    for (int i = 0; i < n; i++) {
        CHECK_EQ_INT(tdn_blend_space_weights(s, tdn_blend_space_point(s, i), w, NULL), TDN_OK);
        for (int j = 0; j < n; j++)
            if (!CHECK_NEAR(w[j], i == j ? 1.0 : 0.0, 2e-6))
                fprintf(stderr, "  %s: sample %d's own point, weight %d\n",
                        tdn_blend_space_mode_name(tdn_blend_space_mode_of(s)), i, j);
    }
    check_rng rng = { seed };
    float a[TDN_MAX_BLEND_SPACE_DIMENSIONS], b[TDN_MAX_BLEND_SPACE_DIMENSIONS], p[TDN_MAX_BLEND_SPACE_DIMENSIONS];
    int bad = 0;
    for (int t = 0; t < 2000; t++) {
        for (int k = 0; k < d; k++) {
            float half = 0.5f * (hi[k] - lo[k]);
            p[k] = check_rng_float(&rng, lo[k] - half, hi[k] + half);
        }
        tdn_blend_space_weights(s, p, w, NULL);
        bad += !valid_weights(w, n);
    }
    CHECK_EQ_INT(bad, 0);
    double worst = 0.0;
    float worst_from[TDN_MAX_BLEND_SPACE_DIMENSIONS] = { 0 }, worst_to[TDN_MAX_BLEND_SPACE_DIMENSIONS] = { 0 };
    for (int k = 0; k < d; k++)
        a[k] = check_rng_float(&rng, lo[k], hi[k]);
    tdn_blend_space_weights(s, a, prev, NULL);
    float last[TDN_MAX_BLEND_SPACE_DIMENSIONS];
    memcpy(last, a, sizeof last);
    for (int leg = 0; leg < 8; leg++) {
        double len2 = 0.0;
        for (int k = 0; k < d; k++) {
            float half = 0.5f * (hi[k] - lo[k]);
            b[k] = check_rng_float(&rng, lo[k] - half, hi[k] + half);
            len2 += ((double)b[k] - a[k]) * ((double)b[k] - a[k]);
        }
        int steps = (int)(sqrt(len2) / 1e-3) + 1;
        for (int st = 1; st <= steps; st++) {
            for (int k = 0; k < d; k++)
                p[k] = (float)(a[k] + ((double)b[k] - a[k]) * st / steps);
            tdn_blend_space_weights(s, p, w, NULL);
            for (int i = 0; i < n; i++) {
                double change = fabs((double)w[i] - prev[i]);
                if (change > worst) {
                    worst = change;
                    memcpy(worst_from, last, sizeof last);
                    memcpy(worst_to, p, sizeof last);
                }
                prev[i] = w[i];
            }
            memcpy(last, p, sizeof last);
        }
        memcpy(a, b, sizeof a);
    }
    const char *name = tdn_blend_space_mode_name(tdn_blend_space_mode_of(s));
    if (!CHECK(worst <= max_step))
        fprintf(stderr, "  %s: a weight changed by %g over a 1e-3 step\n", name, worst);
    /* A jump would stay as large over a 100 times shorter step inside the worst step; a steep
     * but continuous weight (a sliver triangle) changes about 100 times less. */
    double fine = 0.0;
    tdn_blend_space_weights(s, worst_from, prev, NULL);
    for (int st = 1; st <= 100; st++) {
        for (int k = 0; k < d; k++)
            p[k] = worst_from[k] + (worst_to[k] - worst_from[k]) * (float)st / 100.0f;
        tdn_blend_space_weights(s, p, w, NULL);
        for (int i = 0; i < n; i++) {
            fine = fmax(fine, fabs((double)w[i] - prev[i]));
            prev[i] = w[i];
        }
    }
    if (!CHECK(fine <= 0.05 * worst + 1e-6))
        fprintf(stderr, "  %s: a weight jumps by %g within a 1e-5 step\n", name, fine);
    return worst;
}

static void names_round_trip(void)
{
    const char *expect[] = { "linear", "gradient_band", "polar_gradient_band", "barycentric", "grid", "rbf" };
    for (int m = 0; m < 6; m++) {
        CHECK(strcmp(tdn_blend_space_mode_name((tdn_blend_space_mode)m), expect[m]) == 0);
        CHECK_EQ_INT(tdn_blend_space_mode_from_name(expect[m]), m);
    }
    CHECK_EQ_INT(TDN_BLEND_SPACE_RBF, 5);
    CHECK_EQ_INT(tdn_blend_space_mode_from_name("Linear"), -1);
    CHECK_EQ_INT(tdn_blend_space_mode_from_name("polar"), -1);
    CHECK_EQ_INT(tdn_blend_space_mode_from_name(""), -1);
    CHECK_EQ_INT(tdn_blend_space_mode_from_name(NULL), -1);
    CHECK(tdn_blend_space_mode_name((tdn_blend_space_mode)42) == NULL);
}

static void accessors_and_copy(void)
{
    float pts[6] = { 0, 0, 1, 0, 0, 1 };
    tdn_blend_space *s = make(TDN_BLEND_SPACE_BARYCENTRIC, 2, 3, pts);
    if (!s)
        return;
    pts[2] = 9.0f; /* the space kept its own copy */
    CHECK_EQ_INT(tdn_blend_space_mode_of(s), TDN_BLEND_SPACE_BARYCENTRIC);
    CHECK_EQ_INT(tdn_blend_space_dimensions(s), 2);
    CHECK_EQ_INT(tdn_blend_space_sample_count(s), 3);
    CHECK_NEAR(tdn_blend_space_point(s, 1)[0], 1.0, 0);
    CHECK(tdn_blend_space_point(s, 3) == NULL);
    CHECK(tdn_blend_space_point(s, -1) == NULL);
    CHECK(tdn_blend_space_point(NULL, 0) == NULL);
    CHECK_EQ_INT(tdn_blend_space_sample_count(NULL), 0);
    CHECK_EQ_INT(tdn_blend_space_dimensions(NULL), 0);
    tdn_blend_space_destroy(s);
    tdn_blend_space_destroy(NULL);
    CHECK_EQ_INT(live_blocks, 0);
}

static void linear_by_hand(void)
{
    /* unsorted on purpose: sorted they are 0 (s1), 1 (s3), 2 (s0), 5 (s2) */
    const float pts[4] = { 2, 0, 5, 1 };
    tdn_blend_space *s = make(TDN_BLEND_SPACE_LINEAR, 1, 4, pts);
    if (!s)
        return;
    float w[4];
    at1(s, 0.5f, w); /* halfway between 0 and 1 */
    CHECK_NEAR(w[1], 0.5, 1e-7);
    CHECK_NEAR(w[3], 0.5, 1e-7);
    CHECK_NEAR(w[0] + w[2], 0.0, 0);
    at1(s, 1.25f, w); /* a quarter of the way from 1 to 2 */
    CHECK_NEAR(w[3], 0.75, 1e-7);
    CHECK_NEAR(w[0], 0.25, 1e-7);
    at1(s, 4.25f, w); /* (4.25 - 2) / 3 = 0.75 of the way from 2 to 5 */
    CHECK_NEAR(w[0], 0.25, 1e-7);
    CHECK_NEAR(w[2], 0.75, 1e-7);
    at1(s, -3.0f, w); /* clamped at the ends */
    CHECK_NEAR(w[1], 1.0, 0);
    at1(s, 9.0f, w);
    CHECK_NEAR(w[2], 1.0, 0);
    const float lo[1] = { 0 }, hi[1] = { 5 };
    printf("linear: largest weight change over 1e-3: %.3g\n", properties(s, lo, hi, 11, 2e-3));

    /* gradient bands in 1D are the same bracketing lerp */
    tdn_blend_space *g = make(TDN_BLEND_SPACE_GRADIENT_BAND, 1, 4, pts);
    if (g) {
        check_rng rng = { 5 };
        double worst = 0.0;
        for (int t = 0; t < 1000; t++) {
            float x = check_rng_float(&rng, -2.0f, 7.0f), wl[4], wg[4];
            at1(s, x, wl);
            at1(g, x, wg);
            for (int i = 0; i < 4; i++)
                worst = fmax(worst, fabs((double)wl[i] - wg[i]));
        }
        CHECK_NEAR(worst, 0.0, 1e-6);
        tdn_blend_space_destroy(g);
    }
    tdn_blend_space_destroy(s);
    CHECK_EQ_INT(live_blocks, 0);
}

/* Unit square corners: gradient bands against the naive blend of two independent 1D blends
 * (x then y: bilinear, which grid mode computes). */
static void gradient_band_vs_naive_on_diagonal(void)
{
    const float pts[8] = { 0, 0, 1, 0, 0, 1, 1, 1 };
    tdn_blend_space *g = make(TDN_BLEND_SPACE_GRADIENT_BAND, 2, 4, pts);
    tdn_blend_space *naive = make(TDN_BLEND_SPACE_GRID, 2, 4, pts);
    if (!g || !naive)
        return;
    /* At p = (0.25, 0.25): h_i = min_j 1 - (p - p_i).(p_j - p_i) / |p_j - p_i|^2.
     * (0,0): vs (1,0) 1 - 0.25, vs (0,1) 1 - 0.25, vs (1,1) 1 - 0.5/2 -> 0.75.
     * (1,0): rel (-0.75, 0.25); vs (0,0) 1 - 0.75, vs (1,1) 1 - 0.25, vs (0,1) 1 - (0.75 + 0.25)/2 -> 0.25.
     * (0,1): 0.25 by symmetry. (1,1): rel (-0.75, -0.75); vs (1,0) 1 - 0.75, vs (0,1) 1 - 0.75,
     * vs (0,0) 1 - 1.5/2 -> 0.25. Sum 1.5: weights 0.5, 1/6, 1/6, 1/6.
     * Naive (bilinear): 0.75 * 0.75 = 0.5625, 0.25 * 0.75 = 0.1875 twice, 0.25 * 0.25 = 0.0625. */
    float wg[4], wn[4];
    at2(g, 0.25f, 0.25f, wg);
    at2(naive, 0.25f, 0.25f, wn);
    const double band[4] = { 0.5, 1.0 / 6, 1.0 / 6, 1.0 / 6 }, bilinear[4] = { 0.5625, 0.1875, 0.1875, 0.0625 };
    for (int i = 0; i < 4; i++) {
        CHECK_NEAR(wg[i], band[i], 1e-6);
        CHECK_NEAR(wn[i], bilinear[i], 1e-6);
    }
    /* the far corner: 1/6 against 1/16, a difference of 0.1042 */
    CHECK_NEAR(wg[3] - wn[3], 1.0 / 6 - 0.0625, 1e-6);
    /* on the diagonal's midpoint both agree (every corner 1/4); off the diagonal, on an edge,
     * both reduce to the same 1D lerp */
    at2(g, 0.5f, 0.5f, wg);
    at2(naive, 0.5f, 0.5f, wn);
    for (int i = 0; i < 4; i++) {
        CHECK_NEAR(wg[i], 0.25, 1e-6);
        CHECK_NEAR(wn[i], 0.25, 1e-6);
    }
    at2(g, 0.3f, 0.0f, wg);
    CHECK_NEAR(wg[0], 0.7, 1e-6);
    CHECK_NEAR(wg[1], 0.3, 1e-6);
    /* outside: (2, 0.5) projects onto the right edge, halfway up: (1,0) and (1,1) at 0.5 */
    at2(g, 2.0f, 0.5f, wg);
    CHECK_NEAR(wg[1], 0.5, 1e-6);
    CHECK_NEAR(wg[3], 0.5, 1e-6);
    tdn_blend_space_destroy(g);
    tdn_blend_space_destroy(naive);
}

static void gradient_band_scattered(void)
{
    /* idle (0,0), forward (0,1), right (1,0) at (0.5, 0.5): idle vs forward 1 - 0.5 and vs
     * right 1 - 0.5 -> 0.5; forward: rel (0.5, -0.5), vs idle 1 - 0.5, vs right
     * 1 - (0.5 + 0.5)/2 -> 0.5; right 0.5 by symmetry: one third each. */
    const float pts[6] = { 0, 0, 0, 1, 1, 0 };
    tdn_blend_space *g = make(TDN_BLEND_SPACE_GRADIENT_BAND, 2, 3, pts);
    if (!g)
        return;
    float w[3];
    at2(g, 0.5f, 0.5f, w);
    for (int i = 0; i < 3; i++)
        CHECK_NEAR(w[i], 1.0 / 3, 1e-6);
    tdn_blend_space_destroy(g);

    /* 20 scattered samples */
    check_rng rng = { 77 };
    float many[40];
    for (int i = 0; i < 40; i++)
        many[i] = check_rng_float(&rng, -2.0f, 2.0f);
    g = make(TDN_BLEND_SPACE_GRADIENT_BAND, 2, 20, many);
    if (!g)
        return;
    const float lo[2] = { -2, -2 }, hi[2] = { 2, 2 };
    printf("gradient_band (20 scattered): largest weight change over 1e-3: %.3g\n", properties(g, lo, hi, 12, 0.05));
    tdn_blend_space_destroy(g);
}

/* N-axis: the 8 corners of speed x slope x turn, each axis in {0, 1}; corner index
 * = speed + 2 slope + 4 turn. */
static void gradient_band_three_axes(void)
{
    float pts[24];
    for (int c = 0; c < 8; c++) {
        pts[3 * c] = (float)(c & 1);
        pts[3 * c + 1] = (float)((c >> 1) & 1);
        pts[3 * c + 2] = (float)((c >> 2) & 1);
    }
    tdn_blend_space *g = make(TDN_BLEND_SPACE_GRADIENT_BAND, 3, 8, pts);
    if (!g)
        return;
    float w[8];
    /* p = (0.25, 0.25, 0.25). Corner 000: vs a neighbour 1 - 0.25, vs a face diagonal
     * 1 - 0.5/2, vs 111 1 - 0.75/3 -> 0.75. Corner 100: rel (-0.75, .25, .25); vs 000
     * 1 - 0.75 = 0.25 (the minimum: vs 110 0.75, vs 010 1 - (0.75 + 0.25)/2 = 0.5, vs 011
     * 1 - 1.25/3). Corner 110: rel (-.75, -.75, .25); vs 000 1 - 1.5/2 = 0.25. Corner 111:
     * rel (-.75, -.75, -.75); vs 110 1 - 0.75 = 0.25. Sum 0.75 + 7 * 0.25 = 2.5: corner 000
     * 0.3, every other 0.1. */
    const float p[3] = { 0.25f, 0.25f, 0.25f };
    CHECK_EQ_INT(tdn_blend_space_weights(g, p, w, NULL), TDN_OK);
    CHECK_NEAR(w[0], 0.3, 1e-6);
    for (int c = 1; c < 8; c++)
        CHECK_NEAR(w[c], 0.1, 1e-6);
    /* the centre: every corner 1/8 */
    const float centre[3] = { 0.5f, 0.5f, 0.5f };
    tdn_blend_space_weights(g, centre, w, NULL);
    for (int c = 0; c < 8; c++)
        CHECK_NEAR(w[c], 0.125, 1e-6);
    /* along the speed edge at (0.4, 0, 0): 000 0.6, 100 0.4 (the others' bands end on the
     * edge's face: corner 010 vs 000 is 1 - 1 = 0) */
    const float edge[3] = { 0.4f, 0.0f, 0.0f };
    tdn_blend_space_weights(g, edge, w, NULL);
    CHECK_NEAR(w[0], 0.6, 1e-6);
    CHECK_NEAR(w[1], 0.4, 1e-6);
    const float lo[3] = { 0, 0, 0 }, hi[3] = { 1, 1, 1 };
    printf("gradient_band (3 axes): largest weight change over 1e-3: %.3g\n", properties(g, lo, hi, 13, 0.02));
    tdn_blend_space_destroy(g);
}

/* Directional locomotion: idle, walks at speed 1 in four directions, runs at speed 3
 * forward (+y) and right (+x). */
enum { IDLE, WALK_FWD, RUN_FWD, WALK_RIGHT, RUN_RIGHT, WALK_LEFT, WALK_BACK, LOCO };
static const float loco[2 * LOCO] = { 0, 0, 0, 1, 0, 3, 1, 0, 3, 0, -1, 0, 0, -1 };

static void polar_by_hand(void)
{
    tdn_blend_space *s = make(TDN_BLEND_SPACE_POLAR_GRADIENT_BAND, 2, LOCO, loco);
    if (!s)
        return;
    float w[LOCO];
    /* the origin: idle alone */
    at2(s, 0, 0, w);
    CHECK_NEAR(w[IDLE], 1.0, 0);

    /* (0, 0.5), halfway from idle to the forward walk. Idle (takes p's direction) vs walk
     * forward: mean 0.5, pair (1 / 0.5, 0) = (2, 0), query (0.5 / 0.5, 0) = (1, 0): 1 - 2/4
     * = 0.5; vs walk right: angle -pi/2, pair (2, -pi), query (1, 0): 1 - 2/(4 + pi^2) =
     * 0.856. Walk forward vs idle: pair (-2, 0), query ((0.5 - 1)/0.5, 0) = (-1, 0): 1 - 2/4
     * = 0.5; vs walk right: pair (0, -pi), query (-0.5, 0): 1. Walk right vs walk forward:
     * pair (0, pi), query (-0.5, pi): 1 - pi^2/pi^2 = 0. Walk back vs walk forward (opposite):
     * pair (0, 2 pi), query (-0.5, 2 |pi|): 0. So idle 0.5, walk forward 0.5. */
    at2(s, 0, 0.5f, w);
    CHECK_NEAR(w[IDLE], 0.5, 1e-6);
    CHECK_NEAR(w[WALK_FWD], 0.5, 1e-6);

    /* (0, 2), halfway in speed from walk to run forward: walk vs run, mean 2: pair
     * ((3 - 1)/2, 0) = (1, 0), query ((2 - 1)/2, 0) = (0.5, 0): 0.5; run vs walk: pair (-1, 0),
     * query (-0.5, 0): 0.5; run vs idle: mean 1.5, pair (-2, 0), query (-2/3, 0): 1 - (4/3)/4.
     * Idle vs walk forward: query (2 / 0.5, 0) = (4, 0) against (2, 0): 1 - 8/4 < 0. */
    at2(s, 0, 2, w);
    CHECK_NEAR(w[WALK_FWD], 0.5, 1e-6);
    CHECK_NEAR(w[RUN_FWD], 0.5, 1e-6);
    CHECK_NEAR(w[IDLE], 0.0, 0);

    /* The diagonal at run speed, 3 (cos 45deg, sin 45deg): walk forward vs run forward: pair
     * (1, 0), query ((3 - 1)/2, 2 * -pi/4) = (1, -pi/2): 1 - 1 = 0, so no walk; run forward vs
     * run right: pair (0, 2 * -pi/2), query (0, 2 * -pi/4): 0.5; run right likewise 0.5. Idle
     * vs walk forward: mean 0.5, query (3 / 0.5, 0) = (6, 0) against (2, -pi/2): below 0. */
    const float r = (float)(3.0 * SQRT1_2);
    at2(s, r, r, w);
    CHECK_NEAR(w[RUN_FWD], 0.5, 1e-5);
    CHECK_NEAR(w[RUN_RIGHT], 0.5, 1e-5);
    CHECK_NEAR(w[WALK_FWD], 0.0, 1e-6);
    CHECK_NEAR(w[WALK_RIGHT], 0.0, 1e-6);
    CHECK_NEAR(w[IDLE], 0.0, 0);

    /* Cartesian gradient bands on the same samples cut the corner: walk forward (0,1) at
     * p = (3/sqrt2, 3/sqrt2): rel (2.1213, 1.1213); vs run forward 1 - 1.1213 * 2/4 = 0.43934
     * (the minimum: vs run right 1 - (6.364 - 1.1213)/10 = 0.4757, vs walk right
     * 1 - (2.1213 - 1.1213)/2 = 0.5); run forward: rel (2.1213, -0.8787), vs run right
     * 1 - (6.364 + 2.636)/18 = 0.5. Sum 2 * 0.43934 + 2 * 0.5 = 1.87868: walk forward 0.23385,
     * run forward 0.26615. A quarter of the weight goes to each walk at run speed. */
    tdn_blend_space *c = make(TDN_BLEND_SPACE_GRADIENT_BAND, 2, LOCO, loco);
    if (c) {
        at2(c, r, r, w);
        const double walk = 1.5 - 1.5 * SQRT1_2, sum = 2 * walk + 1.0;
        CHECK_NEAR(w[WALK_FWD], walk / sum, 1e-5);
        CHECK_NEAR(w[WALK_RIGHT], walk / sum, 1e-5);
        CHECK_NEAR(w[RUN_FWD], 0.5 / sum, 1e-5);
        CHECK_NEAR(w[RUN_RIGHT], 0.5 / sum, 1e-5);
        tdn_blend_space_destroy(c);
    }
    tdn_blend_space_destroy(s);
}

static void polar_no_bleed(void)
{
    tdn_blend_space *s = make(TDN_BLEND_SPACE_POLAR_GRADIENT_BAND, 2, LOCO, loco);
    if (!s)
        return;
    float w[LOCO];
    /* beyond the fast forward sample: (0, 4) is all run (walk forward vs run forward: pair
     * (1, 0), query (1.5, 0): 1 - 1.5 < 0) */
    at2(s, 0, 4, w);
    CHECK_NEAR(w[RUN_FWD], 1.0, 1e-6);
    CHECK_NEAR(w[WALK_FWD], 0.0, 0);
    CHECK_NEAR(w[IDLE], 0.0, 0);
    /* Anywhere between the two runs' directions at run speed or faster, the slow samples
     * (idle, walks) have weight 0: walk forward's band against run forward is
     * 1 - (|p| - 1)/2 <= 0 whatever the angle. */
    check_rng rng = { 21 };
    int bled = 0;
    for (int t = 0; t < 1000; t++) {
        float angle = check_rng_float(&rng, 0.0f, 1.5707963f), mag = check_rng_float(&rng, 3.0f, 6.0f);
        at2(s, mag * cosf(angle), mag * sinf(angle), w);
        bled += w[IDLE] > 0.0f || w[WALK_FWD] > 1e-6f || w[WALK_RIGHT] > 1e-6f || w[WALK_LEFT] > 0.0f ||
                w[WALK_BACK] > 0.0f;
        bled += fabs((double)w[RUN_FWD] + w[RUN_RIGHT] - 1.0) > 1e-5;
    }
    CHECK_EQ_INT(bled, 0);
    /* in cartesian gradient bands the walks do bleed there (see polar_by_hand) */
    /* near the origin the idle dominates and takes all at the origin */
    at2(s, 0.01f, 0.0f, w);
    CHECK_NEAR(w[IDLE], 0.99, 1e-5); /* idle vs walk right: 1 - (0.01/0.5 * 2)/4 = 0.99 */
    const float lo[2] = { -3, -3 }, hi[2] = { 3, 3 };
    printf("polar_gradient_band: largest weight change over 1e-3: %.3g\n", properties(s, lo, hi, 14, 0.02));
    /* a path straight through the origin, where directions turn over */
    float prev[LOCO];
    at2(s, -1.0f, -1.0f, prev);
    double worst = 0.0;
    for (int st = 1; st <= 2000; st++) {
        float x = -1.0f + st * 1e-3f;
        at2(s, x, x, w);
        for (int i = 0; i < LOCO; i++) {
            worst = fmax(worst, fabs((double)w[i] - prev[i]));
            prev[i] = w[i];
        }
    }
    CHECK(worst <= 0.01);
    tdn_blend_space_destroy(s);

    /* without an idle sample, the origin has no direction: every walk counts the same */
    tdn_blend_space *ring = make(TDN_BLEND_SPACE_POLAR_GRADIENT_BAND, 2, 4, loco + 2 * WALK_FWD);
    if (ring) {
        /* samples: walk forward (0,1), run forward (0,3), walk right (1,0), run right (3,0) */
        float w4[4];
        at2(ring, 0, 0, w4);
        CHECK(valid_weights(w4, 4));
        tdn_blend_space_destroy(ring);
    }
}

/* Twice the signed area. */
static double orient2(const float *a, const float *b, const float *c)
{
    return ((double)b[0] - a[0]) * ((double)c[1] - a[1]) - ((double)b[1] - a[1]) * ((double)c[0] - a[0]);
}

/* The circumcircle of (a, b, c) holds no point of pts strictly inside (1e-9 of its radius). */
static int empty_circumcircle(const float *pts, int n, const float *a, const float *b, const float *c)
{
    double ax = a[0], ay = a[1], bx = b[0], by = b[1], cx = c[0], cy = c[1];
    double d = 2.0 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
    double a2 = ax * ax + ay * ay, b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
    double ux = (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d;
    double uy = (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d;
    double r = hypot(ax - ux, ay - uy);
    for (int i = 0; i < n; i++) {
        const float *p = pts + 2 * i;
        if (p == a || p == b || p == c)
            continue;
        if (hypot(p[0] - ux, p[1] - uy) < r * (1.0 - 1e-9))
            return 0;
    }
    return 1;
}

/* Black-box Delaunay check: inside the hull the weights name the triangle holding the point
 * (at most three samples), reproduce the point, and that triangle's circumcircle is empty.
 * Returns the number of distinct triangles seen. */
static int check_delaunay(const tdn_blend_space *s, const float *lo, const float *hi, uint64_t seed)
{
    const int n = tdn_blend_space_sample_count(s);
    const float *pts = tdn_blend_space_point(s, 0);
    int seen[3 * 256], seen_count = 0, bad_support = 0, bad_reproduce = 0, bad_circle = 0;
    check_rng rng = { seed };
    float w[TDN_MAX_BLEND_SPACE_SAMPLES];
    for (int t = 0; t < 20000; t++) {
        float p[2] = { check_rng_float(&rng, lo[0], hi[0]), check_rng_float(&rng, lo[1], hi[1]) };
        CHECK_EQ_INT(tdn_blend_space_weights(s, p, w, NULL), TDN_OK);
        int support[TDN_MAX_BLEND_SPACE_SAMPLES], k = 0;
        double x = 0.0, y = 0.0;
        for (int i = 0; i < n; i++) {
            x += (double)w[i] * pts[2 * i];
            y += (double)w[i] * pts[2 * i + 1];
            if (w[i] > 0.0f)
                support[k++] = i;
        }
        bad_support += k > 3;
        if (k != 3)
            continue; /* on an edge or a vertex */
        bad_reproduce += fabs(x - p[0]) > 1e-5 || fabs(y - p[1]) > 1e-5;
        bad_circle += !empty_circumcircle(pts, n, pts + 2 * support[0], pts + 2 * support[1], pts + 2 * support[2]);
        int known = 0;
        for (int u = 0; u < seen_count && !known; u++)
            known = seen[3 * u] == support[0] && seen[3 * u + 1] == support[1] && seen[3 * u + 2] == support[2];
        if (!known && seen_count < 256) {
            memcpy(seen + 3 * seen_count, support, 3 * sizeof(int));
            seen_count++;
        }
    }
    CHECK_EQ_INT(bad_support, 0);
    CHECK_EQ_INT(bad_reproduce, 0);
    CHECK_EQ_INT(bad_circle, 0);
    return seen_count;
}

/* Monotone-chain convex hull size (points on hull edges not counted). */
static int hull_vertex_count(const float *pts, int n)
{
    int order[TDN_MAX_BLEND_SPACE_SAMPLES], hull[2 * TDN_MAX_BLEND_SPACE_SAMPLES], k = 0;
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            const float *a = pts + 2 * order[j - 1], *b = pts + 2 * order[j];
            if (a[0] > b[0] || (a[0] == b[0] && a[1] > b[1])) {
                int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        }
    for (int i = 0; i < n; i++) {
        while (k >= 2 && orient2(pts + 2 * hull[k - 2], pts + 2 * hull[k - 1], pts + 2 * order[i]) <= 0)
            k--;
        hull[k++] = order[i];
    }
    for (int i = n - 2, lower = k + 1; i >= 0; i--) {
        while (k >= lower && orient2(pts + 2 * hull[k - 2], pts + 2 * hull[k - 1], pts + 2 * order[i]) <= 0)
            k--;
        hull[k++] = order[i];
    }
    return k - 1;
}

static void barycentric_by_hand(void)
{
    /* A (0,0), B (4,0), C (0,2) */
    const float pts[6] = { 0, 0, 4, 0, 0, 2 };
    tdn_blend_space *s = make(TDN_BLEND_SPACE_BARYCENTRIC, 2, 3, pts);
    if (!s)
        return;
    float w[3];
    /* (1, 0.5): lambda_B = 1/4, lambda_C = 0.5/2, lambda_A = 0.5 */
    at2(s, 1.0f, 0.5f, w);
    CHECK_NEAR(w[0], 0.5, 1e-6);
    CHECK_NEAR(w[1], 0.25, 1e-6);
    CHECK_NEAR(w[2], 0.25, 1e-6);
    /* outside: (-1, -1) is nearest to A */
    at2(s, -1.0f, -1.0f, w);
    CHECK_NEAR(w[0], 1.0, 1e-6);
    /* (2, -3) projects to (2, 0), halfway along AB */
    at2(s, 2.0f, -3.0f, w);
    CHECK_NEAR(w[0], 0.5, 1e-6);
    CHECK_NEAR(w[1], 0.5, 1e-6);
    /* (3, 2) projects onto BC (direction (-4, 2)): t = ((3,2) - (4,0)).(-4,2) / 20 = 0.4, the
     * point (2.4, 0.8): B 0.6, C 0.4 */
    at2(s, 3.0f, 2.0f, w);
    CHECK_NEAR(w[1], 0.6, 1e-6);
    CHECK_NEAR(w[2], 0.4, 1e-6);
    CHECK_NEAR(w[0], 0.0, 1e-6);
    /* far beyond B along AB's line: B alone */
    at2(s, 100.0f, -0.5f, w);
    CHECK_NEAR(w[1], 1.0, 1e-6);
    tdn_blend_space_destroy(s);
}

static void barycentric_delaunay(void)
{
    /* scattered samples: empty circumcircles and a full triangulation, 2n - 2 - h triangles */
    check_rng rng = { 99 };
    float pts[2 * 40];
    for (int i = 0; i < 80; i++)
        pts[i] = check_rng_float(&rng, -1.0f, 1.0f);
    tdn_blend_space *s = make(TDN_BLEND_SPACE_BARYCENTRIC, 2, 40, pts);
    if (s) {
        const float lo[2] = { -1, -1 }, hi[2] = { 1, 1 };
        int triangles = check_delaunay(s, lo, hi, 3);
        int h = hull_vertex_count(pts, 40);
        printf("barycentric: 40 scattered samples, hull of %d, %d triangles found by querying (Euler: %d)\n", h,
               triangles, 2 * 40 - 2 - h);
        CHECK(triangles <= 2 * 40 - 2 - h);
        CHECK(triangles >= 2 * 40 - 2 - h - 4); /* the thinnest slivers may escape 20000 random queries */
        /* steep but continuous in sliver triangles (the refinement inside properties tells) */
        printf("barycentric: largest weight change over 1e-3: %.3g\n", properties(s, lo, hi, 15, 0.15));
        tdn_blend_space_destroy(s);
    }

    /* a 4 x 4 grid (every cell cocircular): one of the two diagonals per cell; at a cell's
     * centre the weights are 0.5 on that diagonal's ends */
    float grid[32];
    for (int i = 0; i < 16; i++) {
        grid[2 * i] = (float)(i % 4);
        grid[2 * i + 1] = (float)(i / 4);
    }
    s = make(TDN_BLEND_SPACE_BARYCENTRIC, 2, 16, grid);
    if (s) {
        const float lo[2] = { 0, 0 }, hi[2] = { 3, 3 };
        int triangles = check_delaunay(s, lo, hi, 4);
        CHECK_EQ_INT(triangles, 18); /* 9 cells x 2 */
        float w[16];
        for (int cy = 0; cy < 3; cy++)
            for (int cx = 0; cx < 3; cx++) {
                at2(s, cx + 0.5f, cy + 0.5f, w);
                int c00 = cy * 4 + cx, c10 = c00 + 1, c01 = c00 + 4, c11 = c00 + 5, nonzero = 0;
                for (int i = 0; i < 16; i++)
                    nonzero += w[i] > 1e-6f;
                CHECK_EQ_INT(nonzero, 2);
                int main_diag = fabsf(w[c00] - 0.5f) < 1e-6f && fabsf(w[c11] - 0.5f) < 1e-6f;
                int anti_diag = fabsf(w[c10] - 0.5f) < 1e-6f && fabsf(w[c01] - 0.5f) < 1e-6f;
                CHECK(main_diag || anti_diag);
            }
        properties(s, lo, hi, 16, 0.01);
        tdn_blend_space_destroy(s);
    }

    /* a regular octagon and its centre: 8 triangles around the centre */
    float oct[18] = { 0, 0 };
    for (int i = 0; i < 8; i++) {
        oct[2 + 2 * i] = (float)cos(i * 0.78539816339744831);
        oct[3 + 2 * i] = (float)sin(i * 0.78539816339744831);
    }
    s = make(TDN_BLEND_SPACE_BARYCENTRIC, 2, 9, oct);
    if (s) {
        const float lo[2] = { -1, -1 }, hi[2] = { 1, 1 };
        CHECK_EQ_INT(check_delaunay(s, lo, hi, 5), 8);
        tdn_blend_space_destroy(s);
    }
    /* a regular hexagon alone: all six cocircular, 4 triangles of some fan or zigzag */
    float hex[12];
    for (int i = 0; i < 6; i++) {
        hex[2 * i] = (float)cos(i * 1.0471975511965976);
        hex[2 * i + 1] = (float)sin(i * 1.0471975511965976);
    }
    s = make(TDN_BLEND_SPACE_BARYCENTRIC, 2, 6, hex);
    if (s) {
        const float lo[2] = { -1, -1 }, hi[2] = { 1, 1 };
        CHECK_EQ_INT(check_delaunay(s, lo, hi, 6), 4);
        tdn_blend_space_destroy(s);
    }
    CHECK_EQ_INT(live_blocks, 0);
}

static void barycentric_collinear(void)
{
    /* collinear samples fall back to bracketing along their line */
    const float pts[8] = { 0, 0, 1, 1, 3, 3, 2, 2 };
    tdn_blend_space *s = make(TDN_BLEND_SPACE_BARYCENTRIC, 2, 4, pts);
    if (!s)
        return;
    float w[4];
    at2(s, 1.5f, 1.5f, w);
    CHECK_NEAR(w[1], 0.5, 1e-6);
    CHECK_NEAR(w[3], 0.5, 1e-6);
    /* (2.5, 1.5) projects to (2, 2) */
    at2(s, 2.5f, 1.5f, w);
    CHECK_NEAR(w[3], 1.0, 1e-6);
    at2(s, 5.0f, 5.0f, w);
    CHECK_NEAR(w[2], 1.0, 0);
    at2(s, -1.0f, 0.0f, w);
    CHECK_NEAR(w[0], 1.0, 0);
    const float lo[2] = { 0, 0 }, hi[2] = { 3, 3 };
    properties(s, lo, hi, 17, 0.01);
    tdn_blend_space_destroy(s);
    /* two samples */
    const float two[4] = { 0, 0, 0, 2 };
    s = make(TDN_BLEND_SPACE_BARYCENTRIC, 2, 2, two);
    if (s) {
        at2(s, 5.0f, 0.5f, w);
        CHECK_NEAR(w[0], 0.75, 1e-6);
        CHECK_NEAR(w[1], 0.25, 1e-6);
        tdn_blend_space_destroy(s);
    }
}

static void grid_by_hand(void)
{
    /* x in {0, 1, 3}, y in {0, 2}, listed out of order */
    const float pts[12] = { 3, 2, 0, 0, 1, 2, 3, 0, 1, 0, 0, 2 };
    enum { G32, G00, G12, G30, G10, G02 };
    tdn_blend_space *s = make(TDN_BLEND_SPACE_GRID, 2, 6, pts);
    if (!s)
        return;
    float w[6];
    /* (2, 0.5): cell x 1..3 at 0.5, y 0..2 at 0.25 */
    at2(s, 2.0f, 0.5f, w);
    CHECK_NEAR(w[G10], 0.5 * 0.75, 1e-6);
    CHECK_NEAR(w[G30], 0.5 * 0.75, 1e-6);
    CHECK_NEAR(w[G12], 0.5 * 0.25, 1e-6);
    CHECK_NEAR(w[G32], 0.5 * 0.25, 1e-6);
    CHECK_NEAR(w[G00] + w[G02], 0.0, 0);
    /* clamped: (-5, 1) is (0, 1) */
    at2(s, -5.0f, 1.0f, w);
    CHECK_NEAR(w[G00], 0.5, 1e-6);
    CHECK_NEAR(w[G02], 0.5, 1e-6);
    at2(s, 10.0f, 10.0f, w);
    CHECK_NEAR(w[G32], 1.0, 0);
    /* the bilinear closed form: weights reproduce 1, x, y and x*y inside (each is bilinear on
     * every cell) */
    check_rng rng = { 8 };
    double worst = 0.0;
    for (int t = 0; t < 2000; t++) {
        float x = check_rng_float(&rng, 0.0f, 3.0f), y = check_rng_float(&rng, 0.0f, 2.0f);
        at2(s, x, y, w);
        double sx = 0, sy = 0, sxy = 0;
        for (int i = 0; i < 6; i++) {
            sx += (double)w[i] * pts[2 * i];
            sy += (double)w[i] * pts[2 * i + 1];
            sxy += (double)w[i] * pts[2 * i] * pts[2 * i + 1];
        }
        worst = fmax(worst, fmax(fabs(sx - x), fmax(fabs(sy - y), fabs(sxy - (double)x * y))));
        /* and each weight is the product of the two 1D hat functions */
        for (int i = 0; i < 6; i++) {
            const double xs[3] = { 0, 1, 3 };
            double px = pts[2 * i], py = pts[2 * i + 1], hx = 0.0, hy = 1.0 - fabs(y - py) / 2.0;
            for (int k = 0; k < 3; k++)
                if (xs[k] == px) {
                    if (x >= px && k < 2)
                        hx = 1.0 - (x - px) / (xs[k + 1] - px);
                    else if (x < px && k > 0)
                        hx = 1.0 - (px - x) / (px - xs[k - 1]);
                }
            hx = hx > 0 ? hx : 0;
            worst = fmax(worst, fabs(w[i] - hx * hy));
        }
    }
    CHECK_NEAR(worst, 0.0, 2e-6);
    const float lo[2] = { 0, 0 }, hi[2] = { 3, 2 };
    properties(s, lo, hi, 18, 0.01);
    tdn_blend_space_destroy(s);

    /* a single row is a 1D lerp along x */
    const float row[6] = { 0, 5, 2, 5, 1, 5 };
    s = make(TDN_BLEND_SPACE_GRID, 2, 3, row);
    if (s) {
        at2(s, 1.5f, -7.0f, w);
        CHECK_NEAR(w[2], 0.5, 1e-6);
        CHECK_NEAR(w[1], 0.5, 1e-6);
        tdn_blend_space_destroy(s);
    }
}

/* A second RBF: the explicit coefficient matrix by Gauss-Jordan on [A | I], then the raw
 * weights sum_k X[k][i] b_k (A = [phi 1; 1 0], phi(r) = exp(-(r/s)^2), s the mean nearest
 * distance). */
static void rbf_reference(const float *pts, int n, int d, const float *p, double *raw)
{
    enum { M = TDN_MAX_BLEND_SPACE_SAMPLES + 1 };
    static double aug[M][2 * M];
    const int m = n + 1;
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double best = DBL_MAX;
        for (int j = 0; j < n; j++) {
            double d2 = 0.0;
            for (int k = 0; k < d; k++)
                d2 += ((double)pts[i * d + k] - pts[j * d + k]) * ((double)pts[i * d + k] - pts[j * d + k]);
            if (j != i && d2 < best)
                best = d2;
        }
        s += sqrt(best);
    }
    s /= n;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < 2 * m; j++) {
            double v = 0.0;
            if (j >= m)
                v = j - m == i;
            else if (i < n && j < n) {
                double d2 = 0.0;
                for (int k = 0; k < d; k++)
                    d2 += ((double)pts[i * d + k] - pts[j * d + k]) * ((double)pts[i * d + k] - pts[j * d + k]);
                v = exp(-d2 / (s * s));
            } else
                v = i != j;
            aug[i][j] = v;
        }
    for (int k = 0; k < m; k++) {
        int r = k;
        for (int i = k + 1; i < m; i++)
            if (fabs(aug[i][k]) > fabs(aug[r][k]))
                r = i;
        for (int j = 0; j < 2 * m; j++) {
            double t = aug[k][j];
            aug[k][j] = aug[r][j];
            aug[r][j] = t;
        }
        double piv = aug[k][k];
        for (int j = 0; j < 2 * m; j++)
            aug[k][j] /= piv;
        for (int i = 0; i < m; i++)
            if (i != k) {
                double f = aug[i][k];
                for (int j = 0; j < 2 * m; j++)
                    aug[i][j] -= f * aug[k][j];
            }
    }
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int k = 0; k < m; k++) {
            double b = 1.0;
            if (k < n) {
                double d2 = 0.0;
                for (int c = 0; c < d; c++)
                    d2 += ((double)p[c] - pts[k * d + c]) * ((double)p[c] - pts[k * d + c]);
                b = exp(-d2 / (s * s));
            }
            sum += aug[i][m + k] * b; /* the inverse is symmetric: row i = column i */
        }
        raw[i] = sum;
    }
}

static void rbf_against_reference_and_its_flaws(void)
{
    const float pts[4] = { 0, 1, 2, 3 };
    tdn_blend_space *r = make(TDN_BLEND_SPACE_RBF, 1, 4, pts);
    tdn_blend_space *g = make(TDN_BLEND_SPACE_GRADIENT_BAND, 1, 4, pts);
    if (!r || !g)
        return;
    float wr[4], wg[4];
    double raw[4];
    /* Kernel width s = 1 (every nearest neighbour is 1 away). At p = 0.5 the raw RBF weights
     * (computed separately in Python, Gauss-Jordan in double) are 0.525937, 0.618796,
     * -0.169190, 0.024457: sample 2 goes negative and sample 3, 2.5 away, keeps influence,
     * while gradient bands give the clean 0.5, 0.5, 0, 0. Clamped and renormalized: 0.449831,
     * 0.529252, 0, 0.020917. */
    const float p = 0.5f;
    rbf_reference(pts, 4, 1, &p, raw);
    const double python[4] = { 0.525937, 0.618796, -0.169190, 0.024457 };
    for (int i = 0; i < 4; i++)
        CHECK_NEAR(raw[i], python[i], 1e-6);
    CHECK(raw[2] < -0.16);
    at1(g, p, wg);
    CHECK_NEAR(wg[0], 0.5, 1e-6);
    CHECK_NEAR(wg[1], 0.5, 1e-6);
    CHECK_NEAR(wg[2] + wg[3], 0.0, 0);
    at1(r, p, wr);
    const double clamped[4] = { 0.449831, 0.529252, 0.0, 0.020917 };
    for (int i = 0; i < 4; i++)
        CHECK_NEAR(wr[i], clamped[i], 2e-6);
    CHECK(wr[3] > 0.02); /* the far sample's influence survives the clamp */
    /* Far from every sample, at p = 10, the weights tend to the constant term's coefficients
     * 0.307620, 0.192380, 0.192380, 0.307620: sample 0, ten away, weighs as much as sample 3,
     * the nearest; gradient bands give sample 3 alone. */
    at1(r, 10.0f, wr);
    at1(g, 10.0f, wg);
    CHECK_NEAR(wr[0], 0.307620, 2e-6);
    CHECK_NEAR(wr[1], 0.192380, 2e-6);
    CHECK_NEAR(wr[3], 0.307620, 2e-6);
    CHECK_NEAR(wg[3], 1.0, 0);
    tdn_blend_space_destroy(r);
    tdn_blend_space_destroy(g);

    /* 2D scattered: tendon's weights are the reference's, clamped and renormalized */
    check_rng rng = { 31 };
    float many[2 * 12];
    for (int i = 0; i < 24; i++)
        many[i] = check_rng_float(&rng, -1.0f, 1.0f);
    r = make(TDN_BLEND_SPACE_RBF, 2, 12, many);
    if (!r)
        return;
    double worst = 0.0;
    int negative_raw = 0;
    for (int t = 0; t < 500; t++) {
        float q[2] = { check_rng_float(&rng, -1.5f, 1.5f), check_rng_float(&rng, -1.5f, 1.5f) };
        double ref[12], sum = 0.0, raw_sum = 0.0;
        float w[12];
        rbf_reference(many, 12, 2, q, ref);
        for (int i = 0; i < 12; i++) {
            raw_sum += ref[i];
            negative_raw += ref[i] < -1e-3;
            ref[i] = ref[i] > 0.0 ? ref[i] : 0.0;
            sum += ref[i];
        }
        CHECK_NEAR(raw_sum, 1.0, 1e-9); /* the constant term: raw weights sum to 1 */
        CHECK_EQ_INT(tdn_blend_space_weights(r, q, w, NULL), TDN_OK);
        for (int i = 0; i < 12; i++)
            worst = fmax(worst, fabs(w[i] - ref[i] / sum));
    }
    CHECK_NEAR(worst, 0.0, 1e-5);
    CHECK(negative_raw > 0);
    printf(
        "rbf: 12 scattered samples, %d negative raw weights over 500 points, largest difference from the reference %.3g\n",
        negative_raw, worst);
    const float lo[2] = { -1, -1 }, hi[2] = { 1, 1 };
    printf("rbf: largest weight change over 1e-3: %.3g\n", properties(r, lo, hi, 19, 0.05));
    tdn_blend_space_destroy(r);
    CHECK_EQ_INT(live_blocks, 0);
}

/* One sample: weight 1 everywhere, every mode. */
static void single_sample(void)
{
    const float one[2] = { 0.5f, -1.0f };
    for (int m = 0; m < 6; m++) {
        int d = m == TDN_BLEND_SPACE_LINEAR ? 1 : 2;
        tdn_blend_space *s = make((tdn_blend_space_mode)m, d, 1, one);
        if (!s)
            continue;
        float w[1] = { -1 };
        const float p[2] = { 7, 7 };
        CHECK_EQ_INT(tdn_blend_space_weights(s, p, w, NULL), TDN_OK);
        CHECK_NEAR(w[0], 1.0, 0);
        tdn_blend_space_destroy(s);
    }
}

/* Creation fails with code, where naming the place, *out NULL, nothing allocated. */
static void expect_failure(tdn_blend_space_mode mode, int d, int n, const float *pts, tdn_result code,
                           const char *where1, const char *where2)
{
    tdn_blend_space *s = (tdn_blend_space *)&live_blocks; /* not NULL before the call */
    tdn_error err = { 0 };
    tdn_blend_space_desc desc = { .mode = mode, .dimensions = d, .sample_count = n, .points = pts };
    CHECK_EQ_INT(tdn_blend_space_create(&desc, &s, &counting, &err), code);
    CHECK_EQ_INT(err.code, code);
    CHECK(s == NULL);
    CHECK_EQ_INT(live_blocks, 0);
    CHECK(err.message[0] != '\0');
    if (where1 && !CHECK(strstr(err.where, where1) != NULL))
        fprintf(stderr, "  where '%s' lacks '%s' (%s)\n", err.where, where1, err.message);
    if (where2 && !CHECK(strstr(err.where, where2) != NULL))
        fprintf(stderr, "  where '%s' lacks '%s' (%s)\n", err.where, where2, err.message);
}

static void bad_input(void)
{
    const float sq[8] = { 0, 0, 1, 0, 0, 1, 1, 1 };
    tdn_blend_space *s = (tdn_blend_space *)&live_blocks;
    CHECK_EQ_INT(tdn_blend_space_create(NULL, &s, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK(s == NULL);
    tdn_blend_space_desc ok = { .mode = TDN_BLEND_SPACE_GRID, .dimensions = 2, .sample_count = 4, .points = sq };
    CHECK_EQ_INT(tdn_blend_space_create(&ok, NULL, NULL, NULL), TDN_ERR_ARGUMENT);

    expect_failure((tdn_blend_space_mode)6, 2, 4, sq, TDN_ERR_ARGUMENT, "mode", NULL);
    expect_failure((tdn_blend_space_mode)-1, 2, 4, sq, TDN_ERR_ARGUMENT, "mode", NULL);
    expect_failure(TDN_BLEND_SPACE_GRID, 2, 0, sq, TDN_ERR_ARGUMENT, "sample_count", NULL);
    expect_failure(TDN_BLEND_SPACE_GRID, 2, 65, sq, TDN_ERR_ARGUMENT, "sample_count", NULL);
    expect_failure(TDN_BLEND_SPACE_RBF, 0, 4, sq, TDN_ERR_ARGUMENT, "dimensions", NULL);
    expect_failure(TDN_BLEND_SPACE_GRADIENT_BAND, 9, 4, sq, TDN_ERR_ARGUMENT, "dimensions", NULL);
    expect_failure(TDN_BLEND_SPACE_LINEAR, 2, 4, sq, TDN_ERR_ARGUMENT, "dimensions", NULL);
    expect_failure(TDN_BLEND_SPACE_POLAR_GRADIENT_BAND, 1, 4, sq, TDN_ERR_ARGUMENT, "dimensions", NULL);
    expect_failure(TDN_BLEND_SPACE_BARYCENTRIC, 3, 2, sq, TDN_ERR_ARGUMENT, "dimensions", NULL);
    expect_failure(TDN_BLEND_SPACE_GRID, 1, 4, sq, TDN_ERR_ARGUMENT, "dimensions", NULL);
    expect_failure(TDN_BLEND_SPACE_GRID, 2, 4, NULL, TDN_ERR_ARGUMENT, "points", NULL);

    /* non-finite and absurd coordinates, in every mode */
    for (int m = 0; m < 6; m++) {
        int d = m == TDN_BLEND_SPACE_LINEAR ? 1 : 2;
        float pts[10] = { 0, 0, 1, 0, 0, 1, 1, 1, 2, 2 };
        pts[3 * d] = NAN;
        expect_failure((tdn_blend_space_mode)m, d, 4, pts, TDN_ERR_INVALID_DATA, "samples[3]", NULL);
        pts[3 * d] = 0;
        pts[2 * d + d - 1] = -INFINITY;
        expect_failure((tdn_blend_space_mode)m, d, 4, pts, TDN_ERR_INVALID_DATA, "samples[2]", NULL);
        pts[2 * d + d - 1] = 1e20f;
        expect_failure((tdn_blend_space_mode)m, d, 4, pts, TDN_ERR_INVALID_DATA, "samples[2]", NULL);
        /* two samples at one point: both named */
        const float dup2[10] = { 0, 0, 1, 0, 0, 1, 1, 0, 2, 2 };
        const float dup1[5] = { 0, 1, 2, 1, 3 };
        expect_failure((tdn_blend_space_mode)m, d, 5, d == 1 ? dup1 : dup2, TDN_ERR_INVALID_DATA, "samples[1]",
                       "samples[3]");
    }
    /* a grid with a corner missing, and one with a point too many */
    const float l[6] = { 0, 0, 1, 0, 0, 1 };
    expect_failure(TDN_BLEND_SPACE_GRID, 2, 3, l, TDN_ERR_INVALID_DATA, "samples[1]", NULL);
    const float extra[10] = { 0, 0, 1, 0, 0, 1, 1, 1, 2, 0.5f };
    expect_failure(TDN_BLEND_SPACE_GRID, 2, 5, extra, TDN_ERR_INVALID_DATA, "samples[0]", NULL);
    {
        tdn_error err = { 0 };
        tdn_blend_space_desc desc = { .mode = TDN_BLEND_SPACE_GRID, .dimensions = 2, .sample_count = 3, .points = l };
        tdn_blend_space_create(&desc, &s, NULL, &err);
        CHECK(strstr(err.message, "(1, 1)") != NULL); /* names the missing point */
    }
    /* An RBF whose kernel cannot tell two samples apart. The Gaussian matrix is positive
     * definite for distinct points, so only near-coincident samples make it singular in
     * practice: 1e-12 apart for a kernel width of about 0.6 (a zero pivot), and 1e-6 apart
     * (solvable, but the weights at the samples come back 2e-5 off, beyond the 1e-6 tendon
     * accepts). 1e-3 apart solves cleanly. */
    const float close[5] = { 0, 1e-12f, 1, 2, 3 };
    expect_failure(TDN_BLEND_SPACE_RBF, 1, 5, close, TDN_ERR_INVALID_DATA, "samples[0]", "samples[1]");
    const float near[5] = { 0, 1, 1.000001f, 2, 3 };
    expect_failure(TDN_BLEND_SPACE_RBF, 1, 5, near, TDN_ERR_INVALID_DATA, "samples[1]", "samples[2]");
    const float apart[5] = { 0, 1, 1.001f, 2, 3 };
    tdn_blend_space *r = make(TDN_BLEND_SPACE_RBF, 1, 5, apart);
    if (r) {
        float w[5];
        at1(r, 1.0005f, w);
        CHECK_NEAR(w[1] + w[2], 1.0, 1e-3);
        tdn_blend_space_destroy(r);
    }
    /* collinear barycentric samples that land on one place of their line (the third is 1e-7
     * off the line through the first two: no triangle) */
    const float flat[6] = { 0, 0, 1, 0, 1, 1e-7f };
    expect_failure(TDN_BLEND_SPACE_BARYCENTRIC, 2, 3, flat, TDN_ERR_INVALID_DATA, "samples[1]", "samples[2]");

    /* the allocator failing */
    const float line[4] = { 0, 1, 2, 3 };
    for (int m = 0; m < 6; m++) {
        allocations_before_failure = 0;
        int d = m == TDN_BLEND_SPACE_LINEAR ? 1 : 2;
        expect_failure((tdn_blend_space_mode)m, d, 4, d == 1 ? line : sq, TDN_ERR_OUT_OF_MEMORY, NULL, NULL);
        allocations_before_failure = -1;
    }

    /* bad queries: TDN_ERR_ARGUMENT, weights all on sample 0 */
    tdn_blend_space *g = make(TDN_BLEND_SPACE_GRADIENT_BAND, 2, 4, sq);
    if (!g)
        return;
    float w[4] = { 5, 5, 5, 5 };
    const float nan_point[2] = { 0.5f, NAN }, inf_point[2] = { INFINITY, 0 }, p[2] = { 0.5f, 0.5f };
    CHECK_EQ_INT(tdn_blend_space_weights(g, nan_point, w, NULL), TDN_ERR_ARGUMENT);
    CHECK(w[0] == 1.0f && w[1] == 0.0f && w[2] == 0.0f && w[3] == 0.0f);
    w[0] = 5;
    CHECK_EQ_INT(tdn_blend_space_weights(g, inf_point, w, NULL), TDN_ERR_ARGUMENT);
    CHECK(w[0] == 1.0f && w[3] == 0.0f);
    w[0] = 5;
    CHECK_EQ_INT(tdn_blend_space_weights(g, NULL, w, NULL), TDN_ERR_ARGUMENT);
    CHECK(w[0] == 1.0f);
    CHECK_EQ_INT(tdn_blend_space_weights(g, p, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_blend_space_weights(NULL, p, w, NULL), TDN_ERR_ARGUMENT);
    tdn_blend_space_destroy(g);
    CHECK_EQ_INT(live_blocks, 0);
}

/* Creation takes exactly one block; weights take none (any call to the hooks would count
 * down allocations_before_failure). */
static void allocation(void)
{
    float pts[2 * 16];
    check_rng rng = { 4 };
    for (int i = 0; i < 32; i++)
        pts[i] = check_rng_float(&rng, -1.0f, 1.0f);
    const float grid[8] = { 0, 0, 1, 0, 0, 1, 1, 1 };
    for (int m = 0; m < 6; m++) {
        int d = m == TDN_BLEND_SPACE_LINEAR ? 1 : 2, n = m == TDN_BLEND_SPACE_GRID ? 4 : 16;
        tdn_blend_space *s = make((tdn_blend_space_mode)m, d, n, m == TDN_BLEND_SPACE_GRID ? grid : pts);
        if (!s)
            continue;
        CHECK_EQ_INT(live_blocks, 1);
        size_t bytes = live_bytes;
        allocations_before_failure = 1000000;
        float w[16];
        for (int t = 0; t < 100; t++) {
            float p[2] = { check_rng_float(&rng, -2, 2), check_rng_float(&rng, -2, 2) };
            tdn_blend_space_weights(s, p, w, NULL);
        }
        CHECK_EQ_INT(allocations_before_failure, 1000000);
        allocations_before_failure = -1;
        CHECK_EQ_INT(live_blocks, 1);
        printf("%s: %d samples in %zu bytes\n", tdn_blend_space_mode_name((tdn_blend_space_mode)m), n, bytes);
        tdn_blend_space_destroy(s);
        CHECK_EQ_INT(live_blocks, 0);
        CHECK_EQ_INT((long long)live_bytes, 0);
    }
}

/* The largest spaces: 64 samples, 8 dimensions. */
static void limits(void)
{
    float pts[64 * 8];
    check_rng rng = { 64 };
    for (int i = 0; i < 64 * 8; i++)
        pts[i] = check_rng_float(&rng, -1.0f, 1.0f);
    const float lo[8] = { -1, -1, -1, -1, -1, -1, -1, -1 }, hi[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
    tdn_blend_space *s = make(TDN_BLEND_SPACE_GRADIENT_BAND, 8, 64, pts);
    if (s) {
        properties(s, lo, hi, 20, 0.05);
        tdn_blend_space_destroy(s);
    }
    s = make(TDN_BLEND_SPACE_RBF, 8, 64, pts);
    if (s) {
        properties(s, lo, hi, 21, 0.05);
        tdn_blend_space_destroy(s);
    }
    s = make(TDN_BLEND_SPACE_BARYCENTRIC, 2, 64, pts);
    if (s) {
        check_delaunay(s, lo, hi, 22);
        properties(s, lo, hi, 23, 0.15);
        tdn_blend_space_destroy(s);
    }
    s = make(TDN_BLEND_SPACE_POLAR_GRADIENT_BAND, 2, 64, pts);
    if (s) {
        float w[64];
        int bad = 0;
        for (int t = 0; t < 1000; t++) {
            at2(s, check_rng_float(&rng, -2, 2), check_rng_float(&rng, -2, 2), w);
            bad += !valid_weights(w, 64);
        }
        CHECK_EQ_INT(bad, 0);
        tdn_blend_space_destroy(s);
    }
    float grid[64 * 2];
    for (int i = 0; i < 64; i++) {
        grid[2 * i] = (float)(i % 8) * 0.5f;
        grid[2 * i + 1] = (float)(i / 8) * 0.25f;
    }
    s = make(TDN_BLEND_SPACE_GRID, 2, 64, grid);
    if (s) {
        const float glo[2] = { 0, 0 }, ghi[2] = { 3.5f, 1.75f };
        properties(s, glo, ghi, 24, 0.01);
        tdn_blend_space_destroy(s);
    }
    s = make(TDN_BLEND_SPACE_BARYCENTRIC, 2, 64, grid);
    if (s) {
        const float glo[2] = { 0, 0 }, ghi[2] = { 3.5f, 1.75f };
        CHECK_EQ_INT(check_delaunay(s, glo, ghi, 25), 2 * 7 * 7);
        tdn_blend_space_destroy(s);
    }
    CHECK_EQ_INT(live_blocks, 0);
}

int main(void)
{
    RUN(names_round_trip);
    RUN(accessors_and_copy);
    RUN(linear_by_hand);
    RUN(gradient_band_vs_naive_on_diagonal);
    RUN(gradient_band_scattered);
    RUN(gradient_band_three_axes);
    RUN(polar_by_hand);
    RUN(polar_no_bleed);
    RUN(barycentric_by_hand);
    RUN(barycentric_delaunay);
    RUN(barycentric_collinear);
    RUN(grid_by_hand);
    RUN(rbf_against_reference_and_its_flaws);
    RUN(single_sample);
    RUN(bad_input);
    RUN(allocation);
    RUN(limits);
    return check_summary();
}
