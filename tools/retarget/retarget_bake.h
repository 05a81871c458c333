/* tendon CLI: the bake of `tendon retarget`: every take of the source, frame by frame at its
 * rate, sampled (tdn_keyed_clip_sample), retargeted onto the target (tdn_retarget_pose, then
 * tdn_retarget_contacts unless --no-contacts, with the clip's contact_l and contact_r curves
 * when it has both) and
 * handed to what the command writes: the baked poses (--out), the trace (--trace), the preview
 * (--render: the first take) and the limb directions (the summary). */
#ifndef TENDON_RETARGET_BAKE_H
#define TENDON_RETARGET_BAKE_H

#include "limb_directions.h"
#include "retarget_pair.h"
#include "retarget_preview.h"
#include "trace_writer.h"

/* Where the frames go; each but `limbs` may be NULL. */
typedef struct retarget_outputs {
    tdn_pose *baked;           /* every take's target poses, one take after another */
    trace_writer *trace;       /* an open trace (retarget_trace_open) */
    retarget_preview *preview; /* the first take's frames of both characters */
    float azimuth;             /* the preview camera's (degrees) */
    limb_directions *limbs;    /* room for every frame of every take */
    int contacts;              /* 1: the contact fix-up after each pose (tdn_retarget_contacts) */
} retarget_outputs;

/* Bakes the takes into the outputs. CLI_OK, or an exit code having said why. *retarget_ms: the
 * time spent retargeting alone (tdn_retarget_pose and the fix-up). */
int retarget_bake(const retarget_pair *p, const retarget_take *takes, int take_count, const retarget_outputs *o,
                  double *retarget_ms);

/* What the bake does about contacts, as the summary, --explain and the trace say it (in a
 * buffer of its own, valid until the next call). */
const char *retarget_contacts_text(const retarget_args *a, const retarget_pair *p);

#endif
