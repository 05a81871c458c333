/* tendon CLI: a JSON writer that streams, for the traces of `tendon run` (trace.h) and `tendon
 * mm run` (mm_run.c): values go to the file as they are given, so a long run never holds the
 * whole document in memory. Keys are given with each value (NULL inside arrays). Numbers are
 * written with the fewest digits that read back as the same float or double (as the other
 * commands' --json); NaN and infinity as null. */
#ifndef TENDON_TRACE_WRITER_H
#define TENDON_TRACE_WRITER_H

#include "output_file.h"
#include "tendon/base.h"

typedef struct trace_writer {
    tdn_io__output output; /* output.file: NULL once closed */
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
/* Opens path for writing (output_file.h: a file there is replaced only by tw_close, a device or
 * a FIFO written as it is). TDN_OK, or the failure with the reason in err. */
tdn_result tw_open(trace_writer *w, const char *path, tdn_error *err);
/* Closes the file and puts it at its path: TDN_OK when everything written reached it, else
 * TDN_ERR_IO with the reason in err (and what was at the path is as it was). */
tdn_result tw_close(trace_writer *w, tdn_error *err);
/* Closes the file when it is still open, leaving what was at its path as it was: no
 * half-written trace. */
void tw_discard(trace_writer *w);

#endif
