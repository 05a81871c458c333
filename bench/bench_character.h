/* tendon_bench: one character instance of the `frame` workload and its frame.
 *
 * A character owns its playback state (one player per scene clip, started at its own phase)
 * and its buffers (the sampled poses, the blended pose, model-space matrices and the matrix
 * palette), all allocated once by bench_character_init; the scene's clips are shared. A frame
 * advances the players, samples the 5 clips, blends 4 ways (0.4/0.3/0.2/0.1) plus the additive
 * layer in one tdn_blend, computes model space, solves two-bone IK on both legs towards targets
 * near the feet and builds the palette, without allocating. */
#ifndef TENDON_BENCH_CHARACTER_H
#define TENDON_BENCH_CHARACTER_H

#include "bench_scene.h"

typedef struct bench_character {
    tdn_player players[BENCH_CLIPS];
    tdn_pose sampled[BENCH_CLIPS];
    tdn_pose blended;
    tdn_blend_input layers[BENCH_BASE_CLIPS];
    tdn_blend_input additive;
    tdn_blend_job blend;
    tdn_mat4 *model;                     /* joint_count matrices */
    tdn_mat4 *palette;                   /* joint_count matrices */
    float foot_lift;                     /* how far above its animated position each foot target is, metres */
    tdn_clip_cache *caches[BENCH_CLIPS]; /* per player, or NULL: sampled without (bench_character_cache) */
    void *memory;                        /* everything above that is per-character, in one block */
} bench_character;

/* Weights of the 4 base clips in the blend. */
extern const float bench_blend_weights[BENCH_BASE_CLIPS];

/* Allocates the character's buffers and starts its players at `phase` (0..1) of each clip,
 * then runs one frame so the buffers hold a valid pose. The blend job points into the
 * character itself, so a bench_character must not be moved after init. */
tdn_result bench_character_init(bench_character *ch, const bench_scene *scene, float phase);
void bench_character_free(bench_character *ch);

/* Gives each player a clip cache (clip_cache.h), through which it then samples. */
tdn_result bench_character_cache(bench_character *ch, const bench_scene *scene);

/* Samples every clip at the players' current times into ch->sampled (no advance). */
tdn_result bench_character_sample(bench_character *ch, const bench_scene *scene);
/* The two legs' IK jobs for this frame, from ch->model (model space of the blended pose). */
void bench_character_leg_targets(const bench_character *ch, const bench_scene *scene, tdn_ik_two_bone_job ik[2]);
/* Solves both legs: updates ch->blended and ch->model. */
tdn_result bench_character_solve_legs(bench_character *ch, const bench_scene *scene, const tdn_ik_two_bone_job ik[2]);
/* One whole frame: advance by dt seconds, sample, blend, model space, leg IK, palette. */
tdn_result bench_character_frame(bench_character *ch, const bench_scene *scene, float dt);

#endif
