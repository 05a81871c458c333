/* BVH import against an independent reference on every .bvh file of the shared data: a small
 * BVH reader and forward kinematics written here in double precision with rotation matrices
 * (Euler factors multiplied in listed order; position channels replace OFFSET components;
 * frame f at f * Frame Time; between frames translations lerp and rotations follow the
 * geodesic R0 * exp(a * log(R0^T R1)), which is what slerp is). Model-space joint positions from
 * tdn_keyed_clip_sample + tdn_model_space must agree within 1e-5 of the skeleton's size. The
 * same files with a '}' taken out (the root's, before MOTION, and an indented joint's) must fail
 * at MOTION's line naming the joint still open and the likely culprit. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "tendon/io/asset.h"
#include "test_data.h"

typedef struct ref_joint {
    char name[64];
    int parent;
    double offset[3];
    int channel_count;
    int channels[6]; /* 0..2 X/Y/Z position, 3..5 X/Y/Z rotation */
    int column;
} ref_joint;

typedef struct ref_bvh {
    ref_joint joints[256];
    int joint_count, columns, frames;
    double frame_time;
    double *values; /* frames * columns */
} ref_bvh;

static char *ref_token(char **p)
{
    while (**p && isspace((unsigned char)**p))
        (*p)++;
    if (!**p)
        return NULL;
    char *start = *p;
    while (**p && !isspace((unsigned char)**p))
        (*p)++;
    if (**p)
        *(*p)++ = '\0';
    return start;
}

static int ref_joint_body(ref_bvh *bvh, char **p, int parent)
{
    ref_joint *j = &bvh->joints[bvh->joint_count];
    int index = bvh->joint_count++;
    snprintf(j->name, sizeof j->name, "%s", ref_token(p));
    j->parent = parent;
    if (strcmp(ref_token(p), "{") != 0)
        return 0;
    for (char *t; (t = ref_token(p)) != NULL;) {
        if (strcmp(t, "OFFSET") == 0) {
            for (int i = 0; i < 3; i++)
                j->offset[i] = strtod(ref_token(p), NULL);
        } else if (strcmp(t, "CHANNELS") == 0) {
            j->channel_count = atoi(ref_token(p));
            j->column = bvh->columns;
            bvh->columns += j->channel_count;
            for (int k = 0; k < j->channel_count; k++) {
                const char *c = ref_token(p);
                j->channels[k] = (c[0] - 'X') + (strstr(c, "rotation") ? 3 : 0);
            }
        } else if (strcmp(t, "JOINT") == 0) {
            if (!ref_joint_body(bvh, p, index))
                return 0;
            j = &bvh->joints[index];
        } else if (strcmp(t, "End") == 0) {
            for (int i = 0; i < 7; i++) /* Site { OFFSET x y z } */
                ref_token(p);
        } else if (strcmp(t, "}") == 0) {
            return 1;
        } else {
            return 0;
        }
    }
    return 0;
}

/* Reads the whole file (NUL-terminated, tokens cut in place); 0 on failure. */
static int ref_read(const char *path, ref_bvh *bvh)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1), *p = text;
    size_t got = fread(text, 1, (size_t)size, f);
    fclose(f);
    text[got] = '\0';
    memset(bvh, 0, sizeof *bvh);
    int ok = strcmp(ref_token(&p), "HIERARCHY") == 0;
    char *t;
    while (ok && (t = ref_token(&p)) != NULL && strcmp(t, "ROOT") == 0)
        ok = ref_joint_body(bvh, &p, -1);
    ok = ok && t && strcmp(t, "MOTION") == 0;
    if (ok) {
        ref_token(&p); /* Frames: */
        bvh->frames = atoi(ref_token(&p));
        ref_token(&p), ref_token(&p); /* Frame Time: */
        bvh->frame_time = strtod(ref_token(&p), NULL);
        bvh->values = malloc(sizeof(double) * (size_t)bvh->frames * (size_t)bvh->columns);
        for (long i = 0; ok && i < (long)bvh->frames * bvh->columns; i++) {
            const char *v = ref_token(&p);
            ok = v != NULL;
            bvh->values[i] = ok ? strtod(v, NULL) : 0.0;
        }
    }
    free(text);
    return ok;
}

/* ---- rotation matrices (row-major, acting on column vectors) ---- */

typedef struct m3 {
    double m[3][3];
} m3;

static m3 m3_mul(m3 a, m3 b)
{
    m3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
    return r;
}

static m3 m3_transpose(m3 a)
{
    m3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = a.m[j][i];
    return r;
}

static const m3 m3_identity = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };

static m3 axis_rotation(int axis, double degrees)
{
    double a = degrees * 3.14159265358979323846 / 180.0, c = cos(a), s = sin(a);
    int b = (axis + 1) % 3, d = (axis + 2) % 3;
    m3 r = { { { 0 } } };
    r.m[axis][axis] = 1;
    r.m[b][b] = c, r.m[b][d] = -s;
    r.m[d][b] = s, r.m[d][d] = c;
    return r;
}

/* Rodrigues: rotation of `angle` about unit axis n. */
static m3 axis_angle_matrix(const double n[3], double angle)
{
    double c = cos(angle), s = sin(angle), k = 1 - c;
    m3 r = { { { c + n[0] * n[0] * k, n[0] * n[1] * k - n[2] * s, n[0] * n[2] * k + n[1] * s },
               { n[1] * n[0] * k + n[2] * s, c + n[1] * n[1] * k, n[1] * n[2] * k - n[0] * s },
               { n[2] * n[0] * k - n[1] * s, n[2] * n[1] * k + n[0] * s, c + n[2] * n[2] * k } } };
    return r;
}

/* The rotation a of the way along the geodesic from r0 to r1. */
static m3 geodesic(m3 r0, m3 r1, double a)
{
    m3 d = m3_mul(m3_transpose(r0), r1);
    double cos_angle = (d.m[0][0] + d.m[1][1] + d.m[2][2] - 1) / 2;
    double angle = acos(cos_angle > 1 ? 1 : cos_angle < -1 ? -1 : cos_angle);
    if (angle < 1e-12)
        return r0;
    double n[3] = { d.m[2][1] - d.m[1][2], d.m[0][2] - d.m[2][0], d.m[1][0] - d.m[0][1] };
    if (angle > 3.14159265358979323846 - 1e-6) { /* half-turn: the axis from the symmetric part */
        int i = d.m[0][0] > d.m[1][1] ? (d.m[0][0] > d.m[2][2] ? 0 : 2) : (d.m[1][1] > d.m[2][2] ? 1 : 2);
        for (int k = 0; k < 3; k++)
            n[k] = (d.m[k][i] + (k == i ? 1 : 0)) / 2;
    }
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; k++)
        n[k] /= len;
    return m3_mul(r0, axis_angle_matrix(n, a * angle));
}

/* Local translation and rotation of joint j at frame f. */
static void ref_local(const ref_bvh *bvh, int j, int f, double t[3], m3 *r)
{
    const ref_joint *joint = &bvh->joints[j];
    const double *v = bvh->values + (size_t)f * (size_t)bvh->columns + joint->column;
    memcpy(t, joint->offset, sizeof joint->offset);
    *r = m3_identity;
    for (int k = 0; k < joint->channel_count; k++) {
        if (joint->channels[k] < 3)
            t[joint->channels[k]] = v[k];
        else
            *r = m3_mul(*r, axis_rotation(joint->channels[k] - 3, v[k]));
    }
}

/* Model-space positions of every joint (file order) at `time`, clamped to the take. */
static void ref_positions(const ref_bvh *bvh, double time, double (*out)[3])
{
    double u = time / bvh->frame_time;
    if (u < 0)
        u = 0;
    if (u > bvh->frames - 1)
        u = bvh->frames - 1;
    int f0 = (int)floor(u), f1 = f0 + 1 < bvh->frames ? f0 + 1 : f0;
    double a = u - f0;
    m3 global[256];
    for (int j = 0; j < bvh->joint_count; j++) {
        double t0[3], t1[3], t[3];
        m3 r0, r1;
        ref_local(bvh, j, f0, t0, &r0);
        ref_local(bvh, j, f1, t1, &r1);
        for (int i = 0; i < 3; i++)
            t[i] = t0[i] + (t1[i] - t0[i]) * a;
        m3 r = geodesic(r0, r1, a);
        int p = bvh->joints[j].parent;
        if (p < 0) {
            memcpy(out[j], t, sizeof t);
            global[j] = r;
        } else {
            for (int i = 0; i < 3; i++)
                out[j][i] = out[p][i] + global[p].m[i][0] * t[0] + global[p].m[i][1] * t[1] + global[p].m[i][2] * t[2];
            global[j] = m3_mul(global[p], r);
        }
    }
}

static int files_checked;

static void check_file(const char *path)
{
    static ref_bvh ref;
    if (!CHECK(ref_read(path, &ref))) {
        fprintf(stderr, "  reference reader failed on %s\n", path);
        free(ref.values);
        return;
    }
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_asset_load(path, NULL, &asset, NULL, &err), TDN_OK)) {
        fprintf(stderr, "  %s: %s: %s\n", path, err.where, err.message);
        free(ref.values);
        return;
    }
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    const tdn_keyed_clip *clip = tdn_asset_clip(asset, 0);
    const int n = tdn_skeleton_joint_count(skel);
    CHECK_EQ_INT(n, ref.joint_count);
    CHECK_EQ_INT(tdn_asset_clip_channel_count(asset, 0), ref.columns);
    CHECK_EQ_INT(tdn_asset_warning_count(asset), 0);
    CHECK_NEAR(tdn_keyed_clip_duration(clip), (ref.frames - 1) * ref.frame_time, 1e-6 * ref.frames * ref.frame_time);
    int skeleton_index[256];
    for (int j = 0; j < ref.joint_count; j++) {
        skeleton_index[j] = tdn_skeleton_find_joint(skel, ref.joints[j].name);
        CHECK(skeleton_index[j] >= 0);
        if (skeleton_index[j] < 0)
            skeleton_index[j] = 0;
    }

    /* Frames and times between them, the ends, and one past the end (clamped). */
    const int F = ref.frames;
    const double frame_at[] = { 0, 0.5, 1, F / 2.0, F / 2.0 + 0.25, F / 2.0 + 0.5, F - 1.7, F - 1.5, F - 1, F + 3 };
    enum { SAMPLES = sizeof frame_at / sizeof frame_at[0] };
    static double expected[SAMPLES][256][3];
    static float got[SAMPLES][256][3];
    tdn_pose pose;
    tdn_pose_create(n, &pose, NULL, NULL);
    tdn_mat4 *model = malloc(sizeof *model * (size_t)n);
    double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
    for (int s = 0; s < SAMPLES; s++) {
        double u = frame_at[s] < 0 ? 0 : frame_at[s];
        float time = (float)(u * ref.frame_time);
        ref_positions(&ref, time, expected[s]);
        tdn_keyed_clip_sample(clip, time, &pose, NULL, NULL);
        tdn_model_space(skel, &pose, NULL, model, NULL);
        for (int j = 0; j < ref.joint_count; j++) {
            const float *m = model[skeleton_index[j]].m;
            got[s][j][0] = m[12], got[s][j][1] = m[13], got[s][j][2] = m[14];
            for (int i = 0; i < 3; i++) {
                lo[i] = fmin(lo[i], expected[s][j][i]);
                hi[i] = fmax(hi[i], expected[s][j][i]);
            }
        }
    }
    double size = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    double worst = 0;
    for (int s = 0; s < SAMPLES; s++)
        for (int j = 0; j < ref.joint_count; j++)
            for (int i = 0; i < 3; i++)
                worst = fmax(worst, fabs(got[s][j][i] - expected[s][j][i]));
    if (!CHECK(worst <= 1e-5 * size))
        fprintf(stderr, "  %s: worst position error %.3g, size %.3g\n", path, worst, size);
    printf("%-60s %3d joints %5d frames: worst error %.2e of size %.4g (%.1e)\n", path, n, F, worst, size,
           worst / size);
    files_checked++;
    free(model);
    tdn_pose_destroy(&pose);
    tdn_asset_destroy(asset);
    free(ref.values);
}

/* 1-based line of text[at] (line ends: LF or CRLF, as in the shared files). */
static int line_at(const char *text, size_t at)
{
    int line = 1;
    for (size_t i = 0; i < at; i++)
        line += text[i] == '\n';
    return line;
}

/* text without bytes [from, to), loaded from memory named `name`: the error must be at MOTION's
 * line and say `message`. */
static void expect_brace_error(const char *text, size_t size, size_t from, size_t to, const char *name,
                               const char *message)
{
    char *cut = malloc(size);
    memcpy(cut, text, from);
    memcpy(cut + from, text + to, size - to);
    const size_t cut_size = size - (to - from);
    char where[256];
    snprintf(where, sizeof where, "%s: line %d", name, line_at(cut, (size_t)(strstr(cut, "\nMOTION") + 1 - cut)));
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    const tdn_asset_load_options options = { .name = name };
    CHECK_EQ_INT(tdn_asset_load_memory(cut, cut_size, &options, &asset, NULL, &err), TDN_ERR_PARSE);
    if (!CHECK(asset == NULL && strcmp(err.where, where) == 0 && strcmp(err.message, message) == 0))
        fprintf(stderr, "  got      %s: %s\n  expected %s: %s\n", err.where, err.message, where, message);
    tdn_asset_destroy(asset);
    free(cut);
}

/* The line starting at text[at]: its indentation (spaces and tabs), and whether it holds only
 * `brace`. */
static size_t indentation(const char *text, size_t at) { return strspn(text + at, " \t"); }
static int is_brace_line(const char *text, size_t at, char brace)
{
    const char *p = text + at + indentation(text, at);
    return p[0] == brace && (p[1] == '\r' || p[1] == '\n');
}

/* The root's '}' (the last before MOTION) and the '}' of the first joint with a child joint
 * (found by its indentation), each taken out of the file. */
static void check_missing_braces(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!CHECK(f != NULL))
        return;
    fseek(f, 0, SEEK_END);
    const size_t size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc(size + 1);
    CHECK(fread(text, 1, size, f) == size);
    fclose(f);
    text[size] = '\0';
    const char *name = strrchr(path, '/') + 1;
    const size_t motion = (size_t)(strstr(text, "\nMOTION") + 1 - text);
    /* the root: its name after "ROOT", its '{' the first one */
    char root[64], message[512];
    sscanf(strstr(text, "ROOT ") + 5, "%63s", root);
    const int root_brace = line_at(text, (size_t)(strchr(text, '{') - text));
    size_t last = motion - 1;
    while (text[last] != '}')
        last--;
    snprintf(message, sizeof message, "MOTION inside joint '%s' (opened at line %d): a '}' is missing", root,
             root_brace);
    expect_brace_error(text, size, last, last + 1, name, message);

    /* the first JOINT whose '{' line is followed (before its '}') by another JOINT */
    for (const char *j = strstr(text, "JOINT "); j && (size_t)(j - text) < motion; j = strstr(j + 1, "JOINT ")) {
        char joint[64];
        sscanf(j + 6, "%63s", joint);
        size_t at = (size_t)(strchr(j, '{') - text);
        while (at > 0 && text[at - 1] != '\n')
            at--; /* the start of the '{' line */
        const size_t indent = indentation(text, at);
        const int brace_line = line_at(text, at);
        int children = 0;
        for (size_t line = at; line < motion; line = (size_t)(strchr(text + line, '\n') + 1 - text)) {
            children += line > at && strncmp(text + line + indentation(text, line), "JOINT ", 6) == 0;
            if (line > at && indentation(text, line) == indent && is_brace_line(text, line, '}')) {
                if (!children || indent == 0)
                    break;
                const size_t end = (size_t)(strchr(text + line, '\n') + 1 - text);
                snprintf(message, sizeof message,
                         "MOTION inside joint '%s' (opened at line %d): a '}' is missing "
                         "(by the indentation, the one of joint '%s', opened at line %d)",
                         root, root_brace, joint, brace_line);
                expect_brace_error(text, size, line, end, name, message);
                free(text);
                return;
            }
        }
    }
    free(text);
}

static void check_folder(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    int count = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        names = realloc(names, sizeof *names * (size_t)(count + 1));
        names[count] = malloc(strlen(dir) + strlen(e->d_name) + 2);
        sprintf(names[count++], "%s/%s", dir, e->d_name);
    }
    closedir(d);
    for (int i = 0; i < count; i++) {
        struct stat st;
        size_t len = strlen(names[i]);
        if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode))
            check_folder(names[i]);
        else if (len > 4 && strcmp(names[i] + len - 4, ".bvh") == 0)
            check_file(names[i]), check_missing_braces(names[i]);
        free(names[i]);
    }
    free(names);
}

static void every_shared_bvh_file_matches_the_reference(void)
{
    const char *data = test_data_dir();
    if (!data)
        return;
    char dir[4096];
    check_folder(test_data_path(dir, sizeof dir, data, "bvh"));
    CHECK(files_checked >= 14);
}

int main(void)
{
    RUN(every_shared_bvh_file_matches_the_reference);
    return check_summary();
}
