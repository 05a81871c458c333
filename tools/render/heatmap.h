/* tendon CLI: pictures of a blend space's weight fields (tendon weights --png). */
#ifndef TENDON_HEATMAP_H
#define TENDON_HEATMAP_H

#include <stddef.h>

#include "tendon/io/blend_space_file.h"

/* The layout: one framed panel per sample (HEATMAP_PANEL pixels square inside a 1-pixel frame)
 * with a label line above it, in a grid of ceil(sqrt(n)) columns and as many rows as needed;
 * below the grid, the colour scale and the ranges shown. The picture is
 * HEATMAP_MARGIN + columns * HEATMAP_CELL_W wide and
 * HEATMAP_MARGIN + rows * HEATMAP_CELL_H + HEATMAP_FOOTER high. */
enum {
    HEATMAP_PANEL = 160,
    HEATMAP_MARGIN = 10,
    HEATMAP_GAP = 10,
    HEATMAP_LABEL = 12,
    HEATMAP_FOOTER = 32,
    HEATMAP_CELL_W = HEATMAP_PANEL + 2 + HEATMAP_GAP,
    HEATMAP_CELL_H = HEATMAP_LABEL + HEATMAP_PANEL + 2 + HEATMAP_GAP,
};

/* Draws each sample's weight over the samples' bounding box (and `at`), padded by 15% of its
 * extent, and writes it to path as PNG. 2D spaces: heat maps; 1D: weight curves over the
 * line; more dimensions: the slice through the first two axes at `at`'s other coordinates.
 * Samples are dots (the panel's own bright, the others dim), `at` a cross. Returns 0, or an
 * exit code with the reason in why: 2 when path cannot be created, 1 otherwise. */
int heatmap_write(const tdn_blend_space_file *file, const float *at, const char *path, char *why, size_t why_size);

#endif
