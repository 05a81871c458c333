/* tendon core: playback cursors and the events they cross.
 *
 * A step is worked out in double precision as a distance travelled along the clip. LOOP: going
 * forward the cursor lives in [0, duration) and reaching the end jumps to 0; going backward it
 * lives in (0, duration] and reaching 0 jumps to the end (each jump is a wrap, and the cursor
 * lands *on* the far end, so an event there is crossed). PINGPONG: reaching an end turns the
 * cursor around there (a wrap); the turning point is crossed once. An end reached exactly
 * counts as reached. With a loop limit, the end that uses it up stops the cursor there. */
#include "tendon/player.h"

#include <limits.h>
#include <math.h>

tdn_player tdn_player_make(float duration, tdn_wrap wrap)
{
    tdn_player p = { 0 };
    p.duration = duration > 0.0f && isfinite(duration) ? duration : 0.0f;
    p.rate = 1.0f;
    p.frame_rate = 30.0f;
    p.wrap = wrap;
    p.direction = 1;
    p.last_forward = 1;
    return p;
}

static int clamp_count(double n) { return n < (double)INT_MAX ? (int)n : INT_MAX; }

/* Moves by `delta` seconds of clip time (rate already applied; PINGPONG's direction not yet). */
static int move(tdn_player *p, double delta)
{
    const double d = p->duration, from = p->time;
    p->last_from = p->time;
    p->last_wraps = 0;
    if (p->finished || !(delta != 0.0) || !isfinite(delta))
        return 0;
    if (p->wrap == TDN_WRAP_PINGPONG && p->direction < 0)
        delta = -delta;
    const int forward = delta > 0.0;
    p->last_forward = forward;
    if (d <= 0.0) { /* nothing to travel: a clamped clip is over, a looping one stays at 0 */
        p->finished = p->wrap == TDN_WRAP_CLAMP;
        return 0;
    }
    const double distance = fabs(delta);
    /* How far until the first end, and the ends reached in this step (the first one, then one
     * per full length). */
    const double to_end = forward ? d - from : from;
    if (p->wrap == TDN_WRAP_CLAMP || distance < to_end) {
        double t = from + (forward ? distance : -distance);
        if (t >= d || t <= 0.0) {
            t = t >= d ? d : 0.0;
            p->finished = p->wrap == TDN_WRAP_CLAMP;
        }
        p->time = (float)t;
        return 0;
    }
    double ends = 1.0 + floor((distance - to_end) / d);
    double rest = fmod(distance - to_end, d); /* travelled after the last end, in [0, d) */
    int stop = 0;
    if (p->loop_limit > 0 && (double)p->loops + ends >= (double)p->loop_limit) {
        ends = (double)(p->loop_limit - p->loops);
        rest = 0.0;
        stop = 1;
    }
    /* The stopping end is reached but not jumped over or turned at. */
    const int wraps = clamp_count(stop ? ends - 1.0 : ends);
    double t;
    if (p->wrap == TDN_WRAP_LOOP) {
        t = stop ? (forward ? d : 0.0) : (forward ? rest : d - rest);
        if (!stop && forward && (float)t >= p->duration)
            t = 0.0; /* rounded onto the end, which is the start */
    } else {
        /* Ends alternate starting with the one the cursor headed for: after an odd number the
         * last one reached is that one. */
        const int odd_ends = fmod(ends, 2.0) == 1.0;
        const double last_end = (forward == odd_ends) ? d : 0.0;
        t = last_end == d ? d - rest : rest;
        if (fmod((double)wraps, 2.0) == 1.0)
            p->direction = -p->direction;
    }
    p->time = (float)t;
    p->loops = clamp_count((double)p->loops + ends);
    p->finished = stop;
    p->last_wraps = wraps;
    return wraps;
}

int tdn_player_advance(tdn_player *player, float dt) { return player ? move(player, (double)dt * player->rate) : 0; }

int tdn_player_advance_frames(tdn_player *player, float frames)
{
    if (!player)
        return 0;
    return move(player, player->frame_rate > 0.0f ? (double)frames / player->frame_rate * player->rate : 0.0);
}

int tdn_player_advance_normalized(tdn_player *player, float fraction)
{
    return player ? move(player, (double)fraction * player->duration * player->rate) : 0;
}

void tdn_player_set_time(tdn_player *player, float seconds)
{
    if (!player)
        return;
    player->time = seconds > 0.0f ? (seconds < player->duration ? seconds : player->duration) : 0.0f; /* NaN -> 0 */
    player->finished = 0;
    player->loops = 0;
    player->last_from = player->time;
    player->last_wraps = 0;
}

void tdn_player_set_normalized(tdn_player *player, float fraction)
{
    if (player)
        tdn_player_set_time(player, fraction * player->duration);
}

void tdn_player_set_frame(tdn_player *player, float frame)
{
    if (player)
        tdn_player_set_time(player, player->frame_rate > 0.0f ? frame / player->frame_rate : 0.0f);
}

float tdn_player_normalized(const tdn_player *player)
{
    return player && player->duration > 0.0f ? player->time / player->duration : 0.0f;
}

float tdn_player_frame(const tdn_player *player) { return player ? player->time * player->frame_rate : 0.0f; }

/* ---- events ---- */

/* First index whose time is > t (upper) or >= t (lower) in sorted times. */
static int upper_bound(const float *times, int n, float t)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (times[mid] <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int lower_bound(const float *times, int n, float t)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (times[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The events of one stretch of travel: indices [begin, end), passed in descending order when
 * the cursor moved backward. */
typedef struct segment {
    int begin, end;
    int backward;
} segment;

typedef struct emitter {
    int *out;
    int capacity;
    long long count;
} emitter;

static void emit(emitter *e, segment s)
{
    for (int k = 0; k < s.end - s.begin && e->count + k < e->capacity; ++k)
        e->out[e->count + k] = s.backward ? s.end - 1 - k : s.begin + k;
    if (s.end > s.begin)
        e->count += s.end - s.begin;
}

typedef struct event_list {
    const float *times;
    int n;
} event_list;

/* (a, b] forward, [a, b) backward: the start of a stretch is excluded, its end included. */
static segment travel(const event_list *ev, float a, float b, int forward)
{
    return forward ? (segment){ upper_bound(ev->times, ev->n, a), upper_bound(ev->times, ev->n, b), 0 }
                   : (segment){ lower_bound(ev->times, ev->n, b), lower_bound(ev->times, ev->n, a), 1 };
}

/* [lo, hi] in the given direction: a LOOP stretch after a jump lands on its first end. */
static segment landed(const event_list *ev, float lo, float hi, int forward)
{
    return (segment){ lower_bound(ev->times, ev->n, lo), upper_bound(ev->times, ev->n, hi), !forward };
}

int tdn_player_events(const tdn_player *player, const float *event_times, int event_count, int *out_indices,
                      int capacity)
{
    if (!player || !event_times || event_count <= 0)
        return 0;
    emitter e = { out_indices, out_indices && capacity > 0 ? capacity : 0, 0 };
    const event_list ev = { event_times, event_count };
    const float d = player->duration, from = player->last_from, to = player->time;
    const int forward = player->last_forward;
    const long long wraps = player->last_wraps;

    if (wraps == 0) {
        emit(&e, travel(&ev, from, to, forward));
    } else if (player->wrap == TDN_WRAP_LOOP) {
        /* To the end, whole laps landing on the start, then the last lap. */
        emit(&e, forward ? travel(&ev, from, d, 1) : travel(&ev, from, 0.0f, 0));
        segment lap = landed(&ev, 0.0f, d, forward);
        long long laps = wraps - 1;
        for (; laps > 0 && e.count < e.capacity; --laps)
            emit(&e, lap);
        e.count += laps * (lap.end - lap.begin);
        emit(&e, forward ? landed(&ev, 0.0f, to, 1) : landed(&ev, to, d, 0));
    } else {
        /* PINGPONG: to the first end, whole lengths alternating direction, then the last stretch
         * away from the last turn. A turning point is crossed on arrival, not again on leaving. */
        emit(&e, travel(&ev, from, forward ? d : 0.0f, forward));
        segment away[2] = { travel(&ev, forward ? d : 0.0f, forward ? 0.0f : d, !forward),  /* after odd turns */
                            travel(&ev, forward ? 0.0f : d, forward ? d : 0.0f, forward) }; /* after even turns */
        long long turn = 1;
        for (; turn < wraps && e.count < e.capacity; ++turn)
            emit(&e, away[turn % 2 == 1 ? 0 : 1]);
        long long left = wraps - turn; /* whole lengths not listed: turns turn .. wraps - 1 */
        long long odd = (left + (turn % 2 == 1)) / 2;
        e.count += odd * (away[0].end - away[0].begin) + (left - odd) * (away[1].end - away[1].begin);
        const int last_forward = wraps % 2 == 1 ? !forward : forward;
        emit(&e, travel(&ev, last_forward ? 0.0f : d, to, last_forward));
    }
    return e.count < INT_MAX ? (int)e.count : INT_MAX;
}
