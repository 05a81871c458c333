/* tendon core: keyed clips, built from descriptions and sampled with glTF semantics. */
#include "tendon/keyed_clip.h"

#include <limits.h>
#include <stdalign.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "annotations.h"
#include "block.h"
#include "curve.h"
#include "internal.h"
#include "keyed_clip_internal.h"

struct tdn_keyed_clip {
    tdn_allocator allocator;
    size_t bytes; /* this block; the annotations count separately */
    const tdn_skeleton *skeleton;
    const char *name;
    float duration;
    int joint_count;
    int track_count;
    int key_count;      /* joint and float tracks */
    tdn__curve *tracks; /* description order, which hints index */
    int *track_of;      /* joint * 3 + target -> track index, -1 when absent */
    tdn__annotations *annotations;
};

static const char *const target_names[] = { "translation", "rotation", "scale" };
static const int target_widths[] = { 3, 4, 3 };

static void track_place(char *place, size_t size, const tdn_keyed_clip_desc *desc, int i)
{
    const tdn_track_desc *d = &desc->tracks[i];
    snprintf(place, size, "track %d (joint '%s' %s)", i, tdn_skeleton_joint_name(desc->skeleton, d->joint),
             target_names[d->target]);
}

/* Validates the joint tracks, filling track_of (joint_count * 3 ints), the latest key time and
 * the key count. */
static tdn_result check_tracks(const tdn_keyed_clip_desc *desc, int joint_count, int *track_of, float *last_key,
                               long long *keys, tdn_error *err)
{
    char place[128];
    for (int i = 0; i < joint_count * 3; ++i)
        track_of[i] = -1;
    for (int i = 0; i < desc->track_count; ++i) {
        const tdn_track_desc *d = &desc->tracks[i];
        snprintf(place, sizeof place, "track %d", i);
        if (d->joint < 0 || d->joint >= joint_count)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "joint %d is out of range (the skeleton has %d joints)",
                             d->joint, joint_count);
        if ((unsigned)d->target > TDN_TARGET_SCALE)
            return tdn__fail(err, TDN_ERR_ARGUMENT, place, "unknown target %d", (int)d->target);
        track_place(place, sizeof place, desc, i);
        if ((unsigned)d->interp > TDN_INTERP_CUBIC)
            return tdn__fail(err, TDN_ERR_ARGUMENT, place, "unknown interpolation %d", (int)d->interp);
        int *slot = &track_of[d->joint * 3 + (int)d->target];
        if (*slot >= 0)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "track %d already animates this joint's %s", *slot,
                             target_names[d->target]);
        *slot = i;
        tdn__curve c = { d->times,     d->values,
                         d->key_count, target_widths[d->target],
                         d->interp,    d->target == TDN_TARGET_ROTATION };
        tdn_result r = tdn__curve_check(&c, place, err);
        if (r != TDN_OK)
            return r;
        if (d->times[d->key_count - 1] > *last_key)
            *last_key = d->times[d->key_count - 1];
        *keys += d->key_count;
    }
    return TDN_OK;
}

static void normalize_quat(float *q)
{
    /* double: keys like 1e20 are finite but their squares are not in float */
    double n = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
    for (int i = 0; i < 4; ++i)
        q[i] = (float)(q[i] / n);
}

/* Runs twice (see block.h): sizes first, then pointers and copies. */
static void layout(tdn__block *block, tdn_keyed_clip *clip, const tdn_keyed_clip_desc *desc, const char *name)
{
    (void)tdn__block_take(block, 1, sizeof *clip, alignof(tdn_keyed_clip)); /* the struct itself, at 0 */
    clip->tracks = tdn__block_take(block, (size_t)desc->track_count, sizeof *clip->tracks, alignof(tdn__curve));
    clip->track_of = tdn__block_take(block, (size_t)clip->joint_count * 3, sizeof(int), alignof(int));
    size_t name_size = strlen(name) + 1;
    char *name_copy = tdn__block_take(block, name_size, 1, 1);
    if (block->base) {
        memcpy(name_copy, name, name_size);
        clip->name = name_copy;
    }
    for (int i = 0; i < desc->track_count; ++i) {
        const tdn_track_desc *d = &desc->tracks[i];
        tdn__curve c = { d->times,     d->values,
                         d->key_count, target_widths[d->target],
                         d->interp,    d->target == TDN_TARGET_ROTATION };
        int key_floats = tdn__curve_key_floats(&c);
        size_t floats = (size_t)d->key_count * (size_t)key_floats;
        float *times = tdn__block_take(block, (size_t)d->key_count, sizeof(float), alignof(float));
        float *values = tdn__block_take(block, floats, sizeof(float), alignof(float));
        if (!block->base)
            continue;
        memcpy(times, d->times, (size_t)d->key_count * sizeof(float));
        memcpy(values, d->values, floats * sizeof(float));
        if (c.rotation) /* unit rotation values; cubic tangents stay as given */
            for (int k = 0; k < d->key_count; ++k)
                normalize_quat(values + (size_t)k * key_floats + (d->interp == TDN_INTERP_CUBIC ? 4 : 0));
        c.times = times;
        c.values = values;
        clip->tracks[i] = c;
    }
}

tdn_result tdn_keyed_clip_create(const tdn_keyed_clip_desc *desc, tdn_keyed_clip **out, const tdn_allocator *allocator,
                                 tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!desc || !out)
        return tdn__fail(err, TDN_ERR_ARGUMENT, desc ? "out" : "desc", "NULL argument");
    if (!desc->skeleton)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.skeleton", "a keyed clip needs a skeleton");
    if (desc->track_count < 0 || (desc->track_count > 0 && !desc->tracks))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.tracks", "negative track_count or NULL tracks");
    if (!tdn__finite(desc->duration) || desc->duration < 0.0f)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.duration", "duration %g is not a finite time >= 0",
                         (double)desc->duration);
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;

    tdn_keyed_clip clip = { 0 };
    clip.allocator = tdn__allocator_of(allocator);
    clip.skeleton = desc->skeleton;
    clip.joint_count = tdn_skeleton_joint_count(desc->skeleton);
    clip.track_count = desc->track_count;

    size_t track_of_bytes = (size_t)clip.joint_count * 3 * sizeof(int);
    int *track_of = tdn__alloc(allocator, track_of_bytes, alignof(int));
    if (!track_of)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "keyed clip", "out of memory (%zu bytes)", track_of_bytes);
    float last_key = 0.0f;
    long long keys = 0;
    tdn_result r = check_tracks(desc, clip.joint_count, track_of, &last_key, &keys, err);
    if (r == TDN_OK)
        r = tdn__annotations_create(desc->float_tracks, desc->float_track_count, desc->events, desc->event_count,
                                    allocator, &clip.annotations, err);
    if (r == TDN_OK) {
        keys += clip.annotations->key_count;
        if (clip.annotations->last_key_time > last_key)
            last_key = clip.annotations->last_key_time;
        clip.duration = desc->duration > 0.0f ? desc->duration : last_key;
        if (keys > INT_MAX)
            r = tdn__fail(err, TDN_ERR_INVALID_DATA, "tracks", "%lld keys in all is too many", keys);
        clip.key_count = (int)keys;
    }
    for (int i = 0; r == TDN_OK && i < desc->event_count; ++i) {
        if (desc->events[i].time > clip.duration) {
            char place[128];
            snprintf(place, sizeof place, "event %d ('%s')", i, desc->events[i].name);
            r = tdn__fail(err, TDN_ERR_INVALID_DATA, place, "event time %g is after the clip's end (%g s)",
                          (double)desc->events[i].time, (double)clip.duration);
        }
    }

    tdn_keyed_clip *result = NULL;
    if (r == TDN_OK) {
        const char *name = desc->name ? desc->name : "clip";
        tdn__block measure = { NULL, 0 };
        layout(&measure, &clip, desc, name);
        tdn__block block = { tdn__alloc(allocator, measure.size, alignof(tdn_keyed_clip)), 0 };
        if (!block.base) {
            r = tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "keyed clip", "out of memory (%zu bytes)", measure.size);
        } else {
            layout(&block, &clip, desc, name);
            memcpy(clip.track_of, track_of, track_of_bytes);
            clip.bytes = measure.size;
            result = (tdn_keyed_clip *)block.base;
            *result = clip;
        }
    }
    tdn__free(allocator, track_of, track_of_bytes);
    if (r != TDN_OK) {
        tdn__annotations_destroy(clip.annotations);
        return r;
    }
    *out = result;
    return TDN_OK;
}

void tdn_keyed_clip_destroy(tdn_keyed_clip *clip)
{
    if (!clip)
        return;
    tdn_allocator allocator = clip->allocator;
    tdn__annotations_destroy(clip->annotations);
    tdn__free(&allocator, clip, clip->bytes);
}

const char *tdn_keyed_clip_name(const tdn_keyed_clip *clip) { return clip ? clip->name : NULL; }
float tdn_keyed_clip_duration(const tdn_keyed_clip *clip) { return clip ? clip->duration : 0.0f; }
const tdn_skeleton *tdn_keyed_clip_skeleton(const tdn_keyed_clip *clip) { return clip ? clip->skeleton : NULL; }
int tdn_keyed_clip_track_count(const tdn_keyed_clip *clip) { return clip ? clip->track_count : 0; }
int tdn_keyed_clip_key_count(const tdn_keyed_clip *clip) { return clip ? clip->key_count : 0; }

/* The first key time of `track` above t (INFINITY: none), by binary search. */
static float next_key_time(const tdn__curve *track, float t)
{
    int lo = 0, hi = track->key_count;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (track->times[mid] > t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo < track->key_count ? track->times[lo] : INFINITY;
}

/* The distinct key times up to `until` into times[0 .. capacity); returns how many there are. */
static int distinct_key_times(const tdn_keyed_clip *clip, float until, float *times, int capacity)
{
    int count = 0;
    /* the smallest time above the last one, over every track, until none is left: no memory */
    for (float t = -INFINITY;;) {
        float next = INFINITY;
        for (int i = 0; clip && i < clip->track_count; i++) {
            const float k = next_key_time(&clip->tracks[i], t);
            next = k < next ? k : next;
        }
        if (next == INFINITY || next > until)
            return count;
        if (times && count < capacity)
            times[count] = next;
        count++;
        t = next;
    }
}

int tdn_keyed_clip_key_times(const tdn_keyed_clip *clip, float *times, int capacity)
{
    return distinct_key_times(clip, INFINITY, times, capacity);
}

int tdn__keyed_clip_append_key_times(const tdn_keyed_clip *clip, float until, float *times, int n)
{
    return n + distinct_key_times(clip, until, times + n, INT_MAX);
}
size_t tdn_keyed_clip_memory_size(const tdn_keyed_clip *clip)
{
    return clip ? clip->bytes + clip->annotations->bytes : 0;
}

tdn_result tdn_keyed_clip_sample(const tdn_keyed_clip *clip, float time, tdn_pose *pose, int *hints, tdn_error *err)
{
    if (!clip)
        return tdn__null(err, "clip");
    if (!pose || !pose->data)
        return tdn__null(err, "pose");
    if (pose->joint_count != clip->joint_count)
        return tdn__clip_pose_size(err, pose->joint_count, clip->joint_count);
    const float t = tdn__clamp_time(time, clip->duration);
    for (int j = 0; j < clip->joint_count; ++j) {
        const int *track = &clip->track_of[j * 3];
        tdn_transform x;
        if (track[0] < 0 || track[1] < 0 || track[2] < 0)
            x = tdn_skeleton_rest(clip->skeleton, j);
        float v[4];
        if (track[TDN_TARGET_TRANSLATION] >= 0) {
            int i = track[TDN_TARGET_TRANSLATION];
            tdn__curve_eval(&clip->tracks[i], t, hints ? &hints[i] : NULL, v);
            x.t = tdn_vec3_make(v[0], v[1], v[2]);
        }
        if (track[TDN_TARGET_ROTATION] >= 0) {
            int i = track[TDN_TARGET_ROTATION];
            tdn__curve_eval(&clip->tracks[i], t, hints ? &hints[i] : NULL, v);
            x.r = tdn_quat_make(v[0], v[1], v[2], v[3]);
        }
        if (track[TDN_TARGET_SCALE] >= 0) {
            int i = track[TDN_TARGET_SCALE];
            tdn__curve_eval(&clip->tracks[i], t, hints ? &hints[i] : NULL, v);
            x.s = tdn_vec3_make(v[0], v[1], v[2]);
        }
        tdn_pose_set(pose, j, &x);
    }
    return TDN_OK;
}

int tdn_keyed_clip_float_track_count(const tdn_keyed_clip *clip)
{
    return clip ? clip->annotations->float_track_count : 0;
}

const char *tdn_keyed_clip_float_track_name(const tdn_keyed_clip *clip, int index)
{
    return clip ? tdn__annotations_float_track_name(clip->annotations, index) : NULL;
}

int tdn_keyed_clip_find_float_track(const tdn_keyed_clip *clip, const char *name)
{
    return clip ? tdn__annotations_find(clip->annotations, name) : -1;
}

float tdn_keyed_clip_sample_float(const tdn_keyed_clip *clip, int index, float time)
{
    return clip ? tdn__annotations_sample(clip->annotations, index, tdn__clamp_time(time, clip->duration)) : 0.0f;
}

int tdn_keyed_clip_event_count(const tdn_keyed_clip *clip) { return clip ? clip->annotations->event_count : 0; }

const char *tdn_keyed_clip_event_name(const tdn_keyed_clip *clip, int index)
{
    return clip ? tdn__annotations_event_name(clip->annotations, index) : NULL;
}

const float *tdn_keyed_clip_event_times(const tdn_keyed_clip *clip)
{
    return clip ? clip->annotations->event_times : NULL;
}

const tdn__curve *tdn__keyed_clip_tracks(const tdn_keyed_clip *clip) { return clip->tracks; }
const tdn__annotations *tdn__keyed_clip_annotations(const tdn_keyed_clip *clip) { return clip->annotations; }

const tdn__curve *tdn__keyed_clip_find_track(const tdn_keyed_clip *clip, int joint, tdn_track_target target)
{
    int i = clip->track_of[joint * 3 + (int)target];
    return i >= 0 ? &clip->tracks[i] : NULL;
}
