/* tendon core: a pack's clip section ('CLIP'): a COMPRESSED runtime clip written from a clip,
 * checked (every value the sampler reads), and built as a clip whose arrays are the section's
 * bytes. The group table and the hold runs are the in-memory structs, pinned below. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pack_internal.h"

/* How far a rotation lane's mean may be from unit length (its squared length from 1). */
#define GROUP_BYTES 232
#define RUN_BYTES 16

/* The file's group table and hold runs are these structs as a little-endian machine lays them
 * out (docs/pack-format.md gives the same table). */
_Static_assert(sizeof(int) == 4 && sizeof(float) == 4, "32-bit int and float");
_Static_assert(sizeof(tdn__pack_group) == GROUP_BYTES, "group table entry");
_Static_assert(offsetof(tdn__pack_group, kind) == 0 && offsetof(tdn__pack_group, joint) == 4 &&
                   offsetof(tdn__pack_group, stride) == 20 && offsetof(tdn__pack_group, first_joint) == 24 &&
                   offsetof(tdn__pack_group, last_joint) == 28 && offsetof(tdn__pack_group, record_offset) == 32 &&
                   offsetof(tdn__pack_group, record_components) == 36 && offsetof(tdn__pack_group, min) == 40 &&
                   offsetof(tdn__pack_group, step) == 104 && offsetof(tdn__pack_group, mean) == 168,
               "group table fields");
_Static_assert(sizeof(tdn__clip_run) == RUN_BYTES && offsetof(tdn__clip_run, row) == 0 &&
                   offsetof(tdn__clip_run, joint) == 4 && offsetof(tdn__clip_run, src) == 8 &&
                   offsetof(tdn__clip_run, count) == 12,
               "hold run fields");

/* ---- writing ---- */

/* The stream words of a clip's groups (what the last stream ends at; the guard follows). */
static size_t stream_words(const tdn__packed *p)
{
    size_t end = 0;
    for (int s = 0; s < p->segment_count; s++)
        for (int g = 0; g < p->group_count; g++) {
            tdn__pack_header h;
            const tdn__pack_group *group = &p->groups[g];
            tdn__pack_record_read(p->records + (size_t)s * p->segment_record_bytes + (size_t)group->record_offset,
                                  group, &h);
            const int last = s + 1 == p->segment_count;
            const int stored = tdn__pack_stored_frames(tdn__pack_segment_frames(p->frame_count, s), h.step, last);
            const size_t e = h.word + tdn__pack_stream_words(group->stride, stored, &h);
            end = e > end ? e : end;
        }
    return end;
}

int tdn__pack_clip_string_count(const tdn_clip *c)
{
    return 1 + c->annotations->float_track_count + c->annotations->event_count;
}

/* An array of `bytes` at the next multiple of `align`: its offset into header field `field`
 * (when a field), its bytes copied from `from` (when writing). */
static size_t place(unsigned char *out, size_t *at, int field, const void *from, size_t bytes, size_t align)
{
    const size_t o = tdn__align_up(*at, align);
    if (out && field >= 0)
        tdn__pack_put_u32(out + 4 * field, (uint32_t)o);
    if (out && from && bytes > 0)
        memcpy(out + o, from, bytes);
    *at = o + bytes;
    return o;
}

/* Lays the section out into `out` (NULL: only measures); its size. */
static size_t layout(const tdn_clip *c, const uint32_t *strings, uint32_t skeleton, unsigned char *out)
{
    const tdn__packed *p = &c->packed;
    const tdn__annotations *a = c->annotations;
    const size_t A = TDN__PACK_MIN_ALIGN, words = stream_words(p);
    const size_t stride = (size_t)tdn_pose_stride(c->joint_count);
    size_t at = TDN__PACK_CLIP_HEADER_BYTES;
    if (out) {
        const uint32_t fields[][2] = { { TDN__CLIP_NAME, strings[0] },
                                       { TDN__CLIP_SKELETON, skeleton },
                                       { TDN__CLIP_FRAME_COUNT, (uint32_t)c->frame_count },
                                       { TDN__CLIP_JOINT_COUNT, (uint32_t)c->joint_count },
                                       { TDN__CLIP_ADDITIVE, (uint32_t)c->additive },
                                       { TDN__CLIP_ANIMATED_COUNT, (uint32_t)c->animated_count },
                                       { TDN__CLIP_HOLD_RUN_COUNT, (uint32_t)c->hold_run_count },
                                       { TDN__CLIP_GROUP_COUNT, (uint32_t)p->group_count },
                                       { TDN__CLIP_SEGMENT_COUNT, (uint32_t)p->segment_count },
                                       { TDN__CLIP_SEGMENT_RECORD_BYTES, (uint32_t)p->segment_record_bytes },
                                       { TDN__CLIP_WORD_COUNT, (uint32_t)words },
                                       { TDN__CLIP_FLOAT_TRACK_COUNT, (uint32_t)a->float_track_count },
                                       { TDN__CLIP_EVENT_COUNT, (uint32_t)a->event_count } };
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
            tdn__pack_put_u32(out + 4 * fields[f][0], fields[f][1]);
        memcpy(out + 4 * TDN__CLIP_DURATION, &c->duration, 4);
        memcpy(out + 4 * TDN__CLIP_SAMPLE_RATE, &c->sample_rate, 4);
    }
    place(out, &at, TDN__CLIP_HOLD_RUNS, c->hold_runs, (size_t)c->hold_run_count * RUN_BYTES, A);
    place(out, &at, TDN__CLIP_FRAMES, c->frames_f32, (size_t)c->frame_count * (size_t)c->animated_count * 4,
          TDN_PACK_ALIGN);
    if (c->constant_pose)
        place(out, &at, TDN__CLIP_CONSTANT_POSE, c->constant_pose, TDN_POSE_ROWS * stride * 4, TDN_PACK_ALIGN);
    place(out, &at, TDN__CLIP_GROUPS, p->groups, (size_t)p->group_count * GROUP_BYTES, A);
    place(out, &at, TDN__CLIP_RECORDS, p->records, (size_t)p->segment_count * p->segment_record_bytes, A);
    place(out, &at, TDN__CLIP_WORDS, p->words, words * 4, A);
    at += TDN__PACK_GUARD_WORDS * 4; /* zeros */
    const size_t table = place(out, &at, TDN__CLIP_FLOAT_TRACKS, NULL, 0, A);
    at += (size_t)a->float_track_count * TDN__PACK_FLOAT_TRACK_BYTES;
    for (int i = 0; i < a->float_track_count; i++) {
        const tdn__curve *curve = &a->float_tracks[i].curve;
        const size_t n = (size_t)curve->key_count;
        const size_t times = place(out, &at, -1, curve->times, n * 4, A);
        const size_t values = place(out, &at, -1, curve->values, n * (size_t)tdn__curve_key_floats(curve) * 4, A);
        if (out) {
            unsigned char *e = out + table + (size_t)i * TDN__PACK_FLOAT_TRACK_BYTES;
            tdn__pack_put_u32(e + 4 * TDN__TRACK_NAME, strings[1 + i]);
            tdn__pack_put_u32(e + 4 * TDN__TRACK_INTERP, (uint32_t)curve->interp);
            tdn__pack_put_u32(e + 4 * TDN__TRACK_KEY_COUNT, (uint32_t)n);
            tdn__pack_put_u32(e + 4 * TDN__TRACK_TIMES, (uint32_t)times);
            tdn__pack_put_u32(e + 4 * TDN__TRACK_VALUES, (uint32_t)values);
        }
    }
    const size_t names = place(out, &at, TDN__CLIP_EVENT_NAMES, NULL, (size_t)a->event_count * 4, A);
    for (int i = 0; out && i < a->event_count; i++)
        tdn__pack_put_u32(out + names + 4 * (size_t)i, strings[1 + a->float_track_count + i]);
    place(out, &at, TDN__CLIP_EVENT_TIMES, a->event_times, (size_t)a->event_count * 4, A);
    return tdn__align_up(at, TDN_PACK_ALIGN);
}

size_t tdn__pack_clip_size(const tdn_clip *clip) { return layout(clip, NULL, 0, NULL); }

void tdn__pack_clip_write(const tdn_clip *clip, const uint32_t *strings, uint32_t skeleton_section, unsigned char *out)
{
    layout(clip, strings, skeleton_section, out);
}

/* ---- checking ---- */

/* The checked arrays of a section (hold runs, frames, constant pose, groups, records, words). */
typedef struct arrays {
    const tdn__clip_run *hold_runs;
    const float *frames;
    const float *constant_pose; /* NULL: none */
    const tdn__pack_group *groups;
    const uint8_t *records;
    const uint32_t *words;
    const unsigned char *tracks;
    const uint32_t *event_names;
    const float *event_times;
} arrays;

/* The scalars of a checked header. */
typedef struct scalars {
    int frame_count, joint_count, animated_count, hold_run_count, group_count, segment_count, track_count, event_count;
    float duration, sample_rate;
    size_t segment_record_bytes, word_count;
} scalars;

static size_t field_byte(const tdn__pack_view *v, int s, int field)
{
    return tdn__pack_section_at(v, s).offset + 4 * (size_t)field;
}

static size_t byte_of(const tdn__pack_view *v, const void *p, size_t offset)
{
    return (size_t)((const unsigned char *)p - v->bytes) + offset;
}

/* The counts and scalars of the header, each in its range (products formed only in 64 bits
 * against the section's size, in find_arrays). */
static tdn_result check_scalars(const tdn__pack_view *v, int s, const char *what, scalars *k)
{
    const int skeleton = tdn__pack_section_ref(v, s, TDN__CLIP_SKELETON, TDN__PACK_SKELETON, "skeleton", what);
    if (skeleton < 0)
        return TDN_ERR_INVALID_DATA;
    const uint32_t joints = tdn__pack_field(v, skeleton, TDN__SKEL_JOINT_COUNT); /* checked: a skeleton's */
    if (tdn__pack_field(v, s, TDN__CLIP_JOINT_COUNT) != joints)
        return tdn__pack_fail(v, field_byte(v, s, TDN__CLIP_JOINT_COUNT),
                              "%s: joint_count %u is not its skeleton's %u (section %u)", what,
                              tdn__pack_field(v, s, TDN__CLIP_JOINT_COUNT), joints, skeleton);
    k->joint_count = (int)joints;
    k->duration = tdn__pack_field_float(v, s, TDN__CLIP_DURATION);
    k->sample_rate = tdn__pack_field_float(v, s, TDN__CLIP_SAMPLE_RATE);
    if (!tdn__finite(k->duration) || k->duration < 0.0f)
        return tdn__pack_fail(v, field_byte(v, s, TDN__CLIP_DURATION), "%s: duration %g is not finite and >= 0", what,
                              (double)k->duration);
    if (!tdn__finite(k->sample_rate) || !(k->sample_rate > 0.0f))
        return tdn__pack_fail(v, field_byte(v, s, TDN__CLIP_SAMPLE_RATE), "%s: sample_rate %g is not finite and > 0",
                              what, (double)k->sample_rate);
    const uint32_t frames = tdn__pack_field(v, s, TDN__CLIP_FRAME_COUNT);
    const double expect = tdn__clip_frame_count(k->duration, k->sample_rate);
    if (expect > TDN__CLIP_MAX_FRAMES || (double)frames != expect)
        return tdn__pack_fail(v, field_byte(v, s, TDN__CLIP_FRAME_COUNT),
                              "%s: frame_count %u is not the %.0f frames of %g s at %g frames/s (at most %d)", what,
                              frames, expect, (double)k->duration, (double)k->sample_rate, TDN__CLIP_MAX_FRAMES);
    k->frame_count = (int)frames;
    if (tdn__pack_field(v, s, TDN__CLIP_ADDITIVE) > 1)
        return tdn__pack_fail(v, field_byte(v, s, TDN__CLIP_ADDITIVE), "%s: additive %u is not 0 or 1", what,
                              tdn__pack_field(v, s, TDN__CLIP_ADDITIVE));
    const struct {
        int field;
        uint32_t limit;
        const char *name;
        int *out;
    } counts[] = {
        { TDN__CLIP_ANIMATED_COUNT, TDN_POSE_ROWS * joints, "animated_count", &k->animated_count },
        { TDN__CLIP_HOLD_RUN_COUNT, TDN_POSE_ROWS * joints, "hold_run_count", &k->hold_run_count },
        { TDN__CLIP_GROUP_COUNT, 3 * joints, "group_count", &k->group_count },
        { TDN__CLIP_FLOAT_TRACK_COUNT, INT32_MAX, "float_track_count", &k->track_count },
        { TDN__CLIP_EVENT_COUNT, INT32_MAX, "event_count", &k->event_count },
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        const uint32_t n = tdn__pack_field(v, s, counts[i].field);
        if (n > counts[i].limit)
            return tdn__pack_fail(v, field_byte(v, s, counts[i].field), "%s: %s %u is above %u", what, counts[i].name,
                                  n, counts[i].limit);
        *counts[i].out = (int)n;
    }
    const uint32_t segments = tdn__pack_field(v, s, TDN__CLIP_SEGMENT_COUNT);
    const uint32_t expect_segments = (frames + TDN__PACK_SEGMENT - 1) / TDN__PACK_SEGMENT;
    if (segments != expect_segments)
        return tdn__pack_fail(v, field_byte(v, s, TDN__CLIP_SEGMENT_COUNT),
                              "%s: segment_count %u is not ceil(%u frames / %d) = %u", what, segments, frames,
                              TDN__PACK_SEGMENT, expect_segments);
    k->segment_count = (int)segments;
    k->segment_record_bytes = tdn__pack_field(v, s, TDN__CLIP_SEGMENT_RECORD_BYTES);
    k->word_count = tdn__pack_field(v, s, TDN__CLIP_WORD_COUNT);
    return TDN_OK;
}

/* Whether `count` elements of `elem` bytes could fit in the section (in 64 bits, so that no
 * product overflows a 32-bit size_t either). */
static tdn_result fits(const tdn__pack_view *v, int s, int field, uint64_t count, size_t elem, const char *what,
                       const char *name)
{
    if (count > tdn__pack_section_at(v, s).size / elem)
        return tdn__pack_fail(v, field_byte(v, s, field), "%s: %llu %s of %zu bytes are more than the section holds",
                              what, (unsigned long long)count, name, elem);
    return TDN_OK;
}

static tdn_result find_arrays(const tdn__pack_view *v, int s, const scalars *k, const char *what, arrays *a)
{
    const size_t A = TDN__PACK_MIN_ALIGN;
    const uint64_t frame_floats = (uint64_t)k->frame_count * (uint64_t)k->animated_count;
    const uint64_t record_bytes = (uint64_t)k->segment_count * k->segment_record_bytes;
    /* each count against what the section could hold, named at the count */
    const struct {
        int field;
        uint64_t count;
        size_t elem;
        const char *name;
    } sizes[] = {
        { TDN__CLIP_ANIMATED_COUNT, frame_floats, 4, "frame values" },
        { TDN__CLIP_HOLD_RUN_COUNT, (uint64_t)k->hold_run_count, RUN_BYTES, "hold runs" },
        { TDN__CLIP_GROUP_COUNT, (uint64_t)k->group_count, GROUP_BYTES, "groups" },
        { TDN__CLIP_SEGMENT_RECORD_BYTES, record_bytes, 1, "record bytes" },
        { TDN__CLIP_WORD_COUNT, (uint64_t)k->word_count + TDN__PACK_GUARD_WORDS, 4, "words" },
        { TDN__CLIP_FLOAT_TRACK_COUNT, (uint64_t)k->track_count, TDN__PACK_FLOAT_TRACK_BYTES, "float tracks" },
        { TDN__CLIP_EVENT_COUNT, (uint64_t)k->event_count, 8, "events" },
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const tdn_result res = fits(v, s, sizes[i].field, sizes[i].count, sizes[i].elem, what, sizes[i].name);
        if (res != TDN_OK)
            return res;
    }
    const size_t stride = (size_t)tdn_pose_stride(k->joint_count);
    if (!(a->hold_runs = tdn__pack_array(v, s, TDN__CLIP_HOLD_RUNS, (size_t)k->hold_run_count, RUN_BYTES, A, what,
                                         "hold_runs")) ||
        !(a->frames = tdn__pack_array(v, s, TDN__CLIP_FRAMES, (size_t)frame_floats, 4, TDN_PACK_ALIGN, what,
                                      "frames")) ||
        !(a->groups = tdn__pack_array(v, s, TDN__CLIP_GROUPS, (size_t)k->group_count, GROUP_BYTES, A, what,
                                      "groups")) ||
        !(a->records = tdn__pack_array(v, s, TDN__CLIP_RECORDS, (size_t)record_bytes, 1, A, what, "records")) ||
        !(a->words = tdn__pack_array(v, s, TDN__CLIP_WORDS, k->word_count + TDN__PACK_GUARD_WORDS, 4, A, what,
                                     "words")) ||
        !(a->tracks = tdn__pack_array(v, s, TDN__CLIP_FLOAT_TRACKS, (size_t)k->track_count, TDN__PACK_FLOAT_TRACK_BYTES,
                                      A, what, "float_tracks")) ||
        !(a->event_names = tdn__pack_array(v, s, TDN__CLIP_EVENT_NAMES, (size_t)k->event_count, 4, A, what,
                                           "event_names")) ||
        !(a->event_times = tdn__pack_array(v, s, TDN__CLIP_EVENT_TIMES, (size_t)k->event_count, 4, A, what,
                                           "event_times")))
        return TDN_ERR_INVALID_DATA;
    a->constant_pose = NULL;
    if (tdn__pack_field(v, s, TDN__CLIP_CONSTANT_POSE) != 0 &&
        !(a->constant_pose = tdn__pack_array(v, s, TDN__CLIP_CONSTANT_POSE, TDN_POSE_ROWS * stride, 4, TDN_PACK_ALIGN,
                                             what, "constant_pose")))
        return TDN_ERR_INVALID_DATA;
    return TDN_OK;
}

/* Hold runs: rows, joints and frame slots in range; the frames they read finite. */
static tdn_result check_holds(const tdn__pack_view *v, const scalars *k, const arrays *a, const char *what)
{
    for (int r = 0; r < k->hold_run_count; r++) {
        const tdn__clip_run *run = &a->hold_runs[r];
        const size_t at = byte_of(v, run, 0);
        if (run->row < 0 || run->row >= TDN_POSE_ROWS)
            return tdn__pack_fail(v, at + offsetof(tdn__clip_run, row), "%s: hold run %d: row %d is outside 0..%d",
                                  what, r, run->row, TDN_POSE_ROWS - 1);
        if (run->count < 1 || run->count > k->joint_count)
            return tdn__pack_fail(v, at + offsetof(tdn__clip_run, count), "%s: hold run %d: count %d is outside 1..%d",
                                  what, r, run->count, k->joint_count);
        if (run->joint < 0 || run->joint > k->joint_count - run->count)
            return tdn__pack_fail(v, at + offsetof(tdn__clip_run, joint),
                                  "%s: hold run %d: joints %d..%lld are not all below the joint count %d", what, r,
                                  run->joint, (long long)run->joint + run->count - 1, k->joint_count);
        if (run->src < 0 || run->src > k->animated_count - run->count)
            return tdn__pack_fail(v, at + offsetof(tdn__clip_run, src),
                                  "%s: hold run %d: values %d..%lld of a frame are not all below animated_count %d",
                                  what, r, run->src, (long long)run->src + run->count - 1, k->animated_count);
    }
    const long bad = tdn__pack_first_nonfinite(a->frames, (size_t)k->frame_count * (size_t)k->animated_count);
    if (bad >= 0)
        return tdn__pack_fail(v, byte_of(v, a->frames, 4 * (size_t)bad), "%s: frames[%ld] is not finite", what, bad);
    return TDN_OK;
}

/* The constant pose: finite, the padding lanes past the joints at identity. */
static tdn_result check_constant_pose(const tdn__pack_view *v, const scalars *k, const arrays *a, const char *what)
{
    if (!a->constant_pose)
        return TDN_OK;
    const size_t stride = (size_t)tdn_pose_stride(k->joint_count);
    const long bad = tdn__pack_first_nonfinite(a->constant_pose, TDN_POSE_ROWS * stride);
    if (bad >= 0)
        return tdn__pack_fail(v, byte_of(v, a->constant_pose, 4 * (size_t)bad), "%s: constant_pose[%ld] is not finite",
                              what, bad);
    /* The padding lies in each row's last TDN_POSE_LANES lanes: they are compared all at once
     * (masks of a fixed count, which the compiler makes vector operations), the first that
     * differs searched for only on failure. */
    enum { LANES = TDN_POSE_LANES };
    const size_t joints = (size_t)k->joint_count, last = stride - LANES;
    int32_t padding[LANES], lanes_differ[LANES] = { 0 }, differs = 0;
    for (size_t j = 0; j < LANES; j++)
        padding[j] = -(int32_t)(last + j >= joints);
    for (int r = 0; stride > joints && r < TDN_POSE_ROWS; r++) {
        const float identity = r == TDN_RW || r >= TDN_SX ? 1.0f : 0.0f,
                    *lanes = a->constant_pose + (size_t)r * stride + last;
        for (size_t j = 0; j < LANES; j++)
            lanes_differ[j] |= padding[j] & -(int32_t)(lanes[j] != identity);
    }
    for (size_t j = 0; j < LANES; j++)
        differs |= lanes_differ[j];
    for (int r = 0; differs && r < TDN_POSE_ROWS; r++) {
        const float identity = r == TDN_RW || r >= TDN_SX ? 1.0f : 0.0f;
        for (size_t j = joints; j < stride; j++)
            if (a->constant_pose[(size_t)r * stride + j] != identity)
                return tdn__pack_fail(v, byte_of(v, a->constant_pose, 4 * ((size_t)r * stride + j)),
                                      "%s: constant_pose row %d padding lane %zu is %g, not %g", what, r, j,
                                      (double)a->constant_pose[(size_t)r * stride + j], (double)identity);
    }
    return TDN_OK;
}

/* Group g: kind, lanes and joints, its record's size and place, its ranges and means. */
static tdn_result check_group(const tdn__pack_view *v, const scalars *k, const tdn__pack_group *g, int gi,
                              size_t record_offset, const char *what)
{
    const size_t at = byte_of(v, g, 0);
    if (g->kind != TDN__PACK_T && g->kind != TDN__PACK_R && g->kind != TDN__PACK_S)
        return tdn__pack_fail(v, at + offsetof(tdn__pack_group, kind), "%s: group %d: kind %d is not 0, 1 or 2 (T R S)",
                              what, gi, g->kind);
    if (g->stride < 1 || g->stride > TDN__PACK_LANES)
        return tdn__pack_fail(v, at + offsetof(tdn__pack_group, stride), "%s: group %d: stride %d is outside 1..%d",
                              what, gi, g->stride, TDN__PACK_LANES);
    int lo = k->joint_count, hi = -1;
    for (int i = 0; i < TDN__PACK_LANES; i++) {
        const int j = g->joint[i];
        if (i < g->stride ? j < 0 || j >= k->joint_count : j != -1)
            return tdn__pack_fail(v, at + offsetof(tdn__pack_group, joint) + 4 * (size_t)i,
                                  i < g->stride ? "%s: group %d: joint[%d] = %d is not a joint (0..%d)"
                                                : "%s: group %d: joint[%d] = %d past the stride is not -1",
                                  what, gi, i, j, k->joint_count - 1);
        if (i < g->stride) {
            lo = j < lo ? j : lo;
            hi = j > hi ? j : hi;
        }
    }
    if (g->first_joint != lo)
        return tdn__pack_fail(v, at + offsetof(tdn__pack_group, first_joint),
                              "%s: group %d: first_joint %d is not its smallest joint %d", what, gi, g->first_joint,
                              lo);
    if (g->last_joint != hi)
        return tdn__pack_fail(v, at + offsetof(tdn__pack_group, last_joint),
                              "%s: group %d: last_joint %d is not its largest joint %d", what, gi, g->last_joint, hi);
    if (g->record_components != 3 && !(g->record_components == 4 && g->kind == TDN__PACK_R))
        return tdn__pack_fail(v, at + offsetof(tdn__pack_group, record_components),
                              "%s: group %d: record_components %d is not 3 (or 4 for a rotation group)", what, gi,
                              g->record_components);
    if ((size_t)g->record_offset != record_offset)
        return tdn__pack_fail(v, at + offsetof(tdn__pack_group, record_offset),
                              "%s: group %d: record_offset %d is not %zu (the records of the groups before)", what, gi,
                              g->record_offset, record_offset);
    const long bad = tdn__pack_first_nonfinite(&g->min[0][0], 3 * 4 * TDN__PACK_LANES); /* min, step, mean */
    if (bad >= 0)
        return tdn__pack_fail(v, at + offsetof(tdn__pack_group, min) + 4 * (size_t)bad,
                              "%s: group %d: %s[%ld][%ld] is not finite", what, gi,
                              bad < 16   ? "min"
                              : bad < 32 ? "step"
                                         : "mean",
                              bad % 16 / 4, bad % 4);
    for (int i = 0; g->kind == TDN__PACK_R && i < g->stride; i++) {
        float len2 = 0.0f;
        for (int c = 0; c < 4; c++)
            len2 += g->mean[c][i] * g->mean[c][i];
        if (!(fabsf(len2 - 1.0f) <= TDN__PACK_UNIT_TOLERANCE))
            return tdn__pack_fail(v, at + offsetof(tdn__pack_group, mean) + 4 * (size_t)i,
                                  "%s: group %d: lane %d's mean rotation has squared length %g, not 1", what, gi, i,
                                  (double)len2);
    }
    return TDN_OK;
}

/* The record of group g in segment s: bits, components, step, and its streams inside the words. */
static tdn_result check_record(const tdn__pack_view *v, const scalars *k, const arrays *a, int gi, int s,
                               const char *what)
{
    const tdn__pack_group *g = &a->groups[gi];
    const uint8_t *record = a->records + (size_t)s * k->segment_record_bytes + (size_t)g->record_offset;
    const size_t at = byte_of(v, record, 0);
    tdn__pack_header h;
    tdn__pack_record_read(record, g, &h);
    const int n = tdn__pack_segment_frames(k->frame_count, s), last = s + 1 == k->segment_count;
    if (h.bits > TDN__PACK_MAX_BITS)
        return tdn__pack_fail(v, at, "%s: group %d record in segment %d: bits %d > %d", what, gi, s, h.bits,
                              TDN__PACK_MAX_BITS);
    if ((h.components != 3 && h.components != 4) || h.components > g->record_components)
        return tdn__pack_fail(v, at + 1, "%s: group %d record in segment %d: components %d is not 3 or %d", what, gi, s,
                              h.components, g->record_components);
    if ((h.step != 1 && h.step != 2 && h.step != 4 && h.step != 8) || (last && (n - 1) % h.step != 0))
        return tdn__pack_fail(v, at + 2,
                              "%s: group %d record in segment %d: step %d is not 1, 2, 4 or 8 (in the last "
                              "segment, dividing its %d frames - 1)",
                              what, gi, s, h.step, n);
    const size_t words = tdn__pack_stream_words(g->stride, tdn__pack_stored_frames(n, h.step, last), &h);
    if (h.word > k->word_count || words > k->word_count - h.word)
        return tdn__pack_fail(v, at + 4,
                              "%s: group %d record in segment %d: streams at word %u of %zu words run past the "
                              "word_count %zu",
                              what, gi, s, h.word, words, k->word_count);
    return TDN_OK;
}

/* No track in two groups: a sample writes each track from one group (a clip cache keeps one
 * group's frames per track). Joints are marked per kind in windows of WINDOW joints, so that the
 * marks stay small on the stack whatever the joint count. */
#define WINDOW 4096
static tdn_result check_tracks_once(const tdn__pack_view *v, const scalars *k, const arrays *a, const char *what)
{
    for (int base = 0; base < k->joint_count; base += WINDOW) {
        uint8_t seen[3][WINDOW / 8];
        const int marks = k->joint_count - base < WINDOW ? k->joint_count - base : WINDOW;
        for (int kind = 0; kind < 3; kind++) /* the window's marks only */
            memset(seen[kind], 0, (size_t)(marks + 7) / 8);
        for (int gi = 0; gi < k->group_count; gi++) {
            const tdn__pack_group *g = &a->groups[gi];
            for (int i = 0; i < g->stride; i++) {
                const int j = g->joint[i] - base;
                if (j < 0 || j >= WINDOW)
                    continue;
                uint8_t *mark = &seen[g->kind][j / 8];
                if (*mark >> (j % 8) & 1)
                    return tdn__pack_fail(v, byte_of(v, g, offsetof(tdn__pack_group, joint) + 4 * (size_t)i),
                                          "%s: group %d: joint[%d] = %d is in an earlier group of its kind", what, gi,
                                          i, g->joint[i]);
                *mark = (uint8_t)(*mark | 1u << (j % 8));
            }
        }
    }
    return TDN_OK;
}

static tdn_result check_groups(const tdn__pack_view *v, int s, const scalars *k, const arrays *a, const char *what)
{
    size_t record_offset = 0;
    for (int gi = 0; gi < k->group_count; gi++) {
        const tdn_result res = check_group(v, k, &a->groups[gi], gi, record_offset, what);
        if (res != TDN_OK)
            return res;
        record_offset += tdn__pack_record_size(&a->groups[gi]);
    }
    const tdn_result once = check_tracks_once(v, k, a, what);
    if (once != TDN_OK)
        return once;
    if (k->segment_record_bytes != record_offset)
        return tdn__pack_fail(v, field_byte(v, s, TDN__CLIP_SEGMENT_RECORD_BYTES),
                              "%s: segment_record_bytes %zu is not %zu (the sum of the groups' records)", what,
                              k->segment_record_bytes, record_offset);
    for (int seg = 0; seg < k->segment_count; seg++)
        for (int gi = 0; gi < k->group_count; gi++) {
            const tdn_result res = check_record(v, k, a, gi, seg, what);
            if (res != TDN_OK)
                return res;
        }
    for (size_t w = 0; w < TDN__PACK_GUARD_WORDS; w++)
        if (a->words[k->word_count + w] != 0)
            return tdn__pack_fail(v, byte_of(v, a->words, 4 * (k->word_count + w)),
                                  "%s: guard word %zu after the streams is %u, not 0", what, w,
                                  a->words[k->word_count + w]);
    return TDN_OK;
}

/* "clip 3: float track 1": the clip's name for messages, then its part's. */
#define PLACE_BYTES 64
static const char *part_place(char place[PLACE_BYTES], const char *what, const char *part, int i)
{
    char tail[PLACE_BYTES];
    place[0] = '\0';
    return tdn__append(tdn__append(place, PLACE_BYTES, what), PLACE_BYTES, tdn__place(tail, sizeof tail, part, i, ""));
}

/* Float track i's entry as a curve over the section's bytes; NULL arrays after failing. */
static tdn_result track_at(const tdn__pack_view *v, int s, const arrays *a, int i, const char *what,
                           tdn__float_track *out)
{
    const unsigned char *e = a->tracks + (size_t)i * TDN__PACK_FLOAT_TRACK_BYTES;
    const size_t at = byte_of(v, e, 0);
    char buf[PLACE_BYTES]; /* building passes "": the section is checked, nothing fails */
    const char *place = what[0] ? part_place(buf, what, ": float track ", i) : what;
    for (int f = TDN__TRACK_FIELDS; f < TDN__PACK_FLOAT_TRACK_BYTES / 4; f++)
        if (tdn__pack_u32(e + 4 * f) != 0)
            return tdn__pack_fail(v, at + 4 * (size_t)f, "%s: reserved field %d is %u, not 0", place, f,
                                  tdn__pack_u32(e + 4 * f));
    const uint32_t interp = tdn__pack_u32(e + 4 * TDN__TRACK_INTERP), n = tdn__pack_u32(e + 4 * TDN__TRACK_KEY_COUNT);
    if (interp > TDN_INTERP_CUBIC)
        return tdn__pack_fail(v, at + 4 * TDN__TRACK_INTERP, "%s: interp %u is not 0, 1 or 2 (linear, step, cubic)",
                              place, interp);
    const size_t most = tdn__pack_section_at(v, s).size / 4; /* a key takes at least 4 bytes of it */
    if (n < 1 || n > most || n > INT32_MAX / 3)
        return tdn__pack_fail(v, at + 4 * TDN__TRACK_KEY_COUNT, "%s: key_count %u is outside 1..%zu", place, n,
                              most < INT32_MAX / 3 ? most : INT32_MAX / 3);
    out->name = tdn__pack_string(v, at + 4 * TDN__TRACK_NAME, tdn__pack_u32(e + 4 * TDN__TRACK_NAME), place);
    tdn__curve c = { NULL, NULL, (int)n, 1, (tdn_interp)interp, 0 };
    if (out->name)
        c.times = tdn__pack_array_at(v, s, at + 4 * TDN__TRACK_TIMES, tdn__pack_u32(e + 4 * TDN__TRACK_TIMES), n, 4,
                                     TDN__PACK_MIN_ALIGN, place, "times");
    if (c.times)
        c.values = tdn__pack_array_at(v, s, at + 4 * TDN__TRACK_VALUES, tdn__pack_u32(e + 4 * TDN__TRACK_VALUES),
                                      (size_t)n * (size_t)tdn__curve_key_floats(&c), 4, TDN__PACK_MIN_ALIGN, place,
                                      "values");
    out->curve = c;
    return c.values ? TDN_OK : TDN_ERR_INVALID_DATA;
}

/* A curve tdn__curve_check refused: the byte of the key it names (its time, or the value that
 * is not finite). */
static tdn_result curve_fail(const tdn__pack_view *v, const tdn__curve *c, const tdn_error *why, const char *what,
                             int i)
{
    const char *key = strrchr(why->where, ' ');
    const int k = key ? atoi(key + 1) : 0;
    const float t = c->times[k];
    size_t at = byte_of(v, c->times, 4 * (size_t)k);
    if (tdn__finite(t) && t >= 0.0f && (k == 0 || t > c->times[k - 1])) {
        const int width = tdn__curve_key_floats(c);
        at = byte_of(v, c->values, 4 * (size_t)k * (size_t)width);
        for (int f = width - 1; f >= 0; f--)
            if (!tdn__finite(c->values[(size_t)k * (size_t)width + (size_t)f]))
                at = byte_of(v, c->values, 4 * ((size_t)k * (size_t)width + (size_t)f));
    }
    return tdn__pack_fail(v, at, "%s: float track %d key %d: %s", what, i, k, why->message);
}

static tdn_result check_annotations(const tdn__pack_view *v, int s, const scalars *k, const arrays *a, const char *what)
{
    for (int i = 0; i < k->track_count; i++) {
        tdn__float_track t;
        if (track_at(v, s, a, i, what, &t) != TDN_OK)
            return TDN_ERR_INVALID_DATA;
        tdn_error why; /* 516 bytes, written only when the curve is refused (by tdn__fail) */
        if (tdn__curve_check(&t.curve, "", &why) != TDN_OK)
            return curve_fail(v, &t.curve, &why, what, i);
    }
    for (int i = 0; i < k->event_count; i++) {
        char place[PLACE_BYTES];
        part_place(place, what, ": event ", i);
        if (!tdn__pack_string(v, byte_of(v, a->event_names, 4 * (size_t)i), a->event_names[i], place))
            return TDN_ERR_INVALID_DATA;
        const float t = a->event_times[i];
        if (!tdn__finite(t) || t < 0.0f || t > k->duration || (i > 0 && t < a->event_times[i - 1]))
            return tdn__pack_fail(v, byte_of(v, a->event_times, 4 * (size_t)i),
                                  "%s: time %g is not finite in [0, %g] (the duration) and not before event %d's",
                                  place, (double)t, (double)k->duration, i - 1);
    }
    return TDN_OK;
}

static tdn_result check_section(const tdn__pack_view *v, int s, const char *what, scalars *k, arrays *a)
{
    tdn_result res = tdn__pack_check_header(v, s, TDN__CLIP_FIELDS, TDN__CLIP_NAME, what);
    if (res == TDN_OK)
        res = check_scalars(v, s, what, k);
    if (res == TDN_OK)
        res = find_arrays(v, s, k, what, a);
    return res;
}

static tdn_result check(const tdn__pack_view *v, int s, int index)
{
    char what[32];
    tdn__place(what, sizeof what, "clip ", index, "");
    scalars k;
    arrays a;
    tdn_result res = check_section(v, s, what, &k, &a);
    if (res == TDN_OK)
        res = check_holds(v, &k, &a, what);
    if (res == TDN_OK)
        res = check_constant_pose(v, &k, &a, what);
    if (res == TDN_OK)
        res = check_groups(v, s, &k, &a, what);
    if (res == TDN_OK)
        res = check_annotations(v, s, &k, &a, what);
    return res;
}

/* ---- building ---- */

static size_t extra_bytes(const tdn__pack_view *v, int s)
{
    return tdn__align_up((size_t)tdn__pack_field(v, s, TDN__CLIP_FLOAT_TRACK_COUNT) * sizeof(tdn__float_track),
                         sizeof(void *)) +
           (size_t)tdn__pack_field(v, s, TDN__CLIP_EVENT_COUNT) * sizeof(const char *);
}

static void build(const tdn__pack_view *v, int s, void *object, void *extra, const int *object_of_section)
{
    tdn__pack_clip *o = object;
    scalars k;
    arrays a;
    check_scalars(v, s, "", &k); /* the header is checked: its scalars and arrays are found again */
    find_arrays(v, s, &k, "", &a);
    tdn__annotations *an = &o->annotations;
    an->float_track_count = k.track_count;
    an->event_count = k.event_count;
    an->float_tracks = extra;
    an->event_names = (const char **)((unsigned char *)extra +
                                      tdn__align_up((size_t)k.track_count * sizeof(tdn__float_track), sizeof(void *)));
    an->event_times = (float *)(uintptr_t)a.event_times; /* never written through */
    for (int i = 0; i < k.track_count; i++) {
        track_at(v, s, &a, i, "", &an->float_tracks[i]);
        const tdn__curve *c = &an->float_tracks[i].curve;
        /* tracks may share keys: a count past INT32_MAX stays there */
        an->key_count = an->key_count > INT32_MAX - c->key_count ? INT32_MAX : an->key_count + c->key_count;
        if (c->times[c->key_count - 1] > an->last_key_time)
            an->last_key_time = c->times[c->key_count - 1];
    }
    for (int i = 0; i < k.event_count; i++)
        an->event_names[i] = v->strings + a.event_names[i];

    o->skeleton = object_of_section[tdn__pack_field(v, s, TDN__CLIP_SKELETON)];
    tdn_clip *c = &o->clip; /* allocator zeroed and bytes 0: the pack frees it */
    c->name = tdn__pack_name(v, s, TDN__CLIP_NAME, "");
    c->duration = k.duration;
    c->sample_rate = k.sample_rate;
    c->frame_count = k.frame_count;
    c->frames_per_second = k.frame_count > 1 ? (k.frame_count - 1) / (double)k.duration : 0.0;
    c->joint_count = k.joint_count;
    c->additive = (int)tdn__pack_field(v, s, TDN__CLIP_ADDITIVE);
    c->storage = TDN_STORAGE_COMPRESSED;
    c->animated_count = k.animated_count;
    c->hold_run_count = k.hold_run_count;
    /* the clip never writes through these: they stay the caller's read-only bytes */
    c->hold_runs = (tdn__clip_run *)(uintptr_t)a.hold_runs;
    c->frames_f32 = a.frames;
    c->constant_pose = (float *)(uintptr_t)a.constant_pose;
    c->packed.frame_count = k.frame_count;
    c->packed.group_count = k.group_count;
    c->packed.segment_count = k.segment_count;
    c->packed.groups = a.groups;
    c->packed.records = a.records;
    c->packed.segment_record_bytes = k.segment_record_bytes;
    c->packed.words = a.words;
    c->annotations = an;
    /* as a build sets it: some rotation component is not constant */
    for (int g = 0; g < k.group_count; g++)
        c->animates_rotation |= a.groups[g].kind == TDN__PACK_R;
    for (int r = 0; r < k.hold_run_count; r++)
        c->animates_rotation |= a.hold_runs[r].row >= TDN_RX && a.hold_runs[r].row <= TDN_RW;
}

const tdn__pack_reader tdn__pack_clip_reader = {
    TDN__PACK_CLIP, sizeof(tdn__pack_clip), _Alignof(tdn__pack_clip), check, extra_bytes, build
};
