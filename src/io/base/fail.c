/* tendon io: filling a tdn_error (see fail.h). */
#include "fail.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

tdn_result tdn_io__fail(tdn_error *err, tdn_result code, const char *where, const char *fmt, ...)
{
    if (err) {
        err->code = code;
        snprintf(err->where, sizeof err->where, "%s", where ? where : "");
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

tdn_result tdn_io__check_allocator(const tdn_allocator *allocator, tdn_error *err)
{
    if (allocator && !allocator->alloc != !allocator->free)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "allocator", "give both alloc and free, or neither");
    return TDN_OK;
}

/* s in room bytes (its zero included): all of it, or "..." and its end when it is longer. */
static void keep_end(char *out, size_t room, const char *s)
{
    const size_t n = strlen(s);
    if (n < room) {
        memcpy(out, s, n + 1);
        return;
    }
    memcpy(out, "...", 3);
    memcpy(out + 3, s + n - (room - 4), room - 4);
    out[room - 1] = '\0';
}

/* s after the at bytes of out (size bytes in all), cut to fit; the new length. */
static size_t append(char *out, size_t at, size_t size, const char *s)
{
    size_t n = strlen(s);
    if (n > size - 1 - at)
        n = size - 1 - at;
    memcpy(out + at, s, n);
    out[at + n] = '\0';
    return at + n;
}

void tdn_io__where_in(tdn_error *err, const char *field, const char *name)
{
    if (!err || !field || !field[0])
        return;
    enum { ROOM = sizeof err->where, NAME_ROOM = 96, MIN_PLACE = 96 };
    char shown[ROOM], place[2 * ROOM], inner[ROOM];
    memcpy(inner, err->where, sizeof inner);
    inner[ROOM - 1] = '\0';
    keep_end(shown, sizeof shown, field);
    size_t n = append(place, 0, sizeof place, shown);
    if (name) {
        keep_end(shown, NAME_ROOM, name);
        n = append(place, n, sizeof place, " (");
        n = append(place, n, sizeof place, shown);
        append(place, n, sizeof place, ")");
    }
    /* the place gets what the inner place leaves, and at least MIN_PLACE bytes */
    const size_t inner_n = strlen(inner);
    size_t place_room = ROOM - 1;
    if (inner_n)
        place_room = inner_n + 2 + MIN_PLACE > ROOM - 1 ? MIN_PLACE : ROOM - 1 - inner_n - 2;
    keep_end(shown, place_room + 1, place);
    n = append(err->where, 0, ROOM, shown);
    if (inner_n)
        append(err->where, append(err->where, n, ROOM, ": "), ROOM, inner);
}
