/* tendon CLI: a take's calibration pose, the T-pose a motion-capture actor holds at the start or
 * the end of a take (arms out, for the system to measure them), which `tendon mm build` leaves
 * out of the search unless told to keep it.
 *
 * A frame is in the T-pose when both hands are within CALIBRATION_LEVEL degrees of their
 * shoulder's height (the elevation of the line from shoulder to hand) and spread: their distance
 * at least CALIBRATION_SPREAD x (the shoulders' distance + both arms' lengths, shoulder to elbow
 * to hand, in that frame), so both arms reach out straight to the sides. The hands are found by
 * name (feet_by_name.h: a wrist, else a hand), the elbow and shoulder are the hand's parent and
 * grandparent. A calibration pose is a run of such frames from the take's first frame (or to its
 * last) standing still, the root joint (horizontally) within CALIBRATION_STILL x the hands'
 * distance of where it is in that first (last) frame, held at least CALIBRATION_HOLD seconds.
 * Its range adds the arms coming down after it (going up before it, and the steps an actor takes
 * to the spot with them out): to the nearest frame with both hands at least CALIBRATION_DOWN
 * degrees below their shoulders, at most CALIBRATION_MOVE seconds from the still pose. Frames
 * are sampled as the database samples them: frame f at f / rate, mm_clip_frames of them. */
#ifndef TENDON_CALIBRATION_POSE_H
#define TENDON_CALIBRATION_POSE_H

#include "tendon/mm_database.h"

#define CALIBRATION_LEVEL 20.0f /* degrees */
#define CALIBRATION_SPREAD 0.8f
#define CALIBRATION_HOLD 0.25f /* seconds */
#define CALIBRATION_STILL 0.1f /* of the hands' distance */
#define CALIBRATION_DOWN 60.0f /* degrees */
#define CALIBRATION_MOVE 2.0f  /* seconds */

typedef struct calibration_arms {
    int shoulder[2], elbow[2], hand[2]; /* left, right */
} calibration_arms;

/* The arms of a skeleton, from its hands found by name; 0 when they are not found (or a hand
 * has no parent and grandparent). */
int calibration_arms_find(const tdn_skeleton *skeleton, calibration_arms *out);

/* The calibration poses of clip `clip_index` (its start's first, then its end's) as ranges of
 * its seconds into out; returns how many (0, 1 or 2; 1 when a pose held over the whole clip
 * makes one range), or -1 when out of memory. `root`: the joint whose stillness is measured. */
int calibration_poses(const tdn_keyed_clip *clip, int clip_index, const calibration_arms *arms, int root, float rate,
                      tdn_mm_range out[2]);

#endif
