/* tendon io: the files a file may name (file_access.h): below its folder, or below a root the
 * caller allows, checked as text and, with the default reader, as the file really is. */
#define _XOPEN_SOURCE 700 /* realpath, getcwd */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asset_internal.h"
#include "file.h"

/* path with "." and empty segments dropped and each ".." taking back the segment before it,
 * into out (room for strlen(path) + 2); "." when nothing is left. Returns how many ".." remain
 * at the start of a relative path: how far it climbs above where it starts. */
static int normalize(const char *path, char *out)
{
    const int absolute = path[0] == '/';
    size_t n = 0;
    int depth = 0, climbs = 0; /* depth: segments after the leading ".." */
    if (absolute)
        out[n++] = '/';
    const size_t base = n;
    for (const char *p = path; *p;) {
        while (*p == '/')
            p++;
        const char *end = strchr(p, '/');
        const size_t length = end ? (size_t)(end - p) : strlen(p);
        if (length == 0)
            break;
        if (length == 2 && p[0] == '.' && p[1] == '.') {
            if (depth > 0) { /* the last segment goes, and the '/' before it */
                while (n > base && out[n - 1] != '/')
                    n--;
                n -= n > base;
                depth--;
            } else if (!absolute) { /* "/.." is "/" */
                if (n > base)
                    out[n++] = '/';
                out[n++] = '.', out[n++] = '.';
                climbs++;
            }
        } else if (!(length == 1 && p[0] == '.')) {
            if (n > base)
                out[n++] = '/';
            memcpy(out + n, p, length);
            n += length;
            depth++;
        }
        p += length;
    }
    if (n == 0)
        out[n++] = '.';
    out[n] = '\0';
    return climbs;
}

/* a + "/" + b, normalized (malloc'ed), or NULL when out of memory. */
static char *join(const char *a, const char *b)
{
    const size_t na = strlen(a), nb = strlen(b);
    char *both = malloc(na + nb + 2), *out = malloc(na + nb + 4);
    if (both && out) {
        memcpy(both, a, na);
        both[na] = '/';
        memcpy(both + na + 1, b, nb + 1);
        normalize(both, out);
    }
    free(both);
    if (!both) {
        free(out);
        return NULL;
    }
    return out;
}

/* path normalized, made absolute from the current folder when `absolute` (malloc'ed; NULL when
 * out of memory or the current folder is unknown). */
static char *normalized(const char *path, int absolute)
{
    if (absolute && path[0] != '/') {
        char cwd[PATH_MAX];
        return getcwd(cwd, sizeof cwd) ? join(cwd, path) : NULL;
    }
    char *out = malloc(strlen(path) + 3);
    if (out)
        normalize(path, out);
    return out;
}

/* Whether normalized path lies below normalized folder. */
static int below(const char *path, const char *folder)
{
    if (strcmp(folder, ".") == 0)
        return path[0] != '/' && strcmp(path, "..") != 0 && strncmp(path, "../", 3) != 0 && strcmp(path, ".") != 0;
    if (strcmp(folder, "/") == 0)
        return path[0] == '/' && path[1] != '\0';
    const size_t n = strlen(folder);
    return strncmp(path, folder, n) == 0 && path[n] == '/';
}

/* Whether path lies below one of access's roots: as text (normalized; made absolute from the
 * current folder when `absolute`), or as the roots really are (realpath) when `real`. */
static int in_a_root(const tdn_file_access *access, const char *path, int absolute, int real)
{
    int found = 0;
    for (int i = 0; access && !found && i < access->root_count; i++) {
        const char *root = access->roots ? access->roots[i] : NULL;
        if (!root || !root[0])
            continue;
        char *folder = real ? realpath(root, NULL) : normalized(root, absolute);
        found = folder && below(path, folder);
        free(folder);
    }
    return found;
}

/* A URI scheme ("file:", "http:"; a drive letter "C:" reads as one too) before the first '/'. */
static int scheme_length(const char *name)
{
    size_t n = 0;
    while (name[n] && name[n] != ':' && name[n] != '/')
        n++;
    return name[n] == ':' && n > 0 ? (int)n : 0;
}

/* A ".." between backslashes, or a leading one: a path another system reads as leaving the
 * folder (POSIX reads it as a name; it is refused all the same). */
static int backslash_escape(const char *name)
{
    if (name[0] == '\\')
        return 1;
    for (const char *p = name; (p = strstr(p, "..")) != NULL; p += 2) {
        const int before = p == name || p[-1] == '/' || p[-1] == '\\',
                  after = p[2] == '\0' || p[2] == '/' || p[2] == '\\';
        if (before && after && ((p > name && p[-1] == '\\') || p[2] == '\\'))
            return 1;
    }
    return 0;
}

tdn_result tdn_io__read_named(const tdn_file_access *access, const char *dir, const char *name, const char *whose,
                              const tdn_allocator *allocator, tdn_io__file *file, char **path, tdn_error *err)
{
    memset(file, 0, sizeof *file);
    if (path)
        *path = NULL;
    const int scheme = scheme_length(name);
    if (scheme)
        return tdn_io__fail(err, TDN_ERR_UNSUPPORTED, "",
                            "a URI scheme ('%.*s:'), not a path; tendon reads files by "
                            "path",
                            scheme < 16 ? scheme : 16, name);
    if (!name[0])
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, "", "an empty path names no file");
    if (backslash_escape(name))
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, "",
                            "a '..' segment or a leading '\\' in a path written with "
                            "backslashes; write paths with '/', below %s folder",
                            whose);
    const int by_default = !access || !access->read; /* files of the file system: links can be resolved */
    const int absolute = name[0] == '/';
    char *own = malloc(strlen(name) + 3);
    if (!own)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory");
    const int inside = !absolute && normalize(name, own) == 0; /* below the folder, as text */
    free(own);
    if (!dir && !absolute) {
        if (inside)
            return tdn_io__fail(err, TDN_ERR_ARGUMENT, "",
                                "read from memory without a folder (options.base_dir), so "
                                "the files it names cannot be read");
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, "", "its '..' leads outside %s folder", whose);
    }
    char *joined = absolute ? normalized(name, 0) : join(dir, name);
    char *compared = joined && !inside ? normalized(joined, by_default) : NULL;
    char *real = NULL;
    tdn_result r = TDN_OK;
    if (!joined || (!inside && !compared))
        r = tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory (or the current folder is gone)");
    else if (!inside && !in_a_root(access, compared, by_default, 0))
        r = tdn_io__fail(err, TDN_ERR_INVALID_DATA, "",
                         absolute ? "an absolute path, outside %s folder and the allowed "
                                    "roots"
                                  : "its '..' leads outside %s folder and the allowed roots",
                         whose);
    if (r == TDN_OK && by_default && (real = realpath(joined, NULL)) != NULL) {
        /* the file as it really is: a symbolic link on the way may lead anywhere */
        char *folder = inside ? realpath(dir, NULL) : NULL;
        const int allowed = (folder && below(real, folder)) || in_a_root(access, real, 1, 1);
        free(folder);
        if (!allowed)
            r = tdn_io__fail(err, TDN_ERR_INVALID_DATA, "",
                             "a symbolic link on the way leads to '%.100s', outside %s "
                             "folder and the allowed roots",
                             real, whose);
    }
    if (r == TDN_OK) { /* the reader's reason; the caller names the place */
        r = tdn_io__read_with(access, real ? real : joined, allocator, file, err);
        if (r != TDN_OK && err)
            err->where[0] = '\0';
    }
    free(real);
    free(compared);
    if (r == TDN_OK && path)
        *path = joined;
    else
        free(joined);
    return r;
}
