/* Graph documents: the example graph loads and runs; a document's flat list equals the weights
 * worked by hand; synchronized walk/run sweeps keep the feet in step (and do not without sync,
 * so the measure can fail); real walk/run pairs from ../shared/data stay in phase; malformed
 * documents fail naming their JSON path, with nothing left allocated. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "test_data.h"
#include "tendon/io/graph_document.h"
#include "tendon/io/gltf_save.h"
#include "tendon/io/humanoid.h"

#ifndef TENDON_SOURCE_DIR
#  define TENDON_SOURCE_DIR "."
#endif

static tdn_graph_document *parse(const char *json, const char *base_dir, tdn_error *err)
{
    tdn_graph_document *d = NULL;
    tdn_graph_document_load_memory(json, strlen(json), &(tdn_graph_document_load_options){ .base_dir = base_dir }, &d,
                                   &counting, err);
    return d;
}

static float entry_weight(const tdn_graph_document *d, const tdn_graph_instance *in, const char *clip)
{
    const tdn_graph_entry *e;
    int n = tdn_graph_entries(in, &e);
    float w = 0;
    for (int k = 0; k < n; k++)
        if (e[k].clip >= 0 && strcmp(tdn_graph_document_clip_name(d, e[k].clip), clip) == 0)
            w += e[k].weight;
    return w;
}

static void example_graph_runs(void)
{
    tdn_graph_document *d = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_graph_document_load(TENDON_SOURCE_DIR "/examples/graphs/strafe.json", NULL, &d, &counting, &err) ==
          TDN_OK);
    if (!d) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return;
    }
    const tdn_graph *g = tdn_graph_document_graph(d);
    CHECK_EQ_INT(tdn_graph_param_count(g), 6);
    CHECK_EQ_INT(tdn_graph_document_clip_count(d), 7); /* idle, two turns, run, walk back, two strafes */
    CHECK(tdn_graph_param_type(g, tdn_graph_find_param(g, "faceRight")) == TDN_PARAM_BOOL);
    tdn_graph_instance *in = NULL;
    CHECK(tdn_graph_instance_create(g, &in, &counting, NULL) == TDN_OK);
    tdn_pose pose;
    tdn_pose_create(tdn_skeleton_joint_count(tdn_graph_document_skeleton(d)), &pose, &counting, NULL);
    /* Standing: idle alone. Full speed sideways to the right: strafe_right alone (the smoothed
     * parameters settle within 2 s: 0.1 s half-lives). */
    tdn_graph_update(in, 0.016f, NULL);
    CHECK_NEAR(entry_weight(d, in, "idle"), 1, 1e-6);
    tdn_graph_set_float_named(in, "moveSpeed", 1, NULL);
    tdn_graph_set_float_named(in, "sideStrength", 1, NULL);
    tdn_graph_set_bool(in, tdn_graph_find_param(g, "faceRight"), 1, NULL);
    for (int f = 0; f < 120; f++)
        tdn_graph_update(in, 1.0f / 60.0f, NULL);
    CHECK_NEAR(entry_weight(d, in, "strafe_right"), 1, 1e-6);
    CHECK(tdn_graph_evaluate(in, &pose, NULL) == TDN_OK);
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(in);
    tdn_graph_document_destroy(d);
    CHECK_EQ_INT(live_blocks, 0);
}

static void document_weights_by_hand(void)
{
    const char *json =
        "{\"character\": {\"generated\": \"humanoid\", \"sample_rate\": 15},"
        " \"clips\": [{\"name\": \"walk\", \"source\": \"walk_forward\"}],"
        " \"parameters\": [{\"name\": \"x\", \"type\": \"float\", \"value\": 0.3}, {\"name\": \"w\", \"value\": 2}],"
        " \"nodes\": {\"pair\": {\"type\": \"blend2\", \"weight\": \"x\", \"inputs\": ["
        "      {\"type\": \"clip\", \"clip\": \"walk\"}, {\"type\": \"clip\", \"clip\": \"run_forward\"}]}},"
        " \"root\": {\"type\": \"blendN\", \"inputs\": [\"pair\", {\"type\": \"rest\"}], \"weights\": [\"w\", 6]}}";
    tdn_error err = { 0 };
    tdn_graph_document *d = parse(json, NULL, &err);
    CHECK(d != NULL);
    if (!d) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return;
    }
    tdn_graph_instance *in = NULL;
    CHECK(tdn_graph_instance_create(tdn_graph_document_graph(d), &in, &counting, NULL) == TDN_OK);
    tdn_graph_update(in, 0.1f, NULL);
    /* blendN 2:6 -> pair 0.25, rest 0.75; pair: walk 0.7, run 0.3 */
    CHECK_NEAR(entry_weight(d, in, "walk"), 0.25 * 0.7, 1e-6);
    CHECK_NEAR(entry_weight(d, in, "run_forward"), 0.25 * 0.3, 1e-6);
    const tdn_graph_entry *e;
    int n = tdn_graph_entries(in, &e);
    float rest = 0;
    for (int k = 0; k < n; k++)
        rest += e[k].clip < 0 ? e[k].weight : 0;
    CHECK_NEAR(rest, 0.75, 1e-6);
    /* "walk" is the document's name for the asset's walk_forward */
    CHECK(strcmp(tdn_clip_name(tdn_graph_document_clip(d, 0)), "walk_forward") == 0);
    /* the named node shows its name */
    int named = 0;
    for (int k = 0; k < tdn_graph_node_count(tdn_graph_document_graph(d)); k++)
        named += strcmp(tdn_graph_node_name(tdn_graph_document_graph(d), k), "pair") == 0;
    CHECK_EQ_INT(named, 1);
    /* a bad index or a NULL object gives NULL for a name, 0 for a count (api-conventions) */
    const tdn_graph *g = tdn_graph_document_graph(d);
    const int nodes = tdn_graph_node_count(g), clips = tdn_graph_document_clip_count(d);
    CHECK(tdn_graph_node_name(g, nodes) == NULL && tdn_graph_node_name(g, -1) == NULL &&
          tdn_graph_node_name(NULL, 0) == NULL);
    CHECK(tdn_graph_param_name(g, tdn_graph_param_count(g)) == NULL && tdn_graph_param_name(NULL, 0) == NULL);
    CHECK(tdn_graph_layer_name(g, tdn_graph_layer_count(g)) == NULL && tdn_graph_layer_name(NULL, 0) == NULL);
    CHECK(tdn_graph_state_name(g, nodes, 0) == NULL && tdn_graph_state_name(NULL, 0, 0) == NULL);
    CHECK(tdn_graph_document_clip_name(d, clips) == NULL && tdn_graph_document_clip_name(NULL, 0) == NULL);
    CHECK(clips > 0 && tdn_graph_document_clip_name(d, clips - 1) != NULL);
    CHECK(tdn_graph_document_clip_count(NULL) == 0 && tdn_graph_node_count(NULL) == 0);
    CHECK(tdn_param_type_name((tdn_param_type)99) == NULL && strcmp(tdn_param_type_name(TDN_PARAM_VEC3), "vec3") == 0);
    CHECK(tdn_result_name((tdn_result)-99) == NULL && strcmp(tdn_result_name(TDN_ERR_IO), "TDN_ERR_IO") == 0);
    tdn_graph_instance_destroy(in);
    tdn_graph_document_destroy(d);
    CHECK_EQ_INT(live_blocks, 0);
}

/* ---- feet in step ---- */

typedef struct step_log {
    float times[256];
    int feet[256]; /* 0 left, 1 right */
    int count;
} step_log;

/* Runs a walk/run blend whose weight sweeps 0 -> 1 over `seconds` and logs footfalls of the
 * blended pose: a foot lands at the lowest point of its height in model space within +-0.2 s,
 * once it has risen `lifted` above it since the last footfall (a step lifts the foot 8 cm
 * walking and 14 cm running; a blend of the two only a few cm less). */
static void sweep(tdn_graph_document *d, const char *foot_l, const char *foot_r, float seconds, float lifted,
                  step_log *log)
{
    const tdn_skeleton *s = tdn_graph_document_skeleton(d);
    int joints = tdn_skeleton_joint_count(s),
        feet[2] = { tdn_skeleton_find_joint(s, foot_l), tdn_skeleton_find_joint(s, foot_r) };
    CHECK(feet[0] >= 0 && feet[1] >= 0);
    tdn_graph_instance *in = NULL;
    CHECK(tdn_graph_instance_create(tdn_graph_document_graph(d), &in, NULL, NULL) == TDN_OK);
    tdn_pose pose;
    tdn_pose_create(joints, &pose, NULL, NULL);
    tdn_mat4 *model = malloc(sizeof *model * (size_t)joints);
    const int rate = 120, window = rate / 5;
    int frames = (int)(seconds * (float)rate);
    float *height = malloc(sizeof(float) * 2 * (size_t)frames);
    for (int f = 0; f < frames; f++) {
        tdn_graph_set_float_named(in, "x", (float)f / (float)(frames - 1), NULL);
        tdn_graph_update(in, 1.0f / (float)rate, NULL);
        tdn_graph_evaluate(in, &pose, NULL);
        tdn_model_space(s, &pose, NULL, model, NULL);
        for (int k = 0; k < 2; k++)
            height[2 * f + k] = model[feet[k] < 0 ? 0 : feet[k]].m[13];
    }
    log->count = 0;
    float highest[2] = { -INFINITY, -INFINITY };
    for (int f = 0; f < frames; f++)
        for (int k = 0; k < 2; k++) {
            float h = height[2 * f + k];
            highest[k] = fmaxf(highest[k], h);
            int lowest = 1;
            for (int g = f - window; g <= f + window && lowest; g++)
                if (g >= 0 && g < frames && g != f)
                    lowest = g < f ? height[2 * g + k] > h : height[2 * g + k] >= h;
            int inside = f >= window && f < frames - window; /* a whole window to judge by */
            if (lowest && inside && highest[k] - h > lifted && log->count < 256) {
                highest[k] = h;
                log->times[log->count] = (float)f / (float)rate;
                log->feet[log->count++] = k;
            }
        }
    free(height);
    free(model);
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(in);
}

/* Steps alternate left/right, and each foot's period stays within the two cycles (one frame and
 * 5% of slack): no skipped or doubled step. Returns how many steps broke that. */
static int irregular_steps(const step_log *log, float short_cycle, float long_cycle)
{
    int bad = 0;
    float last[2] = { -1, -1 };
    for (int k = 0; k < log->count; k++) {
        int foot = log->feet[k];
        if (k > 0 && log->feet[k - 1] == foot)
            bad++;
        if (last[foot] >= 0) {
            float period = log->times[k] - last[foot];
            bad += period < short_cycle * 0.95f - 1.0f / 120 || period > long_cycle * 1.05f + 1.0f / 120;
        }
        last[foot] = log->times[k];
    }
    return bad;
}

static const char *const walk_run_template =
    "{\"character\": %s, \"parameters\": [{\"name\": \"x\"}], %s"
    " \"root\": {\"type\": \"blend2\", \"weight\": \"x\", \"inputs\": ["
    "   {\"type\": \"clip\", \"clip\": \"%s\"%s}, {\"type\": \"clip\", \"clip\": \"%s\"%s}]}}";

static tdn_graph_document *walk_run(const char *character, const char *walk, const char *run, int sync, int markers,
                                    const char *base_dir)
{
    char json[1024];
    const char *groups = markers ? "\"sync_groups\": [{\"name\": \"feet\", \"markers\": [\"foot_down_l\", "
                                   "\"foot_down_r\"]}],"
                                 : "";
    const char *in_group = sync ? ", \"sync\": \"feet\"" : "";
    snprintf(json, sizeof json, walk_run_template, character, groups, walk, in_group, run, in_group);
    tdn_error err = { 0 };
    tdn_graph_document *d = NULL;
    if (tdn_graph_document_load_memory(json, strlen(json), &(tdn_graph_document_load_options){ .base_dir = base_dir },
                                       &d, NULL, &err) != TDN_OK)
        fprintf(stderr, "%s: %s\n", err.where, err.message);
    return d;
}

static void synced_sweep_keeps_feet_in_step(void)
{
    const char *humanoid = "{\"generated\": \"humanoid\", \"walk_cycle\": 1.0, \"run_cycle\": 0.6}";
    for (int markers = 0; markers < 2; markers++) {
        tdn_graph_document *d = walk_run(humanoid, "walk_forward", "run_forward", 1, markers, NULL);
        CHECK(d != NULL);
        if (!d)
            return;
        step_log log;
        sweep(d, "foot_l", "foot_r", 6.0f, 0.06f, &log);
        /* 6 s from 1 s cycles to 0.6 s ones: about 2 x 7.5 steps */
        printf("synced sweep (%s): %d steps, %d irregular\n", markers ? "markers" : "phase", log.count,
               irregular_steps(&log, 0.6f, 1.0f));
        CHECK(log.count >= 12 && log.count <= 18);
        CHECK_EQ_INT(irregular_steps(&log, 0.6f, 1.0f), 0);
        tdn_graph_document_destroy(d);
    }
    /* The control: the same sweep without sync drifts out of step, and the measure says so. */
    tdn_graph_document *d = walk_run(humanoid, "walk_forward", "run_forward", 0, 0, NULL);
    step_log log;
    sweep(d, "foot_l", "foot_r", 6.0f, 0.06f, &log);
    printf("unsynced sweep: %d steps, %d irregular\n", log.count, irregular_steps(&log, 0.6f, 1.0f));
    CHECK(irregular_steps(&log, 0.6f, 1.0f) > 0);
    tdn_graph_document_destroy(d);
}

/* Fox Walk/Run and Soldier Walk/Run: the pairs stay on one phase at every weight. */
static void real_pairs_stay_in_phase(void)
{
    const char *dir = test_data_dir();
    if (!dir)
        return;
    const struct {
        const char *file, *walk, *run;
        float walk_length, run_length;
    } pairs[] = {
        { "gltf/khronos/Fox/glTF-Binary/Fox.glb", "Walk", "Run", 0.71f, 1.16f },
        { "gltf/threejs/Soldier.glb", "Walk", "Run", 1.03f, 0.70f },
    };
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        char character[512];
        snprintf(character, sizeof character, "{\"file\": \"%s\"}", pairs[p].file);
        tdn_graph_document *d = walk_run(character, pairs[p].walk, pairs[p].run, 1, 0, dir);
        CHECK(d != NULL);
        if (!d)
            continue;
        const tdn_clip *walk = tdn_graph_document_clip(d, 0), *run = tdn_graph_document_clip(d, 1);
        CHECK_NEAR(tdn_clip_duration(walk), pairs[p].walk_length, 0.01);
        CHECK_NEAR(tdn_clip_duration(run), pairs[p].run_length, 0.01);
        tdn_graph_instance *in = NULL;
        tdn_graph_instance_create(tdn_graph_document_graph(d), &in, NULL, NULL);
        double phase = 0, worst = 0;
        for (int f = 0; f < 600; f++) {
            float x = (float)f / 599.0f;
            tdn_graph_set_float_named(in, "x", x, NULL);
            tdn_graph_update(in, 1.0f / 120.0f, NULL);
            /* by hand: the cycle is the weighted average of the two lengths */
            phase += (1.0 / 120.0) / ((1 - x) * tdn_clip_duration(walk) + x * tdn_clip_duration(run));
            phase -= floor(phase);
            double a = tdn_graph_clip_time(in, 1) / tdn_clip_duration(walk); /* node 0 is the blend2 */
            double b = tdn_graph_clip_time(in, 2) / tdn_clip_duration(run);
            worst = fmax(worst, fmax(fabs(a - b), fmin(fabs(a - phase), 1 - fabs(a - phase))));
        }
        printf("%s walk/run: phase error %.2g over the sweep\n", pairs[p].file, worst);
        CHECK(worst < 1e-4);
        tdn_graph_instance_destroy(in);
        tdn_graph_document_destroy(d);
    }
}

/* ---- state machines, layers, masks and root motion in documents ---- */

#define MACHINE_DOC                                                                                                          \
  "{\"character\": {\"generated\": \"humanoid\", \"sample_rate\": 15},"                                                      \
  " \"parameters\": [{\"name\": \"speed\"}, {\"name\": \"hit\", \"type\": \"trigger\"}, {\"name\": \"aim\", \"value\": 1}]," \
  " \"masks\": {\"upper\": {\"subtree\": \"spine_01\", \"blend_depth\": 2}},"                                                \
  " \"root_motion\": {\"joint\": \"root\", \"rotation\": \"yaw\"},"                                                          \
  " \"layers\": ["                                                                                                           \
  "  {\"name\": \"locomotion\", \"root\": {\"type\": \"state_machine\", \"initial\": \"idle\","                              \
  "     \"states\": [{\"name\": \"idle\", \"node\": {\"type\": \"clip\", \"clip\": \"idle\"}},"                              \
  "                {\"name\": \"walk\", \"node\": {\"type\": \"clip\", \"clip\": \"walk_forward\"}},"                        \
  "                {\"name\": \"run\", \"node\": {\"type\": \"clip\", \"clip\": \"run_forward\"}}],"                         \
  "     \"transitions\": [{\"from\": \"idle\", \"to\": \"walk\", \"conditions\": [{\"param\": \"speed\", \"op\": \">\","     \
  "                      \"value\": 0.1}], \"duration\": 0.3},"                                                              \
  "                     {\"from\": \"walk\", \"to\": \"run\", \"conditions\": [{\"param\": \"speed\", \"op\": \">=\","       \
  "                      \"value\": 2}], \"duration\": 0.3, \"sync_phase\": true, \"curve\": \"smoothstep\"},"               \
  "                     {\"from\": \"any\", \"to\": \"idle\", \"conditions\": [{\"param\": \"hit\"}],"                       \
  "                      \"mode\": \"inertialize\", \"duration\": 0.4}]}},"                                                  \
  "  {\"name\": \"upper\", \"weight\": \"aim\", \"mask\": \"upper\", \"root\": {\"type\": \"clip\", \"clip\": \"turn_left\"}}]}"

static void machines_and_layers_from_documents(void)
{
    const char *json = MACHINE_DOC;
    tdn_error err = { 0 };
    tdn_graph_document *d = parse(json, NULL, &err);
    if (!CHECK(d != NULL)) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return;
    }
    const tdn_graph *g = tdn_graph_document_graph(d);
    CHECK_EQ_INT(tdn_graph_layer_count(g), 2);
    CHECK(strcmp(tdn_graph_layer_name(g, 1), "upper") == 0);
    int machine = -1;
    for (int n = 0; n < tdn_graph_node_count(g); n++)
        if (tdn_graph_state_count(g, n) == 3)
            machine = n;
    CHECK(machine >= 0);
    CHECK_EQ_INT(tdn_graph_find_state(g, machine, "run"), 2);
    tdn_graph_instance *in = NULL;
    CHECK(tdn_graph_instance_create(g, &in, &counting, NULL) == TDN_OK);
    tdn_pose pose;
    tdn_pose_create(tdn_skeleton_joint_count(tdn_graph_document_skeleton(d)), &pose, &counting, NULL);
    tdn_state_machine_status st;
    tdn_graph_set_float_named(in, "speed", 1.0f, NULL);
    double travelled = 0;
    for (int f = 0; f < 60; f++) {
        tdn_graph_update(in, 1.0f / 60.0f, NULL);
        tdn_graph_evaluate(in, &pose, NULL);
        tdn_root_motion m;
        tdn_graph_root_motion(in, &m, NULL);
        travelled += m.translation.z;
    }
    tdn_graph_state_machine_status(in, machine, &st, NULL);
    CHECK_EQ_INT(st.state, 1);                 /* walking */
    CHECK(travelled > 0.5 && travelled < 1.4); /* 0.3 s fading in from idle, then 1.4 m/s */
    /* root motion extracted: the pose's root stays put on the ground plane */
    CHECK_NEAR(tdn_pose_get(&pose, 0).t.z, 0, 1e-4);
    tdn_graph_set_float_named(in, "speed", 3.0f, NULL);
    tdn_graph_update(in, 0.1f, NULL);
    tdn_graph_state_machine_status(in, machine, &st, NULL);
    CHECK_EQ_INT(st.state, 2);
    /* the hit trigger cuts to idle through inertialization: the layer pose carries on */
    CHECK(tdn_graph_fire_trigger_named(in, "hit", NULL) == TDN_OK);
    tdn_graph_update(in, 1.0f / 60.0f, NULL);
    tdn_graph_evaluate(in, &pose, NULL);
    tdn_graph_state_machine_status(in, machine, &st, NULL);
    CHECK_EQ_INT(st.state, 0);
    CHECK_NEAR(st.transition_weight, 1, 0);
    /* the upper layer's mask: a leg joint is the locomotion layer's alone */
    const tdn_graph_entry *e;
    CHECK_EQ_INT(tdn_graph_layer_entries(in, 1, &e), 1);
    CHECK(e[0].clip >= 0 && strcmp(tdn_graph_document_clip_name(d, e[0].clip), "turn_left") == 0);
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(in);
    tdn_graph_document_destroy(d);
    CHECK_EQ_INT(live_blocks, 0);
}

/* Each kind of wrong name gets its exact path and the nearest right name. */
static void hints_name_the_path_and_the_nearest_name(void)
{
    const struct {
        const char *from, *to, *where, *hint;
    } cases[] = {
        { "\"to\": \"run\"", "\"to\": \"rnu\"", "layers[0].root.transitions[1].to", "did you mean \"run\"?" },
        { "\"from\": \"walk\"", "\"from\": \"wakl\"", "layers[0].root.transitions[1].from", "did you mean \"walk\"?" },
        { "\"initial\": \"idle\"", "\"initial\": \"Idle2\"", "layers[0].root.initial", "did you mean \"idle\"?" },
        { "\"param\": \"speed\", \"op\": \">=\"", "\"param\": \"sped\", \"op\": \">=\"",
          "layers[0].root.transitions[1].conditions[0].param", "did you mean \"speed\"?" },
        { "\"op\": \">=\"", "\"op\": \"ture\"", "layers[0].root.transitions[1].conditions[0].op",
          "did you mean \"true\"?" },
        { "\"subtree\": \"spine_01\"", "\"subtree\": \"spine01\"", "masks.upper.subtree",
          "did you mean \"spine_01\"?" },
        { "\"mode\": \"inertialize\"", "\"mode\": \"inertialise\"", "layers[0].root.transitions[2].mode",
          "did you mean \"inertialize\"?" },
        { "\"clip\": \"run_forward\"", "\"clip\": \"run_froward\"", "layers[0].root.states[2].node.clip",
          "did you mean \"run_forward\"?" },
        { "\"weight\": \"aim\"", "\"weight\": \"ami\"", "layers[1].weight", "did you mean \"aim\"?" },
        { "\"joint\": \"root\"", "\"joint\": \"rooot\"", "root_motion.joint", "did you mean \"root\"?" },
        { "\"type\": \"state_machine\"", "\"type\": \"statemachine\"", "layers[0].root.type",
          "did you mean \"state_machine\"?" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char json[4096];
        const char *doc = MACHINE_DOC, *at = strstr(doc, cases[k].from);
        if (!CHECK(at != NULL))
            continue;
        snprintf(json, sizeof json, "%.*s%s%s", (int)(at - doc), doc, cases[k].to, at + strlen(cases[k].from));
        tdn_error err = { 0 };
        tdn_graph_document *d = parse(json, NULL, &err);
        int ok = CHECK(d == NULL);
        ok &= CHECK(strcmp(err.where, cases[k].where) == 0);
        ok &= CHECK(strstr(err.message, cases[k].hint) != NULL);
        if (!ok)
            fprintf(stderr, "case %zu: %s: %s\n", k, err.where, err.message);
        tdn_graph_document_destroy(d);
    }
    CHECK_EQ_INT(live_blocks, 0);
}

/* A clip from another file with the character's joints: the humanoid's walk baked at 30/s into
 * a .glb, then played by a document whose character is the generated humanoid. It samples as
 * the humanoid's own walk does at its frames (the bake's keys). A file of other joints is
 * refused naming the clip's "file". */
static void clips_from_other_files(void)
{
    tdn_asset *humanoid = NULL;
    CHECK(tdn_humanoid_create(NULL, &humanoid, NULL, NULL) == TDN_OK);
    const tdn_skeleton *s = tdn_asset_skeleton(humanoid);
    const tdn_keyed_clip *walk = tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, "walk_forward"));
    enum { FRAMES = 31 };
    tdn_pose frames[FRAMES];
    for (int f = 0; f < FRAMES; f++) {
        tdn_pose_create(tdn_skeleton_joint_count(s), &frames[f], NULL, NULL);
        tdn_keyed_clip_sample(walk, (float)f / 30.0f, &frames[f], NULL, NULL);
    }
    tdn_baked_clip baked = { "baked_walk", FRAMES, 30.0f, frames };
    tdn_gltf_save_desc ed = { .skeleton = s, .clips = &baked, .clip_count = 1, .binary = 1 };
    CHECK(tdn_gltf_save(&ed, "graph_clip_file.glb", NULL) == TDN_OK);
    const char *json = "{\"character\": {\"generated\": \"humanoid\"},"
                       " \"clips\": [{\"name\": \"w\", \"file\": \"graph_clip_file.glb\", \"source\": \"baked_walk\"}],"
                       " \"root\": {\"type\": \"clip\", \"clip\": \"w\"}}";
    tdn_error err = { 0 };
    tdn_graph_document *d = NULL;
    CHECK(tdn_graph_document_load_memory(json, strlen(json), &(tdn_graph_document_load_options){ .base_dir = "." }, &d,
                                         &counting, &err) == TDN_OK);
    if (d) {
        tdn_pose p;
        tdn_pose_create(tdn_skeleton_joint_count(s), &p, NULL, NULL);
        double worst = 0;
        for (int f = 0; f < FRAMES; f++) {
            tdn_clip_sample(tdn_graph_document_clip(d, 0), (float)f / 30.0f, &p, NULL);
            for (int j = 0; j < p.joint_count; j++)
                worst = fmax(worst, tdn_quat_angle_between(tdn_pose_get(&p, j).r, tdn_pose_get(&frames[f], j).r));
        }
        CHECK(worst < 2e-3); /* the runtime clip's quantization */
        tdn_pose_destroy(&p);
        tdn_graph_document_destroy(d);
    } else {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
    }
    /* a file of other joints: a one-joint skeleton's bake */
    tdn_skeleton *one = NULL;
    tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 1, .parents = (int[]){ -1 } }, &one, NULL, NULL);
    tdn_pose single;
    tdn_pose_create(1, &single, NULL, NULL);
    tdn_baked_clip tiny = { "tiny", 1, 30.0f, &single };
    tdn_gltf_save_desc td = { .skeleton = one, .clips = &tiny, .clip_count = 1, .binary = 1 };
    CHECK(tdn_gltf_save(&td, "graph_clip_other.glb", NULL) == TDN_OK);
    const char *other = "{\"character\": {\"generated\": \"humanoid\"},"
                        " \"clips\": [{\"name\": \"w\", \"file\": \"graph_clip_other.glb\", \"source\": \"tiny\"}],"
                        " \"root\": {\"type\": \"clip\", \"clip\": \"w\"}}";
    d = NULL;
    CHECK(tdn_graph_document_load_memory(other, strlen(other), &(tdn_graph_document_load_options){ .base_dir = "." },
                                         &d, &counting, &err) == TDN_ERR_INVALID_DATA);
    CHECK(strcmp(err.where, "clips[0].file") == 0);
    CHECK(d == NULL);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_pose_destroy(&single);
    tdn_skeleton_destroy(one);
    for (int f = 0; f < FRAMES; f++)
        tdn_pose_destroy(&frames[f]);
    tdn_asset_destroy(humanoid);
    remove("graph_clip_file.glb");
    remove("graph_clip_other.glb");
}

/* ---- procedural nodes and modifiers in documents ---- */

static void head_up(void *user, const tdn_graph_instance *in, int node, float dt, tdn_pose *pose)
{
    (void)in, (void)node, (void)dt;
    tdn_transform x = tdn_pose_get(pose, *(const int *)user);
    x.t.y += 0.25f;
    tdn_pose_set(pose, *(const int *)user, &x);
}

static void modifiers_from_documents(void)
{
    static int head = -1;
    tdn_graph_callback callbacks[] = { { "head_up", head_up, &head } };
    tdn_graph_document_load_options options = { .callbacks = callbacks, .callback_count = 1 };
    const char *json =
        "{\"character\": {\"generated\": \"humanoid\", \"sample_rate\": 10},"
        " \"parameters\": [{\"name\": \"twist\", \"value\": 0.4}],"
        " \"root\": {\"type\": \"modifier\", \"modify\": \"callback\", \"callback\": \"head_up\","
        "   \"input\": {\"type\": \"modifier\", \"modify\": \"rotate\", \"joints\": [\"spine_01\", \"spine_02\"],"
        "     \"weights\": [0.5, 0.5], \"axis\": [0, 1, 0], \"angle\": \"twist\","
        "     \"input\": {\"type\": \"modifier\", \"modify\": \"damp\", \"joints\": [\"head\"], \"half_life\": 0.1,"
        "       \"input\": {\"type\": \"clip\", \"clip\": \"idle\"}}}}}";
    tdn_error err = { 0 };
    tdn_graph_document *d = NULL;
    CHECK(tdn_graph_document_load_memory(json, strlen(json), &options, &d, &counting, &err) == TDN_OK);
    if (!d) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return;
    }
    const tdn_skeleton *s = tdn_graph_document_skeleton(d);
    head = tdn_skeleton_find_joint(s, "head");
    int spine = tdn_skeleton_find_joint(s, "spine_01");
    tdn_graph_instance *in = NULL;
    tdn_graph_instance_create(tdn_graph_document_graph(d), &in, &counting, NULL);
    tdn_pose out, idle;
    tdn_pose_create(tdn_skeleton_joint_count(s), &out, &counting, NULL);
    tdn_pose_create(tdn_skeleton_joint_count(s), &idle, &counting, NULL);
    tdn_graph_update(in, 0.5f, NULL);
    tdn_graph_evaluate(in, &out, NULL);
    tdn_clip_sample(tdn_graph_document_clip(d, 0), 0.5f, &idle, NULL);
    /* the spine turned by half of 0.4 rad about +y; the head lifted 0.25 */
    tdn_quat want = tdn_quat_mul(tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), 0.2f), tdn_pose_get(&idle, spine).r);
    CHECK_NEAR(tdn_quat_angle_between(tdn_pose_get(&out, spine).r, want), 0, 1e-5);
    CHECK_NEAR(tdn_pose_get(&out, head).t.y - tdn_pose_get(&idle, head).t.y, 0.25, 1e-5);
    tdn_pose_destroy(&out);
    tdn_pose_destroy(&idle);
    tdn_graph_instance_destroy(in);
    tdn_graph_document_destroy(d);

    /* wrong names: the callback, a joint, the kind */
    const struct {
        const char *from, *to, *where, *hint;
    } cases[] = {
        { "\"callback\": \"head_up\"", "\"callback\": \"head_uq\"", "root.callback", "did you mean \"head_up\"?" },
        { "[\"spine_01\", \"spine_02\"]", "[\"spine_01\", \"spine_2\"]", "root.input.joints[1]",
          "did you mean \"spine_02\"?" },
        { "\"modify\": \"damp\"", "\"modify\": \"dampen\"", "root.input.input.modify", "did you mean \"damp\"?" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char bad[2048];
        const char *at = strstr(json, cases[k].from);
        if (!CHECK(at != NULL))
            continue;
        snprintf(bad, sizeof bad, "%.*s%s%s", (int)(at - json), json, cases[k].to, at + strlen(cases[k].from));
        d = NULL;
        CHECK(tdn_graph_document_load_memory(bad, strlen(bad), &options, &d, &counting, &err) == TDN_ERR_INVALID_DATA);
        int ok = CHECK(strcmp(err.where, cases[k].where) == 0) & CHECK(strstr(err.message, cases[k].hint) != NULL);
        if (!ok)
            fprintf(stderr, "case %zu: %s: %s\n", k, err.where, err.message);
        tdn_graph_document_destroy(d);
    }
    CHECK_EQ_INT(live_blocks, 0);
}

/* ---- the IK stage in documents ---- */

static void ik_from_documents(void)
{
    const char *json =
        "{\"character\": {\"generated\": \"humanoid\", \"sample_rate\": 10},"
        " \"parameters\": [{\"name\": \"reach\", \"type\": \"vec3\", \"value\": [-0.2, 1.3, 0.35]},"
        "                 {\"name\": \"look\", \"type\": \"vec3\", \"value\": [0.8, 1.9, 2.0]}],"
        " \"root\": {\"type\": \"clip\", \"clip\": \"idle\"},"
        " \"ik\": [{\"kind\": \"look_at\", \"root\": \"spine_05\", \"end\": \"head\", \"target\": \"look\"},"
        "        {\"kind\": \"two_bone\", \"joints\": [\"upperarm_r\", \"lowerarm_r\", \"hand_r\"], \"target\": \"reach\"},"
        "        {\"kind\": \"fabrik\", \"root\": \"clavicle_l\", \"end\": \"hand_l\", \"target\": \"reach\","
        "         \"max_iterations\": 30},"
        "        {\"kind\": \"foot_placement\", \"legs\": [{\"upper\": \"thigh_l\", \"middle\": \"calf_l\", \"end\": \"foot_l\","
        "         \"contact\": \"contact_l\"}, {\"upper\": \"thigh_r\", \"middle\": \"calf_r\", \"end\": \"foot_r\","
        "         \"contact\": \"contact_r\"}]}]}";
    tdn_error err = { 0 };
    tdn_graph_document *d = parse(json, NULL, &err);
    if (!CHECK(d != NULL)) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return;
    }
    const tdn_skeleton *s = tdn_graph_document_skeleton(d);
    tdn_graph_instance *in = NULL;
    tdn_graph_instance_create(tdn_graph_document_graph(d), &in, &counting, NULL);
    tdn_pose pose;
    tdn_pose_create(tdn_skeleton_joint_count(s), &pose, &counting, NULL);
    tdn_mat4 *model = malloc(sizeof *model * (size_t)tdn_skeleton_joint_count(s));
    tdn_graph_update(in, 0.2f, NULL);
    tdn_graph_evaluate(in, &pose, NULL); /* no ground set: foot placement does nothing */
    tdn_model_space(s, &pose, NULL, model, NULL);
    const tdn_mat4 *hand = &model[tdn_skeleton_find_joint(s, "hand_r")];
    CHECK(fabsf(hand->m[12] + 0.2f) < 1e-4f && fabsf(hand->m[13] - 1.3f) < 1e-4f && fabsf(hand->m[14] - 0.35f) < 1e-4f);
    CHECK(tdn_graph_ik_reached(in, 1) && tdn_graph_ik_reached(in, 2) && !tdn_graph_ik_reached(in, 3));
    free(model);
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(in);
    tdn_graph_document_destroy(d);
    const struct {
        const char *from, *to, *where, *hint;
    } cases[] = {
        { "\"hand_r\"]", "\"hnad_r\"]", "ik[1].joints[2]", "did you mean \"hand_r\"?" },
        { "\"kind\": \"fabrik\"", "\"kind\": \"fabric\"", "ik[2].kind", "did you mean \"fabrik\"?" },
        { "\"target\": \"look\"", "\"target\": \"lok\"", "ik[0].target", "did you mean \"look\"?" },
        { "\"middle\": \"calf_r\"", "\"middle\": \"calfr\"", "ik[3].legs[1].middle", "did you mean \"calf_r\"?" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char bad[4096];
        const char *at = strstr(json, cases[k].from);
        if (!CHECK(at != NULL))
            continue;
        snprintf(bad, sizeof bad, "%.*s%s%s", (int)(at - json), json, cases[k].to, at + strlen(cases[k].from));
        d = parse(bad, NULL, &err);
        int ok = CHECK(d == NULL) & CHECK(strcmp(err.where, cases[k].where) == 0) &
                 CHECK(strstr(err.message, cases[k].hint) != NULL);
        if (!ok)
            fprintf(stderr, "case %zu: %s: %s\n", k, err.where, err.message);
        tdn_graph_document_destroy(d);
    }
    CHECK_EQ_INT(live_blocks, 0);
}

/* ---- malformed documents ---- */

static void malformed_documents_name_their_path(void)
{
#define HUMANOID "\"character\": {\"generated\": \"humanoid\", \"sample_rate\": 10}"
    const struct {
        const char *json;
        tdn_result code;
        const char *where; /* the start of err.where */
    } cases[] = {
        { "[1, 2]", TDN_ERR_PARSE, "byte 0" },
        { "{\"root\": ", TDN_ERR_PARSE, "byte 9" }, /* the end of the text, where the value should be */
        { "{\"root\": {\"type\": \"rest\"}}", TDN_ERR_PARSE, "character" },
        { "{\"characte\": 1}", TDN_ERR_PARSE, "characte" },
        { "{\"character\": {\"generated\": \"robot\"}, \"root\": {\"type\": \"rest\"}}", TDN_ERR_INVALID_DATA,
          "character.generated" },
        { "{\"character\": {\"generated\": \"humanoid\", \"height\": -1}, \"root\": {\"type\": \"rest\"}}",
          TDN_ERR_ARGUMENT, "character.height" },
        { "{\"character\": {\"file\": \"x.glb\"}, \"root\": {\"type\": \"rest\"}}", TDN_ERR_ARGUMENT,
          "character.file" },
        { "{" HUMANOID "}", TDN_ERR_PARSE, "root" },
        { "{" HUMANOID ", \"root\": {\"type\": \"clip\", \"clip\": \"fly\"}}", TDN_ERR_INVALID_DATA, "root.clip" },
        { "{" HUMANOID ", \"root\": {\"type\": \"clip\", \"clip\": \"idle\", \"speed\": 2}}", TDN_ERR_PARSE,
          "root.speed" },
        { "{" HUMANOID ", \"root\": {\"type\": \"blend2\", \"inputs\": [{\"type\": \"rest\"}]}}", TDN_ERR_PARSE,
          "root.inputs" },
        { "{" HUMANOID ", \"root\": {\"type\": \"blend2\", \"weight\": \"nope\", \"inputs\": [{\"type\": \"rest\"}, "
          "{\"type\": \"rest\"}]}}",
          TDN_ERR_INVALID_DATA, "root.weight" },
        { "{" HUMANOID ", \"root\": {\"type\": \"blend2\", \"inputs\": [{\"type\": \"rest\"}, {\"type\": \"jump\"}]}}",
          TDN_ERR_INVALID_DATA, "root.inputs[1].type" },
        { "{" HUMANOID
          ", \"nodes\": {\"a\": {\"type\": \"time_scale\", \"input\": \"b\"}, \"b\": \"a\"}, \"root\": \"a\"}",
          TDN_ERR_INVALID_DATA, "nodes." },
        { "{" HUMANOID ", \"root\": \"missing\"}", TDN_ERR_INVALID_DATA, "root" },
        { "{" HUMANOID ", \"root\": {\"type\": \"blend_space\", \"mode\": \"linear\", \"position\": \"x\", "
          "\"samples\": [{\"clip\": \"idle\", \"at\": [0]}, {\"clip\": \"idle\", \"at\": [0, 1]}]}, "
          "\"parameters\": [{\"name\": \"x\"}]}",
          TDN_ERR_INVALID_DATA, "root.samples[1].at" },
        { "{" HUMANOID ", \"root\": {\"type\": \"blend_space\", \"mode\": \"linear\", \"position\": \"y\", "
          "\"samples\": [{\"clip\": \"idle\", \"at\": [0]}, {\"clip\": \"walk_forward\", \"at\": [1]}]}, "
          "\"parameters\": [{\"name\": \"x\"}]}",
          TDN_ERR_INVALID_DATA, "root.position" },
        /* refused by the core, named by the document's path */
        { "{" HUMANOID ", \"root\": {\"type\": \"clip\", \"clip\": \"idle\", \"wrap\": \"clamp\", \"sync\": \"g\"}}",
          TDN_ERR_INVALID_DATA, "root" },
        { "{" HUMANOID ", \"root\": {\"type\": \"additive\", \"base\": {\"type\": \"rest\"}, "
          "\"difference\": {\"type\": \"clip\", \"clip\": \"idle\"}}}",
          TDN_ERR_INVALID_DATA, "root.difference" },
        { "{" HUMANOID ", \"parameters\": [{\"name\": \"q\", \"type\": \"quat\"}], \"root\": {\"type\": \"rest\"}}",
          TDN_ERR_INVALID_DATA, "parameters[0].type" },
        { "{" HUMANOID ", \"parameters\": [{\"name\": \"q\"}, {\"name\": \"q\"}], \"root\": {\"type\": \"rest\"}}",
          TDN_ERR_INVALID_DATA, "parameters[1]" },
        { "{" HUMANOID ", \"parameters\": [{\"name\": \"v\", \"type\": \"vec2\", \"value\": [1]}], "
          "\"root\": {\"type\": \"rest\"}}",
          TDN_ERR_PARSE, "parameters[0].value" },
        { "{" HUMANOID
          ", \"clips\": [{\"name\": \"d\", \"source\": \"idle\", \"additive\": {\"reference\": \"zzz\"}}], "
          "\"root\": {\"type\": \"additive\", \"base\": {\"type\": \"rest\"}, \"difference\": {\"type\": \"clip\", "
          "\"clip\": \"d\"}}}",
          TDN_ERR_INVALID_DATA, "clips[0]" },
        { "{" HUMANOID ", \"root\": {\"type\": \"switch\", \"fade\": \"slow\", \"inputs\": [{\"type\": \"rest\"}]}}",
          TDN_ERR_PARSE, "root.fade" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tdn_error err = { 0 };
        tdn_graph_document *d = (tdn_graph_document *)1;
        tdn_result r = tdn_graph_document_load_memory(cases[k].json, strlen(cases[k].json), NULL, &d, &counting, &err);
        int ok = CHECK_EQ_INT(r, cases[k].code);
        ok &= CHECK(d == NULL);
        ok &= CHECK(strncmp(err.where, cases[k].where, strlen(cases[k].where)) == 0);
        if (!ok)
            fprintf(stderr, "case %zu: %s: %s\n", k, err.where, err.message);
        CHECK_EQ_INT(live_blocks, 0);
    }
    /* A clip where additivity does not fit is named as the document names it (and its source,
     * which the core names it by), not numbered. */
    const struct {
        const char *json, *where, *message;
    } misplaced[] = {
        { "{" HUMANOID ", \"clips\": [{\"name\": \"lean\", \"source\": \"aim_left\"}], \"root\": {\"type\": "
          "\"additive\", \"base\": {\"type\": \"rest\"}, \"difference\": {\"type\": \"clip\", \"clip\": \"lean\"}}}",
          "root.difference",
          "\"lean\" (source \"aim_left\") is not additive: an additive difference needs an additive clip" },
        { "{" HUMANOID ", \"clips\": [{\"name\": \"lean\", \"source\": \"aim_left\", \"additive\": {\"reference\": "
          "\"rest\"}}], \"root\": {\"type\": \"blend2\", \"inputs\": [{\"type\": \"rest\"}, {\"type\": \"clip\", "
          "\"clip\": \"lean\"}]}}",
          "root.inputs[1]",
          "\"lean\" (source \"aim_left\") is additive: an additive clip can only be an additive node's difference" },
        { "{" HUMANOID ", \"root\": {\"type\": \"additive\", \"base\": {\"type\": \"rest\"}, "
          "\"difference\": {\"type\": \"clip\", \"clip\": \"idle\"}}}",
          "root.difference", "\"idle\" is not additive: an additive difference needs an additive clip" },
    };
    for (size_t k = 0; k < sizeof misplaced / sizeof misplaced[0]; k++) {
        tdn_error err = { 0 };
        tdn_graph_document *d = (tdn_graph_document *)1;
        tdn_result r = tdn_graph_document_load_memory(misplaced[k].json, strlen(misplaced[k].json), NULL, &d, &counting,
                                                      &err);
        if (!(CHECK_EQ_INT(r, TDN_ERR_INVALID_DATA) & CHECK(d == NULL) &
              CHECK(strcmp(err.where, misplaced[k].where) == 0) &
              CHECK(strcmp(err.message, misplaced[k].message) == 0)))
            fprintf(stderr, "misplaced %zu: %s: %s\n", k, err.where, err.message);
        CHECK_EQ_INT(live_blocks, 0);
    }
    /* Additive clips made by the document work where they belong. */
    const char *additive = "{" HUMANOID ", \"clips\": [{\"name\": \"d\", \"source\": \"idle\", \"additive\": "
                           "{\"reference\": \"first_frame\"}}], \"root\": {\"type\": \"additive\", \"base\": "
                           "{\"type\": \"rest\"}, \"difference\": {\"type\": \"clip\", \"clip\": \"d\"}}}";
    tdn_error err = { 0 };
    tdn_graph_document *d = parse(additive, NULL, &err);
    CHECK(d != NULL && tdn_clip_is_additive(tdn_graph_document_clip(d, 0)));
    tdn_graph_document_destroy(d);
#undef HUMANOID
}

/* What docs/graph-format.md promises ("a typo does not silently do nothing") for the parts no
 * node reaches: every "clips" definition is checked whether or not a node plays it, and a
 * transition from a state to itself that every update would take is refused, saying why. */
static void typos_where_nothing_plays_them(void)
{
#define HUMANOID "\"character\": {\"generated\": \"humanoid\", \"sample_rate\": 10}"
#define PLAYS_IDLE "\"root\": {\"type\": \"clip\", \"clip\": \"idle\"}"
#define SELF(T)                                                                                                   \
  "{" HUMANOID ", \"parameters\": [{\"name\": \"b\", \"type\": \"bool\"}, {\"name\": \"n\", \"type\": \"int\"}, " \
  "{\"name\": \"x\"}, {\"name\": \"v\", \"type\": \"vec2\"}, {\"name\": \"go\", \"type\": \"trigger\"}], "        \
  "\"root\": {\"type\": \"state_machine\", \"states\": [{\"name\": \"idle\", \"node\": {\"type\": \"clip\", "     \
  "\"clip\": \"idle\"}}, {\"name\": \"walk\", \"node\": {\"type\": \"clip\", \"clip\": \"walk_forward\"}}], "     \
  "\"transitions\": [{\"from\": \"walk\", \"to\": \"idle\"}, " T "]}}"
    const struct {
        const char *json, *where, *message; /* message: a part of it */
    } refused[] = {
        /* an unused definition whose source is a typo: the path and the nearest name */
        { "{" HUMANOID ", \"clips\": [{\"name\": \"walk\", \"source\": \"walk_forwrd\"}], " PLAYS_IDLE "}",
          "clips[0].source", "the character has no clip named \"walk_forwrd\"; did you mean \"walk_forward\"?" },
        { "{" HUMANOID ", \"clips\": [{\"name\": \"idle\"}, {\"name\": \"wlak_forward\"}], " PLAYS_IDLE "}",
          "clips[1].name", "did you mean \"walk_forward\"?" },
        { "{" HUMANOID ", \"clips\": [{\"name\": \"lean\", \"source\": \"aim_left\", \"additive\": {\"reference\": "
          "\"aim_centre\"}}], " PLAYS_IDLE "}",
          "clips[0].additive.reference",
          "no clip named \"aim_centre\" to be the additive reference; did you mean "
          "\"aim_center\"?" },
        { "{" HUMANOID
          ", \"clips\": [{\"name\": \"a\", \"source\": \"idle\"}, {\"name\": \"a\", \"source\": \"wave\"}], " PLAYS_IDLE
          "}",
          "clips[1].name", "a second clip named \"a\" (clips[0])" },
        { "{" HUMANOID ", \"clips\": [{\"source\": \"idle\"}], " PLAYS_IDLE "}", "clips[0].name", "" },
        { "{" HUMANOID ", \"clips\": [{\"name\": \"a\", \"sorce\": \"idle\"}], " PLAYS_IDLE "}", "clips[0].sorce",
          "did you mean \"source\"?" },
        { "{" HUMANOID ", \"clips\": {\"name\": \"a\"}, " PLAYS_IDLE "}", "clips", "an array" },
        /* a self-transition every update would take: no condition, or conditions true for every
         * value of their parameter's type */
        { SELF("{\"from\": \"idle\", \"to\": \"idle\", \"duration\": 0.2}"), "root.transitions[1]",
          "a transition from \"idle\" to itself with no condition and no exit_time would be taken on every update" },
        { SELF(
              "{\"from\": \"idle\", \"to\": \"idle\", \"conditions\": [{\"param\": \"b\", \"op\": \">=\", \"value\": 0}]}"),
          "root.transitions[1]", "conditions that always hold (\"b\" >= 0 holds for every bool)" },
        { SELF(
              "{\"from\": \"idle\", \"to\": \"idle\", \"conditions\": [{\"param\": \"b\", \"op\": \"!=\", \"value\": 0.5}]}"),
          "root.transitions[1]", "(\"b\" != 0.5 holds for every bool)" },
        { SELF(
              "{\"from\": \"idle\", \"to\": \"idle\", \"conditions\": [{\"param\": \"n\", \"op\": \"!=\", \"value\": 2.5}]}"),
          "root.transitions[1]", "(\"n\" != 2.5 holds for every int)" },
        { SELF("{\"from\": \"idle\", \"to\": \"idle\", \"conditions\": [{\"param\": \"n\", \"op\": \">\", "
               "\"value\": -3e9}]}"),
          "root.transitions[1]", "holds for every int" },
        { SELF("{\"from\": \"idle\", \"to\": \"idle\", \"conditions\": [{\"param\": \"x\", \"op\": \"<=\", "
               "\"value\": 3.4028234663852886e38}]}"),
          "root.transitions[1]", "holds for every float" },
        { SELF("{\"from\": \"idle\", \"to\": \"idle\", \"interruptible\": false, \"duration\": 0.5}"),
          "root.transitions[1]", "no condition" },
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        tdn_error err = { 0 };
        tdn_graph_document *d = parse(refused[k].json, NULL, &err);
        if (!(CHECK(d == NULL) & CHECK(strcmp(err.where, refused[k].where) == 0) &
              CHECK(strstr(err.message, refused[k].message) != NULL)))
            fprintf(stderr, "refused %zu: %s: %s\n", k, err.where, err.message);
        tdn_graph_document_destroy(d);
    }
    /* what can fail is a state restarting on purpose; an unused definition that is right is fine */
    const char *accepted[] = {
        SELF("{\"from\": \"idle\", \"to\": \"idle\", \"exit_time\": 1}"),
        SELF("{\"from\": \"idle\", \"to\": \"idle\", \"conditions\": [{\"param\": \"go\"}]}"),
        SELF("{\"from\": \"idle\", \"to\": \"idle\", \"conditions\": [{\"param\": \"b\"}]}"),
        SELF(
            "{\"from\": \"idle\", \"to\": \"idle\", \"conditions\": [{\"param\": \"b\", \"op\": \">\", \"value\": 0}]}"),
        SELF(
            "{\"from\": \"idle\", \"to\": \"idle\", \"conditions\": [{\"param\": \"n\", \"op\": \"!=\", \"value\": 2}]}"),
        SELF(
            "{\"from\": \"idle\", \"to\": \"idle\", \"conditions\": [{\"param\": \"x\", \"op\": \">=\", \"value\": -1e30}]}"),
        SELF(
            "{\"from\": \"idle\", \"to\": \"idle\", \"conditions\": [{\"param\": \"b\", \"op\": \">=\", \"value\": 0}, "
            "{\"param\": \"v\", \"op\": \">\", \"value\": 1}]}"),
        SELF("{\"from\": \"any\", \"to\": \"idle\"}"),
        "{" HUMANOID ", \"clips\": [{\"name\": \"lean\", \"source\": \"aim_left\", \"additive\": {\"reference\": "
        "\"aim_center\"}}], " PLAYS_IDLE "}",
    };
    for (size_t k = 0; k < sizeof accepted / sizeof accepted[0]; k++) {
        tdn_error err = { 0 };
        tdn_graph_document *d = parse(accepted[k], NULL, &err);
        if (!CHECK(d != NULL))
            fprintf(stderr, "accepted %zu: %s: %s\n", k, err.where, err.message);
        tdn_graph_document_destroy(d);
    }
    CHECK_EQ_INT(live_blocks, 0);
#undef SELF
#undef PLAYS_IDLE
#undef HUMANOID
}

static void truncations_and_failing_allocations(void)
{
    FILE *f = fopen(TENDON_SOURCE_DIR "/examples/graphs/strafe.json", "rb");
    CHECK(f != NULL);
    if (!f)
        return;
    char text[8192];
    size_t size = fread(text, 1, sizeof text, f);
    fclose(f);
    int failures = 0;
    for (size_t n = 0; n < size; n += 7) {
        tdn_graph_document *d = NULL;
        tdn_error err = { 0 };
        tdn_result r = tdn_graph_document_load_memory(text, n, NULL, &d, &counting, &err);
        failures += r != TDN_OK;
        CHECK(r == TDN_OK || (d == NULL && err.where[0]));
        tdn_graph_document_destroy(d);
    }
    CHECK(failures > 0);
    CHECK_EQ_INT(live_blocks, 0);
    /* Every allocation failing in turn: an error, and nothing left. */
    int attempts = 0;
    for (long n = 0;; n++, attempts++) {
        tdn_graph_document *d = NULL;
        allocations_before_failure = n;
        tdn_result r = tdn_graph_document_load_memory(text, size, NULL, &d, &counting, NULL);
        allocations_before_failure = -1;
        if (r == TDN_OK) {
            tdn_graph_document_destroy(d);
            break;
        }
        CHECK_EQ_INT(r, TDN_ERR_OUT_OF_MEMORY);
        CHECK(d == NULL);
        CHECK_EQ_INT(live_blocks, 0);
    }
    printf("%d failing allocations, each cleaned up\n", attempts);
    CHECK(attempts > 10);
}

int main(void)
{
    RUN(example_graph_runs);
    RUN(document_weights_by_hand);
    RUN(synced_sweep_keeps_feet_in_step);
    RUN(real_pairs_stay_in_phase);
    RUN(machines_and_layers_from_documents);
    RUN(hints_name_the_path_and_the_nearest_name);
    RUN(clips_from_other_files);
    RUN(modifiers_from_documents);
    RUN(ik_from_documents);
    RUN(malformed_documents_name_their_path);
    RUN(typos_where_nothing_plays_them);
    RUN(truncations_and_failing_allocations);
    return check_summary();
}
