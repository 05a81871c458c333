/* tendon core: a pack's root track section ('ROOT'): the frames tdn_root_track_create samples
 * of one joint of one clip (root_track_internal.h), precomputed when the pack was written, so
 * that a root track of a pack's clip is built over them without sampling the clip. */
#include "pack_internal.h"
#include "root_track_internal.h"

/* How far a stored rotation's squared length may be from 1 (as a skeleton's rest rotations). */

size_t tdn__pack_root_size(int frame_count)
{
    return tdn__align_up(TDN__PACK_SECTION_HEADER_BYTES + (size_t)frame_count * TDN__ROOT_TRACK_FLOATS * sizeof(float),
                         TDN_PACK_ALIGN);
}

void tdn__pack_root_write(uint32_t clip_section, int joint, int frame_count, const float *frames, unsigned char *out)
{
    const uint32_t header[TDN__ROOT_FIELDS] = { clip_section, (uint32_t)joint, (uint32_t)frame_count,
                                                TDN__PACK_SECTION_HEADER_BYTES };
    for (int f = 0; f < TDN__ROOT_FIELDS; f++)
        tdn__pack_put_u32(out + 4 * f, header[f]);
    memcpy(out + TDN__PACK_SECTION_HEADER_BYTES, frames, (size_t)frame_count * TDN__ROOT_TRACK_FLOATS * sizeof(float));
}

long tdn__pack_root_bad_frame(const float *frames, int frame_count)
{
    const long bad = tdn__pack_first_nonfinite(frames, (size_t)frame_count * TDN__ROOT_TRACK_FLOATS);
    if (bad >= 0)
        return bad / TDN__ROOT_TRACK_FLOATS;
    for (int f = 0; f < frame_count; f++) {
        const float *q = frames + (size_t)f * TDN__ROOT_TRACK_FLOATS + 3;
        if (!(fabsf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] - 1.0f) <= TDN__PACK_UNIT_TOLERANCE))
            return f;
    }
    return -1;
}

static tdn_result check(const tdn__pack_view *v, int s, int index)
{
    char what[32];
    tdn__place(what, sizeof what, "root track ", index, "");
    tdn_result res = tdn__pack_check_header(v, s, TDN__ROOT_FIELDS, -1, what);
    if (res != TDN_OK)
        return res;
    const size_t base = tdn__pack_section_at(v, s).offset;
    /* the clip: a checked clip section (clips are checked before root tracks) */
    const int clip = tdn__pack_section_ref(v, s, TDN__ROOT_CLIP, TDN__PACK_CLIP, "clip", what);
    if (clip < 0)
        return TDN_ERR_INVALID_DATA;
    if (tdn__pack_field(v, clip, TDN__CLIP_ADDITIVE) != 0)
        return tdn__pack_fail(v, base + 4 * TDN__ROOT_CLIP,
                              "%s: clip %d (section) is additive: its root is a difference, not a place", what, clip);
    const uint32_t joint = tdn__pack_field(v, s, TDN__ROOT_JOINT);
    const uint32_t joints = tdn__pack_field(v, clip, TDN__CLIP_JOINT_COUNT);
    if (joint >= joints)
        return tdn__pack_fail(v, base + 4 * TDN__ROOT_JOINT, "%s: joint %u is not below its clip's joint count %u",
                              what, joint, joints);
    const float duration = tdn__pack_field_float(v, clip, TDN__CLIP_DURATION);
    const float rate = tdn__pack_field_float(v, clip, TDN__CLIP_SAMPLE_RATE);
    const uint32_t frames = tdn__pack_field(v, s, TDN__ROOT_FRAME_COUNT);
    const int expect = tdn__root_track_frame_count(duration, rate);
    if (frames != (uint32_t)expect)
        return tdn__pack_fail(v, base + 4 * TDN__ROOT_FRAME_COUNT,
                              "%s: frame_count %u is not the %d frames of its clip's %g s at %g frames/s", what, frames,
                              expect, (double)duration, (double)rate);
    const float *data = tdn__pack_array(v, s, TDN__ROOT_FRAMES, (size_t)frames * TDN__ROOT_TRACK_FLOATS, sizeof(float),
                                        TDN__PACK_MIN_ALIGN, what, "frames");
    if (!data)
        return TDN_ERR_INVALID_DATA;
    const long bad = tdn__pack_root_bad_frame(data, (int)frames);
    if (bad >= 0)
        return tdn__pack_fail(
            v, (size_t)((const unsigned char *)data - v->bytes) + (size_t)bad * TDN__ROOT_TRACK_FLOATS * 4,
            "%s: frames[%ld] is not finite with a unit rotation (squared length within %g of 1)", what, bad,
            (double)TDN__PACK_UNIT_TOLERANCE);
    return TDN_OK;
}

static void build(const tdn__pack_view *v, int s, void *object, void *extra, const int *object_of_section)
{
    (void)extra;
    tdn__pack_root *o = object;
    o->clip = object_of_section[tdn__pack_field(v, s, TDN__ROOT_CLIP)];
    o->section = s;
    o->joint = (int)tdn__pack_field(v, s, TDN__ROOT_JOINT);
    o->frame_count = (int)tdn__pack_field(v, s, TDN__ROOT_FRAME_COUNT);
    o->frames = (const float *)(v->bytes + tdn__pack_section_at(v, s).offset + tdn__pack_field(v, s, TDN__ROOT_FRAMES));
}

const tdn__pack_reader tdn__pack_root_reader = {
    TDN__PACK_ROOT, sizeof(tdn__pack_root), _Alignof(tdn__pack_root), check, NULL, build
};
