/* tendon CLI: `tendon retarget --render OUT` (docs/cli.md): the source beside the target in one
 * picture (preview_write_many), the source on the left, drawn in the target's units (its
 * lengths times the retarget's scale, so that both have the same leg length), the target on the
 * right as it is. Both are placed along the camera's right axis so that in the first frame their
 * hips stand 0.55 x the sum of their sizes apart (each the largest extent of its reference pose,
 * a T-pose: two T-poses a tenth of their size apart), centred on the origin; from there they
 * move as their hips do (the target's travel is the source's times the
 * scale, so they keep side by side); the joints that are neither the hips nor below them (an
 * armature's root left at the origin, IK targets parented to it) are drawn at the hips, without
 * a bone. Each is labelled with its file's name; each is drawn as `tendon
 * run --render` draws a character (its skinned mesh when it has one that covers its body: some
 * vertex on the hips or spine and on each leg; else capsules), its sides coloured by its body
 * map (left blue, right orange) rather than by its joints' names. */
#ifndef TENDON_RETARGET_PREVIEW_H
#define TENDON_RETARGET_PREVIEW_H

#include "preview.h"
#include "retarget_pair.h"

typedef struct retarget_preview {
    preview_clip clips[2]; /* the source, the target */
    int *parents[2];
    unsigned char *off_body[2]; /* per joint: neither the hips nor below them (drawn at the hips) */
    tdn_mat4 place[2];          /* where each character's model space is put in the picture */
    float spacing;              /* between the two hips at the first frame */
    tdn_mat4 *world_model;      /* one frame's model space placed, for the larger skeleton */
} retarget_preview;

/* Room for frame_count frames of both characters, with their skinned meshes. 0 when out of
 * memory. */
int retarget_preview_init(retarget_preview *v, const retarget_pair *p, int frame_count);
void retarget_preview_free(retarget_preview *v);
/* Frame f from both characters' model space; frame 0 sets the placement (azimuth: the camera's,
 * degrees). */
void retarget_preview_frame(retarget_preview *v, const retarget_pair *p, int f, const tdn_mat4 *source_model,
                            const tdn_mat4 *target_model, float azimuth);

#endif
