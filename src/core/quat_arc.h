/* tendon core: a slerp's arc set up once and evaluated at several parameters (not installed).
 * tdn_quat_slerp is one arc evaluated once; a chain that spreads one turn over several joints
 * pays the arc's acos and sine once, with the same results. */
#ifndef TENDON_QUAT_ARC_H
#define TENDON_QUAT_ARC_H

#include "tendon/vecmath.h"

typedef struct tdn__quat_arc {
    tdn_quat a, b;    /* b on a's side (their dot >= 0) */
    int near;         /* sin(theta) ~ 0: nlerp is exact to float precision here */
    float theta, inv; /* the angle between them (4D) and 1 / sin(theta) */
} tdn__quat_arc;

static inline tdn__quat_arc tdn__quat_arc_make(tdn_quat a, tdn_quat b)
{
    tdn__quat_arc arc = { a, b, 0, 0.0f, 0.0f };
    float d = tdn_quat_dot(a, b);
    if (d < 0.0f) {
        arc.b = tdn_quat_negate(b);
        d = -d;
    }
    arc.near = d > 0.9995f;
    if (!arc.near) {
        arc.theta = acosf(d);
        arc.inv = 1.0f / sinf(arc.theta);
    }
    return arc;
}

static inline tdn_quat tdn__quat_arc_at(const tdn__quat_arc *arc, float t)
{
    if (arc->near)
        return tdn_quat_nlerp(arc->a, arc->b, t);
    const tdn_quat a = arc->a, b = arc->b;
    float wa = sinf((1.0f - t) * arc->theta) * arc->inv;
    float wb = sinf(t * arc->theta) * arc->inv;
    return tdn_quat_normalize(
        tdn_quat_make(wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w));
}

#endif
