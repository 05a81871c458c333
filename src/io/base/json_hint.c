/* tendon io: "did you mean" hints for names a document got wrong. */
#include <stdio.h>

#include "json_hint.h"
#include "tendon/nearest_name.h"

void tdn_io__hint(char *out, size_t size, const char *name, const char *(*at)(const void *ctx, int i), const void *ctx,
                  int count)
{
    const char *near = tdn_nearest_name_from_callback(name, at, ctx, count);
    if (near)
        snprintf(out, size, "; did you mean \"%.60s\"?", near);
    else if (size > 0)
        out[0] = '\0';
}
