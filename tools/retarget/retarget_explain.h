/* tendon CLI: `tendon retarget --explain` (docs/cli.md): the two body maps part by part (each
 * side's joints and how they were found), what each map left out and why (its notes), the
 * reference poses, and the scale with where it comes from. */
#ifndef TENDON_RETARGET_EXPLAIN_H
#define TENDON_RETARGET_EXPLAIN_H

#include "retarget_pair.h"

/* Prints the explanation to stdout. */
void retarget_explain(const retarget_args *a, const retarget_pair *p);

#endif
