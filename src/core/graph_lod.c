/* tendon core: level of detail by update rate (graph.h, "level of detail"): a batch character's
 * frame between evaluations, and the budget mode's choice of rates. */
#include <math.h>
#include <string.h>

#include "graph_joint_lod.h"
#include "graph_lod.h"
#include "internal.h"

/* ---- a character's frame ---- */

/* The pose re-expressed in the character's frame after a root motion step whose inverse is
 * `inverse`: its parentless joints carry the whole body (each root's subtree ends where the
 * next root starts: joints are stored parent-before-child, depth first). */
static void reanchor(tdn_pose *pose, const tdn_skeleton *skeleton, const tdn_transform *inverse)
{
    for (int j = 0; j < pose->joint_count; j = tdn_skeleton_subtree_end(skeleton, j)) {
        const tdn_transform x = tdn_pose_get(pose, j);
        const tdn_transform moved = tdn_transform_mul(inverse, &x);
        tdn_pose_set(pose, j, &moved);
    }
}

/* Joints [begin, end) of `shown` moved a fraction w (0 < w <= 1) of the way to `target`:
 * translations and scales lerped, rotations nlerped the short way; at w = 1 exactly the target.
 * A loop of its own: tdn_blend2's weight rows, masks and exact ends cost more than the approach
 * itself. */
static void approach(tdn_pose *shown, const tdn_pose *target, float w, int begin, int end)
{
    const size_t stride = (size_t)shown->stride, b = (size_t)begin, e = (size_t)end;
    float *restrict s = shown->data;
    const float *restrict t = target->data;
    if (w >= 1.0f) {
        for (size_t r = 0; r < TDN_POSE_ROWS; r++)
            memcpy(s + r * stride + b, t + r * stride + b, sizeof(float) * (e - b));
        return;
    }
    for (size_t r = 0; r < TDN_POSE_ROWS; r++) {
        if (r == TDN_RX) { /* rotations below */
            r = TDN_RW;
            continue;
        }
        for (size_t i = r * stride + b; i < r * stride + e; i++) /* translations and scales */
            s[i] += (t[i] - s[i]) * w;
    }
    float *restrict x = s + TDN_RX * stride, *restrict y = s + TDN_RY * stride, *restrict z = s + TDN_RZ * stride,
                    *restrict q = s + TDN_RW * stride;
    const float *tx = t + TDN_RX * stride, *ty = t + TDN_RY * stride, *tz = t + TDN_RZ * stride,
                *tw = t + TDN_RW * stride;
    for (size_t j = b; j < e; j++) {
        const float dot = x[j] * tx[j] + y[j] * ty[j] + z[j] * tz[j] + q[j] * tw[j];
        const float sign = tdn__select(dot < 0.0f, -1.0f, 1.0f);
        const float nx = x[j] + (sign * tx[j] - x[j]) * w, ny = y[j] + (sign * ty[j] - y[j]) * w;
        const float nz = z[j] + (sign * tz[j] - z[j]) * w, nw = q[j] + (sign * tw[j] - q[j]) * w;
        const float inv = 1.0f / sqrtf(nx * nx + ny * ny + nz * nz + nw * nw);
        x[j] = nx * inv, y[j] = ny * inv, z[j] = nz * inv, q[j] = nw * inv;
    }
}

/* The instance evaluated into `out`: whole, or with a joint LOD into the workspace and its kept
 * joints copied, so that `out`'s dropped joints stay as they were (out may be the pose output). */
static void evaluate(tdn_graph_instance *instance, tdn_graph_workspace *ws, const tdn_joint_lod *joint_lod,
                     tdn_pose *out)
{
    if (!joint_lod) {
        tdn__graph_evaluate(instance, ws, out);
        return;
    }
    tdn__graph_evaluate_joints(instance, ws, joint_lod, &ws->batch_pose);
    tdn__joint_lod_copy(joint_lod, &ws->batch_pose, out);
}

tdn_pose *tdn__graph_lod_frame(tdn_graph_lod *lod, tdn_graph_instance *instance, tdn_graph_workspace *ws,
                               const tdn_skeleton *skeleton, const tdn_joint_lod *joint_lod, int updated)
{
    const unsigned rate = lod->rate > 1 ? (unsigned)lod->rate : 1u;
    const unsigned phase = lod->clock % rate;
    const int evaluate_now = !lod->primed || lod->arrived || phase == 0;
    /* frames until the shown pose must reach the target (the one before the next evaluation),
     * this one included */
    const int left = (int)(rate - phase);
    const int into_shown = !lod->primed || (evaluate_now && left == 1); /* no approach: shown is evaluated */
    const tdn_graph *g = instance->graph;
    if (lod->primed && updated && (g->extract_root_motion || g->mm_count > 0)) {
        tdn_root_motion m;
        tdn_graph_root_motion(instance, &m, NULL);
        const tdn_transform step = { m.translation, m.rotation, { 1.0f, 1.0f, 1.0f } };
        const tdn_transform inverse = tdn_transform_inverse(&step);
        if (!into_shown)
            reanchor(lod->shown, skeleton, &inverse);
        if (!lod->arrived && !evaluate_now)
            reanchor(lod->target, skeleton, &inverse);
    }
    if (into_shown) {
        evaluate(instance, ws, joint_lod, lod->shown);
        lod->arrived = 1;
    } else {
        if (evaluate_now)
            evaluate(instance, ws, joint_lod, lod->target);
        const float w = 1.0f / (float)left; /* exact at the last step (w = 1) */
        if (joint_lod)
            for (int r = 0; r < joint_lod->kept_count; r++)
                approach(lod->shown, lod->target, w, joint_lod->kept[r].begin, joint_lod->kept[r].end);
        else
            approach(lod->shown, lod->target, w, 0, lod->shown->stride);
        lod->arrived = left == 1;
    }
    lod->primed = 1;
    lod->clock++;
    return lod->shown;
}

/* ---- the budget mode ---- */

#define MAX_LEVELS 11 /* rates 1 .. 1024 */

/* How many importances are at most t (NaN, 0 and negative ones always are): written so that it
 * vectorizes, as the bisection runs it a few dozen times over the crowd. */
static int count_at_most(const float *importance, int count, float t)
{
    int n = 0;
    for (int k = 0; k < count; k++)
        n += !(importance[k] > t);
    return n;
}

/* The threshold of level j at scale s: importances at most s / 2^j have a rate of at least 2^j. */
static float level_threshold(double s, int j) { return (float)ldexp(s, -j); }

/* The crowd's cost at scale s: every character starts at rate 1 and saves the difference of
 * each level it passes. */
static double cost_at(const float *importance, int count, double s, int levels, const double *level_cost)
{
    double cost = level_cost[0] * count;
    for (int j = 1; j < levels; j++)
        cost -= (level_cost[j - 1] - level_cost[j]) * count_at_most(importance, count, level_threshold(s, j));
    return cost;
}

static int finite_at_least_0(double x) { return isfinite(x) && x >= 0.0; }

tdn_result tdn_graph_lod_choose_rates(const float *importance, int count, const tdn_graph_lod_budget *budget,
                                      int *rates, double *cost_ns, tdn_error *err)
{
    if (count < 0)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "count", "%d is negative", count);
    if (!budget || (count > 0 && (!importance || !rates)))
        return tdn__null(err, !budget ? "budget" : !importance ? "importance" : "rates");
    if (!finite_at_least_0(budget->budget_ns))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "budget.budget_ns", "%g is not a finite time >= 0", budget->budget_ns);
    if (!finite_at_least_0(budget->interpolated_ns))
        return tdn__fail(err, TDN_ERR_ARGUMENT, "budget.interpolated_ns", "%g is not a finite time >= 0",
                         budget->interpolated_ns);
    if (!finite_at_least_0(budget->evaluated_ns) || budget->evaluated_ns < budget->interpolated_ns)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "budget.evaluated_ns",
                         "%g is not a finite time at least interpolated_ns (%g)", budget->evaluated_ns,
                         budget->interpolated_ns);
    const int max_rate = budget->max_rate ? budget->max_rate : 4;
    int levels = 1;
    while (levels < MAX_LEVELS && (1 << (levels - 1)) < max_rate)
        levels++;
    if (max_rate < 1 || (1 << (levels - 1)) != max_rate)
        return tdn__fail(err, TDN_ERR_ARGUMENT, "budget.max_rate", "%d is not a power of two from 1 to %d", max_rate,
                         1 << (MAX_LEVELS - 1));
    double level_cost[MAX_LEVELS];
    for (int j = 0; j < levels; j++)
        level_cost[j] = budget->interpolated_ns + (budget->evaluated_ns - budget->interpolated_ns) / (1 << j);

    /* the scale: 0 puts every character that matters at rate 1; at the largest importance times
     * max_rate every one is at max_rate. Between, the cost falls as the scale grows: bisect (in
     * ratios) for the smallest scale that fits. */
    float most = 0.0f, least = INFINITY;
    for (int k = 0; k < count; k++)
        if (importance[k] > 0.0f && isfinite(importance[k])) {
            most = fmaxf(most, importance[k]);
            least = fminf(least, importance[k]);
        }
    double s = 0.0;
    if (cost_at(importance, count, 0.0, levels, level_cost) > budget->budget_ns && most > 0.0f) {
        double lo = least, hi = (double)most * max_rate; /* cost(lo) is cost(0): over the budget */
        if (cost_at(importance, count, hi, levels, level_cost) <= budget->budget_ns)
            for (int i = 0; i < 64 && hi > lo * (1.0 + 1e-6); i++) {
                const double mid = sqrt(lo * hi);
                if (cost_at(importance, count, mid, levels, level_cost) <= budget->budget_ns)
                    hi = mid;
                else
                    lo = mid;
            }
        s = hi; /* fits, or every character at max_rate: the cheapest there is */
    }
    float threshold[MAX_LEVELS];
    for (int j = 1; j < levels; j++)
        threshold[j] = level_threshold(s, j);
    for (int k = 0; k < count; k++) {
        int j = 1;
        while (j < levels && !(importance[k] > threshold[j]))
            j++;
        rates[k] = 1 << (j - 1);
    }
    if (cost_ns)
        *cost_ns = cost_at(importance, count, s, levels, level_cost);
    return TDN_OK;
}
