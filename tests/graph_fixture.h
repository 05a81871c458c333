/* tendon tests: a three-joint skeleton and clips whose every value is a closed form of time,
 * for the graph tests (blend trees, state machines, layers). */
#ifndef TENDON_TEST_GRAPH_FIXTURE_H
#define TENDON_TEST_GRAPH_FIXTURE_H

#include "check.h"

enum { JOINTS = 3 };
static const char *const joint_names[JOINTS] = { "root", "arm_l", "arm_r" };
static const int joint_parents[JOINTS] = { -1, 0, 0 };

static tdn_skeleton *skeleton;

static void make_skeleton(void)
{
    tdn_transform rest[JOINTS] = { tdn_transform_identity(), tdn_transform_identity(), tdn_transform_identity() };
    rest[1].t = tdn_vec3_make(0.5f, 1, 0);
    rest[2].t = tdn_vec3_make(-0.5f, 1, 0);
    tdn_skeleton_desc d = { .joint_count = JOINTS, .names = joint_names, .parents = joint_parents, .rest_pose = rest };
    CHECK(tdn_skeleton_create(&d, &skeleton, NULL, NULL) == TDN_OK);
}

/* A clip of `duration` seconds: the root slides along x from 0 to `distance`, joint 1 turns
 * about `axis` from 0 to `angle` radians, joint 2 scales from 1 to `scale`; linear keys, so
 * every value is a closed form of t. Events as given. Stored float32 (exact to 1e-6). */
typedef struct clip_spec {
    const char *name;
    float duration, distance, angle, scale;
    tdn_vec3 axis;
    const tdn_event_desc *events;
    int event_count;
} clip_spec;

static tdn_clip *make_clip(clip_spec s, int additive_of_rest)
{
    float times[2] = { 0, s.duration };
    float move[6] = { 0, 0, 0, s.distance, 0, 0 };
    tdn_quat q = tdn_quat_from_axis_angle(s.axis, s.angle);
    float turn[8] = { 0, 0, 0, 1, q.x, q.y, q.z, q.w };
    float grow[6] = { 1, 1, 1, s.scale, s.scale, s.scale };
    tdn_track_desc tracks[3] = {
        { 0, TDN_TARGET_TRANSLATION, TDN_INTERP_LINEAR, 2, times, move },
        { 1, TDN_TARGET_ROTATION, TDN_INTERP_LINEAR, 2, times, turn },
        { 2, TDN_TARGET_SCALE, TDN_INTERP_LINEAR, 2, times, grow },
    };
    tdn_keyed_clip *keys = NULL;
    tdn_keyed_clip_desc kd = { .name = s.name,
                               .skeleton = skeleton,
                               .tracks = tracks,
                               .track_count = 3,
                               .events = s.events,
                               .event_count = s.event_count };
    CHECK(tdn_keyed_clip_create(&kd, &keys, NULL, NULL) == TDN_OK);
    tdn_pose rest;
    tdn_pose_create(JOINTS, &rest, NULL, NULL);
    tdn_pose_set_rest(&rest, skeleton, NULL);
    tdn_clip *clip = NULL;
    tdn_clip_desc cd = { .source = keys, .storage = TDN_STORAGE_FLOAT32, .sample_rate = 120 };
    if (additive_of_rest)
        cd.additive_reference_pose = &rest;
    CHECK(tdn_clip_create(&cd, &clip, NULL, NULL) == TDN_OK);
    tdn_pose_destroy(&rest);
    tdn_keyed_clip_destroy(keys);
    return clip;
}

static inline float sample_root_x(const tdn_clip *clip, float t)
{
    tdn_pose p;
    tdn_pose_create(JOINTS, &p, NULL, NULL);
    tdn_clip_sample(clip, t, &p, NULL);
    float x = tdn_pose_get(&p, 0).t.x;
    tdn_pose_destroy(&p);
    return x;
}

static inline int entry_of_clip(const tdn_graph_instance *in, int clip, float *weight)
{
    const tdn_graph_entry *e;
    int n = tdn_graph_entries(in, &e);
    for (int k = 0; k < n; k++)
        if (e[k].clip == clip) {
            *weight = e[k].weight;
            return k;
        }
    *weight = 0;
    return -1;
}

#endif
