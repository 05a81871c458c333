/* tendon core: float tracks and events of a clip, validated, copied and sorted. */
#include "annotations.h"

#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "internal.h"

/* Sort records: ties broken by the description index, which makes qsort stable. */
typedef struct name_rec {
    const char *name;
    int index;
} name_rec;
typedef struct time_rec {
    float time;
    int index;
} time_rec;

static int compare_names(const void *a, const void *b)
{
    const name_rec *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int compare_times(const void *a, const void *b)
{
    const time_rec *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static tdn_result check_tracks(const tdn_float_track_desc *tracks, int count, name_rec *names, tdn_error *err)
{
    char place[128];
    for (int i = 0; i < count; ++i) {
        const tdn_float_track_desc *d = &tracks[i];
        if (!d->name) {
            snprintf(place, sizeof place, "float track %d", i);
            return tdn__fail(err, TDN_ERR_ARGUMENT, place, "float track name is NULL");
        }
        snprintf(place, sizeof place, "float track %d ('%s')", i, d->name);
        if ((unsigned)d->interp > TDN_INTERP_CUBIC)
            return tdn__fail(err, TDN_ERR_ARGUMENT, place, "unknown interpolation %d", (int)d->interp);
        tdn__curve c = { d->times, d->values, d->key_count, 1, d->interp, 0 };
        tdn_result r = tdn__curve_check(&c, place, err);
        if (r != TDN_OK)
            return r;
        names[i].name = d->name;
        names[i].index = i;
    }
    qsort(names, (size_t)count, sizeof *names, compare_names);
    for (int i = 1; i < count; ++i) {
        if (strcmp(names[i - 1].name, names[i].name) == 0) {
            snprintf(place, sizeof place, "float track %d ('%s')", names[i].index, names[i].name);
            return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "float track %d has the same name", names[i - 1].index);
        }
    }
    return TDN_OK;
}

static tdn_result check_events(const tdn_event_desc *events, int count, time_rec *order, tdn_error *err)
{
    char place[128];
    for (int i = 0; i < count; ++i) {
        if (!events[i].name) {
            snprintf(place, sizeof place, "event %d", i);
            return tdn__fail(err, TDN_ERR_ARGUMENT, place, "event name is NULL");
        }
        if (!tdn__finite(events[i].time) || events[i].time < 0.0f) {
            snprintf(place, sizeof place, "event %d ('%s')", i, events[i].name);
            return tdn__fail(err, TDN_ERR_INVALID_DATA, place, "event time %g is not a finite time >= 0",
                             (double)events[i].time);
        }
        order[i].time = events[i].time;
        order[i].index = i;
    }
    qsort(order, (size_t)count, sizeof *order, compare_times);
    return TDN_OK;
}

static char *copy_string(tdn__block *block, const char *s)
{
    size_t n = strlen(s) + 1;
    char *dst = tdn__block_take(block, n, 1, 1);
    if (dst)
        memcpy(dst, s, n);
    return dst;
}

/* Runs twice (see block.h); `a` receives the pointers on the second run. */
static void layout(tdn__block *block, tdn__annotations *a, const tdn_float_track_desc *tracks,
                   const tdn_event_desc *events, const time_rec *order)
{
    (void)tdn__block_take(block, 1, sizeof *a, alignof(tdn__annotations)); /* the struct itself, at 0 */
    a->float_tracks = tdn__block_take(block, (size_t)a->float_track_count, sizeof *a->float_tracks,
                                      alignof(tdn__float_track));
    a->event_names = tdn__block_take(block, (size_t)a->event_count, sizeof *a->event_names, alignof(const char *));
    a->event_times = tdn__block_take(block, (size_t)a->event_count, sizeof *a->event_times, alignof(float));
    for (int i = 0; i < a->float_track_count; ++i) {
        const tdn_float_track_desc *d = &tracks[i];
        tdn__curve c = { d->times, d->values, d->key_count, 1, d->interp, 0 };
        size_t floats = (size_t)d->key_count * (size_t)tdn__curve_key_floats(&c);
        float *times = tdn__block_take(block, (size_t)d->key_count, sizeof(float), alignof(float));
        float *values = tdn__block_take(block, floats, sizeof(float), alignof(float));
        const char *name = copy_string(block, d->name);
        if (block->base) {
            memcpy(times, d->times, (size_t)d->key_count * sizeof(float));
            memcpy(values, d->values, floats * sizeof(float));
            c.times = times;
            c.values = values;
            a->float_tracks[i].name = name;
            a->float_tracks[i].curve = c;
        }
    }
    for (int i = 0; i < a->event_count; ++i) {
        const char *name = copy_string(block, events[order[i].index].name);
        if (block->base) {
            a->event_names[i] = name;
            a->event_times[i] = order[i].time;
        }
    }
}

tdn_result tdn__annotations_create(const tdn_float_track_desc *tracks, int track_count, const tdn_event_desc *events,
                                   int event_count, const tdn_allocator *allocator, tdn__annotations **out,
                                   tdn_error *err)
{
    *out = NULL;
    if (track_count < 0 || event_count < 0 || (track_count > 0 && !tracks) || (event_count > 0 && !events))
        return tdn__fail(err, TDN_ERR_ARGUMENT,
                         track_count < 0 || (track_count > 0 && !tracks) ? "float_tracks" : "events",
                         "negative count or NULL array");

    size_t scratch_bytes = (size_t)track_count * sizeof(name_rec) + (size_t)event_count * sizeof(time_rec);
    void *scratch = tdn__alloc(allocator, scratch_bytes, alignof(name_rec));
    if (!scratch)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "annotations", "out of memory (%zu bytes)", scratch_bytes);
    name_rec *names = scratch;
    time_rec *order = (time_rec *)(names + track_count);

    tdn_result r = check_tracks(tracks, track_count, names, err);
    if (r == TDN_OK)
        r = check_events(events, event_count, order, err);

    tdn__annotations a = { 0 };
    if (r == TDN_OK) {
        a.float_track_count = track_count;
        a.event_count = event_count;
        tdn__block measure = { NULL, 0 };
        layout(&measure, &a, tracks, events, order);
        tdn__block block = { tdn__alloc(allocator, measure.size, alignof(tdn__annotations)), 0 };
        if (!block.base) {
            r = tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "annotations", "out of memory (%zu bytes)", measure.size);
        } else {
            layout(&block, &a, tracks, events, order);
            if (allocator)
                a.allocator = *allocator;
            a.bytes = measure.size;
            for (int i = 0; i < track_count; ++i) {
                const tdn__curve *c = &a.float_tracks[i].curve;
                a.key_count += c->key_count;
                if (c->times[c->key_count - 1] > a.last_key_time)
                    a.last_key_time = c->times[c->key_count - 1];
            }
            memcpy(block.base, &a, sizeof a);
            *out = (tdn__annotations *)block.base;
        }
    }
    tdn__free(allocator, scratch, scratch_bytes);
    return r;
}

/* The same place in a copy of the block. */
static void *rebase(const void *p, const tdn__annotations *from, tdn__annotations *to)
{
    return (char *)to + ((const char *)p - (const char *)from);
}

tdn_result tdn__annotations_clone(const tdn__annotations *src, const tdn_allocator *allocator, tdn__annotations **out,
                                  tdn_error *err)
{
    *out = NULL;
    tdn__annotations *a = tdn__alloc(allocator, src->bytes, alignof(tdn__annotations));
    if (!a)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "annotations", "out of memory (%zu bytes)", src->bytes);
    memcpy(a, src, src->bytes);
    a->allocator = allocator ? *allocator : (tdn_allocator){ 0 };
    a->float_tracks = rebase(src->float_tracks, src, a);
    a->event_names = rebase(src->event_names, src, a);
    a->event_times = rebase(src->event_times, src, a);
    for (int i = 0; i < a->float_track_count; ++i) {
        tdn__float_track *t = &a->float_tracks[i];
        t->name = rebase(t->name, src, a);
        t->curve.times = rebase(t->curve.times, src, a);
        t->curve.values = rebase(t->curve.values, src, a);
    }
    for (int i = 0; i < a->event_count; ++i)
        a->event_names[i] = rebase(a->event_names[i], src, a);
    *out = a;
    return TDN_OK;
}

void tdn__annotations_destroy(tdn__annotations *annotations)
{
    if (!annotations)
        return;
    tdn_allocator allocator = annotations->allocator;
    tdn__free(&allocator, annotations, annotations->bytes);
}

int tdn__annotations_find(const tdn__annotations *a, const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < a->float_track_count; ++i)
        if (strcmp(a->float_tracks[i].name, name) == 0)
            return i;
    return -1;
}

float tdn__annotations_sample(const tdn__annotations *a, int index, float time)
{
    if (index < 0 || index >= a->float_track_count)
        return 0.0f;
    float value;
    tdn__curve_eval(&a->float_tracks[index].curve, time, NULL, &value);
    return value;
}

const char *tdn__annotations_float_track_name(const tdn__annotations *a, int index)
{
    return index >= 0 && index < a->float_track_count ? a->float_tracks[index].name : NULL;
}

const char *tdn__annotations_event_name(const tdn__annotations *a, int index)
{
    return index >= 0 && index < a->event_count ? a->event_names[index] : NULL;
}

/* Longest run of keys one line replaces (bounds the work on long flat tracks). */
#define REDUCE_MAX_SPAN 512

/* Whether the line from key a to key e passes within `tolerance` of every key between. */
static int line_holds(const tdn__curve *c, int a, int e, float tolerance)
{
    const float ta = c->times[a], dt = c->times[e] - ta, va = c->values[a], dv = c->values[e] - va;
    for (int k = a + 1; k < e; k++)
        if (!(fabsf(va + dv * ((c->times[k] - ta) / dt) - c->values[k]) <= tolerance))
            return 0;
    return 1;
}

/* The keys of c a reduced copy keeps, into times and values: a LINEAR track keeps the keys
 * lines between which pass within `tolerance` of the others (the track is linear between its
 * keys, so its largest departure from a line lies at a key: checking keys bounds every time);
 * a STEP track drops keys holding the value already held; a CUBIC one keeps every key. The
 * first and last keys stay. Returns the count kept. */
static int reduce_keys(const tdn__curve *c, float tolerance, float *times, float *values)
{
    const int n = c->key_count;
    if (c->interp == TDN_INTERP_CUBIC || n <= 2) {
        memcpy(times, c->times, (size_t)n * sizeof(float));
        memcpy(values, c->values, (size_t)n * (size_t)tdn__curve_key_floats(c) * sizeof(float));
        return n;
    }
    int kept = 0;
    for (int a = 0;;) {
        times[kept] = c->times[a], values[kept++] = c->values[a];
        if (a == n - 1)
            return kept;
        int e = a + 1;
        if (c->interp == TDN_INTERP_STEP)
            while (e < n - 1 && c->values[e] == c->values[a])
                e++;
        else
            while (e < n - 1 && e - a < REDUCE_MAX_SPAN && line_holds(c, a, e + 1, tolerance))
                e++;
        a = e;
    }
}

tdn_result tdn__annotations_reduce(const tdn__annotations *src, float tolerance, const tdn_allocator *allocator,
                                   tdn__annotations **out, tdn_error *err)
{
    *out = NULL;
    size_t floats = 0;
    for (int i = 0; i < src->float_track_count; i++)
        floats += (size_t)src->float_tracks[i].curve.key_count *
                  (1 + (size_t)tdn__curve_key_floats(&src->float_tracks[i].curve));
    const size_t track_bytes = (size_t)src->float_track_count * sizeof(tdn_float_track_desc);
    const size_t event_bytes = (size_t)src->event_count * sizeof(tdn_event_desc);
    const size_t bytes = track_bytes + event_bytes + floats * sizeof(float);
    void *scratch = tdn__alloc(allocator, bytes > 0 ? bytes : 1, alignof(tdn_float_track_desc));
    if (!scratch)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "annotations", "out of memory (%zu bytes)", bytes);
    tdn_float_track_desc *tracks = scratch;
    tdn_event_desc *events = (tdn_event_desc *)((char *)scratch + track_bytes);
    float *next = (float *)((char *)scratch + track_bytes + event_bytes);
    for (int i = 0; i < src->float_track_count; i++) {
        const tdn__float_track *t = &src->float_tracks[i];
        float *times = next, *values = next + t->curve.key_count;
        next = values + (size_t)t->curve.key_count * (size_t)tdn__curve_key_floats(&t->curve);
        tracks[i] = (tdn_float_track_desc){ t->name, t->curve.interp, reduce_keys(&t->curve, tolerance, times, values),
                                            times, values };
    }
    for (int i = 0; i < src->event_count; i++)
        events[i] = (tdn_event_desc){ src->event_names[i], src->event_times[i] };
    const tdn_result r = tdn__annotations_create(tracks, src->float_track_count, events, src->event_count, allocator,
                                                 out, err);
    tdn__free(allocator, scratch, bytes > 0 ? bytes : 1);
    return r;
}
