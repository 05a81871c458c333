/* tendon CLI: the preview renderer's pinhole camera (see camera.h). */
#include "camera.h"

#include <math.h>

void camera_look_at(camera *c, tdn_vec3 eye, tdn_vec3 target, float fov_y, int width, int height)
{
    c->eye = eye;
    c->width = width;
    c->height = height;
    c->forward = tdn_vec3_normalize(tdn_vec3_sub(target, eye));
    tdn_vec3 up = tdn_vec3_make(0.0f, 1.0f, 0.0f);
    if (fabsf(c->forward.y) > 0.9999f)
        up = tdn_vec3_make(0.0f, 0.0f, 1.0f);
    c->right = tdn_vec3_normalize(tdn_vec3_cross(c->forward, up));
    c->up = tdn_vec3_cross(c->right, c->forward);
    c->focal = 0.5f * (float)height / tanf(0.5f * fov_y);
}

void camera_orbit(camera *c, tdn_vec3 target, float azimuth_deg, float elevation_deg, float distance, float fov_y,
                  int width, int height)
{
    const float rad = 3.14159265358979f / 180.0f;
    const float az = azimuth_deg * rad, el = elevation_deg * rad;
    tdn_vec3 offset = tdn_vec3_make(cosf(el) * sinf(az), sinf(el), cosf(el) * cosf(az));
    camera_look_at(c, tdn_vec3_add(target, tdn_vec3_scale(offset, distance)), target, fov_y, width, height);
}

int camera_project(const camera *c, tdn_vec3 p, float *x, float *y, float *depth)
{
    tdn_vec3 d = tdn_vec3_sub(p, c->eye);
    float z = tdn_vec3_dot(d, c->forward);
    if (!(z > 1e-4f))
        return 0;
    *x = 0.5f * (float)c->width + c->focal * tdn_vec3_dot(d, c->right) / z;
    *y = 0.5f * (float)c->height - c->focal * tdn_vec3_dot(d, c->up) / z;
    *depth = z;
    return 1;
}
