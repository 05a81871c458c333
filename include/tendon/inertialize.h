/* tendon: inertialization, transitions that evaluate only the destination.
 *
 * A cross-fade evaluates the source and the destination for the whole transition and blends
 * them. Inertialization (Bollo, "Inertialization: High-Performance Animation Transitions in
 * Gears of War", GDC 2018) switches to the destination at once and evaluates only it: at the
 * switch it records, per joint, the offset between what the character showed and the
 * destination, with that offset's velocity, and from then on adds the offset back, decaying
 * it to zero over the transition. The source is never evaluated again.
 *
 * Per joint and channel the offset is one number along a fixed direction:
 * - translation and scale: x0 = |current - destination|, along the unit vector of
 *   current - destination; scale offsets are added (lerp-style: s = destination.s + offset);
 * - rotation: the offset rotation current.r * destination.r^-1 taken the short way (w >= 0),
 *   as an axis and an angle x0 in [0, pi]; the angle decays about that fixed axis and the
 *   output is axis_angle(axis, x(t)) * destination.r.
 * Its velocity v0 is measured along that direction from `previous`: v0 = (x0 - p) / dt, p the
 * previous frame's offset against the same destination projected on the direction (for a
 * rotation, the previous offset's twist angle about the axis). Velocity across the direction
 * is dropped. A channel whose offset is exactly 0 keeps nothing (no direction to decay along).
 *
 * Curves x(t) (seconds; x0 in metres, radians or scale units; v0 per second):
 * - TDN_INERTIA_QUINTIC (Bollo): x0 >= 0 after taking the sign out. A velocity pointing away
 *   from 0 is set to 0 (it would overshoot). The curve's own time is
 *   t1 = min(duration, -5 x0 / v0) (duration when v0 = 0), its initial acceleration
 *   a0 = max(0, (-8 v0 t1 - 20 x0) / t1^2), and x is the quintic with x(0) = x0, x'(0) = v0,
 *   x''(0) = a0, x(t1) = x'(t1) = x''(t1) = 0, and 0 from t1 on. With those choices it never
 *   crosses 0 and never exceeds x0. With v0 = 0 it is x0 (1 - smootherstep(t / duration)),
 *   whose steepest slope is 1.875 x0 / duration. t1 is at least TDN_INERTIA_MIN_TIME: a
 *   velocity so large that -5 x0 / v0 is shorter is reduced to -5 x0 / TDN_INERTIA_MIN_TIME.
 * - TDN_INERTIA_SPRING (Holden, "Spring-It-On" / "dead blending"): the critically damped
 *   spring s(t) = (x0 + (v0 + y x0) t) e^(-y t) with y = TDN_INERTIA_SPRING_DECAY / duration
 *   (Holden's half-life 2 ln 2 / y = 0.231 duration), which keeps any velocity, away from 0
 *   included, and may cross 0 once. A spring never reaches 0, so what is left at the end is
 *   removed smoothly: x(t) = s(t) - s(T) h(t/T) - T s'(T) g(t/T), T = duration,
 *   h(u) = 10u^3 - 15u^4 + 6u^5, g(u) = u^4 - u^3. x(0) = x0, x'(0) = v0, x(T) = x'(T) = 0;
 *   the correction is at most 2.7% of x0 plus 0.4% of |v0| T (|s(T)| + 0.105 |T s'(T)|). With v0 = 0
 *   its steepest slope is 2.2 x0 / duration (a faster start, a longer tail than the quintic).
 *
 * Frame order (which frame shows what). At frame N the game decides to switch:
 *     dest = the new source's pose for frame N
 *     tdn_inertializer_start(in, shown[N-1], shown[N-2], dt_of_frame_N-1, &dest, duration, curve, err)
 *     tdn_inertializer_apply(in, dt_of_frame_N, &dest, err)        -> shown[N]
 * and on every later frame: dest = the source's pose for that frame, then apply(in, dt, &dest).
 * start sets the elapsed time to 0 and apply first advances it by dt, then adds the offsets at
 * the new elapsed time t. So apply with dt = 0 right after start gives back `current` (each
 * joint to float precision; a rotation as q or -q: the output's sign follows the destination),
 * and with the frame's dt it gives dest + x(dt) = current + (x(dt) - x0), `current` moved on by
 * its velocity (x(dt) - x0 = v0 dt + O(dt^2)). The velocity is measured against one
 * destination pose, so it is the source's velocity; the destination's own motion comes on top
 * (as in Bollo's talk). From the time the curve ends (duration at the latest) apply leaves the
 * pose exactly as given.
 *
 * Offsets stack: a transition started while one is in progress takes `current` = what was shown
 * (its offsets included), so its offsets start from there and nothing pops; the old offsets
 * are replaced, not kept.
 *
 * Memory: an inertializer holds 21 rows of tdn_pose_stride(joint_count) floats (per channel a
 * direction and 4 curve coefficients; 6.0 KiB for 67 joints) after a 64-byte header, in caller
 * memory (tdn_inertializer_init) or allocated once (tdn_inertializer_create). Thread-safety:
 * functions are thread-safe for distinct inertializers; one inertializer is used by one thread
 * at a time. No function but create allocates. */
#ifndef TENDON_INERTIALIZE_H
#define TENDON_INERTIALIZE_H

#include "base.h"
#include "pose.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tdn_inertia_curve { TDN_INERTIA_QUINTIC = 0, TDN_INERTIA_SPRING } tdn_inertia_curve;

/* The spring's decay rate times the duration (y = 6 / duration). */
#define TDN_INERTIA_SPRING_DECAY 6.0f
/* The shortest time a quintic offset takes to vanish, seconds. */
#define TDN_INERTIA_MIN_TIME 1.0e-4f
/* Alignment of the memory tdn_inertializer_init takes. */
#define TDN_INERTIALIZER_ALIGN 64

typedef struct tdn_inertializer tdn_inertializer; /* opaque; one per character (or per layer) */

/* Bytes tdn_inertializer_init needs for joint_count joints (a multiple of
 * TDN_INERTIALIZER_ALIGN); 0 for a count out of 1..TDN_MAX_JOINTS. */
TDN_API size_t tdn_inertializer_bytes(int joint_count);
/* Sets up an inertializer (no transition) in caller memory: TDN_INERTIALIZER_ALIGN-aligned, at
 * least tdn_inertializer_bytes(joint_count) bytes, owned by the caller and used until it stops
 * using the inertializer (nothing to destroy). TDN_ERR_ARGUMENT for a NULL pointer, a count out
 * of 1..TDN_MAX_JOINTS, misaligned memory; TDN_ERR_OUT_OF_MEMORY when `bytes` is too small. */
TDN_API tdn_result tdn_inertializer_init(int joint_count, void *memory, size_t bytes, tdn_inertializer **out,
                                         tdn_error *err);
/* The same in memory from `allocator` (NULL or zeroed: malloc); *out is NULL on failure
 * (TDN_ERR_ARGUMENT, TDN_ERR_OUT_OF_MEMORY). */
TDN_API tdn_result tdn_inertializer_create(int joint_count, tdn_inertializer **out, const tdn_allocator *allocator,
                                           tdn_error *err);
/* Frees a created inertializer; NULL and one from tdn_inertializer_init are left alone. */
TDN_API void tdn_inertializer_destroy(tdn_inertializer *in);

/* Starts (or restarts) a transition of `duration` seconds; duration 0 is a cut (nothing is
 * kept, apply leaves poses unchanged). `current` is what the character showed last frame and
 * `previous` the frame before it, `dt` seconds apart; their difference gives the velocity
 * (previous NULL or dt 0: zero velocity). `destination` is the new pose source's pose for the
 * frame being made. Records per joint the offsets current - destination and their velocities
 * (see the top of this file); the poses are only read. Elapsed time restarts at 0.
 * TDN_ERR_ARGUMENT (and the inertializer unchanged) for NULL in/current/destination, a pose
 * whose joint count differs from the inertializer's, dt or duration negative, NaN or infinite,
 * or an unknown curve. Non-finite pose values give that joint's channel no offset. No allocation.
 * Costs one atan2 per joint and two per joint with `previous`. */
TDN_API tdn_result tdn_inertializer_start(tdn_inertializer *in, const tdn_pose *current, const tdn_pose *previous,
                                          float dt, const tdn_pose *destination, float duration,
                                          tdn_inertia_curve curve, tdn_error *err);
/* Advances the elapsed time by dt (seconds, >= 0), then adds the offsets at that time to `pose`
 * (the destination's pose for this frame), in place: translation and scale along their
 * directions, rotation as axis_angle(axis, x(t)) * pose.r. Once the transition is over (or with
 * none started) the pose is left unchanged. No allocation, no libm calls per joint; thread-safe for
 * distinct inertializers and poses. TDN_ERR_ARGUMENT (nothing changed) for NULL, a joint count
 * that differs, dt negative, NaN or infinite. Per joint: the quintic is a degree-5 polynomial
 * per channel, the spring two multiply-adds per channel (its exp is once per call); the
 * rotation's sine and cosine are polynomials (error below 6e-8). */
TDN_API tdn_result tdn_inertializer_apply(tdn_inertializer *in, float dt, tdn_pose *pose, tdn_error *err);
/* 1 while apply still changes poses: from start until the last joint's offset has reached 0
 * (the quintic's largest t1; the spring's duration). 0 for NULL. */
TDN_API int tdn_inertializer_active(const tdn_inertializer *in);
/* Seconds since the last start (the sum of the dt given to apply since); 0 for NULL. */
TDN_API float tdn_inertializer_elapsed(const tdn_inertializer *in);

/* The one-dimensional curve the inertializer uses, on its own: the offset at time t (seconds)
 * of an offset x0 (either sign) with velocity v0 (per second) decaying over `duration`
 * seconds, with the same coefficients and evaluation as apply. For a graph's float parameters,
 * or to plot. t < 0 counts as 0 (the value is x0); 0 from the curve's end on, and for
 * duration <= 0, non-finite arguments or an unknown curve. Thread-safe. */
TDN_API float tdn_inertia_curve_value(tdn_inertia_curve curve, float x0, float v0, float duration, float t);

#ifdef __cplusplus
}
#endif
#endif
