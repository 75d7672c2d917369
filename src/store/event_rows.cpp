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
    "d.featured, ev.venue_id";

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
  // Statements put more columns after these (event_relations.cpp): a column added here without
  // kEventColumnCount would shift every one of them.
  if (c - first != kEventColumnCount) throw std::logic_error("read_event: kEventColumnCount is out of date");
  return e;
}

}  // namespace cal
