/* Guide step 5 (docs/guide.md): IK on top of an animated pose. The humanoid stands (idle) and
 * its left hand reaches for a point in front of its chest with two-bone IK (shoulder, elbow,
 * wrist), the elbow hinted down and out.
 *
 * IK works on the local pose and needs model space, which it keeps up to date for the chain's
 * subtree. The check works it out again from scratch: model space recomputed from the solved
 * local pose puts the wrist on the target, and the bones keep their lengths (only rotations
 * change). */
#include <math.h>
#include <stdio.h>

#include <tendon/io/humanoid.h>
#include <tendon/tendon.h>

static float distance(const tdn_mat4 *a, const tdn_mat4 *b)
{
    return tdn_vec3_length(tdn_vec3_make(a->m[12] - b->m[12], a->m[13] - b->m[13], a->m[14] - b->m[14]));
}

int main(void)
{
    tdn_asset *humanoid = NULL;
    if (tdn_humanoid_create(NULL, &humanoid, NULL, NULL) != TDN_OK)
        return 1;
    const tdn_skeleton *skel = tdn_asset_skeleton(humanoid);
    int joints = tdn_skeleton_joint_count(skel);
    tdn_clip *idle = NULL;
    if (tdn_clip_create(&(tdn_clip_desc){ .source = tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, "idle")) },
                        &idle, NULL, NULL) != TDN_OK)
        return 1;
    tdn_pose pose;
    tdn_mat4 model[128], check[128];
    tdn_pose_create(joints, &pose, NULL, NULL);
    tdn_clip_sample(idle, 1.0f, &pose, NULL);
    tdn_model_space(skel, &pose, NULL, model, NULL);

    int shoulder = tdn_skeleton_find_joint(skel, "upperarm_l"), elbow = tdn_skeleton_find_joint(skel, "lowerarm_l");
    int wrist = tdn_skeleton_find_joint(skel, "hand_l");
    float upper_before = distance(&model[shoulder], &model[elbow]),
          lower_before = distance(&model[elbow], &model[wrist]);
    tdn_vec3 target = tdn_vec3_make(0.15f, 1.25f, 0.35f); /* metres: left of centre, chest height, ahead */
    printf("wrist %.3f m from the target before IK\n",
           (double)tdn_vec3_length(
               tdn_vec3_sub(tdn_vec3_make(model[wrist].m[12], model[wrist].m[13], model[wrist].m[14]), target)));

    tdn_ik_two_bone_job arm = { .upper = shoulder,
                                .middle = elbow,
                                .end = wrist,
                                .target = target,
                                .pole = tdn_vec3_make(0.6f, 0.6f, 0.3f),
                                .use_pole = 1,
                                .weight = 1.0f };
    int reached = 0;
    if (tdn_ik_two_bone(skel, &arm, &pose, model, &reached, NULL) != TDN_OK)
        return 1;

    tdn_model_space(skel, &pose, NULL, check, NULL); /* from scratch, from the local pose */
    tdn_vec3 hand = tdn_vec3_make(check[wrist].m[12], check[wrist].m[13], check[wrist].m[14]);
    printf("reached %d: wrist at (%.4f, %.4f, %.4f), %.4f m from the target\n", reached, (double)hand.x, (double)hand.y,
           (double)hand.z, (double)tdn_vec3_length(tdn_vec3_sub(hand, target)));
    printf("bone lengths change by %.5f and %.5f m\n",
           (double)fabsf(distance(&check[shoulder], &check[elbow]) - upper_before),
           (double)fabsf(distance(&check[elbow], &check[wrist]) - lower_before));
    printf("elbow at y = %.3f m, below the shoulder's %.3f\n", (double)check[elbow].m[13],
           (double)check[shoulder].m[13]);

    tdn_pose_destroy(&pose);
    tdn_clip_destroy(idle);
    tdn_asset_destroy(humanoid);
    return 0;
}
