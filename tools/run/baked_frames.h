/* tendon CLI: the frames a run bakes (tendon run --out, tendon mm run --out, tendon retarget
 * --out): one local pose per frame in one block allocated before the run (so recording a frame
 * is a copy, nothing more), written as glTF (tdn_gltf_save): one clip named after the input, or
 * several clips cut from the block. */
#ifndef TENDON_BAKED_FRAMES_H
#define TENDON_BAKED_FRAMES_H

#include "tendon/io/asset.h"
#include "tendon/io/gltf_save.h"
#include "tendon/tendon.h"

typedef struct baked_frames {
    tdn_pose *poses; /* count of them, over `block` */
    int count;
    void *block;
} baked_frames;

/* Room for count poses of joint_count joints; 0 when out of memory (then nothing is held). */
int baked_frames_alloc(baked_frames *b, int count, int joint_count);
void baked_frames_free(baked_frames *b);
/* Writes the frames as one clip at fps, its name the file stem of `named_after`, with the
 * source's skinned meshes when it has any, to path; a CLI exit code (the error reported as
 * "tendon COMMAND: ..."). */
int baked_frames_write(const baked_frames *b, const char *command, const char *path, const char *named_after, float fps,
                       const tdn_skeleton *skeleton, const tdn_asset *source);
/* Writes count clips (each its own frames, rate and name) with the source's skinned meshes
 * when it has any, to path; a CLI exit code (the error reported as "tendon COMMAND: ..."). */
int baked_clips_write(const tdn_baked_clip *clips, int count, const char *command, const char *path,
                      const tdn_skeleton *skeleton, const tdn_asset *source);

#endif
