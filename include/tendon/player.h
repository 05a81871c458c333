/* tendon: playback cursors.
 *
 * A player is one character's time cursor over a clip of known duration: it advances by
 * seconds, by frames or by normalized time, at a rate (negative plays backwards), wraps by
 * clamping, looping or ping-pong, and stops after a number of loops. It remembers what the last
 * advance covered, so the events crossed in that step can be listed, across a loop wrap and in
 * reverse. It is a small plain struct (no allocation); sampling is done with its `time` by
 * tdn_clip_sample or tdn_keyed_clip_sample. Functions are thread-safe for distinct players.
 *
 * Ends: reaching an end exactly counts as reaching it. LOOP moving forward jumps from the end
 * onto 0 (time stays in [0, duration)); moving backward it jumps from 0 onto the end (time in
 * (0, duration]); the end jumped onto is crossed, so events at 0 and at the duration are both
 * reported once per lap. PINGPONG turns at an end, crossing it once. With loop_limit, the end
 * that uses it up stops the player there (finished) instead of wrapping. A zero-duration player
 * stays at 0: CLAMP finishes on its first non-zero advance, LOOP and PINGPONG never wrap.
 * Non-finite steps are ignored. */
#ifndef TENDON_PLAYER_H
#define TENDON_PLAYER_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tdn_wrap {
    TDN_WRAP_CLAMP = 0, /* stop at the ends */
    TDN_WRAP_LOOP,      /* jump from the end back to the start */
    TDN_WRAP_PINGPONG   /* reverse direction at each end */
} tdn_wrap;

typedef struct tdn_player {
    float duration;   /* seconds, >= 0 */
    float time;       /* where to sample, in [0, duration] */
    float rate;       /* playback speed: 1 normal, -1 backwards */
    float frame_rate; /* frames per second for tdn_player_advance_frames */
    tdn_wrap wrap;
    int loop_limit; /* LOOP/PINGPONG: wraps (ends reached) before stopping; 0: forever */
    int loops;      /* ends reached so far (wraps, plus the end a loop limit stopped at) */
    int finished;   /* 1 once a CLAMP player reaches an end or loop_limit is used up; a
                     * finished player no longer moves until a tdn_player_set_* call */
    int direction;  /* PINGPONG: +1 or -1, the direction of travel before applying rate */
    /* What the last advance covered: the cursor moved from last_from to `time` passing
     * `last_wraps` ends (each a jump for LOOP, a turn for PINGPONG). */
    float last_from;
    int last_wraps;
    int last_forward; /* 1 if the last advance started moving towards the end */
} tdn_player;

/* A player at time 0, rate 1, frame rate 30, looping forever for LOOP/PINGPONG. */
TDN_API tdn_player tdn_player_make(float duration, tdn_wrap wrap);
/* Moves by dt seconds of wall-clock time, scaled by rate. Returns the number of wraps (jumps
 * or turns) made, which is also last_wraps. */
TDN_API int tdn_player_advance(tdn_player *player, float dt);
/* Moves by a number of frames at frame_rate (scaled by rate). */
TDN_API int tdn_player_advance_frames(tdn_player *player, float frames);
/* Moves by a fraction of the duration (scaled by rate). */
TDN_API int tdn_player_advance_normalized(tdn_player *player, float fraction);
/* Jumps without crossing anything (no events reported), clamped to [0, duration], and starts a
 * new playback: finished and loops are cleared. */
TDN_API void tdn_player_set_time(tdn_player *player, float seconds);
TDN_API void tdn_player_set_normalized(tdn_player *player, float fraction);
TDN_API void tdn_player_set_frame(tdn_player *player, float frame);
/* time / duration, in [0, 1] (0 for a zero-length clip). */
TDN_API float tdn_player_normalized(const tdn_player *player);
TDN_API float tdn_player_frame(const tdn_player *player);

/* Events crossed by the last advance: writes the indices (into the sorted `event_times`) in
 * the order they were passed, at most `capacity` of them, and returns how many were crossed
 * in all (which may exceed capacity). An event is crossed when the cursor moves onto or past
 * it, so an event at the start time of a step is not reported again. */
TDN_API int tdn_player_events(const tdn_player *player, const float *event_times, int event_count, int *out_indices,
                              int capacity);

#ifdef __cplusplus
}
#endif
#endif
