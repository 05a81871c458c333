/* tendon CLI: the clips of `tendon mm build` and `tendon mm run` (see mm_source.h). */
#include "mm_source.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void mm_source_free(mm_source *s)
{
    for (int i = 0; s->assets && i < s->file_count; i++)
        tdn_asset_destroy(s->assets[i]);
    free(s->assets);
    free(s->clips);
    free(s->clip_file);
    free(s->mirror);
    memset(s, 0, sizeof *s);
}

/* Joint j's name for messages. */
static const char *joint_name(const tdn_skeleton *skel, int j)
{
    const char *name = tdn_skeleton_joint_name(skel, j);
    return name && name[0] ? name : "?";
}

int mm_source_load(const char *command, char **files, int count, const cli_common *common, mm_source *out)
{
    memset(out, 0, sizeof *out);
    out->files = files;
    out->assets = calloc((size_t)count + 1, sizeof *out->assets);
    if (!out->assets) {
        fprintf(stderr, "tendon %s: out of memory\n", command);
        return CLI_FAILURE;
    }
    out->file_count = count;
    int clips = 0;
    for (int i = 0; i < count; i++) {
        int code = cli_load(command, files[i], common, &out->assets[i]);
        if (code != CLI_OK) {
            mm_source_free(out);
            return code;
        }
        const tdn_skeleton *first = tdn_asset_skeleton(out->assets[0]), *skel = tdn_asset_skeleton(out->assets[i]);
        const int n = tdn_skeleton_joint_count(first), m = tdn_skeleton_joint_count(skel);
        const char *why = NULL;
        char detail[512] = "";
        if (m != n) {
            snprintf(detail, sizeof detail, "%d joints, %s has %d", m, files[0], n);
            why = detail;
        }
        for (int j = 0; !why && j < n; j++)
            if (tdn_skeleton_parent(skel, j) != tdn_skeleton_parent(first, j)) {
                int p = tdn_skeleton_parent(skel, j), q = tdn_skeleton_parent(first, j);
                snprintf(detail, sizeof detail,
                         "joint %d (%s) has parent %d (%s), in %s joint %d (%s) has parent %d (%s)", j,
                         joint_name(skel, j), p, p >= 0 ? joint_name(skel, p) : "none", files[0], j,
                         joint_name(first, j), q, q >= 0 ? joint_name(first, q) : "none");
                why = detail;
            }
        if (why) {
            fprintf(stderr, "tendon %s: %s: another skeleton: %s (every file must be the same rig)\n", command,
                    files[i], why);
            mm_source_free(out);
            return CLI_BAD_INPUT;
        }
        if (tdn_asset_clip_count(out->assets[i]) == 0) {
            fprintf(stderr, "tendon %s: %s: no clips\n", command, files[i]);
            mm_source_free(out);
            return CLI_BAD_INPUT;
        }
        clips += tdn_asset_clip_count(out->assets[i]);
    }
    out->skeleton = tdn_asset_skeleton(out->assets[0]);
    const int joints = tdn_skeleton_joint_count(out->skeleton);
    out->clips = calloc((size_t)clips + 1, sizeof *out->clips);
    out->clip_file = calloc((size_t)clips + 1, sizeof *out->clip_file);
    out->mirror = calloc((size_t)joints + 1, sizeof *out->mirror);
    if (!out->clips || !out->clip_file || !out->mirror) {
        fprintf(stderr, "tendon %s: out of memory\n", command);
        mm_source_free(out);
        return CLI_FAILURE;
    }
    for (int i = 0; i < count; i++)
        for (int c = 0; c < tdn_asset_clip_count(out->assets[i]); c++) {
            out->clip_file[out->clip_count] = i;
            out->clips[out->clip_count++] = tdn_asset_clip(out->assets[i], c);
        }
    tdn_error err = { 0 };
    tdn_result r = tdn_mirror_table_from_names(out->skeleton, out->mirror, &err);
    if (r != TDN_OK) {
        int code = cli_report(command, r, &err);
        mm_source_free(out);
        return code;
    }
    for (int j = 0; j < joints; j++)
        out->mirror_pairs += out->mirror[j] != j;
    return CLI_OK;
}

int mm_find_joint(const tdn_skeleton *skel, const char *name_or_index)
{
    int j = tdn_skeleton_find_joint(skel, name_or_index);
    if (j >= 0)
        return j;
    char *end;
    long i = strtol(name_or_index, &end, 10);
    if (end != name_or_index && *end == '\0' && i >= 0 && i < tdn_skeleton_joint_count(skel))
        return (int)i;
    return -1;
}

int mm_clip_frames(const tdn_keyed_clip *clip, float rate)
{
    const float last = floorf(tdn_keyed_clip_duration(clip) * rate + 1e-3f); /* counted before it is an int */
    return last < (float)MM_MAX_CLIP_FRAMES ? (int)last + 1 : -1;
}
