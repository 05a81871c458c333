/* tendon: "did you mean", the name nearest to a misspelt one. */
#ifndef TENDON_NEAREST_NAME_H
#define TENDON_NEAREST_NAME_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "Did you mean": of `count` names, the one nearest to `name` by edit distance (insertions,
 * deletions, substitutions and swaps of neighbours, letter case ignored) when it is close
 * enough to be a slip (at most a third of the name's length in edits, at least 1, at most 3);
 * NULL otherwise. NULL and empty names are skipped. What tendon's documents and tool use for
 * their hints, for a program's own name lookups. Thread-safe; never allocates. */
TDN_API const char *tdn_nearest_name(const char *name, const char *const *names, int count);
/* The same over names read through `name_at` (index -> name; NULL skips the index), for lists
 * that are not an array of strings (a skeleton's joints, a document's clips). */
TDN_API const char *tdn_nearest_name_from_callback(const char *name, const char *(*name_at)(const void *list, int i),
                                                   const void *list, int count);

#ifdef __cplusplus
}
#endif
#endif
