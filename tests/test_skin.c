/* Skinning: LBS against a plain per-influence reference, LBS = DQS on rigid vertices, the
 * closed-form twist where DQS keeps volume and LBS collapses, identities, unit normals and
 * argument errors that leave the output untouched. */
#include <string.h>

#include "check.h"

#define MAX_VERTS 257
#define MAX_JOINTS 40

typedef struct mesh {
    int count;
    float pos[3 * MAX_VERTS], nrm[3 * MAX_VERTS];
    uint16_t joints[4 * MAX_VERTS];
    float weights[4 * MAX_VERTS];
    /* One float past the end of each output, to catch a wide store on the last vertex. */
    float out_pos[3 * MAX_VERTS + 1], out_nrm[3 * MAX_VERTS + 1];
} mesh;

static mesh g_mesh;

static tdn_vec3 vec3_at(const float *a, int v) { return tdn_vec3_make(a[3 * v], a[3 * v + 1], a[3 * v + 2]); }

static tdn_skin_job job_for(mesh *m, const tdn_mat4 *palette, int palette_count)
{
    tdn_skin_job job = { 0 };
    job.vertex_count = m->count;
    job.positions = m->pos;
    job.normals = m->nrm;
    job.joints = m->joints;
    job.weights = m->weights;
    job.palette = palette;
    job.palette_count = palette_count;
    job.out_positions = m->out_pos;
    job.out_normals = m->out_nrm;
    return job;
}

/* Random vertices with 4 random influences; some weights are zero and none are normalized. */
static void random_mesh(check_rng *rng, mesh *m, int count, int joint_count)
{
    m->count = count;
    for (int v = 0; v < count; v++) {
        tdn_vec3 p = check_rng_vec3(rng, -1.0f, 1.0f);
        tdn_vec3 n = tdn_vec3_normalize(check_rng_vec3(rng, -1.0f, 1.0f));
        memcpy(&m->pos[3 * v], &p, sizeof p);
        memcpy(&m->nrm[3 * v], &n, sizeof n);
        for (int k = 0; k < 4; k++) {
            m->joints[4 * v + k] = (uint16_t)(check_rng_u32(rng) % (uint32_t)joint_count);
            m->weights[4 * v + k] = (k > 0 && check_rng_u32(rng) % 4 == 0) ? 0.0f : check_rng_float(rng, 0.05f, 2.0f);
        }
    }
    for (int i = 0; i < 3 * MAX_VERTS + 1; i++)
        m->out_pos[i] = m->out_nrm[i] = -12345.0f;
}

static tdn_mat4 random_matrix(check_rng *rng, int rigid)
{
    tdn_transform x;
    x.t = check_rng_vec3(rng, -2.0f, 2.0f);
    x.r = check_rng_quat(rng);
    float s = rigid ? 1.0f : check_rng_float(rng, 0.5f, 2.0f);
    x.s = tdn_vec3_make(s, s, s);
    return tdn_transform_to_mat4(&x);
}

static void test_lbs_matches_reference(void)
{
    check_rng rng = { 0x5eed1234u };
    static tdn_mat4 palette[MAX_JOINTS];
    const int counts[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 64, MAX_VERTS }; /* every tail length */
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        for (int j = 0; j < MAX_JOINTS; j++)
            palette[j] = random_matrix(&rng, 0);
        random_mesh(&rng, &g_mesh, counts[c], MAX_JOINTS);
        tdn_skin_job job = job_for(&g_mesh, palette, MAX_JOINTS);
        CHECK_EQ_INT(tdn_skin_lbs(&job, NULL), TDN_OK);
        double worst_p = 0.0, worst_n = 0.0;
        for (int v = 0; v < g_mesh.count; v++) {
            const float *w = &g_mesh.weights[4 * v];
            float ws = w[0] + w[1] + w[2] + w[3];
            tdn_vec3 p = { 0, 0, 0 }, n = { 0, 0, 0 };
            for (int k = 0; k < 4; k++) {
                const tdn_mat4 *m = &palette[g_mesh.joints[4 * v + k]];
                p = tdn_vec3_add(p, tdn_vec3_scale(tdn_mat4_transform_point(m, vec3_at(g_mesh.pos, v)), w[k] / ws));
                n = tdn_vec3_add(n, tdn_vec3_scale(tdn_mat4_transform_vector(m, vec3_at(g_mesh.nrm, v)), w[k]));
            }
            n = tdn_vec3_normalize(n);
            double dp = tdn_vec3_length(tdn_vec3_sub(p, vec3_at(g_mesh.out_pos, v)));
            double dn = tdn_vec3_length(tdn_vec3_sub(n, vec3_at(g_mesh.out_nrm, v)));
            worst_p = dp > worst_p ? dp : worst_p;
            worst_n = dn > worst_n ? dn : worst_n;
        }
        CHECK_NEAR(worst_p, 0.0, 2e-5);
        CHECK_NEAR(worst_n, 0.0, 2e-5);
        /* The last vertex writes 3 floats, not 4. */
        CHECK(g_mesh.out_pos[3 * g_mesh.count] == -12345.0f);
        CHECK(g_mesh.out_nrm[3 * g_mesh.count] == -12345.0f);
    }
}

/* Without normals only positions are written. */
static void test_lbs_positions_only(void)
{
    check_rng rng = { 77 };
    static tdn_mat4 palette[8];
    for (int j = 0; j < 8; j++)
        palette[j] = random_matrix(&rng, 0);
    random_mesh(&rng, &g_mesh, 33, 8);
    tdn_skin_job job = job_for(&g_mesh, palette, 8);
    CHECK_EQ_INT(tdn_skin_lbs(&job, NULL), TDN_OK);
    static float with_normals[3 * MAX_VERTS + 1];
    memcpy(with_normals, g_mesh.out_pos, sizeof with_normals);
    for (int i = 0; i < 3 * MAX_VERTS + 1; i++)
        g_mesh.out_pos[i] = g_mesh.out_nrm[i] = -12345.0f;
    job.normals = NULL;
    job.out_normals = NULL;
    CHECK_EQ_INT(tdn_skin_lbs(&job, NULL), TDN_OK);
    CHECK(memcmp(with_normals, g_mesh.out_pos, sizeof(float) * 3 * 33) == 0);
    CHECK(g_mesh.out_pos[3 * 33] == -12345.0f);
    CHECK(g_mesh.out_nrm[0] == -12345.0f);
}

/* A rigid vertex (every influence on one joint) moves with that joint under both methods, and
 * DQS agrees with the joint's own dual quaternion. Property over random rigid palettes. */
static void test_lbs_dqs_agree_on_rigid_vertices(void)
{
    check_rng rng = { 0xabcdefu };
    static tdn_mat4 palette[MAX_JOINTS];
    static float lbs_pos[3 * MAX_VERTS], lbs_nrm[3 * MAX_VERTS];
    for (int trial = 0; trial < 20; trial++) {
        for (int j = 0; j < MAX_JOINTS; j++)
            palette[j] = random_matrix(&rng, 1);
        random_mesh(&rng, &g_mesh, 50, MAX_JOINTS);
        for (int v = 0; v < g_mesh.count; v++) {
            uint16_t j = g_mesh.joints[4 * v];
            for (int k = 1; k < 4; k++) {
                if (v % 2) /* odd vertices: the same joint 4 times with split weights */
                    g_mesh.joints[4 * v + k] = j;
                else      /* even: one influence, the others weigh 0 */
                    g_mesh.weights[4 * v + k] = 0.0f;
            }
        }
        tdn_skin_job job = job_for(&g_mesh, palette, MAX_JOINTS);
        CHECK_EQ_INT(tdn_skin_lbs(&job, NULL), TDN_OK);
        memcpy(lbs_pos, g_mesh.out_pos, sizeof lbs_pos);
        memcpy(lbs_nrm, g_mesh.out_nrm, sizeof lbs_nrm);
        CHECK_EQ_INT(tdn_skin_dqs(&job, NULL), TDN_OK);
        double worst = 0.0, worst_single = 0.0;
        for (int v = 0; v < g_mesh.count; v++) {
            double dp = tdn_vec3_length(tdn_vec3_sub(vec3_at(lbs_pos, v), vec3_at(g_mesh.out_pos, v)));
            double dn = tdn_vec3_length(tdn_vec3_sub(vec3_at(lbs_nrm, v), vec3_at(g_mesh.out_nrm, v)));
            worst = dp > worst ? dp : worst;
            worst = dn > worst ? dn : worst;
            tdn_dual_quat dq = tdn_dual_quat_from_mat4(&palette[g_mesh.joints[4 * v]]);
            tdn_vec3 single = tdn_dual_quat_transform_point(&dq, vec3_at(g_mesh.pos, v));
            double ds = tdn_vec3_length(tdn_vec3_sub(single, vec3_at(g_mesh.out_pos, v)));
            worst_single = ds > worst_single ? ds : worst_single;
        }
        CHECK_NEAR(worst, 0.0, 2e-5);
        CHECK_NEAR(worst_single, 0.0, 2e-5);
    }
}

/* Two joints on the x axis, the second twisted 90 degrees about it; a vertex half on each at
 * distance r from the axis. LBS averages (x, r, 0) and (x, 0, r): distance r cos(45 deg). DQS
 * rotates by 45 degrees: distance r, at (x, r cos 45, r sin 45). */
static void test_twist_dqs_keeps_volume(void)
{
    const float r = 0.3f, x = 0.7f;
    tdn_mat4 palette[2] = { tdn_mat4_identity(), tdn_mat4_from_quat(tdn_quat_from_axis_angle(tdn_vec3_make(1, 0, 0), 0.5f * TDN_PI)) };
    float pos[3] = { x, r, 0.0f }, nrm[3] = { 0.0f, 1.0f, 0.0f };
    uint16_t joints[4] = { 0, 1, 0, 0 };
    float weights[4] = { 0.5f, 0.5f, 0.0f, 0.0f };
    float out_pos[3], out_nrm[3];
    tdn_skin_job job = { 1, pos, nrm, joints, weights, palette, 2, out_pos, out_nrm, NULL };
    const float c45 = cosf(0.25f * TDN_PI);

    CHECK_EQ_INT(tdn_skin_lbs(&job, NULL), TDN_OK);
    CHECK_NEAR(out_pos[0], x, 1e-6);
    CHECK_NEAR(hypotf(out_pos[1], out_pos[2]), r * c45, 1e-6);
    CHECK_NEAR(out_pos[1], 0.5f * r, 1e-6);
    CHECK_NEAR(tdn_vec3_length(vec3_at(out_nrm, 0)), 1.0, 1e-6); /* renormalized */

    CHECK_EQ_INT(tdn_skin_dqs(&job, NULL), TDN_OK);
    CHECK_NEAR(out_pos[0], x, 1e-6);
    CHECK_NEAR(hypotf(out_pos[1], out_pos[2]), r, 1e-6);
    CHECK_NEAR(out_pos[1], r * c45, 1e-6);
    CHECK_NEAR(out_pos[2], r * c45, 1e-6);
    CHECK_NEAR(out_nrm[1], c45, 1e-6);
    CHECK_NEAR(out_nrm[2], c45, 1e-6);

    /* The same with the palette converted once. */
    tdn_dual_quat dqs[2];
    tdn_dual_quat_palette(palette, 2, dqs);
    job.palette = NULL;
    job.dual_quats = dqs;
    out_pos[0] = out_pos[1] = out_pos[2] = 0.0f;
    CHECK_EQ_INT(tdn_skin_dqs(&job, NULL), TDN_OK);
    CHECK_NEAR(out_pos[1], r * c45, 1e-6);
    CHECK_NEAR(out_pos[2], r * c45, 1e-6);
}

static void test_identity_palette_leaves_mesh(void)
{
    check_rng rng = { 99 };
    static tdn_mat4 palette[MAX_JOINTS];
    for (int j = 0; j < MAX_JOINTS; j++)
        palette[j] = tdn_mat4_identity();
    random_mesh(&rng, &g_mesh, 100, MAX_JOINTS);
    tdn_skin_job job = job_for(&g_mesh, palette, MAX_JOINTS);
    for (int method = 0; method < 2; method++) {
        CHECK_EQ_INT(method ? tdn_skin_dqs(&job, NULL) : tdn_skin_lbs(&job, NULL), TDN_OK);
        double worst = 0.0;
        for (int i = 0; i < 3 * g_mesh.count; i++) {
            double d = fabs(g_mesh.out_pos[i] - g_mesh.pos[i]) + fabs(g_mesh.out_nrm[i] - g_mesh.nrm[i]);
            worst = d > worst ? d : worst;
        }
        CHECK_NEAR(worst, 0.0, 1e-6);
    }
}

/* Rotation with uniform scale: LBS renormalizes, DQS rotates; both give unit normals. */
static void test_normals_unit_length(void)
{
    check_rng rng = { 4242 };
    static tdn_mat4 palette[MAX_JOINTS];
    for (int j = 0; j < MAX_JOINTS; j++)
        palette[j] = random_matrix(&rng, 0);
    random_mesh(&rng, &g_mesh, MAX_VERTS, MAX_JOINTS);
    tdn_skin_job job = job_for(&g_mesh, palette, MAX_JOINTS);
    for (int method = 0; method < 2; method++) {
        CHECK_EQ_INT(method ? tdn_skin_dqs(&job, NULL) : tdn_skin_lbs(&job, NULL), TDN_OK);
        double worst = 0.0;
        for (int v = 0; v < g_mesh.count; v++) {
            double d = fabs(tdn_vec3_length(vec3_at(g_mesh.out_nrm, v)) - 1.0);
            worst = d > worst ? d : worst;
        }
        CHECK_NEAR(worst, 0.0, 1e-5);
    }
}

/* DQS drops scale: a scaled joint skins as its rotation and translation alone. */
static void test_dqs_drops_scale(void)
{
    tdn_transform x = { { 1.0f, 2.0f, 3.0f }, tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), 0.3f), { 2.0f, 0.5f, 3.0f } };
    tdn_mat4 scaled = tdn_transform_to_mat4(&x);
    x.s = tdn_vec3_make(1, 1, 1);
    tdn_mat4 rigid = tdn_transform_to_mat4(&x);
    tdn_vec3 p = tdn_vec3_make(0.4f, -0.2f, 0.9f);
    tdn_dual_quat dq = tdn_dual_quat_from_mat4(&scaled);
    tdn_vec3 a = tdn_dual_quat_transform_point(&dq, p), b = tdn_mat4_transform_point(&rigid, p);
    CHECK_NEAR(tdn_vec3_length(tdn_vec3_sub(a, b)), 0.0, 1e-6);
    CHECK_NEAR(tdn_quat_dot(dq.real, dq.real), 1.0, 1e-6);
}

/* A vertex whose weights sum to zero (or NaN) is copied unchanged by both methods. */
static void test_zero_weights_copy(void)
{
    tdn_mat4 palette[1] = { tdn_mat4_from_quat(tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), 1.0f)) };
    float pos[6] = { 1, 2, 3, 4, 5, 6 }, nrm[6] = { 0, 0, 1, 1, 0, 0 };
    uint16_t joints[8] = { 0 };
    float weights[8] = { 0, 0, 0, 0, NAN, 1, 0, 0 };
    float out_pos[6], out_nrm[6];
    tdn_skin_job job = { 2, pos, nrm, joints, weights, palette, 1, out_pos, out_nrm, NULL };
    for (int method = 0; method < 2; method++) {
        memset(out_pos, 0, sizeof out_pos);
        memset(out_nrm, 0, sizeof out_nrm);
        CHECK_EQ_INT(method ? tdn_skin_dqs(&job, NULL) : tdn_skin_lbs(&job, NULL), TDN_OK);
        CHECK(memcmp(out_pos, pos, sizeof pos) == 0);
        CHECK(memcmp(out_nrm, nrm, sizeof nrm) == 0);
    }
}

/* Bad arguments fail before anything is written. */
static void test_bad_arguments_leave_output(void)
{
    check_rng rng = { 7 };
    static tdn_mat4 palette[4];
    for (int j = 0; j < 4; j++)
        palette[j] = random_matrix(&rng, 0);
    random_mesh(&rng, &g_mesh, 20, 4);
    static float before_pos[3 * MAX_VERTS + 1], before_nrm[3 * MAX_VERTS + 1];
    memcpy(before_pos, g_mesh.out_pos, sizeof before_pos);
    memcpy(before_nrm, g_mesh.out_nrm, sizeof before_nrm);

    for (int method = 0; method < 2; method++) {
        tdn_result (*skin)(const tdn_skin_job *, tdn_error *) = method ? tdn_skin_dqs : tdn_skin_lbs;
        tdn_skin_job good = job_for(&g_mesh, palette, 4);
        tdn_skin_job job = good;
        g_mesh.joints[4 * 19 + 3] = 4; /* the very last index is out of range */
        CHECK_EQ_INT(skin(&job, NULL), TDN_ERR_ARGUMENT);
        g_mesh.joints[4 * 19 + 3] = 3;
        job.palette_count = 3;         /* now index 3 is out of range */
        CHECK_EQ_INT(skin(&job, NULL), TDN_ERR_ARGUMENT);
        job = good;
        job.palette_count = 0;
        CHECK_EQ_INT(skin(&job, NULL), TDN_ERR_ARGUMENT);
        job = good;
        job.positions = NULL;
        CHECK_EQ_INT(skin(&job, NULL), TDN_ERR_ARGUMENT);
        job = good;
        job.weights = NULL;
        CHECK_EQ_INT(skin(&job, NULL), TDN_ERR_ARGUMENT);
        job = good;
        job.joints = NULL;
        CHECK_EQ_INT(skin(&job, NULL), TDN_ERR_ARGUMENT);
        job = good;
        job.palette = NULL;
        CHECK_EQ_INT(skin(&job, NULL), TDN_ERR_ARGUMENT);
        job = good;
        job.out_normals = NULL;
        CHECK_EQ_INT(skin(&job, NULL), TDN_ERR_ARGUMENT);
        job = good;
        job.out_positions = NULL;
        CHECK_EQ_INT(skin(&job, NULL), TDN_ERR_ARGUMENT);
        job = good;
        job.vertex_count = -1;
        CHECK_EQ_INT(skin(&job, NULL), TDN_ERR_ARGUMENT);
        CHECK_EQ_INT(skin(NULL, NULL), TDN_ERR_ARGUMENT);
        CHECK(memcmp(before_pos, g_mesh.out_pos, sizeof before_pos) == 0);
        CHECK(memcmp(before_nrm, g_mesh.out_nrm, sizeof before_nrm) == 0);
        job = good;
        job.vertex_count = 0;
        CHECK_EQ_INT(skin(&job, NULL), TDN_OK);
    }
}

int main(void)
{
    RUN(test_lbs_matches_reference);
    RUN(test_lbs_positions_only);
    RUN(test_lbs_dqs_agree_on_rigid_vertices);
    RUN(test_twist_dqs_keeps_volume);
    RUN(test_identity_palette_leaves_mesh);
    RUN(test_normals_unit_length);
    RUN(test_dqs_drops_scale);
    RUN(test_zero_weights_copy);
    RUN(test_bad_arguments_leave_output);
    return check_summary();
}
