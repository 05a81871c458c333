/* tendon info: what a glTF, BVH or pack file holds (docs/cli.md). */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "tendon/io/pack_file.h"

static void usage(FILE *out)
{
    fputs("usage: tendon info FILE [--json] [--skin NAME|INDEX] [--scale S] [--allow-files DIR]...\n"
          "  FILE             a .gltf, .glb or .bvh file, or a pack (tendon pack)\n"
          "  --json           one JSON object: format, skeleton joints (name, parent), clips (name,\n"
          "                   duration, channels, keys), skins and meshes\n"
          "  --skin NAME|INDEX  the glTF skin whose joints are listed (default: the first)\n"
          "  --scale S        multiply every length by S (for example 0.01 for centimetres)\n"
          "  --allow-files DIR  the files a glTF names (external buffers) are read below its folder, the\n"
          "                   current folder and TENDON_DATA (when set); this allows DIR too (repeatable)\n"
          "Joints are listed parent before child, as tendon stores them; BVH End Sites are not\n"
          "joints. A clip's channels and keys count what it animates of the listed skeleton (the\n"
          "chosen skin's joints and their ancestor nodes): other skins' channels are not counted.\n"
          "Unnamed glTF things are node_<i>, skin_<i>, mesh_<i>, animation_<i>. A pack lists its\n"
          "skeletons (with their joints), clips (name, skeleton, duration, frames, bytes, the joint of\n"
          "a stored root track), meshes, graphs (whether each has its definition, which loads without\n"
          "parsing its JSON), motion-matching databases (name, skeleton, frames, features, clips,\n"
          "bytes) and sections (kind, bytes).\n",
          out);
}

static const char *format_name(tdn_asset_format f) { return f == TDN_FORMAT_BVH ? "bvh" : "gltf"; }

/* Clip i's channels over what its keys count, the clip as imported for the listed skeleton
 * (tdn_asset_clip_channel_count counts the whole file's: every skin's). BVH: its channel
 * columns, all of the one skeleton. glTF: the translation, rotation and scale channels of the
 * skeleton's nodes (one joint track each) and the weights channels the clip keeps (one float
 * track per morph target, "<node>.weights[<k>]": counted once, by target 0). */
static int clip_channels(const tdn_asset *a, int i)
{
    if (tdn_asset_format_of(a) == TDN_FORMAT_BVH)
        return tdn_asset_clip_channel_count(a, i);
    const tdn_keyed_clip *clip = tdn_asset_clip(a, i);
    int n = tdn_keyed_clip_track_count(clip);
    for (int k = 0; k < tdn_keyed_clip_float_track_count(clip); k++)
        n += cli_ends_with(tdn_keyed_clip_float_track_name(clip, k), ".weights[0]", 0);
    return n;
}

static int print_json(const tdn_asset *a)
{
    const tdn_skeleton *skel = tdn_asset_skeleton(a);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "format", format_name(tdn_asset_format_of(a)));
    cJSON *joints = cJSON_AddArrayToObject(cJSON_AddObjectToObject(doc, "skeleton"), "joints");
    for (int i = 0; i < tdn_asset_joint_count(a); i++) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", tdn_skeleton_joint_name(skel, tdn_asset_joint(a, i)));
        cJSON_AddNumberToObject(j, "parent", tdn_asset_joint_parent(a, i));
        cJSON_AddItemToArray(joints, j);
    }
    cJSON *clips = cJSON_AddArrayToObject(doc, "clips");
    for (int i = 0; i < tdn_asset_clip_count(a); i++) {
        const tdn_keyed_clip *clip = tdn_asset_clip(a, i);
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "name", tdn_keyed_clip_name(clip));
        cJSON_AddItemToObject(c, "duration", cli_json_float(tdn_keyed_clip_duration(clip)));
        cJSON_AddNumberToObject(c, "channels", clip_channels(a, i));
        cJSON_AddNumberToObject(c, "keys", tdn_keyed_clip_key_count(clip));
        cJSON_AddItemToArray(clips, c);
    }
    cJSON *skins = cJSON_AddArrayToObject(doc, "skins");
    for (int i = 0; i < tdn_asset_skin_count(a); i++) {
        cJSON *s = cJSON_CreateObject();
        cJSON_AddStringToObject(s, "name", tdn_asset_skin_name(a, i));
        cJSON_AddNumberToObject(s, "joints", tdn_asset_skin_joint_count(a, i));
        cJSON_AddBoolToObject(s, "chosen", i == tdn_asset_chosen_skin(a));
        cJSON_AddItemToArray(skins, s);
    }
    cJSON *meshes = cJSON_AddArrayToObject(doc, "meshes");
    for (int i = 0; i < tdn_asset_mesh_count(a); i++) {
        tdn_asset_mesh m = tdn_asset_mesh_at(a, i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", m.name);
        cJSON_AddNumberToObject(o, "vertices", m.vertex_count);
        cJSON_AddNumberToObject(o, "triangles", m.index_count / 3);
        cJSON_AddNumberToObject(o, "influences", 4 * m.influence_sets);
        cJSON_AddBoolToObject(o, "normals", m.normals != NULL);
        cJSON_AddItemToArray(meshes, o);
    }
    return cli_json_print(doc);
}

static void print_text(const char *path, const tdn_asset *a)
{
    const tdn_skeleton *skel = tdn_asset_skeleton(a);
    int listed = tdn_asset_joint_count(a), all = tdn_skeleton_joint_count(skel);
    char name[CLI_TEXT_SIZE], other[CLI_TEXT_SIZE];
    printf("%s: %s, %d joints", cli_text(path, name, sizeof name), format_name(tdn_asset_format_of(a)), listed);
    if (all > listed)
        printf(" (and %d ancestor node%s in model space)", all - listed, all - listed == 1 ? "" : "s");
    printf(", %d clip%s, %d skin%s, %d mesh%s\n", tdn_asset_clip_count(a), tdn_asset_clip_count(a) == 1 ? "" : "s",
           tdn_asset_skin_count(a), tdn_asset_skin_count(a) == 1 ? "" : "s", tdn_asset_mesh_count(a),
           tdn_asset_mesh_count(a) == 1 ? "" : "es");
    printf("\njoints (parent first):\n");
    for (int i = 0; i < listed; i++) {
        int parent = tdn_asset_joint_parent(a, i);
        printf("  %4d  %-40s", i, cli_text(tdn_skeleton_joint_name(skel, tdn_asset_joint(a, i)), name, sizeof name));
        if (parent >= 0)
            printf("  parent %d %s\n", parent,
                   cli_text(tdn_skeleton_joint_name(skel, tdn_asset_joint(a, parent)), other, sizeof other));
        else
            printf("  root\n");
    }
    if (tdn_asset_clip_count(a) > 0) {
        printf("\nclips:\n");
        for (int i = 0; i < tdn_asset_clip_count(a); i++) {
            const tdn_keyed_clip *clip = tdn_asset_clip(a, i);
            printf("  %4d  %-24s %9.4f s  %5d channels  %7d keys\n", i,
                   cli_text(tdn_keyed_clip_name(clip), name, sizeof name), (double)tdn_keyed_clip_duration(clip),
                   clip_channels(a, i), tdn_keyed_clip_key_count(clip));
        }
    }
    if (tdn_asset_skin_count(a) > 0) {
        printf("\nskins:\n");
        for (int i = 0; i < tdn_asset_skin_count(a); i++)
            printf("  %4d  %-24s %5d joints%s\n", i, cli_text(tdn_asset_skin_name(a, i), name, sizeof name),
                   tdn_asset_skin_joint_count(a, i), i == tdn_asset_chosen_skin(a) ? "  (listed above)" : "");
    }
    if (tdn_asset_mesh_count(a) > 0) {
        printf("\nskinned meshes:\n");
        for (int i = 0; i < tdn_asset_mesh_count(a); i++) {
            tdn_asset_mesh m = tdn_asset_mesh_at(a, i);
            printf("  %4d  %-24s %7d vertices, %7d triangles, %d influences%s\n", i,
                   cli_text(m.name, name, sizeof name), m.vertex_count, m.index_count / 3, 4 * m.influence_sets,
                   m.normals ? ", normals" : "");
        }
    }
}

/* ---- packs ---- */

static void kind_text(uint32_t kind, char out[5])
{
    for (int b = 0; b < 4; b++) {
        const unsigned char c = (unsigned char)(kind >> (8 * b));
        out[b] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    out[4] = '\0';
}

/* A clip's frames (its duration at its sample rate), and the bytes of clip i's section. */
static int clip_frames(const tdn_clip *c) { return (int)lround(tdn_clip_duration(c) * tdn_clip_sample_rate(c)) + 1; }
static size_t clip_section_bytes(const tdn_pack *p, int clip)
{
    for (int s = 0; s < tdn_pack_section_count(p); s++)
        if (tdn_pack_section_kind(p, s) == TDN_PACK_FOURCC('C', 'L', 'I', 'P') && clip-- == 0) {
            size_t size = 0;
            tdn_pack_section_bytes(p, s, &size);
            return size;
        }
    return 0;
}

/* Database i's counts (loaded from the pack: a copy, freed here); zeros when it cannot be loaded. */
typedef struct database_counts {
    int frames, features, clips;
} database_counts;
static database_counts database_counts_of(const tdn_pack *p, int i)
{
    database_counts c = { 0, 0, 0 };
    tdn_mm_database *db = NULL;
    if (tdn_pack_database_load(p, i, &db, NULL, NULL) == TDN_OK) {
        c.frames = tdn_mm_database_frame_count(db);
        c.features = tdn_mm_database_dimensions(db);
        c.clips = tdn_mm_database_clip_count(db);
    }
    tdn_mm_database_destroy(db);
    return c;
}

/* The joint whose root track frames the pack stores for the clip (the first), or -1. */
static int root_track_joint(const tdn_pack *p, int clip)
{
    const int joints = tdn_skeleton_joint_count(tdn_pack_skeleton(p, tdn_pack_clip_skeleton(p, clip)));
    for (int j = 0; j < joints; j++)
        if (tdn_pack_has_root_track(p, clip, j))
            return j;
    return -1;
}

static int print_pack_json(const tdn_pack *p)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "format", "pack");
    cJSON_AddNumberToObject(doc, "version", TDN_PACK_VERSION);
    cJSON *skeletons = cJSON_AddArrayToObject(doc, "skeletons");
    for (int s = 0; s < tdn_pack_skeleton_count(p); s++) {
        const tdn_skeleton *k = tdn_pack_skeleton(p, s);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", tdn_pack_skeleton_name(p, s));
        cJSON *joints = cJSON_AddArrayToObject(o, "joints");
        for (int j = 0; j < tdn_skeleton_joint_count(k); j++) {
            cJSON *jo = cJSON_CreateObject();
            cJSON_AddStringToObject(jo, "name", tdn_skeleton_joint_name(k, j));
            cJSON_AddNumberToObject(jo, "parent", tdn_skeleton_parent(k, j));
            cJSON_AddItemToArray(joints, jo);
        }
        cJSON_AddItemToArray(skeletons, o);
    }
    cJSON *clips = cJSON_AddArrayToObject(doc, "clips");
    for (int i = 0; i < tdn_pack_clip_count(p); i++) {
        const tdn_clip *c = tdn_pack_clip(p, i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", tdn_pack_clip_name(p, i));
        cJSON_AddNumberToObject(o, "skeleton", tdn_pack_clip_skeleton(p, i));
        cJSON_AddItemToObject(o, "duration", cli_json_float(tdn_clip_duration(c)));
        cJSON_AddNumberToObject(o, "frames", clip_frames(c));
        cJSON_AddNumberToObject(o, "bytes", (double)clip_section_bytes(p, i));
        const int root = root_track_joint(p, i);
        if (root >= 0)
            cJSON_AddNumberToObject(o, "root_track_joint", root);
        cJSON_AddItemToArray(clips, o);
    }
    cJSON *meshes = cJSON_AddArrayToObject(doc, "meshes");
    for (int i = 0; i < tdn_pack_mesh_count(p); i++) {
        const tdn_pack_mesh m = tdn_pack_mesh_at(p, i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", m.name);
        cJSON_AddNumberToObject(o, "skeleton", m.skeleton);
        cJSON_AddNumberToObject(o, "vertices", m.vertex_count);
        cJSON_AddNumberToObject(o, "triangles", m.index_count / 3);
        cJSON_AddNumberToObject(o, "influences", 4 * m.influence_sets);
        cJSON_AddBoolToObject(o, "normals", m.normals != NULL);
        cJSON_AddBoolToObject(o, "uvs", m.uvs != NULL);
        cJSON_AddItemToArray(meshes, o);
    }
    cJSON *graphs = cJSON_AddArrayToObject(doc, "graphs");
    for (int i = 0; i < tdn_pack_graph_count(p); i++) {
        size_t size = 0;
        tdn_pack_graph_json(p, i, &size);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", tdn_pack_graph_name(p, i));
        cJSON_AddNumberToObject(o, "skeleton", tdn_pack_graph_skeleton(p, i));
        cJSON_AddNumberToObject(o, "json_bytes", (double)size);
        cJSON_AddBoolToObject(o, "definition", tdn_pack_graph_has_definition(p, i));
        cJSON_AddItemToArray(graphs, o);
    }
    cJSON *databases = cJSON_AddArrayToObject(doc, "databases");
    for (int i = 0; i < tdn_pack_database_count(p); i++) {
        size_t size = 0;
        tdn_pack_database_image(p, i, &size);
        const database_counts c = database_counts_of(p, i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", tdn_pack_database_name(p, i));
        cJSON_AddNumberToObject(o, "skeleton", tdn_pack_database_skeleton(p, i));
        cJSON_AddNumberToObject(o, "frames", c.frames);
        cJSON_AddNumberToObject(o, "features", c.features);
        cJSON_AddNumberToObject(o, "clips", c.clips);
        cJSON_AddNumberToObject(o, "bytes", (double)size);
        cJSON_AddItemToArray(databases, o);
    }
    cJSON *sections = cJSON_AddArrayToObject(doc, "sections");
    for (int s = 0; s < tdn_pack_section_count(p); s++) {
        char kind[5];
        size_t size = 0;
        tdn_pack_section_bytes(p, s, &size);
        kind_text(tdn_pack_section_kind(p, s), kind);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", kind);
        cJSON_AddNumberToObject(o, "bytes", (double)size);
        cJSON_AddItemToArray(sections, o);
    }
    return cli_json_print(doc);
}

static void print_pack_text(const char *path, const tdn_pack *p)
{
    char name[CLI_TEXT_SIZE], other[CLI_TEXT_SIZE];
    const int skeletons = tdn_pack_skeleton_count(p), meshes = tdn_pack_mesh_count(p), clips = tdn_pack_clip_count(p);
    const int graphs = tdn_pack_graph_count(p), databases = tdn_pack_database_count(p);
    char listed[48] = ""; /* databases, when it has any */
    if (databases > 0)
        snprintf(listed, sizeof listed, ", %d database%s", databases, databases == 1 ? "" : "s");
    printf("%s: pack (version %d), %d skeleton%s, %d clip%s, %d mesh%s, %d graph%s%s, %d section%s\n",
           cli_text(path, name, sizeof name), TDN_PACK_VERSION, skeletons, skeletons == 1 ? "" : "s", clips,
           clips == 1 ? "" : "s", meshes, meshes == 1 ? "" : "es", graphs, graphs == 1 ? "" : "s", listed,
           tdn_pack_section_count(p), tdn_pack_section_count(p) == 1 ? "" : "s");
    for (int s = 0; s < skeletons; s++) {
        const tdn_skeleton *k = tdn_pack_skeleton(p, s);
        printf("\nskeleton %d %s, %d joints (parent first):\n", s,
               cli_text(tdn_pack_skeleton_name(p, s), name, sizeof name), tdn_skeleton_joint_count(k));
        for (int j = 0; j < tdn_skeleton_joint_count(k); j++) {
            const int parent = tdn_skeleton_parent(k, j);
            printf("  %4d  %-40s", j, cli_text(tdn_skeleton_joint_name(k, j), name, sizeof name));
            if (parent >= 0)
                printf("  parent %d %s\n", parent, cli_text(tdn_skeleton_joint_name(k, parent), other, sizeof other));
            else
                printf("  root\n");
        }
    }
    if (clips > 0) {
        printf("\nclips (compressed):\n");
        for (int i = 0; i < clips; i++) {
            const tdn_clip *c = tdn_pack_clip(p, i);
            const int root = root_track_joint(p, i);
            printf("  %4d  %-24s skeleton %d, %8.3f s, %6d frames, %9zu bytes", i,
                   cli_text(tdn_pack_clip_name(p, i), name, sizeof name), tdn_pack_clip_skeleton(p, i),
                   (double)tdn_clip_duration(c), clip_frames(c), clip_section_bytes(p, i));
            if (root >= 0)
                printf(", root track of joint %d", root);
            printf("\n");
        }
    }
    if (meshes > 0) {
        printf("\nskinned meshes:\n");
        for (int i = 0; i < meshes; i++) {
            const tdn_pack_mesh m = tdn_pack_mesh_at(p, i);
            printf("  %4d  %-24s %7d vertices, %7d triangles, %d influences%s%s, skeleton %d\n", i,
                   cli_text(m.name, name, sizeof name), m.vertex_count, m.index_count / 3, 4 * m.influence_sets,
                   m.normals ? ", normals" : "", m.uvs ? ", uvs" : "", m.skeleton);
        }
    }
    if (graphs > 0) {
        printf("\ngraphs (tendon run %s --graph NAME):\n", cli_text(path, other, sizeof other));
        for (int i = 0; i < graphs; i++) {
            size_t size = 0;
            tdn_pack_graph_json(p, i, &size);
            printf("  %4d  %-24s skeleton %d, %zu bytes of JSON%s\n", i,
                   cli_text(tdn_pack_graph_name(p, i), name, sizeof name), tdn_pack_graph_skeleton(p, i), size,
                   tdn_pack_graph_has_definition(p, i) ? ", and its definition (loads without parsing the JSON)" : "");
        }
    }
    if (databases > 0) {
        printf("\nmotion-matching databases:\n");
        for (int i = 0; i < databases; i++) {
            size_t size = 0;
            tdn_pack_database_image(p, i, &size);
            const database_counts c = database_counts_of(p, i);
            printf("  %4d  %-24s skeleton %d, %7d frames, %3d features, %3d clips, %9zu bytes\n", i,
                   cli_text(tdn_pack_database_name(p, i), name, sizeof name), tdn_pack_database_skeleton(p, i),
                   c.frames, c.features, c.clips, size);
        }
    }
    printf("\nsections:\n");
    for (int s = 0; s < tdn_pack_section_count(p); s++) {
        char kind[5];
        size_t size = 0;
        tdn_pack_section_bytes(p, s, &size);
        kind_text(tdn_pack_section_kind(p, s), kind);
        printf("  %4d  %s %10zu bytes\n", s, kind, size);
    }
}

static int info_pack(const char *path, const cli_common *common)
{
    cli_access access;
    tdn_pack_file_load_options options = { 0 };
    options.file_access = cli_file_access(&access, &common->files, path);
    tdn_pack_file *file = NULL;
    tdn_error err = { 0 };
    const tdn_result res = tdn_pack_file_load(path, &options, &file, NULL, &err);
    if (res != TDN_OK)
        return cli_report("info", res, &err);
    int code = CLI_OK;
    if (common->json)
        code = print_pack_json(tdn_pack_file_pack(file));
    else
        print_pack_text(path, tdn_pack_file_pack(file));
    tdn_pack_file_destroy(file);
    return code;
}

int cmd_info(int argc, char **argv)
{
    cli_common common = { 0 };
    const char *path = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return CLI_OK;
        }
        int taken = cli_common_option("info", argc, argv, &i, &common);
        if (taken < 0)
            return CLI_BAD_INPUT;
        if (taken)
            continue;
        if (argv[i][0] == '-' || path) {
            fprintf(stderr, "tendon info: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return CLI_BAD_INPUT;
        }
        path = argv[i];
    }
    if (!path) {
        usage(stderr);
        return CLI_BAD_INPUT;
    }
    if (cli_is_pack(path))
        return info_pack(path, &common);
    tdn_asset *asset;
    int code = cli_load("info", path, &common, &asset);
    if (code != CLI_OK)
        return code;
    if (common.json)
        code = print_json(asset);
    else
        print_text(path, asset);
    tdn_asset_destroy(asset);
    return code;
}
