/* tendon CLI: the progress bar (progress.h). */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

enum { BAR_WIDTH = 40 };

void progress_begin(progress_bar *b, const char *label, int enabled)
{
    snprintf(b->label, sizeof b->label, "%s", label);
    b->enabled = enabled < 0 ? isatty(STDERR_FILENO) : enabled != 0;
    b->last_percent = -1;
    b->start_ms = b->enabled ? cli_now_ms() : 0.0;
    const char *delay = getenv("TENDON_PROGRESS_DELAY_MS");
    char *end = NULL;
    const double ms = delay ? strtod(delay, &end) : 0.0;
    b->delay_ms = delay && end != delay && *end == '\0' && ms >= 0.0 ? ms : PROGRESS_DELAY_MS;
}

void progress_update(progress_bar *b, long done, long total)
{
    if (!b->enabled)
        return;
    int percent = total > 0 ? (int)(done * 100 / total) : 100;
    percent = percent < 0 ? 0 : percent > 100 ? 100 : percent;
    if (percent == b->last_percent)
        return;
    /* not before the delay, unless a bar is already up */
    if (b->last_percent < 0 && cli_now_ms() - b->start_ms < b->delay_ms)
        return;
    b->last_percent = percent;
    char bar[BAR_WIDTH + 1];
    for (int i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < percent * BAR_WIDTH / 100 ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    fprintf(stderr, "\r%s [%s] %3d%%", b->label, bar, percent);
    fflush(stderr);
}

void progress_end(progress_bar *b)
{
    if (b->enabled && b->last_percent >= 0) {
        fputs("\n", stderr);
        fflush(stderr);
    }
    b->last_percent = -1;
}
