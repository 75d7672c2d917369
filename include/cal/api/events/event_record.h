// The one writer of the event record (docs/api.md §3.1), with its embedded venue, organizers, terms and
// image, `json_ld` on single reads, and the masking of password-protected events (docs/api.md §3.5).
// Relations are loaded for a whole page at once, in a fixed number of statements.
#pragma once

#include "cal/api/pipeline/context.h"
#include "cal/api/pipeline/json.h"
#include "cal/cache/fragment_cache.h"
#include "cal/store/event_relations.h"
#include "cal/store/event_series.h"
#include "cal/store/events.h"
#include "cal/store/organizers.h"
#include "cal/store/terms.h"
#include "cal/store/venues.h"

#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cal {

// What the record of a recurring series adds (docs/recurring-events.md).
struct SeriesRecord {
  std::vector<std::string> recurrence;                      // normal form
  std::optional<MaterialiseCounts> counts;                  // on the answer of a write
  std::optional<std::vector<UpcomingOccurrence>> upcoming;  // on a single read
};

// What the records of a set of events embed, keyed for lookup while writing.
struct EventRelations {
  std::unordered_map<long long, Venue> venues;                          // by venue id
  std::unordered_map<long long, Organizer> organizers;                  // by organizer id
  std::unordered_map<long long, std::vector<long long>> organizer_ids;  // by event id, link order
  std::unordered_map<long long, std::vector<Term>> categories;          // by event id, by name
  std::unordered_map<long long, std::vector<Term>> tags;                // by event id, by name
  std::vector<Image> images;                                            // of events, venues, organizers
  std::unordered_map<long long, SeriesRecord> series;                   // by series id
};

// The relations as records embed them, from the rows read (cal/store/event_relations.h).
EventRelations keyed_event_relations(EventRelationRows rows);

// Loads the relations of `events`: organizer links, venues, organizers, terms and images (what
// `parts` asks for): one statement, or one per kind with `parts.per_part`; none for no events.
EventRelations load_event_relations(Db& db, const std::vector<Event>& events,
                                    const RelationParts& parts = {});

// The relations of `event`, written in this transaction with `links` (its venue and image as it
// holds them), read for the write's answer (cal/store/event_relations.h): what it links by id, in
// at most one statement.
EventRelations load_written_event_relations(Db& db, const Event& event, const WrittenLinks& links);

// The relations of series records, each paired with the id of one of its occurrences not edited
// alone (0 when none), as load_series_with_relations() reads them for one: in one statement for
// any number of series (their rules and occurrences are not read).
EventRelations load_series_relations(Db& db, const std::vector<std::pair<Event, long long>>& series);

// Series `id` as a record and its relations (its links as its occurrences carry them), with its
// rule and, given `upcoming_after` (a UTC time), its next occurrences; nullopt when `id` is no
// series.
std::optional<std::pair<Event, EventRelations>> load_series_with_relations(
    Db& db, long long id, const std::optional<std::string>& upcoming_after);

// The event `id` and its relations, in one statement (a single read; with `kept`, the linked rows
// not kept in a second one); nullopt when there is no event with details of this id.
std::optional<std::pair<Event, EventRelations>> load_event_with_relations(Db& db, long long id,
                                                                          LinkedRowKeeper* kept = nullptr);

// What a read of one event names (GET /events/{id} or by slug, as JSON or iCalendar): a series,
// or an event: by id loaded with its relations in one statement, by slug its post row first.
// Answers 404 (ApiError) when the id or slug names neither. The caller checks the row.
struct NamedEventRead {
  long long series_id = 0;                                 // a series: read it instead
  std::optional<std::pair<Event, EventRelations>> loaded;  // by id
  PostRow row;                                             // the event's post row
};
NamedEventRead find_named_event(RequestContext& ctx);

// How much of a record the caller sees.
enum class EventView {
  kFull,    // everything
  kMasked,  // password-protected content hidden (docs/api.md §3.5)
};

// A record written to be kept (cal/api/events/event_fragments.h): its term arrays left empty,
// and where they are in `buffer`, the one its writer writes to, with the terms they show.
struct TermSlots {
  const JsonBuffer& buffer;
  std::vector<TermSplice> splices;
};

// Writes the event record, every key of docs/api.md §3.1 in order; `json_ld` only when `single` and
// the view is full. With `slots`, its categories and tags are left to be spliced in.
void write_event(JsonWriter& w, const RequestContext& ctx, const Event& event,
                 const EventRelations& relations, EventView view, bool single, TermSlots* slots = nullptr);

// Whether the caller may see a password-protected event's content on a single read: no password
// set, the right `password` parameter, or context=edit with edit rights.
bool event_unlocked(const RequestContext& ctx, const PostRow& row);

}  // namespace cal
