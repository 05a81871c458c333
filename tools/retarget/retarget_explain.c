/* tendon CLI: tendon retarget --explain (see retarget_explain.h). */
#include "retarget_explain.h"
#include "retarget_bake.h"

#include <stdlib.h>
#include <string.h>

/* What a note's reason means, as docs/retarget.md says it. */
static const char *reason_text(tdn_body_map_reason reason)
{
    switch (reason) {
    case TDN_BODY_MAP_REASON_NOT_FOUND:
        return "an optional part with no joint";
    case TDN_BODY_MAP_REASON_ABOVE_HIPS:
        return "a root or root-motion joint above the hips";
    case TDN_BODY_MAP_REASON_END:
        return "a leaf marking a bone's end";
    case TDN_BODY_MAP_REASON_HELPER:
        return "named as an eye, jaw, IK target or pole, twist or roll helper";
    case TDN_BODY_MAP_REASON_SHORT_BONE:
        return "a short bone between two parts that is neither";
    case TDN_BODY_MAP_REASON_FINGERS:
        return "finger joints that make no finger chains";
    case TDN_BODY_MAP_REASON_SIDES_DISAGREE:
        return "the names say left where the geometry says right (the names are kept)";
    case TDN_BODY_MAP_REASON_BEYOND_CHAIN:
        return "past the end of a part";
    case TDN_BODY_MAP_REASON_OTHER:
        return "a branch that is no part";
    }
    return "?";
}

/* "A, B, C (evidence)", or "-" for an absent part. */
static void print_part(const tdn_skeleton *skel, const tdn_body_map_part *part)
{
    char name[CLI_TEXT_SIZE];
    if (part->joint_count == 0) {
        printf("-");
        return;
    }
    for (int i = 0; i < part->joint_count; i++)
        printf("%s%s", i ? ", " : "", cli_text(tdn_skeleton_joint_name(skel, part->joints[i]), name, sizeof name));
    printf(" (%s)", tdn_body_map_evidence_name(part->evidence));
}

/* The joints below j. */
static int below_count(const tdn_skeleton *skel, int j)
{
    int n = 0;
    for (int k = j + 1; k < tdn_skeleton_joint_count(skel); k++) /* parents come first */
        for (int a = tdn_skeleton_parent(skel, k); a >= 0; a = tdn_skeleton_parent(skel, a))
            if (a == j) {
                n++;
                break;
            }
    return n;
}

static void print_notes(const retarget_side *s)
{
    char path[CLI_TEXT_SIZE], name[CLI_TEXT_SIZE];
    const tdn_body_map *map = &s->map;
    printf("left out of the %s's map (%s):\n", s->role, cli_text(cli_base_name(s->path), path, sizeof path));
    int missing = 0, printed = 0;
    for (int k = 0; k < map->note_count; k++) {
        const tdn_body_map_note *note = &map->notes[k];
        if (note->reason == TDN_BODY_MAP_REASON_NOT_FOUND) {
            printf("%s%s",
                   missing++ ? ", " : "  not found (optional): ", tdn_body_part_name((tdn_body_part)note->part));
        }
    }
    if (missing)
        printf("\n");
    for (int k = 0; k < map->note_count; k++) {
        const tdn_body_map_note *note = &map->notes[k];
        if (note->reason == TDN_BODY_MAP_REASON_NOT_FOUND)
            continue;
        printed++;
        printf("  %s",
               note->joint >= 0 ? cli_text(tdn_skeleton_joint_name(s->skeleton, note->joint), name, sizeof name) : "-");
        const int under = note->joint >= 0 ? below_count(s->skeleton, note->joint) : 0;
        if (under)
            printf(" and the %d joint%s below it", under, under == 1 ? "" : "s");
        printf(": %s (%s", reason_text(note->reason), tdn_body_map_reason_name(note->reason));
        if (note->part >= 0)
            printf(", %s", tdn_body_part_name((tdn_body_part)note->part));
        printf(")\n");
    }
    if (map->notes_left_off)
        printf("  ... and %d more notes\n", map->notes_left_off);
    if (!missing && !printed && !map->notes_left_off)
        printf("  nothing: every joint is in a part\n");
}

static void print_reference(const retarget_side *s)
{
    char name[CLI_TEXT_SIZE];
    printf("  %s: ", s->role);
    if (s->reference_frame < 0)
        printf("from its rest pose\n");
    else
        printf("from frame %d of \"%s\" (%g s)\n", s->reference_frame,
               cli_text(tdn_keyed_clip_name(s->reference_take.clip), name, sizeof name),
               (double)retarget_take_time(&s->reference_take, s->reference_frame));
}

void retarget_explain(const retarget_args *a, const retarget_pair *p)
{
    char source[CLI_TEXT_SIZE], target[CLI_TEXT_SIZE];
    cli_text(cli_base_name(a->source), source, sizeof source);
    cli_text(cli_base_name(a->target), target, sizeof target);
    printf("body maps (docs/retarget.md), part: %s -> %s (how each was found)\n", source, target);
    const char *absent[TDN_BODY_PART_COUNT];
    int absent_count = 0;
    for (int part = 0; part < TDN_BODY_PART_COUNT; part++) {
        const tdn_body_map_part *s = &p->source.map.parts[part], *t = &p->target.map.parts[part];
        if (s->joint_count == 0 && t->joint_count == 0) {
            absent[absent_count++] = tdn_body_part_name((tdn_body_part)part);
            continue;
        }
        printf("  %-15s ", tdn_body_part_name((tdn_body_part)part));
        print_part(p->source.skeleton, s);
        printf("  ->  ");
        print_part(p->target.skeleton, t);
        if (s->joint_count == 0)
            printf("  [the source has none: kept as in the target's reference pose]");
        else if (t->joint_count == 0)
            printf("  [the target has none: not carried over]");
        printf("\n");
    }
    if (absent_count) {
        printf("  on neither:     ");
        for (int k = 0; k < absent_count; k++)
            printf("%s%s", k ? ", " : "", absent[k]);
        printf("\n");
    }
    print_notes(&p->source);
    print_notes(&p->target);
    printf("reference poses (legs down, spine up, arms out sideways, facing +Z):\n");
    print_reference(&p->source);
    print_reference(&p->target);
    const double source_legs = retarget_leg_length(p->source.skeleton, &p->source.map);
    const double target_legs = retarget_leg_length(p->target.skeleton, &p->target.map);
    printf("scale: %.6g target lengths per source length, the ratio of the leg lengths (hip to knee to ankle at "
           "rest, averaged over both legs): %s %.6g / %s %.6g",
           (double)tdn_retarget_scale(p->retarget), target, target_legs, source, source_legs);
    if (a->scale > 0.0f)
        printf(" (the source's lengths x %g at import, --scale)", (double)a->scale);
    printf("; the hips' travel and the thighs' height above the ankles are the source's times it\n");
    printf("contacts: %s\n", retarget_contacts_text(a, p));
}
