/* Fuzz target: the stick path of `tendon mm run --path` (tools/run/mm_path.c). A path either loads,
 * and then gives a finite input at every time (inside, on the edges of and after its
 * segments), or is refused with a reason and nothing held. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "mm_path.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mm_path path;
    char why[1024] = "";
    if (mm_path_parse((const char *)data, size, "fuzz.json", &path, why, sizeof why) != 0) {
        if (why[0] == '\0' || path.segments || path.count != 0)
            abort(); /* a refusal says why and holds nothing */
        return 0;
    }
    if (path.count < 1 || !(path.duration >= 0.0) || !isfinite(path.duration))
        abort();
    for (int k = 0; k <= 2 * path.count; k++) {
        const mm_segment *seg = &path.segments[k / 2 < path.count ? k / 2 : path.count - 1];
        const double t = k == 2 * path.count ? path.duration + 1.0 : seg->start + (k % 2 ? 0.5 * seg->duration : 0.0);
        int segment = 0;
        const tdn_mm_input in = mm_path_input(&path, t, &segment);
        if (!isfinite(in.velocity.x) || !isfinite(in.velocity.z) || !isfinite(in.facing) || segment >= path.count)
            abort();
    }
    mm_path_free(&path);
    return 0;
}
