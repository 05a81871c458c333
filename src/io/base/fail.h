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

#endif
