/* tendon io: reading and writing whole files (not installed). */
#ifndef TENDON_IO_FILE_H
#define TENDON_IO_FILE_H

#include <stddef.h>

#include "tendon/base.h"

/* Files larger than this are refused as absurd (an animation file is megabytes, not this). */
#define TDN_IO_MAX_FILE_BYTES ((size_t)1 << 31)

typedef struct tdn_io__file {
    char *data;   /* size bytes and a terminating zero */
    size_t size;
} tdn_io__file;

/* Reads the whole regular file; TDN_ERR_IO naming the path (with the system's reason) when it
 * cannot, or when the path names a directory, a FIFO, a device or a socket (refused without
 * blocking on them). */
tdn_result tdn_io__read_file(const char *path, tdn_io__file *file, tdn_error *err);
void tdn_io__free_file(tdn_io__file *file);
/* Writes size bytes as the whole file at path (replacing it); TDN_ERR_IO naming the path (with
 * the system's reason) when it cannot, and then no file is left at path. */
tdn_result tdn_io__write_file(const char *path, const void *data, size_t size, tdn_error *err);
/* The folder part of path ("." when there is none), for resolving relative URIs. */
void tdn_io__dir_of(const char *path, char *dir, size_t size);

#endif
