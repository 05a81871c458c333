/* tendon io: "did you mean" hints for names a document got wrong (not installed). */
#ifndef TENDON_IO_JSON_HINT_H
#define TENDON_IO_JSON_HINT_H

#include <stddef.h>

/* The candidate closest to `name` by edit distance (insertions, deletions, substitutions and
 * swaps of neighbours, letter case ignored), when it is close enough to be a slip: at most a
 * third of the name's length (at least 1, at most 3 edits). NULL otherwise. Candidates are
 * read through `at` (index -> name, NULL skipped). */
const char *tdn_io__nearest(const char *name, const char *(*at)(const void *ctx, int i), const void *ctx, int count);

/* Writes `; did you mean "X"?` for the nearest candidate into out (or "" when there is none). */
void tdn_io__hint(char *out, size_t size, const char *name, const char *(*at)(const void *ctx, int i), const void *ctx,
                  int count);

#endif
