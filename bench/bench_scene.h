/* tendon_bench: the shared, immutable part of the benchmark world: one generated skeleton, its
 * 4 base clips and 1 additive clip, as keyed clips and as runtime clips built from them.
 * Characters (bench_character.h) play these; any number of them and of threads share a scene. */
#ifndef TENDON_BENCH_SCENE_H
#define TENDON_BENCH_SCENE_H

#include "tendon/tendon.h"

#define BENCH_BASE_CLIPS 4
#define BENCH_ADDITIVE_CLIP BENCH_BASE_CLIPS /* index of the additive clip */
#define BENCH_CLIPS (BENCH_BASE_CLIPS + 1)

typedef struct bench_scene {
    tdn_skeleton *skeleton;
    int joint_count;
    tdn_keyed_clip *keyed[BENCH_CLIPS];
    tdn_clip *clips[BENCH_CLIPS];         /* runtime clips; clips[BENCH_ADDITIVE_CLIP] is additive */
    tdn_clip_report reports[BENCH_CLIPS]; /* what each runtime build measured */
    /* Per leg (left, right): thigh, calf, foot joints, for two-bone IK. */
    int legs[2][3];
} bench_scene;

/* Builds the S67 or S256 scene (joint_count 67 or 256). The additive clip stores its motion
 * relative to its own first frame (tdn_clip_desc.additive_reference_first_frame). On failure
 * everything built so far is destroyed and *scene is zeroed. */
tdn_result bench_scene_create(int joint_count, bench_scene *scene, tdn_error *err);
/* The same with the runtime clips in `storage` (bench_scene_create: TDN_STORAGE_AUTO). */
tdn_result bench_scene_create_stored(int joint_count, tdn_clip_storage storage, bench_scene *scene, tdn_error *err);
void bench_scene_destroy(bench_scene *scene);

/* Mean runtime-clip size over the base clips, bytes. */
double bench_scene_bytes_per_clip(const bench_scene *scene);

#endif
