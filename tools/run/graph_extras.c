/* tendon CLI: what a graph document declares that the graph API does not report (see
 * graph_extras.h). */
#include "graph_extras.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json_file.h"

static void read_root_motion(const tdn_skeleton *skel, graph_extras *x);

void graph_extras_read(const char *path, const tdn_skeleton *skel, graph_extras *x)
{
    memset(x, 0, sizeof *x);
    char why[256];
    json_file_read(path, &x->json, why, sizeof why); /* the graph loader has already said what is wrong with it */
    read_root_motion(skel, x);
}

void graph_extras_read_text(const char *text, size_t size, const tdn_skeleton *skel, graph_extras *x)
{
    memset(x, 0, sizeof *x);
    char why[256];
    json_text_parse(text, size, "", &x->json, why, sizeof why); /* as above */
    read_root_motion(skel, x);
}

/* The document's "root_motion", as the graph loader reads it. */
static void read_root_motion(const tdn_skeleton *skel, graph_extras *x)
{
    const cJSON *rm = cJSON_GetObjectItemCaseSensitive(x->json, "root_motion");
    if (!cJSON_IsObject(rm))
        return;
    const cJSON *extract = cJSON_GetObjectItemCaseSensitive(rm, "extract");
    x->extract = !cJSON_IsFalse(extract); /* the format's default: extract */
    const cJSON *joint = cJSON_GetObjectItemCaseSensitive(rm, "joint");
    if (cJSON_IsString(joint))
        x->root_motion.joint = tdn_skeleton_find_joint(skel, joint->valuestring);
    else if (cJSON_IsNumber(joint))
        x->root_motion.joint = joint->valueint;
    if (x->root_motion.joint < 0 || x->root_motion.joint >= tdn_skeleton_joint_count(skel))
        x->root_motion.joint = 0;
    const cJSON *rotation = cJSON_GetObjectItemCaseSensitive(rm, "rotation");
    if (cJSON_IsString(rotation))
        x->root_motion.rotation = strcmp(rotation->valuestring, "full") == 0   ? TDN_ROOT_FULL_ROTATION
                                  : strcmp(rotation->valuestring, "none") == 0 ? TDN_ROOT_NO_ROTATION
                                                                               : TDN_ROOT_YAW;
    x->root_motion.keep_vertical = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rm, "keep_vertical"));
}

/* The JSON of a node from its name: a key of "nodes", or the JSON path the loader names
 * unnamed nodes by ("layers[0].root", "nodes.loco.states[1].node"). A node given as a string
 * is followed to the named node. NULL when not found. */
static const cJSON *node_json(const cJSON *doc, const char *name)
{
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(doc, "nodes");
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(nodes, name);
    if (!at) {
        at = doc;
        char key[256];
        for (const char *p = name; at && *p;) {
            size_t n = strcspn(p, ".[");
            if (n >= sizeof key)
                return NULL;
            if (n > 0) {
                memcpy(key, p, n);
                key[n] = '\0';
                at = cJSON_GetObjectItemCaseSensitive(at, key);
                p += n;
            }
            while (at && *p == '[') {
                char *end;
                long i = strtol(p + 1, &end, 10);
                if (*end != ']')
                    return NULL;
                at = cJSON_GetArrayItem(at, (int)i);
                p = end + 1;
            }
            if (*p == '.')
                p++;
        }
    }
    for (int hops = 0; cJSON_IsString(at) && hops < 64; hops++)
        at = cJSON_GetObjectItemCaseSensitive(nodes, at->valuestring);
    return cJSON_IsObject(at) ? at : NULL;
}

void graph_extras_transition(const graph_extras *x, const tdn_graph *g, int machine, int index, float fps,
                             const char **mode, double *seconds, int *frames)
{
    const cJSON *doc = x->json;
    static const char *const modes[] = { "smooth", "frozen", "cut", "inertialize" };
    *mode = NULL;
    *seconds = 0.0;
    *frames = 0;
    const cJSON *m = doc ? node_json(doc, tdn_graph_node_name(g, machine)) : NULL;
    const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(m, "transitions"), index);
    if (!cJSON_IsObject(t))
        return;
    const cJSON *mj = cJSON_GetObjectItemCaseSensitive(t, "mode");
    *mode = modes[0];
    for (int k = 0; k < 4; k++)
        if (cJSON_IsString(mj) && strcmp(mj->valuestring, modes[k]) == 0)
            *mode = modes[k];
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(t, "duration");
    if (cJSON_IsNumber(d) && d->valuedouble > 0.0) { /* counted as a double, capped, then made an int */
        *seconds = d->valuedouble;
        *frames = d->valuedouble * fps < 1e9 ? (int)lround(d->valuedouble * fps) : 1000000000;
    }
}

void graph_extras_character_warnings(const graph_extras *x, const char *graph, const tdn_asset *asset)
{
    const cJSON *doc = x->json;
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "character"), "file");
    if (!cJSON_IsString(file) || tdn_asset_warning_count(asset) == 0)
        return;
    const size_t folder = (size_t)(cli_base_name(graph) - graph); /* up to and with the last separator */
    char path[4096];
    if (file->valuestring[0] == '/' || folder == 0)
        snprintf(path, sizeof path, "%s", file->valuestring);
    else
        snprintf(path, sizeof path, "%.*s%s", (int)folder, graph, file->valuestring);
    cli_print_warnings("run", path, asset);
}

int graph_extras_ik_targets(const graph_extras *x, const tdn_graph *g, int max, int *target_param, int *weight_param,
                            float *weight_const)
{
    int count = 0;
    const cJSON *ik = cJSON_GetObjectItemCaseSensitive(x->json, "ik");
    const cJSON *job;
    cJSON_ArrayForEach(job, ik)
    {
        const cJSON *target = cJSON_GetObjectItemCaseSensitive(job, "target");
        const cJSON *weight = cJSON_GetObjectItemCaseSensitive(job, "weight");
        const int p = cJSON_IsString(target) ? tdn_graph_find_param(g, target->valuestring) : -1;
        if (p < 0 || tdn_graph_param_type(g, p) != TDN_PARAM_VEC3 || count >= max)
            continue;
        target_param[count] = p;
        weight_param[count] = cJSON_IsString(weight) ? tdn_graph_find_param(g, weight->valuestring) : -1;
        weight_const[count] = cJSON_IsNumber(weight) ? (float)weight->valuedouble : 1.0f; /* absent: 1 */
        count++;
    }
    return count;
}

void graph_extras_free(graph_extras *x)
{
    cJSON_Delete(x->json);
    x->json = NULL;
}
