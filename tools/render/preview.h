/* tendon CLI: previews of a run (tendon run --render OUT): the frames a run recorded, drawn by
 * the preview renderer (render.h) and written as a contact sheet (.png), an animated GIF (.gif,
 * giflib) or an MP4 (.mp4, through an ffmpeg found on PATH).
 *
 * What is drawn per frame: with style MESH (the default when the clip has a mesh with
 * triangles: preview_clip_add_mesh, --render-style), the character's skinned mesh
 * (preview_mesh.h), each vertex coloured by its joints' sides as below, weighted by their
 * weights. With style CAPSULES: every bone (a joint and its parent) as a capsule, except the bones
 * hanging from a skeleton root with a single child (the root-motion joint on the ground, as
 * the humanoid's root); its radius 0.14 x the bone's length, kept within [0.014, 0.04] x the
 * character's size (S: the largest extent of any one frame's joints and the ground, at least
 * 1 cm), torso bones (a child named like spine, chest, pelvis, hips) 0.06 S; a sphere of
 * 0.06 S on a joint named head/Head; the character's left side blue, its right orange, the
 * centre light grey, by name (a side is a name ending in _l, _L, .l, .L or starting with l_,
 * L_, or containing Left or left; likewise for the right). Feet in contact: a green disc of
 * radius 0.09 S on the ground under the foot; IK targets: a red sphere of 0.02 S and a red
 * cross over everything. The ground (the clip's `ground`, or y = 0; render.h) with grid lines
 * every 1-2-5 spacing near S / 4.
 *
 * The camera: by default a three-quarter view (azimuth 40 degrees, elevation 12) at a distance
 * that frames the character: when the bounding box of the whole clip's joints is at most 1.5
 * times the largest frame's (the character stays about where it is), a fixed camera on the
 * clip's box, at 1.05 x the box's half diagonal / sin(fov_y / 2); otherwise a camera that
 * follows the character, heights included (looking at its box's centre averaged over half a
 * second either side), at 1.05 x R / sin(fov_y / 2), R the largest distance from a frame's
 * target to its box's farthest corner plus 0.06 S, so that every frame is in the picture.
 * fov_y is 35 degrees. --camera AZ,EL[,DIST] sets the angles (and the distance).
 *
 * Several characters in one picture (preview_write_many: tendon retarget's source beside its
 * target) are each drawn as above with their own size S (their bones' radii, head, discs), on
 * the first one's ground; the camera frames them together (per frame, the box of every
 * character's joints); their labels, when they have them, are written along the bottom of the
 * picture, the first at the left, the last at the right. */
#ifndef TENDON_PREVIEW_H
#define TENDON_PREVIEW_H

#include <stddef.h>

#include "ground.h"
#include "preview_mesh.h"
#include "tendon/tendon.h"

#define PREVIEW_DEFAULT_AZIMUTH 40.0f
#define PREVIEW_DEFAULT_ELEVATION 12.0f

typedef enum { PREVIEW_PNG, PREVIEW_GIF, PREVIEW_MP4 } preview_kind;
/* What stands for the character: AUTO is MESH when the clip has a mesh with triangles, else
 * CAPSULES. */
typedef enum { PREVIEW_STYLE_AUTO, PREVIEW_STYLE_CAPSULES, PREVIEW_STYLE_MESH } preview_style;

typedef struct preview_options {
    const char *path;
    preview_kind kind;
    int width, height;                  /* 0: 640 x 360 (a contact sheet's cells: 320 x 180) */
    int sheet_frames;                   /* PNG: the frames on the sheet (0: 12) */
    int columns;                        /* PNG: the sheet's columns (0: 4, or fewer frames) */
    float azimuth, elevation, distance; /* degrees, degrees, metres (distance 0: framed) */
    float fps;                          /* the run's frame rate */
    preview_style style;
    const char *command; /* the progress bar's "tendon COMMAND: rendering OUT" (NULL: run) */
} preview_options;

/* The frames of a run (world space, metres). Index [frame * count + i]. */
typedef struct preview_clip {
    int frame_count, joint_count;
    const int *parents;       /* per joint, -1 for a root */
    unsigned char *draw_bone; /* per joint: its bone (to its parent) is drawn */
    signed char *side;        /* per joint: +1 left (blue), -1 right (orange), 0 centre */
    unsigned char *head;      /* per joint: gets a head sphere */
    tdn_vec3 *joints;         /* frame_count * joint_count */
    int foot_count;
    tdn_vec3 *feet;         /* frame_count * foot_count: the contact disc's centre (on the ground) */
    unsigned char *contact; /* frame_count * foot_count */
    int target_count;
    tdn_vec3 *targets;        /* frame_count * target_count */
    unsigned char *target_on; /* frame_count * target_count */
    const ground *ground;     /* the ground drawn (not owned), or NULL: the plane y = 0 */
    preview_mesh mesh;        /* the skinned mesh (preview_clip_add_mesh), or none (0 triangles) */
    tdn_mat4 *palettes;       /* with a mesh: frame_count * joint_count skinning matrices (tdn_palette
                               * of the frame's model space, the character placed in the world) */
    const char *label;        /* written under the picture (not owned), or NULL */
} preview_clip;

/* The most characters preview_write_many draws in one picture. */
#define PREVIEW_MAX_CLIPS 4

/* The kind OUT's extension names (case-insensitive .png, .gif, .mp4): 1, or 0 for another. */
int preview_kind_of(const char *path, preview_kind *kind);
/* Checks what can be checked before a run: the size, and that an MP4 has ffmpeg on PATH.
 * Returns 0, or an exit code with the reason in why: 2 (bad input) for a size an MP4 cannot
 * have, 1 for a missing ffmpeg (a tool to install, not bad input). */
int preview_check(const preview_options *o, char *why, size_t why_size);
/* A directory on PATH holding an executable `name`; 1 when found. */
int preview_find_program(const char *name);

/* Allocates the arrays for frame_count frames and sets each joint's side, head and drawn bone
 * from the joints' names and parents (parents kept, not copied). 0 when out of memory. */
int preview_clip_init(preview_clip *c, int frame_count, int joint_count, const int *parents, const char *const *names,
                      int foot_count, int target_count);
/* Adds the skinned meshes of the character's asset (preview_mesh.h) and, when they have
 * triangles, the storage for every frame's palette. 0 when out of memory. */
int preview_clip_add_mesh(preview_clip *c, const tdn_asset *asset);
void preview_clip_free(preview_clip *c);
/* Frame f's joints and (with a mesh) palette from its model space placed in the world (one
 * matrix per joint of skeleton, whose joint count is the clip's). */
void preview_clip_set_pose(preview_clip *c, int f, const tdn_skeleton *skeleton, const tdn_mat4 *world_model);
/* Renders and writes the preview. Returns 0, or an exit code (2 when the file cannot be
 * created, 1 otherwise, ffmpeg missing included) with the reason in why. *ms_per_frame: the mean
 * time to draw one frame (not encoding), *frames_drawn how many. */
int preview_write(const preview_clip *c, const preview_options *o, char *why, size_t why_size, double *ms_per_frame,
                  int *frames_drawn);
/* The same with count characters (1..PREVIEW_MAX_CLIPS) in every frame, clips[0]'s frame count
 * (the others have as many), drawn in their order. */
int preview_write_many(const preview_clip *const *clips, int count, const preview_options *o, char *why,
                       size_t why_size, double *ms_per_frame, int *frames_drawn);

#endif
