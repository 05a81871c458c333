/* tendon CLI: the source beside the target (see retarget_preview.h). */
#include "retarget_preview.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The largest extent of the side's reference pose (a T-pose: its arm span or its height), over
 * the hips and the joints below them, in model space. */
static float reference_size(const retarget_side *s, tdn_mat4 *model)
{
    const int n = tdn_skeleton_joint_count(s->skeleton), hips = tdn_body_map_joint(&s->map, TDN_BODY_PART_HIPS);
    tdn_model_space(s->skeleton, &s->reference, NULL, model, NULL);
    float lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
    for (int j = 0; j < n; j++) {
        int at = j;
        while (at >= 0 && at != hips)
            at = tdn_skeleton_parent(s->skeleton, at);
        for (int c = 0; at >= 0 && c < 3; c++) {
            lo[c] = fminf(lo[c], model[j].m[12 + c]);
            hi[c] = fmaxf(hi[c], model[j].m[12 + c]);
        }
    }
    return fmaxf(hi[0] - lo[0], fmaxf(hi[1] - lo[1], hi[2] - lo[2]));
}

/* What of the skeleton is the body, and its sides, torso and head from the body map rather than
 * the names (preview.h). Off the body are the joints that are neither the hips nor below them:
 * an armature's root, left where it was while the hips travel, IK targets and poles parented to
 * it (RobotExpressive's); they draw no bone. A rig whose names say no side (CesiumMan's
 * leg_joint_L_1) shows its left blue and its right orange as the source does: a joint takes the
 * side of the nearest joint at or above it in a left or right part; the spine's joints are the
 * torso, the head's joint gets the head. */
static void mark_body(preview_clip *c, unsigned char *off_body, const retarget_side *s)
{
    const int hips = tdn_body_map_joint(&s->map, TDN_BODY_PART_HIPS);
    for (int j = 0; j < c->joint_count; j++) {
        int at = j;
        while (at >= 0 && at != hips)
            at = c->parents[at];
        off_body[j] = at < 0;
        c->draw_bone[j] = (unsigned char)(c->draw_bone[j] && j != hips && !off_body[j]);
    }
    enum { UNMAPPED = 3 };
    signed char *part_side = malloc((size_t)c->joint_count);
    if (!part_side)
        return; /* the names' sides stay */
    memset(part_side, UNMAPPED, (size_t)c->joint_count);
    for (int part = 0; part < TDN_BODY_PART_COUNT; part++) {
        const char *name = tdn_body_part_name((tdn_body_part)part);
        const int side = strncmp(name, "left_", 5) == 0 ? 1 : strncmp(name, "right_", 6) == 0 ? -1 : 0;
        const tdn_body_map_part *joints = &s->map.parts[part];
        for (int i = 0; i < joints->joint_count; i++) {
            part_side[joints->joints[i]] = (signed char)(side ? side : part == TDN_BODY_PART_SPINE ? 2 : 0);
            c->head[joints->joints[i]] = part == TDN_BODY_PART_HEAD;
        }
    }
    for (int j = 0; j < c->joint_count; j++) {
        int at = j;
        while (at >= 0 && part_side[at] == UNMAPPED)
            at = c->parents[at];
        c->side[j] = at >= 0 ? part_side[at] : 0;
    }
    free(part_side);
}

/* 1 when the side's skinned meshes cover its body: some vertex weighs on the hips or the spine,
 * and some on each leg (thigh, shin or foot). RobotExpressive skins its hands alone (its body is
 * rigid meshes on nodes, which tendon does not import): drawn as capsules instead. */
static int mesh_covers_body(const retarget_side *s)
{
    static const tdn_body_part regions[3][3] = {
        { TDN_BODY_PART_HIPS, TDN_BODY_PART_SPINE, TDN_BODY_PART_SPINE },
        { TDN_BODY_PART_LEFT_THIGH, TDN_BODY_PART_LEFT_SHIN, TDN_BODY_PART_LEFT_FOOT },
        { TDN_BODY_PART_RIGHT_THIGH, TDN_BODY_PART_RIGHT_SHIN, TDN_BODY_PART_RIGHT_FOOT },
    };
    int covered[3] = { 0, 0, 0 };
    for (int m = 0; m < tdn_asset_mesh_count(s->asset); m++) {
        const tdn_asset_mesh mesh = tdn_asset_mesh_at(s->asset, m);
        const size_t influences = (size_t)mesh.vertex_count * 4 * (size_t)mesh.influence_sets;
        for (size_t i = 0; mesh.index_count > 0 && i < influences; i++)
            for (int r = 0; mesh.weights[i] > 0.0f && r < 3; r++)
                for (int k = 0; k < 3; k++) {
                    const tdn_body_map_part *part = &s->map.parts[regions[r][k]];
                    for (int p = 0; p < part->joint_count; p++)
                        covered[r] |= part->joints[p] == mesh.joints[i];
                }
    }
    return covered[0] && covered[1] && covered[2];
}

static int init_clip(preview_clip *c, int **parents, unsigned char **off_body, const retarget_side *s, int frame_count)
{
    const int n = tdn_skeleton_joint_count(s->skeleton);
    *parents = malloc(sizeof(int) * (size_t)n);
    *off_body = malloc((size_t)n);
    const char **names = malloc(sizeof(char *) * (size_t)n);
    int ok = *parents && *off_body && names;
    for (int j = 0; ok && j < n; j++) {
        (*parents)[j] = tdn_skeleton_parent(s->skeleton, j);
        names[j] = tdn_skeleton_joint_name(s->skeleton, j);
    }
    ok = ok && preview_clip_init(c, frame_count, n, *parents, names, 0, 0);
    free(names);
    if (ok)
        mark_body(c, *off_body, s);
    ok = ok && (!mesh_covers_body(s) || preview_clip_add_mesh(c, s->asset));
    c->label = cli_base_name(s->path);
    return ok;
}

int retarget_preview_init(retarget_preview *v, const retarget_pair *p, int frame_count)
{
    *v = (retarget_preview){ 0 };
    const int ns = tdn_skeleton_joint_count(p->source.skeleton), nt = tdn_skeleton_joint_count(p->target.skeleton);
    v->world_model = malloc(sizeof(tdn_mat4) * (size_t)(ns > nt ? ns : nt));
    if (!v->world_model || !init_clip(&v->clips[0], &v->parents[0], &v->off_body[0], &p->source, frame_count) ||
        !init_clip(&v->clips[1], &v->parents[1], &v->off_body[1], &p->target, frame_count))
        return 0;
    /* two T-poses 10% of their mean size apart */
    const float source = tdn_retarget_scale(p->retarget) * reference_size(&p->source, v->world_model);
    v->spacing = 0.55f * (source + reference_size(&p->target, v->world_model));
    return 1;
}

void retarget_preview_free(retarget_preview *v)
{
    for (int k = 0; k < 2; k++) {
        preview_clip_free(&v->clips[k]);
        free(v->parents[k]);
        free(v->off_body[k]);
    }
    free(v->world_model);
    *v = (retarget_preview){ 0 };
}

/* Model space scaled by `scale`, its hips' horizontal position at the first frame moved to
 * `at`. */
static tdn_mat4 placement(float scale, const tdn_mat4 *model, int hips, tdn_vec3 at)
{
    const float *h = model[hips].m;
    const tdn_transform x = { { at.x - scale * h[12], 0.0f, at.z - scale * h[14] },
                              tdn_quat_identity(),
                              { scale, scale, scale } };
    return tdn_transform_to_mat4(&x);
}

void retarget_preview_frame(retarget_preview *v, const retarget_pair *p, int f, const tdn_mat4 *source_model,
                            const tdn_mat4 *target_model, float azimuth)
{
    const tdn_mat4 *models[2] = { source_model, target_model };
    const retarget_side *sides[2] = { &p->source, &p->target };
    if (f == 0) {
        /* the camera's right axis (camera.h: an orbit at this azimuth), the source to its left */
        const float a = azimuth * 3.14159265358979f / 180.0f;
        const tdn_vec3 right = tdn_vec3_make(cosf(a), 0.0f, -sinf(a));
        for (int k = 0; k < 2; k++)
            v->place[k] = placement(k ? 1.0f : tdn_retarget_scale(p->retarget), models[k],
                                    tdn_body_map_joint(&sides[k]->map, TDN_BODY_PART_HIPS),
                                    tdn_vec3_scale(right, (k ? 0.5f : -0.5f) * v->spacing));
    }
    for (int k = 0; k < 2; k++) {
        preview_clip *c = &v->clips[k];
        for (int j = 0; j < c->joint_count; j++)
            v->world_model[j] = tdn_mat4_mul(&v->place[k], &models[k][j]);
        preview_clip_set_pose(c, f, sides[k]->skeleton, v->world_model);
        /* the joints off the body (mark_body): drawn at the hips, they neither stretch the
         * picture nor draw a bone */
        tdn_vec3 *joints = c->joints + (size_t)f * (size_t)c->joint_count;
        const int hips = tdn_body_map_joint(&sides[k]->map, TDN_BODY_PART_HIPS);
        for (int j = 0; j < c->joint_count; j++)
            if (v->off_body[k][j])
                joints[j] = joints[hips];
    }
}
