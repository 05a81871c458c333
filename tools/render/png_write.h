/* tendon CLI: writing an RGB canvas as a PNG file (libpng). */
#ifndef TENDON_PNG_WRITE_H
#define TENDON_PNG_WRITE_H

#include <stddef.h>

#include "image.h"

/* Writes im to path as an 8-bit RGB PNG (output_file.h: a file at path is replaced only when
 * the whole PNG is written). Returns 0 on success; otherwise, with the reason in why: 2 when the
 * file cannot be created (a bad path), 1 when writing failed, leaving what was at path as it
 * was. */
int png_write_rgb(const char *path, const image_rgb *im, char *why, size_t why_size);

#endif
