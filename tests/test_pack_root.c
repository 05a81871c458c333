/* Root track sections of runtime packs ('ROOT', pack.h, docs/pack-format.md): the frames the
 * writer stores are the joint's local translation and rotation sampled by tdn_clip_sample at
 * the track's frame times, bit for bit; a track built over them (tdn_pack_root_track) reports
 * what tdn_root_track_create's does at every time, bit for bit; the writer refuses what would
 * not open; every field of a root section made bad is refused naming its byte; the graph
 * document writer stores the root motion's frames of every plain clip of BlendMotion. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "pack_image.h"
#include "tendon/tendon_io.h"

#define BLENDMOTION TENDON_SOURCE_DIR "/examples/graphs/blendmotion.json"

enum { CLIPS = 3 };
static const char *const NAMES[CLIPS] = { "walk_forward", "idle", "run_forward" };

/* The humanoid's clips, compressed; the last made additive (to its first frame). */
static void make_clips(const tdn_asset *humanoid, tdn_clip *clips[CLIPS])
{
    tdn_error err = { 0 };
    for (int c = 0; c < CLIPS; c++) {
        const tdn_clip_desc desc = { .source = tdn_asset_clip(humanoid, tdn_asset_find_clip(humanoid, NAMES[c])),
                                     .storage = TDN_STORAGE_COMPRESSED,
                                     .additive_reference_first_frame = c == CLIPS - 1 };
        CHECK(tdn_clip_create(&desc, &clips[c], NULL, &err) == TDN_OK);
    }
}

/* A pack of the skeleton (section 0) and the clips (sections 1 to 3), then the root frames of
 * clip 0's joint 0 (section 4) and clip 1's joint 1 (section 5). */
static image make_pack(tdn_clip *clips[CLIPS])
{
    tdn_asset *a = NULL;
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_humanoid_create(NULL, &a, NULL, &err) == TDN_OK);
    make_clips(a, clips);
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_skeleton(w, "humanoid", tdn_asset_skeleton(a), NULL, &err) == TDN_OK);
    for (int c = 0; c < CLIPS; c++)
        CHECK(tdn_pack_writer_add_clip(w, clips[c], 0, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_root_track(w, 0, clips[0], 0, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_root_track(w, 1, clips[1], 1, &err) == TDN_OK);
    const image im = image_of(w);
    tdn_asset_destroy(a);
    return im;
}

static void destroy_clips(tdn_clip *clips[CLIPS])
{
    for (int c = 0; c < CLIPS; c++)
        tdn_clip_destroy(clips[c]);
}

/* The documented frame count: floor(rate * duration + 0.5) + 1, at least 2 (1 for no duration). */
static int frame_count_of(const tdn_clip *clip)
{
    const float d = tdn_clip_duration(clip);
    if (!(d > 0.0f))
        return 1;
    const double n = floor((double)tdn_clip_sample_rate(clip) * d + 0.5) + 1.0;
    return n > 2.0 ? (int)n : 2;
}

/* Root section `s` holds joint `joint` of `clip` as the format says: tdn_clip_sample's values at
 * duration * f / (F - 1), each rotation negated when its dot with the previous one is negative. */
static void frames_are_samples(const image *im, int s, const tdn_clip *clip, int clip_section, int joint)
{
    const unsigned char *h = im->bytes + section_offset(im, s);
    const int n = frame_count_of(clip);
    CHECK_EQ_INT(u32_at(h + 0), clip_section);
    CHECK_EQ_INT(u32_at(h + 4), joint);
    CHECK_EQ_INT(u32_at(h + 8), n);
    const float *frames = (const float *)(h + u32_at(h + 12));
    tdn_pose pose;
    tdn_error err = { 0 };
    CHECK(tdn_pose_create(tdn_clip_joint_count(clip), &pose, NULL, &err) == TDN_OK);
    float previous[4] = { 0 };
    int same = 1;
    for (int f = 0; f < n; f++) {
        const float t = (float)((double)tdn_clip_duration(clip) * f / (n - 1));
        CHECK(tdn_clip_sample(clip, t, &pose, &err) == TDN_OK);
        const tdn_transform x = tdn_pose_get(&pose, joint);
        float want[7] = { x.t.x, x.t.y, x.t.z, x.r.x, x.r.y, x.r.z, x.r.w };
        const float dot = want[3] * previous[0] + want[4] * previous[1] + want[5] * previous[2] + want[6] * previous[3];
        for (int k = 3; f > 0 && dot < 0.0f && k < 7; k++)
            want[k] = -want[k];
        memcpy(previous, want + 3, sizeof previous);
        same &= memcmp(want, frames + 7 * (size_t)f, sizeof want) == 0;
    }
    CHECK(same);
    tdn_pose_destroy(&pose);
}

static int same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }

/* A track built over the pack's frames and one built from the clip agree bit for bit: the
 * reference frame at times across the clip (and past its ends), the lap, steps between times. */
static void same_track(const tdn_pack *pack, int clip, const tdn_root_track_desc *desc)
{
    tdn_root_track *over = NULL, *built = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_pack_root_track(pack, clip, desc, &over, &counting, &err) == TDN_OK);
    CHECK(tdn_root_track_create(tdn_pack_clip(pack, clip), desc, &built, NULL, &err) == TDN_OK);
    if (!over || !built)
        return;
    const float d = tdn_clip_duration(tdn_pack_clip(pack, clip));
    int same = 1;
    for (int i = 0; i <= 1000; i++) {
        const float t = -0.1f + (d + 0.2f) * (float)i / 1000.0f;
        tdn_vec3 p[2];
        tdn_quat q[2];
        tdn_root_track_frame(over, t, &p[0], &q[0]);
        tdn_root_track_frame(built, t, &p[1], &q[1]);
        same &= same_bits(&p[0], &p[1], sizeof p[0]) && same_bits(&q[0], &q[1], sizeof q[0]);
        tdn_root_motion m[2];
        const float from = d * (float)((i * 7) % 1001) / 1000.0f;
        CHECK(tdn_root_track_motion_between(over, from, t, &m[0], NULL) == TDN_OK);
        CHECK(tdn_root_track_motion_between(built, from, t, &m[1], NULL) == TDN_OK);
        same &= same_bits(&m[0], &m[1], sizeof m[0]);
    }
    CHECK(same);
    const tdn_root_motion laps[2] = { tdn_root_track_lap(over), tdn_root_track_lap(built) };
    CHECK(same_bits(&laps[0], &laps[1], sizeof laps[0]));
    const tdn_root_track_desc descs[2] = { tdn_root_track_desc_of(over), tdn_root_track_desc_of(built) };
    CHECK(same_bits(&descs[0], &descs[1], sizeof descs[0]));
    tdn_root_track_destroy(over);
    tdn_root_track_destroy(built);
}

static void round_trip(void)
{
    tdn_clip *clips[CLIPS];
    image im = make_pack(clips);
    frames_are_samples(&im, 4, clips[0], 1, 0);
    frames_are_samples(&im, 5, clips[1], 2, 1);
    tdn_pack *pack = NULL;
    tdn_error err = { 0 };
    CHECK(open_counted(im.bytes, im.size, &pack, &err) == TDN_OK);
    CHECK(tdn_pack_section_kind(pack, 4) == TDN_PACK_FOURCC('R', 'O', 'O', 'T'));
    CHECK(tdn_pack_has_root_track(pack, 0, 0) && tdn_pack_has_root_track(pack, 1, 1));
    CHECK(!tdn_pack_has_root_track(pack, 0, 1) && !tdn_pack_has_root_track(pack, 2, 0));
    CHECK(!tdn_pack_has_root_track(pack, 3, 0) && !tdn_pack_has_root_track(NULL, 0, 0));
    const tdn_root_track_desc descs[] = {
        { 0, TDN_ROOT_YAW, 0, { 0, 0, 0 } },
        { 0, TDN_ROOT_FULL_ROTATION, 1, { 0, 0, 0 } },
        { 0, TDN_ROOT_NO_ROTATION, 0, { 0.2f, 3.0f, 0.1f } },
    };
    for (size_t k = 0; k < sizeof descs / sizeof descs[0]; k++) {
        same_track(pack, 0, &descs[k]);
        tdn_root_track_desc pelvis = descs[k];
        pelvis.joint = 1;
        same_track(pack, 1, &pelvis);
    }
    same_track(pack, 0, NULL); /* the defaults: joint 0 */
    /* what the pack does not hold, and bad arguments */
    tdn_root_track *track = NULL;
    const tdn_root_track_desc pelvis = { 1, TDN_ROOT_YAW, 0, { 0, 0, 0 } },
                              bad_mode = { 0, (tdn_root_rotation)7, 0, { 0, 0, 0 } };
    CHECK(tdn_pack_root_track(pack, 0, &pelvis, &track, NULL, &err) == TDN_ERR_UNSUPPORTED && track == NULL);
    CHECK(strstr(err.message, "joint 1") != NULL);
    CHECK(tdn_pack_root_track(pack, 2, NULL, &track, NULL, &err) == TDN_ERR_UNSUPPORTED && track == NULL);
    CHECK(tdn_pack_root_track(pack, 3, NULL, &track, NULL, &err) == TDN_ERR_ARGUMENT && strcmp(err.where, "clip") == 0);
    CHECK(tdn_pack_root_track(pack, 0, &bad_mode, &track, NULL, &err) == TDN_ERR_ARGUMENT && track == NULL);
    CHECK(strcmp(err.where, "desc.rotation") == 0);
    const tdn_root_track_desc far = { 67, TDN_ROOT_YAW, 0, { 0, 0, 0 } };
    CHECK(tdn_pack_root_track(pack, 0, &far, &track, NULL, &err) == TDN_ERR_ARGUMENT &&
          strcmp(err.where, "desc.joint") == 0);
    CHECK(tdn_pack_root_track(NULL, 0, NULL, &track, NULL, &err) == TDN_ERR_ARGUMENT);
    tdn_pack_destroy(pack);
    CHECK_EQ_INT(live_blocks, 0);
    tdn_free(im.bytes, im.size, NULL);
    destroy_clips(clips);
}

/* A graph takes a pack's track in place of building one, and refuses a track of another clip. */
static void graph_takes_tracks(void)
{
    tdn_clip *clips[CLIPS];
    image im = make_pack(clips);
    tdn_pack *pack = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_pack_open(im.bytes, im.size, &pack, NULL, &err) == TDN_OK);
    const tdn_root_track_desc yaw = { 0 };
    tdn_root_track *track = NULL;
    CHECK(tdn_pack_root_track(pack, 0, &yaw, &track, NULL, &err) == TDN_OK);
    const tdn_clip *graph_clips[2] = { tdn_pack_clip(pack, 0), tdn_pack_clip(pack, 1) };
    const tdn_node_desc node = { .type = TDN_NODE_CLIP, .name = "walk", .clip = 0 };
    const tdn_root_track *given[2] = { track, NULL };
    tdn_graph_desc gd = { .skeleton = tdn_pack_skeleton(pack, 0),
                          .clips = graph_clips,
                          .clip_count = 2,
                          .nodes = &node,
                          .node_count = 1,
                          .root = 0,
                          .root_motion = &yaw,
                          .root_tracks = given };
    /* fewer allocated bytes than a graph that builds clip 0's track: its frames are the pack's */
    tdn_graph *graph = NULL;
    size_t before = live_bytes;
    CHECK(tdn_graph_create(&gd, &graph, &counting, &err) == TDN_OK);
    const size_t taking = live_bytes - before;
    tdn_graph_destroy(graph);
    gd.root_tracks = NULL;
    before = live_bytes;
    CHECK(tdn_graph_create(&gd, &graph, &counting, &err) == TDN_OK);
    const size_t building = live_bytes - before;
    tdn_graph_destroy(graph);
    CHECK(building >= taking + 7 * 4 * (size_t)frame_count_of(graph_clips[0]));
    CHECK_EQ_INT(live_blocks, 0);
    /* a track of clip 0 given for clip 1, or for another desc */
    const tdn_root_track *swapped[2] = { NULL, track };
    gd.root_tracks = swapped;
    CHECK(tdn_graph_create(&gd, &graph, NULL, &err) == TDN_ERR_ARGUMENT && graph == NULL);
    CHECK(strcmp(err.where, "root_tracks") == 0 && strstr(err.message, "root_tracks[1]") != NULL);
    const tdn_root_track_desc full = { 0, TDN_ROOT_FULL_ROTATION, 0, { 0, 0, 0 } };
    gd.root_tracks = given;
    gd.root_motion = &full;
    CHECK(tdn_graph_create(&gd, &graph, NULL, &err) == TDN_ERR_ARGUMENT && graph == NULL);
    tdn_root_track_destroy(track);
    tdn_pack_destroy(pack);
    tdn_free(im.bytes, im.size, NULL);
    destroy_clips(clips);
}

static void writer_refusals(void)
{
    tdn_clip *clips[CLIPS];
    tdn_asset *a = NULL;
    tdn_pack_writer *w = NULL;
    tdn_error err = { 0 };
    CHECK(tdn_humanoid_create(NULL, &a, NULL, &err) == TDN_OK);
    make_clips(a, clips);
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_root_track(w, 0, clips[0], 0, &err) == TDN_ERR_ARGUMENT); /* no clip yet */
    CHECK(strcmp(err.where, "index") == 0);
    CHECK(tdn_pack_writer_add_skeleton(w, "s", tdn_asset_skeleton(a), NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_clip(w, clips[0], 0, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_clip(w, clips[2], 0, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_root_track(w, 0, clips[1], 0, &err) == TDN_ERR_ARGUMENT); /* not clip 0 */
    CHECK(strcmp(err.where, "clip") == 0 && strstr(err.message, "not the clip added as 0") != NULL);
    CHECK(tdn_pack_writer_add_root_track(w, 1, clips[2], 0, &err) == TDN_ERR_ARGUMENT); /* additive */
    CHECK(strcmp(err.where, "clip") == 0 && strstr(err.message, "additive") != NULL);
    CHECK(tdn_pack_writer_add_root_track(w, 0, clips[0], 67, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "joint") == 0);
    CHECK(tdn_pack_writer_add_root_track(w, 0, NULL, 0, &err) == TDN_ERR_ARGUMENT);
    CHECK(tdn_pack_writer_add_section(w, TDN_PACK_FOURCC('R', 'O', 'O', 'T'), "x", 1, 16, &err) == TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "kind") == 0);
    /* nothing refused was added: the pack has no root track */
    void *data = NULL;
    size_t size = 0;
    tdn_pack *pack = reopened(w, &data, &size);
    CHECK_EQ_INT(tdn_pack_section_count(pack), 4); /* skeleton, two clips, strings */
    tdn_pack_destroy(pack);
    tdn_free(data, size, NULL);
    tdn_pack_writer_destroy(w);
    tdn_asset_destroy(a);
    destroy_clips(clips);
}

static void check_refused(const image *im, size_t at, const void *value, size_t n, size_t want, const char *says)
{
    check_refused_at_byte(im, at, value, n, want, "", says);
}

static void fields_checked(void)
{
    tdn_clip *clips[CLIPS];
    image im = make_pack(clips);
    const size_t r = section_offset(&im, 4), frames = r + u32_at(im.bytes + r + 12);
    const uint32_t huge = 0xfffffff0u, zero = 0, skeleton_section = 0, additive_clip = 3, no_section = 40, joints = 67,
                   odd = 72, one = 1;
    const uint32_t count = u32_at(im.bytes + r + 8);
    const uint32_t more = count + 1;
    check_refused(&im, r + 0, &no_section, 4, r + 0, "clip 40 is not the index of a clip section");
    check_refused(&im, r + 0, &skeleton_section, 4, r + 0, "not the index of a clip section");
    check_refused(&im, r + 0, &additive_clip, 4, r + 0, "is additive");
    check_refused(&im, r + 4, &joints, 4, r + 4, "joint 67 is not below its clip's joint count 67");
    check_refused(&im, r + 8, &more, 4, r + 8, "is not the");
    check_refused(&im, r + 8, &zero, 4, r + 8, "is not the");
    check_refused(&im, r + 12, &odd, 4, r + 12, "not a multiple of");  /* frames misaligned */
    check_refused(&im, r + 12, &zero, 4, r + 12, "not a multiple of"); /* inside the header */
    check_refused(&im, r + 12, &huge, 4, r + 12, "not a multiple of"); /* past the section */
    for (int f = 4; f < 16; f++)                                       /* reserved */
        check_refused(&im, r + 4 * (size_t)f, &one, 4, r + 4 * (size_t)f, "reserved");
    /* values: frame 5's translation y not finite, its rotation's w scaled off unit length */
    const float nan = NAN, inf = INFINITY, half = 0.5f;
    check_refused(&im, frames + (5 * 7 + 1) * 4, &nan, 4, frames + 5 * 7 * 4, "frames[5]");
    check_refused(&im, frames + (5 * 7 + 6) * 4, &inf, 4, frames + 5 * 7 * 4, "frames[5]");
    float w;
    memcpy(&w, im.bytes + frames + (5 * 7 + 6) * 4, 4);
    w += w < 0.0f ? -half : half; /* |q|^2 grows by at least 0.25: far past the tolerance */
    check_refused(&im, frames + (5 * 7 + 6) * 4, &w, 4, frames + 5 * 7 * 4, "unit rotation");
    /* the frames made one fewer: the section is cut at its end (a truncated section) */
    unsigned char *c = copy_of(&im);
    const size_t entry = u32_at(im.bytes + 24) + 32 * 4;
    const uint32_t cut = (uint32_t)(u32_at(im.bytes + r + 12) + (count * 7 - 1) * 4);
    put_u32(c + entry + 16, cut);
    tdn_pack *pack = NULL;
    tdn_error err = { 0 };
    CHECK(open_counted(c, im.size, &pack, &err) == TDN_ERR_INVALID_DATA);
    char want[32];
    snprintf(want, sizeof want, "byte %zu", r + 12);
    CHECK(strcmp(err.where, want) == 0 && strstr(err.message, "run past") != NULL);
    free(c);
    /* a file cut inside the root section */
    CHECK(open_counted(im.bytes, frames + 8, &pack, &err) == TDN_ERR_PARSE);
    tdn_free(im.bytes, im.size, NULL);
    destroy_clips(clips);
}

/* tdn_pack_writer_add_graph_document stores the root motion's frames of every clip the
 * BlendMotion document plays that is not additive, for its root motion's joint. */
static void graph_document_stores_roots(void)
{
    const tdn_graph_document_load_options compressed = { .clip_storage = TDN_STORAGE_COMPRESSED };
    tdn_graph_document *doc = NULL;
    tdn_error err = { 0 };
    void *json = NULL, *bytes = NULL;
    size_t size = 0, bytes_size = 0;
    CHECK(tdn_graph_document_load(BLENDMOTION, &compressed, &doc, NULL, &err) == TDN_OK);
    CHECK(tdn_file_read(NULL, BLENDMOTION, &json, &size, NULL, &err) == TDN_OK);
    tdn_pack_writer *w = NULL;
    CHECK(tdn_pack_writer_create(&w, NULL, &err) == TDN_OK);
    CHECK(tdn_pack_writer_add_graph_document(w, "blendmotion", doc, json, size, &err) == TDN_OK);
    CHECK(tdn_pack_writer_save_memory(w, &bytes, &bytes_size, NULL, &err) == TDN_OK);
    tdn_pack *pack = NULL;
    CHECK(tdn_pack_open(bytes, bytes_size, &pack, NULL, &err) == TDN_OK);
    int plain = 0, stored = 0;
    for (int c = 0; c < tdn_graph_document_clip_count(doc); c++) {
        const int i = tdn_pack_find_clip(pack, tdn_graph_document_clip_name(doc, c));
        const int additive = tdn_clip_is_additive(tdn_pack_clip(pack, i));
        plain += !additive;
        stored += !additive && tdn_pack_has_root_track(pack, i, 0); /* "root_motion": joint "root" */
        CHECK(!tdn_pack_has_root_track(pack, i, 1));
    }
    CHECK(plain > 0);
    CHECK_EQ_INT(stored, plain);
    tdn_pack_destroy(pack);
    tdn_free(bytes, bytes_size, NULL);
    tdn_free(json, size, NULL);
    tdn_pack_writer_destroy(w);
    tdn_graph_document_destroy(doc);
}

int main(void)
{
    RUN(round_trip);
    RUN(graph_takes_tracks);
    RUN(writer_refusals);
    RUN(fields_checked);
    RUN(graph_document_stores_roots);
    return check_summary();
}
