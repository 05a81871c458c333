/* Graph documents in runtime packs (tdn_pack_writer_add_graph_document,
 * tdn_graph_document_load_pack): the BlendMotion graph on the generated humanoid, loaded from
 * its JSON with compressed clips, packed, opened and loaded from the pack, evaluates
 * bit-identically (local poses, model matrices and root motion) over ten seconds of the
 * scripted play of examples/blendmotion.c; what a pack cannot give (a missing clip, a motion
 * matching node, a retarget) is refused naming the place; loading from a pack allocates what it
 * frees and reads no file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "tendon/tendon_io.h"

#define BLENDMOTION TENDON_SOURCE_DIR "/examples/graphs/blendmotion.json"

static char *read_text(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc(*size + 1);
    CHECK(fread(text, 1, *size, f) == *size);
    text[*size] = '\0';
    fclose(f);
    return text;
}

/* The clips' bytes of the document loaded with COMPRESSED (bit_identical), for compressed_load. */
static size_t compressed_bytes;

static const tdn_graph_document_load_options COMPRESSED = { .clip_storage = TDN_STORAGE_COMPRESSED,
                                                            .error_threshold = 1e-4f,
                                                            .shell_distance = 0.03f };

/* A pack image of `document` (its text `json`) made by the writer. */
static void pack_document(const tdn_graph_document *document, const char *json, size_t size, void **bytes,
                          size_t *bytes_size)
{
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_graph_document(w, "blendmotion", document, json, size, &err) == TDN_OK);
    CHECK(tdn_pack_writer_save_memory(w, bytes, bytes_size, NULL, &err) == TDN_OK);
    tdn_pack_writer_destroy(w);
}

/* ---- the scripted play (examples/blendmotion.c) ---- */

typedef struct controls {
    float move[2], turn, aim[2];
    int aiming, hand;
    const char *fire;
} controls;

static controls script(int frame)
{
    const float t = (float)frame / 60.0f;
    controls c = { { 0, 0 }, 0, { 0, 0 }, 0, 0, NULL };
    if (t >= 1.0f && t < 3.0f)
        c.move[1] = 1.4f;
    else if (t >= 3.0f && t < 6.0f)
        c.move[1] = 3.5f;
    else if (t >= 6.0f && t < 7.5f)
        c.move[0] = 1.4f;
    if (t >= 9.0f)
        c.turn = 1.0f;
    if (t >= 5.0f && t < 8.0f) {
        c.aiming = 1;
        const float a = (t - 5.0f) * 2.0f * 3.14159265f / 1.5f;
        c.aim[0] = sinf(a);
        c.aim[1] = 0.6f * cosf(a);
    }
    c.hand = t >= 5.5f && t < 8.0f ? 1 : t >= 8.0f && t < 9.5f ? 2 : 0;
    static const struct {
        int frame;
        const char *name;
    } EVENTS[] = { { 90, "point" },    { 210, "wave" },   { 390, "hitFront" },
                   { 414, "hitLeft" }, { 456, "reload" }, { 558, "hitBack" } };
    for (size_t k = 0; k < sizeof EVENTS / sizeof EVENTS[0]; k++)
        if (frame == EVENTS[k].frame)
            c.fire = EVENTS[k].name;
    return c;
}

static void drive(tdn_graph_instance *g, const tdn_graph *graph, int frame)
{
    const controls c = script(frame);
    tdn_graph_set_vector(g, tdn_graph_find_param(graph, "move"), c.move, NULL);
    tdn_graph_set_float(g, tdn_graph_find_param(graph, "speed"), sqrtf(c.move[0] * c.move[0] + c.move[1] * c.move[1]),
                        NULL);
    tdn_graph_set_float(g, tdn_graph_find_param(graph, "turn"), c.turn, NULL);
    tdn_graph_set_bool(g, tdn_graph_find_param(graph, "aiming"), c.aiming, NULL);
    tdn_graph_set_vector(g, tdn_graph_find_param(graph, "aim"), c.aim, NULL);
    tdn_graph_set_int(g, tdn_graph_find_param(graph, "hand"), c.hand, NULL);
    /* the action and hit layers shown from when their trigger fires (blendmotion.c watches the
     * machines too; the frames after a trigger are what matters here) */
    tdn_graph_set_float(g, tdn_graph_find_param(graph, "upperWeight"), frame >= 90 ? 1.0f : 0.0f, NULL);
    tdn_graph_set_float(g, tdn_graph_find_param(graph, "hitWeight"), frame >= 390 ? 1.0f : 0.0f, NULL);
    if (c.fire)
        CHECK(tdn_graph_fire_trigger_named(g, c.fire, NULL) == TDN_OK);
}

static void bit_identical(void)
{
    size_t size = 0;
    char *json = read_text(BLENDMOTION, &size);
    tdn_graph_document *memory = NULL, *packed = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_graph_document_load(BLENDMOTION, &COMPRESSED, &memory, NULL, &err) == TDN_OK);
    void *bytes = NULL;
    size_t bytes_size = 0;
    pack_document(memory, json, size, &bytes, &bytes_size);
    tdn_pack *pack = NULL;
    CHECK(tdn_pack_open(bytes, bytes_size, &pack, NULL, &err) == TDN_OK);
    const long before = total_allocations;
    /* the pack's instances sample through clip caches, the document's without: the same bits */
    const tdn_graph_document_load_options cached = { .clip_caches = 1 };
    CHECK(tdn_graph_document_load_pack(pack, 0, &cached, &packed, &counting, &err) == TDN_OK);
    CHECK(total_allocations > before);

    /* what the pack holds: the humanoid's mesh, every clip under the document's names */
    CHECK_EQ_INT(tdn_pack_mesh_count(pack), tdn_asset_mesh_count(tdn_graph_document_asset(memory)));
    CHECK(tdn_pack_mesh_count(pack) >= 1);
    CHECK(tdn_graph_document_asset(packed) == NULL);
    CHECK(tdn_graph_document_skeleton(packed) == tdn_pack_skeleton(pack, 0));
    const int clips = tdn_graph_document_clip_count(memory);
    CHECK(clips >= 20);
    CHECK_EQ_INT(tdn_graph_document_clip_count(packed), clips);
    CHECK_EQ_INT(tdn_pack_clip_count(pack), clips);
    for (int c = 0; c < clips; c++) {
        const char *name = tdn_graph_document_clip_name(memory, c);
        CHECK(strcmp(tdn_graph_document_clip_name(packed, c), name) == 0);
        CHECK(tdn_graph_document_clip(packed, c) == tdn_pack_clip(pack, tdn_pack_find_clip(pack, name)));
        CHECK_EQ_INT(tdn_clip_is_additive(tdn_graph_document_clip(packed, c)),
                     tdn_clip_is_additive(tdn_graph_document_clip(memory, c)));
        CHECK(tdn_clip_memory_size(tdn_graph_document_clip(packed, c)) == 0); /* the pack's bytes */
        compressed_bytes += tdn_clip_memory_size(tdn_graph_document_clip(memory, c));
    }
    CHECK(tdn_pack_find_clip(pack, "aim_up_add") >= 0 &&
          tdn_clip_is_additive(tdn_pack_clip(pack, tdn_pack_find_clip(pack, "aim_up_add"))));

    const tdn_graph *gm = tdn_graph_document_graph(memory), *gp = tdn_graph_document_graph(packed);
    /* a cache per clip node: two frames of the pose at least each */
    CHECK(tdn_graph_instance_bytes(gp) >
          tdn_graph_instance_bytes(gm) +
              (size_t)clips * 2 * tdn_pose_bytes(tdn_skeleton_joint_count(tdn_graph_document_skeleton(memory))));
    const tdn_skeleton *skel = tdn_graph_document_skeleton(memory);
    const int joints = tdn_skeleton_joint_count(skel);
    tdn_graph_instance *a = NULL, *b = NULL;
    tdn_pose pa, pb;
    CHECK(tdn_graph_instance_create(gm, &a, NULL, &err) == TDN_OK);
    CHECK(tdn_graph_instance_create(gp, &b, &counting, &err) == TDN_OK);
    CHECK(tdn_pose_create(joints, &pa, NULL, &err) == TDN_OK);
    CHECK(tdn_pose_create(joints, &pb, NULL, &err) == TDN_OK);
    tdn_mat4 *ma = malloc(sizeof(tdn_mat4) * (size_t)joints), *mb = malloc(sizeof(tdn_mat4) * (size_t)joints);
    float *previous = calloc((size_t)pa.stride * TDN_POSE_ROWS, sizeof(float));
    const size_t pose_bytes = sizeof(float) * (size_t)pa.stride * TDN_POSE_ROWS;
    int differing = 0, moving = 0;
    const long allocations = total_allocations;
    for (int frame = 0; frame <= 600; frame++) {
        drive(a, gm, frame);
        drive(b, gp, frame);
        CHECK(tdn_graph_update(a, 1.0f / 60.0f, NULL) == TDN_OK);
        CHECK(tdn_graph_update(b, 1.0f / 60.0f, NULL) == TDN_OK);
        CHECK(tdn_graph_evaluate(a, &pa, NULL) == TDN_OK);
        CHECK(tdn_graph_evaluate(b, &pb, NULL) == TDN_OK);
        tdn_model_space(skel, &pa, NULL, ma, NULL);
        tdn_model_space(tdn_graph_document_skeleton(packed), &pb, NULL, mb, NULL);
        tdn_root_motion ra, rb;
        tdn_graph_root_motion(a, &ra, NULL);
        tdn_graph_root_motion(b, &rb, NULL);
        differing += memcmp(pa.data, pb.data, pose_bytes) != 0 || memcmp(ma, mb, sizeof(tdn_mat4) * (size_t)joints) ||
                     memcmp(&ra.translation, &rb.translation, sizeof ra.translation) != 0 ||
                     memcmp(&ra.rotation, &rb.rotation, sizeof ra.rotation) != 0;
        moving += memcmp(previous, pa.data, pose_bytes) != 0; /* the comparison sees a moving character */
        memcpy(previous, pa.data, pose_bytes);
    }
    CHECK_EQ_INT(differing, 0);
    CHECK(moving > 550);
    CHECK_EQ_INT((int)(total_allocations - allocations), 0); /* playing through the caches allocates nothing */
    free(previous);
    free(ma);
    free(mb);
    tdn_pose_destroy(&pa);
    tdn_pose_destroy(&pb);
    tdn_graph_instance_destroy(a);
    tdn_graph_instance_destroy(b);
    tdn_graph_document_destroy(packed);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_pack_destroy(pack);
    tdn_free(bytes, bytes_size, NULL);
    tdn_graph_document_destroy(memory);
    free(json);
}

/* The humanoid and a few of its clips, compressed (made once: compressing is slow under the
 * sanitizers). */
static tdn_asset *humanoid;
#define CLIPS 3
static tdn_clip *clips[CLIPS];

/* A pack of the humanoid's skeleton (and the clips when `with_clips`) and one graph of text
 * `json`; loading it fails (TDN_ERR_INVALID_DATA) with `where`, its message holding `says`. */
static void refused(const char *json, int with_clips, const char *where, const char *says)
{
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_skeleton(w, "humanoid", tdn_asset_skeleton(humanoid), NULL, &err) == TDN_OK);
    for (int c = 0; with_clips && c < CLIPS; c++)
        CHECK(tdn_pack_writer_add_clip(w, clips[c], 0, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_graph(w, "g", 0, json, strlen(json), NULL, &err) == TDN_OK);
    void *bytes = NULL;
    size_t size = 0;
    tdn_pack *pack = NULL;
    tdn_graph_document *d = NULL;
    CHECK(tdn_pack_writer_save_memory(w, &bytes, &size, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_open(bytes, size, &pack, NULL, &err) == TDN_OK);
    const tdn_result r = tdn_graph_document_load_pack(pack, 0, NULL, &d, &counting, &err);
    CHECK(r == TDN_ERR_INVALID_DATA && d == NULL);
    if (strcmp(err.where, where) != 0 || !strstr(err.message, says))
        fprintf(stderr, "  want %s '%s', got %s: %s\n", where, says, err.where, err.message);
    CHECK(strcmp(err.where, where) == 0);
    CHECK(strstr(err.message, says) != NULL);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_pack_destroy(pack);
    tdn_free(bytes, size, NULL);
    tdn_pack_writer_destroy(w);
}

static void refusals(void)
{
    tdn_error err = { 0 };
    CHECK(tdn_humanoid_create(NULL, &humanoid, NULL, &err) == TDN_OK);
    const char *names[CLIPS] = { "idle", "walk_forward", "run_forward" };
    for (int c = 0; c < CLIPS; c++) {
        const tdn_clip_desc desc = { .source = tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, names[c])),
                                     .storage = TDN_STORAGE_COMPRESSED };
        CHECK(tdn_clip_create(&desc, &clips[c], NULL, &err) == TDN_OK);
    }
    /* the same document plays from a pack with the humanoid's clips: they are found by name */
    refused("{\"character\": {\"generated\": \"humanoid\"}, \"root\": {\"type\": \"clip\", \"clip\": \"wakl\"}}", 1,
            "g: root.clip", "the pack has no clip named \"wakl\"");
    refused("{\"character\": {\"generated\": \"humanoid\"}, \"root\": {\"type\": \"clip\", \"clip\": \"idle\"}}", 0,
            "g: root.clip", "the pack has no clip named \"idle\"");
    /* a motion_match node's database is the pack's of its file name */
    refused("{\"character\": {\"generated\": \"humanoid\"}, \"parameters\": [{\"name\": \"move\", \"type\": "
            "\"vec2\"}], \"root\": {\"type\": \"motion_match\", \"database\": \"../mm/db.tdnmm\", \"velocity\": "
            "\"move\"}}",
            1, "g: root.database", "the pack has no database named \"db.tdnmm\"");
    refused("{\"character\": {\"generated\": \"humanoid\"}, \"retarget\": {\"to\": {\"file\": \"x.glb\"}}, \"root\": "
            "{\"type\": \"rest\"}}",
            1, "g: retarget", "another character");
    refused(
        "{\"parameters\": [{\"name\": \"p\", \"type\": \"vec2\"}], \"root\": {\"type\": \"blend_space\", \"mode\": \"gradient_band\", "
        "\"position\": \"p\", \"samples\": [{\"clip\": \"idle\", \"at\": [0, 0]}, {\"clip\": \"walk\", \"at\": [1, 0]}, "
        "{\"clip\": \"run_forward\", \"at\": [0, 1]}]}}",
        1, "g: root.samples[1].clip", "no clip named \"walk\"");

    for (int c = 0; c < CLIPS; c++)
        tdn_clip_destroy(clips[c]);
    tdn_asset_destroy(humanoid);

    /* arguments */
    tdn_graph_document *d = NULL;
    CHECK(tdn_graph_document_load_pack(NULL, 0, NULL, &d, NULL, &err) == TDN_ERR_ARGUMENT && d == NULL);
    CHECK(tdn_graph_document_load_pack(NULL, 0, NULL, NULL, NULL, &err) == TDN_ERR_ARGUMENT);
    /* a document whose clips are not COMPRESSED cannot be packed */
    size_t size = 0;
    char *json = read_text(BLENDMOTION, &size);
    CHECK(tdn_graph_document_load(BLENDMOTION, NULL, &d, NULL, &err) == TDN_OK);
    tdn_pack_writer *w = NULL;
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_graph_document(w, "b", d, json, size, &err) == TDN_ERR_ARGUMENT);
    CHECK(strstr(err.message, "COMPRESSED") != NULL);
    tdn_graph_document_destroy(d);
    void *bytes = NULL;
    size_t bytes_size = 0;
    tdn_pack *pack = NULL;
    CHECK(tdn_pack_writer_save_memory(w, &bytes, &bytes_size, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_open(bytes, bytes_size, &pack, NULL, &err) == TDN_OK);
    CHECK(tdn_graph_document_load_pack(pack, 0, NULL, &d, NULL, &err) == TDN_ERR_ARGUMENT); /* no graph 0 */
    CHECK(strcmp(err.where, "graph") == 0);
    tdn_pack_destroy(pack);
    tdn_free(bytes, bytes_size, NULL);
    tdn_pack_writer_destroy(w);
    free(json);
}

/* options.clip_storage reaches every clip the document builds, at its threshold. */
static void compressed_load(void)
{
    tdn_graph_document *plain = NULL, *coarse = NULL;
    tdn_error err = { 0 };
    tdn_graph_document_load_options loose = COMPRESSED;
    loose.error_threshold = 1e-2f; /* 1 cm */
    CHECK(tdn_graph_document_load(BLENDMOTION, NULL, &plain, NULL, &err) == TDN_OK);
    CHECK(tdn_graph_document_load(BLENDMOTION, &loose, &coarse, NULL, &err) == TDN_OK);
    size_t bytes[2] = { 0, 0 };
    for (int c = 0; c < tdn_graph_document_clip_count(plain); c++) {
        bytes[0] += tdn_clip_memory_size(tdn_graph_document_clip(plain, c));
        bytes[1] += tdn_clip_memory_size(tdn_graph_document_clip(coarse, c));
    }
    CHECK(compressed_bytes > 0);
    CHECK(compressed_bytes < bytes[0]); /* compressed clips are smaller than 16-bit ones, */
    CHECK(bytes[1] < compressed_bytes); /* and smaller at a looser threshold */
    tdn_graph_document_destroy(plain);
    tdn_graph_document_destroy(coarse);
}

int main(void)
{
    RUN(bit_identical);
    RUN(refusals);
    RUN(compressed_load);
    return check_summary();
}
