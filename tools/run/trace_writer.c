/* tendon CLI: a JSON writer that streams (see trace_writer.h). */
#include "trace_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void raw_string(FILE *f, const char *s);

/* Before a value: the comma after the previous item of its level, and its key. */
static void item(trace_writer *w, const char *key)
{
    if (w->depth > 0) {
        if (w->has_items[w->depth - 1])
            fputc(',', w->output.file);
        w->has_items[w->depth - 1] = 1;
    }
    if (key) {
        raw_string(w->output.file, key);
        fputc(':', w->output.file);
    }
}

static void raw_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void tw_string(trace_writer *w, const char *key, const char *value)
{
    item(w, key);
    if (value)
        raw_string(w->output.file, value);
    else
        fputs("null", w->output.file);
}

static void begin(trace_writer *w, const char *key, char c)
{
    item(w, key);
    fputc(c, w->output.file);
    if (w->depth < (int)sizeof w->has_items)
        w->has_items[w->depth] = 0;
    w->depth++;
}

void tw_begin_object(trace_writer *w, const char *key) { begin(w, key, '{'); }
void tw_begin_array(trace_writer *w, const char *key) { begin(w, key, '['); }

void tw_end_object(trace_writer *w)
{
    w->depth--;
    fputc('}', w->output.file);
}

void tw_end_array(trace_writer *w)
{
    w->depth--;
    fputc(']', w->output.file);
}

static void shortest(char *text, size_t size, float f)
{
    for (int digits = 1; digits <= 9; digits++) {
        snprintf(text, size, "%.*g", digits, (double)f);
        if (strtof(text, NULL) == f)
            return;
    }
}

void tw_float(trace_writer *w, const char *key, float value)
{
    item(w, key);
    if (!isfinite(value)) {
        fputs("null", w->output.file);
        return;
    }
    char text[32];
    shortest(text, sizeof text, value);
    fputs(text, w->output.file);
}

void tw_double(trace_writer *w, const char *key, double value)
{
    item(w, key);
    if (!isfinite(value)) {
        fputs("null", w->output.file);
        return;
    }
    char text[40];
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, value);
        if (strtod(text, NULL) == value)
            break;
    }
    fputs(text, w->output.file);
}

void tw_int(trace_writer *w, const char *key, long long value)
{
    item(w, key);
    fprintf(w->output.file, "%lld", value);
}

void tw_bool(trace_writer *w, const char *key, int value)
{
    item(w, key);
    fputs(value ? "true" : "false", w->output.file);
}

void tw_null(trace_writer *w, const char *key)
{
    item(w, key);
    fputs("null", w->output.file);
}

void tw_floats(trace_writer *w, const char *key, const float *values, int count)
{
    tw_begin_array(w, key);
    for (int i = 0; i < count; i++)
        tw_float(w, NULL, values[i]);
    tw_end_array(w);
}

void tw_newline(trace_writer *w) { fputc('\n', w->output.file); }

tdn_result tw_open(trace_writer *w, const char *path, tdn_error *err)
{
    memset(w, 0, sizeof *w);
    return tdn_io__output_open(&w->output, path, err);
}

tdn_result tw_close(trace_writer *w, tdn_error *err) { return tdn_io__output_commit(&w->output, err); }

void tw_discard(trace_writer *w) { tdn_io__output_discard(&w->output); }
