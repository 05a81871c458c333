/* tendon CLI: the preview renderer's triangle meshes (see render.h). */
#include "render_internal.h"

typedef struct mesh_shading {
    render_canvas *r;
    tdn_vec3 light;
    unsigned short id; /* the triangle being drawn */
} mesh_shading;

/* attributes: the normal (3), then the albedo (3) */
static void mesh_fragment(void *user, int x, int y, float depth, const float *attributes)
{
    (void)depth;
    const mesh_shading *s = user;
    render_canvas *r = s->r;
    const camera *cam = &r->cam;
    tdn_vec3 n = tdn_vec3_make(attributes[0], attributes[1], attributes[2]);
    const float length = tdn_vec3_length(n);
    n = length > 1e-12f ? tdn_vec3_scale(n, 1.0f / length) : tdn_vec3_scale(cam->forward, -1.0f);
    /* seen from behind: lit as the face turned towards the eye */
    const tdn_vec3 ray = camera_ray(cam, (float)x + 0.5f, (float)y + 0.5f);
    if (tdn_vec3_dot(n, ray) > 0.0f)
        n = tdn_vec3_scale(n, -1.0f);
    const float lambert = render_lambert(n, s->light);
    const size_t k = (size_t)y * (size_t)r->image.width + (size_t)x;
    r->id[k] = s->id;
    render_put(r, k, attributes[3] * lambert, attributes[4] * lambert, attributes[5] * lambert);
}

void render_triangles(render_canvas *r, const render_mesh *m)
{
    mesh_shading s = { r, render_light(&r->cam), 0 };
    const raster_target target = { &r->cam, r->depth, 6, mesh_fragment, &s };
    for (int t = 0; t < m->triangle_count; t++) {
        raster_vertex v[3];
        for (int c = 0; c < 3; c++) {
            const size_t i = m->indices[3 * (size_t)t + (size_t)c];
            const float *p = m->positions + 3 * i, *n = m->normals + 3 * i, *a = m->albedos + 3 * i;
            v[c].position = tdn_vec3_make(p[0], p[1], p[2]);
            v[c].attributes[0] = n[0], v[c].attributes[1] = n[1], v[c].attributes[2] = n[2];
            v[c].attributes[3] = a[0], v[c].attributes[4] = a[1], v[c].attributes[5] = a[2];
        }
        s.id = m->ids[t];
        raster_triangle(&target, &v[0], &v[1], &v[2]);
    }
}
