/* tendon CLI: what the commands share (exit codes, common options, loading, JSON output). */
#ifndef TENDON_CLI_H
#define TENDON_CLI_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "tendon/io/asset.h"
#include "tendon/tendon.h"

/* Exit codes (docs/cli.md): bad input is 2, any other failure 1. */
enum { CLI_OK = 0, CLI_FAILURE = 1, CLI_BAD_INPUT = 2 };

/* --allow-files DIR, repeatable: folders the files a file names (a graph document's character
 * and clips, a glTF's buffers) may be in besides the defaults cli_file_access adds. */
enum { CLI_MAX_ALLOWED_FOLDERS = 16 };
typedef struct cli_files {
    const char *allowed[CLI_MAX_ALLOWED_FOLDERS];
    int allowed_count;
} cli_files;

/* If argv[*i] is --allow-files, consumes it and its value and returns 1; returns 0 when it is
 * not, -1 (after printing why) when the value is missing or there are too many. */
int cli_files_option(const char *command, int argc, char **argv, int *i, cli_files *files);

/* How a command reads the file at `path` and the files it names (docs/cli.md): from the file
 * system, each name below its file's folder or below a root: path's folder, the current folder,
 * TENDON_DATA when set, and every --allow-files DIR. Filled into *out, which must outlive the
 * load. */
typedef struct cli_access {
    char folder[4096];
    const char *roots[CLI_MAX_ALLOWED_FOLDERS + 3];
    tdn_file_access access;
} cli_access;
const tdn_file_access *cli_file_access(cli_access *out, const cli_files *files, const char *path);

/* The options every command that reads an asset takes. */
typedef struct cli_common {
    const char *skin; /* --skin NAME|INDEX */
    float scale;      /* --scale S (0: not given) */
    int json;         /* --json */
    cli_files files;  /* --allow-files DIR */
} cli_common;

/* If argv[*i] is a common option, consumes it (and its value) and returns 1; returns 0 when it
 * is not one, -1 (after printing why) when its value is missing or bad. */
int cli_common_option(const char *command, int argc, char **argv, int *i, cli_common *common);

/* Parses a float option value; returns 0 (after printing why) unless it is a finite number. */
int cli_parse_float(const char *command, const char *option, const char *text, float *out);

/* Loads the asset, printing the error (or the warnings) to stderr; returns an exit code. */
int cli_load(const char *command, const char *path, const cli_common *common, tdn_asset **out);
/* Prints an asset's import warnings to stderr, "tendon COMMAND: warning: PATH: what", for every
 * command that reads one (the repairs the importer made: a BVH with more frame lines than it
 * declares...). */
void cli_print_warnings(const char *command, const char *path, const tdn_asset *asset);

/* A clip named on the command line (`option` NAME|INDEX) that the asset at `path` does not have:
 * prints "tendon COMMAND: PATH: OPTION: no clip named "NAME"; did you mean "X"? (tendon info lists
 * the N clips)" and returns CLI_BAD_INPUT. */
int cli_no_clip(const char *command, const char *path, const char *option, const char *name, const tdn_asset *asset);

/* The exit code for a failure of the library. */
int cli_exit_code(tdn_result res);

/* Prints "tendon COMMAND: where: message" to stderr and returns the exit code for res. */
int cli_report(const char *command, tdn_result res, const tdn_error *err);

/* Room for cli_text's copy of a name of up to 255 bytes, every byte escaped. */
#define CLI_TEXT_SIZE 1024
/* s for the terminal: control characters (C0, DEL and C1) and bytes that are not UTF-8 written
 * as \xNN, so that a name from a file cannot move the cursor or recolour the screen. Writes
 * into out (cut to fit at a character) and returns it. Every text output of a name goes
 * through it; JSON output is escaped by cJSON. */
const char *cli_text(const char *s, char *out, size_t size);

/* Prints "tendon COMMAND: TEXT" (TEXT through cli_text) and a newline to stderr. */
void cli_say(const char *command, const char *text);

/* The file name of a path (after its last / or \\). */
const char *cli_base_name(const char *path);
/* The file name without folder and extension, into out (a baked clip's name). */
void cli_file_stem(const char *path, char *out, size_t size);
/* 1 when s ends with suffix (letter case ignored when ignore_case). */
int cli_ends_with(const char *s, const char *suffix, int ignore_case);
/* 1 when path ends in .glb or .gltf (any case): what a baked glTF output may be called. */
int cli_is_gltf_path(const char *path);
/* 1 when the file at path starts with a pack's magic (read without blocking: tdn_file_read). */
int cli_is_pack(const char *path);

/* Monotonic wall-clock milliseconds, for the CLI's timings and progress bars. */
double cli_now_ms(void);

/* A JSON number holding f as written with the fewest digits that read back as the same float
 * (so 0.3f prints as 0.3, not 0.30000001192092896). NaN and infinity become null. */
cJSON *cli_json_float(float f);
/* A JSON array of n floats. */
cJSON *cli_json_floats(const float *v, int n);
/* Prints the document to stdout with a newline and frees it; CLI_FAILURE when out of memory. */
int cli_json_print(cJSON *doc);

#endif
