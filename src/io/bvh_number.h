/* tendon io: decimal numbers of a text format, read exactly and without the C locale (not
 * installed). */
#ifndef TENDON_IO_BVH_NUMBER_H
#define TENDON_IO_BVH_NUMBER_H

#include <stddef.h>

typedef enum tdn_io__number_status {
    TDN_IO__NUMBER_OK = 0,
    TDN_IO__NUMBER_MALFORMED, /* not a decimal number (or longer than TDN_IO__NUMBER_MAX_CHARS) */
    TDN_IO__NUMBER_NOT_FINITE /* "nan", "inf", MSVC's "1.#IND", or too large for the type */
} tdn_io__number_status;

/* Longest number token read; longer ones are malformed (no real file writes 128 digits). */
#define TDN_IO__NUMBER_MAX_CHARS 127

/* Reads the n characters at s (not NUL-terminated) as one decimal number: an optional sign,
 * digits with an optional '.', an optional exponent (e/E, optional sign, digits). The result
 * is the correctly rounded float (or double), the same as strtof (strtod) in the "C" locale,
 * whatever locale the program runs in. */
tdn_io__number_status tdn_io__read_float(const char *s, size_t n, float *out);
tdn_io__number_status tdn_io__read_double(const char *s, size_t n, double *out);

#endif
