/* Where the shared third-party test assets are: the folder named by the
 * environment variable TENDON_DATA (ctest sets it; default ../shared/data beside the
 * repository). Tests that use it print a visible skip when it is missing, so a fresh clone
 * passes; under CI=true a missing folder is a failure. */
#ifndef TENDON_TEST_DATA_H
#define TENDON_TEST_DATA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"

/* The data folder, or NULL (after printing the skip, or failing under CI) when absent. */
static inline const char *test_data_dir(void)
{
    const char *dir = getenv("TENDON_DATA");
    struct stat st;
    if (dir && *dir && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        return dir;
    const char *ci = getenv("CI");
    if (ci && strcmp(ci, "true") == 0) {
        CHECK(!"TENDON_DATA folder missing under CI=true");
        return NULL;
    }
    printf("SKIP: shared test data not found (TENDON_DATA='%s'); real-asset checks skipped\n", dir ? dir : "");
    return NULL;
}

/* dir/rel into buf; returns buf. */
static inline const char *test_data_path(char *buf, size_t size, const char *dir, const char *rel)
{
    snprintf(buf, size, "%s/%s", dir, rel);
    return buf;
}

#endif
