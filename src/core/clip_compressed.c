/* tendon core: a runtime clip's compressed tracks (clip_compressed.h): sampling, and the build's
 * choice of ranges and bit rates.
 *
 * Bit rates: per segment, each packed track first gets the fewest bits that keep the error of its
 * own joint's subtree under half the threshold with every other track exact (a track moves only
 * its subtree); a group takes its lanes' largest. Then the whole skeleton is measured at every
 * frame of the segment with every track quantized, and while a joint is over the threshold every
 * group on its chain to the root gains a bit: errors add up along the chain, and the tracks that
 * carry them are the ancestors'. */
#include "clip_compressed.h"

#include <limits.h>
#include <math.h>
#include <stdalign.h>
#include <string.h>

#include "block.h"
#include "slerp_time.h"
#include "tendon/model_space.h"
#include "vertex_error.h"

#define LANES TDN__PACK_LANES
/* The share of the threshold one track may take on its own: the rest is left for the errors of
 * the tracks above it on the chain. */
#define TRACK_SHARE 0.5f
/* Rounds of raising a segment's groups on an over-threshold chain before giving up (at most
 * TDN__PACK_MAX_BITS, then 3 halvings of the step, are needed: each round raises every group
 * on the chain). */
#define MAX_RAISES (2 * TDN__PACK_MAX_BITS + 3)
/* Forced inline, the decode and its helpers, so that the sampler's loop keeps a group's lanes in
 * registers and each kind (rotation or not, a constant at the call) gets its own copy. */
#if defined(__GNUC__)
#  define DECODE_INLINE inline __attribute__((always_inline))
#  define DECODE_APART __attribute__((noinline))
#else
#  define DECODE_INLINE inline
#  define DECODE_APART
#endif

/* ---- 4 lanes at once: SSE2, or plain C elsewhere (the same arithmetic, so the same bits) ---- */

#if !defined(TENDON_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#  include <emmintrin.h>
typedef __m128 v4;
static inline v4 v4_set1(float x) { return _mm_set1_ps(x); }
static inline v4 v4_load(const float *p) { return _mm_loadu_ps(p); }
static inline void v4_store(float *p, v4 a) { _mm_storeu_ps(p, a); }
static inline v4 v4_add(v4 a, v4 b) { return _mm_add_ps(a, b); }
static inline v4 v4_sub(v4 a, v4 b) { return _mm_sub_ps(a, b); }
static inline v4 v4_mul(v4 a, v4 b) { return _mm_mul_ps(a, b); }
static inline v4 v4_min(v4 a, v4 b) { return _mm_min_ps(a, b); }
static inline v4 v4_sqrt_positive(v4 a) { return _mm_sqrt_ps(_mm_max_ps(a, _mm_setzero_ps())); }
static inline v4 v4_inverse_sqrt(v4 a) { return _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(a)); }
static inline v4 v4_abs(v4 a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
/* lane i of a to p[i] */
static inline void v4_store_lanes(v4 a, float *p0, float *p1, float *p2, float *p3)
{
    _mm_store_ss(p0, a);
    _mm_store_ss(p1, _mm_shuffle_ps(a, a, _MM_SHUFFLE(1, 1, 1, 1)));
    _mm_store_ss(p2, _mm_movehl_ps(a, a));
    _mm_store_ss(p3, _mm_shuffle_ps(a, a, _MM_SHUFFLE(3, 3, 3, 3)));
}
/* bit i set where lane i of a is under x */
static inline int v4_lanes_under(v4 a, float x) { return _mm_movemask_ps(_mm_cmplt_ps(a, _mm_set1_ps(x))); }
/* a with the sign of b's lanes flipped where m < 0 */
static inline v4 v4_flip_where_negative(v4 a, v4 m) { return _mm_xor_ps(a, _mm_and_ps(m, _mm_set1_ps(-0.0f))); }
/* The `lanes` (1 to 4) bytes at p as floats, the lanes past them 0: the 4 bytes ending with them
 * are read (inside a record, whose rows follow its 8-byte head) and shifted down. */
static inline v4 v4_from_row(const uint8_t *p, int lanes)
{
    uint32_t x;
    memcpy(&x, p + lanes - 4, sizeof x);
    x >>= 8 * (4 - lanes); /* x86 is little-endian */
    const __m128i zero = _mm_setzero_si128();
    const __m128i b = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)x), zero);
    return _mm_cvtepi32_ps(_mm_unpacklo_epi16(b, zero));
}
/* The 32 bits from bit `at` of each of the 4 lanes' interleaved words: the two words they span
 * joined (SSE2's shift by 32 clears a lane, as s = 0 asks). */
static inline __m128i v4_joined_words(const uint32_t *words, int stride, unsigned at)
{
    const unsigned s = at & 31u;
    const uint32_t *lo = words + (size_t)stride * (at >> 5);
    const __m128i l = _mm_loadu_si128((const __m128i *)(const void *)lo);
    const __m128i h = _mm_loadu_si128((const __m128i *)(const void *)(lo + stride));
    return _mm_or_si128(_mm_srl_epi32(l, _mm_cvtsi32_si128((int)s)),
                        _mm_sll_epi32(h, _mm_cvtsi32_si128((int)(32u - s))));
}
/* A value's two words in each of the 4 lanes of a group of 4 (stride 4) as 64 bits: lanes 0 and
 * 1 in `a`, 2 and 3 in `b`, so that every value starting in the first word and ending by the
 * second's last bit is one shift away. */
typedef struct window {
    __m128i a, b;
} window;
static inline window window_load(const uint32_t *words, unsigned at)
{
    const uint32_t *lo = words + 4 * (size_t)(at >> 5);
    const __m128i l = _mm_loadu_si128((const __m128i *)(const void *)lo);
    const __m128i h = _mm_loadu_si128((const __m128i *)(const void *)(lo + 4));
    const window w = { _mm_unpacklo_epi32(l, h), _mm_unpackhi_epi32(l, h) };
    return w;
}
/* The value at bit `shift` of the window (shift + its bits <= 64), kept by a mask of its bits
 * ((1 << bits) - 1 in each of 4 lanes, 16-byte aligned: an `and` takes it from memory), as a
 * float. */
static inline v4 window_extract(const window *w, unsigned shift, const uint32_t *mask)
{
    const __m128i n = _mm_cvtsi32_si128((int)shift);
    const __m128 x = _mm_castsi128_ps(_mm_srl_epi64(w->a, n)), y = _mm_castsi128_ps(_mm_srl_epi64(w->b, n));
    const __m128i v = _mm_castps_si128(_mm_shuffle_ps(x, y, _MM_SHUFFLE(2, 0, 2, 0)));
    return _mm_cvtepi32_ps(_mm_and_si128(v, _mm_load_si128((const __m128i *)(const void *)mask)));
}
/* The value at bit `at` of each lane's interleaved words, kept by a mask as window_extract's. */
static inline v4 v4_extract_masked(const uint32_t *words, int stride, unsigned at, const uint32_t *mask)
{
    return _mm_cvtepi32_ps(
        _mm_and_si128(v4_joined_words(words, stride, at), _mm_load_si128((const __m128i *)(const void *)mask)));
}
/* 4 floats from 16-byte aligned memory */
static inline v4 v4_load_aligned(const float *p) { return _mm_load_ps(p); }
#else
typedef struct v4 {
    float x[4];
} v4;
static inline v4 v4_set1(float x) { return (v4){ { x, x, x, x } }; }
static inline v4 v4_load(const float *p) { return (v4){ { p[0], p[1], p[2], p[3] } }; }
static inline void v4_store(float *p, v4 a) { memcpy(p, a.x, sizeof a.x); }
#  define V4_EACH(expr)         \
    v4 r;                       \
    for (int i = 0; i < 4; i++) \
      r.x[i] = (expr);          \
    return r
static inline v4 v4_add(v4 a, v4 b) { V4_EACH(a.x[i] + b.x[i]); }
static inline v4 v4_sub(v4 a, v4 b) { V4_EACH(a.x[i] - b.x[i]); }
static inline v4 v4_mul(v4 a, v4 b) { V4_EACH(a.x[i] * b.x[i]); }
static inline v4 v4_min(v4 a, v4 b) { V4_EACH(b.x[i] < a.x[i] ? b.x[i] : a.x[i]); }
static inline v4 v4_sqrt_positive(v4 a) { V4_EACH(sqrtf(a.x[i] > 0.0f ? a.x[i] : 0.0f)); }
static inline v4 v4_inverse_sqrt(v4 a) { V4_EACH(1.0f / sqrtf(a.x[i])); }
static inline v4 v4_abs(v4 a) { V4_EACH(fabsf(a.x[i])); }
static inline void v4_store_lanes(v4 a, float *p0, float *p1, float *p2, float *p3)
{
    *p0 = a.x[0], *p1 = a.x[1], *p2 = a.x[2], *p3 = a.x[3];
}
static inline int v4_lanes_under(v4 a, float x)
{
    int bits = 0;
    for (int i = 0; i < 4; i++)
        bits |= (a.x[i] < x) << i;
    return bits;
}
static inline v4 v4_flip_where_negative(v4 a, v4 m) { V4_EACH(m.x[i] < 0.0f ? -a.x[i] : a.x[i]); }
static inline v4 v4_from_row(const uint8_t *p, int lanes) { V4_EACH(i < lanes ? (float)p[i] : 0.0f); }
static inline v4 v4_extract_masked(const uint32_t *words, int stride, unsigned at, const uint32_t *mask)
{
    const unsigned s = at & 31u;
    const uint32_t *lo = words + (size_t)stride * (at >> 5), *hi = lo + stride;
    V4_EACH((float)(int32_t)(((lo[i] >> s) | ((hi[i] << 1) << (31u - s))) & mask[i]));
}
typedef struct window {
    const uint32_t *lo;
} window;
static inline window window_load(const uint32_t *words, unsigned at)
{
    const window w = { words + 4 * (size_t)(at >> 5) };
    return w;
}
static inline v4 window_extract(const window *w, unsigned shift, const uint32_t *mask)
{
    V4_EACH((float)(int32_t)((uint32_t)((((uint64_t)w->lo[4 + i] << 32) | w->lo[i]) >> shift) & mask[i]));
}
static inline v4 v4_load_aligned(const float *p) { return v4_load(p); }
#  undef V4_EACH
#endif

static float v4_get(v4 a, int lane)
{
    float x[4];
    v4_store(x, a);
    return x[lane];
}

/* x, y, z (and w) of a group's 4 lanes. */
typedef struct lanes4 {
    v4 c[4];
} lanes4;

/* A stored rotation whose |w| falls under this in a segment keeps w there: rebuilt from x, y and
 * z, a w near 0 takes the rounding of 1 - x^2 - y^2 - z^2 (1e-7) as its own square, an error of
 * a millimetre a metre away at |w| = 6e-4. */
#define W_STORED 0.1f

/* ---- sampling ---- */

/* 1 / (2^bits - 1): a quantized value's unit within its range (0 for no bits), in each of 4
 * lanes (16-byte aligned: a multiply takes it from memory). */
/* clang-format off */
#define LEVEL4(x) { x, x, x, x }
/* clang-format on */
static alignas(16) const float INVERSE_LEVELS[TDN__PACK_MAX_BITS + 1][LANES] = {
    LEVEL4(0.0f),
    LEVEL4(1.0f / 1.0f),
    LEVEL4(1.0f / 3.0f),
    LEVEL4(1.0f / 7.0f),
    LEVEL4(1.0f / 15.0f),
    LEVEL4(1.0f / 31.0f),
    LEVEL4(1.0f / 63.0f),
    LEVEL4(1.0f / 127.0f),
    LEVEL4(1.0f / 255.0f),
    LEVEL4(1.0f / 511.0f),
    LEVEL4(1.0f / 1023.0f),
    LEVEL4(1.0f / 2047.0f),
    LEVEL4(1.0f / 4095.0f),
    LEVEL4(1.0f / 8191.0f),
    LEVEL4(1.0f / 16383.0f),
    LEVEL4(1.0f / 32767.0f),
    LEVEL4(1.0f / 65535.0f),
    LEVEL4(1.0f / 131071.0f),
    LEVEL4(1.0f / 262143.0f),
    LEVEL4(1.0f / 524287.0f),
    LEVEL4(1.0f / 1048575.0f),
    LEVEL4(1.0f / 2097151.0f),
    LEVEL4(1.0f / 4194303.0f),
    LEVEL4(1.0f / 8388607.0f),
    LEVEL4(1.0f / 16777215.0f),
};

/* (1 << bits) - 1: a value's mask, in each of 4 lanes (aligned the same). */
#define LEVEL_MASK(b) LEVEL4((uint32_t)((1ull << (b)) - 1u))
static alignas(16) const uint32_t LEVEL_MASKS[TDN__PACK_MAX_BITS + 1][LANES] = {
    LEVEL_MASK(0),  LEVEL_MASK(1),  LEVEL_MASK(2),  LEVEL_MASK(3),  LEVEL_MASK(4),  LEVEL_MASK(5),  LEVEL_MASK(6),
    LEVEL_MASK(7),  LEVEL_MASK(8),  LEVEL_MASK(9),  LEVEL_MASK(10), LEVEL_MASK(11), LEVEL_MASK(12), LEVEL_MASK(13),
    LEVEL_MASK(14), LEVEL_MASK(15), LEVEL_MASK(16), LEVEL_MASK(17), LEVEL_MASK(18), LEVEL_MASK(19), LEVEL_MASK(20),
    LEVEL_MASK(21), LEVEL_MASK(22), LEVEL_MASK(23), LEVEL_MASK(24),
};
#undef LEVEL_MASK
#undef LEVEL4

/* A group's header in one segment, read where it is kept (a built clip's record, or a plan's
 * tdn__pack_header) without copying it: component c's range starts are the pitch bytes at
 * lo + c * pitch, its extents at extent + c * pitch. */
typedef struct header_view {
    const uint32_t *words; /* the group's interleaved streams in this segment */
    const uint8_t *lo, *extent;
    int pitch;
    int bits, components, step, shave;
} header_view;

/* A record of a group of `stride` lanes (its own, or LANES from a caller that knows it). */
static DECODE_INLINE header_view record_view_strided(const uint8_t *record, const tdn__pack_group *g, int stride,
                                                     const uint32_t *words)
{
    uint32_t word;
    memcpy(&word, record + 4, sizeof word);
    const uint8_t *lo = record + 8;
    const header_view h = { words + word, lo,        lo + (size_t)g->record_components * (size_t)stride,
                            stride,       record[0], record[1],
                            record[2],    record[3] };
    return h;
}

static DECODE_INLINE header_view record_view(const uint8_t *record, const tdn__pack_group *g, const uint32_t *words)
{
    return record_view_strided(record, g, g->stride, words);
}

static inline header_view header_view_of(const tdn__pack_header *h, const uint32_t *words)
{
    const header_view v = {
        words + h->word, h->range[0], h->range[4], LANES, h->bits, h->components, h->step, h->shave
    };
    return v;
}

static DECODE_INLINE int view_component_bits(const header_view *h, int c)
{
    const int b = h->bits - (h->shave >> (2 * c) & 3);
    return b > 0 ? b : 0;
}

/* The value of each lane's component c is offset[c] + scale[c] * q, q of bits[c] bits. */
typedef struct dequantizer {
    lanes4 offset, scale;
    alignas(16) uint32_t masks[4][LANES]; /* LEVEL_MASKS[bits[c]], kept where the decode reads */
    int bits[4];
    int frame_bits;
} dequantizer;

/* Component c's value in each lane is offset + scale * q for q of `bits` bits: the clip range's
 * start and step, narrowed to the segment's range from the header. */
static DECODE_INLINE void component_range(const tdn__pack_group *g, const header_view *h, int c, int bits, v4 *offset,
                                          v4 *scale)
{
    const v4 step = v4_load(g->step[c]);
    *offset = v4_add(v4_load(g->min[c]), v4_mul(step, v4_from_row(h->lo + (size_t)c * (size_t)h->pitch, h->pitch)));
    *scale = v4_mul(v4_mul(step, v4_from_row(h->extent + (size_t)c * (size_t)h->pitch, h->pitch)),
                    v4_load_aligned(INVERSE_LEVELS[bits]));
}

static DECODE_INLINE void dequantize_component(const tdn__pack_group *g, const header_view *h, int c, dequantizer *d)
{
    d->bits[c] = view_component_bits(h, c);
    component_range(g, h, c, d->bits[c], &d->offset.c[c], &d->scale.c[c]);
}

static DECODE_INLINE void dequantization(const tdn__pack_group *g, const header_view *h, dequantizer *d)
{
    for (int c = 0; c < 3; c++)
        dequantize_component(g, h, c, d);
    if (h->components == 4) {
        dequantize_component(g, h, 3, d);
    } else {
        d->bits[3] = 0;
        d->offset.c[3] = d->scale.c[3] = v4_set1(0.0f);
    }
    d->frame_bits = d->bits[0] + d->bits[1] + d->bits[2] + d->bits[3];
    for (int c = 0; c < 4; c++)
        memcpy(d->masks[c], LEVEL_MASKS[d->bits[c]], sizeof d->masks[c]);
}

/* The group's components of every lane at the segment's stored frame `index` (w 0 when it is
 * not stored). */
static DECODE_INLINE void decode(const header_view *h, int stride, const dequantizer *d, int index, lanes4 *out)
{
    unsigned at = (unsigned)(index * d->frame_bits);
    if (stride == LANES && d->frame_bits <= 33) { /* a frame in one 64-bit window of each lane */
        const window w = window_load(h->words, at);
        at &= 31u;
        for (int c = 0; c < 3; c++) {
            out->c[c] = v4_add(d->offset.c[c], v4_mul(d->scale.c[c], window_extract(&w, at, d->masks[c])));
            at += (unsigned)d->bits[c];
        }
        out->c[3] = h->components == 4
                        ? v4_add(d->offset.c[3], v4_mul(d->scale.c[3], window_extract(&w, at, d->masks[3])))
                        : v4_set1(0.0f);
        return;
    }
    for (int c = 0; c < 3; c++) {
        out->c[c] = v4_add(d->offset.c[c], v4_mul(d->scale.c[c], v4_extract_masked(h->words, stride, at, d->masks[c])));
        at += (unsigned)d->bits[c];
    }
    out->c[3] = h->components == 4 ? v4_add(d->offset.c[3],
                                            v4_mul(d->scale.c[3], v4_extract_masked(h->words, stride, at, d->masks[3])))
                                   : v4_set1(0.0f);
}

/* Component c of two stored frames from their quantized values q0 and q1 of `bits` bits. */
static DECODE_INLINE void dequantize_pair(const tdn__pack_group *g, const header_view *h, int c, int bits, v4 q0, v4 q1,
                                          lanes4 *v0, lanes4 *v1)
{
    v4 offset, scale;
    component_range(g, h, c, bits, &offset, &scale);
    v0->c[c] = v4_add(offset, v4_mul(scale, q0));
    v1->c[c] = v4_add(offset, v4_mul(scale, q1));
}

/* Two stored frames of a group of `lanes` lanes (LANES as a constant, or its stride) from its
 * header h, component by component (each component's dequantization serves both and is done
 * with: fewer values live at once than frame by frame); w only when `rotation` asks and h stores
 * it (left unset otherwise). A frame whose bits fit one 64-bit window from its first word is read
 * from one. */
static DECODE_INLINE void decode_record_pair(const tdn__pack_group *g, const header_view *h, int lanes, int rotation,
                                             int index0, int index1, lanes4 *v0, lanes4 *v1)
{
    const int top = h->bits, shave = h->shave, n = h->components;
    int bits[4] = { top - (shave & 3), top - (shave >> 2 & 3), top - (shave >> 4 & 3),
                    n == 4 ? top - (shave >> 6) : 0 };
    if (top < 3) /* only then may shaving go under 0 bits */
        for (int c = 0; c < 4; c++)
            bits[c] = bits[c] > 0 ? bits[c] : 0;
    const unsigned frame_bits = (unsigned)(bits[0] + bits[1] + bits[2] + bits[3]);
    unsigned at0 = (unsigned)index0 * frame_bits, at1 = (unsigned)index1 * frame_bits;
    const int components = rotation && n == 4 ? 4 : 3;
    if (lanes == LANES && (at0 & 31u) + frame_bits <= 64 && (at1 & 31u) + frame_bits <= 64) {
        const window w0 = window_load(h->words, at0), w1 = window_load(h->words, at1);
        at0 &= 31u, at1 &= 31u;
        for (int c = 0; c < components; c++) {
            const uint32_t *mask = LEVEL_MASKS[bits[c]];
            dequantize_pair(g, h, c, bits[c], window_extract(&w0, at0, mask), window_extract(&w1, at1, mask), v0, v1);
            at0 += (unsigned)bits[c], at1 += (unsigned)bits[c];
        }
        return;
    }
    for (int c = 0; c < components; c++) {
        const uint32_t *mask = LEVEL_MASKS[bits[c]];
        dequantize_pair(g, h, c, bits[c], v4_extract_masked(h->words, lanes, at0, mask),
                        v4_extract_masked(h->words, lanes, at1, mask), v0, v1);
        at0 += (unsigned)bits[c], at1 += (unsigned)bits[c];
    }
}

/* w >= 0 from x, y, z of a unit quaternion. */
static DECODE_INLINE void rebuild_w(lanes4 *v)
{
    const v4 d = v4_add(v4_add(v4_mul(v->c[0], v->c[0]), v4_mul(v->c[1], v->c[1])), v4_mul(v->c[2], v->c[2]));
    v->c[3] = v4_sqrt_positive(v4_sub(v4_set1(1.0f), d));
}

/* Lanes of rotations turning more than 60 degrees (|dot| under TDN__SLERP_DOT) take slerp's own
 * weights (slerp_time.h): a rare scalar path. */
static lanes4 slerp_wide_lanes(lanes4 v0, lanes4 v1, v4 dot, v4 t, unsigned lanes, lanes4 out)
{
    float d[4], at[4];
    v4_store(d, dot);
    v4_store(at, t);
    for (int i = 0; i < 4; i++)
        if ((lanes >> i & 1u) && fabsf(d[i]) < TDN__SLERP_DOT) {
            float w0, w1, q[4][4];
            tdn__slerp_weights(fabsf(d[i]), at[i], &w0, &w1);
            w1 = d[i] < 0.0f ? -w1 : w1;
            for (int k = 0; k < 4; k++) {
                v4_store(q[k], out.c[k]);
                q[k][i] = w0 * v4_get(v0.c[k], i) + w1 * v4_get(v1.c[k], i);
                out.c[k] = v4_load(q[k]);
            }
        }
    return out;
}

/* x0 moved toward x1 by t, written so that x0 = x1 gives x0 itself, the sign of a zero too (a
 * constant passes a cached sample's interpolation unchanged, as the uncached copy gives it). */
static DECODE_INLINE v4 lerp4(v4 x0, v4 x1, v4 t) { return v4_sub(x0, v4_mul(v4_sub(x0, x1), t)); }

/* Each lane's rotation at t between v0 and v1: nlerp the short way, re-timed to follow slerp
 * (slerp_time.h), not yet normalized; lanes turning wider than TDN__SLERP_DOT by slerp itself,
 * of the lanes whose bit is set in `lanes` (the others hold no rotation: padding, a constant).
 * The one rotation interpolation of both samplers, so that they give the same bits. */
static DECODE_INLINE void interpolate_rotations(const lanes4 *v0, const lanes4 *v1, v4 t, unsigned lanes, lanes4 *out)
{
    const v4 dot = v4_add(v4_add(v4_mul(v0->c[0], v1->c[0]), v4_mul(v0->c[1], v1->c[1])),
                          v4_add(v4_mul(v0->c[2], v1->c[2]), v4_mul(v0->c[3], v1->c[3])));
    const v4 e = v4_sub(v4_set1(1.0f), v4_min(v4_abs(dot), v4_set1(1.0f)));
    const v4 c = v4_mul(e, v4_add(v4_set1(0.6666667f), v4_mul(v4_set1(0.2f), e)));
    const v4 w = v4_add(t, v4_mul(c, v4_mul(v4_mul(t, v4_sub(t, v4_set1(0.5f))), v4_sub(t, v4_set1(1.0f)))));
    for (int q = 0; q < 4; q++)
        out->c[q] = lerp4(v0->c[q], v4_flip_where_negative(v1->c[q], dot), w);
    if (v4_lanes_under(v4_abs(dot), TDN__SLERP_DOT) & (int)lanes)
        *out = slerp_wide_lanes(*v0, *v1, dot, t, lanes, *out);
}

/* Where frame l + a of a segment lies for groups stored every `step` frames there: between
 * stored frames index0 and index1, the latter in the next segment when `next`, at t. */
typedef struct stored_pair {
    int index0, index1, next;
    float t;
} stored_pair;

static stored_pair stored_pair_at(int step, int frame_count, int s, int l, float a)
{
    static const float INVERSE_STEP[4] = { 1.0f, 0.5f, 0.25f, 0.125f };
    const int shift = tdn__pack_step_shift(step), i = l >> shift;
    stored_pair p = { i, i + 1, 0, ((float)(l - i * step) + a) * INVERSE_STEP[shift] }; /* exact: a power of 2 */
    if ((i + 1) * step >= tdn__pack_segment_frames(frame_count, s)) {
        if ((s + 1) * TDN__PACK_SEGMENT < frame_count)
            p.index1 = 0, p.next = 1;
        else
            p.index1 = i; /* a 1-frame clip has no next */
    }
    return p;
}

/* q = q' m per lane. */
static DECODE_INLINE void turn_by_mean(const tdn__pack_group *g, lanes4 *q)
{
    const v4 x = q->c[0], y = q->c[1], z = q->c[2], w = q->c[3];
    const v4 mx = v4_load(g->mean[0]), my = v4_load(g->mean[1]), mz = v4_load(g->mean[2]), mw = v4_load(g->mean[3]);
    q->c[0] = v4_sub(v4_add(v4_add(v4_mul(w, mx), v4_mul(x, mw)), v4_mul(y, mz)), v4_mul(z, my));
    q->c[1] = v4_add(v4_add(v4_sub(v4_mul(w, my), v4_mul(x, mz)), v4_mul(y, mw)), v4_mul(z, mx));
    q->c[2] = v4_add(v4_sub(v4_add(v4_mul(w, mz), v4_mul(x, my)), v4_mul(y, mx)), v4_mul(z, mw));
    q->c[3] = v4_sub(v4_sub(v4_sub(v4_mul(w, mw), v4_mul(x, mx)), v4_mul(y, my)), v4_mul(z, mz));
}

/* A decoded stored frame of a rotation group made a rotation: w rebuilt where it is not stored,
 * turned back by each lane's mean. */
static DECODE_INLINE void finish_rotations(const tdn__pack_group *g, const header_view *h, lanes4 *v)
{
    if (h->components == 3)
        rebuild_w(v);
    turn_by_mean(g, v);
}

/* The group's stored frames around a point, v0 and v1, as they are interpolated (rotations
 * finished), from its header h0 in the segment and `next` in the next one (read only when the
 * pair says so). */
static DECODE_INLINE void group_keys(const tdn__pack_group *g, int rotation, const header_view *h0,
                                     const header_view *next, const stored_pair *pair, lanes4 *v0, lanes4 *v1)
{
    const header_view *h1 = pair->next ? next : h0;
    if (h1 == h0) {
        decode_record_pair(g, h0, g->stride, rotation, pair->index0, pair->index1, v0, v1);
    } else { /* the next segment's first frame */
        dequantizer d;
        dequantization(g, h0, &d);
        decode(h0, g->stride, &d, pair->index0, v0);
        dequantization(g, h1, &d);
        decode(h1, g->stride, &d, pair->index1, v1);
    }
    if (rotation) {
        finish_rotations(g, h0, v0);
        finish_rotations(g, h1, v1);
    }
}

/* The group's lanes at t between its stored frames v0 and v1. */
static DECODE_INLINE void interpolate_group(const tdn__pack_group *g, int rotation, const lanes4 *v0, const lanes4 *v1,
                                            float t, lanes4 *out)
{
    const v4 w = v4_set1(t);
    if (rotation) {
        interpolate_rotations(v0, v1, w, (1u << g->stride) - 1u, out);
        return;
    }
    for (int c = 0; c < 3; c++)
        out->c[c] = lerp4(v0->c[c], v1->c[c], w);
}

/* The group's lanes at a point between stored frames (pairs[shift of h0's step]). */
static DECODE_INLINE void group_lanes(const tdn__pack_group *g, int rotation, const header_view *h0,
                                      const header_view *next, const stored_pair *pairs, lanes4 *out)
{
    const stored_pair *pair = &pairs[tdn__pack_step_shift(h0->step)];
    lanes4 v0, v1;
    group_keys(g, rotation, h0, next, pair, &v0, &v1);
    interpolate_group(g, rotation, &v0, &v1, pair->t, out);
}

void tdn__pack_record_read(const uint8_t *record, const tdn__pack_group *g, tdn__pack_header *h)
{
    if (g->stride < LANES) /* lanes past the stride are read and never stored: keep them defined */
        memset(h->range, 0, sizeof h->range);
    h->bits = record[0], h->components = record[1], h->step = record[2], h->shave = record[3];
    memcpy(&h->word, record + 4, sizeof h->word);
    const uint8_t *range = record + 8;
    for (int half = 0; half < 2; half++)
        for (int c = 0; c < g->record_components; c++, range += g->stride) {
            if (g->stride == LANES) /* the usual group: one 4-byte move a row */
                memcpy(h->range[4 * half + c], range, LANES);
            else
                memcpy(h->range[4 * half + c], range, (size_t)g->stride);
        }
}

static void record_write(const tdn__pack_header *h, const tdn__pack_group *g, uint8_t *record)
{
    record[0] = h->bits, record[1] = h->components, record[2] = h->step, record[3] = h->shave;
    memcpy(record + 4, &h->word, sizeof h->word);
    uint8_t *range = record + 8;
    for (int half = 0; half < 2; half++)
        for (int c = 0; c < g->record_components; c++)
            for (int i = 0; i < g->stride; i++)
                *range++ = h->range[4 * half + c][i];
}

/* Lane i of each component row to the row's place g->joint[i], for the group's `lanes` lanes
 * (LANES as a constant, or its stride). */
static DECODE_INLINE void store_group(const tdn__pack_group *g, int lanes, const lanes4 *v, int components, float *row0,
                                      size_t stride)
{
    if (lanes == LANES) {
        const int j0 = g->joint[0], j1 = g->joint[1], j2 = g->joint[2], j3 = g->joint[3];
        for (int c = 0; c < components; c++) {
            float *row = row0 + (size_t)c * stride;
            v4_store_lanes(v->c[c], row + j0, row + j1, row + j2, row + j3);
        }
        return;
    }
    for (int c = 0; c < components; c++) {
        float x[4], *row = row0 + (size_t)c * stride;
        v4_store(x, v->c[c]);
        for (int i = 0; i < lanes; i++)
            row[g->joint[i]] = x[i];
    }
}

/* store_group, only joints in [begin, end) when the group straddles the range. */
static DECODE_INLINE void store_lanes(const tdn__pack_group *g, const lanes4 *v, int components, float *row0,
                                      size_t stride, int begin, int end)
{
    if (g->stride == LANES && g->first_joint >= begin && g->last_joint < end) { /* the usual group */
        store_group(g, LANES, v, components, row0, stride);
        return;
    }
    for (int c = 0; c < components; c++) {
        float x[4], *row = row0 + (size_t)c * stride;
        v4_store(x, v->c[c]);
        for (int i = 0; i < g->stride; i++)
            if (g->joint[i] >= begin && g->joint[i] < end)
                row[g->joint[i]] = x[i];
    }
}

/* One group's lanes into the pose rows from row0 on, as far as joints [begin, end) go. */
static DECODE_INLINE void sample_group(const tdn__packed *packed, const tdn__pack_group *g, int rotation,
                                       const uint8_t *records, int last, int l, const stored_pair *pairs, float *row0,
                                       size_t stride, int begin, int end)
{
    const uint8_t *record = records + g->record_offset;
    const header_view h = record_view(record, g, packed->words);
    /* the next segment's record when this segment's last stored frame lerps to its first */
    header_view next;
    const int with_next = !last && l >= TDN__PACK_SEGMENT - h.step;
    if (with_next)
        next = record_view(record + packed->segment_record_bytes, g, packed->words);
    lanes4 v;
    group_lanes(g, rotation, &h, with_next ? &next : NULL, pairs, &v);
    store_lanes(g, &v, 3 + rotation, row0, stride, begin, end);
}

/* A group of a sample of every joint: no range to check, its stride `lanes` (LANES as a constant,
 * or its own). */
static DECODE_INLINE void sample_whole_group(const tdn__packed *packed, const tdn__pack_group *g, int rotation,
                                             int lanes, const uint8_t *record, const stored_pair *pairs, float *row0,
                                             size_t stride)
{
    const header_view h = record_view_strided(record, g, lanes, packed->words);
    const stored_pair *pair = &pairs[tdn__pack_step_shift(h.step)];
    lanes4 v0, v1, v;
    if (pair->next) {
        const header_view next = record_view_strided(record + packed->segment_record_bytes, g, lanes, packed->words);
        group_keys(g, rotation, &h, &next, pair, &v0, &v1);
    } else {
        decode_record_pair(g, &h, lanes, rotation, pair->index0, pair->index1, &v0, &v1);
        if (rotation) {
            finish_rotations(g, &h, &v0);
            finish_rotations(g, &h, &v1);
        }
    }
    const v4 t = v4_set1(pair->t);
    if (rotation) {
        interpolate_rotations(&v0, &v1, t, (1u << lanes) - 1u, &v);
    } else {
        for (int c = 0; c < 3; c++)
            v.c[c] = lerp4(v0.c[c], v1.c[c], t);
    }
    store_group(g, lanes, &v, 3 + rotation, row0, stride);
}

/* Groups [g, g_end) of one kind, rotations or not, of a sample of every joint, into the pose rows
 * from row0 on: each kind's loop a function apart, its registers its own. */
static DECODE_INLINE void sample_whole_run(const tdn__packed *packed, int rotation, const tdn__pack_group *g,
                                           const tdn__pack_group *g_end, const uint8_t *records,
                                           const stored_pair *pairs, float *row0, size_t stride)
{
    for (; g < g_end; g++) {
        const uint8_t *record = records + g->record_offset;
        if (g->stride == LANES)
            sample_whole_group(packed, g, rotation, LANES, record, pairs, row0, stride);
        else
            sample_whole_group(packed, g, rotation, g->stride, record, pairs, row0, stride);
    }
}

static DECODE_APART void sample_whole_rotations(const tdn__packed *packed, const tdn__pack_group *g,
                                                const tdn__pack_group *g_end, const uint8_t *records,
                                                const stored_pair *pairs, float *row0, size_t stride)
{
    sample_whole_run(packed, 1, g, g_end, records, pairs, row0, stride);
}

static DECODE_APART void sample_whole_vectors(const tdn__packed *packed, const tdn__pack_group *g,
                                              const tdn__pack_group *g_end, const uint8_t *records,
                                              const stored_pair *pairs, float *row0, size_t stride)
{
    sample_whole_run(packed, 0, g, g_end, records, pairs, row0, stride);
}

void tdn__packed_sample(const tdn__packed *packed, int f0, float a, tdn_pose *pose, int begin, int end, unsigned rows)
{
    const size_t stride = (size_t)pose->stride;
    const int s = f0 / TDN__PACK_SEGMENT, l = f0 - s * TDN__PACK_SEGMENT, last = s + 1 == packed->segment_count;
    const unsigned kind_rows[3] = { TDN__ROWS_T, TDN__ROWS_R, TDN__ROWS_S };
    const int first_row[3] = { TDN_TX, TDN_RX, TDN_SX };
    const uint8_t *records = packed->records + (size_t)s * packed->segment_record_bytes;
    stored_pair pairs[4];
    for (int k = 0; k < 4; k++)
        pairs[k] = stored_pair_at(1 << k, packed->frame_count, s, l, a);
    /* every joint of the clip's pose is under its stride: a sample of them all checks no group's
     * range */
    if (begin == 0 && end == pose->stride && rows == TDN__ROWS_ALL) {
        const tdn__pack_group *g_end = packed->groups + packed->group_count;
        for (const tdn__pack_group *run = packed->groups, *run_end; run < g_end; run = run_end) {
            const int kind = run->kind;
            for (run_end = run + 1; run_end < g_end && run_end->kind == kind; run_end++)
                continue;
            float *row0 = pose->data + (size_t)first_row[kind] * stride;
            if (kind == TDN__PACK_R)
                sample_whole_rotations(packed, run, run_end, records, pairs, row0, stride);
            else
                sample_whole_vectors(packed, run, run_end, records, pairs, row0, stride);
        }
        return;
    }
    for (int gi = 0; gi < packed->group_count; gi++) {
        const tdn__pack_group *g = &packed->groups[gi];
        if (g->last_joint < begin || g->first_joint >= end || !(rows & kind_rows[g->kind]))
            continue;
        float *row0 = pose->data + (size_t)first_row[g->kind] * stride;
        if (g->kind == TDN__PACK_R)
            sample_group(packed, g, 1, records, last, l, pairs, row0, stride, begin, end);
        else
            sample_group(packed, g, 0, records, last, l, pairs, row0, stride, begin, end);
    }
}

/* ---- sampling through a cache ---- */

/* A group's stored frame n (its clip frame >> the shift of its step) is cached in cache frame
 * n & 1, so that a stored frame on overwrites the frame before its k0 and nothing moves: k0 and
 * k1 are always in different frames (a segment's first frame, where steps may change, is in
 * frame 0 for every step), except in a 1-frame clip, whose one frame is in both. */

static const unsigned KIND_ROWS[3] = { TDN__ROWS_T, TDN__ROWS_R, TDN__ROWS_S };
static const int KIND_FIRST_ROW[3] = { TDN_TX, TDN_RX, TDN_SX };

/* A group's part of a cache: the clip frames of its cached stored frames k0 and k1 (-1: none),
 * the shift of its step in k0's segment (which times its interpolation), and what decoding the
 * frames after k1 in k1's segment takes: that segment's streams, components, step shift and
 * dequantization, so that a sample a stored frame on reads no header record. */
typedef struct tdn__cached_group {
    dequantizer dequantizer;
    const uint32_t *words;
    int32_t key0, key1;
    int32_t segment; /* k1's, -1: none */
    int32_t components, shift;
    int32_t k0_shift;
} cached_group;

static int cache_frame_of(int32_t frame, int shift) { return (frame >> shift) & 1; }

/* The clip frames of a pair's stored frames in segment s, stepping by 1 << shift there. */
static int32_t pair_k0(const stored_pair *p, int s, int shift) { return s * TDN__PACK_SEGMENT + (p->index0 << shift); }
static int32_t pair_k1(const stored_pair *p, int s, int shift)
{
    return p->next ? (s + 1) * TDN__PACK_SEGMENT : s * TDN__PACK_SEGMENT + (p->index1 << shift);
}

size_t tdn__packed_cache_layout(const tdn__packed *packed, size_t stride, void *memory, tdn__packed_cache *cache)
{
    const size_t groups = (size_t)packed->group_count;
    const size_t key_bytes = tdn__align_up((size_t)TDN_POSE_ROWS * stride * sizeof(float), 32);
    const size_t group_bytes = tdn__align_up(groups * sizeof(cached_group), 32);
    const size_t shift_bytes = tdn__align_up(3 * stride + 3 * (stride / 4), 32);
    const size_t row_bytes = tdn__align_up(3 * stride * sizeof(float), 32);
    const size_t list_bytes = tdn__align_up(groups * sizeof(int32_t), 32);
    if (memory) {
        char *at = memory;
        cache->keys[0] = (float *)(void *)at;
        cache->keys[1] = (float *)(void *)(at + key_bytes);
        cache->stride = stride;
        cache->groups = (cached_group *)(void *)(at + 2 * key_bytes);
        cache->joint_shift = (uint8_t *)(at + 2 * key_bytes + group_bytes);
        cache->packed_blocks = cache->joint_shift + 3 * stride;
        cache->t = (float *)(void *)(at + 2 * key_bytes + group_bytes + shift_bytes);
        cache->swap = (uint32_t *)(void *)(at + 2 * key_bytes + group_bytes + shift_bytes + row_bytes);
        cache->kind_groups = (int32_t *)(void *)(at + 2 * key_bytes + group_bytes + shift_bytes + 2 * row_bytes);
        int listed = 0;
        for (int kind = 0; kind < 3; kind++) {
            for (int g = 0; g < packed->group_count; g++)
                if (packed->groups[g].kind == kind)
                    cache->kind_groups[listed++] = g;
            cache->kind_groups_end[kind] = listed;
        }
        for (size_t g = 0; g < groups; g++) {
            const tdn__pack_group *pg = &packed->groups[g];
            cache->groups[g].key0 = cache->groups[g].key1 = cache->groups[g].segment = -1;
            for (int i = 0; i < pg->stride; i++)
                cache->packed_blocks[(size_t)pg->kind * (stride / 4) + (size_t)pg->joint[i] / 4] |=
                    (uint8_t)(1u << (pg->joint[i] % 4));
        }
        cache->kind_shifts[0] = cache->kind_shifts[1] = cache->kind_shifts[2] = 0;
        cache->whole_at = cache->last_frame = -1;
        for (int kind = 0; kind < 3; kind++)
            cache->kinds[kind].segment = -1;
    }
    return 2 * key_bytes + group_bytes + shift_bytes + 2 * row_bytes + list_bytes;
}

/* The group's lanes into cache frame k's rows (`rotation`: its kind is TDN__PACK_R). */
static DECODE_INLINE void cache_lanes(const tdn__packed_cache *cache, const tdn__pack_group *g, int rotation, int k,
                                      const lanes4 *v)
{
    store_lanes(g, v, rotation ? 4 : 3, cache->keys[k] + (size_t)KIND_FIRST_ROW[g->kind] * cache->stride, cache->stride,
                0, INT_MAX);
}

/* What decoding the group's stored frames of segment `segment` (header h) takes, kept. */
static void keep_segment(const tdn__pack_group *g, cached_group *cg, const header_view *h, int segment)
{
    if (cg->segment != segment)
        dequantization(g, h, &cg->dequantizer);
    cg->segment = segment;
    cg->words = h->words;
    cg->components = h->components;
    cg->shift = tdn__pack_step_shift(h->step);
}

/* Stored frame `index` of k1's segment, decoded through what the group keeps of it (`rotation`:
 * the group's kind is TDN__PACK_R, a constant where it can be, so that each kind gets its own
 * straight code). */
static DECODE_INLINE void decode_kept(const tdn__pack_group *g, int rotation, const cached_group *cg, int index,
                                      lanes4 *v)
{
    const header_view h = { cg->words, NULL, NULL, 0, 0, rotation ? cg->components : 3, 0, 0 };
    if (g->stride == LANES) /* the usual group: its words' stride a constant */
        decode(&h, LANES, &cg->dequantizer, index, v);
    else
        decode(&h, g->stride, &cg->dequantizer, index, v);
    if (rotation)
        finish_rotations(g, &h, v);
}

/* The group's k0 and k1 are now those: its interpolation's step kept up (per joint, and whether
 * each kind's steps are still known). */
static DECODE_INLINE void note_keys(tdn__packed_cache *cache, const tdn__pack_group *g, cached_group *cg, int32_t k0,
                                    int32_t k1, int k0_shift)
{
    if (cg->key0 < 0 || cg->k0_shift != k0_shift) {
        cache->shifts_known = 0;
        cg->k0_shift = k0_shift;
        for (int i = 0; i < g->stride; i++)
            cache->joint_shift[(size_t)g->kind * cache->stride + (size_t)g->joint[i]] = (uint8_t)k0_shift;
    }
    cg->key0 = k0;
    cg->key1 = k1;
}

/* Group gi's stored frames around a point of segment s into the cache by its header records,
 * unless they are there: 1 when they were not. */
static DECODE_APART int cache_group_by_records(const tdn__packed *packed, tdn__packed_cache *cache, int gi, int s,
                                               const stored_pair *pairs)
{
    const tdn__pack_group *g = &packed->groups[gi];
    cached_group *cg = &cache->groups[gi];
    const uint8_t *record = packed->records + (size_t)s * packed->segment_record_bytes + g->record_offset;
    const int shift = tdn__pack_step_shift(record[2]), rotation = g->kind == TDN__PACK_R;
    const stored_pair *pair = &pairs[shift];
    const int32_t k0 = pair_k0(pair, s, shift), k1 = pair_k1(pair, s, shift);
    if (cg->key0 == k0)
        return 0;
    const header_view h1 = record_view(record + (size_t)pair->next * packed->segment_record_bytes, g, packed->words);
    const int k0_frame = cache_frame_of(k0, shift), k1_frame = k0_frame ^ (k1 != k0);
    lanes4 v0, v1;
    if (cg->key1 == k0 && k1 != k0) { /* a stored frame on: k0 is cached already */
        keep_segment(g, cg, &h1, s + pair->next);
        decode_kept(g, rotation, cg, pair->index1, &v1);
    } else {
        const header_view h0 = record_view(record, g, packed->words);
        group_keys(g, rotation, &h0, &h1, pair, &v0, &v1);
        cache_lanes(cache, g, rotation, k0_frame, &v0);
        if (k1 == k0) /* a clip of one frame: the other cache frame holds it too */
            cache_lanes(cache, g, rotation, k0_frame ^ 1, &v0);
        keep_segment(g, cg, &h1, s + pair->next);
    }
    cache_lanes(cache, g, rotation, k1_frame, &v1);
    note_keys(cache, g, cg, k0, k1, shift);
    return 1;
}

/* The group's stored frame `index` of k1's segment, the clip's frame k1, decoded into the cache
 * after its k0 (already there). */
static DECODE_INLINE void next_key_of(int rotation, const tdn__pack_group *g, tdn__packed_cache *cache,
                                      cached_group *cg, int32_t k0, int32_t k1, int index)
{
    lanes4 v1;
    decode_kept(g, rotation, cg, index, &v1);
    cache_lanes(cache, g, rotation, cache_frame_of(k1, cg->shift), &v1);
    note_keys(cache, g, cg, k0, k1, cg->shift);
}

/* Per step shift, the stored frames around a point of segment s for a group stepping by 1 << shift
 * there: k0's clip frame, and k1's stored frame (index1, clip frame k1) when it is the next one
 * of s (index1 -1: the pair reaches the next segment, or a 1-frame clip's one frame). */
typedef struct steps_keys {
    int32_t k0[4], k1[4];
    int index1[4];
} steps_keys;

static steps_keys steps_keys_of(const stored_pair *pairs, int s)
{
    steps_keys sk;
    for (int shift = 0; shift < 4; shift++) {
        const stored_pair *pair = &pairs[shift];
        sk.k0[shift] = pair_k0(pair, s, shift);
        sk.k1[shift] = pair_k1(pair, s, shift);
        sk.index1[shift] = pair->next || pair->index1 == pair->index0 ? -1 : pair->index1;
    }
    return sk;
}

/* Whether all the groups of a kind cache the same stored frames of one segment, at one step
 * that k0's segment shares (noted in cache->kinds[kind], for cache_kind's straight path). */
static void note_kind(tdn__packed_cache *cache, int kind, const int32_t *list, const int32_t *list_end)
{
    struct tdn__cached_kind *ck = &cache->kinds[kind];
    ck->segment = -1;
    if (list == list_end)
        return;
    const cached_group *first = &cache->groups[*list];
    for (; list < list_end; list++) {
        const cached_group *cg = &cache->groups[*list];
        if (cg->segment != first->segment || cg->shift != first->shift || cg->k0_shift != first->shift ||
            cg->key0 != first->key0 || cg->key1 != first->key1)
            return;
    }
    ck->segment = first->segment;
    ck->shift = first->shift;
    ck->key0 = first->key0;
    ck->key1 = first->key1;
}

/* The stored frames around a point of segment s into the cache for one kind's groups (`rotation`:
 * the kind is TDN__PACK_R) of joints [begin, end), where they are not there: 1 when some were
 * not. Playing forward, a group's k1 is mostly in s already and the new k0 is the old k1: then
 * only the next stored frame is decoded, through what the group keeps of s; when every group of
 * the kind is so (cache->kinds), without looking at each group's keys. */
static DECODE_INLINE int cache_kind(const tdn__packed *packed, tdn__packed_cache *cache, int rotation, int kind, int s,
                                    const stored_pair *pairs, const steps_keys *sk, int begin, int end)
{
    const int32_t *list = cache->kind_groups, *list_end = cache->kind_groups + cache->kind_groups_end[kind];
    if (kind > 0)
        list += cache->kind_groups_end[kind - 1];
    struct tdn__cached_kind *ck = &cache->kinds[kind];
    if (ck->segment == s && begin == 0 && end >= (int)cache->stride) {
        const int shift = ck->shift;
        const int32_t k0 = sk->k0[shift], k1 = sk->k1[shift];
        if (ck->key0 == k0)
            return 0;
        const int index = sk->index1[shift];
        if (ck->key1 == k0 && index >= 0) {
            const size_t row = (size_t)KIND_FIRST_ROW[kind] * cache->stride;
            float *const frame = cache->keys[cache_frame_of(k1, shift)] + row;
            for (; list < list_end; list++) {
                const tdn__pack_group *g = &packed->groups[*list];
                cached_group *cg = &cache->groups[*list];
                lanes4 v;
                decode_kept(g, rotation, cg, index, &v);
                if (g->stride == LANES)
                    store_group(g, LANES, &v, 3 + rotation, frame, cache->stride);
                else
                    store_group(g, g->stride, &v, 3 + rotation, frame, cache->stride);
                cg->key0 = k0;
                cg->key1 = k1;
            }
            ck->key0 = k0;
            ck->key1 = k1;
            return 1;
        }
    }
    int missed = 0;
    for (const int32_t *at = list; at < list_end; at++) {
        const int gi = *at;
        const tdn__pack_group *g = &packed->groups[gi];
        if (g->last_joint < begin || g->first_joint >= end)
            continue;
        cached_group *cg = &cache->groups[gi];
        if (cg->segment == s) {
            const int shift = cg->shift;
            const int32_t k0 = sk->k0[shift];
            if (cg->key0 == k0)
                continue;
            if (cg->key1 == k0 && sk->index1[shift] >= 0) {
                next_key_of(rotation, g, cache, cg, k0, sk->k1[shift], sk->index1[shift]);
                missed = 1;
                continue;
            }
        }
        missed |= cache_group_by_records(packed, cache, gi, s, pairs);
    }
    if (missed)
        note_kind(cache, kind, list, list_end);
    return missed;
}

/* cache_kind for rotations, and for translations or scales, each apart from the sampler's
 * interpolation (which then keeps its own registers). */
static DECODE_APART int cache_rotations(const tdn__packed *packed, tdn__packed_cache *cache, int s,
                                        const stored_pair *pairs, const steps_keys *sk, int begin, int end)
{
    return cache_kind(packed, cache, 1, TDN__PACK_R, s, pairs, sk, begin, end);
}
static DECODE_APART int cache_vectors(const tdn__packed *packed, tdn__packed_cache *cache, int kind, int s,
                                      const stored_pair *pairs, const steps_keys *sk, int begin, int end)
{
    return cache_kind(packed, cache, 0, kind, s, pairs, sk, begin, end);
}

/* How a kind's joints find their stored frames: all in the same cache frames at one t, or (when
 * its groups mix steps) each at its own t in cache->t, swapping the frames where cache->swap
 * is set. */
typedef struct kind_keys {
    const float *k0, *k1; /* the kind's first row in the cache frames of k0 and k1 */
    float t;
    const float *joint_t;
    const uint32_t *swap;
} kind_keys;

/* Where a kind's k0 is cached when its groups step by 1 << shift. */
static int k0_cache_frame(const stored_pair *pairs, int s, int shift)
{
    return cache_frame_of(pair_k0(&pairs[shift], s, shift), shift);
}

/* x where the mask's lanes are clear, y where they are set. */
static DECODE_INLINE v4 v4_select(v4 x, v4 y, const uint32_t *mask)
{
#if !defined(TENDON_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
    const __m128 m = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(const void *)mask));
    return _mm_or_ps(_mm_andnot_ps(m, x), _mm_and_ps(m, y));
#else
    v4 r;
    for (int i = 0; i < 4; i++)
        r.x[i] = mask[i] ? y.x[i] : x.x[i];
    return r;
#endif
}

/* Joint j's 4 lanes of component row c of k0 and k1 (`swapping`: kk->swap set, a constant at
 * each call). */
static DECODE_INLINE void key_lanes(const kind_keys *kk, int swapping, size_t stride, int c, int j, v4 *a, v4 *b)
{
    const size_t at = (size_t)c * stride + (size_t)j;
    const v4 x = v4_load(kk->k0 + at), y = v4_load(kk->k1 + at);
    if (!swapping) {
        *a = x, *b = y;
        return;
    }
    *a = v4_select(x, y, kk->swap + j);
    *b = v4_select(y, x, kk->swap + j);
}

/* Lane i of the mask set where bit i of the index is. */
static const uint32_t LANE_MASKS[16][4] = {
    { 0, 0, 0, 0 },     { ~0u, 0, 0, 0 },     { 0, ~0u, 0, 0 },     { ~0u, ~0u, 0, 0 },
    { 0, 0, ~0u, 0 },   { ~0u, 0, ~0u, 0 },   { 0, ~0u, ~0u, 0 },   { ~0u, ~0u, ~0u, 0 },
    { 0, 0, 0, ~0u },   { ~0u, 0, 0, ~0u },   { 0, ~0u, 0, ~0u },   { ~0u, ~0u, 0, ~0u },
    { 0, 0, ~0u, ~0u }, { ~0u, 0, ~0u, ~0u }, { 0, ~0u, ~0u, ~0u }, { ~0u, ~0u, ~0u, ~0u },
};

/* Joints [j, j + 4) of a kind's rows from the cache into `out` (its first row, rows `out_stride`
 * apart): the lanes set in `lanes` (packed) interpolated, the others (constants, and the places
 * of held components, which the held values overwrite after) copied from k0, as the uncached
 * sample leaves them. */
/* Each lane's rotation made unit length, by the arithmetic of the sampler's own pass over the
 * pose (clip.c), so that the bits are the same either way. */
static DECODE_INLINE void normalize_lanes(lanes4 *q)
{
    const v4 d = v4_add(v4_add(v4_add(v4_mul(q->c[0], q->c[0]), v4_mul(q->c[1], q->c[1])), v4_mul(q->c[2], q->c[2])),
                        v4_mul(q->c[3], q->c[3]));
    const v4 inverse = v4_inverse_sqrt(d);
    for (int c = 0; c < 4; c++)
        q->c[c] = v4_mul(q->c[c], inverse);
}

/* `normalize`: the block's rotations leave unit length (the lanes stored are joints of the
 * clip, none padding). */
static DECODE_INLINE void interpolate_block(const kind_keys *kk, int rotation, int swapping, unsigned lanes, v4 w,
                                            int normalize, size_t stride, int j, float *out, size_t out_stride)
{
    const int components = rotation ? 4 : 3;
    lanes4 v0, v1, q;
    for (int c = 0; c < components; c++)
        key_lanes(kk, swapping, stride, c, j, &v0.c[c], &v1.c[c]);
    if (rotation)
        interpolate_rotations(&v0, &v1, w, lanes, &q);
    else
        for (int c = 0; c < 3; c++)
            q.c[c] = lerp4(v0.c[c], v1.c[c], w);
    if (lanes != 15u) /* a block with lanes no group decodes: they keep k0 */
        for (int c = 0; c < components; c++)
            q.c[c] = v4_select(v0.c[c], q.c[c], LANE_MASKS[lanes]);
    if (rotation && normalize)
        normalize_lanes(&q);
    for (int c = 0; c < components; c++)
        v4_store(out + (size_t)c * out_stride, q.c[c]);
}

/* One kind's rows of joints [begin, limit) interpolated from the cache into the pose: whole
 * blocks of 4 in place, a last partial one through a scratch block; rotations normalized in the
 * blocks under `normalize_end`. Returns where that stopped. The keys are copied so that
 * the pose's stores cannot change them (its t is a float). */
static DECODE_INLINE size_t interpolate_kind(const tdn__packed_cache *cache, int rotation, int swapping,
                                             const kind_keys *keys, const uint8_t *packed_blocks, float *out, int begin,
                                             int limit, int normalize_end)
{
    const kind_keys kk = *keys;
    const size_t stride = cache->stride;
    const v4 t = v4_set1(kk.t); /* every joint's, unless the kind mixes steps (then it swaps too) */
    size_t j = (size_t)begin, normalized = j;
    for (; j + 4 <= (size_t)limit; j += 4) {
        const unsigned lanes = packed_blocks[j / 4];
        const int normalize = j + 4 <= (size_t)normalize_end;
        normalized = normalize ? j + 4 : normalized;
        if (lanes) {
            const v4 w = swapping ? v4_load(kk.joint_t + j) : t;
            interpolate_block(&kk, rotation, swapping, lanes, w, normalize, stride, (int)j, out + j, stride);
            continue;
        }
        lanes4 q; /* constants only: both cache frames hold them */
        for (int c = 0; c < 3 + rotation; c++)
            q.c[c] = v4_load(kk.k0 + (size_t)c * stride + j);
        if (rotation && normalize)
            normalize_lanes(&q);
        for (int c = 0; c < 3 + rotation; c++)
            v4_store(out + (size_t)c * stride + j, q.c[c]);
    }
    if (j < (size_t)limit) {
        float block[4][4];
        const v4 w = swapping ? v4_load(kk.joint_t + j) : t;
        /* the lanes past `limit` are normalized in the scratch block alone */
        const int normalize = (size_t)limit <= (size_t)normalize_end;
        interpolate_block(&kk, rotation, swapping, packed_blocks[j / 4], w, normalize, stride, (int)j, block[0], 4);
        if (normalize)
            normalized = (size_t)limit;
        const size_t left = (size_t)limit - j;
        for (int c = 0; c < 3 + rotation; c++) {
            float *row = out + (size_t)c * stride + j;
            row[0] = block[c][0]; /* 1 to 3 lanes, without a call to memcpy */
            if (left > 1)
                row[1] = block[c][1];
            if (left > 2)
                row[2] = block[c][2];
        }
    }
    return normalized;
}

/* Returns where the rotations' normalization stopped (begin for the other kinds). */
static DECODE_INLINE size_t interpolate_rows(const tdn__packed_cache *cache, int kind, const kind_keys *kk,
                                             tdn_pose *pose, int begin, int limit, int normalize_end)
{
    float *out = pose->data + (size_t)KIND_FIRST_ROW[kind] * cache->stride;
    const uint8_t *blocks = cache->packed_blocks + (size_t)kind * (cache->stride / 4);
    if (kind == TDN__PACK_R && kk->swap)
        return interpolate_kind(cache, 1, 1, kk, blocks, out, begin, limit, normalize_end);
    if (kind == TDN__PACK_R)
        return interpolate_kind(cache, 1, 0, kk, blocks, out, begin, limit, normalize_end);
    if (kk->swap)
        interpolate_kind(cache, 0, 1, kk, blocks, out, begin, limit, begin);
    else
        interpolate_kind(cache, 0, 0, kk, blocks, out, begin, limit, begin);
    return (size_t)begin;
}

int tdn__packed_sample_cached(const tdn__packed *packed, tdn__packed_cache *cache, int f0, float a, tdn_pose *pose,
                              int begin, int end, int limit, int normalize_end, unsigned rows)
{
    const int s = f0 / TDN__PACK_SEGMENT, l = f0 - s * TDN__PACK_SEGMENT;
    stored_pair pairs[4];
    for (int k = 0; k < 4; k++)
        pairs[k] = stored_pair_at(1 << k, packed->frame_count, s, l, a);
    int missed = 0;
    if (f0 != cache->whole_at) {
        const steps_keys sk = steps_keys_of(pairs, s);
        if (rows & TDN__ROWS_T)
            missed |= cache_vectors(packed, cache, TDN__PACK_T, s, pairs, &sk, begin, end);
        if (rows & TDN__ROWS_R)
            missed |= cache_rotations(packed, cache, s, pairs, &sk, begin, end);
        if (rows & TDN__ROWS_S)
            missed |= cache_vectors(packed, cache, TDN__PACK_S, s, pairs, &sk, begin, end);
    }
    /* after a whole sample every group caches the stored frames around f0, until a part of one
     * samples elsewhere */
    if (begin == 0 && end == (int)cache->stride && rows == TDN__ROWS_ALL)
        cache->whole_at = f0;
    else if (missed)
        cache->whole_at = -1;
    if (missed && !cache->shifts_known) {
        cache->kind_shifts[0] = cache->kind_shifts[1] = cache->kind_shifts[2] = 0;
        for (int gi = 0; gi < packed->group_count; gi++)
            if (cache->groups[gi].key0 >= 0)
                cache->kind_shifts[packed->groups[gi].kind] |= 1u << cache->groups[gi].k0_shift;
        cache->shifts_known = 1;
    }
    int normalized_end = begin;
    for (int kind = 0; kind < 3; kind++) {
        if (!(rows & KIND_ROWS[kind]))
            continue;
        const size_t row = (size_t)KIND_FIRST_ROW[kind] * cache->stride;
        const unsigned shifts = cache->kind_shifts[kind];
        kind_keys kk = { cache->keys[0] + row, cache->keys[1] + row, 0.0f, NULL, NULL };
        if (shifts & (shifts - 1)) { /* groups of several steps */
            float *t = cache->t + (size_t)kind * cache->stride;
            uint32_t *swap = cache->swap + (size_t)kind * cache->stride;
            const uint8_t *joint_shift = cache->joint_shift + (size_t)kind * cache->stride;
            for (int j = begin; j < limit; j++) {
                t[j] = pairs[joint_shift[j]].t;
                swap[j] = k0_cache_frame(pairs, s, joint_shift[j]) ? ~0u : 0u;
            }
            kk.joint_t = t;
            kk.swap = swap;
        } else {
            int shift = 0;
            while (shift < 3 && !(shifts >> shift & 1u))
                shift++;
            kk.t = pairs[shift].t;
            if (k0_cache_frame(pairs, s, shift)) {
                kk.k0 = cache->keys[1] + row;
                kk.k1 = cache->keys[0] + row;
            }
        }
        const size_t normalized = interpolate_rows(cache, kind, &kk, pose, begin, limit, normalize_end);
        if (kind == TDN__PACK_R)
            normalized_end = (int)normalized;
    }
    return normalized_end;
}

/* ---- planning ---- */

/* A slot holds one group's streams of one segment while it is planned: the most it can take. */
#define SLOT_WORDS ((size_t)LANES * ((TDN__PACK_SEGMENT * 4 * TDN__PACK_MAX_BITS + 31) / 32))
static const int STEPS[] = { 1, 2, 4, 8 }; /* tdn__packed_sample counts on at most 8 */
#define MAX_POINTS (2 * TDN__PACK_SEGMENT)

/* Everything the plan works with besides the plan itself, in one allocation. */
typedef struct planner {
    const tdn__pack_source *src;
    tdn__pack_plan *plan;
    int J, F;
    int *lane_of; /* per kind * J + joint: group * LANES + lane, -1 when not packed */
    int *order;   /* J: a kind's packed joints, by the bits they ask for */
    float *need;  /* J: those bits */
    float *track; /* per group, lane and frame: the 4 stored components */
    /* The streams of the segment being planned and of the next one (already planned), a slot per
     * group each, which the headers' words point into while planning. */
    uint32_t *slots;
    /* The segment's check points: its frames and (without an additive reference) the midpoints
     * after them, the last one's reaching the next segment's first frame: their absolute local
     * poses (a midpoint's lerped as a float32 clip shows it) and model space. */
    int point_count;
    float threshold; /* the segment's */
    tdn_pose exact[MAX_POINTS];
    tdn_pose trial;
    tdn_mat4 *exact_model; /* MAX_POINTS of J */
    tdn_mat4 *trial_model;
} planner;

/* Joint j's transform in a frame of values laid out as tdn__pack_source.values. */
static tdn_transform frame_transform(const float *frame, int J, int j)
{
    tdn_transform x;
    x.t = tdn_vec3_make(frame[TDN_TX * J + j], frame[TDN_TY * J + j], frame[TDN_TZ * J + j]);
    x.r = tdn_quat_make(frame[TDN_RX * J + j], frame[TDN_RY * J + j], frame[TDN_RZ * J + j], frame[TDN_RW * J + j]);
    x.s = tdn_vec3_make(frame[TDN_SX * J + j], frame[TDN_SY * J + j], frame[TDN_SZ * J + j]);
    return x;
}

static const float *frame_values(const float *values, int J, int f)
{
    return values + (size_t)f * TDN_POSE_ROWS * (size_t)J;
}

static tdn_quat lane_mean(const tdn__pack_group *g, int lane)
{
    return tdn_quat_make(g->mean[0][lane], g->mean[1][lane], g->mean[2][lane], g->mean[3][lane]);
}

/* A lane's stored components at frame f: x y z of a translation or scale; x y z w of a rotation's
 * turn from the lane's mean, q m^-1, stored with 3 turned to w >= 0. */
static void track_components(const tdn__pack_source *src, const tdn__pack_group *g, int lane, int f, int components,
                             float out[4])
{
    const int J = src->joint_count, j = g->joint[lane];
    const tdn_transform x = frame_transform(frame_values(src->values, J, f), J, j);
    if (g->kind != TDN__PACK_R) {
        const tdn_vec3 v = g->kind == TDN__PACK_T ? x.t : x.s;
        out[0] = v.x, out[1] = v.y, out[2] = v.z, out[3] = 0.0f;
        return;
    }
    const tdn_quat q = tdn_quat_mul(x.r, tdn_quat_conjugate(lane_mean(g, lane)));
    const float flip = components == 3 && q.w < 0.0f ? -1.0f : 1.0f;
    out[0] = flip * q.x, out[1] = flip * q.y, out[2] = flip * q.z, out[3] = flip * q.w;
}

/* Each rotation lane's mean: the normalized sum of its sign-continuous rotations (the first
 * frame's when they sum to nothing). */
static void lane_means(const tdn__pack_source *src, tdn__pack_group *g)
{
    const int J = src->joint_count;
    for (int i = 0; i < LANES; i++) {
        double sum[4] = { 0, 0, 0, 0 };
        for (int f = 0; f < src->frame_count && g->kind == TDN__PACK_R && (i < g->stride); f++) {
            const float *v = frame_values(src->values, J, f);
            for (int c = 0; c < 4; c++)
                sum[c] += v[(TDN_RX + c) * J + g->joint[i]];
        }
        const double len = sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2] + sum[3] * sum[3]);
        tdn_quat m = tdn_quat_identity();
        if (len > 1e-6 * src->frame_count)
            m = tdn_quat_normalize(tdn_quat_make((float)sum[0], (float)sum[1], (float)sum[2], (float)sum[3]));
        else if (g->kind == TDN__PACK_R && (i < g->stride))
            m = frame_transform(frame_values(src->values, J, 0), J, g->joint[i]).r;
        g->mean[0][i] = m.x, g->mean[1][i] = m.y, g->mean[2][i] = m.z, g->mean[3][i] = m.w;
    }
}

/* A difference d applied to the reference r (D * R, as tdn_additive_apply at weight 1). */
static tdn_transform applied(const tdn_transform *d, const tdn_transform *r)
{
    tdn_transform a;
    a.t = tdn_vec3_add(r->t, d->t);
    a.r = tdn_quat_mul(d->r, r->r);
    a.s = tdn_vec3_mul(r->s, d->s);
    return a;
}

/* Frame f's local values (differences for an additive clip) into `pose`. */
static void frame_pose(const tdn__pack_source *src, int f, tdn_pose *pose)
{
    const int J = src->joint_count;
    const float *v = frame_values(src->values, J, f);
    for (int r = 0; r < TDN_POSE_ROWS; r++)
        memcpy(tdn_pose_row(pose, r), v + (size_t)r * (size_t)J, sizeof(float) * (size_t)J);
}

/* An additive clip's differences of joints [begin, end) in `pose` applied to frame f's
 * reference, in place (nothing for a plain clip). */
static void apply_reference(const tdn__pack_source *src, int f, tdn_pose *pose, int begin, int end)
{
    const int J = src->joint_count;
    for (int j = begin; j < end && src->reference; j++) {
        const tdn_transform d = tdn_pose_get(pose, j), r = frame_transform(frame_values(src->reference, J, f), J, j);
        const tdn_transform a = applied(&d, &r);
        tdn_pose_set(pose, j, &a);
    }
}

/* Frame f's absolute local pose into `pose`. */
static void exact_pose(const tdn__pack_source *src, int f, tdn_pose *pose)
{
    frame_pose(src, f, pose);
    apply_reference(src, f, pose, 0, src->joint_count);
}

/* Lane `lane` of group g in `pose` set from its sampled lanes v (a rotation's 4, already turned
 * back by the mean), in the clip's own terms (differences for an additive clip). */
static void set_lane(tdn_pose *pose, const tdn__pack_group *g, int lane, const lanes4 *v)
{
    const int j = g->joint[lane];
    tdn_transform d = tdn_pose_get(pose, j);
    const tdn_vec3 x = tdn_vec3_make(v4_get(v->c[0], lane), v4_get(v->c[1], lane), v4_get(v->c[2], lane));
    if (g->kind == TDN__PACK_T)
        d.t = x;
    else if (g->kind == TDN__PACK_S)
        d.s = x;
    else
        d.r = tdn_quat_normalize(tdn_quat_make(x.x, x.y, x.z, v4_get(v->c[3], lane)));
    tdn_pose_set(pose, j, &d);
}

static float *track_at(const planner *p, int g, int lane, int f)
{
    return p->track + (((size_t)g * LANES + (size_t)lane) * (size_t)p->F + (size_t)f) * 4;
}

static tdn__pack_header *header_at(const planner *p, int s, int g)
{
    return &p->plan->headers[(size_t)s * (size_t)p->plan->group_count + (size_t)g];
}

static int is_last(const planner *p, int s) { return s + 1 == p->plan->segment_count; }

/* Components per stored frame of a group in segment s: 4 for a rotation that nears half a turn
 * there. */
static int segment_components(const planner *p, int g, int s)
{
    const tdn__pack_group *grp = &p->plan->groups[g];
    if (grp->kind != TDN__PACK_R)
        return 3;
    for (int f = s * TDN__PACK_SEGMENT; f < s * TDN__PACK_SEGMENT + tdn__pack_segment_frames(p->F, s); f++)
        for (int i = 0; i < LANES; i++) {
            float v[4];
            track_components(p->src, grp, i, f, 4, v);
            if ((i < grp->stride) && fabsf(v[3]) < W_STORED)
                return 4;
        }
    return 3;
}

/* The group's stored values at every frame (by each segment's components) and its clip ranges. */
static void group_values(planner *p, int g)
{
    tdn__pack_group *grp = &p->plan->groups[g];
    for (int s = 0; s < p->plan->segment_count; s++) {
        const int n = header_at(p, s, g)->components;
        for (int f = s * TDN__PACK_SEGMENT; f < s * TDN__PACK_SEGMENT + tdn__pack_segment_frames(p->F, s); f++)
            for (int i = 0; i < LANES; i++) {
                float *t = track_at(p, g, i, f);
                if ((i < grp->stride))
                    track_components(p->src, grp, i, f, n, t);
                else
                    t[0] = t[1] = t[2] = t[3] = 0.0f;
            }
    }
    for (int i = 0; i < LANES; i++)
        for (int c = 0; c < 4; c++) {
            double lo = 0.0, hi = 0.0;
            for (int f = 0; f < p->F && (i < grp->stride); f++) {
                const double v = track_at(p, g, i, f)[c];
                lo = f == 0 || v < lo ? v : lo;
                hi = f == 0 || v > hi ? v : hi;
            }
            grp->min[c][i] = (float)lo;
            grp->step[c][i] = (float)((hi - lo) / 255.0);
            /* the float range must reach hi: widen the step by an ulp when rounding fell short */
            while ((double)grp->min[c][i] + 255.0 * (double)grp->step[c][i] < hi)
                grp->step[c][i] = nextafterf(grp->step[c][i], INFINITY);
        }
}

/* The group's ranges in segment s over the frames its header's step stores. */
static void segment_ranges(planner *p, int g, int s, tdn__pack_header *h)
{
    const tdn__pack_group *grp = &p->plan->groups[g];
    const int stored = tdn__pack_stored_frames(tdn__pack_segment_frames(p->F, s), h->step, is_last(p, s));
    for (int i = 0; i < LANES; i++)
        for (int c = 0; c < 4; c++) {
            int lo = 0, hi = 0;
            const double step = grp->step[c][i];
            if ((i < grp->stride) && step > 0.0 && c < h->components) {
                double vlo = INFINITY, vhi = -INFINITY;
                for (int k = 0; k < stored; k++) {
                    const double v = track_at(p, g, i, s * TDN__PACK_SEGMENT + k * h->step)[c];
                    vlo = v < vlo ? v : vlo;
                    vhi = v > vhi ? v : vhi;
                }
                lo = (int)floor((vlo - grp->min[c][i]) / step);
                hi = (int)ceil((vhi - grp->min[c][i]) / step);
                lo = lo < 0 ? 0 : lo > 255 ? 255 : lo;
                hi = hi < lo ? lo : hi > 255 ? 255 : hi;
            }
            h->range[c][i] = (uint8_t)lo;
            h->range[4 + c][i] = (uint8_t)(hi - lo);
        }
    /* a component whose widest lane range is 2^k times narrower than the widest component's
     * keeps the same precision with k bits fewer (at most 3) */
    double widest[4] = { 0, 0, 0, 0 }, most = 0.0;
    for (int c = 0; c < h->components; c++) {
        for (int i = 0; i < grp->stride; i++)
            widest[c] = fmax(widest[c], (double)grp->step[c][i] * h->range[4 + c][i]);
        most = fmax(most, widest[c]);
    }
    h->shave = 0;
    for (int c = 0; c < h->components; c++) {
        const int k = widest[c] > 0.0 ? (int)floor(log2(most / widest[c])) : 3;
        h->shave |= (uint8_t)((k < 0 ? 0 : k > 3 ? 3 : k) << (2 * c));
    }
}

/* q for value v in a lane and component at `bits`, as decode will read it back. */
static uint32_t quantize(float v, float offset, float scale, int bits)
{
    if (!(scale > 0.0f) || bits == 0)
        return 0;
    const float top = (float)((1u << bits) - 1u), q = rintf((v - offset) / scale);
    return (uint32_t)(q > 0.0f ? (q < top ? q : top) : 0.0f);
}

static void put_bits(uint32_t *lane_words, int stride, unsigned at, uint32_t q, int bits)
{
    if (bits == 0)
        return;
    const unsigned s = at & 31u;
    lane_words[(size_t)stride * (at >> 5)] |= q << s;
    if (s + (unsigned)bits > 32u)
        lane_words[(size_t)stride * ((at >> 5) + 1)] |= q >> (32u - s);
}

/* Group g's streams of segment s quantized by its header into `words` (zeroed first). */
static void write_streams(const float *track, int F, const tdn__pack_group *g, int s, int last,
                          const tdn__pack_header *h, uint32_t *words)
{
    const int n = h->components, stored = tdn__pack_stored_frames(tdn__pack_segment_frames(F, s), h->step, last);
    memset(words, 0, tdn__pack_stream_words(g->stride, stored, h) * sizeof *words);
    const header_view view = header_view_of(h, words);
    dequantizer d;
    dequantization(g, &view, &d);
    for (int i = 0; i < LANES; i++)
        for (int k = 0; k < stored && (i < g->stride); k++) {
            const float *v = track + ((size_t)i * (size_t)F + (size_t)(s * TDN__PACK_SEGMENT + k * h->step)) * 4;
            unsigned at = (unsigned)(k * tdn__pack_frame_bits(h));
            for (int c = 0; c < n; c++) {
                const int bits = tdn__pack_component_bits(h, c);
                put_bits(words + i, g->stride, at,
                         quantize(v[c], v4_get(d.offset.c[c], i), v4_get(d.scale.c[c], i), bits), bits);
                at += (unsigned)bits;
            }
        }
}

/* The planning view of group g in segment s: its header's streams into its slot. */
static void write_slot(planner *p, int s, int g)
{
    tdn__pack_header *h = header_at(p, s, g);
    h->word = (uint32_t)(((size_t)(s & 1) * (size_t)p->plan->group_count + (size_t)g) * SLOT_WORDS);
    write_streams(track_at(p, g, 0, 0), p->F, &p->plan->groups[g], s, is_last(p, s), h, p->slots + h->word);
}

/* The lanes of group g at frame l + a of segment s as planned: headers in the plan, streams in
 * the slots. */
static void planned_lanes(const planner *p, int g, int s, int l, float a, lanes4 *out)
{
    const header_view h = header_view_of(header_at(p, s, g), p->slots);
    const header_view next = is_last(p, s) ? h : header_view_of(header_at(p, s + 1, g), p->slots);
    const tdn__pack_group *grp = &p->plan->groups[g];
    stored_pair pairs[4];
    for (int k = 0; k < 4; k++)
        pairs[k] = stored_pair_at(1 << k, p->F, s, l, a);
    group_lanes(grp, grp->kind == TDN__PACK_R, &h, is_last(p, s) ? NULL : &next, pairs, out);
}

/* Check point k of a segment: frame k / 2, and half a frame on for an odd k. */
static int point_frame(const planner *p, int k) { return p->src->reference ? k : k / 2; }
static float point_fraction(const planner *p, int k) { return p->src->reference ? 0.0f : 0.5f * (float)(k & 1); }

/* x moved half-way to y: translations and scales lerped, rotations nlerped the short way (what
 * a float32 clip shows between two frames). */
static void midpoint(const tdn_pose *x, const tdn_pose *y, tdn_pose *out)
{
    for (int j = 0; j < x->joint_count; j++) {
        const tdn_transform a = tdn_pose_get(x, j), b = tdn_pose_get(y, j);
        const float sign = tdn_quat_dot(a.r, b.r) < 0.0f ? -1.0f : 1.0f;
        tdn_transform m;
        m.t = tdn_vec3_scale(tdn_vec3_add(a.t, b.t), 0.5f);
        m.s = tdn_vec3_scale(tdn_vec3_add(a.s, b.s), 0.5f);
        m.r = tdn_quat_normalize(
            tdn_quat_make(a.r.x + sign * b.r.x, a.r.y + sign * b.r.y, a.r.z + sign * b.r.z, a.r.w + sign * b.r.w));
        tdn_pose_set(out, j, &m);
    }
}

/* Segment s's check points, exact. */
static void check_points(planner *p, int s)
{
    const int f0 = s * TDN__PACK_SEGMENT, n = tdn__pack_segment_frames(p->F, s);
    const int midpoints = p->src->reference ? 0 : is_last(p, s) ? n - 1 : n;
    p->point_count = n + midpoints;
    for (int l = 0; l < n; l++)
        exact_pose(p->src, f0 + l, &p->exact[p->src->reference ? l : 2 * l]);
    for (int l = 0; l < midpoints; l++) {
        if (l + 1 < n) {
            midpoint(&p->exact[2 * l], &p->exact[2 * l + 2], &p->exact[2 * l + 1]);
        } else { /* to the next segment's first frame, through the trial pose */
            exact_pose(p->src, f0 + n, &p->trial);
            midpoint(&p->exact[2 * l], &p->trial, &p->exact[2 * l + 1]);
        }
    }
    for (int k = 0; k < p->point_count; k++)
        tdn_model_space(p->src->skeleton, &p->exact[k], NULL, p->exact_model + (size_t)k * (size_t)p->J, NULL);
}

/* The largest error over the subtree of group g's lane, over segment s's check points, with
 * only that track as planned and every other one exact. */
static float track_error(planner *p, int g, int lane, int s)
{
    const tdn__pack_source *src = p->src;
    const tdn__pack_group *grp = &p->plan->groups[g];
    const int j = grp->joint[lane], end = tdn_skeleton_subtree_end(src->skeleton, j);
    float worst = 0.0f;
    for (int point = 0; point < p->point_count; point++) {
        const int f = s * TDN__PACK_SEGMENT + point_frame(p, point);
        const tdn_mat4 *exact = p->exact_model + (size_t)point * (size_t)p->J;
        /* a plain clip changes the exact pose and puts it back; an additive one starts from its
         * differences, which only the subtree needs applied */
        tdn_pose *pose = src->reference ? &p->trial : &p->exact[point];
        const tdn_transform kept = tdn_pose_get(pose, j);
        if (src->reference)
            frame_pose(src, f, pose);
        lanes4 v;
        planned_lanes(p, g, s, point_frame(p, point), point_fraction(p, point), &v);
        set_lane(pose, grp, lane, &v);
        apply_reference(src, f, pose, j, end);
        memcpy(p->trial_model, exact, sizeof(tdn_mat4) * (size_t)p->J);
        tdn_model_space_range(src->skeleton, pose, NULL, j, end, p->trial_model, NULL);
        if (!src->reference)
            tdn_pose_set(pose, j, &kept);
        for (int k = j; k < end; k++) {
            const float e = tdn__vertex_error(&exact[k], &p->trial_model[k], src->shell);
            worst = e > worst ? e : worst;
        }
    }
    return worst;
}

/* The worst joint over segment s with every track as planned (-1: none over the threshold). */
static int worst_joint(planner *p, int s)
{
    const tdn__pack_source *src = p->src;
    const tdn__pack_plan *plan = p->plan;
    float worst = p->threshold;
    int at = -1;
    for (int point = 0; point < p->point_count; point++) {
        const int l = point_frame(p, point), f = s * TDN__PACK_SEGMENT + l;
        if (src->reference)
            frame_pose(src, f, &p->trial);
        else
            tdn_pose_copy(&p->trial, &p->exact[point], NULL);
        for (int g = 0; g < plan->group_count; g++) {
            lanes4 v;
            planned_lanes(p, g, s, l, point_fraction(p, point), &v);
            for (int i = 0; i < LANES; i++)
                if ((i < plan->groups[g].stride))
                    set_lane(&p->trial, &plan->groups[g], i, &v);
        }
        apply_reference(src, f, &p->trial, 0, p->J);
        tdn_model_space(src->skeleton, &p->trial, NULL, p->trial_model, NULL);
        const tdn_mat4 *exact = p->exact_model + (size_t)point * (size_t)p->J;
        for (int j = 0; j < p->J; j++) {
            const float e = tdn__vertex_error(&exact[j], &p->trial_model[j], src->shell);
            if (e > worst) {
                worst = e;
                at = j;
            }
        }
    }
    return at;
}

/* The fewest bits at which group g's lane keeps its subtree within its share of the threshold
 * in segment s at the header's step: bisection, as the error falls while bits rise; -1 when
 * even the most bits do not (the frames the step leaves out are too far from the lerp). */
static int track_bits(planner *p, int g, int lane, int s)
{
    tdn__pack_header *h = header_at(p, s, g);
    const float share = TRACK_SHARE * p->threshold;
    int lo = -1, hi = TDN__PACK_MAX_BITS + 1;
    while (hi - lo > 1) {
        const int mid = lo < 0 ? 0 : hi > TDN__PACK_MAX_BITS ? TDN__PACK_MAX_BITS : (lo + hi) / 2;
        h->bits = (uint8_t)mid;
        write_slot(p, s, g);
        if (track_error(p, g, lane, s) <= share)
            hi = mid;
        else
            lo = mid;
    }
    return hi > TDN__PACK_MAX_BITS ? -1 : hi;
}

/* Raises the bits of every group on the chain from joint j to the root, and where a group has
 * the most bits already, halves its step (the frames key reduction leaves out are lerped: a
 * chain of tracks each within its share can still add up to more than the threshold, which
 * no bit rate takes back); 0 when every group is at the most bits and every frame. */
static int raise_chain(planner *p, int s, int j)
{
    int raised = 0;
    for (int k = j; k >= 0; k = tdn_skeleton_parent(p->src->skeleton, k))
        for (int kind = 0; kind < 3; kind++) {
            const int at = p->lane_of[kind * p->J + k];
            tdn__pack_header *h = at >= 0 ? header_at(p, s, at / LANES) : NULL;
            if (!h || (h->bits == TDN__PACK_MAX_BITS && h->step == 1))
                continue;
            if (h->bits < TDN__PACK_MAX_BITS) {
                h->bits++;
            } else {
                h->step = (uint8_t)(h->step / 2); /* still a divisor of what the old one divided */
                segment_ranges(p, at / LANES, s, h);
            }
            write_slot(p, s, at / LANES);
            raised = 1;
        }
    return raised;
}

/* Step, ranges and bits for every group of segment s (segment s + 1 already planned). */
static void plan_segment(planner *p, int s)
{
    const tdn__pack_source *src = p->src;
    const tdn__pack_plan *plan = p->plan;
    const int n = tdn__pack_segment_frames(p->F, s);
    const float left = src->threshold - src->segment_errors[s];
    p->threshold = left > 0.25f * src->threshold ? left : 0.25f * src->threshold;
    check_points(p, s);
    for (int g = 0; g < plan->group_count; g++) { /* every group exact while the others are tried */
        tdn__pack_header *h = header_at(p, s, g);
        h->step = 1;
        h->bits = TDN__PACK_MAX_BITS;
        segment_ranges(p, g, s, h);
        write_slot(p, s, g);
    }
    for (int g = 0; g < plan->group_count; g++) {
        tdn__pack_header *h = header_at(p, s, g), best = *h;
        size_t best_cost = SIZE_MAX;
        for (size_t k = 0; k < sizeof STEPS / sizeof STEPS[0]; k++) {
            const int step = STEPS[k];
            if (is_last(p, s) ? (n - 1) % step != 0 || (step > 1 && n == 1) : n % step != 0)
                continue;
            if (step > 1 && src->reference)
                continue; /* left out of additive clips: their checks have no midpoints */
            h->step = (uint8_t)step;
            segment_ranges(p, g, s, h);
            int bits = 0;
            for (int i = 0; i < LANES && bits >= 0; i++)
                if ((i < plan->groups[g].stride)) {
                    const int lane_bits = track_bits(p, g, i, s);
                    bits = lane_bits < 0 ? -1 : lane_bits > bits ? lane_bits : bits;
                }
            if (bits < 0) { /* out of reach at this step: every frame, at the most bits, unless a step did */
                if (step > 1)
                    continue;
                bits = TDN__PACK_MAX_BITS;
            }
            h->bits = (uint8_t)bits;
            const size_t cost = tdn__pack_stream_words(plan->groups[g].stride,
                                                       tdn__pack_stored_frames(n, step, is_last(p, s)), h);
            if (cost < best_cost) {
                best_cost = cost;
                best = *h;
            }
        }
        *h = best;
        write_slot(p, s, g);
    }
    for (int round = 0; round < MAX_RAISES; round++) {
        const int j = worst_joint(p, s);
        if (j < 0 || !raise_chain(p, s, j))
            break; /* within the threshold, or every group on the chain at its most */
    }
    if (worst_joint(p, s) >= 0)
        return;
    /* give back what the shares and the raises left unused: each group one bit lower at a time
     * while the segment stays within the threshold */
    for (int lowered = 1; lowered;) {
        lowered = 0;
        for (int g = 0; g < plan->group_count; g++) {
            tdn__pack_header *h = header_at(p, s, g);
            if (h->bits == 0)
                continue;
            h->bits--;
            write_slot(p, s, g);
            if (worst_joint(p, s) >= 0) {
                h->bits++;
                write_slot(p, s, g);
            } else {
                lowered = 1;
            }
        }
    }
}

/* Groups per kind: the packed tracks in 4s. */
static int count_groups(const tdn__pack_source *src)
{
    int n = 0;
    for (int kind = 0; kind < 3; kind++) {
        int tracks = 0;
        for (int j = 0; j < src->joint_count; j++)
            tracks += src->packed[kind * src->joint_count + j] != 0;
        n += (tracks + LANES - 1) / LANES;
    }
    return n;
}

/* About how many bits a track asks for: log2 of how far it moves within a segment (the largest
 * component range, mean over segments), times for a rotation the distance its joint carries
 * vertices (the farthest descendant, at the first frame, plus the shell), over the threshold. */
static float track_need(const planner *p, int kind, int j, const tdn_mat4 *model)
{
    const tdn__pack_source *src = p->src;
    const int J = p->J, first = kind == TDN__PACK_T ? TDN_TX : kind == TDN__PACK_R ? TDN_RX : TDN_SX;
    double motion = 0.0;
    for (int s = 0; s < p->plan->segment_count; s++) {
        double widest = 0.0;
        for (int c = 0; c < (kind == TDN__PACK_R ? 4 : 3); c++) {
            double lo = INFINITY, hi = -INFINITY;
            for (int f = s * TDN__PACK_SEGMENT; f < s * TDN__PACK_SEGMENT + tdn__pack_segment_frames(p->F, s); f++) {
                const double v = frame_values(src->values, J, f)[(first + c) * J + j];
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
            widest = hi - lo > widest ? hi - lo : widest;
        }
        motion += widest / p->plan->segment_count;
    }
    double lever = 1.0;
    if (kind == TDN__PACK_R) {
        lever = src->shell;
        for (int d = j; d < tdn_skeleton_subtree_end(src->skeleton, j); d++) {
            const double x = model[d].m[12] - model[j].m[12], y = model[d].m[13] - model[j].m[13],
                         z = model[d].m[14] - model[j].m[14];
            lever = fmax(lever, src->shell + sqrt(x * x + y * y + z * z));
        }
    }
    return (float)log2(fmax(motion * lever / src->threshold, 1e-9));
}

/* The groups: per kind, the packed tracks sorted by the bits they ask for, in 4s. */
static void make_groups(planner *p)
{
    const tdn__pack_source *src = p->src;
    const int J = p->J;
    exact_pose(src, 0, &p->trial);
    tdn_model_space(src->skeleton, &p->trial, NULL, p->trial_model, NULL);
    int *order = p->order, n = 0;
    float *need = p->need;
    for (int kind = 0; kind < 3; kind++) {
        int count = 0;
        for (int j = 0; j < J; j++)
            if (src->packed[kind * J + j]) {
                need[j] = track_need(p, kind, j, p->trial_model);
                int at = count++; /* insertion sort: most bits first, then by joint */
                while (at > 0 && need[order[at - 1]] < need[j]) {
                    order[at] = order[at - 1];
                    at--;
                }
                order[at] = j;
            }
        for (int k = 0; k < count; k += LANES, n++) {
            tdn__pack_group *g = &p->plan->groups[n];
            memset(g, 0, sizeof *g);
            g->kind = kind;
            g->first_joint = J, g->last_joint = -1;
            for (int i = 0; i < LANES; i++) {
                g->joint[i] = k + i < count ? order[k + i] : -1;
                if (g->joint[i] < 0)
                    continue;
                g->stride = i + 1;
                g->first_joint = g->joint[i] < g->first_joint ? g->joint[i] : g->first_joint;
                g->last_joint = g->joint[i] > g->last_joint ? g->joint[i] : g->last_joint;
                p->lane_of[kind * J + g->joint[i]] = n * LANES + i;
            }
        }
    }
}

tdn_result tdn__pack_plan_make(const tdn__pack_source *src, const tdn_allocator *allocator, tdn__pack_plan *plan,
                               tdn_error *err)
{
    memset(plan, 0, sizeof *plan);
    const int J = src->joint_count, F = src->frame_count;
    plan->group_count = count_groups(src);
    plan->segment_count = (F + TDN__PACK_SEGMENT - 1) / TDN__PACK_SEGMENT;
    planner p = { 0 };
    p.src = src;
    p.plan = plan;
    p.J = J;
    p.F = F;
    const size_t G = (size_t)plan->group_count, S = (size_t)plan->segment_count;
    const size_t pose_bytes = tdn_pose_bytes(J);
    for (int pass = 0; pass < 2; pass++) {
        tdn__block block = { pass ? plan->memory : NULL, 0 };
        plan->groups = tdn__block_take(&block, G, sizeof(tdn__pack_group), alignof(tdn__pack_group));
        plan->headers = tdn__block_take(&block, S * G, sizeof(tdn__pack_header), alignof(tdn__pack_header));
        p.lane_of = tdn__block_take(&block, 3 * (size_t)J, sizeof(int), alignof(int));
        p.order = tdn__block_take(&block, (size_t)J, sizeof(int), alignof(int));
        p.need = tdn__block_take(&block, (size_t)J, sizeof(float), alignof(float));
        p.track = tdn__block_take(&block, G * LANES * (size_t)F * 4, sizeof(float), alignof(float));
        p.slots = tdn__block_take(&block, 2 * G * SLOT_WORDS + TDN__PACK_GUARD_WORDS, sizeof(uint32_t),
                                  alignof(uint32_t));
        char *poses = tdn__block_take(&block, (MAX_POINTS + 1) * pose_bytes, 1, TDN_POSE_ALIGN);
        p.exact_model = tdn__block_take(&block, (size_t)MAX_POINTS * (size_t)J, sizeof(tdn_mat4), 16);
        p.trial_model = tdn__block_take(&block, (size_t)J, sizeof(tdn_mat4), 16);
        if (!pass) {
            plan->memory_bytes = block.size;
            plan->memory = tdn__alloc(allocator, block.size, TDN_POSE_ALIGN);
            if (!plan->memory)
                return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "clip", "out of memory (%zu bytes of compression scratch)",
                                 block.size);
        } else {
            for (int k = 0; k < MAX_POINTS; k++)
                tdn_pose_init(J, poses + (size_t)k * pose_bytes, pose_bytes, &p.exact[k], NULL);
            tdn_pose_init(J, poses + MAX_POINTS * pose_bytes, pose_bytes, &p.trial, NULL);
        }
    }
    memset(plan->headers, 0, S * G * sizeof(tdn__pack_header));
    memset(p.slots, 0, (2 * G * SLOT_WORDS + TDN__PACK_GUARD_WORDS) * sizeof(uint32_t));
    for (int i = 0; i < 3 * J; i++)
        p.lane_of[i] = -1;
    make_groups(&p);
    for (int g = 0; g < plan->group_count; g++) {
        lane_means(src, &plan->groups[g]);
        for (int s = 0; s < plan->segment_count; s++)
            header_at(&p, s, g)->components = (uint8_t)segment_components(&p, g, s);
        group_values(&p, g);
    }
    plan->track = p.track;
    for (int s = plan->segment_count - 1; s >= 0; s--) /* a segment's last frames lerp to the next one's first */
        plan_segment(&p, s);
    size_t words = 0;
    for (int s = 0; s < plan->segment_count; s++)
        for (int g = 0; g < plan->group_count; g++) {
            tdn__pack_header *h = header_at(&p, s, g);
            h->word = (uint32_t)words;
            words += tdn__pack_stream_words(
                plan->groups[g].stride,
                tdn__pack_stored_frames(tdn__pack_segment_frames(F, s), h->step, is_last(&p, s)), h);
        }
    plan->word_count = words + TDN__PACK_GUARD_WORDS;
    size_t segment_bytes = 0;
    for (int g = 0; g < plan->group_count; g++) {
        tdn__pack_group *grp = &plan->groups[g];
        grp->record_components = 3;
        for (int s = 0; s < plan->segment_count; s++)
            grp->record_components = header_at(&p, s, g)->components > 3 ? 4 : grp->record_components;
        grp->record_offset = (int)segment_bytes;
        segment_bytes += tdn__pack_record_size(grp);
    }
    plan->segment_record_bytes = segment_bytes;
    plan->record_bytes = segment_bytes * S + sizeof(uint32_t) * TDN__PACK_GUARD_WORDS;
    return TDN_OK;
}

void tdn__pack_plan_free(tdn__pack_plan *plan, const tdn_allocator *allocator)
{
    tdn__free(allocator, plan->memory, plan->memory_bytes);
    plan->memory = NULL;
}

/* ---- writing ---- */

void tdn__pack_write(const tdn__pack_source *src, const tdn__pack_plan *plan, tdn__pack_group *groups, uint8_t *records,
                     uint32_t *words, tdn__packed *out)
{
    const size_t G = (size_t)plan->group_count;
    memcpy(groups, plan->groups, G * sizeof *groups);
    memset(words, 0, plan->word_count * sizeof *words);
    memset(records, 0, plan->record_bytes);
    const size_t segment_bytes = plan->segment_record_bytes;
    for (int s = 0; s < plan->segment_count; s++)
        for (size_t g = 0; g < G; g++) {
            const tdn__pack_header *h = &plan->headers[(size_t)s * G + g];
            record_write(h, &groups[g], records + (size_t)s * segment_bytes + (size_t)groups[g].record_offset);
            write_streams(plan->track + g * LANES * (size_t)src->frame_count * 4, src->frame_count, &groups[g], s,
                          s + 1 == plan->segment_count, h, words + h->word);
        }
    *out = (tdn__packed){ .frame_count = src->frame_count,
                          .group_count = plan->group_count,
                          .segment_count = plan->segment_count,
                          .groups = groups,
                          .records = records,
                          .segment_record_bytes = segment_bytes,
                          .words = words };
}
