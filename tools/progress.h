/* tendon CLI: a progress bar on stderr for the long operations (running and baking a graph,
 * rendering previews, building motion-matching databases).
 *
 * Drawn only when stderr is a terminal, and only once the operation has taken PROGRESS_DELAY_MS
 * (a bar that would flash for a few milliseconds is noise; the environment variable
 * TENDON_PROGRESS_DELAY_MS sets another delay, 0 for a bar from the start), redrawn in place on whole-percent
 * changes: "tendon run: baking [#########...............................]  23%". progress_end
 * ends the line when a bar was drawn, so what follows starts on a line of its own. */
#ifndef TENDON_PROGRESS_H
#define TENDON_PROGRESS_H

#define PROGRESS_DELAY_MS 250.0

typedef struct progress_bar {
    char label[160];  /* "tendon run: baking" */
    int enabled;      /* stderr is a terminal (or forced) */
    int last_percent; /* -1 before the first drawing */
    double start_ms;
    double delay_ms;
} progress_bar;

/* Starts a bar labelled `label` (cut to fit); enabled = -1 asks isatty(stderr), 0 or 1 force. */
void progress_begin(progress_bar *b, const char *label, int enabled);
/* Reports `done` of `total` steps. */
void progress_update(progress_bar *b, long done, long total);
/* Ends the bar's line (when it was drawn). */
void progress_end(progress_bar *b);

#endif
