/* tendon core: the virtual-vertex error between two model-space transforms of a joint (not
 * installed).
 *
 * The error metric of animation compression (the Animation Compression Library's, ozz's): a
 * joint's error is the largest distance between where three vertices at `shell` from the joint,
 * along its local x, y and z axes, land under the expected and the actual model matrix. It sees a
 * rotation error in proportion to the distance it carries vertices (through the hierarchy: an
 * error at the hips moves every vertex of the body), a translation error in full and a scale
 * error in proportion to the shell. */
#ifndef TENDON_VERTEX_ERROR_H
#define TENDON_VERTEX_ERROR_H

#include <math.h>

#include "tendon/vecmath.h"

/* max over e in {x, y, z} of |(A - B) (shell e) + (A_t - B_t)|, for affine column-major A, B. */
static inline float tdn__vertex_error(const tdn_mat4 *a, const tdn_mat4 *b, float shell)
{
    const float dx = a->m[12] - b->m[12], dy = a->m[13] - b->m[13], dz = a->m[14] - b->m[14];
    float worst = 0.0f;
    for (int axis = 0; axis < 3; axis++) {
        const float *ca = &a->m[4 * axis], *cb = &b->m[4 * axis];
        const float x = shell * (ca[0] - cb[0]) + dx, y = shell * (ca[1] - cb[1]) + dy,
                    z = shell * (ca[2] - cb[2]) + dz;
        const float d = x * x + y * y + z * z;
        worst = d > worst ? d : worst;
    }
    return sqrtf(worst);
}

#endif
