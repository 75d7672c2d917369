// Internal to src/store/: the derived data of a series' occurrences written set-wise, while
// @cal_bulk_load is set (store/bulk_load.h), as the row triggers of schema.sql would have written
// it row by row. A weekly series of ten years is 520 occurrences: per row, the triggers of posts,
// details, links and postings cost several times the rows themselves.
#pragma once

#include "cal/store/db.h"

#include <string>
#include <utility>
#include <vector>

namespace cal {

// The posts of new occurrences, copied from their series' rows, each with its own slug: for
// execute_json_rows() (store/json_rows.h), rows [slug, series id].
inline constexpr const char* kInsertOccurrencePosts =
    "INSERT INTO posts (type, status, status_before_trash, author, title, content, excerpt, slug, password, "
    "parent, image_id, date_local, date_utc, modified_local, modified_utc) "
    "SELECT 'event', s.status, s.status_before_trash, s.author, s.title, s.content, s.excerpt, x.slug, "
    "s.password, s.id, s.image_id, s.date_local, s.date_utc, s.modified_local, s.modified_utc FROM "
    "JSON_TABLE(?, '$[*]' COLUMNS (slug VARCHAR(200) CHARACTER SET utf8mb4 PATH '$[0]', sid BIGINT "
    "UNSIGNED PATH '$[1]')) x JOIN posts s FORCE INDEX (PRIMARY) ON s.id = x.sid";

// Which post is which occurrence: rows [occurrence id, series id, original local, original UTC].
inline constexpr const char* kInsertOccurrenceRows =
    "INSERT INTO event_occurrences (event_id, series_id, original_local, original_utc) SELECT x.id, x.sid, "
    "x.ol, x.ou FROM JSON_TABLE(?, '$[*]' COLUMNS (id BIGINT UNSIGNED PATH '$[0]', sid BIGINT UNSIGNED "
    "PATH '$[1]', ol DATETIME PATH '$[2]', ou DATETIME PATH '$[3]')) x";

// The list rollups of the occurrences of series `series_id` whose ids are `first_new_id` or
// more (inserted by this write, after every older one): the day rollups by start and by end and
// event_duration_hours, as event_details' insert triggers count them (store/day_counts.h).
void count_new_occurrences(Db& db, long long series_id, long long first_new_id);
// The same for the occurrences that `where` (with `args`) names in `occurrences`, a reference to
// event_occurrences as `eo` (with an index hint, say).
void count_occurrences(Db& db, const std::string& occurrences, const std::string& where,
                       const std::vector<SqlValue>& args);

// The functions below work on the "followers" of series `series_id`: its occurrences not edited
// alone whose ids are `from_id` or more (0: all of them; an extension of the horizon: the new ones).
// `fresh`: the followers were all inserted by this write, so have no links or postings to replace.

// Replaces the venue, organizer and term links of the followers with the series' own, each with its copies of
// the occurrence's list columns, and the term counts of the published ones (the link tables' insert
// triggers). The delete triggers run as always. Returns the terms whose counts may have changed, to note.
std::vector<long long> copy_occurrence_links(Db& db, long long series_id, long long from_id, bool fresh);

// Replaces the search postings of the followers with copies of the series' own, counted out of and into
// search_word_days grouped.
void copy_occurrence_postings(Db& db, long long series_id, long long from_id, bool fresh);

// Notes in the change log (data_version, data_changes) the followers as events, and `terms` as categories or
// tags: one version per record, in the writer's shard, as cal_note_change() would have noted them one by one.
void note_occurrence_changes(Db& db, long long series_id, long long from_id,
                             const std::vector<long long>& terms);

// Notes the (kind, id) rows of `records` (a SELECT of two columns, with `args`) in the change log:
// as many versions of this connection's shard, one data_changes row under each.
void note_records(Db& db, const std::string& records, const std::vector<SqlValue>& args);

}  // namespace cal
