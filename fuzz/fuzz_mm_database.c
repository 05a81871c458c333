/* Fuzz target: motion-matching database bytes (tdn_mm_database_load). Any input must load or
 * fail cleanly (the sanitizers catch the rest); a failure must leave no database and name its
 * place; a loaded database must save to exactly the input's bytes (one database, one byte
 * image), and a search with a zero query must give the same cost brute force and accelerated
 * and return a searchable frame or none. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tendon/mm_database.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int searchable(const tdn_mm_database *db, int frame)
{
    tdn_mm_frame f;
    return tdn_mm_database_frame(db, frame, &f, NULL) == TDN_OK && f.searchable;
}

static void check_database(const tdn_mm_database *db, const uint8_t *data, size_t size)
{
    const size_t bytes = tdn_mm_database_save_size(db);
    if (bytes != size)
        abort();
    unsigned char *saved = malloc(bytes);
    if (!saved)
        return;
    if (tdn_mm_database_save_memory(db, saved, bytes, NULL) != TDN_OK || memcmp(saved, data, size) != 0)
        abort();
    free(saved);

    const int dims = tdn_mm_database_dimensions(db), frames = tdn_mm_database_frame_count(db);
    if (dims < 1 || dims > TDN_MM_MAX_DIMS || frames < 1)
        abort();
    static const float zero[TDN_MM_MAX_DIMS];
    const int currents[2] = { -1, frames / 2 };
    for (int c = 0; c < 2; c++) {
        tdn_mm_match brute, fast;
        if (tdn_mm_search(db, zero, currents[c], 0.05f, TDN_MM_SEARCH_BRUTE, &brute, NULL) != TDN_OK ||
            tdn_mm_search(db, zero, currents[c], 0.05f, TDN_MM_SEARCH_ACCELERATED, &fast, NULL) != TDN_OK)
            abort();
        if (brute.cost != fast.cost || (brute.frame >= 0) != (fast.frame >= 0))
            abort();
        if ((brute.frame >= 0 && !searchable(db, brute.frame)) || (fast.frame >= 0 && !searchable(db, fast.frame)))
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tdn_mm_database *db = NULL;
    tdn_error err = { 0 };
    if (tdn_mm_database_load_memory(data, size, &db, NULL, &err) == TDN_OK) {
        check_database(db, data, size);
        tdn_mm_database_destroy(db);
    } else if (db || err.where[0] == '\0' || err.message[0] == '\0') {
        abort(); /* a failure leaves no database and names its place */
    }
    return 0;
}
