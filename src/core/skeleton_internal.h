/* tendon core: what a skeleton holds (not installed), for the pack reader, which builds
 * skeletons over a pack's bytes (pack_skeleton.c) instead of through tdn_skeleton_create. */
#ifndef TENDON_SKELETON_INTERNAL_H
#define TENDON_SKELETON_INTERNAL_H

#include "tendon/skeleton.h"

struct tdn_skeleton {
    tdn_allocator allocator; /* zeroed, with bytes 0, for a pack's skeleton: the pack frees it */
    size_t bytes;
    int joint_count;
    int16_t *parents;
    int *subtree_end;
    int *depth;
    char (*names)[TDN_MAX_JOINT_NAME];
    int *by_name; /* joint indices sorted by name, for binary search */
    tdn_transform *rest;
    tdn_mat4 *inverse_bind;
};

#endif
