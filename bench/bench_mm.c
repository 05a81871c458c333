/* tendon_bench: the `mm` workload (see bench_mm.h). */
#include "bench_mm.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_data.h"
#include "tendon/io/asset.h"

#define MM_BIAS 0.05f
#define MM_DT (1.0f / 60.0f)
#define MM_DIMS 27
#define MM_RUN_MIN 200
#define MM_RUN_SPAN 400 /* runs of MM_RUN_MIN .. MM_RUN_MIN + MM_RUN_SPAN - 1 frames */
#define MM_RUN_TAIL 60  /* frames at a run's end that are not searchable */
#define MM_QUERY_NOISE 0.05f
#define MM_MAX_PASSES 15

static const char *const lafan1_takes[] = { "bvh/lafan1/walk4_subject1.bvh", "bvh/lafan1/multipleActions1_subject1.bvh",
                                            "bvh/lafan1/push1_subject2.bvh" };
#define LAFAN1_TAKES ((int)(sizeof lafan1_takes / sizeof lafan1_takes[0]))

/* ---- deterministic random numbers (xorshift64*) ---- */
static uint32_t next_u32(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (uint32_t)((*s * 2685821657736338717ull) >> 32);
}
static float uniform01(uint64_t *s) { return ((float)(next_u32(s) >> 8) + 0.5f) * (1.0f / 16777216.0f); }
static float gaussian(uint64_t *s)
{
    const float u = uniform01(s), v = uniform01(s);
    return sqrtf(-2.0f * logf(u)) * cosf(6.28318531f * v);
}

/* ---- queries ---- */
typedef struct mm_queries {
    int count, capacity, dims;
    float *values; /* count rows of dims floats */
    int *current;  /* the frame playing when the query was made */
} mm_queries;

static void queries_free(mm_queries *q)
{
    free(q->values);
    free(q->current);
    memset(q, 0, sizeof *q);
}

static tdn_result queries_init(mm_queries *q, int capacity, int dims)
{
    memset(q, 0, sizeof *q);
    q->values = malloc(sizeof(float) * (size_t)capacity * (size_t)dims);
    q->current = malloc(sizeof(int) * (size_t)capacity);
    if (!q->values || !q->current) {
        queries_free(q);
        return TDN_ERR_OUT_OF_MEMORY;
    }
    q->capacity = capacity;
    q->dims = dims;
    return TDN_OK;
}

static tdn_result queries_add(mm_queries *q, const float *values, int current)
{
    if (q->count == q->capacity) {
        const int capacity = 2 * q->capacity;
        float *v = realloc(q->values, sizeof(float) * (size_t)capacity * (size_t)q->dims);
        if (!v)
            return TDN_ERR_OUT_OF_MEMORY;
        q->values = v;
        int *c = realloc(q->current, sizeof(int) * (size_t)capacity);
        if (!c)
            return TDN_ERR_OUT_OF_MEMORY;
        q->current = c;
        q->capacity = capacity;
    }
    memcpy(q->values + (size_t)q->count * (size_t)q->dims, values, sizeof(float) * (size_t)q->dims);
    q->current[q->count++] = current;
    return TDN_OK;
}

/* ---- timing ---- */
typedef struct mm_pass {
    double median_ns, mean_ns, p95_ns;
} mm_pass;

/* One pass over every query in order, each search timed on its own; matches[i] gets query i's
 * result. Returns the pass's wall time. */
static double timed_pass(const tdn_mm_database *db, const mm_queries *q, tdn_mm_search_mode mode, double *ns,
                         tdn_mm_match *matches)
{
    const double start = bench_now_ns();
    for (int i = 0; i < q->count; i++) {
        const float *query = q->values + (size_t)i * (size_t)q->dims;
        const double t0 = bench_now_ns();
        tdn_mm_search(db, query, q->current[i], MM_BIAS, mode, &matches[i], NULL);
        ns[i] = bench_now_ns() - t0;
    }
    return bench_now_ns() - start;
}

static mm_pass pass_figures(double *ns, int count)
{
    mm_pass p = { 0.0, 0.0, 0.0 };
    for (int i = 0; i < count; i++)
        p.mean_ns += ns[i] / count;
    p.median_ns = bench_median(ns, count); /* sorts */
    p.p95_ns = ns[(int)floor(0.95 * (count - 1) + 0.5)];
    return p;
}

static int compare_pass(const void *a, const void *b)
{
    const double x = ((const mm_pass *)a)->median_ns, y = ((const mm_pass *)b)->median_ns;
    return (x > y) - (x < y);
}

/* The untimed brute-force costs every timed search must match. */
static void reference_costs(const tdn_mm_database *db, const mm_queries *q, float *costs)
{
    for (int i = 0; i < q->count; i++) {
        tdn_mm_match m;
        tdn_mm_search(db, q->values + (size_t)i * (size_t)q->dims, q->current[i], MM_BIAS, TDN_MM_SEARCH_BRUTE, &m,
                      NULL);
        costs[i] = m.cost;
    }
}

typedef struct mm_setup {
    const char *database;
    double build_ms; /* < 0: not reported */
} mm_setup;

/* Both rows of one database and query set. */
static tdn_result measure_rows(const tdn_mm_database *db, const mm_queries *q, const mm_setup *setup, int quick,
                               bench_emit_fn emit, void *user, tdn_error *err)
{
    const int n = q->count;
    double *ns = malloc(sizeof(double) * (size_t)n);
    float *reference = malloc(sizeof(float) * (size_t)n);
    tdn_mm_match *matches = malloc(sizeof(tdn_mm_match) * (size_t)n);
    if (!ns || !reference || !matches) {
        free(ns);
        free(reference);
        free(matches);
        return bench_fail(err, TDN_ERR_OUT_OF_MEMORY, "mm timing buffers");
    }
    const double budget_ns = quick ? 2e7 : 1e9; /* timed passes per row */
    double t0 = bench_now_ns();
    reference_costs(db, q, reference);
    double brute_pass_ns = bench_now_ns() - t0;

    static const tdn_mm_search_mode modes[2] = { TDN_MM_SEARCH_BRUTE, TDN_MM_SEARCH_ACCELERATED };
    static const char *const variants[2] = { "brute", "accelerated" };
    for (int v = 0; v < 2; v++) {
        /* warm-up: the reference pass already ran the brute force */
        double pass_ns = v == 0 ? brute_pass_ns : timed_pass(db, q, modes[v], ns, matches);
        int passes = (int)(budget_ns / (pass_ns > 1.0 ? pass_ns : 1.0));
        passes = passes < 1 ? 1 : passes > (quick ? 3 : MM_MAX_PASSES) ? (quick ? 3 : MM_MAX_PASSES) : passes;
        mm_pass figures[MM_MAX_PASSES];
        int exact = 1;
        for (int p = 0; p < passes; p++) {
            timed_pass(db, q, modes[v], ns, matches);
            for (int i = 0; i < n; i++) /* after the timing */
                exact &= matches[i].cost == reference[i];
            figures[p] = pass_figures(ns, n);
        }
        double least = figures[0].median_ns;
        for (int p = 1; p < passes; p++)
            least = figures[p].median_ns < least ? figures[p].median_ns : least;
        qsort(figures, (size_t)passes, sizeof figures[0], compare_pass);
        const mm_pass mid = figures[passes / 2];

        bench_row row = bench_row_make("mm", 0, variants[v], 1);
        row.median_ns = passes % 2 ? mid.median_ns : 0.5 * (figures[passes / 2 - 1].median_ns + mid.median_ns);
        row.min_ns = least;
        bench_row_add_text(&row, "database", setup->database);
        bench_row_add_number(&row, "frames", tdn_mm_database_frame_count(db));
        bench_row_add_number(&row, "dims", tdn_mm_database_dimensions(db));
        bench_row_add_number(&row, "queries", n);
        bench_row_add_bool(&row, "exact", exact);
        bench_row_add_number(&row, "bias", MM_BIAS);
        bench_row_add_number(&row, "mean_ns", mid.mean_ns);
        bench_row_add_number(&row, "p95_ns", mid.p95_ns);
        bench_row_add_number(&row, "passes", passes);
        if (setup->build_ms >= 0.0)
            bench_row_add_number(&row, "build_ms", setup->build_ms);
        emit(&row, user);
    }
    free(ns);
    free(reference);
    free(matches);
    return TDN_OK;
}

/* ---- the LAFAN1 database and a controller's queries ---- */

/* The scripted stick: (seconds, speed m/s, turn in degrees at the segment's start), looped. */
typedef struct stick_segment {
    float seconds, speed, turn;
} stick_segment;

static const stick_segment stick_script[] = {
    { 2.0f, 0.0f, 0.0f },   /* stand */
    { 4.0f, 1.4f, 0.0f },   /* walk */
    { 3.0f, 1.4f, 90.0f },  /* walk, turned left */
    { 3.0f, 3.5f, 0.0f },   /* run */
    { 3.0f, 3.5f, -90.0f }, /* run, turned right */
    { 2.0f, 0.0f, 0.0f },   /* stop */
    { 3.0f, 1.4f, -90.0f }, { 3.0f, 3.5f, 90.0f },  { 2.0f, 3.5f, 90.0f },  { 2.0f, 0.0f, 0.0f },
    { 3.0f, 1.4f, 90.0f },  { 2.0f, 1.4f, -90.0f }, { 3.0f, 3.5f, -90.0f }, { 1.5f, 0.0f, 0.0f },
};
#define STICK_SEGMENTS ((int)(sizeof stick_script / sizeof stick_script[0]))

/* The frame the controller searched from: the one playing before the search, whose pose
 * features (every group after the trajectory) the query holds exactly. Without a switch that
 * is the frame still playing; after one, a frame or two on from the one playing the update
 * before. -1 when none matches. */
static int searched_from(const tdn_mm_database *db, const float *query, const tdn_mm_status *status, int previous)
{
    if (!status->switched)
        return status->frame;
    const int start = tdn_mm_database_group_start(db, TDN_MM_FOOT_POSITION);
    const int dims = tdn_mm_database_dimensions(db), frames = tdn_mm_database_frame_count(db);
    static const int steps[4] = { 1, 0, 2, 3 };
    for (int k = 0; k < 4; k++) {
        const int f = previous + steps[k];
        if (f >= 0 && f < frames &&
            memcmp(tdn_mm_database_features(db, f) + start, query + start, sizeof(float) * (size_t)(dims - start)) == 0)
            return f;
    }
    return -1;
}

/* Runs the controller along the stick script for `seconds`, recording every search's query. */
static tdn_result record_controller_queries(const tdn_mm_database *db, const tdn_skeleton *skeleton,
                                            const tdn_keyed_clip *const *clips, int clip_count, const int *mirror,
                                            float seconds, mm_queries *out, tdn_error *err)
{
    tdn_mm_controller_desc desc = { 0 };
    desc.database = db;
    desc.skeleton = skeleton;
    desc.clips = clips;
    desc.clip_count = clip_count;
    desc.mirror_table = mirror;
    desc.bias = MM_BIAS;
    tdn_mm_controller *c = NULL;
    tdn_pose pose = { 0 };
    tdn_result res = tdn_mm_controller_create(&desc, &c, NULL, err);
    if (res == TDN_OK)
        res = tdn_pose_create(tdn_skeleton_joint_count(skeleton), &pose, NULL, err);
    int start = 0;
    while (start < tdn_mm_database_frame_count(db)) {
        tdn_mm_frame f;
        tdn_mm_database_frame(db, start, &f, NULL);
        if (f.searchable)
            break;
        start++;
    }
    if (res == TDN_OK)
        res = tdn_mm_controller_reset(c, start, tdn_vec3_make(0, 0, 0), 0.0f, err);
    if (res == TDN_OK)
        res = queries_init(out, 1024, tdn_mm_database_dimensions(db));
    int previous = start, segment = 0, unmatched = 0;
    float facing = 0.0f, in_segment = 0.0f;
    const int steps = (int)(seconds / MM_DT);
    for (int s = 0; s < steps && res == TDN_OK; s++) {
        const stick_segment *seg = &stick_script[segment];
        if (in_segment == 0.0f)
            facing += seg->turn * 3.14159265f / 180.0f;
        tdn_mm_input in = { tdn_vec3_make(seg->speed * sinf(facing), 0.0f, seg->speed * cosf(facing)), facing };
        tdn_mm_status status;
        res = tdn_mm_controller_update(c, &in, MM_DT, &pose, &status, err);
        if (res != TDN_OK)
            break;
        if (status.searched) {
            const float *query = tdn_mm_controller_query(c);
            const int from = searched_from(db, query, &status, previous);
            unmatched += from < 0;
            res = queries_add(out, query, from);
        }
        previous = status.frame;
        in_segment += MM_DT;
        if (in_segment >= seg->seconds) {
            in_segment = 0.0f;
            segment = (segment + 1) % STICK_SEGMENTS;
        }
    }
    if (unmatched)
        fprintf(stderr,
                "bench mm: %d of %d controller searches: the playing frame was not found (searched "
                "without one)\n",
                unmatched, out->count);
    tdn_pose_destroy(&pose);
    tdn_mm_controller_destroy(c);
    if (res != TDN_OK)
        queries_free(out);
    return res;
}

static tdn_result run_lafan1(int quick, bench_emit_fn emit, void *user, tdn_error *err)
{
    const char *dir = bench_data_dir();
    tdn_asset *assets[LAFAN1_TAKES] = { NULL };
    char path[4096];
    for (int i = 0; i < LAFAN1_TAKES; i++) {
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir ? dir : "", lafan1_takes[i]);
        if (!dir || stat(path, &st) != 0) {
            fprintf(stderr,
                    "bench mm: %s not found (set TENDON_DATA to the shared data folder); the lafan1 "
                    "rows are skipped\n",
                    dir ? path : "the shared data folder");
            return TDN_OK;
        }
    }
    const tdn_asset_load_options import = { .scale = 0.01f };
    tdn_result res = TDN_OK;
    const tdn_keyed_clip *clips[LAFAN1_TAKES];
    for (int i = 0; i < LAFAN1_TAKES && res == TDN_OK; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, lafan1_takes[i]);
        res = tdn_asset_load(path, &import, &assets[i], NULL, err);
        if (res == TDN_OK && tdn_asset_clip_count(assets[i]) < 1)
            res = bench_fail(err, TDN_ERR_INVALID_DATA, "lafan1 take without a clip");
        if (res == TDN_OK)
            clips[i] = tdn_asset_clip(assets[i], 0);
    }
    const tdn_skeleton *skeleton = res == TDN_OK ? tdn_asset_skeleton(assets[0]) : NULL;
    const int joints = skeleton ? tdn_skeleton_joint_count(skeleton) : 0;
    int *mirror = res == TDN_OK ? malloc(sizeof(int) * (size_t)joints) : NULL;
    if (res == TDN_OK && !mirror)
        res = bench_fail(err, TDN_ERR_OUT_OF_MEMORY, "lafan1 mirror table");
    if (res == TDN_OK)
        res = tdn_mirror_table_from_names(skeleton, mirror, err);

    tdn_mm_database *db = NULL;
    mm_setup setup = { "lafan1", -1.0 };
    if (res == TDN_OK) {
        tdn_mm_database_desc desc = { 0 };
        desc.skeleton = skeleton;
        desc.clips = clips;
        desc.clip_count = LAFAN1_TAKES;
        desc.mirror_table = mirror;
        desc.root = 0;
        desc.left_foot = tdn_skeleton_find_joint(skeleton, "LeftFoot");
        desc.right_foot = tdn_skeleton_find_joint(skeleton, "RightFoot");
        desc.forward = tdn_vec3_make(0, 1, 0); /* LAFAN1's hips face their local +y */
        const double t0 = bench_now_ns();
        res = tdn_mm_database_create(&desc, &db, NULL, err);
        setup.build_ms = (bench_now_ns() - t0) * 1e-6;
    }
    mm_queries q = { 0 };
    if (res == TDN_OK)
        res = record_controller_queries(db, skeleton, clips, LAFAN1_TAKES, mirror, quick ? 6.0f : 60.0f, &q, err);
    if (res == TDN_OK)
        res = measure_rows(db, &q, &setup, quick, emit, user, err);
    queries_free(&q);
    tdn_mm_database_destroy(db);
    free(mirror);
    for (int i = 0; i < LAFAN1_TAKES; i++)
        tdn_asset_destroy(assets[i]);
    return res == TDN_OK ? TDN_OK : bench_fail(err, res, "mm lafan1 setup");
}

/* ---- synthetic databases ---- */

/* One feature's walk: a damped spring driven by noise, x'' = -k x - damping x' + noise, so it
 * wanders smoothly about 0 with a period of its own (a gait's foot goes faster than its
 * trajectory). */
typedef struct walk {
    float x, v, k;
} walk;

static void walk_step(walk *w, uint64_t *rng)
{
    w->v = 0.97f * w->v + 0.01f * gaussian(rng) - w->k * w->x;
    w->x += w->v;
}

/* frames x MM_DIMS features that move like motion (see bench_mm.h), and the searchable flags. */
static void synthetic_features(int frames, uint64_t *rng, float *features, unsigned char *searchable)
{
    walk w[MM_DIMS];
    for (int d = 0; d < MM_DIMS; d++) { /* periods of 40 to 400 frames, spread evenly in log */
        const float omega = 6.28318531f / (40.0f * powf(10.0f, (float)d / (MM_DIMS - 1)));
        w[d] = (walk){ 0.0f, 0.0f, omega * omega };
    }
    for (int start = 0; start < frames;) {
        int length = MM_RUN_MIN + (int)(next_u32(rng) % MM_RUN_SPAN);
        length = length < frames - start ? length : frames - start;
        for (int d = 0; d < MM_DIMS; d++) /* a jump: the walk goes on unseen for a while */
            for (int i = 0; i < MM_RUN_MIN; i++)
                walk_step(&w[d], rng);
        for (int i = start; i < start + length; i++) {
            float *f = features + (size_t)i * MM_DIMS;
            for (int d = 0; d < MM_DIMS; d++) {
                walk_step(&w[d], rng);
                f[d] = w[d].x;
            }
            searchable[i] = i < start + length - MM_RUN_TAIL;
        }
        start += length;
    }
    /* zero mean, unit variance per feature */
    for (int d = 0; d < MM_DIMS; d++) {
        double sum = 0.0, squares = 0.0;
        for (int i = 0; i < frames; i++) {
            const double f = features[(size_t)i * MM_DIMS + (size_t)d];
            sum += f;
            squares += f * f;
        }
        const double mean = sum / frames, var = squares / frames - mean * mean;
        const float scale = var > 0.0 ? (float)(1.0 / sqrt(var)) : 1.0f;
        for (int i = 0; i < frames; i++) {
            float *f = &features[(size_t)i * MM_DIMS + (size_t)d];
            *f = (float)(*f - mean) * scale;
        }
    }
}

static tdn_result run_synthetic(int frames, int query_count, bench_emit_fn emit, void *user, int quick, tdn_error *err)
{
    uint64_t rng = 0x2545F4914F6CDD1Dull ^ (uint64_t)frames;
    float *features = malloc(sizeof(float) * (size_t)frames * MM_DIMS);
    unsigned char *searchable = malloc((size_t)frames);
    if (!features || !searchable) {
        free(features);
        free(searchable);
        return bench_fail(err, TDN_ERR_OUT_OF_MEMORY, "mm synthetic features");
    }
    synthetic_features(frames, &rng, features, searchable);
    tdn_mm_features_desc desc = { 0 };
    desc.frame_count = frames;
    desc.dimensions = MM_DIMS;
    desc.features = features;
    desc.searchable = searchable;
    tdn_mm_database *db = NULL;
    mm_queries q = { 0 };
    tdn_result res = tdn_mm_database_create_from_features(&desc, &db, NULL, err);
    if (res == TDN_OK)
        res = queries_init(&q, query_count, MM_DIMS);
    float query[MM_DIMS];
    while (res == TDN_OK && q.count < query_count) {
        const int i = (int)(next_u32(&rng) % (uint32_t)frames);
        if (!searchable[i]) /* a searchable frame is never a run's last */
            continue;
        const float *f = features + (size_t)i * MM_DIMS;
        for (int d = 0; d < MM_DIMS; d++)
            query[d] = f[d] + MM_QUERY_NOISE * gaussian(&rng);
        res = queries_add(&q, query, i + 1);
    }
    free(features);
    free(searchable);
    if (res == TDN_OK) {
        const mm_setup setup = { "synthetic", -1.0 };
        res = measure_rows(db, &q, &setup, quick, emit, user, err);
    }
    queries_free(&q);
    tdn_mm_database_destroy(db);
    return res == TDN_OK ? TDN_OK : bench_fail(err, res, "mm synthetic setup");
}

tdn_result bench_run_mm(int quick, bench_emit_fn emit, void *user, tdn_error *err)
{
    tdn_result res = run_lafan1(quick, emit, user, err);
    if (res == TDN_OK)
        res = run_synthetic(100000, quick ? 25 : 501, emit, user, quick, err);
    if (res == TDN_OK && !quick)
        res = run_synthetic(1000000, 201, emit, user, quick, err);
    return res;
}
