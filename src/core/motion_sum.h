/* tendon core: a weighted blend of root motions added one at a time (root_motion.c), so that a
 * caller can blend motions it computes on the fly without keeping them all: the arithmetic of
 * tdn_root_motion_blend, which uses it (not installed). */
#ifndef TENDON_MOTION_SUM_H
#define TENDON_MOTION_SUM_H

#include "tendon/root_motion.h"

typedef struct tdn__motion_sum {
    double total; /* the sum of the weights, known before the first add */
    double t[3], lv[3], av[3], r[4];
    tdn_root_motion first; /* what a blend of weights summing to ~0 gives */
    int count;
} tdn__motion_sum;

/* A weight as blends count it: 0 for a negative or non-finite one. */
double tdn__motion_weight(float w);
void tdn__motion_sum_start(tdn__motion_sum *sum, double total);
void tdn__motion_sum_add(tdn__motion_sum *sum, const tdn_root_motion *m, float weight);
/* The blend (the identity when nothing was added). */
void tdn__motion_sum_finish(const tdn__motion_sum *sum, tdn_root_motion *out);

#endif
