/* Motion-matching search: the accelerated search returns exactly the brute-force cost on
 * thousands of random and realistic queries (made-up motion-like features, the humanoid's
 * database and, when the shared data is there, LAFAN1's), never a frame that is not
 * searchable (nor one of a range passed over), and keeps the current frame unless another beats
 * it by the bias. */
#include <string.h>

#include "check.h"
#include "mm_fixture.h"

/* Features that move like motion: per dimension a random walk, in runs of 50-400 frames that
 * start afresh (a new clip); every 7th frame not searchable. */
static tdn_mm_database *walk_database(int frames, int dims, check_rng *rng)
{
    float *x = malloc(sizeof(float) * (size_t)frames * (size_t)dims);
    unsigned char *searchable = malloc((size_t)frames);
    float value[64], step[64];
    int left = 0;
    for (int i = 0; i < frames; i++) {
        if (left-- <= 0) {
            left = 50 + (int)(check_rng_u32(rng) % 350);
            for (int d = 0; d < dims; d++)
                value[d] = check_rng_float(rng, -2, 2), step[d] = 0.0f;
        }
        for (int d = 0; d < dims; d++) {
            step[d] = 0.9f * step[d] + check_rng_float(rng, -0.02f, 0.02f);
            value[d] += step[d];
            x[(size_t)i * (size_t)dims + (size_t)d] = value[d];
        }
        searchable[i] = i % 7 != 3;
    }
    tdn_mm_database *db = NULL;
    CHECK_EQ_INT(tdn_mm_database_create_from_features(
                     &(tdn_mm_features_desc){
                         .frame_count = frames, .dimensions = dims, .features = x, .searchable = searchable },
                     &db, NULL, NULL),
                 TDN_OK);
    free(x);
    free(searchable);
    return db;
}

typedef struct tally {
    int queries, same_frame, pruned_to_ties;
} tally;

/* One query both ways: the costs must be the same number. */
static void compare(const tdn_mm_database *db, const float *q, int current, float bias, tally *t)
{
    tdn_mm_match brute, fast;
    CHECK_EQ_INT(tdn_mm_search(db, q, current, bias, TDN_MM_SEARCH_BRUTE, &brute, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_mm_search(db, q, current, bias, TDN_MM_SEARCH_ACCELERATED, &fast, NULL), TDN_OK);
    CHECK(brute.cost == fast.cost);
    CHECK(fast.frame >= 0);
    tdn_mm_frame f;
    tdn_mm_database_frame(db, fast.frame, &f, NULL);
    CHECK(f.searchable);
    t->queries++;
    t->same_frame += brute.frame == fast.frame;
    /* and passing over the 40 frames around the query's frame (the current one's, or the
     * best's): the same cost both ways, never a frame in the range but the current one */
    const int around = current >= 0 ? current : brute.frame;
    tdn_mm_match skip_brute, skip_fast;
    CHECK_EQ_INT(
        tdn_mm_search_skipping(db, q, current, bias, around - 20, around + 20, TDN_MM_SEARCH_BRUTE, &skip_brute, NULL),
        TDN_OK);
    CHECK_EQ_INT(tdn_mm_search_skipping(db, q, current, bias, around - 20, around + 20, TDN_MM_SEARCH_ACCELERATED,
                                        &skip_fast, NULL),
                 TDN_OK);
    CHECK(skip_brute.cost == skip_fast.cost);
    CHECK(skip_fast.frame == current || skip_fast.frame < around - 20 || skip_fast.frame >= around + 20);
    CHECK(skip_fast.cost >= brute.cost);
    /* the cost is the frame's own (a tie may pick another frame of the same cost) */
    const float *x = tdn_mm_database_features(db, fast.frame);
    double c = 0;
    for (int d = 0; d < tdn_mm_database_dimensions(db); d++)
        c += ((double)q[d] - x[d]) * ((double)q[d] - x[d]);
    CHECK_NEAR(fast.cost + (fast.frame == current ? bias : 0.0f), c, 1e-5 * (c + 1e-3));
}

static void random_queries(const tdn_mm_database *db, check_rng *rng, int count, tally *t)
{
    const int dims = tdn_mm_database_dimensions(db), frames = tdn_mm_database_frame_count(db);
    float q[TDN_MM_MAX_DIMENSIONS];
    for (int k = 0; k < count; k++) {
        const int near = (int)(check_rng_u32(rng) % (uint32_t)frames), kind = k % 4;
        const float *x = tdn_mm_database_features(db, near);
        for (int d = 0; d < dims; d++)
            q[d] = kind == 0   ? check_rng_float(rng, -3, 3)               /* anywhere */
                   : kind == 1 ? x[d]                                      /* exactly a frame: cost 0 */
                               : x[d] + check_rng_float(rng, -0.3f, 0.3f); /* near one */
        compare(db, q, kind == 3 ? near : -1, kind == 3 ? 0.05f : 0.0f, t);
    }
}

/* Realistic: a frame's pose features with the trajectory of another frame (what a stick
 * input asks while the character does something else), the frame as current. */
static void realistic_queries(const tdn_mm_database *db, check_rng *rng, int count, tally *t)
{
    const int dims = tdn_mm_database_dimensions(db), frames = tdn_mm_database_frame_count(db);
    const int trajectory = tdn_mm_database_group_size(db, TDN_MM_TRAJECTORY_POSITION) +
                           tdn_mm_database_group_size(db, TDN_MM_TRAJECTORY_FACING);
    float q[TDN_MM_MAX_DIMENSIONS];
    for (int k = 0; k < count; k++) {
        const int here = (int)(check_rng_u32(rng) % (uint32_t)frames),
                  there = (int)(check_rng_u32(rng) % (uint32_t)frames);
        memcpy(q, tdn_mm_database_features(db, here), sizeof(float) * (size_t)dims);
        memcpy(q, tdn_mm_database_features(db, there), sizeof(float) * (size_t)trajectory);
        compare(db, q, here, 0.05f, t);
    }
}

static void accelerated_equals_brute_force(void)
{
    check_rng rng = { 2016 };
    tally t = { 0 };
    tdn_mm_database *db = walk_database(20000, 27, &rng);
    random_queries(db, &rng, 2000, &t);
    tdn_mm_database_destroy(db);
    db = walk_database(3001, 5, &rng); /* dims not a multiple of 4; a ragged last box */
    random_queries(db, &rng, 500, &t);
    tdn_mm_database_destroy(db);
    mm_fixture f;
    if (mm_fixture_humanoid(&f, 1)) {
        random_queries(f.db, &rng, 1000, &t);
        realistic_queries(f.db, &rng, 1000, &t);
        mm_fixture_free(&f);
    }
    if (mm_fixture_lafan1(&f)) { /* fewer: each brute-force search reads 6.8 MB (slow under sanitizers) */
        random_queries(f.db, &rng, 500, &t);
        realistic_queries(f.db, &rng, 1000, &t);
        mm_fixture_free(&f);
    }
    printf("mm search: %d queries, accelerated cost == brute force every time; the same frame %d times (else a tie)\n",
           t.queries, t.same_frame);
    CHECK(t.queries >= 4500);
}

static void the_current_frame_keeps_playing_unless_beaten_by_the_bias(void)
{
    check_rng rng = { 7 };
    tdn_mm_database *db = walk_database(2000, 8, &rng);
    float q[8];
    memcpy(q, tdn_mm_database_features(db, 100), sizeof q);
    q[0] += 0.05f; /* frame 100 costs 0.0025 now; some neighbour may cost less, by less than 0.01 */
    tdn_mm_match m;
    CHECK_EQ_INT(tdn_mm_search(db, q, 100, 0.01f, TDN_MM_SEARCH_ACCELERATED, &m, NULL), TDN_OK);
    CHECK_EQ_INT(m.frame, 100);
    CHECK_NEAR(m.cost, 0.0025 - 0.01, 1e-6);
    /* a frame that is not searchable is no candidate even as the current one */
    CHECK_EQ_INT(tdn_mm_search(db, tdn_mm_database_features(db, 3), 3, 1.0f, TDN_MM_SEARCH_BRUTE, &m, NULL), TDN_OK);
    CHECK(m.frame != 3);
    CHECK_EQ_INT(tdn_mm_search(db, q, 2000, 0.0f, TDN_MM_SEARCH_BRUTE, &m, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_mm_search(db, q, -1, -1.0f, TDN_MM_SEARCH_BRUTE, &m, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_mm_search(db, q, -1, NAN, TDN_MM_SEARCH_BRUTE, &m, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_mm_search(db, NULL, -1, 0.0f, TDN_MM_SEARCH_BRUTE, &m, NULL), TDN_ERR_ARGUMENT);
    tdn_mm_database_destroy(db);
}

int main(void)
{
    accelerated_equals_brute_force();
    the_current_frame_keeps_playing_unless_beaten_by_the_bias();
    return check_summary();
}
