/* A pack image in a test, the few reads and writes the tests of the pack format make on its
 * bytes, and opening it with the checks every refusal must pass (little-endian fields, as docs/pack-format.md gives
 * them; the tests run on little-endian machines). */
#ifndef TENDON_TESTS_PACK_IMAGE_H
#define TENDON_TESTS_PACK_IMAGE_H

#include <stdint.h>
#include <stdio.h>
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

/* The writer's pack as an image (its bytes from tdn_pack_writer_save_memory, freed with
 * tdn_free); the writer is destroyed. */
static inline image image_of(tdn_pack_writer *w)
{
    image im = { NULL, 0 };
    void *data = NULL;
    tdn_error err = { 0 };
    if (!CHECK(tdn_pack_writer_save_memory(w, &data, &im.size, NULL, &err) == TDN_OK))
        printf("  %s: %s\n", err.where, err.message);
    im.bytes = data;
    tdn_pack_writer_destroy(w);
    return im;
}

/* The image with `n` bytes at `at` replaced by `value`: refused at byte `want`, with a message
 * holding `names` (the object at fault: "clip 0", "database ") and `says`, and nothing left
 * allocated. */
static inline void check_refused_at_byte(const image *im, size_t at, const void *value, size_t n, size_t want,
                                         const char *names, const char *says)
{
    unsigned char *c = copy_of(im);
    memcpy(c + at, value, n);
    tdn_pack *pack = NULL;
    tdn_error err;
    const tdn_result r = open_counted(c, im->size, &pack, &err);
    char where[32];
    snprintf(where, sizeof where, "byte %zu", want);
    const int ok = r == TDN_ERR_INVALID_DATA && strcmp(err.where, where) == 0 && strstr(err.message, names) &&
                   strstr(err.message, says);
    if (!CHECK(ok))
        printf("  %s (%s): got %s: %s: %s\n", says, where, tdn_result_name(r), err.where, err.message);
    CHECK_EQ_INT(live_blocks, 0);
    free(c);
}

/* The writer's pack saved and opened again, for a test to read what it holds (NULL when either
 * fails, a failed check); free `*data` with tdn_free and destroy the pack after. */
static inline tdn_pack *reopened(const tdn_pack_writer *w, void **data, size_t *size)
{
    tdn_pack *pack = NULL;
    tdn_error err = { 0 };
    if (!CHECK(tdn_pack_writer_save_memory(w, data, size, NULL, &err) == TDN_OK) ||
        !CHECK(tdn_pack_open(*data, *size, &pack, NULL, &err) == TDN_OK))
        printf("  %s: %s\n", err.where, err.message);
    return pack;
}

#endif
