/* tendon core: joint chains for the iterative IK solvers. */
#include "internal.h"
#include "tendon/ik_chain.h"

int tdn_ik_chain_path(const tdn_skeleton *skeleton, int root, int end, int *joints, int capacity)
{
    if (!skeleton || !joints || capacity < 2)
        return -1;
    int n = tdn_skeleton_joint_count(skeleton);
    if (root < 0 || root >= n || end < 0 || end >= n || end == root)
        return -1;
    int count = 0;
    for (int j = end; j != root; j = tdn_skeleton_parent(skeleton, j)) {
        if (j < 0 || count == capacity - 1)
            return -1; /* not below root, or too long */
        joints[count++] = j;
    }
    joints[count++] = root;
    for (int a = 0, b = count - 1; a < b; a++, b--) {
        int t = joints[a];
        joints[a] = joints[b];
        joints[b] = t;
    }
    return count;
}
