/* tendon CLI: the commands. Each takes the arguments after its name and returns the exit code. */
#ifndef TENDON_COMMANDS_H
#define TENDON_COMMANDS_H

int cmd_info(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_weights(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_mm(int argc, char **argv);
int cmd_mm_build(int argc, char **argv); /* tendon mm build (cmd_mm.c) */
int cmd_mm_run(int argc, char **argv);   /* tendon mm run (cmd_mm_run.c) */
int cmd_retarget(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_pack(int argc, char **argv);

#endif
