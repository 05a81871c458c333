/* tendon io: writing a file so that a failed write never destroys what was there (see
 * output_file.h). */
#define _POSIX_C_SOURCE 200809L /* lstat, readlink, fsync, fchown, clock_gettime */
#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fail.h"
#include "file.h"

enum { MAX_LINKS = 40, MAX_LINK_TEXT = 4096, TEMP_ATTEMPTS = 100 };

static char *copy_of(const char *s)
{
    const size_t n = strlen(s) + 1;
    char *c = malloc(n);
    return c ? memcpy(c, s, n) : NULL;
}

/* path with the symbolic links it names followed, link after link, to the name of the file they
 * lead to, which may not exist yet (a link to a file still to be written): malloc'ed, or NULL
 * with errno set. The folders on the way are left as they are: the rename works through them. */
static char *follow_links(const char *path)
{
    char *name = copy_of(path);
    for (int links = 0; name; links++) {
        struct stat st;
        if (lstat(name, &st) != 0 || !S_ISLNK(st.st_mode))
            return name; /* not a link, or nothing there (creating it will say why if it cannot) */
        char text[MAX_LINK_TEXT];
        const ssize_t n = links < MAX_LINKS ? readlink(name, text, sizeof text) : -1;
        if (links == MAX_LINKS || n < 0 || n == (ssize_t)sizeof text) {
            const int e = links == MAX_LINKS ? ELOOP : n < 0 ? errno : ENAMETOOLONG;
            free(name);
            errno = e;
            return NULL;
        }
        text[n] = '\0';
        char dir[MAX_LINK_TEXT];
        tdn_io__dir_of(name, dir, sizeof dir); /* a relative link leads from its own folder */
        char *next = malloc(strlen(dir) + (size_t)n + 2);
        if (next && text[0] == '/')
            memcpy(next, text, (size_t)n + 1);
        else if (next)
            sprintf(next, "%s/%s", dir, text);
        free(name);
        name = next;
    }
    errno = ENOMEM;
    return NULL;
}

/* A new file beside target, ".NAME.XXXXXX" (the X's random, the file created only when no file
 * has that name: O_EXCL), with `mode` less the umask, as any new file. *temp gets its name. */
static int create_temp(const char *target, mode_t mode, char **temp)
{
    const char *slash = strrchr(target, '/');
    const size_t dir_length = slash ? (size_t)(slash - target) + 1 : 0;
    char *name = malloc(strlen(target) + 9);
    if (!name) {
        errno = ENOMEM;
        return -1;
    }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    /* differs between processes (pid), calls (time) and threads (a stack address); a name that
     * is taken anyway is only tried again */
    uint64_t seed = (uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 30) ^ ((uint64_t)getpid() << 40) ^
                    (uint64_t)(uintptr_t)&now;
    static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    for (int attempt = 0; attempt < TEMP_ATTEMPTS; attempt++) {
        char suffix[7];
        for (int i = 0; i < 6; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            suffix[i] = letters[(seed >> 33) % (sizeof letters - 1)];
        }
        suffix[6] = '\0';
        sprintf(name, "%.*s.%s.%s", (int)dir_length, target, target + dir_length, suffix);
        const int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0) {
            *temp = name;
            return fd;
        }
        if (errno != EEXIST)
            break;
    }
    const int e = errno;
    free(name);
    errno = e;
    return -1;
}

static void release(tdn_io__output *out)
{
    free(out->path);
    free(out->temp);
    free(out->target);
    memset(out, 0, sizeof *out);
}

/* The folder a file is created in, for the message of a file that cannot be. */
static tdn_result cannot_create(tdn_io__output *out, const char *path, const char *target, int e, tdn_error *err)
{
    char dir[MAX_LINK_TEXT];
    tdn_io__dir_of(target ? target : path, dir, sizeof dir);
    release(out);
    return tdn_io__fail(err, e == ENOMEM ? TDN_ERR_OUT_OF_MEMORY : TDN_ERR_IO, path, "cannot create a file in %s: %s",
                        dir, strerror(e));
}

tdn_result tdn_io__output_open(tdn_io__output *out, const char *path, tdn_error *err)
{
    memset(out, 0, sizeof *out);
    if (!(out->path = copy_of(path)))
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, path, "no memory to open it");
    struct stat st;
    const int exists = stat(path, &st) == 0;
    int fd = -1;
    if (exists && S_ISDIR(st.st_mode)) {
        release(out);
        return tdn_io__fail(err, TDN_ERR_IO, path, "is a folder, not a file to write");
    }
    if (exists && !S_ISREG(st.st_mode)) {
        /* a device, a FIFO, a terminal: written as it is (no O_CREAT: it exists; no O_TRUNC:
         * nothing of it is to be lost but what the writes replace) */
        fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) {
            const int e = errno;
            release(out);
            return tdn_io__fail(err, TDN_ERR_IO, path, "cannot open for writing: %s", strerror(e));
        }
    } else {
        if (!(out->target = follow_links(path)))
            return cannot_create(out, path, NULL, errno, err);
        struct stat target;
        if (exists && (stat(out->target, &target) != 0 || target.st_dev != st.st_dev || target.st_ino != st.st_ino)) {
            /* a link whose text is not the file's name (/proc's links to deleted files) */
            release(out);
            return tdn_io__fail(err, TDN_ERR_IO, path, "leads to a file that cannot be replaced by name");
        }
        fd = create_temp(out->target, exists ? S_IRUSR | S_IWUSR : 0666, &out->temp);
        if (fd < 0)
            return cannot_create(out, path, out->target, errno, err);
        if (exists) { /* the replaced file's owner, where allowed (root), and its permissions */
            if ((st.st_uid != geteuid() || st.st_gid != getegid()) && fchown(fd, st.st_uid, st.st_gid) != 0) {
                /* then the creator's: a user may not give a file away */
            }
            fchmod(fd, st.st_mode & 0777);
        }
    }
    if (!(out->file = fdopen(fd, "wb"))) {
        const int e = errno;
        close(fd);
        if (out->temp)
            unlink(out->temp);
        release(out);
        return tdn_io__fail(err, TDN_ERR_IO, path, "cannot open for writing: %s", strerror(e));
    }
    return TDN_OK;
}

const char *tdn_io__output_file_path(const tdn_io__output *out) { return out->temp ? out->temp : out->path; }

tdn_result tdn_io__output_commit(tdn_io__output *out, tdn_error *err)
{
    if (!out->file)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, out->path ? out->path : "output", "is not open");
    /* the reason of a failed write: the flush meets it again with what was left unwritten;
     * -1: a write failed for a reason no longer known */
    int e = fflush(out->file) != 0 ? errno : ferror(out->file) ? -1 : 0;
    /* on disk before the rename, so that a crash leaves the old file or the whole new one */
    if (!e && out->temp && fsync(fileno(out->file)) != 0)
        e = errno;
    if (fclose(out->file) != 0 && !e)
        e = errno;
    out->file = NULL;
    if (!e && out->temp && rename(out->temp, out->target) != 0)
        e = errno;
    else if (!e && out->temp) {
        free(out->temp);
        out->temp = NULL;
    }
    if (!e) {
        release(out);
        return TDN_OK;
    }
    if (out->temp)
        unlink(out->temp);
    const tdn_result r = tdn_io__fail(err, TDN_ERR_IO, out->path, "writing failed: %s",
                                      e > 0 ? strerror(e) : "a write failed");
    release(out);
    return r;
}

void tdn_io__output_discard(tdn_io__output *out)
{
    if (out->file)
        fclose(out->file);
    if (out->temp)
        unlink(out->temp);
    release(out);
}

tdn_result tdn_io__write_file(const char *path, const void *data, size_t size, tdn_error *err)
{
    tdn_io__output out;
    const tdn_result r = tdn_io__output_open(&out, path, err);
    if (r != TDN_OK)
        return r;
    const size_t wrote = fwrite(data, 1, size, out.file);
    if (wrote != size) {
        const int e = errno;
        tdn_io__output_discard(&out);
        return tdn_io__fail(err, TDN_ERR_IO, path, "wrote %zu of %zu bytes: %s", wrote, size, strerror(e));
    }
    return tdn_io__output_commit(&out, err);
}
