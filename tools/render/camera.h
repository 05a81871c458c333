/* tendon CLI: the pinhole camera of the preview renderer (tendon run --render).
 *
 * World space is tendon's: metres, +Y up. A camera looks from `eye` towards `target` with +Y
 * as up (a camera looking straight up or down takes +Z as up instead), a vertical field of
 * view `fov_y` (radians) and an image of width x height pixels. Its axes: forward (unit, eye
 * towards target), right = forward x up normalized, up = right x forward. The focal length in
 * pixels is f = (height / 2) / tan(fov_y / 2). A point p with d = p - eye projects to
 *     x = width / 2 + f (d . right) / (d . forward),   y = height / 2 - f (d . up) / (d . forward)
 * in pixel coordinates: pixel (i, j) (column i, row j from the top) covers [i, i+1) x [j, j+1)
 * and its centre is (i + 0.5, j + 0.5); the ray through a pixel centre leaves the eye along
 * the inverse of that. An orbit places the eye at `distance` from the target, `azimuth`
 * degrees about +Y from +Z towards +X and `elevation` degrees above the horizontal:
 *     eye = target + distance (cos el sin az, sin el, cos el cos az). */
#ifndef TENDON_CAMERA_H
#define TENDON_CAMERA_H

#include "tendon/tendon.h"

typedef struct camera {
    tdn_vec3 eye, forward, right, up;
    float focal; /* pixels */
    int width, height;
} camera;

void camera_look_at(camera *c, tdn_vec3 eye, tdn_vec3 target, float fov_y, int width, int height);
void camera_orbit(camera *c, tdn_vec3 target, float azimuth_deg, float elevation_deg, float distance, float fov_y,
                  int width, int height);
/* Projects p: 1 with its pixel coordinates and depth (d . forward, metres along the view
 * axis) when it is in front of the eye (depth > 1e-4), else 0. */
int camera_project(const camera *c, tdn_vec3 p, float *x, float *y, float *depth);
/* The ray from the eye through pixel coordinates (x, y), scaled so that ray . forward = 1: the
 * point of it at depth z (camera_project's) is eye + z ray. Inline: the renderer calls it for
 * every pixel it shades. */
static inline tdn_vec3 camera_ray(const camera *c, float x, float y)
{
    const float u = (x - 0.5f * (float)c->width) / c->focal, v = (0.5f * (float)c->height - y) / c->focal;
    return tdn_vec3_add(c->forward, tdn_vec3_add(tdn_vec3_scale(c->right, u), tdn_vec3_scale(c->up, v)));
}

#endif
