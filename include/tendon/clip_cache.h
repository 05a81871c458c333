/* tendon: a clip's playback cache, which makes sampling a COMPRESSED clip forward in time cheap.
 *
 * Sampling a compressed clip decodes, per group of tracks, the two stored frames around the
 * time and interpolates them. Played forward, consecutive samples mostly fall between the same
 * two stored frames (a 30 Hz clip sampled at 60 Hz: every other sample), or one stored frame on.
 * A cache keeps the decoded stored frames of the last sample, so that such a sample only
 * interpolates, or decodes only the new stored frame: the role of ozz-animation's sampling
 * context and ACL's decompression context. Any time may be sampled through a cache; a time
 * elsewhere in the clip decodes what it needs. A sample through a cache gives the same bits as
 * tdn_clip_sample at the same time. A clip of another storage samples as tdn_clip_sample does
 * (its cache is only a header).
 *
 * One cache per clip and player: a cache belongs to one thread at a time (it changes as it
 * samples); the clip stays shareable. Never allocates while sampling. */
#ifndef TENDON_CLIP_CACHE_H
#define TENDON_CLIP_CACHE_H

#include "base.h"
#include "clip.h"
#include "pose.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Alignment of the memory tdn_clip_cache_init takes. */
#define TDN_CLIP_CACHE_ALIGN 32

typedef struct tdn_clip_cache tdn_clip_cache; /* opaque */

/* Bytes tdn_clip_cache_init needs for `clip` (a multiple of TDN_CLIP_CACHE_ALIGN): for a
 * compressed clip, about 110 bytes per joint (two frames of its pose and per-joint timing) and
 * 210 per group of 4 tracks (what decoding its next frame takes); a header for other clips; 0
 * for a NULL clip. */
TDN_API size_t tdn_clip_cache_bytes(const tdn_clip *clip);
/* Sets up an empty cache for `clip` in caller memory: TDN_CLIP_CACHE_ALIGN-aligned, at least
 * tdn_clip_cache_bytes(clip) bytes, owned by the caller (nothing to destroy). The clip must
 * outlive the cache. TDN_ERR_ARGUMENT for a NULL pointer or misaligned memory;
 * TDN_ERR_OUT_OF_MEMORY when `bytes` is too small. */
TDN_API tdn_result tdn_clip_cache_init(const tdn_clip *clip, void *memory, size_t bytes, tdn_clip_cache **out,
                                       tdn_error *err);
/* The same in memory from `allocator` (NULL: malloc); *out is NULL on failure. */
TDN_API tdn_result tdn_clip_cache_create(const tdn_clip *clip, tdn_clip_cache **out, const tdn_allocator *allocator,
                                         tdn_error *err);
/* Frees a created cache; NULL and one from tdn_clip_cache_init are left alone. */
TDN_API void tdn_clip_cache_destroy(tdn_clip_cache *cache);

/* tdn_clip_sample through `cache`, which must have been made for `clip` (TDN_ERR_ARGUMENT
 * otherwise, as for a NULL argument or a pose of another joint count). Never allocates. */
TDN_API tdn_result tdn_clip_sample_cached(const tdn_clip *clip, tdn_clip_cache *cache, float time, tdn_pose *pose,
                                          tdn_error *err);

#ifdef __cplusplus
}
#endif

#endif
