/* tendon: edit distances for "did you mean" hints. */
#include <ctype.h>
#include <string.h>

#include "tendon/nearest_name.h"

#define LONGEST 64

/* Optimal string alignment distance (Damerau-Levenshtein without repeated edits of a
 * substring), letter case ignored; names longer than LONGEST count as far. */
static int distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > LONGEST || m > LONGEST)
        return LONGEST;
    int d[LONGEST + 1][LONGEST + 1];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int best = d[i - 1][j] + 1;
            best = d[i][j - 1] + 1 < best ? d[i][j - 1] + 1 : best;
            best = d[i - 1][j - 1] + cost < best ? d[i - 1][j - 1] + cost : best;
            if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *tdn_nearest_name_from_callback(const char *name, const char *(*name_at)(const void *list, int i),
                                           const void *list, int count)
{
    if (!name || !name_at)
        return NULL;
    int limit = (int)strlen(name) / 3;
    limit = limit < 1 ? 1 : limit > 3 ? 3 : limit;
    const char *best = NULL;
    int best_distance = limit + 1;
    for (int i = 0; i < count; i++) {
        const char *candidate = name_at(list, i);
        if (!candidate)
            continue;
        int dist = distance(name, candidate);
        if (dist < best_distance) {
            best_distance = dist;
            best = candidate;
        }
    }
    return best;
}

static const char *listed_name(const void *ctx, int i)
{
    const char *n = ((const char *const *)ctx)[i];
    return n && n[0] ? n : NULL;
}

const char *tdn_nearest_name(const char *name, const char *const *names, int count)
{
    return names && count > 0 ? tdn_nearest_name_from_callback(name, listed_name, names, count) : NULL;
}
