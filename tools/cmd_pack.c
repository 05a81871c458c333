/* tendon pack: skeletons and skinned meshes of glTF and BVH files (or the generated humanoid)
 * into one runtime pack (docs/cli.md, docs/pack-format.md). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "tendon/io/humanoid.h"
#include "output_file.h"
#include "tendon/pack.h"

static void usage(FILE *out)
{
    fputs("usage: tendon pack IN... --out OUT.tdn [--scale S] [--skin NAME|INDEX] [--allow-files DIR]...\n"
          "  IN               a .gltf, .glb or .bvh file, or `humanoid` for tendon's generated one\n"
          "  --out OUT.tdn    the pack to write (replaced only once complete)\n"
          "  --scale S        multiply every length by S (for example 0.01 for centimetres); the\n"
          "                   humanoid is made S times its 1.8 m\n"
          "  --skin NAME|INDEX  the glTF skin whose skeleton and meshes are packed (default: the first)\n"
          "  --allow-files DIR  the files a glTF names (external buffers) are read below its folder, the\n"
          "                   current folder and TENDON_DATA (when set); this allows DIR too (repeatable)\n"
          "Each IN gives one skeleton, named after the file (without folder and extension), and its\n"
          "skinned meshes; a line per object packed is printed. This version packs skeletons and\n"
          "meshes: the files' clips are listed but not packed yet.\n",
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

/* The asset's skeleton and meshes into the writer, a line each. */
static int pack_asset(tdn_pack_writer *w, const char *in, const tdn_asset *asset)
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
    /* CLIPS: the asset's keyed clips go here, compressed, one 'CLIP' section each
     * (tdn_pack_writer_add_section), once the compressed clip storage lands. */
    if (tdn_asset_clip_count(asset) > 0)
        printf("  (%d clip%s not packed: this version packs skeletons and meshes)\n", tdn_asset_clip_count(asset),
               tdn_asset_clip_count(asset) == 1 ? "" : "s");
    return CLI_OK;
}

int cmd_pack(int argc, char **argv)
{
    cli_common common = { 0 };
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
        const int taken = strcmp(argv[i], "--json") == 0 ? 0 : cli_common_option("pack", argc, argv, &i, &common);
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
            code = pack_asset(w, inputs[i], asset);
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
        if (code == CLI_OK)
            printf("wrote %s: %zu bytes\n", cli_text(out, name, sizeof name), size);
    }
    tdn_pack_writer_destroy(w);
    free(inputs);
    return code;
}
