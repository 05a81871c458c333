/* tendon core: the nearest name by edit distance, over names read through a callback (not
 * installed; libtendon_io's "did you mean" hints use it too). */
#ifndef TENDON_NEAREST_H
#define TENDON_NEAREST_H

/* The candidate closest to `name` by edit distance (insertions, deletions, substitutions and
 * swaps of neighbours, letter case ignored), when it is close enough to be a slip: at most a
 * third of the name's length (at least 1, at most 3 edits). NULL otherwise. Candidates are
 * read through `at` (index -> name, NULL skipped). */
const char *tdn__nearest(const char *name, const char *(*at)(const void *ctx, int i), const void *ctx, int count);

#endif
