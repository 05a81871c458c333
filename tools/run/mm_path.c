/* tendon CLI: the scripted stick path of `tendon mm run` (see mm_path.h). */
#include "mm_path.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "json_file.h"

#define PI 3.14159265358979323846
#define MAX_SEGMENTS 100000
#define MAX_SECONDS 86400.0

float mm_radians(float degrees) { return (float)((double)degrees * PI / 180.0); }
float mm_degrees(float radians) { return (float)((double)radians * 180.0 / PI); }

void mm_path_free(mm_path *p)
{
    free(p->segments);
    memset(p, 0, sizeof *p);
}

static int fail(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return CLI_BAD_INPUT;
}

/* A number field: required or not, within [lo, hi] (lo_open: above lo). */
static int number(const cJSON *obj, const char *key, const char *where, int required, double lo, double hi, int lo_open,
                  float *out, int *present, char *why, size_t size)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (present)
        *present = v != NULL;
    if (!v) {
        if (required)
            return fail(why, size, "%s.%s: required", where, key);
        return CLI_OK;
    }
    const double d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (!cJSON_IsNumber(v) || !isfinite(d) || d < lo || d > hi || (lo_open && d <= lo)) {
        if (lo_open)
            return fail(why, size, "%s.%s: must be a number above %g and at most %g", where, key, lo, hi);
        return fail(why, size, "%s.%s: must be a number from %g to %g", where, key, lo, hi);
    }
    *out = (float)d;
    return CLI_OK;
}

static int read_segments(const cJSON *doc, mm_path *out, char *why, size_t size)
{
    static const char *const top_keys[] = { "segments", "$schema", "description", NULL };
    static const char *const keys[] = { "duration", "speed", "heading", "facing", "description", NULL };
    if (!cJSON_IsObject(doc))
        return fail(why, size,
                    "the path must be an object: {\"segments\": [{\"duration\": S, \"speed\": M_PER_S, "
                    "\"heading\": DEGREES}, ...]}");
    int code = json_check_keys(doc, "(top level)", top_keys, why, size);
    if (code != CLI_OK)
        return code;
    const cJSON *segments = cJSON_GetObjectItemCaseSensitive(doc, "segments");
    if (!cJSON_IsArray(segments) || cJSON_GetArraySize(segments) == 0)
        return fail(why, size, "segments: %s",
                    segments ? "must be an array of at least one segment" : "required: an array of segments");
    const int count = cJSON_GetArraySize(segments);
    if (count > MAX_SEGMENTS)
        return fail(why, size, "segments: %d segments, at most %d", count, MAX_SEGMENTS);
    out->segments = calloc((size_t)count, sizeof *out->segments);
    if (!out->segments) {
        snprintf(why, size, "out of memory");
        return CLI_FAILURE;
    }
    double start = 0.0;
    int i = 0;
    for (const cJSON *s = segments->child; s; s = s->next, i++) {
        char where[32];
        snprintf(where, sizeof where, "segments[%d]", i);
        if (!cJSON_IsObject(s))
            return fail(why, size, "%s: must be an object {\"duration\": S, \"speed\": M_PER_S, \"heading\": DEGREES}",
                        where);
        if ((code = json_check_keys(s, where, keys, why, size)) != CLI_OK)
            return code;
        mm_segment *seg = &out->segments[i];
        if ((code = number(s, "duration", where, 1, 0.0, MAX_SECONDS, 1, &seg->duration, NULL, why, size)) != CLI_OK ||
            (code = number(s, "speed", where, 1, 0.0, 100.0, 0, &seg->speed, NULL, why, size)) != CLI_OK ||
            (code = number(s, "heading", where, 1, -3600.0, 3600.0, 0, &seg->heading, NULL, why, size)) != CLI_OK ||
            (code = number(s, "facing", where, 0, -3600.0, 3600.0, 0, &seg->facing, &seg->has_facing, why, size)) !=
                CLI_OK)
            return code;
        if (!seg->has_facing)
            seg->facing = seg->heading;
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(s, "description");
        if (d && !cJSON_IsString(d))
            return fail(why, size, "%s.description: must be a string", where);
        if (d)
            snprintf(seg->description, sizeof seg->description, "%s", d->valuestring);
        seg->start = start;
        start += seg->duration;
        if (start > MAX_SECONDS)
            return fail(why, size, "%s: the path lasts more than %g s", where, MAX_SECONDS);
    }
    out->count = count;
    out->duration = start;
    return CLI_OK;
}

/* The document's segments into out, or the reason (naming `name`) in why; frees doc. */
static int read_path(cJSON *doc, const char *name, mm_path *out, char *why, size_t why_size)
{
    char reason[512];
    const int code = read_segments(doc, out, reason, sizeof reason);
    cJSON_Delete(doc);
    if (code != CLI_OK) {
        mm_path_free(out);
        if (code == CLI_BAD_INPUT)
            snprintf(why, why_size, "%s: %s", name, reason);
        else
            snprintf(why, why_size, "%s", reason);
    }
    return code;
}

int mm_path_load(const char *path, mm_path *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    cJSON *doc = NULL;
    int code = json_file_read(path, &doc, why, why_size);
    return code == CLI_OK ? read_path(doc, path, out, why, why_size) : code;
}

int mm_path_parse(const char *text, size_t size, const char *name, mm_path *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    cJSON *doc = NULL;
    int code = json_text_parse(text, size, name, &doc, why, why_size);
    return code == CLI_OK ? read_path(doc, name, out, why, why_size) : code;
}

/* sin and cos of an angle in degrees, exact at multiples of 90 (a heading of 90 is +X, not
 * +X plus 4e-8 of +Z). */
static void sin_cos_degrees(float degrees, float *s, float *c)
{
    double d = fmod((double)degrees, 360.0);
    d += d < 0.0 ? 360.0 : 0.0;
    static const float quarter[4][2] = { { 0.0f, 1.0f }, { 1.0f, 0.0f }, { 0.0f, -1.0f }, { -1.0f, 0.0f } };
    for (int k = 0; k < 4; k++)
        if (d == 90.0 * k) {
            *s = quarter[k][0];
            *c = quarter[k][1];
            return;
        }
    *s = (float)sin(d * PI / 180.0);
    *c = (float)cos(d * PI / 180.0);
}

tdn_mm_input mm_path_input(const mm_path *p, double t, int *segment)
{
    /* the last segment starting at or before t */
    int lo = 0, hi = p->count - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (p->segments[mid].start <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    const mm_segment *s = &p->segments[lo];
    const int after = t >= p->duration;
    tdn_mm_input in;
    const float speed = after ? 0.0f : s->speed;
    float sin_h, cos_h;
    sin_cos_degrees(s->heading, &sin_h, &cos_h);
    in.velocity = tdn_vec3_make(speed * sin_h, 0.0f, speed * cos_h);
    in.facing = mm_radians(s->facing);
    if (segment)
        *segment = after ? -1 : lo;
    return in;
}
