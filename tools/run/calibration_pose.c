/* tendon CLI: a take's calibration pose (see calibration_pose.h). */
#include "calibration_pose.h"

#include <math.h>
#include <stdlib.h>

#include "feet_by_name.h"
#include "mm_source.h"

int calibration_arms_find(const tdn_skeleton *skeleton, calibration_arms *out)
{
    if (!hands_by_name(skeleton, &out->hand[0], &out->hand[1]))
        return 0;
    for (int side = 0; side < 2; side++) {
        out->elbow[side] = tdn_skeleton_parent(skeleton, out->hand[side]);
        out->shoulder[side] = out->elbow[side] >= 0 ? tdn_skeleton_parent(skeleton, out->elbow[side]) : -1;
        if (out->shoulder[side] < 0)
            return 0;
    }
    return 1;
}

static tdn_vec3 position(const tdn_mat4 *model, int joint)
{
    return tdn_vec3_make(model[joint].m[12], model[joint].m[13], model[joint].m[14]);
}

static float distance(tdn_vec3 a, tdn_vec3 b) { return tdn_vec3_length(tdn_vec3_sub(a, b)); }

/* What one frame shows of the arms and the root. */
typedef struct arms_frame {
    float elevation[2]; /* degrees: shoulder to hand above the horizontal */
    float hands;        /* the hands' distance */
    float x, z;         /* the root on the ground */
    unsigned char t_pose, down;
} arms_frame;

static arms_frame measure(const tdn_mat4 *model, const calibration_arms *arms, int root)
{
    arms_frame f = { { 0.0f, 0.0f }, 0.0f, model[root].m[12], model[root].m[14], 1, 1 };
    float reach = distance(position(model, arms->shoulder[0]), position(model, arms->shoulder[1]));
    for (int side = 0; side < 2; side++) {
        const tdn_vec3 s = position(model, arms->shoulder[side]), e = position(model, arms->elbow[side]);
        const tdn_vec3 h = position(model, arms->hand[side]);
        const float length = distance(s, h);
        f.elevation[side] = length > 0.0f ? asinf(fmaxf(-1.0f, fminf(1.0f, (h.y - s.y) / length))) * 57.29578f : 0.0f;
        reach += distance(s, e) + distance(e, h);
        f.t_pose &= fabsf(f.elevation[side]) <= CALIBRATION_LEVEL;
        f.down &= f.elevation[side] <= -CALIBRATION_DOWN;
    }
    f.hands = distance(position(model, arms->hand[0]), position(model, arms->hand[1]));
    f.t_pose &= f.hands >= CALIBRATION_SPREAD * reach;
    return f;
}

/* The run of T-pose frames standing still from `from` going `step` (+1: from the first frame,
 * -1: from the last): its length in frames when it is held, else 0. Frames that keep the pose
 * while walking to or from the spot (LAFAN1's actors walk into the final T-pose) are not in it:
 * the arms' search (arms_down) passes over them. */
static int held_run(const arms_frame *f, int count, int from, int step, float rate)
{
    int n = 0;
    for (int i = from; i >= 0 && i < count && f[i].t_pose &&
                       hypotf(f[i].x - f[from].x, f[i].z - f[from].z) <= CALIBRATION_STILL * f[from].hands;
         i += step)
        n++;
    return (float)n / rate >= CALIBRATION_HOLD ? n : 0;
}

/* The frame where the arms are down, looking from `from` going `step`, at most CALIBRATION_MOVE
 * away (or the last frame looked at). */
static int arms_down(const arms_frame *f, int count, int from, int step, float rate)
{
    const int most = (int)lroundf(CALIBRATION_MOVE * rate);
    int i = from;
    for (int k = 0; k < most && i + step >= 0 && i + step < count && !f[i].down; k++)
        i += step;
    return i;
}

int calibration_poses(const tdn_keyed_clip *clip, int clip_index, const calibration_arms *arms, int root, float rate,
                      tdn_mm_range out[2])
{
    const tdn_skeleton *skeleton = tdn_keyed_clip_skeleton(clip);
    const int joints = tdn_skeleton_joint_count(skeleton), count = mm_clip_frames(clip, rate);
    const float duration = tdn_keyed_clip_duration(clip);
    arms_frame *frames = malloc(sizeof *frames * (size_t)(count + 1));
    tdn_mat4 *model = malloc(sizeof *model * (size_t)(joints + 1));
    tdn_pose pose = { 0 };
    if (!frames || !model || tdn_pose_create(joints, &pose, NULL, NULL) != TDN_OK) {
        free(frames);
        free(model);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        const float t = (float)i / rate;
        tdn_keyed_clip_sample(clip, t < duration ? t : duration, &pose, NULL, NULL);
        tdn_model_space(skeleton, &pose, NULL, model, NULL);
        frames[i] = measure(model, arms, root);
    }
    int n = 0;
    const int first = held_run(frames, count, 0, 1, rate), last = held_run(frames, count, count - 1, -1, rate);
    if (first == count) /* the whole clip */
        out[n++] = (tdn_mm_range){ clip_index, 0.0f, duration };
    else if (first) /* through the arms coming down */
        out[n++] = (tdn_mm_range){ clip_index, 0.0f, (float)arms_down(frames, count, first, 1, rate) / rate };
    if (last && first < count) {
        const float start = (float)arms_down(frames, count, count - 1 - last, -1, rate) / rate;
        if (n && start <= out[0].end) /* one pose over the whole clip, or the two meet */
            out[0].end = duration;
        else
            out[n++] = (tdn_mm_range){ clip_index, start, duration };
    }
    tdn_pose_destroy(&pose);
    free(model);
    free(frames);
    return n;
}
