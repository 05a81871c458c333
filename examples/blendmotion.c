/* Five state machines at once in masked layers, on tendon's generated humanoid: the BlendMotion
 * showcase (examples/graphs/blendmotion.json).
 *
 *   layer          mode      mask                      machine: states
 *   locomotion     override  every joint               idle, move (a 2D blend space of walks, run
 *                                                      and strafes, feet in sync), turn_left/right
 *   upper_body     override  spine_01's subtree,       idle, wave, point, reload: fired by
 *                            feathered over 2 levels   triggers, back to idle by exit time
 *   aim            additive  (the clips move only      relaxed, aiming: a 2D blend space of aim
 *                            spine, neck and head)     poses made additive against aim_center
 *   hit_reactions  override  spine_01's subtree        none, front, back, left, right: any-state
 *                                                      transitions on triggers, inertialized
 *   hands          override  the fingers               open, fist, point on an int
 * Root motion is extracted: the pose stays in place and this program moves the character.
 *
 * Parameters the game sets: `move` (vec2: metres per second along the character's left (+x)
 * and forward (+z)) and `speed` (its length, for the conditions), `turn` (-1..1, positive to
 * the left), triggers `wave`, `point`, `reload`, `hitFront`, `hitBack`, `hitLeft`, `hitRight`,
 * `aiming` (bool) and `aim` (vec2: left and up, -1..1), `hand` (0 open, 1 fist, 2 point). The
 * action and hit layers show only while their machine is away from its resting state: the
 * program sets their weights (`upperWeight`, `hitWeight`, smoothed by the graph) from the
 * machines' status every frame, as a game's animation controller does.
 * Usage: blendmotion [GRAPH.json] */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <tendon/io/graph_document.h>
#include <tendon/tendon.h>

#ifndef BLENDMOTION_GRAPH
#  define BLENDMOTION_GRAPH "examples/graphs/blendmotion.json"
#endif

#define LAYERS 5
static const char *const MACHINES[LAYERS] = { "locomotion", "upper_body", "aim", "hit_reactions", "hands" };

typedef struct controls {
    float move[2], turn, aim[2];
    int aiming, hand;
    const char *fire; /* a trigger to fire this frame, or NULL */
} controls;

/* The scripted ten seconds: what the player does in frame `frame` (60 per second). */
static controls script(int frame)
{
    const float t = (float)frame / 60.0f;
    controls c = { { 0, 0 }, 0, { 0, 0 }, 0, 0, NULL };
    if (t >= 1.0f && t < 3.0f)
        c.move[1] = 1.4f; /* walk */
    else if (t >= 3.0f && t < 6.0f)
        c.move[1] = 3.5f; /* run */
    else if (t >= 6.0f && t < 7.5f)
        c.move[0] = 1.4f; /* sidestep to the left, aiming */
    if (t >= 9.0f)
        c.turn = 1.0f;           /* turn left on the spot */
    if (t >= 5.0f && t < 8.0f) { /* aim around an ellipse, once in 1.5 s */
        c.aiming = 1;
        float a = (t - 5.0f) * 2.0f * 3.14159265f / 1.5f;
        c.aim[0] = sinf(a);
        c.aim[1] = 0.6f * cosf(a);
    }
    c.hand = t >= 5.5f && t < 8.0f ? 1 : t >= 8.0f && t < 9.5f ? 2 : 0; /* a fist, then point */
    static const struct {
        int frame;
        const char *name;
    } EVENTS[] = {
        /* at 1.5, 3.5, 6.5, 6.9, 7.6, 9.3 s */
        { 90, "point" },    { 210, "wave" },   { 390, "hitFront" },
        { 414, "hitLeft" }, { 456, "reload" }, { 558, "hitBack" },
    };
    for (size_t k = 0; k < sizeof EVENTS / sizeof EVENTS[0]; k++)
        if (frame == EVENTS[k].frame)
            c.fire = EVENTS[k].name;
    return c;
}

/* The node of a named state machine (the layers' roots are named nodes of the document). */
static int find_node(const tdn_graph *graph, const char *name)
{
    for (int n = 0; n < tdn_graph_node_count(graph); n++)
        if (strcmp(tdn_graph_node_name(graph, n), name) == 0 && tdn_graph_state_count(graph, n) > 0)
            return n;
    return -1;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : BLENDMOTION_GRAPH;
    tdn_graph_document *doc = NULL;
    tdn_error err = { 0 };
    if (tdn_graph_document_load(path, NULL, &doc, NULL, &err) != TDN_OK) {
        fprintf(stderr, "%s: %s: %s\n", path, err.where, err.message);
        return 2;
    }
    const tdn_graph *graph = tdn_graph_document_graph(doc);
    const tdn_skeleton *skel = tdn_graph_document_skeleton(doc);
    const int joints = tdn_skeleton_joint_count(skel);
    tdn_graph_instance *character = NULL;
    tdn_pose pose;
    static tdn_mat4 model[256];
    if (joints > 256 || tdn_graph_instance_create(graph, &character, NULL, NULL) != TDN_OK ||
        tdn_pose_create(joints, &pose, NULL, NULL) != TDN_OK)
        return 1;
    int machine[LAYERS];
    for (int l = 0; l < LAYERS; l++)
        if ((machine[l] = find_node(graph, MACHINES[l])) < 0) {
            fprintf(stderr, "%s: no state machine named %s\n", path, MACHINES[l]);
            return 1;
        }
    /* Handles, resolved once. */
    const int move = tdn_graph_find_param(graph, "move"), speed = tdn_graph_find_param(graph, "speed");
    const int turn = tdn_graph_find_param(graph, "turn"), aiming = tdn_graph_find_param(graph, "aiming");
    const int aim = tdn_graph_find_param(graph, "aim"), hand = tdn_graph_find_param(graph, "hand");
    const int upper_weight = tdn_graph_find_param(graph, "upperWeight");
    const int hit_weight = tdn_graph_find_param(graph, "hitWeight");
    const int upper_idle = tdn_graph_find_state(graph, machine[1], "idle");
    const int hit_none = tdn_graph_find_state(graph, machine[3], "none");

    const float dt = 1.0f / 60.0f;
    tdn_vec3 position = tdn_vec3_make(0, 0, 0); /* the character in the world */
    tdn_quat facing = tdn_quat_identity();
    for (int frame = 0; frame <= 10 * 60; frame++) {
        const float t = (float)frame * dt;
        controls c = script(frame);
        tdn_graph_set_vector(character, move, c.move, NULL);
        tdn_graph_set_float(character, speed, sqrtf(c.move[0] * c.move[0] + c.move[1] * c.move[1]), NULL);
        tdn_graph_set_float(character, turn, c.turn, NULL);
        tdn_graph_set_bool(character, aiming, c.aiming, NULL);
        tdn_graph_set_vector(character, aim, c.aim, NULL);
        tdn_graph_set_int(character, hand, c.hand, NULL);
        if (c.fire)
            tdn_graph_fire_trigger_named(character, c.fire, NULL);
        /* The action and hit layers show while their machines are busy (or about to be). */
        tdn_state_machine_status upper, hit;
        tdn_graph_state_machine_status(character, machine[1], &upper, NULL);
        tdn_graph_state_machine_status(character, machine[3], &hit, NULL);
        const int hit_fired = c.fire && strncmp(c.fire, "hit", 3) == 0;
        const int acting = upper.state != upper_idle || (c.fire && !hit_fired);
        const int hurt = hit.state != hit_none || hit_fired;
        tdn_graph_set_float(character, upper_weight, acting ? 1.0f : 0.0f, NULL);
        tdn_graph_set_float(character, hit_weight, hurt ? 1.0f : 0.0f, NULL);

        tdn_graph_update(character, dt, NULL);
        tdn_graph_evaluate(character, &pose, NULL);
        tdn_model_space(skel, &pose, NULL, model, NULL); /* hand this to IK, the palette, a renderer */

        tdn_root_motion step; /* move the character by what the clips did */
        tdn_graph_root_motion(character, &step, NULL);
        position = tdn_vec3_add(position, tdn_quat_rotate(facing, step.translation));
        facing = tdn_quat_normalize(tdn_quat_mul(facing, step.rotation));

        if (frame % 30 == 0) { /* twice a second */
            printf("%4.1f s  entries %2d ", t, tdn_graph_entries(character, NULL));
            for (int l = 0; l < LAYERS; l++) {
                tdn_state_machine_status s;
                tdn_graph_state_machine_status(character, machine[l], &s, NULL);
                printf(" %s=%s %.2f", tdn_graph_layer_name(graph, l), tdn_graph_state_name(graph, machine[l], s.state),
                       tdn_graph_layer_weight(character, l));
            }
            tdn_vec3 ahead = tdn_quat_rotate(facing, tdn_vec3_make(0, 0, 1));
            printf("  root (%.2f, %.2f) m, heading %.0f deg\n", position.x, position.z,
                   atan2f(ahead.x, ahead.z) * 180.0f / 3.14159265f);
        }
    }
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(character);
    tdn_graph_document_destroy(doc);
    return 0;
}
