// How event rows are selected and read (see event_rows.h).
#include "store/event_rows.h"

#include <stdexcept>

namespace cal {
namespace {

// Detail columns read by read_event(), after kPostColumns.
constexpr const char* kDetailColumns =
    "DATE_FORMAT(d.start_local, '%Y-%m-%d %H:%i:%s'), DATE_FORMAT(d.end_local, '%Y-%m-%d %H:%i:%s'), "
    "DATE_FORMAT(d.start_utc, '%Y-%m-%d %H:%i:%s'), DATE_FORMAT(d.end_utc, '%Y-%m-%d %H:%i:%s'), "
    "d.timezone, d.all_day, d.cost, d.website, d.show_map, d.show_map_link, d.hide_from_listings, d.sticky, "
    "d.featured, ev.venue_id, "
    // The occurrence row, if any, in one column: a lookup by primary key per row, whatever the
    // statement's joins.
    "(SELECT CONCAT_WS('|', eo.series_id, DATE_FORMAT(eo.original_local, '%Y-%m-%d %H:%i:%s'), "
    "DATE_FORMAT(eo.original_utc, '%Y-%m-%d %H:%i:%s'), eo.is_exception) FROM event_occurrences eo "
    "WHERE eo.event_id = p.id)";

// "series|original local|original utc|exception" as the select list writes it.
std::optional<EventOccurrence> parse_occurrence(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const std::size_t a = text.find('|');
  const std::size_t b = text.find('|', a + 1);
  const std::size_t c = text.find('|', b + 1);
  if (a == std::string::npos || b == std::string::npos || c == std::string::npos) return std::nullopt;
  EventOccurrence o;
  o.series_id = std::stoll(text.substr(0, a));
  o.original_local = text.substr(a + 1, b - a - 1);
  o.original_utc = text.substr(b + 1, c - b - 1);
  o.is_exception = text.substr(c + 1) == "1";
  return o;
}

}  // namespace

std::string event_columns() { return std::string(kPostColumns) + ", " + kDetailColumns; }

std::string select_events() { return "SELECT " + event_columns() + kEventFrom; }

Event read_event(const Rows& rows, int first) {
  Event e;
  e.post = read_post_row(rows, first);
  int c = first + kPostColumnCount;
  EventDetails& d = e.details;
  d.start_local = rows.text(c++);
  d.end_local = rows.text(c++);
  d.start_utc = rows.text(c++);
  d.end_utc = rows.text(c++);
  d.timezone = rows.text(c++);
  d.all_day = rows.integer(c++) != 0;
  d.cost = rows.text(c++);
  d.website = rows.text(c++);
  d.show_map = rows.integer(c++) != 0;
  d.show_map_link = rows.integer(c++) != 0;
  d.hide_from_listings = rows.integer(c++) != 0;
  d.sticky = rows.integer(c++) != 0;
  d.featured = rows.integer(c++) != 0;
  e.venue_id = rows.integer(c++);
  e.occurrence = parse_occurrence(rows.text(c++));
  // Statements put more columns after these (event_relations.cpp): a column added here without
  // kEventColumnCount would shift every one of them.
  if (c - first != kEventColumnCount) throw std::logic_error("read_event: kEventColumnCount is out of date");
  return e;
}

ListedEventKey read_event_key(const Rows& rows, int first) {
  ListedEventKey key;
  key.id = rows.integer(first);
  key.status = rows.text(first + 1);
  key.author = rows.integer(first + 2);
  key.start_utc = rows.text(first + 3);
  key.end_utc = rows.text(first + 4);
  key.hidden = rows.integer(first + 5) != 0;
  key.featured = rows.integer(first + 6) != 0;
  return key;
}

}  // namespace cal
