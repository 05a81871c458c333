/* tendon bench: the workloads of docs/benchmarks.md, the same rows as tendon_bench. */
#include "bench_command.h"
#include "commands.h"

int cmd_bench(int argc, char **argv) { return bench_command("tendon bench", argc, argv); }
