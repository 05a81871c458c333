/* tendon core: a clip's playback cache (clip_cache.h): the header, and the packed tracks' part
 * (clip_compressed.c) laid out after it. */
#include "tendon/clip_cache.h"

#include <string.h>

#include "clip_internal.h"
#include "internal.h"

struct tdn_clip_cache {
    const tdn_clip *clip;
    size_t bytes;
    int created; /* 1: from tdn_clip_cache_create (destroy frees it) */
    tdn_allocator allocator;
    tdn__packed_cache packed;
};

#define HEADER_BYTES tdn__align_up(sizeof(struct tdn_clip_cache), TDN_CLIP_CACHE_ALIGN)

static int is_packed(const tdn_clip *clip) { return clip->storage == TDN_STORAGE_COMPRESSED; }

size_t tdn_clip_cache_bytes(const tdn_clip *clip)
{
    if (!clip)
        return 0;
    const size_t stride = (size_t)tdn_pose_stride(clip->joint_count);
    return HEADER_BYTES + (is_packed(clip) ? tdn__packed_cache_layout(&clip->packed, stride, NULL, NULL) : 0);
}

/* Both cached frames start as the clip's constants (the identity without any), which the
 * interpolation gives back where no group decodes. */
static void fill_constants(const tdn_clip *clip, tdn__packed_cache *cache)
{
    const size_t bytes = tdn_pose_bytes(clip->joint_count);
    for (int k = 0; k < 2; k++) {
        tdn_pose frame; /* a view of the cache frame, set to the identity */
        tdn_pose_init(clip->joint_count, cache->keys[k], bytes, &frame, NULL);
        if (clip->constant_pose)
            memcpy(cache->keys[k], clip->constant_pose, bytes);
    }
}

tdn_result tdn_clip_cache_init(const tdn_clip *clip, void *memory, size_t bytes, tdn_clip_cache **out, tdn_error *err)
{
    if (!out)
        return tdn__null(err, "out");
    *out = NULL;
    if (!clip)
        return tdn__null(err, "clip");
    if (!memory)
        return tdn__null(err, "memory");
    if (((uintptr_t)memory % TDN_CLIP_CACHE_ALIGN) != 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "memory", "not aligned to %d bytes", TDN_CLIP_CACHE_ALIGN);
    const size_t need = tdn_clip_cache_bytes(clip);
    if (bytes < need)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "bytes",
                         "%zu bytes, the clip's cache needs %zu (tdn_clip_cache_bytes)", bytes, need);
    memset(memory, 0, need);
    tdn_clip_cache *cache = memory;
    cache->clip = clip;
    cache->bytes = need;
    if (is_packed(clip)) {
        tdn__packed_cache_layout(&clip->packed, (size_t)tdn_pose_stride(clip->joint_count),
                                 (char *)memory + HEADER_BYTES, &cache->packed);
        fill_constants(clip, &cache->packed);
    }
    *out = cache;
    return TDN_OK;
}

tdn_result tdn_clip_cache_create(const tdn_clip *clip, tdn_clip_cache **out, const tdn_allocator *allocator,
                                 tdn_error *err)
{
    if (!out)
        return tdn__null(err, "out");
    *out = NULL;
    if (!clip)
        return tdn__null(err, "clip");
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    const size_t bytes = tdn_clip_cache_bytes(clip);
    void *memory = tdn__alloc(allocator, bytes, TDN_CLIP_CACHE_ALIGN);
    if (!memory)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "no memory for %zu bytes", bytes);
    tdn_clip_cache *cache = NULL;
    tdn_clip_cache_init(clip, memory, bytes, &cache, NULL);
    cache->created = 1;
    if (allocator)
        cache->allocator = *allocator;
    *out = cache;
    return TDN_OK;
}

void tdn_clip_cache_destroy(tdn_clip_cache *cache)
{
    if (!cache || !cache->created)
        return;
    const tdn_allocator allocator = cache->allocator;
    const size_t bytes = cache->bytes;
    memset(cache, 0, HEADER_BYTES);
    tdn__free(&allocator, cache, bytes);
}

tdn__packed_cache *tdn__clip_cache_packed(tdn_clip_cache *cache)
{
    return cache && is_packed(cache->clip) ? &cache->packed : NULL;
}

tdn_result tdn_clip_sample_cached(const tdn_clip *clip, tdn_clip_cache *cache, float time, tdn_pose *pose,
                                  tdn_error *err)
{
    if (!clip)
        return tdn__null(err, "clip");
    if (!cache)
        return tdn__null(err, "cache");
    if (cache->clip != clip)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "cache", "made for another clip (%s, not %s)",
                         tdn_clip_name(cache->clip), tdn_clip_name(clip));
    if (!pose || !pose->data)
        return tdn__null(err, "pose");
    if (pose->joint_count != clip->joint_count)
        return tdn__clip_pose_size(err, pose->joint_count, clip->joint_count);
    tdn__clip_sample_range(clip, tdn__clip_cache_packed(cache), time, pose, 0, pose->stride, TDN__ROWS_ALL);
    return TDN_OK;
}
