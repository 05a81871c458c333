/* tendon CLI: baked frames (baked_frames.h). */
#include "baked_frames.h"

#include <stdlib.h>

#include "cli.h"

int baked_frames_alloc(baked_frames *b, int count, int joint_count)
{
    /* each pose's data starts aligned; aligned_alloc wants a multiple of the alignment */
    const size_t bytes = (tdn_pose_bytes(joint_count) + TDN_POSE_ALIGN - 1) / TDN_POSE_ALIGN * TDN_POSE_ALIGN;
    b->count = count;
    b->poses = calloc((size_t)count, sizeof *b->poses);
    b->block = aligned_alloc(TDN_POSE_ALIGN, bytes * (size_t)count);
    if (!b->poses || !b->block) {
        baked_frames_free(b);
        return 0;
    }
    for (int f = 0; f < count; f++)
        tdn_pose_init(joint_count, (char *)b->block + bytes * (size_t)f, bytes, &b->poses[f], NULL);
    return 1;
}

void baked_frames_free(baked_frames *b)
{
    free(b->poses);
    free(b->block);
    *b = (baked_frames){ 0 };
}

int baked_frames_write(const baked_frames *b, const char *command, const char *path, const char *named_after, float fps,
                       const tdn_skeleton *skeleton, const tdn_asset *source)
{
    char name[256];
    cli_file_stem(named_after, name, sizeof name);
    const tdn_baked_clip clip = { name, b->count, fps, b->poses };
    return baked_clips_write(&clip, 1, command, path, skeleton, source);
}

int baked_clips_write(const tdn_baked_clip *clips, int count, const char *command, const char *path,
                      const tdn_skeleton *skeleton, const tdn_asset *source)
{
    const tdn_gltf_save_desc desc = {
        .skeleton = skeleton, .clips = clips, .clip_count = count, .source = source, .binary = TDN_GLTF_BY_EXTENSION
    };
    tdn_error err = { 0 };
    const tdn_result r = tdn_gltf_save(&desc, path, &err);
    return r == TDN_OK ? CLI_OK : cli_report(command, r, &err);
}
