/* tendon io: filling a tdn_error (see fail.h). */
#include "fail.h"

#include <stdarg.h>
#include <stdio.h>

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
