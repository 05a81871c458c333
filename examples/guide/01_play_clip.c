/* Guide step 1 (docs/guide.md): a character, one clip, one joint's position.
 *
 * tendon's generated humanoid needs no files. Its walk_forward clip moves the root joint +Z at
 * 1.4 m/s over a 1 s cycle; played 1.25 s with a looping player, the clip is a quarter of the
 * way into its second cycle, so the root stands 0.25 s * 1.4 m/s = 0.35 m ahead of the origin. */
#include <stdio.h>

#include <tendon/io/humanoid.h>
#include <tendon/tendon.h>

int main(void)
{
    tdn_asset *humanoid = NULL;
    tdn_error err = { 0 };
    if (tdn_humanoid_create(NULL, &humanoid, NULL, &err) != TDN_OK) /* NULL: every default */
        return fprintf(stderr, "%s: %s\n", err.where, err.message), 1;
    const tdn_skeleton *skel = tdn_asset_skeleton(humanoid);

    /* A keyed clip (what a file holds) becomes a runtime clip (resampled, compressed). */
    const tdn_keyed_clip *walk_keys = tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, "walk_forward"));
    tdn_clip *walk = NULL;
    if (tdn_clip_create(&(tdn_clip_desc){ .source = walk_keys }, &walk, NULL, &err) != TDN_OK)
        return fprintf(stderr, "%s: %s\n", err.where, err.message), 1;

    int joints = tdn_skeleton_joint_count(skel);
    tdn_pose pose;
    tdn_mat4 model[128];
    tdn_pose_create(joints, &pose, NULL, NULL);
    tdn_player player = tdn_player_make(tdn_clip_duration(walk), TDN_WRAP_LOOP);
    for (int frame = 0; frame < 75; frame++) { /* 75 frames of 1/60 s: 1.25 s */
        tdn_player_advance(&player, 1.0f / 60.0f);
        tdn_clip_sample(walk, player.time, &pose, NULL); /* local transforms */
        tdn_model_space(skel, &pose, NULL, model, NULL); /* parent * local, root first */
    }
    int root = tdn_skeleton_find_joint(skel, "root");
    printf("%d joints, walk_forward lasts %.2f s\n", joints, (double)tdn_clip_duration(walk));
    printf("after 1.25 s: clip time %.2f s, root at z = %.2f m\n", (double)player.time, (double)model[root].m[14]);

    tdn_pose_destroy(&pose);
    tdn_clip_destroy(walk);
    tdn_asset_destroy(humanoid);
    return 0;
}
