/* Guide step 3 (docs/guide.md): a graph document, a state machine driven by a parameter.
 *
 * The document (inline here; usually a .json file loaded with tdn_graph_document_load) names
 * the character, the clips it uses, one float parameter `speed`, and a state machine: `idle`,
 * and `move`, a 1D blend space of walk (1.4 m/s) and run (3.5 m/s) whose feet stay in step
 * (sync group "feet"). idle -> move when speed > 0.1, with a 0.25 s linear fade.
 * Setting speed = 2.45 (half-way between walk and run) and updating 0.1 s: the fade is
 * 0.1 / 0.25 = 40% done, so idle weighs 0.60 and move 0.40, shared equally by walk and run
 * (0.20 each). A second later the fade is over: walk 0.50, run 0.50. */
#include <stdio.h>
#include <string.h>

#include <tendon/io/graph_document.h>
#include <tendon/tendon.h>

static const char document[] =
    "{\"character\": {\"generated\": \"humanoid\"},"
    " \"clips\": [{\"name\": \"idle\"}, {\"name\": \"walk_forward\"}, {\"name\": \"run_forward\"}],"
    " \"parameters\": [{\"name\": \"speed\", \"type\": \"float\"}],"
    " \"sync_groups\": [{\"name\": \"feet\", \"markers\": [\"foot_down_l\", \"foot_down_r\"]}],"
    " \"root\": {\"type\": \"state_machine\", \"initial\": \"idle\","
    "   \"states\": [{\"name\": \"idle\", \"node\": {\"type\": \"clip\", \"clip\": \"idle\"}},"
    "              {\"name\": \"move\", \"node\": {\"type\": \"blend_space\", \"mode\": \"linear\","
    "                \"position\": \"speed\", \"sync\": \"feet\","
    "                \"samples\": [{\"clip\": \"walk_forward\", \"at\": [1.4]}, {\"clip\": \"run_forward\", \"at\": [3.5]}]}}],"
    "   \"transitions\": [{\"from\": \"idle\", \"to\": \"move\", \"duration\": 0.25,"
    "                      \"conditions\": [{\"param\": \"speed\", \"op\": \">\", \"value\": 0.1}]},"
    "                     {\"from\": \"move\", \"to\": \"idle\", \"duration\": 0.25,"
    "                      \"conditions\": [{\"param\": \"speed\", \"op\": \"<=\", \"value\": 0.1}]}]}}";

static void print_entries(const tdn_graph_document *doc, const tdn_graph_instance *character, const char *when)
{
    const tdn_graph_entry *entries;
    int n = tdn_graph_entries(character, &entries); /* the flat list: every clip that plays, and its weight */
    printf("%s:", when);
    for (int i = 0; i < n; i++)
        if (entries[i].clip >= 0) /* not a rest pose or procedural entry (TDN_ENTRY_*) */
            printf(" %s %.2f", tdn_graph_document_clip_name(doc, entries[i].clip), (double)entries[i].weight);
    printf("\n");
}

int main(void)
{
    tdn_graph_document *doc = NULL;
    tdn_error err = { 0 };
    tdn_graph_document_load_options options = { .base_dir = "." };
    if (tdn_graph_document_load_memory(document, strlen(document), &options, &doc, NULL, &err) != TDN_OK)
        return fprintf(stderr, "%s: %s\n", err.where, err.message), 1;
    const tdn_graph *graph = tdn_graph_document_graph(doc); /* shared, read-only */
    tdn_graph_instance *character = NULL;                   /* one per character */
    tdn_pose pose;
    if (tdn_graph_instance_create(graph, &character, NULL, NULL) != TDN_OK ||
        tdn_pose_create(tdn_skeleton_joint_count(tdn_graph_document_skeleton(doc)), &pose, NULL, NULL) != TDN_OK)
        return 1;
    int speed = tdn_graph_find_param(graph, "speed"); /* handles, resolved once */

    const float dt = 1.0f / 60.0f;
    for (int frame = 0; frame < 30; frame++) /* half a second standing */
        tdn_graph_update(character, dt, NULL);
    print_entries(doc, character, "standing");
    tdn_graph_set_float(character, speed, 2.45f, NULL);
    for (int frame = 0; frame < 6; frame++) { /* 0.1 s */
        tdn_graph_update(character, dt, NULL);
        tdn_graph_evaluate(character, &pose, NULL); /* the pose of this frame */
    }
    print_entries(doc, character, "0.1 s after speed = 2.45");
    for (int frame = 0; frame < 60; frame++)
        tdn_graph_update(character, dt, NULL);
    print_entries(doc, character, "1.1 s after");

    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(character);
    tdn_graph_document_destroy(doc);
    return 0;
}
