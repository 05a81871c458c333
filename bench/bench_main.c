/* tendon_bench: the benchmark workloads of DESIGN section 6, from the command line. */
#include "bench_command.h"

int main(int argc, char **argv) { return bench_command("tendon_bench", argc - 1, argv + 1); }
