/* tendon CLI: compressed runtime clips (cli_compress.h). */
#include "cli_compress.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_compress_option(const char *command, int argc, char **argv, int *i, cli_compress *c)
{
    const char *arg = argv[*i];
    if (strcmp(arg, "--error") != 0 && strcmp(arg, "--shell") != 0)
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "tendon %s: %s needs a value\n", command, arg);
        return -1;
    }
    float *cm = arg[2] == 'e' ? &c->error_cm : &c->shell_cm;
    if (!cli_parse_float(command, arg, argv[++*i], cm))
        return -1;
    if (!(*cm > 0.0f) || *cm > 1e6f) {
        fprintf(stderr, "tendon %s: %s is a length in cm above 0, not '%s'\n", command, arg, argv[*i]);
        return -1;
    }
    return 1;
}

tdn_clip_desc cli_compress_desc(const cli_compress *c, const tdn_keyed_clip *keys)
{
    tdn_clip_desc desc = { .source = keys, .position_tolerance = FLT_MAX, .rotation_tolerance = FLT_MAX };
    desc.storage = TDN_STORAGE_COMPRESSED;
    desc.error_threshold = 0.01f * (c->error_cm > 0.0f ? c->error_cm : 0.01f);
    desc.shell_distance = 0.01f * (c->shell_cm > 0.0f ? c->shell_cm : 3.0f);
    return desc;
}

cli_compression cli_compression_of(const tdn_keyed_clip *keys, const tdn_clip *clip, float shell)
{
    cli_compression out = { 0 };
    out.raw = 40.0 * tdn_skeleton_joint_count(tdn_keyed_clip_skeleton(keys)) * tdn_keyed_clip_key_times(keys, NULL, 0);
    out.bytes = tdn_clip_memory_size(clip);
    const tdn_clip_error_desc measure = { .clip = clip, .source = keys, .shell_distance = shell };
    out.measured = tdn_clip_measure_error(&measure, &out.error, NULL, NULL) == TDN_OK;
    return out;
}
