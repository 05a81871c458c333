/* Players: wrapping, loop limits, and the events each advance crosses, worked by hand and
 * checked against the same travel cut into many small steps. */
#include <string.h>

#include "check.h"

/* D = 1 s; events at the start, a quarter, half and the very end. */
static const float events[] = { 0.0f, 0.25f, 0.5f, 1.0f };
enum { EVENTS = 4 };

/* The events of the last advance equal `expect` (count n) and nothing else. */
static int crossed_is(const tdn_player *p, const int *expect, int n)
{
    int got[64];
    int total = tdn_player_events(p, events, EVENTS, got, 64);
    int ok = total == n;
    for (int i = 0; ok && i < n; i++)
        ok = got[i] == expect[i];
    if (!ok) {
        fprintf(stderr, "  crossed %d:", total);
        for (int i = 0; i < total && i < 64; i++)
            fprintf(stderr, " %d", got[i]);
        fprintf(stderr, " (wanted %d)\n", n);
    }
    return ok;
}
#define CROSSED(p, ...) \
  CHECK(crossed_is(p, (const int[]){ __VA_ARGS__ }, (int)(sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int))))
#define CROSSED_NONE(p) CHECK(tdn_player_events(p, events, EVENTS, NULL, 0) == 0)

static void loop_forward_across_the_wrap(void)
{
    tdn_player p = tdn_player_make(1.0f, TDN_WRAP_LOOP);
    CHECK_NEAR(p.rate, 1, 0);
    CHECK_NEAR(p.frame_rate, 30, 0);
    CHECK_EQ_INT(tdn_player_advance(&p, 0.125f), 0);
    CROSSED_NONE(&p); /* the event at 0 is where the player starts: not crossed */
    CHECK_EQ_INT(tdn_player_advance(&p, 0.125f), 0);
    CROSSED(&p, 1); /* landing exactly on 0.25 crosses it */
    tdn_player_advance(&p, 0.125f);
    CROSSED_NONE(&p); /* ... once */
    tdn_player_set_time(&p, 0.875f);
    CROSSED_NONE(&p);
    CHECK_EQ_INT(tdn_player_advance(&p, 0.25f), 1);
    CHECK_NEAR(p.time, 0.125, 1e-6);
    CHECK_EQ_INT(p.loops, 1);
    CROSSED(&p, 3, 0); /* the end, then the start we jumped onto */

    /* Several wraps in one step: to the end, a whole lap, then on to 0.75. */
    tdn_player_set_time(&p, 0.5f);
    CHECK_EQ_INT(tdn_player_advance(&p, 2.25f), 2);
    CHECK_NEAR(p.time, 0.75, 1e-6);
    CROSSED(&p, 3, 0, 1, 2, 3, 0, 1, 2);

    /* Landing exactly on the end is a wrap to the start. */
    tdn_player_set_time(&p, 0.75f);
    CHECK_EQ_INT(tdn_player_advance(&p, 0.25f), 1);
    CHECK_NEAR(p.time, 0, 0);
    CROSSED(&p, 3, 0);
    tdn_player_advance(&p, 0.25f);
    CROSSED(&p, 1);

    /* A small capacity still reports the total. */
    tdn_player_set_time(&p, 0.5f);
    tdn_player_advance(&p, 2.25f);
    int first[3];
    CHECK_EQ_INT(tdn_player_events(&p, events, EVENTS, first, 3), 8);
    CHECK(first[0] == 3 && first[1] == 0 && first[2] == 1);
    CHECK_EQ_INT(tdn_player_events(&p, events, EVENTS, NULL, 0), 8);
    /* A huge step counts every lap without listing them all. */
    tdn_player_set_time(&p, 0.5f);
    CHECK_EQ_INT(tdn_player_advance(&p, 1000.25f), 1000);
    CHECK_NEAR(p.time, 0.75, 1e-4);
    CHECK_EQ_INT(tdn_player_events(&p, events, EVENTS, first, 3), 1 + 999 * 4 + 3);
}

static void loop_backward(void)
{
    tdn_player p = tdn_player_make(1.0f, TDN_WRAP_LOOP);
    p.rate = -1.0f;
    tdn_player_set_time(&p, 0.375f);
    CHECK_EQ_INT(tdn_player_advance(&p, 0.5f), 1);
    CHECK_NEAR(p.time, 0.875, 1e-6);
    CHECK_EQ_INT(p.last_forward, 0);
    CROSSED(&p, 1, 0, 3); /* down through 0.25 and 0, jump onto the end */
    CHECK_EQ_INT(tdn_player_advance(&p, 0.375f), 0);
    CROSSED(&p, 2); /* 0.875 -> 0.5 */
    tdn_player_advance(&p, 0.5f);
    CHECK_NEAR(p.time, 1.0, 0); /* reaching 0 going backward jumps to the end */
    CROSSED(&p, 1, 0, 3);
    CHECK_EQ_INT(tdn_player_advance(&p, 2.25f), 2);
    CHECK_NEAR(p.time, 0.75, 1e-6);
    CROSSED(&p, 2, 1, 0, 3, 2, 1, 0, 3);
}

static void pingpong_turns(void)
{
    tdn_player p = tdn_player_make(1.0f, TDN_WRAP_PINGPONG);
    tdn_player_set_time(&p, 0.75f);
    CHECK_EQ_INT(tdn_player_advance(&p, 0.5f), 1);
    CHECK_NEAR(p.time, 0.75, 1e-6);
    CHECK_EQ_INT(p.direction, -1);
    CROSSED(&p, 3); /* the far end once, nothing on the way back to 0.75 */
    CHECK_EQ_INT(tdn_player_advance(&p, 1.0f), 1);
    CHECK_NEAR(p.time, 0.25, 1e-6);
    CHECK_EQ_INT(p.direction, 1);
    CROSSED(&p, 2, 1, 0, 1); /* down through 0.5, 0.25, turn at 0, back up onto 0.25 */
    CHECK_EQ_INT(tdn_player_advance(&p, 2.0f), 2);
    CHECK_NEAR(p.time, 0.25, 1e-6);
    CHECK_EQ_INT(p.direction, 1);
    CROSSED(&p, 2, 3, 2, 1, 0, 1);
    /* A negative rate runs against the direction of travel. */
    p.rate = -1.0f;
    tdn_player_advance(&p, 0.25f);
    CHECK_NEAR(p.time, 0.0, 0);
    CHECK_EQ_INT(p.direction, -1); /* turned exactly at 0 */
    CROSSED(&p, 0);
    tdn_player_advance(&p, 0.25f);
    CHECK_NEAR(p.time, 0.25, 1e-6);
    CROSSED(&p, 1);
}

static void clamp_and_loop_limits(void)
{
    tdn_player p = tdn_player_make(1.0f, TDN_WRAP_CLAMP);
    tdn_player_set_time(&p, 0.875f);
    CHECK_EQ_INT(tdn_player_advance(&p, 0.5f), 0);
    CHECK_NEAR(p.time, 1.0, 0);
    CHECK_EQ_INT(p.finished, 1);
    CROSSED(&p, 3);
    tdn_player_advance(&p, 0.5f); /* finished: stays, crosses nothing */
    CHECK_NEAR(p.time, 1.0, 0);
    CROSSED_NONE(&p);
    tdn_player_set_time(&p, 0.0f); /* a new playback */
    CHECK_EQ_INT(p.finished, 0);
    p.rate = -1.0f;
    tdn_player_advance(&p, 0.1f);
    CHECK_EQ_INT(p.finished, 1);
    CHECK_NEAR(p.time, 0, 0);

    /* Two loops, then stop at the end. */
    tdn_player l = tdn_player_make(1.0f, TDN_WRAP_LOOP);
    l.loop_limit = 2;
    CHECK_EQ_INT(tdn_player_advance(&l, 1.5f), 1);
    CHECK_EQ_INT(l.finished, 0);
    CHECK_EQ_INT(tdn_player_advance(&l, 1.0f), 0);
    CHECK_NEAR(l.time, 1.0, 0);
    CHECK_EQ_INT(l.loops, 2);
    CHECK_EQ_INT(l.finished, 1);
    CROSSED(&l, 3);
    tdn_player_set_time(&l, 0.0f);
    CHECK_EQ_INT(tdn_player_advance(&l, 10.0f), 1); /* the limit cuts a big step short */
    CHECK_NEAR(l.time, 1.0, 0);
    CHECK_EQ_INT(l.finished, 1);
    CROSSED(&l, 1, 2, 3, 0, 1, 2, 3);

    /* Ping-pong twice: up, turn, down, stop at 0. */
    tdn_player pp = tdn_player_make(1.0f, TDN_WRAP_PINGPONG);
    pp.loop_limit = 2;
    tdn_player_set_time(&pp, 0.5f);
    CHECK_EQ_INT(tdn_player_advance(&pp, 5.0f), 1);
    CHECK_NEAR(pp.time, 0.0, 0);
    CHECK_EQ_INT(pp.finished, 1);
    CHECK_EQ_INT(pp.direction, -1); /* it turned once and stopped on the way down */
    CROSSED(&pp, 3, 2, 1, 0);
}

static void zero_duration_and_units(void)
{
    tdn_wrap wraps[3] = { TDN_WRAP_CLAMP, TDN_WRAP_LOOP, TDN_WRAP_PINGPONG };
    for (int i = 0; i < 3; i++) {
        tdn_player p = tdn_player_make(0.0f, wraps[i]);
        CHECK_EQ_INT(tdn_player_advance(&p, 1.0f), 0);
        CHECK_EQ_INT(tdn_player_advance_normalized(&p, 0.5f), 0);
        tdn_player_set_normalized(&p, 0.5f);
        CHECK_NEAR(p.time, 0, 0);
        CHECK_NEAR(tdn_player_normalized(&p), 0, 0);
        CHECK_EQ_INT(tdn_player_events(&p, events, 1, NULL, 0), 0);
    }
    tdn_player bad = tdn_player_make(NAN, TDN_WRAP_LOOP);
    CHECK_NEAR(bad.duration, 0, 0);
    tdn_player_advance(&bad, NAN);
    CHECK_NEAR(bad.time, 0, 0);

    tdn_player p = tdn_player_make(2.0f, TDN_WRAP_LOOP);
    tdn_player_advance_frames(&p, 15.0f); /* 15 frames at 30 fps */
    CHECK_NEAR(p.time, 0.5, 1e-6);
    p.rate = 2.0f;
    tdn_player_advance_normalized(&p, 0.25f); /* a quarter of 2 s, twice as fast */
    CHECK_NEAR(p.time, 1.5, 1e-6);
    CHECK_NEAR(tdn_player_normalized(&p), 0.75, 1e-6);
    CHECK_NEAR(tdn_player_frame(&p), 45, 1e-4);
    tdn_player_set_frame(&p, 12.0f);
    CHECK_NEAR(p.time, 0.4, 1e-6);
    tdn_player_set_normalized(&p, 2.0f); /* clamped */
    CHECK_NEAR(p.time, 2.0, 0);
    tdn_player_set_time(&p, -3.0f);
    CHECK_NEAR(p.time, 0.0, 0);
    p.rate = 1.0f;
    tdn_player_advance(&p, 0.0f);
    CHECK_EQ_INT(tdn_player_events(&p, events, EVENTS, NULL, 0), 0);
}

/* One big step crosses exactly what the same travel cut into small steps crosses, in order.
 * Steps are multiples of 1/64 s so no rounding blurs an exact landing. */
static void one_big_step_equals_many_small(void)
{
    check_rng rng = { 77 };
    tdn_wrap wraps[2] = { TDN_WRAP_LOOP, TDN_WRAP_PINGPONG };
    int mismatches = 0, total_events = 0;
    for (int trial = 0; trial < 400; trial++) {
        tdn_player big = tdn_player_make(1.0f, wraps[trial % 2]);
        big.rate = trial % 4 < 2 ? 1.0f : -1.0f;
        tdn_player_set_time(&big, (float)(check_rng_u32(&rng) % 65) / 64.0f);
        if (trial % 8 >= 4)
            big.direction = -1;
        tdn_player small = big;
        int pieces = 1 + (int)(check_rng_u32(&rng) % 200);
        tdn_player_advance(&big, (float)pieces / 64.0f);
        int a[1024], b[1024], na = tdn_player_events(&big, events, EVENTS, a, 1024), nb = 0, wraps_small = 0;
        for (int i = 0; i < pieces; i++) {
            wraps_small += tdn_player_advance(&small, 1.0f / 64.0f);
            nb += tdn_player_events(&small, events, EVENTS, b + nb, 1024 - nb);
        }
        int same = na == nb && memcmp(a, b, (size_t)na * sizeof(int)) == 0 && big.time == small.time &&
                   big.last_wraps == wraps_small && big.direction == small.direction && big.loops == small.loops;
        mismatches += !same;
        total_events += na;
    }
    CHECK_EQ_INT(mismatches, 0);
    CHECK(total_events > 1000);
}

int main(void)
{
    RUN(loop_forward_across_the_wrap);
    RUN(loop_backward);
    RUN(pingpong_turns);
    RUN(clamp_and_loop_limits);
    RUN(zero_duration_and_units);
    RUN(one_big_step_equals_many_small);
    return check_summary();
}
