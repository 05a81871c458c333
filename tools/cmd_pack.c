/* tendon pack: skeletons, compressed clips and skinned meshes of glTF and BVH files (or the
 * generated humanoid) into one runtime pack (docs/cli.md, docs/pack-format.md). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_compress.h"
#include "commands.h"
#include "tendon/io/humanoid.h"
#include "output_file.h"
#include "tendon/pack.h"

static void usage(FILE *out)
{
    fputs("usage: tendon pack IN... --out OUT.tdn [--error CM] [--shell CM] [--scale S] [--skin NAME|INDEX]\n"
          "                   [--allow-files DIR]...\n"
          "  IN               a .gltf, .glb or .bvh file, or `humanoid` for tendon's generated one\n"
          "  --out OUT.tdn    the pack to write (replaced only once complete)\n"
          "  --error CM       each clip is compressed so that vertices --shell CM (default 3) from every\n"
          "  --shell CM       joint move at most --error CM (default 0.01) in model space, lengths in\n"
          "                   metres after --scale (as tendon sample --compressed)\n"
          "  --scale S        multiply every length by S (for example 0.01 for centimetres); the\n"
          "                   humanoid is made S times its 1.8 m\n"
          "  --skin NAME|INDEX  the glTF skin whose skeleton and meshes are packed (default: the first)\n"
          "  --allow-files DIR  the files a glTF names (external buffers) are read below its folder, the\n"
          "                   current folder and TENDON_DATA (when set); this allows DIR too (repeatable)\n"
          "Each IN gives one skeleton, named after the file (without folder and extension), its clips\n"
          "(compressed, keeping their names) and its skinned meshes; a line per object packed is\n"
          "printed, for a clip its raw size (float32 frames: 40 bytes per joint per distinct key time),\n"
          "its packed size, their ratio and its largest and 99th-percentile error in cm (between\n"
          "frames included), and a total line.\n",
          out);
}

/* The asset for one IN: the humanoid, or a file. */
static int load_input(const char *in, const cli_common *common, tdn_asset **out)
{
    if (strcmp(in, "humanoid") != 0)
        return cli_load("pack", in, common, out);
    /* every length scaled, speeds too (its clips keep their cycles) */
    const float scale = common->scale > 0.0f ? common->scale : 1.0f;
    tdn_humanoid_desc desc = { 0 };
    desc.height = 1.8f * scale;
    desc.walk_speed = 1.4f * scale;
    desc.run_speed = 3.5f * scale;
    tdn_error err = { 0 };
    const tdn_result res = tdn_humanoid_create(&desc, out, NULL, &err);
    return res == TDN_OK ? CLI_OK : cli_report("pack", res, &err);
}

/* What the clips packed so far cost. */
typedef struct totals {
    double raw, bytes, largest_cm;
    int clips;
} totals;

/* The asset's clips compressed into the writer, animating skeleton `skeleton`, a line each. */
static int pack_clips(tdn_pack_writer *w, const tdn_asset *asset, int skeleton, const cli_compress *compress,
                      totals *sum)
{
    char name[CLI_TEXT_SIZE];
    for (int i = 0; i < tdn_asset_clip_count(asset); i++) {
        const tdn_keyed_clip *keys = tdn_asset_clip(asset, i);
        const tdn_clip_desc desc = cli_compress_desc(compress, keys);
        tdn_clip *clip = NULL;
        tdn_error err = { 0 };
        tdn_result res = tdn_clip_create(&desc, &clip, NULL, &err);
        if (res == TDN_OK)
            res = tdn_pack_writer_add_clip(w, clip, skeleton, NULL, &err);
        if (res != TDN_OK) {
            tdn_clip_destroy(clip);
            return cli_report("pack", res, &err);
        }
        const cli_compression c = cli_compression_of(keys, clip, desc.shell_distance);
        printf("  clip         %-24s %9.0f bytes raw, %8zu packed, %6.2f:1",
               cli_text(tdn_clip_name(clip), name, sizeof name), c.raw, c.bytes, c.raw / (double)c.bytes);
        if (c.measured)
            printf(", largest error %.4f cm, 99th percentile %.4f cm\n", 100.0 * c.error.max_error,
                   100.0 * c.error.p99_error);
        else
            printf(" (its error could not be measured)\n");
        sum->raw += c.raw;
        sum->bytes += (double)c.bytes;
        sum->largest_cm = c.measured && 100.0 * c.error.max_error > sum->largest_cm ? 100.0 * c.error.max_error
                                                                                    : sum->largest_cm;
        sum->clips++;
        tdn_clip_destroy(clip);
    }
    return CLI_OK;
}

/* The asset's skeleton, clips and meshes into the writer, a line each. */
static int pack_asset(tdn_pack_writer *w, const char *in, const tdn_asset *asset, const cli_compress *compress,
                      totals *sum)
{
    char stem[256], name[CLI_TEXT_SIZE];
    cli_file_stem(in, stem, sizeof stem);
    const tdn_skeleton *skeleton = tdn_asset_skeleton(asset);
    tdn_error err = { 0 };
    int index = -1;
    tdn_result res = tdn_pack_writer_add_skeleton(w, stem, skeleton, &index, &err);
    if (res != TDN_OK)
        return cli_report("pack", res, &err);
    printf("  skeleton %d  %-24s %5d joints\n", index, cli_text(stem, name, sizeof name),
           tdn_skeleton_joint_count(skeleton));
    const int code = pack_clips(w, asset, index, compress, sum);
    if (code != CLI_OK)
        return code;
    for (int i = 0; i < tdn_asset_mesh_count(asset); i++) {
        const tdn_asset_mesh m = tdn_asset_mesh_at(asset, i);
        const tdn_pack_mesh p = { m.name, index,    m.vertex_count, m.influence_sets, m.positions,  m.normals,
                                  NULL,   m.joints, m.weights,      m.indices,        m.index_count };
        res = tdn_pack_writer_add_mesh(w, &p, &err);
        if (res != TDN_OK)
            return cli_report("pack", res, &err);
        printf("  mesh         %-24s %5d vertices, %d triangles, %d influences%s\n",
               cli_text(m.name, name, sizeof name), m.vertex_count, m.index_count / 3, 4 * m.influence_sets,
               m.normals ? ", normals" : "");
    }
    return CLI_OK;
}

int cmd_pack(int argc, char **argv)
{
    cli_common common = { 0 };
    cli_compress compress = { 0 };
    totals sum = { 0 };
    const char *out = NULL;
    const char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
    int input_count = 0;
    if (!inputs)
        return CLI_FAILURE;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            free(inputs);
            return CLI_OK;
        }
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
            continue;
        }
        int taken = strcmp(argv[i], "--json") == 0 ? 0 : cli_common_option("pack", argc, argv, &i, &common);
        if (!taken)
            taken = cli_compress_option("pack", argc, argv, &i, &compress);
        if (taken < 0) {
            free(inputs);
            return CLI_BAD_INPUT;
        }
        if (taken)
            continue;
        if (argv[i][0] == '-') {
            fprintf(stderr, "tendon pack: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            free(inputs);
            return CLI_BAD_INPUT;
        }
        inputs[input_count++] = argv[i];
    }
    if (!out || input_count == 0) {
        fprintf(stderr, "tendon pack: %s\n", !out ? "--out OUT.tdn is required" : "no input to pack");
        usage(stderr);
        free(inputs);
        return CLI_BAD_INPUT;
    }
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    tdn_result res = tdn_pack_writer_create(&w, NULL, &err);
    int code = res == TDN_OK ? CLI_OK : cli_report("pack", res, &err);
    char name[CLI_TEXT_SIZE];
    for (int i = 0; i < input_count && code == CLI_OK; i++) {
        tdn_asset *asset = NULL;
        code = load_input(inputs[i], &common, &asset);
        if (code == CLI_OK) {
            printf("%s:\n", cli_text(inputs[i], name, sizeof name));
            code = pack_asset(w, inputs[i], asset, &compress, &sum);
        }
        tdn_asset_destroy(asset);
    }
    if (code == CLI_OK) {
        void *bytes = NULL;
        size_t size = 0;
        res = tdn_pack_writer_save_memory(w, &bytes, &size, NULL, &err);
        if (res == TDN_OK)
            res = tdn_io__write_file(out, bytes, size, &err);
        tdn_free(bytes, size, NULL);
        code = res == TDN_OK ? CLI_OK : cli_report("pack", res, &err);
        if (code == CLI_OK && sum.clips > 0)
            printf("%d clip%s: %.0f bytes raw, %.0f packed, %.2f:1, largest error %.4f cm\n", sum.clips,
                   sum.clips == 1 ? "" : "s", sum.raw, sum.bytes, sum.raw / sum.bytes, sum.largest_cm);
        if (code == CLI_OK)
            printf("wrote %s: %zu bytes\n", cli_text(out, name, sizeof name), size);
    }
    tdn_pack_writer_destroy(w);
    free(inputs);
    return code;
}
