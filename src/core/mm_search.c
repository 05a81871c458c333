/* tendon core: motion-matching search.
 *
 * A cost is the squared distance between the query and a frame's features, summed in four
 * lanes over the rows' 4-float groups and the lanes added last as (l0 + l2) + (l1 + l3).
 * A box's lower bound is the same sum over max(lo - q, q - hi, 0): per feature it is at most
 * |q - f| for every frame f in the box, rounding included (float subtraction and squaring are
 * monotonic, and the sums run in the same order), so pruning a box whose bound is not below the
 * best cost so far can never drop a better frame: the accelerated search finds exactly the
 * brute-force cost. Sums of non-negative terms only grow, so a partial sum that already
 * reaches the best ends a cost or bound early, with the same guarantee. */
#include "mm_internal.h"

#include <string.h>

#if !defined(TENDON_NO_SIMD) && (defined(__SSE__) || defined(_M_X64))
#  include <xmmintrin.h>
#  define TDN__MM_SSE 1
#endif

/* Groups summed between checks of a partial sum against the best. */
#define CHECK_EVERY 2

#if TDN__MM_SSE
typedef __m128 lanes;
static inline lanes lanes_zero(void) { return _mm_setzero_ps(); }
static inline lanes lanes_load(const float *p) { return _mm_load_ps(p); }
static inline lanes lanes_add_square(lanes acc, lanes d) { return _mm_add_ps(acc, _mm_mul_ps(d, d)); }
static inline lanes lanes_sub(lanes a, lanes b) { return _mm_sub_ps(a, b); }
static inline lanes lanes_gap(lanes q, lanes lo, lanes hi)
{
    return _mm_max_ps(_mm_max_ps(_mm_sub_ps(lo, q), _mm_sub_ps(q, hi)), _mm_setzero_ps());
}
static inline float lanes_sum(lanes a)
{
    __m128 t = _mm_add_ps(a, _mm_movehl_ps(a, a)); /* (l0 + l2, l1 + l3, ..) */
    return _mm_cvtss_f32(_mm_add_ss(t, _mm_shuffle_ps(t, t, 1)));
}
#else
typedef struct lanes {
    float v[4];
} lanes;
static inline lanes lanes_zero(void) { return (lanes){ { 0, 0, 0, 0 } }; }
static inline lanes lanes_load(const float *p) { return (lanes){ { p[0], p[1], p[2], p[3] } }; }
static inline lanes lanes_add_square(lanes acc, lanes d)
{
    for (int l = 0; l < 4; l++)
        acc.v[l] += d.v[l] * d.v[l];
    return acc;
}
static inline lanes lanes_sub(lanes a, lanes b)
{
    for (int l = 0; l < 4; l++)
        a.v[l] -= b.v[l];
    return a;
}
static inline lanes lanes_gap(lanes q, lanes lo, lanes hi)
{
    lanes g;
    for (int l = 0; l < 4; l++) {
        float below = lo.v[l] - q.v[l], above = q.v[l] - hi.v[l];
        float m = below > above ? below : above;
        g.v[l] = m > 0.0f ? m : 0.0f;
    }
    return g;
}
static inline float lanes_sum(lanes a) { return (a.v[0] + a.v[2]) + (a.v[1] + a.v[3]); }
#endif

/* The cost of row f, or a partial sum >= limit as soon as one reaches it. */
static inline float frame_cost(const float *q, const float *f, int groups, float limit)
{
    lanes acc = lanes_zero();
    for (int g = 0; g < groups; g++) {
        acc = lanes_add_square(acc, lanes_sub(lanes_load(q + 4 * g), lanes_load(f + 4 * g)));
        if ((g + 1) % CHECK_EVERY == 0 && g + 1 < groups && lanes_sum(acc) >= limit)
            return lanes_sum(acc);
    }
    return lanes_sum(acc);
}

/* The whole cost of row f (the brute force's: no checks on the way). */
static inline float full_cost(const float *q, const float *f, int groups)
{
    lanes acc = lanes_zero();
    for (int g = 0; g < groups; g++)
        acc = lanes_add_square(acc, lanes_sub(lanes_load(q + 4 * g), lanes_load(f + 4 * g)));
    return lanes_sum(acc);
}

/* A box's lower bound, or a partial sum >= limit as soon as one reaches it. */
static inline float box_bound(const float *q, const float *lo, const float *hi, int groups, float limit)
{
    lanes acc = lanes_zero();
    for (int g = 0; g < groups; g++) {
        acc = lanes_add_square(acc, lanes_gap(lanes_load(q + 4 * g), lanes_load(lo + 4 * g), lanes_load(hi + 4 * g)));
        if ((g + 1) % CHECK_EVERY == 0 && g + 1 < groups && lanes_sum(acc) >= limit)
            return lanes_sum(acc);
    }
    return lanes_sum(acc);
}

/* Frames [skip_first, skip_end) are no candidates. */
typedef struct skip_range {
    int first, end;
} skip_range;

static int candidate(const tdn_mm_database *db, int i, skip_range skip)
{
    return db->frames[i].searchable && (i < skip.first || i >= skip.end);
}

static void search_brute(const tdn_mm_database *db, const float *q, skip_range skip, tdn_mm_match *best)
{
    const int groups = db->stride / 4;
    for (int i = 0; i < db->frame_count; i++) {
        if (!candidate(db, i, skip))
            continue;
        float c = full_cost(q, tdn__mm_row(db, i), groups);
        if (c < best->cost)
            best->cost = c, best->frame = i;
    }
}

static float bound_of(const float *q, const float *box, int stride, float limit)
{
    return box_bound(q, box, box + stride, stride / 4, limit);
}

/* Large boxes in order, each entered when its bound is below the best so far, then its small
 * boxes likewise, then their frames. */
static void search_boxes(const tdn_mm_database *db, const float *q, skip_range skip, tdn_mm_match *best)
{
    const int stride = db->stride, groups = stride / 4, per_large = TDN__MM_LARGE_BOX / TDN__MM_SMALL_BOX;
    for (int large = 0; large < db->large_count; large++) {
        if (bound_of(q, db->large_boxes + 2 * (size_t)large * (size_t)stride, stride, best->cost) >= best->cost)
            continue;
        const int small_end = (large + 1) * per_large < db->small_count ? (large + 1) * per_large : db->small_count;
        for (int small = large * per_large; small < small_end; small++) {
            if (bound_of(q, db->small_boxes + 2 * (size_t)small * (size_t)stride, stride, best->cost) >= best->cost)
                continue;
            const int first = small * TDN__MM_SMALL_BOX;
            const int end = first + TDN__MM_SMALL_BOX < db->frame_count ? first + TDN__MM_SMALL_BOX : db->frame_count;
            for (int i = first; i < end; i++) {
                if (!candidate(db, i, skip))
                    continue;
                float c = frame_cost(q, tdn__mm_row(db, i), groups, best->cost);
                if (c < best->cost)
                    best->cost = c, best->frame = i;
            }
        }
    }
}

tdn_result tdn_mm_search_skipping(const tdn_mm_database *db, const float *query, int current, float bias,
                                  int skip_first, int skip_end, tdn_mm_search_mode mode, tdn_mm_match *out,
                                  tdn_error *err)
{
    if (!db || !query || !out || current < -1 || current >= db->frame_count || !(bias >= 0.0f) || !tdn__finite(bias) ||
        (mode != TDN_MM_SEARCH_ACCELERATED && mode != TDN_MM_SEARCH_BRUTE)) {
        if (!db || !query || !out)
            return tdn__null(err, !db ? "db" : !query ? "query" : "out");
        if (current < -1 || current >= db->frame_count)
            return tdn__fail(err, TDN_ERR_ARGUMENT, "current", "frame %d is not -1 or within 0..%d", current,
                             db->frame_count - 1);
        if (!(bias >= 0.0f) || !tdn__finite(bias))
            return tdn__fail(err, TDN_ERR_ARGUMENT, "bias", "%g is not a finite cost >= 0", (double)bias);
        return tdn__fail(err, TDN_ERR_ARGUMENT, "mode", "%d is not a tdn_mm_search_mode", (int)mode);
    }
    _Alignas(16) float q[TDN_MM_MAX_DIMENSIONS];
    memcpy(q, query, sizeof(float) * (size_t)db->dims);
    memset(q + db->dims, 0, sizeof(float) * (size_t)(db->stride - db->dims));
    tdn_mm_match best = { -1, INFINITY };
    if (current >= 0 && db->frames[current].searchable) {
        best.frame = current;
        best.cost = full_cost(q, tdn__mm_row(db, current), db->stride / 4) - bias;
    }
    const skip_range skip = { skip_first, skip_end };
    if (mode == TDN_MM_SEARCH_BRUTE)
        search_brute(db, q, skip, &best);
    else
        search_boxes(db, q, skip, &best);
    *out = best;
    return TDN_OK;
}

tdn_result tdn_mm_search(const tdn_mm_database *db, const float *query, int current, float bias,
                         tdn_mm_search_mode mode, tdn_mm_match *out, tdn_error *err)
{
    return tdn_mm_search_skipping(db, query, current, bias, 0, 0, mode, out, err);
}
