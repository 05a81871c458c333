/* A pack image in a test, the few reads and writes the tests of the pack format make on its
 * bytes, and opening it with the checks every refusal must pass (little-endian fields, as docs/pack-format.md gives
 * them; the tests run on little-endian machines). */
#ifndef TENDON_TESTS_PACK_IMAGE_H
#define TENDON_TESTS_PACK_IMAGE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "tendon/pack.h"

typedef struct image {
    unsigned char *bytes; /* aligned to TDN_PACK_ALIGN (from the writer) */
    size_t size;
} image;

static inline uint32_t u32_at(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline void put_u32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }

/* Where section s starts, from the image's table (the header's table offset at byte 24, an
 * entry's offset at its byte 8). */
static inline size_t section_offset(const image *im, int s)
{
    const size_t table = u32_at(im->bytes + 24);
    return u32_at(im->bytes + table + 32 * (size_t)s + 8);
}

/* A writable copy in aligned memory (free()). */
static inline unsigned char *copy_of(const image *im)
{
    unsigned char *c = aligned_alloc(TDN_PACK_ALIGN, (im->size + TDN_PACK_ALIGN - 1) / TDN_PACK_ALIGN * TDN_PACK_ALIGN);
    memcpy(c, im->bytes, im->size);
    return c;
}

/* Opens the bytes through the counting allocator: a refusal leaves no pack, names a byte,
 * says why and allocates nothing. */
static inline tdn_result open_counted(const unsigned char *bytes, size_t size, tdn_pack **pack, tdn_error *err)
{
    *pack = NULL;
    memset(err, 0, sizeof *err);
    const long before = total_allocations;
    const tdn_result r = tdn_pack_open(bytes, size, pack, &counting, err);
    if (r != TDN_OK) {
        CHECK(*pack == NULL);
        CHECK(strncmp(err->where, "byte ", 5) == 0);
        CHECK(err->message[0] != '\0');
        CHECK_EQ_INT(total_allocations - before, 0);
    }
    return r;
}

#endif
