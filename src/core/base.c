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
    case TDN_OK: return "TDN_OK";
    case TDN_ERR_ARGUMENT: return "TDN_ERR_ARGUMENT";
    case TDN_ERR_OUT_OF_MEMORY: return "TDN_ERR_OUT_OF_MEMORY";
    case TDN_ERR_INVALID_DATA: return "TDN_ERR_INVALID_DATA";
    case TDN_ERR_TOLERANCE: return "TDN_ERR_TOLERANCE";
    case TDN_ERR_IO: return "TDN_ERR_IO";
    case TDN_ERR_PARSE: return "TDN_ERR_PARSE";
    case TDN_ERR_UNSUPPORTED: return "TDN_ERR_UNSUPPORTED";
    }
    return "TDN_ERR_UNKNOWN";
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
