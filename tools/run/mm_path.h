/* tendon CLI: the scripted stick path of `tendon mm run --path PATH.json`
 * (docs/mm_path.schema.json).
 *
 *   {"segments": [{"duration": 4, "speed": 1.4, "heading": 0},
 *                 {"duration": 3, "speed": 1.2, "heading": 90, "facing": 0}]}
 *
 * Segments follow each other from t = 0. During a segment the desired ground velocity is
 * `speed` m/s towards `heading` and the desired facing is `facing` (default: the heading);
 * angles are degrees about +Y from +Z towards +X (0: +Z, 90: +X), the controller's yaw. The
 * input changes at once at a segment's start (the controller's springs smooth it); after the
 * last segment the character is asked to stand (speed 0) facing as in the last one. */
#ifndef TENDON_MM_PATH_H
#define TENDON_MM_PATH_H

#include <stddef.h>

#include "tendon/mm_controller.h"

typedef struct mm_segment {
    double start; /* seconds: the sum of the durations before it */
    float duration, speed, heading, facing;
    int has_facing;
    char description[128]; /* its "description", or "" */
} mm_segment;

typedef struct mm_path {
    mm_segment *segments;
    int count;
    double duration; /* of all segments */
} mm_path;

/* Loads and checks the file. Returns an exit code (CLI_OK, or CLI_BAD_INPUT / CLI_FAILURE with
 * the reason in `why`: "PATH: segments[2].speed: must be a number >= 0", or the byte, line and
 * column of malformed JSON). */
int mm_path_load(const char *path, mm_path *out, char *why, size_t why_size);
/* The same from `size` bytes of JSON in memory, `name` standing for the path in messages. */
int mm_path_parse(const char *text, size_t size, const char *name, mm_path *out, char *why, size_t why_size);
void mm_path_free(mm_path *p);

/* The input at time t (seconds from 0), and the segment it comes from (-1: after the last). */
tdn_mm_input mm_path_input(const mm_path *p, double t, int *segment);

/* Degrees to radians and back. */
float mm_radians(float degrees);
float mm_degrees(float radians);

#endif
