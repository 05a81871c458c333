/* tendon CLI: line charts of values over time on an RGB canvas (tendon demo's plot): panels of
 * curves, one value per frame, with a value grid, a time grid every second (labelled every two)
 * and a legend right of the panel. */
#ifndef TENDON_PLOT_H
#define TENDON_PLOT_H

#include "image.h"

#define PLOT_MAX_CURVES 8 /* per panel: the palette's colours */

typedef struct plot_curve {
    char label[40];
    rgb color;
    float *v; /* per frame; NaN: no value */
} plot_curve;

/* The curve labelled `label` among the n of c, or a new one (NaN at each of `frames` frames,
 * the palette's next colour) when there is room; NULL when there is none, or no memory. */
plot_curve *plot_curve_add(plot_curve *c, int *n, const char *label, int frames);
void plot_curves_free(plot_curve *c, int n);

/* One panel `height` pixels high from `top`, across the canvas but for its margins: curves over
 * time [0, (frames - 1) / fps] seconds, values [lo, hi]. */
void plot_panel(image_rgb *im, int top, int height, const char *title, const char *unit, const plot_curve *c, int n,
                int frames, double fps, double lo, double hi);

#endif
