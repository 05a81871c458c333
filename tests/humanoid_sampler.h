/* tendon tests: what the generated humanoid's tests share: creating it (printing the library's
 * error on failure), sampling one of its clips into local and model space, and the key layout
 * humanoid.h documents. */
#ifndef TENDON_TEST_HUMANOID_SAMPLER_H
#define TENDON_TEST_HUMANOID_SAMPLER_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "tendon/io/humanoid.h"

static inline tdn_asset *create_ok(const tdn_humanoid_desc *desc)
{
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_humanoid_create(desc, &asset, NULL, &err), TDN_OK))
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
    return asset;
}

/* A clip sampled into local and model space. */
typedef struct sampler {
    const tdn_skeleton *skel;
    const tdn_keyed_clip *clip;
    int n;
    tdn_pose pose;
    tdn_mat4 *model;
} sampler;

static inline sampler sampler_make(const tdn_asset *asset, const char *clip_name)
{
    sampler s = { 0 };
    s.skel = tdn_asset_skeleton(asset);
    int c = tdn_asset_find_clip(asset, clip_name);
    CHECK(c >= 0);
    s.clip = tdn_asset_clip(asset, c);
    s.n = tdn_skeleton_joint_count(s.skel);
    tdn_pose_create(s.n, &s.pose, NULL, NULL);
    s.model = malloc(sizeof *s.model * (size_t)s.n);
    return s;
}

static inline void sampler_free(sampler *s)
{
    tdn_pose_destroy(&s->pose);
    free(s->model);
}

static inline void sample(sampler *s, double t)
{
    tdn_keyed_clip_sample(s->clip, (float)t, &s->pose, NULL, NULL);
    tdn_model_space(s->skel, &s->pose, NULL, s->model, NULL);
}

static inline tdn_vec3 pos(const sampler *s, int j)
{
    return tdn_vec3_make(s->model[j].m[12], s->model[j].m[13], s->model[j].m[14]);
}

/* Key intervals per cycle (or clip) as humanoid.h documents them: the smallest even number at
 * or above duration x rate (forgiving float rounding), at least 8. */
static inline int intervals_of(double duration, double rate)
{
    int n = 2 * (int)ceil(duration * rate / 2.0 * (1.0 - 1e-5));
    return n < 8 ? 8 : n;
}

#endif
