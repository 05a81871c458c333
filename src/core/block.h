/* tendon core: one allocation carved into aligned arrays (not installed).
 *
 * An object that owns several arrays runs the same layout function twice: first over a block
 * with no base, which only adds up the size, then over the allocated block, which hands out
 * the pointers. One allocation per object keeps creation all-or-nothing and its byte count
 * honest. */
#ifndef TENDON_BLOCK_H
#define TENDON_BLOCK_H

#include <stddef.h>

#include "internal.h"

typedef struct tdn__block {
    char *base; /* NULL while measuring */
    size_t size;
} tdn__block;

/* Reserves `count` items of `item_size` bytes at `align`; NULL while measuring. */
static inline void *tdn__block_take(tdn__block *block, size_t count, size_t item_size, size_t align)
{
    size_t at = tdn__align_up(block->size, align);
    block->size = at + count * item_size;
    return block->base ? block->base + at : NULL;
}

#endif
