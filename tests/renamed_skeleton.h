/* tendon tests: a copy of a skeleton under other names (the same parents and rest pose), for
 * the properties that must not depend on joint names (body map, retargeting). */
#ifndef TENDON_TEST_RENAMED_SKELETON_H
#define TENDON_TEST_RENAMED_SKELETON_H

#include <stdlib.h>

#include "tendon/skeleton.h"

/* names[j] names joint j of the copy; NULL when it cannot be made. */
static inline tdn_skeleton *skeleton_renamed(const tdn_skeleton *skel, const char *const *names)
{
    const int n = tdn_skeleton_joint_count(skel);
    int *parents = malloc(sizeof *parents * (size_t)n);
    tdn_transform *rest = malloc(sizeof *rest * (size_t)n);
    tdn_skeleton *out = NULL;
    if (parents && rest) {
        for (int j = 0; j < n; j++) {
            parents[j] = tdn_skeleton_parent(skel, j);
            rest[j] = tdn_skeleton_rest(skel, j);
        }
        const tdn_skeleton_desc desc = { .joint_count = n, .names = names, .parents = parents, .rest_pose = rest };
        if (tdn_skeleton_create(&desc, &out, NULL, NULL) != TDN_OK)
            out = NULL;
    }
    free(parents);
    free(rest);
    return out;
}

#endif
