/* tendon core: the body map's names, accessor and check (finding one: body_map_find.c). */
#include "internal.h"
#include "tendon/body_map.h"

static const char *const part_names[TDN_BODY_PART_COUNT] = {
    "hips",           "spine",        "neck",         "head",           "left_clavicle",
    "left_upper_arm", "left_forearm", "left_hand",    "right_clavicle", "right_upper_arm",
    "right_forearm",  "right_hand",   "left_thigh",   "left_shin",      "left_foot",
    "left_toes",      "right_thigh",  "right_shin",   "right_foot",     "right_toes",
    "left_thumb",     "left_index",   "left_middle",  "left_ring",      "left_pinky",
    "right_thumb",    "right_index",  "right_middle", "right_ring",     "right_pinky",
};

const char *tdn_body_part_name(tdn_body_part part)
{
    return (int)part >= 0 && part < TDN_BODY_PART_COUNT ? part_names[part] : NULL;
}

const char *tdn_body_map_evidence_name(tdn_body_map_evidence evidence)
{
    static const char *const names[] = { "none", "name", "topology", "geometry", "caller" };
    return (int)evidence >= 0 && (size_t)evidence < sizeof names / sizeof names[0] ? names[evidence] : NULL;
}

const char *tdn_body_map_reason_name(tdn_body_map_reason reason)
{
    static const char *const names[] = { "not_found", "above_hips",     "end",          "helper", "short_bone",
                                         "fingers",   "sides_disagree", "beyond_chain", "other" };
    return (int)reason >= 0 && (size_t)reason < sizeof names / sizeof names[0] ? names[reason] : NULL;
}

int tdn_body_map_joint(const tdn_body_map *map, tdn_body_part part)
{
    if (!map || (int)part < 0 || part >= TDN_BODY_PART_COUNT || map->parts[part].joint_count <= 0)
        return -1;
    return map->parts[part].joints[0];
}

static const tdn_body_part required[] = {
    TDN_BODY_PART_HIPS,        TDN_BODY_PART_LEFT_THIGH, TDN_BODY_PART_LEFT_SHIN,  TDN_BODY_PART_LEFT_FOOT,
    TDN_BODY_PART_RIGHT_THIGH, TDN_BODY_PART_RIGHT_SHIN, TDN_BODY_PART_RIGHT_FOOT,
};

/* A joint already met in an earlier part (or earlier in this one), or -1. */
static int earlier_part(const tdn_body_map *map, int part, int index, int joint)
{
    for (int q = 0; q <= part; q++)
        for (int i = 0; i < (q == part ? index : map->parts[q].joint_count); i++)
            if (map->parts[q].joints[i] == joint)
                return q;
    return -1;
}

tdn_result tdn_body_map_check(const tdn_skeleton *skeleton, const tdn_body_map *map, tdn_error *err)
{
    if (!skeleton)
        return tdn__null(err, "skeleton");
    if (!map)
        return tdn__null(err, "map");
    const int n = tdn_skeleton_joint_count(skeleton);
    if (map->joint_count != n)
        return tdn__fail(err, TDN_ERR_INVALID_DATA, "map.joint_count", "the map is for %d joints, the skeleton has %d",
                         map->joint_count, n);
    for (int part = 0; part < TDN_BODY_PART_COUNT; part++) {
        const tdn_body_map_part *p = &map->parts[part];
        if (p->joint_count < 0 || p->joint_count > TDN_BODY_MAP_MAX_CHAIN)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, part_names[part], "%s has %d joints, outside 0..%d",
                             part_names[part], p->joint_count, TDN_BODY_MAP_MAX_CHAIN);
        for (int i = 0; i < p->joint_count; i++) {
            const int j = p->joints[i];
            if (j < 0 || j >= n)
                return tdn__fail(err, TDN_ERR_INVALID_DATA, part_names[part],
                                 "%s names joint %d, outside the skeleton's 0..%d", part_names[part], j, n - 1);
            const char *name = tdn_skeleton_joint_name(skeleton, j);
            if (i > 0 && (j == p->joints[i - 1] || !tdn_skeleton_is_in_subtree(skeleton, j, p->joints[i - 1])))
                return tdn__fail(err, TDN_ERR_INVALID_DATA, name, "%s's chain is broken: '%s' is not below '%s'",
                                 part_names[part], name, tdn_skeleton_joint_name(skeleton, p->joints[i - 1]));
            const int other = earlier_part(map, part, i, j);
            if (other >= 0)
                return tdn__fail(err, TDN_ERR_INVALID_DATA, name, "joint '%s' is in two parts: %s and %s", name,
                                 part_names[other], part_names[part]);
        }
    }
    for (size_t k = 0; k < sizeof required / sizeof required[0]; k++)
        if (map->parts[required[k]].joint_count == 0)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, part_names[required[k]], "the map has no %s",
                             part_names[required[k]]);
    return TDN_OK;
}
