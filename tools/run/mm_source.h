/* tendon CLI: what `tendon mm build` and `tendon mm run` share: the clips of several files of
 * one rig, in the order the files are given and, within a file, the file's order. */
#ifndef TENDON_MM_SOURCE_H
#define TENDON_MM_SOURCE_H

#include "cli.h"
#include "tendon/mm_database.h"

typedef struct mm_source {
    int file_count;
    char **files;       /* the paths, as given */
    tdn_asset **assets; /* one per file */
    int clip_count;
    const tdn_keyed_clip **clips; /* every file's clips */
    int *clip_file;               /* per clip: the file it comes from */
    const tdn_skeleton *skeleton; /* the first file's (every file's has its joint count and parents) */
    int *mirror;                  /* the mirror table by joint names (tdn_mirror_table_from_names) */
    int mirror_pairs;             /* how many joints it pairs with another */
} mm_source;

/* Loads every file with the common options (--scale, --skin) and checks that they are one rig:
 * the same joint count and parents as the first, and at least one clip each. Returns an exit
 * code after printing why ("tendon COMMAND: FILE: ..."); on failure nothing stays allocated. */
int mm_source_load(const char *command, char **files, int count, const cli_common *common, mm_source *out);
void mm_source_free(mm_source *s);

/* A joint by name, or by decimal index; -1 when there is none. */
int mm_find_joint(const tdn_skeleton *skel, const char *name_or_index);

/* The most frames tdn_mm_database_create gives its clips, all runs together. */
#define MM_MAX_CLIP_FRAMES (1 << 24)
/* How many frames the database gives a clip at `rate` (mm_database.h: frame f at f / rate,
 * up to the clip's duration); -1 when that is more than MM_MAX_CLIP_FRAMES. */
int mm_clip_frames(const tdn_keyed_clip *clip, float rate);

#endif
