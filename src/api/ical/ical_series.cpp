// Series and their overrides in the feeds (see cal/api/ical/ical_series.h).
#include "cal/api/ical/ical_series.h"

#include "cal/api/events/event_recurrence.h"
#include "cal/api/posts/post_access.h"
#include "cal/store/event_series.h"

#include <algorithm>
#include <cstdlib>
#include <map>
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
  // The page's series, each once, in the order of their first occurrence on it.
  std::vector<long long> series_ids;
  if (!expand) {
    std::set<long long> seen;
    for (const Event& e : events)
      if (e.occurrence && seen.insert(e.occurrence->series_id).second)
        series_ids.push_back(e.occurrence->series_id);
  }
  // All of them read together: a statement for each kind of row, however many series the page
  // holds (read one by one, the 44 series of a 1,000-event feed at a million demo events take
  // 300 statements).
  const std::map<long long, Event> records = find_series_events(ctx.db, series_ids);
  const std::map<long long, SeriesSpan> spans = find_series_spans(ctx.db, series_ids);
  const std::map<long long, SeriesRule> rules = find_series_rules(ctx.db, series_ids);
  std::vector<std::pair<Event, long long>> with_plain;
  std::vector<long long> exception_ids;
  for (const auto& [id, record] : records) {
    const auto span = spans.find(id);
    if (span != spans.end())
      exception_ids.insert(exception_ids.end(), span->second.exceptions.begin(),
                           span->second.exceptions.end());
    with_plain.emplace_back(record, span != spans.end() ? span->second.plain_occurrence : 0);
  }
  if (!with_plain.empty()) merge(relations, load_series_relations(ctx.db, with_plain));
  // The occurrences edited alone of every series, by series.
  std::map<long long, std::vector<Event>> exceptions;
  for (Event& x : find_events(ctx.db, exception_ids))
    if (x.occurrence) {
      const long long series_id = x.occurrence->series_id;
      exceptions[series_id].push_back(std::move(x));
    }

  std::vector<FeedItem> out;
  std::set<long long> series_done;
  const PostVisibility visible = readable_posts(ctx);
  std::vector<Event> shown_anywhere;  // for their relations, read together after
  for (const Event& e : events) {
    if (expand || !e.occurrence) {
      out.push_back({e, e.post.id, {}, std::nullopt, {}, false, 0, e.post.id});
      continue;
    }
    const long long series_id = e.occurrence->series_id;
    if (!series_done.insert(series_id).second) continue;
    const auto record = records.find(series_id);
    if (record == records.end()) {  // the series went between the page's statements: the occurrence as listed
      out.push_back({e, e.post.id, {}, std::nullopt, {}, false, 0, e.post.id});
      continue;
    }
    FeedItem master{record->second,
                    series_id,
                    {},
                    std::nullopt,
                    record->second.details.timezone,
                    record->second.details.all_day,
                    0,
                    e.post.id};
    if (const auto rule = rules.find(series_id); rule != rules.end())
      master.recurrence = rule->second.recurrence;
    if (const auto span = spans.find(series_id); span != spans.end())
      master.last_year = std::atoi(span->second.last_original_utc.substr(0, 4).c_str()) + 1;
    std::vector<Event> shown;
    if (auto it = exceptions.find(series_id); it != exceptions.end())
      for (Event& x : it->second) {
        if (listed_for(visible, x.post))
          shown.push_back(std::move(x));
        else
          master.recurrence = with_exdate(std::move(master.recurrence), master.event,
                                          StoredOccurrence{x.post.id, series_id, x.occurrence->original_local,
                                                           x.occurrence->original_utc, true});
      }
    const std::string zone = master.series_zone;
    const bool all_day = master.series_all_day;
    out.push_back(std::move(master));
    for (Event& x : shown) {
      shown_anywhere.push_back(x);
      const EventOccurrence original = *x.occurrence;
      out.push_back({std::move(x), series_id, {}, original, zone, all_day, 0, e.post.id});
    }
  }
  merge(relations,
        load_event_relations(
            ctx.db, shown_anywhere,
            RelationParts{.images = false, .tags = false, .term_counts = false, .per_part = true}));
  return out;
}

}  // namespace cal
