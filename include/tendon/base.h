/* tendon: result codes, error reports, allocator hooks and the export macro. */
#ifndef TENDON_BASE_H
#define TENDON_BASE_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(TENDON_SHARED)
#  if defined(TENDON_BUILDING)
#    define TDN_API __declspec(dllexport)
#  else
#    define TDN_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) && defined(TENDON_BUILDING)
#  define TDN_API __attribute__((visibility("default")))
#else
#  define TDN_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Every fallible function returns one of these; TDN_OK is 0. */
typedef enum tdn_result {
    TDN_OK = 0,
    TDN_ERR_ARGUMENT,      /* NULL pointer, bad count, index out of range, NaN where a number is needed */
    TDN_ERR_OUT_OF_MEMORY, /* the allocator returned NULL, or a caller's buffer is too small */
    TDN_ERR_INVALID_DATA,  /* well-formed call, inconsistent data: cycle, duplicate name, unsorted keys */
    TDN_ERR_TOLERANCE,     /* a built object would exceed the error tolerance the caller set */
    TDN_ERR_IO,            /* a file could not be read or written */
    TDN_ERR_PARSE,         /* a file's content is malformed */
    TDN_ERR_UNSUPPORTED    /* valid input that tendon does not handle */
} tdn_result;

/* Details of a failure: what went wrong and where (a joint, a track, a JSON path; for files,
 * the file first: "walk.bvh: line 12", "graph.json: character.file (hero.glb): byte 1500").
 * Zero-initialise it; functions that take a tdn_error * accept NULL when the caller only wants
 * the result code. A place too long for `where` loses the start of its file names
 * ("...data/hero.glb: byte 1500"). */
typedef struct tdn_error {
    tdn_result code;
    char where[256];
    char message[256];
} tdn_error;

/* A short constant name for a result code, for example "TDN_ERR_ARGUMENT"; NULL for a value
 * that is not a tdn_result. */
TDN_API const char *tdn_result_name(tdn_result code);

/* Optional allocator hooks. Every creation takes one as its `allocator` argument; a NULL
 * pointer (or a zeroed struct) means malloc/free. `alloc` must return memory aligned to
 * `align` (a power of two, at most 64); `free` receives what `alloc` returned and its size.
 * Hooks with only one of alloc and free are refused (TDN_ERR_ARGUMENT, `where` "allocator"). */
typedef struct tdn_allocator {
    void *(*alloc)(size_t size, size_t align, void *user);
    void (*free)(void *ptr, size_t size, void *user);
    void *user;
} tdn_allocator;

/* Releases memory tendon handed back to the caller (the bytes of tdn_gltf_save_memory and
 * tdn_file_read): `size` is the size it reported and `allocator` the one passed to that call
 * (NULL: free). NULL ptr is ignored. Hooks with only one of alloc and free cannot have handed anything back
 * (every call refuses them), so with them tdn_free releases nothing. */
TDN_API void tdn_free(void *ptr, size_t size, const tdn_allocator *allocator);

#ifdef __cplusplus
}
#endif
#endif
