/* tendon io: motion-matching database files. */
#include "tendon/mm_file.h"

#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tdn_result io_fail(tdn_error *err, const char *path, const char *what)
{
    if (err) {
        err->code = TDN_ERR_IO;
        snprintf(err->where, sizeof err->where, "%s", path);
        snprintf(err->message, sizeof err->message, "cannot %s: %s", what, strerror(errno));
    }
    return TDN_ERR_IO;
}

tdn_result tdn_mm_database_write_file(const tdn_mm_database *db, const char *path, tdn_error *err)
{
    if (!db || !path)
        return TDN_ERR_ARGUMENT;
    const size_t size = tdn_mm_database_save_size(db);
    void *bytes = malloc(size);
    if (!bytes)
        return TDN_ERR_OUT_OF_MEMORY;
    tdn_mm_database_save(db, bytes, size);
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(bytes);
        return io_fail(err, path, "open it for writing");
    }
    const int written = fwrite(bytes, 1, size, f) == size;
    const int closed = fclose(f) == 0;
    free(bytes);
    return written && closed ? TDN_OK : io_fail(err, path, "write it");
}

tdn_result tdn_mm_database_read_file(const char *path, const tdn_allocator *allocator, tdn_mm_database **out, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!path || !out)
        return TDN_ERR_ARGUMENT;
    tdn_io__file file;
    tdn_result res = tdn_io__read_file(path, &file, err);
    if (res != TDN_OK)
        return res;
    res = tdn_mm_database_load(file.data, file.size, allocator, out, err);
    tdn_io__free_file(&file);
    if (res != TDN_OK && err) {
        char where[2 * sizeof err->where];
        snprintf(where, sizeof where, "%s: %s", path, err->where);
        size_t len = strlen(where) < sizeof err->where ? strlen(where) : sizeof err->where - 1;
        memcpy(err->where, where, len);
        err->where[len] = '\0';
    }
    return res;
}
