/* tendon core: the critically damped spring that smooths parameters, feet, joints and the
 * motion-matching character (not installed).
 *
 * x'' = -2y x' - y^2 (x - target), left at rest after a step, covers a fraction
 * 1 - e^(-y t)(1 + y t) of it by time t; that fraction is one half at y t = TDN__HALF_LIFE_U
 * (the root of e^-u (1 + u) = 1/2), so y = TDN__HALF_LIFE_U / half_life makes a half-life
 * exact. */
#ifndef TENDON_SPRING_H
#define TENDON_SPRING_H

#include <math.h>

#define TDN__HALF_LIFE_U 1.67834699f

/* One exact step of dt seconds towards `target` (no drift at any dt). */
static inline void tdn__spring_step(float *x, float *v, float target, float y, float dt)
{
    float j0 = *x - target;
    float j1 = *v + j0 * y;
    float decay = expf(-y * dt);
    *x = decay * (j0 + j1 * dt) + target;
    *v = decay * (*v - j1 * y * dt);
}

#endif
