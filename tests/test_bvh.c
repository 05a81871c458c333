/* BVH import: small texts written here with expected values worked another way (rotation
 * matrices and axis-angle products in double precision, lerp and slerp by formula), layout and
 * line-ending variants, frame-count repairs, and a corpus of malformed texts (every prefix of a
 * valid file, bad numbers, absurd counts, failing allocations) that must fail with the right code
 * and line, leaving nothing allocated. Real files are checked by test_bvh_reference.c. */
#include <stdlib.h>
#include <string.h>

#include "../src/io/bvh_number.h"
#include "check.h"
#include "counting_allocator.h"
#include "tendon/io/asset.h"

/* Loads text from a buffer of exactly strlen(text) bytes (no terminating zero, so reading
 * past the end is caught by the sanitizers). */
static tdn_result load_sized(const char *text, size_t size, const tdn_asset_load_options *options, tdn_asset **asset,
                             tdn_error *err)
{
    char *copy = malloc(size ? size : 1);
    memcpy(copy, text, size);
    tdn_result r = tdn_asset_load_memory(copy, size, options, asset, &counting, err);
    free(copy);
    return r;
}

static tdn_asset *load_ok(const char *text, const tdn_asset_load_options *options)
{
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(load_sized(text, strlen(text), options, &asset, &err), TDN_OK))
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
    return asset;
}

/* Local transform of the joint called name at time t. */
static tdn_transform local_at(const tdn_asset *asset, const char *name, float t)
{
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    tdn_pose pose;
    tdn_pose_create(tdn_skeleton_joint_count(skel), &pose, NULL, NULL);
    tdn_keyed_clip_sample(tdn_asset_clip(asset, 0), t, &pose, NULL, NULL);
    int j = tdn_skeleton_find_joint(skel, name);
    CHECK(j >= 0);
    tdn_transform x = j >= 0 ? tdn_pose_get(&pose, j) : tdn_transform_identity();
    tdn_pose_destroy(&pose);
    return x;
}

/* Model-space position of the joint called name at time t. */
static tdn_vec3 model_position_at(const tdn_asset *asset, const char *name, float t)
{
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    int n = tdn_skeleton_joint_count(skel);
    tdn_pose pose;
    tdn_pose_create(n, &pose, NULL, NULL);
    tdn_keyed_clip_sample(tdn_asset_clip(asset, 0), t, &pose, NULL, NULL);
    tdn_mat4 *model = malloc(sizeof *model * (size_t)n);
    tdn_model_space(skel, &pose, NULL, model, NULL);
    int j = tdn_skeleton_find_joint(skel, name);
    tdn_vec3 p = j >= 0 ? tdn_vec3_make(model[j].m[12], model[j].m[13], model[j].m[14]) : tdn_vec3_make(NAN, NAN, NAN);
    free(model);
    tdn_pose_destroy(&pose);
    return p;
}

/* ---- the reference arithmetic, in double precision ---- */

typedef struct dquat {
    double x, y, z, w;
} dquat;

static dquat dquat_mul(dquat a, dquat b)
{
    dquat q = { a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z };
    return q;
}

/* Rotation of `degrees` about axis 0, 1 or 2, as a quaternion: (sin(a/2) axis, cos(a/2)). */
static dquat axis_angle(int axis, double degrees)
{
    double half = degrees * 3.14159265358979323846 / 360.0;
    dquat q = { 0, 0, 0, cos(half) };
    (&q.x)[axis] = sin(half);
    return q;
}

/* The same rotation as a row-major matrix acting on column vectors. */
static void axis_matrix(int axis, double degrees, double m[3][3])
{
    double a = degrees * 3.14159265358979323846 / 180.0, c = cos(a), s = sin(a);
    int b = (axis + 1) % 3, d = (axis + 2) % 3;
    memset(m, 0, sizeof(double) * 9);
    m[axis][axis] = 1;
    m[b][b] = c, m[b][d] = -s;
    m[d][b] = s, m[d][d] = c;
}

static void matrix_mul(double a[3][3], double b[3][3], double out[3][3])
{
    double r[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
    memcpy(out, r, sizeof r);
}

static tdn_quat to_quat(dquat q) { return tdn_quat_make((float)q.x, (float)q.y, (float)q.z, (float)q.w); }

/* ---- semantics ---- */

static void every_rotation_order_composes_intrinsically(void)
{
    static const char *const axis_names[3] = { "Xrotation", "Yrotation", "Zrotation" };
    static const int orders[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
    static const double angles[2][3] = { { 30, -50, 70 }, { -120, 45, 10.5 } }; /* per frame, in listed order */
    for (int o = 0; o < 6; o++) {
        const int *axes = orders[o];
        char text[1024];
        snprintf(text, sizeof text,
                 "HIERARCHY\nROOT Hips\n{\n  OFFSET 1 2 3\n  CHANNELS 3 %s %s %s\n"
                 "  JOINT Tip\n  {\n    OFFSET 0.5 -1 2\n    End Site\n    {\n      OFFSET 0 1 0\n    }\n  }\n}\n"
                 "MOTION\nFrames: 2\nFrame Time: 0.5\n%g %g %g\n%g %g %g\n",
                 axis_names[axes[0]], axis_names[axes[1]], axis_names[axes[2]], angles[0][0], angles[0][1],
                 angles[0][2], angles[1][0], angles[1][1], angles[1][2]);
        tdn_asset *asset = load_ok(text, NULL);
        if (!asset)
            continue;
        for (int f = 0; f < 2; f++) {
            /* Quaternion: axis-angle factors multiplied in listed order. */
            dquat q = { 0, 0, 0, 1 };
            double m[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
            for (int k = 0; k < 3; k++) {
                q = dquat_mul(q, axis_angle(axes[k], angles[f][k]));
                double r[3][3];
                axis_matrix(axes[k], angles[f][k], r);
                matrix_mul(m, r, m);
            }
            tdn_transform x = local_at(asset, "Hips", 0.5f * (float)f);
            CHECK(check_quat_angle(x.r, to_quat(q)) < 2e-6);
            CHECK_NEAR(x.t.x, 1, 0), CHECK_NEAR(x.t.y, 2, 0), CHECK_NEAR(x.t.z, 3, 0);
            /* Matrix: the child lands at offset + M * child offset. */
            tdn_vec3 p = model_position_at(asset, "Tip", 0.5f * (float)f);
            const double child[3] = { 0.5, -1, 2 }, root[3] = { 1, 2, 3 };
            for (int i = 0; i < 3; i++)
                CHECK_NEAR((&p.x)[i], root[i] + m[i][0] * child[0] + m[i][1] * child[1] + m[i][2] * child[2], 2e-6);
        }
        tdn_asset_destroy(asset);
    }
}

/* Three and six channels on any joint, position channels in any order replacing OFFSET
 * components, a position-only joint, a partial subset, a joint without CHANNELS. */
static const char *const channel_mix =
    "HIERARCHY\n"
    "ROOT Root\n{\n OFFSET 10 20 30\n CHANNELS 3 Xrotation Yrotation Zrotation\n"
    " JOINT Six\n {\n  OFFSET 1 2 3\n  CHANNELS 6 Zrotation Xposition Yrotation Zposition Yposition Xrotation\n"
    "  JOINT Moves\n  {\n   OFFSET 4 5 6\n   CHANNELS 3 Zposition Xposition Yposition\n"
    "   End Site\n   {\n    OFFSET 9 9 9\n   }\n  }\n"
    "  JOINT Partial\n  {\n   OFFSET 7 8 9\n   CHANNELS 2 Yposition Xrotation\n  }\n"
    "  JOINT Still\n  {\n   OFFSET -1 -2 -3\n  }\n }\n}\n"
    "MOTION\nFrames: 1\nFrame Time: 0.1\n"
    "5 0 0   90 -7 15 8 -9 0   1.5 2.5 3.5   -4 45\n";

static void channels_any_subset_and_positions_replace_offset(void)
{
    tdn_asset *asset = load_ok(channel_mix, NULL);
    if (!asset)
        return;
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    CHECK_EQ_INT(tdn_skeleton_joint_count(skel), 5);
    CHECK_EQ_INT(tdn_asset_clip_channel_count(asset, 0), 14);
    /* Tracks: Root r; Six t, r; Moves t; Partial t, r; Still none. */
    CHECK_EQ_INT(tdn_keyed_clip_track_count(tdn_asset_clip(asset, 0)), 6);

    tdn_transform root = local_at(asset, "Root", 0);
    CHECK_NEAR(root.t.x, 10, 0), CHECK_NEAR(root.t.y, 20, 0), CHECK_NEAR(root.t.z, 30, 0);
    CHECK(check_quat_angle(root.r, to_quat(axis_angle(0, 5))) < 2e-6);

    tdn_transform six = local_at(asset, "Six", 0); /* Z 90, Xpos -7, Y 15, Zpos 8, Ypos -9, X 0 */
    CHECK_NEAR(six.t.x, -7, 0), CHECK_NEAR(six.t.y, -9, 0), CHECK_NEAR(six.t.z, 8, 0);
    dquat q = dquat_mul(dquat_mul(axis_angle(2, 90), axis_angle(1, 15)), axis_angle(0, 0));
    CHECK(check_quat_angle(six.r, to_quat(q)) < 2e-6);

    tdn_transform moves = local_at(asset, "Moves", 0); /* Zpos 1.5, Xpos 2.5, Ypos 3.5 */
    CHECK_NEAR(moves.t.x, 2.5, 0), CHECK_NEAR(moves.t.y, 3.5, 0), CHECK_NEAR(moves.t.z, 1.5, 0);
    CHECK(check_quat_angle(moves.r, tdn_quat_identity()) == 0);

    tdn_transform partial = local_at(asset, "Partial", 0); /* Ypos -4 replaces 8; x, z keep 7, 9 */
    CHECK_NEAR(partial.t.x, 7, 0), CHECK_NEAR(partial.t.y, -4, 0), CHECK_NEAR(partial.t.z, 9, 0);
    CHECK(check_quat_angle(partial.r, to_quat(axis_angle(0, 45))) < 2e-6);

    tdn_transform still = local_at(asset, "Still", 0);
    CHECK_NEAR(still.t.x, -1, 0), CHECK_NEAR(still.t.y, -2, 0), CHECK_NEAR(still.t.z, -3, 0);
    tdn_asset_destroy(asset);
}

static void asset_shape_rest_pose_and_end_sites(void)
{
    /* Two roots; End Sites (with offsets that must not matter) are not joints. */
    const char *text = "HIERARCHY\nROOT A\n{\n OFFSET 1 0 0\n CHANNELS 3 Xposition Yposition Zposition\n"
                       " JOINT B\n {\n  OFFSET 0 2 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
                       "  End Site\n  {\n   OFFSET 0 0 3\n  }\n }\n"
                       " End Site\n {\n  OFFSET 5 5 5\n }\n}\n"
                       "ROOT C\n{\n OFFSET 0 0 -4\n CHANNELS 1 Yrotation\n}\n"
                       "MOTION\nFrames: 1\nFrame Time: 0.04\n1 2 3 0 0 0 0\n";
    tdn_asset *asset = load_ok(text, NULL);
    if (!asset)
        return;
    CHECK_EQ_INT(tdn_asset_format_of(asset), TDN_FORMAT_BVH);
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    CHECK_EQ_INT(tdn_skeleton_joint_count(skel), 3);
    CHECK_EQ_INT(tdn_asset_joint_count(asset), 3);
    static const char *const names[3] = { "A", "B", "C" };
    static const int parents[3] = { -1, 0, -1 };
    static const float rest_t[3][3] = { { 1, 0, 0 }, { 0, 2, 0 }, { 0, 0, -4 } };
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_INT(tdn_asset_joint(asset, i), i);
        CHECK(strcmp(tdn_skeleton_joint_name(skel, i), names[i]) == 0);
        CHECK_EQ_INT(tdn_skeleton_parent(skel, i), parents[i]);
        CHECK_EQ_INT(tdn_asset_joint_parent(asset, i), parents[i]);
        tdn_transform rest = tdn_skeleton_rest(skel, i);
        CHECK_NEAR(rest.t.x, rest_t[i][0], 0), CHECK_NEAR(rest.t.y, rest_t[i][1], 0),
            CHECK_NEAR(rest.t.z, rest_t[i][2], 0);
        CHECK(rest.r.x == 0 && rest.r.y == 0 && rest.r.z == 0 && rest.r.w == 1);
    }
    CHECK_EQ_INT(tdn_asset_clip_count(asset), 1);
    CHECK(strcmp(tdn_keyed_clip_name(tdn_asset_clip(asset, 0)), "take") == 0);
    CHECK_EQ_INT(tdn_asset_warning_count(asset), 0);
    CHECK_EQ_INT(tdn_asset_skin_count(asset), 0);
    CHECK_EQ_INT(tdn_asset_mesh_count(asset), 0);
    tdn_asset_destroy(asset);

    tdn_asset *named = NULL;
    CHECK_EQ_INT(
        tdn_asset_load_memory(text, strlen(text), &(tdn_asset_load_options){ .name = "walk" }, &named, NULL, NULL),
        TDN_OK);
    CHECK(named && strcmp(tdn_keyed_clip_name(tdn_asset_clip(named, 0)), "walk") == 0);
    CHECK_EQ_INT(tdn_asset_find_clip(named, "walk"), 0);
    tdn_asset_destroy(named);
}

/* text with every "\n" replaced by `line_end`. */
static char *with_line_ends(const char *text, const char *line_end)
{
    size_t n = strlen(text), e = strlen(line_end);
    char *out = malloc(n * e + 1), *o = out;
    for (const char *p = text; *p; p++) {
        if (*p == '\n')
            memcpy(o, line_end, e), o += e;
        else
            *o++ = *p;
    }
    *o = '\0';
    return out;
}

static void layouts_line_ends_and_bom_read_the_same(void)
{
    tdn_asset *plain = load_ok(channel_mix, NULL);
    const char *variants[6];
    char *owned[6] = { 0 };
    variants[0] = owned[0] = with_line_ends(channel_mix, "\r\n");
    variants[1] = owned[1] = with_line_ends(channel_mix, "\r");
    variants[2] = owned[2] = with_line_ends(channel_mix, " \t\r\n\n"); /* blank lines between frames too */
    /* Mixed endings, a byte-order mark, keywords and numbers split over lines and tabs, channel
     * names in any case. */
    variants[3] =
        "\xEF\xBB\xBFHIERARCHY\r\nROOT\tRoot {\r\n OFFSET\n10\t20 30\r CHANNELS 3\nXrotation YROTATION\r\nzrotation\n"
        " JOINT Six { OFFSET 1 2 3 CHANNELS 6 Zrotation Xposition Yrotation Zposition Yposition Xrotation\n"
        "  JOINT Moves { OFFSET 4 5 6 CHANNELS 3 Zposition Xposition Yposition End Site { OFFSET 9 9 9 } }\r\n"
        "  JOINT Partial { OFFSET 7 8 9 CHANNELS 2 Yposition Xrotation }  JOINT Still { OFFSET -1 -2 -3 } } }\n"
        "MOTION Frames:\t1\r\nFrame\tTime:\t0.1\r\n\t5 0 0   90 -7 15 8 -9 0   1.5 2.5 3.5   -4 45  \r\n\r\n";
    variants[4] = owned[4] = with_line_ends(channel_mix, "\n\r\n"); /* LF then CRLF: mixed */
    variants[5] = NULL;
    for (int v = 0; variants[v] && plain; v++) {
        tdn_asset *asset = load_ok(variants[v], NULL);
        if (!asset)
            continue;
        static const char *const names[] = { "Root", "Six", "Moves", "Partial", "Still" };
        for (int j = 0; j < 5; j++) {
            tdn_transform a = local_at(plain, names[j], 0), b = local_at(asset, names[j], 0);
            CHECK(memcmp(&a, &b, sizeof a) == 0);
        }
        tdn_asset_destroy(asset);
    }
    /* Lines are counted the same with LF, CRLF and CR: the bad value is on line 33. */
    char *bad = malloc(strlen(channel_mix) + 8);
    strcpy(bad, channel_mix);
    char *five = strstr(bad, "5 0 0");
    five[0] = 'x';
    static const char *const ends[] = { "\n", "\r\n", "\r" };
    for (int e = 0; e < 3; e++) {
        char *text = with_line_ends(bad, ends[e]);
        tdn_asset *asset = NULL;
        tdn_error err = { 0 };
        CHECK_EQ_INT(load_sized(text, strlen(text), NULL, &asset, &err), TDN_ERR_PARSE);
        CHECK(strcmp(err.where, "line 33") == 0);
        CHECK(!asset);
        free(text);
    }
    free(bad);
    for (int v = 0; v < 6; v++)
        free(owned[v]);
    tdn_asset_destroy(plain);
}

static void scale_multiplies_every_length(void)
{
    tdn_asset_load_options options = { .scale = 0.01f };
    tdn_asset *plain = load_ok(channel_mix, NULL), *scaled = load_ok(channel_mix, &options);
    if (!plain || !scaled)
        return;
    static const char *const names[] = { "Root", "Six", "Moves", "Partial", "Still" };
    for (int j = 0; j < 5; j++) {
        tdn_transform a = local_at(plain, names[j], 0), b = local_at(scaled, names[j], 0);
        CHECK_NEAR(b.t.x, a.t.x * 0.01f, 0), CHECK_NEAR(b.t.y, a.t.y * 0.01f, 0), CHECK_NEAR(b.t.z, a.t.z * 0.01f, 0);
        CHECK(memcmp(&a.r, &b.r, sizeof a.r) == 0);
        tdn_transform rest = tdn_skeleton_rest(tdn_asset_skeleton(scaled), j);
        tdn_transform rest_plain = tdn_skeleton_rest(tdn_asset_skeleton(plain), j);
        CHECK_NEAR(rest.t.y, rest_plain.t.y * 0.01f, 0);
    }
    tdn_vec3 far = model_position_at(scaled, "Moves", 0), near = model_position_at(plain, "Moves", 0);
    CHECK_NEAR(far.x, near.x * 0.01, 1e-5), CHECK_NEAR(far.y, near.y * 0.01, 1e-5),
        CHECK_NEAR(far.z, near.z * 0.01, 1e-5);
    tdn_asset_destroy(plain);
    tdn_asset_destroy(scaled);
}

/* One joint, Xposition and a Z rotation, `frames` declared, the given motion lines. */
static char *one_joint(int frames, double frame_time, const char *lines)
{
    char *text = malloc(strlen(lines) + 256);
    sprintf(text,
            "HIERARCHY\nROOT J\n{\n OFFSET 0 1 2\n CHANNELS 2 Xposition Zrotation\n}\n"
            "MOTION\nFrames: %d\nFrame Time: %.17g\n%s",
            frames, frame_time, lines);
    return text;
}

static void frames_are_keys_at_multiples_of_the_frame_time(void)
{
    char *text = one_joint(4, 0.25, "0 0\n1 10\n3 20\n6 30\n");
    tdn_asset *asset = load_ok(text, NULL);
    free(text);
    if (!asset)
        return;
    const tdn_keyed_clip *clip = tdn_asset_clip(asset, 0);
    CHECK_NEAR(tdn_keyed_clip_duration(clip), 0.75, 0);
    CHECK_EQ_INT(tdn_keyed_clip_key_count(clip), 8);
    static const double x[4] = { 0, 1, 3, 6 }, z_degrees[4] = { 0, 10, 20, 30 };
    for (int f = 0; f < 4; f++) {
        tdn_transform at = local_at(asset, "J", 0.25f * (float)f);
        CHECK_NEAR(at.t.x, x[f], 1e-6), CHECK_NEAR(at.t.y, 1, 0), CHECK_NEAR(at.t.z, 2, 0);
        CHECK(check_quat_angle(at.r, to_quat(axis_angle(2, z_degrees[f]))) < 2e-6);
    }
    /* Between frames: translations lerp, rotations slerp (one axis: the angle lerps). */
    static const double between[] = { 0.1, 0.375, 0.5, 0.7 };
    for (int i = 0; i < 4; i++) {
        double u = between[i] / 0.25;
        int f = (int)u;
        double a = u - f;
        tdn_transform at = local_at(asset, "J", (float)between[i]);
        CHECK_NEAR(at.t.x, x[f] + (x[f + 1] - x[f]) * a, 1e-5);
        CHECK(check_quat_angle(at.r, to_quat(axis_angle(2, z_degrees[f] + (z_degrees[f + 1] - z_degrees[f]) * a))) <
              2e-5);
    }
    /* Outside the take, times clamp to its ends. */
    CHECK_NEAR(local_at(asset, "J", 5.0f).t.x, 6, 0);
    CHECK_NEAR(local_at(asset, "J", -1.0f).t.x, 0, 0);
    tdn_asset_destroy(asset);
}

static void slerp_between_frames_takes_the_short_way(void)
{
    /* 170 and -170 degrees about Z are 20 degrees apart through 180; a general rotation pair
     * checks the slerp midpoint: normalize(q0 + q1) for q1 taken on q0's side. */
    const char *text = "HIERARCHY\nROOT J\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n}\n"
                       "MOTION\nFrames: 4\nFrame Time: 1\n170 0 0\n-170 0 0\n20 -60 35\n-95 40 170\n";
    tdn_asset *asset = load_ok(text, NULL);
    if (!asset)
        return;
    CHECK(check_quat_angle(local_at(asset, "J", 0.5f).r, to_quat(axis_angle(2, 180))) < 2e-6);
    dquat q0 = dquat_mul(dquat_mul(axis_angle(2, 20), axis_angle(0, -60)), axis_angle(1, 35));
    dquat q1 = dquat_mul(dquat_mul(axis_angle(2, -95), axis_angle(0, 40)), axis_angle(1, 170));
    double dot = q0.x * q1.x + q0.y * q1.y + q0.z * q1.z + q0.w * q1.w, sign = dot < 0 ? -1 : 1;
    dquat mid = { q0.x + sign * q1.x, q0.y + sign * q1.y, q0.z + sign * q1.z, q0.w + sign * q1.w };
    double len = sqrt(mid.x * mid.x + mid.y * mid.y + mid.z * mid.z + mid.w * mid.w);
    mid.x /= len, mid.y /= len, mid.z /= len, mid.w /= len;
    CHECK(check_quat_angle(local_at(asset, "J", 2.5f).r, to_quat(mid)) < 2e-6);
    /* A quarter of the way: slerp by its formula. */
    double theta = acos(fabs(dot)), wa = sin(0.75 * theta) / sin(theta), wb = sign * sin(0.25 * theta) / sin(theta);
    dquat quarter = { wa * q0.x + wb * q1.x, wa * q0.y + wb * q1.y, wa * q0.z + wb * q1.z, wa * q0.w + wb * q1.w };
    CHECK(check_quat_angle(local_at(asset, "J", 2.25f).r, to_quat(quarter)) < 2e-5);
    tdn_asset_destroy(asset);
}

static void single_frame_is_a_take_of_no_duration(void)
{
    char *text = one_joint(1, 1.0 / 30, "4 90\n");
    tdn_asset *asset = load_ok(text, NULL);
    free(text);
    if (!asset)
        return;
    CHECK_NEAR(tdn_keyed_clip_duration(tdn_asset_clip(asset, 0)), 0, 0);
    CHECK_NEAR(local_at(asset, "J", 0.5f).t.x, 4, 0);
    CHECK(check_quat_angle(local_at(asset, "J", 0).r, to_quat(axis_angle(2, 90))) < 2e-6);
    tdn_asset_destroy(asset);
}

static void frame_count_disagreements_keep_complete_frames(void)
{
    struct {
        int declared;
        const char *lines;
        int frames;
        int warned;
    } cases[] = {
        { 5, "0 0\n1 10\n2 20\n", 3, 1 },       /* fewer lines than declared */
        { 5, "0 0\n1 10\n2 20\n3", 3, 1 },      /* the text ends inside frame 4 */
        { 5, "0 0\n1 10\n2 20\n3 \n\n", 3, 1 }, /* a cut last line, then blank lines */
        { 2, "0 0\n1 10\n2 20\n", 2, 1 },       /* more lines than declared */
        { 2, "0 0\n1 10\n", 2, 0 },
        { 2, "0 0\n1 10", 2, 0 }, /* no line end after the last frame */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = one_joint(cases[i].declared, 0.5, cases[i].lines);
        tdn_asset *asset = load_ok(text, NULL);
        free(text);
        if (!asset)
            continue;
        const tdn_keyed_clip *clip = tdn_asset_clip(asset, 0);
        CHECK_EQ_INT(tdn_keyed_clip_key_count(clip), 2 * cases[i].frames);
        CHECK_NEAR(tdn_keyed_clip_duration(clip), 0.5 * (cases[i].frames - 1), 0);
        CHECK_EQ_INT(tdn_asset_warning_count(asset), cases[i].warned);
        CHECK_NEAR(local_at(asset, "J", 100).t.x, cases[i].frames - 1, 0);
        tdn_asset_destroy(asset);
    }
}

/* Decimal strings of many shapes read exactly as strtof reads them (in the C locale). */
static void numbers_read_exactly_as_strtof(void)
{
    check_rng rng = { 0x9e3779b97f4a7c15ull };
    enum { COUNT = 3000 };
    char(*numbers)[48] = malloc(sizeof *numbers * COUNT);
    for (int i = 0; i < COUNT; i++) {
        char *s = numbers[i];
        int shape = (int)(check_rng_u32(&rng) % 7);
        uint32_t a = check_rng_u32(&rng), b = check_rng_u32(&rng);
        switch (shape) {
        case 0:
            sprintf(s, "%s%u.%06u", a & 1 ? "-" : "", a % 1000, b % 1000000);
            break;
        case 1:
            sprintf(s, "%.9g", (double)check_rng_float(&rng, -1000, 1000));
            break;
        case 2:
            sprintf(s, "%u%09u.%u%09ue%d", a, b, b, a, (int)(a % 40) - 35);
            break; /* 20+ digits */
        case 3:
            sprintf(s, "%.17g", (double)check_rng_float(&rng, -1, 1) * pow(10.0, (int)(a % 70) - 35));
            break;
        case 4:
            sprintf(s, ".%ue-%u", a, b % 45);
            break;
        case 5: /* short decimals exactly halfway between two floats: (2^24 + odd) / 2^m */
            sprintf(s, "%.*f", (int)(b % 11),
                    ((double)(1 << 24) + (double)(2 * (a % 1000) + 1)) / (double)(1 << (b % 11)));
            break;
        default: { /* a float halfway between two floats, written in full */
            float f = check_rng_float(&rng, 1, 2);
            double half = (double)f + (double)(nextafterf(f, 3.0f) - f) / 2;
            sprintf(s, "%.30g", half);
        }
        }
    }
    /* the reader over every magnitude; the loader over those a length may have (|x| <= 1e6) */
    for (int i = 0; i < COUNT; i++) {
        float read = 0.0f, expected = strtof(numbers[i], NULL);
        if (!CHECK(tdn_io__read_float(numbers[i], strlen(numbers[i]), &read) == TDN_IO__NUMBER_OK &&
                   memcmp(&read, &expected, sizeof(float)) == 0))
            fprintf(stderr, "  '%s' read as %.9g, strtof gives %.9g\n", numbers[i], (double)read, (double)expected);
        if (!(fabsf(expected) <= 1e6f))
            snprintf(numbers[i], sizeof numbers[i], "%s", "0");
    }
    size_t size = 256 + (size_t)COUNT * 64;
    char *text = malloc(size), *o = text;
    o += sprintf(o, "HIERARCHY\n");
    for (int i = 0; i < COUNT; i += 3)
        o += sprintf(o, "ROOT n%d\n{\n OFFSET %s %s %s\n}\n", i, numbers[i], numbers[i + 1], numbers[i + 2]);
    sprintf(o, "MOTION\nFrames: 1\nFrame Time: 1\n\n");
    tdn_asset *asset = load_ok(text, NULL);
    for (int i = 0; asset && i < COUNT; i += 3) {
        tdn_transform rest = tdn_skeleton_rest(tdn_asset_skeleton(asset), i / 3);
        float expected[3] = { strtof(numbers[i], NULL), strtof(numbers[i + 1], NULL), strtof(numbers[i + 2], NULL) };
        for (int k = 0; k < 3; k++)
            if (!CHECK(memcmp(&(&rest.t.x)[k], &expected[k], sizeof(float)) == 0))
                fprintf(stderr, "  '%s' read as %.9g, strtof gives %.9g\n", numbers[i + k], (double)(&rest.t.x)[k],
                        (double)expected[k]);
    }
    tdn_asset_destroy(asset);
    free(text);
    free(numbers);
}

/* ---- bad input ---- */

/* Loads through the counting allocator: the expected code, "line N", no asset, nothing left. */
static void expect_failure(const char *text, size_t size, tdn_result code, long long line, const char *about)
{
    tdn_asset_load_options options = { 0 };
    tdn_asset *asset = (tdn_asset *)&options; /* must come back NULL */
    tdn_error err = { 0 };
    long blocks_before = live_blocks;
    tdn_result r = load_sized(text, size, &options, &asset, &err);
    char where[32];
    snprintf(where, sizeof where, "line %lld", line);
    int ok = CHECK_EQ_INT(r, code);
    ok &= CHECK(strcmp(err.where, where) == 0);
    ok &= CHECK(err.message[0] != '\0');
    ok &= CHECK(asset == NULL);
    ok &= CHECK_EQ_INT(live_blocks, blocks_before);
    if (!ok)
        fprintf(stderr, "  case '%s': %s (%s): %s\n", about, tdn_result_name(r), err.where, err.message);
}

static const char *const valid_head = "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition "
                                      "Zposition Zrotation Xrotation Yrotation\n JOINT Leg\n {\n  OFFSET 0 -1 0\n"
                                      "  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 -1 0\n"
                                      "  }\n }\n}\nMOTION\n"; /* 16 lines; MOTION is line 16 */

static void malformed_texts_name_their_line(void)
{
    static const struct {
        const char *text;
        tdn_result code;
        int line;
    } cases[] = {
        { "", TDN_ERR_PARSE, 1 },
        { "  \n\n", TDN_ERR_PARSE, 1 },
        { "hello world", TDN_ERR_PARSE, 1 },
        { "\x01\x02\xff\n\x00zz", TDN_ERR_PARSE, 2 }, /* the NUL byte, refused wherever it is */
        { "HIERARCHY", TDN_ERR_PARSE, 1 },
        { "HIERARCHY\nMOTION\n", TDN_ERR_PARSE, 2 },
        { "HIERARCHY\nROOT\n", TDN_ERR_PARSE, 2 },
        { "HIERARCHY\nROOT {\n", TDN_ERR_PARSE, 2 },
        { "HIERARCHY\nROOT A\nOFFSET 0 0 0\n}\n", TDN_ERR_PARSE, 3 },         /* missing '{' */
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nMOTION\n", TDN_ERR_PARSE, 5 }, /* missing '}' */
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\n", TDN_ERR_PARSE, 4 },         /* ends inside */
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0\n}\n", TDN_ERR_PARSE, 5 },        /* OFFSET short */
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 zero\n}\n", TDN_ERR_PARSE, 4 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nOFFSET 0 0 0\n}\n", TDN_ERR_PARSE, 5 },
        { "HIERARCHY\nROOT A\n{\n}\nMOTION\n", TDN_ERR_PARSE, 4 }, /* no OFFSET */
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 nan\n}\n", TDN_ERR_INVALID_DATA, 4 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 -inf 0\n}\n", TDN_ERR_INVALID_DATA, 4 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 1e39 0\n}\n", TDN_ERR_INVALID_DATA, 4 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 -1.#IND 0\n}\n", TDN_ERR_INVALID_DATA, 4 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation\n}\n", TDN_ERR_PARSE, 6 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 2 Xrotation Yrotation Zrotation\n}\n", TDN_ERR_PARSE, 5 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 7 Xrotation\n}\n", TDN_ERR_PARSE, 5 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS -1\n}\n", TDN_ERR_PARSE, 5 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 2 Xrotation Xrotation\n}\n", TDN_ERR_PARSE, 5 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 1 Wrotation\n}\n", TDN_ERR_PARSE, 5 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 1 Xrotation\nCHANNELS 1 Yrotation\n}\n", TDN_ERR_PARSE, 6 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nROTATE 1\n}\n", TDN_ERR_PARSE, 5 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nEnd Site\n{\n}\n}\n", TDN_ERR_PARSE, 7 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nEnd\n{\n", TDN_ERR_PARSE, 6 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nJOINT A\n{\nOFFSET 0 0 0\n}\n}\nMOTION\n", TDN_ERR_INVALID_DATA, 5 },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\n}\nROOT A\n{\nOFFSET 0 0 0\n}\nMOTION\n", TDN_ERR_INVALID_DATA, 6 },
        { "HIERARCHY\nROOT a_name_that_is_far_too_long_for_tendon_to_keep_as_a_joint_name_x\n", TDN_ERR_INVALID_DATA,
          2 },
        { "HIERARCHY\nJOINT A\n{\n", TDN_ERR_PARSE, 2 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t size = strlen(cases[i].text);
        if (i == 3)
            size = 8; /* the NUL byte is part of this text */
        expect_failure(cases[i].text, size, cases[i].code, cases[i].line, cases[i].text);
    }
}

/* A '}' left out is told as one, with the joint whose block is still open and the line of its
 * '{'; when a '}' is indented unlike the line of the '{' it closes, that joint is named as the
 * likely one (braces alone cannot tell). */
static void missing_braces_name_the_open_joint(void)
{
    /* valid_head without a line: the root's "}" (line 15), or the leg's " }" (line 14) */
    char *no_root_brace = malloc(strlen(valid_head) + 1), *no_leg_brace = malloc(strlen(valid_head) + 1);
    const char *root_brace = strstr(valid_head, "\n}\nMOTION") + 1, *leg_brace = strstr(valid_head, "\n }\n") + 1;
    snprintf(no_root_brace, strlen(valid_head) + 1, "%.*s%s", (int)(root_brace - valid_head), valid_head,
             root_brace + 2);
    snprintf(no_leg_brace, strlen(valid_head) + 1, "%.*s%s", (int)(leg_brace - valid_head), valid_head, leg_brace + 3);
    static const char *const leg_hint = " (by the indentation, the one of joint 'Leg', opened at line 7)";
    const struct {
        const char *text;
        int line;
        const char *message;
    } cases[] = {
        { no_root_brace, 15, "MOTION inside joint 'Hips' (opened at line 3): a '}' is missing" },
        { no_leg_brace, 15, "MOTION inside joint 'Hips' (opened at line 3): a '}' is missing" },
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\n\n", 4,
          "the text ends inside joint 'A' (opened at line 3): a '}' is "
          "missing" },
        { "HIERARCHY\nROOT A\n  {\nOFFSET 0 0 0\nROOT B\n{\nOFFSET 0 0 0\n}\nMOTION\n", 5,
          "ROOT inside joint 'A' (opened at line 3): a '}' is missing" },
        /* not indented at all: no hint */
        { "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nJOINT B\n{\nOFFSET 0 0 0\n}\nMOTION\n", 9,
          "MOTION inside joint 'A' (opened at line 3): a '}' is missing" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expect_failure(cases[i].text, strlen(cases[i].text), TDN_ERR_PARSE, cases[i].line, cases[i].message);
        tdn_asset *asset = NULL;
        tdn_error err = { 0 };
        load_sized(cases[i].text, strlen(cases[i].text), NULL, &asset, &err);
        char expected[256];
        snprintf(expected, sizeof expected, "%s%s", cases[i].message, i == 1 ? leg_hint : "");
        if (!CHECK(strcmp(err.message, expected) == 0))
            fprintf(stderr, "  case %zu: '%s'\n    expected '%s'\n", i, err.message, expected);
    }
    free(no_root_brace);
    free(no_leg_brace);
}

static void malformed_motion_names_its_line(void)
{
    static const struct {
        const char *motion;
        tdn_result code;
        int line;
    } cases[] = {
        { "", TDN_ERR_PARSE, 16 },
        { "Frames: 1\n", TDN_ERR_PARSE, 17 },
        { "Frames 1\nFrame Time: 0.1\n", TDN_ERR_PARSE, 17 },
        { "Frames: 1.5\nFrame Time: 0.1\n", TDN_ERR_PARSE, 17 },
        { "Frames: x\nFrame Time: 0.1\n", TDN_ERR_PARSE, 17 },
        { "Frames: 0\nFrame Time: 0.1\n", TDN_ERR_INVALID_DATA, 17 },
        { "Frames: -3\nFrame Time: 0.1\n", TDN_ERR_INVALID_DATA, 17 },
        { "Frames: 99999999999999999999\nFrame Time: 0.1\n", TDN_ERR_INVALID_DATA, 17 },
        { "Frames: 100000000\nFrame Time: 0.1\n0 0 0 0 0 0 0 0 0\n", TDN_ERR_INVALID_DATA, 17 }, /* 9e8 values */
        { "Frames: 1\nFrame Time: 0\n0 0 0 0 0 0 0 0 0\n", TDN_ERR_INVALID_DATA, 18 },
        { "Frames: 1\nFrame Time: -0.1\n0 0 0 0 0 0 0 0 0\n", TDN_ERR_INVALID_DATA, 18 },
        { "Frames: 1\nFrame Time: nan\n0 0 0 0 0 0 0 0 0\n", TDN_ERR_INVALID_DATA, 18 },
        { "Frames: 1\nFrame Time: 1e999\n0 0 0 0 0 0 0 0 0\n", TDN_ERR_INVALID_DATA, 18 },
        { "Frames: 1\nFrame Time: fast\n0 0 0 0 0 0 0 0 0\n", TDN_ERR_PARSE, 18 },
        { "Frames: 3\nFrame Time: 1e-45\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n",
          TDN_ERR_INVALID_DATA, 18 }, /* times would not increase */
        { "Frames: 3\nFrame Time: 2e38\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n",
          TDN_ERR_INVALID_DATA, 18 }, /* frame 2 at 4e38 s: no float */
        { "Frames: 1\nFrame Time: 0.1 0 0 0 0 0 0 0 0 0\n", TDN_ERR_PARSE, 18 },
        { "Frames: 1\nFrame Time: 0.1\n", TDN_ERR_PARSE, 18 },                                     /* no frame at all */
        { "Frames: 2\nFrame Time: 0.1\n0 0 0\n", TDN_ERR_PARSE, 19 },                              /* only a cut one */
        { "Frames: 2\nFrame Time: 0.1\n0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n", TDN_ERR_PARSE, 19 }, /* short */
        { "Frames: 2\nFrame Time: 0.1\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n", TDN_ERR_PARSE, 19 }, /* long */
        { "Frames: 1\nFrame Time: 0.1\n0 0 0 0 0 0 0 0 0 0\n", TDN_ERR_PARSE, 19 },
        { "Frames: 2\nFrame Time: 0.1\n0 0 0 0 0 0 0 0 0\n0 0 nan 0 0 0 0 0 0\n", TDN_ERR_INVALID_DATA, 20 },
        { "Frames: 2\nFrame Time: 0.1\n0 0 0 0 0 0 0 0 0\n0 0 0 0 INF 0 0 0 0\n", TDN_ERR_INVALID_DATA, 20 },
        { "Frames: 2\nFrame Time: 0.1\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 1e40\n", TDN_ERR_INVALID_DATA, 20 },
        { "Frames: 2\nFrame Time: 0.1\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 x 0\n", TDN_ERR_PARSE, 20 },
        { "Frames: 2\nFrame Time: 0.1\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0.0.0\n", TDN_ERR_PARSE, 20 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s", valid_head, cases[i].motion);
        expect_failure(text, strlen(text), cases[i].code, cases[i].line, cases[i].motion);
    }
    /* A NUL inside a joint name would cut it short ("ab"): refused, naming its line. */
    const char nul_name[] = "HIERARCHY\nROOT ab\0cd\n{\nOFFSET 0 0 0\n}\nMOTION\nFrames: 1\nFrame Time: 1\n\n";
    expect_failure(nul_name, sizeof nul_name - 1, TDN_ERR_PARSE, 2, "a NUL in a joint name");
    /* An import scale outside [1e-6, 1e6] is refused before anything is read. */
    const char *one = "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 1 Xposition\n}\nMOTION\nFrames: 1\n"
                      "Frame Time: 1\n1e3\n";
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    CHECK_EQ_INT(
        tdn_asset_load_memory(one, strlen(one), &(tdn_asset_load_options){ .scale = 1e10f }, &asset, NULL, &err),
        TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "options.scale") == 0 && !asset);
    /* Lengths beyond 1e6 (so that model space stays finite however long the chain): a position
     * in a frame, or an OFFSET; rotations beyond 1e6 degrees. */
    const char *far_frame = "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 1 Xposition\nJOINT B\n{\nOFFSET 0 0 0\n"
                            "CHANNELS 1 Yrotation\n}\n}\nMOTION\nFrames: 3\nFrame Time: 1\n1e6 -1e6\n1.0000001e6 0\n"
                            "0 0\n";
    expect_failure(far_frame, strlen(far_frame), TDN_ERR_INVALID_DATA, 16, "far frame");
    const char *turned = "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 1 Xrotation\n}\nMOTION\nFrames: 2\n"
                         "Frame Time: 1\n0\n-2e6\n";
    expect_failure(turned, strlen(turned), TDN_ERR_INVALID_DATA, 11, "turned too far");
    const char *far_rest = "HIERARCHY\nROOT A\n{\nOFFSET 1e6 0 0\nJOINT B\n{\nOFFSET 0 0 -1e7\n}\n}\nMOTION\n"
                           "Frames: 1\nFrame Time: 1\n\n";
    expect_failure(far_rest, strlen(far_rest), TDN_ERR_INVALID_DATA, 7, "far rest");
    /* Frame Time in [1e-4, 1e6] s and a take of at most 1e6 s, also without channels (where no
     * frame is read): 2,000,000,000 frames of 1/30 s last 6.7e7 s. */
    const char *long_take = "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 0\n}\nMOTION\nFrames: 2000000000\n"
                            "Frame Time: 0.0333333\n";
    expect_failure(long_take, strlen(long_take), TDN_ERR_INVALID_DATA, 9, "a take of 6.7e7 s");
    const char *slow = "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 0\n}\nMOTION\nFrames: 1\nFrame Time: 1e38\n";
    expect_failure(slow, strlen(slow), TDN_ERR_INVALID_DATA, 9, "Frame Time 1e38");
}

static void too_many_joints_is_refused(void)
{
    enum { JOINTS = TDN_MAX_JOINTS + 1 };
    char *text = malloc((size_t)JOINTS * 48 + 64), *o = text; /* either text below fits */
    o += sprintf(o, "HIERARCHY\n");
    for (int j = 0; j < JOINTS; j++)
        o += sprintf(o, "ROOT j%d { OFFSET 0 0 0 }\n", j);
    sprintf(o, "MOTION\n");
    expect_failure(text, strlen(text), TDN_ERR_INVALID_DATA, JOINTS + 1, "32768 joints");
    /* One fewer is a skeleton (deeply nested, so nothing may recurse per level). */
    o = text;
    o += sprintf(o, "HIERARCHY\nROOT j0 { OFFSET 0 0 0 CHANNELS 1 Zrotation\n");
    for (int j = 1; j < TDN_MAX_JOINTS; j++)
        o += sprintf(o, "JOINT j%d { OFFSET 0 1 0\n", j);
    for (int j = 0; j < TDN_MAX_JOINTS; j++)
        *o++ = '}', *o++ = ' ';
    sprintf(o, "\nMOTION\nFrames: 1\nFrame Time: 1\n5\n");
    tdn_asset *asset = load_ok(text, NULL);
    CHECK(asset && tdn_skeleton_joint_count(tdn_asset_skeleton(asset)) == TDN_MAX_JOINTS);
    tdn_asset_destroy(asset);
    free(text);
}

static void every_prefix_of_a_valid_text_loads_or_fails_cleanly(void)
{
    char full[1024];
    snprintf(full, sizeof full,
             "%sFrames: 3\r\nFrame Time: 0.5\r\n1 2 3 4 5 6 7 8 9\r\n-1 -2 -3 -4 -5 -6 -7 -8 -9\r\n"
             "10.5 20.25 30 40 50 60 70 80 90\r\n",
             valid_head);
    const size_t n = strlen(full);
    int loaded = 0;
    for (size_t size = 0; size <= n; size++) {
        tdn_asset_load_options options = { 0 };
        tdn_asset *asset = NULL;
        tdn_error err = { 0 };
        tdn_result r = load_sized(full, size, &options, &asset, &err);
        long long lines = 1;
        for (size_t i = 0; i < size; i++)
            lines += full[i] == '\n';
        if (r == TDN_OK) {
            loaded++;
            const tdn_keyed_clip *clip = tdn_asset_clip(asset, 0);
            int frames = tdn_keyed_clip_key_count(clip) / 3; /* 3 tracks */
            CHECK(frames >= 1 && frames <= 3);
            CHECK_EQ_INT(tdn_asset_warning_count(asset), frames < 3);
            tdn_asset_destroy(asset);
        } else {
            long long line = 0;
            CHECK(r == TDN_ERR_PARSE || r == TDN_ERR_INVALID_DATA);
            CHECK(sscanf(err.where, "line %lld", &line) == 1 && line >= 1 && line <= lines);
            CHECK(asset == NULL);
        }
        CHECK_EQ_INT(live_blocks, 0);
    }
    CHECK(loaded > 0);
}

static void failing_allocations_leave_nothing(void)
{
    int succeeded = 0;
    for (long fail_at = 0; fail_at < 64 && !succeeded; fail_at++) {
        allocations_before_failure = fail_at;
        tdn_asset_load_options options = { 0 };
        tdn_asset *asset = NULL;
        tdn_error err = { 0 };
        tdn_result r = load_sized(channel_mix, strlen(channel_mix), &options, &asset, &err);
        allocations_before_failure = -1;
        CHECK(r == TDN_OK || r == TDN_ERR_OUT_OF_MEMORY);
        CHECK((r == TDN_OK) == (asset != NULL));
        succeeded = r == TDN_OK;
        tdn_asset_destroy(asset);
        CHECK_EQ_INT(live_blocks, 0);
    }
    CHECK(succeeded);
}

static void bad_arguments(void)
{
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_asset_load_memory(NULL, 5, NULL, &asset, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_asset_load_memory(channel_mix, strlen(channel_mix), NULL, NULL, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_asset_load_memory(channel_mix, strlen(channel_mix), &(tdn_asset_load_options){ .scale = NAN },
                                       &asset, NULL, &err),
                 TDN_ERR_ARGUMENT);
    CHECK(asset == NULL);
    CHECK_EQ_INT(tdn_asset_load_memory(NULL, 0, NULL, &asset, NULL, NULL), TDN_ERR_PARSE);
}

int main(void)
{
    RUN(every_rotation_order_composes_intrinsically);
    RUN(channels_any_subset_and_positions_replace_offset);
    RUN(asset_shape_rest_pose_and_end_sites);
    RUN(layouts_line_ends_and_bom_read_the_same);
    RUN(scale_multiplies_every_length);
    RUN(frames_are_keys_at_multiples_of_the_frame_time);
    RUN(slerp_between_frames_takes_the_short_way);
    RUN(single_frame_is_a_take_of_no_duration);
    RUN(frame_count_disagreements_keep_complete_frames);
    RUN(numbers_read_exactly_as_strtof);
    RUN(malformed_texts_name_their_line);
    RUN(missing_braces_name_the_open_joint);
    RUN(malformed_motion_names_its_line);
    RUN(too_many_joints_is_refused);
    RUN(every_prefix_of_a_valid_text_loads_or_fails_cleanly);
    RUN(failing_allocations_leave_nothing);
    RUN(bad_arguments);
    return check_summary();
}
