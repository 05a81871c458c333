/* tendon tests: the rule every file tendon writes follows (src/io/base/output_file.h). A regular
 * file is replaced only by a whole new one: a write that fails (here: its bytes sent to
 * /dev/full, "no space left", as a full disk would, which fails alike for root and for a user)
 * leaves the old bytes and no ".NAME.XXXXXX" temporary; a write that succeeds keeps the old
 * file's permission bits; a symbolic link stays a link to the replaced file; /dev/null and
 * /dev/full are written as they are and stay devices; a folder is refused, naming it. */
#define _XOPEN_SOURCE 700 /* mkdtemp, symlink, readlink, dup2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "output_file.h"

static char scratch[64];

/* scratch/name */
static char *at(char *out, const char *name)
{
    snprintf(out, 256, "%s/%s", scratch, name);
    return out;
}

static void write_plain(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!CHECK(f != NULL))
        return;
    CHECK(fwrite(text, 1, strlen(text), f) == strlen(text));
    fclose(f);
}

/* 1 when the file at path holds exactly `text` */
static int holds(const char *path, const char *text)
{
    char buf[256];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    const size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return n == strlen(text) && memcmp(buf, text, n) == 0;
}

/* The names in folder starting with '.' (but "." and ".."): the temporaries left there. */
static int hidden_count(const char *folder)
{
    DIR *d = opendir(folder);
    if (!CHECK(d != NULL))
        return -1;
    int count = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        count += e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return count;
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_mode : 0;
}

/* A new file is created as any new file is: 0666 less the umask. */
static void test_new_file(void)
{
    char path[256];
    const mode_t old_mask = umask(022);
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_io__write_file(at(path, "new.txt"), "fresh", 5, &err), TDN_OK);
    umask(old_mask);
    CHECK(holds(path, "fresh"));
    CHECK_EQ_INT(mode_of(path) & 0777, 0644);
    CHECK_EQ_INT(hidden_count(scratch), 0);
    CHECK(unlink(path) == 0);
}

/* Replacing a file gives the new bytes with the old file's permission bits (not the umask's). */
static void test_replace_keeps_permissions(void)
{
    char path[256];
    write_plain(at(path, "kept.txt"), "the old bytes");
    CHECK(chmod(path, 0604) == 0);
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_io__write_file(path, "new", 3, &err), TDN_OK);
    CHECK(holds(path, "new"));
    CHECK_EQ_INT(mode_of(path) & 0777, 0604);
    CHECK_EQ_INT(hidden_count(scratch), 0);
    CHECK(unlink(path) == 0);
}

/* The bytes go to a temporary beside the file; when writing them fails (the temporary's
 * descriptor pointed at /dev/full), commit says why, naming the path, and the old file is as
 * it was with no temporary left. */
static void test_failed_write_keeps_old_file(void)
{
    char path[256];
    write_plain(at(path, "old.txt"), "the old bytes");
    tdn_io__output out;
    tdn_error err = { 0 };
    if (!CHECK(tdn_io__output_open(&out, path, &err) == TDN_OK))
        return;
    char temp_prefix[256];
    at(temp_prefix, ".old.txt.");
    const char *temp = tdn_io__output_file_path(&out);
    CHECK(strncmp(temp, temp_prefix, strlen(temp_prefix)) == 0 && strlen(temp) == strlen(temp_prefix) + 6);
    CHECK_EQ_INT(hidden_count(scratch), 1);
    const int full = open("/dev/full", O_WRONLY);
    if (!CHECK(full >= 0 && dup2(full, fileno(out.file)) >= 0))
        return;
    close(full);
    fputs("the new bytes, which never arrive", out.file);
    CHECK_EQ_INT(tdn_io__output_commit(&out, &err), TDN_ERR_IO);
    CHECK(strcmp(err.where, path) == 0);
    CHECK(strstr(err.message, strerror(ENOSPC)) != NULL);
    CHECK(holds(path, "the old bytes"));
    CHECK_EQ_INT(hidden_count(scratch), 0);

    /* discarded: the same */
    CHECK_EQ_INT(tdn_io__output_open(&out, path, &err), TDN_OK);
    fputs("dropped", out.file);
    tdn_io__output_discard(&out);
    CHECK(holds(path, "the old bytes"));
    CHECK_EQ_INT(hidden_count(scratch), 0);
    CHECK(unlink(path) == 0);
}

/* A folder that does not exist: nothing is created, the error names the path and the folder. */
static void test_missing_folder(void)
{
    char path[256], folder[256];
    at(path, "gone/out.txt");
    at(folder, "gone");
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_io__write_file(path, "x", 1, &err), TDN_ERR_IO);
    CHECK(strcmp(err.where, path) == 0);
    CHECK(strstr(err.message, folder) != NULL && strstr(err.message, strerror(ENOENT)) != NULL);
    CHECK(mode_of(folder) == 0);
    CHECK_EQ_INT(hidden_count(scratch), 0);
}

/* Devices are written as they are: /dev/null takes the bytes, /dev/full fails with its reason;
 * both are character devices afterwards (neither replaced nor removed). */
static void test_devices(void)
{
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_io__write_file("/dev/null", "nothing", 7, &err), TDN_OK);
    CHECK(S_ISCHR(mode_of("/dev/null")));
    CHECK_EQ_INT(tdn_io__write_file("/dev/full", "too much", 8, &err), TDN_ERR_IO);
    CHECK(strcmp(err.where, "/dev/full") == 0 && strstr(err.message, strerror(ENOSPC)) != NULL);
    CHECK(S_ISCHR(mode_of("/dev/full")));
}

/* A folder is refused, naming it, and stays a folder. */
static void test_folder_refused(void)
{
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_io__write_file(scratch, "x", 1, &err), TDN_ERR_IO);
    CHECK(strcmp(err.where, scratch) == 0);
    CHECK(S_ISDIR(mode_of(scratch)));
    CHECK_EQ_INT(hidden_count(scratch), 0);
}

/* A symbolic link (relative, from another folder) is followed: the file it leads to is replaced
 * and the link stays the same link; a link to a file not yet there creates that file. */
static void test_symbolic_links(void)
{
    char real[256], sub[256], link[256], dangling[256], later[256], text[256];
    write_plain(at(real, "real.txt"), "the old bytes");
    CHECK(mkdir(at(sub, "sub"), 0777) == 0);
    CHECK(symlink("../real.txt", at(link, "sub/link.txt")) == 0);
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_io__write_file(link, "through the link", 16, &err), TDN_OK);
    struct stat st;
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    const ssize_t n = readlink(link, text, sizeof text - 1);
    CHECK(n == 11 && memcmp(text, "../real.txt", 11) == 0);
    CHECK(holds(real, "through the link"));
    CHECK_EQ_INT(hidden_count(scratch), 0);
    CHECK_EQ_INT(hidden_count(sub), 0);

    CHECK(symlink("../later.txt", at(dangling, "sub/dangling.txt")) == 0);
    CHECK_EQ_INT(tdn_io__write_file(dangling, "made", 4, &err), TDN_OK);
    CHECK(lstat(dangling, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(holds(at(later, "later.txt"), "made"));

    CHECK(unlink(link) == 0 && unlink(dangling) == 0 && rmdir(sub) == 0);
    CHECK(unlink(real) == 0 && unlink(later) == 0);
}

int main(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/tendon-output-file-XXXXXX");
    if (!CHECK(mkdtemp(scratch) != NULL))
        return check_summary();
    RUN(test_new_file);
    RUN(test_replace_keeps_permissions);
    RUN(test_failed_write_keeps_old_file);
    RUN(test_missing_folder);
    RUN(test_devices);
    RUN(test_folder_refused);
    RUN(test_symbolic_links);
    CHECK(rmdir(scratch) == 0);
    return check_summary();
}
