/* A pack's motion-matching database sections ('MMDB', pack.h, docs/pack-format.md): the image
 * put in is the one tdn_mm_database_save_memory writes, lies where the format says, and loads
 * back into a database that saves to the same bytes; the writer refuses what would not open;
 * every field of a database section made bad, and the database's own bytes made bad, are
 * refused naming the file's byte. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "mm_fixture.h"
#include "pack_image.h"
#include "tendon/tendon_io.h"

/* The bytes tdn_mm_database_save_memory writes for db (malloc'ed). */
static unsigned char *saved(const tdn_mm_database *db, size_t *size)
{
    *size = tdn_mm_database_save_size(db);
    unsigned char *bytes = malloc(*size);
    CHECK_EQ_INT(tdn_mm_database_save_memory(db, bytes, *size, NULL), TDN_OK);
    return bytes;
}

/* A database from made-up features: 4 frames of 3 floats, no joints. */
static tdn_mm_database *features_db(void)
{
    const float features[12] = { 0, 1, 2, 1, 0, -1, 0.5f, 0.5f, 0.5f, -2, 3, 1 };
    tdn_mm_features_desc desc = { .frame_count = 4, .dimensions = 3, .features = features, .sample_rate = 30.0f };
    tdn_mm_database *db = NULL;
    CHECK_EQ_INT(tdn_mm_database_create_from_features(&desc, &db, NULL, NULL), TDN_OK);
    return db;
}

/* The humanoid's skeleton (section 0), its locomotion database "loco" (section 1) and a
 * database from features "features" (section 2) on that skeleton. */
static image make_pack(const mm_fixture *f, tdn_mm_database *features)
{
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    int skeleton = -1;
    CHECK(tdn_pack_writer_add_skeleton(w, "humanoid", f->skeleton, &skeleton, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_database(w, "loco", skeleton, f->db, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_database(w, "features", skeleton, features, &err) == TDN_OK);
    return image_of(w);
}

static void round_trip(void)
{
    mm_fixture f;
    if (!mm_fixture_humanoid(&f, 1))
        return;
    tdn_mm_database *features = features_db();
    image im = make_pack(&f, features);
    tdn_pack *pack = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_pack_open(im.bytes, im.size, &pack, &counting, &err) == TDN_OK);
    CHECK_EQ_INT(tdn_pack_database_count(pack), 2);
    CHECK(strcmp(tdn_pack_database_name(pack, 0), "loco") == 0);
    CHECK(strcmp(tdn_pack_database_name(pack, 1), "features") == 0);
    CHECK_EQ_INT(tdn_pack_database_skeleton(pack, 0), 0);
    CHECK_EQ_INT(tdn_pack_find_database(pack, "features"), 1);
    CHECK_EQ_INT(tdn_pack_find_database(pack, "loc"), -1);
    CHECK_EQ_INT(tdn_pack_find_database(pack, NULL), -1);
    CHECK(tdn_pack_section_kind(pack, 1) == TDN_PACK_FOURCC('M', 'M', 'D', 'B'));
    const tdn_mm_database *originals[2] = { f.db, features };
    for (int i = 0; i < 2; i++) {
        /* the image is the database's own bytes, after the section's 64-byte header */
        size_t want_size = 0, size = 0, again_size = 0;
        unsigned char *want = saved(originals[i], &want_size);
        const void *image_bytes = tdn_pack_database_image(pack, i, &size);
        CHECK((const unsigned char *)image_bytes == im.bytes + section_offset(&im, 1 + i) + 64);
        CHECK(size == want_size && memcmp(image_bytes, want, size) == 0);
        /* loaded, it saves to the same bytes: every frame, feature and setting came back */
        tdn_mm_database *db = NULL;
        const long before = total_allocations;
        CHECK(tdn_pack_database_load(pack, i, &db, &counting, &err) == TDN_OK);
        CHECK_EQ_INT(total_allocations - before, 1);
        unsigned char *again = saved(db, &again_size);
        CHECK(again_size == want_size && memcmp(again, want, want_size) == 0);
        free(again);
        free(want);
        tdn_mm_database_destroy(db);
    }
    /* bad indices and arguments */
    size_t size = 7;
    tdn_mm_database *db = (tdn_mm_database *)pack; /* overwritten with NULL on failure */
    CHECK(tdn_pack_database_image(pack, 2, &size) == NULL && size == 0);
    CHECK(tdn_pack_database_name(pack, -1) == NULL);
    CHECK_EQ_INT(tdn_pack_database_skeleton(pack, 2), -1);
    CHECK_EQ_INT(tdn_pack_database_count(NULL), 0);
    CHECK(tdn_pack_database_load(pack, 2, &db, NULL, &err) == TDN_ERR_ARGUMENT && db == NULL);
    CHECK(strcmp(err.where, "i") == 0);
    CHECK(tdn_pack_database_load(NULL, 0, &db, NULL, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "pack") == 0);
    CHECK(tdn_pack_database_load(pack, 0, NULL, NULL, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "out") == 0);
    tdn_pack_destroy(pack);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_free(im.bytes, im.size, NULL);
    tdn_mm_database_destroy(features);
    mm_fixture_free(&f);
}

static void writer_refusals(void)
{
    mm_fixture f;
    if (!mm_fixture_humanoid(&f, 1))
        return;
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_database(w, "loco", 0, f.db, &err) == TDN_ERR_ARGUMENT); /* no skeleton yet */
    CHECK(strcmp(err.where, "skeleton") == 0);
    int humanoid = -1, small = -1;
    CHECK(tdn_pack_writer_add_skeleton(w, "humanoid", f.skeleton, &humanoid, &err) == TDN_OK);
    /* a skeleton of the humanoid's first joints: too few for its feet */
    const int feet = f.desc.left_foot < f.desc.right_foot ? f.desc.left_foot : f.desc.right_foot;
    const char *names[TDN_MAX_JOINTS];
    int parents[TDN_MAX_JOINTS];
    for (int j = 0; j < feet; j++) {
        names[j] = tdn_skeleton_joint_name(f.skeleton, j);
        parents[j] = tdn_skeleton_parent(f.skeleton, j);
    }
    tdn_skeleton *cut = NULL;
    const tdn_skeleton_desc cut_desc = { .joint_count = feet, .names = names, .parents = parents };
    CHECK(tdn_skeleton_create(&cut_desc, &cut, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_skeleton(w, "cut", cut, &small, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_database(w, "loco", small, f.db, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "db") == 0 && strstr(err.message, "foot") != NULL);
    CHECK(tdn_pack_writer_add_database(w, NULL, humanoid, f.db, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "name") == 0);
    CHECK(tdn_pack_writer_add_database(w, "loco", humanoid, NULL, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "db") == 0);
    CHECK(tdn_pack_writer_add_database(w, "loco", humanoid, f.db, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_database(w, "loco", humanoid, f.db, &err) == TDN_ERR_ARGUMENT); /* the same name */
    CHECK(strcmp(err.where, "name") == 0 && strstr(err.message, "database 0") != NULL);
    CHECK(tdn_pack_writer_add_section(w, TDN_PACK_FOURCC('M', 'M', 'D', 'B'), "x", 1, 16, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "kind") == 0);
    /* nothing refused was added: the pack has the one database */
    void *data = NULL;
    size_t size = 0;
    tdn_pack *pack = reopened(w, &data, &size);
    CHECK_EQ_INT(tdn_pack_database_count(pack), 1);
    tdn_pack_destroy(pack);
    tdn_free(data, size, NULL);
    tdn_pack_writer_destroy(w);
    tdn_skeleton_destroy(cut);
    mm_fixture_free(&f);
}

static void check_refused(const image *im, size_t at, const void *value, size_t n, size_t want, const char *says)
{
    check_refused_at_byte(im, at, value, n, want, "database ", says);
}
static void refused_u32(const image *im, size_t at, uint32_t v, size_t want, const char *says)
{
    check_refused(im, at, &v, 4, want, says);
}

static void fields_checked(void)
{
    mm_fixture f;
    if (!mm_fixture_humanoid(&f, 1))
        return;
    tdn_mm_database *features = features_db();
    image im = make_pack(&f, features);
    const size_t d = section_offset(&im, 1), image_at = d + 64, other = section_offset(&im, 2);
    const uint32_t huge = 0xfffffff0u, size = u32_at(im.bytes + d + 8);
    refused_u32(&im, d + 0, huge, d + 0, "outside the string table");             /* name */
    refused_u32(&im, other + 0, u32_at(im.bytes + d), other, "another database"); /* a name twice */
    refused_u32(&im, d + 4, 40, d + 4, "skeleton 40");                            /* no such section */
    refused_u32(&im, d + 4, 2, d + 4, "not the index of a skeleton");             /* a database's */
    refused_u32(&im, d + 8, 0, d + 8, "size is 0");
    refused_u32(&im, d + 8, huge, d + 12, "run past");         /* beyond the section */
    refused_u32(&im, d + 8, size - 4, d + 8, "(size)");        /* the database's own count of its bytes */
    refused_u32(&im, d + 12, 72, d + 12, "not a multiple of"); /* misaligned */
    refused_u32(&im, d + 12, 0, d + 12, "not a multiple of");  /* inside the header */
    for (int k = 4; k < 16; k++)                               /* reserved */
        refused_u32(&im, d + 4 * (size_t)k, 1, d + 4 * (size_t)k, "reserved");
    /* the database's own fields, named at the file's byte and the database's */
    const unsigned char x = 'x';
    check_refused(&im, image_at + 0, &x, 1, image_at, "byte 0 of its database: not a tendon motion-matching");
    refused_u32(&im, image_at + 8, 2, image_at + 8, "byte 8 of its database: database version 2");
    const float nan = NAN;
    check_refused(&im, image_at + 28, &nan, 4, image_at + 28, "rate");
    const size_t feature = image_at + size - 8; /* the last frame's next-to-last feature */
    check_refused(&im, feature, &nan, 4, feature, "not within +-1e6");
    /* its joints against the skeleton's: out of it, and a root that has a parent */
    const uint32_t joints = (uint32_t)tdn_skeleton_joint_count(f.skeleton);
    refused_u32(&im, image_at + 32, joints, image_at + 32, "its root, joint");
    refused_u32(&im, image_at + 36, joints, image_at + 36, "its left foot, joint");
    refused_u32(&im, image_at + 40, joints, image_at + 40, "its right foot, joint");
    refused_u32(&im, image_at + 32, (uint32_t)f.desc.left_foot, image_at + 32, "not a root joint");
    /* a section cut short (its table entry's size) leaves the image running past it */
    const size_t entry = u32_at(im.bytes + 24) + 32 * 1;
    refused_u32(&im, entry + 16, 64 + 100, d + 12, "run past");
    tdn_free(im.bytes, im.size, NULL);
    tdn_mm_database_destroy(features);
    mm_fixture_free(&f);
}

int main(void)
{
    RUN(round_trip);
    RUN(writer_refusals);
    RUN(fields_checked);
    return check_summary();
}
