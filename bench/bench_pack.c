/* tendon_bench: the `pack_load` workload (bench_pack.h). */
#define _POSIX_C_SOURCE 200809L /* open, read, close */
#include "bench_pack.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_report.h"
#include "bench_timing.h"
#include "tendon/tendon_io.h"

#ifndef TENDON_BLENDMOTION_GRAPH
#  define TENDON_BLENDMOTION_GRAPH "examples/graphs/blendmotion.json"
#endif

enum { ROUNDS = 11, QUICK_ROUNDS = 3, STEPS = 4 };
static const char *const STEP_NAMES[STEPS] = { "read", "open", "load_graph", "open_and_load" };

/* The pack: the BlendMotion document with its character and compressed clips, then the
 * humanoid's clips the document does not play, compressed alike, under their own names. */
static tdn_result make_pack(tdn_pack_writer *w, int *clips, tdn_error *err)
{
    const tdn_graph_document_load_options compressed = { .clip_storage = TDN_STORAGE_COMPRESSED };
    tdn_graph_document *doc = NULL;
    void *json = NULL;
    size_t size = 0;
    tdn_result r = tdn_graph_document_load(TENDON_BLENDMOTION_GRAPH, &compressed, &doc, NULL, err);
    if (r == TDN_OK)
        r = tdn_file_read(NULL, TENDON_BLENDMOTION_GRAPH, &json, &size, NULL, err);
    if (r == TDN_OK)
        r = tdn_pack_writer_add_graph_document(w, "blendmotion", doc, json, size, err);
    *clips = tdn_graph_document_clip_count(doc);
    const tdn_asset *humanoid = tdn_graph_document_asset(doc);
    for (int c = 0; r == TDN_OK && c < tdn_asset_clip_count(humanoid); c++) {
        const tdn_keyed_clip *keys = tdn_asset_clip(humanoid, c);
        int played = 0;
        for (int k = 0; k < tdn_graph_document_clip_count(doc); k++)
            played |= strcmp(tdn_graph_document_clip_name(doc, k), tdn_keyed_clip_name(keys)) == 0;
        if (played)
            continue;
        const tdn_clip_desc desc = { .source = keys, .storage = TDN_STORAGE_COMPRESSED };
        tdn_clip *clip = NULL;
        r = tdn_clip_create(&desc, &clip, NULL, err);
        if (r == TDN_OK)
            r = tdn_pack_writer_add_clip(w, clip, 0, NULL, err);
        *clips += r == TDN_OK;
        tdn_clip_destroy(clip);
    }
    tdn_free(json, size, NULL);
    tdn_graph_document_destroy(doc);
    return r;
}

/* open(), read() into `buffer` until the end, close(): 1 when all `size` bytes came. */
static int read_file(const char *path, unsigned char *buffer, size_t size)
{
    const int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    size_t got = 0;
    for (ssize_t n = 1; got < size && n > 0; got += n > 0 ? (size_t)n : 0)
        n = read(fd, buffer + got, size - got);
    close(fd);
    return got == size;
}

/* One round: the four steps' times in ns. */
static tdn_result round_of(const char *path, unsigned char *buffer, size_t size, double ns[STEPS], tdn_error *err)
{
    tdn_pack *pack = NULL;
    tdn_graph_document *doc = NULL;
    double t0 = bench_now_ns();
    if (!read_file(path, buffer, size))
        return bench_fail(err, TDN_ERR_IO, "reading the pack_load pack");
    ns[0] = bench_now_ns() - t0;
    t0 = bench_now_ns();
    tdn_result r = tdn_pack_open(buffer, size, &pack, NULL, err);
    ns[1] = bench_now_ns() - t0;
    t0 = bench_now_ns();
    if (r == TDN_OK)
        r = tdn_graph_document_load_pack(pack, 0, NULL, &doc, NULL, err);
    ns[2] = bench_now_ns() - t0;
    tdn_graph_document_destroy(doc);
    tdn_pack_destroy(pack);
    pack = NULL;
    doc = NULL;
    t0 = bench_now_ns();
    if (r == TDN_OK)
        r = tdn_pack_open(buffer, size, &pack, NULL, err);
    if (r == TDN_OK)
        r = tdn_graph_document_load_pack(pack, 0, NULL, &doc, NULL, err);
    ns[3] = bench_now_ns() - t0;
    tdn_graph_document_destroy(doc);
    tdn_pack_destroy(pack);
    return r;
}

tdn_result bench_run_pack_load(int quick, bench_emit_fn emit, void *user, tdn_error *err)
{
    char path[4096];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/tendon_bench_pack_load_%ld.tdn", dir && dir[0] ? dir : "/tmp", (long)getpid());
    tdn_pack_writer *w = NULL;
    int clips = 0;
    tdn_result r = tdn_pack_writer_create(&w, NULL, err);
    if (r == TDN_OK)
        r = make_pack(w, &clips, err);
    if (r == TDN_OK)
        r = tdn_pack_writer_save(w, path, err);
    tdn_pack_writer_destroy(w);
    if (r != TDN_OK)
        return r;
    FILE *f = fopen(path, "rb");
    long size = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (f)
        fclose(f);
    const size_t bytes = size > 0 ? (size_t)size : 0;
    unsigned char *buffer = bytes ? aligned_alloc(TDN_PACK_ALIGN,
                                                  (bytes + TDN_PACK_ALIGN - 1) / TDN_PACK_ALIGN * TDN_PACK_ALIGN)
                                  : NULL;
    if (!buffer) {
        remove(path);
        return bench_fail(err, TDN_ERR_IO, "reading the pack_load pack");
    }
    const int rounds = quick ? QUICK_ROUNDS : ROUNDS;
    double ns[STEPS][ROUNDS], one[STEPS], median[STEPS], least[STEPS];
    r = round_of(path, buffer, bytes, one, err); /* the cache warm, the code paged in */
    for (int k = 0; k < rounds && r == TDN_OK; k++) {
        r = round_of(path, buffer, bytes, one, err);
        for (int s = 0; s < STEPS; s++)
            ns[s][k] = one[s];
    }
    for (int s = 0; s < STEPS && r == TDN_OK; s++) {
        least[s] = ns[s][0];
        for (int k = 1; k < rounds; k++)
            least[s] = ns[s][k] < least[s] ? ns[s][k] : least[s];
        median[s] = bench_median(ns[s], rounds);
    }
    for (int s = 0; s < STEPS && r == TDN_OK; s++) {
        bench_row row = bench_row_make("pack_load", 67, STEP_NAMES[s], 1);
        row.median_ns = median[s];
        row.min_ns = least[s];
        bench_row_add_number(&row, "bytes", (double)bytes);
        bench_row_add_number(&row, "clips", clips);
        if (s == STEPS - 1) {
            bench_row_add_number(&row, "ratio_to_read", median[s] / median[0]);
            bench_row_add_number(&row, "min_ratio_to_read", least[s] / least[0]);
        }
        emit(&row, user);
    }
    free(buffer);
    remove(path);
    return r;
}
