/* tendon io: exact decimal numbers without the C locale.
 *
 * Almost every number an animation file holds has at most 19 significant digits and a small
 * decimal exponent. For those the double is one correctly rounded IEEE operation (Clinger's
 * fast path: the digits, an integer of at most 2^53, times or divided by an exactly
 * representable power of ten up to 1e22). The float is that double rounded once more, which
 * is the correctly rounded float unless the double lies exactly halfway between two floats
 * (then the first rounding may have decided the tie). Those ties and every number outside the
 * fast path go to strtof/strtod on a bounded copy spelled with the locale's decimal point. */
#include "bvh_number.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SIGNIFICANT_DIGITS = 19 /* fit in a uint64_t */ };

typedef struct decimal {
    uint64_t digits; /* the first significant digits as an integer */
    int exponent;    /* the value is digits * 10^exponent, exactly when !inexact */
    int inexact;     /* nonzero digits after the first 19 significant ones were dropped */
    int negative;
} decimal;

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* s[0..n) is word (given in lower case), ignoring case. */
static int is_word(const char *s, size_t n, const char *word)
{
    size_t i = 0;
    for (; i < n && word[i]; i++) {
        char c = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
        if (c != word[i])
            return 0;
    }
    return i == n && word[i] == '\0';
}

static void add_digit(decimal *d, int digit, int *significant, int in_fraction)
{
    if (*significant < MAX_SIGNIFICANT_DIGITS) {
        if (d->digits != 0 || digit != 0) { /* leading zeros are not significant */
            d->digits = d->digits * 10 + (uint64_t)digit;
            (*significant)++;
        }
        if (in_fraction)
            d->exponent--;
    } else {
        if (!in_fraction)
            d->exponent++;
        if (digit != 0)
            d->inexact = 1;
    }
}

static tdn_io__number_status scan(const char *s, size_t n, decimal *d)
{
    size_t i = 0;
    int significant = 0, any_digit = 0;
    memset(d, 0, sizeof *d);
    if (n > TDN_IO__NUMBER_MAX_CHARS)
        return TDN_IO__NUMBER_MALFORMED;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        d->negative = s[i++] == '-';
    if (is_word(s + i, n - i, "nan") || is_word(s + i, n - i, "inf") || is_word(s + i, n - i, "infinity"))
        return TDN_IO__NUMBER_NOT_FINITE;
    for (; i < n && is_digit(s[i]); i++, any_digit = 1)
        add_digit(d, s[i] - '0', &significant, 0);
    if (i < n && s[i] == '.')
        for (i++; i < n && is_digit(s[i]); i++, any_digit = 1)
            add_digit(d, s[i] - '0', &significant, 1);
    if (!any_digit)
        return TDN_IO__NUMBER_MALFORMED;
    if (i < n && s[i] == '#') /* MSVC's printf spells them 1.#INF, -1.#IND, 1.#QNAN */
        return TDN_IO__NUMBER_NOT_FINITE;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        int negative_exponent = 0;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            negative_exponent = s[i++] == '-';
        if (i == n || !is_digit(s[i]))
            return TDN_IO__NUMBER_MALFORMED;
        int exponent = 0;
        for (; i < n && is_digit(s[i]); i++)
            if (exponent < 100000) /* far past any float; keeps the sum below overflow */
                exponent = exponent * 10 + (s[i] - '0');
        d->exponent += negative_exponent ? -exponent : exponent;
    }
    return i == n ? TDN_IO__NUMBER_OK : TDN_IO__NUMBER_MALFORMED;
}

/* The correctly rounded double of d when the fast path applies; 0 otherwise. */
static int fast_double(const decimal *d, double *out)
{
#if FLT_EVAL_METHOD == 0 /* one rounding per operation (not x87's extended registers) */
    static const double powers_of_ten[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                            1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
    if (d->inexact || d->digits > ((uint64_t)1 << 53) || d->exponent < -22 || d->exponent > 22)
        return 0;
    double v = (double)d->digits;
    v = d->exponent < 0 ? v / powers_of_ten[-d->exponent] : v * powers_of_ten[d->exponent];
    *out = d->negative ? -v : v;
    return 1;
#else
    (void)d, (void)out;
    return 0;
#endif
}

/* v (a normal float's magnitude or zero, as every fast-path value is) lies exactly halfway
 * between two floats: its 29 bits below float precision are 1000...0. */
static int halfway_between_floats(double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return (bits & (((uint64_t)1 << 29) - 1)) == ((uint64_t)1 << 28);
}

/* strtof/strtod on a NUL-terminated copy whose '.' is the current locale's decimal point. */
static tdn_io__number_status via_libc(const char *s, size_t n, float *as_float, double *as_double)
{
    char copy[TDN_IO__NUMBER_MAX_CHARS + 16];
    const char *point = localeconv()->decimal_point;
    size_t point_length = point ? strlen(point) : 0;
    if (point_length == 0 || point_length > 15)
        point = ".", point_length = 1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) { /* scan() allowed at most one '.' */
        if (s[i] == '.') {
            memcpy(copy + k, point, point_length);
            k += point_length;
        } else {
            copy[k++] = s[i];
        }
    }
    copy[k] = '\0';
    char *end;
    int finite;
    if (as_float) {
        *as_float = strtof(copy, &end);
        finite = isfinite(*as_float);
    } else {
        *as_double = strtod(copy, &end);
        finite = isfinite(*as_double);
    }
    if (end != copy + k)
        return TDN_IO__NUMBER_MALFORMED;
    return finite ? TDN_IO__NUMBER_OK : TDN_IO__NUMBER_NOT_FINITE;
}

tdn_io__number_status tdn_io__read_float(const char *s, size_t n, float *out)
{
    decimal d;
    tdn_io__number_status status = scan(s, n, &d);
    if (status != TDN_IO__NUMBER_OK)
        return status;
    double v;
    if (fast_double(&d, &v) && !halfway_between_floats(v)) {
        *out = (float)v; /* the fast path stays below 1e38: always finite */
        return TDN_IO__NUMBER_OK;
    }
    return via_libc(s, n, out, NULL);
}

tdn_io__number_status tdn_io__read_double(const char *s, size_t n, double *out)
{
    decimal d;
    tdn_io__number_status status = scan(s, n, &d);
    if (status != TDN_IO__NUMBER_OK)
        return status;
    if (fast_double(&d, out))
        return TDN_IO__NUMBER_OK;
    return via_libc(s, n, NULL, out);
}
