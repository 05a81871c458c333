/* Guide step 4 (docs/guide.md): layers. A base layer walks; an override layer masked to the
 * upper body waves at 75% weight; an additive layer pitches the chest and head up.
 *
 * The mask is spine_01's subtree feathered over two levels (spine_01 gets 1/3, spine_02 2/3,
 * everything from spine_03 up 1), times the layer's weight. The additive layer's clip is
 * aim_up made a difference against aim_center (the aim poses differ only in spine, neck and
 * head), applied on top of everything below it. The program then builds the same pose again
 * by hand from the document's clips with the core calls (tdn_blend2 with per-joint weights,
 * tdn_additive_apply): the two agree, and the legs are the walk's alone. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <tendon/io/graph_document.h>
#include <tendon/tendon.h>

static const char document[] =
    "{\"character\": {\"generated\": \"humanoid\"},"
    " \"clips\": [{\"name\": \"walk_forward\"}, {\"name\": \"wave\"},"
    "             {\"name\": \"aim_up_add\", \"source\": \"aim_up\", \"additive\": {\"reference\": \"aim_center\"}}],"
    " \"parameters\": [{\"name\": \"wave_weight\", \"type\": \"float\", \"value\": 0.75}],"
    " \"masks\": {\"upper_body\": {\"subtree\": \"spine_01\", \"blend_depth\": 2}},"
    " \"layers\": ["
    "   {\"name\": \"locomotion\", \"root\": {\"type\": \"clip\", \"clip\": \"walk_forward\"}},"
    "   {\"name\": \"wave\", \"root\": {\"type\": \"clip\", \"clip\": \"wave\"}, \"weight\": \"wave_weight\", \"mask\": \"upper_body\"},"
    "   {\"name\": \"aim\", \"root\": {\"type\": \"clip\", \"clip\": \"aim_up_add\"}, \"mode\": \"additive\"}]}";

static const tdn_clip *clip_named(const tdn_graph_document *doc, const char *name)
{
    for (int i = 0; i < tdn_graph_document_clip_count(doc); i++)
        if (strcmp(tdn_graph_document_clip_name(doc, i), name) == 0)
            return tdn_graph_document_clip(doc, i);
    return NULL;
}

int main(void)
{
    tdn_graph_document *doc = NULL;
    tdn_error err = { 0 };
    tdn_graph_document_load_options options = { .base_dir = "." };
    if (tdn_graph_document_load_memory(document, strlen(document), &options, &doc, NULL, &err) != TDN_OK)
        return fprintf(stderr, "%s: %s\n", err.where, err.message), 1;
    const tdn_skeleton *skel = tdn_graph_document_skeleton(doc);
    int joints = tdn_skeleton_joint_count(skel);
    tdn_graph_instance *character = NULL;
    tdn_pose graph_pose, walk, wave, aim, by_hand;
    if (tdn_graph_instance_create(tdn_graph_document_graph(doc), &character, NULL, NULL) != TDN_OK)
        return 1;
    tdn_pose *poses[] = { &graph_pose, &walk, &wave, &aim, &by_hand };
    for (int i = 0; i < 5; i++)
        tdn_pose_create(joints, poses[i], NULL, NULL);

    for (int frame = 0; frame < 45; frame++) /* 0.75 s */
        tdn_graph_update(character, 1.0f / 60.0f, NULL);
    tdn_graph_evaluate(character, &graph_pose, NULL);

    /* The same by hand: each clip at the time the graph played it. */
    const tdn_graph_entry *entries;
    int n = tdn_graph_entries(character, &entries);
    float t = entries[0].time;
    printf("%d clips play; at %.3f s:", n, (double)t);
    for (int i = 0; i < n; i++)
        if (entries[i].clip >= 0) /* not a rest pose or procedural entry (TDN_ENTRY_*) */
            printf(" %s %.2f%s", tdn_graph_document_clip_name(doc, entries[i].clip), (double)entries[i].weight,
                   entries[i].additive ? " (additive)" : "");
    printf("\n");
    tdn_clip_sample(clip_named(doc, "walk_forward"), t, &walk, NULL);
    tdn_clip_sample(clip_named(doc, "wave"), t, &wave, NULL);
    tdn_clip_sample(clip_named(doc, "aim_up_add"), t, &aim, NULL);
    float mask[128];
    tdn_mask_fill(mask, joints, 0.0f);
    tdn_mask_set_subtree(mask, skel, tdn_skeleton_find_joint(skel, "spine_01"), 1.0f, 2, NULL);
    tdn_blend2(&walk, &wave, 0.75f, mask, &by_hand, NULL);          /* walk -> wave by 0.75 * mask[j] */
    tdn_additive_apply(&by_hand, &aim, 1.0f, NULL, &by_hand, NULL); /* then the difference on top */

    float worst = 0, legs = 0;
    for (int j = 0; j < joints; j++) {
        float d = tdn_quat_angle_between(tdn_pose_get(&graph_pose, j).r, tdn_pose_get(&by_hand, j).r);
        worst = fmaxf(worst, d);
    }
    const char *leg_joints[] = { "thigh_l", "calf_l", "foot_l", "thigh_r", "calf_r", "foot_r" };
    for (int i = 0; i < 6; i++) {
        int j = tdn_skeleton_find_joint(skel, leg_joints[i]);
        legs = fmaxf(legs, tdn_quat_angle_between(tdn_pose_get(&graph_pose, j).r, tdn_pose_get(&walk, j).r));
    }
    int chest = tdn_skeleton_find_joint(skel, "spine_05");
    printf("graph vs by hand: largest joint rotation difference %.3f degrees\n", (double)(worst * 180 / TDN_PI));
    printf("legs vs the walk alone: %.3f degrees\n", (double)(legs * 180 / TDN_PI));
    printf("spine_05 turned %.1f degrees from the walk by the wave and the aim\n",
           (double)(tdn_quat_angle_between(tdn_pose_get(&graph_pose, chest).r, tdn_pose_get(&walk, chest).r) * 180 /
                    TDN_PI));

    for (int i = 0; i < 5; i++)
        tdn_pose_destroy(poses[i]);
    tdn_graph_instance_destroy(character);
    tdn_graph_document_destroy(doc);
    return 0;
}
