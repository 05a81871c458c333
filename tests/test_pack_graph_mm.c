/* Motion-matching graphs in runtime packs: `tdn_pack_writer_add_graph_document` packs a
 * document's motion_match database (an 'MMDB' section named after its file) and the clips the
 * node plays (compressed), and `tdn_graph_document_load_pack` plays the node from them. Checked
 * against the same document loaded from its JSON with the pack as its character file: its clips
 * are then the pack's clips keyed at their frames, exactly what the pack's graph plays, and its
 * database the same file, so the two graphs evaluate bit-identically over a scripted walk (poses
 * and root motion); against the document with its source clips, within a millimetre (the
 * compression's error, where another frame would be centimetres away); and against what must be
 * refused (a database the pack lacks, two files of
 * one name). On tendon's generated humanoid (its eight locomotion clips). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "counting_allocator.h"
#include "mm_fixture.h"
#include "tendon/graph.h"
#include "tendon/model_space.h"
#include "tendon/io/graph_document.h"
#include "tendon/io/mm_database_file.h"
#include "tendon/io/pack_file.h"
#include "tendon/pack.h"

#define DT (1.0f / 60.0f)
#define FRAMES 480

static char dir[] = "/tmp/tendon_pack_graph_mm_XXXXXX", db_path[256], pack_path[256];

/* A motion_match node playing `database` (a path) with the humanoid's clips. */
static void node(char *out, size_t size, const char *database)
{
    char clips[512] = "[";
    for (int i = 0; i < 8; i++)
        snprintf(clips + strlen(clips), sizeof clips - strlen(clips), "%s\"%s\"", i ? ", " : "", mm_humanoid_clips[i]);
    snprintf(out, size,
             "{\"type\": \"motion_match\", \"database\": \"%s\", \"clips\": %s], \"velocity\": \"move\", "
             "\"facing\": \"turn\", \"bias\": 0.05}",
             database, clips);
}

/* A document of character `character` (JSON) whose root is `root` (JSON). */
static void document(char *out, size_t size, const char *character, const char *root)
{
    snprintf(out, size,
             "{\"character\": %s, \"parameters\": [{\"name\": \"move\", \"type\": \"vec2\"}, {\"name\": \"turn\"}],\n"
             " \"root_motion\": {\"joint\": \"root\"}, \"root\": %s}",
             character, root);
}

/* What the stick says at frame f: walk, strafe, run, stop, turn round (the character's frame). */
static void script(int f, float move[2], float *turn)
{
    const float t = (float)f * DT;
    const float speed = t < 2.0f ? 1.4f : t < 3.5f ? 3.5f : t < 4.5f ? 0.0f : 1.4f;
    const float heading = t < 1.0f ? 0.0f : t < 2.0f ? 1.5707963f : t < 6.0f ? 0.0f : 3.1415926f;
    move[0] = speed * sinf(heading);
    move[1] = speed * cosf(heading);
    *turn = t >= 5.0f && t < 6.0f ? 1.5f : 0.0f;
}

/* The two documents' graphs stepped with the same parameters: how many frames differ in any bit
 * (pose or root motion), and the largest distance between a joint's model-space positions. */
static int frames_differing(const tdn_graph_document *a, const tdn_graph_document *b, double *largest)
{
    tdn_graph_instance *ia = NULL, *ib = NULL;
    CHECK_EQ_INT(tdn_graph_instance_create(tdn_graph_document_graph(a), &ia, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_graph_instance_create(tdn_graph_document_graph(b), &ib, NULL, NULL), TDN_OK);
    const tdn_skeleton *skeleton = tdn_graph_document_skeleton(a);
    const int n = tdn_skeleton_joint_count(skeleton);
    CHECK_EQ_INT(tdn_skeleton_joint_count(tdn_graph_document_skeleton(b)), n);
    tdn_pose pa, pb;
    CHECK_EQ_INT(tdn_pose_create(n, &pa, NULL, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pose_create(n, &pb, NULL, NULL), TDN_OK);
    tdn_mat4 *ma = malloc(sizeof(tdn_mat4) * (size_t)n), *mb = malloc(sizeof(tdn_mat4) * (size_t)n);
    const size_t bytes = sizeof(float) * TDN_POSE_ROWS * (size_t)pa.stride;
    int differ = 0, moved = 0;
    *largest = 0.0;
    for (int f = 0; f < FRAMES; f++) {
        float move[2], turn;
        script(f, move, &turn);
        tdn_graph_instance *both[2] = { ia, ib };
        for (int k = 0; k < 2; k++) {
            tdn_graph_set_vector_named(both[k], "move", move, NULL);
            tdn_graph_set_float_named(both[k], "turn", turn, NULL);
            CHECK_EQ_INT(tdn_graph_update(both[k], DT, NULL), TDN_OK);
        }
        CHECK_EQ_INT(tdn_graph_evaluate(ia, &pa, NULL), TDN_OK);
        CHECK_EQ_INT(tdn_graph_evaluate(ib, &pb, NULL), TDN_OK);
        tdn_root_motion ra, rb;
        CHECK_EQ_INT(tdn_graph_root_motion(ia, &ra, NULL), TDN_OK);
        CHECK_EQ_INT(tdn_graph_root_motion(ib, &rb, NULL), TDN_OK);
        differ += memcmp(pa.data, pb.data, bytes) != 0 || memcmp(&ra, &rb, sizeof ra) != 0;
        tdn_model_space(skeleton, &pa, NULL, ma, NULL);
        tdn_model_space(skeleton, &pb, NULL, mb, NULL);
        for (int j = 0; j < n; j++) {
            const double dx = ma[j].m[12] - mb[j].m[12], dy = ma[j].m[13] - mb[j].m[13], dz = ma[j].m[14] - mb[j].m[14];
            const double d = sqrt(dx * dx + dy * dy + dz * dz);
            *largest = d > *largest ? d : *largest;
        }
        /* the walk moves: a test of two still characters would prove little */
        moved |= fabsf(ra.translation.z) > 0.01f;
    }
    CHECK(moved);
    free(ma);
    free(mb);
    tdn_pose_destroy(&pa);
    tdn_pose_destroy(&pb);
    tdn_graph_instance_destroy(ia);
    tdn_graph_instance_destroy(ib);
    return differ;
}

static void packed_graph_plays_like_its_json(const mm_fixture *f)
{
    /* the document from its JSON, clips compressed, packed */
    char json[4096], reference[4096], root[1024];
    node(root, sizeof root, "humanoid.tdnmm");
    document(json, sizeof json, "{\"generated\": \"humanoid\"}", root);
    const tdn_graph_document_load_options options = { .base_dir = dir, .clip_storage = TDN_STORAGE_COMPRESSED };
    tdn_graph_document *source = NULL, *from_pack = NULL, *from_json = NULL;
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_graph_document_load_memory(json, strlen(json), &options, &source, NULL, &err), TDN_OK);
    CHECK_EQ_INT(tdn_pack_writer_create(&w, NULL, &err), TDN_OK);
    CHECK_EQ_INT(tdn_pack_writer_add_graph_document(w, "mm", source, json, strlen(json), &err), TDN_OK);
    CHECK_EQ_INT(tdn_pack_writer_save(w, pack_path, &err), TDN_OK);
    tdn_pack_file *file = NULL;
    CHECK_EQ_INT(tdn_pack_file_load(pack_path, NULL, &file, NULL, &err), TDN_OK);
    const tdn_pack *pack = tdn_pack_file_pack(file);
    /* the database under its file name, the bytes of the file; the node's clips by their names */
    CHECK_EQ_INT(tdn_pack_database_count(pack), 1);
    CHECK_EQ_INT(tdn_pack_find_database(pack, "humanoid.tdnmm"), 0);
    size_t size = 0, want = tdn_mm_database_save_size(f->db);
    unsigned char *saved = malloc(want);
    CHECK_EQ_INT(tdn_mm_database_save_memory(f->db, saved, want, NULL), TDN_OK);
    const void *image = tdn_pack_database_image(pack, 0, &size);
    CHECK(size == want && memcmp(image, saved, want) == 0);
    free(saved);
    CHECK_EQ_INT(tdn_pack_clip_count(pack), 8);
    for (int i = 0; i < 8; i++)
        CHECK(tdn_pack_find_clip(pack, mm_humanoid_clips[i]) >= 0);

    /* the pack's graph, and the same document with the pack as its character file */
    const long before = total_allocations;
    CHECK_EQ_INT(tdn_graph_document_load_pack(pack, 0, NULL, &from_pack, &counting, &err), TDN_OK);
    CHECK(total_allocations > before);
    document(reference, sizeof reference, "{\"file\": \"humanoid_mm.tdn\"}", root);
    CHECK_EQ_INT(tdn_graph_document_load_memory(reference, strlen(reference), &options, &from_json, NULL, &err),
                 TDN_OK);
    double largest = 0.0;
    if (from_pack && from_json)
        CHECK_EQ_INT(frames_differing(from_pack, from_json, &largest), 0);
    CHECK(largest == 0.0);
    /* against the source clips: every search reads the database and the input alone, so the
     * same frames play; the poses differ by the compression (0.01 cm at 3 cm, measured at the
     * clips' frames and between them), and would by centimetres on another frame */
    tdn_graph_document_destroy(from_json);
    from_json = NULL;
    document(reference, sizeof reference, "{\"generated\": \"humanoid\"}", root);
    CHECK_EQ_INT(tdn_graph_document_load_memory(reference, strlen(reference), &options, &from_json, NULL, &err),
                 TDN_OK);
    if (from_pack && from_json) {
        CHECK(frames_differing(from_pack, from_json, &largest) > 0);
        printf("  pack against source clips: joints at most %.4f mm apart\n", 1000.0 * largest);
        CHECK(largest < 0.001);
    }
    tdn_graph_document_destroy(from_pack);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_graph_document_destroy(from_json);
    tdn_graph_document_destroy(source);
    tdn_pack_file_destroy(file);
    tdn_pack_writer_destroy(w);
}

static void refusals(void)
{
    /* two nodes naming two files of one name: the pack could not tell them apart */
    char other[256], copy[512];
    snprintf(other, sizeof other, "%s/again", dir);
    snprintf(copy, sizeof copy, "%s/humanoid.tdnmm", other);
    CHECK(mkdir(other, 0700) == 0);
    tdn_error err = { 0 };
    tdn_mm_database *db = NULL;
    CHECK_EQ_INT(tdn_mm_database_load(db_path, NULL, &db, NULL, &err), TDN_OK);
    CHECK_EQ_INT(tdn_mm_database_save(db, copy, &err), TDN_OK);
    tdn_mm_database_destroy(db);
    char a[1024], b[1024], machine[4096], json[8192];
    node(a, sizeof a, "humanoid.tdnmm");
    node(b, sizeof b, "again/humanoid.tdnmm");
    snprintf(machine, sizeof machine,
             "{\"type\": \"state_machine\", \"initial\": \"a\", \"states\": [{\"name\": \"a\", \"node\": %s}, "
             "{\"name\": \"b\", \"node\": %s}]}",
             a, b);
    document(json, sizeof json, "{\"generated\": \"humanoid\"}", machine);
    const tdn_graph_document_load_options options = { .base_dir = dir, .clip_storage = TDN_STORAGE_COMPRESSED };
    tdn_graph_document *d = NULL;
    tdn_pack_writer *w = NULL;
    if (!CHECK_EQ_INT(tdn_graph_document_load_memory(json, strlen(json), &options, &d, NULL, &err), TDN_OK))
        printf("  %s: %s\n", err.where, err.message);
    CHECK_EQ_INT(tdn_pack_writer_create(&w, NULL, &err), TDN_OK);
    if (d) {
        CHECK_EQ_INT(tdn_pack_writer_add_graph_document(w, "twice", d, json, strlen(json), &err), TDN_ERR_INVALID_DATA);
        CHECK(strcmp(err.where, "again/humanoid.tdnmm") == 0 && strstr(err.message, "file name") != NULL);
    }
    tdn_graph_document_destroy(d);
    tdn_pack_writer_destroy(w);
    remove(copy);
    rmdir(other);
}

int main(void)
{
    mm_fixture f;
    if (!mm_fixture_humanoid(&f, 1) || !CHECK(mkdtemp(dir) != NULL))
        return check_summary();
    snprintf(db_path, sizeof db_path, "%s/humanoid.tdnmm", dir);
    snprintf(pack_path, sizeof pack_path, "%s/humanoid_mm.tdn", dir);
    CHECK_EQ_INT(tdn_mm_database_save(f.db, db_path, NULL), TDN_OK);
    RUN_ARGS(packed_graph_plays_like_its_json(&f));
    RUN(refusals);
    remove(db_path);
    remove(pack_path);
    rmdir(dir);
    mm_fixture_free(&f);
    return check_summary();
}
