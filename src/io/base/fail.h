/* tendon io: filling a tdn_error, for every function of libtendon_io that can fail (not
 * installed). */
#ifndef TENDON_IO_FAIL_H
#define TENDON_IO_FAIL_H

#include "tendon/base.h"

/* Fills *err (when not NULL) and returns code; the message is printf-formatted. */
tdn_result tdn_io__fail(tdn_error *err, tdn_result code, const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* TDN_ERR_ARGUMENT (`where` "allocator") for hooks with only one of alloc and free; NULL and
 * zeroed hooks are malloc's. Every io function that takes an allocator checks it first. */
tdn_result tdn_io__check_allocator(const tdn_allocator *allocator, tdn_error *err);

/* Puts the file an error happened in (or the field naming it) before err->where: "place:
 * where", or just place when where is empty. The place is `field`, or "field (name)" with a
 * name (a file as another file names it). What does not fit loses the start of the place and
 * of the name, which keep their ends (the file's name), then the end of where. */
void tdn_io__where_in(tdn_error *err, const char *field, const char *name);

#endif
