/* tendon_bench: generated benchmark clips (docs/benchmarks.md): 2 s at 30 keys/s, linear keys,
 * every joint animated in translation, rotation and scale by smooth curves (sums of three
 * sines with per-joint phases): a rotation vector of up to 0.5 rad per axis (a wandering axis)
 * on top of the rest rotation, translations within ~2 cm of the rest offset (10 cm for the root and
 * pelvis), scale within 5% of 1. The variant number picks the base frequency and phases, so
 * each variant is a different motion. */
#ifndef TENDON_BENCH_CLIPS_H
#define TENDON_BENCH_CLIPS_H

#include "tendon/tendon.h"

#define BENCH_CLIP_SECONDS 2.0f
#define BENCH_CLIP_KEY_RATE 30.0f

/* A keyed clip over every joint of `skeleton`. */
tdn_result bench_keyed_clip_create(const tdn_skeleton *skeleton, int variant, const char *name, tdn_keyed_clip **out,
                                   tdn_error *err);

#endif
