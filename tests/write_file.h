/* tendon tests: writing the files a test then loads (a failed write is a failed check). */
#ifndef TENDON_TEST_WRITE_FILE_H
#define TENDON_TEST_WRITE_FILE_H

#include <stdio.h>
#include <string.h>

#include "check.h"

static inline void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!CHECK(f != NULL))
        return;
    CHECK(fwrite(data, 1, size, f) == size);
    fclose(f);
}

static inline void write_text(const char *path, const char *text) { write_file(path, text, strlen(text)); }

#endif
