/* State machines: conditions and priorities, fades and their curves, normalized durations and
 * exit times, triggers firing one transition, any-state, smooth/frozen/cut modes, interruption
 * from the blended pose, phase matching, travel, events, status, bad descriptions. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "graph_fixture.h"

enum { IDLE, WALK, RUN, HIT };

/* A machine over four clips (idle 2 s, walk 1.2 s, run 0.6 s, hit 0.5 s) and the parameters
 * speed (float) and hit (trigger). The caller gives the transitions. */
typedef struct machine {
    tdn_clip *clips[4];
    tdn_graph *graph;
    tdn_graph_instance *in;
    int node; /* the machine's node */
} machine;

static const tdn_state_desc states[4] = { { "idle" }, { "walk" }, { "run" }, { "hit" } };

static int make_machine(machine *m, const tdn_transition_desc *transitions, int count)
{
    tdn_event_desc walk_events[] = { { "step", 0.3f } };
    clip_spec specs[4] = { { "idle", 2.0f, 0, 0.1f, 1, { 0, 1, 0 }, NULL, 0 },
                           { "walk", 1.2f, 1.5f, 0.6f, 1, { 0, 1, 0 }, walk_events, 1 },
                           { "run", 0.6f, 2, -0.6f, 1, { 1, 0, 0 }, NULL, 0 },
                           { "hit", 0.5f, -0.2f, 1.0f, 1, { 0, 0, 1 }, NULL, 0 } };
    for (int i = 0; i < 4; i++)
        m->clips[i] = make_clip(specs[i], 0);
    static const tdn_param_desc params[] = { { .name = "speed" },
                                             { .name = "hit", .type = TDN_PARAM_TRIGGER },
                                             { .name = "go", .type = TDN_PARAM_BOOL } };
    static const int inputs[4] = { 0, 1, 2, 3 };
    tdn_state_machine_desc sm = { states, 4, transitions, count, IDLE };
    tdn_node_desc nodes[5];
    for (int i = 0; i < 4; i++)
        nodes[i] = (tdn_node_desc){ .type = TDN_NODE_CLIP,
                                    .clip = i,
                                    .wrap = i == HIT ? TDN_WRAP_CLAMP : TDN_WRAP_LOOP };
    nodes[4] = (tdn_node_desc){
        .type = TDN_NODE_STATE_MACHINE, .name = "loco", .inputs = inputs, .input_count = 4, .state_machine = &sm
    };
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = (const tdn_clip *const *)m->clips,
                          .clip_count = 4,
                          .params = params,
                          .param_count = 3,
                          .nodes = nodes,
                          .node_count = 5,
                          .root = 4,
                          .cull_threshold = -1 };
    tdn_error err = { 0 };
    m->node = 4;
    if (tdn_graph_create(&gd, &m->graph, &counting, &err) != TDN_OK) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return 0;
    }
    return tdn_graph_instance_create(m->graph, &m->in, &counting, NULL) == TDN_OK;
}

static void free_machine(machine *m)
{
    tdn_graph_instance_destroy(m->in);
    tdn_graph_destroy(m->graph);
    for (int i = 0; i < 4; i++)
        tdn_clip_destroy(m->clips[i]);
}

static float weight_of(const machine *m, int clip)
{
    float w;
    entry_of_clip(m->in, clip, &w);
    return w;
}

static int state_of(const machine *m)
{
    tdn_state_machine_status s;
    tdn_graph_state_machine_status(m->in, m->node, &s, NULL);
    return s.state;
}

static void conditions_priorities_and_fades(void)
{
    tdn_condition_desc moving[] = { { "speed", TDN_COMPARE_GREATER, 0.1f } };
    tdn_condition_desc fast[] = { { "speed", TDN_COMPARE_GREATER_EQUAL, 2.0f } };
    tdn_condition_desc still[] = { { "speed", TDN_COMPARE_LESS_EQUAL, 0.1f } };
    tdn_transition_desc t[] = {
        { .from = IDLE, .to = WALK, .conditions = moving, .condition_count = 1, .duration = 0.2f },
        /* listed first but checked after the run transition (priority 1 > 0) */
        { .from = WALK, .to = IDLE, .conditions = still, .condition_count = 1, .duration = 0.2f, .priority = 1 },
        { .from = WALK,
          .to = RUN,
          .conditions = fast,
          .condition_count = 1,
          .duration = 0.4f,
          .curve = { TDN_EASE_SMOOTHSTEP, 0, 0, 0, 0 } },
    };
    machine m;
    if (!CHECK(make_machine(&m, t, 3)))
        return;
    tdn_graph_update(m.in, 0.1f, NULL);
    CHECK_EQ_INT(state_of(&m), IDLE);
    CHECK_NEAR(weight_of(&m, IDLE), 1, 0);
    tdn_graph_set_float(m.in, 0, 1.0f, NULL);
    tdn_graph_update(m.in, 0.05f, NULL); /* taken, and a quarter of the linear fade done */
    CHECK_EQ_INT(state_of(&m), WALK);
    CHECK_NEAR(weight_of(&m, WALK), 0.25, 1e-6);
    CHECK_NEAR(weight_of(&m, IDLE), 0.75, 1e-6);
    tdn_state_machine_status s;
    tdn_graph_state_machine_status(m.in, m.node, &s, NULL);
    CHECK_EQ_INT(s.transition, 0);
    CHECK_EQ_INT(s.previous_state, IDLE);
    CHECK_NEAR(s.transition_weight, 0.25, 1e-6);
    /* the walk clip restarted when entered: 0.05 s in */
    CHECK_NEAR(tdn_graph_clip_time(m.in, 1), 0.05, 1e-6);
    tdn_graph_update(m.in, 0.15f, NULL);
    CHECK_NEAR(weight_of(&m, WALK), 1, 0);
    tdn_graph_state_machine_status(m.in, m.node, &s, NULL);
    CHECK_EQ_INT(s.transition, -1);
    CHECK_NEAR(s.time_in_state, 0.2, 1e-6);
    /* speed 2: run (priority 0) wins over nothing else; smoothstep at 0.1 / 0.4: 3/16 - 2/64 */
    tdn_graph_set_float(m.in, 0, 2.0f, NULL);
    tdn_graph_update(m.in, 0.1f, NULL);
    CHECK_EQ_INT(state_of(&m), RUN);
    CHECK_NEAR(weight_of(&m, RUN), 3.0 / 16 - 2.0 / 64, 1e-6);
    free_machine(&m);
    CHECK_EQ_INT(live_blocks, 0);
}

static void exit_times_and_normalized_durations(void)
{
    /* walk -> idle at 1.76 laps of walk, over half of walk's length (0.6 s) */
    tdn_condition_desc go[] = { { "go", TDN_COMPARE_TRUE, 0 } };
    tdn_transition_desc t[] = {
        { .from = IDLE, .to = WALK, .conditions = go, .condition_count = 1, .mode = TDN_TRANSITION_CUT },
        { .from = WALK, .to = IDLE, .exit_time = 1.76f, .duration = 0.5f, .duration_normalized = 1 },
    };
    machine m;
    if (!CHECK(make_machine(&m, t, 2)))
        return;
    tdn_graph_set_bool(m.in, 2, 1, NULL);
    tdn_graph_update(m.in, 0.01f, NULL);
    CHECK_EQ_INT(state_of(&m), WALK);
    CHECK_NEAR(weight_of(&m, WALK), 1, 0); /* a cut */
    tdn_graph_set_bool(m.in, 2, 0, NULL);
    /* 1.76 laps of 1.2 s = 2.112 s after entering; the walk clip is at 0.01 now */
    int frames = 0;
    while (state_of(&m) == WALK && frames < 1000) {
        tdn_graph_update(m.in, 0.01f, NULL);
        frames++;
    }
    /* taken on the first update that starts at or past 2.112 s of walk: at 0.01 + 0.01 k for
     * k = 211, the 212th update of the loop */
    CHECK_EQ_INT(frames, 212);
    tdn_state_machine_status s;
    tdn_graph_state_machine_status(m.in, m.node, &s, NULL);
    CHECK_EQ_INT(s.state, IDLE);
    /* the fade lasts 0.5 x 1.2 s: one update of 0.01 into it */
    CHECK_NEAR(weight_of(&m, IDLE), 0.01 / 0.6, 1e-5);
    free_machine(&m);
}

static void triggers_any_state_and_modes(void)
{
    tdn_condition_desc hit[] = { { "hit", TDN_COMPARE_TRUE, 0 } };
    tdn_condition_desc moving[] = { { "speed", TDN_COMPARE_GREATER, 0.1f } };
    tdn_transition_desc t[] = {
        { .from = TDN_ANY_STATE,
          .to = HIT,
          .conditions = hit,
          .condition_count = 1,
          .duration = 0.1f,
          .mode = TDN_TRANSITION_FROZEN },
        { .from = HIT, .to = IDLE, .exit_time = 1.0f, .duration = 0.2f },
        { .from = IDLE, .to = WALK, .conditions = moving, .condition_count = 1, .duration = 0.2f },
        /* a second transition on the same trigger: the trigger is spent by the first */
        { .from = HIT, .to = RUN, .conditions = hit, .condition_count = 1 },
    };
    machine m;
    if (!CHECK(make_machine(&m, t, 4)))
        return;
    tdn_graph_set_float(m.in, 0, 1.0f, NULL);
    tdn_graph_update(m.in, 0.3f, NULL); /* idle -> walk, done */
    tdn_graph_update(m.in, 0.1f, NULL);
    CHECK_EQ_INT(state_of(&m), WALK);
    float walk_time = tdn_graph_clip_time(m.in, 1);
    tdn_graph_fire_trigger(m.in, 1, NULL);
    tdn_graph_update(m.in, 0.05f, NULL);
    CHECK_EQ_INT(state_of(&m), HIT);
    CHECK_NEAR(weight_of(&m, HIT), 0.5, 1e-6);
    /* frozen: walk held its time while it fades out */
    CHECK_NEAR(tdn_graph_clip_time(m.in, 1), walk_time, 0);
    CHECK_NEAR(tdn_graph_param_value(m.in, 1, 0), 0, 0); /* consumed */
    tdn_graph_update(m.in, 0.05f, NULL);
    CHECK_EQ_INT(state_of(&m), HIT); /* not on to run: the trigger fired one transition */
    /* any-state does not re-enter the state it is in */
    tdn_graph_fire_trigger(m.in, 1, NULL);
    tdn_graph_update(m.in, 0.01f, NULL);
    CHECK_EQ_INT(state_of(&m), RUN); /* ...but hit -> run listens to it now */
    free_machine(&m);
}

/* A one-shot fired again while it fades out plays again: hit (0.5 s, clamped) returns to idle at
 * its end over 0.3 s; firing hit during that fade restarts the hit clip instead of handing the
 * finished clip straight back to its exit. */
static void a_one_shot_fired_again_plays_again(void)
{
    tdn_condition_desc hit[] = { { "hit", TDN_COMPARE_TRUE, 0 } };
    tdn_transition_desc t[] = {
        { .from = TDN_ANY_STATE, .to = HIT, .conditions = hit, .condition_count = 1, .duration = 0.1f },
        { .from = HIT, .to = IDLE, .exit_time = 1.0f, .duration = 0.3f },
    };
    machine m;
    if (!CHECK(make_machine(&m, t, 2)))
        return;
    tdn_graph_fire_trigger(m.in, 1, NULL);
    for (int f = 0; f < 55; f++) /* 0.55 s: hit played out, the fade back to idle under way */
        tdn_graph_update(m.in, 0.01f, NULL);
    CHECK_EQ_INT(state_of(&m), IDLE);
    tdn_graph_fire_trigger(m.in, 1, NULL);
    tdn_graph_update(m.in, 0.01f, NULL);
    CHECK_EQ_INT(state_of(&m), HIT);
    CHECK_NEAR(tdn_graph_clip_time(m.in, 3), 0.01, 1e-5); /* restarted */
    for (int f = 0; f < 20; f++)
        tdn_graph_update(m.in, 0.01f, NULL);
    CHECK_EQ_INT(state_of(&m), HIT); /* playing, not straight back out */
    free_machine(&m);
}

static void interruptions_blend_from_the_current_pose(void)
{
    tdn_condition_desc to_walk[] = { { "speed", TDN_COMPARE_EQUAL, 1 } };
    tdn_condition_desc to_run[] = { { "speed", TDN_COMPARE_EQUAL, 2 } };
    tdn_condition_desc to_hit[] = { { "speed", TDN_COMPARE_EQUAL, 3 } };
    tdn_transition_desc t[] = {
        { .from = IDLE, .to = WALK, .conditions = to_walk, .condition_count = 1, .duration = 0.4f },
        { .from = WALK, .to = RUN, .conditions = to_run, .condition_count = 1, .duration = 0.4f },
        { .from = RUN, .to = HIT, .conditions = to_hit, .condition_count = 1, .duration = 0.4f, .uninterruptible = 0 },
        { .from = HIT,
          .to = IDLE,
          .conditions = to_walk,
          .condition_count = 1,
          .duration = 1.0f,
          .uninterruptible = 1 },
    };
    machine m;
    if (!CHECK(make_machine(&m, t, 4)))
        return;
    tdn_graph_set_float(m.in, 0, 1, NULL);
    tdn_graph_update(m.in, 0.2f, NULL); /* idle 0.5, walk 0.5 */
    tdn_graph_set_float(m.in, 0, 2, NULL);
    tdn_graph_update(m.in, 0.1f, NULL); /* run 0.25; walk's fade now 0.75: walk 0.75 x 0.75, idle 0.25 x 0.75 */
    CHECK_NEAR(weight_of(&m, RUN), 0.25, 1e-6);
    CHECK_NEAR(weight_of(&m, WALK), 0.75 * 0.75, 1e-6);
    CHECK_NEAR(weight_of(&m, IDLE), 0.25 * 0.75, 1e-6);
    /* walk's fade completes underneath: idle leaves, run keeps fading in over walk */
    tdn_graph_update(m.in, 0.1f, NULL); /* walk 1 under run 0.5 */
    CHECK_NEAR(weight_of(&m, RUN), 0.5, 1e-6);
    CHECK_NEAR(weight_of(&m, WALK), 0.5, 1e-6);
    CHECK_NEAR(weight_of(&m, IDLE), 0, 0);
    tdn_graph_set_float(m.in, 0, 3, NULL);
    tdn_graph_update(m.in, 0.2f, NULL); /* run's fade completes (0.4), hit at 0.5 */
    tdn_graph_set_float(m.in, 0, 1, NULL);
    tdn_graph_update(m.in, 0.1f, NULL); /* hit -> idle, uninterruptible, 1 s */
    tdn_graph_set_float(m.in, 0, 3, NULL);
    for (int k = 0; k < 5; k++)
        tdn_graph_update(m.in, 0.1f, NULL);
    CHECK_EQ_INT(state_of(&m), IDLE); /* nothing interrupts it */
    free_machine(&m);
}

static void phase_matching_and_travel(void)
{
    tdn_condition_desc fast[] = { { "speed", TDN_COMPARE_GREATER, 1.5f } };
    tdn_transition_desc t[] = {
        { .from = IDLE, .to = WALK, .duration = 0.2f, .conditions = fast, .condition_count = 0, .exit_time = 0 },
        { .from = WALK, .to = RUN, .conditions = fast, .condition_count = 1, .duration = 0.2f, .sync_phase = 1 },
        { .from = RUN, .to = HIT, .conditions = fast, .condition_count = 1, .duration = 0.1f },
    };
    machine m;
    if (!CHECK(make_machine(&m, t, 3)))
        return;
    /* idle -> walk has no condition: taken at once */
    tdn_graph_update(m.in, 0.2f, NULL);
    CHECK_EQ_INT(state_of(&m), WALK);
    for (int k = 0; k < 4; k++)
        tdn_graph_update(m.in, 0.1f, NULL); /* walk at 0.6 of 1.2 s: phase 0.5 */
    float walk_phase = tdn_graph_clip_time(m.in, 1) / 1.2f;
    tdn_graph_set_float(m.in, 0, 2, NULL);
    tdn_graph_update(m.in, 0.0f, NULL);
    CHECK_EQ_INT(state_of(&m), RUN);
    CHECK_NEAR(tdn_graph_clip_time(m.in, 2) / 0.6f, walk_phase, 1e-5);
    free_machine(&m);

    /* travel: walk -> hit goes through run, each step as the fade before it completes */
    if (!CHECK(make_machine(&m, t, 3)))
        return;
    tdn_graph_update(m.in, 0.3f, NULL);
    CHECK(tdn_graph_travel(m.in, m.node, HIT, NULL) == TDN_OK);
    tdn_graph_update(m.in, 0.1f, NULL);
    CHECK_EQ_INT(state_of(&m), RUN);
    tdn_graph_update(m.in, 0.1f, NULL); /* the run fade completes: hit next update */
    tdn_graph_update(m.in, 0.05f, NULL);
    CHECK_EQ_INT(state_of(&m), HIT);
    CHECK(tdn_graph_travel(m.in, m.node, IDLE, NULL) == TDN_ERR_INVALID_DATA); /* nothing leads back */
    CHECK(tdn_graph_travel(m.in, m.node, 9, NULL) == TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_graph_find_state(m.graph, m.node, "run"), RUN);
    CHECK(strcmp(tdn_graph_state_name(m.graph, m.node, HIT), "hit") == 0);
    free_machine(&m);
}

static void events_in_order(void)
{
    tdn_condition_desc moving[] = { { "speed", TDN_COMPARE_GREATER, 0.1f } };
    tdn_transition_desc t[] = {
        { .from = IDLE, .to = WALK, .conditions = moving, .condition_count = 1, .duration = 0.2f }
    };
    machine m;
    if (!CHECK(make_machine(&m, t, 1)))
        return;
    tdn_graph_set_float(m.in, 0, 1, NULL);
    tdn_graph_update(m.in, 0.1f, NULL);
    const tdn_graph_event *e;
    int n = tdn_graph_events(m.in, &e, NULL);
    CHECK_EQ_INT(n, 2);
    CHECK(n >= 2 && e[0].type == TDN_EVENT_TRANSITION_STARTED && e[0].index == 0 && e[0].node == m.node);
    CHECK(n >= 2 && e[1].type == TDN_EVENT_STATE_ENTERED && e[1].index == WALK);
    tdn_graph_update(m.in, 0.15f, NULL); /* the fade completes; walk's time 0.25 crosses nothing yet */
    n = tdn_graph_events(m.in, &e, NULL);
    CHECK_EQ_INT(n, 2);
    CHECK(n >= 2 && e[0].type == TDN_EVENT_STATE_EXITED && e[0].index == IDLE);
    CHECK(n >= 2 && e[1].type == TDN_EVENT_TRANSITION_FINISHED && e[1].index == 0);
    tdn_graph_update(m.in, 0.1f, NULL); /* walk 0.25 -> 0.35 crosses its "step" at 0.3 */
    n = tdn_graph_events(m.in, &e, NULL);
    CHECK_EQ_INT(n, 1);
    CHECK(n == 1 && e[0].type == TDN_EVENT_CLIP && e[0].clip == 1 && e[0].index == 0 && e[0].weight == 1.0f);
    free_machine(&m);
}

/* Over a long scripted run with fades interrupted at every depth, any-state transitions and
 * priorities: each update takes the transition the rules pick (the first by priority, then by
 * listing, that leaves the current state, or any other for an any-state one, and whose
 * conditions hold, worked out here from the description), and the status reports as the top
 * state's weight exactly the weight its clip node received (the machine is the root: weight 1). */
static void choices_and_status_over_a_long_run(void)
{
    enum { GO = 2 };
    tdn_condition_desc walk_on[] = { { "speed", TDN_COMPARE_GREATER, 0.5f } };
    tdn_condition_desc walk_off[] = { { "speed", TDN_COMPARE_LESS, 0.5f } };
    tdn_condition_desc run_on[] = { { "speed", TDN_COMPARE_GREATER, 1.5f } };
    tdn_condition_desc run_off[] = { { "speed", TDN_COMPARE_LESS_EQUAL, 1.5f } };
    tdn_condition_desc stop[] = { { "speed", TDN_COMPARE_LESS, 0.1f } };
    tdn_condition_desc hit[] = { { "hit", TDN_COMPARE_TRUE, 0 } };
    tdn_condition_desc go[] = { { "go", TDN_COMPARE_TRUE, 0 } };
    tdn_condition_desc go_walk[] = { { "go", TDN_COMPARE_TRUE, 0 }, { "speed", TDN_COMPARE_GREATER, 0.5f } };
    const tdn_ease smooth = { TDN_EASE_SMOOTHSTEP, 0, 0, 0, 0 };
    tdn_transition_desc t[] = {
        { .from = IDLE, .to = WALK, .conditions = walk_on, .condition_count = 1, .duration = 0.3f },
        { .from = WALK, .to = RUN, .conditions = run_on, .condition_count = 1, .duration = 0.3f, .priority = 1 },
        { .from = WALK, .to = IDLE, .conditions = walk_off, .condition_count = 1, .duration = 0.3f, .curve = smooth },
        { .from = RUN, .to = WALK, .conditions = run_off, .condition_count = 1, .duration = 0.25f },
        { .from = TDN_ANY_STATE, .to = HIT, .conditions = hit, .condition_count = 1, .duration = 0.1f, .priority = 2 },
        { .from = HIT, .to = IDLE, .conditions = go, .condition_count = 1, .duration = 0.5f, .curve = smooth },
        { .from = TDN_ANY_STATE,
          .to = WALK,
          .conditions = go_walk,
          .condition_count = 2,
          .duration = 0.2f,
          .priority = 3 },
        { .from = RUN, .to = IDLE, .conditions = stop, .condition_count = 1, .duration = 0.4f, .priority = -1 },
    };
    enum { T = sizeof t / sizeof t[0] };
    machine m;
    if (!CHECK(make_machine(&m, t, T)))
        return;
    unsigned seed = 17;
    float speed = 0.0f;
    int go_on = 0, wrong_choice = 0, wrong_weight = 0, taken = 0, fading = 0;
    for (int f = 0; f < 3000; f++) {
        seed = seed * 1664525u + 1013904223u;
        unsigned r = seed >> 8;
        if (r % 7 == 0)
            speed = (float)(r % 250) / 100.0f;
        go_on = r % 11 == 0 ? !go_on : go_on;
        int fire = r % 37 == 0;
        tdn_graph_set_float(m.in, 0, speed, NULL);
        tdn_graph_set_bool(m.in, GO, go_on, NULL);
        if (fire)
            tdn_graph_fire_trigger(m.in, 1, NULL);
        /* the rules' pick: lowest priority first, the listing breaks ties */
        int current = state_of(&m), expected = -1;
        for (int k = 0; k < T; k++) {
            const tdn_transition_desc *d = &t[k];
            if (!(d->from == current || (d->from == TDN_ANY_STATE && d->to != current)))
                continue;
            int ok = 1;
            for (int c = 0; c < d->condition_count; c++) {
                const tdn_condition_desc *cd = &d->conditions[c];
                float v = strcmp(cd->param, "speed") == 0 ? speed
                          : strcmp(cd->param, "go") == 0  ? (float)go_on
                                                          : (float)fire;
                ok &= cd->compare == TDN_COMPARE_GREATER      ? v > cd->value
                      : cd->compare == TDN_COMPARE_LESS       ? v < cd->value
                      : cd->compare == TDN_COMPARE_LESS_EQUAL ? v <= cd->value
                                                              : v != 0.0f;
            }
            if (ok && (expected < 0 || d->priority < t[expected].priority))
                expected = k;
        }
        tdn_graph_update(m.in, (float)(1 + r % 3) / 60.0f, NULL);
        const tdn_graph_event *e;
        int n = tdn_graph_events(m.in, &e, NULL), started = -1;
        for (int k = 0; k < n; k++)
            started = e[k].type == TDN_EVENT_TRANSITION_STARTED ? e[k].index : started;
        wrong_choice += started != expected;
        taken += started >= 0;
        tdn_state_machine_status s;
        CHECK(tdn_graph_state_machine_status(m.in, m.node, &s, NULL) == TDN_OK);
        wrong_weight += s.transition_weight != tdn_graph_node_weight(m.in, s.state);
        fading += s.transition >= 0;
    }
    CHECK_EQ_INT(wrong_choice, 0);
    CHECK_EQ_INT(wrong_weight, 0);
    CHECK(taken > 100 && fading > 300); /* the run did transition, and often mid-fade */
    free_machine(&m);
}

/* Lead-in and lead-out (MechWarrior 4's header and trailer): a 1.5 s clip with a 0.2 s header
 * and a 0.3 s trailer loops in [0.2, 1.2) while its state plays; a cut out of it fades over the
 * trailer while the clip runs on into it; a cut into it fades over its header from time 0. */
static void lead_ins_and_lead_outs(void)
{
    tdn_clip *clips[2] = { make_clip((clip_spec){ "act", 1.5f, 1, 0.5f, 1, { 0, 1, 0 }, NULL, 0 }, 0),
                           make_clip((clip_spec){ "idle", 1.0f, 0, 0.1f, 1, { 0, 1, 0 }, NULL, 0 }, 0) };
    tdn_param_desc params[] = { { .name = "go", .type = TDN_PARAM_BOOL } };
    tdn_condition_desc go[] = { { "go", TDN_COMPARE_TRUE, 0 } }, stop[] = { { "go", TDN_COMPARE_FALSE, 0 } };
    tdn_transition_desc t[] = {
        { .from = 0, .to = 1, .conditions = go, .condition_count = 1, .mode = TDN_TRANSITION_CUT },
        { .from = 1, .to = 0, .conditions = stop, .condition_count = 1, .mode = TDN_TRANSITION_CUT }
    };
    tdn_state_desc st[2] = { { "act" }, { "idle" } };
    tdn_state_machine_desc sm = { st, 2, t, 2, 0 };
    int inputs[2] = { 0, 1 };
    tdn_node_desc nodes[3] = {
        { .type = TDN_NODE_CLIP, .clip = 0, .wrap = TDN_WRAP_LOOP, .lead_in = 0.2f, .lead_out = 0.3f },
        { .type = TDN_NODE_CLIP, .clip = 1, .wrap = TDN_WRAP_LOOP },
        { .type = TDN_NODE_STATE_MACHINE, .inputs = inputs, .input_count = 2, .state_machine = &sm },
    };
    tdn_graph_desc gd = { .skeleton = skeleton,
                          .clips = (const tdn_clip *const *)clips,
                          .clip_count = 2,
                          .params = params,
                          .param_count = 1,
                          .nodes = nodes,
                          .node_count = 3,
                          .root = 2,
                          .cull_threshold = -1 };
    tdn_graph *g = NULL;
    tdn_graph_instance *in = NULL;
    CHECK(tdn_graph_create(&gd, &g, NULL, NULL) == TDN_OK);
    CHECK(tdn_graph_instance_create(g, &in, NULL, NULL) == TDN_OK);
    float highest = 0;
    for (int f = 0; f < 300; f++) { /* 3 s: two and a half loops of 1 s */
        tdn_graph_update(in, 0.01f, NULL);
        float time = tdn_graph_clip_time(in, 0);
        highest = time > highest ? time : highest;
        if (f > 30)
            CHECK(time >= 0.2f - 1e-5f);
    }
    CHECK(highest < 1.2f);
    CHECK(highest > 1.19f);
    /* out by a cut: a 0.3 s fade over the trailer, the clip running on past 1.2 */
    tdn_graph_set_bool(in, 0, 1, NULL);
    float before = tdn_graph_clip_time(in, 0);
    tdn_graph_update(in, 0.1f, NULL);
    float w;
    entry_of_clip(in, 1, &w);
    CHECK_NEAR(w, 0.1 / 0.3, 1e-5);
    for (int f = 0; f < 3; f++)
        tdn_graph_update(in, 0.1f, NULL);
    CHECK_NEAR(tdn_graph_clip_time(in, 0), fminf(before + 0.4f, 1.5f), 1e-5);
    if (before + 0.4f > 1.2f)
        CHECK(tdn_graph_clip_time(in, 0) > 1.2f);
    /* back in by a cut: a 0.2 s fade over the header, from time 0 */
    tdn_graph_set_bool(in, 0, 0, NULL);
    tdn_graph_update(in, 0.05f, NULL);
    CHECK_NEAR(tdn_graph_clip_time(in, 0), 0.05, 1e-5);
    entry_of_clip(in, 0, &w);
    CHECK_NEAR(w, 0.25, 1e-5);
    tdn_graph_instance_destroy(in);
    tdn_graph_destroy(g);
    /* a header and trailer longer than the clip are refused */
    nodes[0].lead_out = 1.4f;
    tdn_error err = { 0 };
    CHECK(tdn_graph_create(&gd, &g, NULL, &err) == TDN_ERR_INVALID_DATA);
    CHECK(strcmp(err.where, "nodes[0]") == 0);
    tdn_clip_destroy(clips[0]);
    tdn_clip_destroy(clips[1]);
}

static void bad_machines_name_the_place(void)
{
    tdn_clip *clip = make_clip((clip_spec){ "c", 1, 1, 0, 1, { 0, 1, 0 }, NULL, 0 }, 0);
    tdn_param_desc params[] = { { .name = "speed" }, { .name = "hit", .type = TDN_PARAM_TRIGGER } };
    int inputs[2] = { 0, 0 };
    tdn_state_desc two[2] = { { "a" }, { "b" } }, same[2] = { { "a" }, { "a" } };
    tdn_condition_desc unknown[] = { { "nope", TDN_COMPARE_GREATER, 0 } };
    tdn_condition_desc trigger_compare[] = { { "hit", TDN_COMPARE_LESS, 0 } };
    tdn_condition_desc float_true[] = { { "speed", TDN_COMPARE_TRUE, 0 } };
    tdn_transition_desc far[] = { { .from = 0, .to = 2 } }, bad_from[] = { { .from = -5, .to = 1 } };
    tdn_transition_desc t_unknown[] = { { .from = 0, .to = 1, .conditions = unknown, .condition_count = 1 } };
    tdn_transition_desc t_trigger[] = { { .from = 0, .to = 1, .conditions = trigger_compare, .condition_count = 1 } };
    tdn_transition_desc t_true[] = { { .from = 0, .to = 1, .conditions = float_true, .condition_count = 1 } };
    tdn_transition_desc t_neg[] = { { .from = 0, .to = 1, .duration = -1 } };
    struct {
        tdn_state_machine_desc sm;
        const char *where;
    } cases[] = {
        { { two, 2, far, 1, 0 }, "nodes[1] 'm' transitions[0]" },
        { { two, 2, bad_from, 1, 0 }, "nodes[1] 'm' transitions[0]" },
        { { two, 2, t_unknown, 1, 0 }, "nodes[1] 'm' transitions[0].conditions[0]" },
        { { two, 2, t_trigger, 1, 0 }, "nodes[1] 'm' transitions[0].conditions[0]" },
        { { two, 2, t_true, 1, 0 }, "nodes[1] 'm' transitions[0].conditions[0]" },
        { { two, 2, t_neg, 1, 0 }, "nodes[1] 'm' transitions[0]" },
        { { same, 2, NULL, 0, 0 }, "nodes[1] 'm' states[1]" },
        { { two, 2, NULL, 0, 2 }, "nodes[1] 'm'" },
        { { two, 1, NULL, 0, 0 }, "nodes[1] 'm'" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tdn_node_desc nodes[2] = { { .type = TDN_NODE_CLIP, .wrap = TDN_WRAP_LOOP },
                                   { .type = TDN_NODE_STATE_MACHINE,
                                     .name = "m",
                                     .inputs = inputs,
                                     .input_count = 2,
                                     .state_machine = &cases[k].sm } };
        tdn_graph_desc gd = { .skeleton = skeleton,
                              .clips = (const tdn_clip *const *)&clip,
                              .clip_count = 1,
                              .params = params,
                              .param_count = 2,
                              .nodes = nodes,
                              .node_count = 2,
                              .root = 1 };
        tdn_graph *g = NULL;
        tdn_error err = { 0 };
        CHECK_EQ_INT(tdn_graph_create(&gd, &g, &counting, &err), TDN_ERR_INVALID_DATA);
        if (!CHECK(strcmp(err.where, cases[k].where) == 0))
            fprintf(stderr, "case %zu: '%s': %s\n", k, err.where, err.message);
        CHECK(g == NULL);
        CHECK_EQ_INT(live_blocks, 0);
    }
    tdn_clip_destroy(clip);
}

int main(void)
{
    make_skeleton();
    RUN(conditions_priorities_and_fades);
    RUN(exit_times_and_normalized_durations);
    RUN(triggers_any_state_and_modes);
    RUN(a_one_shot_fired_again_plays_again);
    RUN(interruptions_blend_from_the_current_pose);
    RUN(phase_matching_and_travel);
    RUN(events_in_order);
    RUN(choices_and_status_over_a_long_run);
    RUN(lead_ins_and_lead_outs);
    RUN(bad_machines_name_the_place);
    tdn_skeleton_destroy(skeleton);
    return check_summary();
}
