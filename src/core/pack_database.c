/* tendon core: a pack's motion-matching database section ('MMDB'): a database's own byte image
 * (tdn_mm_database_save_memory) with its name and the skeleton section of the rig it was built
 * on. The image is checked at open by the database's own reader, allocating nothing
 * (tdn__mm_database_check_memory); tdn_pack_database_load copies it into a database. */
#include "mm_internal.h"
#include "pack_internal.h"

#include <stdio.h>

size_t tdn__pack_database_size(size_t image_size)
{
    return tdn__align_up(TDN__PACK_SECTION_HEADER_BYTES + image_size, TDN_PACK_ALIGN);
}

void tdn__pack_database_write(uint32_t name, uint32_t skeleton_section, const tdn_mm_database *db, size_t image_size,
                              unsigned char *out)
{
    const uint32_t header[TDN__MMDB_FIELDS] = { name, skeleton_section, (uint32_t)image_size,
                                                TDN__PACK_SECTION_HEADER_BYTES };
    for (int f = 0; f < TDN__MMDB_FIELDS; f++)
        tdn__pack_put_u32(out + 4 * f, header[f]);
    tdn_mm_database_save_memory(db, out + TDN__PACK_SECTION_HEADER_BYTES, image_size, NULL);
}

int tdn__pack_database_joint_misfit(const unsigned char *skeleton_section, const int joints[3])
{
    const int count = (int)tdn__pack_u32(skeleton_section + 4 * TDN__SKEL_JOINT_COUNT);
    const unsigned char *parents = skeleton_section + tdn__pack_u32(skeleton_section + 4 * TDN__SKEL_PARENTS);
    for (int k = 0; k < 3; k++)
        if (joints[k] >= count)
            return k;
    if (joints[0] >= 0) { /* a root of the skeleton, as tdn_mm_database_create requires */
        const int16_t parent = (int16_t)(uint16_t)(parents[2 * joints[0]] | parents[2 * joints[0] + 1] << 8);
        if (parent != -1)
            return 0;
    }
    return -1;
}

/* The database's own error (`inner`, its `where` a "byte N" of the image or another place) as
 * the pack's: the image's byte N is the file's byte `image` + N. */
static tdn_result image_fail(const tdn__pack_view *v, size_t image, size_t field, const char *what,
                             const tdn_error *inner)
{
    unsigned long byte;
    char tail;
    if (sscanf(inner->where, "byte %lu%c", &byte, &tail) == 1)
        return tdn__pack_fail(v, image + byte, "%s: byte %lu of its database: %s", what, byte, inner->message);
    return tdn__pack_fail(v, field, "%s: its database (%s): %s", what, inner->where, inner->message);
}

static tdn_result check(const tdn__pack_view *v, int s, int index)
{
    char what[32];
    tdn__place(what, sizeof what, "database ", index, "");
    tdn_result res = tdn__pack_check_header(v, s, TDN__MMDB_FIELDS, TDN__MMDB_NAME, what);
    if (res != TDN_OK)
        return res;
    const size_t base = tdn__pack_section_at(v, s).offset;
    const char *name = tdn__pack_name(v, s, TDN__MMDB_NAME, what);
    for (int other = 0; other < s; other++) /* names are how graphs find databases */
        if (tdn__pack_section_at(v, other).kind == TDN__PACK_DATABASE &&
            strcmp(tdn__pack_name(v, other, TDN__MMDB_NAME, what), name) == 0)
            return tdn__pack_fail(v, base + 4 * TDN__MMDB_NAME,
                                  "%s: name \"%.60s\" is the name of another database (section %d)", what, name, other);
    const int skeleton = tdn__pack_section_ref(v, s, TDN__MMDB_SKELETON, TDN__PACK_SKELETON, "skeleton", what);
    if (skeleton < 0)
        return TDN_ERR_INVALID_DATA;
    const uint32_t size = tdn__pack_field(v, s, TDN__MMDB_SIZE);
    if (size == 0)
        return tdn__pack_fail(v, base + 4 * TDN__MMDB_SIZE, "%s: database size is 0 (a database is needed)", what);
    const unsigned char *image = tdn__pack_array(v, s, TDN__MMDB_IMAGE, size, 1, TDN__PACK_MIN_ALIGN, what, "database");
    if (!image)
        return TDN_ERR_INVALID_DATA;
    const size_t at = (size_t)(image - v->bytes);
    tdn_error inner = { 0 };
    if (tdn__mm_database_check_memory(image, size, &inner) != TDN_OK)
        return image_fail(v, at, base + 4 * TDN__MMDB_SIZE, what, &inner);
    int joints[3];
    for (int k = 0; k < 3; k++)
        joints[k] = (int)(int32_t)tdn__pack_u32(image + TDN__MM_IMAGE_JOINTS + 4 * (size_t)k);
    const int misfit = tdn__pack_database_joint_misfit(v->bytes + tdn__pack_section_at(v, skeleton).offset, joints);
    if (misfit >= 0) {
        static const char *const JOINT[3] = { "root", "left foot", "right foot" };
        return tdn__pack_fail(v, at + TDN__MM_IMAGE_JOINTS + 4 * (size_t)misfit,
                              "%s: its %s, joint %d, is not %s of skeleton section %u (%u joints)", what, JOINT[misfit],
                              joints[misfit], misfit == 0 ? "a root joint" : "a joint", skeleton,
                              tdn__pack_field(v, skeleton, TDN__SKEL_JOINT_COUNT));
    }
    return TDN_OK;
}

static void build(const tdn__pack_view *v, int s, void *object, void *extra, const int *object_of_section)
{
    (void)extra;
    tdn__pack_database *d = object;
    d->name = tdn__pack_name(v, s, TDN__MMDB_NAME, "");
    d->skeleton = object_of_section[tdn__pack_field(v, s, TDN__MMDB_SKELETON)];
    d->size = tdn__pack_field(v, s, TDN__MMDB_SIZE);
    d->image = v->bytes + tdn__pack_section_at(v, s).offset + tdn__pack_field(v, s, TDN__MMDB_IMAGE);
}

const tdn__pack_reader tdn__pack_database_reader = {
    TDN__PACK_DATABASE, sizeof(tdn__pack_database), _Alignof(tdn__pack_database), check, NULL, build
};
