/* tendon core: modifier nodes at run time: a user callback, a rotation spread over joints from
 * a parameter, and joint damping (rotations lagging their animated targets through a
 * critically damped spring). */
#include "graph_internal.h"
#include "internal.h"
#include "pose_rotation.h"
#include "spring.h"

/* The rotation vector (axis * angle, angle in [0, pi]) of a unit quaternion, the short way. */
static tdn_vec3 rotation_log(tdn_quat q)
{
    if (q.w < 0.0f)
        q = tdn_quat_negate(q);
    float s = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    float angle = 2.0f * atan2f(s, q.w);
    float k = s > 1e-12f ? angle / s : 2.0f; /* small angles: 2 (sin x ~ x) */
    return tdn_vec3_make(q.x * k, q.y * k, q.z * k);
}

static tdn_quat rotation_exp(tdn_vec3 v)
{
    float angle = tdn_vec3_length(v);
    if (!(angle > 1e-12f))
        return tdn_quat_normalize(tdn_quat_make(0.5f * v.x, 0.5f * v.y, 0.5f * v.z, 1.0f));
    return tdn_quat_from_axis_angle(tdn_vec3_scale(v, 1.0f / angle), angle);
}

/* Each damped joint shows a rotation `shown` = exp(x) * target, x (the rotation from its
 * animated target to what it shows) and its velocity springing to 0. State per joint: the
 * shown quaternion, the velocity, whether it has started. */
static void damp(tdn_graph_instance *in, const tdn__node *n, float dt, tdn_pose *pose)
{
    const tdn_graph *g = in->graph;
    float y = TDN__HALF_LIFE_U / n->half_life;
    for (int k = 0; k < n->joint_count; k++) {
        int j = g->mod_joints[n->first_joint + k];
        float *st = in->mod_state + n->state_offset + 8 * k;
        tdn_quat target = tdn__pose_rotation(pose, j);
        if (st[7] == 0.0f) { /* first frame: nothing to lag behind yet */
            st[0] = target.x, st[1] = target.y, st[2] = target.z, st[3] = target.w;
            st[4] = st[5] = st[6] = 0.0f;
            st[7] = 1.0f;
            continue;
        }
        tdn_quat shown = tdn_quat_make(st[0], st[1], st[2], st[3]);
        tdn_vec3 x = rotation_log(tdn_quat_mul(shown, tdn_quat_conjugate(target)));
        float xs[3] = { x.x, x.y, x.z };
        for (int c = 0; c < 3; c++)
            tdn__spring_step(&xs[c], &st[4 + c], 0.0f, y, dt);
        shown = tdn_quat_normalize(tdn_quat_mul(rotation_exp(tdn_vec3_make(xs[0], xs[1], xs[2])), target));
        st[0] = shown.x, st[1] = shown.y, st[2] = shown.z, st[3] = shown.w;
        tdn__pose_set_rotation(pose, j, shown);
    }
}

void tdn__graph_apply_modifier(tdn_graph_instance *in, int node, float dt, tdn_pose *pose)
{
    const tdn_graph *g = in->graph;
    const tdn__node *n = &g->nodes[node];
    switch (n->modifier) {
    case TDN_MODIFIER_CALLBACK:
        n->callback(n->user, in, node, dt, pose);
        break;
    case TDN_MODIFIER_ROTATE: {
        float angle = tdn__graph_value(in, n->value);
        if (!tdn__finite(angle))
            break;
        for (int k = 0; k < n->joint_count; k++) {
            int j = g->mod_joints[n->first_joint + k];
            tdn_quat turn = tdn_quat_from_axis_angle(n->axis, angle * g->mod_weights[n->first_joint + k]);
            tdn__pose_set_rotation(pose, j, tdn_quat_normalize(tdn_quat_mul(turn, tdn__pose_rotation(pose, j))));
        }
        break;
    }
    case TDN_MODIFIER_DAMP:
        damp(in, n, dt, pose);
        break;
    }
}
