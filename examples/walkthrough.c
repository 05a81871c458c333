/* walkthrough: the whole core pipeline on a character built in code.
 *
 * A 16-joint figure gets four generated clips (idle, walk, run, wave) and an additive lean.
 * Each frame: the players advance (walk and run kept in phase by normalized time), the
 * locomotion clips blend by speed, a waving arm is layered on the right arm through a bone mask
 * with an eased fade, the lean is added on top, model space is computed, two-bone IK keeps both
 * feet above the ground, and the palette skins a small mesh. It prints what happens twice a
 * second and what a frame cost. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <tendon/tendon.h>

enum {
    PELVIS,
    SPINE,
    CHEST,
    HEAD,
    L_ARM,
    L_FOREARM,
    L_HAND,
    R_ARM,
    R_FOREARM,
    R_HAND,
    L_THIGH,
    L_SHIN,
    L_FOOT,
    R_THIGH,
    R_SHIN,
    R_FOOT,
    JOINTS
};
static const char *const joint_names[JOINTS] = { "pelvis", "spine",   "chest",     "head",   "arm_l",   "forearm_l",
                                                 "hand_l", "arm_r",   "forearm_r", "hand_r", "thigh_l", "shin_l",
                                                 "foot_l", "thigh_r", "shin_r",    "foot_r" };
static const int joint_parents[JOINTS] = { -1,    PELVIS,    SPINE,  CHEST,   CHEST,  L_ARM,  L_FOREARM, CHEST,
                                           R_ARM, R_FOREARM, PELVIS, L_THIGH, L_SHIN, PELVIS, R_THIGH,   R_SHIN };
/* Rest offsets from the parent in metres (y up, the figure faces +z). */
static const float rest_offsets[JOINTS][3] = {
    { 0, 0.95f, 0 },  { 0, 0.15f, 0 },      { 0, 0.25f, 0 },  { 0, 0.25f, 0 },  { 0.2f, 0.15f, 0 },  { 0.28f, 0, 0 },
    { 0.25f, 0, 0 },  { -0.2f, 0.15f, 0 },  { -0.28f, 0, 0 }, { -0.25f, 0, 0 }, { 0.1f, -0.05f, 0 }, { 0, -0.43f, 0 },
    { 0, -0.43f, 0 }, { -0.1f, -0.05f, 0 }, { 0, -0.43f, 0 }, { 0, -0.43f, 0 }
};

#define KEYS 31 /* 30 keys per second over one cycle, last key = first for a seamless loop */

/* A clip of `seconds` whose listed joints swing about x by amplitude * sin(2 pi (t/T + phase)). */
typedef struct swing {
    int joint;
    float axis_x, axis_z, amplitude, phase, offset;
} swing;

static tdn_keyed_clip *make_cycle(const tdn_skeleton *skel, const char *name, float seconds, const swing *swings,
                                  int swing_count, float bob)
{
    static float times[KEYS], values[JOINTS + 1][KEYS * 4];
    tdn_track_desc tracks[JOINTS + 1];
    for (int k = 0; k < KEYS; k++)
        times[k] = seconds * (float)k / (KEYS - 1);
    for (int s = 0; s < swing_count; s++) {
        for (int k = 0; k < KEYS; k++) {
            float angle = swings[s].offset +
                          swings[s].amplitude * sinf(2 * TDN_PI * ((float)k / (KEYS - 1) + swings[s].phase));
            tdn_quat q = tdn_quat_from_axis_angle(tdn_vec3_make(swings[s].axis_x, 0, swings[s].axis_z), angle);
            memcpy(&values[s][k * 4], &q, sizeof q);
        }
        tracks[s] = (tdn_track_desc){ .joint = swings[s].joint,
                                      .target = TDN_TARGET_ROTATION,
                                      .interp = TDN_INTERP_LINEAR,
                                      .key_count = KEYS,
                                      .times = times,
                                      .values = values[s] };
    }
    /* The pelvis bobs twice per cycle. */
    for (int k = 0; k < KEYS; k++) {
        values[swing_count][k * 3 + 0] = 0;
        values[swing_count][k * 3 + 1] = 0.95f - bob * (0.5f + 0.5f * cosf(4 * TDN_PI * (float)k / (KEYS - 1)));
        values[swing_count][k * 3 + 2] = 0;
    }
    tracks[swing_count] = (tdn_track_desc){ .joint = PELVIS,
                                            .target = TDN_TARGET_TRANSLATION,
                                            .interp = TDN_INTERP_LINEAR,
                                            .key_count = KEYS,
                                            .times = times,
                                            .values = values[swing_count] };
    tdn_event_desc steps[] = { { "step_l", 0.25f * seconds }, { "step_r", 0.75f * seconds } };
    tdn_keyed_clip *clip = NULL;
    tdn_error err = { 0 };
    if (tdn_keyed_clip_create(&(tdn_keyed_clip_desc){ .name = name,
                                                      .skeleton = skel,
                                                      .tracks = tracks,
                                                      .track_count = swing_count + 1,
                                                      .events = steps,
                                                      .event_count = bob > 0 ? 2 : 0 },
                              &clip, NULL, &err) != TDN_OK)
        fprintf(stderr, "%s: %s: %s\n", name, err.where, err.message);
    return clip;
}

static tdn_clip *runtime(const tdn_keyed_clip *keyed, const tdn_keyed_clip *additive_reference)
{
    tdn_clip *clip = NULL;
    tdn_clip_report report;
    tdn_error err = { 0 };
    if (tdn_clip_create(&(tdn_clip_desc){ .source = keyed,
                                          .sample_rate = (KEYS - 1) / tdn_keyed_clip_duration(keyed),
                                          .additive_reference_clip = additive_reference,
                                          .additive_reference_first_frame = additive_reference != NULL,
                                          .report = &report },
                        &clip, NULL, &err) != TDN_OK) {
        fprintf(stderr, "%s: %s: %s\n", tdn_keyed_clip_name(keyed), err.where, err.message);
        return NULL;
    }
    printf("clip %-5s %4.2f s  %3d frames  %5zu bytes  %s  max error %.2g m, %.2g rad\n", tdn_clip_name(clip),
           (double)tdn_clip_duration(clip), report.frame_count, report.bytes,
           report.storage == TDN_STORAGE_INT16 ? "int16  " : "float32", (double)report.max_position_error,
           (double)report.max_rotation_error);
    return clip;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(void)
{
    tdn_transform rest[JOINTS];
    for (int j = 0; j < JOINTS; j++) {
        rest[j] = tdn_transform_identity();
        rest[j].t = tdn_vec3_make(rest_offsets[j][0], rest_offsets[j][1], rest_offsets[j][2]);
    }
    tdn_skeleton *skel = NULL;
    tdn_error err = { 0 };
    if (tdn_skeleton_create(
            &(tdn_skeleton_desc){
                .joint_count = JOINTS, .names = joint_names, .parents = joint_parents, .rest_pose = rest },
            &skel, NULL, &err) != TDN_OK) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return 1;
    }

    const swing idle[] = { { CHEST, 1, 0, 0.03f, 0, 0 }, { HEAD, 1, 0, 0.02f, 0.25f, 0 } };
    const swing walk[] = { { L_THIGH, 1, 0, 0.45f, 0, 0 },         { R_THIGH, 1, 0, 0.45f, 0.5f, 0 },
                           { L_SHIN, 1, 0, 0.35f, 0.25f, -0.35f }, { R_SHIN, 1, 0, 0.35f, 0.75f, -0.35f },
                           { L_ARM, 1, 0, 0.3f, 0.5f, 0 },         { R_ARM, 1, 0, 0.3f, 0, 0 } };
    const swing run[] = { { L_THIGH, 1, 0, 0.8f, 0, 0.2f },     { R_THIGH, 1, 0, 0.8f, 0.5f, 0.2f },
                          { L_SHIN, 1, 0, 0.7f, 0.25f, -0.8f }, { R_SHIN, 1, 0, 0.7f, 0.75f, -0.8f },
                          { L_ARM, 1, 0, 0.6f, 0.5f, 0 },       { R_ARM, 1, 0, 0.6f, 0, 0 },
                          { SPINE, 1, 0, 0.05f, 0, 0.15f } };
    const swing wave[] = { { R_ARM, 0, 1, 0.0f, 0, 2.4f }, { R_FOREARM, 0, 1, 0.5f, 0, -0.4f } };
    const swing lean[] = { { SPINE, 0, 1, 0.2f, 0.25f, 0 } }; /* from 0 to a 0.2 rad side lean at a quarter cycle */
    tdn_keyed_clip *keyed[5] = { make_cycle(skel, "idle", 2.0f, idle, 2, 0.0f),
                                 make_cycle(skel, "walk", 1.0f, walk, 6, 0.04f),
                                 make_cycle(skel, "run", 0.7f, run, 7, 0.08f),
                                 make_cycle(skel, "wave", 1.0f, wave, 2, 0.0f),
                                 make_cycle(skel, "lean", 1.0f, lean, 1, 0.0f) };
    for (int i = 0; i < 5; i++)
        if (!keyed[i])
            return 1;
    tdn_clip *clips[5];
    for (int i = 0; i < 5; i++)
        if (!(clips[i] = runtime(keyed[i], i == 4 ? keyed[4] : NULL)))
            return 1;
    enum { IDLE, WALK, RUN, WAVE, LEAN };

    /* Per-character state, created once. */
    tdn_pose sampled[5], rest_pose, out;
    for (int i = 0; i < 5; i++)
        tdn_pose_create(JOINTS, &sampled[i], NULL, NULL);
    tdn_pose_create(JOINTS, &rest_pose, NULL, NULL);
    tdn_pose_create(JOINTS, &out, NULL, NULL);
    tdn_pose_set_rest(&rest_pose, skel, NULL);
    float right_arm[16]; /* tdn_pose_stride(JOINTS) */
    tdn_mask_fill(right_arm, JOINTS, 0.0f);
    tdn_mask_set_subtree(right_arm, skel, tdn_skeleton_find_joint(skel, "arm_r"), 1.0f, 1, NULL);
    tdn_player players[5];
    for (int i = 0; i < 5; i++)
        players[i] = tdn_player_make(tdn_clip_duration(clips[i]), TDN_WRAP_LOOP);
    players[LEAN].time = 0.25f; /* hold the lean's extreme */
    tdn_ease fade_curve = { TDN_EASE_SMOOTHSTEP, 0, 0, 0, 0 };
    tdn_mat4 model[JOINTS], palette[JOINTS];

    /* A mesh: two vertices per bone, 60/40 between the bone's joint and its parent. */
    enum { VERTS = 2 * (JOINTS - 1) };
    float positions[VERTS * 3], normals[VERTS * 3], skinned[VERTS * 3], skinned_normals[VERTS * 3], weights[VERTS * 4];
    uint16_t vertex_joints[VERTS * 4];
    for (int j = 1, v = 0; j < JOINTS; j++)
        for (int side = 0; side < 2; side++, v++) {
            tdn_mat4 bind;
            tdn_mat4_invert(&tdn_skeleton_inverse_bind(skel)[j], &bind);
            tdn_vec3 p = tdn_mat4_transform_point(&bind, tdn_vec3_make(side ? 0.05f : -0.05f, 0, 0.05f));
            memcpy(&positions[v * 3], &p, sizeof p);
            normals[v * 3] = side ? 1.0f : -1.0f;
            normals[v * 3 + 1] = normals[v * 3 + 2] = 0;
            const uint16_t ids[4] = { (uint16_t)j, (uint16_t)joint_parents[j], 0, 0 };
            const float w[4] = { 0.6f, 0.4f, 0, 0 };
            memcpy(&vertex_joints[v * 4], ids, sizeof ids);
            memcpy(&weights[v * 4], w, sizeof w);
        }

    const float dt = 1.0f / 60.0f;
    double frame_ns = 0;
    float worst_ik_miss = 0;
    int events = 0, frames = 0, crossed[4];
    printf("\n  time  speed  idle  walk   run  wave  events  foot_l.y  foot_r.y\n");
    for (float t = 0; t < 6.0f; t += dt, frames++) {
        /* Scripted input: stand, walk, run, slow to a walk; wave between 2.5 s and 4.5 s. */
        float speed = t < 1      ? 0
                      : t < 2    ? (t - 1) * 1.5f
                      : t < 3.5f ? 1.5f + (t - 2) * 2.0f
                      : t < 4.5f ? 4.5f
                                 : 4.5f - (t - 4.5f) * 2.0f;
        float wave_in = tdn_ease_eval(&fade_curve, t < 2.5f   ? 0
                                                   : t < 3.0f ? (t - 2.5f) / 0.5f
                                                   : t < 4.5f ? 1
                                                              : 1 - (t - 4.5f) / 0.5f);
        double start = now_ns();

        /* Locomotion weights from speed: idle 0, walk 1.5 m/s, run 4.5 m/s. */
        float w_walk = speed < 1.5f ? speed / 1.5f : speed < 4.5f ? 1 - (speed - 1.5f) / 3.0f : 0;
        float w_run = speed < 1.5f ? 0 : speed < 4.5f ? (speed - 1.5f) / 3.0f : 1;
        float w_idle = w_walk + w_run < 1 ? 1 - w_walk - w_run : 0;
        /* Walk and run share one normalized phase; the cycle length blends between theirs. */
        float cycle = (w_walk * tdn_clip_duration(clips[WALK]) + w_run * tdn_clip_duration(clips[RUN])) /
                      (w_walk + w_run + 1e-6f);
        tdn_player_advance_normalized(&players[WALK], w_walk + w_run > 0 ? dt / cycle : 0);
        events += tdn_player_events(&players[WALK], tdn_clip_event_times(clips[WALK]),
                                    tdn_clip_event_count(clips[WALK]), crossed, 4);
        tdn_player_set_normalized(&players[RUN], tdn_player_normalized(&players[WALK]));
        tdn_player_advance(&players[IDLE], dt);
        tdn_player_advance(&players[WAVE], dt);
        for (int i = 0; i < 5; i++)
            tdn_clip_sample(clips[i], players[i].time, &sampled[i], NULL);

        tdn_blend_input layers[4] = { { &sampled[IDLE], w_idle, NULL },
                                      { &sampled[WALK], w_walk, NULL },
                                      { &sampled[RUN], w_run, NULL },
                                      { &sampled[WAVE], 0, NULL } };
        tdn_blend_input lean_layer = { &sampled[LEAN], 0.5f, NULL };
        tdn_blend(&(tdn_blend_job){ .layers = layers,
                                    .layer_count = 3,
                                    .additives = &lean_layer,
                                    .additive_count = 1,
                                    .fallback = &rest_pose,
                                    .out = &out },
                  NULL);
        /* The wave overrides the right arm only, faded in and out. */
        tdn_blend2(&out, &sampled[WAVE], wave_in, right_arm, &out, NULL);
        tdn_model_space(skel, &out, NULL, model, NULL);

        /* Keep each foot at or above the ground (y = 0.05 at the ankle). */
        const int legs[2][3] = { { L_THIGH, L_SHIN, L_FOOT }, { R_THIGH, R_SHIN, R_FOOT } };
        for (int leg = 0; leg < 2; leg++) {
            tdn_vec3 foot = tdn_vec3_make(model[legs[leg][2]].m[12], model[legs[leg][2]].m[13],
                                          model[legs[leg][2]].m[14]);
            if (foot.y >= 0.05f)
                continue;
            tdn_vec3 target = tdn_vec3_make(foot.x, 0.05f, foot.z);
            tdn_vec3 knee = tdn_vec3_make(model[legs[leg][1]].m[12], model[legs[leg][1]].m[13],
                                          model[legs[leg][1]].m[14] + 1);
            const tdn_ik_two_bone_job leg_ik = { .upper = legs[leg][0],
                                                 .middle = legs[leg][1],
                                                 .end = legs[leg][2],
                                                 .target = target,
                                                 .pole = knee,
                                                 .use_pole = 1,
                                                 .weight = 1,
                                                 .soften = 0.98f };
            tdn_ik_two_bone(skel, &leg_ik, &out, model, NULL, NULL);
            tdn_vec3 got = tdn_vec3_make(model[legs[leg][2]].m[12], model[legs[leg][2]].m[13],
                                         model[legs[leg][2]].m[14]);
            float miss = tdn_vec3_length(tdn_vec3_sub(got, target));
            worst_ik_miss = miss > worst_ik_miss ? miss : worst_ik_miss;
        }
        tdn_palette(skel, model, palette, NULL);
        tdn_skin_lbs(&(tdn_skin_job){ .vertex_count = VERTS,
                                      .influences = 4,
                                      .positions = positions,
                                      .normals = normals,
                                      .joints = vertex_joints,
                                      .weights = weights,
                                      .palette = palette,
                                      .palette_count = JOINTS,
                                      .out_positions = skinned,
                                      .out_normals = skinned_normals },
                     NULL);
        frame_ns += now_ns() - start;

        if (frames % 30 == 0)
            printf("%6.2f  %5.2f  %4.2f  %4.2f  %4.2f  %4.2f  %6d  %8.3f  %8.3f\n", (double)t, (double)speed,
                   (double)w_idle, (double)w_walk, (double)w_run, (double)wave_in, events, (double)model[L_FOOT].m[13],
                   (double)model[R_FOOT].m[13]);
    }
    printf("\n%d frames, %d joints, %d skinned vertices: %.0f ns per frame on average (sample 5 clips, blend, mask, "
           "additive, model space, IK, palette, skinning)\n",
           frames, JOINTS, VERTS, frame_ns / frames);
    printf("largest foot IK miss (softened near full extension): %.2g m; step events crossed: %d\n",
           (double)worst_ik_miss, events);

    for (int i = 0; i < 5; i++) {
        tdn_pose_destroy(&sampled[i]);
        tdn_clip_destroy(clips[i]);
        tdn_keyed_clip_destroy(keyed[i]);
    }
    tdn_pose_destroy(&rest_pose);
    tdn_pose_destroy(&out);
    tdn_skeleton_destroy(skel);
    return 0;
}
