/* tendon io: runtime pack files (libtendon_io).
 *
 * A pack file holds exactly the bytes of tdn_pack_writer_save_memory (pack.h, and
 * docs/pack-format.md): build it once (`tendon pack`), then load it with one read and one
 * validation pass. A tdn_pack_file owns the file's bytes, read into memory aligned as
 * tdn_pack_open requires, and the pack opened over them. */
#ifndef TENDON_IO_PACK_FILE_H
#define TENDON_IO_PACK_FILE_H

#include "../base.h"
#include "../pack.h"
#include "file_access.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every function here is thread-safe: they share nothing but the file system. A loaded pack
 * file is immutable and may be read by any number of threads. */

typedef struct tdn_pack_file tdn_pack_file;

/* Zero-initialisable. */
typedef struct tdn_pack_file_load_options {
    /* How the file is read (file_access.h). NULL: from the file system (tdn_file_read: a regular
     * file only, opened without blocking). */
    const tdn_file_access *file_access;
} tdn_pack_file_load_options;

/* Reads the pack file at path (`options` may be NULL) and opens it: TDN_ERR_IO when it cannot
 * be read, else what tdn_pack_open says (its `where` then starts with the path: "hero.tdn:
 * byte 1184"). `allocator` (NULL: malloc) serves the bytes and the pack. On failure *out is
 * NULL and nothing stays allocated. */
TDN_API tdn_result tdn_pack_file_load(const char *path, const tdn_pack_file_load_options *options, tdn_pack_file **out,
                                      const tdn_allocator *allocator, tdn_error *err);
/* Frees the pack and the file's bytes; NULL is ignored. */
TDN_API void tdn_pack_file_destroy(tdn_pack_file *file);
/* The pack the file holds, owned by the file (it lives as long as the file does); NULL for
 * NULL. */
TDN_API const tdn_pack *tdn_pack_file_pack(const tdn_pack_file *file);

/* Writes what `writer` holds as a pack file at path: a new file beside it, renamed over it only
 * once complete, so that a file there stays until then; a device such as /dev/null is written
 * as it is. TDN_ERR_IO naming the path when it cannot be written, and then what was at path is
 * as it was. */
TDN_API tdn_result tdn_pack_writer_save(const tdn_pack_writer *writer, const char *path, tdn_error *err);

#ifdef __cplusplus
}
#endif
#endif
