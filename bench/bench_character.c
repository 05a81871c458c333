/* tendon_bench: character instances and the per-frame pipeline. */
#include "bench_character.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const float bench_blend_weights[BENCH_BASE_CLIPS] = { 0.4f, 0.3f, 0.2f, 0.1f };

#define BLOCK_ALIGN 64

static size_t align_up(size_t n) { return (n + BLOCK_ALIGN - 1) & ~(size_t)(BLOCK_ALIGN - 1); }

void bench_character_free(bench_character *ch)
{
    for (int i = 0; i < BENCH_CLIPS; i++)
        tdn_clip_cache_destroy(ch->caches[i]);
    free(ch->memory);
    memset(ch, 0, sizeof *ch);
}

tdn_result bench_character_init(bench_character *ch, const bench_scene *scene, float phase)
{
    memset(ch, 0, sizeof *ch);
    const int joints = scene->joint_count;
    const size_t pose_bytes = align_up(tdn_pose_bytes(joints));
    const size_t matrix_bytes = align_up(sizeof(tdn_mat4) * (size_t)joints);
    const size_t total = pose_bytes * (BENCH_CLIPS + 1) + 2 * matrix_bytes;
    unsigned char *block = aligned_alloc(BLOCK_ALIGN, total);
    if (!block)
        return TDN_ERR_OUT_OF_MEMORY;
    ch->memory = block;
    tdn_result res = TDN_OK;
    for (int i = 0; i < BENCH_CLIPS && res == TDN_OK; i++)
        res = tdn_pose_init(joints, block + pose_bytes * (size_t)i, pose_bytes, &ch->sampled[i], NULL);
    if (res == TDN_OK)
        res = tdn_pose_init(joints, block + pose_bytes * BENCH_CLIPS, pose_bytes, &ch->blended, NULL);
    if (res != TDN_OK) {
        bench_character_free(ch);
        return res;
    }
    ch->model = (tdn_mat4 *)(void *)(block + pose_bytes * (BENCH_CLIPS + 1));
    ch->palette = (tdn_mat4 *)(void *)(block + pose_bytes * (BENCH_CLIPS + 1) + matrix_bytes);

    for (int i = 0; i < BENCH_CLIPS; i++) {
        ch->players[i] = tdn_player_make(tdn_clip_duration(scene->clips[i]), TDN_WRAP_LOOP);
        tdn_player_set_normalized(&ch->players[i], fmodf(phase + 0.17f * (float)i, 1.0f));
    }
    for (int i = 0; i < BENCH_BASE_CLIPS; i++) {
        ch->layers[i].pose = &ch->sampled[i];
        ch->layers[i].weight = bench_blend_weights[i];
    }
    ch->additive.pose = &ch->sampled[BENCH_ADDITIVE_CLIP];
    ch->additive.weight = 1.0f;
    ch->blend.layers = ch->layers;
    ch->blend.layer_count = BENCH_BASE_CLIPS;
    ch->blend.additives = &ch->additive;
    ch->blend.additive_count = 1;
    ch->blend.out = &ch->blended;
    ch->foot_lift = 0.02f + 0.04f * phase;
    res = bench_character_frame(ch, scene, 0.0f);
    if (res != TDN_OK)
        bench_character_free(ch);
    return res;
}

tdn_result bench_character_cache(bench_character *ch, const bench_scene *scene)
{
    tdn_result res = TDN_OK;
    for (int i = 0; i < BENCH_CLIPS && res == TDN_OK; i++)
        res = tdn_clip_cache_create(scene->clips[i], &ch->caches[i], NULL, NULL);
    return res;
}

tdn_result bench_character_sample(bench_character *ch, const bench_scene *scene)
{
    for (int i = 0; i < BENCH_CLIPS; i++) {
        const float time = ch->players[i].time;
        tdn_result res = ch->caches[i]
                             ? tdn_clip_sample_cached(scene->clips[i], ch->caches[i], time, &ch->sampled[i], NULL)
                             : tdn_clip_sample(scene->clips[i], time, &ch->sampled[i], NULL);
        if (res != TDN_OK)
            return res;
    }
    return TDN_OK;
}

static tdn_vec3 translation_of(const tdn_mat4 *m) { return tdn_vec3_make(m->m[12], m->m[13], m->m[14]); }

void bench_character_leg_targets(const bench_character *ch, const bench_scene *scene, tdn_ik_two_bone_job ik[2])
{
    for (int leg = 0; leg < 2; leg++) {
        /* A foot-placement target: the animated foot lifted a little (as onto a step), the knee
         * bending forward (+Z, the way the character faces). */
        const int *chain = scene->legs[leg];
        tdn_ik_two_bone_job *k = &ik[leg];
        *k = (tdn_ik_two_bone_job){ 0 };
        k->upper = chain[0];
        k->middle = chain[1];
        k->end = chain[2];
        k->target = tdn_vec3_add(translation_of(&ch->model[chain[2]]), tdn_vec3_make(0.0f, ch->foot_lift, 0.0f));
        k->pole = tdn_vec3_add(translation_of(&ch->model[chain[1]]), tdn_vec3_make(0.0f, 0.0f, 0.5f));
        k->use_pole = 1;
        k->weight = 1.0f;
        k->soften = 0.97f;
    }
}

tdn_result bench_character_solve_legs(bench_character *ch, const bench_scene *scene, const tdn_ik_two_bone_job ik[2])
{
    tdn_result res = TDN_OK;
    for (int leg = 0; leg < 2 && res == TDN_OK; leg++)
        res = tdn_ik_two_bone(scene->skeleton, &ik[leg], &ch->blended, ch->model, NULL, NULL);
    return res;
}

tdn_result bench_character_frame(bench_character *ch, const bench_scene *scene, float dt)
{
    for (int i = 0; i < BENCH_CLIPS; i++)
        tdn_player_advance(&ch->players[i], dt);
    tdn_result res = bench_character_sample(ch, scene);
    if (res == TDN_OK)
        res = tdn_blend(&ch->blend, NULL);
    if (res == TDN_OK)
        res = tdn_model_space(scene->skeleton, &ch->blended, NULL, ch->model, NULL);
    if (res == TDN_OK) {
        tdn_ik_two_bone_job ik[2];
        bench_character_leg_targets(ch, scene, ik);
        res = bench_character_solve_legs(ch, scene, ik);
    }
    if (res == TDN_OK)
        res = tdn_palette(scene->skeleton, ch->model, ch->palette, NULL);
    return res;
}
