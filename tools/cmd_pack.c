/* tendon pack: skeletons, compressed clips and skinned meshes of glTF and BVH files (or the
 * generated humanoid), and a graph document with its character and clips, into one runtime pack
 * (docs/cli.md, docs/pack-format.md). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_compress.h"
#include "commands.h"
#include "tendon/io/graph_document.h"
#include "tendon/io/humanoid.h"
#include "output_file.h"
#include "tendon/pack.h"

static void usage(FILE *out)
{
    fputs("usage: tendon pack [IN...] [--graph GRAPH.json] --out OUT.tdn [--error CM] [--shell CM] [--scale S]\n"
          "                   [--skin NAME|INDEX] [--allow-files DIR]...\n"
          "  IN               a .gltf, .glb or .bvh file, or `humanoid` for tendon's generated one\n"
          "  --graph GRAPH.json  a graph document (docs/graph-format.md), loaded with its clips compressed\n"
          "                   (--error, --shell): its character's skeleton and skinned meshes, every clip it\n"
          "                   plays under the name it calls it by, each motion_match node's database under\n"
          "                   its file name, and its text, as a graph named after the file, which tendon run\n"
          "                   OUT.tdn runs (IN may then be left out; --scale and --skin do not apply to it:\n"
          "                   the document says them)\n"
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

/* A skinned mesh's report line. */
static void print_mesh(tdn_asset_mesh m)
{
    char name[CLI_TEXT_SIZE];
    printf("  mesh         %-24s %5d vertices, %d triangles, %d influences%s\n", cli_text(m.name, name, sizeof name),
           m.vertex_count, m.index_count / 3, 4 * m.influence_sets, m.normals ? ", normals" : "");
}

/* The report line of a document's clip: its source's raw size and its error when its source is
 * the character's clip of the same name and it is not additive (the pack holds the clip; its
 * build kept it within the threshold), else its packed size alone. */
static void graph_clip_line(const tdn_graph_document *doc, int c, float shell, totals *sum)
{
    char name[CLI_TEXT_SIZE];
    const tdn_clip *clip = tdn_graph_document_clip(doc, c);
    const tdn_asset *asset = tdn_graph_document_asset(doc);
    const int source = tdn_asset_find_clip(asset, tdn_clip_name(clip));
    const tdn_keyed_clip *keys = source >= 0 && !tdn_clip_is_additive(clip) ? tdn_asset_clip(asset, source) : NULL;
    printf("  clip         %-24s ", cli_text(tdn_graph_document_clip_name(doc, c), name, sizeof name));
    if (!keys) {
        printf("%9s           %8zu packed (%s)\n", "", tdn_clip_memory_size(clip),
               tdn_clip_is_additive(clip) ? "additive" : "from another file");
        return;
    }
    const cli_compression k = cli_compression_of(keys, clip, shell);
    printf("%9.0f bytes raw, %8zu packed, %6.2f:1", k.raw, k.bytes, k.raw / (double)k.bytes);
    if (k.measured)
        printf(", largest error %.4f cm, 99th percentile %.4f cm\n", 100.0 * k.error.max_error,
               100.0 * k.error.p99_error);
    else
        printf(" (its error could not be measured)\n");
    sum->raw += k.raw;
    sum->bytes += (double)k.bytes;
    sum->largest_cm = k.measured && 100.0 * k.error.max_error > sum->largest_cm ? 100.0 * k.error.max_error
                                                                                : sum->largest_cm;
    sum->clips++;
}

/* The motion_match nodes' part of what the writer holds (read back from its image): a line per
 * clip of skeleton `skeleton` that no clip node plays (packed for a node), and per database
 * (its image's bytes). Returns whether the graph added last has its definition. */
static int print_motion_matching(const tdn_pack_writer *w, const tdn_graph_document *doc, int skeleton)
{
    int defined = 0;
    void *bytes = NULL;
    size_t size = 0;
    tdn_pack *pack = NULL;
    char name[CLI_TEXT_SIZE];
    if (tdn_pack_writer_save_memory(w, &bytes, &size, NULL, NULL) == TDN_OK &&
        tdn_pack_open(bytes, size, &pack, NULL, NULL) == TDN_OK) {
        for (int i = 0; i < tdn_pack_clip_count(pack); i++) {
            int played = tdn_pack_clip_skeleton(pack, i) != skeleton;
            for (int c = 0; c < tdn_graph_document_clip_count(doc) && !played; c++)
                played = strcmp(tdn_graph_document_clip_name(doc, c), tdn_pack_clip_name(pack, i)) == 0;
            if (!played)
                printf("  clip         %-24s compressed for a motion_match node\n",
                       cli_text(tdn_pack_clip_name(pack, i), name, sizeof name));
        }
        for (int i = 0; i < tdn_pack_database_count(pack); i++) {
            size_t image = 0;
            tdn_pack_database_image(pack, i, &image);
            printf("  database     %-24s %9zu bytes\n", cli_text(tdn_pack_database_name(pack, i), name, sizeof name),
                   image);
        }
        defined = tdn_pack_graph_has_definition(pack, tdn_pack_graph_count(pack) - 1);
    }
    tdn_pack_destroy(pack);
    tdn_free(bytes, size, NULL);
    return defined;
}

/* --graph: the document loaded with compressed clips, then its character, clips and text into the
 * writer as skeleton `skeleton` (tdn_pack_writer_add_graph_document), a line each. */
static int pack_graph(tdn_pack_writer *w, const char *path, int skeleton, const cli_common *common,
                      const cli_compress *compress, totals *sum)
{
    const tdn_clip_desc threshold = cli_compress_desc(compress, NULL);
    cli_access access;
    const tdn_graph_document_load_options options = { .file_access = cli_file_access(&access, &common->files, path),
                                                      .clip_storage = TDN_STORAGE_COMPRESSED,
                                                      .error_threshold = threshold.error_threshold,
                                                      .shell_distance = threshold.shell_distance };
    tdn_graph_document *doc = NULL;
    tdn_error err = { 0 };
    void *json = NULL;
    size_t size = 0;
    tdn_result res = tdn_graph_document_load(path, &options, &doc, NULL, &err);
    if (res == TDN_OK)
        res = tdn_file_read(NULL, path, &json, &size, NULL, &err);
    char stem[256], name[CLI_TEXT_SIZE];
    cli_file_stem(path, stem, sizeof stem);
    if (res == TDN_OK)
        res = tdn_pack_writer_add_graph_document(w, stem, doc, json, size, &err);
    const int code = res == TDN_OK ? CLI_OK : cli_report("pack", res, &err);
    if (code == CLI_OK) {
        const tdn_skeleton *k = tdn_graph_document_skeleton(doc);
        const tdn_asset *asset = tdn_graph_document_asset(doc);
        char shown[CLI_TEXT_SIZE];
        printf("%s:\n  skeleton %d  %-24s %5d joints\n", cli_text(path, shown, sizeof shown), skeleton,
               cli_text(stem, name, sizeof name), tdn_skeleton_joint_count(k));
        for (int c = 0; c < tdn_graph_document_clip_count(doc); c++)
            graph_clip_line(doc, c, threshold.shell_distance, sum);
        const int defined = print_motion_matching(w, doc, skeleton);
        for (int i = 0; i < tdn_asset_mesh_count(asset); i++)
            print_mesh(tdn_asset_mesh_at(asset, i));
        printf("  graph        %-24s %5d clips, %zu bytes of JSON%s\n", cli_text(stem, name, sizeof name),
               tdn_graph_document_clip_count(doc), size, defined ? " and its definition" : "");
    }
    tdn_free(json, size, NULL);
    tdn_graph_document_destroy(doc);
    return code;
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
        print_mesh(m);
    }
    return CLI_OK;
}

int cmd_pack(int argc, char **argv)
{
    cli_common common = { 0 };
    cli_compress compress = { 0 };
    totals sum = { 0 };
    const char *out = NULL, *graph = NULL;
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
        if (strcmp(argv[i], "--graph") == 0 && i + 1 < argc) {
            graph = argv[++i];
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
    if (!out || (input_count == 0 && !graph)) {
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
    if (code == CLI_OK && graph) /* the skeletons of the inputs come first */
        code = pack_graph(w, graph, input_count, &common, &compress, &sum);
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
