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
#include "tendon/io/asset.h"

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

/* The shared data's file `rel` loaded at `scale` (0: 1), or NULL when the folder is absent
 * (skipped as test_data_dir says) or the load fails (a failed check). */
static inline tdn_asset *test_data_asset(const char *rel, float scale)
{
    const char *dir = test_data_dir();
    if (!dir)
        return NULL;
    char path[1024];
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_asset_load(test_data_path(path, sizeof path, dir, rel),
                                     &(tdn_asset_load_options){ .scale = scale }, &asset, NULL, &err),
                      TDN_OK))
        printf("  %s: %s: %s\n", rel, err.where, err.message);
    return asset;
}

#endif
