/* tendon core: a runtime clip's compressed tracks (clip_compressed.c), for clip.c (not installed).
 *
 * The animated translation, rotation and scale tracks of a COMPRESSED clip. A rotation q is stored
 * as its turn from the track's mean rotation m, q' = q m^-1, which stays far from half a turn
 * (the w of q itself comes near 0 wherever a joint's frame is flipped from its parent's): three
 * components, x y z of q' with w >= 0 (w = sqrt(1 - x^2 - y^2 - z^2) when sampled), or all four
 * in the segments where q' still nears half a turn, where w rebuilt from the other three would
 * lose its precision. A sample turns the two stored frames around its time back by m and
 * nlerps them (a playback cache keeps them so turned).
 * Each track is quantized within its range over the clip and, per segment of
 * TDN__PACK_SEGMENT frames, within a sub-range of that (8 bits per end, in 255ths of the clip
 * range), at a bit rate chosen per segment so that the model-space error at virtual vertices
 * around every joint stays under the clip's threshold.
 *
 * Up to 4 tracks of one kind form a group that shares a bit rate per segment, so that one
 * sample decodes the 4 lanes together: each lane's values are a stream of bits (frame-major,
 * x y z per frame), and the 4 streams are interleaved word by word, so a value sits at the same
 * bit offset of all 4 lanes and is extracted by the same shifts. The tracks of a group are those
 * that ask for about as many bits (by the distance their joint carries vertices and how far the
 * track moves), not neighbours, so that a shared rate wastes little. Where a group's motion is smooth, a segment keeps
 * only every 2nd, 4th or 8th frame of it (key reduction): a sample lerps between the stored
 * frames around its time, the last of a segment's joining the first of the next. */
#ifndef TENDON_CLIP_COMPRESSED_H
#define TENDON_CLIP_COMPRESSED_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "tendon/pose.h"
#include "tendon/skeleton.h"

#define TDN__PACK_SEGMENT 32 /* frames per segment */
#define TDN__PACK_LANES 4    /* tracks per group */
#define TDN__PACK_MAX_BITS 24
#define TDN__PACK_GUARD_WORDS 8 /* after the streams: a read of a value's next word stays inside */

enum { TDN__PACK_T, TDN__PACK_R, TDN__PACK_S };

typedef struct tdn__pack_group {
    int kind;                       /* TDN__PACK_T, _R or _S */
    int joint[TDN__PACK_LANES];     /* each lane's joint; -1 after the last */
    int stride;                     /* lanes stored (the others read whatever follows) */
    int first_joint, last_joint;    /* the smallest and largest of its joints */
    int record_offset;              /* a built clip: its header record's byte within a segment's */
    int record_components;          /* the most components its record has room for: 3 or 4 */
    float min[4][TDN__PACK_LANES];  /* per component (x, y, z, w) and lane: the clip range's start */
    float step[4][TDN__PACK_LANES]; /* the clip range / 255: the unit of a segment's range */
    float mean[4][TDN__PACK_LANES]; /* rotations: each lane's mean rotation m, x y z w */
} tdn__pack_group;

typedef struct tdn__pack_header {      /* a group in a segment: 40 bytes */
    uint32_t word;                     /* its interleaved streams' first word */
    uint8_t bits;                      /* per value of its widest component, 0 .. TDN__PACK_MAX_BITS */
    uint8_t components;                /* per stored frame: 3, or 4 for rotations with w stored */
    uint8_t step;                      /* frames from one stored frame to the next: 1, 2, 4 or 8 */
    uint8_t shave;                     /* 2 bits per component: how many fewer bits it takes (a narrower
                                        * range needs fewer for the same precision) */
    uint8_t range[8][TDN__PACK_LANES]; /* segment start x y z w, then extent x y z w, in steps */
} tdn__pack_header;

/* A built clip keeps its headers as records: per group, 8 + 2 * record_components * stride
 * bytes (bits, components, step, shave, the first word of its streams, then the used lanes'
 * range starts and extents), each segment's records in group order and all segments' alike, so
 * that a sample finds a group's record at segment * segment_record_bytes + record_offset. */
typedef struct tdn__packed {
    int frame_count;
    int group_count;
    int segment_count;
    const tdn__pack_group *groups;
    const uint8_t *records; /* segment_count blocks of segment_record_bytes */
    size_t segment_record_bytes;
    const uint32_t *words; /* the streams, then TDN__PACK_GUARD_WORDS zero words */
} tdn__packed;

/* The layout's arithmetic, shared by sampling, planning and the pack reader's checks. */
/* Bits of component c's values in a header's segment, and of a whole stored frame. */
static inline int tdn__pack_component_bits(const tdn__pack_header *h, int c)
{
    const int b = h->bits - (h->shave >> (2 * c) & 3);
    return b > 0 ? b : 0;
}

static inline int tdn__pack_frame_bits(const tdn__pack_header *h)
{
    int sum = 0;
    for (int c = 0; c < h->components; c++)
        sum += tdn__pack_component_bits(h, c);
    return sum;
}

static inline int tdn__pack_segment_frames(int frame_count, int s)
{
    const int rest = frame_count - s * TDN__PACK_SEGMENT;
    return rest < TDN__PACK_SEGMENT ? rest : TDN__PACK_SEGMENT;
}

/* Stored frames of a segment of n frames at `step`: every step-th from its first; the last
 * segment's last frame is one of them (steps there divide n - 1). */
static inline int tdn__pack_step_shift(int step) /* steps 1, 2, 4, 8 */
{
    return step == 1 ? 0 : step == 2 ? 1 : step == 4 ? 2 : 3;
}
static inline int tdn__pack_stored_frames(int n, int step, int last)
{
    return last ? ((n - 1) >> tdn__pack_step_shift(step)) + 1 : n >> tdn__pack_step_shift(step);
}

static inline size_t tdn__pack_stream_words(int stride, int stored, const tdn__pack_header *h)
{
    return (size_t)stride * (((size_t)stored * (size_t)tdn__pack_frame_bits(h) + 31) / 32);
}

static inline size_t tdn__pack_record_size(const tdn__pack_group *g)
{
    return 8 + 2 * (size_t)g->record_components * (size_t)g->stride;
}

/* A group's header record into a header. */
void tdn__pack_record_read(const uint8_t *record, const tdn__pack_group *g, tdn__pack_header *h);

/* Writes the packed tracks' values at frame f0 + a (0 <= a <= 1; f0 + 1 a frame when a > 0) into
 * the pose rows `rows` (TDN__ROWS_*) of joints [begin, end) (multiples of TDN_POSE_LANES or the
 * stride): each group lerps the stored frames around that time (rotations nlerped the short
 * way, not yet normalized). */
void tdn__packed_sample(const tdn__packed *packed, int f0, float a, tdn_pose *pose, int begin, int end, unsigned rows);

/* A playback cache's part for the packed tracks (clip_cache.c owns the memory): every group's
 * two stored frames around the last time sampled, decoded and finished (rotations rebuilt and
 * turned back by their means), in two frames laid out as a pose, so that a sample between the
 * same stored frames only interpolates, and one a stored frame on decodes only the new one.
 * The other components' places hold the clip's constants: interpolating them gives them back
 * exactly. */
typedef struct tdn__packed_cache {
    float *keys[2];                   /* TDN_POSE_ROWS rows of `stride` floats: the stored frames */
    size_t stride;                    /* the pose's */
    struct tdn__cached_group *groups; /* per group: which stored frames it caches (clip_compressed.c) */
    uint8_t *joint_shift;             /* per kind, stride bytes: each joint's group's step shift */
    uint8_t *packed_blocks;           /* per kind, stride / 4 bytes: a block of 4 joints' packed lanes, bit per lane */
    float *t;                         /* per kind, stride floats: each joint's t, when a kind mixes steps */
    uint32_t *swap;                   /* per kind, stride words: ~0 where a joint's k0 is in keys[1] then */
    int32_t *kind_groups;             /* the groups' indices, kind by kind */
    int kind_groups_end[3];           /* per kind: the end of its indices in kind_groups */
    unsigned kind_shifts[3];          /* per kind: bit k set when a cached group steps by 1 << k */
    struct tdn__cached_kind {         /* per kind: what all its groups cache, when they agree */
        int32_t segment;              /* -1: they do not */
        int32_t shift, key0, key1;
    } kinds[3];
    int shifts_known; /* kind_shifts holds since the last group's step changed */
    int whole_at;     /* the frame whose stored frames every group caches, -1: none */
    int last_frame;   /* the frame of the last sample asked of the cache, -1: none */
    int repeated;     /* 1: that sample's frame was the one before it's */
} tdn__packed_cache;

/* Bytes a packed cache takes after its header, 32-aligned parts; with `memory`, lays them out
 * there (zeroed by the caller) and points `cache` at them, every group uncached. */
size_t tdn__packed_cache_layout(const tdn__packed *packed, size_t stride, void *memory, tdn__packed_cache *cache);

/* Whether a sample at frame f0 should go through the cache: at the frame it last sampled (the
 * cache holds its stored frames), or at the one after when frames repeat (a clip slower than the
 * samples, whose next sample will find the new stored frames cached); not when every sample moves
 * on a frame or more, where nothing cached is used again. Notes f0 either way. */
static inline int tdn__packed_cache_follows(tdn__packed_cache *cache, int f0)
{
    const int last = cache->last_frame, same = f0 == last;
    const int follows = last < 0 || same || (f0 == last + 1 && cache->repeated);
    cache->last_frame = f0;
    cache->repeated = same;
    return follows;
}

/* tdn__packed_sample through a cache: the groups whose stored frames around f0 are not the
 * cached ones are decoded into it, then joints [begin, limit) of the rows asked (all the rows'
 * components, constants included) are interpolated from it. The same bits as tdn__packed_sample
 * gives the packed components. The rotations of joints under `normalize_end` are normalized as
 * the sampler normalizes them, block by block of 4 as long as every lane a block writes is under
 * it: returns where that stopped. */
int tdn__packed_sample_cached(const tdn__packed *packed, tdn__packed_cache *cache, int f0, float a, tdn_pose *pose,
                              int begin, int end, int limit, int normalize_end, unsigned rows);

/* What a build gives the packer: the clip's resampled local values, frame-major, each frame
 * TDN_POSE_ROWS rows of joint_count (rotations sign-continuous), which tracks to pack
 * (packed[kind * joint_count + joint]), and what the error is measured against. */
typedef struct tdn__pack_source {
    const tdn_skeleton *skeleton;
    int joint_count;
    int frame_count;
    const float *values;
    const unsigned char *packed;
    /* An additive clip's reference, absolute local values laid out as `values` (NULL: the values
     * are the pose itself): errors are measured on the difference applied to it. */
    const float *reference;
    /* Per segment, the error the frames' interpolation already has against the source: the
     * packer keeps its own error under threshold less this (at least a quarter of it). */
    const float *segment_errors;
    float threshold; /* largest virtual-vertex error, skeleton units */
    float shell;     /* virtual vertices' distance from their joint */
} tdn__pack_source;

/* The packing plan a build works out (tdn__pack_plan) and lays out (tdn__pack_layout). */
typedef struct tdn__pack_plan {
    int group_count, segment_count;
    tdn__pack_group *groups;
    tdn__pack_header *headers;
    const float *track;          /* per group, lane and frame: the 4 stored components */
    size_t segment_record_bytes; /* a segment's records */
    size_t record_bytes;         /* every segment's, with TDN__PACK_GUARD_WORDS words after them */
    size_t word_count;
    void *memory; /* the plan's own allocation */
    size_t memory_bytes;
} tdn__pack_plan;

/* Chooses groups, ranges and bit rates. TDN_ERR_OUT_OF_MEMORY or TDN_OK. */
tdn_result tdn__pack_plan_make(const tdn__pack_source *src, const tdn_allocator *allocator, tdn__pack_plan *plan,
                               tdn_error *err);
void tdn__pack_plan_free(tdn__pack_plan *plan, const tdn_allocator *allocator);
/* Copies the plan's groups, writes its headers as records and the quantized streams into caller
 * memory (sizes from the plan), and points `out` at it. */
void tdn__pack_write(const tdn__pack_source *src, const tdn__pack_plan *plan, tdn__pack_group *groups, uint8_t *records,
                     uint32_t *words, tdn__packed *out);

#endif
