/* tendon io: an asset from a runtime pack's bytes (tdn_asset_load and tdn_asset_load_memory
 * recognize a pack by its magic): one of its skeletons, the skinned meshes on it, and its clips as
 * keyed clips keyed at each packed clip's frames, so that what reads assets (mm build, retarget,
 * a graph document's character file) reads packs too. A keyed clip's key f is the packed clip
 * sampled at its frame f; between keys it slerps where the packed clip nlerps re-timed to follow
 * slerp (docs/design.md), so the two agree at the frames and stay close between them. */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "asset_internal.h"
#include "tendon/pack.h"

/* The pack skeleton `skin` names (a name, or a decimal index; NULL: the first) into *out. */
static tdn_result chosen_skeleton(const tdn_pack *pack, const char *skin, int *out, tdn_error *err)
{
    const int count = tdn_pack_skeleton_count(pack);
    if (count == 0)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, "", "the pack holds no skeleton");
    int i = skin ? tdn_pack_find_skeleton(pack, skin) : 0;
    if (i < 0) {
        char *end;
        const long k = strtol(skin, &end, 10);
        i = *skin && !*end && k >= 0 && k < count ? (int)k : -1;
    }
    if (i < 0)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "skin", "the pack has no skeleton '%s' (it has %d)", skin, count);
    *out = i;
    return TDN_OK;
}

/* A new skeleton with the pack skeleton's joints, hierarchy, rest pose and inverse binds. */
static tdn_result copy_skeleton(const tdn_skeleton *from, tdn_asset *asset, tdn_error *err)
{
    const int n = tdn_skeleton_joint_count(from);
    const char **names = tdn_io__asset_alloc(asset, sizeof *names * (size_t)n);
    int *parents = tdn_io__asset_alloc(asset, sizeof *parents * (size_t)n);
    tdn_transform *rest = tdn_io__asset_alloc(asset, sizeof *rest * (size_t)n);
    int *listed = tdn_io__asset_alloc(asset, sizeof *listed * (size_t)n);
    if (!names || !parents || !rest || !listed)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for the skeleton");
    for (int j = 0; j < n; j++) {
        names[j] = tdn_skeleton_joint_name(from, j);
        parents[j] = tdn_skeleton_parent(from, j);
        rest[j] = tdn_skeleton_rest(from, j);
        listed[j] = j;
    }
    const tdn_skeleton_desc desc = { .joint_count = n,
                                     .names = names,
                                     .parents = parents,
                                     .rest_pose = rest,
                                     .inverse_bind = tdn_skeleton_inverse_bind(from) };
    const tdn_result r = tdn_skeleton_create(&desc, &asset->skeleton, &asset->allocator, err);
    return r == TDN_OK ? tdn_io__asset_set_listed_joints(asset, listed, n) : r;
}

/* The skin (named after the skeleton) and the meshes skinned to pack skeleton `s`, copied. */
static tdn_result copy_meshes(const tdn_pack *pack, int s, tdn_asset *asset, tdn_error *err)
{
    const char **skin_names = tdn_io__asset_alloc(asset, sizeof(char *));
    int *skin_joint_counts = tdn_io__asset_alloc(asset, sizeof(int));
    char *skin_name = tdn_io__asset_strdup(asset, tdn_pack_skeleton_name(pack, s));
    asset->meshes = tdn_io__asset_alloc(asset, sizeof *asset->meshes * (size_t)(tdn_pack_mesh_count(pack) + 1));
    if (!skin_names || !skin_joint_counts || !skin_name || !asset->meshes)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for the meshes");
    skin_names[0] = skin_name, skin_joint_counts[0] = tdn_skeleton_joint_count(asset->skeleton);
    asset->skin_names = skin_names, asset->skin_joint_counts = skin_joint_counts;
    asset->skin_count = 1, asset->chosen_skin = 0;
    for (int i = 0; i < tdn_pack_mesh_count(pack); i++) {
        const tdn_pack_mesh m = tdn_pack_mesh_at(pack, i);
        if (m.skeleton != s)
            continue;
        const size_t v = (size_t)m.vertex_count, influences = 4 * (size_t)m.influence_sets;
        tdn_asset_mesh *out = &asset->meshes[asset->mesh_count];
        float *positions = tdn_io__asset_alloc(asset, 3 * v * sizeof(float));
        float *normals = m.normals ? tdn_io__asset_alloc(asset, 3 * v * sizeof(float)) : NULL;
        uint16_t *joints = tdn_io__asset_alloc(asset, influences * v * sizeof(uint16_t));
        float *weights = tdn_io__asset_alloc(asset, influences * v * sizeof(float));
        uint32_t *indices = m.indices ? tdn_io__asset_alloc(asset, (size_t)m.index_count * sizeof(uint32_t)) : NULL;
        char *name = tdn_io__asset_strdup(asset, m.name);
        if (!positions || (m.normals && !normals) || !joints || !weights || (m.indices && !indices) || !name)
            return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for mesh '%s'", m.name);
        memcpy(positions, m.positions, 3 * v * sizeof(float));
        if (normals)
            memcpy(normals, m.normals, 3 * v * sizeof(float));
        memcpy(joints, m.joints, influences * v * sizeof(uint16_t));
        memcpy(weights, m.weights, influences * v * sizeof(float));
        if (indices)
            memcpy(indices, m.indices, (size_t)m.index_count * sizeof(uint32_t));
        *out = (tdn_asset_mesh){ .name = name,
                                 .vertex_count = m.vertex_count,
                                 .influence_sets = m.influence_sets,
                                 .positions = positions,
                                 .normals = normals,
                                 .joints = joints,
                                 .weights = weights,
                                 .indices = indices,
                                 .index_count = indices ? m.index_count : 0 };
        asset->mesh_count++;
    }
    return TDN_OK;
}

/* The most floats a keyed clip made from a packed clip may hold (512 MiB): a pack's clip can be
 * far smaller than its frames (a constant stretch costs a header per 32 frames), so the keyed
 * form is bounded on its own. */
#define KEYED_MAX_FLOATS ((size_t)1 << 27)

/* Which of the clip's tracks move (per joint: bit 0 translation, 1 rotation, 2 scale) over its
 * F frames at `times`, sampling into `pose`: only those are keyed per frame. */
static void moving_tracks(const tdn_clip *clip, const float *times, int F, tdn_pose *pose, tdn_pose *first,
                          unsigned char *moving)
{
    const int J = tdn_clip_joint_count(clip);
    tdn_clip_sample(clip, times[0], first, NULL);
    memset(moving, 0, (size_t)J);
    for (int f = 1; f < F; f++) {
        tdn_clip_sample(clip, times[f], pose, NULL);
        for (int j = 0; j < J; j++) {
            const tdn_transform a = tdn_pose_get(first, j), b = tdn_pose_get(pose, j);
            moving[j] |= (unsigned char)((memcmp(&a.t, &b.t, sizeof a.t) != 0) |
                                         (memcmp(&a.r, &b.r, sizeof a.r) != 0) << 1 |
                                         (memcmp(&a.s, &b.s, sizeof a.s) != 0) << 2);
        }
    }
}

tdn_result tdn_io__keyed_clip_from_packed(const tdn_clip *clip, const char *name, const tdn_skeleton *skeleton,
                                          const tdn_allocator *allocator, tdn_keyed_clip **out, tdn_error *err)
{
    static const tdn_track_target TARGETS[3] = { TDN_TARGET_TRANSLATION, TDN_TARGET_ROTATION, TDN_TARGET_SCALE };
    static const int WIDTH[3] = { 3, 4, 3 };
    const int J = tdn_clip_joint_count(clip), curves = tdn_clip_float_track_count(clip);
    const int events = tdn_clip_event_count(clip);
    const float duration = tdn_clip_duration(clip);
    /* the packed clip's frames: (F - 1) / duration of them a second, as it samples */
    const int F = duration > 0.0f ? (int)(duration * tdn_clip_sample_rate(clip) + 0.5f) + 1 : 1;
    /* the key times and the float tracks' keys, before anything is allocated for them; the
     * transform tracks' keys are counted once it is known which move */
    if ((size_t)F * (1 + (size_t)curves) > KEYED_MAX_FLOATS)
        return tdn_io__fail(err, TDN_ERR_INVALID_DATA, "",
                            "clip '%s': %d frames of %d float tracks are more than %zu keyed values", name, F, curves,
                            KEYED_MAX_FLOATS);
    tdn_pose pose = { 0 }, first = { 0 };
    float *times = tdn_io__alloc(allocator, sizeof(float) * (size_t)F);
    unsigned char *moving = tdn_io__alloc(allocator, (size_t)J);
    tdn_result r = times && moving ? tdn_pose_create(J, &pose, allocator, err)
                                   : tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for clip '%s'", name);
    if (r == TDN_OK)
        r = tdn_pose_create(J, &first, allocator, err);
    size_t floats = (size_t)F * (size_t)curves, bytes = 0;
    unsigned char *scratch = NULL;
    if (r == TDN_OK) {
        for (int f = 0; f < F; f++)
            times[f] = F > 1 ? duration * (float)f / (float)(F - 1) : 0.0f;
        moving_tracks(clip, times, F, &pose, &first, moving);
        for (int j = 0; j < J; j++)
            for (int k = 0; k < 3; k++)
                floats += (size_t)WIDTH[k] * (moving[j] >> k & 1 ? (size_t)F : 1);
        if (floats > KEYED_MAX_FLOATS)
            r = tdn_io__fail(err, TDN_ERR_INVALID_DATA, "",
                             "clip '%s': %d frames of %d joints make %zu keyed values, more than %zu", name, F, J,
                             floats, KEYED_MAX_FLOATS);
    }
    if (r == TDN_OK) {
        bytes = sizeof(tdn_track_desc) * 3 * (size_t)J + sizeof(tdn_float_track_desc) * (size_t)curves +
                sizeof(tdn_event_desc) * (size_t)events + floats * sizeof(float);
        scratch = tdn_io__alloc(allocator, bytes);
        if (!scratch)
            r = tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for clip '%s'", name);
    }
    if (r == TDN_OK) {
        tdn_track_desc *tracks = (tdn_track_desc *)scratch;
        tdn_float_track_desc *float_tracks = (tdn_float_track_desc *)(tracks + 3 * (size_t)J);
        tdn_event_desc *event_descs = (tdn_event_desc *)(float_tracks + curves);
        float *next = (float *)(event_descs + events);
        for (int j = 0; j < J; j++)
            for (int k = 0; k < 3; k++) {
                const int keys = moving[j] >> k & 1 ? F : 1;
                tracks[3 * j + k] = (tdn_track_desc){ .joint = j,
                                                      .target = TARGETS[k],
                                                      .interp = TDN_INTERP_LINEAR,
                                                      .key_count = keys,
                                                      .times = times,
                                                      .values = next };
                next += (size_t)WIDTH[k] * (size_t)keys;
            }
        for (int f = 0; f < F; f++) {
            tdn_clip_sample(clip, times[f], &pose, NULL);
            for (int j = 0; j < J; j++) {
                const tdn_transform x = tdn_pose_get(&pose, j);
                const float *parts[3] = { &x.t.x, &x.r.x, &x.s.x };
                for (int k = 0; k < 3; k++)
                    if (f < tracks[3 * j + k].key_count)
                        memcpy((float *)tracks[3 * j + k].values + (size_t)WIDTH[k] * (size_t)f, parts[k],
                               sizeof(float) * (size_t)WIDTH[k]);
            }
        }
        for (int i = 0; i < curves; i++, next += F) {
            for (int f = 0; f < F; f++)
                next[f] = tdn_clip_sample_float(clip, i, times[f]);
            float_tracks[i] = (tdn_float_track_desc){ tdn_clip_float_track_name(clip, i), TDN_INTERP_LINEAR, F, times,
                                                      next };
        }
        for (int i = 0; i < events; i++)
            event_descs[i] = (tdn_event_desc){ tdn_clip_event_name(clip, i), tdn_clip_event_times(clip)[i] };
        const tdn_keyed_clip_desc desc = { .name = name,
                                           .skeleton = skeleton,
                                           .tracks = tracks,
                                           .track_count = 3 * J,
                                           .float_tracks = float_tracks,
                                           .float_track_count = curves,
                                           .events = event_descs,
                                           .event_count = events,
                                           .duration = duration };
        r = tdn_keyed_clip_create(&desc, out, allocator, err);
    }
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&first);
    tdn_io__free(allocator, scratch, bytes);
    tdn_io__free(allocator, times, sizeof(float) * (size_t)F);
    tdn_io__free(allocator, moving, (size_t)J);
    return r;
}

/* The clips of pack skeleton `s`; an additive clip is left out with a warning (a keyed clip has
 * no reference to apply it to). */
static tdn_result copy_clips(const tdn_pack *pack, int s, tdn_asset *asset, tdn_error *err)
{
    const int n = tdn_pack_clip_count(pack);
    asset->clips = tdn_io__asset_alloc(asset, sizeof *asset->clips * (size_t)(n + 1));
    asset->clip_channels = tdn_io__asset_alloc(asset, sizeof *asset->clip_channels * (size_t)(n + 1));
    if (!asset->clips || !asset->clip_channels)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for the clips");
    for (int i = 0; i < n; i++) {
        if (tdn_pack_clip_skeleton(pack, i) != s)
            continue;
        const tdn_clip *clip = tdn_pack_clip(pack, i);
        const char *name = tdn_pack_clip_name(pack, i);
        if (tdn_clip_is_additive(clip)) {
            const tdn_result w = tdn_io__asset_warn(asset, "clip '%s' is additive: left out", name);
            if (w != TDN_OK)
                return tdn_io__fail(err, w, "", "out of memory for a warning");
            continue;
        }
        const tdn_result r = tdn_io__keyed_clip_from_packed(clip, name, asset->skeleton, &asset->allocator,
                                                            &asset->clips[asset->clip_count], err);
        if (r != TDN_OK)
            return r;
        asset->clip_channels[asset->clip_count++] = 10 * tdn_clip_joint_count(clip);
    }
    return TDN_OK;
}

tdn_result tdn_io__pack_asset_load(const void *data, size_t size, const tdn_asset_load_options *options,
                                   tdn_asset **out, const tdn_allocator *allocator, tdn_error *err)
{
    *out = NULL;
    if (options && options->scale != 0.0f && options->scale != 1.0f)
        return tdn_io__fail(err, TDN_ERR_ARGUMENT, "scale",
                            "a pack holds its motion in the units it was packed in: scale %g does not apply",
                            (double)options->scale);
    /* the pack opens over bytes aligned to TDN_PACK_ALIGN: a copy (the io allocation is) */
    const tdn_allocator hooks = allocator ? *allocator : (tdn_allocator){ 0 };
    void *bytes = tdn_io__alloc(&hooks, size > 0 ? size : 1);
    if (!bytes)
        return tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory (%zu bytes)", size);
    memcpy(bytes, data, size);
    tdn_pack *pack = NULL;
    tdn_result r = tdn_pack_open(bytes, size, &pack, allocator, err);
    tdn_asset *asset = NULL;
    if (r == TDN_OK) {
        int s = 0;
        r = chosen_skeleton(pack, options ? options->skin : NULL, &s, err);
        if (r == TDN_OK && !(asset = tdn_io__asset_new(TDN_FORMAT_PACK, allocator)))
            r = tdn_io__fail(err, TDN_ERR_OUT_OF_MEMORY, "", "out of memory for the asset");
        if (r == TDN_OK)
            r = copy_skeleton(tdn_pack_skeleton(pack, s), asset, err);
        if (r == TDN_OK)
            r = copy_meshes(pack, s, asset, err);
        if (r == TDN_OK)
            r = copy_clips(pack, s, asset, err);
    }
    tdn_pack_destroy(pack);
    tdn_io__free(&hooks, bytes, size > 0 ? size : 1);
    if (r != TDN_OK) {
        tdn_asset_destroy(asset);
        return r;
    }
    *out = asset;
    return TDN_OK;
}
