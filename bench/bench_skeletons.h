/* tendon_bench: the generated benchmark skeletons of docs/benchmarks.md.
 *
 * S67: the generated humanoid's skeleton (tdn_humanoid_create at its default height, 1.8 m;
 * include/tendon/io/humanoid.h), in metres, Y up, facing +Z, T-pose: root, pelvis, 5 spine
 * joints, 2 neck joints, head, jaw, eyes; per side clavicle, upper arm, lower arm, hand, a
 * 3-joint thumb and 4 fingers of metacarpal + 3 phalanges; per side thigh, calf, foot, toe (the
 * ball of the foot). Names follow the common game-rig style ("upperarm_l", "index_02_r").
 * S256: S67 plus twist joints on arms and legs, 40 face joints (a tongue chain under the jaw),
 * 10 hair chains, 8 skirt chains and 5 cape chains (cloth), and 5 prop attachment joints. */
#ifndef TENDON_BENCH_SKELETONS_H
#define TENDON_BENCH_SKELETONS_H

#include "tendon/tendon.h"

#define BENCH_S67 67
#define BENCH_S256 256

/* Builds S67 or S256 (joint_count must be one of them; else TDN_ERR_ARGUMENT). */
tdn_result bench_skeleton_create(int joint_count, tdn_skeleton **out, tdn_error *err);

#endif
