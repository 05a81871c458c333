/* tendon core: the retarget definition (what each mapped target joint needs, precomputed from the
 * two skeletons, maps and reference poses) and the per-frame pose retarget. */
#include <stdio.h>

#include "internal.h"
#include "pose_rotation.h"
#include "quat_arc.h"
#include "retarget_internal.h"
#include "rsqrt.h"
#include "tendon/retarget.h"

/* The joints of every part of a map, sorted (so parents come first); returns their count. */
static int mapped_joints(const tdn_body_map *map, int *joints)
{
    int n = 0;
    for (int p = 0; p < TDN_BODY_PART_COUNT; p++)
        for (int i = 0; i < map->parts[p].joint_count; i++) {
            int j = map->parts[p].joints[i], k = n++;
            for (; k > 0 && joints[k - 1] > j; k--)
                joints[k] = joints[k - 1];
            joints[k] = j;
        }
    return n;
}

static int index_of(const int *joints, int n, int joint)
{
    for (int k = 0; k < n; k++)
        if (joints[k] == joint)
            return k;
    return -1;
}

/* The index in `joints` of joint j's nearest ancestor among them, or -1. */
static int nearest_mapped_ancestor(const tdn_skeleton *skeleton, const int *joints, int n, int j)
{
    for (int a = tdn_skeleton_parent(skeleton, j); a >= 0; a = tdn_skeleton_parent(skeleton, a)) {
        int k = index_of(joints, n, a);
        if (k >= 0)
            return k;
    }
    return -1;
}

/* See retarget_internal.h. */
tdn_transform tdn__retarget_rest_transform(const tdn_skeleton *skeleton, int joint)
{
    tdn_transform x = tdn_skeleton_rest(skeleton, joint);
    for (int a = tdn_skeleton_parent(skeleton, joint); a >= 0; a = tdn_skeleton_parent(skeleton, a)) {
        tdn_transform p = tdn_skeleton_rest(skeleton, a);
        x = tdn_transform_mul(&p, &x);
    }
    return x;
}

/* Hip to knee plus knee to ankle at rest, averaged over both legs, in model space. */
static float leg_length(const tdn_skeleton *skeleton, const tdn_body_map *map)
{
    static const tdn_body_part thighs[] = { TDN_BODY_PART_LEFT_THIGH, TDN_BODY_PART_RIGHT_THIGH };
    float sum = 0.0f;
    for (int s = 0; s < 2; s++) {
        tdn_vec3 p[3];
        for (int k = 0; k < 3; k++)
            p[k] = tdn__retarget_rest_transform(skeleton, tdn_body_map_joint(map, (tdn_body_part)(thighs[s] + k))).t;
        sum += tdn_vec3_length(tdn_vec3_sub(p[1], p[0])) + tdn_vec3_length(tdn_vec3_sub(p[2], p[1]));
    }
    return 0.5f * sum;
}

/* The contact settings: each finite and not negative. */
static tdn_result check_contacts(const tdn_retarget_desc *desc, tdn_error *err)
{
    const tdn_retarget_contact_desc *c = &desc->contacts;
    const float values[] = { c->height,           c->speed,           c->floor[0], c->floor[1], c->blend,
                             desc->source.ground, desc->target.ground };
    static const char *const names[] = { "desc.contacts.height",   "desc.contacts.speed", "desc.contacts.floor[0]",
                                         "desc.contacts.floor[1]", "desc.contacts.blend", "desc.source.ground",
                                         "desc.target.ground" };
    for (int i = 0; i < 7; i++)
        if (!tdn__finite(values[i]) || (i < 5 && values[i] < 0.0f))
            return tdn__fail(err, TDN_ERR_ARGUMENT, names[i], "%g is not %s", (double)values[i],
                             i < 5 ? "a finite number >= 0 (0: the default)" : "finite");
    return TDN_OK;
}

static tdn_result check_character(const tdn_retarget_character *c, const char *side, tdn_error *err)
{
    char where[48];
    if (!c->skeleton || !c->map) {
        snprintf(where, sizeof where, "desc.%s.%s", side, c->skeleton ? "map" : "skeleton");
        return tdn__null(err, where);
    }
    const int joints = tdn_skeleton_joint_count(c->skeleton);
    if (c->reference && c->reference->joint_count != joints) {
        snprintf(where, sizeof where, "desc.%s.reference", side);
        return tdn__pose_size(err, where, c->reference->joint_count, joints, "skeleton");
    }
    return tdn_body_map_check(c->skeleton, c->map, err);
}

/* See retarget_internal.h. */
int tdn__retarget_path(const tdn_skeleton *skeleton, int stop, int joint, int *path)
{
    int n = 0;
    for (int a = joint; a != stop; a = tdn_skeleton_parent(skeleton, a))
        n++;
    if (path) {
        int i = n;
        for (int a = joint; a != stop; a = tdn_skeleton_parent(skeleton, a))
            path[--i] = a;
    }
    return n;
}

/* The top of the spine, where its lean is measured to: the first neck joint, else the head. */
static int spine_top(const tdn_body_map *map)
{
    const int neck = tdn_body_map_joint(map, TDN_BODY_PART_NECK);
    return neck >= 0 ? neck : tdn_body_map_joint(map, TDN_BODY_PART_HEAD);
}

/* The turn, about the target's first spine joint, that leans the target's spine (hips to top)
 * the way the source's leans (`source`), given the target's hips-to-first-spine-joint `h` and
 * first-spine-joint-to-top `r`: the point t * source at distance |r| from h, reached by turning
 * r. Bone by bone the chains already point alike; this corrects what different proportions of
 * the spine's bones make of the whole. The identity when no such point exists. */
static tdn_quat spine_lean(tdn_vec3 h, tdn_vec3 r, tdn_vec3 source)
{
    const tdn_vec3 d = tdn_vec3_normalize(source);
    const float dh = tdn_vec3_dot(d, h), disc = dh * dh - tdn_vec3_dot(h, h) + tdn_vec3_dot(r, r);
    if (!(disc >= 0.0f) || tdn_vec3_dot(d, d) == 0.0f || tdn_vec3_dot(r, r) == 0.0f)
        return tdn_quat_identity();
    const tdn_vec3 want = tdn_vec3_sub(tdn_vec3_scale(d, dh + sqrtf(disc)), h);
    return tdn_quat_from_to(tdn_vec3_normalize(r), tdn_vec3_normalize(want));
}

/* Sets up the spine's lean: the source's path from its hips to its top (at rt->path + used) and
 * the target's spine bones with their offsets. Returns the path's length (rt NULL: counts only). */
static int fill_lean(tdn_retarget *rt, const tdn_retarget_desc *desc, int used)
{
    const tdn_body_map *smap = desc->source.map, *tmap = desc->target.map;
    const int source_top = spine_top(smap), target_top = spine_top(tmap);
    if (source_top < 0 || target_top < 0 || smap->parts[TDN_BODY_PART_SPINE].joint_count == 0 ||
        tmap->parts[TDN_BODY_PART_SPINE].joint_count == 0)
        return 0;
    const tdn_skeleton *ss = desc->source.skeleton, *ts = desc->target.skeleton;
    const int source_hips = tdn_body_map_joint(smap, TDN_BODY_PART_HIPS);
    const int count = tdn__retarget_path(ss, source_hips, source_top, rt ? rt->path + used : NULL);
    if (!rt)
        return count;
    const tdn_body_map_part *spine = &tmap->parts[TDN_BODY_PART_SPINE];
    const int hips = tdn_body_map_joint(tmap, TDN_BODY_PART_HIPS);
    rt->lean.on = 1;
    rt->lean.source_path_begin = used;
    rt->lean.source_path_count = count;
    rt->lean.count = spine->joint_count;
    for (int i = -1; i < spine->joint_count; i++) {
        const int from = i < 0 ? hips : spine->joints[i];
        const int to = i + 1 < spine->joint_count ? spine->joints[i + 1] : target_top;
        tdn_transform a = tdn__retarget_model_transform(ts, &rt->reference, from);
        tdn_vec3 offset = tdn_quat_rotate(tdn_quat_conjugate(a.r),
                                          tdn_vec3_sub(tdn__retarget_model_transform(ts, &rt->reference, to).t, a.t));
        for (int k = 0; k < rt->target_count; k++)
            if (rt->target[k].joint == from) {
                if (i < 0)
                    rt->lean.hips = k, rt->lean.hips_offset = offset;
                else
                    rt->lean.bones[i] = k, rt->lean.offsets[i] = offset;
            }
    }
    return count;
}

/* Sets up the hips' height at the thighs: the source's paths from its hips to its thighs (at
 * rt->path + used), the target's thighs' midpoint in its hips' frame. Returns the paths' length
 * (rt NULL: counts only). */
static int fill_thighs(tdn_retarget *rt, const tdn_retarget_desc *desc, int used)
{
    const tdn_skeleton *ss = desc->source.skeleton, *ts = desc->target.skeleton;
    const int source_hips = tdn_body_map_joint(desc->source.map, TDN_BODY_PART_HIPS);
    const int target_hips = tdn_body_map_joint(desc->target.map, TDN_BODY_PART_HIPS);
    static const tdn_body_part thighs[2] = { TDN_BODY_PART_LEFT_THIGH, TDN_BODY_PART_RIGHT_THIGH };
    int length = 0;
    tdn_vec3 mid = tdn_vec3_make(0.0f, 0.0f, 0.0f);
    for (int s = 0; s < 2; s++) {
        const int thigh = tdn_body_map_joint(desc->source.map, thighs[s]);
        const int count = tdn__retarget_path(ss, source_hips, thigh, rt ? rt->path + used + length : NULL);
        if (rt) {
            rt->thigh_path_begin[s] = used + length;
            rt->thigh_path_count[s] = count;
            mid = tdn_vec3_add(
                mid,
                tdn__retarget_model_transform(ts, &rt->reference, tdn_body_map_joint(desc->target.map, thighs[s])).t);
        }
        length += count;
    }
    if (rt) {
        const tdn_transform hips = tdn__retarget_model_transform(ts, &rt->reference, target_hips);
        rt->target_thighs = tdn_quat_rotate(tdn_quat_conjugate(tdn_quat_normalize(hips.r)),
                                            tdn_vec3_sub(tdn_vec3_scale(mid, 0.5f), hips.t));
        for (int k = 0; k < rt->target_count; k++)
            if (rt->target[k].joint == target_hips)
                rt->target_hips_bone = k;
    }
    return length;
}

/* Fills the source bones (and their paths) of the sorted mapped joints; returns the paths' length. */
static int fill_source(tdn_retarget *rt, const tdn_skeleton *skeleton, const int *joints, int n,
                       const tdn_pose *reference)
{
    int used = 0;
    for (int k = 0; k < n; k++) {
        tdn__retarget_source_bone *b = rt ? &rt->source[k] : NULL;
        const int anchor = nearest_mapped_ancestor(skeleton, joints, n, joints[k]);
        const int count = tdn__retarget_path(skeleton, anchor >= 0 ? joints[anchor] : -1, joints[k],
                                             rt ? rt->path + used : NULL);
        if (b) {
            b->joint = joints[k];
            b->anchor = anchor;
            b->path_begin = used;
            b->path_count = count;
            b->reference_inverse = tdn_quat_conjugate(tdn__retarget_model_transform(skeleton, reference, joints[k]).r);
        }
        used += count;
    }
    return used;
}

/* The target's joints in parts the source also has, sorted; returns their count. */
static int shared_joints(const tdn_body_map *target, const tdn_body_map *source, int *joints)
{
    tdn_body_map shared = *target;
    for (int p = 0; p < TDN_BODY_PART_COUNT; p++)
        if (source->parts[p].joint_count == 0)
            shared.parts[p].joint_count = 0;
    return mapped_joints(&shared, joints);
}

/* Where target joint j's turn comes from: its part's joint of the same place in the source, or,
 * for chains of different counts, the turn from the chain's anchor to its last joint, weighed
 * by the target's cumulative length along the chain. */
static void fill_turn(tdn__retarget_target_bone *b, const tdn_retarget_desc *desc, const int *source_joints, int ns,
                      const tdn_pose *target_reference)
{
    const tdn_body_map *smap = desc->source.map, *tmap = desc->target.map;
    const tdn_skeleton *ts = desc->target.skeleton;
    for (int p = 0; p < TDN_BODY_PART_COUNT; p++) {
        const tdn_body_map_part *tp = &tmap->parts[p], *sp = &smap->parts[p];
        for (int i = 0; i < tp->joint_count; i++) {
            if (tp->joints[i] != b->joint)
                continue;
            b->weight = 1.0f;
            b->base = -1;
            if (sp->joint_count == tp->joint_count) {
                b->last = index_of(source_joints, ns, sp->joints[i]);
                return;
            }
            b->last = index_of(source_joints, ns, sp->joints[sp->joint_count - 1]);
            b->base = nearest_mapped_ancestor(desc->source.skeleton, source_joints, ns, sp->joints[0]);
            float along = 0.0f, total = 0.0f;
            int parent = tdn_skeleton_parent(ts, tp->joints[0]);
            tdn_vec3 before = parent >= 0 ? tdn__retarget_model_transform(ts, target_reference, parent).t
                                          : tdn_vec3_make(0.0f, 0.0f, 0.0f);
            for (int k = 0; k < tp->joint_count; k++) {
                tdn_vec3 at = tdn__retarget_model_transform(ts, target_reference, tp->joints[k]).t;
                total += tdn_vec3_length(tdn_vec3_sub(at, before));
                before = at;
                if (k == i)
                    along = total;
            }
            b->weight = total > 0.0f ? along / total : (float)(i + 1) / (float)tp->joint_count;
            return;
        }
    }
}

static void fill_target(tdn_retarget *rt, const tdn_retarget_desc *desc, const int *joints, int n,
                        const int *source_joints, int ns)
{
    const tdn_skeleton *ts = desc->target.skeleton;
    for (int k = 0; k < n; k++) {
        tdn__retarget_target_bone *b = &rt->target[k];
        b->joint = joints[k];
        b->anchor = nearest_mapped_ancestor(ts, joints, n, joints[k]);
        const int stop = b->anchor >= 0 ? joints[b->anchor] : -1;
        b->above = tdn_quat_identity();
        b->above_identity = tdn_skeleton_parent(ts, joints[k]) == stop;
        for (int a = tdn_skeleton_parent(ts, joints[k]); a != stop; a = tdn_skeleton_parent(ts, a))
            b->above = tdn_quat_mul(tdn__pose_rotation(&rt->reference, a), b->above);
        b->after = tdn__retarget_model_transform(ts, &rt->reference, joints[k]).r;
        fill_turn(b, desc, source_joints, ns, &rt->reference);
    }
}

/* Gives each target joint of a spread chain its arc, one per (base, last); folds the source's
 * reference into the others' `after`. */
static void fill_arcs(tdn_retarget *rt)
{
    for (int k = 0; k < rt->target_count; k++) {
        tdn__retarget_target_bone *b = &rt->target[k];
        b->arc = -1;
        if (b->base < 0 && b->weight == 1.0f) {
            b->after = tdn_quat_mul(rt->source[b->last].reference_inverse, b->after);
            continue;
        }
        for (int a = 0; a < rt->arc_count && b->arc < 0; a++)
            if (rt->arcs[a].base == b->base && rt->arcs[a].last == b->last)
                b->arc = a;
        if (b->arc < 0) {
            b->arc = rt->arc_count++;
            rt->arcs[b->arc].base = b->base;
            rt->arcs[b->arc].last = b->last;
        }
    }
}

tdn_result tdn_retarget_create(const tdn_retarget_desc *desc, tdn_retarget **out, const tdn_allocator *allocator,
                               tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!desc)
        return tdn__null(err, "desc");
    if (!out)
        return tdn__null(err, "out");
    tdn_result r = tdn__check_allocator(allocator, err);
    if (r == TDN_OK)
        r = check_character(&desc->source, "source", err);
    if (r == TDN_OK)
        r = check_character(&desc->target, "target", err);
    if (r != TDN_OK)
        return r;
    if (!(desc->scale >= 0.0f) || !tdn__finite(desc->scale))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.scale",
                         "the scale is %g: give a positive number, or 0 for the ratio of the leg lengths",
                         (double)desc->scale);
    r = check_contacts(desc, err);
    if (r != TDN_OK)
        return r;
    const tdn_skeleton *ss = desc->source.skeleton, *ts = desc->target.skeleton;
    float scale = desc->scale;
    const float source_leg = leg_length(ss, desc->source.map);
    if (scale == 0.0f) {
        const float target_leg = leg_length(ts, desc->target.map);
        if (!(source_leg > 0.0f) || !(target_leg > 0.0f) || !tdn__finite(target_leg / source_leg))
            return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.scale",
                             "the scale is 0 (the ratio of the leg lengths) but the %s's legs have length %g: give one",
                             source_leg > 0.0f ? "target" : "source",
                             (double)(source_leg > 0.0f ? target_leg : source_leg));
        scale = target_leg / source_leg;
    }

    int source_joints[TDN__RETARGET_MAX_BONES], target_joints[TDN__RETARGET_MAX_BONES];
    const int ns = mapped_joints(desc->source.map, source_joints);
    const int nt = shared_joints(desc->target.map, desc->source.map, target_joints);
    const int bone_paths = fill_source(NULL, ss, source_joints, ns, NULL);
    const int lean_path = fill_lean(NULL, desc, 0);
    const int follower_path = tdn__retarget_fill_followers(NULL, desc, 0);
    const int limb_path = tdn__retarget_fill_limbs(NULL, desc, 0);
    const int path_length = bone_paths + lean_path + follower_path + limb_path + fill_thighs(NULL, desc, 0);
    const int tj = tdn_skeleton_joint_count(ts);
    size_t at = tdn__align_up(sizeof(tdn_retarget), TDN_POSE_ALIGN);
    const size_t pose_at = at;
    at = tdn__align_up(at + tdn_pose_bytes(tj), 16);
    const size_t source_at = at;
    at += (size_t)ns * sizeof(tdn__retarget_source_bone);
    const size_t target_at = tdn__align_up(at, 16);
    at = target_at + (size_t)nt * sizeof(tdn__retarget_target_bone);
    const size_t path_at = at;
    const size_t bytes = path_at + (size_t)path_length * sizeof(int);
    char *memory = tdn__alloc(allocator, bytes, TDN_POSE_ALIGN);
    if (!memory)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "no memory for a retarget of %zu bytes", bytes);
    tdn_retarget *rt = (tdn_retarget *)memory;
    memset(rt, 0, sizeof *rt);
    rt->allocator = tdn__allocator_of(allocator);
    rt->bytes = bytes;
    rt->scale = scale;
    rt->source_ground = desc->source.ground;
    rt->target_ground = desc->target.ground;
    rt->contacts = desc->contacts;
    if (rt->contacts.height == 0.0f)
        rt->contacts.height = 0.025f * source_leg;
    if (rt->contacts.speed == 0.0f)
        rt->contacts.speed = 0.1875f * source_leg;
    if (rt->contacts.blend == 0.0f)
        rt->contacts.blend = 0.1f;
    rt->hips_ground = rt->target_ground;
    if (desc->contacts.floor[0] > 0.0f && desc->contacts.floor[1] > 0.0f) {
        /* the hips' height above the planted ankles, scaled, above the target's ankles at rest */
        rt->hips_floor = 0.5f * (desc->contacts.floor[0] + desc->contacts.floor[1]);
        rt->hips_ground =
            0.5f *
            (tdn__retarget_rest_transform(ts, tdn_body_map_joint(desc->target.map, TDN_BODY_PART_LEFT_FOOT)).t.y +
             tdn__retarget_rest_transform(ts, tdn_body_map_joint(desc->target.map, TDN_BODY_PART_RIGHT_FOOT)).t.y);
    }
    rt->source_joints = tdn_skeleton_joint_count(ss);
    rt->source_count = ns;
    rt->target_count = nt;
    rt->source = (tdn__retarget_source_bone *)(memory + source_at);
    rt->target = (tdn__retarget_target_bone *)(memory + target_at);
    rt->path = (int *)(memory + path_at);
    tdn_pose_init(tj, memory + pose_at, tdn_pose_bytes(tj), &rt->reference, NULL);
    r = desc->target.reference ? tdn_pose_copy(&rt->reference, desc->target.reference, err)
                               : tdn_retarget_reference_pose(ts, desc->target.map, NULL, &rt->reference, err);

    tdn_pose built = { 0 };
    const tdn_pose *source_reference = desc->source.reference;
    if (r == TDN_OK && !source_reference) {
        r = tdn_pose_create(rt->source_joints, &built, allocator, err);
        if (r == TDN_OK)
            r = tdn_retarget_reference_pose(ss, desc->source.map, NULL, &built, err);
        source_reference = &built;
    }
    if (r != TDN_OK) {
        tdn_pose_destroy(&built);
        tdn__free(allocator, memory, bytes);
        return r;
    }
    fill_source(rt, ss, source_joints, ns, source_reference);
    fill_target(rt, desc, target_joints, nt, source_joints, ns);
    fill_arcs(rt);
    fill_lean(rt, desc, bone_paths);
    tdn__retarget_fill_followers(rt, desc, bone_paths + lean_path);
    tdn__retarget_fill_limbs(rt, desc, bone_paths + lean_path + follower_path);
    fill_thighs(rt, desc, bone_paths + lean_path + follower_path + limb_path);

    const int source_hips = tdn_body_map_joint(desc->source.map, TDN_BODY_PART_HIPS);
    rt->source_hips = index_of(source_joints, ns, source_hips);
    rt->source_hips_reference = tdn__retarget_model_transform(ss, source_reference, source_hips).t;
    rt->target_hips = tdn_body_map_joint(desc->target.map, TDN_BODY_PART_HIPS);
    rt->target_hips_reference = tdn__retarget_model_transform(ts, &rt->reference, rt->target_hips).t;
    rt->target_hips_parent = tdn_skeleton_parent(ts, rt->target_hips);
    if (rt->target_hips_parent >= 0) {
        tdn_transform parent = tdn__retarget_model_transform(ts, &rt->reference, rt->target_hips_parent);
        rt->target_hips_parent_inverse = tdn_transform_inverse(&parent);
    }
    tdn_pose_destroy(&built);
    *out = rt;
    return TDN_OK;
}

void tdn_retarget_destroy(tdn_retarget *retarget)
{
    if (retarget)
        tdn__free(&retarget->allocator, retarget, retarget->bytes);
}

float tdn_retarget_scale(const tdn_retarget *retarget) { return retarget ? retarget->scale : 0.0f; }

tdn_retarget_contact_desc tdn_retarget_contact_settings(const tdn_retarget *retarget)
{
    return retarget ? retarget->contacts : (tdn_retarget_contact_desc){ 0 };
}

int tdn__retarget_source_joint_count(const tdn_retarget *retarget) { return retarget->source_joints; }
int tdn__retarget_target_joint_count(const tdn_retarget *retarget) { return retarget->reference.joint_count; }

/* q made unit by the fast reciprocal square root (rsqrt.h): the per-frame normalizations do not
 * wait on a division; the identity for a zero q, as tdn_quat_normalize. */
static tdn_quat unit(tdn_quat q)
{
    const float length2 = tdn_quat_dot(q, q);
    if (!(length2 > 0.0f))
        return tdn_quat_identity();
    const float s = tdn__scaled_rsqrt(1.0f, length2);
    return tdn_quat_make(q.x * s, q.y * s, q.z * s, q.w * s);
}

/* Source bone k's turn away from its reference, from its model rotation. */
static tdn_quat source_turn(const tdn_retarget *retarget, const tdn_quat *model, int k)
{
    return tdn_quat_mul(unit(model[k]), retarget->source[k].reference_inverse);
}

/* The model position of a path's last joint, its first joint's parent being at `at` with
 * `rotation` and `scale`: the position alone, from the pose's rows (cheaper than composing
 * transforms). */
static tdn_vec3 position_along(const tdn_pose *pose, tdn_vec3 at, tdn_quat rotation, tdn_vec3 scale, const int *path,
                               int count)
{
    for (int i = 0; i < count; i++) {
        const int j = path[i];
        const tdn_vec3 t = tdn_vec3_make(tdn_pose_crow(pose, TDN_TX)[j], tdn_pose_crow(pose, TDN_TY)[j],
                                         tdn_pose_crow(pose, TDN_TZ)[j]);
        at = tdn_vec3_add(at, tdn_quat_rotate(rotation, tdn_vec3_mul(scale, t)));
        if (i + 1 == count)
            break;
        rotation = unit(tdn_quat_mul(rotation, tdn__pose_rotation(pose, j)));
        scale = tdn_vec3_mul(scale, tdn_vec3_make(tdn_pose_crow(pose, TDN_SX)[j], tdn_pose_crow(pose, TDN_SY)[j],
                                                  tdn_pose_crow(pose, TDN_SZ)[j]));
    }
    return at;
}

/* Target bone k's model rotation as a unit quaternion (an arc's already is). */
static tdn_quat unit_model(const tdn_retarget *retarget, const tdn_quat *model, int k)
{
    return retarget->target[k].arc < 0 ? unit(model[k]) : model[k];
}

/* See retarget_internal.h. */
tdn_result tdn__retarget_check_poses(const tdn_retarget *retarget, const tdn_pose *source_pose,
                                     const tdn_pose *target_pose, tdn_error *err)
{
    if (!retarget)
        return tdn__null(err, "retarget");
    if (!source_pose || !source_pose->data)
        return tdn__null(err, "source_pose");
    if (!target_pose || !target_pose->data)
        return tdn__null(err, "target_pose");
    if (source_pose->joint_count != retarget->source_joints)
        return tdn__pose_size(err, "source_pose", source_pose->joint_count, retarget->source_joints, "source skeleton");
    if (target_pose->joint_count != retarget->reference.joint_count)
        return tdn__pose_size(err, "target_pose", target_pose->joint_count, retarget->reference.joint_count,
                              "target skeleton");
    return TDN_OK;
}

tdn_result tdn_retarget_pose(const tdn_retarget *retarget, const tdn_pose *source_pose, tdn_pose *target_pose,
                             tdn_error *err)
{
    const tdn_result checked = tdn__retarget_check_poses(retarget, source_pose, target_pose, err);
    if (checked != TDN_OK)
        return checked;

    /* The source's model rotations, not normalized along the chains (the same rotations):
     * normalized where they are used, they do not wait on each other. */
    tdn_quat source_model[TDN__RETARGET_MAX_BONES], target_model[TDN__RETARGET_MAX_BONES];
    tdn_vec3 hips = tdn_vec3_make(0.0f, 0.0f, 0.0f), hips_scale = tdn_vec3_make(1.0f, 1.0f, 1.0f);
    tdn_quat hips_rotation = tdn_quat_identity();
    for (int k = 0; k < retarget->source_count; k++) {
        const tdn__retarget_source_bone *b = &retarget->source[k];
        const int *path = retarget->path + b->path_begin;
        if (k == retarget->source_hips) { /* its path starts at the root: its position too */
            const tdn_transform x = tdn__retarget_along(source_pose, path, b->path_count);
            hips = x.t, hips_rotation = x.r, hips_scale = x.s;
            source_model[k] = x.r;
            continue;
        }
        tdn_quat q = b->anchor >= 0 ? source_model[b->anchor] : tdn_quat_identity();
        for (int i = 0; i < b->path_count; i++)
            q = tdn_quat_mul(q, tdn__pose_rotation(source_pose, path[i]));
        source_model[k] = q;
    }

    /* The target's model rotations, the spine leaned as the source's, then written as locals. */
    tdn__quat_arc arcs[TDN_BODY_PART_COUNT];
    for (int a = 0; a < retarget->arc_count; a++) {
        const int base = retarget->arcs[a].base, last = retarget->arcs[a].last;
        const tdn_quat from = base >= 0 ? source_turn(retarget, source_model, base) : tdn_quat_identity();
        arcs[a] = tdn__quat_arc_make(from, source_turn(retarget, source_model, last));
    }
    /* Not normalized where the source's model rotation is taken as it is (no arc): the locals
     * written below are, and their norms cancel there; the lean normalizes what it reads. */
    for (int k = 0; k < retarget->target_count; k++) {
        const tdn__retarget_target_bone *b = &retarget->target[k];
        const tdn_quat q = b->arc < 0          ? source_model[b->last]
                           : b->weight == 1.0f ? arcs[b->arc].b /* the arc's end */
                                               : tdn__quat_arc_at(&arcs[b->arc], b->weight);
        target_model[k] = tdn_quat_mul(q, b->after);
    }
    if (retarget->lean.on) {
        const tdn_vec3 top = position_along(source_pose, hips, hips_rotation, hips_scale,
                                            retarget->path + retarget->lean.source_path_begin,
                                            retarget->lean.source_path_count);
        tdn_vec3 h = tdn_quat_rotate(unit_model(retarget, target_model, retarget->lean.hips),
                                     retarget->lean.hips_offset);
        tdn_vec3 r = tdn_vec3_make(0.0f, 0.0f, 0.0f);
        for (int i = 0; i < retarget->lean.count; i++)
            r = tdn_vec3_add(r, tdn_quat_rotate(unit_model(retarget, target_model, retarget->lean.bones[i]),
                                                retarget->lean.offsets[i]));
        const tdn_quat lean = spine_lean(h, r, tdn_vec3_sub(top, hips));
        for (int i = 0; i < retarget->lean.count; i++)
            target_model[retarget->lean.bones[i]] = tdn_quat_mul(lean, target_model[retarget->lean.bones[i]]);
    }
    tdn_pose_copy(target_pose, &retarget->reference, NULL);
    for (int k = 0; k < retarget->target_count; k++) {
        const tdn__retarget_target_bone *b = &retarget->target[k];
        const tdn_quat parent = b->anchor < 0       ? b->above
                                : b->above_identity ? target_model[b->anchor]
                                                    : tdn_quat_mul(target_model[b->anchor], b->above);
        tdn__pose_set_rotation(target_pose, b->joint, unit(tdn_quat_mul(tdn_quat_conjugate(parent), target_model[k])));
    }

    tdn_vec3 p = tdn_vec3_add(retarget->target_hips_reference,
                              tdn_vec3_scale(tdn_vec3_sub(hips, retarget->source_hips_reference), retarget->scale));
    /* the height: the target's thighs as high above its ankles (ground) as the source's, scaled */
    float source_thighs = 0.0f;
    for (int s = 0; s < 2; s++)
        source_thighs += 0.5f * position_along(source_pose, hips, hips_rotation, hips_scale,
                                               retarget->path + retarget->thigh_path_begin[s],
                                               retarget->thigh_path_count[s])
                                    .y;
    const tdn_vec3 thighs = tdn_quat_rotate(unit_model(retarget, target_model, retarget->target_hips_bone),
                                            retarget->target_thighs);
    p.y = retarget->hips_ground + (source_thighs - retarget->source_ground - retarget->hips_floor) * retarget->scale -
          thighs.y;
    if (retarget->target_hips_parent >= 0)
        p = tdn_transform_point(&retarget->target_hips_parent_inverse, p);
    tdn_pose_row(target_pose, TDN_TX)[retarget->target_hips] = p.x;
    tdn_pose_row(target_pose, TDN_TY)[retarget->target_hips] = p.y;
    tdn_pose_row(target_pose, TDN_TZ)[retarget->target_hips] = p.z;
    tdn__retarget_place_followers(retarget, target_pose);
    return TDN_OK;
}
