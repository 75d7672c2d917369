// Everything the records of a set of events embed (organizer links in order, venues, organizers,
// categories and tags, the images of all of them): in ONE statement whatever the number of events
// (a list page costs count + page + this, a single read its post row + this), or with
// RelationParts::per_part one narrow statement per kind of row (hundreds of events: MariaDB builds
// wide rows slowly). Each venue, organizer and term is read once however many of the events link
// it: events share most of them.
#pragma once

#include "cal/store/events.h"
#include "cal/store/organizers.h"
#include "cal/store/terms.h"
#include "cal/store/venues.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cal {

struct EventRelationRows {
  std::vector<Event> events;                                     // only with `with_events`
  std::vector<std::pair<long long, long long>> organizer_links;  // (event, organizer) by event, position
  std::vector<Venue> venues;                                     // each once
  std::vector<Organizer> organizers;                             // each once
  std::vector<std::pair<long long, Term>> terms;                 // (event, term) by event, then name
  std::vector<Image> images;                                     // of the events, venues, organizers
};

// Venues, organizers, terms and images read before and kept by the caller (a server keeps them
// in its fragment cache, which drops each on any logged change of what it shows): a relations read
// that may use them reads the events' links, and only the rows of the records not kept, instead of
// every linked record again. Events share a few venues, organizers and terms, so a page of events
// rendered for the first time mostly needs their links alone.
struct KeptVenue {
  Venue venue;
  std::optional<Image> image;
};
struct KeptOrganizer {
  Organizer organizer;
  std::optional<Image> image;
};
struct KeptTerm {
  Term term;
  std::string sort_key;  // the collation's sort key of its name (sort_event_terms())
};
class LinkedRowKeeper {
 public:
  virtual ~LinkedRowKeeper() = default;
  // The row kept under an id, or null.
  virtual std::shared_ptr<const KeptVenue> venue(long long id) = 0;
  virtual std::shared_ptr<const KeptOrganizer> organizer(long long id) = 0;
  virtual std::shared_ptr<const KeptTerm> term(long long id) = 0;
  virtual std::shared_ptr<const Image> image(long long id) = 0;
  // Rows just read, for later reads.
  virtual void keep(std::shared_ptr<const KeptVenue> row) = 0;
  virtual void keep(std::shared_ptr<const KeptOrganizer> row) = 0;
  virtual void keep(std::shared_ptr<const KeptTerm> row) = 0;
  virtual void keep(std::shared_ptr<const Image> row) = 0;
};

// The terms `ids` as a relations read keeps them, with their counts and sort keys, in no
// particular order: for records kept without their terms (cal/cache/fragment_cache.h). One
// statement, none for no ids; ids of no term are left out.
std::vector<KeptTerm> find_kept_terms(Db& db, const std::vector<long long>& ids);

// What to read besides the links, venues, organizers and categories.
struct RelationParts {
  bool events = false;      // the events themselves, as find_events() reads them
  bool images = true;       // the images of the events, venues and organizers
  bool tags = true;         // tags as well as categories
  bool term_counts = true;  // the terms' counts (else 0)
  // One narrow statement per kind of row instead of one wide one: for hundreds of events (MariaDB
  // builds wide rows slowly), at the cost of a round trip per kind.
  bool per_part = false;
  // Linked rows to use instead of reading them, and to keep those read in; used when the events'
  // venue and image ids are known before the links are read (`events` asked for, or the events
  // given), for the complete records (images, tags and term counts, one statement at a time).
  LinkedRowKeeper* kept = nullptr;
};

// The relations of the events `event_ids` (and what `parts` asks for); nothing (no statement) for
// no ids.
EventRelationRows find_event_relations(Db& db, const std::vector<long long>& event_ids,
                                       const RelationParts& parts = {});

// The same for `events` already read: their venues and images are then read by the ids the
// events hold.
EventRelationRows find_event_relations(Db& db, const std::vector<Event>& events,
                                       const RelationParts& parts = {});

// The links of one event as the write in progress set them, so that its answer need not read
// them back; each set nullopt when the write left it as it was. Ids as the write was given them:
// duplicates count once, and a term id of the other taxonomy is no link (as set_event_terms()).
struct WrittenLinks {
  std::optional<std::vector<long long>> organizer_ids;  // in link order
  std::optional<std::vector<long long>> category_ids;
  std::optional<std::vector<long long>> tag_ids;
};

// The relations of `event`, written in this transaction with `links`, for the write's answer:
// its venue and image by the ids it holds, the organizers and terms by the ids of `links` (the
// link rows read by the event's id only for a set the write left alone), each a primary-key
// lookup, all in one statement; none when it shows no related record. Term counts are read:
// the write's own links changed them.
EventRelationRows find_written_event_relations(Db& db, const Event& event, const WrittenLinks& links);

}  // namespace cal
