// Series and their overrides in the feeds (see cal/api/ical/ical_series.h).
#include "cal/api/ical/ical_series.h"

#include "cal/api/events/event_recurrence.h"
#include "cal/api/posts/post_access.h"
#include "cal/store/event_series.h"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace cal {
namespace {

// Whether the caller's lists show `post` (docs/api.md §4.1; a due scheduled post reads as
// published by the time it is read).
bool listed_for(const PostVisibility& v, const PostRow& post) {
  if (post.status == "trash") return false;
  if (post.status == "publish") return true;
  if (v.scope == ReadScope::kAll) return true;
  return v.scope == ReadScope::kPublishedAndOwn && post.author == v.user_id;
}

void merge(EventRelations& into, EventRelations&& from) {
  into.venues.merge(from.venues);
  into.organizers.merge(from.organizers);
  into.organizer_ids.merge(from.organizer_ids);
  into.categories.merge(from.categories);
  into.tags.merge(from.tags);
  into.images.insert(into.images.end(), from.images.begin(), from.images.end());
  into.series.merge(from.series);
}

}  // namespace

std::vector<FeedItem> feed_items(RequestContext& ctx, const std::vector<Event>& events, bool expand,
                                 EventRelations& relations) {
  std::vector<FeedItem> out;
  std::set<long long> series_done;
  const PostVisibility visible = readable_posts(ctx);
  for (const Event& e : events) {
    if (expand || !e.occurrence) {
      out.push_back({e, e.post.id, {}, std::nullopt, {}, false, 0});
      continue;
    }
    const long long series_id = e.occurrence->series_id;
    if (!series_done.insert(series_id).second) continue;
    auto series = load_series_with_relations(ctx.db, series_id, std::nullopt);
    if (!series) {  // the series went between the page's statements: the occurrence as listed
      out.push_back({e, e.post.id, {}, std::nullopt, {}, false, 0});
      continue;
    }
    FeedItem master{series->first,
                    series_id,
                    {},
                    std::nullopt,
                    series->first.details.timezone,
                    series->first.details.all_day,
                    0};
    if (const auto it = series->second.series.find(series_id); it != series->second.series.end())
      master.recurrence = it->second.recurrence;
    merge(relations, std::move(series->second));
    std::vector<long long> exception_ids;
    for (const StoredOccurrence& o : find_series_occurrences(ctx.db, series_id)) {
      if (o.is_exception) exception_ids.push_back(o.event_id);
      master.last_year = std::max(master.last_year, std::atoi(o.original_utc.substr(0, 4).c_str()) + 1);
    }
    std::vector<Event> exceptions = find_events(ctx.db, exception_ids);
    std::vector<Event> shown;
    for (Event& x : exceptions) {
      if (!x.occurrence) continue;
      if (listed_for(visible, x.post))
        shown.push_back(std::move(x));
      else
        master.recurrence = with_exdate(std::move(master.recurrence), master.event,
                                        StoredOccurrence{x.post.id, series_id, x.occurrence->original_local,
                                                         x.occurrence->original_utc, true});
    }
    merge(relations,
          load_event_relations(
              ctx.db, shown,
              RelationParts{.images = false, .tags = false, .term_counts = false, .per_part = true}));
    out.push_back(std::move(master));
    const std::size_t master_at = out.size() - 1;
    for (Event& x : shown) {
      const EventOccurrence original = *x.occurrence;
      out.push_back({std::move(x),
                     series_id,
                     {},
                     original,
                     out[master_at].series_zone,
                     out[master_at].series_all_day,
                     0});
    }
  }
  return out;
}

}  // namespace cal
