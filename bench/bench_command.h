/* tendon_bench and `tendon bench`: the benchmark command line, shared by both. */
#ifndef TENDON_BENCH_COMMAND_H
#define TENDON_BENCH_COMMAND_H

/* Parses the options in argv[0..argc) (the arguments after the program or command name), runs
 * the workloads and prints their rows; `program` names the command in messages. Returns the
 * exit code: 0, 2 for bad options, 1 when a workload fails. */
int bench_command(const char *program, int argc, char **argv);

#endif
