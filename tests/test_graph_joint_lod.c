/* Joint level of detail (graph.h, "joint level of detail"):
 *  - the runs a LOD keeps against each joint's ancestry walked up its parents, and their SIMD
 *    blocks;
 *  - on the BlendMotion showcase with the humanoid's fingers and face dropped (evaluated in one
 *    span of blocks) and with its arms and face dropped (two spans), over 300 frames
 *    of a scripted timeline: every kept joint's local transform, model matrix and palette entry
 *    the same bits as the full evaluation's, the dropped joints' outputs untouched (a sentinel
 *    survives), root motion and events the same bits;
 *  - IK: a job on dropped joints is skipped (not reached), the jobs on kept joints give the full
 *    evaluation's bits;
 *  - a crowd mixing characters with and without the LOD: every split the same bits as each
 *    character alone;
 *  - bad LOD descriptions and batch entries, named.
 * That batch frames with joint LOD never allocate is in test_no_alloc. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "graph_drive.h"
#include "tendon/io/graph_document.h"
#include "tendon/io/humanoid.h"

#define DT (1.0f / 60.0f)
#define SENTINEL 12345.5f

static const char *const BLENDMOTION = TENDON_SOURCE_DIR "/examples/graphs/blendmotion.json";

static tdn_result run_one(tdn_graph_character *c, tdn_graph_workspace *ws)
{
    const tdn_graph_batch_desc d = { .characters = c, .character_count = 1, .workspaces = &ws, .worker_count = 1 };
    return tdn_graph_evaluate_batch(&d, NULL);
}

/* A LOD of the humanoid by the names of the subtrees it drops. */
static tdn_joint_lod named_lod(const tdn_skeleton *s, const char *const *names, int count)
{
    tdn_joint_lod lod;
    memset(&lod, 0, sizeof lod);
    CHECK_EQ_INT(tdn_joint_lod_init_names(s, names, count, &lod, NULL), TDN_OK);
    return lod;
}

/* Both arms and the face: kept joints far apart, evaluated as two spans of blocks. */
static const char *const ARMLESS[] = { "jaw", "eye_l", "eye_r", "clavicle_l", "clavicle_r" };

/* The humanoid's far LOD: fingers and face dropped. */
static tdn_joint_lod far_lod(const tdn_skeleton *s)
{
    tdn_joint_lod lod;
    memset(&lod, 0, sizeof lod);
    const char *const *names = NULL;
    const int count = tdn_humanoid_detail_joints(&names);
    CHECK_EQ_INT(tdn_joint_lod_init_names(s, names, count, &lod, NULL), TDN_OK);
    return lod;
}

/* Whether joint j or an ancestor of it is named in names[0 .. count), walking up the parents. */
static int under_named(const tdn_skeleton *s, const char *const *names, int count, int j)
{
    for (; j >= 0; j = tdn_skeleton_parents(s)[j])
        for (int i = 0; i < count; i++)
            if (strcmp(tdn_skeleton_joint_name(s, j), names[i]) == 0)
                return 1;
    return 0;
}

static int kept(const tdn_joint_lod *lod, int j)
{
    for (int r = 0; r < lod->kept_count; r++)
        if (lod->kept[r].begin <= j && j < lod->kept[r].end)
            return 1;
    return 0;
}

/* ---- the runs ---- */

/* The spans of blocks: whole SIMD blocks, in order, more than 2 blocks apart, each beginning
 * and ending with a block that holds a kept joint, covering every kept joint. */
static void check_blocks(const tdn_joint_lod *lod, int joints)
{
    const int lanes = TDN_POSE_LANES;
    int uncovered = 0, bad_ends = 0;
    for (int b = 0; b < lod->block_count; b++) {
        const tdn_joint_span span = lod->blocks[b];
        CHECK_EQ_INT(span.begin % lanes, 0);
        CHECK(span.end % lanes == 0 || span.end == tdn_pose_stride(joints));
        CHECK(b == 0 || lod->blocks[b - 1].end + 2 * lanes < span.begin);
        int first = 0, last = 0;
        for (int j = span.begin; j < span.begin + lanes && j < joints; j++)
            first |= kept(lod, j);
        for (int j = (span.end - 1) / lanes * lanes; j < span.end && j < joints; j++)
            last |= kept(lod, j);
        bad_ends += !first || !last;
    }
    for (int j = 0; j < joints; j++) {
        int in_block = 0;
        for (int b = 0; b < lod->block_count; b++)
            in_block |= lod->blocks[b].begin <= j && j < lod->blocks[b].end;
        uncovered += kept(lod, j) && !in_block;
    }
    CHECK_EQ_INT(uncovered, 0);
    CHECK_EQ_INT(bad_ends, 0);
}

static void runs_are_the_kept_joints(const tdn_graph_document *doc)
{
    const tdn_skeleton *s = tdn_graph_document_skeleton(doc);
    const int joints = tdn_skeleton_joint_count(s);
    const tdn_joint_lod lod = far_lod(s);
    const char *const *names = NULL;
    const int count = tdn_humanoid_detail_joints(&names);
    CHECK_EQ_INT(count, 13);
    int dropped = 0, wrong = 0;
    for (int j = 0; j < joints; j++) {
        const int out = under_named(s, names, count, j);
        dropped += out;
        wrong += kept(&lod, j) == out;
    }
    CHECK_EQ_INT(lod.joint_count, joints);
    CHECK_EQ_INT(dropped, 41); /* 2 hands of 19 finger joints, the jaw and the eyes */
    CHECK_EQ_INT(wrong, 0);
    for (int r = 1; r < lod.kept_count; r++) /* runs are in order, apart and not empty */
        CHECK(lod.kept[r - 1].end < lod.kept[r].begin && lod.kept[r].begin < lod.kept[r].end);
    check_blocks(&lod, joints);
    CHECK_EQ_INT(lod.block_count, 1); /* the hands' gaps are 1 and 2 blocks: merged */
    const tdn_joint_lod armless = named_lod(s, ARMLESS, 5);
    check_blocks(&armless, joints);
    CHECK_EQ_INT(armless.block_count, 2);
    CHECK(armless.kept_count == 2 && armless.kept[0].end == 10 && armless.kept[1].begin == joints - 8);
    printf("  fingers and face: %d of %d joints kept in %d runs, %d span of blocks\n", joints - dropped, joints,
           lod.kept_count, lod.block_count);
    /* dropping nothing keeps everything in one run */
    tdn_joint_lod all;
    CHECK_EQ_INT(tdn_joint_lod_init(s, NULL, 0, &all, NULL), TDN_OK);
    CHECK(all.kept_count == 1 && all.kept[0].begin == 0 && all.kept[0].end == joints);
}

/* ---- the BlendMotion showcase: kept joints exact, dropped ones untouched ---- */

typedef struct outputs {
    tdn_pose pose;
    tdn_mat4 *model, *palette;
} outputs;

static void outputs_make(outputs *o, int joints, float fill)
{
    tdn_pose_create(joints, &o->pose, NULL, NULL);
    o->model = malloc(sizeof(tdn_mat4) * (size_t)joints);
    o->palette = malloc(sizeof(tdn_mat4) * (size_t)joints);
    for (size_t i = 0; i < (size_t)TDN_POSE_ROWS * (size_t)o->pose.stride; i++)
        o->pose.data[i] = fill;
    for (int j = 0; j < joints; j++)
        for (int e = 0; e < 16; e++)
            o->model[j].m[e] = o->palette[j].m[e] = fill;
}

static void outputs_free(outputs *o)
{
    tdn_pose_destroy(&o->pose);
    free(o->model);
    free(o->palette);
}

/* Joint j's local transform, model matrix and palette entry: the same bits in a and b? */
static int joint_same(const outputs *a, const outputs *b, int j)
{
    int same = memcmp(&a->model[j], &b->model[j], sizeof(tdn_mat4)) == 0 &&
               memcmp(&a->palette[j], &b->palette[j], sizeof(tdn_mat4)) == 0;
    for (int r = 0; r < TDN_POSE_ROWS; r++)
        same &= memcmp(&a->pose.data[r * a->pose.stride + j], &b->pose.data[r * b->pose.stride + j], sizeof(float)) ==
                0;
    return same;
}

static int joint_is_sentinel(const outputs *o, int j)
{
    int same = 1;
    for (int e = 0; e < 16; e++)
        same &= o->model[j].m[e] == SENTINEL && o->palette[j].m[e] == SENTINEL;
    for (int r = 0; r < TDN_POSE_ROWS; r++)
        same &= o->pose.data[r * o->pose.stride + j] == SENTINEL;
    return same;
}

/* Joint j of an update-rate LOD's shown and target poses: never written? */
static int history_is_sentinel(const tdn_pose history[2], int j)
{
    int same = 1;
    for (int h = 0; h < 2; h++)
        for (int r = 0; r < TDN_POSE_ROWS; r++)
            same &= history[h].data[r * history[h].stride + j] == SENTINEL;
    return same;
}

/* Two characters of `g`: c[0] at full detail, c[1] with `lod`, its outputs filled with the
 * sentinel so that a dropped joint's can be seen untouched. */
static void full_and_lod(const tdn_graph *g, int joints, const tdn_joint_lod *lod, tdn_graph_instance *in[2],
                         outputs out[2], tdn_graph_character c[2])
{
    for (int i = 0; i < 2; i++) {
        CHECK_EQ_INT(tdn_graph_instance_create(g, &in[i], NULL, NULL), TDN_OK);
        outputs_make(&out[i], joints, i ? SENTINEL : 0.0f);
        c[i] = (tdn_graph_character){
            .instance = in[i], .dt = DT, .pose = &out[i].pose, .model = out[i].model, .palette = out[i].palette
        };
    }
    c[1].joint_lod = lod;
}

/* With `rate` above 1 both characters also have an update-rate LOD of that rate (their clocks
 * in step): the joint LOD then changes nothing of the kept joints either. */
static void kept_joints_are_full_bits(const tdn_graph_document *doc, const tdn_joint_lod *lod_in, int rate)
{
    enum { FRAMES = 300 };
    const tdn_graph *g = tdn_graph_document_graph(doc);
    const tdn_skeleton *s = tdn_graph_document_skeleton(doc);
    const int joints = tdn_skeleton_joint_count(s);
    const tdn_joint_lod lod = *lod_in;
    tdn_graph_workspace *ws = NULL;
    CHECK_EQ_INT(tdn_graph_workspace_create(&g, 1, &ws, NULL, NULL), TDN_OK);
    tdn_graph_instance *in[2];
    outputs out[2];
    tdn_graph_character c[2];
    full_and_lod(g, joints, &lod, in, out, c);
    tdn_pose history[2][2];
    tdn_graph_lod rates[2];
    for (int i = 0; i < 2 && rate > 1; i++) {
        for (int h = 0; h < 2; h++) {
            CHECK_EQ_INT(tdn_pose_create(joints, &history[i][h], NULL, NULL), TDN_OK);
            for (size_t v = 0; v < (size_t)TDN_POSE_ROWS * (size_t)history[i][h].stride; v++)
                history[i][h].data[v] = SENTINEL; /* the joint LOD's dropped joints are never evaluated */
        }
        rates[i] = (tdn_graph_lod){ .rate = rate, .clock = 1, .shown = &history[i][0], .target = &history[i][1] };
        c[i].lod = &rates[i];
    }
    int kept_differ = 0, dropped_touched = 0, motion_differs = 0, events_differ = 0, dropped_moved = 0;
    int kept_count = 0;
    for (int j = 0; j < joints; j++)
        kept_count += kept(&lod, j);
    tdn_mat4 *first_model = malloc(sizeof(tdn_mat4) * (size_t)joints);
    for (int f = 0; f < FRAMES; f++) {
        for (int i = 0; i < 2; i++) {
            drive(in[i], 0, f);
            CHECK_EQ_INT(run_one(&c[i], ws), TDN_OK);
        }
        for (int j = 0; j < joints; j++)
            if (kept(&lod, j))
                kept_differ += !joint_same(&out[0], &out[1], j);
            else
                dropped_touched += !joint_is_sentinel(&out[1], j) || (rate > 1 && !history_is_sentinel(history[1], j));
        if (f == 0)
            memcpy(first_model, out[0].model, sizeof(tdn_mat4) * (size_t)joints);
        tdn_root_motion m[2];
        const tdn_graph_event *e[2];
        int n[2], lost[2];
        for (int i = 0; i < 2; i++) {
            tdn_graph_root_motion(in[i], &m[i], NULL);
            n[i] = tdn_graph_events(in[i], &e[i], &lost[i]);
        }
        motion_differs += memcmp(&m[0], &m[1], sizeof m[0]) != 0;
        events_differ += n[0] != n[1] || lost[0] != lost[1] ||
                         (n[0] > 0 && memcmp(e[0], e[1], sizeof(tdn_graph_event) * (size_t)n[0]) != 0);
    }
    /* the full evaluation does move every dropped joint (the body walks and turns, carrying them):
     * the sentinel guards work that was really left out */
    for (int j = 0; j < joints; j++)
        dropped_moved += !kept(&lod, j) && memcmp(&first_model[j], &out[0].model[j], sizeof(tdn_mat4)) != 0;
    printf("  rate %d, %d frames, %d kept joints: %d differing joint-frames, %d dropped joint-frames touched\n", rate,
           FRAMES, kept_count, kept_differ, dropped_touched);
    CHECK_EQ_INT(kept_differ, 0);
    CHECK_EQ_INT(dropped_touched, 0);
    CHECK_EQ_INT(motion_differs, 0);
    CHECK_EQ_INT(events_differ, 0);
    CHECK_EQ_INT(dropped_moved, joints - kept_count);
    free(first_model);
    for (int i = 0; i < 2; i++) {
        tdn_graph_instance_destroy(in[i]);
        outputs_free(&out[i]);
        for (int h = 0; h < 2 && rate > 1; h++)
            tdn_pose_destroy(&history[i][h]);
    }
    tdn_graph_workspace_destroy(ws);
}

/* ---- IK ---- */

static const char IK_GRAPH[] =
    "{\"character\": {\"generated\": \"humanoid\"},"
    " \"clips\": [{\"name\": \"idle\"}],"
    " \"parameters\": [{\"name\": \"reach\", \"type\": \"vec3\", \"value\": [-0.45, 1.2, 0.3]},"
    "                 {\"name\": \"curl\", \"type\": \"vec3\", \"value\": [0.7, 1.1, 0.2]},"
    "                 {\"name\": \"look\", \"type\": \"vec3\", \"value\": [0.3, 1.7, 2.0]}],"
    " \"root\": {\"type\": \"clip\", \"clip\": \"idle\"},"
    " \"ik\": [{\"kind\": \"two_bone\", \"joints\": [\"upperarm_r\", \"lowerarm_r\", \"hand_r\"], \"target\": "
    "\"reach\"},"
    "        {\"kind\": \"ccd\", \"root\": \"index_metacarpal_l\", \"end\": \"index_03_l\", \"target\": \"curl\","
    "         \"tolerance\": 0.005},"
    "        {\"kind\": \"look_at\", \"root\": \"spine_03\", \"end\": \"head\", \"target\": \"look\"}]}";

static void ik_on_dropped_joints_is_skipped(void)
{
    enum { FRAMES = 60 };
    tdn_graph_document *doc = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_graph_document_load_memory(IK_GRAPH, sizeof IK_GRAPH - 1, NULL, &doc, NULL, &err), TDN_OK)) {
        printf("%s: %s\n", err.where, err.message);
        return;
    }
    const tdn_graph *g = tdn_graph_document_graph(doc);
    const tdn_skeleton *s = tdn_graph_document_skeleton(doc);
    const int joints = tdn_skeleton_joint_count(s);
    const tdn_joint_lod lod = far_lod(s);
    CHECK_EQ_INT(tdn_graph_ik_count(g), 3);
    tdn_graph_workspace *ws = NULL;
    CHECK_EQ_INT(tdn_graph_workspace_create(&g, 1, &ws, NULL, NULL), TDN_OK);
    tdn_graph_instance *in[2];
    outputs out[2];
    tdn_graph_character c[2];
    full_and_lod(g, joints, &lod, in, out, c);
    int reached[2][3] = { { 0 } }, kept_differ = 0, dropped_touched = 0;
    const int curl = tdn_graph_find_param(g, "curl"), tip = tdn_skeleton_find_joint(s, "index_03_l");
    for (int f = 0; f < FRAMES; f++) {
        if (f > 0) { /* the fingertip's target: 2 cm below where it was, within its reach */
            const float *m = out[0].model[tip].m;
            const float target[3] = { m[12], m[13] - 0.02f, m[14] };
            for (int i = 0; i < 2; i++)
                CHECK_EQ_INT(tdn_graph_set_vector(in[i], curl, target, NULL), TDN_OK);
        }
        for (int i = 0; i < 2; i++) {
            CHECK_EQ_INT(run_one(&c[i], ws), TDN_OK);
            for (int k = 0; k < 3; k++)
                reached[i][k] += tdn_graph_ik_reached(in[i], k);
        }
        for (int j = 0; j < joints; j++)
            if (kept(&lod, j))
                kept_differ += !joint_same(&out[0], &out[1], j);
            else
                dropped_touched += !joint_is_sentinel(&out[1], j);
    }
    printf("  reached over %d frames: full %d %d %d, with the LOD %d %d %d\n", FRAMES, reached[0][0], reached[0][1],
           reached[0][2], reached[1][0], reached[1][1], reached[1][2]);
    CHECK(reached[0][0] > 0 && reached[0][1] > 0); /* both chains reach in full */
    CHECK_EQ_INT(reached[1][0], reached[0][0]);
    CHECK_EQ_INT(reached[1][1], 0); /* the finger's chain is dropped */
    CHECK_EQ_INT(reached[1][2], reached[0][2]);
    CHECK_EQ_INT(kept_differ, 0);
    CHECK_EQ_INT(dropped_touched, 0);
    for (int i = 0; i < 2; i++) {
        tdn_graph_instance_destroy(in[i]);
        outputs_free(&out[i]);
    }
    tdn_graph_workspace_destroy(ws);
    tdn_graph_document_destroy(doc);
}

/* ---- splits ---- */

enum { CROWD = 12, SPLIT_FRAMES = 200, SPLITS = 4 };

static void every_split_is_each_alone(const tdn_graph_document *doc)
{
    const tdn_graph *g = tdn_graph_document_graph(doc);
    const int joints = tdn_skeleton_joint_count(tdn_graph_document_skeleton(doc));
    const tdn_joint_lod lods[2] = { far_lod(tdn_graph_document_skeleton(doc)),
                                    named_lod(tdn_graph_document_skeleton(doc), ARMLESS, 5) };
    /* alone (batches of one), serial in tasks of 16, reversed in tasks of 1 on 3 workers and of
     * 5 on 2; characters without LOD and with either, so workspaces pass between them */
    const int per_task[SPLITS] = { 1, 16, 1, 5 }, workers[SPLITS] = { 1, 1, 3, 2 };
    tdn_graph_instance *in[SPLITS][CROWD];
    outputs out[SPLITS][CROWD];
    tdn_graph_character c[SPLITS][CROWD];
    tdn_graph_workspace *ws[3];
    for (int w = 0; w < 3; w++)
        CHECK_EQ_INT(tdn_graph_workspace_create(&g, 1, &ws[w], NULL, NULL), TDN_OK);
    for (int s = 0; s < SPLITS; s++)
        for (int k = 0; k < CROWD; k++) {
            CHECK_EQ_INT(tdn_graph_instance_create(g, &in[s][k], NULL, NULL), TDN_OK);
            outputs_make(&out[s][k], joints, SENTINEL);
            c[s][k] = (tdn_graph_character){ .instance = in[s][k],
                                             .dt = DT,
                                             .pose = &out[s][k].pose,
                                             .model = out[s][k].model,
                                             .palette = out[s][k].palette,
                                             .joint_lod = k % 3 ? &lods[k % 3 - 1] : NULL };
        }
    const size_t mats = sizeof(tdn_mat4) * (size_t)joints;
    int differing[SPLITS] = { 0 };
    for (int f = 0; f < SPLIT_FRAMES; f++)
        for (int s = 0; s < SPLITS; s++) {
            for (int k = 0; k < CROWD; k++)
                drive(in[s][k], k, f);
            if (s == 0) {
                for (int k = 0; k < CROWD; k++)
                    CHECK_EQ_INT(run_one(&c[s][k], ws[0]), TDN_OK);
                continue;
            }
            const tdn_graph_batch_desc d = { .characters = c[s],
                                             .character_count = CROWD,
                                             .workspaces = ws,
                                             .worker_count = workers[s],
                                             .parallel_for = workers[s] > 1 ? reversed_for : NULL,
                                             .parallel_user = (void *)&workers[s],
                                             .characters_per_task = per_task[s] };
            CHECK_EQ_INT(tdn_graph_evaluate_batch(&d, NULL), TDN_OK);
            for (int k = 0; k < CROWD; k++)
                differing[s] += memcmp(out[s][k].pose.data, out[0][k].pose.data, tdn_pose_bytes(joints)) != 0 ||
                                memcmp(out[s][k].model, out[0][k].model, mats) != 0 ||
                                memcmp(out[s][k].palette, out[0][k].palette, mats) != 0;
        }
    for (int s = 1; s < SPLITS; s++)
        CHECK_EQ_INT(differing[s], 0);
    for (int s = 0; s < SPLITS; s++)
        for (int k = 0; k < CROWD; k++) {
            tdn_graph_instance_destroy(in[s][k]);
            outputs_free(&out[s][k]);
        }
    for (int w = 0; w < 3; w++)
        tdn_graph_workspace_destroy(ws[w]);
}

/* ---- bad descriptions ---- */

static void check_where(tdn_result res, const tdn_error *err, const char *where)
{
    CHECK_EQ_INT(res, TDN_ERR_ARGUMENT);
    if (!CHECK(strcmp(err->where, where) == 0))
        printf("  where \"%s\", expected \"%s\" (%s)\n", err->where, where, err->message);
}

static void bad_lods_are_named(const tdn_graph_document *doc)
{
    const tdn_skeleton *s = tdn_graph_document_skeleton(doc);
    const int joints = tdn_skeleton_joint_count(s);
    tdn_joint_lod lod, untouched;
    memset(&untouched, 0x5a, sizeof untouched);
    lod = untouched;
    tdn_error err = { 0 };
    const int ids[2] = { 10, joints };
    check_where(tdn_joint_lod_init(NULL, ids, 1, &lod, &err), &err, "skeleton");
    check_where(tdn_joint_lod_init(s, ids, 1, NULL, &err), &err, "out");
    check_where(tdn_joint_lod_init(s, NULL, 1, &lod, &err), &err, "dropped");
    check_where(tdn_joint_lod_init(s, ids, -1, &lod, &err), &err, "count");
    check_where(tdn_joint_lod_init(s, ids, 2, &lod, &err), &err, "dropped[1]");
    const int negative[1] = { -1 };
    check_where(tdn_joint_lod_init(s, negative, 1, &lod, &err), &err, "dropped[0]");
    const char *const names[3] = { "jaw", "tail", NULL };
    check_where(tdn_joint_lod_init_names(s, names, 2, &lod, &err), &err, "names[1]");
    const char *const unnamed[2] = { "jaw", NULL };
    check_where(tdn_joint_lod_init_names(s, unnamed, 2, &lod, &err), &err, "names[1]");
    check_where(tdn_joint_lod_init_names(s, NULL, 1, &lod, &err), &err, "names");
    CHECK(memcmp(&lod, &untouched, sizeof lod) == 0); /* nothing half-built */

    /* a root with 40 leaf children, every other one dropped: 20 runs of kept joints */
    enum { WIDE = 41 };
    int parents[WIDE], drop[WIDE];
    int drops = 0;
    for (int j = 0; j < WIDE; j++) {
        parents[j] = j - 1 < 0 ? -1 : 0;
        if (j > 0 && j % 2 == 1)
            drop[drops++] = j;
    }
    tdn_skeleton *wide = NULL;
    const tdn_skeleton_desc desc = { .joint_count = WIDE, .parents = parents };
    CHECK_EQ_INT(tdn_skeleton_create(&desc, &wide, NULL, NULL), TDN_OK);
    check_where(tdn_joint_lod_init(wide, drop, drops, &lod, &err), &err, "dropped");
    CHECK_EQ_INT(tdn_joint_lod_init(wide, drop, TDN_JOINT_LOD_MAX_SPANS - 1, &lod, NULL), TDN_OK); /* 16 runs */
    CHECK_EQ_INT(lod.kept_count, TDN_JOINT_LOD_MAX_SPANS);
    tdn_skeleton_destroy(wide);

    /* batch entries: another skeleton's LOD, or a retargeted instance */
    const tdn_graph *g = tdn_graph_document_graph(doc);
    tdn_graph_workspace *ws = NULL;
    tdn_graph_instance *in = NULL;
    CHECK_EQ_INT(tdn_graph_workspace_create(&g, 1, &ws, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_graph_instance_create(g, &in, NULL, NULL), TDN_OK);
    tdn_joint_lod other = { 0 };
    other.joint_count = joints - 1;
    const tdn_joint_lod good = far_lod(s);
    tdn_graph_character c[2] = { { .instance = in, .dt = DT }, { .instance = in, .dt = DT, .joint_lod = &other } };
    tdn_graph_batch_desc d = { .characters = c, .character_count = 2, .workspaces = &ws, .worker_count = 1 };
    check_where(tdn_graph_evaluate_batch(&d, &err), &err, "characters[1].joint_lod");
    tdn_body_map map;
    tdn_retarget *onto_itself = NULL;
    tdn_graph_instance *retargeted = NULL;
    CHECK_EQ_INT(tdn_body_map_find(s, NULL, &map, NULL), TDN_OK);
    const tdn_retarget_desc same = { .source = { .skeleton = s, .map = &map },
                                     .target = { .skeleton = s, .map = &map } };
    CHECK_EQ_INT(tdn_retarget_create(&same, &onto_itself, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_graph_instance_create_retargeted(g, onto_itself, &retargeted, NULL, NULL), TDN_OK);
    outputs o;
    outputs_make(&o, joints, 0.0f);
    c[1] = (tdn_graph_character){
        .instance = retargeted, .dt = DT, .pose = &o.pose, .model = o.model, .skeleton = s, .joint_lod = &good
    };
    check_where(tdn_graph_evaluate_batch(&d, &err), &err, "characters[1].joint_lod");
    c[1].joint_lod = NULL; /* the rest of the entry is good */
    CHECK_EQ_INT(tdn_graph_evaluate_batch(&d, &err), TDN_OK);
    outputs_free(&o);
    tdn_graph_instance_destroy(retargeted);
    tdn_retarget_destroy(onto_itself);
    tdn_graph_instance_destroy(in);
    tdn_graph_workspace_destroy(ws);
}

int main(void)
{
    tdn_graph_document *doc = NULL;
    tdn_error err = { 0 };
    if (CHECK_EQ_INT(tdn_graph_document_load(BLENDMOTION, NULL, &doc, NULL, &err), TDN_OK)) {
        RUN_ARGS(runs_are_the_kept_joints(doc));
        const tdn_skeleton *s = tdn_graph_document_skeleton(doc);
        const tdn_joint_lod far = far_lod(s), armless = named_lod(s, ARMLESS, 5);
        RUN_ARGS(kept_joints_are_full_bits(doc, &far, 1));
        RUN_ARGS(kept_joints_are_full_bits(doc, &armless, 1));
        RUN_ARGS(kept_joints_are_full_bits(doc, &far, 4));
        RUN_ARGS(kept_joints_are_full_bits(doc, &armless, 2));
        RUN_ARGS(every_split_is_each_alone(doc));
        RUN_ARGS(bad_lods_are_named(doc));
        tdn_graph_document_destroy(doc);
    } else {
        printf("%s: %s\n", err.where, err.message);
    }
    RUN(ik_on_dropped_joints_is_skipped);
    return check_summary();
}
