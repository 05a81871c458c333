/* tendon io: motion-matching database files. */
#include "tendon/io/mm_database_file.h"

#include "asset_internal.h"
#include "file.h"
#include "output_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

tdn_result tdn_mm_database_save(const tdn_mm_database *db, const char *path, tdn_error *err)
{
    if (!db || !path)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, !db ? "db" : "path", "is NULL");
    const size_t size = tdn_mm_database_save_size(db);
    void *bytes = malloc(size);
    if (!bytes)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, path, "no memory for the database's %zu bytes", size);
    tdn_result r = tdn_mm_database_save_memory(db, bytes, size, err);
    if (r == TDN_OK)
        r = tdn_io__write_file(path, bytes, size, err);
    free(bytes);
    return r;
}

tdn_result tdn_mm_database_load(const char *path, const tdn_mm_database_load_options *options, tdn_mm_database **out,
                                const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!path || !out)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, !path ? "path" : "out", "is NULL");
    if (tdn_io__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    tdn_io__file file;
    tdn_result res = tdn_io__read_with(options ? options->file_access : NULL, path, allocator, &file, err);
    if (res != TDN_OK)
        return res;
    res = tdn_mm_database_load_memory(file.data, file.size, out, allocator, err);
    tdn_io__free_file(&file);
    if (res != TDN_OK)
        tdn_io__where_in(err, path, NULL);
    return res;
}
