/* tendon CLI: a skeleton's feet found by their names (see feet_by_name.h). */
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

int feet_by_name(const tdn_skeleton *skel, int *left, int *right)
{
    /* pass 0: the whole squeezed name; pass 1: its end */
    static const char *const names[2][2][4] = {
        { { "leftfoot", "footleft", "lfoot", "footl" }, { "rightfoot", "footright", "rfoot", "footr" } },
        { { "leftfoot", "lfoot", NULL, NULL }, { "rightfoot", "rfoot", NULL, NULL } },
    };
    int found[2] = { -1, -1 };
    const int n = tdn_skeleton_joint_count(skel);
    for (int pass = 0; pass < 2; pass++)
        for (int j = 0; j < n; j++) {
            char s[128];
            squeeze(tdn_skeleton_joint_name(skel, j), s, sizeof s);
            for (int side = 0; side < 2; side++)
                for (int k = 0; k < 4 && found[side] < 0; k++) {
                    const char *want = names[pass][side][k];
                    if (want && (pass == 0 ? strcmp(s, want) == 0 : cli_ends_with(s, want, 0)))
                        found[side] = j;
                }
        }
    *left = found[0];
    *right = found[1];
    return found[0] >= 0 && found[1] >= 0;
}
