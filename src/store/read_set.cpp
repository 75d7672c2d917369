// The per-thread read record (see cal/store/read_set.h).
#include "cal/store/read_set.h"

namespace cal {
namespace {

thread_local ReadSet t_read;

}  // namespace

// Ids are not deduplicated here: the cache indexes each once (a list page reads a venue per event).
void note_post_read(long long id) { t_read.posts.push_back(id); }

void note_term_read(long long id) { t_read.terms.push_back(id); }

void note_list_read(ListFamily family) { t_read.lists |= static_cast<unsigned>(family); }

const ReadSet& read_set() { return t_read; }

void reset_read_set() {
  t_read.posts.clear();
  t_read.terms.clear();
  t_read.lists = 0;
}

}  // namespace cal
