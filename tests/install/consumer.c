/* A program using both libraries, as a user builds it against an installed tendon: libtendon_io
 * reads a BVH take (argv[1]; tests/install/arm.bvh, in centimetres), the core samples it and
 * computes model space. In 1 s the hips move 100 cm along x and turn 90 degrees about z, so at
 * 0.5 s, scaled to metres, the hips are at (0.5, 0, 0) turned 45 degrees and the hand, 0.3 m
 * along the hips' x, is at (0.5 + 0.3 cos 45deg, 0.3 sin 45deg, 0) = (0.712, 0.212, 0.000). */
#include <stdio.h>
#include <tendon/tendon_io.h>

int main(int argc, char **argv)
{
    tdn_asset *asset;
    tdn_error err = { 0 };
    if (argc != 2)
        return fprintf(stderr, "usage: %s FILE.bvh\n", argv[0]), 2;
    if (tdn_asset_load(argv[1], &(tdn_asset_load_options){ .scale = 0.01f }, &asset, NULL, &err))
        return fprintf(stderr, "%s: %s\n", err.where, err.message), 1;

    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    const tdn_keyed_clip *clip = tdn_asset_clip(asset, 0);
    int hand = tdn_skeleton_find_joint(skel, "hand");
    tdn_pose pose;
    tdn_mat4 model[2];
    if (hand != 1)
        return fprintf(stderr, "no joint 'hand' at 1\n"), 1;
    if (tdn_pose_create(2, &pose, NULL, &err) || tdn_keyed_clip_sample(clip, 0.5f, &pose, NULL, &err) ||
        tdn_model_space(skel, &pose, NULL, model, &err))
        return fprintf(stderr, "%s: %s\n", err.where, err.message), 1;
    printf("%s: %d joints, %.1f s; hand at (%.3f, %.3f, %.3f)\n", tdn_keyed_clip_name(clip),
           tdn_skeleton_joint_count(skel), tdn_keyed_clip_duration(clip), model[hand].m[12], model[hand].m[13],
           model[hand].m[14]);
    tdn_pose_destroy(&pose);
    tdn_asset_destroy(asset);
    return 0;
}
