// What the store read for the response being computed: the records (posts and terms)
// whose rows it returned and the list families it paged. The response cache keeps an answer
// only until one of these changes (cal/cache/response_cache.h). Noted by the store's row readers
// themselves, so that no handler can forget a record it embeds. Per thread, like the clock-use
// record: one request runs on one thread at a time, and the router resets it for each.
#pragma once

#include <vector>

namespace cal {

// Lists whose membership or totals any write of their kind may change.
enum class ListFamily : unsigned {
  kEvents = 1u << 0,
  kVenues = 1u << 1,
  kOrganizers = 1u << 2,
  kTerms = 1u << 3,  // categories and tags
};

struct ReadSet {
  std::vector<long long> posts;  // posts.id of events, venues, organizers, images read
  std::vector<long long> terms;  // terms.id read
  unsigned lists = 0;            // ListFamily bits of the lists paged

  // Nothing read from a record or a list: an answer that still depends on the data (settings,
  // the root index) is then taken to depend on all of it.
  bool empty() const { return posts.empty() && terms.empty() && lists == 0; }
};

void note_post_read(long long id);
void note_term_read(long long id);
void note_list_read(ListFamily family);

// What the current request noted since reset_read_set().
const ReadSet& read_set();

// Starts a new request.
void reset_read_set();

}  // namespace cal
