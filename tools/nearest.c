/* tendon CLI: "did you mean" for names (see nearest.h). */
#include "nearest.h"

#include <ctype.h>
#include <string.h>

/* Edits between two names, case-insensitive: insertions, deletions, substitutions and swaps of
 * two neighbouring letters ("idel" -> "idle" is one). */
static int edit_distance(const char *a, const char *b)
{
    size_t n = strlen(b), m = strlen(a);
    if (n > 255 || m > 255)
        return 1000;
    int rows[3][256], *before = rows[0], *prev = rows[1], *row = rows[2];
    for (size_t j = 0; j <= n; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= m; i++) {
        row[0] = (int)i;
        for (size_t j = 1; j <= n; j++) {
            int ai = tolower((unsigned char)a[i - 1]), bj = tolower((unsigned char)b[j - 1]);
            int best = prev[j - 1] + (ai != bj);
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (i > 1 && j > 1 && ai == tolower((unsigned char)b[j - 2]) && tolower((unsigned char)a[i - 2]) == bj &&
                before[j - 2] + 1 < best)
                best = before[j - 2] + 1;
            row[j] = best;
        }
        int *t = before;
        before = prev;
        prev = row;
        row = t;
    }
    return prev[n];
}

const char *nearest_name(const char *name, const char *const *names, int count)
{
    const char *best = NULL;
    int best_distance = 4;
    for (int i = 0; i < count; i++) {
        if (!names[i] || !names[i][0])
            continue;
        int d = edit_distance(name, names[i]);
        size_t longer = strlen(name) > strlen(names[i]) ? strlen(name) : strlen(names[i]);
        if (d < best_distance && (size_t)(2 * d) < longer) {
            best_distance = d;
            best = names[i];
        }
    }
    return best;
}

