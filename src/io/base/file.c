/* tendon io: reading whole files (writing them: output_file.c). */
#define _POSIX_C_SOURCE 200809L /* open, fstat, read: POSIX is fine for libtendon_io */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fail.h"

/* What a path that is not a regular file names, for the message. */
static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "something else";
}

/* malloc as allocator hooks: what a reader gets when the caller gave none. */
static void *heap_alloc(size_t size, size_t align, void *user)
{
    (void)user;
    if (align < sizeof(void *))
        align = sizeof(void *);
    return aligned_alloc(align, (size + align - 1) / align * align);
}

static void heap_free(void *ptr, size_t size, void *user)
{
    (void)size, (void)user;
    free(ptr);
}

tdn_result tdn_file_read(void *user, const char *path, void **out, size_t *out_size, const tdn_allocator *allocator,
                         tdn_error *err)
{
    (void)user;
    if (!path || !out || !out_size)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, path ? path : "path", "path, data and size are required");
    *out = NULL;
    *out_size = 0;
    if (tdn_io__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    const tdn_allocator heap = { heap_alloc, heap_free, NULL };
    if (!allocator || !allocator->alloc)
        allocator = &heap;
    /* Opened without blocking (a FIFO with no writer would wait forever), then checked on the
     * open descriptor (not the path, which could be swapped in between): only a regular file
     * has a size to trust. */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return tdn_io__fail(err, TDN_ERR_IO, path, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        const int e = errno;
        close(fd);
        return tdn_io__fail(err, TDN_ERR_IO, path, "cannot find the file's size: %s", strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return tdn_io__fail(err, TDN_ERR_IO, path, "is %s, not a regular file", kind_of(st.st_mode));
    }
    if (st.st_size < 0 || (uintmax_t)st.st_size > TDN_IO_MAX_FILE_BYTES) {
        close(fd);
        return tdn_io__fail(err, TDN_ERR_IO, path, "file of %jd bytes is larger than tendon reads (%zu)",
                            (intmax_t)st.st_size, (size_t)TDN_IO_MAX_FILE_BYTES);
    }
    const size_t size = (size_t)st.st_size;
    char *data = allocator->alloc(size ? size : 1, 16, allocator->user);
    if (!data) {
        close(fd);
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, path, "no memory for %zu bytes", size);
    }
    size_t got = 0;
    int e = 0;
    while (got < size) {
        const ssize_t n = read(fd, data + got, size - got);
        if (n > 0)
            got += (size_t)n;
        else if (n == 0 || errno != EINTR) {
            e = n < 0 ? errno : 0;
            break;
        }
    }
    close(fd);
    if (got != size) { /* an error, or the file shrank while being read */
        tdn_free(data, size, allocator);
        return tdn_io__fail(err, TDN_ERR_IO, path, "read %zu of %zu bytes%s%s", got, size, e ? ": " : "",
                            e ? strerror(e) : "");
    }
    *out = data;
    *out_size = size;
    return TDN_OK;
}

tdn_result tdn_io__read_with(const tdn_file_access *access, const char *path, const tdn_allocator *allocator,
                             tdn_io__file *file, tdn_error *err)
{
    memset(file, 0, sizeof *file);
    file->allocator = allocator && allocator->alloc ? *allocator : (tdn_allocator){ heap_alloc, heap_free, NULL };
    if (!access || !access->read) {
        void *data;
        const tdn_result r = tdn_file_read(NULL, path, &data, &file->size, &file->allocator, err);
        file->data = data;
        return r;
    }
    /* a reader of the caller's: its reason, tendon's place */
    tdn_error why = { 0 };
    void *data = NULL;
    size_t size = 0;
    tdn_result r = access->read(access->user, path, &data, &size, &file->allocator, &why);
    if (r == TDN_OK && !data && size > 0)
        r = tdn_io__fail(&why, TDN_ERR_IO, "", "the reader returned %zu bytes at NULL", size);
    if (r != TDN_OK)
        return tdn_io__fail(err, r, path, "%s", why.message[0] ? why.message : "the reader could not read it");
    file->data = data;
    file->size = size;
    return TDN_OK;
}

tdn_result tdn_io__read_file(const char *path, tdn_io__file *file, tdn_error *err)
{
    return tdn_io__read_with(NULL, path, NULL, file, err);
}

void tdn_io__free_file(tdn_io__file *file)
{
    if (file->data)
        tdn_free(file->data, file->size, &file->allocator);
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
