/* tendon_bench: printing result rows. */
#include "bench_report.h"

#include <math.h>
#include <string.h>

#include "tendon/version.h"

/* The instruction set this build targets (TENDON_ARCH), which the SIMD paths follow. */
#if defined(__AVX512F__)
#  define BENCH_ISA "avx512"
#elif defined(__AVX2__) && defined(__FMA__)
#  define BENCH_ISA "avx2+fma"
#elif defined(__SSE2__)
#  define BENCH_ISA "sse2"
#else
#  define BENCH_ISA "generic"
#endif

bench_row bench_row_make(const char *workload, int joints, const char *variant, int threads)
{
    bench_row row = { 0 };
    row.workload = workload;
    row.joints = joints;
    row.variant = variant;
    row.threads = threads;
    row.median_ns = row.min_ns = BENCH_NONE;
    row.ns_per_joint = row.ns_per_vertex = row.chars_per_s = row.bytes_per_clip = BENCH_NONE;
    bench_row_add_text(&row, "isa", BENCH_ISA);
    return row;
}

void bench_row_add_number(bench_row *row, const char *key, double number)
{
    if (row->extra_count < BENCH_MAX_EXTRA)
        row->extra[row->extra_count++] = (bench_extra){ key, BENCH_NUMBER, number, NULL };
}

void bench_row_add_text(bench_row *row, const char *key, const char *text)
{
    if (row->extra_count < BENCH_MAX_EXTRA)
        row->extra[row->extra_count++] = (bench_extra){ key, BENCH_TEXT, 0.0, text };
}

void bench_row_add_bool(bench_row *row, const char *key, int value)
{
    if (row->extra_count < BENCH_MAX_EXTRA)
        row->extra[row->extra_count++] = (bench_extra){ key, BENCH_BOOL, value ? 1.0 : 0.0, NULL };
}

/* Strings here are the program's own identifiers: no characters that need escaping. */
static void json_string(FILE *out, const char *s)
{
    if (s)
        fprintf(out, "\"%s\"", s);
    else
        fputs("null", out);
}

static void json_number(FILE *out, double v)
{
    if (v < 0.0 || !isfinite(v))
        fputs("null", out);
    else if (v == floor(v) && v < 1e15)
        fprintf(out, "%.0f", v);
    else
        fprintf(out, "%.6g", v);
}

void bench_print_json(FILE *out, const bench_row *row)
{
    fputs("{\"workload\": ", out);
    json_string(out, row->workload);
    fputs(", \"joints\": ", out);
    json_number(out, row->joints > 0 ? row->joints : BENCH_NONE);
    fputs(", \"variant\": ", out);
    json_string(out, row->variant);
    fprintf(out, ", \"threads\": %d", row->threads);
    const char *keys[6] = { "median_ns", "min_ns", "ns_per_joint", "ns_per_vertex", "chars_per_s", "bytes_per_clip" };
    const double values[6] = { row->median_ns,     row->min_ns,      row->ns_per_joint,
                               row->ns_per_vertex, row->chars_per_s, row->bytes_per_clip };
    for (int i = 0; i < 6; i++) {
        fprintf(out, ", \"%s\": ", keys[i]);
        json_number(out, values[i]);
    }
    for (int i = 0; i < row->extra_count; i++) {
        fprintf(out, ", \"%s\": ", row->extra[i].key);
        if (row->extra[i].kind == BENCH_TEXT)
            json_string(out, row->extra[i].text);
        else if (row->extra[i].kind == BENCH_BOOL)
            fputs(row->extra[i].number != 0.0 ? "true" : "false", out);
        else
            json_number(out, row->extra[i].number);
    }
    fputs("}\n", out);
    fflush(out);
}

void bench_print_table_header(FILE *out)
{
    fprintf(out, "tendon %s, built for %s\n", tdn_version_string(), BENCH_ISA);
    fprintf(out, "%-11s %6s %-24s %7s %12s %12s  %s\n", "workload", "joints", "variant", "threads", "median", "min",
            "per unit");
}

/* Durations in the unit that keeps 3-4 significant digits readable. */
static void print_duration(FILE *out, double ns)
{
    if (ns >= 1e6)
        fprintf(out, " %9.3f ms", ns / 1e6);
    else if (ns >= 1e4)
        fprintf(out, " %9.3f us", ns / 1e3);
    else
        fprintf(out, " %9.1f ns", ns);
}

/* A text field of the row, or NULL. */
static const char *row_text(const bench_row *row, const char *key)
{
    for (int i = 0; i < row->extra_count; i++)
        if (row->extra[i].kind == BENCH_TEXT && strcmp(row->extra[i].key, key) == 0)
            return row->extra[i].text;
    return NULL;
}

void bench_print_table_row(FILE *out, const bench_row *row)
{
    /* The column reads "solver variant" where a workload times several solvers (ik), whose
     * rows would otherwise differ only in a JSON field. */
    const char *variant = row->variant ? row->variant : "-", *solver = row_text(row, "solver");
    char label[64];
    if (solver)
        snprintf(label, sizeof label, "%s %s", solver, variant);
    fprintf(out, "%-11s %6d %-24s %7d", row->workload, row->joints, solver ? label : variant, row->threads);
    print_duration(out, row->median_ns);
    print_duration(out, row->min_ns);
    fputs(" ", out);
    if (row->ns_per_joint >= 0.0)
        fprintf(out, " %.2f ns/joint", row->ns_per_joint);
    if (row->ns_per_vertex >= 0.0)
        fprintf(out, " %.2f ns/vertex", row->ns_per_vertex);
    if (row->chars_per_s >= 0.0)
        fprintf(out, " %.0f chars/s", row->chars_per_s);
    if (row->bytes_per_clip >= 0.0)
        fprintf(out, " %.1f KiB/clip", row->bytes_per_clip / 1024.0);
    const char *mode = row_text(row, "mode"); /* what tells apart rows of one variant */
    if (mode)
        fprintf(out, " (%s)", mode);
    fputs("\n", out);
    fflush(out);
}
