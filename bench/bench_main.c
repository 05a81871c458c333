/* tendon_bench: the benchmark workloads of docs/benchmarks.md, from the command line. */
#include "bench_command.h"

int main(int argc, char **argv) { return bench_command("tendon_bench", argc - 1, argv + 1); }
