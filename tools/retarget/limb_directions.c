/* tendon CLI: the limb directions of a retarget (see limb_directions.h). */
#include "limb_directions.h"

#include <math.h>
#include <stdlib.h>

/* Each limb's bone, from part `from` to part `to`; NECK stands for the first neck joint, else
 * the head. */
static const struct {
    const char *name;
    tdn_body_part from, to;
} LIMBS[LIMB_COUNT] = {
    { "left_thigh", TDN_BODY_PART_LEFT_THIGH, TDN_BODY_PART_LEFT_SHIN },
    { "right_thigh", TDN_BODY_PART_RIGHT_THIGH, TDN_BODY_PART_RIGHT_SHIN },
    { "left_shin", TDN_BODY_PART_LEFT_SHIN, TDN_BODY_PART_LEFT_FOOT },
    { "right_shin", TDN_BODY_PART_RIGHT_SHIN, TDN_BODY_PART_RIGHT_FOOT },
    { "left_upper_arm", TDN_BODY_PART_LEFT_UPPER_ARM, TDN_BODY_PART_LEFT_FOREARM },
    { "right_upper_arm", TDN_BODY_PART_RIGHT_UPPER_ARM, TDN_BODY_PART_RIGHT_FOREARM },
    { "left_forearm", TDN_BODY_PART_LEFT_FOREARM, TDN_BODY_PART_LEFT_HAND },
    { "right_forearm", TDN_BODY_PART_RIGHT_FOREARM, TDN_BODY_PART_RIGHT_HAND },
    { "spine", TDN_BODY_PART_HIPS, TDN_BODY_PART_NECK },
};

const char *limb_name(int limb) { return limb >= 0 && limb < LIMB_COUNT ? LIMBS[limb].name : NULL; }

static void find_ends(const tdn_body_map *map, int ends[LIMB_COUNT][2])
{
    for (int k = 0; k < LIMB_COUNT; k++) {
        int a = tdn_body_map_joint(map, LIMBS[k].from), b = tdn_body_map_joint(map, LIMBS[k].to);
        if (LIMBS[k].to == TDN_BODY_PART_NECK && b < 0)
            b = tdn_body_map_joint(map, TDN_BODY_PART_HEAD);
        /* a foot that is an IK target parented to the root (RobotExpressive's) is where the
         * retarget puts it: at its shin's end */
        const int bone = a >= 0 && b >= 0;
        ends[k][0] = bone ? a : -1;
        ends[k][1] = bone ? b : -1;
    }
}

int limb_directions_init(limb_directions *d, const tdn_body_map *source_map, const tdn_body_map *target_map,
                         int capacity)
{
    *d = (limb_directions){ 0 };
    const tdn_body_map *maps[2] = { source_map, target_map };
    for (int side = 0; side < 2; side++) {
        find_ends(maps[side], d->ends[side]);
        d->thighs[side][0] = tdn_body_map_joint(maps[side], TDN_BODY_PART_LEFT_THIGH);
        d->thighs[side][1] = tdn_body_map_joint(maps[side], TDN_BODY_PART_RIGHT_THIGH);
        d->hips[side] = tdn_body_map_joint(maps[side], TDN_BODY_PART_HIPS);
    }
    d->capacity = capacity;
    d->angles = malloc(sizeof(float) * LIMB_COUNT * (size_t)(capacity > 0 ? capacity : 1));
    return d->angles != NULL;
}

void limb_directions_free(limb_directions *d)
{
    free(d->angles);
    *d = (limb_directions){ 0 };
}

static tdn_vec3 position(const tdn_mat4 *model, int j)
{
    return tdn_vec3_make(model[j].m[12], model[j].m[13], model[j].m[14]);
}

/* v in the facing frame of a character whose thighs are at l and r: (right, up, forward). */
static tdn_vec3 in_facing(tdn_vec3 v, tdn_vec3 l, tdn_vec3 r)
{
    tdn_vec3 right = tdn_vec3_make(r.x - l.x, 0.0f, r.z - l.z);
    right = tdn_vec3_normalize(right);
    const tdn_vec3 forward = tdn_vec3_cross(tdn_vec3_make(0.0f, 1.0f, 0.0f), right);
    return tdn_vec3_make(tdn_vec3_dot(v, right), v.y, tdn_vec3_dot(v, forward));
}

static double angle_degrees(tdn_vec3 a, tdn_vec3 b)
{
    const double la = tdn_vec3_length(a), lb = tdn_vec3_length(b);
    if (!(la > 0.0) || !(lb > 0.0))
        return NAN;
    const double c = tdn_vec3_dot(a, b) / (la * lb);
    return acos(c > 1.0 ? 1.0 : c < -1.0 ? -1.0 : c) * (180.0 / 3.14159265358979323846);
}

const float *limb_directions_frame(limb_directions *d, const tdn_mat4 *source_model, const tdn_mat4 *target_model,
                                   int first)
{
    const tdn_mat4 *models[2] = { source_model, target_model };
    float *out = d->angles + (size_t)d->frame_count++ * LIMB_COUNT;
    for (int k = 0; k < LIMB_COUNT; k++) {
        tdn_vec3 dir[2];
        int present = 1;
        for (int side = 0; side < 2; side++) {
            const int a = d->ends[side][k][0], b = d->ends[side][k][1];
            present &= a >= 0;
            if (a < 0)
                continue;
            const tdn_mat4 *m = models[side];
            dir[side] = in_facing(tdn_vec3_sub(position(m, b), position(m, a)), position(m, d->thighs[side][0]),
                                  position(m, d->thighs[side][1]));
        }
        out[k] = present ? (float)angle_degrees(dir[0], dir[1]) : NAN;
    }
    for (int side = 0; side < 2; side++) {
        const tdn_vec3 hips = position(models[side], d->hips[side]);
        if (!first)
            d->travel[side] += hypot((double)hips.x - d->last_hips[side].x, (double)hips.z - d->last_hips[side].z);
        d->last_hips[side] = hips;
    }
    return out;
}

static int by_value(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int limb_directions_stats(const limb_directions *d, int limb, double *median, double *p99, double *max)
{
    float *sorted = malloc(sizeof(float) * (size_t)(d->frame_count > 0 ? d->frame_count : 1));
    int n = 0;
    for (int f = 0; sorted && f < d->frame_count; f++) {
        const float a = d->angles[(size_t)f * LIMB_COUNT + (size_t)limb];
        if (!isnan(a))
            sorted[n++] = a;
    }
    if (n > 0) {
        qsort(sorted, (size_t)n, sizeof *sorted, by_value);
        *median = sorted[n / 2];
        *p99 = sorted[(int)(0.99 * (n - 1))];
        *max = sorted[n - 1];
    }
    free(sorted);
    return n;
}
