/* `tendon retarget`'s baked glTF against the library (docs/cli.md, tendon retarget). The tool is
 * run on the shared data's humanoids; its OUT.glb is read back (tdn_asset_load) and each clip's
 * keys, read from the file's own time accessor (the GLB's JSON and BIN chunks, parsed here), are
 * compared with a retarget made here through the library: both body maps found on the rest
 * poses, tdn_retarget_create with the references left to it and the leg ratio, and
 * tdn_retarget_pose of the source sampled at each key's time, then, unless the tool ran with
 * --no-contacts, tdn_retarget_contacts from each clip's start, the source's feet judged against
 * their lowest heights at the key times (as the tool measures them). Every joint's local rotation must
 * agree within 1e-5 rad (the file's rotations are normalized and sign-continuous: 4e-7 measured)
 * and its translation within 1e-6 (0 measured: floats are written exactly). Also: the file holds the target's joints
 * (names and parents) and meshes, one clip per source clip with its name and its duration, and `--scale S` on the
 * source changes nothing of the motion (the leg ratio takes the units). Usage: retarget_bake_check TENDON_EXECUTABLE
 * SCRATCH_FOLDER (TENDON_DATA: the shared data; a visible skip without it, a failure under CI=true). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "tendon/tendon_io.h"
#include "test_data.h"

static const char *tendon, *scratch;

/* Runs `tendon retarget ARGS...` (NULL-terminated), its stdout dropped; its exit code. */
static int run_retarget(const char *const *args)
{
    const char *argv[32] = { tendon, "retarget" };
    int n = 2;
    while (args[n - 2] && n < 31) {
        argv[n] = args[n - 2];
        n++;
    }
    argv[n] = NULL;
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execv(tendon, (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static tdn_asset *load(const char *path, float scale)
{
    tdn_asset_load_options options = { .scale = scale };
    tdn_asset *asset = NULL;
    tdn_error err = { 0 };
    if (!CHECK(tdn_asset_load(path, &options, &asset, NULL, &err) == TDN_OK))
        fprintf(stderr, "%s: %s: %s\n", path, err.where, err.message);
    return asset;
}

/* The key times of every animation of a GLB file: times[c] (count[c] of them), read from each
 * animation's first sampler's input accessor. Returns the animation count (0 on failure). */
enum { MAX_CLIPS = 16 };
static int key_times(const char *path, float *times[MAX_CLIPS], int count[MAX_CLIPS])
{
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    long size = 0;
    if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 28 && fseek(f, 0, SEEK_SET) == 0 &&
        (data = malloc((size_t)size)) && fread(data, 1, (size_t)size, f) != (size_t)size) {
        free(data);
        data = NULL;
    }
    if (f)
        fclose(f);
    if (!CHECK(data != NULL))
        return 0;
    uint32_t json_size, bin_at;
    memcpy(&json_size, data + 12, 4);
    bin_at = 20 + json_size + 8; /* the BIN chunk's bytes, after its length and type */
    cJSON *doc = cJSON_ParseWithLength((const char *)data + 20, json_size);
    const cJSON *animations = cJSON_GetObjectItem(doc, "animations");
    int clips = 0;
    const cJSON *accessors = cJSON_GetObjectItem(doc, "accessors"), *views = cJSON_GetObjectItem(doc, "bufferViews");
    for (const cJSON *a = animations ? animations->child : NULL; a && clips < MAX_CLIPS; a = a->next, clips++) {
        /* the clip's times: the input with the most keys (a property constant off the rest has
         * a one-key input of its own) */
        const cJSON *accessor = NULL;
        for (const cJSON *sampler = cJSON_GetObjectItem(a, "samplers")->child; sampler; sampler = sampler->next) {
            const cJSON *input = cJSON_GetArrayItem(accessors, cJSON_GetObjectItem(sampler, "input")->valueint);
            if (!accessor ||
                cJSON_GetObjectItem(input, "count")->valueint > cJSON_GetObjectItem(accessor, "count")->valueint)
                accessor = input;
        }
        const cJSON *view = cJSON_GetArrayItem(views, cJSON_GetObjectItem(accessor, "bufferView")->valueint);
        const cJSON *view_offset = cJSON_GetObjectItem(view, "byteOffset"),
                    *accessor_offset = cJSON_GetObjectItem(accessor, "byteOffset");
        const size_t at = bin_at + (size_t)(view_offset ? view_offset->valueint : 0) +
                          (size_t)(accessor_offset ? accessor_offset->valueint : 0);
        count[clips] = cJSON_GetObjectItem(accessor, "count")->valueint;
        times[clips] = malloc(sizeof(float) * (size_t)count[clips]);
        memcpy(times[clips], data + at, sizeof(float) * (size_t)count[clips]);
    }
    cJSON_Delete(doc);
    free(data);
    return clips;
}

/* The angle between two rotations, exact for small ones too: 4 atan2(|a - b|, |a + b|), b's sign
 * that of a's hemisphere. */
static double rotation_angle(tdn_quat a, tdn_quat b)
{
    const double x[4] = { a.x, a.y, a.z, a.w }, y[4] = { b.x, b.y, b.z, b.w };
    double dot = 0.0, minus = 0.0, plus = 0.0;
    for (int i = 0; i < 4; i++)
        dot += x[i] * y[i];
    for (int i = 0; i < 4; i++) {
        const double yi = dot < 0.0 ? -y[i] : y[i];
        minus += (x[i] - yi) * (x[i] - yi);
        plus += (x[i] + yi) * (x[i] + yi);
    }
    return 4.0 * atan2(sqrt(minus), sqrt(plus));
}

typedef struct worst {
    double rotation, translation; /* radians; target units */
    int frames;
} worst;

/* Every key of the baked clip `read` (its times) against the library's retarget of the source
 * clip at the same times. */
static void compare_clip(const tdn_retarget *rt, int contacts, const tdn_keyed_clip *source, const tdn_keyed_clip *read,
                         const float *times, int count, worst *w)
{
    tdn_retarget_state state; /* one take: from its start */
    tdn_retarget_state_reset(&state);
    const int ns = tdn_skeleton_joint_count(tdn_keyed_clip_skeleton(source));
    const int nt = tdn_skeleton_joint_count(tdn_keyed_clip_skeleton(read));
    tdn_pose src, expected, got;
    if (!CHECK(tdn_pose_create(ns, &src, NULL, NULL) == TDN_OK &&
               tdn_pose_create(nt, &expected, NULL, NULL) == TDN_OK && tdn_pose_create(nt, &got, NULL, NULL) == TDN_OK))
        return;
    for (int f = 0; f < count; f++) {
        tdn_keyed_clip_sample(source, times[f], &src, NULL, NULL);
        CHECK(tdn_retarget_pose(rt, &src, &expected, NULL) == TDN_OK);
        if (contacts)
            CHECK(tdn_retarget_contacts(rt, &state, &src, NULL, NULL, f > 0 ? times[f] - times[f - 1] : 0.0f, &expected,
                                        NULL) == TDN_OK);
        tdn_keyed_clip_sample(read, times[f], &got, NULL, NULL);
        for (int j = 0; j < nt; j++) {
            const tdn_transform e = tdn_pose_get(&expected, j), g = tdn_pose_get(&got, j);
            w->rotation = fmax(w->rotation, rotation_angle(tdn_quat_normalize(e.r), g.r));
            w->translation = fmax(w->translation, tdn_vec3_length(tdn_vec3_sub(e.t, g.t)));
        }
        w->frames++;
    }
    tdn_pose_destroy(&src);
    tdn_pose_destroy(&expected);
    tdn_pose_destroy(&got);
}

/* The source's lowest left and right ankle heights over its clips at the file's key times, as
 * the tool judges planted feet against them (0 for one below the ground). */
static void lowest_ankles(const tdn_asset *source, const tdn_body_map *map, float *const times[], const int count[],
                          int clips, float floors[2])
{
    const tdn_skeleton *skel = tdn_asset_skeleton(source);
    const int n = tdn_skeleton_joint_count(skel);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)n);
    tdn_pose pose;
    float lowest[2] = { INFINITY, INFINITY };
    if (CHECK(model != NULL) && CHECK(tdn_pose_create(n, &pose, NULL, NULL) == TDN_OK)) {
        for (int c = 0; c < clips; c++)
            for (int f = 0; f < count[c]; f++) {
                tdn_keyed_clip_sample(tdn_asset_clip(source, c), times[c][f], &pose, NULL, NULL);
                tdn_model_space(skel, &pose, NULL, model, NULL);
                lowest[0] = fminf(lowest[0], model[tdn_body_map_joint(map, TDN_BODY_PART_LEFT_FOOT)].m[13]);
                lowest[1] = fminf(lowest[1], model[tdn_body_map_joint(map, TDN_BODY_PART_RIGHT_FOOT)].m[13]);
            }
        tdn_pose_destroy(&pose);
    }
    free(model);
    for (int k = 0; k < 2; k++)
        floors[k] = lowest[k] > 0.0f && isfinite(lowest[k]) ? lowest[k] : 0.0f;
}

/* The library's retarget of source onto target, the source's planted ankle heights (which the
 * hips' height is measured from, and the contact fix-up judges feet against) their lowest at
 * `times`, as the tool measures them. */
static tdn_retarget *make_retarget(const tdn_asset *source, const tdn_asset *target, float *const times[],
                                   const int count[], int clips)
{
    tdn_body_map sm, tm;
    tdn_retarget *rt = NULL;
    tdn_error err = { 0 };
    if (!CHECK(tdn_body_map_find(tdn_asset_skeleton(source), NULL, &sm, &err) == TDN_OK) ||
        !CHECK(tdn_body_map_find(tdn_asset_skeleton(target), NULL, &tm, &err) == TDN_OK)) {
        fprintf(stderr, "%s: %s\n", err.where, err.message);
        return NULL;
    }
    tdn_retarget_desc desc = { .source = { .skeleton = tdn_asset_skeleton(source), .map = &sm },
                               .target = { .skeleton = tdn_asset_skeleton(target), .map = &tm } };
    lowest_ankles(source, &sm, times, count, clips, desc.contacts.floor);
    CHECK(tdn_retarget_create(&desc, &rt, NULL, NULL) == TDN_OK);
    return rt;
}

/* Retargets source onto target with the tool (extra: more options, NULL-terminated) into
 * OUT_NAME, then checks the file against the library; the worst differences into *w. */
static void check_bake(const char *data, const char *source_file, const char *target_file, float scale, int contacts,
                       const char *out_name, worst *w)
{
    char source_path[1024], target_path[1024], out[1024], scale_text[32];
    test_data_path(source_path, sizeof source_path, data, source_file);
    test_data_path(target_path, sizeof target_path, data, target_file);
    snprintf(out, sizeof out, "%s/%s", scratch, out_name);
    snprintf(scale_text, sizeof scale_text, "%g", (double)scale);
    remove(out);
    const char *args[] = { source_path,
                           "--to",
                           target_path,
                           "--out",
                           out,
                           contacts ? "--explain" : "--no-contacts",
                           scale != 1.0f ? "--scale" : NULL,
                           scale_text,
                           NULL };
    if (!CHECK_EQ_INT(run_retarget(args), 0))
        return;
    tdn_asset *source = load(source_path, scale), *target = load(target_path, 0.0f), *read = load(out, 0.0f);
    float *times[MAX_CLIPS] = { NULL };
    int count[MAX_CLIPS] = { 0 };
    const int clips = read ? key_times(out, times, count) : 0;
    tdn_retarget *rt = source && target ? make_retarget(source, target, times, count, clips) : NULL;
    if (rt && read) {
        const tdn_skeleton *t = tdn_asset_skeleton(target), *r = tdn_asset_skeleton(read);
        /* the target's skeleton, skin and meshes */
        int same = tdn_skeleton_joint_count(r) == tdn_skeleton_joint_count(t);
        for (int j = 0; same && j < tdn_skeleton_joint_count(t); j++)
            same = strcmp(tdn_skeleton_joint_name(r, j), tdn_skeleton_joint_name(t, j)) == 0 &&
                   tdn_skeleton_parent(r, j) == tdn_skeleton_parent(t, j);
        CHECK(same);
        CHECK_EQ_INT(tdn_asset_skin_count(read), 1);
        CHECK_EQ_INT(tdn_asset_mesh_count(read), tdn_asset_mesh_count(target));
        /* one clip per source clip, its name and its length */
        CHECK_EQ_INT(tdn_asset_clip_count(read), tdn_asset_clip_count(source));
        CHECK_EQ_INT(clips, tdn_asset_clip_count(source));
        for (int c = 0; c < clips && c < tdn_asset_clip_count(read); c++) {
            const tdn_keyed_clip *s = tdn_asset_clip(source, c), *k = tdn_asset_clip(read, c);
            CHECK(strcmp(tdn_keyed_clip_name(s), tdn_keyed_clip_name(k)) == 0);
            /* the last key at the source's end: within a float step of its time */
            CHECK_NEAR(times[c][count[c] - 1], tdn_keyed_clip_duration(s), 4e-6 * (1.0 + tdn_keyed_clip_duration(s)));
            compare_clip(rt, contacts, s, k, times[c], count[c], w);
        }
        printf("%s -> %s%s%s: %d clip%s, %d frames; worst rotation %.3g rad, translation %.3g (target units)\n",
               source_file, target_file, scale != 1.0f ? " (--scale)" : "", contacts ? "" : " (--no-contacts)", clips,
               clips == 1 ? "" : "s", w->frames, w->rotation, w->translation);
    }
    for (int c = 0; c < clips; c++)
        free(times[c]);
    tdn_retarget_destroy(rt);
    tdn_asset_destroy(source);
    tdn_asset_destroy(target);
    tdn_asset_destroy(read);
}

/* The frames of a BVH take: every joint track is keyed once a frame. */
static int bvh_frames(const char *path)
{
    tdn_asset *a = load(path, 0.0f);
    const tdn_keyed_clip *clip = a ? tdn_asset_clip(a, 0) : NULL;
    const int frames = clip ? tdn_keyed_clip_key_count(clip) / tdn_keyed_clip_track_count(clip) : 0;
    tdn_asset_destroy(a);
    return frames;
}

/* The two files' clip c sampled at the same times agree: rotations within `radians`,
 * translations within `length`. */
static void same_motion(const char *a_path, const char *b_path, double radians, double length)
{
    tdn_asset *a = load(a_path, 0.0f), *b = load(b_path, 0.0f);
    float *times[MAX_CLIPS] = { NULL };
    int count[MAX_CLIPS] = { 0 };
    const int clips = a && b ? key_times(a_path, times, count) : 0;
    const int n = a ? tdn_skeleton_joint_count(tdn_asset_skeleton(a)) : 0;
    tdn_pose pa, pb;
    double rotation = 0.0, translation = 0.0;
    if (clips > 0 && tdn_pose_create(n, &pa, NULL, NULL) == TDN_OK && tdn_pose_create(n, &pb, NULL, NULL) == TDN_OK) {
        for (int c = 0; c < clips; c++)
            for (int f = 0; f < count[c]; f++) {
                tdn_keyed_clip_sample(tdn_asset_clip(a, c), times[c][f], &pa, NULL, NULL);
                tdn_keyed_clip_sample(tdn_asset_clip(b, c), times[c][f], &pb, NULL, NULL);
                for (int j = 0; j < n; j++) {
                    const tdn_transform x = tdn_pose_get(&pa, j), y = tdn_pose_get(&pb, j);
                    rotation = fmax(rotation, rotation_angle(x.r, y.r));
                    translation = fmax(translation, tdn_vec3_length(tdn_vec3_sub(x.t, y.t)));
                }
            }
        tdn_pose_destroy(&pa);
        tdn_pose_destroy(&pb);
    }
    printf("--scale 0.01 against none: worst rotation %.3g rad, translation %.3g\n", rotation, translation);
    CHECK(clips > 0);
    CHECK(rotation <= radians);
    CHECK(translation <= length);
    for (int c = 0; c < clips; c++)
        free(times[c]);
    tdn_asset_destroy(a);
    tdn_asset_destroy(b);
}

static void bakes(void)
{
    const char *data = test_data_dir();
    if (!data)
        return;
    static const char *const lafan = "bvh/lafan1/walk4_subject1.bvh", *const soldier = "gltf/threejs/Soldier.glb",
                             *const cesium = "gltf/khronos/CesiumMan/glTF-Binary/CesiumMan.glb";
    /* LAFAN1 (cm) onto Soldier (m, 0.88 m legs; with the contact fix-up) and CesiumMan (0.54 m
     * legs; without), every frame */
    worst w = { 0 };
    check_bake(data, lafan, soldier, 1.0f, 1, "lafan_soldier.glb", &w);
    char path[1024];
    CHECK_EQ_INT(w.frames, bvh_frames(test_data_path(path, sizeof path, data, lafan))); /* 4918: one key a frame */
    CHECK(w.rotation <= 1e-5);
    CHECK(w.translation <= 1e-6);
    w = (worst){ 0 };
    check_bake(data, lafan, cesium, 1.0f, 0, "lafan_cesium.glb", &w);
    CHECK(w.rotation <= 1e-5);
    CHECK(w.translation <= 1e-6);
    /* the source in metres: the same motion on the target, to float rounding (4e-6 rad, 2e-6 m
     * measured) */
    w = (worst){ 0 };
    check_bake(data, lafan, cesium, 0.01f, 0, "lafan_cesium_scaled.glb", &w);
    CHECK(w.rotation <= 1e-5);
    CHECK(w.translation <= 1e-6);
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/lafan_cesium.glb", scratch);
    snprintf(b, sizeof b, "%s/lafan_cesium_scaled.glb", scratch);
    same_motion(a, b, 1e-4, 2e-5);
    /* a glTF source with four clips (Idle, Run, TPose, Walk) onto CesiumMan: four clips back */
    w = (worst){ 0 };
    check_bake(data, soldier, cesium, 1.0f, 1, "soldier_cesium.glb", &w);
    CHECK(w.frames > 4);
    CHECK(w.rotation <= 1e-5);
    CHECK(w.translation <= 1e-6);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: retarget_bake_check TENDON_EXECUTABLE SCRATCH_FOLDER\n");
        return 2;
    }
    tendon = argv[1];
    scratch = argv[2];
    mkdir(scratch, 0777);
    RUN(bakes);
    return check_summary();
}
