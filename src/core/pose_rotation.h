/* tendon core: one joint's rotation read from or written into a pose's rows (not installed),
 * for the code that turns joints in place without touching translation and scale. */
#ifndef TENDON_POSE_ROTATION_H
#define TENDON_POSE_ROTATION_H

#include "tendon/pose.h"
#include "tendon/vecmath.h"

static inline tdn_quat tdn__pose_rotation(const tdn_pose *p, int j)
{
    return tdn_quat_make(tdn_pose_crow(p, TDN_RX)[j], tdn_pose_crow(p, TDN_RY)[j], tdn_pose_crow(p, TDN_RZ)[j],
                         tdn_pose_crow(p, TDN_RW)[j]);
}

static inline void tdn__pose_set_rotation(tdn_pose *p, int j, tdn_quat q)
{
    tdn_pose_row(p, TDN_RX)[j] = q.x, tdn_pose_row(p, TDN_RY)[j] = q.y;
    tdn_pose_row(p, TDN_RZ)[j] = q.z, tdn_pose_row(p, TDN_RW)[j] = q.w;
}

#endif
