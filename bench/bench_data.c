/* tendon_bench: the shared data folder (bench_data.h). */
#include "bench_data.h"

#include <stdlib.h>
#include <sys/stat.h>

#ifndef TENDON_BENCH_DATA
#  define TENDON_BENCH_DATA "../shared/data"
#endif

const char *bench_data_dir(void)
{
    const char *env = getenv("TENDON_DATA");
    const char *dir = env && *env ? env : TENDON_BENCH_DATA;
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? dir : NULL;
}
