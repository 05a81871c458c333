/* tendon io: runtime pack files: read into memory aligned for tdn_pack_open, and written. */
#include "tendon/io/pack_file.h"

#include "fail.h"
#include "file.h"
#include "output_file.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct tdn_pack_file {
    tdn_allocator allocator; /* the caller's (zeroed: malloc), which serves all three below */
    void *data;
    size_t size;
    tdn_pack *pack;
};

/* The caller's allocator asked for TDN_PACK_ALIGN at least: what the file's bytes are read
 * into. `user` is the caller's hooks (never NULL; zeroed: aligned_alloc). */
static void *aligned_alloc_hook(size_t size, size_t align, void *user)
{
    const tdn_allocator *a = user;
    if (align < TDN_PACK_ALIGN)
        align = TDN_PACK_ALIGN;
    if (a->alloc)
        return a->alloc(size, align, a->user);
    return aligned_alloc(align, (size + align - 1) / align * align);
}

static void free_hook(void *ptr, size_t size, void *user) { tdn_free(ptr, size, user); }

tdn_result tdn_pack_file_load(const char *path, const tdn_pack_file_load_options *options, tdn_pack_file **out,
                              const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!path || !out)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, !path ? "path" : "out", "is NULL");
    if (tdn_io__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    const tdn_allocator none = { NULL, NULL, NULL }, caller = allocator ? *allocator : none;
    const tdn_allocator aligned = { aligned_alloc_hook, free_hook, (void *)&caller };
    tdn_io__file file;
    tdn_result res = tdn_io__read_with(options ? options->file_access : NULL, path, &aligned, &file, err);
    if (res != TDN_OK)
        return res;
    if ((uintptr_t)file.data % TDN_PACK_ALIGN != 0) { /* a reader of the caller's that ignored the alignment */
        void *copy = aligned_alloc_hook(file.size ? file.size : 1, TDN_PACK_ALIGN, (void *)&caller);
        if (copy)
            memcpy(copy, file.data, file.size);
        tdn_io__free_file(&file);
        if (!copy)
            return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, path, "no memory for the pack's %zu bytes", file.size);
        file.data = copy;
    }
    tdn_pack_file *f = aligned_alloc_hook(sizeof *f, 16, (void *)&caller);
    if (!f) {
        tdn_free(file.data, file.size, &caller);
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, path, "no memory for the pack file");
    }
    f->allocator = caller;
    f->data = file.data;
    f->size = file.size;
    res = tdn_pack_open(f->data, f->size, &f->pack, allocator, err);
    if (res != TDN_OK) {
        tdn_io__where_in(err, path, NULL);
        f->pack = NULL;
        tdn_pack_file_destroy(f);
        return res;
    }
    *out = f;
    return TDN_OK;
}

void tdn_pack_file_destroy(tdn_pack_file *file)
{
    if (!file)
        return;
    tdn_pack_destroy(file->pack);
    const tdn_allocator a = file->allocator;
    tdn_free(file->data, file->size, &a);
    tdn_free(file, sizeof *file, &a);
}

const tdn_pack *tdn_pack_file_pack(const tdn_pack_file *file) { return file ? file->pack : NULL; }

tdn_result tdn_pack_writer_save(const tdn_pack_writer *writer, const char *path, tdn_error *err)
{
    if (!writer || !path)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, !writer ? "writer" : "path", "is NULL");
    void *bytes = NULL;
    size_t size = 0;
    tdn_result res = tdn_pack_writer_save_memory(writer, &bytes, &size, NULL, err);
    if (res == TDN_OK)
        res = tdn_io__write_file(path, bytes, size, err);
    tdn_free(bytes, size, NULL);
    return res;
}
