/* tendon core: mirror tables from joint names, and mirroring poses across x = 0. */
#include <stdio.h>

#include "internal.h"
#include "tendon/mirror.h"

typedef struct side_marker {
    const char *left, *right;
    enum { AT_END, AT_START, ANYWHERE } at;
} side_marker;

static const side_marker markers[] = {
    { "_l", "_r", AT_END },   { "_L", "_R", AT_END },   { ".l", ".r", AT_END },        { ".L", ".R", AT_END },
    { "l_", "r_", AT_START }, { "L_", "R_", AT_START }, { "left", "right", AT_START }, { "Left", "Right", ANYWHERE },
};

/* Writes into `out` the name with `from` (found at `at` in `name`) replaced by `to`; 0 when
 * `from` is not there or the result does not fit. */
static int swap_marker(const char *name, const char *from, const char *to, int at, char *out, size_t size)
{
    size_t n = strlen(name), f = strlen(from);
    const char *found = NULL;
    if (n <= f)
        return 0;
    if (at == AT_END)
        found = strcmp(name + n - f, from) == 0 ? name + n - f : NULL;
    else if (at == AT_START)
        found = strncmp(name, from, f) == 0 ? name : NULL;
    else
        found = strstr(name, from);
    if (!found)
        return 0;
    int written = snprintf(out, size, "%.*s%s%s", (int)(found - name), name, to, found + f);
    return written > 0 && (size_t)written < size;
}

/* The partner of joint j by name, or j. */
static int partner_by_name(const tdn_skeleton *skeleton, int j)
{
    const char *name = tdn_skeleton_joint_name(skeleton, j);
    char other[TDN_MAX_JOINT_NAME + 8];
    for (size_t m = 0; m < sizeof markers / sizeof markers[0]; m++) {
        const side_marker *s = &markers[m];
        int found = -1;
        if (swap_marker(name, s->left, s->right, (int)s->at, other, sizeof other) ||
            swap_marker(name, s->right, s->left, (int)s->at, other, sizeof other))
            found = tdn_skeleton_find_joint(skeleton, other);
        if (found >= 0)
            return found;
    }
    return j;
}

tdn_result tdn_mirror_table_from_names(const tdn_skeleton *skeleton, int *table, tdn_error *err)
{
    if (!skeleton || !table)
        return tdn__null(err, !skeleton ? "skeleton" : "table");
    int n = tdn_skeleton_joint_count(skeleton);
    for (int j = 0; j < n; j++)
        table[j] = partner_by_name(skeleton, j);
    /* A name that pairs one way only (say "a_l" with "a_r" while "a_r" found "Left" first) is
     * left unpaired rather than mirrored half-way. */
    for (int j = 0; j < n; j++)
        if (table[table[j]] != j)
            table[j] = j;
    for (int j = 0; j < n; j++)
        if (table[table[j]] != j)
            table[j] = j;
    return TDN_OK;
}

tdn_result tdn_mirror_table_check(const int *table, int joint_count, tdn_error *err)
{
    if (!table || joint_count < 1)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "mirror table", "NULL table or no joints");
    for (int j = 0; j < joint_count; j++) {
        char where[48];
        snprintf(where, sizeof where, "mirror[%d]", j);
        if (table[j] < 0 || table[j] >= joint_count)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "partner %d is not a joint (0..%d)", table[j],
                             joint_count - 1);
        if (table[table[j]] != j)
            return tdn__fail(err, TDN_ERR_INVALID_DATA, where, "joint %d's partner is %d, whose partner is %d", j,
                             table[j], table[table[j]]);
    }
    return TDN_OK;
}

/* Reflection across x = 0 of joint `from` of `in`, written as joint `to` of the row pointers. */
static void reflect(float *const *rows_out, const float *const *rows_in, int to, int from)
{
    static const float sign[TDN_POSE_ROWS] = { -1, 1, 1, 1, -1, -1, 1, 1, 1, 1 };
    for (int r = 0; r < TDN_POSE_ROWS; r++)
        rows_out[r][to] = sign[r] * rows_in[r][from];
}

tdn_result tdn_pose_mirror(const tdn_pose *pose, const int *table, tdn_pose *out, tdn_error *err)
{
    if (!pose || !table || !out)
        return tdn__null(err, !pose ? "pose" : !table ? "table" : "out");
    if (pose->joint_count != out->joint_count)
        return tdn__pose_size(err, "out", out->joint_count, pose->joint_count, "the pose");
    const float *in_rows[TDN_POSE_ROWS];
    float *out_rows[TDN_POSE_ROWS];
    for (int r = 0; r < TDN_POSE_ROWS; r++) {
        in_rows[r] = tdn_pose_crow(pose, r);
        out_rows[r] = tdn_pose_row(out, r);
    }
    /* Pairs are swapped together so that out may be pose. */
    for (int j = 0; j < pose->joint_count; j++) {
        int p = table[j];
        if (p < 0 || p >= pose->joint_count) {
            char where[32];
            snprintf(where, sizeof where, "table[%d]", j);
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "partner %d is not a joint (0..%d)", p,
                             pose->joint_count - 1);
        }
        if (p < j)
            continue;
        if (p == j) {
            reflect(out_rows, in_rows, j, j);
            continue;
        }
        float a[TDN_POSE_ROWS], b[TDN_POSE_ROWS];
        for (int r = 0; r < TDN_POSE_ROWS; r++)
            a[r] = in_rows[r][j], b[r] = in_rows[r][p];
        const float *ra[TDN_POSE_ROWS], *rb[TDN_POSE_ROWS];
        for (int r = 0; r < TDN_POSE_ROWS; r++)
            ra[r] = &a[r], rb[r] = &b[r];
        reflect(out_rows, rb, j, 0);
        reflect(out_rows, ra, p, 0);
    }
    return TDN_OK;
}
