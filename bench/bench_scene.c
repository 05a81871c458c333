/* tendon_bench: building and destroying a scene. */
#include "bench_scene.h"

#include <stdio.h>
#include <string.h>

#include "bench_clips.h"
#include "bench_skeletons.h"

static const char *const CLIP_NAMES[BENCH_CLIPS] = { "walk", "run", "idle", "strafe", "breathe_additive" };

void bench_scene_destroy(bench_scene *scene)
{
    for (int i = 0; i < BENCH_CLIPS; i++) {
        tdn_clip_destroy(scene->clips[i]);
        tdn_keyed_clip_destroy(scene->keyed[i]);
    }
    tdn_skeleton_destroy(scene->skeleton);
    memset(scene, 0, sizeof *scene);
}

static tdn_result find_legs(bench_scene *scene, tdn_error *err)
{
    static const char *const parts[3] = { "thigh", "calf", "foot" };
    static const char *const sides[2] = { "l", "r" };
    for (int leg = 0; leg < 2; leg++) {
        for (int p = 0; p < 3; p++) {
            char name[32];
            snprintf(name, sizeof name, "%s_%s", parts[p], sides[leg]);
            scene->legs[leg][p] = tdn_skeleton_find_joint(scene->skeleton, name);
            if (scene->legs[leg][p] < 0) {
                if (err) {
                    err->code = TDN_ERR_INVALID_DATA;
                    snprintf(err->message, sizeof err->message, "generated skeleton has no joint %s", name);
                }
                return TDN_ERR_INVALID_DATA;
            }
        }
    }
    return TDN_OK;
}

tdn_result bench_scene_create(int joint_count, bench_scene *scene, tdn_error *err)
{
    return bench_scene_create_stored(joint_count, TDN_STORAGE_AUTO, scene, err);
}

tdn_result bench_scene_create_stored(int joint_count, tdn_clip_storage storage, bench_scene *scene, tdn_error *err)
{
    memset(scene, 0, sizeof *scene);
    tdn_result res = bench_skeleton_create(joint_count, &scene->skeleton, err);
    if (res == TDN_OK) {
        scene->joint_count = tdn_skeleton_joint_count(scene->skeleton);
        res = find_legs(scene, err);
    }
    for (int i = 0; i < BENCH_CLIPS && res == TDN_OK; i++) {
        res = bench_keyed_clip_create(scene->skeleton, i, CLIP_NAMES[i], &scene->keyed[i], err);
        if (res != TDN_OK)
            break;
        tdn_clip_desc desc = { 0 };
        desc.source = scene->keyed[i];
        desc.storage = storage;
        if (i == BENCH_ADDITIVE_CLIP) {
            desc.additive_reference_clip = scene->keyed[i];
            desc.additive_reference_first_frame = 1;
        }
        desc.report = &scene->reports[i];
        res = tdn_clip_create(&desc, &scene->clips[i], NULL, err);
    }
    if (res != TDN_OK)
        bench_scene_destroy(scene);
    return res;
}

double bench_scene_bytes_per_clip(const bench_scene *scene)
{
    double sum = 0.0;
    for (int i = 0; i < BENCH_BASE_CLIPS; i++)
        sum += (double)tdn_clip_memory_size(scene->clips[i]);
    return sum / BENCH_BASE_CLIPS;
}
