/* tendon core: finding a skeleton's body map from its hierarchy and reference pose, with the
 * names' clues (body_map_names.c). docs/retarget.md ("The body map") states the rules.
 *
 * Nothing is allocated and no per-joint table is kept: a skeleton may have up to
 * TDN_MAX_JOINTS joints and the map lives in caller memory, so a joint's model-space position
 * is composed on demand up its ancestors (tdn_model_space would need a matrix per joint), and
 * the walks below visit only the few joints on the parts' paths. */
#include <math.h>
#include <string.h>

#include "body_map_internal.h"
#include "internal.h"

/* Longest path followed down one limb or the spine before it branches. */
#define MAX_PATH 32

typedef struct finder {
    const tdn_skeleton *skeleton;
    const tdn_pose *reference;
    const int16_t *parents;
    int joint_count;
    tdn_body_map *map;
    tdn_error *err;
} finder;

/* One limb or the spine as found before sides are settled. */
typedef struct path {
    int count;
    int joints[MAX_PATH];
} path;

static tdn__body_name name_of(const finder *f, int joint)
{
    return tdn__body_name_read(tdn_skeleton_joint_name(f->skeleton, joint));
}

static const char *joint_name(const finder *f, int joint) { return tdn_skeleton_joint_name(f->skeleton, joint); }

static tdn_transform local_of(const finder *f, int joint)
{
    return f->reference ? tdn_pose_get(f->reference, joint) : tdn_skeleton_rest(f->skeleton, joint);
}

static tdn_vec3 position(const finder *f, int joint)
{
    tdn_vec3 p = tdn_vec3_make(0.0f, 0.0f, 0.0f);
    for (int j = joint; j >= 0; j = f->parents[j]) {
        const tdn_transform x = local_of(f, j);
        p = tdn_transform_point(&x, p);
    }
    return p;
}

static float distance(const finder *f, int a, int b)
{
    return tdn_vec3_length(tdn_vec3_sub(position(f, b), position(f, a)));
}

/* An end marker, a helper by name, or a leaf of length zero: never a part, never followed. */
static int is_aside(const finder *f, int joint)
{
    const tdn__body_word word = name_of(f, joint).word;
    if (word == TDN__WORD_END || word == TDN__WORD_HELPER)
        return 1;
    const int leaf = tdn_skeleton_subtree_end(f->skeleton, joint) == joint + 1;
    return leaf && tdn_vec3_length(local_of(f, joint).t) <= 1e-6f;
}

/* The children of `joint` that are not aside, in order; returns how many (at most `max` kept). */
static int body_children(const finder *f, int joint, int *out, int max)
{
    int count = 0;
    const int end = tdn_skeleton_subtree_end(f->skeleton, joint);
    for (int c = joint + 1; c < end; c = tdn_skeleton_subtree_end(f->skeleton, c))
        if (!is_aside(f, c)) {
            if (count < max)
                out[count] = c;
            count++;
        }
    return count;
}

/* From `start` down while each joint has one child that is not aside: a limb up to where it
 * branches (a hand into fingers, a chest into arms and neck) or ends. */
static void walk(const finder *f, int start, path *p)
{
    p->count = 0;
    for (int j = start; j >= 0 && p->count < MAX_PATH;) {
        p->joints[p->count++] = j;
        int child;
        j = body_children(f, j, &child, 1) == 1 ? child : -1;
    }
}

static int height(const finder *f, int joint)
{
    int h = 0;
    const int base = tdn_skeleton_depth(f->skeleton, joint), end = tdn_skeleton_subtree_end(f->skeleton, joint);
    for (int j = joint; j < end; j++) {
        const int d = tdn_skeleton_depth(f->skeleton, j) - base;
        h = d > h ? d : h;
    }
    return h;
}

/* Two legs or two arms: subtrees of one height whose walks (walk) are as long. Not the whole
 * shape: Soldier's thumbs have two joints on the left and three on the right. */
static int alike(const finder *f, int a, int b)
{
    path pa, pb;
    walk(f, a, &pa);
    walk(f, b, &pb);
    return pa.count == pb.count && height(f, a) == height(f, b);
}

static int is_leg_word(tdn__body_word word)
{
    return word == TDN__WORD_THIGH || word == TDN__WORD_SIDED_HIP || word == TDN__WORD_SHIN ||
           word == TDN__WORD_LEG_CHAIN;
}

/* The child of `ancestor` on the way down to `joint`. */
static int child_towards(const finder *f, int ancestor, int joint)
{
    while (f->parents[joint] != ancestor)
        joint = f->parents[joint];
    return joint;
}

static int common_ancestor(const finder *f, int a, int b)
{
    while (a >= 0 && !tdn_skeleton_is_in_subtree(f->skeleton, b, a))
        a = f->parents[a];
    return a;
}

/* The hips and their two leg children. By names: the lowest common ancestor of the root-most
 * sided leg joint of each side (*named = 1, legs[0] left). Otherwise by the hierarchy: the
 * root-most joint with two children alike (alike) at least three joints deep (thigh,
 * shin, foot) and a third child (the spine); sides are settled later by geometry. */
static int find_hips(const finder *f, int legs[2], int *named)
{
    int root_most[2] = { -1, -1 };
    for (int j = 0; j < f->joint_count; j++) {
        const tdn__body_name nm = name_of(f, j);
        if (nm.side == 0 || !is_leg_word(nm.word) || is_aside(f, j))
            continue;
        int *r = &root_most[nm.side - 1];
        if (*r < 0 || tdn_skeleton_depth(f->skeleton, j) < tdn_skeleton_depth(f->skeleton, *r))
            *r = j;
    }
    if (root_most[0] >= 0 && root_most[1] >= 0) {
        const int hips = common_ancestor(f, root_most[0], root_most[1]);
        if (hips >= 0 && hips != root_most[0] && hips != root_most[1]) {
            legs[0] = child_towards(f, hips, root_most[0]);
            legs[1] = child_towards(f, hips, root_most[1]);
            *named = 1;
            return hips;
        }
    }
    for (int j = 0; j < f->joint_count; j++) {
        int c[8];
        const int n = body_children(f, j, c, 8);
        if (n < 3 || n > 8)
            continue;
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                if (height(f, c[a]) >= 2 && alike(f, c[a], c[b])) {
                    legs[0] = c[a];
                    legs[1] = c[b];
                    *named = 0;
                    return j;
                }
    }
    return -1;
}

static void set_part(tdn_body_map *map, tdn_body_part part, const int *joints, int count, tdn_body_map_evidence how)
{
    tdn_body_map_part *p = &map->parts[part];
    p->joint_count = count;
    for (int i = 0; i < count; i++)
        p->joints[i] = joints[i];
    p->evidence = count > 0 ? how : TDN_BODY_MAP_EVIDENCE_NONE;
}

static tdn_body_map_evidence by_word(const finder *f, int joint, tdn__body_word word, tdn_body_map_evidence otherwise)
{
    return name_of(f, joint).word == word ? TDN_BODY_MAP_EVIDENCE_NAME : otherwise;
}

/* Index of the first joint of p whose word is `word`, or -1. */
static int index_of_word(const finder *f, const path *p, tdn__body_word word)
{
    for (int i = 0; i < p->count; i++)
        if (name_of(f, p->joints[i]).word == word)
            return i;
    return -1;
}

/* A leg's parts from its path: the thigh is the joint named so, else the first joint whose
 * bone is at least half the path's longest (CMU's short LHipJoint and DAZ's lButtock are
 * passed over); shin, foot and toes follow it. A foot that is not below the shin (an IK
 * target parented elsewhere, as RobotExpressive's) is taken by its name and side. */
static tdn_result find_leg(const finder *f, int start, int side, tdn_body_part thigh_part)
{
    path p;
    walk(f, start, &p);
    int t = index_of_word(f, &p, TDN__WORD_THIGH);
    tdn_body_map_evidence how = TDN_BODY_MAP_EVIDENCE_NAME;
    if (t < 0) {
        float longest = 0.0f;
        for (int i = 0; i + 1 < p.count; i++) {
            const float d = distance(f, p.joints[i], p.joints[i + 1]);
            longest = d > longest ? d : longest;
        }
        t = 0;
        while (t + 1 < p.count && distance(f, p.joints[t], p.joints[t + 1]) < 0.5f * longest)
            t++;
        how = t > 0 ? TDN_BODY_MAP_EVIDENCE_GEOMETRY : TDN_BODY_MAP_EVIDENCE_TOPOLOGY;
    }
    const char *leg = side == 1 ? "left" : "right";
    const int thigh = p.joints[t];
    set_part(f->map, thigh_part, &thigh, 1, how);
    if (t + 1 >= p.count)
        return tdn__fail(f->err, TDN_ERR_INVALID_DATA, joint_name(f, thigh),
                         "not a humanoid: the %s leg has no shin below its thigh '%s'", leg, joint_name(f, thigh));
    const int shin = p.joints[t + 1];
    const tdn__body_word shin_word = name_of(f, shin).word;
    if (shin_word == TDN__WORD_FOOT || shin_word == TDN__WORD_TOES)
        return tdn__fail(f->err, TDN_ERR_INVALID_DATA, joint_name(f, thigh),
                         "not a humanoid: the %s leg has no shin between its thigh '%s' and '%s'", leg,
                         joint_name(f, thigh), joint_name(f, shin));
    set_part(f->map, thigh_part + 1, &shin, 1, by_word(f, shin, TDN__WORD_SHIN, TDN_BODY_MAP_EVIDENCE_TOPOLOGY));
    int foot = t + 2 < p.count ? p.joints[t + 2] : -1;
    tdn_body_map_evidence foot_how = foot >= 0 ? by_word(f, foot, TDN__WORD_FOOT, TDN_BODY_MAP_EVIDENCE_TOPOLOGY)
                                               : TDN_BODY_MAP_EVIDENCE_NAME;
    for (int j = 0; j < f->joint_count && foot < 0 && side; j++) {
        const tdn__body_name nm = name_of(f, j);
        if (nm.word == TDN__WORD_FOOT && nm.side == side && !tdn_skeleton_is_in_subtree(f->skeleton, j, start))
            foot = j;
    }
    if (foot < 0 || name_of(f, foot).word == TDN__WORD_TOES)
        return tdn__fail(f->err, TDN_ERR_INVALID_DATA, joint_name(f, shin),
                         "not a humanoid: the %s leg has no foot below its shin '%s'", leg, joint_name(f, shin));
    set_part(f->map, thigh_part + 2, &foot, 1, foot_how);
    if (t + 3 < p.count) {
        const int toes = p.joints[t + 3];
        set_part(f->map, thigh_part + 3, &toes, 1, by_word(f, toes, TDN__WORD_TOES, TDN_BODY_MAP_EVIDENCE_TOPOLOGY));
    }
    return TDN_OK;
}

/* An arm's parts from its path, anchored on the joint named forearm (or else hand): the upper
 * arm is the one before, a clavicle the one before that, the hand the one after. Without such
 * names, four joints are clavicle, upper arm, forearm and hand; of three, the first is a
 * clavicle when its bone is shorter than 0.6 times the next (RobotExpressive's Shoulder.L,
 * against CesiumMan's upper arm). */
static void find_arm(const finder *f, int start, tdn_body_part clavicle_part)
{
    path p;
    walk(f, start, &p);
    int fore = index_of_word(f, &p, TDN__WORD_FOREARM);
    tdn_body_map_evidence how = TDN_BODY_MAP_EVIDENCE_TOPOLOGY;
    if (fore < 0) {
        const int hand = index_of_word(f, &p, TDN__WORD_HAND);
        fore = hand >= 1 ? hand - 1 : -1;
    }
    if (fore < 0 && p.count == 3) {
        how = TDN_BODY_MAP_EVIDENCE_GEOMETRY;
        fore = distance(f, p.joints[0], p.joints[1]) < 0.6f * distance(f, p.joints[1], p.joints[2]) ? 2 : 1;
    } else if (fore < 0) {
        fore = p.count >= 4 ? p.count - 2 : p.count - 1;
    }
    static const tdn__body_word words[4] = { TDN__WORD_CLAVICLE, TDN__WORD_UPPER_ARM, TDN__WORD_FOREARM,
                                             TDN__WORD_HAND };
    for (int k = 0; k < 4; k++) {
        const int i = fore - 2 + k;
        if (i < 0 || i >= p.count)
            continue;
        const int j = p.joints[i];
        tdn__body_word word = name_of(f, j).word;
        if (word == TDN__WORD_SHOULDER && k <= 1)
            word = words[k]; /* a shoulder is the clavicle or the upper arm, wherever it stands */
        set_part(f->map, clavicle_part + k, &j, 1, word == words[k] ? TDN_BODY_MAP_EVIDENCE_NAME : how);
    }
}

/* The fingers of one hand: chains of 2..4 joints below the hand (below the forearm of a rig
 * with no hand joint), each named by a finger word somewhere along it, taken only when the
 * hand has at least three of them (CMU's LThumb and LeftFingerBase are stubs, not fingers). */
static void find_fingers(const finder *f, int base, tdn_body_part thumb_part)
{
    int children[16];
    const int n = body_children(f, base, children, 16);
    if (n < 3 || n > 16)
        return;
    int chains = 0;
    tdn__body_word finger_of[16];
    path paths[16];
    for (int c = 0; c < n; c++) {
        walk(f, children[c], &paths[c]);
        finger_of[c] = TDN__WORD_NONE;
        for (int i = 0; i < paths[c].count && finger_of[c] == TDN__WORD_NONE; i++) {
            const tdn__body_word w = name_of(f, paths[c].joints[i]).word;
            if (w >= TDN__WORD_THUMB && w <= TDN__WORD_PINKY)
                finger_of[c] = w;
        }
        if (paths[c].count >= 2 && finger_of[c] != TDN__WORD_NONE)
            chains++;
    }
    if (chains < 3)
        return;
    for (int c = 0; c < n; c++) {
        if (paths[c].count < 2 || finger_of[c] == TDN__WORD_NONE)
            continue;
        const tdn_body_part part = (tdn_body_part)(thumb_part + (finger_of[c] - TDN__WORD_THUMB));
        if (f->map->parts[part].joint_count > 0)
            continue; /* a second chain named alike stays out (a FINGERS note) */
        const int count = paths[c].count < 4 ? paths[c].count : 4;
        set_part(f->map, part, paths[c].joints, count, TDN_BODY_MAP_EVIDENCE_NAME);
    }
}

/* Moves the parts of one side onto the other (the names said left, geometry settled it). */
static void swap_sides(tdn_body_map *map, tdn_body_part left_first, tdn_body_part right_first, int count)
{
    for (int i = 0; i < count; i++) {
        const tdn_body_map_part x = map->parts[left_first + i];
        map->parts[left_first + i] = map->parts[right_first + i];
        map->parts[right_first + i] = x;
    }
}

static void note(tdn_body_map *map, int joint, int part, tdn_body_map_reason reason)
{
    if (map->note_count == TDN_BODY_MAP_MAX_NOTES) {
        map->notes_left_off++;
        return;
    }
    tdn_body_map_note *n = &map->notes[map->note_count++];
    n->joint = joint;
    n->part = part;
    n->reason = reason;
}

/* The part holding `joint`, or -1. */
static int part_of(const tdn_body_map *map, int joint)
{
    for (int part = 0; part < TDN_BODY_PART_COUNT; part++)
        for (int i = 0; i < map->parts[part].joint_count; i++)
            if (map->parts[part].joints[i] == joint)
                return part;
    return -1;
}

static int has_mapped_below(const finder *f, int joint)
{
    const int end = tdn_skeleton_subtree_end(f->skeleton, joint);
    for (int j = joint + 1; j < end; j++)
        if (part_of(f->map, j) >= 0)
            return 1;
    return 0;
}

/* One note for each joint outside the map whose parent is in it, or is a root or above the
 * hips: the subtree it heads holds no part. Then one for each optional part not found. */
static void note_left_out(const finder *f, int hips)
{
    for (int j = 0; j < f->joint_count; j++) {
        if (part_of(f->map, j) >= 0)
            continue;
        const int parent = f->parents[j];
        const int parent_part = parent >= 0 ? part_of(f->map, parent) : -1;
        const int above_hips = tdn_skeleton_is_in_subtree(f->skeleton, hips, j);
        if (!(parent < 0 || parent_part >= 0 || tdn_skeleton_is_in_subtree(f->skeleton, hips, parent)))
            continue;
        const tdn__body_word word = name_of(f, j).word;
        tdn_body_map_reason reason = TDN_BODY_MAP_REASON_OTHER;
        if (above_hips)
            reason = TDN_BODY_MAP_REASON_ABOVE_HIPS;
        else if (has_mapped_below(f, j))
            reason = TDN_BODY_MAP_REASON_SHORT_BONE;
        else if (is_aside(f, j))
            reason = word == TDN__WORD_HELPER ? TDN_BODY_MAP_REASON_HELPER : TDN_BODY_MAP_REASON_END;
        else if (parent_part == TDN_BODY_PART_LEFT_HAND || parent_part == TDN_BODY_PART_RIGHT_HAND ||
                 (parent_part >= TDN_BODY_PART_LEFT_THUMB && parent_part < TDN_BODY_PART_COUNT) ||
                 (word >= TDN__WORD_THUMB && word <= TDN__WORD_FINGERS))
            reason = parent_part >= TDN_BODY_PART_LEFT_THUMB ? TDN_BODY_MAP_REASON_BEYOND_CHAIN
                                                             : TDN_BODY_MAP_REASON_FINGERS;
        else if (parent_part >= 0 && parent != hips)
            reason = TDN_BODY_MAP_REASON_BEYOND_CHAIN;
        note(f->map, j, parent_part, reason);
    }
    for (int part = 0; part < TDN_BODY_PART_COUNT; part++)
        if (f->map->parts[part].joint_count == 0)
            note(f->map, -1, part, TDN_BODY_MAP_REASON_NOT_FOUND);
}

static int is_neck_word(tdn__body_word word) { return word == TDN__WORD_NECK || word == TDN__WORD_HEAD; }

/* The spine from the hips' remaining child down to the chest (where the arms branch off), the
 * neck and head above it, and the chest's two arm children (arms[0] left when *named). */
static tdn_result find_trunk(const finder *f, int hips, const int legs[2], int arms[2], int *named)
{
    int children[16], spine_start = -1;
    const int n = body_children(f, hips, children, 16);
    for (int c = 0; c < n && c < 16; c++)
        if (children[c] != legs[0] && children[c] != legs[1] &&
            (spine_start < 0 || tdn_skeleton_subtree_end(f->skeleton, children[c]) - children[c] >
                                    tdn_skeleton_subtree_end(f->skeleton, spine_start) - spine_start))
            spine_start = children[c];
    arms[0] = arms[1] = -1;
    *named = 0;
    if (spine_start < 0)
        return TDN_OK;
    path spine, neck = { 0, { 0 } };
    walk(f, spine_start, &spine);
    const int chest = spine.joints[spine.count - 1];
    int top[16];
    const int branches = body_children(f, chest, top, 16);
    if (branches >= 3 && branches <= 16) {
        for (int c = 0; c < branches; c++) { /* arms by their sides' names */
            const int side = name_of(f, top[c]).side;
            if (side && arms[side - 1] < 0)
                arms[side - 1] = top[c];
        }
        *named = arms[0] >= 0 && arms[1] >= 0;
        if (!*named) /* arms by their shape: the two children alike */
            arms[0] = arms[1] = -1;
        for (int a = 0; a < branches && !*named && arms[0] < 0; a++)
            for (int b = a + 1; b < branches && arms[0] < 0; b++)
                if (alike(f, top[a], top[b])) {
                    arms[0] = top[a];
                    arms[1] = top[b];
                }
        int neck_start = -1; /* the first other child, one named neck or head before it */
        for (int c = 0; c < branches; c++) {
            if (top[c] == arms[0] || top[c] == arms[1])
                continue;
            if (neck_start < 0 || (is_neck_word(name_of(f, top[c]).word) && !is_neck_word(name_of(f, neck_start).word)))
                neck_start = top[c];
        }
        if (neck_start >= 0)
            walk(f, neck_start, &neck);
    } else {
        /* no arms: the head ends the path, the joints named neck before it are the neck */
        int head_at = index_of_word(f, &spine, TDN__WORD_HEAD);
        head_at = head_at >= 0 ? head_at : spine.count - 1;
        int neck_at = head_at;
        while (neck_at > 0 && name_of(f, spine.joints[neck_at - 1]).word == TDN__WORD_NECK)
            neck_at--;
        neck.count = head_at + 1 - neck_at;
        memcpy(neck.joints, spine.joints + neck_at, (size_t)neck.count * sizeof(int));
        spine.count = neck_at;
    }
    if (spine.count > TDN_BODY_MAP_MAX_CHAIN)
        return tdn__fail(f->err, TDN_ERR_INVALID_DATA, joint_name(f, spine_start),
                         "the spine from '%s' has %d joints, more than the %d a body map holds",
                         joint_name(f, spine_start), spine.count, TDN_BODY_MAP_MAX_CHAIN);
    int all_named = spine.count > 0;
    for (int i = 0; i < spine.count; i++)
        all_named &= name_of(f, spine.joints[i]).word == TDN__WORD_SPINE;
    set_part(f->map, TDN_BODY_PART_SPINE, spine.joints, spine.count,
             all_named ? TDN_BODY_MAP_EVIDENCE_NAME : TDN_BODY_MAP_EVIDENCE_TOPOLOGY);
    if (neck.count == 0)
        return TDN_OK;
    int head_at = -1;
    for (int i = 0; i < neck.count; i++)
        if (name_of(f, neck.joints[i]).word == TDN__WORD_HEAD)
            head_at = i;
    const tdn_body_map_evidence head_how = head_at >= 0 ? TDN_BODY_MAP_EVIDENCE_NAME : TDN_BODY_MAP_EVIDENCE_TOPOLOGY;
    head_at = head_at >= 0 ? head_at : neck.count - 1;
    if (head_at > TDN_BODY_MAP_MAX_CHAIN)
        return tdn__fail(f->err, TDN_ERR_INVALID_DATA, joint_name(f, neck.joints[0]),
                         "the neck from '%s' has %d joints, more than the %d a body map holds",
                         joint_name(f, neck.joints[0]), head_at, TDN_BODY_MAP_MAX_CHAIN);
    all_named = 1;
    for (int i = 0; i < head_at; i++)
        all_named &= name_of(f, neck.joints[i]).word == TDN__WORD_NECK;
    set_part(f->map, TDN_BODY_PART_NECK, neck.joints, head_at,
             all_named ? TDN_BODY_MAP_EVIDENCE_NAME : TDN_BODY_MAP_EVIDENCE_TOPOLOGY);
    set_part(f->map, TDN_BODY_PART_HEAD, &neck.joints[head_at], 1, head_how);
    return TDN_OK;
}

/* The character's up (hips to head, or to the spine's end) and left (up x forward, forward
 * being where the toes point from the feet); *left_ok is 0 when the pose cannot tell (no toes,
 * toes along up, as in a zero pose). */
static tdn_vec3 body_up(const finder *f, int hips)
{
    const tdn_body_map *m = f->map;
    int top = tdn_body_map_joint(m, TDN_BODY_PART_HEAD);
    if (top < 0 && m->parts[TDN_BODY_PART_SPINE].joint_count > 0)
        top = m->parts[TDN_BODY_PART_SPINE].joints[m->parts[TDN_BODY_PART_SPINE].joint_count - 1];
    return top >= 0 ? tdn_vec3_sub(position(f, top), position(f, hips)) : tdn_vec3_make(0.0f, 0.0f, 0.0f);
}

static tdn_vec3 body_left(const finder *f, tdn_vec3 up, int *left_ok)
{
    const tdn_body_map *m = f->map;
    tdn_vec3 forward = tdn_vec3_make(0.0f, 0.0f, 0.0f);
    *left_ok = 0;
    for (int side = 0; side < 2; side++) {
        const int foot = tdn_body_map_joint(m, side ? TDN_BODY_PART_RIGHT_FOOT : TDN_BODY_PART_LEFT_FOOT);
        const int toes = tdn_body_map_joint(m, side ? TDN_BODY_PART_RIGHT_TOES : TDN_BODY_PART_LEFT_TOES);
        if (foot < 0 || toes < 0)
            return forward;
        forward = tdn_vec3_add(forward, tdn_vec3_sub(position(f, toes), position(f, foot)));
    }
    const float up_length = tdn_vec3_length(up), forward_length = tdn_vec3_length(forward);
    if (up_length <= 0.0f || forward_length <= 0.0f)
        return forward;
    const tdn_vec3 u = tdn_vec3_scale(up, 1.0f / up_length);
    const tdn_vec3 level = tdn_vec3_sub(forward, tdn_vec3_scale(u, tdn_vec3_dot(forward, u)));
    *left_ok = tdn_vec3_length(level) > 0.3f * forward_length;
    return tdn_vec3_cross(u, level);
}

/* The legs' mean direction (thigh joint to foot) against up: a humanoid's point opposite the
 * spine; a quadruped's spine runs across them. A zero pose whose bones all lie along one axis
 * (LAFAN1's) has them parallel and cannot be judged, so it passes. */
static tdn_result check_upright(const finder *f, int hips, tdn_vec3 up)
{
    tdn_vec3 down = tdn_vec3_make(0.0f, 0.0f, 0.0f);
    for (int side = 0; side < 2; side++) {
        const int thigh = tdn_body_map_joint(f->map, side ? TDN_BODY_PART_RIGHT_THIGH : TDN_BODY_PART_LEFT_THIGH);
        const int foot = tdn_body_map_joint(f->map, side ? TDN_BODY_PART_RIGHT_FOOT : TDN_BODY_PART_LEFT_FOOT);
        down = tdn_vec3_add(down, tdn_vec3_sub(position(f, foot), position(f, thigh)));
    }
    const float lengths = tdn_vec3_length(down) * tdn_vec3_length(up);
    if (lengths <= 0.0f)
        return TDN_OK;
    const float cosine = tdn_vec3_dot(down, up) / lengths;
    if (fabsf(cosine) >= 0.70710678f)
        return TDN_OK;
    return tdn__fail(f->err, TDN_ERR_INVALID_DATA, joint_name(f, hips),
                     "not a humanoid: from the hips '%s' the spine runs at %.0f degrees to the legs, not "
                     "opposite them (a quadruped?)",
                     joint_name(f, hips), (double)(acosf(cosine) * 57.29578f));
}

static tdn_result find_all(const finder *f)
{
    tdn_body_map *map = f->map;
    int legs[2], legs_named = 0;
    const int hips = find_hips(f, legs, &legs_named);
    if (hips < 0)
        return tdn__fail(f->err, TDN_ERR_INVALID_DATA, joint_name(f, 0),
                         "not a humanoid: no hips found below '%s' (no joint has two legs of thigh, shin "
                         "and foot, named left and right or alike in shape)",
                         joint_name(f, 0));
    set_part(map, TDN_BODY_PART_HIPS, &hips, 1,
             name_of(f, hips).word == TDN__WORD_HIPS ? TDN_BODY_MAP_EVIDENCE_NAME : TDN_BODY_MAP_EVIDENCE_TOPOLOGY);
    tdn_result r = find_leg(f, legs[0], legs_named ? 1 : 0, TDN_BODY_PART_LEFT_THIGH);
    if (r == TDN_OK)
        r = find_leg(f, legs[1], legs_named ? 2 : 0, TDN_BODY_PART_RIGHT_THIGH);
    int arms[2], arms_named = 0;
    if (r == TDN_OK)
        r = find_trunk(f, hips, legs, arms, &arms_named);
    if (r != TDN_OK)
        return r;
    if (arms[0] >= 0) {
        find_arm(f, arms[0], TDN_BODY_PART_LEFT_CLAVICLE);
        find_arm(f, arms[1], TDN_BODY_PART_RIGHT_CLAVICLE);
    }
    const tdn_vec3 up = body_up(f, hips);
    r = check_upright(f, hips, up);
    if (r != TDN_OK)
        return r;
    int left_ok;
    const tdn_vec3 left = body_left(f, up, &left_ok);
    const tdn_vec3 hips_at = position(f, hips);
    const int left_thigh = tdn_body_map_joint(map, TDN_BODY_PART_LEFT_THIGH);
    const int legs_swapped = tdn_vec3_dot(tdn_vec3_sub(position(f, left_thigh), hips_at), left) < 0.0f;
    if (!legs_named && !left_ok)
        return tdn__fail(f->err, TDN_ERR_INVALID_DATA, joint_name(f, hips),
                         "cannot tell left from right below the hips '%s': the joints' names give no side and "
                         "the reference pose has no toes pointing forward",
                         joint_name(f, hips));
    if (legs_named && left_ok && legs_swapped)
        note(map, left_thigh, TDN_BODY_PART_LEFT_THIGH, TDN_BODY_MAP_REASON_SIDES_DISAGREE);
    if (!legs_named) {
        if (legs_swapped)
            swap_sides(map, TDN_BODY_PART_LEFT_THIGH, TDN_BODY_PART_RIGHT_THIGH, 4);
        map->parts[TDN_BODY_PART_LEFT_THIGH].evidence = TDN_BODY_MAP_EVIDENCE_GEOMETRY;
        map->parts[TDN_BODY_PART_RIGHT_THIGH].evidence = TDN_BODY_MAP_EVIDENCE_GEOMETRY;
    }
    if (arms[0] >= 0 && !arms_named) {
        /* sides by geometry: left is where the legs' left is, or the names are all there is */
        const int chest = map->parts[TDN_BODY_PART_SPINE].joints[map->parts[TDN_BODY_PART_SPINE].joint_count - 1];
        const tdn_vec3 chest_at = position(f, chest);
        const float a = tdn_vec3_dot(tdn_vec3_sub(position(f, arms[0]), chest_at), left);
        const float b = tdn_vec3_dot(tdn_vec3_sub(position(f, arms[1]), chest_at), left);
        if (!left_ok || (a < 0.0f) == (b < 0.0f)) {
            for (int part = TDN_BODY_PART_LEFT_CLAVICLE; part <= TDN_BODY_PART_RIGHT_HAND; part++)
                set_part(map, (tdn_body_part)part, NULL, 0, TDN_BODY_MAP_EVIDENCE_NONE);
        } else {
            if (a < 0.0f)
                swap_sides(map, TDN_BODY_PART_LEFT_CLAVICLE, TDN_BODY_PART_RIGHT_CLAVICLE, 4);
            for (int side = 0; side < 2; side++) { /* the sides came from geometry */
                tdn_body_map_part
                    *upper = &map->parts[side ? TDN_BODY_PART_RIGHT_UPPER_ARM : TDN_BODY_PART_LEFT_UPPER_ARM];
                if (upper->joint_count > 0)
                    upper->evidence = TDN_BODY_MAP_EVIDENCE_GEOMETRY;
            }
        }
    }
    for (int side = 0; side < 2; side++) {
        const tdn_body_part hand = side ? TDN_BODY_PART_RIGHT_HAND : TDN_BODY_PART_LEFT_HAND;
        const int base = map->parts[hand].joint_count ? map->parts[hand].joints[0] : tdn_body_map_joint(map, hand - 1);
        if (base >= 0)
            find_fingers(f, base, side ? TDN_BODY_PART_RIGHT_THUMB : TDN_BODY_PART_LEFT_THUMB);
    }
    r = tdn_body_map_check(f->skeleton, map, f->err);
    if (r == TDN_OK)
        note_left_out(f, hips);
    return r;
}

tdn_result tdn_body_map_find(const tdn_skeleton *skeleton, const tdn_pose *reference, tdn_body_map *out, tdn_error *err)
{
    if (!out)
        return tdn__null(err, "out");
    memset(out, 0, sizeof *out);
    if (!skeleton)
        return tdn__null(err, "skeleton");
    const int n = tdn_skeleton_joint_count(skeleton);
    if (reference && reference->joint_count != n)
        return tdn__pose_size(err, "reference", reference->joint_count, n, "the skeleton");
    const finder f = { skeleton, reference, tdn_skeleton_parents(skeleton), n, out, err };
    out->joint_count = n;
    const tdn_result r = find_all(&f);
    if (r != TDN_OK)
        memset(out, 0, sizeof *out);
    return r;
}
