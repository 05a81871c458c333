/* tendon_bench: where the shared third-party motion capture is, for the workloads that read it
 * (`mm`, `compression`). */
#ifndef TENDON_BENCH_DATA_H
#define TENDON_BENCH_DATA_H

/* The folder named by the environment variable TENDON_DATA, else the one the build was told
 * (beside the repository); NULL when it is not a folder. */
const char *bench_data_dir(void);

#endif
