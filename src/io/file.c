/* tendon io: reading and writing whole files. */
#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset_internal.h"

tdn_result tdn_io__read_file(const char *path, tdn_io__file *file, tdn_error *err)
{
    file->data = NULL;
    file->size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return tdn_io__fail(err, TDN_ERR_IO, path, "cannot open: %s", strerror(errno));
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return tdn_io__fail(err, TDN_ERR_IO, path, "cannot find the file's size (not a regular file?)");
    }
    if ((size_t)size > TDN_IO_MAX_FILE_BYTES) {
        fclose(f);
        return tdn_io__fail(err, TDN_ERR_IO, path, "file of %ld bytes is larger than tendon reads (%zu)", size,
                            (size_t)TDN_IO_MAX_FILE_BYTES);
    }
    char *data = malloc((size_t)size + 1);
    if (!data) {
        fclose(f);
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, path, "no memory for %ld bytes", size);
    }
    size_t got = fread(data, 1, (size_t)size, f);
    int failed = ferror(f);
    fclose(f);
    if (failed || got != (size_t)size) {
        free(data);
        return tdn_io__fail(err, TDN_ERR_IO, path, "read %zu of %ld bytes", got, size);
    }
    data[size] = '\0';
    file->data = data;
    file->size = (size_t)size;
    return TDN_OK;
}

tdn_result tdn_io__write_file(const char *path, const void *data, size_t size, tdn_error *err)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return tdn_io__fail(err, TDN_ERR_IO, path, "cannot open for writing: %s", strerror(errno));
    const size_t wrote = fwrite(data, 1, size, f);
    int e = ferror(f) ? errno : 0;
    const int closed = fclose(f);
    if (closed != 0 && e == 0)
        e = errno;
    if (wrote != size || closed != 0) {
        remove(path); /* leave no half-written file behind */
        return tdn_io__fail(err, TDN_ERR_IO, path, "wrote %zu of %zu bytes: %s", wrote, size,
                            e ? strerror(e) : "write failed");
    }
    return TDN_OK;
}

void tdn_io__free_file(tdn_io__file *file)
{
    free(file->data);
    file->data = NULL;
    file->size = 0;
}

void tdn_io__dir_of(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, size, ".");
    else if (slash == path)
        snprintf(dir, size, "/");
    else
        snprintf(dir, size, "%.*s", (int)(slash - path), path);
}
