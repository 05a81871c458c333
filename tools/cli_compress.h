/* tendon CLI: compressed runtime clips as `tendon sample --compressed` and `tendon pack` make
 * them: the --error and --shell options, the clip description, and the report of what it
 * costs (its size against float32 frames of the source, its measured error). */
#ifndef TENDON_CLI_COMPRESS_H
#define TENDON_CLI_COMPRESS_H

#include "tendon/clip.h"
#include "tendon/clip_error.h"

typedef struct cli_compress {
    float error_cm; /* --error CM (0: not given; default 0.01) */
    float shell_cm; /* --shell CM (0: not given; default 3) */
} cli_compress;

/* If argv[*i] is --error or --shell, consumes it and its value (a length in cm above 0) and
 * returns 1; 0 when it is neither; -1 (after printing why) when its value is missing or bad. */
int cli_compress_option(const char *command, int argc, char **argv, int *i, cli_compress *c);

/* A description of `keys` compressed at c's threshold and shell (in metres: the lengths after
 * --scale), accepting any position and rotation error (the virtual-vertex error decides). */
tdn_clip_desc cli_compress_desc(const cli_compress *c, const tdn_keyed_clip *keys);

/* What a compressed clip costs: raw, the source's float32 frames (40 bytes per joint per distinct
 * key time); bytes, the clip's memory; its error measured against the source as animation
 * compression does (measured 0 when it could not be). */
typedef struct cli_compression {
    double raw;
    size_t bytes;
    int measured;
    tdn_clip_error error;
} cli_compression;
cli_compression cli_compression_of(const tdn_keyed_clip *keys, const tdn_clip *clip, float shell);

#endif
