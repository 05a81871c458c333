/* Fuzz target: body map documents (tdn_body_map_file_load_memory, tdn_body_map_file_apply). Any
 * input must load or fail cleanly (the sanitizers catch the rest); a failure must leave no
 * result and name its place. A loaded document's sides are applied to tendon's humanoid, on the
 * map tdn_body_map_find gives and on an empty one: each apply either gives a map that passes
 * tdn_body_map_check, in which the parts the document does not name are as they were, or fails
 * naming its place and leaves the map as it was. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tendon/io/body_map_file.h"
#include "tendon/io/humanoid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const tdn_skeleton *skeleton;
static tdn_body_map found;

static void set_up(void)
{
    static tdn_asset *humanoid;
    if (humanoid)
        return;
    if (tdn_humanoid_create(NULL, &humanoid, NULL, NULL) != TDN_OK)
        abort();
    skeleton = tdn_asset_skeleton(humanoid);
    if (tdn_body_map_find(skeleton, NULL, &found, NULL) != TDN_OK)
        abort();
}

static int same_part(const tdn_body_map_part *a, const tdn_body_map_part *b)
{
    return a->joint_count == b->joint_count && a->evidence == b->evidence &&
           memcmp(a->joints, b->joints, sizeof a->joints[0] * (size_t)a->joint_count) == 0;
}

static void apply(const tdn_body_map_file *f, tdn_body_map_file_side side, const tdn_body_map *start)
{
    tdn_body_map map = *start;
    tdn_error err = { 0 };
    if (tdn_body_map_file_apply(f, side, skeleton, &map, &err) != TDN_OK) {
        if (memcmp(&map, start, sizeof map) != 0 || !err.where[0] || !err.message[0])
            abort(); /* a failure names its place and changes nothing */
        return;
    }
    if (!tdn_body_map_file_has_side(f, side)) {
        if (memcmp(&map, start, sizeof map) != 0)
            abort(); /* a side the document does not give changes nothing */
        return;
    }
    if (tdn_body_map_check(skeleton, &map, NULL) != TDN_OK)
        abort();
    for (int part = 0; part < TDN_BODY_PART_COUNT; part++)
        if (map.parts[part].evidence != TDN_BODY_MAP_EVIDENCE_CALLER && start->joint_count != 0 &&
            !same_part(&map.parts[part], &start->parts[part]))
            abort(); /* a part the document does not name stays */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    set_up();
    tdn_body_map_file *f = NULL;
    tdn_error err = { 0 };
    if (tdn_body_map_file_load_memory((const char *)data, size, &f, NULL, &err) != TDN_OK) {
        if (f || !err.where[0] || !err.message[0])
            abort(); /* a failure leaves no result and names its place */
        return 0;
    }
    if (!tdn_body_map_file_has_side(f, TDN_BODY_MAP_FILE_SIDE_SOURCE) &&
        !tdn_body_map_file_has_side(f, TDN_BODY_MAP_FILE_SIDE_TARGET))
        abort(); /* a document gives at least one side */
    const tdn_body_map empty = { 0 };
    for (int side = TDN_BODY_MAP_FILE_SIDE_SOURCE; side <= TDN_BODY_MAP_FILE_SIDE_TARGET; side++) {
        apply(f, (tdn_body_map_file_side)side, &found);
        apply(f, (tdn_body_map_file_side)side, &empty);
    }
    tdn_body_map_file_destroy(f);
    return 0;
}
