/* tendon io: writing a file so that a failed write never destroys what was there (not
 * installed). Every file tendon writes goes through here: libtendon_io's savers
 * (tdn_gltf_save, tdn_mm_database_save) and every output of the tendon tool.
 *
 * The rule, by what `path` names when the write starts:
 * - nothing, or a regular file: the bytes go to a new file in the same folder, ".NAME.XXXXXX",
 *   created as a new file is (0666 less the umask; replacing a file, with that file's
 *   permission bits and, where the system allows, its owner and group), flushed to disk and
 *   renamed over `path` only when every byte is written. A failure leaves the old file as it
 *   was (or no file) and removes the temporary one; nothing half-written is ever at `path`.
 *   A symbolic link is followed to the file it leads to, which is replaced (the link stays a
 *   link): the file changes as a write through the link would change it.
 * - anything else that exists (a device such as /dev/null, a FIFO, a terminal): opened and
 *   written as it is, never created, truncated or removed. A FIFO blocks until a reader
 *   opens it, as a shell's `>` does. A directory is refused. */
#ifndef TENDON_IO_OUTPUT_FILE_H
#define TENDON_IO_OUTPUT_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "tendon/base.h"

typedef struct tdn_io__output {
    FILE *file;   /* where the bytes go (binary); NULL once committed or discarded */
    char *path;   /* the path as given, for messages */
    char *temp;   /* the temporary file, renamed to `target` by commit; NULL: path is written as it is */
    char *target; /* path with its symbolic links followed: the file the temporary replaces */
} tdn_io__output;

/* Opens `path` for writing by the rule above. On failure (TDN_ERR_IO, or TDN_ERR_OUT_OF_MEMORY)
 * err's `where` is the path and its message the system's reason; nothing was created. */
tdn_result tdn_io__output_open(tdn_io__output *out, const char *path, tdn_error *err);
/* The file the bytes go to, for a program that writes it itself (ffmpeg): the temporary, or the
 * path as given. */
const char *tdn_io__output_file_path(const tdn_io__output *out);
/* Flushes and closes the file and, for a temporary, puts it in place of the target. On failure
 * (a write, the flush or the rename failed; TDN_ERR_IO naming the path, with the reason) the
 * temporary is removed and the target left as it was. */
tdn_result tdn_io__output_commit(tdn_io__output *out, tdn_error *err);
/* Closes the file and removes the temporary: the target stays as it was. Does nothing once
 * committed or discarded. */
void tdn_io__output_discard(tdn_io__output *out);

/* Writes size bytes as the whole file at path by the rule above; TDN_ERR_IO naming the path
 * (with the system's reason) when it cannot, and then the file at path is as it was. */
tdn_result tdn_io__write_file(const char *path, const void *data, size_t size, tdn_error *err);

#endif
