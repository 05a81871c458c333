/* glTF export of baked motion (tdn_gltf_save): round trips through tendon's own importer.
 * The humanoid's clips baked at 30 frames/s are written (GLB and .gltf), read back, and
 * compared: joint names, parents, rest pose, durations ((frames - 1) / rate), and the read
 * clip sampled at every frame and half-way between frames against the baked poses (lerp and
 * slerp of neighbouring frames), as model-space positions. The channels are counted against
 * the properties that move (computed here from the poses), constant ones dropped and one-key
 * channels for constants off the rest; the JSON's structure is read with cJSON (shared time
 * accessor, min/max, sign-continuous unit quaternions, GLB padding). Skinned sources (Fox,
 * CesiumMan, Soldier from TENDON_DATA, the humanoid's generated body, and a mesh with two
 * influence sets, JOINTS_1/WEIGHTS_1) keep their meshes, triangles, skin and inverse binds, and
 * their weights, divided by their sum where the validator would reject it (Soldier's, the
 * two-set mesh's). Bad
 * descriptions fail with the right code and place.
 *
 * `test_gltf_save --write DIR` instead writes the files the validator test checks
 * (tests/gltf_export_valid.cmake): humanoid.glb and humanoid.gltf with the body, and the
 * re-exported skinned characters. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "counting_allocator.h"
#include "eight_influences_fixture.h"
#include "test_data.h"
#include "tendon/io/gltf_save.h"
#include "tendon/io/humanoid.h"

#define RATE 30.0f

/* ---- baking keyed clips into poses ---- */

typedef struct baked {
    int clip_count;
    tdn_baked_clip *clips;
    tdn_pose *poses;
    int pose_count;
} baked;

static baked bake_asset(const tdn_asset *asset, float rate)
{
    baked b = { 0 };
    const tdn_skeleton *skel = tdn_asset_skeleton(asset);
    b.clip_count = tdn_asset_clip_count(asset);
    b.clips = calloc((size_t)b.clip_count + 1, sizeof *b.clips);
    int total = 0;
    for (int c = 0; c < b.clip_count; c++)
        total += (int)floor(tdn_keyed_clip_duration(tdn_asset_clip(asset, c)) * rate + 0.5) + 1;
    b.poses = calloc((size_t)total, sizeof *b.poses);
    for (int c = 0, at = 0; c < b.clip_count; c++) {
        const tdn_keyed_clip *clip = tdn_asset_clip(asset, c);
        const int frames = (int)floor(tdn_keyed_clip_duration(clip) * rate + 0.5) + 1;
        b.clips[c] = (tdn_baked_clip){ tdn_keyed_clip_name(clip), frames, rate, b.poses + at };
        for (int f = 0; f < frames; f++, at++) {
            tdn_pose_create(tdn_skeleton_joint_count(skel), &b.poses[at], NULL, NULL);
            tdn_keyed_clip_sample(clip, (float)(f / (double)rate), &b.poses[at], NULL, NULL);
        }
    }
    b.pose_count = total;
    return b;
}

static void baked_free(baked *b)
{
    for (int i = 0; i < b->pose_count; i++)
        tdn_pose_destroy(&b->poses[i]);
    free(b->poses);
    free(b->clips);
}

static tdn_asset *humanoid(void)
{
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_humanoid_create(NULL, &asset, NULL, &err), TDN_OK))
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
    return asset;
}

static void *export_ok(const tdn_gltf_save_desc *desc, size_t *size)
{
    void *data = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_gltf_save_memory(desc, &data, size, NULL, &err), TDN_OK))
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
    return data;
}

static tdn_asset *load_ok(const void *data, size_t size)
{
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_asset_load_memory(data, size, NULL, &asset, NULL, &err), TDN_OK))
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
    return asset;
}

/* ---- comparing motion ---- */

/* The diagonal of the rest pose's model-space bounding box. */
static double skeleton_size(const tdn_skeleton *skel)
{
    const int n = tdn_skeleton_joint_count(skel);
    tdn_pose pose;
    tdn_pose_create(n, &pose, NULL, NULL);
    tdn_pose_set_rest(&pose, skel, NULL);
    tdn_mat4 *model = malloc(sizeof *model * (size_t)n);
    tdn_model_space(skel, &pose, NULL, model, NULL);
    double lo[3] = { 1e30, 1e30, 1e30 }, hi[3] = { -1e30, -1e30, -1e30 }, d2 = 0;
    for (int j = 0; j < n; j++)
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], model[j].m[12 + k]);
            hi[k] = fmax(hi[k], model[j].m[12 + k]);
        }
    for (int k = 0; k < 3; k++)
        d2 += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    free(model);
    tdn_pose_destroy(&pose);
    return sqrt(d2);
}

/* Baked frames f and f + 1 (or f alone when alpha is 0) mixed at alpha as LINEAR glTF does. */
static void expected_pose(const tdn_baked_clip *clip, int f, float alpha, tdn_pose *out)
{
    for (int j = 0; j < out->joint_count; j++) {
        tdn_transform a = tdn_pose_get(&clip->frames[f], j);
        if (alpha > 0.0f) {
            const tdn_transform b = tdn_pose_get(&clip->frames[f + 1], j);
            a.t = tdn_vec3_lerp(a.t, b.t, alpha);
            a.r = tdn_quat_slerp(tdn_quat_normalize(a.r), tdn_quat_normalize(b.r), alpha);
            a.s = tdn_vec3_lerp(a.s, b.s, alpha);
        }
        tdn_pose_set(out, j, &a);
    }
}

typedef struct motion_error {
    double worst; /* largest model-space position error over the checked samples */
    int samples;
} motion_error;

/* The read clip against the baked one, at every frame and half-way between frames. */
static void compare_clip(const tdn_skeleton *skel, const tdn_keyed_clip *read, const tdn_baked_clip *clip,
                         motion_error *e)
{
    const int n = tdn_skeleton_joint_count(skel);
    tdn_pose want, got;
    tdn_pose_create(n, &want, NULL, NULL);
    tdn_pose_create(n, &got, NULL, NULL);
    tdn_mat4 *mw = malloc(sizeof *mw * (size_t)n), *mg = malloc(sizeof *mg * (size_t)n);
    for (int f = 0; f < clip->frame_count; f++)
        for (int half = 0; half < (f + 1 < clip->frame_count ? 2 : 1); half++) {
            const double t = (f + 0.5 * half) / (double)clip->frame_rate;
            expected_pose(clip, f, half ? 0.5f : 0.0f, &want);
            tdn_keyed_clip_sample(read, (float)t, &got, NULL, NULL);
            tdn_model_space(skel, &want, NULL, mw, NULL);
            tdn_model_space(skel, &got, NULL, mg, NULL);
            for (int j = 0; j < n; j++) {
                const double dx = mw[j].m[12] - mg[j].m[12], dy = mw[j].m[13] - mg[j].m[13],
                             dz = mw[j].m[14] - mg[j].m[14];
                e->worst = fmax(e->worst, sqrt(dx * dx + dy * dy + dz * dz));
            }
            e->samples++;
        }
    free(mw), free(mg);
    tdn_pose_destroy(&want);
    tdn_pose_destroy(&got);
}

/* Channels the exporter should write for a clip: properties that move, and constant ones off
 * the rest pose (rotations compared up to sign); the first joint's translation when nothing
 * moves. */
static int expected_channels(const tdn_skeleton *skel, const tdn_baked_clip *clip, int *moving_out)
{
    int channels = 0, moving = 0;
    for (int j = 0; j < tdn_skeleton_joint_count(skel); j++) {
        const tdn_transform rest = tdn_skeleton_rest(skel, j), first = tdn_pose_get(&clip->frames[0], j);
        int moves[3] = { 0, 0, 0 };
        for (int f = 1; f < clip->frame_count; f++) {
            const tdn_transform x = tdn_pose_get(&clip->frames[f], j);
            moves[0] |= x.t.x != first.t.x || x.t.y != first.t.y || x.t.z != first.t.z;
            moves[1] |= !((x.r.x == first.r.x && x.r.y == first.r.y && x.r.z == first.r.z && x.r.w == first.r.w) ||
                          (x.r.x == -first.r.x && x.r.y == -first.r.y && x.r.z == -first.r.z && x.r.w == -first.r.w));
            moves[2] |= x.s.x != first.s.x || x.s.y != first.s.y || x.s.z != first.s.z;
        }
        const int off[3] = {
            first.t.x != rest.t.x || first.t.y != rest.t.y || first.t.z != rest.t.z,
            !((first.r.x == rest.r.x && first.r.y == rest.r.y && first.r.z == rest.r.z && first.r.w == rest.r.w) ||
              (first.r.x == -rest.r.x && first.r.y == -rest.r.y && first.r.z == -rest.r.z && first.r.w == -rest.r.w)),
            first.s.x != rest.s.x || first.s.y != rest.s.y || first.s.z != rest.s.z,
        };
        for (int p = 0; p < 3; p++) {
            moving += moves[p];
            channels += moves[p] || off[p];
        }
    }
    if (moving == 0 && tdn_pose_get(&clip->frames[0], 0).t.x == tdn_skeleton_rest(skel, 0).t.x &&
        tdn_pose_get(&clip->frames[0], 0).t.y == tdn_skeleton_rest(skel, 0).t.y &&
        tdn_pose_get(&clip->frames[0], 0).t.z == tdn_skeleton_rest(skel, 0).t.z)
        channels++; /* the duration keeper */
    *moving_out = moving;
    return channels;
}

/* ---- the humanoid round trip ---- */

static void round_trip(const tdn_asset *source, const baked *b, const void *data, size_t size, const char *what,
                       motion_error *e)
{
    const tdn_skeleton *skel = tdn_asset_skeleton(source);
    tdn_asset *read = load_ok(data, size);
    if (!read)
        return;
    const tdn_skeleton *rs = tdn_asset_skeleton(read);
    const int n = tdn_skeleton_joint_count(skel);
    CHECK_EQ_INT(tdn_skeleton_joint_count(rs), n);
    int names_ok = 1, rest_ok = 1;
    for (int j = 0; j < n && j < tdn_skeleton_joint_count(rs); j++) {
        names_ok &= strcmp(tdn_skeleton_joint_name(rs, j), tdn_skeleton_joint_name(skel, j)) == 0 &&
                    tdn_skeleton_parent(rs, j) == tdn_skeleton_parent(skel, j);
        const tdn_transform a = tdn_skeleton_rest(skel, j), r = tdn_skeleton_rest(rs, j);
        rest_ok &= memcmp(&a, &r, sizeof a) == 0; /* every float is written exactly */
    }
    CHECK(names_ok);
    CHECK(rest_ok);
    CHECK_EQ_INT(tdn_asset_clip_count(read), b->clip_count);
    for (int c = 0; c < b->clip_count && c < tdn_asset_clip_count(read); c++) {
        const tdn_keyed_clip *clip = tdn_asset_clip(read, c);
        const tdn_baked_clip *bc = &b->clips[c];
        CHECK(strcmp(tdn_keyed_clip_name(clip), bc->name) == 0);
        CHECK_NEAR(tdn_keyed_clip_duration(clip), (bc->frame_count - 1) / (double)bc->frame_rate, 1e-6);
        int moving;
        const int channels = expected_channels(skel, bc, &moving);
        if (!CHECK_EQ_INT(tdn_asset_clip_channel_count(read, c), channels))
            fprintf(stderr, "  %s clip %s\n", what, bc->name);
        compare_clip(rs, clip, bc, e);
    }
    tdn_asset_destroy(read);
}

static void humanoid_round_trips(void)
{
    tdn_asset *h = humanoid();
    if (!h)
        return;
    baked b = bake_asset(h, RATE);
    const tdn_skeleton *skel = tdn_asset_skeleton(h);
    const double size = skeleton_size(skel);
    const tdn_gltf_save_desc desc = {
        .skeleton = skel, .clips = b.clips, .clip_count = b.clip_count, .binary = TDN_GLTF_BINARY
    };
    motion_error e = { 0, 0 };
    size_t glb_size = 0, gltf_size = 0;
    void *glb = export_ok(&desc, &glb_size);
    if (glb)
        round_trip(h, &b, glb, glb_size, "glb", &e);
    tdn_gltf_save_desc json_desc = desc;
    json_desc.binary = TDN_GLTF_JSON;
    void *gltf = export_ok(&json_desc, &gltf_size);
    if (gltf)
        round_trip(h, &b, gltf, gltf_size, "gltf", &e);
    CHECK(e.samples > 0);
    if (!CHECK(e.worst <= 1e-5 * size))
        fprintf(stderr, "  worst error %.3g m, size %.3g m\n", e.worst, size);
    int channels = 0, frames = 0;
    for (int c = 0; c < b.clip_count; c++) {
        int moving;
        channels += expected_channels(skel, &b.clips[c], &moving);
        frames += b.clips[c].frame_count;
    }
    printf("humanoid: %d clips, %d frames at %g/s, %d channels of %d joint properties; GLB %zu bytes, .gltf %zu "
           "bytes; %d samples (frames and half-frames, GLB and .gltf), worst model-space error %.3g m = %.3g of "
           "the skeleton's %.3g m\n",
           b.clip_count, frames, (double)RATE, channels, b.clip_count * 3 * tdn_skeleton_joint_count(skel), glb_size,
           gltf_size, e.samples, e.worst, e.worst / size, size);
    /* The same through a file, picked by extension. */
    const char *path = "gltf_export_scratch.GLB";
    tdn_gltf_save_desc by_ext = desc;
    by_ext.binary = TDN_GLTF_BY_EXTENSION;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_gltf_save(&by_ext, path, &err), TDN_OK))
        fprintf(stderr, "  %s: %s\n", err.where, err.message);
    tdn_asset *from_file = NULL;
    CHECK_EQ_INT(tdn_asset_load(path, NULL, &from_file, NULL, &err), TDN_OK);
    FILE *f = fopen(path, "rb");
    unsigned char head[4] = { 0 };
    CHECK(f && fread(head, 1, 4, f) == 4 && memcmp(head, "glTF", 4) == 0);
    if (f)
        fclose(f);
    CHECK(from_file && tdn_asset_clip_count(from_file) == b.clip_count);
    tdn_asset_destroy(from_file);
    remove(path);
    free(glb), free(gltf);
    baked_free(&b);
    tdn_asset_destroy(h);
}

/* ---- the file's structure, read with cJSON ---- */

static uint32_t u32_at(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* The JSON of a GLB (checking its header and padding) and its BIN chunk. */
static cJSON *glb_json(const unsigned char *data, size_t size, const unsigned char **bin)
{
    CHECK(size >= 20 && memcmp(data, "glTF", 4) == 0 && u32_at(data + 4) == 2 && u32_at(data + 8) == size);
    const uint32_t json_size = u32_at(data + 12);
    CHECK(json_size % 4 == 0 && u32_at(data + 16) == 0x4E4F534Au);
    *bin = NULL;
    if (20 + json_size < size) {
        CHECK(u32_at(data + 20 + json_size) % 4 == 0 && u32_at(data + 24 + json_size) == 0x004E4942u);
        CHECK_EQ_INT(28 + json_size + u32_at(data + 20 + json_size), size);
        *bin = data + 28 + json_size;
    }
    return cJSON_ParseWithLength((const char *)data + 20, json_size); /* trailing spaces are JSON whitespace */
}

static const float *accessor_floats(const cJSON *json, const unsigned char *bin, int index, int *count)
{
    const cJSON *acc = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "accessors"), index);
    const cJSON *view = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "bufferViews"),
                                           cJSON_GetObjectItem(acc, "bufferView")->valueint);
    const cJSON *offset = cJSON_GetObjectItem(acc, "byteOffset"),
                *view_offset = cJSON_GetObjectItem(view, "byteOffset");
    *count = cJSON_GetObjectItem(acc, "count")->valueint;
    CHECK(!cJSON_GetObjectItem(view, "byteStride") && !cJSON_GetObjectItem(view, "target"));
    return (const float *)(bin + (offset ? offset->valueint : 0) + (view_offset ? view_offset->valueint : 0));
}

/* Three joints: joint 1 turns a full circle about +Y with its quaternions handed in with
 * alternating signs and twice unit length; joint 2 sits translated off its rest all clip
 * long; everything else at rest. */
static void small_clip_structure(void)
{
    const char *names[] = { "root", "arm", "hand" };
    const int parents[] = { -1, 0, 1 };
    tdn_transform rest[3] = { tdn_transform_identity(), tdn_transform_identity(), tdn_transform_identity() };
    rest[1].t = tdn_vec3_make(0, 1, 0);
    rest[2].t = tdn_vec3_make(0, 0.5f, 0);
    tdn_skeleton *skel = NULL;
    CHECK_EQ_INT(tdn_skeleton_create(
                     &(tdn_skeleton_desc){ .joint_count = 3, .names = names, .parents = parents, .rest_pose = rest },
                     &skel, NULL, NULL),
                 TDN_OK);
    enum { FRAMES = 13 };
    tdn_pose poses[FRAMES];
    for (int f = 0; f < FRAMES; f++) {
        tdn_pose_create(3, &poses[f], NULL, NULL);
        tdn_pose_set_rest(&poses[f], skel, NULL);
        tdn_transform x = tdn_pose_get(&poses[f], 1);
        x.r = tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0), (float)(2 * 3.14159265358979 * f / (FRAMES - 1)));
        const float k = f % 2 ? -2.0f : 2.0f;
        x.r = tdn_quat_make(x.r.x * k, x.r.y * k, x.r.z * k, x.r.w * k);
        tdn_pose_set(&poses[f], 1, &x);
        x = tdn_pose_get(&poses[f], 2);
        x.t = tdn_vec3_make(0.25f, 0.5f, 0);
        tdn_pose_set(&poses[f], 2, &x);
    }
    const tdn_baked_clip clips[2] = { { "spin", FRAMES, 24.0f, poses }, { "still", 1, 24.0f, poses } };
    size_t size = 0;
    unsigned char *data = export_ok(
        &(tdn_gltf_save_desc){ .skeleton = skel, .clips = clips, .clip_count = 2, .binary = TDN_GLTF_BINARY }, &size);
    if (!data) {
        tdn_skeleton_destroy(skel);
        return;
    }
    const unsigned char *bin = NULL;
    cJSON *json = glb_json(data, size, &bin);
    CHECK(json && bin);
    const cJSON *asset = cJSON_GetObjectItem(json, "asset");
    CHECK(strcmp(cJSON_GetObjectItem(asset, "version")->valuestring, "2.0") == 0);
    CHECK(strcmp(cJSON_GetObjectItem(asset, "generator")->valuestring, "tendon " TDN_VERSION_STRING) == 0);
    CHECK_EQ_INT(cJSON_GetArraySize(cJSON_GetObjectItem(json, "nodes")), 3);
    /* no meshes, but a skin over the three joints (for importers' armatures) whose inverse
     * binds undo the rest positions: the joints sit at y = 0, 1 and 1.5, unrotated */
    CHECK(!cJSON_GetObjectItem(json, "meshes"));
    const cJSON *skins = cJSON_GetObjectItem(json, "skins");
    CHECK_EQ_INT(cJSON_GetArraySize(skins), 1);
    const cJSON *skin = cJSON_GetArrayItem(skins, 0), *skin_joints = cJSON_GetObjectItem(skin, "joints");
    CHECK_EQ_INT(cJSON_GetArraySize(skin_joints), 3);
    for (int j = 0; j < 3 && j < cJSON_GetArraySize(skin_joints); j++)
        CHECK_EQ_INT(cJSON_GetArrayItem(skin_joints, j)->valueint, j);
    CHECK_EQ_INT(cJSON_GetObjectItem(skin, "skeleton")->valueint, 0);
    int bind_count = 0;
    const float *binds = accessor_floats(json, bin, cJSON_GetObjectItem(skin, "inverseBindMatrices")->valueint,
                                         &bind_count);
    CHECK_EQ_INT(bind_count, 3);
    const float rest_height[3] = { 0.0f, 1.0f, 1.5f };
    for (int j = 0; j < 3; j++)
        for (int e = 0; e < 16; e++)
            CHECK_NEAR(binds[16 * j + e], e == 13 ? -rest_height[j] : e % 5 == 0 ? 1.0f : 0.0f, 1e-6);
    const cJSON *animations = cJSON_GetObjectItem(json, "animations");
    CHECK_EQ_INT(cJSON_GetArraySize(animations), 2);
    /* spin: joint 1's rotation over every frame, joint 2's translation as one key */
    const cJSON *spin = cJSON_GetArrayItem(animations, 0), *channels = cJSON_GetObjectItem(spin, "channels");
    const cJSON *samplers = cJSON_GetObjectItem(spin, "samplers");
    CHECK_EQ_INT(cJSON_GetArraySize(channels), 2);
    int rotation_output = -1, time_input = -1, one_key_input = -1, one_key_output = -1;
    for (int i = 0; i < cJSON_GetArraySize(channels); i++) {
        const cJSON *channel = cJSON_GetArrayItem(channels, i), *target = cJSON_GetObjectItem(channel, "target");
        const cJSON *sampler = cJSON_GetArrayItem(samplers, cJSON_GetObjectItem(channel, "sampler")->valueint);
        CHECK(strcmp(cJSON_GetObjectItem(sampler, "interpolation")->valuestring, "LINEAR") == 0);
        const int node = cJSON_GetObjectItem(target, "node")->valueint;
        const char *path = cJSON_GetObjectItem(target, "path")->valuestring;
        if (node == 1 && strcmp(path, "rotation") == 0) {
            rotation_output = cJSON_GetObjectItem(sampler, "output")->valueint;
            time_input = cJSON_GetObjectItem(sampler, "input")->valueint;
        } else if (node == 2 && strcmp(path, "translation") == 0) {
            one_key_output = cJSON_GetObjectItem(sampler, "output")->valueint;
            one_key_input = cJSON_GetObjectItem(sampler, "input")->valueint;
        }
    }
    CHECK(rotation_output >= 0 && time_input >= 0 && one_key_input >= 0 && one_key_output >= 0);
    if (rotation_output >= 0 && time_input >= 0 && one_key_input >= 0 && one_key_output >= 0) {
        int count;
        const float *times = accessor_floats(json, bin, time_input, &count);
        CHECK_EQ_INT(count, FRAMES);
        const cJSON *acc = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "accessors"), time_input);
        CHECK(cJSON_GetArrayItem(cJSON_GetObjectItem(acc, "min"), 0)->valuedouble == 0.0);
        CHECK(cJSON_GetArrayItem(cJSON_GetObjectItem(acc, "max"), 0)->valuedouble == (double)times[FRAMES - 1]);
        CHECK(times[FRAMES - 1] == (float)(12.0 / 24.0));
        const float *q = accessor_floats(json, bin, rotation_output, &count);
        CHECK_EQ_INT(count, FRAMES);
        int unit = 1, continuous = 1;
        for (int f = 0; f < FRAMES; f++) {
            unit &= fabs(sqrt(q[f * 4] * q[f * 4] + q[f * 4 + 1] * q[f * 4 + 1] + q[f * 4 + 2] * q[f * 4 + 2] +
                              q[f * 4 + 3] * q[f * 4 + 3]) -
                         1.0) < 1e-6;
            if (f > 0)
                continuous &= q[f * 4] * q[f * 4 - 4] + q[f * 4 + 1] * q[f * 4 - 3] + q[f * 4 + 2] * q[f * 4 - 2] +
                                  q[f * 4 + 3] * q[f * 4 - 1] >=
                              0.0f;
        }
        CHECK(unit);
        CHECK(continuous);
        const float *t = accessor_floats(json, bin, one_key_input, &count);
        CHECK(count == 1 && t[0] == 0.0f);
        const float *v = accessor_floats(json, bin, one_key_output, &count);
        CHECK(count == 1 && v[0] == 0.25f && v[1] == 0.5f && v[2] == 0.0f);
    }
    /* still: one frame, only joint 2's translation and joint 1's rotation (both off rest) */
    const cJSON *still = cJSON_GetArrayItem(animations, 1);
    CHECK_EQ_INT(cJSON_GetArraySize(cJSON_GetObjectItem(still, "channels")), 2);
    cJSON_Delete(json);

    /* Read back: the short way between frames, a full turn about +Y over the clip. */
    tdn_asset *read = load_ok(data, size);
    if (read) {
        const tdn_keyed_clip *clip = tdn_asset_clip(read, 0);
        tdn_pose pose;
        tdn_pose_create(3, &pose, NULL, NULL);
        double worst = 0;
        for (int i = 0; i <= 48; i++) {
            const double t = 0.5 * i / 48.0;
            tdn_keyed_clip_sample(clip, (float)t, &pose, NULL, NULL);
            const tdn_quat want = tdn_quat_from_axis_angle(tdn_vec3_make(0, 1, 0),
                                                           (float)(2 * 3.14159265358979 * t / 0.5));
            worst = fmax(worst, check_quat_angle(tdn_pose_get(&pose, 1).r, want));
            const tdn_transform hand = tdn_pose_get(&pose, 2);
            CHECK(hand.t.x == 0.25f && hand.t.y == 0.5f);
        }
        CHECK(worst < 1e-5);
        CHECK_NEAR(tdn_keyed_clip_duration(clip), 0.5, 1e-7);
        CHECK_EQ_INT(tdn_asset_clip_channel_count(read, 0), 2);
        tdn_pose_destroy(&pose);
        tdn_asset_destroy(read);
    }
    /* A clip where nothing moves keeps its duration through the first joint's translation. */
    for (int f = 0; f < FRAMES; f++)
        tdn_pose_set_rest(&poses[f], skel, NULL);
    const tdn_baked_clip rest_clip = { "rest", FRAMES, 24.0f, poses };
    tdn_free(data, size, NULL);
    data = export_ok(&(tdn_gltf_save_desc){ .skeleton = skel, .clips = &rest_clip, .clip_count = 1 }, &size);
    read = data ? load_ok(data, size) : NULL;
    if (read) {
        CHECK_EQ_INT(tdn_asset_clip_channel_count(read, 0), 1);
        CHECK_NEAR(tdn_keyed_clip_duration(tdn_asset_clip(read, 0)), 0.5, 1e-7);
        tdn_asset_destroy(read);
    }
    tdn_free(data, size, NULL);
    for (int f = 0; f < FRAMES; f++)
        tdn_pose_destroy(&poses[f]);
    tdn_skeleton_destroy(skel);
}

/* ---- skinned sources ---- */

/* src (named `path` in messages) exported with its meshes and read back. */
/* The vertex weights an export read back: each vertex's as they were where the Khronos
 * validator's rule accepts them (the non-zero weights, each set's first then each set's
 * second..., added as float32, within 2e-7 each of 1; a vertex without weights is left alone),
 * else divided by their sum (to a float's rounding); and the rule accepts every vertex read
 * back. */
static int weights_as_written(const float *a, const float *r, size_t vertices, int sets)
{
    int ok = 1;
    for (size_t v = 0; v < vertices; v++) {
        const float *wa = a + v * 4 * (size_t)sets, *wr = r + v * 4 * (size_t)sets;
        float sum_a = 0.0f, sum_r = 0.0f;
        double total = 0.0;
        int nonzero = 0;
        for (int k = 0; k < 4; k++)
            for (int set = 0; set < sets; set++) {
                sum_a += wa[set * 4 + k];
                sum_r += wr[set * 4 + k];
                total += wa[set * 4 + k];
                nonzero += wa[set * 4 + k] != 0.0f;
            }
        const int accepted = nonzero == 0 || fabsf(sum_a - 1.0f) <= 2e-7f * (float)nonzero; /* none: nothing to do */
        for (int i = 0; i < 4 * sets; i++)
            ok &= accepted ? wr[i] == wa[i] : fabs(wr[i] - wa[i] / total) <= 6e-8 * wa[i] / total;
        ok &= nonzero == 0 || fabsf(sum_r - 1.0f) <= 2e-7f * (float)nonzero;
    }
    return ok;
}

static void skinned_asset_round_trip(const tdn_asset *src, const char *path, motion_error *e, int *meshes,
                                     int *vertices, int *triangles)
{
    baked b = bake_asset(src, RATE);
    const tdn_skeleton *skel = tdn_asset_skeleton(src);
    const tdn_gltf_save_desc desc = {
        .skeleton = skel, .clips = b.clips, .clip_count = b.clip_count, .source = src, .binary = TDN_GLTF_BINARY
    };
    size_t size = 0;
    void *data = export_ok(&desc, &size);
    tdn_asset *read = data ? load_ok(data, size) : NULL;
    if (read) {
        const tdn_skeleton *rs = tdn_asset_skeleton(read);
        const int n = tdn_skeleton_joint_count(skel);
        CHECK_EQ_INT(tdn_skeleton_joint_count(rs), n);
        CHECK_EQ_INT(tdn_asset_skin_count(read), 1);
        CHECK_EQ_INT(tdn_asset_skin_joint_count(read, 0), n); /* every joint, ancestors included */
        int same = 1, binds = 1;
        const tdn_mat4 *ib = tdn_skeleton_inverse_bind(skel), *rb = tdn_skeleton_inverse_bind(rs);
        for (int j = 0; j < n && j < tdn_skeleton_joint_count(rs); j++) {
            same &= strcmp(tdn_skeleton_joint_name(rs, j), tdn_skeleton_joint_name(skel, j)) == 0 &&
                    tdn_skeleton_parent(rs, j) == tdn_skeleton_parent(skel, j);
            for (int k = 0; k < 16; k++)
                binds &= k % 4 == 3 ? fabsf(ib[j].m[k] - rb[j].m[k]) <= 1e-5f : ib[j].m[k] == rb[j].m[k];
        }
        CHECK(same);
        CHECK(binds);
        CHECK_EQ_INT(tdn_asset_mesh_count(read), tdn_asset_mesh_count(src));
        for (int m = 0; m < tdn_asset_mesh_count(src) && m < tdn_asset_mesh_count(read); m++) {
            const tdn_asset_mesh a = tdn_asset_mesh_at(src, m), r = tdn_asset_mesh_at(read, m);
            const size_t v = (size_t)a.vertex_count, sets = (size_t)a.influence_sets;
            CHECK(strcmp(a.name, r.name) == 0);
            CHECK_EQ_INT(r.vertex_count, a.vertex_count);
            CHECK_EQ_INT(r.influence_sets, a.influence_sets);
            CHECK((a.normals == NULL) == (r.normals == NULL));
            if (r.vertex_count != a.vertex_count || r.influence_sets != a.influence_sets)
                continue;
            CHECK(memcmp(a.positions, r.positions, sizeof(float) * 3 * v) == 0);
            CHECK(!a.normals || !r.normals || memcmp(a.normals, r.normals, sizeof(float) * 3 * v) == 0);
            int joints_ok = 1; /* joints without weight read back as joint 0 (skin joint 0) */
            for (size_t i = 0; i < 4 * sets * v; i++)
                joints_ok &= r.joints[i] == (a.weights[i] != 0.0f ? a.joints[i] : 0);
            CHECK(joints_ok);
            CHECK(weights_as_written(a.weights, r.weights, v, (int)sets));
            CHECK_EQ_INT(r.index_count, a.index_count); /* triangles as they were */
            CHECK(r.index_count != a.index_count ||
                  (a.index_count == 0 ? r.indices == NULL
                                      : memcmp(a.indices, r.indices, sizeof(uint32_t) * (size_t)a.index_count) == 0));
            *meshes += 1;
            *vertices += a.vertex_count;
            *triangles += a.index_count / 3;
        }
        CHECK_EQ_INT(tdn_asset_clip_count(read), b.clip_count);
        for (int c = 0; c < b.clip_count && c < tdn_asset_clip_count(read); c++) {
            CHECK_NEAR(tdn_keyed_clip_duration(tdn_asset_clip(read, c)),
                       (b.clips[c].frame_count - 1) / (double)b.clips[c].frame_rate, 1e-6);
            motion_error one = { 0, 0 };
            compare_clip(rs, tdn_asset_clip(read, c), &b.clips[c], &one);
            const double size_of = skeleton_size(skel);
            if (!CHECK(one.worst <= 1e-5 * size_of))
                fprintf(stderr, "  %s clip %d: %.3g against size %.3g\n", path, c, one.worst, size_of);
            e->worst = fmax(e->worst, one.worst / size_of);
            e->samples += one.samples;
        }
        tdn_asset_destroy(read);
    }
    tdn_free(data, size, NULL);
    baked_free(&b);
}

static int skinned_round_trip(const char *path, motion_error *e, int *meshes, int *vertices, int *triangles)
{
    tdn_asset *src = NULL;
    tdn_error err = { 0 };
    if (!CHECK_EQ_INT(tdn_asset_load(path, NULL, &src, NULL, &err), TDN_OK)) {
        fprintf(stderr, "  %s: %s: %s\n", path, err.where, err.message);
        return 0;
    }
    skinned_asset_round_trip(src, path, e, meshes, vertices, triangles);
    tdn_asset_destroy(src);
    return 1;
}

/* The humanoid's generated body and skin go out and come back like a loaded file's. */
static void humanoid_body_round_trips(void)
{
    tdn_asset *h = humanoid();
    if (!h)
        return;
    motion_error e = { 0, 0 };
    int meshes = 0, vertices = 0, triangles = 0;
    skinned_asset_round_trip(h, "humanoid", &e, &meshes, &vertices, &triangles);
    CHECK_EQ_INT(meshes, 1);
    printf("humanoid body: %d mesh, %d vertices, %d triangles equal after the round trip; %d samples, worst "
           "model-space error %.3g of the skeleton's size\n",
           meshes, vertices, triangles, e.samples, e.worst);
    tdn_asset_destroy(h);
}

/* A primitive with JOINTS_1/WEIGHTS_1 and one without (eight_influences_fixture.h) come back
 * with 2 and 1 influence sets and every joint and weight. */
static void two_influence_sets_round_trip(void)
{
    size_t size = 0;
    void *file = eight_influences_gltf(0, 0, &size);
    tdn_asset *src = load_ok(file, size);
    free(file);
    if (!src)
        return;
    CHECK_EQ_INT(tdn_asset_mesh_at(src, 0).influence_sets, 2);
    CHECK_EQ_INT(tdn_asset_mesh_at(src, 1).influence_sets, 1);
    motion_error e = { 0, 0 };
    int meshes = 0, vertices = 0, triangles = 0;
    skinned_asset_round_trip(src, "eight influences", &e, &meshes, &vertices, &triangles);
    CHECK_EQ_INT(meshes, 2);
    tdn_asset_destroy(src);
}

static void skinned_sources_survive(void)
{
    const char *data = test_data_dir();
    if (!data)
        return;
    static const char *const files[] = { "gltf/khronos/Fox/glTF-Binary/Fox.glb",
                                         "gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb",
                                         "gltf/threejs/Soldier.glb" }; /* its weights up to 2% off 1 */
    motion_error e = { 0, 0 };
    int meshes = 0, vertices = 0, triangles = 0, done = 0;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[1024];
        done += skinned_round_trip(test_data_path(path, sizeof path, data, files[i]), &e, &meshes, &vertices,
                                   &triangles);
    }
    CHECK_EQ_INT(done, 3);
    printf("skinned: %d files, %d meshes, %d vertices, %d triangles equal after the round trip; %d samples, worst "
           "model-space error %.3g of the skeleton's size\n",
           done, meshes, vertices, triangles, e.samples, e.worst);
}

/* ---- bad descriptions ---- */

/* The bytes of tdn_gltf_save_memory come from the allocator passed in, as one block of exactly
 * the size reported, and tdn_free gives that block back through the same hooks. */
static void save_memory_uses_the_allocator(void)
{
    tdn_asset *human = NULL;
    CHECK_EQ_INT(tdn_humanoid_create(NULL, &human, NULL, NULL), TDN_OK);
    const tdn_gltf_save_desc desc = { .skeleton = tdn_asset_skeleton(human),
                                      .source = human,
                                      .binary = TDN_GLTF_BINARY };
    const long blocks = live_blocks, allocations = total_allocations;
    const size_t bytes = live_bytes;
    void *data = NULL;
    size_t size = 0;
    CHECK_EQ_INT(tdn_gltf_save_memory(&desc, &data, &size, &counting, NULL), TDN_OK);
    CHECK_EQ_INT(total_allocations - allocations, 1);
    CHECK_EQ_INT(live_blocks - blocks, 1);
    CHECK_EQ_INT((long long)(live_bytes - bytes), (long long)size);
    CHECK(size > 12 && memcmp(data, "glTF", 4) == 0);
    tdn_free(data, size, &counting);
    CHECK_EQ_INT(live_blocks, blocks);
    CHECK_EQ_INT((long long)live_bytes, (long long)bytes);
    CHECK_EQ_INT(total_allocations - allocations, 1); /* nothing else went through the hooks */
    /* hooks with only one of alloc and free are refused before anything is allocated */
    const tdn_allocator alloc_only = { count_alloc, NULL, NULL };
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_gltf_save_memory(&desc, &data, &size, &alloc_only, &err), TDN_ERR_ARGUMENT);
    CHECK(data == NULL && strcmp(err.where, "allocator") == 0 && live_blocks == blocks);
    tdn_free(NULL, 0, &counting); /* NULL is ignored */
    CHECK_EQ_INT(live_blocks, blocks);
    tdn_asset_destroy(human);
}

static void expect_error(const tdn_gltf_save_desc *desc, tdn_result code, const char *where_has)
{
    void *data = (void *)1;
    size_t size = 1;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_gltf_save_memory(desc, &data, &size, NULL, &err), code);
    CHECK(data == NULL && size == 0);
    CHECK_EQ_INT(err.code, code);
    if (!CHECK(strstr(err.where, where_has) != NULL))
        fprintf(stderr, "  where '%s' lacks '%s' (%s)\n", err.where, where_has, err.message);
}

static void bad_descriptions_fail(void)
{
    tdn_asset *h = humanoid();
    if (!h)
        return;
    baked b = bake_asset(h, RATE);
    const tdn_skeleton *skel = tdn_asset_skeleton(h);
    tdn_gltf_save_desc desc = { .skeleton = skel, .clips = b.clips, .clip_count = b.clip_count };
    expect_error(NULL, TDN_ERR_ARGUMENT, "desc");
    expect_error(&(tdn_gltf_save_desc){ .clips = b.clips, .clip_count = 1 }, TDN_ERR_ARGUMENT, "desc.skeleton");
    expect_error(&(tdn_gltf_save_desc){ .skeleton = skel, .clip_count = 2 }, TDN_ERR_ARGUMENT, "desc.clips");
    expect_error(&(tdn_gltf_save_desc){ .skeleton = skel, .binary = 7 }, TDN_ERR_ARGUMENT, "desc.binary");

    tdn_baked_clip clip = b.clips[1];
    desc.clips = &clip;
    desc.clip_count = 1;
    clip.frame_count = 0;
    expect_error(&desc, TDN_ERR_ARGUMENT, "clips[0] (walk_forward)");
    clip = b.clips[1];
    clip.frame_rate = 0.0f;
    expect_error(&desc, TDN_ERR_ARGUMENT, "clips[0] (walk_forward)");
    clip.frame_rate = NAN;
    expect_error(&desc, TDN_ERR_ARGUMENT, "clips[0] (walk_forward)");
    clip = b.clips[1];
    clip.frames = NULL;
    expect_error(&desc, TDN_ERR_ARGUMENT, "clips[0] (walk_forward)");

    /* NaN at frame 3, joint 5; a zero quaternion at frame 4 joint 6; a pose of another size */
    clip = b.clips[1];
    tdn_pose *frames = calloc((size_t)clip.frame_count, sizeof *frames);
    for (int f = 0; f < clip.frame_count; f++) {
        tdn_pose_create(tdn_skeleton_joint_count(skel), &frames[f], NULL, NULL);
        tdn_pose_copy(&frames[f], &clip.frames[f], NULL);
    }
    clip.frames = frames;
    tdn_pose_row(&frames[3], TDN_TY)[5] = NAN;
    char where[128];
    snprintf(where, sizeof where, "clips[0] (walk_forward).frames[3].joint 5 (%s)", tdn_skeleton_joint_name(skel, 5));
    expect_error(&desc, TDN_ERR_ARGUMENT, where);
    tdn_pose_row(&frames[3], TDN_TY)[5] = 0.0f;
    for (int row = TDN_RX; row <= TDN_RW; row++)
        tdn_pose_row(&frames[4], row)[6] = 0.0f;
    expect_error(&desc, TDN_ERR_ARGUMENT, "frames[4].joint 6");
    tdn_pose_row(&frames[4], TDN_RW)[6] = 1.0f;
    tdn_pose small;
    tdn_pose_create(3, &small, NULL, NULL);
    const tdn_pose keep = frames[2];
    frames[2] = small;
    expect_error(&desc, TDN_ERR_ARGUMENT, "clips[0] (walk_forward).frames[2]");
    frames[2] = keep;
    tdn_pose_destroy(&small);

    /* a source whose meshes skin another skeleton */
    tdn_asset *other = NULL;
    const char *data = getenv("TENDON_DATA");
    char path[1024];
    if (data && *data) {
        snprintf(path, sizeof path, "%s/gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb", data);
        if (tdn_asset_load(path, NULL, &other, NULL, NULL) == TDN_OK) {
            desc.source = other;
            expect_error(&desc, TDN_ERR_ARGUMENT, "desc.source");
            desc.source = NULL;
        }
    }
    tdn_asset_destroy(other);

    /* files: unknown extension, a folder that does not exist; the good desc still writes */
    tdn_error err = { 0 };
    desc.binary = TDN_GLTF_BY_EXTENSION;
    CHECK_EQ_INT(tdn_gltf_save(&desc, "gltf_export_scratch.txt", &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "gltf_export_scratch.txt") == 0);
    const char *missing = "no-such-folder-for-tendon/out.glb";
    CHECK_EQ_INT(tdn_gltf_save(&desc, missing, &err), TDN_ERR_IO);
    CHECK(strcmp(err.where, missing) == 0 && strstr(err.message, "cannot create") != NULL);
    struct stat st;
    CHECK(stat(missing, &st) != 0);
    CHECK_EQ_INT(tdn_gltf_save(&desc, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_gltf_save_memory(&desc, NULL, NULL, NULL, &err), TDN_ERR_ARGUMENT);
    void *out = NULL;
    size_t size = 0;
    CHECK_EQ_INT(tdn_gltf_save_memory(&desc, &out, &size, NULL, NULL), TDN_OK); /* err may be NULL */
    tdn_free(out, size, NULL);
    /* No clips: the skeleton alone, still a file tendon reads */
    out = export_ok(&(tdn_gltf_save_desc){ .skeleton = skel }, &size);
    tdn_asset *bare = out ? load_ok(out, size) : NULL;
    CHECK(bare && tdn_asset_clip_count(bare) == 0 &&
          tdn_skeleton_joint_count(tdn_asset_skeleton(bare)) == tdn_skeleton_joint_count(skel));
    tdn_asset_destroy(bare);
    tdn_free(out, size, NULL);

    for (int f = 0; f < clip.frame_count; f++)
        tdn_pose_destroy(&frames[f]);
    free(frames);
    baked_free(&b);
    tdn_asset_destroy(h);
}

/* ---- --write DIR: the files the validator test checks ---- */

static void write_file(const char *dir, const char *name, const tdn_gltf_save_desc *desc)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    tdn_error err = { 0 };
    if (CHECK_EQ_INT(tdn_gltf_save(desc, path, &err), TDN_OK))
        printf("wrote %s\n", path);
    else
        fprintf(stderr, "  %s: %s: %s\n", path, err.where, err.message);
}

static int write_files(const char *dir)
{
    tdn_asset *h = humanoid();
    if (h) {
        baked b = bake_asset(h, RATE);
        tdn_gltf_save_desc desc = { .skeleton = tdn_asset_skeleton(h),
                                    .clips = b.clips,
                                    .clip_count = b.clip_count,
                                    .source = h,
                                    .binary = TDN_GLTF_BY_EXTENSION }; /* with the body */
        write_file(dir, "humanoid.glb", &desc);
        write_file(dir, "humanoid.gltf", &desc);
        baked_free(&b);
        tdn_asset_destroy(h);
    }
    const char *data = test_data_dir();
    static const char *const files[][2] = { { "gltf/khronos/Fox/glTF-Binary/Fox.glb", "Fox.glb" },
                                            { "gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb", "CesiumMan.gltf" },
                                            { "gltf/threejs/Soldier.glb", "Soldier.glb" } }; /* weights 2% off 1 */
    for (size_t i = 0; data && i < sizeof files / sizeof *files; i++) {
        char path[1024];
        tdn_asset *src = NULL;
        tdn_error err = { 0 };
        if (!CHECK_EQ_INT(tdn_asset_load(test_data_path(path, sizeof path, data, files[i][0]), NULL, &src, NULL, &err),
                          TDN_OK)) {
            fprintf(stderr, "  %s: %s: %s\n", path, err.where, err.message);
            continue;
        }
        baked b = bake_asset(src, RATE);
        const tdn_gltf_save_desc desc = { .skeleton = tdn_asset_skeleton(src),
                                          .clips = b.clips,
                                          .clip_count = b.clip_count,
                                          .source = src,
                                          .binary = TDN_GLTF_BY_EXTENSION };
        write_file(dir, files[i][1], &desc);
        baked_free(&b);
        tdn_asset_destroy(src);
    }
    return check_summary();
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write") == 0)
        return write_files(argv[2]);
    RUN(humanoid_round_trips);
    RUN(small_clip_structure);
    RUN(skinned_sources_survive);
    RUN(humanoid_body_round_trips);
    RUN(two_influence_sets_round_trip);
    RUN(bad_descriptions_fail);
    RUN(save_memory_uses_the_allocator);
    return check_summary();
}
