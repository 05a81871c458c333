/* tendon core: result names, error reports, default allocation, version. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tendon/version.h"

const char *tdn_result_name(tdn_result code)
{
    switch (code) {
    case TDN_OK:
        return "TDN_OK";
    case TDN_ERR_ARGUMENT:
        return "TDN_ERR_ARGUMENT";
    case TDN_ERR_OUT_OF_MEMORY:
        return "TDN_ERR_OUT_OF_MEMORY";
    case TDN_ERR_INVALID_DATA:
        return "TDN_ERR_INVALID_DATA";
    case TDN_ERR_TOLERANCE:
        return "TDN_ERR_TOLERANCE";
    case TDN_ERR_IO:
        return "TDN_ERR_IO";
    case TDN_ERR_PARSE:
        return "TDN_ERR_PARSE";
    case TDN_ERR_UNSUPPORTED:
        return "TDN_ERR_UNSUPPORTED";
    }
    return NULL;
}

int tdn_version(void) { return TDN_VERSION; }
const char *tdn_version_string(void) { return TDN_VERSION_STRING; }

void *tdn__alloc(const tdn_allocator *allocator, size_t size, size_t align)
{
    if (size == 0)
        size = 1;
    if (allocator && allocator->alloc)
        return allocator->alloc(size, align, allocator->user);
    if (align < sizeof(void *))
        align = sizeof(void *);
    /* aligned_alloc wants the size to be a multiple of the alignment. */
    return aligned_alloc(align, tdn__align_up(size, align));
}

void tdn__free(const tdn_allocator *allocator, void *ptr, size_t size)
{
    if (!ptr)
        return;
    if (allocator && allocator->alloc) {
        if (allocator->free)
            allocator->free(ptr, size == 0 ? 1 : size, allocator->user);
        return;
    }
    free(ptr);
}

void tdn_free(void *ptr, size_t size, const tdn_allocator *allocator)
{
    if (allocator && !allocator->alloc != !allocator->free)
        return; /* refused by every call that hands memory back: it cannot be theirs */
    tdn__free(allocator, ptr, size);
}

tdn_result tdn__null(tdn_error *err, const char *where)
{
    return tdn__fail(err, TDN_ERR_ARGUMENT, where, "%s is NULL", where);
}

tdn_result tdn__pose_size(tdn_error *err, const char *where, int have, int want, const char *of)
{
    return tdn__fail(err, TDN_ERR_ARGUMENT, where, "the %s has %d joints, %s %d", where, have, of, want);
}

tdn_result tdn__clip_pose_size(tdn_error *err, int have, int want)
{
    return tdn__fail(err, TDN_ERR_ARGUMENT, "pose",
                     "the pose has %d joints, the clip's skeleton %d: make poses with tdn_skeleton_joint_count "
                     "(an asset's listed joints, tdn_asset_joint_count, can be fewer)",
                     have, want);
}

tdn_result tdn__check_allocator(const tdn_allocator *allocator, tdn_error *err)
{
    if (allocator && !allocator->alloc != !allocator->free)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "allocator", "give both alloc and free, or neither");
    return TDN_OK;
}

/* Appends text to buf, which holds len bytes of size, keeping room for the zero; the new length. */
static size_t append(char *buf, size_t size, size_t len, const char *text)
{
    while (*text && len + 1 < size) /* short texts: a call to strlen and memcpy costs more */
        buf[len++] = *text++;
    return len;
}

char *tdn__place(char *buf, size_t size, const char *head, int index, const char *tail)
{
    char digits[16], *d = digits + sizeof digits;
    unsigned magnitude = index < 0 ? 0u - (unsigned)index : (unsigned)index;
    *--d = '\0';
    do
        *--d = (char)('0' + magnitude % 10);
    while ((magnitude /= 10) != 0);
    if (index < 0)
        *--d = '-';
    const size_t len = append(buf, size, append(buf, size, append(buf, size, 0, head), d), tail);
    buf[len] = '\0';
    return buf;
}

char *tdn__append(char *buf, size_t size, const char *text)
{
    const size_t len = append(buf, size, strlen(buf), text);
    buf[len] = '\0';
    return buf;
}

tdn_result tdn__fail(tdn_error *err, tdn_result code, const char *where, const char *fmt, ...)
{
    if (!err)
        return code;
    err->code = code;
    snprintf(err->where, sizeof err->where, "%s", where ? where : "");
    va_list args;
    va_start(args, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, args);
    va_end(args);
    return code;
}
