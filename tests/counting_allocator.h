/* tendon tests: allocator hooks that count what is live (every byte allocated must come back,
 * and an object's reported size can be compared with what it took) and can be told to fail. */
#ifndef TENDON_TEST_COUNTING_ALLOCATOR_H
#define TENDON_TEST_COUNTING_ALLOCATOR_H

#include <stdlib.h>

#include "tendon/base.h"

static long live_blocks;
static long total_allocations; /* every successful allocation so far */
static size_t live_bytes;
static long allocations_before_failure = -1; /* -1: never fail; n: the (n+1)-th call fails */

static void *count_alloc(size_t size, size_t align, void *user)
{
    (void)user;
    if (allocations_before_failure == 0)
        return NULL;
    if (allocations_before_failure > 0)
        allocations_before_failure--;
    live_blocks++;
    total_allocations++;
    live_bytes += size;
    return aligned_alloc(align, (size + align - 1) / align * align);
}

static void count_free(void *ptr, size_t size, void *user)
{
    (void)user;
    live_blocks--;
    live_bytes -= size;
    free(ptr);
}

static const tdn_allocator counting = { count_alloc, count_free, NULL };

#endif
