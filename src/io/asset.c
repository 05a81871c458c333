/* tendon io: the asset container, its accessors and the file entry point. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset_internal.h"
#include "file.h"

struct tdn_io__block {
    tdn_io__block *next;
    size_t size; /* of the whole allocation, this header included */
};

enum { BLOCK_ALIGN = 64, HEADER = 64 /* keeps the payload 64-aligned */ };

void *tdn_io__alloc(const tdn_allocator *a, size_t size)
{
    if (a->alloc)
        return a->alloc(size, BLOCK_ALIGN, a->user);
    return aligned_alloc(BLOCK_ALIGN, (size + BLOCK_ALIGN - 1) / BLOCK_ALIGN * BLOCK_ALIGN);
}

void tdn_io__free(const tdn_allocator *a, void *p, size_t size)
{
    if (!p)
        return;
    if (a->alloc)
        a->free(p, size, a->user);
    else
        free(p);
}

tdn_result tdn_io__import_scale(const tdn_asset_load_options *options, float *scale, tdn_error *err)
{
    *scale = options && options->scale != 0.0f ? options->scale : 1.0f;
    if (!(*scale >= TDN_IO_MIN_IMPORT_SCALE && *scale <= TDN_IO_MAX_IMPORT_SCALE))
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "options.scale", "the import scale %g is not in [%g, %g]",
                            (double)*scale, (double)TDN_IO_MIN_IMPORT_SCALE, (double)TDN_IO_MAX_IMPORT_SCALE);
    return TDN_OK;
}

tdn_asset *tdn_io__asset_new(tdn_asset_format format, const tdn_allocator *hooks)
{
    tdn_allocator allocator = { 0 };
    if (hooks && hooks->alloc && hooks->free)
        allocator = *hooks;
    tdn_asset *a = tdn_io__alloc(&allocator, sizeof *a);
    if (!a)
        return NULL;
    memset(a, 0, sizeof *a);
    a->format = format;
    a->allocator = allocator;
    a->chosen_skin = -1;
    return a;
}

void *tdn_io__asset_alloc(tdn_asset *asset, size_t size)
{
    if (size > SIZE_MAX - HEADER - BLOCK_ALIGN)
        return NULL;
    size_t total = HEADER + size;
    unsigned char *p = tdn_io__alloc(&asset->allocator, total);
    if (!p)
        return NULL;
    memset(p, 0, total);
    tdn_io__block *b = (tdn_io__block *)(void *)p;
    b->size = total;
    b->next = asset->blocks;
    asset->blocks = b;
    return p + HEADER;
}

char *tdn_io__asset_strdup(tdn_asset *asset, const char *s)
{
    size_t n = strlen(s);
    char *copy = tdn_io__asset_alloc(asset, n + 1);
    if (copy)
        memcpy(copy, s, n);
    return copy;
}

tdn_result tdn_io__asset_warn(tdn_asset *asset, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    const char **grown = tdn_io__asset_alloc(asset, sizeof(char *) * (size_t)(asset->warning_count + 1));
    char *copy = tdn_io__asset_strdup(asset, line);
    if (!grown || !copy)
        return TDN_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < asset->warning_count; i++)
        grown[i] = asset->warnings[i];
    grown[asset->warning_count++] = copy;
    asset->warnings = grown;
    return TDN_OK;
}

tdn_result tdn_io__asset_set_listed_joints(tdn_asset *asset, const int *listed, int count)
{
    const int n = tdn_skeleton_joint_count(asset->skeleton);
    int *joints = tdn_io__asset_alloc(asset, sizeof(int) * (size_t)(count > 0 ? count : 1));
    int *parents = tdn_io__asset_alloc(asset, sizeof(int) * (size_t)(count > 0 ? count : 1));
    int *listed_index = tdn_io__asset_alloc(asset, sizeof(int) * (size_t)n);
    if (!joints || !parents || !listed_index)
        return TDN_ERR_OUT_OF_MEMORY;
    for (int j = 0; j < n; j++)
        listed_index[j] = -1;
    for (int i = 0; i < count; i++) {
        if (listed[i] < 0 || listed[i] >= n || (i > 0 && listed[i] <= listed[i - 1]))
            return TDN_ERR_ARGUMENT;
        joints[i] = listed[i];
        listed_index[listed[i]] = i;
    }
    for (int i = 0; i < count; i++) {
        int p = tdn_skeleton_parent(asset->skeleton, joints[i]);
        while (p >= 0 && listed_index[p] < 0)
            p = tdn_skeleton_parent(asset->skeleton, p);
        parents[i] = p >= 0 ? listed_index[p] : -1;
    }
    asset->joints = joints;
    asset->joint_parents = parents;
    asset->joint_count = count;
    return TDN_OK;
}

void tdn_asset_destroy(tdn_asset *asset)
{
    if (!asset)
        return;
    for (int i = 0; i < asset->clip_count; i++)
        tdn_keyed_clip_destroy(asset->clips ? asset->clips[i] : NULL);
    tdn_skeleton_destroy(asset->skeleton);
    tdn_allocator allocator = asset->allocator;
    for (tdn_io__block *b = asset->blocks; b;) {
        tdn_io__block *next = b->next;
        tdn_io__free(&allocator, b, b->size);
        b = next;
    }
    tdn_io__free(&allocator, asset, sizeof *asset);
}

/* ---- loading a file ---- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* What bytes hold, by their content: a runtime pack's magic, the GLB magic (or the start of it,
 * in a GLB cut short), JSON (an object, or an array that the glTF reader refuses as such) or
 * "HIERARCHY" (after white space and a UTF-8 byte-order mark); 0 for none of them. */
static tdn_asset_format format_of(const char *data, size_t size)
{
    if (size >= 8 && memcmp(data, "TDNPACK", 8) == 0) /* its 8 bytes include the zero */
        return TDN_FORMAT_PACK;
    size_t skip = 0;
    if (size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        skip = 3;
    while (skip < size && strchr(" \t\r\n", data[skip]))
        skip++;
    if ((size > 0 && memcmp(data, "glTF", size < 4 ? size : 4) == 0) ||
        (skip < size && (data[skip] == '{' || data[skip] == '[')))
        return TDN_FORMAT_GLTF;
    if (size - skip >= 9 && memcmp(data + skip, "HIERARCHY", 9) == 0)
        return TDN_FORMAT_BVH;
    return (tdn_asset_format)0;
}

/* Loads bytes of either format; `from_file` refuses a file whose content is neither (without it
 * such bytes are read as BVH, whose parser says at which line they stop being one). */
static tdn_result load_bytes(const char *data, size_t size, const char *base_dir, const char *clip_name, int from_file,
                             const tdn_asset_load_options *options, tdn_asset **out, const tdn_allocator *allocator,
                             tdn_error *err)
{
    if (tdn_io__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    tdn_asset_format format = format_of(data, size);
    if (format == TDN_FORMAT_PACK)
        return tdn_io__pack_asset_load(data, size, options, out, allocator, err);
    if (format == TDN_FORMAT_GLTF)
        return tdn_io__gltf_load(data, size, base_dir, options, out, allocator, err);
    if (format == TDN_FORMAT_BVH || !from_file)
        return tdn_io__bvh_load(data, size, clip_name, options, out, allocator, err);
    return tdn_io__fail(err, TDN_ERR_PARSE, "", "not a glTF (JSON or GLB), BVH or runtime pack file");
}

/* The asset in a file read from `path`: the files it names are read from its folder, and a BVH
 * clip is named after it. Errors' `where` does not name the file. */
static tdn_result load_file(const tdn_io__file *file, const char *path, const tdn_asset_load_options *options,
                            tdn_asset **out, const tdn_allocator *allocator, tdn_error *err)
{
    char dir[4096], name[256];
    tdn_io__dir_of(path, dir, sizeof dir);
    snprintf(name, sizeof name, "%s", base_name(path));
    char *dot = strrchr(name, '.');
    if (dot && dot != name)
        *dot = '\0';
    return load_bytes(file->data, file->size, dir, name, 1, options, out, allocator, err);
}

tdn_result tdn_asset_load(const char *path, const tdn_asset_load_options *options, tdn_asset **out,
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
        return res; /* `where` is the path */
    res = load_file(&file, path, options, out, allocator, err);
    tdn_io__free_file(&file);
    if (res != TDN_OK)
        tdn_io__where_in(err, path, NULL);
    return res;
}

tdn_result tdn_io__asset_load_named(const char *dir, const char *name, const char *whose,
                                    const tdn_asset_load_options *options, tdn_asset **out,
                                    const tdn_allocator *allocator, tdn_error *err)
{
    *out = NULL;
    tdn_io__file file;
    char *path;
    tdn_result res = tdn_io__read_named(options ? options->file_access : NULL, dir, name, whose, allocator, &file,
                                        &path, err);
    if (res != TDN_OK)
        return res;
    res = load_file(&file, path, options, out, allocator, err);
    tdn_io__free_file(&file);
    free(path);
    return res;
}

tdn_result tdn_asset_load_memory(const void *data, size_t size, const tdn_asset_load_options *options, tdn_asset **out,
                                 const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!out || (!data && size > 0))
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, out ? "data" : "out", "is NULL");
    const char *name = options && options->name && options->name[0] ? options->name : NULL;
    tdn_result res = load_bytes(data ? data : "", size, options ? options->base_dir : NULL, name, 0, options, out,
                                allocator, err);
    if (res != TDN_OK)
        tdn_io__where_in(err, name, NULL); /* the bytes' name leads the place */
    return res;
}

/* ---- accessors ---- */

tdn_asset_format tdn_asset_format_of(const tdn_asset *a) { return a ? a->format : (tdn_asset_format)0; }
const tdn_skeleton *tdn_asset_skeleton(const tdn_asset *a) { return a ? a->skeleton : NULL; }
int tdn_asset_joint_count(const tdn_asset *a) { return a ? a->joint_count : 0; }
int tdn_asset_joint(const tdn_asset *a, int i) { return a && i >= 0 && i < a->joint_count ? a->joints[i] : -1; }
int tdn_asset_joint_parent(const tdn_asset *a, int i)
{
    return a && i >= 0 && i < a->joint_count ? a->joint_parents[i] : -1;
}
int tdn_asset_clip_count(const tdn_asset *a) { return a ? a->clip_count : 0; }
const tdn_keyed_clip *tdn_asset_clip(const tdn_asset *a, int i)
{
    return a && i >= 0 && i < a->clip_count ? a->clips[i] : NULL;
}
int tdn_asset_clip_channel_count(const tdn_asset *a, int i)
{
    return a && i >= 0 && i < a->clip_count && a->clip_channels ? a->clip_channels[i] : 0;
}

/* A decimal index written in full ("2", not "2x"), or -1. */
static int decimal_index(const char *s)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return *end == '\0' && errno == 0 && v >= 0 && v <= 0x7fffffff ? (int)v : -1;
}

int tdn_asset_find_clip(const tdn_asset *a, const char *name_or_index)
{
    if (!a || !name_or_index)
        return -1;
    for (int i = 0; i < a->clip_count; i++)
        if (strcmp(tdn_keyed_clip_name(a->clips[i]), name_or_index) == 0)
            return i;
    int i = decimal_index(name_or_index);
    return i < a->clip_count ? i : -1;
}

int tdn_asset_skin_count(const tdn_asset *a) { return a ? a->skin_count : 0; }
const char *tdn_asset_skin_name(const tdn_asset *a, int i)
{
    return a && i >= 0 && i < a->skin_count ? a->skin_names[i] : NULL;
}
int tdn_asset_skin_joint_count(const tdn_asset *a, int i)
{
    return a && i >= 0 && i < a->skin_count ? a->skin_joint_counts[i] : 0;
}
int tdn_asset_chosen_skin(const tdn_asset *a) { return a ? a->chosen_skin : -1; }

int tdn_asset_mesh_count(const tdn_asset *a) { return a ? a->mesh_count : 0; }
tdn_asset_mesh tdn_asset_mesh_at(const tdn_asset *a, int i)
{
    tdn_asset_mesh none = { 0 };
    return a && i >= 0 && i < a->mesh_count ? a->meshes[i] : none;
}

int tdn_asset_warning_count(const tdn_asset *a) { return a ? a->warning_count : 0; }
const char *tdn_asset_warning(const tdn_asset *a, int i)
{
    return a && i >= 0 && i < a->warning_count ? a->warnings[i] : NULL;
}
