/* tendon core: what a joint's name says about its body part (the body map's first clue).
 *
 * A name is cut into lower-case words: after its last ':' or '|', at every character that is
 * not a letter or digit, and where camel case starts a word (LeftUpLeg, LHipJoint, lShldr).
 * Words lose their trailing digits (Spine1, b_Spine01_02, Thumb2), rig prefixes are dropped
 * from the front (mixamorig, Bip01, DEF-, ORG-, Skeleton_, b_, J_Bip_), a left/right or l/r
 * word is the side, and the remaining words are matched against the parts' vocabularies, the
 * most specific first (an end marker before anything, a finger before its hand, "forearm"
 * before "arm", "clavicle" before "torso", "head" before "torso"). An l or r glued to a
 * lower-case word is no side: CMU's lhand is a finger base and lowerback a spine joint. */
#include <ctype.h>
#include <string.h>

#include "body_map_internal.h"

#define MAX_WORDS 16
#define MAX_WORD 24

typedef struct words {
    int count;
    char w[MAX_WORDS][MAX_WORD];
} words;

static void add_word(words *ws, const char *start, size_t length)
{
    while (length > 0 && isdigit((unsigned char)start[length - 1]))
        length--;
    if (length == 0 || ws->count == MAX_WORDS)
        return;
    if (length >= MAX_WORD)
        length = MAX_WORD - 1;
    for (size_t i = 0; i < length; i++)
        ws->w[ws->count][i] = (char)tolower((unsigned char)start[i]);
    ws->w[ws->count][length] = '\0';
    ws->count++;
}

/* A new word starts at s[i] when case turns from lower to upper (leftArm), or at the last
 * capital of a run followed by a lower-case letter (LHip: L, Hip). */
static int camel_break(const char *s, size_t i)
{
    if (i == 0 || !isupper((unsigned char)s[i]))
        return 0;
    if (islower((unsigned char)s[i - 1]) || isdigit((unsigned char)s[i - 1]))
        return 1;
    return isupper((unsigned char)s[i - 1]) && islower((unsigned char)s[i + 1]);
}

static void split(const char *name, words *ws)
{
    const char *colon = strrchr(name, ':'), *bar = strrchr(name, '|');
    const char *s = colon > bar ? colon + 1 : bar ? bar + 1 : name;
    ws->count = 0;
    size_t start = 0, i = 0;
    for (; s[i]; i++) {
        if (!isalnum((unsigned char)s[i])) {
            add_word(ws, s + start, i - start);
            start = i + 1;
        } else if (i > start && camel_break(s, i)) {
            add_word(ws, s + start, i - start);
            start = i;
        }
    }
    add_word(ws, s + start, i - start);
}

static int is(const char *word, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(word, *list) == 0)
            return 1;
    return 0;
}

/* Index of the first word in the list, or -1. */
static int find(const words *ws, const char *const *list)
{
    for (int i = 0; i < ws->count; i++)
        if (is(ws->w[i], list))
            return i;
    return -1;
}

static int has(const words *ws, const char *const *list) { return find(ws, list) >= 0; }

/* `first` directly followed by `second` (fore arm, up leg), or the two glued (forearm). */
static int pair(const words *ws, const char *first, const char *second)
{
    for (int i = 0; i < ws->count; i++) {
        const size_t n = strlen(first);
        if (strncmp(ws->w[i], first, n) == 0 && strcmp(ws->w[i] + n, second) == 0)
            return 1;
        if (i + 1 < ws->count && strcmp(ws->w[i], first) == 0 && strcmp(ws->w[i + 1], second) == 0)
            return 1;
    }
    return 0;
}

static void drop(words *ws, int i)
{
    memmove(ws->w[i], ws->w[i + 1], (size_t)(ws->count - i - 1) * sizeof ws->w[0]);
    ws->count--;
}

#define LIST(...) ((const char *const[]){ __VA_ARGS__, NULL })

static tdn__body_word word_of(const words *ws)
{
    if (ws->count == 0)
        return TDN__WORD_NONE;
    if (is(ws->w[ws->count - 1], LIST("end", "nub")))
        return TDN__WORD_END;
    if (has(ws, LIST("eye", "eyes", "jaw", "pole", "ik", "target", "twist", "roll", "helper", "ctrl", "control")))
        return TDN__WORD_HELPER;
    if (has(ws, LIST("thumb")))
        return TDN__WORD_THUMB;
    if (has(ws, LIST("index")))
        return TDN__WORD_INDEX;
    if (has(ws, LIST("middle", "mid")))
        return TDN__WORD_MIDDLE;
    if (has(ws, LIST("ring")))
        return TDN__WORD_RING;
    if (has(ws, LIST("pinky", "pinkie", "little")))
        return TDN__WORD_PINKY;
    if (has(ws, LIST("finger", "fingers")))
        return TDN__WORD_FINGERS;
    if (has(ws, LIST("hand", "wrist")))
        return TDN__WORD_HAND;
    if (pair(ws, "fore", "arm") || pair(ws, "lower", "arm") || has(ws, LIST("elbow")))
        return TDN__WORD_FOREARM;
    if (pair(ws, "upper", "arm") || has(ws, LIST("shldr")))
        return TDN__WORD_UPPER_ARM;
    if (has(ws, LIST("clavicle", "collar", "collarbone")))
        return TDN__WORD_CLAVICLE;
    if (has(ws, LIST("shoulder")))
        return TDN__WORD_SHOULDER;
    if (pair(ws, "up", "leg") || pair(ws, "upper", "leg") || has(ws, LIST("thigh")))
        return TDN__WORD_THIGH;
    if (has(ws, LIST("toe", "toes", "ball")))
        return TDN__WORD_TOES;
    if (has(ws, LIST("foot", "ankle")))
        return TDN__WORD_FOOT;
    if (pair(ws, "lower", "leg") || has(ws, LIST("shin", "calf", "knee")))
        return TDN__WORD_SHIN;
    if (has(ws, LIST("joint")) && has(ws, LIST("arm")))
        return TDN__WORD_ARM_CHAIN;
    if (has(ws, LIST("joint")) && has(ws, LIST("leg")))
        return TDN__WORD_LEG_CHAIN;
    if (has(ws, LIST("arm")))
        return TDN__WORD_UPPER_ARM;
    if (has(ws, LIST("leg")))
        return TDN__WORD_SHIN;
    if (has(ws, LIST("head")))
        return TDN__WORD_HEAD;
    if (has(ws, LIST("neck", "lowerneck")))
        return TDN__WORD_NECK;
    if (has(ws, LIST("spine", "chest", "abdomen", "torso", "back", "lowerback", "waist", "belly")))
        return TDN__WORD_SPINE;
    if (has(ws, LIST("hip", "hips", "pelvis", "buttock")))
        return TDN__WORD_HIPS; /* sided, it becomes TDN__WORD_SIDED_HIP */
    return TDN__WORD_NONE;
}

tdn__body_name tdn__body_name_read(const char *name)
{
    tdn__body_name out = { TDN__WORD_NONE, 0 };
    words ws;
    split(name ? name : "", &ws);
    while (ws.count > 1 && is(ws.w[0], LIST("mixamorig", "bip", "def", "org", "skeleton", "b", "j")))
        drop(&ws, 0);
    for (int i = 0; i < ws.count;) {
        const int side = is(ws.w[i], LIST("left", "l")) ? 1 : is(ws.w[i], LIST("right", "r")) ? 2 : 0;
        if (side) {
            out.side |= side;
            drop(&ws, i);
        } else {
            i++;
        }
    }
    if (out.side == 3)
        out.side = 0;
    out.word = word_of(&ws);
    if (out.word == TDN__WORD_HIPS && out.side)
        out.word = TDN__WORD_SIDED_HIP;
    return out;
}
