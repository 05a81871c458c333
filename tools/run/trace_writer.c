/* tendon CLI: a JSON writer that streams (see trace_writer.h). */
#include "trace_writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void raw_string(FILE *f, const char *s);

/* Before a value: the comma after the previous item of its level, and its key. */
static void item(trace_writer *w, const char *key)
{
    if (w->depth > 0) {
        if (w->has_items[w->depth - 1])
            fputc(',', w->file);
        w->has_items[w->depth - 1] = 1;
    }
    if (key) {
        raw_string(w->file, key);
        fputc(':', w->file);
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
        raw_string(w->file, value);
    else
        fputs("null", w->file);
}

static void begin(trace_writer *w, const char *key, char c)
{
    item(w, key);
    fputc(c, w->file);
    if (w->depth < (int)sizeof w->has_items)
        w->has_items[w->depth] = 0;
    w->depth++;
}

void tw_begin_object(trace_writer *w, const char *key) { begin(w, key, '{'); }
void tw_begin_array(trace_writer *w, const char *key) { begin(w, key, '['); }

void tw_end_object(trace_writer *w)
{
    w->depth--;
    fputc('}', w->file);
}

void tw_end_array(trace_writer *w)
{
    w->depth--;
    fputc(']', w->file);
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
        fputs("null", w->file);
        return;
    }
    char text[32];
    shortest(text, sizeof text, value);
    fputs(text, w->file);
}

void tw_double(trace_writer *w, const char *key, double value)
{
    item(w, key);
    if (!isfinite(value)) {
        fputs("null", w->file);
        return;
    }
    char text[40];
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, value);
        if (strtod(text, NULL) == value)
            break;
    }
    fputs(text, w->file);
}

void tw_int(trace_writer *w, const char *key, long long value)
{
    item(w, key);
    fprintf(w->file, "%lld", value);
}

void tw_bool(trace_writer *w, const char *key, int value)
{
    item(w, key);
    fputs(value ? "true" : "false", w->file);
}

void tw_null(trace_writer *w, const char *key)
{
    item(w, key);
    fputs("null", w->file);
}

void tw_floats(trace_writer *w, const char *key, const float *values, int count)
{
    tw_begin_array(w, key);
    for (int i = 0; i < count; i++)
        tw_float(w, NULL, values[i]);
    tw_end_array(w);
}

void tw_newline(trace_writer *w) { fputc('\n', w->file); }

int tw_close(trace_writer *w)
{
    int ok = !ferror(w->file);
    ok &= fclose(w->file) == 0;
    w->file = NULL;
    return ok;
}

void tw_discard(trace_writer *w, const char *path)
{
    if (w->file)
        fclose(w->file);
    w->file = NULL;
    remove(path);
}
