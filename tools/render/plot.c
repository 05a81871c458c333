/* tendon CLI: line charts of values over time (see plot.h). */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const rgb PALETTE[PLOT_MAX_CURVES] = {
    { 31, 119, 180 },  { 255, 127, 14 }, { 44, 160, 44 },   { 214, 39, 40 },
    { 148, 103, 189 }, { 140, 86, 75 },  { 227, 119, 194 }, { 23, 190, 207 }
};

static void line(image_rgb *im, float x0, float y0, float x1, float y1, rgb c)
{
    const float dx = x1 - x0, dy = y1 - y0, span = fmaxf(fabsf(dx), fabsf(dy));
    if (!(span < (float)IMAGE_FAR)) /* off any picture, or not a number: nothing to draw */
        return;
    const int steps = (int)(span * 2.0f) + 1;
    for (int i = 0; i <= steps; i++) {
        const float u = (float)i / (float)steps;
        image_dot(im, x0 + dx * u, y0 + dy * u, 1.2f, c, 1.0f);
    }
}

static void fmt_tick(char *buf, size_t size, double v) { snprintf(buf, size, "%.3g", v); }

void plot_panel(image_rgb *im, int top, int height, const char *title, const char *unit, const plot_curve *c, int n,
                int frames, double fps, double lo, double hi)
{
    const rgb ink = { 40, 40, 40 }, grid = { 225, 225, 225 };
    const int left = 70, right = im->width - 190, w = right - left, bottom = top + height;
    const double seconds = (frames - 1) / fps;
    image_text(im, left, top - 14, title, ink);
    for (int k = 0; k <= 4; k++) { /* value grid and ticks */
        const double v = lo + (hi - lo) * k / 4.0;
        const int y = bottom - (int)lround((double)height * k / 4.0);
        image_fill_rect(im, left, y, w, 1, grid);
        char buf[32];
        fmt_tick(buf, sizeof buf, v);
        image_text(im, left - 8 - IMAGE_CHAR_W * (int)strlen(buf), y - 3, buf, ink);
    }
    for (int s = 0; s <= (int)seconds; s++) { /* time grid: every second, labelled every 2 */
        const int x = left + (int)lround(w * s / seconds);
        image_fill_rect(im, x, top, 1, height, grid);
        image_fill_rect(im, x, bottom, 1, 4, ink);
        if (s % 2 == 0) {
            char buf[16];
            snprintf(buf, sizeof buf, "%d", s);
            image_text(im, x - 3 * (int)strlen(buf), bottom + 7, buf, ink);
        }
    }
    image_frame(im, left, top, w + 1, height + 1, ink);
    image_text(im, 8, top + height / 2 - 3, unit, ink);
    for (int k = 0; k < n; k++) {
        for (int f = 1; f < frames; f++) {
            const float a = c[k].v[f - 1], b = c[k].v[f];
            if (isnan(a) || isnan(b))
                continue;
            const float x0 = left + (float)w * (f - 1) / (frames - 1), x1 = left + (float)w * f / (frames - 1);
            const float y0 = bottom - (float)height * (float)((a - lo) / (hi - lo));
            const float y1 = bottom - (float)height * (float)((b - lo) / (hi - lo));
            line(im, x0, y0, x1, y1, c[k].color);
        }
        const int ly = top + 6 + 14 * k; /* the legend, right of the panel */
        image_fill_rect(im, right + 14, ly + 2, 16, 3, c[k].color);
        image_text(im, right + 36, ly, c[k].label, ink);
    }
}

plot_curve *plot_curve_add(plot_curve *c, int *n, const char *label, int frames)
{
    for (int k = 0; k < *n; k++)
        if (strcmp(c[k].label, label) == 0)
            return &c[k];
    if (*n >= PLOT_MAX_CURVES)
        return NULL;
    plot_curve *x = &c[(*n)++];
    snprintf(x->label, sizeof x->label, "%s", label);
    x->color = PALETTE[(*n - 1) % PLOT_MAX_CURVES];
    x->v = malloc(sizeof(float) * (size_t)frames);
    for (int f = 0; x->v && f < frames; f++)
        x->v[f] = NAN;
    return x->v ? x : NULL;
}

void plot_curves_free(plot_curve *c, int n)
{
    for (int k = 0; k < n; k++)
        free(c[k].v);
}
