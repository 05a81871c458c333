/* tendon CLI: how closely a retarget keeps what a viewer sees, per frame (tendon retarget's
 * summary and trace; docs/cli.md): for each limb the angle between the source's and the
 * target's bone directions, each expressed in its own character's facing frame (right = the
 * horizontal direction from the left thigh to the right thigh, up = +Y, forward = up x right),
 * and the hips' horizontal travel of both characters. The limbs are the thighs (hip to knee),
 * the shins (knee to ankle), the upper arms (shoulder to elbow), the forearms (elbow to wrist)
 * and the spine (the hips to the first neck joint, else the head). */
#ifndef TENDON_LIMB_DIRECTIONS_H
#define TENDON_LIMB_DIRECTIONS_H

#include "tendon/tendon.h"

#define LIMB_COUNT 9

typedef struct limb_directions {
    int ends[2][LIMB_COUNT][2]; /* [source, target][limb]: the bone's two joints (-1: absent) */
    int thighs[2][2];           /* [side][left, right]: the thighs the facing frame is read from */
    int hips[2];
    float *angles; /* frame_count * LIMB_COUNT degrees (NaN: a limb either side lacks) */
    int frame_count, capacity;
    double travel[2]; /* the hips' horizontal path length, source and target (their units) */
    tdn_vec3 last_hips[2];
} limb_directions;

/* Room for `capacity` frames of the two characters of these body maps; 0 when out of memory. */
int limb_directions_init(limb_directions *d, const tdn_body_map *source_map, const tdn_body_map *target_map,
                         int capacity);
void limb_directions_free(limb_directions *d);
/* Measures one frame (at most `capacity` of them) from both characters' model space: its
 * LIMB_COUNT angles are stored and returned; the hips' travel grows from the previous frame's
 * unless `first` (a take's first frame). */
const float *limb_directions_frame(limb_directions *d, const tdn_mat4 *source_model, const tdn_mat4 *target_model,
                                   int first);
/* A limb's name ("left_thigh", ..., "spine"). */
const char *limb_name(int limb);
/* Over the n frames measured for a limb, its sorted angles a[0..n): the median a[n / 2], the
 * 99th percentile a[floor(0.99 (n - 1))] and the largest a[n - 1], in degrees; returns n (0:
 * none, a limb either character lacks). */
int limb_directions_stats(const limb_directions *d, int limb, double *median, double *p99, double *max);

#endif
