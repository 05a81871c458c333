/* tendon io: BVH import internals shared by bvh.c, bvh_hierarchy.c and bvh_motion.c (not
 * installed).
 *
 * The text is read in place (it is not NUL-terminated): a cursor walks tokens, runs of
 * non-whitespace, and counts lines so that every error can say "line N". Temporary memory
 * comes from the asset's allocator and is returned before the importer does. */
#ifndef TENDON_IO_BVH_INTERNAL_H
#define TENDON_IO_BVH_INTERNAL_H

#include "asset_internal.h"

typedef struct tdn_io__bvh_cursor {
    const char *begin, *p, *end;
    long long line; /* 1-based line of *p */
} tdn_io__bvh_cursor;

typedef struct tdn_io__bvh_token {
    const char *s;
    size_t n; /* 0: the text ended */
    long long line;
} tdn_io__bvh_token;

/* Channel kinds; axis = kind % 3 (x, y, z). */
enum {
    TDN_IO__BVH_XPOSITION,
    TDN_IO__BVH_YPOSITION,
    TDN_IO__BVH_ZPOSITION,
    TDN_IO__BVH_XROTATION,
    TDN_IO__BVH_YROTATION,
    TDN_IO__BVH_ZROTATION
};
#define TDN_IO__BVH_MAX_CHANNELS 6
/* Frame Time in [this, TDN_IO_MAX_TIME] seconds: up to 10,000 frames a second. */
#define TDN_IO__BVH_MIN_FRAME_TIME 1e-4

typedef struct tdn_io__bvh_joint {
    char name[TDN_MAX_JOINT_NAME];
    int parent;             /* index in file order, -1 for a root */
    long long line;         /* of its ROOT or JOINT keyword */
    long long brace_line;   /* of its '{' */
    long long brace_indent; /* spaces and tabs that line starts with */
    tdn_vec3 offset;        /* OFFSET times the import scale */
    int has_offset;
    int channel_count;                                /* -1 until its CHANNELS line */
    int first_column;                                 /* of its channels in a motion line */
    unsigned char channels[TDN_IO__BVH_MAX_CHANNELS]; /* kinds in listed order */
} tdn_io__bvh_joint;

/* Everything read from one text. */
typedef struct tdn_io__bvh {
    tdn_io__bvh_cursor at;
    tdn_error *err;
    tdn_allocator allocator; /* the asset's, for temporary memory */
    float scale;

    tdn_io__bvh_joint *joints; /* file order: depth-first, parents first */
    int joint_count, joint_capacity;
    int column_count; /* channels of all joints: values per motion line */

    int declared_frames; /* the Frames: line */
    long long frames_line;
    double frame_time; /* seconds, finite and > 0 */
    long long frame_time_line;
} tdn_io__bvh;

static inline int tdn_io__bvh_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Skips whitespace, counting line ends: LF, CRLF or a lone CR. */
static inline void tdn_io__bvh_skip_space(tdn_io__bvh_cursor *c)
{
    while (c->p < c->end && tdn_io__bvh_is_space(*c->p)) {
        char ch = *c->p++;
        if (ch == '\n' || (ch == '\r' && (c->p == c->end || *c->p != '\n')))
            c->line++;
    }
}

/* The next token (n = 0 at the end of the text). */
static inline tdn_io__bvh_token tdn_io__bvh_next(tdn_io__bvh_cursor *c)
{
    tdn_io__bvh_skip_space(c);
    tdn_io__bvh_token t = { c->p, 0, c->line };
    while (c->p < c->end && !tdn_io__bvh_is_space(*c->p))
        c->p++;
    t.n = (size_t)(c->p - t.s);
    return t;
}

/* The line of the last non-whitespace character before the cursor (1 if there is none): where
 * a text that ends too early is reported. */
static inline long long tdn_io__bvh_last_text_line(const tdn_io__bvh_cursor *c)
{
    long long line = c->line;
    for (const char *q = c->p; q > c->begin && tdn_io__bvh_is_space(q[-1]); q--)
        if (q[-1] == '\n' || (q[-1] == '\r' && (q == c->end || *q != '\n')))
            line--;
    return line;
}

static inline int tdn_io__bvh_token_is(tdn_io__bvh_token t, const char *word)
{
    size_t i = 0;
    for (; i < t.n && word[i]; i++)
        if (t.s[i] != word[i])
            return 0;
    return i == t.n && word[i] == '\0';
}

/* Fails with `code`, where "line N" and a printf-formatted message. */
tdn_result tdn_io__bvh_fail(const tdn_io__bvh *bvh, tdn_result code, long long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* At most 40 characters of a token, for messages, as "%.*s" arguments. */
#define TDN_IO__BVH_SHOW(t) (int)((t).n < 40 ? (t).n : 40), (t).s

/* Temporary memory through the asset's allocator (NULL when out of memory or size is 0). */
void *tdn_io__bvh_scratch(const tdn_io__bvh *bvh, size_t size);
void tdn_io__bvh_scratch_free(const tdn_io__bvh *bvh, void *p, size_t size);

/* HIERARCHY up to and including MOTION: fills the joints and column_count. */
tdn_result tdn_io__bvh_read_hierarchy(tdn_io__bvh *bvh);
/* Frames: and Frame Time: after MOTION. */
tdn_result tdn_io__bvh_read_motion_header(tdn_io__bvh *bvh);

/* Keys of the take: per joint, a translation track (3 floats per frame) when it has position
 * channels and a rotation track (4 floats per frame) when it has rotation channels. */
typedef struct tdn_io__bvh_take {
    int frame_count;      /* complete frames read */
    float *times;         /* frame_count times */
    float **translations; /* per joint, NULL when it has no position channel */
    float **rotations;    /* per joint, NULL when it has no rotation channel */
    void *memory;         /* everything above, one scratch block */
    size_t memory_bytes;
} tdn_io__bvh_take;

/* The motion lines after the header into a take; warnings (frames missing, text after the
 * last frame) go to the asset. Free the take with tdn_io__bvh_take_free, even on failure. */
tdn_result tdn_io__bvh_read_frames(tdn_io__bvh *bvh, tdn_asset *asset, tdn_io__bvh_take *take);
void tdn_io__bvh_take_free(const tdn_io__bvh *bvh, tdn_io__bvh_take *take);

#endif
