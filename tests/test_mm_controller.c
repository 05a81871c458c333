/* Motion-matching controller: it follows a scripted stick path (walk, run, turns, strafes,
 * stops) within 0.3 m and 15 degrees on average, never 0.6 m away, on the humanoid's database
 * and on LAFAN1's (measured: means 0.07 and 0.05 m, largest 0.36 and 0.37 m); its clips'
 * own root motion carries it (without the pull towards the simulation it still covers the
 * walked distance); switches are inertialized (smaller per-frame changes than cuts); runs are
 * deterministic; updates never allocate; bad arguments are refused. */
#include <string.h>

#include "check.h"
#include "counting_allocator.h"
#include "mm_fixture.h"
#include "tendon/mm_controller.h"
#include "tendon/model_space.h"

static const segment humanoid_path[] = {
    { 3, 1.4f, 0, 0 },     { 3, 1.4f, 90, 90 }, { 2, 3.5f, 90, 90 },
    { 2, 0, 90, 90 },      { 3, 1.4f, 0, 90 }, /* strafing: moving along +z while facing +x */
    { 3, 1.4f, 180, 180 }, { 2, 0, 180, 180 },  { 3, 1.4f, -90, -90 },
};

static const segment lafan1_path[] = {
    { 4, 1.4f, 0, 0 }, { 4, 1.4f, 90, 90 },   { 3, 3.5f, 90, 90 }, { 4, 3.0f, -90, -90 }, { 3, 0, -90, -90 },
    { 4, 1.2f, 0, 0 }, { 4, 1.2f, 180, 180 }, { 3, 0, 180, 180 },  { 5, 1.6f, 45, 45 },
};

static tdn_mm_input input_at(const segment *path, int count, float t)
{
    const segment *s = segment_at(path, count, t);
    const float heading = s->heading * 0.01745329f;
    return (tdn_mm_input){ tdn_vec3_make(s->speed * sinf(heading), 0, s->speed * cosf(heading)),
                           s->facing * 0.01745329f };
}

typedef struct run_figures {
    double position_error, facing_error, max_position_error;
    int switches, searches, frames;
    double largest_step_at_switch; /* the largest per-frame joint rotation change at a switch, radians */
} run_figures;

static double largest_rotation_change(const tdn_pose *a, const tdn_pose *b)
{
    double worst = 0;
    for (int j = 1; j < a->joint_count; j++) /* the root moves on its own */
        worst = fmax(worst, tdn_quat_angle_between(tdn_pose_get(a, j).r, tdn_pose_get(b, j).r));
    return worst;
}

/* Runs the path at 60 Hz; errors count from 1 s on. */
static run_figures run_path(const mm_fixture *f, const tdn_mm_controller_desc *settings, const segment *path, int count,
                            tdn_pose *poses_out)
{
    tdn_mm_controller_desc d = *settings;
    d.database = f->db, d.skeleton = f->skeleton, d.clips = f->clips, d.clip_count = f->clip_count,
    d.mirror_table = f->mirror;
    tdn_mm_controller *c = NULL;
    tdn_error err = { 0 };
    run_figures r = { 0 };
    if (tdn_mm_controller_create(&d, &c, NULL, &err) != TDN_OK) {
        printf("controller: %s: %s\n", err.where, err.message);
        CHECK(!"controller");
        return r;
    }
    const int n = tdn_skeleton_joint_count(f->skeleton);
    tdn_pose pose, previous;
    tdn_pose_create(n, &pose, NULL, NULL);
    tdn_pose_create(n, &previous, NULL, NULL);
    const float dt = 1.0f / 60.0f;
    const int frames = (int)(path_seconds(path, count) * 60.0f);
    int counted = 0;
    for (int i = 0; i < frames; i++) {
        const tdn_mm_input in = input_at(path, count, (float)i * dt);
        tdn_mm_status st;
        CHECK_EQ_INT(tdn_mm_controller_update(c, &in, dt, &pose, &st, NULL), TDN_OK);
        r.switches += st.switched;
        r.searches += st.searched;
        if (st.switched && i > 0)
            r.largest_step_at_switch = fmax(r.largest_step_at_switch, largest_rotation_change(&pose, &previous));
        if ((float)i * dt >= 1.0f) {
            const double e = tdn_vec3_length(tdn_vec3_sub(st.position, st.simulated));
            r.position_error += e;
            r.max_position_error = fmax(r.max_position_error, e);
            r.facing_error += fabs(atan2(sin(st.facing - st.simulated_facing), cos(st.facing - st.simulated_facing)));
            counted++;
        }
        if (poses_out)
            tdn_pose_copy(&poses_out[i], &pose, NULL);
        tdn_pose_copy(&previous, &pose, NULL);
    }
    r.position_error /= counted;
    r.facing_error = r.facing_error / counted * 57.29578;
    r.frames = frames;
    tdn_pose_destroy(&pose);
    tdn_pose_destroy(&previous);
    tdn_mm_controller_destroy(c);
    return r;
}

static void follows_the_path(const mm_fixture *f, const char *name, const segment *path, int count)
{
    const tdn_mm_controller_desc settings = { .bias = 0.05f };
    run_figures r = run_path(f, &settings, path, count, NULL);
    printf("%s: %d frames, %d searches, %d switches; character to path: mean %.3f m (max %.3f), facing %.2f degrees\n",
           name, r.frames, r.searches, r.switches, r.position_error, r.max_position_error, r.facing_error);
    CHECK(r.position_error <= 0.3);
    CHECK(r.max_position_error <= 0.6);
    CHECK(r.facing_error <= 15.0);
    CHECK(r.switches > 5);
}

/* With no pull towards the simulation the character moves by the clips' root motion alone:
 * walking straight for 4 s it covers what the simulation covers, give or take the speeds the
 * database holds (`tolerance`, a fraction: the humanoid walks at exactly 1.4 m/s; LAFAN1's
 * walks are captured at their own speeds). */
static void root_motion_carries_the_character(const mm_fixture *f, double tolerance)
{
    const segment straight[] = { { 4, 1.4f, 0, 0 } };
    tdn_mm_controller_desc d = { .database = f->db,
                                 .skeleton = f->skeleton,
                                 .clips = f->clips,
                                 .clip_count = f->clip_count,
                                 .mirror_table = f->mirror,
                                 .adjust_half_life = -1.0f,
                                 .bias = 0.05f };
    tdn_mm_controller *c = NULL;
    CHECK_EQ_INT(tdn_mm_controller_create(&d, &c, NULL, NULL), TDN_OK);
    tdn_pose pose;
    tdn_pose_create(tdn_skeleton_joint_count(f->skeleton), &pose, NULL, NULL);
    tdn_mm_status st = { 0 };
    for (int i = 0; i < 240; i++) {
        tdn_mm_input in = input_at(straight, 1, (float)i / 60.0f);
        tdn_mm_controller_update(c, &in, 1.0f / 60.0f, &pose, &st, NULL);
    }
    printf("root motion alone: %.2f m along z (simulation %.2f m), %.2f m aside\n", st.position.z, st.simulated.z,
           st.position.x);
    CHECK_NEAR(st.position.z, st.simulated.z, tolerance * st.simulated.z);
    CHECK_NEAR(st.position.x, 0.0, 0.3);
    tdn_pose_destroy(&pose);
    tdn_mm_controller_destroy(c);
}

static void switches_are_inertialized_and_runs_repeat(const mm_fixture *f)
{
    const int count = sizeof humanoid_path / sizeof humanoid_path[0];
    const int frames = (int)(path_seconds(humanoid_path, count) * 60.0f), n = tdn_skeleton_joint_count(f->skeleton);
    tdn_pose *a = malloc(sizeof(tdn_pose) * (size_t)frames), *b = malloc(sizeof(tdn_pose) * (size_t)frames);
    for (int i = 0; i < frames; i++) {
        tdn_pose_create(n, &a[i], NULL, NULL);
        tdn_pose_create(n, &b[i], NULL, NULL);
    }
    const tdn_mm_controller_desc smooth = { .bias = 0.05f }, cut = { .bias = 0.05f, .inertialize_time = 1e-4f };
    run_figures rs = run_path(f, &smooth, humanoid_path, count, a);
    run_path(f, &smooth, humanoid_path, count, b);
    int identical = 1;
    for (int i = 0; i < frames && identical; i++)
        identical = memcmp(a[i].data, b[i].data, tdn_pose_bytes(n)) == 0;
    CHECK(identical);
    run_figures rc = run_path(f, &cut, humanoid_path, count, NULL);
    printf("largest joint turn in a frame at a switch: inertialized %.2f degrees, cut %.2f degrees\n",
           rs.largest_step_at_switch * 57.29578, rc.largest_step_at_switch * 57.29578);
    CHECK(rs.largest_step_at_switch < 0.5 * rc.largest_step_at_switch);
    for (int i = 0; i < frames; i++) {
        tdn_pose_destroy(&a[i]);
        tdn_pose_destroy(&b[i]);
    }
    free(a);
    free(b);
}

static int compare_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Foot skate (docs/metrics.md) as `tendon mm run` measures it: the mean horizontal speed of a
 * foot, in cm/s, over the frames it is in contact: within 5 cm of its ground (the 5th
 * percentile of its height over the run) and moving at most 0.5 m/s. From 1 s on. */
static double foot_skate(const mm_fixture *f, const segment *path, int count, int locking)
{
    tdn_mm_controller_desc d = { .database = f->db,
                                 .skeleton = f->skeleton,
                                 .clips = f->clips,
                                 .clip_count = f->clip_count,
                                 .mirror_table = f->mirror,
                                 .bias = 0.05f,
                                 .foot_locking = locking };
    tdn_mm_controller *c = NULL;
    CHECK_EQ_INT(tdn_mm_controller_create(&d, &c, NULL, NULL), TDN_OK);
    const int n = tdn_skeleton_joint_count(f->skeleton), frames = (int)(path_seconds(path, count) * 60.0f);
    tdn_pose pose;
    tdn_pose_create(n, &pose, NULL, NULL);
    tdn_mat4 *model = malloc(sizeof(tdn_mat4) * (size_t)n);
    tdn_vec3 *feet = malloc(sizeof(tdn_vec3) * 2 * (size_t)frames);
    float *heights = malloc(sizeof(float) * (size_t)frames);
    for (int i = 0; i < frames; i++) {
        tdn_mm_input in = input_at(path, count, (float)i / 60.0f);
        tdn_mm_controller_update(c, &in, 1.0f / 60.0f, &pose, NULL, NULL);
        tdn_model_space(f->skeleton, &pose, NULL, model, NULL);
        for (int k = 0; k < 2; k++) {
            const float *m = model[k ? f->desc.right_foot : f->desc.left_foot].m;
            feet[2 * i + k] = tdn_vec3_make(m[12], m[13], m[14]);
        }
    }
    double distance = 0;
    int contact_frames = 0;
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < frames; i++)
            heights[i] = feet[2 * i + k].y;
        qsort(heights, (size_t)frames, sizeof *heights, compare_float);
        const float ground = heights[frames / 20];
        for (int i = 61; i < frames; i++) {
            const tdn_vec3 p = feet[2 * i + k], q = feet[2 * (i - 1) + k];
            const double step = hypot(p.x - q.x, p.z - q.z);
            if (p.y <= ground + 0.05f && step * 60.0 <= 0.5) {
                distance += step;
                contact_frames++;
            }
        }
    }
    free(heights);
    free(feet);
    free(model);
    tdn_pose_destroy(&pose);
    tdn_mm_controller_destroy(c);
    CHECK(contact_frames > frames / 4);
    return contact_frames ? 100.0 * distance / (contact_frames / 60.0) : 0.0;
}

static void foot_locking_holds_planted_feet(const mm_fixture *f, const char *name, const segment *path, int count)
{
    const double free_feet = foot_skate(f, path, count, 0), locked = foot_skate(f, path, count, 1);
    printf("%s foot skate: %.2f cm/s, with foot locking %.3f cm/s\n", name, free_feet, locked);
    CHECK(locked < 0.25 * free_feet);
}

static void updates_never_allocate_and_bad_arguments_are_refused(const mm_fixture *f)
{
    tdn_mm_controller_desc d = { .database = f->db,
                                 .skeleton = f->skeleton,
                                 .clips = f->clips,
                                 .clip_count = f->clip_count,
                                 .mirror_table = f->mirror };
    tdn_mm_controller *c = NULL;
    CHECK_EQ_INT(tdn_mm_controller_create(&d, &c, &counting, NULL), TDN_OK);
    tdn_pose pose;
    tdn_pose_create(tdn_skeleton_joint_count(f->skeleton), &pose, NULL, NULL);
    const long before = total_allocations;
    const int count = sizeof humanoid_path / sizeof humanoid_path[0];
    for (int i = 0; i < 600; i++) {
        tdn_mm_input in = input_at(humanoid_path, count, (float)i / 60.0f);
        CHECK_EQ_INT(tdn_mm_controller_update(c, &in, 1.0f / 60.0f, &pose, NULL, NULL), TDN_OK);
    }
    CHECK_EQ_INT(total_allocations, before);
    tdn_mm_input bad = { tdn_vec3_make(NAN, 0, 0), 0 };
    CHECK_EQ_INT(tdn_mm_controller_update(c, &bad, 1.0f / 60.0f, &pose, NULL, NULL), TDN_ERR_ARGUMENT);
    tdn_mm_input fine = { tdn_vec3_make(0, 0, 0), 0 };
    CHECK_EQ_INT(tdn_mm_controller_update(c, &fine, -1.0f, &pose, NULL, NULL), TDN_ERR_ARGUMENT);
    tdn_pose small;
    tdn_pose_create(3, &small, NULL, NULL);
    CHECK_EQ_INT(tdn_mm_controller_update(c, &fine, 0.01f, &small, NULL, NULL), TDN_ERR_ARGUMENT);
    CHECK_EQ_INT(tdn_mm_controller_reset(c, tdn_mm_database_frame_count(f->db), tdn_vec3_make(0, 0, 0), 0, NULL),
                 TDN_ERR_ARGUMENT);
    tdn_pose_destroy(&small);
    tdn_pose_destroy(&pose);
    tdn_mm_controller_destroy(c);
    CHECK_EQ_INT(live_blocks, 0);

    tdn_error err = { 0 };
    d.clip_count = f->clip_count - 1;
    CHECK_EQ_INT(tdn_mm_controller_create(&d, &c, &counting, &err), TDN_ERR_ARGUMENT);
    CHECK(c == NULL && strcmp(err.where, "desc.clip_count") == 0);
    d.clip_count = f->clip_count;
    d.mirror_table = NULL;
    CHECK_EQ_INT(tdn_mm_controller_create(&d, &c, &counting, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "desc.mirror_table") == 0);
}

/* tdn_mm_controller_init in TDN_MM_CONTROLLER_ALIGN-aligned memory of tdn_mm_controller_bytes
 * runs exactly as a created controller (the same poses, bit for bit); memory misaligned, too
 * small or missing is refused naming it. */
static void a_controller_in_caller_memory_is_the_created_one(const mm_fixture *f)
{
    const tdn_mm_controller_desc d = { .database = f->db,
                                       .skeleton = f->skeleton,
                                       .clips = f->clips,
                                       .clip_count = f->clip_count,
                                       .mirror_table = f->mirror };
    const size_t bytes = tdn_mm_controller_bytes(&d);
    CHECK(bytes > 0);
    unsigned char *memory = aligned_alloc(TDN_MM_CONTROLLER_ALIGN, (bytes + 1 + TDN_MM_CONTROLLER_ALIGN) /
                                                                       TDN_MM_CONTROLLER_ALIGN *
                                                                       TDN_MM_CONTROLLER_ALIGN);
    tdn_mm_controller *created = NULL, *placed = (tdn_mm_controller *)memory;
    tdn_error err = { 0 };
    CHECK_EQ_INT(tdn_mm_controller_init(&d, memory + 1, bytes, &placed, &err), TDN_ERR_ARGUMENT);
    CHECK(placed == NULL && strcmp(err.where, "memory") == 0);
    CHECK_EQ_INT(tdn_mm_controller_init(&d, memory, bytes - 1, &placed, &err), TDN_ERR_OUT_OF_MEMORY);
    CHECK(placed == NULL && strcmp(err.where, "bytes") == 0);
    CHECK_EQ_INT(tdn_mm_controller_init(&d, NULL, bytes, &placed, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "memory") == 0);
    CHECK_EQ_INT(tdn_mm_controller_init(&d, memory, bytes, NULL, &err), TDN_ERR_ARGUMENT);
    CHECK(strcmp(err.where, "out") == 0);
    CHECK_EQ_INT(tdn_mm_controller_init(&d, memory, bytes, &placed, NULL), TDN_OK);
    CHECK_EQ_INT(tdn_mm_controller_create(&d, &created, NULL, NULL), TDN_OK);
    const int n = tdn_skeleton_joint_count(f->skeleton);
    tdn_pose a, b;
    tdn_pose_create(n, &a, NULL, NULL);
    tdn_pose_create(n, &b, NULL, NULL);
    const int count = sizeof humanoid_path / sizeof humanoid_path[0];
    int same = 1;
    for (int i = 0; i < 120 && placed && created; i++) {
        const tdn_mm_input in = input_at(humanoid_path, count, (float)i / 60.0f);
        CHECK_EQ_INT(tdn_mm_controller_update(placed, &in, 1.0f / 60.0f, &a, NULL, NULL), TDN_OK);
        CHECK_EQ_INT(tdn_mm_controller_update(created, &in, 1.0f / 60.0f, &b, NULL, NULL), TDN_OK);
        same &= memcmp(a.data, b.data, tdn_pose_bytes(n)) == 0;
    }
    CHECK(same);
    tdn_pose_destroy(&a);
    tdn_pose_destroy(&b);
    tdn_mm_controller_destroy(created);
    tdn_mm_controller_destroy(placed); /* one in caller memory is left alone */
    free(memory);
}

int main(void)
{
    mm_fixture f;
    if (mm_fixture_humanoid(&f, 1)) {
        follows_the_path(&f, "humanoid", humanoid_path, sizeof humanoid_path / sizeof humanoid_path[0]);
        root_motion_carries_the_character(&f, 0.1);
        switches_are_inertialized_and_runs_repeat(&f);
        foot_locking_holds_planted_feet(&f, "humanoid", humanoid_path, sizeof humanoid_path / sizeof humanoid_path[0]);
        updates_never_allocate_and_bad_arguments_are_refused(&f);
        a_controller_in_caller_memory_is_the_created_one(&f);
        mm_fixture_free(&f);
    }
    if (mm_fixture_lafan1(&f)) {
        follows_the_path(&f, "LAFAN1", lafan1_path, sizeof lafan1_path / sizeof lafan1_path[0]);
        root_motion_carries_the_character(&f, 0.25);
        foot_locking_holds_planted_feet(&f, "LAFAN1", lafan1_path, sizeof lafan1_path / sizeof lafan1_path[0]);
        mm_fixture_free(&f);
    }
    return check_summary();
}
