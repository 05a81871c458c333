/* A runtime pack read as an asset (tdn_asset_load_memory on a pack's bytes, asset_pack.c): the
 * generated humanoid packed (skeleton, mesh, compressed clips, one of them additive) comes back
 * with the same joints, hierarchy, rest pose and mesh; each clip as a keyed clip that shows the
 * packed clip's pose at its frames and stays close to it between them (slerp where the packed
 * clip follows slerp by a re-timed nlerp), with its float tracks and events; the additive clip
 * left out with a warning; a scale, an unknown skeleton and damaged bytes refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tendon/tendon_io.h"

enum { CLIPS = 3 };

typedef struct packed {
    tdn_asset *humanoid;
    tdn_clip *clips[CLIPS];
    void *bytes;
    size_t size;
    tdn_pack *pack; /* the same bytes opened, to compare with */
} packed;

/* idle and walk_forward plain, and walk_forward made additive against idle. */
static void pack_humanoid(packed *p)
{
    memset(p, 0, sizeof *p);
    CHECK_EQ_INT(tdn_humanoid_create(NULL, &p->humanoid, NULL, NULL), TDN_OK);
    const tdn_skeleton *skel = tdn_asset_skeleton(p->humanoid);
    const tdn_keyed_clip *idle = tdn_asset_clip(p->humanoid, tdn_asset_find_clip(p->humanoid, "idle"));
    const tdn_keyed_clip *walk = tdn_asset_clip(p->humanoid, tdn_asset_find_clip(p->humanoid, "walk_forward"));
    const tdn_keyed_clip *sources[CLIPS] = { idle, walk, walk };
    tdn_pack_writer *w = NULL;
    CHECK_EQ_INT(tdn_pack_writer_create(&w, NULL, NULL), TDN_OK);
    int s = -1;
    CHECK_EQ_INT(tdn_pack_writer_add_skeleton(w, "humanoid", skel, &s, NULL), TDN_OK);
    for (int i = 0; i < CLIPS; i++) {
        tdn_clip_desc d = { .source = sources[i], .storage = TDN_STORAGE_COMPRESSED };
        if (i == 2)
            d.additive_reference_clip = idle;
        CHECK_EQ_INT(tdn_clip_create(&d, &p->clips[i], NULL, NULL), TDN_OK);
        CHECK_EQ_INT(tdn_pack_writer_add_clip(w, p->clips[i], s, NULL, NULL), TDN_OK);
    }
    const tdn_asset_mesh m = tdn_asset_mesh_at(p->humanoid, 0);
    const tdn_pack_mesh pm = { .name = m.name,
                               .skeleton = s,
                               .vertex_count = m.vertex_count,
                               .influence_sets = m.influence_sets,
                               .positions = m.positions,
                               .normals = m.normals,
                               .joints = m.joints,
                               .weights = m.weights,
                               .indices = m.indices,
                               .index_count = m.index_count };
    CHECK_EQ_INT(tdn_pack_writer_add_mesh(w, &pm, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_pack_writer_save_memory(w, &p->bytes, &p->size, NULL, NULL), TDN_OK);
    tdn_pack_writer_destroy(w);
    CHECK_EQ_INT(tdn_pack_open(p->bytes, p->size, &p->pack, NULL, NULL), TDN_OK);
}

static void free_packed(packed *p)
{
    tdn_pack_destroy(p->pack);
    tdn_free(p->bytes, p->size, NULL);
    for (int i = 0; i < CLIPS; i++)
        tdn_clip_destroy(p->clips[i]);
    tdn_asset_destroy(p->humanoid);
}

/* The largest distance between the model-space joint positions of two poses. */
static double largest_distance(const tdn_skeleton *skel, const tdn_pose *a, const tdn_pose *b)
{
    const int n = tdn_skeleton_joint_count(skel);
    tdn_mat4 *ma = malloc(sizeof *ma * (size_t)n), *mb = malloc(sizeof *mb * (size_t)n);
    tdn_model_space(skel, a, NULL, ma, NULL);
    tdn_model_space(skel, b, NULL, mb, NULL);
    double largest = 0.0;
    for (int j = 0; j < n; j++) {
        const double dx = ma[j].m[12] - mb[j].m[12], dy = ma[j].m[13] - mb[j].m[13], dz = ma[j].m[14] - mb[j].m[14];
        largest = fmax(largest, sqrt(dx * dx + dy * dy + dz * dz));
    }
    free(ma);
    free(mb);
    return largest;
}

static void skeleton_mesh_and_clips(void)
{
    packed p;
    pack_humanoid(&p);
    tdn_asset *a = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_asset_load_memory(p.bytes, p.size, NULL, &a, NULL, &err), TDN_OK)) {
        printf("  %s: %s\n", err.where, err.message);
        free_packed(&p);
        return;
    }
    CHECK_EQ_INT(tdn_asset_format_of(a), TDN_FORMAT_PACK);
    const tdn_skeleton *from = tdn_asset_skeleton(p.humanoid), *skel = tdn_asset_skeleton(a);
    const int n = tdn_skeleton_joint_count(from);
    CHECK_EQ_INT(tdn_skeleton_joint_count(skel), n);
    CHECK_EQ_INT(tdn_asset_joint_count(a), n);
    for (int j = 0; j < n; j++) {
        CHECK(strcmp(tdn_skeleton_joint_name(skel, j), tdn_skeleton_joint_name(from, j)) == 0);
        CHECK_EQ_INT(tdn_skeleton_parent(skel, j), tdn_skeleton_parent(from, j));
        const tdn_transform x = tdn_skeleton_rest(skel, j), y = tdn_skeleton_rest(from, j);
        CHECK(memcmp(&x, &y, sizeof x) == 0);
    }
    CHECK(memcmp(tdn_skeleton_inverse_bind(skel), tdn_skeleton_inverse_bind(from), sizeof(tdn_mat4) * (size_t)n) == 0);
    CHECK_EQ_INT(tdn_asset_skin_count(a), 1);
    CHECK(strcmp(tdn_asset_skin_name(a, 0), "humanoid") == 0);
    CHECK_EQ_INT(tdn_asset_mesh_count(a), 1);
    const tdn_asset_mesh m = tdn_asset_mesh_at(a, 0), m0 = tdn_asset_mesh_at(p.humanoid, 0);
    CHECK_EQ_INT(m.vertex_count, m0.vertex_count);
    CHECK_EQ_INT(m.index_count, m0.index_count);
    CHECK(memcmp(m.positions, m0.positions, sizeof(float) * 3 * (size_t)m.vertex_count) == 0);
    CHECK(memcmp(m.weights, m0.weights, sizeof(float) * 4 * (size_t)m.vertex_count) == 0);

    /* two plain clips; the additive one left out, saying so */
    CHECK_EQ_INT(tdn_asset_clip_count(a), 2);
    CHECK_EQ_INT(tdn_asset_warning_count(a), 1);
    CHECK(tdn_asset_warning_count(a) == 1 && strstr(tdn_asset_warning(a, 0), "additive") != NULL);
    tdn_pose keyed_pose, packed_pose;
    tdn_pose_create(n, &keyed_pose, NULL, NULL);
    tdn_pose_create(n, &packed_pose, NULL, NULL);
    for (int c = 0; c < 2 && c < tdn_asset_clip_count(a); c++) {
        const tdn_keyed_clip *k = tdn_asset_clip(a, c);
        const tdn_clip *clip = tdn_pack_clip(p.pack, c);
        CHECK(strcmp(tdn_keyed_clip_name(k), tdn_pack_clip_name(p.pack, c)) == 0);
        CHECK(tdn_keyed_clip_duration(k) == tdn_clip_duration(clip));
        const float duration = tdn_clip_duration(clip), rate = tdn_clip_sample_rate(clip);
        const int frames = (int)lroundf(duration * rate) + 1;
        CHECK_EQ_INT(tdn_keyed_clip_key_times(k, NULL, 0), frames);
        double at_frames = 0.0, between = 0.0;
        for (int i = 0; i <= 4 * (frames - 1); i++) {
            const float t = duration * (float)i / (float)(4 * (frames - 1));
            tdn_keyed_clip_sample(k, t, &keyed_pose, NULL, NULL);
            tdn_clip_sample(clip, t, &packed_pose, NULL);
            const double d = largest_distance(skel, &keyed_pose, &packed_pose);
            if (i % 4 == 0)
                at_frames = fmax(at_frames, d);
            else
                between = fmax(between, d);
        }
        CHECK(at_frames < 1e-6); /* the keys are the packed clip's frames */
        CHECK(between < 1e-4);   /* slerp against the re-timed nlerp: far under the 0.01 cm threshold */
        CHECK_EQ_INT(tdn_keyed_clip_float_track_count(k), tdn_clip_float_track_count(clip));
        for (int f = 0; f < tdn_clip_float_track_count(clip); f++)
            for (int i = 0; i < frames; i++) {
                const float t = duration * (float)i / (float)(frames - 1);
                CHECK(tdn_keyed_clip_sample_float(k, f, t) == tdn_clip_sample_float(clip, f, t));
            }
        CHECK_EQ_INT(tdn_keyed_clip_event_count(k), tdn_clip_event_count(clip));
        for (int e = 0; e < tdn_clip_event_count(clip) && e < tdn_keyed_clip_event_count(k); e++) {
            CHECK(strcmp(tdn_keyed_clip_event_name(k, e), tdn_clip_event_name(clip, e)) == 0);
            CHECK(tdn_keyed_clip_event_times(k)[e] == tdn_clip_event_times(clip)[e]);
        }
        printf("  %s: %d frames, %d float tracks, %d events; largest distance %.1e at frames, %.1e between\n",
               tdn_keyed_clip_name(k), frames, tdn_keyed_clip_float_track_count(k), tdn_keyed_clip_event_count(k),
               at_frames, between);
    }
    tdn_pose_destroy(&keyed_pose);
    tdn_pose_destroy(&packed_pose);
    tdn_asset_destroy(a);
    free_packed(&p);
}

static void refusals(void)
{
    packed p;
    pack_humanoid(&p);
    tdn_asset *a = NULL;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_asset_load_memory(p.bytes, p.size, &(tdn_asset_load_options){ .scale = 0.01f }, &a, NULL, &err),
                 TDN_ERR_ARGUMENT);
    CHECK(strstr(err.where, "scale") != NULL);
    CHECK_EQ_INT(tdn_asset_load_memory(p.bytes, p.size, &(tdn_asset_load_options){ .skin = "robot" }, &a, NULL, &err),
                 TDN_ERR_ARGUMENT);
    CHECK(strstr(err.where, "skin") != NULL);
    CHECK_EQ_INT(tdn_asset_load_memory(p.bytes, p.size, &(tdn_asset_load_options){ .skin = "0" }, &a, NULL, &err),
                 TDN_OK);
    tdn_asset_destroy(a);
    a = NULL;
    /* damaged: the version, then cut short; the pack reader's error, nothing built */
    unsigned char *copy = malloc(p.size);
    memcpy(copy, p.bytes, p.size);
    copy[8] = 2;
    CHECK_EQ_INT(tdn_asset_load_memory(copy, p.size, NULL, &a, NULL, &err), TDN_ERR_PARSE);
    CHECK(a == NULL);
    memcpy(copy, p.bytes, p.size);
    CHECK(tdn_asset_load_memory(copy, p.size / 2, NULL, &a, NULL, &err) != TDN_OK);
    CHECK(a == NULL);
    free(copy);
    free_packed(&p);
}

int main(void)
{
    RUN(skeleton_mesh_and_clips);
    RUN(refusals);
    return check_summary();
}
