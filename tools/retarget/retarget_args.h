/* tendon CLI: the options of `tendon retarget` (docs/cli.md), parsed by tools/cmd_retarget.c and
 * read by the pieces in tools/retarget/. */
#ifndef TENDON_RETARGET_ARGS_H
#define TENDON_RETARGET_ARGS_H

#include "cli.h"
#include "preview.h"

typedef struct retarget_args {
    const char *source, *target;           /* SOURCE, --to TARGET */
    const char *clip;                      /* --clip NAME|INDEX: the one source clip baked (NULL: all) */
    const char *source_skin, *target_skin; /* --source-skin, --target-skin NAME|INDEX */
    const char *map;                       /* --map MAP.json */
    int source_reference;                  /* --source-reference FRAME (-1: the rest pose) */
    int target_reference;                  /* --target-reference FRAME (-1: the rest pose) */
    float scale;                           /* --scale S: the source's lengths at import (0: as they are) */
    int no_contacts;                       /* --no-contacts */
    int explain;                           /* --explain */
    const char *out, *trace;               /* --out OUT.glb, --trace TRACE.json */
    preview_options render;                /* render.path: --render OUT */
    cli_files files;                       /* --allow-files DIR */
} retarget_args;

#endif
