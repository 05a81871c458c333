/* tendon CLI: a JSON writer that streams, for the traces of `tendon run` (trace.h) and `tendon
 * mm run` (mm_run.c): values go to the file as they are given, so a long run never holds the
 * whole document in memory. Keys are given with each value (NULL inside arrays). Numbers are
 * written with the fewest digits that read back as the same float or double (as the other
 * commands' --json); NaN and infinity as null. */
#ifndef TENDON_TRACE_WRITER_H
#define TENDON_TRACE_WRITER_H

#include <stdio.h>

typedef struct trace_writer {
    FILE *file;                  /* NULL once closed */
    int depth;
    unsigned char has_items[64]; /* per open level: a comma is needed before the next item */
} trace_writer;

void tw_begin_object(trace_writer *w, const char *key);
void tw_end_object(trace_writer *w);
void tw_begin_array(trace_writer *w, const char *key);
void tw_end_array(trace_writer *w);
void tw_float(trace_writer *w, const char *key, float value);
void tw_double(trace_writer *w, const char *key, double value); /* up to 17 digits */
void tw_int(trace_writer *w, const char *key, long long value);
void tw_bool(trace_writer *w, const char *key, int value);
void tw_null(trace_writer *w, const char *key);
void tw_string(trace_writer *w, const char *key, const char *value); /* NULL: null */
void tw_floats(trace_writer *w, const char *key, const float *values, int count);
void tw_newline(trace_writer *w);
/* Closes the file; 1 when everything written reached it (no write and no close failed). */
int tw_close(trace_writer *w);
/* Closes the file when it is still open and removes `path`: no half-written trace. */
void tw_discard(trace_writer *w, const char *path);

#endif
