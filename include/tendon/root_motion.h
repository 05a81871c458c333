/* tendon: root motion and joint velocities.
 *
 * Root motion is the part of a clip's movement that belongs to the character rather than to its
 * pose: the travel of one joint (the root, or a chosen joint) along the ground and its turning
 * about the up axis. The simulation moves the character by it; the pose, with it taken out
 * (extract mode), stays in place. Keep mode leaves the pose as sampled and still reports the
 * motion.
 *
 * The reference frame. At clip time t the joint's local transform is (p(t), q(t)). Its
 * reference frame F(t) = (g(t), H(t)) is
 *   g(t) = p(t) with its component along `up` removed (keep_vertical = 0), or p(t) (keep_vertical = 1);
 *   H(t) = the twist of q(t) about `up` (TDN_ROOT_YAW: swing-twist, q = H * tilt, H a rotation
 *          about up, tilt = H^-1 * q what is left), q(t) itself (TDN_ROOT_FULL_ROTATION) or the
 *          identity (TDN_ROOT_NO_ROTATION).
 * A step from clip time a to clip time b (one lap, either direction) is the motion
 *   translation = H(a)^-1 * (g(b) - g(a))   (in the character's frame at the step's start)
 *   rotation    = H(a)^-1 * H(b)
 * and a character placed in the world at (position, facing) applies it as
 *   position += rotate(facing, translation);  facing = facing * rotation;
 * Steps compose in that order: (d1, r1) then (d2, r2) is (d1 + r1 d2, r1 r2), so a step across
 * loop wraps is the step to the end, the whole laps, and the step from the start, each in the
 * frame the previous ones left (a turning clip's laps compose rotations). Playing backwards
 * gives the inverse motion (-r^-1 d, r^-1); ping-pong is its legs, forward and back.
 *
 * The joint's values are those of the runtime clip: a root track keeps the joint's local
 * transform at each of the clip's frames and interpolates them as tdn_clip_sample does (lerp;
 * nlerp for the rotation), so what it reports and what tdn_clip_sample poses agree. A joint
 * with a parent moves in its parent's frame: root motion is meant for a root joint (or a joint
 * whose ancestors do not move).
 *
 * A root track is a definition: built once per (clip, desc) through the allocator, immutable,
 * shared by any number of characters and threads. Every other function here never allocates and
 * is thread-safe for distinct outputs. */
#ifndef TENDON_ROOT_MOTION_H
#define TENDON_ROOT_MOTION_H

#include "base.h"
#include "blend.h"
#include "clip.h"
#include "player.h"
#include "pose.h"
#include "vecmath.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tdn_root_rotation {
    TDN_ROOT_YAW = 0,       /* the twist about `up` is root motion; the rest (tilt) stays in the pose */
    TDN_ROOT_FULL_ROTATION, /* the joint's whole rotation is root motion */
    TDN_ROOT_NO_ROTATION    /* only translation is root motion; the rotation stays in the pose */
} tdn_root_rotation;

/* Zero-initialisable. */
typedef struct tdn_root_track_desc {
    int joint; /* the joint carrying root motion; 0: the first root */
    tdn_root_rotation rotation;
    int keep_vertical; /* 0: only the ground-plane translation is root motion (the vertical
                        * bob stays in the pose); 1: the whole translation is */
    tdn_vec3 up;       /* 0,0,0: +Y; normalized */
} tdn_root_track_desc;

/* A step's motion in the character's frame at the step's start: move by `translation` (rotated
 * into the world by the character's facing at the step start), then turn by `rotation` (unit).
 * Velocities are the step's averages per second of the step's duration (tdn_root_track_motion:
 * dt of wall time; tdn_root_track_motion_between: |to - from| of clip time), in the same frame:
 * linear_velocity = translation / seconds, angular_velocity = axis * angle / seconds of
 * `rotation` taken the short way (angle <= pi). A step of no duration has zero velocities. */
typedef struct tdn_root_motion {
    tdn_vec3 translation;
    tdn_quat rotation;
    tdn_vec3 linear_velocity;
    tdn_vec3 angular_velocity;
} tdn_root_motion;

typedef struct tdn_root_track tdn_root_track;

/* Builds the root track of `clip` for `desc` (NULL: all defaults) through `allocator` (NULL:
 * malloc). TDN_ERR_ARGUMENT for NULL clip or out, a joint out of range, an unknown rotation mode, a
 * non-finite `up` or an allocator with only one of alloc/free; TDN_ERR_UNSUPPORTED for an additive
 * clip (its root is a difference, not a place); TDN_ERR_OUT_OF_MEMORY. On failure *out is NULL and
 * nothing stays allocated. The clip need not outlive the track. Memory: 7 floats per clip frame
 * plus a pose of scratch while building. */
TDN_API tdn_result tdn_root_track_create(const tdn_clip *clip, const tdn_root_track_desc *desc, tdn_root_track **out,
                                         const tdn_allocator *allocator, tdn_error *err);
/* Frees the track; NULL is ignored. */
TDN_API void tdn_root_track_destroy(tdn_root_track *track);
TDN_API float tdn_root_track_duration(const tdn_root_track *track);
/* The desc the track was built with, `up` normalized (+Y filled in). */
TDN_API tdn_root_track_desc tdn_root_track_desc_of(const tdn_root_track *track);
/* The joint's reference frame F(t) (see the top of this file) at clip time t (clamped). */
TDN_API void tdn_root_track_frame(const tdn_root_track *track, float time, tdn_vec3 *position, tdn_quat *facing);

/* The motion over the player's last advance: player->last_from -> player->time, passing
 * player->last_wraps ends (LOOP: jumps, PINGPONG: turns), starting forward or backward
 * (player->last_forward), for `dt` seconds of wall time (used only for the velocities).
 * The player must play the track's clip (its duration is not checked beyond being finite).
 * TDN_ERR_ARGUMENT for NULL pointers; *out is then the identity motion. */
TDN_API tdn_result tdn_root_track_motion(const tdn_root_track *track, const tdn_player *player, float dt,
                                         tdn_root_motion *out, tdn_error *err);
/* The motion between two clip times of one lap, from -> to (to < from: travelling backward),
 * both clamped to [0, duration], for callers that keep their own cursor. */
TDN_API tdn_result tdn_root_track_motion_between(const tdn_root_track *track, float from, float to,
                                                 tdn_root_motion *out, tdn_error *err);
/* The motion over one whole lap (0 -> duration). */
TDN_API tdn_root_motion tdn_root_track_lap(const tdn_root_track *track);

/* Two steps composed, a then b: (a.t + a.r b.t, a.r b.r), with the velocities of the whole
 * over `seconds` (zero when seconds <= 0): for a caller summing sub-steps of its own. */
TDN_API tdn_root_motion tdn_root_motion_compose(const tdn_root_motion *a, const tdn_root_motion *b, float seconds);

/* Weighted blend of several steps' motions with the weights a pose blend uses: translations
 * and velocities lerped, rotations nlerped the short way (each flipped to agree with the sum
 * before it), weights normalized. Negative, NaN and infinite weights count as 0; when they sum
 * to (almost) 0 (below 1e-6) the first motion is taken; count <= 0 or NULL motions gives the
 * identity motion. NULL weights: equal weights. */
TDN_API void tdn_root_motion_blend(const tdn_root_motion *motions, const float *weights, int count,
                                   tdn_root_motion *out);

/* Extract mode: takes the root motion out of a pose sampled from the track's clip (at any
 * time), leaving the joint where it is at t = 0 as far as root motion goes:
 *   translation: its ground-plane part is replaced by g(0) (the vertical part, the bob, stays);
 *                keep_vertical = 1: the whole translation becomes p(0);
 *   rotation:    YAW: q = H * tilt becomes H(0) * tilt (the tilt, pitch and roll of the
 *                hips for instance, stays); FULL_ROTATION: q becomes q(0); NO_ROTATION: kept.
 * Then model space of the pose, placed at the character's world transform W, equals the
 * sampled pose's model space placed at W * F(0) * F(t)^-1: the joints move with the root
 * motion. TDN_ERR_ARGUMENT for NULL pointers or a pose whose joint count is not the clip's. */
TDN_API tdn_result tdn_root_motion_remove(const tdn_root_track *track, tdn_pose *pose, tdn_error *err);

/* Joint velocities in a pose-shaped buffer: translation rows = linear velocity, rotation rows
 * x, y, z = angular velocity (axis * rad/s), w = 0, scale rows = rate of change of scale, all
 * per second, in each joint's parent frame (the frame of its local transform); padding lanes 0.
 *
 * Of `clip` at `time` (clamped): a central difference of tdn_clip_sample over one frame
 * interval h = 1 / tdn_clip_sample_rate either side, (S(b) - S(a)) / (b - a) with
 * a = max(0, time - h) and b = min(duration, time + h) (one-sided at the ends; a looping clip
 * is not wrapped); angular from q(b) * q(a)^-1 the short way. `scratch` is a pose of the
 * clip's joint count that is overwritten (a pose cannot be sampled twice into one buffer).
 * A zero-length clip gives zeros. TDN_ERR_ARGUMENT for NULL pointers, mismatched joint
 * counts, scratch == velocity. */
TDN_API tdn_result tdn_clip_sample_velocity(const tdn_clip *clip, float time, tdn_pose *scratch, tdn_pose *velocity,
                                            tdn_error *err);
/* The same difference between two poses `seconds` apart (before -> after), for example the
 * last two output poses of a character (inertialization). seconds <= 0 or non-finite: zeros.
 * `velocity` may not be `before` or `after`. */
TDN_API tdn_result tdn_pose_velocity(const tdn_pose *before, const tdn_pose *after, float seconds, tdn_pose *velocity,
                                     tdn_error *err);
/* Velocities blended with the weights of a pose blend (tdn_blend's layers, masks included):
 * every row a per-joint normalized weighted sum (angular velocities add linearly, not as
 * quaternions, which is what tdn_blend would do to them). Weight rules as tdn_blend: negative,
 * NaN, infinite count as 0; a joint whose weights sum below 1e-6 takes the first input's
 * value. Additive layers are not handled here: their velocity is w times the difference
 * clip's, added. `out` may be one of the inputs. TDN_ERR_ARGUMENT for NULL pointers, no
 * layers, mismatched joint counts. */
TDN_API tdn_result tdn_velocity_blend(const tdn_blend_input *layers, int layer_count, tdn_pose *out, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
