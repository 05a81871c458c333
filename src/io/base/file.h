/* tendon io: reading whole files (not installed); writing them: output_file.h. */
#ifndef TENDON_IO_FILE_H
#define TENDON_IO_FILE_H

#include <stddef.h>

#include "tendon/base.h"
#include "tendon/io/file_access.h"

/* Files larger than this are refused as absurd (an animation file is megabytes, not this). */
#define TDN_IO_MAX_FILE_BYTES ((size_t)1 << 31)

typedef struct tdn_io__file {
    char *data; /* size bytes (no terminating zero) */
    size_t size;
    tdn_allocator allocator; /* what data came from */
} tdn_io__file;

/* Reads the whole file at path with access's reader (NULL access or reader: tdn_file_read) into
 * memory from `allocator` (NULL: malloc). On failure err's `where` is the path and its message
 * the reader's reason (for the default reader: the system's, or that the path names a
 * directory, a FIFO, a device or a socket, refused without blocking on them). */
tdn_result tdn_io__read_with(const tdn_file_access *access, const char *path, const tdn_allocator *allocator,
                             tdn_io__file *file, tdn_error *err);
/* The same with the default reader and malloc. */
tdn_result tdn_io__read_file(const char *path, tdn_io__file *file, tdn_error *err);
/* Reads the file `name` names, as a file in folder `dir` names it (file_access.h: below dir, or
 * below one of access's roots), with access's reader. `dir` NULL (bytes loaded from memory
 * without a folder) allows no relative name. `whose` names that folder in messages ("the
 * document's"). *path (malloc'ed; may be NULL when not wanted) is dir joined with name,
 * normalized: the folder of that file is where its own names lead from. On failure err's
 * `where` is empty (the caller names the field and the name) and its message says why. */
tdn_result tdn_io__read_named(const tdn_file_access *access, const char *dir, const char *name, const char *whose,
                              const tdn_allocator *allocator, tdn_io__file *file, char **path, tdn_error *err);
void tdn_io__free_file(tdn_io__file *file);
/* The folder part of path ("." when there is none), for resolving relative URIs. */
void tdn_io__dir_of(const char *path, char *dir, size_t size);

#endif
