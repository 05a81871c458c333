/* A character from a runtime pack with the core library alone: read the file, open the pack
 * over its bytes, build its graph from the stored definition (nothing is parsed), and play it.
 *
 * Make the pack with `tendon pack --graph examples/graphs/blendmotion.json --out blendmotion.tdn`.
 * Usage: packed_character PACK.tdn [GRAPH_NAME] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tendon/tendon.h>

/* The file's bytes in memory aligned as tdn_pack_open requires; NULL when it cannot be read. */
static void *read_aligned(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0)
        return f ? (fclose(f), NULL) : NULL;
    const long n = ftell(f);
    void *bytes = n > 0 ? aligned_alloc(TDN_PACK_ALIGN,
                                        ((size_t)n + TDN_PACK_ALIGN - 1) / TDN_PACK_ALIGN * TDN_PACK_ALIGN)
                        : NULL;
    rewind(f);
    if (bytes && fread(bytes, 1, (size_t)n, f) != (size_t)n) {
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    *size = bytes ? (size_t)n : 0;
    return bytes;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: packed_character PACK.tdn [GRAPH_NAME]\n");
        return 2;
    }
    size_t size = 0;
    void *bytes = read_aligned(argv[1], &size);
    tdn_pack *pack = NULL;
    tdn_packed_graph *packed = NULL;
    tdn_graph_instance *instance = NULL;
    tdn_error err = { 0 };
    tdn_result r = bytes ? tdn_pack_open(bytes, size, &pack, NULL, &err) : TDN_ERR_IO;
    const int chosen = r != TDN_OK ? -1 : argc > 2 ? tdn_pack_find_graph(pack, argv[2]) : 0;
    if (r == TDN_OK && chosen < 0) {
        fprintf(stderr, "packed_character: %s has no graph named '%s'\n", argv[1], argv[2]);
        tdn_pack_destroy(pack);
        free(bytes);
        return 1;
    }
    if (r == TDN_OK) /* a graph without a definition (motion matching) loads with libtendon_io */
        r = tdn_packed_graph_create(pack, chosen, NULL, &packed, NULL, &err);
    if (r == TDN_OK)
        r = tdn_graph_instance_create(tdn_packed_graph_graph(packed), &instance, NULL, &err);
    if (r != TDN_OK) {
        fprintf(stderr, "packed_character: %s: %s: %s\n", argv[1], bytes ? err.where : "",
                bytes ? err.message : "cannot read it");
        tdn_packed_graph_destroy(packed);
        tdn_pack_destroy(pack);
        free(bytes);
        return 1;
    }
    const tdn_graph *g = tdn_packed_graph_graph(packed);
    const tdn_skeleton *skeleton = tdn_packed_graph_desc(packed)->skeleton;
    printf("graph '%s': %d nodes, %d parameters, %d clips, %d joints\n", tdn_pack_graph_name(pack, chosen),
           tdn_graph_node_count(g), tdn_graph_param_count(g), tdn_packed_graph_desc(packed)->clip_count,
           tdn_skeleton_joint_count(skeleton));

    /* Two seconds at 60 Hz, walking forward where the graph is BlendMotion's (a vec2 "move"
     * and a float "speed" in metres per second; other graphs play as they start). */
    const int move = tdn_graph_find_param(g, "move"), speed = tdn_graph_find_param(g, "speed");
    if (move >= 0 && tdn_graph_param_type(g, move) == TDN_PARAM_VEC2)
        tdn_graph_set_vector(instance, move, (const float[3]){ 0.0f, 1.4f, 0.0f }, NULL);
    if (speed >= 0 && tdn_graph_param_type(g, speed) == TDN_PARAM_FLOAT)
        tdn_graph_set_float(instance, speed, 1.4f, NULL);
    tdn_pose pose;
    tdn_pose_create(tdn_skeleton_joint_count(skeleton), &pose, NULL, NULL);
    float travelled = 0.0f;
    for (int frame = 0; frame < 120; frame++) {
        tdn_graph_update(instance, 1.0f / 60.0f, NULL);
        tdn_graph_evaluate(instance, &pose, NULL);
        tdn_root_motion step;
        if (tdn_graph_root_motion(instance, &step, NULL) == TDN_OK)
            travelled += tdn_vec3_length(step.translation);
    }
    const tdn_transform hips = tdn_pose_get(&pose, 1);
    printf("after 2 s: joint 1 at (%.3f, %.3f, %.3f), root motion %.2f m\n", (double)hips.t.x, (double)hips.t.y,
           (double)hips.t.z, (double)travelled);
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(instance);
    tdn_packed_graph_destroy(packed);
    tdn_pack_destroy(pack);
    free(bytes);
    return 0;
}
