/* tendon CLI: a skeleton's feet and hands found by their names (see feet_by_name.h). */
#include "feet_by_name.h"

#include <ctype.h>
#include <string.h>

#include "cli.h"

/* The name lowercased, letters and digits only, after its last ':'. */
static void squeeze(const char *name, char *out, size_t size)
{
    const char *colon = strrchr(name, ':');
    const char *p = colon ? colon + 1 : name;
    size_t n = 0;
    for (; *p && n + 1 < size; p++)
        if (isalnum((unsigned char)*p))
            out[n++] = (char)tolower((unsigned char)*p);
    out[n] = '\0';
}

/* A name pass: the whole squeezed name or its end against each side's names. */
typedef struct name_pass {
    int whole;                     /* 1: the whole name; 0: its end */
    const char *const names[2][5]; /* left, right; NULL ends */
} name_pass;

/* The first joint in skeleton order matching each side, the passes tried in order. */
static int by_name(const tdn_skeleton *skel, const name_pass *passes, size_t pass_count, int *left, int *right)
{
    int found[2] = { -1, -1 };
    const int n = tdn_skeleton_joint_count(skel);
    for (size_t pass = 0; pass < pass_count; pass++)
        for (int j = 0; j < n; j++) {
            char s[128];
            squeeze(tdn_skeleton_joint_name(skel, j), s, sizeof s);
            for (int side = 0; side < 2; side++)
                for (int k = 0; passes[pass].names[side][k] && found[side] < 0; k++) {
                    const char *want = passes[pass].names[side][k];
                    if (passes[pass].whole ? strcmp(s, want) == 0 : cli_ends_with(s, want, 0))
                        found[side] = j;
                }
        }
    *left = found[0];
    *right = found[1];
    return found[0] >= 0 && found[1] >= 0;
}

/* An ankle first: a rig that names both (SMPL's L_Ankle and L_Foot, Kinect's AnkleLeft and
 * FootLeft) puts its "foot" at the toes, and a rig without ankles calls the ankle joint its
 * foot. Within each, the whole squeezed name, then its end (Bip01 L Foot, Character1_LeftFoot,
 * DEF-foot.L). */
static const name_pass foot_passes[] = {
    { 1,
      { { "leftankle", "ankleleft", "lankle", "anklel", NULL },
        { "rightankle", "ankleright", "rankle", "ankler", NULL } } },
    { 0, { { "leftankle", "lankle", "anklel", NULL }, { "rightankle", "rankle", "ankler", NULL } } },
    { 1, { { "leftfoot", "footleft", "lfoot", "footl", NULL }, { "rightfoot", "footright", "rfoot", "footr", NULL } } },
    { 0, { { "leftfoot", "lfoot", "footl", NULL }, { "rightfoot", "rfoot", "footr", NULL } } },
};

/* A wrist first, as an ankle (the CMU 3ds Max rig's LeftWrist has a child lhand). */
static const name_pass hand_passes[] = {
    { 1,
      { { "leftwrist", "wristleft", "lwrist", "wristl", NULL },
        { "rightwrist", "wristright", "rwrist", "wristr", NULL } } },
    { 0, { { "leftwrist", "lwrist", "wristl", NULL }, { "rightwrist", "rwrist", "wristr", NULL } } },
    { 1, { { "lefthand", "handleft", "lhand", "handl", NULL }, { "righthand", "handright", "rhand", "handr", NULL } } },
    { 0, { { "lefthand", "lhand", "handl", NULL }, { "righthand", "rhand", "handr", NULL } } },
};

int feet_by_name(const tdn_skeleton *skel, int *left, int *right)
{
    return by_name(skel, foot_passes, sizeof foot_passes / sizeof foot_passes[0], left, right);
}

int hands_by_name(const tdn_skeleton *skel, int *left, int *right)
{
    return by_name(skel, hand_passes, sizeof hand_passes / sizeof hand_passes[0], left, right);
}
