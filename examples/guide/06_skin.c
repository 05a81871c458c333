/* Guide step 6 (docs/guide.md): from a pose to a skinned mesh. Model space, the matrix
 * palette (model * inverse bind: what a skinning shader takes) and CPU linear blend skinning
 * of the humanoid's own mesh (3334 vertices, at most two influences each).
 *
 * Two checks worked out another way: skinned in the rest pose the mesh is its bind pose
 * again; and 0.3 s into the walk, every vertex bound to one joint alone sits where that
 * joint's motion carries it: model[j] * rest_model[j]^-1 * bind position. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <tendon/io/humanoid.h>
#include <tendon/tendon.h>

static float largest_difference(const float *a, const float *b, int n)
{
    float worst = 0;
    for (int i = 0; i < n; i++)
        worst = fmaxf(worst, fabsf(a[i] - b[i]));
    return worst;
}

int main(void)
{
    tdn_asset *humanoid = NULL;
    if (tdn_humanoid_create(NULL, &humanoid, NULL, NULL) != TDN_OK)
        return 1;
    const tdn_skeleton *skel = tdn_asset_skeleton(humanoid);
    int joints = tdn_skeleton_joint_count(skel);
    tdn_asset_mesh body = tdn_asset_mesh_at(humanoid, 0);
    tdn_clip *walk = NULL;
    if (tdn_clip_create(
            &(tdn_clip_desc){ .source = tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, "walk_forward")) },
            &walk, NULL, NULL) != TDN_OK)
        return 1;
    tdn_pose pose;
    tdn_mat4 rest_model[128], model[128], palette[128];
    tdn_pose_create(joints, &pose, NULL, NULL);
    float *skinned = malloc(sizeof(float) * 3 * (size_t)body.vertex_count);
    float *skinned_normals = malloc(sizeof(float) * 3 * (size_t)body.vertex_count);
    if (!skinned || !skinned_normals)
        return 1;
    tdn_skin_job job = { .vertex_count = body.vertex_count,
                         .influences = 4 * body.influence_sets,
                         .positions = body.positions,
                         .normals = body.normals,
                         .joints = body.joints,
                         .weights = body.weights,
                         .palette = palette,
                         .palette_count = joints,
                         .out_positions = skinned,
                         .out_normals = skinned_normals };
    printf("mesh %s: %d vertices, %d triangles\n", body.name, body.vertex_count, body.index_count / 3);

    /* The rest pose: the palette is the identity up to rounding, the mesh its bind pose. */
    tdn_pose_set_rest(&pose, skel, NULL);
    tdn_model_space(skel, &pose, NULL, rest_model, NULL);
    tdn_palette(skel, rest_model, palette, NULL);
    tdn_skin_lbs(&job, NULL);
    printf("rest pose: skinned mesh differs from the bind pose by %.6f m at most\n",
           (double)largest_difference(skinned, body.positions, 3 * body.vertex_count));

    /* 0.3 s into the walk. */
    tdn_clip_sample(walk, 0.3f, &pose, NULL);
    tdn_model_space(skel, &pose, NULL, model, NULL); /* one pass, parents first */
    tdn_palette(skel, model, palette, NULL);         /* model[j] * inverse_bind[j] */
    tdn_skin_lbs(&job, NULL);
    float worst = 0;
    int rigid = 0;
    for (int v = 0; v < body.vertex_count; v++) {
        const float *w = &body.weights[4 * v];
        if (w[0] != 1.0f)
            continue; /* blended vertices: not this check */
        int j = body.joints[4 * v];
        tdn_mat4 rest_inverse, carry;
        tdn_mat4_invert(&rest_model[j], &rest_inverse);
        carry = tdn_mat4_mul(&model[j], &rest_inverse);
        tdn_vec3 bind = tdn_vec3_make(body.positions[3 * v], body.positions[3 * v + 1], body.positions[3 * v + 2]);
        tdn_vec3 expected = tdn_mat4_transform_point(&carry, bind);
        worst = fmaxf(worst, largest_difference(&skinned[3 * v], &expected.x, 3));
        rigid++;
    }
    printf("walking: %d vertices on one joint each are where their joint carries them, within %.6f m\n", rigid,
           (double)worst);

    free(skinned);
    free(skinned_normals);
    tdn_pose_destroy(&pose);
    tdn_clip_destroy(walk);
    tdn_asset_destroy(humanoid);
    return 0;
}
