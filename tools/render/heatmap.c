/* tendon CLI: pictures of a blend space's weight fields. */
#include "heatmap.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "png_write.h"

static const rgb PAGE = { 255, 255, 255 }, INK = { 30, 30, 30 }, FRAME = { 90, 90, 90 };
static const rgb OWN = { 255, 255, 255 }, OTHER = { 150, 150, 150 }, AT = { 255, 48, 48 };
static const rgb NO_WEIGHT = { 128, 128, 128 };

/* A perceptual ramp (dark violet, blue, teal, green, yellow: lightness rises steadily, so
 * equal steps of weight look like equal steps), interpolated between five control points. */
static rgb colour_map(float t)
{
    static const float stops[5][3] = {
        { 68, 1, 84 }, { 59, 82, 139 }, { 33, 145, 140 }, { 94, 201, 98 }, { 253, 231, 37 },
    };
    if (!(t > 0.0f))
        t = 0.0f;
    if (t > 1.0f)
        t = 1.0f;
    float f = t * 4.0f;
    int i = (int)f;
    if (i > 3)
        i = 3;
    f -= (float)i;
    rgb c;
    c.r = (unsigned char)lrintf(stops[i][0] + (stops[i + 1][0] - stops[i][0]) * f);
    c.g = (unsigned char)lrintf(stops[i][1] + (stops[i + 1][1] - stops[i][1]) * f);
    c.b = (unsigned char)lrintf(stops[i][2] + (stops[i + 1][2] - stops[i][2]) * f);
    return c;
}

/* What a panel shows: x0..x1 across; y0..y1 up (2D spaces) or weight 0..1 up (1D). */
typedef struct view {
    double x0, x1, y0, y1;
} view;

/* Widens [lo, hi] to `extent` about its centre, then pads it by 15% of that on each side. */
static void pad(double *lo, double *hi, double extent)
{
    double centre = *lo * 0.5 + *hi * 0.5;
    *lo = centre - extent * 0.65;
    *hi = centre + extent * 0.65;
}

/* The bounding box of the samples and `at` over the first two axes (one for a 1D space).
 * The axes share one scale (so angles and distances look right) unless one range is more
 * than 3 times the other; a zero range takes the other's (or 1). */
static view fit(const tdn_blend_space *space, const float *at, int axes)
{
    double lo[2] = { at[0], axes > 1 ? at[1] : 0 }, hi[2] = { lo[0], lo[1] };
    for (int s = 0; s < tdn_blend_space_sample_count(space); s++) {
        const float *p = tdn_blend_space_point(space, s);
        for (int a = 0; a < axes; a++) {
            lo[a] = fmin(lo[a], p[a]);
            hi[a] = fmax(hi[a], p[a]);
        }
    }
    view v = { lo[0], hi[0], lo[1], hi[1] };
    double ex = hi[0] - lo[0], ey = hi[1] - lo[1];
    if (axes == 1) {
        pad(&v.x0, &v.x1, ex > 0 ? ex : 1.0);
        v.y0 = 0.0;
        v.y1 = 1.0;
        return v;
    }
    if (ex <= 0 && ey <= 0)
        ex = ey = 1.0;
    else if (ex <= 0)
        ex = ey;
    else if (ey <= 0)
        ey = ex;
    if (fmax(ex, ey) <= 3.0 * fmin(ex, ey))
        ex = ey = fmax(ex, ey);
    pad(&v.x0, &v.x1, ex);
    pad(&v.y0, &v.y1, ey);
    return v;
}

static float to_float(double d) { return d > FLT_MAX ? FLT_MAX : d < -FLT_MAX ? -FLT_MAX : (float)d; }

/* Panel coordinates (0..HEATMAP_PANEL, y down) of a point of the view. */
static float panel_x(const view *v, double x) { return (float)((x - v->x0) / (v->x1 - v->x0) * HEATMAP_PANEL); }
static float panel_y(const view *v, double y) { return (float)((v->y1 - y) / (v->y1 - v->y0) * HEATMAP_PANEL); }

/* Weights at every pixel centre (2D: PANEL x PANEL, 1D: PANEL columns), sample-major:
 * field[s * pixels + i]; NaN where the space gives none. */
static float *evaluate(const tdn_blend_space *space, const float *at, const view *v, int axes, int pixels)
{
    const int n = tdn_blend_space_sample_count(space), dims = tdn_blend_space_dimensions(space);
    float *field = malloc(sizeof(float) * (size_t)pixels * (size_t)n);
    if (!field)
        return NULL;
    float point[TDN_MAX_BLEND_SPACE_DIMENSIONS], w[TDN_MAX_BLEND_SPACE_SAMPLES];
    memcpy(point, at, sizeof(float) * (size_t)dims);
    for (int i = 0; i < pixels; i++) {
        const int px = i % HEATMAP_PANEL, py = i / HEATMAP_PANEL;
        point[0] = to_float(v->x0 + (px + 0.5) / HEATMAP_PANEL * (v->x1 - v->x0));
        if (axes > 1)
            point[1] = to_float(v->y1 - (py + 0.5) / HEATMAP_PANEL * (v->y1 - v->y0));
        const int ok = tdn_blend_space_weights(space, point, w, NULL) == TDN_OK;
        for (int s = 0; s < n; s++)
            field[(size_t)s * (size_t)pixels + (size_t)i] = ok ? w[s] : NAN;
    }
    return field;
}

static float weight_row(float w);

/* The panel's own sample bright with a dark ring, the others dim. On a 1D panel each sits on
 * the curve, at the panel's weight there. */
static void mark_samples(image_rgb *im, int ox, int oy, const tdn_blend_space *space, const view *v, int axes, int own)
{
    float w[TDN_MAX_BLEND_SPACE_SAMPLES];
    for (int pass = 0; pass < 2; pass++) {
        for (int s = 0; s < tdn_blend_space_sample_count(space); s++) {
            if ((s == own) != (pass == 1))
                continue; /* the own sample last, on top */
            const float *p = tdn_blend_space_point(space, s);
            float x = (float)ox + panel_x(v, p[0]);
            float y;
            if (axes > 1)
                y = (float)oy + panel_y(v, p[1]);
            else
                y = (float)oy + weight_row(tdn_blend_space_weights(space, p, w, NULL) == TDN_OK ? w[own] : 0.0f);
            if (s == own) {
                image_dot(im, x, y, 4.0f, INK, 1.0f);
                image_dot(im, x, y, 2.8f, OWN, 1.0f);
            } else {
                image_dot(im, x, y, 2.2f, OTHER, 0.7f);
            }
        }
    }
}

/* The 1D panel's weight of 0..1 in panel rows (1 near the top, 0 near the bottom). */
static float weight_row(float w) { return (float)HEATMAP_PANEL - 10.0f - w * ((float)HEATMAP_PANEL - 24.0f); }

static void draw_curve_panel(image_rgb *im, int ox, int oy, const float *field)
{
    const rgb grid = { 225, 225, 225 }, background = { 247, 247, 247 };
    image_fill_rect(im, ox, oy, HEATMAP_PANEL, HEATMAP_PANEL, background);
    for (int k = 0; k <= 4; k++)
        image_fill_rect(im, ox, oy + (int)lrintf(weight_row((float)k * 0.25f)), HEATMAP_PANEL, 1, grid);
    float previous = NAN;
    for (int px = 0; px < HEATMAP_PANEL; px++) {
        float w = field[px];
        if (isnan(w)) { /* no weight here */
            previous = NAN;
            continue;
        }
        int top = (int)lrintf(weight_row(w)), base = (int)lrintf(weight_row(0.0f));
        image_fill_rect(im, ox + px, oy + top, 1, base - top + 1, colour_map(w));
        /* the curve: a 2-pixel line joined to the previous column */
        int from = top, to = top;
        if (!isnan(previous)) {
            int p = (int)lrintf(weight_row(previous));
            from = p < top ? p : top;
            to = p > top ? p : top;
        }
        image_fill_rect(im, ox + px, oy + from - 1, 1, to - from + 2, INK);
        previous = w;
    }
}

static void draw_heat_panel(image_rgb *im, int ox, int oy, const float *field)
{
    for (int py = 0; py < HEATMAP_PANEL; py++)
        for (int px = 0; px < HEATMAP_PANEL; px++) {
            float w = field[py * HEATMAP_PANEL + px];
            image_set(im, ox + px, oy + py, isnan(w) ? NO_WEIGHT : colour_map(w));
        }
}

/* "clip 0.250" above the panel, the name cut to fit. */
static void draw_label(image_rgb *im, int x, int y, const char *clip, float weight)
{
    char value[32], text[64];
    if (isnan(weight))
        snprintf(value, sizeof value, "-");
    else
        snprintf(value, sizeof value, "%.3f", (double)weight);
    const int room = (HEATMAP_PANEL + 2) / IMAGE_CHAR_W - 1 - (int)strlen(value);
    snprintf(text, sizeof text, "%.*s", room > 0 ? room : 0, clip);
    image_text(im, x, y, text, INK);
    image_text(im, x + HEATMAP_PANEL + 2 - IMAGE_CHAR_W * (int)strlen(value) + 1, y, value, INK);
}

static void draw_footer(image_rgb *im, int y, const view *v, int axes, const float *at, int dims)
{
    const int x = HEATMAP_MARGIN;
    for (int i = 0; i < HEATMAP_PANEL; i++)
        image_fill_rect(im, x + 1 + i, y + 2, 1, 8, colour_map((float)i / (HEATMAP_PANEL - 1)));
    image_frame(im, x, y + 1, HEATMAP_PANEL + 2, 10, FRAME);
    image_text(im, x, y + 13, "0", INK);
    image_text(im, x + HEATMAP_PANEL + 2 - 5, y + 13, "1", INK);
    image_text(im, x + HEATMAP_PANEL / 2 - 3 * IMAGE_CHAR_W, y + 13, "weight", INK);
    char ranges[96];
    if (axes > 1)
        snprintf(ranges, sizeof ranges, "x %.3g..%.3g y %.3g..%.3g", v->x0, v->x1, v->y0, v->y1);
    else
        snprintf(ranges, sizeof ranges, "x %.3g..%.3g", v->x0, v->x1);
    for (int d = 2; d < dims; d++) { /* a slice: where the other axes are held */
        size_t used = strlen(ranges);
        snprintf(ranges + used, sizeof ranges - used, "%s%.3g", d == 2 ? " slice at " : ",", (double)at[d]);
    }
    image_text(im, x, y + 24, ranges, INK);
}

int heatmap_write(const tdn_blend_space_file *file, const float *at, const char *path, char *why, size_t why_size)
{
    const tdn_blend_space *space = tdn_blend_space_file_space(file);
    const int n = tdn_blend_space_sample_count(space);
    const int axes = tdn_blend_space_dimensions(space) > 1 ? 2 : 1;
    int columns = (int)ceil(sqrt((double)n));
    if (columns < 1)
        columns = 1;
    const int rows = (n + columns - 1) / columns;
    const int pixels = axes > 1 ? HEATMAP_PANEL * HEATMAP_PANEL : HEATMAP_PANEL;
    float here[TDN_MAX_BLEND_SPACE_SAMPLES];
    if (tdn_blend_space_weights(space, at, here, NULL) != TDN_OK)
        for (int s = 0; s < n; s++)
            here[s] = NAN;

    const view v = fit(space, at, axes);
    image_rgb im;
    float *field = evaluate(space, at, &v, axes, pixels);
    if (!field || !image_create(&im, HEATMAP_MARGIN + columns * HEATMAP_CELL_W,
                                HEATMAP_MARGIN + rows * HEATMAP_CELL_H + HEATMAP_FOOTER, PAGE)) {
        free(field);
        snprintf(why, why_size, "out of memory for the picture");
        return 1;
    }
    for (int s = 0; s < n; s++) {
        const int cx = HEATMAP_MARGIN + (s % columns) * HEATMAP_CELL_W;
        const int cy = HEATMAP_MARGIN + (s / columns) * HEATMAP_CELL_H;
        const int ox = cx + 1, oy = cy + HEATMAP_LABEL + 1; /* inside the frame */
        const float *own = field + (size_t)s * (size_t)pixels;
        draw_label(&im, cx, cy + 1, tdn_blend_space_file_clip_name(file, s), here[s]);
        if (axes > 1)
            draw_heat_panel(&im, ox, oy, own);
        else
            draw_curve_panel(&im, ox, oy, own);
        mark_samples(&im, ox, oy, space, &v, axes, s);
        const int at_x = ox + image_pixel(panel_x(&v, at[0]));
        const int at_y = oy + image_pixel(axes > 1 ? panel_y(&v, at[1]) : weight_row(isnan(here[s]) ? 0.0f : here[s]));
        image_cross(&im, at_x, at_y, 5, AT);
        /* the view holds every sample and `at` 15% inside its edges: no marker reaches the frame */
        image_frame(&im, cx, cy + HEATMAP_LABEL, HEATMAP_PANEL + 2, HEATMAP_PANEL + 2, FRAME);
    }
    draw_footer(&im, HEATMAP_MARGIN + rows * HEATMAP_CELL_H, &v, axes, at, tdn_blend_space_dimensions(space));
    free(field);
    int code = png_write_rgb(path, &im, why, why_size);
    image_destroy(&im);
    return code;
}
