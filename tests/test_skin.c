/* Skinning: LBS and DQS with 1 to 8 influences per vertex against per-influence sums in
 * double, LBS's options (weights normalized up front, raw normals) against the same sums and
 * the general path, weight normalization, LBS = DQS on rigid vertices, the closed-form twist where DQS keeps volume and
 * LBS collapses, a second influence set that moves a vertex by the worked-out amount, zero-weight influences that
 * change no bit, identities, unit normals, argument errors that leave the output untouched, and a glTF file with
 * JOINTS_1/WEIGHTS_1 skinned straight from the asset's arrays against the motion worked out from the file's numbers. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "eight_influences_fixture.h"
#include "tendon/io/asset.h"

#define MAX_VERTS 257
#define MAX_JOINTS 40
#define MAX_INFLUENCES TDN_SKIN_MAX_INFLUENCES

typedef struct mesh {
    int count, influences;
    float pos[3 * MAX_VERTS], nrm[3 * MAX_VERTS];
    uint16_t joints[MAX_INFLUENCES * MAX_VERTS];
    float weights[MAX_INFLUENCES * MAX_VERTS];
    /* One float past the end of each output, to catch a wide store on the last vertex. */
    float out_pos[3 * MAX_VERTS + 1], out_nrm[3 * MAX_VERTS + 1];
} mesh;

static mesh g_mesh;

static tdn_vec3 vec3_at(const float *a, int v) { return tdn_vec3_make(a[3 * v], a[3 * v + 1], a[3 * v + 2]); }

static tdn_skin_job job_for(mesh *m, const tdn_mat4 *palette, int palette_count)
{
    tdn_skin_job job = { 0 };
    job.vertex_count = m->count;
    job.influences = m->influences;
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

/* Random vertices with `influences` random influences; some weights are zero and none are
 * normalized. */
static void random_mesh(check_rng *rng, mesh *m, int count, int influences, int joint_count)
{
    m->count = count;
    m->influences = influences;
    for (int v = 0; v < count; v++) {
        tdn_vec3 p = check_rng_vec3(rng, -1.0f, 1.0f);
        tdn_vec3 n = tdn_vec3_normalize(check_rng_vec3(rng, -1.0f, 1.0f));
        memcpy(&m->pos[3 * v], &p, sizeof p);
        memcpy(&m->nrm[3 * v], &n, sizeof n);
        for (int k = 0; k < influences; k++) {
            m->joints[influences * v + k] = (uint16_t)(check_rng_u32(rng) % (uint32_t)joint_count);
            m->weights[influences * v + k] = (k > 0 && check_rng_u32(rng) % 4 == 0) ? 0.0f
                                                                                    : check_rng_float(rng, 0.05f, 2.0f);
        }
    }
    for (int i = 0; i < 3 * MAX_VERTS + 1; i++)
        m->out_pos[i] = m->out_nrm[i] = -12345.0f;
}

/* A random matrix, and the transform it was made from (when `from` is not NULL). */
static tdn_mat4 random_matrix_from(check_rng *rng, int rigid, tdn_transform *from)
{
    tdn_transform x;
    x.t = check_rng_vec3(rng, -2.0f, 2.0f);
    x.r = check_rng_quat(rng);
    float s = rigid ? 1.0f : check_rng_float(rng, 0.5f, 2.0f);
    x.s = tdn_vec3_make(s, s, s);
    if (from)
        *from = x;
    return tdn_transform_to_mat4(&x);
}

static tdn_mat4 random_matrix(check_rng *rng, int rigid) { return random_matrix_from(rng, rigid, NULL); }

static double length3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* The largest distance between out (floats) and ref (doubles), over count 3-vectors. */
static double worst_distance(const float *out, const double *ref, int count)
{
    double worst = 0.0;
    for (int v = 0; v < count; v++) {
        const double d[3] = { out[3 * v] - ref[3 * v], out[3 * v + 1] - ref[3 * v + 1],
                              out[3 * v + 2] - ref[3 * v + 2] };
        const double l = length3(d);
        worst = l > worst || l != l ? l : worst; /* a NaN stays */
    }
    return worst;
}

/* LBS in double, influence by influence: sum_k w_k M_k p / sum_k w_k, normals sum_k w_k A_k n
 * normalized (raw: divided by sum_k w_k instead). */
static void lbs_reference_normals(const mesh *m, const tdn_mat4 *palette, int raw, double *pos, double *nrm)
{
    for (int v = 0; v < m->count; v++) {
        const int n = m->influences;
        double sum = 0.0, p[3] = { 0, 0, 0 }, r[3] = { 0, 0, 0 };
        for (int k = 0; k < n; k++) {
            const float *a = palette[m->joints[n * v + k]].m;
            const double w = m->weights[n * v + k];
            for (int row = 0; row < 3; row++) {
                double mp = a[12 + row], mn = 0.0;
                for (int col = 0; col < 3; col++) {
                    mp += (double)a[4 * col + row] * m->pos[3 * v + col];
                    mn += (double)a[4 * col + row] * m->nrm[3 * v + col];
                }
                p[row] += w * mp;
                r[row] += w * mn;
            }
            sum += w;
        }
        for (int row = 0; row < 3; row++) {
            pos[3 * v + row] = p[row] / sum;
            nrm[3 * v + row] = raw ? r[row] / sum : r[row] / length3(r);
        }
    }
}

static void lbs_reference(const mesh *m, const tdn_mat4 *palette, double *pos, double *nrm)
{
    lbs_reference_normals(m, palette, 0, pos, nrm);
}

/* The 8 doubles (real x y z w, dual x y z w) of the unit dual quaternion of a rigid transform:
 * real = r, dual = 0.5 (t, 0) r. */
static void dual_quat_of(const tdn_transform *x, double q[8])
{
    const double r[4] = { x->r.x, x->r.y, x->r.z, x->r.w }, t[3] = { 0.5 * x->t.x, 0.5 * x->t.y, 0.5 * x->t.z };
    q[0] = r[0], q[1] = r[1], q[2] = r[2], q[3] = r[3];
    q[4] = t[0] * r[3] + t[1] * r[2] - t[2] * r[1];
    q[5] = -t[0] * r[2] + t[1] * r[3] + t[2] * r[0];
    q[6] = t[0] * r[1] - t[1] * r[0] + t[2] * r[3];
    q[7] = -t[0] * r[0] - t[1] * r[1] - t[2] * r[2];
}

/* v rotated by the unit quaternion q (x y z w): v + 2 w (u x v) + 2 u x (u x v). */
static void rotate(const double q[4], const double v[3], double out[3])
{
    const double c[3] = { q[1] * v[2] - q[2] * v[1], q[2] * v[0] - q[0] * v[2], q[0] * v[1] - q[1] * v[0] };
    const double cc[3] = { q[1] * c[2] - q[2] * c[1], q[2] * c[0] - q[0] * c[2], q[0] * c[1] - q[1] * c[0] };
    for (int i = 0; i < 3; i++)
        out[i] = v[i] + 2.0 * q[3] * c[i] + 2.0 * cc[i];
}

/* DQS in double from the joints' transforms: the weighted sum of their dual quaternions, each
 * on the first influence's side, divided by the length of its real part; points rotated then
 * moved by 2 dual conj(real), normals rotated. */
static void dqs_reference(const mesh *m, const tdn_transform *joints, double *pos, double *nrm)
{
    for (int v = 0; v < m->count; v++) {
        const int n = m->influences;
        double b[8] = { 0 }, first[8];
        dual_quat_of(&joints[m->joints[n * v]], first);
        for (int k = 0; k < n; k++) {
            double q[8];
            dual_quat_of(&joints[m->joints[n * v + k]], q);
            const double dot = q[0] * first[0] + q[1] * first[1] + q[2] * first[2] + q[3] * first[3];
            const double side = dot < 0.0 ? -1.0 : 1.0;
            for (int i = 0; i < 8; i++)
                b[i] += side * m->weights[n * v + k] * q[i];
        }
        const double length = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3]);
        for (int i = 0; i < 8; i++)
            b[i] /= length;
        /* translation = 2 dual conj(real), vector part */
        const double *r = b, *d = b + 4;
        const double t[3] = { 2.0 * (-d[3] * r[0] + d[0] * r[3] - d[1] * r[2] + d[2] * r[1]),
                              2.0 * (-d[3] * r[1] + d[1] * r[3] - d[2] * r[0] + d[0] * r[2]),
                              2.0 * (-d[3] * r[2] + d[2] * r[3] - d[0] * r[1] + d[1] * r[0]) };
        const double p[3] = { m->pos[3 * v], m->pos[3 * v + 1], m->pos[3 * v + 2] };
        const double nv[3] = { m->nrm[3 * v], m->nrm[3 * v + 1], m->nrm[3 * v + 2] };
        rotate(r, p, pos + 3 * v);
        rotate(r, nv, nrm + 3 * v);
        for (int i = 0; i < 3; i++)
            pos[3 * v + i] += t[i];
    }
}

static void test_lbs_matches_reference(void)
{
    check_rng rng = { 0x5eed1234u };
    static tdn_mat4 palette[MAX_JOINTS];
    static double ref_pos[3 * MAX_VERTS], ref_nrm[3 * MAX_VERTS];
    const int counts[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 64, 65, MAX_VERTS }; /* every tail length */
    for (int influences = 1; influences <= MAX_INFLUENCES; influences++) {
        double worst_p = 0.0, worst_n = 0.0;
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            for (int j = 0; j < MAX_JOINTS; j++)
                palette[j] = random_matrix(&rng, 0);
            random_mesh(&rng, &g_mesh, counts[c], influences, MAX_JOINTS);
            tdn_skin_job job = job_for(&g_mesh, palette, MAX_JOINTS);
            CHECK_EQ_INT(tdn_skin_lbs(&job, NULL), TDN_OK);
            lbs_reference(&g_mesh, palette, ref_pos, ref_nrm);
            worst_p = fmax(worst_p, worst_distance(g_mesh.out_pos, ref_pos, g_mesh.count));
            worst_n = fmax(worst_n, worst_distance(g_mesh.out_nrm, ref_nrm, g_mesh.count));
            /* The last vertex writes 3 floats, not 4. */
            CHECK(g_mesh.out_pos[3 * g_mesh.count] == -12345.0f);
            CHECK(g_mesh.out_nrm[3 * g_mesh.count] == -12345.0f);
        }
        if (!CHECK_NEAR(worst_p, 0.0, 2e-5) || !CHECK_NEAR(worst_n, 0.0, 2e-5))
            fprintf(stderr, "  with %d influences\n", influences);
    }
}

/* The job's two options on normalized weights (tdn_skin_normalize_weights), with normals and
 * without, for 1 to 8 influences and every tail length: each of the 4 combinations against the
 * double reference (normals renormalized or raw), positions within 1e-6 of the general path's,
 * and the same bits whether or not the palette is small enough for the SSE2 build's per-job
 * copy of it (palette_count 40 or 300, the same first 40 matrices). */
static void test_lbs_options_on_normalized_weights(void)
{
    check_rng rng = { 0x0eb5u };
    static tdn_mat4 palette[300];
    static double ref_pos[3 * MAX_VERTS], ref_nrm[3 * MAX_VERTS];
    static float general_pos[3 * MAX_VERTS + 1], general_nrm[3 * MAX_VERTS + 1];
    static float small_pos[3 * MAX_VERTS + 1], small_nrm[3 * MAX_VERTS + 1];
    const int counts[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 64, 65, 81, MAX_VERTS };
    for (int j = 0; j < 300; j++)
        palette[j] = random_matrix(&rng, 0);
    for (int influences = 1; influences <= MAX_INFLUENCES; influences++) {
        double worst_p = 0.0, worst_n = 0.0, worst_general = 0.0;
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            random_mesh(&rng, &g_mesh, counts[c], influences, MAX_JOINTS);
            CHECK_EQ_INT(tdn_skin_normalize_weights(g_mesh.weights, g_mesh.count, influences, NULL), TDN_OK);
            tdn_skin_job job = job_for(&g_mesh, palette, MAX_JOINTS);
            CHECK_EQ_INT(tdn_skin_lbs(&job, NULL), TDN_OK);
            memcpy(general_pos, g_mesh.out_pos, sizeof general_pos);
            memcpy(general_nrm, g_mesh.out_nrm, sizeof general_nrm);
            for (int mode = 1; mode < 8; mode++) {
                job = job_for(&g_mesh, palette, MAX_JOINTS);
                job.weights_normalized = mode & 1;
                job.raw_normals = (mode >> 1) & 1;
                if (mode & 4)
                    job.normals = job.out_normals = NULL;
                for (int i = 0; i < 3 * MAX_VERTS + 1; i++)
                    g_mesh.out_pos[i] = g_mesh.out_nrm[i] = -12345.0f;
                CHECK_EQ_INT(tdn_skin_lbs(&job, NULL), TDN_OK);
                memcpy(small_pos, g_mesh.out_pos, sizeof small_pos);
                memcpy(small_nrm, g_mesh.out_nrm, sizeof small_nrm);
                job.palette_count = 300;
                CHECK_EQ_INT(tdn_skin_lbs(&job, NULL), TDN_OK);
                if (!CHECK(memcmp(small_pos, g_mesh.out_pos, sizeof small_pos) == 0) ||
                    !CHECK(memcmp(small_nrm, g_mesh.out_nrm, sizeof small_nrm) == 0))
                    fprintf(stderr, "  palette sizes differ: %d influences, %d vertices, mode %d\n", influences,
                            g_mesh.count, mode);
                lbs_reference_normals(&g_mesh, palette, job.raw_normals, ref_pos, ref_nrm);
                worst_p = fmax(worst_p, worst_distance(g_mesh.out_pos, ref_pos, g_mesh.count));
                for (int i = 0; i < 3 * g_mesh.count; i++)
                    worst_general = fmax(worst_general, fabs((double)g_mesh.out_pos[i] - general_pos[i]));
                if (mode & 4) {
                    CHECK(g_mesh.out_nrm[0] == -12345.0f);
                } else {
                    worst_n = fmax(worst_n, worst_distance(g_mesh.out_nrm, ref_nrm, g_mesh.count));
                    if (!job.raw_normals) /* renormalized either way: the general path's normals */
                        for (int i = 0; i < 3 * g_mesh.count; i++)
                            worst_general = fmax(worst_general, fabs((double)g_mesh.out_nrm[i] - general_nrm[i]));
                }
                CHECK(g_mesh.out_pos[3 * g_mesh.count] == -12345.0f);
                CHECK(g_mesh.out_nrm[3 * g_mesh.count] == -12345.0f);
            }
        }
        if (!CHECK_NEAR(worst_p, 0.0, 2e-5) || !CHECK_NEAR(worst_n, 0.0, 2e-5) || !CHECK_NEAR(worst_general, 0.0, 1e-6))
            fprintf(stderr, "  with %d influences\n", influences);
    }
}

/* weights_normalized takes the weights as they are: doubled weights (exact in binary) double
 * every output bit for bit, raw normals included, and a vertex whose weights are all 0 goes to
 * the origin with a zero normal (renormalized or not). */
static void test_weights_normalized_takes_weights_as_given(void)
{
    check_rng rng = { 0x2u };
    static tdn_mat4 palette[MAX_JOINTS];
    static float once_pos[3 * MAX_VERTS + 1], once_nrm[3 * MAX_VERTS + 1];
    for (int j = 0; j < MAX_JOINTS; j++)
        palette[j] = random_matrix(&rng, 0);
    for (int influences = 4; influences <= 8; influences += 4) {
        random_mesh(&rng, &g_mesh, MAX_VERTS, influences, MAX_JOINTS);
        for (int k = 0; k < influences; k++)
            g_mesh.weights[influences * 100 + k] = 0.0f;
        tdn_skin_job job = job_for(&g_mesh, palette, MAX_JOINTS);
        job.weights_normalized = 1;
        job.raw_normals = 1;
        CHECK_EQ_INT(tdn_skin_lbs(&job, NULL), TDN_OK);
        memcpy(once_pos, g_mesh.out_pos, sizeof once_pos);
        memcpy(once_nrm, g_mesh.out_nrm, sizeof once_nrm);
        for (int i = 0; i < influences * MAX_VERTS; i++)
            g_mesh.weights[i] *= 2.0f;
        CHECK_EQ_INT(tdn_skin_lbs(&job, NULL), TDN_OK);
        int doubled = 1;
        for (int i = 0; i < 3 * MAX_VERTS; i++)
            doubled &= g_mesh.out_pos[i] == 2.0f * once_pos[i] && g_mesh.out_nrm[i] == 2.0f * once_nrm[i];
        CHECK(doubled);
        for (int raw = 1; raw >= 0; raw--) {
            job.raw_normals = raw;
            CHECK_EQ_INT(tdn_skin_lbs(&job, NULL), TDN_OK);
            for (int i = 0; i < 3; i++)
                CHECK(g_mesh.out_pos[300 + i] == 0.0f && g_mesh.out_nrm[300 + i] == 0.0f);
        }
    }
}

/* tdn_skin_normalize_weights: every vertex's weights sum to 1 and keep their ratios; a vertex
 * that cannot be normalized (sum 0, NaN, infinite) is named and leaves every weight as it was;
 * bad arguments are refused. */
static void test_normalize_weights(void)
{
    check_rng rng = { 0x3u };
    static float before[MAX_INFLUENCES * MAX_VERTS];
    for (int n = 1; n <= MAX_INFLUENCES; n++) {
        random_mesh(&rng, &g_mesh, MAX_VERTS, n, MAX_JOINTS);
        memcpy(before, g_mesh.weights, sizeof before);
        CHECK_EQ_INT(tdn_skin_normalize_weights(g_mesh.weights, MAX_VERTS, n, NULL), TDN_OK);
        double worst_sum = 0.0, worst_ratio = 0.0;
        for (int v = 0; v < MAX_VERTS; v++) {
            double sum = 0.0, sum_before = 0.0;
            for (int k = 0; k < n; k++) {
                sum += g_mesh.weights[n * v + k];
                sum_before += before[n * v + k];
            }
            worst_sum = fmax(worst_sum, fabs(sum - 1.0));
            for (int k = 0; k < n; k++)
                worst_ratio = fmax(worst_ratio, fabs(g_mesh.weights[n * v + k] - before[n * v + k] / sum_before));
        }
        CHECK_NEAR(worst_sum, 0.0, 1e-6);
        CHECK_NEAR(worst_ratio, 0.0, 1e-6);
    }
    const float bad_values[3] = { 0.0f, NAN, INFINITY };
    for (int b = 0; b < 3; b++) {
        random_mesh(&rng, &g_mesh, 20, 4, MAX_JOINTS);
        for (int k = 0; k < 4; k++)
            g_mesh.weights[4 * 5 + k] = k == 0 || b == 0 ? bad_values[b] : 0.5f;
        memcpy(before, g_mesh.weights, sizeof before);
        tdn_error err = { 0 };
        CHECK_EQ_INT(tdn_skin_normalize_weights(g_mesh.weights, 20, 4, &err), TDN_ERR_ARGUMENT);
        CHECK(strcmp(err.where, "weights[20]") == 0);
        CHECK(strstr(err.message, "vertex 5") != NULL);
        CHECK(memcmp(before, g_mesh.weights, sizeof before) == 0);
    }
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_skin_normalize_weights(NULL, 1, 4, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_skin_normalize_weights(g_mesh.weights, -1, 4, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_skin_normalize_weights(g_mesh.weights, 1, 0, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "influences") == 0);
    CHECK_EQ_INT(tdn_skin_normalize_weights(g_mesh.weights, 1, MAX_INFLUENCES + 1, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_skin_normalize_weights(g_mesh.weights, 0, 4, NULL), TDN_OK);
}

/* DQS with random rigid palettes against the blend of the joints' own dual quaternions, built
 * from their rotations and translations (not from the matrices), with the palette converted
 * per influence and once up front. */
static void test_dqs_matches_reference(void)
{
    check_rng rng = { 0xd0a1u };
    static tdn_mat4 palette[MAX_JOINTS];
    static tdn_transform transforms[MAX_JOINTS];
    static tdn_dual_quat converted[MAX_JOINTS];
    static double ref_pos[3 * MAX_VERTS], ref_nrm[3 * MAX_VERTS];
    const int counts[] = { 1, 5, 16, 17, 64, MAX_VERTS };
    for (int influences = 1; influences <= MAX_INFLUENCES; influences++) {
        double worst_p = 0.0, worst_n = 0.0;
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            for (int j = 0; j < MAX_JOINTS; j++)
                palette[j] = random_matrix_from(&rng, 1, &transforms[j]);
            random_mesh(&rng, &g_mesh, counts[c], influences, MAX_JOINTS);
            dqs_reference(&g_mesh, transforms, ref_pos, ref_nrm);
            tdn_skin_job job = job_for(&g_mesh, palette, MAX_JOINTS);
            for (int given = 0; given < 2; given++) {
                tdn_dual_quat_palette(palette, MAX_JOINTS, converted);
                job.dual_quats = given ? converted : NULL;
                CHECK_EQ_INT(tdn_skin_dqs(&job, NULL), TDN_OK);
                worst_p = fmax(worst_p, worst_distance(g_mesh.out_pos, ref_pos, g_mesh.count));
                worst_n = fmax(worst_n, worst_distance(g_mesh.out_nrm, ref_nrm, g_mesh.count));
            }
        }
        if (!CHECK_NEAR(worst_p, 0.0, 2e-5) || !CHECK_NEAR(worst_n, 0.0, 2e-5))
            fprintf(stderr, "  with %d influences\n", influences);
    }
}

/* Influences that weigh 0 add exactly nothing: a mesh of n influences and the same mesh with
 * 8, the last 8 - n on random joints at weight 0, give the same bits, by both methods, with
 * and without normals. (4 influences and 8 run different loops; 1-3 and 5-7 are padded.) */
static void test_zero_weight_influences_change_nothing(void)
{
    check_rng rng = { 0x0badcafeu };
    static tdn_mat4 palette[MAX_JOINTS];
    static mesh padded;
    for (int j = 0; j < MAX_JOINTS; j++)
        palette[j] = random_matrix(&rng, 0);
    for (int n = 1; n < MAX_INFLUENCES; n++) {
        random_mesh(&rng, &g_mesh, 203, n, MAX_JOINTS);
        random_mesh(&rng, &padded, 203, MAX_INFLUENCES, MAX_JOINTS); /* random joints beyond n */
        memcpy(padded.pos, g_mesh.pos, sizeof padded.pos);
        memcpy(padded.nrm, g_mesh.nrm, sizeof padded.nrm);
        for (int v = 0; v < g_mesh.count; v++)
            for (int k = 0; k < MAX_INFLUENCES; k++) {
                if (k < n)
                    padded.joints[MAX_INFLUENCES * v + k] = g_mesh.joints[n * v + k];
                padded.weights[MAX_INFLUENCES * v + k] = k < n ? g_mesh.weights[n * v + k] : 0.0f;
            }
        for (int method = 0; method < 4; method++) {
            tdn_result (*skin)(const tdn_skin_job *, tdn_error *) = method % 2 ? tdn_skin_dqs : tdn_skin_lbs;
            tdn_skin_job job = job_for(&g_mesh, palette, MAX_JOINTS), wide = job_for(&padded, palette, MAX_JOINTS);
            if (method >= 2) /* positions only */
                job.normals = wide.normals = NULL, job.out_normals = wide.out_normals = NULL;
            CHECK_EQ_INT(skin(&job, NULL), TDN_OK);
            CHECK_EQ_INT(skin(&wide, NULL), TDN_OK);
            if (!CHECK(memcmp(g_mesh.out_pos, padded.out_pos, sizeof padded.out_pos) == 0) ||
                !CHECK(memcmp(g_mesh.out_nrm, padded.out_nrm, sizeof padded.out_nrm) == 0))
                fprintf(stderr, "  %d influences against 8, method %d\n", n, method);
        }
    }
}

/* The second set counts. Eight joints that translate by (k, 0, 0), k = 0..7, and a vertex on
 * all eight at weight 1: the mean moves it by 3.5 along x. Its first four alone (influences
 * = 4, the same arrays cut to 4 per vertex) move it by 1.5. Both methods (DQS of translations
 * is their weighted mean too). */
static void test_second_influence_set_moves_the_vertex(void)
{
    tdn_mat4 palette[8];
    for (int k = 0; k < 8; k++) {
        palette[k] = tdn_mat4_identity();
        palette[k].m[12] = (float)k;
    }
    const float pos[6] = { 0.25f, -1.0f, 2.0f, 0.25f, -1.0f, 2.0f }, nrm[6] = { 0, 1, 0, 0, 1, 0 };
    const uint16_t joints[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }; /* one vertex of 8, or two of 4 */
    const float weights[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
    for (int method = 0; method < 2; method++) {
        tdn_result (*skin)(const tdn_skin_job *, tdn_error *) = method ? tdn_skin_dqs : tdn_skin_lbs;
        float out_pos[6] = { 0 }, out_nrm[6] = { 0 };
        tdn_skin_job job = { .vertex_count = 1,
                             .influences = 8,
                             .positions = pos,
                             .normals = nrm,
                             .joints = joints,
                             .weights = weights,
                             .palette = palette,
                             .palette_count = 8,
                             .out_positions = out_pos,
                             .out_normals = out_nrm };
        CHECK_EQ_INT(skin(&job, NULL), TDN_OK);
        CHECK_NEAR(out_pos[0], 0.25 + 3.5, 1e-6);
        CHECK_NEAR(out_pos[1], -1.0, 1e-6);
        CHECK_NEAR(out_pos[2], 2.0, 1e-6);
        CHECK_NEAR(out_nrm[1], 1.0, 1e-6);
        job.vertex_count = 2; /* the same arrays as two vertices of 4: the second set is vertex 1's */
        job.influences = 4;
        CHECK_EQ_INT(skin(&job, NULL), TDN_OK);
        CHECK_NEAR(out_pos[0], 0.25 + 1.5, 1e-6);
        CHECK_NEAR(out_pos[3], 0.25 + 5.5, 1e-6);
    }
}

/* Without normals only positions are written. */
static void test_lbs_positions_only(void)
{
    check_rng rng = { 77 };
    static tdn_mat4 palette[8];
    for (int j = 0; j < 8; j++)
        palette[j] = random_matrix(&rng, 0);
    random_mesh(&rng, &g_mesh, 33, 4, 8);
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
 * DQS agrees with the joint's own dual quaternion. Property over random rigid palettes, with 4
 * and 8 influences. */
static void test_lbs_dqs_agree_on_rigid_vertices(void)
{
    check_rng rng = { 0xabcdefu };
    static tdn_mat4 palette[MAX_JOINTS];
    static float lbs_pos[3 * MAX_VERTS], lbs_nrm[3 * MAX_VERTS];
    for (int trial = 0; trial < 20; trial++) {
        const int n = trial % 2 ? 8 : 4;
        for (int j = 0; j < MAX_JOINTS; j++)
            palette[j] = random_matrix(&rng, 1);
        random_mesh(&rng, &g_mesh, 50, n, MAX_JOINTS);
        for (int v = 0; v < g_mesh.count; v++) {
            uint16_t j = g_mesh.joints[n * v];
            for (int k = 1; k < n; k++) {
                if (v % 2) /* odd vertices: the same joint n times with split weights */
                    g_mesh.joints[n * v + k] = j;
                else /* even: one influence, the others weigh 0 */
                    g_mesh.weights[n * v + k] = 0.0f;
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
            tdn_dual_quat dq = tdn_dual_quat_from_mat4(&palette[g_mesh.joints[n * v]]);
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
    tdn_mat4 palette[2] = { tdn_mat4_identity(),
                            tdn_mat4_from_quat(tdn_quat_from_axis_angle(tdn_vec3_make(1, 0, 0), 0.5f * TDN_PI)) };
    float pos[3] = { x, r, 0.0f }, nrm[3] = { 0.0f, 1.0f, 0.0f };
    uint16_t joints[4] = { 0, 1, 0, 0 };
    float weights[4] = { 0.5f, 0.5f, 0.0f, 0.0f };
    float out_pos[3], out_nrm[3];
    tdn_skin_job job = { .vertex_count = 1,
                         .influences = 4,
                         .positions = pos,
                         .normals = nrm,
                         .joints = joints,
                         .weights = weights,
                         .palette = palette,
                         .palette_count = 2,
                         .out_positions = out_pos,
                         .out_normals = out_nrm };
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
    random_mesh(&rng, &g_mesh, 100, 4, MAX_JOINTS);
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
    random_mesh(&rng, &g_mesh, MAX_VERTS, 8, MAX_JOINTS);
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
    tdn_transform x = { { 1.0f, 2.0f, 3.0f },
                        tdn_quat_from_axis_angle(tdn_vec3_make(0, 0, 1), 0.3f),
                        { 2.0f, 0.5f, 3.0f } };
    tdn_mat4 scaled = tdn_transform_to_mat4(&x);
    x.s = tdn_vec3_make(1, 1, 1);
    tdn_mat4 rigid = tdn_transform_to_mat4(&x);
    tdn_vec3 p = tdn_vec3_make(0.4f, -0.2f, 0.9f);
    tdn_dual_quat dq = tdn_dual_quat_from_mat4(&scaled);
    tdn_vec3 a = tdn_dual_quat_transform_point(&dq, p), b = tdn_mat4_transform_point(&rigid, p);
    CHECK_NEAR(tdn_vec3_length(tdn_vec3_sub(a, b)), 0.0, 1e-6);
    CHECK_NEAR(tdn_quat_dot(dq.real, dq.real), 1.0, 1e-6);
}

/* A vertex whose weights sum to zero (or NaN) is copied unchanged by both methods, whatever
 * the influence count. */
static void test_zero_weights_copy(void)
{
    tdn_mat4 palette[1] = { tdn_mat4_from_quat(tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), 1.0f)) };
    float pos[6] = { 1, 2, 3, 4, 5, 6 }, nrm[6] = { 0, 0, 1, 1, 0, 0 };
    uint16_t joints[2 * MAX_INFLUENCES] = { 0 };
    float out_pos[6], out_nrm[6];
    for (int n = 1; n <= MAX_INFLUENCES; n++) {
        float weights[2 * MAX_INFLUENCES];
        for (int k = 0; k < n; k++) {
            weights[k] = 0.0f;                    /* vertex 0: all zero */
            weights[n + k] = k == 0 ? NAN : 1.0f; /* vertex 1: a NaN among ones */
        }
        tdn_skin_job job = { .vertex_count = 2,
                             .influences = n,
                             .positions = pos,
                             .normals = nrm,
                             .joints = joints,
                             .weights = weights,
                             .palette = palette,
                             .palette_count = 1,
                             .out_positions = out_pos,
                             .out_normals = out_nrm };
        for (int method = 0; method < 2; method++) {
            memset(out_pos, 0, sizeof out_pos);
            memset(out_nrm, 0, sizeof out_nrm);
            CHECK_EQ_INT(method ? tdn_skin_dqs(&job, NULL) : tdn_skin_lbs(&job, NULL), TDN_OK);
            CHECK(memcmp(out_pos, pos, sizeof pos) == 0);
            CHECK(memcmp(out_nrm, nrm, sizeof nrm) == 0);
        }
    }
}

/* Bad arguments fail before anything is written: with 4 influences per vertex and with 8, and
 * influence counts outside 1..8 (named in `where`, as is a joint out of range, whose message
 * names its vertex). */
static void test_bad_arguments_leave_output(void)
{
    check_rng rng = { 7 };
    static tdn_mat4 palette[4];
    for (int j = 0; j < 4; j++)
        palette[j] = random_matrix(&rng, 0);
    static float before_pos[3 * MAX_VERTS + 1], before_nrm[3 * MAX_VERTS + 1];

    for (int method = 0; method < 4; method++) {
        const int n = method < 2 ? 4 : 8, last = n * 20 - 1;
        tdn_result (*skin)(const tdn_skin_job *, tdn_error *) = method % 2 ? tdn_skin_dqs : tdn_skin_lbs;
        random_mesh(&rng, &g_mesh, 20, n, 4);
        memcpy(before_pos, g_mesh.out_pos, sizeof before_pos);
        memcpy(before_nrm, g_mesh.out_nrm, sizeof before_nrm);
        tdn_skin_job good = job_for(&g_mesh, palette, 4);
        tdn_skin_job job = good;
        tdn_error err = { 0 };
        g_mesh.joints[last] = 4; /* the very last index is out of range */
        CHECK_EQ_INT(skin(&job, &err), TDN_ERR_ARGUMENT);
        char where[32];
        snprintf(where, sizeof where, "job.joints[%d]", last);
        CHECK(strcmp(err.where, where) == 0);
        CHECK(strstr(err.message, "vertex 19 names palette entry 4") != NULL);
        g_mesh.joints[last] = 3;
        job.palette_count = 3; /* now index 3 is out of range */
        CHECK_EQ_INT(skin(&job, NULL), TDN_ERR_ARGUMENT);
        const int counts[] = { 0, -1, MAX_INFLUENCES + 1 };
        for (int c = 0; c < 3; c++) {
            job = good;
            job.influences = counts[c];
            CHECK_EQ_INT(skin(&job, &err), TDN_ERR_ARGUMENT);
            CHECK(strcmp(err.where, "job.influences") == 0);
            job.vertex_count = 0; /* refused even without vertices: the count describes the arrays */
            CHECK_EQ_INT(skin(&job, NULL), TDN_ERR_ARGUMENT);
        }
        job = good;
        job.palette_count = 0;
        CHECK_EQ_INT(skin(&job, NULL), TDN_ERR_ARGUMENT);
        job = good;
        job.positions = NULL;
        CHECK_EQ_INT(skin(&job, NULL), TDN_ERR_ARGUMENT);
        job = good;
        job.weights = NULL;
        CHECK_EQ_INT(skin(&job, &err), TDN_ERR_ARGUMENT);
        CHECK(strcmp(err.where, "job.weights") == 0);
        job = good;
        job.joints = NULL;
        CHECK_EQ_INT(skin(&job, &err), TDN_ERR_ARGUMENT);
        CHECK(strcmp(err.where, "job.joints") == 0);
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

/* A glTF file with JOINTS_1/WEIGHTS_1 (eight_influences_fixture.h), its meshes' arrays handed
 * to tdn_skin_lbs as they are (influences = 4 * influence_sets) with the rest pose's palette:
 * every vertex where the file's numbers put it. The primitive with one set gets the first
 * four influences' motion, which for vertex 0 is far from the eight's. A third set
 * (JOINTS_2) changes nothing but a warning. */
static void skin_gltf(int third_set)
{
    size_t size = 0;
    void *file = eight_influences_gltf(1, third_set, &size);
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    const tdn_result loaded = tdn_asset_load_memory(file, size, NULL, &asset, NULL, &err);
    free(file);
    if (!CHECK_EQ_INT(loaded, TDN_OK)) {
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
        return;
    }
    CHECK_EQ_INT(tdn_asset_warning_count(asset), third_set);
    CHECK(!third_set || strstr(tdn_asset_warning(asset, 0), "meshes[0].primitives[0].attributes: JOINTS_2") != NULL);
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    const int joints = tdn_skeleton_joint_count(skel);
    CHECK_EQ_INT(joints, EIGHT_SKIN_JOINTS);
    tdn_pose pose;
    tdn_mat4 model[EIGHT_SKIN_JOINTS], palette[EIGHT_SKIN_JOINTS];
    CHECK_EQ_INT(tdn_pose_create(joints, &pose, NULL, NULL), TDN_OK);
    tdn_pose_set_rest(&pose, skel, NULL);
    tdn_model_space(skel, &pose, NULL, model, NULL);
    CHECK_EQ_INT(tdn_palette(skel, model, palette, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_asset_mesh_count(asset), 2);
    for (int m = 0; m < 2 && m < tdn_asset_mesh_count(asset); m++) {
        const tdn_asset_mesh am = tdn_asset_mesh_at(asset, m);
        if (!CHECK_EQ_INT(am.influence_sets, m ? 1 : 2) || !CHECK_EQ_INT(am.vertex_count, EIGHT_VERTICES))
            continue;
        float out_pos[3 * EIGHT_VERTICES], out_nrm[3 * EIGHT_VERTICES];
        tdn_skin_job job = { .vertex_count = am.vertex_count,
                             .influences = 4 * am.influence_sets,
                             .positions = am.positions,
                             .normals = am.normals,
                             .joints = am.joints,
                             .weights = am.weights,
                             .palette = palette,
                             .palette_count = joints,
                             .out_positions = out_pos,
                             .out_normals = out_nrm };
        CHECK_EQ_INT(tdn_skin_lbs(&job, NULL), TDN_OK);
        double ref_pos[3 * EIGHT_VERTICES], ref_nrm[3 * EIGHT_VERTICES];
        for (int v = 0; v < EIGHT_VERTICES; v++)
            eight_reference(v, job.influences, ref_pos + 3 * v, ref_nrm + 3 * v);
        CHECK_NEAR(worst_distance(out_pos, ref_pos, EIGHT_VERTICES), 0.0, 1e-5);
        CHECK_NEAR(worst_distance(out_nrm, ref_nrm, EIGHT_VERTICES), 0.0, 1e-5);
    }
    tdn_pose_destroy(&pose);
    tdn_asset_destroy(asset);
}

static void test_gltf_two_influence_sets(void)
{
    double four[3], eight[3], normal[3];
    eight_reference(0, 4, four, normal);
    eight_reference(0, 8, eight, normal);
    const double apart[3] = { four[0] - eight[0], four[1] - eight[1], four[2] - eight[2] };
    CHECK(length3(apart) > 0.1);
    skin_gltf(0);
    skin_gltf(1);
}

int main(void)
{
    RUN(test_lbs_matches_reference);
    RUN(test_lbs_options_on_normalized_weights);
    RUN(test_weights_normalized_takes_weights_as_given);
    RUN(test_normalize_weights);
    RUN(test_dqs_matches_reference);
    RUN(test_zero_weight_influences_change_nothing);
    RUN(test_second_influence_set_moves_the_vertex);
    RUN(test_lbs_positions_only);
    RUN(test_lbs_dqs_agree_on_rigid_vertices);
    RUN(test_twist_dqs_keeps_volume);
    RUN(test_identity_palette_leaves_mesh);
    RUN(test_normals_unit_length);
    RUN(test_dqs_drops_scale);
    RUN(test_zero_weights_copy);
    RUN(test_bad_arguments_leave_output);
    RUN(test_gltf_two_influence_sets);
    return check_summary();
}
