/* tendon CLI: previews of a run (see preview.h). */
#define _POSIX_C_SOURCE 200809L
#include "preview.h"

#include <errno.h>
#include <gif_lib.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "output_file.h"
#include "png_write.h"
#include "progress.h"
#include "render.h"

#define FOV_Y_DEG 35.0f

static const rgb LEFT = { 66, 118, 206 }, RIGHT = { 222, 108, 52 }, CENTRE = { 196, 196, 192 };
static const rgb CONTACT = { 60, 178, 92 }, TARGET = { 214, 40, 48 }, TEXT = { 40, 40, 44 };

/* ---- options ---- */

int preview_kind_of(const char *path, preview_kind *kind)
{
    if (cli_ends_with(path, ".png", 1))
        *kind = PREVIEW_PNG;
    else if (cli_ends_with(path, ".gif", 1))
        *kind = PREVIEW_GIF;
    else if (cli_ends_with(path, ".mp4", 1))
        *kind = PREVIEW_MP4;
    else
        return 0;
    return 1;
}

int preview_find_program(const char *name)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return 0;
    char dir[4096];
    while (*path) {
        size_t n = strcspn(path, ":");
        if (n == 0) {
            snprintf(dir, sizeof dir, "./%s", name);
        } else {
            snprintf(dir, sizeof dir, "%.*s/%s", (int)n, path, name);
        }
        struct stat st;
        if (stat(dir, &st) == 0 && S_ISREG(st.st_mode) && access(dir, X_OK) == 0)
            return 1;
        path += n;
        if (*path == ':')
            path++;
    }
    return 0;
}

static void frame_size(const preview_options *o, int *w, int *h)
{
    *w = o->width > 0 ? o->width : o->kind == PREVIEW_PNG ? 320 : 640;
    *h = o->height > 0 ? o->height : o->kind == PREVIEW_PNG ? 180 : 360;
}

int preview_check(const preview_options *o, char *why, size_t why_size)
{
    int w, h;
    frame_size(o, &w, &h);
    if (o->kind == PREVIEW_MP4 && (w % 2 || h % 2)) {
        snprintf(why, why_size, "an MP4 wants an even width and height, not %dx%d", w, h);
        return 2;
    }
    if (o->kind == PREVIEW_MP4 && !preview_find_program("ffmpeg")) { /* a missing tool, not bad input */
        snprintf(why, why_size,
                 "%s: writing an MP4 needs the ffmpeg program, which is not on PATH: install it "
                 "(Debian and Ubuntu: apt-get install ffmpeg; Fedora: dnf install ffmpeg-free; macOS: "
                 "brew install ffmpeg; others: https://ffmpeg.org/download.html) or render a .gif or "
                 ".png instead",
                 o->path);
        return 1;
    }
    return 0;
}

/* ---- the clip ---- */

static int side_of(const char *name)
{
    if (!name)
        return 0;
    if (cli_ends_with(name, "_l", 1) || cli_ends_with(name, ".l", 1) || strncasecmp(name, "l_", 2) == 0 ||
        strstr(name, "Left") || strstr(name, "left"))
        return 1;
    if (cli_ends_with(name, "_r", 1) || cli_ends_with(name, ".r", 1) || strncasecmp(name, "r_", 2) == 0 ||
        strstr(name, "Right") || strstr(name, "right"))
        return -1;
    return 0;
}

static int is_torso(const char *name)
{
    return name && (strstr(name, "spine") || strstr(name, "Spine") || strstr(name, "chest") || strstr(name, "Chest") ||
                    strstr(name, "pelvis") || strstr(name, "Pelvis") || strstr(name, "Hips") || strstr(name, "hips"));
}

int preview_clip_init(preview_clip *c, int frame_count, int joint_count, const int *parents, const char *const *names,
                      int foot_count, int target_count)
{
    memset(c, 0, sizeof *c);
    c->frame_count = frame_count;
    c->joint_count = joint_count;
    c->parents = parents;
    c->foot_count = foot_count;
    c->target_count = target_count;
    const size_t frames = (size_t)(frame_count > 0 ? frame_count : 1);
    c->draw_bone = calloc((size_t)joint_count + 1, 1);
    c->side = calloc((size_t)joint_count + 1, 1);
    c->head = calloc((size_t)joint_count + 1, 1);
    c->joints = calloc(frames * (size_t)joint_count + 1, sizeof *c->joints);
    c->feet = calloc(frames * (size_t)foot_count + 1, sizeof *c->feet);
    c->contact = calloc(frames * (size_t)foot_count + 1, 1);
    c->targets = calloc(frames * (size_t)target_count + 1, sizeof *c->targets);
    c->target_on = calloc(frames * (size_t)target_count + 1, 1);
    if (!c->draw_bone || !c->side || !c->head || !c->joints || !c->feet || !c->contact || !c->targets ||
        !c->target_on) {
        preview_clip_free(c);
        return 0;
    }
    for (int j = 0; j < joint_count; j++) {
        const char *name = names ? names[j] : NULL;
        c->side[j] = (signed char)side_of(name);
        c->head[j] = name &&
                     (strcmp(name, "head") == 0 || strcmp(name, "Head") == 0 || cli_ends_with(name, ":Head", 0));
        const int p = parents[j];
        if (p < 0)
            continue;
        /* a root with a single child carries root motion on the ground: its bone is not drawn */
        int siblings = 0;
        for (int k = 0; k < joint_count; k++)
            siblings += parents[k] == p;
        c->draw_bone[j] = !(parents[p] < 0 && siblings == 1);
        /* torso bones are drawn thick: mark them with side 2 (centre colour) */
        if (is_torso(name) && c->side[j] == 0)
            c->side[j] = 2;
    }
    return 1;
}

static rgb colour_of_side(int side) { return side == 1 ? LEFT : side == -1 ? RIGHT : CENTRE; }

int preview_clip_add_mesh(preview_clip *c, const tdn_asset *asset)
{
    rgb *colours = malloc(sizeof *colours * (size_t)(c->joint_count + 1));
    if (!colours)
        return 0;
    for (int j = 0; j < c->joint_count; j++)
        colours[j] = colour_of_side(c->side[j]);
    int ok = preview_mesh_init(&c->mesh, asset, c->joint_count, colours);
    free(colours);
    if (ok && c->mesh.triangle_count > 0) {
        const size_t frames = (size_t)(c->frame_count > 0 ? c->frame_count : 1);
        c->palettes = malloc(sizeof *c->palettes * (frames * (size_t)c->joint_count + 1));
        ok = c->palettes != NULL;
    }
    return ok;
}

void preview_clip_free(preview_clip *c)
{
    preview_mesh_free(&c->mesh);
    free(c->palettes);
    free(c->draw_bone);
    free(c->side);
    free(c->head);
    free(c->joints);
    free(c->feet);
    free(c->contact);
    free(c->targets);
    free(c->target_on);
    memset(c, 0, sizeof *c);
}

void preview_clip_set_pose(preview_clip *c, int f, const tdn_skeleton *skeleton, const tdn_mat4 *world_model)
{
    for (int j = 0; j < c->joint_count; j++) {
        const float *m = world_model[j].m;
        c->joints[(size_t)f * (size_t)c->joint_count + (size_t)j] = tdn_vec3_make(m[12], m[13], m[14]);
    }
    if (c->palettes)
        tdn_palette(skeleton, world_model, c->palettes + (size_t)f * (size_t)c->joint_count, NULL);
}

/* ---- framing ---- */

/* What a picture draws: one or more clips of frame_count frames each. */
typedef struct scene {
    const preview_clip *const *clips;
    int count, frame_count;
} scene;

typedef struct framing {
    float size;                     /* S: the largest of the clips' sizes */
    float sizes[PREVIEW_MAX_CLIPS]; /* each clip's S: the largest extent of one frame's joints */
    float distance, azimuth, elevation, spacing;
    tdn_vec3 *targets; /* per frame: where the camera looks */
} framing;

static void box_of(const tdn_vec3 *p, int n, tdn_vec3 *lo, tdn_vec3 *hi)
{
    *lo = *hi = n > 0 ? p[0] : tdn_vec3_make(0.0f, 0.0f, 0.0f);
    for (int i = 1; i < n; i++) {
        lo->x = fminf(lo->x, p[i].x), lo->y = fminf(lo->y, p[i].y), lo->z = fminf(lo->z, p[i].z);
        hi->x = fmaxf(hi->x, p[i].x), hi->y = fmaxf(hi->y, p[i].y), hi->z = fmaxf(hi->z, p[i].z);
    }
}

static void join_box(tdn_vec3 *lo, tdn_vec3 *hi, tdn_vec3 lo2, tdn_vec3 hi2)
{
    lo->x = fminf(lo->x, lo2.x), lo->y = fminf(lo->y, lo2.y), lo->z = fminf(lo->z, lo2.z);
    hi->x = fmaxf(hi->x, hi2.x), hi->y = fmaxf(hi->y, hi2.y), hi->z = fmaxf(hi->z, hi2.z);
}

/* The box of clip k's joints in frame f, down to the ground (y = 0) at least. */
static void clip_box(const scene *s, int k, int f, tdn_vec3 *lo, tdn_vec3 *hi)
{
    const preview_clip *c = s->clips[k];
    box_of(c->joints + (size_t)f * (size_t)c->joint_count, c->frame_count > 0 ? c->joint_count : 0, lo, hi);
    lo->y = fminf(lo->y, 0.0f); /* the ground is in the picture */
}

/* The box of every clip's joints in frame f. */
static void scene_box(const scene *s, int f, tdn_vec3 *lo, tdn_vec3 *hi)
{
    clip_box(s, 0, f, lo, hi);
    for (int k = 1; k < s->count; k++) {
        tdn_vec3 lo2, hi2;
        clip_box(s, k, f, &lo2, &hi2);
        join_box(lo, hi, lo2, hi2);
    }
}

/* A 1-2-5 number near x. */
static float nice(float x)
{
    const float e = powf(10.0f, floorf(log10f(x)));
    const float m = x / e;
    return (m < 1.5f ? 1.0f : m < 3.5f ? 2.0f : m < 7.5f ? 5.0f : 10.0f) * e;
}

static int frame_camera(const scene *s, const preview_options *o, float fps, framing *fr)
{
    const int F = s->frame_count > 0 ? s->frame_count : 1;
    fr->targets = malloc(sizeof *fr->targets * (size_t)F);
    tdn_vec3 *centres = malloc(sizeof *centres * (size_t)F);
    if (!fr->targets || !centres) {
        free(centres);
        free(fr->targets);
        fr->targets = NULL;
        return 0;
    }
    float size = 0.01f, frame_radius = 0.0f;
    for (int k = 0; k < s->count; k++)
        fr->sizes[k] = 0.01f;
    tdn_vec3 all_lo = { 0 }, all_hi = { 0 };
    for (int f = 0; f < F; f++) {
        for (int k = 0; k < s->count; k++) {
            tdn_vec3 lo, hi;
            clip_box(s, k, f, &lo, &hi);
            const tdn_vec3 e = tdn_vec3_sub(hi, lo);
            fr->sizes[k] = fmaxf(fr->sizes[k], fmaxf(e.x, fmaxf(e.y, e.z)));
            size = fmaxf(size, fr->sizes[k]);
        }
        tdn_vec3 lo, hi;
        scene_box(s, f, &lo, &hi);
        frame_radius = fmaxf(frame_radius, 0.5f * tdn_vec3_length(tdn_vec3_sub(hi, lo)));
        centres[f] = tdn_vec3_scale(tdn_vec3_add(lo, hi), 0.5f);
        if (f == 0) {
            all_lo = lo, all_hi = hi;
        } else {
            join_box(&all_lo, &all_hi, lo, hi);
        }
    }
    const float clip_radius = 0.5f * tdn_vec3_length(tdn_vec3_sub(all_hi, all_lo));
    float radius;
    if (clip_radius <= 1.5f * frame_radius) {
        const tdn_vec3 centre = tdn_vec3_scale(tdn_vec3_add(all_lo, all_hi), 0.5f);
        for (int f = 0; f < F; f++)
            fr->targets[f] = centre;
        radius = clip_radius;
    } else {
        /* follow: the box centres averaged over half a second either side, up and down too (a
         * jump), at the distance that keeps every frame's box around its target in the picture
         * (the average lags the character), plus the head's sphere: solids reach past joints */
        const int half = (int)lroundf(0.5f * fps);
        radius = 0.0f;
        for (int f = 0; f < F; f++) {
            const int a = f - half < 0 ? 0 : f - half, b = f + half >= F ? F - 1 : f + half;
            tdn_vec3 sum = { 0.0f, 0.0f, 0.0f };
            for (int g = a; g <= b; g++)
                sum = tdn_vec3_add(sum, centres[g]);
            fr->targets[f] = tdn_vec3_scale(sum, 1.0f / (float)(b - a + 1));
            tdn_vec3 lo, hi;
            scene_box(s, f, &lo, &hi);
            const tdn_vec3 t = fr->targets[f];
            const tdn_vec3 far = { fmaxf(hi.x - t.x, t.x - lo.x), fmaxf(hi.y - t.y, t.y - lo.y),
                                   fmaxf(hi.z - t.z, t.z - lo.z) }; /* the box's farthest corner */
            radius = fmaxf(radius, tdn_vec3_length(far));
        }
        radius += 0.06f * size;
    }
    free(centres);
    const float rad = 3.14159265358979f / 180.0f;
    fr->size = size;
    fr->azimuth = o->azimuth;
    fr->elevation = o->elevation;
    fr->distance = o->distance > 0.0f ? o->distance : 1.05f * fmaxf(radius, 0.05f) / sinf(0.5f * FOV_Y_DEG * rad);
    fr->spacing = nice(size / 4.0f);
    return 1;
}

/* ---- one frame ---- */

static float bone_radius(const preview_clip *c, int j, float len, float size)
{
    if (c->side[j] == 2)
        return 0.06f * size;
    return fminf(fmaxf(0.14f * len, 0.014f * size), 0.04f * size);
}

/* What draw_frame draws with: per clip its style, and scratch for the largest skinned mesh. */
typedef struct frame_style {
    int mesh[PREVIEW_MAX_CLIPS];
    float *skinned; /* 6 floats per mesh vertex */
} frame_style;

/* Clip c's solids in frame f (its size: its bones' radii), named from `id` on for the outline. */
static void draw_clip(render_canvas *r, const preview_clip *c, float size, int mesh, float *skinned, int f,
                      unsigned short id)
{
    const tdn_vec3 *joints = c->joints + (size_t)f * (size_t)c->joint_count;
    if (mesh)
        preview_mesh_draw(&c->mesh, r, c->palettes + (size_t)f * (size_t)c->joint_count, c->joint_count, skinned);
    for (int j = 0; !mesh && j < c->joint_count; j++) {
        const int p = c->parents[j];
        const rgb colour = colour_of_side(c->side[j]);
        if (p >= 0 && c->draw_bone[j]) {
            const float len = tdn_vec3_length(tdn_vec3_sub(joints[j], joints[p]));
            render_capsule(r, joints[p], joints[j], bone_radius(c, j, len, size), colour, (unsigned short)(id + j));
        }
        if (c->head[j]) {
            tdn_vec3 up = p >= 0 ? tdn_vec3_sub(joints[j], joints[p]) : tdn_vec3_make(0.0f, 1.0f, 0.0f);
            const float n = tdn_vec3_length(up);
            up = n > 1e-6f ? tdn_vec3_scale(up, 1.0f / n) : tdn_vec3_make(0.0f, 1.0f, 0.0f);
            render_sphere(r, tdn_vec3_add(joints[j], tdn_vec3_scale(up, 0.04f * size)), 0.06f * size, CENTRE,
                          (unsigned short)(id + j));
        }
    }
    for (int t = 0; t < c->target_count; t++) {
        const size_t i = (size_t)f * (size_t)c->target_count + (size_t)t;
        if (c->target_on[i])
            render_sphere(r, c->targets[i], 0.02f * size, TARGET, (unsigned short)(id + c->joint_count + t));
    }
}

/* The clips' labels along the bottom of the picture: the first at the left, the last at the
 * right, any others evenly between (so that they read as the characters stand, left to right). */
static void draw_labels(render_canvas *r, const scene *s)
{
    const int width = r->image.width, y = r->image.height - IMAGE_CHAR_H - 5;
    for (int k = 0; k < s->count; k++) {
        const char *label = s->clips[k]->label;
        if (!label)
            continue;
        const int w = (int)strlen(label) * IMAGE_CHAR_W;
        const int x = s->count == 1 ? 6 : 6 + (width - 12 - w) * k / (s->count - 1);
        image_text(&r->image, x, y, label, TEXT);
    }
}

static void draw_frame(render_canvas *r, const scene *s, const framing *fr, const frame_style *style, int f)
{
    const float rad = 3.14159265358979f / 180.0f;
    camera cam;
    camera_orbit(&cam, fr->targets[f], fr->azimuth, fr->elevation, fr->distance, FOV_Y_DEG * rad, r->image.width,
                 r->image.height);
    render_ground(r, &cam, s->clips[0]->ground, fr->spacing, 1.5f * fr->distance, 4.0f * fr->distance);
    float smallest = fr->sizes[0];
    for (int k = 0; k < s->count; k++) {
        const preview_clip *c = s->clips[k];
        smallest = fminf(smallest, fr->sizes[k]);
        for (int i = 0; i < c->foot_count; i++) {
            const size_t at = (size_t)f * (size_t)c->foot_count + (size_t)i;
            if (c->contact[at]) {
                tdn_vec3 p = c->feet[at];
                p.y += 0.002f * fr->sizes[k]; /* just above the ground */
                render_disc(r, p, 0.09f * fr->sizes[k], CONTACT, 0.85f);
            }
        }
    }
    /* each clip's solids named apart, so that the outline runs between two characters too */
    unsigned short id = 1;
    for (int k = 0; k < s->count; k++) {
        draw_clip(r, s->clips[k], fr->sizes[k], style->mesh[k], style->skinned, f, id);
        id = (unsigned short)(id + s->clips[k]->joint_count + s->clips[k]->target_count);
    }
    render_outline(r, 0.03f * smallest);
    for (int k = 0; k < s->count; k++) {
        const preview_clip *c = s->clips[k];
        for (int t = 0; t < c->target_count; t++) {
            const size_t i = (size_t)f * (size_t)c->target_count + (size_t)t;
            float x, y, z;
            if (c->target_on[i] && camera_project(&cam, c->targets[i], &x, &y, &z))
                image_cross(&r->image, image_pixel(x), image_pixel(y), 5, TARGET);
        }
    }
    draw_labels(r, s);
}

/* ---- progress and labels ---- */

static void begin_progress(const preview_options *o, progress_bar *bar)
{
    char label[sizeof bar->label];
    snprintf(label, sizeof label, "tendon %s: rendering %s", o->command ? o->command : "run", o->path);
    progress_begin(bar, label, -1);
}

static void time_label(char *buf, size_t size, int frame, float fps)
{
    snprintf(buf, size, "%.2f s  frame %d", (double)frame / (double)fps, frame);
}

/* An animation's frame f, its time in the corner; returns the milliseconds drawing took. */
static double draw_animation_frame(render_canvas *r, const scene *s, const framing *fr, const frame_style *style, int f,
                                   float fps)
{
    const double t0 = cli_now_ms();
    draw_frame(r, s, fr, style, f);
    const double ms = cli_now_ms() - t0;
    char label[64];
    time_label(label, sizeof label, f, fps);
    image_text(&r->image, 8, 8, label, TEXT);
    return ms;
}

/* ---- PNG: the contact sheet ---- */

enum { SHEET_MARGIN = 8, SHEET_LABEL = 13 };

static int write_sheet(const scene *s, const preview_options *o, const framing *fr, const frame_style *style,
                       render_canvas *r, char *why, size_t why_size, double *ms, int *drawn)
{
    const int w = r->image.width, h = r->image.height;
    const int F = s->frame_count;
    const int n = (o->sheet_frames > 0 ? o->sheet_frames : 12) < F ? (o->sheet_frames > 0 ? o->sheet_frames : 12) : F;
    const int cols = o->columns > 0 ? (o->columns < n ? o->columns : n) : (n < 4 ? n : 4);
    const int rows = (n + cols - 1) / cols;
    const rgb paper = { 246, 246, 244 };
    image_rgb sheet;
    if (!image_create(&sheet, SHEET_MARGIN + cols * (w + SHEET_MARGIN),
                      SHEET_MARGIN + rows * (h + SHEET_LABEL + SHEET_MARGIN), paper)) {
        snprintf(why, why_size, "out of memory for the contact sheet");
        return 1;
    }
    double total = 0.0;
    progress_bar bar;
    begin_progress(o, &bar);
    for (int i = 0; i < n; i++) {
        const int f = n > 1 ? (int)lround((double)i * (F - 1) / (n - 1)) : 0;
        const double t0 = cli_now_ms();
        draw_frame(r, s, fr, style, f);
        total += cli_now_ms() - t0;
        const int x0 = SHEET_MARGIN + (i % cols) * (w + SHEET_MARGIN);
        const int y0 = SHEET_MARGIN + (i / cols) * (h + SHEET_LABEL + SHEET_MARGIN);
        for (int y = 0; y < h; y++)
            memcpy(sheet.pixels + ((size_t)(y0 + y) * (size_t)sheet.width + (size_t)x0) * 3,
                   r->image.pixels + (size_t)y * (size_t)w * 3, (size_t)w * 3);
        char label[64];
        time_label(label, sizeof label, f, o->fps);
        const int tw = (int)strlen(label) * IMAGE_CHAR_W;
        image_text(&sheet, x0 + (w - tw) / 2, y0 + h + 4, label, TEXT);
        progress_update(&bar, i + 1, n);
    }
    progress_end(&bar);
    *ms = n > 0 ? total / n : 0.0;
    *drawn = n;
    int code = png_write_rgb(o->path, &sheet, why, why_size);
    image_destroy(&sheet);
    return code;
}

/* ---- GIF: a fixed palette ---- */

typedef struct gif_palette {
    GifColorType colours[256];
    unsigned char lut[32 * 32 * 32]; /* 5 bits per channel -> index */
} gif_palette;

static void palette_add(gif_palette *p, int *n, float r, float g, float b)
{
    if (*n >= 256)
        return;
    p->colours[*n].Red = (GifByteType)lrintf(fminf(fmaxf(r, 0.0f), 255.0f));
    p->colours[*n].Green = (GifByteType)lrintf(fminf(fmaxf(g, 0.0f), 255.0f));
    p->colours[*n].Blue = (GifByteType)lrintf(fminf(fmaxf(b, 0.0f), 255.0f));
    (*n)++;
}

static void palette_ramp(gif_palette *p, int *n, rgb a, rgb b, int steps)
{
    for (int s = 0; s < steps; s++) {
        const float t = steps > 1 ? (float)s / (float)(steps - 1) : 0.0f;
        palette_add(p, n, a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t);
    }
}

/* The renderer's colours: a 5x5x5 cube for anything, then ramps of what the renderer draws
 * (each solid's shades, outlines included; the sky; the ground hazing; grid lines; greys). */
static void palette_build(gif_palette *p)
{
    int n = 0;
    static const unsigned char levels[5] = { 0, 64, 128, 192, 255 };
    for (int r = 0; r < 5; r++)
        for (int g = 0; g < 5; g++)
            for (int b = 0; b < 5; b++)
                palette_add(p, &n, levels[r], levels[g], levels[b]);
    const rgb solids[5] = { LEFT, RIGHT, CENTRE, CONTACT, TARGET };
    for (int s = 0; s < 5; s++) {
        const rgb dark = { (unsigned char)(solids[s].r * 0.19f), (unsigned char)(solids[s].g * 0.19f),
                           (unsigned char)(solids[s].b * 0.19f) };
        palette_ramp(p, &n, dark, solids[s], 18);
    }
    palette_ramp(p, &n, RENDER_SKY_HORIZON, RENDER_SKY_TOP, 12);
    palette_ramp(p, &n, RENDER_GROUND, RENDER_HAZE, 8);
    palette_ramp(p, &n, RENDER_GROUND, RENDER_GRID, 7);
    palette_ramp(p, &n, RENDER_HAZE, RENDER_GRID, 5);
    const rgb black = { 0, 0, 0 }, white = { 255, 255, 255 };
    palette_ramp(p, &n, black, white, 256 - n);
    for (int i = 0; i < 32 * 32 * 32; i++) {
        const int r = ((i >> 10) & 31) * 8 + 4, g = ((i >> 5) & 31) * 8 + 4, b = (i & 31) * 8 + 4;
        int best = 0, best_d = 1 << 30;
        for (int k = 0; k < 256; k++) {
            const int dr = r - p->colours[k].Red, dg = g - p->colours[k].Green, db = b - p->colours[k].Blue;
            const int d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
            if (d < best_d)
                best_d = d, best = k;
        }
        p->lut[i] = (unsigned char)best;
    }
}

/* giflib's writes, into the output file (gif->UserData) */
static int gif_output(GifFileType *gif, const GifByteType *bytes, int count)
{
    const tdn_io__output *out = gif->UserData;
    return (int)fwrite(bytes, 1, (size_t)count, out->file);
}

/* The GIF dropped, leaving what was at its path as it was. */
static int gif_fail(GifFileType *gif, tdn_io__output *out, int error, char *why, size_t why_size)
{
    int close_error = 0;
    if (gif)
        EGifCloseFile(gif, &close_error);
    snprintf(why, why_size, "%s: writing the GIF failed: %s", out->path, GifErrorString(error ? error : close_error));
    tdn_io__output_discard(out);
    return 1;
}

/* The GIF's frames: every `step`-th run frame, step the smallest with step / fps >= 0.02 s
 * (GIF delays are whole hundredths, and players slow down delays under 2). */
static int gif_step(float fps)
{
    int step = (int)ceil(0.02 * (double)fps - 1e-9);
    return step < 1 ? 1 : step;
}

static int write_gif(const scene *s, const preview_options *o, const framing *fr, const frame_style *style,
                     render_canvas *r, char *why, size_t why_size, double *ms, int *drawn)
{
    const int w = r->image.width, h = r->image.height, F = s->frame_count;
    gif_palette *pal = malloc(sizeof *pal);
    GifByteType *line = malloc((size_t)w);
    if (!pal || !line) {
        free(pal);
        free(line);
        snprintf(why, why_size, "out of memory for the GIF");
        return 1;
    }
    palette_build(pal);
    int error = 0;
    tdn_io__output out;
    tdn_error err = { 0 };
    if (tdn_io__output_open(&out, o->path, &err) != TDN_OK) {
        free(pal);
        free(line);
        snprintf(why, why_size, "%s: %s", err.where, err.message);
        return 2;
    }
    GifFileType *gif = EGifOpen(&out, gif_output, &error);
    if (!gif) {
        free(pal);
        free(line);
        return gif_fail(NULL, &out, error, why, why_size);
    }
    int code = 0;
    ColorMapObject *map = GifMakeMapObject(256, pal->colours);
    EGifSetGifVersion(gif, 1);
    if (!map || EGifPutScreenDesc(gif, w, h, 8, 0, map) == GIF_ERROR) {
        code = gif_fail(gif, &out, gif->Error, why, why_size);
        gif = NULL;
    }
    /* loop forever: the NETSCAPE2.0 application extension */
    if (gif &&
        (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
         EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_ERROR ||
         EGifPutExtensionBlock(gif, 3, "\x01\x00\x00") == GIF_ERROR || EGifPutExtensionTrailer(gif) == GIF_ERROR)) {
        code = gif_fail(gif, &out, gif->Error, why, why_size);
        gif = NULL;
    }
    const int step = gif_step(o->fps);
    const int frames = F > 0 ? (F - 1) / step + 1 : 0;
    double total = 0.0;
    progress_bar bar;
    begin_progress(o, &bar);
    for (int i = 0; gif && i < frames; i++) {
        const int f = i * step;
        total += draw_animation_frame(r, s, fr, style, f, o->fps);
        /* the delay: hundredths of a second from this frame to the next, rounded on the
         * clip's clock so that the whole lasts as long as the run */
        const double cs = 100.0 * step / (double)o->fps;
        int delay = (int)(lround(cs * (i + 1)) - lround(cs * i));
        GraphicsControlBlock gcb = { DISPOSAL_UNSPECIFIED, 0, delay < 2 ? 2 : delay, NO_TRANSPARENT_COLOR };
        GifByteType ext[4];
        EGifGCBToExtension(&gcb, ext);
        if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, ext) == GIF_ERROR ||
            EGifPutImageDesc(gif, 0, 0, w, h, 0, NULL) == GIF_ERROR) {
            code = gif_fail(gif, &out, gif->Error, why, why_size);
            gif = NULL;
            break;
        }
        for (int y = 0; y < h; y++) {
            const unsigned char *p = r->image.pixels + (size_t)y * (size_t)w * 3;
            for (int x = 0; x < w; x++, p += 3)
                line[x] = pal->lut[((p[0] >> 3) << 10) | ((p[1] >> 3) << 5) | (p[2] >> 3)];
            if (EGifPutLine(gif, line, w) == GIF_ERROR) {
                code = gif_fail(gif, &out, gif->Error, why, why_size);
                gif = NULL;
                break;
            }
        }
        progress_update(&bar, i + 1, frames);
    }
    progress_end(&bar);
    if (gif && EGifCloseFile(gif, &error) == GIF_ERROR)
        code = gif_fail(NULL, &out, error, why, why_size);
    else if (gif && tdn_io__output_commit(&out, &err) != TDN_OK) {
        snprintf(why, why_size, "%s: %s", err.where, err.message);
        code = 1;
    }
    GifFreeMapObject(map);
    free(pal);
    free(line);
    *ms = frames > 0 ? total / frames : 0.0;
    *drawn = frames;
    return code;
}

/* ---- MP4: raw RGB frames into ffmpeg ---- */

static int write_mp4(const scene *s, const preview_options *o, const framing *fr, const frame_style *style,
                     render_canvas *r, char *why, size_t why_size, double *ms, int *drawn)
{
    const int w = r->image.width, h = r->image.height, F = s->frame_count; /* ffmpeg found: preview_check */
    char size[32], rate[32];
    snprintf(size, sizeof size, "%dx%d", w, h);
    snprintf(rate, sizeof rate, "%.9g", (double)o->fps);
    /* ffmpeg writes the file the output opened (a temporary beside a regular file, whose name
     * does not end in .mp4: hence -f mp4), which takes the path's place once ffmpeg succeeded */
    tdn_io__output out;
    tdn_error err = { 0 };
    if (tdn_io__output_open(&out, o->path, &err) != TDN_OK) {
        snprintf(why, why_size, "%s: %s", err.where, err.message);
        return 2;
    }
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(why, why_size, "cannot start ffmpeg: %s", strerror(errno));
        tdn_io__output_discard(&out);
        return 1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        snprintf(why, why_size, "cannot start ffmpeg: %s", strerror(errno));
        tdn_io__output_discard(&out);
        return 1;
    }
    if (pid == 0) {
        dup2(fds[0], 0);
        close(fds[0]);
        close(fds[1]);
        char *argv[] = { "ffmpeg",
                         "-hide_banner",
                         "-loglevel",
                         "error",
                         "-nostdin",
                         "-y",
                         "-f",
                         "rawvideo",
                         "-pix_fmt",
                         "rgb24",
                         "-s",
                         size,
                         "-framerate",
                         rate,
                         "-i",
                         "pipe:0",
                         "-pix_fmt",
                         "yuv420p",
                         "-movflags",
                         "+faststart",
                         "-f",
                         "mp4",
                         (char *)tdn_io__output_file_path(&out),
                         NULL };
        execvp("ffmpeg", argv);
        _exit(127);
    }
    close(fds[0]);
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    double total = 0.0;
    int code = 0, written = 0;
    progress_bar bar;
    begin_progress(o, &bar);
    for (int f = 0; f < F; f++) {
        total += draw_animation_frame(r, s, fr, style, f, o->fps);
        const unsigned char *p = r->image.pixels;
        size_t left = (size_t)w * (size_t)h * 3;
        while (left > 0) {
            ssize_t n = write(fds[1], p, left);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                code = 1;
                break;
            }
            p += n;
            left -= (size_t)n;
        }
        if (code)
            break;
        written++;
        progress_update(&bar, f + 1, F);
    }
    progress_end(&bar);
    close(fds[1]);
    signal(SIGPIPE, old == SIG_ERR ? SIG_DFL : old);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(why, why_size, "%s: ffmpeg failed (%s %d)", o->path, WIFEXITED(status) ? "exit" : "signal",
                 WIFEXITED(status)     ? WEXITSTATUS(status)
                 : WIFSIGNALED(status) ? WTERMSIG(status)
                                       : -1);
        code = 1;
    } else if (code) {
        snprintf(why, why_size, "%s: ffmpeg stopped reading frames", o->path);
    }
    if (code)
        tdn_io__output_discard(&out); /* no half-encoded file */
    else if (tdn_io__output_commit(&out, &err) != TDN_OK) {
        snprintf(why, why_size, "%s: %s", err.where, err.message);
        code = 1;
    }
    *ms = written > 0 ? total / written : 0.0;
    *drawn = written;
    return code;
}

int preview_write(const preview_clip *c, const preview_options *o, char *why, size_t why_size, double *ms_per_frame,
                  int *frames_drawn)
{
    return preview_write_many(&c, 1, o, why, why_size, ms_per_frame, frames_drawn);
}

int preview_write_many(const preview_clip *const *clips, int count, const preview_options *o, char *why,
                       size_t why_size, double *ms_per_frame, int *frames_drawn)
{
    *ms_per_frame = 0.0;
    *frames_drawn = 0;
    int code = preview_check(o, why, why_size);
    if (code)
        return code;
    const scene s = { clips, count < PREVIEW_MAX_CLIPS ? count : PREVIEW_MAX_CLIPS,
                      count > 0 ? clips[0]->frame_count : 0 };
    if (s.frame_count <= 0) {
        snprintf(why, why_size, "no frames to render");
        return 1;
    }
    int w, h;
    frame_size(o, &w, &h);
    framing fr;
    render_canvas r;
    if (!frame_camera(&s, o, o->fps, &fr)) {
        snprintf(why, why_size, "out of memory");
        return 1;
    }
    frame_style style = { { 0 }, NULL };
    int vertices = 0;
    for (int k = 0; k < s.count; k++) {
        const preview_clip *c = clips[k];
        style.mesh[k] = o->style != PREVIEW_STYLE_CAPSULES && c->mesh.triangle_count > 0 && c->palettes;
        if (style.mesh[k] && c->mesh.vertex_count > vertices)
            vertices = c->mesh.vertex_count;
    }
    if (vertices > 0 && !(style.skinned = malloc(6 * sizeof(float) * (size_t)vertices))) {
        free(fr.targets);
        snprintf(why, why_size, "out of memory for the skinned mesh");
        return 1;
    }
    if (!render_canvas_create(&r, w, h)) {
        free(style.skinned);
        free(fr.targets);
        snprintf(why, why_size, "out of memory for a %dx%d frame", w, h);
        return 1;
    }
    switch (o->kind) {
    case PREVIEW_PNG:
        code = write_sheet(&s, o, &fr, &style, &r, why, why_size, ms_per_frame, frames_drawn);
        break;
    case PREVIEW_GIF:
        code = write_gif(&s, o, &fr, &style, &r, why, why_size, ms_per_frame, frames_drawn);
        break;
    case PREVIEW_MP4:
        code = write_mp4(&s, o, &fr, &style, &r, why, why_size, ms_per_frame, frames_drawn);
        break;
    }
    render_canvas_destroy(&r);
    free(style.skinned);
    free(fr.targets);
    return code;
}
