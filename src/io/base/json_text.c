/* tendon io: JSON text checked, then parsed by cJSON, then checked for duplicate keys (see
 * json_text.h). */
#include "json_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the text: one pass over the grammar, stopping at the first problem ---- */

typedef struct scan {
    const unsigned char *s;
    size_t n, i; /* the text and the byte being read */
    long values;
    int depth, deepest;
    unsigned char in_object[TDN_IO_JSON_MAX_DEPTH + 1]; /* per open container: object (1) or array */
    tdn_io__json_problem *problem;
} scan;

static int problem_at(scan *sc, size_t at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Records the problem; returns 0 so that scanners can `return problem_at(...)`. */
static int problem_at(scan *sc, size_t at, const char *fmt, ...)
{
    tdn_io__json_problem *p = sc->problem;
    p->code = TDN_ERR_PARSE;
    p->at = at;
    p->path[0] = '\0';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->message, sizeof p->message, fmt, ap);
    va_end(ap);
    return 0;
}

/* A byte for a message: 'c' when printable ASCII, else 0xNN. */
static void show_byte(unsigned char c, char out[8])
{
    if (c >= 0x20 && c < 0x7F)
        snprintf(out, 8, "'%c'", c);
    else
        snprintf(out, 8, "0x%02X", c);
}

static int found(scan *sc, const char *expected)
{
    if (sc->i >= sc->n)
        return problem_at(sc, sc->i, "invalid JSON: the text ends where %s should be", expected);
    char b[8];
    show_byte(sc->s[sc->i], b);
    return problem_at(sc, sc->i, "invalid JSON: expected %s, found %s", expected, b);
}

static void skip_space(scan *sc)
{
    while (sc->i < sc->n &&
           (sc->s[sc->i] == ' ' || sc->s[sc->i] == '\t' || sc->s[sc->i] == '\n' || sc->s[sc->i] == '\r'))
        sc->i++;
}

static int hex_value(unsigned char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* The four hex digits after "\u" at s[at] (at points at the 'u'); -1 when they are not. */
static long unicode_escape(const scan *sc, size_t at)
{
    if (sc->n - at < 5 || sc->s[at] != 'u')
        return -1;
    long v = 0;
    for (int k = 1; k <= 4; k++) {
        const int h = hex_value(sc->s[at + (size_t)k]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

size_t tdn_io__utf8_length(const unsigned char *s, size_t left)
{
    if (left == 0)
        return 0;
    const unsigned char c = s[0];
    size_t length;
    unsigned char lo = 0x80, hi = 0xBF; /* the range of the second byte */
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        length = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        length = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        length = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if (left < length || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t k = 2; k < length; k++)
        if (s[k] < 0x80 || s[k] > 0xBF)
            return 0;
    return length;
}

/* A string from its opening quote at s[i]. */
static int scan_string(scan *sc)
{
    const size_t open = sc->i++;
    for (;;) {
        while (sc->i < sc->n && sc->s[sc->i] >= 0x20 && sc->s[sc->i] < 0x80 && sc->s[sc->i] != '"' &&
               sc->s[sc->i] != '\\')
            sc->i++; /* plain ASCII, most of every string: nothing to check */
        if (sc->i >= sc->n)
            return problem_at(sc, open, "invalid JSON: the string that starts here never ends");
        const unsigned char c = sc->s[sc->i];
        if (c == '"') {
            sc->i++;
            return 1;
        }
        if (c == 0)
            return problem_at(sc, sc->i, "a NUL byte inside a string");
        if (c < 0x20)
            return problem_at(sc, sc->i, "control character 0x%02X inside a string (JSON writes it as \\u%04X)", c, c);
        if (c >= 0x80) {
            const size_t length = tdn_io__utf8_length(sc->s + sc->i, sc->n - sc->i);
            if (!length)
                return problem_at(sc, sc->i, "invalid UTF-8 (byte 0x%02X) inside a string", c);
            sc->i += length;
            continue;
        }
        if (c != '\\') {
            sc->i++;
            continue;
        }
        const size_t escape = sc->i++;
        if (sc->i >= sc->n)
            return problem_at(sc, open, "invalid JSON: the string that starts here never ends");
        const unsigned char e = sc->s[sc->i];
        if (e != 'u') {
            if (!strchr("\"\\/bfnrt", e) || e == 0) {
                char b[8];
                show_byte(e, b);
                return problem_at(sc, escape, "invalid JSON: unknown escape \\ followed by %s in a string", b);
            }
            sc->i++;
            continue;
        }
        const long u = unicode_escape(sc, sc->i);
        if (u < 0)
            return problem_at(sc, escape, "invalid JSON: \\u needs four hexadecimal digits");
        if (u == 0)
            return problem_at(sc, escape, "\\u0000 (a NUL character) inside a string");
        sc->i += 5;
        if (u >= 0xDC00 && u <= 0xDFFF)
            return problem_at(sc, escape, "\\u%04lX is the second half of a UTF-16 surrogate pair without a first", u);
        if (u >= 0xD800 && u <= 0xDBFF) {
            const long low = sc->n - sc->i >= 6 && sc->s[sc->i] == '\\' ? unicode_escape(sc, sc->i + 1) : -1;
            if (low < 0xDC00 || low > 0xDFFF)
                return problem_at(sc, escape, "\\u%04lX is the first half of a UTF-16 surrogate pair without a second",
                                  u);
            sc->i += 6;
        }
    }
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* A number (RFC 8259: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?) from s[i]. */
static int scan_number(scan *sc)
{
    const size_t start = sc->i;
    const unsigned char *s = sc->s;
    size_t i = sc->i;
    int ok = 1;
    if (i < sc->n && s[i] == '-')
        i++;
    if (i < sc->n && s[i] == '0')
        i++;
    else if (i < sc->n && is_digit(s[i]))
        while (i < sc->n && is_digit(s[i]))
            i++;
    else
        ok = 0;
    if (ok && i < sc->n && s[i] == '.') {
        ok = ++i < sc->n && is_digit(s[i]);
        while (i < sc->n && is_digit(s[i]))
            i++;
    }
    if (ok && i < sc->n && (s[i] == 'e' || s[i] == 'E')) {
        if (++i < sc->n && (s[i] == '+' || s[i] == '-'))
            i++;
        ok = i < sc->n && is_digit(s[i]);
        while (i < sc->n && is_digit(s[i]))
            i++;
    }
    /* what may follow a number: whitespace, ',', ']', '}' or the end */
    if (ok && i < sc->n && !strchr(" \t\r\n,]}", s[i]))
        ok = 0;
    if (ok && i < sc->n && s[i] == 0)
        ok = 0;
    if (!ok) {
        size_t end = start;
        while (end < sc->n && end - start < 24 && (is_digit(s[end]) || strchr("+-.eE", s[end])) && s[end])
            end++;
        return problem_at(sc, start, "invalid JSON: '%.*s' is not a JSON number", (int)(end - start),
                          (const char *)s + start);
    }
    sc->i = i;
    return 1;
}

static int scan_word(scan *sc, const char *word)
{
    const size_t length = strlen(word);
    if (sc->n - sc->i < length || memcmp(sc->s + sc->i, word, length) != 0)
        return found(sc, "a value");
    sc->i += length;
    return 1;
}

static int count_value(scan *sc)
{
    if (++sc->values <= TDN_IO_JSON_MAX_VALUES)
        return 1;
    return problem_at(sc, sc->i,
                      "more than %d JSON values (objects, arrays, strings, numbers, true, false, null); "
                      "tendon reads documents of at most %d",
                      TDN_IO_JSON_MAX_VALUES, TDN_IO_JSON_MAX_VALUES);
}

static int open_container(scan *sc, int object)
{
    if (sc->depth == TDN_IO_JSON_MAX_DEPTH)
        return problem_at(sc, sc->i, "nesting deeper than %d levels (the most tendon reads)", TDN_IO_JSON_MAX_DEPTH);
    sc->in_object[++sc->depth] = (unsigned char)object;
    sc->deepest = sc->depth > sc->deepest ? sc->depth : sc->deepest;
    sc->i++;
    return 1;
}

/* The whole text: one value, then whitespace (and NULs with TDN_IO_JSON_ZERO_PADDING). */
static int scan_text(scan *sc, unsigned flags)
{
    enum { VALUE, FIRST_VALUE, KEY, FIRST_KEY, AFTER } state = VALUE;
    for (;;) {
        skip_space(sc);
        const unsigned char c = sc->i < sc->n ? sc->s[sc->i] : 0;
        const int end = sc->i >= sc->n;
        switch (state) {
        case FIRST_VALUE: /* after '[': a value or ']' */
        case VALUE:
            if (state == FIRST_VALUE && !end && c == ']') {
                sc->i++, sc->depth--, state = AFTER;
                break;
            }
            if (end || !count_value(sc))
                return end ? found(sc, "a value") : 0;
            if (c == '{') {
                if (!open_container(sc, 1))
                    return 0;
                state = FIRST_KEY;
            } else if (c == '[') {
                if (!open_container(sc, 0))
                    return 0;
                state = FIRST_VALUE;
            } else {
                const int ok = c == '"'                  ? scan_string(sc)
                               : c == '-' || is_digit(c) ? scan_number(sc)
                               : c == 't'                ? scan_word(sc, "true")
                               : c == 'f'                ? scan_word(sc, "false")
                               : c == 'n'                ? scan_word(sc, "null")
                                                         : found(sc, "a value");
                if (!ok)
                    return 0;
                state = AFTER;
            }
            break;
        case FIRST_KEY: /* after '{': a key or '}' */
        case KEY:
            if (state == FIRST_KEY && !end && c == '}') {
                sc->i++, sc->depth--, state = AFTER;
                break;
            }
            if (end || c != '"')
                return found(sc, state == FIRST_KEY ? "a key (a string) or '}'" : "a key (a string)");
            if (!scan_string(sc))
                return 0;
            skip_space(sc);
            if (sc->i >= sc->n || sc->s[sc->i] != ':')
                return found(sc, "':' after the key");
            sc->i++;
            state = VALUE;
            break;
        case AFTER:
            if (sc->depth == 0) {
                const int zeros = (flags & TDN_IO_JSON_ZERO_PADDING) != 0; /* whitespace, and zeros where they pad */
                while (sc->i < sc->n && (sc->s[sc->i] == ' ' || sc->s[sc->i] == '\t' || sc->s[sc->i] == '\r' ||
                                         sc->s[sc->i] == '\n' || (sc->s[sc->i] == 0 && zeros)))
                    sc->i++;
                if (sc->i < sc->n)
                    return problem_at(sc, sc->i, "data after the JSON value");
                return 1;
            }
            if (sc->in_object[sc->depth]) {
                if (!end && (c == ',' || c == '}'))
                    sc->i++, state = c == ',' ? KEY : AFTER, sc->depth -= c == '}';
                else
                    return found(sc, "',' or '}'");
            } else {
                if (!end && (c == ',' || c == ']'))
                    sc->i++, state = c == ',' ? VALUE : AFTER, sc->depth -= c == ']';
                else
                    return found(sc, "',' or ']'");
            }
            break;
        }
    }
}

/* ---- the tree: keys that appear twice in one object ---- */

/* One open container of the walk and the child being visited. */
typedef struct walk_level {
    const cJSON *node, *child;
} walk_level;

/* problem->path = the JSON path of levels[0..count)'s children, the last one being `last`. */
static void path_of(const walk_level *levels, int count, tdn_io__json_problem *problem)
{
    char *out = problem->path;
    const size_t size = sizeof problem->path;
    size_t at = 0;
    out[0] = '\0';
    for (int l = 0; l < count && at + 1 < size; l++) {
        const cJSON *child = levels[l].child;
        int written;
        if (cJSON_IsObject(levels[l].node)) {
            /* a key "" is named "", as tdn_io__json_known_keys names it */
            written = snprintf(out + at, size - at, at ? ".%s" : "%s", child->string[0] ? child->string : "\"\"");
        } else {
            int index = 0;
            for (const cJSON *c = levels[l].node->child; c != child; c = c->next)
                index++;
            written = snprintf(out + at, size - at, "[%d]", index);
        }
        at = written < 0 ? at : at + (size_t)written < size ? at + (size_t)written : size - 1;
    }
}

/* A member of a large object and its place in it, sorted by key then place. */
typedef struct keyed {
    const cJSON *member;
    int index;
} keyed;

static int by_key_then_index(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    const int order = strcmp(x->member->string, y->member->string);
    return order ? order : (x->index > y->index) - (x->index < y->index);
}

/* The member of object that repeats an earlier key, the first such in document order, or
 * NULL. `keys` is room for `count` entries (the object's size) when it is large. */
static const cJSON *repeated_key(const cJSON *object, int count, keyed *keys)
{
    if (count <= 16) { /* small objects (nearly all): pairwise */
        for (const cJSON *b = object->child; b; b = b->next)
            for (const cJSON *a = object->child; a != b; a = a->next)
                if (strcmp(a->string, b->string) == 0)
                    return b;
        return NULL;
    }
    int n = 0;
    for (const cJSON *c = object->child; c; c = c->next, n++)
        keys[n] = (keyed){ c, n };
    qsort(keys, (size_t)n, sizeof *keys, by_key_then_index);
    const keyed *first = NULL; /* of the second members of runs of one key, the earliest */
    for (int k = 1; k < n; k++)
        if (strcmp(keys[k - 1].member->string, keys[k].member->string) == 0 &&
            (k < 2 || strcmp(keys[k - 2].member->string, keys[k].member->string) != 0) &&
            (!first || keys[k].index < first->index))
            first = &keys[k];
    return first ? first->member : NULL;
}

static int member_count(const cJSON *object)
{
    int n = 0;
    for (const cJSON *c = object->child; c; c = c->next)
        n++;
    return n;
}

/* Walks the tree, `deepest` levels deep, without recursion (it may be TDN_IO_JSON_MAX_DEPTH
 * deep); real documents are a few levels deep, and their walk allocates nothing. */
static tdn_result check_keys(const cJSON *root, int deepest, tdn_io__json_problem *problem)
{
    walk_level shallow[16];
    walk_level *levels = deepest < 16 ? shallow : malloc(sizeof *levels * ((size_t)deepest + 1));
    keyed *keys = NULL;
    int key_room = 0, depth = 0;
    tdn_result r = TDN_OK;
    if (!levels)
        r = TDN_ERR_OUT_OF_MEMORY;
    const cJSON *node = root;
    while (r == TDN_OK && node) {
        if (cJSON_IsObject(node)) {
            const int count = member_count(node);
            if (count > 16 && count > key_room) {
                keyed *bigger = realloc(keys, sizeof *keys * (size_t)count);
                if (!bigger) {
                    r = TDN_ERR_OUT_OF_MEMORY;
                    break;
                }
                keys = bigger, key_room = count;
            }
            const cJSON *twice = repeated_key(node, count, keys);
            if (twice) {
                levels[depth] = (walk_level){ node, twice };
                path_of(levels, depth + 1, problem);
                problem->code = TDN_ERR_PARSE;
                snprintf(problem->message, sizeof problem->message,
                         "the key \"%.60s\" appears twice in one object (JSON leaves which one counts open)",
                         twice->string);
                r = TDN_ERR_PARSE;
                break;
            }
        }
        if ((cJSON_IsObject(node) || cJSON_IsArray(node)) && node->child) {
            levels[depth++] = (walk_level){ node, node->child };
            node = node->child;
            continue;
        }
        /* the next sibling, climbing out of finished containers */
        while (depth > 0 && !levels[depth - 1].child->next)
            depth--;
        if (depth == 0)
            break;
        levels[depth - 1].child = levels[depth - 1].child->next;
        node = levels[depth - 1].child;
    }
    if (r == TDN_ERR_OUT_OF_MEMORY) {
        problem->code = r;
        problem->at = 0;
        problem->path[0] = '\0';
        snprintf(problem->message, sizeof problem->message, "out of memory checking the JSON's keys");
    }
    free(keys);
    if (levels != shallow)
        free(levels);
    return r;
}

/* ---- both ---- */

tdn_result tdn_io__json_parse(const char *text, size_t size, unsigned flags, cJSON **out, tdn_io__json_problem *problem)
{
    *out = NULL;
    memset(problem, 0, sizeof *problem);
    size_t skipped = 0;
    if (size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) /* a byte-order mark, tolerated */
        skipped = 3;
    scan sc = { .s = (const unsigned char *)text, .n = size, .i = skipped, .problem = problem };
    if (size > TDN_IO_JSON_MAX_BYTES) {
        problem_at(&sc, TDN_IO_JSON_MAX_BYTES, "JSON text of %zu bytes; tendon reads at most %zu", size,
                   (size_t)TDN_IO_JSON_MAX_BYTES);
        return TDN_ERR_PARSE;
    }
    if (!scan_text(&sc, flags))
        return TDN_ERR_PARSE;
    /* cJSON gets a zero-terminated copy, so nothing it does can read past the data; the text
     * is valid JSON now, so it can only fail for memory. */
    const size_t n = size - skipped;
    char *copy = malloc(n + 1);
    cJSON *doc = NULL;
    if (copy) {
        memcpy(copy, text + skipped, n);
        copy[n] = '\0';
        doc = cJSON_ParseWithLengthOpts(copy, n, NULL, 0);
        free(copy);
    }
    if (!doc) {
        problem->code = TDN_ERR_OUT_OF_MEMORY;
        snprintf(problem->message, sizeof problem->message, "out of memory for %zu bytes of JSON", n);
        return TDN_ERR_OUT_OF_MEMORY;
    }
    tdn_result r = check_keys(doc, sc.deepest, problem);
    if (r != TDN_OK) {
        cJSON_Delete(doc);
        return r;
    }
    *out = doc;
    return TDN_OK;
}

void tdn_io__json_text_place(char *out, size_t out_size, const char *text, size_t at)
{
    size_t line = 1, column = 1;
    for (size_t i = 0; i < at; i++) {
        if (text[i] == '\n')
            line++, column = 1;
        else
            column++;
    }
    snprintf(out, out_size, "byte %zu (line %zu, column %zu)", at, line, column);
}
