// Event records reused from the fragment cache (cal/cache/fragment_cache.h): a list writes the
// records it already rendered for any earlier answer and reads relations only for the rest; a
// single read by id answers from its kept record after the access checks, without a statement.
// A record is kept without its terms' records, which are spliced in as they are when it is written
// out: a term's count changes with every event written in it, and would otherwise drop every
// record showing the term. The fragments are whatever write_event() writes
// (cal/api/events/event_record.h): this file knows only which records an event shows, never its keys.
#pragma once

#include "cal/api/events/event_record.h"
#include "cal/cache/fragment_cache.h"

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace cal {

// Writes the list records of `events` (the masked view, docs/api.md §3.5) in their order: each
// kept one as it was rendered, the others rendered with their relations, read for them alone (one
// statement; none when every record was kept), then kept. Without ctx.fragments, loads every
// relation and renders every record, as a list always did.
void write_event_list(JsonWriter& w, RequestContext& ctx, const std::vector<Event>& events);

// A page's list records about to be written: each kept one, and for the others the event and its
// relations.
struct ListedRecords {
  std::vector<std::string> keys;                      // the fragment keys, in list order
  std::vector<std::shared_ptr<const Fragment>> kept;  // null where not kept
  std::vector<Event> events;                          // the event where not kept
  EventRelations relations;                           // of the events not kept
};

// The records of a page read as keys (find_event_key_page(), cal/store/events.h): the kept ones,
// and the rows of the others read with their relations in one statement (none when every record
// was kept). nullopt when one of those no longer lists as its key says (written between the two
// statements), or without ctx.fragments: the caller then reads the page as rows.
std::optional<ListedRecords> gather_event_list(RequestContext& ctx, const std::vector<ListedEventKey>& keys);

// The events of `keys` (a page read as keys) not kept (`kept[i]` null), read with their relations
// in one statement as `parts` asks, in list order. nullopt when one no longer lists as its key
// says (written between the two statements): listed from what it was then, it might show what the
// caller may not see now, or sit out of place.
struct UnkeptEvents {
  std::vector<Event> events;
  EventRelations relations;
};
std::optional<UnkeptEvents> read_unkept_events(RequestContext& ctx, const std::vector<ListedEventKey>& keys,
                                               const std::vector<std::shared_ptr<const Fragment>>& kept,
                                               RelationParts parts);

// Writes `list` in its order: the kept records as they were rendered, the others rendered now and
// kept.
void write_event_list(JsonWriter& w, RequestContext& ctx, const ListedRecords& list);

// The kept full record of event `id` for a single read, or null (none kept, or no fragment cache).
// Its `source` is the event's PostRow, for the read and password checks; the records it shows are
// noted as read (cal/store/read_set.h) once written: call note_fragment_read().
std::shared_ptr<const Fragment> find_single_event(RequestContext& ctx, long long id);

// The venues, organizers, terms and images kept in ctx.fragments for relations reads
// (cal/store/event_relations.h); null without a fragment cache.
std::unique_ptr<LinkedRowKeeper> fragment_row_keeper(RequestContext& ctx);
std::unique_ptr<LinkedRowKeeper> fragment_row_keeper(const FragmentUse& fragments);

// Writes the full record of a single read of `event`, rendered from `relations`, and keeps it.
void keep_single_event(JsonWriter& w, RequestContext& ctx, const Event& event,
                       const EventRelations& relations);

// Writes a record find_single_event() found as it reads now: with the current records of its terms
// (kept rows, or read in one statement).
void write_kept_single_event(JsonWriter& w, RequestContext& ctx, const Fragment& kept);

// The current rows of the terms kept records show, by id (null for a term no longer there).
using TermRows = std::unordered_map<long long, std::shared_ptr<const KeptTerm>>;

// The rows of the terms `fragments` splice: those kept, the others read in one statement (none
// when all are kept) and kept.
TermRows current_terms(RequestContext& ctx, const std::vector<const Fragment*>& fragments);

// A kept record's terms in the order a record rendered now would show them: by name as the
// collation sorts it, then id (a term renamed since may move).
std::vector<const Term*> current_order(const TermSplice& splice, const TermRows& rows);

// Notes what a fragment shows as read by this answer, as reading its rows would have.
void note_fragment_read(const Fragment& fragment);

// The records `event`'s rendering shows (itself, its image, its venue, organizers and their
// images) into `f`'s posts. False when one of them is a scheduled post: it reads as `publish` once
// due, which no change logs, so its rendering is not kept.
bool collect_shown(const Event& event, const EventRelations& rel, Fragment& f);

}  // namespace cal
