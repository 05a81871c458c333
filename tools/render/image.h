/* tendon CLI: a small 8-bit RGB canvas and what the pictures draw on it (dots, crosses,
 * frames, 5x7 text). Everything clips to the canvas. */
#ifndef TENDON_IMAGE_H
#define TENDON_IMAGE_H

#include <stddef.h>

typedef struct image_rgb {
    int width, height;
    unsigned char *pixels; /* width * height * 3 bytes, rows top to bottom */
} image_rgb;

typedef struct rgb {
    unsigned char r, g, b;
} rgb;

/* A canvas filled with `fill`; 0 when out of memory. */
int image_create(image_rgb *im, int width, int height, rgb fill);
void image_destroy(image_rgb *im);

/* Blends c over the pixel with opacity alpha (0..1). */
void image_blend(image_rgb *im, int x, int y, rgb c, float alpha);
static inline void image_set(image_rgb *im, int x, int y, rgb c) { image_blend(im, x, y, c, 1.0f); }
void image_fill_rect(image_rgb *im, int x, int y, int w, int h, rgb c);
/* The 1-pixel outline of the rectangle. */
void image_frame(image_rgb *im, int x, int y, int w, int h, rgb c);
/* A filled disc of radius r (pixels) centred on (cx, cy). */
void image_dot(image_rgb *im, float cx, float cy, float r, rgb c, float alpha);
/* A "+" of arm length `arm` with a dark outline, centred on (cx, cy). */
void image_cross(image_rgb *im, int cx, int cy, int arm, rgb c);

/* The pixel a coordinate falls in, floor(v), for the int calls above: a coordinate beyond
 * +-IMAGE_FAR (far off any canvas), infinite or NaN gives +-IMAGE_FAR, so that the conversion
 * and the arithmetic around it stay defined. */
enum { IMAGE_FAR = 1000000 };
int image_pixel(float v);

/* Text in tendon's own 5x7 font (digits, letters drawn upper case, . , - _ + = # : / ( ));
 * each character takes 6x7 pixels, (x, y) is the top left. Other characters draw as '?'.
 * Returns the x after the text. */
int image_text(image_rgb *im, int x, int y, const char *text, rgb c);
enum { IMAGE_CHAR_W = 6, IMAGE_CHAR_H = 7 };

#endif
