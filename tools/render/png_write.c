/* tendon CLI: writing an RGB canvas as a PNG file with libpng. */
#include "png_write.h"

#include <png.h>
#include <stdio.h>

#include "output_file.h"

typedef struct png_failure {
    char message[200];
} png_failure;

/* libpng's errors are kept (not printed) and unwind to png_write_rgb's setjmp. */
static void on_error(png_structp png, png_const_charp message)
{
    png_failure *failure = png_get_error_ptr(png);
    snprintf(failure->message, sizeof failure->message, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;
}

/* why: "PATH: WHAT" of err */
static int failed(const tdn_error *err, int code, char *why, size_t why_size)
{
    snprintf(why, why_size, "%s: %s", err->where, err->message);
    return code;
}

int png_write_rgb(const char *path, const image_rgb *im, char *why, size_t why_size)
{
    tdn_io__output out;
    tdn_error err = { 0 };
    if (tdn_io__output_open(&out, path, &err) != TDN_OK)
        return failed(&err, 2, why, why_size);
    png_failure failure = { "" };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(png ? &png : NULL, NULL);
        tdn_io__output_discard(&out);
        snprintf(why, why_size, "out of memory for a PNG writer");
        return 1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        tdn_io__output_discard(&out);
        snprintf(why, why_size, "writing %s failed: %s", path, failure.message);
        return 1;
    }
    png_init_io(png, out.file);
    png_set_IHDR(png, info, (png_uint_32)im->width, (png_uint_32)im->height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < im->height; y++)
        png_write_row(png, im->pixels + (size_t)y * (size_t)im->width * 3);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return tdn_io__output_commit(&out, &err) == TDN_OK ? 0 : failed(&err, 1, why, why_size);
}
