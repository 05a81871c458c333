/* tendon CLI: the ground of `tendon run --ground` (see ground.h). */
#include "ground.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/* A number at *p up to one of `stops` (or the end); advances *p past it. */
static int number(const char **p, const char *stops, double *out)
{
    char *end;
    double v = strtod(*p, &end);
    if (end == *p || !isfinite(v) || (*end && !strchr(stops, *end)))
        return 0;
    *out = v;
    *p = end;
    return 1;
}

/* The text of the bad part: from p to the next stop (for the message). */
static void part(const char *p, const char *stops, char *out, size_t size)
{
    size_t n = strcspn(p, stops);
    if (n >= size)
        n = size - 1;
    memcpy(out, p, n);
    out[n] = '\0';
}

int ground_parse(const char *spec, ground *g, char *why, size_t why_size)
{
    memset(g, 0, sizeof *g);
    snprintf(g->spec, sizeof g->spec, "%s", spec);
    const char *colon = strchr(spec, ':');
    size_t kind_len = colon ? (size_t)(colon - spec) : strlen(spec);
    const char *p = colon ? colon + 1 : spec + kind_len;
    char bad[64];
    const char *at = p; /* the part being read, for the message */
#define KIND(name) (kind_len == strlen(name) && strncmp(spec, name, kind_len) == 0)
    if (KIND("flat")) {
        g->kind = GROUND_FLAT;
        if (!colon)
            return 1;
        if (!number(&p, "", &g->height)) {
            part(at, "", bad, sizeof bad);
            snprintf(why, why_size, "flat wants flat or flat:HEIGHT (metres), not HEIGHT '%s'", bad);
            return 0;
        }
        return 1;
    }
    if (KIND("slope")) {
        g->kind = GROUND_SLOPE;
        if (!colon || !number(&p, ":", &g->degrees) || !(fabs(g->degrees) < 90.0)) {
            part(at, ":", bad, sizeof bad);
            snprintf(why, why_size,
                     "slope wants slope:DEGREES[:AZIMUTH_DEGREES] with -90 < DEGREES < 90, not DEGREES '%s'", bad);
            return 0;
        }
        if (*p == ':') {
            at = ++p;
            if (!number(&p, "", &g->azimuth)) {
                part(at, "", bad, sizeof bad);
                snprintf(why, why_size, "slope's AZIMUTH_DEGREES wants a number, not '%s'", bad);
                return 0;
            }
        }
        return 1;
    }
    if (KIND("step")) {
        g->kind = GROUND_STEP;
        if (!colon || !number(&p, "@", &g->height) || *p != '@') {
            part(at, "@", bad, sizeof bad);
            if (colon && !strchr(at, '@'))
                snprintf(why, why_size, "step wants step:HEIGHT@DISTANCE (metres): no @DISTANCE after '%s'", bad);
            else
                snprintf(why, why_size, "step wants step:HEIGHT@DISTANCE (metres), not HEIGHT '%s'", bad);
            return 0;
        }
        at = ++p;
        if (!number(&p, "", &g->distance)) {
            part(at, "", bad, sizeof bad);
            snprintf(why, why_size, "step wants step:HEIGHT@DISTANCE (metres), not DISTANCE '%s'", bad);
            return 0;
        }
        return 1;
    }
    if (KIND("bumps")) {
        g->kind = GROUND_BUMPS;
        if (!colon || !number(&p, ",", &g->amplitude) || g->amplitude < 0.0 || *p != ',') {
            part(at, ",", bad, sizeof bad);
            if (colon && !strchr(at, ','))
                snprintf(why, why_size, "bumps wants bumps:AMPLITUDE,WAVELENGTH (metres): no ,WAVELENGTH after '%s'",
                         bad);
            else
                snprintf(why, why_size,
                         "bumps wants bumps:AMPLITUDE,WAVELENGTH (metres, AMPLITUDE >= 0), not AMPLITUDE '%s'", bad);
            return 0;
        }
        at = ++p;
        if (!number(&p, "", &g->wavelength) || !(g->wavelength > 0.0)) {
            part(at, "", bad, sizeof bad);
            snprintf(why, why_size,
                     "bumps wants bumps:AMPLITUDE,WAVELENGTH with WAVELENGTH > 0 (metres), not WAVELENGTH '%s'", bad);
            return 0;
        }
        return 1;
    }
#undef KIND
    part(spec, ":", bad, sizeof bad);
    snprintf(why, why_size,
             "'%s' is not a ground (flat[:HEIGHT], slope:DEGREES[:AZIMUTH_DEGREES], step:HEIGHT@DISTANCE, "
             "bumps:AMPLITUDE,WAVELENGTH)",
             bad);
    return 0;
}

static tdn_vec3 unit(double x, double y, double z)
{
    double n = sqrt(x * x + y * y + z * z);
    return tdn_vec3_make((float)(x / n), (float)(y / n), (float)(z / n));
}

/* The slope's rise per metre along +X and +Z. */
static void slope_gradient(const ground *g, double *gx, double *gz)
{
    double s = tan(g->degrees * PI / 180.0), a = g->azimuth * PI / 180.0;
    *gx = s * sin(a);
    *gz = s * cos(a);
}

double ground_height(const ground *g, double x, double z, tdn_vec3 *normal)
{
    double h = 0.0, gx = 0.0, gz = 0.0;
    switch (g->kind) {
    case GROUND_FLAT:
        h = g->height;
        break;
    case GROUND_SLOPE:
        slope_gradient(g, &gx, &gz);
        h = gx * x + gz * z;
        break;
    case GROUND_STEP:
        h = z >= g->distance ? g->height : 0.0;
        break;
    case GROUND_BUMPS: {
        double k = 2.0 * PI / g->wavelength, a = g->amplitude;
        h = a * cos(k * x) * sin(k * z);
        gx = -a * k * sin(k * x) * sin(k * z);
        gz = a * k * cos(k * x) * cos(k * z);
        break;
    }
    }
    if (normal)
        *normal = unit(-gx, 1.0, -gz);
    return h;
}

/* A plane n . p = c (n unit, facing up): the ray's hit at t in [0, max] from above. */
static int plane_hit(double nx, double ny, double nz, double c, const double *o, const double *d, double max, double *t)
{
    double above = nx * o[0] + ny * o[1] + nz * o[2] - c, toward = nx * d[0] + ny * d[1] + nz * d[2];
    if (above < 0.0 || toward >= 0.0)
        return 0;
    *t = -above / toward;
    return *t <= max;
}

int ground_query(void *user, tdn_vec3 from, tdn_vec3 direction, float max_distance, tdn_vec3 *hit, tdn_vec3 *normal)
{
    const ground *g = user;
    const double o[3] = { from.x, from.y, from.z }, d[3] = { direction.x, direction.y, direction.z };
    const double max = max_distance;
    double t = -1.0;
    tdn_vec3 n = tdn_vec3_make(0.0f, 1.0f, 0.0f);
    switch (g->kind) {
    case GROUND_FLAT:
        if (!plane_hit(0.0, 1.0, 0.0, g->height, o, d, max, &t))
            return 0;
        break;
    case GROUND_SLOPE: {
        double gx, gz;
        slope_gradient(g, &gx, &gz);
        n = unit(-gx, 1.0, -gz);
        if (!plane_hit(n.x, n.y, n.z, 0.0, o, d, max, &t))
            return 0;
        break;
    }
    case GROUND_STEP: {
        const double hgt = g->height, at = g->distance;
        if (o[1] < (o[2] >= at ? hgt : 0.0))
            return 0; /* starts inside */
        double best = INFINITY, tt;
        /* the lower face (z < at) and the upper face (z >= at) */
        if (plane_hit(0.0, 1.0, 0.0, 0.0, o, d, max, &tt) && o[2] + tt * d[2] < at && tt < best)
            best = tt;
        if (plane_hit(0.0, 1.0, 0.0, hgt, o, d, max, &tt) && o[2] + tt * d[2] >= at && tt < best)
            best = tt;
        /* the vertical face, met from the low side: y below the high side's top */
        tdn_vec3 wall = tdn_vec3_make(0.0f, 0.0f, hgt > 0.0 ? -1.0f : 1.0f);
        if (hgt != 0.0 && (hgt > 0.0 ? d[2] > 0.0 : d[2] < 0.0)) {
            tt = (at - o[2]) / d[2];
            double y = o[1] + tt * d[1];
            if (tt >= 0.0 && tt <= max && y < (hgt > 0.0 ? hgt : 0.0) && y >= (hgt > 0.0 ? 0.0 : hgt) && tt < best) {
                best = tt;
                n = wall;
            }
        }
        if (!(best <= max))
            return 0;
        t = best;
        break;
    }
    case GROUND_BUMPS: {
        /* f(t) = y - height along the ray: march to the first sign change, then bisect */
#define F(s) (o[1] + (s)*d[1] - ground_height(g, o[0] + (s)*d[0], o[2] + (s)*d[2], NULL))
        double f0 = F(0.0);
        if (f0 < 0.0)
            return 0;
        if (f0 == 0.0) {
            t = 0.0;
            break;
        }
        double step = g->wavelength / 32.0;
        if (step > max / 8.0)
            step = max / 8.0;
        if (step < max / 4096.0)
            step = max / 4096.0;
        double lo = 0.0, hi = -1.0;
        for (double s = step;; s += step) {
            if (s > max)
                s = max;
            if (F(s) <= 0.0) {
                hi = s;
                break;
            }
            lo = s;
            if (s >= max)
                break;
        }
        if (hi < 0.0)
            return 0;
        while (hi - lo > 1e-7 * max) {
            double mid = 0.5 * (lo + hi);
            if (F(mid) > 0.0)
                lo = mid;
            else
                hi = mid;
        }
#undef F
        t = hi;
        break;
    }
    }
    *hit = tdn_vec3_make((float)(o[0] + t * d[0]), (float)(o[1] + t * d[1]), (float)(o[2] + t * d[2]));
    if (g->kind == GROUND_BUMPS)
        ground_height(g, o[0] + t * d[0], o[2] + t * d[2], &n);
    *normal = n;
    return 1;
}
