/* tendon io: motion-matching database files (libtendon_io).
 *
 * A database file holds exactly the bytes of tdn_mm_database_save_memory (mm_database.h): build
 * once (`tendon mm build`), then load in milliseconds. */
#ifndef TENDON_IO_MM_DATABASE_FILE_H
#define TENDON_IO_MM_DATABASE_FILE_H

#include "../base.h"
#include "../mm_database.h"
#include "file_access.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Both functions are thread-safe: they share nothing but the file system (two threads writing
 * one path at once race, as any two writers do). */

/* Writes db to path: a new file beside it, renamed over it only once complete, so that a file
 * there stays until then; a device such as /dev/null is written as it is. TDN_ERR_IO naming the
 * path when it cannot be written, and then what was at path is as it was. */
TDN_API tdn_result tdn_mm_database_save(const tdn_mm_database *db, const char *path, tdn_error *err);

/* Zero-initialisable. */
typedef struct tdn_mm_database_load_options {
    /* How the file is read (file_access.h). NULL: from the file system (tdn_file_read). */
    const tdn_file_access *file_access;
} tdn_mm_database_load_options;

/* Reads a database file (`options` may be NULL): TDN_ERR_IO when it cannot be read, else what
 * tdn_mm_database_load_memory says (its `where` then starts with the path). `allocator` (NULL:
 * malloc) serves the database and the file's bytes while it loads. */
TDN_API tdn_result tdn_mm_database_load(const char *path, const tdn_mm_database_load_options *options,
                                        tdn_mm_database **out, const tdn_allocator *allocator, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
