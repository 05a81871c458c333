/* Batch evaluation (graph.h, "batch evaluation") against each character updated and evaluated
 * alone (every third keeping its palette alone; the threaded runs set parameters in the batch's
 * prepare callback): a crowd of two graphs (the five-layer BlendMotion showcase and the strafing blend tree,
 * interleaved so that every workspace keeps switching between them), each character at its own
 * place in a scripted timeline, run serially and through parallel-fors that split it
 * differently (tasks of 1, 5, 7 and 16 characters; tasks in reverse order; two and three
 * threads). Every frame's pose, model-space matrices and palette must be the same bits as the
 * lone character's. Then the argument checks, which name the character and change nothing. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "graph_drive.h"
#include "tendon/io/graph_document.h"

enum { CHARACTERS = 24, FRAMES = 240, SPLITS = 5 };
#define DT (1.0f / 60.0f)

typedef struct crowd_graphs {
    tdn_graph_document *docs[2];
    const tdn_graph *graphs[2];
    const tdn_skeleton *skeletons[2]; /* each document's generated humanoid (the same joints) */
    int joints;
} crowd_graphs;

typedef struct character_buffers {
    tdn_pose pose;
    tdn_mat4 *model, *palette;
} character_buffers;

static void buffers_make(character_buffers *b, int joints)
{
    tdn_pose_create(joints, &b->pose, NULL, NULL);
    b->model = calloc((size_t)joints, sizeof(tdn_mat4));
    b->palette = calloc((size_t)joints, sizeof(tdn_mat4));
}

static void buffers_free(character_buffers *b)
{
    tdn_pose_destroy(&b->pose);
    free(b->model);
    free(b->palette);
}

/* ---- parallel-fors ---- */

/* A pool of threads taking tasks from a shared counter; each thread is one worker. */
typedef struct pool {
    int threads;
    int next; /* the next task, under the lock */
    pthread_mutex_t lock;
    int task_count;
    tdn_graph_task_fn task;
    void *context;
} pool;

typedef struct pool_thread {
    pool *p;
    int worker;
} pool_thread;

static void *pool_run(void *arg)
{
    const pool_thread *me = arg;
    pool *p = me->p;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        const int t = p->next++;
        pthread_mutex_unlock(&p->lock);
        if (t >= p->task_count)
            return NULL;
        p->task(p->context, t, me->worker);
    }
}

static void threads_for(void *user, int task_count, tdn_graph_task_fn task, void *context)
{
    pool *p = user;
    p->next = 0;
    p->task_count = task_count;
    p->task = task;
    p->context = context;
    pthread_t ids[4];
    pool_thread args[4];
    for (int w = 0; w < p->threads; w++) {
        args[w] = (pool_thread){ p, w };
        pthread_create(&ids[w], NULL, pool_run, &args[w]);
    }
    for (int w = 0; w < p->threads; w++)
        pthread_join(ids[w], NULL);
}

/* ---- the comparison ---- */

typedef struct split {
    const char *name;
    int per_task, workers;
    tdn_parallel_for_fn parallel_for;
} split;

static int same_bits(const character_buffers *a, const character_buffers *b, int joints, int palette_only)
{
    return (palette_only || (memcmp(a->pose.data, b->pose.data, tdn_pose_bytes(joints)) == 0 &&
                             memcmp(a->model, b->model, sizeof(tdn_mat4) * (size_t)joints) == 0)) &&
           memcmp(a->palette, b->palette, sizeof(tdn_mat4) * (size_t)joints) == 0;
}

/* The timeline's step as the batch's prepare callback, on the task's thread. */
static void drive_prepare(void *user, int character, tdn_graph_instance *instance)
{
    drive(instance, character, *(const int *)user);
}

static void batch_equals_alone_in_every_split(const crowd_graphs *cg)
{
    const split splits[SPLITS] = { { "serial, tasks of 16", 0, 1, NULL },
                                   { "reversed, tasks of 1, 3 workers", 1, 3, reversed_for },
                                   { "reversed, tasks of 5, 2 workers", 5, 2, reversed_for },
                                   { "2 threads, tasks of 7", 7, 2, threads_for },
                                   { "3 threads, tasks of 5", 5, 3, threads_for } };
    const int joints = cg->joints;
    /* alone: created instances, each with its own workspace */
    tdn_graph_instance *alone[CHARACTERS];
    character_buffers alone_out[CHARACTERS];
    for (int k = 0; k < CHARACTERS; k++) {
        CHECK_EQ_INT(tdn_graph_instance_create(cg->graphs[k % 2], &alone[k], NULL, NULL), TDN_OK);
        buffers_make(&alone_out[k], joints);
    }
    /* batched: instances placed side by side in one block, as a crowd keeps them */
    size_t stride[2];
    for (int g = 0; g < 2; g++)
        stride[g] = (tdn_graph_instance_bytes(cg->graphs[g]) + 63) / 64 * 64;
    const size_t block_bytes = (stride[0] + stride[1]) * CHARACTERS * SPLITS;
    char *block = aligned_alloc(TDN_GRAPH_INSTANCE_ALIGN, block_bytes);
    tdn_graph_instance *batched[SPLITS][CHARACTERS];
    character_buffers out[SPLITS][CHARACTERS];
    tdn_graph_character chars[SPLITS][CHARACTERS];
    size_t at = 0;
    for (int s = 0; s < SPLITS; s++)
        for (int k = 0; k < CHARACTERS; k++) {
            const tdn_graph *g = cg->graphs[k % 2];
            CHECK_EQ_INT(tdn_graph_instance_init(g, block + at, stride[k % 2], &batched[s][k], NULL), TDN_OK);
            at += stride[k % 2];
            buffers_make(&out[s][k], joints);
            chars[s][k] = (tdn_graph_character){
                batched[s][k], DT, &out[s][k].pose, out[s][k].model, out[s][k].palette, NULL, NULL, NULL
            };
        }
    tdn_graph_workspace *workspaces[3];
    for (int w = 0; w < 3; w++)
        CHECK_EQ_INT(tdn_graph_workspace_create(cg->graphs, 2, &workspaces[w], NULL, NULL), TDN_OK);

    int differing[SPLITS] = { 0 };
    long frames_compared = 0;
    for (int f = 0; f < FRAMES; f++) {
        for (int k = 0; k < CHARACTERS; k++) {
            drive(alone[k], k, f);
            tdn_graph_update(alone[k], DT, NULL);
            tdn_graph_evaluate(alone[k], &alone_out[k].pose, NULL);
            tdn_model_space(cg->skeletons[k % 2], &alone_out[k].pose, NULL, alone_out[k].model, NULL);
            tdn_palette(cg->skeletons[k % 2], alone_out[k].model, alone_out[k].palette, NULL);
        }
        for (int s = 0; s < SPLITS; s++) {
            const int in_prepare = splits[s].parallel_for == threads_for; /* the threads set parameters too */
            for (int k = 0; k < CHARACTERS && !in_prepare; k++)
                drive(batched[s][k], k, f);
            pool p = { .threads = splits[s].workers };
            pthread_mutex_init(&p.lock, NULL);
            int workers = splits[s].workers;
            const tdn_graph_batch_desc desc = { chars[s],
                                                CHARACTERS,
                                                workspaces,
                                                splits[s].workers,
                                                splits[s].parallel_for,
                                                splits[s].parallel_for == threads_for ? (void *)&p : (void *)&workers,
                                                splits[s].per_task,
                                                in_prepare ? drive_prepare : NULL,
                                                &f };
            CHECK_EQ_INT(tdn_graph_evaluate_batch(&desc, NULL), TDN_OK);
            pthread_mutex_destroy(&p.lock);
            for (int k = 0; k < CHARACTERS; k++) {
                differing[s] += !same_bits(&alone_out[k], &out[s][k], joints, k % 3 == 2);
                /* what the update reports is the lone character's too */
                tdn_root_motion a, b;
                tdn_graph_root_motion(alone[k], &a, NULL);
                tdn_graph_root_motion(batched[s][k], &b, NULL);
                differing[s] += memcmp(&a, &b, sizeof a) != 0 ||
                                tdn_graph_events(alone[k], NULL, NULL) != tdn_graph_events(batched[s][k], NULL, NULL);
            }
        }
        frames_compared += CHARACTERS;
    }
    for (int s = 0; s < SPLITS; s++) {
        printf("  %-34s %ld character-frames, %d differing from the lone characters\n", splits[s].name, frames_compared,
               differing[s]);
        CHECK_EQ_INT(differing[s], 0);
    }
    /* the timeline did move them: the last poses are not the rest pose */
    tdn_pose rest;
    tdn_pose_create(joints, &rest, NULL, NULL);
    tdn_pose_set_rest(&rest, cg->skeletons[0], NULL);
    int moved = 0;
    for (int k = 0; k < CHARACTERS; k++)
        moved += memcmp(rest.data, alone_out[k].pose.data, tdn_pose_bytes(joints)) != 0;
    CHECK_EQ_INT(moved, CHARACTERS);
    tdn_pose_destroy(&rest);

    for (int w = 0; w < 3; w++)
        tdn_graph_workspace_destroy(workspaces[w]);
    for (int s = 0; s < SPLITS; s++)
        for (int k = 0; k < CHARACTERS; k++)
            buffers_free(&out[s][k]);
    for (int k = 0; k < CHARACTERS; k++) {
        tdn_graph_instance_destroy(alone[k]);
        buffers_free(&alone_out[k]);
    }
    free(block);
}

/* Bad batches fail before anything runs, naming the character or the workspace. */
static void bad_batches_name_the_place(const crowd_graphs *cg)
{
    const int joints = cg->joints;
    tdn_graph_instance *in[2];
    character_buffers b[2];
    for (int k = 0; k < 2; k++) {
        CHECK_EQ_INT(tdn_graph_instance_create(cg->graphs[0], &in[k], NULL, NULL), TDN_OK);
        buffers_make(&b[k], joints);
    }
    tdn_pose small;
    tdn_pose_create(joints - 1, &small, NULL, NULL);
    tdn_graph_workspace *ws = NULL, *too_small = NULL;
    CHECK_EQ_INT(tdn_graph_workspace_create(cg->graphs, 2, &ws, NULL, NULL), TDN_OK);
    /* the strafing tree alone has fewer entries than the showcase */
    CHECK_EQ_INT(tdn_graph_workspace_create(&cg->graphs[1], 1, &too_small, NULL, NULL), TDN_OK);
    tdn_graph_character c[2] = { { in[0], DT, &b[0].pose, b[0].model, NULL, NULL, NULL, NULL },
                                 { in[1], DT, &b[1].pose, b[1].model, b[1].palette, NULL, NULL, NULL } };
    tdn_graph_batch_desc desc = { .characters = c, .character_count = 2, .workspaces = &ws, .worker_count = 1 };
    const char *const wheres[] = { "characters[1].instance", "characters[1].pose", "characters[0].skeleton",
                                   "workspaces[0]", "worker_count" };
    int clip_node = 0; /* a clip node, whose time an update would move */
    while (tdn_graph_clip_time(in[0], clip_node) < 0.0f)
        clip_node++;
    tdn_skeleton *two_joints = NULL; /* a skeleton not of the poses' joint count */
    const char *const two_names[2] = { "a", "b" };
    const tdn_transform two_rest[2] = { tdn_transform_identity(), tdn_transform_identity() };
    CHECK_EQ_INT(tdn_skeleton_create(&(tdn_skeleton_desc){ .joint_count = 2,
                                                           .names = two_names,
                                                           .parents = (const int[]){ -1, 0 },
                                                           .rest_pose = two_rest },
                                     &two_joints, NULL, NULL),
                 TDN_OK);
    tdn_error err;
    /* the checks run before any character is touched: move the clip first */
    CHECK_EQ_INT(tdn_graph_evaluate_batch(&desc, NULL), TDN_OK);
    for (size_t i = 0; i < sizeof wheres / sizeof wheres[0]; i++) {
        tdn_graph_character saved[2] = { c[0], c[1] };
        tdn_graph_batch_desc d = desc;
        tdn_graph_workspace *one = ws;
        d.workspaces = &one;
        switch (i) {
        case 0:
            c[1].instance = NULL;
            break;
        case 1:
            c[1].pose = &small;
            break;
        case 2:
            c[0].skeleton = two_joints;
            break;
        case 3:
            one = too_small;
            break;
        default:
            d.worker_count = 0;
            break;
        }
        const float time_before = tdn_graph_clip_time(in[0], clip_node);
        memset(&err, 0, sizeof err);
        CHECK_EQ_INT(tdn_graph_evaluate_batch(&d, &err), TDN_ERR_ARGUMENT);
        if (!CHECK(strcmp(err.where, wheres[i]) == 0))
            printf("  case %zu: where '%s', want '%s' (%s)\n", i, err.where, wheres[i], err.message);
        CHECK(tdn_graph_clip_time(in[0], clip_node) == time_before); /* nothing was updated */
        c[0] = saved[0];
        c[1] = saved[1];
    }
    CHECK_EQ_INT(tdn_graph_evaluate_batch(&desc, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_graph_evaluate_batch(NULL, &err), TDN_ERR_ARGUMENT);
    tdn_graph_workspace_destroy(ws);
    tdn_graph_workspace_destroy(too_small);
    tdn_skeleton_destroy(two_joints);
    tdn_pose_destroy(&small);
    for (int k = 0; k < 2; k++) {
        tdn_graph_instance_destroy(in[k]);
        buffers_free(&b[k]);
    }
}

/* Workspaces refuse what they cannot serve, naming the argument, and a workspace made for a
 * smaller graph is refused by the evaluation (nothing written). */
static void bad_workspaces_name_the_place(const crowd_graphs *cg)
{
    tdn_error err;
    tdn_graph_workspace *ws = (tdn_graph_workspace *)1;
    const size_t bytes = tdn_graph_workspace_bytes(cg->graphs, 2);
    CHECK(bytes > tdn_graph_workspace_bytes(&cg->graphs[1], 1)); /* the showcase needs more than the tree */
    CHECK_EQ_INT(tdn_graph_workspace_bytes(NULL, 1), 0);
    CHECK_EQ_INT(tdn_graph_workspace_bytes(cg->graphs, 0), 0);
    char *memory = aligned_alloc(TDN_GRAPH_WORKSPACE_ALIGN, (bytes + 64 + 63) / 64 * 64);
    const tdn_graph *with_null[2] = { cg->graphs[0], NULL };
    const struct {
        const tdn_graph *const *graphs;
        int count;
        void *memory;
        size_t bytes;
        tdn_result want;
        const char *where;
    } cases[] = {
        { NULL, 1, memory, bytes, TDN_ERR_ARGUMENT, "graphs" },
        { cg->graphs, 0, memory, bytes, TDN_ERR_ARGUMENT, "graph_count" },
        { with_null, 2, memory, bytes, TDN_ERR_ARGUMENT, "graphs" },
        { cg->graphs, 2, NULL, bytes, TDN_ERR_ARGUMENT, "memory" },
        { cg->graphs, 2, memory + 8, bytes, TDN_ERR_ARGUMENT, "memory" },
        { cg->graphs, 2, memory, bytes - 1, TDN_ERR_OUT_OF_MEMORY, "bytes" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(&err, 0, sizeof err);
        ws = (tdn_graph_workspace *)1;
        CHECK_EQ_INT(
            tdn_graph_workspace_init(cases[i].graphs, cases[i].count, cases[i].memory, cases[i].bytes, &ws, &err),
            cases[i].want);
        if (!CHECK(ws == NULL && strcmp(err.where, cases[i].where) == 0))
            printf("  case %zu: where '%s' (%s)\n", i, err.where, err.message);
    }
    /* made for the strafing tree alone: too small for the showcase */
    CHECK_EQ_INT(tdn_graph_workspace_init(&cg->graphs[1], 1, memory, bytes, &ws, NULL), TDN_OK);
    tdn_graph_instance *in = NULL;
    tdn_pose pose;
    CHECK_EQ_INT(tdn_graph_instance_create(cg->graphs[0], &in, NULL, NULL), TDN_OK);
    tdn_pose_create(cg->joints, &pose, NULL, NULL);
    tdn_pose_set_identity(&pose);
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(tdn_graph_evaluate_with(in, ws, &pose, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "workspace") == 0 && strstr(err.message, "tdn_graph_workspace_bytes"));
    tdn_pose identity;
    tdn_pose_create(cg->joints, &identity, NULL, NULL);
    tdn_pose_set_identity(&identity);
    CHECK(memcmp(pose.data, identity.data, tdn_pose_bytes(cg->joints)) == 0); /* nothing written */
    CHECK_EQ_INT(tdn_graph_evaluate_with(in, NULL, &pose, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "workspace") == 0);
    tdn_pose_destroy(&identity);
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(in);
    free(memory);
}

int main(void)
{
    crowd_graphs cg = { 0 };
    const char *files[2] = { TENDON_SOURCE_DIR "/examples/graphs/blendmotion.json",
                             TENDON_SOURCE_DIR "/examples/graphs/strafe.json" };
    for (int g = 0; g < 2; g++) {
        tdn_error err = { 0 };
        if (!CHECK_EQ_INT(tdn_graph_document_load(files[g], NULL, &cg.docs[g], NULL, &err), TDN_OK)) {
            printf("%s: %s\n", err.where, err.message);
            return check_summary();
        }
        cg.graphs[g] = tdn_graph_document_graph(cg.docs[g]);
        cg.skeletons[g] = tdn_graph_document_skeleton(cg.docs[g]);
    }
    cg.joints = tdn_skeleton_joint_count(cg.skeletons[0]);
    CHECK_EQ_INT(tdn_skeleton_joint_count(cg.skeletons[1]), cg.joints);
    RUN_ARGS(batch_equals_alone_in_every_split(&cg));
    RUN_ARGS(bad_batches_name_the_place(&cg));
    RUN_ARGS(bad_workspaces_name_the_place(&cg));
    for (int g = 0; g < 2; g++)
        tdn_graph_document_destroy(cg.docs[g]);
    return check_summary();
}
