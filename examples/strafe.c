/* Strafing locomotion with facing decoupled from movement, on tendon's generated humanoid.
 *
 * The graph (examples/graphs/strafe.json) blends idle, turning, running forward, walking
 * backward and sidestepping. Its parameters are derived each frame from two vectors a game
 * has: where the stick moves the character (`move`, on the ground plane) and where it looks
 * (`look`, a unit vector turned towards a target):
 *   moveSpeed     |move| clamped to 1                   idle/turn  <->  moving
 *   turnSpeed     |rate of change of look's angle|, 1 at 90 deg/s    idle  <->  turning
 *   turnLeft      that rate > 0 (counterclockwise from above)
 *   faceForward   dot(move, look) >= 0                   run forward  <->  walk backward
 *   faceRight     dot(move, binormal) > 0                strafe right <->  strafe left
 *   sideStrength  |dot(move / |move|, binormal)|          forward/back <->  sidestep
 * with binormal the character's right, perpendicular to look on the ground.
 * Usage: strafe [GRAPH.json] */
#include <math.h>
#include <stdio.h>

#include <tendon/io/graph_document.h>
#include <tendon/tendon.h>

#ifndef STRAFE_GRAPH
#  define STRAFE_GRAPH "examples/graphs/strafe.json"
#endif

typedef struct input {
    float move[2], look_angle;
} input; /* ground plane (x, z); angle about +Y */

/* A scripted eight seconds of stick input. */
static input script(float t)
{
    input in = { { 0, 0 }, 0 };
    if (t < 1.0f)
        return in; /* stand */
    if (t < 3.0f)
        in.move[1] = 1.0f; /* run ahead */
    else if (t < 5.0f)
        in.move[0] = -1.0f; /* sidestep to the right (-x), still facing +z */
    else if (t < 6.0f)
        in.move[1] = -1.0f; /* back off */
    else
        in.look_angle = (t - 6.0f) * 0.5f * 3.14159265f; /* turn left on the spot at 90 deg/s */
    return in;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : STRAFE_GRAPH;
    tdn_graph_document *doc = NULL;
    tdn_error err = { 0 };
    if (tdn_graph_document_load(path, NULL, &doc, NULL, &err) != TDN_OK) {
        fprintf(stderr, "%s: %s: %s\n", path, err.where, err.message);
        return 2;
    }
    const tdn_graph *graph = tdn_graph_document_graph(doc);
    const tdn_skeleton *skel = tdn_graph_document_skeleton(doc);
    tdn_graph_instance *character = NULL;
    tdn_pose pose;
    if (tdn_graph_instance_create(graph, &character, NULL, NULL) != TDN_OK ||
        tdn_pose_create(tdn_skeleton_joint_count(skel), &pose, NULL, NULL) != TDN_OK)
        return 1;
    /* Handles, resolved once. */
    int move_speed = tdn_graph_find_param(graph, "moveSpeed"), turn_speed = tdn_graph_find_param(graph, "turnSpeed");
    int turn_left = tdn_graph_find_param(graph, "turnLeft"), face_forward = tdn_graph_find_param(graph, "faceForward");
    int face_right = tdn_graph_find_param(graph, "faceRight"), side = tdn_graph_find_param(graph, "sideStrength");

    const float dt = 1.0f / 60.0f;
    float last_angle = 0.0f;
    for (int frame = 0; frame <= 8 * 60; frame++) {
        float t = (float)frame * dt;
        input in = script(t);
        float look[2] = { sinf(in.look_angle), cosf(in.look_angle) }; /* +z turned about +y */
        float right[2] = { -look[1], look[0] };                       /* the binormal: -x when looking +z */
        float speed = sqrtf(in.move[0] * in.move[0] + in.move[1] * in.move[1]);
        float rate = (in.look_angle - last_angle) / dt;
        last_angle = in.look_angle;
        float along = in.move[0] * look[0] + in.move[1] * look[1];
        float across = in.move[0] * right[0] + in.move[1] * right[1];
        tdn_graph_set_float(character, move_speed, speed < 1.0f ? speed : 1.0f, NULL);
        tdn_graph_set_float(character, turn_speed, fminf(fabsf(rate) / (0.5f * 3.14159265f), 1.0f), NULL);
        tdn_graph_set_bool(character, turn_left, rate > 0.0f, NULL);
        tdn_graph_set_bool(character, face_forward, along >= 0.0f, NULL);
        tdn_graph_set_bool(character, face_right, across > 0.0f, NULL);
        tdn_graph_set_float(character, side, speed > 0.0f ? fabsf(across) / speed : 0.0f, NULL);

        tdn_graph_update(character, dt, NULL);
        tdn_graph_evaluate(character, &pose, NULL); /* hand this to model space, IK, the palette */

        if (frame % 30 == 0) { /* what the blend manager chose, twice a second */
            const tdn_graph_entry *entries;
            int n = tdn_graph_entries(character, &entries);
            printf("%4.1f s ", t);
            for (int k = 0; k < n; k++)
                if (entries[k].clip >= 0) /* not a rest pose or procedural entry */
                    printf(" %s %.2f", tdn_graph_document_clip_name(doc, entries[k].clip), entries[k].weight);
            printf("\n");
        }
    }
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(character);
    tdn_graph_document_destroy(doc);
    return 0;
}
