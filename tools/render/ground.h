/* tendon CLI: the ground of `tendon run --ground SPEC`, which the graph's foot placement jobs
 * query (a tdn_ground_query) and the foot-skate metric measures heights against.
 *
 * World space, metres, +Y up (the humanoid's conventions). SPEC forms:
 *   flat[:HEIGHT]                  the plane y = HEIGHT (default 0)
 *   slope:DEGREES[:AZIMUTH]        a plane through the origin rising DEGREES (-90 < DEGREES < 90)
 *                                  along the horizontal direction AZIMUTH degrees from +Z towards
 *                                  +X (default 0: rising along +Z): y = tan(DEGREES) (x sin AZ +
 *                                  z cos AZ)
 *   step:HEIGHT@DISTANCE           y = 0 for z < DISTANCE, y = HEIGHT from z = DISTANCE on (a
 *                                  step up, or down for a negative HEIGHT), with its vertical face
 *   bumps:AMPLITUDE,WAVELENGTH     y = AMPLITUDE cos(2 pi x / WAVELENGTH) sin(2 pi z / WAVELENGTH):
 *                                  an egg-crate of sine bumps, 0 at the origin, whose full
 *                                  amplitude lies along x = 0 (where a character starting at the
 *                                  origin and walking along +Z puts its feet)
 * Normals are analytic (the planes', the step's faces', the height field's gradient). A ray
 * meets the planes and the step in closed form; the bumps by marching along the ray (steps of
 * at most WAVELENGTH / 32, at most 4096 of them) to the first sign change of y - height, then
 * bisecting to 1e-7 of the ray's length. A ray that starts below the ground finds none. */
#ifndef TENDON_GROUND_H
#define TENDON_GROUND_H

#include <stddef.h>

#include "tendon/tendon.h"

typedef enum { GROUND_FLAT, GROUND_SLOPE, GROUND_STEP, GROUND_BUMPS } ground_kind;

typedef struct ground {
    ground_kind kind;
    double height;                /* FLAT: y; STEP: the step's height */
    double degrees, azimuth;      /* SLOPE */
    double distance;              /* STEP: z of the step's face */
    double amplitude, wavelength; /* BUMPS */
    char spec[64];                /* the SPEC as given (cut to fit) */
} ground;

/* Parses SPEC; 1 on success, else 0 with the reason in `why` (naming the bad part). */
int ground_parse(const char *spec, ground *out, char *why, size_t why_size);
/* The tdn_ground_query of `user` (a const ground *). */
int ground_query(void *user, tdn_vec3 from, tdn_vec3 direction, float max_distance, tdn_vec3 *hit, tdn_vec3 *normal);
/* The ground's height at (x, z) and, when normal is not NULL, its unit normal there (the step's
 * top or bottom face's, +Y, at its edge). */
double ground_height(const ground *g, double x, double z, tdn_vec3 *normal);

#endif
