/* Drive database: attribute meaning and unit by model/firmware, because the
 * same attribute id means different things on different drives.
 *
 * Read at run time from the drive database smartmontools installs
 * (/usr/share/smartmontools/drivedb.h, kept current by update-smart-drivedb;
 * /var/lib/smartmontools/drivedb/drivedb.h is preferred when present), then
 * our own small table for what it lacks (data/attribute-quirks.tsv, compiled
 * in). Why parse smartmontools' file ourselves: it is C source meant to be
 * #included into smartctl, with no library or other format; its entries are
 * { family, model regex, firmware regex, warning, presets }, and the presets
 * ("-v 9,minutes -v 241,raw48,Host_Writes_32MiB ...") are what we need.
 *
 * The first entry whose model regex matches the whole model and whose
 * firmware regex (empty = any) matches the whole firmware is used, as
 * smartctl does; the "DEFAULT", "VERSION:" and "USB:" entries are skipped.
 * Regexes are matched as bounded patterns (record.h: PCRE2 under compile and
 * match limits; the POSIX extended syntax drivedb.h uses means the same); an
 * entry whose regex does not compile or hits a limit is skipped. Results are
 * cached per model/firmware. */
#ifndef WW_COLLECT_DRIVEDB_H
#define WW_COLLECT_DRIVEDB_H

#include <stdbool.h>

#include "wearwatch/decode.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Use this drivedb.h (NULL = the default search) and forget what was
 * loaded. For tests and the configuration; not thread-safe. */
void ww_drivedb_set_path(const char *path);

/** Presets for a model/firmware into p (cleared first): attribute 9 unit,
 * attribute 241 unit, unsafe-shutdown attribute id, each with a source string
 * naming the entry ("drivedb.h Maxtor DiamondMax 60 ATA 100: -v 9,minutes").
 * Returns 1 when an entry or quirk row applied, 0 when none matched or no
 * database is installed, -EINVAL on NULL arguments. Thread-safe. */
int ww_drivedb_lookup(const char *model, const char *firmware, ww_ata_presets_t *p);

/** Apply one preset text ("-v 9,minutes -v 241,raw48,Host_Writes_32MiB") to
 * p; src names the entry. The source strings set in p ("<src> -v 9,minutes")
 * are interned: one copy per distinct text, kept for the process lifetime
 * (records point to them); otherwise pure. Thread-safe. Returns how many
 * presets were understood. */
int ww_drivedb_apply_presets(const char *presets, const char *src, ww_ata_presets_t *p);

/** An attribute name (at most 32 characters, as smartctl prints them)
 * interned for the process lifetime, so that records can point to it; NULL
 * for none, a longer one, or when the bounded table is full. Thread-safe. */
const char *ww_drivedb_intern_name(const char *name);

/** ww_ata_finish_presets() with the presets for h's model/firmware (every
 * attribute's format, name, count and has_count: decode.h). */
void ww_ata_finish_db(ww_health_t *h);

#ifdef __cplusplus
}
#endif
#endif
