/* tendon: the command-line tool. `tendon COMMAND ...`; each command has its own --help. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command COMMANDS[] = {
    { "info", cmd_info, "what a glTF, BVH or pack file holds: joints, clips, skins, meshes" },
    { "sample", cmd_sample, "the pose of every joint of a clip at a time, local or model space" },
    { "weights", cmd_weights, "the weight of every sample of a blend space at a point (--png: a picture)" },
    { "run", cmd_run, "run a graph (JSON or pack) over scripted parameters: trace, pop metric, baked glTF" },
    { "mm", cmd_mm, "motion matching: build a database from clips (mm build), follow a path (mm run)" },
    { "retarget", cmd_retarget,
      "play one character's motion on another's skeleton (BVH, glTF or pack), baked to glTF" },
    { "pack", cmd_pack, "characters, compressed clips and graph documents into one runtime pack (.tdn)" },
    { "demo", cmd_demo, "the whole pipeline on tendon's generated humanoid: glb, previews, plot, summary" },
    { "bench", cmd_bench, "the benchmark workloads (the rows of tendon_bench)" },
};

static void usage(FILE *out)
{
    fprintf(out,
            "tendon %s: real-time character animation, from the command line\n\n"
            "usage: tendon COMMAND [OPTIONS]   (tendon COMMAND --help for its options)\n\ncommands:\n",
            tdn_version_string());
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        fprintf(out, "  %-8s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fputs("\nExit codes: 0 success, 2 bad input (arguments or files), 1 any other failure.\n", out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_BAD_INPUT;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("tendon %s\n", tdn_version_string());
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (strcmp(argv[1], COMMANDS[i].name) == 0)
            return COMMANDS[i].run(argc - 2, argv + 2);
    fprintf(stderr, "tendon: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return CLI_BAD_INPUT;
}
