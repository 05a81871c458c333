/* tendon CLI: "did you mean": the nearest of a list of names to a misspelt one, for the hints in
 * the CLI's error messages (timeline parameters, JSON keys, clip names). */
#ifndef TENDON_NEAREST_H
#define TENDON_NEAREST_H

/* The closest of `count` names to `name` by edit distance (case-insensitive; a swap of two
 * neighbouring letters is one edit), when it is close enough to be a likely typo (at most 3
 * edits, and fewer than half the longer name's length); else NULL. NULL or empty names are
 * skipped. */
const char *nearest_name(const char *name, const char *const *names, int count);

#endif
