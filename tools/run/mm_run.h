/* tendon CLI: the machinery of `tendon mm run`: a motion-matching controller
 * (include/tendon/mm_controller.h) driven along a scripted stick path (mm_path.h) over the clips
 * its database was built from (mm_source.h); writes the baked motion, a per-frame trace and a
 * summary of how well the character followed its simulation, with the foot skate
 * (docs/metrics.md) of the run and of the clips played as they are. */
#ifndef TENDON_MM_RUN_H
#define TENDON_MM_RUN_H

#include "cli.h"

typedef struct mm_run_args {
    const char *db, *path, *out, *trace; /* DB.tdnmm (or PACK.tdn), --path, --out, --trace */
    const char *database;                /* --database: the pack's database of that name (NULL: its only one) */
    char **files;                        /* the FILEs the database was built from */
    int file_count;
    cli_common common; /* --scale, --skin, --json */
    float seconds, fps, bias, interval;
    int has_seconds, lock_feet;
} mm_run_args;

/* Runs as `tendon mm run` does (a parsed and checked): prints the summary (or, with --json, the
 * summary as JSON) and returns the exit code. */
int mm_run(const mm_run_args *a);

#endif
