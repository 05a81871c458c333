/* tendon io: how libtendon_io reads files, and which files a file may name (libtendon_io).
 *
 * Files name other files: a glTF its external buffers, a graph document its character, clip
 * and motion-matching database files. Before such a name is read it must lead below the folder
 * of the file that names it: a relative path whose ".." segments do not climb out of that
 * folder. An absolute path, a ".." that leaves the folder, or a URI scheme ("file:", "http:",
 * "C:") is refused (TDN_ERR_INVALID_DATA; a scheme TDN_ERR_UNSUPPORTED), unless the caller
 * allows more folders, `roots`, in which such a path may end. With the default reader the
 * file is also checked as it really is, every symbolic link resolved (realpath): a link inside
 * the folder that points outside it is refused unless its target lies below a root, and the
 * resolved file is what is read. (This keeps a file from reaching outside what its reader
 * allows; it does not guard against another process swapping folders while tendon reads.)
 * The files a caller names itself (the path given to tdn_asset_load) are not checked.
 *
 * The caller chooses the reader and the roots with a tdn_file_access, given to the load options
 * of assets, graph documents, blend-space files and databases (a graph document passes its own
 * on to the files it loads, so a character's glTF buffers follow the same rules). A NULL
 * tdn_file_access, or a zeroed one, is the default reader with no roots. A custom reader lets
 * a game read from its pack files (names are then checked as text only: no symbolic links);
 * roots let a tool allow a shared asset folder. */
#ifndef TENDON_IO_FILE_ACCESS_H
#define TENDON_IO_FILE_ACCESS_H

#include <stddef.h>

#include "../base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A reader: the whole file at `path` into memory from `allocator` (never NULL; both hooks
 * set), *data (size bytes) and *size. tendon releases the memory with tdn_free(*data, *size, allocator) when it is done
 * with it (while the call that read it runs). On failure it returns TDN_ERR_IO (or
 * TDN_ERR_OUT_OF_MEMORY) with the reason in err->message; tendon then puts the file's place in
 * err->where. `user` is tdn_file_access.user. */
typedef tdn_result (*tdn_file_read_fn)(void *user, const char *path, void **data, size_t *size,
                                       const tdn_allocator *allocator, tdn_error *err);

/* Zero-initialisable; the strings and the roots array must live as long as the call that
 * uses them. */
typedef struct tdn_file_access {
    tdn_file_read_fn read; /* NULL: tdn_file_read */
    void *user;            /* passed to read */
    /* root_count folders (absolute, or relative to the current folder) below which the files
     * a file names may also be, through absolute paths or ".." */
    const char *const *roots;
    int root_count;
} tdn_file_access;

/* The default reader: a regular file of the file system, opened without blocking (a FIFO,
 * device, socket or directory is refused at once, TDN_ERR_IO), of at most 2 GiB. `user` is
 * not read; `allocator` may be NULL (malloc) when called directly. On failure err->where is
 * the path; half-set allocator hooks are TDN_ERR_ARGUMENT ("allocator"). The bytes are released
 * with tdn_free(data, size, allocator). Thread-safe. A custom reader may call it for the files it
 * does not serve itself; tendon may call a custom reader from any thread that loads. */
TDN_API tdn_result tdn_file_read(void *user, const char *path, void **data, size_t *size,
                                 const tdn_allocator *allocator, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
