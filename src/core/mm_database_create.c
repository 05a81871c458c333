/* tendon core: a motion-matching database created from clips (tdn_mm_database_create).
 *
 * Per run (a clip, or its mirror image) every frame is sampled once into model space, keeping
 * the root's position and forward axis and the feet's positions. The simulation root is the
 * root's ground position and facing, smoothed by a Gaussian (clamped at the run's ends) and
 * the facing renormalized; velocities are central differences (one-sided at the ends). Then
 * every frame's raw features are written, and at the end all are normalized in place. */
#include "mm_internal.h"
#include "tendon/mirror.h"
#include "tendon/model_space.h"

#include <stdio.h>
#include <string.h>

#define DEFAULT_RATE 60.0f

/* What one frame of a run gives before features. */
typedef struct sampled {
    float root[3];    /* the root joint's model position */
    float forward[2]; /* its forward axis on the ground (x, z), unit (or 0 when vertical) */
    float feet[2][3];
} sampled;

/* The settings once defaults are applied. */
typedef struct build_plan {
    float rate, smoothing;
    int offsets[TDN_MM_MAX_OFFSETS], offset_count;
    float weights[TDN_MM_GROUP_COUNT];
    tdn_vec3 forward;
    int runs; /* clip_count * (1 or 2) */
    int total_frames, longest_run, most_tracks;
} build_plan;

/* Frames of a clip at the rate, or -1 when they would be more than a database holds (counted
 * as a float, and only then made an int). */
static int frames_of(const tdn_keyed_clip *clip, float rate)
{
    const float last = floorf(tdn_keyed_clip_duration(clip) * rate + 1e-3f);
    return last < (float)TDN__MM_MAX_FRAMES ? (int)last + 1 : -1;
}

static tdn_result check_desc(const tdn_mm_database_desc *desc, build_plan *plan, tdn_error *err)
{
    memset(plan, 0, sizeof *plan);
    if (!desc->skeleton || !desc->clips || desc->clip_count < 1)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc", "a skeleton and at least one clip are needed");
    const int n = tdn_skeleton_joint_count(desc->skeleton);
    const int16_t *parents = tdn_skeleton_parents(desc->skeleton);
    if (desc->root < 0 || desc->root >= n || parents[desc->root] >= 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.root", "joint %d is not a root of the skeleton", desc->root);
    if (desc->left_foot < 0 || desc->left_foot >= n || desc->right_foot < 0 || desc->right_foot >= n)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.left_foot", "feet %d and %d must be joints (0..%d)",
                         desc->left_foot, desc->right_foot, n - 1);
    if (!(desc->sample_rate >= 0.0f && desc->sample_rate <= TDN__MM_MAX_RATE))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.sample_rate", "%g is not in [0, %g] (0: 60)",
                         (double)desc->sample_rate, (double)TDN__MM_MAX_RATE);
    if (!(desc->smoothing <= 10.0f) || !tdn__finite(desc->smoothing))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.smoothing", "%g is not finite and at most 10 s",
                         (double)desc->smoothing);
    plan->rate = desc->sample_rate > 0.0f ? desc->sample_rate : DEFAULT_RATE;
    plan->smoothing = desc->smoothing == 0.0f  ? TDN_MM_DEFAULT_SMOOTHING
                      : desc->smoothing > 0.0f ? desc->smoothing
                                               : 0.0f;
    if (desc->offset_count == 0) {
        static const int defaults[3] = { 20, 40, 60 };
        memcpy(plan->offsets, defaults, sizeof defaults);
        plan->offset_count = 3;
    } else {
        if (desc->offset_count < 0 || desc->offset_count > TDN_MM_MAX_OFFSETS)
            return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.offset_count", "%d offsets (1..%d)", desc->offset_count,
                             TDN_MM_MAX_OFFSETS);
        for (int k = 0; k < desc->offset_count; k++)
            if (desc->offsets[k] <= (k > 0 ? desc->offsets[k - 1] : 0))
                return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.offsets",
                                 "offset %d (%d frames) must be positive and above the one before", k,
                                 desc->offsets[k]);
        memcpy(plan->offsets, desc->offsets, sizeof(int) * (size_t)desc->offset_count);
        plan->offset_count = desc->offset_count;
    }
    int any_weight = 0, all_positive = 1;
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++) {
        if (!(desc->weights[g] >= 0.0f && desc->weights[g] <= TDN__MM_MAX_VALUE))
            return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.weights", "group %d's weight must be in [0, %g]", g,
                             (double)TDN__MM_MAX_VALUE);
        any_weight |= desc->weights[g] > 0.0f;
        all_positive &= desc->weights[g] > 0.0f;
    }
    /* the features are stored scaled by their weight: a group at 0 would lose what the
     * controller reads back from it (the feet, for contacts) */
    if (any_weight && !all_positive)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.weights",
                         "every group's weight must be above 0 (or all 0 for the defaults); a small weight makes "
                         "a group count little");
    /* by default the trajectory counts double: with equal weights a character standing still
     * stays standing when asked to walk off, its feet's stillness outweighing the trajectory
     * (LAFAN1: 1.5 m behind on the demo path, against 0.05 m at 2, 2, 1, 1, 1) */
    static const float default_weights[TDN_MM_GROUP_COUNT] = { 2.0f, 2.0f, 1.0f, 1.0f, 1.0f };
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++)
        plan->weights[g] = any_weight ? desc->weights[g] : default_weights[g];
    plan->forward = tdn_vec3_dot(desc->forward, desc->forward) > 0.0f ? tdn_vec3_normalize(desc->forward)
                                                                      : tdn_vec3_make(0, 0, 1);
    if (!tdn__finite(plan->forward.x) || !tdn__finite(plan->forward.y) || !tdn__finite(plan->forward.z))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.forward", "the forward axis must be finite");
    if (desc->mirror_table && tdn_mirror_table_check(desc->mirror_table, n, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    if (desc->excluded_count < 0 || (desc->excluded_count > 0 && !desc->excluded))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.excluded", "%d ranges and no array", desc->excluded_count);
    for (int i = 0; i < desc->excluded_count; i++) {
        const tdn_mm_range *r = &desc->excluded[i];
        if (r->clip < 0 || r->clip >= desc->clip_count || !tdn__finite(r->start) || !tdn__finite(r->end))
            return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.excluded",
                             "range %d: a clip out of range or a non-finite time", i);
    }
    plan->runs = desc->clip_count * (desc->mirror_table ? 2 : 1);
    plan->total_frames = plan->longest_run = plan->most_tracks = 0;
    for (int c = 0; c < desc->clip_count; c++) {
        const tdn_keyed_clip *clip = desc->clips[c];
        char where[32];
        snprintf(where, sizeof where, "desc.clips[%d]", c);
        if (!clip)
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "a NULL clip");
        const tdn_skeleton *s = tdn_keyed_clip_skeleton(clip);
        if (tdn_skeleton_joint_count(s) != n ||
            memcmp(tdn_skeleton_parents(s), parents, sizeof(int16_t) * (size_t)n) != 0)
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "clip \"%s\" animates another skeleton",
                             tdn_keyed_clip_name(clip));
        const int frames = frames_of(clip, plan->rate);
        if (frames < 0 || frames > (1 << 24) / (desc->mirror_table ? 2 : 1) - plan->total_frames)
            return tdn__fail(err, TDN_ERR_ARGUMENT, where, "too many frames: %g s at %g Hz with the clips before it",
                             (double)tdn_keyed_clip_duration(clip), (double)plan->rate);
        plan->total_frames += frames * (desc->mirror_table ? 2 : 1);
        plan->longest_run = frames > plan->longest_run ? frames : plan->longest_run;
        const int tracks = tdn_keyed_clip_track_count(clip);
        plan->most_tracks = tracks > plan->most_tracks ? tracks : plan->most_tracks;
    }
    return TDN_OK;
}

/* Samples a run's frames into out (frames entries). */
static void sample_run(const tdn_mm_database_desc *desc, const build_plan *plan, const tdn_keyed_clip *clip,
                       int mirrored, int frames, tdn_pose *pose, tdn_mat4 *model, int *hints, sampled *out)
{
    memset(hints, 0, sizeof(int) * (size_t)plan->most_tracks);
    const float duration = tdn_keyed_clip_duration(clip);
    for (int f = 0; f < frames; f++) {
        float t = (float)f / plan->rate;
        tdn_keyed_clip_sample(clip, t < duration ? t : duration, pose, hints, NULL);
        if (mirrored)
            tdn_pose_mirror(pose, desc->mirror_table, pose, NULL);
        tdn_model_space(desc->skeleton, pose, NULL, model, NULL);
        const float *r = model[desc->root].m;
        sampled *s = &out[f];
        s->root[0] = r[12], s->root[1] = r[13], s->root[2] = r[14];
        tdn_vec3 fwd = tdn_vec3_make(r[0] * plan->forward.x + r[4] * plan->forward.y + r[8] * plan->forward.z, 0.0f,
                                     r[2] * plan->forward.x + r[6] * plan->forward.y + r[10] * plan->forward.z);
        float len = sqrtf(fwd.x * fwd.x + fwd.z * fwd.z);
        s->forward[0] = len > 1e-6f ? fwd.x / len : 0.0f;
        s->forward[1] = len > 1e-6f ? fwd.z / len : 0.0f;
        for (int k = 0; k < 2; k++) {
            const float *m = model[k == 0 ? desc->left_foot : desc->right_foot].m;
            s->feet[k][0] = m[12], s->feet[k][1] = m[13], s->feet[k][2] = m[14];
        }
    }
}

/* The Gaussian-smoothed simulation root of frame f: ground position and unit facing. */
static void smoothed_root(const sampled *s, int frames, int f, float sigma_frames, float *x, float *z, float *facing)
{
    float px = 0, pz = 0, fx = 0, fz = 0, total = 0;
    const int reach = sigma_frames > 0.0f ? (int)ceilf(3.0f * sigma_frames) : 0;
    for (int k = -reach; k <= reach; k++) {
        int i = f + k < 0 ? 0 : f + k >= frames ? frames - 1 : f + k;
        float w = reach > 0 ? expf(-0.5f * (float)(k * k) / (sigma_frames * sigma_frames)) : 1.0f;
        px += w * s[i].root[0], pz += w * s[i].root[2];
        fx += w * s[i].forward[0], fz += w * s[i].forward[1];
        total += w;
    }
    *x = px / total, *z = pz / total;
    *facing = fx * fx + fz * fz > 0.0f ? atan2f(fx, fz) : 0.0f;
}

/* A sampled point: the root joint (which < 0) or foot `which`. */
static tdn_vec3 point_of(const sampled *s, int which)
{
    const float *p = which < 0 ? s->root : s->feet[which];
    return tdn_vec3_make(p[0], p[1], p[2]);
}

/* The velocity of point `which` at frame f, per second: a central difference, one-sided at
 * the ends. */
static tdn_vec3 velocity(const sampled *s, int frames, int f, int which, float rate)
{
    const int a = f > 0 ? f - 1 : f, b = f + 1 < frames ? f + 1 : f;
    if (a == b)
        return tdn_vec3_make(0, 0, 0);
    return tdn_vec3_scale(tdn_vec3_sub(point_of(&s[b], which), point_of(&s[a], which)), rate / (float)(b - a));
}

static int excluded(const tdn_mm_database_desc *desc, int clip, float t)
{
    for (int i = 0; i < desc->excluded_count; i++)
        if (desc->excluded[i].clip == clip && t >= desc->excluded[i].start && t <= desc->excluded[i].end)
            return 1;
    return 0;
}

/* Writes the run's frames (first at db frame `first`) and their raw features. */
static void write_run(const tdn_mm_database_desc *desc, const build_plan *plan, tdn_mm_database *db, int clip,
                      int mirrored, int first, const sampled *s, int frames)
{
    const float sigma = plan->smoothing * plan->rate;
    for (int f = 0; f < frames; f++) {
        float x, z, facing;
        smoothed_root(s, frames, f, sigma, &x, &z, &facing);
        db->frames[first + f] = (tdn_mm_frame){ .clip = clip,
                                                .mirrored = mirrored,
                                                .time = (float)f / plan->rate,
                                                .searchable = f + plan->offsets[plan->offset_count - 1] < frames &&
                                                              !excluded(desc, clip, (float)f / plan->rate),
                                                .root = tdn_vec3_make(x, 0.0f, z),
                                                .facing = facing };
    }
    for (int f = 0; f < frames; f++) {
        const tdn_mm_frame *here = &db->frames[first + f];
        float *out = tdn__mm_row(db, first + f);
        tdn_vec3 ahead[TDN_MM_MAX_OFFSETS];
        float ahead_facing[TDN_MM_MAX_OFFSETS];
        for (int k = 0; k < plan->offset_count; k++) {
            const tdn_mm_frame
                *a = &db->frames[first + (f + plan->offsets[k] < frames ? f + plan->offsets[k] : frames - 1)];
            ahead[k] = a->root;
            ahead_facing[k] = a->facing;
        }
        tdn__mm_trajectory_features(db, here->root, here->facing, ahead, ahead_facing, out);
        for (int foot = 0; foot < 2; foot++) {
            tdn_vec3 p = tdn__mm_into_root(tdn_vec3_sub(point_of(&s[f], foot), here->root), here->facing);
            tdn_vec3 v = tdn__mm_into_root(velocity(s, frames, f, foot, plan->rate), here->facing);
            memcpy(out + db->group_start[TDN_MM_FOOT_POSITION] + 3 * foot, &p, sizeof(float) * 3);
            memcpy(out + db->group_start[TDN_MM_FOOT_VELOCITY] + 3 * foot, &v, sizeof(float) * 3);
        }
        tdn_vec3 hip = tdn__mm_into_root(velocity(s, frames, f, -1, plan->rate), here->facing);
        memcpy(out + db->group_start[TDN_MM_HIP_VELOCITY], &hip, sizeof(float) * 3);
    }
}

/* Mean and scale (weight / the group's mean standard deviation) over searchable frames, then
 * every row normalized in place. */
static void normalize_all(tdn_mm_database *db, const build_plan *plan)
{
    const int dims = db->dims;
    double sum[TDN_MM_MAX_DIMENSIONS] = { 0 }, sum2[TDN_MM_MAX_DIMENSIONS] = { 0 };
    int count = 0;
    for (int i = 0; i < db->frame_count; i++) {
        if (!db->frames[i].searchable)
            continue;
        const float *f = tdn__mm_row(db, i);
        for (int d = 0; d < dims; d++)
            sum[d] += f[d], sum2[d] += (double)f[d] * f[d];
        count++;
    }
    for (int d = 0; d < dims; d++)
        db->mean[d] = (float)(sum[d] / count);
    for (int g = 0; g < TDN_MM_GROUP_COUNT; g++) {
        double spread = 0.0, magnitude = 0.0;
        for (int d = db->group_start[g]; d < db->group_start[g] + db->group_size[g]; d++) {
            double m = sum[d] / count, var = sum2[d] / count - m * m;
            spread += sqrt(var > 0.0 ? var : 0.0);
            magnitude += sum2[d] / count;
        }
        spread /= db->group_size[g];
        magnitude = sqrt(magnitude / db->group_size[g]);
        /* A group that hardly varies (clips that seldom turn: facing directions all near
         * straight ahead) would be magnified by 1 / its spread until it decides every search
         * (the CMU takes: costs of thousands, the character stuck). Its spread is taken as at
         * least a tenth of the group's size (root mean square), and a group with neither
         * keeps its own units. */
        spread = spread > 0.1 * magnitude ? spread : 0.1 * magnitude;
        for (int d = db->group_start[g]; d < db->group_start[g] + db->group_size[g]; d++)
            db->scale[d] = spread > 1e-4 ? (float)(plan->weights[g] / spread) : plan->weights[g];
    }
    for (int i = 0; i < db->frame_count; i++) {
        float *f = tdn__mm_row(db, i);
        tdn_mm_database_normalize(db, f, f, NULL);
    }
}

tdn_result tdn_mm_database_create(const tdn_mm_database_desc *desc, tdn_mm_database **out,
                                  const tdn_allocator *allocator, tdn_error *err)
{
    if (out)
        *out = NULL;
    if (!desc || !out)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "desc", "a NULL description or output");
    build_plan plan;
    tdn_result res = check_desc(desc, &plan, err);
    if (res != TDN_OK || (res = tdn__check_allocator(allocator, err)) != TDN_OK)
        return res;
    int group_start[TDN_MM_GROUP_COUNT], group_size[TDN_MM_GROUP_COUNT];
    const int dims = tdn__mm_clip_layout(plan.offset_count, group_start, group_size);
    tdn_mm_database *db = tdn__mm_database_alloc(allocator, plan.total_frames, dims, desc->clip_count);
    const int n = tdn_skeleton_joint_count(desc->skeleton);
    tdn_pose pose = { 0 };
    tdn_mat4 *model = tdn__alloc(allocator, sizeof(tdn_mat4) * (size_t)n, 64);
    int *hints = tdn__alloc(allocator, sizeof(int) * (size_t)(plan.most_tracks + 1), 64);
    sampled *samples = tdn__alloc(allocator, sizeof(sampled) * (size_t)plan.longest_run, 64);
    if (!db || !model || !hints || !samples || tdn_pose_create(n, &pose, allocator, err) != TDN_OK) {
        res = tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "database", "no memory for %d frames", plan.total_frames);
        goto done;
    }
    db->rate = plan.rate;
    db->root = desc->root;
    db->left_foot = desc->left_foot;
    db->right_foot = desc->right_foot;
    db->forward = plan.forward;
    db->offset_count = plan.offset_count;
    memcpy(db->offsets, plan.offsets, sizeof plan.offsets);
    memcpy(db->weights, plan.weights, sizeof plan.weights);
    memcpy(db->group_start, group_start, sizeof group_start);
    memcpy(db->group_size, group_size, sizeof group_size);

    int first = 0, searchable = 0;
    for (int run = 0; run < plan.runs; run++) {
        const int clip = run % desc->clip_count, mirrored = run / desc->clip_count;
        const int frames = frames_of(desc->clips[clip], plan.rate);
        sample_run(desc, &plan, desc->clips[clip], mirrored, frames, &pose, model, hints, samples);
        write_run(desc, &plan, db, clip, mirrored, first, samples, frames);
        db->clip_first[clip * 2 + mirrored] = first;
        db->clip_frames[clip * 2 + mirrored] = frames;
        first += frames;
        if (desc->progress)
            desc->progress(desc->progress_user, (float)(run + 1) / (float)plan.runs);
    }
    for (int i = 0; i < db->frame_count; i++)
        searchable += db->frames[i].searchable;
    if (searchable == 0) {
        res = tdn__fail(err, TDN_ERR_INVALID_DATA, "desc.clips",
                        "no frame is searchable: clips must be longer than the "
                        "longest trajectory offset (%d frames at %g Hz)",
                        plan.offsets[plan.offset_count - 1], plan.rate);
        goto done;
    }
    normalize_all(db, &plan);
    res = tdn__mm_database_check_ranges(db, err); /* what a loader would refuse is not made */
    if (res != TDN_OK)
        goto done;
    tdn__mm_database_boxes(db);
    *out = db;
    db = NULL;
done:
    tdn_pose_destroy(&pose);
    tdn__free(allocator, samples, sizeof(sampled) * (size_t)plan.longest_run);
    tdn__free(allocator, hints, sizeof(int) * (size_t)(plan.most_tracks + 1));
    tdn__free(allocator, model, sizeof(tdn_mat4) * (size_t)n);
    tdn_mm_database_destroy(db);
    return res;
}
