/* tendon io: the HIERARCHY section of a BVH file and the MOTION header.
 *
 * Grammar (tokens separated by any whitespace):
 *   HIERARCHY (ROOT name { body })+ MOTION
 *   body: OFFSET x y z, at most one CHANNELS n kind*n (n = 0..6, each kind at most once;
 *         kinds are Xposition .. Zrotation in any letter case),
 *         JOINT name { body }, End Site { OFFSET x y z }, in any order
 *   Frames: count  Frame Time: seconds
 * A joint's name is one token. Joints are read without recursion, so nesting depth costs no
 * stack. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bvh_internal.h"
#include "bvh_number.h"

static const char *const channel_names[TDN_IO__BVH_MAX_CHANNELS] = { "xposition", "yposition", "zposition",
                                                                     "xrotation", "yrotation", "zrotation" };

/* The channel kind a token names (any case), or -1. */
static int channel_kind(tdn_io__bvh_token t)
{
    if (t.n != 9)
        return -1;
    for (int k = 0; k < TDN_IO__BVH_MAX_CHANNELS; k++) {
        int same = 1;
        for (size_t i = 0; i < 9 && same; i++) {
            char c = t.s[i] >= 'A' && t.s[i] <= 'Z' ? (char)(t.s[i] - 'A' + 'a') : t.s[i];
            same = c == channel_names[k][i];
        }
        if (same)
            return k;
    }
    return -1;
}

static tdn_result ended(tdn_io__bvh *bvh, const char *inside)
{
    return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, tdn_io__bvh_last_text_line(&bvh->at), "the text ends %s", inside);
}

/* A finite number from the next token; `what` names it in errors. */
static tdn_result read_number(tdn_io__bvh *bvh, const char *what, float *out)
{
    tdn_io__bvh_token t = tdn_io__bvh_next(&bvh->at);
    if (t.n == 0)
        return ended(bvh, what);
    switch (tdn_io__read_float(t.s, t.n, out)) {
    case TDN_IO__NUMBER_OK:
        return TDN_OK;
    case TDN_IO__NUMBER_NOT_FINITE:
        return tdn_io__bvh_fail(bvh, TDN_ERR_INVALID_DATA, t.line, "%s is not finite ('%.*s')", what,
                                TDN_IO__BVH_SHOW(t));
    default:
        return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line, "%s: '%.*s' is not a number", what, TDN_IO__BVH_SHOW(t));
    }
}

/* OFFSET's three numbers, times the import scale. */
static tdn_result read_offset(tdn_io__bvh *bvh, tdn_vec3 *offset)
{
    float v[3];
    for (int i = 0; i < 3; i++) {
        tdn_result r = read_number(bvh, "an OFFSET value", &v[i]);
        if (r != TDN_OK)
            return r;
        if (!tdn_io__within(v[i], TDN_IO_MAX_LENGTH))
            return tdn_io__bvh_fail(bvh, TDN_ERR_INVALID_DATA, bvh->at.line,
                                    "OFFSET value %g is beyond +-%g, the longest length tendon reads", (double)v[i],
                                    (double)TDN_IO_MAX_LENGTH);
        v[i] *= bvh->scale;
    }
    *offset = tdn_vec3_make(v[0], v[1], v[2]);
    return TDN_OK;
}

/* The next token, which must be `word`; *found (may be NULL) is it. */
static tdn_result expect(tdn_io__bvh *bvh, const char *word, const char *after, tdn_io__bvh_token *found)
{
    tdn_io__bvh_token t = tdn_io__bvh_next(&bvh->at);
    if (found)
        *found = t;
    if (t.n == 0)
        return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, tdn_io__bvh_last_text_line(&bvh->at),
                                "the text ends where '%s' should follow %s", word, after);
    if (!tdn_io__bvh_token_is(t, word))
        return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line, "expected '%s' after %s, found '%.*s'", word, after,
                                TDN_IO__BVH_SHOW(t));
    return TDN_OK;
}

/* The indentation of the line s is on: the spaces and tabs it starts with. */
static long long indentation_of(const tdn_io__bvh *bvh, const char *s)
{
    const char *q = s;
    while (q > bvh->at.begin && q[-1] != '\n' && q[-1] != '\r')
        q--;
    long long n = 0;
    while (q + n < s && (q[n] == ' ' || q[n] == '\t'))
        n++;
    return n;
}

/* A joint's name and its '{'; the joint is added with parent `parent`. */
static tdn_result open_joint(tdn_io__bvh *bvh, int parent, long long line)
{
    if (bvh->joint_count == TDN_MAX_JOINTS)
        return tdn_io__bvh_fail(bvh, TDN_ERR_INVALID_DATA, line, "more than %d joints", TDN_MAX_JOINTS);
    tdn_io__bvh_token name = tdn_io__bvh_next(&bvh->at);
    if (name.n == 0)
        return ended(bvh, "where a joint name should be");
    if (tdn_io__bvh_token_is(name, "{") || tdn_io__bvh_token_is(name, "}"))
        return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, name.line, "a joint needs a name before '%.*s'",
                                TDN_IO__BVH_SHOW(name));
    if (name.n >= TDN_MAX_JOINT_NAME)
        return tdn_io__bvh_fail(bvh, TDN_ERR_INVALID_DATA, name.line, "joint name '%.*s...' is longer than %d bytes",
                                TDN_IO__BVH_SHOW(name), TDN_MAX_JOINT_NAME - 1);
    if (bvh->joint_count == bvh->joint_capacity) {
        int capacity = bvh->joint_capacity ? 2 * bvh->joint_capacity : 32;
        if (capacity > TDN_MAX_JOINTS)
            capacity = TDN_MAX_JOINTS;
        tdn_io__bvh_joint *grown = tdn_io__bvh_scratch(bvh, sizeof *grown * (size_t)capacity);
        if (!grown)
            return tdn_io__bvh_fail(bvh, TDN_ERR_OUT_OF_MEMORY, line, "out of memory for %d joints", capacity);
        if (bvh->joint_count)
            memcpy(grown, bvh->joints, sizeof *grown * (size_t)bvh->joint_count);
        tdn_io__bvh_scratch_free(bvh, bvh->joints, sizeof *grown * (size_t)bvh->joint_capacity);
        bvh->joints = grown;
        bvh->joint_capacity = capacity;
    }
    tdn_io__bvh_joint *j = &bvh->joints[bvh->joint_count];
    memset(j, 0, sizeof *j);
    memcpy(j->name, name.s, name.n);
    j->parent = parent;
    j->line = line;
    j->channel_count = -1;
    char after[TDN_MAX_JOINT_NAME + 16];
    snprintf(after, sizeof after, "joint '%s'", j->name);
    bvh->joint_count++;
    tdn_io__bvh_token brace;
    tdn_result r = expect(bvh, "{", after, &brace);
    j->brace_line = brace.line;
    j->brace_indent = r == TDN_OK ? indentation_of(bvh, brace.s) : 0;
    return r;
}

/* CHANNELS' count and kinds. */
static tdn_result read_channels(tdn_io__bvh *bvh, tdn_io__bvh_joint *j, long long line)
{
    if (j->channel_count >= 0)
        return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, line, "joint '%s' has a second CHANNELS line", j->name);
    tdn_io__bvh_token t = tdn_io__bvh_next(&bvh->at);
    if (t.n == 0)
        return ended(bvh, "after CHANNELS");
    if (t.n != 1 || t.s[0] < '0' || t.s[0] > '0' + TDN_IO__BVH_MAX_CHANNELS)
        return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line, "CHANNELS count '%.*s' is not 0 to %d", TDN_IO__BVH_SHOW(t),
                                TDN_IO__BVH_MAX_CHANNELS);
    int count = t.s[0] - '0';
    unsigned listed = 0;
    for (int i = 0; i < count; i++) {
        t = tdn_io__bvh_next(&bvh->at);
        if (t.n == 0)
            return ended(bvh, "inside a CHANNELS list");
        int kind = channel_kind(t);
        if (kind < 0)
            return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line,
                                    "CHANNELS %d lists %d names, then '%.*s' (expected Xposition .. Zrotation)", count,
                                    i, TDN_IO__BVH_SHOW(t));
        if (listed & (1u << kind))
            return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line, "channel '%.*s' is listed twice", TDN_IO__BVH_SHOW(t));
        listed |= 1u << kind;
        j->channels[i] = (unsigned char)kind;
    }
    j->channel_count = count;
    j->first_column = bvh->column_count;
    bvh->column_count += count;
    return TDN_OK;
}

/* "End Site { OFFSET x y z }" after its "End"; the site is checked and dropped (not a joint). */
static tdn_result read_end_site(tdn_io__bvh *bvh)
{
    tdn_vec3 ignored;
    tdn_result r = expect(bvh, "Site", "'End'", NULL);
    if (r == TDN_OK)
        r = expect(bvh, "{", "'End Site'", NULL);
    if (r == TDN_OK)
        r = expect(bvh, "OFFSET", "'End Site {'", NULL);
    if (r == TDN_OK)
        r = read_offset(bvh, &ignored);
    if (r == TDN_OK)
        r = expect(bvh, "}", "an End Site's OFFSET", NULL);
    return r;
}

/* `what` (MOTION, another ROOT, the end of the text) came while joint j's block is open: a '}'
 * is missing. Braces alone cannot tell which one (each later '}' closes the joint before), so
 * the joint of the first '}' indented unlike the line of its '{' (`suspect`, -1: none) is named
 * as the likely one. */
static tdn_result brace_missing(tdn_io__bvh *bvh, long long line, const char *what, const tdn_io__bvh_joint *j,
                                int suspect)
{
    char hint[TDN_MAX_JOINT_NAME + 80] = "";
    if (suspect >= 0)
        snprintf(hint, sizeof hint, " (by the indentation, the one of joint '%s', opened at line %lld)",
                 bvh->joints[suspect].name, bvh->joints[suspect].brace_line);
    return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, line, "%s inside joint '%s' (opened at line %lld): a '}' is missing%s",
                            what, j->name, j->brace_line, hint);
}

tdn_result tdn_io__bvh_read_hierarchy(tdn_io__bvh *bvh)
{
    tdn_io__bvh_token t = tdn_io__bvh_next(&bvh->at);
    if (t.n == 0)
        return ended(bvh, "before HIERARCHY");
    if (!tdn_io__bvh_token_is(t, "HIERARCHY"))
        return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line, "a BVH file starts with HIERARCHY, not '%.*s'",
                                TDN_IO__BVH_SHOW(t));
    int open = -1;    /* the joint whose body is being read */
    int suspect = -1; /* the first joint closed by a '}' indented unlike its '{' line */
    for (;;) {
        t = tdn_io__bvh_next(&bvh->at);
        tdn_result r = TDN_OK;
        tdn_io__bvh_joint *j = open >= 0 ? &bvh->joints[open] : NULL;
        if (t.n == 0) {
            if (!j)
                return ended(bvh, "before MOTION");
            return brace_missing(bvh, tdn_io__bvh_last_text_line(&bvh->at), "the text ends", j, suspect);
        }
        if (!j) {
            if (tdn_io__bvh_token_is(t, "MOTION")) {
                if (bvh->joint_count == 0)
                    return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line, "MOTION before any ROOT joint");
                return TDN_OK;
            }
            if (!tdn_io__bvh_token_is(t, "ROOT"))
                return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line, "expected ROOT or MOTION, found '%.*s'",
                                        TDN_IO__BVH_SHOW(t));
            r = open_joint(bvh, -1, t.line);
            open = bvh->joint_count - 1;
        } else if (tdn_io__bvh_token_is(t, "MOTION") || tdn_io__bvh_token_is(t, "ROOT")) {
            return brace_missing(bvh, t.line, tdn_io__bvh_token_is(t, "ROOT") ? "ROOT" : "MOTION", j, suspect);
        } else if (tdn_io__bvh_token_is(t, "JOINT")) {
            r = open_joint(bvh, open, t.line);
            open = bvh->joint_count - 1;
        } else if (tdn_io__bvh_token_is(t, "OFFSET")) {
            if (j->has_offset)
                return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line, "joint '%s' has a second OFFSET", j->name);
            j->has_offset = 1;
            r = read_offset(bvh, &j->offset);
        } else if (tdn_io__bvh_token_is(t, "CHANNELS")) {
            r = read_channels(bvh, j, t.line);
        } else if (tdn_io__bvh_token_is(t, "End")) {
            r = read_end_site(bvh);
        } else if (tdn_io__bvh_token_is(t, "}")) {
            if (!j->has_offset)
                return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line, "joint '%s' (line %lld) has no OFFSET", j->name,
                                        j->line);
            if (j->channel_count < 0)
                j->channel_count = 0;
            if (suspect < 0 && indentation_of(bvh, t.s) != j->brace_indent)
                suspect = open;
            open = j->parent;
        } else if (channel_kind(t) >= 0) {
            return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line,
                                    "channel name '%.*s' after joint '%s' listed its CHANNELS", TDN_IO__BVH_SHOW(t),
                                    j->name);
        } else {
            return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line, "unknown keyword '%.*s' in joint '%s'",
                                    TDN_IO__BVH_SHOW(t), j->name);
        }
        if (r != TDN_OK)
            return r;
    }
}

/* A frame count: decimal digits. A minus sign is read so that "-3" is named as a bad count. */
static tdn_result read_frame_count(tdn_io__bvh *bvh)
{
    tdn_io__bvh_token t = tdn_io__bvh_next(&bvh->at);
    if (t.n == 0)
        return ended(bvh, "after 'Frames:'");
    const int negative = t.s[0] == '-';
    long long count = 0;
    for (size_t i = negative ? 1 : 0; i < t.n; i++) {
        if (t.s[i] < '0' || t.s[i] > '9')
            return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line, "frame count '%.*s' is not a whole number",
                                    TDN_IO__BVH_SHOW(t));
        if (count <= INT_MAX) /* stays far below overflow; anything larger is refused below */
            count = count * 10 + (t.s[i] - '0');
    }
    if (negative && t.n == 1)
        return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line, "frame count '-' is not a whole number");
    bvh->frames_line = t.line;
    if (negative || count == 0)
        return tdn_io__bvh_fail(bvh, TDN_ERR_INVALID_DATA, t.line, "frame count %.*s: a take needs at least one frame",
                                TDN_IO__BVH_SHOW(t));
    if (count > INT_MAX)
        return tdn_io__bvh_fail(bvh, TDN_ERR_INVALID_DATA, t.line, "frame count %.*s is absurd", TDN_IO__BVH_SHOW(t));
    bvh->declared_frames = (int)count;
    return TDN_OK;
}

tdn_result tdn_io__bvh_read_motion_header(tdn_io__bvh *bvh)
{
    tdn_result r = expect(bvh, "Frames:", "MOTION", NULL);
    if (r == TDN_OK)
        r = read_frame_count(bvh);
    if (r == TDN_OK)
        r = expect(bvh, "Frame", "the frame count", NULL);
    if (r == TDN_OK)
        r = expect(bvh, "Time:", "'Frame'", NULL);
    if (r != TDN_OK)
        return r;
    tdn_io__bvh_token t = tdn_io__bvh_next(&bvh->at);
    if (t.n == 0)
        return ended(bvh, "after 'Frame Time:'");
    bvh->frame_time_line = t.line;
    switch (tdn_io__read_double(t.s, t.n, &bvh->frame_time)) {
    case TDN_IO__NUMBER_OK:
        if (bvh->frame_time >= TDN_IO__BVH_MIN_FRAME_TIME && bvh->frame_time <= TDN_IO_MAX_TIME)
            return TDN_OK;
        return tdn_io__bvh_fail(bvh, TDN_ERR_INVALID_DATA, t.line, "Frame Time %.*s is not a time in [%g, %g] s",
                                TDN_IO__BVH_SHOW(t), TDN_IO__BVH_MIN_FRAME_TIME, (double)TDN_IO_MAX_TIME);
    case TDN_IO__NUMBER_NOT_FINITE:
        return tdn_io__bvh_fail(bvh, TDN_ERR_INVALID_DATA, t.line, "Frame Time '%.*s' is not finite",
                                TDN_IO__BVH_SHOW(t));
    default:
        return tdn_io__bvh_fail(bvh, TDN_ERR_PARSE, t.line, "Frame Time '%.*s' is not a number", TDN_IO__BVH_SHOW(t));
    }
}
