/* tdn_nearest_name ("did you mean"): hand-counted edit distances against the documented limit
 * (a third of the name's length in edits, at least 1, at most 3), a swap of neighbours as one
 * edit, letter case ignored, the nearest of several, NULL and empty names skipped. */
#include <string.h>

#include "check.h"
#include "tendon/nearest_name.h"

static int is(const char *got, const char *want) { return want ? got && strcmp(got, want) == 0 : got == NULL; }

static void nearest(void)
{
    const char *const names[] = { "idle", "walk_forward", "run_forward", NULL, "", "speed", "events" };
    const int n = (int)(sizeof names / sizeof names[0]);
    struct {
        const char *name, *want;
    } cases[] = {
        { "idel", "idle" },                 /* 1 swap; limit 1 (4 letters) */
        { "IDLE", "idle" },                 /* case ignored: 0 edits */
        { "ilde", "idle" },                 /* 1 swap */
        { "idl", "idle" },                  /* 1 deletion; limit 1 */
        { "ide", "idle" },                  /* 1 insertion; limit 1 (3 letters) */
        { "xyle", NULL },                   /* 2 substitutions; limit 1 */
        { "spede", "speed" },               /* 1 swap; limit 1 (5 letters) */
        { "evnts", "events" },              /* 1 insertion */
        { "walk_froward", "walk_forward" }, /* 1 swap; limit 3 (12 letters) */
        { "walk_fxxxard", "walk_forward" }, /* 3 substitutions: at the limit of 3 */
        { "walk_xxxxard", NULL },           /* 4 substitutions: beyond the limit of 3 */
        { "run_fowrard", "run_forward" },   /* nearer run_forward (1 swap) than walk_forward */
        { "", NULL },                       /* the empty name in the list is skipped */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *got = tdn_nearest_name(cases[k].name, names, n);
        if (!CHECK(is(got, cases[k].want)))
            printf("  '%s': got %s, want %s\n", cases[k].name, got ? got : "NULL",
                   cases[k].want ? cases[k].want : "NULL");
    }
    CHECK(tdn_nearest_name("idle", NULL, 3) == NULL);
    CHECK(tdn_nearest_name(NULL, names, n) == NULL);
    CHECK(tdn_nearest_name("idle", names, 0) == NULL);
}

int main(void)
{
    RUN(nearest);
    return check_summary();
}
