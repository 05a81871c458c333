/* tendon io: the motion lines of a BVH file, turned into keys as they are read.
 *
 * Each non-blank line after Frame Time is one frame of column_count values; frame f is at
 * f * Frame Time. Position channels replace the joint's OFFSET components (times the import
 * scale); components without a position channel keep the OFFSET. Rotation channels are degrees
 * and compose in the order listed as intrinsic rotations, R = R1 * R2 * R3 (worked in double
 * precision); each joint's quaternion takes the sign nearer the previous frame's.
 *
 * Repairs, with a warning: a last line cut short (the text ends inside a frame) is dropped;
 * fewer complete frames than Frames: declares keeps the ones there are (none is an error); text
 * after the declared frames is ignored. A short line followed by more frames is an error. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bvh_internal.h"
#include "bvh_number.h"

/* Frames times channels above this is refused as absurd (a gigabyte of floats). */
#define MAX_VALUES ((long long)1 << 28)

static int joint_has(const tdn_io__bvh_joint *j, int rotation)
{
    for (int k = 0; k < j->channel_count; k++)
        if ((j->channels[k] >= TDN_IO__BVH_XROTATION) == rotation)
            return 1;
    return 0;
}

/* Times and track arrays for `capacity` frames, in one scratch block. */
static tdn_result allocate_take(const tdn_io__bvh *bvh, int capacity, tdn_io__bvh_take *take)
{
    unsigned long long floats = (unsigned long long)capacity; /* the times */
    for (int j = 0; j < bvh->joint_count; j++)
        floats += (unsigned long long)capacity *
                  (3u * (unsigned)joint_has(&bvh->joints[j], 0) + 4u * (unsigned)joint_has(&bvh->joints[j], 1));
    const unsigned long long pointers = 2ull * (unsigned long long)bvh->joint_count;
    const unsigned long long bytes = pointers * sizeof(float *) + floats * sizeof(float);
    void *memory = bytes <= SIZE_MAX ? tdn_io__bvh_scratch(bvh, (size_t)bytes) : NULL;
    if (!memory)
        return tdn_io__bvh_fail(bvh, TDN_ERR_OUT_OF_MEMORY, bvh->frames_line,
                                "out of memory for %d frames (%llu bytes)", capacity, bytes);
    take->memory = memory;
    take->memory_bytes = (size_t)bytes;
    take->translations = memory;
    take->rotations = take->translations + bvh->joint_count;
    float *next = (float *)(void *)(take->rotations + bvh->joint_count);
    take->times = next;
    next += capacity;
    for (int j = 0; j < bvh->joint_count; j++) {
        take->translations[j] = take->rotations[j] = NULL;
        if (joint_has(&bvh->joints[j], 0))
            take->translations[j] = next, next += (size_t)capacity * 3;
        if (joint_has(&bvh->joints[j], 1))
            take->rotations[j] = next, next += (size_t)capacity * 4;
    }
    return TDN_OK;
}

/* times[f] = f * Frame Time as floats, which must increase strictly and stay finite. */
static tdn_result fill_times(const tdn_io__bvh *bvh, float *times, int capacity)
{
    for (int f = 0; f < capacity; f++) {
        times[f] = (float)((double)f * bvh->frame_time);
        if (!isfinite(times[f]) || (f > 0 && !(times[f] > times[f - 1])))
            return tdn_io__bvh_fail(bvh, TDN_ERR_INVALID_DATA, bvh->frame_time_line,
                                    "Frame Time %g s cannot time %d frames in single precision (frame %d)",
                                    bvh->frame_time, capacity, f);
    }
    return TDN_OK;
}

/* q = q * (rotation of `degrees` about axis a), q as x, y, z, w. */
static void turn(double q[4], int a, float degrees)
{
    const double half = (double)degrees * (3.14159265358979323846 / 360.0);
    const double s = sin(half), c = cos(half);
    const int b = (a + 1) % 3, d = (a + 2) % 3;
    double x[4];
    x[a] = c * q[a] + q[3] * s;
    x[b] = c * q[b] + q[d] * s;
    x[d] = c * q[d] - q[b] * s;
    x[3] = c * q[3] - q[a] * s;
    memcpy(q, x, sizeof x);
}

/* One frame's values (row) into the take's keys at `frame`. Positions within
 * TDN_IO_MAX_LENGTH (so that model space stays finite however long the chain) and rotations
 * within TDN_IO_MAX_VALUE degrees. */
static tdn_result store_frame(const tdn_io__bvh *bvh, tdn_io__bvh_take *take, const float *row, int frame,
                              long long line)
{
    for (int j = 0; j < bvh->joint_count; j++) {
        const tdn_io__bvh_joint *joint = &bvh->joints[j];
        const float *values = row + joint->first_column;
        for (int k = 0; k < joint->channel_count; k++) {
            const int position = joint->channels[k] < TDN_IO__BVH_XROTATION;
            if (!tdn_io__within(values[k], position ? TDN_IO_MAX_LENGTH : TDN_IO_MAX_VALUE))
                return tdn_io__bvh_fail(bvh, TDN_ERR_INVALID_DATA, line,
                                        "value %d (%g, joint '%s') is beyond +-%g, the largest %s tendon reads",
                                        joint->first_column + k + 1, (double)values[k], joint->name,
                                        (double)(position ? TDN_IO_MAX_LENGTH : TDN_IO_MAX_VALUE),
                                        position ? "position" : "rotation in degrees");
        }
        if (take->translations[j]) {
            float t[3] = { joint->offset.x, joint->offset.y, joint->offset.z };
            for (int k = 0; k < joint->channel_count; k++)
                if (joint->channels[k] < TDN_IO__BVH_XROTATION)
                    t[joint->channels[k]] = values[k] * bvh->scale;
            memcpy(take->translations[j] + (size_t)frame * 3, t, sizeof t);
        }
        if (take->rotations[j]) {
            double q[4] = { 0.0, 0.0, 0.0, 1.0 };
            for (int k = 0; k < joint->channel_count; k++)
                if (joint->channels[k] >= TDN_IO__BVH_XROTATION)
                    turn(q, joint->channels[k] - TDN_IO__BVH_XROTATION, values[k]);
            float *key = take->rotations[j] + (size_t)frame * 4;
            const float *previous = key - 4;
            const double sign = frame > 0 && q[0] * previous[0] + q[1] * previous[1] + q[2] * previous[2] +
                                                     q[3] * previous[3] <
                                                 0.0
                                    ? -1.0
                                    : 1.0;
            for (int i = 0; i < 4; i++)
                key[i] = (float)(sign * q[i]);
        }
    }
    return TDN_OK;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

typedef enum line_status { LINE_READ, LINE_TOO_LONG, LINE_BAD_VALUE } line_status;

/* The values of the line at the cursor, up to its end, into row (at most `columns`); *count
 * gets how many were read. LINE_BAD_VALUE leaves the bad token in *bad and its status in
 * *number. */
static line_status read_line(tdn_io__bvh_cursor *c, float *row, int columns, int *count, tdn_io__bvh_token *bad,
                             tdn_io__number_status *number)
{
    int n = 0;
    for (;;) {
        while (c->p < c->end && is_blank(*c->p))
            c->p++;
        if (c->p == c->end || *c->p == '\n' || *c->p == '\r')
            break;
        const char *s = c->p;
        while (c->p < c->end && !tdn_io__bvh_is_space(*c->p))
            c->p++;
        if (n == columns)
            return *count = n, LINE_TOO_LONG;
        *number = tdn_io__read_float(s, (size_t)(c->p - s), &row[n]);
        if (*number != TDN_IO__NUMBER_OK) {
            bad->s = s, bad->n = (size_t)(c->p - s), bad->line = c->line;
            return *count = n, LINE_BAD_VALUE;
        }
        n++;
    }
    *count = n;
    return LINE_READ;
}

/* The line starting at `p` holds fewer than `columns` tokens and only whitespace follows it:
 * the text was cut inside this frame. */
static int cut_inside_last_frame(const char *p, const char *end, int columns)
{
    int tokens = 0;
    while (p < end && *p != '\n' && *p != '\r') {
        while (p < end && is_blank(*p))
            p++;
        if (p < end && !tdn_io__bvh_is_space(*p))
            tokens++;
        while (p < end && !tdn_io__bvh_is_space(*p))
            p++;
    }
    while (p < end && tdn_io__bvh_is_space(*p))
        p++;
    return tokens < columns && p == end;
}

/* The rest of the Frame Time line must be blank. */
static tdn_result end_header_line(tdn_io__bvh *bvh)
{
    tdn_io__bvh_cursor *c = &bvh->at;
    while (c->p < c->end && is_blank(*c->p))
        c->p++;
    if (c->p < c->end && *c->p != '\n' && *c->p != '\r') {
        tdn_io__bvh_token t = tdn_io__bvh_next(c);
        return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line, "unexpected '%.*s' after the Frame Time",
                                TDN_IO__BVH_SHOW(t));
    }
    return TDN_OK;
}

/* Reads up to `capacity` frames; *cut is set when the text ended inside a frame. */
static tdn_result read_lines(tdn_io__bvh *bvh, tdn_io__bvh_take *take, float *row, int capacity, int *cut)
{
    tdn_io__bvh_cursor *c = &bvh->at;
    const int columns = bvh->column_count;
    *cut = 0;
    while (take->frame_count < capacity) {
        tdn_io__bvh_skip_space(c);
        if (c->p == c->end)
            return TDN_OK;
        const char *start = c->p;
        const long long line = c->line;
        int count;
        tdn_io__bvh_token bad;
        tdn_io__number_status number = TDN_IO__NUMBER_OK;
        line_status status = read_line(c, row, columns, &count, &bad, &number);
        if (status == LINE_TOO_LONG)
            return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, line, "more than the %d values the CHANNELS declare", columns);
        if ((status == LINE_BAD_VALUE || count < columns) && cut_inside_last_frame(start, c->end, columns)) {
            *cut = 1;
            return TDN_OK;
        }
        if (status == LINE_BAD_VALUE && number == TDN_IO__NUMBER_NOT_FINITE)
            return tdn_io__bvh_fail(bvh, TDN_ERR_INVALID_DATA, line, "value %d ('%.*s') is not finite", count + 1,
                                    TDN_IO__BVH_SHOW(bad));
        if (status == LINE_BAD_VALUE)
            return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, line, "value %d ('%.*s') is not a number", count + 1,
                                    TDN_IO__BVH_SHOW(bad));
        if (count < columns)
            return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, line, "%d values where the CHANNELS declare %d", count,
                                    columns);
        tdn_result r = store_frame(bvh, take, row, take->frame_count, line);
        if (r != TDN_OK)
            return r;
        take->frame_count++;
    }
    return TDN_OK;
}

tdn_result tdn_io__bvh_read_frames(tdn_io__bvh *bvh, tdn_asset *asset, tdn_io__bvh_take *take)
{
    memset(take, 0, sizeof *take);
    const int columns = bvh->column_count, declared = bvh->declared_frames;
    if ((long long)declared * columns > MAX_VALUES)
        return tdn_io__bvh_fail(bvh, TDN_ERR_INVALID_DATA, bvh->frames_line,
                                "%d frames of %d channels is more than %lld values", declared, columns, MAX_VALUES);
    tdn_result r = end_header_line(bvh);
    if (r != TDN_OK)
        return r;
    int capacity = declared;
    if (columns > 0) {
        /* A frame takes at least 2 * columns bytes (one-digit values, one separator each), so
         * the text bounds what is worth allocating, whatever Frames: says. */
        const long long fit = ((long long)(bvh->at.end - bvh->at.p) + 1) / (2ll * columns);
        if (fit < capacity)
            capacity = (int)fit;
    }
    /* One line's values, reused for every line. */
    const size_t line_bytes = sizeof(float) * (size_t)columns;
    float *row = NULL;
    if (columns > 0 && capacity > 0) {
        r = allocate_take(bvh, capacity, take);
        if (r == TDN_OK)
            r = fill_times(bvh, take->times, capacity);
        row = r == TDN_OK ? tdn_io__bvh_scratch(bvh, line_bytes) : NULL;
        if (r == TDN_OK && !row)
            r = tdn_io__bvh_fail(bvh, TDN_ERR_OUT_OF_MEMORY, bvh->frames_line, "out of memory for a motion line");
    }
    int cut = 0;
    if (r == TDN_OK && row)
        r = read_lines(bvh, take, row, capacity, &cut);
    else if (r == TDN_OK && columns == 0)
        take->frame_count = declared; /* no channels: every frame is the rest pose, nothing to read */
    tdn_io__bvh_scratch_free(bvh, row, line_bytes);
    if (r != TDN_OK)
        return r;

    if (take->frame_count == 0) {
        while (tdn_io__bvh_next(&bvh->at).n > 0) /* to name the last line */
            ;
        return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, tdn_io__bvh_last_text_line(&bvh->at),
                                "no complete frame of %d values (Frames: %d)", columns, declared);
    }
    const long long last_line = tdn_io__bvh_last_text_line(&bvh->at);
    tdn_io__bvh_skip_space(&bvh->at);
    const int rest = bvh->at.p != bvh->at.end; /* short of the declared frames, only a cut one can be left */
    if (take->frame_count < declared)
        r = tdn_io__asset_warn(asset,
                               "Frames: %d, but the motion holds %d complete frames%s (it ends at line %lld); "
                               "loaded %d",
                               declared, take->frame_count, cut || rest ? " and a cut one" : "", last_line,
                               take->frame_count);
    else if (rest)
        r = tdn_io__asset_warn(asset, "text after the %d declared frames (from line %lld) is ignored", declared,
                               bvh->at.line);
    if (r != TDN_OK)
        return tdn_io__bvh_fail(bvh, r, last_line, "out of memory for a warning");
    return TDN_OK;
}

void tdn_io__bvh_take_free(const tdn_io__bvh *bvh, tdn_io__bvh_take *take)
{
    tdn_io__bvh_scratch_free(bvh, take->memory, take->memory_bytes);
    memset(take, 0, sizeof *take);
}
