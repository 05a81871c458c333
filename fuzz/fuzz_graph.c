/* Fuzz target: graph documents (tdn_graph_document_parse). Any input must load or fail
 * cleanly (the sanitizers catch the rest); a failure must leave no document and name its place;
 * a loaded document must run: an instance updates and evaluates to finite poses whatever its
 * float parameters are set to (values taken from the input's first bytes). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tendon/graph_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run(const tdn_graph_document *d, const uint8_t *data, size_t size)
{
    const tdn_graph *g = tdn_graph_document_graph(d);
    const tdn_skeleton *s = tdn_graph_document_skeleton(d);
    tdn_graph_instance *in = NULL;
    tdn_pose pose;
    if (!g || !s || tdn_graph_instance_create(g, NULL, &in) != TDN_OK)
        abort();
    if (tdn_pose_create(&pose, tdn_skeleton_joint_count(s), NULL) != TDN_OK)
        abort();
    for (int frame = 0; frame < 8; frame++) {
        for (int p = 0; p < tdn_graph_param_count(g); p++) {
            uint8_t byte = size ? data[(size_t)(frame * 7 + p) % size] : 0;
            float v = ((float)byte - 96.0f) / 32.0f; /* -3 .. 5 */
            float vector[3] = { v, -v, 0.5f * v };
            tdn_graph_set_float(in, p, v);
            tdn_graph_set_int(in, p, byte % 5 - 1);
            tdn_graph_set_bool(in, p, byte & 1);
            tdn_graph_set_vector(in, p, vector);
        }
        if (tdn_graph_update(in, 1.0f / 30.0f) != TDN_OK || tdn_graph_evaluate(in, &pose) != TDN_OK)
            abort();
        for (int row = 0; row < TDN_POSE_ROWS; row++)
            for (int j = 0; j < pose.joint_count; j++)
                if (!isfinite(tdn_pose_crow(&pose, row)[j]))
                    abort();
    }
    tdn_pose_destroy(&pose);
    tdn_graph_instance_destroy(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tdn_graph_document *d = NULL;
    tdn_error err = { 0 };
    if (tdn_graph_document_parse((const char *)data, size, NULL, NULL, &d, &err) == TDN_OK) {
        run(d, data, size);
        tdn_graph_document_destroy(d);
    } else if (d || err.message[0] == '\0') {
        abort(); /* a failure leaves no document and says why */
    }
    return 0;
}
