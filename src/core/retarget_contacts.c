/* tendon core: the retarget's contact fix-up. Where the source's feet (hands) are planted, the
 * target's are held where they landed, at their own height above the ground, by a two-bone solve
 * per limb; lifted again, they are let go over a blend time. */
#include <float.h>
#include <math.h>

#include "ik_internal.h"
#include "pose_rotation.h"
#include "retarget_internal.h"

/* A source end that moves further than this many planted heights in one frame jumped (a loop's
 * wrap, a teleport): its limb starts afresh rather than being pulled across the jump. */
#define JUMP_HEIGHTS 20.0f

/* The solve keeps the plane the knee (elbow) bends in; a nearly straight limb, which has none,
 * bends forward (back): the hint is the bend's axis plus this much of the forward one, in units
 * of the sine of the bend (about 3 degrees). */
#define FORWARD_BEND 0.05f

/* The most of a held limb's length its end is asked to reach: the hips come down for the rest,
 * so that the knee never locks straight (where a solve turns fastest). */
#define REACH 0.98f

static int is_hand(tdn_retarget_limb which) { return which >= TDN_RETARGET_LEFT_HAND; }

static int place_in(const int *path, int count, int joint)
{
    for (int k = 0; k < count; k++)
        if (path[k] == joint)
            return k;
    return -1;
}

int tdn__retarget_fill_limbs(tdn_retarget *rt, const tdn_retarget_desc *desc, int used)
{
    const tdn_skeleton *ss = desc->source.skeleton, *ts = desc->target.skeleton;
    const tdn_body_map *smap = desc->source.map, *tmap = desc->target.map;
    const int limbs = desc->contacts.hands ? TDN_RETARGET_LIMB_COUNT : TDN_RETARGET_LEFT_HAND;
    const int start = used;
    for (int l = 0; l < limbs; l++) {
        const tdn_body_part upper = (tdn_body_part)(tdn__retarget_limb_end[l] - 2); /* thigh, upper arm */
        const int source_end = tdn_body_map_joint(smap, (tdn_body_part)(upper + 2));
        const int joints[3] = { tdn_body_map_joint(tmap, upper), tdn_body_map_joint(tmap, (tdn_body_part)(upper + 1)),
                                tdn_body_map_joint(tmap, (tdn_body_part)(upper + 2)) };
        if (source_end < 0 || joints[0] < 0 || joints[1] < 0 || joints[2] < 0 ||
            !tdn_skeleton_is_in_subtree(ts, joints[1], joints[0]))
            continue;
        /* an end that is not below the middle joint follows it: the path ends at the middle joint */
        int follower = -1;
        for (int k = 0; rt && k < rt->follower_count; k++)
            if (rt->followers[k].joint == joints[2])
                follower = k;
        const int detached = !tdn_skeleton_is_in_subtree(ts, joints[2], joints[1]);
        const int source_count = tdn__retarget_path(ss, -1, source_end, rt ? rt->path + used : NULL);
        const int target_count = tdn__retarget_path(ts, -1, joints[detached ? 1 : 2],
                                                    rt ? rt->path + used + source_count : NULL);
        if (rt) {
            tdn__retarget_limb *limb = &rt->limbs[rt->limb_count++];
            const int *target_path = rt->path + used + source_count;
            limb->which = (tdn_retarget_limb)l;
            limb->source_path_begin = used;
            limb->source_path_count = source_count;
            limb->target_path_begin = used + source_count;
            limb->target_path_count = target_count;
            limb->follower = follower;
            limb->upper = place_in(target_path, target_count, joints[0]);
            limb->middle = place_in(target_path, target_count, joints[1]);
            limb->hips = place_in(target_path, target_count, tdn_body_map_joint(tmap, TDN_BODY_PART_HIPS));
            limb->end_height = is_hand(limb->which) ? -1.0f : tdn__retarget_rest_transform(ts, joints[2]).t.y;
        }
        used += source_count + target_count;
    }
    if (rt) {
        const int hips = tdn_body_map_joint(tmap, TDN_BODY_PART_HIPS);
        const tdn_quat hips_reference = tdn__retarget_model_transform(ts, &rt->reference, hips).r;
        rt->hips_forward = tdn_quat_rotate(tdn_quat_conjugate(tdn_quat_normalize(hips_reference)),
                                           tdn_vec3_make(0.0f, 0.0f, 1.0f));
    }
    return used - start;
}

void tdn_retarget_state_reset(tdn_retarget_state *state)
{
    if (!state)
        return;
    memset(state, 0, sizeof *state);
    for (int l = 0; l < TDN_RETARGET_LIMB_COUNT; l++)
        state->floor[l] = FLT_MAX;
}

/* A target limb as the pose has it: the model positions of its upper, middle and end joints,
 * the model rotations of their parents and of the hips. */
typedef struct limb_chain {
    tdn_vec3 upper, middle, end;
    tdn_quat parents[3];
    tdn_quat hips;
} limb_chain;

static limb_chain read_chain(const tdn_retarget *rt, const tdn__retarget_limb *limb, const tdn_pose *pose)
{
    const int *path = rt->path + limb->target_path_begin;
    const int n = limb->target_path_count;
    limb_chain chain = { .hips = tdn_quat_identity() };
    tdn_transform x = tdn_transform_identity();
    for (int i = 0; i < n; i++) {
        const int which = i == limb->upper ? 0 : i == limb->middle ? 1 : i == n - 1 && limb->follower < 0 ? 2 : -1;
        if (which >= 0)
            chain.parents[which] = tdn_quat_normalize(x.r);
        const tdn_transform local = tdn_pose_get(pose, path[i]);
        x = i == 0 ? local : tdn_transform_mul(&x, &local);
        if (i == limb->hips)
            chain.hips = tdn_quat_normalize(x.r);
        if (which == 0)
            chain.upper = x.t;
        if (which == 1)
            chain.middle = x.t;
    }
    chain.end = limb->follower < 0 ? x.t : tdn_transform_point(&x, rt->followers[limb->follower].offset);
    return chain;
}

/* Where the target's end should be this frame (target model space), given where it is (`free`)
 * and whether the source's end is planted; updates the limb's state. A planted end is held where
 * it landed, at its height; a lifted one is let go of over the blend time. */
static tdn_vec3 goal_of(const tdn_retarget *rt, const tdn__retarget_limb *limb, tdn_retarget_state *state, int planted,
                        float dt, const tdn_transform *to_world, const tdn_transform *to_model, tdn_vec3 free)
{
    tdn_retarget_limb_state *s = &state->limbs[limb->which];
    if (!planted) {
        const float weight = s->weight - dt / rt->contacts.blend > 0.0f ? s->weight - dt / rt->contacts.blend : 0.0f;
        s->offset = s->weight > 0.0f ? tdn_vec3_scale(s->offset, weight / s->weight) : tdn_vec3_make(0.0f, 0.0f, 0.0f);
        s->weight = weight;
        s->planted = 0;
        return tdn_vec3_add(free, s->offset);
    }
    if (!s->planted) /* it lands where the target's end is now, correction and all */
        s->lock = tdn_transform_point(to_world, tdn_vec3_add(free, s->offset));
    s->planted = 1;
    s->weight = 1.0f;
    tdn_vec3 goal = tdn_transform_point(to_model, s->lock);
    goal.y = limb->end_height >= 0.0f ? limb->end_height
                                      : rt->target_ground + state->floor[limb->which] * rt->scale; /* a hand */
    s->offset = tdn_vec3_sub(goal, free);
    return goal;
}

/* How far the upper joint must come down for the end to reach `goal` with the limb at REACH of
 * its length, or as far as it reaches now if that is further (so that a goal where the end is
 * asks for nothing); 0 when it reaches already. */
static float drop_to_reach(const limb_chain *chain, tdn_vec3 goal)
{
    const float full = tdn_vec3_length(tdn_vec3_sub(chain->middle, chain->upper)) +
                       tdn_vec3_length(tdn_vec3_sub(chain->end, chain->middle));
    const float length = fmaxf(REACH * full, tdn_vec3_length(tdn_vec3_sub(chain->end, chain->upper)));
    const tdn_vec3 to = tdn_vec3_sub(chain->upper, goal);
    const float across = to.x * to.x + to.z * to.z;
    if (tdn_vec3_dot(to, to) <= length * length || across >= length * length)
        return 0.0f; /* within reach, or out of it whatever the height */
    return to.y - sqrtf(length * length - across);
}

/* Lowers the target's hips by `drop` in model space. */
static void lower_hips(const tdn_retarget *rt, tdn_pose *pose, float drop)
{
    tdn_vec3 down = tdn_vec3_make(0.0f, -drop, 0.0f);
    if (rt->target_hips_parent >= 0) /* the parent stays at its reference */
        down = tdn_vec3_sub(tdn_transform_point(&rt->target_hips_parent_inverse, down),
                            tdn_transform_point(&rt->target_hips_parent_inverse, tdn_vec3_make(0.0f, 0.0f, 0.0f)));
    tdn_pose_row(pose, TDN_TX)[rt->target_hips] += down.x;
    tdn_pose_row(pose, TDN_TY)[rt->target_hips] += down.y;
    tdn_pose_row(pose, TDN_TZ)[rt->target_hips] += down.z;
}

/* Solves the target's limb for `goal`: the upper and middle joints turn, the end keeps its
 * model rotation. */
static void solve_limb(const tdn_retarget *rt, const tdn__retarget_limb *limb, const limb_chain *chain, tdn_pose *pose,
                       tdn_vec3 goal)
{
    const float l1 = tdn_vec3_length(tdn_vec3_sub(chain->middle, chain->upper));
    const float l2 = tdn_vec3_length(tdn_vec3_sub(chain->end, chain->middle));
    if (!(l1 + l2 > 0.0f))
        return;
    const tdn_vec3 line = tdn_vec3_sub(chain->end, chain->upper);
    tdn_vec3 forward = tdn_quat_rotate(chain->hips, rt->hips_forward);
    if (is_hand(limb->which))
        forward = tdn_vec3_scale(forward, -1.0f);
    const tdn_vec3 bend = tdn_vec3_cross(tdn_vec3_sub(chain->middle, chain->upper),
                                         tdn_vec3_sub(chain->end, chain->middle));
    const tdn_vec3 straight = tdn_vec3_cross(forward, tdn_vec3_normalize(line)); /* the knee goes forward about it */
    tdn_ik_two_bone_job job = { 0 };
    job.target = goal;
    job.pole = tdn_vec3_add(bend, tdn_vec3_scale(straight, FORWARD_BEND * l1 * l2));
    job.use_pole = 0; /* an axis */
    job.weight = 1.0f;
    tdn_quat hinge, swing;
    tdn__ik_two_bone_solve(&job, chain->upper, chain->middle, chain->end, l1, l2, &hinge, &swing);

    /* A model-space turn t of a joint whose parent's model rotation is P is P^-1 t P in the
     * parent's frame. The end turns back by what its parents turned. */
    const int *path = rt->path + limb->target_path_begin;
    const int joints[3] = { path[limb->upper], path[limb->middle], path[limb->target_path_count - 1] };
    const tdn_quat turns[3] = { swing, hinge, tdn_quat_conjugate(tdn_quat_mul(swing, hinge)) };
    for (int k = 0; k < (limb->follower < 0 ? 3 : 2); k++) { /* a follower does not turn with the leg */
        const tdn_quat p = chain->parents[k];
        const tdn_quat in_parent = tdn_quat_mul(tdn_quat_conjugate(p), tdn_quat_mul(turns[k], p));
        tdn__pose_set_rotation(pose, joints[k],
                               tdn_quat_normalize(tdn_quat_mul(in_parent, tdn__pose_rotation(pose, joints[k]))));
    }
}

tdn_result tdn_retarget_contacts(const tdn_retarget *retarget, tdn_retarget_state *state, const tdn_pose *source_pose,
                                 const tdn_transform *source_root, const float *contacts, float dt,
                                 tdn_pose *target_pose, tdn_error *err)
{
    const tdn_result checked = tdn__retarget_check_poses(retarget, source_pose, target_pose, err);
    if (checked != TDN_OK)
        return checked;
    if (!state)
        return tdn__null(err, "state");
    if (!(dt >= 0.0f) || !tdn__finite(dt))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "dt", "%g is not a finite time >= 0", (double)dt);

    int solved = 0, held[TDN_RETARGET_LIMB_COUNT];
    limb_chain chains[TDN_RETARGET_LIMB_COUNT];
    tdn_vec3 goals[TDN_RETARGET_LIMB_COUNT];
    float drop = 0.0f;
    const tdn_transform root = source_root ? *source_root : tdn_transform_identity();
    tdn_transform target_root = root;
    target_root.t = tdn_vec3_scale(root.t, retarget->scale);
    target_root.s = tdn_vec3_make(1.0f, 1.0f, 1.0f);
    const tdn_transform into_target_model = tdn_transform_inverse(&target_root);
    for (int l = 0; l < retarget->limb_count; l++) {
        const tdn__retarget_limb *limb = &retarget->limbs[l];
        tdn_retarget_limb_state *s = &state->limbs[limb->which];
        const int hand = is_hand(limb->which);

        /* Is the source's end planted? */
        const tdn_vec3 end =
            tdn__retarget_along(source_pose, retarget->path + limb->source_path_begin, limb->source_path_count).t;
        const tdn_vec3 world = tdn_transform_point(&root, end);
        const float height = end.y - retarget->source_ground;
        if (height < state->floor[limb->which])
            state->floor[limb->which] = height;
        const float given = hand ? 0.0f : retarget->contacts.floor[limb->which];
        const float floor = given > 0.0f ? given : state->floor[limb->which];
        const float moved = s->has_last ? tdn_vec3_length(tdn_vec3_sub(world, s->source_last)) : 0.0f;
        s->source_last = world;
        s->has_last = 1;
        if (moved > JUMP_HEIGHTS * retarget->contacts.height)
            s->planted = 0, s->weight = 0.0f, s->offset = tdn_vec3_make(0.0f, 0.0f, 0.0f);
        const int planted = contacts ? contacts[limb->which] >= 0.5f
                                     : height <= floor + retarget->contacts.height &&
                                           (dt > 0.0f ? moved / dt : 0.0f) <= retarget->contacts.speed;

        /* Where the target's end is, and where it should be. */
        chains[l] = read_chain(retarget, limb, target_pose);
        goals[l] = goal_of(retarget, limb, state, planted, dt, &target_root, &into_target_model, chains[l].end);
        held[l] = s->weight > 0.0f;
        drop = fmaxf(drop, drop_to_reach(&chains[l], goals[l]));
    }
    if (drop > 0.0f) { /* the hips come down until every held end is within reach */
        lower_hips(retarget, target_pose, drop);
        for (int l = 0; l < retarget->limb_count; l++) {
            chains[l].upper.y -= drop, chains[l].middle.y -= drop, chains[l].end.y -= drop;
        }
    }
    for (int l = 0; l < retarget->limb_count; l++)
        if (held[l])
            solve_limb(retarget, &retarget->limbs[l], &chains[l], target_pose, goals[l]), solved = 1;
    if (solved)
        tdn__retarget_place_followers(retarget, target_pose);
    return TDN_OK;
}
