/* tendon io: "did you mean" hints for names a document got wrong (not installed). */
#ifndef TENDON_IO_JSON_HINT_H
#define TENDON_IO_JSON_HINT_H

#include <stddef.h>

/* Writes `; did you mean "X"?` for the candidate nearest to `name` (tdn_nearest_name_from_callback,
 * read through `at`) into out (or "" when there is none). */
void tdn_io__hint(char *out, size_t size, const char *name, const char *(*at)(const void *ctx, int i), const void *ctx,
                  int count);

#endif
