/* Guide step 2 (docs/guide.md): blending clips, by hand and through a 2D blend space.
 *
 * Walk (1 s cycle, 1.4 m/s) and run (0.6 s cycle, 3.5 m/s) have different lengths, so they are
 * played at the same normalized time (the same phase of the gait) and blended in local space.
 * Half-way through each cycle the walk's root is 0.5 * 1.4 = 0.70 m ahead and the run's
 * 0.5 * 0.6 * 3.5 = 1.05 m; translations blend linearly, so a 25% run puts the root at
 * 0.75 * 0.70 + 0.25 * 1.05 = 0.7875 m.
 * Then a blend space of four walks (forward, back, left, right, each at 1.4 m/s, one 1 s cycle)
 * gives the weights for a velocity; at (0.7, 0.7), half-way between forward and left, symmetry
 * says forward and left share it equally, and the blended root (0.5 s into the cycle) is
 * half-way between their roots: (0.35, 0.35). */
#include <stdio.h>

#include <tendon/io/humanoid.h>
#include <tendon/tendon.h>

static tdn_clip *runtime_clip(const tdn_asset *asset, const char *name)
{
    tdn_clip *clip = NULL;
    tdn_error err = { 0 };
    if (tdn_clip_create(&(tdn_clip_desc){ .source = tdn_asset_clip(asset, tdn_asset_find_clip(asset, name)) }, &clip,
                        NULL, &err) != TDN_OK)
        fprintf(stderr, "%s: %s: %s\n", name, err.where, err.message);
    return clip;
}

int main(void)
{
    tdn_asset *humanoid = NULL;
    if (tdn_humanoid_create(NULL, &humanoid, NULL, NULL) != TDN_OK)
        return 1;
    const tdn_skeleton *skel = tdn_asset_skeleton(humanoid);
    int joints = tdn_skeleton_joint_count(skel), root = tdn_skeleton_find_joint(skel, "root");
    const char *names[4] = { "walk_forward", "walk_backward", "strafe_left", "strafe_right" };
    tdn_clip *walk[4], *run = runtime_clip(humanoid, "run_forward");
    for (int i = 0; i < 4; i++)
        if (!(walk[i] = runtime_clip(humanoid, names[i])))
            return 1;
    if (!run)
        return 1;
    tdn_pose sampled[4], out;
    for (int i = 0; i < 4; i++)
        tdn_pose_create(joints, &sampled[i], NULL, NULL);
    tdn_pose_create(joints, &out, NULL, NULL);

    /* 1. Two clips at the same phase, 25% run. */
    float phase = 0.5f;
    tdn_clip_sample(walk[0], phase * tdn_clip_duration(walk[0]), &sampled[0], NULL);
    tdn_clip_sample(run, phase * tdn_clip_duration(run), &sampled[1], NULL);
    tdn_blend2(&sampled[0], &sampled[1], 0.25f, NULL, &out, NULL); /* 0: all a, 1: all b; NULL: every joint */
    printf("walk/run 25%%: root z = %.4f m\n", (double)tdn_pose_get(&out, root).t.z);

    /* 2. A 2D blend space: sample points are velocities (x left, z forward). */
    const float points[4 * 2] = { 0, 1.4f, 0, -1.4f, 1.4f, 0, -1.4f, 0 };
    tdn_blend_space *space = NULL;
    tdn_error err = { 0 };
    if (tdn_blend_space_create(
            &(tdn_blend_space_desc){
                .mode = TDN_BLEND_SPACE_GRADIENT_BAND, .dimensions = 2, .sample_count = 4, .points = points },
            &space, NULL, &err) != TDN_OK)
        return fprintf(stderr, "%s: %s\n", err.where, err.message), 1;
    float velocity[2] = { 0.7f, 0.7f }, weights[4];
    tdn_blend_space_weights(space, velocity, weights, NULL);
    tdn_blend_input inputs[4];
    for (int i = 0; i < 4; i++) {
        tdn_clip_sample(walk[i], phase * tdn_clip_duration(walk[i]), &sampled[i], NULL);
        inputs[i] = (tdn_blend_input){ .pose = &sampled[i], .weight = weights[i] };
        printf("  %-13s weight %.3f\n", names[i], (double)weights[i]);
    }
    tdn_blend(&(tdn_blend_job){ .layers = inputs, .layer_count = 4, .out = &out }, NULL);
    tdn_transform r = tdn_pose_get(&out, root);
    printf("blend space at (0.7, 0.7): root (x, z) = (%.4f, %.4f) m\n", (double)r.t.x, (double)r.t.z);

    tdn_blend_space_destroy(space);
    for (int i = 0; i < 4; i++) {
        tdn_pose_destroy(&sampled[i]);
        tdn_clip_destroy(walk[i]);
    }
    tdn_pose_destroy(&out);
    tdn_clip_destroy(run);
    tdn_asset_destroy(humanoid);
    return 0;
}
